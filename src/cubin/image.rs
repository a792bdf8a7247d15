//! [`Image`]: a plain description of one compiled module, everything the cubin writer
//! ([`super::writer::write`]) needs and nothing it can compute.
//!
//! The image says *what* the module holds (kernels, their code and resources, the facts the
//! driver reads from `.nv.info*`); the writer decides *where* it goes (section order, string
//! tables, symbol indices, offsets, program headers), exactly as ptxas 13.0.88 lays it out for
//! sm_90 (digest-backend §4). [`super::derive::from_cubin`] builds an image back from a real
//! cubin, which is how the writer is checked byte for byte against NVIDIA's files.
//!
//! Invariants an image must satisfy for [`super::writer::write`] to accept it (checked there,
//! each violation a located [`super::CubinError`]):
//! - (the target is not checked: the image is made from a [`Target`] by [`Image::new`], and
//!   the writer lays out bank 0 from it; only targets with a backend, [`Target::backend`],
//!   reach the writer from the compiler, and the section layout is sm_90's);
//! - every kernel's `code` is a non-empty whole number of 16-byte instructions; every
//!   instruction offset it names (EXIT, indirect branches, subroutines, frames) lies inside it
//!   and is 16-byte aligned where it names an instruction;
//! - parameters are listed in PTX order (their index is the KPARAM_INFO ordinal) and end at or
//!   before `param_size`;
//! - names are non-empty and contain no NUL.
//!
//! Facts that are not in the cubin but that `ptxas -v` prints (spill bytes, device functions'
//! own stack frames) live in [`Report`]; the writer ignores them.

use super::eiattr::{IndirectBranch, MbarrierInstr};
use crate::target::Target;

/// A module: one cubin's worth of kernels and module-level facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// The target the code is for: its SM number goes to e_flags, its bank-0 layout gives the
    /// parameter base. (`sm_90a` code may have an `sm_90` target with `accelerated`: a module
    /// whose `.target` is `sm_90a` is marked whatever `-arch` said.)
    pub target: Target,
    /// `sm_XXa`: recorded in `.nv.compat` (EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET), not e_flags.
    pub accelerated: bool,
    /// The PTX carried debug information: e_flags' top byte becomes 0x0a instead of 0x06.
    pub debug: bool,
    /// The PTX `.target` SM, as `.note.nv.cuinfo` records it (90 for `.target sm_90`).
    pub virtual_sm: u16,
    /// Toolkit version × 10 (130 = 13.0): `.note.nv.cuinfo` and EIATTR_CUDA_API_VERSION.
    pub toolkit: u32,
    /// `.note.nv.tkinfo`'s strings.
    pub tool: ToolInfo,
    /// `.nv.compat`'s records.
    pub compat: Compat,
    /// EIATTR_MERCURY_ISA_VERSION, `major << 8 | minor` (0x101 on sm_90).
    pub mercury_isa_version: u16,
    /// EIATTR_SW_WAR's mask (8 on sm_90+).
    pub sw_war: u32,
    /// The kernels, in the order ptxas emits them (each gets its own `.text.<name>`).
    pub kernels: Vec<Kernel>,
    /// Module variables and their sections (`.nv.global*`, `.nv.constant3`, `.nv.constant4`).
    pub data: ModuleData,
    /// Debug sections (PTX with `.loc`/`.file`), carried as opaque DWARF.
    pub debug_info: DebugInfo,
    /// A kernel reads `%reserved_smem_offset_0`, which ptxas resolves itself: the weak
    /// `.nv.reservedSmem.offset0` object every other sm_90 cubin carries becomes a nameless
    /// `STV_INTERNAL` symbol (its name zeroed in `.strtab`), like a dropped symbol.
    pub reserved_offset0_resolved: bool,
}

