//! sm_90 forms and modifier entries for counted CTA barriers and zero-filling asynchronous
//! copies, which the generated tables (learned from an -O3 corpus without `bar.red`/`bar.arrive`
//! or `cp.async` source sizes) lack. Every entry is proven by a unit test on words ptxas 13.0.88
//! emitted and `nvdisasm -b SM90` decoded as the text given.
//!
//! `BAR` (keys `0xb1d` immediate id and count, `0x51d` register id, `0x91d` register count,
//! `0x31d` one register holding both: `count << 16 | id`, printed twice): the id is 4 bits at 54,
//! the count 12 bits at 42 (0, i.e. all threads, not printed), registers at 32. Operation bits:
//! `.ARV` 77, `.RED` 78 with the combiner at 74 (`.POPC` 0, `.AND` 1, `.OR` 2) and the predicate
//! at 87 (`!` at 90, shown with `.RED` only), `.DEFER_BLOCKING` 80 (on `.SYNC` and `.RED`).
//! `B2R.RESULT Rd[, Pd]` (key `0x31c`, bit 78): the result of the warp's last `BAR.RED`, Rd at 16
//! and Pd at 81 (`PT`: not printed).
//!
//! `SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [Ra+URZ], Rb` (key `0x9a7`, bits 74, 84, 85, 91):
//! `mbarrier.expect_tx`, no arrival and Rb pending transactions.
//!
//! `UCGABAR_ARV` (key `0x9c7`) and `UCGABAR_WAIT` (key `0xdc7`): `barrier.cluster.arrive` /
//! `.wait`; no operand, bit 91 set (nvdisasm rejects the words without it), a uniform-predicate
//! guard.
//!
//! `LDGSTS` (key `0xfae`): `.64` bit 73, `.128` bit 74, `.BYPASS` clears bit 81, `.ZFILL` bit 82.
//!
//! Invariant: entries are sorted and unique together with the generated table (checked by the
//! parent's `mods_sorted_unique`).

use super::{form, imm, p, r};
use crate::sass::form::{Form, ImmStyle, ModEntry};

/// The four `BAR` forms and `B2R`.
pub(super) fn forms(f: &mut Vec<Form>) {
    use ImmStyle::Hex;
    let pred = || p(87).not(90).if_bit(78).hidden_zero();
    f.push(form(0xb1d, "BAR", vec![imm(54, 4, Hex), imm(42, 12, Hex).opt(), pred()]));
    f.push(form(0x51d, "BAR", vec![r(32), imm(42, 12, Hex).opt(), pred()]));
    f.push(form(0x91d, "BAR", vec![imm(54, 4, Hex), r(32), pred()]));
    f.push(form(0x31d, "BAR", vec![r(32), r(32), pred()]));
    f.push(form(0x31c, "B2R", vec![r(16), p(81).opt()]));
    // The cluster barrier: no operand, a uniform-predicate guard (`@UP0 UCGABAR_ARV`).
    for (key, base) in [(0x9c7, "UCGABAR_ARV"), (0xdc7, "UCGABAR_WAIT")] {
        let mut u = form(key, base, vec![]);
        u.uniform_guard = true;
        f.push(u);
    }
}

const fn bits(b: &[u32]) -> u128 {
    let mut v = 0u128;
    let mut i = 0;
    while i < b.len() {
        v |= 1u128 << b[i];
        i += 1;
    }
    v
}

const SYNC: u128 = bits(&[80]);
const ARV: u128 = bits(&[77]);
const RED: u128 = bits(&[78, 80]);
const LDGSTS_E: u128 = bits(&[70, 75, 76, 81, 84, 91]);
const ZFILL: u128 = bits(&[82]);

macro_rules! bar_mods {
    ($($key:expr),*) => {
        &[$(
            ModEntry { key: $key, residue: ARV, suffix: ".ARV" },
            ModEntry { key: $key, residue: RED, suffix: ".RED.POPC.DEFER_BLOCKING" },
            ModEntry { key: $key, residue: RED | bits(&[74]), suffix: ".RED.AND.DEFER_BLOCKING" },
            ModEntry { key: $key, residue: RED | bits(&[75]), suffix: ".RED.OR.DEFER_BLOCKING" },
        )*]
    };
}

