//! sm_80 / sm_86 / sm_89 tables (Ampere and Ada): the same 128-bit word format as sm_90 and
//! mostly the same form keys and operand layouts, so the forms start from sm_90's
//! ([`super::sm90::build`]) and this module states the differences, each found by flipping bits
//! of a corpus word and decoding it with `nvdisasm -b SM80` (see `../gen/README.md`). The
//! modifier table is generated separately for this family (`generated.rs`).
//!
//! Invariant: forms are sorted by key and unique (checked by a unit test).

use super::form::{Form, Kind, ModEntry, NegStyle, Slot, Tables, TargetKind};
use super::sm90::{form, imm, r, ur};
use std::sync::LazyLock;

mod generated;

/// sm_90 forms with no sm_80 counterpart (Hopper's cluster, bulk-copy, mbarrier, warpgroup
/// and fused integer instructions): left out.
const HOPPER_ONLY: &[&str] = &[
    "SYNCS",
    "UBLKCP",
    "HGMMA",
    "IGMMA",
    "QGMMA",
    "WARPGROUP",
    "ELECT",
    "CGAERRBAR",
    "VIADD",
    "VIMNMX",
    "VIADDMNMX",
    "ENDCOLLECTIVE",
];

/// Forms whose memory slot carries a 2-bit address scale at [78:80) (`[R0.X4]`): shared
/// loads, stores and atomics.
const SCALED: &[u16] = &[0x984, 0x388, 0x988, 0x98c, 0x38d, 0xf8c];

/// Applies `f` to every slot of `fm`.
fn map_slots(fm: &mut Form, f: impl Fn(Slot) -> Slot) {
    let slots: Vec<Slot> = fm.slots.iter().map(|s| f(*s)).collect();
    fm.slots = slots.into_boxed_slice();
}

/// Replaces the form of `key` (or adds it).
fn set(f: &mut Vec<Form>, fm: Form) {
    f.retain(|x| x.key != fm.key);
    f.push(fm);
}

/// sm_90 forms adapted to sm_80.
pub(crate) fn build() -> Vec<Form> {
    let mut f = super::sm90::build();
    f.retain(|fm| !HOPPER_ONLY.contains(&fm.base));
    // WARPSYNC: the mask is an immediate or a register at 32 (sm_90's 0x948 has no operand,
    // its register form a register at 24 and a `.COLLECTIVE` target); bit 86 is `.EXCLUSIVE`.
    let pred = || super::sm90::p(87).not(90).opt();
    set(&mut f, form(0x948, "WARPSYNC", vec![pred(), imm(32, 32, super::form::ImmStyle::Hex)]));
    set(&mut f, form(0x348, "WARPSYNC", vec![pred(), r(32)]));
    // CALL.ABS: the address's bits [2:49) at 34 (`R_CUDA_ABS47_34`), nothing at 16.
    let abs = Slot::new(Kind::Target(TargetKind::QuadAbsolute));
    set(&mut f, form(0x943, "CALL", vec![pred(), abs]));
    // MUFU: `.F16` is bit 73 here (72 on sm_90); it shows the `.H1` selector at 60.
    set(&mut f, form(0x308, "MUFU", vec![r(16), r(32).neg(63).abs(62).h1(60, 73).reuse(1)]));
    // IMMA: no predicate operand.
    set(
        &mut f,
        form(0x237, "IMMA", vec![r(16), r(24).tail(".ROW").reuse(0), r(32).tail(".COL").reuse(1), r(64).reuse(2)]),
    );
    // BRA: `.U`/`.DIV`/`.CONV` in [32:34) (residue); bit 91 shows the uniform register, bit 30
    // is its `~`.
    let mut bra = form(
        0x947,
        "BRA",
        vec![
            pred(),
            Slot::new(Kind::Target(TargetKind::Quad)),
            Slot { neg: Some(30), neg_style: NegStyle::Tilde, ..ur(24).if_bit(91) },
        ],
    );
    bra.print_order = Some(&[0, 2, 1]);
    set(&mut f, bra);
    more(&mut f);
    for fm in f.iter_mut() {
        let scaled = SCALED.contains(&fm.key);
        map_slots(fm, |s| match s.kind {
            // Branch targets: a word offset in [34:82) (bits [32:34) are BRA's mode); BRX's
            // relative offset a plain byte offset in [32:82).
            Kind::Target(TargetKind::Split) => Slot { kind: Kind::Target(TargetKind::Quad), ..s },
            Kind::Target(TargetKind::SplitRelative) => Slot { kind: Kind::Target(TargetKind::PlainRelative), ..s },
            // Global accesses encode a descriptor that nvdisasm prints before sm_90 only when
            // bit 101 is set (an explicit cache policy: `LDG.E R6, desc[UR4][R2.64+0x38]`;
            // so on LDG, STG, LD, ST, RED, ATOMG and LDGSTS, nvdisasm -b SM80).
            Kind::Mem { desc_at: Some(_), .. } => s.desc_hidden_unless(101),
            Kind::Mem { .. } if scaled => s.scaled(78),
            // ALU constant operands: the offset is signed (`c[0x2][-0x10]`).
            Kind::CBank { off_at, off_width, scale, index_at, .. } => {
                Slot { kind: Kind::CBank { off_at, off_width, scale, index_at, signed: true }, ..s }
            }
            _ => s,
        });
        // Half selector 1 is `.F32` on every source (nvdisasm -b SM80: `HADD2 R0, R10.F32, R11`).
        map_slots(fm, |s| if s.hsel.is_some() { Slot { f32_sel: true, ..s } } else { s });
        // Global reductions are `RED` before sm_90.
        if fm.base == "REDG" {
            fm.base = "RED";
        }
    }
    // Uniform-datapath ops take a uniform guard (`@UP0`), as on sm_90.
    for fm in f.iter_mut() {
        if fm.base.starts_with('U') || fm.base == "S2UR" {
            fm.uniform_guard = true;
        }
    }
    f.sort_by_key(|x| x.key);
    f
}