/// The debug sections ptxas writes for PTX that carries debug information, as opaque bytes:
/// the writer places them (after `.debug_frame`) and writes their relocations, it does not
/// generate DWARF. Each is absent when `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DebugInfo {
    /// `.debug_line` and its relocations.
    pub line: Option<(Vec<u8>, Vec<DataReloc>)>,
    /// `.debug_str`.
    pub str: Option<Vec<u8>>,
    /// `.nv_debug_line_sass` and its relocations.
    pub line_sass: Option<(Vec<u8>, Vec<DataReloc>)>,
    /// `.nv_debug_ptx_txt`.
    pub ptx_txt: Option<Vec<u8>>,
}

/// Module-scope variables: `.global` (initialised → `.nv.global.init`, else `.nv.global`) and
/// `.const` (`.nv.constant3`), plus the address table ptxas builds in `.nv.constant4`.
///
/// Invariants: every variable lies inside its section; every relocation and address-table
/// entry names a variable, a subroutine or a kernel of the image.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleData {
    /// The variables, in the order ptxas processes them: weak ones, then visible ones, then
    /// internal ones (PTX order within each group). Each variable's section is created (name,
    /// section symbol) at its first variable; visible variables' own symbols come after the
    /// kernels'.
    pub variables: Vec<Variable>,
    /// `.nv.global.init` (PROGBITS, WA).
    pub global_init: Option<DataSection>,
    /// `.nv.global` (NOBITS, WA): `(size, align)`.
    pub global: Option<(u64, u64)>,
    /// `.nv.constant3` (PROGBITS, A): user `.const` data.
    pub constant3: Option<DataSection>,
    /// `.nv.constant4`: one 8-byte slot per name, relocated (R_CUDA_64) to that variable's
    /// address; created right after the first of these variables.
    pub address_table: Vec<String>,
}

impl ModuleData {
    /// Bytes of global memory (`ptxas -v`'s `gmem`): `.nv.global.init` plus `.nv.global`.
    pub fn gmem(&self) -> u64 {
        self.global_init.as_ref().map_or(0, |d| d.bytes.len() as u64) + self.global.map_or(0, |g| g.0)
    }
}

/// The contents of an initialised data section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DataSection {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Alignment.
    pub align: u64,
    /// Relocations into it, in ascending offset order.
    pub relocations: Vec<DataReloc>,
    /// Whether its `.rela` section exists (ptxas keeps it, empty, when it resolved every
    /// relocation itself, e.g. function addresses).
    pub relocation_section: bool,
}

/// A relocation in a data section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataReloc {
    /// Byte offset in the section.
    pub offset: u64,
    /// The symbol (a variable, subroutine or kernel name).
    pub symbol: String,
    /// `R_CUDA_*` type (2 = R_CUDA_64, 4 = R_CUDA_G64).
    pub kind: u32,
    /// Addend.
    pub addend: i64,
}

/// Where a variable lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// `.nv.global.init`.
    GlobalInit,
    /// `.nv.global`.
    Global,
    /// `.nv.constant3`.
    Constant,
}

/// A symbol's binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bind {
    /// `STB_LOCAL`: internal linkage.
    Local,
    /// `STB_GLOBAL`: `.visible` (and `.common`); ptxas creates these symbols after the kernels'.
    Global,
    /// `STB_WEAK`: `.weak`, and ptxas's internal helpers.
    Weak,
}

impl Bind {
    /// The `STB_*` value.
    pub fn stb(self) -> u8 {
        match self {
            Bind::Local => 0,
            Bind::Global => 1,
            Bind::Weak => 2,
        }
    }
}

/// A module-scope variable (an `STT_OBJECT` symbol).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Symbol name.
    pub name: String,
    /// Binding.
    pub bind: Bind,
    /// Its section.
    pub space: Space,
    /// Byte offset in the section.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
}

/// `.note.nv.tkinfo`: which tool wrote the file and with which arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolInfo {
    /// The object name (empty in ptxas output).
    pub object: String,
    /// `ptxas`.
    pub name: String,
    /// `Cuda compilation tools, release 13.0, V13.0.88`.
    pub version: String,
    /// `Build cuda_13.0.r13.0/compiler.36424714_0`.
    pub branch: String,
    /// The command-line options as ptxas re-prints them (`-arch sm_90 `, `-v  -arch sm_90 `).
    pub arguments: String,
}

