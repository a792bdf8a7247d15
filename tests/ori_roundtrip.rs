//! Golden Ori IR texts: each parses, verifies and prints back byte-for-byte; and invalid texts,
//! each rejected by the parser or the verifier with the expected located error.

use ptxas_rs::ori::{self, Module};

const STRAIGHT: &str = "\
entry @straight() ssa {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 c[0x0][0x160]
    %r2 = add.u32 %r0, %r1
    %r3 = mul.lo.s32 %r2, -3
    %rd4 = mul.wide.u32 %r2, 4
    %rd5 = cvt.u64.u32 %r3
    %r6 = shl.b32 %r3, 2
    %r7 = and.b32 %r6, 0xff00
    %r8 = cvt.rn.f32.s32 %r7
    %r9 = fma.rn.ftz.f32 %r8, 0f3F800000, -|%r8|
    %rd10 = add.f64 %rd4, 0d3FF0000000000000
    %r11 = min.s32 %r9, -0x8000
    %r12 = fma.rn.ftz.sat.contract.f32 -%r8, %r9, 0fBF800000
    exit
}
";

const DIAMOND: &str = "\
func @diamond(%r0, %r1) -> (r32) ssa {
bb0:
    %p2, PT = ISETP.LT.U32.AND %r0, %r1, PT
    @%p2 bra bb2
bb1:
    %r4 = IADD3 %r0, -%r1, RZ
    bra bb3
bb2:
    %r5 = IADD3 %r1, -%r0, RZ
    bra bb3
bb3:
    %r6 = phi %r4, bb1, %r5, bb2
    ret %r6
}
";

const LOOP: &str = "\
func @sum(%rd0, %r1) -> (r32) ssa {
bb0:
    %r2 = mov.u32 0
    %r3 = mov.u32 0
    bra bb1
bb1:
    %r4 = phi %r2, bb0, %r8, bb2
    %r5 = phi %r3, bb0, %r9, bb2
    %p6 = setp.ge.u32 %r5, %r1
    @%p6 bra bb3
bb2:
    %rd10 = mul.wide.u32 %r5, 4
    %rd11 = add.u64 %rd0, %rd10
    %r7 = ld.u32 global[%rd11]
    %r8 = add.u32 %r4, %r7
    %r9 = add.u32 %r5, 1
    bra bb1
bb3:
    ret %r4
}
";

const CALLS: &str = "\
func @callee(%r0) -> (r32) ssa {
bb0:
    %r1 = add.u32 %r0, 1
    ret %r1
}

func @sink(%r0, %rd1) {
bb0:
    ret
}

entry @caller() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = call @callee, %r0
    call @sink, %r1, %rd2
    exit
}
";

const MEMORY: &str = "\
entry @mem() {
bb0:
    %rd0 = ld.u64 param[$kparams+0x8]
    %r1 = ld.volatile.u32 global[%rd0+0x10]
    st.u32 shared[$smem+%r1-0x4], %r1
    %rq2 = ld.b128 generic[%rd0]
    st.b128 local[0x20], %rq2
    %r3 = LDC c[0x3][%r1+0x10]
    %rd4 = LDG.U64 global[%rd0-0x8]
    STS shared[%r1], %r3
    bar.sync 0
    membar 1
    exit
}
";

const PREDICATES: &str = "\
func @preds(%r0, %r1) -> (p) ssa {
bb0:
    %p2 = setp.lt.s32 %r0, %r1
    %p3 = setp.equ.f32 %r0, 0f7FC00000
    %p4 = and.pred %p2, !%p3
    %p5 = not.pred %p4
    %p6, %p7 = PLOP3 %p2, !%p3, PT, 128, 8
    %r8 = selp.b32 %r0, %r1, %p6
    %r9 = SEL %r0, 7, !%p7
    @!%p5 bra bb2
bb1:
    ret %p4
bb2:
    ret %p7
}
";

const UNIFORM: &str = "\
entry @uniform() ssa sass {
bb0:
    %ur0 = S2UR SR_CTAID.X
    %ur1 = ULDC c[0x0][0x0]
    %ur2 = UIADD3 %ur0, %ur1, URZ
    %up3, UPT = UISETP.GE.U32.AND %ur2, 256, UPT
    %ur4 = USEL %ur2, 0, %up3
    %r5 = S2R SR_TID.X
    %r6 = IMAD %r5, %ur4, RZ
    @%up3 EXIT
