//! Warp-collective semantics of the tensor-core family: `mma.sync` (SASS `HMMA`) and
//! `ldmatrix` (SASS `LDSM`), shared by the Ori interpreter and the SASS emulator so that the
//! two executors compute these operations with one piece of code.
//!
//! Per-lane operations live in [`super::semantics`]; these act on all 32 lanes of a warp at
//! once (a lane's fragment holds pieces of a matrix that other lanes' results depend on), so
//! they take every lane's registers and give every lane's results.
//!
//! Fragments are PTX's (`groupID = lane / 4`, `t = lane % 4`), see [`mma_f32`]. Invariant: the
//! arithmetic is the exact sum of the products and `c`, rounded once to f32 per operation;
//! NVIDIA's cubins of the corpus's tensor-core kernels, run this way, give the H100/H200
//! goldens (interp/tests/gpu_golden.rs). A `wmma` or a `mma` that ptxas splits into several
//! `HMMA`s (m16n16k8 tf32: two `HMMA.1684` along k) rounds once per `HMMA`, so lowering splits
//! it the same way.

use super::float::{self, BF16, F16, F64};
use super::mods::{Rnd, Ty};

/// The element type of an `mma`'s a and b operands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MmaType {
    /// binary16, two per register.
    F16,
    /// bfloat16, two per register.
    Bf16,
    /// TensorFloat-32: an f32 register of which the tensor core uses sign, exponent and the top
    /// 10 fraction bits.
    Tf32,
}

impl MmaType {
    /// The type of an Ori data type (`f16`, `bf16`, `tf32`), if it is one.
    pub fn of(t: Ty) -> Option<MmaType> {
        match t {
            Ty::F16 => Some(MmaType::F16),
            Ty::BF16 => Some(MmaType::Bf16),
            Ty::TF32 => Some(MmaType::Tf32),
            _ => None,
        }
    }

    /// Bits per element in a register (16 or 32).
    pub fn bits(self) -> usize {
        if self == MmaType::Tf32 { 32 } else { 16 }
    }

    /// K of an `m16n8k` operation whose a fragment has `a_regs` registers per lane.
    pub fn k_of(self, a_regs: usize) -> usize {
        a_regs * 32 * 32 / self.bits() / 16
    }

    fn value(self, bits: u32) -> f64 {
        let f64_of = |fmt, b: u32| f64::from_bits(float::convert(fmt, F64, u64::from(b), Rnd::Rn));
        match self {
            MmaType::F16 => f64_of(F16, bits & 0xffff),
            MmaType::Bf16 => f64_of(BF16, bits & 0xffff),
            MmaType::Tf32 => f64::from(f32::from_bits(bits & 0xffff_e000)),
        }
    }
}

