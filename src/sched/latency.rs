//! Latency-aware control words: stalls from the latency table, one scoreboard per
//! variable-latency producer (rotating through SB0–5), waits only where a consumer needs them.
//!
//! The pass walks the code in layout order, tracking per register ([`super::deps::Loc`]) the
//! cycle its fixed-latency result is ready (for ALU consumers and, separately, for branch
//! consumers of predicates), the scoreboard of a pending variable-latency write and the
//! scoreboards of its pending late reads (a mask: two late readers of one register may hold
//! different read scoreboards). For each instruction:
//!
//! 1. wait on the scoreboards of its pending sources (RAW), of its destinations' pending writes
//!    (WAW) and pending reads (WAR); a block start (instruction 0, a branch/BSSY target, the
//!    instruction after a control transfer) waits on every scoreboard;
//! 2. raise the previous instruction's stall until every source is ready, no destination's
//!    older fixed-latency write can land after this one, the instruction's pipe is free again
//!    ([`super::class::pipe`]: two ALU instructions, or an IMAD and the next FMA-pipe
//!    instruction, issue at least 2 cycles apart), a `BAR` has settled before anything but pipe
//!    arithmetic follows it ([`HwFacts::barrier_settle`]), an `HGMMA` issues 6 cycles after
//!    the `WARPGROUP.ARRIVE` before it (as ptxas), and (hardware margin) a scoreboard set by
//!    the previous instruction and waited on here has 2 cycles to register;
//! 3. a variable-latency result gets a write scoreboard, and a late-reading instruction with
//!    register sources a read scoreboard (a free one if any, else the least recently assigned:
//!    sharing a scoreboard is always correct, it only makes a waiter wait for more); in a
//!    function with `LDGDEPBAR`s, SB0 is theirs alone (it counts `cp.async` groups, which
//!    `DEPBAR.LE SB0, n` waits on) and the others rotate through SB1–5; a memory effect that
//!    completes asynchronously with no register result ([`completion`]: `SYNCS.EXCH.64`,
//!    `FENCE.VIEW.ASYNC`, `MEMBAR.*.CTA`) gets a scoreboard too, which every later instruction
//!    but fixed-latency arithmetic waits on ([`waits_for_completion`]);
//! 4. the last instruction of a block gets the stall that lets every fixed-latency result of
//!    the block land and every pipe drain before the next block starts, so blocks start clean.
//!
//! Latencies (cycles, sm_90, at or above the minima ptxas relies on, §2.3): 5 for ALU results
//! (ptxas: 4, MOV 5), 7 for HFMA2, 8 for FP64 (DADD/DMUL/DFMA/DSETP; ptxas 6–8), 13 for `R2UR`
//! ([`R2UR_LATENCY`]), 32 for
//! HMMA/IMMA results ([`MMA_LATENCY`], measured on the H100; longer than one stall, so the
//! emitter leaves [`NOPS_AFTER_MMA`] NOPs after each and a wait is spread over the stalls of
//! the instructions before the consumer, every later time-stamp moving with them), 13 for a
//! predicate read as any instruction's guard or by a branch, exit or other control instruction
//! (14 when a `DSETP` wrote it, [`pred_to_guard`]), and one more cycle for a general
//! register read by an FP64 instruction when another pipe wrote it. The last three agree with
//! ptxas's code (`interp::emu::hazard` has the figures) and with the H100 (our guarded
//! instructions 5 cycles after their `ISETP` saw the old predicate; a `DMUL` 5 cycles after the
//! `MOV` of its operand read the old value; a `@P0 BRA` 13 cycles after its `DSETP`, by the
//! fault it caused, went the old predicate's way). Minimum stalls: 1; 5 on control transfers
//! (as ptxas). Yield is off in the body and on in the padding tail; reuse
//! flags are cleared.
//!
//! Per target: [`assign`] takes the [`Target`]; the guard latency and the barrier settle are
//! read from its measured [`HwFacts`], every other figure above is sm_90's (they equal the
//! facts' sm_90 values, so sm_90 code is unchanged). The sm_80 family (sm_80, sm_86, sm_89)
//! is scheduled with sm_90's figures too: the fixed latencies, the pipes (sm_86/89's second
//! FP32 datapath, `HwFacts::dual_fp32`, is not used: our code only waits longer), `CS2R`
//! holding the ALU pipe (`cs2r_holds_alu_pipe`, false there: again only longer), MMA latency;
//! the emulator's hazard checker, with the family's measured facts, finds no hazard in our
//! corpus code (`interp/tests/backend_arch.rs`). `R2UR`, variable-latency there
//! (`r2ur_variable_latency`), is not scheduled for the family: instruction selection refuses
//! the sequences that need it.
//!
//! Invariant: see [`super`] — no hazard of the §2.5 model on any path, given that blocks start
//! with every scoreboard waited on and every fixed latency elapsed.

