//! Generator of `src/sass/sm90/generated.rs` (ignored by default; see src/sass/gen/README.md):
//! `cargo test --test sass_gen -- --ignored --nocapture`.
//!
//! Learns, from NVIDIA's own output (the corpus, then the wild corpus's Triton and nvcc -G /
//! -lineinfo code, `sass_support::wild_instructions`): (1) the modifier table — for every corpus instruction whose
//! form is known, the residue bits and the suffix nvdisasm printed; a residue is kept only when
//! our printer, given that suffix, reproduces nvdisasm's text for *every* corpus instruction
//! carrying it (and no two texts disagree); (2) the special-register names, by sweeping the
//! SR id of an `S2R` word through 0..=255 with `nvdisasm -b SM90`.

#[path = "sass_support/mod.rs"]
mod sass_support;

use ptxas_rs::sass::form::{ImmStyle, Kind};
use ptxas_rs::sass::{Tables, sm75, sm80, sm90, sm100, sm120};
use sass_support::*;
use std::collections::{BTreeMap, BTreeSet};

#[test]
#[ignore = "regenerates src/sass/sm90/generated.rs"]
fn generate_sm90_tables() {
    let Some(t) = oracle::tools_or_skip("generate_sm90_tables") else { return };
    generate(t, sm90::tables(), &[("sm_90", "SM90"), ("sm_90a", "SM90")], "src/sass/sm90/generated.rs");
}

/// The sm_80 family (sm_80, sm_86, sm_89) shares its forms; its modifier table is learned from
/// the three archs' corpus, each checked against its own nvdisasm text. Entries every arch
/// prints alike go to `MODS`; the rest (sm_89 spells `F2FP.F16.F32.PACK_AB` where sm_80/sm_86
/// print `F2FP.PACK_AB`) to the arch's list in `ARCH_MODS`. Sweeps decode with
/// `nvdisasm -b SM80`; every entry learned from one arch is checked on the others' nvdisasm.
#[test]
#[ignore = "regenerates src/sass/sm80/generated.rs"]
fn generate_sm80_tables() {
    let Some(t) = oracle::tools_or_skip("generate_sm80_tables") else { return };
    generate(
        t,
        sm80::tables(),
        &[("sm_80", "SM80"), ("sm_86", "SM86"), ("sm_89", "SM89")],
        "src/sass/sm80/generated.rs",
    );
}

/// sm_75 (Turing): its own modifier table, learned from its corpus and swept with
/// `nvdisasm -b SM75`.
#[test]
#[ignore = "regenerates src/sass/sm75/generated.rs"]
fn generate_sm75_tables() {
    let Some(t) = oracle::tools_or_skip("generate_sm75_tables") else { return };
    generate(t, sm75::tables(), &[("sm_75", "SM75")], "src/sass/sm75/generated.rs");
}

/// sm_100 (Blackwell): its own modifier table, learned from its corpus and swept with
/// `nvdisasm -b SM100`.
#[test]
#[ignore = "regenerates src/sass/sm100/generated.rs"]
fn generate_sm100_tables() {
    let Some(t) = oracle::tools_or_skip("generate_sm100_tables") else { return };
    generate(t, sm100::tables(), &[("sm_100", "SM100")], "src/sass/sm100/generated.rs");
}

/// sm_120 (Blackwell consumer): its own modifier table, learned from its corpus and swept with
/// `nvdisasm -b SM120`.
#[test]
#[ignore = "regenerates src/sass/sm120/generated.rs"]
fn generate_sm120_tables() {
    let Some(t) = oracle::tools_or_skip("generate_sm120_tables") else { return };
    generate(t, sm120::tables(), &[("sm_120", "SM120")], "src/sass/sm120/generated.rs");
}

/// (key, residue) → Ok(suffix) | Err(example).
type Learned = BTreeMap<(u16, u128), Result<String, String>>;

/// Learns (key, residue) → suffix from corpus instructions into `table`, recording a sample
/// word per entry.
fn learn(tables: &Tables, seen: &[Seen], table: &mut Learned, samples: &mut BTreeMap<(u16, u128), u128>) {
    let label = |_: i64| Some("LABEL".to_string());
    for s in seen {
        let Ok(mut inst) = tables.decode_unchecked(s.word) else { continue };
        samples.entry((inst.form.key, inst.residue)).or_insert(s.word);
        let want = normalize_labels(&s.text);
        let mn = {
            let t = s.text.trim();
            let t = if t.starts_with('@') { t.split_once(' ').map_or(t, |x| x.1) } else { t };
            t.split(' ').next().unwrap_or("").to_string()
        };
        let Some(after) = mn.strip_prefix(inst.form.base) else {
            table.insert((inst.form.key, inst.residue), Err(format!("base differs: {}", s.text)));
            continue;
        };
        let mut found = None;
        for alias in [".MOV", ".IADD", ".SHL", ""] {
            let Some(suffix) = after.strip_prefix(alias) else { continue };
            inst.suffix = Box::leak(suffix.to_string().into_boxed_str());
            if tables.print(&inst, s.offset, Some(&label)) == want {
                found = Some(suffix.to_string());
                break;
            }
        }
        let k = (inst.form.key, inst.residue);
        let entry = table.entry(k).or_insert_with(|| found.clone().ok_or_else(String::new));
        match (&*entry, found) {
            (Ok(a), Some(b)) if *a == b => {}
            (Err(_), _) => {}
            (_, _) => {
                inst.suffix = "";
                *entry = Err(format!("{}  ours: {}", s.text, tables.print(&inst, s.offset, Some(&label))));
            }
        }
        if let Err(e) = table.get_mut(&k).unwrap()
            && e.is_empty()
        {
            *e = format!("{}  ours(no suffix): {}", s.text, tables.print(&inst, s.offset, Some(&label)));
        }
    }
}

