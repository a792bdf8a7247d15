//! The hazard checker on hand-written instruction streams: each stream is given control words by
//! the scheduler (`ptxas_rs::sched`), must run hazard-free through
//! [`interp::emu::hazard::HazardState`], and must report a hazard at the expected instruction
//! once one wait bit is cleared. No NVIDIA tools are needed.

use interp::emu::hazard::HazardState;
use interp::emu::program::{Inst, lower};
use ptxas_rs::sched::{self, Recipe};
use ptxas_rs::target::Target;

/// `lines` parsed, scheduled by the latency recipe and lowered for the checker.
fn scheduled(lines: &[&str]) -> Vec<Inst> {
    let t = ptxas_rs::sass::tables_for("sm_90").unwrap();
    let mut v: Vec<_> = lines.iter().enumerate().map(|(i, l)| t.parse(l, 16 * i as u64).unwrap()).collect();
    let n = v.len();
    sched::assign(&mut v, n, Recipe::Latency, &Target::default());
    let banks = interp::emu::Banks::new();
    v.iter()
        .enumerate()
        .map(|(i, d)| {
            let w = t.encode(d).unwrap();
            let sfx = interp::emu::program::listing_suffix(&t.print(d, 16 * i as u64, None));
            lower(&t.decode(w).unwrap(), &sfx, 16 * i as u32, w, &banks)
        })
        .collect()
}

/// The first hazard of `insts` issued in order: (index, message).
fn first_hazard(insts: &[Inst]) -> Option<(usize, String)> {
    let mut st = HazardState::default();
    insts.iter().enumerate().find_map(|(i, x)| st.issue(x).err().map(|e| (i, e)))
}

/// Two late readers of R18 on different read scoreboards: after the second one's scoreboard is
/// waited on (the `MOV` overwriting the store's address R2), R18 is still protected by the first one's, so the
/// `FFMA` writing R18 without waiting on it is a hazard (the checker used to forget the first
/// reader, as the scheduler did: `sched::latency`'s test of the same stream).
#[test]
fn two_late_readers_of_one_register_both_protect_it() {
    let mut v = scheduled(&[
        "F2I.S64 R12, R18",
        "STG.E desc[UR4][R2.64], R18",
        "MOV R2, 0x1",
        "FFMA R18, R19, R16, R18",
        "EXIT",
    ]);
    assert_ne!(v[0].control.read_sb, v[1].control.read_sb);
    assert_eq!(first_hazard(&v), None);
    let first = v[0].control.read_sb.unwrap();
    v[3].control.wait &= !(1 << first);
    let (i, e) = first_hazard(&v).expect("the write of R18 must wait for the first F2I's read");
    assert_eq!(i, 3, "{e}");
    assert!(e.contains("R18") && e.contains("WAR"), "{e}");
}

/// `VOTE` reads its predicate like a guard: 13 cycles after the `ISETP` (on an H200 our cubin of
/// warp_vote balloted the old P0 when the VOTE issued 5 cycles after it). The scheduler keeps the
/// distance; with the ISETP's stall cut to 5 the checker reports the VOTE.
#[test]
fn vote_reads_its_predicate_13_cycles_after_the_setp() {
    let mut v = scheduled(&["ISETP.LT.U32.AND P0, PT, R9, R8, PT", "VOTE.ANY R13, PT, P0", "EXIT"]);
    assert_eq!(first_hazard(&v), None);
    assert!(v[0].control.stall >= 13, "{:?}", v[0].control);
    v[0].control.stall = 5;
    let (i, e) = first_hazard(&v).expect("a VOTE 5 cycles after its ISETP");
    assert_eq!(i, 1, "{e}");
    assert!(e.contains("P0 read"), "{e}");
}

/// `lines` (text, stall, write scoreboard, wait mask) parsed and encoded by `arch`'s tables with
/// exactly that control, and lowered for the checker.
fn with_control(arch: &str, lines: &[(&str, u8, Option<u8>, u8)]) -> Vec<Inst> {
    let t = ptxas_rs::sass::tables_for(arch).unwrap();
    let banks = interp::emu::Banks::new();
    lines
        .iter()
        .enumerate()
        .map(|(i, &(l, stall, write_sb, wait))| {
            let off = 16 * i as u64;
            let mut d = t.parse(l, off).unwrap_or_else(|e| panic!("{arch}: `{l}`: {e:?}"));
            d.control.stall = stall;
            d.control.write_sb = write_sb;
            d.control.read_sb = None;
            d.control.wait = wait;
            let w = t.encode(&d).unwrap();
            let sfx = interp::emu::program::listing_suffix(&t.print(&d, off, None));
            lower(&t.decode(w).unwrap(), &sfx, off as u32, w, &banks)
        })
        .collect()
}