/// Cycles from a `WARPGROUP.ARRIVE` to the `HGMMA` after it: ptxas 13.0.88 -O3 gives the arrive
/// before tc_wgmma's first `HGMMA` stall 6 (a margin the hazard model does not require).
const ARRIVE_SETTLE: u64 = 6;

/// Cycles from an `HGMMA` that commits its group (`gsb0`) to a `WARPGROUP.DEPBAR` waiting on
/// it: on the H100 our -O3 tc_wgmma with the `DEPBAR` 1 cycle after the `HGMMA` read the
/// accumulators before the group completed (1,531 of 1,536 wrong; with the `HGMMA`'s stall
/// patched to 11, all right: `interp/gpu/README.md`, run 8); ptxas 13.0.88 -O3 leaves 8 there.
pub const GSB_SETTLE: u64 = 8;

/// Whether `inst` is a `WARPGROUP.DEPBAR` (a wait on `HGMMA` groups).
fn is_group_wait(inst: &Instruction) -> bool {
    inst.form.base == "WARPGROUP" && inst.suffix.contains("DEPBAR")
}

/// Whether `inst` is an `HGMMA` that commits its group (`gsb0` shown).
fn commits_group(inst: &Instruction) -> bool {
    matches!(inst.form.base, "HGMMA" | "IGMMA" | "QGMMA")
        && inst.form.slots.last().zip(inst.operands.last()).is_some_and(|(s, o)| s.shown(o, inst.residue))
}

use super::class::{Class, PIPES, class, is_control, never_executes, pipe, settles_after_barrier};
use super::deps::{LOCS, Loc, effects};
use crate::sass::{Control, Instruction, Value};
use crate::target::{HwFacts, Target};

const NONE: u8 = 0xff;

/// Fixed latency of `inst`'s results for non-branch consumers.
fn fixed_latency(inst: &Instruction) -> u64 {
    match inst.form.base {
        b if is_fp64(b) => 8,
        "R2UR" => R2UR_LATENCY,
        "HFMA2" => 7,
        "HMMA" | "IMMA" => MMA_LATENCY,
        _ => 5,
    }
}

/// Cycles before an `HMMA`/`IMMA` result may be read or its destination written again. The
/// tensor pipe does not interlock its results for an instruction issued with a stall of 1 or
/// more: on the H100 our -O3 cubins of tc_mma_bf16, tc_wmma_{f16,s8,tf32} read stale
/// accumulators with readers 5 to 15 cycles after the `HMMA`, and NVIDIA's own -O0 tc_wmma_tf32
/// (`HMMA` stall 0, `MOV R12, R12` next) gave wrong results once its `HMMA` stalls were patched
/// to 1 or 4 (`interp/gpu/README.md`, run 5). ptxas 13.0.88 -O3 never reads or rewrites an
/// `HMMA` result under 16 cycles (accumulator chains), other readers at 59 or more.
pub const MMA_LATENCY: u64 = 32;

/// Instructions the emitter places after every `HMMA`/`IMMA` (as `NOP`s), so that the
/// [`MMA_LATENCY`] cycles fit in stalls of at most 15 before a reader right after it or the
/// block's end: the `HMMA`'s and the two `NOP`s' stalls give 45.
pub const NOPS_AFTER_MMA: usize = 2;

