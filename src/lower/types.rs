//! PTX types and literals as Ori sees them: data types ([`Ty`]), the register class a PTX
//! register of a type lives in, and immediates.
//!
//! Invariants: sub-word integer and f16 registers live in one 32-bit register (`r32`); 64-bit
//! types in a pair (`r64`); `.b128` in a quad (`r128`); `.pred` in a predicate (`p`).
//! `.f16`, `.bf16` and the packed `.f16x2`/`.bf16x2` are Ori types; the float types Ori does
//! not model (`.tf32`, `.e4m3`, `.e5m2`, ...) are [`None`] from [`ty_of`], so their
//! instructions are reported as unsupported, though registers of those types can still be
//! declared ([`class_of`]).

use crate::ori::{Imm, RegClass, Ty};
use crate::ptx::ast::{Expr, ExprKind, FloatLit, IntLit, UnOp};

/// The Ori data type of a PTX type keyword (with or without the dot).
pub fn ty_of(text: &str) -> Option<Ty> {
    Ty::from_name(text.trim_start_matches('.'))
}

/// The register class holding a value of PTX type `text` (`None`: not a register type).
pub fn class_of(text: &str) -> Option<RegClass> {
    let t = text.trim_start_matches('.');
    Some(match t {
        "pred" => RegClass::P,
        "b8" | "u8" | "s8" | "b16" | "u16" | "s16" | "f16" | "bf16" | "b32" | "u32" | "s32" | "f32" | "f16x2"
        | "bf16x2" | "tf32" | "e4m3x2" | "e5m2x2" => RegClass::R32,
        "b64" | "u64" | "s64" | "f64" => RegClass::R64,
        "b128" => RegClass::R128,
        _ => return None,
    })
}

/// The size in bytes of a PTX type (`None` for opaque types).
pub fn size_of(text: &str) -> Option<u64> {
    let t = text.trim_start_matches('.');
    Some(match t {
        "pred" => 1,
        "b8" | "u8" | "s8" | "e4m3" | "e5m2" => 1,
        "b16" | "u16" | "s16" | "f16" | "bf16" | "e4m3x2" | "e5m2x2" => 2,
        "b32" | "u32" | "s32" | "f32" | "f16x2" | "bf16x2" | "tf32" => 4,
        "b64" | "u64" | "s64" | "f64" => 8,
        "b128" => 16,
        _ => return None,
    })
}

/// The register class of an Ori type (sub-word types in one 32-bit register).
pub fn class_of_ty(t: Ty) -> RegClass {
    match t.regs() {
        0 => RegClass::P,
        1 => RegClass::R32,
        2 => RegClass::R64,
        _ => RegClass::R128,
    }
}

/// The unsigned bits type of a width in bytes.
pub fn bits_ty(bytes: u64) -> Ty {
    match bytes {
        1 => Ty::B8,
        2 => Ty::B16,
        4 => Ty::B32,
        8 => Ty::B64,
        _ => Ty::B128,
    }
}

/// The value of an integer literal as two's-complement bits (`None`: out of 64-bit range).
pub fn int_value(l: &IntLit) -> Option<i64> {
    l.value().map(|v| v as i64)
}

/// The bits of a float literal in the format of `ty` (f32 or f64): hex forms exactly, decimal
/// forms rounded to nearest.
pub fn float_bits(l: &FloatLit, ty: Ty) -> Option<Imm> {
    let t = &l.text;
    if let Some(h) = t.strip_prefix("0f").or_else(|| t.strip_prefix("0F")) {
        let b = u32::from_str_radix(h, 16).ok()?;
        return Some(if ty == Ty::F64 { Imm::F64(f64::from(f32::from_bits(b)).to_bits()) } else { Imm::F32(b) });
    }
    if let Some(h) = t.strip_prefix("0d").or_else(|| t.strip_prefix("0D")) {
        let b = u64::from_str_radix(h, 16).ok()?;
        return Some(if ty == Ty::F64 { Imm::F64(b) } else { Imm::F32((f64::from_bits(b) as f32).to_bits()) });
    }
    let v: f64 = t.parse().ok()?;
    Some(if ty == Ty::F64 { Imm::F64(v.to_bits()) } else { Imm::F32((v as f32).to_bits()) })
}

/// Evaluates a constant integer expression (literals, operators, no symbols).
pub fn const_int(e: &Expr) -> Option<i64> {
    use crate::ptx::ast::BinOp::*;
    Some(match &e.kind {
        ExprKind::Int(l) => int_value(l)?,
        ExprKind::Unary(op, x) => {
            let v = const_int(x)?;
            match op {
                UnOp::Neg => v.wrapping_neg(),
                UnOp::Not => i64::from(v == 0),
                UnOp::BitNot => !v,
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_int(a)?, const_int(b)?);
            match op {
                Mul => a.wrapping_mul(b),
                Div => a.checked_div(b)?,
                Rem => a.checked_rem(b)?,
                Add => a.wrapping_add(b),
                Sub => a.wrapping_sub(b),
                Shl => a.wrapping_shl(b as u32),
                Shr => a.wrapping_shr(b as u32),
                Lt => i64::from(a < b),
                Gt => i64::from(a > b),
                Le => i64::from(a <= b),
                Ge => i64::from(a >= b),
                Eq => i64::from(a == b),
                Ne => i64::from(a != b),
                BitAnd => a & b,
                BitXor => a ^ b,
                BitOr => a | b,
                And => i64::from(a != 0 && b != 0),
                Or => i64::from(a != 0 || b != 0),
            }
        }
        ExprKind::Cond(c, a, b) => {
            if const_int(c)? != 0 {
                const_int(a)?
            } else {
                const_int(b)?
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_classes() {
        assert_eq!(ty_of(".u32"), Some(Ty::U32));
        assert_eq!(ty_of(".bf16"), Some(Ty::BF16));
        assert_eq!(ty_of(".f16x2"), Some(Ty::F16x2));
        assert_eq!(ty_of(".tf32"), Some(Ty::TF32));
        assert_eq!(class_of(".b16"), Some(RegClass::R32));
        assert_eq!(class_of(".f64"), Some(RegClass::R64));
        assert_eq!(class_of(".pred"), Some(RegClass::P));
        assert_eq!(size_of(".b128"), Some(16));
    }

    #[test]
    fn float_literals() {
        let l = |t: &str| FloatLit { text: t.into(), span: Default::default() };
        assert_eq!(float_bits(&l("0f3F800000"), Ty::F32), Some(Imm::F32(0x3F80_0000)));
        assert_eq!(float_bits(&l("0f3F800000"), Ty::F64), Some(Imm::F64(1f64.to_bits())));
        assert_eq!(float_bits(&l("1.5"), Ty::F64), Some(Imm::F64(1.5f64.to_bits())));
    }
}
