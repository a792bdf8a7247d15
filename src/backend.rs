//! The sm_90 backend, end to end: a checked PTX module to cubin bytes.
//!
//! The stages, each its own module with its own checks, run in this order:
//!
//! 1. [`lower::lower_module`]: PTX syntax tree to PTX-stage Ori;
//! 2. [`opt::Pipeline::standard`]: the phase pipeline at the requested `-O` level;
//! 3. [`lower::isel::select_module`]: SASS-stage Ori (virtual registers);
//! 4. [`regalloc::allocate_function`] per kernel, then [`regalloc::check`] on the result (always:
//!    the checker is cheap next to allocation, and a wrong allocation must never reach a file),
//!    then [`regalloc::split_components`] (phase `Get64bRegComponents`);
//! 5. [`sass::from_ori::emit_function_with`]: instruction words with control bits from
//!    [`crate::sched`]: ptxas's -O0 recipe at `-O0`, the latency recipe above it;
//! 6. [`cubin::writer::write`]: the ELF image ptxas 13.0.88 writes for sm_90.
//!
//! Shared memory: isel gives static `.shared` variables their module-wide offsets after sm_90's
//! 0x400 reserved bytes (dynamic `extern` arrays after all of them), and each kernel that names
//! a shared variable gets a `.nv.shared.<kernel>` section ([`kernel_shared`]).
//!
//! Module data: `.const` variables go to `.nv.constant3` (read as `c[0x3][..]`), `.global`
//! ones to `.nv.global.init` / `.nv.global`, and the addresses code takes of globals to the
//! relocated table `.nv.constant4` ([`module_data`], laid out by [`lower::isel::data_layout`]).
//!
//! Not implemented yet, refused with a clear error: device functions and calls, `.extern`
//! variables and addresses inside initialisers, targets other than sm_90, relocatable output. Each kernel's
//! `.debug_frame` entry has ptxas's CIE (CFA = R1, RZ and R1 unchanged) and an FDE without
//! rows (ptxas adds rows at stack-pointer changes; debuggers are the only readers).
//!
//! Invariants: [`compile`] either returns a whole cubin or an error naming the stage and the
//! function; it never panics on a module the front end accepted; nothing is written to disk
//! here (the driver writes the file only on success).

use std::fmt;

use crate::cubin::{self, image};
use crate::lower;
use crate::opt::{Pipeline, PipelineOptions};
use crate::ori::{self, FuncKind, Operand, Space};
use crate::ptx::ast;
use crate::regalloc;
use crate::sass::from_ori;
use crate::sched::Recipe;

/// What the backend needs from the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `-O` level, 0..=3.
    pub opt_level: u8,
    /// The SM number (only 90 is implemented).
    pub sm: u32,
    /// `--maxrregcount`.
    pub maxrregcount: Option<u32>,
    /// `--override-directive-values`.
    pub override_directives: bool,
    /// `.note.nv.tkinfo`'s argument string, as ptxas re-prints its command line.
    pub tool_arguments: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            opt_level: 3,
            sm: 90,
            maxrregcount: None,
            override_directives: false,
            tool_arguments: "-arch sm_90 ".into(),
        }
    }
}

/// A compiled module.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The cubin file's bytes.
    pub cubin: Vec<u8>,
    /// What the cubin describes (for `-v` and for tests).
    pub image: image::Image,
}

