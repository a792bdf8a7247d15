//! The Ori interpreter on hand-written kernels: outputs are checked against plain Rust
//! references written independently of the interpreter; faults, the step limit and barrier
//! deadlocks are checked to be reported with the instruction and thread.

use interp::launch::LaunchSpec;
use interp::memory::FaultKind;
use interp::ori_exec::{ErrorKind, ExecConfig, ExecError, Outputs, run_ori, run_ori_with};
use ptxas_rs::ori::parse_module;

fn spec(text: &str) -> LaunchSpec {
    LaunchSpec::from_toml_str(text).unwrap_or_else(|e| panic!("spec: {e}"))
}

fn run_cfg(ir: &str, kernel: &str, spec: &LaunchSpec, cfg: &ExecConfig) -> Result<Outputs, ExecError> {
    let m = parse_module(ir).unwrap_or_else(|e| panic!("parse: {e:?}"));
    run_ori_with(&m, kernel, spec, cfg)
}

fn run(ir: &str, kernel: &str, spec: &LaunchSpec) -> Outputs {
    let m = parse_module(ir).unwrap_or_else(|e| panic!("parse: {e:?}"));
    run_ori(&m, kernel, spec).unwrap_or_else(|e| panic!("run: {e}"))
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn floats(b: &[u8]) -> Vec<f32> {
    words(b).into_iter().map(f32::from_bits).collect()
}

const SAXPY: &str = "
entry @saxpy() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 SR_CTAID.X
    %r2 = mov.u32 SR_NTID.X
    %r3 = mad.lo.u32 %r1, %r2, %r0
    %r4 = ld.u32 param[0]
    %p5 = setp.ge.u32 %r3, %r4
    @%p5 exit
bb1:
    %r6 = ld.f32 param[4]
    %rd7 = ld.u64 param[8]
    %rd8 = ld.u64 param[16]
    %rd9 = mul.wide.u32 %r3, 4
    %rd10 = add.u64 %rd7, %rd9
    %rd11 = add.u64 %rd8, %rd9
    %r12 = ld.f32 global[%rd10]
    %r13 = ld.f32 global[%rd11]
    %r14 = fma.rn.f32 %r6, %r12, %r13
    st.f32 global[%rd11], %r14
    exit
}
";

const SAXPY_SPEC: &str = r#"
kernel = "saxpy"
grid = [4]
block = [256]
[[param]]
scalar = { type = "u32", value = 1000 }
[[param]]
scalar = { type = "f32", value = 2.5 }
[[param]]
buffer = "x"
[[param]]
buffer = "y"
[buffer.x]
type = "f32"
len = 1000
init = { random = { seed = 1, min = -10.0, max = 10.0 } }
[buffer.y]
type = "f32"
len = 1000
init = { random = { seed = 2, min = -10.0, max = 10.0 } }
output = true
"#;

#[test]
fn saxpy_with_bounds_check() {
    let s = spec(SAXPY_SPEC);
    let init = s.generate_buffers();
    let (x, y) = (floats(&init["x"]), floats(&init["y"]));
    let out = run(SAXPY, "saxpy", &s);
    let got = floats(out.get("y").unwrap());
    let want: Vec<f32> = x.iter().zip(&y).map(|(x, y)| 2.5f32.mul_add(*x, *y)).collect();
    assert_eq!(
        got.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
    );
    // 4 CTAs of 8 warps; the last CTA's warps 5..7 hold only threads >= 1000 and exit early.
    assert!(out.warp_steps > 0);
}

/// Nested divergence: if (i % 3 == 0) { v = i * i } else { if (i & 4) { v = i ^ 0x55 } else
/// { v = i + 7 } ; v = v * 2 }; out[i] = v + 1 — the store runs after reconvergence.
const DIVERGE: &str = "
entry @diverge() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 SR_CTAID.X
    %r2 = mov.u32 SR_NTID.X
    %r3 = mad.lo.u32 %r1, %r2, %r0
    %r4 = rem.u32 %r3, 3
    %p5 = setp.ne.u32 %r4, 0
    @%p5 bra bb2
bb1:
    %r6 = mul.lo.u32 %r3, %r3
    bra bb5
bb2:
    %r7 = and.b32 %r3, 4
    %p8 = setp.eq.u32 %r7, 0
    @%p8 bra bb4
