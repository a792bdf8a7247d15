//! The form of one warpgroup MMA (`wgmma.mma_async`, SASS `HGMMA`/`IGMMA`/`QGMMA`): shape,
//! accumulator and operand types, where A comes from, transposes, negations and `.satfinite`,
//! packed into one immediate ([`GmmaForm::pack`]) that the PTX-stage `wgmma` and the SASS-stage
//! `HGMMA` carry as a source, so that lowering, selection, the encoder and both executors read
//! one description.
//!
//! Invariant: a [`GmmaForm`] that [`GmmaForm::check`] accepts is a combination the PTX ISA 9.0
//! allows (`wgmma.mma_async` "Valid type and shape combinations"): f16/bf16 (k16, f32 or — f16
//! only — f16 accumulators, transposes), tf32 (k8, f32), e4m3/e5m2 (k32, f32 or f16), s8/u8
//! (k32, s32, `.satfinite`); N a multiple of 8 from 8 to 256 (8-bit integers: 8, 16, 24, then
//! multiples of 16); negation only for the floating-point types.

use super::float::{self, BF16, F16, F64};
use super::mods::Rnd;

/// Element type of a warpgroup MMA's A or B.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GmmaType {
    /// binary16.
    F16,
    /// bfloat16.
    Bf16,
    /// TensorFloat-32 (an f32 of which sign, exponent and the top 10 fraction bits count).
    Tf32,
    /// FP8 E4M3 (bias 7, no infinities, S.1111.111 NaN).
    E4m3,
    /// FP8 E5M2 (bias 15, IEEE-like).
    E5m2,
    /// Signed 8-bit integer.
    S8,
    /// Unsigned 8-bit integer.
    U8,
}

/// Accumulator type of a warpgroup MMA.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GmmaAcc {
    /// f32, N/2 registers per lane.
    F32,
    /// f16 pairs, N/4 registers per lane.
    F16,
    /// s32, N/2 registers per lane.
    S32,
}

const TYPES: [(GmmaType, &str); 7] = [
    (GmmaType::F16, "f16"),
    (GmmaType::Bf16, "bf16"),
    (GmmaType::Tf32, "tf32"),
    (GmmaType::E4m3, "e4m3"),
    (GmmaType::E5m2, "e5m2"),
    (GmmaType::S8, "s8"),
    (GmmaType::U8, "u8"),
];

impl GmmaType {
    /// The PTX type name's type (`f16`, `e4m3`, ...).
    pub fn of_ptx(name: &str) -> Option<GmmaType> {
        TYPES.iter().find(|(_, n)| *n == name).map(|(t, _)| *t)
    }
    /// The PTX name.
    pub fn ptx(self) -> &'static str {
        TYPES[self as usize].1
    }
    /// Bytes per element in shared memory.
    pub fn bytes(self) -> usize {
        match self {
            GmmaType::F16 | GmmaType::Bf16 => 2,
            GmmaType::Tf32 => 4,
            _ => 1,
        }
    }
    /// Whether this is an 8-bit integer type.
    pub fn is_int(self) -> bool {
        matches!(self, GmmaType::S8 | GmmaType::U8)
    }
    /// The value of an element (its low [`GmmaType::bytes`] bytes of `bits`), exact in f64.
    pub fn value(self, bits: u32) -> f64 {
        let conv = |fmt, b: u32| f64::from_bits(float::convert(fmt, F64, u64::from(b), Rnd::Rn));
        match self {
            GmmaType::F16 => conv(F16, bits & 0xffff),
            GmmaType::Bf16 => conv(BF16, bits & 0xffff),
            GmmaType::Tf32 => f64::from(f32::from_bits(bits & 0xffff_e000)),
            GmmaType::E4m3 => fp8(bits as u8, 3, 7, false),
            GmmaType::E5m2 => fp8(bits as u8, 2, 15, true),
            GmmaType::S8 => f64::from(bits as u8 as i8),
            GmmaType::U8 => f64::from(bits as u8),
        }
    }
}

