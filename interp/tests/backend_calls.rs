//! Non-inlined device functions end to end (issue 7, `ptxas_rs::lower::isel::call`): small PTX
//! modules with `.func` calls are compiled by our backend at -O0 and -O3, run in the SASS
//! emulator with the hazard checker, and must give the Ori interpreter's outputs. Each module
//! exercises one part of the ABI:
//!
//! - `REGS`: `.reg` parameters and results of 32/64-bit integer and f32 types, a call under
//!   divergence, values and a predicate live across the call (kept in preserved registers or spilled);
//! - `RECURSION`: a recursive `.func` with `.param` parameters and result (in registers; a
//!   real stack frame per activation for the saved registers), recursion depth differing per
//!   lane, and the kernel's minimum stack with a recursive call reachable;
//! - `PARAM_SCALARS`: `.param` scalars in registers (`lower::param_regs`) of every size and
//!   alignment (b32, b64 on an even register, f32, f64), and each way back to memory: a callee
//!   reading its parameter and writing its result by halves (frame slots), a caller writing its
//!   argument and reading its result by halves, a callee forwarding its own parameter and
//!   result names to another call, and a 13th parameter past `R15` passed in memory and
//!   forwarded to a register parameter;
//! - `STRUCTS`: a by-value `.param` struct parameter and a two-field `.param` struct result,
//!   a callee calling another callee, a callee with a local array;
//! - `SHARED`: a shared array named only by the callees (the kernel's `.nv.shared` section
//!   must cover it);
//! - `INDIRECT`: indirect calls through a table of function pointers and a register;
//! - `CHURN`: a callee keeping 28 values live (scratch registers everywhere) called with ten
//!   values and a predicate of the kernel live across the call;
//! - `LOCAL_PTR`: a generic pointer to the caller's local array passed to a callee that
//!   writes through `cvta.to.local` (the caller's frame seen from the callee's frame).
//!
//! When NVIDIA's tools are installed, the cubins must also pass `nvdisasm` and `cuobjdump -elf`
//! silently.

use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare};
use ptxas_rs::backend;

const HEADER: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

const REGS: &str = r#"
.func (.reg .u32 r0, .reg .u64 r1, .reg .f32 r2) mix(.reg .u32 a, .reg .u64 b, .reg .f32 c)
{
    .reg .u32 %t<4>;
    .reg .u64 %d<3>;
    .reg .pred %q;
    mul.lo.u32 %t0, a, 3;
    cvt.rzi.u32.f32 %t1, c;
    add.u32 r0, %t0, %t1;
    setp.gt.u32 %q, a, 20;
    @%q add.u32 r0, r0, 1000;
    cvt.u64.u32 %d0, a;
    add.u64 r1, b, %d0;
    mul.f32 r2, c, 0f3FC00000;
    ret;
}

.visible .entry k(.param .u64 out, .param .u64 fout)
{
    .reg .u32 %r<10>;
    .reg .u64 %rd<10>;
    .reg .f32 %f<4>;
    .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    ld.param.u64 %rd7, [fout];
    cvta.to.global.u64 %rd7, %rd7;
    mul.lo.u32 %r2, %r1, 7;
    cvt.u64.u32 %rd2, %r1;
    shl.b64 %rd3, %rd2, 33;
    cvt.rn.f32.u32 %f1, %r1;
    setp.lt.u32 %p1, %r1, 5;
    mov.u32 %r3, 0;
    mov.u64 %rd4, 0;
    mov.f32 %f2, 0f00000000;
    @%p1 bra SKIP;
    call (%r3, %rd4, %f2), mix, (%r1, %rd3, %f1);
SKIP:
    selp.u32 %r4, 100, 0, %p1;
    add.u32 %r5, %r3, %r2;
    add.u32 %r5, %r5, %r4;
    mul.wide.u32 %rd5, %r1, 16;
    add.u64 %rd6, %rd1, %rd5;
    st.global.u32 [%rd6], %r5;
    st.global.u64 [%rd6+8], %rd4;
    mul.wide.u32 %rd5, %r1, 4;
    add.u64 %rd6, %rd7, %rd5;
    st.global.f32 [%rd6], %f2;
    ret;
}
"#;

