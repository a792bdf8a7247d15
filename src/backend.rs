//! The backend, end to end: a checked PTX module to cubin bytes for a [`Target`] that has one
//! ([`Target::backend`]: sm_90, sm_90a and the sm_80 family so far). Every stage below reads the target it is
//! given (bank 0, tables, hardware facts) instead of assuming an SM.
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
//! 6. [`cubin::writer::write`]: the ELF image ptxas 13.0.88 writes for sm_90 ([`image::Image::new`]
//!    from the target).
//!
//! Shared memory: isel gives static `.shared` variables their module-wide offsets after sm_90's
//! 0x400 reserved bytes (dynamic `extern` arrays after all of them), and each kernel that names
//! a shared variable (itself or in a device function it calls) gets a `.nv.shared.<kernel>`
//! section ([`kernel_shared`]).
//!
//! Device functions (`.func` + direct `call`): isel applies the register ABI of
//! [`lower::isel::call`]; every kernel gets its own copy of each device function it reaches
//! (transitively, recursion included), allocated and checked like the kernel, then finished by
//! [`regalloc::callee_save`] (saves, restores, the whole frame), and laid out after the kernel's
//! code in its `.text` as ptxas does (symbol `$kernel$func`, local; the last function's symbol
//! covers the padding tail). The kernel then has `EIATTR_CRS_STACK_SIZE` 0, an empty
//! `.rela.text.<kernel>`, and `EIATTR_MIN_STACK_SIZE` = its frame plus the deepest chain of
//! callee frames (each function counted once on a recursive chain: deeper recursion uses the
//! driver's default stack, 1 KiB per thread, as with ptxas, which records no more); `-v` lists
//! each device function's frame, its spill and save bytes counting as spill stores/loads.
//!
//! Module data: `.const` variables go to `.nv.constant3` (read as `c[0x3][..]`), `.global`
//! ones to `.nv.global.init` / `.nv.global`, and the addresses code takes of globals to the
//! relocated table `.nv.constant4` ([`module_data`], laid out by [`lower::isel::data_layout`]).
//!
//! Indirect calls become compare chains of direct calls ([`lower::isel::indirect`]).
//!
//! Not implemented yet, refused with a clear error: `.extern`
//! variables and addresses inside initialisers, targets without a backend ([`Target::backend`], the
//! one refusal), relocatable output. Each kernel's
//! `.debug_frame` entry has ptxas's CIE (CFA = R1, RZ and R1 unchanged) and an FDE without
//! rows (ptxas adds rows at stack-pointer changes; debuggers are the only readers); a device
//! function's has ptxas's callable-function CIE (return address column 0x5000100, from R2).
//!
//! Kernels are compiled and written in reverse PTX order, as ptxas 13.0.88 does (its symbols,
//! `.text`/`.nv.info`/`.nv.constant0` sections and `-v` lines come last kernel first); each
//! kernel's measured time comes back for `-v`'s `Compile time` line.
//!
//! Invariants: [`compile`] either returns a whole cubin or an error naming the stage and the
//! function; it never panics on a module the front end accepted; nothing is written to disk
//! here (the driver writes the file only on success).

use std::collections::HashMap;
use std::fmt;

use crate::cubin::{self, image};
use crate::lower;
use crate::opt::{Pipeline, PipelineOptions};
use crate::ori::{self, FuncKind, Operand, Space};
use crate::ptx::ast;
use crate::regalloc;
use crate::sass::from_ori;
use crate::sched::Recipe;
use crate::target::Target;