/// Forms the sm_90 corpus does not show but ptxas emits for the sm_80 family, mostly constant
/// operands of ALU ops (each layout found by single-bit flips through `nvdisasm -b SM80`).
fn more(f: &mut Vec<Form>) {
    use super::form::ImmStyle::{HalfBy, SignedHex};
    use super::sm90::{cb, mem, p, up};
    // IMNMX (sm_90 has VIMNMX): `.U32` is bit 73; the select predicate at 87.
    for (key, b) in [(0x217u16, r(32).reuse(1)), (0x817, imm(32, 32, SignedHex)), (0xa17, cb()), (0xc17, ur(32))] {
        set(f, form(key, "IMNMX", vec![r(16), r(24).reuse(0), b, p(87).not(90)]));
    }
    // DADD / DSETP with a constant B (in the C position): its `-`/`|x|` at 63/62.
    let cbn = || cb().neg(63).abs(62);
    set(f, form(0x629, "DADD", vec![r(16), r(24).neg(72).abs(73).reuse(0), cbn()]));
    set(f, form(0x62a, "DSETP", vec![p(81), p(84), r(24).neg(72).abs(73).reuse(0), cbn(), p(87).not(90)]));
    // One-source conversions with a constant source.
    for (key, base, dec) in [(0xb06u16, "I2F", false), (0xb10, "F2F", true), (0xa45, "I2FP", false)] {
        let src = if dec { cbn() } else { cb() };
        set(f, form(key, base, vec![r(16), src]));
    }
    // ATOMS with a bare shared address (no register shown when RZ), scaled like 0x98c.
    set(f, form(0x38c, "ATOMS", vec![r(16), mem(true, None, None, None, None).scaled(78), r(32)]));
    // R2UR with a predicate result (shown unless PT).
    set(f, form(0x3c2, "R2UR", vec![p(81).opt(), ur(16), r(24).reuse(0)]));
    // UIMAD with an immediate C (B at 64); `.X` (bit 74) shows the carry-in predicate.
    set(f, form(0x4a4, "UIMAD", vec![ur(16), ur(24), ur(64), imm(32, 32, SignedHex), up(87).not(90).if_bit(74)]));
    // IDP with a constant B.
    set(f, form(0xa26, "IDP", vec![r(16), r(24).reuse(0), cb(), r(64).reuse(2)]));
    // HFMA2 (not .MMA) with two FP16/BF16 immediates as B: half selectors on A (74) and C (81);
    // `.RELU` (bit 79) shows the predicate at 87 unless PT.
    let half = || HalfBy { at: 85 };
    set(
        f,
        form(
            0x831,
            "HFMA2",
            vec![
                r(16),
                r(24).neg(72).abs(73).hsel(74).reuse(0),
                imm(48, 16, half()),
                imm(32, 16, half()),
                r(64).neg(84).abs(83).hsel(81).reuse(2),
                p(87).not(90).if_bit_opt(79),
            ],
        ),
    );
    // P2R's mask prints signed before sm_90.
    set(f, form(0x803, "P2R", vec![r(16), r(24).lead("PR").reuse(0), imm(32, 32, SignedHex)]));
    // HADD2 with a constant B (`HADD2.F32 R4, -RZ, c[0x0] [0x188].H0_H0`, ptxas's `cvt.f32.f16`
    // of a parameter): B's `-`/`|x|`/half selector at 63/62/60 as in the register form; bit 91
    // would make the bank an indexed `cx[UR]` (not modelled: residue).
    let ha = r(24).neg(72).abs(73).hsel(74).reuse(0);
    set(f, form(0x630, "HADD2", vec![r(16), ha, cb().neg(63).abs(62).hsel(60)]));
    sweep_forms(f, true);
}

/// Forms the form sweep (issue 22, `interp/tests/form_sweep.rs`) found in NVIDIA's code and
/// the corpus never shows, each laid out from single-bit flips of that word through nvdisasm
/// (`-b SM75`..`SM89`, and `SM100`/`SM120` for the ones sm_100 shares: `constants` false):
/// `FSET` (FSETP's sources, a register result at 16; nvdisasm always prints `.BF`; its
/// constant form only before sm_100) and `F2FP` with an FP32 immediate
/// (`F2FP.SATFINITE.RELU.PACK_AB R2, R2, 1.5`). sm_90 lays FSET out alike (its own `build`).
pub(super) fn sweep_forms(f: &mut Vec<Form>, constants: bool) {
    use super::form::ImmStyle::F32;
    use super::sm90::{cb, p};
    let a = || r(24).neg(72).abs(73).reuse(0);
    set(f, form(0x20a, "FSET", vec![r(16), a(), r(32).neg(63).abs(62).reuse(1), p(87).not(90)]));
    set(f, form(0x80a, "FSET", vec![r(16), a(), imm(32, 32, F32), p(87).not(90)]));
    set(f, form(0x83e, "F2FP", vec![r(16), r(24).reuse(0), imm(32, 32, F32)]));
    if constants {
        set(f, form(0xa0a, "FSET", vec![r(16), a(), cb().neg(63).abs(62), p(87).not(90)]));
        set(f, plop3_constant());
    }
}

/// `PLOP3.LUT` on the sign bits of two registers and a constant (0xa1f: 0x21f's layout, B a
/// constant: `PLOP3.LUT P0, PT, R0.SIGN, c[0x2] [0x0].SIGN, R9.SIGN, 0x2, 0x0`, ptxas's
/// `mad.hi.sat.s32` with an immediate); nvdisasm -b SM75..SM90 print it, SM100/SM120 reject it.
pub(super) fn plop3_constant() -> Form {
    use super::form::ImmStyle::Hex;
    use super::sm90::{cb, p};
    form(
        0xa1f,
        "PLOP3",
        vec![
            p(81),
            p(84),
            r(24).tail(".SIGN").reuse(0),
            cb().tail(".SIGN"),
            r(64).tail(".SIGN").reuse(2),
            imm(72, 8, Hex),
            imm(16, 8, Hex),
        ],
    )
}

