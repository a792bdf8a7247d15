//! Translation validation of the implemented phases on hand-written Ori kernels that exercise
//! each pass: the interpreter's results are equal before and after every phase of the full
//! 159-phase pipeline at -O0..-O3, the verifier accepts every phase's output, each
//! implemented transform changes something on these kernels (counted), and deliberately
//! broken passes are caught and named with an IR diff.

use std::sync::Arc;

use interp::launch::LaunchSpec;
use interp::validate::{FailureKind, ValidateOptions, Validation, validate};
use interp::{ExecConfig, run_ori_with};
use ptxas_rs::opt::create_macro::OriCreateMacroInsts;
use ptxas_rs::opt::{PHASES, Pass, PassError, PassKind, Pipeline, PipelineOptions, Status};
use ptxas_rs::ori::{Flag, Function, Module, Opcode, Operand, Ty, parse_module};

fn spec(text: &str) -> LaunchSpec {
    LaunchSpec::from_toml_str(text).unwrap_or_else(|e| panic!("spec: {e}"))
}

fn module(text: &str) -> Module {
    parse_module(text).unwrap_or_else(|e| panic!("parse: {e:?}"))
}

/// Constants, copies, a constant branch, a select on a constant, dead code, branch chains.
const FOLD: &str = "
entry @fold() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %rd1 = ld.u64 param[0]
    %rd2 = mul.wide.u32 %r0, 32
    %rd3 = add.u64 %rd1, %rd2
    %r4 = mov.u32 7
    %r5 = mov.u32 %r0
    %r6 = add.u32 %r4, 5
    %r7 = mul.lo.u32 %r5, %r6
    %p8 = setp.lt.u32 %r4, 3
    %r9 = selp.b32 %r7, %r6, %p8
    %r10 = xor.b32 %r7, 0xdeadbeef
    %r11 = mov.u32 %r0
    %r0 = add.u32 %r0, 1
    %r12 = add.u32 %r11, %r0
    %r13 = cvt.rn.f32.u32 %r6
    %r14 = mul.rn.f32 %r13, 0f3FC00000
    %r15 = cvt.rzi.u32.f32 %r14
    %r16 = add.u32 %r0, 3
    %r17 = mul.lo.u32 %r0, 5
    %r17 = add.u32 %r0, 9
    @%p8 bra bb3
bb1:
    bra bb2
bb2:
    st.u32 global[%rd3], %r7
    st.u32 global[%rd3+4], %r9
    st.u32 global[%rd3+8], %r12
    st.u32 global[%rd3+12], %r15
    st.u32 global[%rd3+16], %r17
    bra bb4
bb3:
    st.u32 global[%rd3], %r10
    bra bb4
bb4:
    bra bb5
bb5:
    exit
}
";

const FOLD_SPEC: &str = r#"
kernel = "fold"
grid = [2]
block = [64]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 512
output = true
"#;

/// SSA with phis, a loop with a data-dependent trip count, trampolines and a dead phi.
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
    %r20 = mov.u32 %r7
    %p8 = setp.eq.u32 %r20, 0
    @%p8 bra bb3
bb1:
    bra bb2
bb2:
    %r9 = phi RZ, bb1, %r12, bb2
    %r10 = phi RZ, bb1, %r13, bb2
    %r21 = phi RZ, bb1, %r22, bb2
    %r11 = mad.lo.u32 %r9, 3, 1
    %r12 = add.u32 %r9, 1
    %r13 = add.u32 %r10, %r11
    %r22 = add.u32 %r21, %r11
    %p14 = setp.lt.u32 %r12, %r20
    @%p14 bra bb2
bb4:
    bra bb6
bb6:
    bra bb3
bb3:
    %r15 = phi RZ, bb0, %r13, bb6
    %rd16 = ld.u64 param[8]
    %rd17 = add.u64 %rd16, %rd5
    st.u32 global[%rd17], %r15
    exit
}
";

const LOOP_SPEC: &str = r#"
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
"#;

