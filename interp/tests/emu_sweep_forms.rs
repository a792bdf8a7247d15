//! Property tests of the emulator meanings the instruction-form sweep (issue 22) added:
//! `I2F.F16`/`I2F.BF16` of every integer type and rounding, `FRND.F16`, `HADD2.F32.SAT`,
//! `FMNMX.XORSIGN` and `HMNMX2.XORSIGN`, `FSET[.BF]` and `F2F.F64.F16`, each against a reference
//! written here from the PTX ISA's definition (`cvt`, `cvt.rzi`/`rmi`/`rpi`/`rni`,
//! `cvt.sat.f32.f16`, `min/max.xorsign.abs`, `set`) with Rust's f64/f32 arithmetic and a
//! half-precision decoder and exhaustive-search encoder of its own (every binary16/bfloat16 value
//! is exact in f64). Operands are full width and edge-biased (0, ±1, extremes of every integer
//! width, ±0, subnormals, ±inf, NaNs of both signs).

use interp::emu::alu::{self, BoolOp, Cmp, IntRnd, IntTy, Rnd};
use interp::emu::convert;
use proptest::prelude::*;

#[path = "support/edge_strategy.rs"]
mod edge_strategy;
use edge_strategy::edge_biased;

/// A half-precision format: fraction bits and exponent bits (binary16 10/5, bfloat16 7/8).
#[derive(Clone, Copy, Debug)]
struct Half {
    frac: u32,
    exp: u32,
}

const F16: Half = Half { frac: 10, exp: 5 };
const BF16: Half = Half { frac: 7, exp: 8 };

impl Half {
    fn inf(self) -> u16 {
        (((1u32 << self.exp) - 1) << self.frac) as u16
    }
    /// The largest finite pattern.
    fn max(self) -> u16 {
        self.inf() - 1
    }
    fn is_nan(self, h: u16) -> bool {
        h & 0x7fff > self.inf()
    }
    /// The exact value of `h`.
    fn value(self, h: u16) -> f64 {
        let bias = (1i32 << (self.exp - 1)) - 1;
        let e = i32::from((h & 0x7fff) >> self.frac);
        let m = f64::from(h & ((1 << self.frac) - 1));
        let mag = if h & 0x7fff == self.inf() {
            f64::INFINITY
        } else if self.is_nan(h) {
            f64::NAN
        } else if e == 0 {
            m * 2f64.powi(1 - bias - self.frac as i32)
        } else {
            (1.0 + m / f64::from(1u32 << self.frac)) * 2f64.powi(e - bias)
        };
        if h & 0x8000 != 0 { -mag } else { mag }
    }
    /// The largest non-negative pattern whose value is <= `x` (`x` >= 0, finite), by binary
    /// search over the patterns (monotonic in value).
    fn floor_pattern(self, le: impl Fn(f64) -> bool) -> u16 {
        let (mut lo, mut hi) = (0u16, self.max());
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if le(self.value(mid)) { lo = mid } else { hi = mid - 1 }
        }
        lo
    }
    /// The pattern of an exactly representable finite value `x`.
    fn encode_exact(self, x: f64) -> u16 {
        let p = self.floor_pattern(|v| v <= x.abs());
        assert_eq!(self.value(p), x.abs(), "{x} is not representable");
        if x.is_sign_negative() { p | 0x8000 } else { p }
    }
}

/// `n` (an integer) converted to the format with IEEE rounding `rnd`, by search: the two
/// neighbouring patterns, then the rule.
fn ref_int_to_half(fmt: Half, n: i128, rnd: Rnd) -> u16 {
    if n == 0 {
        return 0;
    }
    let (neg, m) = (n < 0, n.unsigned_abs());
    // x <= m exactly: every value compared here is an integer or below 1.
    let le = |x: f64| x.ceil() as u128 <= m;
    let lo = fmt.floor_pattern(le);
    let sign = if neg { 0x8000u16 } else { 0 };
    let lo_v = fmt.value(lo) as u128;
    if lo_v == m {
        return sign | lo;
    }
    // hi: the next pattern; beyond the largest finite one, the value 2^(emax+1) stands for
    // the rounding's infinity (IEEE's overflow threshold).
    let hi = lo + 1;
    let hi_v = if hi == fmt.inf() { 2f64.powi(1 << (fmt.exp - 1)) as u128 } else { fmt.value(hi) as u128 };
    let up = match rnd {
        Rnd::Rz => false,
        Rnd::Rp => !neg,
        Rnd::Rm => neg,
        // At or beyond 2^(emax+1) round-to-nearest gives the infinity.
        Rnd::Rn if m >= hi_v => true,
        Rnd::Rn => {
            let (d_lo, d_hi) = (m - lo_v, hi_v - m);
            d_hi < d_lo || (d_hi == d_lo && lo & 1 == 1)
        }
    };
    sign | if up { hi } else { lo }
}