/// Hand-written modifier entries the generator leaves out, each checked against a corpus word
/// by a unit test below: `HADD2.F32` (bit 78), as on sm_90 (see `sm90::HAND_MODS`), on the
/// register and the constant form; then the modifiers of the hand-written PTX's words
/// (`corpus/ptx` retargeted to sm_80; the generator learns from the CUDA corpus only), each
/// from a word nvdisasm printed alike on SM80, SM86 and SM89 (`hand_mods_match_nvdisasm`).
const HAND_MODS: &[ModEntry] = &[
    // PLOP3 with a uniform-register B (0xc1f, bit 91), as the register form's `.LUT`.
    ModEntry { key: 0xc1f, residue: 1 << 91, suffix: ".LUT" },
    ModEntry { key: 0x230, residue: 1 << 78, suffix: ".F32" },
    // PLOP3 with a constant B (`sweep_forms`' 0xa1f), as the register form's `.LUT`.
    ModEntry { key: 0xa1f, residue: 0, suffix: ".LUT" },
    // MEMBAR's scope field [76:79) beyond CTA/GPU/SYS: 1 `.SM`, 5 `.VC` (nvcc -G's
    // `MEMBAR.SC.VC` in its atomics' callees); nvdisasm -b SM80 and SM90 print these words alike.
    ModEntry { key: 0x992, residue: 0x1000 << 64, suffix: ".SC.SM" },
    ModEntry { key: 0x992, residue: 0x5000 << 64, suffix: ".SC.VC" },
    ModEntry { key: 0x992, residue: 0xd000 << 64, suffix: ".ALL.VC" },
    ModEntry { key: 0x630, residue: 1 << 78, suffix: ".F32" },
    // `.F32.SAT` (bit 77; the form sweep's `cvt.sat.f32.f16`), on both forms as `.F32`.
    ModEntry { key: 0x230, residue: 3 << 77, suffix: ".F32.SAT" },
    ModEntry { key: 0x630, residue: 3 << 77, suffix: ".F32.SAT" },
    ModEntry { key: 0x226, residue: 0, suffix: ".4A.U8.U8" },
    ModEntry { key: 0x226, residue: 0x2000000000000000000, suffix: ".4A.S8.U8" },
    ModEntry { key: 0x226, residue: 0x6000000000000000000, suffix: ".4A.S8.S8" },
    ModEntry { key: 0x300, residue: 0x6000000000000000000, suffix: ".SH" },
    ModEntry { key: 0x381, residue: 0x1189000000000000000000, suffix: ".E.MMIO.SYS" },
    ModEntry { key: 0x816, residue: 0x1000000000000000000, suffix: ".F4E" },
    ModEntry { key: 0x81a, residue: 0x2000000000000000000, suffix: "" },
    ModEntry { key: 0x906, residue: 0x2090000000000000000000, suffix: ".U32.RP" },
    ModEntry { key: 0x981, residue: 0x81019100000000000000000, suffix: ".E.LTC64B" },
    ModEntry { key: 0x981, residue: 0x810fb000000000000000000, suffix: ".E.64.STRONG.GPU" },
    ModEntry { key: 0x981, residue: 0x8115d000000000000000000, suffix: ".E.128.STRONG.SYS" },
    ModEntry { key: 0x985, residue: 0x8101b000000000000000000, suffix: ".E.64" },
    ModEntry { key: 0x986, residue: 0x810b9000000000000000000, suffix: ".E.STRONG.SM" },
    ModEntry { key: 0x986, residue: 0x810bd000000000000000000, suffix: ".E.128.STRONG.SM" },
    ModEntry { key: 0x986, residue: 0x81159000000000000000000, suffix: ".E.STRONG.SYS" },
    ModEntry { key: 0x98e, residue: 0x810e9800000000000000000, suffix: ".E.ADD.F16x2.RN.STRONG.GPU" },
    ModEntry { key: 0x98e, residue: 0x890a3800000000000000000, suffix: ".E.MIN.S32.STRONG.SM" },
    ModEntry { key: 0x98e, residue: 0xb1141800000000000000000, suffix: ".E.OR.STRONG.SYS" },
    ModEntry { key: 0x98f, residue: 0x1000000000000000000, suffix: ".E.PF1" },
    ModEntry { key: 0x98f, residue: 0x8001000000000000000000, suffix: ".E.PF2" },
    ModEntry { key: 0x98f, residue: 0x48001000000000000000000, suffix: ".E.PML2" },
    ModEntry { key: 0x9a8, residue: 0xb90e1c00000000000000000, suffix: ".E.XOR.STRONG.GPU" },
    ModEntry { key: 0xa07, residue: 0, suffix: "" },
    ModEntry { key: 0x226, residue: 0x10000000000000000000, suffix: ".2A.LO.U16.U8" },
    ModEntry { key: 0x226, residue: 0x12000000000000000000, suffix: ".2A.LO.S16.U8" },
    ModEntry { key: 0x226, residue: 0x36000000000000000000, suffix: ".2A.HI.S16.S8" },
    ModEntry { key: 0x981, residue: 0x80099200000000000000000, suffix: ".E.EF.LTC128B.CONSTANT" },
    ModEntry { key: 0x981, residue: 0x81013000000000000000000, suffix: ".E.S8" },
    ModEntry { key: 0x981, residue: 0x81017000000000000000000, suffix: ".E.S16" },
    ModEntry { key: 0x981, residue: 0x810bd000000000000000000, suffix: ".E.128.STRONG.SM" },
    ModEntry { key: 0x981, residue: 0x810fd200000000000000000, suffix: ".E.LTC128B.128.STRONG.GPU" },
    ModEntry { key: 0x986, residue: 0x810fb000000000000000000, suffix: ".E.64.STRONG.GPU" },
    ModEntry { key: 0x98e, residue: 0x8114d800000000000000000, suffix: ".E.ADD.F64.RN.STRONG.SYS" },
    ModEntry { key: 0x98f, residue: 0x50001000000000000000000, suffix: ".E.DML2" },
    // Bit 101 shows the descriptor (ptx/ldst_qualifiers' `.L2::cache_hint` accesses).
    ModEntry { key: 0x981, residue: 0x20081019000000000000000000, suffix: ".E" },
    ModEntry { key: 0x981, residue: 0x20081099000000000000000000, suffix: ".E.CONSTANT" },
    ModEntry { key: 0x986, residue: 0x2008101d000000000000000000, suffix: ".E.128" },
    // ptx/ldst_qualifiers on sm_86/sm_89 (sm_80 emits `.LTC128B`); printed alike on all three.
    ModEntry { key: 0x981, residue: 0x80099300000000000000000, suffix: ".E.EF.LTC256B.CONSTANT" },
    // CALL.ABS (bit 86 `.NOINC`): nvcc -G's calls across sections (wild nvcc-G sm_80 cubins).
    ModEntry { key: 0x943, residue: 0, suffix: ".ABS" },
    ModEntry { key: 0x943, residue: 1 << 86, suffix: ".ABS.NOINC" },
    // RET's `.ABS` (bit 85) and `.NODEC` (bit 86), as on sm_90: nvcc -G's returns
    // (`RET.ABS.NODEC R20 0x0`); the generator cannot learn them (it prints targets as labels,
    // nvdisasm prints an absolute one as a number). See `ret_abs_match_nvdisasm`.
    ModEntry { key: 0x950, residue: 0, suffix: ".REL" },
    ModEntry { key: 0x950, residue: 1 << 85, suffix: ".ABS" },
    ModEntry { key: 0x950, residue: 3 << 85, suffix: ".ABS.NODEC" },
];

