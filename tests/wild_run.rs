//! The wild corpus, run (issue 23): every wild kernel with a launch spec (`corpus/wild/specs/`,
//! and the corpus's own `corpus/cuda/<k>/<k>.run.toml` for the nvcc builds) runs on the Ori
//! interpreter (the lowered PTX), and in the SASS emulator with hazard checking on NVIDIA
//! ptxas's `-O3` cubin and on ours; the outputs must agree (bit-exact unless the spec's buffer
//! declares a tolerance). Each case's verdict must equal the committed ratchet
//! `corpus/wild/run-expected.tsv`, which lists every case that does not agree with its cause
//! (`tests/common/wild_run.rs` documents the verdicts); a change either way fails until
//! re-blessed (`PTXAS_RS_BLESS=1`, the command is printed).
//!
//! `cargo test` runs a deterministic sample (per source at most [`SAMPLE_PER_SOURCE`] cases,
//! without the long emulations of [`HEAVY`]); `-- --ignored wild_run_full` runs every case.

#[path = "common/wild.rs"]
mod wild;
#[path = "common/wild_run.rs"]
mod wild_run;

use std::time::Duration;

/// Cases per source in the sample.
const SAMPLE_PER_SOURCE: usize = 8;
/// Stems left out of the sample: their emulation takes long (matmuls and attention).
const HEAVY: &[&str] = &[
    "attn_bwd_dkdv",
    "attn_bwd_dq",
    "attn_fwd_causal_d128",
    "attn_fwd_d64",
    "bmm_f16",
    "matmul_bf16_128x64x64",
    "matmul_bf16_64x128x32_f32out",
    "matmul_f16_128x128x32",
    "matmul_f16_128x256x64_w8",
    "matmul_f16_64x64x32",
    "matmul_fp8e4_128x128x64",
    "matmul_fp8e5_64x64x64",
    "matmul_int8",
    "matmul_splitk_f16",
    "matmul_tf32_64x64x32",
    "matmul_tf32x3_64x64x32",
    "persistent_matmul_f16",
];

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
    let specs = wild_run::specs();
    let (cases, stale) = wild_run::cases(&all, &specs);
    assert!(stale.is_empty(), "{test}: launch specs that match no wild file:\n{}", stale.join("\n"));
    let cases = if full { cases } else { wild_run::sample(&cases, SAMPLE_PER_SOURCE, HEAVY) };
    let only: Option<Vec<String>> =
        std::env::var("PTXAS_RS_WILD_ONLY").ok().map(|v| v.split(',').map(str::to_owned).collect());
    let cases: Vec<_> = match &only {
        Some(o) => cases.into_iter().filter(|c| o.iter().any(|x| c.id().contains(x.as_str()))).collect(),
        None => cases,
    };
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-wild-run-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let runner = wild_run::Runner {
        ptxas: tools.ptxas(),
        ours: env!("CARGO_BIN_EXE_ptxas-rs").into(),
        ours_prefix: Vec::new(),
        scratch: scratch.clone(),
        limit: Duration::from_secs(600),
    };
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    let start = std::time::Instant::now();
    let runs = runner.run_all(&cases, threads);
    let _ = std::fs::remove_dir_all(&scratch);
    let mut by_source: std::collections::BTreeMap<&str, [usize; 3]> = Default::default();
    for r in &runs {
        let e = by_source.entry(&r.case.file.source).or_default();
        e[0] += 1;
        e[1] += r.interpreted as usize;
        e[2] += (r.verdict == "agree") as usize;
        println!("{}\t{}", r.case.id(), r.verdict);
    }
    println!("\n{:<20} {:>6} {:>12} {:>10}", "source", "cases", "interpreted", "all agree");
    for (s, [n, i, a]) in &by_source {
        println!("{s:<20} {n:>6} {i:>12} {a:>10}");
    }
    println!("({} cases in {:.1} s)", runs.len(), start.elapsed().as_secs_f64());
    let mut expected = wild_run::RunExpectations::load();
    if std::env::var("PTXAS_RS_BLESS").is_ok_and(|v| v == "1") {
        expected.bless(&runs, full && only.is_none());
        expected.save();
        println!("blessed {} cases into {}", runs.len(), wild_run::RunExpectations::path().display());
    }
    let diffs = expected.compare(&runs);
    let cmd = if full {
        "PTXAS_RS_BLESS=1 cargo test --release --test wild_run -- --ignored wild_run_full"
    } else {
        "PTXAS_RS_BLESS=1 cargo test --release --test wild_run wild_run_sample"
    };
    assert!(
        diffs.is_empty(),
        "{test}: {} of {} cases differ from corpus/wild/run-expected.tsv:\n{}\n\
         After a fix (or a triaged new disagreement: write its cause), re-bless with:\n    {cmd}",
        diffs.len(),
        runs.len(),
        diffs.join("\n")
    );
}

/// The deterministic sample, in `cargo test`.
#[test]
fn wild_run_sample() {
    check("wild_run_sample", false);
}

/// Every case.
#[test]
#[ignore = "every wild launch spec takes long; run with --ignored"]
fn wild_run_full() {
    check("wild_run_full", true);
}

/// Every committed wild spec parses, names a kernel, and its file name follows the layout
/// (`<stem>.run.toml`, or `<stem>.<kernel>.run.toml` naming the spec's kernel).
#[test]
fn wild_specs_are_well_formed() {
    let specs = wild_run::specs();
    let own: Vec<_> =
        specs.iter().filter(|s| s.path.starts_with(env!("CARGO_MANIFEST_DIR").to_string() + "/corpus/wild")).collect();
    assert!(own.len() >= 50, "only {} wild specs", own.len());
    for s in own {
        let spec =
            interp::launch::LaunchSpec::from_path(&s.path).unwrap_or_else(|e| panic!("{}: {e}", s.path.display()));
        let name = s.path.file_name().unwrap().to_string_lossy().into_owned();
        let base = name.strip_suffix(".run.toml").unwrap();
        if let Some((_, k)) = base.split_once('.') {
            assert_eq!(k, spec.kernel, "{}: the file name names another kernel", s.path.display());
        }
    }
}

/// Specs pair with the files of their source and stem only; a spec for a missing file is stale.
#[test]
fn cases_pair_by_source_and_stem() {
    let file = |id: &str| {
        let (source, _) = id.split_once('/').unwrap();
        wild::WildFile { id: id.into(), source: source.into(), path: id.into(), arch: "sm_90".into(), bytes: 1 }
    };
    let spec = |sources: &[&str], stem: &str| wild_run::WildSpec {
        sources: sources.iter().map(|s| s.to_string()).collect(),
        stem: stem.into(),
        path: format!("/nowhere/{stem}.run.toml").into(),
    };
    let files = [
        file("triton/add_f32.sm_80.ptx"),
        file("triton/add_f32.sm_90.ptx"),
        file("nvcc-G/add_f32.sm_90.ptx"),
        file("triton/add_f32x.sm_90.ptx"),
    ];
    let specs = [spec(&["triton"], "add_f32"), spec(&["nvcc-G", "nvcc-lineinfo"], "gone"), spec(&["clang"], "absent")];
    let (cases, stale) = wild_run::cases(&files, &specs);
    let ids: Vec<&str> = cases.iter().map(|c| c.file.id.as_str()).collect();
    assert_eq!(ids, ["triton/add_f32.sm_80.ptx", "triton/add_f32.sm_90.ptx"]);
    assert_eq!(
        stale,
        ["/nowhere/gone.run.toml"],
        "a spec of a present source matching nothing is stale; of an absent source, not"
    );
}
