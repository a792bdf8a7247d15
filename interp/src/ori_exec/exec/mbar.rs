//! The interpreter's mbarrier operations: the 64-bit word in shared memory with the layout
//! and operations of [`ptxas_rs::ori::mbarrier`] (the code the SASS emulator runs), pending
//! transactions beside it per CTA ([`Cta::mbar_tx`]), and the copies that complete on it.
//!
//! `mbarrier.test_wait`/`try_wait` never block: they write their predicate, and when it is
//! false in any executing lane the warp yields ([`WarpState::Yielded`]) so that the CTA's
//! other warps run before it polls again (a spin loop on one warp cannot starve the warps
//! that would complete the phase).

use ptxas_rs::ori::{Flag, mbarrier};

use super::*;

impl Engine<'_> {
    /// `R2UR` (the lowest executing lane's value, for the warp) and `ELECT` (true in the lowest
    /// executing lane only).
    pub(super) fn uniform_op(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        if exec == 0 {
            return Ok(());
        }
        let low = exec.trailing_zeros();
        let dst = self
            .loc(*d.dsts.first().ok_or((ErrorKind::Invalid(format!("`{}` without a destination", d.opcode)), None))?)?;
        match d.opcode {
            Opcode::R2UR => {
                let v = self.mbar_val(w, cta, d, 0, low)?;
                self.write(w, dst, low, u128::from(v));
            }
            _ => {
                for lane in (0..WARP as u32).filter(|l| exec >> l & 1 == 1) {
                    self.write(w, dst, lane, u128::from(lane == low));
                }
                // `ELECT Pd, URd`: the leader's lane number, once for the warp.
                if let Some(u) = d.dsts.get(1) {
                    let u = self.loc(*u)?;
                    self.write(w, u, low, u128::from(low));
                }
            }
        }
        Ok(())
    }

    /// The shared address of the mbarrier that memory operand `n` of `d` names in `lane`.
    fn mbar_addr(&self, w: &Warp, d: &InstData, n: usize, lane: u32) -> Result<u64, Er> {
        let Some(Operand::Mem(m)) = d.srcs.get(n) else {
            return Err((ErrorKind::Invalid(format!("`{}` needs a memory operand {n}", d.opcode)), Some(lane)));
        };
        match self.address(w, d, m, lane)? {
            (Space::Shared, a) => Ok(a),
            (s, a) => Err((ErrorKind::Invalid(format!("an mbarrier at {} address {a:#x}", s.name())), Some(lane))),
        }
    }

    /// The value of source `n` of `d` in `lane` as plain bits.
    fn mbar_val(&self, w: &Warp, cta: &Cta, d: &InstData, n: usize, lane: u32) -> Result<u64, Er> {
        let o = d.srcs.get(n).ok_or((ErrorKind::Invalid(format!("`{}` lacks operand {n}", d.opcode)), None))?;
        Ok(self.src(w, cta, d, n, o, lane)?.val.bits())
    }

    /// One arrival step on the word at `at` (see [`mbarrier::arrive`]), dropping the arrivals
    /// from the expected count when `drop` ([`mbarrier::arrive_drop`]); returns the word before.
    fn mbar_arrive(cta: &mut Cta, at: u64, arrivals: u32, tx: i64, drop: bool, lane: u32) -> Result<u64, Er> {
        let fault = |f| (ErrorKind::Fault(f), Some(lane));
        let word = cta.shared.load(at, 8).map_err(fault)? as u64;
        let t = cta.mbar_tx.entry(at).or_insert(0);
        let step = if drop { mbarrier::arrive_drop } else { mbarrier::arrive };
        let next = step(word, t, arrivals, tx)
            .map_err(|m| (ErrorKind::Invalid(format!("mbarrier at shared {at:#x}: {m}")), Some(lane)))?;
        cta.shared.store(at, 8, u128::from(next)).map_err(fault)?;
        Ok(word)
    }

    /// Executes an mbarrier operation for the lanes of `exec`, lane by lane in ascending order.
    /// Returns whether the warp yields (a wait found its phase incomplete in some lane).
    pub(super) fn mbar_op(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<bool, Er> {
        let mut yields = false;
        for lane in (0..WARP as u32).filter(|l| exec >> l & 1 == 1) {
            let fault = |f| (ErrorKind::Fault(f), Some(lane));
            match d.opcode {
                Opcode::MbarInit => {
                    let at = self.mbar_addr(w, d, 0, lane)?;
                    let count = self.mbar_val(w, cta, d, 1, lane)? as u32;
                    cta.shared.store(at, 8, u128::from(mbarrier::init_word(count))).map_err(fault)?;
                    cta.mbar_tx.insert(at, 0);
                }
                Opcode::MbarArrive => {
                    let at = self.mbar_addr(w, d, 0, lane)?;
                    let arrivals = self.mbar_val(w, cta, d, 1, lane)? as u32;
                    let mut tx = i64::from(self.mbar_val(w, cta, d, 2, lane)? as u32);
                    if d.mods.has(Flag::CompleteTx) {
                        tx = -tx;
                    }
                    let token = Self::mbar_arrive(cta, at, arrivals, tx, d.mods.has(Flag::Optout), lane)?;
                    if let Some(&r) = d.dsts.first() {
                        let loc = self.loc(r)?;
                        self.write(w, loc, lane, u128::from(token));
                    }
                }
                Opcode::MbarTestWait | Opcode::MbarTryWait => {
                    let at = self.mbar_addr(w, d, 0, lane)?;
                    let token = self.mbar_val(w, cta, d, 1, lane)?;
                    let word = cta.shared.load(at, 8).map_err(fault)? as u64;
                    let done = mbarrier::phase_done(word, token);
                    yields |= !done;
                    if let Some(&r) = d.dsts.first() {
                        let loc = self.loc(r)?;
                        self.write(w, loc, lane, u128::from(done));
                    }
                }
                Opcode::MbarInval => {
                    // The object ends; its memory is left as it is (it must still be shared).
                    self.mbar_addr(w, d, 0, lane)?;
                }
                Opcode::CpAsyncMbarArrive => {
                    // One more pending arrival, then the arrival when the thread's copies are
                    // done, which is at once here (as the SASS: `.A0T1` then `LDGSTSBAR`).
                    let at = self.mbar_addr(w, d, 0, lane)?;
                    Self::mbar_arrive(cta, at, 0, 1, false, lane)?;
                    Self::mbar_arrive(cta, at, 0, -1, false, lane)?;
                }
                Opcode::CpBulk => {
                    let (Some(Operand::Mem(dm)), Some(Operand::Mem(sm))) = (d.srcs.first(), d.srcs.get(1)) else {
                        return Err((ErrorKind::Invalid("a bulk copy needs two memory operands".into()), Some(lane)));
                    };
                    let (ds, da) = self.address(w, d, dm, lane)?;
                    let (ss, sa) = self.address(w, d, sm, lane)?;
                    if ds != Space::Shared || ss != Space::Global {
                        return Err((ErrorKind::Invalid("a bulk copy from global to shared only".into()), Some(lane)));
                    }
                    let size = self.mbar_val(w, cta, d, 2, lane)? as u32;
                    if !size.is_multiple_of(16) || !da.is_multiple_of(16) || !sa.is_multiple_of(16) {
                        let m = format!("a bulk copy of {size} bytes from {sa:#x} to shared {da:#x} (16-byte units)");
                        return Err((ErrorKind::Invalid(m), Some(lane)));
                    }
                    for k in (0..u64::from(size)).step_by(4) {
                        let v = self.mem.global.load(sa + k, 4).map_err(fault)?;
                        cta.shared.store(da + k, 4, v).map_err(fault)?;
                    }
                    let bar = self.mbar_addr(w, d, 3, lane)?;
                    Self::mbar_arrive(cta, bar, 0, -i64::from(size), false, lane)?;
                }
                // The SASS-stage forms (`lower::isel::mbarrier`).
                Opcode::SYNCSEXCH => {
                    let at = self.mbar_addr(w, d, 0, lane)?;
                    let word = self.mbar_val(w, cta, d, 1, lane)?;
                    cta.shared.store(at, 8, u128::from(word)).map_err(fault)?;
                    cta.mbar_tx.insert(at, 0);
                }
                Opcode::SYNCSARRIVE => {
                    let at = self.mbar_addr(w, d, 0, lane)?;
                    let arrivals = self.mbar_val(w, cta, d, 1, lane)? as u32;
                    let mut tx = i64::from(self.mbar_val(w, cta, d, 2, lane)? as u32)
                        + i64::from(self.mbar_val(w, cta, d, 3, lane)? as u32);
                    if d.mods.has(Flag::CompleteTx) {
                        tx = -tx;
                    }
                    let token = Self::mbar_arrive(cta, at, arrivals, tx, d.mods.has(Flag::Optout), lane)?;
                    if let Some(&r) = d.dsts.first() {
                        let loc = self.loc(r)?;
                        self.write(w, loc, lane, u128::from(token));
                    }
                }
                Opcode::SYNCSPHASECHK | Opcode::SYNCSTRYWAIT => {
                    let at = self.mbar_addr(w, d, 0, lane)?;
                    // The operand is the token's high word (its parity in bit 31).
                    let token = (self.mbar_val(w, cta, d, 1, lane)? & 0xffff_ffff) << 32;
                    let word = cta.shared.load(at, 8).map_err(fault)? as u64;
                    let done = mbarrier::phase_done(word, token);
                    yields |= !done;
                    if let Some(&r) = d.dsts.first() {
                        let loc = self.loc(r)?;
                        self.write(w, loc, lane, u128::from(done));
                    }
                }
                Opcode::SYNCSCCTL => {
                    self.mbar_addr(w, d, 0, lane)?;
                }
                Opcode::ARRIVES => {
                    // The lane's copies are done at issue: their pending transaction completes.
                    let at = self.mbar_addr(w, d, 0, lane)?;
                    Self::mbar_arrive(cta, at, 0, -1, false, lane)?;
                }
                Opcode::UBLKCP => {
                    // Once for the warp, with the (uniform) operands.
                    if lane != exec.trailing_zeros() {
                        continue;
                    }
                    let pair = self.mbar_val(w, cta, d, 0, lane)?;
                    let (da, bar) = (pair & 0xffff_ffff, pair >> 32);
                    let sa = self.mbar_val(w, cta, d, 1, lane)?;
                    let size = (self.mbar_val(w, cta, d, 2, lane)? as u32).wrapping_mul(16);
                    for k in (0..u64::from(size)).step_by(4) {
                        let v = self.mem.global.load(sa + k, 4).map_err(fault)?;
                        cta.shared.store(da + k, 4, v).map_err(fault)?;
                    }
                    Self::mbar_arrive(cta, bar, 0, -i64::from(size), false, lane)?;
                }
                op => return Err((ErrorKind::Invalid(format!("`{op}` is not an mbarrier operation")), None)),
            }
        }
        Ok(yields)
    }
}