/// The first hazard of `insts` issued in order under the model of SM `sm`.
fn first_hazard_on(sm: u32, insts: &[Inst]) -> Option<(usize, String)> {
    let mut st = HazardState::for_sm(sm);
    insts.iter().enumerate().find_map(|(i, x)| st.issue(x).err().map(|e| (i, e)))
}

/// sm_80 family: `R2UR` returns its predicate through a scoreboard (NVIDIA's sm_80 code of
/// cg_tiled_reduce: `R2UR P0, URZ, R3` with write SB0, the `@!P0 BRA.DIV` waiting on SB0). A
/// reader that waits is hazard-free; with the wait bit cleared it is a hazard on sm_80/86/89,
/// while sm_90's model (R2UR fixed latency, 7 cycles being enough) accepts it.
#[test]
fn sm80_r2ur_predicate_is_scoreboarded() {
    for arch in ["sm_80", "sm_86", "sm_89"] {
        let sm = arch[3..].parse().unwrap();
        let good = with_control(arch, &[("R2UR P0, URZ, R3", 7, Some(0), 0), ("SEL R4, R5, R6, P0", 1, None, 1)]);
        assert_eq!(first_hazard_on(sm, &good), None, "{arch}");
        let bad = with_control(arch, &[("R2UR P0, URZ, R3", 7, Some(0), 0), ("SEL R4, R5, R6, P0", 1, None, 0)]);
        let (i, e) = first_hazard_on(sm, &bad).unwrap_or_else(|| panic!("{arch}: unwaited R2UR result"));
        assert_eq!(i, 1, "{arch}: {e}");
        assert!(e.contains("P0") && e.contains("SB0"), "{arch}: {e}");
        assert_eq!(first_hazard_on(90, &bad), None, "sm_90's model keeps R2UR fixed latency");
    }
}

/// sm_86/sm_89 issue an FP32 instruction one cycle after an `IMAD` (ctrl_predicated sm_86:
/// `IMAD.WIDE.U32` with stall 1, then `FMUL`); on sm_80 and sm_90 the IMAD holds the FMA pipe
/// two cycles, so the same stream is a pipe hazard there.
#[test]
fn fp32_after_imad_one_cycle_apart_only_on_sm86_and_sm89() {
    for (arch, ok) in [("sm_80", false), ("sm_86", true), ("sm_89", true)] {
        let sm: u32 = arch[3..].parse().unwrap();
        let v = with_control(arch, &[("IMAD R4, R5, R6, RZ", 1, None, 0), ("FMUL R8, R9, R10", 1, None, 0)]);
        match first_hazard_on(sm, &v) {
            None => assert!(ok, "{arch}: an FMUL 1 cycle after an IMAD must be a pipe hazard"),
            Some((i, e)) => {
                assert!(!ok, "{arch}: {e}");
                assert_eq!(i, 1, "{arch}: {e}");
                assert!(e.contains("pipe"), "{arch}: {e}");
            }
        }
        // Two IMADs one cycle apart are a hazard on every arch.
        let v = with_control(arch, &[("IMAD R4, R5, R6, RZ", 1, None, 0), ("IMAD R8, R9, R10, RZ", 1, None, 0)]);
        assert!(first_hazard_on(sm, &v).is_some_and(|(i, e)| i == 1 && e.contains("pipe")), "{arch}");
    }
}

/// sm_80 family: `CS2R Rd, SRZ` occupies no ALU pipe slot (algo_nbody sm_80: two CS2R one cycle
/// apart); sm_90's model holds the ALU pipe 2 cycles for it.
#[test]
fn sm80_cs2r_back_to_back() {
    let v = with_control("sm_80", &[("CS2R R4, SRZ", 1, None, 0), ("CS2R R6, SRZ", 1, None, 0)]);
    assert_eq!(first_hazard_on(80, &v), None);
    let (i, e) = first_hazard_on(90, &v).expect("sm_90's model: CS2R holds the ALU pipe");
    assert_eq!(i, 1, "{e}");
}

