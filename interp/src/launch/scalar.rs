//! Numbers as written in a spec, their encoding as element bits, scalar parameters, and the
//! layout of the kernel parameter block.
//!
//! # Values
//!
//! A number in a spec is a TOML integer, a TOML float (including `nan`, `inf`, `-inf`), or a
//! string: `"0x..."` (hex digits, `_` separators allowed) is a raw bit pattern of the target
//! type, and a decimal string such as `"18446744073709551615"` is an integer (TOML integers stop
//! at `i64::MAX`, so the upper half of `u64`/`b64` needs a string). Encoding a [`Value`] for an
//! [`ElemType`] ([`encode_elem`]) follows these rules:
//!
//! - bit pattern: must fit in the type's width; used as is (for floats too: `"0x7FC00001"`
//!   writes that exact NaN).
//! - integer types: an integer must lie in the type's range (`uN`: `0 ..= 2^N-1`, `sN`:
//!   `-2^(N-1) ..= 2^(N-1)-1`, `bN`: `-2^(N-1) ..= 2^N-1`, either reading); a float is accepted
//!   only when it is integral (`3.0`) and then treated as that integer. Negative numbers are
//!   stored in two's complement.
//! - float types: the value is taken as an `f64` (an integer is first converted to the nearest
//!   `f64`) and rounded once to the type, to nearest, ties to even (see [`super::float`]). A
//!   finite value that rounds to infinity is rejected as out of range.
//!
//! # Scalar parameters
//!
//! A [`Scalar`] holds the little-endian bytes of one parameter value, its size and its
//! alignment: the natural alignment (= size) for element types; for `bytes`, the hex string in
//! memory order (first byte at the lowest address) and alignment 1 unless the spec's optional
//! `align` key (a power of two up to 256) says otherwise. `bytes` values must match the
//! `.param .align A .b8 name[N]` declaration: N bytes, and `align = A` wherever the alignment
//! changes the offset.
//!
//! # Parameter block layout
//!
//! [`param_layout`] places the parameters in declaration order, each at the next offset that is
//! a multiple of its alignment (buffer parameters are 8-byte device addresses, aligned to 8).
//! The block's size is the end of the last parameter, not rounded up. This is the CUDA ABI's
//! layout of kernel parameters.
//!
//! The spec alone cannot know the alignment of a struct or array parameter: a `bytes` scalar
//! without `align` is placed at alignment 1, which is wrong wherever the kernel declares
//! `.param .align 16 .b8 arr[32]` after an odd-sized parameter. An executor that has the
//! kernel's parameter declarations (from the PTX or the cubin) should therefore lay the block out
//! with those ([`ParamLayout::declared`]) and fill it with [`param_block_in`], which also checks
//! that the spec's parameters match the declared count and sizes.

use std::fmt;

use super::error::Problem;
use super::float;
use super::spec::Param;
use super::types::{ElemType, ScalarType, TypeClass};

/// A number as written in a spec, before it is encoded for a type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer (from a TOML integer or a decimal string).
    Int(i128),
    /// A float (from a TOML float).
    Float(f64),
    /// A raw bit pattern (from a `"0x..."` string).
    Bits(u64),
}

impl Value {
    /// Reads a TOML value as a number.
    pub fn from_toml(v: &toml::Value) -> Result<Value, Problem> {
        match v {
            toml::Value::Integer(i) => Ok(Value::Int(i128::from(*i))),
            toml::Value::Float(f) => Ok(Value::Float(*f)),
            toml::Value::String(s) => Value::parse_str(s),
            other => Err(Problem::WrongType {
                expected: "a number (integer, float, or \"0x...\" bit-pattern string)",
                found: other.type_str(),
            }),
        }
    }

