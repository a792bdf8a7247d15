//! sm_120 tables (Blackwell consumer): the same 128-bit word format as sm_100 and mostly the
//! same form keys and operand layouts, so the forms start from sm_100's
//! ([`super::sm100::build`]) and this module states the differences, each found by flipping
//! bits of a corpus word and decoding it with `nvdisasm -b SM120` (see `../gen/README.md`). The
//! modifier table is generated for this arch (`generated.rs`), plus hand entries for residues
//! no corpus word carries ([`HAND_MODS`]).
//!
//! Invariants: forms are sorted by key and unique; the modifier table (generated and hand
//! entries together) is sorted by (key, residue) with no duplicate (both checked by unit
//! tests); every hand entry is checked on a word nvdisasm printed.

use super::form::{Form, ImmStyle, Kind, ModEntry, Slot, Tables, TargetKind};
use super::sm90::{form, imm, p, r, up, ur};
use std::sync::LazyLock;

mod generated;

/// Replaces the form of `key` (or adds it).
fn set(f: &mut Vec<Form>, fm: Form) {
    f.retain(|x| x.key != fm.key);
    f.push(fm);
}

/// sm_100 forms adapted to sm_120.
fn build() -> Vec<Form> {
    use ImmStyle::{Hex, SignedHex};
    let mut f = super::sm100::build();
    // No VABSDIFF4 on sm_120: `nvdisasm -b SM120` rejects sm_100's word ("Unrecognized
    // operation for functional unit 'uC'"), and ptxas builds `vabsdiff4` from `VIMNMX.U8x4` and
    // `VIADD.U8x4` there.
    f.retain(|fm| fm.base != "VABSDIFF4");
    for fm in f.iter_mut() {
        // VIMNMX has no predicate results here (sm_90's layout: `VIMNMX.U32 R0, R12, R7, !PT`).
        if fm.base == "VIMNMX" {
            let slots: Vec<Slot> = fm
                .slots
                .iter()
                .enumerate()
                .filter(|(i, s)| !(matches!(i, 1 | 2) && matches!(s.kind, Kind::P(81 | 84))))
                .map(|(_, s)| *s)
                .collect();
            fm.slots = slots.into_boxed_slice();
        }
    }
    // IADD.64 (0x235 is sm_90's HFMA2.MMA value): A's `-` at 72, B's at 63 (`~` under `.X`), carry out at 81,
    // `.X` (74) shows the carry-in predicate at 87; bit 73 clear prints `IADD`.
    let carry_in = || p(87).not(90).if_bit(74);
    for (key, b) in [
        (0x235u16, r(32).neg_tilde_if(63, 74).reuse(1)),
        (0x835, imm(32, 32, SignedHex)),
        (0xc35, ur(32).neg_tilde_if(63, 74)),
    ] {
        set(&mut f, form(key, "IADD", vec![r(16), p(81).opt(), r(24).neg_tilde_if(72, 74).reuse(0), b, carry_in()]));
    }
    // MOV.64 / UMOV.64 with a 64-bit immediate in [24:88).
    set(&mut f, form(0x402, "MOV", vec![r(16), imm(24, 64, Hex)]));
    set(&mut f, form(0x482, "UMOV", vec![ur(16), imm(24, 64, Hex)]));
    // SEL.64 with an immediate (0x407, 33-bit signed: `-0xe599ab72`) or a register (0x607) B.
    set(&mut f, form(0x407, "SEL", vec![r(16), r(24).reuse(0), imm(32, 33, SignedHex), p(87).not(90)]));
    set(&mut f, form(0x607, "SEL", vec![r(16), r(24).reuse(0), r(32).reuse(1), p(87).not(90)]));
    // SEL.64 with a uniform-register B (`@P1 SEL.64 R6, R22, UR4, !P0`; bit 91 set).
    set(&mut f, form(0xe07, "SEL", vec![r(16), r(24).reuse(0), ur(32), p(87).not(90)]));
    // (FADD 0xe21 and MUFU 0xd08, a uniform B, are sm_90's `more` forms, on every arch.)
    // STL with a uniform register (bit 91 shows it), as STS 0x988.
    set(&mut f, form(0x987, "STL", vec![super::sm90::mem(true, None, Some(64), Some(91), None), r(32)]));
    // CS2UR: CS2R into a uniform register.
    set(&mut f, form(0x8cb, "CS2UR", vec![ur(16), Slot::new(Kind::Sr(72))]));
    // UIADD3.64: UIADD3's layout (0x290 / 0x890).
    for (key, from) in [(0x297u16, 0x290u16), (0x897, 0x890)] {
        if let Some(mut fm) = f.iter().find(|x| x.key == from).cloned() {
            fm.key = key;
            set(&mut f, fm);
        }
    }
    // UVIMNMX: VIMNMX on the uniform datapath.
    set(&mut f, form(0x84a, "UVIMNMX", vec![ur(16), ur(24), imm(32, 32, SignedHex), up(87).not(90)]));
    set(&mut f, form(0x24a, "UVIMNMX", vec![ur(16), ur(24), ur(32), up(87).not(90)]));
    // Uniform conversions.
    set(&mut f, form(0x25a, "UI2F", vec![ur(16), ur(32)]));
    set(&mut f, form(0x25e, "UI2FP", vec![ur(16), ur(32)]));
    // UI2F of a 32-bit immediate, printed in hex (`UI2F.U32.RP UR4, 0x3`).
    set(&mut f, form(0x85a, "UI2F", vec![ur(16), imm(32, 32, Hex)]));
    // UFMUL: FMUL on the uniform datapath (`UFMUL UR6, UR6, UR7`): A's `-`/`|x|` at 72/73, B's
    // at 63/62; FMUL's modifier bits (`.FMZ` 76, `.SAT` 77, rounding 78/79, `.FTZ` 80, `.M2`/`.M4`
    // 84/85), bit 86 and bit 91 set.
    set(&mut f, form(0x256, "UFMUL", vec![ur(16), ur(24).neg(72).abs(73), ur(32).neg(63).abs(62)]));
    // UFFMA: FFMA on the uniform datapath (`UFFMA UR4, UR4, 1.84467440737095516160e+19, URZ`,
    // ptxas's div.rm.f32): A's `-`/`|x|` at 72/73, B a uniform register (0x255, `-`/`|x|` at
    // 63/62) or an FP32 immediate (0x855), C at 64 with `-`/`|x|` at 75/74; FFMA's modifier
    // bits (`.FMZ` 76, `.SAT` 77, rounding 78/79, `.FTZ` 80), bit 91 set (nvdisasm -b SM120).
    let ua = || ur(24).neg(72).abs(73);
    let uc = || ur(64).neg(75).abs(74);
    set(&mut f, form(0x255, "UFFMA", vec![ur(16), ua(), ur(32).neg(63).abs(62), uc()]));
    set(&mut f, form(0x855, "UFFMA", vec![ur(16), ua(), imm(32, 32, ImmStyle::F32), uc()]));
    // UFFMA with an FP32 immediate C, B at 64 (`UFFMA UR4, UR6, UR5, 1`), and UFADD with an
    // FP32 immediate B (`UFADD.FTZ UR4, -URZ, -1.5`), FFMA's/FADD's modifier bits.
    set(&mut f, form(0x455, "UFFMA", vec![ur(16), ua(), ur(64), imm(32, 32, ImmStyle::F32)]));
    set(&mut f, form(0x454, "UFADD", vec![ur(16), ua(), imm(32, 32, ImmStyle::F32)]));
    // IMNMX (32- and 64-bit): two predicate results (81, 84), the select predicate (87, `!`
    // at 90) and a second predicate (77, `!` at 80), all always shown
    // (`IMNMX.U64 PT, PT, R20, R12, R16, !PT, !PT`); the type is bits 73 (signed) and 74
    // (64-bit): `.U32`, ``, `.U64`, `.S64`. B is a register, a signed immediate or a uniform
    // register (0xa17, a constant B, is rejected by nvdisasm).
    for (key, b) in [(0x217u16, r(32).reuse(1)), (0x817, imm(32, 32, SignedHex)), (0xc17, ur(32))] {
        set(&mut f, form(key, "IMNMX", vec![p(81), p(84), r(16), r(24).reuse(0), b, p(87).not(90), p(77).not(80)]));
    }
    // CALL.ABS through a register (`CALL.ABS.NOINC R2`; `.NOINC` is bit 86): an absolute
    // offset added to it, stored as BRX's split offset, printed raw after a space when not 0
    // (`CALL.ABS.NOINC R2 0x4`), and an optional predicate.
    set(
        &mut f,
        form(
            0x343,
            "CALL",
            vec![p(87).not(90).opt(), r(24).glued(), Slot::new(Kind::Target(TargetKind::SplitRelative)).opt()],
        ),
    );
    // LEPC: the address of a label (`LEPC R20, 0x20`), a byte offset from the next
    // instruction in [24:82).
    set(&mut f, form(0x94e, "LEPC", vec![r(16), Slot::new(Kind::Target(TargetKind::Wide))]));
    for fm in f.iter_mut() {
        let slots: Vec<Slot> =
            fm.slots.iter().map(|s| if matches!(s.kind, Kind::CBank { .. }) { *s } else { s.ur8() }).collect();
        fm.slots = slots.into_boxed_slice();
        if fm.base.starts_with('U') || fm.base == "S2UR" || fm.base == "LDCU" || fm.base == "CS2UR" {
            fm.uniform_guard = true;
        }
    }
    f.sort_by_key(|x| x.key);
    f
}

