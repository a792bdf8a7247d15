//! Emulator throughput: thread-instructions per second on NVIDIA's sm_90 cubins of corpus
//! kernels, with and without the hazard checker. Run: `cargo bench -p interp --bench emu`.
//!
//! Kernels: `ctrl_collatz`, `int_divrem_const` and `i64_arith`, then the corpus's largest by
//! thread-instructions per launch (`EMU_BENCH_TOP`, default 5; finding them compiles and runs
//! the whole sm_90 corpus once). Kernel names after `--bench` run only those (no corpus scan).
//! `EMU_BENCH_SECS` (default 1) is the measuring time of each round, and each figure is the
//! median of `EMU_BENCH_ROUNDS` rounds (default 3); `EMU_BENCH_HAZARDS=0`
//! (or `1`) measures only without (with) the hazard checker, e.g. under a profiler.
//!
//! Per kernel and hazard mode two rates: **exec**, the execution alone (the launch prepared
//! once by `Kernel::prepare_with_suffixes`: global memory, banks, the lowered program; each
//! run starts from a copy of that memory), and **run**, the whole `Kernel::run_with_suffixes`
//! as the tests call it (preparation included); and the preparation's own time per launch.
//! The "fast forms" figure is the share of warp-instructions the executor's pre-decoded fast
//! forms ran (the rest went through its general path); the last lines give the exec rate of
//! all kernels measured together (their thread-instructions over their CPU seconds).
//! Each rate is given per second of the thread's CPU time (`/proc/thread-self/schedstat`,
//! where there is one: other processes on the machine do not count) and per second of wall
//! time.

use std::path::Path;
use std::time::Instant;

use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;

#[path = "../tests/support/emu_corpus.rs"]
mod support;

/// The kernels always measured.
const FIXED: [&str; 3] = ["ctrl_collatz", "int_divrem_const", "i64_arith"];

/// Nanoseconds of CPU time of this thread, if the system says.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// A stopwatch of wall and CPU time.
struct Clock {
    wall: Instant,
    cpu: Option<u64>,
}

impl Clock {
    fn start() -> Clock {
        Clock { wall: Instant::now(), cpu: cpu_ns() }
    }
    fn wall_s(&self) -> f64 {
        self.wall.elapsed().as_secs_f64()
    }
    /// (CPU seconds, wall seconds); CPU falls back to wall.
    fn read(&self) -> (f64, f64) {
        let wall = self.wall_s();
        let cpu = match (self.cpu, cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 / 1e9,
            _ => wall,
        };
        (cpu, wall)
    }
}

/// Repeats `f` (which returns thread-instructions) for at least `secs` of wall time;
/// (thread-instructions, runs, CPU seconds, wall seconds).
fn measure(secs: f64, mut f: impl FnMut() -> u64) -> (u64, u32, f64, f64) {
    let c = Clock::start();
    let (mut n, mut reps) = (0u64, 0u32);
    while reps == 0 || c.wall_s() < secs {
        n += f();
        reps += 1;
    }
    let (cpu, wall) = c.read();
    (n, reps, cpu, wall)
}

/// [`measure`] repeated `EMU_BENCH_ROUNDS` times (default 3): the round with the median rate
/// per CPU second (on a shared machine single rounds of the same work differ by 10% and more).
fn measure_median(secs: f64, mut f: impl FnMut() -> u64) -> (u64, u32, f64, f64) {
    let rounds: usize = std::env::var("EMU_BENCH_ROUNDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3).max(1);
    let mut all: Vec<(u64, u32, f64, f64)> = (0..rounds).map(|_| measure(secs, &mut f)).collect();
    all.sort_by(|a, b| (a.0 as f64 / a.2).total_cmp(&(b.0 as f64 / b.2)));
    all[rounds / 2]
}

struct Case {
    name: String,
    spec: LaunchSpec,
    bytes: Vec<u8>,
    sfx: std::collections::BTreeMap<u32, String>,
}

fn case(t: &oracle::Tools, k: &str) -> Option<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda").join(k);
    let spec = LaunchSpec::from_path(&dir.join(format!("{k}.run.toml"))).ok()?;
    let ptx = dir.join(format!("{k}.sm_90.ptx"));
    let out = t.ptxas_run(oracle::PtxInput::File { path: &ptx, cwd: None }, &["-arch", "sm_90"]).ok()?;
    let bytes = out.cubin?;
    let sfx = support::nvdisasm_suffixes(t, &bytes, &spec.kernel);
    Some(Case { name: k.to_string(), spec, bytes, sfx })
}

