//! The wild corpus (`corpus/wild/`, built into the oracle cache by `corpus/wild/build.sh`):
//! real producers' PTX — Triton kernels written for this repo, nvcc -G / -lineinfo builds of the
//! corpus, clang/LLVM NVPTX output and PTX shipped in PyPI wheels — judged file by file against
//! NVIDIA's ptxas: ptxas's verdict for the file's arch, our front end's verdict, our sm_90
//! compile, and nvdisasm on our cubin.
//!
//! Today ptxas-rs fails on many of these files, so the check is a ratchet: the verdicts must equal
//! the committed `corpus/wild/expected.tsv`. A regression fails; an improvement fails too until it
//! is re-blessed (`PTXAS_RS_BLESS=1`, the command is printed). Producing a cubin for a file ptxas
//! rejects always fails, blessed or not.
//!
//! `cargo test` checks a deterministic sample (at most 12 files of at most 512 KB per source); the
//! whole corpus is the `--ignored` test. Both write the coverage report to
//! `~/.cache/ptxas-rs/wild/report-{sample,full}.txt` and print it.

#[path = "common/wild.rs"]
mod wild;
#[path = "common/wild_run.rs"]
mod wild_run;

use std::time::Duration;

fn check(test: &str, full: bool) {
    let Some(tools) = oracle::tools_or_skip(test) else { return };
    let failed = wild::build(tools.root(), &wild::PARTS);
    for (part, why) in &failed {
        if oracle::required() {
            panic!("{test}: building the wild corpus's {part} part failed:\n{why}");
        }
        eprintln!("SKIPPED: {test}: wild corpus part {part} could not be built:\n{why}");
    }
    let all = wild::list();
    if all.is_empty() {
        assert!(!oracle::required(), "{test}: the wild corpus is empty");
        eprintln!("SKIPPED: {test}: no wild corpus");
        return;
    }
    let files = if full { all } else { wild::sample(&all, wild::SAMPLE_PER_SOURCE, wild::SAMPLE_MAX_BYTES) };
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-wild-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let judge = wild::Judge {
        ptxas: tools.ptxas(),
        nvdisasm: tools.nvdisasm(),
        ours: env!("CARGO_BIN_EXE_ptxas-rs").into(),
        ours_prefix: Vec::new(),
        scratch: scratch.clone(),
        limit: Duration::from_secs(if full { 900 } else { 120 }),
    };
    let (verdicts, report, report_path, written) = wild::judge_and_report(&judge, &files, full);
    written.unwrap();
    println!("{report}\n(report written to {})", report_path.display());

    let invalid: Vec<String> = verdicts
        .iter()
        .filter(|v| v.accepts_invalid())
        .map(|v| format!("{}: ptxas rejects ({}), we produce a cubin", v.file.id, v.ptxas_first))
        .collect();
    let mut expected = wild::Expectations::load();
    let bless = std::env::var("PTXAS_RS_BLESS").is_ok_and(|v| v == "1");
    if bless {
        expected.bless(&verdicts, full);
        expected.save();
        println!("blessed {} rows into {}", verdicts.len(), wild::Expectations::path().display());
    }
    assert!(invalid.is_empty(), "{test}: we accept what ptxas rejects:\n{}", invalid.join("\n"));
    let diffs = expected.compare(&verdicts);
    let cmd = if full {
        "PTXAS_RS_BLESS=1 cargo test --release --test wild_corpus -- --ignored wild_corpus_full"
    } else {
        "PTXAS_RS_BLESS=1 cargo test --release --test wild_corpus wild_corpus_sample"
    };
    assert!(
        diffs.is_empty(),
        "{test}: {} of {} files differ from corpus/wild/expected.tsv:\n{}\n\
         If these are improvements (or the corpus changed on purpose), re-bless with:\n    {cmd}",
        diffs.len(),
        verdicts.len(),
        diffs.join("\n")
    );
}

