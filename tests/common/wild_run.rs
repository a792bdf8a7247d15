//! Running the wild corpus (issue 23): launch specs for wild kernels with simple arguments, and
//! the three-way check interpreter(PTX) == emulator(NVIDIA's cubin) == emulator(our cubin).
//!
//! - [`specs`] finds the launch specs: `corpus/wild/specs/<source>/<stem>.run.toml` or
//!   `<stem>.<kernel>.run.toml` (a file with several entries has one spec per kernel) apply to
//!   every wild file `<source>/<stem>.<anything>.ptx` (each arch, each opt build); the nvcc
//!   sources (`nvcc-G`, `nvcc-lineinfo`) are the corpus's own `corpus/cuda` kernels and share
//!   their `corpus/cuda/<k>/<k>.run.toml`, never a copy;
//! - [`cases`] pairs the corpus's files with their specs;
//! - [`Runner::run`] runs one case: the Ori interpreter on the lowered PTX ([`interpret`]: with
//!   ptxas's contraction of `mul` + `add` into fused multiply-adds), NVIDIA ptxas's cubin
//!   and ours (both `-O3`; ptxas refuses `-O3` on PTX with debug information, "Optimized
//!   debugging not supported", so both compilers then get their default level, as the wild
//!   ratchet's judge does) in the SASS emulator with hazard checking, and compares the outputs
//!   under the spec's comparison rules: interpreter against NVIDIA, ours against NVIDIA;
//! - [`RunExpectations`] is the committed ratchet of the verdicts that are not plain agreement
//!   (`corpus/wild/run-expected.tsv`): each with its cause, bless-able.
//!
//! Invariants: a case's verdict is a stable class (no offsets, thread ids, numbers or paths:
//! [`crate::wild::error_class`]); every listing is sorted; a spec that matches no file of a built
//! corpus is reported, never ignored.

// Shared by tests/wild_run.rs, tests/wild_corpus.rs and examples/wild_report.rs, each using a part.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare};

use crate::wild::{WildFile, error_class, run_limited};

/// One launch spec of the wild corpus.
#[derive(Debug, Clone)]
pub struct WildSpec {
    /// The wild sources it applies to (`triton`, `clang`, `nvcc-G` and `nvcc-lineinfo`, ...).
    pub sources: Vec<String>,
    /// The file stem it applies to (the file name up to its first dot).
    pub stem: String,
    pub path: PathBuf,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every launch spec for the wild corpus, sorted by path.
pub fn specs() -> Vec<WildSpec> {
    let mut out = Vec::new();
    let root = repo().join("corpus/wild/specs");
    for source in sorted_dir(&root) {
        if !source.is_dir() {
            continue;
        }
        let src = source.file_name().unwrap().to_string_lossy().into_owned();
        for path in sorted_dir(&source) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let Some(base) = name.strip_suffix(".run.toml") else { continue };
            let stem = base.split('.').next().unwrap_or(base).to_string();
            out.push(WildSpec { sources: vec![src.clone()], stem, path });
        }
    }
    for dir in sorted_dir(&repo().join("corpus/cuda")) {
        let k = dir.file_name().unwrap().to_string_lossy().into_owned();
        let path = dir.join(format!("{k}.run.toml"));
        if path.exists() {
            out.push(WildSpec { sources: vec!["nvcc-G".into(), "nvcc-lineinfo".into()], stem: k, path });
        }
    }
    out
}

fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    v.sort();
    v
}

/// A wild file and one spec of it.
#[derive(Debug, Clone)]
pub struct Case {
    pub file: WildFile,
    pub spec: WildSpec,
    /// The spec's kernel.
    pub kernel: String,
}

impl Case {
    /// `<file id>:<kernel>`: the key of `run-expected.tsv`.
    pub fn id(&self) -> String {
        format!("{}:{}", self.file.id, self.kernel)
    }
}

