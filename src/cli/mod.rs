//! ptxas's command line: the option table ([`table`]), the parser that turns an argument vector into
//! typed [`Options`], the cross-option checks ptxas performs before compiling ([`validate`]), the
//! `--help`/`--version`/`--list-version` texts ([`help`]), the diagnostic line format ([`diag`]) and
//! what ptxas-rs does with each option ([`support`]: honoured, partly, or refused as `not
//! supported yet`; never accepted and ignored).
//!
//! The syntax is ptxas 13.0.88's, measured on the real binary:
//! - long names take two dashes (`--gpu-name`), short names one (`-arch`); `--arch` and
//!   `-gpu-name` are unknown options;
//! - a value follows as the next argument (whatever it looks like, even `-v`) or after `=`;
//! - `-O` and `-m` also take an attached value (`-O3`, `-m64`), and a bare `-O` means `-O=` (level 0);
//! - list options split their value at commas and accumulate over repeats; scalar options keep the
//!   last value and warn when a repeat changes it;
//! - `-optf FILE` splices the whitespace-separated (double-quote grouping) words of FILE in place;
//! - every other argument, including `-` (stdin), is an input file.
//!
//! Invariants: parsing never panics and never touches the file system except to read options files;
//! every message it produces is byte-identical to ptxas's for the same input.

pub mod diag;
pub mod help;
mod options;
mod parse;
pub mod support;
pub mod table;
mod tkinfo;
mod validate;

pub use options::{CompilerStat, FastCompile, Options, RegCount};
pub use parse::{Parsed, parse};
pub use support::{Support, refusal, support};
pub use table::{OPTIONS, OptId};
pub use validate::{Validated, validate};

/// How an option takes its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptKind {
    /// No value (`-v`); `-v=x` is an error.
    Flag,
    /// `true` or `false` (`-fmad false`).
    Bool,
    /// A 32-bit integer in C `strtol` base-0 syntax (`-O3`, `-split-compile 0x4`).
    Int,
    /// An arbitrary string, checked later or against `allowed` (`-arch sm_90`).
    Str,
    /// A comma-separated list that accumulates over repeats (`-e a,b -e c`).
    List,
    /// A list whose items are not split at commas (`--input-as-string`: PTX contains commas).
    ListRaw,
}

impl OptKind {
    /// Whether the option consumes a value.
    pub const fn takes_value(self) -> bool {
        !matches!(self, OptKind::Flag)
    }
}

/// One row of the option table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptSpec {
    /// Which option this is.
    pub id: OptId,
    /// Long name, used with two dashes (`--gpu-name`) and in ptxas's messages.
    pub long: &'static str,
    /// Short name, used with one dash (`-arch`); some options have none.
    pub short: Option<&'static str>,
    /// How the value is taken.
    pub kind: OptKind,
    /// The value placeholder shown by `--help` (`<gpu name>`), empty for flags.
    pub value_hint: &'static str,
    /// The only values the parser accepts (empty: any value of the kind).
    pub allowed: &'static [&'static str],
    /// The documented default, as `--help` prints it.
    pub default: Option<&'static str>,
    /// The `--help` body, verbatim (8-space indented lines); `None` for hidden options.
    pub help: Option<&'static str>,
    /// Accepted with `option '<long>' has been deprecated`.
    pub deprecated: bool,
}

impl OptSpec {
    /// Whether `--help` lists this option.
    pub const fn documented(&self) -> bool {
        self.help.is_some()
    }
}

/// The table row of `id`.
pub fn spec(id: OptId) -> &'static OptSpec {
    // The table is generated in `OptId` order; the unit tests check `OPTIONS[i].id as usize == i`.
    &OPTIONS[id as usize]
}

/// The option whose long name is `name` (without dashes).
pub fn by_long(name: &str) -> Option<&'static OptSpec> {
    OPTIONS.iter().find(|s| s.long == name)
}

/// The option whose short name is `name` (without the dash).
pub fn by_short(name: &str) -> Option<&'static OptSpec> {
    OPTIONS.iter().find(|s| s.short == Some(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn table_invariants() {
        let mut longs = HashSet::new();
        let mut shorts = HashSet::new();
        for (i, s) in OPTIONS.iter().enumerate() {
            assert_eq!(s.id as usize, i, "{} out of place", s.long);
            assert!(longs.insert(s.long), "duplicate long {}", s.long);
            if let Some(sh) = s.short {
                assert!(shorts.insert(sh), "duplicate short {sh}");
            }
            if let Some(d) = s.default {
                let h = s.help.unwrap_or("");
                assert!(h.contains(&format!("Default value:  {d}.")) || h.contains(&format!("Default value:  '{d}'.")));
            }
            if !s.kind.takes_value() {
                assert!(s.value_hint.is_empty() && s.allowed.is_empty(), "{}", s.long);
            }
        }
        assert!(OPTIONS.windows(2).all(|w| w[0].long < w[1].long));
        assert_eq!(OPTIONS.iter().filter(|s| s.documented()).count(), 54);
    }

    #[test]
    fn lookups() {
        assert_eq!(by_short("arch").map(|s| s.id), Some(OptId::GpuName));
        assert_eq!(by_long("gpu-name").map(|s| s.id), Some(OptId::GpuName));
        assert!(by_long("arch").is_none());
        assert!(by_short("gpu-name").is_none());
        assert_eq!(spec(OptId::OptLevel).short, Some("O"));
    }
}
