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
//! PTX-stage semantics return the dividend there — PTX leaves it undefined). 64-bit division
//! (ptxas: an inline fast path when both high words are zero, else a call to
//! `__cuda_sm20_{div,rem}_{s64,u64}`) is not selected yet.

use super::{R, Sel, imm, neg, r, rz};
use crate::ori::{Cmp, Flag, Half, InstData, Mods, Opcode, Operand, Reg, Rnd, Ty};

impl Sel<'_> {
    pub(crate) fn sel_div(&mut self, d: &InstData) -> R<()> {
        let t = d.ty().ok_or("no type")?;
        if t.is_float() {
            return self.sel_fdiv(d, t);
        }
        let dst = Self::dst(d)?;
        if t.bits() > 32 {
            return Err(format!(
                "`{}.{t}` needs ptxas's 64-bit division subroutine (CALL.REL.NOINC), not selected yet",
                d.opcode
            ));
        }
        let a = self.ext(&d.srcs[0], t)?;
        let b = self.ext(&d.srcs[1], t)?;
        let b = self.reg_src(&b)?;
        let rem = d.opcode == Opcode::Rem;
        if t.is_signed() { self.sdiv32(dst, a, b, rem) } else { self.udiv32(dst, a, b, rem) }
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