bb3:
    %r6 = xor.b32 %r3, 0x55
    bra bb6
bb4:
    %r6 = add.u32 %r3, 7
    bra bb6
bb6:
    %r6 = shl.b32 %r6, 1
    bra bb5
bb5:
    %r9 = add.u32 %r6, 1
    %rd10 = ld.u64 param[0]
    %rd11 = mul.wide.u32 %r3, 4
    %rd12 = add.u64 %rd10, %rd11
    st.u32 global[%rd12], %r9
    exit
}
";

#[test]
fn divergent_if_else() {
    let s = spec(
        r#"
kernel = "diverge"
grid = [2]
block = [96]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 192
output = true
"#,
    );
    let out = run(DIVERGE, "diverge", &s);
    let want: Vec<u32> = (0..192u32)
        .map(|i| {
            let v = if i % 3 == 0 { i * i } else { (if i & 4 != 0 { i ^ 0x55 } else { i + 7 }) * 2 };
            v + 1
        })
        .collect();
    assert_eq!(words(out.get("out").unwrap()), want);
}

/// SSA form with phis: out[i] = sum over k < n[i] of (3k + 1), a data-dependent trip count.
const LOOP: &str = "
entry @tri() ssa {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 SR_CTAID.X
    %r2 = mov.u32 SR_NTID.X
    %r3 = mad.lo.u32 %r1, %r2, %r0
    %rd4 = ld.u64 param[0]
    %rd5 = mul.wide.u32 %r3, 4
    %rd6 = add.u64 %rd4, %rd5
    %r7 = ld.u32 global[%rd6]
    %p8 = setp.eq.u32 %r7, 0
    @%p8 bra bb3
bb1:
    bra bb2
bb2:
    %r9 = phi RZ, bb1, %r12, bb2
    %r10 = phi RZ, bb1, %r13, bb2
    %r11 = mad.lo.u32 %r9, 3, 1
    %r12 = add.u32 %r9, 1
    %r13 = add.u32 %r10, %r11
    %p14 = setp.lt.u32 %r12, %r7
    @%p14 bra bb2
bb4:
    bra bb3
bb3:
    %r15 = phi RZ, bb0, %r13, bb4
    %rd16 = ld.u64 param[8]
    %rd17 = add.u64 %rd16, %rd5
    st.u32 global[%rd17], %r15
    exit
}
";

#[test]
fn loop_with_data_dependent_trip_count() {
    let ir = LOOP;
    let s = spec(
        r#"
kernel = "tri"
grid = [3]
block = [64]
[[param]]
buffer = "n"
[[param]]
buffer = "out"
[buffer.n]
type = "u32"
len = 192
init = { random = { seed = 7, min = 0, max = 40 } }
[buffer.out]
type = "u32"
len = 192
output = true
"#,
    );
    let n = words(&s.generate_buffers()["n"]);
    let out = run(ir, "tri", &s);
    let want: Vec<u32> = n.iter().map(|&n| (0..n).map(|k| 3 * k + 1).sum()).collect();
    assert!(n.contains(&0) || n.iter().min() != n.iter().max());
    assert_eq!(words(out.get("out").unwrap()), want);
}

/// Tree reduction in shared memory with barriers: out[cta] = sum of the CTA's 128 inputs.
const REDUCE: &str = "
entry @reduce() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 SR_CTAID.X
    %r2 = mov.u32 SR_NTID.X
    %r3 = mad.lo.u32 %r1, %r2, %r0
    %rd4 = ld.u64 param[0]
    %rd5 = mul.wide.u32 %r3, 4
    %rd6 = add.u64 %rd4, %rd5
    %r7 = ld.u32 global[%rd6]
    %r8 = shl.b32 %r0, 2
    st.u32 shared[$sdata+%r8], %r7
    bar.sync 0
    %r9 = shr.u32 %r2, 1
    bra bb1
bb1:
    %p10 = setp.ge.u32 %r0, %r9
    @%p10 bra bb3
bb2:
    %r11 = add.u32 %r0, %r9
    %r12 = shl.b32 %r11, 2
    %r13 = ld.u32 shared[$sdata+%r12]
    %r14 = ld.u32 shared[$sdata+%r8]
    %r15 = add.u32 %r13, %r14
    st.u32 shared[$sdata+%r8], %r15
    bra bb3
