//! Hopper warpgroup matrix multiply-accumulate (PTX `wgmma.mma_async`, SASS `HGMMA`/`IGMMA`/
//! `QGMMA`): the shared-memory matrix descriptor, the operand layouts it describes, the A
//! register fragment and the accumulator fragment, shared by the SASS emulator and the Ori
//! interpreter so that both compute the operation with one piece of code.
//!
//! Semantics (PTX ISA 9.0, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"):
//!
//! - A warpgroup is four consecutive warps of a CTA (warp `w` is rank `w % 4` of group `w / 4`).
//!   One operation ([`GmmaForm`]) computes `D = (±A) (±B) + (scale-d ? D : 0)` for a 64 x N x K
//!   tile (K = 32 bytes of elements: 16 for f16/bf16, 8 for tf32, 32 for 8-bit types), B
//!   (K x N) read from shared memory through a 64-bit matrix descriptor ([`Desc`]), A (64 x K)
//!   likewise or from registers ([`a_coord`]).
//! - The accumulator (64 x N) is spread over the warpgroup: the warp of rank `r` holds rows
//!   `16 r .. 16 r + 16`; element `i` of a lane is row `l / 4 + 8 (i / 2 % 2)`, column
//!   `2 (l % 4) + i % 2 + 8 (i / 4)` of the warp's 16 rows ([`d_coord`]); f32 and s32
//!   accumulators hold one element per register, f16 ones two (element `2j` in the low half of
//!   register `j`).
//! - Each warp's 16 rows of D depend only on its own 16 rows of A and all of B, so a warp's
//!   part is computed on its own ([`Wgmma::warp`]), which is what lets two executors that run
//!   one warp at a time execute it.
//!
//! Layouts ([`Desc::offset`]; PTX ISA "Shared Memory Matrix Layout", the canonical layouts in
//! units of T = 16 bytes / element size, as CUTLASS's `make_gmma_desc` states them):
//!
//! | major | swizzle | layout (MN index, K index) |
//! |---|---|---|
//! | K | none | `((8,m),(T,2k)):((1T,SBO),(1,LBO))` |
//! | K | 32/64/128 B (W bytes) | `((8,m),(T,2k)):((W/16 T,SBO),(1,T))` |
//! | MN | none | `((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))` |
//! | MN | W bytes | `((T,W/16,m),(8,k)):((1,T,LBO),(W/16 T,SBO))` |
//!
//! and a swizzled layout's byte address then has its 16-byte chunk bits `[4, 4 + b)` XORed
//! with bits `[7, 7 + b)` (b = 1, 2, 3 for 32, 64, 128 bytes: CUTLASS's `Swizzle<b,4,3>`),
//! computed on the shared-memory address itself. A nonzero matrix base offset (bits 49–51, for
//! a start address not aligned to the swizzle pattern) is refused, never guessed.
//!
//! Arithmetic: every element of D is the exact sum of the K products and the accumulator,
//! rounded once to the accumulator type (f32 or f16, to nearest even); integers are exact,
//! wrapping in s32, or clamped to the s32 range under `.satfinite`. NVIDIA's tensor core
//! accumulates floats in its own order, which the launch spec's tolerance covers.
//!
//! Independence: the executors share this module, so interpreter == emulator checks the
//! compilers and the SASS decoding, not these layouts; the layouts are checked by
//! `interp/tests/gmma.rs` against a matrix product written from the PTX ISA's tables, and on
//! the GPU only for what the corpus's golden kernels use (K-major, no swizzle).

use ptxas_rs::ori::float::{self, F16, F64};
use ptxas_rs::ori::gmma::{GmmaAcc, GmmaForm, GmmaType};
use ptxas_rs::ori::mods::Rnd;

