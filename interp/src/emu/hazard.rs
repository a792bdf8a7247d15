//! The hazard checker: the scoreboard and latency model of `shared/notes/digest-backend.md` §2.5,
//! applied to the instruction stream each warp actually issues.
//!
//! Per warp: a cycle counter `t`; per register (R, UR, P, UP) the cycle its fixed-latency result
//! is ready and the scoreboard of a pending variable-latency write; per register the scoreboard
//! of a pending late source read; a FIFO of events per scoreboard SB0–5.
//!
//! At each issued instruction: (1) its wait mask retires every event of the waited scoreboards;
//! (2) every source (guard, predicates, registers with their tuples, address registers) must be
//! ready (`ready_at <= t`) and not pending on a scoreboard (RAW); a destination must not be
//! pending on a scoreboard (WAW) nor protected by a pending read (WAR); (3) a fixed-latency
//! result becomes ready at `t + latency`; a variable-latency result is pending on the write
//! scoreboard (an instruction with none leaves it pending forever: reading it is a hazard); a
//! late-reading instruction with a read scoreboard protects its register sources until that
//! scoreboard is waited on (predicates, the guard included, are read at issue), except against
//! a later variable-latency instruction of the same in-order unit; (4) `t += max(stall, 1)`.
//! IMAD.WIDE reads the high word of its 64-bit addend 2 cycles after issue.
//!
//! Barrier settling (`ptxas_rs::target::HwFacts::barrier_settle`): after a `BAR`, an
//! instruction that is not fixed-latency pipe arithmetic (a memory access, a control transfer,
//! ...) issued less than 6 cycles later (5 on sm_75) is a hazard.
//!
//! Pipe throughput (`ptxas_rs::sched::class::pipe`, the scheduler's table, which this checker
//! validates on NVIDIA's code): a fixed-latency instruction occupies its execution pipe for a
//! number of cycles, and the next instruction for that pipe must not issue earlier (a
//! structural hazard; on an H200 our cubins that issued ALU instructions back to back lost
//! predicate and register results, `interp/gpu/README.md`). Issuing into a busy pipe is a
//! hazard.
//!
//! The state is per lane group: the executor keeps one per set of lanes that issued the same
//! stream ([`HazardState::merge`] joins them at reconvergence).
//!
//! Latencies (sm_90, chosen at or below the minima observed in ptxas output, §2.3, so NVIDIA's
//! code never reports a false hazard): 4 for ALU results, 6 for FP64 (fixed latency on sm_90),
//! 13 for a predicate consumed as any instruction's guard or by a branch/EXIT/BSYNC (ptxas never
//! guards an instruction less than 13 cycles after a fixed-latency instruction set the predicate:
//! 0 of the 2,360 guarded instructions, branches included, whose guard comes from a fixed-latency
//! instruction of the same block, over the 128 corpus kernels at -O3; on the H100 our guarded
//! `IADD3`/`MOV`/`STG` 5 cycles after their `ISETP` saw the predicate's old value; one cycle
//! more, 14, when a `DSETP` wrote the predicate, [`HazardState::fp64_pred_guard_extra`]), and 6 for
//! general registers an FP64 instruction reads from another pipe ([`FP64_EARLY_READ`]).
//!
//! Per SM ([`HazardState::for_sm`]): the model above is sm_90's; the measured per-SM figures
//! and yes/no facts are the compiler's [`HwFacts`] (one place, which the scheduler reads too),
//! and the rules that apply them stay here; for the sm_80 family (sm_80,
//! sm_86, sm_89) `R2UR` is variable latency and `CS2R` holds no ALU pipe slot, and on sm_86 and
//! sm_89 FP32 instructions do not wait for the FMA pipe an `IMAD` holds, each as NVIDIA's code
//! for those SMs shows. sm_75 (Turing) takes the sm_80 family's model with four differences
//! its NVIDIA code shows: a fixed-latency predicate reaches a guard or branch after 12 cycles
//! (§2.3), a `BAR` settles in 5 cycles, uniform address registers are read at issue (not
//! protected by a read scoreboard; so on sm_90 and later too), and `SHFL` completes in order with shared loads. `ERRBAR`
//! (any SM) waits for the warp's fixed-latency results. sm_100 is sm_90's model (its `LDCU` is
//! a variable-latency constant load, and `CREDUX` a fixed-latency one of [`CREDUX_LATENCY`]);
//! sm_120 is sm_100's with FP64 arithmetic variable latency (its uniform sources read at issue)
//! and ALU and uniform-ALU instructions holding no pipe.
//!
//! A waiting `BAR` (not `.ARV`) completes when the warp's earlier memory instructions have read
//! their operands and its earlier shared loads issued without a scoreboard have their data
//! (Triton's sm_80/sm_90 code reads such a load's result after a `BAR.SYNC` with no wait).
//!
//! mbarrier initialisation (`SYNCS.EXCH.64`) must carry a write scoreboard, waited on before the
//! next `BAR` or mbarrier operation ([`HazardState::mbarrier_init`]); `R2UR`'s uniform result is
//! ready after `ptxas_rs::sched::latency::R2UR_LATENCY` (13) cycles.
//!
//! Invariant: the checker only reads the lowered instruction; it never changes execution.

use super::program::{AtomOp, Inst, Kind, Opnd, Space};
use ptxas_rs::sched::class::{PIPES, issues_before_barrier_settles, pipe, settles_after_barrier};
use ptxas_rs::target::HwFacts;

/// Where a register lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// R0–R254.
    R(u8),
    /// UR0–UR62.
    Ur(u8),
    /// P0–P6.
    P(u8),
    /// UP0–UP6.
    Up(u8),
}

impl std::fmt::Display for Reg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reg::R(n) => write!(f, "R{n}"),
            Reg::Ur(n) => write!(f, "UR{n}"),
            Reg::P(n) => write!(f, "P{n}"),
            Reg::Up(n) => write!(f, "UP{n}"),
        }
    }
}

const NONE: u8 = 0xff;
/// A pending variable-latency write with no scoreboard.
const UNTRACKED: u8 = 0xfe;

fn slot(r: Reg) -> usize {
    match r {
        Reg::R(n) => n as usize,
        Reg::Ur(n) => 256 + n as usize,
        Reg::P(n) => 320 + n as usize,
        Reg::Up(n) => 328 + n as usize,
    }
}

const SLOTS: usize = 336;