/// sm_75: a fixed-latency predicate guards a branch 12 cycles after its producer (13 on the
/// sm_80 family and sm_90; NVIDIA's sm_75 code has `ISETP` with stall 12 before `@P0 EXIT`
/// throughout the corpus, `digest-backend.md` §2.1), and 11 is a hazard.
#[test]
fn sm75_predicate_reaches_a_branch_after_12_cycles() {
    let stream = |arch: &str, stall: u8| {
        with_control(arch, &[("ISETP.GE.U32.AND P0, PT, R0, R3, PT", stall, None, 0), ("@P0 EXIT", 5, None, 0)])
    };
    assert_eq!(first_hazard_on(75, &stream("sm_75", 12)), None);
    let (i, e) = first_hazard_on(75, &stream("sm_75", 11)).expect("11 cycles on sm_75");
    assert_eq!(i, 1, "{e}");
    assert!(e.contains("P0 read"), "{e}");
    let (i, e) = first_hazard_on(80, &stream("sm_80", 12)).expect("12 cycles on sm_80");
    assert_eq!(i, 1, "{e}");
}

/// sm_75: after `BAR.SYNC` a shared load may issue 5 cycles later (NVIDIA's sm_75 code of
/// algo_block_scan, smem_swizzle, ...), 4 is a hazard; the sm_80 family needs 6.
#[test]
fn sm75_barrier_settles_in_5_cycles() {
    let stream = |arch: &str, bar: &str, lds: &str, stall: u8| {
        with_control(arch, &[(bar, stall, None, 0), (lds, 1, Some(0), 0), ("EXIT", 5, None, 1)])
    };
    let sm75 = |stall| stream("sm_75", "BAR.SYNC 0x0", "LDS.U R4, [R2]", stall);
    assert_eq!(first_hazard_on(75, &sm75(5)), None);
    let (i, e) = first_hazard_on(75, &sm75(4)).expect("4 cycles on sm_75");
    assert_eq!(i, 1, "{e}");
    assert!(e.contains("BAR"), "{e}");
    let sm80 = stream("sm_80", "BAR.SYNC.DEFER_BLOCKING 0x0", "LDS R4, [R2]", 5);
    assert!(first_hazard_on(80, &sm80).is_some_and(|(i, _)| i == 1));
}

/// `HMMA` results are not interlocked when it issues with a stall of 1 or more (the H100, runs 5
/// and 6 of `interp/gpu/README.md`): a `MOV` reading the accumulator 15 cycles after it, or an
/// `IADD3` rewriting it, is a hazard; 32 cycles is not; another `HMMA` chaining on it after 16
/// (ptxas's accumulator chains) is not; with stall 0 the `HMMA` waits for its result (ptxas's
/// and our -O0 code read it on the next instruction).
#[test]
fn hmma_result_latency_and_interlock() {
    let hmma = "HMMA.16816.F32.BF16 R4, R8, R2, R4";
    let read = |stall: u8| with_control("sm_90", &[(hmma, stall, None, 0), ("MOV R20, R4", 1, None, 0)]);
    let (i, e) = first_hazard_on(90, &read(15)).expect("a read 15 cycles after the HMMA");
    assert_eq!(i, 1, "{e}");
    assert!(e.contains("R4 read"), "{e}");
    let padded = with_control(
        "sm_90",
        &[(hmma, 15, None, 0), ("NOP", 15, None, 0), ("NOP", 2, None, 0), ("MOV R20, R4", 1, None, 0)],
    );
    assert_eq!(first_hazard_on(90, &padded), None);
    assert_eq!(first_hazard_on(90, &read(0)), None, "stall 0: interlocked");
    let waw = with_control("sm_90", &[(hmma, 10, None, 0), ("IADD3 R5, R20, R21, RZ", 1, None, 0)]);
    let (i, e) = first_hazard_on(90, &waw).expect("R5 rewritten before the HMMA lands");
    assert_eq!(i, 1, "{e}");
    assert!(e.contains("WAW"), "{e}");
    let chain = with_control("sm_90", &[(hmma, 15, None, 0), ("NOP", 1, None, 0), (hmma, 1, None, 0)]);
    assert_eq!(first_hazard_on(90, &chain), None, "accumulator chain at 16 cycles");
    let short_chain = with_control("sm_90", &[(hmma, 8, None, 0), (hmma, 1, None, 0)]);
    assert!(first_hazard_on(90, &short_chain).is_some(), "accumulator chain at 8 cycles");
}