const REGS_SPEC: &str = r#"
kernel = "k"
grid = [2, 1, 1]
block = [64, 1, 1]
[[param]]
buffer = "out"
[[param]]
buffer = "fout"
[buffer.out]
type = "u32"
len = 256
init = { fill = 0 }
output = true
[buffer.fout]
type = "f32"
len = 64
init = { fill = 0.0 }
output = true
"#;

const RECURSION: &str = r#"
.func (.param .b32 ret) sum(.param .b32 n, .param .b32 k)
{
    .reg .u32 %r<8>;
    .reg .pred %p;
    ld.param.u32 %r1, [n];
    ld.param.u32 %r2, [k];
    setp.eq.u32 %p, %r1, 0;
    mov.u32 %r5, 0;
    @%p bra DONE;
    add.u32 %r3, %r1, -1;
    {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 r0;
    st.param.b32 [a0], %r3;
    st.param.b32 [a1], %r2;
    call.uni (r0), sum, (a0, a1);
    ld.param.b32 %r4, [r0];
    }
    mul.lo.u32 %r6, %r1, %r2;
    add.u32 %r5, %r4, %r6;
DONE:
    st.param.b32 [ret], %r5;
    ret;
}

.visible .entry k(.param .u64 out)
{
    .reg .u32 %r<8>;
    .reg .u64 %rd<4>;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 15;
    add.u32 %r3, %r1, 3;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 r0;
    st.param.b32 [a0], %r2;
    st.param.b32 [a1], %r3;
    call.uni (r0), sum, (a0, a1);
    ld.param.b32 %r4, [r0];
    }
    add.u32 %r5, %r4, %r3;
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
"#;

const RECURSION_SPEC: &str = r#"
kernel = "k"
grid = [1, 1, 1]
block = [64, 1, 1]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 64
init = { fill = 0 }
output = true
"#;

const STRUCTS: &str = r#"
.func (.param .align 8 .b8 ret[16]) inner(.param .align 8 .b8 s[16])
{
    .reg .u32 %r<6>;
    .reg .u64 %rd<3>;
    .local .align 4 .b8 buf[16];
    ld.param.u32 %r1, [s];
    ld.param.u32 %r2, [s+4];
    ld.param.u64 %rd1, [s+8];
    st.local.u32 [buf], %r1;
    st.local.u32 [buf+4], %r2;
    ld.local.u32 %r3, [buf];
    ld.local.u32 %r4, [buf+4];
    add.u32 %r5, %r3, %r4;
    add.u64 %rd2, %rd1, 5;
    st.param.u32 [ret], %r5;
    st.param.u32 [ret+4], %r4;
    st.param.u64 [ret+8], %rd2;
    ret;
}

.func (.param .align 8 .b8 ret[16]) outer(.param .align 8 .b8 s[16], .param .b32 m)
{
    .reg .u32 %r<8>;
    .reg .u64 %rd<3>;
    ld.param.u32 %r1, [s];
    ld.param.u32 %r2, [s+4];
    ld.param.u64 %rd1, [s+8];
    ld.param.u32 %r3, [m];
    mul.lo.u32 %r1, %r1, %r3;
    {
    .param .align 8 .b8 a0[16];
    .param .align 8 .b8 r0[16];
    st.param.u32 [a0], %r1;
    st.param.u32 [a0+4], %r2;
    st.param.u64 [a0+8], %rd1;
    call.uni (r0), inner, (a0);
    ld.param.u32 %r4, [r0];
    ld.param.u32 %r5, [r0+4];
    ld.param.u64 %rd2, [r0+8];
    }
    add.u32 %r6, %r4, %r3;
    st.param.u32 [ret], %r6;
    st.param.u32 [ret+4], %r5;
    st.param.u64 [ret+8], %rd2;
    ret;
}

.visible .entry k(.param .u64 out)
{
    .reg .u32 %r<10>;
    .reg .u64 %rd<8>;
    mov.u32 %r1, %tid.x;
    mul.lo.u32 %r2, %r1, 3;
    cvt.u64.u32 %rd1, %r1;
    shl.b64 %rd1, %rd1, 32;
    ld.param.u64 %rd4, [out];
    cvta.to.global.u64 %rd4, %rd4;
    {
    .param .align 8 .b8 a0[16];
    .param .b32 a1;
    .param .align 8 .b8 r0[16];
    st.param.u32 [a0], %r1;
    st.param.u32 [a0+4], %r2;
    st.param.u64 [a0+8], %rd1;
    st.param.b32 [a1], 9;
    call.uni (r0), outer, (a0, a1);
    ld.param.u32 %r4, [r0];
    ld.param.u32 %r5, [r0+4];
    ld.param.u64 %rd2, [r0+8];
    }
    mul.wide.u32 %rd5, %r1, 16;
    add.u64 %rd6, %rd4, %rd5;
    st.global.u32 [%rd6], %r4;
    st.global.u32 [%rd6+4], %r5;
    st.global.u64 [%rd6+8], %rd2;
    ret;
}
"#;

