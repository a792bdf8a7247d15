//! sm_90 surface loads and stores through bindless handles (`suld.b`, `sust.b`), as ptxas
//! 13.0.88 emits them: `SULD.D.BA.2D.STRONG.SM.TRAP R0, [R8], UR4, 0x0` and
//! `SUST.D.BA.2D.STRONG.SM.TRAP [R10], R0, UR4, 0x0`. Layout from ptxas's words and bit flips
//! printed by `nvdisasm -b SM90`:
//!
//! - `SULD` 0xf99: `Rd` at 16; `[Ra]` at 24 (the coordinates: x in bytes, then y, z, and the
//!   layer last, in consecutive registers); the handle's uniform register at 40 (6 bits); an
//!   8-bit immediate at 46 (ptxas writes 0); `SUST` 0xf9d: `[Ra]` at 24, the data `Rb` at 32,
//!   the same handle and immediate.
//! - The out-of-range mode in [59:61): 0 `.IGN` (PTX `.zero`), 1 none (`.clamp`), 2 `.TRAP`;
//!   the geometry in [61:64): 0 `1D`, 2 `1D_ARRAY`, 3 `2D`, 4 `2D_ARRAY`, 5 `3D`.
//! - The data size in [73:76): 0 `.U8`, 1 `.S8`, 2 `.U16`, 3 `.S16`, 4 none (32 bits), 5 `.64`,
//!   6 `.128`; bit 72 `.BA`; bits 77 and 79 `.STRONG.SM` with `.D`; `SULD`'s unused predicate
//!   destination at 81 (7, `PT`, hidden); bit 84 the default cache policy; bit 91 set.
//!
//! `TEX`, `TLD`, `TLD4` and `TXQ` (keys 0xf60, 0xf66, 0xf63, 0xf6f) are not modelled yet: their
//! geometry (`2D`, `ARRAY_2D`) and channel mask (`0x7`, shown unless 0xf) print as operands,
//! which needs a named-operand slot kind the form model lacks. What ptxas's words and nvdisasm
//! bit flips of `TEX.LL R6, R4, R4, R6, UR4, 0x0, 2D` (0x004f6400099e0f06_2000040604047f60)
//! show, for whoever adds them:
//!
//! - `Rd0` at 16 (components 0, 1), `Ra` at 24 (coordinates), `Rb` at 32 (the LOD for `.LL`:
//!   ptxas passes -32.0, 0xc2000000), the handle's uniform register at 40 (6 bits), an 8-bit
//!   immediate at 46 (0), `Rd1` at 64 (components 2, 3); enabled components (mask) are written
//!   in order to Rd0, Rd0+1, Rd1, Rd1+1 (`TEX.LL RZ, R7, ..., 0x2` writes component 1 to R7).
//! - Geometry in [61:64): 0 `1D`, 1 `2D`, 2 `3D`, 3 `CUBE`, 4 `ARRAY_1D`, 5 `ARRAY_2D`; bit 60
//!   `.SCR`; the mask in [72:76); bit 76 `.AOFFI`, 77 `.NDV`, 78 `.DC`, [79:81) `.F16.RN`/
//!   `.F16.RZ`; a predicate destination at 81 (7: none); [84:87) the cache policy; the LOD mode
//!   in [87:90) (1 `.LZ`, 2 `.LB`, 3 `.LL`); bit 90 `.NODEP`; bit 91 set.
//! - ptxas's forms: `tex.2d/.3d ... f32` is `TEX.LL` with `Ra` = x, y(, z); `tex.1d ... f32` is
//!   a `2D` fetch with y = 0; `tex.a1d`/`tex.a2d` put the layer first in `Ra` (clamped to
//!   0xffff with `SEL`), unlike surfaces; `tex.1d ... s32` (`tex1Dfetch`) is
//!   `TLD.LZ Rd1, Rd0, Rx, URh, 0x0, 1D` (no `Rb`); `tld4.r` is `TLD4.R Rd1, Rd0, Ra, URh, 0x0,
//!   2D`; `txq.width/height/depth` is `TXQ RZ, Rd, Rlevel, TEX_HEADER_DIMENSION, URh, 0x0,
//!   0x1/0x2/0x4`.
//!
//! Invariant: every entry is checked against nvdisasm's text: nine of ptxas's words in the unit
//! test below (decode, print, encode), and all 210 (key, geometry, size, mode) entries printed
//! by `nvdisasm -b SM90` with exactly their suffix (a one-off sweep of issue 23).