bb3:
    bar.sync 0
    %r9 = shr.u32 %r9, 1
    %p16 = setp.ne.u32 %r9, 0
    @%p16 bra bb1
bb4:
    %p17 = setp.ne.u32 %r0, 0
    @%p17 exit
bb5:
    %r18 = ld.u32 shared[$sdata]
    %rd19 = ld.u64 param[8]
    %rd20 = mul.wide.u32 %r1, 4
    %rd21 = add.u64 %rd19, %rd20
    st.u32 global[%rd21], %r18
    exit
}
";

#[test]
fn shared_memory_reduction_with_barriers() {
    let s = spec(
        r#"
kernel = "reduce"
grid = [5]
block = [128]
[[param]]
buffer = "x"
[[param]]
buffer = "out"
[buffer.x]
type = "u32"
len = 640
init = { random = { seed = 3 } }
[buffer.out]
type = "u32"
len = 5
output = true
"#,
    );
    let x = words(&s.generate_buffers()["x"]);
    let cfg = ExecConfig { shared_symbols: vec![("sdata".into(), 512, 4)], ..ExecConfig::default() };
    let out = run_cfg(REDUCE, "reduce", &s, &cfg).unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<u32> = x.chunks(128).map(|c| c.iter().fold(0u32, |a, b| a.wrapping_add(*b))).collect();
    assert_eq!(words(out.get("out").unwrap()), want);
}

/// Integer and float operations, one output word each per thread.
const OPS: &str = "
entry @ops() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %rd1 = ld.u64 param[0]
    %rd2 = mul.wide.u32 %r0, 4
    %rd3 = add.u64 %rd1, %rd2
    %r4 = ld.u32 global[%rd3]
    %rd5 = ld.u64 param[8]
    %rd6 = mul.wide.u32 %r0, 32
    %rd7 = add.u64 %rd5, %rd6
    %r8 = shr.s32 %r4, 3
    %r9 = xor.b32 %r8, %r0
    st.u32 global[%rd7], %r9
    %r10 = div.s32 %r4, 7
    %r11 = rem.s32 %r4, 7
    %r12 = mad.lo.s32 %r10, 100, %r11
    st.u32 global[%rd7+4], %r12
    %r13 = popc.b32 %r4
    %r14 = clz.b32 %r4
    %r15 = mad.lo.u32 %r13, 64, %r14
    st.u32 global[%rd7+8], %r15
    %r16 = min.s32 %r4, %r9
    %r17 = max.u32 %r4, %r9
    %r18 = sub.u32 %r17, %r16
    st.u32 global[%rd7+12], %r18
    %r19 = cvt.rn.f32.s32 %r4
    %r20 = mul.rn.f32 %r19, 0f3FC00000
    %r21 = add.rn.f32 %r20, 0f40490FDB
    st.f32 global[%rd7+16], %r21
    %r22 = div.rn.f32 %r21, 0f40E00000
    st.f32 global[%rd7+20], %r22
    %p23 = setp.lt.f32 %r22, 0f00000000
    %r24 = selp.b32 0x11111111, %r4, %p23
    st.u32 global[%rd7+24], %r24
    %r25 = cvt.rzi.s32.f32 %r22
    st.u32 global[%rd7+28], %r25
    exit
}
";

#[test]
fn integer_and_float_ops() {
    let s = spec(
        r#"
kernel = "ops"
grid = [1]
block = [64]
[[param]]
buffer = "x"
[[param]]
buffer = "out"
[buffer.x]
type = "s32"
len = 64
init = { edge = { seed = 9 } }
[buffer.out]
type = "u32"
len = 512
output = true
"#,
    );
    let x: Vec<i32> = words(&s.generate_buffers()["x"]).into_iter().map(|v| v as i32).collect();
    let out = words(run(OPS, "ops", &s).get("out").unwrap());
    for (t, &a) in x.iter().enumerate() {
        let tid = t as i32;
        let r9 = (a >> 3) ^ tid;
        let (q, r) = (a.wrapping_div(7), a.wrapping_rem(7));
        let f = a as f32 * 1.5 + std::f32::consts::PI;
        let g = f / 7.0;
        let want = [
            r9 as u32,
            q.wrapping_mul(100).wrapping_add(r) as u32,
            (a as u32).count_ones() * 64 + (a as u32).leading_zeros(),
            (a as u32).max(r9 as u32).wrapping_sub(a.min(r9) as u32),
            f.to_bits(),
            g.to_bits(),
            if g < 0.0 { 0x1111_1111 } else { a as u32 },
            g.trunc() as i32 as u32,
        ];
        assert_eq!(&out[t * 8..t * 8 + 8], &want, "thread {t}, x = {a}");
    }
}

