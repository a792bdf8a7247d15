//! The proptest twin of the `compile_diff` fuzz target (issue 7): random valid, UB-free PTX
//! kernels ([`interp::difftest::gen`]) compiled by ptxas-rs at -O0 and -O3 must run in the SASS
//! emulator (hazard checking on) with the outputs the Ori interpreter gives for the lowered PTX.
//! A failure prints the (shrunk) kernel's PTX and launch spec.
//!
//! - `generated_kernels_agree`: a bounded number of cases (`PTXAS_RS_DIFF_CASES`, default 64);
//! - `nvidia_accepts_generated_kernels`: NVIDIA's ptxas accepts a sample of generated kernels
//!   (the generator's output is valid PTX);
//! - `nvidia_report` (ignored): NVIDIA's cubins run in the emulator against the interpreter;
//! - `report` (ignored): many cases, printing compared/skipped counts, the skip reasons and every
//!   finding: `cargo test -p interp --test compile_diff -- --ignored --nocapture report`
//!   (`PTXAS_RS_DIFF_CASES` cases, default 500).

use std::cell::RefCell;
use std::collections::BTreeMap;

use interp::difftest::{self, CheckConfig, GenConfig};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

fn cases(default: u32) -> u32 {
    std::env::var("PTXAS_RS_DIFF_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A deterministic byte string per seed (SplitMix64), for the oracle and report tests.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

#[test]
fn generated_kernels_agree() {
    let cfg = CheckConfig::default();
    let mut runner = TestRunner::new(Config {
        cases: cases(64),
        max_shrink_iters: 200,
        failure_persistence: None,
        ..Config::default()
    });
    let compared = RefCell::new(0usize);
    let skipped = RefCell::new(BTreeMap::<String, usize>::new());
    let result = runner.run(&vec(any::<u8>(), 0..3000), |data| {
        let r = difftest::check_bytes(&data, &cfg);
        if let Some(f) = r.finding {
            return Err(TestCaseError::fail(f.to_string()));
        }
        *compared.borrow_mut() += r.compared.len();
        for (_, why) in r.skipped {
            *skipped.borrow_mut().entry(why).or_default() += 1;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (compared, skipped) = (compared.into_inner(), skipped.into_inner());
    println!("compared {compared} kernel-levels; skipped {}", skipped.values().sum::<usize>());
    for (why, n) in &skipped {
        println!("  {n:4} {why}");
    }
    // Not vacuous: most kernels must get through the backend.
    assert!(compared >= skipped.values().sum::<usize>(), "the backend refuses most generated kernels");
}

/// NVIDIA's ptxas accepts every generated kernel in a sample: the generator writes valid PTX.
#[test]
fn nvidia_accepts_generated_kernels() {
    let Some(t) = oracle::tools_or_skip("nvidia_accepts_generated_kernels") else { return };
    let mut failures = Vec::new();
    for seed in 0..cases(24).min(16) as u64 {
        let g = generated(seed);
        let out = t.ptxas_run(oracle::PtxInput::Text { name: "difft.ptx", text: &g.ptx }, &["-arch", "sm_90"]).unwrap();
        if out.cubin.is_none() {
            failures.push(format!("NVIDIA's ptxas rejects seed {seed}: {}\n{}", out.stderr, g.ptx));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn generated(seed: u64) -> difftest::Generated {
    let data = bytes(seed, 2000);
    difftest::generate(&mut arbitrary::Unstructured::new(&data), &GenConfig::default())
}

/// NVIDIA's cubin of each generated kernel, run in the emulator, against the interpreter: checks
/// the interpreter and the emulator with the real compiler's code (findings are bugs in one of
/// them, or in the generator). Reports instead of failing:
/// `cargo test -p interp --test compile_diff -- --ignored --nocapture nvidia_report`
/// (`PTXAS_RS_DIFF_CASES` cases, default 100).
#[test]
#[ignore]
fn nvidia_report() {
    let Some(t) = oracle::tools_or_skip("nvidia_report") else { return };
    let n = cases(100) as u64;
    let (mut agree, mut findings) = (0, Vec::new());
    for seed in 0..n {
        let g = generated(seed);
        let out = t.ptxas_run(oracle::PtxInput::Text { name: "difft.ptx", text: &g.ptx }, &["-arch", "sm_90"]).unwrap();
        let Some(cubin) = out.cubin else {
            findings.push(format!("seed {seed}: NVIDIA's ptxas rejects the kernel: {}", out.stderr.trim()));
            continue;
        };
        let result = difftest::reference(&g)
            .map_err(|f| (f.kind, f.detail))
            .and_then(|(spec, expected)| difftest::run_and_compare(&cubin, &spec, &expected, false));
        match result {
            Ok(()) => agree += 1,
            Err((kind, detail)) => {
                findings.push(format!("seed {seed}: {kind}: {detail}"));
                dump(seed, &g);
            }
        }
    }
    println!("NVIDIA's cubins: {agree} of {n} agree with the interpreter");
    for f in &findings {
        println!("{}", f.lines().take(4).collect::<Vec<_>>().join("\n    "));
    }
}

/// With `PTXAS_RS_DIFF_DUMP=DIR`, writes a finding's kernel and spec as `DIR/seed-N.ptx` and
/// `DIR/seed-N.run.toml` (for `ptxas-rs-run`, NVIDIA's tools, or a GPU).
fn dump(seed: u64, g: &difftest::Generated) {
    if let Some(dir) = std::env::var_os("PTXAS_RS_DIFF_DUMP") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{seed}.ptx")), &g.ptx).unwrap();
        std::fs::write(dir.join(format!("seed-{seed}.run.toml")), &g.spec_toml).unwrap();
    }
}

/// A skip reason with register numbers and constants blotted out, to group similar reasons.
fn normalize(why: &str) -> String {
    let mut out = String::new();
    let mut prev_digit = false;
    for c in why.chars() {
        let digit = c.is_ascii_hexdigit() && (prev_digit || c.is_ascii_digit());
        if !digit {
            out.push(c);
        } else if !prev_digit {
            out.push('#');
        }
        prev_digit = digit;
    }
    out
}

#[test]
#[ignore]
fn report() {
    let cfg = CheckConfig::default();
    let n = cases(500) as u64;
    let mut compared = 0;
    let mut skipped = BTreeMap::<String, usize>::new();
    let mut findings = BTreeMap::<String, Vec<u64>>::new();
    let mut first = BTreeMap::<String, String>::new();
    let start = std::time::Instant::now();
    for seed in 0..n {
        let r = difftest::check_bytes(&bytes(seed, 2000), &cfg);
        compared += r.compared.len();
        for (_, why) in r.skipped {
            *skipped.entry(normalize(&why)).or_default() += 1;
        }
        if let Some(f) = r.finding {
            let key = format!("{} {}", f.kind, f.detail.chars().take(100).collect::<String>());
            findings.entry(key.clone()).or_default().push(seed);
            dump(seed, &generated(seed));
            first.entry(key).or_insert_with(|| f.to_string());
        }
    }
    println!("{n} cases in {:.1} s: {compared} kernel-levels compared", start.elapsed().as_secs_f64());
    println!("skipped {}:", skipped.values().sum::<usize>());
    for (why, k) in &skipped {
        println!("  {k:4} {why}");
    }
    println!("findings in {} cases:", findings.values().map(Vec::len).sum::<usize>());
    for (key, seeds) in &findings {
        println!("  {:4} {key} (seeds {:?})", seeds.len(), &seeds[..seeds.len().min(8)]);
    }
    for f in first.values() {
        println!("==========\n{f}");
    }
}

/// The comparison is not vacuous: the outputs hold per-thread values (not all zero), and a
/// reference with one flipped bit in a pool word is reported as an `outputs` finding.
#[test]
fn a_corrupted_reference_is_caught() {
    let cfg = CheckConfig::default();
    let mut checked = 0;
    for seed in 0..40 {
        let data = bytes(seed, 2000);
        let g = difftest::generate(&mut arbitrary::Unstructured::new(&data), &cfg.generator);
        let Ok((spec, mut expected)) = difftest::reference(&g) else { continue };
        let opts = ptxas_rs::backend::Options { opt_level: 3, ..Default::default() };
        let Ok(c) = ptxas_rs::backend::compile(&ptxas_rs::ptx::parse(&g.ptx, "difft.ptx").unwrap(), &opts) else {
            continue;
        };
        difftest::run_and_compare(&c.cubin, &spec, &expected, true).unwrap();
        let out = expected.buffers.get_mut("out").unwrap();
        assert!(out.iter().any(|&b| b != 0), "seed {seed}: the kernel wrote nothing");
        out[4 * (seed as usize % difftest::kernelgen::SCRATCH)] ^= 0x10;
        let err = difftest::run_and_compare(&c.cubin, &spec, &expected, true).unwrap_err();
        assert_eq!(err.0, "outputs", "seed {seed}: {}", err.1);
        checked += 1;
        if checked == 5 {
            return;
        }
    }
    panic!("only {checked} generated kernels compiled");
}
