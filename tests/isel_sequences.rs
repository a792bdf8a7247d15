//! The multi-instruction sequences of instruction selection, checked on full-width random
//! (edge-biased) operands against Rust references.
//!
//! A one-instruction PTX-stage kernel (`ld.param` the operands, the operation, `st.global` the
//! result) is selected with `lower::isel::select_function`; the straight-line SASS-stage
//! result is then evaluated by a small evaluator over `ori::semantics::eval` (the table the
//! interpreter uses) and compared with:
//!
//! - integer `div/rem.{u32,s32,u16,s16}`: Rust's integer division; for a zero divisor the
//!   all-ones value ptxas's sequence gives (quotient and remainder), and for `b != 0` also the
//!   PTX-stage semantics of the original instruction;
//! - approximate f32 functions (`div.approx/full`, `rcp/sqrt/rsqrt.approx` with ptxas's
//!   subnormal wrappers): the correctly rounded result within 2 ulp (NaN for NaN, infinities
//!   and zeros exactly), the PTX ISA's bounds for these forms on normal results;
//! - 64-bit add/sub/mul/shift/compare on halves: Rust's `u64`/`i64` arithmetic;
//! - IEEE `div.rn.f64` / `rcp.rn.f64`: the host's `/`, bit-exact;
//! - every template (64-bit division's loop included: the evaluator follows branches): the
//!   PTX-stage semantics of the original instruction.

use ptxas_rs::target::Target;
use std::collections::HashMap;

use proptest::prelude::*;
use ptxas_rs::lower::isel::select_function;
use ptxas_rs::ori::semantics::{Arg, Val, eval};
use ptxas_rs::ori::{Function, Imm, Opcode, Operand, Reg, parse_function, verify_function};

/// Evaluates a selected straight-line kernel: parameters from `params` (bank 0 at 0x210),
/// returns the values stored, in order.
fn run(f: &Function, params: &[u64]) -> Vec<u64> {
    let mut regs: HashMap<Reg, u64> = HashMap::new();
    let mut stored = Vec::new();
    let read = |regs: &HashMap<Reg, u64>, r: Reg| -> u64 {
        if r.is_zero() {
            return if f.reg_class(r).is_some_and(|c| c.file.is_pred()) { 1 } else { 0 };
        }
        regs.get(&r).copied().unwrap_or(0)
    };
    // Blocks in layout order; a taken `BRA` continues at its target (loops of 64-bit division).
    let (mut next, mut steps) = (0usize, 0u32);
    'blocks: while let Some(&b) = f.layout.get(next) {
        next += 1;
        for &i in f.block_insts(b) {
            let d = &f.insts[i];
            if let Some(g) = d.guard
                && (read(&regs, g.reg) != 0) == g.not
            {
                continue;
            }
            steps += 1;
            assert!(steps < 1_000_000, "the selected code does not terminate");
            match d.opcode {
                Opcode::EXIT | Opcode::Exit => break 'blocks,
                Opcode::BRA => {
                    let Operand::Block(t) = d.srcs[0] else { panic!("BRA without a block") };
                    next = f.layout.iter().position(|&x| x == t).expect("branch target in the layout");
                    continue 'blocks;
                }
                Opcode::Ld => {
                    // PTX stage: `ld param[off]`, the parameter (8-byte slots) at its type width.
                    let Operand::Mem(m) = &d.srcs[0] else { panic!() };
                    let w = d.ty().map_or(32, |t| t.bits());
                    let v = params[(m.offset / 8) as usize];
                    regs.insert(d.dsts[0], if w >= 64 { v } else { v & ((1 << w) - 1) });
                    continue;
                }
                Opcode::St => {
                    let Operand::Reg(u) = &d.srcs[1] else { panic!("store of a non-register") };
                    stored.push(read(&regs, u.reg));
                    continue;
                }
                Opcode::STG => {
                    let Operand::Reg(u) = &d.srcs[1] else { panic!("store of a non-register") };
                    stored.push(read(&regs, u.reg));
                    continue;
                }
                Opcode::LDC => {
                    let Operand::CBank(c) = &d.srcs[0] else { panic!() };
                    if d.dsts[0] == Reg::Phys(ptxas_rs::ori::PhysReg::new(ptxas_rs::ori::RegFile::R, 1)) {
                        continue;
                    }
                    let k = ((c.offset - 0x210) / 8) as usize;
                    regs.insert(d.dsts[0], params[k]);
                    continue;
                }
                _ => {}
            }
            let args: Vec<Arg> = d
                .srcs
                .iter()
                .map(|o| match o {
                    Operand::Reg(u) => {
                        let v = read(&regs, u.reg);
                        let val = if f.reg_class(u.reg).is_some_and(|c| c.file.is_pred()) {
                            Val::Pred(v != 0)
                        } else {
                            Val::Bits(v)
                        };
                        Arg { val, neg: u.neg, abs: u.abs, not: u.not }
                    }
                    Operand::Imm(i) => Arg::bits(i.bits()),
                    o => panic!("operand {o:?}"),
                })
                .collect();
            let out = eval(d.opcode, &d.mods, &args).unwrap_or_else(|e| panic!("`{}`: {e}", d.opcode));
            for (r, v) in d.dsts.iter().zip(out) {
                let v = match v {
                    Val::Pred(p) => u64::from(p),
                    Val::Bits(b) => b,
                };
                if !r.is_zero() {
                    regs.insert(*r, v);
                }
            }
        }
    }
    stored
}

