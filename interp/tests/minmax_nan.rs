//! `min.NaN`/`max.NaN` end to end: a kernel computing them on f32, f16x2, bf16x2, f16 and bf16
//! operands is selected and emitted by ptxas-rs (-O0 and -O3); the code must use ptxas's
//! instructions, `FMNMX.NAN` and `HMNMX2[.BF16_V2].NAN` (read back by our decoder, and by
//! `nvdisasm` when NVIDIA's tools are installed), and run in the SASS emulator (hazard checking
//! on) with exactly the outputs the Ori interpreter gives for the lowered PTX. With NVIDIA's
//! tools, NVIDIA's own cubin of the kernel must give them too in the emulator.
//!
//! Operands are full-width words built from edge values (f32 and half zeros, infinities, NaN
//! payloads of both signs, denormals) and random bits, so every output slot sees NaN operands.
//! The interpreter's meaning is checked against an independent reference in
//! `tests/ori_proptest.rs`.

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

.visible .entry minmax_nan(.param .u64 pa, .param .u64 pb, .param .u64 pout, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b16 %h<8>;
    .reg .b32 %r<20>;
    .reg .f32 %f<8>;
    .reg .b64 %rd<12>;

    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.u32 %r4, %r1, %r2, %r3;
    ld.param.u32 %r5, [n];
    setp.ge.u32 %p1, %r4, %r5;
    @%p1 bra DONE;
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
    mul.wide.u32 %rd10, %r4, 32;
    add.s64 %rd11, %rd6, %rd10;
    mov.b32 %f1, %r6;
    mov.b32 %f2, %r7;
    min.NaN.f32 %f3, %f1, %f2;
    st.global.f32 [%rd11], %f3;
    max.NaN.f32 %f4, %f1, %f2;
    st.global.f32 [%rd11+4], %f4;
    min.NaN.f16x2 %r8, %r6, %r7;
    st.global.b32 [%rd11+8], %r8;
    max.NaN.f16x2 %r9, %r6, %r7;
    st.global.b32 [%rd11+12], %r9;
    min.NaN.bf16x2 %r10, %r6, %r7;
    st.global.b32 [%rd11+16], %r10;
    max.NaN.bf16x2 %r11, %r6, %r7;
    st.global.b32 [%rd11+20], %r11;
    mov.b32 {%h1, %h2}, %r6;
    mov.b32 {%h3, %h4}, %r7;
    min.NaN.f16 %h5, %h1, %h3;
    max.NaN.bf16 %h6, %h2, %h4;
    mov.b32 %r12, {%h5, %h6};
    st.global.b32 [%rd11+24], %r12;
    min.ftz.NaN.f32 %f5, %f1, %f2;
    st.global.f32 [%rd11+28], %f5;
DONE:
    ret;
}
"#;

const N: usize = 512;

/// `N` operand words: f32 edge values, pairs of f16/bf16 edge values, an edge half beside random
/// bits, or random bits (SplitMix64, fixed seed).
fn operands(seed: u64) -> Vec<u32> {
    const F32: &[u32] = &[
        0,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0xffff_ffff,
        0xffc0_1234,
        0x7fff_ffff,
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
    ];
    let mut next = splitmix(seed);
    (0..N)
        .map(|_| {
            let r = next();
            match r % 4 {
                0 => pick(F32, r >> 8),
                1 => pick(HALF, r >> 8) | pick(HALF, r >> 24) << 16,
                2 => pick(HALF, r >> 8) | (r >> 32) as u32 & 0xffff_0000,
                _ => (r >> 32) as u32,
            }
        })
        .collect()
}

fn spec() -> LaunchSpec {
    SpecBuilder::new("minmax_nan")
        .threads(N as u32, 128)
        .values("a", "u32", operands(1).into_iter().map(u64::from))
        .values("b", "u32", operands(2).into_iter().map(u64::from))
        .output("out", "u32", 8 * N)
        .scalar("u32", N as u64)
        .build()
        .unwrap()
}

