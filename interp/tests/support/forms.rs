//! The form sweep's driver (included with `#[path]`): NVIDIA ptxas's verdict and cubins for
//! batches of [`interp::forms::Case`]s per target, cached under
//! `~/.cache/ptxas-rs/forms/` keyed by a content hash (never committed), and nvdisasm's
//! listing of each cubin.
//!
//! Verdict: one PTX module per (family, target) holds every case of the batch; ptxas reports
//! its errors per line, the cases owning those lines are dropped and the rest compiled again,
//! until ptxas accepts the module. The accepted case names are cached under the hash of the
//! first module's text.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use interp::forms::{self, Case};

/// One compiled batch: the accepted cases (indices into the batch), per opt level the cubin and
/// nvdisasm's listing.
pub struct Batch {
    /// The target.
    pub arch: String,
    /// Indices of the cases ptxas accepted for `arch`.
    pub accepted: Vec<usize>,
    /// (opt level, cubin, listing).
    pub builds: Vec<(u32, Vec<u8>, oracle::Listing)>,
}

/// The cache directory.
pub fn cache_dir() -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    let d = home.join(".cache/ptxas-rs/forms");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn key(parts: &[&str]) -> String {
    let joined = parts.join("\u{0}");
    let h1 = forms::fnv1a(joined.as_bytes());
    let h2 = forms::fnv1a(format!("{}{joined}", joined.len()).as_bytes());
    format!("{h1:016x}{h2:016x}")
}

/// ptxas's accepted subset of `cases` for `arch` (cached).
pub fn verdict(t: &oracle::Tools, cases: &[&Case], arch: &str) -> Vec<usize> {
    let entries: Vec<String> = cases.iter().map(|c| c.entry_text()).collect();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    verdict_entries(t, &names, &entries, arch)
}

/// ptxas's accepted subset of module-level texts (`entries[i]` named `names[i]`, a unique
/// entry name) for `arch` (cached): the same rounds as [`verdict`].
pub fn verdict_entries(t: &oracle::Tools, names: &[&str], entries: &[String], arch: &str) -> Vec<usize> {
    verdict_entries_why(t, names, entries, arch).0
}

/// [`verdict_entries`] with ptxas's first error for each rejected entry (index → message; cached
/// beside the accepted names). ptxas errors name lines; a round whose errors name no entry's
/// line judges the remaining entries one module each.
pub fn verdict_entries_why(
    t: &oracle::Tools,
    names: &[&str],
    entries: &[String],
    arch: &str,
) -> (Vec<usize>, BTreeMap<usize, String>) {
    let (text, _) = forms::module_of_entries(entries, arch);
    let k = key(&[&text, arch, "verdict-v1"]);
    let file = cache_dir().join(format!("{k}.accepted"));
    let why_file = cache_dir().join(format!("{k}.rejected"));
    if let Ok(s) = std::fs::read_to_string(&file) {
        let accepted: std::collections::HashSet<&str> = s.lines().collect();
        let whys: BTreeMap<String, String> = std::fs::read_to_string(&why_file)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let live = (0..entries.len()).filter(|&i| accepted.contains(names[i])).collect();
        let why = (0..entries.len())
            .filter(|&i| !accepted.contains(names[i]))
            .map(|i| (i, whys.get(names[i]).cloned().unwrap_or_default()))
            .collect();
        return (live, why);
    }
    let run = |idx: &[usize]| {
        let batch: Vec<String> = idx.iter().map(|&i| entries[i].clone()).collect();
        let (text, ranges) = forms::module_of_entries(&batch, arch);
        let out = t
            .ptxas_run(oracle::PtxInput::Text { name: "forms.ptx", text: &text }, &["-arch", arch, "-O0"])
            .expect("ptxas runs");
        (out, ranges)
    };
    let mut why = BTreeMap::new();
    let mut live: Vec<usize> = (0..entries.len()).collect();
    for _round in 0..200 {
        if live.is_empty() {
            break;
        }
        let (out, ranges) = run(&live);
        if out.success() {
            break;
        }
        let mut bad = BTreeMap::new();
        for d in out.diagnostics.iter().filter(|d| d.severity >= oracle::Severity::Error) {
            if let Some(j) = d.line.and_then(|l| ranges.iter().position(|&(a, b)| a <= l && l <= b)) {
                bad.entry(j).or_insert_with(|| d.message.clone());
            }
        }
        if bad.is_empty() {
            // Unlocated errors: each remaining entry alone.
            let mut keep = Vec::new();
            for &i in &live {
                let (out, _) = run(&[i]);
                match out.diagnostics.iter().find(|d| d.severity >= oracle::Severity::Error) {
                    Some(d) if !out.success() => {
                        why.insert(i, d.message.clone());
                    }
                    _ if !out.success() => {
                        why.insert(i, out.stderr.lines().next().unwrap_or("").to_string());
                    }
                    _ => keep.push(i),
                }
            }
            live = keep;
            break;
        }
        for (j, m) in &bad {
            why.insert(live[*j], m.clone());
        }
        live = live.into_iter().enumerate().filter(|(j, _)| !bad.contains_key(j)).map(|(_, i)| i).collect();
    }
    let accepted: String = live.iter().map(|&i| format!("{}\n", names[i])).collect();
    let rejected: String =
        why.iter().map(|(i, m)| format!("{}\t{}\n", names[*i], m.replace(['\t', '\n'], " "))).collect();
    std::fs::write(&why_file, rejected).unwrap();
    std::fs::write(&file, accepted).unwrap();
    (live, why)
}

