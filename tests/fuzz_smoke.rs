//! Smoke runs of the fuzz targets' checks (`ptxas_rs::fuzzing`) inside `cargo test`: every PTX
//! file of the corpus and the error corpus, and deterministic mutations of them (byte flips,
//! deletions, duplications, splices, truncations), a few thousand inputs in all. The long runs
//! are `cargo +nightly fuzz run <target>` (see fuzz/README.md).

mod common;

use common::{Rng, mutate};

#[test]
fn ptx_parse_smoke() {
    let mut seeds: Vec<Vec<u8>> = common::corpus_ptx().iter().map(|c| std::fs::read(&c.path).unwrap()).collect();
    seeds.extend(common::error_corpus().iter().map(|p| std::fs::read(p).unwrap()));
    seeds.push(Vec::new());
    for s in &seeds {
        ptxas_rs::fuzzing::ptx_parse(s);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = seeds.len();
    for _ in 0..3000 {
        let a = &seeds[rng.below(seeds.len())];
        let b = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, a, b);
        ptxas_rs::fuzzing::ptx_parse(&input);
        runs += 1;
    }
    assert!(runs >= 3000);
}
