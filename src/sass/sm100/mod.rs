//! sm_100 tables (Blackwell datacenter): the same 128-bit word format as sm_90 and mostly the
//! same form keys and operand layouts, so the forms start from sm_90's
//! ([`super::sm90::build`]) and this module states the differences, each found by flipping bits
//! of a corpus word and decoding it with `nvdisasm -b SM100` (see `../gen/README.md`). The
//! modifier table is generated for this arch (`generated.rs`).
//!
//! Invariant: forms are sorted by key and unique (checked by a unit test).

use super::form::{Form, ImmStyle, Kind, ModEntry, Show, Slot, Tables, TargetKind};
use super::sm90::{form, imm, p, r, ur};
use std::sync::LazyLock;

mod generated;

/// sm_90 forms with no sm_100 counterpart: `ULDC` (sm_100 loads uniform constants with `LDCU`).
const HOPPER_ONLY: &[&str] = &["ULDC"];

/// Replaces the form of `key` (or adds it).
fn set(f: &mut Vec<Form>, fm: Form) {
    f.retain(|x| x.key != fm.key);
    f.push(fm);
}

/// Applies `f` to every slot of `fm`.
fn map_slots(fm: &mut Form, f: impl Fn(Slot) -> Slot) {
    let slots: Vec<Slot> = fm.slots.iter().map(|s| f(*s)).collect();
    fm.slots = slots.into_boxed_slice();
}

/// A slot with 8-bit uniform-register fields; constant operands keep their (general) index
/// register, except `LDCU`'s, set where it is built.
fn ur8(s: Slot) -> Slot {
    if matches!(s.kind, Kind::CBank { .. }) { s } else { s.ur8() }
}

/// Forms whose global address has a 23-bit offset at 40 (bit 63 belongs to the operation):
/// `ATOMG` and `ATOM` (`nvdisasm -b SM100`: flipping bit 62 of `[R2.64+0x38]` gives
/// `-0x3fffc8`, bit 63 is rejected).
const ATOMIC_23: &[u16] = &[0x9a8, 0x9a3, 0x98a];

/// sm_90 forms adapted to sm_100 (shared with sm_120, see `../sm120`).
pub(crate) fn build() -> Vec<Form> {
    let mut f = super::sm90::build();
    f.retain(|fm| !HOPPER_ONLY.contains(&fm.base));
    // PLOP3 with a constant B (`sm80::plop3_constant`): nvdisasm -b SM100/SM120 reject it.
    f.retain(|fm| fm.key != 0xa1f);
    for fm in f.iter_mut() {
        let key = fm.key;
        let base = fm.base;
        map_slots(fm, |s| {
            // Uniform-register fields are 8 bits (`UR254`; 255 is URZ).
            let s = ur8(s);
            match s.kind {
                // IADD3's / UIADD3's carry-out predicates are always shown
                // (`IADD3 R2, PT, PT, R0, UR4, RZ`).
                Kind::P(81 | 84) | Kind::Up(81 | 84) if base == "IADD3" || base == "UIADD3" => {
                    Slot { show: Show::Always, ..s }
                }
                Kind::Mem { .. } if ATOMIC_23.contains(&key) => {
                    let mut s = s;
                    if let Kind::Mem { ref mut off_width, .. } = s.kind {
                        *off_width = 23;
                    }
                    s
                }
                _ => s,
            }
        });
        // VIMNMX gains two predicate results, always shown (`VIMNMX R7, PT, PT, RZ, R7, !PT`).
        if base == "VIMNMX" {
            let mut slots = fm.slots.to_vec();
            slots.splice(1..1, [p(81), p(84)]);
            fm.slots = slots.into_boxed_slice();
        }
    }
    blackwell(&mut f);
    for fm in f.iter_mut() {
        map_slots(fm, ur8);
        if fm.base.starts_with('U') || fm.base == "S2UR" || fm.base == "LDCU" {
            fm.uniform_guard = true;
        }
    }
    f.sort_by_key(|x| x.key);
    f
}