/// The stem of a wild file name (up to the first dot).
pub fn stem_of(file: &WildFile) -> &str {
    let name = file.id.rsplit('/').next().unwrap_or(&file.id);
    name.split('.').next().unwrap_or(name)
}

/// The cases of `files`, in the files' order then the specs'; and the specs that match no file of
/// a source present in `files` (stale names).
pub fn cases(files: &[WildFile], specs: &[WildSpec]) -> (Vec<Case>, Vec<String>) {
    let mut out = Vec::new();
    let mut used = vec![false; specs.len()];
    for f in files {
        for (i, s) in specs.iter().enumerate() {
            if s.stem == stem_of(f) && s.sources.contains(&f.source) {
                used[i] = true;
                let kernel = LaunchSpec::from_path(&s.path).map(|l| l.kernel).unwrap_or_default();
                out.push(Case { file: f.clone(), spec: s.clone(), kernel });
            }
        }
    }
    let present: std::collections::BTreeSet<&str> = files.iter().map(|f| f.source.as_str()).collect();
    let stale = specs
        .iter()
        .zip(&used)
        .filter(|(s, u)| !**u && s.sources.iter().any(|x| present.contains(x.as_str())))
        .map(|(s, _)| s.path.display().to_string())
        .collect();
    (out, stale)
}

/// What happened to one case.
#[derive(Debug, Clone)]
pub struct RunVerdict {
    pub case: Case,
    /// The interpreter's outputs equal the emulator's on NVIDIA's cubin.
    pub interpreted: bool,
    /// The stable verdict: `agree`, or what went wrong first (see [`Runner::run`]).
    pub verdict: String,
    /// The first lines of the raw diagnostic, for the log.
    pub detail: String,
}

/// The tools a [`Runner`] needs (as [`crate::wild::Judge`]).
pub struct Runner {
    pub ptxas: PathBuf,
    pub ours: PathBuf,
    pub ours_prefix: Vec<String>,
    pub scratch: PathBuf,
    pub limit: Duration,
}

/// The stable class of an executor's error: the message after the thread/instruction location,
/// normalised as a compiler diagnostic.
fn exec_class(msg: &str, ptx: &str) -> String {
    let first = msg.lines().next().unwrap_or("");
    // The emulator's location ends with "(warp W lane L): ", the interpreter's with "`: ".
    let tail = match first.find(" lane ") {
        Some(i) => first[i..].split_once("): ").map(|(_, r)| r).unwrap_or(first),
        None => first.split_once("`: ").map(|(_, r)| r).unwrap_or(first),
    };
    // The front end's location: "line L, col C (in `f`): " or "line L, col C: ".
    let tail = match tail.strip_prefix("line ") {
        Some(rest) if rest.contains("(in `") => rest.split_once("): ").map(|(_, r)| r).unwrap_or(tail),
        Some(rest) => rest.split_once(": ").map(|(_, r)| r).unwrap_or(tail),
        None => tail,
    };
    error_class(tail, ptx)
}

type Buffers = BTreeMap<String, Vec<u8>>;

fn diff(spec: &LaunchSpec, want: &Buffers, got: &Buffers) -> Option<(String, String)> {
    let mut names = Vec::new();
    let mut detail = String::new();
    for b in spec.outputs() {
        let (w, g) = (want.get(b.name()).map(Vec::as_slice), got.get(b.name()).map(Vec::as_slice));
        if let Err(m) = compare(b, w.unwrap_or_default(), g.unwrap_or_default()) {
            names.push(b.name().to_string());
            let _ = write!(detail, "{}: {m}; ", b.name());
        }
    }
    if names.is_empty() { None } else { Some((names.join(","), detail)) }
}