/// A warp's `mma.sync.aligned.m16n8k{k}` with f32 accumulators: `a[lane]`, `b[lane]`, `c[lane]`
/// are each lane's fragment registers in PTX's layout (groupID = lane / 4, t = lane % 4):
/// - a (16 x k): 16-bit types, element `i` of a lane in register `i / 2` (low half first) at row
///   `groupID + 8 * (i / 2 % 2)`, column `2t + i % 2 + 8 * (i / 4)`; tf32 (k = 4 or 8), element
///   `i` in register `i` at row `groupID + 8 * (i % 2)`, column `t + 4 * (i / 2)`;
/// - b (k x 8): 16-bit types, element `i` at row `2t + i % 2 + 8 * (i / 2)`, column groupID; tf32,
///   element `i` at row `t + 4 i`, column groupID;
/// - c, d (16 x 8 f32): element `i` at row `groupID + 8 * (i / 2)`, column `2t + i % 2`.
///
/// Each result is the exact sum of the products and c, rounded once to f32 (the tensor core's
/// own accumulation order is not modelled; the corpus's goldens agree with this model).
#[allow(clippy::needless_range_loop)] // lane and element indices are the fragment coordinates
pub fn mma_f32(k: usize, ty: MmaType, a: &[[u32; 4]; 32], b: &[[u32; 2]; 32], c: &[[u32; 4]; 32]) -> [[u32; 4]; 32] {
    let mut ma = vec![[0f64; 16]; 16];
    let mut mb = vec![[0f64; 8]; 16];
    let mut mc = [[0f64; 8]; 16];
    let half = ty != MmaType::Tf32;
    for lane in 0..32 {
        let (gid, t) = (lane / 4, lane % 4);
        let a_elems = 16 * k / 32;
        for i in 0..a_elems {
            let (bits, row, col) = if half {
                let r = a[lane][i / 2] >> (16 * (i % 2)) & 0xffff;
                (r, gid + 8 * (i / 2 % 2), 2 * t + i % 2 + 8 * (i / 4))
            } else {
                (a[lane][i], gid + 8 * (i % 2), t + 4 * (i / 2))
            };
            ma[row][col] = ty.value(bits);
        }
        for i in 0..8 * k / 32 {
            let (bits, row) = if half {
                (b[lane][i / 2] >> (16 * (i % 2)) & 0xffff, 2 * t + i % 2 + 8 * (i / 2))
            } else {
                (b[lane][i], t + 4 * i)
            };
            mb[row][gid] = ty.value(bits);
        }
        for i in 0..4 {
            mc[gid + 8 * (i / 2)][2 * t + i % 2] = f64::from(f32::from_bits(c[lane][i]));
        }
    }
    let mut d = [[0u32; 4]; 32];
    for (lane, dl) in d.iter_mut().enumerate() {
        let (gid, t) = (lane / 4, lane % 4);
        for (i, di) in dl.iter_mut().enumerate() {
            let (row, col) = (gid + 8 * (i / 2), 2 * t + i % 2);
            // Products of 11-bit (8-bit, 11-bit) significands are exact in f64; with k <= 16
            // terms the sum's rounding error is far below f32's.
            let s = (0..k).fold(mc[row][col], |s, x| s + ma[row][x] * mb[x][col]);
            *di = (s as f32).to_bits();
        }
    }
    d
}

/// A warp's integer `mma.sync.aligned.m16n8k{16,32}.row.col[.satfinite].s32.A.B.s32` (A, B = s8
/// or u8, signed per `signed.0` and `signed.1`): d = c + a b, exact, then wrapped to 32 bits, or
/// clamped to the s32 range with `sat` (`.satfinite`, SASS `.SAT`). Fragments (PTX's):
/// a register `j` holds the four bytes (low first) at row `groupID + 8 (j % 2)`, columns
/// `4t + 16 (j / 2)` on; b register `j` the bytes at rows `4t + 16 j` on, column groupID; c and d
/// as in [`mma_f32`]. `a_regs` is 2 (k = 16) or 4 (k = 32).
#[allow(clippy::needless_range_loop)] // lane and element indices are the fragment coordinates
pub fn mma_s32(
    a_regs: usize,
    signed: (bool, bool),
    sat: bool,
    a: &[[u32; 4]; 32],
    b: &[[u32; 2]; 32],
    c: &[[u32; 4]; 32],
) -> [[u32; 4]; 32] {
    let k = 8 * a_regs;
    let byte = |w: u32, i: usize, signed: bool| -> i64 {
        let x = (w >> (8 * i)) & 0xff;
        if signed { i64::from(x as u8 as i8) } else { i64::from(x) }
    };
    let mut ma = [[0i64; 32]; 16];
    let mut mb = [[0i64; 8]; 32];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for j in 0..a_regs {
            for i in 0..4 {
                ma[g + 8 * (j % 2)][4 * t + 16 * (j / 2) + i] = byte(a[lane][j], i, signed.0);
            }
        }
        for j in 0..a_regs / 2 {
            for i in 0..4 {
                mb[4 * t + 16 * j + i][g] = byte(b[lane][j], i, signed.1);
            }
        }
    }
    let mut d = [[0u32; 4]; 32];
    for (lane, dl) in d.iter_mut().enumerate() {
        let (g, t) = (lane / 4, lane % 4);
        for (i, di) in dl.iter_mut().enumerate() {
            let (row, col) = (g + 8 * (i / 2), 2 * t + i % 2);
            let s = (0..k).fold(i64::from(c[lane][i] as i32), |s, x| s + ma[row][x] * mb[x][col]);
            *di = if sat { s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32 } else { s as u32 };
        }
    }
    d
}

