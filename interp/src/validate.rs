//! Translation validation: run the Ori interpreter before and after every phase of a pipeline
//! and stop at the first phase whose results differ.
//!
//! [`validate`] takes any [`Pipeline`] (the full 159-phase table, a subset, custom or
//! deliberately broken passes, the bridge phases of lowering), an Ori module with the kernel
//! to run, and a launch spec. It runs the kernel once on the input module (the reference),
//! then runs the pipeline with a [`PhaseHook`] that, after every phase the opt level admits:
//!
//! - skips execution when the module's text is unchanged (the same program gives the same
//!   results; counted as checked without execution);
//! - otherwise runs the interpreter with the same spec and [`ExecConfig`] and compares every
//!   output buffer byte for byte with the results before the phase (phases must preserve
//!   results exactly: the interpreter is deterministic and the spec's tolerances are for
//!   comparing different executors, not for one program before and after a rewrite);
//! - on a difference (or an execution error the phase introduced, or a pipeline error: a
//!   failing check or the verifier rejecting the phase's output), stops and reports the phase
//!   by name and index with the first differing output and a unified diff of the module's
//!   Ori text before and after the phase.
//!
//! **Contraction.** Phase 9 (OriCreateMacroInsts) replaces a `mul` and an `add` by one `fma`
//! flagged `.contract` ([`ptxas_rs::ori::Flag::Contract`]), rounded once where the pair
//! rounded twice, as PTX allows; the results change in the last bit. So the comparison is
//! contraction-aware, for any phase: when a phase leaves more contracted instructions than it
//! found, its output is run with contraction undone ([`ExecConfig::unfuse_contracted`]:
//! every contracted `fma` computed as the `mul` and `add` it stands for) and compared bit-exactly
//! with its input run the same way, which proves that it only fused pairs PTX lets the
//! compiler fuse (an `add.rn`, a mismatched `.ftz` or a dropped negation would differ); its
//! output run with contraction on (fused, as FFMA computes it and as the reference of later
//! phases) is not compared. A pair with a rounding modifier (`add.rn`) computes the same
//! values unfused, so what PTX forbids there is checked by count: a contracting phase must
//! leave every explicitly rounded float `mul`/`add`/`sub` it found
//! ([`FailureKind::RoundedContracted`]). Every other phase is compared with contraction on,
//! both sides computing the fused operations.
//!
//! [`backend_pipeline`] gives the backend's phases after the optimizer as passes for it:
//! instruction selection as the backend runs it ([`SelectPass`]: local frames, the register
//! call ABI) and register allocation with the device functions' callee saves
//! ([`AllocatePass`]), so a kernel with calls is followed to allocated SASS-stage Ori.
//!
//! Invariant: [`Validation::failure`] is `None` iff every admitted phase preserved the
//! results and the pipeline completed.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use ptxas_rs::opt::{
    HookAction, Pass, PassError, PassKind, PhaseHook, PhaseRun, Pipeline, PipelineErrorKind, PipelineOptions,
    PipelinePhase, RunReport,
};
use ptxas_rs::ori::{Function, Module};

use crate::launch::LaunchSpec;
use crate::ori_exec::{ExecConfig, ExecError, run_ori_with};

/// Options of a validation run.
#[derive(Clone, Debug, Default)]
pub struct ValidateOptions {
    /// How the pipeline runs (opt level, verifier, dumps).
    pub pipeline: PipelineOptions,
    /// How the interpreter runs.
    pub exec: ExecConfig,
}

/// One admitted phase, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseCheck {
    /// Phase name.
    pub name: String,
    /// Table index.
    pub index: Option<usize>,
    /// Changes the pass reported.
    pub changed: usize,
    /// Whether the interpreter ran (false: the IR text did not change).
    pub executed: bool,
}