/// Rows of the accumulator each warp of a warpgroup holds.
pub const WARP_ROWS: usize = 16;

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

    /// The layouts [`Desc::offset`] models: base offset 0.
    pub fn check(&self) -> Result<(), String> {
        if self.base_offset != 0 {
            return Err(format!("wgmma descriptor with base offset {} (not modelled)", self.base_offset));
        }
        Ok(())
    }

    /// The swizzle width in bytes (16 for none).
    pub fn width(&self) -> u32 {
        [16, 128, 64, 32][usize::from(self.swizzle)]
    }

    /// The shared-memory byte address of element (`mn`, `k`) of an operand of `bytes`-byte
    /// elements (A: `mn` is m; B: `mn` is n), K-major or (`mn_major`) MN-major; see the module
    /// doc's table.
    pub fn offset(&self, mn: usize, k: usize, bytes: usize, mn_major: bool) -> u32 {
        let (mn, k, es) = (mn as u32, k as u32, bytes as u32);
        let w = self.width();
        let raw = match (mn_major, self.swizzle) {
            (false, 0) => {
                let kb = k * es;
                (mn / 8) * self.sbo + (mn % 8) * 16 + (kb / 16) * self.lbo + kb % 16
            }
            (false, _) => (mn / 8) * self.sbo + (mn % 8) * w + k * es,
            (true, 0) => {
                let t = 16 / es;
                (mn % t) * es + (mn / t) * self.sbo + (k % 8) * 16 + (k / 8) * self.lbo
            }
            (true, _) => {
                let mb = mn * es;
                mb % w + (mb / w) * self.lbo + (k % 8) * w + (k / 8) * self.sbo
            }
        };
        let addr = self.start.wrapping_add(raw);
        let b = match self.swizzle {
            1 => 3,
            2 => 2,
            3 => 1,
            _ => 0,
        };
        addr ^ (((addr >> 7) & ((1 << b) - 1)) << 4)
    }
}

/// Row (within the warp's 16) and column of accumulator element `i` of `lane`.
pub fn d_coord(lane: usize, i: usize) -> (usize, usize) {
    (lane / 4 + 8 * (i / 2 % 2), 2 * (lane % 4) + i % 2 + 8 * (i / 4))
}

/// Row (within the warp's 16) and column of element `e` of register `j` (0–3) of `lane`'s A
/// fragment: as `mma`'s m16n8k{16,8,32} A fragments (16-bit types two per register, tf32
/// one, 8-bit types four, low bits first).
pub fn a_coord(ty: GmmaType, lane: usize, j: usize, e: usize) -> (usize, usize) {
    let (gid, t) = (lane / 4, lane % 4);
    let row = gid + 8 * (j % 2);
    let col = match ty.bytes() {
        2 => 2 * t + e + 8 * (j / 2),
        4 => t + 4 * (j / 2),
        _ => 4 * t + e + 16 * (j / 2),
    };
    (row, col)
}

/// One warpgroup MMA: the form and the warp-uniform operands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wgmma {
    /// What it computes.
    pub form: GmmaForm,
    /// A's descriptor (unused when A comes from registers).
    pub desc_a: u64,
    /// B's descriptor.
    pub desc_b: u64,
    /// Whether the accumulator's old value is added (PTX scale-d).
    pub scale_d: bool,
}

/// Where an operand load failed (`Ok`: the caller's error) or what is not modelled (`Err`).
pub type GmmaError<E> = Result<E, String>;

