//! Moves, special registers, branches, exit/return, barriers.
//!
//! - `mov` of data → `MOV` (64-bit: a register-pair copy); of a predicate → `PLOP3.LUT`;
//!   of a special register → `S2R`, except `%ntid.*`/`%nctaid.*`, read from constant bank 0
//!   (`LDC c[0x0][0x0..0x8]`, `c[0x0][0xc..0x14]`) as ptxas does on sm_90.
//! - `bra` → `BRA` (guard kept), `exit` and a kernel's `ret` → `EXIT`, a `.func`'s `ret`
//!   without values → `RET`; `bar.sync` → `WARPSYNC.ALL` + `BAR.SYNC`; `membar` → `MEMBAR`; `bar.warp.sync`
//!   → `WARPSYNC` (a register mask unless full; see [`Sel::warp_sync`]).
//! - A `.func`'s `ret` and direct calls follow the ABI of [`super::call`]; indirect calls
//!   (`calli`, through function pointers) are not selected yet.

use super::{R, Sel, imm, pt, pt_reg};
use crate::ori::{CBank, Flag, FuncKind, InstData, Mods, Opcode, Operand, Reg, SpecialReg, Ty};
use Opcode::{BRA, ISETP};

impl Sel<'_> {
    /// Reads special register `sr` into `dst`.
    pub(crate) fn read_sreg(&mut self, dst: Reg, sr: SpecialReg) -> R<()> {
        use SpecialReg::*;
        let bank = |off: i32| Operand::CBank(CBank { bank: 0, index: None, offset: off });
        let off = match sr {
            NtidX => Some(0x0),
            NtidY => Some(0x4),
            NtidZ => Some(0x8),
            NctaidX => Some(0xc),
            NctaidY => Some(0x10),
            NctaidZ => Some(0x14),
            _ if sr.is_pseudo() => {
                return Err(format!("{} (computed from constant bank 0) is not selected yet", sr.name()));
            }
            _ => None,
        };
        match off {
            Some(o) => self.emit(Opcode::LDC, Mods::new(), vec![dst], vec![bank(o)]),
            None => self.emit(Opcode::S2R, Mods::new(), vec![dst], vec![Operand::SReg(sr)]),
        }
        Ok(())
    }

    pub(crate) fn sel_mov(&mut self, d: &InstData) -> R<()> {
        if d.opcode != Opcode::Mov {
            return self.sel_addr(d);
        }
        let dst = Self::dst(d)?;
        let t = d.ty().ok_or("mov without a type")?;
        let s = &d.srcs[0];
        if t == Ty::Pred {
            let a = self.pred_src(s)?;
            // PLOP3.LUT d, PT, a, PT, PT, 0xf0: d = a.
            self.emit(Opcode::PLOP3, Mods::new(), vec![dst, pt_reg()], vec![a, pt(), pt(), imm(0xf0), imm(0)]);
            return Ok(());
        }
        if let Operand::SReg(sr) = s {
            if t.bits() == 64 {
                return Err(format!("a 64-bit read of {}", sr.name()));
            }
            return self.read_sreg(dst, *sr);
        }
        if t.bits() > 64 {
            return Err(format!("mov.{t} is not selected yet"));
        }
        self.copy(dst, s, t)
    }

    pub(crate) fn sel_control(&mut self, d: &InstData) -> R<()> {
        use Opcode::*;
        match d.opcode {
            Bra => self.emit(BRA, Mods::new(), vec![], d.srcs.clone()),
            Exit => self.emit(EXIT, Mods::new(), vec![], vec![]),
            Ret => {
                if self.f.kind == FuncKind::Entry {
                    self.emit(EXIT, Mods::new(), vec![], vec![]);
                } else {
                    self.sel_func_ret(d)?;
                }
            }
            Bar => {
                let id = match d.srcs.first() {
                    Some(o) => self.src(o)?,
                    None => imm(0),
                };
                // The GPU needs the warp converged at a CTA barrier (measured on an H200: a
                // warp that reached BAR.SYNC split lost its other lanes' earlier shared stores;
                // `corpus/gpu/README.md`); ptxas reconverges with `WARPSYNC.ALL` first.
                self.emit(WARPSYNC, Mods::new(), vec![], vec![imm(i64::from(u32::MAX))]);
                self.warp_synced = self.guard.is_none();
                let m = Mods { flags: vec![Flag::Sync], ..Mods::new() };
                self.emit(BAR, m, vec![], vec![id]);
            }
            Membar => self.emit(MEMBAR, Mods::new(), vec![], vec![]),
            Warpsync => {
                self.warp_sync(&d.srcs[0])?;
            }
            op => return Err(format!("`{op}` is not selected yet")),
        }
        Ok(())
    }

    /// `brx.idx i, [t0, .., tn-1]`: a chain of compares and guarded branches, one block per
    /// target (`ISETP.EQ p, PT, i, k, g` + `@p BRA tk`), the last target taken unconditionally
    /// (under the instruction's guard). ptxas uses a `BRX` through a jump table in constant
    /// memory, which needs the cubin's table; an index out of range (undefined in PTX) goes
    /// to the last target here.
    pub(crate) fn sel_brx(&mut self, d: &InstData) -> R<()> {
        if self.has_phis() {
            return Err("brx in a function with phis is not selected yet".into());
        }
        let g = self.guard.take();
        let idx = self.reg_src(&d.srcs[0])?;
        let targets: Vec<Operand> = d.srcs[1..].to_vec();
        let gp = match g {
            Some(g) => Operand::Reg(crate::ori::RegUse { reg: g.reg, neg: false, abs: false, not: g.not }),
            None => pt(),
        };
        for (k, t) in targets.iter().enumerate() {
            if k + 1 == targets.len() {
                self.push(InstData { guard: g, ..InstData::new(BRA, Mods::new(), vec![], vec![t.clone()]) });
                break;
            }
            let p = self.tp();
            let m = Mods {
                cmp: Some(crate::ori::Cmp::Eq),
                ty: Some(Ty::U32),
                bop: Some(crate::ori::BoolOp::And),
                ..Mods::new()
            };
            self.emit(ISETP, m, vec![p.into(), pt_reg()], vec![idx.clone(), imm(k as i64), gp.clone()]);
            let guard = crate::ori::Guard { reg: p.into(), not: false };
            self.push(InstData { guard: Some(guard), ..InstData::new(BRA, Mods::new(), vec![], vec![t.clone()]) });
            self.split_block();
        }
        Ok(())
    }
}
