//! Finding or installing NVIDIA's tools.
//!
//! Resolution order:
//! 1. `PTXAS_RS_NVIDIA_TOOLS=<dir>`: an existing install; `<dir>` holds either
//!    `nvidia/cu13/bin/ptxas` (a `pip install --target` tree) or `bin/ptxas` (a CUDA toolkit).
//!    Nothing is installed in this case.
//! 2. The cache: `<cache>/nvidia-<ptxas version>/`, where `<cache>` is `PTXAS_RS_CACHE_DIR`,
//!    else `$XDG_CACHE_HOME/ptxas-rs`, else `$HOME/.cache/ptxas-rs`. A complete install holds
//!    the marker file `.ptxas-rs-pins` whose content is exactly [`PINS`], one per line.
//! 3. Otherwise the wheels are installed there with `python3 -m pip install --target` (the
//!    interpreter is `PTXAS_RS_PYTHON`, else `python3`), into a temporary sibling directory that
//!    is renamed into place only when complete. An exclusive lock on `<cache>/install.lock` makes
//!    parallel test processes install once: the first installs, the others wait and reuse it.
//!
//! Invariant: the returned [`Tools`] always passed [`check_version`].

use crate::Tools;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned PyPI packages. ptxas and nvcc must be 13.0.88 (the release the spec documents);
/// cuobjdump and nvdisasm 13.2.51 are the oldest published and read 13.0 cubins.
pub const PINS: &[&str] = &[
    "nvidia-cuda-nvcc==13.0.88",
    "nvidia-nvvm==13.0.88",
    "nvidia-cuda-crt==13.0.88",
    "nvidia-cuda-runtime==13.0.88",
    "nvidia-cuda-cccl==13.0.85",
    "nvidia-cuda-cuobjdump==13.2.51",
    "nvidia-cuda-nvdisasm==13.2.51",
];

/// The text `ptxas --version` must contain.
pub const PTXAS_VERSION: &str = "V13.0.88";

/// Why the tools cannot be used.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Unavailable {
    /// `PTXAS_RS_NVIDIA_TOOLS` names a directory without the tools.
    #[error("PTXAS_RS_NVIDIA_TOOLS={0} holds neither nvidia/cu13/bin/ptxas nor bin/ptxas")]
    BadOverride(PathBuf),
    /// No cache directory could be determined or created.
    #[error("no usable cache directory: {0}")]
    NoCache(String),
    /// pip failed or is missing (no network, no Python).
    #[error("installing {pins} with pip failed: {detail}")]
    Install {
        /// The packages asked for.
        pins: String,
        /// The tail of pip's output, or why pip could not start.
        detail: String,
    },
    /// A tool is missing from the installed tree.
    #[error("{0} is missing after installation")]
    Missing(PathBuf),
    /// ptxas reports another version.
    #[error("{path} is not ptxas {PTXAS_VERSION}: its --version says {found:?}")]
    WrongVersion {
        /// The binary checked.
        path: PathBuf,
        /// What it printed.
        found: String,
    },
}

/// Locates the tools (override or cache) or installs them into the cache.
pub fn locate_or_install() -> Result<Tools, Unavailable> {
    if let Some(dir) = std::env::var_os("PTXAS_RS_NVIDIA_TOOLS") {
        let dir = PathBuf::from(dir);
        let tools = layout(&dir).ok_or_else(|| Unavailable::BadOverride(dir.clone()))?;
        check_version(&tools)?;
        return Ok(tools);
    }
    let cache = cache_dir()?;
    let target = cache.join(format!("nvidia-{}", PTXAS_VERSION.trim_start_matches('V')));
    if let Some(tools) = complete(&target) {
        check_version(&tools)?;
        return Ok(tools);
    }
    fs::create_dir_all(&cache).map_err(|e| Unavailable::NoCache(format!("{}: {e}", cache.display())))?;
    let lock_path = cache.join("install.lock");
    let lock =
        fs::File::create(&lock_path).map_err(|e| Unavailable::NoCache(format!("{}: {e}", lock_path.display())))?;
    lock.lock().map_err(|e| Unavailable::NoCache(format!("locking {}: {e}", lock_path.display())))?;
    // Another process may have finished the install while we waited for the lock.
    let result = match complete(&target) {
        Some(tools) => Ok(tools),
        None => install(&target),
    };
    let _ = lock.unlock();
    let tools = result?;
    check_version(&tools)?;
    Ok(tools)
}