/// Per-warp hazard state.
#[derive(Clone, Debug)]
pub struct HazardState {
    t: u64,
    // The per-register tables are arrays, not vectors: a lane group that splits off copies
    // the state (`exec::LaneHazards`), which is then one copy without allocations.
    ready: [u64; SLOTS],
    ready_branch: [u64; SLOTS],
    /// Per register: the cycle an FP64 instruction may read it ([`FP64_EARLY_READ`]).
    ready_fp64: [u64; SLOTS],
    /// Per register: the cycle an `HMMA`/`IMMA` may read or rewrite it ([`MMA_CHAIN_LATENCY`]).
    ready_mma: [u64; SLOTS],
    /// Per register: whether its pending fixed-latency write is an `HMMA`/`IMMA`'s (a write by
    /// anything else before it lands is a WAW hazard).
    mma_write: [bool; SLOTS],
    wsb: [u8; SLOTS],
    /// Per register with a pending scoreboarded write: the write's guard (predicate slot or
    /// `usize::MAX`, negated) and its issue sequence ([`HazardState::complementary_write`]).
    wguard: [(usize, bool, u64); SLOTS],
    /// Per predicate (P0–P6, UP0–UP6 by `slot - 320`): the sequence of its last write.
    pred_written: [u64; 16],
    rsb: [u8; SLOTS],
    /// Per register: the in-order unit of the instruction whose pending read `rsb` records.
    rsb_unit: [u8; SLOTS],
    /// Per scoreboard: (register slot or `usize::MAX`, is a read, issue sequence, unit).
    events: [Vec<(usize, bool, u64, u8)>; 6],
    /// Variable-latency writes issued without a write scoreboard: (slot, unit, sequence). They
    /// complete no later than a later instruction of the same unit (the units complete in
    /// order), so a wait on that one retires them.
    untracked: Vec<(usize, u8, u64)>,
    seq: u64,
    /// Per [`Pipe`]: the first cycle it accepts another instruction.
    pipe_free: [u64; PIPES],
    /// The first cycle after the last `BAR` that anything but pipe arithmetic may issue.
    bar_settle: u64,
    /// The measured facts of the code's SM (sm_90's by default): see [`HazardState::for_sm`].
    hw: HwFacts,
    /// Warpgroup MMA state ([`Gmma`]).
    gmma: Gmma,
    /// Per scoreboard: whether an mbarrier initialisation (`SYNCS.EXCH.64`) completing on it is
    /// pending ([`HazardState::mbarrier_init`]).
    init_pending: [bool; 6],
}

/// Cycles from an `HGMMA` committing its group (`gsb0`) to a `WARPGROUP.DEPBAR` that waits on
/// it ([`ptxas_rs::sched::latency::GSB_SETTLE`]: 1 cycle gave stale accumulators on the H100,
/// ptxas leaves 8).
/// The checker requires the least distance NVIDIA's code shows, not the scheduler's 8: over
/// NVIDIA's -O3 cubins of the wild corpus (ptxas 13.0.88, every `HGMMA ..., gsb0` followed in
/// its block by a `WARPGROUP.DEPBAR`), the distances are 3 (10 times: Triton's bmm_f16 0x1390,
/// `HGMMA` stall 1, `IMAD` stall 2, then the wait), 5, 6, 7, 8 and more; 1 cycle is a true
/// hazard (H100, above).
const GSB_SETTLE: u64 = 3;
const _: () = assert!(GSB_SETTLE <= ptxas_rs::sched::latency::GSB_SETTLE);

/// The hazard checker's view of the asynchronous warpgroup MMAs (`HGMMA`, PTX
/// `wgmma.mma_async`): an `HGMMA` writes its accumulator registers asynchronously, so they are
/// pending from issue until a `WARPGROUP.DEPBAR.LE gsb0, n` retires the group it belongs to
/// (the `HGMMA`s up to and including one with `gsb0` form a group; PTX `wgmma.commit_group`).
/// Any other instruction reading or writing a pending register is a hazard; an `HGMMA` may
/// (PTX: accumulating into the same registers across `wgmma.mma_async`s of one shape needs no
/// wait). And PTX requires a `wgmma.fence` (`WARPGROUP.ARRIVE`) before the first `HGMMA` and
/// between any other access to a general register and an `HGMMA` using it as its accumulator:
/// an `HGMMA` whose accumulator was read or written by another instruction since the last
/// `WARPGROUP.ARRIVE`, or with no `WARPGROUP.ARRIVE` before it, is a hazard. The checker does
/// not model the asynchronous shared-memory reads (a store to the operands before the wait).
#[derive(Clone, Debug, Default)]
struct Gmma {
    /// Accumulator slots of `HGMMA`s not yet in a committed group.
    open: Vec<usize>,
    /// Committed groups, oldest first: their accumulator slots.
    groups: Vec<Vec<usize>>,
    /// General registers (a bit per R slot) accessed by instructions other than `HGMMA` since
    /// the last `WARPGROUP.ARRIVE`.
    touched: [u64; 4],
    /// Whether a `WARPGROUP.ARRIVE` was issued.
    arrived: bool,
    /// Issue cycle of the last `HGMMA` that committed its group (`gsb0`).
    committed_at: Option<u64>,
}

impl Gmma {
    fn pending(&self, s: usize) -> bool {
        self.open.contains(&s) || self.groups.iter().any(|g| g.contains(&s))
    }

    fn issue(&mut self, inst: &Inst, t: u64) -> Result<(), String> {
        let (rd, wr) = (&inst.regs.0, &inst.regs.1);
        match inst.kind {
            Kind::WarpgroupArrive => {
                self.touched = [0; 4];
                self.arrived = true;
            }
            Kind::WarpgroupDepbar(n) => {
                // The group's scoreboard takes effect some cycles after the committing HGMMA
                // issues; a wait sooner passes at once ([`GSB_SETTLE`]).
                if let Some(c) = self.committed_at
                    && t < c + GSB_SETTLE
                {
                    return Err(format!(
                        "WARPGROUP.DEPBAR {} cycle(s) after the HGMMA committing its group, which needs {GSB_SETTLE} \
                         (the wait passes before the group is registered: missing stall)",
                        t - c
                    ));
                }
                let keep = usize::from(n).min(self.groups.len());
                self.groups.drain(..self.groups.len() - keep);
            }
            Kind::Hgmma { gsb, .. } => {
                if !self.arrived {
                    return Err("HGMMA with no WARPGROUP.ARRIVE before it (missing wgmma.fence)".into());
                }
                for r in rd.iter().chain(wr).filter(|r| matches!(r, Reg::R(_))) {
                    let s = slot(*r);
                    if self.touched[s / 64] >> (s % 64) & 1 == 1 {
                        return Err(format!(
                            "{r}, an HGMMA accumulator, accessed since the last WARPGROUP.ARRIVE (missing wgmma.fence)"
                        ));
                    }
                }
                for r in wr {
                    if !self.open.contains(&slot(*r)) {
                        self.open.push(slot(*r));
                    }
                }
                if gsb {
                    self.groups.push(std::mem::take(&mut self.open));
                    self.committed_at = Some(t);
                }
            }
            _ => {
                let idle = self.open.is_empty() && self.groups.is_empty();
                for r in rd.iter().chain(wr) {
                    let s = slot(*r);
                    if !idle && self.pending(s) {
                        return Err(format!(
                            "{r} accessed while an HGMMA writing it is pending (missing WARPGROUP.DEPBAR)"
                        ));
                    }
                    if matches!(r, Reg::R(_)) {
                        self.touched[s / 64] |= 1 << (s % 64);
                    }
                }
            }
        }
        Ok(())
    }

    fn merge(&mut self, other: &Gmma) {
        for s in &other.open {
            if !self.open.contains(s) {
                self.open.push(*s);
            }
        }
        let n = self.groups.len().max(other.groups.len());
        let mut groups = vec![Vec::new(); n];
        for g in [&self.groups, &other.groups] {
            // Align the newest groups: a wait keeps the newest.
            for (i, grp) in g.iter().enumerate() {
                groups[n - g.len() + i].extend(grp.iter().copied());
            }
        }
        self.groups = groups;
        for (t, o) in self.touched.iter_mut().zip(other.touched) {
            *t |= o;
        }
        self.arrived &= other.arrived;
    }
}

