//! The SASS emulator: runs a kernel of a real cubin (NVIDIA's or ours) on the CPU, a warp of 32
//! lanes per instruction, with an optional hazard checker for the scheduling control bits.
//!
//! Architectures: sm_90 (and sm_90a), Blackwell (sm_100, sm_120), the sm_80 family (sm_80,
//! sm_86, sm_89) and sm_75 (Turing); any other SM is refused at load. Blackwell is sm_90's
//! model with its bank 0 layout (below), the forms its decoder tables give (`LDCU` uniform
//! constant loads, also `.128` and indexed by a uniform register; `BRA.U UP0` on a uniform
//! predicate; 8-bit uniform-register fields, which the decoder maps to sm_90's numbering),
//! sm_100's `CREDUX` (a min/max `REDUX`), `VIMNMX`'s and `ATOMS.CAST.SPIN`'s predicate results,
//! sm_120's 64-bit integer instructions (`IADD.64`, `UIADD3.64`, `MOV.64`, `SEL.64`,
//! `ISETP`/`IMNMX` `.S64`/`.U64`), its SIMD `VIADD.U8x4`, `VIADD.S32.ISAT`, `VIMNMX.U8x4`, and
//! `CS2UR`; and the hazard figures of [`hazard::HazardState::for_sm`]. Shared memory is sm_90's
//! (0x400 reserved bytes, slot bits from `SR_CgaCtaId`). Where the sm_80 family differs it is said below
//! (bank 0, shared addresses and their `[R.X4]` scales, mbarriers, `YIELD`) and in
//! [`hazard::HazardState::for_sm`]. sm_75 is the sm_80 family's model (bank 0 layout and slots,
//! plain shared offsets) with Turing's differences: global accesses have no descriptor but a
//! 64-bit uniform address pair (`program::sm75_global_address`: `[R.64+UR]`, `[R.U32+UR]`,
//! `[UR]`, and `.E` for a 64-bit register in the register-only forms), `IMMA.8816`
//! (m8n8k16), `HADD2`'s f32 operand (`R.F32`), and its hazard figures (predicate to guard 12,
//! barrier settle 5, uniform address registers read at issue, `SHFL` in the shared-memory queue).
//!
//! # Launch ([`run_cubin`])
//!
//! The launcher reads the cubin ([`ptxas_rs::cubin::Cubin`]), takes the kernel's whole
//! `.text.<kernel>` section as the program (the kernel plus the internal subroutines ptxas
//! appends), and lays out what the driver would:
//!
//! - **global memory**: the spec's buffers by [`crate::memory::GlobalMemory::from_spec`] (the
//!   same addresses the Ori interpreter uses);
//! - **constant bank 0** per [`ptxas_rs::cubin::Constant0Layout::for_sm`]: ntid at 0x0, nctaid at
//!   0xc, the initial stack pointer at 0x28 ([`LOCAL_TOP`], the top of local memory), the
//!   global memory descriptor at 0x208 (0x118 on the sm_80 family; zero: `desc[UR]` operands
//!   are accepted and ignored), and the parameter block of
//!   [`crate::launch::LaunchSpec::param_block`] at the kernel's `EIATTR_PARAM_CBANK` base (0x210
//!   on sm_90, 0x160 on the sm_80 family, as NVIDIA's sm_80 code reads its parameters); on
//!   Blackwell ntid at 0x360, nctaid at 0x370, the stack pointer at 0x37c, the descriptor at
//!   0x358 and the parameters at 0x380; the driver slots ptxas reads (sm_90: `DriverSlots`;
//!   Blackwell: [`BLACKWELL_DRIVER`]'s; sm_80 family: the `SM80_*` slots here).
//!   Other banks are the cubin's `.nv.constantN`
//!   (3: `__constant__` data; 4: the addresses of global variables), with their `R_CUDA_64`
//!   relocations applied;
//! - **module globals** (`.nv.global`, `.nv.global.init`): placed after the spec's buffers, so
//!   the spec's addresses do not move;
//! - **shared memory** per CTA: `.nv.shared.<kernel>`'s size (which includes sm_90's reserved
//!   0x400 bytes; the sm_80 family reserves none) rounded up to 16, plus the spec's dynamic
//!   `shared_bytes`; on sm_90 `LDS`/`STS` addresses are `SR_CgaCtaId << 24 | offset`, and
//!   `SR_CgaCtaId` reads a nonzero slot per CTA (`exec::cta_slot`; an access with other slot
//!   bits is a fault, as the hardware's slot is not 0 either); on the sm_80 family they are
//!   plain offsets (slot 0), and the register of a shared access may be scaled (`[R0.X4+0x10]`
//!   is `R0 * 4 + 0x10`; `.X8`, `.X16`: [`program::Opnd::Mem`]'s `shift`);
//! - **local memory** per thread: the largest of `FRAME_SIZE`, `MIN_STACK_SIZE`,
//!   `MAX_STACK_SIZE` (rounded up to 16), at least [`DEFAULT_STACK_BYTES`] (the driver's
//!   default stack limit, which recursive code relies on);
//! - **generic addresses** (`LD`/`ST`/`ATOM`): resolved by the windows of [`crate::memory`]
//!   (`resolve_generic`, by range), as the Ori interpreter resolves them: the CTA's shared
//!   memory (`SR_SWINHI` reads its high word [`SHARED_HI`]; its low word is 0), the thread's
//!   local memory (`SR_LWINHI`/`SR_LWINLO` read [`LOCAL_HI`]/[`LOCAL_LO`]; bank 0's local-window
//!   slot holds the whole base, whose low word is not 0), the constant and parameter windows,
//!   anything else global.
//!
//! The outputs are the spec's output buffers as [`crate::Outputs`], the same form as
//! [`crate::run_ori`], so the two executors compare directly.
//!
//! # Execution model
//!
//! **Scheduling (deterministic).** CTAs run one after another in linear order (x fastest). A
//! CTA's threads are numbered linearly and grouped into warps of 32; lanes past the block size
//! never run. Warps run in index order, each until it cannot progress (all its lanes exited or
//! waiting at a barrier, or polling an mbarrier whose phase has not completed: a
//! `SYNCS.PHASECHK` that fails for a lane hands over to the next warp after it, since a spin
//! loop progresses only through the other warps); when every warp waits, a CTA barrier whose
//! every live lane waits at `BAR.SYNC` with one id releases, otherwise that is a deadlock error.
//!
//! **sm_80-family mbarriers** are ptxas's software sequences on a shared word (init by `STS.64`,
//! test by `LDS` of the high word) plus `ATOMS.ARRIVE.64` and `ARRIVES.LDGSTSBAR.64`, whose
//! arrival on the word is `exec::mbar::sm80_arrive`; the wait is a polling loop that progresses
//! only through the other warps, so in sm_80-family code `YIELD` hands the warp over to the next
//! one (sm_90 code ignores it, keeping its established schedule).
//!
//! **mbarriers** (`SYNCS.EXCH.64` init, `SYNCS.ARRIVE.TRANS64` arrive/expect-tx,
//! `SYNCS.PHASECHK.TRANS64` test/try-wait, `ARRIVES.LDGSTSBAR` for cp.async, `UBLKCP` bulk
//! copies completing transaction bytes, `ELECT`): the 64-bit word in shared memory in ptxas's
//! init layout (`exec::mbar`), pending transactions beside it; copies complete at once.
//!
//! **Divergence (independent thread scheduling, min-pc rule).** Every lane has its own pc. The
//! warp executes the group of runnable lanes at the *lowest* pc together; a group that reaches the
//! pc of other runnable lanes merges with them. `BSSY Bn, L` records the active mask in `Bn` of
//! each active lane; `BSYNC Bn` makes the arriving lanes wait until every live lane of the
//! recorded mask has arrived at that `BSYNC`, then they continue together; `BREAK Bn` removes the
//! active lanes from every lane's `Bn`; `WARPSYNC mask` waits for the lanes of `mask`; `EXIT`
//! retires lanes (they stop counting in masks). `CALL.REL` jumps (ptxas passes the return
//! address in a register) and `RET.REL Rk` jumps per lane to the byte offset in `Rk`; so does
//! the indirect `CALL.REL Rk` (a function pointer is a .text byte offset in a linked cubin:
//! ptxas resolves the `R_CUDA_64` of a function's address itself, e.g. call_fnptr's table in
//! `.nv.global.init`).
//!
//! **Registers.** Per lane R0–R254 (RZ reads 0), P0–P6 (PT reads true); per warp UR0–UR62 and
//! UP0–UP6. Uniform instructions (`U*`, `S2UR`, `R2UR`, `REDUX`, `VOTEU`) write the value of the
//! lowest active lane. Registers start at 0 (except R1, which the code loads itself).
//!
//! **What executes** is [`program::Kind`]; meanings of the ALU ops are in [`alu`]. A word that
//! does not decode, or whose instruction is not implemented, executes as an error naming the
//! offset and the word ([`EmuErrorKind::Invalid`]), never a panic.
//!
//! **How it executes.** A [`Prepared`] launch also holds each instruction's pre-decoded fast
//! form (the executor's `fast` module): the common register-to-register ALU instructions
//! (`IADD3`, `IMAD`, `LEA`, `LOP3`, `SHF`, `SEL`, `ISETP`, `FADD`/`FMUL`/`FFMA`, `FSETP`,
//! `MUFU`, ...) with their operands resolved, run on all 32 lanes and blended into the
//! destination by the guarded mask, compiled also for AVX2 and AVX-512 and picked by the CPU
//! at run time; global, shared and local loads and stores that fault in no lane; and `BRA`.
//! Without the hazard checker a run of such instructions executes in one call. Every other
//! instruction (and a load or store that would fault) runs through the general executor. Both
//! give the same results bit for bit (the fast forms mirror the general executor's arms, which
//! stay the reference), so the path taken is invisible in a run's results;
//! [`EmuConfig::fast_paths`] turns the fast forms off, and `tests/emu_fast_paths.rs` compares
//! the two on the corpus.
//!
//! **Faults.** Out-of-bounds or misaligned global/shared/local/constant accesses are
//! [`EmuErrorKind::Fault`] naming the instruction offset, its text and the thread.
//!
//! **Hazards** ([`EmuConfig::hazards`]): the checker of [`hazard`] runs on each warp's issued
//! stream; the first hazard stops the run with [`EmuErrorKind::Hazard`]. Independently of it,
//! an `HGMMA` reading shared bytes that a generic-proxy store (`STS`, `ST` to shared) wrote with
//! no `FENCE.VIEW.ASYNC.S` (PTX `fence.proxy.async`) after it by the storing warp is also an
//! [`EmuErrorKind::Hazard`]: the async proxy need not see such a store (measured on the H100).
//!
//! Invariant: no input (cubin bytes, spec, code) makes the emulator panic; every failure is an
//! [`EmuError`].

