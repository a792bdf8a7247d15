//! Property tests of the emulator's ALU meanings (`interp::emu::alu`) against references written
//! independently: Rust's native integer and float operations and `as` casts, 64/128-bit integer
//! arithmetic, and an integer-only f64 -> f32 rounding for the directed modes. Operands are full
//! width and edge-biased (0, ±1, INT_MIN/MAX, NaN payloads, ±0, denormals, ±inf).

use interp::emu::alu::{self, Cmp, IntRnd, IntTy, Rnd, ShfType};
use proptest::prelude::*;

#[path = "support/edge_strategy.rs"]
mod edge_strategy;
use edge_strategy::edge_biased;

fn edge32() -> impl Strategy<Value = u32> {
    edge_biased(&[
        0u32,
        1,
        u32::MAX,
        0x8000_0000,
        0x7fff_ffff,
        0x8000_0001,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0xffc0_1234,
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
        0x4b00_0000,
        0x4f00_0000,
        0xcf00_0000,
        0x5f00_0000,
    ])
}

fn edge64() -> impl Strategy<Value = u64> {
    edge_biased(&[
        0u64,
        1,
        u64::MAX,
        1 << 63,
        i64::MAX as u64,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        1,
        0x000f_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
    ])
}

fn canon32(x: f32) -> u32 {
    if x.is_nan() { 0x7fff_ffff } else { x.to_bits() }
}

/// Rounds a finite f64 to f32 in a directed mode with integer arithmetic only.
fn ref_round(p: f64, rnd: Rnd) -> u32 {
    if p == 0.0 {
        return (p as f32).to_bits();
    }
    let neg = p < 0.0;
    let b = p.abs().to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    let m = if e == 0 { b & ((1 << 52) - 1) } else { (b & ((1 << 52) - 1)) | 1 << 52 };
    let e2 = if e == 0 { -1074 } else { e - 1075 }; // value = m * 2^e2
    // Target: f32 value = q * 2^t with q < 2^24, t >= -149.
    let top = 64 - m.leading_zeros() as i32 + e2; // value in [2^(top-1), 2^top)
    let t = (top - 24).max(-149);
    let sh = t - e2;
    let (q, rem_nonzero) = if sh <= 0 {
        (m << (-sh) as u32, false)
    } else if sh >= 64 {
        (0, m != 0)
    } else {
        (m >> sh, m & ((1u64 << sh) - 1) != 0)
    };
    let up = match rnd {
        Rnd::Rz => false,
        Rnd::Rp => !neg && rem_nonzero,
        Rnd::Rm => neg && rem_nonzero,
        Rnd::Rn => unreachable!(),
    };
    let q = q + u64::from(up);
    // Assemble: value = q * 2^t.
    let v = (q as f64) * 2f64.powi(t);
    let mag = if v > f64::from(f32::MAX) {
        // Overflow: directed modes.
        if up || rnd == Rnd::Rp && !neg || rnd == Rnd::Rm && neg { f32::INFINITY } else { f32::MAX }
    } else {
        v as f32
    };
    let r = if neg { -mag } else { mag };
    r.to_bits()
}

