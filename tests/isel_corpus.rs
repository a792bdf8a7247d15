//! Translation validation of instruction selection on the corpus.
//!
//! For every sm_90 CUDA kernel and every hand-written kernel that lowers and runs in the Ori
//! interpreter, instruction selection (`lower::isel::select_module_abi`, arch 90, with the
//! local frames of the lowering and the `.param`-address flags of the signatures, as the
//! backend selects: `interp::validate::SelectPass`) runs as a custom phase of
//! `interp::validate` after the legalization bridge it needs (`opt::Pipeline::before_selection`,
//! phase 5 ConvertUnsupportedOps: the rest of the pipeline is skipped), the interpreter before and
//! after, outputs compared byte for byte; calls after selection run with the register ABI,
//! `CALL`/`RET`), the selected module passes the verifier, every function is marked `sass` and
//! holds only SASS-stage opcodes (plus `phi`) and virtual registers (plus RZ/PT and the
//! prologue's R1). Kernels whose outputs differ only where the selection uses an
//! approximate unit (MUFU-based division, special functions) are accepted when every output
//! matches within the launch spec's tolerance, and counted separately.
//!
//! Report: `cargo test --test isel_corpus -- --nocapture` prints kernels selected and
//! validated / attempted, and every kernel that fails with the reason.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use interp::launch::{LaunchSpec, compare};
use interp::validate::{FailureKind, SelectPass, ValidateOptions, param_addresses, validate};
use interp::{ExecConfig, run_ori_with};
use ptxas_rs::lower::isel::{select_module, select_module_abi};
use ptxas_rs::lower::{LowerError, lower_module_framed, lower_source};
use ptxas_rs::opt::{Pipeline, PipelineOptions, PipelinePhase};
use ptxas_rs::ori::{Module, Opcode, Operand, Reg, Stage, verify_module};
use ptxas_rs::target::Target;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// (ptx, spec) of every sm_90 CUDA kernel and every hand-written kernel.
fn kernels() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for (sub, suffix) in [("cuda", ".sm_90.ptx"), ("ptx", ".ptx")] {
        let mut dirs: Vec<PathBuf> =
            std::fs::read_dir(corpus().join(sub)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
        dirs.sort();
        for d in dirs {
            let stem = d.file_name().unwrap().to_string_lossy().into_owned();
            let ptx = d.join(format!("{stem}{suffix}"));
            let spec = d.join(format!("{stem}.run.toml"));
            if ptx.exists() && spec.exists() {
                out.push((ptx, spec));
            }
        }
    }
    out
}

/// Kernels selected completely and validated (exactly or within the spec's tolerance),
/// measured when the selection landed; a regression fails.
const MIN_SELECTED: usize = 127;

/// The SASS-stage shape of a selected module: every function `sass`, not `allocated`, only
/// SASS-stage opcodes (and phi), only virtual registers besides RZ/PT and a kernel's R1.
fn check_sass_shape(m: &Module) -> Result<(), String> {
    for f in &m.functions {
        if !f.sass || f.allocated {
            return Err(format!("@{}: sass={} allocated={}", f.name, f.sass, f.allocated));
        }
        // Precoloured registers: R1 (stack pointer), the call ABI's general registers in a
        // function that calls or is called, and the convergence barriers (BSSY/BSYNC).
        let abi = f.kind == ptxas_rs::ori::FuncKind::Func
            || f.inst_order()
                .any(|(_, i)| matches!(f.insts[i].opcode, ptxas_rs::ori::Opcode::CALL | ptxas_rs::ori::Opcode::RET));
        for (_, i) in f.inst_order() {
            let d = &f.insts[i];
            if d.opcode.info().stage == Stage::Ptx {
                return Err(format!("@{}: PTX-stage opcode `{}` left", f.name, d.opcode));
            }
            for reg in d.dsts.iter().copied().chain(d.uses()) {
                if let Reg::Phys(p) = reg
                    && !p.is_zero()
                    && !(p.file == ptxas_rs::ori::RegFile::R && ((p.index == 1 && p.count == 1) || abi))
                    && p.file != ptxas_rs::ori::RegFile::B
                {
                    return Err(format!("@{}: physical register {p}", f.name));
                }
            }
        }
    }
    Ok(())
}

