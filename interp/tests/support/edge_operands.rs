//! Operand words for the float edge-case tests (`minmax_nan.rs`, `half_compare.rs`): the edge
//! halves (f16 and bf16 zeros, infinities, NaNs of both signs, subnormals, extremes) and a
//! SplitMix64 stream, so a fixed seed gives the same words on every host.

/// f16 and bf16 edge values (the low 16 bits of a word).
pub const HALF: &[u32] = &[
    0, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0xffff, 0x0001, 0x8001, 0x03ff, 0x3f80,
    0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x007f, 0x0080,
];

/// A SplitMix64 generator started at `seed`.
pub fn splitmix(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The entry of `t` that `k` picks.
pub fn pick(t: &[u32], k: u64) -> u32 {
    t[(k % t.len() as u64) as usize]
}
