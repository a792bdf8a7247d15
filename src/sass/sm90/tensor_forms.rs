//! sm_90 modifier entries of the tensor-core instructions the generated tables leave out, read
//! off ptxas 13.0.88 `-O3 -arch sm_90` words for small `mma.sync` kernels, printed by
//! `nvdisasm` 13.2.51 (the unit test below holds those words and texts):
//!
//! - `IMMA` 0x237 (`mma.sync.aligned.m16n8k{16,32}.row.col[.satfinite].s32.A.B.s32`, A, B = s8
//!   or u8): bit 74 always set, 75 the k32 shape (`.16832`), 76 A signed, 78 B signed, 82
//!   `.SAT`, 86 always set. The generated table has `.16816.S8.S8` only.
//! - `HMMA` 0x23c `.1688.F32.TF32` (`mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`):
//!   residue 0x810 << 72 (the generated `.1684.F32.TF32` is 0x850 << 72).
//! - `STSM` 0x844 (`stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`): the address
//!   `[Ra+off]` as `STS`'s (Ra at 24, a signed 24-bit offset at 40), the data tuple at 32;
//!   `.2` bit 72, `.4` bit 73, `.MT88` (transposed) bit 78.

use super::super::form::{Form, ModEntry};
use super::{form, mem, r};

/// Appends the forms (from `super::build`).
pub(super) fn forms(f: &mut Vec<Form>) {
    f.push(form(0x844, "STSM", vec![mem(true, None, None, None, None), r(32)]));
}

/// `IMMA` residue: shape k32, a and b signed, `.SAT`.
const fn imma(k32: bool, sa: bool, sb: bool, sat: bool) -> u128 {
    (1 << 86 | 1 << 74) | (k32 as u128) << 75 | (sa as u128) << 76 | (sb as u128) << 78 | (sat as u128) << 82
}

/// The hand-written tensor-core modifier entries.
pub(super) const MODS: &[ModEntry] = &[
    // `.16816.S8.S8` is generated.
    ModEntry { key: 0x237, residue: imma(false, true, true, true), suffix: ".16816.S8.S8.SAT" },
    ModEntry { key: 0x237, residue: imma(false, true, false, false), suffix: ".16816.S8.U8" },
    ModEntry { key: 0x237, residue: imma(false, true, false, true), suffix: ".16816.S8.U8.SAT" },
    ModEntry { key: 0x237, residue: imma(false, false, true, false), suffix: ".16816.U8.S8" },
    ModEntry { key: 0x237, residue: imma(false, false, true, true), suffix: ".16816.U8.S8.SAT" },
    ModEntry { key: 0x237, residue: imma(false, false, false, false), suffix: ".16816.U8.U8" },
    ModEntry { key: 0x237, residue: imma(false, false, false, true), suffix: ".16816.U8.U8.SAT" },
    ModEntry { key: 0x237, residue: imma(true, true, true, false), suffix: ".16832.S8.S8" },
    ModEntry { key: 0x237, residue: imma(true, true, true, true), suffix: ".16832.S8.S8.SAT" },
    ModEntry { key: 0x237, residue: imma(true, true, false, false), suffix: ".16832.S8.U8" },
    ModEntry { key: 0x237, residue: imma(true, true, false, true), suffix: ".16832.S8.U8.SAT" },
    ModEntry { key: 0x237, residue: imma(true, false, true, false), suffix: ".16832.U8.S8" },
    ModEntry { key: 0x237, residue: imma(true, false, true, true), suffix: ".16832.U8.S8.SAT" },
    ModEntry { key: 0x237, residue: imma(true, false, false, false), suffix: ".16832.U8.U8" },
    ModEntry { key: 0x237, residue: imma(true, false, false, true), suffix: ".16832.U8.U8.SAT" },
    ModEntry { key: 0x23c, residue: 0x810 << 72, suffix: ".1688.F32.TF32" },
    ModEntry { key: 0x844, residue: 0, suffix: ".16.M88" },
    ModEntry { key: 0x844, residue: 1 << 72, suffix: ".16.M88.2" },
    ModEntry { key: 0x844, residue: 1 << 73, suffix: ".16.M88.4" },
    ModEntry { key: 0x844, residue: 1 << 78, suffix: ".16.MT88" },
    ModEntry { key: 0x844, residue: 1 << 78 | 1 << 72, suffix: ".16.MT88.2" },
    ModEntry { key: 0x844, residue: 1 << 78 | 1 << 73, suffix: ".16.MT88.4" },
];

