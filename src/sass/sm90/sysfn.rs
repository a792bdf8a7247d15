//! sm_90 forms of the system-call, grid-dependency and other rare instructions the corpus never shows and
//! ptxas 13.0.88 emits for `vprintf`/`malloc`/`free`/`__assertfail` (`LEPC R20` +
//! `CALL.ABS.NOINC Ra`: the callee's address is loaded from its relocated `.nv.constant4`
//! slot), `trap` (`BPT.TRAP 0x1`) and `griddepcontrol` (`ACQBULK`, `PREEXIT`). Layouts from
//! bit flips of ptxas's words printed by `nvdisasm -b SM90` (13.0.88):
//!
//! - `BPT` 0x95c: an immediate in [34:40) (bit 40 and above change nothing; 0 prints no
//!   operand), the mode in [84:86) (3 = `.TRAP`; others are rejected by nvdisasm).
//! - `LEPC` 0x94e: `Rd` at 16, a byte offset from the next instruction in [24:82), as on
//!   sm_120 ([`TargetKind::Wide`]).
//! - `CALL` 0x343 (`.ABS` through a register): `Ra` at 24, `.NOINC` bit 86, a predicate at 87
//!   (`!` at 90), and an offset stored like BRX's, shown when not 0 (sm_120's layout; the
//!   nvdisasm flips agree: bit 24 → R13, 86 → `CALL.ABS`, 87 → `P6`, 90 → `!PT`).
//! - `ACQBULK` 0x82e, `PREEXIT` 0x82d: no operand.
//! - `MOVM` 0x23a (`movmatrix.m8n8.trans.b16`): `Rd` at 16, `Ra` at 24; `.16.MT88` with the
//!   mode bits [78:80) clear (`.M832`, `.M864` with bit 78, 79; not emitted).
//! - `PMTRIG` 0x801 (`pmevent`): a 16-bit mask in [32:48), always printed (bits 48 and above
//!   change nothing in nvdisasm's text; ptxas sets bits [87:90), as in a `PT` predicate slot).
//!
//! - `USETMAXREG` 0x9c8 (`setmaxnreg`, sm_90a): the count in [32:42) (nvdisasm prints 0x3f8 for
//!   those bits set; wider not probed), the mode in [72:75) (5 `.DEALLOC`, 6 `.TRY_ALLOC`), bit
//!   91 `.CTAPOOL` (clear: nvdisasm refuses the word); `.TRY_ALLOC`'s uniform predicate at 81
//!   (`.DEALLOC` prints none whatever the field holds; ptxas writes 7 there, `UPT`, the hidden
//!   slot's default).
//! - `UTMACCTL` 0x9b9 (`fence.proxy.tensormap::generic.acquire`): `[URa]` at 24; `.IV` bit 91.
//!
//! The unit tests compare decoding, printing and encoding against those nvdisasm texts.

use super::super::form::{Form, ImmStyle, Kind, ModEntry, Slot, TargetKind};
use super::{form, imm, p, r, up};

/// Appends the forms.
pub(super) fn forms(f: &mut Vec<Form>) {
    f.push(form(0x95c, "BPT", vec![imm(34, 6, ImmStyle::Hex).opt()]));
    f.push(form(0x94e, "LEPC", vec![r(16), Slot::new(Kind::Target(TargetKind::Wide))]));
    f.push(form(
        0x343,
        "CALL",
        vec![p(87).not(90).opt(), r(24).glued(), Slot::new(Kind::Target(TargetKind::SplitRelative)).opt()],
    ));
    f.push(form(0x82e, "ACQBULK", vec![]));
    f.push(form(0x82d, "PREEXIT", vec![]));
    f.push(form(0x801, "PMTRIG", vec![imm(32, 16, ImmStyle::Hex)]));
    f.push(form(0x23a, "MOVM", vec![r(16), r(24)]));
    f.push(form(0x9b9, "UTMACCTL", vec![super::uaddr(None, 24, false)]));
    f.push(form(0x9c8, "USETMAXREG", vec![up(81).if_bit(73), imm(32, 10, ImmStyle::Hex)]));
}