/// Learns the modifier table and special-register names of `tables` from the corpus of
/// `family` ((corpus arch, nvdisasm `-b` arch) pairs; sweeps use `tables.name`) and writes them
/// to `out_path`. With one nvdisasm arch the file holds `MODS` and `SREGS`; with several, also
/// `ARCH_MODS`: per arch, the entries whose text is not the same on all of them.
fn generate(t: &oracle::Tools, tables: &'static Tables, family: &[(&str, &'static str)], out_path: &str) {
    let mut archs: Vec<&'static str> = Vec::new();
    let mut seen = Vec::new();
    let mut per_arch: BTreeMap<&str, Learned> = BTreeMap::new();
    let mut samples: BTreeMap<(u16, u128), u128> = BTreeMap::new();
    for &(corpus, nv) in family {
        if !archs.contains(&nv) {
            archs.push(nv);
        }
        let s = corpus_instructions(t, corpus);
        learn(tables, &s, per_arch.entry(nv).or_default(), &mut samples);
        seen.extend(s);
    }
    // The combined table the sweep starts from: an entry is accepted when every arch whose
    // corpus shows it prints it alike.
    let mut table = Learned::new();
    for learned in per_arch.values() {
        for (k, v) in learned {
            match table.get(k) {
                None => {
                    table.insert(*k, v.clone());
                }
                Some(Ok(a)) if v.as_ref() != Ok(a) => {
                    let why = format!("archs differ: {a:?} / {v:?}");
                    table.insert(*k, Err(why));
                }
                Some(_) => {}
            }
        }
    }
    let swept = sweep_modifiers(t, tables, &seen, &mut table, &mut samples);
    let swept = swept + sweep_families(t, tables, &mut table, &mut samples);
    // Then NVIDIA's code of real producers' PTX (the wild corpus: Triton, nvcc -G at -O0,
    // nvcc -lineinfo), which uses residues the corpus does not: after the sweeps (which stay
    // the corpus's: wider field sets would put bases over [`MAX_FIELD_BITS`]), an entry it
    // teaches is added only where the corpus and the sweeps have none (their verdict stands).
    for &(corpus, nv) in family {
        let s = wild_instructions(t, corpus, 1);
        let mut wild = Learned::new();
        learn(tables, &s, &mut wild, &mut samples);
        let own = per_arch.entry(nv).or_default();
        let mut added = 0;
        for (k, v) in wild {
            if v.is_ok() && !table.contains_key(&k) && !own.contains_key(&k) && !WILD_UNMODELLED.contains(&k) {
                own.insert(k, v.clone());
                table.insert(k, v);
                added += 1;
            }
        }
        println!("{corpus}: {} wild words, {added} entries learned beyond the corpus and the sweeps", s.len());
    }
    let mut bad: BTreeMap<u16, Vec<String>> = BTreeMap::new();
    let modelled = |key: u16, suffix: &str, bad: &mut BTreeMap<u16, Vec<String>>| {
        let Some(form) = tables.form(key) else { return false };
        if UNMODELLED_SUFFIXES.iter().any(|(b, t)| *b == form.base && suffix.split('.').any(|x| x == *t)) {
            bad.entry(key).or_default().push(format!("{}{suffix}: decorations not modelled", form.base));
            return false;
        }
        true
    };
    let entry = |(key, residue): (u16, u128), suffix: &str| {
        format!("    ModEntry {{ key: {key:#05x}, residue: {residue:#x}, suffix: {suffix:?} }},\n")
    };
    let mut out = String::from(
        "//! GENERATED by `tests/sass_gen.rs` (see `src/sass/gen/README.md`); do not edit.\nuse crate::sass::form::ModEntry;\n",
    );
    if archs.len() == 1 {
        out.push_str("/// Modifier residues → suffixes.\npub static MODS: &[ModEntry] = &[\n");
        for (k, v) in &table {
            match v {
                Ok(suffix) if modelled(k.0, suffix, &mut bad) => out.push_str(&entry(*k, suffix)),
                Ok(_) => {}
                Err(e) => bad.entry(k.0).or_default().push(e.clone()),
            }
        }
        out.push_str("];\n");
    } else {
        // Per arch: its corpus verdict where its corpus shows the entry, else its nvdisasm's
        // text of the entry's sample word.
        let keys: Vec<(u16, u128)> = table
            .keys()
            .chain(per_arch.values().flat_map(|l| l.keys()))
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut verdict: BTreeMap<&str, Learned> = BTreeMap::new();
        for &arch in &archs {
            let own = &per_arch[arch];
            let ask: Vec<(u16, u128)> =
                keys.iter().filter(|k| !own.contains_key(*k) && samples.contains_key(*k)).copied().collect();
            let words: Vec<u128> = ask.iter().map(|k| samples[k]).collect();
            let mut v: Learned = own.clone();
            for (chunk_k, chunk_w) in ask.chunks(1024).zip(words.chunks(1024)) {
                let texts = disassemble(t, arch, chunk_w);
                for ((k, w), text) in chunk_k.iter().zip(chunk_w).zip(&texts) {
                    let got = text.as_deref().and_then(|x| suffix_for(tables, *w, x));
                    match got {
                        Some((key, residue, suffix)) if (key, residue) == *k => {
                            v.insert(*k, Ok(suffix));
                        }
                        _ => {
                            let why = format!("{arch}: {:?} on sample {w:#034x}", text);
                            v.insert(*k, Err(why));
                        }
                    }
                }
            }
            verdict.insert(arch, v);
        }
        let mut shared = String::new();
        let mut own: BTreeMap<&str, String> = BTreeMap::new();
        for k in &keys {
            let vs: Vec<Result<String, String>> =
                archs.iter().map(|a| verdict[a].get(k).cloned().unwrap_or_else(|| Err("no sample".into()))).collect();
            if let Ok(s0) = &vs[0]
                && vs.iter().all(|v| v.as_ref() == Ok(s0))
            {
                if modelled(k.0, s0, &mut bad) {
                    shared.push_str(&entry(*k, s0));
                }
                continue;
            }
            for (a, v) in archs.iter().zip(&vs) {
                match v {
                    Ok(suffix) if modelled(k.0, suffix, &mut bad) => {
                        own.entry(a).or_default().push_str(&entry(*k, suffix))
                    }
                    Ok(_) => {}
                    Err(e) => bad.entry(k.0).or_default().push(format!("{a}: {e}")),
                }
            }
        }
        out.push_str(
            "/// Modifier residues → suffixes, alike on every arch of the family.\npub static MODS: &[ModEntry] = &[\n",
        );
        out.push_str(&shared);
        out.push_str("];\n/// Per arch (nvdisasm's name), entries not alike on every arch of the family.\n");
        out.push_str("pub static ARCH_MODS: &[(&str, &[ModEntry])] = &[\n");
        // Laid out as rustfmt lays it out, so a regenerated file needs no reformatting.
        for a in &archs {
            let entries = own.get(a).map_or(String::new(), |s| s.lines().map(|l| format!("        {l}\n")).collect());
            out.push_str(&format!("    (\n        {a:?},\n        &[\n{entries}        ],\n    ),\n"));
        }
        out.push_str("];\n");
    }
    // Special registers: sweep S2R R0, SR_<id>.
    let base: u128 = 0x000e2e0000002100_0000000000007919 & !(0xffu128 << 72);
    let words: Vec<u128> = (0..=255u128).map(|id| base | (id << 72)).collect();
    let texts = t.disassemble_raw(tables.name, &words).expect("nvdisasm");
    out.push_str(&format!(
        "/// Special registers (id, name), swept with nvdisasm -b {}.\npub static SREGS: &[(u8, &str)] = &[\n",
        tables.name
    ));
    let mut names = BTreeSet::new();
    for (id, text) in texts.iter().enumerate() {
        if let Some(name) = text.as_deref().and_then(|x| x.split(", ").nth(1))
            && names.insert(name.to_string())
        {
            out.push_str(&format!("    ({id}, {name:?}),\n"));
        }
    }
    out.push_str("];\n");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(out_path);
    std::fs::write(&path, out).unwrap();
    for (k, v) in &bad {
        println!("rejected residues of {k:#05x}: {} e.g. {}", v.len(), v[0]);
    }
    println!("wrote {} entries ({swept} from the modifier sweep)", table.values().filter(|v| v.is_ok()).count());
}

