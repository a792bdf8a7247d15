//! The committed corpus PTX is what `corpus/regen.sh` produces with the pinned nvcc: kernels are
//! regenerated into a scratch directory and compared byte for byte with the committed files, so
//! a hand edit or a stale file cannot hide in the corpus.
//!
//! The default run takes one kernel per category prefix (`f32_`, `atom_`, `tc_`, ...) and one
//! of its archs, rotating through the archs so that every arch is covered; the `--ignored` run
//! regenerates every kernel for every arch and also checks that `regen.sh` makes exactly the
//! committed set of files.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The committed PTX files of `name` (`corpus/cuda/<name>/<name>.<arch>.ptx`), sorted.
fn committed(cuda: &Path, name: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> =
        common::corpus_ptx().into_iter().map(|c| c.path).filter(|p| p.starts_with(cuda.join(name))).collect();
    v.sort();
    v
}

/// Regenerates `name` (only `arch` when given) into `scratch` and compares; the differences.
fn regenerate(tools: &oracle::Tools, cuda: &Path, scratch: &Path, name: &str, arch: Option<&str>) -> Vec<String> {
    let mut cmd = Command::new("bash");
    cmd.arg(common::corpus_dir().join("regen.sh"))
        .arg(name)
        .env("PTXAS_RS_NVIDIA_TOOLS", tools.root())
        .env("REGEN_OUT", scratch)
        // The test already runs kernels in parallel.
        .env("REGEN_JOBS", "1");
    if let Some(a) = arch {
        cmd.env("REGEN_ARCHS", a);
    }
    let out = cmd.output().unwrap();
    if !out.status.success() {
        return vec![format!("{name}: regen.sh failed: {}", String::from_utf8_lossy(&out.stderr))];
    }
    let mut differ = Vec::new();
    let files = committed(cuda, name);
    let checked: Vec<_> =
        files.iter().filter(|p| arch.is_none_or(|a| p.to_string_lossy().ends_with(&format!(".{a}.ptx")))).collect();
    for p in &checked {
        let fresh = scratch.join(name).join(p.file_name().unwrap());
        if std::fs::read(&fresh).ok() != std::fs::read(p).ok() {
            differ.push(p.display().to_string());
        }
    }
    let generated = std::fs::read_dir(scratch.join(name)).map_or(0, |d| d.count());
    if generated != checked.len() {
        differ.push(format!("{name}: regen.sh made {generated} PTX files, the corpus has {}", checked.len()));
    }
    differ
}

fn run(full: bool) {
    let Some(tools) = oracle::tools_or_skip("committed_ptx_matches_regeneration") else { return };
    let cuda = common::corpus_dir().join("cuda");
    let mut names: Vec<String> =
        std::fs::read_dir(&cuda).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    // (kernel, arch or every arch)
    let jobs: Vec<(String, Option<String>)> = if full {
        names.into_iter().map(|n| (n, None)).collect()
    } else {
        // The first kernel of each category prefix, with one of its archs in turn.
        let mut sample: BTreeMap<String, String> = BTreeMap::new();
        for n in names {
            let prefix = n.split('_').next().unwrap_or("").to_string();
            sample.entry(prefix).or_insert(n);
        }
        sample
            .into_values()
            .enumerate()
            .map(|(i, n)| {
                let archs: Vec<String> = committed(&cuda, &n)
                    .iter()
                    .filter_map(|p| p.file_name()?.to_str()?.strip_suffix(".ptx")?.rsplit('.').next().map(String::from))
                    .collect();
                let a = archs[i % archs.len()].clone();
                (n, Some(a))
            })
            .collect()
    };
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-regen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let differ: Vec<String> = common::par::par_map(&jobs, |(n, a)| regenerate(tools, &cuda, &scratch, n, a.as_deref()))
        .into_iter()
        .flatten()
        .collect();
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(differ.is_empty(), "committed PTX differs from regen.sh's output:\n{}", differ.join("\n"));
    let archs: std::collections::BTreeSet<_> = jobs.iter().filter_map(|(_, a)| a.clone()).collect();
    println!(
        "{} kernels regenerated identically (archs: {})",
        jobs.len(),
        if full { "all".into() } else { format!("{archs:?}") }
    );
}

#[test]
fn committed_ptx_matches_regeneration() {
    run(false);
}

#[test]
#[ignore = "minutes: every kernel for every arch"]
fn committed_ptx_matches_regeneration_full() {
    run(true);
}
