//! Register allocation (backend stage 4): the fat-point allocator, spilling to local memory,
//! and an independent symbolic checker of the result.
//!
//! | module | concept |
//! |---|---|
//! | [`liveness`] | per-block live sets and the live points of every virtual register |
//! | [`fatpoint`] | the fat-point assignment of one round (spec p32–p33, digest §3.4) |
//! | [`spill`] | spill code: slots in the local frame, reloads before uses, stores after defs |
//! | [`callee_save`] | a device function's saves and restores of the registers it writes, and its frame |
//! | [`check`] | the checker: abstract interpretation of the allocated code (regalloc2 style) |
//!
//! [`allocate_function`] works on either stage of Ori (PTX-stage or SASS-stage) and turns every
//! virtual register into a physical register or tuple; [`check`] proves, without looking at
//! any of the allocator's data structures, that the result reads the right values.
//!
//! # The algorithm
//!
//! Not graph colouring (digest §3.1): each round computes liveness, the *live points* of every
//! virtual register (two points per instruction: the read point, where its sources are
//! live, and the write point, where its destinations and everything live across it are), and
//! then assigns the virtual registers greedily in priority order: unspillable ones (spill
//! temporaries, predicates, uniform and barrier registers) first, then wider classes, then
//! denser ones (references per live point). For each, the pressure at its live points (the
//! union of the slots already occupied there, plus the reserved slots) decides: the first
//! zero-pressure slot aligned to the class (pairs on even registers, quads on multiples of 4)
//! wins, with copy/phi affinity as the tie-break (the "secondary" weight). There is no
//! backtracking. A spillable register with no free slot below the budget is marked; when the
//! round ends, every marked register is spilled everywhere (a slot in the frame, a reload into
//! a fresh short-lived temporary before each read, a store after each write) and the next round
//! starts from scratch; temporaries are never spilled, so the rounds terminate or fail with
//! [`Error::OutOfRegisters`].
//!
//! # Register budget and files
//!
//! | file | allocatable | reserved |
//! |---|---|---|
//! | R | `R0 .. R(max_regs-1)`, at most R254 | R1 (stack pointer) when [`Options::reserve_r1`]; RZ |
//! | UR | UR0–UR62 | URZ |
//! | P, UP | P0–P6, UP0–UP6 | PT, UPT |
//! | B, UB | B0–B15, UB0–UB15 | |
//!
//! [`Options::max_regs`] is the number of allocatable R registers (`R0 .. R(max_regs-1)`). The
//! budget a user gives (`--maxrregcount N`, `.maxnreg N`; a `.maxnreg` directive wins over the
//! command line unless `--override-directive-values` is given, digest §3.8) bounds the count
//! ptxas reports and writes to `EIATTR_REGCOUNT`, which is the highest R index touched plus one
//! plus **two** (notes: digest-backend "REGCOUNT rule", measured on sm_75..sm_120; ptxas
//! `--maxrregcount 32` keeps its code within R0..R29), so [`Options::from_budget`] maps a budget
//! N to `max_regs = N - 2`, and no budget to the architectural 255 - 2 = 253: a driver refuses
//! a kernel whose REGCOUNT is over 255.
//! Every physical register already present in the input (R1 written by the SASS prologue,
//! anything pre-coloured) is fixed: it is never handed out.
//!
//! # Spilling and the frame
//!
//! R registers spill to local memory; predicates spill to R registers (the P2R/R2P "bit spill"
//! of digest §3.7: `selp.u32 r, 1, 0, p` / `setp.ne.u32 p, r, 0` at the PTX stage,
//! `SEL r, RZ, 1, !p` / `ISETP.NE.U32.AND p, PT, r, RZ, PT` at the SASS stage, where `r` is an
//! ordinary R virtual register that may spill in turn); UR, UP and barrier registers are
//! allocated within their files or the allocation fails. Each spilled R register gets its own
//! slot, aligned to its width (4, 8 or 16 bytes); the spill area is `frame_bytes` long (a
//! multiple of 8, or 16 with quads). There is no rematerialisation and no slot sharing yet.
//! - **SASS stage** (`f.sass`): the frame is on the stack addressed off R1, as ptxas does it.
//!   The kernel prologue (the leading instructions of the entry block that write only R1:
//!   `LDC R1, c[0x0][0x28]` (or `MOV`) and any `IADD3 R1, R1, -F, RZ` frame of isel) is followed by one
//!   inserted `IADD3 R1, R1, -S, RZ`; slot `o` is `STL/LDL [R1 + F + o]`, so the spill area
//!   sits above the frame isel laid out and below the caller's stack pointer. Spilling at the
//!   SASS stage needs that prologue (a device function's is only `IADD3 R1, R1, -F, RZ`) and an
//!   entry block without predecessors. A SASS `CALL` reads the physical registers it
//!   names, writes its destinations and may change every *scratch* register of
//!   `lower::isel::call`'s ABI ([`crate::lower::isel::call::clobbered`]; [`callee_save`]
//!   makes callees keep the preserved ones): a value live across it is given a preserved
//!   register or spilled (a predicate to an R register), and spill slots survive it.
//! - **PTX stage**: PTX-stage frames grow upwards from local address 0 (the lowering's ABI,
//!   with callee frames after the caller's), so the spill area is placed at the top of the
//!   thread's local window, `st/ld.bN local[local_top - S + o]`. A value live across a call is
//!   never spilled (a callee's spill area is the same memory).
//!
//! # Invariants
//!
//! - After a successful [`allocate_function`]: `allocated == true`, `ssa == false`, no
//!   virtual register remains (the vreg table is emptied), every physical tuple is aligned to
//!   its width, every original instruction keeps its [`crate::ori::Inst`] id, block and order
//!   and differs only in its registers, and every inserted instruction is a spill store, a
//!   spill reload, a predicate bit spill or the SASS frame adjustment. [`check`] verifies all
//!   of it.
//! - Two virtual registers share a physical register at a point only if at most one of them is
//!   live there; a destination may reuse the register of a source that dies at the same
//!   instruction (every operand is read before any result is written); a guarded definition
//!   keeps its destination live across the instruction (it may not execute).
//! - Phis stay phis (with physical operands): their sources are live out of the predecessor,
//!   their destinations are defined together at the top of the block.
//! - On error the function is left unchanged.