/// UFMUL's fixed bits (86, 91): its modifier residues add FMUL's.
const UFMUL: u128 = 1 << 91 | 1 << 86;
/// UFFMA's fixed bit (91): its modifier residues add FFMA's.
const UFFMA: u128 = 1 << 91;

/// UFFMA's modifiers (both forms): `.FMZ` 76, `.SAT` 77, rounding [78:80), `.FTZ` 80 (`.FTZ`
/// with `.FMZ` prints `.INVALID3`: left out), in nvdisasm -b SM120's order.
macro_rules! uffma_mods {
    ($($key:literal),*) => {
        &[$(
            ModEntry { key: $key, residue: UFFMA, suffix: "" },
            ModEntry { key: $key, residue: UFFMA | 1 << 76, suffix: ".FMZ" },
            ModEntry { key: $key, residue: UFFMA | 2 << 76, suffix: ".SAT" },
            ModEntry { key: $key, residue: UFFMA | 3 << 76, suffix: ".FMZ.SAT" },
            ModEntry { key: $key, residue: UFFMA | 4 << 76, suffix: ".RM" },
            ModEntry { key: $key, residue: UFFMA | 5 << 76, suffix: ".FMZ.RM" },
            ModEntry { key: $key, residue: UFFMA | 6 << 76, suffix: ".RM.SAT" },
            ModEntry { key: $key, residue: UFFMA | 7 << 76, suffix: ".FMZ.RM.SAT" },
            ModEntry { key: $key, residue: UFFMA | 8 << 76, suffix: ".RP" },
            ModEntry { key: $key, residue: UFFMA | 9 << 76, suffix: ".FMZ.RP" },
            ModEntry { key: $key, residue: UFFMA | 10 << 76, suffix: ".RP.SAT" },
            ModEntry { key: $key, residue: UFFMA | 11 << 76, suffix: ".FMZ.RP.SAT" },
            ModEntry { key: $key, residue: UFFMA | 12 << 76, suffix: ".RZ" },
            ModEntry { key: $key, residue: UFFMA | 13 << 76, suffix: ".FMZ.RZ" },
            ModEntry { key: $key, residue: UFFMA | 14 << 76, suffix: ".RZ.SAT" },
            ModEntry { key: $key, residue: UFFMA | 15 << 76, suffix: ".FMZ.RZ.SAT" },
            ModEntry { key: $key, residue: UFFMA | 16 << 76, suffix: ".FTZ" },
            ModEntry { key: $key, residue: UFFMA | 18 << 76, suffix: ".FTZ.SAT" },
            ModEntry { key: $key, residue: UFFMA | 20 << 76, suffix: ".FTZ.RM" },
            ModEntry { key: $key, residue: UFFMA | 22 << 76, suffix: ".FTZ.RM.SAT" },
            ModEntry { key: $key, residue: UFFMA | 24 << 76, suffix: ".FTZ.RP" },
            ModEntry { key: $key, residue: UFFMA | 26 << 76, suffix: ".FTZ.RP.SAT" },
            ModEntry { key: $key, residue: UFFMA | 28 << 76, suffix: ".FTZ.RZ" },
            ModEntry { key: $key, residue: UFFMA | 30 << 76, suffix: ".FTZ.RZ.SAT" },
        )*]
    };
}
/// [`uffma_mods`] of the register (0x255) and immediate (0x855) forms.
const UFFMA_MODS: &[ModEntry] = uffma_mods!(0x255, 0x855);
/// UI2F with an immediate: bits 91, 85 and 76 (destination F32) set, round-to-nearest, `.U32`;
/// rounding is 78/79 (`.RM` 1, `.RP` 2, `.RZ` 3). The signed source (bit 74) prints its
/// immediate signed (`UI2F UR63, -0x1`), which the form's hex slot does not model: left out.
const UI2F_IMM: u128 = 1 << 91 | 1 << 85 | 1 << 76;

