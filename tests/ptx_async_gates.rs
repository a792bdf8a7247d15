//! The asynchronous-copy family in the front end against ptxas: compound opcodes (`st.async`,
//! `red.async`, `st.bulk`), `cp.reduce.async.bulk{.tensor}`, `cp.async.bulk{.prefetch}{.tensor}`,
//! `tensormap.*`, `pmevent.mask`, `tcgen05.commit` — accepted where ptxas accepts them, and their
//! SM / PTX-version gates with ptxas's feature names and order. One module per (target,
//! version) holds every line, so one ptxas run judges them all; our front end's stderr must
//! equal ptxas's byte for byte.

mod sema_lines;

use ptxas_rs::ptx::sema;

const LINES: &[&str] = &[
    "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r5], %r1, [mb];",
    "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%r5], {%r1,%r2}, [mb];",
    "st.async.mbarrier::complete_tx::bytes.b64 [%r5], %rd1, [mb];",
    "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r5], %r2, [mb];",
    "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r5], %r2, [mb];",
    "st.bulk.weak.shared::cta [%r5], 16, 0;",
    "st.bulk [%rd5], 16, 0;",
    "pmevent.mask 1;",
    "tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd5;",
    "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [sb], 2048;",
    "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd6, {%r4}], [sb];",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sb], [%rd1], 16, [mb];",
    "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [sb], 16;",
    "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sb], [%rd1, {%r1}], [mb];",
    "cp.async.bulk.prefetch.L2.global [%rd1], 16;",
    "cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%rd1, {%r1}];",
    "cvt.pack.sat.s16.s32 %r3, %r1, %r2;",
    "cvt.pack.sat.u8.s32.b32 %r3, %r1, %r2, %r4;",
];

/// (target, `.version`) pairs: below and at the gates.
const SETTINGS: &[(&str, &str)] =
    &[("sm_80", "8.7"), ("sm_90", "7.8"), ("sm_90", "8.7"), ("sm_90a", "8.7"), ("sm_100a", "8.7")];

fn module(target: &str, version: &str) -> String {
    let header = format!(
        ".version {version}\n.target {target}\n.address_size 64\n.shared .align 16 .b8 sb[256];\n\
         .shared .align 8 .b64 mb;\n"
    );
    sema_lines::one_kernel(&header, "\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<9>;\n", LINES)
}

#[test]
fn async_family_matches_ptxas() {
    // Without the tools: on sm_100a at 8.7 every line is valid PTX (measured with ptxas).
    let text = module("sm_100a", "8.7");
    let ours = sema::check_source(text.as_bytes(), &sema::Options::new("a.ptx", "sm_100a"));
    assert!(!ours.failed, "{}", ours.stderr());
    let Some(tools) = oracle::tools_or_skip("async_family_matches_ptxas") else { return };
    for (target, version) in SETTINGS {
        let text = module(target, version);
        let ours = sema::check_source(text.as_bytes(), &sema::Options::new("a.ptx", target));
        let theirs = tools
            .ptxas_run(oracle::PtxInput::Text { name: "a.ptx", text: &text }, &["-arch", target])
            .expect("ptxas runs");
        assert_eq!(ours.stderr(), theirs.stderr, "{target} .version {version}");
    }
}
