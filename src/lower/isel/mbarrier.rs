//! mbarrier operations and the copies that complete on them, selected as ptxas 13.0 does on
//! sm_90 (read from `ptxas -arch sm_90 -O0/-O3` listings of the corpus kernels async_mbarrier,
//! async_bulk_mbarrier and async_cg_memcpy):
//!
//! | PTX-stage | SASS |
//! |---|---|
//! | `mbarinit [b], n` | the word `(2^20-n) << 1 \| (2^20-n) << 43` in registers, `R2UR`s, `FENCE.VIEW.ASYNC.S`, `SYNCS.EXCH.64 URZ, [URb], URw` |
//! | `mbararrive d, [b], 1, 0` | `SYNCS.ARRIVE.TRANS64.A1T0 Rd, [Rb+URZ], RZ` |
//! | `mbararrive d, [b], 1, tx` | `SYNCS.ARRIVE.TRANS64 Rd, [Rb+URZ], Rtx` |
//! | `mbararrive d, [b], n, 0` | `SYNCS.ARRIVE.TRANS64.ART0 Rd, [Rb+URZ], Rn` (ptxas -O0) |
//! | `mbararrive d, [b], 0, tx` (`expect_tx`) | `SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [Rb+URZ], Rtx` (no token) |
//! | `mbararrive.completetx d, [b], 0, tx` | `SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [Rb+URZ], Rtx` (no token) |
//! | `mbararrive.optout d, [b], ...` (`arrive_drop`) | the arrive forms above with `.OPTOUT` (`.OPTOUT.A1T0`, `.OPTOUT`, `.OPTOUT.ART0`) |
//! | `mbartestwait p, [b], t` | `YIELD`, `SYNCS.PHASECHK.TRANS64 P, [Rb+URZ], Rt.hi` |
//! | `mbartrywait p, [b], t` | `YIELD`, `SYNCS.PHASECHK.TRANS64.TRYWAIT P, [Rb+URZ], Rt.hi` |
//! | `mbarinval [b]` | `SYNCS.CCTL.IV [Rb+URZ]` |
//! | `cpasyncmbararrive [b]` | `R2UR`, `SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [URb], RZ`, `ARRIVES.LDGSTSBAR.64.TRANSCNT [URb]` |
//! | `cpbulk [d], [s], n, [b]` | a loop: `ELECT P`, `R2UR`s, `UBLKCP.S.G [URd:URb], [URs], URn/16`, `@!P BRA` back |
//!
//! # Invariants
//!
//! - Barrier addresses are shared-window addresses (`SR_CgaCtaId << 24 | offset`, as every
//!   shared reference, [`super::memory`]); a generic barrier address is refused.
//! - Uniform operands (`SYNCS.EXCH.64`'s address and word, `ARRIVES`' address) are the value of
//!   the lowest executing lane (`R2UR`), as in ptxas's code; per-thread forms (`[Rb+URZ]`)
//!   are used wherever sm_90 has one.
//! - A bulk copy is issued once per executing lane, each with that lane's operands: the loop
//!   reads the operands with `R2UR` (the lowest lane still looping), issues the copy once for
//!   the warp, and that lane (the one `ELECT` picks, the same lowest lane) leaves the loop.
//!   ptxas uses the same `ELECT` loop (with `BRA.U.ANY` and uniform guards).
//! - A predicated `mbarrier.init` is selected in a block the guard's lanes branch into (ptxas:
//!   `@!P0 BRA` past it), since its operands are uniform.
//! - A register arrival count with transactions (no ptxas form seen) is refused, and so is
//!   `mbarrier.init` or a bulk copy under a predicate guard inside a function with phis.

use super::{R, Sel, imm, neg, r, rz};
use crate::ori::{Dir, Flag, Guard, Imm, InstData, MemRef, Mods, Opcode, Operand, Reg, RegClass, Space, Ty, VReg};

