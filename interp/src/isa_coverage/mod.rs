//! The PTX ISA coverage report's generator (issue 23): one *probe* kernel per instruction form
//! of the PTX instruction table, so that NVIDIA ptxas's verdict and each of our stages (front
//! end, lowering, interpreter, sm_90 selection) can be counted form by form.
//!
//! The table is `corpus/isa/instructions.tsv` (the instruction list of ptxas 13.0.88 as the
//! project's reference catalogues it, transcribed once): [`rows`] parses it. A *form* is a row
//! crossed with one of its type suffixes ([`Row::types`]; a row without types is one form).
//! [`plan`] makes, per form, either probes or a [`NoProbe`] saying why none exists:
//!
//! - rows of the ALU families reuse the form sweep's cases ([`crate::forms::families`]): the
//!   first all-register case whose opcode spells the row's mnemonic and type (a `rnd` in the
//!   mnemonic stands for any rounding modifier); failing that, a [`crate::forms::Case`] made
//!   from the row's operand pattern;
//! - every other category has a template ([`templates`]): a kernel in the common frame (one
//!   input and one output `.u64` buffer pointer, 128 threads, a 16-byte slot per thread) with the
//!   set-up the instruction needs (shared buffers, mbarriers, texture references, tensor-core
//!   fragments, called functions) and the result stored to the output so it is observable;
//! - `cvt`, catalogued as one row "all int/float combinations", gets one probe per distinct
//!   destination/source type pair of the form sweep's `cvt` cases.
//!
//! Each probe names the target it is judged on ([`Probe::arch`]): `sm_90a`, or `sm_100a` for a
//! row whose minimum SM is above 90 (a template may name another, e.g. `sm_100a` for `st.bulk`,
//! which ptxas 13.0.88 refuses below sm_100 although the table says sm_90).
//!
//! Where the table's spelling leaves modifiers open (`fma.f32` needs a rounding, `rcp.approx.f64`
//! a `.ftz`), a probe has *alternatives* ([`Probe::alt`] > 0): further sweep cases of the same
//! form, most plain first. The driver keeps the first alternative NVIDIA ptxas accepts (or the
//! first one, rejected, when it accepts none), so the choice of modifiers is ptxas's, not a
//! guess.
//!
//! Invariants:
//! - Deterministic: the same build plans the same probes, in table order, with the same text.
//! - Probe names are unique PTX identifiers and prefix every module-scope symbol a probe
//!   declares, so any set of probes of one target concatenates into one valid module.
//! - Every form of every non-internal row appears in the plan, as probes or as a `NoProbe`;
//!   internal (`_`-prefixed) rows are counted by [`internal`], never probed.
//! - Every probe has a launch spec (the interpreter's verdict is decided by running it).

pub mod templates;

use std::collections::HashSet;

use crate::forms::{self, Case, OperandKind, Slot};
use crate::launch::LaunchSpec;

/// The instruction table, as committed.
pub const TABLE: &str = include_str!("../../../corpus/isa/instructions.tsv");

/// Threads per probe launch (one CTA, 4 warps: a warpgroup for `wgmma`).
pub const THREADS: usize = 128;

/// Bytes of each thread's slot in the input and output buffers.
pub const SLOT: usize = 16;

/// One row of the instruction table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Index among the non-internal rows (table order).
    pub index: usize,
    /// The category (`Load, Store, and Memory > Async Copy`).
    pub category: String,
    /// The mnemonic with its fixed modifiers (`mul.lo`, `cp.async.bulk`).
    pub mnemonic: String,
    /// The type suffixes, with their dot (`.s32`); empty when the row has none. A parenthesised
    /// catalogue word (`(packed-pairs)`) is kept as one entry; `(same)` and `(same as X)` are
    /// expanded to the types of the row they refer to.
    pub types: Vec<String>,
    /// The operand pattern as catalogued (`d, a, b`).
    pub operands: String,
    /// Minimum SM (0: all).
    pub sm: u32,
    /// Minimum PTX ISA version.
    pub ptx: String,
}

impl Row {
    /// The top-level category (before ` > `).
    pub fn main_category(&self) -> &str {
        self.category.split(" > ").next().unwrap_or(&self.category)
    }
    /// The forms of this row: its types, or one empty type.
    pub fn forms(&self) -> Vec<String> {
        if self.types.is_empty() { vec![String::new()] } else { self.types.clone() }
    }
    /// The target a probe of this row is judged on.
    pub fn arch(&self) -> &'static str {
        if self.sm > 90 { "sm_100a" } else { "sm_90a" }
    }
}

