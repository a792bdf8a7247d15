//! ptxas's diagnostic lines, parsed.
//!
//! ptxas writes every message to stderr as one of
//! ```text
//! ptxas <file>, line <N>; <severity>: <message>     (located)
//! ptxas <severity>: <message>                       (unlocated)
//! ```
//! where `<severity>` is padded to eight characters (`info    `, `warning `, `error   `,
//! `fatal   `). Lines that are neither (the indented `-v` continuation lines, stats tables) are
//! not diagnostics and are skipped by [`parse`].

use std::fmt;

/// A diagnostic's severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// `info`: -v output, register-limit notes.
    Info,
    /// `warning`.
    Warning,
    /// `error`: compilation fails but more errors may follow.
    Error,
    /// `fatal`: compilation stops.
    Fatal,
}

impl Severity {
    /// The word as ptxas prints it, unpadded.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Fatal => "fatal",
        }
    }
    fn from_word(w: &str) -> Option<Self> {
        Some(match w {
            "info" => Severity::Info,
            "warning" => Severity::Warning,
            "error" => Severity::Error,
            "fatal" => Severity::Fatal,
            _ => return None,
        })
    }
}

/// One diagnostic line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file name as ptxas printed it, for located diagnostics.
    pub file: Option<String>,
    /// The 1-based line, for located diagnostics.
    pub line: Option<u32>,
    /// The severity.
    pub severity: Severity,
    /// The message text after `: `.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    /// Formats the diagnostic exactly as ptxas prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = format!("{:<8}", self.severity.word());
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "ptxas {file}, line {line}; {sev}: {}", self.message),
            _ => write!(f, "ptxas {sev}: {}", self.message),
        }
    }
}

/// Parses one line; `None` if it is not a diagnostic.
pub fn parse_line(line: &str) -> Option<Diagnostic> {
    let rest = line.strip_prefix("ptxas ")?;
    // Unlocated: "<sev padded to 8>: <msg>".
    if let Some(d) = severity_and_message(rest) {
        return Some(Diagnostic { file: None, line: None, severity: d.0, message: d.1 });
    }
    // Located: "<file>, line <N>; <sev>: <msg>". The file name may itself contain ", line ",
    // so take the first split point whose remainder parses.
    let mut search = 0;
    while let Some(pos) = rest[search..].find(", line ") {
        let at = search + pos;
        let after = &rest[at + ", line ".len()..];
        if let Some(semi) = after.find("; ")
            && let Ok(n) = after[..semi].parse::<u32>()
            && let Some((severity, message)) = severity_and_message(&after[semi + 2..])
        {
            return Some(Diagnostic { file: Some(rest[..at].to_string()), line: Some(n), severity, message });
        }
        search = at + 1;
    }
    None
}

fn severity_and_message(s: &str) -> Option<(Severity, String)> {
    if s.len() < 10 || !s.is_char_boundary(8) || &s[8..10] != ": " {
        return None;
    }
    let severity = Severity::from_word(s[..8].trim_end())?;
    Some((severity, s[10..].to_string()))
}

/// All diagnostics in `stderr`, in order.
pub fn parse(stderr: &str) -> Vec<Diagnostic> {
    stderr.lines().filter_map(parse_line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn located_and_unlocated() {
        let text = "ptxas k.ptx, line 9; error   : Arguments mismatch for instruction 'add'\n\
                    ptxas fatal   : Ptx assembly aborted due to errors\n    0 bytes stack frame\n";
        let d = parse(text);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].file.as_deref(), Some("k.ptx"));
        assert_eq!(d[0].line, Some(9));
        assert_eq!(d[0].severity, Severity::Error);
        assert_eq!(d[0].message, "Arguments mismatch for instruction 'add'");
        assert_eq!(d[1].file, None);
        assert_eq!(d[1].severity, Severity::Fatal);
        for (line, diag) in text.lines().zip(&d) {
            assert_eq!(diag.to_string(), line, "printing must reproduce the line");
        }
    }

    #[test]
    fn odd_file_names_and_non_diagnostics() {
        let d = parse_line("ptxas dir, line 3/a, line 7.ptx, line 12; warning : x; y").unwrap();
        assert_eq!(d.file.as_deref(), Some("dir, line 3/a, line 7.ptx"));
        assert_eq!(d.line, Some(12));
        assert_eq!(d.message, "x; y");
        assert_eq!(parse_line("Parse-time            : 6.497 ms (48.34%)"), None);
        assert_eq!(parse_line("ptxas"), None);
        assert_eq!(parse_line("ptxas bogus   : x"), None);
        assert_eq!(parse_line("ptxas é"), None);
    }
}