/// Divergent control flow, non-SSA merges, an unreachable block, guarded dead code.
const DIVERGE: &str = "
entry @diverge() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 SR_CTAID.X
    %r2 = mov.u32 SR_NTID.X
    %r3 = mad.lo.u32 %r1, %r2, %r0
    %r4 = rem.u32 %r3, 3
    %p5 = setp.ne.u32 %r4, 0
    %r30 = mov.u32 %r3
    @%p5 bra bb2
bb1:
    %r6 = mul.lo.u32 %r30, %r30
    %r31 = add.u32 %r6, 99
    bra bb5
bb2:
    %r7 = and.b32 %r30, 4
    %p8 = setp.eq.u32 %r7, 0
    @%p8 bra bb4
bb3:
    %r6 = xor.b32 %r3, 0x55
    bra bb6
bb9:
    %r6 = add.u32 %r6, 1000
    bra bb6
bb4:
    %r6 = add.u32 %r3, 7
    @%p8 bra bb6
bb8:
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

const DIVERGE_SPEC: &str = r#"
kernel = "diverge"
grid = [2]
block = [96]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 192
output = true
"#;

/// Two exit blocks ending in the same store and `exit` (MergeEquivalentConditionalFlow's
/// case), and a dead value.
const TAILS: &str = "
entry @tails() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 SR_CTAID.X
    %r2 = mov.u32 SR_NTID.X
    %r3 = mad.lo.u32 %r1, %r2, %r0
    %r9 = add.u32 %r3, 5
    %rd10 = ld.u64 param[0]
    %rd11 = mul.wide.u32 %r3, 4
    %rd12 = add.u64 %rd10, %rd11
    %r4 = and.b32 %r3, 1
    %p5 = setp.eq.u32 %r4, 0
    @%p5 bra bb2
bb1:
    %r6 = mul.lo.u32 %r3, 3
    st.u32 global[%rd12], %r6
    exit
bb2:
    %r6 = add.u32 %r3, 11
    st.u32 global[%rd12], %r6
    exit
}
";

const TAILS_SPEC: &str = r#"
kernel = "tails"
grid = [2]
block = [64]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 128
output = true
"#;

/// Shared-memory atomics without an `ATOMS` form (ConvertUnsupportedOps' compare-and-swap
/// loops): f16, bf16, f32, f64 and f16x2 add (the 16-bit ones in their 32-bit word), 64-bit
/// add, signed max and unsigned min, and a guarded 64-bit xor; one warp per CTA, so
/// the lane order of the float additions is the same before and after. The store of the thread
/// index is the first store (the sabotage case moves it).
const SATOM: &str = "
entry @satom() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %rd1 = ld.u64 param[0]
    %rd2 = mul.wide.u32 %r0, 64
    %rd3 = add.u64 %rd1, %rd2
    %r13 = mov.u32 %r0
    st.u32 global[%rd3], %r13
    %r4 = cvt.rn.f32.u32 %r0
    %r4 = mul.rn.f32 %r4, 0f3DCCCCCD
    %r5 = atom.add.f32 shared[$sm], %r4
    st.u32 global[%rd3+4], %r5
    %rd6 = cvt.u64.u32 %r0
    %rd7 = mul.lo.u64 %rd6, 0x100000001
    %rd8 = atom.add.u64 shared[$sm+8], %rd7
    %rd14 = sub.s64 0, %rd7
    %rd9 = atom.max.s64 shared[$sm+16], %rd14
    %rd12 = mov.b64 7
    %r10 = and.b32 %r0, 1
    %p11 = setp.eq.u32 %r10, 0
    @%p11 %rd12 = atom.xor.b64 shared[$sm+24], %rd7
    st.u64 global[%rd3+8], %rd8
    st.u64 global[%rd3+16], %rd9
    st.u64 global[%rd3+24], %rd12
    %rd15 = cvt.rn.f64.u32 %r0
    %rd16 = atom.add.f64 shared[$sm+32], %rd15
    %r17 = mov.b32 0x3c003800
    %r18 = atom.add.f16x2 shared[$sm+40], %r17
    %rd19 = atom.min.u64 shared[$sm+48], %rd14
    st.u64 global[%rd3+32], %rd16
    st.u32 global[%rd3+40], %r18
    st.u64 global[%rd3+48], %rd19
    %r22 = cvt.rn.f16.f32 %r4
    %r20 = atom.add.rn.f16 shared[$sm+56], %r22
    %r21 = atom.add.rn.bf16 shared[$sm+62], %r22
    st.u16 global[%rd3+56], %r20
    st.u16 global[%rd3+58], %r21
    exit
}
";

