//! Integer conversions the emulator runs outside [`super::alu`]: `F2I` from f16, `I2F` to f16
//! or bf16 and `I2I` (integer width/sign changes, optionally saturating).
//!
//! - `I2F.F16.<int>` / `I2F.BF16.<int>`: the integer (read at its type, up to 64 bits; a 16-bit
//!   source from the register half its `.H1` selector names) rounded once to binary16 / bfloat16
//!   in the instruction's mode; beyond the f16 range the result is ±inf (`.RN`, and the
//!   directed mode away from zero) or ±65504 (toward zero); no integer reaches bf16's range.
//!   The half goes to the register's low half, the upper half is zero.
//! - `F2I.<int>.F16`: the f16 in the source register's low 16 bits is widened exactly to f32
//!   and converted as [`super::alu::f2i`] converts an f32 (rounding per the modifier, NaN → 0,
//!   out-of-range values saturate, narrow destinations fill the register sign- or
//!   zero-extended). f16 subnormals are exact in f32 and are converted, not flushed.
//! - `I2I.<dst>.<src>[.SAT]`: the source read at its width (sign- or zero-extended per its type);
//!   with `.SAT` clamped to the destination's range, without it truncated to the destination's
//!   width. The 32-bit register is written sign-extended for signed destinations and
//!   zero-extended for unsigned ones, as the emulator's `F2I` does and as the PTX semantics
//!   store a narrow `cvt` result. (ptxas follows every narrow `I2I` with its own extension —
//!   `PRMT 0x8880`, `LOP3 & 0xffff` — and so does our instruction selection, so no code
//!   depends on these upper bits; for `I2I` they are a modelling choice, not a hardware
//!   measurement.)
//!
//! Invariant: pure functions of the operand bits; never panic.

use super::alu::{self, IntRnd, IntTy, Rnd};

/// `I2F.F16.<src>`: the integer in `x` (read as `src`) to binary16 with rounding `rnd`.
pub fn i2f_f16(x: u64, src: IntTy, rnd: Rnd) -> u16 {
    i2f_half(x, src, rnd, false)
}

/// `I2F.F16.<src>` / `I2F.BF16.<src>` (`bf16`): the integer in `x` (read as `src`) rounded once
/// to binary16 (11-bit significand, largest exponent 15) or bfloat16 (8-bit significand, largest
/// exponent 127: no 64-bit integer overflows it) with rounding `rnd`.
pub fn i2f_half(x: u64, src: IntTy, rnd: Rnd, bf16: bool) -> u16 {
    // p: significand bits (hidden bit included); emax/bias: the format's exponent range.
    let (p, emax, bias) = if bf16 { (8i32, 127i32, 127i32) } else { (11, 15, 15) };
    let v = src.value(x);
    if v == 0 {
        return 0;
    }
    let neg = v < 0;
    let m = v.unsigned_abs();
    let n = 128 - m.leading_zeros() as i32; // bit length, >= 1
    // q: the significand with exactly p bits, value = q * 2^shift.
    let (mut q, mut shift) = if n <= p {
        (m << (p - n), n - p)
    } else {
        let s = (n - p) as u32;
        let q = m >> s;
        let rem = m & ((1u128 << s) - 1);
        let half = 1u128 << (s - 1);
        let up = match rnd {
            Rnd::Rn => rem > half || (rem == half && q & 1 == 1),
            Rnd::Rz => false,
            Rnd::Rp => !neg && rem != 0,
            Rnd::Rm => neg && rem != 0,
        };
        (q + u128::from(up), n - p)
    };
    if q == 1 << p {
        q >>= 1;
        shift += 1;
    }
    let sign = 0x8000u16 * u16::from(neg);
    let e = shift + p - 1; // unbiased exponent
    if e > emax {
        let to_inf = match rnd {
            Rnd::Rn => true,
            Rnd::Rz => false,
            Rnd::Rp => !neg,
            Rnd::Rm => neg,
        };
        let inf = if bf16 { 0x7f80 } else { 0x7c00 };
        return sign | if to_inf { inf } else { inf - 1 };
    }
    let frac = (q as u16) & ((1u16 << (p - 1)) - 1);
    sign | (((e + bias) as u16) << (p - 1)) | frac
}

/// `F2I.<dst>.F16`: the f16 in the low 16 bits of `x` to integer type `dst` with rounding `r`.
/// Returns the result bits (64 for 64-bit destinations).
pub fn f2i_f16(x: u32, dst: IntTy, r: IntRnd) -> u64 {
    let f = alu::f16_to_f32(x as u16);
    alu::f2i(u64::from(f.to_bits()), false, dst, r, false, true)
}