/// The interpreter's run of `ptx`: lowered to Ori, then contracted as ptxas contracts at `level`
/// (phase 9, OriCreateMacroInsts: a PTX `mul` + `add` pair becomes one fused multiply-add, one
/// rounding where the pair has two; as `interp/tests/e2e_corpus.rs` does), then interpreted.
pub fn interpret(ptx: &str, spec: &LaunchSpec, level: u8) -> Result<interp::Outputs, String> {
    use ptxas_rs::opt::{Pipeline, PipelineOptions};
    let exec = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let mut module = ptxas_rs::lower::lower_source(ptx).map_err(|e| e.to_string())?;
    let popts = PipelineOptions { opt_level: level, ..PipelineOptions::default() };
    Pipeline::only(&["OriCreateMacroInsts"])
        .map_err(|e| e.to_string())?
        .run(&mut module, &popts, &mut [])
        .map_err(|e| e.to_string())?;
    interp::run_ori_with(&module, &spec.kernel, spec, &exec).map_err(|e| e.to_string())
}

impl Runner {
    /// Compiles `file` with NVIDIA's ptxas (`-O3`, or the default level where ptxas refuses
    /// `-O3` on debug information); returns the cubin and whether `-O3` was used.
    fn nvidia(&self, f: &WildFile, tag: &str) -> Result<(Vec<u8>, bool), String> {
        let out = self.scratch.join(format!("{tag}.nv.cubin"));
        let mut o3 = true;
        let (mut ok, mut text) = run_limited(
            Command::new(&self.ptxas).args(["-O3", "-arch", &f.arch]).arg(&f.path).arg("-o").arg(&out),
            self.limit,
        );
        if !ok && text.contains("Optimized debugging not supported") {
            o3 = false;
            (ok, text) = run_limited(
                Command::new(&self.ptxas).args(["-arch", &f.arch]).arg(&f.path).arg("-o").arg(&out),
                self.limit,
            );
        }
        let bytes = std::fs::read(&out);
        let _ = std::fs::remove_file(&out);
        if !ok {
            return Err(crate::wild::first_error(&text).0);
        }
        Ok((bytes.map_err(|e| e.to_string())?, o3))
    }

    fn ours(&self, f: &WildFile, tag: &str, o3: bool) -> Result<Vec<u8>, String> {
        let out = self.scratch.join(format!("{tag}.ours.cubin"));
        let mut cmd = Command::new(&self.ours);
        cmd.args(&self.ours_prefix);
        if o3 {
            cmd.arg("-O3");
        }
        cmd.args(["-arch", &f.arch]).arg(&f.path).arg("-o").arg(&out);
        let (ok, text) = run_limited(&mut cmd, self.limit);
        let bytes = std::fs::read(&out);
        let _ = std::fs::remove_file(&out);
        if !ok {
            return Err(crate::wild::first_error(&text).0);
        }
        bytes.map_err(|e| e.to_string())
    }

