//! Every PTX fence form (`membar.*`, `fence.*`) against NVIDIA's ptxas: a probe kernel
//! `st.global; FENCE; st.global` compiled by ptxas 13.0 (`-arch sm_90a -O0`) and by us (at -O0
//! and -O3); the SASS between the two stores, as nvdisasm prints our and their cubins, must be
//! the same sequence of fence instructions (`ori::fence`'s table). Address arithmetic and
//! moves around the fence are ignored, and so is `fence.proxy.alias`'s run-time choice between
//! its two `MEMBAR`s (ptxas branches on a driver flag with `ULDC`/`UP2UR`/`BRA.U`; we issue
//! both).
//!
//! Also checked on our cubins: nvdisasm decodes every word, and the scoreboards ptxas relies on
//! are there at -O3 (`MEMBAR.*.CTA` with a read scoreboard that the next instruction waits
//! on, `FENCE.VIEW.ASYNC.*` with a write scoreboard).

mod common;

use oracle::{PtxInput, tools_or_skip};
use ptxas_rs::target::Target;
use ptxas_rs::{backend, ptx};

const FORMS: &[&str] = &[
    "membar.cta",
    "membar.gl",
    "membar.sys",
    "fence.sc.cta",
    "fence.sc.gpu",
    "fence.sc.cluster",
    "fence.sc.sys",
    "fence.acq_rel.cta",
    "fence.acq_rel.gpu",
    "fence.acq_rel.cluster",
    "fence.acq_rel.sys",
    "fence.cta",
    "fence.gpu",
    "fence.cluster",
    "fence.sys",
    "fence.proxy.async",
    "fence.proxy.async.shared::cluster",
    "fence.proxy.async.shared::cta",
    "fence.proxy.async.global",
    "fence.mbarrier_init.release.cluster",
    "fence.acquire.cluster",
    "fence.release.cluster",
    "fence.proxy.alias",
    "fence.proxy.tensormap::generic.release.cta",
    "fence.proxy.tensormap::generic.release.cluster",
    "fence.proxy.tensormap::generic.release.gpu",
    "fence.proxy.tensormap::generic.release.sys",
];

fn probe(form: &str) -> String {
    format!(
        ".version 8.3\n.target sm_90a\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{{\n .reg .b64 %rd<3>;\n ld.param.u64 %rd1, [p];\n\
         st.global.u32 [%rd1], 1;\n {form};\n st.global.u32 [%rd1+4], 2;\n ret;\n}}\n"
    )
}

/// The fence instructions between the first two `STG`s of `k` (opcode and modifiers only).
fn between_stores(listing: &oracle::disasm::Listing) -> Vec<String> {
    let f = listing.function("k").expect("kernel k");
    let texts: Vec<&str> = f.instructions.iter().map(|i| i.text.as_str()).collect();
    let first = texts.iter().position(|t| t.starts_with("STG")).expect("first STG");
    let second = first + 1 + texts[first + 1..].iter().position(|t| t.starts_with("STG")).expect("second STG");
    texts[first + 1..second]
        .iter()
        .map(|t| t.split_whitespace().next().unwrap_or("").to_string())
        .filter(|op| {
            ["MEMBAR", "ERRBAR", "CGAERRBAR", "CCTL", "FENCE", "NOP"].iter().any(|p| op.split('.').next() == Some(*p))
        })
        .collect()
}

#[test]
fn fence_forms_match_ptxas() {
    let Some(t) = tools_or_skip("fence_forms_match_ptxas") else { return };
    let per_form = common::par::par_map(FORMS, |form| {
        let mut diffs = Vec::new();
        let text = probe(form);
        let out = t.ptxas_run(PtxInput::Text { name: "p.ptx", text: &text }, &["-arch", "sm_90a", "-O0"]).unwrap();
        let theirs = between_stores(&t.disassemble(&out.cubin.expect("ptxas wrote a cubin")).unwrap());
        let ast = ptx::parse(&text, "p.ptx").unwrap();
        for level in [0u8, 3] {
            let opts = backend::Options {
                opt_level: level,
                target: Target::from_arch("sm_90a").unwrap(),
                ..backend::Options::default()
            };
            let ours = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("{form} -O{level}: {e:?}"));
            let listing = t.disassemble(&ours.cubin).unwrap_or_else(|e| panic!("{form} -O{level}: nvdisasm: {e}"));
            let mine = between_stores(&listing);
            if mine != theirs {
                diffs.push(format!("{form} -O{level}: ours {mine:?}, ptxas {theirs:?}"));
            }
            if level == 3 {
                let f = listing.function("k").unwrap();
                let ctl: Vec<(String, ptxas_rs::sass::Control)> =
                    f.instructions.iter().map(|i| (i.text.clone(), ptxas_rs::sass::Control::unpack(i.word))).collect();
                for (j, (text, c)) in ctl.iter().enumerate() {
                    if text.starts_with("MEMBAR") && text.ends_with(".CTA") {
                        let k = c.read_sb.unwrap_or_else(|| panic!("{form}: {text} without a read scoreboard"));
                        // The next memory access, fence, NOP or exit waits on it (moves need not).
                        let (nt, next) = ctl[j + 1..]
                            .iter()
                            .find(|(t, _)| ["ST", "LD", "FENCE", "NOP", "EXIT", "BAR"].iter().any(|p| t.starts_with(p)))
                            .expect("an instruction after the fence");
                        assert_eq!(next.wait >> k & 1, 1, "{form}: {nt} after {text} does not wait on SB{k}");
                    }
                    if text.starts_with("FENCE.VIEW") {
                        assert!(c.write_sb.is_some(), "{form}: {text} without a write scoreboard");
                    }
                }
            }
        }
        diffs
    });
    let diffs: Vec<String> = per_form.into_iter().flatten().collect();
    assert!(diffs.is_empty(), "fence sequences differ from ptxas's:\n{}", diffs.join("\n"));
}