// Errors are the cold path; keeping `EmuError` a plain struct with public fields is worth its size.
#![allow(clippy::result_large_err)]

pub mod alu;
pub mod convert;
mod exec;
pub mod fp8;
mod gmma_form;
pub mod hazard;
pub mod image;
pub mod program;

use std::fmt;

use ptxas_rs::cubin::Cubin;
use ptxas_rs::cubin::eiattr::code;

use crate::launch::LaunchSpec;
use crate::memory::{Fault, GlobalMemory};
use crate::ori_exec::{Outputs, ThreadId};

pub use exec::atom_apply;
pub use program::{Banks, Program};

/// The generic windows' words that special registers read, shared with the Ori interpreter.
pub use crate::memory::{LOCAL_HI, LOCAL_LO, SHARED_HI};

/// The local address just past a thread's local memory, what `c[0x0][0x28]` (the initial
/// stack pointer) holds: a thread's `local_bytes` are the addresses `[LOCAL_TOP - local_bytes,
/// LOCAL_TOP)`. Not 0-based, as on the GPU, where a kernel that addressed its frame from 0
/// instead of from the stack pointer faulted (an H200, `corpus/gpu/README.md`).
pub const LOCAL_TOP: u32 = 0x0100_0000;

/// sm_80-family driver slots of bank 0 (`Constant0Layout::for_sm` has none for the family), each
/// read by NVIDIA's sm_80 code of a corpus kernel (ptxas 13.0 -O3; the notes are silent) and
/// checked by that kernel's GPU golden in `tests/emu_sm80.rs`; slots no corpus code reads are
/// left zero. The 64-bit generic address of shared offset 0: `cvta.shared` adds
/// `c[0x0][0x18]` with the carry into 0x1c (dyn_smem_extern).
const SM80_SHARED_WINDOW: u32 = 0x18;
/// The launch's dynamic shared bytes (`%dynamic_smem_size`; dyn_smem_extern), as on sm_90.
const SM80_DYNAMIC_SMEM: u32 = 0x2c;
/// `%nsmid` (sreg_geometry compares `SR_VIRTUALSMID` with it), as on sm_90.
const SM80_SM_COUNT: u32 = 0x10c;
/// `%total_smem_size` is `SR_SMEMSZ` minus this word (dyn_smem_extern), as on sm_90.
const SM80_SMEM_TOTAL_SUB: u32 = 0x114;

