//! `ptxas-rs run` end to end: the driver forwards to `ptxas-rs-run` (built from the `interp`
//! crate) found beside it, which runs NVIDIA's cubin of a corpus kernel in the SASS emulator,
//! writes the output buffers, and checks them with `--expect`. Also the error paths: the missing
//! helper executable, `.ptx` input on the Ori interpreter (equal to the emulator's outputs), an
//! undecodable instruction.

use std::path::{Path, PathBuf};
use std::process::Command;

fn ptxas_rs() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ptxas-rs"))
}

/// `ptxas-rs-run` beside `ptxas-rs`, (re)built first: cargo does not build another package's
/// binary for this package's tests, and a stale one would test old code.
fn run_tool() -> PathBuf {
    let p = ptxas_rs().with_file_name(format!("ptxas-rs-run{}", std::env::consts::EXE_SUFFIX));
    {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let st = Command::new(cargo)
            .args(["build", "-p", "interp", "--bin", "ptxas-rs-run"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(st.success());
    }
    assert!(p.is_file(), "{} missing", p.display());
    p
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptxas-rs-cli-run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn corpus(k: &str) -> (PathBuf, PathBuf) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/cuda").join(k);
    (d.join(format!("{k}.sm_90.ptx")), d.join(format!("{k}.run.toml")))
}

#[test]
fn missing_helper_is_a_clear_error() {
    let d = scratch("missing");
    let exe = d.join(format!("ptxas-rs{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(ptxas_rs(), &exe).unwrap();
    let out = Command::new(&exe).args(["run", "k.cubin", "--spec", "k.run.toml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cargo build -p interp --bin ptxas-rs-run"), "{err}");
}

#[test]
fn run_nvidia_cubin_end_to_end() {
    let Some(t) = oracle::tools_or_skip("run_nvidia_cubin_end_to_end") else { return };
    let tool = run_tool();
    let (ptx, spec) = corpus("int_arith");
    let d = scratch("e2e");
    let cubin = d.join("int_arith.cubin");
    let out = t.ptxas_run(oracle::PtxInput::File { path: &ptx, cwd: None }, &["-arch", "sm_90"]).unwrap();
    std::fs::write(&cubin, out.cubin.unwrap()).unwrap();
    // Undecodable words (the decoder's sm_90 modifier table is incomplete) are located errors.
    let r = Command::new(ptxas_rs()).arg("run").arg(&cubin).arg("--spec").arg(&spec).output().unwrap();
    if r.status.success() {
        println!("the decoder now covers int_arith without help");
    } else {
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{err}");
        assert!(err.contains("illegal instruction: not decodable") && err.contains(" at 0x"), "{err}");
    }
    // With nvdisasm's modifier names for those words it runs, hazard-free.
    let listing = d.join("int_arith.lst");
    let raw = Command::new(t.nvdisasm()).arg("-hex").arg(&cubin).output();
    let raw = match raw {
        Ok(o) if o.status.success() => o.stdout,
        _ => {
            let l = t.disassemble(&std::fs::read(&cubin).unwrap()).unwrap();
            let f = l.function("int_arith").unwrap();
            let mut s = String::from("\t.section\t.text.int_arith,\"ax\",@progbits\n");
            for i in &f.instructions {
                s.push_str(&format!("        /*{:04x}*/  {} ;\n", i.offset, i.text));
            }
            s.into_bytes()
        }
    };
    std::fs::write(&listing, raw).unwrap();
    let outdir = d.join("out");
    let r = Command::new(ptxas_rs())
        .arg("run")
        .arg(&cubin)
        .arg("--spec")
        .arg(&spec)
        .args(["--engine", "emu", "--arch", "sm_90", "--hazards", "--modifiers"])
        .arg(&listing)
        .arg("--out")
        .arg(&outdir)
        .output()
        .unwrap();
    let so = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{so}{}", String::from_utf8_lossy(&r.stderr));
    assert!(so.contains("out: ") && so.contains("no hazards"), "{so}");
    let bytes = std::fs::read(outdir.join("out.bin")).unwrap();
    assert!(!bytes.is_empty());
    // --expect against its own output passes; against a corrupted copy it fails.
    let r = Command::new(&tool)
        .arg(&cubin)
        .arg("--spec")
        .arg(&spec)
        .arg("--modifiers")
        .arg(&listing)
        .arg("--expect")
        .arg(&outdir)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let bad = d.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let mut b2 = bytes.clone();
    b2[0] ^= 1;
    std::fs::write(bad.join("out.bin"), b2).unwrap();
    let r = Command::new(&tool)
        .arg(&cubin)
        .arg("--spec")
        .arg(&spec)
        .arg("--modifiers")
        .arg(&listing)
        .arg("--expect")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("mismatch"));
    // .ptx input runs on the Ori interpreter (the default engine for PTX), and its outputs
    // equal the emulator's on NVIDIA's cubin: --expect against the emulator's outputs passes.
    let ioutdir = d.join("interp-out");
    let r = Command::new(ptxas_rs())
        .arg("run")
        .arg(&ptx)
        .arg("--spec")
        .arg(&spec)
        .arg("--out")
        .arg(&ioutdir)
        .arg("--expect")
        .arg(&outdir)
        .output()
        .unwrap();
    let so = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{so}{}", String::from_utf8_lossy(&r.stderr));
    assert!(so.contains("Ori interpreter"), "{so}");
    assert_eq!(std::fs::read(ioutdir.join("out.bin")).unwrap(), bytes);
    // ... and against the corrupted copy it fails.
    let r = Command::new(ptxas_rs())
        .arg("run")
        .arg(&ptx)
        .arg("--spec")
        .arg(&spec)
        .arg("--expect")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("mismatch"));
    // Engine emu on PTX needs our backend: a clear error.
    let r = Command::new(ptxas_rs())
        .arg("run")
        .arg(&ptx)
        .arg("--spec")
        .arg(&spec)
        .args(["--engine", "emu"])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("not implemented yet"));
    // A lowering error is located.
    let broken = d.join("broken.ptx");
    std::fs::write(&broken, std::fs::read_to_string(&ptx).unwrap().replacen("ret;", "ret;\n\tfoo.bar %r1;", 1))
        .unwrap();
    let r = Command::new(ptxas_rs()).arg("run").arg(&broken).arg("--spec").arg(&spec).output().unwrap();
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("line "), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