/// The non-internal rows of [`TABLE`], in order.
pub fn rows() -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    for line in TABLE.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 6 || f[0] == "internal" {
            continue;
        }
        let types = match f[2] {
            "--" => vec![],
            t if t.starts_with("(same") => {
                let of = t.trim_start_matches("(same").trim_start_matches(" as ").trim_end_matches(')');
                let src = out.iter().rev().find(|r| {
                    if of.is_empty() { !r.types.is_empty() && !r.types[0].starts_with('(') } else { r.mnemonic == of }
                });
                src.map(|r| r.types.clone()).unwrap_or_default()
            }
            t if t.starts_with('(') || !t.starts_with('.') => vec![t.to_string()],
            t => t.split(' ').map(str::to_string).collect(),
        };
        out.push(Row {
            index: out.len(),
            category: f[0].to_string(),
            mnemonic: f[1].to_string(),
            types,
            operands: f[3].to_string(),
            sm: f[4].parse().unwrap_or(0),
            ptx: f[5].to_string(),
        });
    }
    out
}

/// The internal (`_`-prefixed) mnemonics the table lists; never probed.
pub fn internal() -> Vec<String> {
    TABLE
        .lines()
        .filter(|l| l.starts_with("internal\t"))
        .filter_map(|l| l.split('\t').nth(1))
        .map(str::to_string)
        .collect()
}

/// One probe: a kernel exercising one form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Entry name (unique; prefixes the probe's module-scope symbols).
    pub name: String,
    /// The probe's name without the alternative suffix: alternatives of one probe share it.
    pub base: String,
    /// 0 for the preferred text, 1.. for the alternatives.
    pub alt: usize,
    /// The row's index ([`Row::index`]).
    pub row: usize,
    /// The form's type suffix (empty for none).
    pub ty: String,
    /// The target it is judged on (`sm_90a` or `sm_100a`).
    pub arch: &'static str,
    /// The probed instruction as written in the kernel (for the report).
    pub instruction: String,
    /// Module-scope declarations and the `.entry`.
    pub entry: String,
    /// The launch spec (TOML).
    pub spec_toml: String,
}

impl Probe {
    /// The probe alone as a module.
    pub fn module_text(&self) -> String {
        format!("{}{}", forms::header(self.arch), self.entry)
    }
    /// The parsed launch spec.
    pub fn spec(&self) -> LaunchSpec {
        LaunchSpec::from_toml_str_named(&self.spec_toml, &format!("{}.run.toml", self.name))
            .unwrap_or_else(|e| panic!("the generated spec of {} does not parse: {e}", self.name))
    }
}

/// A form without a probe, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoProbe {
    /// The row's index.
    pub row: usize,
    /// The form's type suffix.
    pub ty: String,
    /// Why there is no probe.
    pub why: String,
}

/// The plan of one form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Planned {
    /// Probes of the form (one, or several for `cvt`), alternatives included.
    Probes(Vec<Probe>),
    /// No probe.
    None(NoProbe),
}

/// Every form of every row with its probes, in table order.
pub fn plan() -> (Vec<Row>, Vec<(usize, String, Planned)>) {
    let rows = rows();
    let sweep = forms::families::all();
    let mut names = HashSet::new();
    let mut out = Vec::new();
    for row in &rows {
        for ty in row.forms() {
            let planned = match probes_for(row, &ty, &sweep) {
                Ok(list) => {
                    let mut probes = Vec::new();
                    for (i, alts) in list.into_iter().enumerate() {
                        let mut base = format!("r{:03}_{}", row.index, ident(&format!("{}{}", row.mnemonic, ty)));
                        if i > 0 {
                            base = format!("{base}_{i}");
                        }
                        for (alt, body) in alts.into_iter().enumerate() {
                            let name = if alt == 0 { base.clone() } else { format!("{base}_a{alt}") };
                            assert!(names.insert(name.clone()), "duplicate probe name {name}");
                            let mut p = body.into_probe(name, row, &ty);
                            p.base = base.clone();
                            p.alt = alt;
                            probes.push(p);
                        }
                    }
                    Planned::Probes(probes)
                }
                Err(why) => Planned::None(NoProbe { row: row.index, ty: ty.clone(), why }),
            };
            out.push((row.index, ty, planned));
        }
    }
    (rows, out)
}

