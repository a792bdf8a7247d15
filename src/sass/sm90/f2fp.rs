//! sm_90 `F2FP` (0x23e): the packing float conversions with all their operand layouts, as
//! `nvdisasm -b SM90` prints them (measured by flipping bits 78, 89 and 90 of ptxas 13.0.88's
//! words; see `f2fp_forms_match_nvdisasm`).
//!
//! Fields: D at 16, A at 24, B at 32, C at 64. Bit 78 (`M`), bit 89 (`U`) and bit 90 (`N`)
//! select the packing mode, which decides what nvdisasm prints:
//!
//! | M U N | mode | printed |
//! |---|---|---|
//! | 0 0 0 | `.PACK_AB` | `D, A, B` |
//! | 1 0 0 | `.MERGE_C` | `D, B, C` |
//! | 0 1 0 | `.UNPACK_B` | `D, B` |
//! | 0 0 1 | `.UNPACK_B_MERGE_C` | `D, B, C` |
//! | 1 0 1 | `.PACK_AB_MERGE_C` | `D, A, B, C` |
//!
//! The fp8 forms (bit 87 with an fp8 destination, bit 76 `.E4M3` else `.E5M2`, bit 73 an `.F16`
//! source; `.F16.E4M3`/`.F16.E5M2` destination-first for the widening `.UNPACK_B`) are
//! hand-entered here ([`HAND`]); the generated table's `.PACK_AB` entries held C (RZ, 0xff)
//! in their residue, which [`mods`] moves into the C slot.
//!
//! Invariant: every entry of [`HAND`] is checked against nvdisasm in the unit test below.

use super::r;
use crate::sass::form::{Form, ImmStyle, ModEntry};

/// The F2FP register form: A shown for `.PACK_AB` and `.PACK_AB_MERGE_C`, C for the merging modes.
pub(super) fn form() -> Form {
    super::form(
        0x23e,
        "F2FP",
        vec![
            r(16),
            r(24).reuse(0).bits_in(&[78, 89, 90], &[0, 5]),
            r(32).reuse(1),
            r(64).bits_in(&[78, 89, 90], &[1, 4, 5]),
        ],
    )
}

/// `F2FP` with an FP32 immediate B (0x83e, `.PACK_AB` only; C's field stays in the residue, as
/// on sm_80): `F2FP.SATFINITE.RELU.F16.F32.PACK_AB R2, R2, 1.5`.
pub(super) fn imm_form() -> Form {
    super::form(0x83e, "F2FP", vec![r(16), r(24).reuse(0), super::imm(32, 32, ImmStyle::F32)])
}

/// Hand-entered modifier residues (bits 64.. of the word, C's field clear), each printed by
/// `nvdisasm -b SM90` as the suffix given.
const HAND: &[(u32, &str)] = &[
    (0x0480_6000, ".SATFINITE.E5M2.F32.PACK_AB_MERGE_C"),
    (0x0480_6800, ".SATFINITE.RELU.E5M2.F32.PACK_AB_MERGE_C"),
    (0x0480_7000, ".SATFINITE.E4M3.F32.PACK_AB_MERGE_C"),
    (0x0480_7800, ".SATFINITE.RELU.E4M3.F32.PACK_AB_MERGE_C"),
    (0x0480_2200, ".SATFINITE.E5M2.F16.UNPACK_B_MERGE_C"),
    (0x0480_2a00, ".SATFINITE.RELU.E5M2.F16.UNPACK_B_MERGE_C"),
    (0x0480_3200, ".SATFINITE.E4M3.F16.UNPACK_B_MERGE_C"),
    (0x0480_3a00, ".SATFINITE.RELU.E4M3.F16.UNPACK_B_MERGE_C"),
    (0x0200_0400, ".F16.E5M2.UNPACK_B"),
    (0x0200_0c00, ".RELU.F16.E5M2.UNPACK_B"),
    (0x0200_0600, ".F16.E4M3.UNPACK_B"),
    (0x0200_0e00, ".RELU.F16.E4M3.UNPACK_B"),
    (0x0000_4000, ".F16.F32.MERGE_C"),
    (0x0000_4800, ".RELU.F16.F32.MERGE_C"),
    (0x0000_5000, ".BF16.F32.MERGE_C"),
    (0x0000_5800, ".RELU.BF16.F32.MERGE_C"),
    (0x0000_6000, ".SATFINITE.F16.F32.MERGE_C"),
    (0x0000_6800, ".SATFINITE.RELU.F16.F32.MERGE_C"),
    (0x0000_7000, ".SATFINITE.BF16.F32.MERGE_C"),
    (0x0000_7800, ".SATFINITE.RELU.BF16.F32.MERGE_C"),
    (0x0001_c000, ".F16.F32.MERGE_C.RZ"),
    (0x0001_c800, ".RELU.F16.F32.MERGE_C.RZ"),
    (0x0001_d000, ".BF16.F32.MERGE_C.RZ"),
    (0x0001_d800, ".RELU.BF16.F32.MERGE_C.RZ"),
    (0x0001_e000, ".SATFINITE.F16.F32.MERGE_C.RZ"),
    (0x0001_e800, ".SATFINITE.RELU.F16.F32.MERGE_C.RZ"),
    (0x0001_f000, ".SATFINITE.BF16.F32.MERGE_C.RZ"),
    (0x0001_f800, ".SATFINITE.RELU.BF16.F32.MERGE_C.RZ"),
];

