//! `div.approx.f32` / `div.full.f32` (with and without `.ftz`), issue 23: ptxas selects
//! `MUFU.RCP` + `FMUL` behind range guards that differ by form: `.full` scales both operands
//! by 2^-2 when |b| > 2^126 (so the reciprocal stays normal: Triton's `silu` divides 1 by
//! 1 + e^88 and keeps the subnormal quotient), `.approx` gives a * flush(1/b) = 0 there, and
//! without `.ftz` a subnormal divisor scales both operands by 2^24.
//!
//! Checks, on random full-width operands, edge values, divisors above 2^126 and subnormal
//! divisors: our cubin (-O0 and -O3) in the emulator agrees with NVIDIA's cubin of the same PTX
//! bit for bit (any NaN for a NaN) where NVIDIA's tools are installed; and, always, with the
//! Ori interpreter bit for bit (its `div.approx`/`div.full` is PTX's a * (1/b) with the
//! reciprocal of its MUFU.RCP model and ptxas's range guards, `ori::semantics`).

#[path = "support/edge_operands.rs"]
#[allow(dead_code)]
mod edge;

use edge::splitmix;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;
use interp::launch::builder::SpecBuilder;
use ptxas_rs::backend;

const FORMS: [&str; 4] = ["approx", "full", "approx.ftz", "full.ftz"];

fn kernel() -> String {
    let mut body = String::new();
    for (k, f) in FORMS.iter().enumerate() {
        body += &format!("    div.{f}.f32 %f3, %f1, %f2;\n    st.global.f32 [%rd9+{}], %f3;\n", 4 * k);
    }
    format!(
        r#".version 8.0
.target sm_90
.address_size 64

.visible .entry fdiv(.param .u64 pa, .param .u64 pb, .param .u64 pout)
{{
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pout];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    mul.wide.u32 %rd4, %r5, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    mul.wide.u32 %rd7, %r5, 16;
    add.s64 %rd9, %rd3, %rd7;
{body}    ret;
}}
"#
    )
}

const EDGE: &[u32] = &[
    0,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f80_0001,
    0x3f80_0000,
    0xbf80_0000,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7e80_0000,
    0x7e80_0001,
    0xfe80_0001,
    0x7f00_0000,
    0x0040_0000,
    0x3e80_0000,
];

const N: usize = 128 * 40;

fn operands() -> Vec<(u32, u32)> {
    let mut next = splitmix(0xd1f3_2a77);
    let mut v = Vec::with_capacity(N);
    for &a in EDGE {
        for &b in EDGE {
            v.push((a, b));
        }
    }
    let sign = |s: u64| ((s & 1) as u32) << 31;
    while v.len() < N {
        let r = next();
        let pair = match r % 6 {
            0 | 1 => (next() as u32, next() as u32),
            // A divisor above 2^126 (where `.full` and `.approx` part ways), a moderate or small a.
            2 => {
                let b = 0x7e80_0001 + (next() % 0x00ff_ffff) as u32;
                let a = ((0x0000_0001 + next() % 0x4000_0000) as u32) | sign(next());
                (a, b | sign(r >> 8))
            }
            // A subnormal divisor.
            3 => (next() as u32, (1 + next() % 0x007f_ffff) as u32 | sign(r >> 8)),
            // Ordinary quotients.
            4 => {
                let e = |x: u64| ((64 + x % 128) as u32) << 23;
                (e(next()) | (next() as u32 & 0x807f_ffff), e(next()) | (next() as u32 & 0x807f_ffff))
            }
            _ => (EDGE[(next() % EDGE.len() as u64) as usize], next() as u32),
        };
        v.push(pair);
    }
    v
}

fn spec(ops: &[(u32, u32)]) -> LaunchSpec {
    SpecBuilder::new("fdiv")
        .threads(N as u32, 128)
        .values("a", "u32", ops.iter().map(|p| u64::from(p.0)))
        .values("b", "u32", ops.iter().map(|p| u64::from(p.1)))
        .output_init("out", "u32", 4 * N, "{ fill = 7 }")
        .build()
        .unwrap()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn emulate(cubin: &[u8], spec: &LaunchSpec) -> Vec<u32> {
    let kernel = Kernel::load(cubin, &spec.kernel).unwrap();
    let run = kernel.run(spec, &EmuConfig { hazards: true, ..EmuConfig::default() }).unwrap_or_else(|e| panic!("{e}"));
    words(&run.outputs.buffers["out"])
}

fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// Equal, or both NaN (payloads are the emulator's NaN rules, not checked here).
fn same(got: u32, want: u32) -> bool {
    got == want || is_nan(got) && is_nan(want)
}

fn diffs(who: &str, ops: &[(u32, u32)], want: &[u32], got: &[u32], ok: impl Fn(u32, u32) -> bool) -> Vec<String> {
    let mut bad = Vec::new();
    for (i, &(a, b)) in ops.iter().enumerate() {
        for (k, form) in FORMS.iter().enumerate() {
            let (w, g) = (want[4 * i + k], got[4 * i + k]);
            if !ok(g, w) {
                bad.push(format!("{who}: div.{form}.f32 {a:#010x} / {b:#010x}: got {g:#010x}, want {w:#010x}"));
            }
        }
    }
    bad
}

#[test]
fn div_approx_and_full_f32_match_nvidia_and_the_interpreter() {
    let text = kernel();
    let ops = operands();
    let big =
        ops.iter().filter(|&&(a, b)| b & 0x7fff_ffff > 0x7e80_0000 && b & 0x7fff_ffff <= 0x7f80_0000 && a != 0).count();
    assert!(big > N / 8, "too few divisors above 2^126: {big}");
    let spec = spec(&ops);
    let module = ptxas_rs::lower::lower_source(&text).unwrap();
    let want = words(&interp::run_ori(&module, "fdiv", &spec).unwrap().buffers["out"]);
    let ast = ptxas_rs::ptx::parse(&text, "fdiv.ptx").unwrap();
    let mut bad = Vec::new();
    let mut ours = Vec::new();
    for level in [0u8, 3] {
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let cubin = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("-O{level}: {e:?}")).cubin;
        let got = emulate(&cubin, &spec);
        bad.extend(diffs(&format!("ours -O{level} vs interpreter"), &ops, &want, &got, same));
        ours.push(got);
    }
    let mut checked = "our cubins (-O0, -O3) and the interpreter";
    if let Some(t) = oracle::tools_or_skip("div_approx_full_f32 (NVIDIA's cubin)") {
        let out =
            t.ptxas_run(oracle::PtxInput::Text { name: "fdiv.ptx", text: &text }, &["-arch", "sm_90", "-O3"]).unwrap();
        let nv = emulate(&out.cubin.unwrap_or_else(|| panic!("NVIDIA ptxas: {}", out.stderr)), &spec);
        for (level, got) in [0, 3].iter().zip(&ours) {
            bad.extend(diffs(&format!("ours -O{level} vs NVIDIA's cubin"), &ops, &nv, got, same));
        }
        checked = "our cubins (-O0, -O3), NVIDIA's cubin and the interpreter";
    }
    let shown: Vec<&str> = bad.iter().take(20).map(String::as_str).collect();
    assert!(bad.is_empty(), "{} disagreements, first:\n{}", bad.len(), shown.join("\n"));
    println!("{N} operand pairs ({big} divisors above 2^126) x {} forms: {checked} agree", FORMS.len());
}
