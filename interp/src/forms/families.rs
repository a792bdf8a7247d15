//! The sweep's cases, family by family: opcodes of the PTX instruction table, their legal
//! types ([`OpSpec::types_for`]), the modifier axes below crossed and filtered by the table's
//! vocabulary ([`OpSpec::accepts`]), operand slots from the table's signature
//! ([`OpSpec::signature`]), and the operand kinds of [`OperandKind`].
//!
//! The table is deliberately generous; what ptxas 13.0.88 really accepts per target is decided
//! by ptxas itself (the sweep driver drops the cases it rejects, per target), so the axes may
//! list combinations that turn out illegal.
//!
//! Families (one PTX module per family and target): `int` (integer arithmetic), `bits`
//! (logic, shifts, bit fields, permutes), `float` (f32/f64), `half` (f16, f16x2, bf16,
//! bf16x2), `compare` (setp, set, selp, slct, testp), `cvt` (with the fp8 and `.satfinite`
//! packing forms).

use std::collections::HashSet;

use ptxas_rs::ptx::isa::{Isa, OpSpec, OperandKind as Sig};

use super::{Case, OperandKind, Slot};

/// The family names, in enumeration order.
pub const FAMILIES: &[&str] = &["int", "bits", "float", "half", "compare", "cvt"];

const ROUND: &[&str] = &["", "rn", "rz", "rm", "rp"];
const FTZ: &[&str] = &["", "ftz"];
const SAT: &[&str] = &["", "sat"];
const INT_TYPES: &[&str] = &["s16", "u16", "s32", "u32", "s64", "u64"];
const HALF_TYPES: &[&str] = &["f16", "f16x2", "bf16", "bf16x2"];

/// Every case of the sweep, deterministic, names unique.
pub fn all() -> Vec<Case> {
    let mut g = Gen::default();
    int(&mut g);
    bits(&mut g);
    floats(&mut g);
    compare(&mut g);
    cvt(&mut g);
    g.cases
}

/// The cases of one family.
pub fn family(name: &str) -> Vec<Case> {
    all().into_iter().filter(|c| c.family == name).collect()
}

/// A deterministic sample: about one case in `n` of every family (chosen by a hash of the
/// name, so adding cases does not reshuffle the others).
pub fn sample(n: u64) -> Vec<Case> {
    all().into_iter().filter(|c| super::fnv1a(c.name.as_bytes()) % n == 0).collect()
}

#[derive(Default)]
struct Gen {
    cases: Vec<Case>,
    names: HashSet<String>,
}

impl Gen {
    fn push(&mut self, mut c: Case) {
        let base = format!("{}__{}", c.opcode.replace('.', "_"), c.kind.tag());
        let mut name = base.clone();
        let mut n = 1;
        while self.names.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.names.insert(name.clone());
        c.name = name;
        self.cases.push(c);
    }

    /// `c` in every operand kind: registers, a guard, and small/full immediates in the last
    /// non-predicate source (and, for three or more sources, a full immediate in the second).
    fn kinds(&mut self, c: Case, immediates: bool) {
        let regs: Vec<usize> = (0..c.srcs.len()).filter(|&i| c.srcs[i] != Slot::Pred).collect();
        let mut kinds = vec![OperandKind::Reg, OperandKind::Guard];
        if immediates && regs.len() >= 2 {
            let last = *regs.last().unwrap();
            kinds.push(OperandKind::SmallImm(last));
            kinds.push(OperandKind::FullImm(last));
            if regs.len() >= 3 {
                kinds.push(OperandKind::FullImm(regs[1]));
            }
        }
        for k in kinds {
            self.push(Case { kind: k, ..c.clone() });
        }
    }
}

fn spec(op: &str) -> &'static OpSpec {
    Isa::get().lookup(op).unwrap_or_else(|| panic!("{op} is not in the PTX instruction table"))
}

/// Every combination of the axes (one word per axis, `""` = absent), as dotted modifiers.
fn combos(axes: &[&[&str]]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for axis in axes {
        let mut next = Vec::new();
        for c in &out {
            for w in *axis {
                let mut c = c.clone();
                if !w.is_empty() {
                    c.extend(w.split('.').map(|p| format!(".{p}")));
                }
                next.push(c);
            }
        }
        out = next;
    }
    out
}

/// The type twice as wide (`mul.wide`, `mad.wide`).
fn wide(ty: &str) -> String {
    let (class, bits) = ty.split_at(1);
    let bits: u32 = bits.parse().unwrap_or(32);
    format!("{class}{}", bits * 2)
}

