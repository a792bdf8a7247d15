//! `ptxas-rs disasm`: nvdisasm's listing of a cubin's code (`nvdisasm -c`), text for text.
//!
//! The module has four parts: this file decodes each code section and names its labels
//! ([`analyse`]); [`text`] prints the listing as nvdisasm prints it (the `.target`/`.elftype`
//! head, per section its banner, `.section`/`.sectioninfo`/`.align`, each function symbol's
//! `.global`/`.type`/`.size`/`.other` lines, instruction lines with the predicate column, `-hex`
//! words, `-raw` layout, the trailing `SYMBOLS` block); [`cfg`] prints the control-flow graphs
//! as Graphviz DOT (`-cfg` hyperblocks, `-bbcfg` basic blocks); [`cli`] reads nvdisasm's options.
//!
//! Per instruction the text is nvdisasm's. Branch targets print as `.L_x_N` labels, numbered as
//! nvdisasm numbers them: relocated return addresses first (file-wide), then per function the
//! direct targets in order of first reference, then each `BRX`'s own address and listed targets,
//! then (file-wide) the functions' end labels.
//!
//! Cubin context, as nvdisasm uses it: a `CALL`/`RET` target prints as the name of the function
//! symbol at that address in the section (`CALL.REL.NOINC \`($k$_Z3fibj)`, `RET.REL.NODEC R20
//! \`(k)`), or, for an absolute target, of the symbol a relocation at the instruction names
//! (`CALL.ABS.NOINC \`(_Z3fibj)` in relocatable code); a relocated return address prints as
//! nvdisasm's expression (`MOV R20, 32@lo((k + .L_x_4@srel))`); a `BRX` with an
//! `EIATTR_INDIRECT_BRANCH_TARGETS` entry lists its targets' labels in nvdisasm's comment
//! (`BRX R4 -0xf0 (*"BRANCH_TARGETS .L_x_8,.L_x_9"*)`, each target once, the comment two
//! columns past the function's longest instruction text); and every function symbol inside a
//! section opens its code with a `name:` line.
//!
//! Invariant: an instruction this build cannot decode yet is never guessed: its line says
//! `<not decoded: why>` and the run reports the count and fails (exit 1). That includes an
//! instruction carrying a relocation this listing does not render.

pub mod cfg;
pub mod cli;
pub mod text;

use crate::cubin::eiattr::code::INDIRECT_BRANCH_TARGETS;
use crate::cubin::{Cubin, Relocation, Symbol, Value as Attr};
use crate::sass::{self, Value};
use std::collections::BTreeMap;

/// The listing and how many words could not be decoded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// The text.
    pub text: String,
    /// Instructions listed.
    pub instructions: usize,
    /// Instructions not decoded (their lines say why).
    pub undecoded: usize,
}

/// What to print (nvdisasm's options of the same names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// `-hex`: each instruction's 128-bit word, low half on its line, high half on the next.
    pub hex: bool,
    /// `-raw`: no beautifying: tabs expanded, predicates not aligned, no words (as nvdisasm,
    /// which ignores `-hex` under `-raw`).
    pub raw: bool,
    /// `-fun`: only the code sections of these symbols (indices in `.symtab`); `None`: all.
    pub functions: Option<Vec<u32>>,
    /// `-cfg` / `-bbcfg`: the control-flow graph (of hyperblocks / basic blocks) as DOT instead
    /// of the listing.
    pub cfg: Option<cfg::Kind>,
}

/// One line of code: its text (predicate included) and whether nvdisasm closes it with `;`
/// right after the text (a `BRANCH_TARGETS` comment, the padding after the final self-branch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The instruction text, predicate included, without the `;`.
    pub text: String,
    /// Whether the `;` follows the text without a space.
    pub tight: bool,
}

/// One code section, decoded: the function owning it, its lines, labels and symbols.
pub struct Code<'c> {
    /// The function whose symbol is at offset 0 of the section.
    pub f: &'c crate::cubin::Function,
    /// Per instruction: its printed text.
    pub lines: Vec<Line>,
    /// Per instruction: the decoded form (`None` where it did not decode).
    pub decoded: Vec<Option<sass::Instruction>>,
    /// Function symbols of the section by address: aliases (size 0) first, the sized one last.
    pub symbols: BTreeMap<i64, Vec<&'c Symbol>>,
    /// Labels by address (`.L_x_N`).
    pub labels: BTreeMap<i64, String>,
}

