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
    /// Type lists that replace [`OpSpec::types`] when one of their key modifiers is present
    /// (`mul.lo` takes integers, plain `mul` floats).
    pub keyed_types: Vec<(Vec<&'static str>, Vec<&'static str>)>,
    /// Inclusive operand-count range; `None` when not restricted.
    pub operands: Option<(usize, usize)>,
    /// Operand-kind signatures: `(modifier that selects it, or "" for the default, kinds,
    /// number of required operands — kinds written with a trailing `?` are optional)`;
    /// empty when operands are not checked. Kinds are described in [`OperandKind`].
    pub sigs: Vec<(&'static str, Vec<OperandKind>, usize)>,
    /// The non-type modifiers the opcode accepts; `None` when not restricted.
    pub vocab: Option<Vec<&'static str>>,
    /// Modifiers that ptxas appends to the opcode when naming the instruction (`mul.wide`).
    pub display: Vec<&'static str>,
}

/// What one operand position accepts (a letter in the table's signature column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperandKind {
    /// `d`: a register compatible with the instruction type.
    Dest,
    /// `a`: a register or immediate compatible with the instruction type.
    Src,
    /// `w`: a register of twice the instruction type's width.
    WideDest,
    /// `W`: a register or immediate of twice the instruction type's width.
    WideSrc,
    /// `p`: a predicate register (or `p|q`).
    Pred,
    /// `q`: a predicate register (optionally `!`-negated) or an integer immediate.
    PredSrc,
    /// `u`: a 32-bit integer register or integer immediate.
    U32Src,
    /// `U`: a 32-bit integer register.
    U32Dest,
    /// `m`: a register (or vector of registers) holding memory data: compatible with the
    /// instruction type, or a wider integer/bit register.
    MemData,
    /// `A`: an address `[…]`.
    Address,
    /// `n`: an integer immediate.
    IntImm,
    /// `*`: not checked.
    Any,
}

impl OperandKind {
    fn from_letter(c: char) -> Option<OperandKind> {
        Some(match c {
            'd' => OperandKind::Dest,
            'a' => OperandKind::Src,
            'w' => OperandKind::WideDest,
            'W' => OperandKind::WideSrc,
            'p' => OperandKind::Pred,
            'q' => OperandKind::PredSrc,
            'u' => OperandKind::U32Src,
            'U' => OperandKind::U32Dest,
            'm' => OperandKind::MemData,
            'A' => OperandKind::Address,
            'n' => OperandKind::IntImm,
            '*' => OperandKind::Any,
            _ => return None,
        })
    }
}

impl OpSpec {
    /// The operand signature selected by `modifiers` (dot included): the first keyed one whose
    /// modifier is present, else the default one.
    pub fn signature(&self, modifiers: &[&str]) -> Option<&[OperandKind]> {
        self.sig(modifiers).map(|(_, v, _)| v.as_slice())
    }

    /// How many operands the signature selected by `modifiers` requires (its non-`?` kinds).
    pub fn required_operands(&self, modifiers: &[&str]) -> usize {
        self.sig(modifiers).map_or(0, |(_, _, n)| *n)
    }

    fn sig(&self, modifiers: &[&str]) -> Option<&(&'static str, Vec<OperandKind>, usize)> {
        let keyed = self.sigs.iter().find(|(k, ..)| !k.is_empty() && modifiers.iter().any(|m| m.get(1..) == Some(*k)));
        keyed.or_else(|| self.sigs.iter().find(|(k, ..)| k.is_empty()))
    }

    /// The legal type suffixes given `modifiers` (dot included); empty means unrestricted.
    pub fn types_for(&self, modifiers: &[&str]) -> &[&'static str] {
        let has = |k: &&str| modifiers.iter().any(|m| m.get(1..) == Some(*k));
        match self.keyed_types.iter().find(|(keys, _)| keys.iter().any(has)) {
            Some((_, t)) => t,
            None => &self.types,
        }
    }

    /// Whether modifier `m` (dot included) is in the vocabulary given the instruction type
    /// `ty` (without the dot); `true` when the opcode has no vocabulary.
    pub fn accepts(&self, m: &str, ty: Option<&str>) -> bool {
        let Some(vocab) = &self.vocab else { return true };
        let t = m.get(1..).unwrap_or("");
        vocab.iter().any(|v| match v.split_once('@') {
            None if *v == "#shapes" => is_numbered_modifier(t),
            None => *v == t,
            Some((w, cond)) => {
                w == t
                    && ty.is_none_or(|ty| {
                        let float = ty.starts_with('f') || ty.starts_with("bf");
                        match cond {
                            "f" => float,
                            "h" => ty.split('.').any(|t| matches!(t, "f32" | "f16" | "f16x2")),
                            "F32" => ty.split('.').any(|t| t == "f32"),
                            _ => !float && ty != "pred",
                        }
                    })
            }
        })
    }