/// Forms new on sm_100 or laid out differently from sm_90's, each found by single-bit flips
/// of a corpus word through `nvdisasm -b SM100`.
fn blackwell(f: &mut Vec<Form>) {
    super::sm80::sweep_forms(f, false);
    use super::sm90::up;
    use ImmStyle::{HalfBy, SignedHex};
    // LDCU: a uniform constant load (replaces ULDC): signed byte offset [37:54), uniform index
    // register at 24 (`c[0x0][UR4+0x10]`); `.64`/`.128`/`.U8`.. in [73:76).
    set(
        f,
        form(
            0x7ac,
            "LDCU",
            vec![
                ur(16),
                Slot::new(Kind::CBank { off_at: 37, off_width: 17, scale: 1, index_at: Some(24), signed: true }).ur8(),
            ],
        ),
    );
    // BSSY: `.RECONVERGENT` is bit 73; the target a word offset in [34:64); an optional
    // predicate at 87 (`BSSY.RECONVERGENT P6, B0, target`).
    set(
        f,
        form(
            0x945,
            "BSSY",
            vec![p(87).not(90).opt(), Slot::new(Kind::B(16)), Slot::new(Kind::Target(TargetKind::QuadNarrow))],
        ),
    );
    // BRA on a uniform predicate (`BRA.U UP0, target`, `!UP0` at 27): split target as 0x947.
    set(f, form(0x547, "BRA", vec![p(87).not(90).opt(), up(24).not(27), Slot::new(Kind::Target(TargetKind::Split))]));
    // CREDUX: a warp reduction into a uniform register (`CREDUX.MAX UR5, R0`).
    set(f, form(0x2cc, "CREDUX", vec![ur(16), r(24).reuse(0)]));
    // ATOMS.CAST.SPIN with a predicate result and a scaled address.
    let shared = super::sm90::addr(24, 40, 24).scaled(78);
    set(f, form(0x58d, "ATOMS", vec![p(81), shared, r(32), r(64)]));
    // UPLOP3: PLOP3's layout (0x81c) on uniform predicates.
    set(
        f,
        form(
            0x89c,
            "UPLOP3",
            vec![
                up(81),
                up(84),
                up(87).not(90),
                up(77).not(80),
                up(68).not(71),
                Slot::new(Kind::ImmSplit { lo_at: 64, lo_width: 3, hi_at: 72, hi_width: 5 }),
                imm(16, 8, ImmStyle::Hex),
            ],
        ),
    );
    // UIMAD with an immediate B; `.X` (74) shows the carry-in predicate, C's `-` at 75.
    set(
        f,
        form(0x8a4, "UIMAD", vec![ur(16), ur(24), imm(32, 32, SignedHex), ur(64).neg(75), up(87).not(90).if_bit(74)]),
    );
    // HFMA2 with two FP16/BF16 immediates as C (0x431, sm_90's HFMA2.MMA 0x435 layout with half
    // selectors) or as B (0x831, the sm_80 family's layout); `.RELU` (79) shows the predicate.
    let half = || HalfBy { at: 85 };
    let relu = || p(87).not(90).if_bit_opt(79);
    let a = || r(24).neg(72).abs(73).hsel(74).reuse(0);
    // C's half selector 1 prints `.F32` on 0x431 and `.INVALID1` on 0x831.
    let c = |reuse, f32_sel| Slot { f32_sel, ..r(64).neg(84).abs(83).hsel(81).reuse(reuse) };
    set(f, form(0x431, "HFMA2", vec![r(16), a(), c(1, true), imm(48, 16, half()), imm(32, 16, half()), relu()]));
    set(f, form(0x831, "HFMA2", vec![r(16), a(), imm(48, 16, half()), imm(32, 16, half()), c(2, false), relu()]));
    // BRXU: BRX (0x949) through a uniform register at 24 (`BRXU UR4 -0x1f0`): the same split
    // signed offset, optional predicate (87, `!` at 90), `.INC`/`.DEC` at 85/86; bit 91 set.
    set(
        f,
        form(
            0x958,
            "BRXU",
            vec![p(87).not(90).opt(), ur(24).glued(), Slot::new(Kind::Target(TargetKind::SplitRelative))],
        ),
    );
}

/// Hand-written modifier entries the generator leaves out, each checked against a corpus or
/// nvdisasm-printed word by a unit test below: `HADD2.F32` (bit 78), as on sm_90; `BRXU`
/// (bit 91; no corpus word of the tables' generation carries it).
const HAND_MODS: &[ModEntry] = &[
    // PLOP3 with a uniform-register B (0xc1f, bit 91), as the register form's `.LUT`.
    ModEntry { key: 0xc1f, residue: 1 << 91, suffix: ".LUT" },
    ModEntry { key: 0x230, residue: 1 << 78, suffix: ".F32" },
    // `.F32.SAT` (bit 77; the form sweep's `cvt.sat.f32.f16`).
    ModEntry { key: 0x230, residue: 3 << 77, suffix: ".F32.SAT" },
    ModEntry { key: 0x958, residue: 1 << 91, suffix: "" },
];