/// Cases of `op` over the axes, for the table's types of each combination that `keep`
/// allows, with slots from the table's signature.
fn table_op(g: &mut Gen, family: fn(&str) -> &'static str, op: &str, axes: &[&[&str]], keep: fn(&str) -> bool) {
    let s = spec(op);
    for mods in combos(axes) {
        let m: Vec<&str> = mods.iter().map(String::as_str).collect();
        let Some(sig) = s.signature(&m) else { continue };
        for ty in s.types_for(&m).iter().map(|t| t.trim_start_matches('.')) {
            if !keep(ty) || !m.iter().all(|x| s.accepts(x, Some(ty))) {
                continue;
            }
            let Some((dests, srcs, fixed)) = slots(sig, ty) else { continue };
            let opcode = format!("{op}{}.{ty}", mods.concat());
            let c = Case {
                name: String::new(),
                family: family(ty),
                opcode,
                dests,
                srcs,
                fixed,
                kind: OperandKind::Reg,
                pair_dest: false,
            };
            let imm = !HALF_TYPES.contains(&ty);
            g.kinds(c, imm);
        }
    }
}

/// Destination, source slots and fixed operands of a signature (required operands only).
fn slots(sig: &[Sig], ty: &str) -> Option<(Vec<Slot>, Vec<Slot>, Vec<String>)> {
    let (mut dests, mut srcs, mut fixed) = (Vec::new(), Vec::new(), Vec::new());
    for (i, k) in sig.iter().enumerate() {
        let slot = match k {
            Sig::Dest | Sig::Src => Slot::reg(ty),
            Sig::WideDest | Sig::WideSrc => Slot::reg(&wide(ty)),
            Sig::Pred | Sig::PredSrc => Slot::Pred,
            Sig::U32Src | Sig::U32Dest => Slot::reg("u32"),
            Sig::IntImm => {
                fixed.push("0x96".to_string());
                continue;
            }
            _ => return None,
        };
        if i == 0 { dests.push(slot) } else { srcs.push(slot) }
    }
    Some((dests, srcs, fixed))
}

fn is_int(t: &str) -> bool {
    INT_TYPES.contains(&t) || matches!(t, "s16x2" | "u16x2")
}
fn is_half(t: &str) -> bool {
    HALF_TYPES.contains(&t)
}
fn is_float(t: &str) -> bool {
    matches!(t, "f32" | "f64")
}
fn any(_: &str) -> bool {
    true
}
fn float_family(t: &str) -> &'static str {
    if is_half(t) { "half" } else { "float" }
}
fn int_family(_: &str) -> &'static str {
    "int"
}
fn bits_family(_: &str) -> &'static str {
    "bits"
}

fn int(g: &mut Gen) {
    for op in ["add", "sub"] {
        table_op(g, int_family, op, &[SAT], is_int);
    }
    for op in ["mul", "mad"] {
        table_op(g, int_family, op, &[&["hi", "lo", "wide"], SAT], is_int);
    }
    for op in ["mul24", "mad24"] {
        table_op(g, int_family, op, &[&["hi", "lo"], SAT], is_int);
    }
    for op in ["sad", "div", "rem", "abs", "neg"] {
        table_op(g, int_family, op, &[], is_int);
    }
    for op in ["min", "max"] {
        table_op(g, int_family, op, &[&["", "relu"]], is_int);
    }
}

fn bits(g: &mut Gen) {
    for op in ["popc", "clz", "brev", "bfe", "bfi", "and", "or", "xor", "not", "cnot", "shl", "shr"] {
        table_op(g, bits_family, op, &[], |t| t != "pred");
    }
    table_op(g, bits_family, "bfind", &[&["", "shiftamt"]], any);
    table_op(g, bits_family, "prmt", &[&["", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]], any);
    table_op(g, bits_family, "shf", &[&["l", "r"], &["clamp", "wrap"]], any);
    // lop3 with a few truth tables (xor3, majority, and3, a & ~b | c).
    for lut in ["0x96", "0xe8", "0x80", "0xf4"] {
        let c = Case {
            name: String::new(),
            family: "bits",
            opcode: "lop3.b32".into(),
            dests: vec![Slot::reg("b32")],
            srcs: vec![Slot::reg("b32"); 3],
            fixed: vec![lut.into()],
            kind: OperandKind::Reg,
            pair_dest: false,
        };
        g.kinds(c, true);
    }
}