/// Mnemonic bases whose modifier fields are swept compositionally (compare, shift, convert,
/// half-precision families, FMNMX's `.FTZ`/`.NAN`, VOTE's and VOTEU's `.EQ`, MATCH's `.U64`,
/// DEPBAR's `.LE`, CCTL's operations, SHFL's mode with every immediate/register operand shape,
/// the atomics' operation, type and scope, the f32/f64 arithmetic's rounding on every
/// operand shape).
const SWEPT: &[&str] = &[
    "ISETP", "FSETP", "DSETP", "SHF", "F2F", "FRND", "F2FP", "FADD", "HADD2", "HMUL2", "HFMA2", "HSETP2", "HMNMX2",
    "FMNMX", "HSET2", "VOTE", "VOTEU", "MATCH", "DEPBAR", "CCTL", "SHFL", "ATOM", "ATOMG", "REDG", "FFMA", "FMUL",
    "DFMA", "DADD", "DMUL", "LD", "ST", "STG", "LDS", "STS", "LDL", "STL", "F2I", "I2F",
];

/// Swept bases whose swept entries are kept only when every suffix token is listed: the
/// atomics' operation, type and scope (`.STRONG.{SM,GPU,SYS}`), without the cache-policy,
/// `.MMIO`/`.PRIVATE`/`.CONSTANT` and vector combinations nobody selects (thousands of
/// entries otherwise).
const SWEPT_TOKENS: &[(&str, &[&str])] = &[
    ("ATOM", ATOMIC_TOKENS),
    ("ATOMG", ATOMIC_TOKENS),
    ("REDG", ATOMIC_TOKENS),
    ("LD", MEMORY_TOKENS),
    ("ST", MEMORY_TOKENS),
    ("STG", MEMORY_TOKENS),
    ("LDS", MEMORY_TOKENS),
    ("STS", MEMORY_TOKENS),
    ("LDL", MEMORY_TOKENS),
    ("STL", MEMORY_TOKENS),
];
/// The loads' and stores' width, signedness, strength and scope, the read-only path and the
/// PTX eviction hints; not the `LTC*B` prefetch sizes, `.MMIO` or `.PRIVATE` nobody selects.
const MEMORY_TOKENS: &[&str] =
    &["E", "U8", "S8", "U16", "S16", "64", "128", "STRONG", "SM", "GPU", "SYS", "CONSTANT", "EF", "EL", "LU", "NA"];
const ATOMIC_TOKENS: &[&str] = &[
    "E", "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "S32", "64", "S64", "F32", "FTZ", "RN", "F64",
    "F16x2", "BF16x2", "STRONG", "SM", "GPU", "SYS",
];

/// Whether a swept `suffix` of `base` passes [`SWEPT_TOKENS`].
fn swept_suffix_kept(base: &str, suffix: &str) -> bool {
    SWEPT_TOKENS
        .iter()
        .find(|(b, _)| *b == base)
        .is_none_or(|(_, ok)| suffix.split('.').filter(|t| !t.is_empty()).all(|t| ok.contains(&t)))
}

/// Field bits a base's single-bit flips cannot find, because flipping them alone in the sampled
/// corpus word gives a value nvdisasm does not name: VOTE's mode is the 2-bit field [72:74)
/// (`.ALL` 0, `.ANY` 1, `.EQ` 2, 3 invalid) and the corpus sample is `.ANY`, whose bit-73 flip
/// is `INVALID3`. Their values are still swept and kept only when nvdisasm names them.
const EXTRA_FIELD_BITS: &[(&str, &[u32])] = &[("VOTE", &[73])];

/// Field bits left out of a base's sweep: LDG's `LTC64B`/`LTC128B`/`LTC256B` prefetch size
/// ([68:70)), which [`MEMORY_TOKENS`] drops anyway and which would put LDG over
/// [`MAX_FIELD_BITS`] (LDG is not in [`SWEPT`] today: its remaining 13 field bits give
/// thousands of combinations nvdisasm rejects, each costing a rerun of its batch; its corpus
/// residues are learned as before).
/// ATOM's bits 70..=72 and 91 differ only between its keys (the generic compare-and-swap
/// 0x38b and the descriptor form 0x98a), so they are per-key constants, not modifier fields.
const UNSWEPT_FIELD_BITS: &[(&str, &[u32])] = &[("LDG", &[68, 69]), ("ATOM", &[70, 71, 72, 91])];

/// Residues NVIDIA's wild-corpus code shows that print right on the operands it used but whose
/// operand layout the forms do not model (found by `tests/sass_random.rs` on random operands):
/// the -G code's `BAR.SYNC.DEFER_BLOCKING R13, R13` has one register field printed twice; a
/// generic `ST.E.64` with a 32-bit address (`[R8]`) has a 32-bit offset where the form has the
/// 64-bit address's. (`R2UR.OR`'s always-shown predicate is modelled: `Show::IfBitOrNotDefault`.)
const WILD_UNMODELLED: &[(u16, u128)] = &[(0x31d, 1 << 80), (0x385, 0x100b << 72)];

/// Swept modifiers whose operand decorations the slot layouts do not model (found by
/// `tests/sass_random.rs`): `HADD2.F32`'s A operand has no `|x|` at bit 73.
const UNMODELLED_SUFFIXES: &[(&str, &str)] = &[("HADD2", "F32")];

