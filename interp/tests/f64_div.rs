//! IEEE `div.rn.f64` and `rcp.rn.f64` (issue 7, `ptxas_rs::lower::isel::f64_div`): a kernel
//! dividing operand arrays is compiled by our backend at -O0 and -O3 and run in the SASS
//! emulator (hazard checking on); every quotient and reciprocal must equal Rust's `a / b` and
//! `1.0 / a` bit for bit (any NaN for a NaN).
//!
//! The operands: random full-width words (every exponent, so many quotients overflow or
//! underflow), ±0, ±∞, NaNs, subnormals, the extremes, quotients near the overflow and
//! subnormal thresholds, and constructed subnormal quotients whose 53-bit rounding lands
//! exactly on a midpoint of the subnormal grid (where rounding the 53-bit quotient again gives
//! the wrong neighbour). The test counts, and requires enough of, the operands outside
//! ptxas's own fast-path range (those NVIDIA sends to `__cuda_sm20_div_rn_f64_full`) and the
//! double-rounding cases.
//!
//! When NVIDIA's tools are installed, NVIDIA's cubin of the same PTX must give the same
//! results in the emulator, and our cubins must pass `nvdisasm` silently.

#[path = "support/edge_operands.rs"]
#[allow(dead_code)]
mod edge;

use edge::splitmix;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;
use interp::launch::builder::SpecBuilder;
use ptxas_rs::backend;

const PTX: &str = r#".version 8.0
.target sm_90
.address_size 64

.visible .entry fdiv(.param .u64 pa, .param .u64 pb, .param .u64 pout, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f64 %fd<6>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pout];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mul.wide.u32 %rd7, %r5, 8;
    add.s64 %rd8, %rd4, %rd7;
    add.s64 %rd9, %rd5, %rd7;
    ld.global.f64 %fd1, [%rd8];
    ld.global.f64 %fd2, [%rd9];
    div.rn.f64 %fd3, %fd1, %fd2;
    rcp.rn.f64 %fd4, %fd1;
    mul.wide.u32 %rd10, %r5, 16;
    add.s64 %rd11, %rd6, %rd10;
    st.global.f64 [%rd11], %fd3;
    st.global.f64 [%rd11+8], %fd4;
DONE:
    ret;
}
"#;

/// Operand pairs (f64 bits).
const N: usize = 128 * 48;

const EDGE: &[u64] = &[
    0,
    1 << 63,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0xfff8_dead_beef_0001,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x8000_0000_0000_0001,
    0x000f_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x0008_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0xffef_ffff_ffff_ffff,
    0x3fef_ffff_ffff_ffff,
    0x3ff0_0000_0000_0001,
    0x4340_0000_0000_0000,
    0x3ca0_0000_0000_0000,
    0x7fe0_0000_0000_0000,
    0x0360_0000_0000_0000,
];

/// 2^k as an f64 (k in the normal range).
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// A value in [1, 2) with random mantissa bits.
fn mant(r: u64) -> f64 {
    f64::from_bits(0x3ff0_0000_0000_0000 | (r & 0x000f_ffff_ffff_ffff))
}

/// A subnormal quotient whose 53-bit rounding is (usually) a midpoint of the subnormal grid:
/// `m` in [1, 2) keeps `p` bits and has the next bit set, `a = RN(m·bm)·2^(eb+E)`,
/// `b = bm·2^eb`, so `a / b ≈ m·2^E` with `m·2^E` subnormal at `p` bits of precision.
fn midpoint_pair(next: &mut impl FnMut() -> u64) -> (u64, u64) {
    let p = 1 + (next() % 52) as i32; // bits kept, 1..=52
    let drop = 52 - (p - 1); // fraction bits below the kept ones: 53 - p
    let frac = next() & 0x000f_ffff_ffff_ffff;
    let frac = (frac & !((1u64 << drop) - 1)) | (1u64 << (drop - 1));
    let m = f64::from_bits(0x3ff0_0000_0000_0000 | frac);
    let bm = mant(next());
    let e = -1075 + p; // m·2^E has p significant bits above 2^-1074
    let eb = 60 + (next() % 800) as i32;
    let a = (m * bm) * pow2(eb + e);
    let b = bm * pow2(eb);
    let s = next();
    let a = if s & 1 != 0 { -a } else { a };
    let b = if s & 2 != 0 { -b } else { b };
    (a.to_bits(), b.to_bits())
}