    fn parse_str(s: &str) -> Result<Value, Problem> {
        let bad = || {
            Problem::Invalid(format!(
                "cannot read the string {s:?} as a number (expected \"0x<hex bits>\" or a decimal \
                 integer)"
            ))
        };
        let t = s.trim();
        if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            let digits: String = hex.chars().filter(|&c| c != '_').collect();
            if digits.is_empty() || digits.len() > 16 {
                return Err(bad());
            }
            return u64::from_str_radix(&digits, 16).map(Value::Bits).map_err(|_| bad());
        }
        let digits: String = t.chars().filter(|&c| c != '_').collect();
        let unsigned = digits.strip_prefix(['-', '+']).unwrap_or(&digits);
        if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        digits.parse::<i128>().map(Value::Int).map_err(|_| bad())
    }

    /// The value as an `f64` for float arithmetic (ramps, random ranges). A bit pattern is read
    /// as a value of `ty` when `ty` is a float type, as an unsigned integer otherwise.
    pub(crate) fn as_f64(self, ty: ElemType) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            Value::Bits(b) => float::to_f64(ty, b),
        }
    }

    /// The value as an integer of the integer type `ty`, range-checked like [`encode_elem`]: an
    /// integer (or integral float) stands for itself (so `-1` is -1 even for `bN`), a bit pattern
    /// is read as a `ty` value (sign-extended for `sN`).
    pub(crate) fn as_int(self, ty: ElemType) -> Result<i128, Problem> {
        match self {
            Value::Int(i) => check_int(ty, i, self),
            Value::Float(x) => match integral(x) {
                Some(i) => check_int(ty, i, self),
                None => Err(not_an_integer(ty, x)),
            },
            Value::Bits(_) => encode_elem(ty, self).map(|bits| ty.int_value(bits)),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Bits(b) => write!(f, "0x{b:x}"),
        }
    }
}

/// Encodes `v` as the bits of one `ty` element (in the low bits of the result), following the
/// rules in the module documentation.
pub fn encode_elem(ty: ElemType, v: Value) -> Result<u64, Problem> {
    match v {
        Value::Bits(b) if b & !ty.mask() == 0 => Ok(b),
        Value::Bits(_) => Err(Problem::OutOfRange {
            value: v.to_string(),
            target: ty.to_string(),
            range: format!("a bit pattern of at most {} bits", ty.bits()),
        }),
        _ if ty.is_float() => {
            let x = v.as_f64(ty);
            let bits = float::from_f64(ty, x);
            if x.is_finite() && float::to_f64(ty, bits).is_infinite() {
                return Err(Problem::OutOfRange {
                    value: v.to_string(),
                    target: ty.to_string(),
                    range: "it rounds to infinity; write inf or a bit pattern if that is meant".into(),
                });
            }
            Ok(bits)
        }
        Value::Int(i) => check_int(ty, i, v).map(|i| i as u64 & ty.mask()),
        Value::Float(x) => match integral(x) {
            Some(i) => check_int(ty, i, v).map(|i| i as u64 & ty.mask()),
            None => Err(not_an_integer(ty, x)),
        },
    }
}

/// `x` as an integer when it is a finite integral float of reasonable size.
fn integral(x: f64) -> Option<i128> {
    (x.is_finite() && x.fract() == 0.0 && x.abs() < 2f64.powi(100)).then_some(x as i128)
}

fn not_an_integer(ty: ElemType, x: f64) -> Problem {
    Problem::Invalid(format!("{x:?} is not an integer, which type {ty} needs"))
}

/// Checks that the integer `i` (written as `v`) lies in the range of the integer type `ty`.
fn check_int(ty: ElemType, i: i128, v: Value) -> Result<i128, Problem> {
    let (min, max) = (ty.int_min(), ty.int_max());
    if (min..=max).contains(&i) {
        return Ok(i);
    }
    let range = match ty.class() {
        TypeClass::Bits => format!("{min} ..= {max}, signed or unsigned"),
        _ => format!("{min} ..= {max}"),
    };
    Err(Problem::OutOfRange { value: v.to_string(), target: ty.to_string(), range })
}

