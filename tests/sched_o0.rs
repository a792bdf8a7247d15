//! The -O0 control-word recipe against NVIDIA's own -O0 code: every sm_90 corpus kernel is
//! compiled by NVIDIA ptxas `-O0 -arch=sm_90`, every instruction word of every `.text.*`
//! section is decoded, its control bits are cleared and recomputed by `sched::o0`, and the
//! result is compared with NVIDIA's bits (all 21: stall, yield, scoreboards, wait mask, reuse).
//! Words our tables do not decode at all (unknown opcode key) are counted and skipped; the
//! recipe is per instruction plus the padding tail, so the others are compared one by one.
//!
//! Report (agreement figure and the differences by kind):
//! `cargo test --test sched_o0 -- --nocapture`.

#[path = "common/mod.rs"]
mod common;

use ptxas_rs::cubin::Cubin;
use ptxas_rs::sass::{self, Control, Instruction};
use ptxas_rs::sched::{self, Recipe};
use ptxas_rs::target::Target;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// A `.text.*` section: its name and its words, decoded where our tables can.
type Section = (String, Vec<(u128, Option<Instruction>)>);

/// Decoded words of every `.text.*` section of `cubin` (None: not decodable).
fn sections(cubin: &[u8]) -> Vec<Section> {
    let tables = sass::tables_for("sm_90").unwrap();
    let c = Cubin::parse(cubin).unwrap();
    c.sections
        .iter()
        .filter(|s| s.name.starts_with(".text."))
        .map(|s| {
            let words = s.data.chunks_exact(16).map(|b| u128::from_le_bytes(b.try_into().unwrap()));
            let insts = words.map(|w| (w, tables.decode(w).or_else(|_| tables.decode_unchecked(w)).ok())).collect();
            (s.name.clone(), insts)
        })
        .collect()
}

#[test]
fn o0_recipe_matches_nvidia() {
    let Some(t) = oracle::tools_or_skip("o0_recipe_matches_nvidia") else { return };
    let files: Vec<_> = common::corpus_ptx().into_iter().filter(|c| c.arch == "sm_90").map(|c| c.path).collect();
    let stats = Mutex::new((0usize, 0usize, 0usize, BTreeMap::<String, usize>::new()));
    let errs = common::par::par_check(&files, |path| {
        let out = t
            .ptxas_run(oracle::PtxInput::File { path, cwd: None }, &["-O0", "-arch", "sm_90"])
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let cubin = out.cubin.ok_or_else(|| format!("{}: no cubin: {}", path.display(), out.stderr))?;
        let mut local = (0usize, 0usize, 0usize, BTreeMap::<String, usize>::new());
        for (_, words) in sections(&cubin) {
            // The recipe is per instruction (plus the tail), so words our tables do not decode
            // are skipped and counted; the others are compared.
            let mut tail = words.len();
            while tail > 0 && words[tail - 1].1.as_ref().is_some_and(|i| i.form.base == "NOP") {
                tail -= 1;
            }
            if !(tail > 0 && words[tail - 1].1.as_ref().is_some_and(sched::class::is_self_branch)) {
                tail = words.len();
            } else {
                tail -= 1;
            }
            for (k, (_, inst)) in words.iter().enumerate() {
                let Some(inst) = inst else {
                    local.2 += 1;
                    continue;
                };
                let mut one = vec![inst.clone()];
                one[0].control = Control::default();
                sched::assign(&mut one, usize::from(k < tail), Recipe::O0, &Target::default());
                let (o, n) = (one[0].control, inst.control);
                local.0 += 1;
                if o == n {
                    local.1 += 1;
                } else {
                    let what = format!(
                        "{}{}: ours {} nvidia {}",
                        inst.form.base,
                        if k >= tail { " (tail)" } else { "" },
                        o,
                        n
                    );
                    *local.3.entry(what).or_default() += 1;
                }
            }
        }
        let mut s = stats.lock().unwrap();
        s.0 += local.0;
        s.1 += local.1;
        s.2 += local.2;
        for (k, v) in local.3 {
            *s.3.entry(k).or_default() += v;
        }
        Ok(())
    });
    assert!(errs.is_empty(), "{errs:?}");
    let (total, same, skipped, diffs) = stats.into_inner().unwrap();
    println!(
        "-O0 control words: {same} of {total} instructions equal NVIDIA's ({skipped} undecodable words not compared)"
    );
    for (k, v) in &diffs {
        println!("  {v:6}  {k}");
    }
    assert!(total > 10_000, "too few instructions compared: {total}");
    assert_eq!(same, total, "differences: {diffs:#?}");
}