/// Forms left out of the sweep: a plain FP16 immediate slot would print as BF16 under
/// `.BF16_V2`, which that style does not model (`HFMA2.MMA`'s immediates use
/// [`ImmStyle::HalfBy`], which does).
fn unmodelled_sweep(form: &ptxas_rs::sass::form::Form) -> bool {
    form.slots.iter().any(|s| matches!(s.kind, Kind::Imm { style: ImmStyle::F16, .. }))
}

/// Most field bits swept per base (2^n words per key; 15 since the corpus's atomics with scopes
/// and float types gave ATOM 15, which at 14 dropped its swept entries).
const MAX_FIELD_BITS: u32 = 15;

/// `nvdisasm -b SM90` texts of raw words (`None`: rejected); a batch nvdisasm fails on as a
/// whole is retried word by word.
fn disassemble(t: &oracle::Tools, arch: &str, words: &[u128]) -> Vec<Option<String>> {
    if words.is_empty() {
        return Vec::new();
    }
    t.disassemble_raw(arch, words).unwrap_or_else(|_| {
        words.iter().map(|w| t.disassemble_raw(arch, &[*w]).ok().and_then(|v| v.into_iter().next().flatten())).collect()
    })
}

/// The suffix nvdisasm's `text` shows for `word`, when our printer given that suffix prints
/// `text` exactly and nvdisasm names every field (`INVALIDn` or `???` nowhere); `None` otherwise.
fn suffix_for(tables: &ptxas_rs::sass::Tables, word: u128, text: &str) -> Option<(u16, u128, String)> {
    // nvdisasm spells a field value with no meaning `INVALIDn`: not an encoding to keep.
    if text.contains("INVALID") || text.contains("???") {
        return None;
    }
    let mut inst = tables.decode_unchecked(word).ok()?;
    let t = text.trim();
    let t = if t.starts_with('@') { t.split_once(' ').map_or(t, |x| x.1) } else { t };
    let mn = t.split(' ').next().unwrap_or("");
    let after = mn.strip_prefix(inst.form.base)?;
    for alias in [".MOV", ".IADD", ".SHL", ""] {
        let Some(suffix) = after.strip_prefix(alias) else { continue };
        inst.suffix = Box::leak(suffix.to_string().into_boxed_str());
        if tables.print(&inst, 0, None) == text.trim() {
            return Some((inst.form.key, inst.residue, suffix.to_string()));
        }
    }
    None
}

/// The compositional modifier sweep. For each base in [`SWEPT`]: the *field bits* are the
/// residue bits that differ between the corpus's accepted residues of that base, plus every
/// residue bit whose single flip (in a corpus word) nvdisasm decodes to a *different* suffix our
/// printer reproduces (a modifier field the corpus never varies, e.g. `.FTZ`), plus the base's
/// [`EXTRA_FIELD_BITS`]. Every combination of
/// the field bits is then written into a corpus word of each key and decoded with
/// `nvdisasm -b SM90`; a combination is kept only when nvdisasm accepts the word and our
/// printer, given the suffix nvdisasm printed, reproduces nvdisasm's whole text. Corpus
/// entries win over swept ones (they never disagree: the same residue decodes the same way).
/// Returns how many entries the sweep added.
fn sweep_modifiers(
    t: &oracle::Tools,
    tables: &Tables,
    seen: &[Seen],
    table: &mut Learned,
    samples: &mut BTreeMap<(u16, u128), u128>,
) -> usize {
    let arch = tables.name;
    let mut added = 0;
    for &base in SWEPT {
        // One sample corpus word per key of this base, and the accepted residues.
        let mut sample: BTreeMap<u16, u128> = BTreeMap::new();
        for s in seen {
            if let Ok(i) = tables.decode_unchecked(s.word)
                && i.form.base == base
                && !unmodelled_sweep(i.form)
                && matches!(table.get(&(i.form.key, i.residue)), Some(Ok(_)))
            {
                sample.entry(i.form.key).or_insert(s.word);
            }
        }
        let residues: Vec<u128> =
            table.iter().filter(|((k, _), v)| v.is_ok() && sample.contains_key(k)).map(|((_, r), _)| *r).collect();
        let Some(&r0) = residues.first() else {
            println!("sweep {base}: no corpus sample");
            continue;
        };
        let mut fields = residues.iter().fold(0u128, |m, r| m | (r ^ r0));
        for (_, bits) in EXTRA_FIELD_BITS.iter().filter(|(b, _)| *b == base) {
            fields |= bits.iter().fold(0u128, |m, b| m | 1u128 << b);
        }
        // Single-bit flips of each sample word's residue bits.
        for (&key, &word) in &sample {
            let form = tables.form(key).expect("sampled key has a form");
            let mask = form.residue_mask() & !fields;
            let bits: Vec<u32> = (12..105).filter(|b| mask >> b & 1 == 1).collect();
            let words: Vec<u128> = bits.iter().map(|b| word ^ (1u128 << b)).collect();
            let texts = disassemble(t, arch, &words);
            let Some(Some(base_text)) = disassemble(t, arch, &[word]).into_iter().next() else { continue };
            let Some((_, _, base_suffix)) = suffix_for(tables, word, &base_text) else { continue };
            for ((b, w), text) in bits.iter().zip(&words).zip(&texts) {
                if let Some(text) = text
                    && suffix_for(tables, *w, text).is_some_and(|(_, _, s)| s != base_suffix)
                {
                    fields |= 1u128 << b;
                }
            }
        }
        for (_, bits) in UNSWEPT_FIELD_BITS.iter().filter(|(b, _)| *b == base) {
            fields &= !bits.iter().fold(0u128, |m, b| m | 1u128 << b);
        }
        let field_bits: Vec<u32> = (12..105).filter(|b| fields >> b & 1 == 1).collect();
        if field_bits.len() as u32 > MAX_FIELD_BITS {
            println!("sweep {base}: {} field bits {field_bits:?}: over the limit, skipped", field_bits.len());
            continue;
        }
        // Runs of adjacent field bits; each run's values are swept alone first (the others as
        // in the sample word), and only values nvdisasm accepts enter the product (an invalid
        // word costs a whole nvdisasm rerun).
        // Runs are cut to at most 4 bits (fields are narrow; the product re-joins them).
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for &b in &field_bits {
            match runs.last_mut() {
                Some((at, len)) if *at + *len == b && *len < 4 => *len += 1,
                _ => runs.push((b, 1)),
            }
        }
        let set = |w: u128, at: u32, len: u32, v: u128, rmask: u128| {
            let m = ((1u128 << len) - 1) << at & rmask;
            (w & !m) | (v << at & m)
        };
        // Valid values per run, learned on each sampled key's own word and on the first key's
        // (a key's operand kinds can change which values a run takes: F2I's f64 key 0x311).
        let run_values = |key: u16, word: u128| -> Vec<Vec<u128>> {
            let rmask = tables.form(key).expect("sampled key has a form").residue_mask();
            runs.iter()
                .map(|&(at, len)| {
                    let mut cands: Vec<u128> = (0..1u128 << len).map(|v| set(word, at, len, v, rmask)).collect();
                    cands.dedup();
                    let texts = disassemble(t, arch, &cands);
                    cands
                        .iter()
                        .zip(&texts)
                        .filter(|(w, text)| text.as_deref().is_some_and(|x| suffix_for(tables, **w, x).is_some()))
                        .map(|(w, _)| (*w >> at) & ((1u128 << len) - 1))
                        .collect()
                })
                .collect()
        };
        // Also the first key's values (as before), so every key is swept at least as widely.
        let first: Vec<Vec<u128>> = sample.iter().next().map_or(Vec::new(), |(&k, &w)| run_values(k, w));
        let mut words = Vec::new();
        for (i, (&key, &word)) in sample.iter().enumerate() {
            let rmask = tables.form(key).expect("sampled key has a form").residue_mask();
            let mut per_run = if i == 0 { first.clone() } else { run_values(key, word) };
            for (own, f) in per_run.iter_mut().zip(&first) {
                own.extend(f.iter().filter(|v| !own.contains(v)).copied().collect::<Vec<_>>());
            }
            let mut combos = vec![word];
            for (&(at, len), vals) in runs.iter().zip(&per_run) {
                // A run with one valid value is a per-key constant (bit 91 of the
                // uniform-register forms): keep this key's own value.
                let own = [(word >> at) & ((1u128 << len) - 1)];
                let vals: &[u128] = if vals.len() <= 1 { &own } else { vals };
                combos = combos.iter().flat_map(|w| vals.iter().map(move |v| set(*w, at, len, *v, rmask))).collect();
            }
            words.extend(combos);
        }
        words.sort_unstable();
        words.dedup();
        let mut new = 0;
        for chunk in words.chunks(512) {
            let texts = disassemble(t, arch, chunk);
            for (w, text) in chunk.iter().zip(&texts) {
                let Some(text) = text else { continue };
                let Some((key, residue, suffix)) = suffix_for(tables, *w, text) else { continue };
                if !swept_suffix_kept(base, &suffix) {
                    continue;
                }
                if let std::collections::btree_map::Entry::Vacant(e) = table.entry((key, residue)) {
                    e.insert(Ok(suffix));
                    samples.entry((key, residue)).or_insert(*w);
                    new += 1;
                }
            }
        }
        println!("sweep {base}: field bits {field_bits:?}, {} words, {new} new entries", words.len());
        std::io::Write::flush(&mut std::io::stdout()).ok();
        added += new;
    }
    added
}