/// The deterministic sample, in `cargo test`.
#[test]
fn wild_corpus_sample() {
    check("wild_corpus_sample", false);
}

/// Every file of the wild corpus.
#[test]
#[ignore = "the whole wild corpus takes long; run with --ignored"]
fn wild_corpus_full() {
    check("wild_corpus_full", true);
}

/// The error classes are stable: no paths, lines, numbers or entry names.
#[test]
fn error_classes_are_normalised() {
    let text = ".visible .entry add_kernel(\n.param .u64 p)\n{\n}\n.extern .func (.param .b32 r) vprintf(\n);";
    let c = wild::error_class(
        "ptxas /root/x/a.ptx, line 84; error   : ptxas-rs: lowering of 'add_kernel': unsupported destination form",
        text,
    );
    assert_eq!(c, "error : ptxas-rs: lowering of '<fn>': unsupported destination form");
    let c = wild::error_class("ptxas fatal   : Unresolved extern function 'vprintf'", text);
    assert_eq!(c, "fatal : Unresolved extern function 'vprintf'");
    let c = wild::error_class(
        "ptxas error   : ptxas-rs: emission of 'add_kernel': @add_kernel: `R0 = LD.U8 generic[R8:R9]`: sm_90 has no LD with modifiers {E U8} at 0x1f0",
        text,
    );
    assert_eq!(c, "error : ptxas-rs: emission of '<fn>': @<fn>: `LD.U8`: sm_90 has no LD with modifiers {E U8} at N");
    let c = wild::error_class("ptxas /x.ptx, line 3; fatal   : Parsing error near '.b32': syntax error", text);
    assert_eq!(c, "fatal : Parsing error near '.b32': syntax error");
    assert_eq!(wild::arch_for("sm_80"), "sm_90");
    assert_eq!(wild::arch_for("sm_90a"), "sm_90a");
    assert_eq!(wild::arch_for("sm_100"), "sm_100");
}

/// The ratchet fails on every kind of difference and names it.
#[test]
fn ratchet_reports_differences() {
    use wild::{Expectations, Ours, Verdict, WildFile};
    let file = |id: &str| WildFile {
        id: id.into(),
        source: "triton".into(),
        path: format!("/nowhere/{id}").into(),
        arch: "sm_90".into(),
        bytes: 1,
    };
    let verdict = |id: &str, ptxas_ok: bool, ours: Ours| Verdict {
        file: file(id),
        ptxas_ok,
        ptxas_first: String::new(),
        ours,
        our_first: String::new(),
        our_line: None,
        kernels: 1,
    };
    let before = [
        verdict("t/a", true, Ours::CompileFails("x".into())),
        verdict("t/b", true, Ours::Compiles),
        verdict("t/c", false, Ours::Rejects("y".into())),
        verdict("t/d", true, Ours::Rejects("z".into())),
    ];
    let mut exp = Expectations::default();
    exp.bless(&before, true);
    assert!(exp.compare(&before).is_empty());
    let after = [
        verdict("t/a", true, Ours::Compiles),
        verdict("t/b", true, Ours::Rejects("w".into())),
        verdict("t/c", false, Ours::Compiles),
        verdict("t/d", true, Ours::Rejects("other".into())),
        verdict("t/e", true, Ours::Compiles),
    ];
    let diffs = exp.compare(&after);
    let kinds: Vec<&str> = diffs.iter().map(|d| d.split(": ").nth(1).unwrap_or("")).collect();
    assert_eq!(
        kinds,
        ["IMPROVED", "REGRESSED", "REGRESSED", "CHANGED", "new file (not in expected.tsv)"],
        "{diffs:#?}"
    );
    assert!(after[2].accepts_invalid() && !after[0].accepts_invalid());
    let changed_ptxas = [verdict("t/a", false, Ours::CompileFails("x".into()))];
    assert!(exp.compare(&changed_ptxas)[0].contains("corpus changed"));
}