const RNDS: [Rnd; 4] = [Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp];
const INTS: [IntTy; 8] = [IntTy::U8, IntTy::S8, IntTy::U16, IntTy::S16, IntTy::U32, IntTy::S32, IntTy::U64, IntTy::S64];

fn int_value(ty: IntTy, x: u64) -> i128 {
    match ty {
        IntTy::U8 => i128::from(x as u8),
        IntTy::S8 => i128::from(x as u8 as i8),
        IntTy::U16 => i128::from(x as u16),
        IntTy::S16 => i128::from(x as u16 as i16),
        IntTy::U32 => i128::from(x as u32),
        IntTy::S32 => i128::from(x as u32 as i32),
        IntTy::U64 => i128::from(x),
        IntTy::S64 => i128::from(x as i64),
    }
}

fn edge64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        1 => (0u32..64, any::<bool>(), -3i64..=3).prop_map(|(b, neg, d)| {
            let p = (1u64 << b).wrapping_add(d as u64);
            if neg { p.wrapping_neg() } else { p }
        }),
        1 => prop::sample::select(vec![
            0u64, 1, u64::MAX, 1 << 63, i64::MAX as u64, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0xfff0,
            0xffe0, 0xffef, 0xfff8, 65504, 65519, 65520, 65535, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff,
            0x0100_0000, 0x0100_0001, 0x0180_0000,
        ]),
    ]
}

/// Edge halves of the format (zeros, ±1, subnormals, the largest finite, infinities, NaNs) or
/// random bits.
fn edge16() -> impl Strategy<Value = u16> {
    edge_biased(&[
        0u16, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x4200, 0x7bff, 0xfbff, 0x7c00,
        0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7fff, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81,
        0x3bff, 0x3c01, 0x5a00, 0xda00,
    ])
}

