//! Integer division and remainder: the inline 32-bit sequence ptxas emits on sm_90.
//!
//! Unsigned `a / b` (signed: the same on `|a|`, `|b|`, then the sign fixed):
//!
//! ```text
//! f  = I2F.U32.RP b               ; b as f32, rounded up
//! f  = MUFU.RCP f                 ; ~1/b
//! f  = IADD3 f, 0x0ffffffe        ; the float's bits nudged down, so q0 <= 2^32/b
//! q0 = F2I.FTZ.U32.TRUNC f
//! t  = IMAD -q0, b, RZ            ; (via IADD3 RZ, -q0)
//! q1 = IMAD.HI.U32 q0, t, q0      ; one Newton step: q0 + hi(q0 * -q0*b)
//! q  = IMAD.HI.U32 q1, a, RZ      ; estimate, at most 2 below the quotient
//! r  = IMAD q, -b, a
//! (r >= b) -> r -= b, q += 1      ; twice
//! b == 0   -> q = r = ~b (all ones)
//! ```
//!
//! The corrections are selected with SEL (ptxas predicates some of them); see the module
//! doc of `isel` for why sequences do not predicate internally. Sub-word types are extended
//! to 32 bits first. Division by zero gives all ones for the quotient (as the PTX-stage
//! semantics) and **all ones for the remainder** (ptxas's and the hardware's result; the
//! PTX-stage semantics return the dividend there — PTX leaves it undefined).
//!
//! 64-bit division and remainder (ptxas: an inline fast path when both high words are zero,
//! else a call to `__cuda_sm20_{div,rem}_{s64,u64}`) are a restoring shift-subtract loop of
//! 64 iterations in a block of its own ([`Sel::div64_loop`]), built from the selections of
//! 64-bit PTX operations; division by zero gives what the PTX-stage semantics give (quotient
//! all ones, or -1 signed; remainder the dividend).

use super::{R, Sel, imm, neg, r, rz};
use crate::ori::{Cmp, Flag, Guard, Half, InstData, Mods, Opcode, Operand, Reg, RegClass, Rnd, Ty};

