//! The wild corpus: real producers' PTX (Triton, nvcc -G / -lineinfo, clang, PyPI wheels) that
//! `corpus/wild/build.sh` builds into the oracle cache, and how ptxas-rs fares on it.
//!
//! - [`build`] runs the build script part by part (each part is cached by the script itself);
//! - [`list`] finds the files, sorted by id (`<source>/<file name>`), and [`sample`] picks the
//!   deterministic subset `cargo test` checks;
//! - [`judge`] runs NVIDIA's ptxas, ptxas-rs's front end (`-arch compute_XX`), ptxas-rs's sm_90
//!   compile and nvdisasm on our cubin, and gives a [`Verdict`] per file;
//! - [`Expectations`] is the committed ratchet (`corpus/wild/expected.tsv`) a run is compared with;
//! - [`report`] writes the coverage report: per source, files and kernels accepted by ptxas,
//!   accepted and compiled by us; and our first errors grouped by class with examples.
//!
//! Invariants: the arch a file is compiled for depends only on its `.target` ([`arch_for`]);
//! error classes ([`error_class`]) contain no file paths, line numbers, numbers or entry names, so
//! that they are stable across corpus rebuilds; every listing is sorted.

// Shared by tests/wild_corpus.rs and examples/wild_report.rs, each using a part.
#![allow(dead_code)]

#[path = "par.rs"]
mod par;
pub use par::par_map_on as par_map;
#[path = "wild_files.rs"]
mod wild_files;
pub use wild_files::*;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The sample `cargo test` checks: per source, at most this many files ...
pub const SAMPLE_PER_SOURCE: usize = 12;
/// ... of at most this many bytes.
pub const SAMPLE_MAX_BYTES: u64 = 512 << 10;

/// The deterministic sample: per source, among files of at most `max_bytes`, at most `per_source`
/// spread evenly over the sorted list.
pub fn sample(files: &[WildFile], per_source: usize, max_bytes: u64) -> Vec<WildFile> {
    let mut by_source: BTreeMap<&str, Vec<&WildFile>> = BTreeMap::new();
    for f in files.iter().filter(|f| f.bytes <= max_bytes) {
        by_source.entry(&f.source).or_default().push(f);
    }
    let mut out = Vec::new();
    for list in by_source.values() {
        let n = list.len();
        let k = n.min(per_source);
        out.extend((0..k).map(|i| list[i * n / k].clone()));
    }
    out
}

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ours {
    /// Our sm_90 cubin exists and nvdisasm accepts it.
    Compiles,
    /// Our cubin exists, nvdisasm refuses it (its first line of complaint, normalised).
    NvdisasmRejects(String),
    /// The front end accepts, the compile fails (first error class).
    CompileFails(String),
    /// The front end rejects (first error class).
    Rejects(String),
}

impl Ours {
    /// The `expected.tsv` spelling.
    pub fn to_field(&self) -> String {
        match self {
            Ours::Compiles => "compiles".into(),
            Ours::NvdisasmRejects(c) => format!("nvdisasm-rejects: {c}"),
            Ours::CompileFails(c) => format!("compile-fails: {c}"),
            Ours::Rejects(c) => format!("rejects: {c}"),
        }
    }
    /// How far the file got (for ranking regressions against improvements).
    pub fn rank(&self) -> u8 {
        match self {
            Ours::Rejects(_) => 0,
            Ours::CompileFails(_) => 1,
            Ours::NvdisasmRejects(_) => 2,
            Ours::Compiles => 3,
        }
    }
}

/// The verdicts on one file.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub file: WildFile,
    /// NVIDIA ptxas compiles the file for `file.arch`.
    pub ptxas_ok: bool,
    /// ptxas's first diagnostic when it rejects.
    pub ptxas_first: String,
    pub ours: Ours,
    /// Our first diagnostic as printed (when we fail) and the line it names, if any.
    pub our_first: String,
    pub our_line: Option<usize>,
    /// `.entry` count of the file.
    pub kernels: usize,
}

impl Verdict {
    /// We produce a cubin for a file ptxas rejects: always a bug.
    pub fn accepts_invalid(&self) -> bool {
        !self.ptxas_ok && matches!(self.ours, Ours::Compiles | Ours::NvdisasmRejects(_))
    }
}

/// Runs a command with a time limit; returns (exit success, stderr + stdout) or a timeout note.
pub fn run_limited(cmd: &mut Command, limit: Duration) -> (bool, String) {
    let child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return (false, format!("cannot run: {e}")),
    };
    // Drain the pipes on threads so that a chatty child cannot block on a full pipe.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut so, &mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut se, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let text = t_err.join().unwrap_or_default() + &t_out.join().unwrap_or_default();
    match status {
        Some(st) => (st.success(), text),
        None => (false, format!("fatal   : timed out after {} s", limit.as_secs())),
    }
}

