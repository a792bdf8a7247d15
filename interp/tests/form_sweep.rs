//! The instruction-form sweep (issue 22; generator: `interp::forms`): NVIDIA ptxas 13.0.88
//! compiles every generated micro-kernel for sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a,
//! sm_100 and sm_120 at -O0 and -O3 (the cases it rejects on a target are dropped there), then
//!
//! 1. **SASS layer**: every distinct instruction word decodes with `ptxas_rs::sass`, prints
//!    exactly as nvdisasm prints it and re-encodes to the same 128 bits;
//! 2. **coverage denominator**: the distinct SASS forms (opcode + modifiers + operand kinds, as
//!    nvdisasm prints them) per target are counted;
//! 3. **executors**: the SASS emulator runs NVIDIA's cubin (hazard checker on) and its outputs
//!    must equal the Ori interpreter's on the case's PTX, bit for bit.
//!
//! `form_sweep_sample` (in `cargo test`) runs a deterministic sample (about one case in
//! [`SAMPLE`]) on every target and holds it to `form_sweep.expected`: every (case, target,
//! level) that does not decode bit-exact, does not execute, reports a hazard or disagrees must be
//! listed there with its class, and a listed one that now passes fails too (a ratchet).
//! `FORMS_BLESS=1` rewrites the file. `form_sweep_full` (`--ignored`) runs every case and
//! prints the figures; `FORMS_REPORT=<file>` also writes its per-case outcomes there, and
//! reproducers (`<case>.ptx`, `<case>.run.toml`) go to `~/.cache/ptxas-rs/forms/repro/`.

#[path = "support/forms.rs"]
mod forms_support;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use forms_support::*;
use interp::ExecConfig;
use interp::emu::{EmuConfig, EmuErrorKind, Kernel};
use interp::forms::{self, Case};
use interp::launch::compare::compare;
use ptxas_rs::sass;

/// About one case in `SAMPLE` runs in `cargo test`.
const SAMPLE: u64 = 40;

#[derive(Default)]
struct ArchFigures {
    forms: BTreeSet<String>,
    words: usize,
    distinct_words: usize,
    exact_words: usize,
    bad_forms: BTreeMap<String, (usize, String)>,
    runs: usize,
    executed: usize,
    agreeing: usize,
    hazard_runs: usize,
    /// Every distinct word: (function, offset, the SASS layer's verdict).
    listing: BTreeMap<u128, (String, u64, Result<(), String>)>,
    /// nvdisasm's text of every distinct word.
    texts: BTreeMap<u128, String>,
}

/// Per (case, arch, opt): the outcome when it is not a clean pass.
type Outcomes = BTreeMap<(String, String, u32), String>;

