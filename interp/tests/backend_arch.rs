//! The backends of the targets other than sm_90 end to end (issue 24): for each arch of
//! [`ARCHES`] (sm_75, sm_80, sm_86, sm_89, sm_100, sm_120), every CUDA corpus kernel with a launch spec and a PTX for that
//! arch (`<k>.sm_XX.ptx`, nvcc's) that NVIDIA ptxas accepts for the arch is compiled by
//! ptxas-rs ([`backend::compile`]) and must either
//! 1. give a cubin that NVIDIA's tools accept (`support::accepted_by_tools`: `cuobjdump -elf`
//!    silent on each, every word decoded by one raw `nvdisasm` run per arch, every 4th cubin
//!    read whole by `nvdisasm` with nothing on stderr), that the SASS emulator runs
//!    (as code of that arch: the ELF's SM) with the hazard checker on and no hazard, and whose
//!    outputs equal the Ori interpreter's on the lowered PTX (contracted by phase 9 at the same
//!    level, as `e2e_corpus.rs` does); or
//! 2. be refused with a backend error (a located `not supported yet` through the driver) listed
//!    in `backend_arch.expected` (`arch kernel@On<TAB>stage: message`), so the refusals can only
//!    go down: a listed kernel that compiles fails the test until the line is removed, and an
//!    unlisted refusal fails it too.
//!
//! `PTXAS_RS_BLESS=1` rewrites the checked entries of the expectation file from this run (the
//! entries of kernels this run did not check are kept). The default test checks -O3 on a
//! deterministic sample ([`Arch::sample_every`]: every kernel for sm_75, every second for sm_80, every third
//! for sm_86, sm_89, sm_100 and sm_120, by sorted name) to keep its time modest; `-- --ignored backend_arch_full`
//! checks every arch at -O0 and -O3. `--nocapture` prints the per-arch table: kernels ptxas
//! accepts / compiled by us / agreeing with the interpreter / refused by construct.
//! `PTXAS_RS_ARCHES=sm_75,sm_86` restricts a run to those arches (blessing then touches only
//! their entries); `PTXAS_RS_KERNELS=async_cg_memcpy,brx_idx` to those kernels.

#[path = "../../tests/common/par.rs"]
mod par;
#[path = "support/emu_corpus.rs"]
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare};
use ptxas_rs::backend;
use ptxas_rs::opt::{Pipeline, PipelineOptions};
use ptxas_rs::target::Target;

/// One arch the test covers, and its share of the default (sampled) run.
struct Arch {
    name: &'static str,
    /// The default run checks every `sample_every`-th kernel (by sorted name) of this arch.
    sample_every: usize,
}

/// The arches checked, as data: Turing, the sm_80 family, then Blackwell (sm_100, sm_120).
const ARCHES: [Arch; 6] = [
    Arch { name: "sm_75", sample_every: 1 },
    Arch { name: "sm_80", sample_every: 2 },
    Arch { name: "sm_86", sample_every: 3 },
    Arch { name: "sm_89", sample_every: 3 },
    Arch { name: "sm_100", sample_every: 3 },
    Arch { name: "sm_120", sample_every: 3 },
];

fn expected_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/backend_arch.expected")
}

/// `(arch, kernel@On)` → `stage: message` of the committed refusals.
fn read_expected() -> BTreeMap<(String, String), String> {
    let text = std::fs::read_to_string(expected_path()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (key, why) = l.split_once('\t').unwrap_or((l, ""));
            let (arch, kl) = key.split_once(' ').unwrap_or((key, ""));
            ((arch.to_owned(), kl.to_owned()), why.to_owned())
        })
        .collect()
}

fn write_expected(m: &BTreeMap<(String, String), String>) {
    let mut s = String::from(
        "# Refusals of the backends other than sm_90's (interp/tests/backend_arch.rs): arch kernel@level<TAB>stage: message.\n\
         # Regenerate with PTXAS_RS_BLESS=1; the list may only shrink.\n",
    );
    for ((a, k), why) in m {
        s.push_str(&format!("{a} {k}\t{why}\n"));
    }
    std::fs::write(expected_path(), s).unwrap();
}

#[derive(Default)]
struct Tally {
    accepted: usize,
    compiled: usize,
    agree: usize,
    refused: BTreeMap<String, usize>,
}

/// Compiles, runs and compares one kernel at one level; `Err` is a failure of the test. Our
/// cubin goes into `cubin` (NVIDIA's tools read it afterwards, in one batch: `run`).
fn check_one(
    target: &Target,
    ptx: &Path,
    spec_path: &Path,
    level: u8,
    cubin: &mut Option<Vec<u8>>,
) -> Result<Result<(), String>, String> {
    let spec = LaunchSpec::from_path(spec_path).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(ptx).unwrap();
    let ast = ptxas_rs::ptx::parse(&text, "in.ptx").map_err(|e| format!("parse: {e:?}"))?;
    let opts = backend::Options { opt_level: level, target: target.clone(), ..backend::Options::default() };
    let compiled = match backend::compile(&ast, &opts) {
        Ok(c) => c,
        Err(e) => return Ok(Err(format!("{}: {}", e.stage, e.message))),
    };
    *cubin = Some(compiled.cubin.clone());
    let kernel = Kernel::load(&compiled.cubin, &spec.kernel).map_err(|e| format!("load: {e}"))?;
    if kernel.sm != target.sm() {
        return Err(format!("the cubin says sm_{}, not {}", kernel.sm, target.name()));
    }
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let run = kernel.run(&spec, &cfg).map_err(|e| format!("emulator: {e}"))?;
    let module = ptxas_rs::lower::lower_source(&text).map_err(|e| format!("lowering for the interpreter: {e}"))?;
    let exec = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let mut contracted = module;
    let popts = PipelineOptions { opt_level: level, ..PipelineOptions::default() };
    Pipeline::only(&["OriCreateMacroInsts"])
        .map_err(|e| e.to_string())?
        .run(&mut contracted, &popts, &mut [])
        .map_err(|e| e.to_string())?;
    let reference = interp::run_ori_with(&contracted, &spec.kernel, &spec, &exec)
        .map_err(|e| format!("the interpreter fails: {e}"))?;
    let mut diffs = Vec::new();
    for buf in spec.outputs() {
        let n = buf.name();
        if let Err(m) = compare(buf, run.outputs.get(n).unwrap(), reference.get(n).unwrap()) {
            diffs.push(format!("{n}: {m}"));
        }
    }
    if diffs.is_empty() { Ok(Ok(())) } else { Err(format!("outputs differ: {}", diffs.join("; "))) }
}