/// Selects `op` applied to two parameters of PTX type `ty` (register classes `cls`).
fn kernel(op: &str, ty: &str, wide: bool) -> Function {
    let (p, ld) = if wide { ("rd", "u64") } else { ("r", "u32") };
    let st = ty.rsplit('.').next().unwrap_or(ty);
    let text = format!(
        "entry @k() {{\nbb0:\n    %{p}0 = ld.{ld} param[0x0]\n    %{p}1 = ld.{ld} param[0x8]\n    %{p}2 = {op}.{ty} %{p}0, %{p}1\n    st.{st} global[0x100], %{p}2\n    exit\n}}\n"
    );
    let mut f = parse_function(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    select_function(&mut f, &Target::default()).unwrap();
    verify_function(&f).unwrap_or_else(|e| panic!("{e}\n{f}"));
    assert!(f.sass);
    f
}

/// A unary f32 kernel.
fn kernel1(op: &str) -> Function {
    let text = format!(
        "entry @k() {{\nbb0:\n    %r0 = ld.u32 param[0x0]\n    %r2 = {op} %r0\n    st.f32 global[0x100], %r2\n    exit\n}}\n"
    );
    let mut f = parse_function(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    select_function(&mut f, &Target::default()).unwrap();
    verify_function(&f).unwrap_or_else(|e| panic!("{e}\n{f}"));
    f
}

fn edge32() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => any::<u32>(),
        1 => prop::sample::select(vec![0u32, 1, 2, 3, 7, 10, 0x7fff_ffff, 0x8000_0000, 0x8000_0001, 0xffff_ffff,
            0xffff_fffe, 0xffff_fffd, 0x1_0000 - 1, 0x1_0000, 0x5555_5555, 0xaaaa_aaaa]),
        1 => (0u32..32).prop_map(|s| 1u32 << s),
        1 => (0u32..32, any::<bool>()).prop_map(|(s, up)| if up { (1u32 << s).wrapping_add(1) } else { (1u32 << s).wrapping_sub(1) }),
        1 => 0u32..1000,
    ]
}

fn edge64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        1 => (edge32(), edge32()).prop_map(|(a, b)| (u64::from(a) << 32) | u64::from(b)),
        1 => prop::sample::select(vec![0u64, 1, u64::MAX, 1 << 63, (1 << 63) - 1, 0xffff_ffff, 0x1_0000_0000]),
        1 => 0u64..70,
    ]
}