/// Blackwell (sm_100, sm_120) driver slots of bank 0 (`Constant0Layout::for_sm` has none for
/// them), each found where NVIDIA's sm_100 and sm_120 code (ptxas 13.0 -O3) of a corpus kernel
/// reads what its sm_90 code reads from the sm_90 slot of [`ptxas_rs::cubin::DriverSlots`], and
/// checked by that kernel's GPU golden in `tests/emu_blackwell.rs` (the notes are silent):
/// addr_exprs (local, constant and parameter windows), dyn_smem_extern, sreg_cluster_smem and
/// sreg_geometry. The launch-shape slots (`dynamic_smem`, the cluster words, `aggr_smem`,
/// `reserved_smem_end`) are read at `c[0x0][R + off]` with `R = SR_CgaSize * -0xa0`: the emulator's
/// `SR_CgaSize` reads 0 (what a GPU reads is not known: no Blackwell GPU is lent), so they are at
/// the offsets ptxas adds; a program's results do not depend on that choice, as the table would
/// move with it. `%gridid`'s slot is not known (no corpus code reads it: sreg_geometry folds it
/// away), so it is placed past the bank, where nothing is written.
const BLACKWELL_DRIVER: ptxas_rs::cubin::DriverSlots = ptxas_rs::cubin::DriverSlots {
    local_window: 0x2f8,
    dynamic_smem: 0x2ac,
    sm_count: 0x2d0,
    grid_id: 0xffff_0000,
    const_window: 0x120,
    param_window: 0x348,
    cluster_dims: 0x2a0,
    cluster_rcp: 0x2b0,
    nclusters: 0x2c0,
    cluster_size: 0x2cc,
    explicit_cluster: 0x36c,
    smem_total_sub: 0x16c,
    aggr_smem: 0x2bc,
    reserved_smem_end: 0x278,
    reserved_smem_1: 0x27c,
};