    /// Runs one case. The verdict, in the order checked:
    /// `spec: ...` (the spec does not parse), `interp-fails: <class>`, `ptxas-fails: <class>`,
    /// `nv-emu-fails: <class>` (NVIDIA's cubin does not load or stops in the emulator: a hazard,
    /// an undecodable instruction), `interp-differs: <buffers>`; then for our cubin
    /// `ours-blocked: <class>` (our compile refuses), `ours-emu-fails: <class>`,
    /// `ours-differs: <buffers>`. Only `agree` is agreement of all three. When NVIDIA's side
    /// fails, ours is compared with the interpreter instead (`... / ours <verdict>` is appended).
    pub fn run(&self, case: &Case) -> RunVerdict {
        let f = &case.file;
        let ptx = std::fs::read_to_string(&f.path).unwrap_or_default();
        let tag = case.id().replace(['/', ':'], "__");
        let mk = |interpreted: bool, verdict: String, detail: String| RunVerdict {
            case: case.clone(),
            interpreted,
            verdict,
            detail: detail.chars().take(600).collect(),
        };
        let spec = match LaunchSpec::from_path(&case.spec.path) {
            Ok(s) => s,
            Err(e) => return mk(false, format!("spec: {e}"), String::new()),
        };
        let emu = |cubin: &[u8]| -> Result<Buffers, String> {
            let k = Kernel::load(cubin, &spec.kernel).map_err(|e| format!("load: {e}"))?;
            let cfg = EmuConfig { hazards: true, step_limit: 100_000_000, ..EmuConfig::default() };
            k.run(&spec, &cfg).map(|r| r.outputs.buffers).map_err(|e| e.to_string())
        };
        let nv = self.nvidia(f, &tag);
        let o3 = nv.as_ref().map(|(_, o3)| *o3).unwrap_or(true);
        let interp = interpret(&ptx, &spec, if o3 { 3 } else { 0 });
        let nv_out = nv
            .as_ref()
            .map_err(|e| format!("ptxas-fails: {}", error_class(e, &ptx)))
            .and_then(|(c, _)| emu(c).map_err(|e| format!("nv-emu-fails: {}\u{0}{e}", exec_class(&e, &ptx))));
        let (mut verdict, mut detail, interpreted) = match (&interp, &nv_out) {
            (Err(e), _) => (format!("interp-fails: {}", exec_class(e, &ptx)), e.clone(), false),
            (Ok(_), Err(e)) => {
                let (v, d) = e.split_once('\u{0}').unwrap_or((e, ""));
                (v.to_string(), d.to_string(), false)
            }
            (Ok(i), Ok(n)) => match diff(&spec, n, &i.buffers) {
                Some((names, d)) => (format!("interp-differs: {names}"), d, false),
                None => (String::new(), String::new(), true),
            },
        };
        // Ours, against NVIDIA's outputs (or the interpreter's when NVIDIA's side failed).
        let reference = nv_out.as_ref().ok().or(interp.as_ref().ok().map(|o| &o.buffers));
        let ours = match self.ours(f, &tag, o3) {
            Err(e) => format!("ours-blocked: {}", error_class(&e, &ptx)),
            Ok(c) => match (emu(&c), reference) {
                (Err(e), _) => {
                    let _ = write!(detail, " | ours: {e}");
                    format!("ours-emu-fails: {}", exec_class(&e, &ptx))
                }
                (Ok(_), None) => "ours-runs".to_string(),
                (Ok(o), Some(r)) => match diff(&spec, r, &o) {
                    Some((names, d)) => {
                        let _ = write!(detail, " | ours: {d}");
                        format!("ours-differs: {names}")
                    }
                    None => "ours-agrees".to_string(),
                },
            },
        };
        if verdict.is_empty() {
            verdict = if ours == "ours-agrees" { "agree".into() } else { ours };
        } else {
            let _ = write!(verdict, " / {ours}");
        }
        mk(interpreted, verdict, detail)
    }

    /// Runs cases on `threads` threads; the result is in the cases' order.
    pub fn run_all(&self, cases: &[Case], threads: usize) -> Vec<RunVerdict> {
        crate::wild::par_map(cases, threads, |c| self.run(c))
    }
}

/// The deterministic sample of cases: per source, at most `per_source`, spread evenly over the
/// sorted list, skipping the cases whose stem is in `heavy` (long emulations).
pub fn sample(cases: &[Case], per_source: usize, heavy: &[&str]) -> Vec<Case> {
    let mut by_source: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
    for c in cases.iter().filter(|c| !heavy.contains(&stem_of(&c.file))) {
        by_source.entry(&c.file.source).or_default().push(c);
    }
    let mut out = Vec::new();
    for list in by_source.values() {
        let n = list.len();
        let k = n.min(per_source);
        out.extend((0..k).map(|i| list[i * n / k].clone()));
    }
    out
}

/// Per file id, the kernels whose interpreter run equals NVIDIA's emulated result.
pub fn interpreted_by_file(runs: &[RunVerdict]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for r in runs {
        *m.entry(r.case.file.id.clone()).or_insert(0) += r.interpreted as usize;
    }
    m
}