fn sweep(t: &oracle::Tools, cases: &[Case]) -> (BTreeMap<String, ArchFigures>, Outcomes) {
    let built = build_all(t, cases, forms::ARCHS);
    let mut figures: BTreeMap<String, ArchFigures> = BTreeMap::new();
    let mut outcomes = Outcomes::new();
    let mut interp_cache: HashMap<String, Result<interp::Outputs, String>> = HashMap::new();
    let exec = ExecConfig { step_limit: 10_000_000, ..ExecConfig::default() };
    for ((_family, arch), (idx, batch)) in &built {
        let fig = figures.entry(arch.clone()).or_default();
        let tables = sass::tables_for(arch).expect("tables for every swept arch");
        for (opt, cubin, listing) in &batch.builds {
            eprintln!("form sweep: {_family} {arch} -O{opt}: {} cases", batch.accepted.len());
            // 1 + 2: the SASS layer over the listing's words.
            let mut bad_words: HashMap<u128, String> = HashMap::new();
            for f in &listing.functions {
                for i in &f.instructions {
                    fig.words += 1;
                    let form = form_of(&i.text);
                    fig.forms.insert(form.clone());
                    if let Some((_, _, Err(why))) = fig.listing.get(&i.word) {
                        bad_words.insert(i.word, why.clone());
                    }
                    if fig.listing.contains_key(&i.word) {
                        continue;
                    }
                    fig.distinct_words += 1;
                    let verdict = check_word(tables, i.word, i.offset, &i.text);
                    match &verdict {
                        Ok(()) => fig.exact_words += 1,
                        Err(why) => {
                            let e = fig.bad_forms.entry(form).or_insert((0, String::new()));
                            e.0 += 1;
                            if e.1.is_empty() {
                                e.1 = format!("{:#034x} `{}`: {why}", i.word, i.text);
                            }
                            bad_words.insert(i.word, why.clone());
                        }
                    }
                    fig.listing.insert(i.word, (f.name.clone(), i.offset, verdict));
                    fig.texts.insert(i.word, i.text.clone());
                }
            }
            // 3: emulator against interpreter, per accepted case.
            let parsed = ptxas_rs::cubin::Cubin::parse(cubin).expect("NVIDIA's cubin parses");
            for &a in &batch.accepted {
                let case = &cases[idx[a]];
                fig.runs += 1;
                let k = (case.name.clone(), arch.clone(), *opt);
                let fun = listing.function(&case.name).expect("every entry is listed");
                if let Some(i) = fun.instructions.iter().find(|i| bad_words.contains_key(&i.word)) {
                    outcomes.insert(k, format!("sass: {}", form_of(&i.text)));
                    continue;
                }
                let ori =
                    interp_cache.entry(case.name.clone()).or_insert_with(|| run_interp(case, arch, &exec)).clone();
                match run_emu(&parsed, case) {
                    Err(e) => {
                        outcomes.insert(k, e);
                    }
                    Ok((outs, hazard)) => {
                        fig.executed += 1;
                        if let Some(h) = &hazard {
                            fig.hazard_runs += 1;
                            outcomes.insert(k.clone(), format!("hazard: {h}"));
                        }
                        match ori {
                            Err(e) => {
                                outcomes.entry(k).or_insert(format!("interp: {e}"));
                            }
                            Ok(ori) => {
                                let spec = case.spec();
                                let diff: Vec<String> = spec
                                    .outputs()
                                    .filter_map(|b| {
                                        compare(b, &outs[b.name()], &ori.buffers[b.name()])
                                            .err()
                                            .map(|m| format!("{}: {m}", b.name()))
                                    })
                                    .collect();
                                if diff.is_empty() {
                                    fig.agreeing += 1;
                                } else {
                                    let first = diff[0].lines().take(2).collect::<Vec<_>>().join(" ");
                                    outcomes.entry(k).or_insert(format!("disagree: {first}"));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    (figures, outcomes)
}

/// Decode, print (== nvdisasm), re-encode (== the word).
fn check_word(tables: &sass::Tables, word: u128, offset: u64, text: &str) -> Result<(), String> {
    let inst = tables.decode(word).map_err(|e| format!("decode: {e}"))?;
    let label = |_: i64| Some("LABEL".to_string());
    let ours = tables.print(&inst, offset, Some(&label));
    let theirs = normalize_labels(text);
    if ours != theirs {
        return Err(format!("prints `{ours}`"));
    }
    match tables.encode(&inst) {
        Ok(w) if w == word => Ok(()),
        Ok(w) => Err(format!("re-encodes {w:#034x}")),
        Err(e) => Err(format!("encode: {e}")),
    }
}

fn run_interp(case: &Case, arch: &str, exec: &ExecConfig) -> Result<interp::Outputs, String> {
    let module = ptxas_rs::lower::lower_source(&case.module_text(arch)).map_err(|e| format!("lower: {e}"))?;
    interp::run_ori_with(&module, &case.name, &case.spec(), exec).map_err(|e| format!("{e}"))
}

/// The emulator's outputs (hazard checker on; on a hazard, the outputs of a run without it and
/// the hazard's text).
fn run_emu(cubin: &ptxas_rs::cubin::Cubin, case: &Case) -> Result<(BTreeMap<String, Vec<u8>>, Option<String>), String> {
    let kernel = Kernel::from_cubin(cubin, &case.name).map_err(|e| format!("emu-load: {}", e.kind))?;
    let spec = case.spec();
    let cfg = EmuConfig { hazards: true, step_limit: 1_000_000, ..EmuConfig::default() };
    let outs = |r: interp::emu::EmuRun| r.outputs.buffers;
    match kernel.run(&spec, &cfg) {
        Ok(r) => Ok((outs(r), None)),
        Err(e) if matches!(e.kind, EmuErrorKind::Hazard(_)) => {
            let h = e.inst.clone().map(|i| form_of(&i)).unwrap_or_default();
            let r = kernel
                .run(&spec, &EmuConfig { hazards: false, ..cfg })
                .map_err(|e| format!("emu: {}", short_err(&e.kind)))?;
            Ok((outs(r), Some(h)))
        }
        Err(e) => Err(format!("emu: {}", short_err(&e.kind))),
    }
}

fn short_err(k: &EmuErrorKind) -> String {
    // The error's text up to its first location or word dump (stable across cases).
    let s = k.to_string();
    s.split([';', '(', '`']).next().unwrap_or("").trim().chars().take(100).collect()
}

fn print_figures(figures: &BTreeMap<String, ArchFigures>, outcomes: &Outcomes) {
    for (arch, f) in figures {
        let pct = |a: usize, b: usize| if b == 0 { 100.0 } else { 100.0 * a as f64 / b as f64 };
        println!(
            "{arch}: {} SASS forms; {} words ({} distinct), {:.2}% decoded bit-exact ({} bad forms); \
             {} kernel-levels, {:.2}% executed, {:.2}% agreeing, {} with hazard reports",
            f.forms.len(),
            f.words,
            f.distinct_words,
            pct(f.exact_words, f.distinct_words),
            f.bad_forms.len(),
            f.runs,
            pct(f.executed, f.runs),
            pct(f.agreeing, f.runs),
            f.hazard_runs
        );
        for (form, (n, ex)) in &f.bad_forms {
            println!("  {arch} bad form {form} ({n} words): {ex}");
        }
    }
    let mut by_class: BTreeMap<String, usize> = BTreeMap::new();
    for v in outcomes.values() {
        *by_class.entry(class_of(v)).or_default() += 1;
    }
    for (c, n) in by_class {
        println!("outcome {c}: {n}");
    }
}

/// The outcome's class as the expectations file records it: `disagree`, `hazard: <form>`,
/// `sass: <form>`, `emu: <error>`, `interp: ...`.
fn class_of(outcome: &str) -> String {
    if outcome.starts_with("disagree") {
        "disagree".into()
    } else if outcome.starts_with("interp") {
        "interp".into()
    } else {
        outcome.to_string()
    }
}

fn expectations_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/form_sweep.expected")
}

fn render(outcomes: &Outcomes) -> String {
    let mut s =
        String::from("# form_sweep_sample's expected non-passes: case arch -O<level> class (FORMS_BLESS=1 rewrites)\n");
    for ((c, a, o), v) in outcomes {
        let _ = writeln!(s, "{c} {a} -O{o} {}", class_of(v));
    }
    s
}

#[test]
fn form_sweep_sample() {
    let Some(t) = oracle::tools_or_skip("form_sweep_sample") else { return };
    let n = std::env::var("FORMS_SAMPLE").ok().and_then(|s| s.parse().ok()).unwrap_or(SAMPLE);
    let cases = forms::families::sample(n);
    let (figures, outcomes) = sweep(t, &cases);
    print_figures(&figures, &outcomes);
    let ours = render(&outcomes);
    if std::env::var_os("FORMS_BLESS").is_some() {
        std::fs::write(expectations_path(), &ours).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(expectations_path()).unwrap_or_default();
    let want: BTreeSet<&str> = expected.lines().filter(|l| !l.starts_with('#')).collect();
    let got: BTreeSet<&str> = ours.lines().filter(|l| !l.starts_with('#')).collect();
    let new: Vec<_> = got.difference(&want).collect();
    let gone: Vec<_> = want.difference(&got).collect();
    for ((c, a, o), v) in &outcomes {
        if v.starts_with("disagree") {
            println!("{c} {a} -O{o}: {v}");
        }
    }
    assert!(
        new.is_empty() && gone.is_empty(),
        "form_sweep.expected is out of date (FORMS_BLESS=1 rewrites it)\nnew non-passes:\n{}\nno longer seen:\n{}",
        new.iter().map(|s| s.to_string()).collect::<Vec<_>>().join("\n"),
        gone.iter().map(|s| s.to_string()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
#[ignore = "the whole sweep: minutes of ptxas on a cold cache"]
fn form_sweep_full() {
    let Some(t) = oracle::tools_or_skip("form_sweep_full") else { return };
    let cases = forms::families::all();
    println!("{} cases", cases.len());
    let (figures, outcomes) = sweep(t, &cases);
    print_figures(&figures, &outcomes);
    // The words with nvdisasm's text, for SASS table work (not yet read by `tests/sass_gen.rs`:
    // learning from them as it learns from the corpus rejected corpus residues whose alias
    // spelling differs by context, e.g. IMAD.MOV / IMAD.IADD, and dropped sm_80 corpus coverage).
    let words = cache_dir().join("words");
    std::fs::create_dir_all(&words).unwrap();
    for (arch, f) in &figures {
        let text: String =
            f.listing.iter().map(|(w, (func, off, _))| format!("{func}\t{off}\t{w:032x}\t{}\n", f.texts[w])).collect();
        std::fs::write(words.join(format!("{arch}.tsv")), text).unwrap();
    }
    if let Some(path) = std::env::var_os("FORMS_REPORT") {
        let repro = cache_dir().join("repro");
        std::fs::create_dir_all(&repro).unwrap();
        let by_name: HashMap<&str, &Case> = cases.iter().map(|c| (c.name.as_str(), c)).collect();
        let mut s = String::new();
        for ((c, a, o), v) in &outcomes {
            let case = by_name[c.as_str()];
            let _ = writeln!(s, "{c}\t{a}\t-O{o}\t{}\t{v}", case.instruction());
            let p = repro.join(format!("{c}.ptx"));
            if !p.exists() {
                std::fs::write(&p, case.module_text(a)).unwrap();
                std::fs::write(repro.join(format!("{c}.run.toml")), case.spec_toml()).unwrap();
            }
        }
        std::fs::write(path, s).unwrap();
    }
}
