//! The phase manager: runs a list of phases over a module, in order, gated by opt level, with
//! hooks after every phase.
//!
//! A [`Pipeline`] is a list of [`PipelinePhase`]s: by default the 159 of the table
//! ([`Pipeline::standard`]), or any subset or custom list (a test injecting a deliberately
//! broken pass, a bridge phase supplied by another module via [`Pipeline::with_pass`]). Like
//! ptxas's PhaseManager it has no dependency scheduling: each phase runs when its slot comes,
//! if its gate admits the opt level and a pass is attached.
//!
//! After every phase the gate admits (whether or not a pass is attached, so that a dump by the
//! name of a Report phase works), the manager:
//! 1. runs the IR verifier on the module ([`PipelineOptions::verify`], on by default in debug
//!    builds and tests) and stops with [`PipelineErrorKind::Verifier`] naming the phase;
//! 2. dumps the module's Ori text if the phase is named in [`PipelineOptions::dump`]
//!    (`PTXAS_RS_DUMPIR=PhaseName[,PhaseName..]`, case-insensitive, `all` for every phase),
//!    into [`RunReport::dumps`] and, if [`PipelineOptions::dump_to_stderr`], to stderr with a
//!    `# DUMPIR after <phase>` header;
//! 3. calls every [`PhaseHook`] with the phase's [`PhaseRun`] (time taken, change count) and
//!    the module; a hook can stop the run ([`HookAction::Stop`]).
//!
//! Hooks are how code outside this crate observes every phase: the interpreter lives in crate
//! `interp`, which depends on this one, so translation validation is a hook there.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::table::{OptGate, PHASES, PhaseInfo};
use super::{Pass, PassError};
use crate::ori::{Module, VerifierErrors, verify_module};

/// One slot of a pipeline.
#[derive(Clone)]
pub struct PipelinePhase {
    /// The table index, for phases of the table.
    pub index: Option<usize>,
    /// The phase name.
    pub name: String,
    /// Opt levels it runs at.
    pub gate: OptGate,
    /// What runs; `None` runs nothing (the phase is still reported and hooked).
    pub pass: Option<Arc<dyn Pass>>,
}

impl PipelinePhase {
    /// The slot of table row `info`, with its attached pass.
    pub fn from_table(info: &PhaseInfo) -> PipelinePhase {
        PipelinePhase {
            index: Some(info.index),
            name: info.name.to_string(),
            gate: info.gate,
            pass: info.status.pass().map(|p| Arc::new(StaticPass(p)) as Arc<dyn Pass>),
        }
    }
    /// A custom slot running `pass` at every opt level.
    pub fn custom(name: impl Into<String>, pass: Arc<dyn Pass>) -> PipelinePhase {
        PipelinePhase { index: None, name: name.into(), gate: OptGate::ALL, pass: Some(pass) }
    }
}

impl fmt::Debug for PipelinePhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PipelinePhase")
            .field("index", &self.index)
            .field("name", &self.name)
            .field("gate", &self.gate)
            .field("has_pass", &self.pass.is_some())
            .finish()
    }
}

struct StaticPass(&'static dyn Pass);

impl Pass for StaticPass {
    fn kind(&self) -> super::PassKind {
        self.0.kind()
    }
    fn run_function(&self, f: &mut crate::ori::Function) -> Result<usize, PassError> {
        self.0.run_function(f)
    }
    fn run_module(&self, m: &mut Module) -> Result<usize, PassError> {
        self.0.run_module(m)
    }
    fn run_module_with(&self, m: &mut Module, opts: &PipelineOptions) -> Result<usize, PassError> {
        self.0.run_module_with(m, opts)
    }
}

/// Options of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Optimisation level, 0..=3 (ptxas's default is 3).
    pub opt_level: u8,
    /// Run the verifier after every phase.
    pub verify: bool,
    /// Phase names after which to dump the IR (case-insensitive; `all` dumps after every phase).
    pub dump: Vec<String>,
    /// Also print dumps to stderr.
    pub dump_to_stderr: bool,
    /// `--fmad`: whether floating-point `mul` + `add` may be contracted into `fma` (phase 9;
    /// ptxas's default is true).
    pub fmad: bool,
}

