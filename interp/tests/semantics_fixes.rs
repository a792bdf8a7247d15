//! The reference semantics where outside testing found them wrong (issue 22), each against an
//! independent voice: a micro-kernel (`interp::difftest::micro`) with random full-width and
//! edge-value operands, NVIDIA ptxas's cubin of it run in the SASS emulator (-O0 and -O3) against
//! the Ori interpreter on the PTX, and, where our backend compiles it, ptxas-rs's cubin too.
//! Each test names the class it covers and the cause of the bug it was written for.

#[path = "support/micro.rs"]
mod micro;

use interp::difftest::micro::Micro;

fn m(inputs: usize, outputs: usize, decls: &str, body: &str, seed: u64) -> Micro {
    Micro::new(inputs, outputs, decls, body, seed)
}

/// Carry chains: every consumer of CC.CF (`addc`, `subc`, `madc`, with and without `.cc`) after
/// every producer (`add.cc`, `sub.cc`, `mad.cc`, `madc.cc`), 32- and 64-bit, register and
/// immediate operands.
///
/// Cause (fixed): PTX's CC.CF after `sub.cc`/`subc.cc` is the carry-out of `a + ~b + CF`, so 1
/// means "no borrow" (ptxas: `IADD3` with carry out of `a + ~b + 1`; `subc` is `IADD3.X a, ~b`,
/// consuming it as a carry). The interpreter's `subc` took and gave a borrow (1 = borrow), so
/// `sub.cc` + `addc` and `add.cc` + `subc` were off by one, and our isel matched it.
#[test]
fn carry_chains() {
    let Some(t) = oracle::tools_or_skip("carry_chains") else { return };
    let chain = |p: &str, c: &str| format!("\t{p}.u32 %o0, %a0, %a1;\n\t{c}.u32 %o1, %a2, %a3;\n");
    let mut cases = Vec::new();
    for (k, (p, c)) in [
        ("add.cc", "addc"),
        ("add.cc", "subc"),
        ("sub.cc", "addc"),
        ("sub.cc", "subc"),
        ("sub.cc", "addc.cc"),
        ("add.cc", "subc.cc"),
    ]
    .into_iter()
    .enumerate()
    {
        cases.push((format!("{p} then {c}"), m(4, 2, "", &chain(p, c), 100 + k as u64)));
    }
    // Three-link chains whose final carry is stored (`addc 0, 0` reads CF).
    for (k, (a, b)) in [("sub.cc", "subc.cc"), ("sub.cc", "addc.cc"), ("add.cc", "subc.cc"), ("add.cc", "addc.cc")]
        .into_iter()
        .enumerate()
    {
        let body = format!("\t{a}.u32 %o0, %a0, %a1;\n\t{b}.u32 %o1, %a2, %a3;\n\taddc.u32 %o2, 0, 0;\n");
        cases.push((format!("{a}, {b}, carry out"), m(4, 3, "", &body, 110 + k as u64)));
    }
    // Immediates and equal operands (borrow exactly at the boundary).
    cases.push((
        "sub.cc imm then subc imm".into(),
        m(2, 3, "", "\tsub.cc.u32 %o0, %a0, 1;\n\tsubc.cc.u32 %o1, %a1, 0;\n\taddc.u32 %o2, 0, 0;\n", 120),
    ));
    cases.push((
        "sub.cc equal then subc".into(),
        m(2, 3, "", "\tsub.cc.u32 %o0, %a0, %a0;\n\tsubc.cc.u32 %o1, %a1, %a1;\n\taddc.u32 %o2, 0, 0;\n", 121),
    ));
    cases.push((
        "s32 sub.cc then subc".into(),
        m(4, 2, "", "\tsub.cc.s32 %o0, %a0, %a1;\n\tsubc.s32 %o1, %a2, %a3;\n", 122),
    ));
    // mad.cc producers, madc consumers.
    cases.push((
        "sub.cc then madc.lo".into(),
        m(5, 2, "", "\tsub.cc.u32 %o0, %a0, %a1;\n\tmadc.lo.u32 %o1, %a2, %a3, %a4;\n", 130),
    ));
    cases.push((
        "mad.cc.lo then subc".into(),
        m(5, 2, "", "\tmad.lo.cc.u32 %o0, %a0, %a1, %a2;\n\tsubc.u32 %o1, %a3, %a4;\n", 131),
    ));
    cases.push((
        "madc.hi.cc then subc".into(),
        m(
            5,
            3,
            "",
            "\tadd.cc.u32 %o0, %a0, %a1;\n\tmadc.hi.cc.u32 %o1, %a2, %a3, %a4;\n\tsubc.u32 %o2, %a0, %a4;\n",
            132,
        ),
    ));
    // 64-bit chains.
    let d64 = "\t.reg .b64 %x<6>;";
    let b64 = |p: &str, c: &str| {
        format!(
            "\tmov.b64 %x0, {{%a0, %a1}};\n\tmov.b64 %x1, {{%a2, %a3}};\n\tmov.b64 %x2, {{%a4, %a5}};\n\tmov.b64 %x3, {{%a6, %a7}};\n\
             \t{p}.u64 %x4, %x0, %x1;\n\t{c}.u64 %x5, %x2, %x3;\n\tmov.b64 {{%o0, %o1}}, %x4;\n\tmov.b64 {{%o2, %o3}}, %x5;\n\taddc.u32 %o4, 0, 0;\n"
        )
    };
    for (k, (p, c)) in [("sub.cc", "subc.cc"), ("sub.cc", "addc.cc"), ("add.cc", "subc.cc"), ("add.cc", "addc.cc")]
        .into_iter()
        .enumerate()
    {
        cases.push((format!("64-bit {p} then {c}"), m(8, 5, d64, &b64(p, c), 140 + k as u64)));
    }
    let cases: Vec<(&str, Micro)> = cases.iter().map(|(n, m)| (n.as_str(), m.clone())).collect();
    micro::check_all(t, &cases, true);
}