impl Code<'_> {
    /// What names an address: a function symbol starting there (the sized one), else a label.
    pub fn name_at(&self, addr: i64) -> Option<String> {
        self.symbols
            .get(&addr)
            .and_then(|v| v.last())
            .map(|s| s.name.clone())
            .or_else(|| self.labels.get(&addr).cloned())
    }
}

/// Parses a cubin and finds its SASS tables.
fn open(cubin_bytes: &[u8]) -> Result<(Cubin, &'static sass::Tables), String> {
    let cubin = Cubin::parse(cubin_bytes).map_err(|e| e.to_string())?;
    let arch = arch_of(&cubin);
    let tables = sass::tables_for(&arch).ok_or_else(|| {
        format!("disassembling {arch} is not supported yet (sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120 are)")
    })?;
    Ok((cubin, tables))
}

/// nvdisasm's `-c` listing of `cubin_bytes` (with `hex`, its `-c -hex` listing).
pub fn listing(cubin_bytes: &[u8], hex: bool) -> Result<Listing, String> {
    render(cubin_bytes, &Options { hex, ..Options::default() })
}

/// The listing of `cubin_bytes` as `options` ask. An `-fun` index that names no
/// symbol is an error, as in nvdisasm (`No symbol with index N`).
pub fn render(cubin_bytes: &[u8], options: &Options) -> Result<Listing, String> {
    let (cubin, tables) = open(cubin_bytes)?;
    let mut undecoded = 0;
    let mut codes = analyse(&cubin, tables, &mut undecoded);
    if let Some(wanted) = &options.functions {
        let mut sections = Vec::new();
        for &i in wanted {
            let s = cubin.symbols.get(i as usize).ok_or_else(|| format!("No symbol with index {i}"))?;
            sections.push(u32::from(s.shndx));
        }
        codes.retain(|c| sections.contains(&c.f.section));
        undecoded = codes.iter().map(|c| c.lines.iter().filter(|l| l.text.starts_with("<not decoded")).count()).sum();
    }
    let instructions = codes.iter().map(|c| c.lines.len()).sum();
    let text = match options.cfg {
        Some(kind) => cfg::dot(&cubin, &codes, kind),
        None => text::print(&cubin, &codes, options),
    };
    Ok(Listing { text, instructions, undecoded })
}

/// The arch name the SASS tables use for a cubin (`sm_80`, `sm_86`, `sm_89`, `sm_90`, `sm_90a`).
fn arch_of(cubin: &Cubin) -> String {
    format!("sm_{}{}", cubin.sm(), if cubin.accelerated() { "a" } else { "" })
}

/// Whether the instruction's targets name functions (`CALL`, `RET`) rather than labels.
fn names_function(inst: &sass::Instruction) -> bool {
    matches!(inst.form.base, "CALL" | "RET")
}

/// Whether the instruction's target is absolute (`.ABS`).
fn absolute(inst: &sass::Instruction) -> bool {
    inst.suffix.split('.').any(|m| m == "ABS")
}

/// A relocated return address (`MOV R20, 32@lo((k + .L_x_4@srel))` in relocatable code): the
/// half (`R_CUDA_ABS32_LO_32` / `_HI_32`), the symbol, and the address in `section` it names.
fn return_address<'c>(cubin: &'c Cubin, section: u32, r: &Relocation) -> Option<(&'static str, &'c str, i64)> {
    let half = match r.kind {
        0x38 => "lo",
        0x39 => "hi",
        _ => return None,
    };
    let sym = cubin.symbols.get(r.symbol as usize).filter(|s| u32::from(s.shndx) == section)?;
    Some((half, sym.name.as_str(), sym.value as i64 + r.addend?))
}

/// The `EIATTR_INDIRECT_BRANCH_TARGETS` entries of the function whose code is section
/// `section`: `BRX` offset → target offsets, in the record's order.
fn indirect_branches(cubin: &Cubin, section: u32) -> BTreeMap<u64, Vec<u64>> {
    let mut out = BTreeMap::new();
    for info in cubin.info.iter().filter(|i| i.text_section == Some(section)) {
        for r in info.records.iter().filter(|r| r.code == INDIRECT_BRANCH_TARGETS) {
            if let Attr::IndirectBranches(list) = r.value(info.table) {
                for b in list {
                    out.insert(u64::from(b.offset), b.targets.iter().map(|&t| u64::from(t)).collect());
                }
            }
        }
    }
    out
}

/// Names `addr` `.L_x_<next>` unless it has a label already; `counted`: the number is used up
/// even then (each listed target of a `BRX` takes one, repeats included: ctrl_switch_sparse).
fn name_label(next: &mut usize, labels: &mut BTreeMap<i64, String>, addr: i64, counted: bool) {
    let n = *next;
    if counted || !labels.contains_key(&addr) {
        *next += 1;
    }
    labels.entry(addr).or_insert_with(|| format!(".L_x_{n}"));
}

