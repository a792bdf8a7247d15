//! Register allocation on the lowered corpus (backend stage 4): every sm_90 corpus kernel and
//! every hand-written kernel that lowers and runs, at the pipeline's -O0 and -O3, is allocated
//! function by function; the independent checker (`regalloc::check`) accepts every function,
//! and the Ori interpreter's outputs on the launch spec's inputs are byte-for-byte equal
//! before and after allocation. The same holds under a tiny budget (`max_regs` 8; 16 too with
//! `PTXAS_RS_REGALLOC_BUDGET16=1`), where the allocator spills to local memory (or refuses, when the values live
//! across a call alone exceed the budget: PTX-stage values live across calls are not spilled).
//!
//! `cargo test -p interp --test regalloc_corpus -- --nocapture` prints the per-kernel
//! register counts, frame sizes and spill bytes.

use std::path::{Path, PathBuf};

#[path = "../../tests/common/par.rs"]
mod par;

use interp::ExecConfig;
use interp::launch::LaunchSpec;
use interp::ori_exec::run_ori_with;
use ptxas_rs::lower::lower_source;
use ptxas_rs::opt::{Pipeline, PipelineOptions};
use ptxas_rs::ori::Module;
use ptxas_rs::regalloc::{self, Options, Report};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// (ptx, spec) of every sm_90 CUDA kernel and every hand-written kernel.
fn kernels() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for (sub, suffix) in [("cuda", ".sm_90.ptx"), ("ptx", ".ptx")] {
        let mut dirs: Vec<PathBuf> =
            std::fs::read_dir(corpus().join(sub)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
        dirs.sort();
        for d in dirs {
            let stem = d.file_name().unwrap().to_string_lossy().into_owned();
            let ptx = d.join(format!("{stem}{suffix}"));
            let spec = d.join(format!("{stem}.run.toml"));
            if ptx.exists() && spec.exists() {
                out.push((ptx, spec));
            }
        }
    }
    out
}

/// Allocates every function of `m`, checking each; returns the kernel's report.
fn allocate(m: &mut Module, kernel: &str, opts: &Options) -> Result<Report, String> {
    let mut kr = None;
    for f in m.functions.iter_mut() {
        let before = f.clone();
        let r = regalloc::allocate_function(f, opts).map_err(|e| format!("@{}: allocation failed: {e}", f.name))?;
        regalloc::check(&before, f).map_err(|e| format!("@{}: the checker rejects the allocation: {e}", f.name))?;
        if f.name == kernel {
            kr = Some(r);
        }
    }
    kr.ok_or_else(|| "no kernel".to_string())
}

/// Kernels allocated and validated at both levels with the full budget, measured when this
/// test was written; a regression fails.
const MIN_ALLOCATED: usize = 112;

/// What one kernel gave (see the test); merged over the corpus in the corpus's order.
#[derive(Default)]
struct Tally {
    ok_full: usize,
    total: usize,
    failures: Vec<String>,
    skipped: Vec<String>,
    spill_ok: [usize; 2],
    spilled: [usize; 2],
    spill_fail: Vec<String>,
    lines: Vec<String>,
}

impl Tally {
    fn merge(&mut self, o: Tally) {
        self.ok_full += o.ok_full;
        self.total += o.total;
        self.failures.extend(o.failures);
        self.skipped.extend(o.skipped);
        for i in 0..2 {
            self.spill_ok[i] += o.spill_ok[i];
            self.spilled[i] += o.spilled[i];
        }
        self.spill_fail.extend(o.spill_fail);
        self.lines.extend(o.lines);
    }
}

