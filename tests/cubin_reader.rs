//! The cubin reader (`ptxas_rs::cubin`) against `cuobjdump -elf` on every corpus cubin.
//!
//! For each corpus PTX file (every `corpus/cuda/<k>/<k>.<arch>.ptx`, every `corpus/ptx/<k>/<k>.ptx`
//! for its `.target`) NVIDIA's ptxas builds an ET_EXEC cubin; a sample is also built with `-c`
//! (ET_REL). Then, cubin by cubin:
//! - the header line, the section table (index, offset, size, entsize, align, type name, flags,
//!   link, info, name) and the symbol table (index, value, size, info, other, shndx, name) equal
//!   the oracle's parse of `cuobjdump -elf`;
//! - the EIATTR/EICOMPAT records equal the oracle's (section, attribute, format, value text,
//!   whitespace-normalised) — and, stronger, every `.nv.info*`/`.nv.compat` block printed by
//!   [`InfoSection::dump`] occurs verbatim (tabs, trailing blanks, blank lines) in cuobjdump's raw
//!   text;
//! - every REL/RELA block's entries (offset, symbol, `R_CUDA_*` name, addend) equal cuobjdump's;
//! - functions: `.text` words tile each kernel's section, register counts equal the oracle's,
//!   and the constant bank 0 of every kernel matches the per-SM layout table.
//!
//! A second test mutates real cubins with a fixed-seed byte mutator: `Cubin::parse` must return,
//! never panic.

mod common;

use common::corpus_ptx;
use common::par::par_check;
use oracle::{PtxInput, tools_or_skip};
use ptxas_rs::cubin::{Constant0Layout, Cubin, ElfType, Table};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

#[derive(Debug, Clone)]
struct Job {
    path: PathBuf,
    arch: String,
    relocatable: bool,
}

