//! Parse throughput of the PTX front end on the five largest corpus programs, against NVIDIA
//! ptxas's own `Parse` time (`--compiler-stats=time,phase-wise`) measured in the same run.
//!
//! `cargo bench --bench ptx_parse` (release). For each file it prints the median time and MB/s
//! of `ptx::parse` (the fast path), of the pest reference grammar alone (`parse_bytes_reference`,
//! what `parse` was before the fast path), ptxas's median `Parse` time, and the ratios; then the
//! median ratio over the files. Without the NVIDIA tools the ptxas columns are left out.
//! Env: `PTX_BENCH_REPS` (default 31) runs of ours, `PTX_BENCH_PTXAS_REPS` (default 5) of ptxas,
//! `PTX_BENCH_FILTER` (a path substring), `PTX_BENCH_NO_PEST` (skip the reference, for profiling).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median wall time of `f` in ms. The tree is dropped outside the timed region: ptxas's
/// `Parse` phase does not include freeing its IR either.
fn time_ms<T>(reps: usize, mut f: impl FnMut() -> T) -> f64 {
    if reps == 0 {
        return f64::NAN;
    }
    drop(f()); // warm-up
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                let out = std::hint::black_box(f());
                let ms = t.elapsed().as_secs_f64() * 1e3;
                drop(out);
                ms
            })
            .collect(),
    )
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let reps = if quick { 1 } else { env("PTX_BENCH_REPS", 31) };
    let ptxas_reps = if quick { 0 } else { env("PTX_BENCH_PTXAS_REPS", 5) };

    let mut files = common::corpus_ptx();
    files.sort_by_key(|c| std::cmp::Reverse(std::fs::metadata(&c.path).map_or(0, |m| m.len())));
    // One file per program (the per-arch variants of one kernel are near-identical).
    let mut seen = std::collections::HashSet::new();
    files.retain(|c| seen.insert(c.path.parent().map(|p| p.to_path_buf())));
    files.truncate(5);
    if let Ok(f) = std::env::var("PTX_BENCH_FILTER") {
        files.retain(|c| c.path.to_string_lossy().contains(&f));
    }
    let tools = if ptxas_reps > 0 { oracle::tools_or_skip("ptx_parse bench") } else { None };

    println!(
        "{:<44} {:>8} {:>9} {:>8} {:>9} {:>8} {:>10} {:>8} {:>8}",
        "file", "bytes", "ours ms", "MB/s", "pest ms", "MB/s", "ptxas ms", "ptxas/us", "ptxas/pest"
    );
    let (mut ratios, mut ratios_pest) = (Vec::new(), Vec::new());
    for c in &files {
        let src = std::fs::read(&c.path).unwrap();
        let text = std::str::from_utf8(&src).unwrap();
        let ours = time_ms(reps, || ptxas_rs::ptx::parse(text, "bench.ptx").unwrap());
        let pest_reps = if std::env::var_os("PTX_BENCH_NO_PEST").is_some() { 0 } else { reps.min(11) };
        let pest = time_ms(pest_reps, || ptxas_rs::ptx::parser::parse_bytes_reference(&src, "bench.ptx").unwrap());
        let mbps = |ms: f64| src.len() as f64 / 1e6 / (ms / 1e3);
        let name = c.path.file_name().unwrap().to_string_lossy();
        let mut line =
            format!("{name:<44} {:>8} {ours:>9.3} {:>8.1} {pest:>9.3} {:>8.1}", src.len(), mbps(ours), mbps(pest));
        if let Some(t) = tools {
            let runs: Vec<f64> = (0..ptxas_reps)
                .filter_map(|_| {
                    let out = t
                        .ptxas_run_fresh(
                            oracle::PtxInput::File { path: &c.path, cwd: None },
                            &["-arch", &c.arch, "--compiler-stats=time,phase-wise"],
                        )
                        .ok()?;
                    out.stats.as_ref().and_then(|s| s.stage("Parse"))
                })
                .collect();
            if !runs.is_empty() {
                let p = median(runs);
                ratios.push(p / ours);
                ratios_pest.push(p / pest);
                line += &format!(" {p:>10.3} {:>7.1}x {:>9.1}x", p / ours, p / pest);
            }
        }
        println!("{line}");
    }
    if !ratios.is_empty() {
        println!(
            "median ratio ptxas Parse / ours: {:.1}x   (pest reference alone: {:.1}x)",
            median(ratios),
            median(ratios_pest)
        );
    }
}
