//! The phase pipeline: ptxas's 159 phases by their exact names and order, a phase manager that
//! runs them by optimisation level with hooks after every phase, and the passes that already
//! work on PTX-stage Ori.
//!
//! | module | concept |
//! |---|---|
//! | [`table`] | the 159 phases as data: index, name, category, opt-level gate, status |
//! | [`manager`] | [`Pipeline`]: which phases run, in order; [`PhaseHook`]s; verifier, IR dump, timing |
//! | [`util`] | IR editing helpers the passes share (unlinking, def/use counts, constants) |
//! | [`check`] | OriCheckInitialProgram, OriSanitize: the verifier as a phase |
//! | [`convert_unsupported`] | ConvertUnsupportedOps: shared atomics without an `ATOMS` form as compare-and-swap loops |
//! | [`create_macro`] | OriCreateMacroInsts: floating-point contraction of `mul` + `add`/`sub` into `fma` |
//! | [`control_flow`] | AnalyzeControlFlow (CFG check), SetControlFlowOpLastInBB (block splitting) |
//! | [`merge_flow`] | MergeEquivalentConditionalFlow: tail-merging of equivalent blocks |
//! | [`live_dead`] | EarlyOriSimpleLiveDead / OriSimpleLiveDead, OriPerformLiveDead{First..Fourth} |
//! | [`branch_opt`] | OriBranchOpt: CFG simplification to a fixed point |
//! | [`general_optimize`] | the six GeneralOptimize bundles and OriCopyProp |
//! | [`uniform_imm`] | ReplaceUniformsWithImm: compile-time-constant special registers as immediates |
//!
//! # Invariants
//!
//! - The phase table is the single declaration of the pipeline (`src/opt/phases.csv` is the
//!   project's corrected table; a test checks the two agree name by name, index by index).
//! - A phase is [`Status::Implemented`] only when a [`Pass`] is attached, and a pass either
//!   transforms the IR (its [`PassKind::Transform`] run reports how many instructions/blocks it
//!   changed, and a test shows a nonzero count) or checks it ([`PassKind::Check`], a test shows
//!   it rejecting bad IR). Phases that do nothing yet are [`Status::NotYet`]; phases that do
//!   nothing in ptxas's default compute pipeline either (AdvancedPhase hooks, Update/Report
//!   phases in an IR whose analyses are derived) are [`Status::NoOp`]; graphics-only phases are
//!   [`Status::NotApplicable`].
//! - Every pass preserves the semantics the Ori interpreter gives the function (translation
//!   validation in `interp::validate` checks this phase by phase) and leaves IR the verifier
//!   accepts (the manager runs the verifier after every phase in debug builds and tests).
//! - Passes are per function and only rely on what they compute themselves (the CFG is derived
//!   from terminators, so no analysis can go stale).

pub mod branch_opt;
pub mod check;
pub mod control_flow;
pub mod convert_unsupported;
pub mod create_macro;
pub mod general_optimize;
pub mod live_dead;
pub mod manager;
pub mod merge_flow;
pub mod simplify;
pub mod table;
pub mod uniform_imm;
pub mod util;

use std::fmt;

use crate::ori::{Function, Module};

pub use manager::{
    HookAction, PhaseHook, PhaseRun, Pipeline, PipelineError, PipelineErrorKind, PipelineOptions, PipelinePhase,
    RunReport,
};
pub use table::{Category, OptGate, PHASES, PhaseInfo, Status, phase_by_name};

/// What a pass does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PassKind {
    /// Rewrites the IR; its run returns the number of changes.
    Transform,
    /// Checks the IR and fails on a violation; never changes it.
    Check,
}

/// Why a pass failed (a check found a violation, or a transform met IR it cannot handle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassError {
    /// The function, when the failure is inside one.
    pub func: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl PassError {
    /// A failure in function `f`.
    pub fn in_func(f: &Function, message: impl Into<String>) -> PassError {
        PassError { func: Some(f.name.clone()), message: message.into() }
    }
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.func {
            Some(n) => write!(f, "@{n}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for PassError {}

/// One unit of work of the pipeline. Implementations are stateless (configuration lives in
/// the value), so one value can serve several phase slots (the six GeneralOptimize bundles).
pub trait Pass: Send + Sync {
    /// Whether this pass transforms or checks.
    fn kind(&self) -> PassKind;
    /// Runs on one function; returns the number of changes (instructions rewritten, removed or
    /// inserted, blocks split, merged or removed). A check returns 0 or an error.
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError>;
    /// Runs on a module: by default, each function in turn.
    fn run_module(&self, m: &mut Module) -> Result<usize, PassError> {
        let mut n = 0;
        for f in &mut m.functions {
            n += self.run_function(f)?;
        }
        Ok(n)
    }
    /// Runs on a module under the options of a pipeline run (how the manager calls a pass):
    /// by default [`Pass::run_module`]; a pass that depends on an option (phase 9 on `--fmad`
    /// and the opt level) overrides it.
    fn run_module_with(&self, m: &mut Module, _opts: &PipelineOptions) -> Result<usize, PassError> {
        self.run_module(m)
    }
}
