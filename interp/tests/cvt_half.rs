//! The conversions sm_90 has no single instruction for, selected as ptxas selects them and run
//! in the SASS emulator on full-width inputs, against references written here (independent of
//! both the interpreter's `ori::float` and the emulator's `alu`):
//!
//! - `cvt.f32.f16` (`HADD2.F32 Rd, -RZ, Rs.H0_H0`): all 65,536 f16 bit patterns (NaN payloads,
//!   subnormals, ±0, ±inf); the exact value, a NaN the canonical f32 NaN `0x7fffffff`;
//! - `cvt.f32.bf16` (`IMAD.U32 Rd, Rs, 0x10000, RZ`): all 65,536 bf16 patterns, the bits
//!   moved into the high half (NaN payloads and signalling NaNs kept);
//! - `cvt.rni.u8.f32` (`F2I.U32` + `VIMNMX.U32 0xff`): round half to even, clamp to [0, 255],
//!   NaN to 0;
//! - `cvt.rni.sat.f32.f32` (`FRND` + `FADD.SAT Rd, RZ, Rt`): round half to even, then clamp to
//!   [+0, 1], NaN and negatives (`-0` included) to `+0`;
//!
//! the f32 conversions on 65,536 edge-biased values and 65,536 uniformly random bit patterns.
//! Each kernel is compiled by ptxas-rs at -O0 and -O3 and run with the hazard checker on; the
//! Ori interpreter must agree too.

use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;
use interp::launch::builder::SpecBuilder;
use ptxas_rs::backend;

