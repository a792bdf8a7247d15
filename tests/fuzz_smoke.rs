//! Smoke runs of the fuzz targets' checks (`ptxas_rs::fuzzing`) inside `cargo test`: every PTX
//! file of the corpus and the error corpus, and deterministic mutations of them (byte flips,
//! deletions, duplications, splices, truncations), a few thousand inputs in all. The long runs
//! are `cargo +nightly fuzz run <target>` (see fuzz/README.md).

mod common;

/// xorshift64*: a fixed, seedable mutation source (no dependency, reproducible failures).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(6) {
            0 if at < v.len() => v[at] ^= 1 << rng.below(8),
            1 if at < v.len() => {
                let end = (at + rng.below(16)).min(v.len());
                v.drain(at..end);
            }
            2 => {
                let b = *b"{}()[];,.%@!<>\"/*0x".get(rng.below(19)).unwrap();
                v.insert(at, b);
            }
            3 if !other.is_empty() => {
                let from = rng.below(other.len());
                let end = (from + rng.below(64)).min(other.len());
                v.splice(at..at, other[from..end].iter().copied());
            }
            4 => v.truncate(at),
            _ => v.insert(at, rng.next() as u8),
        }
    }
    v
}

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