fn operands() -> Vec<(u64, u64)> {
    let mut next = splitmix(0x64d1_7001);
    let mut v = Vec::with_capacity(N);
    // Every pair of edge values.
    for &a in EDGE {
        for &b in EDGE {
            v.push((a, b));
        }
    }
    while v.len() < N {
        let r = next();
        let sign = |x: f64, s: u64| if s & 1 != 0 { -x } else { x };
        let pair = match r % 8 {
            0 | 1 => (next(), next()),
            2 => (EDGE[(next() % EDGE.len() as u64) as usize], next()),
            3 => (next(), EDGE[(next() % EDGE.len() as u64) as usize]),
            // Ordinary quotients.
            4 => {
                let a = mant(next()) * pow2((next() % 200) as i32 - 100);
                let b = mant(next()) * pow2((next() % 200) as i32 - 100);
                (sign(a, r >> 8).to_bits(), sign(b, r >> 9).to_bits())
            }
            // Near the overflow and the subnormal thresholds, and subnormal operands.
            5 => {
                let k = (next() % 6) as i32;
                let a = mant(next());
                let b = mant(next());
                let (a, b) = match k {
                    0 => (a * pow2(1000), b * pow2(-24 + (next() % 4) as i32)),
                    1 => (a * pow2(-1000), b * pow2(22 + (next() % 4) as i32)),
                    2 => (a * pow2(-1022), b),
                    3 => (f64::from_bits(next() & 0x000f_ffff_ffff_ffff), b * pow2((next() % 100) as i32 - 50)),
                    4 => (a * pow2((next() % 100) as i32 - 50), f64::from_bits(next() & 0x000f_ffff_ffff_ffff)),
                    _ => {
                        (f64::from_bits(next() & 0x000f_ffff_ffff_ffff), f64::from_bits(next() & 0x000f_ffff_ffff_ffff))
                    }
                };
                (sign(a, r >> 8).to_bits(), sign(b, r >> 9).to_bits())
            }
            _ => midpoint_pair(&mut next),
        };
        v.push(pair);
    }
    v
}

fn spec(ops: &[(u64, u64)]) -> LaunchSpec {
    // Each f64 operand as two little-endian u32 words.
    let words = |f: fn(&(u64, u64)) -> u64| ops.iter().flat_map(move |p| [f(p) & 0xffff_ffff, f(p) >> 32]);
    SpecBuilder::new("fdiv")
        .threads(N as u32, 128)
        .values("a", "u32", words(|p| p.0))
        .values("b", "u32", words(|p| p.1))
        .output("out", "u32", 4 * N)
        .scalar("u32", N as u64)
        .build()
        .unwrap()
}