/// `BAR.ARV`/`BAR.RED.*` on every key, `BAR.SYNC` on the register keys (the generated table
/// has `0xb1d`'s).
const BAR_MODS: &[ModEntry] = bar_mods!(0x31d, 0x51d, 0x91d, 0xb1d);

/// The modifier entries of this module.
pub(super) const MODS: &[&[ModEntry]] = &[
    BAR_MODS,
    &[
        ModEntry { key: 0x31d, residue: SYNC, suffix: ".SYNC.DEFER_BLOCKING" },
        ModEntry { key: 0x51d, residue: SYNC, suffix: ".SYNC.DEFER_BLOCKING" },
        ModEntry { key: 0x91d, residue: SYNC, suffix: ".SYNC.DEFER_BLOCKING" },
        ModEntry { key: 0x31c, residue: bits(&[78]), suffix: ".RESULT" },
        ModEntry { key: 0x9c7, residue: bits(&[91]), suffix: "" },
        ModEntry { key: 0xdc7, residue: bits(&[91]), suffix: "" },
        // `mbarrier.expect_tx` (async_cg_memcpy -O0): no arrival, Rb transactions, no token.
        ModEntry { key: 0x9a7, residue: bits(&[74, 84, 85, 91]), suffix: ".ARRIVE.TRANS64.RED.A0TR" },
        // `mbarrier.complete_tx` and `arrive_drop` (ptxas 13.0.88 -O3 words, `nvdisasm -b SM90`):
        // `.RED` is bit 74, `.OPTOUT` bit 75, the mode [84:87) (0 `A1TR`, 1 `.A1T0`, 2 `.A0T1`,
        // 3 `.A0TR`, 4 `.A0TX`, 5 `.ART0`).
        ModEntry { key: 0x9a7, residue: bits(&[74, 86, 91]), suffix: ".ARRIVE.TRANS64.RED.A0TX" },
        ModEntry { key: 0x9a7, residue: bits(&[75, 84, 91]), suffix: ".ARRIVE.TRANS64.OPTOUT.A1T0" },
        ModEntry { key: 0x9a7, residue: bits(&[75, 84, 86, 91]), suffix: ".ARRIVE.TRANS64.OPTOUT.ART0" },
        ModEntry { key: 0x9a7, residue: bits(&[75, 91]), suffix: ".ARRIVE.TRANS64.OPTOUT" },
        ModEntry { key: 0xfae, residue: LDGSTS_E | bits(&[73]), suffix: ".E.64" },
        ModEntry { key: 0xfae, residue: LDGSTS_E | bits(&[74]), suffix: ".E.128" },
        ModEntry { key: 0xfae, residue: LDGSTS_E | ZFILL, suffix: ".E.ZFILL" },
        ModEntry { key: 0xfae, residue: LDGSTS_E | ZFILL | bits(&[73]), suffix: ".E.64.ZFILL" },
        ModEntry { key: 0xfae, residue: LDGSTS_E | ZFILL | bits(&[74]), suffix: ".E.128.ZFILL" },
        ModEntry {
            key: 0xfae,
            residue: (LDGSTS_E & !bits(&[81])) | ZFILL | bits(&[74]),
            suffix: ".E.BYPASS.128.ZFILL",
        },
    ],
];