const SATOM_SPEC: &str = r#"
kernel = "satom"
grid = [1]
block = [32]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 512
output = true
"#;

/// Shared memory, barriers, and a guarded exit.
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
    @%p16 bra bb7
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
bb7:
    bra bb1
}
";

const REDUCE_SPEC: &str = r#"
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
"#;

/// SASS stage, with uniform registers: folding must keep uniform results on the uniform
/// datapath (UMOV) and SASS moves (MOV).
const SASS: &str = "
entry @sk() sass {
bb0:
    %r0 = S2R SR_TID.X
    %ur1 = UMOV 0x5
    %ur2 = UIADD3 %ur1, 0x3, URZ
    %ur10 = UMOV %ur2
    %ur11 = ULOP3 %ur10, 0xff, URZ, 0xc0
    %rd4 = LDC.U64 c[0x0][0x210]
    %rd6 = IMAD.WIDE.U32 %r0, 0x4, %rd4
    %r8 = MOV 0x7
    %r12 = MOV %r8
    %r7 = IADD3 %r0, %r12, RZ
    %r9 = LOP3 %r12, %r7, RZ, 0xfc
    %p13, %p14 = ISETP.LT.U32.AND %r8, 0x3, PT
    @%p13 BRA bb2
bb1:
    %r15 = SEL %r9, %r0, %p14
    %r16 = IADD3 %r15, %ur11, RZ
    STG.U32 global[%rd6], %r16
    EXIT
bb2:
    STG.U32 global[%rd6], %r0
    EXIT
}
";

const SASS_SPEC: &str = r#"
kernel = "sk"
grid = [1]
block = [64]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 64
output = true
"#;

/// Floating-point contraction (OriCreateMacroInsts): fusible `mul` + `add`/`sub` pairs of
/// f32 (`t - p`, `c - t`, a product read by two adds, `.ftz` with `.sat`), f64 (`1 - a*a`),
/// f16x2 and bf16, and pairs that must stay (a `sub.rn`, a stored product). `t - p` with `p`
/// the rounded product is the product's rounding error when fused and 0 when not, so the
/// results differ between fused and unfused evaluation. The first store is the thread index's
/// (the sabotage case moves it).
const CONTRACT: &str = "
entry @contract() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %rd1 = ld.u64 param[0]
    %rd2 = mul.wide.u32 %r0, 64
    %rd3 = add.u64 %rd1, %rd2
    st.u32 global[%rd3+60], %r0
    %r4 = cvt.rn.f32.u32 %r0
    %r5 = mul.rn.f32 %r4, 0f3DCCCCCD
    %r6 = add.rn.f32 %r5, 0f3F9E0419
    %r7 = mul.rn.f32 %r5, %r6
    %r8 = mul.f32 %r5, %r6
    %r9 = sub.f32 %r8, %r7
    st.u32 global[%rd3], %r9
    %r10 = mul.f32 %r6, %r6
    %r11 = add.f32 %r10, %r5
    %r12 = sub.f32 %r7, %r10
    st.u32 global[%rd3+4], %r11
    st.u32 global[%rd3+8], %r12
    %r13 = mul.f32 %r5, %r6
    %r14 = sub.rn.f32 %r13, %r7
    st.u32 global[%rd3+12], %r14
    %r15 = mul.f32 %r6, %r5
    %r16 = sub.f32 %r15, %r7
    st.u32 global[%rd3+16], %r15
    st.u32 global[%rd3+20], %r16
    %r17 = mul.ftz.f32 %r5, 0f3E000000
    %r18 = add.ftz.sat.f32 %r17, 0f3E4CCCCD
    st.u32 global[%rd3+24], %r18
    %rd19 = cvt.f64.f32 %r6
    %rd20 = mul.f64 %rd19, %rd19
    %rd21 = sub.f64 0d4000000000000000, %rd20
    st.u64 global[%rd3+32], %rd21
    %r22 = cvt.rn.f16.f32 %r6
    %r23 = and.b32 %r22, 0xffff
    %r24 = shl.b32 %r23, 16
    %r25 = or.b32 %r24, %r23
    %r26 = mul.f16x2 %r25, %r25
    %r27 = sub.f16x2 %r26, 0x3c003800
    st.u32 global[%rd3+40], %r27
    %r28 = cvt.rn.bf16.f32 %r6
    %r29 = mul.bf16 %r28, %r28
    %r30 = add.bf16 %r29, %r28
    st.u16 global[%rd3+44], %r30
    exit
}
";

