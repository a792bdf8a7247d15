//! Modifier families measured as fields on every arch, where the generated tables (learned from
//! corpora) held only the combinations their corpora used. Each family is a key, fixed residue
//! bits, and field lists crossed in full; an arch's table keeps its own generated entry where one
//! exists for the same residue (the suffixes agree; checked by the tests below).
//!
//! **`ATOMS`** with one data operand — key `0x98c` (`ATOMS.<op>[.<type>] Rd, [Ra+URb+off], Rb`)
//! and key `0x38c` (the same without the uniform register, `[Ra.X4+off]`). An
//! `atom.shared.exch`, `.dec`, `.min.s32` or `.max.s32` (warp-lang's cuBQL builder) stopped
//! emission and NVIDIA's own cubins did not decode. Fields, measured by flipping them in NVIDIA
//! words (`ATOMS.MIN.S32 R5, [UR4], R0` = `0x004e280008800204_00000000ff05798c`,
//! `ATOMS.MIN.S32 R27, [R19], R22` = `0x..00800200_00000016131b738c`) through
//! `nvdisasm -b SM75/80/86/89/90/100/120` (13.2.51): the operation in bits [87:91) (0 ADD,
//! 1 MIN, 2 MAX, 3 INC, 4 DEC, 5 AND, 6 OR, 7 XOR, 8 EXCH; 9.. print `INVALIDn`), the type in
//! bits [73:76) (0 U32 prints nothing, 1 `.S32`, 2 `.64`, 4 `.128` from sm_90 on — before sm_90
//! code 4 prints nothing like code 0, so it is left out there — and 3/5/6/7 print `INVALIDn`).
//! On `0x98c` bit 91 is set in every ptxas word (it shows the uniform address register even when
//! `URZ`). There is no signed 64-bit code: ptxas builds `atom.shared.{min,max}.s64` from an
//! `ATOMS.CAST.SPIN.64` loop.
//!
//! **`REDUX`** (key `0x3c4`, `REDUX.<op>[.S32] URd, Ra`, ptxas's warp-aggregated `red.shared`
//! and `redux.sync`): the operation in bits [78:81) (0 AND prints nothing, 1 OR, 2 XOR, 3 SUM,
//! 4 MIN, 5 MAX; 6, 7 print `INVALIDn`), `.S32` bit 73 (bit 74 is not decoded: it prints as if
//! clear, so it stays out of the family), on the six arches from sm_80 on (sm_75 has no REDUX).
//!
//! Each arch's other fixed bits are taken from its own base entry of the key when it has one
//! (sm_75's `0x38c` words carry `0xff` in bits [64:72)).
//!
//! Invariant: the entries are generated from the field lists below, so every operation appears
//! with every type on every arch that has the key's form.

use super::form::ModEntry;

/// One family: its key, the fixed residue bits when the arch has no base entry (the entry
/// whose suffix is `base_suffix`) to take them from, and two fields (position, codes with
/// their suffixes) crossed in full.
struct Family {
    key: u16,
    default_base: u128,
    base_suffix: &'static str,
    op_at: u32,
    ops: &'static [(u128, &'static str)],
    ty_at: u32,
    tys: &'static [(u128, &'static str)],
}

/// ATOMS operation codes of bits [87:91).
const ATOMS_OPS: &[(u128, &str)] = &[
    (0, ".ADD"),
    (1, ".MIN"),
    (2, ".MAX"),
    (3, ".INC"),
    (4, ".DEC"),
    (5, ".AND"),
    (6, ".OR"),
    (7, ".XOR"),
    (8, ".EXCH"),
];

/// ATOMS type codes of bits [73:76) (code 4, `.128`, only for EXCH from sm_90 on).
const ATOMS_TYS: &[(u128, &str)] = &[(0, ""), (1, ".S32"), (2, ".64"), (4, ".128")];

const FAMILIES: [Family; 3] = [
    Family {
        key: 0x98c,
        default_base: 1 << 91,
        base_suffix: ".ADD",
        op_at: 87,
        ops: ATOMS_OPS,
        ty_at: 73,
        tys: ATOMS_TYS,
    },
    Family { key: 0x38c, default_base: 0, base_suffix: ".ADD", op_at: 87, ops: ATOMS_OPS, ty_at: 73, tys: ATOMS_TYS },
    Family {
        key: 0x3c4,
        default_base: 0,
        base_suffix: "",
        op_at: 78,
        ops: &[(0, ""), (1, ".OR"), (2, ".XOR"), (3, ".SUM"), (4, ".MIN"), (5, ".MAX")],
        ty_at: 73,
        tys: &[(0, ""), (1, ".S32")],
    },
];

/// Whether (op, type) is a member on an arch (`has_128`: the arch prints ATOMS type code 4 as
/// `.128`; only PTX's `atom.shared.exch.b128` has that form).
fn member(op_name: &str, ty_name: &str, has_128: bool) -> bool {
    ty_name != ".128" || (has_128 && op_name == ".EXCH")
}