/// One scalar kernel parameter: its type and little-endian bytes.
///
/// Invariants: `bytes` is non-empty; for an element type it has exactly that type's size; the
/// alignment is a power of two (the size for element types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scalar {
    ty: ScalarType,
    bytes: Vec<u8>,
    align: usize,
}

/// The largest `align` a `bytes` scalar may ask for.
pub const MAX_BYTES_ALIGN: usize = 256;

impl Scalar {
    /// A scalar of element type `ty` holding `v` (encoded by [`encode_elem`]).
    pub fn new(ty: ElemType, v: Value) -> Result<Scalar, Problem> {
        let bits = encode_elem(ty, v)?;
        Ok(Scalar::from_elem_bits(ty, bits))
    }

    /// A scalar of element type `ty` with the given bits (only the low bits are kept).
    pub fn from_elem_bits(ty: ElemType, bits: u64) -> Scalar {
        let bytes = (bits & ty.mask()).to_le_bytes()[..ty.size()].to_vec();
        Scalar { ty: ScalarType::Elem(ty), bytes, align: ty.size() }
    }

    /// A `bytes` scalar. `align` must be a power of two no larger than [`MAX_BYTES_ALIGN`].
    pub fn from_bytes(bytes: Vec<u8>, align: usize) -> Result<Scalar, Problem> {
        if bytes.is_empty() {
            return Err(Problem::Invalid("a bytes value needs at least one byte".into()));
        }
        if !align.is_power_of_two() || align > MAX_BYTES_ALIGN {
            return Err(Problem::OutOfRange {
                value: align.to_string(),
                target: "align".into(),
                range: format!("a power of two from 1 to {MAX_BYTES_ALIGN}"),
            });
        }
        Ok(Scalar { ty: ScalarType::Bytes, bytes, align })
    }

    /// Parses a `bytes` value: hex digit pairs in memory order; whitespace and `_` are ignored.
    pub fn parse_hex(text: &str) -> Result<Vec<u8>, Problem> {
        let t = text.trim();
        if t.starts_with("0x") || t.starts_with("0X") {
            return Err(Problem::Invalid("a bytes value is hex digits in memory order, without a 0x prefix".into()));
        }
        let digits: Vec<u8> = t.bytes().filter(|b| !b.is_ascii_whitespace() && *b != b'_').collect();
        if let Some(bad) = digits.iter().find(|b| !b.is_ascii_hexdigit()) {
            return Err(Problem::Invalid(format!("a bytes value must be hex digits, found {:?}", char::from(*bad))));
        }
        if !digits.len().is_multiple_of(2) {
            return Err(Problem::Invalid(format!(
                "a bytes value needs an even number of hex digits, found {}",
                digits.len()
            )));
        }
        Ok(digits.chunks_exact(2).map(|pair| (hex_digit(pair[0]) << 4) | hex_digit(pair[1])).collect())
    }

    /// The type.
    pub fn ty(&self) -> ScalarType {
        self.ty
    }

    /// The little-endian bytes (memory order).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Size in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// Alignment in bytes (a power of two).
    pub fn align(&self) -> usize {
        self.align
    }

    /// The value's bits for an element-type scalar.
    pub fn bits(&self) -> Option<u64> {
        match self.ty {
            ScalarType::Elem(_) => {
                let mut b = [0u8; 8];
                b[..self.bytes.len()].copy_from_slice(&self.bytes);
                Some(u64::from_le_bytes(b))
            }
            ScalarType::Bytes => None,
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.ty, self.bits()) {
            (ScalarType::Elem(t), Some(bits)) => {
                write!(f, "{t} ")?;
                super::compare::write_elem(f, t, bits)
            }
            _ => {
                f.write_str("bytes ")?;
                for b in &self.bytes {
                    write!(f, "{b:02x}")?;
                }
                write!(f, " (align {})", self.align)
            }
        }
    }
}

fn hex_digit(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b - b'A' + 10,
    }
}

/// Where one parameter sits in the parameter block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSlot {
    /// Byte offset from the start of the block (a multiple of `align`).
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// Alignment in bytes.
    pub align: usize,
}

