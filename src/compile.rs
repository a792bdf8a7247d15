//! The library entry point: PTX text and ptxas's options in, cubin bytes and ptxas's
//! diagnostics out, without touching files or the process's streams.
//!
//! ```
//! use ptxas_rs::cli::Options;
//!
//! let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n";
//! let options = Options::from_args(&["-arch", "sm_90", "-v"]).expect("valid options");
//! let compiled = ptxas_rs::compile(ptx, &options).expect("compiles");
//! assert_eq!(&compiled.cubin[..4], b"\x7fELF");
//! // `-v`'s report, as ptxas prints it (one entry per `ptxas info` line).
//! assert!(compiled.info().any(|d| d.message == "Compiling entry function 'k' for 'sm_90'"));
//! assert_eq!(compiled.warnings().count(), 0);
//!
//! // Errors come back as ptxas's diagnostics.
//! let err = ptxas_rs::compile(".version 8.0\n.target sm_90\nbogus", &options).unwrap_err();
//! assert!(err.to_string().starts_with("ptxas application ptx input, line 3; fatal   : Parsing error"));
//! // An option ptxas-rs cannot honour yet is refused, never ignored.
//! let debug = Options::from_args(&["-arch", "sm_90", "-g"]).unwrap();
//! let err = ptxas_rs::compile(ptx, &debug).unwrap_err();
//! assert!(err.to_string().ends_with("(-g) is not supported yet"));
//! ```
//!
//! [`compile`] is the path the `ptxas-rs` command takes too ([`crate::driver`] parses the
//! command line, reads the files and writes the cubin around [`compile_inputs`]), so the two
//! cannot disagree. Invariants: no diagnostic of severity error or fatal accompanies a cubin;
//! warnings obey `-w` and `-Werror`; the order of diagnostics is the order ptxas prints them.

use std::fmt;

use crate::backend;
use crate::cli::{self, diag::Diagnostic, diag::Severity};
use crate::ptx::sema;
use crate::stats;

/// A successful compilation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// The cubin (an ELF file), as `ptxas -o` would write it; empty for a virtual
    /// `-arch compute_XX`, which only parses and checks.
    pub cubin: Vec<u8>,
    /// Warnings and `-v` information, in ptxas's order.
    pub diagnostics: Vec<Diagnostic>,
    /// `--compiler-stats` with `--compiler-stats-file`: the file and the text to append to it
    /// (the report is then not among the diagnostics). The `ptxas-rs` command appends it after
    /// writing the cubin; a library caller writes it, or not, itself.
    pub stats_file: Option<(String, String)>,
}

impl Compiled {
    /// The `-v` lines (`ptxas info`).
    pub fn info(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Info)
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Warning)
    }
}

/// A failed compilation: every diagnostic printed, the error(s) included, in ptxas's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The register count ptxas raises a smaller `-maxrregcount` to on every target with a backend.
pub const MIN_REG_COUNT: u32 = 24;

/// Compiles one PTX module with `options` (input files and `--input-as-string` modules in
/// `options` are ignored: `ptx` is the one input, named `application ptx input` in messages, as
/// ptxas names a string input). Options are checked as ptxas checks them, and an option ptxas-rs
/// cannot honour is refused ([`cli::support`]). `ptx` is text or raw bytes (a `&str` or a
/// `&[u8]`); bytes reach the front end unchanged, as a file's bytes do in the `ptxas-rs` command.
pub fn compile(ptx: impl AsRef<[u8]>, options: &cli::Options) -> Result<Compiled, Diagnostics> {
    let ptx = ptx.as_ref();
    let mut o = options.clone();
    o.input_files.clear();
    o.input_strings = vec![String::from_utf8_lossy(ptx).into_owned()];
    let validated = cli::validate(o);
    if validated.has_errors() {
        return Err(Diagnostics(validated.diagnostics));
    }
    let inputs = [("application ptx input".to_owned(), ptx.to_vec())];
    let mut prior = validated.diagnostics;
    prior.extend(register_warning(&validated.options));
    compile_inputs(&validated.options, &inputs, prior)
}

