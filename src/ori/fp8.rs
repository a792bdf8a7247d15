//! The packing conversions' element formats for the Ori semantics (`cvtpack`/`F2FP`): fp8
//! (`e4m3`: 4 exponent bits, bias 7, no infinity, NaN `0x7f`/`0xff`, max finite 448; `e5m2`:
//! IEEE-like, bias 15, max finite 57344) and the saturating halves of `.satfinite`.
//!
//! Rules (PTX ISA `cvt`, `.satfinite` required for an fp8 destination): round to nearest even
//! from the exact source value; a magnitude beyond the format's largest finite value (infinity
//! included) becomes that value with the sign kept; a NaN becomes the canonical NaN (`0x7f`, or
//! `0x7fff` for a half); `.relu` turns a negative result (-0 included) into +0 and keeps NaN
//! canonical. Widening fp8 to f16 is exact; an e4m3 NaN becomes `0x7fff`, an e5m2 value is its
//! byte as the high byte of the f16 (NaN payloads kept), except that under `.relu` every NaN
//! is `0x7fff`. The NaN encodings are the canonical ones the PTX ISA names, not an H200
//! measurement.
//!
//! Invariant: pure functions of the bits; the SASS emulator has its own implementation
//! (`interp::emu::fp8`), checked against this one code by code.

/// An fp8 format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fp8 {
    /// 1-4-3, bias 7, no infinity.
    E4m3,
    /// 1-5-2, bias 15 (IEEE-like).
    E5m2,
}

impl Fp8 {
    fn frac(self) -> i32 {
        if self == Fp8::E4m3 { 3 } else { 2 }
    }
    fn bias(self) -> i32 {
        if self == Fp8::E4m3 { 7 } else { 15 }
    }
    /// The largest finite magnitude's code.
    pub fn max_code(self) -> u8 {
        if self == Fp8::E4m3 { 0x7e } else { 0x7b }
    }
    /// Whether `code` is a NaN.
    pub fn is_nan(self, code: u8) -> bool {
        match self {
            Fp8::E4m3 => code & 0x7f == 0x7f,
            Fp8::E5m2 => code & 0x7f > 0x7c,
        }
    }
    /// The value of `code` (NaN for NaN codes, ±inf for e5m2's infinities).
    pub fn value(self, code: u8) -> f64 {
        let neg = code & 0x80 != 0;
        let mag = i32::from(code & 0x7f);
        let (f, b) = (self.frac(), self.bias());
        let v = if self.is_nan(code) {
            f64::NAN
        } else if self == Fp8::E5m2 && mag == 0x7c {
            f64::INFINITY
        } else {
            let (e, m) = (mag >> f, mag & ((1 << f) - 1));
            if e == 0 { f64::from(m) * 2f64.powi(1 - b - f) } else { f64::from(m + (1 << f)) * 2f64.powi(e - b - f) }
        };
        if neg { -v } else { v }
    }
    /// `x` rounded to nearest even, saturated to the largest finite value (`.satfinite`),
    /// with `.relu` clamping negatives to +0.
    pub fn encode(self, x: f64, relu: bool) -> u8 {
        if x.is_nan() {
            return 0x7f;
        }
        let neg = x.is_sign_negative();
        if neg && relu {
            return 0;
        }
        let sign = if neg { 0x80 } else { 0 };
        let a = x.abs();
        let max = self.value(self.max_code());
        if a >= max {
            return sign | self.max_code();
        }
        let (f, b) = (self.frac(), self.bias());
        // The exponent of a's leading bit, at least the smallest normal's.
        let e = if a == 0.0 { 1 - b } else { (a.log2().floor() as i32).max(1 - b) };
        // Guard against log2's rounding at exact powers of two.
        let e = if a >= 2f64.powi(e + 1) {
            e + 1
        } else if e > 1 - b && a < 2f64.powi(e) {
            e - 1
        } else {
            e
        };
        let q = a / 2f64.powi(e - f); // exact: a power-of-two scaling
        let r = q.round_ties_even();
        let mag = r * 2f64.powi(e - f);
        if mag >= max {
            return sign | self.max_code();
        }
        // Encode mag (a multiple of the step at e, at most max).
        let code = if mag < 2f64.powi(1 - b) {
            (mag / 2f64.powi(1 - b - f)) as i32
        } else {
            let e2 = if mag >= 2f64.powi(e + 1) { e + 1 } else { e };
            ((e2 + b) << f) | ((mag / 2f64.powi(e2 - f)) as i32 - (1 << f))
        };
        sign | code as u8
    }
    /// `code` widened to f16 bits (exact), `.relu` clamping negatives to +0.
    pub fn to_f16(self, code: u8, relu: bool) -> u16 {
        if self.is_nan(code) {
            return if self == Fp8::E5m2 && !relu { u16::from(code) << 8 } else { 0x7fff };
        }
        if relu && code & 0x80 != 0 {
            return 0;
        }
        match self {
            Fp8::E5m2 => u16::from(code) << 8,
            Fp8::E4m3 => f64_to_f16_exact(self.value(code)),
        }
    }
}

