//! sm_90 generic floating-point atomics, which the generated tables (learned from an `-O3`
//! corpus without generic float atomics) lack: key `0x9a2`, `ATOM.E.ADD.<type>.RN.STRONG.<scope>
//! Pd, Rd, desc[URa][Ra.64], Rb`, the layout of the integer generic `ATOM` (`0x98a`): the
//! "performed" predicate at 81, Rd at 16, the 64-bit address at 24 with the descriptor at 64,
//! Rb at 32. ptxas 13.0.88 emits it for generic `atom`/`red` `.add.f32` (`.F32.FTZ.RN`),
//! `.add.f64` (`.F64.RN`), `.add.noftz.f16x2` (`.F16x2.RN`) and `.add.noftz.bf16x2`
//! (`.BF16x2.RN`), each under the scopes `.cta` (`.SM`), `.gpu`/`.cluster` (`.GPU`) and `.sys`
//! (`.SYS`), and follows it with a shared/local fallback taken when Pd is false.
//!
//! The type and scope codes sit in bits [73:81) of the residues below (the integer
//! `ATOM.E.ADD.STRONG.GPU` is `0x810e1c0 << 64` on `0x98a`); they are taken whole from ptxas's
//! words, not decomposed into fields.
//!
//! Every entry is proven by [`tests::words_match_nvdisasm`] on a word ptxas emitted and
//! `nvdisasm -b SM90` decoded as the text given. Invariant: entries are sorted and unique
//! together with the generated table (checked by the parent's `mods_sorted_unique`).

use super::{form, mem, p, r};
use crate::sass::form::{Form, Kind, ModEntry};

/// The generic float `ATOM` form.
pub(super) fn forms(f: &mut Vec<Form>) {
    let mut m = mem(true, None, None, None, Some(64));
    if let Kind::Mem { ref mut wide_always, .. } = m.kind {
        *wide_always = true;
    }
    f.push(form(0x9a2, "ATOM", vec![p(81), r(16), m, r(32)]));
}

const fn entry(residue_hi: u64, suffix: &'static str) -> ModEntry {
    ModEntry { key: 0x9a2, residue: (residue_hi as u128) << 64, suffix }
}

/// The modifier entries of this module (residues: bits 64.. of ptxas's words with the
/// descriptor and predicate fields cleared).
pub(super) const MODS: &[ModEntry] = &[
    entry(0x810a1c0, ".E.ADD.F16x2.RN.STRONG.SM"),
    entry(0x810a7c0, ".E.ADD.BF16x2.RN.STRONG.SM"),
    entry(0x810b3c0, ".E.ADD.F32.FTZ.RN.STRONG.SM"),
    entry(0x810bfc0, ".E.ADD.F64.RN.STRONG.SM"),
    entry(0x810e1c0, ".E.ADD.F16x2.RN.STRONG.GPU"),
    entry(0x810e7c0, ".E.ADD.BF16x2.RN.STRONG.GPU"),
    entry(0x810f3c0, ".E.ADD.F32.FTZ.RN.STRONG.GPU"),
    entry(0x810ffc0, ".E.ADD.F64.RN.STRONG.GPU"),
    entry(0x81141c0, ".E.ADD.F16x2.RN.STRONG.SYS"),
    entry(0x81147c0, ".E.ADD.BF16x2.RN.STRONG.SYS"),
    entry(0x81153c0, ".E.ADD.F32.FTZ.RN.STRONG.SYS"),
    entry(0x8115fc0, ".E.ADD.F64.RN.STRONG.SYS"),
];

#[cfg(test)]
mod tests {
    /// Words ptxas 13.0.88 `-O3 -arch sm_90` emitted for a sweep of generic `atom`/`red`
    /// `.add` over f32/f64/f16x2/bf16x2 and the scopes, with `nvdisasm -b SM90`'s text (and
    /// the wild atom_float_double's `ATOM ... P0, R0, ...`): each decodes and prints as that
    /// text, re-encodes to the word, and the text parses back to the word (control aside).
    #[test]
    fn words_match_nvdisasm() {
        let t = super::super::tables();
        let mask = !crate::sass::control::CONTROL_MASK;
        for (hi, lo, text) in [
            (
                0x000be2000810e7c8u64,
                0x0000000304ff79a2u64,
                "ATOM.E.ADD.BF16x2.RN.STRONG.GPU P0, RZ, desc[UR8][R4.64], R3",
            ),
            (0x000be2000810a7c8, 0x0000000304ff79a2, "ATOM.E.ADD.BF16x2.RN.STRONG.SM P0, RZ, desc[UR8][R4.64], R3"),
            (0x000be200081147c8, 0x0000000304ff79a2, "ATOM.E.ADD.BF16x2.RN.STRONG.SYS P0, RZ, desc[UR8][R4.64], R3"),
            (0x000be2000810e1c8, 0x0000000304ff79a2, "ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, RZ, desc[UR8][R4.64], R3"),
            (0x000be2000810a1c8, 0x0000000304ff79a2, "ATOM.E.ADD.F16x2.RN.STRONG.SM P0, RZ, desc[UR8][R4.64], R3"),
            (0x000be200081141c8, 0x0000000304ff79a2, "ATOM.E.ADD.F16x2.RN.STRONG.SYS P0, RZ, desc[UR8][R4.64], R3"),
            (0x0043e2000810f3c8, 0x0000000304ff79a2, "ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU P0, RZ, desc[UR8][R4.64], R3"),
            (0x0001e2000810b3c8, 0x0000000304ff79a2, "ATOM.E.ADD.F32.FTZ.RN.STRONG.SM P0, RZ, desc[UR8][R4.64], R3"),
            (0x0009e200081153c8, 0x0000000304ff79a2, "ATOM.E.ADD.F32.FTZ.RN.STRONG.SYS P0, RZ, desc[UR8][R4.64], R3"),
            (0x0205e2000810ffc8, 0x0000000604ff79a2, "ATOM.E.ADD.F64.RN.STRONG.GPU P0, RZ, desc[UR8][R4.64], R6"),
            (0x000be2000810bfc8, 0x0000000604ff79a2, "ATOM.E.ADD.F64.RN.STRONG.SM P0, RZ, desc[UR8][R4.64], R6"),
            (0x000be20008115fc8, 0x0000000604ff79a2, "ATOM.E.ADD.F64.RN.STRONG.SYS P0, RZ, desc[UR8][R4.64], R6"),
            (0x00321e000810f3c4, 0x00000006040079a2, "ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU P0, R0, desc[UR4][R4.64], R6"),
            (0x00321e000810ffc4, 0x00000006040879a2, "ATOM.E.ADD.F64.RN.STRONG.GPU P0, R8, desc[UR4][R4.64], R6"),
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