/// The warning ptxas prints, before reading any input, when it raises a `-maxrregcount` under
/// [`MIN_REG_COUNT`], or for a virtual target ignores it (an error under `-Werror`, none under
/// `-w`). The
/// driver issues it before opening the inputs, [`compile`] before compiling; a `-Werror` one
/// fails the run once the inputs are read ([`compile_inputs`]).
///
/// Also `--preserve-relocs` on a `compute_XX` target from 90 on: ptxas says it is 'not fully
/// implemented' there (on real targets ptxas-rs refuses the option).
pub fn register_warning(options: &cli::Options) -> Vec<Diagnostic> {
    let register = if options.is_virtual_arch() {
        virtual_register_warning(options)
    } else {
        register_budget(options).and_then(|(_, w)| w)
    };
    let arch = &options.gpu_name;
    let sm = arch.strip_prefix("compute_").map(|v| v.trim_end_matches(|c: char| c.is_ascii_alphabetic()));
    let relocs =
        (options.preserve_relocs && sm.and_then(|v| v.parse::<u32>().ok()).is_some_and(|v| v >= 90)).then(|| {
            format!("'--preserve-relocs' option is not fully implemented for '{arch}' and may not work as expected")
        });
    let severity = if options.warning_as_error { Severity::Error } else { Severity::Warning };
    [register, relocs]
        .into_iter()
        .flatten()
        .filter(|_| !options.disable_warnings)
        .map(|w| Diagnostic::new(severity, w))
        .collect()
}

/// What ptxas 13.0.88 says of a numeric `-maxrregcount` (validation dropped those outside
/// 0..=255) for a virtual target, measured: 0 is raised to the lower bound (24 for
/// `compute_XX`, 16 for `lto_XX`), any other value is 'too big' and ignored.
fn virtual_register_warning(options: &cli::Options) -> Option<String> {
    let Some(cli::RegCount::N(n)) = options.maxrregcount else { return None };
    if n == 0 {
        let bound = if options.gpu_name.starts_with("lto_") { 16 } else { MIN_REG_COUNT };
        let arch = &options.gpu_name;
        return Some(format!("For profile {arch} adjusting per thread register count of 0 to lower bound of {bound}"));
    }
    Some(format!("Too big maxrregcount value specified {n}, will be ignored"))
}

/// `-maxrregcount` as the allocator takes it on a real target: ptxas raises a budget under
/// [`MIN_REG_COUNT`] to it (the second value is its warning) and caps it at the target's
/// maximum. `None` for a virtual or unknown target.
fn register_budget(options: &cli::Options) -> Option<(Option<u32>, Option<String>)> {
    if options.is_virtual_arch() {
        return None;
    }
    let arch_max = crate::target::Target::from_arch(&options.gpu_name).ok()?.registers().max_per_thread;
    let n = match options.maxrregcount {
        None => return Some((None, None)),
        Some(cli::RegCount::N(n)) => u32::try_from(n).unwrap_or(arch_max).min(arch_max),
        Some(cli::RegCount::ArchMax) => arch_max,
        Some(cli::RegCount::ArchMin) => 32,
    };
    if n < MIN_REG_COUNT {
        let w = format!(
            "For profile {} adjusting per thread register count of {n} to lower bound of {MIN_REG_COUNT}",
            options.gpu_name
        );
        return Some((Some(MIN_REG_COUNT), Some(w)));
    }
    Some((Some(n), None))
}