/// Why the backend failed: the stage and what it said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendError {
    /// The stage (`lowering`, `optimizer`, `instruction selection`, `register allocation`,
    /// `register allocation check`, `emission`, `cubin writer`).
    pub stage: &'static str,
    /// The function, when one is to blame.
    pub function: Option<String>,
    /// What went wrong.
    pub message: String,
    /// The PTX source line, when known (0 otherwise).
    pub line: u32,
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.stage)?;
        if let Some(func) = &self.function {
            write!(f, " of '{func}'")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for BackendError {}

fn err(stage: &'static str, function: Option<&str>, message: impl fmt::Display) -> BackendError {
    BackendError { stage, function: function.map(str::to_owned), message: message.to_string(), line: 0 }
}

fn lower_err(stage: &'static str, e: lower::LowerError) -> BackendError {
    BackendError { stage, function: e.function.clone(), message: e.message.clone(), line: e.line }
}

/// Per-kernel facts read from the PTX declaration: parameter layout and directives.
#[derive(Clone, Debug, Default)]
struct EntryDecl {
    params: Vec<image::Param>,
    param_size: u32,
    maxnreg: Option<u32>,
    max_threads: Option<[u32; 3]>,
    reqntid: Option<[u32; 3]>,
    /// Bytes of local memory the lowered code addresses from 0 (`.local` variables).
    frame: u32,
    /// `.nv.shared.<kernel>`, when the kernel uses shared memory.
    shared: Option<image::Shared>,
    /// Whether the kernel reads module `.const` data or global-variable addresses.
    names_module_data: bool,
}

fn dims(v: &[ast::IntLit]) -> Option<[u32; 3]> {
    let mut d = [1u32; 3];
    for (i, l) in v.iter().take(3).enumerate() {
        d[i] = u32::try_from(l.value()?).ok()?;
    }
    Some(d)
}

fn entry_decl(f: &ast::Function) -> Result<EntryDecl, BackendError> {
    let sig = lower::Sig::of(None, f.params.as_deref()).map_err(|e| lower_err("lowering", e))?;
    let mut out = EntryDecl::default();
    let mut off = 0u64;
    for p in &sig.params {
        let lower::Passing::Mem { size, align } = *p else {
            return Err(err("lowering", Some(&f.name.name), "a kernel parameter in .reg space"));
        };
        off = off.next_multiple_of(align.max(1));
        out.params.push(image::Param {
            offset: u16::try_from(off).map_err(|_| err("lowering", Some(&f.name.name), "parameters too large"))?,
            size: u16::try_from(size).map_err(|_| err("lowering", Some(&f.name.name), "parameter too large"))?,
            log_align: 0,
            space: 0,
            smem: false,
        });
        off += size;
    }
    out.param_size = u32::try_from(off).unwrap_or(u32::MAX);
    for d in &f.directives {
        match d {
            ast::FuncDirective::MaxNReg(n) => out.maxnreg = n.value().and_then(|v| u32::try_from(v).ok()),
            ast::FuncDirective::MaxNTid(v) => out.max_threads = dims(v),
            ast::FuncDirective::ReqNTid(v) => out.reqntid = dims(v),
            _ => {}
        }
    }
    Ok(out)
}

/// Compiles a checked PTX module for sm_90.
pub fn compile(module: &ast::Module, opts: &Options) -> Result<Compiled, BackendError> {
    if opts.sm != 90 {
        return Err(err("code generation", None, format!("sm_{} is not implemented (only sm_90)", opts.sm)));
    }
    let (mut m, frames) = lower::lower_module_framed(module).map_err(|e| lower_err("lowering", e))?;
    Pipeline::standard()
        .run(&mut m, &PipelineOptions::from_env(opts.opt_level.min(3)), &mut [])
        .map_err(|e| err("optimizer", None, e))?;
    for f in &m.functions {
        if f.kind == FuncKind::Func {
            return Err(err("code generation", Some(&f.name), "device functions are not implemented yet"));
        }
    }
    let data = module_data(&m, module)?;
    let shared: Vec<Option<image::Shared>> = m.functions.iter().map(|f| kernel_shared(&m, f)).collect();
    lower::isel::select_module_framed(&mut m, opts.sm, &frames).map_err(|e| lower_err("instruction selection", e))?;

    let decls: std::collections::HashMap<&str, &ast::Function> = module
        .items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Function(f) if f.body.is_some() => Some((f.name.name.as_str(), f)),
            _ => None,
        })
        .collect();

    let mut img = image::Image::sm90();
    img.tool.arguments = opts.tool_arguments.clone();
    img.data = data;
    for ((f, &frame), &shared) in
        m.functions.iter_mut().zip(&frames).zip(&shared).filter(|((f, _), _)| f.kind == FuncKind::Entry)
    {
        let mut decl = match decls.get(f.name.as_str()) {
            Some(d) => entry_decl(d)?,
            None => EntryDecl::default(),
        };
        decl.frame = u32::try_from(frame).map_err(|_| err("lowering", Some(&f.name), "local frame too large"))?;
        decl.shared = shared;
        // ptxas creates an (empty, self-resolved) `.rela.text.<k>` for a kernel that names
        // module data.
        decl.names_module_data = f.insts.values().flat_map(|d| d.srcs.iter()).any(|o| {
            matches!(o, Operand::CBank(c) if c.bank == lower::isel::USER_CONST_BANK || c.bank == lower::isel::ADDRESS_TABLE_BANK)
        });
        img.kernels.push(compile_kernel(f, &decl, opts)?);
    }
    if m.functions.iter().any(|f| f.kind == FuncKind::Func) && img.kernels.is_empty() {
        return Err(err("code generation", None, "device functions without kernels are not implemented"));
    }
    let bytes = cubin::writer::write(&img).map_err(|e| err("cubin writer", None, e))?;
    Ok(Compiled { cubin: bytes, image: img })
}