/// Hand-written modifier entries the generator leaves out (no corpus word carries them), each
/// checked by a unit test below on a word `nvdisasm -b SM120` printed: `HADD2.F32` (bit 78), as
/// on sm_90 and sm_100; IMNMX's types the corpus does not show (bits 73/74: `.U32`, none,
/// `.U64`; the corpus has `.U64`/`.S64` on 0x217 and `.S64` on 0xc17, whose uniform-register
/// form also sets bit 91), every type of IMNMX with an immediate B (0x817); `CALL.ABS` without
/// `.NOINC` (bit 86); UFMUL (0x256), UI2F of an immediate (0x85a), BRXU (0x958, also
/// sm_100's) and SEL.64 with a uniform B (0xe07), whose corpus kernels the tables were
/// generated without.
const HAND_MODS: &[ModEntry] = &[
    // PLOP3 with a uniform-register B (0xc1f, bit 91), as the register form's `.LUT`.
    ModEntry { key: 0xc1f, residue: 1 << 91, suffix: ".LUT" },
    ModEntry { key: 0x217, residue: 0, suffix: ".U32" },
    ModEntry { key: 0x217, residue: 1 << 73, suffix: "" },
    ModEntry { key: 0x230, residue: 1 << 78, suffix: ".F32" },
    // `.F32.SAT` (bit 77; the form sweep's `cvt.sat.f32.f16`).
    ModEntry { key: 0x230, residue: 3 << 77, suffix: ".F32.SAT" },
    ModEntry { key: 0x256, residue: UFMUL, suffix: "" },
    ModEntry { key: 0x256, residue: UFMUL | 1 << 77, suffix: ".SAT" },
    ModEntry { key: 0x256, residue: UFMUL | 1 << 78, suffix: ".RM" },
    ModEntry { key: 0x256, residue: UFMUL | 1 << 79, suffix: ".RP" },
    ModEntry { key: 0x256, residue: UFMUL | 3 << 78, suffix: ".RZ" },
    ModEntry { key: 0x256, residue: UFMUL | 1 << 80, suffix: ".FTZ" },
    ModEntry { key: 0x256, residue: UFMUL | 1 << 80 | 1 << 77, suffix: ".FTZ.SAT" },
    ModEntry { key: 0x256, residue: UFMUL | 1 << 80 | 3 << 78, suffix: ".FTZ.RZ" },
    ModEntry { key: 0x343, residue: 0, suffix: ".ABS" },
    ModEntry { key: 0x817, residue: 0, suffix: ".U32" },
    ModEntry { key: 0x817, residue: 1 << 73, suffix: "" },
    ModEntry { key: 0x817, residue: 1 << 74, suffix: ".U64" },
    ModEntry { key: 0x817, residue: 3 << 73, suffix: ".S64" },
    ModEntry { key: 0x85a, residue: UI2F_IMM, suffix: ".U32" },
    ModEntry { key: 0x85a, residue: UI2F_IMM | 1 << 78, suffix: ".U32.RM" },
    ModEntry { key: 0x85a, residue: UI2F_IMM | 1 << 79, suffix: ".U32.RP" },
    ModEntry { key: 0x85a, residue: UI2F_IMM | 3 << 78, suffix: ".U32.RZ" },
    ModEntry { key: 0x958, residue: 1 << 91, suffix: "" },
    ModEntry { key: 0xe07, residue: 1 << 91, suffix: ".64" },
    ModEntry { key: 0xc17, residue: 1 << 91, suffix: ".U32" },
    ModEntry { key: 0xc17, residue: 1 << 91 | 1 << 73, suffix: "" },
    ModEntry { key: 0xc17, residue: 1 << 91 | 1 << 74, suffix: ".U64" },
];