const STRUCTS_SPEC: &str = r#"
kernel = "k"
grid = [1, 1, 1]
block = [64, 1, 1]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 256
init = { fill = 0 }
output = true
"#;

const LOCAL_PTR: &str = r#"
.func split(.param .b32 v, .param .b64 lo, .param .b64 hi)
{
    .reg .u32 %r<4>;
    .reg .u64 %rd<5>;
    ld.param.u32 %r1, [v];
    ld.param.u64 %rd1, [lo];
    ld.param.u64 %rd2, [hi];
    cvta.to.local.u64 %rd3, %rd2;
    cvta.to.local.u64 %rd4, %rd1;
    and.b32 %r2, %r1, 65535;
    st.local.u32 [%rd4], %r2;
    shr.u32 %r3, %r1, 16;
    st.local.u32 [%rd3], %r3;
    ret;
}

.visible .entry k(.param .u64 out)
{
    .local .align 4 .b8 depot[8];
    .reg .u32 %r<10>;
    .reg .u64 %rd<10>;
    mov.u64 %rd1, depot;
    cvta.local.u64 %rd2, %rd1;
    add.u64 %rd3, %rd2, 4;
    mov.u32 %r1, %tid.x;
    mul.lo.u32 %r2, %r1, 0x10003;
    {
    .param .b32 a0;
    .param .b64 a1;
    .param .b64 a2;
    st.param.b32 [a0], %r2;
    st.param.b64 [a1], %rd2;
    st.param.b64 [a2], %rd3;
    call.uni split, (a0, a1, a2);
    }
    ld.local.u32 %r3, [depot];
    ld.local.u32 %r4, [depot+4];
    ld.param.u64 %rd4, [out];
    cvta.to.global.u64 %rd4, %rd4;
    mul.wide.u32 %rd5, %r1, 8;
    add.u64 %rd6, %rd4, %rd5;
    st.global.u32 [%rd6], %r3;
    st.global.u32 [%rd6+4], %r4;
    ret;
}
"#;

const LOCAL_PTR_SPEC: &str = r#"
kernel = "k"
grid = [1, 1, 1]
block = [32, 1, 1]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 64
init = { fill = 0 }
output = true
"#;

const SHARED: &str = r#"
.shared .align 4 .b8 tile[256];

.func put(.param .b32 i, .param .b32 v)
{
    .reg .u32 %r<4>;
    .reg .u64 %rd<3>;
    ld.param.u32 %r1, [i];
    ld.param.u32 %r2, [v];
    mul.wide.u32 %rd1, %r1, 4;
    mov.u64 %rd2, tile;
    add.u64 %rd2, %rd2, %rd1;
    st.shared.u32 [%rd2], %r2;
    ret;
}

.func (.param .b32 r) get(.param .b32 i)
{
    .reg .u32 %r<4>;
    .reg .u64 %rd<3>;
    ld.param.u32 %r1, [i];
    mul.wide.u32 %rd1, %r1, 4;
    mov.u64 %rd2, tile;
    add.u64 %rd2, %rd2, %rd1;
    ld.shared.u32 %r2, [%rd2];
    st.param.b32 [r], %r2;
    ret;
}

.visible .entry k(.param .u64 out)
{
    .reg .u32 %r<8>;
    .reg .u64 %rd<8>;
    mov.u32 %r1, %tid.x;
    mul.lo.u32 %r2, %r1, 11;
    {
    .param .b32 a0;
    .param .b32 a1;
    st.param.b32 [a0], %r1;
    st.param.b32 [a1], %r2;
    call.uni put, (a0, a1);
    }
    bar.sync 0;
    xor.b32 %r3, %r1, 63;
    {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r3;
    call.uni (r0), get, (a0);
    ld.param.b32 %r4, [r0];
    }
    ld.param.u64 %rd4, [out];
    cvta.to.global.u64 %rd4, %rd4;
    mul.wide.u32 %rd5, %r1, 4;
    add.u64 %rd6, %rd4, %rd5;
    st.global.u32 [%rd6], %r4;
    ret;
}
"#;