fn jobs() -> Vec<Job> {
    let all = corpus_ptx();
    let mut v: Vec<Job> =
        all.iter().map(|c| Job { path: c.path.clone(), arch: c.arch.clone(), relocatable: false }).collect();
    // ET_REL sample: every hand-written PTX file, and every third CUDA kernel on sm_75/sm_90/sm_100.
    let mut n: BTreeMap<String, usize> = BTreeMap::new();
    for c in &all {
        let hand = c.path.components().any(|p| p.as_os_str() == "ptx");
        let sampled = ["sm_75", "sm_90", "sm_100"].contains(&c.arch.as_str()) && !hand && {
            let k = n.entry(c.arch.clone()).or_default();
            *k += 1;
            (*k).is_multiple_of(3)
        };
        if hand || sampled {
            v.push(Job { path: c.path.clone(), arch: c.arch.clone(), relocatable: true });
        }
    }
    // `CUBIN_READER_ONLY=<substring>` narrows the run to matching paths (for local iteration).
    if let Ok(only) = std::env::var("CUBIN_READER_ONLY") {
        v.retain(|j| j.path.to_string_lossy().contains(&only));
    }
    v
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The REL/RELA blocks of raw cuobjdump text: section name → entry lines, whitespace-normalised.
fn raw_relocations(raw: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut cur: Option<String> = None;
    for line in raw.lines() {
        if let Some(rest) = line.strip_prefix(".section ") {
            let mut f = rest.split('\t');
            let name = f.next().unwrap_or("").trim().to_string();
            let kind = f.next().unwrap_or("").trim();
            cur = (kind == "REL" || kind == "RELA").then(|| {
                out.insert(name.clone(), Vec::new());
                name
            });
            continue;
        }
        if line.trim().is_empty() {
            cur = None;
            continue;
        }
        if let Some(name) = &cur {
            out.get_mut(name).unwrap().push(normalise(line));
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    cubins: BTreeMap<String, usize>,
    sections: usize,
    symbols: usize,
    records: usize,
    raw_blocks: usize,
    relocations: usize,
    functions: usize,
    words: usize,
    kernels_cbank: usize,
}

fn check(t: &oracle::Tools, job: &Job, tally: &Mutex<Tally>) -> Result<(), String> {
    let what = format!("{} (-arch {}{})", job.path.display(), job.arch, if job.relocatable { " -c" } else { "" });
    let mut args = vec!["-arch", job.arch.as_str()];
    if job.relocatable {
        args.push("-c");
    }
    let out = t.ptxas_run(PtxInput::File { path: &job.path, cwd: None }, &args).map_err(|e| format!("{what}: {e}"))?;
    let bytes = out.cubin.ok_or_else(|| format!("{what}: ptxas wrote no cubin: {}", out.stderr))?;
    let d = t.elf_dump(&bytes).map_err(|e| format!("{what}: {e}"))?;
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("ptxas-rs-cubin-reader-{}-{n}.cubin", std::process::id()));
    std::fs::write(&file, &bytes).map_err(|e| format!("{what}: {e}"))?;
    let raw = Command::new(t.cuobjdump()).arg("-elf").arg(&file).output().map_err(|e| format!("{what}: {e}"))?;
    let _ = std::fs::remove_file(&file);
    let raw = String::from_utf8_lossy(&raw.stdout).into_owned();

    let c = Cubin::parse(&bytes).map_err(|e| format!("{what}: parse failed: {e}"))?;
    let mut errs = Vec::new();
    let expect_type = if job.relocatable { ElfType::Rel } else { ElfType::Exec };
    if c.header.kind != expect_type || c.header.osabi != 0x41 || c.header.abi_version != 8 || c.header.machine != 190 {
        errs.push(format!("header facts: {:?}", c.header));
    }
    let sm: u32 = job.arch.trim_start_matches("sm_").trim_end_matches(['a', 'f']).parse().unwrap_or(0);
    // The top byte is 0x06, or 0x0a when the PTX carries debug information (ptx/debug_loc).
    let top = c.header.flags >> 24;
    if c.sm() != sm || c.header.flags_low() != if sm >= 100 { 2 } else { 4 } || (top != 6 && top != 0xa) {
        errs.push(format!("e_flags {:#x}: sm {} for {}", c.header.flags, c.sm(), job.arch));
    }
    if c.header_line() != d.header {
        errs.push(format!("header line: ours {:?}, cuobjdump {:?}", c.header_line(), d.header));
    }
    // Sections (cuobjdump omits the null section).
    let ours: Vec<_> = c.sections.iter().skip(1).collect();
    if ours.len() != d.sections.len() {
        errs.push(format!("{} sections, cuobjdump lists {}", ours.len(), d.sections.len()));
    }
    for (s, o) in ours.iter().zip(&d.sections) {
        let mine =
            (s.index, s.offset, s.size, s.entsize, s.align, s.kind_name(), s.flags, s.link, s.info, s.name.clone());
        let theirs =
            (o.index, o.offset, o.size, o.entsize, o.align, o.kind.clone(), o.flags, o.link, o.info, o.name.clone());
        if mine != theirs {
            errs.push(format!("section: ours {mine:?}, cuobjdump {theirs:?}"));
        }
    }
    // Symbols.
    if c.symbols.len() != d.symbols.len() {
        errs.push(format!("{} symbols, cuobjdump lists {}", c.symbols.len(), d.symbols.len()));
    }
    for (s, o) in c.symbols.iter().zip(&d.symbols) {
        let name = if s.name.is_empty() { "(null)".to_string() } else { s.name.clone() };
        let mine = (s.index, s.value, s.size, s.info, s.other, u32::from(s.shndx), name);
        let theirs = (o.index, o.value, o.size, o.info, o.other, o.shndx, o.name.clone());
        if mine != theirs {
            errs.push(format!("symbol: ours {mine:?}, cuobjdump {theirs:?}"));
        }
    }
    // EIATTR records, against the oracle's parse.
    let mine: Vec<(String, String, String, String)> = c
        .info
        .iter()
        .flat_map(|i| {
            i.records.iter().map(|r| {
                let v = r.value_text(i.table, &c.symbols).unwrap_or_default();
                (i.name.clone(), r.name(i.table), r.format.name().to_string(), normalise(&v))
            })
        })
        .collect();
    let theirs: Vec<(String, String, String, String)> =
        d.attrs.iter().map(|a| (a.section.clone(), a.name.clone(), a.format.clone(), a.value.clone())).collect();
    if mine.len() != theirs.len() {
        errs.push(format!("{} EIATTR records, cuobjdump lists {}", mine.len(), theirs.len()));
    }
    for (m, o) in mine.iter().zip(&theirs) {
        if m != o {
            errs.push(format!("record: ours {m:?}, cuobjdump {o:?}"));
        }
    }
    // The same blocks, verbatim in cuobjdump's raw text.
    for i in &c.info {
        let block = format!("\n{}\n", i.dump(&c.symbols));
        if !raw.contains(&block) {
            errs.push(format!("block {} not found verbatim in cuobjdump's text; ours:\n{block}", i.name));
        }
    }
    // Relocations.
    let raw_rel = raw_relocations(&raw);
    let mut ours_rel: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in c.sections.iter().filter(|s| s.kind == 4 || s.kind == 9) {
        ours_rel.insert(s.name.clone(), Vec::new());
    }
    for r in &c.relocations {
        let sec = &c.sections[r.section as usize].name;
        let sym = &c.symbols[r.symbol as usize].name;
        let mut line = format!("{:#x} {sym} {}", r.offset, r.kind_name().unwrap_or_else(|| format!("<{}>", r.kind)));
        if let Some(a) = r.addend {
            line.push_str(&format!(" {:#x}", a as u64));
        }
        ours_rel.get_mut(sec).unwrap().push(normalise(&line));
    }
    if ours_rel != raw_rel {
        errs.push(format!("relocations: ours {ours_rel:?}\ncuobjdump {raw_rel:?}"));
    }
    // Functions, register counts, constant bank 0.
    let mut nwords = 0;
    for f in &c.functions {
        nwords += f.words.len();
        let sec = &c.sections[f.section as usize];
        if f.kernel && f.offset == 0 && f.words.len() * 16 != sec.size as usize {
            errs.push(format!("kernel {}: {} words in a {:#x}-byte section", f.name, f.words.len(), sec.size));
        }
        if f.kernel && f.regcount != d.register_count(&f.name) {
            errs.push(format!("kernel {}: regcount {:?}, oracle {:?}", f.name, f.regcount, d.register_count(&f.name)));
        }
    }
    let mut cbanks = 0;
    for f in c.functions.iter().filter(|f| f.kernel) {
        let Some(k) = c.constant0(&f.name) else {
            errs.push(format!("kernel {}: no .nv.constant0", f.name));
            continue;
        };
        cbanks += 1;
        let layout = Constant0Layout::for_sm(c.sm());
        if k.param_base != layout.param_base || k.size != u64::from(k.param_base + k.param_size) {
            errs.push(format!("kernel {}: constant0 {k:?} vs layout {layout:?}", f.name));
        }
        let ends = k.params.iter().map(|p| u32::from(p.offset) + u32::from(p.size)).max().unwrap_or(0);
        if ends > k.param_size || k.params.iter().enumerate().any(|(i, p)| usize::from(p.ordinal) != i) {
            errs.push(format!("kernel {}: parameters {:?} do not fit size {:#x}", f.name, k.params, k.param_size));
        }
    }
    if !c.info.iter().any(|i| i.table == Table::Info) || c.notes.iter().all(|n| n.cuinfo().is_none()) {
        errs.push("no .nv.info or .note.nv.cuinfo".into());
    }
    let mut tl = tally.lock().unwrap();
    *tl.cubins.entry(format!("{}{}", job.arch, if job.relocatable { " -c" } else { "" })).or_default() += 1;
    tl.sections += ours.len();
    tl.symbols += c.symbols.len();
    tl.records += mine.len();
    tl.raw_blocks += c.info.len();
    tl.relocations += c.relocations.len();
    tl.functions += c.functions.len();
    tl.words += nwords;
    tl.kernels_cbank += cbanks;
    drop(tl);
    if errs.is_empty() {
        Ok(())
    } else {
        errs.truncate(12);
        Err(format!("{what}:\n  {}", errs.join("\n  ")))
    }
}

#[test]
fn corpus_cubins_match_cuobjdump() {
    let Some(t) = tools_or_skip("corpus_cubins_match_cuobjdump") else { return };
    let jobs = jobs();
    let tally = Mutex::new(Tally::default());
    let failures = par_check(&jobs, |j| check(t, j, &tally));
    let tl = tally.into_inner().unwrap();
    println!("cubin reader vs cuobjdump -elf:");
    for (arch, n) in &tl.cubins {
        println!("  {arch:<12} {n:>4} cubins");
    }
    println!(
        "  compared: {} sections, {} symbols, {} EIATTR/EICOMPAT records ({} blocks verbatim), {} relocations; \
         {} functions / {} instruction words; {} kernels' constant bank 0",
        tl.sections, tl.symbols, tl.records, tl.raw_blocks, tl.relocations, tl.functions, tl.words, tl.kernels_cbank
    );
    println!("  mismatching cubins: {} of {}", failures.len(), jobs.len());
    assert!(failures.is_empty(), "{} of {} cubins differ:\n{}", failures.len(), jobs.len(), failures.join("\n"));
}

/// A fixed-seed xorshift byte mutator over real cubins: parse must never panic.
#[test]
fn mutated_real_cubins_never_panic() {
    let Some(t) = tools_or_skip("mutated_real_cubins_never_panic") else { return };
    let picks: Vec<_> = corpus_ptx().into_iter().step_by(37).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut ok, mut rejected) = (0, 0);
    for c in &picks {
        let out = t.ptxas_run(PtxInput::File { path: &c.path, cwd: None }, &["-arch", &c.arch]).unwrap();
        let base = out.cubin.unwrap();
        Cubin::parse(&base).unwrap();
        for round in 0..400 {
            let mut m = base.clone();
            match round % 4 {
                // Flip a few random bytes anywhere.
                0 | 1 => {
                    for _ in 0..1 + next() % 8 {
                        let i = (next() as usize) % m.len();
                        m[i] ^= (next() as u8) | 1;
                    }
                }
                // Truncate.
                2 => m.truncate((next() as usize) % m.len()),
                // Overwrite a header/section-header/symbol word with an extreme value.
                _ => {
                    let i = (next() as usize) % m.len().saturating_sub(8).max(1);
                    let v = [0u64, u64::MAX, 0x7fff_ffff, 0xffff, next()][(next() % 5) as usize];
                    m[i..i + 8].copy_from_slice(&v.to_le_bytes());
                }
            }
            match Cubin::parse(&m) {
                Ok(_) => ok += 1,
                Err(e) => {
                    assert!(!e.at.is_empty() && !e.what.is_empty());
                    rejected += 1
                }
            }
        }
    }
    println!("mutated cubins: {ok} parsed, {rejected} rejected with located errors, 0 panics");
}