/// NVIDIA's cubin of `text` with `args` (cached).
pub fn cubin(t: &oracle::Tools, text: &str, args: &[&str]) -> Vec<u8> {
    let file = cache_dir().join(format!("{}.cubin", key(&[text, &args.join(" "), "cubin-v1"])));
    if let Ok(b) = std::fs::read(&file) {
        return b;
    }
    let out = t.ptxas_run(oracle::PtxInput::Text { name: "forms.ptx", text }, args).expect("ptxas runs");
    let b = out.cubin.unwrap_or_else(|| panic!("ptxas {args:?} failed on an accepted batch:\n{}", out.stderr));
    std::fs::write(&file, &b).unwrap();
    b
}

/// nvdisasm's listing of `cubin` (cached as `<hash>.listing`: one `function offset word text`
/// line per instruction).
pub fn listing(t: &oracle::Tools, cubin: &[u8]) -> oracle::Listing {
    let h = forms::fnv1a(cubin);
    let file = cache_dir().join(format!("{h:016x}{:08x}.listing", cubin.len()));
    if let Ok(text) = std::fs::read_to_string(&file) {
        let mut l = oracle::Listing::default();
        for line in text.lines() {
            let mut it = line.splitn(4, '\t');
            let (Some(f), Some(o), Some(w), Some(x)) = (it.next(), it.next(), it.next(), it.next()) else { continue };
            if l.functions.last().is_none_or(|g| g.name != f) {
                l.functions.push(oracle::Function {
                    name: f.into(),
                    sectioninfo_registers: None,
                    instructions: vec![],
                });
            }
            l.functions.last_mut().unwrap().instructions.push(oracle::Instruction {
                offset: o.parse().unwrap(),
                word: u128::from_str_radix(w, 16).unwrap(),
                text: x.into(),
            });
        }
        return l;
    }
    let l = t.disassemble(cubin).expect("nvdisasm reads NVIDIA's cubin");
    let mut text = String::new();
    for f in &l.functions {
        for i in &f.instructions {
            text.push_str(&format!("{}\t{}\t{:032x}\t{}\n", f.name, i.offset, i.word, i.text));
        }
    }
    std::fs::write(&file, text).unwrap();
    l
}

/// Verdict, then the -O0 and -O3 cubins and their listings, for `cases` on `arch`.
pub fn build(t: &oracle::Tools, cases: &[&Case], arch: &str) -> Batch {
    let accepted = verdict(t, cases, arch);
    let batch: Vec<&Case> = accepted.iter().map(|&i| cases[i]).collect();
    let mut builds = Vec::new();
    if !batch.is_empty() {
        let (text, _) = forms::module_text(&batch, arch);
        for opt in [0u32, 3] {
            let o = format!("-O{opt}");
            let b = cubin(t, &text, &["-arch", arch, &o]);
            let listing = listing(t, &b);
            builds.push((opt, b, listing));
        }
    }
    Batch { arch: arch.to_string(), accepted, builds }
}

/// Builds every (family, arch) batch of `cases`, two ptxas processes at a time.
pub fn build_all(t: &oracle::Tools, cases: &[Case], archs: &[&str]) -> BTreeMap<(String, String), (Vec<usize>, Batch)> {
    let mut jobs = Vec::new();
    for f in forms::families::FAMILIES {
        let idx: Vec<usize> = (0..cases.len()).filter(|&i| cases[i].family == *f).collect();
        if idx.is_empty() {
            continue;
        }
        for a in archs {
            jobs.push((f.to_string(), a.to_string(), idx.clone()));
        }
    }
    let out = std::sync::Mutex::new(BTreeMap::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let j = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((f, a, idx)) = jobs.get(j) else { break };
                    let batch_cases: Vec<&Case> = idx.iter().map(|&i| &cases[i]).collect();
                    let b = build(t, &batch_cases, a);
                    out.lock().unwrap().insert((f.clone(), a.clone()), (idx.clone(), b));
                }
            });
        }
    });
    out.into_inner().unwrap()
}