/// The hand-written modifier entries ([`HAND_MODS`]; unsorted).
pub fn hand_mods() -> &'static [ModEntry] {
    HAND_MODS
}

/// The generated modifier entries of one arch of the family (nvdisasm's name, `SM86`): the
/// shared ones and the arch's own, sorted by (key, residue), without [`HAND_MODS`] (for tools
/// that check or regenerate them).
pub fn generated_mods(arch: &str) -> Vec<ModEntry> {
    let own = generated::ARCH_MODS.iter().filter(|(a, _)| *a == arch).flat_map(|(_, m)| m.iter());
    let mut v: Vec<ModEntry> = generated::MODS.iter().chain(own).cloned().collect();
    v.sort_by_key(|e| (e.key, e.residue));
    v
}

/// The modifier table of one arch: [`generated_mods`] and [`HAND_MODS`], sorted; a hand entry
/// the generator has learned since (the same suffix: nvcc -G's `CALL.ABS.NOINC` from the wild
/// corpus) is kept once (a different suffix stays twice, which `mods_sorted_unique` refuses).
fn mods(arch: &str) -> Vec<ModEntry> {
    let mut v = generated_mods(arch);
    v.extend_from_slice(HAND_MODS);
    let family = crate::sass::families::mods(&v, false);
    v.extend(family);
    v.sort_by_key(|e| (e.key, e.residue));
    v.dedup_by(|a, b| (a.key, a.residue, a.suffix) == (b.key, b.residue, b.suffix));
    v
}

fn tables_of(name: &'static str) -> Tables {
    let mods: &'static [ModEntry] = Box::leak(mods(name).into_boxed_slice());
    Tables { name, forms: FORMS.as_slice(), mods, sregs: generated::SREGS }
}

static FORMS: LazyLock<Vec<Form>> = LazyLock::new(build);
static SM80: LazyLock<Tables> = LazyLock::new(|| tables_of("SM80"));
static SM86: LazyLock<Tables> = LazyLock::new(|| tables_of("SM86"));
static SM89: LazyLock<Tables> = LazyLock::new(|| tables_of("SM89"));

/// The sm_80 tables.
pub fn tables() -> &'static Tables {
    &SM80
}