fn compile_kernel(f: &mut ori::Function, decl: &EntryDecl, opts: &Options) -> Result<image::Kernel, BackendError> {
    let ropts = regalloc::Options::from_budget(opts.maxrregcount, decl.maxnreg, opts.override_directives);
    let before = f.clone();
    let report = regalloc::allocate_function(f, &ropts).map_err(|e| err("register allocation", Some(&f.name), e))?;
    regalloc::check(&before, f).map_err(|e| err("register allocation check", Some(&f.name), e))?;
    regalloc::split_components(f).map_err(|e| err("register allocation", Some(&f.name), e))?;
    let recipe = if opts.opt_level == 0 { Recipe::O0 } else { Recipe::Latency };
    let emitted = from_ori::emit_function_with(f, opts.sm, &from_ori::EmitOptions { recipe })
        .map_err(|e| err("emission", Some(&f.name), e))?;
    Ok(kernel_image(f, decl, &report, &emitted, opts))
}

fn kernel_image(
    f: &ori::Function,
    decl: &EntryDecl,
    report: &regalloc::Report,
    emitted: &from_ori::Emitted,
    opts: &Options,
) -> image::Kernel {
    let budget = opts.maxrregcount.or(decl.maxnreg);
    image::Kernel {
        name: f.name.clone(),
        code: emitted.code.clone(),
        registers: emitted.gprs + 2,
        params: decl.params.clone(),
        param_size: decl.param_size,
        frame_size: decl.frame + report.frame_bytes,
        min_stack_size: decl.frame + report.frame_bytes,
        shared: decl.shared,
        maxreg: budget.map_or(0xff, |b| b.min(0xff) as u16),
        sparse_mma_mask: 0,
        max_threads: decl.max_threads,
        reqntid: decl.reqntid,
        num_barriers: (emitted.num_barriers > 0).then_some(emitted.num_barriers as u8),
        exit_offsets: emitted.exit_offsets.clone(),
        crs_stack_size: None,
        extra: Vec::new(),
        subroutines: Vec::new(),
        frames: vec![kernel_frame(emitted.code.len() as u64)],
        constant2: None,
        code_relocation_section: decl.names_module_data,
        report: image::Report {
            spill_stores: u64::from(report.spill_store_bytes),
            spill_loads: u64::from(report.spill_load_bytes),
            functions: Vec::new(),
        },
    }
}

/// The cubin's module data from the module's `.const` and `.global` variables, placed where
/// instruction selection addresses them ([`lower::isel::data_layout`]): `.nv.constant3` with
/// the `.const` initialisers, `.nv.global.init` / `.nv.global`, and the address table
/// `.nv.constant4` (relocated to the variables). Symbols bind as the PTX declares them
/// (`.visible` global, `.weak` weak, otherwise local), ordered as ptxas processes them: weak,
/// then visible, then internal, PTX order within each group. Refused: `.extern` variables
/// (nothing to link against in an executable cubin) and addresses stored in initialisers.
fn module_data(m: &ori::Module, module: &ast::Module) -> Result<image::ModuleData, BackendError> {
    let layout = lower::isel::data_layout(m);
    let linkage: std::collections::HashMap<&str, &[ast::Linkage]> = module
        .items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Var(v) => Some(v),
            _ => None,
        })
        .flat_map(|v| v.decls.iter().map(move |d| (d.name.name.as_str(), v.linkage.as_slice())))
        .collect();
    let mut vars = Vec::new();
    let mut const_bytes = vec![0u8; layout.constant_size as usize];
    let mut init_bytes = vec![0u8; layout.global_sizes[0].0 as usize];
    for v in m.vars.iter().filter(|v| matches!(v.space, Space::Const | Space::Global)) {
        let l = linkage.get(v.name.as_str()).copied().unwrap_or(&[]);
        if l.contains(&ast::Linkage::Extern) {
            return Err(err("code generation", None, format!("`.extern` variable `{}` is not implemented", v.name)));
        }
        if !v.relocs.is_empty() {
            return Err(err(
                "code generation",
                None,
                format!("addresses in the initialiser of `{}` are not implemented yet", v.name),
            ));
        }
        let bind = if l.contains(&ast::Linkage::Weak) {
            image::Bind::Weak
        } else if l.contains(&ast::Linkage::Visible) || l.contains(&ast::Linkage::Common) {
            image::Bind::Global
        } else {
            image::Bind::Local
        };
        let (space, offset, bytes) = match v.space {
            Space::Const => (image::Space::Constant, layout.constant[&v.name], Some(&mut const_bytes)),
            _ => match layout.global[&v.name] {
                (true, off) => (image::Space::GlobalInit, off, Some(&mut init_bytes)),
                (false, off) => (image::Space::Global, off, None),
            },
        };
        if let Some(b) = bytes {
            let at = offset as usize;
            b[at..at + v.init.len().min(v.size as usize)].copy_from_slice(&v.init[..v.init.len().min(v.size as usize)]);
        }
        let rank = match bind {
            image::Bind::Weak => 0,
            image::Bind::Global => 1,
            image::Bind::Local => 2,
        };
        vars.push((rank, image::Variable { name: v.name.clone(), bind, space, offset, size: v.size }));
    }
    vars.sort_by_key(|(rank, _)| *rank);
    let section = |bytes: Vec<u8>, align: u64| image::DataSection {
        bytes,
        align,
        relocations: Vec::new(),
        relocation_section: false,
    };
    let has = |s: image::Space| vars.iter().any(|(_, v)| v.space == s);
    Ok(image::ModuleData {
        global_init: has(image::Space::GlobalInit).then(|| section(init_bytes, layout.global_sizes[0].1)),
        global: has(image::Space::Global).then_some(layout.global_sizes[1]),
        constant3: has(image::Space::Constant).then(|| section(const_bytes, layout.constant_align)),
        address_table: layout.address_table.clone(),
        variables: vars.into_iter().map(|(_, v)| v).collect(),
    })
}