impl Default for PipelineOptions {
    /// -O3; the verifier on in debug builds; no dumps; `--fmad true`.
    fn default() -> PipelineOptions {
        PipelineOptions {
            opt_level: 3,
            verify: cfg!(debug_assertions),
            dump: Vec::new(),
            dump_to_stderr: false,
            fmad: true,
        }
    }
}

impl PipelineOptions {
    /// Defaults at `opt_level`, with dumps from `PTXAS_RS_DUMPIR` (comma-separated phase names,
    /// printed to stderr) when set.
    pub fn from_env(opt_level: u8) -> PipelineOptions {
        let mut o = PipelineOptions { opt_level, ..PipelineOptions::default() };
        if let Ok(v) = std::env::var("PTXAS_RS_DUMPIR") {
            o.dump = parse_dump_list(&v);
            o.dump_to_stderr = true;
        }
        o
    }
    fn dumps_after(&self, name: &str) -> bool {
        self.dump.iter().any(|d| d.eq_ignore_ascii_case(name) || d.eq_ignore_ascii_case("all"))
    }
}

/// Splits a DUMPIR value (`A,B , C`) into names.
pub fn parse_dump_list(v: &str) -> Vec<String> {
    v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// What happened in one phase slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseRun {
    /// Position in the pipeline's list.
    pub position: usize,
    /// Table index, for table phases.
    pub index: Option<usize>,
    /// Phase name.
    pub name: String,
    /// Whether a pass ran (false: no pass attached).
    pub ran: bool,
    /// Changes the pass reported.
    pub changed: usize,
    /// Wall time of the pass (not of the hooks).
    pub time: Duration,
}

/// What a hook wants after a phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HookAction {
    /// Go on.
    Continue,
    /// Stop the pipeline; the run ends with [`PipelineErrorKind::StoppedByHook`].
    Stop(String),
}

/// An observer of every phase.
pub trait PhaseHook {
    /// Called once before the first phase, with the input module.
    fn start(&mut self, _module: &Module) -> HookAction {
        HookAction::Continue
    }
    /// Called after every phase the opt level admits.
    fn after_phase(&mut self, run: &PhaseRun, module: &Module) -> HookAction;
}

/// Why a pipeline run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PipelineErrorKind {
    /// The pass failed (a check found a violation).
    Pass(PassError),
    /// The verifier rejected the IR the phase left.
    Verifier(VerifierErrors),
    /// A hook stopped the run.
    StoppedByHook(String),
}