/// The reserved shared-memory special registers (ReplaceUniformsWithImm folds begin, cap and
/// offset 0 on sm_90; end and offset 1 stay driver reads); the thread's slot is computed from
/// the constants ((cap >> 10) - 1 + begin + offset_0 = 0); `%r9` is dead.
const RSMEM: &str = "
entry @rsmem() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %rd10 = ld.u64 param[0]
    %r1 = mov.u32 SR_RESERVED_SMEM_OFFSET_BEGIN
    %r2 = mov.u32 SR_RESERVED_SMEM_OFFSET_CAP
    %r3 = mov.u32 SR_RESERVED_SMEM_OFFSET_0
    %r4 = mov.u32 SR_RESERVED_SMEM_OFFSET_END
    %r5 = mov.u32 SR_RESERVED_SMEM_OFFSET_1
    %r6 = shr.u32 %r2, 10
    %r7 = add.u32 %r6, %r1
    %r7 = add.u32 %r7, %r3
    %r7 = sub.u32 %r7, 1
    %r8 = mul.lo.u32 %r0, 5
    %r8 = add.u32 %r8, %r7
    %r9 = add.u32 %r5, %r4
    %rd12 = mul.wide.u32 %r8, 4
    %rd13 = add.u64 %rd10, %rd12
    st.u32 global[%rd13], %r0
    st.u32 global[%rd13+4], %r2
    st.u32 global[%rd13+8], %r4
    st.u32 global[%rd13+12], %r5
    st.u32 global[%rd13+16], %r1
    exit
}
";

const CONTRACT_SPEC: &str = r#"
kernel = "contract"
grid = [1]
block = [32]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 512
output = true
"#;

const RSMEM_SPEC: &str = r#"
kernel = "rsmem"
grid = [2]
block = [64]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 320
output = true
"#;

/// Algebraic identities on runtime values (operands of 0, 1 and all-ones, some through
/// constant moves), look-alikes that are not identities (`-0.0 + 0.0`, `mul.hi`), dead code.
const ALG: &str = "
entry @alg() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %rd1 = ld.u64 param[0]
    %rd2 = mul.wide.u32 %r0, 32
    %rd3 = add.u64 %rd1, %rd2
    %r4 = mov.u32 0
    %r5 = mov.u32 0xffffffff
    %r6 = add.u32 %r0, %r4
    %r7 = mul.lo.u32 %r6, 1
    %r8 = and.b32 %r7, %r5
    %r9 = or.b32 %r8, %r4
    %r10 = xor.b32 %r9, 0
    %r11 = shl.b32 %r10, %r4
    %r12 = shr.s32 %r11, 0
    %r13 = sub.u32 %r12, %r12
    %r14 = or.b32 %r0, 0xffffffff
    %p15 = setp.ge.u32 %r0, %r4
    %r16 = selp.b32 %r12, 5, %p15
    %r17 = shl.b32 %r0, 31
    %r18 = add.f32 %r17, 0f00000000
    %r19 = mul.hi.u32 %r0, 1
    %r20 = add.u32 %r19, 0
    %rd21 = add.u64 %rd2, 0
    %r22 = add.u32 %r0, 7
    st.u32 global[%rd3], %r12
    st.u32 global[%rd3+4], %r13
    st.u32 global[%rd3+8], %r14
    st.u32 global[%rd3+12], %r16
    st.u32 global[%rd3+16], %r18
    st.u32 global[%rd3+20], %r20
    st.u64 global[%rd3+24], %rd21
    exit
}
";