bb1:
    %rd7 = IMAD.WIDE.U32 %r6, 4, RZ
    %r8 = LOP3 %r6, ~%r5, RZ, 192
    %r9 = SHF.L.U32 %r8, 2, RZ
    %r10 = SHF.R.HIW.S32 RZ, 2, %r9
    STG global[%rd7], %r10
    EXIT
}
";

const TUPLES: &str = "\
func @alloc(R4:R5, R2) -> (r64) sass allocated {
bb0:
    R6:R7 = IMAD.WIDE.U32 R2, 8, R4:R5
    R8:R11 = LDG.B128 global[R6:R7+0x10]
    STG.B128 global[R6:R7], R8:R11
    P0, PT = ISETP.NE.AND R8, RZ, PT
    @P0 BRA bb2
bb1:
    B0 = BSSY bb2
    BSYNC B0
    RET
bb2:
    EXIT
}
";

const GOLDEN: &[(&str, &str)] = &[
    ("straight", STRAIGHT),
    ("diamond", DIAMOND),
    ("loop", LOOP),
    ("calls", CALLS),
    ("memory", MEMORY),
    ("predicates", PREDICATES),
    ("uniform", UNIFORM),
    ("tuples", TUPLES),
];

fn parse_and_verify(name: &str, text: &str) -> Module {
    let m = ori::parse_module(text).unwrap_or_else(|e| panic!("{name}: parse error: {e}"));
    if let Err(e) = ori::verify_module(&m) {
        panic!("{name}: verifier errors:\n{e}");
    }
    m
}

#[test]
fn golden_texts_roundtrip() {
    for (name, text) in GOLDEN {
        let m = parse_and_verify(name, text);
        let printed = m.to_string();
        if printed != *text {
            let diff = similar::TextDiff::from_lines(*text, printed.as_str());
            panic!("{name}: print differs from the golden text:\n{}", diff.unified_diff());
        }
        let again = ori::parse_module(&printed).expect("reparse");
        assert_eq!(again, m, "{name}: reparsed module differs");
    }
}

#[test]
fn golden_cfg_and_dominators() {
    use ori::Block;
    use ori::cfg::{Cfg, DomTree};
    let m = parse_and_verify("loop", LOOP);
    let f = &m.functions[0];
    let cfg = Cfg::compute(f);
    let b = Block::from_u32;
    assert_eq!(cfg.succs(b(0)), &[b(1)]);
    assert_eq!(cfg.succs(b(1)), &[b(3), b(2)]);
    assert_eq!(cfg.preds(b(1)), &[b(0), b(2)]);
    let dom = DomTree::compute(f, &cfg);
    assert_eq!(dom.idom(b(2)), Some(b(1)));
    assert_eq!(dom.idom(b(3)), Some(b(1)));
    assert!(dom.dominates(b(0), b(3)));
    assert!(!dom.dominates(b(2), b(3)));
}

