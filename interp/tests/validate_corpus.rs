//! Translation validation of the phase pipeline on the lowered corpus: for every sm_90 corpus
//! kernel and every hand-written kernel that lowers, the Ori interpreter's outputs are equal
//! before and after every phase of the full 159-phase pipeline at -O0 and -O3, and the verifier
//! accepts every phase's output (issue 6's per-phase check, issue 7's translation validation).
//! The optimized module is then followed through the backend's instruction selection and
//! register allocation (`interp::validate::backend_pipeline`: calls with the register ABI,
//! callee saves), each compared the same way; the only stops allowed there are a selection
//! that refuses a form not selected yet and approximate units equal within the spec's
//! tolerance.
//!
//! It also counts, per phase slot, the changes made on the corpus, and checks the rule of the
//! phase table: a slot marked implemented with a transforming pass changes something on some
//! corpus kernel. Run `cargo test -p interp --test validate_corpus -- --nocapture` for the
//! per-slot table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "../../tests/common/par.rs"]
mod par;

use interp::ExecConfig;
use interp::launch::LaunchSpec;
use interp::launch::compare::compare;
use interp::validate::{
    FailureKind, ValidateOptions, Validation, backend_pipeline, param_addresses, validate, validate_standard,
};
use ptxas_rs::lower::lower_module_framed;
use ptxas_rs::opt::{PHASES, PassKind, PipelineOptions, Status};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// (ptx, spec) of every sm_90 CUDA kernel (sm_90a where a kernel has only that: tc_wgmma) and
/// every hand-written kernel.
fn kernels() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for (sub, suffix) in [("cuda", ".sm_90.ptx"), ("cuda", ".sm_90a.ptx"), ("ptx", ".ptx")] {
        let mut dirs: Vec<PathBuf> =
            std::fs::read_dir(corpus().join(sub)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
        dirs.sort();
        for d in dirs {
            let stem = d.file_name().unwrap().to_string_lossy().into_owned();
            let ptx = d.join(format!("{stem}{suffix}"));
            let spec = d.join(format!("{stem}.run.toml"));
            let has_sm90 = d.join(format!("{stem}.sm_90.ptx")).exists();
            if ptx.exists() && spec.exists() && !(suffix == ".sm_90a.ptx" && has_sm90) {
                out.push((ptx, spec));
            }
        }
    }
    out
}

/// Kernels validated phase by phase at both levels, measured when the harness met the lowering
/// (lowered and runnable kernels of sm_90 + hand-written); a regression fails.
const MIN_VALIDATED: usize = 128;

/// Kernel-levels (kernel, -O0 or -O3) validated further through the backend's instruction
/// selection and register allocation (`interp::validate::backend_pipeline`), and those of them
/// with ABI calls (`CALL`), measured when the interpreter learnt the call ABI; a regression
/// fails.
const MIN_BACKEND: usize = 250;
const MIN_BACKEND_CALLS: usize = 30;

/// Whether the outputs after the failing phase of `b` equal the reference within `spec`'s
/// tolerance.
fn within(b: &Validation, spec: &LaunchSpec, exec: &ExecConfig) -> bool {
    let Ok(after) = interp::run_ori_with(&b.module, &spec.kernel, spec, exec) else { return false };
    spec.outputs().all(|buf| {
        let r = b.reference.get(buf.name()).map_or(&[][..], |v| &v[..]);
        compare(buf, r, after.get(buf.name()).unwrap_or(&[])).is_ok()
    })
}

/// What one kernel gave (see the test); merged over the corpus in the corpus's order.
#[derive(Default)]
struct Tally {
    validated: usize,
    skipped: Vec<String>,
    failures: Vec<String>,
    /// slot index -> (changes, kernels changed)
    changes: BTreeMap<usize, (usize, usize)>,
    phase_runs: usize,
    backend_ok: usize,
    backend_calls: usize,
    backend_runs: usize,
    backend_fail: Vec<String>,
    backend_stopped: Vec<String>,
}

impl Tally {
    fn merge(&mut self, o: Tally) {
        self.validated += o.validated;
        self.skipped.extend(o.skipped);
        self.failures.extend(o.failures);
        for (i, (n, k)) in o.changes {
            let e = self.changes.entry(i).or_default();
            e.0 += n;
            e.1 += k;
        }
        self.phase_runs += o.phase_runs;
        self.backend_ok += o.backend_ok;
        self.backend_calls += o.backend_calls;
        self.backend_runs += o.backend_runs;
        self.backend_fail.extend(o.backend_fail);
        self.backend_stopped.extend(o.backend_stopped);
    }
}