    /// The name ptxas quotes for this instruction: the opcode plus its display modifiers.
    pub fn display_name(&self, modifiers: &[&str]) -> String {
        let mut s = self.name.to_string();
        for m in modifiers {
            if self.display.iter().any(|d| m.get(1..) == Some(*d)) {
                s.push_str(m);
            }
        }
        s
    }
}

fn parse_sigs(s: &'static str) -> Option<Vec<(&'static str, Vec<OperandKind>, usize)>> {
    let mut out = Vec::new();
    for alt in s.split(';').map(str::trim).filter(|a| !a.is_empty() && *a != "*") {
        let (key, body) = match alt.split_once(':') {
            Some((k, b)) => (k.trim(), b.trim()),
            None => ("", alt),
        };
        let kinds = body
            .split_whitespace()
            .map(|w| w.chars().next().and_then(OperandKind::from_letter))
            .collect::<Option<Vec<_>>>()?;
        let required = body.split_whitespace().filter(|w| !w.ends_with('?')).count();
        out.push((key, kinds, required));
    }
    Some(out)
}

/// One row of [`table::IMMEDIATE_RULES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImmediateRule {
    /// Operand position (0-based).
    pub pos: usize,
    /// The argument number the message prints.
    pub shown: &'static str,
    /// Smallest legal value.
    pub lo: i128,
    /// Largest legal value.
    pub hi: i128,
    /// The value must be a multiple of this, when given.
    pub multiple: Option<i128>,
    /// The only legal values, when not empty.
    pub values: Vec<i128>,
    /// The instruction name the message quotes, when not the default.
    pub name: Option<&'static str>,
}

/// The verdict of [`Isa::wmma_type`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WmmaType {
    /// Legal for the matrix and the shape (or not covered by the tables).
    Fits,
    /// `Illegal type for wmma.load.a`.
    Illegal,
    /// `Unexpected instruction types specified for …`.
    Unexpected,
    /// The same, printed twice (sub-byte types on other shapes).
    UnexpectedTwice,
    /// `Incorrect instruction type specified for … with shape '…'`.
    WrongForShape,
    /// `Argument vector size mismatch for instruction …`.
    VectorSize,
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
    /// `Instruction '<name>' requires .target …` then `Instruction '<name>' requires PTX ISA
    /// .version …` (probed on the f16 atomics).
    InstructionSmFirst,
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
    /// The instruction name of the `not supported on .target` message.
    pub instruction: &'static str,
    /// The row is reported in addition to the shorter rows it extends (style suffix `+`).
    pub additive: bool,
}

impl Gate {
    /// A gate with only a pattern, for the tables that reuse gate pattern matching
    /// ([`Gate::matches`]) without a gate of their own.
    fn pattern_only(pattern: &'static str) -> Gate {
        Gate { pattern, sm: 0, ptx: 0, style: GateStyle::FeatureSmFirst, feature: "", instruction: "", additive: false }
    }

    /// Whether the gate applies to `opcode` with `modifiers` (dot included). A pattern part
    /// starting with `~` means "this modifier is absent"; a part ending in `*` is a prefix.
    pub fn matches(&self, opcode: &str, modifiers: &[&str]) -> bool {
        if self.is_token() {
            return modifiers.contains(&self.pattern);
        }
        let mut parts = self.pattern.split('.');
        let head = parts.next();
        if head != Some(opcode) && head != Some("*") {
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
            match modifiers[from.min(modifiers.len())..].iter().position(hit) {
                Some(i) => from += i + 1,
                None => return false,
            }
        }
        true
    }
}

impl Gate {
    /// Whether this is a token gate (pattern `.type`): ptxas checks it while scanning the
    /// instruction's suffixes, before any other check of the instruction.
    pub fn is_token(&self) -> bool {
        self.pattern.starts_with('.')
    }

    /// For a pattern `*.parts` (any instruction whose modifiers match the parts, checked with
    /// the instruction's own gates and after them, unlike a token gate): its first required
    /// modifier, dot included, which indexes it.
    pub fn any_opcode_modifier(&self) -> Option<&'static str> {
        let rest = self.pattern.strip_prefix("*.")?;
        let mut at = 1;
        for part in rest.split('.') {
            if !part.starts_with('~') {
                return Some(&self.pattern[at..at + 1 + part.len()]);
            }
            at += 1 + part.len();
        }
        None
    }

    /// The key [`Isa::gates_for`] finds the gate by: its opcode, or its modifier for token and
    /// any-opcode gates.
    fn index_key(&self) -> &'static str {
        if let Some(m) = self.any_opcode_modifier() {
            m
        } else if self.is_token() {
            self.pattern
        } else {
            self.pattern.split('.').next().unwrap_or(self.pattern)
        }
    }
}

