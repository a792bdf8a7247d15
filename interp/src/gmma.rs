//! Hopper warpgroup matrix multiply-accumulate (PTX `wgmma.mma_async`, SASS `HGMMA`): the
//! shared-memory matrix descriptor, the operand layout it describes, and the accumulator
//! fragment, shared by the SASS emulator and the Ori interpreter so that both compute the
//! operation with one piece of code.
//!
//! Semantics (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"):
//!
//! - A warpgroup is four consecutive warps of a CTA (warp `w` is rank `w % 4` of group `w / 4`).
//!   `wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16} d, a-desc, b-desc, scale-d,
//!   imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b` computes `D = A B + (scale-d ? D : 0)`
//!   for a 64 x N x 16 tile, A (64 x 16) and B (16 x N) read from shared memory through 64-bit
//!   matrix descriptors ([`Desc`]).
//! - The accumulator D (64 x N f32) is spread over the warpgroup: the warp of rank `r` holds rows
//!   `16 r .. 16 r + 16`, each lane `N / 2` registers; register `i` of lane `l` is row
//!   `l / 4 + 8 (i / 2 % 2)`, column `2 (l % 4) + i % 2 + 8 (i / 4)` of the warp's 16 rows
//!   ([`d_coord`]), PTX's m64nNk16 f32 fragment (the m16n8 `mma` layout repeated every 8
//!   columns).
//! - Since A and B come from shared memory, each warp's 16 rows of D depend only on its own 16
//!   rows of A and all of B: a warp's part is computed on its own ([`Wgmma::warp_f32`]), which is what
//!   lets two executors that run one warp at a time execute it.
//!
//! Arithmetic: every element of D is the exact sum of the K products and the accumulator,
//! rounded once to f32 (f16 and bf16 products are exact in f64, and 16 of them plus an f32 sum
//! exactly enough that the one rounding is the only error), as [`ptxas_rs::ori::tensor::mma_f32`]
//! does for `mma.sync`; NVIDIA's tensor core accumulates in its own order, which the launch
//! spec's tolerance covers.
//!
//! Layouts modelled: K-major operands without swizzling (imm-trans 0, descriptor swizzle mode
//! 0), the canonical layout of "core matrices" of 8 rows x 16 bytes: element (row `m`, column
//! `k`) of a 16-bit operand is at `start + (m / 8) SBO + (m % 8) 16 + (k / 8) LBO + (k % 8) 2`
//! (LBO: the leading-dimension byte offset between core matrices adjacent in K; SBO: the
//! stride-dimension byte offset between core matrices adjacent in M or N). Swizzled layouts,
//! MN-major (transposed) operands, a nonzero base offset and negated operands are refused with
//! an error naming them, never guessed: no corpus kernel uses them, so no GPU output checks them.

use ptxas_rs::ori::float::{self, BF16, F16, F64};
use ptxas_rs::ori::mods::Rnd;

/// Rows of the accumulator each warp of a warpgroup holds.
pub const WARP_ROWS: usize = 16;
/// K of every 16-bit `wgmma` (m64nNk16).
pub const K: usize = 16;

/// The 16-bit input types of a `wgmma` with f32 accumulators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InType {
    /// binary16.
    F16,
    /// bfloat16.
    Bf16,
}

impl InType {
    /// The value of a 16-bit element.
    pub fn value(self, bits: u16) -> f64 {
        let fmt = if self == InType::F16 { F16 } else { BF16 };
        f64::from_bits(float::convert(fmt, F64, u64::from(bits), Rnd::Rn))
    }
}

/// A shared-memory matrix descriptor (PTX ISA "Matrix Descriptor Format"): bits 0–13 the start
/// address, 16–29 the leading-dimension byte offset, 32–45 the stride-dimension byte offset
/// (each in units of 16 bytes), 49–51 the matrix base offset, 62–63 the swizzle mode (0 none,
/// 1 128-byte, 2 64-byte, 3 32-byte).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Desc {
    /// Start address in the CTA's shared memory, bytes.
    pub start: u32,
    /// Leading-dimension byte offset.
    pub lbo: u32,
    /// Stride-dimension byte offset.
    pub sbo: u32,
    /// Matrix base offset (bits 49–51).
    pub base_offset: u8,
    /// Swizzle mode (bits 62–63).
    pub swizzle: u8,
}

impl Desc {
    /// Decodes a 64-bit descriptor.
    pub fn decode(d: u64) -> Desc {
        let field = |at: u32| ((d >> at) & 0x3fff) as u32 * 16;
        Desc {
            start: field(0),
            lbo: field(16),
            sbo: field(32),
            base_offset: (d >> 49 & 7) as u8,
            swizzle: (d >> 62 & 3) as u8,
        }
    }

    /// The layouts [`Desc::k_major_offset`] models: no swizzle and base offset 0.
    pub fn check(&self) -> Result<(), String> {
        if self.swizzle != 0 {
            let mode = ["none", "128-byte", "64-byte", "32-byte"][self.swizzle as usize];
            return Err(format!("wgmma descriptor with the {mode} swizzle mode (not modelled)"));
        }
        if self.base_offset != 0 {
            return Err(format!("wgmma descriptor with base offset {} (not modelled)", self.base_offset));
        }
        Ok(())
    }

