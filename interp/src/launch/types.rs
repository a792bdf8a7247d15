//! Element and scalar types of a launch spec.
//!
//! The names are PTX's fundamental type names without the dot (`u32`, `f16`, `b64`, ...). An
//! [`ElemType`] is what a buffer holds and what a scalar parameter is; [`ScalarType`] adds
//! `bytes`, an opaque byte string for struct and array parameters.
//!
//! Invariants: every type has a size of 1, 2, 4 or 8 bytes and its natural alignment equals its
//! size; [`ElemType::name`] and [`ElemType::from_name`] are inverse.

use std::fmt;

/// How the bits of an element are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeClass {
    /// `u8` ... `u64`: unsigned integers.
    Unsigned,
    /// `s8` ... `s64`: two's-complement integers.
    Signed,
    /// `b8` ... `b64`: untyped bits; treated as integers (either signedness) by the spec.
    Bits,
    /// `f16`, `bf16`, `f32`, `f64`: IEEE 754 binary formats (bfloat16 for `bf16`).
    Float,
}

/// The type of one buffer element or one non-`bytes` scalar parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElemType {
    /// 8-bit unsigned integer.
    U8,
    /// 8-bit signed integer.
    S8,
    /// 16-bit unsigned integer.
    U16,
    /// 16-bit signed integer.
    S16,
    /// 32-bit unsigned integer.
    U32,
    /// 32-bit signed integer.
    S32,
    /// 64-bit unsigned integer.
    U64,
    /// 64-bit signed integer.
    S64,
    /// IEEE 754 binary16.
    F16,
    /// bfloat16 (the upper half of a binary32).
    Bf16,
    /// IEEE 754 binary32.
    F32,
    /// IEEE 754 binary64.
    F64,
    /// 8 untyped bits.
    B8,
    /// 16 untyped bits.
    B16,
    /// 32 untyped bits.
    B32,
    /// 64 untyped bits.
    B64,
}

impl ElemType {
    /// Every element type, in the order the contract lists them.
    pub const ALL: [ElemType; 16] = [
        ElemType::U8,
        ElemType::S8,
        ElemType::U16,
        ElemType::S16,
        ElemType::U32,
        ElemType::S32,
        ElemType::U64,
        ElemType::S64,
        ElemType::F16,
        ElemType::Bf16,
        ElemType::F32,
        ElemType::F64,
        ElemType::B8,
        ElemType::B16,
        ElemType::B32,
        ElemType::B64,
    ];