/// C's field (bits 64..72), which the generated `.PACK_AB` residues hold as RZ.
const C_FIELD: u128 = 0xff << 64;

/// The F2FP entries: the generated ones with C's field taken out of the residue, plus [`HAND`];
/// and the immediate form's: the generated f16/bf16 `.PACK_AB` residues as they are (the ones
/// checked against nvdisasm; TF32 and fp8 `.PACK_AB` with an immediate are left out).
pub(super) fn mods(generated: &[ModEntry]) -> Vec<ModEntry> {
    let reg = generated.iter().filter(|e| e.key == 0x23e);
    let moved = reg.clone().map(|e| ModEntry { residue: e.residue & !C_FIELD, ..*e });
    let hand = HAND.iter().map(|&(hi, suffix)| ModEntry { key: 0x23e, residue: u128::from(hi) << 64, suffix });
    // The generator learns C's field as RZ (0xff) or 0 depending on the words it saw; the
    // immediate form's residue holds it as RZ.
    let imm = reg.filter(|e| e.suffix.contains("F16.F32.PACK_AB")).map(|e| ModEntry {
        key: 0x83e,
        residue: e.residue | C_FIELD,
        ..*e
    });
    moved.chain(hand).chain(imm).collect()
}

#[cfg(test)]
mod tests {
    use crate::sass::Value;
    use crate::sass::test_words::{assert_nvdisasm_decode, assert_nvdisasm_word};

