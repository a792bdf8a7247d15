//! Selection of `wgmma` (sm_90a, `ptxas_rs::lower::isel` → `HGMMA`): kernels that vary what the
//! selection encodes — the two matrix descriptors (start address, leading- and stride-dimension
//! offsets, padded layouts, one to three K steps), scale-d (a constant the optimizer folds to
//! `UPT`/`!UPT`, or a runtime predicate through `VOTEU`, per CTA or from a parameter) and the
//! accumulator's initial value; one group per step or one pipelined chain — are compiled by
//! ptxas-rs at -O0 and -O3 (the serialized and the pipelined `HGMMA` protocol) and run in the SASS
//! emulator with hazard checking; every output must equal the Ori interpreter's on the lowered
//! PTX (which computes `wgmma` from the PTX operands, not from our encoding). A swapped
//! descriptor, a wrong word order in the uniform quad, an inverted scale-d or a lost
//! accumulator gives different outputs. Forms the sm_90 tables cannot encode are refused by
//! selection with an error, never a panic.

use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare};
use ptxas_rs::backend;

/// One operand's layout: K-direction core-matrix stride (LBO), M/N-direction stride (SBO) and
/// how far apart consecutive K steps start, all in bytes.
#[derive(Clone, Copy)]
struct Layout {
    lbo: u32,
    sbo: u32,
    step: u32,
}

/// How scale-d is computed.
#[derive(Clone, Copy, Debug)]
enum Scale {
    /// `s != 0` for step `s` (constant: the first step overwrites, later ones accumulate).
    Step,
    /// `%ctaid.x & 1`: odd CTAs add the loaded accumulator, even ones overwrite it.
    Cta,
    /// The kernel's scalar parameter.
    Param(u32),
}

#[derive(Clone, Copy)]
struct Case {
    name: &'static str,
    a: Layout,
    b: Layout,
    steps: u32,
    scale: Scale,
    /// Each step its own group (`commit_group; wait_group 0` after every `mma_async`, one
    /// fence before the first): only the first forms a pipelined chain, the later ones are
    /// serialized at every level.
    separate: bool,
}

const CTAS: u32 = 4;

/// The PTX of `c`: each CTA (one warpgroup) copies its A and B bytes to shared memory, loads
/// its accumulator from `c`, runs `steps` chained `wgmma`s and stores the accumulator to `d`.
fn ptx(c: &Case) -> String {
    let (a_bytes, b_bytes) = (c.a.step * c.steps, c.b.step * c.steps);
    let mut s = format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\n\
         .visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 ps)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<40>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<40>;\n\
         .shared .align 128 .b8 sA[{a_bytes}];\n.shared .align 128 .b8 sB[{b_bytes}];\n\
         ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pc];\nld.param.u64 %rd4, [pd];\n\
         ld.param.u32 %r30, [ps];\n\
         cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\n\
         cvta.to.global.u64 %rd3, %rd3;\ncvta.to.global.u64 %rd4, %rd4;\n\
         mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
    );
    for (src, var, bytes, l) in [("%rd1", "sA", a_bytes, "A"), ("%rd2", "sB", b_bytes, "B")] {
        let words = bytes / 4;
        s += &format!(
            "mov.u32 %r3, %r1;\n$L_{l}:\nsetp.ge.u32 %p1, %r3, {words};\n@%p1 bra $D_{l};\n\
             mad.lo.u32 %r4, %r2, {words}, %r3;\nmul.wide.u32 %rd5, %r4, 4;\nadd.s64 %rd6, {src}, %rd5;\n\
             ld.global.u32 %r5, [%rd6];\nshl.b32 %r6, %r3, 2;\nmov.u32 %r7, {var};\nadd.u32 %r7, %r7, %r6;\n\
             st.shared.u32 [%r7], %r5;\nadd.u32 %r3, %r3, 128;\nbra $L_{l};\n$D_{l}:\n"
        );
    }
    s += "fence.proxy.async.shared::cta;\nbar.sync 0;\n\
          mad.lo.u32 %r8, %r2, 128, %r1;\nmul.wide.u32 %rd7, %r8, 16;\nadd.s64 %rd8, %rd3, %rd7;\n\
          ld.global.f32 %f1, [%rd8];\nld.global.f32 %f2, [%rd8+4];\n\
          ld.global.f32 %f3, [%rd8+8];\nld.global.f32 %f4, [%rd8+12];\n\
          mov.u32 %r10, sA;\nmov.u32 %r11, sB;\n";
    match c.scale {
        Scale::Step => {}
        Scale::Cta => s += "and.b32 %r20, %r2, 1;\nsetp.ne.b32 %p2, %r20, 0;\n",
        Scale::Param(_) => s += "setp.ne.b32 %p2, %r30, 0;\n",
    }
    s += "wgmma.fence.sync.aligned;\n";
    let hi = |l: &Layout| u64::from(l.lbo >> 4) << 16 | u64::from(l.sbo >> 4) << 32;
    for k in 0..c.steps {
        if let Scale::Step = c.scale {
            s += &format!("mov.u32 %r20, {k};\nsetp.ne.b32 %p2, %r20, 0;\n");
        }
        for (base, l, out) in [("%r10", &c.a, "%rd11"), ("%r11", &c.b, "%rd13")] {
            s += &format!(
                "add.u32 %r12, {base}, {};\nand.b32 %r12, %r12, 262143;\nshr.u32 %r12, %r12, 4;\n\
                 cvt.u64.u32 %rd10, %r12;\nor.b64 {out}, %rd10, {};\n",
                k * l.step,
                hi(l)
            );
        }
        s += "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd11, %rd13, %p2, 1, 1, 0, 0;\n";
        if c.separate && k + 1 < c.steps {
            s += "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
        }
    }
    s += "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n\
          add.s64 %rd9, %rd4, %rd7;\nst.global.f32 [%rd9], %f1;\nst.global.f32 [%rd9+4], %f2;\n\
          st.global.f32 [%rd9+8], %f3;\nst.global.f32 [%rd9+12], %f4;\nret;\n}\n";
    s
}