fn ptx_ref(op: Opcode, ty: ptxas_rs::ori::Ty, a: u64, b: u64) -> u64 {
    let m = ptxas_rs::ori::Mods::ty(ty);
    eval(op, &m, &[Arg::bits(a), Arg::bits(b)]).unwrap()[0].bits()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn div_rem_u32(a in edge32(), b in edge32()) {
        thread_local! { static K: [Function; 2] = [kernel("div", "u32", false), kernel("rem", "u32", false)]; }
        let (q, r) = K.with(|k| (run(&k[0], &[a.into(), b.into()])[0], run(&k[1], &[a.into(), b.into()])[0]));
        let (eq, er) = (a.checked_div(b).unwrap_or(u32::MAX), a.checked_rem(b).unwrap_or(u32::MAX));
        prop_assert_eq!(q as u32, eq, "{} / {}", a, b);
        prop_assert_eq!(r as u32, er, "{} % {}", a, b);
        if b != 0 {
            prop_assert_eq!(q, ptx_ref(Opcode::Div, ptxas_rs::ori::Ty::U32, a.into(), b.into()));
            prop_assert_eq!(r, ptx_ref(Opcode::Rem, ptxas_rs::ori::Ty::U32, a.into(), b.into()));
        }
    }

    #[test]
    fn div_rem_s32(a in edge32(), b in edge32()) {
        thread_local! { static K: [Function; 2] = [kernel("div", "s32", false), kernel("rem", "s32", false)]; }
        let (q, r) = K.with(|k| (run(&k[0], &[a.into(), b.into()])[0], run(&k[1], &[a.into(), b.into()])[0]));
        let (a, b) = (a as i32, b as i32);
        let (eq, er) = if b == 0 { (-1, -1) } else { (a.wrapping_div(b), a.wrapping_rem(b)) };
        prop_assert_eq!(q as u32 as i32, eq, "{} / {}", a, b);
        prop_assert_eq!(r as u32 as i32, er, "{} % {}", a, b);
    }

    #[test]
    fn div_rem_16(a in any::<u16>(), b in any::<u16>(), junk in any::<u16>()) {
        thread_local! { static K: [Function; 4] = [kernel("div", "u16", false), kernel("rem", "u16", false),
            kernel("div", "s16", false), kernel("rem", "s16", false)]; }
        // The registers' upper halves are junk: only the low 16 bits are the operands.
        let (pa, pb) = (u64::from(a) | u64::from(junk) << 16, u64::from(b) | u64::from(!junk) << 16);
        let out: Vec<u16> = K.with(|k| k.iter().map(|f| run(f, &[pa, pb])[0] as u16).collect());
        if let (Some(q), Some(r)) = (a.checked_div(b), a.checked_rem(b)) {
            prop_assert_eq!(out[0], q);
            prop_assert_eq!(out[1], r);
            let (x, y) = (a as i16, b as i16);
            prop_assert_eq!(out[2] as i16, x.wrapping_div(y));
            prop_assert_eq!(out[3] as i16, x.wrapping_rem(y));
        }
    }

    #[test]
    fn arith_u64(a in edge64(), b in edge64()) {
        thread_local! { static K: Vec<Function> = ["add.s64", "sub.s64", "mul.lo.s64", "and.b64", "xor.b64", "min.s64", "max.u64"]
            .iter().map(|o| { let (op, ty) = o.rsplit_once('.').unwrap(); kernel(op, ty, true) }).collect(); }
        let out: Vec<u64> = K.with(|k| k.iter().map(|f| run(f, &[a, b])[0]).collect());
        prop_assert_eq!(out[0], a.wrapping_add(b));
        prop_assert_eq!(out[1], a.wrapping_sub(b));
        prop_assert_eq!(out[2], a.wrapping_mul(b));
        prop_assert_eq!(out[3], a & b);
        prop_assert_eq!(out[4], a ^ b);
        prop_assert_eq!(out[5] as i64, (a as i64).min(b as i64));
        prop_assert_eq!(out[6], a.max(b));
    }

    #[test]
    fn shifts_u64(a in edge64(), s in prop_oneof![0u64..70, any::<u32>().prop_map(u64::from)]) {
        thread_local! { static K: Vec<Function> = ["shl.b64", "shr.u64", "shr.s64"].iter().map(|o| {
            let (op, ty) = o.split_once('.').unwrap();
            let text = format!("entry @k() {{\nbb0:\n    %rd0 = ld.u64 param[0x0]\n    %r1 = ld.u32 param[0x8]\n    %rd2 = {op}.{ty} %rd0, %r1\n    st.u64 global[0x100], %rd2\n    exit\n}}\n");
            let mut f = parse_function(&text).unwrap();
            select_function(&mut f, &Target::default()).unwrap();
            verify_function(&f).unwrap();
            f
        }).collect(); }
        let out: Vec<u64> = K.with(|k| k.iter().map(|f| run(f, &[a, s])[0]).collect());
        let n = s.min(64) as u32;
        prop_assert_eq!(out[0], if n >= 64 { 0 } else { a << n }, "{:#x} << {}", a, s);
        prop_assert_eq!(out[1], if n >= 64 { 0 } else { a >> n }, "{:#x} >> {}", a, s);
        prop_assert_eq!(out[2], ((a as i64) >> n.min(63)) as u64, "{:#x} >>s {}", a, s);
    }

    #[test]
    fn compare_u64(a in edge64(), b in edge64(), same in any::<bool>()) {
        thread_local! { static K: Vec<Function> = ["lt.u64", "le.s64", "gt.s64", "ge.u64", "eq.s64", "ne.u64"].iter().map(|c| {
            let text = format!("entry @k() {{\nbb0:\n    %rd0 = ld.u64 param[0x0]\n    %rd1 = ld.u64 param[0x8]\n    %p2 = setp.{c} %rd0, %rd1\n    %r3 = selp.u32 1, 0, %p2\n    st.u32 global[0x100], %r3\n    exit\n}}\n");
            let mut f = parse_function(&text).unwrap();
            select_function(&mut f, &Target::default()).unwrap();
            verify_function(&f).unwrap();
            f
        }).collect(); }
        // Equal high words half the time, where the low-word compare decides.
        let b = if same { (a & 0xffff_ffff_0000_0000) | (b & 0xffff_ffff) } else { b };
        let out: Vec<bool> = K.with(|k| k.iter().map(|f| run(f, &[a, b])[0] != 0).collect());
        let (x, y) = (a as i64, b as i64);
        prop_assert_eq!(out, vec![a < b, x <= y, x > y, a >= b, a == b, a != b]);
    }

    #[test]
    fn approx_f32(x in any::<u32>(), y in any::<u32>()) {
        thread_local! { static K: Vec<Function> = vec![kernel("div", "f32", false), kernel1("rcp.approx.f32"),
            kernel1("sqrt.approx.f32"), kernel1("rsqrt.approx.f32")]; }
        let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
        let out: Vec<f32> = K.with(|k| k.iter().map(|f| f32::from_bits(run(f, &[x.into(), y.into()])[0] as u32)).collect());
        let q = f64::from(fx) / f64::from(fy);
        // div.full: exact where the quotient and 1/y are normal (PTX: 2 ulp there).
        if fy.is_normal() && fy.abs() < 2f32.powi(126) && (q as f32).is_normal() {
            prop_assert!(ulps(out[0], q) <= 2, "{} / {} = {} (want {})", fx, fy, out[0], q);
        }
        prop_assert!(ulps(out[1], 1.0 / f64::from(fx)) <= 1, "rcp {:e} = {:e}", fx, out[1]);
        prop_assert!(ulps(out[2], f64::from(fx).sqrt()) <= 1, "sqrt {:e} = {:e}", fx, out[2]);
        prop_assert!(ulps(out[3], 1.0 / f64::from(fx).sqrt()) <= 1, "rsqrt {:e} = {:e}", fx, out[3]);
    }
}

