//! The immediate codes of the texture and surface opcodes ([`super::Opcode::Tex`],
//! [`super::Opcode::Tld4`], [`super::Opcode::Txq`], [`super::Opcode::Suq`],
//! [`super::Opcode::Suld`], [`super::Opcode::Sust`]): a code is the index of PTX's modifier
//! word in its list. The meaning of the operations is the interpreter's `interp::texture`,
//! whose enums decode these codes (a unit test there checks that the orders agree).

/// Geometries, by code: `.1d .2d .3d .a1d .a2d`.
pub const GEOMS: [&str; 5] = ["1d", "2d", "3d", "a1d", "a2d"];
/// Surface out-of-range modes, by code: `.trap .clamp .zero`.
pub const CLAMPS: [&str; 3] = ["trap", "clamp", "zero"];
/// `txq`/`suq` queries, by code.
pub const QUERIES: [&str; 6] = ["width", "height", "depth", "array_size", "normalized_coords", "filter_mode"];
/// `tld4` components, by code.
pub const COMPONENTS: [&str; 4] = ["r", "g", "b", "a"];

/// The code of `word` in `list`.
pub fn code(list: &[&str], word: &str) -> Option<u32> {
    list.iter().position(|w| *w == word).map(|i| i as u32)
}

/// Coordinate operands PTX gives a geometry (`.3d` and `.a2d` take a 4-vector whose last
/// element is ignored).
pub fn ptx_coords(geom: u32) -> usize {
    match geom {
        0 => 1,
        1 | 3 => 2,
        _ => 4,
    }
}