/// The parsed table.
#[derive(Debug, Default)]
pub struct Isa {
    ops: HashMap<&'static str, OpSpec>,
    modifiers: HashSet<&'static str>,
    types: HashSet<&'static str>,
    gates: Vec<Gate>,
    /// Indices into `gates` of the non-token gates, by their pattern's opcode (a non-token
    /// gate matches only its own opcode), and of the token gates, by pattern: [`Isa::gates_for`]
    /// looks these up instead of matching every gate against every instruction.
    gates_by_opcode: HashMap<&'static str, Vec<usize>>,
    gates_by_token: HashMap<&'static str, Vec<usize>>,
    classes: HashMap<&'static str, char>,
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
            let [name, types, ops, ref rest @ ..] = cols[..] else { continue };
            let mut alts = types.split(';');
            let first = alts.next().unwrap_or("*").trim();
            let types: Vec<&'static str> = if first == "*" { vec![] } else { first.split_whitespace().collect() };
            let keyed_types = alts
                .filter_map(|a| a.split_once(':'))
                .map(|(k, t)| (k.split_whitespace().collect(), t.split_whitespace().collect()))
                .collect();
            let Some(sigs) = parse_sigs(rest.first().copied().unwrap_or("*")) else { continue };
            let vocab = match rest.get(1).copied() {
                None | Some("*") => None,
                Some(v) => Some(v.split_whitespace().filter(|w| *w != "-").collect()),
            };
            let display = rest.get(2).map(|d| d.split_whitespace().collect()).unwrap_or_default();
            isa.ops.insert(name, OpSpec { name, types, keyed_types, operands: parse_range(ops), sigs, vocab, display });
        }
        isa.types.extend(table::TYPES.split_whitespace());
        isa.modifiers.extend(table::MODIFIERS.split_whitespace());
        isa.modifiers.extend(table::TYPES.split_whitespace());
        for line in table::MODIFIER_CLASSES.lines() {
            let Some((class, words)) = line.split_once('|') else { continue };
            let Some(c) = class.trim().chars().next() else { continue };
            for w in words.split_whitespace() {
                isa.classes.insert(w, c);
            }
        }
        for line in table::GATES.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let cols: Vec<&'static str> = line.split('|').map(str::trim).collect();
            let [pattern, sm, ptx, style, feature] = cols[..] else { continue };
            let additive = style.ends_with('+');
            let style = match style.trim_end_matches('+') {
                "F" => GateStyle::FeatureSmFirst,
                "P" => GateStyle::FeaturePtxFirst,
                "I" => GateStyle::Instruction,
                "J" => GateStyle::InstructionSmFirst,
                "M" => GateStyle::Modifier,
                "A" => GateStyle::ArchSpecific,
                _ => continue,
            };
            let (feature, instruction) = feature.split_once(';').unwrap_or((feature, pattern));
            let feature = if feature == "=" { pattern } else { feature };
            isa.gates.push(Gate {
                pattern,
                sm: sm.parse().unwrap_or(0),
                ptx: parse_version(ptx),
                style,
                feature,
                instruction,
                additive,
            });
        }
        for (i, g) in isa.gates.iter().enumerate() {
            let by_modifier = g.is_token() || g.any_opcode_modifier().is_some();
            let key = if by_modifier { &mut isa.gates_by_token } else { &mut isa.gates_by_opcode };
            key.entry(g.index_key()).or_default().push(i);
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
        let own = self.gates_by_opcode.get(opcode).into_iter().flatten();
        let tokens = modifiers.iter().filter_map(|m| self.gates_by_token.get(m)).flatten();
        let mut found: Vec<usize> =
            own.chain(tokens).copied().filter(|&i| self.gates[i].matches(opcode, modifiers)).collect();
        found.sort_unstable();
        found.dedup();
        found.into_iter().map(move |i| &self.gates[i])
    }

    /// The class letter of a known modifier (dot included) in [`table::MODIFIER_CLASSES`].
    pub fn modifier_class(&self, m: &str) -> Option<char> {
        let t = m.strip_prefix('.').unwrap_or(m);
        self.classes.get(t).copied()
    }

    /// The rounding rule ([`table::ROUNDING`]) for `opcode` with type `ty` (no dot).
    pub fn rounding_rule(&self, opcode: &str, ty: &str) -> Option<&'static str> {
        table::ROUNDING.lines().find_map(|l| {
            let mut c = l.split('|').map(str::trim);
            let (o, t, r) = (c.next()?, c.next()?, c.next()?);
            (o == opcode && t.split_whitespace().any(|x| x == ty)).then_some(r)
        })
    }

    /// The `cvt` rounding rule ([`table::CVT_ROUNDING`]) for destination `dst` and source
    /// `src` types (no dots); `None` for pairs the table does not cover.
    pub fn cvt_rounding(&self, dst: &str, src: &str) -> Option<char> {
        fn class(t: &str) -> Option<(&'static str, u32)> {
            match t {
                "f16" | "bf16" => Some(("float", 16)),
                "f32" => Some(("float", 32)),
                "f64" => Some(("float", 64)),
                _ => {
                    let n: u32 = t.strip_prefix('u').or_else(|| t.strip_prefix('s'))?.parse().ok()?;
                    Some(("int", n))
                }
            }
        }
        let (dc, dn) = class(dst)?;
        let (sc, sn) = class(src)?;
        table::CVT_ROUNDING.lines().find_map(|l| {
            let mut c = l.split('|').map(str::trim);
            let (d, sp, r) = (c.next()?, c.next()?, c.next()?);
            let mut sw = sp.split_whitespace();
            let (s, rel) = (sw.next()?, sw.next());
            let rel_ok = match rel {
                None => true,
                Some("=") => dn == sn,
                Some("<") => dn < sn,
                Some(">") => dn > sn,
                Some(_) => false,
            };
            ((d == dst || d == dc) && (s == src || s == sc) && rel_ok).then(|| r.chars().next()).flatten()
        })
    }

    /// Whether ptxas expands this instruction (opcode, modifiers with dots, single type without
    /// the dot) through its built-in `<macro util>` source on target `sm`
    /// ([`table::MACRO_UTIL`]).
    pub fn expands_macro_util(&self, opcode: &str, modifiers: &[&str], ty: Option<&str>, sm: u32) -> bool {
        table::MACRO_UTIL.lines().any(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            let [pattern, types, below] = c[..] else { return false };
            let g = Gate::pattern_only(pattern);
            let type_ok = types == "*" || ty.is_some_and(|t| types.split_whitespace().any(|x| x == t));
            let sm_ok = below.parse::<u32>().map_or(true, |b| sm < b);
            type_ok && sm_ok && g.matches(opcode, modifiers)
        })
    }

    /// The legal comparison operators of `opcode` for source type `ty` (no dot), from
    /// [`table::COMPARISONS`]; `None` when the opcode takes no comparison.
    pub fn comparisons(&self, opcode: &str, ty: &str) -> Option<Vec<&'static str>> {
        let class = match ty.as_bytes().first() {
            Some(b's') => "s",
            Some(b'u') => "u",
            Some(b'b') if !ty.starts_with("bf") => "b",
            _ => "f",
        };
        table::COMPARISONS.lines().find_map(|l| {
            let c: Vec<&'static str> = l.split('|').map(str::trim).collect();
            let [ops, cl, words] = c[..] else { return None };
            (ops.split_whitespace().any(|o| o == opcode) && cl == class).then(|| words.split_whitespace().collect())
        })
    }

    /// The exclusive-modifier groups of `opcode` ([`table::EXCLUSIVE`]): `(words, message key)`.
    pub fn exclusive_groups<'a>(
        &'a self,
        opcode: &'a str,
    ) -> impl Iterator<Item = (Vec<&'static str>, &'static str)> + 'a {
        table::EXCLUSIVE.lines().filter_map(move |l| {
            let c: Vec<&'static str> = l.split('|').map(str::trim).collect();
            let [o, words, key] = c[..] else { return None };
            (o == opcode).then(|| (words.split_whitespace().collect(), key))
        })
    }

    /// The immediate rules ([`table::IMMEDIATE_RULES`]) that apply.
    pub fn immediate_rules(&self, opcode: &str, modifiers: &[&str]) -> Vec<ImmediateRule> {
        table::IMMEDIATE_RULES
            .lines()
            .filter_map(|l| {
                let c: Vec<&'static str> = l.split('|').map(str::trim).collect();
                let [pattern, pos, shown, lo, hi, mult, values, name] = c[..] else { return None };
                let g = Gate::pattern_only(pattern);
                if !g.matches(opcode, modifiers) {
                    return None;
                }
                Some(ImmediateRule {
                    pos: pos.parse().ok()?,
                    shown,
                    lo: lo.parse().ok()?,
                    hi: hi.parse().ok()?,
                    multiple: mult.parse().ok(),
                    values: if values == "*" {
                        vec![]
                    } else {
                        values.split_whitespace().filter_map(|v| v.parse().ok()).collect()
                    },
                    name: (name != "*").then_some(name),
                })
            })
            .collect()
    }

    /// Whether `opcode` needs `.aligned` given whether `.sync` is present.
    pub fn needs_aligned(&self, opcode: &str, sync: bool) -> bool {
        let has = |list: &str| list.split_whitespace().any(|o| o == opcode);
        has(table::ALIGNED_ALWAYS) || (sync && has(table::ALIGNED_WITH_SYNC))
    }

    /// The atomic-operation rule ([`table::ATOMIC_OPS`]) for `opcode` with operation `op` (no
    /// dot): `(legal types, wording)`.
    pub fn atomic_op(&self, opcode: &str, op: &str) -> Option<(Vec<&'static str>, &'static str)> {
        table::ATOMIC_OPS.lines().find_map(|l| {
            let c: Vec<&'static str> = l.split('|').map(str::trim).collect();
            let [ops, names, types, words] = c[..] else { return None };
            (ops.split_whitespace().any(|o| o == opcode) && names.split_whitespace().any(|n| n == op))
                .then(|| (types.split_whitespace().collect(), words))
        })
    }

    /// The types operation `op` (no dot) of `opcode` takes ([`table::OPERATION_TYPES`]);
    /// `None` when no row names it.
    pub fn operation_types(&self, opcode: &str, op: &str) -> Option<Vec<&'static str>> {
        let mut found: Option<Vec<&'static str>> = None;
        for l in table::OPERATION_TYPES.lines() {
            let c: Vec<&'static str> = l.split('|').map(str::trim).collect();
            let [ops, names, types] = c[..] else { continue };
            if ops.split_whitespace().any(|o| o == opcode) && names.split_whitespace().any(|n| n == op) {
                found.get_or_insert_with(Vec::new).extend(types.split_whitespace());
            }
        }
        found
    }

    /// The message keys of the required modifiers ([`table::REQUIRED_MODIFIERS`]) missing from
    /// `opcode` with `modifiers` (dots included), in table order.
    pub fn missing_modifiers(&self, opcode: &str, modifiers: &[&str]) -> Vec<&'static str> {
        let has = |w: &str| {
            modifiers.iter().any(|m| {
                m.get(1..)
                    .is_some_and(|t| t == w || (w == "@shape" && table::SHAPES.split_whitespace().any(|s| s == t)))
            })
        };
        table::REQUIRED_MODIFIERS
            .lines()
            .filter_map(|l| {
                let c: Vec<&'static str> = l.split('|').map(str::trim).collect();
                let [pattern, words, key] = c[..] else { return None };
                (Gate::pattern_only(pattern).matches(opcode, modifiers) && !words.split_whitespace().any(has))
                    .then_some(key)
            })
            .collect()
    }

    /// Whether `opcode` with type `ty` (no dot) needs `.noftz` ([`table::NOFTZ_REQUIRED`]).
    pub fn needs_noftz(&self, opcode: &str, ty: &str) -> bool {
        table::NOFTZ_REQUIRED.lines().any(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            let [ops, types] = c[..] else { return false };
            ops.split_whitespace().any(|o| o == opcode) && types.split_whitespace().any(|t| t == ty)
        })
    }

    /// Whether `m` (dot included) is known only to opcodes listing it
    /// ([`table::VOCAB_ONLY_MODIFIERS`]) and `spec` (the opcode, if known) does not.
    pub fn unknown_outside_vocab(&self, spec: Option<&OpSpec>, m: &str) -> bool {
        let t = m.strip_prefix('.').unwrap_or(m);
        table::VOCAB_ONLY_MODIFIERS.split_whitespace().any(|w| w == t)
            && !spec.and_then(|s| s.vocab.as_ref()).is_some_and(|v| v.contains(&t))
    }

    /// Whether `opcode`'s state space is checked against its address's variable
    /// ([`table::ADDRESS_SPACE_CHECKED`]).
    pub fn address_space_checked(&self, opcode: &str) -> bool {
        table::ADDRESS_SPACE_CHECKED.split_whitespace().any(|o| o == opcode)
    }

    /// Whether `opcode` takes immediate addresses only in `.local`
    /// ([`table::IMMEDIATE_ADDRESS_LOCAL_ONLY`]).
    pub fn immediate_address_local_only(&self, opcode: &str) -> bool {
        table::IMMEDIATE_ADDRESS_LOCAL_ONLY.split_whitespace().any(|o| o == opcode)
    }

    /// Whether `opcode` has exclusive size modes ([`table::SIZE_MODES`]).
    pub fn has_size_modes(&self, opcode: &str) -> bool {
        table::SIZE_MODES.split_whitespace().any(|o| o == opcode)
    }

    /// Whether `opcode` writes memory through its first operand ([`table::WRITES_MEMORY`]).
    pub fn writes_memory(&self, opcode: &str) -> bool {
        table::WRITES_MEMORY.split_whitespace().any(|o| o == opcode)
    }

    /// The kind the last operand must have ([`table::LAST_OPERAND`]), if any.
    pub fn last_operand_kind(&self, opcode: &str, modifiers: &[&str]) -> Option<OperandKind> {
        table::LAST_OPERAND.lines().find_map(|l| {
            let (pattern, kind) = l.split_once('|')?;
            let g = Gate::pattern_only(pattern.trim());
            g.matches(opcode, modifiers)
                .then(|| kind.trim().chars().next().and_then(OperandKind::from_letter))
                .flatten()
        })
    }

    /// The operand-count rule ([`table::OPERAND_COUNTS`]) for `opcode` with `modifiers`:
    /// `Some(None)` when the selected signature bounds the count, `Some(Some((lo, hi)))` for a
    /// range.
    pub fn operand_count_rule(&self, opcode: &str, modifiers: &[&str]) -> Option<Option<(usize, usize)>> {
        table::OPERAND_COUNTS.lines().find_map(|l| {
            let (pattern, rule) = l.split_once('|')?;
            if !Gate::pattern_only(pattern.trim()).matches(opcode, modifiers) {
                return None;
            }
            match rule.trim() {
                "sig" => Some(None),
                r => parse_range(r).map(Some),
            }
        })
    }

    /// Whether `opcode`'s brace-list operands follow its `.vN` ([`table::VECTOR_MOVES`]).
    pub fn vector_moves(&self, opcode: &str) -> bool {
        table::VECTOR_MOVES.split_whitespace().any(|o| o == opcode)
    }

    /// Whether `opcode` refuses type suffix `t` (dot included) ([`table::ILLEGAL_TYPES`]).
    pub fn illegal_type(&self, opcode: &str, t: &str) -> bool {
        table::ILLEGAL_TYPES.lines().any(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            let [ops, types] = c[..] else { return false };
            ops.split_whitespace().any(|o| o == opcode) && types.split_whitespace().any(|w| t.get(1..) == Some(w))
        })
    }

    /// Whether `opcode` checks its operands against its destination and source type suffixes
    /// ([`table::SPLIT_TYPE_OPERANDS`]).
    pub fn split_type_operands(&self, opcode: &str) -> bool {
        table::SPLIT_TYPE_OPERANDS.split_whitespace().any(|o| o == opcode)
    }

    /// Whether `.sat` is illegal on a `cvt` from integer type `src` to integer type `dst` (no
    /// dots): when every source value fits the destination, so there is nothing to saturate
    /// (probed: `cvt.sat.s64.s32`, `cvt.sat.u32.u32`, `cvt.sat.s16.u8` are `Illegal modifier
    /// '.sat'`; `cvt.sat.u32.s32`, `cvt.sat.s32.u32`, `cvt.sat.s8.u8` are accepted).
    pub fn cvt_sat_pointless(&self, dst: &str, src: &str) -> bool {
        let int = |t: &str| -> Option<(bool, u32)> {
            let signed = t.starts_with('s');
            if !signed && !t.starts_with('u') {
                return None;
            }
            Some((signed, t.get(1..)?.parse().ok()?))
        };
        match (int(dst), int(src)) {
            (Some((ds, dw)), Some((ss, sw))) => (ds == ss && dw >= sw) || (ds && !ss && dw > sw),
            _ => false,
        }
    }

    /// The exact number of type suffixes `opcode` takes ([`table::TYPE_COUNTS`]), when fixed.
    pub fn type_count(&self, opcode: &str) -> Option<usize> {
        table::TYPE_COUNTS.lines().find_map(|l| {
            let (o, n) = l.split_once('|')?;
            (o.trim() == opcode).then(|| n.trim().parse().ok()).flatten()
        })
    }

    /// The modifier requirements ([`table::MODIFIER_REQUIRES`]) `opcode` with `modifiers` (dots
    /// included) violates: `(modifier, message key)`.
    pub fn unmet_requirements(&self, opcode: &str, modifiers: &[&str]) -> Vec<(&'static str, &'static str)> {
        let has = |w: &str| modifiers.iter().any(|m| m.get(1..) == Some(w));
        let mut out = Vec::new();
        for l in table::MODIFIER_REQUIRES.lines() {
            let c: Vec<&'static str> = l.split('|').map(str::trim).collect();
            let [ops, words, needs, key] = c[..] else { continue };
            if !ops.split_whitespace().any(|o| o == opcode) || needs.split_whitespace().any(has) {
                continue;
            }
            out.extend(words.split_whitespace().filter(|w| has(w)).map(|w| (w, key)));
        }
        out
    }

    /// The modifier conflicts ([`table::MODIFIER_CONFLICTS`]) of `opcode` with `modifiers`
    /// (dots included): `(modifier, conflicting modifier, message key)`, dots included.
    pub fn conflicts<'a>(&self, opcode: &str, modifiers: &[&'a str]) -> Vec<(&'a str, &'a str, &'static str)> {
        let mut out = Vec::new();
        for l in table::MODIFIER_CONFLICTS.lines() {
            let c: Vec<&'static str> = l.split('|').map(str::trim).collect();
            let [ops, words, against, key] = c[..] else { continue };
            if !ops.split_whitespace().any(|o| o == opcode) {
                continue;
            }
            let find =
                |list: &str| modifiers.iter().copied().find(|m| list.split_whitespace().any(|w| m.get(1..) == Some(w)));
            if let (Some(a), Some(b)) = (find(words), find(against)) {
                out.push((a, b, key));
            }
        }
        out
    }

    /// Whether `opcode` takes no state space at all ([`table::NO_SPACE_OPCODES`]).
    pub fn takes_no_space(&self, opcode: &str) -> bool {
        table::NO_SPACE_OPCODES.split_whitespace().any(|o| o == opcode)
    }

    /// Whether `opcode` refuses state space `m` (dot included) ([`table::ILLEGAL_SPACES`]).
    pub fn illegal_space(&self, opcode: &str, m: &str) -> bool {
        table::ILLEGAL_SPACES.lines().any(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            let [ops, spaces] = c[..] else { return false };
            ops.split_whitespace().any(|o| o == opcode) && spaces.split_whitespace().any(|w| m.get(1..) == Some(w))
        })
    }

    /// Whether `opcode` with type `ty` (no dot) needs `.ftz` with `.approx`
    /// ([`table::APPROX_NEEDS_FTZ`]).
    pub fn approx_needs_ftz(&self, opcode: &str, ty: &str) -> bool {
        table::APPROX_NEEDS_FTZ.lines().any(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            c.len() == 2 && c[0] == opcode && c[1] == ty
        })
    }

    /// Whether `opcode` refuses the sink `_` as destination ([`table::NO_DISCARD`]).
    pub fn no_discard(&self, opcode: &str) -> bool {
        table::NO_DISCARD.split_whitespace().any(|o| o == opcode)
    }

    /// The data operand of a vector-capable memory opcode: its index and whether it is a
    /// destination ([`table::VECTOR_OPERANDS`]).
    pub fn vector_operand(&self, opcode: &str) -> Option<(usize, bool)> {
        table::VECTOR_OPERANDS.lines().find_map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            (c.len() == 3 && c[0] == opcode).then(|| Some((c[1].parse().ok()?, c[2] == "D")))?
        })
    }

    /// Registers in a wmma fragment of `matrix` (`a`, `b`, `c`; `d` as `c`) for a shape and
    /// element type, all without dots ([`table::WMMA_FRAGMENTS`]).
    pub fn wmma_fragment(&self, matrix: &str, shape: &str, ty: &str) -> Option<usize> {
        let matrix = if matrix == "d" { "c" } else { matrix };
        table::WMMA_FRAGMENTS.lines().find_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [m, s, t, n] if m == matrix && s == shape && t == ty => n.parse().ok(),
            _ => None,
        })
    }

    /// How `wmma.load`/`wmma.store` of `matrix` (`a` … `d`) with `shape` takes type `ty` (no
    /// dots), by [`table::WMMA_TYPES`] and [`table::WMMA_FRAGMENTS`].
    pub fn wmma_type(&self, matrix: &str, shape: &str, ty: &str) -> WmmaType {
        let row = table::WMMA_TYPES.lines().find_map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            let [ms, legal, illegal] = c[..] else { return None };
            ms.split_whitespace().any(|m| m == matrix).then_some((legal, illegal))
        });
        let Some((legal, illegal)) = row else { return WmmaType::Fits };
        if illegal.split_whitespace().any(|t| t == ty) {
            return WmmaType::Illegal;
        }
        if !legal.split_whitespace().any(|t| t == ty) {
            return WmmaType::Unexpected;
        }
        let m = if matrix == "d" { "c" } else { matrix };
        let rows: Vec<Vec<&str>> = table::WMMA_FRAGMENTS
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|r| r.len() == 4 && r[0] == m && r[1] == shape)
            .collect();
        if rows.is_empty() || rows.iter().any(|r| r[2] == ty) {
            return WmmaType::Fits;
        }
        let sub_byte = |t: &str| matches!(t, "s4" | "u4" | "b1");
        let int_only = rows.iter().all(|r| matches!(r[2], "s4" | "u4" | "b1" | "s32"));
        if ty == "f64" || (m == "c" && int_only) {
            WmmaType::VectorSize
        } else if sub_byte(ty) && !rows.iter().any(|r| sub_byte(r[2])) {
            WmmaType::UnexpectedTwice
        } else {
            WmmaType::WrongForShape
        }
    }

    /// Whether an immediate destination answers `Result register required`
    /// ([`table::RESULT_REGISTER`]).
    pub fn result_register_checked(&self, opcode: &str) -> bool {
        table::RESULT_REGISTER.split_whitespace().any(|o| o == opcode)
    }

    /// Whether the opcode's first operand is a destination that must not be a special
    /// register ([`table::SREG_READERS`]).
    pub fn sreg_dest_checked(&self, opcode: &str) -> bool {
        table::SREG_READERS.split_whitespace().any(|o| o == opcode)
    }

    /// Whether the opcode takes special registers as source operands
    /// ([`table::SREG_OPERANDS`]; `cvt` only between integer types, checked by the caller).
    pub fn sreg_operands_allowed(&self, opcode: &str) -> bool {
        table::SREG_OPERANDS.split_whitespace().any(|o| o == opcode)
    }

    /// Whether the opcode accepts `-reg` operands ([`table::NEGATABLE`]).
    pub fn negation_allowed(&self, opcode: &str) -> bool {
        table::NEGATABLE.split_whitespace().any(|o| o == opcode)
    }

    /// Every opcode (for generators and tests).
    pub fn opcodes(&self) -> impl Iterator<Item = &OpSpec> {
        self.ops.values()
    }
}

