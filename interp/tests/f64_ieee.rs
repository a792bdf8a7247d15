//! IEEE f64 division, reciprocal and square root in every rounding mode (`div/rcp/sqrt
//! .{rn,rz,rm,rp}.f64`) and `rsqrt.approx.f64`, as selected by ptxas-rs
//! (`src/lower/isel/f64_div.rs`: straight-line sequences where ptxas calls slow-path
//! subroutines), on edge-biased full-width operands (zeros, infinities, NaNs, subnormals,
//! random bit patterns, so quotients overflow and underflow into the subnormal range).
//!
//! Our -O3 cubin runs in the SASS emulator (hazard check on) and must equal, bit for bit:
//! the Ori interpreter on the lowered PTX (its `div`/`sqrt` are exact-arithmetic
//! implementations, `src/ori/float.rs`), and, with NVIDIA's tools, NVIDIA's cubin of the same
//! PTX in the emulator (ptxas's fast paths and `__internal` slow-path subroutines).
//! `rsqrt.approx.f64` is compared with NVIDIA's cubin only (ptxas's own approximation).

#[path = "support/words.rs"]
mod words;
use std::fmt::Write as _;
use words::u64s;

use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;
use interp::launch::builder::SpecBuilder;
use interp::{ExecConfig, run_ori_with};
use ptxas_rs::backend;

const THREADS: usize = 4096;
/// Results per thread: div ×4, rcp ×4, sqrt ×4 (of a and of b), rsqrt.approx.
const OPS: &[&str] = &[
    "div.rn.f64 %fd3, %fd1, %fd2;",
    "div.rz.f64 %fd3, %fd1, %fd2;",
    "div.rm.f64 %fd3, %fd1, %fd2;",
    "div.rp.f64 %fd3, %fd1, %fd2;",
    "rcp.rn.f64 %fd3, %fd2;",
    "rcp.rz.f64 %fd3, %fd2;",
    "rcp.rm.f64 %fd3, %fd1;",
    "rcp.rp.f64 %fd3, %fd1;",
    "sqrt.rn.f64 %fd3, %fd1;",
    "sqrt.rz.f64 %fd3, %fd2;",
    "sqrt.rm.f64 %fd3, %fd1;",
    "sqrt.rp.f64 %fd3, %fd2;",
    "abs.f64 %fd4, %fd1;\n\tsqrt.rn.f64 %fd3, %fd4;",
    "abs.f64 %fd4, %fd2;\n\tsqrt.rp.f64 %fd3, %fd4;",
    "rsqrt.approx.f64 %fd3, %fd1;",
];

fn kernel() -> String {
    let mut s = String::from(
        ".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry fk(\n\t.param .u64 fk_out,\n\t.param .u64 fk_a,\n\t\
         .param .u64 fk_b\n)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<12>;\n\t.reg .f64 %fd<6>;\n\t\
         ld.param.u64 %rd1, [fk_out];\n\tld.param.u64 %rd2, [fk_a];\n\tld.param.u64 %rd3, [fk_b];\n\t\
         cvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n\tcvta.to.global.u64 %rd3, %rd3;\n\t\
         mov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n\tmad.lo.s32 %r1, %r1, %r2, %r3;\n\t\
         mul.wide.u32 %rd4, %r1, 8;\n\tadd.s64 %rd5, %rd2, %rd4;\n\tadd.s64 %rd6, %rd3, %rd4;\n\t\
         ld.global.f64 %fd1, [%rd5];\n\tld.global.f64 %fd2, [%rd6];\n",
    );
    writeln!(s, "\tmul.wide.u32 %rd7, %r1, {};\n\tadd.s64 %rd8, %rd1, %rd7;", 8 * OPS.len()).unwrap();
    for (k, op) in OPS.iter().enumerate() {
        writeln!(s, "\t{op}\n\tst.global.f64 [%rd8+{}], %fd3;", 8 * k).unwrap();
    }
    s + "\tret;\n}\n"
}

fn spec() -> LaunchSpec {
    SpecBuilder::new("fk")
        .threads(THREADS as u32, 128)
        .output_init("out", "f64", THREADS * OPS.len(), "{ fill = 0.0 }")
        .input("a", "f64", THREADS, "{ edge = { seed = 31 } }")
        .input("b", "f64", THREADS, "{ edge = { seed = 32 } }")
        .build()
        .unwrap()
}

/// Differences `got` vs `want` (ops in `which`), as readable lines.
fn diffs(
    what: &str,
    want: &[u64],
    got: &[u64],
    inputs: (&[u64], &[u64]),
    which: impl Fn(usize) -> bool,
) -> Vec<String> {
    let n = OPS.len();
    let mut out = Vec::new();
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        let (t, k) = (i / n, i % n);
        if w != g && which(k) {
            out.push(format!(
                "{what}: `{}` a={:#018x} b={:#018x}: expected {w:#018x}, got {g:#018x}",
                OPS[k].replace('\n', " "),
                inputs.0[t],
                inputs.1[t]
            ));
        }
    }
    out
}

#[test]
fn f64_ieee_division_and_roots_are_exact() {
    let text = kernel();
    let spec = spec();
    let bufs = spec.generate_buffers();
    let (a, b) = (u64s(&bufs["a"]), u64s(&bufs["b"]));
    let module = ptxas_rs::lower::lower_source(&text).unwrap();
    let exec = ExecConfig::default();
    let interp_out = u64s(&run_ori_with(&module, "fk", &spec, &exec).unwrap().buffers["out"]);
    let ast = ptxas_rs::ptx::parse(&text, "fk.ptx").unwrap();
    let opts = backend::Options { opt_level: 3, ..backend::Options::default() };
    let cubin = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("compile: {e:?}")).cubin;
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let ours = u64s(&Kernel::load(&cubin, "fk").unwrap().run(&spec, &cfg).unwrap().outputs.buffers["out"]);
    let approx = OPS.len() - 1;
    let mut bad = diffs("our cubin vs interpreter", &interp_out, &ours, (&a, &b), |k| k != approx);
    let mut checked = "our cubin and the interpreter";
    if let Some(t) = oracle::tools_or_skip("f64_ieee_division_and_roots_are_exact") {
        let out =
            t.ptxas_run(oracle::PtxInput::Text { name: "fk.ptx", text: &text }, &["-arch", "sm_90", "-O3"]).unwrap();
        let nv_cubin = out.cubin.unwrap_or_else(|| panic!("ptxas refuses the kernel: {}", out.stderr));
        let nv = u64s(&Kernel::load(&nv_cubin, "fk").unwrap().run(&spec, &cfg).unwrap().outputs.buffers["out"]);
        bad.extend(diffs("our cubin vs NVIDIA's cubin", &nv, &ours, (&a, &b), |_| true));
        checked = "our cubin, the interpreter (exact ops) and NVIDIA's cubin (all ops)";
    }
    let shown: Vec<&str> = bad.iter().take(20).map(String::as_str).collect();
    assert!(bad.is_empty(), "{} disagreements, first:\n{}", bad.len(), shown.join("\n"));
    println!("{} ops x {THREADS} operand pairs: {checked} agree bit for bit", OPS.len());
}