/// Modifier families the form sweep (issue 22, `interp/tests/form_sweep.rs`) found NVIDIA
/// emitting beyond the corpus: (mnemonic base, a word NVIDIA's ptxas 13.0.88 emitted there,
/// the family's field bits, each found by single-bit flips through nvdisasm on every arch).
/// Every combination of the field values nvdisasm names is decoded with the arch's nvdisasm
/// ([`sweep_families`]); the words are arch-neutral (the same layout on sm_75..sm_120).
const FAMILY_SWEEPS: &[(&str, u128, &[u32])] = &[
    // LDC with an index register: width [73:76) (`.U8` `.S8` `.U16` `.S16`, 32-bit, `.64`),
    // index mode [78:80) (`.IL` `.IS` `.ISL`). `LDC.64 R2, c[0x0][R2+0x160]` (-O0 param loads).
    ("LDC", 0x00321e0000000a000000580002027b82, &[73, 74, 75, 78, 79]),
    // I2F, a 32-bit-or-narrower register source: signed 74, destination type [75:78),
    // rounding [78:80), source size [84:86) (`I2F.BF16 R4, R4`).
    ("I2F", 0x00321e00002024000000000400047306, &[74, 75, 76, 77, 78, 79, 84, 85]),
    // I2F, a 64-bit source (0x312): signed 74, destination type [75:78), rounding [78:80).
    ("I2F", 0x004e260000300c000000000200007312, &[74, 75, 76, 77, 78, 79]),
    // I2F, an immediate source (0x906), as 0x306 (`I2F.U32.RP R0, 0x61c88647`).
    ("I2F", 0x000e30000020900061c8864700007906, &[74, 75, 76, 77, 78, 79, 84, 85]),
    // F2I: signed 72, destination size [75:77), `.NTZ` 77, rounding [78:80), `.FTZ` 80,
    // source type [84:87) (`F2I.S16.NTZ R0, R2`).
    ("F2I", 0x004e2400002029000000000200007305, &[72, 75, 76, 77, 78, 79, 80, 84, 85, 86]),
    // F2F: destination type [75:78), rounding [78:80), `.FTZ` 80, source type [84:87)
    // (`F2F.F64.F16 R2, R2`).
    ("F2F", 0x00321e00001018000000000200027310, &[75, 76, 77, 78, 79, 80, 84, 85, 86]),
    // FRND: type [75:78), rounding [78:80), `.FTZ` 80, [84:87) (`FRND.F16.TRUNC R4, R2`).
    ("FRND", 0x00321e000010c8000000000200047307, &[75, 76, 77, 78, 79, 80, 84, 85, 86]),
    // F2FP: `.RELU` 75, destination `.F16`/`.BF16` 76 with 86/87, `.SATFINITE` 77, `.RZ`-style
    // rounding [79:82) on sm_90 on (`F2FP.RELU.BF16.F32.PACK_AB R2, R4, R2`).
    ("F2FP", 0x003fde00000018ff000000020402723e, &[75, 76, 77, 79, 80, 81, 86, 87]),
    // I2F 0x306 again from an F32 destination (`I2F.U8.RM R0, R2`): sm_75 and the sm_80 family
    // have no `.BF16` destination, so the first word's fields do not combine there.
    ("I2F", 0x004e2600000050000000000200007306, &[74, 75, 76, 77, 78, 79, 84, 85]),
    // F2F 0x304 (f32 source): destination type [75:78), rounding [78:80), `.FTZ` 80, source
    // type [84:87) (`F2F.BF16.F32 R2, R2`).
    ("F2F", 0x00321e00002020000000000200027304, &[75, 76, 77, 78, 79, 80, 84, 85, 86]),
    // FMNMX with an immediate B: `.FTZ` 80, `.NAN` 81, `.XORSIGN` 82
    // (`FMNMX.FTZ.NAN.XORSIGN R4, |R2|, 3.1415927410125732422, !PT`).
    ("FMNMX", 0x003fde000787020040490fdb02047809, &[80, 81, 82]),
    // FMNMX with a register B and HMNMX2 (`.FTZ` 80, `.NAN` 81, `.XORSIGN` 82, `.BF16_V2` 85):
    // the form sweep's `max.xorsign.abs` on sm_86/sm_89
    // (`FMNMX.FTZ.NAN.XORSIGN R2, |R4|, |R2|, !PT`, `HMNMX2.BF16_V2.NAN.XORSIGN R2, |R4|, |R2|, !PT`).
    ("FMNMX", 0x003fde00078702004000000204027209, &[80, 81, 82]),
    ("HMNMX2", 0x003fde0007a602004000000204027240, &[80, 81, 82, 85]),
    // IMAD: signed 73 (`IMAD.U32 R4, R2, R4, RZ`; sm_120 prints `.U32` where the others print
    // the bare alias); IMAD.WIDE with a uniform C (`IMAD.WIDE.U32 R8, R2, R4, UR6`).
    ("IMAD", 0x003fde00078e00ff0000000402047224, &[73]),
    ("IMAD", 0x000fc8000f8e00040000000602087e25, &[73]),
    // VIADD with an immediate: `-` on A 72, type [73:76) (`.S32`, `.16x2`, ...), `.ISAT` 80
    // (`VIADD.S32.ISAT R8, R8, 0x1`).
    ("VIADD", 0x003fde00000104000000000108087836, &[73, 74, 75, 80]),
    // sm_75's register-only STG (0x386): `.E` 72, width [73:76), `.PRIVATE` 76, scope [77:79),
    // strength 79, `.MMIO` 80, eviction [84:87) (`STG.E.U8.SYS [R2], R4`; kept with
    // [`MEMORY_TOKENS`] only).
    ("STG", 0x0033de000010e1000000000402007386, &[72, 73, 74, 75, 77, 78, 79, 84, 85, 86]),
    // FSET (forms in `sm80::sweep_forms`): boolean operation [74:76), comparison [76:80),
    // `.FTZ` 80 (`FSET.BF.GE.AND R9, R2, R5, PT`); its immediate and constant forms.
    ("FSET", 0x004fd00003806000000000050209720a, &[74, 75, 76, 77, 78, 79, 80]),
    ("FSET", 0x004fd00003806000400000000209780a, &[74, 75, 76, 77, 78, 79, 80]),
    ("FSET", 0x004fd0000380600000805c0002097a0a, &[74, 75, 76, 77, 78, 79, 80]),
    // F2FP with an FP32 immediate (0x83e), F2FP's fields
    // (`F2FP.SATFINITE.RELU.F16.F32.PACK_AB R2, R2, 1.5`).
    ("F2FP", 0x003fde00000028ff3fc000000202783e, &[75, 76, 77, 79, 80, 81, 86, 87]),
    // The second wave (the full form sweep's `sass:` rows after the first): fields whose
    // valid values depend on another field, so one more word per valid combination class.
    // F2I 0x311 (a 64-bit side), F2I's fields: an F64 source to narrow destinations
    // (`F2I.S16.F64 R2, R2`) and F16 to 64-bit destinations (`F2I.S64.F16 R2, R2`).
    ("F2I", 0x00321e00003009000000000200027311, &[72, 75, 76, 77, 78, 79, 80, 84, 85, 86]),
    ("F2I", 0x00321e00001019000000000200027311, &[72, 75, 76, 77, 78, 79, 80, 84, 85, 86]),
    // I2F 0x312 to F64 from a 32-bit-or-narrower source, with the source size [84:86)
    // (`I2F.F64.RZ R2, R2`).
    ("I2F", 0x00321e000020dc000000000200027312, &[74, 75, 76, 77, 78, 79, 84, 85]),
    // F2F 0x310 from F64 to narrow types (`F2F.F16.F64.RM R2, R2`), 0x304 from BF16
    // (`F2F.F16.BF16 R2, R2`, `F2F.FTZ.F32.BF16 R2, R2`).
    ("F2F", 0x00321e00003048000000000200027310, &[75, 76, 77, 78, 79, 80, 84, 85, 86]),
    ("F2F", 0x00321e00004008000000000200027304, &[75, 76, 77, 78, 79, 80, 84, 85, 86]),
    ("F2F", 0x00321e00004110000000000200027304, &[75, 76, 77, 78, 79, 80, 84, 85, 86]),
    // FRND on BF16 (`FRND.BF16 R2, R2`).
    ("FRND", 0x00321e00004020000000000200027307, &[75, 76, 77, 78, 79, 80, 84, 85, 86]),
    // PRMT with an immediate B: mode [72:75) (`PRMT.B4E R4, R4, 0x1, R2`).
    ("PRMT", 0x003fde00000002020000000104047816, &[72, 73, 74]),
    // VIMNMX: type [72:74) (`.U32` `.S32` `.U16x2` `.S16x2`), `.RELU` 76, register and
    // immediate B (`VIMNMX.S16x2.RELU R2, R4, R2, PT`, `VIMNMX.RELU R4, R2, 0x1, PT`).
    ("VIMNMX", 0x003fde0003fe13000000000204027248, &[72, 73, 76]),
    ("VIMNMX", 0x003fde0003fe11000000000102047848, &[72, 73, 76]),
    // SGXT with an immediate: `.U32` 73 (sm_100 and sm_120 print the signed form bare;
    // `SGXT R2, R2, 0x18`), `.W` 75.
    ("SGXT", 0x003fde0000000200000000180202781a, &[73, 75]),
    // Descriptor STG/LDG and sm_75's register-only LDG: width [73:76) (`.S8`), strength and
    // scope [77:80) (`STG.E.S8 desc[UR4][R4.64], R3`, `LDG.E.S8.SYS R2, [R2]`).
    ("STG", 0x000fe2000c1013040000000304007986, &[73, 74, 75, 77, 78, 79]),
    ("LDG", 0x002ea2000c1e13000000000402027981, &[73, 74, 75, 77, 78, 79]),
    ("LDG", 0x0000a200001ee3000000000002027381, &[73, 74, 75, 77, 78, 79]),
    // MUFU's operation [74:78) and type [72:74) (`MUFU.EX2.BF16 R7, R2.H1`).
    ("MUFU", 0x000e240000000a001000000200077308, &[72, 73, 74, 75, 76, 77]),
    // LEA with an immediate B: `.HI` 80, `.SX32` 73 (`LEA.HI.SX32 R9, R0, 0x1, 0x10`).
    ("LEA", 0x000fd000078f82ff0000000100097811, &[73, 74, 80]),
    // UIADD3 with an immediate: `.X` 74 (`UIADD3.X UR5, URZ, 0x61c88646, URZ, UP0, !UPT`).
    ("UIADD3", 0x000fd200087fe43f61c886463f057890, &[74]),
    // FLO: `.U32` 73 clear, `.SH` 74 (`FLO.SH R0, R3`; sm_100 and sm_120).
    ("FLO", 0x00005800000e06000000000300007300, &[73, 74]),
    // Forms the second wave added (`sm90::more`, every arch): PRMT 0x416's mode [72:75)
    // (`PRMT.F4E R4, R4, R2, 0x9e3779b9`), VABSDIFF 0x414/0x814's `.U32` (73 clear)
    // (`VABSDIFF.U32 R4, R4, R2, 0x1`, `VABSDIFF R9, R9, 0xffff9e37, R0`), FCHK 0x902
    // (`FCHK P0, R2, 1.5`), MUFU 0xd08's operation [74:78) (`MUFU.RCP R2, UR4`), FADD 0xe21's
    // rounding [78:80) and `.FTZ` 80 (`FADD.FTZ R6, -RZ, -UR4`); sm_120's UFFMA 0x455 and
    // UFADD 0x454 (`UFFMA UR4, UR6, UR5, 1`, `UFADD.FTZ UR4, -URZ, -1.5`).
    ("PRMT", 0x003fde00000001029e3779b904047416, &[72, 73, 74]),
    ("VABSDIFF", 0x003fde00000e00020000000104047414, &[73]),
    ("VABSDIFF", 0x000fd000000e0200ffff9e3709097814, &[73]),
    ("FCHK", 0x004e2600000000003fc0000002007902, &[]),
    ("MUFU", 0x000e2200080010000000000400027d08, &[74, 75, 76, 77]),
    ("FADD", 0x000fc6000801010080000004ff067e21, &[78, 79, 80]),
    ("UFFMA", 0x000fc600080000053f80000006047455, &[76, 77, 78, 79, 80]),
    ("UFADD", 0x000fc80008010100bfc00000ff047454, &[77, 78, 79, 80]),
];

