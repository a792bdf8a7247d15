//! sm_120 tables (Blackwell consumer): the same 128-bit word format as sm_100 and mostly the
//! same form keys and operand layouts, so the forms start from sm_100's
//! ([`super::sm100::build`]) and this module states the differences, each found by flipping
//! bits of a corpus word and decoding it with `nvdisasm -b SM120` (see `../gen/README.md`). The
//! modifier table is generated for this arch (`generated.rs`).
//!
//! Invariant: forms are sorted by key and unique (checked by a unit test).

use super::form::{Form, ImmStyle, Kind, ModEntry, Slot, Tables};
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
    // FADD with a uniform B in the C-selector form (as 0xc21).
    set(&mut f, form(0xe21, "FADD", vec![r(16), r(24).neg(72).abs(73).reuse(0), ur(32).neg(63).abs(62)]));
    // MUFU of a uniform register.
    set(&mut f, form(0xd08, "MUFU", vec![r(16), ur(32).neg(63).abs(62)]));
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

/// Hand-written modifier entries the generator leaves out, each checked against a corpus word
/// by a unit test below: `HADD2.F32` (bit 78), as on sm_90 and sm_100.
const HAND_MODS: &[ModEntry] = &[ModEntry { key: 0x230, residue: 1 << 78, suffix: ".F32" }];

/// The generated modifier entries, sorted by (key, residue), without [`HAND_MODS`].
pub fn generated_mods() -> &'static [ModEntry] {
    generated::MODS
}

static FORMS: LazyLock<Vec<Form>> = LazyLock::new(build);
static MODS: LazyLock<Vec<ModEntry>> = LazyLock::new(|| {
    let mut v: Vec<ModEntry> = generated::MODS.iter().chain(HAND_MODS).cloned().collect();
    v.sort_by_key(|e| (e.key, e.residue));
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

    #[test]
    fn mods_sorted_unique() {
        let m = super::tables().mods;
        assert!(m.windows(2).all(|w| (w[0].key, w[0].residue) < (w[1].key, w[1].residue)));
    }
}