/// The first error or fatal line of a ptxas-style diagnostic text, with the line number it names.
pub fn first_error(text: &str) -> (String, Option<usize>) {
    let line = text
        .lines()
        .find(|l| l.contains("error") || l.contains("fatal"))
        .or_else(|| text.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("")
        .trim()
        .to_string();
    let num = line
        .split_once(", line ")
        .and_then(|(_, r)| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok());
    (line, num)
}

/// Names declared by `.entry`/`.func` in a PTX text.
fn function_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for l in text.lines() {
        let l = l.trim_start();
        let rest = l
            .strip_prefix(".visible ")
            .or_else(|| l.strip_prefix(".weak "))
            .or_else(|| l.strip_prefix(".extern "))
            .unwrap_or(l)
            .trim_start();
        let Some(rest) = rest.strip_prefix(".entry").or_else(|| rest.strip_prefix(".func")) else { continue };
        let mut rest = rest.trim_start();
        if rest.starts_with('(') {
            rest = rest.split_once(')').map(|(_, r)| r.trim_start()).unwrap_or("");
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || "_$.".contains(*c)).collect();
        if !name.is_empty() {
            names.push(name);
        }
    }
    names
}

/// The class of a diagnostic: severity and message without location, with entry/function names
/// (except the system functions ptxas resolves itself) replaced by `<fn>`, backquoted SASS/IR
/// text by its opcode, and numbers by `N`.
pub fn error_class(diag: &str, text: &str) -> String {
    let mut msg = diag.trim();
    if let Some((_, rest)) = msg.split_once("; ")
        && msg.starts_with("ptxas ")
        && msg[..msg.len() - rest.len()].contains(", line ")
    {
        msg = rest;
    }
    let msg = msg.strip_prefix("ptxas ").unwrap_or(msg);
    let names = function_names(text);
    let keep = ["vprintf", "malloc", "free", "__assertfail"];
    let mut out = String::new();
    let mut chars = msg.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '`' => {
                let mut body = String::new();
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == c {
                        closed = true;
                        break;
                    }
                    body.push(d);
                }
                if !closed {
                    out.push(c);
                    out.push_str(&body);
                } else if c == '\'' && names.contains(&body) && !keep.contains(&body.as_str()) {
                    out.push_str("'<fn>'");
                } else if c == '`' {
                    let b = body.split_once("= ").map(|(_, r)| r).unwrap_or(&body);
                    let op = b.split_whitespace().next().unwrap_or("");
                    let _ = write!(out, "`{op}`");
                } else {
                    let _ = write!(out, "{c}{body}{c}");
                }
            }
            '@' => {
                let name: String = std::iter::from_fn(|| chars.next_if(|d| *d != ':' && !d.is_whitespace())).collect();
                if names.contains(&name) {
                    out.push_str("@<fn>")
                } else {
                    let _ = write!(out, "@{name}");
                }
            }
            _ => out.push(c),
        }
    }
    // Numbers (not parts of names such as sm_90 or .b32) become N.
    let mut norm = String::new();
    let mut prev: Option<char> = None;
    let mut it = out.chars().peekable();
    while let Some(c) = it.next() {
        let in_word = prev.is_some_and(|p| p.is_alphanumeric() || p == '_' || p == '.');
        if c.is_ascii_digit() && !in_word {
            while it.next_if(|d| d.is_ascii_alphanumeric()).is_some() {}
            norm.push('N');
            prev = Some('N');
            continue;
        }
        norm.push(c);
        prev = Some(c);
    }
    norm.split_whitespace().collect::<Vec<_>>().join(" ").replace('\t', " ")
}

/// The paths of the tools a [`judge`] needs.
pub struct Judge {
    pub ptxas: PathBuf,
    pub nvdisasm: PathBuf,
    pub ours: PathBuf,
    /// Arguments put before ptxas-rs's own (for a binary that runs the driver behind a flag).
    pub ours_prefix: Vec<String>,
    /// A scratch directory for cubins.
    pub scratch: PathBuf,
    pub limit: Duration,
}