    /// The spec's name of the type (`"u32"`, `"bf16"`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::S8 => "s8",
            ElemType::U16 => "u16",
            ElemType::S16 => "s16",
            ElemType::U32 => "u32",
            ElemType::S32 => "s32",
            ElemType::U64 => "u64",
            ElemType::S64 => "s64",
            ElemType::F16 => "f16",
            ElemType::Bf16 => "bf16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::B8 => "b8",
            ElemType::B16 => "b16",
            ElemType::B32 => "b32",
            ElemType::B64 => "b64",
        }
    }

    /// The type named `name`, if any.
    pub fn from_name(name: &str) -> Option<ElemType> {
        ElemType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Size in bytes (also the natural alignment).
    pub const fn size(self) -> usize {
        self.bits() as usize / 8
    }

    /// Width in bits.
    pub const fn bits(self) -> u32 {
        match self {
            ElemType::U8 | ElemType::S8 | ElemType::B8 => 8,
            ElemType::U16 | ElemType::S16 | ElemType::B16 | ElemType::F16 | ElemType::Bf16 => 16,
            ElemType::U32 | ElemType::S32 | ElemType::B32 | ElemType::F32 => 32,
            ElemType::U64 | ElemType::S64 | ElemType::B64 | ElemType::F64 => 64,
        }
    }

    /// The mask of the low [`bits`](Self::bits) bits of a `u64`.
    pub const fn mask(self) -> u64 {
        u64::MAX >> (64 - self.bits())
    }

    /// How the bits are interpreted.
    pub const fn class(self) -> TypeClass {
        match self {
            ElemType::U8 | ElemType::U16 | ElemType::U32 | ElemType::U64 => TypeClass::Unsigned,
            ElemType::S8 | ElemType::S16 | ElemType::S32 | ElemType::S64 => TypeClass::Signed,
            ElemType::B8 | ElemType::B16 | ElemType::B32 | ElemType::B64 => TypeClass::Bits,
            ElemType::F16 | ElemType::Bf16 | ElemType::F32 | ElemType::F64 => TypeClass::Float,
        }
    }

    /// Whether the type is one of the floating-point formats.
    pub const fn is_float(self) -> bool {
        matches!(self.class(), TypeClass::Float)
    }

    /// The smallest integer value a decimal number may have for this type: 0 for `uN`,
    /// -2^(N-1) for `sN` and `bN` (a `bN` accepts both signed and unsigned readings).
    /// Meaningless for floats.
    pub(crate) fn int_min(self) -> i128 {
        match self.class() {
            TypeClass::Unsigned => 0,
            _ => -(1i128 << (self.bits() - 1)),
        }
    }

    /// The largest integer value a decimal number may have for this type: 2^(N-1)-1 for `sN`,
    /// 2^N-1 for `uN` and `bN`. Meaningless for floats.
    pub(crate) fn int_max(self) -> i128 {
        match self.class() {
            TypeClass::Signed => (1i128 << (self.bits() - 1)) - 1,
            _ => (1i128 << self.bits()) - 1,
        }
    }

    /// Reads the low [`bits`](Self::bits) of `bits` as an integer of this type (sign-extended
    /// for `sN`, zero-extended otherwise). Meaningless for floats.
    pub(crate) fn int_value(self, bits: u64) -> i128 {
        let bits = bits & self.mask();
        match self.class() {
            TypeClass::Signed => {
                let shift = 64 - self.bits();
                i128::from(((bits << shift) as i64) >> shift)
            }
            _ => i128::from(bits),
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of a scalar kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// A value of an element type.
    Elem(ElemType),
    /// An opaque byte string, written in the spec as hex (struct and array parameters).
    Bytes,
}

impl ScalarType {
    /// The type named `name` (an element type name or `"bytes"`), if any.
    pub fn from_name(name: &str) -> Option<ScalarType> {
        if name == "bytes" { Some(ScalarType::Bytes) } else { ElemType::from_name(name).map(ScalarType::Elem) }
    }

    /// The spec's name of the type.
    pub const fn name(self) -> &'static str {
        match self {
            ScalarType::Elem(t) => t.name(),
            ScalarType::Bytes => "bytes",
        }
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The list of element type names, for error messages.
pub(crate) const ELEM_TYPE_NAMES: &str = "u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64 b8 b16 b32 b64";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in ElemType::ALL {
            assert_eq!(ElemType::from_name(t.name()), Some(t));
            assert_eq!(ScalarType::from_name(t.name()), Some(ScalarType::Elem(t)));
            assert!(ELEM_TYPE_NAMES.split(' ').any(|n| n == t.name()));
        }
        assert_eq!(ScalarType::from_name("bytes"), Some(ScalarType::Bytes));
        assert_eq!(ElemType::from_name("f128"), None);
        assert_eq!(ElemType::from_name("U32"), None);
    }

    #[test]
    fn sizes_and_ranges() {
        assert_eq!(ElemType::Bf16.size(), 2);
        assert_eq!(ElemType::B64.size(), 8);
        assert_eq!(ElemType::S8.int_min(), -128);
        assert_eq!(ElemType::S8.int_max(), 127);
        assert_eq!(ElemType::B8.int_min(), -128);
        assert_eq!(ElemType::B8.int_max(), 255);
        assert_eq!(ElemType::U64.int_max(), u64::MAX as i128);
        assert_eq!(ElemType::S16.int_value(0xffff), -1);
        assert_eq!(ElemType::U16.int_value(0xffff), 65535);
    }
}
