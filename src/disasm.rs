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
//! Invariant: an instruction this build cannot decode yet is never guessed: its line says
//! `<not decoded: why>` and the run reports the count and fails (exit 1).

use crate::cubin::Cubin;
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

/// Why an instruction the tables decode still needs cubin context this listing does not read:
/// CALL/RET targets are other functions, which nvdisasm names from the cubin's symbols and
/// relocations; BRX's possible targets (labels, and nvdisasm's `BRANCH_TARGETS` comment) come
/// from `EIATTR_INDIRECT_BRANCH_TARGETS`. Such instructions are left undecoded.
fn needs_context(inst: &sass::Instruction) -> Option<&'static str> {
    match inst.form.base {
        "CALL" | "RET" => Some("call/return targets name other functions (relocations not read yet)"),
        "BRX" => Some("indirect branch targets come from EIATTR_INDIRECT_BRANCH_TARGETS (not read yet)"),
        _ => None,
    }
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
        // Labels: branch targets numbered in order of first reference, then the function's end.
        let mut labels: BTreeMap<i64, String> = BTreeMap::new();
        let mut name_next = |labels: &mut BTreeMap<i64, String>, addr: i64| {
            labels.entry(addr).or_insert_with(|| {
                next_label += 1;
                format!(".L_x_{}", next_label - 1)
            });
        };
        for (i, inst) in decoded.iter().enumerate() {
            let Ok(inst) = inst else { continue };
            if needs_context(inst).is_some() {
                continue;
            }
            // Only printed targets name labels (`WARPSYNC Rm` carries a target field that
            // nvdisasm shows for `.COLLECTIVE` only).
            for (slot, op) in inst.form.slots.iter().zip(&inst.operands) {
                if !slot.shown(op, inst.residue) {
                    continue;
                }
                if let Value::Target(off) = op.value {
                    name_next(&mut labels, 16 * i as i64 + 16 + off);
                }
            }
        }
        name_next(&mut labels, 16 * f.words.len() as i64);
        let label_of = |addr: i64| labels.get(&addr).cloned();
        let _ = writeln!(out.text, "\t.section\t.text.{},\"ax\",@progbits", f.name);
        let _ = writeln!(out.text, "{}:", f.name);
        for (i, (inst, &word)) in decoded.iter().zip(&f.words).enumerate() {
            let addr = 16 * i as u64;
            if let Some(l) = labels.get(&(addr as i64)) {
                let _ = writeln!(out.text, "{l}:");
            }
            let text = match inst {
                Ok(inst) if let Some(why) = needs_context(inst) => {
                    out.undecoded += 1;
                    format!("<not decoded: {why}>")
                }
                Ok(inst) => tables.print(inst, addr, Some(&label_of)),
                Err(e) => {
                    out.undecoded += 1;
                    format!("<not decoded: {e}>")
                }
            };
            out.instructions += 1;
            if hex {
                let _ = writeln!(out.text, "        /*{addr:04x}*/  {text} ;  /* {:#018x} */", word as u64);
                let _ = writeln!(out.text, "                                   /* {:#018x} */", (word >> 64) as u64);
            } else {
                let _ = writeln!(out.text, "        /*{addr:04x}*/  {text} ;");
            }
        }
        if let Some(l) = labels.get(&(16 * f.words.len() as i64)) {
            let _ = writeln!(out.text, "{l}:");
        }
    }
    Ok(out)
}
