//! Parse throughput on the largest corpus files, and the ratio to ptxas's own `Parse` time
//! (`--compiler-stats=time,phase-wise`). Run in a release build:
//! `cargo test --release --test ptx_throughput -- --ignored --nocapture`.

mod common;

use std::time::Instant;

#[test]
#[ignore = "benchmark: run in release with --ignored --nocapture"]
fn ptx_parse_throughput() {
    let mut files = common::corpus_ptx();
    files.sort_by_key(|c| std::cmp::Reverse(std::fs::metadata(&c.path).map_or(0, |m| m.len())));
    files.dedup_by_key(|c| std::fs::read(&c.path).unwrap());
    files.truncate(5);
    let tools = oracle::tools_or_skip("parse_throughput");
    for c in &files {
        let src = std::fs::read_to_string(&c.path).unwrap();
        let reps = 20;
        let t = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(ptxas_rs::ptx::parse(&src, "bench.ptx").unwrap());
        }
        let ours_ms = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
        let mbps = src.len() as f64 / 1e6 / (ours_ms / 1e3);
        let mut line = format!(
            "{:<48} {:>7} B  ours {:>7.3} ms ({:>6.1} MB/s)",
            c.path.file_name().unwrap().to_string_lossy(),
            src.len(),
            ours_ms,
            mbps
        );
        if let Some(t) = tools {
            let out = t
                .ptxas_run(
                    oracle::PtxInput::File { path: &c.path, cwd: None },
                    &["-arch", &c.arch, "--compiler-stats=time,phase-wise"],
                )
                .unwrap();
            if let Some(parse_ms) = out.stats.as_ref().and_then(|s| s.stage("Parse")) {
                line += &format!("  ptxas Parse {parse_ms:>7.3} ms  ratio {:>5.1}x", parse_ms / ours_ms);
            }
        }
        eprintln!("{line}");
    }
}
