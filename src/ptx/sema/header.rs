//! Module-header semantics: the `.version` table, the `.target` table (SM number, minimum PTX
//! version, `a`/`f` suffix), the deferred `.version`/`.target` check and the `-arch` vs `.target`
//! compatibility check of the later compile stage.
//!
//! Facts (probed on ptxas 13.0.88): the first `.target` name must be an architecture, else
//! `Target architecture not defined`; a later unknown name is `Unsupported .target`; a later
//! architecture wins; versions are those `--list-version` prints (44 of them).

/// Every PTX ISA version ptxas 13.0.88 accepts, as `major*10+minor`.
pub const VERSIONS: [u32; 44] = [
    10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 30, 31, 32, 40, 41, 42, 43, 50, 51, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73,
    74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90,
];

/// An architecture suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suffix {
    /// Plain `sm_90`.
    None,
    /// Arch-specific `sm_90a`.
    A,
    /// Family-specific `sm_100f`.
    F,
}

/// `(sm, suffix, minimum PTX version ×10)` of every accepted target (`sm_` and `compute_` alike).
pub const TARGETS: &[(u32, Suffix, u32)] = {
    use Suffix::*;
    &[
        (10, None, 10),
        (11, None, 10),
        (12, None, 12),
        (13, None, 12),
        (20, None, 20),
        (21, None, 20),
        (30, None, 30),
        (32, None, 40),
        (35, None, 31),
        (37, None, 41),
        (50, None, 40),
        (52, None, 41),
        (53, None, 42),
        (60, None, 50),
        (61, None, 50),
        (62, None, 50),
        (70, None, 51),
        (72, None, 61),
        (75, None, 63),
        (80, None, 70),
        (82, None, 62),
        (86, None, 71),
        (87, None, 74),
        (88, None, 73),
        (89, None, 78),
        (90, None, 78),
        (90, A, 80),
        (100, None, 86),
        (100, A, 86),
        (100, F, 88),
        (101, None, 86),
        (101, A, 86),
        (101, F, 88),
        (103, None, 88),
        (103, A, 88),
        (103, F, 88),
        (110, None, 90),
        (110, A, 90),
        (110, F, 90),
        (120, None, 87),
        (120, A, 87),
        (120, F, 88),
        (121, None, 88),
        (121, A, 88),
        (121, F, 88),
    ]
};

/// A parsed architecture name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arch {
    /// SM number (`90`).
    pub sm: u32,
    /// Suffix.
    pub suffix: Suffix,
    /// `compute_` (virtual) rather than `sm_`.
    pub virt: bool,
}

impl Arch {
    /// Parses `sm_90a`, `compute_100f`; `None` for anything else (including unknown numbers).
    pub fn parse(name: &str) -> Option<Arch> {
        let (rest, virt) = if let Some(r) = name.strip_prefix("sm_") {
            (r, false)
        } else if let Some(r) = name.strip_prefix("compute_") {
            (r, true)
        } else {
            return None;
        };
        let (digits, suffix) = match rest.as_bytes().last() {
            Some(b'a') => (&rest[..rest.len() - 1], Suffix::A),
            Some(b'f') => (&rest[..rest.len() - 1], Suffix::F),
            _ => (rest, Suffix::None),
        };
        if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let sm: u32 = digits.parse().ok()?;
        TARGETS.iter().any(|&(s, x, _)| s == sm && x == suffix).then_some(Arch { sm, suffix, virt })
    }

    /// The minimum PTX version (×10) of this target.
    pub fn min_ptx(&self) -> u32 {
        TARGETS.iter().find(|&&(s, x, _)| s == self.sm && x == self.suffix).map_or(0, |t| t.2)
    }

    /// The SM family for `f` targets (sm_101 was renamed sm_110).
    pub fn family(&self) -> u32 {
        match self.sm {
            101 | 110 => 110,
            s => s / 10 * 10,
        }
    }

    /// `sm_90a` spelling (always `sm_`).
    pub fn sm_name(&self) -> String {
        let s = match self.suffix {
            Suffix::None => "",
            Suffix::A => "a",
            Suffix::F => "f",
        };
        format!("sm_{}{}", self.sm, s)
    }
}

/// Whether `name` looks like an architecture name at all (`sm_…`/`compute_…`).
pub fn is_arch_like(name: &str) -> bool {
    name.starts_with("sm_") || name.starts_with("compute_")
}

/// `major.minor` digits → `major*10+minor` when in [`VERSIONS`].
pub fn version_value(major: &str, minor: &str) -> Option<u32> {
    if major.len() > 3 || minor.len() != 1 {
        return None;
    }
    let v = major.parse::<u32>().ok()? * 10 + minor.parse::<u32>().ok()?;
    VERSIONS.contains(&v).then_some(v)
}

/// `84` → `"8.4"`.
pub fn version_text(v: u32) -> String {
    format!("{}.{}", v / 10, v % 10)
}

/// The compile-stage check of a `.target` against `-arch`: `None` when compatible, else the
/// catalogue entry and its arguments.
pub fn arch_mismatch(
    target: &Arch,
    target_name: &str,
    arch: &Arch,
    arch_name: &str,
) -> Option<(super::messages::Msg, Vec<String>)> {
    use super::messages as m;
    match target.suffix {
        Suffix::None => (target.sm > arch.sm).then(|| (m::TARGET_ABOVE_ARCH, vec![])),
        Suffix::A => {
            if arch.sm > target.sm {
                Some((m::TARGET_FUTURE, vec![target_name.to_string()]))
            } else if arch.sm < target.sm {
                Some((m::TARGET_ABOVE_ARCH, vec![]))
            } else if arch.suffix != Suffix::A {
                Some((m::TARGET_ARCH_SPECIFIC, vec![target_name.to_string(), arch_name.to_string()]))
            } else {
                None
            }
        }
        Suffix::F => {
            if arch.sm < target.sm {
                Some((m::TARGET_ABOVE_ARCH, vec![]))
            } else if arch.family() != target.family() {
                Some((m::TARGET_FAMILY, vec![target_name.to_string()]))
            } else {
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        assert_eq!(VERSIONS.len(), 44);
        assert_eq!(Arch::parse("sm_90a").map(|a| a.min_ptx()), Some(80));
        assert!(Arch::parse("sm_73").is_none());
        assert!(Arch::parse("sm_90f").is_none());
        assert_eq!(version_value("8", "7"), Some(87));
        assert_eq!(version_value("6", "9"), None);
    }
}
