//! The pathological-input generator (`ptxas_rs::fuzzing::pathological`) at small sizes: NVIDIA
//! ptxas accepts every generated module, and so does ptxas-rs (its cubin reads back with the
//! generated kernels). Timing is never asserted here: `cargo bench --bench pathological`
//! measures ours against ptxas at the sizes.
//!
//! Skips (prints `SKIPPED`) without NVIDIA's tools unless `PTXAS_RS_ORACLE=required`.

use ptxas_rs::cli::Options;
use ptxas_rs::cubin::Cubin;
use ptxas_rs::fuzzing::pathological::Shape;

/// Sizes small enough for seconds in total, large enough to repeat each construct.
fn small(shape: Shape) -> usize {
    match shape {
        // Cheap at any size: checked where ptxas's limit matters.
        Shape::DeepNesting => 1_000,
        Shape::ManyKernels => 5,
        Shape::HugeInitializer => 5_000,
        _ => 40,
    }
}

fn compile_ours(text: &str) -> Result<Vec<u8>, String> {
    let options = Options::from_args(&["-arch", "sm_90"]).expect("options");
    ptxas_rs::compile(text, &options).map(|c| c.cubin).map_err(|d| d.to_string())
}

#[test]
fn ptxas_and_ptxas_rs_accept_every_shape() {
    let tools = oracle::tools_or_skip("ptxas_and_ptxas_rs_accept_every_shape");
    let mut failures = Vec::new();
    for shape in Shape::ALL {
        let n = small(shape);
        let text = shape.generate(n);
        if let Some(t) = tools {
            let nv = t.ptxas_run(oracle::PtxInput::Text { name: "patho.ptx", text: &text }, &["-arch=sm_90"]).unwrap();
            if !nv.success() {
                failures.push(format!("{} n={n}: ptxas rejects it: {nv}", shape.name()));
            }
        }
        match compile_ours(&text) {
            Err(e) => failures.push(format!("{} n={n}: ptxas-rs rejects it: {e}", shape.name())),
            Ok(cubin) => {
                let c =
                    Cubin::parse(&cubin).unwrap_or_else(|e| panic!("{}: our cubin does not read: {e}", shape.name()));
                let kernels = if shape == Shape::ManyKernels { n } else { 1 };
                for k in 0..kernels {
                    let name = if k == 0 { "patho".to_owned() } else { format!("patho_{k}") };
                    if c.function(&name).is_none() {
                        failures.push(format!("{} n={n}: no kernel {name} in our cubin", shape.name()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// ptxas's brace limit: 1,663 nested scopes in a kernel body are accepted, 1,664 are not
/// (`memory exhausted`), by both.
#[test]
fn nesting_limit_matches_ptxas() {
    let tools = oracle::tools_or_skip("nesting_limit_matches_ptxas");
    for (n, ok) in [(1_663, true), (1_664, false)] {
        let text = Shape::DeepNesting.generate(n);
        let ours = compile_ours(&text);
        assert_eq!(ours.is_ok(), ok, "ptxas-rs at {n} nested scopes: {:?}", ours.err());
        if !ok {
            assert!(ours.unwrap_err().contains("memory exhausted"));
        }
        if let Some(t) = tools {
            let nv = t.ptxas_run(oracle::PtxInput::Text { name: "deep.ptx", text: &text }, &["-arch=sm_90"]).unwrap();
            assert_eq!(nv.success(), ok, "ptxas at {n} nested scopes: {nv}");
        }
    }
}

/// Past its memory budget the `ptxas-rs` command fails as ptxas does on an allocation failure:
/// `Memory allocation failure`, exit status 255, no output file (issue 28: 65,536 live
/// registers ended in Rust's `memory allocation of 262144 bytes failed` and SIGABRT).
#[test]
fn memory_budget_fails_gracefully() {
    let dir = std::env::temp_dir().join(format!("ptxas-rs-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("live.ptx");
    let output = dir.join("live.cubin");
    std::fs::write(&input, Shape::LiveRegisters.generate(2_048)).unwrap();
    let run = |mib: &str| {
        let _ = std::fs::remove_file(&output);
        std::process::Command::new(env!("CARGO_BIN_EXE_ptxas-rs"))
            .env("PTXAS_RS_MEMORY_LIMIT_MIB", mib)
            .arg("-arch=sm_90")
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .output()
            .unwrap()
    };
    let o = run("16");
    assert_eq!(o.status.code(), Some(255), "{o:?}");
    assert_eq!(String::from_utf8_lossy(&o.stderr), ptxas_rs::budget::MESSAGE);
    assert!(!output.exists(), "no output file after a failure");
    // The same input within a sufficient budget compiles.
    let o = run("4096");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(output.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