/// The families' entries for an arch whose table already holds `existing`.
pub fn mods(existing: &[ModEntry], has_128: bool) -> Vec<ModEntry> {
    let mut out = Vec::new();
    for f in &FAMILIES {
        let base = base_of(f, existing);
        for &(op, op_name) in f.ops {
            for &(ty, ty_name) in f.tys {
                if !member(op_name, ty_name, has_128) {
                    continue;
                }
                let residue = base | op << f.op_at | ty << f.ty_at;
                if existing.iter().any(|e| e.key == f.key && e.residue == residue) {
                    continue;
                }
                let suffix: &'static str = crate::sass::form::intern(format!("{op_name}{ty_name}"));
                out.push(ModEntry { key: f.key, residue, suffix });
            }
        }
    }
    out
}

fn base_of(f: &Family, existing: &[ModEntry]) -> u128 {
    existing.iter().find(|e| e.key == f.key && e.suffix == f.base_suffix).map_or(f.default_base, |e| e.residue)
}

#[cfg(test)]
mod tests {
    use crate::sass::{self, test_words::assert_nvdisasm_word};

    /// Words of the families as `nvdisasm` 13.2.51 printed them (probed per arch; control bits
    /// zero): each decodes with the arch's tables, prints as that text and re-encodes to the
    /// word; and every member of every family decodes, prints and re-encodes on every arch.
    #[test]
    fn entries_print_as_nvdisasm() {
        let probed: &[(&str, u128, &str)] = &[
            ("sm_75", 0x0c000404_00000000ff05798c, "ATOMS.EXCH.64 R5, [UR4], R0"),
            ("sm_80", 0x08800204_00000000ff05798c, "ATOMS.MIN.S32 R5, [UR4], R0"),
            ("sm_89", 0x0a000004_00000000ff05798c, "ATOMS.DEC R5, [UR4], R0"),
            ("sm_90", 0x09000204_00000000ff05798c, "ATOMS.MAX.S32 R5, [UR4], R0"),
            ("sm_90", 0x0c000804_00000000ff05798c, "ATOMS.EXCH.128 R5, [UR4], R0"),
            ("sm_90", 0x0b800204_00000000ff05798c, "ATOMS.XOR.S32 R5, [UR4], R0"),
            ("sm_100", 0x0c000804_00000000ff05798c, "ATOMS.EXCH.128 R5, [UR4], R0"),
            ("sm_120", 0x0a000404_00000000ff05798c, "ATOMS.DEC.64 R5, [UR4], R0"),
            ("sm_80", 0x00800200_00000016131b738c, "ATOMS.MIN.S32 R27, [R19], R22"),
            ("sm_90", 0x00800200_00000016131b738c, "ATOMS.MIN.S32 R27, [R19], R22"),
            ("sm_90", 0x00004400_fffff016131b738c, "ATOMS.ADD.64 R27, [R19.X4+-0x10], R22"),
            ("sm_100", 0x00800200_00000016131b738c, "ATOMS.MIN.S32 R27, [R19], R22"),
            ("sm_120", 0x00004400_fffff016131b738c, "ATOMS.ADD.64 R27, [R19.X4+-0x10], R22"),
            ("sm_90", 0x0000c200_00000000100a73c4, "REDUX.SUM.S32 UR10, R16"),
            ("sm_80", 0x00000200_00000000040a73c4, "REDUX.S32 UR10, R4"),
            ("sm_120", 0x00010200_000000001a0a73c4, "REDUX.MIN.S32 UR10, R26"),
        ];
        for &(arch, word, text) in probed {
            assert_nvdisasm_word(sass::tables_for(arch).unwrap(), 0, word, text);
        }
        for arch in ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"] {
            let t = sass::tables_for(arch).unwrap();
            let has_128 = !matches!(arch, "sm_75" | "sm_80" | "sm_86" | "sm_89");
            for f in &super::FAMILIES {
                if !t.forms.iter().any(|fm| fm.key == f.key) {
                    // REDUX is sm_80 on; every arch has both ATOMS keys.
                    assert!(f.key == 0x3c4 && arch == "sm_75", "{arch} lacks {:#x}", f.key);
                    continue;
                }
                let base = super::base_of(f, t.mods);
                let (base_name, operands, word) = match f.key {
                    0x98c => ("ATOMS", "R5, [UR4], R0", 0x0000_0000_0000_0004_0000_0000_ff05_798c),
                    0x38c => ("ATOMS", "R27, [R19], R22", 0x16_131b_738c),
                    _ => ("REDUX", "UR10, R4", 0x04_0a73_c4),
                };
                for &(op, op_name) in f.ops {
                    for &(ty, ty_name) in f.tys {
                        if !super::member(op_name, ty_name, has_128) {
                            continue;
                        }
                        let word = word | base | op << f.op_at | ty << f.ty_at;
                        let what = format!("{arch} {:#x} {op_name}{ty_name}", f.key);
                        let i = t.decode(word).unwrap_or_else(|e| panic!("{what}: {e}"));
                        assert_eq!(t.print(&i, 0, None), format!("{base_name}{op_name}{ty_name} {operands}"), "{what}");
                        assert_eq!(t.encode(&i).unwrap(), word, "{what}");
                    }
                }
            }
        }
    }
}