/// The latency recipe keeps an `HMMA` result 32 cycles from its reader, spreading the wait over
/// the `NOP`s the emitter leaves after it (a stall holds at most 15).
#[test]
fn scheduler_spreads_the_hmma_latency_over_its_nops() {
    let v = scheduled(&["HMMA.16816.F32.BF16 R4, R8, R2, R4", "NOP", "NOP", "MOV R20, R4", "EXIT"]);
    assert_eq!(first_hazard(&v), None);
    let gap: u32 = v[..3].iter().map(|x| u32::from(x.control.stall)).sum();
    assert!(gap >= 32, "{gap} cycles before the reader");
}

/// A predicate `DSETP` writes steers a branch 14 cycles after it, one more than an `ISETP`'s
/// (NVIDIA's -O3 code: never under 14 on sm_90 and sm_100, where FP64 is fixed latency). Our -O3 cubin of
/// math_libdevice_f64 had `@P0 BRA` 13 cycles after `DSETP.LTU.AND P0`, and on the H100 lanes
/// with |x| < 2^31 took the Payne–Hanek call and read `__cudart_i2opi_d` 512 MiB out of bounds
/// (2026-11-27). The scheduler now keeps 14 cycles; at 13 the checker reports the branch.
#[test]
fn dsetp_predicate_reaches_a_branch_after_14_cycles() {
    let lines = ["DSETP.LTU.AND P0, PT, R24, 2.14748364800000000000e+09, PT", "@P0 BRA 0x30", "MOV R2, 0x1", "EXIT"];
    let v = scheduled(&lines);
    assert_eq!(first_hazard(&v), None);
    assert!(v[0].control.stall >= 14, "{:?}", v[0].control);
    let stream = |arch: &str, stall: u8| with_control(arch, &[(lines[0], stall, None, 0), (lines[1], 5, None, 0)]);
    for sm in [90u32, 100] {
        let arch = format!("sm_{sm}");
        assert_eq!(first_hazard_on(sm, &stream(&arch, 14)), None, "{arch}");
        let (i, e) = first_hazard_on(sm, &stream(&arch, 13)).unwrap_or_else(|| panic!("{arch}: 13 cycles"));
        assert_eq!(i, 1, "{arch}: {e}");
        assert!(e.contains("P0 read"), "{arch}: {e}");
    }
    // Where FP64 arithmetic is variable latency (`HwFacts::fp64_variable_latency`: sm_75, the
    // sm_80 family, sm_120) a `DSETP` without a write scoreboard is a hazard at any distance.
    for sm in [75u32, 80, 86, 89, 120] {
        let arch = format!("sm_{sm}");
        let (i, e) = first_hazard_on(sm, &stream(&arch, 15)).unwrap_or_else(|| panic!("{arch}: no scoreboard"));
        assert_eq!(i, 1, "{arch}: {e}");
        assert!(e.contains("P0 read while a variable-latency write"), "{arch}: {e}");
        // With a write scoreboard the branch waits on, it is not.
        let waited = with_control(&arch, &[(lines[0], 1, Some(0), 0), (lines[1], 5, None, 1)]);
        assert_eq!(first_hazard_on(sm, &waited), None, "{arch}");
    }
    // An ISETP's predicate still needs only 13.
    let isetp = ["ISETP.GE.U32.AND P0, PT, R0, R3, PT", "@P0 BRA 0x30", "MOV R2, 0x1", "EXIT"];
    assert_eq!(scheduled(&isetp)[0].control.stall, 13);
}

