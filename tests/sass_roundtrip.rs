//! Round trip over everything NVIDIA's ptxas emits for the sm_90 / sm_90a, sm_80 / sm_86 /
//! sm_89, sm_75, sm_100 and sm_120 corpus: for every
//! instruction, our decoder either succeeds or reports the opcode as unsupported; when it
//! decodes, our printer must equal nvdisasm's text, our encoder must reproduce all 128 bits, and
//! parsing the text (plus the word's control bits) must encode to the same word.
//!
//! Also reported per arch: kernels fully decodable (every instruction verified) / total, and
//! for each unsupported opcode how many kernels it blocks alone / together with others.
//! Reproduce the report: `cargo test --test sass_roundtrip -- --nocapture`.
//!
//! Branch targets: cubin listings name them with labels (`` `(.L_x_3) ``); the comparison
//! replaces the label name by a placeholder on both sides (the numeric form is checked exactly
//! by `sass_random`). Parsing is checked on instructions without labelled targets.

#[path = "sass_support/mod.rs"]
mod sass_support;

use ptxas_rs::sass::{self, DecodeError};
use sass_support::*;
use std::collections::{BTreeMap, BTreeSet};

/// Coverage floors: instructions verified bit-exact must not drop below these.
const MIN_COVERED: &[(&str, usize)] = &[
    ("sm_90", 25_192),
    ("sm_90a", 248),
    ("sm_80", 22_144),
    ("sm_86", 22_016),
    ("sm_89", 22_016),
    ("sm_75", 20_600),
    ("sm_100", 19_248),
    ("sm_120", 21_336),
];

/// Floors of kernels (file, function) whose every instruction is verified — what the emulator
/// needs to run a kernel.
const MIN_CLEAN_KERNELS: &[(&str, usize)] = &[
    ("sm_90", 124),
    ("sm_90a", 1),
    ("sm_80", 100),
    ("sm_86", 99),
    ("sm_89", 99),
    ("sm_75", 94),
    ("sm_100", 100),
    ("sm_120", 100),
];

#[test]
fn sm90_corpus_roundtrip() {
    let Some(t) = oracle::tools_or_skip("sm90_corpus_roundtrip") else { return };
    let mut failures = Vec::new();
    // `SASS_ARCHS=sm_100,sm_120` checks only those (a developer convenience; CI leaves it unset).
    let only = std::env::var("SASS_ARCHS").ok();
    for &(arch, floor) in MIN_COVERED {
        if only.as_deref().is_some_and(|o| !o.split(',').any(|a| a == arch)) {
            continue;
        }
        let tables = sass::tables_for(arch).expect("tables for every arch listed");
        let seen = corpus_instructions(t, arch);
        let (mut covered, mut parsed, mut parse_lossy) = (0usize, 0usize, 0usize);
        let mut opcodes = BTreeSet::new();
        let mut covered_ops = BTreeSet::new();
        let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
        let label = |_: i64| Some("LABEL".to_string());
        // Per kernel (file, function): the unsupported opcodes it contains.
        let mut kernels: BTreeMap<(&str, &str), BTreeSet<String>> = BTreeMap::new();
        let mut examples = String::new();
        for s in &seen {
            let op = opcode_of(&s.text);
            opcodes.insert(op.clone());
            let blockers = kernels.entry((s.file.as_str(), s.function.as_str())).or_default();
            let inst = match tables.decode(s.word) {
                Ok(i) => i,
                Err(e) => {
                    let what = match e {
                        DecodeError::UnknownModifiers { .. } => format!("{op} (modifiers)"),
                        _ => op.clone(),
                    };
                    examples.push_str(&format!("{what}\t{:#034x}\t{}\n", s.word, s.text));
                    blockers.insert(what.clone());
                    *unsupported.entry(what).or_default() += 1;
                    continue;
                }
            };
            let ours = tables.print(&inst, s.offset, Some(&label));
            if ours != normalize_labels(&s.text) {
                failures.push(format!(
                    "{arch} {}@{:#x} {:#034x}: nvdisasm {:?} ours {:?}",
                    s.file, s.offset, s.word, s.text, ours
                ));
                continue;
            }
            match tables.encode(&inst) {
                Ok(w) if w == s.word => {}
                Ok(w) => {
                    failures.push(format!(
                        "{arch} {:?}: re-encoded {:#034x} != {:#034x} (xor {:#x})",
                        s.text,
                        w,
                        s.word,
                        w ^ s.word
                    ));
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{arch} {:?}: encode error {e}", s.text));
                    continue;
                }
            }
            covered += 1;
            covered_ops.insert(op);
            if !s.text.contains("`(") {
                match tables.parse(&normalize_labels(&s.text), s.offset) {
                    Ok(mut p) => {
                        p.control = inst.control;
                        match tables.encode(&p) {
                            Ok(w) if w == s.word => parsed += 1,
                            // The text does not carry every bit (e.g. a hidden field): counted.
                            _ => parse_lossy += 1,
                        }
                    }
                    Err(_) => parse_lossy += 1,
                }
            }
        }
        let clean = kernels.values().filter(|b| b.is_empty()).count();
        // Kernels each opcode blocks, and kernels it alone blocks (fixing it unblocks them).
        let mut blocks: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for b in kernels.values() {
            for op in b {
                let e = blocks.entry(op.as_str()).or_default();
                e.0 += 1;
                if b.len() == 1 {
                    e.1 += 1;
                }
            }
        }
        let mut blocks: Vec<_> = blocks.into_iter().collect();
        blocks.sort_by(|a, b| (b.1.1, b.1.0).cmp(&(a.1.1, a.1.0)).then(a.0.cmp(b.0)));
        if let Some(dir) = std::env::var_os("SASS_CORPUS_CACHE") {
            let _ = std::fs::write(std::path::Path::new(&dir).join(format!("{arch}.unsupported.tsv")), &examples);
        }
        let mut uns: Vec<_> = unsupported.iter().collect();
        uns.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        println!(
            "{arch}: {} instructions checked, {} verified bit-exact (print+encode), {} distinct opcodes seen, {} covered, parse->encode exact {}, parse lossy/failed {}, mismatches {}",
            seen.len(),
            covered,
            opcodes.len(),
            covered_ops.len(),
            parsed,
            parse_lossy,
            failures.len()
        );
        println!("{arch}: kernels fully decodable {clean} / {}", kernels.len());
        println!("{arch}: unsupported: {}", uns.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "));
        println!(
            "{arch}: kernels blocked (alone/with others): {}",
            blocks.iter().map(|(k, (all, alone))| format!("{k} {alone}/{all}")).collect::<Vec<_>>().join(", ")
        );
        assert!(covered >= floor, "{arch}: coverage regressed: {covered} < {floor}");
        let kfloor = MIN_CLEAN_KERNELS.iter().find(|k| k.0 == arch).map_or(0, |k| k.1);
        assert!(clean >= kfloor, "{arch}: fully decodable kernels regressed: {clean} < {kfloor}");
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}
