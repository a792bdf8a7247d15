//! Exact conversions between `f64` and the narrower float formats (`f32`, `f16`, `bf16`).
//!
//! Every narrowing is a *single* correctly rounded step from the `f64` value, round to nearest,
//! ties to even (so `f64 -> f16` never goes through `f32`, which could round twice). Overflow
//! gives infinity of the same sign, underflow gives a denormal or a signed zero.
//!
//! NaN handling (hardware `cvt`-style, and what `struct.pack` / numpy do): a NaN keeps its sign,
//! its payload is truncated to the top mantissa bits of the narrower format and the quiet bit is
//! set. So the canonical `f64` NaN (`0x7FF8000000000000`) becomes the canonical quiet NaN of each
//! format: `0x7E00` (f16), `0x7FC0` (bf16), `0x7FC00000` (f32).
//!
//! Widening ([`to_f64`]) is exact for every format; a NaN keeps its sign and payload (shifted to
//! the top of the `f64` mantissa).
//!
//! The conversions are implemented here (rather than with `as`) so the NaN rule holds on every
//! host: Rust leaves the payload of `f64 as f32` NaNs unspecified.

use super::types::ElemType;

/// The shape of an IEEE-style binary format.
#[derive(Clone, Copy, Debug)]
struct Format {
    /// Exponent field width.
    exp_bits: u32,
    /// Stored mantissa (fraction) width.
    mant_bits: u32,
}

impl Format {
    const F16: Format = Format { exp_bits: 5, mant_bits: 10 };
    const BF16: Format = Format { exp_bits: 8, mant_bits: 7 };
    const F32: Format = Format { exp_bits: 8, mant_bits: 23 };

    /// The narrow formats (`f64` itself needs no rounding and is handled with `to_bits`).
    fn of(ty: ElemType) -> Option<Format> {
        match ty {
            ElemType::F16 => Some(Format::F16),
            ElemType::Bf16 => Some(Format::BF16),
            ElemType::F32 => Some(Format::F32),
            _ => None,
        }
    }

    const fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    const fn exp_max(self) -> u64 {
        (1 << self.exp_bits) - 1
    }

    const fn sign_bit(self) -> u64 {
        1 << (self.exp_bits + self.mant_bits)
    }

    const fn mant_mask(self) -> u64 {
        (1 << self.mant_bits) - 1
    }
}

/// `2^k` for `k` in the normal `f64` exponent range `-1022..=1023`.
fn pow2(k: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&k));
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// Rounds `x` to the float format `ty` (round to nearest, ties to even) and returns its bits in
/// the low bits of the result. For `f64` these are `x`'s bits; for a non-float `ty`, `x`'s `f64`
/// bits masked to the type's width, which no caller relies on.
pub fn from_f64(ty: ElemType, x: f64) -> u64 {
    match Format::of(ty) {
        Some(fmt) => narrow(fmt, x),
        None => x.to_bits() & ty.mask(),
    }
}

/// The exact `f64` value of the float bits `bits` (low bits) of format `ty`. For a non-float
/// `ty` the bits are read as an unsigned integer.
pub fn to_f64(ty: ElemType, bits: u64) -> f64 {
    match (ty, Format::of(ty)) {
        (ElemType::F64, _) => f64::from_bits(bits),
        (_, Some(fmt)) => widen(fmt, bits & ty.mask()),
        (_, None) => (bits & ty.mask()) as f64,
    }
}

/// `f64` to the binary16 bits of `x` (round to nearest even).
pub fn f64_to_f16(x: f64) -> u16 {
    narrow(Format::F16, x) as u16
}

/// `f64` to the bfloat16 bits of `x` (round to nearest even).
pub fn f64_to_bf16(x: f64) -> u16 {
    narrow(Format::BF16, x) as u16
}

/// The exact value of binary16 bits.
pub fn f16_to_f64(bits: u16) -> f64 {
    widen(Format::F16, u64::from(bits))
}

/// The exact value of bfloat16 bits.
pub fn bf16_to_f64(bits: u16) -> f64 {
    widen(Format::BF16, u64::from(bits))
}