    /// Words (random registers, every mode, hidden A/C set or RZ) as `nvdisasm -b SM90` prints
    /// them; the first four rows are ptxas 13.0.88's own (`cvt.rn.satfinite.e4m3x2.f32`,
    /// `.e4m3x2.f16x2`, `cvt.rn.f16x2.e4m3x2`, `cvt.rn.satfinite.f16.f32`).
    #[test]
    fn f2fp_forms_match_nvdisasm() {
        let t = super::super::tables();
        for (word, text) in [
            (0x004f_ca00_0480_70ff_0000_0005_0005_723eu128, "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R5, R0, R5, RZ"),
            (0x004f_ca00_0480_32ff_0000_0000_ff05_723e, "F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R5, R0, RZ"),
            (0x004f_ca00_0200_06ff_0000_0000_ff05_723e, "F2FP.F16.E4M3.UNPACK_B R5, R0"),
            (0x004f_ca00_0000_60ff_0000_0000_ff00_723e, "F2FP.SATFINITE.F16.F32.MERGE_C R0, R0, RZ"),
            (0x004f_ca00_0000_20ff_0000_0005_0005_723e, "F2FP.SATFINITE.F16.F32.PACK_AB R5, R0, R5"),
            (0x000fca00048060ff00000026f252723eu128, "F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R82, R242, R38, RZ"),
            (0x000fca000480606500000026ff52723eu128, "F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R82, RZ, R38, R101"),
            (0x000fca00048022ff000000120ca6723eu128, "F2FP.SATFINITE.E5M2.F16.UNPACK_B_MERGE_C R166, R18, RZ"),
            (0x000fca00048022d200000012ffa6723eu128, "F2FP.SATFINITE.E5M2.F16.UNPACK_B_MERGE_C R166, R18, R210"),
            (0x000fca00020004ff0000005d1889723eu128, "F2FP.F16.E5M2.UNPACK_B R137, R93"),
            (0x000fca00020004950000005dff89723eu128, "F2FP.F16.E5M2.UNPACK_B R137, R93"),
            (
                0x000fca00048068ff00000081e80e723eu128,
                "F2FP.SATFINITE.RELU.E5M2.F32.PACK_AB_MERGE_C R14, R232, R129, RZ",
            ),
            (0x000fca000480683600000081ff0e723eu128, "F2FP.SATFINITE.RELU.E5M2.F32.PACK_AB_MERGE_C R14, RZ, R129, R54"),
            (0x000fca0004802aff0000006f1609723eu128, "F2FP.SATFINITE.RELU.E5M2.F16.UNPACK_B_MERGE_C R9, R111, RZ"),
            (0x000fca0004802a6b0000006fff09723eu128, "F2FP.SATFINITE.RELU.E5M2.F16.UNPACK_B_MERGE_C R9, R111, R107"),
            (0x000fca0002000cff000000173d11723eu128, "F2FP.RELU.F16.E5M2.UNPACK_B R17, R23"),
            (0x000fca0002000c8d00000017ff11723eu128, "F2FP.RELU.F16.E5M2.UNPACK_B R17, R23"),
            (0x000fca00048070ff000000d30f6c723eu128, "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R108, R15, R211, RZ"),
            (0x000fca0004807090000000d3ff6c723eu128, "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R108, RZ, R211, R144"),
            (0x000fca00048032ff00000039f21f723eu128, "F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R31, R57, RZ"),
            (0x000fca00048032a100000039ff1f723eu128, "F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R31, R57, R161"),
            (0x000fca00020006ff000000f295a0723eu128, "F2FP.F16.E4M3.UNPACK_B R160, R242"),
            (0x000fca000200060f000000f2ffa0723eu128, "F2FP.F16.E4M3.UNPACK_B R160, R242"),
            (
                0x000fca00048078ff000000659593723eu128,
                "F2FP.SATFINITE.RELU.E4M3.F32.PACK_AB_MERGE_C R147, R149, R101, RZ",
            ),
            (
                0x000fca000480780c00000065ff93723eu128,
                "F2FP.SATFINITE.RELU.E4M3.F32.PACK_AB_MERGE_C R147, RZ, R101, R12",
            ),
            (0x000fca0004803aff0000000b38f9723eu128, "F2FP.SATFINITE.RELU.E4M3.F16.UNPACK_B_MERGE_C R249, R11, RZ"),
            (0x000fca0004803a8e0000000bfff9723eu128, "F2FP.SATFINITE.RELU.E4M3.F16.UNPACK_B_MERGE_C R249, R11, R142"),
            (0x000fca0002000eff0000004a22db723eu128, "F2FP.RELU.F16.E4M3.UNPACK_B R219, R74"),
            (0x000fca0002000e6b0000004affdb723eu128, "F2FP.RELU.F16.E4M3.UNPACK_B R219, R74"),
            (0x000fca00000040ff0000001e8a24723eu128, "F2FP.F16.F32.MERGE_C R36, R30, RZ"),
            (0x000fca00000040920000001eff24723eu128, "F2FP.F16.F32.MERGE_C R36, R30, R146"),
            (0x000fca00000048ff000000d08f4e723eu128, "F2FP.RELU.F16.F32.MERGE_C R78, R208, RZ"),
            (0x000fca00000048ae000000d0ff4e723eu128, "F2FP.RELU.F16.F32.MERGE_C R78, R208, R174"),
            (0x000fca00000050ff000000941a2e723eu128, "F2FP.BF16.F32.MERGE_C R46, R148, RZ"),
            (0x000fca000000509200000094ff2e723eu128, "F2FP.BF16.F32.MERGE_C R46, R148, R146"),
            (0x000fca00000058ff0000005f30a3723eu128, "F2FP.RELU.BF16.F32.MERGE_C R163, R95, RZ"),
            (0x000fca00000058180000005fffa3723eu128, "F2FP.RELU.BF16.F32.MERGE_C R163, R95, R24"),
            (0x000fca00000060ff00000010b68c723eu128, "F2FP.SATFINITE.F16.F32.MERGE_C R140, R16, RZ"),
            (0x000fca000000609000000010ff8c723eu128, "F2FP.SATFINITE.F16.F32.MERGE_C R140, R16, R144"),
            (0x000fca00000068ff000000349e0f723eu128, "F2FP.SATFINITE.RELU.F16.F32.MERGE_C R15, R52, RZ"),
            (0x000fca000000687f00000034ff0f723eu128, "F2FP.SATFINITE.RELU.F16.F32.MERGE_C R15, R52, R127"),
            (0x000fca00000070ff0000006d88ae723eu128, "F2FP.SATFINITE.BF16.F32.MERGE_C R174, R109, RZ"),
            (0x000fca00000070c60000006dffae723eu128, "F2FP.SATFINITE.BF16.F32.MERGE_C R174, R109, R198"),
            (0x000fca00000078ff000000957750723eu128, "F2FP.SATFINITE.RELU.BF16.F32.MERGE_C R80, R149, RZ"),
            (0x000fca00000078ec00000095ff50723eu128, "F2FP.SATFINITE.RELU.BF16.F32.MERGE_C R80, R149, R236"),
            (0x000fca000001c0ff000000ddff73723e, "F2FP.F16.F32.MERGE_C.RZ R115, R221, RZ"),
            (0x000fca000001c8ff000000dbff8f723e, "F2FP.RELU.F16.F32.MERGE_C.RZ R143, R219, RZ"),
            (0x000fca000001d0ff000000c7ffec723e, "F2FP.BF16.F32.MERGE_C.RZ R236, R199, RZ"),
            (0x000fca000001d8ff00000073ff77723e, "F2FP.RELU.BF16.F32.MERGE_C.RZ R119, R115, RZ"),
            (0x000fca000001e0ff000000daff82723e, "F2FP.SATFINITE.F16.F32.MERGE_C.RZ R130, R218, RZ"),
            (0x000fca000001e8ff00000030ff96723e, "F2FP.SATFINITE.RELU.F16.F32.MERGE_C.RZ R150, R48, RZ"),
            (0x000fca000001f0ff000000cdff2f723e, "F2FP.SATFINITE.BF16.F32.MERGE_C.RZ R47, R205, RZ"),
            (0x000fca000001f8ff00000079ff83723e, "F2FP.SATFINITE.RELU.BF16.F32.MERGE_C.RZ R131, R121, RZ"),
            (0x000fca00000000ffc2f600009da1783e, "F2FP.F16.F32.PACK_AB R161, R157, -123"),
            (0x000fca00000180ff7f8000007218783e, "F2FP.F16.F32.PACK_AB.RZ R24, R114, +INF"),
            (0x000fca00000008ff3fc000001724783e, "F2FP.RELU.F16.F32.PACK_AB R36, R23, 1.5"),
            (0x000fca00000188ff00000001fb98783e, "F2FP.RELU.F16.F32.PACK_AB.RZ R152, R251, 1.4012984643248170709e-45"),
            (0x000fca00000010ffc2f6000073f6783e, "F2FP.BF16.F32.PACK_AB R246, R115, -123"),
            (0x000fca00000190ff3fc00000039f783e, "F2FP.BF16.F32.PACK_AB.RZ R159, R3, 1.5"),
            (0x000fca00000018ffc2f60000090f783e, "F2FP.RELU.BF16.F32.PACK_AB R15, R9, -123"),
            (0x000fca00000198ff3fc000003de1783e, "F2FP.RELU.BF16.F32.PACK_AB.RZ R225, R61, 1.5"),
            (0x000fca00000020ff7f80000076c7783e, "F2FP.SATFINITE.F16.F32.PACK_AB R199, R118, +INF"),
            (0x000fca000001a0ffc2f600009770783e, "F2FP.SATFINITE.F16.F32.PACK_AB.RZ R112, R151, -123"),
            (0x000fca00000028ff7f8000003b84783e, "F2FP.SATFINITE.RELU.F16.F32.PACK_AB R132, R59, +INF"),
            (0x000fca000001a8ff3fc00000017f783e, "F2FP.SATFINITE.RELU.F16.F32.PACK_AB.RZ R127, R1, 1.5"),
            (0x000fca00000030ff7f800000a775783e, "F2FP.SATFINITE.BF16.F32.PACK_AB R117, R167, +INF"),
            (0x000fca000001b0ff3fc000008d68783e, "F2FP.SATFINITE.BF16.F32.PACK_AB.RZ R104, R141, 1.5"),
            (0x000fca00000038ff7f80000041b5783e, "F2FP.SATFINITE.RELU.BF16.F32.PACK_AB R181, R65, +INF"),
            (0x000fca000001b8ff7f8000003ac2783e, "F2FP.SATFINITE.RELU.BF16.F32.PACK_AB.RZ R194, R58, +INF"),
        ] {
            let inst = assert_nvdisasm_decode(t, 0, word, text);
            // Words whose hidden fields hold RZ (what ptxas writes) also parse back from the text.
            let hidden_rz = inst
                .operands
                .iter()
                .zip(inst.form.slots.iter())
                .all(|(o, s)| s.shown(o, word) || o.value == Value::R(255));
            if hidden_rz {
                assert_nvdisasm_word(t, 0, word, text);
            }
        }
    }
}
