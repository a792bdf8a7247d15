//! Semantic checking of a parsed PTX module, with ptxas 13.0.88's diagnostics, order and
//! severities.
//!
//! [`check_source`] is the whole front end as ptxas runs it: parse ([`crate::ptx::parse_bytes`]),
//! then the checks here, then the trailer. The order of what it reports follows ptxas, whose
//! checks run as its Bison parser reduces each construct:
//! 1. header checks (`.version`, `.target`, `.address_size`) in source order, fatal ones stop;
//! 2. each module item in source order ([`decls`] for variables, functions, directives,
//!    pragmas, aliases; [`instr`] for instructions); `Unknown symbol` errors of a function are
//!    held until its end ([`scope`]);
//! 3. the deferred `.version`/`.target` check;
//! 4. `Ptx assembly aborted due to errors` when any error needing it was reported;
//! 5. only when nothing failed: the compile-stage checks (`-arch` vs `.target`, shared and
//!    constant size, unresolved externs), which print no trailer.
//!
//! Invariants: never panics on any module; a fatal diagnostic stops the pass at once (as
//! ptxas's do); warnings become errors under `-Werror` and disappear under `-w`.

pub mod cvt_pack;
pub mod decls;
pub mod header;
pub mod instr;
pub mod messages;
pub mod scope;
pub mod source;
pub mod sreg;
pub mod video;

use crate::cli::diag::{Diagnostic, Severity};
use crate::ptx::ast::Module;
use header::Arch;
use messages::Msg;

/// The name ptxas gives its built-in utility macro source in locations.
pub const MACRO_UTIL_FILE: &str = "<macro util>";

/// How the checks run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The file name diagnostics print.
    pub file: String,
    /// `-arch` (`sm_90`, `compute_90a`).
    pub arch: String,
    /// `-Werror`.
    pub werror: bool,
    /// `-w`.
    pub no_warnings: bool,
    /// An explicit `-O` above 0: ptxas refuses it for a `.target debug` module.
    pub optimized: bool,
}

impl Options {
    /// Options for `file` compiled with `-arch arch`.
    pub fn new(file: &str, arch: &str) -> Self {
        Options { file: file.to_string(), arch: arch.to_string(), werror: false, no_warnings: false, optimized: false }
    }
}

/// What the front end printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Diagnostics in order, trailer included.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether any error or fatal was reported (exit 255).
    pub failed: bool,
}

impl Report {
    /// The stderr text ptxas would print (one line per diagnostic).
    pub fn stderr(&self) -> String {
        self.diagnostics.iter().map(|d| format!("{d}\n")).collect()
    }
}

/// Stop signal for a fatal diagnostic.
#[derive(Debug, Clone, Copy)]
pub struct Fatal;

/// The diagnostic sink shared by the checks.
#[derive(Debug)]
pub struct Sink {
    file: String,
    werror: bool,
    no_warnings: bool,
    /// Diagnostics so far.
    pub diags: Vec<Diagnostic>,
    /// An error that needs the trailer was reported.
    pub trailer: bool,
    /// Any error at all.
    pub failed: bool,
    /// The run compiles to SASS (`-arch sm_*`); with a `compute_*` arch ptxas only checks
    /// the PTX and skips the compile-stage checks (module pragmas, `local_maxnreg` repeats,
    /// resource limits, unresolved externs, `.address_size 32` ABI) — probed.
    pub compiles: bool,
    /// Lines of integer literals that overflow, not yet reported, last first: ptxas reports
    /// `Constant overflow` as its lexer reads the literal, so each goes out before the first
    /// diagnostic of a later line or of the same line ([`Sink::push`]).
    overflows: Vec<u32>,
}

impl Sink {
    fn new(o: &Options) -> Self {
        Sink {
            file: o.file.clone(),
            werror: o.werror,
            no_warnings: o.no_warnings,
            diags: vec![],
            trailer: false,
            failed: false,
            compiles: !o.arch.starts_with("compute_"),
            overflows: Vec::new(),
        }
    }

    /// Reports the pending `Constant overflow`s on lines up to `line` (all with `None`).
    fn flush_overflows(&mut self, line: Option<u32>) -> Result<(), Fatal> {
        while let Some(&l) = self.overflows.last() {
            if line.is_some_and(|line| l > line) {
                break;
            }
            self.overflows.pop();
            self.emit(messages::CONSTANT_OVERFLOW, Some(l), &[], true)?;
        }
        Ok(())
    }