impl Default for HazardState {
    fn default() -> Self {
        HazardState {
            t: 0,
            ready: [0; SLOTS],
            ready_branch: [0; SLOTS],
            ready_fp64: [0; SLOTS],
            ready_mma: [0; SLOTS],
            mma_write: [false; SLOTS],
            wsb: [NONE; SLOTS],
            wguard: [(usize::MAX, false, 0); SLOTS],
            pred_written: [0; 16],
            rsb: [NONE; SLOTS],
            rsb_unit: [0xff; SLOTS],
            events: Default::default(),
            untracked: Vec::new(),
            seq: 0,
            pipe_free: [0; PIPES],
            bar_settle: 0,
            hw: HwFacts::SM90,
            gmma: Gmma::default(),
            init_pending: [false; 6],
        }
    }
}

/// What the checker needs of one instruction for code of one SM that depends only on the
/// instruction (its pipe, latency, completion unit, ...): [`HazardState::issue`] derives it at
/// every issue, the executor once per program ([`Facts::new`], [`HazardState::issue_with`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    pipe: Option<(ptxas_rs::sched::class::Pipe, u64)>,
    settles: bool,
    late_preds: bool,
    fp64: bool,
    variable: bool,
    unit: u8,
    latency: u64,
    late_hi: Option<Reg>,
    late_read: bool,
    errbar: bool,
}

impl Facts {
    /// The facts of `inst` in code of SM `sm` (see [`HazardState::for_sm`]).
    pub fn new(sm: u32, inst: &Inst) -> Facts {
        Facts::of(&HazardState::for_sm(sm), inst)
    }

    /// The facts of `inst` under `h`'s model.
    fn of(h: &HazardState, inst: &Inst) -> Facts {
        let branch = is_branch(inst);
        let variable = h.variable(inst);
        Facts {
            pipe: h.pipe_of(inst),
            settles: settles_after_barrier(inst.base) && !issues_before_barrier_settles(inst.base),
            late_preds: branch || ptxas_rs::sched::latency::reads_preds_late(inst.base),
            fp64: is_fp64(inst),
            variable,
            unit: h.unit_of(inst),
            latency: latency(inst, &h.hw),
            late_hi: wide_addend_hi(inst),
            late_read: late_read(inst, variable),
            errbar: inst.base == "ERRBAR",
        }
    }
}

/// Whether `inst` produces its results through a scoreboard (variable latency) on sm_90.
pub fn variable_latency(inst: &Inst) -> bool {
    match &inst.kind {
        Kind::Ld { .. } | Kind::Ldc { .. } | Kind::Atom { .. } | Kind::Shfl(_) | Kind::Mufu(_) | Kind::MufuF16(_) => {
            // ULDC is fixed latency on sm_90.
            !(matches!(inst.kind, Kind::Ldc { .. }) && inst.base == "ULDC")
        }
        Kind::S2r => inst.base != "CS2R",
        Kind::Surface { store, .. } => !*store,
        Kind::F2i { .. } | Kind::F2iF16 { .. } | Kind::F2f { .. } | Kind::Fchk => true,
        // On the uniform datapath these are fixed latency (atom_64bit: `UPOPC UR6` read 4
        // cycles later with no scoreboard).
        Kind::Popc | Kind::Flo { .. } | Kind::Brev => !inst.base.starts_with('U'),
        Kind::I2f { .. } | Kind::I2fF16 { .. } => inst.base == "I2F",
        Kind::Redux { .. } => inst.base != "CREDUX",
        // `MOVM` (ptxas -O0: write SB0, the reader waits on it).
        Kind::Match { .. } | Kind::Frnd { .. } | Kind::Qspc(_) | Kind::Ldsm { .. } | Kind::Movm => true,
        // mbarrier operations return through a scoreboard (`SYNCS.ARRIVE.TRANS64.A1T0 R4` with
        // W0, the `PHASECHK` reading R5 waits on SB0 and writes its predicate with W0).
        Kind::MbarInit | Kind::MbarArrive { .. } | Kind::MbarTest | Kind::MbarArrive80 => true,
        // `B2R.RESULT` after `BAR.RED` (ptxas: `B2R.RESULT RZ, P1` with W0, the reader waits).
        Kind::B2r => true,
        _ => false,
    }
}

/// Whether `inst` returns its results through a scoreboard on the sm_80 family where sm_90
/// code has it fixed latency: `R2UR` (NVIDIA's sm_80 cubins give it a write scoreboard and wait
/// on it, e.g. cg_tiled_reduce's `R2UR P0, URZ, R3` with SB0, the `@!P0 BRA.DIV` 7 cycles later
/// waiting on SB0; on sm_90 ptxas reads its result at the fixed latency).
fn sm80_variable_latency(inst: &Inst) -> bool {
    matches!(inst.kind, Kind::R2ur)
}

/// The in-order completion queue of a variable-latency instruction.
fn unit(inst: &Inst) -> u8 {
    match &inst.kind {
        Kind::Ldc { .. } => 1,
        Kind::S2r => 2,
        // QSPC completes in order with shared loads: addr_exprs waits on a QSPC's scoreboard
        // and then reads the result of an earlier `LDS` issued without one.
        Kind::Ld { space: super::program::Space::Shared, .. } | Kind::Qspc(_) | Kind::Ldsm { .. } => 4,
        Kind::Ld { .. } | Kind::Atom { .. } | Kind::St { .. } | Kind::Ldgsts { .. } | Kind::Surface { .. } => 3,
        Kind::Stsm { .. } => 4,
        Kind::MbarInit
        | Kind::MbarArrive { .. }
        | Kind::MbarTest
        | Kind::MbarLdgstsArrive
        | Kind::MbarArrive80
        | Kind::MbarLdgstsArrive80
        | Kind::Ublkcp => 4,
        Kind::Shfl(_) | Kind::Redux { .. } | Kind::Match { .. } => 6,
        _ => 0,
    }
}

/// Whether `inst` may read its sources after issue (so a read scoreboard protects them), given
/// whether it is variable latency.
fn late_read(inst: &Inst, variable: bool) -> bool {
    matches!(
        inst.kind,
        Kind::St { .. }
            | Kind::Stsm { .. }
            | Kind::Atom { .. }
            | Kind::Ld { .. }
            | Kind::Ldgsts { .. }
            | Kind::Surface { .. }
            | Kind::Ublkcp
            | Kind::MbarLdgstsArrive
            | Kind::MbarLdgstsArrive80
    ) || variable
}

/// Whether `inst` transfers control (its predicates are read with the guard latency).
pub fn is_branch(inst: &Inst) -> bool {
    matches!(
        inst.kind,
        Kind::Bra { .. }
            | Kind::Brx
            | Kind::Call
            | Kind::CallReg
            | Kind::CallAbs
            | Kind::Ret
            | Kind::Exit
            | Kind::Bsync
            | Kind::Break
    )
}

/// Whether `inst` runs on the FP64 pipe (DADD/DMUL/DFMA/DSETP).
pub fn is_fp64(inst: &Inst) -> bool {
    matches!(inst.kind, Kind::Fp64 { .. } | Kind::Dsetp { .. })
}