/// What differed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// An output buffer differs.
    OutputsDiffer {
        /// The buffer.
        buffer: String,
        /// First differing byte.
        offset: usize,
        /// The 4-byte-aligned word there before the phase (little endian, as far as present).
        before: u32,
        /// The word after the phase.
        after: u32,
        /// How many bytes differ in that buffer.
        differing_bytes: usize,
    },
    /// The phase contracts, and its output with contraction undone differs from its input
    /// (run the same way): it fused something PTX does not let it fuse.
    ContractionDiffers {
        /// The buffer.
        buffer: String,
        /// First differing byte.
        offset: usize,
        /// The 4-byte-aligned word there before the phase.
        before: u32,
        /// The word after the phase, contraction undone.
        after: u32,
    },
    /// The phase contracts, and leaves fewer explicitly rounded float `mul`/`add`/`sub`
    /// (`.rn`, `.rz`, ...) than it found: it contracted a pair PTX forbids contracting (with
    /// contraction undone such a pair computes the same values, so only this count shows it).
    RoundedContracted {
        /// Explicitly rounded `mul`/`add`/`sub` before the phase.
        before: usize,
        /// After it.
        after: usize,
    },
    /// The interpreter failed after the phase (it succeeded before).
    ExecFailed(ExecError),
    /// The pipeline stopped in this phase (a check failed or the verifier rejected it).
    Pipeline(String),
}

/// The first phase that broke the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Phase name.
    pub phase: String,
    /// Table index.
    pub index: Option<usize>,
    /// What went wrong.
    pub kind: FailureKind,
    /// Unified diff of the module's Ori text before and after the phase.
    pub ir_diff: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "phase {i} {}: ", self.phase)?,
            None => write!(f, "phase {}: ", self.phase)?,
        }
        match &self.kind {
            FailureKind::OutputsDiffer { buffer, offset, before, after, differing_bytes } => write!(
                f,
                "results differ: buffer `{buffer}` byte {offset} (word {before:#010x} before, {after:#010x} after; {differing_bytes} bytes differ)"
            )?,
            FailureKind::ContractionDiffers { buffer, offset, before, after } => write!(
                f,
                "results with contraction undone differ: buffer `{buffer}` byte {offset} (word {before:#010x} \
                 before, {after:#010x} after): the phase fused what PTX does not allow"
            )?,
            FailureKind::RoundedContracted { before, after } => write!(
                f,
                "the phase contracts and leaves {after} explicitly rounded float mul/add/sub of {before}: \
                 it contracted a pair with a rounding modifier, which PTX forbids"
            )?,
            FailureKind::ExecFailed(e) => write!(f, "the interpreter fails after the phase: {e}")?,
            FailureKind::Pipeline(m) => write!(f, "{m}")?,
        }
        write!(f, "\nIR diff:\n{}", self.ir_diff)
    }
}

/// The result of a validation run.
#[derive(Clone, Debug)]
pub struct Validation {
    /// The module after the last phase run (after the failing phase, on failure).
    pub module: Module,
    /// The reference outputs (input module).
    pub reference: BTreeMap<String, Vec<u8>>,
    /// Every admitted phase up to the end or the failure, in order.
    pub checks: Vec<PhaseCheck>,
    /// The pipeline's report (timings, dumps), when it completed.
    pub report: Option<RunReport>,
    /// The first failing phase.
    pub failure: Option<Failure>,
}

impl Validation {
    /// Phases whose output was executed and compared.
    pub fn executed(&self) -> usize {
        self.checks.iter().filter(|c| c.executed).count()
    }
    /// Total changes reported by passes.
    pub fn changed(&self) -> usize {
        self.checks.iter().map(|c| c.changed).sum()
    }
}

/// Validation could not start: the input module does not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceFailed(pub ExecError);

impl fmt::Display for ReferenceFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the input module does not run: {}", self.0)
    }
}

impl std::error::Error for ReferenceFailed {}

/// A unified diff of two module texts.
pub fn ir_diff(before: &str, after: &str, phase: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("before {phase}"), &format!("after {phase}"))
        .to_string()
}