/// Vector moves are parallel copies: every source element is read before any destination is
/// written (`mov.v4 {a,b,c,d}, {c,d,a,b}` rotates), for 32- and 64-bit elements; a vector load
/// whose destination is its own address register reads the address first.
///
/// Cause (fixed): the lowering copied element by element, so a destination written early was
/// read back as a later element's source.
#[test]
fn vector_moves_are_parallel() {
    let Some(t) = oracle::tools_or_skip("vector_moves_are_parallel") else { return };
    let init4 = "\tmov.b32 %o0, %a0;\n\tmov.b32 %o1, %a1;\n\tmov.b32 %o2, %a2;\n\tmov.b32 %o3, %a3;\n";
    let d64 = "\t.reg .b64 %x<4>;";
    let cases = [
        (
            "v4 rotate",
            m(4, 4, "", &format!("{init4}\tmov.v4.u32 {{%o0, %o1, %o2, %o3}}, {{%o2, %o3, %o0, %o1}};\n"), 200),
        ),
        (
            "v4 shift",
            m(4, 4, "", &format!("{init4}\tmov.v4.b32 {{%o0, %o1, %o2, %o3}}, {{%o1, %o2, %o3, %o0}};\n"), 201),
        ),
        (
            "v2 swap",
            m(2, 2, "", "\tmov.b32 %o0, %a0;\n\tmov.b32 %o1, %a1;\n\tmov.v2.u32 {%o0, %o1}, {%o1, %o0};\n", 202),
        ),
        (
            "v2 swap 64-bit",
            m(
                4,
                4,
                d64,
                "\tmov.b64 %x0, {%a0, %a1};\n\tmov.b64 %x1, {%a2, %a3};\n\tmov.v2.b64 {%x0, %x1}, {%x1, %x0};\n\
                 \tmov.b64 {%o0, %o1}, %x0;\n\tmov.b64 {%o2, %o3}, %x1;\n",
                203,
            ),
        ),
        (
            "v2 load over its address",
            m(
                4,
                4,
                d64,
                "\tmov.b64 %x0, %mrd3;\n\tld.global.v2.u64 {%x0, %x1}, [%x0];\n\
                 \tmov.b64 {%o0, %o1}, %x0;\n\tmov.b64 {%o2, %o3}, %x1;\n",
                204,
            ),
        ),
    ];
    micro::check_all(t, &cases, true);
}