/// The layout of the whole parameter block.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ParamLayout {
    /// One slot per parameter, in declaration order.
    pub slots: Vec<ParamSlot>,
    /// The end of the last parameter (0 without parameters).
    pub size: usize,
}

impl ParamLayout {
    /// The layout of declared parameters, given as `(size, align)` pairs in order (alignments
    /// that are not powers of two are treated as 1).
    pub fn declared(params: impl IntoIterator<Item = (usize, usize)>) -> ParamLayout {
        let mut slots = Vec::new();
        let mut end = 0usize;
        for (size, align) in params {
            let align = if align.is_power_of_two() { align } else { 1 };
            let offset = end.next_multiple_of(align);
            slots.push(ParamSlot { offset, size, align });
            end = offset + size;
        }
        ParamLayout { slots, size: end }
    }
}

/// The size and alignment of a buffer parameter (a 64-bit device address).
pub const POINTER_SIZE: usize = 8;

/// The size in bytes of a parameter's value.
pub fn param_size(param: &Param) -> usize {
    match param {
        Param::Scalar(s) => s.size(),
        Param::Buffer(_) | Param::Object(_) => POINTER_SIZE,
    }
}

/// Lays the parameters out at their alignment in declaration order (see the module
/// documentation for `bytes` scalars).
pub fn param_layout(params: &[Param]) -> ParamLayout {
    ParamLayout::declared(params.iter().map(|p| match p {
        Param::Scalar(s) => (s.size(), s.align()),
        Param::Buffer(_) | Param::Object(_) => (POINTER_SIZE, POINTER_SIZE),
    }))
}

/// Why a spec's parameters do not fit a kernel's declared parameters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamMismatch {
    /// Different numbers of parameters.
    #[error("the kernel declares {declared} parameters, the spec gives {given}")]
    Count {
        /// Declared by the kernel.
        declared: usize,
        /// Given by the spec.
        given: usize,
    },
    /// A parameter of a different size.
    #[error("param[{index}]: the kernel declares {declared} bytes, the spec gives {given} ({param})")]
    Size {
        /// The parameter's position.
        index: usize,
        /// Declared size.
        declared: usize,
        /// The spec value's size.
        given: usize,
        /// The spec's parameter, printed.
        param: String,
    },
}

/// Builds the parameter block in a layout declared by the kernel, checking that the spec's
/// parameters match it in count and size. Padding bytes are zero.
pub fn param_block_in(
    params: &[Param],
    layout: &ParamLayout,
    mut address_of: impl FnMut(&str) -> u64,
) -> Result<Vec<u8>, ParamMismatch> {
    if params.len() != layout.slots.len() {
        return Err(ParamMismatch::Count { declared: layout.slots.len(), given: params.len() });
    }
    for (index, (p, slot)) in params.iter().zip(&layout.slots).enumerate() {
        if param_size(p) != slot.size {
            return Err(ParamMismatch::Size { index, declared: slot.size, given: param_size(p), param: p.to_string() });
        }
    }
    let end = layout.slots.iter().map(|s| s.offset + s.size).max().unwrap_or(0);
    let mut block = vec![0u8; end.max(layout.size)];
    for (p, slot) in params.iter().zip(&layout.slots) {
        let dst = &mut block[slot.offset..slot.offset + slot.size];
        match p {
            Param::Scalar(s) => dst.copy_from_slice(s.bytes()),
            Param::Buffer(name) => dst.copy_from_slice(&address_of(name).to_le_bytes()),
            Param::Object(o) => dst.copy_from_slice(&o.handle.to_le_bytes()),
        }
    }
    Ok(block)
}