/// nvdisasm text with cubin branch labels replaced by `` `(LABEL) `` (as `sass_support` does).
pub fn normalize_labels(text: &str) -> String {
    match text.find("`(") {
        Some(i) => match text[i..].find(')') {
            Some(j) => format!("{}`(LABEL){}", &text[..i], &text[i + j + 1..]),
            None => text.to_string(),
        },
        None => text.to_string(),
    }
}

/// Whether NVIDIA's `word` at `offset`, printed by nvdisasm as `text`, decodes with `tables`,
/// prints as nvdisasm printed it (branch labels normalised) and encodes back to the same bits.
#[allow(dead_code)]
pub fn round_trips(tables: &ptxas_rs::sass::Tables, word: u128, offset: u64, text: &str) -> bool {
    tables.decode(word).ok().is_some_and(|inst| {
        let label = |_: i64| Some("LABEL".to_string());
        tables.print(&inst, offset, Some(&label)) == normalize_labels(text) && tables.encode(&inst).ok() == Some(word)
    })
}

/// The SASS form of an nvdisasm line: the opcode with its modifiers, then each operand's kind
/// (`R`, `UR`, `P`, `UP`, `I` immediate, `C` constant bank, `M[...]` memory with the kinds
/// inside, `SR`, `L` label), with its prefix modifiers (`-`, `!`, `~`, `|..|`) and register
/// suffixes (`.H1`, `.64`, ...) kept; the guard predicate and `.reuse` dropped.
pub fn form_of(text: &str) -> String {
    let t = text.trim().trim_end_matches(';').trim();
    let t = if t.starts_with('@') { t.split_once(' ').map_or(t, |x| x.1) } else { t };
    let (op, rest) = t.split_once(' ').unwrap_or((t, ""));
    let mut kinds = Vec::new();
    for o in rest.split(", ").map(str::trim).filter(|o| !o.is_empty()) {
        kinds.push(operand_kind(&o.replace(".reuse", "")));
    }
    format!("{op} {}", kinds.join(","))
}

fn operand_kind(o: &str) -> String {
    if o.starts_with('`') {
        return "L".into();
    }
    if let Some(inner) = o.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        return format!("M[{}]", inner.split('+').map(operand_kind).collect::<Vec<_>>().join("+"));
    }
    if o.contains("desc[") || o.contains("c[") || o.contains("cx[") {
        let bracketed: Vec<String> = o
            .split('[')
            .skip(1)
            .map(|p| p.split(']').next().unwrap_or("").split('+').map(operand_kind).collect::<Vec<_>>().join("+"))
            .collect();
        let head = o.split('[').next().unwrap_or("");
        return format!("{head}[{}]", bracketed.join("]["));
    }
    let (prefix, body) = split_prefix(o);
    let (name, suffix) = body.split_once('.').map_or((body, ""), |(a, b)| (a, b));
    let name = name.trim_end_matches('|');
    let kind = if name.starts_with("SR_") {
        "SR".to_string()
    } else if name.starts_with("UR") {
        "UR".into()
    } else if name.starts_with("UP") {
        "UP".into()
    } else if name.starts_with('R') && (name == "RZ" || name[1..].chars().all(|c| c.is_ascii_digit())) {
        "R".into()
    } else if name.starts_with('P') && (name == "PT" || name[1..].chars().all(|c| c.is_ascii_digit())) {
        "P".into()
    } else if name.starts_with("0x")
        || name.starts_with("-0x")
        || name.chars().next().is_some_and(|c| c.is_ascii_digit())
        || matches!(name, "INF" | "+INF" | "-INF" | "QNAN" | "+QNAN" | "-QNAN" | "NAN")
    {
        return format!("{prefix}I");
    } else {
        return o.to_string();
    };
    if suffix.is_empty() { format!("{prefix}{kind}") } else { format!("{prefix}{kind}.{suffix}") }
}

fn split_prefix(o: &str) -> (String, &str) {
    let mut p = String::new();
    let mut s = o;
    while let Some(c) = s.chars().next().filter(|c| matches!(c, '-' | '!' | '~' | '|')) {
        if c == '-' && s[1..].starts_with("0x") {
            break;
        }
        p.push(c);
        s = &s[1..];
    }
    (p, s)
}
