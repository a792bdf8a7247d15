//! sm_90a warpgroup MMA forms: `HGMMA` (f16, bf16, tf32), `QGMMA` (e4m3/e5m2) and `IGMMA`
//! (s8/u8), each with A from a shared-memory descriptor (`Rd, gdesc[URa], Rc, UPp, gsb0`) or
//! from registers (`Rd, Ra, gdesc[URb], Rc, UPp, gsb0`), and their modifier entries, learned
//! from `ptxas -arch sm_90a` 13.0.88 output through `nvdisasm -b SM90` (the unit tests below
//! hold NVIDIA's words).
//!
//! Fields (bit numbers of the 128-bit word): `Rd` 16, the descriptor quad `URa` 24 (32 when A
//! is in registers, whose first register is at 24), `Rc` 64, scale-d `UPp` 87 stored inverted
//! with its `!` at 90, the group scoreboard 84 (shown unless 7; 0 is `gsb0`), N/8 - 1 at 53
//! (5 bits; `IGMMA`: 3 x the index of N in its list 8, 16, 24, 32, 48, ..., 256, 6 bits), bit
//! 91 always set. Decorations: `.negA` 72 (on `Ra` as `-Ra` when A is in
//! registers), `.negB` 63, `.tnspA` 61, `.tnspB` 62, printed on the descriptor in that order.
//! Types: `HGMMA` bit 75 `.F32` (else `.F16`), 76 `.BF16`, 77 with 58 `.TF32` (k8);
//! `QGMMA` 75 `.F32`, 76 A `.E5M2` (else `.E4M3`), 77 B `.E5M2`; `IGMMA` 76 A `.S8` (else
//! `.U8`), 82 B `.S8`, 75 `.SAT`.
//!
//! Invariant: only the N values the PTX ISA allows for the type get modifier entries, so a word
//! with another N does not decode.

use super::{form, imm, r, ur};
use crate::sass::form::{Form, ImmStyle, Kind, ModEntry, Slot};

/// The descriptor's decorations of `HGMMA` with A from a descriptor.
const MARKS_H: &[(u8, &str)] = &[(72, ".negA"), (63, ".negB"), (61, ".tnspA"), (62, ".tnspB")];
/// ... of `QGMMA` with A from a descriptor (no transposes).
const MARKS_Q: &[(u8, &str)] = &[(72, ".negA"), (63, ".negB")];
/// ... of `HGMMA` with A in registers (A's negation is its register's `-`).
const MARKS_H_REGS: &[(u8, &str)] = &[(63, ".negB"), (62, ".tnspB")];
/// ... of `QGMMA` with A in registers.
const MARKS_Q_REGS: &[(u8, &str)] = &[(63, ".negB")];

/// The three opcodes: (base, key of the descriptor form; the register form is key | 0x400).
pub(crate) const BASES: [(&str, u16); 3] = [("HGMMA", 0x9f0), ("IGMMA", 0x9f1), ("QGMMA", 0x9f3)];

fn tail() -> [Slot; 3] {
    [
        r(64),
        Slot::new(Kind::UpInv(87)).not(90).opt(),
        imm(84, 3, ImmStyle::Named { prefix: "gsb", count: 1 }).unless_field(84, 3, &[7]),
    ]
}

/// Pushes the six warpgroup MMA forms.
pub(super) fn forms(f: &mut Vec<Form>) {
    for (base, key) in BASES {
        let (marks, marks_regs): (&'static [(u8, &'static str)], &'static [(u8, &'static str)]) = match base {
            "HGMMA" => (MARKS_H, MARKS_H_REGS),
            "QGMMA" => (MARKS_Q, MARKS_Q_REGS),
            _ => (&[], &[]),
        };
        let mut slots = vec![r(16), ur(24).wrapped("gdesc[", "]").marked(marks)];
        slots.extend(tail());
        f.push(form(key, base, slots));
        let a = if base == "IGMMA" { r(24) } else { r(24).neg(72) };
        let mut slots = vec![r(16), a, ur(32).wrapped("gdesc[", "]").marked(marks_regs)];
        slots.extend(tail());
        f.push(form(key | 0x400, base, slots));
    }
}

/// The N values the PTX ISA allows: multiples of 8 up to 256; for 8-bit integers 8, 16, 24 and
/// multiples of 16 from 32.
fn ns(int: bool) -> impl Iterator<Item = u32> {
    (1..=32u32).map(|k| 8 * k).filter(move |&n| !int || n <= 24 || n % 16 == 0)
}