#[cfg(test)]
mod tests {
    /// Words ptxas 13.0.88 `-arch sm_90` emitted (`bar.red`, `bar.arrive`, `bar.sync` with
    /// counts and register operands; `cp.async` with source sizes), with `nvdisasm -b SM90`'s
    /// text: each decodes and prints as that text, re-encodes to the word, and the text parses
    /// back to the word (control bits aside).
    #[test]
    fn words_match_nvdisasm() {
        let t = super::super::tables();
        let mask = !crate::sass::control::CONTROL_MASK;
        for (hi, lo, text) in [
            (0x000fec0004014000u64, 0x0040000000007b1du64, "BAR.RED.POPC.DEFER_BLOCKING 0x1, !P0"),
            (0x000fe400000e4000, 0x000000000004731c, "B2R.RESULT R4"),
            (0x000fec0000014000, 0x0001000b0000751d, "BAR.RED.POPC.DEFER_BLOCKING R11, 0x40, P0"),
            (0x000fec0004014400, 0x0080000000007b1d, "BAR.RED.AND.DEFER_BLOCKING 0x2, !P0"),
            (0x000e240000024000, 0x0000000000ff731c, "B2R.RESULT RZ, P1"),
            (0x000fec0004014800, 0x00c1000000007b1d, "BAR.RED.OR.DEFER_BLOCKING 0x3, 0x40, !P0"),
            (0x0001e40004014800, 0x000000000000731d, "BAR.RED.OR.DEFER_BLOCKING R0, R0, !P0"),
            (0x000fec0000002000, 0x0101000000007b1d, "BAR.ARV 0x4, 0x40"),
            (0x0001ec0000002000, 0x000000080000731d, "BAR.ARV R8, R8"),
            (0x000fe20000010000, 0x0141000000007b1d, "BAR.SYNC.DEFER_BLOCKING 0x5, 0x40"),
            (0x0001e40000010000, 0x0000000a0000731d, "BAR.SYNC.DEFER_BLOCKING R10, R10"),
            (0x000ff00000010000, 0x0000000b0000751d, "BAR.SYNC.DEFER_BLOCKING R11"),
            (0x001ff00000010000, 0x004000090000791d, "BAR.SYNC.DEFER_BLOCKING 0x1, R9"),
            (0x000fec0000002000, 0x008000090000791d, "BAR.ARV 0x2, R9"),
            (0x000fec0004814000, 0x00c000090000791d, "BAR.RED.POPC.DEFER_BLOCKING 0x3, R9, !P1"),
            (0x000ff00000002000, 0x000180090000751d, "BAR.ARV R9, 0x60"),
            (0x000fec0004814400, 0x000000090000751d, "BAR.RED.AND.DEFER_BLOCKING R9, !P1"),
            (0x010fe8000b921c44, 0x0000000002097fae, "LDGSTS.E.128 [R9], desc[UR4][R2.64]"),
            (0x000fe80008161c44, 0x0001000004097fae, "LDGSTS.E.128.ZFILL [R9+0x10], desc[UR4][R4.64], P0"),
            (0x000fe8000b921a44, 0x0002002002097fae, "LDGSTS.E.64 [R9+0x20], desc[UR4][R2.64+0x20]"),
            (0x000fe80008161844, 0x0003000006097fae, "LDGSTS.E.ZFILL [R9+0x30], desc[UR4][R6.64], P0"),
            (0x000fe8000b941c44, 0x0004004b02097fae, "LDGSTS.E.BYPASS.128.ZFILL [R9+0x40], desc[UR4][R2.64+0x4b]"),
            (0x000fe8000b961a44, 0x0005005502097fae, "LDGSTS.E.64.ZFILL [R9+0x50], desc[UR4][R2.64+0x55]"),
            (0x000fe80008961a44, 0x00010000080b7fae, "LDGSTS.E.64.ZFILL [R11+0x10], desc[UR4][R8.64], P1"),
            (0x00321e000830043f, 0x0000000300ff79a7, "SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [R0+URZ], R3"),
            (0x00321e000840043f, 0x0000000300ff79a7, "SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [R0+URZ], R3"),
            (0x00321e000810083f, 0x0000000300ff79a7, "SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0 RZ, [R0+URZ], R3"),
            (0x00321e000850083f, 0x0000000300ff79a7, "SYNCS.ARRIVE.TRANS64.OPTOUT.ART0 RZ, [R0+URZ], R3"),
            (0x00321e000800083f, 0x0000000300ff79a7, "SYNCS.ARRIVE.TRANS64.OPTOUT RZ, [R0+URZ], R3"),
            // `barrier.cluster.arrive` / `.wait` (-O3), and the guard bits flipped to UP0.
            (0x000fe20008000000, 0x00000000000079c7, "UCGABAR_ARV"),
            (0x000fe20008000000, 0x0000000000007dc7, "UCGABAR_WAIT"),
            (0x000fe20008000000, 0x00000000000009c7, "@UP0 UCGABAR_ARV"),
            (0x000fe20008000000, 0x0000000000000dc7, "@UP0 UCGABAR_WAIT"),
        ] {
            let word = u128::from(hi) << 64 | u128::from(lo);
            let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.print(&inst, 0, None), text);
            assert_eq!(t.encode(&inst).expect("encodes"), word, "{text}");
            let parsed = t.parse(text, 0).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.encode(&parsed).expect("encodes") & mask, word & mask, "{text}");
        }
    }
}
