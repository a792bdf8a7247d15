//! Shared by the `sass_*` tests (included with `#[path]`):
//! compiling the corpus of an arch (sm_90, sm_90a, sm_80, sm_86, sm_89) with NVIDIA's ptxas
//! and disassembling it.
#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/wild_files.rs"]
mod wild;

use std::sync::Mutex;

/// One instruction of a ptxas-compiled corpus kernel.
#[derive(Debug, Clone)]
pub struct Seen {
    /// Kernel file name.
    pub file: String,
    /// Function (kernel or device function) name.
    pub function: String,
    /// Byte offset in its function.
    pub offset: u64,
    /// nvdisasm text.
    pub text: String,
    /// Word.
    pub word: u128,
}

/// The corpus files for `arch` (exact: `sm_90` does not include `sm_90a`).
pub fn corpus_for(arch: &str) -> Vec<std::path::PathBuf> {
    common::corpus_ptx().into_iter().filter(|c| c.arch == arch).map(|c| c.path).collect()
}

/// Compiles every corpus file of `arch` and returns all instructions.
///
/// With `SASS_CORPUS_CACHE=<dir>` set, the result is read from / written to
/// `<dir>/<arch>.tsv` (a developer convenience for iterating on tables; CI does not set it).
pub fn corpus_instructions(t: &oracle::Tools, arch: &str) -> Vec<Seen> {
    let cache = std::env::var_os("SASS_CORPUS_CACHE").map(|d| std::path::PathBuf::from(d).join(format!("{arch}.tsv")));
    if let Some(text) = cache.as_ref().and_then(|c| std::fs::read_to_string(c).ok()) {
        return text
            .lines()
            .filter_map(|l| {
                let mut it = l.splitn(5, '\t');
                let (file, function, offset, word, text) = (it.next()?, it.next()?, it.next()?, it.next()?, it.next()?);
                Some(Seen {
                    file: file.into(),
                    function: function.into(),
                    offset: offset.parse().ok()?,
                    word: u128::from_str_radix(word, 16).ok()?,
                    text: text.into(),
                })
            })
            .collect();
    }
    let all = compile_corpus(t, arch);
    if let Some(c) = cache {
        let text: String = all
            .iter()
            .map(|s| format!("{}\t{}\t{}\t{:032x}\t{}\n", s.file, s.function, s.offset, s.word, s.text))
            .collect();
        let _ = std::fs::create_dir_all(c.parent().unwrap());
        let _ = std::fs::write(c, text);
    }
    all
}

fn compile_corpus(t: &oracle::Tools, arch: &str) -> Vec<Seen> {
    let files: Vec<(std::path::PathBuf, String, &str)> = corpus_for(arch)
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (p, name, "")
        })
        .collect();
    compile_files(t, arch, &files)
}

/// The wild corpus's sources whose NVIDIA code the SASS layer is checked on (real producers'
/// PTX; `corpus/wild/build.sh` builds them into the oracle cache): Triton kernels, and nvcc's
/// `-G` and `-lineinfo` builds of the corpus's CUDA sources.
pub const WILD_SOURCES: [&str; 3] = ["nvcc-G", "nvcc-lineinfo", "triton"];

/// The PTX `.target` whose wild files an arch compiles: sm_80 PTX for the sm_80 family, sm_90
/// PTX for sm_90 and the Blackwell arches (ptxas compiles PTX of an older target), sm_90a PTX
/// (Triton's Hopper kernels) for sm_90a only; none for sm_75 (no wild file targets it).
fn wild_target(arch: &str) -> Option<&'static str> {
    match arch {
        "sm_80" | "sm_86" | "sm_89" => Some("sm_80"),
        "sm_90" | "sm_100" | "sm_120" => Some("sm_90"),
        "sm_90a" => Some("sm_90a"),
        _ => None,
    }
}