/// Per-thread stack the driver provides at least (`cudaLimitStackSize`'s default).
pub const DEFAULT_STACK_BYTES: u32 = 1024;

/// Options of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmuConfig {
    /// Check scheduling hazards ([`hazard`]).
    pub hazards: bool,
    /// The most warp-instructions the launch may execute.
    pub step_limit: u64,
    /// Execute the pre-decoded fast forms where they apply (see "How it executes" above);
    /// `false` runs every instruction through the general executor, the reference the fast
    /// forms must agree with (`tests/emu_fast_paths.rs` compares the two on the corpus).
    pub fast_paths: bool,
}

impl Default for EmuConfig {
    fn default() -> Self {
        EmuConfig { hazards: false, step_limit: 200_000_000, fast_paths: true }
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmuErrorKind {
    /// The cubin does not parse, has no such kernel, or is for an arch without tables.
    Cubin(String),
    /// The spec does not fit the kernel (parameter block size).
    Spec(String),
    /// An instruction that does not decode or is not implemented, or a jump outside the code.
    Invalid(String),
    /// An operand form the executor does not handle.
    Unsupported(String),
    /// A memory access failed.
    Fault(Fault),
    /// A scheduling hazard (hazard mode).
    Hazard(String),
    /// More warp-instructions than the step limit.
    StepLimit(u64),
    /// Warps wait for each other forever.
    Deadlock(String),
    /// A CTA barrier executed by a warp whose live lanes are not all active (the GPU counts the
    /// warp when its first group arrives: measured on an H200, the other group's earlier shared
    /// stores were not visible after the barrier; ptxas reconverges with `WARPSYNC.ALL` or
    /// `BSYNC` before every `BAR.SYNC`).
    DivergentBarrier(String),
    /// `BPT.TRAP` executed.
    Trap,
    /// A system function stopped the launch (`__assertfail`, or a bad call).
    System(crate::sysfn::SysError),
}

impl fmt::Display for EmuErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmuErrorKind::Cubin(m) => write!(f, "cubin: {m}"),
            EmuErrorKind::Spec(m) => write!(f, "launch spec: {m}"),
            EmuErrorKind::Invalid(m) => write!(f, "illegal instruction: {m}"),
            EmuErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
            EmuErrorKind::Fault(x) => write!(f, "memory fault: {x}"),
            EmuErrorKind::Hazard(m) => write!(f, "hazard: {m}"),
            EmuErrorKind::StepLimit(n) => write!(f, "step limit of {n} warp-instructions reached"),
            EmuErrorKind::Deadlock(m) => write!(f, "deadlock: {m}"),
            EmuErrorKind::DivergentBarrier(m) => write!(f, "divergent barrier: {m}"),
            EmuErrorKind::Trap => write!(f, "trap"),
            EmuErrorKind::System(e) => write!(f, "{e}"),
        }
    }
}

/// An emulation error, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmuError {
    /// The kernel.
    pub kernel: String,
    /// Byte offset of the instruction in its section.
    pub offset: Option<u32>,
    /// The instruction as nvdisasm prints it, and its word.
    pub inst: Option<String>,
    /// The thread.
    pub thread: Option<ThreadId>,
    /// What went wrong.
    pub kind: EmuErrorKind,
}