impl Judge {
    /// Judges one file.
    pub fn judge(&self, f: &WildFile) -> Verdict {
        let text = std::fs::read_to_string(&f.path).unwrap_or_default();
        let kernels = text.lines().filter(|l| l.contains(".entry ") && !l.trim_start().starts_with("//")).count();
        let tag = f.id.replace('/', "__");
        let nv_cubin = self.scratch.join(format!("{tag}.nv.cubin"));
        let our_cubin = self.scratch.join(format!("{tag}.ours.cubin"));
        let (ptxas_ok, ptxas_text) = run_limited(
            Command::new(&self.ptxas).arg("-arch").arg(&f.arch).arg(&f.path).arg("-o").arg(&nv_cubin),
            self.limit,
        );
        let _ = std::fs::remove_file(&nv_cubin);
        let ptxas_first = if ptxas_ok { String::new() } else { first_error(&ptxas_text).0 };
        let compute = f.arch.replace("sm_", "compute_");
        let (check_ok, check_text) = run_limited(
            Command::new(&self.ours).args(&self.ours_prefix).arg("-arch").arg(&compute).arg(&f.path),
            self.limit,
        );
        let (ours, diag) = if !check_ok {
            let (d, _) = first_error(&check_text);
            (Ours::Rejects(error_class(&d, &text)), check_text)
        } else {
            let (ok, out) = run_limited(
                Command::new(&self.ours)
                    .args(&self.ours_prefix)
                    .arg("-arch")
                    .arg(&f.arch)
                    .arg(&f.path)
                    .arg("-o")
                    .arg(&our_cubin),
                self.limit,
            );
            if !ok {
                let (d, _) = first_error(&out);
                (Ours::CompileFails(error_class(&d, &text)), out)
            } else {
                let (dis_ok, dis) = run_limited(Command::new(&self.nvdisasm).arg(&our_cubin), self.limit);
                if let Some(over) = over_register_limit(&our_cubin) {
                    (Ours::CompileFails(over.clone()), format!("error   : {over}"))
                } else if dis_ok {
                    (Ours::Compiles, String::new())
                } else {
                    let (d, _) = first_error(&dis);
                    (Ours::NvdisasmRejects(error_class(&d, &text)), dis)
                }
            }
        };
        let _ = std::fs::remove_file(&our_cubin);
        let (our_first, our_line) = if diag.is_empty() { (String::new(), None) } else { first_error(&diag) };
        Verdict { file: f.clone(), ptxas_ok, ptxas_first, ours, our_first, our_line, kernels }
    }

    /// Judges files on `threads` threads; the result is in the files' order.
    pub fn judge_all(&self, files: &[WildFile], threads: usize) -> Vec<Verdict> {
        par_map(files, threads, |f| self.judge(f))
    }
}

/// The architectural register limit: a kernel whose cubin claims more is refused by the driver.
pub const MAX_REGISTERS: u32 = 255;

/// Why our cubin at `path` is unusable for its register count: a kernel over [`MAX_REGISTERS`];
/// `None` when every kernel is within the limit (or our reader cannot describe the cubin, which
/// nvdisasm's verdict covers).
fn over_register_limit(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    let cubin = ptxas_rs::cubin::Cubin::parse(&bytes).ok()?;
    let image = ptxas_rs::cubin::derive::from_cubin(&cubin).ok()?;
    image.kernels.iter().find(|k| k.registers > MAX_REGISTERS).map(|k| {
        format!("ptxas-rs: kernel `{}` uses {} registers, over the limit of {MAX_REGISTERS}", k.name, k.registers)
    })
}

/// One row of `expected.tsv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub arch: String,
    pub ptxas_ok: bool,
    pub ours: String,
}

/// The committed ratchet: id -> expected verdicts.
#[derive(Debug, Default)]
pub struct Expectations {
    pub rows: BTreeMap<String, Expected>,
}

const HEADER: &str = "# The wild corpus ratchet (tests/wild_corpus.rs): id, arch, NVIDIA ptxas's verdict, ours.\n\
# ours: compiles | nvdisasm-rejects: <class> | compile-fails: <class> | rejects: <class>.\n\
# Re-bless after an improvement: PTXAS_RS_BLESS=1 cargo test --release --test wild_corpus [-- --ignored]\n";

