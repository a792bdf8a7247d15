//! Comparing an output buffer with its expected contents.
//!
//! Elements are compared one by one as values of the buffer's type:
//!
//! - [`Tolerance::Exact`] (the default, and the only choice for integer types): the bits must be
//!   equal. So `+0` differs from `-0` and NaNs match only with identical payloads.
//! - Under any tolerance (float types only), two elements match when their bits are equal, or
//!   when both are NaN (any sign and payload), or when they are numerically equal (`+0 == -0`);
//!   a NaN never matches a number, and an infinity matches only the same infinity. Otherwise,
//!   with `x` and `y` the exact values (as `f64`):
//!   - `{ ulp = n }`: the two values are at most `n` representable values of the type apart
//!     (counting across zero, where `+0` and `-0` count as one value);
//!   - `{ abs = t }`: `|x - y| <= t`;
//!   - `{ rel = t }`: `|x - y| <= t * max(|x|, |y|)` (symmetric, so neither side is privileged).
//!
//! A [`Mismatch`] reports the number of differing elements and the first [`MAX_REPORTED`] of
//! them, each with its index and both values printed for the type: floats as the shortest
//! decimal that identifies the value in its format plus the hex bits, `uN`/`sN` in decimal,
//! `bN` in hex.

use std::fmt;

use super::float;
use super::spec::BufferSpec;
use super::types::{ElemType, TypeClass};

/// How an output buffer is compared with the expected bytes.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Tolerance {
    /// Bit-exact.
    #[default]
    Exact,
    /// At most this many units in the last place apart.
    Ulp(u64),
    /// Absolute difference at most this.
    Abs(f64),
    /// Difference at most this times the larger magnitude.
    Rel(f64),
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tolerance::Exact => f.write_str("bit-exact"),
            Tolerance::Ulp(n) => write!(f, "ulp = {n}"),
            Tolerance::Abs(t) => write!(f, "abs = {t:e}"),
            Tolerance::Rel(t) => write!(f, "rel = {t:e}"),
        }
    }
}

/// How many differing elements a [`Mismatch`] lists.
pub const MAX_REPORTED: usize = 10;

/// One differing element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementDiff {
    /// Element index.
    pub index: usize,
    /// Expected bits (low bits).
    pub expected: u64,
    /// Actual bits (low bits).
    pub actual: u64,
}

/// Why an output does not match.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// One side does not have the buffer's size.
    Length {
        /// The buffer.
        buffer: String,
        /// The size the spec gives (`len * size`).
        spec_bytes: usize,
        /// The expected data's size.
        expected_bytes: usize,
        /// The actual data's size.
        actual_bytes: usize,
    },
    /// Some elements differ.
    Values {
        /// The buffer.
        buffer: String,
        /// Its element type.
        ty: ElemType,
        /// The tolerance applied.
        tolerance: Tolerance,
        /// Elements compared.
        len: usize,
        /// Elements that differ (at least 1).
        differing: usize,
        /// The first differing elements, at most [`MAX_REPORTED`], by index.
        first: Vec<ElementDiff>,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Length { buffer, spec_bytes, expected_bytes, actual_bytes } => write!(
                f,
                "buffer `{buffer}`: size mismatch: the spec gives {spec_bytes} bytes, expected \
                 data has {expected_bytes}, actual data has {actual_bytes}"
            ),
            Mismatch::Values { buffer, ty, tolerance, len, differing, first } => {
                write!(f, "buffer `{buffer}` ({ty}, {tolerance}): {differing} of {len} elements differ")?;
                for d in first {
                    write!(f, "\n  [{}] expected ", d.index)?;
                    write_elem(f, *ty, d.expected)?;
                    f.write_str(", actual ")?;
                    write_elem(f, *ty, d.actual)?;
                }
                if *differing > first.len() {
                    write!(f, "\n  ... and {} more", differing - first.len())?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Mismatch {}

/// Compares `actual` with `expected`, both raw little-endian contents of `buffer`.
pub fn compare(buffer: &BufferSpec, expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
    let spec_bytes = buffer.byte_len();
    if expected.len() != spec_bytes || actual.len() != spec_bytes {
        return Err(Mismatch::Length {
            buffer: buffer.name().to_owned(),
            spec_bytes,
            expected_bytes: expected.len(),
            actual_bytes: actual.len(),
        });
    }
    let (ty, tolerance) = (buffer.ty(), buffer.tolerance());
    let size = ty.size();
    let mut differing = 0;
    let mut first = Vec::new();
    for (index, (e, a)) in expected.chunks_exact(size).zip(actual.chunks_exact(size)).enumerate() {
        let (e, a) = (read_le(e), read_le(a));
        if !elements_match(ty, tolerance, e, a) {
            differing += 1;
            if first.len() < MAX_REPORTED {
                first.push(ElementDiff { index, expected: e, actual: a });
            }
        }
    }
    if differing == 0 {
        return Ok(());
    }
    Err(Mismatch::Values { buffer: buffer.name().to_owned(), ty, tolerance, len: buffer.len(), differing, first })
}

fn read_le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

/// Whether two elements of `ty` (bits in the low bits) match under `tolerance` (see the module
/// documentation). Integer types are always compared bit-exactly.
pub fn elements_match(ty: ElemType, tolerance: Tolerance, expected: u64, actual: u64) -> bool {
    let (e, a) = (expected & ty.mask(), actual & ty.mask());
    if e == a {
        return true;
    }
    if tolerance == Tolerance::Exact || !ty.is_float() {
        return false;
    }
    let (x, y) = (float::to_f64(ty, e), float::to_f64(ty, a));
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if x == y {
        return true;
    }
    if x.is_infinite() || y.is_infinite() {
        return false;
    }
    match tolerance {
        Tolerance::Exact => false,
        Tolerance::Ulp(n) => {
            let distance = (float::ordered_key(ty, e) - float::ordered_key(ty, a)).unsigned_abs();
            distance <= u128::from(n)
        }
        Tolerance::Abs(t) => (x - y).abs() <= t,
        Tolerance::Rel(t) => (x - y).abs() <= t * x.abs().max(y.abs()),
    }
}

/// Writes one element of `ty` for a report: floats as a value and hex bits, `uN`/`sN` in
/// decimal, `bN` in hex.
pub(crate) fn write_elem(f: &mut impl fmt::Write, ty: ElemType, bits: u64) -> fmt::Result {
    let bits = bits & ty.mask();
    let digits = ty.size() * 2;
    match (ty.class(), ty) {
        (TypeClass::Float, ElemType::F64) => {
            write!(f, "{:?} (0x{bits:0digits$x})", f64::from_bits(bits))
        }
        (TypeClass::Float, _) => {
            // f16, bf16 and f32 values are all exact f32 values; the shortest f32 decimal
            // identifies them.
            let value = float::to_f64(ty, bits) as f32;
            write!(f, "{value:?} (0x{bits:0digits$x})")
        }
        (TypeClass::Bits, _) => write!(f, "0x{bits:0digits$x}"),
        _ => write!(f, "{}", ty.int_value(bits)),
    }
}

/// One element formatted as in a [`Mismatch`] report.
pub fn format_elem(ty: ElemType, bits: u64) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = write_elem(&mut s, ty, bits);
    s
}

#[cfg(test)]
mod tests;