/// Whether `inst` is FP64 arithmetic, which sm_75, the sm_80 family and sm_120 (unlike sm_90
/// and sm_100) return through a scoreboard ([`HwFacts::fp64_variable_latency`], where the
/// measurements are). Their uniform-register sources are read at issue (math_libdevice_f64 on
/// sm_120: `DFMA R24, R20, R8, UR6` with read SB2, then `UMOV.64 UR6` next with no wait).
fn fp64_arith(inst: &Inst) -> bool {
    matches!(inst.kind, Kind::Fp64 { .. } | Kind::Dsetp { .. } | Kind::DsetpMinMax { .. })
}

/// The guard predicate of `inst`, unless it is PT.
pub fn guard_reg(inst: &Inst) -> Option<Reg> {
    let g = inst.guard;
    (g.idx != 7).then_some(if g.uniform { Reg::Up(g.idx) } else { Reg::P(g.idx) })
}

/// Extra cycles (over the 4-cycle ALU latency) an FP64 instruction (DADD/DMUL/DFMA/DSETP) needs
/// before it reads a general register written by a fixed-latency instruction of another pipe (FP64 results forward to FP64
/// consumers at the FP64 latency: DFMA→DMUL at 6 cycles across a BSYNC in math_libdevice_f64). Measured: over the 128 corpus kernels (ptxas 13.0.88 -O3 sm_90) no
/// ALU→FP64 register dependency is closer than 6 cycles (62 pairs under 8 cycles; MOV→DMUL 7),
/// against 4 for every other consumer; and on the H100 our cubins of cvt_f64_f32 and
/// math_div_sqrt_f32 with `MOV R3, R0` 5 cycles before `DMUL R2, R6, R2` multiplied by the old
/// R3 (`interp/gpu/README.md`, run 4). Uniform registers (latency 2) are not affected (ULDC→DADD
/// at 2 cycles in f64_horner_scalar).
pub const FP64_EARLY_READ: u64 = 2;

/// Cycles over its producer's latency before a uniform predicate may guard an instruction:
/// ptxas guards `UIADD3` with `@!UP0` 5 cycles after `VOTEU.ALL UP0` (async_mbarrier 0x00d0 →
/// 0x00f0), where a general predicate needs 13 ([`ptxas_rs::sched::latency`]'s guard rule). The
/// shortest distance seen is what is modelled; the notes are silent.
const UP_GUARD_EXTRA: u64 = 3;

// The cycles before an `HMMA`/`IMMA` result may be read, or its destination written, by
// anything but another `HMMA`/`IMMA`, when the `HMMA` was issued with a stall of 1 or more (the
// tensor pipe does not interlock its results then), are `HwFacts::mma_result_latency`. Measured on
// the H100 (2026-11-27, runs 5 and 6 of `interp/gpu/README.md`): our -O3 tc_mma_bf16 /
// tc_wmma_{f16,s8,tf32} with readers 5 to 15 cycles after the `HMMA` read stale accumulators, and
// NVIDIA's -O0 tc_wmma_tf32 with its `HMMA` stalls patched from 0 to 1 or 4 gave 248 wrong
// elements of 2,048; ptxas's -O3 code (sm_80 family and sm_90, Triton's sm_80 PTX) reads at 24,
// the figure taken; our scheduler keeps 32 (`ptxas_rs::sched::latency::MMA_LATENCY`). Accumulator
// chains read sooner ([`MMA_CHAIN_LATENCY`]).

/// Cycles before one `HMMA`/`IMMA` may read (as its accumulator) or rewrite the result of an
/// earlier one: the shortest distance in ptxas 13.0.88's -O3 corpus code (16 cycles: the
/// accumulator chains of tc_wmma_tf32 and tc_wmma_s8), which runs correctly on the H100.
const MMA_CHAIN_LATENCY: u64 = 16;

/// Cycles before the result of an `HMMA`/`IMMA` issued with a stall of 0 may be read: such an
/// instruction waits for its result (ptxas's and our -O0 code read it on the next instruction
/// and run correctly on the H100; the same code with the stall patched to 1 does not).
const MMA_INTERLOCKED_LATENCY: u64 = 1;

/// Cycles before the uniform result of sm_100's `CREDUX` (a warp min/max into a uniform
/// register, which ptxas gives no scoreboard) may be read: the shortest distance in NVIDIA's
/// sm_100 -O3 corpus code, 13 cycles at each of its 13 reads within a block (atom_scopes
/// 0x0260 → 0x02a0, atomics_scoped 0x02c0 → 0x02f0, ...). The notes are silent.
const CREDUX_LATENCY: u64 = 13;

fn latency(inst: &Inst, hw: &HwFacts) -> u64 {
    let uniform_dst =
        inst.args.iter().any(|a| a.dst && matches!(a.o, Opnd::Ur(_))) || inst.preds.iter().any(|p| p.dst && p.uniform);
    match inst.kind {
        // sm_75's and Blackwell's tensor pipes are not modelled beyond the interlock (ptxas's
        // sm_75 code reads an `IMMA.8816` result in a chain after 10 cycles, an `HMMA`'s after
        // 29, its sm_100 code an `HMMA`'s after fewer than 32; no GPU run on either).
        Kind::Hmma { .. } | Kind::Imma { .. } if inst.control.stall == 0 || !hw.mma_result_latency_modelled => {
            MMA_INTERLOCKED_LATENCY
        }
        Kind::Hmma { .. } | Kind::Imma { .. } => hw.mma_result_latency,
        Kind::Fp64 { .. } | Kind::Dsetp { .. } => 6,
        Kind::Redux { .. } if inst.base == "CREDUX" => CREDUX_LATENCY,
        // General → uniform register (`ptxas_rs::sched::latency::R2UR_LATENCY` has the figures;
        // `R2UR P0, URZ, R3`'s predicate is read sooner, 7 cycles, in NVIDIA's sm_90 code).
        Kind::R2ur if inst.args.iter().any(|a| a.dst && matches!(a.o, Opnd::Ur(u) if u != 63)) => {
            ptxas_rs::sched::latency::R2UR_LATENCY
        }
        // `VOTEU` reads general predicates and runs beside them: its uniform predicate reaches
        // a general consumer a cycle after issue (Triton's matmul_f16_64x64x32, sm_90: `VOTEU.ANY
        // UP1, P0` with stall 1, then `PLOP3.LUT P0, PT, PT, PT, UP1, 0x80, 0x0`); as a guard it
        // still needs [`UP_GUARD_EXTRA`] more (ptxas guards with it 5 cycles later, never sooner).
        Kind::Vote(_) if inst.base == "VOTEU" => 1,
        _ if uniform_dst => 2,
        _ => 4,
    }
}

/// The high register of IMAD.WIDE's 64-bit addend (`Rc+1`), which the instruction reads two
/// cycles after issue: its high half runs two cycles after the low half (which is also why
/// the low result is ready 2 cycles earlier than the high one). ptxas lets an `IMAD.X`
/// producing `Rc+1` issue only 3 cycles (call_noinline 0x0570, smem_mixed_widths 0x0330) or 2
/// cycles (smem_mixed_widths 0x03b0) before the IMAD.WIDE, less than the 4-cycle ALU latency.
/// The notes (§2.3) give only the 4-cycle minimum; this read timing is inferred from that code.
fn wide_addend_hi(inst: &Inst) -> Option<Reg> {
    if !matches!(inst.kind, Kind::Imad { wide: true, .. }) {
        return None;
    }
    let a = inst.args.iter().rev().find(|a| !a.dst)?;
    match a.o {
        Opnd::R(r) if a.n == 2 && r < 254 => Some(Reg::R(r + 1)),
        _ => None,
    }
}

