//! The PTX ISA coverage report (issue 23; generator: `interp::isa_coverage`): every instruction
//! form of the PTX instruction table (`corpus/isa/instructions.tsv`) as a probe kernel, judged
//! first by NVIDIA ptxas 13.0.88 on the probe's target (`sm_90a`, or `sm_100a` for rows that
//! need more), then by each of our stages:
//!
//! - **accepted**: our front end (parse + sema) accepts the probe, as ptxas does;
//! - **lowered**: the PTX → Ori lowering succeeds;
//! - **interpreted**: the Ori interpreter runs the kernel to completion on its launch spec;
//! - **selected**: `ptxas-rs -arch sm_90a` compiles it (probes of rows valid on sm_90 that
//!   ptxas judged on sm_90a only).
//!
//! A probe ptxas rejects is a generator bug (reported as `rejected`, with ptxas's message); a
//! form without a probe is reported as `no probe` with the reason. Lowering and interpretation
//! run only on probes our front end accepts; selection only on those it lowers.
//!
//! `isa_coverage_sample` (in `cargo test`) runs a deterministic sample and holds it to
//! `corpus/isa/coverage.expected`: every (probe, stage) that fails, with its first error; a
//! listed failure that now passes fails the test too (a ratchet). `ISA_COVERAGE_BLESS=1`
//! rewrites the file. `isa_coverage_full` (`--ignored`) runs every probe and prints the figures
//! per category and in total; `ISA_COVERAGE_REPORT=<path>` also writes the per-probe table.

#[path = "support/forms.rs"]
mod forms_support;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::AssertUnwindSafe;

use interp::ExecConfig;
use interp::isa_coverage::{self, Planned, Probe, Row};

/// About one probe in `SAMPLE` (and every probe of one row in `SAMPLE`) runs in `cargo test`.
const SAMPLE: u64 = 9;

/// The stages, in order.
const STAGES: &[&str] = &["ptxas", "accepted", "lowered", "interpreted", "selected"];

/// One probe's outcome per stage: `Ok(())` passed, `Err(first error)` failed; a stage not
/// reached or not applicable is absent.
type Stages = BTreeMap<&'static str, Result<(), String>>;

/// ptxas's verdict on every probe and alternative, the alternative kept per probe (the first
/// ptxas accepts, else the first), then our stages on the kept ones that ptxas accepts.
fn judge(t: &oracle::Tools, all: &[Probe]) -> (Vec<Probe>, Vec<Stages>) {
    let verdicts = ptxas_verdicts(t, all);
    let mut kept: Vec<usize> = Vec::new();
    let mut by_base: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, p) in all.iter().enumerate() {
        match by_base.get(p.base.as_str()) {
            None => {
                by_base.insert(&p.base, kept.len());
                kept.push(i);
            }
            Some(&k) if verdicts[kept[k]].is_err() && verdicts[i].is_ok() => kept[k] = i,
            Some(_) => {}
        }
    }
    let probes: Vec<Probe> = kept.iter().map(|&i| all[i].clone()).collect();
    let mut out: Vec<Stages> = kept.iter().map(|&i| Stages::from([("ptxas", verdicts[i].clone())])).collect();
    let rows = isa_coverage::rows();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(p) = probes.get(i) else { break };
                    if out[i].get("ptxas") != Some(&Ok(())) {
                        continue;
                    }
                    let r = ours(p, &rows[p.row]);
                    results.lock().unwrap().push((i, r));
                }
            });
        }
    });
    for (i, r) in results.into_inner().unwrap() {
        out[i].extend(r);
    }
    (probes, out)
}

/// NVIDIA's verdict per probe, one batch per (category, target).
fn ptxas_verdicts(t: &oracle::Tools, probes: &[Probe]) -> Vec<Result<(), String>> {
    // NVIDIA's verdict, one batch per (category, target).
    let rows = isa_coverage::rows();
    let mut groups: BTreeMap<(String, &str), Vec<usize>> = BTreeMap::new();
    for (i, p) in probes.iter().enumerate() {
        groups.entry((rows[p.row].main_category().to_string(), p.arch)).or_default().push(i);
    }
    let mut out: Vec<Result<(), String>> = vec![Err("not judged".into()); probes.len()];
    for ((_, arch), idx) in &groups {
        let names: Vec<&str> = idx.iter().map(|&i| probes[i].name.as_str()).collect();
        let entries: Vec<String> = idx.iter().map(|&i| probes[i].entry.clone()).collect();
        let (live, why) = forms_support::verdict_entries_why(t, &names, &entries, arch);
        for j in live {
            out[idx[j]] = Ok(());
        }
        for (j, m) in why {
            out[idx[j]] = Err(m);
        }
    }
    out
}

