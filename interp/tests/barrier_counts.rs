//! Counted CTA barriers (`bar.sync`/`bar.arrive`/`bar.red` with ids and thread counts in
//! registers or immediates) and `cp.async` with a source size (register or immediate, `.ca`/`.cg`,
//! 4/8/16 bytes, zero fill of the rest), each a micro-kernel (`interp::difftest::micro`: 2 CTAs of
//! 2 warps, random full-width inputs) whose interpreter run on the PTX must equal NVIDIA ptxas's
//! cubin (-O0 and -O3) and ptxas-rs's cubin in the SASS emulator.

#[path = "support/micro.rs"]
mod micro;

use interp::difftest::micro::Micro;

fn m(inputs: usize, outputs: usize, decls: &str, body: &str, seed: u64) -> Micro {
    Micro::new(inputs, outputs, decls, body, seed)
}

/// [`micro::check_all`] without NVIDIA's -O0 cubin: ptxas -O0 wraps a barrier with a register
/// id and count in `WARPSYNC.COLLECTIVE.ALL` ... `ENDCOLLECTIVE`, a form the emulator's loader
/// does not take yet (it reports the region as not implemented). NVIDIA -O3 and ptxas-rs -O0 and
/// -O3 must all equal the interpreter.
fn check_without_nvidia_o0(t: &oracle::Tools, cases: &[(&str, Micro)]) {
    let mut bad = Vec::new();
    for (name, m) in cases {
        let reference = match m.interpret() {
            Ok(r) => r,
            Err(e) => {
                bad.push(format!("{name}: interpreter: {e}"));
                continue;
            }
        };
        let (cubin, sfx) = micro::nvidia(t, m, 3);
        let runs = [
            ("NVIDIA -O3", m.emulate(&cubin, &sfx)),
            ("ptxas-rs -O0", m.our_cubin(0).and_then(|c| m.emulate(&c, &Default::default()))),
            ("ptxas-rs -O3", m.our_cubin(3).and_then(|c| m.emulate(&c, &Default::default()))),
        ];
        for (who, run) in runs {
            match run {
                Ok(out) => bad.extend(m.diff(&reference, &out).into_iter().map(|d| format!("{name}: {who}: {d}"))),
                Err(e) => bad.push(format!("{name}: {who}: {e}")),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

const DECLS: &str = "\t.reg .b32 %r<8>;\n\t.reg .pred %p<6>;\n\t.reg .b64 %rd<4>;\n\t.shared .align 16 .b8 sh[4096];";

/// `bar.red` of every combiner, with immediate and register ids and counts and a negated
/// predicate, on a predicate that differs between lanes and warps.
#[test]
fn bar_red_combines_the_predicate() {
    let Some(t) = oracle::tools_or_skip("bar_red_combines_the_predicate") else { return };
    let body = "\tsetp.lt.u32 %p1, %a0, %a1;\n\
                \tbar.red.popc.u32 %o0, 1, %p1;\n\
                \tbar.red.and.pred %p2, 2, %p1;\n\tselp.u32 %o1, 1, 0, %p2;\n\
                \tbar.red.or.pred %p3, 3, 64, !%p1;\n\tselp.u32 %o2, 1, 0, %p3;\n\
                \tshr.u32 %r1, %mi2, 4;\n\
                \tbarrier.cta.red.popc.u32 %o3, %r1, %mi2, !%p1;\n\
                \tbarrier.red.popc.aligned.u32 %o4, %r1, %p1;\n\
                \tsetp.ne.u32 %p4, %mi0, 7;\n\tbar.red.and.pred %p5, 5, %mi2, %p4;\n\tselp.u32 %o5, 1, 0, %p5;\n\
                \tbar.red.or.pred %p5, %r1, 64, %p4;\n\tselp.u32 %o6, 7, 3, %p5;\n";
    let cases = [
        ("bar.red family, random predicate", m(2, 7, DECLS, body, 301)),
        ("bar.red family, other inputs", m(2, 7, DECLS, body, 302)),
    ];
    check_without_nvidia_o0(t, &cases);
}

/// `bar.arrive` does not wait: warp 0 produces into shared memory and arrives, warp 1 waits
/// with `bar.sync` on the same id and count, then reads; then the roles swap on another barrier
/// with a register id and count; a barrier with a count of one warp completes alone.
#[test]
fn bar_arrive_producer_consumer() {
    let Some(t) = oracle::tools_or_skip("bar_arrive_producer_consumer") else { return };
    let body = "\tshr.u32 %r0, %mi0, 5;\n\tsetp.eq.u32 %p0, %r0, 0;\n\
                \tshl.b32 %r1, %mi0, 2;\n\tmov.u32 %r2, sh;\n\tadd.u32 %r2, %r2, %r1;\n\
                \t@!%p0 bra CONS;\n\
                \tst.shared.u32 [%r2], %a0;\n\tbar.arrive 1, 64;\n\tmov.u32 %o0, %a1;\n\
                \tbar.sync 2, 32;\n\
                \tmov.u32 %r3, 6;\n\tmov.u32 %r4, 64;\n\tbarrier.sync %r3, %r4;\n\tld.shared.u32 %o1, [%r2+128];\n\
                \tbra DONE;\n\
                CONS:\n\tbar.sync 1, 64;\n\tld.shared.u32 %o0, [%r2+-128];\n\
                \tst.shared.u32 [%r2], %a1;\n\tmov.u32 %r3, 6;\n\tbar.cta.arrive %r3, %mi2;\n\tmov.u32 %o1, %a0;\n\
                DONE:\n\tbar.sync 0;\n";
    let cases = [("bar.arrive producer/consumer", m(2, 2, DECLS, body, 311))];
    check_without_nvidia_o0(t, &cases);
}

/// `cp.async` with a source size: registers (random sizes 0..=width, among them the Triton
/// `selp` idiom under a divergent guard) and immediates, `.ca`/`.cg`, 4, 8 and 16 bytes; the
/// copied bytes come from the thread's inputs, the rest of each copy is zero.
#[test]
fn cp_async_source_size_zero_fills() {
    let Some(t) = oracle::tools_or_skip("cp_async_source_size_zero_fills") else { return };
    let body = "\tshl.b32 %r1, %mi0, 6;\n\tmov.u32 %r2, sh;\n\tadd.u32 %r2, %r2, %r1;\n\
                \trem.u32 %r3, %a4, 17;\n\trem.u32 %r4, %a5, 9;\n\trem.u32 %r5, %a6, 5;\n\
                \tsetp.lt.u32 %p1, %a7, 0x80000000;\n\tselp.b32 %r6, 16, 0, %p1;\n\
                \tcp.async.cg.shared.global [%r2], [%mrd3], 16, %r3;\n\
                \tcp.async.ca.shared.global [%r2+16], [%mrd3+16], 8, %r4;\n\
                \tcp.async.ca.shared.global [%r2+24], [%mrd3+4], 4, %r5;\n\
                \tcp.async.ca.shared.global [%r2+28], [%mrd3+8], 4, 3;\n\
                \tcp.async.ca.shared.global [%r2+32], [%mrd3], 16, 11;\n\
                \tcp.async.ca.shared.global [%r2+48], [%mrd3+8], 8, 5;\n\
                \t@%p1 cp.async.cg.shared.global [%r2+48], [%mrd3+16], 16, %r6;\n\
                \tcp.async.commit_group;\n\tcp.async.wait_group 0;\n\tbar.sync 0;\n\
                \tld.shared.v4.u32 {%o0, %o1, %o2, %o3}, [%r2];\n\
                \tld.shared.v4.u32 {%o4, %o5, %o6, %o7}, [%r2+16];\n\
                \tld.shared.v4.u32 {%o8, %o9, %o10, %o11}, [%r2+32];\n\
                \tld.shared.v4.u32 {%o12, %o13, %o14, %o15}, [%r2+48];\n";
    let cases = [
        ("cp.async source sizes", m(8, 16, DECLS, body, 321)),
        ("cp.async source sizes, other inputs", m(8, 16, DECLS, body, 322)),
    ];
    micro::check_all(t, &cases, true);
}