const ALG_SPEC: &str = r#"
kernel = "alg"
grid = [1]
block = [64]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 512
output = true
"#;

struct Kernel {
    ir: &'static str,
    name: &'static str,
    spec: &'static str,
    exec: ExecConfig,
}

fn kernels() -> Vec<Kernel> {
    let shared = ExecConfig { shared_symbols: vec![("sdata".into(), 512, 4)], ..ExecConfig::default() };
    let satom = ExecConfig { shared_symbols: vec![("sm".into(), 64, 8)], ..ExecConfig::default() };
    vec![
        Kernel { ir: FOLD, name: "fold", spec: FOLD_SPEC, exec: ExecConfig::default() },
        Kernel { ir: LOOP, name: "tri", spec: LOOP_SPEC, exec: ExecConfig::default() },
        Kernel { ir: DIVERGE, name: "diverge", spec: DIVERGE_SPEC, exec: ExecConfig::default() },
        Kernel { ir: REDUCE, name: "reduce", spec: REDUCE_SPEC, exec: shared },
        Kernel { ir: SASS, name: "sk", spec: SASS_SPEC, exec: ExecConfig::default() },
        Kernel { ir: TAILS, name: "tails", spec: TAILS_SPEC, exec: ExecConfig::default() },
        Kernel { ir: SATOM, name: "satom", spec: SATOM_SPEC, exec: satom },
        Kernel { ir: CONTRACT, name: "contract", spec: CONTRACT_SPEC, exec: ExecConfig::default() },
        Kernel { ir: RSMEM, name: "rsmem", spec: RSMEM_SPEC, exec: ExecConfig::default() },
        Kernel { ir: ALG, name: "alg", spec: ALG_SPEC, exec: ExecConfig::default() },
    ]
}

fn run_validation(k: &Kernel, pipeline: &Pipeline, level: u8) -> Validation {
    let opts = ValidateOptions {
        pipeline: PipelineOptions { opt_level: level, verify: true, ..PipelineOptions::default() },
        exec: k.exec.clone(),
    };
    validate(&module(k.ir), k.name, &spec(k.spec), pipeline, &opts).unwrap_or_else(|e| panic!("{}: {e}", k.name))
}

#[test]
fn full_pipeline_preserves_results_at_every_level() {
    let pipeline = Pipeline::standard();
    for k in kernels() {
        for level in 0..=3 {
            let v = run_validation(&k, &pipeline, level);
            if let Some(f) = &v.failure {
                panic!("{} at -O{level}: {f}", k.name);
            }
            let admitted = PHASES.iter().filter(|p| p.gate.runs_at(level)).count();
            assert_eq!(v.checks.len(), admitted, "{} -O{level}", k.name);
            // At -O1 and up the optimised kernel has fewer instructions than the input with
            // its unsupported operations converted (ConvertUnsupportedOps expands, by design).
            let mut converted = module(k.ir);
            Pipeline::only(&["ConvertUnsupportedOps"])
                .unwrap()
                .run(&mut converted, &PipelineOptions::default(), &mut [])
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
            let before = ptxas_rs::opt::util::inst_count(converted.function(k.name).unwrap());
            let after = ptxas_rs::opt::util::inst_count(v.module.function(k.name).unwrap());
            if level >= 1 {
                assert!(v.changed() > 0, "{} at -O{level}: the pipeline changed nothing", k.name);
                assert!(after < before, "{} -O{level}: {before} -> {after} instructions", k.name);
            }
            // The same results as the input, with phase 9's contractions undone.
            let unfused = ExecConfig { unfuse_contracted: true, ..k.exec.clone() };
            let out = run_ori_with(&v.module, k.name, &spec(k.spec), &unfused).unwrap();
            assert_eq!(out.buffers, v.reference);
        }
    }
}