/// The registers an instruction reads and writes (tuples expanded, RZ/URZ/PT/UPT dropped).
pub fn regs(inst: &Inst) -> (Vec<Reg>, Vec<Reg>) {
    let mut rd = Vec::new();
    let mut wr = Vec::new();
    rd.extend(guard_reg(inst));
    for p in &inst.preds {
        if p.idx == 7 {
            continue;
        }
        let r = if p.uniform { Reg::Up(p.idx) } else { Reg::P(p.idx) };
        if p.dst { wr.push(r) } else { rd.push(r) }
    }
    for a in &inst.args {
        let list = if a.dst { &mut wr } else { &mut rd };
        match a.o {
            Opnd::R(r) if r != 255 => {
                for k in 0..a.n {
                    if let Some(x) = r.checked_add(k).filter(|x| *x != 255) {
                        list.push(Reg::R(x));
                    }
                }
            }
            Opnd::Ur(r) if r != 63 => {
                for k in 0..a.n {
                    if r + k < 63 {
                        list.push(Reg::Ur(r + k));
                    }
                }
            }
            Opnd::CIdx { reg, uniform: false, .. } if reg != 255 => rd.push(Reg::R(reg)),
            Opnd::CIdx { reg, uniform: true, .. } if reg < 63 => rd.push(Reg::Ur(reg)),
            Opnd::Mem { ra, wide, ur, ur64, .. } => {
                if ra != 255 {
                    rd.push(Reg::R(ra));
                    if wide && ra < 254 {
                        rd.push(Reg::R(ra + 1));
                    }
                }
                if ur != 63 {
                    rd.push(Reg::Ur(ur));
                    if ur64 && ur < 62 {
                        rd.push(Reg::Ur(ur + 1));
                    }
                }
            }
            _ => {}
        }
    }
    // A surface access reads its coordinates from `[Ra]` on: x, y, z, the layer.
    if let Kind::Surface { geom, .. } = inst.kind
        && let Some(Opnd::Mem { ra, .. }) = inst.args.iter().map(|a| a.o).find(|o| matches!(o, Opnd::Mem { .. }))
    {
        let words = geom.dims() + usize::from(geom.layered());
        for k in 1..words as u8 {
            if let Some(x) = ra.checked_add(k).filter(|x| *x != 255) {
                rd.push(Reg::R(x));
            }
        }
    }
    // A store's data operand and an atomic's sources are reads even when listed after the address.
    (rd, wr)
}

impl HazardState {
    /// The checker for code of SM `sm`. The sm_80 family (sm_80, sm_86, sm_89) differs from
    /// sm_90 ([`HazardState::default`]) where NVIDIA's sm_80-family cubins of the corpus show it:
    /// `R2UR` and FP64 arithmetic are variable latency ([`sm80_variable_latency`],
    /// [`fp64_arith`]), and `CS2R` occupies no ALU pipe
    /// slot (algo_nbody: `CS2R R4, SRZ` then `CS2R R6, SRZ` one cycle apart; on sm_90 CS2R holds
    /// the ALU pipe 2 cycles). On sm_86 and sm_89 (GA10x/AD10x: a second FP32 datapath) the FP32
    /// instructions (`FFMA`, `FMUL`, `FADD`, `FSWZADD`) do not wait for the FMA pipe an `IMAD`
    /// holds (ctrl_predicated sm_86: `IMAD.WIDE.U32` at 0x00f0 with stall 1, `FMUL` at 0x0100;
    /// sm_80 and sm_90 code never issues them so close). Everything else is sm_90's model (the
    /// notes give no sm_80 figures); NVIDIA's sm_80/86/89 -O3 corpus runs hazard-free under it
    /// (`tests/emu_sm80.rs`). sm_75 takes the sm_80 family's model with Turing's figures
    /// (`pred_guard_latency` 12, `barrier_settle` 5, uniform registers read at issue, `SHFL` in
    /// the shared-memory queue: `unit_of`); NVIDIA's sm_75 -O3 corpus runs hazard-free under it.
    /// sm_100 takes sm_90's model, and sm_120 sm_100's with FP64 arithmetic variable latency
    /// ([`fp64_arith`]) and no ALU/uniform-ALU pipe hold (`pipe_of`); NVIDIA's sm_100 and sm_120
    /// -O3 corpus code runs hazard-free under them (`tests/emu_blackwell.rs`).
    ///
    /// The figures and facts are [`HwFacts::for_sm`]'s (where each was measured is documented
    /// there); this checker keeps the rules that use them.
    pub fn for_sm(sm: u32) -> HazardState {
        HazardState { hw: HwFacts::for_sm(sm), ..HazardState::default() }
    }

    /// Cycles after a `BAR` before anything but pipe arithmetic
    /// ([`HwFacts::barrier_settle`]: 6, 5 on sm_75).
    fn barrier_settle(&self) -> u64 {
        self.hw.barrier_settle
    }

    /// The in-order completion queue of `inst` ([`unit`]); `SHFL` shares the shared-memory
    /// queue where [`HwFacts::shfl_in_shared_queue`] (sm_75).
    fn unit_of(&self, inst: &Inst) -> u8 {
        if self.hw.shfl_in_shared_queue && matches!(inst.kind, Kind::Shfl(_)) { 4 } else { unit(inst) }
    }

    /// Cycles from a fixed-latency predicate write to a guard or branch reading it
    /// ([`HwFacts::pred_guard_latency`]: 13, 12 on sm_75).
    fn pred_guard_latency(&self) -> u64 {
        self.hw.pred_guard_latency
    }

    /// Extra cycles over [`HazardState::pred_guard_latency`] before a predicate a `DSETP` wrote
    /// may guard an instruction or steer a branch ([`HwFacts::fp64_pred_guard_extra`]: 1, 3 on
    /// sm_75).
    fn fp64_pred_guard_extra(&self) -> u64 {
        self.hw.fp64_pred_guard_extra
    }

    /// Whether `inst` is variable latency on this SM: see [`variable_latency`]; `R2UR` on the
    /// sm_80 family ([`sm80_variable_latency`]); and FP64 arithmetic on sm_75, the sm_80 family
    /// and sm_120 ([`fp64_arith`]).
    pub fn variable(&self, inst: &Inst) -> bool {
        variable_latency(inst)
            || (self.hw.r2ur_variable_latency && sm80_variable_latency(inst))
            || (self.hw.fp64_variable_latency && fp64_arith(inst))
    }

    fn pipe_of(&self, inst: &Inst) -> Option<(ptxas_rs::sched::class::Pipe, u64)> {
        use ptxas_rs::sched::class::Pipe;
        // Where ALU and uniform-ALU instructions and SIMD/saturating `VIADD`s hold no pipe
        // (sm_120; the evidence is at [`HwFacts::alu_holds_no_pipe`]); the plain `VIADD` keeps
        // the FMA pipe.
        if self.hw.alu_holds_no_pipe
            && (matches!(pipe(inst.base), Some((Pipe::Alu | Pipe::Ualu, _)))
                || matches!(inst.kind, Kind::Viadd { lanes: 2 | 4, .. } | Kind::Viadd { sat: true, .. }))
        {
            return None;
        }
        if !self.hw.cs2r_holds_alu_pipe && inst.base == "CS2R" {
            return None;
        }
        if self.hw.dual_fp32 && matches!(inst.base, "FFMA" | "FMUL" | "FADD" | "FSWZADD") {
            return None;
        }
        pipe(inst.base)
    }

