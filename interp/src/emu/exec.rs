//! The warp executor: runs a [`Program`] over a grid, 32 lanes per warp-instruction.
//!
//! See the module docs of [`super`] for the model (scheduling, divergence, memory). This file is
//! the machinery: per-warp register files stored lane-major per register (`[u32; 32]` rows, so
//! every ALU op is a loop over 32 lanes), the convergence state, and the memory accesses. The
//! common ALU instructions take the pre-decoded path of [`fast`]; [`step`] executes the rest
//! and is the reference of every instruction's meaning.

use super::alu::{self, Rnd};
use super::hazard::{Facts, HazardState};
use super::program::{Arg, AtomOp, AtomTy, F2fp8Mode, Inst, Kind, Opnd, PArg, Program, ShflMode, Space};
use super::{EmuError, EmuErrorKind, LOCAL_HI, LOCAL_LO, SHARED_HI};
use crate::memory::{Fault, FaultKind, GlobalMemory, MemSpace, Region};
use crate::ori_exec::ThreadId;

mod bar;
mod fast;
mod sysfn;
mod texture;
pub(crate) use fast::{Fast, lower as lower_fast};

/// Per-lane scheduling state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Lane {
    Run,
    /// Waiting at a `BSYNC` on barrier register `b`.
    Bsync(u8),
    /// Waiting at a `WARPSYNC` for these lanes, and how the released group runs.
    Warpsync(u32, Release),
    /// Waiting at `BAR.SYNC` id.
    Bar(u32),
    Exit,
}

/// How the lanes a `WARPSYNC` releases run (see [`Warp::apart`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Release {
    /// `.ALL`: with any lanes at the same pc.
    Merge,
    /// `WARPSYNC mask`: apart from other groups, taking turns with them.
    Apart,
    /// `WARPSYNC.EXCLUSIVE mask`: apart, and running on once started.
    Exclusive,
}

/// One warp.
pub(crate) struct Warp {
    /// The register file, 256 rows (RZ's stays zero).
    r: Vec<[u32; 32]>,
    /// Rows of `r` from here on are zero (every write raises it past its row), so recycling the
    /// file for another warp clears only the rows below ([`Warp::into_regs`]).
    r_hi: usize,
    ur: [u32; 64],
    p: [u32; 8],
    up: [u32; 8],
    b: [[u32; 32]; 16],
    lane_pc: [u32; 32],
    state: [Lane; 32],
    /// The lanes whose state is not [`Lane::Exit`] (kept with `state`).
    live_mask: u32,
    /// Current group: lanes executing together at `pc`.
    act: u32,
    pc: u32,
    /// Lowest pc of runnable lanes outside the group (`u32::MAX`: none).
    other: u32,
    /// Index of the warp in its CTA.
    pub(crate) id: u32,
    hz: Option<LaneHazards>,
    /// Lanes arrived at a convergence wait, or lanes exited, since the last release scan.
    waiting: bool,
    /// The group polled an mbarrier that has not completed the phase it waits for: the warp
    /// hands over to the other warps of the CTA after this instruction (a spin loop
    /// progresses only through them).
    spinning: bool,
    /// Per lane, the strand it belongs to: a divergent branch gives its taken lanes a fresh
    /// strand, and lanes released together from a `BSYNC`/`WARPSYNC` share a fresh one. Lanes
    /// of different strands that the min-pc rule runs together have not reconverged on the GPU
    /// (it reconverges only where the code says so), so a `BAR.SYNC` whose lanes are of several
    /// strands is a divergent barrier.
    strand: [u32; 32],
    next_strand: u32,
    /// Lanes whose strand was released by a `WARPSYNC mask` (plain or `.EXCLUSIVE`, not
    /// `.ALL`): a strand of them runs as a group of its own, never merged with other lanes at
    /// the same pc, until its lanes meet a `BSYNC` or another `WARPSYNC`. Such groups at one pc
    /// take turns instruction by instruction, so a uniform register one writes may be
    /// overwritten by another before it reads it back.
    ///
    /// The H200 goldens support this reading (the notes are silent on convergence): in
    /// NVIDIA's cg_tiled_reduce, after a per-tile `WARPSYNC R8`, `VOTE.ANY` gives each 16-lane
    /// tile only its own ballot bits (`per_thread[8i+6]`), which one merged 32-lane group would
    /// not; our cubin, `WARPSYNC R0` / `REDUX.MAX UR0, R10` / a read of UR0 per tile, gave other
    /// sums and maxima than NVIDIA's on the GPU (run 6), which tiles reading each other's UR0
    /// explain, while NVIDIA's code stays right under any interleaving.
    apart: u32,
    /// Lanes of `apart` released by `WARPSYNC.EXCLUSIVE`: a group of them, once started, runs
    /// on before any other group does (ptxas reads a uniform `REDUX` result back inside such
    /// a `BSSY`…`BSYNC` region in cg_tiled_reduce).
    exclusive: u32,
    /// The strand of the group that ran last.
    last_strand: u32,
    /// Thread index (x, y, z) per lane.
    tid: [[u32; 3]; 32],
}

/// The hazard state of each lane's own instruction stream.
///
/// ptxas places waits for the instructions each thread executes in program order; when a warp
/// diverges, the paths interleave (min-pc rule) and one path's pending reads would look like
/// hazards to another path that never issued them (int_divrem_var: lanes of the `b == 0` path
/// overwrite R5 while the STG of the other path holds a read SB on it). The notes (§2.5) say to
/// follow taken branches and take the union at merge points but are silent on how the hardware
/// interleaves divergent paths, so each lane group keeps its own state: a group that splits off
/// gets a copy, groups that run together again share the union
/// ([`HazardState::merge`]). Per lane this only drops the cycles other paths spent in between,
/// which makes the latency check stricter, never looser.
struct LaneHazards {
    /// The SM of the code ([`HazardState::for_sm`]).
    sm: u32,
    /// Boxed: a state is some 9 KiB, and a vector of them would grow by reallocation.
    states: Vec<Box<HazardState>>,
    /// State index of each lane.
    of: [u8; 32],
    /// A group known to have a state of its own (its lanes share it, no other lane has it; 0:
    /// none known). Only `issue` changes `of`, and lanes only leave the live set, so it stays
    /// known until `issue` gives lanes other states.
    owned: u32,
}

impl LaneHazards {
    /// `pool`: spare state boxes (see [`State::hz_pool`]), taken for new states and given
    /// the ones dropped.
    fn issue(
        &mut self,
        act: u32,
        live: u32,
        inst: &Inst,
        facts: &Facts,
        pool: &mut Vec<Box<HazardState>>,
    ) -> Result<(), String> {
        if self.states.is_empty() {
            let fresh = HazardState::for_sm(self.sm);
            self.states.push(match pool.pop() {
                Some(mut b) => {
                    *b = fresh;
                    b
                }
                None => Box::new(fresh),
            });
        }
        let first = self.of[act.trailing_zeros() as usize & 31];
        if act == self.owned {
            return self.states[first as usize].issue_with(inst, facts);
        }
        // The lanes whose state is the first active lane's.
        let same = fast::mask(|l| self.of[l] == first);
        let single = act & !same == 0;
        let shared = !act & live & same != 0;
        let idx = if single && !shared {
            first
        } else {
            let mut st = match pool.pop() {
                Some(mut b) => {
                    b.clone_from(&self.states[first as usize]);
                    b
                }
                None => self.states[first as usize].clone(),
            };
            let mut seen = [0u64; 4];
            seen[first as usize / 64] |= 1 << (first % 64);
            for l in lanes(act) {
                let i = self.of[l];
                if seen[i as usize / 64] >> (i % 64) & 1 == 0 {
                    seen[i as usize / 64] |= 1 << (i % 64);
                    st.merge(&self.states[i as usize]);
                }
            }
            self.compact(live & !act, pool);
            self.states.push(st);
            let i = (self.states.len() - 1) as u8;
            for l in lanes(act) {
                self.of[l] = i;
            }
            i
        };
        self.owned = act;
        self.states[idx as usize].issue_with(inst, facts)
    }

    /// Drops the states no lane of `keep` uses (at most 32 remain) into `pool`, renumbering.
    fn compact(&mut self, keep: u32, pool: &mut Vec<Box<HazardState>>) {
        if self.states.len() < 32 {
            return;
        }
        let mut map = [u8::MAX; 256];
        let mut kept = Vec::new();
        let mut old: Vec<Option<Box<HazardState>>> = std::mem::take(&mut self.states).into_iter().map(Some).collect();
        for l in lanes(keep) {
            let i = self.of[l] as usize;
            if map[i] == u8::MAX {
                map[i] = kept.len() as u8;
                kept.push(old.get_mut(i).and_then(Option::take).unwrap_or_default());
            }
            self.of[l] = map[i];
        }
        pool.extend(old.into_iter().flatten());
        self.states = kept;
    }
}

/// Launch-wide, read-only facts the executor needs.
pub(crate) struct Launch<'a> {
    pub(crate) program: &'a Program,
    pub(crate) kernel: &'a str,
    pub(crate) grid: [u32; 3],
    pub(crate) block: [u32; 3],
    /// CTAs per cluster dimension of a cluster launch.
    pub(crate) cluster: Option<[u32; 3]>,
    /// The SM of the code. Below 90 (the sm_80 family) shared addresses are plain offsets in
    /// the CTA's shared memory (slot 0); sm_90's carry the CTA's slot in bits 24 and up.
    pub(crate) sm: u32,
    pub(crate) banks: &'a super::program::Banks,
    pub(crate) local_bytes: u32,
    pub(crate) shared_bytes: u32,
    pub(crate) hazards: bool,
    /// With `hazards`, the checker's [`Facts`] of each instruction of the program.
    pub(crate) hz_facts: &'a [Facts],
    /// The fast form of each instruction of the program ([`fast`]).
    pub(crate) fast: &'a [Fast],
    /// The program reads shared memory through the async proxy (`HGMMA`): its CTAs record
    /// generic-proxy shared stores ([`Cta::generic_store`]).
    pub(crate) proxy_reads: bool,
    pub(crate) step_limit: u64,
    /// The spec's texture and surface objects ([`crate::launch::texture`]).
    pub(crate) objects: &'a crate::launch::texture::Objects,
}

/// Mutable launch state.
pub(crate) struct State {
    pub(crate) global: GlobalMemory,
    pub(crate) steps: u64,
    pub(crate) thread_instrs: u64,
    /// Warp-instructions executed by fast forms.
    pub(crate) fast_steps: u64,
    /// Per instruction of the program: whether a warp issued it.
    pub(crate) issued: Vec<bool>,
    /// Register files of finished warps, zeroed, for the warps of later CTAs (allocating and
    /// clearing 32 KiB per warp was a good part of a small launch's time).
    pub(crate) reg_pool: Vec<Vec<[u32; 32]>>,
    /// Lane-group hazard states no warp uses any more, for reuse: a state is some 9 KiB, and
    /// allocating one per divergence, then freeing them, had the allocator return the memory
    /// to the system and fault it back in.
    pub(crate) hz_pool: Vec<Box<HazardState>>,
    /// The system functions' state (`CALL.ABS` to a relocated `vprintf`...).
    pub(crate) services: crate::sysfn::Services,
}

struct Cta {
    id: [u32; 3],
    /// The CTA's slot in its cluster, what `SR_CgaCtaId` reads (see [`cta_slot`]).
    slot: u32,
    shared: Region,
    /// Local memory, `local_bytes` per thread, threads in linear order; empty until the first
    /// local access (most kernels make none), then all of it, zeroed.
    local: Vec<u8>,
    /// The size `local` takes at the first access.
    local_size: usize,
    /// Pending transactions (bytes or `LDGSTS` copies) of each mbarrier, by shared address
    /// (see [`mbar`]).
    mbar_tx: std::collections::BTreeMap<u64, i64>,
    /// Per shared byte: 1 + the warp whose generic-proxy store (`STS`, `ST` to shared) wrote it
    /// and has not yet been ordered before async-proxy accesses by that warp's
    /// `FENCE.VIEW.ASYNC.S` (PTX `fence.proxy.async`); 0 when clean. Empty until the first such
    /// store. See [`Cta::async_read`].
    generic_dirty: Vec<u8>,
    /// Per shared byte with a `generic_dirty` writer: the barrier epoch of the store
    /// (`bar::Bars::completed` when it was made).
    generic_epoch: Vec<u32>,
    /// Per warp: the barrier epoch of its latest `FENCE.VIEW.ASYNC.S` (0: none yet).
    fenced_epoch: Vec<u32>,
    /// Whether `generic_dirty` is kept: only for programs that read shared memory through the
    /// async proxy ([`Launch::proxy_reads`]), the only readers of the record.
    proxy_reads: bool,
    /// The CTA barriers' phases ([`bar`]).
    bars: bar::Bars,
}

fn splat(v: u32) -> [u32; 32] {
    [v; 32]
}

fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

type R<T> = Result<T, EmuErrorKind>;

impl Warp {
    /// `hazards`: check hazards for code of this SM.
    /// `regs`: a register file of 256 zero rows to use (see [`State::reg_pool`]).
    fn new(
        id: u32,
        exists: u32,
        entry: u32,
        tid: [[u32; 3]; 32],
        hazards: Option<u32>,
        regs: Option<Vec<[u32; 32]>>,
    ) -> Warp {
        let mut state = [Lane::Exit; 32];
        for l in lanes(exists) {
            state[l] = Lane::Run;
        }
        let mut p = [0u32; 8];
        p[7] = u32::MAX;
        let mut up = [0u32; 8];
        up[7] = u32::MAX;
        Warp {
            r: regs.unwrap_or_else(|| vec![[0u32; 32]; 256]),
            r_hi: 0,
            ur: [0; 64],
            p,
            up,
            b: [[0; 32]; 16],
            lane_pc: [entry; 32],
            state,
            live_mask: exists,
            act: exists,
            pc: entry,
            other: u32::MAX,
            id,
            hz: hazards.map(|sm| LaneHazards { sm, states: Vec::new(), of: [0; 32], owned: 0 }),
            waiting: false,
            spinning: false,
            strand: [0; 32],
            next_strand: 0,
            apart: 0,
            exclusive: 0,
            last_strand: 0,
            tid,
        }
    }

    /// The register file, all rows zero again, for another warp.
    fn into_regs(self) -> Vec<[u32; 32]> {
        let mut r = self.r;
        let hi = self.r_hi.min(r.len());
        r[..hi].iter_mut().for_each(|row| *row = [0; 32]);
        r
    }

    fn live(&self) -> u32 {
        debug_assert_eq!(self.live_mask, (0..32).filter(|&l| self.state[l] != Lane::Exit).fold(0, |m, l| m | 1 << l));
        self.live_mask
    }

    /// Saves the group's pc, releases satisfied convergence waits, and picks the next group:
    /// the runnable lanes at the lowest pc.
    /// A strand id no lane has had yet (see [`Warp::strand`]).
    fn new_strand(&mut self) -> u32 {
        self.next_strand += 1;
        self.next_strand
    }