pub mod callee_save;
pub mod check;
pub mod components;
pub mod fatpoint;
pub mod liveness;
pub mod spill;

use std::fmt;

use crate::ori::{Function, Inst, RegFile};

pub use check::{CheckError, check};
pub use components::split_components;

/// What the allocator may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The R budget: allocatable registers are `R0 .. R(max_regs - 1)` (clamped to R254).
    /// Set from `--maxrregcount` / `.maxnreg` as the budget minus the two registers ptxas's
    /// count adds (see [`Options::from_budget`]).
    pub max_regs: u32,
    /// Keep R1 out of the allocation (the stack pointer of the ABI). On by default.
    pub reserve_r1: bool,
    /// PTX stage only: the top of the per-thread local window the program runs with (the
    /// interpreter's `local_bytes`, the driver's stack size); the spill area ends there.
    pub local_top: u32,
    /// The most allocation rounds (each round after the first follows a round that spilled).
    pub max_rounds: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { max_regs: 255, reserve_r1: true, local_top: 1024, max_rounds: 16 }
    }
}

impl Options {
    /// The options for a budget given as ptxas takes it: `--maxrregcount` (CLI), `.maxnreg`
    /// (directive of the entry), and whether `--override-directive-values` lets the CLI win.
    /// Without either the budget is the architectural 255. The allocatable registers are the
    /// budget minus two (the reported count is the highest register + 1 + 2).
    pub fn from_budget(maxrregcount: Option<u32>, maxnreg: Option<u32>, override_directives: bool) -> Options {
        let budget = match (maxrregcount, maxnreg) {
            (Some(c), Some(_)) if override_directives => c,
            (_, Some(d)) => d,
            (Some(c), None) => c,
            (None, None) => 255,
        };
        Options { max_regs: budget.clamp(3, 255) - 2, ..Options::default() }
    }
}

