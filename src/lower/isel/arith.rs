//! Integer and bit arithmetic, compares, selects and predicate logic.
//!
//! 32-bit (and sub-word) integer operations map one to one where SASS has the operation:
//! `add/sub` → `IADD3 d, a, ±b, RZ`; `mul.lo` → `IMAD d, a, b, RZ`; `mul.hi` → `IMAD.HI`;
//! `mul.wide` → `IMAD.WIDE` (64-bit destination); `mad` → `IMAD`; `and/or/xor/not` →
//! `LOP3.LUT` (0xc0, 0xfc, 0x3c, 0x33); shifts → `SHF` (`SHF.L.U32 d, a, s, RZ`,
//! `SHF.R.U32.HI d, RZ, s, a`, `SHF.R.S32.HI`); `min/max` → `IMNMX`; `abs` → `IABS`;
//! `popc` → `POPC`; `clz` → `FLO.U32` + `IADD3 d, -t, 31`; `setp` → `ISETP.cc.AND p, PT, a, b,
//! PT`; `selp` → `SEL`; predicate logic → `PLOP3.LUT`.
//!
//! 64-bit operations work on halves: `add` → `IADD3` with carry out + `IADD3.X`; `sub` the
//! same with `-lo`/`~hi`; `mul.lo` → `IMAD hi*lo`, `IMAD.WIDE.U32 lo*lo`, `IMAD lo*hi`, `IADD3`;
//! shifts → `SHF.L.U64.HI`/`SHF.L.U64`, `SHF.R.U64`/`SHF.R.U32.HI`, `SHF.R.S64`/`SHF.R.S32.HI`
//! (the funnel shifts clamp the amount, which gives PTX's results for amounts ≥ 64);
//! compares → `ISETP.cc.U32` on the low words + `ISETP.cc.EX` on the high words; bit logic per
//! half.

use super::{R, Sel, imm, neg, not, not_pt, pt, pt_reg, r, rz, ty};
use crate::ori::{BoolOp, Cmp, Dir, Flag, Half, InstData, Mods, Opcode, Operand, Reg, RegClass, SubOp, Ty};

/// The LOP3 lookup table of a binary operation on sources a and b (c = RZ).
fn lut(op: Opcode) -> i64 {
    match op {
        Opcode::And => 0xc0,
        Opcode::Or => 0xfc,
        _ => 0x3c,
    }
}

/// The PLOP3 lookup table of `f(a, b)` (third source PT, any value).
fn plut(f: impl Fn(bool, bool) -> bool) -> i64 {
    (0..8).filter(|i| f(i & 4 != 0, i & 2 != 0)).fold(0, |acc, i| acc | (1 << i))
}

/// Unsigned spelling of a comparison, as `ISETP` prints it with `.U32`.
pub(crate) fn plain_cmp(c: Cmp) -> Cmp {
    match c {
        Cmp::Lo => Cmp::Lt,
        Cmp::Ls => Cmp::Le,
        Cmp::Hi => Cmp::Gt,
        Cmp::Hs => Cmp::Ge,
        c => c,
    }
}

/// The comparison with its operands swapped.
pub(crate) fn swap_cmp(c: Cmp) -> Cmp {
    use Cmp::*;
    match c {
        Lt => Gt,
        Le => Ge,
        Gt => Lt,
        Ge => Le,
        Lo => Hi,
        Ls => Hs,
        Hi => Lo,
        Hs => Ls,
        Ltu => Gtu,
        Leu => Geu,
        Gtu => Ltu,
        Geu => Leu,
        c => c,
    }
}