/// Adds `extra` cycles before instruction `at` issues by raising the stalls of the
/// instructions before it, from `at - 1` back to `first` (the block's first instruction), each
/// to at most 15. Returns the cycles it could not place and the first instruction whose
/// stall it raised (everything after that one now issues later).
fn delay(insts: &mut [Instruction], first: usize, at: usize, mut extra: u64) -> (u64, usize) {
    let mut k = at;
    let mut lowest = at;
    while extra > 0 && k > first {
        k -= 1;
        let room = 15 - u64::from(insts[k].control.stall.min(15));
        let add = room.min(extra);
        if add > 0 {
            insts[k].control.stall += add as u8;
            extra -= add;
            lowest = k;
        }
    }
    (extra, lowest)
}

/// [`delay`] by `extra` cycles before instruction `at`, and the model's time-stamps moved with
/// the instructions that now issue later ([`State::shift`]; `issue`: each placed instruction's
/// issue cycle). Returns the cycles placed.
fn stretch(insts: &mut [Instruction], st: &mut State, issue: &[u64], first: usize, at: usize, extra: u64) -> u64 {
    let (left, from) = delay(insts, first, at, extra);
    st.shift(issue[from], from, extra - left);
    extra - left
}

/// Whether `base` runs on the FP64 pipe ([`pipe`]'s table).
fn is_fp64(base: &str) -> bool {
    pipe(base).is_some_and(|(p, _)| p == super::class::Pipe::Fp64)
}

/// Latency of `R2UR`'s uniform result (general → uniform datapath): ptxas 13.0.88 -O3 never
/// reads it sooner (over the corpus, the shortest distance from an `R2UR` to a reader of its
/// result is 13 cycles: `R2UR UR5, R27` with stall 13 before `LDG.E R5, desc[UR4][R36.64]` in
/// call_fnptr; 15 for the pair's first register). Our -O3 cubin of async_cg_memcpy read one
/// 5 cycles later (`R2UR UR0, R17`, then `SYNCS.ARRIVE.TRANS64.RED` and
/// `ARRIVES.LDGSTSBAR [UR0]`) and the H100 reported an out-of-range shared address at the
/// `ARRIVES`: the stale UR0.
pub const R2UR_LATENCY: u64 = 13;

/// Latency of a predicate result read as a guard or by a control transfer: the target's
/// measured [`HwFacts::pred_guard_latency`] (13 on sm_90); one more when an FP64-pipe
/// instruction (`DSETP`) wrote it, [`HwFacts::fp64_pred_guard_extra`]. ptxas 13.0.88 -O3 never
/// guards or branches on a `DSETP` predicate less than 14 cycles after it (sm_80…sm_100 corpus
/// code: 38 of 38 such pairs at 14 or more on sm_90; sm_75: 15), and on the H100 our -O3
/// math_libdevice_f64 with `@P0 BRA` 13 cycles after `DSETP.LTU P0` branched as if on P0's old
/// value (2026-11-27, compute-sanitizer: lanes with |x| < 2^31 ran the Payne–Hanek call, and
/// those with exponents below 1024 indexed `__cudart_i2opi_d` 512 MiB below its start).
fn pred_to_guard(hw: &HwFacts, fp64: bool) -> u64 {
    hw.pred_guard_latency + if fp64 { hw.fp64_pred_guard_extra } else { 0 }
}

/// Extra cycles before an FP64 instruction may read a general register written by a
/// fixed-latency instruction of another pipe.
const FP64_EARLY_READ: u64 = 1;

/// Whether `base` reads its predicate operands like a guard (13 cycles after a fixed-latency
/// producer): `VOTE`/`VOTEU`. Measured on an H200 (2026-11-26, GPU run 6): our -O3 cubin of
/// warp_vote with `VOTE.ANY R13, PT, P0` 5 cycles after the `ISETP` writing P0 balloted P0's old
/// value (ptxas's corpus code never places a VOTE within a block of its predicate's producer).
pub fn reads_preds_late(base: &str) -> bool {
    matches!(base, "VOTE" | "VOTEU")
}