impl fmt::Display for EmuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kernel)?;
        if let Some(o) = self.offset {
            write!(f, " at {o:#06x}")?;
        }
        if let Some(i) = &self.inst {
            write!(f, " `{i}`")?;
        }
        if let Some(t) = &self.thread {
            write!(f, ": {t}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for EmuError {}

/// A finished run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmuRun {
    /// The output buffers (same form as the Ori interpreter's).
    pub outputs: Outputs,
    /// Thread-instructions executed (active lanes summed over warp-instructions).
    pub thread_instrs: u64,
    /// The opcodes with their modifiers (`IMAD.WIDE.U32`) of the instructions issued at least
    /// once.
    pub executed: std::collections::BTreeSet<String>,
    /// How many of the warp-instructions ([`Outputs::warp_steps`]) a fast form executed
    /// ([`EmuConfig::fast_paths`]); the others ran through the general executor.
    pub fast_steps: u64,
}

/// `R_CUDA_64`: a 64-bit absolute address (notes §4.8).
const R_CUDA_64: u32 = 2;
/// `R_CUDA_G64`: a 64-bit generic address; for a global variable the same value as
/// [`R_CUDA_64`] (global addresses are generic ones). ptxas uses it for a `__constant__`
/// initialiser that points at a global (module_init's `.rela.nv.constant3`).
const R_CUDA_G64: u32 = 4;

/// The [`DataReloc::target`] prefix naming a system function ([`crate::sysfn`]) instead of a
/// section.
const SYSFN_TARGET: &str = "@sysfn:";

/// A data section of the module (a constant bank or global variables) with its relocations.
#[derive(Clone, Debug)]
pub struct ModuleData {
    /// Section name.
    pub name: String,
    /// Constant bank number (0 for global data).
    pub bank: u8,
    /// Contents (zeros for NOBITS).
    pub bytes: Vec<u8>,
    /// Relocations into it.
    pub relocs: Vec<DataReloc>,
}

/// A relocation of module data: at `offset`, the address of section `target` plus `addend`.
#[derive(Clone, Debug)]
pub struct DataReloc {
    /// Byte offset in the data.
    pub offset: u64,
    /// `R_CUDA_*` type.
    pub kind: u32,
    /// Name of the section holding the symbol.
    pub target: String,
    /// Symbol value plus the relocation's addend.
    pub addend: u64,
}

/// A kernel of a cubin, loaded and ready to launch.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Kernel name.
    pub name: String,
    /// SM number.
    pub sm: u32,
    /// The code words, unrelocated: the kernel's section at address 0 and the sections it
    /// reaches ([`image::CodeImage`]; [`Kernel::prepare_with_suffixes`] applies the
    /// relocations).
    pub words: Vec<u128>,
    /// The code's layout and relocations (its `words` moved to [`Kernel::words`]).
    pub code: image::CodeImage,
    /// Kernel offset in the section (its code address).
    pub entry: u64,
    /// Parameter base in bank 0.
    pub param_base: u32,
    /// Parameter bytes the kernel declares.
    pub param_size: u32,
    /// Size of bank 0.
    pub bank0_size: u32,
    /// Static shared bytes (incl. the reserved area).
    pub shared_static: u32,
    /// Local bytes per thread.
    pub local_bytes: u32,
    /// Constant banks other than 0 (`.nv.constantN`: 3 = `__constant__` data, 4 = the table of
    /// global-variable addresses), with the relocations the driver applies at load.
    pub banks: Vec<ModuleData>,
    /// The module's global variables (`.nv.global`, `.nv.global.init`), placed after the
    /// spec's buffers at launch.
    pub globals: Vec<ModuleData>,
    /// Arch tables.
    pub tables: &'static ptxas_rs::sass::Tables,
}

fn err(kernel: &str, kind: EmuErrorKind) -> EmuError {
    EmuError { kernel: kernel.to_string(), offset: None, inst: None, thread: None, kind }
}

impl Kernel {
    /// Finds `name` in the cubin `bytes`.
    pub fn load(bytes: &[u8], name: &str) -> Result<Kernel, EmuError> {
        let cubin = Cubin::parse(bytes).map_err(|e| err(name, EmuErrorKind::Cubin(e.to_string())))?;
        Kernel::from_cubin(&cubin, name)
    }

