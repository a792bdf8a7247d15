//! Translation validation of the phase pipeline on the lowered corpus: for every sm_90 corpus
//! kernel and every hand-written kernel that lowers, the Ori interpreter's outputs are equal
//! before and after every phase of the full 159-phase pipeline at -O0 and -O3, and the verifier
//! accepts every phase's output (issue 6's per-phase check, issue 7's translation validation).
//!
//! It also counts, per phase slot, the changes made on the corpus, and checks the rule of the
//! phase table: a slot marked implemented with a transforming pass changes something on some
//! corpus kernel. Run `cargo test -p interp --test validate_corpus -- --nocapture` for the
//! per-slot table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use interp::ExecConfig;
use interp::launch::LaunchSpec;
use interp::validate::validate_standard;
use ptxas_rs::lower::lower_source;
use ptxas_rs::opt::{PHASES, PassKind, Status};

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

#[test]
fn every_phase_preserves_results_on_the_lowered_corpus() {
    // The same limits as the lowering's corpus run (tests/lower_corpus.rs): deep recursion and
    // large local arrays need more than the default 1 KiB of local memory per thread.
    let exec = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let mut validated = 0;
    let mut skipped = Vec::new();
    let mut failures = Vec::new();
    // slot index -> (changes, kernels changed)
    let mut changes: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    let mut phase_runs = 0usize;
    for (ptx, spec_path) in kernels() {
        let name = ptx.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&ptx).unwrap();
        let Ok(module) = lower_source(&text) else {
            skipped.push(format!("{name}: does not lower"));
            continue;
        };
        let spec = LaunchSpec::from_path(&spec_path).unwrap();
        let mut ok = true;
        for level in [0u8, 3] {
            match validate_standard(&module, &spec.kernel, &spec, &exec, level) {
                Err(e) => {
                    skipped.push(format!("{name}: the interpreter fails on the input: {}", e.0));
                    ok = false;
                    break;
                }
                Ok(v) => {
                    if let Some(f) = &v.failure {
                        failures.push(format!(
                            "{name} -O{level}: phase {} ({:?}): {:?}\n{}",
                            f.phase, f.index, f.kind, f.ir_diff
                        ));
                        ok = false;
                        break;
                    }
                    for c in &v.checks {
                        phase_runs += c.executed as usize;
                        if let (Some(i), true) = (c.index, c.changed > 0) {
                            let e = changes.entry(i).or_default();
                            e.0 += c.changed;
                            e.1 += 1;
                        }
                    }
                }
            }
        }
        validated += ok as usize;
    }
    println!("validated phase by phase at -O0 and -O3: {validated} kernels ({phase_runs} phase executions compared)");
    for s in &skipped {
        println!("  skipped {s}");
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
    assert!(idle.is_empty(), "implemented transform slots that change nothing on the corpus: {idle:?}");
}