fn first_difference(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> Option<FailureKind> {
    for (name, a) in before {
        let b = after.get(name).map(|v| &v[..]).unwrap_or(&[]);
        if a[..] == *b {
            continue;
        }
        let offset = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        let word = |v: &[u8]| {
            let s = offset & !3;
            let mut w = [0u8; 4];
            for (k, x) in v.iter().skip(s).take(4).enumerate() {
                w[k] = *x;
            }
            u32::from_le_bytes(w)
        };
        let differing_bytes = a.iter().zip(b).filter(|(x, y)| x != y).count() + a.len().abs_diff(b.len());
        return Some(FailureKind::OutputsDiffer {
            buffer: name.clone(),
            offset,
            before: word(a),
            after: word(b),
            differing_bytes,
        });
    }
    after.keys().find(|k| !before.contains_key(*k)).map(|k| FailureKind::OutputsDiffer {
        buffer: k.clone(),
        offset: 0,
        before: 0,
        after: 0,
        differing_bytes: after[k].len(),
    })
}

/// Contracted instructions ([`ptxas_rs::ori::Flag::Contract`]) in the module.
fn contracted(m: &Module) -> usize {
    m.functions
        .iter()
        .map(|f| f.inst_order().filter(|&(_, i)| f.insts[i].mods.has(ptxas_rs::ori::Flag::Contract)).count())
        .sum()
}

/// Float `mul`/`add`/`sub` with an explicit rounding modifier in the module (which no
/// contraction may consume).
fn rounded(m: &Module) -> usize {
    use ptxas_rs::ori::Opcode;
    m.functions
        .iter()
        .map(|f| {
            f.inst_order()
                .filter(|&(_, i)| {
                    let d = &f.insts[i];
                    matches!(d.opcode, Opcode::Mul | Opcode::Add | Opcode::Sub)
                        && d.mods.rnd.is_some()
                        && d.mods.ty.is_some_and(|t| t.is_float())
                })
                .count()
        })
        .sum()
}

struct Hook<'a> {
    kernel: &'a str,
    spec: &'a LaunchSpec,
    exec: &'a ExecConfig,
    prev_text: String,
    /// The outputs before the phase, contraction on.
    prev_outputs: BTreeMap<String, Vec<u8>>,
    /// The module before the phase, kept while it has contracted instructions (to run it with
    /// contraction undone).
    prev_module: Option<Module>,
    /// Contracted instructions before the phase.
    prev_contracted: usize,
    /// Explicitly rounded float `mul`/`add`/`sub` before the phase.
    prev_rounded: usize,
    checks: Vec<PhaseCheck>,
    failure: Option<Failure>,
}

impl Hook<'_> {
    fn run(&self, module: &Module, unfused: bool) -> Result<BTreeMap<String, Vec<u8>>, ExecError> {
        let exec = ExecConfig { unfuse_contracted: unfused, ..self.exec.clone() };
        run_ori_with(module, self.kernel, self.spec, &exec).map(|o| o.buffers)
    }

    /// Checks the phase's output `module` (see the module doc); the outputs with contraction
    /// on, or why the phase broke the program.
    fn check(&self, module: &Module, contracted: usize) -> Result<BTreeMap<String, Vec<u8>>, FailureKind> {
        if contracted > self.prev_contracted {
            let after = rounded(module);
            if after < self.prev_rounded {
                return Err(FailureKind::RoundedContracted { before: self.prev_rounded, after });
            }
            let before = match &self.prev_module {
                Some(m) => self.run(m, true).map_err(FailureKind::ExecFailed)?,
                None => self.prev_outputs.clone(),
            };
            let after = self.run(module, true).map_err(FailureKind::ExecFailed)?;
            if let Some(FailureKind::OutputsDiffer { buffer, offset, before, after, .. }) =
                first_difference(&before, &after)
            {
                return Err(FailureKind::ContractionDiffers { buffer, offset, before, after });
            }
            return self.run(module, false).map_err(FailureKind::ExecFailed);
        }
        let out = self.run(module, false).map_err(FailureKind::ExecFailed)?;
        match first_difference(&self.prev_outputs, &out) {
            None => Ok(out),
            Some(k) => Err(k),
        }
    }
}