    /// Finds `name` in a parsed cubin.
    pub fn from_cubin(cubin: &Cubin, name: &str) -> Result<Kernel, EmuError> {
        let sm = cubin.sm();
        let arch = format!("sm_{sm}");
        if !matches!(sm, 75 | 80 | 86 | 89 | 90 | 100 | 120) {
            return Err(err(name, EmuErrorKind::Cubin(format!("the emulator does not execute {arch} code"))));
        }
        let tables = ptxas_rs::sass::tables_for(&arch)
            .ok_or_else(|| err(name, EmuErrorKind::Cubin(format!("no SASS tables for {arch} yet"))))?;
        let f = cubin
            .function(name)
            .ok_or_else(|| err(name, EmuErrorKind::Cubin(format!("no function `{name}` in the cubin"))))?;
        if !f.kernel {
            return Err(err(name, EmuErrorKind::Cubin(format!("`{name}` is not a kernel entry"))));
        }
        let sec = cubin
            .sections
            .get(f.section as usize)
            .ok_or_else(|| err(name, EmuErrorKind::Cubin("missing text section".into())))?;
        let c0 = cubin.constant0(name);
        let layout = ptxas_rs::cubin::Constant0Layout::for_sm(sm);
        let (param_base, param_size, bank0_size) = match &c0 {
            Some(c) => (c.param_base, c.param_size, c.size as u32),
            None => (layout.param_base, 0, layout.param_base),
        };
        let shared_static = cubin.section(&format!(".nv.shared.{name}")).map_or(0, |s| s.size as u32);
        let attr = |c: u8| cubin.global_attr(c, f.symbol).unwrap_or(0);
        let local = attr(code::FRAME_SIZE).max(attr(code::MIN_STACK_SIZE)).max(attr(code::MAX_STACK_SIZE));
        // The driver gives every thread a stack of at least the context's stack limit
        // (`cudaLimitStackSize`, 1 KiB by default; CUDA runtime documentation, the notes are
        // silent) whatever the attributes say: a recursive kernel (call_recursive) records only
        // one frame in them, and its deeper calls use the rest.
        // A size too close to 4 GiB to round (ptxas's 0xffffffff: not known) leaves the default.
        let local_bytes =
            local.checked_next_multiple_of(16).map_or(DEFAULT_STACK_BYTES, |l| l.max(DEFAULT_STACK_BYTES));
        let data_of = |sec: &ptxas_rs::cubin::Section, bank: u8| {
            let mut bytes = sec.data.clone();
            bytes.resize(sec.size as usize, 0);
            let relocs = cubin
                .relocations
                .iter()
                .filter(|r| r.target == sec.index)
                .filter_map(|r| {
                    let sym = cubin.symbols.get(r.symbol as usize)?;
                    // An undefined system function (`vprintf`...): the driver links its own.
                    let target = match crate::sysfn::SysFn::by_name(&sym.name) {
                        Some(f) if sym.shndx == 0 => format!("{SYSFN_TARGET}{}", f.name()),
                        _ => cubin.sections.get(usize::from(sym.shndx))?.name.clone(),
                    };
                    let addend = sym.value.wrapping_add(r.addend.unwrap_or(0) as u64);
                    Some(DataReloc { offset: r.offset, kind: r.kind, target, addend })
                })
                .collect();
            ModuleData { name: sec.name.clone(), bank, bytes, relocs }
        };
        let mut banks = Vec::new();
        let mut globals = Vec::new();
        for sec in &cubin.sections {
            // Module banks (`.nv.constant3`, `.nv.constant4`) and this kernel's own ones
            // (`.nv.constant2.<kernel>`: ptxas's jump tables for `brx.idx` and dense switches).
            let bank = sec.name.strip_prefix(".nv.constant").and_then(|n| match n.split_once('.') {
                None => n.parse::<u8>().ok(),
                Some((b, k)) if k == name => b.parse::<u8>().ok(),
                Some(_) => None,
            });
            if let Some(n) = bank {
                if n != 0 {
                    banks.push(data_of(sec, n));
                }
            } else if sec.name == ".nv.global" || sec.name.starts_with(".nv.global.") {
                globals.push(data_of(sec, 0));
            }
        }
        // Function pointers in module data reach code sections too.
        let roots: Vec<usize> = banks
            .iter()
            .chain(&globals)
            .flat_map(|d| &d.relocs)
            .filter_map(|r| cubin.sections.iter().position(|s| s.name == r.target))
            .collect();
        let mut code = image::CodeImage::load(cubin, sec.index as usize, &roots);
        let words = std::mem::take(&mut code.words);
        Ok(Kernel {
            name: name.to_string(),
            sm,
            words,
            code,
            entry: f.offset,
            param_base,
            param_size,
            bank0_size,
            shared_static,
            local_bytes,
            banks,
            globals,
            tables,
        })
    }

    /// The CTA's static shared memory: `.nv.shared.<kernel>`'s size, on sm_90 at least its
    /// reserved 0x400 bytes (the sm_80 family reserves none: NVIDIA's sm_80 cubins address
    /// their shared data from 0), rounded up to 16.
    fn shared_static_size(&self) -> u32 {
        let reserved = if self.sm >= 90 { 0x400 } else { 0 };
        self.shared_static.max(reserved).next_multiple_of(16)
    }

    /// Builds constant bank 0 for a launch.
    pub fn bank0(&self, spec: &LaunchSpec, params: &[u8]) -> Vec<u8> {
        let layout = ptxas_rs::cubin::Constant0Layout::for_sm(self.sm);
        let end = (self.param_base as usize + params.len()).max(self.bank0_size as usize).max(0x30);
        let mut b = vec![0u8; end.next_multiple_of(8)];
        let mut put = |off: u32, v: u32| {
            let o = off as usize;
            if o + 4 <= b.len() {
                b[o..o + 4].copy_from_slice(&v.to_le_bytes());
            }
        };
        for d in 0..3 {
            put(layout.ntid[d], spec.block[d]);
            put(layout.nctaid[d], spec.grid[d]);
        }
        put(layout.stack_pointer, LOCAL_TOP);
        // The slots ptxas reads for generic windows and launch sizes (see `DriverSlots`): the
        // emulator's parameter window opens onto bank 0 (the block at `param_base`), and it
        // reports an H100's 132 SMs.
        let driver = if self.sm >= 100 { Some(BLACKWELL_DRIVER) } else { layout.driver };
        if let Some(d) = driver {
            let base = crate::memory::PARAM_WINDOW + u64::from(self.param_base);
            let window = (base, base + u64::from(self.param_size.max(params.len() as u32)));
            crate::memory::put_driver_slots(&d, spec, window, &mut put);
        } else if (75..90).contains(&self.sm) {
            // sm_75 code reads the same slots (dyn_smem_extern's `ULDC.64 UR4, c[0x0][0x18]` and
            // sreg_geometry's `%nsmid` agree with the GPU under them).
            let w = crate::memory::SHARED_WINDOW;
            put(SM80_SHARED_WINDOW, w as u32);
            put(SM80_SHARED_WINDOW + 4, (w >> 32) as u32);
            put(SM80_DYNAMIC_SMEM, spec.shared_bytes);
            // An A100's SM count (`%nsmid`; any value above `SR_VIRTUALSMID` does).
            put(SM80_SM_COUNT, 108);
            put(SM80_SMEM_TOTAL_SUB, 0);
        }
        let p = self.param_base as usize;
        b[p..p + params.len()].copy_from_slice(params);
        b
    }