const INDIRECT: &str = r#"
.func (.param .b32 r) add3(.param .b32 a, .param .b32 b)
{
    .reg .u32 %r<4>;
    ld.param.u32 %r1, [a];
    ld.param.u32 %r2, [b];
    add.u32 %r3, %r1, %r2;
    add.u32 %r3, %r3, 3;
    st.param.b32 [r], %r3;
    ret;
}
.func (.param .b32 r) mulx(.param .b32 a, .param .b32 b)
{
    .reg .u32 %r<4>;
    ld.param.u32 %r1, [a];
    ld.param.u32 %r2, [b];
    mul.lo.u32 %r3, %r1, %r2;
    xor.b32 %r3, %r3, 0x5a5a;
    st.param.b32 [r], %r3;
    ret;
}
.func (.param .b32 r) subr(.param .b32 a, .param .b32 b)
{
    .reg .u32 %r<4>;
    ld.param.u32 %r1, [a];
    ld.param.u32 %r2, [b];
    sub.u32 %r3, %r2, %r1;
    st.param.b32 [r], %r3;
    ret;
}
.func (.reg .u32 r) twice(.reg .u32 a)
{
    shl.b32 r, a, 1;
    ret;
}
.global .align 8 .u64 tbl[3] = {add3, mulx, subr};

.visible .entry k(.param .u64 out)
{
    .reg .u32 %r<12>;
    .reg .u64 %rd<8>;
    .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, 3;
    mul.wide.u32 %rd1, %r2, 8;
    mov.u64 %rd2, tbl;
    add.u64 %rd3, %rd2, %rd1;
    ld.global.u64 %rd4, [%rd3];
    mul.lo.u32 %r3, %r1, 77;
    {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 r0;
    st.param.b32 [a0], %r1;
    st.param.b32 [a1], %r3;
    proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
    call (r0), %rd4, (a0, a1), proto;
    ld.param.b32 %r4, [r0];
    }
    mov.u64 %rd5, twice;
    and.b32 %r5, %r1, 1;
    setp.eq.u32 %p1, %r5, 1;
    mov.u32 %r6, 1000;
    {
    proto2: .callprototype (.reg .u32 _) _ (.reg .u32 _);
    @%p1 call (%r6), %rd5, (%r4), proto2;
    }
    add.u32 %r7, %r4, %r6;
    ld.param.u64 %rd6, [out];
    cvta.to.global.u64 %rd6, %rd6;
    mul.wide.u32 %rd7, %r1, 4;
    add.u64 %rd6, %rd6, %rd7;
    st.global.u32 [%rd6], %r7;
    ret;
}
"#;

const PARAM_SCALARS: &str = r#"
.func (.param .b64 r) mix(.param .b32 a, .param .b64 b, .param .f32 c, .param .f64 d)
{
    .reg .u32 %r<4>;
    .reg .u64 %rd<6>;
    .reg .f32 %f<2>;
    .reg .f64 %fd<3>;
    ld.param.u32 %r1, [a];
    ld.param.u64 %rd1, [b];
    ld.param.f32 %f1, [c];
    ld.param.f64 %fd1, [d];
    cvt.f64.f32 %fd2, %f1;
    add.f64 %fd2, %fd2, %fd1;
    cvt.rzi.u64.f64 %rd2, %fd2;
    cvt.u64.u32 %rd3, %r1;
    add.u64 %rd4, %rd1, %rd2;
    add.u64 %rd5, %rd4, %rd3;
    st.param.b64 [r], %rd5;
    ret;
}

.func (.param .b32 r) halves(.param .b32 x)
{
    .reg .u32 %r<6>;
    ld.param.u16 %r1, [x];
    ld.param.u16 %r2, [x+2];
    add.u32 %r3, %r1, 7;
    add.u32 %r4, %r2, 9;
    st.param.b16 [r], %r4;
    st.param.b16 [r+2], %r3;
    ret;
}

.func (.param .b32 r) fwd(.param .b32 x)
{
    call.uni (r), halves, (x);
    ret;
}