#[test]
fn out_of_bounds_load_faults_with_instruction_and_thread() {
    // Buffer y holds 1000 elements but n says 1010: thread 1000 stores past the end.
    let s = spec(&SAXPY_SPEC.replace("value = 1000", "value = 1010"));
    let e = run_ori(&parse_module(SAXPY).unwrap(), "saxpy", &s).unwrap_err();
    let ErrorKind::Fault(f) = e.kind else { panic!("{e}") };
    assert_eq!(f.kind, FaultKind::OutOfBounds);
    // The first faulting access is the load of x[1000] by thread 1000 = CTA 3, thread 232.
    let t = e.thread.unwrap();
    assert_eq!((t.cta, t.tid), ([3, 0, 0], [232, 0, 0]));
    assert_eq!(e.inst.as_deref(), Some("%r12 = ld.f32 global[%rd10]"));
    let msg = e.to_string();
    assert!(msg.contains("@saxpy") && msg.contains("thread (232,0,0) of CTA (3,0,0)"), "{msg}");
}

#[test]
fn out_of_bounds_store_is_reported() {
    let ir = "
entry @k() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %rd1 = ld.u64 param[0]
    %rd2 = mul.wide.u32 %r0, 4
    %rd3 = add.u64 %rd1, %rd2
    st.u32 global[%rd3+64], %r0
    exit
}
";
    let s = spec(
        "kernel = \"k\"\ngrid = [1]\nblock = [32]\n[[param]]\nbuffer = \"o\"\n[buffer.o]\ntype = \"u32\"\nlen = 32\noutput = true\n",
    );
    let e = run_ori(&parse_module(ir).unwrap(), "k", &s).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Fault(f) if f.kind == FaultKind::OutOfBounds && f.write));
    assert_eq!(e.thread.unwrap().tid, [16, 0, 0]);
    assert!(e.inst.unwrap().starts_with("st.u32 global["));
}

#[test]
fn misaligned_load_is_reported() {
    let ir = "
entry @k() {
bb0:
    %rd1 = ld.u64 param[0]
    %r2 = ld.u32 global[%rd1+2]
    exit
}
";
    let s = spec(
        "kernel = \"k\"\ngrid = [1]\nblock = [1]\n[[param]]\nbuffer = \"o\"\n[buffer.o]\ntype = \"u32\"\nlen = 4\n",
    );
    let e = run_ori(&parse_module(ir).unwrap(), "k", &s).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Fault(f) if f.kind == FaultKind::Misaligned), "{e}");
}

#[test]
fn infinite_loop_hits_the_step_limit() {
    let ir = "
entry @spin() {
bb0:
    %r0 = mov.u32 SR_TID.X
    bra bb1
bb1:
    %r0 = add.u32 %r0, 1
    bra bb1
}
";
    let s = spec("kernel = \"spin\"\ngrid = [1]\nblock = [64]\n");
    let cfg = ExecConfig { step_limit: 10_000, ..ExecConfig::default() };
    let e = run_cfg(ir, "spin", &s, &cfg).unwrap_err();
    assert_eq!(e.kind, ErrorKind::StepLimit(10_000));
    assert!(e.inst.is_some() && e.thread.is_some(), "{e}");
}

#[test]
fn barrier_deadlock_is_reported() {
    // Warp 0 waits at barrier 0, warp 1 at barrier 1.
    let ir = "
entry @dead() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %p1 = setp.lt.u32 %r0, 32
    @%p1 bra bb2
bb1:
    bar.sync 1
    exit
bb2:
    bar.sync 0
    exit
}
";
    let s = spec("kernel = \"dead\"\ngrid = [1]\nblock = [64]\n");
    let e = run_ori(&parse_module(ir).unwrap(), "dead", &s).unwrap_err();
    let ErrorKind::Deadlock(m) = &e.kind else { panic!("{e}") };
    assert!(m.contains("warp 0 at barrier 0") && m.contains("warp 1 at barrier 1"), "{m}");
}

