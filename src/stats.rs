//! `--compiler-stats` (and `--compiler-stats-file`): ptxas's `STAT:` report of the compiler's
//! own time and memory, with our measurements in ptxas 13.0.88's lines and fields.
//!
//! What ptxas prints, measured on the real binary (each section one `ptxas info` diagnostic,
//! in this order whatever the order of the items; `phase-wise` and `detailed` alone print
//! nothing, they refine `time` and `memory`):
//!
//! ```text
//! ptxas info    : STAT: CompileTime = 17.677999 ms                      (time)
//! ptxas info    : STAT: CompileTime = 25.146000 ms (100%)               (time,phase-wise)
//! Parse-time            : 9.948 ms (39.56%)
//! CompileUnitSetup-time : 0.682 ms (2.71%)
//! DAGgen-time           : 0.485 ms (1.93%)
//! OCG-time              : 7.373 ms (29.32%)
//! ELF-time              : 0.203 ms (0.81%)
//! DebugInfo-time        : 0.051 ms (0.20%)
//!                                                                       (an empty line)
//! ptxas info    : STAT: PeakMemoryUsage = 8631.753 KB                   (memory)
//! ptxas info    : STAT:                                                 (time,detailed)
//! Compile-unit with entry first
//!     Total Compile-Unit time        = 0.810 ms
//! Compile-unit with entry second
//!     Total Compile-Unit time        = 0.989 ms
//! ```
//!
//! (the `detailed` section lists the kernels in PTX order, each its own compile unit; its
//! `Total` lines start with a tab).
//!
//! With `--compiler-stats-file F` nothing is printed: `F` gets, appended, `<input> >>`, an
//! empty line, then each section without its `STAT: ` tag, each followed by a newline.
//!
//! Our figures ([`Times`], [`peak_memory_kb`]): `CompileTime` is the wall time of the whole
//! compilation (front end to cubin bytes); the stages are ours under ptxas's names: `Parse` the
//! PTX front end (parsing and checking), `CompileUnitSetup` the target and backend options,
//! `DAGgen` the lowering of PTX to Ori, `OCG` the phase pipeline through instruction selection,
//! register allocation, scheduling and emission, `ELF` the cubin writer, `DebugInfo` zero (we
//! write no debug information: `-g` and `-lineinfo` are refused); a kernel's `Total
//! Compile-Unit time` is the time `-v` prints for it ([`crate::backend::Compiled::kernel_times`]).
//! `PeakMemoryUsage` is the process's peak resident memory (`VmHWM` of `/proc/self/status`),
//! in KB.
//!
//! Not supported yet (refused by [`crate::cli::support`]): `memory,phase-wise` (per-stage
//! memory peaks), `detailed` with `memory` (per-unit memory peaks) and `detailed` with
//! `time,phase-wise` (per-unit stage times).
//!
//! Invariant: the text is a pure function of the options and the measurements given.

use std::time::Duration;

use crate::cli::{CompilerStat, Options};

/// The measured stages of one compilation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Times {
    /// The whole compilation.
    pub total: Duration,
    /// Front end: parsing and checking.
    pub parse: Duration,
    /// Target and backend options.
    pub setup: Duration,
    /// PTX to Ori.
    pub lowering: Duration,
    /// Phases, selection, allocation, scheduling, emission.
    pub ocg: Duration,
    /// The cubin writer.
    pub elf: Duration,
    /// Each kernel (compile unit) with its time, in PTX order.
    pub units: Vec<(String, Duration)>,
}

/// The process's peak resident memory in KB (`VmHWM`), where the system reports it.
pub fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether `options` ask for a combination this module cannot report yet (see the module doc).
pub fn unsupported(options: &Options) -> bool {
    let has = |s| options.compiler_stats.contains(&s);
    let (time, memory, phases, detailed) =
        (has(CompilerStat::Time), has(CompilerStat::Memory), has(CompilerStat::PhaseWise), has(CompilerStat::Detailed));
    (memory && (phases || detailed)) || (detailed && time && phases)
}