/// Steps 5 and 6 of [`crate::driver`]: the front end on every input, then (for a real target)
/// the backend, after `prior` diagnostics (validation's and [`register_warning`]'s).
/// Validated options only.
pub fn compile_inputs(
    options: &cli::Options,
    inputs: &[(String, Vec<u8>)],
    prior: Vec<Diagnostic>,
) -> Result<Compiled, Diagnostics> {
    let started = std::time::Instant::now();
    let mut times = stats::Times::default();
    let mut out = Out { diagnostics: prior, werror: options.warning_as_error, quiet: options.disable_warnings };
    // The budget's warning is the caller's `register_warning`.
    let maxrregcount = register_budget(options).and_then(|(n, _)| n);
    let mut front_failed = false;
    for (name, bytes) in inputs {
        let mut so = sema::Options::new(name, &options.gpu_name);
        so.werror = options.warning_as_error;
        so.no_warnings = options.disable_warnings;
        so.optimized = options.opt_level_explicit && options.opt_level != 0;
        let report = sema::check_source(bytes, &so);
        out.diagnostics.extend(report.diagnostics);
        front_failed |= report.failed;
        if !report.failed && options.warn_on_double_precision_use && !out.fp64_warnings(name, bytes) {
            return Err(Diagnostics(out.diagnostics));
        }
    }
    if front_failed {
        return Err(Diagnostics(out.diagnostics));
    }
    // ptxas ignores --legacy-bar-warp-wide-behavior on every target, saying so once the inputs
    // are read (unless an error came first).
    if options.legacy_bar_warp_wide_behavior && !out.diagnostics.iter().any(|d| d.severity.is_error()) {
        let o = "'--legacy-bar-warp-wide-behavior'";
        out.warn(format!("{o} is a deprecated option, It will be removed in future release and is not recommended"));
        out.warn(format!("Command line option {o} not supported for '.target sm_70', will be ignored"));
    }
    // A warning made an error by -Werror (the register budget's, double precision): ptxas
    // stops once the inputs are read, with its trailer.
    if out.diagnostics.iter().any(|d| d.severity.is_error()) {
        out.diagnostics.push(cli::diag::aborted_due_to_errors());
        return Err(Diagnostics(out.diagnostics));
    }
    times.parse = started.elapsed();
    if options.is_virtual_arch() {
        // ptxas prints no `--compiler-stats` report for a virtual target either.
        return Ok(Compiled { cubin: Vec::new(), diagnostics: out.diagnostics, stats_file: None });
    }
    let cubin = out.backend(options, inputs, maxrregcount, &mut times);
    let Some(cubin) = cubin else { return Err(Diagnostics(out.diagnostics)) };
    // The report comes once code was generated, also when a warning made an error by -Werror
    // fails the run then (as ptxas; the stats file is then not written).
    times.total = started.elapsed();
    let sections = stats::sections(options, &times, stats::peak_memory_kb());
    let failed = out.diagnostics.iter().any(|d| d.severity.is_error());
    let mut stats_file = None;
    match &options.compiler_stats_file {
        Some(file) if !sections.is_empty() => {
            // ptxas names a string input `ptxas application ptx input` there.
            let name = match inputs.first().map_or("", |(n, _)| n.as_str()) {
                "application ptx input" => "ptxas application ptx input",
                n => n,
            };
            stats_file = Some((file.clone(), stats::file_text(name, &sections)));
        }
        _ => out.diagnostics.extend(sections.into_iter().map(|s| Diagnostic::info(format!("STAT: {s}")))),
    }
    if failed {
        return Err(Diagnostics(out.diagnostics));
    }
    Ok(Compiled { cubin, diagnostics: out.diagnostics, stats_file })
}

/// Diagnostics collected so far, with the run's warning policy.
struct Out {
    diagnostics: Vec<Diagnostic>,
    werror: bool,
    quiet: bool,
}

impl Out {
    /// A warning as ptxas issues it: dropped by `-w`, an error under `-Werror`.
    fn warn(&mut self, message: String) {
        if !self.quiet {
            let severity = if self.werror { Severity::Error } else { Severity::Warning };
            self.diagnostics.push(Diagnostic::new(severity, message));
        }
    }