/// A stage's result, a panic turned into an error.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match std::panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => {
            let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
            Err(format!("panic: {}", msg.unwrap_or_default()))
        }
    }
}

/// The first line of an error, without the probe's name (so the ratchet is stable).
fn first(e: &str, name: &str) -> String {
    let l = e.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    l.replace(name, "<probe>").chars().take(160).collect()
}

fn ours(p: &Probe, row: &Row) -> Stages {
    let mut s = Stages::new();
    let text = p.module_text();
    let accepted = guarded(|| {
        let opts = ptxas_rs::ptx::sema::Options::new(&format!("{}.ptx", p.name), p.arch);
        let report = ptxas_rs::ptx::sema::check_source(text.as_bytes(), &opts);
        if report.failed { Err(report.stderr()) } else { Ok(()) }
    });
    let ok = accepted.is_ok();
    s.insert("accepted", accepted.map_err(|e| first(&e, &p.name)));
    if !ok {
        return s;
    }
    let lowered = guarded(|| ptxas_rs::lower::lower_source(&text).map_err(|e| e.to_string()));
    let module = match lowered {
        Ok(m) => {
            s.insert("lowered", Ok(()));
            m
        }
        Err(e) => {
            s.insert("lowered", Err(first(&e, &p.name)));
            return s;
        }
    };
    let exec = ExecConfig { step_limit: 5_000_000, ..ExecConfig::default() };
    let ran =
        guarded(|| interp::run_ori_with(&module, &p.name, &p.spec(), &exec).map(|_| ()).map_err(|e| e.to_string()));
    s.insert("interpreted", ran.map_err(|e| first(&e, &p.name)));
    if selectable(p, row) {
        let sel = guarded(|| {
            let cubin = std::env::temp_dir().join(format!("isacov-{}-{}.cubin", std::process::id(), p.name));
            let args: Vec<String> = ["-arch", p.arch, "-ias", &text, "-o", &cubin.to_string_lossy()]
                .iter()
                .map(|a| a.to_string())
                .collect();
            let out = ptxas_rs::driver::run(&args);
            let _ = std::fs::remove_file(&cubin);
            match out.diagnostics.iter().find(|d| d.to_string().contains("error")) {
                _ if out.status == 0 => Ok(()),
                Some(d) => Err(d.to_string()),
                None => Err(out.diagnostics.first().map(|d| d.to_string()).unwrap_or_default()),
            }
        });
        s.insert("selected", sel.map_err(|e| first(&e, &p.name)));
    }
    s
}

/// Whether the probe is judged for sm_90 selection: its row is valid on sm_90 and ptxas judged
/// it on sm_90a (not on a later target the template chose).
fn selectable(p: &Probe, row: &Row) -> bool {
    row.sm <= 90 && p.arch == "sm_90a"
}

/// The ratchet's lines: `probe stage: first error`, one per failing (probe, stage).
fn failures(probes: &[Probe], stages: &[Stages]) -> Vec<String> {
    let mut v = Vec::new();
    for (p, s) in probes.iter().zip(stages) {
        for st in STAGES {
            if let Some(Err(e)) = s.get(st) {
                v.push(format!("{} {st}: {}", p.name, e));
            }
        }
    }
    v
}

#[derive(Default)]
struct Figures {
    rows: usize,
    forms: usize,
    no_probe: usize,
    probes: usize,
    rejected: usize,
    pass: BTreeMap<&'static str, usize>,
    /// Probes of rows valid on sm_90 that ptxas accepts (the denominator of `selected`).
    sm90: usize,
}

fn figures(probes: &[Probe], stages: &[Stages], only: Option<&BTreeSet<usize>>) -> BTreeMap<String, Figures> {
    let (rows, plan) = isa_coverage::plan();
    let mut f: BTreeMap<String, Figures> = BTreeMap::new();
    for r in rows.iter().filter(|r| only.is_none_or(|o| o.contains(&r.index))) {
        f.entry(r.main_category().to_string()).or_default().rows += 1;
    }
    for (row, _, planned) in plan.iter().filter(|(r, _, _)| only.is_none_or(|o| o.contains(r))) {
        let e = f.entry(rows[*row].main_category().to_string()).or_default();
        e.forms += 1;
        if matches!(planned, Planned::None(_)) {
            e.no_probe += 1;
        }
    }
    for (p, s) in probes.iter().zip(stages) {
        let e = f.entry(rows[p.row].main_category().to_string()).or_default();
        e.probes += 1;
        match s.get("ptxas") {
            Some(Ok(())) => {}
            _ => {
                e.rejected += 1;
                continue;
            }
        }
        if selectable(p, &rows[p.row]) {
            e.sm90 += 1;
        }
        for st in &STAGES[1..] {
            if s.get(st) == Some(&Ok(())) {
                *e.pass.entry(st).or_default() += 1;
            }
        }
    }
    f
}