    /// Checks `inst` at issue and records its effects. `Err` describes the hazard.
    pub fn issue(&mut self, inst: &Inst) -> Result<(), String> {
        let f = Facts::of(self, inst);
        self.issue_with(inst, &f)
    }

    /// [`HazardState::issue`] with the instruction's [`Facts`] for this state's SM.
    pub fn issue_with(&mut self, inst: &Inst, f: &Facts) -> Result<(), String> {
        let c = inst.control;
        for k in 0..6 {
            if c.wait >> k & 1 == 1 {
                self.retire(k, usize::MAX);
            }
        }
        if let Kind::Depbar(sb @ 0..6, n) = inst.kind {
            self.retire(sb as usize, n as usize);
        }
        if let Kind::DepbarList(m) = inst.kind {
            for k in (0..6).filter(|k| m >> k & 1 == 1) {
                self.retire(k, 0);
            }
        }
        // `@!PT` fillers never execute and occupy no pipe.
        let never = inst.guard.idx == 7 && inst.guard.not;
        if let Some((p, hold)) = f.pipe.filter(|_| !never) {
            let free = self.pipe_free[p as usize];
            if self.t < free {
                return Err(format!(
                    "issued {} cycle(s) after the previous {p:?}-pipe instruction, which holds the pipe {} cycles \
                     (pipe throughput: missing stall)",
                    self.t + hold - free,
                    hold
                ));
            }
            self.pipe_free[p as usize] = self.t + hold;
        }
        if !never && self.t < self.bar_settle && f.settles {
            return Err(format!(
                "issued {} cycle(s) after a BAR, which needs {} before anything but pipe arithmetic \
                 (barrier not yet in effect: missing stall)",
                self.t + self.barrier_settle() - self.bar_settle,
                self.barrier_settle()
            ));
        }
        if matches!(inst.kind, Kind::Bar { .. }) {
            self.bar_settle = self.t + self.barrier_settle();
            // The barrier completes only after the warp's earlier memory instructions have read
            // their operands (cg_block_float: `STS [R12+UR4], R19` with read SB2, `BAR.SYNC`,
            // then UR4 rewritten with no wait on SB2). The notes are silent; ptxas relies on it.
            self.drop_reads(None, |_, unit| matches!(unit, 3 | 4));
            // A waiting barrier (not `.ARV`) also completes the warp's earlier shared loads
            // issued without a scoreboard: bar.sync orders shared memory, so their data has
            // arrived when it releases. NVIDIA's Triton code relies on it (attn_bwd_preprocess,
            // sm_80 and sm_90: `LDS.128 R4, [R41+0x10]` with no write scoreboard, `BAR.SYNC`,
            // R7 read 30 instructions later with no wait).
            if matches!(inst.kind, Kind::Bar { arv: false, .. }) {
                self.complete_untracked(|unit, _| unit == 4);
            }
        }
        let (rd, wr) = (&inst.regs.0, &inst.regs.1);
        let late_hi = f.late_hi;
        let guard = guard_reg(inst);
        let fp64 = f.fp64;
        let late_preds = f.late_preds;
        let mma = matches!(inst.kind, Kind::Hmma { .. } | Kind::Imma { .. });
        for (j, r) in rd.iter().enumerate() {
            let s = slot(*r);
            let is_pred = matches!(r, Reg::P(_) | Reg::Up(_));
            // `regs` lists the guard first. A guard, like a branch's predicate, needs the long
            // predicate latency.
            let is_guard = j == 0 && guard == Some(*r);
            let ready = if is_guard || (late_preds && is_pred) { self.ready_branch[s] } else { self.ready[s] };
            // FP64 instructions read the results of other pipes a cycle early.
            let ready = if fp64 && matches!(r, Reg::R(_)) { ready.max(self.ready_fp64[s]) } else { ready };
            // A tensor-pipe instruction reads an earlier one's result sooner.
            let ready = if mma && !is_guard { self.ready_mma[s] } else { ready };
            // IMAD.WIDE reads the high word of its 64-bit addend two cycles after issue.
            let t = if Some(*r) == late_hi { self.t + 2 } else { self.t };
            if ready > t {
                return Err(format!(
                    "{r} read {} cycle(s) before its fixed-latency producer's result is ready (missing stall)",
                    ready - t
                ));
            }
            match self.wsb[s] {
                NONE => {}
                UNTRACKED => {
                    return Err(format!("{r} read while a variable-latency write without a scoreboard is pending"));
                }
                k => return Err(format!("{r} read while its producer is pending on SB{k} (missing wait on SB{k})")),
            }
        }
        for r in wr {
            let s = slot(*r);
            match self.wsb[s] {
                NONE | UNTRACKED => {}
                _ if self.complementary_write(s, inst) => {}
                k => return Err(format!("{r} written while an earlier write is pending on SB{k} (WAW, missing wait)")),
            }
            let lands = if mma { self.ready_mma[s] } else { self.ready[s] };
            if self.mma_write[s] && lands > self.t + if f.variable { 0 } else { f.latency } {
                return Err(format!(
                    "{r} written {} cycle(s) before an earlier HMMA/IMMA result lands in it (WAW, missing stall)",
                    lands - self.t
                ));
            }
            // A variable-latency instruction of the same in-order unit as the pending reader reads
            // its own sources, and so writes its results, only after that earlier read
            // (observed: a run of SHFLs with one read SB, a later SHFL overwriting an earlier
            // one's source with no wait). The notes are silent on this; ptxas relies on it.
            // Loads and stores share one in-order memory queue in this sense (async_cp_async:
            // `STG [R16.64], R19` with a read SB, then `LDS R16` with no wait on it).
            // The warp-shuffle unit (6: SHFL, REDUX, MATCH) is fed by the same in-order queue
            // for its sources (its results complete on their own, `unit`): NVIDIA's code writes
            // a shared store's pending source with a later SHFL and no wait (Triton's
            // attn_bwd_preprocess at -O3, sm_90a: `STS.128 [R42+UR4], R16` with read SB0, then
            // `SHFL.BFLY PT, R19, R35, 0x1, 0x1f` two instructions later with write SB3, no wait
            // on SB0).
            let memory = |u: u8| matches!(u, 3 | 4 | 6);
            let same_unit = f.variable
                && f.unit != 0
                && (self.rsb_unit[s] == f.unit || (memory(f.unit) && memory(self.rsb_unit[s])));
            if self.rsb[s] != NONE && !same_unit {
                return Err(format!(
                    "{r} written while a pending read on SB{} still needs it (WAR, missing wait)",
                    self.rsb[s]
                ));
            }
        }
        self.gmma.issue(inst, self.t)?;
        self.mbarrier_init(inst, never)?;
        // Effects.
        if f.variable {
            // A generic ATOM's "performed" predicate (`ATOM.E.ADD.F32... P0, R17, ...`) comes
            // with its *read* scoreboard: ptxas's `@P0 BRA` waits on the ATOM's read SB, not
            // its write SB (atom_generic_float -O3: ATOM rb 1 wb 5, the branch waits on SB1, at
            // 0x0120 and 0x0310). Without a read SB it is untracked (any read is reported).
            // Only the generic ATOM's: sm_100's `ATOMS.CAST.SPIN P0, ...` gives its success flag
            // with its *write* scoreboard (`@!P0 BRA` waits on it; emu_blackwell's atom_shared).
            let atom_pred = |r: &Reg| {
                matches!(inst.kind, Kind::Atom { space: Space::Generic, op, .. } if op != AtomOp::CasSpin)
                    && matches!(r, Reg::P(_))
            };
            for r in wr.iter().filter(|r| atom_pred(r)) {
                let s = slot(*r);
                match c.read_sb.filter(|k| *k < 6) {
                    Some(k) => {
                        self.wsb[s] = k;
                        self.events[k as usize].push((s, false, self.seq, 0xff));
                    }
                    None => {
                        self.wsb[s] = UNTRACKED;
                        self.untracked.push((s, f.unit, self.seq));
                    }
                }
            }
            let wr: Vec<Reg> = wr.iter().copied().filter(|r| !atom_pred(r)).collect();
            let wr = &wr;
            match c.write_sb {
                Some(k) if k < 6 => {
                    let g = guard_reg(inst).map_or(usize::MAX, slot);
                    for r in wr {
                        let s = slot(*r);
                        self.wsb[s] = k;
                        self.wguard[s] = (g, inst.guard.not, self.seq);
                        self.events[k as usize].push((s, false, self.seq, f.unit));
                    }
                    if wr.is_empty() {
                        self.events[k as usize].push((usize::MAX, false, self.seq, f.unit));
                    }
                }
                _ => {
                    for r in wr {
                        self.wsb[slot(*r)] = UNTRACKED;
                        self.untracked.push((slot(*r), f.unit, self.seq));
                    }
                }
            }
        } else {
            let lat = f.latency;
            let wide_lo = matches!(inst.kind, Kind::Imad { wide: true, .. });
            for (i, r) in wr.iter().enumerate() {
                let s = slot(*r);
                self.wsb[s] = NONE;
                // IMAD.WIDE writes its low word earlier (observed: consumed 3 cycles later).
                let lat = if wide_lo && i == 0 { 2 } else { lat };
                self.ready[s] = self.t + lat;
                self.ready_branch[s] = self.t
                    + match r {
                        Reg::P(_) if fp64 => self.pred_guard_latency() + self.fp64_pred_guard_extra(),
                        Reg::P(_) => self.pred_guard_latency(),
                        Reg::Up(_) => lat + UP_GUARD_EXTRA,
                        _ => lat,
                    };
                self.ready_fp64[s] = self.t + lat + if fp64 { 0 } else { FP64_EARLY_READ };
                self.ready_mma[s] =
                    if mma && lat > MMA_CHAIN_LATENCY { self.t + MMA_CHAIN_LATENCY } else { self.t + lat };
                self.mma_write[s] = mma;
            }
            if let Some(k) = c.write_sb.filter(|k| *k < 6) {
                // A fixed-latency op may still set a scoreboard (e.g. BAR, BSSY); count it.
                self.events[k as usize].push((usize::MAX, false, self.seq, 0xff));
            }
        }
        if let Some(k) = c.read_sb.filter(|k| *k < 6) {
            // Predicates (the guard included) are read at issue; only register sources are read
            // late (observed: `@!P0 STS.64 [R6], R10` with a read SB, then P0 overwritten by
            // the next instructions with no wait, in algo_bitonic_sort and others).
            // On sm_75 and sm_90 on, uniform registers are read at issue too (`HwFacts::
            // uniform_read_at_issue`: `LDG.E.SYS R7, [R4.64+UR4]` on sm_75, `STS [UR4+0x8], R2`
            // on sm_90, each with a read SB and the UR rewritten before any wait).
            let ur_at_issue = self.hw.uniform_read_at_issue || (self.hw.fp64_variable_latency && fp64_arith(inst));
            let late_ur = !ur_at_issue;
            let mut late = 0;
            if f.late_read {
                for r in rd.iter().filter(|r| matches!(r, Reg::R(_)) || (late_ur && matches!(r, Reg::Ur(_)))) {
                    let s = slot(*r);
                    self.rsb[s] = k;
                    self.rsb_unit[s] = f.unit;
                    self.events[k as usize].push((s, true, self.seq, f.unit));
                    late += 1;
                }
            }
            if late == 0 {
                self.events[k as usize].push((usize::MAX, true, self.seq, f.unit));
            }
        }
        // `ERRBAR` waits for the warp's earlier instructions to complete (it reports their errors),
        // so the fixed-latency results are ready after it: NVIDIA's sm_75 code issues
        // `VOTE.ANY R6`, `ERRBAR` with stall 0, then reads R6 (atomics_scoped 0x0280-0x02a0).
        if f.errbar && !never {
            let done = self.ready.iter().chain(&self.ready_branch).copied().max().unwrap_or(0);
            self.t = self.t.max(done.saturating_sub(u64::from(c.stall.max(1))));
        }
        if matches!(inst.kind, Kind::Call | Kind::CallReg | Kind::CallAbs | Kind::Ret) {
            for k in 0..6 {
                self.retire(k, usize::MAX);
            }
        }
        for r in wr.iter().filter(|r| matches!(r, Reg::P(_) | Reg::Up(_))) {
            self.pred_written[slot(*r) - 320] = self.seq;
        }
        self.t += u64::from(c.stall.max(1));
        self.seq += 1;
        Ok(())
    }