/// (name, text, expected location, expected message fragment).
/// A location `line N` is a parse error; `bbN` (or `@f`) is a verifier error.
const INVALID: &[(&str, &str, &str, &str)] = &[
    (
        "unknown vreg prefix",
        "func @f() {\nbb0:\n    %x1 = mov.u32 0\n    ret\n}\n",
        "line 3",
        "unknown virtual register class prefix",
    ),
    (
        "class conflict",
        "func @f() {\nbb0:\n    %r1 = mov.u32 0\n    %rd1 = mov.u64 0\n    ret\n}\n",
        "line 4",
        "names v1 as r64",
    ),
    ("unknown opcode", "func @f() {\nbb0:\n    FOO\n}\n", "line 3", "unknown opcode `FOO`"),
    (
        "unknown modifier",
        "func @f() {\nbb0:\n    %r1 = add.q32 %r0, 1\n    ret\n}\n",
        "line 3",
        "unknown modifier `.q32`",
    ),
    ("modifier not allowed", "func @f() {\nbb0:\n    bra.ftz bb0\n}\n", "line 3", "not allowed here"),
    (
        "contract outside fma",
        "func @f() {\nbb0:\n    %r1 = add.contract.f32 %r0, %r0\n    ret\n}\n",
        "line 3",
        "not allowed here",
    ),
    ("second type", "func @f() {\nbb0:\n    %r1 = add.u32.s32 %r0, 1\n    ret\n}\n", "line 3", "second type"),
    ("inst before label", "func @f() {\n    ret\n}\n", "line 2", "before the first block label"),
    ("unterminated", "func @f() {\nbb0:\n    ret\n", "line 3", "unterminated function"),
    ("duplicate block", "func @f() {\nbb0:\n    bra bb0\nbb0:\n    ret\n}\n", "line 4", "defined twice"),
    (
        "tuple of three",
        "func @f() allocated {\nbb0:\n    R5:R7 = mov.b64 0\n    ret\n}\n",
        "line 3",
        "2 or 4 registers",
    ),
    ("bad float imm", "func @f() {\nbb0:\n    %r1 = mov.f32 0f3F80\n    ret\n}\n", "line 3", "bad immediate"),
    ("bad header", "function @f() {\n}\n", "line 1", "expected `entry` or `func`"),
    ("trailing operand junk", "func @f() {\nbb0:\n    %r1 = add.u32 %r0 %r2\n    ret\n}\n", "line 3", "expected `,`"),
    ("no terminator", "func @f() {\nbb0:\n    %r1 = mov.u32 0\n}\n", "bb0", "block does not end in a terminator"),
    (
        "terminator mid-block",
        "func @f() {\nbb0:\n    ret\n    %r1 = mov.u32 0\n    ret\n}\n",
        "bb0",
        "terminator is not last",
    ),
    ("empty block", "func @f() {\nbb0:\n    bra bb1\nbb1:\n}\n", "bb1", "block is empty"),
    ("missing target", "func @f() {\nbb0:\n    bra bb7\n}\n", "bb0", "target bb7 is not a block of this function"),
    ("operand count", "func @f() {\nbb0:\n    %r1 = add.u32 %r0\n    ret\n}\n", "bb0", "takes 2 operand(s), not 1"),
    (
        "width mismatch",
        "func @f() {\nbb0:\n    %r1 = add.u64 %r0, %r0\n    ret\n}\n",
        "bb0",
        "expected a 64-bit register tuple, found r32",
    ),
    (
        "predicate as data",
        "func @f() {\nbb0:\n    %r1 = add.u32 %p0, 1\n    ret\n}\n",
        "bb0",
        "expected a 32-bit register, found p",
    ),
    (
        "immediate in register slot",
        "func @f() {\nbb0:\n    %r1 = abs.s32 5\n    ret\n}\n",
        "bb0",
        "immediate operand not allowed here",
    ),
    (
        "missing type",
        "func @f() {\nbb0:\n    %r1 = add %r0, %r0\n    ret\n}\n",
        "bb0",
        "missing a required modifier (type)",
    ),
    (
        "ssa double def",
        "func @f() ssa {\nbb0:\n    %r1 = mov.u32 0\n    %r1 = mov.u32 1\n    ret\n}\n",
        "bb0",
        "defined more than once",
    ),
    (
        "ssa undefined use",
        "func @f() ssa {\nbb0:\n    %r1 = add.u32 %r0, 1\n    ret\n}\n",
        "bb0",
        "%r0 is used but never defined",
    ),
    (
        "ssa use before def",
        "func @f() ssa {\nbb0:\n    %r1 = add.u32 %r2, 1\n    %r2 = mov.u32 0\n    ret\n}\n",
        "bb0",
        "does not dominate",
    ),
    (
        "ssa def in one arm",
        "func @f(%p0) ssa {\nbb0:\n    @%p0 bra bb2\nbb1:\n    %r1 = mov.u32 0\n    bra bb2\nbb2:\n    %r2 = add.u32 %r1, 1\n    ret\n}\n",
        "bb2",
        "definition of %r1 does not dominate",
    ),
    (
        "phys before allocation",
        "func @f() {\nbb0:\n    R1 = add.u32 R2, R3\n    ret\n}\n",
        "bb0",
        "physical register R1 before register allocation",
    ),
    (
        "vreg after allocation",
        "func @f() allocated {\nbb0:\n    R1 = add.u32 %r2, R3\n    ret\n}\n",
        "bb0",
        "in an allocated function",
    ),
    (
        "misaligned pair",
        "func @f() allocated {\nbb0:\n    R5:R6 = mov.b64 0\n    ret\n}\n",
        "bb0",
        "not aligned to 2 registers",
    ),
    ("out of range", "func @f() allocated {\nbb0:\n    R256:R259 = mov.b128 0\n    ret\n}\n", "bb0", "out of range"),
    (
        "ptx op in sass",
        "func @f() sass {\nbb0:\n    %r1 = add.u32 %r0, 1\n    RET\n}\n",
        "bb0",
        "PTX-stage opcode `add`",
    ),
    (
        "uniform op on R",
        "func @f() {\nbb0:\n    %ur1 = UIADD3 %r0, %ur2, URZ\n    ret\n}\n",
        "bb0",
        "uniform-datapath op uses per-thread register class r32",
    ),
    (
        "per-thread op writes UR",
        "func @f() {\nbb0:\n    %ur1 = IADD3 %r0, %r2, RZ\n    ret\n}\n",
        "bb0",
        "per-thread op writes uniform register class ur32",
    ),
    (
        "wrong memory space",
        "func @f() {\nbb0:\n    %r1 = LDG shared[%r0]\n    ret\n}\n",
        "bb0",
        "`LDG` needs global memory, found shared",
    ),
    ("guarded terminator last", "func @f(%p0) {\nbb0:\n    @%p0 ret\n}\n", "bb0", "nowhere to fall through"),
    (
        "guard not a predicate",
        "func @f() {\nbb0:\n    %r1 = mov.u32 0\n    @%r1 bra bb1\nbb1:\n    ret\n}\n",
        "bb0",
        "guard must be a predicate",
    ),
    (
        "phi after non-phi",
        "func @f() ssa {\nbb0:\n    bra bb1\nbb1:\n    %r1 = mov.u32 0\n    %r2 = phi %r1, bb0\n    ret\n}\n",
        "bb1",
        "phi after a non-phi",
    ),
    (
        "phi wrong predecessor",
        "func @f() ssa {\nbb0:\n    %r1 = mov.u32 0\n    bra bb2\nbb1:\n    ret\nbb2:\n    %r2 = phi %r1, bb1\n    ret\n}\n",
        "bb2",
        "phi names bb1, which is not a predecessor",
    ),
    (
        "phi class mismatch",
        "func @f() ssa {\nbb0:\n    %rd1 = mov.u64 0\n    bra bb1\nbb1:\n    %r2 = phi %rd1, bb0\n    ret\n}\n",
        "bb1",
        "phi value is r64, the phi is r32",
    ),
    ("ret count", "func @f() -> (r32) {\nbb0:\n    ret\n}\n", "bb0", "returns 0 value(s), the function returns 1"),
    (
        "ret class",
        "func @f(%rd0) -> (r32) {\nbb0:\n    ret %rd0\n}\n",
        "bb0",
        "return value 0 is r64, the signature says r32",
    ),
    ("call undefined", "func @f() {\nbb0:\n    call @g\n    ret\n}\n", "bb0", "call to undefined function @g"),
    (
        "call arity",
        "func @g(%r0) {\nbb0:\n    ret\n}\nfunc @f() {\nbb0:\n    call @g, %r1, %r2\n    ret\n}\n",
        "@f, bb0",
        "@g takes 1 argument(s), not 2",
    ),
    (
        "call result class",
        "func @g() -> (r64) {\nbb0:\n    ret %rd0\n}\nfunc @f() {\nbb0:\n    %r1 = call @g\n    ret\n}\n",
        "@f, bb0",
        "result 0 is r32, @g returns r64",
    ),
    ("no blocks", "func @f() {\n}\n", "@f", "function has no blocks"),
    (
        "wide needs narrow type",
        "func @f() {\nbb0:\n    %rq1 = mul.wide.u64 %rd0, %rd0\n    ret\n}\n",
        "bb0",
        ".wide needs a type of at most 32 bits",
    ),
];