    fn regroup(&mut self) {
        // The group's lanes take its pc (a branch-free blend, which vectorises).
        let (act, pc) = (self.act, self.pc);
        for (lpc, &b) in self.lane_pc.iter_mut().zip(&LANE_BIT) {
            *lpc = if act & b != 0 { pc } else { *lpc };
        }
        let live = self.live();
        // Release BSYNC / WARPSYNC waits whose lanes have all arrived (or exited).
        let scan = std::mem::take(&mut self.waiting);
        // Lanes whose BSYNC wait was found incomplete with another lane's (see below).
        let mut done = 0u32;
        for l in 0..32 {
            if !scan {
                break;
            }
            if done & 1 << l != 0 {
                continue;
            }
            // A BSYNC waits for the lanes of its own barrier mask that arrived at the same BSYNC
            // with the same mask. In recursive code one BSYNC pc serves every frame: lanes of
            // an outer frame (mask: the whole outer set) wait there while the lanes that recursed
            // arrive with an inner frame's mask (call_recursive's `fib`, which saves and restores
            // B6 around the region with BMOV); those must not release the outer frame. The
            // notes are silent on convergence barriers; this is the per-thread reading.
            let (want, pc, bar) = match self.state[l] {
                Lane::Bsync(b) => (self.b[b as usize][l], self.lane_pc[l], Some(b)),
                Lane::Warpsync(m, _) => (m, self.lane_pc[l], None),
                _ => continue,
            };
            let want = want & live;
            let arrived = (0..32)
                .filter(|&k| {
                    want >> k & 1 == 1
                        && match (self.state[k], bar) {
                            (Lane::Bsync(b), Some(ob)) => b == ob && self.b[b as usize][k] == self.b[b as usize][l],
                            (Lane::Bsync(_) | Lane::Warpsync(..), None) => true,
                            _ => false,
                        }
                        && self.lane_pc[k] == pc
                })
                .fold(0u32, |m, k| m | 1 << k);
            if arrived != want && bar.is_some() {
                // Each lane of `arrived` waits at this BSYNC with the same barrier mask, so it
                // would find the same lanes arrived (a release of other lanes in between only
                // makes lanes run, which arrives none): none of them releases.
                done |= arrived;
            }
            if arrived == want {
                let (apart, exclusive) = match self.state[l] {
                    Lane::Warpsync(_, Release::Apart) => (true, false),
                    Lane::Warpsync(_, Release::Exclusive) => (true, true),
                    _ => (false, false),
                };
                let mut release = want | 1 << l;
                if apart && !exclusive {
                    // A plain `WARPSYNC Rm` does not split lanes that ran it together: when the
                    // whole strand arrived at once and every lane's mask is inside it, it goes on
                    // as one (the H100 ran cg_tiled_reduce's 16-lane tile `VOTE.ANY` after
                    // `WARPSYNC R2` with all 32 lanes of the converged warp).
                    let s = self.strand[l];
                    let same = (0..32)
                        .filter(|&k| {
                            matches!(self.state[k], Lane::Warpsync(_, Release::Apart))
                                && self.lane_pc[k] == pc
                                && self.strand[k] == s
                        })
                        .fold(0u32, |m, k| m | 1 << k);
                    let whole = pmask(live, |k| self.strand[k] == s) == same;
                    let inside = lanes(same).all(|k| match self.state[k] {
                        Lane::Warpsync(m, _) => m & live & !same == 0,
                        _ => false,
                    });
                    if whole && inside && release & !same == 0 {
                        // One strand, still kept apart from the warp's other strands.
                        release = same;
                    }
                }
                let strand = self.new_strand();
                // The lane itself may not be in `want` (a mask that excludes it): release it too.
                for k in lanes(release) {
                    if k == l && self.state[l] == Lane::Run {
                        continue;
                    }
                    self.state[k] = Lane::Run;
                    self.lane_pc[k] = pc + 1;
                    self.strand[k] = strand;
                    let bit = 1u32 << k;
                    self.apart = if apart { self.apart | bit } else { self.apart & !bit };
                    self.exclusive = if exclusive { self.exclusive | bit } else { self.exclusive & !bit };
                }
            }
        }
        // An exclusive strand that ran last runs on (lanes of it at its lowest pc).
        let mut runnable = 0u32;
        for (l, st) in self.state.iter().enumerate() {
            runnable |= u32::from(matches!(st, Lane::Run)) << l;
        }
        if runnable == 0 {
            // Every lane waits or has exited (what the rest gives then, without its scans).
            self.act = 0;
            self.pc = u32::MAX;
            self.other = u32::MAX;
            return;
        }
        let last = self.last_strand;
        let own = if runnable & self.exclusive != 0 {
            pmask(runnable & self.exclusive, |l| self.strand[l] == last)
        } else {
            0
        };
        let pool = if own != 0 { own } else { runnable };
        let min = self.min_pc(pool);
        let mut act = pool & fast::mask(|l| self.lane_pc[l] == min);
        if act & self.apart != 0 {
            // One strand kept apart runs: the first one (in lane order) that did not run last.
            let first = lanes(act & self.apart).map(|l| self.strand[l]).find(|&s| s != last);
            let s = first.unwrap_or(self.strand[(act & self.apart).trailing_zeros() as usize]);
            act = pmask(act & self.apart, |l| self.strand[l] == s);
        }
        let other = self.min_pc(runnable & !act);
        if act != 0 {
            self.last_strand = self.strand[act.trailing_zeros() as usize];
        }
        self.act = act;
        self.pc = min;
        self.other = other;
    }

    /// The lowest pc of the lanes `m` (`u32::MAX`: none).
    fn min_pc(&self, m: u32) -> u32 {
        // Lanes outside `m` or-ed to u32::MAX: a branch-free loop that vectorises.
        let mut min = u32::MAX;
        for (&pc, &b) in self.lane_pc.iter().zip(&LANE_BIT) {
            min = min.min(pc | u32::from(m & b == 0).wrapping_neg());
        }
        min
    }

    fn pred(&self, p: &PArg) -> u32 {
        let v = if p.uniform { self.up[p.idx as usize & 7] } else { self.p[p.idx as usize & 7] };
        if p.not { !v } else { v }
    }

    fn set_pred(&mut self, p: &PArg, v: u32, mask: u32) {
        if p.idx >= 7 || mask == 0 {
            return;
        }
        let i = p.idx as usize;
        if p.uniform {
            let first = mask.trailing_zeros();
            self.up[i] = if v >> first & 1 == 1 { u32::MAX } else { 0 };
        } else {
            self.p[i] = (self.p[i] & !mask) | (v & mask);
        }
    }

    #[inline(always)]
    fn reg32(&self, a: &Arg) -> R<[u32; 32]> {
        match a.o {
            Opnd::R(r) => Ok(self.r[r as usize]),
            Opnd::Ur(r) => Ok(splat(self.ur[r as usize & 63])),
            Opnd::Imm(v) => Ok(splat(v as u32)),
            o => Err(EmuErrorKind::Unsupported(format!("operand {o:?} as a 32-bit value"))),
        }
    }

    fn reg64(&self, a: &Arg) -> R<[u64; 32]> {
        let mut out = [0u64; 32];
        match a.o {
            Opnd::R(255) => {}
            Opnd::R(r) => {
                if r >= 254 {
                    return Err(EmuErrorKind::Unsupported(format!("register pair R{r}")));
                }
                let (lo, hi) = (&self.r[r as usize], &self.r[r as usize + 1]);
                for l in 0..32 {
                    out[l] = u64::from(lo[l]) | u64::from(hi[l]) << 32;
                }
            }
            Opnd::Ur(63) => {}
            Opnd::Ur(r) => {
                let v = u64::from(self.ur[r as usize & 63]) | u64::from(self.ur[(r as usize + 1) & 63]) << 32;
                out = [v; 32];
            }
            Opnd::Imm(v) => out = [v; 32],
            o => return Err(EmuErrorKind::Unsupported(format!("operand {o:?} as a 64-bit value"))),
        }
        Ok(out)
    }

    fn write32(&mut self, a: &Arg, v: &[u32; 32], mask: u32) -> R<()> {
        match a.o {
            Opnd::R(255) => {}
            Opnd::R(r) => {
                self.r_hi = self.r_hi.max(r as usize + 1);
                let row = &mut self.r[r as usize];
                if mask == u32::MAX {
                    *row = *v;
                } else {
                    for ((x, &y), &b) in row.iter_mut().zip(v).zip(&LANE_BIT) {
                        let keep = u32::from(mask & b == 0).wrapping_neg();
                        *x = (*x & keep) | (y & !keep);
                    }
                }
            }
            Opnd::Ur(63) => {}
            Opnd::Ur(r) => {
                if mask != 0 {
                    self.ur[r as usize & 63] = v[mask.trailing_zeros() as usize];
                }
            }
            o => return Err(EmuErrorKind::Unsupported(format!("destination {o:?}"))),
        }
        Ok(())
    }

    fn write_n(&mut self, a: &Arg, k: u8, v: &[u32; 32], mask: u32) -> R<()> {
        let shifted = match a.o {
            Opnd::R(255) => return Ok(()),
            Opnd::R(r) => {
                let x = u16::from(r) + u16::from(k);
                if x >= 255 {
                    return Err(EmuErrorKind::Unsupported(format!("register tuple R{r}+{k}")));
                }
                Opnd::R(x as u8)
            }
            Opnd::Ur(63) => return Ok(()),
            Opnd::Ur(r) => Opnd::Ur((r + k).min(63)),
            o => o,
        };
        self.write32(&Arg { o: shifted, ..*a }, v, mask)
    }

    fn write64(&mut self, a: &Arg, v: &[u64; 32], mask: u32) -> R<()> {
        let mut lo = [0u32; 32];
        let mut hi = [0u32; 32];
        for l in 0..32 {
            lo[l] = v[l] as u32;
            hi[l] = (v[l] >> 32) as u32;
        }
        self.write_n(a, 0, &lo, mask)?;
        self.write_n(a, 1, &hi, mask)
    }
}

fn fmod32(a: &Arg, v: &mut [u32; 32]) {
    if a.abs {
        v.iter_mut().for_each(|x| *x &= 0x7fff_ffff);
    }
    if a.neg {
        v.iter_mut().for_each(|x| *x ^= 0x8000_0000);
    }
}

/// FP64 operand modifiers. They leave a NaN as it is: `DADD R, -c, a` with `c` =
/// `0xffffffffffffffff` gives `0xffffffffffffffff`, not a positive NaN (golden of
/// `f64_round_modes`, `sub.f64` and `-x - 0.1`); `|x|` is assumed to do the same.
fn fmod64(a: &Arg, v: &mut [u64; 32]) {
    let nan = |x: u64| f64::from_bits(x).is_nan();
    if a.abs {
        v.iter_mut().filter(|x| !nan(**x)).for_each(|x| *x &= !(1u64 << 63));
    }
    if a.neg {
        v.iter_mut().filter(|x| !nan(**x)).for_each(|x| *x ^= 1u64 << 63);
    }
}

fn imod(a: &Arg, v: &mut [u32; 32]) {
    if a.not {
        v.iter_mut().for_each(|x| *x = !*x);
    }
    if a.neg {
        v.iter_mut().for_each(|x| *x = x.wrapping_neg());
    }
}

/// Lane counts from which [`map1`], [`map64`] and [`pmask`] evaluate their function on all 32
/// lanes, branch-free (so the loop can vectorise), and mask the result, instead of visiting the
/// set lanes one by one. The functions are pure, so both ways give the same value.
const WIDE: u32 = 8;

/// The bit of each lane in a mask.
const LANE_BIT: [u32; 32] = {
    let mut b = [0u32; 32];
    let mut l = 0;
    while l < 32 {
        b[l] = 1 << l;
        l += 1;
    }
    b
};

/// `f` of each lane of `m`, 0 in the other lanes: with [`WIDE`] lanes or more, every lane is
/// evaluated and blended by the mask (a loop that vectorises), else only `m`'s lanes.
#[inline(always)]
fn map_lanes<T: Copy + Default>(m: u32, f: impl Fn(usize) -> T) -> [T; 32] {
    let mut out = [T::default(); 32];
    if m.count_ones() >= WIDE {
        for (l, o) in out.iter_mut().enumerate() {
            let v = f(l);
            *o = if m & LANE_BIT[l] != 0 { v } else { T::default() };
        }
    } else {
        for l in lanes(m) {
            out[l] = f(l);
        }
    }
    out
}

/// [`map_lanes`] for 32-bit values.
#[inline(always)]
fn map1(m: u32, f: impl Fn(usize) -> u32) -> [u32; 32] {
    map_lanes(m, f)
}

/// [`map_lanes`] for 64-bit values.
#[inline(always)]
fn map64(m: u32, f: impl Fn(usize) -> u64) -> [u64; 32] {
    map_lanes(m, f)
}

/// `f` of the lanes of `m` (and, from [`WIDE`] lanes on, of all 32, branch-free: `f` writes
/// per-lane results the caller masks by `m`).
#[inline(always)]
fn for_lanes(m: u32, f: impl FnMut(usize)) {
    if m.count_ones() >= WIDE {
        (0..32).for_each(f);
    } else {
        lanes(m).for_each(f);
    }
}

/// The lanes of `m` where `f` holds.
#[inline(always)]
fn pmask(m: u32, f: impl Fn(usize) -> bool) -> u32 {
    let mut out = 0u32;
    if m.count_ones() >= WIDE {
        for l in 0..32 {
            out |= u32::from(f(l)) << l;
        }
        return out & m;
    }
    for l in lanes(m) {
        if f(l) {
            out |= 1 << l;
        }
    }
    out
}

fn bit(m: u32, l: usize) -> u64 {
    u64::from(m >> l & 1)
}

/// The CTA slot the emulator gives CTA number `linear` (x fastest): `1 + linear % 7`.
///
/// sm_90 shared addresses carry the CTA's slot in its cluster in bits 24 and up (ptxas builds
/// every shared address as `SR_CgaCtaId << 24 | offset`). The hardware's slot is not 0 in
/// general even without clusters: on an H200, cubins that left the bits 0 wrote into other
/// CTAs' shared memory (see `corpus/gpu/README.md`). The emulator therefore gives every CTA a
/// nonzero slot that differs between neighbours, and faults on an access with other slot bits.
pub(crate) fn cta_slot(linear: u64) -> u32 {
    1 + (linear % 7) as u32
}

impl Cta {
    /// Records a generic-proxy store of `size` bytes at shared offset `off` by warp `warp`.
    fn generic_store(&mut self, off: u64, size: u32, warp: u32) {
        if !self.proxy_reads {
            return;
        }
        if self.generic_dirty.is_empty() {
            self.generic_dirty = vec![0; self.shared.bytes.len()];
            self.generic_epoch = vec![0; self.shared.bytes.len()];
        }
        let end = (off as usize + size as usize).min(self.generic_dirty.len());
        if let Some(b) = self.generic_dirty.get_mut(off as usize..end) {
            b.fill(warp.min(254) as u8 + 1);
            self.generic_epoch[off as usize..end].fill(self.bars.completed);
        }
    }

    /// `FENCE.VIEW.ASYNC.S` by warp `warp`: its earlier generic-proxy shared stores are now
    /// visible to the async proxy, and so are other warps' stores made before a barrier that
    /// completed before this fence (for this warp's async-proxy reads: [`Cta::async_read`]).
    fn proxy_fence(&mut self, warp: u32) {
        let me = warp.min(254) as u8 + 1;
        for b in self.generic_dirty.iter_mut().filter(|b| **b == me) {
            *b = 0;
        }
        if let Some(e) = self.fenced_epoch.get_mut(warp as usize) {
            *e = self.bars.completed;
        }
    }

    /// An async-proxy read by warp `warp` (`HGMMA`'s shared operands) of the byte at shared
    /// offset `off`: an error when a generic-proxy store wrote it with no `fence.proxy.async`
    /// ordering it before the read. PTX requires the fence (the async proxy need not see the
    /// generic proxy's writes); on the H100 our tc_wgmma cubin without it (`MEMBAR.SC.GPU` where
    /// ptxas has `MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S`) computed with stale shared data. The
    /// fence orders the store when the storing warp made it after the store, or when the reading
    /// warp made it after a barrier that completed after the store (store, `bar.sync`,
    /// `fence.proxy.async`, `wgmma` in the reader: Triton's sm_90 attn_bwd_dkdv, whose HGMMA
    /// reads tiles other warps stored).
    fn async_read(&self, off: u64, warp: u32) -> Result<(), EmuErrorKind> {
        let fenced = self.fenced_epoch.get(warp as usize).copied().unwrap_or(0);
        match self.generic_dirty.get(off as usize) {
            Some(&w) if w != 0 && fenced <= self.generic_epoch[off as usize] => Err(EmuErrorKind::Hazard(format!(
                "HGMMA reads shared offset {off:#x}, which warp {} stored through the generic proxy with no \
                 fence.proxy.async (FENCE.VIEW.ASYNC.S) after it: the async proxy may not see the store",
                w - 1
            ))),
            _ => Ok(()),
        }
    }

    /// The offset in this CTA's shared memory of shared address `addr`, checking its slot bits.
    fn shared_offset(&self, addr: u64, size: u32, write: bool) -> Result<u64, Fault> {
        let a = addr & 0xffff_ffff;
        if (a >> 24) as u32 != self.slot {
            return Err(Fault { kind: FaultKind::OtherCta, space: MemSpace::Shared, addr: a, size, write });
        }
        Ok(a & 0xff_ffff)
    }

    fn local_load(&self, lane_thread: usize, lb: u32, addr: u64, size: u32) -> Result<u128, Fault> {
        let r = self.local_range(lane_thread, lb, addr, size, false)?;
        if self.local.is_empty() {
            // Never written: zeros.
            return Ok(0);
        }
        Ok(crate::memory::read_le(&self.local[r]))
    }
    fn local_store(&mut self, lane_thread: usize, lb: u32, addr: u64, size: u32, v: u128) -> Result<(), Fault> {
        let r = self.local_range(lane_thread, lb, addr, size, true)?;
        if self.local.is_empty() {
            self.local = vec![0u8; self.local_size];
        }
        crate::memory::write_le(&mut self.local[r], v);
        Ok(())
    }
    fn local_range(
        &self,
        t: usize,
        lb: u32,
        addr: u64,
        size: u32,
        write: bool,
    ) -> Result<std::ops::Range<usize>, Fault> {
        let f = |kind| Fault { kind, space: MemSpace::Local, addr, size, write };
        if !matches!(size, 1 | 2 | 4 | 8 | 16) {
            return Err(f(FaultKind::BadSize));
        }
        if !addr.is_multiple_of(u64::from(size)) {
            return Err(f(FaultKind::Misaligned));
        }
        let low = u64::from(super::LOCAL_TOP - lb);
        if addr < low || addr + u64::from(size) > u64::from(super::LOCAL_TOP) {
            return Err(f(FaultKind::OutOfBounds));
        }
        let base = t * lb as usize + (addr - low) as usize;
        Ok(base..base + size as usize)
    }
}