#[cfg(test)]
mod tests {
    /// ptxas 13.0.88 `-O3 -arch sm_90` words (one small `mma.sync` kernel each) with
    /// `nvdisasm`'s text at address 0: decoding, printing and re-encoding agree.
    #[test]
    fn tensor_forms_match_nvdisasm() {
        let t = super::super::tables();
        let w = |hi: u64, lo: u64| u128::from(hi) << 64 | u128::from(lo);
        for (word, text) in [
            (w(0x010fde0000081010, 0x000000080404723c), "HMMA.1688.F32.TF32 R4, R4, R8, R16"),
            (w(0x010fde000008500c, 0x000000080404723c), "HMMA.1684.F32.TF32 R4, R4, R8, R12"),
            (w(0x010fde000040540c, 0x0000000804047237), "IMMA.16816.S8.S8 R4, R4.ROW, R8.COL, R12"),
            (w(0x010fde000044540c, 0x0000000804047237), "IMMA.16816.S8.S8.SAT R4, R4.ROW, R8.COL, R12"),
            (w(0x010fde000040140c, 0x0000000804047237), "IMMA.16816.S8.U8 R4, R4.ROW, R8.COL, R12"),
            (w(0x010fde000044140c, 0x0000000804047237), "IMMA.16816.S8.U8.SAT R4, R4.ROW, R8.COL, R12"),
            (w(0x010fde000040440c, 0x0000000804047237), "IMMA.16816.U8.S8 R4, R4.ROW, R8.COL, R12"),
            (w(0x010fde000044440c, 0x0000000804047237), "IMMA.16816.U8.S8.SAT R4, R4.ROW, R8.COL, R12"),
            (w(0x010fde000040040c, 0x0000000804047237), "IMMA.16816.U8.U8 R4, R4.ROW, R8.COL, R12"),
            (w(0x010fde000044040c, 0x0000000804047237), "IMMA.16816.U8.U8.SAT R4, R4.ROW, R8.COL, R12"),
            (w(0x010fde0000405c10, 0x0000000804047237), "IMMA.16832.S8.S8 R4, R4.ROW, R8.COL, R16"),
            (w(0x010fde0000445c10, 0x0000000804047237), "IMMA.16832.S8.S8.SAT R4, R4.ROW, R8.COL, R16"),
            (w(0x010fde0000401c10, 0x0000000804047237), "IMMA.16832.S8.U8 R4, R4.ROW, R8.COL, R16"),
            (w(0x010fde0000441c10, 0x0000000804047237), "IMMA.16832.S8.U8.SAT R4, R4.ROW, R8.COL, R16"),
            (w(0x010fde0000404c10, 0x0000000804047237), "IMMA.16832.U8.S8 R4, R4.ROW, R8.COL, R16"),
            (w(0x010fde0000444c10, 0x0000000804047237), "IMMA.16832.U8.S8.SAT R4, R4.ROW, R8.COL, R16"),
            (w(0x010fde0000400c10, 0x0000000804047237), "IMMA.16832.U8.U8 R4, R4.ROW, R8.COL, R16"),
            (w(0x010fde0000440c10, 0x0000000804047237), "IMMA.16832.U8.U8.SAT R4, R4.ROW, R8.COL, R16"),
            (w(0x004fe20000000000, 0x0000000005007844), "STSM.16.M88 [R5], R0"),
            (w(0x004fe20000004000, 0x0000000005007844), "STSM.16.MT88 [R5], R0"),
            (w(0x004fe20000000100, 0x0000000400007844), "STSM.16.M88.2 [R0], R4"),
            (w(0x004fe20000004100, 0x0000000400007844), "STSM.16.MT88.2 [R0], R4"),
            (w(0x004fe20000000200, 0x0000000400007844), "STSM.16.M88.4 [R0], R4"),
            (w(0x004fe20000004200, 0x0000000400007844), "STSM.16.MT88.4 [R0], R4"),
            (w(0x004fe20000000200, 0x0002000400007844), "STSM.16.M88.4 [R0+0x200], R4"),
        ] {
            let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(t.print(&inst, 0, None).trim_end_matches(" ;"), text);
            assert_eq!(t.encode(&inst).expect("encodes"), word, "{text}");
        }
    }
}