fn floats(g: &mut Gen) {
    let keep = |t: &str| is_float(t) || is_half(t);
    for op in ["add", "sub", "mul"] {
        table_op(g, float_family, op, &[ROUND, FTZ, SAT], keep);
    }
    for op in ["fma", "mad"] {
        table_op(g, float_family, op, &[ROUND, FTZ, SAT, &["", "relu"]], keep);
    }
    table_op(g, float_family, "div", &[&["", "approx", "full", "rn", "rz", "rm", "rp"], FTZ], is_float);
    for op in ["rcp", "sqrt"] {
        table_op(g, float_family, op, &[&["approx", "rn", "rz", "rm", "rp"], FTZ], keep);
    }
    for op in ["rsqrt", "sin", "cos", "lg2", "ex2"] {
        table_op(g, float_family, op, &[&["approx"], FTZ], keep);
    }
    table_op(g, float_family, "tanh", &[&["approx"]], keep);
    for op in ["min", "max"] {
        table_op(g, float_family, op, &[FTZ, &["", "NaN"], &["", "xorsign.abs"]], keep);
    }
    for op in ["abs", "neg"] {
        table_op(g, float_family, op, &[FTZ], keep);
    }
    table_op(g, float_family, "copysign", &[], keep);
}

fn compare(g: &mut Gen) {
    let isa = Isa::get();
    // setp: every comparison of every type, plain, with a boolean combine, and the p|q form.
    let s = spec("setp");
    for ty in s.types_for(&[]).iter().map(|t| t.trim_start_matches('.')) {
        let Some(cmps) = isa.comparisons("setp", ty) else { continue };
        for cmp in cmps {
            for ftz in FTZ {
                for bop in ["", "and", "or", "xor"] {
                    let mut opcode = format!("setp.{cmp}");
                    for m in [bop, ftz] {
                        if !m.is_empty() {
                            opcode.push('.');
                            opcode.push_str(m);
                        }
                    }
                    if !ftz.is_empty() && !s.accepts(".ftz", Some(ty)) {
                        continue;
                    }
                    opcode.push('.');
                    opcode.push_str(ty);
                    let mut srcs = vec![Slot::reg(ty), Slot::reg(ty)];
                    if !bop.is_empty() {
                        srcs.push(Slot::Pred);
                    }
                    let c = Case {
                        name: String::new(),
                        family: "compare",
                        opcode: opcode.clone(),
                        dests: vec![Slot::Pred],
                        srcs: srcs.clone(),
                        fixed: vec![],
                        kind: OperandKind::Reg,
                        pair_dest: false,
                    };
                    g.kinds(c, !is_half(ty) && bop.is_empty());
                    if ftz.is_empty() && bop.is_empty() {
                        g.push(Case {
                            name: String::new(),
                            family: "compare",
                            opcode,
                            dests: vec![Slot::Pred, Slot::Pred],
                            srcs,
                            fixed: vec![],
                            kind: OperandKind::Reg,
                            pair_dest: true,
                        });
                    }
                }
            }
        }
    }
    // set: the result types u32, s32, f32 (and the half ones) from every source type.
    for sty in ["u32", "s32", "u64", "s64", "f32", "f64", "f16", "f16x2", "bf16", "bf16x2", "b32"] {
        let Some(cmps) = isa.comparisons("set", sty) else { continue };
        for dty in ["u32", "s32", "f32", "f16", "f16x2", "bf16", "bf16x2"] {
            for cmp in &cmps {
                for ftz in FTZ {
                    if !ftz.is_empty() && !matches!(sty, "f32" | "f16" | "f16x2") {
                        continue;
                    }
                    let ftz = if ftz.is_empty() { String::new() } else { ".ftz".into() };
                    let c = Case {
                        name: String::new(),
                        family: "compare",
                        opcode: format!("set.{cmp}{ftz}.{dty}.{sty}"),
                        dests: vec![Slot::reg(dty)],
                        srcs: vec![Slot::reg(sty), Slot::reg(sty)],
                        fixed: vec![],
                        kind: OperandKind::Reg,
                        pair_dest: false,
                    };
                    g.push(c);
                }
            }
        }
    }
    table_op(g, |_| "compare", "selp", &[], any);
    // slct: every destination type with an s32 or f32 selector.
    for dty in ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64"] {
        for (sel, ftz) in [("s32", ""), ("f32", ""), ("f32", ".ftz")] {
            let c = Case {
                name: String::new(),
                family: "compare",
                opcode: format!("slct{ftz}.{dty}.{sel}"),
                dests: vec![Slot::reg(dty)],
                srcs: vec![Slot::reg(dty), Slot::reg(dty), Slot::reg(sel)],
                fixed: vec![],
                kind: OperandKind::Reg,
                pair_dest: false,
            };
            g.kinds(c, true);
        }
    }
    table_op(g, |_| "compare", "testp", &[&["finite", "infinite", "number", "notanumber", "normal", "subnormal"]], any);
}