/// What the backend needs from the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `-O` level, 0..=3.
    pub opt_level: u8,
    /// The target (`-arch`). An arch-accelerated one (`sm_90a`) marks the cubin so; a module
    /// whose `.target` is `sm_90a` (`wgmma`) gets an `sm_90a` cubin either way.
    pub target: Target,
    /// `--maxrregcount`.
    pub maxrregcount: Option<u32>,
    /// `--override-directive-values`.
    pub override_directives: bool,
    /// `.note.nv.tkinfo`'s argument string, as ptxas re-prints its command line.
    pub tool_arguments: String,
    /// `--fmad`: contract `mul` + `add` into `fma` (phase 9; default true).
    pub fmad: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            opt_level: 3,
            target: Target::default(),
            maxrregcount: None,
            override_directives: false,
            tool_arguments: "-arch sm_90 ".into(),
            fmad: true,
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
    /// ptxas's info messages for the module, without the `ptxas info    : ` tag (the C7508 of
    /// an ignored `setmaxnreg`, [`lower::entry_regs`]).
    pub infos: Vec<String>,
    /// The wall time spent on each kernel of `image.kernels` (same order): its own stages
    /// (allocation, scheduling, emission of it and its device functions) plus an equal share of
    /// the module-wide ones (lowering, the phase pipeline, instruction selection). `-v` prints
    /// it as ptxas's `Compile time` line.
    pub kernel_times: Vec<std::time::Duration>,
    /// The wall time of lowering (PTX to Ori), for `--compiler-stats`.
    pub lowering_time: std::time::Duration,
    /// The wall time of the cubin writer, for `--compiler-stats`.
    pub writer_time: std::time::Duration,
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

/// Compiles a checked PTX module for `opts.target`; a target without a backend is refused
/// ([`Target::backend`]) before anything runs.
pub fn compile(module: &ast::Module, opts: &Options) -> Result<Compiled, BackendError> {
    let started = std::time::Instant::now();
    let target = &opts.target;
    target.backend().map_err(|e| err("code generation", None, e))?;
    let (mut m, frames) = lower::lower_module_framed(module).map_err(|e| lower_err("lowering", e))?;
    let infos = lower::entry_regs::resolve(&mut m, module).map_err(|e| lower_err("lowering", e))?;
    let lowering_time = started.elapsed();
    // Before phase 12 makes it an immediate: ptxas resolves `%reserved_smem_offset_0` in the cubin.
    let offset0 = m.functions.iter().any(|f| {
        f.insts.values().any(|d| d.srcs.iter().any(|o| matches!(o, Operand::SReg(ori::SpecialReg::ReservedSmem0))))
    });
    Pipeline::standard()
        .run(&mut m, &PipelineOptions { fmad: opts.fmad, ..PipelineOptions::from_env(opts.opt_level.min(3)) }, &mut [])
        .map_err(|e| err("optimizer", None, e))?;
    // Before the per-kernel facts below: the functions an indirect call may reach are called.
    lower::isel::indirect::expand_indirect_calls(&mut m).map_err(|e| lower_err("instruction selection", e))?;
    let data = module_data(&m, module)?;
    let shared: Vec<Option<image::Shared>> = m.functions.iter().map(|f| kernel_shared(&m, f, target)).collect();
    let addr = param_addresses(module);
    let abis = lower::isel::call::module_abi(&m, &addr);
    let sopts = lower::isel::SelectOptions { pipeline_wgmma: opts.opt_level > 0, sync_setmaxnreg: opts.opt_level == 0 };
    lower::isel::select_module_with(&mut m, target, &frames, &addr, &sopts)
        .map_err(|e| lower_err("instruction selection", e))?;
    for f in &m.functions {
        dump_stage("Select", f);
    }
    let funcs: Funcs = m
        .functions
        .iter()
        .zip(&frames)
        .filter(|(f, _)| f.kind == FuncKind::Func)
        .map(|(f, &fr)| (f.name.clone(), (f.clone(), fr, abis.get(&f.name).cloned().unwrap_or_default())))
        .collect();

    let decls: std::collections::HashMap<&str, &ast::Function> = module
        .items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Function(f) if f.body.is_some() => Some((f.name.name.as_str(), f)),
            _ => None,
        })
        .collect();

    let mut img = image::Image::new(target);
    img.accelerated |= targets_sm90a(module);
    img.reserved_offset0_resolved = offset0;
    img.tool.arguments = opts.tool_arguments.clone();
    img.data = data;
    // ptxas compiles (and writes: symbols, sections, `-v` lines) the kernels in reverse PTX
    // order; so do we.
    let mut entries: Vec<_> =
        m.functions.iter_mut().zip(&frames).zip(&shared).filter(|((f, _), _)| f.kind == FuncKind::Entry).collect();
    entries.reverse();
    let module_stages = started.elapsed();
    let mut kernel_times = Vec::with_capacity(entries.len());
    for ((f, &frame), &shared) in entries {
        let kernel_started = std::time::Instant::now();
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
        img.kernels.push(compile_kernel(f, &decl, &funcs, opts)?);
        kernel_times.push(kernel_started.elapsed());
    }
    // Each kernel's compile time: its own stages plus an equal share of the module-wide ones.
    let n = u32::try_from(kernel_times.len()).unwrap_or(u32::MAX).max(1);
    let kernel_times = kernel_times.into_iter().map(|t| t + module_stages / n).collect();
    // A module without kernels (a library of device functions and data) gets a cubin without
    // code: in whole-program mode ptxas emits only what a kernel reaches.
    let writer_started = std::time::Instant::now();
    let bytes = cubin::writer::write(&img).map_err(|e| err("cubin writer", None, e))?;
    let writer_time = writer_started.elapsed();
    Ok(Compiled { cubin: bytes, image: img, infos, kernel_times, lowering_time, writer_time })
}

