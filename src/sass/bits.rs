//! Bit-field helpers over a 128-bit instruction word.
//!
//! Invariants: [`get`] never panics (out-of-range positions read as 0); [`put`] refuses a value
//! that does not fit its field or a field that leaves the 128-bit word, so an operand that does
//! not fit is an encode error, never a silently truncated word.

use super::EncodeError;

/// A mask of `width` ones starting at bit `lo` (empty when the range leaves the word).
pub fn mask(lo: u32, width: u32) -> u128 {
    if width == 0 || lo >= 128 {
        return 0;
    }
    let ones = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
    ones << lo
}

/// Reads `width` bits at `lo`.
pub fn get(word: u128, lo: u32, width: u32) -> u64 {
    if lo >= 128 || width == 0 {
        return 0;
    }
    let v = (word >> lo) & mask(0, width.min(64));
    v as u64
}

/// Writes `value` into `width` bits at `lo`, checking that it fits.
pub fn put(word: &mut u128, lo: u32, width: u32, value: u64, what: &'static str) -> Result<(), EncodeError> {
    if width == 0 || width > 64 || lo + width > 128 {
        return Err(EncodeError::Field { what, value, width });
    }
    if width < 64 && value >> width != 0 {
        return Err(EncodeError::Field { what, value, width });
    }
    *word = (*word & !mask(lo, width)) | (u128::from(value) << lo);
    Ok(())
}

/// Writes a signed value into a `width`-bit two's-complement field, checking its range.
pub fn put_signed(word: &mut u128, lo: u32, width: u32, value: i64, what: &'static str) -> Result<(), EncodeError> {
    let min = -(1i128 << (width - 1));
    let max = (1i128 << (width - 1)) - 1;
    if !(1..=64).contains(&width) || i128::from(value) < min || i128::from(value) > max {
        return Err(EncodeError::Field { what, value: value as u64, width });
    }
    put(word, lo, width, (value as u64) & (mask(0, width) as u64), what)
}

/// Reads a signed `width`-bit two's-complement field.
pub fn get_signed(word: u128, lo: u32, width: u32) -> i64 {
    let v = get(word, lo, width);
    if width == 0 || width >= 64 {
        return v as i64;
    }
    let shift = 64 - width;
    ((v << shift) as i64) >> shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_get_and_ranges() {
        let mut w = 0u128;
        put(&mut w, 16, 8, 0xff, "rd").unwrap();
        assert_eq!(get(w, 16, 8), 0xff);
        assert!(put(&mut w, 16, 8, 0x100, "rd").is_err());
        assert!(put(&mut w, 124, 8, 1, "x").is_err());
        put_signed(&mut w, 40, 24, -4, "off").unwrap();
        assert_eq!(get_signed(w, 40, 24), -4);
        assert!(put_signed(&mut w, 40, 24, 1 << 23, "off").is_err());
        assert_eq!(get(w, 200, 8), 0);
    }
}