fn cvt(g: &mut Gen) {
    let isa = Isa::get();
    const TYPES: &[&str] = &["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f16", "bf16", "f32", "f64"];
    for &dst in TYPES {
        for &src in TYPES {
            let rounds: Vec<&str> = match isa.cvt_rounding(dst, src) {
                Some('I') => vec!["rni", "rzi", "rmi", "rpi"],
                Some('i') => vec!["", "rni", "rzi", "rmi", "rpi"],
                Some('F') => vec!["rn", "rz", "rm", "rp", "rna"],
                Some('f') => vec!["", "rn", "rz", "rm", "rp"],
                _ => vec![""],
            };
            let f32_involved = dst == "f32" || src == "f32";
            let relu = matches!(dst, "f16" | "bf16") && src == "f32";
            for r in &rounds {
                for ftz in if f32_involved { FTZ } else { &[""] } {
                    for sat in SAT {
                        for re in if relu { &["", "relu"][..] } else { &[""] } {
                            let mods: String = [*r, *ftz, *sat, *re]
                                .iter()
                                .filter(|m| !m.is_empty())
                                .map(|m| format!(".{m}"))
                                .collect();
                            let c = Case {
                                name: String::new(),
                                family: "cvt",
                                opcode: format!("cvt{mods}.{dst}.{src}"),
                                dests: vec![Slot::reg(dst)],
                                srcs: vec![Slot::reg(src)],
                                fixed: vec![],
                                kind: OperandKind::Reg,
                                pair_dest: false,
                            };
                            g.kinds(c, false);
                        }
                    }
                }
            }
        }
    }
    // The packing conversions: two f32 into f16x2 / bf16x2.
    for dst in ["f16x2", "bf16x2"] {
        for r in ["rn", "rz", "rm", "rp"] {
            for re in ["", ".relu"] {
                for sat in ["", ".satfinite"] {
                    let c = Case {
                        name: String::new(),
                        family: "cvt",
                        opcode: format!("cvt.{r}{re}{sat}.{dst}.f32"),
                        dests: vec![Slot::reg(dst)],
                        srcs: vec![Slot::reg("f32"), Slot::reg("f32")],
                        fixed: vec![],
                        kind: OperandKind::Reg,
                        pair_dest: false,
                    };
                    g.kinds(c, true);
                }
            }
        }
    }
    // The fp8 conversions (fp8x2 registers are `.b16`: the fp8 pair's bits) and one f16/bf16
    // from an f32 with `.satfinite`.
    let case = |opcode: String, dests: Vec<Slot>, srcs: Vec<Slot>| Case {
        name: String::new(),
        family: "cvt",
        opcode,
        dests,
        srcs,
        fixed: vec![],
        kind: OperandKind::Reg,
        pair_dest: false,
    };
    for f8 in ["e4m3x2", "e5m2x2"] {
        for re in ["", ".relu"] {
            let b16 = || Slot::reg("b16");
            g.kinds(
                case(format!("cvt.rn.satfinite{re}.{f8}.f32"), vec![b16()], vec![Slot::reg("f32"), Slot::reg("f32")]),
                true,
            );
            g.kinds(case(format!("cvt.rn.satfinite{re}.{f8}.f16x2"), vec![b16()], vec![Slot::reg("f16x2")]), false);
            g.kinds(case(format!("cvt.rn{re}.f16x2.{f8}"), vec![Slot::reg("f16x2")], vec![b16()]), false);
        }
    }
    for dst in ["f16", "bf16"] {
        for r in ["rn", "rz"] {
            for re in ["", ".relu"] {
                g.kinds(
                    case(format!("cvt.{r}{re}.satfinite.{dst}.f32"), vec![Slot::reg(dst)], vec![Slot::reg("f32")]),
                    false,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_unique() {
        let a = all();
        let b = all();
        assert_eq!(a, b);
        let names: HashSet<_> = a.iter().map(|c| &c.name).collect();
        assert_eq!(names.len(), a.len());
        for f in FAMILIES {
            assert!(a.iter().any(|c| c.family == *f), "family {f} is empty");
        }
    }

    #[test]
    fn module_line_ranges_name_their_cases() {
        let cases = sample(200);
        let refs: Vec<&Case> = cases.iter().collect();
        let (text, ranges) = crate::forms::module_text(&refs, "sm_90");
        let lines: Vec<&str> = text.lines().collect();
        for (c, (a, b)) in refs.iter().zip(ranges) {
            assert_eq!(lines[a as usize - 1], format!(".visible .entry {}(", c.name));
            assert_eq!(lines[b as usize - 1], "}");
        }
    }

    #[test]
    fn specs_parse_and_match_parameters() {
        for c in sample(50) {
            let spec = c.spec();
            let reads = (0..c.srcs.len()).filter(|&i| c.reads(i)).count();
            assert_eq!(spec.params.len(), reads + c.dests.len(), "{}", c.name);
            assert!(c.module_text("sm_90").contains(&c.instruction()));
        }
    }
}