fn spec(c: &Case, seed: u32) -> LaunchSpec {
    let (a_len, b_len) = (CTAS * c.a.step * c.steps / 2, CTAS * c.b.step * c.steps / 2);
    let ps = if let Scale::Param(v) = c.scale { v } else { 0 };
    let text = format!(
        "kernel = \"k\"\ngrid = [{CTAS}, 1, 1]\nblock = [128, 1, 1]\n\
         [[param]]\nbuffer = \"A\"\n[[param]]\nbuffer = \"B\"\n[[param]]\nbuffer = \"C\"\n[[param]]\nbuffer = \"D\"\n\
         [[param]]\nscalar = {{ type = \"u32\", value = {ps} }}\n\
         [buffer.A]\ntype = \"f16\"\nlen = {a_len}\ninit = {{ random = {{ seed = {}, min = -1.0, max = 1.0 }} }}\n\
         [buffer.B]\ntype = \"f16\"\nlen = {b_len}\ninit = {{ random = {{ seed = {}, min = -1.0, max = 1.0 }} }}\n\
         [buffer.C]\ntype = \"f32\"\nlen = {}\ninit = {{ random = {{ seed = {}, min = -4.0, max = 4.0 }} }}\n\
         [buffer.D]\ntype = \"f32\"\nlen = {}\ninit = {{ fill = 0.0 }}\noutput = true\ntolerance = {{ abs = 0.0 }}\n",
        seed,
        seed + 1,
        CTAS * 512,
        seed + 2,
        CTAS * 512,
    );
    LaunchSpec::from_toml_str(&text).unwrap()
}

fn cases() -> Vec<Case> {
    // The corpus kernel's layouts: A's K-direction core matrices 1024 bytes apart, its 8-row
    // groups 128 apart; B's (one 8-row group) 128 apart.
    let corpus_a = Layout { lbo: 1024, sbo: 128, step: 2048 };
    let corpus_b = Layout { lbo: 128, sbo: 1024, step: 256 };
    // Padded: A's rows groups 384 bytes apart, K neighbours 128; B's K neighbours 256 apart.
    let padded_a = Layout { lbo: 128, sbo: 384, step: 3072 };
    let padded_b = Layout { lbo: 256, sbo: 512, step: 512 };
    let case = |name, a, b, steps, scale, separate| Case { name, a, b, steps, scale, separate };
    vec![
        case("corpus_layout_constant_scale", corpus_a, corpus_b, 2, Scale::Step, false),
        case("padded_three_steps_scale_per_cta", padded_a, padded_b, 3, Scale::Cta, false),
        case("padded_one_step_scale_param_1", padded_a, corpus_b, 1, Scale::Param(1), false),
        case("corpus_two_steps_scale_param_0", corpus_a, padded_b, 2, Scale::Param(0), false),
        case("padded_three_groups_constant_scale", padded_a, corpus_b, 3, Scale::Step, true),
    ]
}