/// Families of modifiers that carry numbers (`.m16n8k16`, `.x4`, `.v8`, `.num`, shapes).
fn is_numbered_modifier(t: &str) -> bool {
    table::SHAPES.split_whitespace().any(|s| s == t)
        || matches!(t, "x1" | "x2" | "x4" | "x8" | "x16" | "x32" | "x64" | "x128" | "v2" | "v4" | "v8")
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
        assert_eq!(isa.rounding_rule("div", "f32"), Some("A"));
        assert_eq!(isa.rounding_rule("add", "f32"), None);
        assert_eq!(isa.cvt_rounding("s32", "f32"), Some('I'));
        assert_eq!(isa.cvt_rounding("f32", "bf16"), Some('f'));
        assert_eq!(isa.cvt_rounding("f32", "f64"), Some('F'));
        assert_eq!(isa.cvt_rounding("f64", "f32"), Some('N'));
        assert_eq!(isa.cvt_rounding("b32", "f32"), None);
        let mul = isa.lookup("mul").expect("mul");
        assert_eq!(mul.signature(&[".wide", ".s32"]).map(<[_]>::len), Some(3));
        assert_eq!(mul.signature(&[".wide", ".s32"]).and_then(|s| s.first().copied()), Some(OperandKind::WideDest));
        assert_eq!(mul.display_name(&[".wide", ".s32"]), "mul.wide");
        assert!(isa.is_known_modifier(".m16n8k16"));
        assert!(!isa.is_known_modifier(".f33"));
        assert!(isa.expands_macro_util("div", &[".rn", ".f32"], Some("f32"), 86));
        assert!(!isa.expands_macro_util("div", &[".approx", ".f32"], Some("f32"), 86));
        assert!(!isa.expands_macro_util("rsqrt", &[".approx", ".ftz", ".f64"], Some("f64"), 86));
        assert!(isa.expands_macro_util("shfl", &[".sync", ".idx", ".b32"], Some("b32"), 89));
        assert!(!isa.expands_macro_util("shfl", &[".sync", ".idx", ".b32"], Some("b32"), 90));
    }

    #[test]
    fn gate_matching() {
        let g = Gate {
            pattern: "cp.async.bulk",
            sm: 90,
            ptx: 80,
            style: GateStyle::FeatureSmFirst,
            feature: "x",
            instruction: "x",
            additive: false,
        };
        assert!(g.matches("cp", &[".async", ".bulk", ".shared::cluster"]));
        assert!(!g.matches("cp", &[".async", ".ca"]));
        let n = Gate {
            pattern: "shfl.~sync",
            sm: 0,
            ptx: 0,
            style: GateStyle::FeatureSmFirst,
            feature: "x",
            instruction: "x",
            additive: false,
        };
        assert!(n.matches("shfl", &[".up"]));
        assert!(!n.matches("shfl", &[".sync", ".up"]));
    }
}
