//! Running the tools: ptxas on PTX, nvdisasm and cuobjdump on cubins and raw words.
//!
//! Every run happens in a fresh scratch directory that is removed afterwards, so runs from
//! parallel tests never see each other's files.

use crate::{Tools, diag, disasm, elfdump, memo, stats, verbose};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output};
use std::sync::atomic::{AtomicU64, Ordering};
use std::{fmt, fs, io};

/// A failure to run a tool or to read its output.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// Spawning the tool or touching scratch files failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The tool exited non-zero where success was required.
    #[error("{tool} failed ({status}): {stderr}")]
    Failed {
        /// The tool's file name.
        tool: String,
        /// Its exit status.
        status: String,
        /// Its stderr.
        stderr: String,
    },
    /// Its output did not parse.
    #[error("{0}")]
    Parse(#[from] disasm::ParseError),
}

/// A scratch directory, removed on drop.
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    pub(crate) fn new() -> io::Result<Self> {
        static N: AtomicU64 = AtomicU64::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!("ptxas-rs-oracle-{}-{n}-{nanos}", std::process::id()));
        fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// What ptxas compiles.
#[derive(Debug, Clone, Copy)]
pub enum PtxInput<'a> {
    /// PTX text, written to a scratch file `name` and compiled from the scratch directory, so
    /// located diagnostics read `ptxas <name>, line N; ...`.
    Text {
        /// The file name diagnostics will show.
        name: &'a str,
        /// The PTX source.
        text: &'a str,
    },
    /// A file on disk, passed to ptxas with this path; the working directory is `cwd` if given.
    File {
        /// The path as ptxas will see it (relative to `cwd` when that is given).
        path: &'a Path,
        /// Working directory for the run.
        cwd: Option<&'a Path>,
    },
}

/// The result of one ptxas run.
#[derive(Debug, Clone)]
pub struct PtxasOutput {
    /// Exit code (`None` if killed by a signal). ptxas exits 0 or 255.
    pub code: Option<i32>,
    /// Everything ptxas wrote to stdout (only `--version`/`--help` text goes there).
    pub stdout: String,
    /// Everything ptxas wrote to stderr.
    pub stderr: String,
    /// The diagnostics in `stderr`.
    pub diagnostics: Vec<diag::Diagnostic>,
    /// The `-v` report in `stderr` (empty unless `-v` was given).
    pub resources: verbose::Resources,
    /// The `--compiler-stats` timings, if asked for.
    pub stats: Option<stats::CompilerStats>,
    /// The output file's bytes, if ptxas wrote one.
    pub cubin: Option<Vec<u8>>,
}

impl PtxasOutput {
    /// Exit code 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
    /// The first diagnostic of severity error or fatal.
    pub fn first_error(&self) -> Option<&diag::Diagnostic> {
        self.diagnostics.iter().find(|d| d.severity >= diag::Severity::Error)
    }
}

impl fmt::Display for PtxasOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exit {:?}\n{}{}", self.code, self.stdout, self.stderr)
    }
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn checked(tool: &Path, out: Output) -> Result<String, OracleError> {
    if out.status.success() {
        Ok(text(out.stdout))
    } else {
        Err(OracleError::Failed {
            tool: tool.file_name().unwrap_or_default().to_string_lossy().into_owned(),
            status: out.status.to_string(),
            stderr: text(out.stderr),
        })
    }
}

impl Tools {
    /// Runs ptxas with `args` (options only: the input and `-o <scratch>/out.cubin` are added).
    /// The run is memoised by content (see [`crate::memo`]): timing code uses
    /// [`Tools::ptxas_run_fresh`].
    pub fn ptxas_run(&self, input: PtxInput<'_>, args: &[&str]) -> Result<PtxasOutput, OracleError> {
        if args.iter().any(|a| touches_other_files(a)) {
            return self.ptxas_run_fresh(input, args);
        }
        let tool = self.ptxas();
        let mut key = memo::Key::default().tool(&tool).part("ptxas -o out.cubin");
        for a in args {
            key = key.part(a);
        }
        key = match input {
            PtxInput::Text { name, text } => key.part("text").part(name).part(text),
            PtxInput::File { path, cwd } => {
                let full = cwd.map_or_else(|| path.to_path_buf(), |c| c.join(path));
                key.part("file").part(path.as_os_str().as_encoded_bytes()).part(fs::read(&full)?)
            }
        };
        let r = memo::run(key, || self.ptxas_record(input, args))?;
        Ok(ptxas_output(r))
    }

    /// [`Tools::ptxas_run`] without the memo: ptxas really runs (for timing it).
    pub fn ptxas_run_fresh(&self, input: PtxInput<'_>, args: &[&str]) -> Result<PtxasOutput, OracleError> {
        Ok(ptxas_output(self.ptxas_record(input, args)?))
    }

    fn ptxas_record(&self, input: PtxInput<'_>, args: &[&str]) -> io::Result<memo::Record> {
        let scratch = Scratch::new()?;
        let cubin_path = scratch.path().join("out.cubin");
        let mut cmd = Command::new(self.ptxas());
        cmd.args(args);
        match input {
            PtxInput::Text { name, text } => {
                fs::write(scratch.path().join(name), text)?;
                cmd.arg(name).current_dir(scratch.path());
            }
            PtxInput::File { path, cwd } => {
                cmd.arg(path);
                if let Some(cwd) = cwd {
                    cmd.current_dir(cwd);
                }
            }
        }
        let out = cmd.arg("-o").arg(&cubin_path).output()?;
        Ok(memo::Record {
            code: out.status.code(),
            stdout: out.stdout,
            stderr: out.stderr,
            files: vec![fs::read(&cubin_path).ok()],
        })
    }

