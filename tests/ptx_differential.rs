//! Differential testing of the front end against NVIDIA's ptxas.
//!
//! A deterministic generator (xorshift PRNG, fixed seeds) derives cases from the corpus (the
//! error corpus and the small hand-written PTX files) and from instruction snippets:
//! token/type swaps, deleted operands, modifier swaps, opcode swaps, undeclared registers,
//! `.version` × `.target` × `-arch` gate crossings and directive perturbations. Each case is
//! run through ptxas (`-arch compute_XX`, parse-and-check only; in parallel) and through
//! [`ptxas_rs::ptx::sema::check_source`], and compared on the accept/reject verdict and on the
//! first error line.
//!
//! - `differential_sample` (default `cargo test`): a fixed 500-case sample; asserts the
//!   agreement levels reached so far, so regressions fail.
//! - `differential_report` (`#[ignore]`; run with
//!   `cargo test --release --test ptx_differential -- --ignored --nocapture`): the full set of
//!   at least 5,000 cases; prints the rates and lists every disagreement, and writes them to
//!   `$CARGO_TARGET_TMPDIR/ptx-diff-report.txt`. Disagreements are never hidden.
//!
//! Both skip (printing `SKIPPED`) when NVIDIA's tools are unavailable.

mod common;

use ptxas_rs::ptx::sema;
use std::sync::Mutex;

/// Verdict agreement reached on the sample (percent).
const MIN_VERDICT_PCT: f64 = 99.0;
/// First-error agreement reached on the sample's rejected cases (percent). The sample mutates
/// corpus files, so it changes when the corpus grows: with sreg_reserved_smem and two error
/// files added it is 398/413 (96.4%; the front end before that change gives 396/413 on it),
/// while the 5,000-case `differential_report` gives 3994/4116 (97.0%).
const MIN_FIRST_PCT: f64 = 96.0;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

#[derive(Debug, Clone)]
struct Case {
    id: String,
    text: String,
    arch: String,
}

const TYPES: &[&str] = &[
    ".s32", ".u32", ".b32", ".f32", ".f64", ".s64", ".u64", ".b64", ".f16", ".bf16", ".u16", ".pred", ".f33", ".s8",
    ".b128",
];
const MODS: &[&str] = &[
    ".rn", ".rz", ".ftz", ".sat", ".approx", ".hi", ".lo", ".wide", ".cc", ".global", ".shared", ".local", ".sync",
    ".aligned", ".nc", ".relaxed", ".acquire", ".gpu", ".cta", ".x", ".foo", ".uni", ".full",
];
const OPCODES: &[&str] = &[
    "add", "sub", "mul", "mad", "fma", "mov", "ld", "st", "cvt", "setp", "selp", "and", "abs", "neg", "min", "max",
    "div", "rem", "shl", "shr", "popc", "bfe", "copysign", "tanh", "lop3", "addx", "movv", "redux", "bar", "shfl",
];
const VERSIONS: &[&str] =
    &["6.0", "6.2", "6.4", "7.0", "7.3", "7.5", "7.8", "8.0", "8.3", "8.6", "8.8", "9.0", "5.0", "4.3", "6.9"];
