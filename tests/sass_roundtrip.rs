//! Round trip over everything NVIDIA's ptxas emits for the sm_90 / sm_90a, sm_80 / sm_86 /
//! sm_89, sm_75, sm_100 and sm_120 corpus: for every
//! instruction, our decoder either succeeds or reports the opcode as unsupported; when it
//! decodes, our printer must equal nvdisasm's text, our encoder must reproduce all 128 bits, and
//! parsing the text (plus the word's control bits) must encode to the same word.
//!
//! The same round trip runs on NVIDIA's code of real producers' PTX (the wild corpus: Triton,
//! nvcc -G at -O0, nvcc -lineinfo), which the corpus-learned tables never saw
//! (`wild_code_roundtrip`, a sample; `wild_code_roundtrip_full`): its undecodable words are held
//! to the ratchet `tests/sass_wild.expected`, and every decoded word must print and encode exactly.
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

/// What one arch's round trip found.
struct ArchReport {
    /// Instructions verified bit-exact (print + encode).
    covered: usize,
    /// Kernels (file, function) whose every instruction is verified.
    clean: usize,
    /// Undecodable words per class (`OP` or `OP (modifiers)`).
    unsupported: BTreeMap<String, usize>,
}

/// Round-trips every instruction of `seen` on `arch`'s tables: prints the report lines, pushes
/// each print/encode mismatch to `failures`.
fn roundtrip(arch: &str, seen: &[Seen], failures: &mut Vec<String>) -> ArchReport {
    let tables = sass::tables_for(arch).expect("tables for every arch listed");
    let (mut covered, mut parsed, mut parse_lossy) = (0usize, 0usize, 0usize);
    let mut opcodes = BTreeSet::new();
    let mut covered_ops = BTreeSet::new();
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let label = |_: i64| Some("LABEL".to_string());
    // Per kernel (file, function): the unsupported opcodes it contains.
    let mut kernels: BTreeMap<(&str, &str), BTreeSet<String>> = BTreeMap::new();
    let mut examples = String::new();
    for s in seen {
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
        // nvdisasm names a target with a label only where the listing has one (an absolute
        // target, `RET.ABS.NODEC R20 0x0`, prints as its number).
        let ours = tables.print(&inst, s.offset, if s.text.contains("`(") { Some(&label) } else { None });
        // A relocated operand prints as nvdisasm's relocation expression (`32@lo((k +
        // .L_x_4@srel))`), which the word alone does not hold: only the encoding is compared.
        let relocated = ["@lo(", "@hi(", "@srel"].iter().any(|m| s.text.contains(m));
        if ours != normalize_labels(&s.text) && !relocated {
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
        if !s.text.contains("`(") && !relocated {
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
    ArchReport { covered, clean, unsupported }
}

fn assert_no_mismatch(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

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
        let seen = corpus_instructions(t, arch);
        let r = roundtrip(arch, &seen, &mut failures);
        assert!(r.covered >= floor, "{arch}: coverage regressed: {} < {floor}", r.covered);
        let kfloor = MIN_CLEAN_KERNELS.iter().find(|k| k.0 == arch).map_or(0, |k| k.1);
        assert!(r.clean >= kfloor, "{arch}: fully decodable kernels regressed: {} < {kfloor}", r.clean);
    }
    assert_no_mismatch(&failures);
}

/// The archs whose wild-corpus code is round-tripped (see [`sass_support::wild_instructions`]).
const WILD_ARCHS: [&str; 7] = ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120"];
/// The archs of the sample (sm_86/sm_89 share sm_80's family table, sm_120 most of sm_100's).
const WILD_SAMPLE_ARCHS: [&str; 4] = ["sm_80", "sm_90", "sm_90a", "sm_100"];
/// The sample `cargo test` round-trips: every this-many-th wild file of an arch's target.
const WILD_SAMPLE_EVERY: usize = 12;

/// NVIDIA's code of real producers' PTX (Triton, nvcc -G at -O0, nvcc -lineinfo; the wild
/// corpus), which the corpus-learned tables never saw: every word that decodes must print as
/// nvdisasm prints it and re-encode to the same bits; the words that do not decode yet, by class
/// and arch, must equal the committed ratchet `tests/sass_wild.expected` (a class fixed or a
/// new one fails until re-blessed with `PTXAS_RS_BLESS=1`).
fn wild_roundtrip(test: &str, every: usize) {
    let Some(t) = oracle::tools_or_skip(test) else { return };
    let mut failures = Vec::new();
    let mut got = String::new();
    let archs: &[&str] = if every == WILD_SAMPLE_EVERY { &WILD_SAMPLE_ARCHS } else { &WILD_ARCHS };
    for &arch in archs {
        let seen = wild_instructions(t, arch, every);
        if seen.is_empty() {
            assert!(!oracle::required(), "{test}: no wild-corpus code for {arch}");
            eprintln!("SKIPPED: {test}: no wild corpus for {arch}");
            return;
        }
        let r = roundtrip(arch, &seen, &mut failures);
        for (class, n) in &r.unsupported {
            got.push_str(&format!("{arch}\t{class}\t{n}\n"));
        }
    }
    assert_no_mismatch(&failures);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sass_wild.expected");
    let header = "# tests/sass_roundtrip.rs wild_code_roundtrip: NVIDIA words of the wild corpus's sample that do not\n\
                  # decode yet (arch, class, count). Re-bless: PTXAS_RS_BLESS=1 cargo test --test sass_roundtrip wild_code\n";
    if every != WILD_SAMPLE_EVERY {
        println!("{got}");
        return;
    }
    if std::env::var("PTXAS_RS_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, format!("{header}{got}")).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    let expected: String = expected.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    assert_eq!(got, expected, "{test}: undecodable wild words differ from {}", path.display());
}

/// The deterministic sample, in `cargo test`.
#[test]
fn wild_code_roundtrip() {
    wild_roundtrip("wild_code_roundtrip", WILD_SAMPLE_EVERY);
}

/// Every wild file (its undecodable classes are printed, not compared).
#[test]
#[ignore = "compiles the whole wild corpus for seven archs"]
fn wild_code_roundtrip_full() {
    wild_roundtrip("wild_code_roundtrip_full", 1);
}
