//! Comparisons on f16/bf16 halves and half `neg`/`abs`, end to end against an independent
//! reference written here.
//!
//! A kernel computes `set.<cmp>.<dtype>.f16x2/.bf16x2` (each half compared on its own; true is
//! all ones per half for `.u32`, 1.0 per half for the half types), `setp.<cmp>.f16x2 p|q` (`p`
//! the low halves, `q` the high halves; with and without a boolean operand and `.ftz`), the
//! scalar `set.<cmp>.f16.f16` (1.0 = 0x3c00) and `set.<cmp>.u32.bf16`, and `neg`/`abs` on
//! `.f16x2`/`.bf16x2` (the GPU adds -0, so a NaN half comes out as the canonical 0x7fff: H200
//! goldens of f16_half2_arith and bf16_arith2). The operands are full-width words built from
//! edge halves (zeros, infinities, NaNs of both signs, subnormals) and random bits.
//!
//! Checks: the Ori interpreter on the lowered PTX equals the reference in this file for every
//! output word; our cubin (-O0 and -O3) in the SASS emulator, hazard checking on, equals the
//! interpreter; with NVIDIA's tools, NVIDIA's cubin in the emulator equals it too.

#[path = "support/edge_operands.rs"]
mod edge_operands;

use edge_operands::{HALF, pick, splitmix};
use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;
use interp::launch::builder::SpecBuilder;
use ptxas_rs::backend;

const PTX: &str = r#".version 8.0
.target sm_90
.address_size 64

.visible .entry half_compare(.param .u64 pa, .param .u64 pb, .param .u64 pout)
{
    .reg .pred %p<8>;
    .reg .b16 %h<10>;
    .reg .b32 %r<40>;
    .reg .b64 %rd<12>;

    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.u32 %r4, %r1, %r2, %r3;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pout];
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mul.wide.u32 %rd7, %r4, 4;
    add.s64 %rd8, %rd4, %rd7;
    ld.global.b32 %r6, [%rd8];
    add.s64 %rd9, %rd5, %rd7;
    ld.global.b32 %r7, [%rd9];
    mul.wide.u32 %rd10, %r4, 48;
    add.s64 %rd11, %rd6, %rd10;
    and.b32 %r5, %r4, 1;
    setp.ne.u32 %p7, %r5, 0;

    set.lt.f16x2.f16x2 %r8, %r6, %r7;
    st.global.b32 [%rd11], %r8;
    set.le.u32.f16x2 %r9, %r6, %r7;
    st.global.b32 [%rd11+4], %r9;
    set.gtu.bf16x2.bf16x2 %r10, %r6, %r7;
    st.global.b32 [%rd11+8], %r10;
    setp.ltu.f16x2 %p1|%p2, %r6, %r7;
    selp.b32 %r11, 1, 0, %p1;
    selp.b32 %r12, 2, 0, %p2;
    or.b32 %r13, %r11, %r12;
    st.global.b32 [%rd11+12], %r13;
    setp.ne.and.bf16x2 %p3|%p4, %r6, %r7, %p7;
    selp.b32 %r14, 1, 0, %p3;
    selp.b32 %r15, 2, 0, %p4;
    or.b32 %r16, %r14, %r15;
    st.global.b32 [%rd11+16], %r16;
    mov.b32 {%h1, %h2}, %r6;
    mov.b32 {%h3, %h4}, %r7;
    set.lt.f16.f16 %h5, %h1, %h3;
    set.eq.f16.f16 %h6, %h2, %h4;
    mov.b32 %r17, {%h5, %h6};
    st.global.b32 [%rd11+20], %r17;
    set.ge.u32.bf16 %r18, %h1, %h3;
    st.global.b32 [%rd11+24], %r18;
    neg.f16x2 %r19, %r6;
    st.global.b32 [%rd11+28], %r19;
    abs.f16x2 %r20, %r7;
    st.global.b32 [%rd11+32], %r20;
    neg.bf16x2 %r21, %r7;
    st.global.b32 [%rd11+36], %r21;
    abs.bf16x2 %r22, %r6;
    st.global.b32 [%rd11+40], %r22;
    setp.gt.ftz.f16x2 %p5|%p6, %r6, %r7;
    selp.b32 %r23, 1, 0, %p5;
    selp.b32 %r24, 2, 0, %p6;
    or.b32 %r25, %r23, %r24;
    st.global.b32 [%rd11+44], %r25;
    ret;
}
"#;

const N: usize = 512;
const SLOTS: usize = 12;

/// `N` operand words: pairs of edge halves, an edge half beside random bits, or random bits
/// (SplitMix64, fixed seed).
fn operands(seed: u64) -> Vec<u32> {
    let mut next = splitmix(seed);
    (0..N)
        .map(|_| {
            let r = next();
            match r % 3 {
                0 => pick(HALF, r >> 8) | pick(HALF, r >> 24) << 16,
                1 => pick(HALF, r >> 8) | (r >> 32) as u32 & 0xffff_0000,
                _ => (r >> 32) as u32,
            }
        })
        .collect()
}

/// A half's value as f32 (exact): binary16, or bfloat16 (the top half of an f32).
fn value(bits: u32, bf16: bool, ftz: bool) -> f32 {
    let bits = bits & 0xffff;
    if bf16 {
        return f32::from_bits(bits << 16);
    }
    let sign = if bits & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let (e, m) = ((bits >> 10) & 0x1f, bits & 0x3ff);
    let mag = match e {
        0 if ftz => 0.0,
        0 => m as f32 * 2f32.powi(-24),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1024 + m) as f32 * 2f32.powi(e as i32 - 25),
    };
    sign * mag
}