/// Runs the phases selection needs first ([`Pipeline::before_selection`]) on a lowered module.
fn bridge(m: &mut Module) -> Result<(), LowerError> {
    let opts = PipelineOptions { opt_level: 3, verify: true, ..Default::default() };
    Pipeline::before_selection().run(m, &opts, &mut []).map(|_| ()).map_err(|e| LowerError {
        line: 0,
        column: 0,
        function: None,
        message: e.to_string(),
    })
}

#[test]
fn selection_preserves_results_on_the_corpus() {
    let exec = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let opts = ValidateOptions { pipeline: PipelineOptions { opt_level: 3, verify: true, ..Default::default() }, exec };
    let (mut attempted, mut exact, mut tolerant, mut with_calls) = (0, 0, 0, 0);
    let mut fails: Vec<String> = Vec::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for (ptx, spec_path) in kernels() {
        let name = ptx.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(ast) = ptxas_rs::ptx::parse(&std::fs::read_to_string(&ptx).unwrap(), &name) else { continue };
        let Ok((module, frames)) = lower_module_framed(&ast) else { continue };
        let addr = param_addresses(&ast);
        let spec = LaunchSpec::from_path(&spec_path).unwrap();
        if run_ori_with(&module, &spec.kernel, &spec, &opts.exec).is_err() {
            continue; // the interpreter cannot run the input: nothing to compare with
        }
        attempted += 1;
        let mut selected = module.clone();
        if let Err(e) =
            bridge(&mut selected).and_then(|()| select_module_abi(&mut selected, &Target::default(), &frames, &addr))
        {
            let key = e.message.split(": ").last().unwrap_or("").to_string();
            *reasons.entry(key).or_default() += 1;
            fails.push(format!("{name}: not selected: {e}"));
            continue;
        }
        verify_module(&selected).unwrap_or_else(|e| panic!("{name}: the verifier rejects the selection:\n{e}"));
        check_sass_shape(&selected).unwrap_or_else(|e| panic!("{name}: {e}"));
        let calls = selected.functions.iter().any(|f| f.inst_order().any(|(_, i)| f.insts[i].opcode == Opcode::CALL));
        let pass = SelectPass { frames, addr, target: Target::default() };
        let mut pipeline = Pipeline::before_selection();
        pipeline.phases.push(PipelinePhase::custom("InstructionSelection", Arc::new(pass)));
        let v = validate(&module, &spec.kernel, &spec, &pipeline, &opts).unwrap();
        match v.failure {
            None => {
                exact += 1;
                with_calls += usize::from(calls);
            }
            Some(f) => {
                // Accept a difference within the spec's tolerance (approximate units).
                let within = matches!(f.kind, FailureKind::OutputsDiffer { .. }) && {
                    let a = run_ori_with(&module, &spec.kernel, &spec, &opts.exec).unwrap();
                    let b = run_ori_with(&selected, &spec.kernel, &spec, &opts.exec).unwrap();
                    spec.outputs().all(|buf| {
                        compare(buf, a.get(buf.name()).unwrap_or(&[]), b.get(buf.name()).unwrap_or(&[])).is_ok()
                    })
                };
                if within {
                    tolerant += 1;
                    with_calls += usize::from(calls);
                    println!("  within the spec tolerance (approximate units): {name}");
                } else {
                    *reasons.entry("results differ".into()).or_default() += 1;
                    fails.push(format!(
                        "{name}: {:?}\n{}",
                        f.kind,
                        f.ir_diff.lines().take(40).collect::<Vec<_>>().join("\n")
                    ));
                }
            }
        }
    }
    let selected = exact + tolerant;
    println!(
        "isel sm_90: selected and validated {selected} / {attempted} kernels ({exact} bit-exact, {tolerant} within the spec tolerance; {with_calls} with ABI calls)"
    );
    println!("failure reasons (kernels):");
    for (k, n) in &reasons {
        println!("  {n:3} {k}");
    }
    for f in &fails {
        println!("  FAIL {f}");
    }
    assert!(
        !fails.iter().any(|f| !f.contains("not selected")),
        "translation validation failures:\n{}",
        fails.iter().filter(|f| !f.contains("not selected")).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(selected >= MIN_SELECTED, "only {selected} kernels selected (expected at least {MIN_SELECTED})");
    let _ = Opcode::EXIT;
}

/// Prints the lowered and the selected Ori of the corpus kernels whose path contains `$K`:
/// `K=f32_arith cargo test --test isel_corpus dump -- --ignored --nocapture`.
#[test]
#[ignore]
fn dump() {
    let k = std::env::var("K").unwrap_or_default();
    for (ptx, _) in kernels() {
        if ptx.to_string_lossy().contains(&k) {
            let m = lower_source(&std::fs::read_to_string(&ptx).unwrap()).unwrap();
            println!("{m}");
            let mut s = m.clone();
            match bridge(&mut s).and_then(|()| select_module(&mut s, &Target::default())) {
                Ok(()) => println!("{s}"),
                Err(e) => println!("not selected: {e}"),
            }
        }
    }
}

/// The bank-0 offsets selection reads (`.param` words, the stack pointer, `%ntid`/`%nctaid`)
/// are the target's, not sm_90's restated: the same kernel selected for sm_80 and sm_100 reads
/// each slot where that target's layout puts it, and nothing else of bank 0. (Selection does
/// not refuse a target: the one refusal is `Target::backend`, in the driver and the backend.)
#[test]
fn selection_reads_bank0_from_the_target() {
    let text = std::fs::read_to_string(corpus().join("cuda/f32_arith/f32_arith.sm_90.ptx")).unwrap();
    let bank0 = |target: &Target| {
        let mut m = lower_source(&text).unwrap();
        bridge(&mut m).unwrap();
        select_module(&mut m, target).unwrap_or_else(|e| panic!("{}: {e}", target.name()));
        let mut offs: Vec<u32> = m
            .functions
            .iter()
            .flat_map(|f| f.insts.values().flat_map(|d| d.srcs.clone()))
            .filter_map(|o| match o {
                Operand::CBank(c) if c.bank == 0 => Some(c.offset as u32),
                _ => None,
            })
            .collect();
        offs.sort();
        offs
    };
    let sm90 = Target::default();
    let reference = bank0(&sm90);
    assert!(reference.iter().any(|&o| o >= sm90.param_base()), "the kernel reads parameters: {reference:x?}");
    assert!(reference.contains(&sm90.stack_pointer()), "{reference:x?}");
    for arch in ["sm_80", "sm_100"] {
        let t = Target::from_arch(arch).unwrap();
        let (from, to) = (sm90.layout(), t.layout());
        let moved = |o: u32| {
            if o >= from.param_base {
                return o - from.param_base + to.param_base;
            }
            let slots = [(from.stack_pointer, to.stack_pointer)].into_iter().chain(from.ntid.into_iter().zip(to.ntid));
            let mut slots = slots.chain(from.nctaid.into_iter().zip(to.nctaid));
            slots.find(|(a, _)| *a == o).unwrap_or_else(|| panic!("{arch}: sm_90 slot {o:#x} has no counterpart")).1
        };
        let mut want: Vec<u32> = reference.iter().map(|&o| moved(o)).collect();
        want.sort();
        assert_eq!(bank0(&t), want, "{arch}");
    }
}

/// Selection never panics: on every lowered corpus file of every arch it either selects a
/// verifier-clean SASS-stage module or returns an error that names the function and the
/// instruction.
#[test]
fn every_corpus_file_selects_or_fails_cleanly() {
    let mut files = Vec::new();
    for sub in ["cuda", "ptx"] {
        for d in std::fs::read_dir(corpus().join(sub)).unwrap() {
            let d = d.unwrap().path();
            if !d.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(&d).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "ptx") {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    let (mut selected, mut refused) = (0, 0);
    for f in &files {
        let Ok(mut m) = lower_source(&std::fs::read_to_string(f).unwrap()) else { continue };
        bridge(&mut m).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        match select_module(&mut m, &Target::default()) {
            Ok(()) => {
                verify_module(&m).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                check_sass_shape(&m).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                selected += 1;
            }
            Err(e) => {
                assert!(e.function.is_some() && e.message.contains('`'), "{}: unlocated error {e}", f.display());
                refused += 1;
            }
        }
    }
    println!("selected {selected}, refused {refused} of {} PTX files", files.len());
    assert!(selected > 0);
}
