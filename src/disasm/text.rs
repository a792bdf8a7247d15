//! The listing's text, laid out as `nvdisasm -c` lays it out (and with `-hex`, `-raw`).
//!
//! Layout (tabs and spaces as nvdisasm writes them):
//! ```text
//! \t.target\tsm_80
//!
//! \t.elftype\t@"ET_EXEC"
//!
//!
//! //--------------------- .text.k                   --------------------------
//! \t.section\t.text.k,"ax",@progbits
//! \t.sectioninfo\t@"SHI_REGISTERS=11"          (when sh_info carries a register count)
//! \t.align\t128
//!         .global         k                     (.weak for STB_WEAK, none for STB_LOCAL)
//!         .type           k,@function
//!         .size           k,(.L_x_12 - k)       (to the symbol or label at value + size)
//!         .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"   (when st_other is not 0)
//! k:
//! .text.k:
//!         /*0050*/               @P0 BRA `(.L_x_1) ;
//! ```
//! The predicate (with its space) is right-aligned in 19 columns after the address; with `-hex`
//! each line is padded to two columns past the listing's longest instruction line (predicate
//! unaligned) and followed by
//! `/* 0x<low 64 bits> */`, the high half on a line of its own in the same column. nvdisasm
//! writes two spaces before the `;` after a `QNAN` or `INF` operand (`MUFU.RSQ R9, -QNAN  ;`). Undefined object symbols are listed after the code in a
//! `SYMBOLS` block. `-raw` prints the predicate unaligned, no words, and every tab expanded to
//! the next multiple of 8 columns.
//!
//! Invariant: the text depends only on the cubin and the options; every line the listing prints
//! for a section comes from [`super::Code`] or the ELF tables, never from a guess.

use super::{Code, Options};
use crate::cubin::{Cubin, ElfType, Symbol};
use std::fmt::Write;

/// Columns after `/*addr*/` that hold the right-aligned predicate.
const PREDICATE_COLUMNS: usize = 19;

/// The whole listing of `codes` (sections in the order given).
pub fn print(cubin: &Cubin, codes: &[Code], options: &Options) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\t.target\t{}", super::arch_of(cubin));
    let _ = writeln!(out);
    let kind = match cubin.header.kind {
        ElfType::Rel => "ET_REL".to_string(),
        ElfType::Exec => "ET_EXEC".to_string(),
        ElfType::Other(n) => format!("{n:#x}"),
    };
    let _ = writeln!(out, "\t.elftype\t@\"{kind}\"");
    let heads: Vec<Vec<String>> = codes
        .iter()
        .map(|c| c.lines.iter().enumerate().map(|(i, l)| head(16 * i as u64, l, options.raw)).collect())
        .collect();
    let column = word_column(codes.iter().flat_map(|c| &c.lines));
    for (code, heads) in codes.iter().zip(&heads) {
        section(&mut out, cubin, code, heads, options, column);
    }
    let undefined: Vec<&Symbol> =
        cubin.symbols.iter().filter(|s| s.shndx == 0 && !s.name.is_empty() && s.kind() == 1).collect();
    if !undefined.is_empty() {
        let _ = write!(out, "\n\n//--------------------- SYMBOLS --------------------------\n");
        let _ = writeln!(out);
        for s in undefined {
            let _ = writeln!(out, "\t.type\t\t{},@object", s.name);
            let _ = writeln!(out, "\t.size\t\t{},{:#x}", s.name, s.size);
        }
    }
    if options.raw { expand_tabs(&out) } else { out }
}

/// `//--------------------- <name padded to 25> --------------------------`, after two blank lines
/// (the `SYMBOLS` banner is not padded).
fn banner(out: &mut String, name: &str) {
    let _ = write!(out, "\n\n//--------------------- {name:<25} --------------------------\n");
}

/// One code section: banner, section directives, symbols, labels and instructions.
fn section(out: &mut String, cubin: &Cubin, code: &Code, heads: &[String], options: &Options, column: usize) {
    let sec = cubin.sections.iter().find(|s| s.index == code.f.section);
    let name = sec.map_or_else(|| format!(".text.{}", code.f.name), |s| s.name.clone());
    banner(out, &name);
    let _ = writeln!(out, "\t.section\t{name},\"ax\",@progbits");
    if let Some(s) = sec {
        if s.info >> 24 != 0 {
            let _ = writeln!(out, "\t.sectioninfo\t@\"SHI_REGISTERS={}\"", s.info >> 24);
        }
        let _ = writeln!(out, "\t.align\t{}", s.align);
    }
    let end = 16 * code.lines.len() as i64;
    let name_at = |addr: i64| code.name_at(addr);
    for (i, (head, &word)) in heads.iter().zip(&code.f.words).enumerate() {
        let addr = 16 * i as i64;
        for s in code.symbols.get(&addr).into_iter().flatten() {
            symbol_head(out, s, &name_at);
        }
        if addr == 0 {
            let _ = writeln!(out, "{name}:");
        }
        if let Some(l) = code.labels.get(&addr) {
            let _ = writeln!(out, "{l}:");
        }
        instruction(out, head, word, options, column);
    }
    if let Some(l) = code.labels.get(&end) {
        let _ = writeln!(out, "{l}:");
    }
}