/// Whether the module's `.target` is `sm_90a` (code for it, e.g. `wgmma`, runs only on an
/// arch-accelerated sm_90, so its cubin is marked `sm_90a` whatever the options say).
fn targets_sm90a(module: &ast::Module) -> bool {
    module.target.names.iter().any(|n| n.name == "sm_90a")
}

/// Which parameter word groups of each `.func` are `.param`-space addresses (its parameters,
/// a memory-passed `.param` one `true`, a `.reg` or register-passed `.param` scalar `false`;
/// then `true` for each memory-passed `.param` result; [`lower::isel::call`]): what
/// [`lower::isel::select_module_abi`] takes, also used by `interp::validate` to select as the
/// backend does.
pub fn param_addresses(module: &ast::Module) -> HashMap<String, Vec<bool>> {
    let mut out = HashMap::new();
    for item in &module.items {
        if let ast::Item::Function(f) = item
            && f.kind == ast::FunctionKind::Func
            && let Ok(sig) = lower::Sig::of_func(f.returns.as_deref(), f.params.as_deref())
        {
            let mem = |p: &lower::Passing| matches!(p, lower::Passing::Mem { .. });
            let mut v: Vec<bool> = sig.params.iter().map(mem).collect();
            v.extend(sig.rets.iter().filter(|p| mem(p)).map(|_| true));
            out.insert(f.name.name.clone(), v);
        }
    }
    out
}

/// Allocates `f`, proves the allocation, splits register tuples.
pub fn allocate(f: &mut ori::Function, ropts: &regalloc::Options) -> Result<regalloc::Report, BackendError> {
    let before = f.clone();
    let report = regalloc::allocate_function(f, ropts).map_err(|e| err("register allocation", Some(&f.name), e))?;
    regalloc::check(&before, f).map_err(|e| err("register allocation check", Some(&f.name), e))?;
    regalloc::split_components(f).map_err(|e| err("register allocation", Some(&f.name), e))?;
    dump_stage("Allocate", f);
    Ok(report)
}

