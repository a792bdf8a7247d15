//! `ptxas-rs disasm [--hex] file.cubin`: a SASS listing of a cubin.
//!
//! Per instruction the text is nvdisasm's (`-c`) and, with `--hex`, the 128-bit word is printed as
//! nvdisasm's `-hex` prints it (low half on the instruction line, high half on the next), so the
//! listing reads like nvdisasm's and parses with the same tools. Functions appear as
//! `.section .text.<name>` blocks in section order; branch targets print as `.L_x_N` labels,
//! numbered as nvdisasm numbers them: relocated return addresses first (file-wide), then per
//! function the direct targets in order of first reference, then each `BRX`'s own address and
//! listed targets, then (file-wide) the functions' end labels.
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

use crate::cubin::eiattr::code::INDIRECT_BRANCH_TARGETS;
use crate::cubin::{Cubin, Relocation, Value as Attr};
use crate::sass::{self, Value};
use std::collections::BTreeMap;
use std::fmt::Write;

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
    symbols: BTreeMap<i64, Vec<&'c str>>,
    /// Relocations into its section, by the instruction they patch.
    relocated: BTreeMap<u64, &'c Relocation>,
    /// `BRX` offset → its listed targets.
    brx: BTreeMap<u64, Vec<u64>>,
    labels: BTreeMap<i64, String>,
}

/// Lists every function of `cubin_bytes`.
pub fn listing(cubin_bytes: &[u8], hex: bool) -> Result<Listing, String> {
    let cubin = Cubin::parse(cubin_bytes).map_err(|e| e.to_string())?;
    let arch = arch_of(&cubin);
    let tables = sass::tables_for(&arch)
        .ok_or_else(|| format!("disassembling {arch} is not supported yet (sm_80, sm_86, sm_89, sm_90, sm_90a are)"))?;
    let mut functions: Vec<_> = cubin.functions.iter().filter(|f| f.offset == 0).collect();
    functions.sort_by_key(|f| f.section);
    let mut out = Listing::default();
    let mut next_label = 0usize;
    // Relocated return addresses take the first label numbers, file-wide in code order
    // (nvdisasm's numbering of relocatable code), before any function's branch targets.
    let mut preset: BTreeMap<u32, BTreeMap<i64, String>> = BTreeMap::new();
    for f in &functions {
        let mut rs: Vec<&Relocation> = cubin.relocations.iter().filter(|r| r.target == f.section).collect();
        rs.sort_by_key(|r| r.offset);
        for r in rs {
            if let Some((_, _, at)) = return_address(&cubin, f.section, r) {
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
        let mut symbols: BTreeMap<i64, Vec<&str>> = BTreeMap::new();
        let mut in_section: Vec<_> = cubin
            .symbols
            .iter()
            .filter(|s| u32::from(s.shndx) == f.section && s.info & 0xf == 2 && !s.name.is_empty())
            .collect();
        // Stable: symbol-table order among aliases, then the sized symbol.
        in_section.sort_by_key(|s| s.size != 0);
        for s in in_section {
            symbols.entry(s.value as i64).or_default().push(s.name.as_str());
        }
        // Relocations into this section, by the instruction they patch.
        let mut relocated: BTreeMap<u64, &Relocation> = BTreeMap::new();
        for r in cubin.relocations.iter().filter(|r| r.target == f.section) {
            relocated.entry(r.offset / 16 * 16).or_insert(r);
        }
        let brx = indirect_branches(&cubin, f.section);
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
        // A relative `RET`'s target (the function's own start) takes a number too, once per
        // address, though it prints as the symbol (call_recursive, ctrl_switch_dense: the end
        // label is one past the BRX labels; CALL targets take none). Not the whole rule:
        // callproto_indirect's end label (four callees, each returning) is two numbers past
        // ours. End labels are never referenced, so no instruction's text depends on it.
        let mut taken = std::collections::BTreeSet::new();
        for (i, inst) in decoded.iter().enumerate() {
            let Ok(inst) = inst else { continue };
            if inst.form.base != "RET" || absolute(inst) {
                continue;
            }
            for op in &inst.operands {
                if let Value::Target(off) = op.value {
                    let at = 16 * i as i64 + 16 + off;
                    if !labels.contains_key(&at) && taken.insert(at) {
                        next_label += 1;
                    }
                }
            }
        }
        contexts.push(FunctionContext { f, decoded, symbols, relocated, brx, labels });
    }
    // Function ends take the last numbers, file-wide (two_kernels test: nvdisasm numbers
    // both kernels' branch targets, then both ends).
    for c in &mut contexts {
        name_label(&mut next_label, &mut c.labels, 16 * c.f.words.len() as i64, false);
    }
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
                        && let Some((half, sym, at)) = reloc.and_then(|r| return_address(&cubin, f.section, r))
                        && let Some(label) = label_of(at)
                        && let Some((head, "0x0")) = tables.print(inst, addr, None).rsplit_once(", ") =>
                {
                    (format!("{head}, 32@{half}(({sym} + {label}@srel))"), None)
                }
                Ok(_) if let Some(r) = reloc => {
                    out.undecoded += 1;
                    let kind = crate::cubin::names::reloc_name(r.kind).unwrap_or_else(|| format!("type {:#x}", r.kind));
                    (format!("<not decoded: relocated operand ({kind}) not rendered yet>"), None)
                }
                Ok(inst) if names_function(inst) => {
                    let name_of = |abs: i64| {
                        if absolute(inst) {
                            None
                        } else {
                            symbols.get(&abs).and_then(|s| s.last()).map(|s| s.to_string()).or(label_of(abs))
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
                    out.undecoded += 1;
                    (format!("<not decoded: {e}>"), None)
                }
            };
            texts.push(text);
        }
        let column = texts.iter().map(|(t, _)| t.len()).max().unwrap_or(0) + 2;
        let _ = writeln!(out.text, "\t.section\t.text.{},\"ax\",@progbits", f.name);
        let _ = writeln!(out.text, "{}:", f.name);
        for (i, ((text, targets), &word)) in texts.into_iter().zip(&f.words).enumerate() {
            let addr = 16 * i as u64;
            if addr != 0
                && let Some(names) = symbols.get(&(addr as i64))
            {
                for name in names {
                    let _ = writeln!(out.text, "{name}:");
                }
            }
            if let Some(l) = labels.get(&(addr as i64)) {
                let _ = writeln!(out.text, "{l}:");
            }
            out.instructions += 1;
            // nvdisasm closes a line that ends in a comment with `;` right after it.
            let text = match targets {
                Some(names) => format!("{text:<column$}(*\"BRANCH_TARGETS {}\"*)", names.join(",")),
                None => text + " ",
            };
            if hex {
                let _ = writeln!(out.text, "        /*{addr:04x}*/  {text};  /* {:#018x} */", word as u64);
                let _ = writeln!(out.text, "                                   /* {:#018x} */", (word >> 64) as u64);
            } else {
                let _ = writeln!(out.text, "        /*{addr:04x}*/  {text};");
            }
        }
        if let Some(l) = labels.get(&(16 * f.words.len() as i64)) {
            let _ = writeln!(out.text, "{l}:");
        }
    }
    Ok(out)
}