impl Sel<'_> {
    /// Selects one mbarrier operation (see the module doc).
    pub(crate) fn sel_mbarrier(&mut self, d: &InstData) -> R<()> {
        // These sequences are sm_90's: the target must have the units they use (the sm_80
        // family has no SYNCS mbarrier unit, no ARRIVES, no bulk copy).
        let unit = match d.opcode {
            Opcode::CpBulk => "UBLKCP",
            Opcode::CpAsyncMbarArrive => "ARRIVES",
            _ => "SYNCS",
        };
        if !self.target.has_sass(unit) {
            return Err(format!("`{}` for {} (no `{unit}` there)", d.opcode, self.target.name()));
        }
        let mem = |n: usize| -> R<&MemRef> {
            match d.srcs.get(n) {
                Some(Operand::Mem(m)) => Ok(m),
                _ => Err(format!("operand {n} is not a memory reference")),
            }
        };
        match d.opcode {
            Opcode::MbarInit if self.guard.is_some() => {
                // Its operands are uniform (the lowest executing lane's): lanes outside the
                // guard branch past it, as ptxas does (`@!P0 BRA` around the init).
                let g = self.guard.take();
                let r = self.branch_past(g, |s| s.sel_mbarrier(d));
                self.guard = g;
                r?;
            }
            Opcode::MbarInit => {
                let a = self.mbar_address(mem(0)?)?;
                let count = d.srcs.get(1).ok_or("no count")?;
                let (lo, hi) = match self.src(count)? {
                    Operand::Imm(Imm::Int(n)) => {
                        let w = crate::ori::mbarrier::init_word(n as u32);
                        (self.ur_of(imm(i64::from(w as u32)))?, self.ur_of(imm(i64::from((w >> 32) as u32)))?)
                    }
                    c => {
                        // (2^20 - n) << 1 and << 11, in 32-bit arithmetic as ptxas computes it.
                        let c = self.reg_src(&c)?;
                        let x = self.t32();
                        self.emit(Opcode::IADD3, Mods::new(), vec![x.into()], vec![neg(c), imm(0x10_0000), rz()]);
                        let shl = Mods { dir: Some(Dir::L), ty: Some(Ty::U32), ..Mods::new() };
                        let (l, h) = (self.t32(), self.t32());
                        self.emit(Opcode::SHF, shl.clone(), vec![l.into()], vec![r(x), imm(1), rz()]);
                        self.emit(Opcode::SHF, shl, vec![h.into()], vec![r(x), imm(11), rz()]);
                        (self.ur_of(r(l))?, self.ur_of(r(h))?)
                    }
                };
                let word = self.ur_pair(lo, hi);
                let ua = self.ur_of(r(a))?;
                // ptxas -O0 puts `FENCE.VIEW.ASYNC.S` before every `SYNCS.EXCH.64` (all three
                // corpus kernels; at -O3 where it can show it unneeded): the barrier word is
                // then ordered after the thread's earlier generic-proxy shared accesses.
                self.emit(Opcode::FENCEVIEW, Mods::new(), vec![], vec![imm(0)]);
                self.emit(Opcode::SYNCSEXCH, Mods::new(), vec![], vec![Self::at(ua.into()), r(word)]);
            }
            Opcode::MbarArrive => {
                let state = Self::dst(d)?;
                let a = self.mbar_address(mem(0)?)?;
                let tx = match self.src(d.srcs.get(2).ok_or("no transaction count")?)? {
                    Operand::Imm(Imm::Int(0)) => rz(),
                    t => self.reg_src(&t)?,
                };
                let tx_none = matches!(&tx, Operand::Reg(u) if u.reg.is_zero());
                let count = self.src(d.srcs.get(1).ok_or("no arrival count")?)?;
                // `.OPTOUT` (arrive_drop) and `.A0TX` (complete_tx) ride on the same forms.
                let m = Mods {
                    flags: d
                        .mods
                        .flags
                        .iter()
                        .copied()
                        .filter(|f| matches!(f, Flag::Optout | Flag::CompleteTx))
                        .collect(),
                    ..Mods::new()
                };
                if d.mods.has(Flag::CompleteTx) {
                    // `complete_tx`: `SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [Rb+URZ], Rtx`, no token.
                    let z = Reg::Phys(crate::ori::PhysReg::zero(crate::ori::RegFile::R).ok_or("no RZ")?);
                    let srcs = vec![Self::at(a), imm(0), imm(0), tx];
                    self.emit(Opcode::SYNCSARRIVE, m, vec![z], srcs);
                    return Ok(());
                }
                if matches!(count, Operand::Imm(Imm::Int(0))) && !tx_none {
                    // `expect_tx`: `SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [Rb+URZ], Rtx`, no token.
                    let z = Reg::Phys(crate::ori::PhysReg::zero(crate::ori::RegFile::R).ok_or("no RZ")?);
                    let srcs = vec![Self::at(a), imm(0), imm(0), tx];
                    self.emit(Opcode::SYNCSARRIVE, Mods::new(), vec![z], srcs);
                    return Ok(());
                }
                let arrivals = match count {
                    Operand::Imm(Imm::Int(1)) => imm(1),
                    // `.ART0`: the count in a register, no transactions.
                    n @ Operand::Reg(_) if tx_none => n,
                    Operand::Imm(Imm::Int(n)) if tx_none && n > 1 => self.reg_src(&imm(n))?,
                    _ => {
                        return Err("an arrival count in a register with transactions is not selected yet".into());
                    }
                };
                let srcs = vec![Self::at(a), arrivals, imm(0), tx];
                self.emit(Opcode::SYNCSARRIVE, m, vec![state], srcs);
            }
            Opcode::MbarTestWait | Opcode::MbarTryWait => {
                let p = Self::dst(d)?;
                let a = self.mbar_address(mem(0)?)?;
                let (_, hi) = self.halves(d.srcs.get(1).ok_or("no state")?)?;
                let hi = self.reg_src(&hi)?;
                let op = if d.opcode == Opcode::MbarTestWait { Opcode::SYNCSPHASECHK } else { Opcode::SYNCSTRYWAIT };
                // A wait is polled in a loop; ptxas -O0 opens such loops with `YIELD` (all three
                // corpus kernels), so that lanes of the warp that diverged before it (we do not
                // reconverge with BSSY/BSYNC as ptxas does) get to run and arrive. Our -O0
                // async_mbarrier, with a lane split at `i < n` before the wait loop and no YIELD,
                // hung on the H100.
                self.emit(Opcode::YIELD, Mods::new(), vec![], vec![]);
                self.emit(op, Mods::new(), vec![p], vec![Self::at(a), hi]);
            }
            Opcode::MbarInval => {
                let a = self.mbar_address(mem(0)?)?;
                self.emit(Opcode::SYNCSCCTL, Mods::new(), vec![], vec![Self::at(a)]);
            }
            Opcode::CpAsyncMbarArrive => {
                let a = self.mbar_address(mem(0)?)?;
                let ua = self.ur_of(r(a))?;
                let z = Reg::Phys(crate::ori::PhysReg::zero(crate::ori::RegFile::R).ok_or("no RZ")?);
                let srcs = vec![Self::at(ua.into()), imm(0), imm(1), rz()];
                self.emit(Opcode::SYNCSARRIVE, Mods::new(), vec![z], srcs);
                self.emit(Opcode::ARRIVES, Mods::new(), vec![], vec![Self::at(ua.into())]);
            }
            Opcode::CpBulk => self.sel_bulk_copy(d)?,
            op => return Err(format!("`{op}` is not an mbarrier operation")),
        }
        Ok(())
    }

    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`: the `ELECT` loop of
    /// the module doc.
    fn sel_bulk_copy(&mut self, d: &InstData) -> R<()> {
        let (Some(Operand::Mem(dm)), Some(Operand::Mem(sm)), Some(size), Some(Operand::Mem(bm))) =
            (d.srcs.first(), d.srcs.get(1), d.srcs.get(2), d.srcs.get(3))
        else {
            return Err("bulk copy operands".into());
        };
        if self.has_phis() {
            return Err("a bulk copy (a loop of its own) in a function with phis is not selected yet".into());
        }
        let dst = self.mbar_address(dm)?;
        let bar = self.mbar_address(bm)?;
        if sm.space != Space::Global || sm.sym.is_some() || sm.offset != 0 {
            return Err("a bulk copy source other than a global address register is not selected yet".into());
        }
        let src = sm.base.ok_or("a bulk copy source without a register")?;
        let (slo, shi) = self.halves(&r(src))?;
        let (slo, shi) = (self.reg_src(&slo)?, self.reg_src(&shi)?);
        // The size in 16-byte units.
        let units = match self.src(size)? {
            Operand::Imm(Imm::Int(n)) if n % 16 == 0 => imm(n / 16),
            Operand::Imm(_) => return Err("a bulk copy size that is not a multiple of 16".into()),
            s => {
                let s = self.reg_src(&s)?;
                let u = self.t32();
                let shr = Mods { dir: Some(Dir::R), ty: Some(Ty::U32), flags: vec![Flag::HiWord], ..Mods::new() };
                self.emit(Opcode::SHF, shr, vec![u.into()], vec![rz(), imm(4), s]);
                r(u)
            }
        };
        let units = self.reg_src(&units)?;
        // Lanes outside the guard skip the loop.
        let guard = self.guard.take();
        let before = self.cur.ok_or("no current block")?;
        let lp = self.split_block();
        let after_insts_guard = guard;
        let p = self.tp();
        self.emit(Opcode::ELECT, Mods::new(), vec![p.into()], vec![]);
        let (ud, ub) = (self.ur_of(r(dst))?, self.ur_of(r(bar))?);
        let (ul, uh) = (self.ur_of(slo)?, self.ur_of(shi)?);
        let un = self.ur_of(units)?;
        let dpair = self.ur_pair(ud, ub);
        let spair = self.ur_pair(ul, uh);
        self.emit(Opcode::UBLKCP, Mods::new(), vec![], vec![r(dpair), r(spair), r(un)]);
        let back = InstData {
            guard: Some(Guard { reg: p.into(), not: true }),
            ..InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(lp)])
        };
        self.push(back);
        let after = self.split_block();
        // A block ends with its terminator (no implicit fall-through): lanes outside the guard
        // branch past the loop, the others fall into it.
        let enter = match after_insts_guard {
            Some(g) => InstData {
                guard: Some(Guard { reg: g.reg, not: !g.not }),
                ..InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(after)])
            },
            None => InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(lp)]),
        };
        self.f.push_inst(before, enter);
        self.guard = guard;
        Ok(())
    }

    /// `body` selected unguarded in a block of its own, entered only by the lanes for which
    /// `guard` holds: the current block ends with `@!guard BRA after` (the others fall into
    /// the body), the body ends with `BRA after`, and `after` becomes current. Refused in a function with phis (a block split would
    /// have to rename their predecessors).
    fn branch_past(&mut self, guard: Option<Guard>, body: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        let Some(g) = guard else { return body(self) };
        if self.has_phis() {
            return Err("a predicated uniform operation in a function with phis is not selected yet".into());
        }
        let before = self.cur.ok_or("no current block")?;
        self.split_block();
        body(self)?;
        // The body may have opened blocks of its own: its last one jumps to `after`.
        let last = self.cur.ok_or("no current block")?;
        let after = self.split_block();
        self.f.push_inst(last, InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(after)]));
        let skip = InstData {
            guard: Some(Guard { reg: g.reg, not: !g.not }),
            ..InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(after)])
        };
        self.f.push_inst(before, skip);
        Ok(())
    }

    /// A shared mbarrier (or bulk-copy destination) reference as one 32-bit address register.
    fn mbar_address(&mut self, m: &MemRef) -> R<Reg> {
        if m.space != Space::Shared {
            return Err(format!("an mbarrier operand in the {} space is not selected yet", m.space.name()));
        }
        let s = self.shared_ref(m)?;
        let base = match s.base {
            Some(b) if !b.is_zero() => b,
            _ => {
                let t = self.t32();
                self.emit(Opcode::MOV, Mods::new(), vec![t.into()], vec![imm(s.offset)]);
                return Ok(t.into());
            }
        };
        if s.offset == 0 {
            return Ok(base);
        }
        let t = self.t32();
        self.emit(Opcode::IADD3, Mods::new(), vec![t.into()], vec![r(base), imm(s.offset), rz()]);
        Ok(t.into())
    }

    /// `[a]` in the shared space (`[Ra+URZ]` for a per-thread register, `[URa]` for a uniform).
    fn at(a: Reg) -> Operand {
        Operand::Mem(MemRef { space: Space::Shared, sym: None, base: Some(a), offset: 0 })
    }

    /// A uniform register holding `o` (`UMOV` of an immediate, `R2UR` of a register: the
    /// lowest executing lane's value).
    pub(super) fn ur_of(&mut self, o: Operand) -> R<VReg> {
        let u = self.vreg(RegClass::UR32);
        match o {
            Operand::Imm(_) => {
                let g = self.guard.take();
                self.emit(Opcode::UMOV, Mods::new(), vec![u.into()], vec![o]);
                self.guard = g;
            }
            // Where `R2UR` returns through a scoreboard (the sm_80 family,
            // `HwFacts::r2ur_variable_latency`) the scheduler's fixed 13 cycles are not its
            // model: refused until the scheduler reads that fact.
            Operand::Reg(_) if self.target.hw().r2ur_variable_latency => {
                return Err(format!("`R2UR` for {} (a variable-latency result there)", self.target.name()));
            }
            Operand::Reg(x) if !x.has_mods() => self.emit(Opcode::R2UR, Mods::new(), vec![u.into()], vec![o]),
            o => return Err(format!("a {} operand where a uniform value is made", o.kind_name())),
        }
        Ok(u)
    }

    /// A uniform register pair `{lo, hi}`.
    pub(super) fn ur_pair(&mut self, lo: VReg, hi: VReg) -> VReg {
        let p = self.vreg(RegClass::UR64);
        let g = self.guard.take();
        self.emit(Opcode::UPACK64, Mods::new(), vec![p.into()], vec![r(lo), r(hi)]);
        self.guard = g;
        p
    }
}

/// An arrival whose state token nothing reads writes `RZ` (as ptxas: `SYNCS.ARRIVE.TRANS64 RZ,
/// [UR9], R0` for `mbarrier.arrive.expect_tx` into a sink): the pair is then not allocated and
/// no later write waits on its scoreboard.
pub(super) fn unread_states_to_rz(f: &mut crate::ori::Function) {
    let mut used = std::collections::HashSet::new();
    for (_, i) in f.inst_order() {
        used.extend(f.insts[i].uses());
    }
    used.extend(f.params.iter().copied());
    let Some(z) = crate::ori::PhysReg::zero(crate::ori::RegFile::R) else { return };
    let arrives: Vec<_> =
        f.inst_order().map(|(_, i)| i).filter(|&i| f.insts[i].opcode == Opcode::SYNCSARRIVE).collect();
    for i in arrives {
        if let Some(d) = f.insts[i].dsts.first_mut()
            && matches!(d, Reg::Virt(_))
            && !used.contains(d)
        {
            *d = Reg::Phys(z);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lower::isel::select_module;
    use crate::lower::lower_source;

    fn kernel(body: &str) -> String {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p) {{\n.reg .b32 %r<40>;\n\
             .reg .pred %p<4>;\n.reg .b64 %rd<4>;\n.shared .align 16 .b8 buf[1024];\n\
             .shared .align 8 .b64 bar;\nld.param.u64 %rd1, [p];\n{body}\n}}\n"
        )
    }

    fn select(body: &str) -> Result<String, String> {
        let mut m = lower_source(&kernel(body)).map_err(|e| e.to_string())?;
        select_module(&mut m, &crate::target::Target::default()).map_err(|e| e.to_string())?;
        Ok(m.to_string())
    }

    /// Each operation becomes its SASS-stage opcode; a bulk copy is a loop around `UBLKCP`.
    #[test]
    fn forms_select_to_their_sass_opcodes() {
        let t = select(
            "mbarrier.init.shared.b64 [bar], 128;\nmbarrier.arrive.shared.b64 %rd2, [bar];\n\
             mbarrier.test_wait.shared.b64 %p1, [bar], %rd2;\nmbarrier.try_wait.parity.shared.b64 %p2, [bar], %r1;\n\
             cp.async.mbarrier.arrive.shared.b64 [bar];\nmbarrier.inval.shared.b64 [bar];",
        )
        .unwrap();
        for op in
            ["SYNCSEXCH", "R2UR", "UPACK64", "SYNCSARRIVE", "SYNCSPHASECHK", "SYNCSTRYWAIT", "ARRIVES", "SYNCSCCTL"]
        {
            assert!(t.contains(op), "{op} missing:\n{t}");
        }
        let t = select(
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 256;\n\
             cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 256, [bar];",
        )
        .unwrap();
        assert!(t.contains("ELECT") && t.contains("UBLKCP"), "{t}");
        // The loop: a branch back to the block holding the copy.
        let lines: Vec<&str> = t.lines().collect();
        let copy = lines.iter().position(|l| l.contains("UBLKCP")).unwrap();
        assert!(lines[copy + 1].contains("BRA") && lines[copy + 1].contains('!'), "{t}");
        // The unread state of the expect_tx arrival is RZ.
        let arrive = lines.iter().find(|l| l.contains("SYNCSARRIVE")).unwrap();
        assert!(arrive.contains("RZ ="), "{arrive}");
    }

    /// `expect_tx` alone: no arrival, the count in a register, no token (ptxas's `.A0TR`).
    #[test]
    fn expect_tx_alone_is_a_reduction_arrival() {
        let t = select("mbarrier.expect_tx.shared::cta.b64 [bar], 256;").unwrap();
        let arrive = t.lines().find(|l| l.contains("SYNCSARRIVE")).unwrap();
        assert!(arrive.starts_with("    RZ = SYNCSARRIVE") && arrive.ends_with(", 0, 0, %r6"), "{t}");
        assert!(t.contains("%r6 = MOV 256"), "{t}");
    }

    /// Forms with no known SASS spelling are errors naming the instruction.
    #[test]
    fn unknown_forms_are_refused() {
        let e = select("mbarrier.test_wait.b64 %p1, [%rd1], %rd2;").unwrap_err();
        assert!(e.contains("generic"), "{e}");
    }
}
