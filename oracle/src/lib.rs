//! The oracle: NVIDIA's own tools, found or installed on demand, run, and their output parsed.
//!
//! Every capability of ptxas-rs is checked against something independent; for the compiler that
//! is NVIDIA's `ptxas` 13.0.88, `nvdisasm` and `cuobjdump`. They come from PyPI wheels that need no
//! GPU, so this crate installs them itself on first use ([`install`]): pinned versions
//! ([`PINS`]), a per-user cache directory, and a file lock so that parallel tests install once.
//! `PTXAS_RS_NVIDIA_TOOLS` points at an existing install instead.
//!
//! The typed API:
//! - [`Tools::ptxas_run`] runs ptxas on PTX text or files and returns exit code, parsed
//!   diagnostics ([`diag`]), the `-v` resource report ([`verbose`]), `--compiler-stats` timings
//!   ([`stats`]) and the cubin bytes;
//! - [`Tools::disassemble`] runs nvdisasm on a cubin and returns, per function, each
//!   instruction's offset, text and 128-bit word ([`disasm`]); [`Tools::disassemble_raw`] decodes
//!   arbitrary instruction words (`nvdisasm -b SMxx`);
//! - [`Tools::elf_dump`] runs `cuobjdump -elf` and parses sections, symbols and EIATTR records
//!   ([`elfdump`]).
//!
//! Tests obtain the tools through [`tools_or_skip`]: when the tools cannot be had it prints one
//! `SKIPPED: <test>: <why>` line and the test returns early, unless `PTXAS_RS_ORACLE=required`
//! (set by `.ci/run`), in which case the test fails.
//!
//! Invariant: nothing here ever uses a tool whose `--version` does not name the pinned release.

pub mod diag;
pub mod disasm;
pub mod elfdump;
pub mod install;
pub mod stats;
pub mod verbose;

mod memo;
mod run;

pub use diag::{Diagnostic, Severity};
pub use disasm::{Function, Instruction, Listing};
pub use elfdump::{EiAttr, ElfDump};
pub use install::{PINS, Unavailable};
pub use run::{OracleError, PtxInput, PtxasOutput};
pub use stats::CompilerStats;
pub use verbose::{FunctionResources, ModuleResources, Resources};

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A located, version-checked set of NVIDIA tools.
#[derive(Debug, Clone)]
pub struct Tools {
    /// Directory holding `ptxas`, `nvdisasm`, `cuobjdump`, `nvcc`.
    bin: PathBuf,
    /// Directory holding the CUDA headers (`cuda_fp16.h`, ...).
    include: PathBuf,
    /// The install root (what `PTXAS_RS_NVIDIA_TOOLS` would name).
    root: PathBuf,
}

impl Tools {
    /// The install root: the directory `PTXAS_RS_NVIDIA_TOOLS` would name.
    pub fn root(&self) -> &Path {
        &self.root
    }
    /// The directory holding the executables.
    pub fn bin_dir(&self) -> &Path {
        &self.bin
    }
    /// The CUDA include directory (for `nvcc -I`).
    pub fn include_dir(&self) -> &Path {
        &self.include
    }
    /// Path of NVIDIA's `ptxas`.
    pub fn ptxas(&self) -> PathBuf {
        self.bin.join("ptxas")
    }
    /// Path of `nvdisasm`.
    pub fn nvdisasm(&self) -> PathBuf {
        self.bin.join("nvdisasm")
    }
    /// Path of `cuobjdump`.
    pub fn cuobjdump(&self) -> PathBuf {
        self.bin.join("cuobjdump")
    }
    /// Path of `nvcc`.
    pub fn nvcc(&self) -> PathBuf {
        self.bin.join("nvcc")
    }
}

/// The tools, found or installed once per process. Later calls return the same result.
pub fn tools() -> Result<&'static Tools, Unavailable> {
    static TOOLS: OnceLock<Result<Tools, Unavailable>> = OnceLock::new();
    TOOLS.get_or_init(install::locate_or_install).as_ref().map_err(Clone::clone)
}

/// Whether `PTXAS_RS_ORACLE=required` is set: unavailable tools are then a failure, not a skip.
pub fn required() -> bool {
    std::env::var("PTXAS_RS_ORACLE").is_ok_and(|v| v == "required")
}

/// The tools for an oracle-backed test, or `None` after printing one `SKIPPED: <test>: <why>`
/// line. Panics (fails the test) instead when [`required`] is set.
pub fn tools_or_skip(test: &str) -> Option<&'static Tools> {
    match tools() {
        Ok(t) => Some(t),
        Err(why) if required() => {
            panic!("{test}: NVIDIA tools are required (PTXAS_RS_ORACLE=required) but unavailable: {why}")
        }
        Err(why) => {
            // Written to the real stderr, not through the test harness's captured `eprintln!`,
            // so the skip is visible in a normal `cargo test` run.
            use std::io::Write;
            let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {test}: {why}");
            None
        }
    }
}