    /// Lowers the code against the banks of a launch.
    pub fn program(&self, banks: &Banks) -> Program {
        // Without a launch no data section is placed: a relocation against one refuses its
        // instruction.
        let (words, refused) = self.code.patch(&self.words, |_| None);
        let mut program = Program::new(self.tables, &words, self.entry, banks);
        for (i, why) in refused {
            program.refuse(i, why);
        }
        program
    }

    /// Runs the kernel over `spec`.
    pub fn run(&self, spec: &LaunchSpec, config: &EmuConfig) -> Result<EmuRun, EmuError> {
        self.run_with_suffixes(spec, config, &std::collections::BTreeMap::new())
    }

    /// Runs the kernel over `spec`, taking modifier suffixes the decoder's table lacks from
    /// `suffixes` (see [`Program::with_suffixes`]).
    pub fn run_with_suffixes(
        &self,
        spec: &LaunchSpec,
        config: &EmuConfig,
        suffixes: &std::collections::BTreeMap<u32, String>,
    ) -> Result<EmuRun, EmuError> {
        self.prepare_with_suffixes(spec, suffixes)?.run(config)
    }

    /// The launch of the kernel over `spec` up to execution (global memory with the module's
    /// data relocated, the constant banks, the lowered program), which [`Prepared::run`] then
    /// executes, as often as wanted, each time from the same initial memory. `suffixes`: as in
    /// [`Kernel::run_with_suffixes`].
    pub fn prepare_with_suffixes(
        &self,
        spec: &LaunchSpec,
        suffixes: &std::collections::BTreeMap<u32, String>,
    ) -> Result<Prepared<'_>, EmuError> {
        let module = self.globals.iter().map(|g| (g.name.clone(), g.bytes.clone()));
        let mut global = GlobalMemory::from_buffers(spec.generate_buffers().into_iter().chain(module));
        // Relocate the module's data as the driver does at load: R_CUDA_64 (and R_CUDA_G64) writes the target's
        // device address (its section's base + symbol value + addend). Global-variable data
        // is written into global memory, constant banks into the bank.
        let addr_of = |g: &GlobalMemory, r: &DataReloc| match r.target.strip_prefix(SYSFN_TARGET) {
            Some(n) => crate::sysfn::SysFn::by_name(n).map(crate::sysfn::address_of),
            None => g.address_of(&r.target).or_else(|| self.code.base_of(&r.target)).map(|b| b.wrapping_add(r.addend)),
        };
        let mut fixups = Vec::new();
        for g in &self.globals {
            for r in g.relocs.iter().filter(|r| matches!(r.kind, R_CUDA_64 | R_CUDA_G64)) {
                if let (Some(v), Some(base)) = (addr_of(&global, r), global.address_of(&g.name)) {
                    fixups.push((base + r.offset, v));
                }
            }
        }
        for (a, v) in fixups {
            global.store(a, 8, u128::from(v)).map_err(|f| err(&self.name, EmuErrorKind::Fault(f)))?;
        }
        let params = spec.param_block(|n| global.address_of(n).unwrap_or(0));
        if self.param_size != 0 && params.len() as u32 > self.param_size.next_multiple_of(8) {
            return Err(err(
                &self.name,
                EmuErrorKind::Spec(format!(
                    "the spec's parameters take {} bytes, the kernel declares {}",
                    params.len(),
                    self.param_size
                )),
            ));
        }
        let mut banks = Banks::new();
        banks.insert(0, self.bank0(spec, &params));
        for b in &self.banks {
            let mut bytes = b.bytes.clone();
            for r in b.relocs.iter().filter(|r| matches!(r.kind, R_CUDA_64 | R_CUDA_G64)) {
                let o = r.offset as usize;
                if let (Some(v), Some(dst)) = (addr_of(&global, r), bytes.get_mut(o..o + 8)) {
                    dst.copy_from_slice(&v.to_le_bytes());
                }
            }
            banks.insert(b.bank, bytes);
        }
        let (words, refused) = self.code.patch(&self.words, |n| global.address_of(n));
        let mut program = Program::with_suffixes(self.tables, &words, self.entry, &banks, suffixes);
        for (i, why) in refused {
            program.refuse(i, why);
        }
        let fast = program.insts.iter().map(|i| exec::lower_fast(i, program.tables)).collect();
        let proxy_reads = program.insts.iter().any(|i| matches!(i.kind, program::Kind::Hgmma { .. }));
        let reserved = if self.sm >= 90 { 0x400 } else { 0 };
        let static_bytes = u64::from(self.shared_static_size()) - reserved;
        crate::launch::limits::check_shared(self.sm, static_bytes, spec.shared_bytes).map_err(|m| EmuError {
            kernel: self.name.clone(),
            offset: None,
            inst: None,
            thread: None,
            kind: EmuErrorKind::Spec(m),
        })?;
        let shared = if self.shared_static > 0 || spec.shared_bytes > 0 {
            self.shared_static_size() + spec.shared_bytes
        } else {
            0
        };
        let outputs = spec.outputs().map(|b| b.name().to_owned()).collect();
        Ok(Prepared {
            kernel: self,
            global,
            banks,
            program,
            grid: spec.grid,
            block: spec.block,
            cluster: spec.cluster,
            shared_bytes: shared,
            outputs,
            objects: spec.objects.clone(),
            hz_facts: std::sync::OnceLock::new(),
            fast,
            proxy_reads,
            names: std::sync::OnceLock::new(),
        })
    }
}

