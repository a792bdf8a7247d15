//! The integer packing conversions end to end on sm_90 (issue 23): the corpus kernels
//! `cvt_pack_subbyte` (`cvt.pack.sat.{u4,s4,u2,s2}.s32.b32` on boundary and random operands)
//! and `cvt_pack_int` (`.u16 .s16 .u8 .s8`). Checked:
//!
//! 1. every word of NVIDIA's cubins (ptxas 13.0.88, -O0 and -O3) decodes, prints as nvdisasm
//!    prints it and re-encodes (the I2IP sub-byte forms' `R4.24`/`R4.28` included);
//! 2. the SASS emulator (hazard checker on) running NVIDIA's cubins gives the Ori interpreter's
//!    outputs on the PTX, bit for bit (the emulator's `I2ip` and the interpreter's `pack_sat`
//!    are separate implementations);
//! 3. our cubins (-O0 and -O3) give the interpreter's outputs in the emulator;
//! 4. the malformed forms ptxas rejects, our front end rejects with ptxas's first message.

#[path = "support/forms.rs"]
mod forms_support;

use std::path::Path;

use forms_support::{cubin, listing, round_trips};
use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare};
use ptxas_rs::sass;

const KERNELS: [&str; 2] = ["cvt_pack_subbyte", "cvt_pack_int"];

fn corpus(k: &str) -> (String, LaunchSpec) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/ptx").join(k);
    let text = std::fs::read_to_string(d.join(format!("{k}.ptx"))).unwrap();
    let spec = LaunchSpec::from_path(&d.join(format!("{k}.run.toml"))).unwrap();
    (text, spec)
}

/// Runs `k` from `cubin` in the emulator and compares with the interpreter's `want`.
fn agree(bytes: &[u8], k: &str, spec: &LaunchSpec, want: &interp::Outputs) -> Result<(), String> {
    let cubin = ptxas_rs::cubin::Cubin::parse(bytes).map_err(|e| format!("cubin: {e:?}"))?;
    let kernel = Kernel::from_cubin(&cubin, k).map_err(|e| format!("emu-load: {}", e.kind))?;
    let cfg = EmuConfig { hazards: true, step_limit: 1_000_000, ..EmuConfig::default() };
    let run = kernel.run(spec, &cfg).map_err(|e| format!("emu: {}", e.kind))?;
    for b in spec.outputs() {
        compare(b, &run.outputs.buffers[b.name()], &want.buffers[b.name()])
            .map_err(|m| format!("{}: {m}", b.name()))?;
    }
    Ok(())
}

