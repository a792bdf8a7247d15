//! The committed corpus PTX is what `corpus/regen.sh` produces with the pinned nvcc: a sample of
//! kernels (one per category prefix) is regenerated into a scratch directory and compared byte
//! for byte with the committed files, so a hand edit or a stale file cannot hide in the corpus.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

#[test]
fn committed_ptx_matches_regeneration() {
    let Some(tools) = oracle::tools_or_skip("committed_ptx_matches_regeneration") else { return };
    let cuda = common::corpus_dir().join("cuda");
    // The first kernel of each category prefix (`f32_`, `atom_`, `tc_`, ...).
    let mut sample: BTreeMap<String, String> = BTreeMap::new();
    let mut names: Vec<String> =
        std::fs::read_dir(&cuda).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    for n in names {
        let prefix = n.split('_').next().unwrap_or("").to_string();
        sample.entry(prefix).or_insert(n);
    }
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-regen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let out = Command::new("bash")
        .arg(common::corpus_dir().join("regen.sh"))
        .args(sample.values())
        .env("PTXAS_RS_NVIDIA_TOOLS", tools.root())
        .env("REGEN_OUT", &scratch)
        .output()
        .unwrap();
    assert!(out.status.success(), "regen.sh failed: {}", String::from_utf8_lossy(&out.stderr));
    let mut compared = 0;
    let mut differ = Vec::new();
    for name in sample.values() {
        let committed = common::corpus_ptx().into_iter().filter(|c| c.path.starts_with(cuda.join(name)));
        let mut archs = 0;
        for c in committed {
            archs += 1;
            let fresh = scratch.join(name).join(c.path.file_name().unwrap());
            if std::fs::read(&fresh).ok() != std::fs::read(&c.path).ok() {
                differ.push(c.path.display().to_string());
            }
            compared += 1;
        }
        let generated = std::fs::read_dir(scratch.join(name)).unwrap().count();
        if generated != archs {
            differ.push(format!("{name}: regen.sh made {generated} PTX files, the corpus has {archs}"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(differ.is_empty(), "committed PTX differs from regen.sh's output:\n{}", differ.join("\n"));
    println!("{compared} PTX files of {} kernels regenerated identically", sample.len());
}