/// Hand-written entries sm_120 shares ([`super::sm120`] chains them), each checked by a unit
/// test on words `nvdisasm -b SM100` and `-b SM120` print alike.
pub(super) const BLACKWELL_MODS: &[ModEntry] = &[
    // Sign-extending local loads (`LDL.S8`, `LDL.S16`: size field [73:76) = 1 and 3, as on
    // sm_90); no sm_100 corpus word of the tables' generation carries them.
    ModEntry { key: 0x983, residue: 0x1002 << 72, suffix: ".S8" },
    ModEntry { key: 0x983, residue: 0x1006 << 72, suffix: ".S16" },
    // SYNCS.ARRIVE.TRANS64's modes beyond the generated ones, as on sm_90 (`.RED` bit 74,
    // `.OPTOUT` bit 75, the mode [84:87)): `.ART0` (the arrival count in Rb, ptxas -O0's
    // `mbarrier.arrive [b], %r`), `mbarrier.expect_tx`'s `.RED.A0TR`, `complete_tx`'s
    // `.RED.A0TX` and `arrive_drop`'s `.OPTOUT` modes; see `syncs_arrive_modes_match_nvdisasm`.
    ModEntry { key: 0x9a7, residue: 0x85 << 84, suffix: ".ARRIVE.TRANS64.ART0" },
    ModEntry { key: 0x9a7, residue: 0x83 << 84 | 1 << 74, suffix: ".ARRIVE.TRANS64.RED.A0TR" },
    ModEntry { key: 0x9a7, residue: 0x84 << 84 | 1 << 74, suffix: ".ARRIVE.TRANS64.RED.A0TX" },
    ModEntry { key: 0x9a7, residue: 0x81 << 84 | 1 << 75, suffix: ".ARRIVE.TRANS64.OPTOUT.A1T0" },
    ModEntry { key: 0x9a7, residue: 0x85 << 84 | 1 << 75, suffix: ".ARRIVE.TRANS64.OPTOUT.ART0" },
    ModEntry { key: 0x9a7, residue: 0x80 << 84 | 1 << 75, suffix: ".ARRIVE.TRANS64.OPTOUT" },
    // CALL.ABS / RET.ABS / RET.REL as on sm_90 (`.NOINC` bit 86 on CALL, `.ABS` bit 85 and
    // `.NODEC` bit 86 on RET): nvcc -G's calls across sections and their returns; the generator
    // cannot learn them (it prints targets as labels, nvdisasm an absolute one as a number).
    // See `call_ret_abs_match_nvdisasm`.
    ModEntry { key: 0x943, residue: 0, suffix: ".ABS" },
    ModEntry { key: 0x943, residue: 1 << 86, suffix: ".ABS.NOINC" },
    ModEntry { key: 0x950, residue: 0, suffix: ".REL" },
    ModEntry { key: 0x950, residue: 1 << 85, suffix: ".ABS" },
    ModEntry { key: 0x950, residue: 3 << 85, suffix: ".ABS.NODEC" },
];

/// The hand-written modifier entries ([`HAND_MODS`] and [`BLACKWELL_MODS`]), sorted by (key,
/// residue).
pub fn hand_mods() -> &'static [ModEntry] {
    HAND.as_slice()
}

static HAND: LazyLock<Vec<ModEntry>> = LazyLock::new(|| {
    let mut v: Vec<ModEntry> = HAND_MODS.iter().chain(BLACKWELL_MODS).cloned().collect();
    v.sort_by_key(|e| (e.key, e.residue));
    v
});

/// The generated modifier entries, sorted by (key, residue), without [`HAND_MODS`].
pub fn generated_mods() -> &'static [ModEntry] {
    generated::MODS
}

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
    LazyLock::new(|| Tables { name: "SM100", forms: FORMS.as_slice(), mods: MODS.as_slice(), sregs: generated::SREGS });