/// Each implemented transform slot, run alone, changes each kernel listed for it (the repeated
/// slots marked not-yet in the table run the same passes; see `Status::NotYet`) (counts pinned
/// as lower bounds) and preserves its results.
#[test]
fn each_implemented_transform_changes_something() {
    let ks = kernels();
    let by_name = |n: &str| ks.iter().find(|k| k.name == n).unwrap();
    let cases: &[(&str, &str, usize)] = &[
        ("EarlyOriSimpleLiveDead", "fold", 1),
        ("GeneralOptimizeEarly", "fold", 8),
        ("GeneralOptimizeEarly", "sk", 8),
        ("GeneralOptimizeEarly", "diverge", 1),
        ("GeneralOptimizeEarly", "tri", 1),
        ("GeneralOptimizeEarly", "alg", 24),
        ("OriCopyProp", "fold", 2),
        ("OriCopyProp", "tri", 2),
        ("OriBranchOpt", "fold", 3),
        ("OriBranchOpt", "diverge", 2),
        ("OriBranchOpt", "tri", 1),
        ("OriPerformLiveDeadFirst", "fold", 1),
        ("OriPerformLiveDeadSecond", "tri", 2),
        ("OriPerformLiveDeadSecond", "diverge", 1),
        ("OriPerformLiveDeadSecond", "fold", 1),
        ("MergeEquivalentConditionalFlow", "tails", 1),
        ("ConvertUnsupportedOps", "satom", 9),
        ("OriCreateMacroInsts", "contract", 11),
        ("ReplaceUniformsWithImm", "rsmem", 3),
    ];
    for &(phase, kernel, min) in cases {
        let k = by_name(kernel);
        let p = Pipeline::only(&[phase]).unwrap();
        let v = run_validation(k, &p, 3);
        if let Some(f) = &v.failure {
            panic!("{phase} on {kernel}: {f}");
        }
        let n = v.changed();
        eprintln!("{phase} on {kernel}: {n} changes");
        assert!(n >= min, "{phase} on {kernel}: {n} changes, expected at least {min}");
    }
    // Every implemented transform of the table appears above.
    for p in PHASES.iter() {
        if let Status::Implemented(pass) = p.status
            && pass.kind() == PassKind::Transform
            && p.name != "SetControlFlowOpLastInBB"
        {
            assert!(cases.iter().any(|c| c.0 == p.name), "{} has no change-count case", p.name);
        }
    }
}

/// Turns the first `add.u32` into `sub.u32`: wrong, but well-formed.
struct WrongArith;

impl Pass for WrongArith {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        for (_, i) in f.inst_order().collect::<Vec<_>>() {
            if f.insts[i].opcode == Opcode::Add && f.insts[i].mods.ty == Some(Ty::U32) {
                f.insts[i].opcode = Opcode::Sub;
                return Ok(1);
            }
        }
        Ok(0)
    }
}

/// Drops the last instruction of the entry block: ill-formed.
struct DropTerminator;

impl Pass for DropTerminator {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let e = f.entry().unwrap();
        f.blocks[e].insts.pop();
        Ok(1)
    }
}

#[test]
fn a_broken_pass_is_caught_and_named_with_a_diff() {
    let k = &kernels()[0];
    let p = Pipeline::standard().with_pass("OriLoopSimplification", Arc::new(WrongArith)).unwrap();
    let v = run_validation(k, &p, 3);
    let f = v.failure.expect("the broken pass must be caught");
    assert_eq!(f.phase, "OriLoopSimplification");
    assert_eq!(f.index, Some(20));
    assert!(matches!(f.kind, FailureKind::OutputsDiffer { .. }), "{f}");
    assert!(f.ir_diff.contains("-    ") && f.ir_diff.contains("+    ") && f.ir_diff.contains("sub."), "{}", f.ir_diff);
    // The phases before it were checked and passed.
    assert_eq!(v.checks.last().unwrap().name, "OriLoopSimplification");
    let text = f.to_string();
    assert!(text.contains("phase 20 OriLoopSimplification: results differ"), "{text}");

    let p = Pipeline::standard().with_pass("OriStrengthReduce", Arc::new(DropTerminator)).unwrap();
    let v = run_validation(k, &p, 3);
    let f = v.failure.expect("ill-formed output must be caught");
    assert_eq!(f.phase, "OriStrengthReduce");
    assert!(matches!(&f.kind, FailureKind::Pipeline(m) if m.contains("verifier")), "{f}");
    assert!(f.ir_diff.contains("-    @%p8 bra bb3") || f.ir_diff.contains("-    "), "{}", f.ir_diff);
}