    /// The shared-memory byte offset of element (`row`, `k`) of a K-major, unswizzled operand
    /// of 16-bit elements (A: `row` is m; B: `row` is n).
    pub fn k_major_offset(&self, row: usize, k: usize) -> u32 {
        let (row, k) = (row as u32, k as u32);
        self.start + (row / 8) * self.sbo + (row % 8) * 16 + (k / 8) * self.lbo + (k % 8) * 2
    }
}

/// Row (within the warp's 16) and column of accumulator register `i` of `lane`.
pub fn d_coord(lane: usize, i: usize) -> (usize, usize) {
    (lane / 4 + 8 * (i / 2 % 2), 2 * (lane % 4) + i % 2 + 8 * (i / 4))
}

/// Accumulator registers per lane of an m64nNk16 f32 `wgmma`.
pub fn d_regs(n: usize) -> usize {
    n / 2
}

/// Whether N is a valid `wgmma` N for 16-bit inputs (8 to 256, a multiple of 8).
pub fn valid_n(n: usize) -> bool {
    (8..=256).contains(&n) && n.is_multiple_of(8)
}

/// One `wgmma.mma_async.m64nNk16.f32.{ty}.{ty}` with both operands in shared memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wgmma {
    /// N of the tile ([`valid_n`]).
    pub n: usize,
    /// Element type of A and B.
    pub ty: InType,
    /// A's descriptor ([`Desc`]; K-major).
    pub desc_a: u64,
    /// B's descriptor (K-major).
    pub desc_b: u64,
    /// Whether the accumulator's old value is added (PTX scale-d).
    pub scale_d: bool,
}

impl Wgmma {
    /// What the warp of rank `rank` (0–3) in its warpgroup computes: `c[i][lane]` are its
    /// accumulator registers (f32 bits, [`d_regs`] of them), `load(offset)` a 16-bit read at a
    /// byte offset in the CTA's shared memory. Returns the warp's new accumulator registers in
    /// the same form. Errors: an unmodelled form or layout (`Err(Err(why))`) or a failed load
    /// (`Err(Ok(e))`).
    pub fn warp_f32<E>(
        &self,
        rank: usize,
        c: &[[u32; 32]],
        load: impl FnMut(u32) -> Result<u16, E>,
    ) -> Result<Vec<[u32; 32]>, Result<E, String>> {
        warp_f32(self, rank, c, load)
    }
}

fn warp_f32<E>(
    op: &Wgmma,
    rank: usize,
    c: &[[u32; 32]],
    mut load: impl FnMut(u32) -> Result<u16, E>,
) -> Result<Vec<[u32; 32]>, Result<E, String>> {
    let Wgmma { n, ty, desc_a, desc_b, scale_d } = *op;
    if !valid_n(n) || c.len() != d_regs(n) || rank > 3 {
        return Err(Err(format!("wgmma m64n{n}k16 with {} accumulator registers (rank {rank})", c.len())));
    }
    let (da, db) = (Desc::decode(desc_a), Desc::decode(desc_b));
    da.check().map_err(Err)?;
    db.check().map_err(Err)?;
    let mut a = [[0f64; K]; WARP_ROWS];
    for (r, row) in a.iter_mut().enumerate() {
        for (k, x) in row.iter_mut().enumerate() {
            *x = ty.value(load(da.k_major_offset(WARP_ROWS * rank + r, k)).map_err(Ok)?);
        }
    }
    let mut b = vec![[0f64; K]; n];
    for (col, bc) in b.iter_mut().enumerate() {
        for (k, x) in bc.iter_mut().enumerate() {
            *x = ty.value(load(db.k_major_offset(col, k)).map_err(Ok)?);
        }
    }
    let mut d = vec![[0u32; 32]; d_regs(n)];
    for (i, di) in d.iter_mut().enumerate() {
        for (lane, x) in di.iter_mut().enumerate() {
            let (row, col) = d_coord(lane, i);
            let acc = if scale_d { f64::from(f32::from_bits(c[i][lane])) } else { 0.0 };
            let s = (0..K).fold(acc, |s, k| s + a[row][k] * b[col][k]);
            *x = (s as f32).to_bits();
        }
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_fields() {
        // The tc_wgmma kernel's A descriptor: start 0x400, LBO 1024, SBO 128.
        let d = Desc::decode(0x0000_0008_0040_0040);
        assert_eq!(d, Desc { start: 0x400, lbo: 1024, sbo: 128, base_offset: 0, swizzle: 0 });
        let s = Desc::decode(1 << 62 | 3 << 49);
        assert_eq!((s.swizzle, s.base_offset), (1, 3));
        assert!(s.check().is_err());
    }

    #[test]
    fn fragment_covers_each_element_once() {
        for n in [8usize, 16, 64, 256] {
            let mut seen = vec![0u8; WARP_ROWS * n];
            for lane in 0..32 {
                for i in 0..d_regs(n) {
                    let (r, c) = d_coord(lane, i);
                    seen[r * n + c] += 1;
                }
            }
            assert!(seen.iter().all(|&x| x == 1), "n = {n}");
        }
    }
}
