//! Every PTX file of the corpus (all archs, all hand-written files) parses; printing the tree and
//! parsing the print gives an equal tree (spans aside); printing is idempotent.

mod common;

use ptxas_rs::ptx;

fn roundtrip(path: &std::path::Path) -> Result<(), String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let m = ptx::parse_bytes(&bytes, &file).map_err(|d| format!("{name}: does not parse: {d}"))?;
    let printed = ptx::print(&m);
    let again = ptx::parse(&printed, "printed.ptx").map_err(|d| format!("{name}: print does not re-parse: {d}"))?;
    if again != m {
        return Err(format!("{name}: print -> parse changed the tree"));
    }
    let printed2 = ptx::print(&again);
    if printed2 != printed {
        return Err(format!("{name}: printing is not idempotent"));
    }
    Ok(())
}

#[test]
fn ptx_corpus_roundtrips() {
    let files = common::corpus_ptx();
    assert!(files.len() > 700, "corpus has {} PTX files", files.len());
    let failures = common::par::par_check(&files, |c| roundtrip(&c.path));
    let hand = files.iter().filter(|c| c.path.starts_with(common::corpus_dir().join("ptx"))).count();
    eprintln!(
        "round-tripped {} of {} corpus PTX files ({} nvcc, {} hand-written)",
        files.len() - failures.len(),
        files.len(),
        files.len() - hand,
        hand
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