/// An 8-bit float with `m` fraction bits and exponent bias `bias`; `ieee`: the all-ones exponent
/// is infinity/NaN (E5M2), else only all-ones exponent and fraction is NaN (E4M3).
fn fp8(b: u8, m: u32, bias: i32, ieee: bool) -> f64 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e_bits = 7 - m;
    let (e, f) = (i32::from((b & 0x7f) >> m), u32::from(b) & ((1 << m) - 1));
    let e_max = (1 << e_bits) - 1;
    if ieee && e == e_max {
        return if f == 0 { sign * f64::INFINITY } else { f64::NAN };
    }
    if !ieee && e == e_max && f == (1 << m) - 1 {
        return f64::NAN;
    }
    let frac = f64::from(f) / f64::from(1u32 << m);
    if e == 0 { sign * frac * 2f64.powi(1 - bias) } else { sign * (1.0 + frac) * 2f64.powi(e - bias) }
}

/// One warpgroup MMA form (see the module doc).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GmmaForm {
    /// N of the m64nNk tile.
    pub n: u16,
    /// Accumulator type.
    pub acc: GmmaAcc,
    /// A's element type.
    pub a: GmmaType,
    /// B's element type.
    pub b: GmmaType,
    /// A comes from four registers per lane (PTX `wgmma ... d, {a0, a1, a2, a3}, b-desc`), not
    /// a shared-memory descriptor.
    pub a_regs: bool,
    /// A is MN-major (PTX imm-trans-a 1; descriptor A only).
    pub trans_a: bool,
    /// B is MN-major (imm-trans-b 1).
    pub trans_b: bool,
    /// A is negated (imm-scale-a -1).
    pub neg_a: bool,
    /// B is negated (imm-scale-b -1).
    pub neg_b: bool,
    /// `.satfinite` (integer accumulators clamp to the s32 range).
    pub satfinite: bool,
}

impl GmmaForm {
    /// K of the tile: 32 bytes of each operand row.
    pub fn k(&self) -> usize {
        32 / self.a.bytes()
    }
    /// Accumulator registers per lane.
    pub fn d_regs(&self) -> usize {
        if self.acc == GmmaAcc::F16 { usize::from(self.n) / 4 } else { usize::from(self.n) / 2 }
    }
    /// The PTX shape and types, `m64n64k16.f32.f16.f16`.
    pub fn ptx_name(&self) -> String {
        let acc = match self.acc {
            GmmaAcc::F32 => "f32",
            GmmaAcc::F16 => "f16",
            GmmaAcc::S32 => "s32",
        };
        format!("m64n{}k{}.{acc}.{}.{}", self.n, self.k(), self.a.ptx(), self.b.ptx())
    }

    /// Whether the PTX ISA allows this combination; the error names what it does not allow.
    pub fn check(&self) -> Result<(), String> {
        use GmmaType::*;
        let name = self.ptx_name();
        let types_ok = match (self.a, self.b, self.acc) {
            (F16, F16, GmmaAcc::F32 | GmmaAcc::F16) | (Bf16, Bf16, GmmaAcc::F32) | (Tf32, Tf32, GmmaAcc::F32) => true,
            (E4m3 | E5m2, E4m3 | E5m2, GmmaAcc::F32 | GmmaAcc::F16) => true,
            (S8 | U8, S8 | U8, GmmaAcc::S32) => true,
            _ => false,
        };
        if !types_ok {
            return Err(format!("wgmma.mma_async .{name} is not a valid type combination"));
        }
        let n = self.n;
        let n_ok = if self.a.is_int() {
            matches!(n, 8 | 16 | 24) || (n % 16 == 0 && (32..=256).contains(&n))
        } else {
            n % 8 == 0 && (8..=256).contains(&n)
        };
        if !n_ok {
            return Err(format!("wgmma.mma_async shape m64n{n}k{} is not valid for .{}", self.k(), self.a.ptx()));
        }
        if (self.trans_a || self.trans_b) && !matches!(self.a, F16 | Bf16) {
            return Err(format!("wgmma.mma_async .{name} cannot transpose its operands"));
        }
        if self.trans_a && self.a_regs {
            return Err("wgmma.mma_async with A in registers cannot transpose A".into());
        }
        if (self.neg_a || self.neg_b) && self.a.is_int() {
            return Err(format!("wgmma.mma_async .{name} cannot negate its operands"));
        }
        if self.satfinite && !self.a.is_int() {
            return Err(format!("wgmma.mma_async .{name} with .satfinite"));
        }
        Ok(())
    }

