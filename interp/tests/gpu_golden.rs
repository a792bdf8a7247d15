//! Hardware golden outputs (issues 5 and 7): what an H100/H200 computes for every corpus kernel,
//! and the checks that hold the emulator, the interpreter and our cubins to it.
//!
//! The goldens are `corpus/gpu/sm_90/<kernel>/<buffer>.bin`: the output buffers of NVIDIA's
//! sm_90 cubin (ptxas 13.0.88, -O3; sm_90a for the wgmma kernel) run on the GPU through the
//! CUDA driver by `interp/gpu/cuda_runner.c` from the launch plans [`write_gpu_plans`] writes.
//! `corpus/gpu/sm_90/README.md` says which machine, driver and command recorded them. They are
//! recorded only when a GPU is lent (see `interp/gpu/README.md`); the checks here need no GPU.
//!
//! Checks (each kernel-executor pair compares under the launch spec's tolerances):
//! - [`nvidia_cubins_in_the_emulator_match_the_gpu`]: emulator(NVIDIA's cubin) == GPU;
//! - [`interpreter_matches_the_gpu`]: Ori interpreter(lowered PTX) == GPU;
//! - [`our_cubins_in_the_emulator_match_the_gpu`]: emulator(ptxas-rs cubin, -O0 and -O3) == GPU.
//!
//! A pair that disagrees fails unless its `KNOWN_*` list explains why (with the investigated
//! cause); an explained pair that starts agreeing fails too, so the lists stay true.

#[path = "../../tests/common/par.rs"]
mod par;
#[path = "support/emu_corpus.rs"]
mod support;
use support::read_outputs;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare, plan};
use ptxas_rs::backend;

/// One runnable corpus kernel: name, PTX, launch spec, the arch NVIDIA ptxas compiles it for.
struct Entry {
    name: String,
    ptx: PathBuf,
    spec: PathBuf,
    arch: &'static str,
}