/// What `ptxas -v` prints about a function, as far as allocation decides it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// R registers used, as ptxas counts them: the highest R index touched plus one (R1 and
    /// the upper halves of tuples included; RZ not).
    pub regs: u32,
    /// Uniform registers used (highest UR index plus one).
    pub uniform_regs: u32,
    /// Predicates used (highest P index plus one, PT excluded).
    pub preds: u32,
    /// Bytes of the spill area added to the stack frame.
    pub frame_bytes: u32,
    /// Bytes stored by spill stores (static count, as ptxas reports "bytes spill stores").
    pub spill_store_bytes: u32,
    /// Bytes loaded by spill reloads.
    pub spill_load_bytes: u32,
    /// Virtual registers spilled (over all rounds).
    pub spilled: usize,
    /// Allocation rounds run.
    pub rounds: u32,
}

/// Why allocation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The function uses a form the allocator does not handle.
    Unsupported {
        /// The instruction, printed, if one is to blame.
        inst: Option<String>,
        /// What is unsupported.
        message: String,
    },
    /// A register file is too small even after spilling everything spillable.
    OutOfRegisters {
        /// The file.
        file: RegFile,
        /// The budget for that file.
        budget: u32,
        /// Details.
        message: String,
    },
    /// The input is ill-formed (an unknown virtual register, a register of the wrong class).
    Invalid(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unsupported { inst: Some(i), message } => write!(f, "`{i}`: unsupported: {message}"),
            Error::Unsupported { inst: None, message } => write!(f, "unsupported: {message}"),
            Error::OutOfRegisters { file, budget, message } => {
                write!(f, "register allocation failed with a {} budget of {budget}: {message}", file.phys_prefix())
            }
            Error::Invalid(m) => write!(f, "invalid input: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// Prints one instruction of `f` (for messages).
pub(crate) fn show(f: &Function, i: Inst) -> String {
    crate::ori::print::inst_to_string(f, &f.insts[i])
}

/// Allocates registers of `f` (see the module doc). On success `f` is allocated and the report
/// says what it uses; on error `f` is unchanged.
pub fn allocate_function(f: &mut Function, opts: &Options) -> Result<Report, Error> {
    if f.allocated {
        return Ok(report_of(f, &spill::SpillStats::default(), 0));
    }
    precheck(f)?;
    let mut work = f.clone();
    let mut frame = spill::Frame::new(&work)?;
    let mut rounds = 0;
    let assignment = loop {
        rounds += 1;
        let live = liveness::Liveness::compute(&work);
        let round = fatpoint::assign(&work, &live, opts, &frame)?;
        if round.spilled.is_empty() {
            break round.assignment;
        }
        if rounds >= opts.max_rounds {
            return Err(Error::OutOfRegisters {
                file: RegFile::R,
                budget: opts.max_regs,
                message: format!("still spilling after {rounds} rounds"),
            });
        }
        frame.spill(&mut work, &round.spilled)?;
    };
    let stats = frame.finish(&mut work, opts)?;
    fatpoint::rewrite(&mut work, &assignment)?;
    let report = report_of(&work, &stats, rounds);
    *f = work;
    Ok(report)
}

/// Rejects what the allocator does not model.
fn precheck(f: &Function) -> Result<(), Error> {
    for r in &f.params {
        if let crate::ori::Reg::Virt(v) = r
            && !f.vregs.is_valid(*v)
        {
            return Err(Error::Invalid("an unknown virtual register among the parameters".into()));
        }
    }
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        for r in d.dsts.iter().copied().chain(d.uses()) {
            match r {
                crate::ori::Reg::Virt(v) if !f.vregs.is_valid(v) => {
                    return Err(Error::Invalid(format!("unknown virtual register in `{}`", show(f, i))));
                }
                crate::ori::Reg::Phys(p) if !p.is_zero() && p.check().is_err() => {
                    return Err(Error::Invalid(format!("an illegal physical register in `{}`", show(f, i))));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn report_of(f: &Function, stats: &spill::SpillStats, rounds: u32) -> Report {
    let mut top = [0u32; 6];
    let mut note = |r: crate::ori::Reg| {
        if let crate::ori::Reg::Phys(p) = r
            && !p.is_zero()
        {
            let k = RegFile::ALL.iter().position(|x| *x == p.file).unwrap_or(0);
            top[k] = top[k].max(u32::from(p.index) + u32::from(p.count));
        }
    };
    f.params.iter().copied().for_each(&mut note);
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        d.dsts.iter().copied().for_each(&mut note);
        d.uses().for_each(&mut note);
    }
    Report {
        regs: top[0],
        uniform_regs: top[1],
        preds: top[2],
        frame_bytes: stats.frame_bytes,
        spill_store_bytes: stats.store_bytes,
        spill_load_bytes: stats.load_bytes,
        spilled: stats.spilled,
        rounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ori::{PhysReg, Reg, parse_function};

    fn f(text: &str) -> Function {
        parse_function(text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    const STRAIGHT: &str = "func @f(%r0, %r1) -> (r32) {\nbb0:\n    %r2 = add.u32 %r0, %r1\n    %r3 = add.u32 %r0, 1\n    %r4 = add.u32 %r2, %r3\n    ret %r4\n}\n";

    /// A SASS-stage function packing `n` words into a wide tuple (`PACKW`), splitting it again
    /// (`UNPACKW`) and returning the sum of the first and last component; `extra` 32-bit values
    /// stay live across the tuple.
    fn wide_tuple_text(n: usize, extra: usize) -> String {
        let mut t = String::from("func @f(%r0) -> (r32) sass {\nbb0:\n");
        for k in 0..extra {
            t += &format!("    %r{} = IADD3 %r0, {}, RZ\n", 1000 + k, k + 1);
        }
        for k in 0..n {
            t += &format!("    %r{} = IADD3 %r0, {}, RZ\n", 1 + k, 100 + k);
        }
        let words: Vec<String> = (0..n).map(|k| format!("%r{}", 1 + k)).collect();
        t += &format!("    %rw{n}_500 = PACKW {}\n", words.join(", "));
        let outs: Vec<String> = (0..n).map(|k| format!("%r{}", 600 + k)).collect();
        t += &format!("    {} = UNPACKW %rw{n}_500\n", outs.join(", "));
        t += &format!("    %r900 = IADD3 %r600, %r{}, RZ\n", 600 + n - 1);
        for k in 0..extra {
            t += &format!("    %r900 = IADD3 %r900, %r{}, RZ\n", 1000 + k);
        }
        t + "    RET %r900\n}\n"
    }

    /// Wide tuples (6, 12, 32 registers) land on 4-aligned bases (the measured rule of
    /// `crate::ori::reg`), pass the checker, and one that cannot fit the budget is
    /// `OutOfRegisters` (wide tuples are not spilled), never a panic.
    #[test]
    fn wide_tuples_are_placed_aligned_or_fail_cleanly() {
        for n in [6usize, 12, 32] {
            let before = f(&wide_tuple_text(n, 3));
            let mut a = before.clone();
            allocate_function(&mut a, &Options::default()).unwrap();
            check(&before, &a).unwrap();
            let mut seen = 0;
            for (_, i) in a.inst_order() {
                for r in a.insts[i].dsts.iter().copied().chain(a.insts[i].uses()) {
                    if let Reg::Phys(p) = r
                        && p.count > 4
                    {
                        assert_eq!(usize::from(p.count), n);
                        assert_eq!(p.index % 4, 0, "{p}");
                        seen += 1;
                    }
                }
            }
            assert_eq!(seen, 2, "the PACKW and the UNPACKW name the tuple");
            // A budget below the tuple's width.
            let mut small = before.clone();
            let opts = Options { max_regs: n as u32 - 2, ..Options::default() };
            let e = allocate_function(&mut small, &opts).unwrap_err();
            assert!(matches!(e, Error::OutOfRegisters { .. }), "{e}");
        }
        // A tight budget: the tuple's 12 slots plus the few scalars live beside it.
        let before = f(&wide_tuple_text(12, 0));
        let mut a = before.clone();
        allocate_function(&mut a, &Options { max_regs: 16, ..Options::default() }).unwrap();
        check(&before, &a).unwrap();
    }

    #[test]
    fn budget_mapping_follows_ptxas() {
        // REGCOUNT = highest R + 1 + 2 must stay within the budget.
        assert_eq!(Options::from_budget(None, None, false).max_regs, 253);
        assert_eq!(Options::from_budget(Some(32), None, false).max_regs, 30);
        // A `.maxnreg` directive beats the command line unless overridden.
        assert_eq!(Options::from_budget(Some(32), Some(40), false).max_regs, 38);
        assert_eq!(Options::from_budget(Some(32), Some(40), true).max_regs, 30);
        assert_eq!(Options::from_budget(Some(1000), None, false).max_regs, 253);
    }

    #[test]
    fn hand_written_allocations_are_judged() {
        let before = f(STRAIGHT);
        let good = f(
            "func @f(R0, R2) -> (r32) allocated {\nbb0:\n    R3 = add.u32 R0, R2\n    R0 = add.u32 R0, 1\n    R0 = add.u32 R3, R0\n    ret R0\n}\n",
        );
        check(&before, &good).unwrap();
        // %r3 reuses R3 while %r2 (in R3) is still live.
        let clobber = f(
            "func @f(R0, R2) -> (r32) allocated {\nbb0:\n    R3 = add.u32 R0, R2\n    R3 = add.u32 R0, 1\n    R0 = add.u32 R3, R3\n    ret R0\n}\n",
        );
        let e = check(&before, &clobber).unwrap_err();
        assert!(e.message.contains("does not hold %r2"), "{e}");
        assert!(e.inst.as_deref() == Some("R0 = add.u32 R3, R3"), "{e}");
        // Two registers swapped at one use.
        let swap = f(
            "func @f(R0, R2) -> (r32) allocated {\nbb0:\n    R3 = add.u32 R2, R0\n    R0 = add.u32 R0, 1\n    R0 = add.u32 R3, R0\n    ret R0\n}\n",
        );
        assert!(check(&before, &swap).unwrap_err().message.contains("does not hold %r0"));
        // A pair where a single register belongs, and an unaligned pair.
        let wide = f("func @f(%rd0) -> (r64) {\nbb0:\n    %rd1 = add.u64 %rd0, 1\n    ret %rd1\n}\n");
        let mut odd = wide.clone();
        odd.allocated = true;
        odd.params[0] = Reg::Phys(PhysReg { file: RegFile::R, index: 3, count: 2 });
        assert!(check(&wide, &odd).is_err());
    }

    /// A SASS `CALL` (the `.func` ABI of `lower::isel::call`): the allocator keeps a value live
    /// across it out of the registers it names and out of the scratch registers, and the
    /// checker rejects an allocation that leaves it in one the call writes (R4, its result) or
    /// may change (a scratch register).
    #[test]
    fn values_live_across_a_call_avoid_its_registers() {
        let text = "func @f() sass {\nbb0:\n    R1 = IADD3 R1, -16, RZ\n    %r0 = MOV 0x7\n    %r1 = MOV 0x9\n    R4 = MOV %r1\n    R3 = MOV 0x0\n    R2 = MOV 0x0\n    R4 = CALL @g, R1, R2, R3, R4\n    %r2 = MOV R4\n    %r3 = IADD3 %r2, %r0, RZ\n    R4 = MOV %r3\n    RET R2, R3, R4\n}\n";
        let before = f(text);
        let mut a = before.clone();
        allocate_function(&mut a, &Options::default()).unwrap();
        check(&before, &a).unwrap();
        let shown: String =
            a.inst_order().map(|(_, i)| crate::ori::print::inst_to_string(&a, &a.insts[i]) + "\n").collect();
        let def = shown.lines().filter(|l| l.ends_with("= MOV 7")).collect::<Vec<_>>();
        assert_eq!(def.len(), 1, "{shown}");
        for line in def {
            for fixed in ["R1 ", "R2 ", "R3 ", "R4 "] {
                assert!(!line.trim_start().starts_with(fixed), "{shown}");
            }
        }
        // %r0 kept in R4, which the call overwrites.
        let bad = text
            .replace("%r0 = MOV 0x7", "R4 = MOV 0x7")
            .replace("%r3 = IADD3 %r2, %r0, RZ", "%r3 = IADD3 %r2, R4, RZ");
        let bad =
            bad.replace("%r1", "R0").replace("%r2", "R5").replace("%r3", "R6").replace("sass {", "sass allocated {");
        let e = check(&before, &f(&bad)).unwrap_err();
        assert!(e.message.contains("%r0"), "{e}");
        // The allocator put %r0 in a register the call preserves; the checker rejects a
        // scratch register the call does not name (R0, R7, R32) and accepts preserved ones.
        for line in shown.lines().filter(|l| l.ends_with("= MOV 7")) {
            let reg = line.trim_start().split(' ').next().unwrap_or_default();
            let k: u16 = reg.trim_start_matches('R').parse().unwrap_or(0);
            assert!(!crate::lower::isel::call::clobbered(RegFile::R, k), "{shown}");
        }
        for (reg, ok) in [("R0", false), ("R7", false), ("R32", false), ("R16", true), ("R36", true)] {
            let alloc = text
                .replace("%r0", reg)
                .replace("%r1", "R5")
                .replace("%r2", "R5")
                .replace("%r3", "R6")
                .replace("sass {", "sass allocated {");
            let r = check(&before, &f(&alloc));
            assert_eq!(r.is_ok(), ok, "{reg}: {r:?}");
            if let Err(e) = r {
                assert!(e.message.contains("%r0"), "{e}");
            }
        }
    }

    #[test]
    fn allocation_checks_and_spills() {
        let text = "func @g(%r0) -> (r32) {\nbb0:\n    %r1 = add.u32 %r0, 1\n    %r2 = add.u32 %r0, 2\n    %r3 = add.u32 %r0, 3\n    %r4 = add.u32 %r1, %r2\n    %r5 = add.u32 %r4, %r3\n    ret %r5\n}\n";
        let before = f(text);
        let mut a = before.clone();
        let r = allocate_function(&mut a, &Options::default()).unwrap();
        check(&before, &a).unwrap();
        // R0, R2, R3, R4 (R1 is reserved): "Used 5 registers".
        assert_eq!((r.regs, r.frame_bytes), (5, 0), "{a}");
        // R0 and R2 only: something must spill.
        let mut s = before.clone();
        let r = allocate_function(&mut s, &Options { max_regs: 3, ..Options::default() }).unwrap();
        check(&before, &s).unwrap();
        assert!(r.frame_bytes > 0 && r.spill_load_bytes > 0 && r.regs <= 3, "{r:?}\n{s}");
        crate::ori::verify_function(&s).unwrap();
        // Dropping any one reload breaks it, and the checker says so.
        let b = s.layout[0];
        let reloads: Vec<usize> = s.blocks[b]
            .insts
            .iter()
            .enumerate()
            .filter(|(_, i)| s.insts[**i].opcode == crate::ori::Opcode::Ld)
            .map(|(k, _)| k)
            .collect();
        assert!(!reloads.is_empty());
        for k in reloads {
            let mut bad = s.clone();
            bad.blocks[b].insts.remove(k);
            assert!(check(&before, &bad).is_err(), "dropping reload {k} is not caught\n{bad}");
        }
        // One register is too few for a two-operand add of distinct values.
        let mut t = before.clone();
        assert!(matches!(
            allocate_function(&mut t, &Options { max_regs: 1, ..Options::default() }),
            Err(Error::OutOfRegisters { .. })
        ));
        assert_eq!(t, before, "a failed allocation leaves the function unchanged");
    }

    #[test]
    fn fixed_registers_are_never_handed_out() {
        let before = f(
            "entry @k() sass {\nbb0:\n    R1 = MOV c[0x0][0x28]\n    %r0 = S2R SR_TID.X\n    %r1 = IADD3 %r0, R1, RZ\n    %r2 = IADD3 %r1, 0x1, RZ\n    %rd3 = IMAD.WIDE.U32 %r2, 0x4, RZ\n    STG.B32 global[%rd3], %r1\n    EXIT\n}\n",
        );
        for reserve in [true, false] {
            let mut a = before.clone();
            allocate_function(&mut a, &Options { reserve_r1: reserve, ..Options::default() }).unwrap();
            check(&before, &a).unwrap();
            let r1_defs = a
                .inst_order()
                .filter(|(_, i)| a.insts[*i].dsts.iter().any(|r| matches!(r, Reg::Phys(p) if p.index <= 1 && p.index + u16::from(p.count) > 1 && p.file == RegFile::R)))
                .count();
            assert_eq!(r1_defs, 1, "{a}");
        }
    }
}