/// Every (residue, suffix) of one base's modifier entries (both keys share them).
fn suffixes(base: &str) -> Vec<(u128, String)> {
    let bit = |b: u32| 1u128 << b;
    let mut out = Vec::new();
    let (k, int) = match base {
        "HGMMA" => (16, false),
        "IGMMA" => (32, true),
        _ => (32, false),
    };
    let types: Vec<(u128, String, u32)> = match base {
        "HGMMA" => vec![
            (bit(75), ".F32".into(), k),
            (0, ".F16".into(), k),
            (bit(75) | bit(76), ".F32.BF16".into(), k),
            (bit(75) | bit(77) | bit(58), ".F32.TF32".into(), 8),
        ],
        "QGMMA" => {
            let mut v = Vec::new();
            for (acc_bit, acc) in [(bit(75), ".F32"), (0, ".F16")] {
                for (ab, a) in [(0, "E4M3"), (bit(76), "E5M2")] {
                    for (bb, b) in [(0, "E4M3"), (bit(77), "E5M2")] {
                        v.push((acc_bit | ab | bb, format!("{acc}.{a}.{b}"), k));
                    }
                }
            }
            v
        }
        _ => {
            let mut v = Vec::new();
            for (ab, a) in [(0, "U8"), (bit(76), "S8")] {
                for (bb, b) in [(0, "U8"), (bit(82), "S8")] {
                    for (sb, sat) in [(0, ""), (bit(75), ".SAT")] {
                        v.push((ab | bb | sb, format!(".{a}.{b}{sat}"), k));
                    }
                }
            }
            v
        }
    };
    for (index, n) in ns(int).enumerate() {
        // N: `IGMMA` 3 x its index in the 8-bit N list (6 bits), else N/8 - 1.
        let field = if int { 3 * index as u128 } else { u128::from(n / 8 - 1) };
        for (tb, t, k) in &types {
            let residue = bit(91) | field << 53 | tb;
            out.push((residue, format!(".64x{n}x{k}{t}")));
        }
    }
    out
}

