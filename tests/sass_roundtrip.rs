//! Round trip over everything NVIDIA's ptxas emits for the sm_90 / sm_90a corpus: for every
//! instruction, our decoder either succeeds or reports the opcode as unsupported; when it
//! decodes, our printer must equal nvdisasm's text, our encoder must reproduce all 128 bits, and
//! parsing the text (plus the word's control bits) must encode to the same word.
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
const MIN_COVERED: &[(&str, usize)] = &[("sm_90", 21_500), ("sm_90a", 215)];

#[test]
fn sm90_corpus_roundtrip() {
    let Some(t) = oracle::tools_or_skip("sm90_corpus_roundtrip") else { return };
    let mut failures = Vec::new();
    for &(arch, floor) in MIN_COVERED {
        let tables = sass::tables_for(arch).expect("sm_90 tables");
        let seen = corpus_instructions(t, arch);
        let (mut covered, mut parsed, mut parse_lossy) = (0usize, 0usize, 0usize);
        let mut opcodes = BTreeSet::new();
        let mut covered_ops = BTreeSet::new();
        let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
        let label = |_: i64| Some("LABEL".to_string());
        for s in &seen {
            let op = opcode_of(&s.text);
            opcodes.insert(op.clone());
            let inst = match tables.decode(s.word) {
                Ok(i) => i,
                Err(DecodeError::UnknownModifiers { .. }) => {
                    *unsupported.entry(format!("{op} (modifiers)")).or_default() += 1;
                    continue;
                }
                Err(_) => {
                    *unsupported.entry(op).or_default() += 1;
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
                match tables.parse(&s.text, s.offset) {
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
        println!("{arch}: unsupported: {}", uns.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "));
        assert!(covered >= floor, "{arch}: coverage regressed: {covered} < {floor}");
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}
