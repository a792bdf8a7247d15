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

/// `sass_decode` on words built from the sm_90, sm_80-family, sm_75, sm_100 and sm_120 tables (every form key and
/// modifier residue with random operand and control bits, so most of them decode) and on fully
/// random words.
#[test]
fn sass_decode_smoke() {
    for arch in ["sm_90", "sm_80", "sm_86", "sm_89", "sm_75", "sm_100", "sm_120"] {
        sass_decode_smoke_for(arch);
    }
}

fn sass_decode_smoke_for(arch: &str) {
    let tables = ptxas_rs::sass::tables_for(arch).expect("tables");
    let mut rng = Rng(0x243F_6A88_85A3_08D3);
    let mut wide = || (u128::from(rng.next()) << 64) | u128::from(rng.next());
    let mut data = Vec::new();
    let mut decoded = 0usize;
    for entry in tables.mods {
        let Some(form) = tables.form(entry.key) else { continue };
        let owned = !form.residue_mask() & ((1u128 << 105) - 1) & !0xfff;
        for _ in 0..4 {
            // Operand bits random, residue exact, control random (bits 126-127 clear).
            let control = wide() & (((1u128 << 21) - 1) << 105);
            let word = u128::from(entry.key) | entry.residue | (wide() & owned) | control;
            decoded += usize::from(tables.decode(word).is_ok());
            data.extend_from_slice(&word.to_le_bytes());
        }
    }
    for _ in 0..2000 {
        data.extend_from_slice(&wide().to_le_bytes());
    }
    for chunk in data.chunks(16 * 64) {
        ptxas_rs::fuzzing::sass_decode(chunk);
    }
    assert!(decoded > 1000, "{arch}: too few generated words decode ({decoded})");
}
