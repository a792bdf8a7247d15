//! Shared helpers of the integration tests: where the corpus is and what it holds.
#![allow(dead_code)]

pub mod par;

use std::path::{Path, PathBuf};

/// The repository's `corpus/` directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// A PTX file of the corpus and the arch it is meant for.
#[derive(Debug, Clone)]
pub struct CorpusPtx {
    /// Path of the file.
    pub path: PathBuf,
    /// `sm_XX[a|f]` for `-arch`.
    pub arch: String,
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// The `.target` of a PTX text (first target name), if any.
pub fn ptx_target(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix(".target"))
        .and_then(|rest| rest.split([',', ' ', '\t']).find(|w| !w.is_empty()).map(str::to_string))
}

/// Every PTX file of the corpus with its arch: `cuda/<k>/<k>.<arch>.ptx` (arch from the name)
/// and `ptx/<k>/<k>.ptx` (arch from its `.target`).
pub fn corpus_ptx() -> Vec<CorpusPtx> {
    let mut out = Vec::new();
    for dir in sorted_dirs(&corpus_dir().join("cuda")) {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            if let Some(arch) = file.strip_prefix(&format!("{name}.")).and_then(|r| r.strip_suffix(".ptx")) {
                out.push(CorpusPtx { arch: arch.to_string(), path });
            }
        }
    }
    for dir in sorted_dirs(&corpus_dir().join("ptx")) {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let path = dir.join(format!("{name}.ptx"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            let arch = ptx_target(&text).unwrap_or_else(|| "sm_75".into());
            out.push(CorpusPtx { path, arch });
        }
    }
    out
}

/// Every `corpus/errors/<name>.ptx`, sorted.
pub fn error_corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join("errors"))
        .map(|rd| {
            rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ptx")).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// xorshift64*: a fixed, seedable mutation source (no dependency, reproducible failures).
pub struct Rng(pub u64);
impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A value below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// True with probability `pct`%.
    pub fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    /// One element of `xs` (which must not be empty).
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// A deterministic mutation of `seed` (byte flips, deletions, insertions, splices from `other`,
/// truncation), as the fuzz smoke tests use.
pub fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
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
