//! Every corpus kernel lowers to raw Ori, passes the verifier and round-trips through the text
//! format; every lowered kernel runs in the Ori interpreter on its launch spec without a fault
//! (sm_90 and hand-written: twice, with the same bytes).
//!
//! The test prints the counts per set (sm_90, sm_80, hand-written) and every failure with its
//! error, and asserts minimum counts measured when the lowering landed, so regressions fail.
//! Run `cargo test --test lower_corpus -- --nocapture` for the report.

use std::path::{Path, PathBuf};

use interp::launch::LaunchSpec;
use interp::{ExecConfig, run_ori_with};
use ptxas_rs::lower::lower_source;
use ptxas_rs::ori::{parse_module, verify_module};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// (set name, files) for the three sets.
fn sets() -> Vec<(&'static str, Vec<PathBuf>)> {
    let mut cuda: Vec<PathBuf> = std::fs::read_dir(corpus().join("cuda")).unwrap().map(|e| e.unwrap().path()).collect();
    cuda.sort();
    let mut hand: Vec<PathBuf> = std::fs::read_dir(corpus().join("ptx")).unwrap().map(|e| e.unwrap().path()).collect();
    hand.sort();
    let name = |d: &Path| d.file_name().unwrap().to_string_lossy().into_owned();
    vec![
        (
            // sm_90, or sm_90a where a kernel has only that (tc_wgmma).
            "sm_90",
            cuda.iter()
                .filter_map(|d| {
                    ["sm_90", "sm_90a"].iter().map(|a| d.join(format!("{}.{a}.ptx", name(d)))).find(|p| p.exists())
                })
                .collect(),
        ),
        (
            "sm_80",
            cuda.iter().map(|d| d.join(format!("{}.sm_80.ptx", name(d)))).filter(|p: &PathBuf| p.exists()).collect(),
        ),
        (
            "hand-written",
            hand.iter().map(|d| d.join(format!("{}.ptx", name(d)))).filter(|p: &PathBuf| p.exists()).collect(),
        ),
    ]
}

/// Lowers, verifies and round-trips (print, parse, equal) every file of a set; returns the
/// count that passed and prints the failures.
fn lower_set(set: &str, files: &[PathBuf]) -> usize {
    let mut ok = 0;
    let mut fails = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        match lower_source(&text) {
            Ok(m) => match verify_module(&m) {
                Ok(()) => {
                    let printed = m.to_string();
                    let back = parse_module(&printed).unwrap_or_else(|e| panic!("{}: reparse: {e}", f.display()));
                    assert_eq!(back, m, "{}: print/parse round trip differs", f.display());
                    ok += 1;
                }
                Err(e) => fails.push(format!("{}: verifier: {}", f.display(), first_lines(&e.to_string()))),
            },
            Err(e) => fails.push(format!("{}: {e}", f.display())),
        }
    }
    println!("lowered+verified {set}: {ok} / {}", files.len());
    for x in &fails {
        println!("  FAIL {x}");
    }
    ok
}

fn first_lines(s: &str) -> String {
    s.lines().take(3).collect::<Vec<_>>().join(" | ")
}

/// Runs every lowered kernel of a set (twice when `twice`, comparing the outputs); returns
/// (lowered, ran) and prints failures.
fn run_set(set: &str, files: &[PathBuf], twice: bool) -> (usize, usize) {
    let (mut lowered, mut ran) = (0, 0);
    let mut fails = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let Ok(m) = lower_source(&text) else { continue };
        lowered += 1;
        let dir = f.parent().unwrap();
        let stem = dir.file_name().unwrap().to_string_lossy().into_owned();
        let spec = LaunchSpec::from_path(&dir.join(format!("{stem}.run.toml"))).unwrap();
        let config = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
        let t = std::time::Instant::now();
        match run_ori_with(&m, &spec.kernel, &spec, &config) {
            Ok(a) => {
                if twice {
                    let b = run_ori_with(&m, &spec.kernel, &spec, &config).unwrap();
                    assert_eq!(a, b, "{}: two runs differ", f.display());
                }
                ran += 1;
            }
            Err(e) => fails.push(format!("{stem}: {e}")),
        }
        if t.elapsed().as_secs_f64() > 2.0 {
            println!("  slow: {stem} {:.1}s", t.elapsed().as_secs_f64());
        }
    }
    println!("ran {set}: {ran} / {lowered} lowered");
    for x in &fails {
        println!("  RUN-FAIL {x}");
    }
    (lowered, ran)
}

fn set(name: &str) -> Vec<PathBuf> {
    sets().into_iter().find(|s| s.0 == name).map(|s| s.1).unwrap()
}

// Minimum counts measured when the lowering landed (so regressions fail).

#[test]
fn sm90_lowers_verifies_and_runs() {
    let files = set("sm_90");
    assert!(lower_set("sm_90", &files) >= MIN_SM90);
    let (_, ran) = run_set("sm_90", &files, true);
    assert!(ran >= MIN_SM90);
}

#[test]
fn sm80_lowers_verifies_and_runs() {
    let files = set("sm_80");
    assert!(lower_set("sm_80", &files) >= MIN_SM80);
    // Determinism is checked on the sm_90 and hand-written sets; sm_80 runs once (test time).
    let (_, ran) = run_set("sm_80", &files, false);
    assert!(ran >= MIN_SM80);
}

#[test]
fn hand_written_lowers_verifies_and_runs() {
    let files = set("hand-written");
    assert!(lower_set("hand-written", &files) >= MIN_HAND_LOWERED);
    let (_, ran) = run_set("hand-written", &files, true);
    assert!(ran >= MIN_HAND_RAN);
}

const MIN_SM90: usize = 101;
const MIN_SM80: usize = 99;
const MIN_HAND_LOWERED: usize = 27;
const MIN_HAND_RAN: usize = 27;

/// Invalid and unusual input never panics the lowering: each of the error corpus's 301 files
/// (which ptxas rejects or warns about) lowers or gives a located error, and so does every
/// corpus kernel with one line deleted (seeded choice of line, each file once).
#[test]
fn bad_input_gives_errors_not_panics() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus().join("errors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    files.sort();
    assert!(files.len() >= 300);
    let (mut ok, mut err) = (0, 0);
    for f in &files {
        match lower_source(&std::fs::read_to_string(f).unwrap()) {
            Ok(_) => ok += 1,
            Err(_) => err += 1,
        }
    }
    println!("error corpus: {ok} lowered, {err} errors");
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut located = 0;
    for f in sets().into_iter().flat_map(|s| s.1) {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let cut = (seed % lines.len() as u64) as usize;
        let mutated: String =
            lines.iter().enumerate().filter(|(i, _)| *i != cut).map(|(_, l)| format!("{l}\n")).collect();
        if let Err(e) = lower_source(&mutated)
            && e.line > 0
        {
            located += 1;
        }
    }
    println!("line-deleted kernels with a located lowering error: {located}");
}

/// An unsupported instruction is a located error naming it.
#[test]
fn unsupported_instruction_is_a_located_error() {
    let text = ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b64 %rd<3>;\n\ttensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd2;\n\tret;\n}\n";
    let e = lower_source(text).unwrap_err();
    assert_eq!((e.line, e.function.as_deref()), (7, Some("k")), "{e}");
    assert!(e.message.contains("tensormap"), "{e}");
}
