//! `ptxas-rs disasm [--hex] file.cubin`: a SASS listing of a cubin.
//!
//! Per instruction the text is nvdisasm's (`-c`) and, with `--hex`, the 128-bit word is printed as
//! nvdisasm's `-hex` prints it (low half on the instruction line, high half on the next), so the
//! listing reads like nvdisasm's and parses with the same tools. Functions appear as
//! `.section .text.<name>` blocks in section order; branch targets print as `.L_x_N` labels,
//! numbered across the file in order of first reference within each function, then the
//! function's end label, as nvdisasm numbers them (exactly so when every instruction decodes:
//! an undecoded branch's target would have taken a number).
//!
//! Cubin context, as nvdisasm uses it: a `CALL`/`RET` target prints as the name of the function
//! symbol at that address in the section (`CALL.REL.NOINC \`($k$_Z3fibj)`, `RET.REL.NODEC R20
//! \`(k)`), or, for an absolute target, of the symbol a relocation at the instruction names
//! (`CALL.ABS.NOINC \`(_Z3fibj)` in relocatable code); a `BRX` with an
//! `EIATTR_INDIRECT_BRANCH_TARGETS` entry lists its targets' labels in nvdisasm's comment
//! (`BRX R4 -0xf0 (*"BRANCH_TARGETS .L_x_8,.L_x_9"*)`), numbered after the direct targets: per
//! `BRX`, its own address, then its targets; and
//! every function symbol inside a section opens its code with a `name:` line.
//!
//! Invariant: an instruction this build cannot decode yet is never guessed: its line says
//! `<not decoded: why>` and the run reports the count and fails (exit 1). That includes an
//! instruction carrying a relocation this listing does not render (relocatable code's
//! `32@lo(...)` return addresses).

use crate::cubin::eiattr::code::INDIRECT_BRANCH_TARGETS;
use crate::cubin::{Cubin, Value as Attr};
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
    for f in functions {
        let decoded: Vec<_> = f.words.iter().map(|&w| tables.decode(w)).collect();
        // Function symbols of this section by address (the owner at 0, callees merged after it).
        let symbols: BTreeMap<i64, &str> = cubin
            .symbols
            .iter()
            .filter(|s| u32::from(s.shndx) == f.section && s.info & 0xf == 2 && !s.name.is_empty())
            .map(|s| (s.value as i64, s.name.as_str()))
            .collect();
        // Relocations into this section, by the instruction they patch.
        let mut relocated: BTreeMap<u64, (u32, &str)> = BTreeMap::new();
        for r in cubin.relocations.iter().filter(|r| r.target == f.section) {
            let name = cubin.symbols.get(r.symbol as usize).map_or("", |s| s.name.as_str());
            relocated.entry(r.offset / 16 * 16).or_insert((r.kind, name));
        }
        let brx = indirect_branches(&cubin, f.section);
        // Labels: branch targets numbered in order of first reference, then the function's end.
        let mut labels: BTreeMap<i64, String> = BTreeMap::new();
        // `counted`: the number is used up even when the address has a label already (each
        // listed target of a `BRX` takes one, repeats included: ctrl_switch_sparse).
        let mut name = |labels: &mut BTreeMap<i64, String>, addr: i64, counted: bool| {
            let n = next_label;
            if counted || !labels.contains_key(&addr) {
                next_label += 1;
            }
            labels.entry(addr).or_insert_with(|| format!(".L_x_{n}"));
        };
        for (i, inst) in decoded.iter().enumerate() {
            let Ok(inst) = inst else { continue };
            // A call or return to a function symbol names it, not a label; one to an address
            // inside a function (a local subroutine) takes a label like a branch.
            if names_function(inst)
                && (absolute(inst)
                    || inst.operands.iter().any(|o| {
                        matches!(o.value, Value::Target(off) if symbols.contains_key(&(16 * i as i64 + 16 + off)))
                    }))
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
        // targets in the record's order (nvdisasm's numbering); then the function's end.
        for (&at, targets) in &brx {
            if decoded.get(at as usize / 16).is_some_and(|d| d.as_ref().is_ok_and(|i| i.form.base == "BRX")) {
                name(&mut labels, at as i64, true);
                for &t in targets {
                    name(&mut labels, t as i64, true);
                }
            }
        }
        name(&mut labels, 16 * f.words.len() as i64, false);
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
                Ok(inst) if names_function(inst) && absolute(inst) && reloc.is_some() => {
                    let name = reloc.map_or("", |r| r.1).to_string();
                    (tables.print(inst, addr, Some(&|_| Some(name.clone()))), None)
                }
                Ok(_) if let Some((kind, _)) = reloc => {
                    out.undecoded += 1;
                    let kind = crate::cubin::names::reloc_name(*kind).unwrap_or_else(|| format!("type {kind:#x}"));
                    (format!("<not decoded: relocated operand ({kind}) not rendered yet>"), None)
                }
                Ok(inst) if names_function(inst) => {
                    let name_of = |abs: i64| {
                        if absolute(inst) { None } else { symbols.get(&abs).map(|s| s.to_string()).or(label_of(abs)) }
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
                && let Some(name) = symbols.get(&(addr as i64))
            {
                let _ = writeln!(out.text, "{name}:");
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
