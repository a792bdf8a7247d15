//! CTA barriers (`lower::barrier`): `bar` → `BAR.SYNC.DEFER_BLOCKING`, `bararrive` → `BAR.ARV`,
//! `barred` → `BAR.RED.{POPC,AND,OR}.DEFER_BLOCKING` then `B2R.RESULT d` (`.popc`) or
//! `B2R.RESULT RZ, d` (`.and`/`.or`), as ptxas selects them.
//!
//! Operands: an immediate or register id and an optional immediate or register count pass as
//! they are; a register id with a register count is packed into one register,
//! `count << 16 | id & 0xf`, named twice (`BAR.SYNC Ra, Ra`: the only form with two registers).
//! Each barrier is preceded by `WARPSYNC 0xffffffff` (ptxas reconverges the warp first).
//!
//! The cluster barrier (`clusterarrive`/`clusterwait`) is [`Sel::sel_cluster_barrier`].

use super::{R, Sel, imm, pt_reg};
use crate::ori::{Flag, InstData, Mods, Opcode, Operand, PhysReg, Reg, RegFile, SubOp, Ty};

impl Sel<'_> {
    pub(crate) fn sel_barrier(&mut self, d: &InstData) -> R<()> {
        let red = d.opcode == Opcode::BarRed;
        let ci = if red { 2 } else { 1 };
        let id = match d.srcs.first() {
            Some(o) => self.bar_operand(o)?,
            None => imm(0),
        };
        let count = d.srcs.get(ci).map(|o| self.bar_operand(o)).transpose()?;
        let (id, count) = match (id, count) {
            (a @ Operand::Reg(_), Some(b @ Operand::Reg(_))) => {
                let (t, u, v) = (self.t32(), self.t32(), self.t32());
                let b32 = || Mods::ty(Ty::B32);
                self.inst(&InstData::new(Opcode::Shl, b32(), vec![t.into()], vec![b, imm(16)]))?;
                self.inst(&InstData::new(Opcode::And, b32(), vec![u.into()], vec![a, imm(15)]))?;
                self.inst(&InstData::new(Opcode::Or, b32(), vec![v.into()], vec![Operand::reg(t), Operand::reg(u)]))?;
                (Operand::reg(v), Some(Operand::reg(v)))
            }
            x => x,
        };
        self.emit(Opcode::WARPSYNC, Mods::new(), vec![], vec![imm(i64::from(u32::MAX))]);
        self.warp_synced = self.guard.is_none();
        let mut srcs = vec![id];
        if red {
            srcs.push(self.src(&d.srcs[1])?);
        }
        srcs.extend(count);
        match d.opcode {
            Opcode::Bar => {
                let m = Mods { flags: vec![Flag::Sync], ..Mods::new() };
                self.emit(Opcode::BAR, m, vec![], srcs);
            }
            Opcode::BarArrive => self.emit(Opcode::BARARV, Mods::new(), vec![], srcs),
            _ => {
                let sub = d.mods.sub.ok_or("bar.red without a combiner")?;
                self.emit(Opcode::BARRED, Mods { sub: Some(sub), ..Mods::new() }, vec![], srcs);
                let rz: Reg = PhysReg::zero(RegFile::R).ok_or("no RZ")?.into();
                let dsts = if sub == SubOp::PopcOp { vec![d.dsts[0], pt_reg()] } else { vec![rz, d.dsts[0]] };
                self.emit(Opcode::B2R, Mods::new(), dsts, vec![]);
            }
        }
        Ok(())
    }

    /// `clusterarrive` / `clusterwait` (`barrier.cluster`), as ptxas 13.0.88 selects them on
    /// sm_90: a test of driver slot `c[0x0][0x140] == 1` (is the launch a cluster launch?), then
    /// - arrive: `MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; UCGABAR_ARV` (`.relaxed`: `UCGABAR_ARV`
    ///   alone) in a cluster launch, nothing otherwise;
    /// - wait: `UCGABAR_WAIT; CCTL.IVALL` in a cluster launch, `WARPSYNC 0xffffffff;
    ///   BAR.SYNC 0` otherwise (the CTA is the whole cluster).
    ///
    /// Each path is its own block (`@!P BRA other`, then the cluster path falling through, `BRA after`). Refused under a
    /// guard or in a function with phis (the split would rename their predecessors).
    pub(crate) fn sel_cluster_barrier(&mut self, d: &InstData) -> R<()> {
        use crate::ori::{Cmp, Guard, fence::Membar};
        if self.guard.is_some() || self.has_phis() {
            return Err("`barrier.cluster` under a guard or in a function with phis is not selected yet".into());
        }
        let arrive = d.opcode == Opcode::ClusterArrive;
        let relaxed = arrive && matches!(d.srcs.first(), Some(Operand::Imm(i)) if i.bits() == 1);
        let (w, p) = (self.t32(), self.tp());
        let slots = self.driver_slots()?;
        let slot = crate::ori::CBank { bank: 0, index: None, offset: slots.explicit_cluster as i32 };
        self.emit(Opcode::LDC, Mods::new(), vec![w.into()], vec![Operand::CBank(slot)]);
        self.isetp(p.into(), Cmp::Eq, Ty::U32, Operand::reg(w), imm(1));
        let before = self.cur.ok_or("no current block")?;
        let cluster = self.split_block();
        if arrive {
            if !relaxed {
                self.emit(Opcode::MEMBAR, Mods::new(), vec![], vec![imm(Membar { sc: false, scope: 1 }.code())]);
                self.emit(Opcode::ERRBAR, Mods::new(), vec![], vec![]);
                self.emit(Opcode::CGAERRBAR, Mods::new(), vec![], vec![]);
            }
            self.emit(Opcode::UCGABARARV, Mods::new(), vec![], vec![]);
        } else {
            self.emit(Opcode::UCGABARWAIT, Mods::new(), vec![], vec![]);
            self.emit(Opcode::CCTLIVALL, Mods::new(), vec![], vec![]);
        }
        let other = self.split_block();
        let after = if arrive {
            other
        } else {
            self.emit(Opcode::WARPSYNC, Mods::new(), vec![], vec![imm(i64::from(u32::MAX))]);
            let m = Mods { flags: vec![Flag::Sync], ..Mods::new() };
            self.emit(Opcode::BAR, m, vec![], vec![imm(0)]);
            let after = self.split_block();
            self.f.push_inst(other, InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(after)]));
            after
        };
        let skip = InstData {
            guard: Some(Guard { reg: p.into(), not: true }),
            ..InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(other)])
        };
        // A guarded branch ends its block; the cluster path is the fall-through.
        self.f.push_inst(before, skip);
        self.f.push_inst(cluster, InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(after)]));
        self.warp_synced = false;
        Ok(())
    }

    /// An id or count: an immediate, or a register.
    fn bar_operand(&mut self, o: &Operand) -> R<Operand> {
        match self.src(o)? {
            i @ Operand::Imm(_) => Ok(i),
            o => self.reg_src(&o),
        }
    }
}
