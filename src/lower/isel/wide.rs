//! Further 64-bit and multi-part integer forms: 64-bit carry chains (`addc/subc.{u64,s64}`),
//! `bfind` on 64 bits, `bmsk`, saturating conversions from 64 bits, the dot products
//! `dp4a`/`dp2a`, and f64 `min`/`max`.
//!
//! - `addc.u64 d, cout, a, b, cin`: the carry in as a 0/1 addend of the low words
//!   (`IADD3` with carry out), the high words added with that carry as a 0/1 addend again,
//!   giving the final carry out (`subc`: `a + ~b + cin`, PTX's CC.CF being a carry, 1 = no
//!   borrow, after a subtraction too).
//! - `bfind.{u64,s64}`: `FLO` of the high word (+32) when it has the bit, else of the low word
//!   (signed: on the inverted value when negative); `.shiftamt` subtracts from 63.
//! - `bmsk.{clamp,wrap} d, a, b`: `m(n) = ~(-1 << n)`, `d = m(min(a + b, 32)) & ~m(a)`.
//! - `cvt.sat.{s,u}{8,16,32}.{s,u}64`: two 64-bit compares against the bounds, `SEL`s.
//! - `dp4a`/`dp2a`: parts extracted with `PRMT` (sign replication for signed parts), summed
//!   with `IMAD` (SASS `IDP.4A`/`IDP.2A` are not in the opcode table).
//! - `min/max.f64`: `DSETP` compares (`.LT`/`.GT`, `.EQ` with the sign of zero, `.NAN`),
//!   `SEL` per word; two NaNs give the canonical NaN.

use super::bits::lut3;
use super::{R, Sel, imm, neg, not, pt, pt_reg, r, rz};
use crate::ori::{BoolOp, Cmp, Half, Imm, InstData, Mods, Opcode, Operand, Reg, RegClass, SubOp, Ty};