/// Runs the real pass, then, if it changed anything, moves the first store 4 bytes on.
struct Sabotaged(&'static dyn Pass);

impl Pass for Sabotaged {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let n = self.0.run_function(f)?;
        if n > 0 {
            for (_, i) in f.inst_order().collect::<Vec<_>>() {
                if f.insts[i].opcode == Opcode::St
                    && let Some(ptxas_rs::ori::Operand::Mem(m)) = f.insts[i].srcs.first_mut()
                {
                    m.offset += 4;
                    break;
                }
            }
        }
        Ok(n)
    }
}

/// Every implemented transform, sabotaged in its own slot of the full pipeline, is caught
/// there: the failure names that phase and shows the diff.
#[test]
fn each_sabotaged_transform_is_caught_in_its_slot() {
    let ks = kernels();
    for p in PHASES.iter() {
        let Status::Implemented(pass) = p.status else { continue };
        if pass.kind() != PassKind::Transform || p.name == "SetControlFlowOpLastInBB" {
            continue;
        }
        // A kernel and level at which this slot changes something (at -O3 the earlier
        // GeneralOptimize leaves OriCopyProp nothing; at -O1 it does not run).
        let mut caught = false;
        for (k, level) in ks.iter().flat_map(|k| [3u8, 1].map(|l| (k, l))) {
            let pipeline = Pipeline::standard().with_pass(p.name, Arc::new(Sabotaged(pass))).unwrap();
            let v = run_validation(k, &pipeline, level);
            let Some(f) = v.failure else { continue };
            assert_eq!(f.phase, p.name, "{} -O{level}: {f}", k.name);
            assert_eq!(f.index, Some(p.index));
            assert!(f.ir_diff.contains("+    st.u32 global["), "{}", f.ir_diff);
            caught = true;
            break;
        }
        if !caught {
            // Nothing in front of this slot leaves it work on these kernels yet (the later
            // GeneralOptimize bundles follow phases that are not implemented); alone, the
            // sabotaged pass must still be caught.
            for k in &ks {
                let pipeline = Pipeline::only(&[p.name]).unwrap().with_pass(p.name, Arc::new(Sabotaged(pass))).unwrap();
                if let Some(f) = run_validation(k, &pipeline, 3).failure {
                    assert_eq!(f.phase, p.name);
                    eprintln!("{}: caught when run alone", p.name);
                    caught = true;
                    break;
                }
            }
        }
        assert!(caught, "{}: changed nothing on any kernel", p.name);
    }
}

#[test]
#[ignore]
fn show_o3() {
    for k in kernels() {
        let v = run_validation(&k, &Pipeline::standard(), 3);
        println!("{}", v.module);
    }
}

/// Runs phase 9 (as at -O3), then `sabotage` on its output when it contracted something.
struct SabotagedContraction(fn(&mut Function));

impl Pass for SabotagedContraction {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let n = OriCreateMacroInsts.run_function(f)?;
        if n > 0 {
            (self.0)(f);
        }
        Ok(n)
    }
}

/// The contracted `fma`s of `f`.
fn contracted_fmas(f: &Function) -> Vec<ptxas_rs::ori::Inst> {
    f.inst_order().map(|(_, i)| i).filter(|&i| f.insts[i].mods.has(Flag::Contract)).collect()
}