impl Default for ToolInfo {
    /// What ptxas 13.0.88 writes for `ptxas -arch=sm_90`.
    fn default() -> Self {
        ToolInfo {
            object: String::new(),
            name: "ptxas".into(),
            version: "Cuda compilation tools, release 13.0, V13.0.88".into(),
            branch: "Build cuda_13.0.r13.0/compiler.36424714_0".into(),
            arguments: "-arch sm_90 ".into(),
        }
    }
}

/// `.nv.compat` (EICOMPAT records, always in this order on sm_90).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compat {
    /// EICOMPAT_ATTR_ISA_CLASS (1).
    pub isa_class: u8,
    /// EICOMPAT_ATTR_INST_TCGEN05_MMA (5).
    pub tcgen05_mma: u8,
    /// EICOMPAT_ATTR_MERCURY_ISA_MAJOR_MINOR_VERSION (0x101).
    pub mercury_isa: u16,
    /// EICOMPAT_ATTR_INST_TENSORMAP_V1 (0).
    pub tensormap_v1: u8,
    /// EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION (1).
    pub opportunistic_finalization: u8,
    /// EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE's two words (0, 0 on sm_90).
    pub fastpath_finalize: [u32; 2],
}

impl Default for Compat {
    /// ptxas 13.0.88's values for sm_90.
    fn default() -> Self {
        Compat {
            isa_class: 1,
            tcgen05_mma: 5,
            mercury_isa: 0x101,
            tensormap_v1: 0,
            opportunistic_finalization: 1,
            fastpath_finalize: [0, 0],
        }
    }
}

impl Image {
    /// An empty module for `target` (arch-accelerated as the target is) with ptxas 13.0.88's
    /// module-level constants; the `.target` SM is the target's until set.
    pub fn new(target: &Target) -> Image {
        Image {
            target: target.clone(),
            accelerated: target.accelerated(),
            debug: false,
            virtual_sm: target.sm() as u16,
            toolkit: 130,
            tool: ToolInfo::default(),
            compat: Compat::default(),
            mercury_isa_version: 0x101,
            sw_war: 8,
            kernels: Vec::new(),
            data: ModuleData::default(),
            debug_info: DebugInfo::default(),
            reserved_offset0_resolved: false,
        }
    }
}

/// One kernel (`.entry`) and the device functions ptxas placed in its `.text` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    /// The symbol name.
    pub name: String,
    /// The whole `.text.<name>` section: the kernel's instructions, then any subroutines, then
    /// ptxas's `BRA`-to-self and NOP padding (to a multiple of 128 bytes).
    pub code: Vec<u8>,
    /// Registers per thread as EIATTR_REGCOUNT records them (ptxas's count, not the highest
    /// index).
    pub registers: u32,
    /// Parameters in PTX order.
    pub params: Vec<Param>,
    /// Total parameter bytes in constant bank 0 (EIATTR_CBANK_PARAM_SIZE; the bank is
    /// the target's parameter base + `param_size` bytes).
    pub param_size: u32,
    /// EIATTR_FRAME_SIZE: local-memory frame bytes.
    pub frame_size: u32,
    /// EIATTR_MIN_STACK_SIZE: the frame plus what callees need.
    pub min_stack_size: u32,
    /// `.nv.shared.<name>`, if the kernel uses shared memory.
    pub shared: Option<Shared>,
    /// EIATTR_MAXREG_COUNT (0xff unless `.maxnreg` / `--maxrregcount`).
    pub maxreg: u16,
    /// EIATTR_SPARSE_MMA_MASK (0).
    pub sparse_mma_mask: u16,
    /// EIATTR_MAX_THREADS (`.maxntid`).
    pub max_threads: Option<[u32; 3]>,
    /// EIATTR_REQNTID (`.reqntid`).
    pub reqntid: Option<[u32; 3]>,
    /// EIATTR_NUM_BARRIERS (named barriers used; absent when none).
    pub num_barriers: Option<u8>,
    /// EIATTR_EXIT_INSTR_OFFSETS: byte offset of every EXIT.
    pub exit_offsets: Vec<u32>,
    /// EIATTR_CRS_STACK_SIZE, present when the kernel makes calls.
    pub crs_stack_size: Option<u32>,
    /// The rarer per-kernel facts.
    pub extra: Vec<KernelAttr>,
    /// Device functions and internal helpers placed in this kernel's `.text`, in symbol order.
    pub subroutines: Vec<Subroutine>,
    /// `.debug_frame` entries (one CIE + FDE pair per function), in section order.
    pub frames: Vec<Frame>,
    /// `.nv.constant2.<name>`: the kernel's jump tables (`brx.idx` targets, dense `switch`),
    /// as code byte offsets. ptxas resolves their relocations itself, so the
    /// `.rela.nv.constant2.<name>` it writes beside them is empty.
    pub constant2: Option<Vec<u8>>,
    /// Whether ptxas created a `.rela.text.<name>` for this kernel; in ET_EXEC it resolves
    /// every code relocation itself, so the section is empty (seen with calls, shared-memory
    /// windows, ...).
    pub code_relocation_section: bool,
    /// What `ptxas -v` prints that the cubin does not record.
    pub report: Report,
}