/// Whether `inst` completes a memory effect asynchronously with no register result, so a
/// scoreboard must track it: `Some(true)` a write scoreboard, `Some(false)` a read scoreboard,
/// as ptxas 13.0.88 gives them:
/// - `SYNCS.EXCH.64 URZ` (`mbarrier.init`): write SB, which the `BAR.SYNC` after it waits on
///   (async_bulk_mbarrier, async_mbarrier, async_cg_memcpy). Without it, another warp's (or
///   the same thread's) mbarrier operation can reach the barrier before the init: on the H100
///   our cubins that issued it without a scoreboard failed ("Unknown Error" at the next
///   `SYNCS.ARRIVE`);
/// - `FENCE.VIEW.ASYNC.*` (`fence.proxy.async`): write SB, which the later memory accesses,
///   `BAR`s and `HGMMA`s wait on (tc_wgmma: W3, the `BAR.SYNC` waits on SB3);
/// - `MEMBAR.*.CTA`: read SB, which the `FENCE.VIEW.ASYNC.S` (or `NOP`, or memory access) after it
///   waits on (tc_wgmma 0x0b90; the `st; membar.cta; ld` probe). The GPU- and system-scope
///   `MEMBAR`s block the warp (ptxas gives them none; `ERRBAR` follows).
pub fn completion(inst: &Instruction) -> Option<bool> {
    match inst.form.base {
        "SYNCS" if inst.suffix.contains("EXCH") => Some(true),
        "FENCE" => Some(true),
        "MEMBAR" if inst.suffix.ends_with(".CTA") => Some(false),
        // `UTMACCTL.IV` reads its address pair through a read scoreboard (ptxas 13.0.88 -O3).
        "UTMACCTL" => Some(false),
        _ => None,
    }
}

/// Whether `inst` must wait for the pending [`completion`]s: everything but fixed-latency
/// arithmetic (memory accesses, barriers, fences, `NOP`, `HGMMA`, control transfers).
pub fn waits_for_completion(inst: &Instruction) -> bool {
    pipe(inst.form.base).is_none() && !matches!(inst.form.base, "MOV" | "UMOV" | "R2UR" | "S2UR" | "S2R" | "CS2R")
}

/// The guard predicate of `inst`, if it has one other than PT.
fn guard_loc(inst: &Instruction) -> Option<Loc> {
    match inst.guard.value {
        Value::P(p) if p != 7 => Some(Loc::P(p)),
        Value::Up(p) if p != 7 => Some(Loc::Up(p)),
        _ => None,
    }
}

struct State {
    /// Issue cycle of the instruction being placed.
    t: u64,
    ready: Vec<u64>,
    ready_branch: Vec<u64>,
    ready_fp64: Vec<u64>,
    wsb: Vec<u8>,
    /// Per register: the mask of scoreboards of its pending late reads (several instructions
    /// may read it late, each with its own read scoreboard; a write waits for all of them).
    rsb: Vec<u8>,
    /// Per register: the instruction whose fixed-latency result `ready` times.
    writer: Vec<Option<usize>>,
    /// Per scoreboard: whether any event may be pending.
    busy: [bool; 6],
    /// Per scoreboard: index of the instruction that last set it.
    last_set: [usize; 6],
    /// Per pipe ([`pipe`]): the first cycle it accepts another instruction.
    pipe_free: [u64; PIPES],
    /// The first cycle an instruction other than pipe arithmetic may issue after a `BAR`.
    bar_settle: u64,
    /// The first cycle an `HGMMA` may issue after a `WARPGROUP.ARRIVE`.
    arrive_settle: u64,
    /// The first cycle a `WARPGROUP.DEPBAR` may issue after a committing `HGMMA`.
    gsb_settle: u64,
    /// SB0 counts `LDGDEPBAR` groups (which `DEPBAR.LE SB0, n` waits on): no other producer
    /// may use it.
    sb0_reserved: bool,
    /// Scoreboards of pending memory completions without a register ([`completion`]).
    completion: u8,
}

