//! The mbarrier object (PTX `mbarrier`, SASS `SYNCS`): its 64-bit word in shared memory and
//! what each operation does to it. The Ori interpreter and the SASS emulator both use this
//! module, so an `mbarrier.arrive` returns the same state token in both.
//!
//! # Layout (the one ptxas's `mbarrier.init` sequence writes)
//!
//! For `count` expected arrivals ptxas stores the low word `(2^20 - count) << 1` and the high
//! word `(2^20 - count) << 11` (`UIADD3 UR4, -count, 0x100000`, two `USHF.L.U32`,
//! `SYNCS.EXCH.64`):
//!
//! - bits 43..=62 count arrivals up from `2^20 - expected`; the phase completes when they
//!   reach `2^20` (the field wraps to 0). ptxas reads the pending arrivals of a state token
//!   from this field (`mbarrier.pending_count`: `0x100000 - (hi >> 11 & 0xfffff)`), which is
//!   what places the counter here,
//! - bits 1..=20 hold `2^20 - expected` (what the arrival field reloads with; an
//!   `arrive_drop` lowers the expected count of this and every later phase),
//! - bit 63 is the phase parity: `try_wait.parity` and a state token's bit 63 compare with it
//!   (ptxas passes `parity << 31` as the high word of the token).
//!
//! Pending transactions (`expect_tx` bytes, `cp.async` copies tracked by the barrier) are kept
//! beside the word by the caller, per CTA and barrier address (the hardware keeps them in the
//! object; no code of the corpus reads them).
//!
//! # Invariants
//!
//! - A phase completes exactly when no arrival and no transaction is pending; it then flips
//!   the parity and reloads the arrival field from the expected count; bits 0, 21..=42 are
//!   never changed.
//! - An operation never arrives more often than the phase still expects (an error instead).

/// The width mask of the arrival and expected-count fields.
const FIELD: u64 = 0xF_FFFF;
/// `2^20`: the arrival field's wrap-around.
const TOP: u64 = 1 << 20;

/// The word `mbarrier.init` stores for `count` expected arrivals (32-bit arithmetic, as
/// ptxas's sequence computes it).
pub fn init_word(count: u32) -> u64 {
    let x = 0x10_0000u32.wrapping_sub(count);
    u64::from(x << 1) | u64::from(x << 11) << 32
}

/// The phase parity of an mbarrier word (0 or 1).
pub fn phase(word: u64) -> u32 {
    (word >> 63) as u32
}

/// Whether the phase a state token (an arrival's returned word, or `parity << 63` for the
/// `.parity` forms) names has completed: the barrier's parity differs from the token's.
pub fn phase_done(word: u64, token: u64) -> bool {
    phase(word) != phase(token)
}

/// Arrives `arrivals` times and adds `tx` pending transactions (negative: completes them) at
/// a barrier holding `word` with `pending_tx` transactions pending; returns the new word
/// (`pending_tx` updated). Errs when the phase expects fewer arrivals.
pub fn arrive(word: u64, pending_tx: &mut i64, arrivals: u32, tx: i64) -> Result<u64, String> {
    step(word, pending_tx, arrivals, tx, false)
}

/// `mbarrier.arrive_drop`: like [`arrive`], and the expected count of this and every later
/// phase drops by `arrivals` (the threads opt out). Errs as [`arrive`] does, and when fewer
/// arrivals are expected per phase.
pub fn arrive_drop(word: u64, pending_tx: &mut i64, arrivals: u32, tx: i64) -> Result<u64, String> {
    step(word, pending_tx, arrivals, tx, true)
}

/// The pending arrivals a state token records (`mbarrier.pending_count`, as ptxas computes
/// it: `0x100000 - (hi >> 11 & 0xfffff)`, 32-bit arithmetic).
pub fn pending_count(token: u64) -> u32 {
    0x10_0000u32.wrapping_sub(((token >> 43) & FIELD) as u32)
}

