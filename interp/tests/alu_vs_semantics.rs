//! The emulator's ALU (`interp::emu::alu`) against the reference semantics
//! (`ptxas_rs::ori::semantics::eval`, the interpreter's): the two are deliberately separate
//! implementations (see the policy in `interp`'s crate documentation), so they must agree
//! bit-exactly wherever a SASS instruction means what a PTX operation means. Random full-width,
//! edge-biased operands (0, ±1, the signed extremes, NaN payloads, ±0, subnormals, ±inf).

use interp::emu::alu::{self, Rnd};
use proptest::prelude::*;

#[path = "support/edge_strategy.rs"]
mod edge_strategy;
use edge_strategy::edge_biased;
use ptxas_rs::ori::semantics::{Arg, Val, eval};
use ptxas_rs::ori::{Flag, Mods, Opcode, Ty};

#[path = "support/edge_operands.rs"]
#[allow(dead_code)] // shared with tests that use its generator; this one takes the edge values only
mod edge;

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
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
        0x3380_0000,
        0xb380_0001,
        0x4780_0000,
        0xc77f_f000,
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
        0x000f_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
    ])
}

fn rnd() -> impl Strategy<Value = Rnd> {
    prop::sample::select(vec![Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp])
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

fn mods(t: Ty, r: Option<Rnd>, flags: &[(bool, Flag)]) -> Mods {
    let mut m = Mods::ty(t);
    m.rnd = r.map(ori_rnd);
    for &(on, f) in flags {
        if on {
            m.set(f);
        }
    }
    m
}

fn one(op: Opcode, m: &Mods, args: &[u64]) -> u64 {
    let a: Vec<Arg> = args.iter().map(|&x| Arg::bits(x)).collect();
    match eval(op, m, &a).unwrap_or_else(|e| panic!("{op}: {e}"))[0] {
        Val::Bits(b) => b,
        Val::Pred(p) => u64::from(p),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// FADD/FMUL/FFMA = add/mul/fma.f32 in every rounding mode, with .ftz and .sat.
    #[test]
    fn f32_arithmetic(a in edge32(), b in edge32(), c in edge32(), r in rnd(), ftz: bool, sat: bool) {
        let m = mods(Ty::F32, Some(r), &[(ftz, Flag::Ftz), (sat, Flag::Sat)]);
        let (x, y, z) = (u64::from(a), u64::from(b), u64::from(c));
        prop_assert_eq!(u64::from(alu::fadd(a, b, r, ftz, sat)), one(Opcode::Add, &m, &[x, y]), "add");
        prop_assert_eq!(u64::from(alu::fmul(a, b, r, ftz, sat)), one(Opcode::Mul, &m, &[x, y]), "mul");
        prop_assert_eq!(u64::from(alu::ffma(a, b, c, r, ftz, sat)), one(Opcode::Fma, &m, &[x, y, z]), "fma");
    }

    /// DADD/DMUL/DFMA = add/mul/fma.f64 in every rounding mode (NaN operands excluded: which
    /// NaN an f64 result keeps is SASS-slot order, see `ori::semantics::eval`).
    #[test]
    fn f64_arithmetic(a in edge64(), b in edge64(), c in edge64(), r in rnd()) {
        let nan = |x: u64| f64::from_bits(x).is_nan();
        prop_assume!(!nan(a) && !nan(b) && !nan(c));
        let m = mods(Ty::F64, Some(r), &[]);
        prop_assert_eq!(alu::dadd(a, b, r), one(Opcode::Add, &m, &[a, b]), "add");
        prop_assert_eq!(alu::dmul(a, b, r), one(Opcode::Mul, &m, &[a, b]), "mul");
        prop_assert_eq!(alu::dfma(a, b, c, r), one(Opcode::Fma, &m, &[a, b, c]), "fma");
    }

    /// FMNMX = min/max.f32 (and `.NaN`), with .ftz.
    #[test]
    fn f32_min_max(a in edge32(), b in edge32(), min: bool, ftz: bool, nan: bool) {
        let m = mods(Ty::F32, None, &[(ftz, Flag::Ftz), (nan, Flag::NaN)]);
        let op = if min { Opcode::Min } else { Opcode::Max };
        let got = if nan { alu::fmnmx_nan(a, b, min, ftz) } else { alu::fmnmx(a, b, min, ftz) };
        prop_assert_eq!(u64::from(got), one(op, &m, &[u64::from(a), u64::from(b)]));
    }

    /// F2FP / F2F to f16 and bf16 = cvt.{f16,bf16}.f32 in every rounding mode, with and
    /// without .relu; VIMNMX(.RELU) = min/max(.relu).s32.
    #[test]
    fn conversions_and_relu(a in edge32(), b in edge32(), r in rnd(), relu: bool, bf16: bool, min: bool) {
        let dt = if bf16 { Ty::BF16 } else { Ty::F16 };
        let mut m = mods(dt, Some(r), &[(relu, Flag::Relu)]);
        m.src_ty = Some(Ty::F32);
        let want = one(Opcode::Cvt, &m, &[u64::from(a)]);
        prop_assert_eq!(u64::from(alu::f2fp_half(a, bf16, r, relu)), want, "cvt");
        let m = mods(Ty::S32, None, &[(relu, Flag::Relu)]);
        let op = if min { Opcode::Min } else { Opcode::Max };
        let mut got = alu::imnmx_simd(a, b, true, min, 1);
        if relu {
            got = alu::relu_lanes(got, 1);
        }
        prop_assert_eq!(u64::from(got), one(op, &m, &[u64::from(a), u64::from(b)]), "min/max");
    }

    /// LOP3 = lop3.b32, PRMT = prmt.b32 (default mode).
    #[test]
    fn bit_operations(a in edge32(), b in edge32(), c in edge32(), lut: u8, sel: u32) {
        let m = Mods::ty(Ty::B32);
        let (x, y, z) = (u64::from(a), u64::from(b), u64::from(c));
        prop_assert_eq!(u64::from(alu::lop3(a, b, c, lut)), one(Opcode::Lop3P, &m, &[x, y, z, u64::from(lut)]), "lop3");
        prop_assert_eq!(u64::from(alu::prmt(a, sel, b)), one(Opcode::PrmtP, &m, &[x, u64::from(sel), y]), "prmt");
    }

    /// The carry chains: IADD3 with carry out of `a + ~b + cin` = subc (CC.CF a carry),
    /// `a + b + cin` = addc.
    #[test]
    fn carry_chains(a in edge32(), b in edge32(), cin: bool) {
        let m = Mods::ty(Ty::U32);
        let args = [Arg::bits(u64::from(a)), Arg::bits(u64::from(b)), Arg::pred(cin)];
        let sub = eval(Opcode::Subc, &m, &args).unwrap();
        let s = u64::from(a) + u64::from(!b) + u64::from(cin);
        prop_assert_eq!(sub, vec![Val::Bits(s & 0xffff_ffff), Val::Pred(s >> 32 == 1)], "subc");
        let add = eval(Opcode::Addc, &m, &args).unwrap();
        let s = u64::from(a) + u64::from(b) + u64::from(cin);
        prop_assert_eq!(add, vec![Val::Bits(s & 0xffff_ffff), Val::Pred(s >> 32 == 1)], "addc");
        // The emulator's LEA with shift 0 is IADD3's two-operand form.
        let lm = alu::LeaMods::new(false, true, false, (false, false), (false, true));
        prop_assert_eq!(alu::lea(a, b, 0, 0, lm, cin), s_sub(a, b, cin), "lea");
    }
}

fn s_sub(a: u32, b: u32, cin: bool) -> (u32, bool) {
    let s = u64::from(a) + u64::from(!b) + u64::from(cin);
    (s as u32, s >> 32 == 1)
}

/// The edge halves of the float tests' support feed the f16 inputs too: `cvt.f32.f16` (HADD2.F32
/// of a half and -0) is exact.
#[test]
fn f16_widening_is_exact() {
    for &h in edge::HALF {
        let mut m = Mods::ty(Ty::F32);
        m.src_ty = Some(Ty::F16);
        let want = one(Opcode::Cvt, &m, &[u64::from(h)]);
        let got = alu::f16_to_f32(h as u16).to_bits();
        let got = if f32::from_bits(got).is_nan() { alu::NAN32 } else { got };
        let want = if f32::from_bits(want as u32).is_nan() { u64::from(alu::NAN32) } else { want };
        assert_eq!(u64::from(got), want, "{h:#x}");
    }
}
