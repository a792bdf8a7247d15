//! The per-arch corpus harness of the emulator tests `emu_sm80.rs` (sm_80, sm_86, sm_89, sm_75)
//! and `emu_blackwell.rs` (sm_100, sm_120), included with `#[path]` by a test crate that also
//! includes `support/emu_corpus.rs` as `support`.
//!
//! [`check_arch`] compiles every corpus kernel with a launch spec by NVIDIA ptxas 13.0 `-O3` for
//! the arch (the CUDA kernels' `<k>.<arch>.ptx`, nvcc's PTX for that arch, and the hand-written
//! PTX, retargeted when its `.target` is above the arch), runs it in the emulator with the hazard
//! checker on, and compares its outputs with the GPU goldens `corpus/gpu/sm_90/<kernel>/*.bin`
//! (recorded on an H100/H200 from NVIDIA's sm_90 cubin; a kernel's outputs are its program's,
//! not its arch's, so the same goldens apply wherever the program does not read arch-dependent
//! state).
//!
//! Invariants: the arch fails on an unexplained disagreement (wrong output, hazard, emulator
//! error, an undecodable word reached), on an explained one ([`Arch::known`]) that starts
//! agreeing, and when fewer kernels agree than its floor. A kernel listed as undecodable
//! ([`Arch::undecodable`]) is skipped only while its code has a word the decoder cannot decode;
//! once it decodes it is judged like any other. Skips are counted and printed with their reason.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare};

/// What one arch's run expects.
pub struct Arch<'a> {
    /// `sm_XX`.
    pub arch: &'a str,
    /// Kernels whose run disagrees with the sm_90 golden, with the investigated cause.
    pub known: &'a [(&'a str, &'a str)],
    /// Kernels whose NVIDIA code has a word the SASS decoder cannot decode yet, with the
    /// opcode: skipped while the word does not decode; once it decodes the kernel runs and is
    /// judged like any other.
    pub undecodable: &'a [(&'a str, &'a str)],
    /// The fewest kernels that must agree with the GPU.
    pub min_agree: usize,
}

/// What one arch's run measured.
#[derive(Debug, Default)]
pub struct Report {
    /// Kernels started in the emulator.
    pub run: usize,
    /// Runs that finished with zero hazards, faults and refusals.
    pub finished: usize,
    /// Kernels agreeing with the golden.
    pub agree: Vec<String>,
    /// Explained disagreements.
    pub explained: Vec<String>,
    /// Unexplained failures.
    pub bad: Vec<String>,
    /// Skipped kernels with the reason.
    pub skipped: Vec<String>,
    /// Distinct opcodes with modifiers in the kernels run.
    pub opcodes: BTreeSet<String>,
    /// Distinct base opcodes executed at least once.
    pub executed: BTreeSet<String>,
    /// Kernels whose modifiers needed nvdisasm's listing.
    pub listed: usize,
}

/// A corpus kernel for one arch: name, PTX, launch spec.
struct Entry {
    name: String,
    ptx: Option<PathBuf>,
    /// Hand-written PTX whose `.target` is above the arch: compiled with the arch's target.
    retarget: bool,
    spec: PathBuf,
    why_skipped: Option<String>,
}

/// The sm number of a PTX file's `.target` directive.
fn ptx_target(text: &str) -> Option<u32> {
    let line = text.lines().map(str::trim).find(|l| l.starts_with(".target"))?;
    let t = line.trim_start_matches(".target").trim().split([',', ' ']).next()?;
    t.trim_start_matches("sm_").trim_end_matches('a').parse().ok()
}