#[test]
fn divergent_barrier_is_reported() {
    let ir = "
entry @k() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %p1 = setp.lt.u32 %r0, 16
    @%p1 bra bb2
bb1:
    exit
bb2:
    bar.sync 0
    exit
}
";
    // Lanes 16..31 exit, so lanes 0..15 are all the live lanes: no divergence.
    let s = spec("kernel = \"k\"\ngrid = [1]\nblock = [32]\n");
    run_ori(&parse_module(ir).unwrap(), "k", &s).unwrap();
    let ir2 = ir.replace("bb1:\n    exit", "bb1:\n    bra bb3\nbb3:\n    bar.sync 0\n    exit");
    let e = run_ori(&parse_module(&ir2).unwrap(), "k", &s).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::DivergentBarrier { .. }), "{e}");
}

#[test]
fn missing_kernel_is_an_error() {
    let s = spec("kernel = \"k\"\ngrid = [1]\nblock = [1]\n");
    let m = parse_module("entry @k() {\nbb0:\n    exit\n}\n").unwrap();
    assert!(matches!(run_ori(&m, "nope", &s).unwrap_err().kind, ErrorKind::NoKernel(_)));
    assert_eq!(run_ori(&m, "k", &s).unwrap().warp_steps, 1);
}

#[test]
fn ill_formed_ir_is_an_error_not_a_panic() {
    let s = spec("kernel = \"k\"\ngrid = [1]\nblock = [40]\n");
    let cfg = ExecConfig { verify: false, ..ExecConfig::default() };
    // No terminator: the verifier would reject it; unverified, the interpreter reports it.
    let e = run_cfg("entry @k() {\nbb0:\n    %r0 = mov.u32 SR_TID.X\n}\n", "k", &s, &cfg).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid(_)), "{e}");
    // A guarded exit at the end of the layout has no fall-through block.
    let ir = "entry @k() {\nbb0:\n    %r0 = mov.u32 SR_TID.X\n    %p1 = setp.lt.u32 %r0, 3\n    @%p1 exit\n}\n";
    let e = run_cfg(ir, "k", &s, &cfg).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid(_)), "{e}");
}

// ---- calls, warp operations, atomics, brx, module variables -------------------------------

fn out_spec(kernel: &str, block: u32, len: usize) -> LaunchSpec {
    out_spec_grid(kernel, 2, block, len)
}

fn out_spec_grid(kernel: &str, grid: u32, block: u32, len: usize) -> LaunchSpec {
    spec(&format!(
        r#"
kernel = "{kernel}"
grid = [{grid}]
block = [{block}]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = {len}
init = {{ ramp = {{ start = 1, step = 7 }} }}
output = true
"#
    ))
}

/// Divergent recursion with register arguments and results: `fact(tid % 10)`.
#[test]
fn recursive_calls_return_values_per_lane() {
    let ir = "
func @fact(%r0) -> (r32) {
bb0:
    %p1 = setp.le.u32 %r0, 1
    @%p1 bra bb2
bb1:
    %r2 = sub.u32 %r0, 1
    %r3 = call @fact, %r2
    %r4 = mul.lo.u32 %r0, %r3
    ret %r4
bb2:
    %r5 = mov.u32 1
    ret %r5
}

entry @k() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = rem.u32 %r0, 10
    %r2 = call @fact, %r1
    %rd3 = ld.u64 param[0]
    %rd4 = mul.wide.u32 %r0, 4
    %rd5 = add.u64 %rd3, %rd4
    st.u32 global[%rd5], %r2
    exit
}
";
    let out = run(ir, "k", &out_spec("k", 40, 40));
    let want: Vec<u32> = (0..40u32).map(|t| (1..=(t % 10).max(1)).product()).collect();
    assert_eq!(words(out.get("out").unwrap()), want);
}