#[test]
fn invalid_texts_are_rejected_with_located_errors() {
    let mut failures = Vec::new();
    for (name, text, loc, frag) in INVALID {
        let got = match ori::parse_module(text) {
            Err(e) => e.to_string(),
            Ok(m) => match ori::verify_module(&m) {
                Err(e) => e.to_string(),
                Ok(()) => {
                    failures.push(format!("{name}: accepted"));
                    continue;
                }
            },
        };
        let loc_ok = if let Some(line) = loc.strip_prefix("line ") {
            got.starts_with(&format!("line {line}, col"))
        } else {
            got.lines().any(|l| l.contains(loc) && l.contains(frag))
        };
        if !loc_ok || !got.contains(frag) {
            failures.push(format!("{name}: expected `{frag}` at {loc}, got:\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn verifier_errors_carry_the_printed_instruction() {
    let m = ori::parse_module("func @f() {\nbb0:\n    %r1 = add.u64 %r0, %r0\n    ret\n}\n").unwrap();
    let errs = ori::verify_module(&m).unwrap_err();
    let e = &errs.0[0];
    assert_eq!(e.func, "f");
    assert_eq!(e.block, Some(ori::Block::from_u32(0)));
    assert_eq!(e.inst, Some(ori::Inst::from_u32(0)));
    assert_eq!(e.context.as_deref(), Some("%r1 = add.u64 %r0, %r0"));
}