/// The backend's stages answer to `PTXAS_RS_DUMPIR` like the phases: `Select` prints each
/// function's SASS-stage Ori after instruction selection, `Allocate` after register allocation
/// (and tuple splitting), on stderr; `all` includes them.
fn dump_stage(stage: &str, f: &ori::Function) {
    let Ok(v) = std::env::var("PTXAS_RS_DUMPIR") else { return };
    if crate::opt::manager::parse_dump_list(&v)
        .iter()
        .any(|d| d.eq_ignore_ascii_case(stage) || d.eq_ignore_ascii_case("all"))
    {
        eprintln!("# DUMPIR after {stage} (backend) @{}\n{f}", f.name);
    }
}

/// Allocates the selected device function `f` ([`allocate`]), then gives it its callee saves
/// and final frame: `locals` its local frame (isel's F), `abi` its signature (its own
/// parameter and return registers are not saved).
pub fn allocate_device_function(
    f: &mut ori::Function,
    locals: u64,
    abi: &lower::isel::call::FuncAbi,
    ropts: &regalloc::Options,
) -> Result<(regalloc::Report, regalloc::callee_save::Saved), BackendError> {
    let report = allocate(f, ropts)?;
    let n = f.name.clone();
    let classes: Vec<ori::RegClass> = abi.params.iter().map(|p| p.0).collect();
    let mut own = lower::isel::call::word_regs(&classes).map_err(|e| err("code generation", Some(&n), e))?;
    own.extend(lower::isel::call::word_regs(&abi.rets).map_err(|e| err("code generation", Some(&n), e))?);
    let locals = u32::try_from(locals).map_err(|_| err("lowering", Some(&n), "local frame too large"))?;
    let saved = regalloc::callee_save::finish(f, locals, report.frame_bytes, &own)
        .map_err(|e| err("register allocation", Some(&n), e))?;
    Ok((report, saved))
}

/// The device functions `f` calls directly, in order of first call.
fn direct_callees(f: &ori::Function) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        if d.opcode == ori::Opcode::CALL
            && let Some(Operand::Func(n)) = d.srcs.first()
            && !out.contains(n)
        {
            out.push(n.clone());
        }
    }
    out
}

/// A device function compiled into a kernel's `.text`.
struct Sub {
    f: ori::Function,
    report: regalloc::Report,
    /// Its saved registers and whole frame (locals, spills, saved registers).
    saved: regalloc::callee_save::Saved,
}

/// Compiles the device functions kernel `k` reaches (transitively), in order of first call.
fn compile_callees(k: &ori::Function, funcs: &Funcs, ropts: &regalloc::Options) -> Result<Vec<Sub>, BackendError> {
    let mut order: Vec<String> = Vec::new();
    let mut work = direct_callees(k);
    work.reverse();
    while let Some(n) = work.pop() {
        if order.contains(&n) {
            continue;
        }
        let (g, _, _) =
            funcs.get(&n).ok_or_else(|| err("code generation", Some(&k.name), format!("no body for @{n}")))?;
        let mut next = direct_callees(g);
        next.reverse();
        work.extend(next);
        order.push(n);
    }
    let mut out = Vec::new();
    for n in order {
        let (g, locals, abi) = &funcs[&n];
        let mut g = g.clone();
        let (report, saved) = allocate_device_function(&mut g, *locals, abi, ropts)?;
        out.push(Sub { f: g, report, saved });
    }
    Ok(out)
}

/// The selected device functions by name: the function, its local frame (isel's F) and its
/// signature.
type Funcs = HashMap<String, (ori::Function, u64, lower::isel::call::FuncAbi)>;