/// The `out` buffer of `cubin` run in the emulator with hazard checking, as f64 bits.
fn emulate(cubin: &[u8], spec: &LaunchSpec) -> Vec<u64> {
    let kernel = Kernel::load(cubin, &spec.kernel).unwrap();
    let run = kernel.run(spec, &EmuConfig { hazards: true, ..EmuConfig::default() }).unwrap_or_else(|e| panic!("{e}"));
    run.outputs.get("out").unwrap().chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn same(got: u64, want: f64) -> bool {
    let g = f64::from_bits(got);
    if want.is_nan() { g.is_nan() } else { got == want.to_bits() }
}

/// The first wrong result, as a message.
fn check(who: &str, ops: &[(u64, u64)], out: &[u64]) -> Result<(), String> {
    for (i, &(a, b)) in ops.iter().enumerate() {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let (q, rc) = (out[2 * i], out[2 * i + 1]);
        if !same(q, x / y) {
            return Err(format!(
                "{who}: {x:e} / {y:e} ({a:#018x} / {b:#018x}) gave {:e} ({q:#018x}), want {:e} ({:#018x})",
                f64::from_bits(q),
                x / y,
                (x / y).to_bits()
            ));
        }
        if !same(rc, 1.0 / x) {
            return Err(format!("{who}: 1 / {x:e} ({a:#018x}) gave {rc:#018x}, want {:#018x}", (1.0 / x).to_bits()));
        }
    }
    Ok(())
}

/// Whether ptxas's inline fast path would not be taken for `a / b` (its range check, read from
/// its sm_90 code: `|hi(a)| >= 2^-120` as an f32 (true for NaN), and `|hi(q)| > 2^-129` as an
/// f32 with `q` the quotient and `hi(b)` an f32 that is not infinite or NaN).
fn outside_fast_range(a: u64, b: u64) -> bool {
    let hi = |x: u64| f32::from_bits((x >> 32) as u32);
    let q = (f64::from_bits(a) / f64::from_bits(b)).to_bits();
    let c1 = hi(a).is_nan() || hi(a).abs() >= 2f32.powi(-120);
    let t = 0.0f32.mul_add(hi(b), hi(q));
    let c2 = t.abs() > f32::from_bits(0x0010_0000);
    !(c1 && c2)
}

/// Whether rounding the 53-bit quotient of the operands' mantissas once more to the result's
/// precision gives a wrong result (a double-rounding case).
fn double_rounding(a: u64, b: u64) -> bool {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    if !(x.is_normal() && y.is_normal()) {
        return false;
    }
    let (ea, eb) = (((a >> 52) & 0x7ff) as i32 - 1023, ((b >> 52) & 0x7ff) as i32 - 1023);
    let q = mant(a) / mant(b);
    let k = ea - eb;
    if !(-1200..=1000).contains(&k) {
        return false;
    }
    let twice = q * pow2(k / 2) * pow2(k - k / 2);
    twice.abs() != (x / y).abs()
}

#[test]
fn div_rn_f64_is_correctly_rounded_in_the_emulator() {
    let ops = operands();
    let spec = spec(&ops);
    let slow = ops.iter().filter(|&&(a, b)| outside_fast_range(a, b)).count();
    let dr = ops.iter().filter(|&&(a, b)| double_rounding(a, b)).count();
    let sub = ops
        .iter()
        .filter(|&&(a, b)| {
            let q = f64::from_bits(a) / f64::from_bits(b);
            q != 0.0 && q.is_finite() && !q.is_normal()
        })
        .count();
    println!(
        "{N} operand pairs: {slow} outside ptxas's fast-path range, {sub} subnormal quotients, {dr} double-rounding cases"
    );
    assert!(slow > N / 4, "too few operands outside the fast-path range: {slow}");
    assert!(dr > N / 40, "too few double-rounding cases: {dr}");
    let ast = ptxas_rs::ptx::parse(PTX, "fdiv.ptx").unwrap();
    let tools = oracle::tools_or_skip("div_rn_f64 (nvdisasm and NVIDIA's cubin)");
    for level in [0u8, 3] {
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let cubin = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("-O{level}: {e}")).cubin;
        check(&format!("ours -O{level}"), &ops, &emulate(&cubin, &spec)).unwrap();
        if let Some(t) = tools {
            let path = std::env::temp_dir().join(format!("ptxas-rs-f64div-{}-O{level}.cubin", std::process::id()));
            std::fs::write(&path, &cubin).unwrap();
            let out = std::process::Command::new(t.nvdisasm()).arg(&path).output().unwrap();
            let _ = std::fs::remove_file(&path);
            assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    if let Some(t) = tools {
        let out = t.ptxas_run(oracle::PtxInput::Text { name: "fdiv.ptx", text: PTX }, &["-arch", "sm_90"]).unwrap();
        let cubin = out.cubin.unwrap_or_else(|| panic!("NVIDIA ptxas: {}", out.stderr));
        check("NVIDIA's cubin", &ops, &emulate(&cubin, &spec)).unwrap();
    }
}
