//! The one error type of the cubin reader.
//!
//! Invariant: every error names where it happened (the ELF part or section, and a byte offset
//! when there is one), so a malformed cubin is diagnosed without a hex editor.

use std::fmt;

/// A malformed or unsupported cubin, with the place it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CubinError {
    /// Where: `ELF header`, `section header 5`, `section .nv.info.k`, ...
    pub at: String,
    /// What is wrong there.
    pub what: String,
}

impl CubinError {
    /// An error at `at`.
    pub fn new(at: impl Into<String>, what: impl Into<String>) -> Self {
        CubinError { at: at.into(), what: what.into() }
    }
}

impl fmt::Display for CubinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.what)
    }
}

impl std::error::Error for CubinError {}