/// A failed run, naming the phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineError {
    /// The phase's name.
    pub phase: String,
    /// Its table index.
    pub index: Option<usize>,
    /// What went wrong.
    pub kind: PipelineErrorKind,
    /// The phases that completed before it.
    pub report: RunReport,
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "phase {i} {}: ", self.phase)?,
            None => write!(f, "phase {}: ", self.phase)?,
        }
        match &self.kind {
            PipelineErrorKind::Pass(e) => write!(f, "{e}"),
            PipelineErrorKind::Verifier(e) => write!(f, "the verifier rejects the result:\n{e}"),
            PipelineErrorKind::StoppedByHook(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for PipelineError {}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    /// Every admitted phase, in order.
    pub phases: Vec<PhaseRun>,
    /// `(phase name, module text)` for each dump requested.
    pub dumps: Vec<(String, String)>,
}

impl RunReport {
    /// Total changes of all phases.
    pub fn total_changed(&self) -> usize {
        self.phases.iter().map(|p| p.changed).sum()
    }
    /// Total pass time.
    pub fn total_time(&self) -> Duration {
        self.phases.iter().map(|p| p.time).sum()
    }
    /// A `--stat=phase-wise`-like table: one line per phase that ran.
    pub fn timing_table(&self) -> String {
        let mut s = String::new();
        for p in self.phases.iter().filter(|p| p.ran) {
            let idx = p.index.map_or("-".to_string(), |i| i.to_string());
            s.push_str(&format!(
                "{idx:>3} {:<40} {:>10.3} ms {:>6} changes\n",
                p.name,
                p.time.as_secs_f64() * 1e3,
                p.changed
            ));
        }
        s
    }
}

/// The table rows of [`Pipeline::before_selection`].
const BEFORE_SELECTION: std::ops::RangeInclusive<usize> = 4..=8;

/// A list of phases to run in order.
#[derive(Clone, Debug, Default)]
pub struct Pipeline {
    /// The slots.
    pub phases: Vec<PipelinePhase>,
}

impl Pipeline {
    /// All 159 phases of the table.
    pub fn standard() -> Pipeline {
        Pipeline { phases: PHASES.iter().map(PipelinePhase::from_table).collect() }
    }
    /// The table phases named in `names` (exact names), in pipeline order. Unknown names are an
    /// error naming them.
    pub fn only(names: &[&str]) -> Result<Pipeline, String> {
        for n in names {
            if !PHASES.iter().any(|p| p.name == *n) {
                return Err(format!("unknown phase `{n}`"));
            }
        }
        Ok(Pipeline {
            phases: PHASES.iter().filter(|p| names.contains(&p.name)).map(PipelinePhase::from_table).collect(),
        })
    }
    /// The legalization bridge that must run before instruction selection (`lower::isel`) when
    /// a module is selected without [`Pipeline::standard`] (tests selecting lowered Ori, the
    /// translation-validation harness): table phases 4..=8, AdvancedPhaseBeforeConvUnSup,
    /// ConvertUnsupportedOps, SetControlFlowOpLastInBB, AdvancedPhaseAfterConvUnSup and
    /// UpdateAfterConvertUnsupportedOps. Of these only ConvertUnsupportedOps has a pass today:
    /// it turns the shared atomics `ATOMS` cannot execute into compare-and-swap loops, which
    /// selection refuses to see. All run at every opt level.
    pub fn before_selection() -> Pipeline {
        Pipeline { phases: PHASES[BEFORE_SELECTION].iter().map(PipelinePhase::from_table).collect() }
    }
    /// A custom list.
    pub fn custom(phases: Vec<PipelinePhase>) -> Pipeline {
        Pipeline { phases }
    }
    /// Attaches `pass` to every slot named `name` (replacing what was there). Errors if no
    /// slot has that name.
    pub fn with_pass(mut self, name: &str, pass: Arc<dyn Pass>) -> Result<Pipeline, String> {
        let mut found = false;
        for p in self.phases.iter_mut().filter(|p| p.name == name) {
            p.pass = Some(pass.clone());
            found = true;
        }
        if found { Ok(self) } else { Err(format!("no phase `{name}` in the pipeline")) }
    }
    /// Runs the pipeline over `module`, in place.
    pub fn run(
        &self,
        module: &mut Module,
        opts: &PipelineOptions,
        hooks: &mut [&mut dyn PhaseHook],
    ) -> Result<RunReport, Box<PipelineError>> {
        let mut report = RunReport::default();
        for h in hooks.iter_mut() {
            if let HookAction::Stop(m) = h.start(module) {
                return Err(Box::new(PipelineError {
                    phase: "<start>".into(),
                    index: None,
                    kind: PipelineErrorKind::StoppedByHook(m),
                    report,
                }));
            }
        }
        for (position, ph) in self.phases.iter().enumerate() {
            if !ph.gate.runs_at(opts.opt_level) {
                continue;
            }
            let fail = |kind, report: &RunReport| {
                Box::new(PipelineError { phase: ph.name.clone(), index: ph.index, kind, report: report.clone() })
            };
            let t0 = Instant::now();
            let changed = match &ph.pass {
                Some(p) => p.run_module_with(module, opts).map_err(|e| fail(PipelineErrorKind::Pass(e), &report))?,
                None => 0,
            };
            let run = PhaseRun {
                position,
                index: ph.index,
                name: ph.name.clone(),
                ran: ph.pass.is_some(),
                changed,
                time: t0.elapsed(),
            };
            if opts.verify
                && ph.pass.is_some()
                && let Err(e) = verify_module(module)
            {
                return Err(fail(PipelineErrorKind::Verifier(e), &report));
            }
            if opts.dumps_after(&ph.name) {
                let text = module.to_string();
                if opts.dump_to_stderr {
                    eprintln!("# DUMPIR after {} (phase {})\n{text}", ph.name, ph.index.map_or(-1, |i| i as i64));
                }
                report.dumps.push((ph.name.clone(), text));
            }
            report.phases.push(run.clone());
            for h in hooks.iter_mut() {
                if let HookAction::Stop(m) = h.after_phase(&run, module) {
                    return Err(fail(PipelineErrorKind::StoppedByHook(m), &report));
                }
            }
        }
        Ok(report)
    }
}