/// The generated modifier entries, sorted by (key, residue), without [`HAND_MODS`].
pub fn generated_mods() -> &'static [ModEntry] {
    generated::MODS
}

/// The hand-written modifier entries ([`HAND_MODS`], [`UFFMA_MODS`] and sm_100's
/// [`super::sm100::BLACKWELL_MODS`]), sorted by (key, residue).
pub fn hand_mods() -> &'static [ModEntry] {
    HAND.as_slice()
}

static HAND: LazyLock<Vec<ModEntry>> = LazyLock::new(|| {
    let mut v: Vec<ModEntry> =
        HAND_MODS.iter().chain(UFFMA_MODS).chain(super::sm100::BLACKWELL_MODS).cloned().collect();
    v.sort_by_key(|e| (e.key, e.residue));
    v
});
static FORMS: LazyLock<Vec<Form>> = LazyLock::new(build);
static MODS: LazyLock<Vec<ModEntry>> = LazyLock::new(|| {
    let mut v: Vec<ModEntry> = generated::MODS.iter().chain(HAND.iter()).cloned().collect();
    // `I2IP` (`cvt.pack.sat`), as on sm_90 (`sm90::i2ip`, words checked on this arch there).
    v.extend(crate::sass::sm90::i2ip::mods());
    v.extend(crate::sass::families::mods(generated::MODS, true));
    v.sort_by_key(|e| (e.key, e.residue));
    // A hand entry the generator has learned since (the same suffix) is kept once.
    v.dedup_by(|a, b| (a.key, a.residue, a.suffix) == (b.key, b.residue, b.suffix));
    v
});
static TABLES: LazyLock<Tables> =
    LazyLock::new(|| Tables { name: "SM120", forms: FORMS.as_slice(), mods: MODS.as_slice(), sregs: generated::SREGS });