/// One kernel parameter as EIATTR_KPARAM_INFO describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// Byte offset from the target's parameter base (0x210 on sm_90).
    pub offset: u16,
    /// Size in bytes.
    pub size: u16,
    /// `Pointee's logAlignment` (0 in everything ptxas 13 emits for sm_90).
    pub log_align: u8,
    /// `Space` (0).
    pub space: u8,
    /// `Parameter Space : SMEM` instead of `CBANK` (false).
    pub smem: bool,
}

/// `.nv.shared.<kernel>` (NOBITS): static shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shared {
    /// Size in bytes, including the 0x400 bytes reserved at the start on sm_90. A kernel that
    /// has only dynamic (`extern`) shared memory has exactly 0x400: ptxas then writes the
    /// section but no section symbol, and `-v` prints no `smem`.
    pub size: u64,
    /// Alignment (the largest variable alignment, at least 4).
    pub align: u64,
    /// How many shared-variable symbols ptxas created and then dropped (ET_EXEC keeps them as
    /// nameless `STV_INTERNAL` symbols, and their zeroed names in `.strtab`).
    pub dropped_symbols: u32,
}

/// A device function or internal helper inside a kernel's `.text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subroutine {
    /// Symbol name (`$kernel$callee` for device functions, `$__internal_N_$…` for helpers).
    pub name: String,
    /// Byte offset in the kernel's `.text`.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// Binding: helpers are weak, device functions local, `.visible` ones global (their
    /// symbols come after the kernel's).
    pub bind: Bind,
    /// EIATTR_FRAME_SIZE of the function.
    pub frame_size: u32,
    /// `.alias` names of the function: size-0 symbols at its offset with its binding, placed
    /// right after it in `.symtab` (a local alias's name is created after `.rela.text`'s).
    pub aliases: Vec<String>,
}

/// One `.debug_frame` CIE + FDE pair describing a function of the kernel's `.text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The CIE's return-address column: 0xffffffff for a kernel, ptxas's DWARF number of the
    /// return-address register (0x5000100) for a callable function.
    pub return_address: u64,
    /// The CIE's initial instructions (version 3, no augmentation, code alignment 4 and data
    /// alignment -4 are fixed).
    pub cie: Vec<Cfa>,
    /// Start of the described range, a byte offset into the kernel's `.text` (written into the
    /// FDE and relocated with R_CUDA_64 against the kernel symbol with this addend).
    pub start: u64,
    /// Length of the range in bytes.
    pub range: u64,
    /// The FDE's instructions.
    pub fde: Vec<Cfa>,
}