/// Every corpus kernel with a launch spec, and its PTX for `arch` (or why there is none).
fn entries(arch: &str) -> Vec<Entry> {
    let sm: u32 = arch.trim_start_matches("sm_").parse().unwrap();
    let mut v = Vec::new();
    for (k, d, hand) in super::support::spec_dirs() {
        let spec = d.join(format!("{k}.run.toml"));
        let (ptx, retarget, why_skipped) = if hand {
            let p = d.join(format!("{k}.ptx"));
            match std::fs::read_to_string(&p).ok().and_then(|t| ptx_target(&t)) {
                Some(t) => (Some(p), t > sm, None),
                None => (None, false, Some("no PTX".to_string())),
            }
        } else {
            let p = d.join(format!("{k}.{arch}.ptx"));
            if p.exists() { (Some(p), false, None) } else { (None, false, Some(format!("nvcc gave no {arch} PTX"))) }
        };
        v.push(Entry { name: k, ptx, retarget, spec, why_skipped });
    }
    v
}

/// The recorded GPU outputs of a kernel, or None when none were recorded.
fn golden(spec: &LaunchSpec, name: &str) -> Option<BTreeMap<String, Vec<u8>>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/gpu/sm_90").join(name);
    super::support::read_outputs(&dir, spec)
}

/// Compares outputs with the golden under the spec's tolerances.
fn against(spec: &LaunchSpec, got: &BTreeMap<String, Vec<u8>>, gold: &BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    let mut diffs = Vec::new();
    for buf in spec.outputs() {
        let n = buf.name();
        match got.get(n) {
            None => diffs.push(format!("{n}: missing")),
            Some(g) => {
                if let Err(m) = compare(buf, &gold[n], g) {
                    diffs.push(format!("{n}: {m}"));
                }
            }
        }
    }
    if diffs.is_empty() { Ok(()) } else { Err(diffs.join("; ")) }
}

/// NVIDIA ptxas's `-O3` cubin of `e` for `arch`, or ptxas's first error line.
fn compile(t: &oracle::Tools, e: &Entry, ptx: &Path, arch: &str) -> Result<Vec<u8>, String> {
    let args = ["-arch", arch, "-O3"];
    let out = if e.retarget {
        // The hand-written PTX targets a later arch: the same text with the arch's `.target`
        // (ptxas refuses it when it uses a feature the arch lacks).
        let text = std::fs::read_to_string(ptx).unwrap();
        let text: String = text
            .lines()
            .map(|l| if l.trim_start().starts_with(".target") { format!(".target {arch}") } else { l.to_string() })
            .collect::<Vec<_>>()
            .join("\n");
        t.ptxas_run(oracle::PtxInput::Text { name: "in.ptx", text: &text }, &args).unwrap()
    } else {
        t.ptxas_run(oracle::PtxInput::File { path: ptx, cwd: None }, &args).unwrap()
    };
    out.cubin.ok_or_else(|| out.stderr.lines().find(|l| l.contains("error")).unwrap_or("").trim().to_string())
}