/// Runs the whole grid.
pub(crate) fn run_grid(l: &Launch, st: &mut State) -> Result<(), EmuError> {
    let [gx, gy, gz] = l.grid;
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                run_cta(l, st, [x, y, z])?;
            }
        }
    }
    Ok(())
}

fn run_cta(l: &Launch, st: &mut State, id: [u32; 3]) -> Result<(), EmuError> {
    let [bx, by, bz] = l.block;
    let nthreads = bx * by * bz;
    let nwarps = nthreads.div_ceil(32);
    let linear = (u64::from(id[2]) * u64::from(l.grid[1]) + u64::from(id[1])) * u64::from(l.grid[0]) + u64::from(id[0]);
    let mut cta = Cta {
        id,
        slot: match l.cluster {
            _ if l.sm < 90 => 0,
            // In a cluster launch `SR_CgaCtaId` is the CTA's rank in its cluster (x fastest),
            // what `%cluster_ctarank` reads (the H100 golden of sreg_cluster_smem).
            Some(c) => (id[0] % c[0]) + c[0] * ((id[1] % c[1]) + c[1] * (id[2] % c[2])),
            None => cta_slot(linear),
        },
        shared: Region::zeroed(MemSpace::Shared, l.shared_bytes as usize, true),
        local: Vec::new(),
        local_size: nthreads as usize * l.local_bytes as usize,
        mbar_tx: std::collections::BTreeMap::new(),
        generic_dirty: Vec::new(),
        generic_epoch: Vec::new(),
        fenced_epoch: vec![0; nwarps as usize],
        proxy_reads: l.proxy_reads,
        bars: bar::Bars::new(nwarps),
    };
    let mut warps: Vec<Warp> = (0..nwarps)
        .map(|w| {
            let mut tid = [[0u32; 3]; 32];
            let mut exists = 0u32;
            for (lane, t) in tid.iter_mut().enumerate() {
                let lin = w * 32 + lane as u32;
                if lin < nthreads {
                    exists |= 1 << lane;
                    *t = [lin % bx, (lin / bx) % by, lin / (bx * by)];
                }
            }
            Warp::new(w, exists, l.program.entry, tid, l.hazards.then_some(l.sm), st.reg_pool.pop())
        })
        .collect();
    loop {
        let mut any_ran = false;
        for w in warps.iter_mut() {
            if w.act != 0 {
                run_warp(l, st, &mut cta, w)?;
                any_ran = true;
            }
        }
        if warps.iter().all(|w| w.live() == 0) {
            for w in &mut warps {
                if let Some(hz) = &mut w.hz {
                    st.hz_pool.append(&mut hz.states);
                }
            }
            st.reg_pool.extend(warps.into_iter().map(Warp::into_regs));
            return Ok(());
        }
        // Every live warp is blocked: complete the all-threads barriers every live warp
        // reached, and release the warps of completed barriers.
        let live = warps.iter().filter(|w| w.live() != 0).count() as u32;
        cta.bars.complete_all(live);
        let mut released = false;
        for w in warps.iter_mut() {
            if cta.bars.take_release(w.id) {
                for lane in 0..32 {
                    if let Lane::Bar(_) = w.state[lane] {
                        w.state[lane] = Lane::Run;
                        w.lane_pc[lane] += 1;
                    }
                }
                w.act = 0;
                w.regroup();
                released = true;
            }
        }
        if released {
            continue;
        }
        if !any_ran {
            let w = warps.iter().find(|w| w.live() != 0).map_or(0, |w| w.id);
            return Err(EmuError {
                kernel: l.kernel.to_string(),
                offset: None,
                inst: None,
                thread: None,
                kind: EmuErrorKind::Deadlock(format!(
                    "CTA ({},{},{}): warp {w} and others wait at different barriers or convergence points that never complete",
                    id_of(&cta)[0],
                    id_of(&cta)[1],
                    id_of(&cta)[2]
                )),
            });
        }
    }
}

fn id_of(c: &Cta) -> [u32; 3] {
    c.id
}

fn thread_of(cta: &Cta, w: &Warp, lane: usize) -> ThreadId {
    ThreadId { cta: cta.id, tid: w.tid[lane], warp: w.id, lane: lane as u32 }
}

fn run_warp(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp) -> Result<(), EmuError> {
    loop {
        if w.act == 0 {
            w.regroup();
            if w.act == 0 {
                return Ok(());
            }
        }
        let Some(inst) = l.program.insts.get(w.pc as usize) else {
            return Err(located(
                l,
                None,
                Some(thread_of(cta, w, w.act.trailing_zeros() as usize)),
                EmuErrorKind::Invalid(format!("pc {:#x} is outside the code", w.pc as u64 * 16)),
            ));
        };
        if w.hz.is_none() {
            // Without the hazard checker, runs of fast forms execute in one call.
            let act = w.act;
            let n = fast::run(l, st, cta, w, l.step_limit.saturating_sub(st.steps));
            if n > 0 {
                st.steps += n;
                st.fast_steps += n;
                st.thread_instrs += n * u64::from(act.count_ones());
                if w.pc >= w.other {
                    w.regroup();
                }
                continue;
            }
        }
        st.steps += 1;
        if st.steps > l.step_limit {
            return Err(located(l, Some(inst), None, EmuErrorKind::StepLimit(l.step_limit)));
        }
        st.thread_instrs += u64::from(w.act.count_ones());
        if let Some(i) = st.issued.get_mut(w.pc as usize) {
            *i = true;
        }
        let (act, live) = (w.act, w.live());
        let facts = l.hz_facts.get(w.pc as usize);
        if let Some(Err(m)) = w.hz.as_mut().map(|hz| match facts {
            Some(f) => hz.issue(act, live, inst, f, &mut st.hz_pool),
            None => hz.issue(act, live, inst, &Facts::new(hz.sm, inst), &mut st.hz_pool),
        }) {
            let t = thread_of(cta, w, w.act.trailing_zeros() as usize);
            return Err(located(l, Some(inst), Some(t), EmuErrorKind::Hazard(m)));
        }
        let res = match l.fast.get(w.pc as usize) {
            Some(f) if fast::exec(l, st, cta, w, f) => {
                st.fast_steps += 1;
                Ok(())
            }
            _ => step(l, st, cta, w, inst),
        };
        match res {
            Ok(()) => {}
            Err((lane, kind)) => {
                let lane = lane.unwrap_or(w.act.trailing_zeros() as usize);
                return Err(located(l, Some(inst), Some(thread_of(cta, w, lane)), kind));
            }
        }
        if w.act == 0 {
            // No group (all its lanes parked or gone): the loop's top regroups (regrouping is
            // idempotent, so once is enough); a spinning warp regroups before it hands over.
            if std::mem::take(&mut w.spinning) {
                w.regroup();
                return Ok(());
            }
            continue;
        }
        if w.pc >= w.other {
            // Caught up with another group: merge (or, for groups kept apart, take turns).
            w.regroup();
        }
        if std::mem::take(&mut w.spinning) {
            return Ok(());
        }
    }
}

fn located(l: &Launch, inst: Option<&Inst>, thread: Option<ThreadId>, kind: EmuErrorKind) -> EmuError {
    EmuError {
        kernel: l.kernel.to_string(),
        offset: inst.map(|i| i.offset),
        inst: inst.map(|i| {
            let t = i.text(l.program.tables);
            if t.starts_with("0x") { t } else { format!("{t} ({:#034x})", i.word) }
        }),
        thread,
        kind,
    }
}

type StepErr = (Option<usize>, EmuErrorKind);

fn lift<T>(r: R<T>) -> Result<T, StepErr> {
    r.map_err(|k| (None, k))
}

fn sreg(l: &Launch, st: &State, cta: &Cta, w: &Warp, name: &str, lane: usize) -> Option<u32> {
    let t = w.tid[lane];
    Some(match name {
        "SR_TID.X" => t[0],
        "SR_TID.Y" => t[1],
        "SR_TID.Z" => t[2],
        "SR_CTAID.X" => cta.id[0],
        "SR_CTAID.Y" => cta.id[1],
        "SR_CTAID.Z" => cta.id[2],
        "SR_TID" => t[0] | t[1] << 16 | t[2] << 26,
        "SR_NTID" => l.block[0] | l.block[1] << 16 | l.block[2] << 26,
        "SR_LANEID" => lane as u32,
        "SR_CgaCtaId" => cta.slot,
        // The index of Blackwell's launch-shape table in bank 0 (see `BLACKWELL_DRIVER`).
        "SR_CgaSize" => 0,
        "SR_VIRTUALSMID" | "SR_GpcLocalCgaId" | "SR_SWINLO" => 0,
        "SR_LWINLO" => LOCAL_LO,
        // ptxas reads `%nwarpid` as bits 8..16 of SR_VIRTCFG and `%warpid` as bits 8..15 of
        // SR_VIRTID (sreg_geometry: `S2UR UR6, SR_VIRTCFG` / `USHF.R.U32.HI UR6, URZ, 0x8, UR6` /
        // `USGXT.U32 UR6, UR6, 0x8`, and `SHF.R.U32.HI` / `SGXT.U32 R26, R26, 0x7` of SR_VIRTID):
        // the emulator reports 64 warp slots (an H100 SM's) and the warp's index in its CTA. The
        // other bits are not known.
        "SR_VIRTCFG" => crate::memory::WARP_SLOTS << 8,
        "SR_VIRTID" => w.id << 8,
        "SR_SWINHI" => SHARED_HI,
        "SR_LWINHI" => LOCAL_HI,
        // The lowest local offset the stack may reach: ptxas's -O0 code traps (`BPT.TRAP`)
        // unless `R1 >= SR_LMEMHIOFF` (unsigned) after it lowers R1. The emulator's stack may
        // use the whole per-thread local window, so 0; going below it faults in the access.
        "SR_LMEMHIOFF" => 0,
        "SR_SWINSZ" | "SR_SMEMSZ" => l.shared_bytes,
        "SR_LWINSZ" => l.local_bytes,
        "SR_EQMASK" => 1 << lane,
        "SR_LTMASK" => (1u32 << lane) - 1,
        "SR_LEMASK" => ((1u64 << (lane + 1)) - 1) as u32,
        "SR_GTMASK" => !(((1u64 << (lane + 1)) - 1) as u32),
        "SR_GEMASK" => !((1u32 << lane) - 1),
        "SR_CLOCKLO" | "SR_CLOCK" | "SR_GLOBALTIMERLO" => st.steps as u32,
        "SR_CLOCKHI" | "SR_GLOBALTIMERHI" => (st.steps >> 32) as u32,
        "SRZ" => 0,
        _ => return None,
    })
}

fn sr_name(l: &Launch, id: u8) -> &'static str {
    sr_name_in(l.program.tables, id)
}

/// The name of special register `id` in the SM's `tables` (`?` when it has none).
pub(crate) fn sr_name_in(tables: &ptxas_rs::sass::form::Tables, id: u8) -> &'static str {
    tables.sregs.iter().find(|(i, _)| *i == id).map_or("?", |(_, n)| n)
}

/// Whether [`sreg`]'s value of `name` depends on the lane (the thread index forms and the
/// lane masks); every other register it knows reads the same in all the lanes of a warp.
pub(crate) fn sreg_per_lane(name: &str) -> bool {
    name.starts_with("SR_TID") || name == "SR_LANEID" || name.ends_with("MASK")
}

/// Whether [`sreg`] reads `name` from the step count (the clocks and timers).
pub(crate) fn sreg_reads_steps(name: &str) -> bool {
    name.starts_with("SR_CLOCK") || name.starts_with("SR_GLOBALTIMER")
}

