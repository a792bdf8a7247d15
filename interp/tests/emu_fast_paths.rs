//! The emulator's fast forms against its general executor: every corpus kernel with a launch
//! spec, in NVIDIA's cubins (`-O3`) for sm_90, sm_80 and sm_75 (the hand-written PTX for sm_90
//! only) and in our sm_90 `-O3` cubin,
//! runs twice without the hazard checker (where runs of fast forms execute in one call) and,
//! for NVIDIA's sm_90 code, twice with it (one instruction at a time): once with
//! [`EmuConfig::fast_paths`] and once with every instruction through the general executor. The
//! two runs must agree on everything they report: the output bytes, the warp-instructions, the
//! thread-instructions, the opcodes issued, or the same error at the same instruction and
//! thread.
//!
//! The check can fail: a fast form that computes anything differently from the general
//! executor's arm (a flipped modifier, a wrong extension of a sub-word load, a fault taken as a
//! success, a branch that does not split the warp as the general executor does) changes the
//! outputs or the instruction counts of a kernel that executes it, and the fast forms must
//! actually run: the test requires them to execute most of the corpus's warp-instructions.
//!
//! The same comparison covers faults: NVIDIA's sm_90 code of each kernel runs again with every
//! buffer a third of its length and the dynamic shared memory halved, and both executors must
//! stop with the same error (the same fault, instruction and thread) or finish alike; a fast
//! load or store declines any access that would fault, so the general executor reports it.
//!
//! `cargo test --release -p interp --test emu_fast_paths -- --nocapture` prints the totals.

// A disagreement is reported once; the error's size does not matter.
#![allow(clippy::result_large_err)]

#[path = "../../tests/common/par.rs"]
mod par;
#[path = "support/emu_corpus.rs"]
mod support;

use interp::emu::{EmuConfig, EmuError, EmuRun, Kernel};
use interp::launch::LaunchSpec;

/// One kernel's two runs; `Err` describes a disagreement.
/// One kernel's two runs: `Ok` with (fast steps, all steps) when both finish and agree,
/// `Err(Ok(error))` when both stop with the same error, `Err(Err(what))` when they disagree.
fn agree(
    k: &str,
    kernel: &Kernel,
    spec: &LaunchSpec,
    sfx: &std::collections::BTreeMap<u32, String>,
    hazards: bool,
) -> Result<(u64, u64), Result<EmuError, String>> {
    let fast = EmuConfig { hazards, ..EmuConfig::default() };
    let slow = EmuConfig { fast_paths: false, ..fast.clone() };
    let a: Result<EmuRun, EmuError> = kernel.run_with_suffixes(spec, &fast, sfx);
    let b = kernel.run_with_suffixes(spec, &slow, sfx);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            if b.fast_steps != 0 {
                return Err(Err(format!("{k}: {} fast steps with the fast forms off", b.fast_steps)));
            }
            if a.outputs != b.outputs || a.thread_instrs != b.thread_instrs || a.executed != b.executed {
                let diff: Vec<&String> = a
                    .outputs
                    .buffers
                    .keys()
                    .filter(|n| a.outputs.buffers.get(*n) != b.outputs.buffers.get(*n))
                    .collect();
                return Err(Err(format!(
                    "{k} (hazards {hazards}): fast forms give {} warp-instructions, {} thread-instructions, buffers \
                     {diff:?} differ; the general executor {} and {}",
                    a.outputs.warp_steps, a.thread_instrs, b.outputs.warp_steps, b.thread_instrs
                )));
            }
            Ok((a.fast_steps, a.outputs.warp_steps))
        }
        (Err(a), Err(b)) if a == b => Err(Ok(a)),
        (a, b) => Err(Err(format!(
            "{k} (hazards {hazards}): fast forms: {}; general executor: {}",
            a.map(|_| "ok".to_string()).unwrap_or_else(|e| e.to_string()),
            b.map(|_| "ok".to_string()).unwrap_or_else(|e| e.to_string())
        ))),
    }
}

/// What one corpus kernel's cubins gave: disagreements, kernels faulting alike with small
/// buffers, lines to print, and the fast / total warp-instructions and cubins run.
#[derive(Default)]
struct Outcome {
    bad: Vec<String>,
    faults: Vec<String>,
    notes: Vec<String>,
    fast: u64,
    total: u64,
    cubins: usize,
}