/// Runs the corpus for `a.arch`, prints the report (`--nocapture`) and checks it (see the
/// module's invariants). `EMU_ARCH_ONLY=<kernel>` runs one kernel (for investigation; the floor
/// then fails).
pub fn check_arch(t: &oracle::Tools, a: &Arch) -> Report {
    let arch = a.arch;
    let mut r = Report::default();
    let only = std::env::var("EMU_ARCH_ONLY").ok();
    for e in entries(arch) {
        let k = e.name.clone();
        if only.as_ref().is_some_and(|o| *o != k) {
            continue;
        }
        let Some(ptx) = e.ptx.clone() else {
            r.skipped.push(format!("{k}: {}", e.why_skipped.unwrap_or_default()));
            continue;
        };
        let spec = LaunchSpec::from_path(&e.spec).unwrap();
        let Some(gold) = golden(&spec, &k) else {
            r.skipped.push(format!("{k}: no GPU golden"));
            continue;
        };
        let cubin = match compile(t, &e, &ptx, arch) {
            Ok(c) => c,
            Err(first) => {
                r.skipped.push(format!("{k}: ptxas refuses it for {arch}: {first}"));
                continue;
            }
        };
        let undecodable = a.undecodable.iter().find(|(n, _)| *n == k);
        let result = (|| {
            let kernel = Kernel::load(&cubin, &spec.kernel).map_err(|x| Skip::Failed(format!("load: {x}")))?;
            // Modifiers come from the decoder's own tables (checked against nvdisasm's text of
            // the CUDA corpus by the decoder's tests), and from nvdisasm's listing only for a
            // kernel with a word whose modifiers the tables lack (nvdisasm runs were most of
            // this test's time).
            let mut banks = interp::emu::Banks::new();
            banks.insert(0, vec![0; 0x400]);
            let mut program = kernel.program(&banks);
            let mut sfx = BTreeMap::new();
            if program.first_invalid().is_some() {
                sfx = super::support::nvdisasm_suffixes(t, &cubin, &spec.kernel);
                program = interp::emu::Program::with_suffixes(kernel.tables, &kernel.words, kernel.entry, &banks, &sfx);
                r.listed += 1;
            }
            // A listed kernel is skipped while a word does not decode (a word no run reaches
            // would not matter, but these are reached); any other kernel runs, and fails if it
            // reaches such a word.
            if let (Some((_, op)), Some((i, why))) =
                (undecodable, program.first_invalid().filter(|(_, w)| w.starts_with("not decodable")))
            {
                return Err(Skip::Undecodable(format!("{k}: {op} not decodable yet ({:#06x}: {why})", i.offset)));
            }
            let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
            r.run += 1;
            let run =
                kernel.run_with_suffixes(&spec, &cfg, &sfx).map_err(|x| Skip::Failed(format!("emulator: {x}")))?;
            r.finished += 1;
            for i in &program.insts {
                r.opcodes.insert(format!("{}{}", i.base, i.suffix));
            }
            r.executed.extend(run.executed.iter().map(|s| s.to_string()));
            against(&spec, &run.outputs.buffers, &gold).map_err(Skip::Failed)
        })();
        match (result, a.known.iter().find(|(n, _)| *n == k)) {
            (Err(Skip::Undecodable(m)), _) => r.skipped.push(m),
            (Ok(()), None) => r.agree.push(k),
            (Ok(()), Some(_)) => r.bad.push(format!("{k}: listed in KNOWN but agrees with the GPU")),
            (Err(Skip::Failed(e)), Some((_, why))) => r.explained.push(format!("{k}: {why} (now: {e})")),
            (Err(Skip::Failed(e)), None) => r.bad.push(format!("{k}: {e}")),
        }
    }
    println!(
        "emulator(NVIDIA {arch} -O3 cubin): {} kernels run, {} to completion with zero hazards, {} agree with the GPU, \
         {} explained, {} wrong, {} skipped, {} distinct opcodes (with modifiers) in the kernels run ({} with \
         nvdisasm's modifiers), {} executed ({} base opcodes)",
        r.run,
        r.finished,
        r.agree.len(),
        r.explained.len(),
        r.bad.len(),
        r.skipped.len(),
        r.opcodes.len(),
        r.listed,
        r.executed.len(),
        r.executed.iter().map(|o| o.split('.').next().unwrap_or("")).collect::<BTreeSet<_>>().len(),
    );
    println!("  executed: {}", r.executed.iter().cloned().collect::<Vec<_>>().join(" "));
    for s in &r.skipped {
        println!("  skipped: {s}");
    }
    for s in &r.explained {
        println!("  explained: {s}");
    }
    assert!(r.bad.is_empty(), "{arch}: disagreements with the GPU:\n{}", r.bad.join("\n"));
    assert!(r.agree.len() >= a.min_agree, "{arch}: only {} agree (expected at least {})", r.agree.len(), a.min_agree);
    r
}

/// Why a kernel did not agree.
enum Skip {
    /// A listed word does not decode yet: skipped.
    Undecodable(String),
    /// Anything else.
    Failed(String),
}