/// `R2UR`'s uniform result is read 13 cycles after it at the earliest (ptxas's code); our -O3
/// async_cg_memcpy read it 5 cycles later and the H100 reported an out-of-range shared address
/// at the `ARRIVES` reading the stale register. The scheduler keeps 13 cycles; cut to 5, the
/// checker reports the read.
#[test]
fn r2ur_result_is_read_13_cycles_later() {
    let mut v = scheduled(&[
        "R2UR UR0, R17",
        "SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [UR0], RZ",
        "ARRIVES.LDGSTSBAR.64.TRANSCNT [UR0]",
        "EXIT",
    ]);
    assert!(v[0].control.stall >= 13, "{:?}", v[0].control);
    assert_eq!(first_hazard(&v), None);
    v[0].control.stall = 5;
    let (i, e) = first_hazard(&v).expect("UR0 read too early");
    assert_eq!(i, 1, "{e}");
    assert!(e.contains("UR0"), "{e}");
}

/// `SYNCS.EXCH.64` (`mbarrier.init`) completes on a write scoreboard that the next `BAR` (or
/// mbarrier operation) must wait on; with no scoreboard, or the wait cleared, the checker
/// reports it (on the H100 our -O3 cubins without the scoreboard failed at the next
/// `SYNCS.ARRIVE`: async_bulk_mbarrier, async_mbarrier).
#[test]
fn mbarrier_init_completes_before_the_barrier_is_used() {
    let mut v = scheduled(&[
        "FENCE.VIEW.ASYNC.S",
        "SYNCS.EXCH.64 URZ, [UR2], UR0",
        "WARPSYNC.ALL",
        "BAR.SYNC.DEFER_BLOCKING 0x0",
        "SYNCS.ARRIVE.TRANS64.A1T0 R2, [R10+URZ], RZ",
        "EXIT",
    ]);
    let k = v[1].control.write_sb.expect("the init has a write scoreboard");
    assert_eq!(first_hazard(&v), None);
    let mut cut = v.clone();
    for x in &mut cut[2..] {
        x.control.wait &= !(1 << k);
    }
    let (i, e) = first_hazard(&cut).expect("BAR before the init completed");
    assert_eq!(i, 3, "{e}");
    assert!(e.contains("mbarrier initialisation"), "{e}");
    v[1].control.write_sb = None;
    let (i, e) = first_hazard(&v).expect("init without a write scoreboard");
    assert_eq!(i, 1, "{e}");
    assert!(e.contains("without a write scoreboard"), "{e}");
}

/// `MEMBAR.ALL.CTA` (`fence.proxy.async.shared::cta`) gets a read scoreboard that the
/// `FENCE.VIEW.ASYNC.S` after it waits on, and the fence a write scoreboard the `BAR` waits on,
/// as ptxas gives them (tc_wgmma 0x0b90).
#[test]
fn proxy_fence_scoreboards_as_ptxas() {
    let v = scheduled(&[
        "STS [R4], R0",
        "MEMBAR.ALL.CTA",
        "FENCE.VIEW.ASYNC.S",
        "WARPSYNC.ALL",
        "BAR.SYNC.DEFER_BLOCKING 0x0",
        "EXIT",
    ]);
    let m = v[1].control.read_sb.expect("MEMBAR.ALL.CTA has a read scoreboard");
    assert_eq!(v[2].control.wait >> m & 1, 1, "{:?}", v[2].control);
    let f = v[2].control.write_sb.expect("FENCE.VIEW.ASYNC.S has a write scoreboard");
    assert!((v[3].control.wait | v[4].control.wait) >> f & 1 == 1);
    assert_eq!(first_hazard(&v), None);
}

/// A `WARPGROUP.DEPBAR` waits on a group only once the committing `HGMMA`'s group scoreboard
/// has registered: on the H100 our -O3 tc_wgmma with the wait 1 cycle after the `HGMMA` read
/// stale accumulators (1,531 of 1,536), with 11 cycles it was right; ptxas leaves 8, which the
/// scheduler keeps and the checker requires.
#[test]
fn warpgroup_depbar_waits_8_cycles_after_the_committing_hgmma() {
    let stream = |stall: u8| {
        with_control(
            "sm_90",
            &[
                ("WARPGROUP.ARRIVE", 6, None, 0),
                ("HGMMA.64x8x16.F32 R4, gdesc[UR0], R4, gsb0", stall, None, 0),
                ("WARPGROUP.DEPBAR.LE gsb0, 0x0", 4, None, 0),
                ("MOV R8, R6", 1, None, 0),
            ],
        )
    };
    assert_eq!(first_hazard_on(90, &stream(8)), None);
    let (i, e) = first_hazard_on(90, &stream(1)).expect("a wait 1 cycle after the HGMMA");
    assert_eq!(i, 2, "{e}");
    assert!(e.contains("DEPBAR"), "{e}");
    let v = scheduled(&[
        "WARPGROUP.ARRIVE",
        "HGMMA.64x8x16.F32 R4, gdesc[UR0], R4, gsb0",
        "WARPGROUP.DEPBAR.LE gsb0, 0x0",
        "MOV R8, R6",
        "EXIT",
    ]);
    assert_eq!(first_hazard(&v), None);
    assert!(v[1].control.stall >= 8, "{:?}", v[1].control);
}

