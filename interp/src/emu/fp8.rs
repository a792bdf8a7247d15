//! The emulator's fp8 conversions for `F2FP`'s fp8 forms, written independently of the Ori
//! semantics (`ptxas_rs::ori::fp8`, which rounds by scaling): here a code's value is built
//! from its fields into f32 bits and rounding searches the ordered table of the 127
//! non-negative finite codes for the nearest value (ties to the even code).
//!
//! - `.SATFINITE` narrowing (the only narrowing form ptxas emits): NaN → `0x7f`; a magnitude
//!   at or beyond the largest finite value (infinity included) → that value, sign kept;
//!   `.RELU`: a negative input (-0 included) → `0x00`.
//! - Widening to f16 (`.UNPACK_B`): exact; e5m2 is the f16's high byte (NaN payload kept), an
//!   e4m3 NaN is `0x7fff`; `.RELU`: negatives → +0, every NaN → `0x7fff`.
//!
//! The NaN encodings follow the PTX ISA's canonical NaNs; they are not an H200 measurement
//! (no device was available), and the Ori semantics assume the same.
//!
//! Invariant: pure functions of the bits; never panic.

/// e4m3 (else e5m2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fp8 {
    /// 1-4-3 bias 7 (else 1-5-2 bias 15).
    pub e4m3: bool,
}

impl Fp8 {
    fn fields(self) -> (u32, i32, u8) {
        if self.e4m3 { (3, 7, 0x7e) } else { (2, 15, 0x7b) }
    }
    fn nan(self, code: u8) -> bool {
        let m = code & 0x7f;
        if self.e4m3 { m == 0x7f } else { m >= 0x7d }
    }
    /// The magnitude of a non-negative finite code, as an f32.
    fn mag(self, code: u8) -> f32 {
        let (frac, bias, _) = self.fields();
        let e = u32::from(code) >> frac;
        let m = u32::from(code) & ((1 << frac) - 1);
        if e == 0 {
            // Subnormal: m steps of 2^(1 - bias - frac), a power of two built from its bits.
            let step = f32::from_bits(((127 + 1 - bias - frac as i32) as u32) << 23);
            m as f32 * step
        } else {
            f32::from_bits(((e as i32 - bias + 127) as u32) << 23 | m << (23 - frac))
        }
    }
    /// `x` (exact, as f64) to the code: nearest, ties to the even code, saturating.
    pub fn narrow(self, x: f64, relu: bool) -> u8 {
        let (_, _, max) = self.fields();
        if x.is_nan() {
            return 0x7f;
        }
        let sign = if x.is_sign_negative() { 0x80u8 } else { 0 };
        if relu && sign != 0 {
            return 0;
        }
        let a = x.abs();
        if a >= f64::from(self.mag(max)) {
            return sign | max;
        }
        // The largest code whose value does not exceed a (codes are ordered by value).
        let lo = (0..max).rev().find(|&c| f64::from(self.mag(c)) <= a).unwrap_or(0);
        let (vl, vh) = (f64::from(self.mag(lo)), f64::from(self.mag(lo + 1)));
        let (dl, dh) = (a - vl, vh - a);
        let c = if dl < dh || (dl == dh && lo % 2 == 0) { lo } else { lo + 1 };
        sign | c
    }
    /// A code to f16 bits.
    pub fn widen(self, code: u8, relu: bool) -> u16 {
        if self.nan(code) {
            return if !self.e4m3 && !relu { u16::from(code) << 8 } else { 0x7fff };
        }
        if relu && code & 0x80 != 0 {
            return 0;
        }
        if !self.e4m3 {
            return u16::from(code) << 8;
        }
        let v = self.mag(code & 0x7f);
        super::alu::f32_to_f16(v) | if code & 0x80 != 0 { 0x8000 } else { 0 }
    }
}

/// An f32's bits as an exact f64.
pub fn f32v(x: u32) -> f64 {
    f64::from(f32::from_bits(x))
}

/// An f16's bits (low 16 of `x`) as an exact f64.
pub fn f16v(x: u32) -> f64 {
    let h = x & 0xffff;
    let (s, e, m) = (h >> 15, (h >> 10) & 0x1f, h & 0x3ff);
    let mag = match e {
        0 => f64::from(m) * 2f64.powi(-24),
        0x1f if m == 0 => f64::INFINITY,
        0x1f => f64::NAN,
        _ => f64::from(m | 0x400) * 2f64.powi(e as i32 - 25),
    };
    if s == 1 { -mag } else { mag }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxas_rs::ori::fp8 as ori;

    /// Every code and relu, both formats: widening, and narrowing of every code's value and of
    /// the midpoints between neighbours (ties) and points just off them, against the Ori
    /// semantics; plus every f16 bit pattern narrowed.
    #[test]
    fn matches_ori_semantics_exhaustively() {
        for (e, o) in [(Fp8 { e4m3: true }, ori::Fp8::E4m3), (Fp8 { e4m3: false }, ori::Fp8::E5m2)] {
            for c in 0..=255u8 {
                for relu in [false, true] {
                    assert_eq!(e.widen(c, relu), o.to_f16(c, relu), "{e:?} widen {c:#x} relu {relu}");
                    let v = o.value(c);
                    assert_eq!(e.narrow(v, relu), o.encode(v, relu), "{e:?} narrow {v}");
                    let n = o.value(c.wrapping_add(1) & 0x7f | c & 0x80);
                    if v.is_finite() && n.is_finite() {
                        for x in [(v + n) / 2.0, (v + n) / 2.0 + 1e-7 * (n - v), (v + n) / 2.0 - 1e-7 * (n - v)] {
                            assert_eq!(e.narrow(x, relu), o.encode(x, relu), "{e:?} narrow {x}");
                        }
                    }
                }
            }
            for h in 0..=0xffffu32 {
                let x = f16v(h);
                assert_eq!(e.narrow(x, false), o.encode(x, false), "{e:?} f16 {h:#x}");
            }
        }
    }

    #[test]
    fn edge_values() {
        let (e4, e5) = (Fp8 { e4m3: true }, Fp8 { e4m3: false });
        assert_eq!(e4.narrow(448.0, false), 0x7e);
        assert_eq!(e4.narrow(-1e9, false), 0xfe);
        assert_eq!(e4.narrow(f64::INFINITY, false), 0x7e);
        assert_eq!(e4.narrow(2f64.powi(-9), false), 0x01);
        assert_eq!(e4.narrow(2f64.powi(-10), false), 0x00);
        assert_eq!(e4.narrow(f64::NAN, false), 0x7f);
        assert_eq!(e5.narrow(57344.0, false), 0x7b);
        assert_eq!(e5.narrow(f64::NEG_INFINITY, false), 0xfb);
        assert_eq!(e5.narrow(-0.0, true), 0x00);
        assert_eq!(e5.widen(0x7c, false), 0x7c00);
        assert_eq!(e4.widen(0xfe, false), 0xdf00);
    }
}