/// `I2I.<dst>.<src>[.SAT]` on the source bits `x` (see the module doc). Returns the 32-bit
/// register value (64 bits for 64-bit destinations).
pub fn i2i(x: u64, src: IntTy, dst: IntTy, sat: bool) -> u64 {
    let v = src.value(x);
    let b = dst.bits();
    let r: i128 = if sat {
        let (lo, hi) = if dst.signed() { (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1) } else { (0, (1i128 << b) - 1) };
        v.clamp(lo, hi)
    } else {
        dst.value(v as u64)
    };
    let bits = if dst.signed() { r as u64 } else { (r as u64) & mask(b) };
    if b < 64 { bits & 0xffff_ffff } else { bits }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use ptxas_rs::ori::semantics::{Arg, Val, eval};
    use ptxas_rs::ori::{Flag, Mods, Opcode, Ty};

    const INTS: [(IntTy, Ty); 6] = [
        (IntTy::U8, Ty::U8),
        (IntTy::S8, Ty::S8),
        (IntTy::U16, Ty::U16),
        (IntTy::S16, Ty::S16),
        (IntTy::U32, Ty::U32),
        (IntTy::S32, Ty::S32),
    ];

    /// Full-width values with the edges of every integer width over-represented.
    fn edge32() -> impl Strategy<Value = u32> {
        prop_oneof![
            any::<u32>(),
            prop::sample::select(vec![
                0u32,
                1,
                0x7f,
                0x80,
                0xff,
                0x100,
                0x7fff,
                0x8000,
                0xffff,
                0x1_0000,
                0x7fff_ffff,
                0x8000_0000,
                0xffff_ff80,
                0xffff_ff7f,
                0xffff_8000,
                0xffff_7fff,
                0xffff_ffff,
            ]),
        ]
    }

    /// f16 bit patterns with the special values over-represented (upper half random).
    fn edge_f16() -> impl Strategy<Value = u32> {
        (
            prop_oneof![
                any::<u16>(),
                prop::sample::select(vec![
                    0u16, 0x8000, 0x0001, 0x03ff, 0x3800, 0x3c00, 0xbc00, 0x3e00, 0x4100, 0x5bf8, 0x5c00, 0x7bff,
                    0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xd800, 0xd804,
                ]),
            ],
            any::<u16>(),
        )
            .prop_map(|(h, junk)| u32::from(h) | (u32::from(junk) << 16))
    }

    /// Each emulator rounding mode with its Ori twin.
    const ROUNDINGS: [(Rnd, ptxas_rs::ori::Rnd); 4] = [
        (Rnd::Rn, ptxas_rs::ori::Rnd::Rn),
        (Rnd::Rz, ptxas_rs::ori::Rnd::Rz),
        (Rnd::Rm, ptxas_rs::ori::Rnd::Rm),
        (Rnd::Rp, ptxas_rs::ori::Rnd::Rp),
    ];

    /// `I2F.F16` agrees with the Ori semantics of `I2F` to f16 (= PTX `cvt.<rnd>.f16.<int>`)
    /// in every rounding mode.
    #[test]
    fn i2f_f16_matches_ori_exhaustive_edges() {
        let mut rng = 0x1234_5678_9abc_def0u64;
        for k in 0..200_000u32 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let x = match k % 4 {
                0 => (rng >> 32) as u32,
                1 => (rng >> 40) as u32 ^ if k & 8 == 0 { 0 } else { 0xffff_ffff },
                2 => {
                    65504u32.wrapping_add((rng >> 60) as u32).wrapping_sub(8) ^ if k & 8 == 0 { 0 } else { 0xffff_ffff }
                }
                _ => (1u32 << ((rng >> 59) as u32)).wrapping_add((rng >> 62) as u32).wrapping_sub(2),
            };
            for (de, dt) in INTS {
                for (er, or) in ROUNDINGS {
                    let m = Mods { ty: Some(Ty::F16), src_ty: Some(dt), rnd: Some(or), ..Mods::new() };
                    let want = ori(Opcode::I2F, &m, u64::from(x)) & 0xffff;
                    assert_eq!(u64::from(i2f_f16(u64::from(x), de, er)), want, "I2F.F16.{de:?} {er:?} of {x:#x}");
                }
            }
        }
    }

    /// `I2F.F16` from 64-bit integers agrees with the Ori semantics in every rounding mode.
    #[test]
    fn i2f_f16_from_64_bits_matches_ori() {
        let mut rng = 0x0fed_cba9_8765_4321u64;
        for k in 0..100_000u32 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let x = match k % 3 {
                0 => rng,
                1 => rng >> (rng >> 58),
                _ => (1u64 << (rng >> 58)).wrapping_add((rng >> 40) & 3).wrapping_sub(2),
            };
            for (de, dt) in [(IntTy::U64, Ty::U64), (IntTy::S64, Ty::S64)] {
                for (er, or) in ROUNDINGS {
                    let m = Mods { ty: Some(Ty::F16), src_ty: Some(dt), rnd: Some(or), ..Mods::new() };
                    let want = ori(Opcode::I2F, &m, x) & 0xffff;
                    assert_eq!(u64::from(i2f_f16(x, de, er)), want, "I2F.F16.{de:?} {er:?} of {x:#x}");
                }
            }
        }
    }

    /// `F2F.F16`/`F2F.BF16` from f32 and f64 ([`alu::f2f_half`], [`alu::f2f_half_from64`]) agrees with the Ori semantics
    /// of `cvt.<rnd>.{f16,bf16}.{f32,f64}` in every rounding mode, on full-width random bits
    /// and on values around the half formats' rounding boundaries (midpoints, overflow, the
    /// subnormal range).
    #[test]
    fn f2f_half_matches_ori() {
        let mut rng = 0x1234_5678_9abc_def1u64;
        for k in 0..40_000u32 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let x64 = match k % 3 {
                0 => rng,
                // Exponents of the half formats' range, with a low-order fraction.
                1 => (rng & 0x800f_ffff_ffff_ffff) | ((1023 - 30 + (rng >> 58) % 48) << 52),
                _ => f64::from(f32::from_bits(rng as u32)).to_bits(),
            };
            let x32 = f32::from_bits((rng >> 16) as u32);
            for (src, sty, bits) in
                [(f64::from_bits(x64), Ty::F64, x64), (f64::from(x32), Ty::F32, u64::from(x32.to_bits()))]
            {
                for (dty, bf) in [(Ty::F16, false), (Ty::BF16, true)] {
                    for (er, or) in ROUNDINGS {
                        let m = Mods { ty: Some(dty), src_ty: Some(sty), rnd: Some(or), ..Mods::new() };
                        let want = ori(Opcode::F2F, &m, bits) & 0xffff;
                        let got = u64::from(if sty == Ty::F64 {
                            alu::f2f_half_from64(bits, bf, er)
                        } else {
                            alu::f2f_half(src, bf, er)
                        });
                        assert_eq!(got, want, "F2F.{dty:?}.{sty:?} {er:?} of {bits:#x}");
                    }
                }
            }
        }
    }

    /// The upper bits of narrow results are exactly the extension of the low ones.
    #[test]
    fn narrow_results_are_extended() {
        assert_eq!(i2i(0xffff_ff00, IntTy::S32, IntTy::S8, true), 0xffff_ff80);
        assert_eq!(i2i(0x7fff_ffff, IntTy::S32, IntTy::S16, true), 0x7fff);
        assert_eq!(i2i(0xffff_ffff, IntTy::S32, IntTy::U16, true), 0);
        assert_eq!(i2i(0x0001_ff80, IntTy::U32, IntTy::S8, false), 0xffff_ff80);
        assert_eq!(f2i_f16(0xbc00, IntTy::S8, IntRnd::Rni), 0xffff_ffff);
        assert_eq!(f2i_f16(0x7c00, IntTy::S16, IntRnd::Rni), 0x7fff);
    }

    fn ori(op: Opcode, mods: &Mods, x: u64) -> u64 {
        let r = eval(op, mods, &[Arg::bits(x)]).unwrap();
        match r[0] {
            Val::Bits(b) => b,
            Val::Pred(p) => u64::from(p),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// `I2I` agrees with the Ori semantics of `I2I` (= PTX `cvt[.sat]` between integers)
        /// for every pair of types up to 32 bits, with and without `.SAT`, in all 32 bits of
        /// the register (narrow signed results sign-extended, unsigned ones zero-extended).
        #[test]
        fn i2i_matches_ori(x in edge32(), d in 0usize..6, s in 0usize..6, sat in any::<bool>()) {
            let ((de, dt), (se, st)) = (INTS[d], INTS[s]);
            let mut m = Mods { ty: Some(dt), src_ty: Some(st), ..Mods::new() };
            if sat {
                m.set(Flag::Sat);
            }
            let want = ori(Opcode::I2I, &m, u64::from(x)) & 0xffff_ffff;
            prop_assert_eq!(i2i(u64::from(x), se, de, sat), want, "I2I.{:?}.{:?} sat={} of {:#x}", de, se, sat, x);
        }

        /// `F2I.<int>.F16` agrees with the Ori semantics of `F2I` from f16 (= PTX `cvt.<rnd>i.<int>.f16`),
        /// whatever the register's upper half holds.
        #[test]
        fn f2i_f16_matches_ori(x in edge_f16(), d in 0usize..6, r in 0usize..4) {
            let (de, dt) = INTS[d];
            use ptxas_rs::ori::Rnd as O;
            let (er, or) = [(IntRnd::Rni, O::Rni), (IntRnd::Trunc, O::Rzi), (IntRnd::Floor, O::Rmi), (IntRnd::Ceil, O::Rpi)][r];
            let m = Mods { ty: Some(dt), src_ty: Some(Ty::F16), rnd: Some(or), ..Mods::new() };
            let want = ori(Opcode::F2I, &m, u64::from(x)) & 0xffff_ffff;
            prop_assert_eq!(f2i_f16(x, de, er) & 0xffff_ffff, want, "F2I.{:?}.F16 {:?} of {:#x}", de, er, x);
        }
    }
}
