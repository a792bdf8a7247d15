//! Integer, float, bit, compare/select, conversion and move instructions.
//!
//! Most PTX arithmetic maps one-to-one onto a PTX-stage Ori opcode with the same modifiers.
//! The rewrites, each exact:
//! - `mul.wide`/`mad.wide` on 16-bit types: operands widened to 32 bits (`cvt`), then `.lo`;
//!   `mul24.lo`/`mad24.lo`: operands cut to 24 bits (sign-extended for `.s32`), then `.lo`;
//!   `mul24.hi`/`mad24.hi`: operands shifted left by 8, then `.hi` (bits [16, 48) of the
//!   48-bit product).
//! - `add.cc`/`addc`/`sub.cc`/`subc`/`mad.cc`/`madc`: `addc`/`subc`/`madc` with the
//!   function's carry predicate in and out (a form without `.cc` writes a scratch predicate);
//!   the predicate is PTX's CC.CF, a carry also after a subtraction (1 = no borrow), so
//!   `sub.cc` is `subc` with carry in `PT`, `add.cc` `addc` with `!PT`.
//! - `cnot`: `setp.eq` + `selp`; `set`: `setp` + `selp` of all-ones / 1.0; `slct`: `setp.ge` +
//!   `selp`; `setp` with a boolean op or a second destination: `setp` then `and/or/xor.pred`.
//! - `min/max.xorsign.abs` is `min`/`max` with [`Flag::Xorsign`] (the flag implies the `|x|`).
//! - `prmt d, a, b, c` keeps PRMT's operand order (a, selector c, b).
//! - `mov` to or from a vector (`{lo, hi}`) packs or unpacks with shifts and conversions; `mov`
//!   of a symbol takes its address; a vector-to-vector `mov` is a parallel copy (sources that
//!   an earlier element overwrites are saved first).

use super::Result;
use super::func::{FnCx, cvt_mods};
use super::mods::PtxMods;
use super::types::{class_of_ty, ty_of};
use crate::ori::{BoolOp, Cmp, Dir, Flag, Half, Imm, Mods, Opcode, Operand, RegClass, RegUse, SubOp, Ty};
use crate::ptx::ast;

fn sub_of(w: &str) -> Option<SubOp> {
    SubOp::from_name(w)
}