/// The report's sections without their `STAT: ` tag (a section may span lines), in ptxas's
/// order; empty when nothing is asked for. `peak_kb` is `None` when memory could not be read.
pub fn sections(options: &Options, t: &Times, peak_kb: Option<u64>) -> Vec<String> {
    let has = |s| options.compiler_stats.contains(&s);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut out = Vec::new();
    if has(CompilerStat::Time) {
        if has(CompilerStat::PhaseWise) {
            let total = ms(t.total);
            let mut s = format!("CompileTime = {total:.6} ms (100%)\n");
            let stages = [
                ("Parse", t.parse),
                ("CompileUnitSetup", t.setup),
                ("DAGgen", t.lowering),
                ("OCG", t.ocg),
                ("ELF", t.elf),
                ("DebugInfo", Duration::ZERO),
            ];
            for (name, d) in stages {
                let pct = if total > 0.0 { ms(d) / total * 100.0 } else { 0.0 };
                s.push_str(&format!("{:<22}: {:.3} ms ({pct:.2}%)\n", format!("{name}-time"), ms(d)));
            }
            out.push(s);
        } else {
            out.push(format!("CompileTime = {:.6} ms", ms(t.total)));
        }
    }
    if has(CompilerStat::Memory)
        && let Some(kb) = peak_kb
    {
        out.push(format!("PeakMemoryUsage = {:.3} KB", kb as f64));
    }
    if has(CompilerStat::Detailed) && has(CompilerStat::Time) {
        let mut s = String::new();
        for (name, d) in &t.units {
            s.push_str(&format!(
                "\nCompile-unit with entry {name}\n\tTotal Compile-Unit time        = {:.3} ms",
                ms(*d)
            ));
        }
        out.push(s);
    }
    out
}

/// What `--compiler-stats-file` appends for input `name`.
pub fn file_text(name: &str, sections: &[String]) -> String {
    let mut s = format!("{name} >>\n\n");
    for sec in sections {
        s.push_str(sec);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(stats: &str) -> Options {
        Options::from_args(&["--compiler-stats", stats]).expect("valid")
    }

    #[test]
    fn sections_have_ptxas_shape() {
        let ms = Duration::from_micros;
        let t = Times {
            total: ms(10_000),
            parse: ms(4_000),
            setup: ms(500),
            lowering: ms(1_000),
            ocg: ms(3_000),
            elf: ms(250),
            units: Vec::new(),
        };
        assert_eq!(sections(&opts("time"), &t, Some(1)), ["CompileTime = 10.000000 ms"]);
        assert_eq!(
            sections(&opts("memory,time"), &t, Some(8631)),
            ["CompileTime = 10.000000 ms", "PeakMemoryUsage = 8631.000 KB"]
        );
        let p = &sections(&opts("p,t"), &t, None)[0];
        assert!(p.starts_with("CompileTime = 10.000000 ms (100%)\nParse-time            : 4.000 ms (40.00%)\n"), "{p}");
        assert!(p.ends_with("DebugInfo-time        : 0.000 ms (0.00%)\n"), "{p}");
        assert!(sections(&opts("phase-wise,detailed"), &t, Some(1)).is_empty());
        assert!(unsupported(&opts("m,p")) && unsupported(&opts("d,m")) && unsupported(&opts("d,t,p")));
        assert!(!unsupported(&opts("d,p")) && !unsupported(&opts("d,t")) && !unsupported(&opts("t,p")));
        let units = Times { units: vec![("b".into(), ms(1_500)), ("a".into(), ms(250))], ..t.clone() };
        assert_eq!(
            sections(&opts("d,t"), &units, None),
            [
                "CompileTime = 10.000000 ms",
                "\nCompile-unit with entry b\n\tTotal Compile-Unit time        = 1.500 ms\n\
                 Compile-unit with entry a\n\tTotal Compile-Unit time        = 0.250 ms"
            ]
        );
        assert_eq!(file_text("k.ptx", &sections(&opts("t"), &t, None)), "k.ptx >>\n\nCompileTime = 10.000000 ms\n");
    }

    #[test]
    fn peak_memory_is_read() {
        if cfg!(target_os = "linux") {
            assert!(peak_memory_kb().is_some_and(|kb| kb > 0));
        }
    }
}