fn main() {
    let Some(t) = oracle::tools_or_skip("bench emu") else { return };
    let secs: f64 = std::env::var("EMU_BENCH_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let named: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let mut names: Vec<String> = if named.is_empty() { FIXED.iter().map(|s| s.to_string()).collect() } else { named };
    if std::env::args().skip(1).all(|a| a.starts_with('-')) {
        let top: usize = std::env::var("EMU_BENCH_TOP").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
        let mut sizes = Vec::new();
        for (k, _, _) in support::corpus() {
            let Some(c) = case(t, &k) else { continue };
            let Ok(kernel) = Kernel::load(&c.bytes, &c.spec.kernel) else { continue };
            if let Ok(r) = kernel.run_with_suffixes(&c.spec, &EmuConfig::default(), &c.sfx) {
                sizes.push((r.thread_instrs, k));
            }
        }
        sizes.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        println!("largest corpus kernels (sm_90, thread-instructions per launch), {} run:", sizes.len());
        for (n, k) in sizes.iter().take(top) {
            println!("  {k:24} {n:>12}");
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
    }
    println!("M thread-instr/s per CPU second (per wall second); setup: preparing a launch");
    // Per hazard mode: (thread-instructions, CPU seconds) of the exec measurements, summed.
    let mut sums: std::collections::BTreeMap<bool, (u64, f64)> = std::collections::BTreeMap::new();
    for k in &names {
        let Some(c) = case(t, k) else {
            println!("{k}: no NVIDIA cubin or launch spec");
            continue;
        };
        let kernel = Kernel::load(&c.bytes, &c.spec.kernel).unwrap();
        let prepared = kernel.prepare_with_suffixes(&c.spec, &c.sfx).unwrap();
        let (_, preps, pcpu, _) = measure(secs / 4.0, || {
            kernel.prepare_with_suffixes(&c.spec, &c.sfx).unwrap();
            0
        });
        let first = prepared.run(&EmuConfig::default()).unwrap();
        let (per_launch, warp_steps) = (first.thread_instrs, first.outputs.warp_steps);
        let modes = match std::env::var("EMU_BENCH_HAZARDS").as_deref() {
            Ok("0") => vec![false],
            Ok("1") => vec![true],
            _ => vec![false, true],
        };
        for hazards in modes {
            let cfg = EmuConfig { hazards, ..EmuConfig::default() };
            let (n, reps, cpu, wall) = measure_median(secs, || prepared.run(&cfg).unwrap().thread_instrs);
            let (n2, _, cpu2, wall2) =
                measure_median(secs, || kernel.run_with_suffixes(&c.spec, &cfg, &c.sfx).unwrap().thread_instrs);
            let sum = sums.entry(hazards).or_default();
            sum.0 += n;
            sum.1 += cpu;
            let lanes = per_launch as f64 / warp_steps.max(1) as f64;
            println!(
                "{:20} hazards={hazards:5}: exec {:7.1} ({:7.1})  run {:7.1} ({:7.1})  [{per_launch} thread-instr/launch, \
                 {lanes:.1} lanes/warp-instr ({:.1} M warp-instr/s), fast forms {:.1}%, {reps} runs; setup {:.0} us]",
                c.name,
                n as f64 / cpu / 1e6,
                n as f64 / wall / 1e6,
                n2 as f64 / cpu2 / 1e6,
                n2 as f64 / wall2 / 1e6,
                n as f64 / cpu / 1e6 / lanes,
                100.0 * first.fast_steps as f64 / warp_steps.max(1) as f64,
                pcpu / f64::from(preps) * 1e6,
            );
        }
    }
    for (hazards, (n, cpu)) in sums {
        println!(
            "all {} kernels, hazards={hazards:5}: exec {:7.1} M thread-instr per CPU second (their thread-instructions \
             over their CPU time)",
            names.len(),
            n as f64 / cpu / 1e6
        );
    }
}