#[test]
fn integer_packing_agrees_on_nvidia_and_our_cubins() {
    let Some(t) = oracle::tools_or_skip("integer_packing_agrees_on_nvidia_and_our_cubins") else { return };
    let tables = sass::tables_for("sm_90").expect("sm_90 tables");
    let (mut failures, mut words, mut runs) = (Vec::new(), 0, 0);
    for k in KERNELS {
        let (text, spec) = corpus(k);
        let module = ptxas_rs::lower::lower_source(&text).expect("lowers");
        let exec = ExecConfig { step_limit: 10_000_000, ..ExecConfig::default() };
        let want = interp::run_ori_with(&module, k, &spec, &exec).expect("interpreter runs");
        for opt in ["-O0", "-O3"] {
            let nv = cubin(t, &text, &[opt, "-arch", "sm_90"]);
            for f in &listing(t, &nv).functions {
                for i in &f.instructions {
                    words += 1;
                    if !round_trips(tables, i.word, i.offset, &i.text) {
                        failures.push(format!("{k} {opt} {:#034x} `{}` does not round-trip", i.word, i.text));
                    }
                }
            }
            runs += 1;
            if let Err(e) = agree(&nv, k, &spec, &want) {
                failures.push(format!("{k} NVIDIA {opt}: {e}"));
            }
            let dir = std::env::temp_dir().join(format!("ptxas-rs-cvt-pack-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let (src, out) = (dir.join(format!("{k}.ptx")), dir.join(format!("{k}{opt}.cubin")));
            std::fs::write(&src, &text).unwrap();
            let args: Vec<String> =
                [opt, "-arch", "sm_90", src.to_str().unwrap(), "-o", out.to_str().unwrap()].map(String::from).to_vec();
            let r = ptxas_rs::driver::run(&args);
            runs += 1;
            if r.status != 0 {
                failures.push(format!("{k} ours {opt}: compile failed: {:?}", r.diagnostics));
            } else if let Err(e) = agree(&std::fs::read(&out).unwrap(), k, &spec, &want) {
                failures.push(format!("{k} ours {opt}: {e}"));
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    println!("{words} NVIDIA words, {runs} runs");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// A module with `body` between one kernel's register declarations and its `ret`.
fn probe(body: &str) -> String {
    format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
         .reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n.reg .b16 %h<2>;\nld.param.u64 %rd1, [p];\n\
         ld.global.u32 %r1, [%rd1];\n{body}\nst.global.u32 [%rd1+12], %r4;\nret;\n}}\n"
    )
}

#[test]
fn malformed_sub_byte_packing_is_rejected_as_ptxas_does() {
    let Some(t) = oracle::tools_or_skip("malformed_sub_byte_packing_is_rejected_as_ptxas_does") else { return };
    let mut failures = Vec::new();
    for (body, accepted) in [
        ("cvt.pack.sat.u4.s32.b32 %r4, %r1, %r1, %r1;", true),
        ("cvt.pack.sat.s2.s32.b32 %r4, 5, %r1, 3;", true),
        ("cvt.pack.sat.u4.s32.b32 %rd1, %r1, %r1, %r1;", true),
        ("cvt.pack.sat.u2.s32 %r4, %r1, %r1;", false),
        ("cvt.pack.sat.u2.s32.b32 %r4, %r1, %r1;", false),
        ("cvt.pack.sat.u2.u32.b32 %r4, %r1, %r1, %r1;", false),
        ("cvt.pack.sat.s4.s32.s32 %r4, %r1, %r1, %r1;", false),
        ("cvt.pack.sat.u4.s32 %r4, %r1, %r1;", false),
        ("cvt.pack.sat.u2.s32.b32 %h1, %r1, %r1, %r1;", false),
        ("cvt.pack.sat.s2.s32.b32 %r4, %r1, %r1, %r1, %r1;", false),
        ("cvt.pack.sat.u2.s32.b32.u8 %r4, %r1, %r1, %r1;", false),
        ("cvt.pack.u2.s32.b32 %r4, %r1, %r1, %r1;", false),
        ("cvt.pack.s8.s32.b32 %r4, %r1, %r1, %r1;", false),
        ("add.u2 %r4, %r1, %r1;", false),
    ] {
        let text = probe(body);
        let nv = t
            .ptxas_run(oracle::PtxInput::Text { name: "p.ptx", text: &text }, &["-arch", "sm_90"])
            .expect("ptxas runs");
        if nv.cubin.is_some() != accepted {
            failures.push(format!(
                "`{body}`: ptxas {} it (the test's table is stale)",
                if accepted { "rejects" } else { "accepts" }
            ));
            continue;
        }
        let first = |s: &str| {
            s.lines()
                .find(|l| l.contains("error"))
                .map(|l| l.split("error   : ").last().unwrap_or(l).trim().to_string())
        };
        let src = std::env::temp_dir().join(format!("ptxas-rs-cvt-pack-probe-{}.ptx", std::process::id()));
        std::fs::write(&src, &text).unwrap();
        let out = src.with_extension("cubin");
        let r = ptxas_rs::driver::run(
            &["-arch", "sm_90", src.to_str().unwrap(), "-o", out.to_str().unwrap()].map(String::from),
        );
        let ours_msg = first(&r.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"));
        match (accepted, r.status == 0) {
            (true, true) => {}
            (true, false) => failures.push(format!("`{body}`: ptxas accepts it, we reject it: {ours_msg:?}")),
            (false, true) => failures.push(format!("`{body}`: ptxas rejects it, we accept it")),
            (false, false) => {
                let theirs = first(&nv.stderr);
                if theirs != ours_msg {
                    failures.push(format!("`{body}`: ptxas says {theirs:?}, we say {ours_msg:?}"));
                }
            }
        }
        let _ = std::fs::remove_file(&src);
        let _ = std::fs::remove_file(&out);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