.func (.param .b32 r) many(.param .b32 p0, .param .b32 p1, .param .b32 p2, .param .b32 p3,
    .param .b32 p4, .param .b32 p5, .param .b32 p6, .param .b32 p7, .param .b32 p8,
    .param .b32 p9, .param .b32 p10, .param .b32 p11, .param .b32 p12)
{
    .reg .u32 %r<8>;
    ld.param.u32 %r1, [p0];
    ld.param.u32 %r2, [p11];
    {
    .param .b32 h;
    call.uni (h), halves, (p12);
    ld.param.u32 %r3, [h];
    }
    add.u32 %r4, %r1, %r2;
    add.u32 %r5, %r4, %r3;
    st.param.b32 [r], %r5;
    ret;
}

.visible .entry k(.param .u64 out)
{
    .reg .u32 %r<16>;
    .reg .u64 %rd<8>;
    .reg .f32 %f<2>;
    .reg .f64 %fd<2>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.u32 %rd2, %r1, 16;
    add.u64 %rd3, %rd1, %rd2;
    cvt.u64.u32 %rd4, %r1;
    shl.b64 %rd4, %rd4, 33;
    cvt.rn.f32.u32 %f1, %r1;
    cvt.rn.f64.u32 %fd1, %r1;
    {
    .param .b32 a;
    .param .b64 b;
    .param .f32 c;
    .param .f64 d;
    .param .b64 r;
    st.param.b32 [a], %r1;
    st.param.b64 [b], %rd4;
    st.param.f32 [c], %f1;
    st.param.f64 [d], %fd1;
    call.uni (r), mix, (a, b, c, d);
    ld.param.b64 %rd5, [r];
    }
    st.global.u64 [%rd3], %rd5;
    add.u32 %r2, %r1, 1000;
    {
    .param .b32 a;
    .param .b32 r;
    st.param.b16 [a], %r1;
    st.param.b16 [a+2], %r2;
    call.uni (r), fwd, (a);
    ld.param.u16 %r3, [r];
    ld.param.u16 %r4, [r+2];
    }
    shl.b32 %r4, %r4, 16;
    or.b32 %r5, %r3, %r4;
    st.global.u32 [%rd3+8], %r5;
    {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 a11;
    .param .b32 a12;
    .param .b32 r;
    st.param.b32 [a0], %r1;
    st.param.b32 [a1], 1;
    st.param.b32 [a11], %r2;
    st.param.b32 [a12], %r2;
    call.uni (r), many, (a0, a1, a1, a1, a1, a1, a1, a1, a1, a1, a1, a11, a12);
    ld.param.u32 %r6, [r];
    }
    st.global.u32 [%rd3+12], %r6;
    ret;
}
"#;

/// Compiles `body` at both levels and checks each cubin against the interpreter.
fn check(name: &str, body: &str, spec: &str) {
    let text = format!("{HEADER}{body}");
    let spec = LaunchSpec::from_toml_str_named(spec, name).unwrap();
    let ast = ptxas_rs::ptx::parse(&text, name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let module = ptxas_rs::lower::lower_source(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let exec = ExecConfig { local_bytes: 16 * 1024, ..ExecConfig::default() };
    let reference = interp::run_ori_with(&module, &spec.kernel, &spec, &exec).unwrap();
    let tools = oracle::tools().ok();
    for level in [0u8, 3] {
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let c = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("{name}@O{level}: {e}"));
        let k = &c.image.kernels[0];
        assert!(!k.subroutines.is_empty(), "{name}@O{level}: the device functions are not subroutines");
        let kernel = Kernel::load(&c.cubin, &spec.kernel).unwrap();
        let run = kernel
            .run(&spec, &EmuConfig { hazards: true, ..EmuConfig::default() })
            .unwrap_or_else(|e| panic!("{name}@O{level}: emulator: {e}"));
        for buf in spec.outputs() {
            let n = buf.name();
            if let Err(m) = compare(buf, run.outputs.get(n).unwrap(), reference.get(n).unwrap()) {
                panic!("{name}@O{level}: {n}: {m}");
            }
        }
        if let Some(t) = tools {
            let path = std::env::temp_dir().join(format!("ptxas-rs-calls-{}-{name}-{level}.cubin", std::process::id()));
            std::fs::write(&path, &c.cubin).unwrap();
            for (tool, args) in [(t.nvdisasm(), vec![]), (t.cuobjdump(), vec!["-elf"])] {
                let out = std::process::Command::new(tool).args(&args).arg(&path).output().unwrap();
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success() && err.trim().is_empty(), "{name}@O{level}: {err}");
            }
            let _ = std::fs::remove_file(&path);
        }
    }
}