use super::super::form::{Form, ImmStyle, ModEntry};
use super::{addr, form, imm, r, ur};

/// Appends the forms.
pub(super) fn forms(f: &mut Vec<Form>) {
    f.push(form(0xf99, "SULD", vec![r(16), addr(24, 0, 0), ur(40), imm(46, 8, ImmStyle::Hex)]));
    f.push(form(0xf9d, "SUST", vec![addr(24, 0, 0), r(32), ur(40), imm(46, 8, ImmStyle::Hex)]));
}

/// Geometries by field value ([61:64)).
pub const GEOMS: [(u128, &str); 5] = [(0, "1D"), (2, "1D_ARRAY"), (3, "2D"), (4, "2D_ARRAY"), (5, "3D")];
/// Data sizes by field value ([73:76)).
pub const SIZES: [(u128, &str); 7] =
    [(0, ".U8"), (1, ".S8"), (2, ".U16"), (3, ".S16"), (4, ""), (5, ".64"), (6, ".128")];
/// Out-of-range modes by field value ([59:61)).
pub const CLAMPS: [(u128, &str); 3] = [(0, ".IGN"), (1, ""), (2, ".TRAP")];

/// Their modifier entries (every geometry, size and mode of both).
pub(crate) fn mods() -> Vec<ModEntry> {
    let mut v = Vec::new();
    for (key, fixed) in [(0xf99u16, 0x081e_a100u128), (0xf9d, 0x0810_a100)] {
        for (g, gname) in GEOMS {
            for (s, sname) in SIZES {
                for (c, cname) in CLAMPS {
                    let residue = (g << 61) | (c << 59) | ((fixed | (s << 9)) << 64);
                    let suffix = format!(".D.BA.{gname}{sname}.STRONG.SM{cname}");
                    v.push(ModEntry { key, residue, suffix: super::super::form::intern(suffix) });
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    /// ptxas 13.0.88's words (sm_90, `/tmp` probes of issue 23 over `corpus/texture`'s forms)
    /// with `nvdisasm -b SM90`'s text.
    #[test]
    fn surface_forms_match_nvdisasm() {
        let t = super::super::tables();
        for (word, text) in [
            (
                0x000f_6200_081e_a500_9000_0600_1413_7f99u128,
                "SULD.D.BA.2D_ARRAY.U16.STRONG.SM.TRAP R19, [R20], UR6, 0x0",
            ),
            (0x0001_e200_081e_ad00_a000_0600_0c14_7f99, "SULD.D.BA.3D.128.STRONG.SM.IGN R20, [R12], UR6, 0x0"),
            (0x000f_e200_081e_a100_7000_0600_0c05_7f99, "SULD.D.BA.2D.U8.STRONG.SM.TRAP R5, [R12], UR6, 0x0"),
            (0x000f_e200_081e_a900_1000_0600_0c06_7f99, "SULD.D.BA.1D.STRONG.SM.TRAP R6, [R12], UR6, 0x0"),
            (0x000f_e200_081e_ab00_6800_0600_0c20_7f99, "SULD.D.BA.2D.64.STRONG.SM R32, [R12], UR6, 0x0"),
            (0x0001_e400_0810_a900_7000_060e_0c00_7f9d, "SUST.D.BA.2D.STRONG.SM.TRAP [R12], R14, UR6, 0x0"),
            (0x0003_e200_0810_ad00_0800_0618_0c00_7f9d, "SUST.D.BA.1D.128.STRONG.SM [R12], R24, UR6, 0x0"),
            (0x0005_e200_0810_a100_4000_0613_2200_7f9d, "SUST.D.BA.1D_ARRAY.U8.STRONG.SM.IGN [R34], R19, UR6, 0x0"),
            (0x000f_6200_081e_a500_9000_4600_0804_7f99, "SULD.D.BA.2D_ARRAY.U16.STRONG.SM.TRAP R4, [R8], UR6, 0x1"),
        ] {
            let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(t.print(&inst, 0, None).trim_end_matches(" ;"), text);
            assert_eq!(t.encode(&inst).unwrap(), word, "{text}");
        }
    }
}