/// A waiting `BAR` completes the warp's earlier shared loads issued without a scoreboard
/// (NVIDIA's Triton code, attn_bwd_preprocess on sm_80 and sm_90: `LDS.128 R4, [R41+0x10]` with
/// no write scoreboard, `BAR.SYNC`, R7 read later with no wait). Without the barrier, or with
/// `BAR.ARV` (which does not wait), the read is a hazard.
#[test]
fn waiting_barrier_completes_unscoreboarded_shared_loads() {
    for (arch, sm, bar) in [("sm_80", 80, "BAR.SYNC.DEFER_BLOCKING 0x0"), ("sm_90", 90, "BAR.SYNC.DEFER_BLOCKING 0x0")]
    {
        let stream = |bar: Option<&str>| {
            let mut v = vec![("LDS.128 R4, [R41+0x10]", 1, None, 0)];
            if let Some(b) = bar {
                v.push((b, 6, None, 0));
            }
            v.extend([("NOP", 13, None, 0), ("MOV R8, R7", 5, None, 0), ("EXIT", 5, None, 0)]);
            with_control(arch, &v)
        };
        assert_eq!(first_hazard_on(sm, &stream(Some(bar))), None, "{arch}");
        let (i, e) = first_hazard_on(sm, &stream(None)).unwrap_or_else(|| panic!("{arch}: no barrier"));
        assert!(i == 2 && e.contains("R7") && e.contains("without a scoreboard"), "{arch}: {i} {e}");
        if sm == 90 {
            // (The sm_80 family's table has no `BAR.ARV` with an immediate count.)
            let arv = first_hazard_on(sm, &stream(Some("BAR.ARV 0x0, 0x20")));
            assert!(arv.is_some_and(|(i, e)| i == 3 && e.contains("R7")), "{arch}: BAR.ARV does not wait");
        }
    }
}

/// `VOTEU`'s uniform predicate reaches a general consumer a cycle after issue (Triton's
/// matmul_f16_64x64x32 on sm_90: `VOTEU.ANY UP1, P0` with stall 1, then `PLOP3.LUT P0, PT, PT,
/// PT, UP1, 0x80, 0x0`), while a guard still waits 5 cycles (ptxas's `@!UP0 UIADD3` after
/// `VOTEU.ALL UP0`); another uniform producer (`UISETP`) still takes 2 cycles.
#[test]
fn voteu_predicate_reaches_a_general_consumer_in_one_cycle() {
    let run = |lines: &[(&str, u8, Option<u8>, u8)]| first_hazard_on(90, &with_control("sm_90", lines));
    let plop = "PLOP3.LUT P0, PT, PT, PT, UP1, 0x80, 0x0";
    assert_eq!(run(&[("VOTEU.ANY UP1, P0", 1, None, 0), (plop, 4, None, 0), ("EXIT", 5, None, 0)]), None);
    let guard = run(&[("VOTEU.ANY UP1, P0", 1, None, 0), ("@!UP1 UIADD3 UR5, UR5, 0x1, URZ", 4, None, 0)]);
    assert!(guard.is_some_and(|(i, _)| i == 1), "a guard needs 5 cycles");
    let uisetp = run(&[("UISETP.NE.AND UP1, UPT, UR4, URZ, UPT", 1, None, 0), (plop, 4, None, 0)]);
    assert!(uisetp.is_some_and(|(i, e)| i == 1 && e.contains("UP1")), "UISETP's result takes 2 cycles");
}

