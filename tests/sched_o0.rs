//! The -O0 control-word recipe against NVIDIA's own -O0 code: for sm_90, sm_100, sm_120, sm_80
//! and sm_75, every corpus kernel of the arch is compiled by NVIDIA ptxas `-O0 -arch=sm_XX`,
//! every instruction word of every `.text.*` section is decoded, its control bits are cleared
//! and recomputed by `sched::o0` for that target (which instructions are variable latency is
//! the target's `HwFacts`), and the result is compared with NVIDIA's bits (all 21: stall,
//! yield, scoreboards, wait mask, reuse).
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
fn sections(cubin: &[u8], arch: &str) -> Vec<Section> {
    let tables = sass::tables_for(arch).unwrap();
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
    o0_recipe_matches_nvidia_on("sm_90", 10_000, &[]);
}

/// NVIDIA's -O0 code of `arch`'s corpus PTX against the recipe for `arch`'s target; at least
/// `min` instructions compared, every one equal but for the bases of `known` (differences
/// not modelled yet, reported), each of which must still differ somewhere (the list only
/// shrinks).
fn o0_recipe_matches_nvidia_on(arch: &str, min: usize, known: &[&str]) {
    let Some(t) = oracle::tools_or_skip("o0_recipe_matches_nvidia") else { return };
    let target = Target::from_arch(arch).unwrap();
    let files: Vec<_> = common::corpus_ptx().into_iter().filter(|c| c.arch == arch).map(|c| c.path).collect();
    let stats = Mutex::new((0usize, 0usize, 0usize, BTreeMap::<String, usize>::new()));
    let errs = common::par::par_check(&files, |path| {
        let out = t
            .ptxas_run(oracle::PtxInput::File { path, cwd: None }, &["-O0", "-arch", arch])
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let cubin = out.cubin.ok_or_else(|| format!("{}: no cubin: {}", path.display(), out.stderr))?;
        let mut local = (0usize, 0usize, 0usize, BTreeMap::<String, usize>::new());
        for (_, words) in sections(&cubin, arch) {
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
                sched::assign(&mut one, usize::from(k < tail), Recipe::O0, &target);
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
        "{arch} -O0 control words: {same} of {total} instructions equal NVIDIA's ({skipped} undecodable words not compared)"
    );
    for (k, v) in &diffs {
        println!("  {v:6}  {k}");
    }
    assert!(total > min, "too few instructions compared: {total}");
    let base = |k: &String| k.split([':', ' ']).next().unwrap_or_default().to_owned();
    let unexpected: Vec<&String> = diffs.keys().filter(|k| !known.contains(&base(k).as_str())).collect();
    assert!(unexpected.is_empty(), "differences: {unexpected:#?}");
    for b in known {
        assert!(diffs.keys().any(|k| base(k) == *b), "{arch}: {b} now equals NVIDIA's: drop it from the known list");
    }
}

/// Blackwell consumer: the same recipe, FP64 arithmetic variable latency
/// (`HwFacts::fp64_variable_latency`).
#[test]
fn o0_recipe_matches_nvidia_sm120() {
    o0_recipe_matches_nvidia_on("sm_120", 10_000, &[]);
}

/// Blackwell datacentre.
#[test]
fn o0_recipe_matches_nvidia_sm100() {
    o0_recipe_matches_nvidia_on("sm_100", 10_000, &[]);
}

/// The sm_80 family: FP64 arithmetic and `R2UR` variable latency; the `cp.async` group
/// (`LDGSTS` without a write scoreboard, `LDGDEPBAR` without a read one, `DEPBAR` waiting on
/// none) and the `NOP`/`WARPSYNC` of `bar.warp.sync` at stall 1 are sm_80's own and not
/// modelled yet (20 instructions of 68,480).
#[test]
fn o0_recipe_matches_nvidia_sm80() {
    o0_recipe_matches_nvidia_on("sm_80", 10_000, &["DEPBAR", "LDGDEPBAR", "LDGSTS", "NOP", "WARPSYNC"]);
}

/// Turing: FP64 arithmetic, `R2UR`, `HMMA` and `IMMA` variable latency.
#[test]
fn o0_recipe_matches_nvidia_sm75() {
    o0_recipe_matches_nvidia_on("sm_75", 10_000, &[]);
}