/// Builds the parameter block in the spec's own layout ([`param_layout`]): scalars' bytes and,
/// for each buffer parameter, the address `address_of(buffer name)` as 8 little-endian bytes.
/// Padding bytes are zero.
pub fn param_block(params: &[Param], address_of: impl FnMut(&str) -> u64) -> Vec<u8> {
    // The layout is derived from the parameters themselves, so it always fits.
    param_block_in(params, &param_layout(params), address_of).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(ty: &str, v: Value) -> Result<u64, Problem> {
        encode_elem(ElemType::from_name(ty).unwrap(), v)
    }

    #[test]
    fn integer_encoding_and_ranges() {
        assert_eq!(enc("u32", Value::Int(512)), Ok(512));
        assert_eq!(enc("s8", Value::Int(-1)), Ok(0xff));
        assert_eq!(enc("s64", Value::Int(-2)), Ok(u64::MAX - 1));
        assert_eq!(enc("b16", Value::Int(-1)), Ok(0xffff));
        assert_eq!(enc("b16", Value::Int(65535)), Ok(0xffff));
        assert_eq!(enc("u64", Value::Int(u64::MAX as i128)), Ok(u64::MAX));
        assert_eq!(enc("u32", Value::Float(7.0)), Ok(7));
        assert!(matches!(enc("u8", Value::Int(256)), Err(Problem::OutOfRange { .. })));
        assert!(matches!(enc("u8", Value::Int(-1)), Err(Problem::OutOfRange { .. })));
        assert!(matches!(enc("s8", Value::Int(128)), Err(Problem::OutOfRange { .. })));
        assert!(matches!(enc("b8", Value::Int(-129)), Err(Problem::OutOfRange { .. })));
        assert!(matches!(enc("u32", Value::Float(1.5)), Err(Problem::Invalid(_))));
        assert!(matches!(enc("u32", Value::Float(f64::NAN)), Err(Problem::Invalid(_))));
        assert_eq!(enc("u16", Value::Bits(0xffff)), Ok(0xffff));
        assert!(matches!(enc("u16", Value::Bits(0x1_0000)), Err(Problem::OutOfRange { .. })));
    }

    #[test]
    fn float_encoding() {
        assert_eq!(enc("f32", Value::Float(2.5)), Ok(0x4020_0000));
        assert_eq!(enc("f32", Value::Int(1)), Ok(0x3F80_0000));
        assert_eq!(enc("f64", Value::Float(-0.0)), Ok(1 << 63));
        assert_eq!(enc("f16", Value::Float(0.1)), Ok(0x2E66));
        assert_eq!(enc("bf16", Value::Float(1.0)), Ok(0x3F80));
        assert_eq!(enc("f16", Value::Float(f64::INFINITY)), Ok(0x7C00));
        assert_eq!(enc("f32", Value::Bits(0x7FC0_0001)), Ok(0x7FC0_0001));
        assert!(matches!(enc("f16", Value::Float(65520.0)), Err(Problem::OutOfRange { .. })));
        assert!(matches!(enc("f32", Value::Float(1e39)), Err(Problem::OutOfRange { .. })));
        assert_eq!(enc("f16", Value::Float(65519.0)), Ok(0x7BFF));
    }

    #[test]
    fn strings_as_numbers() {
        let s = |t: &str| Value::from_toml(&toml::Value::String(t.into()));
        assert_eq!(s("0xFF_FF"), Ok(Value::Bits(0xffff)));
        assert_eq!(s("18446744073709551615"), Ok(Value::Int(u64::MAX as i128)));
        assert_eq!(s("-5"), Ok(Value::Int(-5)));
        assert!(s("0x").is_err());
        assert!(s("0x11112222333344445").is_err());
        assert!(s("twelve").is_err());
        assert!(s("1.5").is_err());
        assert!(Value::from_toml(&toml::Value::Boolean(true)).is_err());
    }

    #[test]
    fn hex_bytes() {
        assert_eq!(Scalar::parse_hex("0a0B ff_00"), Ok(vec![0x0a, 0x0b, 0xff, 0x00]));
        assert!(Scalar::parse_hex("abc").is_err());
        assert!(Scalar::parse_hex("0x00").is_err());
        assert!(Scalar::parse_hex("zz").is_err());
        assert!(Scalar::from_bytes(vec![], 1).is_err());
        assert!(Scalar::from_bytes(vec![1], 3).is_err());
        assert!(Scalar::from_bytes(vec![1], 512).is_err());
    }

    #[test]
    fn mixed_layout() {
        let params = vec![
            Param::Scalar(Scalar::new(ElemType::U8, Value::Int(7)).unwrap()), // 0..1
            Param::Buffer("x".into()),                                        // 8..16
            Param::Scalar(Scalar::new(ElemType::F16, Value::Float(1.0)).unwrap()), // 16..18
            Param::Scalar(Scalar::new(ElemType::U32, Value::Int(512)).unwrap()), // 20..24
            Param::Scalar(Scalar::from_bytes(vec![1, 2, 3], 1).unwrap()),     // 24..27
            Param::Scalar(Scalar::new(ElemType::F64, Value::Float(2.0)).unwrap()), // 32..40
            Param::Scalar(Scalar::from_bytes(vec![9; 12], 16).unwrap()),      // 48..60
            Param::Scalar(Scalar::new(ElemType::S16, Value::Int(-2)).unwrap()), // 60..62
        ];
        let layout = param_layout(&params);
        let offsets: Vec<(usize, usize)> = layout.slots.iter().map(|s| (s.offset, s.size)).collect();
        assert_eq!(offsets, [(0, 1), (8, 8), (16, 2), (20, 4), (24, 3), (32, 8), (48, 12), (60, 2)]);
        assert_eq!(layout.size, 62);

        let block = param_block(&params, |name| {
            assert_eq!(name, "x");
            0x1122_3344_5566_7788
        });
        assert_eq!(block.len(), 62);
        assert_eq!(block[0], 7);
        assert_eq!(&block[1..8], &[0; 7]);
        assert_eq!(&block[8..16], &0x1122_3344_5566_7788u64.to_le_bytes());
        assert_eq!(&block[16..18], &[0x00, 0x3C]);
        assert_eq!(&block[20..24], &512u32.to_le_bytes());
        assert_eq!(&block[24..27], &[1, 2, 3]);
        assert_eq!(&block[32..40], &2.0f64.to_le_bytes());
        assert_eq!(&block[48..60], &[9; 12]);
        assert_eq!(&block[60..62], &(-2i16).to_le_bytes());
        assert_eq!(param_layout(&[]), ParamLayout::default());
    }

    #[test]
    fn declared_layout() {
        let params = vec![
            Param::Scalar(Scalar::new(ElemType::U8, Value::Int(1)).unwrap()),
            Param::Scalar(Scalar::from_bytes(vec![7; 32], 1).unwrap()),
        ];
        // The kernel declares `.param .u8 a, .param .align 16 .b8 arr[32]`.
        let declared = ParamLayout::declared([(1, 1), (32, 16)]);
        assert_eq!(declared.slots[1].offset, 16);
        assert_eq!(param_layout(&params).slots[1].offset, 1);
        let block = param_block_in(&params, &declared, |_| 0).unwrap();
        assert_eq!(block.len(), 48);
        assert_eq!(&block[16..48], &[7; 32]);
        assert_eq!(
            param_block_in(&params, &ParamLayout::declared([(1, 1)]), |_| 0),
            Err(ParamMismatch::Count { declared: 1, given: 2 })
        );
        let err = param_block_in(&params, &ParamLayout::declared([(2, 2), (32, 16)]), |_| 0).unwrap_err();
        assert_eq!(err.to_string(), "param[0]: the kernel declares 2 bytes, the spec gives 1 (u8 1)");
    }

    #[test]
    fn scalar_display() {
        let s = Scalar::new(ElemType::F32, Value::Float(2.5)).unwrap();
        assert_eq!(s.to_string(), "f32 2.5 (0x40200000)");
        let b = Scalar::from_bytes(vec![0xab, 1], 4).unwrap();
        assert_eq!(b.to_string(), "bytes ab01 (align 4)");
    }
}