impl State {
    fn new() -> State {
        State {
            t: 0,
            ready: vec![0; LOCS],
            ready_branch: vec![0; LOCS],
            ready_fp64: vec![0; LOCS],
            wsb: vec![NONE; LOCS],
            rsb: vec![0; LOCS],
            writer: vec![None; LOCS],
            busy: [false; 6],
            last_set: [0; 6],
            pipe_free: [0; PIPES],
            bar_settle: 0,
            arrive_settle: 0,
            gsb_settle: 0,
            sb0_reserved: false,
            completion: 0,
        }
    }

    /// Instructions issued after `from` now issue `by` cycles later: every time-stamp past
    /// `from` moves with them (a conservative over-approximation for the ones issued at or
    /// before it, whose results may be counted late).
    fn shift(&mut self, from: u64, from_index: usize, by: u64) {
        if by == 0 {
            return;
        }
        let bump = |v: &mut u64| {
            if *v > from {
                *v += by;
            }
        };
        for s in 0..LOCS {
            // The results of the instruction whose stall was raised, and of earlier ones, land
            // when they did.
            if self.writer[s].is_some_and(|w| w > from_index) {
                bump(&mut self.ready[s]);
                bump(&mut self.ready_branch[s]);
                bump(&mut self.ready_fp64[s]);
            }
        }
        self.pipe_free.iter_mut().for_each(bump);
        bump(&mut self.bar_settle);
        bump(&mut self.arrive_settle);
        bump(&mut self.gsb_settle);
    }

    fn retire(&mut self, mask: u8) {
        self.completion &= !mask;
        for k in 0..6u8 {
            if mask >> k & 1 == 1 {
                self.busy[k as usize] = false;
                for s in 0..LOCS {
                    if self.wsb[s] == k {
                        self.wsb[s] = NONE;
                    }
                    self.rsb[s] &= !(1 << k);
                }
            }
        }
    }

    /// Takes a scoreboard (not `avoid`) for instruction `i`'s event: [`State::pick`]'s choice,
    /// marked busy and last set by `i`.
    fn claim(&mut self, avoid: Option<u8>, i: usize) -> u8 {
        let k = self.pick(avoid);
        self.take(k, i);
        k
    }

    /// Marks scoreboard `k` busy, last set by instruction `i`.
    fn take(&mut self, k: u8, i: usize) {
        self.busy[k as usize] = true;
        self.last_set[k as usize] = i + 1;
    }

    fn pick(&self, avoid: Option<u8>) -> u8 {
        let first = u8::from(self.sb0_reserved);
        let free = (first..6u8).find(|&k| !self.busy[k as usize] && Some(k) != avoid);
        free.unwrap_or_else(|| {
            (first..6u8).filter(|&k| Some(k) != avoid).min_by_key(|&k| self.last_set[k as usize]).unwrap_or(first)
        })
    }
}

/// The block starts of `insts[..tail]`: instruction 0, every branch/BSSY target inside the
/// code, and every instruction after a control transfer.
fn block_starts(insts: &[Instruction], tail: usize) -> Vec<bool> {
    let mut start = vec![false; tail + 1];
    start[0] = true;
    for (i, inst) in insts[..tail].iter().enumerate() {
        for o in &inst.operands {
            if let Value::Target(off) = o.value {
                let abs = (i as i64 + 1) * 16 + off;
                if abs >= 0 && abs % 16 == 0 && ((abs / 16) as usize) <= tail {
                    start[(abs / 16) as usize] = true;
                }
            }
        }
        if is_control(inst.form.base) {
            start[i + 1] = true;
        }
    }
    start
}

