//! SIMD video instructions (PTX `vabsdiff4`, packed 16-bit `add/sub/min/max`) to the sm_90
//! forms ptxas uses for them: `VABSDIFF4.{U8,S8}[.ACC]`, `VIADD.16x2` (a negated second source
//! for `sub`) and `VIMNMX.{S16x2,U16x2}`.
//!
//! `cp.async` becomes `LDGSTS` (the whole width copied, with a source size of 0 the
//! zero-filling form `LDGSTS ..., !PT`, any other source size, immediate or register,
//! `LDGSTS.ZFILL` with the zero-fill count `(size - n) & (size - 1)` added to the global
//! address and the copy predicate `n != 0`, as ptxas selects it), `commit_group`
//! `LDGDEPBAR` and `wait_group n` `DEPBAR.LE SB0, n`, as ptxas emits them. The scheduler keeps
//! SB0 for the `LDGDEPBAR`s of a function that has them ([`crate::sched`]).
//!
//! Invariant: every selected form computes exactly what the PTX-stage opcode computes (the
//! SASS-stage opcodes share its [`crate::ori::Sem::Vop`]/[`crate::ori::Sem::VopAdd`]
//! semantics); saturating forms and the lane operations sm_90 has no single instruction for
//! are computed lane by lane with 32-bit integer operations ([`Sel::video_by_lanes`]; ptxas
//! uses its own PRMT-based sequences), exactly as the semantics table defines them; so is
//! `vabsdiff4` where the target has no `VABSDIFF4` (sm_120).

use super::{R, Sel, imm};
use crate::ori::{
    Cmp, Flag, Imm, InstData, MemRef, Mods, Opcode, Operand, PhysReg, Reg, RegClass, RegFile, RegUse, SubOp, Ty, VReg,
};