/// `.relu` everywhere PTX has it: conversions to f16/bf16 (scalar and packed) from f32, f16/bf16
/// `fma.relu` (scalar and packed), `max/min.relu.s32` (`min.relu.s16x2` is `not supported yet` in
/// the lowering); random full-width
/// f32 bit patterns (NaNs of both signs, -0, subnormals) as operands.
///
/// Causes (fixed): the lowering of `cvt` dropped `.relu` (an accepted, ignored modifier) and the
/// semantics ignored it on integer `min/max`, so negative results stayed negative in the
/// interpreter; the emulator had no `F2FP.RELU` (`.PACK_AB`, `.MERGE_C`) nor `VIMNMX.RELU`.
#[test]
fn relu_everywhere() {
    let Some(t) = oracle::tools_or_skip("relu_everywhere") else { return };
    let d = "\t.reg .b16 %h<4>;";
    let cases = [
        ("cvt.rn.relu.f16x2.f32", m(2, 1, "", "\tcvt.rn.relu.f16x2.f32 %o0, %a0, %a1;\n", 300)),
        ("cvt.rn.relu.bf16x2.f32", m(2, 1, "", "\tcvt.rn.relu.bf16x2.f32 %o0, %a0, %a1;\n", 301)),
        ("cvt.rn.relu.f16.f32", m(1, 1, d, "\tcvt.rn.relu.f16.f32 %h0, %a0;\n\tcvt.u32.u16 %o0, %h0;\n", 302)),
        ("cvt.rn.relu.bf16.f32", m(1, 1, d, "\tcvt.rn.relu.bf16.f32 %h0, %a0;\n\tcvt.u32.u16 %o0, %h0;\n", 303)),
        ("cvt.rz.relu.f16x2.f32", m(2, 1, "", "\tcvt.rz.relu.f16x2.f32 %o0, %a0, %a1;\n", 304)),
        ("fma.rn.relu.f16x2", m(3, 1, "", "\tfma.rn.relu.f16x2 %o0, %a0, %a1, %a2;\n", 310)),
        ("fma.rn.relu.bf16x2", m(3, 1, "", "\tfma.rn.relu.bf16x2 %o0, %a0, %a1, %a2;\n", 311)),
        (
            "fma.rn.relu.f16",
            m(
                3,
                1,
                d,
                "\tmov.b32 {%h0, %h3}, %a0;\n\tmov.b32 {%h1, %h3}, %a1;\n\tmov.b32 {%h2, %h3}, %a2;\n\tfma.rn.relu.f16 %h0, %h0, %h1, %h2;\n\tcvt.u32.u16 %o0, %h0;\n",
                312,
            ),
        ),
        ("max.relu.s32", m(2, 1, "", "\tmax.relu.s32 %o0, %a0, %a1;\n", 322)),
        ("min.relu.s32", m(2, 1, "", "\tmin.relu.s32 %o0, %a0, %a1;\n", 323)),
    ];
    micro::check_all(t, &cases, false);
}

/// Address-style arithmetic that ptxas turns into `LEA`/`LEA.HI(.X)(.SX32)` with negated
/// operands (`b - (a << s)` as `LEA d, P, -a, b, s` + `IMAD.X ~hi`): 32- and 64-bit, signed and
/// unsigned, every shift kind, with 0 and the extremes among the operands (a zero shifted
/// operand is where a negation's carry-in shows).
#[test]
fn lea_negated_operands() {
    let Some(t) = oracle::tools_or_skip("lea_negated_operands") else { return };
    let d = "\t.reg .b64 %x<8>;\n\t.reg .b32 %r<4>;";
    let pre = "\tmov.b64 %x0, {%a0, %a1};\n\tmov.b64 %x1, {%a2, %a3};\n";
    let post = "\tmov.b64 {%o0, %o1}, %x3;\n";
    let mut cases = Vec::new();
    for (k, sh) in [1u32, 3, 4, 5, 17, 31].into_iter().enumerate() {
        let k = k as u64;
        cases.push((
            format!("b64 - (a64 << {sh})"),
            m(4, 2, d, &format!("{pre}\tshl.b64 %x2, %x0, {sh};\n\tsub.s64 %x3, %x1, %x2;\n{post}"), 400 + k),
        ));
        cases.push((
            format!("b64 - (s32 a << {sh})"),
            m(
                4,
                2,
                d,
                &format!("{pre}\tcvt.s64.s32 %x2, %a0;\n\tshl.b64 %x2, %x2, {sh};\n\tsub.s64 %x3, %x1, %x2;\n{post}"),
                410 + k,
            ),
        ));
        cases.push((
            format!("b64 - (u32 a << {sh})"),
            m(
                4,
                2,
                d,
                &format!("{pre}\tcvt.u64.u32 %x2, %a0;\n\tshl.b64 %x2, %x2, {sh};\n\tsub.s64 %x3, %x1, %x2;\n{post}"),
                420 + k,
            ),
        ));
        cases.push((
            format!("b64 - (a64 >> {sh})"),
            m(4, 2, d, &format!("{pre}\tshr.u64 %x2, %x0, {sh};\n\tsub.s64 %x3, %x1, %x2;\n{post}"), 430 + k),
        ));
        cases.push((
            format!("(a64 << {sh}) - b64"),
            m(4, 2, d, &format!("{pre}\tshl.b64 %x2, %x0, {sh};\n\tsub.s64 %x3, %x2, %x1;\n{post}"), 440 + k),
        ));
        cases.push((format!("b32 - (a >> {sh})"), m(2, 2, d, &format!("\tshr.u32 %r0, %a0, {sh};\n\tsub.u32 %o0, %a1, %r0;\n\tshr.s32 %r1, %a0, {sh};\n\tsub.u32 %o1, %r1, %a1;\n"), 450 + k)));
        cases.push((format!("-(a64 << {sh}) + b64 + c"), m(4, 2, d, &format!("{pre}\tshl.b64 %x2, %x0, {sh};\n\tneg.s64 %x2, %x2;\n\tcvt.s64.s32 %x4, %a2;\n\tadd.s64 %x3, %x2, %x4;\n\tadd.s64 %x3, %x3, %x1;\n{post}"), 460 + k)));
    }
    let cases: Vec<(&str, Micro)> = cases.iter().map(|(n, m)| (n.as_str(), m.clone())).collect();
    micro::check_all(t, &cases, true);
}