/// One kernel-level of one arch to check.
struct Job {
    arch: &'static str,
    kernel: String,
    ptx: PathBuf,
    spec: PathBuf,
    level: u8,
}

fn run(test: &str, levels: &[u8], sample: impl Fn(&Arch, usize) -> bool) {
    let Some(t) = oracle::tools_or_skip(test) else { return };
    let bless = std::env::var_os("PTXAS_RS_BLESS").is_some();
    let mut expected = read_expected();
    let mut bad = Vec::new();
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let only = std::env::var("PTXAS_RS_ARCHES").ok();
    let only_kernels = std::env::var("PTXAS_RS_KERNELS").ok();
    let mut kernels = Vec::new();
    for a in &ARCHES {
        if only.as_deref().is_some_and(|o| !o.split(',').any(|n| n.trim() == a.name)) {
            continue;
        }
        tallies.entry(a.name).or_default();
        for (i, (k, ptx, spec)) in support::corpus_for(a.name).into_iter().enumerate() {
            let listed = only_kernels.as_deref().is_none_or(|o| o.split(',').any(|n| n.trim() == k));
            if sample(a, i) && listed {
                kernels.push((a.name, k, ptx, spec));
            }
        }
    }
    // The kernels NVIDIA ptxas accepts for their arch, at each level.
    let accepted = par::par_map(&kernels, |(arch, _, ptx, _)| {
        t.ptxas_run(oracle::PtxInput::File { path: ptx, cwd: None }, &["-arch", arch]).unwrap().cubin.is_some()
    });
    let jobs: Vec<Job> = kernels
        .into_iter()
        .zip(accepted)
        .filter(|(_, ok)| *ok)
        .flat_map(|((arch, kernel, ptx, spec), _)| {
            levels.iter().map(move |&level| Job {
                arch,
                kernel: kernel.clone(),
                ptx: ptx.clone(),
                spec: spec.clone(),
                level,
            })
        })
        .collect();
    let results = par::par_map(&jobs, |j| {
        let target = Target::from_arch(j.arch).unwrap();
        let mut cubin = None;
        let r = check_one(&target, &j.ptx, &j.spec, j.level, &mut cubin);
        (r, cubin)
    });
    // NVIDIA's tools read every cubin we made (the whole-cubin nvdisasm run on every 4th).
    let made: Vec<(String, &[u8])> = jobs
        .iter()
        .zip(&results)
        .filter_map(|(j, (_, c))| Some((format!("{} {}@O{}", j.arch, j.kernel, j.level), c.as_deref()?)))
        .collect();
    let mut verdicts = support::accepted_by_tools(t, &made, 4).into_iter();
    for (j, (r, cubin)) in jobs.iter().zip(results) {
        let r = match (r, cubin.is_some().then(|| verdicts.next().expect("a verdict per cubin"))) {
            (Ok(Ok(())), Some(Err(e))) => Err(e),
            (r, _) => r,
        };
        let (arch, name) = (j.arch, format!("{}@O{}", j.kernel, j.level));
        let tally = tallies.get_mut(arch).unwrap();
        tally.accepted += 1;
        let key = (arch.to_owned(), name.clone());
        match r {
            Ok(Ok(())) => {
                tally.compiled += 1;
                tally.agree += 1;
                if expected.contains_key(&key) {
                    if bless {
                        expected.remove(&key);
                    } else {
                        bad.push(format!("{arch} {name}: listed as refused but compiles (remove the line)"));
                    }
                }
            }
            Ok(Err(why)) => {
                let construct = why.split(" (").next().unwrap_or(&why).to_owned();
                *tally.refused.entry(construct).or_default() += 1;
                if bless {
                    expected.insert(key, why);
                } else if !expected.contains_key(&key) {
                    bad.push(format!("{arch} {name}: refused and not listed: {why}"));
                }
            }
            Err(e) => {
                tally.compiled += 1;
                bad.push(format!("{arch} {name}: {e}"));
            }
        }
    }
    if bless {
        write_expected(&expected);
    }
    for (arch, t) in &tallies {
        println!(
            "{arch}: {} kernel-levels ptxas accepts, {} compiled by ptxas-rs, {} agree with the interpreter, {} refused",
            t.accepted,
            t.compiled,
            t.agree,
            t.refused.values().sum::<usize>()
        );
        for (c, n) in &t.refused {
            println!("    refused {n}: {c}");
        }
    }
    assert!(bad.is_empty(), "{} problems:\n{}", bad.len(), bad.join("\n"));
}

/// -O3 on the sample of each arch ([`Arch::sample_every`]).
#[test]
fn backend_arch_sample() {
    run("backend_arch_sample", &[3], |a, i| i % a.sample_every == 0);
}

/// Every kernel, every arch, -O0 and -O3.
#[test]
#[ignore = "minutes: every arch at two levels"]
fn backend_arch_full() {
    run("backend_arch_full", &[0, 3], |_, _| true);
}