impl Expectations {
    pub fn path() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/wild/expected.tsv")
    }

    pub fn load() -> Expectations {
        let text = std::fs::read_to_string(Self::path()).unwrap_or_default();
        let mut rows = BTreeMap::new();
        for l in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let f: Vec<&str> = l.splitn(4, '\t').collect();
            if f.len() == 4 {
                let e = Expected { arch: f[1].into(), ptxas_ok: f[2] == "accepts", ours: f[3].into() };
                rows.insert(f[0].to_string(), e);
            }
        }
        Expectations { rows }
    }

    pub fn save(&self) {
        let mut s = HEADER.to_string();
        for (id, e) in &self.rows {
            let p = if e.ptxas_ok { "accepts" } else { "rejects" };
            let _ = writeln!(s, "{id}\t{}\t{p}\t{}", e.arch, e.ours);
        }
        std::fs::write(Self::path(), s).expect("write expected.tsv");
    }

    /// Records the verdicts; with `prune`, rows of ids not judged are dropped (a full run).
    pub fn bless(&mut self, verdicts: &[Verdict], prune: bool) {
        if prune {
            let ids: std::collections::BTreeSet<&str> = verdicts.iter().map(|v| v.file.id.as_str()).collect();
            self.rows.retain(|id, _| ids.contains(id.as_str()));
        }
        for v in verdicts {
            let e = Expected { arch: v.file.arch.clone(), ptxas_ok: v.ptxas_ok, ours: v.ours.to_field() };
            self.rows.insert(v.file.id.clone(), e);
        }
    }

    /// Differences between the verdicts and the expectations, one line each.
    pub fn compare(&self, verdicts: &[Verdict]) -> Vec<String> {
        let mut out = Vec::new();
        for v in verdicts {
            let id = &v.file.id;
            let now = v.ours.to_field();
            let Some(e) = self.rows.get(id) else {
                out.push(format!(
                    "{id}: new file (not in expected.tsv): ptxas {}, ours {now}",
                    verdict_word(v.ptxas_ok)
                ));
                continue;
            };
            if e.ptxas_ok != v.ptxas_ok || e.arch != v.file.arch {
                out.push(format!(
                    "{id}: corpus changed: expected ptxas {} for {}, now {} for {}",
                    verdict_word(e.ptxas_ok),
                    e.arch,
                    verdict_word(v.ptxas_ok),
                    v.file.arch
                ));
            } else if e.ours != now {
                let was = rank_of(&e.ours);
                let kind = match was.cmp(&v.ours.rank()) {
                    std::cmp::Ordering::Less if v.ptxas_ok => "IMPROVED",
                    std::cmp::Ordering::Greater if v.ptxas_ok => "REGRESSED",
                    _ if !v.ptxas_ok && v.ours.rank() > 0 && was == 0 => "REGRESSED",
                    _ if !v.ptxas_ok && v.ours.rank() == 0 && was > 0 => "IMPROVED",
                    _ => "CHANGED",
                };
                out.push(format!("{id}: {kind}: expected `{}`, now `{now}`", e.ours));
            }
        }
        out
    }
}

fn verdict_word(ok: bool) -> &'static str {
    if ok { "accepts" } else { "rejects" }
}

fn rank_of(field: &str) -> u8 {
    if field == "compiles" {
        3
    } else if field.starts_with("nvdisasm-rejects") {
        2
    } else if field.starts_with("compile-fails") {
        1
    } else {
        0
    }
}

/// The offending line of a file (trimmed, at most 160 characters).
fn line_of(path: &Path, line: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let l = text.lines().nth(line.saturating_sub(1)).unwrap_or("").trim();
    l.chars().take(160).collect()
}

/// The coverage report: per source, then our first errors on files ptxas accepts, by class.
/// Judges `files` on every core, removes the judge's scratch directory, and writes the coverage
/// report to `report-{sample,full}.txt` in the wild directory. Returns the verdicts, the report
/// and where it was written (the write's error, if any, is the caller's to handle).
pub fn judge_and_report(
    judge: &Judge,
    files: &[WildFile],
    full: bool,
) -> (Vec<Verdict>, String, PathBuf, std::io::Result<()>) {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    let verdicts = judge.judge_all(files, threads);
    // The 'interpreted' column: the judged files' launch specs, run (crate::wild_run).
    let (cases, _) = crate::wild_run::cases(files, &crate::wild_run::specs());
    let runner = crate::wild_run::Runner {
        ptxas: judge.ptxas.clone(),
        ours: judge.ours.clone(),
        ours_prefix: judge.ours_prefix.clone(),
        scratch: judge.scratch.clone(),
        limit: judge.limit,
    };
    let runs = runner.run_all(&cases, threads);
    let interpreted = crate::wild_run::interpreted_by_file(&runs);
    let _ = std::fs::remove_dir_all(&judge.scratch);
    let kind = if full { "full" } else { "sample" };
    let title = format!("wild corpus, {kind}: {} files of {}", verdicts.len(), wild_dir().display());
    let report = report(&verdicts, &interpreted, &title);
    let path = wild_dir().join(format!("report-{kind}.txt"));
    let written = std::fs::write(&path, &report);
    (verdicts, report, path, written)
}