/// NVIDIA's code for `arch` of the wild corpus's [`WILD_SOURCES`]: every `every`-th file (in
/// sorted order) whose `.target` is [`wild_target`]`(arch)`, compiled by NVIDIA's ptxas at
/// -O3, the `-G` builds at -O0 (ptxas refuses to optimise debug PTX). Builds the corpus's parts
/// first (cached); empty when they cannot be built (the caller decides whether that is a skip).
pub fn wild_instructions(t: &oracle::Tools, arch: &str, every: usize) -> Vec<Seen> {
    let Some(target) = wild_target(arch) else { return Vec::new() };
    let failed = wild::build(t.root(), &["nvcc", "triton"]);
    assert!(failed.is_empty() || !oracle::required(), "building the wild corpus failed: {failed:?}");
    let files: Vec<(std::path::PathBuf, String, &str)> = wild::list()
        .into_iter()
        .filter(|f| WILD_SOURCES.contains(&f.source.as_str()))
        .filter(|f| std::fs::read_to_string(&f.path).is_ok_and(|s| common::ptx_target(&s).as_deref() == Some(target)))
        .step_by(every.max(1))
        .map(|f| {
            let level = if f.source == "nvcc-G" { "-O0" } else { "-O3" };
            (f.path, f.id, level)
        })
        .collect();
    compile_files(t, arch, &files)
}

/// Compiles each (file, its name in [`Seen::file`], `-O` level or "" for ptxas's default, -O3)
/// for `arch` with NVIDIA's ptxas
/// and returns every instruction of the cubins, sorted by (file, function, offset).
fn compile_files(t: &oracle::Tools, arch: &str, files: &[(std::path::PathBuf, String, &str)]) -> Vec<Seen> {
    let out = Mutex::new(Vec::new());
    let errs = common::par::par_check(files, |(path, name, level)| {
        let path = path.as_path();
        // No `-O` for ptxas's default: the corpus's runs stay the oracle memo's earlier ones.
        let args: Vec<&str> = ["-arch", arch, level].into_iter().filter(|a| !a.is_empty()).collect();
        let res = t
            .ptxas_run(oracle::PtxInput::File { path, cwd: None }, &args)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let Some(cubin) = res.cubin else { return Err(format!("{}: ptxas produced no cubin", path.display())) };
        let listing = t.disassemble(&cubin).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = name.clone();
        let mut v = Vec::new();
        for f in listing.functions {
            for i in f.instructions {
                v.push(Seen {
                    file: file.clone(),
                    function: f.name.clone(),
                    offset: i.offset,
                    text: i.text,
                    word: i.word,
                });
            }
        }
        out.lock().unwrap().push(v);
        Ok(())
    });
    assert!(errs.is_empty(), "corpus compilation failed: {errs:?}");
    let mut all: Vec<Seen> = out.into_inner().unwrap().into_iter().flatten().collect();
    all.sort_by(|a, b| (&a.file, &a.function, a.offset).cmp(&(&b.file, &b.function, b.offset)));
    all
}

/// nvdisasm text with cubin branch labels (`` `(.L_x_3) ``) replaced by `` `(LABEL) ``.
///
/// Also drops nvdisasm's trailing `(*"BRANCH_TARGETS .L_x_8,.L_x_5"*)` comment on `BRX`: it
/// comes from the cubin's indirect-branch attribute, not from the instruction word.
pub fn normalize_labels(text: &str) -> String {
    let text = match text.find("(*\"BRANCH_TARGETS") {
        Some(i) => text[..i].trim_end(),
        None => text,
    };
    match text.find("`(") {
        Some(i) => match text[i..].find(')') {
            Some(j) => format!("{}`(LABEL){}", &text[..i], &text[i + j + 1..]),
            None => text.to_string(),
        },
        None => text.to_string(),
    }
}

/// The mnemonic base of an nvdisasm text (`@P0 IMAD.MOV.U32 R1, ...` → `IMAD`).
pub fn opcode_of(text: &str) -> String {
    let t = text.trim();
    let t = if t.starts_with('@') { t.split_once(' ').map_or(t, |x| x.1) } else { t };
    t.split([' ', '.']).next().unwrap_or("").to_string()
}

/// A small deterministic xorshift generator.
pub struct XorShift(pub u64);
impl XorShift {
    /// Next 64 random bits.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    /// A value below `n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}