impl FnCx<'_> {
    fn base_mods(&self, m: &PtxMods, ty: Ty) -> Mods {
        let mut md = Mods::ty(ty);
        md.rnd = m.rnd;
        for (f, flag) in [
            ("ftz", Flag::Ftz),
            ("sat", Flag::Sat),
            ("approx", Flag::Approx),
            ("full", Flag::Full),
            ("relu", Flag::Relu),
        ] {
            if m.has(f) {
                md.set(flag);
            }
        }
        if m.has("hi") {
            md.half = Some(Half::Hi);
        } else if m.has("wide") {
            md.half = Some(Half::Wide);
        } else if m.has("lo") {
            md.half = Some(Half::Lo);
        }
        md
    }

    fn srcs(&mut self, i: &ast::Instruction, from: usize, tys: &[Ty]) -> Result<Vec<Operand>> {
        let mut v = Vec::new();
        for (k, t) in tys.iter().enumerate() {
            let o = self.operand(i, from + k)?;
            v.push(self.src(o, *t)?);
        }
        Ok(v)
    }

    fn cc_reg(&mut self) -> crate::ori::VReg {
        match self.cc {
            Some(c) => c,
            None => {
                let c = self.tmp(RegClass::P);
                self.cc = Some(c);
                c
            }
        }
    }

    /// Arithmetic and bit instructions.
    pub(super) fn arith(&mut self, i: &ast::Instruction) -> Result<()> {
        let name = i.opcode.name.as_str();
        let mut m = PtxMods::of(i, false);
        if m.rest.iter().any(|w| w == "rna") {
            return self.err("rounding `.rna` is not supported");
        }
        if matches!(name, "dp4a" | "dp2a") {
            return self.dot(i, &m);
        }
        let ty = self.one_ty(&m.types)?;
        let d0 = self.operand(i, 0)?;
        let dclass = class_of_ty(ty);
        let simple = |op: Opcode| Some(op);
        let (op, n) = match name {
            "add" | "sub" | "addc" | "subc" if m.has("cc") || name.ends_with('c') => {
                return self.carry(i, &m, ty);
            }
            "mad" | "madc" if m.has("cc") || name == "madc" => return self.carry(i, &m, ty),
            "mul24" | "mad24" => return self.mul24(i, &m, ty),
            "add" => (simple(Opcode::Add), 2),
            "sub" => (simple(Opcode::Sub), 2),
            "mul" | "mad" if m.has("wide") && ty.bits() == 16 => return self.wide16(i, &m, ty),
            "mul" => (simple(Opcode::Mul), 2),
            "mad" => (simple(Opcode::Mad), 3),
            "fma" => (simple(Opcode::Fma), 3),
            "div" => (simple(Opcode::Div), 2),
            "rem" => (simple(Opcode::Rem), 2),
            "min" | "max" => {
                let word = |m: &PtxMods, w: &str| m.rest.iter().any(|x| x == w);
                if word(&m, "xorsign") {
                    if !word(&m, "abs") || !matches!(ty, Ty::F32 | Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2) {
                        return self.err(format!("`{name}.xorsign` takes `.abs` and f32, f16, f16x2, bf16 or bf16x2"));
                    }
                    m.take(&["abs"]);
                }
                if m.has("NaN") && !matches!(ty, Ty::F32 | Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2) {
                    return self.err(format!("`{name}.NaN` takes f32, f16, f16x2, bf16 or bf16x2, not {ty}"));
                }
                (simple(if name == "min" { Opcode::Min } else { Opcode::Max }), 2)
            }
            "abs" => (simple(Opcode::Abs), 1),
            "neg" => (simple(Opcode::Neg), 1),
            "and" => (simple(Opcode::And), 2),
            "or" => (simple(Opcode::Or), 2),
            "xor" => (simple(Opcode::Xor), 2),
            "not" => (simple(Opcode::Not), 1),
            "shl" => (simple(Opcode::Shl), 2),
            "shr" => (simple(Opcode::Shr), 2),
            "popc" => (simple(Opcode::Popc), 1),
            "clz" => (simple(Opcode::Clz), 1),
            "brev" => (simple(Opcode::Brev), 1),
            "bfe" => (simple(Opcode::Bfe), 3),
            "bfi" => (simple(Opcode::Bfi), 4),
            "bfind" => (simple(Opcode::Bfind), 1),
            "fns" => (simple(Opcode::Fns), 3),
            "bmsk" => (simple(Opcode::Bmsk), 2),
            "szext" => (simple(Opcode::Szext), 2),
            "sad" => (simple(Opcode::Sad), 3),
            "copysign" => (simple(Opcode::Copysign), 2),
            "testp" => (simple(Opcode::Testp), 1),
            "rcp" => (simple(Opcode::Rcp), 1),
            "sqrt" => (simple(Opcode::Sqrt), 1),
            "rsqrt" => (simple(Opcode::Rsqrt), 1),
            "ex2" => (simple(Opcode::Ex2), 1),
            "lg2" => (simple(Opcode::Lg2), 1),
            "sin" => (simple(Opcode::Sin), 1),
            "cos" => (simple(Opcode::Cos), 1),
            "tanh" => (simple(Opcode::Tanh), 1),
            "cnot" => {
                let a = self.srcs(i, 1, &[ty])?;
                let p = self.tmp(RegClass::P);
                let md = Mods { cmp: Some(Cmp::Eq), ..Mods::ty(ty) };
                self.emit(Opcode::Setp, md, vec![p.into()], vec![a[0].clone(), Operand::Imm(Imm::Int(0))])?;
                let d = self.dst(d0, dclass)?;
                self.emit(
                    Opcode::Selp,
                    Mods::ty(ty),
                    vec![d],
                    vec![Operand::Imm(Imm::Int(1)), Operand::Imm(Imm::Int(0)), Operand::reg(p)],
                )?;
                return Ok(());
            }
            "prmt" => {
                let mut md = Mods::ty(Ty::B32);
                if let Some(w) = m.take(&["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]) {
                    md.sub = sub_of(&w);
                }
                self.leftovers(&m)?;
                let s = self.srcs(i, 1, &[Ty::B32, Ty::B32, Ty::B32])?;
                let d = self.dst(d0, RegClass::R32)?;
                self.emit(Opcode::PrmtP, md, vec![d], vec![s[0].clone(), s[2].clone(), s[1].clone()])?;
                return Ok(());
            }
            "shf" => {
                let mut md = Mods::ty(Ty::B32);
                md.dir = match m.take(&["l", "r"]).as_deref() {
                    Some("l") => Some(Dir::L),
                    _ => Some(Dir::R),
                };
                md.sub = m.take(&["wrap", "clamp"]).and_then(|w| sub_of(&w));
                self.leftovers(&m)?;
                let s = self.srcs(i, 1, &[Ty::B32, Ty::B32, Ty::U32])?;
                let d = self.dst(d0, RegClass::R32)?;
                self.emit(Opcode::ShfP, md, vec![d], s)?;
                return Ok(());
            }
            "lop3" => {
                self.leftovers(&m)?;
                if i.operands.len() != 5 {
                    return self.err("lop3 with a predicate output is not supported");
                }
                let s = self.srcs(i, 1, &[Ty::B32, Ty::B32, Ty::B32, Ty::B32])?;
                let d = self.dst(d0, RegClass::R32)?;
                self.emit(Opcode::Lop3P, Mods::ty(Ty::B32), vec![d], s)?;
                return Ok(());
            }
            _ => (None, 0),
        };
        let Some(op) = op else { return self.err(format!("`{name}` is not supported")) };
        if i.operands.len() != n + 1 {
            return self.err(format!("`{name}` takes {} operands, not {}", n + 1, i.operands.len()));
        }
        let mut md = self.base_mods(&m, ty);
        if m.has("NaN") {
            if !matches!(op, Opcode::Min | Opcode::Max) {
                return self.err(format!("`{name}` has no `.NaN`"));
            }
            md.set(Flag::NaN);
        }
        if m.take(&["xorsign"]).is_some() {
            md.set(Flag::Xorsign);
        }
        if matches!(op, Opcode::Bfind | Opcode::Bmsk | Opcode::Szext | Opcode::Testp) {
            if m.has("shiftamt") {
                md.sub = Some(SubOp::ShiftAmt);
            }
            if let Some(w) =
                m.take(&["wrap", "clamp", "finite", "infinite", "number", "notanumber", "normal", "subnormal"])
            {
                md.sub = sub_of(&w);
            }
        }
        self.leftovers(&m)?;
        if op == Opcode::Div && ty.is_float() && md.rnd.is_none() && !md.has(Flag::Approx) && !md.has(Flag::Full) {
            md.set(Flag::Approx);
        }
        if !matches!(op, Opcode::Mul | Opcode::Mad) {
            md.half = None;
        } else if ty.is_int() && md.half.is_none() {
            md.half = Some(Half::Lo);
        }
        // Source types: shifts and bit-field positions take 32-bit amounts.
        let tys: Vec<Ty> = (0..n)
            .map(|k| match (op, k) {
                (Opcode::Shl | Opcode::Shr, 1) => Ty::U32,
                (Opcode::Bfe, 1 | 2) | (Opcode::Bfi, 2 | 3) => Ty::U32,
                (Opcode::Mad, 2) if md.half == Some(Half::Wide) => wide_of(ty),
                _ => ty,
            })
            .collect();
        let s = self.srcs(i, 1, &tys)?;
        let dcls = match op {
            Opcode::Popc | Opcode::Clz | Opcode::Bfind => RegClass::R32,
            Opcode::Testp => RegClass::P,
            Opcode::Mul | Opcode::Mad if md.half == Some(Half::Wide) => class_of_ty(wide_of(ty)),
            _ => dclass,
        };
        let d = self.dst(d0, dcls)?;
        self.emit(op, md, vec![d], s)?;
        Ok(())
    }

    fn dot(&mut self, i: &ast::Instruction, m: &PtxMods) -> Result<()> {
        let name = i.opcode.name.as_str();
        let (Some(a), Some(b)) = (m.types.first().and_then(|t| ty_of(t)), m.types.get(1).and_then(|t| ty_of(t))) else {
            return self.err("dp4a/dp2a need two types");
        };
        let mut md = Mods { ty: Some(a), src_ty: Some(b), ..Mods::default() };
        if name == "dp2a" {
            md.half = Some(if m.has("hi") { Half::Hi } else { Half::Lo });
        }
        let s = self.srcs(i, 1, &[Ty::B32, Ty::B32, Ty::B32])?;
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        let op = if name == "dp4a" { Opcode::Dp4a } else { Opcode::Dp2a };
        self.emit(op, md, vec![d], s)?;
        Ok(())
    }

    fn carry(&mut self, i: &ast::Instruction, m: &PtxMods, ty: Ty) -> Result<()> {
        let name = i.opcode.name.as_str();
        let (op, n) = match name {
            "add" | "addc" => (Opcode::Addc, 2),
            "sub" | "subc" => (Opcode::Subc, 2),
            _ => (Opcode::Madc, 3),
        };
        // Without a carry in: 0 for an addition, 1 (no borrow) for a subtraction, as CC.CF
        // is a carry for both (see `ori::semantics`).
        let cin = if name.ends_with('c') {
            Operand::reg(self.cc_reg())
        } else {
            let not = op != Opcode::Subc;
            Operand::Reg(RegUse { reg: crate::ori::PhysReg::PT.into(), neg: false, abs: false, not })
        };
        let cout = if m.has("cc") { self.cc_reg() } else { self.tmp(RegClass::P) };
        let mut s = self.srcs(i, 1, &vec![ty; n])?;
        s.push(cin);
        let d = self.dst(self.operand(i, 0)?, class_of_ty(ty))?;
        let mut md = Mods::ty(ty);
        if op == Opcode::Madc {
            md.half = Some(if m.has("hi") { Half::Hi } else { Half::Lo });
        }
        self.emit(op, md, vec![d, cout.into()], s)?;
        Ok(())
    }

    fn wide16(&mut self, i: &ast::Instruction, m: &PtxMods, ty: Ty) -> Result<()> {
        let wt = if ty.is_signed() { Ty::S32 } else { Ty::U32 };
        let mad = i.opcode.name == "mad";
        let s = self.srcs(i, 1, &[ty, ty])?;
        let mut w = Vec::new();
        for o in s {
            let r = self.tmp(RegClass::R32);
            self.emit(Opcode::Cvt, cvt_mods(wt, ty), vec![r.into()], vec![o])?;
            w.push(Operand::reg(r));
        }
        if mad {
            w.push(self.src(self.operand(i, 3)?, wt)?);
        }
        let _ = m;
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        let md = Mods { half: Some(Half::Lo), ..Mods::ty(wt) };
        self.emit(if mad { Opcode::Mad } else { Opcode::Mul }, md, vec![d], w)?;
        Ok(())
    }

    fn mul24(&mut self, i: &ast::Instruction, m: &PtxMods, ty: Ty) -> Result<()> {
        if m.has("hi") {
            return self.mul24_hi(i, m, ty);
        }
        let mad = i.opcode.name == "mad24";
        let s = self.srcs(i, 1, &[ty, ty])?;
        let mut w = Vec::new();
        for o in s {
            let r = self.tmp(RegClass::R32);
            self.emit(
                Opcode::Bfe,
                Mods::ty(ty),
                vec![r.into()],
                vec![o, Operand::Imm(Imm::Int(0)), Operand::Imm(Imm::Int(24))],
            )?;
            w.push(Operand::reg(r));
        }
        if mad {
            w.push(self.src(self.operand(i, 3)?, ty)?);
        }
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        let md = Mods { half: Some(Half::Lo), ..Mods::ty(ty) };
        self.emit(if mad { Opcode::Mad } else { Opcode::Mul }, md, vec![d], w)?;
        Ok(())
    }

    /// `mul24.hi`/`mad24.hi`: bits [16, 48) of the 48-bit product of the operands' low 24 bits
    /// (sign-extended for `.s32`), plus c for `mad24` (`.sat.s32`: `add.sat.s32` of c). Each
    /// operand shifted left by 8 is its 24-bit value times 2^8 as a full 32-bit value of the same
    /// signedness, so the 64-bit product is the 48-bit one times 2^16 and its high word (`mul.hi`
    /// / `mad.hi`) is exactly bits [16, 48).
    fn mul24_hi(&mut self, i: &ast::Instruction, m: &PtxMods, ty: Ty) -> Result<()> {
        let mad = i.opcode.name == "mad24";
        let s = self.srcs(i, 1, &[ty, ty])?;
        let mut w = Vec::new();
        for o in s {
            let r = self.tmp(RegClass::R32);
            self.emit(Opcode::Shl, Mods::ty(Ty::B32), vec![r.into()], vec![o, Operand::Imm(Imm::Int(8))])?;
            w.push(Operand::reg(r));
        }
        let hi = Mods { half: Some(Half::Hi), ..Mods::ty(ty) };
        if m.has("sat") {
            // `mad24.hi.sat.s32`: the high word, then a saturating add of c (as ptxas: IMAD.WIDE,
            // then IADD, PLOP3 on the signs and SELs).
            if !(mad && ty == Ty::S32) {
                return self.err("`.sat` takes `mad24.hi.s32` only");
            }
            let t = self.tmp(RegClass::R32);
            self.emit(Opcode::Mul, hi, vec![t.into()], w)?;
            let c = self.src(self.operand(i, 3)?, ty)?;
            let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
            let mut md = Mods::ty(Ty::S32);
            md.set(Flag::Sat);
            self.emit(Opcode::Add, md, vec![d], vec![Operand::reg(t), c])?;
            return Ok(());
        }
        if mad {
            w.push(self.src(self.operand(i, 3)?, ty)?);
        }
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        self.emit(if mad { Opcode::Mad } else { Opcode::Mul }, hi, vec![d], w)?;
        Ok(())
    }

    /// `setp`, `set`, `selp`, `slct`.
    pub(super) fn compare(&mut self, i: &ast::Instruction) -> Result<()> {
        let name = i.opcode.name.as_str();
        let mut m = PtxMods::of(i, true);
        match name {
            "selp" => {
                self.leftovers(&m)?;
                let ty = self.one_ty(&m.types)?;
                let s = self.srcs(i, 1, &[ty, ty, Ty::Pred])?;
                let d = self.dst(self.operand(i, 0)?, class_of_ty(ty))?;
                self.emit(Opcode::Selp, Mods::ty(ty), vec![d], s)?;
                Ok(())
            }
            "slct" => {
                let (Some(dt), Some(ct)) =
                    (m.types.first().and_then(|t| ty_of(t)), m.types.get(1).and_then(|t| ty_of(t)))
                else {
                    return self.err("slct needs two types");
                };
                let s = self.srcs(i, 1, &[dt, dt, ct])?;
                let p = self.tmp(RegClass::P);
                let zero = if ct == Ty::F32 { Operand::Imm(Imm::F32(0)) } else { Operand::Imm(Imm::Int(0)) };
                let md = Mods { cmp: Some(Cmp::Ge), ..Mods::ty(ct) };
                let md = if m.has("ftz") {
                    let mut x = md;
                    x.set(Flag::Ftz);
                    x
                } else {
                    md
                };
                self.emit(Opcode::Setp, md, vec![p.into()], vec![s[2].clone(), zero])?;
                let d = self.dst(self.operand(i, 0)?, class_of_ty(dt))?;
                self.emit(Opcode::Selp, Mods::ty(dt), vec![d], vec![s[0].clone(), s[1].clone(), Operand::reg(p)])?;
                Ok(())
            }
            _ => {
                let set = name == "set";
                let bop = m.take(&["and", "or", "xor"]).map(|w| match w.as_str() {
                    "and" => BoolOp::And,
                    "or" => BoolOp::Or,
                    _ => BoolOp::Xor,
                });
                self.leftovers(&m)?;
                let Some(cmp) = m.cmp else { return self.err(format!("`{name}` needs a comparison")) };
                let (dt, st) = if set {
                    match (m.types.first().and_then(|t| ty_of(t)), m.types.get(1).and_then(|t| ty_of(t))) {
                        (Some(d), Some(s)) => (Some(d), s),
                        _ => return self.err("set needs a destination and a source type"),
                    }
                } else {
                    (None, self.one_ty(&m.types)?)
                };
                let s = self.srcs(i, 1, &[st, st])?;
                let mut md = Mods { cmp: Some(cmp), ..Mods::ty(st) };
                if m.has("ftz") {
                    md.set(Flag::Ftz);
                }
                if let Some(elem) = packed_elem(st) {
                    return self.packed_compare(i, md, elem, s, bop, dt);
                }
                let t = self.tmp(RegClass::P);
                self.emit(Opcode::Setp, md, vec![t.into()], s)?;
                let c = match bop {
                    Some(_) => Some(self.src(self.operand(i, 3)?, Ty::Pred)?),
                    None => None,
                };
                let combine = |fc: &mut Self, dst: crate::ori::Reg, not: bool| -> Result<()> {
                    let tv = Operand::Reg(RegUse { reg: t.into(), neg: false, abs: false, not });
                    match (bop, &c) {
                        (Some(b), Some(c)) => {
                            fc.emit(bool_opcode(b), Mods::ty(Ty::Pred), vec![dst], vec![tv, c.clone()])?;
                        }
                        _ => {
                            fc.emit(Opcode::Mov, Mods::ty(Ty::Pred), vec![dst], vec![tv])?;
                        }
                    }
                    Ok(())
                };
                let d0 = self.operand(i, 0)?;
                if let Some(dt) = dt {
                    let p = self.tmp(RegClass::P);
                    combine(self, p.into(), false)?;
                    let one = set_true(dt);
                    let d = self.dst(d0, class_of_ty(dt))?;
                    self.emit(
                        Opcode::Selp,
                        Mods::ty(dt),
                        vec![d],
                        vec![one, Operand::Imm(Imm::Int(0)), Operand::reg(p)],
                    )?;
                    return Ok(());
                }
                match d0 {
                    ast::Operand::Dual(p, q) => {
                        let pr = self.dst(&p.to_operand(), RegClass::P)?;
                        let qr = self.dst(&q.to_operand(), RegClass::P)?;
                        combine(self, pr, false)?;
                        combine(self, qr, true)?;
                    }
                    o => {
                        let pr = self.dst(o, RegClass::P)?;
                        combine(self, pr, false)?;
                    }
                }
                Ok(())
            }
        }
    }

    /// `setp`/`set` on packed halves (`.f16x2`, `.bf16x2`): each half is compared on its own
    /// (the halves are unpacked into 16-bit values and compared as scalars of type `elem`),
    /// then combined with the optional boolean operand. `setp` writes the low halves' result to
    /// `p` and the high halves' to `q` (`p|q`); `set` writes each half of `d` (all ones, or 1.0
    /// in the destination's half type, for true; 0 for false).
    fn packed_compare(
        &mut self,
        i: &ast::Instruction,
        md: Mods,
        elem: Ty,
        s: Vec<Operand>,
        bop: Option<BoolOp>,
        dt: Option<Ty>,
    ) -> Result<()> {
        let md = Mods { ty: Some(elem), ..md };
        let c = match bop {
            Some(_) => Some(self.src(self.operand(i, 3)?, Ty::Pred)?),
            None => None,
        };
        let mut halves = Vec::with_capacity(2);
        for h in 0..2i64 {
            let mut parts = Vec::with_capacity(2);
            for o in &s {
                let sh = self.tmp(RegClass::R32);
                self.emit(
                    Opcode::Shr,
                    Mods::ty(Ty::B32),
                    vec![sh.into()],
                    vec![o.clone(), Operand::Imm(Imm::Int(16 * h))],
                )?;
                let x = self.tmp(RegClass::R32);
                self.emit(Opcode::Cvt, cvt_mods(Ty::U16, Ty::U32), vec![x.into()], vec![Operand::reg(sh)])?;
                parts.push(Operand::reg(x));
            }
            let p = self.tmp(RegClass::P);
            self.emit(Opcode::Setp, md.clone(), vec![p.into()], parts)?;
            let r = match (bop, &c) {
                (Some(b), Some(c)) => {
                    let q = self.tmp(RegClass::P);
                    self.emit(bool_opcode(b), Mods::ty(Ty::Pred), vec![q.into()], vec![Operand::reg(p), c.clone()])?;
                    q
                }
                _ => p,
            };
            halves.push(r);
        }
        let d0 = self.operand(i, 0)?;
        let Some(dt) = dt else {
            let (p, q) = match d0 {
                ast::Operand::Dual(p, q) => (p.to_operand(), Some(q.to_operand())),
                o => (o.clone(), None),
            };
            for (o, h) in std::iter::once(p).chain(q).zip(&halves) {
                let r = self.dst(&o, RegClass::P)?;
                self.emit(Opcode::Mov, Mods::ty(Ty::Pred), vec![r], vec![Operand::reg(*h)])?;
            }
            return Ok(());
        };
        let one = match set_true(dt) {
            Operand::Imm(Imm::Int(v)) => v & 0xFFFF,
            _ => return self.err(format!("`set` with destination type `.{dt}` on packed halves")),
        };
        let mut parts = Vec::with_capacity(2);
        for (h, p) in halves.iter().enumerate() {
            let r = self.tmp(RegClass::R32);
            self.emit(
                Opcode::Selp,
                Mods::ty(Ty::B32),
                vec![r.into()],
                vec![Operand::Imm(Imm::Int(one << (16 * h))), Operand::Imm(Imm::Int(0)), Operand::reg(*p)],
            )?;
            parts.push(Operand::reg(r));
        }
        let d = self.dst(d0, RegClass::R32)?;
        self.emit(Opcode::Or, Mods::ty(Ty::B32), vec![d], parts)?;
        Ok(())
    }

    /// `cvt`.
    pub(super) fn cvt(&mut self, i: &ast::Instruction) -> Result<()> {
        let m = PtxMods::of(i, false);
        if Self::is_cvt_pack_int(&m) {
            return self.cvt_pack_int(i);
        }
        if Self::is_cvt_pack(&m) {
            return self.cvt_pack(i);
        }
        if m.rest.iter().any(|w| w == "rna") {
            return self.err("rounding `.rna` is not supported");
        }
        self.leftovers(&m)?;
        let (Some(dt), Some(st)) = (m.types.first(), m.types.get(1)) else {
            return self.err("cvt needs a destination and a source type");
        };
        let (Some(dt), Some(st)) = (ty_of(dt), ty_of(st)) else {
            return self.err(format!("cvt between `.{dt}` and `.{st}` is not supported"));
        };
        let mut md = cvt_mods(dt, st);
        md.rnd = m.rnd;
        for (f, flag) in [("ftz", Flag::Ftz), ("sat", Flag::Sat), ("relu", Flag::Relu)] {
            if m.has(f) {
                md.set(flag);
            }
        }
        if md.has(Flag::Relu) && !matches!(dt, Ty::F16 | Ty::BF16 | Ty::F16x2 | Ty::BF16x2) {
            return self.err(format!("`cvt.relu` to `.{dt}` is not supported yet"));
        }
        if let Some(elem) = match dt {
            Ty::F16x2 => Some(Ty::F16),
            Ty::BF16x2 => Some(Ty::BF16),
            _ => None,
        } {
            // `cvt.rn.f16x2.f32 d, a, b`: a converted into the high half, b into the low.
            let s = self.srcs(i, 1, &[st, st])?;
            md.ty = Some(elem);
            let (h, l) = (self.tmp(RegClass::R32), self.tmp(RegClass::R32));
            self.emit(Opcode::Cvt, md.clone(), vec![h.into()], vec![s[0].clone()])?;
            self.emit(Opcode::Cvt, md, vec![l.into()], vec![s[1].clone()])?;
            let hs = self.tmp(RegClass::R32);
            self.emit(
                Opcode::Shl,
                Mods::ty(Ty::B32),
                vec![hs.into()],
                vec![Operand::reg(h), Operand::Imm(Imm::Int(16))],
            )?;
            let lm = self.tmp(RegClass::R32);
            self.emit(
                Opcode::And,
                Mods::ty(Ty::B32),
                vec![lm.into()],
                vec![Operand::reg(l), Operand::Imm(Imm::Int(0xFFFF))],
            )?;
            let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
            self.emit(Opcode::Or, Mods::ty(Ty::B32), vec![d], vec![Operand::reg(hs), Operand::reg(lm)])?;
            return Ok(());
        }
        if i.operands.len() != 2 {
            return self.err("cvt takes one source");
        }
        let s = self.srcs(i, 1, &[st])?;
        let d = self.dst(self.operand(i, 0)?, class_of_ty(dt))?;
        self.emit(Opcode::Cvt, md, vec![d], s)?;
        Ok(())
    }

    /// `mov`: plain, special register, address of a symbol, pack and unpack.
    pub(super) fn mov(&mut self, i: &ast::Instruction) -> Result<()> {
        let m = PtxMods::of(i, false);
        self.leftovers(&m)?;
        let ty = self.one_ty(&m.types)?;
        let (d0, s0) = (self.operand(i, 0)?, self.operand(i, 1)?);
        // Whole vector registers become their component lists.
        let as_vec = |fc: &mut Self, o: &ast::Operand| -> ast::Operand {
            match fc.vector_operand(o, m.vec) {
                Some(v) if m.vec > 0 => ast::Operand::Vector(v.into_iter().map(ast::VecElem::Expr).collect(), i.span),
                _ => whole_special_register(o, m.vec).unwrap_or_else(|| o.clone()),
            }
        };
        let (d0, s0) = (&as_vec(self, d0), &as_vec(self, s0));
        match (d0, s0) {
            (ast::Operand::Vector(ds, _), ast::Operand::Vector(ss, _)) if m.vec > 0 => {
                // A parallel copy: a source that an earlier element's move overwrites is read
                // into a temporary before any move (`{a,b,c,d} = {c,d,a,b}` rotates).
                let mut moves = Vec::new();
                for (d, s) in ds.iter().zip(ss) {
                    let (ast::VecElem::Expr(d), ast::VecElem::Expr(s)) = (d, s) else { continue };
                    let so = self.expr(s, ty)?;
                    let dr = self.dst(&ast::Operand::Expr(d.clone()), class_of_ty(ty))?;
                    moves.push((dr, so));
                }
                for k in 0..moves.len() {
                    let Operand::Reg(u) = &moves[k].1 else { continue };
                    if moves[..k].iter().any(|(d, _)| *d == u.reg) {
                        let t = self.tmp(class_of_ty(ty));
                        let so = std::mem::replace(&mut moves[k].1, Operand::reg(t));
                        self.emit(Opcode::Mov, Mods::ty(ty), vec![t.into()], vec![so])?;
                    }
                }
                for (dr, so) in moves {
                    self.emit(Opcode::Mov, Mods::ty(ty), vec![dr], vec![so])?;
                }
                Ok(())
            }
            (ast::Operand::Vector(ds, _), s) if ty.bits() == 128 => {
                // A 128-bit register into two 64-bit or four 32-bit parts, lowest first.
                let class = match ds.len() {
                    2 => RegClass::R64,
                    4 => RegClass::R32,
                    _ => return self.err("unsupported vector unpack"),
                };
                let src = self.src(s, ty)?;
                let mut dsts = Vec::new();
                for d in ds {
                    let ast::VecElem::Expr(d) = d else { return self.err("`_` in a 128-bit unpack") };
                    dsts.push(self.dst(&ast::Operand::Expr(d.clone()), class)?);
                }
                self.emit(Opcode::Split, Mods::new(), dsts, vec![src])?;
                Ok(())
            }
            (d, ast::Operand::Vector(ss, _)) if ty.bits() == 128 => {
                // Two 64-bit or four 32-bit parts into a 128-bit register, lowest first.
                let part = match ss.len() {
                    2 => Ty::B64,
                    4 => Ty::B32,
                    _ => return self.err("unsupported vector pack"),
                };
                let mut srcs = Vec::new();
                for s in ss {
                    let ast::VecElem::Expr(s) = s else { return self.err("`_` in a 128-bit pack") };
                    let o = self.expr(s, part)?;
                    // Immediates become registers: a join copies register words.
                    let r = self.tmp(class_of_ty(part));
                    self.emit(Opcode::Mov, Mods::ty(part), vec![r.into()], vec![o])?;
                    srcs.push(Operand::reg(r));
                }
                let dr = self.dst(d, RegClass::R128)?;
                self.emit(Opcode::Join, Mods::new(), vec![dr], srcs)?;
                Ok(())
            }
            (ast::Operand::Vector(ds, _), s) => {
                // Unpack a value into equal parts, lowest first.
                let n = ds.len() as u32;
                if n == 0 || ty.bits() % n != 0 || ty.bits() > 64 {
                    return self.err("unsupported vector unpack");
                }
                let part = ty.bits() / n;
                let src = self.src(s, ty)?;
                let (wide, wty) = if ty.bits() == 64 { (RegClass::R64, Ty::B64) } else { (RegClass::R32, Ty::B32) };
                let v = self.tmp(wide);
                self.emit(Opcode::Mov, Mods::ty(wty), vec![v.into()], vec![src])?;
                for (k, d) in ds.iter().enumerate() {
                    let ast::VecElem::Expr(d) = d else { continue };
                    let sh = self.tmp(wide);
                    self.emit(
                        Opcode::Shr,
                        Mods::ty(wty),
                        vec![sh.into()],
                        vec![Operand::reg(v), Operand::Imm(Imm::Int(i64::from(part) * k as i64))],
                    )?;
                    let pty = super::types::bits_ty(u64::from(part / 8));
                    let pty = if pty == Ty::B8 { Ty::U8 } else { pty };
                    let dr = self.dst(&ast::Operand::Expr(d.clone()), class_of_ty(pty))?;
                    let uty = match pty {
                        Ty::B16 => Ty::U16,
                        Ty::B32 => Ty::U32,
                        t => t,
                    };
                    let sty = if wty == Ty::B64 { Ty::U64 } else { Ty::U32 };
                    self.emit(Opcode::Cvt, cvt_mods(uty, sty), vec![dr], vec![Operand::reg(sh)])?;
                }
                Ok(())
            }
            (d, ast::Operand::Vector(ss, _)) => {
                let n = ss.len() as u32;
                if n == 0 || ty.bits() % n != 0 || ty.bits() > 64 {
                    return self.err("unsupported vector pack");
                }
                let part = ty.bits() / n;
                let (wide, wty, uty) =
                    if ty.bits() == 64 { (RegClass::R64, Ty::B64, Ty::U64) } else { (RegClass::R32, Ty::B32, Ty::U32) };
                let mut acc: Option<crate::ori::VReg> = None;
                for (k, s) in ss.iter().enumerate() {
                    let ast::VecElem::Expr(s) = s else { return self.err("`_` in a vector source") };
                    let pty = match part {
                        8 => Ty::U8,
                        16 => Ty::U16,
                        32 => Ty::U32,
                        _ => Ty::U64,
                    };
                    let so = self.expr(s, pty)?;
                    let x = self.tmp(wide);
                    self.emit(Opcode::Cvt, cvt_mods(uty, pty), vec![x.into()], vec![so])?;
                    let sh = self.tmp(wide);
                    self.emit(
                        Opcode::Shl,
                        Mods::ty(wty),
                        vec![sh.into()],
                        vec![Operand::reg(x), Operand::Imm(Imm::Int(i64::from(part) * k as i64))],
                    )?;
                    acc = Some(match acc {
                        None => sh,
                        Some(a) => {
                            let o = self.tmp(wide);
                            self.emit(
                                Opcode::Or,
                                Mods::ty(wty),
                                vec![o.into()],
                                vec![Operand::reg(a), Operand::reg(sh)],
                            )?;
                            o
                        }
                    });
                }
                let dr = self.dst(d, class_of_ty(ty))?;
                let a = acc.ok_or_else(|| super::LowerError::at(i.span, "empty vector"))?;
                self.emit(Opcode::Mov, Mods::ty(wty), vec![dr], vec![Operand::reg(a)])?;
                Ok(())
            }
            (d, s) => {
                let so = self.src(s, ty)?;
                let dr = self.dst(d, class_of_ty(ty))?;
                self.emit(Opcode::Mov, Mods::ty(ty), vec![dr], vec![so])?;
                Ok(())
            }
        }
    }
}