/// The committed ratchet: case id -> (verdict, cause), for every case whose verdict is not
/// `agree`. A case not listed must agree.
#[derive(Debug, Default)]
pub struct RunExpectations {
    pub rows: BTreeMap<String, (String, String)>,
}

const RUN_HEADER: &str = "# The wild corpus's runs (tests/wild_run.rs): every case (wild file id:kernel) whose verdict is not\n\
# `agree` (interpreter == emulator(NVIDIA -O3 cubin) == emulator(our -O3 cubin), hazards on), with the cause.\n\
# Columns: case, verdict, cause. Re-bless (causes of unchanged verdicts are kept; new ones read `untriaged`):\n\
#   PTXAS_RS_BLESS=1 cargo test --release --test wild_run [-- --ignored wild_run_full]\n";

impl RunExpectations {
    pub fn path() -> PathBuf {
        repo().join("corpus/wild/run-expected.tsv")
    }

    pub fn load() -> RunExpectations {
        let text = std::fs::read_to_string(Self::path()).unwrap_or_default();
        let mut rows = BTreeMap::new();
        for l in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let f: Vec<&str> = l.splitn(3, '\t').collect();
            if f.len() == 3 {
                rows.insert(f[0].to_string(), (f[1].to_string(), f[2].to_string()));
            }
        }
        RunExpectations { rows }
    }

    pub fn save(&self) {
        let mut s = RUN_HEADER.to_string();
        for (id, (v, c)) in &self.rows {
            let _ = writeln!(s, "{id}\t{v}\t{c}");
        }
        std::fs::write(Self::path(), s).expect("write run-expected.tsv");
    }

    /// Records the verdicts (keeping the cause of an unchanged verdict); with `prune`, rows of
    /// cases not run are dropped.
    pub fn bless(&mut self, runs: &[RunVerdict], prune: bool) {
        if prune {
            let ids: std::collections::BTreeSet<String> = runs.iter().map(|r| r.case.id()).collect();
            self.rows.retain(|id, _| ids.contains(id));
        }
        for r in runs {
            let id = r.case.id();
            if r.verdict == "agree" {
                self.rows.remove(&id);
                continue;
            }
            let cause = match self.rows.get(&id) {
                Some((v, c)) if *v == r.verdict => c.clone(),
                _ => cause_of(&format!("{id} {}", r.verdict)).unwrap_or("untriaged").to_string(),
            };
            self.rows.insert(id, (r.verdict.clone(), cause));
        }
    }

    /// Differences between the runs and the expectations, one line each.
    pub fn compare(&self, runs: &[RunVerdict]) -> Vec<String> {
        let mut out = Vec::new();
        for r in runs {
            let id = r.case.id();
            let want = self.rows.get(&id).map(|(v, _)| v.as_str()).unwrap_or("agree");
            if want != r.verdict {
                let kind = if r.verdict == "agree" { "IMPROVED" } else { "CHANGED" };
                out.push(format!("{id}: {kind}: expected `{want}`, now `{}` ({})", r.verdict, r.detail));
            }
        }
        out
    }
}