    /// `--warn-on-double-precision-use` for one checked input ([`crate::ptx::fp64_use`]):
    /// ptxas's located warnings (under `-Werror` errors, each line once, as ptxas prints
    /// them); `false` after the refusal of an instruction whose warnings are not known.
    fn fp64_warnings(&mut self, name: &str, bytes: &[u8]) -> bool {
        let Ok(module) = crate::ptx::parse(&String::from_utf8_lossy(bytes), name) else { return true };
        match crate::ptx::fp64_use::warnings(&module) {
            Ok(mut lines) => {
                if self.werror {
                    lines.dedup();
                }
                for line in lines {
                    self.warn_at(name, line, "Program is doing double precision computations.");
                }
                true
            }
            Err(u) => {
                self.diagnostics.push(Diagnostic::fatal(format!(
                    "ptxas-rs: option '--warn-on-double-precision-use' (-warn-double-usage) on '{}' (line {}) is not supported yet",
                    u.instruction, u.line
                )));
                false
            }
        }
    }

    /// [`Self::warn`], located.
    fn warn_at(&mut self, file: &str, line: u32, message: &str) {
        let before = self.diagnostics.len();
        self.warn(message.to_owned());
        if let Some(d) = self.diagnostics.get_mut(before) {
            d.location = Some(cli::diag::Location { file: file.to_owned(), line });
        }
    }

    fn fail(&mut self, d: Diagnostic) -> Option<Vec<u8>> {
        self.diagnostics.push(d);
        None
    }

    /// Compiles the checked inputs for the `-arch` target; the cubin, or `None` after an error.
    fn backend(
        &mut self,
        options: &cli::Options,
        inputs: &[(String, Vec<u8>)],
        maxrregcount: Option<u32>,
        times: &mut stats::Times,
    ) -> Option<Vec<u8>> {
        let setup_started = std::time::Instant::now();
        let unsupported = |what: String| Diagnostic::fatal(format!("ptxas-rs: {what} is not supported yet"));
        // The target is made once here and carried by every stage; the one refusal of code
        // generation is the target's own.
        let target = match crate::target::Target::from_arch(&options.gpu_name) {
            Ok(t) => t,
            Err(e) => return self.fail(Diagnostic::fatal(e.to_string())),
        };
        if let Err(e) = target.backend() {
            return self.fail(unsupported(e.to_string()));
        }
        if options.compile_only {
            return self.fail(unsupported("relocatable output (-c)".into()));
        }
        let [(name, bytes)] = inputs else {
            return self.fail(unsupported("compiling more than one input".into()));
        };
        times.setup = setup_started.elapsed();
        let parse_started = std::time::Instant::now();
        let text = String::from_utf8_lossy(bytes);
        let ast = match crate::ptx::parse(&text, name) {
            Ok(m) => m,
            Err(d) => return self.fail(d),
        };
        times.parse += parse_started.elapsed();
        let setup_started = std::time::Instant::now();
        // Debug code is unoptimised, as ptxas's: `.target ..., debug` compiles at -O0 (an
        // explicit -O1..3 on a debug target is the front end's fatal). `-Ofc` forces its level
        // as ptxas's does (max: -O0; mid, min: -O1).
        let debug_target = ast.target.names.iter().any(|n| n.name == "debug");
        let opt_level = match options.fast_compile {
            _ if debug_target || options.device_debug => 0,
            cli::FastCompile::Max => 0,
            cli::FastCompile::Mid | cli::FastCompile::Min => 1,
            cli::FastCompile::Off => options.opt_level.clamp(0, 3) as u8,
        };
        let bopts = backend::Options {
            opt_level,
            target,
            maxrregcount,
            override_directives: options.override_directive_values,
            tool_arguments: options.tkinfo_arguments.clone(),
            fmad: options.fmad,
        };
        times.setup += setup_started.elapsed();
        let backend_started = std::time::Instant::now();
        let compiled = match backend::compile(&ast, &bopts) {
            Ok(c) => c,
            Err(e) => {
                let mut d = Diagnostic::error(format!("ptxas-rs: {}", not_supported_yet(&e.to_string())));
                // Located at the instruction when the stage knows it, else at the function's header.
                let line = match (e.line, &e.function) {
                    (0, Some(f)) => function_line(&ast, f).unwrap_or(0),
                    (l, _) => l,
                };
                if line > 0 {
                    d = d.at(name.clone(), line);
                }
                return self.fail(d);
            }
        };
        times.lowering = compiled.lowering_time;
        times.elf = compiled.writer_time;
        times.ocg = backend_started.elapsed().saturating_sub(times.lowering + times.elf);
        // The image holds the kernels last first; the compile units are reported in PTX order.
        let kernels = compiled.image.kernels.iter().map(|k| k.name.clone());
        times.units = kernels.zip(compiled.kernel_times.iter().copied()).rev().collect();
        for i in &compiled.infos {
            self.diagnostics.push(Diagnostic::info(i.clone()));
        }
        self.resource_warnings(options, &compiled.image);
        if options.verbose {
            self.verbose_lines(&compiled.image, &compiled.kernel_times);
        }
        Some(compiled.cubin)
    }