    /// Runs `tool args... <scratch>/<name>` on `bytes` written to a scratch file, memoised by
    /// content (`tool` is one of these tools: [`Tools::nvdisasm`], [`Tools::cuobjdump`], ...).
    pub fn tool_on_bytes(&self, tool: &Path, args: &[&str], name: &str, bytes: &[u8]) -> Result<Output, OracleError> {
        let mut key = memo::Key::default().tool(tool);
        for a in args {
            key = key.part(a);
        }
        let key = key.part(name).part(bytes);
        let r = memo::run(key, || {
            let scratch = Scratch::new()?;
            let path = scratch.path().join(name);
            fs::write(&path, bytes)?;
            let out = Command::new(tool).args(args).arg(&path).output()?;
            Ok(memo::Record { code: out.status.code(), stdout: out.stdout, stderr: out.stderr, files: vec![] })
        })?;
        Ok(Output { status: exit_status(r.code), stdout: r.stdout, stderr: r.stderr })
    }

    /// Disassembles a cubin with `nvdisasm -hex`.
    pub fn disassemble(&self, cubin: &[u8]) -> Result<disasm::Listing, OracleError> {
        let tool = self.nvdisasm();
        let out = self.tool_on_bytes(&tool, &["-hex"], "in.cubin", cubin)?;
        Ok(disasm::parse(&checked(&tool, out)?)?)
    }

    /// Decodes raw instruction words with `nvdisasm -b <arch> -hex`, `arch` as nvdisasm spells
    /// it (`SM90`, `SM90a`, `SM100`, ...). Returns one entry per word: its text, or `None` when
    /// nvdisasm rejects the word as an illegal instruction. Rejected words are replaced by a
    /// `NOP` and the batch is decoded again, so one bad word costs one rerun.
    pub fn disassemble_raw(&self, arch: &str, words: &[u128]) -> Result<Vec<Option<String>>, OracleError> {
        let tool = self.nvdisasm();
        let mut live: Vec<Option<u128>> = words.iter().copied().map(Some).collect();
        loop {
            let batch: Vec<u128> = live.iter().map(|w| w.unwrap_or(PLACEHOLDER_NOP)).collect();
            let bytes: Vec<u8> = batch.iter().flat_map(|w| w.to_le_bytes()).collect();
            let out = self.tool_on_bytes(&tool, &["-b", arch, "-hex"], "raw.bin", &bytes)?;
            if out.status.success() {
                let listing = disasm::parse(&text(out.stdout))?;
                let insts = listing.functions.into_iter().flat_map(|f| f.instructions).collect::<Vec<_>>();
                let mut texts = vec![None; words.len()];
                for inst in insts {
                    let i = (inst.offset / 16) as usize;
                    if i < texts.len() && live[i].is_some() {
                        texts[i] = Some(inst.text);
                    }
                }
                return Ok(texts);
            }
            let err = text(out.stderr);
            let bad = err
                .split("at address 0x")
                .nth(1)
                .and_then(|s| u64::from_str_radix(s.split_whitespace().next().unwrap_or(""), 16).ok())
                .map(|a| (a / 16) as usize);
            match bad {
                Some(i) if i < live.len() && live[i].is_some() => live[i] = None,
                _ => {
                    return Err(OracleError::Failed {
                        tool: "nvdisasm".into(),
                        status: out.status.to_string(),
                        stderr: err,
                    });
                }
            }
        }
    }

    /// Runs `cuobjdump -elf` on a cubin and parses it.
    pub fn elf_dump(&self, cubin: &[u8]) -> Result<elfdump::ElfDump, OracleError> {
        let tool = self.cuobjdump();
        let out = self.tool_on_bytes(&tool, &["-elf"], "in.cubin", cubin)?;
        Ok(elfdump::parse(&checked(&tool, out)?))
    }
}

/// `NOP` with default control bits, valid on sm_75 … sm_121 (`0x000fc00000000000_0000000000007918`).
const PLACEHOLDER_NOP: u128 = 0x000fc00000000000_0000000000007918;

/// Whether a ptxas option may read or write a file beside the input and the cubin (an options
/// file, a statistics file, dumps, its own `-o`): such runs are not memoised, since the record
/// holds only stdout, stderr and the cubin.
fn touches_other_files(arg: &str) -> bool {
    let a = arg.to_ascii_lowercase();
    a.contains("file") || a.starts_with("--dump") || a == "-o" || a.starts_with("--output") || a.starts_with("--keep")
}

fn ptxas_output(r: memo::Record) -> PtxasOutput {
    let stderr = text(r.stderr);
    PtxasOutput {
        code: r.code,
        stdout: text(r.stdout),
        diagnostics: diag::parse(&stderr),
        resources: verbose::parse(&stderr),
        stats: stats::parse(&stderr),
        cubin: r.files.into_iter().next().flatten(),
        stderr,
    }
}

/// An exit status with `code` (a signal when `None`), for outputs read back from the memo.
fn exit_status(code: Option<i32>) -> ExitStatus {
    use std::os::unix::process::ExitStatusExt;
    match code {
        // The wait status of a normal exit holds the code in bits 8..16.
        Some(c) => ExitStatus::from_raw((c & 0xff) << 8),
        None => ExitStatus::from_raw(9),
    }
}