const TARGETS: &[&str] = &[
    "sm_50", "sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_120",
    "sm_91",
];
const DIRECTIVES: &[&str] = &[
    ".maxntid 128",
    ".reqntid 64",
    ".minnctapersm 2",
    ".maxnctapersm 2",
    ".maxnreg 0",
    ".maxntid 0",
    ".reqnctapercluster 2",
    ".maxclusterrank 4",
    ".explicitcluster",
    ".blocksareclusters",
    ".maxnreg 32",
];
const SNIPPETS: &[&str] = &[
    "add.s32 %r1, %r2, %r3;",
    "add.f32 %f1, %f2, %f3;",
    "add.bf16 %h1, %h2, %h3;",
    "add.f16 %h1, %h2, %h3;",
    "mul.lo.s32 %r1, %r2, %r3;",
    "mad.lo.s32 %r1, %r2, %r3, %r4;",
    "fma.rn.f32 %f1, %f2, %f3, %f4;",
    "tanh.approx.f32 %f1, %f2;",
    "lop3.b32 %r1, %r2, %r3, %r4, 0x80;",
    "redux.sync.add.s32 %r1, %r2, 0xffffffff;",
    "elect.sync %r1|%p1, 0xffffffff;",
    "stacksave.u64 %rd1;",
    "szext.clamp.s32 %r1, %r2, %r3;",
    "nanosleep.u32 %r1;",
    "cp.async.commit_group;",
    "griddepcontrol.wait;",
    "activemask.b32 %r1;",
    "bmsk.clamp.b32 %r1, %r2, %r3;",
    "mov.u32 %r1, %clusterid.x;",
    "mov.u32 %r1, %cluster_ctarank;",
    "shfl.sync.bfly.b32 %r1, %r2, 1, 31, 0xffffffff;",
    "vote.sync.any.pred %p1, %p2, 0xffffffff;",
    "bar.sync 0;",
    "barrier.sync 1;",
    "bar.sync 17;",
    "membar.gl;",
    "fence.proxy.async;",
    "mbarrier.init.shared.b64 [%rd1], 1;",
    "getctarank.u32 %r1, %rd1;",
    "dp4a.u32.u32 %r1, %r2, %r3, %r4;",
    "shf.l.wrap.b32 %r1, %r2, %r3, %r4;",
    "movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;",
    "ex2.approx.f16 %h1, %h2;",
    "setmaxnreg.inc.sync.aligned.u32 64;",
    "cvt.rn.f32.s32 %f1, %r1;",
    "cvt.s32.f32 %r1, %f1;",
    "abs.s32 %r1, %r2;",
    "abs.u32 %r1, %r2;",
    "bfe.u32 %r1, %r2, 1, 2;",
    "copysign.f32 %f1, %f2, %f3;",
    "popc.b32 %r1, %r2;",
    "clz.b32 %r1, %r2;",
    "brev.b32 %r1, %r2;",
    "match.any.sync.b32 %r1, %r2, 0xffffffff;",
    "alloca.u64 %rd1, 16;",
    "prmt.b32 %r1, %r2, %r3, 0x3210;",
    "div.rn.f32 %f1, %f2, %f3;",
    "rem.s32 %r1, %r2, %r3;",
    "neg.s32 %r1, %r2;",
    "selp.b32 %r1, %r2, %r3, %p1;",
    "setp.lt.s32 %p1, %r1, %r2;",
    "not.b32 %r1, %r2;",
    "mapa.u64 %rd1, %rd2, %r1;",
];

fn snippet_file(version: &str, target: &str, line: &str, directive: &str) -> String {
    format!(
        ".version {version}\n.target {target}\n.address_size 64\n\n.visible .entry k() {directive}\n{{\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<6>;\n\t.reg .f32 %f<6>;\n\t.reg .f64 %fd<4>;\n\t.reg .b16 %h<4>;\n\t.reg .pred %p<3>;\n\t{line}\n\tret;\n}}\n"
    )
}

/// The `compute_` arch for a `.target` (parse-and-check only).
fn compute_of(text: &str) -> String {
    let t = common::ptx_target(text).unwrap_or_else(|| "sm_75".into());
    match t.strip_prefix("sm_").or_else(|| t.strip_prefix("compute_")) {
        Some(rest) => format!("compute_{rest}"),
        None => "compute_75".into(),
    }
}

fn instruction_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty()
                && !t.starts_with("//")
                && !t.starts_with('.')
                && !t.ends_with(':')
                && t.ends_with(';')
                && !t.starts_with('{')
                && !t.starts_with('}')
                && !t.starts_with("ret")
        })
        .map(|(i, _)| i)
        .collect()
}

fn replace_line(text: &str, idx: usize, f: impl Fn(&str) -> String) -> String {
    let mut out: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(l) = out.get_mut(idx) {
        *l = f(l);
    }
    out.join("\n") + "\n"
}