    /// The warnings ptxas prints per compiled function before the `-v` report
    /// (`--warn-on-local-memory-usage`, `--warn-on-spills`), callees before their entry, and the
    /// error for a register budget the allocator did not meet (never a silent overshoot).
    fn resource_warnings(&mut self, options: &cli::Options, image: &crate::cubin::image::Image) {
        let mut seen = std::collections::HashSet::new();
        for k in &image.kernels {
            let callees = k.report.functions.iter().map(|(n, f, s, l)| (n.as_str(), *f, *s, *l));
            let own = std::iter::once((
                k.name.as_str(),
                u64::from(k.frame_size),
                k.report.spill_stores,
                k.report.spill_loads,
            ));
            for (name, frame, stores, loads) in callees.chain(own) {
                if !seen.insert(name.to_owned()) {
                    continue;
                }
                if options.warn_on_local_memory_usage && frame > 0 {
                    self.warn(format!("Local memory used for function '{name}', size of stack frame: {frame} bytes"));
                }
                if options.warn_on_spills && (stores > 0 || loads > 0) {
                    self.warn(format!(
                        "Registers are spilled to local memory in function '{name}', {stores} bytes spill stores, {loads} bytes spill loads"
                    ));
                }
            }
            if k.maxreg != 0xff && k.registers > u32::from(k.maxreg) {
                self.diagnostics.push(Diagnostic::error(format!(
                    "ptxas-rs: register allocation of '{}' used {} registers, over the budget of {}: not supported yet",
                    k.name, k.registers, k.maxreg
                )));
            }
        }
    }

    /// `-v`: ptxas's resource lines as info diagnostics; the indented line under "Function
    /// properties" travels inside the preceding diagnostic's message, after a newline, exactly as
    /// ptxas prints it.
    fn verbose_lines(&mut self, image: &crate::cubin::image::Image, times: &[std::time::Duration]) {
        let mut lines = crate::cubin::verbose::lines_timed(image, times).into_iter().peekable();
        while let Some(l) = lines.next() {
            let mut msg = l.strip_prefix("ptxas info    : ").unwrap_or(&l).to_owned();
            while let Some(next) = lines.next_if(|n| !n.starts_with("ptxas ")) {
                msg.push('\n');
                msg.push_str(&next);
            }
            self.diagnostics.push(Diagnostic::info(msg));
        }
    }
}

/// A backend failure on input the front end accepted is a limitation of ours: its message says
/// `not supported yet` (the stages word their messages freely; this is the one place that makes
/// the wording uniform).
fn not_supported_yet(msg: &str) -> String {
    if msg.contains("not supported yet") {
        return msg.to_owned();
    }
    for tail in [" is not implemented yet", " are not implemented yet", " is not supported", " are not supported"] {
        if let Some(head) = msg.strip_suffix(tail) {
            let verb = tail.split_whitespace().next().unwrap_or("is");
            return format!("{head} {verb} not supported yet");
        }
    }
    format!("{msg} (not supported yet)")
}

/// The line of the header of the function or entry `name`.
fn function_line(m: &crate::ptx::ast::Module, name: &str) -> Option<u32> {
    m.items.iter().find_map(|i| match i {
        crate::ptx::ast::Item::Function(f) if f.name.name == name => Some(f.name.span.line),
        _ => None,
    })
}