    /// Whether `inst` writes slot `s` under the complement of the guard of the pending
    /// scoreboarded write to it, the predicate unchanged since: no lane makes both writes, so
    /// it is not a WAW (NVIDIA's sm_90 -O3 code of corpus mbarrier_guarded:
    /// `@!P1 SYNCS.ARRIVE.TRANS64.ART0 R2, ...` with write SB1, then `@P1 SYNCS.ARRIVE.TRANS64.A1T0
    /// R2, ...` next, no wait). The newer write's scoreboard then stands for the register (a
    /// reader is checked against it only: a small loss of precision, never a false report).
    fn complementary_write(&self, s: usize, inst: &Inst) -> bool {
        let (g, not, seq) = self.wguard[s];
        let Some(mine) = guard_reg(inst).map(slot) else { return false };
        g != usize::MAX && g == mine && not != inst.guard.not && self.pred_written[g - 320] < seq
    }

    /// mbarrier initialisation (`SYNCS.EXCH.64 URZ, [URa], URb`, PTX `mbarrier.init`) completes
    /// asynchronously, announced on its write scoreboard: a barrier (`BAR`) or mbarrier
    /// operation (`SYNCS`, `ARRIVES`, `UBLKCP`) issued before that scoreboard is waited on may
    /// reach the barrier word before the initialisation (this warp's, or, past the `BAR`,
    /// another warp's). ptxas always gives it a write scoreboard and waits on it before the
    /// next `BAR` or mbarrier operation (async_bulk_mbarrier, async_mbarrier, async_cg_memcpy, at
    /// -O0 and -O3). Measured on the H100: our -O3 cubins that issued it with no write
    /// scoreboard failed at the next `SYNCS.ARRIVE` ("Unknown Error", async_bulk_mbarrier +0x1c0,
    /// async_mbarrier +0x270). Either is reported here. Another initialisation is no use of a
    /// pending one (ptxas issues two back to back).
    fn mbarrier_init(&mut self, inst: &Inst, never: bool) -> Result<(), String> {
        if never {
            return Ok(());
        }
        let init = inst.base == "SYNCS" && matches!(inst.kind, Kind::MbarInit);
        let sync = matches!(inst.kind, Kind::Bar { .. }) || matches!(inst.base, "SYNCS" | "ARRIVES" | "UBLKCP");
        // Initialisations of several barriers may be in flight together (ptxas: two
        // `SYNCS.EXCH.64` back to back, one wait before the `BAR`; corpus mbarrier_drop_tx).
        if sync
            && !init
            && let Some(k) = self.init_pending.iter().position(|&p| p)
        {
            return Err(format!(
                "{} issued while an mbarrier initialisation (SYNCS.EXCH) is pending on SB{k} \
                 (missing wait: the barrier may be used before it is initialised)",
                inst.base
            ));
        }
        if init {
            match inst.control.write_sb {
                Some(k) if k < 6 => self.init_pending[k as usize] = true,
                _ => {
                    return Err("SYNCS.EXCH (mbarrier.init) without a write scoreboard: its completion cannot \
                                be waited on before the barrier is used"
                        .into());
                }
            }
        }
        Ok(())
    }