fn compile_kernel(
    f: &mut ori::Function,
    decl: &EntryDecl,
    funcs: &Funcs,
    opts: &Options,
) -> Result<image::Kernel, BackendError> {
    let ropts = regalloc::Options::from_budget(opts.maxrregcount, decl.maxnreg, opts.override_directives);
    let report = allocate(f, &ropts)?;
    let subs = compile_callees(f, funcs, &ropts)?;
    let recipe = if opts.opt_level == 0 { Recipe::O0 } else { Recipe::Latency };
    let eopts = from_ori::EmitOptions { recipe };
    if subs.is_empty() {
        let emitted =
            from_ori::emit_function_with(f, &opts.target, &eopts).map_err(|e| err("emission", Some(&f.name), e))?;
        return Ok(kernel_image(f, decl, &report, &emitted, opts));
    }
    // Two passes: sizes first (they do not depend on the placement), then the real offsets.
    let all: Vec<&ori::Function> = std::iter::once(&*f).chain(subs.iter().map(|s| &s.f)).collect();
    let mut place = from_ori::Placement { base: 0, callees: HashMap::new(), tail: false };
    for s in &subs {
        place.callees.insert(s.f.name.clone(), 0);
    }
    let mut bases = Vec::new();
    let mut at = 0u64;
    for g in &all {
        bases.push(at);
        let e = from_ori::emit_function_placed(g, &opts.target, &eopts, &place)
            .map_err(|e| err("emission", Some(&g.name), e))?;
        at += e.code.len() as u64;
    }
    for (s, &b) in subs.iter().zip(&bases[1..]) {
        place.callees.insert(s.f.name.clone(), b);
    }
    let mut parts = Vec::new();
    for (n, (g, &b)) in all.iter().zip(&bases).enumerate() {
        place.base = b;
        place.tail = n + 1 == all.len();
        parts.push(
            from_ori::emit_function_placed(g, &opts.target, &eopts, &place)
                .map_err(|e| err("emission", Some(&g.name), e))?,
        );
    }
    let mut emitted = parts[0].clone();
    for (p, &b) in parts.iter().zip(&bases).skip(1) {
        emitted.code.extend_from_slice(&p.code);
        emitted.exit_offsets.extend(p.exit_offsets.iter().map(|&o| o + b as u32));
        emitted.gprs = emitted.gprs.max(p.gprs);
        emitted.num_barriers = emitted.num_barriers.max(p.num_barriers);
    }
    let mut k = kernel_image(f, decl, &report, &emitted, opts);
    // The stack: the kernel's frame, then the deepest chain of callee frames; with a recursive
    // call reachable the kernel's frame alone (the driver's default stack covers the rest), as
    // ptxas 13.0.88 records it (EIATTR_MIN_STACK_SIZE 0 for `func_recursion`, 0x40 for it with
    // a 64-byte kernel `.local` array: its recursive callees' 16..32-byte frames not counted).
    let frames: HashMap<&str, u32> = subs.iter().map(|s| (s.f.name.as_str(), s.saved.frame)).collect();
    let deepest = deepest_chain(f, &subs, &frames);
    k.min_stack_size = k.frame_size + deepest;
    k.crs_stack_size = Some(0);
    k.code_relocation_section = true;
    k.frames = vec![kernel_frame(parts[0].code.len() as u64)];
    for (s, (p, &b)) in subs.iter().zip(parts.iter().zip(&bases).skip(1)) {
        // As ptxas: the last function's symbol covers the padding tail too.
        let size = p.code.len() as u64;
        k.subroutines.push(image::Subroutine {
            name: format!("${}${}", f.name, s.f.name),
            offset: b,
            size,
            bind: image::Bind::Local,
            frame_size: s.saved.frame,
            aliases: Vec::new(),
        });
        k.frames.push(func_frame(b, size));
        k.report.functions.push((
            s.f.name.clone(),
            u64::from(s.saved.frame),
            u64::from(s.report.spill_store_bytes + s.saved.store_bytes),
            u64::from(s.report.spill_load_bytes + s.saved.load_bytes),
        ));
    }
    // ptxas prints the device functions by name.
    k.report.functions.sort();
    Ok(k)
}