    /// The form as one immediate: bits 0–8 N, 9–10 accumulator, 11–13 A's type, 14–16 B's,
    /// 17 A in registers, 18/19 transpose A/B, 20/21 negate A/B, 22 `.satfinite`.
    pub fn pack(&self) -> i64 {
        let acc = self.acc as i64;
        i64::from(self.n)
            | acc << 9
            | (self.a as i64) << 11
            | (self.b as i64) << 14
            | i64::from(self.a_regs) << 17
            | i64::from(self.trans_a) << 18
            | i64::from(self.trans_b) << 19
            | i64::from(self.neg_a) << 20
            | i64::from(self.neg_b) << 21
            | i64::from(self.satfinite) << 22
    }

    /// The form [`GmmaForm::pack`] made, checked.
    pub fn unpack(v: i64) -> Result<GmmaForm, String> {
        let ty = |at: u32| TYPES.get((v >> at & 7) as usize).map(|(t, _)| *t);
        let acc = [GmmaAcc::F32, GmmaAcc::F16, GmmaAcc::S32].get((v >> 9 & 3) as usize).copied();
        let (Some(acc), Some(a), Some(b)) = (acc, ty(11), ty(14)) else {
            return Err(format!("{v:#x} is not a warpgroup MMA form"));
        };
        if v >> 23 != 0 {
            return Err(format!("{v:#x} is not a warpgroup MMA form"));
        }
        let bit = |k: u32| v >> k & 1 == 1;
        let f = GmmaForm {
            n: (v & 0x1ff) as u16,
            acc,
            a,
            b,
            a_regs: bit(17),
            trans_a: bit(18),
            trans_b: bit(19),
            neg_a: bit(20),
            neg_b: bit(21),
            satfinite: bit(22),
        };
        f.check()?;
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp8_values() {
        // E4M3: max normal 448, min subnormal 2^-9, NaN 0x7f; E5M2: max 57344, inf 0x7c.
        assert_eq!(GmmaType::E4m3.value(0x7e), 448.0);
        assert_eq!(GmmaType::E4m3.value(0x01), 2f64.powi(-9));
        assert_eq!(GmmaType::E4m3.value(0xb8), -1.0);
        assert!(GmmaType::E4m3.value(0xff).is_nan());
        assert_eq!(GmmaType::E5m2.value(0x7b), 57344.0);
        assert_eq!(GmmaType::E5m2.value(0x7c), f64::INFINITY);
        assert!(GmmaType::E5m2.value(0x7d).is_nan());
        assert_eq!(GmmaType::E5m2.value(0x3c), 1.0);
        assert_eq!(GmmaType::S8.value(0x80), -128.0);
        assert_eq!(GmmaType::U8.value(0x80), 128.0);
    }

    #[test]
    fn pack_round_trips_and_checks() {
        let f = GmmaForm {
            n: 256,
            acc: GmmaAcc::S32,
            a: GmmaType::U8,
            b: GmmaType::S8,
            a_regs: true,
            trans_a: false,
            trans_b: false,
            neg_a: false,
            neg_b: false,
            satfinite: true,
        };
        assert_eq!(GmmaForm::unpack(f.pack()), Ok(f));
        assert_eq!((f.k(), f.d_regs()), (32, 128));
        let bad = GmmaForm { n: 40, ..f };
        assert!(GmmaForm::unpack(bad.pack()).is_err());
        let bad = GmmaForm { trans_b: true, ..f };
        assert!(bad.check().is_err());
        let h = GmmaForm { n: 16, acc: GmmaAcc::F16, a: GmmaType::F16, b: GmmaType::F16, satfinite: false, ..f };
        assert_eq!((h.k(), h.d_regs()), (16, 4));
    }
}