/// Phase 9 contracts the fusible pairs of `contract`, its output with contraction undone has
/// the input's results bit for bit, and with contraction on (FFMA's results) it differs from
/// them: the check is contraction-aware, not blind.
#[test]
fn contraction_is_validated_with_contraction_undone() {
    let k = kernels().into_iter().find(|k| k.name == "contract").unwrap();
    let v = run_validation(&k, &Pipeline::only(&["OriCreateMacroInsts"]).unwrap(), 3);
    if let Some(f) = &v.failure {
        panic!("{f}");
    }
    let f = v.module.function("contract").unwrap();
    assert_eq!(contracted_fmas(f).len(), 7, "{f}");
    let fused = run_ori_with(&v.module, k.name, &spec(k.spec), &k.exec).unwrap();
    assert_ne!(fused.buffers, v.reference, "fusion changes no result: the kernel tests nothing");
    // Not at -O0, nor with --fmad false.
    for opts in [
        PipelineOptions { opt_level: 0, ..PipelineOptions::default() },
        PipelineOptions { fmad: false, ..PipelineOptions::default() },
    ] {
        let mut m = module(k.ir);
        let r = Pipeline::only(&["OriCreateMacroInsts"]).unwrap().run(&mut m, &opts, &mut []).unwrap();
        assert_eq!(r.total_changed(), 0, "{opts:?}");
        assert_eq!(m, module(k.ir));
    }
}

/// Wrong contractions are caught in phase 9's slot of the full pipeline: dropping the negation
/// of a `sub` (the values differ with contraction undone), contracting pairs with a rounding
/// modifier (the same values, but fewer explicitly rounded operations), and a fusion that
/// is not flagged as a contraction (compared with contraction on, it differs).
#[test]
fn wrong_contractions_are_caught() {
    let k = kernels().into_iter().find(|k| k.name == "contract").unwrap();
    let drop_negation: fn(&mut Function) = |f| {
        for i in contracted_fmas(f) {
            for o in &mut f.insts[i].srcs {
                if let Operand::Reg(u) = o
                    && u.neg
                {
                    u.neg = false;
                    return;
                }
            }
        }
    };
    let ignore_rounding: fn(&mut Function) = |f| {
        // Contract the `mul` + `sub.rn` pair too, as if the rounding were not there.
        for (_, i) in f.inst_order().collect::<Vec<_>>() {
            let d = &mut f.insts[i];
            if matches!(d.opcode, Opcode::Mul | Opcode::Add | Opcode::Sub) && d.mods.ty == Some(Ty::F32) {
                d.mods.rnd = None;
            }
        }
        OriCreateMacroInsts.run_function(f).unwrap();
    };
    let unflagged: fn(&mut Function) = |f| {
        for i in contracted_fmas(f) {
            f.insts[i].mods.flags.retain(|&x| x != Flag::Contract);
        }
    };
    type Case = (fn(&mut Function), fn(&FailureKind) -> bool);
    let cases: [Case; 3] = [
        (drop_negation, |k| matches!(k, FailureKind::ContractionDiffers { .. })),
        (ignore_rounding, |k| matches!(k, FailureKind::RoundedContracted { .. })),
        (unflagged, |k| matches!(k, FailureKind::OutputsDiffer { .. })),
    ];
    for (sabotage, expected) in cases {
        let p =
            Pipeline::standard().with_pass("OriCreateMacroInsts", Arc::new(SabotagedContraction(sabotage))).unwrap();
        let v = run_validation(&k, &p, 3);
        let f = v.failure.expect("the wrong contraction must be caught");
        assert_eq!((f.phase.as_str(), f.index), ("OriCreateMacroInsts", Some(9)), "{f}");
        assert!(expected(&f.kind), "{f}");
        assert!(f.ir_diff.contains("+    ") && f.ir_diff.contains("fma.rn"), "{}", f.ir_diff);
    }
}

#[test]
#[ignore]
fn show_contract() {
    let k = kernels().into_iter().find(|k| k.name == "contract").unwrap();
    let v = run_validation(&k, &Pipeline::only(&["OriCreateMacroInsts"]).unwrap(), 3);
    println!("{}", v.module);
}