impl PhaseHook for Hook<'_> {
    fn after_phase(&mut self, run: &PhaseRun, module: &Module) -> HookAction {
        let text = module.to_string();
        let mut check = PhaseCheck { name: run.name.clone(), index: run.index, changed: run.changed, executed: false };
        if text == self.prev_text {
            self.checks.push(check);
            return HookAction::Continue;
        }
        check.executed = true;
        self.checks.push(check);
        let contracted = contracted(module);
        let kind = match self.check(module, contracted) {
            Ok(out) => {
                self.prev_text = text;
                self.prev_outputs = out;
                self.prev_contracted = contracted;
                self.prev_rounded = rounded(module);
                self.prev_module = (contracted > 0).then(|| module.clone());
                return HookAction::Continue;
            }
            Err(k) => k,
        };
        let failure = Failure {
            phase: run.name.clone(),
            index: run.index,
            kind,
            ir_diff: ir_diff(&self.prev_text, &text, &run.name),
        };
        let msg = failure.to_string();
        self.failure = Some(failure);
        HookAction::Stop(msg)
    }
}

/// Validates `pipeline` on function `kernel` of `module` over `spec` (see the module doc).
pub fn validate(
    module: &Module,
    kernel: &str,
    spec: &LaunchSpec,
    pipeline: &Pipeline,
    opts: &ValidateOptions,
) -> Result<Validation, ReferenceFailed> {
    let reference = run_ori_with(module, kernel, spec, &opts.exec).map_err(ReferenceFailed)?.buffers;
    let mut work = module.clone();
    let mut hook = Hook {
        kernel,
        spec,
        exec: &opts.exec,
        prev_text: module.to_string(),
        prev_outputs: reference.clone(),
        prev_module: (contracted(module) > 0).then(|| module.clone()),
        prev_contracted: contracted(module),
        prev_rounded: rounded(module),
        checks: Vec::new(),
        failure: None,
    };
    let result = pipeline.run(&mut work, &opts.pipeline, &mut [&mut hook]);
    let (report, failure) = match result {
        Ok(r) => (Some(r), None),
        Err(e) => match hook.failure.take() {
            Some(f) => (None, Some(f)),
            None => {
                let msg = match &e.kind {
                    PipelineErrorKind::Pass(p) => format!("the phase failed: {p}"),
                    PipelineErrorKind::Verifier(v) => format!("the verifier rejects the phase's output:\n{v}"),
                    PipelineErrorKind::StoppedByHook(m) => m.clone(),
                };
                let diff = ir_diff(&hook.prev_text, &work.to_string(), &e.phase);
                (
                    None,
                    Some(Failure {
                        phase: e.phase.clone(),
                        index: e.index,
                        kind: FailureKind::Pipeline(msg),
                        ir_diff: diff,
                    }),
                )
            }
        },
    };
    Ok(Validation { module: work, reference, checks: hook.checks, report, failure })
}

/// [`validate`] with the full 159-phase pipeline at `opt_level`, the verifier on, and
/// `exec` for the interpreter: the one call for a lowered corpus kernel.
pub fn validate_standard(
    module: &Module,
    kernel: &str,
    spec: &LaunchSpec,
    exec: &ExecConfig,
    opt_level: u8,
) -> Result<Validation, ReferenceFailed> {
    let opts = ValidateOptions {
        pipeline: PipelineOptions { opt_level, verify: true, ..PipelineOptions::default() },
        exec: exec.clone(),
    };
    validate(module, kernel, spec, &Pipeline::standard(), &opts)
}

/// Which parameter word groups of each `.func` are `.param`-space local addresses (the
/// backend's rule, re-exported for the passes below).
pub use ptxas_rs::backend::param_addresses;