fn wide_of(t: Ty) -> Ty {
    match t {
        Ty::S16 => Ty::S32,
        Ty::U16 => Ty::U32,
        Ty::S32 => Ty::S64,
        Ty::U32 => Ty::U64,
        t => t,
    }
}

/// The element type of a packed half type.
fn packed_elem(t: Ty) -> Option<Ty> {
    match t {
        Ty::F16x2 => Some(Ty::F16),
        Ty::BF16x2 => Some(Ty::BF16),
        _ => None,
    }
}

/// The value `set` writes for true in destination type `dt` (per half for the packed types):
/// 1.0 for float types, all ones for integer types.
fn set_true(dt: Ty) -> Operand {
    match dt {
        Ty::F32 => Operand::Imm(Imm::F32(0x3F80_0000)),
        Ty::F16 | Ty::F16x2 => Operand::Imm(Imm::Int(0x3C00)),
        Ty::BF16 | Ty::BF16x2 => Operand::Imm(Imm::Int(0x3F80)),
        _ => Operand::Imm(Imm::Int(-1)),
    }
}

/// The predicate opcode that combines with a comparison's boolean operand (`setp.<cmp>.<bop>`).
fn bool_opcode(b: BoolOp) -> Opcode {
    match b {
        BoolOp::And => Opcode::And,
        BoolOp::Or => Opcode::Or,
        BoolOp::Xor => Opcode::Xor,
    }
}

/// `mov.v4 {a, b, c, d}, %tid`: a vector special register without a component as the brace list
/// of its `.x`, `.y`, `.z` and a fourth element 0 (ptxas leaves the fourth register unwritten:
/// `LDC R4..R6` of `%ntid`, nothing into R7; sema admits the form only as `.v4`).
fn whole_special_register(o: &ast::Operand, vec: u8) -> Option<ast::Operand> {
    let ast::Operand::Expr(e @ ast::Expr { kind: ast::ExprKind::Sym(id, None), span }) = o else { return None };
    let (_, comps, ..) = crate::ptx::sema::sreg::lookup(&id.name)?;
    if !comps || vec != 4 {
        return None;
    }
    let comp =
        |c: &str| ast::VecElem::Expr(ast::Expr { kind: ast::ExprKind::Sym(id.clone(), Some(c.into())), ..e.clone() });
    let zero = ast::Expr { kind: ast::ExprKind::Int(ast::IntLit { text: "0".into(), span: *span }), span: *span };
    Some(ast::Operand::Vector(vec![comp("x"), comp("y"), comp("z"), ast::VecElem::Expr(zero)], *span))
}