/// A launch ready to execute ([`Kernel::prepare_with_suffixes`]).
#[derive(Clone, Debug)]
pub struct Prepared<'k> {
    kernel: &'k Kernel,
    /// Global memory before the launch.
    global: GlobalMemory,
    banks: Banks,
    /// The lowered code.
    pub program: Program,
    grid: [u32; 3],
    block: [u32; 3],
    cluster: Option<[u32; 3]>,
    shared_bytes: u32,
    /// The spec's output buffers.
    outputs: Vec<String>,
    /// The spec's texture and surface objects (handles resolve to them).
    objects: crate::launch::texture::Objects,
    /// The hazard checker's facts of each instruction, made at the first run that checks.
    hz_facts: std::sync::OnceLock<Vec<hazard::Facts>>,
    /// The executor's pre-decoded fast form of each instruction (`exec::fast`).
    fast: Vec<exec::Fast>,
    /// The program reads shared memory through the async proxy (`HGMMA`).
    proxy_reads: bool,
    /// The instructions' opcodes with modifiers ([`EmuRun::executed`]), each once, and per
    /// instruction its index among them; made at the first run.
    names: std::sync::OnceLock<(Vec<String>, Vec<usize>)>,
}

impl Prepared<'_> {
    /// Executes the launch on a copy of its initial global memory.
    pub fn run(&self, config: &EmuConfig) -> Result<EmuRun, EmuError> {
        let k = self.kernel;
        let launch = exec::Launch {
            program: &self.program,
            kernel: &k.name,
            grid: self.grid,
            block: self.block,
            cluster: self.cluster,
            sm: k.sm,
            banks: &self.banks,
            local_bytes: k.local_bytes,
            shared_bytes: self.shared_bytes,
            hazards: config.hazards,
            hz_facts: if config.hazards {
                self.hz_facts.get_or_init(|| self.program.insts.iter().map(|i| hazard::Facts::new(k.sm, i)).collect())
            } else {
                &[]
            },
            fast: if config.fast_paths { &self.fast } else { &[] },
            proxy_reads: self.proxy_reads,
            step_limit: config.step_limit,
            objects: &self.objects,
        };
        let program = &self.program;
        let mut st = exec::State {
            global: self.global.clone(),
            steps: 0,
            thread_instrs: 0,
            fast_steps: 0,
            issued: vec![false; program.insts.len()],
            reg_pool: Vec::new(),
            hz_pool: Vec::new(),
            services: Default::default(),
        };
        exec::run_grid(&launch, &mut st)?;
        let (names, name_of) = self.names.get_or_init(|| {
            let all: Vec<String> = program.insts.iter().map(|i| format!("{}{}", i.base, i.suffix)).collect();
            let mut names = all.clone();
            names.sort_unstable();
            names.dedup();
            let name_of = all.iter().map(|n| names.binary_search(n).unwrap_or(0)).collect();
            (names, name_of)
        });
        let mut hit = vec![false; names.len()];
        for (&n, _) in name_of.iter().zip(&st.issued).filter(|(_, issued)| **issued) {
            hit[n] = true;
        }
        let executed = names.iter().zip(hit).filter(|(_, h)| *h).map(|(n, _)| n.clone()).collect();
        let buffers =
            self.outputs.iter().filter_map(|b| st.global.buffer(b).map(|x| (b.clone(), x.to_vec()))).collect();
        Ok(EmuRun {
            outputs: Outputs { buffers, warp_steps: st.steps, log: st.services.log() },
            thread_instrs: st.thread_instrs,
            executed,
            fast_steps: st.fast_steps,
        })
    }
}

/// Runs kernel `kernel` of the cubin `bytes` over `spec`.
pub fn run_cubin(bytes: &[u8], kernel: &str, spec: &LaunchSpec, config: &EmuConfig) -> Result<EmuRun, EmuError> {
    Kernel::load(bytes, kernel)?.run(spec, config)
}