/// A DWARF call-frame instruction, as ptxas uses them. Register numbers are ptxas's DWARF
/// numbers: GPR `Rn` is `0x5000000 + n` (R255 is 0x50000ff), other classes are other tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cfa {
    /// `DW_CFA_advance_loc4` (0x04) by this delta.
    AdvanceLoc4(u32),
    /// `DW_CFA_def_cfa` (0x0c).
    DefCfa {
        /// Register.
        reg: u64,
        /// Offset.
        offset: u64,
    },
    /// `DW_CFA_def_cfa_offset` (0x0e).
    DefCfaOffset(u64),
    /// `DW_CFA_same_value` (0x08).
    SameValue(u64),
    /// `DW_CFA_register` (0x09): `reg` is saved in `to`.
    Register {
        /// The register described.
        reg: u64,
        /// Where it is kept.
        to: u64,
    },
    /// `DW_CFA_offset_extended` (0x05): `reg` saved at CFA + `offset` × data alignment.
    OffsetExtended {
        /// Register.
        reg: u64,
        /// Factored offset.
        offset: u64,
    },
    /// `DW_CFA_restore_extended` (0x06).
    RestoreExtended(u64),
    /// `DW_CFA_expression` (0x10).
    Expression {
        /// Register.
        reg: u64,
        /// The DWARF expression bytes.
        expr: Vec<u8>,
    },
    /// `DW_CFA_val_expression` (0x16). An expression starting with `DW_OP_addr` (0x03) gets an
    /// R_CUDA_64 relocation on its 8 address bytes against the kernel symbol.
    ValExpression {
        /// Register.
        reg: u64,
        /// The DWARF expression bytes.
        expr: Vec<u8>,
    },
}

/// The less common `.nv.info.<kernel>` records; the writer places each at ptxas's position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelAttr {
    /// EIATTR_CTA_PER_CLUSTER `[x, y, z]` (`.reqnctapercluster`).
    CtaPerCluster([u32; 3]),
    /// EIATTR_RESERVED_SMEM_USED (NVAL).
    ReservedSmemUsed,
    /// EIATTR_WMMA_USED (NVAL).
    WmmaUsed,
    /// EIATTR_UNUSED_LOAD_BYTE_OFFSET: `[offset, byte mask]` pairs.
    UnusedLoadByteOffset(Vec<u32>),
    /// EIATTR_INT_WARP_WIDE_INSTR_OFFSETS.
    IntWarpWideInstrOffsets(Vec<u32>),
    /// EIATTR_COOP_GROUP_MASK_REGIDS.
    CoopGroupMaskRegids(Vec<u32>),
    /// EIATTR_COOP_GROUP_INSTR_OFFSETS.
    CoopGroupInstrOffsets(Vec<u32>),
    /// EIATTR_MBARRIER_INSTR_OFFSETS.
    MbarrierInstrOffsets(Vec<MbarrierInstr>),
    /// EIATTR_NUM_MBARRIERS (HVAL).
    NumMbarriers(u16),
    /// EIATTR_INDIRECT_BRANCH_TARGETS.
    IndirectBranchTargets(Vec<IndirectBranch>),
}

impl KernelAttr {
    /// The EIATTR code.
    pub fn code(&self) -> u8 {
        match self {
            KernelAttr::CtaPerCluster(_) => 0x3d,
            KernelAttr::ReservedSmemUsed => 0x41,
            KernelAttr::WmmaUsed => 0x2b,
            KernelAttr::UnusedLoadByteOffset(_) => 0x44,
            KernelAttr::IntWarpWideInstrOffsets(_) => 0x31,
            KernelAttr::CoopGroupMaskRegids(_) => 0x29,
            KernelAttr::CoopGroupInstrOffsets(_) => 0x28,
            KernelAttr::MbarrierInstrOffsets(_) => 0x39,
            KernelAttr::NumMbarriers(_) => 0x38,
            KernelAttr::IndirectBranchTargets(_) => 0x34,
        }
    }
}

/// What `ptxas -v` prints about a kernel that the cubin does not hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Spill store bytes.
    pub spill_stores: u64,
    /// Spill load bytes.
    pub spill_loads: u64,
    /// Per device function: `(name as printed, stack frame, spill stores, spill loads)`, in
    /// the order ptxas prints them.
    pub functions: Vec<(String, u64, u64, u64)>,
}