/// The shared variables `f` names (in module order), or `None` when it names none.
///
/// Static variables are laid out module-wide by [`lower::isel::shared_layout`] (the addresses
/// isel gives them), so the kernel's static part ends at the end of the last variable it
/// names; a kernel naming a dynamic (`extern`, size 0) array covers every static variable of
/// the module, because the dynamic array starts after all of them (at the next multiple of 16,
/// where the driver and the emulator put it: after the section's size rounded up to 16).
/// Size: the 0x400 reserved bytes plus the static part (as ptxas writes it, and `-v` prints
/// the static part as `smem`); alignment: the largest alignment of the variables named, at
/// least 4 (ptxas: 4 for `.align 4` arrays, 16 with an `.align 16` extern array); one dropped
/// symbol (ptxas keeps one nameless `STV_INTERNAL` symbol per kernel with shared memory,
/// whatever the number of variables: measured on the corpus by `tests/backend_shared.rs`).
fn kernel_shared(m: &ori::Module, f: &ori::Function) -> Option<image::Shared> {
    let named: std::collections::HashSet<&str> = f
        .insts
        .values()
        .flat_map(|d| d.srcs.iter())
        .filter_map(|o| match o {
            Operand::Mem(r) if r.space == Space::Shared => r.sym.as_deref(),
            _ => None,
        })
        .collect();
    let vars: Vec<&ori::ModuleVar> =
        m.vars.iter().filter(|v| v.space == Space::Shared && named.contains(v.name.as_str())).collect();
    if vars.is_empty() {
        return None;
    }
    let layout = lower::isel::shared_layout(m);
    let dynamic = vars.iter().any(|v| v.size == 0);
    let end = |v: &ori::ModuleVar| layout.get(&v.name).map_or(0, |&o| o as u64 + v.size);
    let stat = if dynamic {
        m.vars.iter().filter(|v| v.space == Space::Shared).map(end).max().unwrap_or(0)
    } else {
        vars.iter().map(|v| end(v)).max().unwrap_or(0)
    };
    Some(image::Shared {
        size: cubin::writer::RESERVED_SHARED + stat,
        align: vars.iter().map(|v| u64::from(v.align)).max().unwrap_or(4).max(4),
        dropped_symbols: 1,
    })
}

/// DWARF register number of `Rn` as ptxas writes it.
fn dwarf_r(n: u64) -> u64 {
    0x500_0000 + n
}

/// The `.debug_frame` entry of a kernel whose code is `len` bytes.
fn kernel_frame(len: u64) -> image::Frame {
    image::Frame {
        return_address: 0xffff_ffff,
        cie: vec![
            image::Cfa::DefCfa { reg: dwarf_r(1), offset: 0 },
            image::Cfa::SameValue(dwarf_r(255)),
            image::Cfa::SameValue(dwarf_r(1)),
        ],
        start: 0,
        range: len,
        fde: Vec::new(),
    }
}