fn step(word: u64, pending_tx: &mut i64, arrivals: u32, tx: i64, drop: bool) -> Result<u64, String> {
    let mut expected = TOP - ((word >> 1) & FIELD);
    let mut pending = (TOP - ((word >> 43) & FIELD)) & FIELD;
    let mut parity = word >> 63;
    if u64::from(arrivals) > pending {
        return Err(format!("{arrivals} arrivals at an mbarrier whose phase expects {pending} more"));
    }
    if drop {
        if u64::from(arrivals) > expected {
            return Err(format!("{arrivals} arrivals dropped at an mbarrier expecting {expected} per phase"));
        }
        expected -= u64::from(arrivals);
    }
    pending -= u64::from(arrivals);
    *pending_tx += tx;
    if pending == 0 && *pending_tx == 0 {
        parity ^= 1;
        pending = expected & FIELD;
    }
    let keep = word & !(FIELD << 1) & !(FIELD << 43) & !(1 << 63);
    Ok(keep | ((TOP - expected) & FIELD) << 1 | ((TOP - pending) & FIELD) << 43 | parity << 63)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64, for random full-width operands.
    fn mix(s: &mut u64) -> u64 {
        *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn init_matches_ptxas_sequence() {
        // async_mbarrier: count 128 → UIADD3 0x100000 - 0x80 = 0xfff80, << 1 and << 11.
        assert_eq!(init_word(128), 0xfff80u64 << 1 | (0xfff80u64 << 11) << 32);
        assert_eq!(init_word(1), 0xfffffu64 << 1 | (0xfffffu64 << 11) << 32);
        assert_eq!(phase(init_word(1)), 0);
    }

    #[test]
    fn phases_complete_after_count_arrivals_and_flip_parity() {
        let mut s = 0x1234_5678_9abc_def0;
        for _ in 0..200 {
            let count = (mix(&mut s) % 300 + 1) as u32;
            let mut w = init_word(count);
            let mut tx = 0;
            for round in 0..3u64 {
                let token = w;
                for k in 0..count {
                    assert_eq!(phase(w) as u64, round & 1, "count {count} arrival {k}");
                    assert!(!phase_done(w, token));
                    w = arrive(w, &mut tx, 1, 0).unwrap();
                }
                assert!(phase_done(w, token), "count {count} round {round}");
                // The arrival field reloaded, the expected count and low bit unchanged.
                assert_eq!(w & !(1 << 63), init_word(count));
            }
        }
    }

    #[test]
    fn transactions_hold_the_phase() {
        let mut s = 0x0fed_cba9_8765_4321;
        for _ in 0..200 {
            let bytes = (mix(&mut s) >> 40) as i64 + 1;
            let mut w = init_word(1);
            let mut tx = 0;
            // arrive.expect_tx then complete_tx, and the other order.
            w = arrive(w, &mut tx, 1, bytes).unwrap();
            assert_eq!(phase(w), 0);
            w = arrive(w, &mut tx, 0, -bytes).unwrap();
            assert_eq!((phase(w), tx), (1, 0));
            w = arrive(w, &mut tx, 0, -bytes).unwrap();
            assert_eq!(phase(w), 1);
            w = arrive(w, &mut tx, 1, bytes).unwrap();
            assert_eq!((phase(w), tx), (0, 0));
        }
    }

    #[test]
    fn pending_count_reads_the_arrival_field() {
        let mut tx = 0;
        let mut w = init_word(5);
        assert_eq!(pending_count(w), 5);
        w = arrive(w, &mut tx, 2, 0).unwrap();
        assert_eq!(pending_count(w), 3);
        // Dropping 1 of the 3: 2 still pending now, and 4 expected in the next phase.
        w = arrive_drop(w, &mut tx, 1, 0).unwrap();
        assert_eq!(pending_count(w), 2);
        w = arrive(w, &mut tx, 2, 0).unwrap();
        assert_eq!((phase(w), pending_count(w)), (1, 4));
        assert!(arrive_drop(w, &mut tx, 5, 0).is_err());
    }

    #[test]
    fn too_many_arrivals_are_an_error() {
        let mut tx = 0;
        let w = init_word(3);
        assert!(arrive(w, &mut tx, 4, 0).is_err());
        let w = arrive(w, &mut tx, 2, 0).unwrap();
        assert!(arrive(w, &mut tx, 2, 0).is_err());
        assert!(arrive(w, &mut tx, 1, 0).is_ok());
    }
}