#[test]
fn register_parameters_and_results() {
    check("regs", REGS, REGS_SPEC);
}

#[test]
fn recursion_with_a_frame_per_activation() {
    check("recursion", RECURSION, RECURSION_SPEC);
    // With a recursive call reachable, the kernel's minimum stack is its own frame (ptxas:
    // EIATTR_MIN_STACK_SIZE counts no recursive callee), while `sum` has a frame of its own.
    let ast = ptxas_rs::ptx::parse(&format!("{HEADER}{RECURSION}"), "recursion").unwrap();
    let c = backend::compile(&ast, &backend::Options::default()).unwrap();
    let k = &c.image.kernels[0];
    assert_eq!(k.min_stack_size, k.frame_size);
    assert!(k.report.functions.iter().any(|(name, frame, ..)| name == "sum" && *frame > 0), "{:?}", k.report.functions);
}

/// `.param` scalars in registers and every way back to memory (`PARAM_SCALARS`); the
/// signatures put `mix`'s words in R4, R6:R7, R8, R10:R11 and `many`'s 13th parameter in
/// memory.
#[test]
fn param_scalars_in_registers_and_back_in_memory() {
    let text = format!("{HEADER}{PARAM_SCALARS}");
    let module = ptxas_rs::lower::lower_source(&text).unwrap();
    let mix = module.function("mix").unwrap();
    let classes: Vec<_> = mix.params.iter().skip(1).map(|&p| mix.reg_class(p).unwrap()).collect();
    let starts = ptxas_rs::lower::isel::call::words(&classes).unwrap();
    assert_eq!(starts, [4, 6, 8, 10]);
    let ast = ptxas_rs::ptx::parse(&text, "p").unwrap();
    let addr = backend::param_addresses(&ast);
    assert_eq!(addr["mix"], [false; 4]);
    assert_eq!(addr["many"], [[false; 12].as_slice(), &[true]].concat());
    // The reference `check` compares the cubins with is right: the values worked out by hand.
    let spec = LaunchSpec::from_toml_str_named(STRUCTS_SPEC, "param_scalars").unwrap();
    let exec = ExecConfig { local_bytes: 16 * 1024, ..ExecConfig::default() };
    let out = interp::run_ori_with(&module, &spec.kernel, &spec, &exec).unwrap();
    let words: Vec<u32> =
        out.get("out").unwrap().chunks(4).map(|b| u32::from_le_bytes(b.try_into().unwrap())).collect();
    for t in 0..64u32 {
        let mix = (u64::from(t) << 33) + 3 * u64::from(t);
        let halves = (t + 1009) | ((t + 7) << 16);
        let many = t.wrapping_add(t + 1000).wrapping_add(9 | ((t + 1007) << 16));
        let w = &words[4 * t as usize..4 * t as usize + 4];
        assert_eq!(w, [mix as u32, (mix >> 32) as u32, halves, many], "thread {t}");
    }
    check("param_scalars", PARAM_SCALARS, STRUCTS_SPEC);
}

#[test]
fn struct_parameters_and_results_through_two_levels() {
    check("structs", STRUCTS, STRUCTS_SPEC);
}

#[test]
fn a_local_pointer_passed_to_a_callee() {
    check("local_ptr", LOCAL_PTR, LOCAL_PTR_SPEC);
}

/// Shared memory used only by a device function still gets the kernel's `.nv.shared` section.
#[test]
fn shared_memory_used_by_a_callee() {
    check("shared", SHARED, RECURSION_SPEC);
}

/// Indirect calls (`lower::isel::indirect`): pointers from a `.global` table initialised with
/// function names (three targets in one warp), a guarded call through a `mov`ed address of a
/// `.reg`-parameter function, and a function whose shape matches no call (never a candidate).
#[test]
fn indirect_calls_through_a_table_and_a_register() {
    check("indirect", INDIRECT, RECURSION_SPEC);
}

