//! Errors of launch-spec parsing and validation.
//!
//! A [`SpecError`] always names the file (or `<launch spec>` for an in-memory string) and, for a
//! validation error, the dotted key of the offending value, e.g.
//! `saxpy.run.toml: buffer.y.init.random.min: value -1 is out of range for u32 (0 ..= 4294967295)`.
//! Array elements are written with a 0-based index: `param[2].scalar.value`.

use std::path::PathBuf;

use thiserror::Error;

/// What is wrong with one value of a spec (the key is supplied by [`SpecError::Invalid`]).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Problem {
    /// A required key is absent.
    #[error("missing required key")]
    Missing,
    /// A key the format does not define.
    #[error("unknown key (expected one of: {expected})")]
    UnknownKey {
        /// The keys allowed at this place.
        expected: String,
    },
    /// A value of the wrong TOML type.
    #[error("expected {expected}, found {found}")]
    WrongType {
        /// What the key needs.
        expected: &'static str,
        /// The TOML type found.
        found: &'static str,
    },
    /// A type name that is not an element (or scalar) type.
    #[error("unknown type `{name}` (expected one of: {expected})")]
    UnknownType {
        /// The name found.
        name: String,
        /// The names allowed.
        expected: &'static str,
    },
    /// A parameter names a buffer that has no `[buffer.NAME]` table.
    #[error("buffer `{0}` is not declared (no [buffer.{0}] table)")]
    MissingBuffer(String),
    /// A parameter has both or neither of `scalar` and `buffer`.
    #[error("a parameter needs exactly one of `scalar`, `buffer`, `texture` or `surface`, found {0}")]
    ParamKind(&'static str),
    /// A table that needs exactly one of several keys has none or several.
    #[error("expected exactly one of: {expected}; found {found}")]
    OneOf {
        /// The alternatives.
        expected: &'static str,
        /// What was found (`"none"` or the keys present).
        found: String,
    },
    /// A number outside the range of its type or of the key.
    #[error("value {value} is out of range for {target} ({range})")]
    OutOfRange {
        /// The value as written.
        value: String,
        /// The type or key.
        target: String,
        /// The allowed range.
        range: String,
    },
    /// Any other constraint, described in words.
    #[error("{0}")]
    Invalid(String),
}

/// A launch spec that could not be read, parsed or validated.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The file could not be read.
    #[error("{}: cannot read the launch spec: {source}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The text is not valid TOML.
    #[error("{file}: not valid TOML: {message}")]
    Toml {
        /// The file (or `<launch spec>`).
        file: String,
        /// The TOML parser's message (with line and column).
        message: String,
    },
    /// A key has a bad or missing value.
    #[error("{file}: {key}: {problem}")]
    Invalid {
        /// The file (or `<launch spec>`).
        file: String,
        /// The dotted key (`buffer.x.len`, `param[0].scalar.type`, or `(top level)`).
        key: String,
        /// What is wrong.
        problem: Problem,
    },
}

impl SpecError {
    /// The dotted key of a validation error, if this is one.
    pub fn key(&self) -> Option<&str> {
        match self {
            SpecError::Invalid { key, .. } => Some(key),
            _ => None,
        }
    }

    /// The problem of a validation error, if this is one.
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            SpecError::Invalid { problem, .. } => Some(problem),
            _ => None,
        }
    }
}

/// A problem located at a key; the parser's internal error before the file name is attached.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Located {
    pub key: String,
    pub problem: Problem,
}

impl Located {
    pub fn new(key: impl Into<String>, problem: Problem) -> Located {
        Located { key: key.into(), problem }
    }

    pub fn in_file(self, file: &str) -> SpecError {
        SpecError::Invalid { file: file.to_owned(), key: self.key, problem: self.problem }
    }
}
