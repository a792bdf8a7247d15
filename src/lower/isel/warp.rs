//! Warp-wide operations, selected to the SASS ptxas 13.0 emits for sm_90.
//!
//! - `shfl.sync.{idx,up,down,bfly}.b32 d[|p], a, b, c, membermask` → `SHFL.<mode> Pd, Rd, a, b,
//!   c` (`PT` when PTX has no predicate destination). `a` is a register; `b` (lane/offset) and
//!   `c` (segment mask and clamp, packed as in PTX) stay immediates where they fit SASS's
//!   fields (5 and 13 bits) and go to registers otherwise; every mode has all four operand
//!   shapes.
//! - `vote.sync.ballot.b32 d, p, m` → `VOTE.ANY Rd, PT, Pp`; `vote.sync.{all,any,uni}.pred d,
//!   p, m` → `VOTE.{ALL,ANY,EQ} Pd, Pp` (no register result), as ptxas selects them, for the
//!   full-warp mask. With any other mask the ballot of the running lanes is cut to the mask
//!   (`VOTE.ANY` + `LOP3`) and the predicate forms compare it with 0 and the mask: `VOTE` reads
//!   every lane that runs it, and a converged warp runs it with all 32 whatever the masks.
//! - `activemask.b32 d` → `VOTE.ANY Rd, PT, PT`, as ptxas emits it, with no `WARPSYNC` (it
//!   reads the lanes that run it).
//! - `redux.sync.op.t d, a, m` → `REDUX.op URk, Ra` (`.SUM`, `.MIN`/`.MAX` with `.S32` when
//!   signed, `.OR`, `.XOR`, plain `REDUX` for `and`) and `MOV Rd, URk` (ptxas: `MOV` or
//!   `IMAD.U32 Rd, RZ, RZ, URk`); `URk` is a uniform virtual register. With a member mask other
//!   than the full-warp immediate (a cooperative-groups tile, `0xffff << (lane & 16)`), the
//!   lane groups of different masks must not interleave between the `REDUX` and the `MOV` (the
//!   uniform register is one per warp): as ptxas, the three run in a `BSSY B0` /
//!   `WARPSYNC.EXCLUSIVE Rm` / `BSYNC B0` region ([`Sel::exclusive_region`]), where each group
//!   runs to the `BSYNC` before the next starts. A plain `WARPSYNC Rm` let the two 16-lane
//!   tiles of cg_tiled_reduce take turns and read each other's `UR0` (emulator and H200).
//! - `elect.sync d|p, m` → `ELECT Pp, URk, PT` + `MOV Rd, URk`, the member lanes running it
//!   alone as for `redux` ([`Sel::sel_elect`]).
//! - `match.any.sync.{b32,b64} d, a, m` → `MATCH.ANY[.U64] Rd, Ra`; `match.all.sync.b32 d[|p],
//!   a, m` → `MATCH.ALL Pp, Rd, Ra` (the Ori `MATCH` always has a predicate destination, `PT`
//!   without `p` and for `any`); `match.all.sync.b64` → `MATCH.ALL.U64`.
//!
//! Invariant: every collective (SHFL, VOTE, REDUX, MATCH; not `activemask`) is preceded in its
//! block by a `WARPSYNC` of its member mask ([`Sel::warp_sync`]): `WARPSYNC.ALL` for the
//! full-warp immediate, `WARPSYNC Rm` otherwise (sm_90 has no other immediate form). ptxas
//! builds a `WARPSYNC.COLLECTIVE`/`.EXCLUSIVE` region for a partial mask and reconverges with
//! `BSSY`/`BSYNC` before a full-warp one, which we do not emit: a warp that diverged earlier (a
//! loop with per-lane trip counts) is not reconverged by reaching the same pc, and the H100 ran
//! our `SHFL.DOWN` reduction once per lane group, each reading the other group's lanes as
//! inactive (algo_spmv_csr at -O3). A full-warp mask needs no new `WARPSYNC` when an unguarded
//! `WARPSYNC.ALL` was selected earlier in the same block (no branch splits a warp inside a
//! block). The Ori SASS-level collective keeps the member mask as its last source for the
//! interpreter's check; emission drops it.

