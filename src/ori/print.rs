//! The printer: writes modules, functions and instructions in the text format that
//! [`super::parse`] reads (the grammar is in the [`super`] module doc).
//!
//! Invariants: printing never fails or panics, even on an ill-formed function (unknown
//! vregs print as `%v<n>`, unknown opcodes cannot exist); the output of a verified function
//! parses back to an equal function, and printing is idempotent through parse.

use std::fmt::{self, Write};

use super::function::{FuncKind, Function, InstData, Module};
use super::opcode::Stage;
use super::operand::{CBank, MemRef, Operand, RegUse};
use super::reg::Reg;

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for v in &self.vars {
            write!(f, "var {} ${} {} {}", v.space.name(), v.name, v.size, v.align)?;
            if !v.init.is_empty() {
                f.write_str(" 0x")?;
                for b in &v.init {
                    write!(f, "{b:02x}")?;
                }
            }
            for r in &v.relocs {
                let sign = if r.addend < 0 { '-' } else { '+' };
                write!(f, " reloc {} {} ${} {sign} {}", r.offset, r.size, r.sym, r.addend.unsigned_abs())?;
            }
            f.write_str("\n")?;
        }
        if !self.vars.is_empty() && !self.functions.is_empty() {
            f.write_str("\n")?;
        }
        for (i, func) in self.functions.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{func}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kw = match self.kind {
            FuncKind::Entry => "entry",
            FuncKind::Func => "func",
        };
        write!(f, "{kw} @{}(", self.name)?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&reg_to_string(self, *p))?;
        }
        f.write_str(")")?;
        if !self.rets.is_empty() {
            f.write_str(" -> (")?;
            for (i, r) in self.rets.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{r}")?;
            }
            f.write_str(")")?;
        }
        for (on, name) in [(self.ssa, "ssa"), (self.sass, "sass"), (self.allocated, "allocated")] {
            if on {
                write!(f, " {name}")?;
            }
        }
        f.write_str(" {\n")?;
        for &b in &self.layout {
            writeln!(f, "{b}:")?;
            for &i in self.block_insts(b) {
                match self.insts.get(i) {
                    Some(d) => writeln!(f, "    {}", inst_to_string(self, d))?,
                    None => writeln!(f, "    ; dangling {i}")?,
                }
            }
        }
        f.write_str("}\n")
    }
}

/// The text of a register in the context of `func` (`%r3`, `%rd7`, `R4:R5`, `PT`).
pub fn reg_to_string(func: &Function, r: Reg) -> String {
    match r {
        Reg::Virt(v) => match func.vregs.get(v) {
            Some(d) => format!("%{}{}", d.class.vreg_prefix(), v.as_u32()),
            None => format!("%v{}", v.as_u32()),
        },
        Reg::Phys(p) => p.to_string(),
    }
}

fn reg_use_to_string(func: &Function, u: &RegUse) -> String {
    let mut s = String::new();
    if u.not {
        let pred = func.reg_class(u.reg).is_some_and(|c| c.file.is_pred());
        s.push(if pred { '!' } else { '~' });
    }
    if u.neg {
        s.push('-');
    }
    if u.abs {
        s.push('|');
    }
    s.push_str(&reg_to_string(func, u.reg));
    if u.abs {
        s.push('|');
    }
    s
}

fn offset_to_string(s: &mut String, off: i64, first: bool) {
    if off < 0 {
        let _ = write!(s, "-{:#x}", off.unsigned_abs());
    } else if first {
        let _ = write!(s, "{off:#x}");
    } else {
        let _ = write!(s, "+{off:#x}");
    }
}

fn cbank_to_string(func: &Function, c: &CBank) -> String {
    let mut s = format!("c[{:#x}][", c.bank);
    match c.index {
        Some(r) => {
            s.push_str(&reg_to_string(func, r));
            if c.offset != 0 {
                offset_to_string(&mut s, i64::from(c.offset), false);
            }
        }
        None => offset_to_string(&mut s, i64::from(c.offset), true),
    }
    s.push(']');
    s
}

fn mem_to_string(func: &Function, m: &MemRef) -> String {
    let mut s = format!("{}[", m.space.name());
    let mut first = true;
    if let Some(sym) = &m.sym {
        s.push('$');
        s.push_str(sym);
        first = false;
    }
    if let Some(r) = m.base {
        if !first {
            s.push('+');
        }
        s.push_str(&reg_to_string(func, r));
        first = false;
    }
    if first || m.offset != 0 {
        offset_to_string(&mut s, m.offset, first);
    }
    s.push(']');
    s
}

/// The text of an operand in the context of `func`.
pub fn operand_to_string(func: &Function, o: &Operand) -> String {
    match o {
        Operand::Reg(u) => reg_use_to_string(func, u),
        Operand::Imm(i) => i.to_string(),
        Operand::CBank(c) => cbank_to_string(func, c),
        Operand::Mem(m) => mem_to_string(func, m),
        Operand::SReg(r) => r.name().to_string(),
        Operand::Block(b) => b.to_string(),
        Operand::Func(n) => format!("@{n}"),
    }
}

/// The text of one instruction in the context of `func` (no indentation, no newline).
pub fn inst_to_string(func: &Function, d: &InstData) -> String {
    let mut s = String::new();
    if let Some(g) = d.guard {
        s.push('@');
        if g.not {
            s.push('!');
        }
        s.push_str(&reg_to_string(func, g.reg));
        s.push(' ');
    }
    if !d.dsts.is_empty() {
        let dsts: Vec<String> = d.dsts.iter().map(|r| reg_to_string(func, *r)).collect();
        s.push_str(&dsts.join(", "));
        s.push_str(" = ");
    }
    s.push_str(d.opcode.mnemonic());
    let upper = d.opcode.info().stage == Stage::Sass;
    for t in d.mods.tokens() {
        s.push('.');
        if upper {
            s.push_str(&t.to_ascii_uppercase());
        } else {
            s.push_str(t);
        }
    }
    for (i, o) in d.srcs.iter().enumerate() {
        s.push_str(if i == 0 { " " } else { ", " });
        s.push_str(&operand_to_string(func, o));
    }
    s
}
