//! Differential testing of the whole compiler (issue 7): random valid, UB-free PTX kernels
//! ([`kernelgen`]) compiled by ptxas-rs at each `-O` level, run in the SASS emulator with hazard
//! checking, and compared with the Ori interpreter running the lowered PTX.
//!
//! [`check`] is the property; the cargo-fuzz target `compile_diff` and the proptest twin
//! `interp/tests/compile_diff.rs` are thin shells over it.
//!
//! # Verdicts
//!
//! A case ends in one [`Report`]: for each level either *compared* (the outputs agree), a
//! *skip* (the backend refused the kernel with a "not implemented"-class error: every stage's
//! refusal except the register allocation checker's, which only fires on a wrong allocation), or
//! a [`Finding`], which is always a bug somewhere:
//!
//! - `generator`: our PTX front end rejects the kernel or the spec does not parse (a bug in the
//!   generator, or in the front end when NVIDIA's ptxas accepts the kernel);
//! - `interpreter`: the Ori interpreter fails on the lowered kernel;
//! - `backend`: the register allocation checker refused an allocation;
//! - `emulator`: the cubin does not load or the emulator stops (an illegal or unsupported
//!   instruction, a hazard in the control bits, a fault, a step limit);
//! - `outputs`: the emulator's outputs differ from the interpreter's.
//!
//! Invariant: [`check`] never panics on a generated kernel unless a stage it calls panics (which
//! the fuzzer then reports as a crash, also a finding).

pub mod kernelgen;
pub mod micro;

use std::fmt;

use arbitrary::Unstructured;
use ptxas_rs::backend;
use ptxas_rs::ptx::sema;

pub use kernelgen::{GenConfig, Generated, generate};

use crate::emu::{EmuConfig, Kernel};
use crate::launch::{LaunchSpec, compare::compare};
use crate::{ExecConfig, Outputs};

/// What to check.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The generator's options.
    pub generator: GenConfig,
    /// The `-O` levels to compile at.
    pub levels: Vec<u8>,
    /// Check scheduling hazards in the emulator.
    pub hazards: bool,
}

impl Default for CheckConfig {
    fn default() -> CheckConfig {
        CheckConfig { generator: GenConfig::default(), levels: vec![0, 3], hazards: true }
    }
}

/// A bug the check found.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Which part is wrong, or where the disagreement shows (see the module doc).
    pub kind: &'static str,
    /// The `-O` level, when the finding is about one compilation.
    pub level: Option<u8>,
    /// What differs.
    pub detail: String,
    /// The kernel.
    pub ptx: String,
    /// Its launch spec.
    pub spec_toml: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if let Some(l) = self.level {
            write!(f, " at -O{l}")?;
        }
        write!(f, ": {}\n--- PTX ---\n{}--- launch spec ---\n{}", self.detail, self.ptx, self.spec_toml)
    }
}

/// The outcome of one case.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Levels whose outputs were compared and agree.
    pub compared: Vec<u8>,
    /// Levels the backend refused: `(level, "stage: message [PTX line N: `text`]")`.
    pub skipped: Vec<(u8, String)>,
    /// The first bug found, if any.
    pub finding: Option<Finding>,
}

/// Generates a kernel from the fuzzer's bytes and checks it.
pub fn check_bytes(data: &[u8], cfg: &CheckConfig) -> Report {
    let mut u = Unstructured::new(data);
    check(&generate(&mut u, &cfg.generator), cfg)
}

/// The interpreter's run of a generated kernel: the parsed spec and the reference outputs, or
/// a finding (the kernel or the spec is invalid, or the interpreter fails).
pub fn reference(g: &Generated) -> Result<(LaunchSpec, Outputs), Finding> {
    let finding = |kind, detail: String| Finding {
        kind,
        level: None,
        detail,
        ptx: g.ptx.clone(),
        spec_toml: g.spec_toml.clone(),
    };
    let spec =
        LaunchSpec::from_toml_str(&g.spec_toml).map_err(|e| finding("generator", format!("launch spec: {e}")))?;
    let sema = sema::check_source(g.ptx.as_bytes(), &sema::Options::new("difft.ptx", "sm_90"));
    if sema.failed {
        return Err(finding("generator", format!("the front end rejects the kernel:\n{}", sema.stderr())));
    }
    let module = ptxas_rs::lower::lower_source(&g.ptx).map_err(|e| finding("generator", format!("lowering: {e}")))?;
    let exec = ExecConfig { step_limit: 10_000_000, ..ExecConfig::default() };
    let out = crate::run_ori_with(&module, kernelgen::KERNEL, &spec, &exec)
        .map_err(|e| finding("interpreter", format!("the interpreter fails: {e}")))?;
    Ok((spec, out))
}

/// Runs `cubin` in the emulator and compares its outputs with `expected`; `Err` says what went
/// wrong (`(kind, detail)`, kinds as in the module doc).
pub fn run_and_compare(
    cubin: &[u8],
    spec: &LaunchSpec,
    expected: &Outputs,
    hazards: bool,
) -> Result<(), (&'static str, String)> {
    let kernel = Kernel::load(cubin, kernelgen::KERNEL).map_err(|e| ("emulator", format!("load: {e}")))?;
    let cfg = EmuConfig { hazards, step_limit: 10_000_000, ..EmuConfig::default() };
    let run = kernel.run(spec, &cfg).map_err(|e| ("emulator", e.to_string()))?;
    let mut diffs = Vec::new();
    for buf in spec.outputs() {
        let n = buf.name();
        let (Some(exp), Some(got)) = (expected.get(n), run.outputs.get(n)) else {
            diffs.push(format!("{n}: missing"));
            continue;
        };
        if let Err(m) = compare(buf, exp, got) {
            diffs.push(format!("{n} (expected = interpreter, actual = emulator): {m}"));
        }
    }
    if diffs.is_empty() { Ok(()) } else { Err(("outputs", diffs.join("; "))) }
}

/// Compiles `g` with ptxas-rs at each configured level and compares the emulator with the
/// interpreter.
pub fn check(g: &Generated, cfg: &CheckConfig) -> Report {
    let mut report = Report::default();
    let (spec, expected) = match reference(g) {
        Ok(x) => x,
        Err(f) => {
            report.finding = Some(f);
            return report;
        }
    };
    let ast = match ptxas_rs::ptx::parse(&g.ptx, "difft.ptx") {
        Ok(a) => a,
        Err(e) => {
            report.finding = Some(Finding {
                kind: "generator",
                level: None,
                detail: format!("parse: {e}"),
                ptx: g.ptx.clone(),
                spec_toml: g.spec_toml.clone(),
            });
            return report;
        }
    };
    for &level in &cfg.levels {
        let finding = |kind, detail| Finding {
            kind,
            level: Some(level),
            detail,
            ptx: g.ptx.clone(),
            spec_toml: g.spec_toml.clone(),
        };
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let compiled = match backend::compile(&ast, &opts) {
            Ok(c) => c,
            Err(e) if e.stage == "register allocation check" => {
                report.finding = Some(finding("backend", e.to_string()));
                return report;
            }
            Err(e) => {
                let line = g.ptx.lines().nth((e.line as usize).wrapping_sub(1)).map_or("", str::trim);
                report.skipped.push((level, format!("{}: {} [PTX line {}: `{line}`]", e.stage, e.message, e.line)));
                continue;
            }
        };
        match run_and_compare(&compiled.cubin, &spec, &expected, cfg.hazards) {
            Ok(()) => report.compared.push(level),
            Err((kind, detail)) => {
                report.finding = Some(finding(kind, detail));
                return report;
            }
        }
    }
    report
}