/// Instruction selection as the backend runs it (for `target`, sm_90 by default), as one
/// pipeline pass: [`ptxas_rs::lower::isel::select_module_abi`] with the lowering's local frames (in module
/// order) and the `.param`-address flags of [`param_addresses`]; calls take the register ABI
/// (`CALL`/`RET`). The change count is the number of selected instructions.
#[derive(Clone, Debug, Default)]
pub struct SelectPass {
    /// The target selected for.
    pub target: ptxas_rs::target::Target,
    /// Each function's local frame in bytes, in module order.
    pub frames: Vec<u64>,
    /// [`param_addresses`] of the source.
    pub addr: HashMap<String, Vec<bool>>,
}

impl Pass for SelectPass {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        Err(PassError::in_func(f, "instruction selection runs on whole modules"))
    }
    fn run_module(&self, m: &mut Module) -> Result<usize, PassError> {
        ptxas_rs::lower::isel::select_module_abi(m, &self.target, &self.frames, &self.addr)
            .map_err(|e| PassError { func: e.function.clone(), message: e.message })?;
        Ok(m.functions.iter().map(|f| f.inst_order().count()).sum())
    }
}

/// Register allocation of a selected module as the backend runs it, as one pipeline pass:
/// every function allocated with the default budget, checked by [`ptxas_rs::regalloc::check`],
/// its tuples split; every device function then gets its callee saves and final frame
/// ([`ptxas_rs::regalloc::callee_save::finish`], its own parameter and return words from
/// `abi`). The change count is the number of instructions after allocation.
#[derive(Clone, Debug, Default)]
pub struct AllocatePass {
    /// Each function's local frame in bytes (isel's F), in module order.
    pub frames: Vec<u64>,
    /// The device functions' signatures ([`ptxas_rs::lower::isel::call::module_abi`] of the
    /// module before selection).
    pub abi: HashMap<String, ptxas_rs::lower::isel::call::FuncAbi>,
}

impl Pass for AllocatePass {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        Err(PassError::in_func(f, "allocation with callee saves runs on whole modules"))
    }
    fn run_module(&self, m: &mut Module) -> Result<usize, PassError> {
        use ptxas_rs::backend::{allocate, allocate_device_function};
        let opts = ptxas_rs::regalloc::Options::default();
        let mut n = 0;
        for (i, f) in m.functions.iter_mut().enumerate() {
            let done = if f.kind == ptxas_rs::ori::FuncKind::Func {
                let abi = self.abi.get(&f.name).cloned().unwrap_or_default();
                let locals = self.frames.get(i).copied().unwrap_or(0);
                allocate_device_function(f, locals, &abi, &opts).map(|_| ())
            } else {
                allocate(f, &opts).map(|_| ())
            };
            done.map_err(|e| PassError::in_func(f, e.to_string()))?;
            n += f.inst_order().count();
        }
        Ok(n)
    }
}

/// The backend's phases after the optimizer, for [`validate`]: [`SelectPass`] then
/// [`AllocatePass`], named `InstructionSelection` and `RegisterAllocation`. `module` is the
/// PTX-stage module they will run on (for the device functions' signatures), `frames` its
/// functions' local frames, `addr` [`param_addresses`] of its source.
pub fn backend_pipeline(module: &Module, frames: &[u64], addr: &HashMap<String, Vec<bool>>) -> Pipeline {
    let abi = ptxas_rs::lower::isel::call::module_abi(module, addr);
    let select = SelectPass { frames: frames.to_vec(), addr: addr.clone(), ..SelectPass::default() };
    let allocate = AllocatePass { frames: frames.to_vec(), abi };
    Pipeline::custom(vec![
        PipelinePhase::custom("InstructionSelection", std::sync::Arc::new(select)),
        PipelinePhase::custom("RegisterAllocation", std::sync::Arc::new(allocate)),
    ])
}
