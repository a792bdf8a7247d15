//! Selection of `setmaxnreg.{inc,dec}.sync.aligned.u32 n` (sm_90a), as ptxas 13.0.88 selects
//! it (measured with `ptxas -arch sm_90a` and `nvdisasm`):
//!
//! | PTX | SASS |
//! |---|---|
//! | `setmaxnreg.dec ... n` | `USETMAXREG.DEALLOC.CTAPOOL n` |
//! | `setmaxnreg.inc ... n` | `L: USETMAXREG.TRY_ALLOC.CTAPOOL UPk, n; PLOP3.LUT Pj, PT, PT, PT, UPk, 0x80, 0x0; @!Pj BRA L` |
//!
//! At -O0 ([`super::SelectOptions::sync_setmaxnreg`]) a `WARPSYNC.ALL` comes first; above
//! -O0 ptxas puts none. `.TRY_ALLOC` may fail while the CTA's register pool is short; the loop
//! retries until the registers are granted.
//!
//! Invariant: the instruction reaches selection only in a kernel whose register count at
//! entry is known; the backend drops it (with ptxas's C7508 info) otherwise, and sets the
//! kernel's REGCOUNT to that count. A guarded `setmaxnreg` (`.aligned`: every thread of the
//! warp executes it) is refused as not selected yet.

use super::{InstData, Opcode, Operand, R, Sel, imm, pt, pt_reg};
use crate::ori::{Guard, Mods, RegClass};

impl Sel<'_> {
    /// `setmaxnreg`: the table of the module doc.
    pub(crate) fn sel_setmaxnreg(&mut self, d: &InstData, sync: bool) -> R<()> {
        let (Some(Operand::Imm(n)), Some(Operand::Imm(inc))) = (d.srcs.first(), d.srcs.get(1)) else {
            return Err("setmaxnreg operands".into());
        };
        let (n, inc) = (n.bits() as i64, inc.bits() != 0);
        if self.guard.is_some() {
            return Err("a predicated `setmaxnreg` is not selected yet".into());
        }
        if sync {
            self.emit(Opcode::WARPSYNC, Mods::new(), vec![], vec![imm(i64::from(u32::MAX))]);
            self.warp_synced = true;
        }
        if !inc {
            self.emit(Opcode::USETMAXREG, Mods::new(), vec![], vec![imm(n), imm(0)]);
            return Ok(());
        }
        if self.has_phis() {
            return Err("a `setmaxnreg.inc` (a loop of its own) in a function with phis is not selected yet".into());
        }
        let before = self.cur.ok_or("no current block")?;
        let lp = self.split_block();
        self.f.push_inst(before, InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(lp)]));
        let up = self.vreg(RegClass::UP);
        self.emit(Opcode::USETMAXREG, Mods::new(), vec![up.into()], vec![imm(n), imm(1)]);
        let p = self.tp();
        self.emit(
            Opcode::PLOP3,
            Mods::new(),
            vec![p.into(), pt_reg()],
            vec![pt(), pt(), Operand::reg(up), imm(0x80), imm(0)],
        );
        let back = InstData {
            guard: Some(Guard { reg: p.into(), not: true }),
            ..InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(lp)])
        };
        self.push(back);
        // The loop block ends with the back branch and falls into the code after it.
        self.split_block();
        self.warp_synced = false;
        Ok(())
    }
}
