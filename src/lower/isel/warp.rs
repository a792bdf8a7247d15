//! Warp-wide operations.
//!
//! - `shfl.sync.{idx,up,down,bfly}.b32 d[|p], a, b, c, membermask` → `SHFL.<mode> Pd, Rd, a, b,
//!   c` (`PT` when PTX has no predicate destination). `a` is a register; `b` (lane/offset) and
//!   `c` (segment mask and clamp, packed as in PTX) stay immediates where they fit SASS's
//!   fields (5 and 13 bits) and go to registers otherwise. The lanes are first synchronised
//!   with `WARPSYNC mask` (ptxas builds a `WARPSYNC.COLLECTIVE` region for a partial mask, and
//!   reconverges with `BSSY`/`BSYNC` before a full-warp one, which we do not emit): a warp that
//!   diverged earlier (a loop with per-lane trip counts) is not reconverged by reaching the same
//!   pc, and the H100 ran our `SHFL.DOWN` reduction once per lane group, each reading the other
//!   group's lanes as inactive (algo_spmv_csr at -O3). A full-warp mask needs no new `WARPSYNC`
//!   when one was selected earlier in the same block. The Ori `SHFL` keeps the mask as its last
//!   source for the interpreter's check.

use super::{R, Sel, pt_reg};
use crate::ori::{Imm, InstData, Mods, Opcode, Operand, SubOp};

impl Sel<'_> {
    /// `shfl.sync`.
    pub(crate) fn sel_shfl(&mut self, d: &InstData) -> R<()> {
        if !matches!(d.mods.sub, Some(SubOp::Idx | SubOp::Up | SubOp::Down | SubOp::Bfly)) {
            return Err("shfl without a mode".into());
        }
        if d.srcs.len() != 4 || d.dsts.is_empty() {
            return Err("shfl takes a, b, c and a member mask".into());
        }
        let dst = Self::dst(d)?;
        let pd = d.dsts.get(1).copied().unwrap_or_else(pt_reg);
        let a = self.reg_src(&d.srcs[0])?;
        let field = |s: &mut Self, o: &Operand, bits: u32| -> R<Operand> {
            match s.src(o)? {
                Operand::Imm(i) if (i.bits() as u32) < (1 << bits) => {
                    Ok(Operand::Imm(Imm::Int(i64::from(i.bits() as u32))))
                }
                o => s.reg_src(&o),
            }
        };
        let mut b = field(self, &d.srcs[1], 5)?;
        let mut c = field(self, &d.srcs[2], 13)?;
        // The (immediate B, immediate C) shapes our sm_90 tables list per mode (the modifier
        // table holds the combinations seen in ptxas output; `SHFL.IDX` only with a register
        // lane and an immediate clamp): drop immediates into registers until one fits.
        let allowed: &[(bool, bool)] = match d.mods.sub {
            Some(SubOp::Idx) => &[(false, true)],
            Some(SubOp::Up) => &[(false, false), (true, false), (true, true)],
            Some(SubOp::Down) => &[(false, false), (false, true), (true, true)],
            _ => &[(false, false), (true, true)],
        };
        let (bi, ci) = (matches!(b, Operand::Imm(_)), matches!(c, Operand::Imm(_)));
        let Some(&(kb, kc)) = [(bi, ci), (false, ci), (bi, false), (false, false)].iter().find(|x| allowed.contains(x))
        else {
            return Err(format!(
                "SHFL.{} with a register clamp/segment operand has no form in our sm_90 tables",
                d.mods.sub.map_or("", |s| s.name())
            ));
        };
        if bi && !kb {
            b = self.reg_src(&b)?;
        }
        if ci && !kc {
            c = self.reg_src(&c)?;
        }
        let mask = self.src(&d.srcs[3])?;
        let full = matches!(mask, Operand::Imm(i) if i.bits() as u32 == u32::MAX);
        if !full || !self.warp_synced {
            self.emit(Opcode::WARPSYNC, Mods::new(), vec![], vec![mask.clone()]);
            self.warp_synced = full && self.guard.is_none();
        }
        let m = Mods { ty: d.mods.ty, sub: d.mods.sub, ..Mods::new() };
        self.emit(Opcode::SHFL, m, vec![dst, pd], vec![a, b, c, mask]);
        Ok(())
    }
}
