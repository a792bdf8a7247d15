//! The PTX instruction table: opcode → legal type suffixes and operand counts, the global
//! modifier vocabulary, and the SM / PTX-version gates, all declared once as data
//! ([`table`]) and interpreted here. Nothing in this module matches on an opcode's name.
//!
//! Invariants:
//! - [`lookup`] and [`gates_for`] never panic; unknown input gives `None` / no gates.
//! - The table is parsed once ([`std::sync::OnceLock`]); a malformed row is a bug caught by the
//!   unit tests (`table_parses`), and is skipped rather than panicking at run time.
//! - Gates are matched on the dotted name `opcode.mod1.mod2…` by the longest row prefix whose
//!   parts appear in order among the instruction's modifiers (see [`Gate::matches`]).

pub mod table;

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// One opcode's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpSpec {
    /// The mnemonic.
    pub name: &'static str,
    /// Legal type suffixes (`.s32`, …); empty means the table does not restrict them.
    pub types: Vec<&'static str>,
    /// Inclusive operand-count range; `None` when not restricted.
    pub operands: Option<(usize, usize)>,
}

/// How a gate's failure is worded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateStyle {
    /// `Feature '<name>' requires .target …` then `… PTX ISA .version …`.
    FeatureSmFirst,
    /// `Feature '<name>' requires PTX ISA .version …` then `… .target …`.
    FeaturePtxFirst,
    /// `Instruction '<name>' requires .target …` (PTX gate worded as a feature).
    Instruction,
    /// `Modifier '<name>' requires .target …`.
    Modifier,
    /// `Instruction '<name>' not supported on .target '<target>'` unless the target is `a`/`f`.
    ArchSpecific,
}

/// One SM / PTX gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    /// Dotted pattern: the opcode, then modifiers that must appear in this order (`cp.async.bulk`).
    pub pattern: &'static str,
    /// Minimum SM (0 = none).
    pub sm: u32,
    /// Minimum PTX version ×10 (0 = none).
    pub ptx: u32,
    /// Wording.
    pub style: GateStyle,
    /// The name the message quotes.
    pub feature: &'static str,
}

impl Gate {
    /// Whether the gate applies to `opcode` with `modifiers` (dot included). A pattern part
    /// starting with `~` means "this modifier is absent"; a part ending in `*` is a prefix.
    pub fn matches(&self, opcode: &str, modifiers: &[&str]) -> bool {
        let mut parts = self.pattern.split('.');
        if parts.next() != Some(opcode) {
            return false;
        }
        let mut from = 0;
        for p in parts {
            if let Some(absent) = p.strip_prefix('~') {
                if modifiers.iter().any(|m| m.get(1..) == Some(absent)) {
                    return false;
                }
                continue;
            }
            let hit = |m: &&str| match p.strip_suffix('*') {
                Some(pre) => m.get(1..).is_some_and(|t| t.starts_with(pre)),
                None => m.get(1..) == Some(p),
            };
            match modifiers[from.min(modifiers.len())..].iter().position(|m| hit(&m)) {
                Some(i) => from += i + 1,
                None => return false,
            }
        }
        true
    }
}

/// The parsed table.
#[derive(Debug, Default)]
pub struct Isa {
    ops: HashMap<&'static str, OpSpec>,
    modifiers: HashSet<&'static str>,
    types: HashSet<&'static str>,
    gates: Vec<Gate>,
}

fn parse_range(s: &str) -> Option<(usize, usize)> {
    if s == "*" {
        return None;
    }
    match s.split_once('-') {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => s.parse().ok().map(|n| (n, n)),
    }
}

fn parse_version(s: &str) -> u32 {
    match s.split_once('.') {
        Some((a, b)) => a.parse::<u32>().unwrap_or(0) * 10 + b.parse::<u32>().unwrap_or(0),
        None => 0,
    }
}