/// A function symbol's binding, type and size directives as nvdisasm writes them, as
/// (directive, operand) pairs: `.global`/`.weak` (when bound so), `.type`, and `.size` (when
/// not 0, up to the symbol at its end or the end's address). Shared by the listing and the
/// control-flow graphs' labels (`super::cfg`), which lay them out differently.
pub(super) fn symbol_directives(s: &Symbol, name_at: &dyn Fn(i64) -> Option<String>) -> Vec<(&'static str, String)> {
    let n = &s.name;
    let mut v = Vec::new();
    match s.bind() {
        1 => v.push((".global", n.clone())),
        2 => v.push((".weak", n.clone())),
        _ => {}
    }
    v.push((".type", format!("{n},@function")));
    if s.size != 0 {
        let until = name_at((s.value + s.size) as i64).unwrap_or_else(|| format!("{:#x}", s.value + s.size));
        v.push((".size", format!("{n},({until} - {n})")));
    }
    v
}

/// A function symbol's directives and its label.
fn symbol_head(out: &mut String, s: &Symbol, name_at: &dyn Fn(i64) -> Option<String>) {
    let n = &s.name;
    for (directive, operand) in symbol_directives(s, name_at) {
        let _ = writeln!(out, "        {directive:<16}{operand}");
    }
    if s.other != 0 {
        let _ = writeln!(out, "        .other          {n},@\"{}\"", other(s.other));
    }
    let _ = writeln!(out, "{n}:");
}

/// nvdisasm's spelling of st_other: `STO_CUDA_ENTRY STV_DEFAULT`.
fn other(v: u8) -> String {
    let mut parts = Vec::new();
    if v & 0x10 != 0 {
        parts.push("STO_CUDA_ENTRY".to_string());
    }
    if v & !0x13 != 0 {
        parts.push(format!("{:#x}", v & !0x13));
    }
    parts.push(["STV_DEFAULT", "STV_INTERNAL", "STV_HIDDEN", "STV_PROTECTED"][usize::from(v & 3)].to_string());
    parts.join(" ")
}

/// What closes an instruction's text: `;` (tight), `  ;` after `QNAN`/`INF`, else ` ;`.
pub fn close(line: &super::Line) -> &'static str {
    match (line.tight, line.text.ends_with("QNAN") || line.text.ends_with("INF")) {
        (true, _) => ";",
        (false, true) => "  ;",
        (false, false) => " ;",
    }
}

/// An instruction's line without the `-hex` words: address, predicate column, text, `;`.
pub fn head(addr: u64, line: &super::Line, raw: bool) -> String {
    let close = close(line);
    let text = &line.text;
    if raw {
        return format!("        /*{addr:04x}*/{:PREDICATE_COLUMNS$}{text}{close}", "");
    }
    // A predicate of up to four characters (`@!P0`) is right-aligned; a longer one (`@!UP0`)
    // starts the text in its usual column, as nvdisasm prints it.
    let (pred, rest) = match text.split_once(' ') {
        Some((p, rest)) if p.starts_with('@') && p.len() <= 4 => (format!("{p} "), rest),
        _ => (String::new(), text.as_str()),
    };
    format!("        /*{addr:04x}*/{pred:>PREDICATE_COLUMNS$}{rest}{close}")
}

/// The column of the `-hex` words: two past the listing's longest instruction line laid out
/// with the predicate unaligned (the `-raw` layout: `/*addr*/`, 19 spaces, predicate and text).
pub fn word_column<'a>(lines: impl Iterator<Item = &'a super::Line>) -> usize {
    lines.map(|l| head(0, l, true).len()).max().unwrap_or(0) + 2
}

/// One instruction line (two with `-hex`, the words at `column`).
pub fn instruction(out: &mut String, head: &str, word: u128, options: &Options, column: usize) {
    if options.hex && !options.raw {
        let _ = writeln!(out, "{head:<column$}/* {:#018x} */", word as u64);
        let _ = writeln!(out, "{:column$}/* {:#018x} */", "", (word >> 64) as u64);
    } else {
        let _ = writeln!(out, "{head}");
    }
}

/// Every tab replaced by spaces up to the next multiple of 8 columns (as `expand`).
pub fn expand_tabs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut col = 0;
    for c in text.chars() {
        match c {
            '\t' => {
                let n = 8 - col % 8;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            '\n' => {
                out.push(c);
                col = 0;
            }
            _ => {
                out.push(c);
                col += 1;
            }
        }
    }
    out
}