/// `bmsk` and `prmt` with immediate operands in every position ptxas keeps them (the
/// selector, a source, both bmsk operands), every `prmt` mode; full-width register operands.
///
/// Open: NVIDIA's code for these uses `PRMT d, a, imm32, c` (opcode key 0x416) and
/// `BMSK d, a, imm` (0x81b), which the sm_90 SASS tables (`src/sass`, the form sweep's area)
/// do not decode yet, so the emulator stops on them; the register forms agree.
#[test]
#[ignore = "PRMT/BMSK immediate forms (sm_90 opcode keys 0x416, 0x81b) are not decodable yet"]
fn bmsk_prmt_immediates() {
    let Some(t) = oracle::tools_or_skip("bmsk_prmt_immediates") else { return };
    let mut cases = Vec::new();
    for (k, body) in [
        "\tbmsk.clamp.b32 %o0, %a0, 5;\n\tbmsk.wrap.b32 %o1, %a0, 37;\n\tbmsk.clamp.b32 %o2, 3, %a1;\n\tbmsk.wrap.b32 %o3, 30, %a1;\n",
        "\tbmsk.clamp.b32 %o0, %a0, %a1;\n\tbmsk.wrap.b32 %o1, %a0, %a1;\n\tand.b32 %mi0, %a0, 63;\n\tand.b32 %mi1, %a1, 63;\n\tbmsk.clamp.b32 %o2, %mi0, %mi1;\n\tbmsk.wrap.b32 %o3, %mi0, %mi1;\n",
        "\tprmt.b32 %o0, %a0, %a1, 0x3210;\n\tprmt.b32 %o1, %a0, 0x12345678, %a2;\n\tprmt.b32 %o2, 0x8899aabb, %a1, %a2;\n\tprmt.b32 %o3, %a0, %a1, 0x7654;\n",
        "\tprmt.b32 %o0, %a0, %a1, 0xcafe;\n\tprmt.b32 %o1, %a0, 0x80ff7f01, 0x5713;\n\tprmt.b32 %o2, %a0, %a1, %a2;\n\tprmt.b32 %o3, %a0, 0, 0x8880;\n",
        "\tprmt.b32.f4e %o0, %a0, %a1, %a2;\n\tprmt.b32.b4e %o1, %a0, 0x11223344, %a2;\n\tprmt.b32.rc8 %o2, %a0, %a1, 3;\n\tprmt.b32.ecl %o3, %a0, %a1, 2;\n",
        "\tprmt.b32.ecr %o0, %a0, %a1, 1;\n\tprmt.b32.rc16 %o1, %a0, %a1, 1;\n\tprmt.b32.f4e %o2, %a0, %a1, 5;\n\tprmt.b32.b4e %o3, 0x01020304, %a1, %a2;\n",
    ]
    .into_iter()
    .enumerate()
    {
        cases.push((format!("case {k}"), m(3, 4, "", body, 500 + k as u64)));
    }
    let cases: Vec<(&str, Micro)> = cases.iter().map(|(n, m)| (n.as_str(), m.clone())).collect();
    micro::check_all(t, &cases, true);
}