/// `interpreted`: per file id, the kernels with a launch spec whose interpreter run equals the
/// emulator's on NVIDIA's cubin ([`crate::wild_run::interpreted_by_file`]).
pub fn report(verdicts: &[Verdict], interpreted: &BTreeMap<String, usize>, title: &str) -> String {
    #[derive(Default)]
    struct Row {
        files: [usize; 4],
        kernels: [usize; 4],
        accepts_invalid: usize,
        interpreted: [usize; 2],
    }
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    for v in verdicts {
        let r = rows.entry(&v.file.source).or_default();
        let ours_front = v.ptxas_ok && v.ours.rank() >= 1;
        let ours_compiled = v.ptxas_ok && v.ours == Ours::Compiles;
        for (i, hit) in [true, v.ptxas_ok, ours_front, ours_compiled].into_iter().enumerate() {
            if hit {
                r.files[i] += 1;
                r.kernels[i] += v.kernels;
            }
        }
        r.accepts_invalid += v.accepts_invalid() as usize;
        if let Some(&k) = interpreted.get(&v.file.id).filter(|&&k| k > 0) {
            r.interpreted[0] += 1;
            r.interpreted[1] += k;
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "# {title}");
    let _ = writeln!(
        s,
        "# per source: files (kernels). 'ptxas': NVIDIA ptxas 13.0.88 compiles it; 'we accept': our front end\n\
         # accepts a file ptxas accepts; 'we compile': our cubin exists and nvdisasm accepts it;\n\
         # 'interpreted': kernels with a launch spec (corpus/wild/specs) whose interpreter run equals\n\
         # the emulator's on NVIDIA's cubin (files with at least one such kernel)."
    );
    let _ = writeln!(
        s,
        "{:<28} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "source", "files", "ptxas", "we accept", "we compile", "interpreted", "bad-ok"
    );
    let mut total = Row::default();
    for (src, r) in &rows {
        let cell = |i: usize| format!("{} ({})", r.files[i], r.kernels[i]);
        let _ = writeln!(
            s,
            "{src:<28} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8}",
            cell(0),
            cell(1),
            cell(2),
            cell(3),
            format!("{} ({})", r.interpreted[0], r.interpreted[1]),
            r.accepts_invalid
        );
        for i in 0..4 {
            total.files[i] += r.files[i];
            total.kernels[i] += r.kernels[i];
        }
        for i in 0..2 {
            total.interpreted[i] += r.interpreted[i];
        }
        total.accepts_invalid += r.accepts_invalid;
    }
    let cell = |i: usize| format!("{} ({})", total.files[i], total.kernels[i]);
    let _ = writeln!(
        s,
        "{:<28} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "TOTAL",
        cell(0),
        cell(1),
        cell(2),
        cell(3),
        format!("{} ({})", total.interpreted[0], total.interpreted[1]),
        total.accepts_invalid
    );
    let pct = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    let _ = writeln!(
        s,
        "# of the files ptxas accepts: we accept {:.1}%, we compile {:.1}%",
        pct(total.files[2], total.files[1]),
        pct(total.files[3], total.files[1])
    );

    let mut classes: BTreeMap<String, Vec<&Verdict>> = BTreeMap::new();
    for v in verdicts.iter().filter(|v| v.ptxas_ok && v.ours != Ours::Compiles) {
        classes.entry(v.ours.to_field()).or_default().push(v);
    }
    let mut classes: Vec<_> = classes.into_iter().collect();
    classes.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let _ = writeln!(
        s,
        "\n# our first errors on files ptxas accepts, by class (count, then examples from up to 3 sources: path:line: offending line)"
    );
    for (class, vs) in &classes {
        let _ = writeln!(s, "\n[{} files] {class}", vs.len());
        let mut seen = std::collections::BTreeSet::new();
        let examples: Vec<&&Verdict> = vs.iter().filter(|v| seen.insert(v.file.source.as_str())).take(3).collect();
        for v in examples {
            let line = v.our_line.map(|l| line_of(&v.file.path, l)).unwrap_or_default();
            let at = v.our_line.map(|l| l.to_string()).unwrap_or_else(|| "-".into());
            let _ = writeln!(s, "    {}:{at}: {line}", v.file.path.display());
            if v.our_line.is_none() {
                let _ = writeln!(s, "      ({})", v.our_first.chars().take(300).collect::<String>());
            }
        }
    }
    let bad: Vec<&Verdict> = verdicts.iter().filter(|v| !v.ptxas_ok && v.ours.rank() > 0).collect();
    if !bad.is_empty() {
        let _ = writeln!(s, "\n# files ptxas rejects and our front end accepts");
        for v in bad {
            let _ = writeln!(s, "    {} ({}): ptxas: {}", v.file.path.display(), v.ours.to_field(), v.ptxas_first);
        }
    }
    s
}
