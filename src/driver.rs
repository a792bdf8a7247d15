//! The compiler driver: what `ptxas-rs` does with its command line, in ptxas's order.
//!
//! 1. Parse the arguments ([`crate::cli::parse`]); print parse diagnostics; a syntax error is fatal.
//! 2. `--help` (or no input at all) prints the usage text, else `--version`, else `--list-version`;
//!    these go to stdout and exit 0.
//! 3. Validate option values and combinations ([`crate::cli::validate`]).
//! 4. A `-maxrregcount` under 24 is raised to 24 with ptxas's warning (real targets,
//!    [`crate::compile::register_warning`]). Open every input file, reporting each one that
//!    cannot be opened.
//! 5. Parse and check every input with the PTX front end
//!    ([`crate::ptx::sema::check_source`]), printing its diagnostics as ptxas does, then
//!    `--warn-on-double-precision-use`'s warnings ([`crate::ptx::fp64_use`]); a warning made an
//!    error by `-Werror` stops the run there, with ptxas's trailer. With `-arch compute_XX` that
//!    is all (exit 0 when clean).
//! 6. Make the [`crate::target::Target`] of `-arch` once (its [`crate::target::Target::backend`]
//!    is the one refusal of targets without a code generator: sm_90 and sm_90a have one so
//!    far) and compile with the backend ([`crate::backend::compile`], at -O0 for
//!    debug code, `-g` or `.target ..., debug`, where an explicit -O1..3 is fatal) and write the
//!    cubin to `-o` (default `elf.o`); `-v` prints ptxas's resource lines computed from what was
//!    emitted (kernels last first, each with its measured `Compile time`), after the
//!    `--warn-on-local-memory-usage`/`--warn-on-spills` warnings, then `--compiler-stats`'s
//!    report ([`crate::stats`]). What the backend does not cover yet (other targets, `-c`, several inputs,
//!    unsupported instructions) is one `ptxas-rs: ... not supported yet` fatal line or one
//!    error naming the stage and the function, located at the instruction when the stage knows
//!    it, else at the function's header, and worded `not supported yet`.
//!
//! Steps 5 and 6 are [`crate::compile::compile_inputs`], the library's path; the driver adds
//! the files around it (reading the inputs, writing `-o`, worded as ptxas's when it cannot).
//!
//! `--compiler-stats-file` is appended to after the cubin is written ([`crate::stats`]).
//!
//! Invariants: every diagnostic goes to stderr in ptxas's format; the exit status is 0 on success and
//! 255 on any error, as ptxas's; no output file is created unless compilation succeeds (one
//! exception, ptxas's own: a `--compiler-stats-file` that cannot be opened fails the run after
//! the cubin was written, and the cubin stays).

use std::io::Write;
use std::process::ExitCode;

use crate::cli::{self, diag, diag::Diagnostic};

/// What a run printed and how it ended; [`main`] writes it out. Useful for tests and for library
/// callers that want ptxas's behaviour without touching the process's streams.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Text for stdout.
    pub stdout: String,
    /// Diagnostics for stderr, one line each, in order.
    pub diagnostics: Vec<Diagnostic>,
    /// Exit status: 0 or 255.
    pub status: u8,
}

impl Outcome {
    fn fail(mut self, d: Diagnostic) -> Self {
        self.diagnostics.push(d);
        self.status = 255;
        self
    }
}

/// Runs ptxas-rs with `args` (without the program name) and returns what it would print.
pub fn run(args: &[String]) -> Outcome {
    let mut out = Outcome::default();
    let parsed = cli::parse(args);
    out.diagnostics.extend(parsed.diagnostics);
    let options = match parsed.result {
        Ok(o) => o,
        Err(fatal) => return out.fail(fatal),
    };
    if options.help || !options.has_input() && !options.version && !options.list_version {
        out.stdout = cli::help::help_text();
        return out;
    }
    if options.version {
        out.stdout = cli::help::version_text();
        return out;
    }
    if options.list_version {
        out.stdout = cli::help::list_version_text();
        return out;
    }

    let validated = cli::validate(options);
    let fatal = validated.is_fatal();
    let mut failed = validated.has_errors();
    out.diagnostics.extend(validated.diagnostics);
    if fatal {
        out.status = 255;
        return out;
    }
    let options = validated.options;
    // ptxas raises a too-small register budget, with its warning, before opening the inputs.
    out.diagnostics.extend(crate::compile::register_warning(&options));

    for file in &options.input_files {
        if file != "-" && std::fs::File::open(file).is_err() {
            out.diagnostics.push(Diagnostic::fatal(format!("Input file '{file}' could not be opened")));
            failed = true;
        }
    }
    if failed {
        return out.fail(diag::aborted_due_to_errors());
    }
    // 5 and 6: the front end, then the backend (the library's path, `crate::compile`).
    let inputs: Vec<(String, Vec<u8>)> = options
        .input_files
        .iter()
        .map(|f| (f.clone(), if f == "-" { read_stdin() } else { std::fs::read(f).unwrap_or_default() }))
        .chain(options.input_strings.iter().map(|s| ("application ptx input".to_string(), s.clone().into_bytes())))
        .collect();
    let prior = std::mem::take(&mut out.diagnostics);
    match crate::compile::compile_inputs(&options, &inputs, prior) {
        Ok(compiled) => {
            out.diagnostics = compiled.diagnostics;
            if options.is_virtual_arch() {
                return out;
            }
            if std::fs::write(&options.output_file, &compiled.cubin).is_err() {
                let _ = std::fs::remove_file(&options.output_file);
                return out
                    .fail(Diagnostic::fatal(format!("Output file '{}' could not be opened", options.output_file)));
            }
            // `--compiler-stats-file`: appended after the cubin is written; ptxas keeps the
            // cubin when it cannot open the stats file.
            if let Some((file, text)) = &compiled.stats_file
                && append(file, text).is_err()
            {
                return out.fail(Diagnostic::fatal(format!("Output file '{file}' could not be opened")));
            }
            out
        }
        Err(crate::compile::Diagnostics(diagnostics)) => {
            out.diagnostics = diagnostics;
            out.status = 255;
            out
        }
    }
}