impl Sel<'_> {
    pub(crate) fn sel_div(&mut self, d: &InstData) -> R<()> {
        let t = d.ty().ok_or("no type")?;
        if t.is_float() {
            return self.sel_fdiv(d, t);
        }
        let dst = Self::dst(d)?;
        if t.bits() > 32 {
            return self.div64_loop(d, dst, t);
        }
        let a = self.ext(&d.srcs[0], t)?;
        let b = self.ext(&d.srcs[1], t)?;
        let b = self.reg_src(&b)?;
        let rem = d.opcode == Opcode::Rem;
        if t.is_signed() { self.sdiv32(dst, a, b, rem) } else { self.udiv32(dst, a, b, rem) }
    }

    /// `div`/`rem` of `u64`/`s64`: on `n = |a|`, `d = |b|`, 64 times: `(r:n) <<= 1` (the bit
    /// shifted out of `r` is kept as `carry`), and when `carry || r >= d`, `r -= d` and the new
    /// low bit of `n` is set. Then `n` is the quotient and `r` the remainder; signed results
    /// take the signs (`q` negative when the signs differ, `r` with the dividend's sign), and a
    /// zero divisor gives the quotient -1. The loop needs a block of its own, so a guarded
    /// division or one in a function with phis is refused.
    pub(crate) fn div64_loop(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        use Opcode::*;
        if self.guard.is_some() || self.has_phis() {
            return Err(format!("`{}.{t}` under a guard or with phis (a loop block) is not selected yet", d.opcode));
        }
        let signed = t.is_signed();
        let want_rem = d.opcode == Rem;
        let (u, s) = (Mods::ty(Ty::U64), Mods::ty(Ty::S64));
        let r64 = |s: &mut Self| -> Reg { s.vreg(RegClass::R64).into() };
        let p1 = |s: &mut Self| -> Reg { s.tp().into() };
        let a = self.wide_reg(&d.srcs[0])?;
        let b = self.wide_reg(&d.srcs[1])?;
        let cmp = |c: Cmp, m: &Mods| Mods { cmp: Some(c), ..m.clone() };
        // |a|, |b| (signed).
        let (mut na, mut nb, mut sa, mut sb) = (a.clone(), b.clone(), None, None);
        if signed {
            for (x, out, sign) in [(&a, &mut na, &mut sa), (&b, &mut nb, &mut sb)] {
                let (p, ng, ab) = (p1(self), r64(self), r64(self));
                self.sel_cmp(&InstData::new(Setp, cmp(Cmp::Lt, &s), vec![p], vec![x.clone(), imm(0)]))?;
                self.sel_arith(&InstData::new(Neg, s.clone(), vec![ng], vec![x.clone()]))?;
                self.sel_cmp(&InstData::new(Selp, u.clone(), vec![ab], vec![r(ng), x.clone(), r(p)]))?;
                *out = r(ab);
                *sign = Some(p);
            }
        }
        let (rr, n, i) = (r64(self), r64(self), self.t32());
        self.pack_into(rr, rz(), rz());
        self.copy(n, &na, Ty::U64)?;
        self.emit(MOV, Mods::new(), vec![i.into()], vec![imm(64)]);
        // The loop block.
        let before = self.cur.ok_or("no current block")?;
        let head = self.split_block();
        self.f.push_inst(before, InstData::new(BRA, Mods::new(), vec![], vec![crate::ori::Operand::Block(head)]));
        let (carry, r2, top, r3, n2, ge, ge2, rs, n3) =
            (p1(self), r64(self), r64(self), r64(self), r64(self), p1(self), p1(self), r64(self), r64(self));
        self.sel_cmp(&InstData::new(Setp, cmp(Cmp::Lt, &s), vec![carry], vec![r(rr), imm(0)]))?;
        self.sel_arith(&InstData::new(Shl, Mods::ty(Ty::B64), vec![r2], vec![r(rr), imm(1)]))?;
        self.sel_arith(&InstData::new(Shr, u.clone(), vec![top], vec![r(n), imm(63)]))?;
        self.sel_arith(&InstData::new(Or, Mods::ty(Ty::B64), vec![r3], vec![r(r2), r(top)]))?;
        self.sel_arith(&InstData::new(Shl, Mods::ty(Ty::B64), vec![n2], vec![r(n), imm(1)]))?;
        self.sel_cmp(&InstData::new(Setp, cmp(Cmp::Ge, &u), vec![ge], vec![r(r3), nb.clone()]))?;
        self.sel_arith(&InstData::new(Or, Mods::ty(Ty::Pred), vec![ge2], vec![r(ge), r(carry)]))?;
        self.sel_arith(&InstData::new(Sub, u.clone(), vec![rs], vec![r(r3), nb.clone()]))?;
        self.sel_cmp(&InstData::new(Selp, u.clone(), vec![rr], vec![r(rs), r(r3), r(ge2)]))?;
        self.sel_arith(&InstData::new(Or, Mods::ty(Ty::B64), vec![n3], vec![r(n2), imm(1)]))?;
        self.sel_cmp(&InstData::new(Selp, u.clone(), vec![n], vec![r(n3), r(n2), r(ge2)]))?;
        let (i2, more) = (self.t32(), self.tp());
        self.emit(IADD3, Mods::new(), vec![i2.into()], vec![r(i), imm(-1), rz()]);
        self.emit(MOV, Mods::new(), vec![i.into()], vec![r(i2)]);
        self.isetp(more.into(), Cmp::Ne, Ty::U32, r(i2), rz());
        let back = InstData::new(BRA, Mods::new(), vec![], vec![crate::ori::Operand::Block(head)]);
        self.push(InstData { guard: Some(Guard { reg: more.into(), not: false }), ..back });
        self.split_block();
        // Signs and the zero divisor.
        let (q, rem) = match (sa, sb) {
            (Some(sa), Some(sb)) => {
                let (sq, nq, q1, nr, r1, bz, q2) =
                    (p1(self), r64(self), r64(self), r64(self), r64(self), p1(self), r64(self));
                self.sel_arith(&InstData::new(Xor, Mods::ty(Ty::Pred), vec![sq], vec![r(sa), r(sb)]))?;
                self.sel_arith(&InstData::new(Neg, s.clone(), vec![nq], vec![r(n)]))?;
                self.sel_cmp(&InstData::new(Selp, u.clone(), vec![q1], vec![r(nq), r(n), r(sq)]))?;
                self.sel_arith(&InstData::new(Neg, s.clone(), vec![nr], vec![r(rr)]))?;
                self.sel_cmp(&InstData::new(Selp, u.clone(), vec![r1], vec![r(nr), r(rr), r(sa)]))?;
                self.sel_cmp(&InstData::new(Setp, cmp(Cmp::Eq, &s), vec![bz], vec![b.clone(), imm(0)]))?;
                self.sel_cmp(&InstData::new(Selp, u.clone(), vec![q2], vec![imm(-1), r(q1), r(bz)]))?;
                (q2, r1)
            }
            _ => (n, rr),
        };
        self.copy(dst, &r(if want_rem { rem } else { q }), Ty::U64)
    }

    /// The unsigned estimate and corrections: returns (quotient, remainder) registers for
    /// `b != 0`.
    fn udiv_core(&mut self, a: Operand, b: Operand) -> (Reg, Reg) {
        use Opcode::*;
        let f = self.t32();
        let m = Mods { ty: Some(Ty::F32), src_ty: Some(Ty::U32), rnd: Some(Rnd::Rp), ..Mods::new() };
        self.emit(I2F, m, vec![f.into()], vec![b.clone()]);
        let rc = self.t32();
        let m = Mods { mufu: Some(crate::ori::Mufu::Rcp), ..Mods::new() };
        self.emit(MUFU, m, vec![rc.into()], vec![r(f)]);
        let fb = self.t32();
        self.emit(IADD3, Mods::new(), vec![fb.into()], vec![r(rc), imm(0x0fff_fffe), rz()]);
        let q0 = self.t32();
        let m = Mods {
            ty: Some(Ty::U32),
            src_ty: Some(Ty::F32),
            rnd: Some(Rnd::Rzi),
            flags: vec![Flag::Ftz],
            ..Mods::new()
        };
        self.emit(F2I, m, vec![q0.into()], vec![r(fb)]);
        let nq = self.t32();
        self.emit(IADD3, Mods::new(), vec![nq.into()], vec![rz(), neg(r(q0)), rz()]);
        let t = self.t32();
        self.emit(IMAD, Mods::new(), vec![t.into()], vec![r(nq), b.clone(), rz()]);
        let hi = Mods { ty: Some(Ty::U32), half: Some(Half::Hi), ..Mods::new() };
        let q1 = self.t32();
        self.emit(IMAD, hi.clone(), vec![q1.into()], vec![r(q0), r(t), r(q0)]);
        let q = self.t32();
        self.emit(IMAD, hi, vec![q.into()], vec![r(q1), a.clone(), rz()]);
        let rr = self.t32();
        self.emit(IMAD, Mods::new(), vec![rr.into()], vec![r(q), neg(b.clone()), a]);
        // Two corrections.
        let (mut q, mut rr) = (q, rr);
        for _ in 0..2 {
            let p = self.tp();
            self.isetp(p.into(), Cmp::Ge, Ty::U32, r(rr), b.clone());
            let (q2, r2, qs, rs) = (self.t32(), self.t32(), self.t32(), self.t32());
            self.emit(IADD3, Mods::new(), vec![q2.into()], vec![r(q), imm(1), rz()]);
            self.emit(IADD3, Mods::new(), vec![r2.into()], vec![r(rr), neg(b.clone()), rz()]);
            self.emit(SEL, Mods::new(), vec![qs.into()], vec![r(q2), r(q), r(p)]);
            self.emit(SEL, Mods::new(), vec![rs.into()], vec![r(r2), r(rr), r(p)]);
            q = qs;
            rr = rs;
        }
        (q.into(), rr.into())
    }

    /// `dst = b != 0 ? v : ~b` (all ones).
    fn zero_fix(&mut self, dst: Reg, v: Reg, b: Operand) {
        let (p, nb) = (self.tp(), self.t32());
        self.isetp(p.into(), Cmp::Ne, Ty::U32, b.clone(), rz());
        self.emit(Opcode::LOP3, Mods::new(), vec![nb.into()], vec![rz(), b, rz(), imm(0x33)]);
        self.emit(Opcode::SEL, Mods::new(), vec![dst], vec![Operand::reg(v), r(nb), r(p)]);
    }

    fn udiv32(&mut self, dst: Reg, a: Operand, b: Operand, rem: bool) -> R<()> {
        let (q, rr) = self.udiv_core(a, b.clone());
        self.zero_fix(dst, if rem { rr } else { q }, b);
        Ok(())
    }

    fn sdiv32(&mut self, dst: Reg, a: Operand, b: Operand, rem: bool) -> R<()> {
        use Opcode::*;
        let (aa, ab) = (self.t32(), self.t32());
        self.emit(IABS, Mods::new(), vec![aa.into()], vec![a.clone()]);
        self.emit(IABS, Mods::new(), vec![ab.into()], vec![b.clone()]);
        let (q, rr) = self.udiv_core(r(aa), r(ab));
        let p = self.tp();
        let (v, n, fixed) = (if rem { rr } else { q }, self.t32(), self.t32());
        if rem {
            // The remainder takes the dividend's sign.
            let a = self.reg_src(&a)?;
            self.isetp(p.into(), Cmp::Ge, Ty::S32, a, rz());
        } else {
            let x = self.t32();
            self.emit(LOP3, Mods::new(), vec![x.into()], vec![a, b.clone(), rz(), imm(0x3c)]);
            self.isetp(p.into(), Cmp::Ge, Ty::S32, r(x), rz());
        }
        self.emit(IADD3, Mods::new(), vec![n.into()], vec![rz(), neg(Operand::reg(v)), rz()]);
        self.emit(SEL, Mods::new(), vec![fixed.into()], vec![Operand::reg(v), r(n), r(p)]);
        self.zero_fix(dst, fixed.into(), b);
        Ok(())
    }
}
