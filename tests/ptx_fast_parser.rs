//! The fast parser (`src/ptx/fast.rs`) against the reference (the pest grammar): wherever the
//! fast path returns a tree, the reference must accept the same input and build the same tree
//! with the same spans (compared through `Debug`, which prints spans; `==` ignores them).
//! Inputs: every corpus and error-corpus file, deterministic byte mutations of them, and
//! generated token soup aimed at the grammar's choice points (dual `p|q`, `(list)` vs
//! `(expr)`, `sym[i]`, `generic(...)`, `?:`, initializers, sections, directives).
//! Also: every corpus file takes the fast path (else the speed-up is lost silently), and
//! `parse_bytes` (fast, then reference) gives exactly the reference's result everywhere.

mod common;

use common::{Rng, mutate};

use ptxas_rs::ptx::parser::{parse_bytes, parse_bytes_fast_only, parse_bytes_reference};

/// Checks one input; returns (fast path produced a tree, reference accepted). `glue` also checks
/// that `parse_bytes` (fast path, then reference) returns exactly the reference's result.
fn check(input: &[u8], what: &str, glue: bool) -> (bool, bool) {
    let fast = parse_bytes_fast_only(input);
    let reference = parse_bytes_reference(input, "t.ptx");
    if let Some(m) = &fast {
        match &reference {
            Ok(r) => assert_eq!(
                format!("{m:#?}"),
                format!("{r:#?}"),
                "{what}: fast and reference trees differ for:\n{}",
                String::from_utf8_lossy(input)
            ),
            Err(d) => {
                panic!("{what}: fast path accepted, reference rejects ({d}):\n{}", String::from_utf8_lossy(input))
            }
        }
    }
    if glue {
        let combined = parse_bytes(input, "t.ptx");
        match (&combined, &reference) {
            (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{what}: parse_bytes differs"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{what}: diagnostics differ"),
            _ => panic!("{what}: parse_bytes and the reference disagree on acceptance"),
        }
    }
    (fast.is_some(), reference.is_ok())
}

const SYMS: &[&str] = &["%r1", "%rd2", "%p1", "a", "_x", "$L__BB0_1", "%tid", "generic", "genericx", "foo"];
const COMPS: &[&str] = &["", "", "", ".x", " .y", ".reg", ".5", ".b32"];
const LITS: &[&str] = &[
    "0",
    "42",
    "0x1FU",
    "0b101",
    "017",
    "1.5",
    ".5",
    "1.",
    "1e5",
    "1.5e",
    "0f3F800000",
    "0d3FF0000000000000",
    "0x",
    "7U",
];
const BINOPS: &[&str] =
    &["+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&", "||", "?", ":"];
const SPACE: &[&str] = &[" ", "", "  ", "\n", " /* c */ ", "\t", " // c\n", "\n# 5 \"f\"\n"];

fn sp(r: &mut Rng) -> &'static str {
    if r.below(3) == 0 { r.pick(SPACE) } else { " " }
}

fn expr(r: &mut Rng, depth: u32) -> String {
    let mut s = String::new();
    for _ in 0..r.below(3).saturating_sub(1) {
        s += r.pick(&["-", "!", "~"]);
        s += sp(r);
    }
    s += &match r.below(if depth > 2 { 3 } else { 5 }) {
        0 | 1 => format!("{}{}", r.pick(SYMS), r.pick(COMPS)),
        2 => r.pick(LITS).to_string(),
        3 => format!("({}{})", expr(r, depth + 1), sp(r)),
        _ => format!("generic{}({})", sp(r), r.pick(SYMS)),
    };
    if r.below(3) == 0 {
        s += sp(r);
        s += r.pick(BINOPS);
        s += sp(r);
        s += &expr(r, depth + 1);
    }
    s
}

fn operand(r: &mut Rng) -> String {
    match r.below(10) {
        0 => "_".into(),
        1 => format!("{}{}|{}{}", r.pick(SYMS), sp(r), sp(r), r.pick(SYMS)),
        2 => format!("{{{}, _,{}{}}}", expr(r, 1), sp(r), expr(r, 1)),
        3 => format!("[{}{}+{}{}]", r.pick(SYMS), sp(r), sp(r), expr(r, 1)),
        4 => format!("[{}, {{{}, {}}}]", r.pick(SYMS), expr(r, 1), expr(r, 1)),
        5 => format!("({}{}, {})", expr(r, 1), sp(r), expr(r, 1)),
        6 => format!("{}{}[{}]", r.pick(SYMS), sp(r), expr(r, 1)),
        7 => format!("[{}]", r.pick(LITS)),
        _ => expr(r, 0),
    }
}