/// The modifier entries of the six forms, less those `have` (the generated table) holds with
/// the same suffix.
pub(super) fn mods(have: &[ModEntry]) -> Vec<ModEntry> {
    let mut v = Vec::new();
    for (base, key) in BASES {
        for (residue, suffix) in suffixes(base) {
            let suffix: &'static str = crate::sass::form::intern(suffix);
            for key in [key, key | 0x400] {
                let e = ModEntry { key, residue, suffix };
                if !have.iter().any(|h| h.key == key && h.residue == residue && h.suffix == suffix) {
                    v.push(e);
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    /// NVIDIA's words (ptxas 13.0.88 -arch sm_90a, nvdisasm -b SM90 13.2.51) of every
    /// decoration and type bit: our decoding prints nvdisasm's text, encoding gives the word
    /// back, and parsing the text prints it again.
    #[test]
    fn gmma_words_match_nvdisasm() {
        let t = super::super::tables();
        let w = |hi: u128, lo: u128| hi << 64 | lo;
        for (word, text) in [
            (w(0x000fe6000b841818, 0x00000000081879f1), "IGMMA.64x8x32.S8.S8.SAT R24, gdesc[UR8], R24, UP0, gsb0"),
            (
                w(0x000fe6000b800818, 0x000000081c187df3),
                "QGMMA.64x8x32.F32.E4M3.E4M3 R24, R28, gdesc[UR8], R24, UP0, gsb0",
            ),
            (w(0x000fe6000b841018, 0x000000081c187df1), "IGMMA.64x8x32.S8.S8 R24, R28, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b840018, 0x00000000081879f1), "IGMMA.64x8x32.U8.S8 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b801018, 0x00000000081879f1), "IGMMA.64x8x32.S8.U8 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b800018, 0x00000000081879f1), "IGMMA.64x8x32.U8.U8 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b800018, 0x00000000081879f3), "QGMMA.64x8x32.F16.E4M3.E4M3 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b801818, 0x00000000081879f3), "QGMMA.64x8x32.F32.E5M2.E4M3 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b802818, 0x00000000081879f3), "QGMMA.64x8x32.F32.E4M3.E5M2 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b803818, 0x00000000081879f3), "QGMMA.64x8x32.F32.E5M2.E5M2 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b802818, 0x040000081c187df0), "HGMMA.64x8x8.F32.TF32 R24, R28, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b802818, 0x04000000081879f0), "HGMMA.64x8x8.F32.TF32 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b800818, 0x400000081c187df0), "HGMMA.64x8x16.F32 R24, R28, gdesc[UR8].tnspB, R24, UP0, gsb0"),
            (w(0x000fe6000b800018, 0x00000000081879f0), "HGMMA.64x8x16.F16 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b800818, 0x80000000081879f0), "HGMMA.64x8x16.F32 R24, gdesc[UR8].negB, R24, UP0, gsb0"),
            (w(0x000fe6000b800918, 0x00000000081879f0), "HGMMA.64x8x16.F32 R24, gdesc[UR8].negA, R24, UP0, gsb0"),
            (w(0x000fe6000b800818, 0x20000000081879f0), "HGMMA.64x8x16.F32 R24, gdesc[UR8].tnspA, R24, UP0, gsb0"),
            (w(0x000fe6000b801818, 0x00000000081879f0), "HGMMA.64x8x16.F32.BF16 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b800818, 0x00400000081879f0), "HGMMA.64x24x16.F32 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b800818, 0x03e00000081879f0), "HGMMA.64x256x16.F32 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b800818, 0x00e00000081879f0), "HGMMA.64x64x16.F32 R24, gdesc[UR8], R24, UP0, gsb0"),
            (
                w(0x000fe6000b800018, 0x63000000081879f0),
                "HGMMA.64x200x16.F16 R24, gdesc[UR8].tnspA.tnspB, R24, UP0, gsb0",
            ),
            (w(0x000fe6000b800018, 0x06600000081879f1), "IGMMA.64x256x32.U8.U8 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b841018, 0x03c00000081879f1), "IGMMA.64x144x32.S8.S8 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b841018, 0x01800000081879f1), "IGMMA.64x48x32.S8.S8 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b841018, 0x00c00000081879f1), "IGMMA.64x24x32.S8.S8 R24, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b802818, 0x06000000081879f0), "HGMMA.64x136x8.F32.TF32 R24, gdesc[UR8], R24, UP0, gsb0"),
            (
                w(0x000fe6000b800818, 0x02000000081879f3),
                "QGMMA.64x136x32.F32.E4M3.E4M3 R24, gdesc[UR8], R24, UP0, gsb0",
            ),
            (w(0x000fe6000b841818, 0x000000081c187df1), "IGMMA.64x8x32.S8.S8.SAT R24, R28, gdesc[UR8], R24, UP0, gsb0"),
            (w(0x000fe6000b802918, 0x04000000081879f0), "HGMMA.64x8x8.F32.TF32 R24, gdesc[UR8].negA, R24, UP0, gsb0"),
            (
                w(0x000fe6000b800918, 0x80000000081879f3),
                "QGMMA.64x8x32.F32.E4M3.E4M3 R24, gdesc[UR8].negA.negB, R24, UP0, gsb0",
            ),
            (
                w(0x000fe6000b800918, 0xc00000081c187df0),
                "HGMMA.64x8x16.F32 R24, -R28, gdesc[UR8].negB.tnspB, R24, UP0, gsb0",
            ),
            (
                w(0x000fe6000b800918, 0xe0000000081879f0),
                "HGMMA.64x8x16.F32 R24, gdesc[UR8].negA.negB.tnspA.tnspB, R24, UP0, gsb0",
            ),
            (0x000f_e200_0c70_08ff_0000_0000_0418_79f0, "HGMMA.64x8x16.F32 R24, gdesc[UR4], RZ, !UPT"),
        ] {
            let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.print(&inst, 0, None), text);
            assert_eq!(t.encode(&inst).expect("encodes"), word, "{text}");
            let parsed = t.parse(text, 0).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(t.print(&parsed, 0, None), text, "{text} parsed");
        }
    }

    /// Every N of the PTX ISA has an entry; others do not decode.
    #[test]
    fn n_values() {
        assert_eq!(super::ns(false).count(), 32);
        assert_eq!(super::ns(true).collect::<Vec<_>>()[..5], [8, 16, 24, 32, 48]);
        let t = super::super::tables();
        // IGMMA with N field 4 (between 16 and 24's 3 and 6) names no N.
        let word = 0x000fe6000b800018u128 << 64 | 0x00800000081879f1;
        assert!(t.decode(word).is_err());
    }
}
