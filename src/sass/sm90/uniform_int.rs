//! Integer forms with a uniform-register operand or on the uniform datapath that NVIDIA's
//! cubins of the wild corpus use (Triton's address arithmetic, `tests/wild_run.rs`) and the
//! generator's corpus never shows whole: `LEA` with a uniform B (0xc11), `ULEA` (0x291, 0x891),
//! `UISETP` (0x28c, 0x88c) and `UIMAD.WIDE` with a uniform C (0x2a5).
//!
//! Each family is its register counterpart's modifier field, found by setting the field's bits
//! in an NVIDIA word of the form and decoding it with `nvdisasm -b SM90` (13.0.88):
//!
//! - `LEA`/`ULEA`: `.SX32` bit 73, `.X` bit 74, `.HI` bit 80 (`.SX32` only under `.HI`; the
//!   words with 73 set and 80 clear are illegal), bit 91 set (clear is illegal on 0x891);
//!   `LEA.HI.X.SX32 R5, R3, UR7, 0x2, P2` = `0x000fe400090f16ff0000000703057c11`. The uniform
//!   B's `-` (`~` under `.X`) is bit 63 (`ULEA.HI.SX32 UR5, UR5, -UR11, 0x1a`).
//! - `UISETP`: ISETP's 96 residues (`.EX` 72, signed 73, combiner [74:76), comparison [76:79))
//!   with bit 91 set, each printed by nvdisasm as ISETP's suffix on `UISETP`
//!   (`UISETP.GT.U32.AND UP0, UPT, UR14, UR4, UPT` = `0x000fc8000bf04070000000040e00728c`).
//! - `UIMAD.WIDE` (0x2a5): signed bit 73, `.X` bit 74 (then the carry-in `UP` at 87, `!` 90,
//!   shows), C's `-`/`~` bit 75, the carry-out `UP` at 81 (shown unless `UPT`); bits 63 and 72
//!   are ignored by nvdisasm (the model keeps them clear); bit 91 set
//!   (`UIMAD.WIDE UR4, UR11, UR8, URZ` = `0x000fe2000f8e023f000000080b0472a5`).
//!
//! Invariant: every entry of [`mods`] is drawn with random operands against nvdisasm by
//! `tests/sass_random.rs` (`sm90_uniform_int_forms_many_random_operands`) and the unit test
//! below holds NVIDIA's words.

use super::{form, up, ur};
use crate::sass::form::{Form, ModEntry};

/// Bit 91, set in every residue of these forms.
const B91: u128 = 1 << 91;

/// LEA's modifiers (bits 72.. of the residue): `""`, `.X`, `.HI`, `.HI.SX32`, `.HI.X`,
/// `.HI.X.SX32`.
const LEA: [(u128, &str); 6] =
    [(0x000, ""), (0x004, ".X"), (0x100, ".HI"), (0x102, ".HI.SX32"), (0x104, ".HI.X"), (0x106, ".HI.X.SX32")];

/// The forms this module adds (`UIMAD.WIDE` with a uniform C).
pub(super) fn forms(f: &mut Vec<Form>) {
    f.push(form(
        0x2a5,
        "UIMAD",
        vec![ur(16), up(81).opt(), ur(24), ur(32), ur(64).neg_tilde_if(75, 74), up(87).not(90).if_bit(74)],
    ));
}

/// The modifier entries, given the generated table (ISETP 0x20c's residues become UISETP's),
/// less those the generated table holds.
pub(super) fn mods(generated: &[ModEntry]) -> Vec<ModEntry> {
    let mut v = Vec::new();
    for key in [0xc11u16, 0x291, 0x891] {
        for (r, suffix) in LEA {
            v.push(ModEntry { key, residue: B91 | r << 72, suffix });
        }
    }
    for e in generated.iter().filter(|e| e.key == 0x20c) {
        for key in [0x28cu16, 0x88c] {
            v.push(ModEntry { key, residue: B91 | e.residue, suffix: e.suffix });
        }
    }
    for (r, suffix) in [(0, ".WIDE.U32"), (2, ".WIDE"), (4, ".WIDE.U32.X"), (6, ".WIDE.X")] {
        v.push(ModEntry { key: 0x2a5, residue: B91 | r << 72, suffix });
    }
    // The generator already learned some of them from its corpus (the same suffixes).
    v.retain(|e| !generated.iter().any(|g| (g.key, g.residue) == (e.key, e.residue)));
    v
}

