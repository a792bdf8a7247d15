//! Shared by the `sass_*` tests (included with `#[path]`):
//! compiling the corpus of an arch (sm_90, sm_90a, sm_80, sm_86, sm_89) with NVIDIA's ptxas
//! and disassembling it.
#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;

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
    let files = corpus_for(arch);
    let out = Mutex::new(Vec::new());
    let errs = common::par::par_check(&files, |path| {
        let res = t
            .ptxas_run(oracle::PtxInput::File { path, cwd: None }, &["-arch", arch])
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let Some(cubin) = res.cubin else { return Err(format!("{}: ptxas produced no cubin", path.display())) };
        let listing = t.disassemble(&cubin).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
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