/// Every probe of the plan, alternatives included, in order.
pub fn probes() -> Vec<Probe> {
    plan().1.into_iter().flat_map(|(_, _, p)| if let Planned::Probes(v) = p { v } else { vec![] }).collect()
}

/// A deterministic sample: the probes whose base name hashes to 0 modulo `n`, plus every probe
/// of the rows whose index is a multiple of `n` (so each category keeps some); alternatives go
/// with their probe.
pub fn sample(n: u64) -> Vec<Probe> {
    probes()
        .into_iter()
        .filter(|p| forms::fnv1a(p.base.as_bytes()).is_multiple_of(n) || (p.row as u64).is_multiple_of(n))
        .collect()
}

/// The most alternatives a probe gets.
pub const MAX_ALTERNATIVES: usize = 6;

/// `s` with every non-identifier character replaced by `_`.
pub fn ident(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect::<String>().trim_matches('_').to_string()
}

/// What a template or the sweep provides before the probe is named.
pub enum Body {
    /// A form-sweep case (its own frame and spec).
    Case(Case),
    /// A kernel in the common frame ([`templates::frame`]).
    Framed(templates::Framed),
}

impl Body {
    fn into_probe(self, name: String, row: &Row, ty: &str) -> Probe {
        let arch = row.arch();
        match self {
            Body::Case(mut c) => {
                c.name = name.clone();
                Probe {
                    base: name.clone(),
                    alt: 0,
                    instruction: c.instruction(),
                    entry: c.entry_text(),
                    spec_toml: c.spec_toml(),
                    name,
                    row: row.index,
                    ty: ty.to_string(),
                    arch,
                }
            }
            Body::Framed(f) => Probe {
                base: name.clone(),
                alt: 0,
                arch: f.arch.unwrap_or(arch),
                instruction: f.instruction.clone(),
                entry: templates::frame(&name, &f),
                spec_toml: templates::spec_toml(&name),
                name,
                row: row.index,
                ty: ty.to_string(),
            },
        }
    }
}

/// The probes of one form, each with its alternatives (preferred first).
fn probes_for(row: &Row, ty: &str, sweep: &[Case]) -> Result<Vec<Vec<Body>>, String> {
    let cases = |v: Vec<Case>| v.into_iter().map(Body::Case).collect::<Vec<_>>();
    if row.mnemonic == "cvt" {
        return Ok(cvt_pairs(sweep).into_iter().map(cases).collect());
    }
    if let Some(t) = templates::template(row, ty) {
        return t.map(|v| v.into_iter().map(|f| vec![Body::Framed(f)]).collect());
    }
    if row.mnemonic == "slct" {
        // `slct.dtype.s32` / `slct.dtype.f32`: the selector's type follows the value type.
        let t = ty.trim_start_matches('.');
        let case = |sel: &str| Case {
            name: String::new(),
            family: "isa",
            opcode: format!("slct.{t}.{sel}"),
            dests: vec![Slot::reg(t)],
            srcs: vec![Slot::reg(t), Slot::reg(t), Slot::reg(sel)],
            fixed: vec![],
            kind: OperandKind::Reg,
            pair_dest: false,
        };
        return Ok(vec![vec![Body::Case(case("s32")), Body::Case(case("f32"))]]);
    }
    let found = sweep_cases(row, ty, sweep);
    if !found.is_empty() {
        return Ok(vec![cases(found)]);
    }
    pattern_case(row, ty).map(|c| vec![vec![Body::Case(c)]])
}

/// The all-register form-sweep cases spelling `row`'s mnemonic with type `ty`, fewest modifiers
/// first (at most [`MAX_ALTERNATIVES`]).
fn sweep_cases(row: &Row, ty: &str, sweep: &[Case]) -> Vec<Case> {
    let want: Vec<&str> = row.mnemonic.split('.').collect();
    let tys: Vec<&str> = ty.split('.').filter(|t| !t.is_empty()).collect();
    let found: Vec<Case> = sweep
        .iter()
        .filter(|c| c.kind == OperandKind::Reg)
        .filter(|c| {
            let toks: Vec<&str> = c.opcode.split('.').collect();
            toks.len() > tys.len() && toks[0] == want[0] && toks[toks.len() - tys.len()..] == tys[..] && {
                let mods = &toks[1..toks.len() - tys.len()];
                let mut it = mods.iter();
                want[1..].iter().all(|w| it.any(|m| m == w || *w == "rnd" && ["rn", "rz", "rm", "rp"].contains(m)))
            }
        })
        .cloned()
        .collect();
    plainest(found)
}