impl Isa {
    fn build() -> Isa {
        let mut isa = Isa::default();
        for line in table::OPCODES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let cols: Vec<&'static str> = line.split('|').map(str::trim).collect();
            let [name, types, ops] = cols[..] else { continue };
            let types: Vec<&'static str> = if types == "*" { vec![] } else { types.split_whitespace().collect() };
            isa.ops.insert(name, OpSpec { name, types, operands: parse_range(ops) });
        }
        isa.types.extend(table::TYPES.split_whitespace());
        isa.modifiers.extend(table::MODIFIERS.split_whitespace());
        isa.modifiers.extend(table::TYPES.split_whitespace());
        for line in table::GATES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let cols: Vec<&'static str> = line.split('|').map(str::trim).collect();
            let [pattern, sm, ptx, style, feature] = cols[..] else { continue };
            let style = match style {
                "F" => GateStyle::FeatureSmFirst,
                "P" => GateStyle::FeaturePtxFirst,
                "I" => GateStyle::Instruction,
                "M" => GateStyle::Modifier,
                "A" => GateStyle::ArchSpecific,
                _ => continue,
            };
            let feature = if feature == "=" { pattern } else { feature };
            isa.gates.push(Gate { pattern, sm: sm.parse().unwrap_or(0), ptx: parse_version(ptx), style, feature });
        }
        isa
    }

    /// The table, built on first use.
    pub fn get() -> &'static Isa {
        static ISA: OnceLock<Isa> = OnceLock::new();
        ISA.get_or_init(Isa::build)
    }

    /// The opcode's shape, if it is a known instruction.
    pub fn lookup(&self, opcode: &str) -> Option<&OpSpec> {
        self.ops.get(opcode)
    }

    /// Whether `m` (dot included) is a modifier or type ptxas's scanner knows.
    pub fn is_known_modifier(&self, m: &str) -> bool {
        let t = m.strip_prefix('.').unwrap_or(m);
        self.modifiers.contains(t) || is_numbered_modifier(t)
    }

    /// Whether `m` (dot included) is a data type suffix.
    pub fn is_type(&self, m: &str) -> bool {
        self.types.contains(m.strip_prefix('.').unwrap_or(m))
    }

    /// The gates that apply, in table order.
    pub fn gates_for<'a>(&'a self, opcode: &'a str, modifiers: &'a [&'a str]) -> impl Iterator<Item = &'a Gate> + 'a {
        self.gates.iter().filter(move |g| g.matches(opcode, modifiers))
    }

    /// Every opcode (for generators and tests).
    pub fn opcodes(&self) -> impl Iterator<Item = &OpSpec> {
        self.ops.values()
    }
}

/// Families of modifiers that carry numbers (`.m16n8k16`, `.x4`, `.v8`, `.num`, shapes).
fn is_numbered_modifier(t: &str) -> bool {
    let shape = |s: &str| {
        // m<d>n<d>k<d> or m<d>n<d>
        let b = s.as_bytes();
        b.first() == Some(&b'm') && s.contains('n') && s[1..].bytes().all(|c| c.is_ascii_digit() || c == b'n' || c == b'k')
    };
    shape(t) || matches!(t, "x1" | "x2" | "x4" | "x8" | "x16" | "x32" | "x64" | "x128" | "v2" | "v4" | "v8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses() {
        let isa = Isa::get();
        let rows = table::OPCODES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).count();
        assert_eq!(isa.ops.len(), rows, "every opcode row parses and is unique");
        let grows = table::GATES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).count();
        assert_eq!(isa.gates.len(), grows, "every gate row parses");
        assert!(isa.lookup("add").is_some());
        assert!(isa.is_known_modifier(".m16n8k16"));
        assert!(!isa.is_known_modifier(".f33"));
    }

    #[test]
    fn gate_matching() {
        let g = Gate { pattern: "cp.async.bulk", sm: 90, ptx: 80, style: GateStyle::FeatureSmFirst, feature: "x" };
        assert!(g.matches("cp", &[".async", ".bulk", ".shared::cluster"]));
        assert!(!g.matches("cp", &[".async", ".ca"]));
        let n = Gate { pattern: "shfl.~sync", sm: 0, ptx: 0, style: GateStyle::FeatureSmFirst, feature: "x" };
        assert!(n.matches("shfl", &[".up"]));
        assert!(!n.matches("shfl", &[".sync", ".up"]));
    }
}