fn statement(r: &mut Rng) -> String {
    match r.below(16) {
        0 => format!("{}{}:", r.pick(SYMS), sp(r)),
        1 => format!(".reg{}.b32 %r<{}>;", sp(r), r.pick(LITS)),
        2 => format!(".local .align 8 .b8 arr[{}][];", expr(r, 1)),
        3 => format!(".loc 1 {} 3, function_name {}{}+ 4, inlined_at 1 2 3", r.pick(LITS), r.pick(SYMS), sp(r)),
        4 => "{ ret; }".into(),
        5 => format!(".pragma \"nounroll\"{}, \"x\\\"y\";", sp(r)),
        6 => "proto: .callprototype (.param .b32 _) _ (.param .b64 _) .noreturn;".into(),
        7 => format!(".calltargets f{}, g;", sp(r)),
        8 => ".extern .func (.reg .b32 r) ext (.param .u64 .ptr .global .align 16 p) .noreturn;".into(),
        9 => format!(".global .v4 .f32 t = {{ {}, x = {}, {{1, 2}} }};", expr(r, 1), expr(r, 1)),
        _ => {
            let mut s = String::new();
            if r.below(4) == 0 {
                s += r.pick(&["@%p1 ", "@!%p1 ", "@ ! %p1 "]);
            }
            s += r.pick(&["add", "ld", "mov", "bra", "call", "tex", "_op"]);
            for _ in 0..r.below(3) {
                s += sp(r);
                s += r.pick(&[".u32", ".shared::cta", ".L2::cache_hint", ".5x", ".5", ".loc", ".v4"]);
            }
            let n = r.below(4);
            for i in 0..n {
                s += if i == 0 { " " } else { ", " };
                s += &operand(r);
            }
            s += sp(r);
            s += ";";
            s
        }
    }
}

fn soup(r: &mut Rng) -> String {
    let mut s = String::from(".version 9.0\n.target sm_90\n.address_size 64\n");
    if r.below(4) == 0 {
        s += ".section .debug_str { $L1: .b8 1, 2 .b32 .debug_abbrev, x+4 }\n";
    }
    if r.below(4) == 0 {
        s += ".global .attribute(.managed) .align 4 .u32 g[2] = {1, 2};\n";
    }
    s += ".visible .entry k(.param .u64 p, .param .align 8 .b8 q[16]) .maxntid 128, 1 .minnctapersm 2\n{\n";
    for _ in 0..1 + r.below(6) {
        s += "\t";
        s += &statement(r);
        s += "\n";
    }
    s += "}\n";
    s
}

#[test]
fn fast_parser_matches_reference() {
    let corpus = common::corpus_ptx();
    let mut seeds: Vec<Vec<u8>> = corpus.iter().map(|c| std::fs::read(&c.path).unwrap()).collect();
    // Every input first (the generator is sequential), then the checks on all cores.
    let corpus_ok = common::par::par_map(&corpus.iter().zip(&seeds).collect::<Vec<_>>(), |(c, s)| {
        check(s, &c.path.display().to_string(), false).0
    });
    let missed: Vec<String> =
        corpus.iter().zip(corpus_ok).filter(|(_, ok)| !ok).map(|(c, _)| c.path.display().to_string()).collect();
    assert!(missed.is_empty(), "corpus files not taking the fast path:\n{}", missed.join("\n"));
    // (kind, name, input, whether check also runs the slow comparison)
    let mut inputs: Vec<(&'static str, String, Vec<u8>, bool)> = Vec::new();
    for p in common::error_corpus() {
        let s = std::fs::read(&p).unwrap();
        inputs.push(("error corpus", p.display().to_string(), s.clone(), true));
        seeds.push(s);
    }
    let mut rng = Rng(0x005E_ED0F_FA57_0001);
    for i in 0..2000 {
        let a = &seeds[rng.below(seeds.len())];
        let b = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, a, b);
        inputs.push(("mutations", format!("mutation {i}"), input, i % 8 == 0));
    }
    for i in 0..3000 {
        let mut input = soup(&mut rng).into_bytes();
        if rng.below(3) == 0 {
            let other = seeds[rng.below(seeds.len())].clone();
            input = mutate(&mut rng, &input, &other);
        }
        inputs.push(("soup", format!("soup {i}"), input, i % 8 == 0));
    }
    let mut stats = std::collections::BTreeMap::<&str, (usize, usize, usize)>::new();
    let results = common::par::par_map(&inputs, |(_, name, input, slow)| check(input, name, *slow));
    for ((k, ..), (fast, ok)) in inputs.iter().zip(results) {
        let e = stats.entry(k).or_default();
        *e = (e.0 + fast as usize, e.1 + ok as usize, e.2 + 1);
    }
    eprintln!("fast path: corpus {n}/{n} (all accepted by the reference)", n = corpus.len());
    for (k, (fast, ok, n)) in &stats {
        eprintln!("fast path: {k}: {fast} fast / {ok} accepted by the reference / {n} inputs");
    }
    let (fast_soup, _, n_soup) = stats["soup"];
    // The generator must reach both outcomes, or it checks little.
    assert!(fast_soup > n_soup / 10 && fast_soup < n_soup * 9 / 10, "soup acceptance {fast_soup}/{n_soup}");
}