/// Runs `cubin` in the emulator (hazard checking on) and returns the `out` buffer.
fn emulate(cubin: &[u8], spec: &LaunchSpec) -> Vec<u8> {
    let kernel = Kernel::load(cubin, &spec.kernel).unwrap();
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let run = kernel.run(spec, &cfg).unwrap_or_else(|e| panic!("emulator: {e}"));
    run.outputs.get("out").unwrap().to_vec()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// The first output word where two runs differ, as a message.
fn first_difference(what: &str, got: &[u8], want: &[u8]) -> Option<String> {
    let (g, w) = (words(got), words(want));
    let k = g.iter().zip(&w).position(|(a, b)| a != b)?;
    Some(format!(
        "{what}: out[{k}] (thread {}, slot {}) is {:#010x}, the interpreter's {:#010x}",
        k / 8,
        k % 8,
        g[k],
        w[k]
    ))
}

#[test]
fn min_max_nan_select_nan_instructions_and_run_like_the_interpreter() {
    let spec = spec();
    let module = ptxas_rs::lower::lower_source(PTX).unwrap();
    let want = interp::run_ori(&module, &spec.kernel, &spec).unwrap();
    let want = want.get("out").unwrap();
    // Every slot saw NaN operands: the canonical NaNs are in the interpreter's output.
    let w = words(want);
    let f32_nans = (0..N).filter(|i| w[8 * i] == 0x7fff_ffff).count();
    let half_nans = (0..N).filter(|i| w[8 * i + 2] & 0xffff == 0x7fff || w[8 * i + 4] >> 16 == 0x7fff).count();
    assert!(f32_nans > N / 8 && half_nans > N / 8, "too few NaN results: {f32_nans} f32, {half_nans} half");
    let ast = ptxas_rs::ptx::parse(PTX, "minmax_nan.ptx").unwrap();
    let tools = oracle::tools_or_skip("min_max_nan (nvdisasm and NVIDIA's cubin)");
    for level in [0u8, 3] {
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let cubin = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("-O{level}: {e:?}")).cubin;
        let ours = ptxas_rs::disasm::listing(&cubin, false).unwrap().text;
        let mut listings = vec![("ours", ours)];
        if let Some(t) = tools {
            let path = std::env::temp_dir().join(format!("ptxas-rs-minmax-nan-{}-O{level}.cubin", std::process::id()));
            std::fs::write(&path, &cubin).unwrap();
            let out = std::process::Command::new(t.nvdisasm()).arg(&path).output().unwrap();
            let _ = std::fs::remove_file(&path);
            assert!(
                out.status.success() && out.stderr.is_empty(),
                "nvdisasm: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            listings.push(("nvdisasm", String::from_utf8(out.stdout).unwrap()));
        }
        for (who, text) in &listings {
            for m in ["FMNMX.NAN ", "FMNMX.FTZ.NAN ", "HMNMX2.NAN ", "HMNMX2.BF16_V2.NAN "] {
                assert!(text.contains(m), "-O{level}: {who}'s listing has no {m}:\n{text}");
            }
            assert!(
                !text.contains("FMNMX R") && !text.contains("HMNMX2 R"),
                "-O{level}: a min/max without .NAN:\n{text}"
            );
        }
        let got = emulate(&cubin, &spec);
        assert_eq!(first_difference(&format!("-O{level}"), &got, want), None);
    }
    if let Some(t) = tools {
        let out =
            t.ptxas_run(oracle::PtxInput::Text { name: "minmax_nan.ptx", text: PTX }, &["-arch", "sm_90"]).unwrap();
        let cubin = out.cubin.unwrap_or_else(|| panic!("NVIDIA ptxas: {}", out.stderr));
        assert_eq!(first_difference("NVIDIA's cubin", &emulate(&cubin, &spec), want), None);
    }
}
