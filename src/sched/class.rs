//! What the scheduler needs to know about one SASS instruction: whether its results arrive
//! through a scoreboard (variable latency), whether it may read its register sources after
//! issue (so a read scoreboard must protect them), and whether it transfers control.
//!
//! The classes are keyed on the mnemonic base (and, where it matters, the modifier suffix) and
//! come from measured ptxas 13.0.88 sm_90 output (`shared/notes/digest-backend.md` §2.2, and
//! the -O0 control words of the whole corpus: every instruction in [`Class::VarResult`] carries
//! `W0:R1`, every one in [`Class::LateRead`] `R1`, everything else neither).
//!
//! [`pipe`] gives the execution pipe of a fixed-latency instruction and how long it holds it.
//!
//! Per SM, only what [`HwFacts`] states differs: FP64 arithmetic (`DADD`, `DMUL`, `DFMA`,
//! `DSETP`) is variable latency on sm_75, the sm_80 family and sm_120
//! ([`HwFacts::fp64_variable_latency`]), and so is `R2UR` on sm_75 and the sm_80 family
//! ([`HwFacts::r2ur_variable_latency`]), and `HMMA`/`IMMA` on sm_75
//! ([`HwFacts::mma_variable_latency`]); ptxas 13.0.88 gives them `W0:R1` at -O0 there, and
//! the emulator's hazard checker reads the same facts.
//!
//! Invariant: classification is total — every instruction gets exactly one [`Class`]; bases
//! not listed are fixed latency.

use crate::sass::Instruction;
use crate::target::HwFacts;

/// The scheduling class of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Fixed latency: results are ready a known number of cycles after issue.
    Fixed,
    /// Variable latency with results (loads, S2R, MUFU, conversions, ...): the results are
    /// announced through a write scoreboard, and the sources may be read late.
    VarResult,
    /// No register result but sources read after issue (stores, reductions, barriers).
    LateRead,
}

/// Bases whose results come through a scoreboard on sm_90.
const VAR_RESULT: &[&str] = &[
    "ATOM",
    "ATOMG",
    "ATOMS",
    "B2R",
    "BREV",
    "F2F",
    "F2I",
    "FCHK",
    "FLO",
    "FRND",
    "I2F",
    "LD",
    "LDC",
    // sm_100 on: the uniform constant load replacing `ULDC` (digest-backend.md §2.2).
    "LDCU",
    "LDG",
    "LDGDEPBAR",
    "LDGSTS",
    "LDL",
    "LDS",
    "LDSM",
    "MATCH",
    "MOVM",
    "MUFU",
    "POPC",
    "QSPC",
    "REDUX",
    "S2R",
    "S2UR",
    "SHFL",
    "SYNCS",
    "SULD",
    // ptxas 13.0.88 gives `.TRY_ALLOC` write SB0 and its `PLOP3` waits on it.
    "USETMAXREG",
];

/// Bases without register results that read their sources late.
const LATE_READ: &[&str] =
    &["ARRIVES", "BAR", "MEMBAR", "RED", "REDG", "ST", "STG", "STL", "STS", "STSM", "SUST", "UBLKCP", "UTMACCTL"];

/// Bases that transfer control or synchronise the warp.
const CONTROL: &[&str] = &["BRA", "BRX", "JMP", "JMX", "EXIT", "CALL", "RET", "BSYNC", "BREAK", "WARPSYNC", "KILL"];

/// The class of `inst` on an SM with the facts `hw`.
pub fn class(inst: &Instruction, hw: &HwFacts) -> Class {
    use crate::sass::Value;
    match inst.form.base {
        // FP64 arithmetic (the FP64 pipe's bases) where [`HwFacts::fp64_variable_latency`] holds.
        b if hw.fp64_variable_latency && pipe(b).is_some_and(|(p, _)| p == Pipe::Fp64) => Class::VarResult,
        "R2UR" if hw.r2ur_variable_latency => Class::VarResult,
        "HMMA" | "IMMA" if hw.mma_variable_latency => Class::VarResult,
        // BMOV R, B reads a convergence barrier through a scoreboard; BMOV B, R writes one
        // from a register read late.
        "BMOV" if matches!(inst.operands.first().map(|o| o.value), Some(Value::R(_))) => Class::VarResult,
        "BMOV" => Class::LateRead,
        // CCTL reads its address late (NVIDIA's -O0 code gives it read SB1); the whole-cache
        // operations (`CCTL.IVALL`, no address) read nothing, and nvdisasm rejects a read
        // scoreboard on them.
        "CCTL" if inst.form.slots.first().zip(inst.operands.first()).is_some_and(|(s, o)| s.shown(o, inst.residue)) => {
            Class::LateRead
        }
        "CCTL" => Class::Fixed,
        b => class_of(b),
    }
}

/// A fixed-latency execution pipe of an sm_90 SM sub-partition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pipe {
    /// Integer/logic ALU (IADD3, LOP3, SHF, LEA, ISETP, SEL, MOV, PRMT, FSETP, FMNMX, ...).
    Alu,
    /// The FMA pipe: FFMA/FMUL/FADD, and IMAD/VIADD (which hold it twice as long).
    Fma,
    /// FP64 (DFMA, DADD, DMUL, DSETP).
    Fp64,
    /// The uniform datapath's ALU (UIADD3, ULOP3, USHF, ULEA, UISETP, USEL, ...).
    Ualu,
}

