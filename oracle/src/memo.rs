//! A content-addressed memo of tool runs: the same tool, arguments and input bytes give the
//! same outputs, so a run is done once per machine and read back afterwards.
//!
//! Why: `nvdisasm` spends about a second starting up whatever the input, and the test suites
//! disassemble the same NVIDIA cubins in several test binaries (the SASS round trip, the
//! emulator suites, the cubin writer); each of them paying for every cubin again made most of
//! CI's wall time. The pinned tools are deterministic, so a recorded run is the run.
//!
//! Invariants:
//! - The key covers everything the outputs depend on: the tool's identity (its file name,
//!   the pinned version and the binary's length), every argument, and the name and bytes of
//!   every input file (the name matters because diagnostics quote it). A run whose outputs depend
//!   on anything else (the clock, the environment) must not be memoised: timing code calls
//!   the tools without the memo ([`crate::Tools::ptxas_run_fresh`]).
//! - Only complete records are ever read: a record is written to a temporary file and renamed
//!   into place, so parallel test processes see either no record or a whole one; a record that
//!   does not parse is treated as absent and rewritten.
//! - Disabled with `PTXAS_RS_ORACLE_MEMO=0`; the records live in
//!   `<cache>/oracle-memo/<ptxas version>/` (the cache directory of [`crate::install`]) and may be
//!   deleted at any time.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// What a memoised run produced: exit code, stdout, stderr and the output files asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Record {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub files: Vec<Option<Vec<u8>>>,
}

/// Builds a key from the parts that determine a run's outputs.
#[derive(Default)]
pub(crate) struct Key(Vec<u8>);

impl Key {
    /// Appends one part, length-prefixed so that part boundaries cannot be confused.
    pub fn part(mut self, bytes: impl AsRef<[u8]>) -> Self {
        let b = bytes.as_ref();
        self.0.extend_from_slice(&(b.len() as u64).to_le_bytes());
        self.0.extend_from_slice(b);
        self
    }
    /// The tool's identity: file name, pinned version and binary length.
    pub fn tool(self, tool: &Path) -> Self {
        let len = std::fs::metadata(tool).map_or(0, |m| m.len());
        self.part(tool.file_name().map(|n| n.as_encoded_bytes()).unwrap_or_default())
            .part(crate::install::PTXAS_VERSION)
            .part(len.to_le_bytes())
    }
    fn digest(&self) -> String {
        format!("{:032x}", fnv1a128(&self.0))
    }
}

/// FNV-1a over 128 bits: not cryptographic, but the inputs are our own test data and a
/// collision among even millions of records has probability near 2^-88.
fn fnv1a128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013b;
    bytes.iter().fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

fn dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        if std::env::var("PTXAS_RS_ORACLE_MEMO").is_ok_and(|v| v == "0") {
            return None;
        }
        let d = crate::install::cache_root()?
            .join("oracle-memo")
            .join(crate::install::PTXAS_VERSION.trim_start_matches('V'));
        std::fs::create_dir_all(&d).ok()?;
        Some(d)
    })
    .as_deref()
}

/// The recorded outputs for `key`, or `run`'s (recorded when it returns `Ok`).
pub(crate) fn run(key: Key, run: impl FnOnce() -> io::Result<Record>) -> io::Result<Record> {
    let Some(dir) = dir() else { return run() };
    let digest = key.digest();
    let path = dir.join(&digest[..2]).join(&digest);
    if let Some(r) = std::fs::read(&path).ok().and_then(|b| decode(&b)) {
        return Ok(r);
    }
    let r = run()?;
    if let Some(parent) = path.parent() {
        let tmp = parent.join(format!(".{digest}.{}.tmp", std::process::id()));
        let written = std::fs::create_dir_all(parent).and_then(|()| std::fs::write(&tmp, encode(&r)));
        if written.is_ok() {
            let _ = std::fs::rename(&tmp, &path);
        } else {
            let _ = std::fs::remove_file(&tmp);
        }
    }
    Ok(r)
}

const MAGIC: &[u8; 8] = b"ptxmemo1";

fn encode(r: &Record) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    let field = |out: &mut Vec<u8>, b: Option<&[u8]>| match b {
        None => out.extend_from_slice(&u64::MAX.to_le_bytes()),
        Some(b) => {
            out.extend_from_slice(&(b.len() as u64).to_le_bytes());
            out.extend_from_slice(b);
        }
    };
    let code = r.code.map(|c| c.to_le_bytes());
    field(&mut out, code.as_ref().map(|c| &c[..]));
    field(&mut out, Some(&r.stdout));
    field(&mut out, Some(&r.stderr));
    out.extend_from_slice(&(r.files.len() as u64).to_le_bytes());
    for f in &r.files {
        field(&mut out, f.as_deref());
    }
    out
}

fn decode(b: &[u8]) -> Option<Record> {
    let mut rest = b.strip_prefix(MAGIC.as_slice())?;
    let word = |rest: &mut &[u8]| -> Option<u64> {
        let (n, r) = rest.split_first_chunk::<8>()?;
        *rest = r;
        Some(u64::from_le_bytes(*n))
    };
    let field = |rest: &mut &[u8]| -> Option<Option<Vec<u8>>> {
        let n = word(rest)?;
        if n == u64::MAX {
            return Some(None);
        }
        let n = usize::try_from(n).ok()?;
        if rest.len() < n {
            return None;
        }
        let (v, r) = rest.split_at(n);
        *rest = r;
        Some(Some(v.to_vec()))
    };
    let code = match field(&mut rest)? {
        None => None,
        Some(c) => Some(i32::from_le_bytes(c.try_into().ok()?)),
    };
    let stdout = field(&mut rest)??;
    let stderr = field(&mut rest)??;
    let (n, r) = rest.split_first_chunk::<8>()?;
    rest = r;
    let n = u64::from_le_bytes(*n);
    let mut files = Vec::new();
    for _ in 0..n {
        files.push(field(&mut rest)?);
    }
    rest.is_empty().then_some(Record { code, stdout, stderr, files })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_truncation_is_rejected() {
        let r = Record {
            code: Some(-1),
            stdout: b"out".to_vec(),
            stderr: vec![],
            files: vec![None, Some(vec![0, 1, 255])],
        };
        let e = encode(&r);
        assert_eq!(decode(&e), Some(r.clone()));
        for cut in 0..e.len() {
            assert_eq!(decode(&e[..cut]), None, "a record cut at {cut} must not parse");
        }
        let killed = Record { code: None, ..r };
        assert_eq!(decode(&encode(&killed)), Some(killed));
    }

    #[test]
    fn key_parts_are_delimited() {
        let a = Key::default().part("ab").part("c").digest();
        let b = Key::default().part("a").part("bc").digest();
        assert_ne!(a, b);
        assert_eq!(a, Key::default().part("ab").part("c").digest());
    }
}
