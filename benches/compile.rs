//! Compiling the corpus: ptxas-rs against NVIDIA ptxas 13.0.88, measured in the same run.
//!
//! `cargo bench --bench compile` (release). For every CUDA corpus kernel with an sm_90 PTX that
//! ptxas-rs compiles end to end ([`ptxas_rs::backend::compile`]), it prints, at the chosen `-O`
//! level: the median compile wall time of ours (in process, parse included) and of ptxas (a
//! process per run, as a user runs it), the SASS instruction count of each cubin (the kernel's
//! instructions before ptxas's trailing `BRA`-to-self and `NOP` padding), the register count
//! each cubin records (EIATTR_REGCOUNT), and the ratios ours/ptxas; then the median of each
//! ratio. Kernels we cannot compile yet are counted and named. No goal is asserted.
//!
//! Env: `COMPILE_BENCH_O` (default 3), `COMPILE_BENCH_REPS` (default 11) runs of ours,
//! `COMPILE_BENCH_PTXAS_REPS` (default 5) of ptxas, `COMPILE_BENCH_FILTER` (a kernel-name
//! substring). `cargo test --benches` runs one quick pass without ptxas.

use std::path::{Path, PathBuf};
use std::time::Instant;

use ptxas_rs::backend;
use ptxas_rs::cubin::Cubin;

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// (kernel, sm_90 PTX) of every CUDA corpus kernel.
fn corpus() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/cuda");
    let mut v: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| {
            let dir = e.ok()?.path();
            let k = dir.file_name()?.to_string_lossy().into_owned();
            let ptx = dir.join(format!("{k}.sm_90.ptx"));
            ptx.exists().then_some((k, ptx))
        })
        .collect();
    v.sort();
    v
}

/// Instructions of `kernel` in a cubin, before the trailing self-branch and padding, and its
/// register count.
fn measure(cubin: &[u8], kernel: &str) -> Option<(usize, u32)> {
    let c = Cubin::parse(cubin).ok()?;
    let f = c.function(kernel)?;
    let tables = ptxas_rs::sass::tables_for("sm_90")?;
    // The tail is a `BRA` to itself (offset -16 from the next instruction) followed by NOPs.
    let mut n = f.words.len();
    while n > 0 {
        let Ok(i) = tables.decode(f.words[n - 1]) else { break };
        let text = tables.print(&i, 16 * (n as u64 - 1), None);
        if text.starts_with("NOP") {
            n -= 1;
            continue;
        }
        if text.starts_with("BRA") && text.contains(&format!("{:#x}", 16 * (n - 1))) {
            n -= 1;
        }
        break;
    }
    Some((n, f.regcount.unwrap_or(0)))
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let level = env("COMPILE_BENCH_O", 3) as u8;
    let reps = if quick { 1 } else { env("COMPILE_BENCH_REPS", 11) };
    let ptxas_reps = if quick { 0 } else { env("COMPILE_BENCH_PTXAS_REPS", 5) };
    let tools = if ptxas_reps > 0 { oracle::tools_or_skip("compile bench") } else { None };
    let filter = std::env::var("COMPILE_BENCH_FILTER").ok();
    let opts = backend::Options { opt_level: level, ..backend::Options::default() };

    println!(
        "{:<28} {:>9} {:>9} {:>7} {:>6} {:>6} {:>6} {:>5} {:>5} {:>6}",
        "kernel", "ours ms", "ptxas ms", "time", "insts", "nv", "ratio", "regs", "nv", "ratio"
    );
    let (mut t_ratios, mut i_ratios, mut r_ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut refused = Vec::new();
    for (k, ptx) in corpus() {
        if filter.as_ref().is_some_and(|f| !k.contains(f.as_str())) {
            continue;
        }
        let text = std::fs::read_to_string(&ptx).unwrap();
        let compile = || {
            let ast = ptxas_rs::ptx::parse(&text, "bench.ptx").map_err(|d| d.to_string())?;
            backend::compile(&ast, &opts).map_err(|e| e.to_string())
        };
        let ours = match compile() {
            Ok(c) => c,
            Err(e) => {
                refused.push(format!("{k}: {e}"));
                continue;
            }
        };
        let ours_ms = median(
            (0..reps)
                .map(|_| {
                    let t = Instant::now();
                    drop(std::hint::black_box(compile()));
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect(),
        );
        let Some((ours_n, ours_regs)) = measure(&ours.cubin, &k) else {
            refused.push(format!("{k}: our cubin does not read back"));
            continue;
        };
        let mut line = format!("{k:<28} {ours_ms:>9.3}");
        if let Some(t) = tools {
            let arg = format!("-O{level}");
            let mut nv = None;
            let runs: Vec<f64> = (0..ptxas_reps)
                .filter_map(|_| {
                    let start = Instant::now();
                    let out = t
                        .ptxas_run_fresh(oracle::PtxInput::File { path: &ptx, cwd: None }, &["-arch", "sm_90", &arg])
                        .ok()?;
                    let ms = start.elapsed().as_secs_f64() * 1e3;
                    nv = out.cubin;
                    Some(ms)
                })
                .collect();
            let nv_ms = median(runs);
            if let Some((nv_n, nv_regs)) = nv.as_deref().and_then(|c| measure(c, &k)) {
                let (tr, ir, rr) =
                    (ours_ms / nv_ms, ours_n as f64 / nv_n as f64, f64::from(ours_regs) / f64::from(nv_regs));
                t_ratios.push(tr);
                i_ratios.push(ir);
                r_ratios.push(rr);
                line += &format!(
                    " {nv_ms:>9.3} {tr:>7.3} {ours_n:>6} {nv_n:>6} {ir:>6.2} {ours_regs:>5} {nv_regs:>5} {rr:>6.2}"
                );
            }
        } else {
            line += &format!(" {:>9} {:>7} {ours_n:>6} {:>6} {:>6} {ours_regs:>5}", "-", "-", "-", "-");
        }
        println!("{line}");
    }
    println!(
        "median ratios ours/ptxas over {} kernels at -O{level}: compile time {:.3}, SASS instructions {:.2}, registers {:.2}",
        t_ratios.len(),
        median(t_ratios),
        median(i_ratios),
        median(r_ratios)
    );
    println!("not compiled by ptxas-rs yet: {}", refused.len());
    for r in &refused {
        println!("    {r}");
    }
}