/// The number of [`Pipe`]s.
pub const PIPES: usize = 4;

/// The pipe `base` issues to and the cycles it holds it (the minimum issue distance to the next
/// instruction for that pipe), for fixed-latency instructions whose throughput ptxas respects.
///
/// Measured on ptxas 13.0.88 -O3 sm_90 output for the 128 corpus kernels (15,419 instructions
/// of these classes): the issue distance from an instruction to the next one of the same pipe
/// is never below the occupancy given here, while other pairs issue 1 cycle apart (e.g. ALU
/// then IMAD, FFMA then FFMA, FFMA then IMAD: 193 of 393 FFMA→FFMA pairs are 1 apart; ALU→ALU:
/// 0 of 2,958; IMAD/VIADD→IMAD/VIADD/FFMA: 0 of 1,401). HFMA2-family instructions do not fit
/// either pipe (HMUL2 then HFMA2.MMA issue 1 apart) and are not classified.
pub fn pipe(base: &str) -> Option<(Pipe, u64)> {
    const ALU: &[&str] = &[
        "IADD3",
        "LOP3",
        "SHF",
        "LEA",
        "ISETP",
        "SEL",
        "FSEL",
        "PLOP3",
        "MOV",
        "IMNMX",
        "FMNMX",
        "PRMT",
        "P2R",
        "R2P",
        "FSETP",
        "VIMNMX",
        "IABS",
        "BMSK",
        "SGXT",
        "FSET",
        "ISET",
        "CS2R",
        "VIADDMNMX",
        "I2I",
        "I2FP",
        "F2FP",
        "I2IP",
        "VABSDIFF",
        "VABSDIFF4",
        "LOP",
        "SHL",
        "SHR",
    ];
    const UALU: &[&str] =
        &["UIADD3", "ULOP3", "USHF", "ULEA", "UISETP", "USEL", "UPRMT", "UIMAD", "UPLOP3", "USGXT", "UBMSK", "ULOP"];
    match base {
        b if ALU.contains(&b) => Some((Pipe::Alu, 2)),
        "IMAD" | "IMUL" | "VIADD" | "IDP" => Some((Pipe::Fma, 2)),
        "FFMA" | "FMUL" | "FADD" | "FSWZADD" => Some((Pipe::Fma, 1)),
        "DFMA" | "DADD" | "DMUL" | "DSETP" => Some((Pipe::Fp64, 2)),
        b if UALU.contains(&b) => Some((Pipe::Ualu, 2)),
        _ => None,
    }
}

/// Whether an instruction with base `base` must issue at least the target's barrier settle
/// ([`crate::target::HwFacts::barrier_settle`]) cycles after a preceding `BAR`: everything but
/// fixed-latency instructions of an execution pipe ([`pipe`]) and half-precision arithmetic (ptxas issues `HFMA2.MMA` 3 cycles after `BAR.SYNC` in
/// atomics_scoped; the half pipes' issue intervals are not in [`pipe`]'s table).
pub fn settles_after_barrier(base: &str) -> bool {
    const HALF: &[&str] = &["HFMA2", "HADD2", "HMUL2", "HMNMX2", "HSETP2", "HSET2"];
    pipe(base).is_none() && !HALF.contains(&base)
}

/// Whether `base` is a register-only instruction the hardware may issue before a preceding
/// `BAR` settles although [`settles_after_barrier`] holds it back: NVIDIA's sm_90 code issues
/// `R2UR` 3 cycles after `BAR.SYNC` (Triton's attn_fwd_causal_d128) and `HMMA` 1 to 4 cycles
/// after it (the sm_80 PTX of Triton's attn_fwd_d64, attn_bwd_dkdv, matmul_tf32x3). The
/// latency recipe keeps the wait (ptxas's -O0 control words match it); the hazard checker
/// does not require it.
pub fn issues_before_barrier_settles(base: &str) -> bool {
    matches!(base, "R2UR" | "HMMA" | "IMMA")
}

/// Whether `inst` never executes (guard `!PT`: the `@!PT LDS RZ, [RZ]` fillers ptxas places).
pub fn never_executes(inst: &Instruction) -> bool {
    use crate::sass::Value;
    inst.guard.not && matches!(inst.guard.value, Value::P(7) | Value::Up(7))
}

/// The class of a mnemonic base.
pub fn class_of(base: &str) -> Class {
    if VAR_RESULT.contains(&base) {
        Class::VarResult
    } else if LATE_READ.contains(&base) {
        Class::LateRead
    } else {
        Class::Fixed
    }
}

/// Whether `base` transfers control (branch, call, return, exit) or waits for other lanes.
pub fn is_control(base: &str) -> bool {
    CONTROL.contains(&base)
}

/// Whether `inst` is `BRA` to itself (the loop ptxas places after a kernel's code).
pub fn is_self_branch(inst: &Instruction) -> bool {
    use crate::sass::Value;
    inst.form.base == "BRA" && inst.operands.iter().any(|o| o.value == Value::Target(-16))
}

/// Where the padding tail of a decoded `.text` starts: the last `BRA` to itself when only
/// `NOP`s follow it; `insts.len()` when there is none.
pub fn tail_start(insts: &[Instruction]) -> usize {
    let mut i = insts.len();
    while i > 0 && insts[i - 1].form.base == "NOP" {
        i -= 1;
    }
    if i > 0 && is_self_branch(&insts[i - 1]) { i - 1 } else { insts.len() }
}