fn mutate(base: &str, rng: &mut Rng) -> String {
    let lines = instruction_lines(base);
    let kind = rng.below(9);
    if lines.is_empty() && kind < 6 {
        return base.to_string();
    }
    let idx = *rng.pick(&lines.clone().into_iter().chain([0]).collect::<Vec<_>>());
    match kind {
        0 => {
            let to = *rng.pick(TYPES);
            replace_line(base, idx, |l| {
                TYPES.iter().fold(l.to_string(), |acc, t| if acc.contains(t) { acc.replacen(t, to, 1) } else { acc })
            })
        }
        1 => replace_line(base, idx, |l| match l.rfind(',') {
            Some(p) => format!("{};", &l[..p]),
            None => l.to_string(),
        }),
        2 => {
            let m = *rng.pick(MODS);
            replace_line(base, idx, |l| {
                let t = l.trim_start();
                let ws = &l[..l.len() - t.len()];
                match t.find(|c: char| c.is_whitespace()) {
                    Some(p) if !t.starts_with('@') => format!("{ws}{}{m}{}", &t[..p], &t[p..]),
                    _ => l.to_string(),
                }
            })
        }
        3 => {
            let op = *rng.pick(OPCODES);
            replace_line(base, idx, |l| {
                let t = l.trim_start();
                let ws = &l[..l.len() - t.len()];
                match t.find(['.', ' ', '\t']) {
                    Some(p) if !t.starts_with('@') => format!("{ws}{op}{}", &t[p..]),
                    _ => l.to_string(),
                }
            })
        }
        4 => replace_line(base, idx, |l| match l.find("%r") {
            Some(p) => format!("{}%zz{}", &l[..p], &l[p + 2..]),
            None => l.to_string(),
        }),
        5 => replace_line(base, idx, |l| l.replacen(", ", ", -", 1)),
        6 => {
            let v = *rng.pick(VERSIONS);
            base.lines()
                .map(|l| if l.starts_with(".version") { format!(".version {v}") } else { l.to_string() })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        }
        7 => {
            let t = *rng.pick(TARGETS);
            base.lines()
                .map(|l| if l.starts_with(".target") { format!(".target {t}") } else { l.to_string() })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        }
        _ => {
            let d = *rng.pick(DIRECTIVES);
            base.replacen(".entry k()", &format!(".entry k() {d}"), 1)
        }
    }
}

/// The deterministic case set: `n` cases.
fn cases(n: usize) -> Vec<Case> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut bases: Vec<String> = Vec::new();
    for p in common::error_corpus() {
        if let Ok(t) = std::fs::read_to_string(&p)
            && !p.file_name().unwrap().to_string_lossy().starts_with("syn_")
        {
            // Drop the `// ptxas-args` line; the arch comes from the target.
            bases.push(t.lines().skip(1).collect::<Vec<_>>().join("\n") + "\n");
        }
    }
    for c in common::corpus_ptx() {
        if let Ok(t) = std::fs::read_to_string(&c.path)
            && t.len() < 6000
        {
            bases.push(t);
        }
    }
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    while out.len() < n {
        let (id, text) = if i % 3 == 0 {
            let line = *rng.pick(SNIPPETS);
            let v = *rng.pick(VERSIONS);
            let t = *rng.pick(TARGETS);
            let d = if rng.below(4) == 0 { *rng.pick(DIRECTIVES) } else { "" };
            (format!("snippet#{i}"), snippet_file(v, t, line, d))
        } else {
            let b = rng.below(bases.len());
            let mut t = mutate(&bases[b], &mut rng);
            if rng.below(3) == 0 {
                t = mutate(&t, &mut rng);
            }
            (format!("mut#{i}(base {b})"), t)
        };
        let arch = if rng.below(8) == 0 {
            format!("compute_{}", rng.pick(&["75", "80", "90", "90a", "100a"]))
        } else {
            compute_of(&text)
        };
        out.push(Case { id, text, arch });
        i += 1;
    }
    out
}

/// Our run of a case: option validation (as the driver does it), then the front end.
fn ours(c: &Case) -> (bool, Vec<String>) {
    let args: Vec<String> = ["-arch", &c.arch, "t.ptx"].iter().map(|s| s.to_string()).collect();
    let parsed = ptxas_rs::cli::parse(&args);
    let mut lines: Vec<String> = parsed.diagnostics.iter().map(ToString::to_string).collect();
    let options = match parsed.result {
        Ok(o) => o,
        Err(fatal) => {
            lines.push(fatal.to_string());
            return (true, lines);
        }
    };
    let v = ptxas_rs::cli::validate(options);
    lines.extend(v.diagnostics.iter().map(ToString::to_string));
    if v.is_fatal() {
        return (true, lines);
    }
    let r = sema::check_source(c.text.as_bytes(), &sema::Options::new("t.ptx", &c.arch));
    lines.extend(r.diagnostics.iter().map(ToString::to_string));
    (r.failed, lines)
}