/// The largest sum of callee frames along a call chain from `k` (each function once per chain).
fn deepest_chain(k: &ori::Function, subs: &[Sub], frames: &HashMap<&str, u32>) -> u32 {
    /// The deepest chain of frames from `name`, or `None` when a recursive call is reachable.
    fn walk<'a>(
        name: &'a str,
        subs: &'a [Sub],
        frames: &HashMap<&str, u32>,
        on_path: &mut Vec<&'a str>,
    ) -> Option<u32> {
        if on_path.contains(&name) {
            return None;
        }
        let Some(s) = subs.iter().find(|s| s.f.name == name) else { return Some(0) };
        on_path.push(name);
        let mut best = Some(0);
        for c in &direct_callees(&s.f) {
            if let Some(c) = subs.iter().find(|x| &x.f.name == c) {
                best = best.zip(walk(&c.f.name, subs, frames, on_path)).map(|(a, b)| a.max(b));
            }
        }
        on_path.pop();
        best.map(|b| frames.get(name).copied().unwrap_or(0) + b)
    }
    direct_callees(k)
        .iter()
        .map(|c| walk(c, subs, frames, &mut Vec::new()))
        .try_fold(0, |acc, d| d.map(|d| acc.max(d)))
        .unwrap_or(0)
}

fn kernel_image(
    f: &ori::Function,
    decl: &EntryDecl,
    report: &regalloc::Report,
    emitted: &from_ori::Emitted,
    opts: &Options,
) -> image::Kernel {
    let budget = opts.maxrregcount.or(decl.maxnreg);
    // A kernel that changes its register count (`setmaxnreg`, kept only under `.maxnreg`)
    // declares the count it starts with, as ptxas does ([`lower::entry_regs`]).
    let smr = f.insts.values().any(|d| d.opcode == ori::Opcode::USETMAXREG);
    image::Kernel {
        name: f.name.clone(),
        code: emitted.code.clone(),
        registers: match decl.maxnreg {
            Some(n) if smr => n,
            _ => emitted.gprs + 2,
        },
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

/// `R_CUDA_G64`: a 64-bit generic address.
const R_CUDA_G64: u32 = 4;
/// `R_CUDA_G32`: a 32-bit generic address.
const R_CUDA_G32: u32 = 3;

/// The cubin's module data from the module's `.const` and `.global` variables, placed where
/// instruction selection addresses them ([`lower::isel::data_layout`]): `.nv.constant3` with
/// the `.const` initialisers, `.nv.global.init` / `.nv.global`, and the address table
/// `.nv.constant4` (relocated to the variables). Symbols bind as the PTX declares them
/// (`.visible` global, `.weak` weak, otherwise local), ordered as ptxas processes them: weak,
/// then visible, then internal, PTX order within each group. Addresses of global variables
/// in initialisers are relocations. Refused: `.extern` variables (nothing to link against in
/// an executable cubin) and addresses of other spaces in initialisers.
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
    let (mut const_relocs, mut init_relocs) = (Vec::new(), Vec::new());
    for v in m.vars.iter().filter(|v| matches!(v.space, Space::Const | Space::Global)) {
        let l = linkage.get(v.name.as_str()).copied().unwrap_or(&[]);
        // An `.extern` variable no definition resolved is defined here, a global symbol, as
        // ptxas does in whole-program compilation (it warns: `sema`'s UNRESOLVED_EXTERN_VAR).
        let bind = if l.contains(&ast::Linkage::Weak) {
            image::Bind::Weak
        } else if l.contains(&ast::Linkage::Visible)
            || l.contains(&ast::Linkage::Common)
            || l.contains(&ast::Linkage::Extern)
        {
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
        // Addresses in the initialiser: generic addresses of global variables, relocated
        // `R_CUDA_G64` (`R_CUDA_G32` for a 32-bit slot), as ptxas does for `tab`, `tab+8` and
        // `generic(tab)+12` alike (module_init).
        for r in &v.relocs {
            let target = m.vars.iter().find(|t| t.name == r.sym).map(|t| t.space);
            if target != Some(Space::Global) {
                return Err(err(
                    "code generation",
                    None,
                    format!("the address of `{}` in the initialiser of `{}` is not implemented yet", r.sym, v.name),
                ));
            }
            let reloc = image::DataReloc {
                offset: offset + r.offset,
                symbol: r.sym.clone(),
                kind: if r.size == 8 { R_CUDA_G64 } else { R_CUDA_G32 },
                addend: r.addend,
            };
            match space {
                image::Space::Constant => const_relocs.push(reloc),
                image::Space::GlobalInit => init_relocs.push(reloc),
                _ => return Err(err("code generation", None, format!("relocations in `{}` without data", v.name))),
            }
        }
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
    let section = |bytes: Vec<u8>, align: u64, mut relocations: Vec<image::DataReloc>| {
        relocations.sort_by_key(|r| r.offset);
        let relocation_section = !relocations.is_empty();
        image::DataSection { bytes, align, relocations, relocation_section }
    };
    let has = |s: image::Space| vars.iter().any(|(_, v)| v.space == s);
    Ok(image::ModuleData {
        global_init: has(image::Space::GlobalInit).then(|| section(init_bytes, layout.global_sizes[0].1, init_relocs)),
        global: has(image::Space::Global).then_some(layout.global_sizes[1]),
        constant3: has(image::Space::Constant).then(|| section(const_bytes, layout.constant_align, const_relocs)),
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
/// Size: the target's reserved bytes ([`Target::shared_reserved`]: 0x400 on sm_90) plus the static part (as ptxas writes it, and `-v` prints
/// the static part as `smem`); alignment: the largest alignment of the variables named, at
/// least 4 (ptxas: 4 for `.align 4` arrays, 16 with an `.align 16` extern array); one dropped
/// symbol (ptxas keeps one nameless `STV_INTERNAL` symbol per kernel with shared memory,
/// whatever the number of variables: measured on the corpus by `tests/backend_shared.rs`).
fn kernel_shared(m: &ori::Module, f: &ori::Function, target: &Target) -> Option<image::Shared> {
    // The kernel's own code and every device function it reaches (their code runs in its CTA).
    let mut reach: Vec<&ori::Function> = vec![f];
    let mut k = 0;
    while k < reach.len() {
        for d in reach[k].insts.values() {
            if let (ori::Opcode::Call, Some(Operand::Func(n))) = (d.opcode, d.srcs.first())
                && let Some(g) = m.functions.iter().find(|g| &g.name == n)
                && !reach.iter().any(|r| r.name == g.name)
            {
                reach.push(g);
            }
        }
        k += 1;
    }
    let named: std::collections::HashSet<&str> = reach
        .iter()
        .flat_map(|g| g.insts.values())
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
        size: target.shared_reserved() + stat,
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

/// The `.debug_frame` entry of a device function at `start`, `len` bytes long: ptxas's CIE
/// for a callable function (CFA = R1; RZ, R1 and the return-address register unchanged; the
/// return address column 0x5000100 is "the section address plus the return register", here
/// R2 of [`lower::isel::call`]), and an FDE without rows.
fn func_frame(start: u64, len: u64) -> image::Frame {
    let ra = dwarf_r(2);
    // DW_OP_addr 0; DW_OP_bregx ra, 0; DW_OP_plus (as ptxas writes it).
    let mut expr = vec![0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0x92];
    cubin::writer::uleb(&mut expr, ra);
    expr.extend([0, 0x22]);
    image::Frame {
        return_address: 0x500_0100,
        cie: vec![
            image::Cfa::DefCfa { reg: dwarf_r(1), offset: 0 },
            image::Cfa::SameValue(dwarf_r(255)),
            image::Cfa::SameValue(dwarf_r(1)),
            image::Cfa::SameValue(ra),
            image::Cfa::ValExpression { reg: 0x500_0100, expr },
        ],
        start,
        range: len,
        fde: Vec::new(),
    }
}