impl Sel<'_> {
    /// A 32-bit operand extended from a sub-word type to 32 bits (per the type's signedness);
    /// 32-bit operands pass.
    pub(crate) fn ext(&mut self, o: &Operand, t: Ty) -> R<Operand> {
        let o = self.src(o)?;
        let bits = t.bits();
        if bits >= 32 {
            return Ok(o);
        }
        if let Operand::Imm(i) = &o {
            let v = i.bits() & ((1u64 << bits) - 1);
            let v = if t.is_signed() && v >> (bits - 1) & 1 == 1 { v | !((1u64 << bits) - 1) } else { v };
            return Ok(imm(i64::from(v as u32)));
        }
        let d = self.t32();
        if t.is_signed() {
            let sel = if bits == 8 { 0x8880 } else { 0x9910 };
            let a = self.reg_src(&o)?;
            self.emit(Opcode::PRMT, Mods::new(), vec![d.into()], vec![a, imm(sel), rz()]);
        } else {
            let mask = (1i64 << bits) - 1;
            self.emit(Opcode::LOP3, Mods::new(), vec![d.into()], vec![o, imm(mask), rz(), imm(0xc0)]);
        }
        Ok(r(d))
    }

    pub(crate) fn sel_arith(&mut self, d: &InstData) -> R<()> {
        use Opcode::*;
        let t = d.ty().ok_or("no type")?;
        if t.is_float() {
            return self.sel_float(d);
        }
        if t == Ty::Pred {
            return self.sel_pred_logic(d);
        }
        let dst = Self::dst(d)?;
        let w = t.bits();
        match d.opcode {
            Bfe if w == 64 => return self.sel_bfe64(d, dst, t),
            Bfe => return self.sel_bfe(d, dst, t),
            Bfi => return self.sel_bfi(d, dst, t),
            Fns => return self.sel_fns(d, dst),
            PrmtP if d.mods.sub.is_some() => return self.sel_prmt_mode(d, dst, d.mods.sub.unwrap_or(SubOp::F4e)),
            Bfind if w == 64 => return self.sel_bfind64(d, dst, t),
            Bfind if d.mods.sub == Some(SubOp::ShiftAmt) => return self.sel_bfind_shiftamt(d, dst, t),
            Madc => return self.sel_madc(d, dst, t),
            Addc | Subc if w == 64 => return self.sel_carry64(d, dst),
            Addc | Subc => return self.sel_carry(d, dst, t),
            Bmsk => return self.sel_bmsk(d, dst),
            Szext => {
                // `SGXT[.W][.U32] Rd, Ra, b` (ptxas): the same wrap/clamp meaning.
                let a = self.src(&d.srcs[0])?;
                let a = self.reg_src(&a)?;
                let b = match self.src(&d.srcs[1])? {
                    o @ Operand::Imm(_) => o,
                    o => self.reg_src(&o)?,
                };
                let m = Mods { ty: d.mods.ty, sub: d.mods.sub, ..Mods::new() };
                self.emit(SGXT, m, vec![dst], vec![a, b]);
                return Ok(());
            }
            Dp4a | Dp2a => return self.sel_dp(d, dst),
            Sad => return self.sel_sad(d, dst, t),
            _ => {}
        }
        if d.mods.has(Flag::Sat) {
            if t == Ty::S32 && matches!(d.opcode, Add | Sub) {
                return self.sel_sat_add(d, dst);
            }
            return Err("saturating integer arithmetic is not selected yet".into());
        }
        if w == 64 && !matches!(d.opcode, Mul | Mad) && !(d.opcode == Popc || d.opcode == Clz) {
            return self.sel_arith64(d, dst);
        }
        let s = &d.srcs;
        match d.opcode {
            Add | Sub => {
                let a = self.src(&s[0])?;
                let mut b = self.src(&s[1])?;
                if d.opcode == Sub {
                    b = neg(self.modifiable(b)?);
                }
                self.emit(IADD3, Mods::new(), vec![dst], vec![a, b, rz()]);
            }
            Mul | Mad => return self.sel_imad(d, dst, t),
            And | Or | Xor => {
                let (a, b) = (self.src(&s[0])?, self.src(&s[1])?);
                self.emit(LOP3, Mods::new(), vec![dst], vec![a, b, rz(), imm(lut(d.opcode))]);
            }
            Not => {
                let a = self.src(&s[0])?;
                self.emit(LOP3, Mods::new(), vec![dst], vec![rz(), a, rz(), imm(0x33)]);
            }
            Shl => {
                let a = self.reg_src(&s[0])?;
                let n = self.src(&s[1])?;
                let m = Mods { dir: Some(Dir::L), ty: Some(Ty::U32), ..Mods::new() };
                self.emit(SHF, m, vec![dst], vec![a, n, rz()]);
            }
            Shr => {
                let a = self.ext(&s[0], t)?;
                let n = self.src(&s[1])?;
                let st = if t.is_signed() { Ty::S32 } else { Ty::U32 };
                let m = Mods { dir: Some(Dir::R), ty: Some(st), flags: vec![Flag::HiWord], ..Mods::new() };
                self.emit(SHF, m, vec![dst], vec![rz(), n, a]);
            }
            Min | Max => {
                let a = self.ext(&s[0], t)?;
                let a = self.reg_src(&a)?;
                let b = self.ext(&s[1], t)?;
                let p = if d.opcode == Min { pt() } else { not_pt() };
                let st = if t.is_signed() { Ty::S32 } else { Ty::U32 };
                self.emit(IMNMX, ty(st), vec![dst], vec![a, b, p]);
            }
            Abs => {
                let a = self.ext(&s[0], t)?;
                self.emit(IABS, Mods::new(), vec![dst], vec![a]);
                if w < 32 {
                    self.mask_to(dst, w);
                }
            }
            Neg => {
                let a = self.src(&s[0])?;
                let a = self.modifiable(a)?;
                self.emit(IADD3, Mods::new(), vec![dst], vec![rz(), neg(a), rz()]);
            }
            Popc => {
                if w == 64 {
                    let (lo, hi) = self.halves(&s[0])?;
                    let (a, b) = (self.t32(), self.t32());
                    self.emit(POPC, Mods::new(), vec![a.into()], vec![lo]);
                    self.emit(POPC, Mods::new(), vec![b.into()], vec![hi]);
                    self.emit(IADD3, Mods::new(), vec![dst], vec![r(a), r(b), rz()]);
                } else {
                    let a = self.ext(&s[0], Ty::U32.min_bits(w))?;
                    self.emit(POPC, Mods::new(), vec![dst], vec![a]);
                }
            }
            Clz => {
                if w == 64 {
                    // clz64 = hi != 0 ? clz(hi) : 32 + clz(lo)
                    let (lo, hi) = self.halves(&s[0])?;
                    let (fl, fh, cl, ch, p) = (self.t32(), self.t32(), self.t32(), self.t32(), self.tp());
                    self.emit(FLO, ty(Ty::U32), vec![fh.into()], vec![hi.clone()]);
                    self.emit(FLO, ty(Ty::U32), vec![fl.into()], vec![lo]);
                    self.emit(IADD3, Mods::new(), vec![ch.into()], vec![neg(r(fh)), imm(31), rz()]);
                    self.emit(IADD3, Mods::new(), vec![cl.into()], vec![neg(r(fl)), imm(63), rz()]);
                    let hi = self.reg_src(&hi)?;
                    self.isetp(p.into(), Cmp::Ne, Ty::U32, hi, rz());
                    self.emit(SEL, Mods::new(), vec![dst], vec![r(ch), r(cl), r(p)]);
                } else {
                    let a = self.src(&s[0])?;
                    let f = self.t32();
                    self.emit(FLO, ty(Ty::U32), vec![f.into()], vec![a]);
                    self.emit(IADD3, Mods::new(), vec![dst], vec![neg(r(f)), imm(31), rz()]);
                }
            }
            Brev => {
                let a = self.src(&s[0])?;
                self.emit(BREV, Mods::new(), vec![dst], vec![a]);
            }
            Bfind => {
                if d.mods.sub == Some(SubOp::ShiftAmt) {
                    return Err("bfind.shiftamt is not selected yet".into());
                }
                let a = self.src(&s[0])?;
                let st = if t.is_signed() { Ty::S32 } else { Ty::U32 };
                self.emit(FLO, ty(st), vec![dst], vec![a]);
            }
            Lop3P => {
                let a = self.src(&s[0])?;
                let (b, c) = (self.src(&s[1])?, self.src(&s[2])?);
                self.emit(LOP3, Mods::new(), vec![dst], vec![a, b, c, s[3].clone()]);
            }
            PrmtP if d.mods.sub.is_none() => {
                let a = self.reg_src(&s[0])?;
                let (sel, b) = (self.src(&s[1])?, self.src(&s[2])?);
                // PTX-stage prmt keeps SASS's operand order (a, selector, b).
                self.emit(PRMT, Mods::new(), vec![dst], vec![a, sel, b]);
            }
            ShfP => {
                // PTX shf.{l,r}.{wrap,clamp} d, lo, hi, n = SASS SHF.{L,R}.W.U32[.HI] d, lo, n, hi.
                let dir = d.mods.dir.ok_or("shf without a direction")?;
                let lo = self.reg_src(&s[0])?;
                let hi = self.src(&s[1])?;
                let mut n = self.src(&s[2])?;
                if d.mods.sub != Some(SubOp::Clamp) {
                    // wrap: the amount modulo 32
                    let t = self.t32();
                    self.emit(LOP3, Mods::new(), vec![t.into()], vec![n, imm(31), rz(), imm(0xc0)]);
                    n = r(t);
                } else {
                    // clamp: the amount at most 32
                    let (nr, t) = (self.reg_src(&n)?, self.t32());
                    self.emit(IMNMX, ty(Ty::U32), vec![t.into()], vec![nr, imm(32), pt()]);
                    n = r(t);
                }
                let flags = if dir == Dir::L { vec![Flag::HiWord] } else { vec![] };
                let m = Mods { dir: Some(dir), ty: Some(Ty::U32), flags, ..Mods::new() };
                // SHF.L.U32.HI gives the high word of (hi:lo) << n; SHF.R.U32 the low word of
                // (hi:lo) >> n, with the amount clamped to 32 by the U32 form.
                self.emit(SHF, m, vec![dst], vec![lo, n, hi]);
            }
            op => return Err(format!("`{op}.{t}` is not selected yet")),
        }
        Ok(())
    }

    /// `dst &= (1 << w) - 1`.
    fn mask_to(&mut self, dst: Reg, w: u32) {
        let m = (1i64 << w) - 1;
        self.emit(Opcode::LOP3, Mods::new(), vec![dst], vec![Operand::reg(dst), imm(m), rz(), imm(0xc0)]);
    }

    /// `ISETP.cmp.AND p, PT, a, b, PT` (unsigned spelled `.U32`).
    pub(crate) fn isetp(&mut self, p: Reg, c: Cmp, t: Ty, a: Operand, b: Operand) {
        let st = if t.is_signed() { Ty::S32 } else { Ty::U32 };
        let m = Mods { cmp: Some(plain_cmp(c)), ty: Some(st), bop: Some(BoolOp::And), ..Mods::new() };
        self.emit(Opcode::ISETP, m, vec![p, pt_reg()], vec![a, b, pt()]);
    }

    /// mul/mad on 32-bit (and sub-word) types, and the 64-bit `mul.lo`/`mad.lo`.
    pub(crate) fn sel_imad(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let s = &d.srcs;
        let half = d.mods.half.unwrap_or(Half::Lo);
        let w = t.bits();
        let st = if t.is_signed() { Ty::S32 } else { Ty::U32 };
        let mad = d.opcode == Opcode::Mad;
        if w == 64 {
            if half == Half::Hi && !mad {
                return self.mulhi64(d, dst, t);
            }
            if half == Half::Hi {
                // `mad.hi.{u64,s64}`: the high product, then a 64-bit add of c.
                let p = self.vreg(RegClass::R64);
                self.mulhi64(d, p.into(), t)?;
                let c = self.wide_reg(&s[2])?;
                let carry = self.tp();
                let (pw, cw) = (self.halves(&r(p))?, self.halves(&c)?);
                return self.add64_carry(dst, pw, cw, None, carry.into());
            }
            if half != Half::Lo {
                return Err(format!("`{}.{half}.{t}` (64-bit) is not selected yet", d.opcode));
            }
            let (al, ah) = self.halves(&s[0])?;
            let (bl, bh) = self.halves(&s[1])?;
            let al = self.reg_src(&al)?;
            let ah = self.reg_src(&ah)?;
            let (t1, t2, lo, hi) = (self.t32(), self.t32(), self.t32(), self.t32());
            let wide = self.vreg(RegClass::R64);
            self.emit(Opcode::IMAD, Mods::new(), vec![t1.into()], vec![ah, bl.clone(), rz()]);
            let c = if mad { self.wide_reg(&s[2])? } else { rz() };
            let m = Mods { ty: Some(Ty::U32), half: Some(Half::Wide), ..Mods::new() };
            self.emit(Opcode::IMAD, m, vec![wide.into()], vec![al.clone(), bl, c]);
            self.emit(Opcode::IMAD, Mods::new(), vec![t2.into()], vec![al, bh, r(t1)]);
            self.emit(Opcode::UNPACK64, Mods::new(), vec![lo.into(), hi.into()], vec![r(wide)]);
            let h2 = self.t32();
            self.emit(Opcode::IADD3, Mods::new(), vec![h2.into()], vec![r(hi), r(t2), rz()]);
            self.pack_into(dst, r(lo), r(h2));
            return Ok(());
        }
        let needs_ext = w < 32 && half != Half::Lo;
        let (a, b) =
            if needs_ext { (self.ext(&s[0], t)?, self.ext(&s[1], t)?) } else { (self.src(&s[0])?, self.src(&s[1])?) };
        if w < 32 && half != Half::Lo {
            // 16-bit: the product fits 32 bits.
            let c = if mad { self.src(&s[2])? } else { rz() };
            match half {
                Half::Wide => {
                    self.emit(Opcode::IMAD, Mods::new(), vec![dst], vec![a, b, c]);
                }
                _ => {
                    let p = self.t32();
                    self.emit(Opcode::IMAD, Mods::new(), vec![p.into()], vec![a, b, rz()]);
                    let m = Mods { dir: Some(Dir::R), ty: Some(st), flags: vec![Flag::HiWord], ..Mods::new() };
                    let q = self.t32();
                    self.emit(Opcode::SHF, m, vec![q.into()], vec![rz(), imm(i64::from(w)), r(p)]);
                    self.emit(Opcode::IADD3, Mods::new(), vec![dst], vec![r(q), c, rz()]);
                }
            }
            return Ok(());
        }
        let c = match (mad, half) {
            (false, _) => rz(),
            (true, Half::Wide) => self.wide_reg(&s[2])?,
            (true, _) => self.src(&s[2])?,
        };
        let (a, b) = match (&a, &b) {
            (Operand::Reg(_), _) => (a, b),
            (_, Operand::Reg(_)) => (b, a),
            _ => (self.reg_src(&a)?, b),
        };
        let m = match half {
            Half::Lo => Mods::new(),
            h => Mods { ty: Some(st), half: Some(h), ..Mods::new() },
        };
        self.emit(Opcode::IMAD, m, vec![dst], vec![a, b, c]);
        Ok(())
    }

    /// `mul.hi.{u64,s64}`: the four 32x32 partial products with IMAD.WIDE.U32 chains; the
    /// signed form subtracts `b` when `a < 0` and `a` when `b < 0` from the unsigned high part.
    fn mulhi64(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let s = &d.srcs;
        let (al, ah) = self.halves(&s[0])?;
        let (bl, bh) = self.halves(&s[1])?;
        let (al, ah) = (self.reg_src(&al)?, self.reg_src(&ah)?);
        let (bl, bh) = (self.reg_src(&bl)?, self.reg_src(&bh)?);
        let wide = Mods { ty: Some(Ty::U32), half: Some(Half::Wide), ..Mods::new() };
        let hi = Mods { ty: Some(Ty::U32), half: Some(Half::Hi), ..Mods::new() };
        // p0h = hi(al*bl); m1 = al*bh + p0h; m2 = ah*bl + lo(m1); res = ah*bh + hi(m1) + hi(m2)
        let p0h = self.t32();
        self.emit(Opcode::IMAD, hi, vec![p0h.into()], vec![al.clone(), bl.clone(), rz()]);
        let c1 = self.vreg(RegClass::R64);
        self.pack_into(c1.into(), r(p0h), rz());
        let m1 = self.vreg(RegClass::R64);
        self.emit(Opcode::IMAD, wide.clone(), vec![m1.into()], vec![al.clone(), bh.clone(), r(c1)]);
        let (m1l, m1h) = (self.t32(), self.t32());
        self.emit(Opcode::UNPACK64, Mods::new(), vec![m1l.into(), m1h.into()], vec![r(m1)]);
        let c2 = self.vreg(RegClass::R64);
        self.pack_into(c2.into(), r(m1l), rz());
        let m2 = self.vreg(RegClass::R64);
        self.emit(Opcode::IMAD, wide.clone(), vec![m2.into()], vec![ah.clone(), bl.clone(), r(c2)]);
        let (_m2l, m2h) = (self.t32(), self.t32());
        self.emit(Opcode::UNPACK64, Mods::new(), vec![_m2l.into(), m2h.into()], vec![r(m2)]);
        let c3 = self.vreg(RegClass::R64);
        self.pack_into(c3.into(), r(m1h), rz());
        let p3 = self.vreg(RegClass::R64);
        self.emit(Opcode::IMAD, wide, vec![p3.into()], vec![ah.clone(), bh.clone(), r(c3)]);
        let (p3l, p3h) = (self.t32(), self.t32());
        self.emit(Opcode::UNPACK64, Mods::new(), vec![p3l.into(), p3h.into()], vec![r(p3)]);
        let (lo, hi2, c) = (self.t32(), self.t32(), self.tp());
        self.emit(Opcode::IADD3C, Mods::new(), vec![lo.into(), c.into()], vec![r(p3l), r(m2h), rz()]);
        self.emit(Opcode::IADD3X, Mods::new(), vec![hi2.into()], vec![r(p3h), rz(), rz(), r(c)]);
        if !t.is_signed() {
            self.pack_into(dst, r(lo), r(hi2));
            return Ok(());
        }
        // signed: res -= (a < 0 ? b : 0) + (b < 0 ? a : 0)
        let (pa, pb) = (self.tp(), self.tp());
        self.isetp(pa.into(), Cmp::Lt, Ty::S32, ah.clone(), rz());
        self.isetp(pb.into(), Cmp::Lt, Ty::S32, bh.clone(), rz());
        let mut cur = (lo, hi2);
        for (p, (xl, xh)) in [(pa, (bl, bh)), (pb, (al, ah))] {
            let (sl, sh) = (self.t32(), self.t32());
            self.emit(Opcode::SEL, Mods::new(), vec![sl.into()], vec![xl, rz(), r(p)]);
            self.emit(Opcode::SEL, Mods::new(), vec![sh.into()], vec![xh, rz(), r(p)]);
            let (nl, nh, c) = (self.t32(), self.t32(), self.tp());
            self.emit(Opcode::IADD3C, Mods::new(), vec![nl.into(), c.into()], vec![r(cur.0), neg(r(sl)), rz()]);
            self.emit(Opcode::IADD3X, Mods::new(), vec![nh.into()], vec![r(cur.1), not(r(sh)), rz(), r(c)]);
            cur = (nl, nh);
        }
        self.pack_into(dst, r(cur.0), r(cur.1));
        Ok(())
    }

    /// 64-bit add/sub/logic/shift/min/max/neg/not/abs on halves.
    fn sel_arith64(&mut self, d: &InstData, dst: Reg) -> R<()> {
        use Opcode::*;
        let s = &d.srcs;
        let t = d.ty().ok_or("no type")?;
        let (lo, hi) = (self.t32(), self.t32());
        match d.opcode {
            Add | Sub | Neg => {
                let (al, ah, bl, bh) = if d.opcode == Neg {
                    let (bl, bh) = self.halves(&s[0])?;
                    (rz(), rz(), bl, bh)
                } else {
                    let (al, ah) = self.halves(&s[0])?;
                    let (bl, bh) = self.halves(&s[1])?;
                    (al, ah, bl, bh)
                };
                let c = self.tp();
                if d.opcode == Add {
                    self.emit(IADD3C, Mods::new(), vec![lo.into(), c.into()], vec![al, bl, rz()]);
                    self.emit(IADD3X, Mods::new(), vec![hi.into()], vec![ah, bh, rz(), r(c)]);
                } else {
                    // a - b = a + ~b + 1: `-lo` carries like ~lo + 1; the high word adds ~hi.
                    // A bank operand (a generic window's base, `cvta.to.local`) cannot carry
                    // `-`/`~`: it is read into registers first.
                    let (bl, bh) = (self.modifiable(bl)?, self.modifiable(bh)?);
                    let lo_src = match bl {
                        Operand::Imm(_) => vec![al, not(bl), imm(1)],
                        b => vec![al, neg(b), rz()],
                    };
                    self.emit(IADD3C, Mods::new(), vec![lo.into(), c.into()], lo_src);
                    self.emit(IADD3X, Mods::new(), vec![hi.into()], vec![ah, not(bh), rz(), r(c)]);
                }
            }
            And | Or | Xor => {
                let (al, ah) = self.halves(&s[0])?;
                let (bl, bh) = self.halves(&s[1])?;
                self.emit(LOP3, Mods::new(), vec![lo.into()], vec![al, bl, rz(), imm(lut(d.opcode))]);
                self.emit(LOP3, Mods::new(), vec![hi.into()], vec![ah, bh, rz(), imm(lut(d.opcode))]);
            }
            Not => {
                let (al, ah) = self.halves(&s[0])?;
                self.emit(LOP3, Mods::new(), vec![lo.into()], vec![rz(), al, rz(), imm(0x33)]);
                self.emit(LOP3, Mods::new(), vec![hi.into()], vec![rz(), ah, rz(), imm(0x33)]);
            }
            Shl | Shr => {
                let (al, ah) = self.halves(&s[0])?;
                let al = self.reg_src(&al)?;
                let n = self.src(&s[1])?;
                let sh = |dir, t: Ty, hiw: bool| Mods {
                    dir: Some(dir),
                    ty: Some(t),
                    flags: if hiw { vec![Flag::HiWord] } else { vec![] },
                    ..Mods::new()
                };
                if d.opcode == Shl {
                    self.emit(SHF, sh(Dir::L, Ty::U64, true), vec![hi.into()], vec![al.clone(), n.clone(), ah]);
                    self.emit(SHF, sh(Dir::L, Ty::U64, false), vec![lo.into()], vec![al, n, rz()]);
                } else {
                    let (t64, t32) = if t.is_signed() { (Ty::S64, Ty::S32) } else { (Ty::U64, Ty::U32) };
                    self.emit(SHF, sh(Dir::R, t64, false), vec![lo.into()], vec![al, n.clone(), ah.clone()]);
                    self.emit(SHF, sh(Dir::R, t32, true), vec![hi.into()], vec![rz(), n, ah]);
                }
            }
            Min | Max => {
                let p = self.tp();
                let a = self.wide_reg(&s[0])?;
                let b = self.wide_reg(&s[1])?;
                let c = if d.opcode == Min { Cmp::Lt } else { Cmp::Gt };
                self.setp64(p.into(), c, t, &a, &b)?;
                let (al, ah) = self.halves(&a)?;
                let (bl, bh) = self.halves(&b)?;
                self.emit(SEL, Mods::new(), vec![lo.into()], vec![al, bl, r(p)]);
                self.emit(SEL, Mods::new(), vec![hi.into()], vec![ah, bh, r(p)]);
            }
            Brev => {
                let (al, ah) = self.halves(&s[0])?;
                self.emit(BREV, Mods::new(), vec![lo.into()], vec![ah]);
                self.emit(BREV, Mods::new(), vec![hi.into()], vec![al]);
            }
            Abs => {
                // |a| = a < 0 ? 0 - a : a
                let (al, ah) = self.halves(&s[0])?;
                let (al, ah) = (self.modifiable(al)?, self.reg_src(&ah)?);
                let (c, p, nl, nh) = (self.tp(), self.tp(), self.t32(), self.t32());
                self.emit(IADD3C, Mods::new(), vec![nl.into(), c.into()], vec![rz(), neg(al.clone()), rz()]);
                self.emit(IADD3X, Mods::new(), vec![nh.into()], vec![rz(), not(ah.clone()), rz(), r(c)]);
                self.isetp(p.into(), Cmp::Lt, Ty::S32, ah.clone(), rz());
                self.sel32(lo.into(), r(nl), al, r(p))?;
                self.sel32(hi.into(), r(nh), ah, r(p))?;
            }
            op => return Err(format!("`{op}.{t}` is not selected yet")),
        }
        self.pack_into(dst, r(lo), r(hi));
        Ok(())
    }

    /// `addc`/`subc` (32-bit): the carry in as a 0/1 addend, out as the adder's carry (for `subc`
    /// too: `a + ~b + cin`, PTX's CC.CF convention).
    fn sel_carry(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        if t.bits() != 32 {
            return Err(format!("`{}.{t}` is not selected yet", d.opcode));
        }
        let s = &d.srcs;
        let cout = *d.dsts.get(1).ok_or("no carry destination")?;
        let (a, b) = (self.src(&s[0])?, self.src(&s[1])?);
        let cin = self.pred_src(&s[2])?;
        let ci = self.t32();
        // add: a + b + cin; sub: a + ~b + cin (the carry is PTX's CC.CF, 1 = no borrow).
        let one = self.reg_src(&imm(1))?;
        self.emit(Opcode::SEL, Mods::new(), vec![ci.into()], vec![one, imm(0), cin]);
        let b = if d.opcode == Opcode::Subc { not(self.modifiable(b)?) } else { b };
        self.emit(Opcode::IADD3C, Mods::new(), vec![dst, cout], vec![a, b, r(ci)]);
        Ok(())
    }

    /// `sad d, a, b, c` = |a - b| + c (16-, 32- and 64-bit, signed or unsigned).
    fn sel_sad(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let s = &d.srcs;
        if t.bits() == 64 {
            // Both differences (a + ~b + 1, b + ~a + 1) with carry chains, the one for
            // a > b (ISETP + ISETP.EX per the type's signedness) selected per half, plus c.
            let (a, b) = (self.wide_reg(&s[0])?, self.wide_reg(&s[1])?);
            let p = self.tp();
            self.setp64(p.into(), Cmp::Gt, t, &a, &b)?;
            let (aw, bw) = (self.halves(&a)?, self.halves(&b)?);
            let diff = |s: &mut Self, (xl, xh): (Operand, Operand), (yl, yh): (Operand, Operand)| -> R<Reg> {
                let n = (not(s.modifiable(yl)?), not(s.modifiable(yh)?));
                let (v, carry) = (s.vreg(RegClass::R64), s.tp());
                s.add64_carry(v.into(), (xl, xh), n, Some(pt()), carry.into())?;
                Ok(v.into())
            };
            let x = diff(self, aw.clone(), bw.clone())?;
            let y = diff(self, bw, aw)?;
            let ((xl, xh), (yl, yh)) = (self.halves(&r(x))?, self.halves(&r(y))?);
            let (ml, mh) = (self.t32(), self.t32());
            self.emit(Opcode::SEL, Mods::new(), vec![ml.into()], vec![xl, yl, r(p)]);
            self.emit(Opcode::SEL, Mods::new(), vec![mh.into()], vec![xh, yh, r(p)]);
            let c = self.wide_reg(&s[2])?;
            let cw = self.halves(&c)?;
            let carry = self.tp();
            return self.add64_carry(dst, (r(ml), r(mh)), cw, None, carry.into());
        }
        if !matches!(t.bits(), 16 | 32) {
            return Err(format!("sad.{t} is not selected yet"));
        }
        // 16-bit: the difference of the operands extended by the type's signedness, in 32
        // bits (only the result's low half is meaningful, as for every sub-word value).
        let (a, b, t) = if t.bits() == 16 {
            let a = self.ext(&s[0], t)?;
            let b = self.ext(&s[1], t)?;
            (a, b, if t.is_signed() { Ty::S32 } else { Ty::U32 })
        } else {
            (self.src(&s[0])?, self.src(&s[1])?, t)
        };
        let a = self.reg_src(&a)?;
        let b = self.modifiable(b)?;
        let c = self.src(&s[2])?;
        let (p, x, y, m) = (self.tp(), self.t32(), self.t32(), self.t32());
        self.isetp(p.into(), Cmp::Gt, t, a.clone(), b.clone());
        self.emit(Opcode::IADD3, Mods::new(), vec![x.into()], vec![a.clone(), neg(b.clone()), rz()]);
        self.emit(Opcode::IADD3, Mods::new(), vec![y.into()], vec![b, neg(a), rz()]);
        self.emit(Opcode::SEL, Mods::new(), vec![m.into()], vec![r(x), r(y), r(p)]);
        self.emit(Opcode::IADD3, Mods::new(), vec![dst], vec![r(m), c, rz()]);
        Ok(())
    }

    /// `add.sat.s32` / `sub.sat.s32`: the wrapped sum, replaced by the bound on overflow.
    fn sel_sat_add(&mut self, d: &InstData, dst: Reg) -> R<()> {
        let s = &d.srcs;
        let a = self.reg_src(&s[0])?;
        let b = self.src(&s[1])?;
        let sub = d.opcode == Opcode::Sub;
        let (sum, ov, p, sg, bound) = (self.t32(), self.t32(), self.tp(), self.t32(), self.t32());
        let bb = if sub { neg(self.modifiable(b.clone())?) } else { b.clone() };
        self.emit(Opcode::IADD3, Mods::new(), vec![sum.into()], vec![a.clone(), bb, rz()]);
        // add: overflow iff (s ^ a) & (s ^ b) < 0; sub: iff (a ^ b) & (a ^ s) < 0.
        let f = if sub {
            crate::lower::isel::bits::lut3(|s, a, b| (a != b) && (a != s))
        } else {
            crate::lower::isel::bits::lut3(|s, a, b| (s != a) && (s != b))
        };
        self.emit(Opcode::LOP3, Mods::new(), vec![ov.into()], vec![r(sum), a.clone(), b, imm(f)]);
        self.isetp(p.into(), Cmp::Lt, Ty::S32, r(ov), rz());
        let m = Mods { dir: Some(Dir::R), ty: Some(Ty::S32), flags: vec![Flag::HiWord], ..Mods::new() };
        self.emit(Opcode::SHF, m, vec![sg.into()], vec![rz(), imm(31), a]);
        self.emit(Opcode::LOP3, Mods::new(), vec![bound.into()], vec![r(sg), imm(0x7fff_ffff), rz(), imm(0x3c)]);
        self.emit(Opcode::SEL, Mods::new(), vec![dst], vec![r(bound), r(sum), r(p)]);
        Ok(())
    }

    /// A 64-bit integer compare into `p`: `ISETP.cc.U32` on the low words, `ISETP.cc.EX` on
    /// the high words.
    pub(crate) fn setp64(&mut self, p: Reg, c: Cmp, t: Ty, a: &Operand, b: &Operand) -> R<()> {
        let (al, ah) = self.halves(a)?;
        let (bl, bh) = self.halves(b)?;
        let (al, ah, bl, bh, c) = match (&al, &bl) {
            (Operand::Reg(_), _) => (al, ah, bl, bh, c),
            (_, Operand::Reg(_)) => (bl, bh, al, ah, swap_cmp(c)),
            _ => (self.reg_src(&al)?, self.reg_src(&ah)?, bl, bh, c),
        };
        let ah = self.reg_src(&ah)?;
        let low = self.tp();
        self.isetp(low.into(), c, Ty::U32, al, bl);
        let st = if t.is_signed() { Ty::S32 } else { Ty::U32 };
        let m = Mods { cmp: Some(plain_cmp(c)), ty: Some(st), bop: Some(BoolOp::And), ..Mods::new() };
        self.emit(Opcode::ISETPX, m, vec![p, pt_reg()], vec![ah, bh, pt(), r(low)]);
        Ok(())
    }

    /// Predicate logic (`and/or/xor/not/mov` on predicates) by PLOP3.
    fn sel_pred_logic(&mut self, d: &InstData) -> R<()> {
        use Opcode::*;
        let dst = Self::dst(d)?;
        let s = &d.srcs;
        let lutv = match d.opcode {
            And => plut(|a, b| a && b),
            Or => plut(|a, b| a || b),
            Xor => plut(|a, b| a != b),
            Not => plut(|a, _| !a),
            op => return Err(format!("`{op}.pred` is not selected yet")),
        };
        let a = self.pred_src(&s[0])?;
        let b = match s.get(1) {
            Some(o) => self.pred_src(o)?,
            None => pt(),
        };
        self.emit(PLOP3, Mods::new(), vec![dst, pt_reg()], vec![a, b, pt(), imm(lutv), imm(0)]);
        Ok(())
    }

    /// A predicate source: a register, or an immediate as PT / !PT.
    pub(crate) fn pred_src(&mut self, o: &Operand) -> R<Operand> {
        match o {
            Operand::Reg(_) => Ok(o.clone()),
            Operand::Imm(i) => Ok(if i.bits() != 0 { pt() } else { not_pt() }),
            o => Err(format!("a {} operand where a predicate is read", o.kind_name())),
        }
    }

    /// `setp` and `selp`.
    pub(crate) fn sel_cmp(&mut self, d: &InstData) -> R<()> {
        let t = d.ty().ok_or("no type")?;
        let dst = Self::dst(d)?;
        let s = &d.srcs;
        if d.opcode == Opcode::Selp {
            if t == Ty::Pred {
                let (a, b, c) = (self.pred_src(&s[0])?, self.pred_src(&s[1])?, self.pred_src(&s[2])?);
                let l = (0..8).filter(|i| if i & 1 != 0 { i & 4 != 0 } else { i & 2 != 0 }).fold(0, |x, i| x | 1 << i);
                // (c ? a : b) with sources (a, b, c)
                self.emit(Opcode::PLOP3, Mods::new(), vec![dst, pt_reg()], vec![a, b, c, imm(l), imm(0)]);
                return Ok(());
            }
            let p = self.pred_src(&s[2])?;
            if t.bits() == 64 {
                let (al, ah) = self.halves(&s[0])?;
                let (bl, bh) = self.halves(&s[1])?;
                let (lo, hi) = (self.t32(), self.t32());
                self.sel32(lo.into(), al, bl, p.clone())?;
                self.sel32(hi.into(), ah, bh, p)?;
                self.pack_into(dst, r(lo), r(hi));
                return Ok(());
            }
            if matches!(t, Ty::F16x2 | Ty::BF16x2 | Ty::F16 | Ty::BF16) || t.bits() <= 32 {
                let (a, b) = (self.src(&s[0])?, self.src(&s[1])?);
                return self.sel32(dst, a, b, p);
            }
            return Err(format!("selp.{t} is not selected yet"));
        }
        // setp
        let c = d.mods.cmp.ok_or("setp without a comparison")?;
        if t.is_float() {
            return self.sel_fsetp(d, dst, c, t);
        }
        if t.bits() == 64 {
            let (a, b) = (self.src(&s[0])?, self.src(&s[1])?);
            return self.setp64(dst, c, t, &a, &b);
        }
        let a = self.ext(&s[0], t)?;
        let b = self.ext(&s[1], t)?;
        let (a, b, c) = match (&a, &b) {
            (Operand::Reg(_), _) => (a, b, c),
            (_, Operand::Reg(_)) => (b, a, swap_cmp(c)),
            _ => (self.reg_src(&a)?, b, c),
        };
        let st = if matches!(c, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs) { Ty::U32 } else { t };
        self.isetp(dst, c, st, a, b);
        Ok(())
    }

    /// `SEL d, a, b, p` (a must be a register: swapped with `!p` otherwise).
    pub(crate) fn sel32(&mut self, dst: Reg, a: Operand, b: Operand, p: Operand) -> R<()> {
        let (a, b, p) = match (&a, &b) {
            (Operand::Reg(_), _) => (a, b, p),
            (_, Operand::Reg(_)) => (b, a, not(p)),
            _ => (self.reg_src(&a)?, b, p),
        };
        self.emit(Opcode::SEL, Mods::new(), vec![dst], vec![a, b, p]);
        Ok(())
    }
}

/// Narrow helper: the unsigned type of `w` bits.
trait MinBits {
    fn min_bits(self, w: u32) -> Ty;
}
impl MinBits for Ty {
    fn min_bits(self, w: u32) -> Ty {
        match w {
            8 => Ty::U8,
            16 => Ty::U16,
            _ => Ty::U32,
        }
    }
}
