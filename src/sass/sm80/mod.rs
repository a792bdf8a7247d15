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
const HOPPER_ONLY: &[&str] =
    &["SYNCS", "UBLKCP", "HGMMA", "WARPGROUP", "ELECT", "CGAERRBAR", "VIADD", "VIMNMX", "VIADDMNMX", "ENDCOLLECTIVE"];

/// Forms whose memory slot carries a 2-bit address scale at [78:80) (`[R0.X4]`): shared
/// loads, stores and atomics.
const SCALED: &[u16] = &[0x984, 0x388, 0x988, 0x98c, 0x38d, 0xf8c];

/// Applies `f` to every slot of `fm`.
fn map_slots(fm: &mut Form, f: impl Fn(Slot) -> Slot) {
    let slots: Vec<Slot> = fm.slots.iter().map(|s| f(*s)).collect();
    fm.slots = Box::leak(slots.into_boxed_slice());
}

/// Replaces the form of `key` (or adds it).
fn set(f: &mut Vec<Form>, fm: Form) {
    f.retain(|x| x.key != fm.key);
    f.push(fm);
}

/// sm_90 forms adapted to sm_80.
fn build() -> Vec<Form> {
    let mut f = super::sm90::build();
    f.retain(|fm| !HOPPER_ONLY.contains(&fm.base));
    for fm in f.iter_mut() {
        let scaled = SCALED.contains(&fm.key);
        map_slots(fm, |s| match s.kind {
            // Branch targets: a word offset in [34:82) (bits [32:34) are BRA's mode); BRX's
            // relative offset a plain byte offset in [32:82).
            Kind::Target(TargetKind::Split) => Slot { kind: Kind::Target(TargetKind::Quad), ..s },
            Kind::Target(TargetKind::SplitRelative) => Slot { kind: Kind::Target(TargetKind::PlainRelative), ..s },
            // Global accesses encode a descriptor that nvdisasm does not print before sm_90.
            Kind::Mem { desc_at: Some(_), .. } => s.desc_hidden(),
            Kind::Mem { .. } if scaled => s.scaled(78),
            _ => s,
        });
        // Global reductions are `RED` before sm_90.
        if fm.base == "REDG" {
            fm.base = "RED";
        }
    }
    // WARPSYNC: the mask is an immediate or a register at 32 (sm_90's 0x948 has no operand,
    // its register form a register at 24 and a `.COLLECTIVE` target); bit 86 is `.EXCLUSIVE`.
    let pred = || super::sm90::p(87).not(90).opt();
    set(&mut f, form(0x948, "WARPSYNC", vec![pred(), imm(32, 32, super::form::ImmStyle::Hex)]));
    set(&mut f, form(0x348, "WARPSYNC", vec![pred(), r(32)]));
    // MUFU: `.F16` is bit 73 here (72 on sm_90); it shows the `.H1` selector at 60.
    set(&mut f, form(0x308, "MUFU", vec![r(16), r(32).neg(63).abs(62).h1(60, 73).reuse(1)]));
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
    f.sort_by_key(|x| x.key);
    f
}

/// Hand-written modifier entries the generator leaves out, each checked against a corpus word
/// by a unit test below: `HADD2.F32` (bit 78), as on sm_90 (see `sm90::HAND_MODS`).
const HAND_MODS: &[ModEntry] = &[ModEntry { key: 0x230, residue: 1 << 78, suffix: ".F32" }];

/// The modifier table of one arch of the family (nvdisasm's name): the shared generated
/// entries, the arch's own, and [`HAND_MODS`], sorted by (key, residue).
fn mods(arch: &str) -> Vec<ModEntry> {
    let own = generated::ARCH_MODS.iter().filter(|(a, _)| *a == arch).flat_map(|(_, m)| m.iter());
    let mut v: Vec<ModEntry> = generated::MODS.iter().chain(own).chain(HAND_MODS).cloned().collect();
    v.sort_by_key(|e| (e.key, e.residue));
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

    #[test]
    fn mods_sorted_unique() {
        for arch in ["sm_80", "sm_86", "sm_89"] {
            let m = super::tables_for(arch).unwrap().mods;
            assert!(m.windows(2).all(|w| (w[0].key, w[0].residue) < (w[1].key, w[1].residue)), "{arch}");
        }
    }
}