/// The distance in f32 units in the last place between `got` and the exact `want` rounded to
/// f32 (0 for equal values and for NaN against NaN; huge for a NaN against a number).
fn ulps(got: f32, want: f64) -> u64 {
    let want = want as f32;
    if got.is_nan() || want.is_nan() {
        return if got.is_nan() && want.is_nan() { 0 } else { u64::MAX };
    }
    if got == want {
        return 0;
    }
    let key = |v: f32| {
        let b = v.to_bits() as i64;
        if b < 0 { i64::from(i32::MIN) - b } else { b }
    };
    let key = |v: f32| if v.is_sign_negative() { -(key(-v)) } else { key(v) };
    (key(got) - key(want)).unsigned_abs()
}

#[test]
fn immediates_in_64_bit_sequences() {
    let _ = Imm::Int(0);
    let text = "entry @k() {\nbb0:\n    %rd0 = ld.u64 param[0x0]\n    %rd1 = sub.s64 %rd0, 0x100000000\n    %rd2 = add.s64 %rd1, -1\n    st.u64 global[0x100], %rd2\n    exit\n}\n";
    let mut f = parse_function(text).unwrap();
    select_function(&mut f, &Target::default()).unwrap();
    verify_function(&f).unwrap();
    for a in [0u64, 1, 0xffff_ffff, 0x1_0000_0000, u64::MAX] {
        assert_eq!(run(&f, &[a])[0], a.wrapping_sub(0x1_0000_0000).wrapping_sub(1), "{a:#x}");
    }
}

fn edgef32() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => any::<u32>(),
        1 => prop::sample::select(vec![0u32, 0x8000_0000, 0x3f80_0000, 0xbf80_0000, 0x7f80_0000, 0xff80_0000,
            0x7fc0_0000, 0x0000_0001, 0x8000_0001, 0x007f_ffff, 0x0080_0000, 0x7f7f_ffff, 0xff7f_ffff, 0x4000_0000,
            0x4040_0000, 0x3e80_0000, 0x0d80_0000, 0x7180_0000]),
        1 => (0u32..0x0100_0000).prop_map(|m| m),                 // subnormals and tiny normals
        1 => (0x7e00_0000u32..0x7f80_0000).prop_map(|m| m),      // huge
        1 => (1u32..2000).prop_map(|i| (i as f32).to_bits()),     // small integers (exact quotients)
    ]
}

/// Bit-equal, or both NaN.
fn same_f32(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    /// IEEE division, reciprocal and square root in all four rounding modes, bit-exact
    /// against the host (round to nearest) and the project's soft float (every mode).
    #[test]
    fn ieee_div_rcp_sqrt_f32(x in edgef32(), y in edgef32()) {
        use ptxas_rs::ori::float::{self, F32};
        use ptxas_rs::ori::Rnd;
        thread_local! { static K: Vec<Function> = ["rn", "rz", "rm", "rp"].iter().flat_map(|m| [
            kernel("div", &format!("{m}.f32"), false), kernel1(&format!("rcp.{m}.f32")), kernel1(&format!("sqrt.{m}.f32"))
        ]).collect(); }
        let out: Vec<u32> = K.with(|k| k.iter().map(|f| run(f, &[x.into(), y.into()])[0] as u32).collect());
        let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
        prop_assert!(same_f32(out[0], (fx / fy).to_bits()), "{:e} / {:e}: {:#x}", fx, fy, out[0]);
        prop_assert!(same_f32(out[1], (1.0 / fx).to_bits()), "rcp {:e}: {:#x}", fx, out[1]);
        prop_assert!(same_f32(out[2], fx.sqrt().to_bits()), "sqrt {:e}: {:#x}", fx, out[2]);
        for (i, rnd) in [Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp].into_iter().enumerate() {
            let q = float::div(F32, x.into(), y.into(), rnd) as u32;
            let rc = float::div(F32, 0x3f80_0000, x.into(), rnd) as u32;
            let sq = float::sqrt(F32, x.into(), rnd) as u32;
            prop_assert!(same_f32(out[3 * i], q), "{:e} / {:e} {:?}: {:#x} want {:#x}", fx, fy, rnd, out[3 * i], q);
            prop_assert!(same_f32(out[3 * i + 1], rc), "rcp {:e} {:?}: {:#x} want {:#x}", fx, rnd, out[3 * i + 1], rc);
            prop_assert!(same_f32(out[3 * i + 2], sq), "sqrt {:e} {:?}: {:#x} want {:#x}", fx, rnd, out[3 * i + 2], sq);
        }
    }
}

