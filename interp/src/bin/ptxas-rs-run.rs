//! `ptxas-rs-run`: the `run` command of `shared/notes/launch-spec.md` (`ptxas-rs run` forwards
//! here).
//!
//! ```text
//! ptxas-rs-run FILE --spec SPEC.toml [--engine interp|emu] [--arch sm_XX] [-O N] [--hazards]
//!              [--out DIR] [--expect DIR]
//! ```
//!
//! FILE is a `.cubin` (always engine `emu`) or a `.ptx` (engine `interp`, the default for PTX:
//! lowered to Ori by `ptxas_rs::lower` and run by the Ori interpreter; engine `emu` for PTX
//! needs the ptxas-rs backend, which is not there yet, and is a clear error). Writes each output buffer as raw little-endian bytes
//! to `DIR/<buffer>.bin`, prints one summary line per buffer, and exits non-zero on an execution
//! fault (exit 1, the error names the instruction and the thread) or an output mismatch with
//! `--expect` (exit 1, the first differing elements printed). Usage errors exit 2.
//!
//! `--modifiers LISTING` (temporary, while the sm_90 decoder's modifier table is incomplete):
//! an `nvdisasm -hex` listing of the same cubin; a word whose modifier bits the decoder does not
//! know yet takes its modifier suffix from the listing (operands still come from the decoder).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use interp::emu::program::listing_suffix;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare};
use interp::{ExecConfig, Outputs, run_ori_with};

struct Args {
    file: PathBuf,
    spec: PathBuf,
    engine: String,
    arch: Option<String>,
    hazards: bool,
    out: Option<PathBuf>,
    expect: Option<PathBuf>,
    modifiers: Option<PathBuf>,
}

const USAGE: &str = "usage: ptxas-rs run FILE --spec SPEC.toml [--engine interp|emu] [--arch sm_XX] [-O N] [--hazards] [--out DIR] [--expect DIR]";