/// An indirect call that no function of the module can take (its prototype has two
/// parameters, the only function one) is refused with a clear error, never compiled into a call
/// of nothing.
#[test]
fn an_indirect_call_matching_no_function_is_a_clear_error() {
    let text = format!(
        "{HEADER}{}",
        r#"
.func (.param .b32 r) f(.param .b32 a)
{
    .reg .u32 %r<2>;
    ld.param.u32 %r1, [a];
    st.param.b32 [r], %r1;
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .u64 %rd<3>;
    .reg .u32 %r<2>;
    mov.u64 %rd1, f;
    {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 r0;
    st.param.b32 [a0], 1;
    st.param.b32 [a1], 2;
    proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
    call (r0), %rd1, (a0, a1), proto;
    ld.param.b32 %r1, [r0];
    }
    ld.param.u64 %rd2, [out];
    st.global.u32 [%rd2], %r1;
    ret;
}
"#
    );
    let ast = ptxas_rs::ptx::parse(&text, "fnptr").unwrap();
    let e = backend::compile(&ast, &backend::Options::default()).unwrap_err();
    assert!(e.to_string().contains("matches no function of the module is not implemented yet"), "{e}");
}

/// A value live across a call survives a callee that clobbers scratch registers
/// (`lower::isel::call::clobbered`): `churn` keeps 28 values live at once (R0, R4–R15 and
/// beyond) while the kernel holds ten values, its output address and a predicate across the
/// call; they must sit in preserved registers (or be spilled) for the outputs to match the
/// interpreter's.
const CHURN: &str = r#"
.func (.reg .u32 r) churn(.reg .u64 p, .reg .u32 s)
{
    .reg .u32 %v<28>;
    .reg .u64 %q;
    mov.u64 %q, p;
    ld.global.u32 %v0, [%q+0];
    ld.global.u32 %v1, [%q+4];
    ld.global.u32 %v2, [%q+8];
    ld.global.u32 %v3, [%q+12];
    ld.global.u32 %v4, [%q+16];
    ld.global.u32 %v5, [%q+20];
    ld.global.u32 %v6, [%q+24];
    ld.global.u32 %v7, [%q+28];
    ld.global.u32 %v8, [%q+32];
    ld.global.u32 %v9, [%q+36];
    ld.global.u32 %v10, [%q+40];
    ld.global.u32 %v11, [%q+44];
    ld.global.u32 %v12, [%q+48];
    ld.global.u32 %v13, [%q+52];
    ld.global.u32 %v14, [%q+56];
    ld.global.u32 %v15, [%q+60];
    ld.global.u32 %v16, [%q+64];
    ld.global.u32 %v17, [%q+68];
    ld.global.u32 %v18, [%q+72];
    ld.global.u32 %v19, [%q+76];
    ld.global.u32 %v20, [%q+80];
    ld.global.u32 %v21, [%q+84];
    ld.global.u32 %v22, [%q+88];
    ld.global.u32 %v23, [%q+92];
    ld.global.u32 %v24, [%q+96];
    ld.global.u32 %v25, [%q+100];
    ld.global.u32 %v26, [%q+104];
    ld.global.u32 %v27, [%q+108];
    mad.lo.u32 %v0, %v0, %v3, s;
    mad.lo.u32 %v1, %v1, %v8, s;
    mad.lo.u32 %v2, %v2, %v13, s;
    mad.lo.u32 %v3, %v3, %v18, s;
    mad.lo.u32 %v4, %v4, %v23, s;
    mad.lo.u32 %v5, %v5, %v0, s;
    mad.lo.u32 %v6, %v6, %v5, s;
    mad.lo.u32 %v7, %v7, %v10, s;
    mad.lo.u32 %v8, %v8, %v15, s;
    mad.lo.u32 %v9, %v9, %v20, s;
    mad.lo.u32 %v10, %v10, %v25, s;
    mad.lo.u32 %v11, %v11, %v2, s;
    mad.lo.u32 %v12, %v12, %v7, s;
    mad.lo.u32 %v13, %v13, %v12, s;
    mad.lo.u32 %v14, %v14, %v17, s;
    mad.lo.u32 %v15, %v15, %v22, s;
    mad.lo.u32 %v16, %v16, %v27, s;
    mad.lo.u32 %v17, %v17, %v4, s;
    mad.lo.u32 %v18, %v18, %v9, s;
    mad.lo.u32 %v19, %v19, %v14, s;
    mad.lo.u32 %v20, %v20, %v19, s;
    mad.lo.u32 %v21, %v21, %v24, s;
    mad.lo.u32 %v22, %v22, %v1, s;
    mad.lo.u32 %v23, %v23, %v6, s;
    mad.lo.u32 %v24, %v24, %v11, s;
    mad.lo.u32 %v25, %v25, %v16, s;
    mad.lo.u32 %v26, %v26, %v21, s;
    mad.lo.u32 %v27, %v27, %v26, s;
    mov.u32 r, %v0;
    xor.b32 r, r, %v1;
    xor.b32 r, r, %v2;
    xor.b32 r, r, %v3;
    xor.b32 r, r, %v4;
    xor.b32 r, r, %v5;
    xor.b32 r, r, %v6;
    xor.b32 r, r, %v7;
    xor.b32 r, r, %v8;
    xor.b32 r, r, %v9;
    xor.b32 r, r, %v10;
    xor.b32 r, r, %v11;
    xor.b32 r, r, %v12;
    xor.b32 r, r, %v13;
    xor.b32 r, r, %v14;
    xor.b32 r, r, %v15;
    xor.b32 r, r, %v16;
    xor.b32 r, r, %v17;
    xor.b32 r, r, %v18;
    xor.b32 r, r, %v19;
    xor.b32 r, r, %v20;
    xor.b32 r, r, %v21;
    xor.b32 r, r, %v22;
    xor.b32 r, r, %v23;
    xor.b32 r, r, %v24;
    xor.b32 r, r, %v25;
    xor.b32 r, r, %v26;
    xor.b32 r, r, %v27;
    ret;
}
.visible .entry k(.param .u64 in, .param .u64 out)
{
    .reg .u32 %r<4>;
    .reg .u32 %a<10>;
    .reg .u64 %rd<6>;
    .reg .pred %p;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [in];
    cvta.to.global.u64 %rd1, %rd1;
    ld.param.u64 %rd2, [out];
    cvta.to.global.u64 %rd2, %rd2;
    setp.lt.u32 %p, %r1, 13;
    mad.lo.u32 %a0, %r1, 3, 1;
    mad.lo.u32 %a1, %r1, 4, 2;
    mad.lo.u32 %a2, %r1, 5, 5;
    mad.lo.u32 %a3, %r1, 6, 10;
    mad.lo.u32 %a4, %r1, 7, 17;
    mad.lo.u32 %a5, %r1, 8, 26;
    mad.lo.u32 %a6, %r1, 9, 37;
    mad.lo.u32 %a7, %r1, 10, 50;
    mad.lo.u32 %a8, %r1, 11, 65;
    mad.lo.u32 %a9, %r1, 12, 82;
    call (%r2), churn, (%rd1, %r1);
    xor.b32 %r2, %r2, %a0;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a1;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a2;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a3;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a4;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a5;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a6;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a7;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a8;
    mul.lo.u32 %r2, %r2, 33;
    xor.b32 %r2, %r2, %a9;
    mul.lo.u32 %r2, %r2, 33;
    selp.u32 %r3, 77, 5, %p;
    add.u32 %r2, %r2, %r3;
    mul.wide.u32 %rd3, %r1, 4;
    add.u64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r2;
    ret;
}
"#;

const CHURN_SPEC: &str = r#"
kernel = "k"
grid = [1, 1, 1]
block = [32, 1, 1]
[[param]]
buffer = "in"
[[param]]
buffer = "out"
[buffer.in]
type = "u32"
len = 32
init = { random = { seed = 7 } }
[buffer.out]
type = "u32"
len = 32
init = { fill = 0 }
output = true
"#;

#[test]
fn values_live_across_a_call_survive_a_scratch_heavy_callee() {
    check("churn", CHURN, CHURN_SPEC);
    // The callee writes scratch registers without saving them: its frame holds at most the
    // preserved registers it needs beyond R0 and R4–R15.
    let ast = ptxas_rs::ptx::parse(&format!("{HEADER}{CHURN}"), "churn").unwrap();
    let c = backend::compile(&ast, &backend::Options::default()).unwrap();
    let k = &c.image.kernels[0];
    let churn = k.report.functions.iter().find(|f| f.0 == "churn").expect("churn's -v line");
    assert!(churn.1 <= 4 * (28 + 4 - 13), "churn saves scratch registers: {:?}", k.report.functions);
}
