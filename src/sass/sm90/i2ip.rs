//! sm_90 `I2IP` (`cvt.pack.sat.{u16,s16,u8,s8,u4,s4,u2,s2}.s32`), which the corpus never
//! shows: ptxas 13.0.88's words for probe kernels (`corpus/ptx/cvt_pack_int`,
//! `corpus/ptx/cvt_pack_subbyte`), printed by `nvdisasm -b SM90`.
//!
//! Fields: D at 16, A at 24, B at 32 (a register 0x239, a signed 32-bit immediate 0x839, a
//! uniform register 0xc39 with bit 91 set, as on the other ALU ops), C at 64. The destination
//! type in [72:80) less C's selector: bit 74 `.SAT` (always; bit 75 would be `.SATRELU`),
//! bit 76 signed, bits [77:79) the width (0 8-bit, 1 16-bit, 2 2-bit, 3 4-bit: `.U16` 0x24,
//! `.S16` 0x34, `.U8` 0x04, `.S8` 0x14, `.U4` 0x64, `.S4` 0x74, `.U2` 0x44, `.S2` 0x54); the
//! 16-bit forms have C = RZ. C's 2-bit selector at 72 is what ptxas sets on the sub-byte
//! forms: 2 printed `R4.24` (`.U4`/`.S4`), 3 printed `R4.28` (`.U2`/`.S2`) — the part of C
//! kept above the two fields (nvdisasm prints 1 as `.H1` and other unused pairings as
//! `.???k`, which no form here emits).
//!
//! sm_100 and sm_120 inherit the forms and take these entries too: `nvdisasm -b SM100` and
//! `-b SM120` print every word of the unit test as `-b SM90` does.
//!
//! Invariant: every entry is checked against nvdisasm's text in the unit test below, on the
//! sm_90, sm_100 and sm_120 tables.

use super::super::form::{Form, ImmStyle, ModEntry};
use super::{form, imm, r, ur};

/// Appends the forms.
pub(super) fn forms(f: &mut Vec<Form>) {
    let (a, c) = (|| r(24).reuse(0), || r(64).reuse(2).named_sel(72, &C_SEL));
    f.push(form(0x239, "I2IP", vec![r(16), a(), r(32).reuse(1), c()]));
    f.push(form(0x839, "I2IP", vec![r(16), a(), imm(32, 32, ImmStyle::SignedHex), c()]));
    f.push(form(0xc39, "I2IP", vec![r(16), a(), ur(32), c()]));
}

/// C's selector names (see the module docs).
const C_SEL: [&str; 4] = ["", ".H1", ".24", ".28"];

/// The destination types' residues (bits 72..), with their suffixes.
const TYPES: [(u128, &str); 8] = [
    (0x24, ".U16.S32.SAT"),
    (0x34, ".S16.S32.SAT"),
    (0x04, ".U8.S32.SAT"),
    (0x14, ".S8.S32.SAT"),
    (0x64, ".U4.S32.SAT"),
    (0x74, ".S4.S32.SAT"),
    (0x44, ".U2.S32.SAT"),
    (0x54, ".S2.S32.SAT"),
];

/// Their modifier entries (every type on every B kind).
pub(crate) fn mods() -> Vec<ModEntry> {
    let mut v = Vec::new();
    for (key, extra) in [(0x239u16, 0u128), (0x839, 0), (0xc39, 1 << 91)] {
        for (t, suffix) in TYPES {
            v.push(ModEntry { key, residue: t << 72 | extra, suffix });
        }
    }
    v
}

#[cfg(test)]
mod tests {
    /// ptxas 13.0.88's words for `corpus/ptx/cvt_pack_int` (sm_90, -O3) with `nvdisasm -b
    /// SM90`'s text (`-b SM100` and `-b SM120` print them alike), on each arch's tables.
    #[test]
    fn i2ip_forms_match_nvdisasm() {
        for t in [super::super::tables(), crate::sass::sm100::tables(), crate::sass::sm120::tables()] {
            for (word, text) in [
                (0x050f_e400_0000_34ff_ffff_63c0_020c_7839u128, "I2IP.S16.S32.SAT R12, R2.reuse, -0x9c40, RZ"),
                (0x020f_c400_0000_24ff_0000_0009_0204_7239, "I2IP.U16.S32.SAT R4, R2, R9, RZ"),
                (0x0c0f_e400_0000_34ff_0000_0009_0205_7239, "I2IP.S16.S32.SAT R5, R2.reuse, R9.reuse, RZ"),
                (0x040f_e400_0000_0404_0000_0009_0206_7239, "I2IP.U8.S32.SAT R6, R2.reuse, R9, R4"),
                (0x040f_e400_0000_1405_0000_0002_0907_7239, "I2IP.S8.S32.SAT R7, R9.reuse, R2, R5"),
                (0x040f_e400_0800_24ff_0000_0004_090f_7c39, "I2IP.U16.S32.SAT R15, R9.reuse, UR4, RZ"),
                (0x000f_e200_0000_0406_0000_012c_090d_7839, "I2IP.U8.S32.SAT R13, R9, 0x12c, R6"),
                (0x000f_ca00_0800_1407_0000_0004_020e_7c39, "I2IP.S8.S32.SAT R14, R2, UR4, R7"),
                // `/tmp/cp4.ptx` of issue 23 (sm_90, also sm_80 and sm_100: the same words).
                (0x004f_c400_0000_6604_0000_0005_0007_7239, "I2IP.U4.S32.SAT R7, R0, R5, R4.24"),
                (0x1c0f_e400_0000_7604_0000_0005_0009_7239, "I2IP.S4.S32.SAT R9, R0.reuse, R5.reuse, R4.reuse.24"),
                (0x1c0f_e200_0000_4704_0000_0005_000b_7239, "I2IP.U2.S32.SAT R11, R0.reuse, R5.reuse, R4.reuse.28"),
                (0x000f_c600_0000_5704_0000_0005_0005_7239, "I2IP.S2.S32.SAT R5, R0, R5, R4.28"),
            ] {
                let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e:?}"));
                assert_eq!(t.print(&inst, 0, None).trim_end_matches(" ;"), text);
                assert_eq!(t.encode(&inst).expect("encodes"), word, "{} {text}", t.name);
            }
        }
    }
}