    /// Makes `self` the conservative union of `self` and `other` (two lane groups reconverging):
    /// the later cycle, each register's longer remaining latency, every pending write and read
    /// and every scoreboard event of either. A hazard in the union is a hazard of some lane.
    pub fn merge(&mut self, other: &HazardState) {
        let t = self.t.max(other.t);
        let (ts, to) = (self.t, other.t);
        for (mine, theirs) in [
            (&mut self.ready, &other.ready),
            (&mut self.ready_branch, &other.ready_branch),
            (&mut self.ready_fp64, &other.ready_fp64),
        ] {
            for (x, &y) in mine.iter_mut().zip(theirs) {
                *x = t + x.saturating_sub(ts).max(y.saturating_sub(to));
            }
        }
        for s in 0..SLOTS {
            if self.wsb[s] == NONE {
                self.wsb[s] = other.wsb[s];
                self.wguard[s] = other.wguard[s];
            } else if other.wsb[s] != NONE && other.wguard[s] != self.wguard[s] {
                // Different pending writes: no complement is known.
                self.wguard[s] = (usize::MAX, false, 0);
            }
        }
        for (x, &y) in self.pred_written.iter_mut().zip(&other.pred_written) {
            *x = (*x).max(y);
        }
        for s in 0..SLOTS {
            if self.rsb[s] == NONE {
                self.rsb[s] = other.rsb[s];
                self.rsb_unit[s] = other.rsb_unit[s];
            }
        }
        for p in 0..PIPES {
            let rem = |st: &HazardState| st.pipe_free[p].saturating_sub(st.t);
            self.pipe_free[p] = t + rem(self).max(rem(other));
        }
        self.bar_settle = t + self.bar_settle.saturating_sub(self.t).max(other.bar_settle.saturating_sub(other.t));
        self.t = t;
        for k in 0..6 {
            self.events[k].extend(other.events[k].iter().copied());
            // Events from before the split are in both: keep one of each.
            self.events[k].sort_by_key(|e| (e.2, e.0, e.1, e.3));
            self.events[k].dedup();
        }
        self.untracked.extend(other.untracked.iter().copied());
        self.untracked.sort_by_key(|u| (u.2, u.0, u.1));
        self.untracked.dedup();
        self.seq = self.seq.max(other.seq);
        self.gmma.merge(&other.gmma);
        for (x, y) in self.init_pending.iter_mut().zip(other.init_pending) {
            *x |= y;
        }
    }

    /// Drops the pending read events (of every scoreboard but `except`) for which `drop(issue
    /// sequence, unit)` holds: their instructions have read their sources.
    fn drop_reads(&mut self, except: Option<usize>, drop: impl Fn(u64, u8) -> bool) {
        let mut slots = Vec::new();
        for (k, ev) in self.events.iter_mut().enumerate() {
            if Some(k) == except {
                continue;
            }
            ev.retain(|&(s, read, seq, unit)| {
                let gone = read && drop(seq, unit);
                if gone {
                    slots.push(s);
                }
                !gone
            });
        }
        for s in slots {
            self.refresh_rsb(s);
        }
    }

    /// Recomputes the pending-read scoreboard of register slot `s` after read events were
    /// dropped: another late reader of it may still be pending on another SB.
    fn refresh_rsb(&mut self, s: usize) {
        if s == usize::MAX || self.rsb[s] == NONE {
            return;
        }
        let events = &self.events;
        self.rsb[s] = (0..6u8).find(|&j| events[j as usize].iter().any(|e| e.0 == s && e.1)).unwrap_or(NONE);
    }

    /// Completes the pending untracked (no scoreboard) writes for which `done(unit, seq)` holds
    /// (their in-order unit and issue sequence number).
    fn complete_untracked(&mut self, done: impl Fn(u8, u64) -> bool) {
        let wsb = &mut self.wsb;
        self.untracked.retain(|&(s, unit, seq)| {
            let done = done(unit, seq);
            if done && wsb[s] == UNTRACKED {
                wsb[s] = NONE;
            }
            !done
        });
    }

    /// Retires events of scoreboard `k` (oldest first) until at most `keep` remain
    /// (`usize::MAX`: all).
    fn retire(&mut self, k: usize, keep: usize) {
        let keep = if keep == usize::MAX { 0 } else { keep };
        let ev = &mut self.events[k];
        let n = ev.len().saturating_sub(keep);
        if n == 0 {
            return;
        }
        let retired: Vec<_> = ev.drain(..n).collect();
        if ev.is_empty() {
            self.init_pending[k] = false;
        }
        // An instruction reads its sources before it writes its results: once a write of it
        // is complete, so are its reads, whatever scoreboard they are on (atom_scopes: a
        // `SHFL` with read SB0 and write SB1, then its source rewritten after a wait on SB1 only).
        let done: Vec<u64> = retired.iter().filter(|e| !e.1).map(|e| e.2).collect();
        if !done.is_empty() {
            self.drop_reads(Some(k), |seq, _| done.contains(&seq));
        }
        for (s, read, seq, u) in retired {
            if !read && u != 0xff {
                // Earlier untracked results of the same in-order unit are complete too, and a
                // warp shuffle's completes the shared loads issued before it (both leave through
                // the shared-memory pipe in order: NVIDIA's Triton rowmax_argmax, sm_80 and sm_90,
                // `LDS.128 R12` with no scoreboard, `SHFL.BFLY` with SB3, a wait on SB3, then R12
                // read with no other wait).
                self.complete_untracked(|uu, useq| (uu == u || (u == 6 && uu == 4)) && useq < seq);
            }
            if s == usize::MAX {
                continue;
            }
            if read {
                self.refresh_rsb(s);
            } else if self.wsb[s] == k as u8 {
                self.wsb[s] = NONE;
            }
        }
    }
}