/// Every corpus kernel an sm_90 GPU can run: the CUDA kernels' sm_90 (or sm_90a) PTX and the
/// hand-written PTX (all of it targets sm_90 or lower).
fn runnable() -> Vec<Entry> {
    let mut v = Vec::new();
    for (k, d, hand) in support::spec_dirs() {
        let spec = d.join(format!("{k}.run.toml"));
        let candidates: &[(&str, &'static str)] =
            if hand { &[("ptx", "sm_90")] } else { &[("sm_90.ptx", "sm_90"), ("sm_90a.ptx", "sm_90a")] };
        if let Some((ptx, arch)) =
            candidates.iter().map(|(ext, arch)| (d.join(format!("{k}.{ext}")), *arch)).find(|(p, _)| p.exists())
        {
            v.push(Entry { name: k, ptx, spec, arch });
        }
    }
    v
}

fn golden_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/gpu/sm_90")
}

/// The recorded GPU outputs of a kernel, or None when none were recorded.
fn golden(spec: &LaunchSpec, name: &str) -> Option<BTreeMap<String, Vec<u8>>> {
    read_outputs(&golden_root().join(name), spec)
}

/// Compares outputs with the golden under the spec's tolerances.
fn against(spec: &LaunchSpec, got: &BTreeMap<String, Vec<u8>>, gold: &BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    let mut diffs = Vec::new();
    for buf in spec.outputs() {
        let n = buf.name();
        let Some(g) = got.get(n) else {
            diffs.push(format!("{n}: missing"));
            continue;
        };
        if let Err(m) = compare(buf, &gold[n], g) {
            diffs.push(format!("{n}: {m}"));
        }
    }
    if diffs.is_empty() { Ok(()) } else { Err(diffs.join("; ")) }
}

/// Tallies the pairs of one check and fails on an unexplained disagreement.
#[derive(Default)]
struct Tally {
    agree: Vec<String>,
    explained: Vec<String>,
    bad: Vec<String>,
    skipped: Vec<String>,
}

impl Tally {
    fn record(&mut self, name: String, result: Result<(), String>, known: &[(&str, &str)]) {
        match (result, known.iter().find(|(n, _)| *n == name)) {
            (Ok(()), None) => self.agree.push(name),
            (Ok(()), Some(_)) => self.bad.push(format!("{name}: listed as known but now agrees with the GPU")),
            (Err(e), Some((_, why))) => {
                let e: String = e.chars().take(160).collect();
                self.explained.push(format!("{name}: {why}\n      (now: {e})"))
            }
            (Err(e), None) => self.bad.push(format!("{name}: {e}")),
        }
    }

    fn finish(self, what: &str, min_agree: usize) {
        println!(
            "{what}: {} agree with the GPU, {} explained, {} skipped",
            self.agree.len(),
            self.explained.len(),
            self.skipped.len()
        );
        for e in &self.explained {
            println!("  explained: {e}");
        }
        for s in &self.skipped {
            println!("  skipped: {s}");
        }
        assert!(self.bad.is_empty(), "{what}: disagreements with the GPU:\n{}", self.bad.join("\n"));
        assert!(
            self.agree.len() >= min_agree,
            "{what}: only {} agree (expected at least {min_agree})",
            self.agree.len()
        );
    }
}

/// Kernels with no golden yet (recording needs a GPU); the checks skip them and say so.
fn with_goldens() -> Vec<(Entry, LaunchSpec, BTreeMap<String, Vec<u8>>)> {
    runnable()
        .into_iter()
        .filter_map(|e| {
            let spec = LaunchSpec::from_path(&e.spec).unwrap();
            let g = golden(&spec, &e.name)?;
            Some((e, spec, g))
        })
        .collect()
}

// Causes of the disagreements with the GPU, as far as they are investigated. "expected" in a
// message is the GPU's value.
const CONTRACTED: &str = "ptxas -O3 contracts `mul.bf16` + `add.bf16` (no rounding modifier, which PTX allows) into \
     one `HFMA2.BF16_V2`, so 5 `outs` elements of the golden (NVIDIA's -O3 cubin) are the fused result, one bf16 ulp \
     from PTX's two roundings, which the interpreter computes on the lowered PTX (before phase 9 contracts)";
const CONTRACTED_O0: &str = "the golden is NVIDIA's -O3 cubin, which contracts `mul.bf16` + `add.bf16` into one \
     `HFMA2.BF16_V2`; at -O0 neither ptxas (measured: HMUL2 + HADD2) nor our phase 9 contracts, so 5 `outs` elements \
     are PTX's two roundings, one bf16 ulp from the golden (our -O3 cubin contracts and agrees)";
const SELP_FOLDED: &str = "ptxas folds `setp.gt x, 1; selp 1, x` into `FMNMX.NAN x, 1`, which gives 0x7fffffff for a \
     NaN x; PTX selp (this executor) keeps x's NaN bits (0x7f800001, 0xffffffff): the GPU's result is not the PTX one";

const KNOWN_INTERP: &[(&str, &str)] = &[("bf16_arith2", CONTRACTED), ("f32_compare_select", SELP_FOLDED)];
const KNOWN_EMU_OURS: &[(&str, &str)] = &[
    ("bf16_arith2@O0", CONTRACTED_O0),
    ("f32_compare_select@O0", SELP_FOLDED),
    ("f32_compare_select@O3", SELP_FOLDED),
];
const KNOWN_EMU_NVIDIA: &[(&str, &str)] = &[];

#[test]
fn nvidia_cubins_in_the_emulator_match_the_gpu() {
    let Some(t) = oracle::tools_or_skip("nvidia_cubins_in_the_emulator_match_the_gpu") else { return };
    let mut tally = Tally::default();
    let kernels = with_goldens();
    let results = par::par_map(&kernels, |(e, spec, gold)| {
        let cubin = support::nvidia_cubin_with(t, &e.ptx, &["-arch", e.arch]);
        let kernel = Kernel::load(&cubin, &spec.kernel).map_err(|x| format!("load: {x}"))?;
        let sfx = support::nvdisasm_suffixes(t, &cubin, &spec.kernel);
        let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
        let run = kernel.run_with_suffixes(spec, &cfg, &sfx).map_err(|x| format!("emulator: {x}"))?;
        against(spec, &run.outputs.buffers, gold)
    });
    for ((e, ..), result) in kernels.into_iter().zip(results) {
        tally.record(e.name, result, KNOWN_EMU_NVIDIA);
    }
    tally.finish("emulator(NVIDIA sm_90 cubin)", 128);
}

#[test]
fn interpreter_matches_the_gpu() {
    let exec = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let mut tally = Tally::default();
    for (e, spec, gold) in with_goldens() {
        let text = std::fs::read_to_string(&e.ptx).unwrap();
        let result = match ptxas_rs::lower::lower_source(&text) {
            Err(_) => {
                tally.skipped.push(format!("{} (does not lower yet)", e.name));
                continue;
            }
            Ok(module) => interp::run_ori_with(&module, &spec.kernel, &spec, &exec)
                .map_err(|x| format!("interpreter: {x}"))
                .and_then(|out| against(&spec, &out.buffers, &gold)),
        };
        tally.record(e.name, result, KNOWN_INTERP);
    }
    tally.finish("interpreter(lowered PTX)", 126);
}

#[test]
fn our_cubins_in_the_emulator_match_the_gpu() {
    let mut tally = Tally::default();
    // Per kernel-level: its name and `Err(refusal)` or `Ok(result)`.
    let per_kernel = par::par_map(&with_goldens(), |(e, spec, gold)| {
        let text = std::fs::read_to_string(&e.ptx).unwrap();
        let Ok(ast) = ptxas_rs::ptx::parse(&text, "in.ptx") else { return vec![] };
        let mut out = Vec::new();
        for level in [0u8, 3] {
            let name = format!("{}@O{level}", e.name);
            let opts = backend::Options { opt_level: level, ..backend::Options::default() };
            let compiled = match backend::compile(&ast, &opts) {
                Ok(c) => c,
                Err(x) => {
                    out.push((name.clone(), Err(format!("{name} (refused by {})", x.stage))));
                    continue;
                }
            };
            let result = (|| {
                let kernel = Kernel::load(&compiled.cubin, &spec.kernel).map_err(|x| format!("load: {x}"))?;
                let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
                let run = kernel.run(spec, &cfg).map_err(|x| format!("emulator: {x}"))?;
                against(spec, &run.outputs.buffers, gold)
            })();
            out.push((name, Ok(result)));
        }
        out
    });
    for (name, r) in per_kernel.into_iter().flatten() {
        match r {
            Err(refusal) => tally.skipped.push(refusal),
            Ok(result) => tally.record(name, result, KNOWN_EMU_OURS),
        }
    }
    tally.finish("emulator(ptxas-rs sm_90 cubin)", 253);
}

/// Writes the launch plans for the GPU runner into `$PTXAS_RS_GPU_PLANS`: `nv/<kernel>` for
/// NVIDIA's cubin (`nv0/<kernel>` for its -O0 build), `rs0/<kernel>` and `rs3/<kernel>` for ours at -O0 and -O3 (where the backend
/// compiles the kernel). `interp/gpu/README.md` has the whole procedure.
#[test]
#[ignore = "writes GPU launch plans; run by hand when a GPU is lent"]
fn write_gpu_plans() {
    let dir =
        PathBuf::from(std::env::var("PTXAS_RS_GPU_PLANS").expect("set PTXAS_RS_GPU_PLANS to the plans directory"));
    let t = oracle::tools().expect("NVIDIA tools");
    let (mut nv, mut ours) = (0, 0);
    for e in runnable() {
        let spec = LaunchSpec::from_path(&e.spec).unwrap();
        for (set, level) in [("nv", "-O3"), ("nv0", "-O0")] {
            let cubin = support::nvidia_cubin_with(t, &e.ptx, &["-arch", e.arch, level]);
            plan::write_plan(&spec, &cubin, &dir.join(set).join(&e.name)).unwrap();
            nv += 1;
        }
        let text = std::fs::read_to_string(&e.ptx).unwrap();
        let Ok(ast) = ptxas_rs::ptx::parse(&text, "in.ptx") else { continue };
        for level in [0u8, 3] {
            let opts = backend::Options { opt_level: level, ..backend::Options::default() };
            if let Ok(c) = backend::compile(&ast, &opts) {
                plan::write_plan(&spec, &c.cubin, &dir.join(format!("rs{level}")).join(&e.name)).unwrap();
                ours += 1;
            }
        }
    }
    println!("wrote {nv} plans of NVIDIA cubins and {ours} of ours to {}", dir.display());
}

/// Reports a GPU run (`$PTXAS_RS_GPU_RESULTS`, from `interp/gpu/run_plans.sh` over the plans in
/// `$PTXAS_RS_GPU_PLANS`): per set, how many plans ran, how many agree with the `nv` set (NVIDIA's
/// -O3 cubin on the same GPU), and for our cubins how many agree with the emulator running the
/// very cubin the GPU ran. Prints every disagreement; asserts nothing (the numbers go in notes).
#[test]
#[ignore = "reads a GPU run's results; run by hand after run_plans.sh"]
fn gpu_report() {
    let res = PathBuf::from(std::env::var("PTXAS_RS_GPU_RESULTS").expect("set PTXAS_RS_GPU_RESULTS"));
    let plans = PathBuf::from(std::env::var("PTXAS_RS_GPU_PLANS").expect("set PTXAS_RS_GPU_PLANS"));
    let specs: BTreeMap<String, LaunchSpec> =
        runnable().into_iter().map(|e| (e.name.clone(), LaunchSpec::from_path(&e.spec).unwrap())).collect();
    let read = |set: &str, k: &str, spec: &LaunchSpec| -> Option<BTreeMap<String, Vec<u8>>> {
        let d = res.join(set).join(k);
        if std::fs::read_to_string(d.join("status")).ok()?.trim() != "ok" {
            return None;
        }
        read_outputs(&d, spec)
    };
    for set in ["nv0", "rs0", "rs3"] {
        let Ok(dir) = std::fs::read_dir(res.join(set)) else { continue };
        let mut kernels: Vec<String> = dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        kernels.sort();
        let (mut ran, mut same_gpu, mut same_emu, mut emu_ran) = (0, 0, 0, 0);
        for k in &kernels {
            let spec = &specs[k];
            let status = std::fs::read_to_string(res.join(set).join(k).join("status")).unwrap_or_default();
            let Some(got) = read(set, k, spec) else {
                println!("{set}/{k}: did not run: {}", status.trim());
                continue;
            };
            ran += 1;
            match read("nv", k, spec).map(|nv| against(spec, &got, &nv)) {
                Some(Ok(())) => same_gpu += 1,
                Some(Err(e)) => println!("{set}/{k}: differs from nv on the GPU: {e}"),
                None => println!("{set}/{k}: nv did not run"),
            }
            if set.starts_with("rs") {
                let cubin = std::fs::read(plans.join(set).join(k).join("kernel.cubin")).unwrap();
                let emu = Kernel::load(&cubin, &spec.kernel)
                    .map_err(|x| x.to_string())
                    .and_then(|kern| kern.run(spec, &EmuConfig::default()).map_err(|x| x.to_string()));
                match emu {
                    Ok(run) => {
                        emu_ran += 1;
                        match against(spec, &got, &run.outputs.buffers) {
                            Ok(()) => same_emu += 1,
                            Err(e) => println!("{set}/{k}: GPU and emulator differ: {e}"),
                        }
                    }
                    Err(e) => println!("{set}/{k}: emulator: {e}"),
                }
            }
        }
        println!(
            "{set}: {} plans, {ran} ran on the GPU, {same_gpu} equal NVIDIA's -O3 cubin on the GPU{}",
            kernels.len(),
            if set.starts_with("rs") {
                format!(", {same_emu} of {emu_ran} equal the emulator on the same cubin")
            } else {
                String::new()
            }
        );
    }
}