impl Wgmma {
    /// What the warp of rank `rank` (0–3) in its warpgroup computes: `a` its A fragment (four
    /// registers, when the form takes A from registers), `c` its accumulator registers
    /// ([`GmmaForm::d_regs`] of them), `load(offset, bytes)` a little-endian read of 1, 2 or 4
    /// bytes at a byte offset in the CTA's shared memory. Returns the warp's new accumulator
    /// registers in the same form.
    pub fn warp<E>(
        &self,
        rank: usize,
        a: Option<&[[u32; 32]; 4]>,
        c: &[[u32; 32]],
        mut load: impl FnMut(u32, u32) -> Result<u32, E>,
    ) -> Result<Vec<[u32; 32]>, GmmaError<E>> {
        let f = self.form;
        f.check().map_err(Err)?;
        if c.len() != f.d_regs() || rank > 3 || a.is_some() != f.a_regs {
            return Err(Err(format!("wgmma .{} with {} accumulator registers (rank {rank})", f.ptx_name(), c.len())));
        }
        let (n, k) = (usize::from(f.n), f.k());
        let db = Desc::decode(self.desc_b);
        db.check().map_err(Err)?;
        let mut ma = vec![vec![0f64; k]; WARP_ROWS];
        match a {
            Some(regs) => {
                let per = 4 / f.a.bytes();
                let bits = 8 * f.a.bytes() as u32;
                for (j, reg) in regs.iter().enumerate() {
                    for (lane, &v) in reg.iter().enumerate() {
                        for e in 0..per {
                            let (r, col) = a_coord(f.a, lane, j, e);
                            let x = if bits == 32 { v } else { v >> (bits * e as u32) & ((1 << bits) - 1) };
                            ma[r][col] = f.a.value(x);
                        }
                    }
                }
            }
            None => {
                let da = Desc::decode(self.desc_a);
                da.check().map_err(Err)?;
                for (r, row) in ma.iter_mut().enumerate() {
                    for (kk, x) in row.iter_mut().enumerate() {
                        let off = da.offset(WARP_ROWS * rank + r, kk, f.a.bytes(), f.trans_a);
                        *x = f.a.value(load(off, f.a.bytes() as u32).map_err(Ok)?);
                    }
                }
            }
        }
        let mut mb = vec![vec![0f64; k]; n];
        for (col, bc) in mb.iter_mut().enumerate() {
            for (kk, x) in bc.iter_mut().enumerate() {
                let off = db.offset(col, kk, f.b.bytes(), f.trans_b);
                *x = f.b.value(load(off, f.b.bytes() as u32).map_err(Ok)?);
            }
        }
        let sign = if f.neg_a != f.neg_b { -1.0 } else { 1.0 };
        let dot = |row: usize, col: usize| sign * (0..k).fold(0.0, |s, kk| s + ma[row][kk] * mb[col][kk]);
        let mut d = vec![[0u32; 32]; c.len()];
        for lane in 0..32 {
            match f.acc {
                GmmaAcc::F32 => {
                    for (i, di) in d.iter_mut().enumerate() {
                        let (row, col) = d_coord(lane, i);
                        let acc = if self.scale_d { f64::from(f32::from_bits(c[i][lane])) } else { 0.0 };
                        di[lane] = ((acc + dot(row, col)) as f32).to_bits();
                    }
                }
                GmmaAcc::F16 => {
                    for (j, dj) in d.iter_mut().enumerate() {
                        let mut word = 0u32;
                        for h in 0..2 {
                            let (row, col) = d_coord(lane, 2 * j + h);
                            let old = c[j][lane] >> (16 * h) & 0xffff;
                            let acc = if self.scale_d { f16_value(old) } else { 0.0 };
                            let v = float::convert(F64, F16, (acc + dot(row, col)).to_bits(), Rnd::Rn) as u32;
                            word |= (v & 0xffff) << (16 * h);
                        }
                        dj[lane] = word;
                    }
                }
                GmmaAcc::S32 => {
                    for (i, di) in d.iter_mut().enumerate() {
                        let (row, col) = d_coord(lane, i);
                        let acc = if self.scale_d { i64::from(c[i][lane] as i32) } else { 0 };
                        // Exact: |products| < 2^16, 32 of them.
                        let s = acc + dot(row, col) as i64;
                        di[lane] = if f.satfinite {
                            s.clamp(i32::MIN.into(), i32::MAX.into()) as i32 as u32
                        } else {
                            s as u32
                        };
                    }
                }
            }
        }
        Ok(d)
    }
}

fn f16_value(bits: u32) -> f64 {
    f64::from_bits(float::convert(F16, F64, u64::from(bits & 0xffff), Rnd::Rn))
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
                for i in 0..n / 2 {
                    let (r, c) = d_coord(lane, i);
                    seen[r * n + c] += 1;
                }
            }
            assert!(seen.iter().all(|&x| x == 1), "n = {n}");
        }
        for ty in [GmmaType::F16, GmmaType::Tf32, GmmaType::E4m3] {
            let k = 32 / ty.bytes();
            let mut seen = vec![0u8; WARP_ROWS * k];
            for lane in 0..32 {
                for j in 0..4 {
                    for e in 0..4 / ty.bytes() {
                        let (r, c) = a_coord(ty, lane, j, e);
                        seen[r * k + c] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&x| x == 1), "{ty:?}");
        }
    }

    /// The 128-byte swizzle is CUTLASS's `Swizzle<3,4,3>` on the address: row `r` of an atom
    /// has its 16-byte chunk `c` at chunk `c ^ r`.
    #[test]
    fn swizzle_permutes_chunks() {
        let d = Desc { start: 0x2000, lbo: 16, sbo: 1024, base_offset: 0, swizzle: 1 };
        for row in 0..8u32 {
            let chunks: std::collections::HashSet<u32> =
                (0..8).map(|c| (d.offset(row as usize, 8 * c, 2, false) - 0x2000 - 128 * row) / 16).collect();
            assert_eq!(chunks.len(), 8);
        }
        assert_eq!(d.offset(1, 0, 2, false), 0x2000 + 128 + 16);
        assert_eq!(d.offset(7, 8, 2, false), 0x2000 + 7 * 128 + (1 ^ 7) * 16);
    }
}
