//! Shared helpers of the integration tests: where the corpus is and what it holds.
#![allow(dead_code)]

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

/// Runs `f` over `items` on all cores, collecting the `Err` messages.
pub fn par_check<T: Sync>(items: &[T], f: impl Fn(&T) -> Result<(), String> + Sync) -> Vec<String> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if let Err(e) = f(item) {
                        failures.lock().unwrap().push(e);
                    }
                }
            });
        }
    });
    let mut v = failures.into_inner().unwrap();
    v.sort();
    v
}