#[cfg(test)]
mod tests {
    /// NVIDIA's words (ptxas 13.0.88 -O3 on the wild corpus's Triton PTX) and bit flips of
    /// them, as `nvdisasm -b SM90` prints them.
    #[test]
    fn uniform_int_words_match_nvdisasm() {
        let t = super::super::tables();
        for (word, text) in [
            (0x000f_e400_090f_16ff_0000_0007_0305_7c11u128, "LEA.HI.X.SX32 R5, R3, UR7, 0x2, P2"),
            (0x000f_e400_090f_17ff_0000_0007_0305_7c11, "LEA.HI.X.SX32 R5, ~R3, UR7, 0x2, P2"),
            (0x000f_e400_090e_14ff_0000_0007_0305_7c11, "LEA.X R5, R3, UR7, 0x2, P2"),
            (0x000f_e400_090f_10ff_0000_0007_0305_7c11, "LEA.HI R5, R3, UR7, RZ, 0x2"),
            (0x000f_e200_080f_140b_0000_000d_090b_7291, "ULEA.HI.X UR11, UR9, UR13, UR11, 0x2, UP0"),
            (0x000f_e200_080f_160b_0000_000d_090b_7291, "ULEA.HI.X.SX32 UR11, UR9, UR13, 0x2, UP0"),
            (0x000f_e200_0f8f_ca3f_0000_0007_0c0c_7891, "ULEA.HI.SX32 UR12, UR12, 0x7, 0x19"),
            (0x000f_e200_0f8e_cc3f_0000_0007_0c0c_7891, "ULEA.X UR12, UR12, 0x7, 0x19, !UPT"),
            (0x000f_e200_0f8f_cc3f_0000_0007_0c0c_7891, "ULEA.HI.X UR12, UR12, 0x7, URZ, 0x19, !UPT"),
            (0x000f_e200_0f8f_cb3f_0000_0007_0c0c_7891, "ULEA.HI.SX32 UR12, -UR12, 0x7, 0x19"),
            (0x000f_c800_0bf0_1300_0000_003f_3f00_728c, "UISETP.LT.AND.EX UP0, UPT, URZ, URZ, UPT, UP0"),
            (0x000f_c800_0bf0_4070_0000_0004_0e00_728c, "UISETP.GT.U32.AND UP0, UPT, UR14, UR4, UPT"),
            (0x000f_e200_0bf0_1270_0000_0008_0500_788c, "UISETP.LT.AND UP0, UPT, UR5, 0x8, UPT"),
            (0x000f_e200_0f8e_023f_0000_0008_0b04_72a5, "UIMAD.WIDE UR4, UR11, UR8, URZ"),
            (0x000f_e400_0f8e_000a_0000_0010_0c0a_72a5, "UIMAD.WIDE.U32 UR10, UR12, UR16, UR10"),
            (0x000f_e200_0f8e_063f_0000_0008_0b04_72a5, "UIMAD.WIDE.X UR4, UR11, UR8, URZ, !UPT"),
            (0x000f_e200_0f8e_0a3f_0000_0008_0b04_72a5, "UIMAD.WIDE UR4, UR11, UR8, -URZ"),
            (0x000f_e200_0f00_023f_0000_0008_0b04_72a5, "UIMAD.WIDE UR4, UP0, UR11, UR8, URZ"),
        ] {
            // Decode, print, encode (not parse: several words keep a hidden carry-in that the
            // text cannot name, e.g. `!UPT` at 87 under a clear `.X`).
            crate::sass::test_words::assert_nvdisasm_decode(t, 0, word, text);
        }
        // B's `-` (`~` under `.X`) at 63, nvdisasm -b SM90's text of NVIDIA's word (Triton's
        // matmul_f16_64x64x32, sm_90a) and of bit flips of the words above.
        for (word, text) in [
            (0x000f_e400_0f8f_d23f_8000_000b_0505_7291u128, "ULEA.HI.SX32 UR5, UR5, -UR11, 0x1a"),
            (0x000f_e200_080f_140b_8000_000d_090b_7291, "ULEA.HI.X UR11, UR9, ~UR13, UR11, 0x2, UP0"),
            (0x000f_e200_080f_160b_8000_000d_090b_7291, "ULEA.HI.X.SX32 UR11, UR9, ~UR13, 0x2, UP0"),
            (0x000f_e200_080e_140b_8000_000d_090b_7291, "ULEA.X UR11, UR9, ~UR13, 0x2, UP0"),
            (0x000f_e200_080e_100b_8000_000d_090b_7291, "ULEA UR11, UR9, -UR13, 0x2"),
            (0x000f_e400_090f_12ff_8000_0007_0305_7c11, "LEA.HI.SX32 R5, R3, -UR7, 0x2"),
            (0x000f_e400_090e_14ff_8000_0007_0305_7c11, "LEA.X R5, R3, ~UR7, 0x2, P2"),
        ] {
            crate::sass::test_words::assert_nvdisasm_decode(t, 0, word, text);
        }
        // Bit 72 of UIMAD.WIDE is ignored by nvdisasm: such a word is refused.
        assert!(t.decode(0x000f_e200_0f8e_033f_0000_0008_0b04_72a5u128).is_err());
    }
}