/// `bar.red.{popc.u32, and.pred, or.pred}` over predicates that differ between lanes and warps
/// (bits of the inputs).
///
/// Open: neither the lowering (`bar.red` is a located `not supported`) nor the emulator
/// (`BAR.RED`: only `BAR.SYNC` is modelled) has it yet.
#[test]
#[ignore = "bar.red is not supported yet by the lowering nor BAR.RED by the emulator"]
fn barrier_reductions() {
    let Some(t) = oracle::tools_or_skip("barrier_reductions") else { return };
    let dp = "\t.reg .pred %p<4>;";
    let red = "\tand.b32 %mi0, %a0, 1;\n\tsetp.ne.u32 %p0, %mi0, 0;\n\
               \tbar.red.popc.u32 %o0, 0, %p0;\n\tbar.red.and.pred %p1, 0, %p0;\n\tbar.red.or.pred %p2, 0, %p0;\n\
               \tselp.u32 %o1, 1, 0, %p1;\n\tselp.u32 %o2, 1, 0, %p2;\n\
               \tsetp.lt.u32 %p3, %a1, 0x10000000;\n\tbar.red.or.pred %p1, 1, %p3;\n\tbar.red.and.pred %p2, 2, !%p3;\n\
               \tselp.u32 %o3, 1, 0, %p1;\n\tselp.u32 %o4, 1, 0, %p2;\n\tbar.red.popc.u32 %o5, 3, !%p3;\n";
    let cases = [
        ("bar.red", m(2, 6, dp, red, 600)),
        ("bar.red (all set)", Micro { values: Some(vec![1, 0]), ..m(2, 6, dp, red, 601) }),
    ];
    micro::check_all(t, &cases, true);
}

/// A local-memory address taken to generic and back (`cvta.local`, `isspacep`, generic loads
/// and stores through it); NVIDIA's -O0 code checks its stack pointer against `SR_LMEMHIOFF`.
///
/// Cause (fixed): the emulator did not know `SR_LMEMHIOFF` and stopped there.
#[test]
fn local_windows() {
    let Some(t) = oracle::tools_or_skip("local_windows") else { return };
    let dp = "\t.reg .pred %p<4>;";
    let dl = "\t.local .align 8 .b32 loc[4];\n\t.reg .b64 %l<4>;";
    let local = "\tst.local.u32 [loc], %a0;\n\tst.local.u32 [loc+4], %a1;\n\tmov.u64 %l0, loc;\n\
                 \tcvta.local.u64 %l1, %l0;\n\tld.u32 %o0, [%l1+4];\n\tst.u32 [%l1], %a1;\n\tld.local.u32 %o1, [loc];\n\
                 \tisspacep.local %p0, %l1;\n\tselp.u32 %o2, 1, 0, %p0;\n\tisspacep.global %p0, %l1;\n\tselp.u32 %o3, 1, 0, %p0;\n\
                 \tcvta.to.local.u64 %l2, %l1;\n\tsub.s64 %l3, %l2, %l0;\n\tcvt.u32.u64 %o4, %l3;\n";
    let cases = [("local windows", m(2, 5, &format!("{dp}\n{dl}"), local, 602))];
    micro::check_all(t, &cases, true);
}