/// Their modifier entries.
pub(super) const MODS: &[ModEntry] = &[
    ModEntry { key: 0x343, residue: 0, suffix: ".ABS" },
    ModEntry { key: 0x343, residue: 1 << 86, suffix: ".ABS.NOINC" },
    ModEntry { key: 0x82d, residue: 0, suffix: "" },
    ModEntry { key: 0x82e, residue: 0, suffix: "" },
    ModEntry { key: 0x801, residue: 7 << 87, suffix: "" },
    ModEntry { key: 0x23a, residue: 0, suffix: ".16.MT88" },
    ModEntry { key: 0x94e, residue: 0, suffix: "" },
    ModEntry { key: 0x95c, residue: 3 << 84, suffix: ".TRAP" },
    ModEntry { key: 0x9b9, residue: 1 << 91, suffix: ".IV" },
    ModEntry { key: 0x9c8, residue: (1 << 91) | (5 << 72), suffix: ".DEALLOC.CTAPOOL" },
    ModEntry { key: 0x9c8, residue: (1 << 91) | (6 << 72), suffix: ".TRY_ALLOC.CTAPOOL" },
];

#[cfg(test)]
mod tests {
    /// ptxas 13.0.88's words (sysfn_trap, sysfn_printf of `corpus/sysfn`) and bit flips of
    /// them, with `nvdisasm -b SM90`'s text at address 0.
    #[test]
    fn sysfn_forms_match_nvdisasm() {
        let t = super::super::tables();
        for (word, text) in [
            (0x000f_e200_0030_0000_0000_0004_0000_795cu128, "BPT.TRAP 0x1"),
            (0x000f_e200_0030_0000_0000_000c_0000_795c, "BPT.TRAP 0x3"),
            (0x000f_e200_0030_0000_0000_0000_0000_795c, "BPT.TRAP"),
            (0x000f_ce00_0000_0000_0000_0000_1014_794e, "LEPC R20, 0x20"),
            (0x000f_ce00_0000_0000_0000_0000_1016_794e, "LEPC R22, 0x20"),
            (0x000f_ce00_0000_0000_0000_0001_1014_794e, "LEPC R20, 0x120"),
            (0x000f_ea00_03c0_0000_0000_0000_0c00_7343, "CALL.ABS.NOINC R12"),
            (0x000f_ea00_03c0_0000_0000_0000_0d00_7343, "CALL.ABS.NOINC R13"),
            (0x000f_ea00_0380_0000_0000_0000_0c00_7343, "CALL.ABS R12"),
            (0x000f_ea00_0340_0000_0000_0000_0c00_7343, "CALL.ABS.NOINC P6, R12"),
            (0x000f_ea00_07c0_0000_0000_0000_0c00_7343, "CALL.ABS.NOINC !PT, R12"),
            (0x000f_e200_0000_0000_0000_0000_0000_782e, "ACQBULK"),
            (0x000f_e200_0000_0000_0000_0000_0000_782d, "PREEXIT"),
            (0x000f_e200_0380_0000_0000_0002_0000_7801, "PMTRIG 0x2"),
            (0x001e_2200_0000_0000_0000_0000_0009_723a, "MOVM.16.MT88 R9, R0"),
            (0x000f_e200_0380_0000_0000_0005_0000_7801, "PMTRIG 0x5"),
            (0x000f_e200_0380_0000_0000_8000_0000_7801, "PMTRIG 0x8000"),
            // `fence.proxy.tensormap::generic.acquire.gpu [a], 128` (ptxas 13.0.88 -O3).
            (0x0001_e200_0800_0000_0000_0000_0400_79b9, "UTMACCTL.IV [UR4]"),
            (0x000f_c800_0000_0000_0000_003f_0000_791a, "DEPBAR {5,4,3,2,1,0}"),
            // `setmaxnreg.{dec,inc}.sync.aligned.u32 {40,232}` (ptxas 13.0.88 -O3, sm_90a) and
            // bit flips of them (the count field is at least 10 bits; the predicate at 81).
            (0x001e_0000_080e_0500_0000_0028_0000_79c8, "USETMAXREG.DEALLOC.CTAPOOL 0x28"),
            (0x000e_2400_0800_0600_0000_00e8_0000_79c8, "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xe8"),
            (0x000e_2400_0802_0600_0000_00e8_0000_79c8, "USETMAXREG.TRY_ALLOC.CTAPOOL UP1, 0xe8"),
            (0x000e_2400_0800_0600_0000_0100_0000_79c8, "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0x100"),
            (0x000e_2400_0800_0600_0000_03f8_0000_79c8, "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0x3f8"),
            // The loop's test of the granted predicate.
            (0x001f_da00_03f0_f008_0000_0000_0000_781c, "PLOP3.LUT P0, PT, PT, PT, UP0, 0x80, 0x0"),
        ] {
            let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(t.print(&inst, 0, None).trim_end_matches(" ;"), text);
            assert_eq!(t.encode(&inst).expect("encodes"), word, "{text}");
        }
    }
}