/// What the listing of one function needs: its words decoded and its cubin context.
struct FunctionContext<'c> {
    f: &'c crate::cubin::Function,
    decoded: Vec<Result<sass::Instruction, sass::DecodeError>>,
    /// Function symbols of its section by address: aliases (size 0) first, the sized symbol
    /// last. nvdisasm prints a label for each and names calls and returns by the sized one.
    symbols: BTreeMap<i64, Vec<&'c Symbol>>,
    /// Relocations into its section, by the instruction they patch.
    relocated: BTreeMap<u64, &'c Relocation>,
    /// `BRX` offset → its listed targets.
    brx: BTreeMap<u64, Vec<u64>>,
    labels: BTreeMap<i64, String>,
}

/// Decodes every code section of `cubin` and names its labels (nvdisasm's numbering, file-wide);
/// the count of undecodable instructions is added to `undecoded`.
fn analyse<'c>(cubin: &'c Cubin, tables: &sass::Tables, undecoded: &mut usize) -> Vec<Code<'c>> {
    let mut functions: Vec<_> = cubin.functions.iter().filter(|f| f.offset == 0).collect();
    functions.sort_by_key(|f| f.section);
    let mut next_label = 0usize;
    // Relocated return addresses take the first label numbers, file-wide in code order
    // (nvdisasm's numbering of relocatable code), before any function's branch targets.
    let mut preset: BTreeMap<u32, BTreeMap<i64, String>> = BTreeMap::new();
    for f in &functions {
        let mut rs: Vec<&Relocation> = cubin.relocations.iter().filter(|r| r.target == f.section).collect();
        rs.sort_by_key(|r| r.offset);
        for r in rs {
            if let Some((_, _, at)) = return_address(cubin, f.section, r) {
                preset.entry(f.section).or_default().entry(at).or_insert_with(|| {
                    next_label += 1;
                    format!(".L_x_{}", next_label - 1)
                });
            }
        }
    }
    let mut contexts = Vec::with_capacity(functions.len());
    for f in functions {
        let decoded: Vec<_> = f.words.iter().map(|&w| tables.decode(w)).collect();
        // Function symbols of this section by address (the owner at 0, callees merged after it).
        let mut symbols: BTreeMap<i64, Vec<&Symbol>> = BTreeMap::new();
        let mut in_section: Vec<_> = cubin
            .symbols
            .iter()
            .filter(|s| u32::from(s.shndx) == f.section && s.info & 0xf == 2 && !s.name.is_empty())
            .collect();
        // Stable: symbol-table order among aliases, then the sized symbol.
        in_section.sort_by_key(|s| s.size != 0);
        for s in in_section {
            symbols.entry(s.value as i64).or_default().push(s);
        }
        // Relocations into this section, by the instruction they patch.
        let mut relocated: BTreeMap<u64, &Relocation> = BTreeMap::new();
        for r in cubin.relocations.iter().filter(|r| r.target == f.section) {
            relocated.entry(r.offset / 16 * 16).or_insert(r);
        }
        let brx = indirect_branches(cubin, f.section);
        // Labels: branch targets numbered in order of first reference, then the function's end.
        let mut labels: BTreeMap<i64, String> = preset.remove(&f.section).unwrap_or_default();
        let mut name = |labels: &mut BTreeMap<i64, String>, addr: i64, counted: bool| {
            name_label(&mut next_label, labels, addr, counted)
        };
        for (i, inst) in decoded.iter().enumerate() {
            let Ok(inst) = inst else { continue };
            // A call or return to a function symbol names it, not a label; one to an address
            // inside a function (a local subroutine) takes a label like a branch.
            if names_function(inst)
                && (absolute(inst)
                    || inst.operands.iter().any(
                        |o| matches!(o.value, Value::Target(off) if symbols.contains_key(&(16 * i as i64 + 16 + off))),
                    ))
            {
                continue;
            }
            if inst.form.base == "BRX" && brx.contains_key(&(16 * i as u64)) {
                continue;
            }
            // Only printed targets name labels (`WARPSYNC Rm` carries a target field that
            // nvdisasm shows for `.COLLECTIVE` only).
            for (slot, op) in inst.form.slots.iter().zip(&inst.operands) {
                if !slot.shown(op, inst.residue) {
                    continue;
                }
                if let Value::Target(off) = op.value {
                    name(&mut labels, 16 * i as i64 + 16 + off, false);
                }
            }
        }
        // Then each `BRX` with listed targets, in address order: its own address, then its
        // targets in the record's order (nvdisasm's numbering).
        for (&at, targets) in &brx {
            if decoded.get(at as usize / 16).is_some_and(|d| d.as_ref().is_ok_and(|i| i.form.base == "BRX")) {
                name(&mut labels, at as i64, true);
                for &t in targets {
                    name(&mut labels, t as i64, true);
                }
            }
        }
        // Relative `RET`s take numbers too, all but one of them, though they print as the
        // symbol: the end label is (RETs - 1) past the last branch label (call_recursive: 2 RETs,
        // 1 number; param_struct_byval: 1 RET, none; call_noinline: 5 RETs, 4; f64_div_sqrt:
        // 10 RETs, 9). Not the whole rule: call_fnptr (7 RETs, 5) and call_recursive on sm_100
        // (3 RETs, 1) take fewer. End labels are referenced only by `.size` lines.
        let rets = decoded
            .iter()
            .filter_map(|d| d.as_ref().ok())
            .filter(|inst| inst.form.base == "RET" && !absolute(inst))
            .filter(|inst| inst.operands.iter().any(|o| matches!(o.value, Value::Target(_))))
            .count();
        next_label += rets.saturating_sub(1);
        contexts.push(FunctionContext { f, decoded, symbols, relocated, brx, labels });
    }
    // Function ends take the last numbers, file-wide (two_kernels test: nvdisasm numbers
    // both kernels' branch targets, then both ends).
    for c in &mut contexts {
        name_label(&mut next_label, &mut c.labels, 16 * c.f.words.len() as i64, false);
    }
    let mut codes = Vec::with_capacity(contexts.len());
    for FunctionContext { f, decoded, symbols, relocated, brx, labels } in contexts {
        let label_of = |addr: i64| labels.get(&addr).cloned();
        // Each instruction's text, and a `BRX`'s listed targets (each once, in the record's
        // order), which nvdisasm prints as a comment two columns after the function's longest
        // instruction text.
        let mut texts: Vec<(String, Option<Vec<String>>)> = Vec::with_capacity(decoded.len());
        for (i, inst) in decoded.iter().enumerate() {
            let addr = 16 * i as u64;
            let reloc = relocated.get(&addr);
            let text = match inst {
                // A relocated absolute call names the relocation's symbol.
                Ok(inst)
                    if names_function(inst)
                        && absolute(inst)
                        && let Some(r) = reloc =>
                {
                    let name = cubin.symbols.get(r.symbol as usize).map_or("", |s| s.name.as_str()).to_string();
                    (tables.print(inst, addr, Some(&|_| Some(name.clone()))), None)
                }
                // A relocated return address: the immediate (0 in the file) is the expression.
                Ok(inst)
                    if inst.form.base == "MOV"
                        && let Some((half, sym, at)) = reloc.and_then(|r| return_address(cubin, f.section, r))
                        && let Some(label) = label_of(at)
                        && let Some((head, "0x0")) = tables.print(inst, addr, None).rsplit_once(", ") =>
                {
                    (format!("{head}, 32@{half}(({sym} + {label}@srel))"), None)
                }
                Ok(_) if let Some(r) = reloc => {
                    *undecoded += 1;
                    let kind = crate::cubin::names::reloc_name(r.kind).unwrap_or_else(|| format!("type {:#x}", r.kind));
                    (format!("<not decoded: relocated operand ({kind}) not rendered yet>"), None)
                }
                Ok(inst) if names_function(inst) => {
                    let name_of = |abs: i64| {
                        if absolute(inst) {
                            None
                        } else {
                            symbols.get(&abs).and_then(|s| s.last()).map(|s| s.name.clone()).or(label_of(abs))
                        }
                    };
                    (tables.print(inst, addr, Some(&name_of)), None)
                }
                Ok(inst) => {
                    let targets = brx.get(&addr).filter(|_| inst.form.base == "BRX").map(|targets| {
                        let mut names: Vec<String> = Vec::new();
                        for n in targets.iter().filter_map(|&t| label_of(t as i64)) {
                            if !names.contains(&n) {
                                names.push(n);
                            }
                        }
                        names
                    });
                    (tables.print(inst, addr, Some(&label_of)), targets)
                }
                Err(e) => {
                    *undecoded += 1;
                    (format!("<not decoded: {e}>"), None)
                }
            };
            texts.push(text);
        }
        let column = texts.iter().map(|(t, _)| t.len()).max().unwrap_or(0) + 2;
        let lines: Vec<Line> = texts
            .into_iter()
            .map(|(text, targets)| match targets {
                // nvdisasm closes a line that ends in a comment with `;` right after it.
                Some(names) => {
                    Line { text: format!("{text:<column$}(*\"BRANCH_TARGETS {}\"*)", names.join(",")), tight: true }
                }
                None => Line { text, tight: false },
            })
            .collect();
        let mut lines: Vec<Line> = lines;
        let decoded: Vec<_> = decoded.into_iter().map(Result::ok).collect();
        mark_tight(&mut lines, &decoded);
        codes.push(Code { f, lines, decoded, symbols, labels });
    }
    codes
}