/// A 32-bit local address below the frame plus a positive displacement (`sub.s32 %r, %SPL, k`
/// then `ld.local [%r+d]`, d >= k), as libdevice's trig reduction reads its table in Triton's
/// `math_f32` (the wild corpus's `triton/math_f32`, specs in `corpus/wild/specs`).
///
/// Cause (fixed): the interpreter added a 32-bit base register and the displacement in 64 bits,
/// so `0xfffffff4 + 24` fell outside the local window instead of wrapping to 12.
#[test]
fn local_addresses_wrap_at_32_bits() {
    let Some(t) = oracle::tools_or_skip("local_addresses_wrap_at_32_bits") else { return };
    let decls = "\t.local .align 4 .b8 depot[32];\n\t.reg .b32 %spl;\n\t.reg .b32 %b<4>;";
    let body = "\tmov.u32 %spl, depot;\n\tst.local.u32 [%spl+12], %a0;\n\tst.local.u32 [%spl+16], %a1;\n\tst.local.u32 [%spl+20], %a2;\n\tst.local.u32 [%spl+24], %a0;\n\
                \tand.b32 %b0, %a2, 12;\n\tsub.s32 %b1, %spl, %b0;\n\tst.local.u32 [%b1+28], %a1;\n\
                \tld.local.u32 %o0, [%b1+24];\n\tld.local.u32 %o1, [%b1+28];\n\tld.local.u32 %o2, [%spl+16];\n";
    let cases = [("32-bit local addresses below the frame", m(3, 3, decls, body, 603))];
    micro::check_all(t, &cases, true);
}

/// Conversions between f16 and f32 with `.ftz` (no flush at all: ptxas selects `F2F.F16.F32`
/// and `HADD2.F32` without `.FTZ`, so neither an f16 subnormal nor an f32 subnormal source is
/// flushed) and f16 NaNs to 64-bit integers (0), on every f16 subnormal class, NaNs, f32
/// subnormals and random words.
///
/// Causes (fixed; the form sweep's disagreements): the interpreter flushed subnormals under
/// `cvt.ftz` between f16 and f32, and gave INT64_MIN for a NaN f16 (NVIDIA's code: 0).
/// Open: `cvt.ftz.sat.f32.f16` is `HADD2.F32.SAT`, which the emulator does not model yet.
#[test]
fn ftz_and_nan_conversions_of_halves() {
    let Some(t) = oracle::tools_or_skip("ftz_and_nan_conversions_of_halves") else { return };
    let d = "\t.reg .b16 %h<4>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %x<4>;";
    let halves = vec![
        0x0001, 0x03ff, 0x8001, 0x83ff, 0x0200, 0x7e00, 0xfc01, 0x7c01, 0xfe00, 0x3c00, 0xbc00, 0x7bff, 0x0400, 0x8400,
        0x7c00, 0xfc00, 0x0000, 0x8000, 0x1234, 0x0012,
    ];
    let floats = vec![
        0x3380_0000,
        0xb6b8_0000,
        0x387f_c000,
        0x0000_0001,
        0x8000_0001,
        0x3300_0001,
        0xb37f_ffff,
        0x3880_0000,
        0x7fc0_0000,
        0xff80_0001,
        0x4780_0000,
        0x3400_0000,
        0xb400_0000,
        0x0080_0000,
        0x807f_ffff,
        0x3580_0001,
    ];
    let h2f = "\tcvt.u16.u32 %h0, %a0;\n\tcvt.ftz.f32.f16 %f0, %h0;\n\tmov.b32 %o0, %f0;\n\
               \tcvt.f32.f16 %f1, %h0;\n\tmov.b32 %o1, %f1;\n\tcvt.rzi.s64.f16 %x0, %h0;\n\
               \tmov.b64 {%o2, %o3}, %x0;\n\tcvt.rzi.sat.s64.f16 %x1, %h0;\n\tmov.b64 {%o4, %o5}, %x1;\n\
               \tcvt.rzi.s32.f16 %o6, %h0;\n";
    let f2h = "\tmov.b32 %f0, %a0;\n\tcvt.rn.ftz.f16.f32 %h0, %f0;\n\tcvt.u32.u16 %o0, %h0;\n\
               \tcvt.rm.ftz.f16.f32 %h1, %f0;\n\tcvt.u32.u16 %o1, %h1;\n\tcvt.rp.ftz.sat.f16.f32 %h2, %f0;\n\
               \tcvt.u32.u16 %o2, %h2;\n\tcvt.rz.ftz.f16.f32 %h3, %f0;\n\tcvt.u32.u16 %o3, %h3;\n";
    let cases = [
        ("f16 -> f32, s64, s32", Micro { values: Some(halves), ..m(1, 7, d, h2f, 700) }),
        ("f16 -> f32 (random)", m(1, 7, d, h2f, 701)),
        ("f32 -> f16", Micro { values: Some(floats), ..m(1, 4, d, f2h, 702) }),
        ("f32 -> f16 (random)", m(1, 4, d, f2h, 703)),
    ];
    micro::check_all(t, &cases, false);
}