/// The signedness of a and b of an integer [`crate::ori::Opcode::Mma`]/`IMMA` from its modifiers:
/// `src_ty` is a's type (s8 or u8), sub-operation `bs8`/`bu8` b's when it differs from a's.
/// `None` for anything else.
pub fn int_mma_signedness(m: &crate::ori::Mods) -> Option<(bool, bool)> {
    use crate::ori::{SubOp, Ty};
    let a = match m.src_ty? {
        Ty::S8 => true,
        Ty::U8 => false,
        _ => return None,
    };
    let b = match m.sub {
        None => a,
        Some(SubOp::BS8) => true,
        Some(SubOp::BU8) => false,
        Some(_) => return None,
    };
    Some((a, b))
}

/// Where `ldmatrix` (`LDSM`) finds the 16-bit element that lands in half `h` (0 low, 1 high)
/// of lane `lane`'s register for matrix `m`: `(row_lane, byte_offset)` — the element is at the
/// row address lane `row_lane` supplied plus `byte_offset`. Row addresses of matrix `m` come
/// from lanes `8m..8m+8`. Without `.trans` a lane gets elements (row lane/4, columns 2t, 2t+1)
/// of the 8x8 matrix; with it, elements (rows 2t, 2t+1, column lane/4).
pub fn ldmatrix_source(m: usize, lane: usize, h: usize, trans: bool) -> (usize, u64) {
    let (r, t) = (lane / 4, lane % 4);
    if trans { (8 * m + 2 * t + h, 2 * r as u64) } else { (8 * m + r, 4 * t as u64 + 2 * h as u64) }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // lane and element indices are the fragment coordinates
mod tests {
    use super::*;

    fn rng(x: &mut u64) -> u32 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        (*x >> 16) as u32
    }

    /// The f16 m16n8k16 product against a direct matrix product built from the documented
    /// fragment layout, with small integers (exact in f16 and f32, so any order agrees).
    #[test]
    fn mma_f16_is_the_matrix_product() {
        let mut x = 0x1234_5678_9abc_def1u64;
        let h = |v: i32| u32::from(float::convert(F64, F16, (v as f64).to_bits(), Rnd::Rn) as u16);
        let mut am = [[0i32; 16]; 16];
        let mut bm = [[0i32; 8]; 16];
        let mut cm = [[0i32; 8]; 16];
        am.iter_mut().flatten().for_each(|v| *v = (rng(&mut x) % 15) as i32 - 7);
        bm.iter_mut().flatten().for_each(|v| *v = (rng(&mut x) % 15) as i32 - 7);
        cm.iter_mut().flatten().for_each(|v| *v = (rng(&mut x) % 201) as i32 - 100);
        let (mut a, mut b, mut c) = ([[0u32; 4]; 32], [[0u32; 2]; 32], [[0u32; 4]; 32]);
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for i in 0..8 {
                a[lane][i / 2] |= h(am[g + 8 * (i / 2 % 2)][2 * t + i % 2 + 8 * (i / 4)]) << (16 * (i % 2));
            }
            for i in 0..4 {
                b[lane][i / 2] |= h(bm[2 * t + i % 2 + 8 * (i / 2)][g]) << (16 * (i % 2));
            }
            for i in 0..4 {
                c[lane][i] = (cm[g + 8 * (i / 2)][2 * t + i % 2] as f32).to_bits();
            }
        }
        let d = mma_f32(16, MmaType::F16, &a, &b, &c);
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for i in 0..4 {
                let (r, col) = (g + 8 * (i / 2), 2 * t + i % 2);
                let want = cm[r][col] + (0..16).map(|k| am[r][k] * bm[k][col]).sum::<i32>();
                assert_eq!(f32::from_bits(d[lane][i]), want as f32, "lane {lane} element {i}");
            }
        }
    }

    /// One rounding per operation: 1 + 2^-24 + 2^-24 rounds to 1 + 2^-23 only when summed
    /// before rounding (tf32: the values keep their top 10 fraction bits).
    #[test]
    fn mma_rounds_once() {
        let one = 1f32.to_bits();
        let tiny = (2f32).powi(-24).to_bits();
        let (mut a, mut b, mut c) = ([[0u32; 4]; 32], [[0u32; 2]; 32], [[0u32; 4]; 32]);
        // Row 0 of a: columns 0 and 1 are tiny (lane 0 holds (0, 0); lane 1 holds (0, 1));
        // column 0 of b: rows 0 and 1 are one (lane 0 holds (0, 0), lane 1 (1, 0)).
        a[0][0] = tiny;
        a[1][0] = tiny;
        b[0][0] = one;
        b[1][0] = one;
        c[0][0] = one;
        let d = mma_f32(8, MmaType::Tf32, &a, &b, &c);
        assert_eq!(f32::from_bits(d[0][0]), 1.0 + (2f32).powi(-23));
    }

    /// The integer m16n8k16 and m16n8k32 products, every signedness and `.satfinite`, against a
    /// direct product from the documented layout, on random full-width bytes and accumulators
    /// near the s32 limits (wrapping, or clamping with `sat`).
    #[test]
    fn integer_mma_is_the_matrix_product() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        let mut clamped = 0;
        for (a_regs, signed, sat) in [
            (2, (true, true), false),
            (2, (false, true), true),
            (4, (true, false), false),
            (4, (false, false), true),
            (4, (true, true), true),
        ] {
            let (mut a, mut b, mut c) = ([[0u32; 4]; 32], [[0u32; 2]; 32], [[0u32; 4]; 32]);
            for lane in 0..32 {
                (0..a_regs).for_each(|j| a[lane][j] = rng(&mut x));
                (0..a_regs / 2).for_each(|j| b[lane][j] = rng(&mut x));
                c[lane] = [rng(&mut x), 0x7fff_ff00, 0x8000_0100, rng(&mut x)];
            }
            let byte = |w: u32, i: usize, sg: bool| {
                let v = (w >> (8 * i)) as u8;
                if sg { i64::from(v as i8) } else { i64::from(v) }
            };
            let d = mma_s32(a_regs, signed, sat, &a, &b, &c);
            for lane in 0..32 {
                let (g, t) = (lane / 4, lane % 4);
                for i in 0..4 {
                    let (r, col) = (g + 8 * (i / 2), 2 * t + i % 2);
                    let mut want = i64::from(c[lane][i] as i32);
                    for kk in 0..8 * a_regs {
                        // a(r, kk) lives in lane 4 (r % 8) + kk % 16 / 4, register r / 8 + 2 (kk / 16),
                        // byte kk % 4; b(kk, col) in lane 4 col + kk % 16 / 4, register kk / 16.
                        let av = byte(a[4 * (r % 8) + kk % 16 / 4][r / 8 + 2 * (kk / 16)], kk % 4, signed.0);
                        let bv = byte(b[4 * col + kk % 16 / 4][kk / 16], kk % 4, signed.1);
                        want += av * bv;
                    }
                    let want = if sat {
                        let w = want.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
                        clamped += usize::from(w != want);
                        w
                    } else {
                        want
                    };
                    assert_eq!(d[lane][i], want as u32, "{a_regs} {signed:?} {sat}: lane {lane} element {i}");
                }
            }
        }
        assert!(clamped > 0, "no case reached the s32 limits");
    }

    #[test]
    fn k_follows_from_the_a_fragment() {
        assert_eq!(MmaType::F16.k_of(4), 16);
        assert_eq!(MmaType::Bf16.k_of(2), 8);
        assert_eq!(MmaType::Tf32.k_of(4), 8);
        assert_eq!(MmaType::Tf32.k_of(2), 4);
    }

    #[test]
    fn ldmatrix_sources() {
        assert_eq!(ldmatrix_source(0, 5, 1, false), (1, 6));
        assert_eq!(ldmatrix_source(2, 5, 1, true), (16 + 3, 2));
    }
}

/// The source of half `h` of lane `lane`'s result of `movmatrix.m8n8.trans`: the lane and half
/// of the operand holding that element. In the fragment layout lane `l` holds row `l / 4`,
/// columns `2 * (l % 4)` and `+ 1` (half 0 and 1); the result's element (r, c) is the
/// operand's (c, r).
pub fn movmatrix_source(lane: usize, h: usize) -> (usize, usize) {
    let (r, c) = (lane / 4, 2 * (lane % 4) + h);
    (4 * c + r / 2, r % 2)
}
