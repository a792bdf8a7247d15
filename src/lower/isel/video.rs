//! SIMD video instructions (PTX `vabsdiff4`, packed 16-bit `add/sub/min/max`) to the sm_90
//! forms ptxas uses for them: `VABSDIFF4.{U8,S8}[.ACC]`, `VIADD.16x2` (a negated second source
//! for `sub`) and `VIMNMX.{S16x2,U16x2}`.
//!
//! `cp.async` becomes `LDGSTS` (the whole width copied, or with a source size of 0 the
//! zero-filling form `LDGSTS ..., !PT`; other source sizes are refused), `commit_group`
//! `LDGDEPBAR` and `wait_group n` `DEPBAR.LE SB0, n`, as ptxas emits them. The scheduler keeps
//! SB0 for the `LDGDEPBAR`s of a function that has them ([`crate::sched`]).
//!
//! Invariant: every selected form computes exactly what the PTX-stage opcode computes (the
//! SASS-stage opcodes share its [`crate::ori::Sem::Vop`]/[`crate::ori::Sem::VopAdd`]
//! semantics); saturating forms and the lane operations sm_90 has no single instruction for
//! are refused, not approximated.

use super::{R, Sel};
use crate::ori::{Flag, Imm, InstData, Mods, Opcode, Operand, PhysReg, RegFile, RegUse, SubOp};

impl Sel<'_> {
    pub(crate) fn sel_video(&mut self, d: &InstData) -> R<()> {
        let dst = Self::dst(d)?;
        if d.mods.has(Flag::Sat) {
            return Err("saturating SIMD video operations are not selected yet".into());
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
            return Err("SIMD video with lane selectors, a mask, mixed types or vset is not selected yet".into());
        }
        let op = match (d.opcode, sub) {
            (Opcode::Vop4, SubOp::Absdiff) => Opcode::VABSDIFF4,
            (Opcode::Vop4Add, SubOp::Absdiff) => Opcode::VABSDIFF4ACC,
            (Opcode::Vop2, SubOp::AddOp | SubOp::SubtractOp) => Opcode::VIADD2,
            (Opcode::Vop2, SubOp::MinOp | SubOp::MaxOp) => Opcode::VIMNMX2,
            (op, s) => return Err(format!("`{op}.{s}` is not selected yet")),
        };
        let mut srcs = Vec::new();
        let n = if op == Opcode::VABSDIFF4ACC { 3 } else { 2 };
        for s in &d.srcs[..n] {
            srcs.push(self.reg_src(s)?);
        }
        let mods = Mods { ty: d.mods.ty, src_ty: d.mods.src_ty, sub: Some(sub), ..Mods::new() };
        self.emit(op, mods, vec![dst], srcs);
        Ok(())
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
                let size = d.ty().map_or(0, |t| t.bits() / 8);
                let copy = match n {
                    Operand::Imm(Imm::Int(v)) if *v == i64::from(size) => false,
                    Operand::Imm(Imm::Int(0)) => true,
                    _ => {
                        return Err(
                            "cp.async with a source size other than 0 or the copy size is not selected yet".into()
                        );
                    }
                };
                let dm = self.shared_ref(dm)?;
                let pt = PhysReg::zero(RegFile::P).ok_or("no PT")?;
                let p = Operand::Reg(RegUse { reg: pt.into(), neg: false, abs: false, not: copy });
                let mods = Mods { ty: d.mods.ty, sub: d.mods.sub, ..Mods::new() };
                self.emit(Opcode::LDGSTS, mods, vec![], vec![Operand::Mem(dm), Operand::Mem(sm.clone()), p]);
            }
        }
        Ok(())
    }
}