fn append(file: &str, text: &str) -> std::io::Result<()> {
    std::fs::OpenOptions::new().append(true).create(true).open(file)?.write_all(text.as_bytes())
}

fn read_stdin() -> Vec<u8> {
    use std::io::Read;
    let mut v = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut v);
    v
}

/// Runs ptxas-rs with `args` (without the program name), printing as ptxas does.
pub fn main(args: &[String]) -> ExitCode {
    if args.first().is_some_and(|a| a == "disasm") {
        return crate::disasm::cli::main(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "run") {
        return run_main(&args[1..]);
    }
    let outcome = run(args);
    // Like ptxas, ignore failures to write (a closed pipe must not turn into a panic).
    let _ = std::io::stdout().lock().write_all(outcome.stdout.as_bytes());
    let mut stderr = std::io::stderr().lock();
    for d in &outcome.diagnostics {
        let _ = writeln!(stderr, "{d}");
    }
    ExitCode::from(outcome.status)
}

/// The executable that implements `ptxas-rs run` (it lives in the `interp` crate, which depends
/// on this library, so the driver cannot link it and forwards to it, git-subcommand style).
pub const RUN_TOOL: &str = "ptxas-rs-run";

/// `ptxas-rs run ...`: runs `ptxas-rs-run` found beside the current executable with the same
/// arguments and returns its exit status; a clear error (exit 2) when it is missing.
fn run_main(args: &[String]) -> ExitCode {
    let exe = std::env::current_exe().ok();
    let tool =
        exe.as_ref().and_then(|e| e.parent()).map(|d| d.join(format!("{RUN_TOOL}{}", std::env::consts::EXE_SUFFIX)));
    let Some(tool) = tool.filter(|t| t.is_file()) else {
        eprintln!(
            "ptxas-rs run: the `{RUN_TOOL}` executable was not found beside `ptxas-rs`; build it with \
             `cargo build -p interp --bin {RUN_TOOL}` (same profile as ptxas-rs)"
        );
        return ExitCode::from(2);
    };
    match std::process::Command::new(&tool).args(args).status() {
        Ok(st) => ExitCode::from(st.code().map_or(1, |c| c.clamp(0, 255) as u8)),
        Err(e) => {
            eprintln!("ptxas-rs run: cannot start {}: {e}", tool.display());
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_strs(args: &[&str]) -> Outcome {
        run(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn no_args_prints_usage() {
        let o = run_strs(&[]);
        assert_eq!(o.status, 0);
        assert!(o.stdout.contains("Usage  : ptxas"));
        assert!(o.diagnostics.is_empty());
    }

    #[test]
    fn missing_inputs_are_reported() {
        let o = run_strs(&["/nonexistent/a.ptx", "/nonexistent/b.ptx"]);
        assert_eq!(o.status, 255);
        let lines: Vec<String> = o.diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "ptxas fatal   : Input file '/nonexistent/a.ptx' could not be opened",
                "ptxas fatal   : Input file '/nonexistent/b.ptx' could not be opened",
                "ptxas fatal   : Ptx assembly aborted due to errors",
            ]
        );
    }

    #[test]
    fn valid_input_for_another_target_is_not_implemented() {
        // sm_121: a real target without a backend (sm_75, the default, has one).
        let o = run_strs(&["-arch", "sm_121", "-ias", ".version 9.0\n.target sm_121\n"]);
        assert_eq!(o.status, 255);
        let last = o.diagnostics.last().map(ToString::to_string).unwrap_or_default();
        assert!(last.starts_with("ptxas fatal   : ptxas-rs: code generation for 'sm_121'"), "{last}");
    }

    #[test]
    fn help_wins_over_version() {
        assert!(run_strs(&["-V", "-h"]).stdout.starts_with("\nUsage"));
        assert!(run_strs(&["--list-version", "-V"]).stdout.starts_with("ptxas: "));
    }
}