/// Validates one kernel phase by phase at -O0 and -O3, then through the backend's selection and
/// allocation.
fn check_kernel(ptx: &Path, spec_path: &Path, exec: &ExecConfig) -> Tally {
    let mut o = Tally::default();
    let name = ptx.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(&ptx).unwrap();
    let lowered = ptxas_rs::ptx::parse(&text, &name).ok().and_then(|ast| {
        let addr = param_addresses(&ast);
        lower_module_framed(&ast).ok().map(|(m, frames)| (m, frames, addr))
    });
    let Some((module, frames, addr)) = lowered else {
        o.skipped.push(format!("{name}: does not lower"));
        return o;
    };
    let spec = LaunchSpec::from_path(&spec_path).unwrap();
    let mut ok = true;
    for level in [0u8, 3] {
        match validate_standard(&module, &spec.kernel, &spec, exec, level) {
            Err(e) => {
                o.skipped.push(format!("{name}: the interpreter fails on the input: {}", e.0));
                ok = false;
                break;
            }
            Ok(v) => {
                if let Some(f) = &v.failure {
                    o.failures.push(format!(
                        "{name} -O{level}: phase {} ({:?}): {:?}\n{}",
                        f.phase, f.index, f.kind, f.ir_diff
                    ));
                    ok = false;
                    break;
                }
                for c in &v.checks {
                    o.phase_runs += c.executed as usize;
                    if let (Some(i), true) = (c.index, c.changed > 0) {
                        let e = o.changes.entry(i).or_default();
                        e.0 += c.changed;
                        e.1 += 1;
                    }
                }
                // Then the backend's selection and allocation (calls with the register
                // ABI), on the optimized module.
                let opts = ValidateOptions {
                    pipeline: PipelineOptions { opt_level: level, verify: true, ..PipelineOptions::default() },
                    exec: exec.clone(),
                };
                let backend = backend_pipeline(&v.module, &frames, &addr);
                match validate(&v.module, &spec.kernel, &spec, &backend, &opts) {
                    Ok(b) if b.failure.is_none() => {
                        o.backend_ok += 1;
                        o.backend_runs += b.checks.iter().filter(|c| c.executed).count();
                        let calls = b
                            .module
                            .functions
                            .iter()
                            .any(|f| f.inst_order().any(|(_, i)| f.insts[i].opcode == ptxas_rs::ori::Opcode::CALL));
                        o.backend_calls += usize::from(calls);
                    }
                    Ok(b) => {
                        let f = b.failure.as_ref().unwrap();
                        let at_selection = f.phase == "InstructionSelection";
                        let line = format!("{name} -O{level}: phase {}: {:?}", f.phase, f.kind);
                        match &f.kind {
                            // Not selected yet: the selection refuses, cleanly.
                            FailureKind::Pipeline(m) if at_selection && m.contains("not selected yet") => {
                                o.backend_stopped.push(line)
                            }
                            // Approximate units (MUFU-based division, special functions):
                            // equal within the spec's tolerance, as tests/isel_corpus.rs
                            // accepts them.
                            FailureKind::OutputsDiffer { .. } if at_selection && within(&b, &spec, exec) => {
                                o.backend_stopped.push(format!("{line} (within the spec tolerance)"))
                            }
                            _ => {
                                let first = f.ir_diff.lines().take(30).collect::<Vec<_>>().join("\n");
                                o.backend_fail.push(format!("{line}\n{first}"));
                            }
                        }
                    }
                    Err(e) => o.backend_fail.push(format!("{name} -O{level}: the reference fails: {}", e.0)),
                }
            }
        }
    }
    o.validated += ok as usize;
    o
}

#[test]
fn every_phase_preserves_results_on_the_lowered_corpus() {
    // The same limits as the lowering's corpus run (tests/lower_corpus.rs): deep recursion and
    // large local arrays need more than the default 1 KiB of local memory per thread.
    let exec = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let mut all = Tally::default();
    for o in par::par_map(&kernels(), |(ptx, spec)| check_kernel(ptx, spec, &exec)) {
        all.merge(o);
    }
    let Tally {
        validated,
        skipped,
        failures,
        changes,
        phase_runs,
        backend_ok,
        backend_calls,
        backend_runs,
        backend_fail,
        backend_stopped,
    } = all;
    println!("validated phase by phase at -O0 and -O3: {validated} kernels ({phase_runs} phase executions compared)");
    for s in &skipped {
        println!("  skipped {s}");
    }
    println!(
        "then through instruction selection and register allocation: {backend_ok} kernel-levels ({backend_calls} with ABI calls; {backend_runs} phase executions compared), {} failing, {} stopped",
        backend_fail.len(),
        backend_stopped.len()
    );
    for f in &backend_stopped {
        println!("  stopped {f}");
    }
    for f in &backend_fail {
        println!("  BACKEND FAIL {f}");
    }
    println!("changes on the corpus per implemented transform slot (changes, kernel-levels changed):");
    let mut idle = Vec::new();
    for p in PHASES.iter() {
        if let Status::Implemented(pass) = p.status {
            if pass.kind() != PassKind::Transform {
                continue;
            }
            let (n, k) = changes.get(&p.index).copied().unwrap_or_default();
            println!("  {:3} {:32} {n:6} {k:4}", p.index, p.name);
            if n == 0 {
                idle.push(format!("{} {}", p.index, p.name));
            }
        }
    }
    assert!(failures.is_empty(), "{} kernel(s) fail translation validation:\n{}", failures.len(), failures.join("\n"));
    assert!(validated >= MIN_VALIDATED, "only {validated} kernels validated (expected at least {MIN_VALIDATED})");
    assert!(
        backend_fail.is_empty(),
        "{} kernel-level(s) fail translation validation in selection or allocation:\n{}",
        backend_fail.len(),
        backend_fail.join("\n")
    );
    assert!(
        backend_ok >= MIN_BACKEND && backend_calls >= MIN_BACKEND_CALLS,
        "only {backend_ok} kernel-levels through selection and allocation ({backend_calls} with calls; expected at \
         least {MIN_BACKEND} and {MIN_BACKEND_CALLS})"
    );
    assert!(idle.is_empty(), "implemented transform slots that change nothing on the corpus: {idle:?}");
}
