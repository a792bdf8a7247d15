//! Pathological inputs: ptxas-rs against NVIDIA ptxas 13.0.88 on the generated modules of
//! `ptxas_rs::fuzzing::pathological`, measured in the same run (issue 28's "Resource bounds").
//!
//! `cargo bench --bench pathological` (release). For every shape, at its issue size times
//! `PATHO_BENCH_SCALE`, it runs each compiler as a user does (one process, `-arch=sm_90 -o`),
//! under `/usr/bin/time` for wall time and peak RSS, and prints both with the ratios
//! ours/ptxas, and whether ours is within issue 28's bounds: at most max(1 s, 5x ptxas's time)
//! and max(256 MiB, 2x ptxas's peak RSS). A run past `PATHO_BENCH_TIMEOUT` seconds (default
//! 120) is killed and shown as `>T`; a failed run (a refused input, or one past the memory cap
//! `PATHO_BENCH_MEMORY_MIB`, default 4096: ptxas-rs's budget, and twice that as the address-space
//! limit of both) shows its time with `!`. No goal is asserted: timing belongs in a bench, not a
//! test (`tests/pathological.rs` checks acceptance at small sizes).
//!
//! Env: `PATHO_BENCH_SCALE` (default 1.0), `PATHO_BENCH_FILTER` (shape-name substrings,
//! comma-separated), `PATHO_BENCH_TIMEOUT`, `PATHO_BENCH_MEMORY_MIB`. On 2 shared cores other
//! work skews both columns alike: compare the ratios of one run. `cargo test --benches` runs
//! one quick pass in process at small sizes, without ptxas.

use std::path::Path;
use std::process::Command;

use ptxas_rs::fuzzing::pathological::Shape;

/// One measured run: wall seconds, peak RSS in KiB, and whether it succeeded in time.
struct Run {
    secs: f64,
    kib: u64,
    ok: bool,
    timed_out: bool,
}

/// Runs `exe -arch=sm_90 input -o out` under `/usr/bin/time` and `timeout`, with its address
/// space capped at twice `cap_mib` (`ulimit -v`) and ptxas-rs's own budget at `cap_mib`, so
/// that an input whose memory grows without bound cannot take the machine down.
fn measure(exe: &Path, input: &Path, out: &Path, timeout: u64, cap_mib: u64) -> Option<Run> {
    let o = Command::new("/usr/bin/time")
        .env("PTXAS_RS_MEMORY_LIMIT_MIB", cap_mib.to_string())
        .args(["-f", "PATHO_TIME %e %M"])
        .arg("timeout")
        .args(["-s", "KILL", &timeout.to_string()])
        .args(["sh", "-c", &format!("ulimit -v {}; exec \"$0\" \"$@\"", cap_mib * 2 * 1024)])
        .arg(exe)
        .arg("-arch=sm_90")
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&o.stderr);
    let line = stderr.lines().rev().find(|l| l.starts_with("PATHO_TIME "))?;
    let mut it = line.split_whitespace().skip(1);
    let secs: f64 = it.next()?.parse().ok()?;
    let kib: u64 = it.next()?.parse().ok()?;
    let timed_out = stderr.contains("Command terminated by signal 9");
    Some(Run { secs, kib, ok: o.status.success(), timed_out })
}

fn cell(r: &Run, timeout: u64) -> String {
    if r.timed_out {
        format!(">{timeout}")
    } else if !r.ok {
        format!("{:.2}!", r.secs)
    } else {
        format!("{:.2}", r.secs)
    }
}

fn quick() {
    let options = ptxas_rs::cli::Options::from_args(&["-arch", "sm_90"]).unwrap();
    for shape in Shape::ALL {
        let text = shape.generate(20);
        let ok = ptxas_rs::compile(&text, &options).is_ok();
        println!("{:<18} n=20 compiles: {ok}", shape.name());
    }
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return quick();
    }
    let scale: f64 = std::env::var("PATHO_BENCH_SCALE").ok().and_then(|v| v.parse().ok()).unwrap_or(1.0);
    let timeout: u64 = std::env::var("PATHO_BENCH_TIMEOUT").ok().and_then(|v| v.parse().ok()).unwrap_or(120);
    let cap: u64 = std::env::var("PATHO_BENCH_MEMORY_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(4096);
    let filter = std::env::var("PATHO_BENCH_FILTER").ok();
    if !Path::new("/usr/bin/time").exists() {
        eprintln!("SKIPPED: pathological bench: /usr/bin/time is needed for peak RSS");
        return;
    }
    let ours = Path::new(env!("CARGO_BIN_EXE_ptxas-rs"));
    let tools = oracle::tools_or_skip("pathological bench");
    let dir = std::env::temp_dir().join(format!("ptxas-rs-patho-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!(
        "{:<18} {:>9} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7}  bounds",
        "shape", "n", "ours s", "ptxas s", "time", "ours MiB", "nv MiB", "mem"
    );
    for shape in Shape::ALL {
        if filter.as_ref().is_some_and(|f| !f.split(',').any(|w| shape.name().contains(w))) {
            continue;
        }
        let n = ((shape.issue_size() as f64 * scale) as usize).max(1);
        let input = dir.join(format!("{}.ptx", shape.name()));
        std::fs::write(&input, shape.generate(n)).unwrap();
        let Some(o) = measure(ours, &input, &dir.join("ours.cubin"), timeout, cap) else {
            println!("{:<18} {n:>9} could not run ptxas-rs under /usr/bin/time", shape.name());
            continue;
        };
        let nv = tools.and_then(|t| measure(&t.ptxas(), &input, &dir.join("nv.cubin"), timeout, cap));
        let mib = |k: u64| k as f64 / 1024.0;
        let mut line = format!("{:<18} {n:>9} {:>9}", shape.name(), cell(&o, timeout));
        match &nv {
            Some(p) => {
                let (tr, mr) = (o.secs / p.secs.max(1e-3), o.kib as f64 / p.kib.max(1) as f64);
                let time_ok = o.ok && o.secs <= (5.0 * p.secs).max(1.0);
                let mem_ok = o.kib as f64 <= (2.0 * p.kib as f64).max(256.0 * 1024.0);
                // A killed run's peak RSS is not reported reliably: no memory verdict then.
                let mem_known = !o.timed_out && !p.timed_out;
                line += &format!(
                    " {:>9} {tr:>7.2} {:>9.1} {:>9.1} {mr:>7.2}  {}{}",
                    cell(p, timeout),
                    mib(o.kib),
                    mib(p.kib),
                    if time_ok { "time ok" } else { "TIME OVER" },
                    match (mem_known, mem_ok) {
                        (false, _) => ", mem ?",
                        (true, true) => ", mem ok",
                        (true, false) => ", MEM OVER",
                    },
                );
            }
            None => line += &format!(" {:>9} {:>7} {:>9.1}", "-", "-", mib(o.kib)),
        }
        println!("{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