/// Assigns latency-aware control words to `insts` (`insts[tail..]` is the padding tail) for
/// `target`: the guard latency and the barrier settle are its measured [`HwFacts`]; every
/// other latency is still sm_90's (the only target with a backend).
pub fn assign(insts: &mut [Instruction], tail: usize, target: &Target) {
    let hw = target.hw();
    let starts = block_starts(insts, tail);
    let mut st = State::new();
    st.sb0_reserved = insts[..tail].iter().any(|x| x.form.base == "LDGDEPBAR");
    let mut prev: Option<usize> = None;
    let mut block_first = 0;
    let mut issue = vec![0u64; tail + 1];
    for i in 0..tail {
        let e = effects(&insts[i]);
        let base = insts[i].form.base;
        let control_op = is_control(base);
        let mut c = Control { stall: 1, yield_: false, write_sb: None, read_sb: None, wait: 0, reuse: 0 };
        if control_op {
            c.stall = 5;
        }
        if is_group_wait(&insts[i]) {
            // As ptxas (-O3 tc_wgmma: 4 cycles from the wait to the first accumulator read);
            // not measured on the GPU.
            c.stall = 4;
        }
        for o in &mut insts[i].operands {
            o.reuse = false;
        }
        // 1. Waits.
        if starts[i] {
            c.wait = 0x3f;
            block_first = i;
        }
        for r in &e.reads {
            let k = st.wsb[r.index()];
            if k != NONE {
                c.wait |= 1 << k;
            }
        }
        for r in &e.writes {
            let k = st.wsb[r.index()];
            if k != NONE {
                c.wait |= 1 << k;
            }
            c.wait |= st.rsb[r.index()];
        }
        if waits_for_completion(&insts[i]) {
            c.wait |= st.completion;
        }
        c.wait &= 0x3f;
        // 2. Issue time.
        let mut need = st.t;
        let uses_pipe = pipe(insts[i].form.base).filter(|_| !never_executes(&insts[i]));
        if !starts[i] {
            if let Some((p, _)) = uses_pipe {
                need = need.max(st.pipe_free[p as usize]);
            }
            if settles_after_barrier(base) && !never_executes(&insts[i]) {
                need = need.max(st.bar_settle);
            }
            if matches!(base, "HGMMA" | "IGMMA" | "QGMMA") {
                need = need.max(st.arrive_settle);
            }
            if is_group_wait(&insts[i]) {
                need = need.max(st.gsb_settle);
            }
            let guard = guard_loc(&insts[i]);
            let fp64 = is_fp64(base);
            for (j, r) in e.reads.iter().enumerate() {
                // `effects` lists the guard first.
                let is_guard = j == 0 && guard == Some(*r);
                let mut ready = if is_guard || ((control_op || reads_preds_late(base)) && r.is_pred()) {
                    st.ready_branch[r.index()]
                } else {
                    st.ready[r.index()]
                };
                if fp64 && matches!(r, Loc::R(_)) {
                    ready = ready.max(st.ready_fp64[r.index()]);
                }
                need = need.max(ready);
            }
            let lat = match class(&insts[i], hw) {
                Class::Fixed => fixed_latency(&insts[i]),
                _ => 1,
            };
            for r in &e.writes {
                need = need.max((st.ready[r.index()] + 1).saturating_sub(lat));
            }
            if let Some(p) = prev {
                let set_by_prev = [insts[p].control.write_sb, insts[p].control.read_sb];
                if set_by_prev.iter().flatten().any(|k| c.wait >> k & 1 == 1) {
                    need = need.max(st.t + 1);
                }
            }
        }
        if need > st.t
            && let Some(p) = prev
        {
            // Raise the previous instructions' stalls (the latest first); what cannot be placed
            // in this block (a latency over the stalls left) is not modelled as elapsed.
            let extra = need - st.t;
            st.t += stretch(insts, &mut st, &issue, block_first, p + 1, extra);
        }
        issue[i] = st.t;
        st.retire(c.wait);
        if let Some((p, hold)) = uses_pipe {
            st.pipe_free[p as usize] = st.t + hold;
        }
        if base == "BAR" {
            st.bar_settle = st.t + hw.barrier_settle;
        }
        if base == "WARPGROUP" && insts[i].suffix.contains("ARRIVE") {
            st.arrive_settle = st.t + ARRIVE_SETTLE;
        }
        if commits_group(&insts[i]) {
            st.gsb_settle = st.t + GSB_SETTLE;
        }
        // 3. Scoreboards and results.
        let cls = class(&insts[i], hw);
        let reg_reads: Vec<Loc> = e.reads.iter().copied().filter(|r| !r.is_pred()).collect();
        if cls == Class::VarResult && !e.writes.is_empty() {
            let k = st.claim(None, i);
            c.write_sb = Some(k);
            for r in &e.writes {
                st.wsb[r.index()] = k;
            }
        } else {
            let lat = fixed_latency(&insts[i]);
            let pred_lat = pred_to_guard(hw, is_fp64(base));
            for r in &e.writes {
                st.ready[r.index()] = st.t + lat;
                st.writer[r.index()] = Some(i);
                st.ready_branch[r.index()] = st.t + if r.is_pred() { pred_lat } else { lat };
                st.ready_fp64[r.index()] = st.t + lat + if is_fp64(base) { 0 } else { FP64_EARLY_READ };
            }
        }
        if cls != Class::Fixed && !reg_reads.is_empty() {
            let k = st.claim(c.write_sb, i);
            c.read_sb = Some(k);
            for r in &reg_reads {
                st.rsb[r.index()] |= 1 << k;
            }
        }
        match completion(&insts[i]) {
            Some(true) if c.write_sb.is_none() => {
                let k = st.claim(c.read_sb, i);
                c.write_sb = Some(k);
                st.completion |= 1 << k;
            }
            Some(false) if c.read_sb.is_none() => {
                let k = st.claim(c.write_sb, i);
                c.read_sb = Some(k);
                st.completion |= 1 << k;
            }
            _ => {}
        }
        if base == "LDGDEPBAR" {
            // The group's completion: counted on SB0, waited on by `DEPBAR.LE SB0, n`.
            c.write_sb = Some(0);
            st.take(0, i);
        }
        insts[i].control = c;
        // 4. Block end: let every fixed latency elapse.
        let end = starts[i + 1] || i + 1 == tail;
        if end {
            let t = st.t;
            let pending = st
                .ready
                .iter()
                .chain(st.ready_branch.iter())
                .chain(st.ready_fp64.iter())
                .chain(st.pipe_free.iter())
                .chain([&st.bar_settle, &st.gsb_settle])
                .map(|&r| r.saturating_sub(t))
                .max()
                .unwrap_or(0);
            let s = u64::from(insts[i].control.stall).max(pending).min(15);
            insts[i].control.stall = s as u8;
            st.t += s;
            // A latency longer than one stall: spread the rest over the block's instructions
            // before this one (the emitter leaves `NOP`s after each `HMMA` for this).
            if pending > s {
                st.t += stretch(insts, &mut st, &issue, block_first, i, pending - s);
            }
            prev = None;
        } else {
            st.t += u64::from(insts[i].control.stall);
            prev = Some(i);
        }
    }
    // nvdisasm (and so, presumably, the hardware's decoder) refuses a stall of 12-15 without the
    // yield hint; the hint has no effect on correctness, so set it there.
    for inst in &mut insts[..tail] {
        if inst.control.stall >= 12 {
            inst.control.yield_ = true;
        }
    }
    for inst in &mut insts[tail..] {
        inst.control = super::o0::tail_control();
        for o in &mut inst.operands {
            o.reuse = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(lines: &[&str]) -> Vec<Instruction> {
        let t = crate::sass::tables_for("sm_90").unwrap();
        lines.iter().enumerate().map(|(i, l)| t.parse(l, 16 * i as u64).unwrap()).collect()
    }

    /// Two late readers of R18 hold different read scoreboards; retiring the second one (the
    /// `MOV` overwriting R17 waits for it) must not drop the first: the write of R18 still waits
    /// for it. (Found by `compile_diff`'s random kernels: our -O3 cubin overwrote the source of
    /// an `F2I.S64` still being read.)
    #[test]
    fn a_write_waits_for_every_pending_late_read() {
        let mut v =
            parse(&["F2I.S64 R12, R18", "F2I.U64.CEIL R6, R17", "MOV R17, 0x1", "FFMA R18, R19, R16, R18", "EXIT"]);
        assign(&mut v, 5, &crate::target::Target::default());
        let first = v[0].control.read_sb.expect("F2I reads late");
        let second = v[1].control.read_sb.expect("F2I reads late");
        assert_ne!(first, second);
        assert_eq!(v[2].control.wait >> second & 1, 1, "{:?}", v[2].control);
        assert_eq!(v[3].control.wait >> first & 1, 1, "{:?}", v[3].control);
    }
}