/// A butterfly reduction with `shfl.bfly` and a `ballot`, on a warp with 16 lanes missing.
#[test]
fn shuffle_reduction_and_ballot() {
    let mut ir = String::from(
        "
entry @k() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %rd1 = ld.u64 param[0]
    %rd2 = mul.wide.u32 %r0, 8
    %rd3 = add.u64 %rd1, %rd2
    %r4 = ld.u32 global[%rd3]
    %r10 = mov.u32 %r4
",
    );
    for (k, d) in [16, 8, 4, 2, 1].iter().enumerate() {
        let (a, b) = (10 + 2 * k, 11 + 2 * k);
        ir += &format!("    %r{b}, %p{} = shfl.bfly.b32 %r{a}, {d}, 31, -1\n", 30 + k);
        ir += &format!("    %r{} = add.u32 %r{a}, %r{b}\n", a + 2);
    }
    ir += "    %p40 = setp.lt.u32 %r4, 400
    %r41 = ballot %p40, -1
    st.u32 global[%rd3], %r20
    st.u32 global[%rd3 + 4], %r41
    exit
}
";
    // 48 threads: warp 0 full, warp 1 with 16 live lanes (the shuffles of the missing lanes
    // read registers that were never written: 0).
    let spec = out_spec_grid("k", 1, 48, 96);
    let out = run(&ir, "k", &spec);
    let init: Vec<u32> = (0..96u32).map(|i| 1 + 7 * i).collect();
    let got = words(out.get("out").unwrap());
    for t in 0..48usize {
        let w = t / 32;
        let lanes = if w == 0 { 0..32 } else { 32..48 };
        let sum = lanes.clone().fold(0u32, |s, u| s.wrapping_add(init[2 * u]));
        let ballot = lanes.filter(|&u| init[2 * u] < 400).fold(0u32, |m, u| m | 1 << (u % 32));
        assert_eq!(got[2 * t], sum, "sum at {t}");
        assert_eq!(got[2 * t + 1], ballot, "ballot at {t}");
    }
}

/// `atom.add` on one counter gives every thread a distinct old value, in thread order
/// (lanes in order, warps in order, CTAs in order), and the final count.
#[test]
fn atomics_serialise_in_thread_order() {
    let ir = "
entry @k() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 SR_CTAID.X
    %r2 = mov.u32 SR_NTID.X
    %r3 = mad.lo.u32 %r1, %r2, %r0
    %rd4 = ld.u64 param[0]
    %r5 = atom.add.u32 global[%rd4], 1
    %r6 = atomcas.b32 global[%rd4 + 4], %r3, 0x1000
    %r8 = add.u32 %r3, 2
    %rd9 = mul.wide.u32 %r8, 4
    %rd10 = add.u64 %rd4, %rd9
    st.u32 global[%rd10], %r5
    exit
}
";
    let out = run(ir, "k", &out_spec("k", 40, 82));
    let got = words(out.get("out").unwrap());
    assert_eq!(got[0], 1 + 80, "final count");
    // The cas succeeds only for the thread whose index equals the word's initial value 8.
    assert_eq!(got[1], 0x1000);
    for t in 0..80u32 {
        assert_eq!(got[t as usize + 2], 1 + t, "old value of thread {t}");
    }
}

/// `brx` sends lanes to three targets; they reconverge with the full mask.
#[test]
fn indexed_branch_diverges_and_reconverges() {
    let ir = "
entry @k() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = rem.u32 %r0, 3
    %rd2 = ld.u64 param[0]
    %rd3 = mul.wide.u32 %r0, 8
    %rd4 = add.u64 %rd2, %rd3
    brx %r1, bb1, bb2, bb3
bb1:
    %r5 = mov.u32 100
    bra bb4
bb2:
    %r5 = mov.u32 200
    bra bb4
bb3:
    %r5 = mov.u32 300
    bra bb4
bb4:
    %r6 = activemask
    %r7 = add.u32 %r5, %r0
    st.u32 global[%rd4], %r7
    st.u32 global[%rd4 + 4], %r6
    exit
}
";
    let out = run(ir, "k", &out_spec("k", 48, 96));
    let got = words(out.get("out").unwrap());
    for t in 0..48u32 {
        assert_eq!(got[2 * t as usize], 100 * (t % 3 + 1) + t);
        assert_eq!(got[2 * t as usize + 1], if t < 32 { u32::MAX } else { 0xFFFF });
    }
}