/// The per-user cache directory, if one can be determined (see the module docs).
pub(crate) fn cache_root() -> Option<PathBuf> {
    cache_dir().ok()
}

fn cache_dir() -> Result<PathBuf, Unavailable> {
    if let Some(d) = std::env::var_os("PTXAS_RS_CACHE_DIR") {
        return Ok(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d).join("ptxas-rs"));
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(h) => Ok(PathBuf::from(h).join(".cache").join("ptxas-rs")),
        None => Err(Unavailable::NoCache("neither PTXAS_RS_CACHE_DIR, XDG_CACHE_HOME nor HOME is set".into())),
    }
}

/// The tool layout under `root`, if ptxas is there.
fn layout(root: &Path) -> Option<Tools> {
    for cu in [root.join("nvidia").join("cu13"), root.to_path_buf()] {
        if cu.join("bin").join("ptxas").is_file() {
            return Some(Tools { bin: cu.join("bin"), include: cu.join("include"), root: root.to_path_buf() });
        }
    }
    None
}

fn pins_text() -> String {
    PINS.iter().map(|p| format!("{p}\n")).collect()
}

/// The tools under `target` if a complete install with the current pins is there.
fn complete(target: &Path) -> Option<Tools> {
    let marker = fs::read_to_string(target.join(".ptxas-rs-pins")).ok()?;
    (marker == pins_text()).then(|| layout(target)).flatten()
}

fn install(target: &Path) -> Result<Tools, Unavailable> {
    let pins = PINS.join(" ");
    let fail = |detail: String| Unavailable::Install { pins: pins.clone(), detail };
    let tmp = target.with_extension(format!("partial-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    let python = std::env::var("PTXAS_RS_PYTHON").unwrap_or_else(|_| "python3".into());
    let out = Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", "--target"])
        .arg(&tmp)
        .args(PINS)
        .output()
        .map_err(|e| fail(format!("cannot run {python}: {e}")))?;
    if !out.status.success() {
        let _ = fs::remove_dir_all(&tmp);
        let text = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = text.lines().rev().take(6).collect();
        return Err(fail(tail.into_iter().rev().collect::<Vec<_>>().join(" | ")));
    }
    let tools = layout(&tmp).ok_or_else(|| Unavailable::Missing(tmp.join("nvidia/cu13/bin/ptxas")))?;
    for tool in [tools.nvdisasm(), tools.cuobjdump(), tools.nvcc()] {
        if !tool.is_file() {
            return Err(Unavailable::Missing(tool));
        }
    }
    fs::write(tmp.join(".ptxas-rs-pins"), pins_text()).map_err(|e| fail(format!("writing the marker: {e}")))?;
    let _ = fs::remove_dir_all(target);
    fs::rename(&tmp, target).map_err(|e| fail(format!("renaming {} into place: {e}", tmp.display())))?;
    layout(target).ok_or_else(|| Unavailable::Missing(target.join("nvidia/cu13/bin/ptxas")))
}

/// Checks that `ptxas --version` names [`PTXAS_VERSION`].
pub fn check_version(tools: &Tools) -> Result<(), Unavailable> {
    let path = tools.ptxas();
    let out = Command::new(&path)
        .arg("--version")
        .output()
        .map_err(|e| Unavailable::WrongVersion { path: path.clone(), found: format!("(cannot run: {e})") })?;
    let text = String::from_utf8_lossy(&out.stdout);
    if text.contains(PTXAS_VERSION) {
        Ok(())
    } else {
        Err(Unavailable::WrongVersion { path, found: text.lines().last().unwrap_or("").to_string() })
    }
}