/// Sweeps [`FAMILY_SWEEPS`] with `tables.name`'s nvdisasm into `table` (vacant entries only,
/// kept when nvdisasm names every field and our printer, given its suffix, prints its text).
/// As in [`sweep_modifiers`], each field run's values are first tried alone, then combined.
fn sweep_families(
    t: &oracle::Tools,
    tables: &Tables,
    table: &mut Learned,
    samples: &mut BTreeMap<(u16, u128), u128>,
) -> usize {
    let arch = tables.name;
    let mut added = 0;
    // `FAMILY_SWEEP_BASES=I2F,F2F`: only those bases (the merge is idempotent).
    let only = std::env::var("FAMILY_SWEEP_BASES").ok();
    for &(base, word, bits) in FAMILY_SWEEPS {
        if only.as_deref().is_some_and(|o| !o.split(',').any(|b| b == base)) {
            continue;
        }
        let Ok(i) = tables.decode_unchecked(word) else {
            println!("family sweep {base}: {word:#034x} has no form on {arch}");
            continue;
        };
        let rmask = i.form.residue_mask();
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for &b in bits {
            match runs.last_mut() {
                Some((at, len)) if *at + *len == b && *len < 4 => *len += 1,
                _ => runs.push((b, 1)),
            }
        }
        let set = |w: u128, at: u32, len: u32, v: u128| {
            let m = ((1u128 << len) - 1) << at & rmask;
            (w & !m) | (v << at & m)
        };
        let mut combos = vec![word];
        for &(at, len) in &runs {
            let cands: Vec<u128> = (0..1u128 << len).map(|v| set(word, at, len, v)).collect();
            let texts = disassemble(t, arch, &cands);
            let vals: Vec<u128> = (0..1u128 << len)
                .zip(&cands)
                .zip(&texts)
                .filter(|((_, w), text)| text.as_deref().is_some_and(|x| suffix_for(tables, **w, x).is_some()))
                .map(|((v, _), _)| v)
                .collect();
            let own = [(word >> at) & ((1u128 << len) - 1)];
            let vals: &[u128] = if vals.is_empty() { &own } else { &vals };
            combos = combos.iter().flat_map(|w| vals.iter().map(move |v| set(*w, at, len, *v))).collect();
        }
        combos.sort_unstable();
        combos.dedup();
        let mut new = 0;
        for chunk in combos.chunks(512) {
            let texts = disassemble(t, arch, chunk);
            for (w, text) in chunk.iter().zip(&texts) {
                let Some(text) = text else { continue };
                let Some((key, residue, suffix)) = suffix_for(tables, *w, text) else { continue };
                if tables.form(key).is_none_or(|f| f.base != base) || !swept_suffix_kept(base, &suffix) {
                    continue;
                }
                if let std::collections::btree_map::Entry::Vacant(e) = table.entry((key, residue)) {
                    e.insert(Ok(suffix));
                    samples.entry((key, residue)).or_insert(*w);
                    new += 1;
                }
            }
        }
        println!("family sweep {base} on {arch}: {} words, {new} new entries", combos.len());
        added += new;
    }
    added
}