impl Sel<'_> {
    /// A 0/1 register from a predicate (`one` when set).
    fn pred01(&mut self, p: Operand, set: i64, clear: i64) -> R<Reg> {
        let one = self.reg_src(&imm(set))?;
        let d = self.t32();
        self.emit(Opcode::SEL, Mods::new(), vec![d.into()], vec![one, imm(clear), p]);
        Ok(d.into())
    }

    pub(crate) fn sel_carry64(&mut self, d: &InstData, dst: Reg) -> R<()> {
        let s = &d.srcs;
        let cout = *d.dsts.get(1).ok_or("no carry destination")?;
        let sub = d.opcode == Opcode::Subc;
        let (al, ah) = self.halves(&s[0])?;
        let (bl, bh) = self.halves(&s[1])?;
        let (bl, bh) = if sub { (not(self.modifiable(bl)?), not(self.modifiable(bh)?)) } else { (bl, bh) };
        let cin = self.pred_src(&s[2])?;
        self.add64_carry(dst, (al, ah), (bl, bh), Some(cin), cout)
    }

    pub(crate) fn sel_bfind64(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let (mut lo, mut hi) = self.halves(&d.srcs[0])?;
        if t.is_signed() {
            // Negative: search the inverted value.
            let hr = self.reg_src(&hi)?;
            let (p, l2, h2) = (self.tp(), self.t32(), self.t32());
            self.isetp(p.into(), Cmp::Lt, Ty::S32, hr.clone(), rz());
            let f = lut3(|neg_, x, _| x != neg_);
            let m = self.pred01(r(p), -1, 0)?;
            self.emit(Opcode::LOP3, Mods::new(), vec![l2.into()], vec![Operand::reg(m), lo, rz(), imm(f)]);
            self.emit(Opcode::LOP3, Mods::new(), vec![h2.into()], vec![Operand::reg(m), hr, rz(), imm(f)]);
            lo = r(l2);
            hi = r(h2);
        }
        let (fl, fh, fh32, p, idx) = (self.t32(), self.t32(), self.t32(), self.tp(), self.t32());
        self.emit(Opcode::FLO, super::ty(Ty::U32), vec![fl.into()], vec![lo]);
        self.emit(Opcode::FLO, super::ty(Ty::U32), vec![fh.into()], vec![hi]);
        self.emit(Opcode::IADD3, Mods::new(), vec![fh32.into()], vec![r(fh), imm(32), rz()]);
        self.isetp(p.into(), Cmp::Ne, Ty::U32, r(fh), imm(-1));
        self.emit(Opcode::SEL, Mods::new(), vec![idx.into()], vec![r(fh32), r(fl), r(p)]);
        if d.mods.sub != Some(SubOp::ShiftAmt) {
            self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![r(idx)]);
            return Ok(());
        }
        let (n, q) = (self.t32(), self.tp());
        self.emit(Opcode::IADD3, Mods::new(), vec![n.into()], vec![neg(r(idx)), imm(63), rz()]);
        self.isetp(q.into(), Cmp::Ne, Ty::U32, r(idx), imm(-1));
        self.emit(Opcode::SEL, Mods::new(), vec![dst], vec![r(n), imm(-1), r(q)]);
        Ok(())
    }

    /// `m(n) = ~(-1 << n)` for n in 0..=32 (the shift clamps).
    fn low_mask(&mut self, n: Operand) -> R<Reg> {
        let ones = self.reg_src(&imm(-1))?;
        let (x, m) = (self.t32(), self.t32());
        let sh = Mods { dir: Some(crate::ori::Dir::L), ty: Some(Ty::U32), ..Mods::new() };
        self.emit(Opcode::SHF, sh, vec![x.into()], vec![ones, n, rz()]);
        self.emit(Opcode::LOP3, Mods::new(), vec![m.into()], vec![rz(), r(x), rz(), imm(0x33)]);
        Ok(m.into())
    }

    pub(crate) fn sel_bmsk(&mut self, d: &InstData, dst: Reg) -> R<()> {
        let wrap = d.mods.sub == Some(SubOp::Wrap);
        let mut ops = Vec::new();
        for o in &d.srcs[..2] {
            let o = self.src(o)?;
            let t = self.t32();
            if wrap {
                self.emit(Opcode::LOP3, Mods::new(), vec![t.into()], vec![o, imm(31), rz(), imm(0xc0)]);
            } else {
                let o = self.reg_src(&o)?;
                self.emit(Opcode::IMNMX, super::ty(Ty::U32), vec![t.into()], vec![o, imm(32), pt()]);
            }
            ops.push(t);
        }
        let (sum, hi) = (self.t32(), self.t32());
        self.emit(Opcode::IADD3, Mods::new(), vec![sum.into()], vec![r(ops[0]), r(ops[1]), rz()]);
        self.emit(Opcode::IMNMX, super::ty(Ty::U32), vec![hi.into()], vec![r(sum), imm(32), pt()]);
        let mh = self.low_mask(r(hi))?;
        let ml = self.low_mask(r(ops[0]))?;
        self.emit(Opcode::LOP3, Mods::new(), vec![dst], vec![Operand::reg(mh), Operand::reg(ml), rz(), imm(0x30)]);
        Ok(())
    }

    /// `cvt.sat` to a 32-bit-or-narrower integer from a 64-bit integer.
    pub(crate) fn sat_from64(&mut self, dst: Reg, dt: Ty, st: Ty, s: &Operand) -> R<()> {
        let w = dt.bits();
        let (lo_b, hi_b): (i128, i128) =
            if dt.is_signed() { (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1) } else { (0, (1i128 << w) - 1) };
        let a = self.wide_reg(s)?;
        let (plo, phi) = (self.tp(), self.tp());
        let sty = if st.is_signed() { Ty::S64 } else { Ty::U64 };
        // Bounds outside the source type's range never clamp.
        let src_min: i128 = if st.is_signed() { -(1i128 << 63) } else { 0 };
        let src_max: i128 = if st.is_signed() { (1i128 << 63) - 1 } else { (1i128 << 64) - 1 };
        let below = if lo_b > src_min {
            self.setp64(plo.into(), Cmp::Lt, sty, &a, &Operand::Imm(Imm::Int(lo_b as i64)))?;
            true
        } else {
            false
        };
        let above = if hi_b < src_max {
            self.setp64(phi.into(), Cmp::Gt, sty, &a, &Operand::Imm(Imm::Int(hi_b as i64)))?;
            true
        } else {
            false
        };
        let (lo, _) = self.halves(&a)?;
        let mut v = self.reg_src(&lo)?;
        if above {
            let t = self.t32();
            let hb = self.reg_src(&imm(hi_b as i64))?;
            self.emit(Opcode::SEL, Mods::new(), vec![t.into()], vec![hb, v, r(phi)]);
            v = r(t);
        }
        if below {
            let t = self.t32();
            let lb = self.reg_src(&imm(lo_b as i64))?;
            self.emit(Opcode::SEL, Mods::new(), vec![t.into()], vec![lb, v, r(plo)]);
            v = r(t);
        }
        // The clamped value as the semantics store a `.sat` result: the low word of an
        // in-range value is already sign-extended for a signed type; an unsigned one is masked.
        if w < 32 && !dt.is_signed() {
            self.emit(Opcode::LOP3, Mods::new(), vec![dst], vec![v, imm((1i64 << w) - 1), rz(), imm(0xc0)]);
        } else {
            self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![v]);
        }
        Ok(())
    }

    /// Part `i` (of `bits` bits) of `x`, zero- or sign-extended, by PRMT.
    fn part(&mut self, x: &Operand, i: u32, bits: u32, signed: bool) -> R<Operand> {
        let x = self.reg_src(x)?;
        let nb = bits / 8;
        let mut sel = 0i64;
        for k in 0..4u32 {
            let nib = if k < nb {
                i64::from(i * nb + k)
            } else if signed {
                i64::from(i * nb + nb - 1) | 8
            } else {
                4 // a byte of RZ (the second source)
            };
            sel |= nib << (4 * k);
        }
        let d = self.t32();
        self.emit(Opcode::PRMT, Mods::new(), vec![d.into()], vec![x, imm(sel), rz()]);
        Ok(r(d))
    }

    pub(crate) fn sel_dp(&mut self, d: &InstData, dst: Reg) -> R<()> {
        let (ta, tb) = (d.mods.ty.ok_or("no type")?, d.mods.src_ty.ok_or("no source type")?);
        let s = &d.srcs;
        let (a, b) = (self.src(&s[0])?, self.src(&s[1])?);
        let mut acc = self.src(&s[2])?;
        let (n, abits, off) = if d.opcode == Opcode::Dp4a {
            (4, 8, 0)
        } else {
            (2, 16, if d.mods.half == Some(Half::Hi) { 2 } else { 0 })
        };
        for i in 0..n {
            let pa = self.part(&a, i, abits, ta.is_signed())?;
            let pb = self.part(&b, i + off, 8, tb.is_signed())?;
            let t = self.t32();
            self.emit(Opcode::IMAD, Mods::new(), vec![t.into()], vec![pa, pb, acc]);
            acc = r(t);
        }
        self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![acc]);
        Ok(())
    }

    /// `min/max.f64` (PTX semantics: a NaN operand yields the other, -0 < +0; two NaNs give `a`,
    /// quieted, as the GPU does).
    pub(crate) fn sel_minmax_f64(&mut self, d: &InstData, dst: Reg) -> R<()> {
        let is_min = d.opcode == Opcode::Min;
        let a = self.wide_reg(&d.srcs[0])?;
        let b = self.wide_reg(&d.srcs[1])?;
        let dsetp = |s: &mut Self, c: Cmp, x: &Operand, y: &Operand| -> Reg {
            let p = s.tp();
            let m = Mods { cmp: Some(c), bop: Some(BoolOp::And), ..Mods::new() };
            s.emit(Opcode::DSETP, m, vec![p.into(), pt_reg()], vec![x.clone(), y.clone(), pt()]);
            p.into()
        };
        let strict = dsetp(self, if is_min { Cmp::Lt } else { Cmp::Gt }, &a, &b);
        let eq = dsetp(self, Cmp::Eq, &a, &b);
        let anan = dsetp(self, Cmp::Nan, &a, &a);
        let bnan = dsetp(self, Cmp::Nan, &b, &b);
        let (_, ah) = self.halves(&a)?;
        let ah = self.reg_src(&ah)?;
        let sa = self.tp();
        self.isetp(sa.into(), if is_min { Cmp::Lt } else { Cmp::Ge }, Ty::S32, ah, rz());
        // pick a: strict || (eq && sign fits) ; then a NaN b picks a, a NaN a picks b.
        let (p1, p2) = (self.tp(), self.tp());
        let l1 = lut3(|s, e, g| s || (e && g));
        self.emit(
            Opcode::PLOP3,
            Mods::new(),
            vec![p1.into(), pt_reg()],
            vec![r(strict), r(eq), r(sa), imm(l1), imm(0)],
        );
        let l2 = lut3(|p, an, bn| (p || bn) && !an);
        self.emit(
            Opcode::PLOP3,
            Mods::new(),
            vec![p2.into(), pt_reg()],
            vec![r(p1), r(anan), r(bnan), imm(l2), imm(0)],
        );
        let (al, ah) = self.halves(&a)?;
        let (bl, bh) = self.halves(&b)?;
        let (lo, hi) = (self.t32(), self.t32());
        self.sel32(lo.into(), al.clone(), bl, r(p2))?;
        self.sel32(hi.into(), ah.clone(), bh, r(p2))?;
        let both = self.tp();
        let l3 = lut3(|an, bn, _| an && bn);
        self.emit(
            Opcode::PLOP3,
            Mods::new(),
            vec![both.into(), pt_reg()],
            vec![r(anan), r(bnan), pt(), imm(l3), imm(0)],
        );
        // Both NaN: `a`, quieted (as ptxas's DSETP.MIN/MAX sequence on an H200: the golden of
        // f64_minmax_cmp; `ori::float::min`).
        let (lo2, hi2, aq) = (self.t32(), self.t32(), self.t32());
        self.emit(Opcode::LOP3, Mods::new(), vec![aq.into()], vec![ah, imm(0x0008_0000), rz(), imm(0xfc)]);
        self.emit(Opcode::SEL, Mods::new(), vec![lo2.into()], vec![al, r(lo), r(both)]);
        self.emit(Opcode::SEL, Mods::new(), vec![hi2.into()], vec![r(aq), r(hi), r(both)]);
        self.pack_into(dst, r(lo2), r(hi2));
        let _ = RegClass::R64;
        Ok(())
    }

    /// `madc.{lo,hi}.{u32,s32}`: the product half by IMAD, then the addend and the carry in
    /// (a 0/1 addend) with carry out.
    /// `dst = a + b (+ cin)` on 64-bit values, the carry out of bit 63 into `cout`:
    /// `IADD3` with carry on the low words, then on the high words with the low carry.
    pub(crate) fn add64_carry(
        &mut self,
        dst: Reg,
        (al, ah): (Operand, Operand),
        (bl, bh): (Operand, Operand),
        cin: Option<Operand>,
        cout: Reg,
    ) -> R<()> {
        let ci = match cin {
            Some(p) => Operand::reg(self.pred01(p, 1, 0)?),
            None => rz(),
        };
        let (lo, hi, c1) = (self.t32(), self.t32(), self.tp());
        self.emit(Opcode::IADD3C, Mods::new(), vec![lo.into(), c1.into()], vec![al, bl, ci]);
        let c1r = self.pred01(r(c1), 1, 0)?;
        self.emit(Opcode::IADD3C, Mods::new(), vec![hi.into(), cout], vec![ah, bh, Operand::reg(c1r)]);
        self.pack_into(dst, r(lo), r(hi));
        Ok(())
    }

    pub(crate) fn sel_madc(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let s = &d.srcs;
        let cout = *d.dsts.get(1).ok_or("no carry destination")?;
        if t.bits() == 64 {
            // The product's low or high 64 bits (as `mul.lo`/`mul.hi`: sel_imad reads only
            // a and b of a non-`mad` opcode), then c and the carry-in added with carry out.
            if d.mods.half == Some(Half::Wide) {
                return Err("madc.wide".into());
            }
            let p = self.vreg(RegClass::R64);
            self.sel_imad(d, p.into(), t)?;
            let c = self.wide_reg(&s[2])?;
            let cin = self.pred_src(&s[3])?;
            let (pw, cw) = (self.halves(&r(p))?, self.halves(&c)?);
            return self.add64_carry(dst, pw, cw, Some(cin), cout);
        }
        if t.bits() != 32 {
            return Err(format!("madc.{t} is not selected yet"));
        }
        let a = self.reg_src(&s[0])?;
        let b = self.src(&s[1])?;
        let c = self.src(&s[2])?;
        let cin = self.pred_src(&s[3])?;
        let p = self.t32();
        let m = match d.mods.half.unwrap_or(Half::Lo) {
            Half::Hi => {
                Mods { ty: Some(if t.is_signed() { Ty::S32 } else { Ty::U32 }), half: Some(Half::Hi), ..Mods::new() }
            }
            Half::Lo => Mods::new(),
            Half::Wide => return Err("madc.wide".into()),
        };
        self.emit(Opcode::IMAD, m, vec![p.into()], vec![a, b, rz()]);
        let ci = self.pred01(cin, 1, 0)?;
        self.emit(Opcode::IADD3C, Mods::new(), vec![dst, cout], vec![r(p), c, Operand::reg(ci)]);
        Ok(())
    }

    /// A 64-bit shift of halves by `n` (left, or right logical/arithmetic), clamped like PTX.
    pub(crate) fn shift64(
        &mut self,
        left: bool,
        signed: bool,
        (lo, hi): (Operand, Operand),
        n: Operand,
    ) -> R<(Reg, Reg)> {
        let lo = self.reg_src(&lo)?;
        let (l, h) = (self.t32(), self.t32());
        let sh = |dir, t: Ty, hiw: bool| Mods {
            dir: Some(dir),
            ty: Some(t),
            flags: if hiw { vec![crate::ori::Flag::HiWord] } else { vec![] },
            ..Mods::new()
        };
        use crate::ori::Dir;
        if left {
            self.emit(Opcode::SHF, sh(Dir::L, Ty::U64, true), vec![h.into()], vec![lo.clone(), n.clone(), hi]);
            self.emit(Opcode::SHF, sh(Dir::L, Ty::U64, false), vec![l.into()], vec![lo, n, rz()]);
        } else {
            let (t64, t32) = if signed { (Ty::S64, Ty::S32) } else { (Ty::U64, Ty::U32) };
            self.emit(Opcode::SHF, sh(Dir::R, t64, false), vec![l.into()], vec![lo, n.clone(), hi.clone()]);
            self.emit(Opcode::SHF, sh(Dir::R, t32, true), vec![h.into()], vec![rz(), n, hi]);
        }
        Ok((l.into(), h.into()))
    }

    /// `bfe.{u64,s64}`: `t = a >> pos`, `k = 64 - min(len, 64)`, `d = (t << k) >> k`.
    pub(crate) fn sel_bfe64(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let s = &d.srcs;
        let ha = self.halves(&s[0])?;
        let mut bytes = Vec::new();
        for o in &s[1..3] {
            let o = self.src(o)?;
            let b = self.t32();
            self.emit(Opcode::LOP3, Mods::new(), vec![b.into()], vec![o, imm(0xff), rz(), imm(0xc0)]);
            bytes.push(b);
        }
        let (l, k) = (self.t32(), self.t32());
        self.emit(Opcode::IMNMX, super::ty(Ty::U32), vec![l.into()], vec![r(bytes[1]), imm(64), pt()]);
        self.emit(Opcode::IADD3, Mods::new(), vec![k.into()], vec![neg(r(l)), imm(64), rz()]);
        let signed = t.is_signed();
        let (tl, th) = self.shift64(false, signed, ha, r(bytes[0]))?;
        let (ul, uh) = self.shift64(true, false, (Operand::reg(tl), Operand::reg(th)), r(k))?;
        let (dl, dh) = self.shift64(false, signed, (Operand::reg(ul), Operand::reg(uh)), r(k))?;
        self.pack_into(dst, Operand::reg(dl), Operand::reg(dh));
        Ok(())
    }
}