/// Allocates one kernel at -O0 and -O3 under each budget and compares the interpreter's outputs.
fn check_kernel(ptx: &Path, spec_path: &Path, exec: &ExecConfig) -> Tally {
    let mut o = Tally::default();
    let name = ptx.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(&ptx).unwrap();
    let Ok(module) = lower_source(&text) else {
        o.skipped.push(format!("{name}: does not lower"));
        return o;
    };
    let spec = LaunchSpec::from_path(&spec_path).unwrap();
    o.total += 1;
    let mut all_ok = true;
    let mut line = format!("{name:40}");
    for level in [0u8, 3] {
        let mut m = module.clone();
        let popts = PipelineOptions { opt_level: level, verify: true, ..PipelineOptions::default() };
        if let Err(e) = Pipeline::standard().run(&mut m, &popts, &mut []) {
            o.skipped.push(format!("{name} -O{level}: the pipeline fails: {e:?}"));
            all_ok = false;
            break;
        }
        let reference = match run_ori_with(&m, &spec.kernel, &spec, exec) {
            Ok(o) => o.buffers,
            Err(e) => {
                o.skipped.push(format!("{name} -O{level}: the interpreter fails on the input: {e}"));
                all_ok = false;
                break;
            }
        };
        // Budget 16 as well: `PTXAS_RS_REGALLOC_BUDGET16=1` (kept out by default to keep the
        // test under a minute).
        let budgets: &[u32] =
            if std::env::var_os("PTXAS_RS_REGALLOC_BUDGET16").is_some() { &[255, 16, 8] } else { &[255, 8] };
        for &budget in budgets {
            let bi = match budget {
                255 => 0,
                16 => 1,
                _ => 2,
            };
            let opts = Options { max_regs: budget, local_top: exec.local_bytes, ..Options::default() };
            let mut a = m.clone();
            let r = match allocate(&mut a, &spec.kernel, &opts) {
                Ok(r) => r,
                Err(e) => {
                    if bi == 0 {
                        o.failures.push(format!("{name} -O{level}: {e}"));
                        all_ok = false;
                    } else {
                        o.spill_fail.push(format!("{name} -O{level} max_regs {budget}: {e}"));
                    }
                    continue;
                }
            };
            match run_ori_with(&a, &spec.kernel, &spec, exec) {
                Ok(out) if out.buffers == reference => {
                    if bi > 0 {
                        o.spill_ok[bi - 1] += 1;
                        o.spilled[bi - 1] += (r.spilled > 0) as usize;
                    }
                    line += &format!(
                        " | O{level} b{budget}: {}R {}P fr{} st{} ld{}",
                        r.regs, r.preds, r.frame_bytes, r.spill_store_bytes, r.spill_load_bytes
                    );
                }
                Ok(_) => {
                    o.failures.push(format!("{name} -O{level} max_regs {budget}: outputs differ after allocation"));
                    all_ok = false;
                }
                Err(e) => {
                    o.failures.push(format!("{name} -O{level} max_regs {budget}: the interpreter fails: {e}"));
                    all_ok = false;
                }
            }
        }
    }
    o.lines.push(line);
    o.ok_full += all_ok as usize;
    o
}

#[test]
fn allocation_preserves_results_on_the_lowered_corpus() {
    let exec = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let mut all = Tally::default();
    for o in par::par_map(&kernels(), |(ptx, spec)| check_kernel(ptx, spec, &exec)) {
        all.merge(o);
    }
    let Tally { ok_full, total, failures, skipped, spill_ok, spilled, spill_fail, lines } = all;
    for line in &lines {
        println!("{line}");
    }
    println!("allocated, checked and validated at -O0 and -O3: {ok_full}/{total} kernels");
    println!(
        "budget 16 (if asked): {} kernel-levels validated ({} spill); budget 8: {} kernel-levels validated ({} spill)",
        spill_ok[0], spilled[0], spill_ok[1], spilled[1]
    );
    for s in &skipped {
        println!("  skipped {s}");
    }
    for s in &spill_fail {
        println!("  tiny budget refused: {s}");
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
    assert!(ok_full >= MIN_ALLOCATED, "only {ok_full} kernels allocated (expected at least {MIN_ALLOCATED})");
}