    fn push(&mut self, msg: Msg, line: Option<u32>, args: &[&str], trailer: bool) -> Result<(), Fatal> {
        self.flush_overflows(line)?;
        self.emit(msg, line, args, trailer)
    }

    fn emit(&mut self, msg: Msg, line: Option<u32>, args: &[&str], trailer: bool) -> Result<(), Fatal> {
        let mut sev = msg.severity;
        if sev == Severity::Warning {
            if self.no_warnings {
                return Ok(());
            }
            if self.werror {
                sev = Severity::Error;
            }
        }
        let mut d = Diagnostic::new(sev, msg.render(args));
        if let Some(l) = line {
            d = d.at(self.file.clone(), l);
        }
        self.diags.push(d);
        if sev.is_error() {
            self.failed = true;
            self.trailer |= trailer;
        }
        if sev == Severity::Fatal { Err(Fatal) } else { Ok(()) }
    }

    /// A located diagnostic (trailer-needing if it is an error).
    pub fn at(&mut self, line: u32, msg: Msg, args: &[&str]) -> Result<(), Fatal> {
        self.push(msg, Some(line), args, true)
    }

    /// A diagnostic located in another source buffer (ptxas's built-in macro sources).
    pub fn at_file(&mut self, file: &str, line: u32, msg: Msg, args: &[&str]) -> Result<(), Fatal> {
        let own = std::mem::replace(&mut self.file, file.to_string());
        let r = self.push(msg, Some(line), args, true);
        self.file = own;
        r
    }

    /// An unlocated diagnostic that still needs the trailer.
    pub fn unlocated(&mut self, msg: Msg, args: &[&str]) -> Result<(), Fatal> {
        self.push(msg, None, args, true)
    }

    /// An unlocated diagnostic of the later stages (no trailer).
    pub fn late(&mut self, msg: Msg, args: &[&str]) -> Result<(), Fatal> {
        self.push(msg, None, args, false)
    }
}

/// Module-wide facts the checks consult.
#[derive(Debug, Clone)]
pub struct Ctx<'a> {
    /// `.version` ×10.
    pub version: u32,
    /// The effective `.target` architecture (the last one listed).
    pub target: Option<Arch>,
    /// Its name as written.
    pub target_name: String,
    /// `texmode_independent` given.
    pub texmode_independent: bool,
    /// The SM of `-arch` (the target's when `-arch` does not parse).
    pub arch_sm: Option<u32>,
    /// The source text, for lines the AST does not keep.
    pub src: source::SourceMap<'a>,
}

impl Ctx<'_> {
    /// The target SM (0 when unknown).
    pub fn sm(&self) -> u32 {
        self.target.map_or(0, |a| a.sm)
    }
}

/// Parses `bytes` and checks them: everything ptxas prints for this input with these options.
pub fn check_source(bytes: &[u8], opts: &Options) -> Report {
    match crate::ptx::parse_bytes(bytes, &opts.file) {
        Err(d) => Report { diagnostics: vec![d, messages::ABORTED.render(&[]).pipe_fatal()], failed: true },
        Ok(m) => check(&m, bytes, opts),
    }
}

trait PipeFatal {
    fn pipe_fatal(self) -> Diagnostic;
}
impl PipeFatal for String {
    fn pipe_fatal(self) -> Diagnostic {
        Diagnostic::fatal(self)
    }
}

/// Checks a parsed module (`src` is its source text, for positions).
pub fn check(m: &Module, src: &[u8], opts: &Options) -> Report {
    let mut sink = Sink::new(opts);
    let mut ctx = Ctx {
        version: 0,
        target: None,
        target_name: String::new(),
        texmode_independent: false,
        arch_sm: Arch::parse(&opts.arch).map(|a| a.sm),
        src: source::SourceMap::new(src),
    };
    let mut late = decls::Late::default();
    sink.overflows = ctx.src.overflowing_literals();
    sink.overflows.reverse();
    let stopped = run(m, &mut ctx, &mut sink, &mut late, opts).is_err() || sink.flush_overflows(None).is_err();
    if !stopped && !sink.failed {
        let _ = late_stage(&ctx, &mut sink, &late, opts);
    }
    let mut diagnostics = sink.diags;
    if sink.trailer {
        diagnostics.push(Diagnostic::fatal(messages::ABORTED.text));
    }
    Report { diagnostics, failed: sink.failed }
}