impl Sel<'_> {
    pub(crate) fn sel_video(&mut self, d: &InstData) -> R<()> {
        let dst = Self::dst(d)?;
        if d.mods.has(Flag::Sat) {
            return self.video_by_lanes(d, dst);
        }
        let sub = d.mods.sub.ok_or("no operation")?;
        // PTX stage: a, b, c, a-selector, b-selector, mask, b signed. The SASS forms below take
        // the default selectors, the full mask and b typed as a.
        let imm = |k: usize| match d.srcs.get(k) {
            Some(Operand::Imm(Imm::Int(v))) => Some(*v),
            _ => None,
        };
        let four = matches!(d.opcode, Opcode::Vop4 | Opcode::Vop4Add);
        let defaults = if four { [0x3210, 0x7654, 0xf] } else { [0x10, 0x32, 0x3] };
        let b_signed = i64::from(d.mods.src_ty.is_some_and(|t| t.is_signed()));
        if d.srcs.len() != 7
            || (3..6).any(|k| imm(k) != Some(defaults[k - 3]))
            || imm(6) != Some(b_signed)
            || d.mods.cmp.is_some()
        {
            return self.video_by_lanes(d, dst);
        }
        let op = match (d.opcode, sub) {
            (Opcode::Vop4, SubOp::Absdiff) => Opcode::VABSDIFF4,
            (Opcode::Vop4Add, SubOp::Absdiff) => Opcode::VABSDIFF4ACC,
            (Opcode::Vop2, SubOp::AddOp | SubOp::SubtractOp) => Opcode::VIADD2,
            (Opcode::Vop2, SubOp::MinOp | SubOp::MaxOp) => Opcode::VIMNMX2,
            _ => return self.video_by_lanes(d, dst),
        };
        // sm_120 has no `VABSDIFF4` (ptxas uses `VIMNMX.U8x4` and `VIADD.U8x4` there).
        if matches!(op, Opcode::VABSDIFF4 | Opcode::VABSDIFF4ACC) && !self.target.has_sass("VABSDIFF4") {
            return self.video_by_lanes(d, dst);
        }
        let mut srcs = Vec::new();
        let n = if op == Opcode::VABSDIFF4ACC { 3 } else { 2 };
        for s in &d.srcs[..n] {
            srcs.push(self.reg_src(s)?);
        }
        let mods = Mods { ty: d.mods.ty, src_ty: d.mods.src_ty, sub: Some(sub), ..Mods::new() };
        self.emit(op, mods, vec![dst], srcs);
        Ok(())
    }

    /// Any SIMD video operation (lane selectors, destination mask, `.sat`, `vavrg`, `vset`,
    /// the accumulating `.add` forms) lane by lane with 32-bit integer operations, each selected
    /// as usual: a lane's operands are fields of the pair `{b, a}` extracted with `bfe`
    /// (sign-extended for a signed source), the operation is exact in 32 bits (the fields are
    /// at most 16 bits wide), `.sat` clamps to the destination type's lane range, and the
    /// result lanes the mask selects are inserted into `c` with `bfi` (the accumulating forms
    /// add them to `c` instead) — [`crate::ori::Sem::Vop`]'s definition, step by step.
    fn video_by_lanes(&mut self, d: &InstData, dst: Reg) -> R<()> {
        let sub = d.mods.sub.ok_or("no operation")?;
        let (Some(dt), Some(at)) = (d.mods.ty, d.mods.src_ty) else {
            return Err("a SIMD video operation needs two types".into());
        };
        let imm_at = |k: usize| match d.srcs.get(k) {
            Some(Operand::Imm(Imm::Int(v))) => Ok(*v),
            _ => Err(format!("SIMD video operand {k} is not an immediate")),
        };
        if d.srcs.len() != 7 {
            return Err("a PTX-stage SIMD video operation has 7 operands".into());
        }
        let (asel, bsel, dmask, b_signed) = (imm_at(3)?, imm_at(4)?, imm_at(5)?, imm_at(6)? != 0);
        let lanes: i64 = if matches!(d.opcode, Opcode::Vop2 | Opcode::Vop2Add) { 2 } else { 4 };
        let acc = matches!(d.opcode, Opcode::Vop2Add | Opcode::Vop4Add);
        let bits = 32 / lanes;
        let a = self.reg_src(&d.srcs[0])?;
        let b = self.reg_src(&d.srcs[1])?;
        let c = self.reg_src(&d.srcs[2])?;
        let s32 = || Mods::ty(Ty::S32);
        let mut out = c.clone();
        for i in 0..lanes {
            // The lane's two operands.
            let field = |s: &mut Self, sel: i64, signed: bool| -> R<Operand> {
                let k = (sel >> (4 * i) & 0xf) % (2 * lanes);
                let (src, at) = if k < lanes { (&a, k) } else { (&b, k - lanes) };
                let t = s.t32();
                let m = Mods::ty(if signed { Ty::S32 } else { Ty::U32 });
                s.inst(&InstData::new(Opcode::Bfe, m, vec![t.into()], vec![src.clone(), imm(bits * at), imm(bits)]))?;
                Ok(Operand::reg(t))
            };
            let x = field(self, asel, at.is_signed())?;
            let y = field(self, bsel, b_signed)?;
            let r = self.t32();
            let op2 = |s: &mut Self, op: Opcode, dst: VReg, x: Operand, y: Operand| {
                s.inst(&InstData::new(op, s32(), vec![dst.into()], vec![x, y]))
            };
            match sub {
                SubOp::AddOp => op2(self, Opcode::Add, r, x, y)?,
                SubOp::SubtractOp => op2(self, Opcode::Sub, r, x, y)?,
                SubOp::MinOp => op2(self, Opcode::Min, r, x, y)?,
                SubOp::MaxOp => op2(self, Opcode::Max, r, x, y)?,
                SubOp::Absdiff => {
                    let t = self.t32();
                    op2(self, Opcode::Sub, t, x, y)?;
                    self.inst(&InstData::new(Opcode::Abs, s32(), vec![r.into()], vec![Operand::reg(t)]))?;
                }
                SubOp::Avrg => {
                    // (x + y + 1) >> 1 for a non-negative sum, (x + y) >> 1 otherwise:
                    // (s + 1 + (s >> 31)) >> 1, arithmetic shifts.
                    let (sum, neg, up, t) = (self.t32(), self.t32(), self.t32(), self.t32());
                    op2(self, Opcode::Add, sum, x, y)?;
                    op2(self, Opcode::Shr, neg, Operand::reg(sum), imm(31))?;
                    op2(self, Opcode::Add, up, Operand::reg(sum), imm(1))?;
                    op2(self, Opcode::Add, t, Operand::reg(up), Operand::reg(neg))?;
                    op2(self, Opcode::Shr, r, Operand::reg(t), imm(1))?;
                }
                SubOp::SetOp => {
                    let p = self.tp();
                    let m = Mods { cmp: d.mods.cmp, ..s32() };
                    self.inst(&InstData::new(Opcode::Setp, m, vec![p.into()], vec![x, y]))?;
                    let sel = vec![imm(1), imm(0), Operand::reg(p)];
                    self.inst(&InstData::new(Opcode::Selp, s32(), vec![r.into()], sel))?;
                }
                s => return Err(format!("SIMD video operation {s:?}")),
            }
            if dmask >> i & 1 == 0 {
                continue;
            }
            let mut v = Operand::reg(r);
            if acc {
                let t = self.t32();
                op2(self, Opcode::Add, t, out, v)?;
                out = Operand::reg(t);
                continue;
            }
            if d.mods.has(Flag::Sat) {
                let (lo, hi) = if dt.is_signed() {
                    (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
                } else {
                    (0, (1i64 << bits) - 1)
                };
                let (t, u) = (self.t32(), self.t32());
                op2(self, Opcode::Max, t, v, imm(lo))?;
                op2(self, Opcode::Min, u, Operand::reg(t), imm(hi))?;
                v = Operand::reg(u);
            }
            let t = self.t32();
            let m = Mods::ty(Ty::B32);
            self.inst(&InstData::new(Opcode::Bfi, m, vec![t.into()], vec![v, out, imm(bits * i), imm(bits)]))?;
            out = Operand::reg(t);
        }
        self.copy(dst, &out, Ty::B32)
    }

    pub(crate) fn sel_cp_async(&mut self, d: &InstData) -> R<()> {
        match d.opcode {
            Opcode::CpAsyncCommit => self.emit(Opcode::LDGDEPBAR, Mods::new(), vec![], vec![]),
            Opcode::CpAsyncWait => self.emit(Opcode::DEPBAR, Mods::new(), vec![], d.srcs.clone()),
            _ => {
                let (Some(Operand::Mem(dm)), Some(Operand::Mem(sm)), Some(n)) =
                    (d.srcs.first(), d.srcs.get(1), d.srcs.get(2))
                else {
                    return Err("cp.async operands".into());
                };
                let size = i64::from(d.ty().map_or(0, |t| t.bits() / 8));
                let dm = self.shared_ref(dm)?;
                let mut mods = Mods { ty: d.mods.ty, sub: d.mods.sub, ..Mods::new() };
                let pt = |not: bool| -> R<Operand> {
                    let pt = PhysReg::zero(RegFile::P).ok_or("no PT")?;
                    Ok(Operand::Reg(RegUse { reg: pt.into(), neg: false, abs: false, not }))
                };
                let (src, p) = match n {
                    // The whole width, or (`!PT`) nothing: zeros.
                    Operand::Imm(Imm::Int(v)) if *v == size => (sm.clone(), pt(false)?),
                    Operand::Imm(Imm::Int(0)) => (sm.clone(), pt(true)?),
                    // A constant part: `.ZFILL` with the zero-fill count in the address's low
                    // bits (as ptxas: `[Rg.64+size-n]`).
                    Operand::Imm(Imm::Int(v)) if (1..size).contains(v) => {
                        mods.set(Flag::Zfill);
                        (MemRef { offset: sm.offset + (size - v), ..sm.clone() }, pt(false)?)
                    }
                    Operand::Imm(_) => return Err("cp.async source size larger than the copy size".into()),
                    // A register: `.ZFILL` from `Rg + ((size - n) & (size - 1))`, copying when
                    // `n != 0` (ptxas's IADD3, LOP3, 64-bit add and ISETP.NE).
                    n => {
                        let Some(base) = sm.base else {
                            return Err("cp.async with a register source size and no address register".into());
                        };
                        mods.set(Flag::Zfill);
                        let n = self.src(n)?;
                        let (t, z) = (self.t32(), self.t32());
                        let s32 = Mods::ty(Ty::U32);
                        self.inst(&InstData::new(
                            Opcode::Sub,
                            s32.clone(),
                            vec![t.into()],
                            vec![imm(size), n.clone()],
                        ))?;
                        let and = vec![Operand::reg(t), imm(size - 1)];
                        self.inst(&InstData::new(Opcode::And, Mods::ty(Ty::B32), vec![z.into()], and))?;
                        let (z64, a) = (self.vreg(RegClass::R64), self.vreg(RegClass::R64));
                        let cvt = Mods { ty: Some(Ty::U64), src_ty: Some(Ty::U32), ..Mods::new() };
                        self.inst(&InstData::new(Opcode::Cvt, cvt, vec![z64.into()], vec![Operand::reg(z)]))?;
                        let add = vec![Operand::reg(base), Operand::reg(z64)];
                        self.inst(&InstData::new(Opcode::Add, Mods::ty(Ty::U64), vec![a.into()], add))?;
                        let p = self.tp();
                        self.isetp(p.into(), Cmp::Ne, Ty::U32, n, imm(0));
                        (MemRef { base: Some(a.into()), ..sm.clone() }, Operand::reg(p))
                    }
                };
                self.emit(Opcode::LDGSTS, mods, vec![], vec![Operand::Mem(dm), Operand::Mem(src), p]);
            }
        }
        Ok(())
    }
}