#[test]
fn selected_wgmma_runs_as_the_interpreter_says() {
    let exec = ExecConfig::default();
    let mut checked = 0;
    for (i, c) in cases().iter().enumerate() {
        let text = ptx(c);
        let spec = spec(c, 900 + 10 * i as u32);
        let module = ptxas_rs::lower::lower_source(&text).unwrap_or_else(|e| panic!("{}: lowering: {e}", c.name));
        let reference =
            interp::run_ori_with(&module, "k", &spec, &exec).unwrap_or_else(|e| panic!("{}: interpreter: {e}", c.name));
        let ast = ptxas_rs::ptx::parse(&text, "in.ptx").unwrap_or_else(|e| panic!("{}: parse: {e:?}", c.name));
        for level in [0u8, 3] {
            let opts = backend::Options { opt_level: level, ..backend::Options::default() };
            let compiled = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("{}@O{level}: {e}", c.name));
            assert!(compiled.image.accelerated, "{}@O{level}: an sm_90a module gives an sm_90a cubin", c.name);
            // The protocol: at -O0 every HGMMA closes its group and waits for it (as ptxas
            // -O0); above it a chain issues its HGMMAs back to back, only the last closing the
            // group, and waits once (as ptxas -O3).
            let text = ptxas_rs::disasm::listing(&compiled.cubin, false).unwrap().text;
            let count = |what: &str| text.lines().filter(|l| l.contains(what)).count() as u32;
            let waits = if level == 0 || c.separate { c.steps } else { 1 };
            assert_eq!(count("HGMMA.64x8x16.F32"), c.steps, "{}@O{level}:\n{text}", c.name);
            assert_eq!(count("gsb0 ;"), waits, "{}@O{level}:\n{text}", c.name);
            assert_eq!(count("WARPGROUP.DEPBAR.LE gsb0, 0x0"), waits, "{}@O{level}:\n{text}", c.name);
            assert_eq!(count("WARPGROUP.ARRIVE"), waits, "{}@O{level}:\n{text}", c.name);
            let kernel = Kernel::load(&compiled.cubin, "k").unwrap();
            let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
            let run = kernel.run(&spec, &cfg).unwrap_or_else(|e| panic!("{}@O{level}: emulator: {e}", c.name));
            let d = spec.outputs().next().unwrap();
            compare(d, run.outputs.get("D").unwrap(), reference.get("D").unwrap())
                .unwrap_or_else(|e| panic!("{}@O{level} ({:?}): {e}", c.name, c.scale));
            checked += 1;
        }
    }
    assert_eq!(checked, 10);
}

/// The scale-d choice matters in these kernels: with it inverted (or the accumulator input
/// dropped) the outputs would differ, so the comparison above can catch it.
#[test]
fn scale_d_changes_the_result() {
    let c = &cases()[2];
    let text = ptx(c);
    let module = ptxas_rs::lower::lower_source(&text).unwrap();
    let run = |v: u32| {
        let c = Case { scale: Scale::Param(v), ..*c };
        interp::run_ori_with(&module, "k", &spec(&c, 920), &ExecConfig::default()).unwrap().get("D").unwrap().to_vec()
    };
    assert_ne!(run(0), run(1));
}

/// Accumulators wider than 4 registers (N 16 with f32 accumulators: 8 registers per lane, f32
/// and bf16 operands) are selected since the allocator places wide tuples (`crate::ori::reg`);
/// what selection still refuses (a guarded `wgmma`) is refused by selection, located.
#[test]
fn wide_accumulators_select_and_guarded_wgmma_is_refused() {
    let c = &cases()[0];
    let from = "m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}";
    for to in [
        "m64n16k16.f32.f16.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f0}",
        "m64n16k16.f32.bf16.bf16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f0}",
    ] {
        let text = ptx(c).replace(from, to);
        assert!(text.contains(to));
        let ast = ptxas_rs::ptx::parse(&text, "in.ptx").unwrap();
        backend::compile(&ast, &backend::Options::default()).unwrap_or_else(|e| panic!("{to}: {e}"));
    }
    let text = ptx(c).replace("wgmma.mma_async", "@%p1 wgmma.mma_async");
    assert!(text.contains("@%p1 wgmma.mma_async"));
    let ast = ptxas_rs::ptx::parse(&text, "in.ptx").unwrap();
    let e = backend::compile(&ast, &backend::Options::default()).expect_err("a guarded wgmma");
    assert_eq!(e.stage, "instruction selection", "{e}");
    assert!(e.message.contains("not selected yet"), "{e}");
}