/// The sm_120 tables.
pub fn tables() -> &'static Tables {
    &TABLES
}

#[cfg(test)]
mod tests {
    #[test]
    fn forms_sorted_unique() {
        let f = super::tables().forms;
        assert!(f.windows(2).all(|w| w[0].key < w[1].key));
    }

    /// The forms sm_120 adds over sm_100's for IMNMX, CALL.ABS and LEPC: corpus words (ptxas
    /// 13.0.88, sm_120) and words with the hand entries' residues, each printed by
    /// `nvdisasm -b SM120` (13.0.88) as written here (branch targets as `-b` prints the word at
    /// address 0); each decodes, prints the same, encodes back to the same 128 bits, and its text
    /// parses back to the same word.
    #[test]
    fn imnmx_call_abs_lepc_match_nvdisasm() {
        let t = super::tables();
        for (word, text) in [
            // Corpus words.
            (0x000f_c800_07ff_e400_0000_0010_0c14_7217u128, "IMNMX.U64 PT, PT, R20, R12, R16, !PT, !PT"),
            (0x084f_e400_03ff_e400_0000_000a_0214_7217, "IMNMX.U64 PT, PT, R20, R2, R10.reuse, PT, !PT"),
            (0x040f_e400_07ff_e600_0000_000a_021a_7217, "IMNMX.S64 PT, PT, R26, R2.reuse, R10, !PT, !PT"),
            (0x000f_e400_0fff_e600_0000_0006_0c04_7c17, "IMNMX.S64 PT, PT, R4, R12, UR6, !PT, !PT"),
            (0x001f_ea00_03c0_0000_0000_0000_0200_7343, "CALL.ABS.NOINC R2"),
            (0x000f_ce00_0000_0000_0000_0000_1014_794e, "LEPC R20, 0x20"),
            // Hand entries and fields the corpus leaves at 0.
            (0x000f_c800_07ff_e000_0000_0010_0c14_7217, "IMNMX.U32 PT, PT, R20, R12, R16, !PT, !PT"),
            (0x000f_c800_07ff_e200_0000_0010_0c14_7217, "IMNMX PT, PT, R20, R12, R16, !PT, !PT"),
            (0x000f_c800_07ff_e400_0000_0010_0c14_7817, "IMNMX.U64 PT, PT, R20, R12, 0x10, !PT, !PT"),
            (0x000f_c800_07ff_e400_8000_0010_0c14_7817, "IMNMX.U64 PT, PT, R20, R12, -0x7ffffff0, !PT, !PT"),
            (0x000f_c800_07ff_e600_8000_0010_0c14_7817, "IMNMX.S64 PT, PT, R20, R12, -0x7ffffff0, !PT, !PT"),
            (0x000f_c800_07ff_e000_8000_0010_0c14_7817, "IMNMX.U32 PT, PT, R20, R12, -0x7ffffff0, !PT, !PT"),
            (0x000f_c800_07ff_e200_8000_0010_0c14_7817, "IMNMX PT, PT, R20, R12, -0x7ffffff0, !PT, !PT"),
            (0x000f_e400_0fff_e400_0000_0006_0c04_7c17, "IMNMX.U64 PT, PT, R4, R12, UR6, !PT, !PT"),
            (0x000f_e400_0fff_e200_0000_0006_0c04_7c17, "IMNMX PT, PT, R4, R12, UR6, !PT, !PT"),
            (0x000f_e400_0fff_e000_0000_0006_0c04_7c17, "IMNMX.U32 PT, PT, R4, R12, UR6, !PT, !PT"),
            (0x001f_ea00_0380_0000_0000_0000_0200_7343, "CALL.ABS R2"),
            (0x001f_ea00_03c0_0000_0000_0000_0201_7343, "CALL.ABS.NOINC R2 0x4"),
            (0x001f_ea00_0040_0000_0000_0000_0200_7343, "CALL.ABS.NOINC P0, R2"),
            (0x000f_ce00_0000_0000_ffff_ff00_1014_794e, "LEPC R20, 0xffffff0020"),
            (0x000f_ce00_0000_0000_0000_0000_1014_f94e, "@!PT LEPC R20, 0x20"),
        ] {
            crate::sass::test_words::assert_nvdisasm_word(t, 0, word, text);
        }
        // LEPC's offset is 58 bits signed (bit 81 is the sign: `nvdisasm -b SM120` prints
        // `LEPC R20, -0x1ffffffffffffe0` for the corpus word with bit 81 set).
        let lepc = t.decode(0x000f_ce00_0000_0000_0000_0000_1014_794e | 1 << 81).expect("decodes");
        assert_eq!(t.print(&lepc, 0, None), "LEPC R20, -0x1ffffffffffffe0");
        // A cubin listing names the target; an offset outside the field does not encode.
        assert_eq!(t.print(&lepc, 0, Some(&|_| Some(".L_x_3".to_string()))), "LEPC R20, `(.L_x_3)");
        let mut far = lepc.clone();
        far.operands[1].value = crate::sass::Value::Target(1 << 57);
        assert!(t.encode(&far).is_err());
    }