fn narrow(fmt: Format, x: f64) -> u64 {
    let b = x.to_bits();
    let sign = if b >> 63 != 0 { fmt.sign_bit() } else { 0 };
    let e64 = ((b >> 52) & 0x7ff) as i32;
    let m64 = b & ((1 << 52) - 1);
    let drop = 52 - fmt.mant_bits;
    if e64 == 0x7ff {
        if m64 == 0 {
            return sign | (fmt.exp_max() << fmt.mant_bits);
        }
        let quiet = 1 << (fmt.mant_bits - 1);
        return sign | (fmt.exp_max() << fmt.mant_bits) | quiet | (m64 >> drop);
    }
    if e64 == 0 {
        // Zero, or an f64 denormal: below 2^-1022, far under half the smallest denormal of
        // every narrower format, so it rounds to a signed zero.
        return sign;
    }
    // |x| = sig * 2^(e - 52) with sig in [2^52, 2^53).
    let e = e64 - 1023;
    let sig = m64 | (1 << 52);
    let emin = 1 - fmt.bias();
    // Bits of `sig` to drop so the kept part has the target's precision at exponent e (normal)
    // or at the fixed denormal exponent emin.
    let shift = drop as i32 + (emin - e).max(0);
    if shift >= 54 {
        // sig < 2^53 <= half a unit in the last place: rounds to zero.
        return sign;
    }
    let shift = shift as u32;
    let mut q = sig >> shift;
    let rem = sig & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rem > half || (rem == half && q & 1 == 1) {
        q += 1;
    }
    let mag = if e >= emin {
        // q in [2^M, 2^(M+1)]; a carry into 2^(M+1) bumps the exponent field, as wanted.
        (((e + fmt.bias()) as u64) << fmt.mant_bits) + (q - (1 << fmt.mant_bits))
    } else {
        // Denormal: q <= 2^M, and q == 2^M is exactly the smallest normal's encoding.
        q
    };
    let inf = fmt.exp_max() << fmt.mant_bits;
    sign | mag.min(inf)
}

fn widen(fmt: Format, bits: u64) -> f64 {
    let negative = bits & fmt.sign_bit() != 0;
    let exp = (bits >> fmt.mant_bits) & fmt.exp_max();
    let mant = bits & fmt.mant_mask();
    let sign64 = if negative { 1u64 << 63 } else { 0 };
    if exp == fmt.exp_max() {
        let payload = mant << (52 - fmt.mant_bits);
        return f64::from_bits(sign64 | (0x7ff << 52) | payload);
    }
    let emin = 1 - fmt.bias();
    let mag = if exp == 0 {
        mant as f64 * pow2(emin - fmt.mant_bits as i32)
    } else {
        (mant | (1 << fmt.mant_bits)) as f64 * pow2(exp as i32 - fmt.bias() - fmt.mant_bits as i32)
    };
    if negative { -mag } else { mag }
}

/// A key that orders the finite and infinite values of a float format like the numbers they
/// denote, with both zeros mapping to 0; consecutive representable values differ by 1. Used for
/// ULP distances.
pub fn ordered_key(ty: ElemType, bits: u64) -> i128 {
    let bits = bits & ty.mask();
    let sign = 1u64 << (ty.bits() - 1);
    let mag = i128::from(bits & !sign);
    if bits & sign != 0 { -mag } else { mag }
}