/// The cause of a known class of disagreement (triaged; see corpus/wild/README.md), from the
/// case id and its verdict.
pub fn cause_of(verdict: &str) -> Option<&'static str> {
    let known: &[(&str, &str)] = &[
        (
            "CALL.ABS.NOINC",
            "emulator: NVIDIA's debug cubins (nvcc -G, clang -O0 -g) call through CALL.ABS.NOINC with ABS relocations across .text sections; only CALL.REL is modelled",
        ),
        (
            "unsupported modifiers of MEMBAR",
            "emulator: the sm_90 decode table lacks this MEMBAR form of NVIDIA's -G cubin",
        ),
        (
            "unsupported modifiers of LEA",
            "emulator: the sm_90 decode table lacks LEA.HI.X.SX32 with a uniform-register operand (0xc11), in NVIDIA's cubin",
        ),
        (
            "unsupported modifiers of ULEA",
            "emulator: the sm_90 decode table lacks ULEA.HI.X.SX32 / ULEA.HI.X (0x291/0x891), in NVIDIA's cubin",
        ),
        (
            "unsupported modifiers of UISETP",
            "emulator: the sm_90 decode table lacks this UISETP form (signed 64-bit / .EX), in NVIDIA's cubin",
        ),
        (
            "unsupported modifiers of LDSM",
            "emulator: the sm_90 decode table lacks LDSM with a uniform-register offset ([R+UR]), in NVIDIA's cubin",
        ),
        ("unsupported modifiers of LDC", "emulator: the sm_90 decode table lacks this LDC form of NVIDIA's cubin"),
        (
            "unsupported modifiers of WARPSYNC",
            "emulator: the decode table lacks this WARPSYNC form of NVIDIA's -G cubin (reached once its cross-section calls run)",
        ),
        (
            "unsupported modifiers of ATOMG",
            "emulator: the sm_90 decode table lacks this ATOMG form of NVIDIA's cubin: untriaged",
        ),
        (
            "unsupported modifiers of ATOM",
            "emulator: the decode table lacks this ATOM form of NVIDIA's -G cubin (reached once its cross-section calls run)",
        ),
        (
            "unsupported modifiers of I2F",
            "emulator: the decode table lacks this I2F form of NVIDIA's -G cubin (reached once its cross-section calls run)",
        ),
        (
            "step limit of",
            "emulator: NVIDIA's -G mbarrier code (its wait in a called function) runs past the step limit: untriaged (the polling loop may not hand the warp over)",
        ),
        (
            "unsupported opcode key",
            "emulator: the sm_90 decode table lacks a form key of NVIDIA's cubin (Triton's UIMAD with an immediate B, 0x8a4)",
        ),
        (
            "WARPGROUP.DEPBAR",
            "emulator: false hazard on NVIDIA's cubin: WARPGROUP.DEPBAR's distance to the HGMMA committing its group",
        ),
        (
            "through the generic proxy",
            "emulator: false hazard on NVIDIA's cubin: a generic-proxy shared store before HGMMA (Triton fences it with fence.proxy.async)",
        ),
        (
            "pending read on SB",
            "emulator: hazard on NVIDIA's cubin: a WAR against a pending read scoreboard (SHFL after a store is no longer one): untriaged",
        ),
        (
            "global load at",
            "emulator: NVIDIA's -G cubin loads out of bounds in the emulator (function pointers / many-scalar params through debug frames): untriaged",
        ),
        (
            "stmatrix",
            "front end: `stmatrix` is not supported yet (Triton's sm_90 matmul epilogue), so neither the interpreter nor our compile runs it",
        ),
        (
            ".satfinite",
            "front end: `.satfinite` is not supported yet (Triton's fp8 / int8 conversions), so neither the interpreter nor our compile runs it",
        ),
        (
            "barrier.cluster",
            "front end: `barrier.cluster` is not supported yet (nvcc -G keeps cooperative groups' cluster barrier)",
        ),
        ("mma_sync", "front end: a wmma helper of nvcc -G (s8 fragments) that the interpreter cannot lower yet"),
        (
            "Parsing error near '.s'",
            "ptxas and we reject the file (clang -O0 -g on OpenCL emits a .s debug construct ptxas refuses): nothing to run",
        ),
        (
            "interp-differs: sel / ours-differs: sel",
            "NaN payloads: NVIDIA's cubin of nvcc's -lineinfo PTX gives canonical / sign-flipped NaNs where the interpreter and our cubin give 0x7fffffff (the -O3 corpus PTX agrees): untriaged",
        ),
        (
            "silu_mul_kernel",
            "our compile: a bf16 conversion of an f32 subnormal result flushes to zero (NVIDIA keeps the bf16 subnormal): a bug in our selection, outside this work",
        ),
    ];
    known.iter().find(|(k, _)| verdict.contains(k)).map(|(_, c)| *c)
}