fn parse(args: &[String]) -> Result<Args, String> {
    let mut file = None;
    let mut spec = None;
    let mut engine = None;
    let mut arch = None;
    let mut hazards = false;
    let mut out = None;
    let mut expect = None;
    let mut modifiers = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--spec" => spec = Some(PathBuf::from(value("--spec")?)),
            "--engine" => engine = Some(value("--engine")?),
            "--arch" => arch = Some(value("--arch")?),
            "-O" => {
                value("-O")?;
            }
            "--hazards" => hazards = true,
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--expect" => expect = Some(PathBuf::from(value("--expect")?)),
            "--modifiers" => modifiers = Some(PathBuf::from(value("--modifiers")?)),
            s if s.starts_with("-O") => {}
            s if s.starts_with('-') => return Err(format!("unknown option `{s}`")),
            s => {
                if file.replace(PathBuf::from(s)).is_some() {
                    return Err("more than one input file".into());
                }
            }
        }
    }
    let file = file.ok_or("no input file")?;
    let spec = spec.ok_or("--spec is required")?;
    let is_cubin = file.extension().is_some_and(|e| e == "cubin");
    let engine = engine.unwrap_or_else(|| if is_cubin { "emu".into() } else { "interp".into() });
    if engine != "emu" && engine != "interp" {
        return Err(format!("unknown engine `{engine}` (interp or emu)"));
    }
    Ok(Args { file, spec, engine, arch, hazards, out, expect, modifiers })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = match parse(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ptxas-rs run: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&a) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ptxas-rs run: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(a: &Args) -> Result<ExitCode, String> {
    let spec = LaunchSpec::from_path(&a.spec).map_err(|e| e.to_string())?;
    let is_cubin = a.file.extension().is_some_and(|e| e == "cubin");
    let (outputs, summary) = if is_cubin { run_cubin(a, &spec)? } else { run_ptx(a, &spec)? };
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut mismatch = false;
    for b in spec.outputs() {
        let bytes = outputs.get(b.name()).unwrap_or_default();
        println!("{}: {} x {:?} ({} bytes)", b.name(), b.len(), b.ty(), bytes.len());
        if let Some(dir) = &a.out {
            let p = dir.join(format!("{}.bin", b.name()));
            std::fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        if let Some(dir) = &a.expect {
            let p = dir.join(format!("{}.bin", b.name()));
            let want = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            if let Err(m) = compare(b, &want, bytes) {
                eprintln!("ptxas-rs run: {}: mismatch: {m}", b.name());
                mismatch = true;
            }
        }
    }
    println!("{summary}");
    Ok(if mismatch { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Runs a `.cubin` on the SASS emulator; returns the outputs and a summary line.
fn run_cubin(a: &Args, spec: &LaunchSpec) -> Result<(Outputs, String), String> {
    if a.engine != "emu" {
        return Err(format!("{}: a .cubin always runs on engine emu", a.file.display()));
    }
    let bytes = std::fs::read(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    let kernel = Kernel::load(&bytes, &spec.kernel).map_err(|e| e.to_string())?;
    if let Some(arch) = &a.arch {
        let want = arch.trim_start_matches("sm_").trim_end_matches('a');
        if want != kernel.sm.to_string() {
            return Err(format!("{}: the cubin is for sm_{}, not {arch}", a.file.display(), kernel.sm));
        }
    }
    let cfg = EmuConfig { hazards: a.hazards, ..EmuConfig::default() };
    let suffixes = match &a.modifiers {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            listing_suffixes(&text, &spec.kernel)
        }
        None => BTreeMap::new(),
    };
    let run = kernel.run_with_suffixes(spec, &cfg, &suffixes).map_err(|e| e.to_string())?;
    let summary = format!(
        "ran {} warp-instructions ({} thread-instructions){}",
        run.outputs.warp_steps,
        run.thread_instrs,
        if a.hazards { ", no hazards" } else { "" }
    );
    Ok((run.outputs, summary))
}

/// Lowers a `.ptx` to Ori and runs it on the Ori interpreter; returns the outputs and a summary
/// line. Front-end and lowering errors are reported in ptxas's located format.
fn run_ptx(a: &Args, spec: &LaunchSpec) -> Result<(Outputs, String), String> {
    if a.engine != "interp" {
        return Err(format!(
            "{}: engine emu on PTX input needs the ptxas-rs backend (PTX -> SASS), which is not implemented yet; \
             use --engine interp, or compile with NVIDIA ptxas and run the .cubin",
            a.file.display()
        ));
    }
    if a.hazards {
        return Err("--hazards needs engine emu (the Ori interpreter has no scheduling to check)".into());
    }
    let text = std::fs::read_to_string(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    let module = ptxas_rs::lower::lower_source(&text).map_err(|e| format!("{}: {e}", a.file.display()))?;
    // Local memory as in the corpus tests: deep recursion and large local arrays need more than
    // the interpreter's default per-thread window.
    let cfg = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let out = run_ori_with(&module, &spec.kernel, spec, &cfg).map_err(|e| e.to_string())?;
    let summary = format!("ran {} warp-instructions (Ori interpreter)", out.warp_steps);
    Ok((out, summary))
}

/// Offset -> modifier suffix of each instruction of `kernel`'s section in an nvdisasm listing
/// (see [`listing_suffix`]).
fn listing_suffixes(text: &str, kernel: &str) -> BTreeMap<u32, String> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with(".section") {
            inside = t.starts_with(&format!(".section\t.text.{kernel},"))
                || t.starts_with(&format!(".section .text.{kernel},"));
            continue;
        }
        if !inside || !t.starts_with("/*") {
            continue;
        }
        let Some((off, rest)) = t[2..].split_once("*/") else { continue };
        let Ok(off) = u32::from_str_radix(off.trim(), 16) else { continue };
        out.insert(off, listing_suffix(rest.split(';').next().unwrap_or("")));
    }
    out
}
