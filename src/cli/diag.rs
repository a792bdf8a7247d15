//! ptxas's diagnostic line format, shared by the driver and the front end.
//!
//! Every message ptxas prints on stderr has one of two shapes:
//!
//! ```text
//! ptxas <sev>: <message>                     (unlocated)
//! ptxas <file>, line <N>; <sev>: <message>   (located)
//! ```
//!
//! where `<sev>` is the severity tag padded to 8 characters (`info    `, `warning `, `error   `,
//! `fatal   `). [`Diagnostic`]'s `Display` produces exactly that line, without the trailing newline.
//! Invariant: formatting never fails and never allocates beyond the line itself.

use std::fmt;

/// How serious a diagnostic is; ptxas's four user-visible severities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// `ptxas info    : ...` (statistics, `-v` output, notes).
    Info,
    /// `ptxas warning : ...`; suppressed by `-w`, promoted to an error by `-Werror`.
    Warning,
    /// `ptxas error   : ...`; compilation continues to collect more errors but fails.
    Error,
    /// `ptxas fatal   : ...`; the run stops (or, for some checks, stops after the current phase).
    Fatal,
}

impl Severity {
    /// The tag as ptxas prints it, padded to 8 characters.
    pub const fn tag(self) -> &'static str {
        match self {
            Severity::Info => "info    ",
            Severity::Warning => "warning ",
            Severity::Error => "error   ",
            Severity::Fatal => "fatal   ",
        }
    }

    /// Whether this severity makes the run fail (exit status 255).
    pub const fn is_error(self) -> bool {
        matches!(self, Severity::Error | Severity::Fatal)
    }
}

/// A source position for a located diagnostic: ptxas reports a file name and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file name as ptxas prints it (`application ptx input` for `--input-as-string`).
    pub file: String,
    /// 1-based line number.
    pub line: u32,
}

/// One diagnostic line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Severity tag.
    pub severity: Severity,
    /// Where, if the message is located.
    pub location: Option<Location>,
    /// The message text, without the `ptxas <sev>: ` prefix.
    pub message: String,
}

impl Diagnostic {
    /// An unlocated diagnostic.
    pub fn new(severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic { severity, location: None, message: message.into() }
    }

    /// An unlocated `info` diagnostic.
    pub fn info(message: impl Into<String>) -> Self {
        Self::new(Severity::Info, message)
    }

    /// An unlocated `warning` diagnostic.
    pub fn warning(message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, message)
    }

    /// An unlocated `error` diagnostic.
    pub fn error(message: impl Into<String>) -> Self {
        Self::new(Severity::Error, message)
    }

    /// An unlocated `fatal` diagnostic.
    pub fn fatal(message: impl Into<String>) -> Self {
        Self::new(Severity::Fatal, message)
    }

    /// The same diagnostic, located at `file`, `line`.
    pub fn at(mut self, file: impl Into<String>, line: u32) -> Self {
        self.location = Some(Location { file: file.into(), line });
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "ptxas {}, line {}; {}: {}", loc.file, loc.line, self.severity.tag(), self.message),
            None => write!(f, "ptxas {}: {}", self.severity.tag(), self.message),
        }
    }
}

/// The trailer ptxas prints after errors: `ptxas fatal   : Ptx assembly aborted due to errors`.
pub fn aborted_due_to_errors() -> Diagnostic {
    Diagnostic::fatal("Ptx assembly aborted due to errors")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_eight_wide() {
        for s in [Severity::Info, Severity::Warning, Severity::Error, Severity::Fatal] {
            assert_eq!(s.tag().len(), 8);
        }
    }

    #[test]
    fn formats_like_ptxas() {
        assert_eq!(Diagnostic::fatal("Unknown option 'foo'").to_string(), "ptxas fatal   : Unknown option 'foo'");
        assert_eq!(
            Diagnostic::fatal("Missing .version directive at start of file 'application ptx input'")
                .at("application ptx input", 1)
                .to_string(),
            "ptxas application ptx input, line 1; fatal   : Missing .version directive at start of file 'application ptx input'"
        );
        assert_eq!(Diagnostic::info("0 bytes gmem").to_string(), "ptxas info    : 0 bytes gmem");
    }
}