/// Runs only [`FAMILY_SWEEPS`] on every arch and merges their new entries into the committed
/// generated tables (what `generate_*_tables` would add to them; a full regeneration keeps
/// them, since `generate` runs the same sweep): `cargo test --release --test sass_gen
/// merge_family_sweeps -- --ignored --nocapture`. The sm_80 family's entries printed alike on
/// SM80, SM86 and SM89 go to `MODS`, the others to the arch's `ARCH_MODS` list.
#[test]
#[ignore = "rewrites the generated tables with the family sweeps' entries"]
fn merge_family_sweeps() {
    let Some(t) = oracle::tools_or_skip("merge_family_sweeps") else { return };
    let new_for = |tables: &'static Tables| -> BTreeMap<(u16, u128), String> {
        let mut table: Learned = tables.mods.iter().map(|e| ((e.key, e.residue), Ok(e.suffix.to_string()))).collect();
        let mut samples = BTreeMap::new();
        let before: BTreeSet<(u16, u128)> = table.keys().copied().collect();
        sweep_families(t, tables, &mut table, &mut samples);
        table
            .into_iter()
            .filter(|(k, v)| !before.contains(k) && v.is_ok())
            .map(|(k, v)| (k, v.unwrap()))
            .filter(|(k, s)| {
                !UNMODELLED_SUFFIXES
                    .iter()
                    .any(|(b, x)| tables.form(k.0).is_some_and(|f| f.base == *b) && s.split('.').any(|y| y == *x))
            })
            .collect()
    };
    for (tables, path) in [
        (sm90::tables(), "src/sass/sm90/generated.rs"),
        (sm75::tables(), "src/sass/sm75/generated.rs"),
        (sm100::tables(), "src/sass/sm100/generated.rs"),
        (sm120::tables(), "src/sass/sm120/generated.rs"),
    ] {
        let new = new_for(tables);
        println!("{path}: {} new entries", new.len());
        merge_block(path, "pub static MODS: &[ModEntry] = &[\n", "];\n", "    ", &new);
    }
    let fam: Vec<(&str, BTreeMap<(u16, u128), String>)> =
        ["sm_80", "sm_86", "sm_89"].iter().map(|a| (*a, new_for(sm80::tables_for(a).unwrap()))).collect();
    let keys: BTreeSet<(u16, u128)> = fam.iter().flat_map(|(_, m)| m.keys().copied()).collect();
    let mut shared = BTreeMap::new();
    let mut own: BTreeMap<&str, BTreeMap<(u16, u128), String>> = BTreeMap::new();
    for k in keys {
        let vs: Vec<Option<&String>> = fam.iter().map(|(_, m)| m.get(&k)).collect();
        if vs.iter().all(|v| v.is_some() && *v == vs[0]) {
            shared.insert(k, vs[0].unwrap().clone());
            continue;
        }
        for ((a, _), v) in fam.iter().zip(&vs) {
            if let Some(s) = v {
                own.entry(a).or_default().insert(k, (*s).clone());
            }
        }
    }
    let path = "src/sass/sm80/generated.rs";
    println!("{path}: {} shared new entries", shared.len());
    merge_block(path, "pub static MODS: &[ModEntry] = &[\n", "];\n", "    ", &shared);
    for (a, nv) in [("sm_80", "SM80"), ("sm_86", "SM86"), ("sm_89", "SM89")] {
        let m = own.remove(a).unwrap_or_default();
        println!("{path} {nv}: {} new entries", m.len());
        merge_block(path, &format!("        {nv:?},\n        &[\n"), "        ],\n", "            ", &m);
    }
}