#[allow(clippy::too_many_lines)]
fn step(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, inst: &Inst) -> Result<(), StepErr> {
    let act = w.act;
    let g = act & w.pred(&inst.guard);
    let a = &inst.args;
    let pr = &inst.preds;
    let next = w.pc + 1;
    match &inst.kind {
        Kind::Invalid(why) => return Err((None, EmuErrorKind::Invalid(why.clone()))),
        Kind::Nop if inst.base == "FENCE" && inst.suffix.contains("ASYNC.S") && g != 0 => cta.proxy_fence(w.id),
        Kind::Nop | Kind::Depbar(..) | Kind::DepbarList(_) => {}
        Kind::Iadd3 { x } => {
            let v = [lift(w.reg32(&a[1]))?, lift(w.reg32(&a[2]))?, lift(w.reg32(&a[3]))?];
            let ci0 = w.pred(&pr[2]);
            let ci1 = w.pred(&pr[3]);
            // A negated operand adds `~x` (with `.X`, where the carry-ins complete it) or `~x + 1`.
            let inv = [1, 2, 3].map(|i| a[i].neg || a[i].not);
            let one = u64::from(!*x);
            let opv = |i: usize, x0: u32| -> u64 { if inv[i] { u64::from(!x0) + one } else { u64::from(x0) } };
            let mut d = [0u32; 32];
            let (mut co0, mut co1) = (0u32, 0u32);
            for_lanes(g, |lane| {
                let mut s = opv(0, v[0][lane]) + opv(1, v[1][lane]) + opv(2, v[2][lane]);
                if *x {
                    s += bit(ci0, lane) + bit(ci1, lane);
                }
                d[lane] = s as u32;
                let c = s >> 32;
                co0 |= u32::from(c >= 1) << lane;
                co1 |= u32::from(c >= 2) << lane;
            });
            lift(w.write32(&a[0], &d, g))?;
            w.set_pred(&pr[0], co0 & g, g);
            w.set_pred(&pr[1], co1 & g, g);
        }
        Kind::Imad { wide, hi, signed, x } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let cin = if *x { w.pred(&pr[1]) } else { 0 };
            let cneg = a[3].neg || a[3].not;
            let mut co = 0u32;
            if *wide || *hi {
                let vc = lift(w.reg64(&a[3]))?;
                let mut res = [0u64; 32];
                for_lanes(g, |lane| {
                    let p = if *signed {
                        (i64::from(va[lane] as i32) * i64::from(vb[lane] as i32)) as u64
                    } else {
                        u64::from(va[lane]) * u64::from(vb[lane])
                    };
                    let c = if cneg { if *x { !vc[lane] } else { vc[lane].wrapping_neg() } } else { vc[lane] };
                    let s = u128::from(p) + u128::from(c) + u128::from(bit(cin, lane));
                    // Carry out: bit 64 of the sum.
                    co |= ((s >> 64) as u32 & 1) << lane;
                    res[lane] = if *hi { (s >> 32) as u64 & 0xffff_ffff } else { s as u64 };
                });
                if *hi {
                    lift(w.write32(&a[0], &res.map(|v| v as u32), g))?;
                } else {
                    lift(w.write64(&a[0], &res, g))?;
                }
            } else {
                let vc = lift(w.reg32(&a[3]))?;
                let mut d = [0u32; 32];
                for_lanes(g, |lane| {
                    let c = if cneg { if *x { !vc[lane] } else { vc[lane].wrapping_neg() } } else { vc[lane] };
                    let s = u64::from(va[lane].wrapping_mul(vb[lane])) + u64::from(c) + bit(cin, lane);
                    d[lane] = s as u32;
                    co |= ((s >> 32) as u32 & 1) << lane;
                });
                lift(w.write32(&a[0], &d, g))?;
            }
            w.set_pred(&pr[0], co & g, g);
        }
        Kind::Lea { hi, x, sx32 } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            let sh = lift(w.reg32(&a[4]))?[0];
            let m = alu::LeaMods::new(*hi, *x, *sx32, (a[1].neg, a[1].not), (a[2].neg, a[2].not));
            let cin = w.pred(&pr[1]);
            let mut co = 0u32;
            let mut d = [0u32; 32];
            for lane in lanes(g) {
                let (r, c) = alu::lea(va[lane], vb[lane], vc[lane], sh, m, bit(cin, lane) == 1);
                d[lane] = r;
                co |= u32::from(c) << lane;
            }
            lift(w.write32(&a[0], &d, g))?;
            w.set_pred(&pr[0], co, g);
        }
        Kind::Lop3 => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            let lut = lift(w.reg32(&a[4]))?[0] as u8;
            let d = map1(g, |lane| alu::lop3(va[lane], vb[lane], vc[lane], lut));
            let pin = w.pred(&pr[1]);
            let po = pmask(g, |lane| d[lane] != 0 || pin >> lane & 1 == 1);
            lift(w.write32(&a[0], &d, g))?;
            w.set_pred(&pr[0], po, g);
        }
        Kind::Plop3 => {
            let (pa, pb, pc) = (w.pred(&pr[2]), w.pred(&pr[3]), w.pred(&pr[4]));
            let lut1 = lift(w.reg32(&a[0]))?[0] as u8;
            let lut2 = lift(w.reg32(&a[1]))?[0] as u8;
            let r1 = alu::lop3(pa, pb, pc, lut1);
            let r2 = alu::lop3(pa, pb, pc, lut2);
            w.set_pred(&pr[0], r1, g);
            w.set_pred(&pr[1], r2, g);
        }
        Kind::Plop3Sign => {
            let sign = |x: &Arg| -> Result<u32, StepErr> {
                let v = lift(w.reg32(x))?;
                Ok(pmask(u32::MAX, |lane| v[lane] >> 31 == 1))
            };
            let (pa, pb, pc) = (sign(&a[0])?, sign(&a[1])?, sign(&a[2])?);
            let lut1 = lift(w.reg32(&a[3]))?[0] as u8;
            let lut2 = lift(w.reg32(&a[4]))?[0] as u8;
            w.set_pred(&pr[0], alu::lop3(pa, pb, pc, lut1), g);
            w.set_pred(&pr[1], alu::lop3(pa, pb, pc, lut2), g);
        }
        Kind::Hset2 { cmp, bop, one, m } => {
            let (lo, hi) = half_compare(w, (&a[1], &a[2]), &pr[0], (*cmp, *bop, *m), g)?;
            let t = if !*one {
                0xffff
            } else if m.bf16 {
                0x3f80
            } else {
                0x3c00
            };
            let d = map1(g, |lane| {
                (if lo >> lane & 1 == 1 { t } else { 0 }) | (if hi >> lane & 1 == 1 { t << 16 } else { 0 })
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::MufuF16(f) => {
            let v = lift(w.reg32(&a[1]))?;
            let shift = if a[1].sel == 1 { 16 } else { 0 };
            let d = map1(g, |lane| u32::from(alu::mufu_f16(*f, (v[lane] >> shift) as u16)));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Surface { store, geom, bytes, clamp } => texture::surface(l, st, w, a, g, *store, *geom, *bytes, *clamp)?,
        Kind::Ldgsts { size, zfill } => {
            let copy = w.pred(&pr[0]);
            for lane in lanes(g) {
                let src = address(w, &a[1], lane);
                let v = if copy >> lane & 1 == 0 {
                    0
                } else if *zfill {
                    // The low bits count the zero bytes at the end; read only the others.
                    let z = src & u64::from(*size - 1);
                    let mut v = 0u128;
                    for k in 0..u64::from(*size) - z {
                        let b = mem_load(l, st, cta, w, Space::Global, src - z + k, 1, lane)
                            .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
                        v |= b << (8 * k);
                    }
                    v
                } else {
                    mem_load(l, st, cta, w, Space::Global, src, *size, lane)
                        .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?
                };
                let dst = address(w, &a[0], lane);
                mem_store(l, st, cta, w, Space::Shared, dst, *size, v, lane)
                    .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
            }
        }
        Kind::MbarInit => {
            let v = lift(w.reg64(&a[2]))?;
            let mut old = [0u64; 32];
            for lane in lanes(g) {
                let at = address(w, &a[1], lane);
                old[lane] = mem_load(l, st, cta, w, Space::Shared, at, 8, lane)
                    .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))? as u64;
                mem_store(l, st, cta, w, Space::Shared, at, 8, u128::from(v[lane]), lane)
                    .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
                cta.mbar_tx.insert(at, 0);
            }
            lift(w.write64(&a[0], &old, g))?;
        }
        Kind::MbarArrive { arrivals, tx, count_in_b, complete, optout } => {
            let extra = lift(w.reg32(&a[2]))?;
            let mut token = [0u64; 32];
            for lane in lanes(g) {
                let at = address(w, &a[1], lane);
                let (n, add) = if *count_in_b {
                    (extra[lane], i64::from(*tx))
                } else if *complete {
                    (*arrivals, -i64::from(extra[lane]))
                } else {
                    (*arrivals, i64::from(*tx) + i64::from(extra[lane]))
                };
                token[lane] = mbar::update(l, st, cta, w, at, n, add, *optout, lane)?;
            }
            lift(w.write64(&a[0], &token, g))?;
        }
        Kind::MbarTest => {
            let parity = lift(w.reg32(&a[1]))?;
            let mut done = 0u32;
            for lane in lanes(g) {
                let at = address(w, &a[0], lane);
                let word = mem_load(l, st, cta, w, Space::Shared, at, 8, lane)
                    .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))? as u64;
                if mbar::phase(word) != parity[lane] >> 31 {
                    done |= 1 << lane;
                }
            }
            w.set_pred(&pr[0], done, g);
            if done != g {
                w.spinning = true;
            }
        }
        Kind::MbarArrive80 => {
            let mut token = [0u64; 32];
            for lane in lanes(g) {
                let at = address(w, &a[1], lane);
                token[lane] = mbar::sm80_update(l, st, cta, w, at, lane)?;
            }
            lift(w.write64(&a[0], &token, g))?;
        }
        Kind::MbarLdgstsArrive80 => {
            for lane in lanes(g) {
                let at = address(w, &a[0], lane);
                mbar::sm80_update(l, st, cta, w, at, lane)?;
            }
        }
        Kind::Yield => {
            if l.sm < 90 {
                w.spinning = true;
            }
        }
        Kind::MbarLdgstsArrive => {
            for lane in lanes(g) {
                let at = address(w, &a[0], lane);
                mbar::update(l, st, cta, w, at, 0, -1, false, lane)?;
            }
        }
        Kind::Ublkcp => {
            if g != 0 {
                let lane = g.trailing_zeros() as usize;
                let Opnd::Mem { ur: ud, .. } = a[0].o else {
                    return Err((None, EmuErrorKind::Unsupported("UBLKCP destination".into())));
                };
                let dst = address(w, &a[0], lane);
                let bar = u64::from(w.ur[(ud as usize + 1) & 63]);
                // The source is a 64-bit global address in a uniform pair.
                let Opnd::Mem { ur: us, .. } = a[1].o else {
                    return Err((None, EmuErrorKind::Unsupported("UBLKCP source".into())));
                };
                let src = u64::from(w.ur[us as usize & 63]) | u64::from(w.ur[(us as usize + 1) & 63]) << 32;
                let bytes = u64::from(lift(w.reg32(&a[2]))?[lane]) * 16;
                for k in (0..bytes).step_by(4) {
                    let v = mem_load(l, st, cta, w, Space::Global, src + k, 4, lane)
                        .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
                    mem_store(l, st, cta, w, Space::Shared, dst + k, 4, v, lane)
                        .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
                }
                mbar::update(l, st, cta, w, bar, 0, -(bytes as i64), false, lane)?;
            }
        }
        Kind::SetMaxRegAlloc => w.set_pred(&pr[0], u32::MAX, g),
        Kind::Elect => {
            let m = g & w.pred(&pr[1]);
            let leader = if m == 0 { 0 } else { 1u32 << m.trailing_zeros() };
            w.set_pred(&pr[0], leader, g);
            lift(w.write32(&a[0], &splat(m.trailing_zeros().min(31)), g))?;
        }
        Kind::Shf { left, wrap, ty, hi } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            let d = map1(g, |lane| alu::shf(va[lane], vb[lane], vc[lane], *left, *wrap, *ty, *hi));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Isetp { cmp, signed, wide: true, bop, ex } => {
            let (va, vb) = (lift(w.reg64(&a[0]))?, lift(w.reg64(&a[1]))?);
            if a[0].neg || a[0].not || a[1].neg || a[1].not {
                return Err((None, EmuErrorKind::Unsupported("negated 64-bit ISETP operand".into())));
            }
            let pp = w.pred(&pr[2]);
            let low = if *ex { w.pred(&pr[3]) } else { 0 };
            let r = pmask(g, |lane| {
                let (x, y) = (va[lane], vb[lane]);
                let o = if *signed { (x as i64).cmp(&(y as i64)) } else { x.cmp(&y) };
                match ex.then_some(low >> lane & 1 == 1) {
                    Some(l) if o == std::cmp::Ordering::Equal => l,
                    _ => cmp.eval(Some(o)),
                }
            });
            let (u, v) = combine(*bop, r, pp, g);
            w.set_pred(&pr[0], u, g);
            w.set_pred(&pr[1], v, g);
        }
        Kind::Isetp { cmp, signed, wide: false, bop, ex } => {
            let mut va = lift(w.reg32(&a[0]))?;
            let mut vb = lift(w.reg32(&a[1]))?;
            imod(&a[0], &mut va);
            imod(&a[1], &mut vb);
            let pp = w.pred(&pr[2]);
            let low = if *ex { w.pred(&pr[3]) } else { 0 };
            // [`alu::isetp`] on every lane, branch-free: the lanes where a < b and where a == b.
            let (mut lt, mut eq) = (0u32, 0u32);
            if *signed {
                for lane in 0..32 {
                    lt |= u32::from((va[lane] as i32) < (vb[lane] as i32)) << lane;
                    eq |= u32::from(va[lane] == vb[lane]) << lane;
                }
            } else {
                for lane in 0..32 {
                    lt |= u32::from(va[lane] < vb[lane]) << lane;
                    eq |= u32::from(va[lane] == vb[lane]) << lane;
                }
            }
            let mut r = cmp_lanes(*cmp, lt, eq, !(lt | eq), 0);
            if *ex {
                r = (r & !eq) | (low & eq);
            }
            let (u, v) = combine(*bop, r & g, pp, g);
            w.set_pred(&pr[0], u, g);
            w.set_pred(&pr[1], v, g);
        }
        Kind::Fsetp { cmp, ftz, bop } => {
            let mut va = lift(w.reg32(&a[0]))?;
            let mut vb = lift(w.reg32(&a[1]))?;
            fmod32(&a[0], &mut va);
            fmod32(&a[1], &mut vb);
            let pp = w.pred(&pr[2]);
            // [`alu::fsetp`] on every lane, branch-free.
            let (mut lt, mut eq, mut gt) = (0u32, 0u32, 0u32);
            for lane in 0..32 {
                let (x, y) = if *ftz {
                    (f32::from_bits(alu::ftz32(va[lane])), f32::from_bits(alu::ftz32(vb[lane])))
                } else {
                    (f32::from_bits(va[lane]), f32::from_bits(vb[lane]))
                };
                lt |= u32::from(x < y) << lane;
                eq |= u32::from(x == y) << lane;
                gt |= u32::from(x > y) << lane;
            }
            let r = cmp_lanes(*cmp, lt, eq, gt, !(lt | eq | gt));
            let (u, v) = combine(*bop, r & g, pp, g);
            w.set_pred(&pr[0], u, g);
            w.set_pred(&pr[1], v, g);
        }
        Kind::Dsetp { cmp, bop } => {
            let mut va = lift(w.reg64(&a[0]))?;
            let mut vb = lift(w.reg64(&a[1]))?;
            fmod64(&a[0], &mut va);
            fmod64(&a[1], &mut vb);
            let pp = w.pred(&pr[2]);
            let r = pmask(g, |lane| alu::dsetp(va[lane], vb[lane], *cmp));
            let (u, v) = combine(*bop, r, pp, g);
            w.set_pred(&pr[0], u, g);
            w.set_pred(&pr[1], v, g);
        }
        Kind::DsetpMinMax { min, bop } => {
            let mut va = lift(w.reg64(&a[0]))?;
            let mut vb = lift(w.reg64(&a[1]))?;
            fmod64(&a[0], &mut va);
            fmod64(&a[1], &mut vb);
            let pp = w.pred(&pr[2]);
            let pick = pmask(g, |lane| alu::dsetp_minmax(va[lane], vb[lane], *min).0);
            let nan2 = pmask(g, |lane| alu::dsetp_minmax(va[lane], vb[lane], *min).1);
            w.set_pred(&pr[0], combine(*bop, pick, pp, g).0, g);
            w.set_pred(&pr[1], combine(*bop, nan2, pp, g).0, g);
        }
        Kind::Sel if a[0].n == 2 => {
            // sm_120's `SEL.64`.
            let (va, vb) = (lift(w.reg64(&a[1]))?, lift(w.reg64(&a[2]))?);
            let p = w.pred(&pr[0]);
            let d = map64(g, |lane| if p >> lane & 1 == 1 { va[lane] } else { vb[lane] });
            lift(w.write64(&a[0], &d, g))?;
        }
        Kind::Mov if a[0].n == 2 => {
            // sm_120's `MOV.64` / `UMOV.64`.
            let va = lift(w.reg64(&a[1]))?;
            lift(w.write64(&a[0], &va, g))?;
        }
        Kind::Iadd64 { x } => {
            let n = a.len() - 1;
            let mut v = [[0u64; 32]; 3];
            for (i, slot) in v.iter_mut().enumerate().take(n) {
                *slot = lift(w.reg64(&a[i + 1]))?;
            }
            let (couts, cins) = pr.split_at(pr.len() / 2);
            let cin: Vec<u32> = cins.iter().map(|p| w.pred(p)).collect();
            let sum = |lane: usize| -> u128 {
                let mut s: u128 = (0..n)
                    .map(|i| {
                        let x0 = v[i][lane];
                        // `-x` is `~x + 1` (its carry counts), `~x` under `.X`, as `IADD3`.
                        if a[i + 1].neg || a[i + 1].not { u128::from(!x0) + u128::from(!*x) } else { u128::from(x0) }
                    })
                    .sum();
                if *x {
                    s += cin.iter().map(|c| u128::from(bit(*c, lane))).sum::<u128>();
                }
                s
            };
            let d = map64(g, |lane| sum(lane) as u64);
            let mut co = [0u32; 2];
            for lane in lanes(g) {
                let c = sum(lane) >> 64;
                for (k, m) in co.iter_mut().enumerate() {
                    *m |= u32::from(c > k as u128) << lane;
                }
            }
            lift(w.write64(&a[0], &d, g))?;
            for (p, m) in couts.iter().zip(co) {
                w.set_pred(p, m, g);
            }
        }
        Kind::Sel => {
            let mut va = lift(w.reg32(&a[1]))?;
            let mut vb = lift(w.reg32(&a[2]))?;
            // FSEL's operands take `-`/`|x|` (libdevice's erff: `FSEL R20, -|R11|, R11, P0`).
            // Only register operands: an immediate's printed value already carries its sign.
            if inst.base == "FSEL" {
                for (x, v) in [(&a[1], &mut va), (&a[2], &mut vb)] {
                    if matches!(x.o, Opnd::R(_)) {
                        fmod32(x, v);
                    }
                }
            }
            let p = w.pred(&pr[0]);
            let d = map1(g, |lane| if p >> lane & 1 == 1 { va[lane] } else { vb[lane] });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Mov => {
            let va = lift(w.reg32(&a[1]))?;
            lift(w.write32(&a[0], &va, g))?;
        }
        Kind::Viadd { lanes: 1, sat: false } => {
            let va = lift(w.reg32(&a[1]))?;
            let mut vb = lift(w.reg32(&a[2]))?;
            imod(&a[2], &mut vb);
            let d = map1(g, |lane| va[lane].wrapping_add(vb[lane]));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Viadd { lanes: 1, sat: true } => {
            let (va, vb) = (lift(w.reg32(&a[1]))?, lift(w.reg32(&a[2]))?);
            let (na, nb) = (a[1].neg, a[2].neg);
            let d = map1(g, |lane| alu::viadd_sat_s32(va[lane], vb[lane], na, nb));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Viadd { lanes, .. } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let (na, nb) = (a[1].neg || a[1].not, a[2].neg || a[2].not);
            let d = map1(g, |lane| alu::viadd_simd(va[lane], vb[lane], na, nb, *lanes));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Iabs | Kind::Popc | Kind::Brev | Kind::Flo { .. } => {
            let mut va = lift(w.reg32(&a[1]))?;
            if a[1].not || a[1].neg {
                va.iter_mut().for_each(|v| *v = !*v);
            }
            let d = map1(g, |lane| match inst.kind {
                Kind::Iabs => (va[lane] as i32).unsigned_abs(),
                Kind::Popc => va[lane].count_ones(),
                Kind::Brev => va[lane].reverse_bits(),
                Kind::Flo { signed, sh } => alu::flo(va[lane], signed, sh),
                _ => 0,
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Prmt { mode } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            let d = map1(g, |lane| match mode {
                None => alu::prmt(va[lane], vb[lane], vc[lane]),
                Some(m) => alu::prmt_mode(va[lane], vb[lane], vc[lane], *m),
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::F2fp { bf16, rnd, relu, merge, sat } => {
            let mut va = lift(w.reg32(&a[1]))?;
            let mut vb = lift(w.reg32(&a[2]))?;
            fmod32(&a[1], &mut va);
            fmod32(&a[2], &mut vb);
            let inf = if *bf16 { 0x7f80 } else { 0x7c00 };
            let half = |x: u32| {
                let h = u32::from(alu::f2fp_half(x, *bf16, *rnd, *relu));
                if *sat && h & 0x7fff == inf { h - 1 } else { h }
            };
            let d = map1(g, |lane| if *merge { half(va[lane]) } else { half(va[lane]) << 16 | half(vb[lane]) });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::F2fp8 { e4m3, mode, relu } => {
            let f = super::fp8::Fp8 { e4m3: *e4m3 };
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let n = |x: f64| u32::from(f.narrow(x, *relu));
            let d = map1(g, |lane| {
                let (x, y) = (va[lane], vb[lane]);
                match mode {
                    F2fp8Mode::Pack => n(super::fp8::f32v(x)) << 8 | n(super::fp8::f32v(y)),
                    F2fp8Mode::Narrow => n(super::fp8::f16v(y >> 16)) << 8 | n(super::fp8::f16v(y)),
                    F2fp8Mode::Widen => {
                        u32::from(f.widen((y >> 8) as u8, *relu)) << 16 | u32::from(f.widen(y as u8, *relu))
                    }
                }
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::F2ip { signed } => {
            let vb = lift(w.reg32(&a[2]))?;
            let d = map1(g, |lane| alu::f2ip(vb[lane], *signed));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Vabsdiff { signed } | Kind::Vabsdiff4 { signed, .. } | Kind::Vimnmx3 { signed } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            let p = pr.first().map_or(0, |p| w.pred(p));
            let d = map1(g, |lane| {
                let (x, y, z) = (va[lane], vb[lane], vc[lane]);
                match inst.kind {
                    Kind::Vabsdiff { .. } => alu::vabsdiff(x, y, z, *signed),
                    Kind::Vabsdiff4 { acc, .. } => alu::vabsdiff4(x, y, z, *signed, acc),
                    _ => alu::vimnmx3(x, y, z, *signed, p >> lane & 1 == 1),
                }
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Idp { two, hi, sa, sb } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            let d = map1(g, |lane| alu::idp(va[lane], vb[lane], vc[lane], *two, *hi, *sa, *sb));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Imnmx { signed, wide: true, .. } => {
            let (va, vb) = (lift(w.reg64(&a[1]))?, lift(w.reg64(&a[2]))?);
            let p = w.pred(&pr[0]);
            let d = map64(g, |lane| {
                let (x, y) = (va[lane], vb[lane]);
                let lt = if *signed { (x as i64) < (y as i64) } else { x < y };
                if lt == (p >> lane & 1 == 1) { x } else { y }
            });
            lift(w.write64(&a[0], &d, g))?;
        }
        Kind::Imnmx { signed, lanes, relu, .. } if *relu || matches!(lanes, 2 | 4) => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let p = w.pred(&pr[0]);
            let d = map1(g, |lane| {
                let r = alu::imnmx_simd(va[lane], vb[lane], *signed, p >> lane & 1 == 1, *lanes);
                if *relu { alu::relu_lanes(r, *lanes) } else { r }
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Imnmx { signed, .. } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let p = w.pred(&pr[0]);
            let d = map1(g, |lane| {
                let min = p >> lane & 1 == 1;
                let (x, y) = (va[lane], vb[lane]);
                let lt = if *signed { (x as i32) < (y as i32) } else { x < y };
                if lt == min { x } else { y }
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Viaddmnmx { signed } => {
            let mut va = lift(w.reg32(&a[1]))?;
            let mut vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            imod(&a[1], &mut va);
            imod(&a[2], &mut vb);
            let p = w.pred(&pr[0]);
            let d = map1(g, |lane| alu::viaddmnmx(va[lane], vb[lane], vc[lane], *signed, p >> lane & 1 == 1));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::I2ip { bits, signed } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            // The field's range as i32, then the two saturated fields and c above them.
            let (lo, hi) =
                if *signed { (-(1i32 << (bits - 1)), (1i32 << (bits - 1)) - 1) } else { (0, (1i32 << bits) - 1) };
            let field = (1u32 << bits) - 1;
            let d = map1(g, |lane| {
                let sat = |x: u32| (x as i32).max(lo).min(hi) as u32 & field;
                let low = sat(vb[lane]) | sat(va[lane]) << bits;
                if *bits == 16 { low } else { low | vc[lane] << (2 * bits) }
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Sgxt { unsigned, wrap } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let d = map1(g, |lane| {
                let n = if *wrap { vb[lane] & 31 } else { vb[lane].min(32) };
                if n == 0 {
                    0
                } else if n == 32 {
                    va[lane]
                } else if *unsigned {
                    va[lane] & ((1 << n) - 1)
                } else {
                    (((va[lane] << (32 - n)) as i32) >> (32 - n)) as u32
                }
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Bmsk { wrap } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let d = map1(g, |lane| {
                let (p, n) = if *wrap { (va[lane] & 31, vb[lane] & 31) } else { (va[lane].min(32), vb[lane].min(32)) };
                let m = if n >= 32 { u64::MAX } else { (1u64 << n) - 1 };
                ((m << p) & 0xffff_ffff) as u32
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::P2r => {
            let n = a.len();
            let va = lift(w.reg32(&a[n - 2]))?;
            let mask = lift(w.reg32(&a[n - 1]))?[0];
            let d = map1(g, |lane| {
                let mut packed = 0u32;
                for i in 0..7 {
                    packed |= (w.p[i] >> lane & 1) << i;
                }
                (va[lane] & !mask) | (packed & mask)
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::R2p => {
            let n = a.len();
            let va = lift(w.reg32(&a[n - 2]))?;
            let mask = lift(w.reg32(&a[n - 1]))?[0];
            for i in 0..7 {
                if mask >> i & 1 == 1 {
                    let v = pmask(g, |lane| va[lane] >> i & 1 == 1);
                    w.p[i] = (w.p[i] & !g) | v;
                }
            }
        }
        Kind::Fp32 { op, rnd, ftz, sat } => {
            let mut va = lift(w.reg32(&a[1]))?;
            let mut vb = lift(w.reg32(&a[2]))?;
            fmod32(&a[1], &mut va);
            fmod32(&a[2], &mut vb);
            let d = match op {
                0 => map1(g, |lane| alu::fadd(va[lane], vb[lane], *rnd, *ftz, *sat)),
                1 => map1(g, |lane| alu::fmul(va[lane], vb[lane], *rnd, *ftz, *sat)),
                _ => {
                    let mut vc = lift(w.reg32(&a[3]))?;
                    fmod32(&a[3], &mut vc);
                    map1(g, |lane| alu::ffma(va[lane], vb[lane], vc[lane], *rnd, *ftz, *sat))
                }
            };
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Fp64 { op, rnd } => {
            let mut va = lift(w.reg64(&a[1]))?;
            let mut vb = lift(w.reg64(&a[2]))?;
            fmod64(&a[1], &mut va);
            fmod64(&a[2], &mut vb);
            let d = match op {
                0 => map64(g, |lane| alu::dadd(va[lane], vb[lane], *rnd)),
                1 => map64(g, |lane| alu::dmul(va[lane], vb[lane], *rnd)),
                _ => {
                    let mut vc = lift(w.reg64(&a[3]))?;
                    fmod64(&a[3], &mut vc);
                    map64(g, |lane| alu::dfma(va[lane], vb[lane], vc[lane], *rnd))
                }
            };
            lift(w.write64(&a[0], &d, g))?;
        }
        Kind::Fmnmx { ftz, nan, xorsign } => {
            let mut va = lift(w.reg32(&a[1]))?;
            let mut vb = lift(w.reg32(&a[2]))?;
            // The signs `.XORSIGN` combines: the operands before `|x|` (negation applied).
            let neg = |a: &Arg| if a.neg { 0x8000_0000u32 } else { 0 };
            let (sa, sb) = (va.map(|x| x ^ neg(&a[1])), vb.map(|x| x ^ neg(&a[2])));
            fmod32(&a[1], &mut va);
            fmod32(&a[2], &mut vb);
            let p = w.pred(&pr[0]);
            let f = if *nan { alu::fmnmx_nan } else { alu::fmnmx };
            let d = map1(g, |lane| {
                let r = f(va[lane], vb[lane], p >> lane & 1 == 1, *ftz);
                if *xorsign { alu::xorsign32(r, sa[lane], sb[lane]) } else { r }
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Fset { cmp, ftz, bop, bf } => {
            let mut va = lift(w.reg32(&a[1]))?;
            let mut vb = lift(w.reg32(&a[2]))?;
            fmod32(&a[1], &mut va);
            fmod32(&a[2], &mut vb);
            let pp = w.pred(&pr[0]);
            let d = map1(g, |lane| alu::fset(va[lane], vb[lane], pp >> lane & 1 == 1, *cmp, *bop, *ftz, *bf));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Mufu(f) => {
            let mut va = lift(w.reg32(&a[1]))?;
            fmod32(&a[1], &mut va);
            let d = map1(g, |lane| alu::mufu(*f, va[lane]));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::F2i { dst, src64, rnd, ftz, ntz } => {
            let src = if *src64 {
                let mut v = lift(w.reg64(&a[1]))?;
                fmod64(&a[1], &mut v);
                v
            } else {
                let mut v = lift(w.reg32(&a[1]))?;
                fmod32(&a[1], &mut v);
                map64(u32::MAX, |lane| u64::from(v[lane]))
            };
            let d = map64(g, |lane| alu::f2i(src[lane], *src64, *dst, *rnd, *ftz, *ntz));
            if dst.bits() == 64 {
                lift(w.write64(&a[0], &d, g))?;
            } else {
                lift(w.write32(&a[0], &map1(g, |lane| d[lane] as u32), g))?;
            }
        }
        Kind::F2iF16 { dst, rnd } => {
            let v = lift(w.reg32(&a[1]))?;
            let d = map64(g, |lane| super::convert::f2i_f16(v[lane], *dst, *rnd));
            if dst.bits() == 64 {
                lift(w.write64(&a[0], &d, g))?;
            } else {
                lift(w.write32(&a[0], &map1(g, |lane| d[lane] as u32), g))?;
            }
        }
        Kind::I2fF16 { src, rnd, bf16 } => {
            let v = if src.bits() == 64 {
                lift(w.reg64(&a[1]))?
            } else {
                let v = lift(w.reg32(&a[1]))?;
                // `.H1`: a 16-bit source in the register's high half.
                let sh = if a[1].sel == 1 { 16 } else { 0 };
                map64(u32::MAX, |lane| u64::from(v[lane] >> sh))
            };
            let d = map1(g, |lane| u32::from(super::convert::i2f_half(v[lane], *src, *rnd, *bf16)));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::I2i { dst, src, sat } => {
            let v = lift(w.reg32(&a[1]))?;
            let d = map1(g, |lane| super::convert::i2i(u64::from(v[lane]), *src, *dst, *sat) as u32);
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::I2f { src, dst64, rnd } => {
            let v = if src.bits() == 64 {
                lift(w.reg64(&a[1]))?
            } else {
                let v = lift(w.reg32(&a[1]))?;
                map64(u32::MAX, |lane| u64::from(v[lane]))
            };
            let d = map64(g, |lane| alu::i2f(v[lane], *src, *dst64, *rnd));
            if *dst64 {
                lift(w.write64(&a[0], &d, g))?;
            } else {
                lift(w.write32(&a[0], &map1(g, |lane| d[lane] as u32), g))?;
            }
        }
        Kind::F2f { to64, to16, bf16, from64, from16, rnd, ftz } => {
            if *to64 && *from16 {
                // `F2F.F64.F16`: exact; a NaN gives the canonical NaN (as `F2F.F32.F16`).
                let v = lift(w.reg32(&a[1]))?;
                let d = map64(g, |lane| alu::f2f_f16_f64(v[lane] as u16));
                lift(w.write64(&a[0], &d, g))?;
            } else if *to64 {
                let mut v = lift(w.reg32(&a[1]))?;
                fmod32(&a[1], &mut v);
                let d = map64(g, |lane| alu::f2f_f32_f64(v[lane], *ftz));
                lift(w.write64(&a[0], &d, g))?;
            } else if *to16 && *from64 {
                let mut v = lift(w.reg64(&a[1]))?;
                fmod64(&a[1], &mut v);
                let d = map1(g, |lane| u32::from(alu::f2f_half_from64(v[lane], *bf16, *rnd)));
                lift(w.write32(&a[0], &d, g))?;
            } else if *to16 {
                let mut v = lift(w.reg32(&a[1]))?;
                fmod32(&a[1], &mut v);
                let d = map1(g, |lane| {
                    let x = f32::from_bits(if *ftz { alu::ftz32(v[lane]) } else { v[lane] });
                    u32::from(alu::f2f_half(f64::from(x), *bf16, *rnd))
                });
                lift(w.write32(&a[0], &d, g))?;
            } else if *from16 {
                let v = lift(w.reg32(&a[1]))?;
                let d = map1(g, |lane| {
                    let x = alu::f16_to_f32(v[lane] as u16);
                    if x.is_nan() { alu::NAN32 } else { x.to_bits() }
                });
                lift(w.write32(&a[0], &d, g))?;
            } else {
                let mut v = lift(w.reg64(&a[1]))?;
                fmod64(&a[1], &mut v);
                let d = map1(g, |lane| alu::f2f_f64_f32(v[lane], *rnd, *ftz));
                lift(w.write32(&a[0], &d, g))?;
            }
        }
        Kind::Frnd { rnd, f64: true, .. } => {
            let mut v = lift(w.reg64(&a[1]))?;
            fmod64(&a[1], &mut v);
            let d = map64(g, |lane| alu::frnd64(v[lane], *rnd));
            lift(w.write64(&a[0], &d, g))?;
        }
        Kind::Frnd { rnd, f16: true, .. } => {
            let v = lift(w.reg32(&a[1]))?;
            let sh = if a[1].sel == 1 { 16 } else { 0 };
            let d = map1(g, |lane| u32::from(alu::frnd16((v[lane] >> sh) as u16, *rnd)));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Frnd { rnd, ftz, .. } => {
            let mut v = lift(w.reg32(&a[1]))?;
            fmod32(&a[1], &mut v);
            let d = map1(g, |lane| alu::frnd32(v[lane], *rnd, *ftz));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Hadd2F32 { sat } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let (va, vb) = (hmod(&a[1], &va), hmod(&a[2], &vb));
            let f = if *sat { alu::hadd2_f32_sat } else { alu::hadd2_f32 };
            let d = map1(g, |lane| f(va[lane] as u16, vb[lane] as u16));
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::H2 { op, m } => {
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let (va, vb) = (hmod(&a[1], &va), hmod(&a[2], &vb));
            let d = match op {
                0 => map1(g, |lane| alu::half2(0, va[lane], vb[lane], 0, *m)),
                1 => map1(g, |lane| alu::half2(1, va[lane], vb[lane], 0, *m)),
                2 => {
                    let vc = lift(w.reg32(&a[3]))?;
                    let vc = hmod(&a[3], &vc);
                    map1(g, |lane| alu::half2(2, va[lane], vb[lane], vc[lane], *m))
                }
                _ => {
                    let p = w.pred(&pr[0]);
                    // `.XORSIGN`: the signs of the operands before `|x|` (selectors and
                    // negation applied).
                    let raw = |i: usize| -> Result<[u32; 32], StepErr> {
                        let v = lift(w.reg32(&a[i]))?;
                        Ok(hmod(&Arg { abs: false, ..a[i] }, &v))
                    };
                    let (sa, sb) = if m.xorsign { (raw(1)?, raw(2)?) } else { ([0; 32], [0; 32]) };
                    map1(g, |lane| {
                        let r = alu::hmnmx2(va[lane], vb[lane], p >> lane & 1 == 1, *m);
                        if m.xorsign { alu::xorsign_half2(r, sa[lane], sb[lane], m.bf16) } else { r }
                    })
                }
            };
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Hsetp2 { cmp, bop, m } => {
            let (lo, hi) = half_compare(w, (&a[0], &a[1]), &pr[2], (*cmp, *bop, *m), g)?;
            w.set_pred(&pr[0], lo, g);
            w.set_pred(&pr[1], hi, g);
        }
        Kind::Fchk => {
            let va = lift(w.reg32(&a[0]))?;
            let vb = lift(w.reg32(&a[1]))?;
            let p = pmask(g, |lane| alu::fchk(va[lane], vb[lane]));
            w.set_pred(&pr[0], p, g);
        }
        Kind::S2r => {
            let Opnd::Sr(id) = a[1].o else { return Err((None, EmuErrorKind::Unsupported("S2R source".into()))) };
            let name = sr_name(l, id);
            let name = if matches!(inst.base, "CS2R" | "CS2UR") && id == 255 { "SRZ" } else { name };
            let mut d = [0u32; 32];
            for lane in lanes(g) {
                d[lane] = sreg(l, st, cta, w, name, lane)
                    .ok_or_else(|| (Some(lane), EmuErrorKind::Unsupported(format!("special register {name}"))))?;
            }
            lift(w.write32(&a[0], &d, g))?;
            if a[0].n == 2 {
                // CS2R of a 64-bit special register: the high word (only SRZ is modelled: 0).
                let hi = [0u32; 32];
                lift(w.write_n(&a[0], 1, &hi, g))?;
            }
        }
        Kind::R2ur => {
            if g != 0 {
                let lane = g.trailing_zeros() as usize;
                for k in 0..a[0].n {
                    let src = match a[1].o {
                        Opnd::R(r) if r != 255 => w.r[(r as usize + k as usize).min(254)][lane],
                        _ => 0,
                    };
                    lift(w.write_n(&a[0], k, &splat(src), g))?;
                }
                // The predicate output: per lane, whether its source DIFFERS from the value taken
                // (the first active lane's), i.e. whether the lane still waits for its own value.
                // ptxas's waterfall loops rely on it (nvcc -G code of a one-lane
                // `mbarrier.init`: `@P1 R2UR P0, UR6, R3`, `@P1 PLOP3.LUT P1, PT, P0, PT, PT, 0x80`,
                // `@P1 BRA.U.ANY` back: with "equal" the single lane would loop forever), and a
                // per-tile collective tests it (`R2UR P3, URZ, R8` / `@!P3 BRA.DIV` in
                // cg_tiled_reduce, whose H100 results need a per-lane predicate: one predicate for
                // all lanes would send both 16-lane tiles of a converged warp down the fast
                // `VOTE.ANY` path with 32-lane ballots). The notes are silent.
                if let Some(p) = pr.first() {
                    let v = lift(w.reg64(&Arg { n: a[1].n, ..a[1] }))?;
                    let v = if a[1].n == 2 { v } else { map64(u32::MAX, |l| v[l] & 0xffff_ffff) };
                    let differs = pmask(g, |l| v[l] != v[lane]);
                    w.set_pred(p, differs, g);
                }
            }
        }
        Kind::Ldc { size, signed } => {
            let mut out = [[0u32; 32]; 4];
            for lane in lanes(g) {
                let v: u128 = match a[1].o {
                    Opnd::Imm(v) => u128::from(v),
                    Opnd::CIdx { bank, off, reg, uniform } => {
                        let index = match (uniform, reg) {
                            (_, 255) => 0,
                            (true, r) => w.ur.get(usize::from(r)).copied().unwrap_or(0),
                            (false, r) => w.r[usize::from(r)][lane],
                        };
                        // The offset is signed (`LDC.64 R2, c[0x3][R2+-0x8]`, held as its 32
                        // bits): the bank address is the 32-bit sum.
                        let addr = u64::from(index.wrapping_add(off));
                        let bytes = l.banks.get(&bank).map_or(&[][..], |b| &b[..]);
                        let f = Fault {
                            kind: FaultKind::OutOfBounds,
                            space: MemSpace::Const(bank),
                            addr,
                            size: *size,
                            write: false,
                        };
                        if !addr.is_multiple_of(u64::from(*size)) {
                            return Err((Some(lane), EmuErrorKind::Fault(Fault { kind: FaultKind::Misaligned, ..f })));
                        }
                        if addr + u64::from(*size) > bytes.len() as u64 {
                            return Err((Some(lane), EmuErrorKind::Fault(f)));
                        }
                        let mut v = 0u128;
                        for i in 0..*size as usize {
                            v |= u128::from(bytes[addr as usize + i]) << (8 * i);
                        }
                        v
                    }
                    _ => return Err((None, EmuErrorKind::Unsupported("LDC operand".into()))),
                };
                let v = if *size < 8 { u128::from(extend(v as u64, *size, *signed)) } else { v };
                for (k, o) in out.iter_mut().enumerate() {
                    o[lane] = (v >> (32 * k)) as u32;
                }
            }
            for k in 0..a[0].n {
                lift(w.write_n(&a[0], k, &out[usize::from(k)], g))?;
            }
        }
        Kind::Ld { space, size, signed } => {
            let mut out = [[0u32; 32]; 4];
            let addrs = lane_addrs(w, &a[1]);
            let mut vals = [0u128; 32];
            if !load_lanes(st, cta, *space, &addrs, g, *size, &mut vals) {
                for lane in lanes(g) {
                    vals[lane] = mem_load(l, st, cta, w, *space, addrs[lane], *size, lane)
                        .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
                }
            }
            for lane in lanes(g) {
                let v = vals[lane];
                let v = if *size < 4 { u128::from(extend(v as u64, *size, *signed) as u32) } else { v };
                for (k, o) in out.iter_mut().enumerate() {
                    o[lane] = (v >> (32 * k)) as u32;
                }
            }
            for k in 0..a[0].n {
                lift(w.write_n(&a[0], k, &out[k as usize], g))?;
            }
        }
        Kind::St { space, size } => {
            let nregs = size.div_ceil(4) as usize;
            let mut vals = [0u128; 32];
            if let Opnd::R(r) = a[1].o {
                if r != 255 {
                    let rows: [&[u32; 32]; 4] = std::array::from_fn(|k| &w.r[(r as usize + k).min(255)]);
                    for_lanes(g, |lane| {
                        let mut v = 0u128;
                        for (k, row) in rows.iter().enumerate().take(nregs) {
                            v |= u128::from(row[lane]) << (32 * k);
                        }
                        vals[lane] = v;
                    });
                }
            } else if g != 0 {
                vals = lift(w.reg32(&a[1]))?.map(u128::from);
            }
            let addrs = lane_addrs(w, &a[0]);
            if !store_lanes(st, cta, *space, &addrs, g, *size, &vals) {
                for lane in lanes(g) {
                    mem_store(l, st, cta, w, *space, addrs[lane], *size, vals[lane], lane)
                        .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
                }
            }
            if matches!(space, Space::Shared | Space::Generic) {
                for lane in lanes(g) {
                    if let (Space::Shared, at) = resolve(*space, addrs[lane])
                        && let Ok(off) = cta.shared_offset(at, *size, true)
                    {
                        cta.generic_store(off, *size, w.id);
                    }
                }
            }
        }
        Kind::Atom { space, op, ty, ret } => {
            let wide = matches!(ty, AtomTy::U64 | AtomTy::S64 | AtomTy::F64);
            let size = if wide { 8 } else { 4 };
            let vb = lift(w.reg64(&a[2]))?;
            let vb = if wide { vb } else { map64(u32::MAX, |lane| vb[lane] & 0xffff_ffff) };
            let b32 = if wide { [0; 32] } else { lift(w.reg32(&a[2]))? };
            let vc = if matches!(op, AtomOp::Cas | AtomOp::CasSpin) {
                Some(if wide {
                    lift(w.reg64(&a[3]))?
                } else {
                    map64(u32::MAX, |lane| u64::from(lift(w.reg32(&a[3])).map(|v| v[lane]).unwrap_or(0)))
                })
            } else {
                None
            };
            let mut old = [0u64; 32];
            for lane in lanes(g) {
                let addr = address(w, &a[1], lane);
                let cur = mem_load(l, st, cta, w, *space, addr, size, lane)
                    .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))? as u64;
                let b = if wide { vb[lane] } else { u64::from(b32[lane]) };
                let new = atom_apply(*op, *ty, cur, b, vc.as_ref().map(|c| c[lane]));
                mem_store(l, st, cta, w, *space, addr, size, u128::from(new), lane)
                    .map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
                old[lane] = cur;
            }
            if *op == AtomOp::CasSpin {
                // The success flag (1 when the compared value matched), as wide as the operation
                // (atom_shared: `ATOMS.CAST.SPIN.64 R6, ...` then `R6 == 1 && R7 == 0`).
                let ok = map64(g, |lane| u64::from(old[lane] == vb[lane]));
                if let Some(p) = pr.first() {
                    let mask = lanes(g).filter(|&lane| ok[lane] == 1).fold(0u32, |m, lane| m | 1 << lane);
                    w.set_pred(p, mask, g);
                } else if wide {
                    lift(w.write64(&a[0], &ok, g))?;
                } else {
                    lift(w.write32(&a[0], &map1(g, |lane| ok[lane] as u32), g))?;
                }
            } else {
                if *ret {
                    if wide {
                        lift(w.write64(&a[0], &old, g))?;
                    } else {
                        lift(w.write32(&a[0], &map1(g, |lane| old[lane] as u32), g))?;
                    }
                }
                // A generic ATOM's "performed" predicate (see `program`): always, here.
                if let Some(p) = pr.first() {
                    w.set_pred(p, u32::MAX, g);
                }
            }
        }
        Kind::Shfl(mode) => {
            if !one_strand(w, g) {
                return Err((None, EmuErrorKind::DivergentBarrier(divergent_collective("SHFL"))));
            }
            let va = lift(w.reg32(&a[1]))?;
            let vb = lift(w.reg32(&a[2]))?;
            let vc = lift(w.reg32(&a[3]))?;
            let mut inr = 0u32;
            let d = map1(g, |lane| {
                let (b, c) = (vb[lane] & 31, vc[lane]);
                let clamp = c & 0x1f;
                let seg = (c >> 8) & 0x1f;
                let min_lane = (lane as u32) & seg;
                let max_lane = min_lane | (clamp & !seg);
                let (j, ok) = match mode {
                    ShflMode::Idx => {
                        let j = min_lane | (b & !seg);
                        (j, j <= max_lane)
                    }
                    ShflMode::Up => {
                        let j = lane as i32 - b as i32;
                        (j.max(0) as u32, j >= max_lane as i32)
                    }
                    ShflMode::Down => {
                        let j = lane as u32 + b;
                        (j, j <= max_lane)
                    }
                    ShflMode::Bfly => {
                        let j = lane as u32 ^ b;
                        (j, j <= max_lane)
                    }
                };
                let j = if ok { j as usize & 31 } else { lane };
                va[j]
            });
            for lane in lanes(g) {
                let (b, c) = (vb[lane] & 31, vc[lane]);
                let clamp = c & 0x1f;
                let seg = (c >> 8) & 0x1f;
                let min_lane = (lane as u32) & seg;
                let max_lane = min_lane | (clamp & !seg);
                let ok = match mode {
                    ShflMode::Idx => (min_lane | (b & !seg)) <= max_lane,
                    ShflMode::Up => lane as i32 - b as i32 >= max_lane as i32,
                    ShflMode::Down => lane as u32 + b <= max_lane,
                    ShflMode::Bfly => (lane as u32 ^ b) <= max_lane,
                };
                inr |= u32::from(ok) << lane;
            }
            lift(w.write32(&a[0], &d, g))?;
            if let Some(p) = pr.first() {
                w.set_pred(p, inr, g);
            }
        }
        Kind::Vote(m) => {
            if !one_strand(w, g) {
                return Err((None, EmuErrorKind::DivergentBarrier(divergent_collective("VOTE"))));
            }
            let pin = w.pred(&pr[1]) & g;
            let r = match m {
                0 => pin == g,
                1 => pin != 0,
                _ => pin == g || pin == 0,
            };
            w.set_pred(&pr[0], if r { u32::MAX } else { 0 }, g);
            if let Some(d) = a.first() {
                lift(w.write32(d, &splat(pin), g))?;
            }
        }
        Kind::Match { all } => {
            if !one_strand(w, g) {
                return Err((None, EmuErrorKind::DivergentBarrier(divergent_collective("MATCH"))));
            }
            let v = lift(w.reg64(&a[1]))?;
            let v = if a[1].n == 2 { v } else { map64(u32::MAX, |lane| v[lane] & 0xffff_ffff) };
            let d = map1(g, |lane| pmask(g, |k| v[k] == v[lane]));
            if *all {
                let eq = lanes(g).all(|k| d[k] == g);
                let out = splat(if eq { g } else { 0 });
                lift(w.write32(&a[0], &out, g))?;
                if let Some(p) = pr.first() {
                    w.set_pred(p, if eq { u32::MAX } else { 0 }, g);
                }
            } else {
                lift(w.write32(&a[0], &d, g))?;
            }
        }
        Kind::Redux { op, signed } => {
            if !one_strand(w, g) {
                return Err((None, EmuErrorKind::DivergentBarrier(divergent_collective("REDUX"))));
            }
            let v = lift(w.reg32(&a[1]))?;
            let mut acc: Option<u32> = None;
            for lane in lanes(g) {
                let x = v[lane];
                acc = Some(match acc {
                    None => x,
                    Some(y) => match op {
                        0 => y.wrapping_add(x),
                        1 => {
                            if *signed {
                                (y as i32).min(x as i32) as u32
                            } else {
                                y.min(x)
                            }
                        }
                        2 => {
                            if *signed {
                                (y as i32).max(x as i32) as u32
                            } else {
                                y.max(x)
                            }
                        }
                        3 => y & x,
                        4 => y | x,
                        _ => y ^ x,
                    },
                });
            }
            if let Some(r) = acc {
                lift(w.write32(&a[0], &splat(r), g))?;
            }
        }
        Kind::Bra { div, any } => {
            let Opnd::Target(t) = a[0].o else { return Err((None, EmuErrorKind::Unsupported("BRA target".into()))) };
            let g = pr.iter().fold(g, |g, p| g & w.pred(p));
            // `BRA.DIV`: the guarded lanes branch when the warp is not whole or the guard splits
            // the running lanes (cg_tiled_reduce's `@!P3 BRA.DIV` after a per-lane `R2UR P3`).
            let taken = if *div {
                if act != w.live() || g != act { g } else { 0 }
            } else if *any {
                if g != 0 { act } else { 0 }
            } else {
                g
            };
            branch(w, taken, t, next);
            return Ok(());
        }
        Kind::Call => {
            let Opnd::Target(t) = a[0].o else { return Err((None, EmuErrorKind::Unsupported("CALL target".into()))) };
            branch(w, g, t, next);
            return Ok(());
        }
        // `CALL.ABS.NOINC Ra`: a system function's address is its service; any other is a
        // code address (a function pointer, `super::image`), jumped to like `CALL.REL Ra`.
        Kind::CallAbs
            if lanes(g).any(|lane| {
                w.reg64(&a[0]).is_ok_and(|v| crate::sysfn::SysFn::at_address(v[lane]).is_none())
                    && matches!(a[0].o, Opnd::R(_))
            }) =>
        {
            let v = lift(w.reg64(&a[0]))?;
            for lane in lanes(act) {
                w.lane_pc[lane] =
                    if g >> lane & 1 == 1 { (v[lane] / 16).min(u64::from(u32::MAX)) as u32 } else { next };
            }
            w.pc = next;
            w.act = 0;
            for lane in lanes(act) {
                if w.lane_pc[lane] as usize >= l.program.insts.len() {
                    let t = u64::from(w.lane_pc[lane]) * 16;
                    return Err((Some(lane), EmuErrorKind::Invalid(format!("call target {t:#x} outside the code"))));
                }
            }
            regroup_keep(w);
            return Ok(());
        }
        Kind::CallAbs => sysfn::call_abs(l, st, cta, w, &a[0], g)?,
        Kind::Trap if g != 0 => return Err((Some(g.trailing_zeros() as usize), EmuErrorKind::Trap)),
        Kind::Trap => {}
        Kind::Lepc => {
            // The byte offset of the target in the code (the emulator's code addresses).
            let Opnd::Target(t) = a[1].o else { return Err((None, EmuErrorKind::Unsupported("LEPC target".into()))) };
            let v = u64::from(t) * 16;
            w.write32(&a[0], &splat(v as u32), g).map_err(|e| (None, e))?;
            let hi = Arg {
                o: match a[0].o {
                    Opnd::R(r) if r < 254 => Opnd::R(r + 1),
                    o => o,
                },
                ..a[0]
            };
            w.write32(&hi, &splat((v >> 32) as u32), g).map_err(|e| (None, e))?;
        }
        Kind::Ret | Kind::CallReg | Kind::Brx => {
            let v = lift(w.reg32(&a[0]))?;
            let off = match (&inst.kind, a.get(1).map(|x| x.o)) {
                (Kind::Brx, Some(Opnd::Imm(o))) => i64::from(o as u32 as i32) + i64::from(next) * 16,
                (Kind::Brx, _) => i64::from(next) * 16,
                _ => 0,
            };
            for lane in lanes(act) {
                w.lane_pc[lane] = if g >> lane & 1 == 1 { ((i64::from(v[lane]) + off) / 16) as u32 } else { next };
            }
            w.pc = next;
            w.act = 0;
            for lane in lanes(act) {
                if w.lane_pc[lane] as usize >= l.program.insts.len() {
                    return Err((
                        Some(lane),
                        EmuErrorKind::Invalid(format!(
                            "return/indirect target {:#x} outside the code",
                            u64::from(w.lane_pc[lane]) * 16
                        )),
                    ));
                }
            }
            // lane_pc already set: regroup without overwriting them.
            regroup_keep(w);
            return Ok(());
        }
        Kind::Exit => {
            let g = g & pr.first().map_or(u32::MAX, |p| w.pred(p));
            w.waiting = true;
            for lane in lanes(g) {
                w.state[lane] = Lane::Exit;
            }
            w.live_mask &= !g;
            if g != 0 {
                w.pc = next;
                // The remaining lanes keep going at `next`; regroup saves their pc.
                w.act = act & !g;
                w.regroup();
                return Ok(());
            }
        }
        Kind::Movm => {
            if g != u32::MAX {
                return Err((None, EmuErrorKind::Unsupported(format!("MOVM by lanes {g:#010x}, not the whole warp"))));
            }
            let v = lift(w.reg32(&a[1]))?;
            // The matrix: element (r, c) is half c % 2 of lane 4r + c / 2.
            let mut m = [[0u32; 8]; 8];
            for (r, row) in m.iter_mut().enumerate() {
                for (c, e) in row.iter_mut().enumerate() {
                    *e = v[4 * r + c / 2] >> (16 * (c % 2)) & 0xffff;
                }
            }
            let d: [u32; 32] = std::array::from_fn(|lane| {
                let (r, c) = (lane / 4, 2 * (lane % 4));
                m[c][r] | m[c + 1][r] << 16
            });
            lift(w.write32(&a[0], &d, g))?;
        }
        Kind::Ldsm { n, trans } => {
            if g != u32::MAX {
                return Err((None, EmuErrorKind::Unsupported(format!("LDSM by lanes {g:#010x}, not the whole warp"))));
            }
            let addr: [u64; 32] = std::array::from_fn(|lane| address(w, &a[1], lane));
            let half = |lane: usize, addr: u64| -> Result<u32, StepErr> {
                let off = cta.shared_offset(addr, 2, false).map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))?;
                cta.shared.load(off, 2).map(|v| v as u32).map_err(|f| (Some(lane), EmuErrorKind::Fault(f)))
            };
            for m in 0..usize::from(*n) {
                let mut d = [0u32; 32];
                for (lane, dl) in d.iter_mut().enumerate() {
                    let mut v = 0;
                    for h in 0..2 {
                        let (row, off) = ptxas_rs::ori::tensor::ldmatrix_source(m, lane, h, *trans);
                        v |= half(lane, addr[row] + off)? << (16 * h);
                    }
                    *dl = v;
                }
                lift(w.write_n(&a[0], m as u8, &d, g))?;
            }
        }
        Kind::Stsm { n, trans } => {
            if g != u32::MAX {
                return Err((None, EmuErrorKind::Unsupported(format!("STSM by lanes {g:#010x}, not the whole warp"))));
            }
            let addr: [u64; 32] = std::array::from_fn(|lane| address(w, &a[0], lane));
            let Opnd::R(r0) = a[1].o else { return Err((None, EmuErrorKind::Unsupported("STSM of RZ".into()))) };
            for m in 0..usize::from(*n) {
                let v = w.r[(r0 as usize + m).min(255)];
                for (lane, &x) in v.iter().enumerate() {
                    for h in 0..2 {
                        let (row, off) = ptxas_rs::ori::tensor::ldmatrix_source(m, lane, h, *trans);
                        let at = addr[row] + off;
                        let val = u128::from(x >> (16 * h) & 0xffff);
                        mem_store(l, st, cta, w, Space::Shared, at, 2, val, row)
                            .map_err(|f| (Some(row), EmuErrorKind::Fault(f)))?;
                        if let Ok(o) = cta.shared_offset(at, 2, true) {
                            cta.generic_store(o, 2, w.id);
                        }
                    }
                }
            }
        }
        Kind::Hmma { .. } | Kind::Imma { .. } => {
            if g != u32::MAX {
                let m = format!("{} by lanes {g:#010x}, not the whole warp", inst.base);
                return Err((None, EmuErrorKind::Unsupported(m)));
            }
            let regs = |x: &Arg, i: u8| -> R<[u32; 32]> {
                match x.o {
                    Opnd::R(255) => Ok([0; 32]),
                    Opnd::R(r) if u16::from(r) + u16::from(i) < 255 => Ok(w.r[r as usize + i as usize]),
                    o => Err(EmuErrorKind::Unsupported(format!("{} operand {o:?}", inst.base))),
                }
            };
            let mut fa = [[0u32; 4]; 32];
            let mut fb = [[0u32; 2]; 32];
            let mut fc = [[0u32; 4]; 32];
            for i in 0..a[1].n {
                let v = lift(regs(&a[1], i))?;
                (0..32).for_each(|l| fa[l][i as usize] = v[l]);
            }
            for i in 0..a[2].n {
                let v = lift(regs(&a[2], i))?;
                (0..32).for_each(|l| fb[l][i as usize] = v[l]);
            }
            // c and d: 4 registers, 2 for sm_75's IMMA.8816 (rows 8-15 of the m16n8k16 product
            // it computes with zero a rows there are not written).
            for i in 0..a[3].n.min(4) {
                let v = lift(regs(&a[3], i))?;
                (0..32).for_each(|l| fc[l][i as usize] = v[l]);
            }
            let d = match &inst.kind {
                Kind::Hmma { k, ab } => alu::mma_f32(usize::from(*k), *ab, &fa, &fb, &fc),
                Kind::Imma { a_regs, signed, sat } => {
                    alu::mma_s32(usize::from(*a_regs).max(2), *signed, *sat, &fa, &fb, &fc)
                }
                _ => unreachable!("matched above"),
            };
            for i in 0..a[0].n.min(4) {
                let v: [u32; 32] = std::array::from_fn(|l| d[l][i as usize]);
                lift(w.write_n(&a[0], i, &v, g))?;
            }
        }
        Kind::WarpgroupArrive | Kind::WarpgroupDepbar(_) => {}
        Kind::Hgmma { form, .. } => {
            // A warpgroup instruction: every lane of the warp takes part (`.sync.aligned`).
            if g != u32::MAX {
                let m = format!("{} by lanes {g:#010x}, not the whole warp", inst.base);
                return Err((None, EmuErrorKind::Unsupported(m)));
            }
            let at = if form.a_regs { 2 } else { 1 };
            let (Opnd::Ur(u), Opnd::R(rc)) = (a[at].o, a[at + 1].o) else {
                return Err((None, EmuErrorKind::Unsupported("HGMMA operands".into())));
            };
            let ur = |k: u8| u64::from(w.ur[usize::from(u + k) & 63]) * u64::from(u + k < 63);
            let desc_a = ur(0) | ur(1) << 32;
            let desc_b = ur(2) | ur(3) << 32;
            let regs = form.d_regs();
            if usize::from(rc) + regs > 255 && rc != 255 {
                return Err((None, EmuErrorKind::Unsupported(format!("HGMMA accumulator R{rc}"))));
            }
            let c: Vec<[u32; 32]> =
                (0..regs).map(|i| if rc == 255 { [0; 32] } else { w.r[usize::from(rc) + i] }).collect();
            let frag = match a[1].o {
                Opnd::R(ra) if form.a_regs => {
                    if usize::from(ra) + 4 > 255 {
                        return Err((None, EmuErrorKind::Unsupported(format!("HGMMA A fragment R{ra}"))));
                    }
                    Some(std::array::from_fn::<[u32; 32], 4, _>(|j| w.r[usize::from(ra) + j]))
                }
                _ => None,
            };
            let scale_d = w.pred(&pr[0]) & 1 == 1;
            let rank = (w.id % 4) as usize;
            let load = |off: u32, bytes: u32| -> Result<u32, EmuErrorKind> {
                for b in 0..bytes {
                    cta.async_read(u64::from(off + b), w.id)?;
                }
                cta.shared.load(u64::from(off), bytes).map(|v| v as u32).map_err(EmuErrorKind::Fault)
            };
            let op = crate::gmma::Wgmma { form: *form, desc_a, desc_b, scale_d };
            let d = match op.warp(rank, frag.as_ref(), &c, load) {
                Ok(d) => d,
                Err(Ok(e)) => return Err((None, e)),
                Err(Err(why)) => return Err((None, EmuErrorKind::Unsupported(why))),
            };
            for (i, v) in d.iter().enumerate() {
                lift(w.write_n(&a[0], i as u8, v, g))?;
            }
        }
        Kind::Qspc(space) => {
            let r = pmask(g, |lane| resolve(Space::Generic, address(w, &a[0], lane)).0 == *space);
            w.set_pred(&pr[0], r, g);
        }
        Kind::Bssy => {
            let Opnd::B(b) = a[0].o else { return Err((None, EmuErrorKind::Unsupported("BSSY operand".into()))) };
            for lane in lanes(g) {
                w.b[b as usize & 15][lane] = act;
            }
        }
        Kind::Bsync => {
            let Opnd::B(b) = a[0].o else { return Err((None, EmuErrorKind::Unsupported("BSYNC operand".into()))) };
            if g != 0 {
                w.waiting = true;
                park(w, g, next, Lane::Bsync(b & 15));
                return Ok(());
            }
        }
        Kind::Break => {
            let Opnd::B(b) = a[0].o else { return Err((None, EmuErrorKind::Unsupported("BREAK operand".into()))) };
            for lane in 0..32 {
                w.b[b as usize & 15][lane] &= !g;
            }
            w.waiting = true;
        }
        Kind::Bmov { clear } => match (a[0].o, a[1].o) {
            (Opnd::R(_), Opnd::B(b)) => {
                let v = map1(g, |lane| w.b[b as usize & 15][lane]);
                lift(w.write32(&a[0], &v, g))?;
                if *clear {
                    for lane in lanes(g) {
                        w.b[b as usize & 15][lane] = 0;
                    }
                }
            }
            (Opnd::B(b), _) => {
                let v = lift(w.reg32(&a[1]))?;
                for lane in lanes(g) {
                    w.b[b as usize & 15][lane] = v[lane];
                }
            }
            _ => return Err((None, EmuErrorKind::Unsupported("BMOV operands".into()))),
        },
        Kind::Warpsync { all, exclusive } => {
            // Each lane waits for the lanes of its own mask: the tiles of a cooperative group pass
            // different masks (cg_tiled_reduce's `WARPSYNC R4`) and converge separately.
            let masks = if *all || a.is_empty() { splat(u32::MAX) } else { lift(w.reg32(&a[0]))? };
            if g != 0 {
                w.waiting = true;
                let how = if *exclusive {
                    Release::Exclusive
                } else if *all || a.is_empty() {
                    Release::Merge
                } else {
                    Release::Apart
                };
                park_each(w, g, next, |lane| Lane::Warpsync(masks[lane], how));
                return Ok(());
            }
        }
        Kind::Bar { arv, red } => {
            if g != 0 {
                let live = w.live();
                if g != live {
                    let m = format!("BAR by lanes {g:#010x} of the warp's live lanes {live:#010x}");
                    return Err((None, EmuErrorKind::DivergentBarrier(m)));
                }
                if !one_strand(w, g) {
                    let m = "BAR after the warp diverged and its groups met again without a BSYNC or \
                             WARPSYNC (the GPU keeps them apart)";
                    return Err((None, EmuErrorKind::DivergentBarrier(m.into())));
                }
                let lane = g.trailing_zeros() as usize;
                let (id, count) = bar::operands(w, a, lane).map_err(|k| (None, k))?;
                let pred = if red.is_some() { w.pred(&pr[0]) } else { 0 };
                cta.bars
                    .arrive(w.id, g, id, count, *red, pred, !arv)
                    .map_err(|m| (Some(lane), EmuErrorKind::Invalid(m)))?;
                if !arv {
                    park(w, g, next, Lane::Bar(id));
                    return Ok(());
                }
            }
        }
        Kind::B2r => {
            let v = cta.bars.b2r(w.id).ok_or((None, EmuErrorKind::Invalid("B2R without an earlier BAR.RED".into())))?;
            lift(w.write32(&a[0], &splat(v), g))?;
            if let Some(p) = pr.first() {
                w.set_pred(p, if v != 0 { u32::MAX } else { 0 }, g);
            }
        }
    }
    w.pc = next;
    Ok(())
}

/// Whether the lanes `g` all belong to one strand (see [`Warp::strand`]): they reconverged
/// where the code says so, not only by reaching the same pc.
fn one_strand(w: &Warp, g: u32) -> bool {
    g == 0 || lanes(g).all(|l| w.strand[l] == w.strand[g.trailing_zeros() as usize])
}

/// The error of a warp-collective instruction run by lanes that have not reconverged: on the GPU
/// the groups run it separately, and each reads the other's lanes as inactive (our -O3 cubin of
/// algo_spmv_csr, a `SHFL.DOWN` reduction after a divergent loop with no `WARPSYNC`, gave other
/// sums on the H100 than in an emulator that merged the groups at the same pc).
fn divergent_collective(what: &str) -> String {
    format!(
        "{what} after the warp diverged and its groups met again without a BSYNC or WARPSYNC (the GPU keeps \
         them apart, so each group sees the other's lanes as inactive)"
    )
}

/// Parks the guarded lanes `g` of the running group at the current instruction in `state`
/// (they wait there until released); the group's other lanes go on at `next`.
fn park(w: &mut Warp, g: u32, next: u32, state: Lane) {
    park_each(w, g, next, |_| state);
}

/// [`park`] with a state per lane.
fn park_each(w: &mut Warp, g: u32, next: u32, state: impl Fn(usize) -> Lane) {
    let pc = w.pc;
    for lane in lanes(g) {
        w.state[lane] = state(lane);
    }
    for lane in lanes(w.act) {
        w.lane_pc[lane] = if g >> lane & 1 == 1 { pc } else { next };
    }
    regroup_keep(w);
}

/// Regroups when `lane_pc` of the old group's lanes was already set by the caller.
fn regroup_keep(w: &mut Warp) {
    w.act = 0;
    w.regroup();
}

fn branch(w: &mut Warp, taken: u32, target: u32, next: u32) {
    let act = w.act;
    if taken == act {
        w.pc = target;
        if w.other == u32::MAX {
            return;
        }
        if target < w.other && w.apart == 0 && w.exclusive == 0 && !w.waiting {
            // What `regroup` gives here, without its scans: no wait to release, no strand kept
            // apart, and every other runnable lane is past `target` (at `other` or later), so
            // the group stays as it is, at `target`, and `other` does not change.
            for l in lanes(act) {
                w.lane_pc[l] = target;
            }
            w.last_strand = w.strand[act.trailing_zeros() as usize & 31];
        } else {
            w.regroup();
        }
        return;
    }
    if taken == 0 {
        w.pc = next;
        return;
    }
    let strand = w.new_strand();
    for lane in lanes(act) {
        w.lane_pc[lane] = if taken >> lane & 1 == 1 { target } else { next };
        if taken >> lane & 1 == 1 {
            w.strand[lane] = strand;
        }
    }
    regroup_keep(w);
}

/// The per-half comparison of `HSETP2`/`HSET2`: for the low and the high halves of the operands
/// (after their selectors and signs), the lanes of `g` where the comparison, combined with `p`,
/// holds.
fn half_compare(
    w: &Warp,
    (x, y): (&Arg, &Arg),
    p: &PArg,
    (cmp, bop, m): (alu::Cmp, alu::BoolOp, alu::HalfMods),
    g: u32,
) -> Result<(u32, u32), StepErr> {
    let va = hmod(x, &lift(w.reg32(x))?);
    let vb = hmod(y, &lift(w.reg32(y))?);
    let pp = w.pred(p);
    let lo = pmask(g, |lane| alu::hsetp_lo(va[lane], vb[lane], cmp, m));
    let hi = pmask(g, |lane| alu::hsetp_lo(va[lane] >> 16, vb[lane] >> 16, cmp, m));
    Ok((combine(bop, lo, pp, g).0, combine(bop, hi, pp, g).0))
}

/// Per lane of `g`, `bop` of the comparison result `r` and the predicate `pp`, and of `!r` and
/// `pp` ([`alu::BoolOp::apply`] bitwise).
fn combine(bop: alu::BoolOp, r: u32, pp: u32, g: u32) -> (u32, u32) {
    let f = |x: u32| match bop {
        alu::BoolOp::And => x & pp,
        alu::BoolOp::Or => x | pp,
        alu::BoolOp::Xor => x ^ pp,
    };
    (f(r) & g, f(!r) & g)
}

/// The lanes where comparison `cmp` holds, given the lanes where the operands compare less,
/// equal, greater and unordered ([`alu::Cmp::eval`] lane-wise).
fn cmp_lanes(cmp: alu::Cmp, lt: u32, eq: u32, gt: u32, un: u32) -> u32 {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let on = |o: Option<std::cmp::Ordering>, m: u32| if cmp.eval(o) { m } else { 0 };
    on(Some(Less), lt) | on(Some(Equal), eq) | on(Some(Greater), gt) | on(None, un)
}

fn extend(v: u64, size: u32, signed: bool) -> u64 {
    match (size, signed) {
        (1, true) => v as u8 as i8 as i64 as u64 & 0xffff_ffff,
        (1, false) => v & 0xff,
        (2, true) => v as u16 as i16 as i64 as u64 & 0xffff_ffff,
        (2, false) => v & 0xffff,
        (4, _) => v & 0xffff_ffff,
        _ => v,
    }
}

fn address(w: &Warp, m: &Arg, lane: usize) -> u64 {
    let Opnd::Mem { ra, wide, ur, off, shift, ur64 } = m.o else { return 0 };
    let base = if ra == 255 {
        0
    } else if wide {
        u64::from(w.r[ra as usize][lane]) | u64::from(w.r[(ra as usize + 1).min(255)][lane]) << 32
    } else {
        u64::from(w.r[ra as usize][lane])
    } << shift;
    let u = if ur == 63 {
        0
    } else if ur64 {
        u64::from(w.ur[ur as usize & 63]) | u64::from(w.ur[(ur as usize + 1).min(63)]) << 32
    } else {
        u64::from(w.ur[ur as usize & 63])
    };
    let a = base.wrapping_add(u).wrapping_add(off as i64 as u64);
    if wide || ur64 { a } else { a & 0xffff_ffff }
}

/// [`address`] of every lane.
fn lane_addrs(w: &Warp, m: &Arg) -> [u64; 32] {
    fast::mem(m).map_or([0; 32], |m| fast::addresses(w, m))
}

/// The in-space addresses of the lanes `g` accessing `addrs` in `space`, when they all resolve
/// to global memory or all to the CTA's shared memory (without a CTA-slot fault).
fn resolve_lanes(cta: &Cta, space: Space, addrs: &[u64; 32], g: u32, size: u32) -> Option<(Space, [u64; 32])> {
    let first = resolve(space, addrs[g.trailing_zeros() as usize & 31]).0;
    match (space, first) {
        (Space::Global, _) => Some((Space::Global, *addrs)),
        (Space::Shared | Space::Generic, s @ (Space::Global | Space::Shared)) => {
            let mut out = [0u64; 32];
            for lane in lanes(g) {
                let (s2, a) = resolve(space, addrs[lane]);
                if s2 != s {
                    return None;
                }
                out[lane] = if s == Space::Shared { cta.shared_offset(a, size, false).ok()? } else { a };
            }
            Some((s, out))
        }
        _ => None,
    }
}

/// The warp-wide fast path of a load by the lanes `g` (see [`crate::memory::GlobalMemory::load_lanes`]):
/// `false` when it does not apply (lanes in several allocations or spaces, a fault), and the
/// caller loads lane by lane.
fn load_lanes(st: &State, cta: &Cta, space: Space, addrs: &[u64; 32], g: u32, size: u32, out: &mut [u128; 32]) -> bool {
    if g == 0 {
        return true;
    }
    match resolve_lanes(cta, space, addrs, g, size) {
        Some((Space::Global, a)) => st.global.load_lanes(&a, g, size, out),
        Some((Space::Shared, a)) => cta.shared.load_lanes(&a, g, size, out),
        _ => false,
    }
}

/// The warp-wide fast path of a store by the lanes `g`, lanes in order (see [`load_lanes`]).
fn store_lanes(
    st: &mut State,
    cta: &mut Cta,
    space: Space,
    addrs: &[u64; 32],
    g: u32,
    size: u32,
    vals: &[u128; 32],
) -> bool {
    if g == 0 {
        return true;
    }
    match resolve_lanes(cta, space, addrs, g, size) {
        Some((Space::Global, a)) => st.global.store_lanes(&a, g, size, vals),
        Some((Space::Shared, a)) => cta.shared.store_lanes(&a, g, size, vals),
        _ => false,
    }
}

/// The emulator's state space and in-space address of an access (generic ones by the windows of
/// [`crate::memory`], which the Ori interpreter shares).
fn resolve(space: Space, addr: u64) -> (Space, u64) {
    match space {
        Space::Generic => {
            use ptxas_rs::ori::Space as S;
            let (s, a) = crate::memory::resolve_generic(addr);
            let s = match s {
                S::Shared => Space::Shared,
                S::Local => Space::Local,
                S::Const => Space::Const,
                S::Param => Space::Param,
                _ => Space::Global,
            };
            (s, a)
        }
        s => (s, addr),
    }
}

#[allow(clippy::too_many_arguments)]
fn mem_load(
    l: &Launch,
    st: &State,
    cta: &Cta,
    w: &Warp,
    space: Space,
    addr: u64,
    size: u32,
    lane: usize,
) -> Result<u128, Fault> {
    match resolve(space, addr) {
        (Space::Global, a) => st.global.load(a, size),
        (Space::Shared, a) => cta.shared.load(cta.shared_offset(a, size, false)?, size),
        (s @ (Space::Const | Space::Param), a) => {
            let (bank, ms) = if s == Space::Const { (3, MemSpace::Const(3)) } else { (0, MemSpace::Param) };
            let data = l.banks.get(&bank).map_or(&[][..], |b| b.as_slice());
            let f = |kind| Fault { kind, space: ms, addr: a, size, write: false };
            if !a.is_multiple_of(u64::from(size)) {
                return Err(f(FaultKind::Misaligned));
            }
            let end =
                a.checked_add(u64::from(size)).filter(|e| *e <= data.len() as u64).ok_or(f(FaultKind::OutOfBounds))?;
            Ok(data[a as usize..end as usize].iter().rev().fold(0u128, |v, &b| v << 8 | u128::from(b)))
        }
        (_, a) => cta.local_load(w.id as usize * 32 + lane, l.local_bytes, a, size),
    }
}

#[allow(clippy::too_many_arguments)]
fn mem_store(
    l: &Launch,
    st: &mut State,
    cta: &mut Cta,
    w: &Warp,
    space: Space,
    addr: u64,
    size: u32,
    v: u128,
    lane: usize,
) -> Result<(), Fault> {
    match resolve(space, addr) {
        (Space::Global, a) => st.global.store(a, size, v),
        (Space::Shared, a) => cta.shared.store(cta.shared_offset(a, size, true)?, size, v),
        (s @ (Space::Const | Space::Param), a) => {
            let space = if s == Space::Const { MemSpace::Const(3) } else { MemSpace::Param };
            Err(Fault { kind: FaultKind::ReadOnly, space, addr: a, size, write: true })
        }
        (_, a) => cta.local_store(w.id as usize * 32 + lane, l.local_bytes, a, size, v),
    }
}

/// The new memory value of an atomic.
pub fn atom_apply(op: AtomOp, ty: AtomTy, cur: u64, b: u64, c: Option<u64>) -> u64 {
    let signed = matches!(ty, AtomTy::S32 | AtomTy::S64);
    let w64 = matches!(ty, AtomTy::U64 | AtomTy::S64 | AtomTy::F64);
    let mask = if w64 { u64::MAX } else { 0xffff_ffff };
    let sx = |v: u64| if w64 { v as i64 } else { i64::from(v as u32 as i32) };
    let r = match (op, ty) {
        (AtomOp::Add, AtomTy::F32) => u64::from(alu::fadd(cur as u32, b as u32, Rnd::Rn, true, false)),
        (AtomOp::Add, AtomTy::F64) => alu::dadd(cur, b, Rnd::Rn),
        (AtomOp::Add, AtomTy::F16x2 { bf16 }) => {
            let m = alu::HalfMods { bf16, ..Default::default() };
            u64::from(alu::half2(0, cur as u32, b as u32, 0, m))
        }
        (AtomOp::Add, _) => cur.wrapping_add(b),
        (AtomOp::Min, _) => {
            if signed {
                if sx(cur) < sx(b) { cur } else { b }
            } else {
                (cur & mask).min(b & mask)
            }
        }
        (AtomOp::Max, _) => {
            if signed {
                if sx(cur) > sx(b) { cur } else { b }
            } else {
                (cur & mask).max(b & mask)
            }
        }
        (AtomOp::Inc, _) => {
            if (cur & mask) >= (b & mask) {
                0
            } else {
                cur + 1
            }
        }
        (AtomOp::Dec, _) => {
            if (cur & mask) == 0 || (cur & mask) > (b & mask) {
                b
            } else {
                cur - 1
            }
        }
        (AtomOp::And, _) => cur & b,
        (AtomOp::Or, _) => cur | b,
        (AtomOp::Xor, _) => cur ^ b,
        (AtomOp::Exch, _) => b,
        (AtomOp::Cas | AtomOp::CasSpin, _) => {
            if (cur & mask) == (b & mask) {
                c.unwrap_or(0)
            } else {
                cur
            }
        }
    };
    r & mask
}

/// A half-precision operand as the instruction reads it: selector, then `|x|`, then `-x`, per
/// half.
fn hmod(arg: &Arg, v: &[u32; 32]) -> [u32; 32] {
    let mut out = [0u32; 32];
    for (o, x) in out.iter_mut().zip(v) {
        // Selector 1 (`R6.F32`, sm_75/sm_80 family): the register is an f32, which enters
        // both halves converted toward zero (ptxas's sm_75 `cvt.rz.f16.f32` is
        // `HADD2 R5, R6.F32, -RZ.H0_H0`; cvt_f16_bf16's golden checks it).
        let mut y = if arg.sel == 1 {
            u32::from(alu::f2f_half(f64::from(f32::from_bits(*x)), false, alu::Rnd::Rz)) * 0x1_0001
        } else {
            alu::hsel(*x, arg.sel)
        };
        if arg.abs {
            y &= 0x7fff_7fff;
        }
        if arg.neg {
            y ^= 0x8000_8000;
        }
        *o = y;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_iterates_set_bits() {
        assert_eq!(lanes(0b1010).collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(lanes(u32::MAX).count(), 32);
    }

    /// The warp-wide address computation agrees with the per-lane one.
    #[test]
    fn lane_addrs_match_address() {
        let mut w = Warp::new(0, u32::MAX, 0, [[0; 3]; 32], None, None);
        let mut x = 0x9e37_79b9u32;
        for row in w.r.iter_mut().take(255) {
            for v in row.iter_mut() {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *v = x;
            }
        }
        for (i, u) in w.ur.iter_mut().take(63).enumerate() {
            *u = (i as u32).wrapping_mul(0x0101_0107) ^ 0xfff0_0000;
        }
        for ra in [0u8, 7, 253, 254, 255] {
            for ur in [0u8, 5, 62, 63] {
                for (wide, ur64, shift, off) in [
                    (false, false, 0, 0),
                    (true, false, 0, -16),
                    (false, true, 0, 0x40),
                    (false, false, 2, 0x10),
                    (true, true, 0, i32::MIN),
                ] {
                    let m = Arg {
                        o: Opnd::Mem { ra, wide, ur, off, shift, ur64 },
                        neg: false,
                        abs: false,
                        not: false,
                        n: 1,
                        dst: false,
                        sel: 0,
                    };
                    let all = lane_addrs(&w, &m);
                    for (lane, &got) in all.iter().enumerate() {
                        assert_eq!(got, address(&w, &m, lane), "{m:?} lane {lane}");
                    }
                }
            }
        }
    }
}

/// The mbarrier object (PTX `mbarrier`, SASS `SYNCS`) as a 64-bit word in shared memory: the
/// word's fields and operations are [`ptxas_rs::ori::mbarrier`]'s (shared with the Ori
/// interpreter); pending transactions (`expect_tx` bytes, `LDGSTS` copies) are kept beside the
/// word, per CTA.
mod mbar {
    use super::{Cta, EmuErrorKind, Launch, Space, State, StepErr, Warp, mem_load, mem_store};
    use ptxas_rs::ori::mbarrier;

    pub(super) use mbarrier::phase;

    /// Arrives `arrivals` times and adds `tx` pending transactions (negative: completes them)
    /// at the mbarrier at shared address `at`, dropping the arrivals from the expected count
    /// when `drop` (`.OPTOUT`, [`mbarrier::arrive_drop`]); returns the word before (the
    /// arrival token).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn update(
        l: &Launch,
        st: &mut State,
        cta: &mut Cta,
        w: &Warp,
        at: u64,
        arrivals: u32,
        tx: i64,
        drop: bool,
        lane: usize,
    ) -> Result<u64, StepErr> {
        let fault = |f| (Some(lane), EmuErrorKind::Fault(f));
        let word = mem_load(l, st, cta, w, Space::Shared, at, 8, lane).map_err(fault)? as u64;
        let t = cta.mbar_tx.entry(at).or_insert(0);
        let step = if drop { mbarrier::arrive_drop } else { mbarrier::arrive };
        let next = step(word, t, arrivals, tx)
            .map_err(|m| (Some(lane), EmuErrorKind::Invalid(format!("mbarrier at {at:#x}: {m}"))))?;
        mem_store(l, st, cta, w, Space::Shared, at, 8, u128::from(next), lane).map_err(fault)?;
        Ok(word)
    }

    /// One arrival at the sm_80-family mbarrier at shared address `at`; returns the word before
    /// (the arrival token). See [`sm80_arrive`].
    pub(super) fn sm80_update(
        l: &Launch,
        st: &mut State,
        cta: &mut Cta,
        w: &Warp,
        at: u64,
        lane: usize,
    ) -> Result<u64, StepErr> {
        let fault = |f| (Some(lane), EmuErrorKind::Fault(f));
        let word = mem_load(l, st, cta, w, Space::Shared, at, 8, lane).map_err(fault)? as u64;
        mem_store(l, st, cta, w, Space::Shared, at, 8, u128::from(sm80_arrive(word)), lane).map_err(fault)?;
        Ok(word)
    }

    /// The sm_80 family's mbarrier word after one arrival (`ATOMS.ARRIVE.64`,
    /// `ARRIVES.LDGSTSBAR.64`). The layout is inferred from NVIDIA's sm_80 code (ptxas 13.0; the
    /// notes are silent): `mbarrier.init` with `count` stores the low word `2^30 - count` and the
    /// high word `2^31 - count`; `cp.async.mbarrier.arrive` (no `.noinc`) first adds
    /// `-arrivals` to the high word (`ATOMS.ADD.S32 [a+4]`: the current phase expects them too);
    /// `test_wait` loads the high word and compares its bit 31 with the token's bit 63. So the
    /// high word counts the current phase's arrivals up to `2^31`, its bit 31 being the phase
    /// parity, which the carry flips when the last arrival comes; the low word keeps
    /// `2^30 - count` for the next phase, whose high word restarts at `2^31 - count` under the
    /// new parity. The GPU goldens of async_mbarrier and async_cg_memcpy check the result.
    pub(crate) fn sm80_arrive(word: u64) -> u64 {
        let lo = word as u32;
        let hi = (word >> 32) as u32;
        let mut next = hi.wrapping_add(1);
        if next & 0x7fff_ffff == 0 {
            let count = (1u32 << 30).wrapping_sub(lo & 0x3fff_ffff);
            next = (next & 0x8000_0000) | (1u32 << 31).wrapping_sub(count) & 0x7fff_ffff;
        }
        u64::from(lo) | u64::from(next) << 32
    }
}

#[cfg(test)]
mod sm80_mbarrier_tests {
    use super::mbar::sm80_arrive;

    /// The word ptxas's sm_80 `mbarrier.init` writes for `count` (async_mbarrier: 128 gives
    /// `0x7fffff80_3fffff80`).
    fn init(count: u32) -> u64 {
        u64::from((1u32 << 30) - count) | u64::from((1u32 << 31) - count) << 32
    }

    fn parity(w: u64) -> u64 {
        w >> 63
    }

    #[test]
    fn the_last_arrival_flips_the_parity_and_reloads_the_count() {
        assert_eq!(init(128), 0x7fff_ff80_3fff_ff80);
        let mut w = init(3);
        for phase in 0..4u64 {
            for k in 0..3 {
                assert_eq!(parity(w), phase & 1, "phase {phase}, arrival {k}: completed early");
                w = sm80_arrive(w);
            }
            assert_eq!(parity(w), (phase + 1) & 1, "phase {phase} did not complete");
            // The next phase expects `count` arrivals again; the low word never changes.
            assert_eq!(w >> 32 & 0x7fff_ffff, u64::from((1u32 << 31) - 3));
            assert_eq!(w as u32, (1u32 << 30) - 3);
        }
    }

    /// `cp.async.mbarrier.arrive` without `.noinc` adds `-1` to the high word first (one more
    /// expected arrival in the current phase only): the phase then needs `count + 1` arrivals,
    /// and the next one `count` again.
    #[test]
    fn an_added_expectation_lasts_one_phase() {
        let mut w = init(2);
        w = (w & 0xffff_ffff) | u64::from(((w >> 32) as u32).wrapping_sub(1)) << 32;
        for _ in 0..2 {
            w = sm80_arrive(w);
        }
        assert_eq!(parity(w), 0, "completed before the added arrival");
        w = sm80_arrive(w);
        assert_eq!(parity(w), 1);
        w = sm80_arrive(sm80_arrive(w));
        assert_eq!(parity(w), 0, "the next phase expects the initial count");
    }
}