fn edge32() -> impl Strategy<Value = u32> {
    edge_biased(&[
        0u32,
        0x8000_0000,
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0x7fff_ffff,
        0x4049_0fdb,
        0xc049_0fdb,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// `I2F.F16.<int>` / `I2F.BF16.<int>`: PTX `cvt.<rnd>.{f16,bf16}.<int>` rounds the integer once.
    #[test]
    fn i2f_half_matches_reference(x in edge64(), ti in 0usize..8, ri in 0usize..4, bf in any::<bool>()) {
        let (ty, rnd) = (INTS[ti], RNDS[ri]);
        let fmt = if bf { BF16 } else { F16 };
        let want = ref_int_to_half(fmt, int_value(ty, x), rnd);
        let got = convert::i2f_half(x, ty, rnd, bf);
        prop_assert_eq!(got, want, "I2F.{}.{:?}.{:?} of {:#x}", if bf { "BF16" } else { "F16" }, ty, rnd, x);
        if !bf {
            prop_assert_eq!(convert::i2f_f16(x, ty, rnd), want);
        }
    }

    /// `FRND.F16.<rnd>`: PTX `cvt.{rni,rzi,rmi,rpi}.f16.f16` rounds to an integral f16; a NaN is
    /// the canonical `0x7fff`; a zero result keeps the operand's sign.
    #[test]
    fn frnd16_matches_reference(h in edge16(), ri in 0usize..4) {
        let r = [IntRnd::Rni, IntRnd::Trunc, IntRnd::Floor, IntRnd::Ceil][ri];
        let v = F16.value(h);
        let want = if v.is_nan() {
            0x7fff
        } else if v.is_infinite() {
            h
        } else {
            let t = match r {
                IntRnd::Rni => v.round_ties_even(),
                IntRnd::Trunc => v.trunc(),
                IntRnd::Floor => v.floor(),
                IntRnd::Ceil => v.ceil(),
            };
            let t = if t == 0.0 && v.is_sign_negative() { -0.0 } else { t };
            F16.encode_exact(t)
        };
        prop_assert_eq!(alu::frnd16(h, r), want, "FRND.F16.{:?} of {:#06x}", r, h);
    }

    /// `HADD2.F32.SAT`: the f32 of an f16 sum (exact in f64, one rounding), then PTX `.sat`:
    /// NaN → +0, clamped to [+0, 1.0].
    #[test]
    fn hadd2_f32_sat_matches_reference(a in edge16(), b in edge16()) {
        let s = (F16.value(a) + F16.value(b)) as f32;
        let want = if s.is_nan() || s <= 0.0 { 0 } else if s > 1.0 { 1f32.to_bits() } else { s.to_bits() };
        prop_assert_eq!(alu::hadd2_f32_sat(a, b), want, "{:#06x} + {:#06x}", a, b);
    }

    /// `FMNMX[.FTZ][.NAN].XORSIGN d, |a|, |b|`: PTX `min/max{.ftz}{.NaN}.xorsign.abs.f32`: the
    /// min/max of the absolute values (NaN-suppressing unless `.NaN`), the sign the XOR of the
    /// operands' signs; a NaN result is the canonical NaN.
    #[test]
    fn fmnmx_xorsign_matches_reference(
        a in edge32(), b in edge32(), min in any::<bool>(), ftz in any::<bool>(), nan in any::<bool>()
    ) {
        let flush = |x: u32| if ftz && x & 0x7f80_0000 == 0 { x & 0x8000_0000 } else { x };
        let (x, y) = (f32::from_bits(flush(a)).abs(), f32::from_bits(flush(b)).abs());
        let want = if (nan && (x.is_nan() || y.is_nan())) || (x.is_nan() && y.is_nan()) {
            0x7fff_ffff
        } else {
            let m = if min { x.min(y) } else { x.max(y) };
            m.to_bits() | ((a ^ b) & 0x8000_0000)
        };
        let f = if nan { alu::fmnmx_nan } else { alu::fmnmx };
        let got = alu::xorsign32(f(a & 0x7fff_ffff, b & 0x7fff_ffff, min, ftz), a, b);
        prop_assert_eq!(got, want, "min={} ftz={} nan={} {:#x} {:#x}", min, ftz, nan, a, b);
    }

    /// `HMNMX2[.BF16_V2][.NAN].XORSIGN d, |a|, |b|`: the same per half (f16 or bf16).
    #[test]
    fn hmnmx2_xorsign_matches_reference(
        a in any::<u32>(), b in any::<u32>(), ea in edge16(), eb in edge16(),
        min in any::<bool>(), nan in any::<bool>(), bf in any::<bool>()
    ) {
        // Edge halves in the low half, random bits in the high.
        let (a, b) = ((a & 0xffff_0000) | u32::from(ea), (b & 0xffff_0000) | u32::from(eb));
        let fmt = if bf { BF16 } else { F16 };
        let mut want = 0u32;
        for sh in [0, 16] {
            let (ha, hb) = ((a >> sh) as u16, (b >> sh) as u16);
            let (x, y) = (fmt.value(ha & 0x7fff), fmt.value(hb & 0x7fff));
            let h = if (nan && (x.is_nan() || y.is_nan())) || (x.is_nan() && y.is_nan()) {
                0x7fff
            } else {
                let m = if min { x.min(y) } else { x.max(y) };
                let p = if m.is_infinite() { fmt.inf() } else { fmt.encode_exact(m) };
                p | ((ha ^ hb) & 0x8000)
            };
            want |= u32::from(h) << sh;
        }
        let m = alu::HalfMods { bf16: bf, nan, xorsign: true, ..Default::default() };
        let r = alu::hmnmx2(a & 0x7fff_7fff, b & 0x7fff_7fff, min, m);
        let got = alu::xorsign_half2(r, a, b, bf);
        prop_assert_eq!(got, want, "min={} nan={} bf16={} {:#010x} {:#010x}", min, nan, bf, a, b);
    }

    /// `FSET[.BF].<cmp>.<bop>[.FTZ] d, a, b, p`: PTX `set.<cmp>.<bop>.{f32,u32}.f32`: 1.0f or
    /// `0xffffffff` when `cmp(a, b) bop p`, else 0; the unordered comparisons are true on NaN.
    #[test]
    fn fset_matches_reference(
        a in edge32(), b in edge32(), p in any::<bool>(), ci in 0usize..16, bi in 0usize..3,
        ftz in any::<bool>(), bf in any::<bool>()
    ) {
        let names = ["F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T"];
        let cmp = Cmp::from_token(names[ci]).expect("a comparison token");
        let bop = [BoolOp::And, BoolOp::Or, BoolOp::Xor][bi];
        let flush = |v: u32| if ftz && v & 0x7f80_0000 == 0 { v & 0x8000_0000 } else { v };
        let (x, y) = (f32::from_bits(flush(a)), f32::from_bits(flush(b)));
        let un = x.is_nan() || y.is_nan();
        let c = match names[ci] {
            "F" => false,
            "T" => true,
            "LT" => x < y,
            "EQ" => x == y,
            "LE" => x <= y,
            "GT" => x > y,
            "NE" => !un && x != y,
            "GE" => x >= y,
            "NUM" => !un,
            "NAN" => un,
            "LTU" => un || x < y,
            "EQU" => un || x == y,
            "LEU" => un || x <= y,
            "GTU" => un || x > y,
            "NEU" => un || x != y,
            _ => un || x >= y,
        };
        let t = match bi { 0 => c && p, 1 => c || p, _ => c != p };
        let want = if !t { 0 } else if bf { 0x3f80_0000 } else { u32::MAX };
        prop_assert_eq!(alu::fset(a, b, p, cmp, bop, ftz, bf), want, "{} {:?} {:#x} {:#x} {}", names[ci], bop, a, b, p);
    }

    /// `F2F.F64.F16`: PTX `cvt.f64.f16` is exact; a NaN is the canonical f64 NaN.
    #[test]
    fn f2f_f16_f64_matches_reference(h in edge16()) {
        let v = F16.value(h);
        let want = if v.is_nan() { 0x7fff_ffff_ffff_ffff } else { v.to_bits() };
        prop_assert_eq!(alu::f2f_f16_f64(h), want, "{:#06x}", h);
    }
}

/// Every binary16 pattern: `F2F.F64.F16` and `FRND.F16.TRUNC` exhaustively (the property
/// tests above sample them).
#[test]
fn every_f16_widens_and_truncates() {
    for h in 0..=u16::MAX {
        let v = F16.value(h);
        let want = if v.is_nan() { 0x7fff_ffff_ffff_ffff } else { v.to_bits() };
        assert_eq!(alu::f2f_f16_f64(h), want, "{h:#06x}");
        if v.is_finite() {
            let t = v.trunc();
            let t = if t == 0.0 && v.is_sign_negative() { -0.0 } else { t };
            assert_eq!(alu::frnd16(h, IntRnd::Trunc), F16.encode_exact(t), "{h:#06x}");
        }
    }
}

proptest! {
    /// `VIADD.S32.ISAT [-]a, [-]b` (sm_120's `add.sat.s32` / `sub.sat.s32`): PTX's exact sum or
    /// difference clamped to [INT_MIN, INT_MAX].
    #[test]
    fn viadd_sat_s32_matches_reference(a in any::<u32>(), b in any::<u32>(), e in 0usize..6, na in any::<bool>(), nb in any::<bool>()) {
        let edges = [0u32, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0x8000_0001];
        let (a, b) = if e % 2 == 0 { (edges[e], b) } else { (a, edges[e]) };
        let x = i128::from(a as i32) * if na { -1 } else { 1 };
        let y = i128::from(b as i32) * if nb { -1 } else { 1 };
        let want = (x + y).clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32 as u32;
        prop_assert_eq!(alu::viadd_sat_s32(a, b, na, nb), want, "{:#x} {} {:#x} {}", a, na, b, nb);
        if !na && !nb {
            prop_assert_eq!(alu::iadd_sat_s32(a, b), want);
        }
    }
}