/// A value exactly representable in f16 (every fp8 value is) as f16 bits.
fn f64_to_f16_exact(v: f64) -> u16 {
    super::float::convert(super::float::F64, super::float::F16, v.to_bits(), super::Rnd::Rn) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_decode_and_encode_back() {
        for f in [Fp8::E4m3, Fp8::E5m2] {
            for c in 0..=255u8 {
                let v = f.value(c);
                if v.is_nan() {
                    assert_eq!(f.encode(v, false), 0x7f);
                } else if v.is_infinite() {
                    assert_eq!(f.encode(v, false), f.max_code() | (c & 0x80));
                } else {
                    assert_eq!(f.encode(v, false), c, "{f:?} {c:#x} = {v}");
                }
            }
        }
    }

    #[test]
    fn edges() {
        let e = Fp8::E4m3;
        assert_eq!(e.value(0x7e), 448.0);
        assert_eq!(e.value(0x01), 2f64.powi(-9));
        assert_eq!(e.encode(464.0, false), 0x7e); // halfway to 480 (not finite): saturates
        assert_eq!(e.encode(1e30, false), 0x7e);
        assert_eq!(e.encode(f64::NEG_INFINITY, false), 0xfe);
        assert_eq!(e.encode(2f64.powi(-10), false), 0x00); // tie to even (0)
        assert_eq!(e.encode(3.0 * 2f64.powi(-10), false), 0x02); // tie 1.5 steps: to even 2
        assert_eq!(e.encode(1.0625, false), 0x38); // tie between 1.0 and 1.125: even 1.0
        assert_eq!(e.encode(1.1875, false), 0x3a); // tie between 1.125 and 1.25: even 1.25
        assert_eq!(e.encode(-0.0, false), 0x80);
        assert_eq!(e.encode(-0.0, true), 0x00);
        assert_eq!(e.encode(-3.0, true), 0x00);
        assert_eq!(e.encode(f64::NAN, true), 0x7f);
        let m = Fp8::E5m2;
        assert_eq!(m.value(0x7b), 57344.0);
        assert_eq!(m.encode(61440.0, false), 0x7b);
        assert_eq!(m.encode(f64::INFINITY, false), 0x7b);
        assert_eq!(m.encode(2f64.powi(-16), false), 0x01);
        assert_eq!(m.encode(2f64.powi(-17), false), 0x00);
        assert_eq!(m.to_f16(0xfe, false), 0xfe00);
        assert_eq!(m.to_f16(0xfe, true), 0x7fff);
        assert_eq!(e.to_f16(0x7e, false), 0x5f00); // 448
        assert_eq!(e.to_f16(0xff, false), 0x7fff);
        assert_eq!(e.to_f16(0x81, true), 0);
        assert_eq!(e.to_f16(0x01, false), 0x1800); // 2^-9
    }
}
