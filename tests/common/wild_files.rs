//! The wild corpus's files: where `corpus/wild/build.sh` builds them, building them, and
//! listing them with the arch each compiles for. Shared by `wild.rs` (which re-exports it) and
//! the SASS round trip (`tests/sass_support`), which needs only the files.
//!
//! Invariant: the arch a file is compiled for depends only on its `.target` ([`arch_for`]);
//! every listing is sorted.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The parts of `build.sh`, in build order.
pub const PARTS: [&str; 4] = ["triton", "nvcc", "clang", "wheels"];

/// Where the corpus is built: `PTXAS_RS_WILD`, else `~/.cache/ptxas-rs/wild`.
pub fn wild_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("PTXAS_RS_WILD") {
        return PathBuf::from(d);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/tmp"));
    home.join(".cache/ptxas-rs/wild")
}

/// Runs `corpus/wild/build.sh PART` for each part with NVIDIA's tools at `nv_root`; returns the
/// parts that failed with the script's last lines of output.
pub fn build(nv_root: &Path, parts: &[&str]) -> Vec<(String, String)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/wild/build.sh");
    let mut failed = Vec::new();
    for part in parts {
        let out = Command::new("bash")
            .arg(&script)
            .arg(part)
            .env("PTXAS_RS_NVIDIA_TOOLS", nv_root)
            .env("PTXAS_RS_WILD", wild_dir())
            .stdin(Stdio::null())
            .output();
        match out {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                let err = String::from_utf8_lossy(&o.stderr);
                let tail: Vec<&str> = err.lines().rev().take(5).collect();
                failed.push((part.to_string(), tail.into_iter().rev().collect::<Vec<_>>().join("\n")));
            }
            Err(e) => failed.push((part.to_string(), format!("cannot run bash: {e}"))),
        }
    }
    failed
}

/// One PTX file of the wild corpus.
#[derive(Debug, Clone)]
pub struct WildFile {
    /// `<source>/<file name>`: the key of `expected.tsv`.
    pub id: String,
    /// The source directory: `triton`, `nvcc-G`, `nvcc-lineinfo`, `clang`, `wheel-<package>`.
    pub source: String,
    pub path: PathBuf,
    /// The `-arch` both compilers get ([`arch_for`] of the file's `.target`).
    pub arch: String,
    pub bytes: u64,
}

/// The `.target` of a PTX text (its first arch).
pub fn ptx_target(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix(".target"))
        .and_then(|rest| rest.split([',', ' ', '\t']).find(|w| !w.is_empty()).map(str::to_string))
}

/// The arch a file with this `.target` is compiled for: sm_90a for sm_90a code, sm_90 for any
/// target up to sm_90 (ptxas compiles older targets for newer archs), the target itself above.
pub fn arch_for(target: &str) -> String {
    if target == "sm_90a" {
        return target.to_string();
    }
    let n: u32 = target.trim_start_matches("sm_").trim_end_matches(['a', 'f']).parse().unwrap_or(90);
    if n <= 90 { "sm_90".to_string() } else { target.to_string() }
}

/// Every `.ptx` of the corpus, sorted by id.
pub fn list() -> Vec<WildFile> {
    let root = wild_dir();
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(&root) else { return out };
    let mut sources: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "wheels-dl")
        .collect();
    sources.sort();
    for source in sources {
        let dir = root.join(&source);
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(&dir).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "ptx"));
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let arch = arch_for(&ptx_target(&text).unwrap_or_else(|| "sm_90".into()));
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            out.push(WildFile { id: format!("{source}/{name}"), source: source.clone(), path, arch, bytes });
        }
    }
    out
}