use super::{R, Sel, pt_reg, r};
use crate::ori::{Flag, Imm, InstData, Mods, Opcode, Operand, SubOp};
use crate::ori::{PhysReg, Reg, RegClass, RegFile};

/// The zero register as a destination.
fn rz_reg() -> Reg {
    Reg::Phys(PhysReg::zero(RegFile::R).expect("RZ"))
}

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
        // Every mode has all four (immediate or register B, immediate or register C) forms in
        // the sm_90 tables (the modifier sweep fills the shapes the corpus never shows).
        let b = field(self, &d.srcs[1], 5)?;
        let c = field(self, &d.srcs[2], 13)?;
        let mask = self.warp_sync(&d.srcs[3])?;
        let m = Mods { ty: d.mods.ty, sub: d.mods.sub, ..Mods::new() };
        self.emit(Opcode::SHFL, m, vec![dst, pd], vec![a, b, c, mask]);
        Ok(())
    }

    /// Synchronises the member lanes of a warp-collective instruction: `WARPSYNC mask`
    /// (`WARPSYNC.ALL` for the full-warp immediate), left out for a full mask when an unguarded
    /// `WARPSYNC.ALL` was already selected in the current block. Returns the mask as an operand
    /// for the collective's last source.
    pub(crate) fn warp_sync(&mut self, mask: &Operand) -> R<Operand> {
        let mut mask = self.src(mask)?;
        let full = matches!(mask, Operand::Imm(i) if i.bits() as u32 == u32::MAX);
        if !full {
            // sm_90 has `WARPSYNC.ALL` and `WARPSYNC Rmask`, no other immediate.
            mask = self.reg_src(&mask)?;
        }
        if !full || !self.warp_synced {
            self.emit(Opcode::WARPSYNC, Mods::new(), vec![], vec![mask.clone()]);
            self.warp_synced = full && self.guard.is_none();
        }
        Ok(mask)
    }

    /// `vote.sync.{all,any,uni}.pred` and `vote.sync.ballot.b32`.
    pub(crate) fn sel_vote(&mut self, d: &InstData) -> R<()> {
        if d.srcs.len() != 2 || d.dsts.len() != 1 {
            return Err("vote takes a predicate and a member mask".into());
        }
        let (sub, dsts) = match (d.opcode, d.mods.sub) {
            (Opcode::Ballot, _) => (SubOp::Any, vec![Self::dst(d)?, pt_reg()]),
            (Opcode::Vote, Some(s @ (SubOp::All | SubOp::Any | SubOp::Uni))) => (s, vec![rz_reg(), Self::dst(d)?]),
            _ => return Err("vote without a mode".into()),
        };
        let p = self.pred_src(&d.srcs[0])?;
        let mask = self.warp_sync(&d.srcs[1])?;
        if matches!(mask, Operand::Imm(_)) {
            self.emit(Opcode::VOTE, Mods { sub: Some(sub), ..Mods::new() }, dsts, vec![p, mask]);
            return Ok(());
        }
        // A member mask other than the full warp: `VOTE` reads every lane running it, and a
        // converged warp runs it with all 32 lanes whatever the masks say (the H100 gave our
        // cg_tiled_reduce's 16-lane tile ballot with the other tile's bits set). The ballot is
        // taken over the running lanes and cut to the member mask (every member runs it, as
        // PTX requires); the predicate forms are computed from that.
        let ballot = self.t32();
        self.emit(
            Opcode::VOTE,
            Mods { sub: Some(SubOp::Any), ..Mods::new() },
            vec![ballot.into(), pt_reg()],
            vec![p, mask.clone()],
        );
        let members = match d.opcode {
            Opcode::Ballot => Self::dst(d)?,
            _ => self.t32().into(),
        };
        self.emit(
            Opcode::LOP3,
            Mods::new(),
            vec![members],
            vec![r(ballot), mask.clone(), super::rz(), Operand::Imm(Imm::Int(0xc0))],
        );
        let Some(s) = d.mods.sub.filter(|_| d.opcode == Opcode::Vote) else { return Ok(()) };
        let dst = Self::dst(d)?;
        use crate::ori::{BoolOp, Cmp, Ty};
        let ballot = Operand::reg(members);
        match s {
            // any: some member's p; all: every member's p.
            SubOp::Any => self.isetp(dst, Cmp::Ne, Ty::U32, ballot, super::rz()),
            SubOp::All => self.isetp(dst, Cmp::Eq, Ty::U32, ballot, mask),
            // uni: none or every member.
            _ => {
                let none = self.tp();
                self.isetp(none.into(), Cmp::Eq, Ty::U32, ballot.clone(), super::rz());
                let or = Mods { cmp: Some(Cmp::Eq), ty: Some(Ty::U32), bop: Some(BoolOp::Or), ..Mods::new() };
                self.emit(Opcode::ISETP, or, vec![dst, pt_reg()], vec![ballot, mask, r(none)]);
            }
        }
        Ok(())
    }

    /// `activemask`: `VOTE.ANY Rd, PT, PT` (ptxas), no `WARPSYNC`.
    pub(crate) fn sel_activemask(&mut self, d: &InstData) -> R<()> {
        let dst = Self::dst(d)?;
        self.emit(Opcode::ACTIVEMASK, Mods::new(), vec![dst], vec![]);
        Ok(())
    }

    /// `redux.sync.{add,min,max,and,or,xor}`: the uniform result is copied to the destination.
    pub(crate) fn sel_redux(&mut self, d: &InstData) -> R<()> {
        if d.srcs.len() != 2 || d.dsts.len() != 1 {
            return Err("redux takes a value and a member mask".into());
        }
        if !matches!(
            d.mods.sub,
            Some(SubOp::AddOp | SubOp::MinOp | SubOp::MaxOp | SubOp::AndOp | SubOp::OrOp | SubOp::XorOp)
        ) {
            return Err("redux without an integer operation".into());
        }
        let dst = Self::dst(d)?;
        let a = self.reg_src(&d.srcs[0])?;
        let full = matches!(self.src(&d.srcs[1])?, Operand::Imm(i) if i.bits() as u32 == u32::MAX);
        let m = Mods { ty: d.mods.ty, sub: d.mods.sub, ..Mods::new() };
        let u = self.vreg(RegClass::UR32);
        self.uniform_collective(&d.srcs[1], full, dst, u, |s, mask| {
            s.emit(Opcode::REDUX, m, vec![u.into()], vec![a, mask]);
        })
    }

    /// A collective whose result is the uniform register `u`, copied to `dst` (`REDUX`,
    /// `ELECT`): after `WARPSYNC.ALL` for the full-warp mask, otherwise in a
    /// `WARPSYNC.EXCLUSIVE` region ([`Sel::exclusive_region`]), so that each member mask's lanes
    /// read their own value (the uniform register is one per warp). `op` emits the collective,
    /// given the member mask as its last source.
    fn uniform_collective(
        &mut self,
        mask: &Operand,
        full: bool,
        dst: Reg,
        u: crate::ori::VReg,
        op: impl FnOnce(&mut Self, Operand),
    ) -> R<()> {
        if full {
            let mask = self.warp_sync(mask)?;
            op(self, mask);
            self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![r(u)]);
            return Ok(());
        }
        self.exclusive_region(|s| {
            let mask = s.src(mask)?;
            let mask = s.reg_src(&mask)?;
            s.emit(Opcode::WARPSYNC, Mods { flags: vec![Flag::Exclusive], ..Mods::new() }, vec![], vec![mask.clone()]);
            op(s, mask);
            s.emit(Opcode::MOV, Mods::new(), vec![dst], vec![r(u)]);
            Ok(())
        })
    }

    /// Selects `body` inside a `BSSY B0` / `BSYNC B0` region of its own block (as ptxas does
    /// for a uniform result read under a partial member mask): `BSSY B0, L` ends the current
    /// code, `body` runs, a branch to `L` ends the region's block, and `L: BSYNC B0` starts
    /// the next block. The lanes of each member mask then run the region one group after
    /// another and reconverge at the `BSYNC`. Refused under a guard or in a function with phis
    /// (the split would have to rename their predecessors).
    fn exclusive_region(&mut self, body: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        if self.guard.is_some() || self.has_phis() {
            return Err("a warp collective on a partial member mask under a guard or with phis (a BSSY region) \
                        is not selected yet"
                .into());
        }
        let b0 = Reg::Phys(PhysReg::new(RegFile::B, 0));
        let before = self.cur.ok_or("no current block")?;
        let region = self.split_block();
        body(self)?;
        let after = self.split_block();
        let bssy = InstData::new(Opcode::BSSY, Mods::new(), vec![b0], vec![Operand::Block(after)]);
        self.f.push_inst(before, bssy);
        self.f.push_inst(before, InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(region)]));
        self.f.push_inst(region, InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(after)]));
        self.emit(Opcode::BSYNC, Mods::new(), vec![], vec![r(b0)]);
        self.warp_synced = false;
        Ok(())
    }

    /// `elect.sync d|p, m` → `ELECT Pp, URk, PT` and `MOV Rd, URk` (ptxas: `IMAD.U32 Rd, RZ,
    /// RZ, URk`). `ELECT` elects the lowest lane that runs it, so the member lanes must run it
    /// alone: after `WARPSYNC.ALL` for the full-warp immediate, otherwise (like `redux`, whose
    /// uniform result has the same hazard) inside a `WARPSYNC.EXCLUSIVE` region where each
    /// member mask's lanes run by themselves. ptxas uses a `BRA.DIV` fast path with a
    /// `WARPSYNC.COLLECTIVE` fallback for partial masks.
    pub(crate) fn sel_elect(&mut self, d: &InstData) -> R<()> {
        if d.srcs.len() != 1 || d.dsts.len() != 2 {
            return Err("elect takes a destination pair and a member mask".into());
        }
        let (dst, p) = (d.dsts[0], d.dsts[1]);
        let full = matches!(self.src(&d.srcs[0])?, Operand::Imm(i) if i.bits() as u32 == u32::MAX);
        let u = self.vreg(RegClass::UR32);
        self.uniform_collective(&d.srcs[0], full, dst, u, |s, mask| {
            s.emit(Opcode::ELECT, Mods::new(), vec![p, u.into()], vec![mask]);
        })
    }

    /// `match.{any,all}.sync.{b32,b64}`.
    pub(crate) fn sel_match(&mut self, d: &InstData) -> R<()> {
        if d.srcs.len() != 2 || d.dsts.is_empty() {
            return Err("match takes a value and a member mask".into());
        }
        let wide = d.ty().is_some_and(|t| t.bits() == 64);
        let (sub, pd) = match d.opcode {
            Opcode::MatchAny => (SubOp::Any, pt_reg()),
            _ => (SubOp::All, d.dsts.get(1).copied().unwrap_or_else(pt_reg)),
        };
        let dst = Self::dst(d)?;
        let a = if wide { self.wide_reg(&d.srcs[0])? } else { self.reg_src(&d.srcs[0])? };
        let mask = self.warp_sync(&d.srcs[1])?;
        let m = Mods { ty: d.mods.ty, sub: Some(sub), ..Mods::new() };
        self.emit(Opcode::MATCH, m, vec![dst, pd], vec![a, mask]);
        Ok(())
    }
}