fn exp_of(x: u32) -> i32 {
    ((x >> 23) & 0xff) as i32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn fp32_round_to_nearest(a in edge32(), b in edge32(), c in edge32()) {
        let (x, y, z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
        prop_assert_eq!(alu::fadd(a, b, Rnd::Rn, false, false), canon32(x + y));
        prop_assert_eq!(alu::fmul(a, b, Rnd::Rn, false, false), canon32(x * y));
        prop_assert_eq!(alu::ffma(a, b, c, Rnd::Rn, false, false), canon32(x.mul_add(y, z)));
        // FTZ: denormal inputs act as zeros, denormal results flush.
        let f = |v: u32| if v & 0x7f80_0000 == 0 { f32::from_bits(v & 0x8000_0000) } else { f32::from_bits(v) };
        let r = f(a) * f(b);
        let want = if r.is_nan() { 0x7fff_ffff } else if r.to_bits() & 0x7f80_0000 == 0 { r.to_bits() & 0x8000_0000 } else { r.to_bits() };
        prop_assert_eq!(alu::fmul(a, b, Rnd::Rn, true, false), want);
        // SAT clamps to [0, 1], NaN -> +0.
        let s = x + y;
        let want = if s.is_nan() { 0 } else { s.clamp(0.0, 1.0).to_bits() & if s <= 0.0 { 0 } else { u32::MAX } };
        prop_assert_eq!(alu::fadd(a, b, Rnd::Rn, false, true), want);
    }

    #[test]
    fn fp32_directed_rounding(a in edge32(), b in edge32()) {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        prop_assume!(x.is_finite() && y.is_finite());
        for rnd in [Rnd::Rz, Rnd::Rm, Rnd::Rp] {
            let p = f64::from(x) * f64::from(y); // exact
            if p != 0.0 {
                prop_assert_eq!(alu::fmul(a, b, rnd, false, false), ref_round(p, rnd), "mul {:?}", rnd);
            }
            // The f64 sum is exact when the exponents are close.
            if (exp_of(a) - exp_of(b)).abs() < 28 && x != -y {
                let s = f64::from(x) + f64::from(y);
                if s != 0.0 {
                    prop_assert_eq!(alu::fadd(a, b, rnd, false, false), ref_round(s, rnd), "add {:?}", rnd);
                }
            }
        }
    }

    #[test]
    fn fp64_round_to_nearest(a in edge64(), b in edge64(), c in edge64()) {
        let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        // A NaN operand wins (B, then C, then A), quieted; an invalid operation gives
        // 0xfff8000000000000.
        let quiet = |v: u64| v | 1 << 51;
        let nan = |v: u64| f64::from_bits(v).is_nan();
        let want = |ops: &[u64], r: f64| match ops.iter().find(|&&v| nan(v)) {
            Some(&v) => quiet(v),
            None if r.is_nan() => 0xfff8_0000_0000_0000,
            None => r.to_bits(),
        };
        prop_assert_eq!(alu::dadd(a, b, Rnd::Rn), want(&[b, a], x + y));
        prop_assert_eq!(alu::dmul(a, b, Rnd::Rn), want(&[b, a], x * y));
        prop_assert_eq!(alu::dfma(a, b, c, Rnd::Rn), want(&[b, c, a], x.mul_add(y, z)));
        prop_assert_eq!(alu::dsetp(a, b, Cmp::Lt), x < y);
        prop_assert_eq!(alu::dsetp(a, b, Cmp::Neu), x != y);
    }

    #[test]
    fn fp32_compare_and_minmax(a in edge32(), b in edge32()) {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        prop_assert_eq!(alu::fsetp(a, b, Cmp::Lt, false), x < y);
        prop_assert_eq!(alu::fsetp(a, b, Cmp::Ge, false), x >= y);
        prop_assert_eq!(alu::fsetp(a, b, Cmp::Ne, false), matches!(x.partial_cmp(&y), Some(std::cmp::Ordering::Less | std::cmp::Ordering::Greater)));
        prop_assert_eq!(alu::fsetp(a, b, Cmp::Equ, false), !matches!(x.partial_cmp(&y), Some(std::cmp::Ordering::Less | std::cmp::Ordering::Greater)));
        prop_assert_eq!(alu::fsetp(a, b, Cmp::Nan, false), x.is_nan() || y.is_nan());
        let m = f32::from_bits(alu::fmnmx(a, b, true, false));
        if x.is_nan() && y.is_nan() { prop_assert!(m.is_nan()); }
        else if x.is_nan() { prop_assert_eq!(m.to_bits(), b); }
        else if y.is_nan() { prop_assert_eq!(m.to_bits(), a); }
        else if x != y { prop_assert_eq!(m, x.min(y)); }
    }

    #[test]
    fn int_compare_chains_equal_64bit_compares(a in edge64(), b in edge64()) {
        for (cmp, f) in [
            (Cmp::Lt, (|x: i128, y: i128| x < y) as fn(i128, i128) -> bool),
            (Cmp::Le, |x, y| x <= y),
            (Cmp::Gt, |x, y| x > y),
            (Cmp::Ge, |x, y| x >= y),
            (Cmp::Eq, |x, y| x == y),
            (Cmp::Ne, |x, y| x != y),
        ] {
            for signed in [false, true] {
                let low = alu::isetp(a as u32, b as u32, cmp, false, None);
                let r = alu::isetp((a >> 32) as u32, (b >> 32) as u32, cmp, signed, Some(low));
                let (x, y) = if signed { (i128::from(a as i64), i128::from(b as i64)) } else { (i128::from(a), i128::from(b)) };
                prop_assert_eq!(r, f(x, y), "{:?} signed={}", cmp, signed);
            }
        }
    }

    #[test]
    fn shifts_lop3_prmt(a in edge32(), b in edge32(), s in 0u32..80, lut in any::<u8>(), c in edge32()) {
        let v = (u64::from(b) << 32) | u64::from(a);
        let cl = s.min(64);
        // 64-bit shifts as ptxas composes them.
        prop_assert_eq!(alu::shf(a, s, b, true, false, ShfType::U64, true), (if cl >= 64 { 0 } else { v << cl } >> 32) as u32);
        prop_assert_eq!(alu::shf(a, s, b, false, false, ShfType::U64, false), if cl >= 64 { 0 } else { (v >> cl) as u32 });
        prop_assert_eq!(alu::shf(a, s, b, false, false, ShfType::S64, false), ((v as i64) >> cl.min(63)) as u32);
        prop_assert_eq!(alu::shf(0, s, b, false, false, ShfType::S32, true), ((b as i32) >> s.min(31)) as u32);
        prop_assert_eq!(alu::shf(a, s, 0, true, false, ShfType::U32, false), if s >= 32 { 0 } else { a << s });
        prop_assert_eq!(alu::shf(a, s, a, true, true, ShfType::U32, true), a.rotate_left(s & 31));
        // LOP3 against the sum-of-products definition, bit by bit.
        let r = alu::lop3(a, b, c, lut);
        for i in 0..32 {
            let idx = ((a >> i & 1) << 2) | ((b >> i & 1) << 1) | (c >> i & 1);
            prop_assert_eq!(r >> i & 1, u32::from(lut) >> idx & 1);
        }
        // PRMT byte selection.
        let bytes = v.to_le_bytes();
        let r = alu::prmt(a, c, b);
        for i in 0..4 {
            let sel = (c >> (4 * i)) & 0xf;
            let byte = bytes[(sel & 7) as usize];
            let want = if sel & 8 != 0 { if byte >= 0x80 { 0xff } else { 0 } } else { byte };
            prop_assert_eq!((r >> (8 * i)) as u8, want);
        }
    }

    #[test]
    fn conversions(a in edge32(), d in edge64()) {
        let x = f32::from_bits(a);
        // F2I.NTZ (saturation, NaN -> 0) is Rust's `as`; without .NTZ a NaN gives the sign bit.
        prop_assert_eq!(alu::f2i(u64::from(a), false, IntTy::S32, IntRnd::Trunc, false, true) as u32, x as i32 as u32);
        prop_assert_eq!(alu::f2i(u64::from(a), false, IntTy::U32, IntRnd::Trunc, false, true) as u32, x as u32);
        let y = f64::from_bits(d);
        let nan_or = |nan: bool, sign: u64, v: u64| if nan { sign } else { v };
        prop_assert_eq!(alu::f2i(u64::from(a), false, IntTy::S64, IntRnd::Floor, false, false),
                        nan_or(x.is_nan(), 1 << 63, x.floor() as i64 as u64));
        prop_assert_eq!(alu::f2i(d, true, IntTy::U64, IntRnd::Ceil, false, false), nan_or(y.is_nan(), 1 << 63, y.ceil() as u64));
        prop_assert_eq!(alu::f2i(d, true, IntTy::S32, IntRnd::Rni, false, false) as u32,
                        nan_or(y.is_nan(), 1 << 31, u64::from(y.round_ties_even() as i32 as u32)) as u32);
        // I2F round-to-nearest is Rust's `as`.
        prop_assert_eq!(alu::i2f(u64::from(a), IntTy::S32, false, Rnd::Rn) as u32, (a as i32 as f32).to_bits());
        prop_assert_eq!(alu::i2f(d, IntTy::U64, false, Rnd::Rn) as u32, (d as f32).to_bits());
        prop_assert_eq!(alu::i2f(d, IntTy::S64, true, Rnd::Rn), (d as i64 as f64).to_bits());
        // F2F: NaNs keep sign and payload, quieted.
        let narrowed = if y.is_nan() { ((d >> 32) as u32 & 0x8000_0000) | 0x7fc0_0000 | (d >> 29) as u32 & 0x3f_ffff } else { (y as f32).to_bits() };
        prop_assert_eq!(alu::f2f_f64_f32(d, Rnd::Rn, false), narrowed);
        let w = alu::f2f_f32_f64(a, false);
        if x.is_nan() {
            prop_assert_eq!(w, (u64::from(a >> 31) << 63) | 0x7ff8_0000_0000_0000 | u64::from(a & 0x3f_ffff) << 29);
            // The round trip gives the f32 NaN back, quieted.
            prop_assert_eq!(alu::f2f_f64_f32(w, Rnd::Rn, false), a | 0x40_0000);
        } else {
            prop_assert_eq!(w, f64::from(x).to_bits());
        }
        // FLO / POPC / BREV-like helpers.
        prop_assert_eq!(alu::flo(a, false, false), if a == 0 { u32::MAX } else { 31 - a.leading_zeros() });
    }
}

#[test]
fn mufu_is_close_to_the_exact_function() {
    for bits in [0x3f80_0000u32, 0x4000_0000, 0x3e80_0000, 0x4120_0000, 0x3dcc_cccd] {
        let x = f32::from_bits(bits);
        let rcp = f32::from_bits(alu::mufu(alu::MufuFn::Rcp, bits));
        assert!((rcp - 1.0 / x).abs() <= (1.0 / x).abs() * 1e-6);
        let lg = f32::from_bits(alu::mufu(alu::MufuFn::Lg2, bits));
        assert!((lg - x.log2()).abs() <= 1e-6 * x.log2().abs().max(1.0));
    }
}

/// `F2I.S8`/`.S16` fill the 32-bit register sign-extended (cvt_sat: `cvt.rni.sat.s8.f32` then
/// `cvt.s32.s8` is one `F2I.S8.NTZ` whose register is stored as the s32): -1e9 saturates to
/// -128 = 0xffffff80, not 0x80; unsigned narrow results are zero-extended.
#[test]
fn f2i_narrow_signed_is_sign_extended() {
    let f = |x: f32, t| alu::f2i(u64::from(x.to_bits()), false, t, IntRnd::Rni, false, true);
    assert_eq!(f(-1e9, IntTy::S8), 0xffff_ff80);
    assert_eq!(f(-33.0, IntTy::S8), (-33i32) as u32 as u64);
    assert_eq!(f(1e9, IntTy::S8), 127);
    assert_eq!(f(-40000.0, IntTy::S16), 0xffff_8000);
    assert_eq!(f(1e9, IntTy::U16), 0xffff);
    assert_eq!(f(-5.0, IntTy::U8), 0);
}

proptest! {
    /// `FMNMX.NAN` (PTX `min.NaN`/`max.NaN`): a NaN operand gives the canonical NaN, else as FMNMX.
    #[test]
    fn fmnmx_nan_propagates_nan(a in edge32(), b in edge32(), min in any::<bool>()) {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        let r = alu::fmnmx_nan(a, b, min, false);
        if x.is_nan() || y.is_nan() {
            prop_assert_eq!(r, 0x7fff_ffff);
        } else {
            prop_assert_eq!(r, alu::fmnmx(a, b, min, false));
        }
    }
}

/// `DMUL.RZ`/`.RM` of a finite product that overflows gives `+MAX`, not `+inf` (IEEE 754 §7.4;
/// f64_round_modes [495]: `__dmul_rz(1e200, 1e200)`); `.RP` and `.RN` give `+inf`.
#[test]
fn dmul_directed_overflow() {
    let (a, b) = (1e200f64.to_bits(), 1e200f64.to_bits());
    assert_eq!(alu::dmul(a, b, Rnd::Rz), f64::MAX.to_bits());
    assert_eq!(alu::dmul(a, b, Rnd::Rm), f64::MAX.to_bits());
    assert_eq!(alu::dmul(a, b, Rnd::Rp), f64::INFINITY.to_bits());
    assert_eq!(alu::dmul(a, b, Rnd::Rn), f64::INFINITY.to_bits());
    let n = (-1e200f64).to_bits();
    assert_eq!(alu::dmul(n, b, Rnd::Rz), f64::MIN.to_bits());
    assert_eq!(alu::dmul(n, b, Rnd::Rp), f64::MIN.to_bits());
    assert_eq!(alu::dmul(n, b, Rnd::Rm), f64::NEG_INFINITY.to_bits());
    assert_eq!(alu::dmul(f64::INFINITY.to_bits(), b, Rnd::Rz), f64::INFINITY.to_bits());
}

/// Directed `DMUL` with a subnormal exact product (f64_round_modes [81]/[83]/[334]): the
/// residual of a subnormal product is not representable, so rounding must be integer-exact.
#[test]
fn dmul_directed_subnormal_products() {
    let tiny = 1u64; // 2^-1074
    let x = 1.5f64.to_bits(); // exact 1.5 * 2^-1074
    assert_eq!(alu::dmul(x, tiny, Rnd::Rz), 1);
    assert_eq!(alu::dmul(x, tiny, Rnd::Rm), 1);
    assert_eq!(alu::dmul(x, tiny, Rnd::Rp), 2);
    assert_eq!(alu::dmul(x, tiny, Rnd::Rn), 2);
    let p = 2f64.powi(-600).to_bits(); // exact 2^-1200: below half the smallest subnormal
    assert_eq!(alu::dmul(p, p, Rnd::Rp), 1);
    assert_eq!(alu::dmul(p, p, Rnd::Rz), 0);
    assert_eq!(alu::dmul(p, (-2f64.powi(-600)).to_bits(), Rnd::Rm), 0x8000_0000_0000_0001);
    assert_eq!(alu::dmul(p, (-2f64.powi(-600)).to_bits(), Rnd::Rp), 0x8000_0000_0000_0000);
}

fn ori_rnd(r: Rnd) -> ptxas_rs::ori::mods::Rnd {
    use ptxas_rs::ori::mods::Rnd as O;
    match r {
        Rnd::Rn => O::Rn,
        Rnd::Rz => O::Rz,
        Rnd::Rm => O::Rm,
        Rnd::Rp => O::Rp,
    }
}

fn tiny_or_edge64() -> impl Strategy<Value = u64> {
    // Biased toward products and sums near the subnormal range and overflow.
    prop_oneof![
        2 => edge64(),
        1 => (any::<u64>(), 0u64..0x0400).prop_map(|(m, e)| (m & 0x800f_ffff_ffff_ffff) | e << 52),
        1 => (any::<u64>(), 0x5f0u64..0x7ff).prop_map(|(m, e)| (m & 0x800f_ffff_ffff_ffff) | e << 52),
    ]
}

proptest! {
    /// Directed DMUL/DFMA agree with the semantics table's integer soft-float (a separate,
    /// independently written exact implementation) on finite operands, NaNs compared as NaN.
    #[test]
    fn dmul_dfma_directed_are_exact(a in tiny_or_edge64(), b in tiny_or_edge64(), c in tiny_or_edge64(),
                                    r in prop::sample::select(vec![Rnd::Rz, Rnd::Rm, Rnd::Rp])) {
        use ptxas_rs::ori::float::{self, F64};
        let same = |x: u64, y: u64| x == y || (f64::from_bits(x).is_nan() && f64::from_bits(y).is_nan());
        let (m, want_m) = (alu::dmul(a, b, r), float::mul(F64, a, b, ori_rnd(r)));
        prop_assert!(same(m, want_m), "dmul {a:#x} {b:#x} {r:?}: {m:#x} vs {want_m:#x}");
        let (f, want_f) = (alu::dfma(a, b, c, r), float::fma(F64, a, b, c, ori_rnd(r)));
        prop_assert!(same(f, want_f), "dfma {a:#x} {b:#x} {c:#x} {r:?}: {f:#x} vs {want_f:#x}");
    }
}

/// NaN results measured on the GPU (H200 goldens `corpus/gpu/sm_90`): the cases the rules in
/// `alu` were derived from.
#[test]
fn nan_results_measured_on_the_gpu() {
    // cvt_f64_f32: F2F both ways keeps sign and payload, quieted; FRND.F64 keeps the NaN.
    assert_eq!(alu::f2f_f32_f64(0x7f80_0001, false), 0x7ff8_0000_2000_0000);
    assert_eq!(alu::f2f_f32_f64(0xffff_ffff, false), 0xffff_ffff_e000_0000);
    assert_eq!(alu::f2f_f64_f32(0x7ff0_0000_0000_0001, Rnd::Rz, false), 0x7fc0_0000);
    assert_eq!(alu::f2f_f64_f32(0xffff_ffff_ffff_ffff, Rnd::Rm, false), 0xffff_ffff);
    assert_eq!(alu::frnd64(0xffff_ffff_e000_0000, IntRnd::Rni), 0xffff_ffff_e000_0000);
    // f64_round_modes: DADD/DMUL/DFMA keep a NaN operand's payload, B before C before A.
    let (snan, neg_qnan, qnan) = (0x7ff0_0000_0000_0001u64, 0xffff_ffff_ffff_ffffu64, 0x7ff8_0000_0000_0000u64);
    assert_eq!(alu::dadd(neg_qnan, snan, Rnd::Rn), 0x7ff8_0000_0000_0001);
    assert_eq!(alu::dadd(1.0f64.to_bits(), snan, Rnd::Rz), 0x7ff8_0000_0000_0001);
    assert_eq!(alu::dmul(snan, 3.0f64.to_bits(), Rnd::Rp), 0x7ff8_0000_0000_0001);
    assert_eq!(alu::dfma(0x8000_0000_0000_0001, snan, neg_qnan, Rnd::Rn), 0x7ff8_0000_0000_0001);
    assert_eq!(alu::dfma(neg_qnan, 2.0f64.to_bits(), qnan, Rnd::Rn), qnan);
    assert_eq!(alu::dfma(snan, 1.0f64.to_bits(), neg_qnan, Rnd::Rn), neg_qnan);
    // Invalid FP64 operations give 0xfff8000000000000, whatever the signs.
    assert_eq!(alu::dmul(0xfff0_0000_0000_0000, 1 << 63, Rnd::Rn), 0xfff8_0000_0000_0000);
    assert_eq!(alu::dmul(0, 0x7ff0_0000_0000_0000, Rnd::Rz), 0xfff8_0000_0000_0000);
    assert_eq!(
        alu::dfma(0x7ff0_0000_0000_0000, 0x2eb6_5f1a_ef4e_0906, 0xfff0_0000_0000_0000, Rnd::Rm),
        0xfff8_0000_0000_0000
    );
    assert_eq!(alu::dadd(0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000, Rnd::Rn), 0xfff8_0000_0000_0000);
    // FP32 arithmetic gives the canonical NaN (f32_compare_select: x - y of a NaN x).
    assert_eq!(alu::fadd(0x7f80_0001, 0x3f80_0000 ^ 0x8000_0000, Rnd::Rn, false, false), 0x7fff_ffff);
    assert_eq!(alu::fadd(0xffff_ffff, 0x8000_0000, Rnd::Rn, false, false), 0x7fff_ffff);
    // cvt_f2ll_round / cvt_f2i_round: F2I of NaN without .NTZ gives the sign bit, with it 0.
    let f2i = |x: u64, src64, dst, ntz| alu::f2i(x, src64, dst, IntRnd::Trunc, false, ntz);
    assert_eq!(f2i(0x7fc0_0000, false, IntTy::S64, false), 0x8000_0000_0000_0000);
    assert_eq!(f2i(0xffff_ffff, false, IntTy::U64, false), 0x8000_0000_0000_0000);
    assert_eq!(f2i(snan, true, IntTy::S64, false), 0x8000_0000_0000_0000);
    assert_eq!(f2i(snan, true, IntTy::S32, false), 0x8000_0000);
    assert_eq!(f2i(neg_qnan, true, IntTy::U32, false), 0x8000_0000);
    assert_eq!(f2i(0x7f80_0001, false, IntTy::S32, true), 0);
    assert_eq!(f2i(0xffff_ffff, false, IntTy::U32, true), 0);
    // f32_minmax_sign: FMNMX.NAN with a NaN operand gives the canonical NaN.
    assert_eq!(alu::fmnmx_nan(0x0000_0001, 0x7fc0_0000, true, false), 0x7fff_ffff);
    assert_eq!(alu::fmnmx_nan(0x34cc_d148, 0xffff_ffff, false, false), 0x7fff_ffff);
}

/// `FCHK`: a zero dividend takes the slow path (math_div_sqrt_f32 golden: `0 / -c` is `-0`);
/// normal operands well inside the range take the fast path; NaN, inf, subnormals the slow one.
#[test]
fn fchk_sends_zero_dividends_to_the_slow_path() {
    assert!(alu::fchk(0, 0xc421_93b1));
    assert!(alu::fchk(0x8000_0000, 0x43ee_0f29));
    assert!(!alu::fchk(0x3f80_0000, 0xc421_93b1));
    assert!(alu::fchk(0x7fc0_0000, 0x3f80_0000));
    assert!(alu::fchk(0x3f80_0000, 0x7f80_0000));
    assert!(alu::fchk(0x3f80_0000, 0x0000_0001));
    // Random normal operands of moderate exponent take the fast path.
    let mut x = 0x9e37_79b9u32;
    for _ in 0..10_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let (a, b) = ((x & 0x807f_ffff) | 0x3f00_0000, (x.rotate_left(7) & 0x807f_ffff) | 0x4000_0000);
        assert!(!alu::fchk(a, b), "{a:#x} / {b:#x}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100_000))]

    /// `VIADDMNMX` against std's min/max on the wrapped sum, random full-width operands.
    #[test]
    fn viaddmnmx_is_a_wrapping_sum_then_min_or_max(a in any::<u32>(), b in any::<u32>(), c in any::<u32>()) {
        let s = a.wrapping_add(b);
        for min in [true, false] {
            let want_s = if min { (s as i32).min(c as i32) } else { (s as i32).max(c as i32) } as u32;
            let want_u = if min { s.min(c) } else { s.max(c) };
            prop_assert_eq!(alu::viaddmnmx(a, b, c, true, min), want_s, "{:#x} {:#x} {:#x} {}", a, b, c, min);
            prop_assert_eq!(alu::viaddmnmx(a, b, c, false, min), want_u, "{:#x} {:#x} {:#x} {}", a, b, c, min);
        }
    }
}

/// ptxas's exponent clamp, `VIADDMNMX R, Ra, -Rb, 0xb9600000, !PT`: max(0x3ff00000 -
/// 0x7fe00000, 0xb9600000) compared signed; -Rb is 0x80200000.
#[test]
fn viaddmnmx_exponent_clamp() {
    assert_eq!(alu::viaddmnmx(0x3ff0_0000, 0x8020_0000, 0xb960_0000, true, false), 0xc010_0000);
    assert_eq!(alu::viaddmnmx(0x0010_0000, 0x8020_0000, 0xb960_0000, true, false), 0xb960_0000);
}