fn check_kernel(t: &oracle::Tools, k: &str, dir: &std::path::Path, hand: bool) -> Outcome {
    let mut o = Outcome::default();
    let spec = LaunchSpec::from_path(&dir.join(format!("{k}.run.toml"))).unwrap();
    let mut cubins: Vec<(String, Vec<u8>, bool)> = Vec::new();
    // The hand-written PTX is compiled for sm_90 only (its `.target` may be above the others).
    let archs: &[&str] = if hand { &["sm_90"] } else { &["sm_90", "sm_80", "sm_75"] };
    for arch in archs {
        let ptx = if hand { dir.join(format!("{k}.ptx")) } else { dir.join(format!("{k}.{arch}.ptx")) };
        if ptx.exists() {
            let out = t.ptxas_run(oracle::PtxInput::File { path: &ptx, cwd: None }, &["-arch", arch]).unwrap();
            match out.cubin {
                Some(c) => cubins.push((format!("nvidia {arch}"), c, *arch == "sm_90")),
                None => o.notes.push(format!("{k}: NVIDIA ptxas -arch {arch} fails: {}", out.stderr.trim())),
            }
        }
    }
    let ptx = if hand { dir.join(format!("{k}.ptx")) } else { dir.join(format!("{k}.sm_90.ptx")) };
    if let Ok(text) = std::fs::read_to_string(&ptx)
        && let Ok(ast) = ptxas_rs::ptx::parse(&text, "in.ptx")
    {
        let opts = ptxas_rs::backend::Options { opt_level: 3, ..ptxas_rs::backend::Options::default() };
        if let Ok(c) = ptxas_rs::backend::compile(&ast, &opts) {
            cubins.push(("ours sm_90".into(), c.cubin, false));
        }
    }
    for (what, bytes, both) in cubins {
        let Ok(kernel) = Kernel::load(&bytes, &spec.kernel) else { continue };
        let sfx = support::nvdisasm_suffixes(t, &bytes, &spec.kernel);
        o.cubins += 1;
        for hazards in [false, true].into_iter().filter(|h| !h || both) {
            match agree(&format!("{k} ({what})"), &kernel, &spec, &sfx, hazards) {
                Ok((f, n)) => {
                    o.fast += f;
                    o.total += n;
                }
                // Alike (NVIDIA's sm_80 cg_tiled_reduce stops at a partial-warp barrier:
                // differential_corpus explains it).
                Err(Ok(e)) => o.notes.push(format!("{k} ({what}): both executors stop: {e}")),
                Err(Err(e)) => o.bad.push(e),
            }
        }
        if what == "nvidia sm_90" {
            // Faults: every buffer a third of its length, the dynamic shared memory halved.
            let text = std::fs::read_to_string(dir.join(format!("{k}.run.toml"))).unwrap();
            let small = shrink(&text);
            let Ok(mut small) = LaunchSpec::from_toml_str(&small) else { continue };
            small.shared_bytes /= 2;
            match agree(&format!("{k} ({what}, small buffers)"), &kernel, &small, &sfx, false) {
                Ok(_) => {}
                Err(Ok(e)) => o.faults.push(format!("{k}: {e}")),
                Err(Err(e)) => o.bad.push(e),
            }
        }
    }
    o
}

#[test]
fn fast_forms_agree_with_the_general_executor_on_the_corpus() {
    let Some(t) = oracle::tools_or_skip("fast_forms_agree_with_the_general_executor_on_the_corpus") else { return };
    let mut bad = Vec::new();
    let (mut fast, mut total, mut kernels) = (0u64, 0u64, 0usize);
    let mut faults = Vec::new();
    let dirs = support::spec_dirs();
    for o in par::par_map(&dirs, |(k, dir, hand)| check_kernel(t, k, dir, *hand)) {
        for n in &o.notes {
            println!("{n}");
        }
        bad.extend(o.bad);
        faults.extend(o.faults);
        fast += o.fast;
        total += o.total;
        kernels += o.cubins;
    }
    println!("{} kernels fault with small buffers, alike in both executors:", faults.len());
    for f in &faults {
        println!("  {f}");
    }
    println!(
        "{kernels} cubins: the fast forms executed {fast} of {total} warp-instructions ({:.1}%)",
        100.0 * fast as f64 / total.max(1) as f64
    );
    assert!(bad.is_empty(), "{} disagreement(s):\n{}", bad.len(), bad.join("\n"));
    assert!(kernels >= 300, "only {kernels} cubins ran");
    assert!(faults.len() >= 40, "only {} kernels fault with small buffers", faults.len());
    assert!(fast * 10 >= total * 7, "the fast forms executed only {fast} of {total} warp-instructions");
}

/// The spec text with every buffer's `len = N` a third of it (at least 1).
fn shrink(text: &str) -> String {
    text.lines()
        .map(|l| match l.trim().strip_prefix("len = ").and_then(|n| n.trim().parse::<usize>().ok()) {
            Some(n) => format!("len = {}", (n / 3).max(1)),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
