//! The fp8 and `.satfinite` packing conversions end to end on sm_90 and sm_90a (issue 23): the
//! form-sweep generator's cvt cases with `.e4m3x2`/`.e5m2x2` or `.satfinite` (random full-width
//! and edge inputs, register/guard/immediate operand kinds), compiled by NVIDIA's ptxas 13.0.88
//! at -O0 and -O3 and by ours at -O3. Checked:
//!
//! 1. every word of NVIDIA's cubins decodes, prints as nvdisasm prints it and re-encodes;
//! 2. the SASS emulator (hazard checker on) running NVIDIA's cubins gives the Ori
//!    interpreter's outputs on the PTX, bit for bit (the emulator's fp8 code, `emu::fp8`, and
//!    the interpreter's, `ori::fp8`, are separate implementations);
//! 3. our cubin of the same module gives the interpreter's outputs in the emulator;
//! 4. the cases ptxas rejects (`.rm`/`.rp` with `.satfinite`) our front end rejects too.

#[path = "support/forms.rs"]
mod forms_support;

use forms_support::*;
use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::forms::{self, Case};
use interp::launch::compare::compare;
use ptxas_rs::sass;

fn selected() -> Vec<Case> {
    forms::families::all()
        .into_iter()
        .filter(|c| c.family == "cvt" && ["e4m3", "e5m2", "satfinite"].iter().any(|w| c.opcode.contains(w)))
        .collect()
}

/// Runs `case` from `cubin` in the emulator and compares with the interpreter.
fn agree(cubin: &ptxas_rs::cubin::Cubin, case: &Case, arch: &str) -> Result<(), String> {
    let module = ptxas_rs::lower::lower_source(&case.module_text(arch)).map_err(|e| format!("lower: {e}"))?;
    let exec = ExecConfig { step_limit: 10_000_000, ..ExecConfig::default() };
    let spec = case.spec();
    let ori = interp::run_ori_with(&module, &case.name, &spec, &exec).map_err(|e| format!("interp: {e}"))?;
    let kernel = Kernel::from_cubin(cubin, &case.name).map_err(|e| format!("emu-load: {}", e.kind))?;
    let cfg = EmuConfig { hazards: true, step_limit: 1_000_000, ..EmuConfig::default() };
    let run = kernel.run(&spec, &cfg).map_err(|e| format!("emu: {}", e.kind))?;
    for b in spec.outputs() {
        compare(b, &run.outputs.buffers[b.name()], &ori.buffers[b.name()]).map_err(|m| format!("{}: {m}", b.name()))?;
    }
    Ok(())
}

#[test]
fn fp8_and_satfinite_cvt_agree_on_nvidia_and_our_cubins() {
    let Some(t) = oracle::tools_or_skip("fp8_and_satfinite_cvt_agree_on_nvidia_and_our_cubins") else { return };
    let cases = selected();
    let refs: Vec<&Case> = cases.iter().collect();
    let mut failures = Vec::new();
    let (mut runs, mut words, mut rejected) = (0, 0, 0);
    for arch in ["sm_90", "sm_90a"] {
        let batch = build(t, &refs, arch);
        let accepted: Vec<&Case> = batch.accepted.iter().map(|&i| refs[i]).collect();
        // What ptxas rejects (`.rm`/`.rp` with `.satfinite`), we reject too.
        for (i, c) in refs.iter().enumerate() {
            if !batch.accepted.contains(&i) && ptxas_rs::lower::lower_source(&c.module_text(arch)).is_ok() {
                failures.push(format!("{} {arch}: ptxas rejects it, we accept it", c.instruction()));
            }
        }
        rejected += refs.len() - accepted.len();
        let tables = sass::tables_for(arch).expect("sm_90 tables");
        for (opt, cubin, listing) in &batch.builds {
            for f in &listing.functions {
                for i in &f.instructions {
                    words += 1;
                    if !round_trips(tables, i.word, i.offset, &i.text) {
                        failures.push(format!("{arch} -O{opt} {:#034x} `{}` does not round-trip", i.word, i.text));
                    }
                }
            }
            let parsed = ptxas_rs::cubin::Cubin::parse(cubin).expect("NVIDIA's cubin parses");
            for c in &accepted {
                runs += 1;
                if let Err(e) = agree(&parsed, c, arch) {
                    failures.push(format!("{} {arch} NVIDIA -O{opt}: {e}", c.instruction()));
                }
            }
        }
        // Our cubin of the same module.
        let (text, _) = forms::module_text(&accepted, arch);
        let dir = std::env::temp_dir().join(format!("ptxas-rs-cvt-fp8-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (src, out) = (dir.join(format!("{arch}.ptx")), dir.join(format!("{arch}.cubin")));
        std::fs::write(&src, &text).unwrap();
        let args: Vec<String> =
            ["-O3", "-arch", arch, src.to_str().unwrap(), "-o", out.to_str().unwrap()].map(String::from).to_vec();
        let r = ptxas_rs::driver::run(&args);
        assert_eq!(r.status, 0, "{arch}: our compile failed: {:?}", r.diagnostics);
        let bytes = std::fs::read(&out).unwrap();
        let ours = ptxas_rs::cubin::Cubin::parse(&bytes).expect("our cubin parses");
        for c in &accepted {
            runs += 1;
            if let Err(e) = agree(&ours, c, arch) {
                failures.push(format!("{} {arch} ours -O3: {e}", c.instruction()));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    println!("{} cases ({rejected} rejected over both targets), {words} NVIDIA words, {runs} runs", cases.len());
    assert!(cases.len() >= 40, "the generator lost the fp8 cases");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