/// PTX's comparison `cmp` (ordered forms false on a NaN, `u` forms true).
fn cmp(name: &str, a: f32, b: f32) -> bool {
    let unordered = a.is_nan() || b.is_nan();
    match name {
        "lt" => a < b,
        "le" => a <= b,
        "ge" => a >= b,
        "gt" => a > b,
        "eq" => a == b,
        "ne" => !unordered && a != b,
        "ltu" => unordered || a < b,
        "gtu" => unordered || a > b,
        _ => unreachable!("{name}"),
    }
}

/// The reference outputs of one thread (`odd`: its index is odd, the `%p7` operand).
fn reference(a: u32, b: u32, odd: bool) -> [u32; SLOTS] {
    let half = |w: u32, h: u32| (w >> (16 * h)) & 0xffff;
    let per_half = |name: &str, bf16: bool, ftz: bool| {
        [0, 1].map(|h| cmp(name, value(half(a, h), bf16, ftz), value(half(b, h), bf16, ftz)))
    };
    let pack = |r: [bool; 2], one: u32| (u32::from(r[0]) * one) | (u32::from(r[1]) * (one << 16));
    let bits = |r: [bool; 2]| u32::from(r[0]) | u32::from(r[1]) << 1;
    let is_nan = |x: u32, bf16: bool| value(x, bf16, false).is_nan();
    let sign_op = |w: u32, bf16: bool, abs: bool| {
        let f = |h: u32| {
            let x = half(w, h);
            if is_nan(x, bf16) {
                0x7fff
            } else if abs {
                x & 0x7fff
            } else {
                x ^ 0x8000
            }
        };
        f(0) | f(1) << 16
    };
    let ne = per_half("ne", true, false);
    [
        pack(per_half("lt", false, false), 0x3c00),
        pack(per_half("le", false, false), 0xffff),
        pack(per_half("gtu", true, false), 0x3f80),
        bits(per_half("ltu", false, false)),
        bits([ne[0] && odd, ne[1] && odd]),
        pack([per_half("lt", false, false)[0], per_half("eq", false, false)[1]], 0x3c00),
        if per_half("ge", true, false)[0] { u32::MAX } else { 0 },
        sign_op(a, false, false),
        sign_op(b, false, true),
        sign_op(b, true, false),
        sign_op(a, true, true),
        bits(per_half("gt", false, true)),
    ]
}

fn spec(a: &[u32], b: &[u32]) -> LaunchSpec {
    SpecBuilder::new("half_compare")
        .threads(N as u32, 128)
        .values("a", "u32", a.iter().map(|&v| u64::from(v)))
        .values("b", "u32", b.iter().map(|&v| u64::from(v)))
        .output("out", "u32", SLOTS * N)
        .build()
        .unwrap()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// The first output word where `got` differs from `want`, as a message.
fn first_difference(what: &str, got: &[u32], want: &[u32], a: &[u32], b: &[u32]) -> Option<String> {
    let k = got.iter().zip(want).position(|(g, w)| g != w)?;
    let t = k / SLOTS;
    Some(format!(
        "{what}: out[{k}] (thread {t}, slot {}, a {:#010x}, b {:#010x}) is {:#010x}, expected {:#010x}",
        k % SLOTS,
        a[t],
        b[t],
        got[k],
        want[k]
    ))
}

fn emulate(cubin: &[u8], spec: &LaunchSpec) -> Vec<u32> {
    let kernel = Kernel::load(cubin, &spec.kernel).unwrap();
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let run = kernel.run(spec, &cfg).unwrap_or_else(|e| panic!("emulator: {e}"));
    words(run.outputs.get("out").unwrap())
}

#[test]
fn half_compares_and_sign_ops_match_the_reference_everywhere() {
    let (a, b) = (operands(11), operands(12));
    let spec = spec(&a, &b);
    let want: Vec<u32> = (0..N).flat_map(|t| reference(a[t], b[t], t % 2 == 1)).collect();
    // The operands reach every case: NaN halves and both outcomes of the packed compares.
    assert!(want.chunks(SLOTS).filter(|w| w[7] & 0xffff == 0x7fff).count() > N / 16, "too few NaN halves");
    assert!(want.chunks(SLOTS).filter(|w| w[3] == 1 || w[3] == 2).count() > N / 16, "too few split compares");

    let module = ptxas_rs::lower::lower_source(PTX).unwrap();
    let interp = interp::run_ori(&module, &spec.kernel, &spec).unwrap();
    let interp = words(interp.get("out").unwrap());
    assert_eq!(first_difference("interpreter", &interp, &want, &a, &b), None);

    let ast = ptxas_rs::ptx::parse(PTX, "half_compare.ptx").unwrap();
    for level in [0u8, 3] {
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let cubin = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("-O{level}: {e:?}")).cubin;
        assert_eq!(first_difference(&format!("ours -O{level}"), &emulate(&cubin, &spec), &want, &a, &b), None);
    }
    if let Some(t) = oracle::tools_or_skip("half_compare (NVIDIA's cubin)") {
        let out =
            t.ptxas_run(oracle::PtxInput::Text { name: "half_compare.ptx", text: PTX }, &["-arch", "sm_90"]).unwrap();
        let cubin = out.cubin.unwrap_or_else(|| panic!("NVIDIA ptxas: {}", out.stderr));
        assert_eq!(first_difference("NVIDIA's cubin", &emulate(&cubin, &spec), &want, &a, &b), None);
    }
}