/// Module variables: an initialised const table, an initialised global, a shared scratch.
#[test]
fn module_variables_in_const_global_and_shared_space() {
    let ir = "
var const $tab 16 4 0x01000000020000000300000004000000
var global $g 4 4 0x07
var shared $s 256 4

entry @k() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = and.b32 %r0, 3
    %r2 = shl.b32 %r1, 2
    %r3 = ld.u32 const[$tab + %r2]
    %r4 = ld.u32 global[$g]
    %r5 = add.u32 %r3, %r4
    %r6 = shl.b32 %r0, 2
    st.u32 shared[$s + %r6], %r5
    bar.sync 0
    %r7 = xor.b32 %r0, 1
    %r8 = shl.b32 %r7, 2
    %r9 = ld.u32 shared[$s + %r8]
    %rd10 = ld.u64 param[0]
    %rd11 = mul.wide.u32 %r0, 4
    %rd12 = add.u64 %rd10, %rd11
    st.u32 global[%rd12], %r9
    exit
}
";
    let m = parse_module(ir).unwrap();
    assert_eq!(parse_module(&m.to_string()).unwrap(), m, "module variables round-trip");
    let out = run(ir, "k", &out_spec("k", 40, 40));
    let want: Vec<u32> = (0..40u32).map(|t| ((t ^ 1) & 3) + 1 + 7).collect();
    assert_eq!(words(out.get("out").unwrap()), want);
}

/// An mbarrier handing data from warp 1 to warp 0 of a CTA: warp 0 spins on
/// `mbarrier.try_wait.parity` before warp 1 has run, so the spin must yield to warp 1 (without
/// that the run ends at the step limit). `count` is the barrier's expected arrival count.
fn mbarrier_handoff(count: u32) -> Result<Outputs, ExecError> {
    let ptx = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry mb(.param .u64 out) {{\n\
         .reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n.reg .pred %p<4>;\n\
         .shared .align 8 .b64 bar;\n.shared .align 4 .b8 s[128];\n\
         mov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra L1;\n\
         mbarrier.init.shared.b64 [bar], {count};\n\
         L1:\nbar.sync 0;\nsetp.lt.u32 %p2, %r1, 32;\n@%p2 bra WAIT;\n\
         sub.u32 %r2, %r1, 32;\nmul.lo.u32 %r3, %r1, 3;\nshl.b32 %r4, %r2, 2;\nmov.u32 %r5, s;\n\
         add.u32 %r6, %r5, %r4;\nst.shared.u32 [%r6], %r3;\nmbarrier.arrive.shared.b64 %rd1, [bar];\nexit;\n\
         WAIT:\nmbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;\n@!%p3 bra WAIT;\n\
         shl.b32 %r7, %r1, 2;\nmov.u32 %r8, s;\nadd.u32 %r9, %r8, %r7;\nld.shared.u32 %r10, [%r9];\n\
         ld.param.u64 %rd2, [out];\ncvta.to.global.u64 %rd3, %rd2;\nmul.wide.u32 %rd4, %r1, 4;\n\
         add.s64 %rd5, %rd3, %rd4;\nst.global.u32 [%rd5], %r10;\nexit;\n}}\n"
    );
    let m = ptxas_rs::lower::lower_source(&ptx).unwrap_or_else(|e| panic!("lower: {e}"));
    let s = spec(
        "kernel = \"mb\"\ngrid = [1]\nblock = [64]\n[[param]]\nbuffer = \"out\"\n\
         [buffer.out]\ntype = \"u32\"\nlen = 32\noutput = true\n",
    );
    let cfg = ExecConfig { step_limit: 100_000, ..ExecConfig::default() };
    run_ori_with(&m, "mb", &s, &cfg)
}

#[test]
fn mbarrier_wait_yields_to_the_arriving_warp() {
    let out = mbarrier_handoff(32).unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<u32> = (0..32).map(|i| (i + 32) * 3).collect();
    assert_eq!(words(out.get("out").unwrap()), want);
    // A phase expecting one arrival more never completes: the spin ends at the step limit.
    let e = mbarrier_handoff(33).unwrap_err();
    assert_eq!(e.kind, ErrorKind::StepLimit(100_000), "{e}");
}
