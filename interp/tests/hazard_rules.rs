//! The hazard checker on hand-written instruction streams: each stream is given control words by
//! the scheduler (`ptxas_rs::sched`), must run hazard-free through
//! [`interp::emu::hazard::HazardState`], and must report a hazard at the expected instruction
//! once one wait bit is cleared. No NVIDIA tools are needed.

use interp::emu::hazard::HazardState;
use interp::emu::program::{Inst, lower};
use ptxas_rs::sched::{self, Recipe};

/// `lines` parsed, scheduled by the latency recipe and lowered for the checker.
fn scheduled(lines: &[&str]) -> Vec<Inst> {
    let t = ptxas_rs::sass::tables_for("sm_90").unwrap();
    let mut v: Vec<_> = lines.iter().enumerate().map(|(i, l)| t.parse(l, 16 * i as u64).unwrap()).collect();
    let n = v.len();
    sched::assign(&mut v, n, Recipe::Latency);
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