fn first_error(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .find(|l| {
            l.contains("; error")
                || l.contains("; fatal")
                || l.starts_with("ptxas error")
                || l.starts_with("ptxas fatal")
        })
        .cloned()
}

struct Outcome {
    total: usize,
    verdict_agree: usize,
    rejected: usize,
    first_agree: usize,
    disagreements: Vec<String>,
}

fn run(cases: &[Case], tools: &oracle::Tools) -> Outcome {
    let results = Mutex::new(Vec::new());
    let _ = common::par::par_check(cases, |c| {
        let theirs = tools.ptxas_run(oracle::PtxInput::Text { name: "t.ptx", text: &c.text }, &["-arch", &c.arch]);
        let Ok(theirs) = theirs else { return Ok(()) };
        let (failed, our_lines) = ours(c);
        let their_lines: Vec<String> = theirs.stderr.lines().map(str::to_string).collect();
        results.lock().unwrap().push((
            c.id.clone(),
            c.arch.clone(),
            c.text.clone(),
            !theirs.success(),
            failed,
            first_error(&their_lines),
            first_error(&our_lines),
        ));
        Ok(())
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut o = Outcome { total: results.len(), verdict_agree: 0, rejected: 0, first_agree: 0, disagreements: vec![] };
    for (id, arch, text, theirs_rej, ours_rej, tf, of) in results {
        if theirs_rej == ours_rej {
            o.verdict_agree += 1;
        }
        if theirs_rej {
            o.rejected += 1;
            if tf == of {
                o.first_agree += 1;
            }
        }
        if theirs_rej != ours_rej || (theirs_rej && tf != of) {
            o.disagreements.push(format!(
                "--- {id} -arch {arch}: ptxas {} / ours {}\n  ptxas: {}\n  ours:  {}\n{}",
                if theirs_rej { "rejects" } else { "accepts" },
                if ours_rej { "rejects" } else { "accepts" },
                tf.unwrap_or_default(),
                of.unwrap_or_default(),
                text.lines().map(|l| format!("    | {l}")).collect::<Vec<_>>().join("\n")
            ));
        }
    }
    o
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 { 100.0 } else { 100.0 * a as f64 / b as f64 }
}

fn summary(o: &Outcome) -> String {
    format!(
        "cases {}; verdict agreement {}/{} ({:.1}%); first-error agreement on rejected {}/{} ({:.1}%); disagreements {}",
        o.total,
        o.verdict_agree,
        o.total,
        pct(o.verdict_agree, o.total),
        o.first_agree,
        o.rejected,
        pct(o.first_agree, o.rejected),
        o.disagreements.len()
    )
}

#[test]
fn generator_is_deterministic_and_never_panics_us() {
    let a = cases(300);
    let b = cases(300);
    assert!(a.iter().zip(&b).all(|(x, y)| x.text == y.text && x.arch == y.arch));
    for c in &a {
        let _ = sema::check_source(c.text.as_bytes(), &sema::Options::new("t.ptx", &c.arch));
    }
}

#[test]
fn differential_sample() {
    let Some(tools) = oracle::tools_or_skip("differential_sample") else { return };
    let all = cases(500);
    let o = run(&all, tools);
    eprintln!("differential sample: {}", summary(&o));
    if pct(o.first_agree, o.rejected) < MIN_FIRST_PCT || pct(o.verdict_agree, o.total) < MIN_VERDICT_PCT {
        for d in &o.disagreements {
            eprintln!("{d}");
        }
    }
    assert!(o.total >= 490, "ptxas ran on too few cases");
    assert!(pct(o.verdict_agree, o.total) >= MIN_VERDICT_PCT, "verdict agreement regressed: {}", summary(&o));
    assert!(pct(o.first_agree, o.rejected) >= MIN_FIRST_PCT, "first-error agreement regressed: {}", summary(&o));
}

#[test]
#[ignore = "full differential report (5,000+ cases against ptxas); run with --ignored --nocapture"]
fn differential_report() {
    let Some(tools) = oracle::tools_or_skip("differential_report") else { return };
    let n = std::env::var("PTX_DIFF_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(5000);
    let all = cases(n);
    let o = run(&all, tools);
    let text = format!("{}\n\n{}\n", summary(&o), o.disagreements.join("\n"));
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ptx-diff-report.txt");
    let _ = std::fs::write(&path, &text);
    eprintln!("{text}");
    eprintln!("differential report: {} (written to {})", summary(&o), path.display());
}