/// `cases` with one per opcode, fewest modifiers first (round-to-nearest before the directed
/// roundings), at most [`MAX_ALTERNATIVES`].
fn plainest(mut cases: Vec<Case>) -> Vec<Case> {
    let nearest = |c: &Case| !c.opcode.split('.').any(|m| m == "rn" || m == "rni");
    cases.sort_by_key(|c| (c.opcode.split('.').count(), nearest(c), c.opcode.clone()));
    cases.dedup_by(|a, b| a.opcode == b.opcode);
    cases.truncate(MAX_ALTERNATIVES);
    cases
}

/// A case from the operand pattern alone: every operand a register of type `ty`.
fn pattern_case(row: &Row, ty: &str) -> Result<Case, String> {
    let t = ty.trim_start_matches('.');
    if t.is_empty() || t.contains('.') || t.starts_with('(') {
        return Err(format!("no template for `{}` and type `{ty}`", row.mnemonic));
    }
    let slot = if t == "pred" { Slot::Pred } else { Slot::reg(t) };
    let n = match row.operands.as_str() {
        "d, a" => 1,
        "d, a, b" => 2,
        "d, a, b, c" => 3,
        o => return Err(format!("no template for operands `{o}`")),
    };
    // `mad.cc` is spelled `mad.lo.cc` (the `.cc` forms have no default half).
    let mnemonic = row.mnemonic.replace(".rnd", ".rn").replace("mad.cc", "mad.lo.cc");
    let wide = mnemonic.contains(".wide");
    let dslot = if wide { Slot::reg(&widen(t)) } else { slot.clone() };
    let mut srcs = vec![slot.clone(); n];
    if wide && n == 3 {
        srcs[2] = dslot.clone();
    }
    Ok(Case {
        name: String::new(),
        family: "isa",
        opcode: format!("{mnemonic}.{t}"),
        dests: vec![dslot],
        srcs,
        fixed: vec![],
        kind: OperandKind::Reg,
        pair_dest: false,
    })
}

fn widen(t: &str) -> String {
    let (class, bits) = t.split_at(1);
    format!("{class}{}", bits.parse::<u32>().unwrap_or(32) * 2)
}

/// The all-register `cvt` cases of the sweep grouped by destination/source type pair (in
/// first-seen order; at most [`MAX_ALTERNATIVES`] per pair, fewest modifiers first).
fn cvt_pairs(sweep: &[Case]) -> Vec<Vec<Case>> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: std::collections::HashMap<String, Vec<Case>> = std::collections::HashMap::new();
    for c in sweep
        .iter()
        .filter(|c| c.kind == OperandKind::Reg && c.opcode.starts_with("cvt.") && !c.opcode.contains(".pack"))
    {
        let toks: Vec<&str> = c.opcode.split('.').collect();
        let pair = toks[toks.len().saturating_sub(2)..].join(".");
        if !groups.contains_key(&pair) {
            order.push(pair.clone());
        }
        groups.entry(pair).or_default().push(c.clone());
    }
    order.into_iter().map(|p| plainest(groups.remove(&p).unwrap_or_default())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_is_planned_once_and_deterministically() {
        let (rows, plan) = plan();
        let forms: usize = rows.iter().map(|r| r.forms().len()).sum();
        assert_eq!(plan.len(), forms);
        assert_eq!(plan, super::plan().1, "two plans differ");
        for r in &rows {
            assert!(!r.mnemonic.starts_with('_'), "internal row {} probed", r.mnemonic);
            assert!(!r.category.is_empty() && !r.operands.is_empty(), "row {} incomplete", r.index);
        }
        assert!(internal().iter().all(|m| m.starts_with('_')));
    }

    #[test]
    fn probes_are_named_uniquely_and_carry_specs() {
        let probes = probes();
        let mut names = HashSet::new();
        for p in &probes {
            assert!(names.insert(p.name.clone()), "duplicate {}", p.name);
            assert!(p.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{}", p.name);
            assert!(p.name.starts_with(&p.base));
            assert!(!p.entry.contains('$'), "{} keeps a template placeholder", p.name);
            assert!(p.entry.contains(&format!(".entry {}(", p.name)));
            assert_eq!(p.spec().kernel, p.name);
        }
    }
}