/// The sm_100 tables.
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

    /// Corpus words (ptxas 13.0.88, sm_100) of the layouts this arch changes or adds: decode,
    /// print as nvdisasm printed them (branch targets as `nvdisasm -b SM100` prints the word at
    /// address 0), encode back to the same 128 bits; the text parses back to an instruction that
    /// prints the same.
    #[test]
    fn blackwell_corpus_words() {
        let t = super::tables();
        for (word, text) in [
            (0x000e_6200_0800_0a00_0000_6b00_ff06_77acu128, "LDCU.64 UR6, c[0x0][0x358]"),
            (0x001f_ca00_07f3_e0ff_0000_0400_0202_7810, "IADD3 R2, P1, PT, R2, 0x400, RZ"),
            (0x000f_e400_07fe_0100_0000_0007_ff07_7248, "VIMNMX R7, PT, PT, RZ, R7, !PT"),
            (0x0001_6200_0b1e_f508_8000_38ff_020c_79a8, "ATOMG.E.OR.64.STRONG.GPU PT, R12, desc[UR8][R2.64+0x38], RZ"),
            (0x000f_da00_0000_0000_0000_0000_0005_72cc, "CREDUX.MAX UR5, R0"),
            (0x000e_2400_0182_0003_0000_0002_0a00_758d, "ATOMS.CAST.SPIN P1, [R10], R2, R3"),
            (0x000f_e400_03f0_f070_0000_0000_0008_789c, "UPLOP3.LUT UP0, UPT, UPT, UPT, UPT, 0x80, 0x8"),
            (0x000f_e200_0000_0008_0000_0001_0508_7416, "PRMT R8, R5, R8, 0x1"),
            (0x000f_e400_0f8e_02ff_0000_0018_0b08_78a4, "UIMAD UR8, UR11, 0x18, URZ"),
            (0x000f_e200_0000_01ff_0000_0000_ff17_7431, "HFMA2 R23, -RZ, RZ, 0, 0"),
            (0x150f_e400_0020_0009_3f80_3f80_060f_7831, "HFMA2.BF16_V2 R15, R6.reuse, 1, 1, R9.reuse"),
            (0x004f_ca00_0000_4100_2000_000e_ff0e_7230, "HADD2.F32 R14, -RZ, R14.H0_H0"),
            (0x000e_2400_0000_0800_0080_0000_0402_7b82, "LDC R2, c[0x2][R4]"),
            (0x000f_e200_0fff_e1ff_0000_00ff_0404_7290, "UIADD3 UR4, UPT, UPT, -UR4, URZ, URZ"),
            (0x000f_e200_0380_0200_0000_0180_0000_7945, "BSSY.RECONVERGENT B0, 0x190"),
            (0x000f_ea00_0b80_0000_0000_0001_0048_7547, "BRA.U UP0, 0x130"),
        ] {
            let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.print(&inst, 0, None), text);
            assert_eq!(t.encode(&inst).expect("encodes"), word, "{text}");
            let parsed = t.parse(text, 0).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.print(&parsed, 0, None), text, "{text} parsed");
        }
    }

    /// BRXU (0x958): a corpus word (ptxas 13.0.88, sm_100, brx_idx) and words with other
    /// fields, each printed by `nvdisasm -b SM100` (13.0.88) as written here; each decodes,
    /// prints the same, encodes back to the same 128 bits, and its text parses back to the same
    /// word.
    #[test]
    fn brxu_matches_nvdisasm() {
        let t = super::tables();
        for (word, text) in [
            (0x000f_ea00_0b83_ffff_ffff_fffc_0484_7958u128, "BRXU UR4 -0x1f0"),
            (0x000f_ea00_0b83_ffff_ffff_fffc_3e84_7958, "BRXU UR62 -0x1f0"),
            (0x000f_ea00_0883_ffff_ffff_fffc_0484_0958, "@P0 BRXU P1, UR4 -0x1f0"),
            (0x000f_ea00_0b80_0000_0000_0010_0400_7958, "BRXU UR4 0x1000"),
            (0x000f_ea00_0f83_ffff_ffff_fffc_0484_9958, "@!P1 BRXU !PT, UR4 -0x1f0"),
        ] {
            crate::sass::test_words::assert_nvdisasm_word(t, 0, word, text);
        }
    }

    /// `LDL.S8`/`LDL.S16` ([`super::BLACKWELL_MODS`]): an sm_100 corpus word (ptxas 13.0.88
    /// -O0, param_struct_byval: `LDL R20, [R20]`) with the size field set to 1 and 3, each
    /// printed so by `nvdisasm -b SM100` and `-b SM120` (13.0.88); on both arches' tables each
    /// decodes, prints the same, encodes back, and its text parses to the same word but for the
    /// hidden index field at 32 (ptxas's word holds 0 there, the parser writes URZ, as for the
    /// plain `LDL`).
    #[test]
    fn ldl_sign_extending_sizes_match_nvdisasm() {
        for t in [super::tables(), crate::sass::sm120::tables()] {
            let ldl = 0x0032_1e00_0010_0800_0000_0000_1414_7983u128;
            let hidden = 0xffu128 << 32;
            for (size, text) in [(4u128, "LDL R20, [R20]"), (1, "LDL.S8 R20, [R20]"), (3, "LDL.S16 R20, [R20]")] {
                let w = (ldl & !(0x7 << 73)) | size << 73;
                let inst = crate::sass::test_words::assert_nvdisasm_decode(t, 0, w, text);
                let mut parsed = t.parse(text, 0).unwrap_or_else(|e| panic!("{text}: {e}"));
                parsed.control = inst.control;
                assert_eq!(t.encode(&parsed).expect("encodes"), w | hidden, "{text} parsed");
            }
        }
    }

    /// SYNCS.ARRIVE.TRANS64's hand-written modes ([`super::BLACKWELL_MODS`]): sm_90's words
    /// with the 8-bit URZ, each printed so by `nvdisasm -b SM100` and `-b SM120` (13.0.88); each
    /// decodes, prints the same, encodes back, and its text parses back to the same word, on
    /// both arches' tables.
    #[test]
    fn syncs_arrive_modes_match_nvdisasm() {
        for t in [super::tables(), crate::sass::sm120::tables()] {
            for (hi, text) in [
                (0x0032_1e00_0850_00ffu128, "SYNCS.ARRIVE.TRANS64.ART0 RZ, [R0+URZ], R3"),
                (0x0032_1e00_0830_04ff, "SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [R0+URZ], R3"),
                (0x0032_1e00_0840_04ff, "SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [R0+URZ], R3"),
                (0x0032_1e00_0810_08ff, "SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0 RZ, [R0+URZ], R3"),
                (0x0032_1e00_0850_08ff, "SYNCS.ARRIVE.TRANS64.OPTOUT.ART0 RZ, [R0+URZ], R3"),
                (0x0032_1e00_0800_08ff, "SYNCS.ARRIVE.TRANS64.OPTOUT RZ, [R0+URZ], R3"),
            ] {
                let word = hi << 64 | 0x0000_0003_00ff_79a7;
                crate::sass::test_words::assert_nvdisasm_word(t, 0, word, text);
            }
        }
    }

    /// sm_90's `CALL.ABS` and `RET` `.ABS`/`.REL` words (`sm90`'s `call_ret_abs_match_nvdisasm`:
    /// ptxas 13.0.88 `-c` and nvcc -G words and bit flips of them), which `nvdisasm -b SM100` and
    /// `-b SM120` print as SM90 does at the address given.
    #[test]
    fn call_ret_abs_match_nvdisasm() {
        for t in [super::tables(), crate::sass::sm120::tables()] {
            for &(addr, word, text) in crate::sass::sm90::tests::CALL_RET_ABS_WORDS {
                crate::sass::test_words::assert_nvdisasm_word(t, addr, word, text);
            }
        }
    }

    /// A uniform register 63..=254 (which nvdisasm names) does not decode; URZ is 255.
    #[test]
    fn wide_uniform_registers() {
        let t = super::tables();
        let ldcu = 0x000e_6200_0800_0a00_0000_6b00_ff06_77acu128;
        assert!(t.decode(ldcu).is_ok());
        for ur in [63u128, 64, 134, 254] {
            let w = (ldcu & !(0xff << 16)) | ur << 16;
            assert_eq!(t.decode(w).unwrap_err(), crate::sass::DecodeError::UniformRegister, "UR{ur}");
        }
    }

    #[test]
    fn mods_sorted_unique() {
        let m = super::tables().mods;
        assert!(m.windows(2).all(|w| (w[0].key, w[0].residue) < (w[1].key, w[1].residue)));
    }
}