    /// UFFMA (0x255, 0x855): ptxas's word (div_rm_f32, the form sweep) and bit flips of it, each
    /// as `nvdisasm -b SM120` (13.0.88) printed it.
    #[test]
    fn uffma_matches_nvdisasm() {
        let t = super::tables();
        for (word, text) in [
            (0x000f_cc00_0800_00ff_5f80_0000_0404_7855u128, "UFFMA UR4, UR4, 1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0800_01ff_5f80_0000_0404_7855, "UFFMA UR4, -UR4, 1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0800_02ff_5f80_0000_0404_7855, "UFFMA UR4, |UR4|, 1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0800_04ff_5f80_0000_0404_7855, "UFFMA UR4, UR4, 1.84467440737095516160e+19, |URZ|"),
            (0x000f_cc00_0800_08ff_5f80_0000_0404_7855, "UFFMA UR4, UR4, 1.84467440737095516160e+19, -URZ"),
            (0x000f_cc00_0800_10ff_5f80_0000_0404_7855, "UFFMA.FMZ UR4, UR4, 1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0800_20ff_5f80_0000_0404_7855, "UFFMA.SAT UR4, UR4, 1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0800_40ff_5f80_0000_0404_7855, "UFFMA.RM UR4, UR4, 1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0800_80ff_5f80_0000_0404_7855, "UFFMA.RP UR4, UR4, 1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0801_00ff_5f80_0000_0404_7855, "UFFMA.FTZ UR4, UR4, 1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0800_00ff_df80_0000_0404_7855, "UFFMA UR4, UR4, -1.84467440737095516160e+19, URZ"),
            (0x000f_cc00_0800_0005_5f80_0000_0404_7855, "UFFMA UR4, UR4, 1.84467440737095516160e+19, UR5"),
            (0x000f_cc00_0800_0006_0000_0005_0404_7255, "UFFMA UR4, UR4, UR5, UR6"),
            (0x000f_cc00_0800_0106_0000_0005_0404_7255, "UFFMA UR4, -UR4, UR5, UR6"),
            (0x000f_cc00_0800_0206_0000_0005_0404_7255, "UFFMA UR4, |UR4|, UR5, UR6"),
            (0x000f_cc00_0800_0406_0000_0005_0404_7255, "UFFMA UR4, UR4, UR5, |UR6|"),
            (0x000f_cc00_0800_0806_0000_0005_0404_7255, "UFFMA UR4, UR4, UR5, -UR6"),
            (0x000f_cc00_0800_0006_4000_0005_0404_7255, "UFFMA UR4, UR4, |UR5|, UR6"),
            (0x000f_cc00_0800_0006_8000_0005_0404_7255, "UFFMA UR4, UR4, -UR5, UR6"),
            (0x000f_cc00_0800_1006_0000_0005_0404_7255, "UFFMA.FMZ UR4, UR4, UR5, UR6"),
            (0x000f_cc00_0801_0006_0000_0005_0404_7255, "UFFMA.FTZ UR4, UR4, UR5, UR6"),
        ] {
            crate::sass::test_words::assert_nvdisasm_word(t, 0, word, text);
        }
    }

    /// UFMUL (0x256), UI2F of an immediate (0x85a), BRXU (0x958) and SEL.64 with a uniform B
    /// (0xe07): a corpus word of each (ptxas 13.0.88, sm_120: sreg_cluster_smem, module_init,
    /// brx_idx, callproto_indirect) and words with the hand
    /// entries' residues and other operand fields, each printed by `nvdisasm -b SM120` (13.0.88)
    /// as written here; each decodes, prints the same, encodes back to the same 128 bits, and its
    /// text parses back to the same word.
    #[test]
    fn ufmul_ui2f_imm_brxu_sel64_match_nvdisasm() {
        let t = super::tables();
        for (word, text) in [
            // Corpus words.
            (0x000f_e200_0840_0000_0000_0007_0606_7256u128, "UFMUL UR6, UR6, UR7"),
            (0x000f_e200_0820_9000_0000_0003_0004_785a, "UI2F.U32.RP UR4, 0x3"),
            (0x000f_ea00_0b83_ffff_ffff_fffc_0484_7958, "BRXU UR4 -0x1f0"),
            // Hand entries and other fields.
            (0x000f_e200_0840_2000_0000_0007_0606_7256, "UFMUL.SAT UR6, UR6, UR7"),
            (0x000f_e200_0840_4000_0000_0007_0606_7256, "UFMUL.RM UR6, UR6, UR7"),
            (0x000f_e200_0840_8000_0000_0007_0606_7256, "UFMUL.RP UR6, UR6, UR7"),
            (0x000f_e200_0840_c000_0000_0007_0606_7256, "UFMUL.RZ UR6, UR6, UR7"),
            (0x000f_e200_0841_0000_0000_0007_0606_7256, "UFMUL.FTZ UR6, UR6, UR7"),
            (0x000f_e200_0841_2000_0000_0007_0606_7256, "UFMUL.FTZ.SAT UR6, UR6, UR7"),
            (0x000f_e200_0841_c000_0000_0007_0606_7256, "UFMUL.FTZ.RZ UR6, UR6, UR7"),
            (0x000f_e200_0840_0100_4000_00ff_0aff_7256, "UFMUL URZ, -UR10, |URZ|"),
            (0x000f_e200_0840_0200_8000_000a_ff0b_7256, "UFMUL UR11, |URZ|, -UR10"),
            (0x000f_e200_0820_1000_0000_0003_0004_785a, "UI2F.U32 UR4, 0x3"),
            (0x000f_e200_0820_5000_0000_0003_0004_785a, "UI2F.U32.RM UR4, 0x3"),
            (0x000f_e200_0820_d000_0000_0003_0004_785a, "UI2F.U32.RZ UR4, 0x3"),
            (0x000f_e200_0820_9000_8000_0003_0004_785a, "UI2F.U32.RP UR4, 0x80000003"),
            (0x000f_ea00_0b83_ffff_ffff_fffc_3e84_7958, "BRXU UR62 -0x1f0"),
            (0x000f_ea00_0883_ffff_ffff_fffc_0484_0958, "@P0 BRXU P1, UR4 -0x1f0"),
            (0x000f_ea00_0b80_0000_0000_0010_0400_7958, "BRXU UR4 0x1000"),
            (0x000f_ea00_0f83_ffff_ffff_fffc_0484_9958, "@!P1 BRXU !PT, UR4 -0x1f0"),
            // SEL.64 with a uniform B: a corpus word (callproto_indirect) and other fields.
            (0x000f_c400_0c00_0000_0000_0004_1606_1e07, "@P1 SEL.64 R6, R22, UR4, !P0"),
            (0x000f_e400_0800_0000_0000_00ff_16ff_7e07, "SEL.64 RZ, R22, URZ, P0"),
            (0x000f_e400_0f80_0000_0000_003e_1606_7e07, "SEL.64 R6, R22, UR62, !PT"),
        ] {
            crate::sass::test_words::assert_nvdisasm_word(t, 0, word, text);
        }
    }

    #[test]
    fn mods_sorted_unique() {
        let m = super::tables().mods;
        assert!(m.windows(2).all(|w| (w[0].key, w[0].residue) < (w[1].key, w[1].residue)));
    }
}