/// The tables of `sm_80`, `sm_86` or `sm_89`: the same forms, modifier tables that differ only
/// where nvdisasm spells a modifier differently (sm_89's `F2FP.F16.F32.PACK_AB`).
pub fn tables_for(arch: &str) -> Option<&'static Tables> {
    match arch {
        "sm_80" => Some(&SM80),
        "sm_86" => Some(&SM86),
        "sm_89" => Some(&SM89),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn forms_sorted_unique() {
        let f = super::tables().forms;
        assert!(f.windows(2).all(|w| w[0].key < w[1].key));
    }

    #[test]
    fn hadd2_f32_matches_nvidia() {
        // ptxas 13.0.88, corpus sm_80: `HADD2.F32 R7, -RZ, R2.H0_H0`.
        let t = super::tables();
        let word = 0x004f_ca00_0000_4100_2000_0002_ff07_7230u128;
        let inst = t.decode(word).expect("decodes");
        assert_eq!(t.print(&inst, 0, None), "HADD2.F32 R7, -RZ, R2.H0_H0");
        assert_eq!(t.encode(&inst).expect("encodes"), word);
    }

    /// Corpus words (ptxas 13.0.88, sm_80) of the layouts this family changes or adds: decode,
    /// print as nvdisasm printed them, encode back to the same 128 bits; the text parses back to
    /// an instruction that prints the same (hidden descriptors are not in the text).
    #[test]
    fn family_corpus_words() {
        let t = super::tables();
        for (word, addr, text) in [
            (0x020f_e200_0000_4800_0000_0005_0000_7388u128, 0, "STS [R0.X4], R5"),
            (0x000f_e800_0000_4800_0004_0000_0009_7984, 0, "LDS R9, [R0.X4+0x400]"),
            (0x0043_d800_0d00_403f_0000_0000_02ff_7f8c, 0, "ATOMS.POPC.INC.32 RZ, [R2.X4+URZ]"),
            (0x0003_e800_0000_0200_0011_0404_ffff_038c, 0, "@P0 ATOMS.ADD.S32 RZ, [0x1104], R4"),
            (0x000e_a200_0c1e_1900_0000_0004_0409_8981, 0, "@!P0 LDG.E R9, [R4.64]"),
            (0x0021_e200_0c10_1904_0000_0007_0400_8986, 0, "@!P0 STG.E [R4.64], R7"),
            (0x0001_e400_0c10_e186_0000_0005_0200_798e, 0, "RED.E.ADD.STRONG.GPU [R2.64], R5"),
            (0x000f_ea00_0b80_0000_0000_0033_7f00_7947, 0x100, "BRA.CONV ~URZ, 0x140"),
            (0x000f_ea00_0b80_0000_0000_0142_7f00_7947, 0, "BRA.DIV ~URZ, 0x150"),
            (0x000f_ea00_0383_ffff_ffff_fbc0_0200_7949, 0, "BRX R2 -0x440"),
            (0x000f_e800_0380_0000_0000_000b_0000_7348, 0, "WARPSYNC R11"),
            (0x000f_e200_0380_0000_ffff_ffff_0000_7948, 0, "WARPSYNC 0xffffffff"),
            (0x000e_6200_0000_0a00_1000_000a_000d_7308, 0, "MUFU.EX2.F16 R13, R10.H1"),
            (0x001e_0c00_0000_0808_0080_1e00_0608_762b, 0, "DFMA R8, R6, -R8, c[0x2][0x78]"),
            (0x000f_c800_0780_0200_b960_0000_0000_7817, 0, "IMNMX R0, R0, -0x46a00000, !PT"),
            (0x000f_ca00_078e_0202_0000_5c00_0302_7625, 0, "IMAD.WIDE R2, R3, R2, c[0x0][0x170]"),
            (0x000e_2200_0020_9000_0000_5c00_0004_7b06, 0, "I2F.U32.RP R4, c[0x0][0x170]"),
            (0x048f_e400_0020_0007_3f80_3f80_040b_7831, 0, "HFMA2.BF16_V2 R11, R4.reuse, 1, 1, R7"),
            (0x000e_2e00_0000_0000_0000_0000_033f_73c2, 0, "R2UR P0, URZ, R3"),
            (0x000f_c800_0f8e_0205_0000_001f_0404_74a4, 0, "UIMAD UR4, UR4, UR5, 0x1f"),
            (0x000f_e200_0000_0000_0000_0002_ff0c_7803, 0, "P2R R12, PR, RZ, 0x2"),
            (0x000f_c600_0000_4100_2000_6200_ff04_7630, 0, "HADD2.F32 R4, -RZ, c[0x0] [0x188].H0_H0"),
        ] {
            let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.print(&inst, addr, None), text);
            assert_eq!(t.encode(&inst).expect("encodes"), word, "{text}");
            let parsed = t.parse(text, addr).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.print(&parsed, addr, None), text, "{text} parsed");
        }
    }

    /// `RET` with `.ABS`/`.REL` (bits 85, 86): nvcc -G's word (atom_scopes, ptxas 13.0.88) and
    /// bit flips of it, as `nvdisasm -b SM80`, `SM86` and `SM89` print them at the address given:
    /// the target is a word offset in [34:82) (bits 32, 33 and [16:24) are ignored by nvdisasm),
    /// an absolute one printed as the signed field itself.
    #[test]
    fn ret_abs_match_nvdisasm() {
        for t in ["sm_80", "sm_86", "sm_89"].map(|a| super::tables_for(a).unwrap()) {
            for (addr, word, text) in [
                (0x50u64, 0x003f_de00_03e0_0000_0000_0000_1400_7950u128, "RET.ABS.NODEC R20 0x0"),
                (0x00, 0x004f_ec00_03a0_0000_0000_0000_1400_7950, "RET.ABS R20 0x0"),
                (0x10, 0x004f_ec00_03c0_0000_0000_0120_1400_7950, "RET.REL.NODEC R20 0x140"),
                (0x30, 0x004f_ec00_03e2_0000_0000_0000_1400_7950, "RET.ABS.NODEC R20 -0x2000000000000"),
                (0x40, 0x004f_ec00_03e0_0000_0000_0120_1400_7950, "RET.ABS.NODEC R20 0x120"),
                (0x40, 0x004f_ec00_0380_0000_0000_0000_1400_7950, "RET.REL R20 0x50"),
            ] {
                crate::sass::test_words::assert_nvdisasm_word(t, addr, word, text);
            }
        }
    }

    /// A scaled RZ address register shows beside a shown uniform register (bits 78..80 the scale,
    /// 0 prints no RZ), and a constant's half selector prints inside its `|..|`: words
    /// sass_random drew, as `nvdisasm -b SM80` prints them.
    #[test]
    fn scaled_rz_with_uniform_register_matches_nvdisasm() {
        let t = super::tables_for("sm_80").unwrap();
        for (word, text) in [
            (0x025e_9c00_0800_ca00_3ca4_6b1c_ff6f_9984u128, "@!P1 LDS.64 R111, [RZ.X16+UR28+0x3ca46b]"),
            (0x025e_9c00_0800_4a00_3ca4_6b1c_ff6f_9984, "@!P1 LDS.64 R111, [RZ.X4+UR28+0x3ca46b]"),
            (0x025e_9c00_0800_0a00_3ca4_6b1c_ff6f_9984, "@!P1 LDS.64 R111, [UR28+0x3ca46b]"),
            // A constant's half selector prints inside its bars, a register's after them.
            (0x0146_5a00_0000_0600_f04f_6100_4acd_b630, "@!P3 HADD2 R205, |R74|.F32, -|c[0x1] [0x3d84].H1_H1|"),
        ] {
            crate::sass::test_words::assert_nvdisasm_decode(t, 0, word, text);
        }
    }

    /// The one corpus difference between the family's archs: nvdisasm spells F2FP's source type
    /// on sm_89 only (the same word, from `cvt.rn.bf16x2.f32`).
    #[test]
    fn f2fp_spelling_per_arch() {
        let word = 0x000f_c800_0000_10ff_0000_0008_ff08_723eu128;
        for (arch, text) in [
            ("sm_80", "F2FP.BF16.PACK_AB R8, RZ, R8"),
            ("sm_86", "F2FP.BF16.PACK_AB R8, RZ, R8"),
            ("sm_89", "F2FP.BF16.F32.PACK_AB R8, RZ, R8"),
        ] {
            let t = super::tables_for(arch).unwrap();
            let inst = t.decode(word).unwrap_or_else(|e| panic!("{arch}: {e}"));
            assert_eq!(t.print(&inst, 0, None), text, "{arch}");
            assert_eq!(t.encode(&inst).expect("encodes"), word);
        }
    }

    /// Hand-written PTX of the corpus (`corpus/ptx`, retargeted to sm_80), compiled by ptxas
    /// 13.0.88: each word of a [`super::HAND_MODS`] entry decodes, prints as nvdisasm printed it
    /// and encodes back to the same 128 bits.
    #[test]
    fn hand_mods_match_nvdisasm() {
        for t in ["sm_80", "sm_86", "sm_89"].map(|a| super::tables_for(a).unwrap()) {
            for (word, text) in [
                (0x0003_e200_0f11_4188_0000_0c0b_0200_098e, "@P0 RED.E.OR.STRONG.SYS [R2.64+0xc], R11"), // ptx/atomics_scoped
                (0x000e_a200_0b9e_e1c8_0000_1404_0206_79a8, "ATOMG.E.XOR.STRONG.GPU PT, R6, [R2.64+0x14], R4"), // ptx/atomics_scoped
                (0x0001_e800_0c90_a388_0000_1c0b_0200_098e, "@P0 RED.E.MIN.S32.STRONG.SM [R2.64+0x1c], R11"), // ptx/atomics_scoped
                (0x0003_e200_0c10_e988_0000_3011_0200_798e, "RED.E.ADD.F16x2.RN.STRONG.GPU [R2.64+0x30], R17"), // ptx/atomics_scoped
                (0x000f_6200_0c1e_fb00_0000_0008_0e0e_7981, "LDG.E.64.STRONG.GPU R14, [R14.64]"), // ptx/atomics_scoped
                (0x1c0f_e200_0000_001a_0000_0019_180a_7226, "IDP.4A.U8.U8 R10, R24.reuse, R25.reuse, R26.reuse"), // ptx/bitfield_ops
                (0x1c0f_e200_0000_061a_0000_0019_180b_7226, "IDP.4A.S8.S8 R11, R24.reuse, R25.reuse, R26.reuse"), // ptx/bitfield_ops
                (0x100f_e200_0000_021a_0000_0019_180c_7226, "IDP.4A.S8.U8 R12, R24, R25, R26.reuse"), // ptx/bitfield_ops
                (0x000e_6200_000e_0600_0000_0018_0027_7300, "FLO.SH R39, R24"), // ptx/bitfield_ops
                (0x000f_e200_0000_0200_0000_000c_1717_781a, "SGXT R23, R23, 0xc"), // ptx/bitfield_ops
                (0x000e_3000_0020_9000_0000_0003_0005_7906, "I2F.U32.RP R5, 0x3"), // ptx/brx_idx
                (0x0001_e800_0c10_1b06_0002_0008_0a00_7985, "ST.E.64 [R10.64+0x200], R8"), // ptx/dyn_smem_extern
                (0x000f_e200_0400_0000_0000_6f00_0505_7a07, "SEL R5, R5, c[0x0][0x1bc], !P0"), // ptx/entry_struct_param
                (0x0001_ea00_0080_0100_0000_0000_0200_798f, "CCTL.E.PF2 [R2]"), // ptx/ldst_qualifiers
                (0x0001_ea00_0000_0100_0000_0020_0200_798f, "CCTL.E.PF1 [R2+0x20]"), // ptx/ldst_qualifiers
                (0x0001_ea00_0480_0100_0000_0000_0200_798f, "CCTL.E.PML2 [R2]"), // ptx/ldst_qualifiers
                (0x000e_a800_0c1f_5d00_0000_1006_0208_7981, "LDG.E.128.STRONG.SYS R8, [R2.64+0x10]"), // ptx/ldst_qualifiers
                (0x003f_de00_03c0_0000_0000_0000_0000_7943, "CALL.ABS.NOINC 0x0"), // nvcc-G algo_histogram
                (0x003f_de00_03c0_0000_8000_0004_0000_7943, "CALL.ABS.NOINC 0x80000004"), // bits 34, 63
                (0x003f_de00_0380_0000_0000_0000_0000_7943, "CALL.ABS 0x0"),       // bit 86 clear
                (0x000f_c000_0000_5000_0000_0000_0000_7992, "MEMBAR.SC.VC"),       // nvcc-G algo_histogram
                (0x000f_c000_0000_d000_0000_0000_0000_7992, "MEMBAR.ALL.VC"),
                (0x000f_c000_0000_1000_0000_0000_0000_7992, "MEMBAR.SC.SM"),
                (0x0001_6800_0c1e_1910_0000_3406_0205_7981, "LDG.E.LTC64B R5, [R2.64+0x34]"), // ptx/ldst_qualifiers
                (0x000f_2800_001f_8900_0000_1000_021c_7381, "LDG.E.MMIO.SYS R28, [R2+0x10]"), // ptx/ldst_qualifiers
                (0x0001_e800_0c10_bd06_0000_000c_1200_7986, "STG.E.128.STRONG.SM [R18.64], R12"), // ptx/ldst_qualifiers
                (0x0001_e800_0c11_5906_0000_1008_1200_7986, "STG.E.STRONG.SYS [R18.64+0x10], R8"), // ptx/ldst_qualifiers
                (0x0001_e200_0c10_b906_0000_1410_1200_7986, "STG.E.STRONG.SM [R18.64+0x14], R16"), // ptx/ldst_qualifiers
                (0x140f_e400_0000_0113_0000_0005_0e0f_7816, "PRMT.F4E R15, R14.reuse, 0x5, R19.reuse"), // ptx/prmt_modes
                (0x0003_e200_0c11_4d88_0000_080c_0a00_798e, "RED.E.ADD.F64.RN.STRONG.SYS [R10.64+0x8], R12"), // ptx/atomics_scoped
                (0x1c0f_e200_0000_101a_0000_0019_180d_7226, "IDP.2A.LO.U16.U8 R13, R24.reuse, R25.reuse, R26.reuse"), // ptx/bitfield_ops
                (0x000f_e200_0000_361a_0000_0019_180e_7226, "IDP.2A.HI.S16.S8 R14, R24, R25, R26"), // ptx/bitfield_ops
                (0x040f_e200_0000_120f_0000_0019_180f_7226, "IDP.2A.LO.S16.U8 R15, R24.reuse, R25, R15"), // ptx/bitfield_ops
                (0x000e_e800_0c1e_bd00_0000_0006_020c_7981, "LDG.E.128.STRONG.SM R12, [R2.64]"), // ptx/ldst_qualifiers
                (0x0001_6800_0c0e_9920_0000_3006_0204_7981, "LDG.E.EF.LTC128B.CONSTANT R4, [R2.64+0x30]"), // ptx/ldst_qualifiers
                (0x000e_a200_0c1e_fd20_0000_1006_0214_7981, "LDG.E.LTC128B.128.STRONG.GPU R20, [R2.64+0x10]"), // ptx/ldst_qualifiers
                (0x0003_e800_0c10_fb06_0000_180a_1200_7986, "STG.E.64.STRONG.GPU [R18.64+0x18], R10"), // ptx/ldst_qualifiers
                (0x000f_ea00_0500_0100_0000_0000_1200_798f, "CCTL.E.DML2 [R18]"), // ptx/ldst_qualifiers
                (0x0000_a800_0c1e_1700_0000_0006_1007_7981, "LDG.E.S16 R7, [R16.64]"), // ptx/module_init
                (0x000e_a200_0c1e_1300_0000_0006_120c_7981, "LDG.E.S8 R12, [R18.64]"), // ptx/module_init
                (0x0001_6820_0c1e_1900_0000_3804_0206_7981, "LDG.E R6, desc[UR4][R2.64+0x38]"), // ptx/ldst_qualifiers
                (0x004e_a220_0c1e_9900_0000_3c08_0209_7981, "LDG.E.CONSTANT R9, desc[UR8][R2.64+0x3c]"), // ptx/ldst_qualifiers
                (0x0003_e820_0c10_1d04_0000_2014_1200_7986, "STG.E.128 desc[UR4][R18.64+0x20], R20"), // ptx/ldst_qualifiers
                (0x0001_6800_0c0e_9930_0000_3006_0204_7981, "LDG.E.EF.LTC256B.CONSTANT R4, [R2.64+0x30]"), // ptx/ldst_qualifiers, sm_86
            ] {
                let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(t.print(&inst, 0, None), text);
                assert_eq!(t.encode(&inst).expect("encodes"), word, "{text}");
            }
        }
    }

    /// Words NVIDIA's ptxas 13.0.88 emitted in the form sweep (issue 22,
    /// `interp/tests/form_sweep.rs`) that the tables lacked (their modifier families come from
    /// `tests/sass_gen.rs`'s `FAMILY_SWEEPS`, the layouts from [`super::sweep_forms`]), with
    /// nvdisasm's text of the word on each arch listed: each decodes, prints the same and
    /// encodes back to the same 128 bits (sm_90 where its tables have the form).
    #[test]
    fn form_sweep_words_match_nvdisasm() {
        const ALL: &[&str] = &["sm_75", "sm_80", "sm_86", "sm_89", "sm_100", "sm_120"];
        const SM89_ON: &[&str] = &["sm_89", "sm_100", "sm_120"];
        const BEFORE_SM100: &[&str] = &["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];
        let words: &[(&[&str], u128, &str)] = &[
            (ALL, 0x0032_1e00_0000_0a00_0000_5800_0202_7b82, "LDC.64 R2, c[0x0][R2+0x160]"),
            (ALL, 0x004f_d000_0380_6000_0000_0005_0209_720a, "FSET.BF.GE.AND R9, R2, R5, PT"),
            (ALL, 0x004f_d000_0380_d000_0000_0005_0209_720a, "FSET.BF.NEU.AND R9, R2, R5, PT"),
            (&["sm_90"], 0x004f_d000_0380_6000_0000_0005_0209_720a, "FSET.BF.GE.AND R9, R2, R5, PT"),
            (&["sm_90"], 0x004f_d000_0380_d000_0000_0005_0209_720a, "FSET.BF.NEU.AND R9, R2, R5, PT"),
            (&["sm_90"], 0x004f_d000_0380_7000_0000_0005_0209_720a, "FSET.BF.NUM.AND R9, R2, R5, PT"),
            (&["sm_90"], 0x004f_d000_0380_6000_4000_0000_0209_780a, "FSET.BF.GE.AND R9, R2, 2, PT"),
            (&["sm_90"], 0x004f_d000_0380_6000_0080_5c00_0209_7a0a, "FSET.BF.GE.AND R9, R2, c[0x2][0x170], PT"),
            (&["sm_90"], 0x003f_de00_0000_6100_2000_0002_ff02_7230, "HADD2.F32.SAT R2, -RZ, R2.H0_H0"),
            (
                &["sm_86", "sm_89"],
                0x003f_de00_0787_0200_4000_0002_0402_7209,
                "FMNMX.FTZ.NAN.XORSIGN R2, |R4|, |R2|, !PT",
            ),
            (
                &["sm_86", "sm_89"],
                0x003f_de00_07a6_0200_4000_0002_0402_7240,
                "HMNMX2.BF16_V2.NAN.XORSIGN R2, |R4|, |R2|, !PT",
            ),
            (
                &["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"],
                0x140f_e400_0870_0207_0000_0006_0000_7c1f,
                "PLOP3.LUT P0, PT, R0.reuse.SIGN, UR6.SIGN, R7.reuse.SIGN, 0x2, 0x0",
            ),
            (
                &["sm_90"],
                0x000f_e400_0872_4007_0000_003f_0000_7c1f,
                "PLOP3.LUT P1, PT, R0.SIGN, URZ.SIGN, R7.SIGN, 0x40, 0x0",
            ),
            // A decorated constant prints with a space (mad_hi_sat_s32__i2).
            (
                BEFORE_SM100,
                0x000f_e400_0070_0209_0080_0000_0000_7a1f,
                "PLOP3.LUT P0, PT, R0.SIGN, c[0x2] [0x0].SIGN, R9.SIGN, 0x2, 0x0",
            ),
            (
                BEFORE_SM100,
                0x000f_e400_0072_4009_0080_0000_0000_7a1f,
                "PLOP3.LUT P1, PT, R0.SIGN, c[0x2] [0x0].SIGN, R9.SIGN, 0x40, 0x0",
            ),
            (&["sm_80", "sm_86"], 0x003f_de00_0000_28ff_3fc0_0000_0202_783e, "F2FP.SATFINITE.RELU.PACK_AB R2, R2, 1.5"),
            (SM89_ON, 0x003f_de00_0000_28ff_3fc0_0000_0202_783e, "F2FP.SATFINITE.RELU.F16.F32.PACK_AB R2, R2, 1.5"),
            (ALL, 0x003f_de00_0000_6100_2000_0002_ff02_7230, "HADD2.F32.SAT R2, -RZ, R2.H0_H0"),
            (ALL, 0x003f_de00_0000_6800_a000_00ff_0202_7230, "HADD2.F32.SAT R2, R2.H0_H0, -RZ.H0_H0"),
            (ALL, 0x0032_1e00_0000_9000_0000_0002_0004_7306, "I2F.U8.RP R4, R2"),
            (ALL, 0x0032_1e00_0010_8c00_0000_0002_0004_7306, "I2F.F16.S16.RP R4, R2"),
            (ALL, 0x0032_1e00_0030_0c00_0000_0002_0004_7312, "I2F.F16.S64 R4, R2"),
            (ALL, 0x000e_2400_0010_d000_0000_0000_0002_7306, "I2F.U16.RZ R2, R0"),
            (ALL, 0x004e_2400_0020_2900_0000_0002_0000_7305, "F2I.S16.NTZ R0, R2"),
            (ALL, 0x0032_1e00_0021_e800_0000_0002_0004_7305, "F2I.FTZ.U16.TRUNC.NTZ R4, R2"),
            (ALL, 0x0032_1e00_0010_1800_0000_0002_0002_7310, "F2F.F64.F16 R2, R2"),
            (ALL, 0x0032_1e00_0010_c800_0000_0002_0004_7307, "FRND.F16.TRUNC R4, R2"),
            (&["sm_80", "sm_86"], 0x003f_de00_0000_18ff_0000_0002_0402_723e, "F2FP.RELU.BF16.PACK_AB R2, R4, R2"),
            (SM89_ON, 0x003f_de00_0000_18ff_0000_0002_0402_723e, "F2FP.RELU.BF16.F32.PACK_AB R2, R4, R2"),
            (
                &["sm_80", "sm_86", "sm_89", "sm_100", "sm_120"],
                0x0032_1e00_0020_2000_0000_0002_0002_7304,
                "F2F.BF16.F32 R2, R2",
            ),
            (
                &["sm_86", "sm_89", "sm_100", "sm_120"],
                0x003f_de00_0787_0200_4049_0fdb_0204_7809,
                "FMNMX.FTZ.NAN.XORSIGN R4, |R2|, 3.1415927410125732422, !PT",
            ),
            (&["sm_75"], 0x0033_de00_0010_e100_0000_0004_0200_7386, "STG.E.U8.SYS [R2], R4"),
            (&["sm_120"], 0x003f_de00_0001_0400_0000_0001_0808_7836, "VIADD.S32.ISAT R8, R8, 0x1"),
            (&["sm_100", "sm_120"], 0x000f_c800_0f8e_0004_0000_0006_0208_7e25, "IMAD.WIDE.U32 R8, R2, R4, UR6"),
        ];
        for (archs, word, text) in words {
            for arch in *archs {
                let t = crate::sass::tables_for(arch).unwrap();
                let inst = t.decode(*word).unwrap_or_else(|e| panic!("{arch} {text}: {e}"));
                assert_eq!(t.print(&inst, 0, None), *text, "{arch}");
                assert_eq!(t.encode(&inst).expect("encodes"), *word, "{arch} {text}");
            }
        }
    }

    #[test]
    fn mods_sorted_unique() {
        for arch in ["sm_80", "sm_86", "sm_89"] {
            let m = super::tables_for(arch).unwrap().mods;
            assert!(m.windows(2).all(|w| (w[0].key, w[0].residue) < (w[1].key, w[1].residue)), "{arch}");
        }
    }
}