const N: usize = 1 << 16;

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry cvt_half_props(
    .param .u64 p_h,
    .param .u64 p_f,
    .param .u64 p_of16,
    .param .u64 p_obf16,
    .param .u64 p_ou8,
    .param .u64 p_osat,
    .param .u32 p_n
)
{
    .reg .pred %p<2>;
    .reg .b16 %rs<2>;
    .reg .b32 %r<8>;
    .reg .f32 %f<5>;
    .reg .b64 %rd<20>;

    ld.param.u64 %rd1, [p_h];
    ld.param.u64 %rd2, [p_f];
    ld.param.u64 %rd3, [p_of16];
    ld.param.u64 %rd4, [p_obf16];
    ld.param.u64 %rd5, [p_ou8];
    ld.param.u64 %rd6, [p_osat];
    ld.param.u32 %r1, [p_n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra $DONE;
    cvta.to.global.u64 %rd7, %rd1;
    cvta.to.global.u64 %rd8, %rd2;
    cvta.to.global.u64 %rd9, %rd3;
    cvta.to.global.u64 %rd10, %rd4;
    cvta.to.global.u64 %rd11, %rd5;
    cvta.to.global.u64 %rd12, %rd6;
    mul.wide.u32 %rd13, %r5, 2;
    add.s64 %rd14, %rd7, %rd13;
    ld.global.u16 %rs1, [%rd14];
    mul.wide.u32 %rd15, %r5, 4;
    add.s64 %rd16, %rd8, %rd15;
    ld.global.f32 %f1, [%rd16];
    cvt.f32.f16 %f2, %rs1;
    cvt.f32.bf16 %f3, %rs1;
    { .reg .u8 t; cvt.rni.u8.f32 t, %f1; cvt.u32.u8 %r6, t; }
    cvt.rni.sat.f32.f32 %f4, %f1;
    add.s64 %rd17, %rd9, %rd15;
    st.global.f32 [%rd17], %f2;
    add.s64 %rd17, %rd10, %rd15;
    st.global.f32 [%rd17], %f3;
    add.s64 %rd17, %rd11, %rd15;
    st.global.u32 [%rd17], %r6;
    add.s64 %rd17, %rd12, %rd15;
    st.global.f32 [%rd17], %f4;
$DONE:
    ret;
}
"#;

/// The launch: `h` holds every 16-bit pattern (a ramp), `f` the f32 inputs (`init`; an output
/// the kernel does not write, so its bytes come back for the reference).
fn spec(f_init: &str) -> LaunchSpec {
    SpecBuilder::new("cvt_half_props")
        .threads(N as u32, 256)
        .input("h", "u16", N, "{ ramp = { start = 0, step = 1 } }")
        .output_init("f", "u32", N, f_init)
        .output("of16", "u32", N)
        .output("obf16", "u32", N)
        .output("ou8", "u32", N)
        .output("osat", "u32", N)
        .scalar("u32", N as u64)
        .build()
        .unwrap()
}

/// f16 bits → f32 bits, from the IEEE binary16 definition: `(-1)^s · 2^(e-15) · 1.m` for normal
/// numbers, `2^-14 · 0.m` for subnormals; NaN → the canonical f32 NaN.
fn ref_f16_to_f32(h: u16) -> u32 {
    let neg = h & 0x8000 != 0;
    let (e, m) = (i32::from((h >> 10) & 0x1f), f64::from(h & 0x3ff));
    let mag = match e {
        0x1f if m != 0.0 => return 0x7fff_ffff,
        0x1f => f64::INFINITY,
        0 => m * 2f64.powi(-24),
        e => (1024.0 + m) * 2f64.powi(e - 25),
    };
    // Exactly representable in f32: the cast does not round.
    let v = if neg { -mag } else { mag } as f32;
    v.to_bits()
}

/// `cvt.rni.u8.f32`: nearest integer (ties to even), saturated to [0, 255]; NaN → 0.
fn ref_rni_u8(x: f32) -> u32 {
    if x.is_nan() { 0 } else { x.round_ties_even().clamp(0.0, 255.0) as u32 }
}

/// `cvt.rni.sat.f32.f32`: nearest integer (ties to even), then `.sat`: NaN and negative
/// values (`-0` too) → `+0`, above 1 → 1.
fn ref_rni_sat(x: f32) -> u32 {
    let r = x.round_ties_even();
    if r.is_nan() || r.is_sign_negative() { 0 } else { r.min(1.0).to_bits() }
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn check(name: &str, got: &[u32], want: impl Fn(usize) -> u32, input: impl Fn(usize) -> u32) {
    assert_eq!(got.len(), N, "{name}");
    let bad: Vec<String> = (0..N)
        .filter(|&i| got[i] != want(i))
        .take(8)
        .map(|i| format!("input {:#010x}: got {:#010x}, want {:#010x}", input(i), got[i], want(i)))
        .collect();
    assert!(bad.is_empty(), "{name}:\n{}", bad.join("\n"));
}

/// Checks one run's buffers against the references.
fn check_outputs(what: &str, bufs: &std::collections::BTreeMap<String, Vec<u8>>) {
    let f = words(&bufs["f"]);
    let h = |i: usize| i as u32;
    check(&format!("{what} cvt.f32.f16"), &words(&bufs["of16"]), |i| ref_f16_to_f32(i as u16), h);
    check(&format!("{what} cvt.f32.bf16"), &words(&bufs["obf16"]), |i| (i as u32) << 16, h);
    let x = |i: usize| f32::from_bits(f[i]);
    check(&format!("{what} cvt.rni.u8.f32"), &words(&bufs["ou8"]), |i| ref_rni_u8(x(i)), |i| f[i]);
    check(&format!("{what} cvt.rni.sat.f32.f32"), &words(&bufs["osat"]), |i| ref_rni_sat(x(i)), |i| f[i]);
}

#[test]
fn half_and_saturating_conversions_match_references() {
    let ast = ptxas_rs::ptx::parse(PTX, "cvt_half.ptx").unwrap();
    let module = ptxas_rs::lower::lower_source(PTX).unwrap();
    for f_init in ["{ edge = { seed = 7 } }", "{ random = { seed = 11 } }"] {
        let spec = spec(f_init);
        let ori = interp::run_ori(&module, &spec.kernel, &spec).unwrap();
        check_outputs(&format!("interpreter, f {f_init}"), &ori.buffers);
        for level in [0u8, 3] {
            let opts = backend::Options { opt_level: level, ..backend::Options::default() };
            let compiled = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("-O{level}: {e:?}"));
            let kernel = Kernel::load(&compiled.cubin, &spec.kernel).unwrap();
            let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
            let run = kernel.run(&spec, &cfg).unwrap_or_else(|e| panic!("-O{level}: emulator: {e}"));
            check_outputs(&format!("emulator -O{level}, f {f_init}"), &run.outputs.buffers);
        }
    }
}

/// The references themselves, on values whose results are known by hand.
#[test]
fn references_on_known_values() {
    assert_eq!(ref_f16_to_f32(0x3c00), 1f32.to_bits());
    assert_eq!(ref_f16_to_f32(0x8000), 0x8000_0000);
    assert_eq!(ref_f16_to_f32(0x0001), 2f32.powi(-24).to_bits());
    assert_eq!(ref_f16_to_f32(0x7bff), 65504f32.to_bits());
    assert_eq!(ref_f16_to_f32(0xfc00), f32::NEG_INFINITY.to_bits());
    assert_eq!(ref_f16_to_f32(0x7c01), 0x7fff_ffff);
    assert_eq!(ref_rni_u8(2.5), 2);
    assert_eq!(ref_rni_u8(255.5), 255);
    assert_eq!(ref_rni_u8(-3.0), 0);
    assert_eq!(ref_rni_sat(-0.4), 0);
    assert_eq!(ref_rni_sat(0.5), 0);
    assert_eq!(ref_rni_sat(0.51), 1f32.to_bits());
    assert_eq!(ref_rni_sat(f32::NAN), 0);
}