fn print_figures(f: &BTreeMap<String, Figures>) {
    println!(
        "{:<40} {:>5} {:>6} {:>8} {:>7} {:>9} {:>9} {:>8} {:>12} {:>14}",
        "category",
        "rows",
        "forms",
        "no-probe",
        "probes",
        "rejected",
        "accepted",
        "lowered",
        "interpreted",
        "selected/sm90"
    );
    let mut total = Figures::default();
    let line = |name: &str, x: &Figures| {
        let g = |s: &str| x.pass.get(s).copied().unwrap_or(0);
        println!(
            "{:<40} {:>5} {:>6} {:>8} {:>7} {:>9} {:>9} {:>8} {:>12} {:>9}/{:<4}",
            name,
            x.rows,
            x.forms,
            x.no_probe,
            x.probes,
            x.rejected,
            g("accepted"),
            g("lowered"),
            g("interpreted"),
            g("selected"),
            x.sm90
        );
    };
    for (c, x) in f {
        line(c, x);
        total.rows += x.rows;
        total.forms += x.forms;
        total.no_probe += x.no_probe;
        total.probes += x.probes;
        total.rejected += x.rejected;
        total.sm90 += x.sm90;
        for (k, v) in &x.pass {
            *total.pass.entry(k).or_default() += v;
        }
    }
    line("TOTAL", &total);
    println!("internal (`_`-prefixed) mnemonics listed, not probed: {}", isa_coverage::internal().len());
}

fn expected_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/isa/coverage.expected")
}

#[test]
fn isa_coverage_sample() {
    let Some(t) = oracle::tools_or_skip("isa_coverage_sample") else { return };
    let n = std::env::var("ISA_COVERAGE_SAMPLE").ok().and_then(|s| s.parse().ok()).unwrap_or(SAMPLE);
    let (probes, stages) = judge(t, &isa_coverage::sample(n));
    let rows: BTreeSet<usize> = probes.iter().map(|p| p.row).collect();
    print_figures(&figures(&probes, &stages, Some(&rows)));
    let got = failures(&probes, &stages);
    let header = "# isa_coverage_sample's failing (probe, stage) pairs with their first error \
                  (ISA_COVERAGE_BLESS=1 rewrites; cargo test -p interp --test isa_coverage)\n";
    if std::env::var_os("ISA_COVERAGE_BLESS").is_some() {
        let body: String = got.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(expected_path(), format!("{header}{body}")).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(expected_path()).unwrap_or_default();
    let key = |l: &str| l.split_once(':').map_or(l, |x| x.0).to_string();
    let want: BTreeSet<String> = expected.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(key).collect();
    let have: BTreeSet<String> = got.iter().map(|l| key(l)).collect();
    let new: Vec<&String> = got.iter().filter(|l| !want.contains(&key(l))).collect();
    let gone: Vec<&String> = want.difference(&have).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "corpus/isa/coverage.expected is out of date (ISA_COVERAGE_BLESS=1 rewrites it)\nnew failures:\n{}\nnow passing:\n{}",
        new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"),
        gone.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
#[ignore = "every probe: minutes of ptxas on a cold cache"]
fn isa_coverage_full() {
    let Some(t) = oracle::tools_or_skip("isa_coverage_full") else { return };
    let (rows, plan) = isa_coverage::plan();
    let (probes, stages) = judge(t, &isa_coverage::probes());
    print_figures(&figures(&probes, &stages, None));
    if let Some(path) = std::env::var_os("ISA_COVERAGE_REPORT") {
        let mut s = String::from("probe\tcategory\tmnemonic\ttype\tarch\tinstruction");
        for st in STAGES {
            let _ = write!(s, "\t{st}");
        }
        s.push('\n');
        for (p, st) in probes.iter().zip(&stages) {
            let r = &rows[p.row];
            let _ =
                write!(s, "{}\t{}\t{}\t{}\t{}\t{}", p.name, r.main_category(), r.mnemonic, p.ty, p.arch, p.instruction);
            for name in STAGES {
                let cell = match st.get(name) {
                    Some(Ok(())) => "ok".to_string(),
                    Some(Err(e)) => format!("FAIL: {}", e.replace('\t', " ")),
                    None => "-".to_string(),
                };
                let _ = write!(s, "\t{cell}");
            }
            s.push('\n');
        }
        for (row, ty, planned) in &plan {
            if let Planned::None(np) = planned {
                let r = &rows[*row];
                let _ =
                    writeln!(s, "-\t{}\t{}\t{ty}\t{}\tno probe: {}", r.main_category(), r.mnemonic, r.arch(), np.why);
            }
        }
        std::fs::write(path, s).unwrap();
    }
}