/// Marks the lines nvdisasm closes with `;` right after the text: a branch to itself
/// (`BRA \`(.L_x_11);`, the loop that ends a section) and the `NOP`s after the last other
/// instruction (`NOP;`; a `NOP` amid the code is `NOP ;`), in cubins and raw words alike.
fn mark_tight(lines: &mut [Line], decoded: &[Option<sass::Instruction>]) {
    let base = |i: usize| decoded[i].as_ref().map(|d| d.form.base);
    let mut i = lines.len().min(decoded.len());
    while i > 0 && base(i - 1) == Some("NOP") {
        i -= 1;
        lines[i].tight = true;
    }
    for (l, d) in lines.iter_mut().zip(decoded) {
        // `ERRBAR;` is tight wherever it stands (sm_100 cubins).
        let to_self = d.as_ref().is_some_and(|d| {
            (d.form.base == "BRA" && d.operands.iter().any(|o| matches!(o.value, Value::Target(-16))))
                || d.form.base == "ERRBAR"
        });
        l.tight |= to_self;
    }
}

/// nvdisasm's `-b <arch>` listing of raw instruction words (`bytes`: 16 bytes per instruction,
/// little-endian) at logical address `base`: the `.headerflags` line (twice, as nvdisasm prints
/// it; none with `-raw`), then one line per word with branch targets as absolute addresses. `arch` is nvdisasm's
/// spelling (`SM80`, `SM90a`).
pub fn raw_listing(bytes: &[u8], arch: &str, base: u64, options: &Options) -> Result<Listing, String> {
    let ours = arch.strip_prefix("SM").map(|n| format!("sm_{n}")).unwrap_or_default();
    let tables = sass::tables_for(&ours)
        .ok_or_else(|| format!("disassembling {arch} is not supported yet (SM75, SM80, SM86, SM89, SM90, SM90a, SM100, SM100a, SM120, SM120a are)"))?;
    if !bytes.len().is_multiple_of(16) {
        return Err(format!("{} bytes is not a whole number of 16-byte instructions", bytes.len()));
    }
    let (number, accelerated) = match ours.strip_suffix('a') {
        Some(n) => (n.trim_start_matches("sm_").to_string(), true),
        None => (ours.trim_start_matches("sm_").to_string(), false),
    };
    let flags = format!(
        "\t.headerflags\t@\"EF_CUDA_64BIT_ADDRESS {}EF_CUDA_SM{number} EF_CUDA_VIRTUAL_SM(EF_CUDA_SM{number})\"\n",
        if accelerated { "EF_CUDA_ACCELERATORS " } else { "" }
    );
    // nvdisasm prints the flags twice, and not at all under `-raw`.
    let mut out = Listing { text: if options.raw { String::new() } else { flags.repeat(2) }, ..Listing::default() };
    let mut lines = Vec::new();
    let mut decoded = Vec::new();
    for (i, chunk) in bytes.chunks_exact(16).enumerate() {
        let word = u128::from_le_bytes(chunk.try_into().expect("16 bytes"));
        let addr = base + 16 * i as u64;
        let d = tables.decode(word);
        lines.push(match &d {
            Ok(inst) => Line { text: tables.print(inst, addr, None), tight: false },
            Err(e) => {
                out.undecoded += 1;
                Line { text: format!("<not decoded: {e}>"), tight: false }
            }
        });
        decoded.push((word, d.ok()));
    }
    let ds: Vec<_> = decoded.iter().map(|(_, d)| d.clone()).collect();
    mark_tight(&mut lines, &ds);
    let heads: Vec<String> =
        lines.iter().enumerate().map(|(i, l)| text::head(base + 16 * i as u64, l, options.raw)).collect();
    let column = text::word_column(lines.iter());
    for (head, (word, _)) in heads.iter().zip(&decoded) {
        out.instructions += 1;
        text::instruction(&mut out.text, head, *word, options, column);
    }
    Ok(out)
}