fn run(m: &Module, ctx: &mut Ctx<'_>, sink: &mut Sink, late: &mut decls::Late, opts: &Options) -> Result<(), Fatal> {
    let deferred = header_checks(m, ctx, sink)?;
    decls::check_items(m, ctx, sink, late, opts)?;
    if let Some((line, v, t)) = deferred {
        if late.macro_util {
            sink.at_file(MACRO_UTIL_FILE, 2, messages::VERSION_TARGET, &[&v, &t])?;
        } else {
            sink.at(line, messages::VERSION_TARGET, &[&v, &t])?;
        }
    }
    if late.debug_target && !late.has_dwarf {
        sink.unlocated(messages::DEBUG_NOT_FOUND, &[])?;
    }
    Ok(())
}

/// Header checks; returns the deferred `.version`/`.target` diagnostic, if any.
fn header_checks(m: &Module, ctx: &mut Ctx<'_>, sink: &mut Sink) -> Result<Option<(u32, String, String)>, Fatal> {
    use messages as msg;
    let vline = m.version.span.line;
    let vtext = format!("{}.{}", m.version.major, m.version.minor);
    match header::version_value(&m.version.major, &m.version.minor) {
        Some(v) => ctx.version = v,
        None => return sink.at(vline, msg::UNSUPPORTED_VERSION, &[&vtext]).map(|_| None),
    }
    let tline = m.target.span.line;
    let mut texmode: Option<&str> = None;
    let mut deferred = None;
    for (i, name) in m.target.names.iter().enumerate() {
        let n = name.name.as_str();
        if let Some(a) = Arch::parse(n) {
            ctx.target = Some(a);
            ctx.target_name = n.to_string();
            continue;
        }
        if i == 0 {
            if header::is_arch_like(n) {
                return sink.at(tline, msg::UNSUPPORTED_TARGET, &[n]).map(|_| None);
            }
            return sink.at(tline, msg::TARGET_NOT_DEFINED, &[&sink.file.clone()]).map(|_| None);
        }
        match n {
            "texmode_unified" | "texmode_independent" => {
                if n == "texmode_independent" && ctx.version < 15 {
                    sink.at(tline, msg::FEATURE_PTX, &["texmode_independent", "1.5"])?;
                }
                if texmode.is_some_and(|t| t != n) {
                    sink.at(tline, msg::CONFLICTING_TARGET_OPTION, &[n])?;
                }
                texmode = Some(n);
                ctx.texmode_independent = n == "texmode_independent";
            }
            "map_f64_to_f32" => {
                if ctx.sm() >= 13 {
                    sink.at(tline, msg::MAP_F64, &[])?;
                }
            }
            "debug" => {}
            _ => return sink.at(tline, msg::UNSUPPORTED_TARGET, &[n]).map(|_| None),
        }
    }
    if let Some(a) = ctx.target
        && ctx.version < a.min_ptx()
    {
        deferred = Some((tline, header::version_text(ctx.version), ctx.target_name.clone()));
    }
    if let Some(size) = &m.address_size {
        let line = size.span.line;
        if ctx.version < 23 {
            sink.at(line, msg::FEATURE_PTX, &[".address_size directive", "2.3"])?;
        }
        match size.value() {
            Some(32) | Some(64) => {}
            _ => sink.at(line, msg::ADDRESS_SIZE_VALUE, &[])?,
        }
    }
    Ok(deferred)
}

/// The compile-stage checks, run only when the parse stage found no error.
fn late_stage(ctx: &Ctx<'_>, sink: &mut Sink, late: &decls::Late, opts: &Options) -> Result<(), Fatal> {
    use messages as msg;
    // ptxas 13.0.88: a `.target debug` module with an explicit -O1..3 (for any -arch, virtual
    // included) fails here, before the -arch/.target mismatch.
    if late.debug_target && opts.optimized {
        sink.late(msg::OPTIMIZED_DEBUG, &[])?;
    }
    if late.address_size_32 && sink.compiles {
        sink.late(msg::ADDRESS_SIZE_HOST, &[])?;
        if ctx.sm() >= 90 {
            sink.late(msg::ADDRESS_SIZE_32_ABI, &[])?;
        }
    }
    if let (Some(t), Some(a)) = (ctx.target, Arch::parse(&opts.arch))
        && let Some((m, args)) = header::arch_mismatch(&t, &ctx.target_name, &a, &opts.arch)
    {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        sink.late(m, &args)?;
    }
    if !sink.compiles {
        return Ok(());
    }
    decls::late_checks(sink, late, opts)
}