/// A warp shuffle completes in order after the shared loads issued before it: once its
/// scoreboard is waited on, an earlier `LDS` issued without one has its data (NVIDIA's Triton
/// rowmax_argmax, sm_80 and sm_90). Without the wait, or with the shuffle issued before the load,
/// the read is a hazard.
#[test]
fn shuffle_completion_completes_earlier_shared_loads() {
    for (arch, sm) in [("sm_80", 80), ("sm_90", 90)] {
        let lds = ("LDS.128 R12, [R3+0x10]", 4, None, 0);
        let shfl = ("SHFL.BFLY PT, R18, R19, 0x4, 0x1f", 1, Some(3), 0);
        let tail = |wait| [("NOP", 13, None, wait), ("MOV R8, R12", 5, None, 0), ("EXIT", 5, None, 0)];
        let good: Vec<_> = [lds, shfl].into_iter().chain(tail(1 << 3)).collect();
        assert_eq!(first_hazard_on(sm, &with_control(arch, &good)), None, "{arch}");
        let unwaited: Vec<_> = [lds, shfl].into_iter().chain(tail(0)).collect();
        let e = first_hazard_on(sm, &with_control(arch, &unwaited));
        assert!(e.as_ref().is_some_and(|(i, e)| *i == 3 && e.contains("R12")), "{arch}: {e:?}");
        let before: Vec<_> = [shfl, lds].into_iter().chain(tail(1 << 3)).collect();
        let e = first_hazard_on(sm, &with_control(arch, &before));
        assert!(e.as_ref().is_some_and(|(i, e)| *i == 3 && e.contains("R12")), "{arch}: {e:?}");
    }
}

/// The `HMMA` result latency is 24 cycles on the sm_80 family and sm_90 (ptxas's sm_80 and sm_90
/// code of Triton's sm_80 matmuls reads `HMMA.16816.F32` results 24 cycles after issue, never
/// sooner, e.g. `F2FP.PACK_AB R10, R23, R22` in matmul_f16_64x64x32): a read at 24 is
/// hazard-free, at 23 it is not.
#[test]
fn hmma_result_latency_is_24_cycles() {
    let hmma = "HMMA.16816.F32 R20, R48, R34, R20";
    let read = |arch: &str, first: u8| {
        with_control(
            arch,
            &[(hmma, first, None, 0), ("NOP", 15, None, 0), ("NOP", 8, None, 0), ("MOV R10, R23", 2, None, 0)],
        )
    };
    for (arch, sm) in [("sm_80", 80), ("sm_86", 86), ("sm_89", 89), ("sm_90", 90)] {
        assert_eq!(first_hazard_on(sm, &read(arch, 1)), None, "{arch}: 24 cycles");
        let e = first_hazard_on(
            sm,
            &with_control(
                arch,
                &[(hmma, 1, None, 0), ("NOP", 15, None, 0), ("NOP", 7, None, 0), ("MOV R8, R23", 2, None, 0)],
            ),
        );
        assert!(e.is_some_and(|(i, e)| i == 3 && e.contains("R23")), "{arch}: 23 cycles");
    }
}

/// `R2UR` and `HMMA` may issue 3 cycles after a `BAR.SYNC` (NVIDIA's sm_90 code for Triton's
/// attn_fwd_causal_d128: `BAR.SYNC.DEFER_BLOCKING 0x0`, `LEA`, `R2UR UR15, R125`), where a
/// memory access still waits for the barrier to settle.
#[test]
fn r2ur_need_not_wait_for_a_barrier_to_settle() {
    let stream = |second: &str| {
        with_control(
            "sm_90",
            &[
                ("BAR.SYNC.DEFER_BLOCKING 0x0", 1, None, 0),
                ("LEA R96, P0, R79, UR4, 0x1", 2, None, 0),
                (second, 13, None, 0),
            ],
        )
    };
    assert_eq!(first_hazard_on(90, &stream("R2UR UR15, R125")), None);
    // So may an `HMMA` (NVIDIA's sm_90 code of Triton's sm_80 attn_fwd_d64 and matmul_tf32x3).
    assert_eq!(first_hazard_on(90, &stream("HMMA.16816.F32 R20, R48, R34, R20")), None);
    let e = first_hazard_on(90, &stream("LDS R4, [R2]"));
    assert!(e.is_some_and(|(i, e)| i == 2 && e.contains("BAR")), "an LDS 3 cycles after the BAR");
}
