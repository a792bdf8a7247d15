//! Generic windows whose base has a nonzero low word (`interp::memory`'s module docs).
//!
//! On an H100 our `cvta.to.local` faulted (compute-sanitizer: "Invalid __local__ read ... at
//! addr_exprs+0x590", and the callee's store through the caller's local pointer in
//! call_noinline, "+0x1200"): selection lost the negation of the local window's base
//! `c[0x0][0x20]` in the 64-bit subtract, so generic-to-local added the base instead of
//! subtracting it (and `cvta.to.const` likewise). Both executors missed it while every window
//! base had a zero low word, since adding or subtracting such a base leaves the low 32 bits
//! alone. The checks that can fail:
//! 1. the windows: the local, constant and parameter bases have a nonzero low word (so a
//!    wrong-sign conversion changes the in-space address), the shared one a zero low word (what
//!    `SR_SWINHI` over a shared address assumes), and [`interp::memory::resolve_generic`]
//!    decides membership by range;
//! 2. hand-written addr_exprs (every `cvta`/`cvta.to` and `isspacep`) compiled by us at -O0 and
//!    -O3 runs hazard-free in the emulator and equals the interpreter (before the selection fix
//!    the emulator faulted where the GPU did, at 0x590);
//! 3. a kernel that passes generic pointers to two local words to a `.noinline` function that
//!    stores through them, then reads them back through `ld.local` and through `cvta.to.local`
//!    (call_noinline's pattern), the same at -O0 and -O3, with its values checked.

use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare};
use interp::memory::{
    CONST_WINDOW, LOCAL_HI, LOCAL_LO, LOCAL_WINDOW, PARAM_WINDOW, SHARED_HI, SHARED_WINDOW, WINDOW_SIZE,
    resolve_generic,
};
use ptxas_rs::backend;
use ptxas_rs::ori::Space;

#[test]
fn window_bases_have_nonzero_low_words_and_resolve_by_range() {
    assert_eq!(SHARED_WINDOW as u32, 0, "SR_SWINHI:offset is a shared generic address");
    assert_eq!(u64::from(SHARED_HI) << 32, SHARED_WINDOW);
    assert_eq!(u64::from(LOCAL_HI) << 32 | u64::from(LOCAL_LO), LOCAL_WINDOW);
    for (base, space) in [(LOCAL_WINDOW, Space::Local), (CONST_WINDOW, Space::Const), (PARAM_WINDOW, Space::Param)] {
        assert_ne!(base as u32, 0, "{space:?}: a zero low word hides a wrong-sign conversion");
        for off in [0u64, 4, 0xfff0, WINDOW_SIZE - 4] {
            assert_eq!(resolve_generic(base + off), (space, off), "{space:?} + {off:#x}");
            // What adding the base instead of subtracting it gives: another low word.
            assert_ne!((base + off).wrapping_add(base) as u32, off as u32);
        }
        assert_eq!(resolve_generic(base - 1).0, Space::Global, "{space:?}: below the window");
        assert_eq!(resolve_generic(base + WINDOW_SIZE).0, Space::Global, "{space:?}: past the window");
    }
    assert_eq!(resolve_generic(SHARED_WINDOW + 0x400), (Space::Shared, 0x400));
}

/// Runs `ptx` with `spec` in the interpreter and, compiled by us at -O0 and -O3, in the
/// emulator with hazard checking; every output must agree. Returns the -O3 run's outputs.
fn ours_match_the_interpreter(ptx: &str, spec: &LaunchSpec) -> interp::Outputs {
    let module = ptxas_rs::lower::lower_source(ptx).unwrap();
    let exec = ExecConfig { local_bytes: 16 * 1024, ..ExecConfig::default() };
    let reference = interp::run_ori_with(&module, &spec.kernel, spec, &exec).unwrap();
    let ast = ptxas_rs::ptx::parse(ptx, "in.ptx").unwrap();
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let mut last = None;
    for level in [0u8, 3] {
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let cubin = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("-O{level}: {e:?}")).cubin;
        let kernel = Kernel::load(&cubin, &spec.kernel).unwrap();
        let run = kernel.run(spec, &cfg).unwrap_or_else(|e| panic!("-O{level}: {e}"));
        for buf in spec.outputs() {
            let n = buf.name();
            compare(buf, run.outputs.get(n).unwrap(), reference.get(n).unwrap())
                .unwrap_or_else(|m| panic!("-O{level} {n}: {m}"));
        }
        last = Some(run.outputs);
    }
    last.unwrap()
}

#[test]
fn addr_exprs_converts_every_window_both_ways() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/ptx/addr_exprs");
    let ptx = std::fs::read_to_string(dir.join("addr_exprs.ptx")).unwrap();
    let spec = LaunchSpec::from_path(&dir.join("addr_exprs.run.toml")).unwrap();
    ours_match_the_interpreter(&ptx, &spec);
}

const SPLIT: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.func split(.param .b32 x, .param .b64 pa, .param .b64 pb)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u32 %r1, [x];
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	and.b32 %r2, %r1, 255;
	shr.u32 %r3, %r1, 8;
	st.u32 [%rd1], %r2;
	st.u32 [%rd2], %r3;
	ret;
}

.visible .entry windows(.param .u64 pout, .param .u32 pk)
{
	.local .align 8 .b32 loc[4];
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [pout];
	cvta.to.global.u64 %rd1, %rd1;
	ld.param.u32 %r9, [pk];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mad.lo.u32 %r3, %r2, 32, %r1;
	mad.lo.u32 %r4, %r3, 97, %r9;
	mov.u64 %rd2, loc;
	cvta.local.u64 %rd3, %rd2;
	add.u64 %rd4, %rd3, 12;
	{
	.param .b32 a0;
	st.param.b32 [a0], %r4;
	.param .b64 a1;
	st.param.b64 [a1], %rd3;
	.param .b64 a2;
	st.param.b64 [a2], %rd4;
	call split, (a0, a1, a2);
	}
	ld.local.u32 %r5, [loc];
	ld.local.u32 %r6, [loc+12];
	cvta.to.local.u64 %rd5, %rd4;
	ld.local.u32 %r7, [%rd5];
	ld.u32 %r8, [%rd3];
	mul.wide.u32 %rd6, %r3, 16;
	add.u64 %rd7, %rd1, %rd6;
	st.global.v4.u32 [%rd7], {%r5, %r6, %r7, %r8};
	ret;
}
"#;

#[test]
fn a_callee_stores_through_generic_pointers_to_the_callers_locals() {
    let spec = LaunchSpec::from_toml_str(
        "kernel = \"windows\"\ngrid = [2, 1, 1]\nblock = [32, 1, 1]\n[[param]]\nbuffer = \"out\"\n\
         [[param]]\nscalar = { type = \"u32\", value = 4660 }\n\
         [buffer.out]\ntype = \"u32\"\nlen = 256\ninit = { fill = 0 }\noutput = true\n",
    )
    .unwrap();
    let out = ours_match_the_interpreter(SPLIT, &spec);
    let got: Vec<u32> = out.get("out").unwrap().chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    for t in 0..64u32 {
        let x = t * 97 + 4660;
        let want = [x & 255, x >> 8, x >> 8, x & 255];
        assert_eq!(got[4 * t as usize..4 * t as usize + 4], want, "thread {t}");
    }
}