/// Whether the float bits are a NaN.
pub fn is_nan(ty: ElemType, bits: u64) -> bool {
    to_f64(ty, bits).is_nan()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn f16_known_answers() {
        assert_eq!(f64_to_f16(1.0), 0x3C00);
        assert_eq!(f64_to_f16(-2.0), 0xC000);
        assert_eq!(f64_to_f16(0.1), 0x2E66);
        assert_eq!(f64_to_f16(0.5), 0x3800);
        assert_eq!(f64_to_f16(65504.0), 0x7BFF); // largest finite
        assert_eq!(f64_to_f16(65519.99), 0x7BFF); // just under the rounding boundary
        assert_eq!(f64_to_f16(65520.0), 0x7C00); // tie between max and 2^16: even is inf
        assert_eq!(f64_to_f16(1e10), 0x7C00);
        assert_eq!(f64_to_f16(-1e10), 0xFC00);
        assert_eq!(f64_to_f16(f64::INFINITY), 0x7C00);
        assert_eq!(f64_to_f16(f64::NAN), 0x7E00);
        assert_eq!(f64_to_f16(0.0), 0x0000);
        assert_eq!(f64_to_f16(-0.0), 0x8000);
        assert_eq!(f64_to_f16(2f64.powi(-24)), 0x0001); // smallest denormal
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0x0000); // tie to even: zero
        assert_eq!(f64_to_f16(1.5 * 2f64.powi(-24)), 0x0002); // tie to even: 2
        assert_eq!(f64_to_f16(2f64.powi(-14)), 0x0400); // smallest normal
        assert_eq!(f64_to_f16(2f64.powi(-14) - 2f64.powi(-25)), 0x0400); // rounds up into normal
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3C00); // tie, even is 1.0
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3C02); // tie, even is up
        assert_eq!(f64_to_f16(1e-300), 0x0000);
        assert_eq!(f64_to_f16(f64::from_bits(1)), 0x0000);
        assert_eq!(f64_to_f16(-f64::from_bits(1)), 0x8000);
    }

    #[test]
    fn bf16_known_answers() {
        assert_eq!(f64_to_bf16(1.0), 0x3F80);
        assert_eq!(f64_to_bf16(-1.0), 0xBF80);
        assert_eq!(f64_to_bf16(0.1), 0x3DCD);
        assert_eq!(f64_to_bf16(3.0), 0x4040);
        assert_eq!(f64_to_bf16(f64::NAN), 0x7FC0);
        assert_eq!(f64_to_bf16(f64::NEG_INFINITY), 0xFF80);
        assert_eq!(f64_to_bf16(f64::from(f32::MAX)), 0x7F80); // rounds up past the max: inf
        assert_eq!(f64_to_bf16(3.3895313892515355e38), 0x7F7F); // bf16 max
        assert_eq!(f64_to_bf16(2f64.powi(-133)), 0x0001); // smallest denormal
        assert_eq!(f64_to_bf16(1.0 + 2f64.powi(-8)), 0x3F80); // tie, even
        assert_eq!(f64_to_bf16(1.0 + 3.0 * 2f64.powi(-8)), 0x3F82);
    }

    #[test]
    fn widening_known_answers() {
        assert_eq!(f16_to_f64(0x3C00), 1.0);
        assert_eq!(f16_to_f64(0x7BFF), 65504.0);
        assert_eq!(f16_to_f64(0x0001), 2f64.powi(-24));
        assert_eq!(f16_to_f64(0x8000).to_bits(), (-0.0f64).to_bits());
        assert_eq!(f16_to_f64(0xFC00), f64::NEG_INFINITY);
        assert!(f16_to_f64(0x7E00).is_nan());
        assert_eq!(bf16_to_f64(0x3F80), 1.0);
        assert_eq!(bf16_to_f64(0x0001), 2f64.powi(-133));
        assert_eq!(to_f64(ElemType::F32, 0x0000_0001), f64::from(f32::from_bits(1)));
        assert_eq!(from_f64(ElemType::F32, f64::NAN), 0x7FC0_0000);
        assert_eq!(from_f64(ElemType::F32, -f64::NAN), 0xFFC0_0000);
    }

    #[test]
    fn ordered_keys() {
        let t = ElemType::F32;
        assert_eq!(ordered_key(t, 0x8000_0000), 0);
        assert_eq!(ordered_key(t, 0), 0);
        assert_eq!(ordered_key(t, 0x8000_0001), -1);
        assert_eq!(ordered_key(t, 0x3F80_0001) - ordered_key(t, 0x3F80_0000), 1);
        assert_eq!(ordered_key(t, 0x7F80_0000) - ordered_key(t, 0x7F7F_FFFF), 1);
    }

    proptest! {
        #[test]
        fn f32_narrowing_matches_the_host(
            x in any::<f64>().prop_filter("not NaN", |x| !x.is_nan())
        ) {
            prop_assert_eq!(from_f64(ElemType::F32, x), u64::from((x as f32).to_bits()));
        }

        #[test]
        fn f16_round_trips(bits in any::<u16>()) {
            let x = f16_to_f64(bits);
            if x.is_nan() {
                prop_assert!(f16_to_f64(f64_to_f16(x)).is_nan());
            } else {
                prop_assert_eq!(f64_to_f16(x), bits);
            }
        }

        #[test]
        fn bf16_is_rounded_f32(x in any::<f32>().prop_filter("not NaN", |x| !x.is_nan())) {
            // bf16 = round-to-nearest-even of the top 16 bits of an f32.
            let b = x.to_bits();
            let rounded = b.wrapping_add(0x7FFF + ((b >> 16) & 1)) >> 16;
            prop_assert_eq!(u32::from(f64_to_bf16(f64::from(x))), rounded);
        }

        #[test]
        fn f16_rounding_is_nearest(x in -70000.0f64..70000.0) {
            let h = f64_to_f16(x);
            let y = f16_to_f64(h);
            if y.is_finite() {
                // No other f16 is closer (neighbours by bit pattern in the same sign).
                for n in [h.wrapping_sub(1), h.wrapping_add(1)] {
                    let z = f16_to_f64(n);
                    if z.is_finite() && (z >= 0.0) == (y >= 0.0) {
                        prop_assert!((x - y).abs() <= (x - z).abs());
                    }
                }
            } else {
                prop_assert!(x.abs() >= 65520.0);
            }
        }
    }
}
