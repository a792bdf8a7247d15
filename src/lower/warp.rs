//! Warp-level instructions: `shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`,
//! `elect.sync`, `activemask`.
//!
//! Invariant: the member mask is kept as an operand (the interpreter checks that every member
//! lane is active, as the hardware requires); the pre-sm_70 forms without `.sync` use the full
//! mask.

use super::Result;
use super::func::FnCx;
use super::mods::PtxMods;
use super::types::class_of_ty;
use crate::ori::{Imm, Mods, Opcode, Operand, RegClass, SubOp, Ty};
use crate::ptx::ast;

impl FnCx<'_> {
    fn mask_operand(&mut self, i: &ast::Instruction, n: usize) -> Result<Operand> {
        match i.operands.get(n) {
            Some(o) => self.src(o, Ty::B32),
            None => Ok(Operand::Imm(Imm::Int(0xFFFF_FFFF))),
        }
    }

    fn dual_dst(&mut self, i: &ast::Instruction, class: RegClass) -> Result<(crate::ori::Reg, crate::ori::Reg)> {
        match self.operand(i, 0)? {
            ast::Operand::Dual(d, p) => {
                let d = self.dst(&d.to_operand(), class)?;
                let p = self.dst(&p.to_operand(), RegClass::P)?;
                Ok((d, p))
            }
            o => {
                let d = self.dst(o, class)?;
                Ok((d, self.tmp(RegClass::P).into()))
            }
        }
    }

    /// Warp-level instructions.
    pub(super) fn warp(&mut self, i: &ast::Instruction) -> Result<()> {
        let name = i.opcode.name.as_str();
        let mut m = PtxMods::of(i, false);
        match name {
            "shfl" => {
                let Some(mode) = m.take(&["up", "down", "bfly", "idx"]) else { return self.err("shfl needs a mode") };
                self.leftovers(&m)?;
                let (d, p) = self.dual_dst(i, RegClass::R32)?;
                let mut s = Vec::new();
                for k in 1..4 {
                    s.push(self.src(self.operand(i, k)?, Ty::B32)?);
                }
                s.push(self.mask_operand(i, 4)?);
                let md = Mods { sub: SubOp::from_name(&mode), ..Mods::ty(Ty::B32) };
                self.emit(Opcode::Shfl, md, vec![d, p], s)?;
                Ok(())
            }
            "vote" => {
                let mode = match m.take(&["all", "any", "uni", "ballot"]) {
                    Some(x) => x,
                    None if m.has("uni") => "uni".to_owned(),
                    None => return self.err("vote needs a mode"),
                };
                self.leftovers(&m)?;
                let a = self.src(self.operand(i, 1)?, Ty::Pred)?;
                let mask = self.mask_operand(i, 2)?;
                if mode == "ballot" {
                    let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
                    self.emit(Opcode::Ballot, Mods::new(), vec![d], vec![a, mask])?;
                } else {
                    let d = self.dst(self.operand(i, 0)?, RegClass::P)?;
                    let md = Mods { sub: SubOp::from_name(&mode), ..Mods::new() };
                    self.emit(Opcode::Vote, md, vec![d], vec![a, mask])?;
                }
                Ok(())
            }
            "match" => {
                let Some(mode) = m.take(&["any", "all"]) else { return self.err("match needs a mode") };
                self.leftovers(&m)?;
                let ty = self.one_ty(&m.types)?;
                let a = self.src(self.operand(i, 1)?, ty)?;
                let mask = self.mask_operand(i, 2)?;
                if mode == "any" {
                    let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
                    self.emit(Opcode::MatchAny, Mods::ty(ty), vec![d], vec![a, mask])?;
                } else {
                    let (d, p) = self.dual_dst(i, RegClass::R32)?;
                    self.emit(Opcode::MatchAll, Mods::ty(ty), vec![d, p], vec![a, mask])?;
                }
                Ok(())
            }
            "redux" => {
                let Some(op) = m.take(&["add", "min", "max", "and", "or", "xor"]) else {
                    return self.err("redux needs an operation");
                };
                self.leftovers(&m)?;
                let ty = self.one_ty(&m.types)?;
                if ty.is_float() {
                    return self.err("float redux is not supported");
                }
                let a = self.src(self.operand(i, 1)?, ty)?;
                let mask = self.mask_operand(i, 2)?;
                let d = self.dst(self.operand(i, 0)?, class_of_ty(ty))?;
                let md = Mods { sub: SubOp::from_name(&op), ..Mods::ty(ty) };
                self.emit(Opcode::Redux, md, vec![d], vec![a, mask])?;
                Ok(())
            }
            "elect" => {
                self.leftovers(&m)?;
                let (d, p) = self.dual_dst(i, RegClass::R32)?;
                let mask = self.mask_operand(i, 1)?;
                self.emit(Opcode::Elect, Mods::new(), vec![d, p], vec![mask])?;
                Ok(())
            }
            "activemask" => {
                let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
                self.emit(Opcode::Activemask, Mods::new(), vec![d], vec![])?;
                Ok(())
            }
            _ => self.err(format!("`{name}` is not supported")),
        }
    }
}