/// One PTX-stage instruction template: the instruction with `{d0}`, `{d1}` for destinations
/// and `{s0}`.. for sources, the destination classes and the source classes (`r`, `rd`, `p`).
struct Tpl {
    inst: &'static str,
    dsts: &'static [&'static str],
    srcs: &'static [&'static str],
    /// Bits of the data destination that are meaningful (sub-word results).
    width: u32,
}

const fn t(inst: &'static str, dsts: &'static [&'static str], srcs: &'static [&'static str], width: u32) -> Tpl {
    Tpl { inst, dsts, srcs, width }
}

const TEMPLATES: &[Tpl] = &[
    t("bfe.u32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("bfe.s32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("bfe.u64 {s0}, {s1}, {s2}", &["rd"], &["rd", "r", "r"], 64),
    t("bfe.s64 {s0}, {s1}, {s2}", &["rd"], &["rd", "r", "r"], 64),
    t("bfi.b32 {s0}, {s1}, {s2}, {s3}", &["r"], &["r", "r", "r", "r"], 32),
    t("bfi.b64 {s0}, {s1}, 8, 40", &["rd"], &["rd", "rd"], 64),
    t("bfi.b64 {s0}, {s1}, 32, 32", &["rd"], &["rd", "rd"], 64),
    t("bfi.b64 {s0}, {s1}, 40, 30", &["rd"], &["rd", "rd"], 64),
    t("bfi.b64 {s0}, {s1}, {s2}, {s3}", &["rd"], &["rd", "rd", "r", "r"], 64),
    t("bfi.b64 {s0}, {s1}, {s2}, 24", &["rd"], &["rd", "rd", "r"], 64),
    t("fns.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("div.u64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("rem.u64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("div.s64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("rem.s64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("tanh.approx.f16x2 {s0}", &["r"], &["r"], 32),
    t("ex2.approx.f16x2 {s0}", &["r"], &["r"], 32),
    t("tanh.approx.f16 {s0}", &["r"], &["r"], 16),
    t("bmsk.clamp.b32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("bmsk.wrap.b32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("prmt.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("prmt.f4e.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("prmt.b4e.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("prmt.rc8.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("prmt.ecl.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("prmt.ecr.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("prmt.rc16.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("mul.hi.u64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("mul.hi.s64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("mad.lo.s64 {s0}, {s1}, {s2}", &["rd"], &["rd", "rd", "rd"], 64),
    t("mul.wide.s32 {s0}, {s1}", &["rd"], &["r", "r"], 64),
    t("mad.wide.u32 {s0}, {s1}, {s2}", &["rd"], &["r", "r", "rd"], 64),
    t("mul.hi.s32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("mad.hi.u32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("mul.hi.s16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("mul.wide.u16 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("mul.lo.s16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("min.s32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("max.u16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("min.s16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("min.s64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("max.u64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("abs.s32 {s0}", &["r"], &["r"], 32),
    t("abs.s16 {s0}", &["r"], &["r"], 16),
    t("abs.s64 {s0}", &["rd"], &["rd"], 64),
    t("neg.s64 {s0}", &["rd"], &["rd"], 64),
    t("not.b64 {s0}", &["rd"], &["rd"], 64),
    t("or.b64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("popc.b64 {s0}", &["r"], &["rd"], 32),
    t("popc.b32 {s0}", &["r"], &["r"], 32),
    t("clz.b64 {s0}", &["r"], &["rd"], 32),
    t("clz.b32 {s0}", &["r"], &["r"], 32),
    t("bfind.u32 {s0}", &["r"], &["r"], 32),
    t("bfind.s32 {s0}", &["r"], &["r"], 32),
    t("bfind.shiftamt.u32 {s0}", &["r"], &["r"], 32),
    t("bfind.u64 {s0}", &["r"], &["rd"], 32),
    t("bfind.s64 {s0}", &["r"], &["rd"], 32),
    t("bfind.shiftamt.s64 {s0}", &["r"], &["rd"], 32),
    t("brev.b32 {s0}", &["r"], &["r"], 32),
    t("brev.b64 {s0}", &["rd"], &["rd"], 64),
    t("sad.s32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("sad.u32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("add.sat.s32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("sub.sat.s32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("shf.l.wrap.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("shf.r.clamp.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("shf.r.wrap.b32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("shl.b16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("shr.s16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("shr.u32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("shr.s32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("cvt.sat.s16.s64 {s0}", &["r"], &["rd"], 32),
    t("cvt.sat.u8.s64 {s0}", &["r"], &["rd"], 32),
    t("cvt.sat.s32.u64 {s0}", &["r"], &["rd"], 32),
    t("cvt.sat.u32.s64 {s0}", &["r"], &["rd"], 32),
    t("cvt.sat.u16.s32 {s0}", &["r"], &["r"], 32),
    t("cvt.s32.s16 {s0}", &["r"], &["r"], 32),
    t("cvt.u16.u32 {s0}", &["r"], &["r"], 32),
    t("cvt.s8.s32 {s0}", &["r"], &["r"], 32),
    t("cvt.s64.s32 {s0}", &["rd"], &["r"], 64),
    t("cvt.u64.u16 {s0}", &["rd"], &["r"], 64),
    t("cvt.u32.u64 {s0}", &["r"], &["rd"], 32),
    t("copysign.f32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("copysign.f64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("min.f64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("max.f64 {s0}, {s1}", &["rd"], &["rd", "rd"], 64),
    t("addc.u32 {s0}, {s1}, {s2}", &["r", "p"], &["r", "r", "p"], 32),
    t("subc.u32 {s0}, {s1}, {s2}", &["r", "p"], &["r", "r", "p"], 32),
    t("addc.u64 {s0}, {s1}, {s2}", &["rd", "p"], &["rd", "rd", "p"], 64),
    t("subc.s64 {s0}, {s1}, {s2}", &["rd", "p"], &["rd", "rd", "p"], 64),
    t("madc.lo.u32 {s0}, {s1}, {s2}, {s3}", &["r", "p"], &["r", "r", "r", "p"], 32),
    t("madc.hi.u32 {s0}, {s1}, {s2}, {s3}", &["r", "p"], &["r", "r", "r", "p"], 32),
    t("dp4a.s32.u32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("dp4a.u32.s32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("dp2a.lo.s32.s32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("dp2a.hi.u32.u32 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("setp.lt.s16 {s0}, {s1}", &["p"], &["r", "r"], 1),
    t("setp.ge.u16 {s0}, {s1}", &["p"], &["r", "r"], 1),
    t("setp.ne.s64 {s0}, {s1}", &["p"], &["rd", "rd"], 1),
    t("and.pred {s0}, {s1}", &["p"], &["p", "p"], 1),
    t("xor.pred {s0}, {s1}", &["p"], &["p", "p"], 1),
    t("selp.b64 {s0}, {s1}, {s2}", &["rd"], &["rd", "rd", "p"], 64),
    t("add.f16x2 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("sub.sat.f16x2 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("sub.bf16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("mul.f16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("fma.rn.relu.bf16x2 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 32),
    t("fma.rn.f16 {s0}, {s1}, {s2}", &["r"], &["r", "r", "r"], 16),
    t("min.f16x2 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("max.bf16 {s0}, {s1}", &["r"], &["r", "r"], 16),
    t("neg.f16x2 {s0}", &["r"], &["r"], 32),
    t("abs.bf16 {s0}", &["r"], &["r"], 16),
    t("setp.lt.f16 {s0}, {s1}", &["p"], &["r", "r"], 1),
    t("setp.gtu.bf16 {s0}, {s1}", &["p"], &["r", "r"], 1),
    t("div.rn.f32 {s0}, {s1}", &["r"], &["r", "r"], 32),
    t("sqrt.rz.f32 {s0}", &["r"], &["r"], 32),
];

/// The kernel text of a template: sources from parameters (predicates: `setp.ne` of one),
/// destinations stored (predicates as 0/1).
fn template_kernel(tp: &Tpl) -> String {
    let mut body = String::new();
    let mut n = 0;
    let mut src = Vec::new();
    for (i, c) in tp.srcs.iter().enumerate() {
        let off = 8 * i;
        match *c {
            "rd" => body.push_str(&format!("    %rd{n} = ld.u64 param[{off:#x}]\n")),
            "r" => body.push_str(&format!("    %r{n} = ld.u32 param[{off:#x}]\n")),
            _ => {
                body.push_str(&format!("    %r{n} = ld.u32 param[{off:#x}]\n"));
                n += 1;
                body.push_str(&format!("    %p{n} = setp.ne.u32 %r{}, 0\n", n - 1));
            }
        }
        src.push(format!(
            "%{}{n}",
            if *c == "rd" {
                "rd"
            } else if *c == "p" {
                "p"
            } else {
                "r"
            }
        ));
        n += 1;
    }
    let mut dsts = Vec::new();
    for c in tp.dsts {
        dsts.push(format!("%{c}{n}"));
        n += 1;
    }
    let mut inst = tp.inst.to_string();
    for (i, s) in src.iter().enumerate() {
        inst = inst.replace(&format!("{{s{i}}}"), s);
    }
    body.push_str(&format!("    {} = {inst}\n", dsts.join(", ")));
    for (k, (dname, c)) in dsts.iter().zip(tp.dsts).enumerate() {
        let off = 0x100 + 8 * k;
        match *c {
            "rd" => body.push_str(&format!("    st.u64 global[{off:#x}], {dname}\n")),
            "r" => body.push_str(&format!("    st.u32 global[{off:#x}], {dname}\n")),
            _ => {
                body.push_str(&format!("    %r{n} = selp.u32 1, 0, {dname}\n"));
                body.push_str(&format!("    st.u32 global[{off:#x}], %r{n}\n"));
                n += 1;
            }
        }
    }
    format!("entry @k() {{\nbb0:\n{body}    exit\n}}\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, ..ProptestConfig::default() })]

    /// Every template's selection computes what the PTX-stage semantics compute, on
    /// full-width random (edge-biased) operands; sub-word results compare their low bits.
    #[test]
    fn selected_equals_ptx_semantics(vals in prop::collection::vec(edge64(), 4), small in prop::collection::vec(0u64..80, 4), pick in any::<u8>()) {
        thread_local! { static K: Vec<(Function, Function)> = TEMPLATES.iter().map(|tp| {
            let text = template_kernel(tp);
            let orig = parse_function(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let mut sel = orig.clone();
            select_function(&mut sel, &Target::default()).unwrap_or_else(|e| panic!("{}: {e}", tp.inst));
            verify_function(&sel).unwrap_or_else(|e| panic!("{}: {e}\n{sel}", tp.inst));
            (orig, sel)
        }).collect(); }
        // Operands: full-width values, some replaced by small ones (positions, lengths, shifts).
        let params: Vec<u64> = vals.iter().zip(&small).enumerate()
            .map(|(i, (v, s))| if pick >> i & 1 == 1 { *s } else { *v }).collect();
        K.with(|k| -> Result<(), TestCaseError> {
            for (tp, (orig, sel)) in TEMPLATES.iter().zip(k) {
                let p32: Vec<u64> = tp.srcs.iter().zip(&params).map(|(c, v)| if *c == "rd" { *v } else { v & 0xffff_ffff }).collect();
                let want = run(orig, &p32);
                let got = run(sel, &p32);
                for (i, (w, g)) in want.iter().zip(&got).enumerate() {
                    let m = if tp.dsts[i] == "p" { 1 } else if tp.width >= 64 { u64::MAX } else { (1u64 << tp.width) - 1 };
                    prop_assert_eq!(g & m, w & m, "{} with {:x?}: destination {}", tp.inst, p32, i);
                }
            }
            Ok(())
        })?;
    }
}

/// The stack pointer R1 of the kernel prologue is the one physical register a selected
/// (`sass`, unallocated) function may hold; a PTX-stage function may not.
#[test]
fn prologue_r1_is_allowed_only_in_sass_functions() {
    let f = kernel("add", "u32", false);
    let first = f.block_insts(f.entry().unwrap())[0];
    assert_eq!(f.insts[first].opcode, Opcode::LDC);
    assert_eq!(f.insts[first].dsts[0], Reg::Phys(ptxas_rs::ori::PhysReg::new(ptxas_rs::ori::RegFile::R, 1)));
    let mut ptx = f.clone();
    ptx.sass = false;
    assert!(verify_function(&ptx).is_err_and(|e| e.to_string().contains("before register allocation")));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4_000, ..ProptestConfig::default() })]

    /// `fns.b32`'s branch-free search against a Rust reference written from the PTX ISA
    /// (walk from `base` toward the MSB for a positive offset, toward the LSB for a negative
    /// one, counting set bits; offset 0 tests `base` itself; all ones when not found or when
    /// `base > 31`), with bases and offsets concentrated where the search is subtle.
    #[test]
    fn fns_finds_the_nth_set_bit(mask in edge32(), base in prop_oneof![4 => 0u32..34, 1 => any::<u32>()],
                                 off in prop_oneof![4 => -34i32..34, 1 => any::<i32>()]) {
        thread_local! { static K: Function = {
            let tp = Tpl { inst: "fns.b32 {s0}, {s1}, {s2}", dsts: &["r"], srcs: &["r", "r", "r"], width: 32 };
            let mut f = parse_function(&template_kernel(&tp)).unwrap();
            select_function(&mut f, &Target::default()).unwrap();
            verify_function(&f).unwrap();
            f
        }; }
        let want = if base > 31 {
            u32::MAX
        } else if off == 0 {
            if mask >> base & 1 == 1 { base } else { u32::MAX }
        } else {
            let mut n = off.unsigned_abs();
            let mut found = u32::MAX;
            let mut p = base as i64;
            while (0..32).contains(&p) {
                if mask >> p & 1 == 1 {
                    n -= 1;
                    if n == 0 {
                        found = p as u32;
                        break;
                    }
                }
                p += if off > 0 { 1 } else { -1 };
            }
            found
        };
        let got = K.with(|f| run(f, &[u64::from(mask), u64::from(base), u64::from(off as u32)]));
        prop_assert_eq!(got[0] as u32, want, "fns({:#x}, {}, {})", mask, base, off);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    /// `rcp.approx.ftz.f64` (ptxas's `MUFU.RCP64H` of the high word, low word 0): within
    /// 2^-19 of the exact reciprocal for normal operands and results (the unit ignores the
    /// operand's low word and the result has only a high word); NaN for NaN.
    #[test]
    fn rcp_approx_f64_is_close(x in any::<u64>()) {
        thread_local! { static K: Function = {
            let tp = Tpl { inst: "rcp.approx.ftz.f64 {s0}", dsts: &["rd"], srcs: &["rd"], width: 64 };
            let mut f = parse_function(&template_kernel(&tp)).unwrap();
            select_function(&mut f, &Target::default()).unwrap();
            verify_function(&f).unwrap();
            f
        }; }
        let got = f64::from_bits(K.with(|f| run(f, &[x]))[0]);
        let xf = f64::from_bits(x);
        let want = 1.0 / xf;
        if xf.is_nan() {
            prop_assert!(got.is_nan());
        } else if xf.is_normal() && want.is_normal() {
            prop_assert!(((got - want) / want).abs() < 2f64.powi(-19), "1/{:e}: {:e} want {:e}", xf, got, want);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, ..ProptestConfig::default() })]

    /// `ex2.approx.f32` without `.ftz` keeps subnormal results (ptxas's `ex2(x/2)^2` below
    /// -126): within 2 ulp of the correctly rounded 2^x everywhere, subnormal results included
    /// (not flushed to zero), and exactly the PTX-stage result above -126.
    #[test]
    fn ex2_approx_keeps_subnormals(x in prop_oneof![3 => -160f32..-110f32, 1 => any::<f32>()]) {
        thread_local! { static K: (Function, Function) = {
            let tp = Tpl { inst: "ex2.approx.f32 {s0}", dsts: &["r"], srcs: &["r"], width: 32 };
            let orig = parse_function(&template_kernel(&tp)).unwrap();
            let mut f = orig.clone();
            select_function(&mut f, &Target::default()).unwrap();
            verify_function(&f).unwrap();
            (orig, f)
        }; }
        let (want, got) = K.with(|(o, f)| (run(o, &[u64::from(x.to_bits())])[0] as u32, run(f, &[u64::from(x.to_bits())])[0] as u32));
        if x.is_nan() {
            prop_assert!(f32::from_bits(got).is_nan());
        } else if x >= -126.0 {
            prop_assert_eq!(got, want, "ex2({:e})", x);
        } else {
            let exact = (f64::from(x)).exp2() as f32;
            let d = (i64::from(got) - i64::from(exact.to_bits())).abs();
            prop_assert!(d <= 2, "ex2({:e}) = {:#x}, exact {:#x}", x, got, exact.to_bits());
            prop_assert!(exact.to_bits() == 0 || got != 0 || d <= 2);
        }
    }
}

/// f64 operands: full-width words, edge values, and values with nearby exponents (ordinary
/// quotients) or exponents that make the quotient subnormal.
fn edgef64() -> impl Strategy<Value = u64> {
    const EDGE: &[u64] = &[
        0,
        1 << 63,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x0000_0000_0000_0001,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0xbfef_ffff_ffff_ffff,
    ];
    prop_oneof![
        any::<u64>(),
        proptest::sample::select(EDGE),
        (any::<u64>(), 0x3c0u64..0x440).prop_map(|(m, e)| (m & 0x800f_ffff_ffff_ffff) | e << 52),
        (any::<u64>(), 0u64..0x40).prop_map(|(m, e)| (m & 0x800f_ffff_ffff_ffff) | e << 52),
        (any::<u64>(), 0x7b0u64..0x7ff).prop_map(|(m, e)| (m & 0x800f_ffff_ffff_ffff) | e << 52),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    /// IEEE `div.rn.f64` and `rcp.rn.f64` (`lower::isel::f64_div`), evaluated on the Ori
    /// semantics table: bit-exact against the host's `/` (any NaN for NaN).
    #[test]
    fn ieee_div_rcp_f64(x in edgef64(), y in edgef64()) {
        thread_local! { static K: [Function; 2] = [kernel("div", "rn.f64", true), {
            let tp = Tpl { inst: "rcp.rn.f64 {s0}", dsts: &["rd"], srcs: &["rd"], width: 64 };
            let mut f = parse_function(&template_kernel(&tp)).unwrap();
            select_function(&mut f, &Target::default()).unwrap();
            verify_function(&f).unwrap();
            f
        }]; }
        let (q, rc) = K.with(|k| (run(&k[0], &[x, y])[0], run(&k[1], &[x])[0]));
        let (fx, fy) = (f64::from_bits(x), f64::from_bits(y));
        let same = |got: u64, want: f64| if want.is_nan() { f64::from_bits(got).is_nan() } else { got == want.to_bits() };
        prop_assert!(same(q, fx / fy), "{:e} / {:e} ({:#x} / {:#x}): {:#x} want {:#x}", fx, fy, x, y, q, (fx / fy).to_bits());
        prop_assert!(same(rc, 1.0 / fx), "1 / {:e} ({:#x}): {:#x} want {:#x}", fx, x, rc, (1.0 / fx).to_bits());
    }
}
