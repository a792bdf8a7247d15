//! `--compiler-stats=time,phase-wise` output, parsed.
//!
//! ptxas prints `ptxas info    : STAT: CompileTime = 12.213000 ms (100%)` and then unprefixed
//! lines `Parse-time            : 6.497 ms (48.34%)` for each stage (Parse, CompileUnitSetup,
//! DAGgen, OCG, ELF, DebugInfo), all on stderr.

/// Stage timings in milliseconds, in the order ptxas printed them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompilerStats {
    /// `STAT: CompileTime`, if printed.
    pub compile_time_ms: Option<f64>,
    /// `(stage, milliseconds)` for every `<Stage>-time : <ms> ms` line.
    pub stages: Vec<(String, f64)>,
}

impl CompilerStats {
    /// The time of one stage (`"Parse"`, `"OCG"`, ...).
    pub fn stage(&self, name: &str) -> Option<f64> {
        self.stages.iter().find(|(n, _)| n == name).map(|&(_, t)| t)
    }
}

/// Parses the stats lines out of ptxas's stderr; `None` when there are none.
pub fn parse(stderr: &str) -> Option<CompilerStats> {
    let mut stats = CompilerStats::default();
    for line in stderr.lines() {
        if let Some(rest) = line.split_once("STAT: CompileTime = ").map(|(_, r)| r) {
            stats.compile_time_ms = rest.split_whitespace().next().and_then(|v| v.parse().ok());
        } else if let Some((name, rest)) = line.split_once("-time") {
            let value = rest.trim_start().strip_prefix(':').map(str::trim_start);
            if let Some(ms) = value.and_then(|v| v.split_whitespace().next()).and_then(|v| v.parse().ok())
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric())
            {
                stats.stages.push((name.to_string(), ms));
            }
        }
    }
    (stats.compile_time_ms.is_some() || !stats.stages.is_empty()).then_some(stats)
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_phase_wise_times() {
        let s = "ptxas info    : STAT: CompileTime = 9.332000 ms (100%)\n\
                 Parse-time            : 5.597 ms (59.98%)\n\
                 CompileUnitSetup-time : 0.492 ms (5.27%)\n\
                 OCG-time              : 1.855 ms (19.88%)\n";
        let st = super::parse(s).unwrap();
        assert_eq!(st.compile_time_ms, Some(9.332));
        assert_eq!(st.stage("Parse"), Some(5.597));
        assert_eq!(st.stage("OCG"), Some(1.855));
        assert_eq!(st.stages.len(), 3);
        assert!(super::parse("ptxas info    : 0 bytes gmem\n").is_none());
    }
}