/// Merges `new` into the `ModEntry` lines of `path` between `start` and the next `end`,
/// keeping them sorted by (key, residue).
fn merge_block(path: &str, start: &str, end: &str, indent: &str, new: &BTreeMap<(u16, u128), String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find(start).unwrap_or_else(|| panic!("{start:?} in {}", path.display())) + start.len();
    let stop = at + text[at..].find(end).unwrap();
    let mut entries: BTreeMap<(u16, u128), String> = BTreeMap::new();
    for l in text[at..stop].lines() {
        let l = l.trim();
        let num = |name: &str| {
            let s = l.split(name).nth(1).unwrap().trim_start_matches(": 0x");
            u128::from_str_radix(s.split(',').next().unwrap(), 16).unwrap()
        };
        entries.insert((num("key") as u16, num("residue")), l.to_string());
    }
    for ((key, residue), suffix) in new {
        entries
            .entry((*key, *residue))
            .or_insert(format!("ModEntry {{ key: {key:#05x}, residue: {residue:#x}, suffix: {suffix:?} }},"));
    }
    let body: String = entries.values().map(|l| format!("{indent}{l}\n")).collect();
    std::fs::write(&path, format!("{}{body}{}", &text[..at], &text[stop..])).unwrap();
}

/// The form sweep's cached words (`~/.cache/ptxas-rs/forms/words/<arch>.tsv`, written by
/// `interp/tests/form_sweep.rs`'s full sweep: function, offset, word, nvdisasm's text) checked
/// against the committed tables — decode, print, re-encode — and the failures counted per
/// mnemonic (branch-target words skipped: the listing names labels). For finding the families
/// [`FAMILY_SWEEPS`] still lacks: `cargo test --release --test sass_gen form_sweep_words --
/// --ignored --nocapture` (`FORM_WORDS_ARCH=sm_90` for one arch).
#[test]
#[ignore = "reads the form sweep's cache"]
fn form_sweep_words() {
    let dir = std::path::PathBuf::from(std::env::var("HOME").unwrap()).join(".cache/ptxas-rs/forms/words");
    let only = std::env::var("FORM_WORDS_ARCH").ok();
    for arch in ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120"] {
        if only.as_deref().is_some_and(|o| o != arch) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(dir.join(format!("{arch}.tsv"))) else { continue };
        let tables = ptxas_rs::sass::tables_for(arch).unwrap();
        let mut bad: BTreeMap<String, (usize, String)> = BTreeMap::new();
        for l in text.lines() {
            let f: Vec<&str> = l.split('\t').collect();
            let (off, word, text) = (f[1].parse::<u64>().unwrap(), u128::from_str_radix(f[2], 16).unwrap(), f[3]);
            if text.contains(".L_x") {
                continue;
            }
            let why = match tables.decode(word) {
                Err(e) => format!("decode: {e}"),
                Ok(i) => {
                    let ours = tables.print(&i, off, None);
                    if ours != text.trim_end_matches(" ;").trim() && ours != text {
                        format!("prints `{ours}`")
                    } else {
                        match tables.encode(&i) {
                            Ok(w) if w == word => continue,
                            Ok(w) => format!("re-encodes {w:#034x}"),
                            Err(e) => format!("encode: {e}"),
                        }
                    }
                }
            };
            let t = text.trim_start_matches('@').trim_start_matches('!');
            let t = if text.starts_with('@') { t.split_once(' ').map_or(t, |x| x.1) } else { t };
            let m = t.split(' ').next().unwrap_or("").to_string();
            let e = bad.entry(m).or_insert((0, String::new()));
            e.0 += 1;
            if e.1.is_empty() {
                e.1 = format!("{word:#034x} `{text}`: {why}");
            }
        }
        for (m, (n, ex)) in &bad {
            println!("{arch}\t{n}\t{m}\t{ex}");
        }
    }
}
