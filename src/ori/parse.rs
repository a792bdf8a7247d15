//! The reader: parses the text format (grammar in the [`super`] module doc) into a
//! [`Module`].
//!
//! Invariants:
//! - Never panics, whatever the input; every error carries a 1-based line and column.
//! - Entity numbers are preserved: `bb3` is `Block(3)`, `%rd7` is `VReg(7)`; instructions are
//!   numbered in text order. Gaps in the numbering become unused entities (blocks outside the
//!   layout, vregs never mentioned, which default to class `r32`).
//! - A vreg's class is written in its name's prefix at every occurrence; two different
//!   prefixes for one number are an error. Vreg and block numbers are capped at
//!   [`MAX_ENTITY`] so that a hostile input cannot exhaust memory.
//! - The reader checks syntax, modifier names against the opcode, and name consistency;
//!   everything else (operand counts and kinds, classes, CFG, SSA) is the verifier's job.

use std::fmt;

use super::entity::{Block, EntityRef, EntityVec, VReg};
use super::function::{BlockData, FuncKind, Function, Guard, InstData, Module, ModuleVar, VarReloc};
use super::mods::Mods;
use super::opcode::Opcode;
use super::operand::{CBank, Imm, MemRef, Operand, RegUse, Space, SpecialReg};
use super::reg::{PhysReg, Reg, RegClass, RegFile, VRegData};

/// Largest accepted block or vreg number.
pub const MAX_ENTITY: u32 = 1 << 20;

/// A located syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, col {}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a module.
pub fn parse_module(text: &str) -> Result<Module, ParseError> {
    let lines: Vec<Vec<Tok>> = text.lines().enumerate().map(|(i, l)| lex_line(l, i + 1)).collect::<Result<_, _>>()?;
    let mut p = Parser { lines, line: 0 };
    let mut module = Module::default();
    while p.line < p.lines.len() {
        if p.lines[p.line].is_empty() {
            p.line += 1;
            continue;
        }
        if matches!(p.lines[p.line].first(), Some(Tok { t: T::Word(w), .. }) if w == "var") {
            let v = p.var()?;
            if module.var(&v.name).is_some() {
                return Err(ParseError {
                    line: p.line,
                    col: 1,
                    message: format!("variable ${} defined twice", v.name),
                });
            }
            module.vars.push(v);
            continue;
        }
        let f = p.function()?;
        if module.function(&f.name).is_some() {
            return Err(ParseError { line: p.line, col: 1, message: format!("function @{} defined twice", f.name) });
        }
        module.functions.push(f);
    }
    Ok(module)
}

/// Parses a module that must hold exactly one function.
pub fn parse_function(text: &str) -> Result<Function, ParseError> {
    let mut m = parse_module(text)?;
    match m.functions.len() {
        1 => Ok(m.functions.remove(0)),
        n => Err(ParseError { line: 1, col: 1, message: format!("expected one function, found {n}") }),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum T {
    Word(String),
    Var(String),
    Sym(String),
    Num(String),
    P(char),
    Arrow,
}

#[derive(Clone, Debug)]
struct Tok {
    t: T,
    col: usize,
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}
fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'
}

fn lex_line(l: &str, line: usize) -> Result<Vec<Tok>, ParseError> {
    let chars: Vec<char> = l.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        let take = |i: &mut usize, pred: fn(char) -> bool| {
            let s = *i;
            while *i < chars.len() && pred(chars[*i]) {
                *i += 1;
            }
            chars[s..*i].iter().collect::<String>()
        };
        let t = if c.is_whitespace() {
            i += 1;
            continue;
        } else if c == ';' || (c == '/' && chars.get(i + 1) == Some(&'/')) {
            break;
        } else if c == '-' && chars.get(i + 1) == Some(&'>') {
            i += 2;
            T::Arrow
        } else if is_word_start(c) {
            T::Word(take(&mut i, is_word_char))
        } else if c.is_ascii_digit() {
            T::Num(take(&mut i, |c| c.is_ascii_alphanumeric() || c == '_'))
        } else if c == '%' || c == '$' {
            i += 1;
            let w = take(&mut i, is_word_char);
            if w.is_empty() {
                return Err(ParseError { line, col, message: format!("expected a name after `{c}`") });
            }
            if c == '%' { T::Var(w) } else { T::Sym(w) }
        } else if "(){}[],:=+-|!~@".contains(c) {
            i += 1;
            T::P(c)
        } else {
            return Err(ParseError { line, col, message: format!("unexpected character `{c}`") });
        };
        out.push(Tok { t, col });
    }
    Ok(out)
}

struct Parser {
    lines: Vec<Vec<Tok>>,
    line: usize,
}

/// A cursor over one line's tokens.
struct Cur<'a> {
    toks: &'a [Tok],
    pos: usize,
    line: usize,
}

impl<'a> Cur<'a> {
    fn peek(&self) -> Option<&'a T> {
        self.toks.get(self.pos).map(|t| &t.t)
    }
    fn peek2(&self) -> Option<&'a T> {
        self.toks.get(self.pos + 1).map(|t| &t.t)
    }
    fn next(&mut self) -> Option<&'a T> {
        let t = self.toks.get(self.pos).map(|t| &t.t);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }
    fn err<X>(&self, msg: impl Into<String>) -> Result<X, ParseError> {
        let col = self.toks.get(self.pos).map_or_else(|| self.toks.last().map_or(1, |t| t.col + 1), |t| t.col);
        Err(ParseError { line: self.line, col, message: msg.into() })
    }
    fn err_prev<X>(&self, msg: impl Into<String>) -> Result<X, ParseError> {
        let col = self.toks.get(self.pos.saturating_sub(1)).map_or(1, |t| t.col);
        Err(ParseError { line: self.line, col, message: msg.into() })
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&T::P(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat(c) { Ok(()) } else { self.err(format!("expected `{c}`")) }
    }
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
}

fn describe(t: Option<&T>) -> String {
    match t {
        None => "end of line".into(),
        Some(T::Word(w)) => format!("`{w}`"),
        Some(T::Var(w)) => format!("`%{w}`"),
        Some(T::Sym(w)) => format!("`${w}`"),
        Some(T::Num(w)) => format!("`{w}`"),
        Some(T::P(c)) => format!("`{c}`"),
        Some(T::Arrow) => "`->`".into(),
    }
}

/// Per-function naming state.
struct Names {
    vregs: Vec<Option<RegClass>>,
    blocks: usize,
}

impl Names {
    fn vreg(&mut self, cur: &Cur<'_>, name: &str) -> Result<VReg, ParseError> {
        let Some((class, digits)) = RegClass::split_vreg_name(name) else {
            return cur.err_prev(format!("unknown virtual register class prefix in `%{name}`"));
        };
        let n = parse_index(digits).filter(|&n| n <= MAX_ENTITY);
        let Some(n) = n else {
            return cur.err_prev(format!("bad virtual register number in `%{name}`"));
        };
        let n = n as usize;
        if self.vregs.len() <= n {
            self.vregs.resize(n + 1, None);
        }
        match self.vregs[n] {
            Some(c) if c != class => cur.err_prev(format!(
                "`%{name}` names v{n} as {class}, but it was used as {c} (`%{}{n}`)",
                c.vreg_prefix()
            )),
            _ => {
                self.vregs[n] = Some(class);
                Ok(VReg::new(n))
            }
        }
    }
    fn block(&mut self, cur: &Cur<'_>, w: &str) -> Result<Block, ParseError> {
        match w.strip_prefix("bb").and_then(parse_index).filter(|&n| n <= MAX_ENTITY) {
            Some(n) => {
                self.blocks = self.blocks.max(n as usize + 1);
                Ok(Block::new(n as usize))
            }
            None => cur.err_prev(format!("bad block name `{w}`")),
        }
    }
}

fn parse_index(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0')) {
        return None;
    }
    s.parse().ok()
}

fn is_block_name(w: &str) -> bool {
    w.strip_prefix("bb").is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn parse_phys(w: &str) -> Option<PhysReg> {
    for f in RegFile::ALL {
        if f.zero_name() == Some(w) {
            return PhysReg::zero(f);
        }
    }
    // Longest prefixes first.
    for f in [RegFile::UR, RegFile::UP, RegFile::UB, RegFile::R, RegFile::P, RegFile::B] {
        if let Some(d) = w.strip_prefix(f.phys_prefix())
            && let Some(n) = parse_index(d)
        {
            return u16::try_from(n).ok().filter(|&n| n < 1024).map(|n| PhysReg::new(f, n));
        }
    }
    None
}

fn parse_int(s: &str, neg: bool) -> Option<i64> {
    let v: i128 = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if h.is_empty() || h.len() > 16 {
            return None;
        }
        i128::from(u64::from_str_radix(h, 16).ok()?)
    } else {
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse::<i128>().ok()?
    };
    let v = if neg { -v } else { v };
    // Accept the i64 range and unsigned 64-bit patterns (as their two's complement).
    if v >= i128::from(i64::MIN) && v <= i128::from(u64::MAX) { Some(v as u64 as i64) } else { None }
}

fn parse_imm(s: &str, neg: bool) -> Option<Imm> {
    if let Some(h) = s.strip_prefix("0f") {
        return (!neg && h.len() == 8).then(|| u32::from_str_radix(h, 16).ok()).flatten().map(Imm::F32);
    }
    if let Some(h) = s.strip_prefix("0d") {
        return (!neg && h.len() == 16).then(|| u64::from_str_radix(h, 16).ok()).flatten().map(Imm::F64);
    }
    parse_int(s, neg).map(Imm::Int)
}

impl Parser {
    fn cur(&self) -> Cur<'_> {
        Cur { toks: &self.lines[self.line], pos: 0, line: self.line + 1 }
    }

    /// `var SPACE $name SIZE ALIGN [0xHEXBYTES]`.
    fn var(&mut self) -> Result<ModuleVar, ParseError> {
        let mut c = self.cur();
        c.next();
        let space = match c.next() {
            Some(T::Word(w)) => match Space::from_name(w) {
                Some(s @ (Space::Global | Space::Const | Space::Shared)) => s,
                _ => return c.err_prev(format!("`{w}` is not a variable space (global, const, shared)")),
            },
            t => return c.err_prev(format!("expected a space, found {}", describe(t))),
        };
        let name = match c.next() {
            Some(T::Sym(w)) => w.clone(),
            t => return c.err_prev(format!("expected `$name`, found {}", describe(t))),
        };
        let num = |c: &mut Cur<'_>, what: &str| -> Result<u64, ParseError> {
            match c.next() {
                Some(T::Num(n)) => match parse_int(n, false) {
                    Some(v) if v >= 0 => Ok(v as u64),
                    _ => c.err_prev(format!("bad {what} `{n}`")),
                },
                t => c.err_prev(format!("expected the {what}, found {}", describe(t))),
            }
        };
        let size = num(&mut c, "size")?;
        let align = num(&mut c, "alignment")?;
        if !align.is_power_of_two() || align > 1 << 16 {
            return c.err_prev(format!("alignment {align} is not a power of two up to 65536"));
        }
        let mut init = Vec::new();
        if let Some(T::Num(h)) = c.peek() {
            c.next();
            let Some(hex) = h.strip_prefix("0x").filter(|x| x.len() % 2 == 0) else {
                return c.err_prev("expected the initial bytes as 0x followed by pairs of hex digits");
            };
            for i in (0..hex.len()).step_by(2) {
                match u8::from_str_radix(&hex[i..i + 2], 16) {
                    Ok(b) => init.push(b),
                    Err(_) => return c.err_prev("bad hex digit in the initial bytes"),
                }
            }
        }
        if init.len() as u64 > size {
            return c.err_prev(format!("{} initial bytes for a {size}-byte variable", init.len()));
        }
        let mut relocs = Vec::new();
        while matches!(c.peek(), Some(T::Word(w)) if w == "reloc") {
            c.next();
            let offset = num(&mut c, "relocation offset")?;
            let width = num(&mut c, "relocation width")?;
            if !matches!(width, 4 | 8) || offset + width > size {
                return c.err_prev(format!("a {width}-byte relocation at {offset} does not fit"));
            }
            let sym = match c.next() {
                Some(T::Sym(w)) => w.clone(),
                t => return c.err_prev(format!("expected `$name`, found {}", describe(t))),
            };
            let neg = if c.eat('-') {
                true
            } else {
                c.expect('+')?;
                false
            };
            let a = num(&mut c, "addend")? as i64;
            relocs.push(VarReloc { offset, size: width as u8, sym, addend: if neg { a.wrapping_neg() } else { a } });
        }
        if !c.at_end() {
            return c.err(format!("expected end of line, found {}", describe(c.peek())));
        }
        self.line += 1;
        Ok(ModuleVar { name, space, size, align: align as u32, init, relocs })
    }

    fn function(&mut self) -> Result<Function, ParseError> {
        let mut names = Names { vregs: Vec::new(), blocks: 0 };
        let mut f = Function::new(String::new(), FuncKind::Func);
        {
            let mut c = self.cur();
            f.kind = match c.next() {
                Some(T::Word(w)) if w == "entry" => FuncKind::Entry,
                Some(T::Word(w)) if w == "func" => FuncKind::Func,
                t => return c.err_prev(format!("expected `entry` or `func`, found {}", describe(t))),
            };
            c.expect('@')?;
            f.name = match c.next() {
                Some(T::Word(w)) => w.clone(),
                t => return c.err_prev(format!("expected a function name, found {}", describe(t))),
            };
            c.expect('(')?;
            if !c.eat(')') {
                loop {
                    let r = reg(&mut c, &mut names)?;
                    f.params.push(r);
                    if c.eat(')') {
                        break;
                    }
                    c.expect(',')?;
                }
            }
            if c.peek() == Some(&T::Arrow) {
                c.next();
                c.expect('(')?;
                if !c.eat(')') {
                    loop {
                        match c.next() {
                            Some(T::Word(w)) => match RegClass::from_name(w) {
                                Some(rc) => f.rets.push(rc),
                                None => return c.err_prev(format!("unknown register class `{w}`")),
                            },
                            t => return c.err_prev(format!("expected a register class, found {}", describe(t))),
                        }
                        if c.eat(')') {
                            break;
                        }
                        c.expect(',')?;
                    }
                }
            }
            loop {
                match c.next() {
                    Some(T::Word(w)) if w == "ssa" && !f.ssa => f.ssa = true,
                    Some(T::Word(w)) if w == "sass" && !f.sass => f.sass = true,
                    Some(T::Word(w)) if w == "allocated" && !f.allocated => f.allocated = true,
                    Some(T::P('{')) => break,
                    t => return c.err_prev(format!("expected a function flag or `{{`, found {}", describe(t))),
                }
            }
            if !c.at_end() {
                return c.err("expected end of line after `{`");
            }
        }
        self.line += 1;
        let mut current: Option<Block> = None;
        let mut placed: Vec<bool> = Vec::new();
        let mut blocks: Vec<(Block, Vec<InstData>)> = Vec::new();
        loop {
            if self.line >= self.lines.len() {
                let line = self.lines.len();
                return Err(ParseError { line, col: 1, message: format!("unterminated function @{}", f.name) });
            }
            let toks = &self.lines[self.line];
            if toks.is_empty() {
                self.line += 1;
                continue;
            }
            let mut c = self.cur();
            if toks.len() == 1 && toks[0].t == T::P('}') {
                self.line += 1;
                break;
            }
            if let [Tok { t: T::Word(w), .. }, Tok { t: T::P(':'), .. }] = &toks[..]
                && is_block_name(w)
            {
                c.next();
                let b = names.block(&c, w)?;
                if placed.len() <= b.index() {
                    placed.resize(b.index() + 1, false);
                }
                if placed[b.index()] {
                    return c.err_prev(format!("block {b} defined twice"));
                }
                placed[b.index()] = true;
                blocks.push((b, Vec::new()));
                current = Some(b);
                self.line += 1;
                continue;
            }
            if current.is_none() {
                return c.err("instruction before the first block label");
            }
            let inst = inst(&mut c, &mut names)?;
            if let Some(last) = blocks.last_mut() {
                last.1.push(inst);
            }
            self.line += 1;
        }
        f.vregs = EntityVec::new();
        for class in &names.vregs {
            f.vregs.push(VRegData { class: class.unwrap_or(RegClass::R32) });
        }
        for _ in 0..names.blocks {
            f.blocks.push(BlockData::default());
        }
        for (b, insts) in blocks {
            f.layout.push(b);
            for d in insts {
                f.push_inst(b, d);
            }
        }
        Ok(f)
    }
}

fn reg(c: &mut Cur<'_>, names: &mut Names) -> Result<Reg, ParseError> {
    match c.next() {
        Some(T::Var(v)) => Ok(Reg::Virt(names.vreg(c, v)?)),
        Some(T::Word(w)) => phys_tuple(c, w).map(Reg::Phys),
        t => c.err_prev(format!("expected a register, found {}", describe(t))),
    }
}

fn phys_tuple(c: &mut Cur<'_>, w: &str) -> Result<PhysReg, ParseError> {
    let Some(mut p) = parse_phys(w) else {
        return c.err_prev(format!("expected a register, found `{w}`"));
    };
    if c.peek() == Some(&T::P(':')) {
        c.next();
        let q = match c.next() {
            Some(T::Word(w2)) => parse_phys(w2),
            _ => None,
        };
        let Some(q) = q.filter(|q| q.file == p.file && !q.is_zero() && !p.is_zero() && q.index > p.index) else {
            return c.err_prev("expected the last register of a tuple of the same file");
        };
        let count = q.index - p.index + 1;
        let valid = u8::try_from(count).is_ok_and(|n| RegClass { file: p.file, count: n }.is_valid());
        if !valid {
            return c.err_prev(format!(
                "a register tuple has 2 or 4 registers (R: or an even count from 6 to 128), not {count}"
            ));
        }
        p.count = count as u8;
    }
    Ok(p)
}

fn inst(c: &mut Cur<'_>, names: &mut Names) -> Result<InstData, ParseError> {
    let mut guard = None;
    if c.eat('@') {
        let not = c.eat('!');
        let r = reg(c, names)?;
        guard = Some(Guard { reg: r, not });
    }
    let mut dsts = Vec::new();
    if c.toks[c.pos..].iter().any(|t| t.t == T::P('=')) {
        loop {
            dsts.push(reg(c, names)?);
            if c.eat('=') {
                break;
            }
            c.expect(',')?;
        }
    }
    let word = match c.next() {
        Some(T::Word(w)) => w,
        t => return c.err_prev(format!("expected a mnemonic, found {}", describe(t))),
    };
    let mut parts = word.split('.');
    let mn = parts.next().unwrap_or("");
    let Some(opcode) = Opcode::from_mnemonic(mn) else {
        return c.err_prev(format!("unknown opcode `{mn}`"));
    };
    let mut mods = Mods::new();
    for p in parts {
        if let Err(m) = mods.add_token(p, opcode.info().allowed) {
            return c.err_prev(format!("{opcode}: {m}"));
        }
    }
    let mut srcs = Vec::new();
    if !c.at_end() {
        loop {
            srcs.push(operand(c, names)?);
            if c.at_end() {
                break;
            }
            if !c.eat(',') {
                return c.err(format!("expected `,` or end of line, found {}", describe(c.peek())));
            }
        }
    }
    Ok(InstData { opcode, mods, guard, dsts, srcs })
}

fn operand(c: &mut Cur<'_>, names: &mut Names) -> Result<Operand, ParseError> {
    let not = c.eat('!') || c.eat('~');
    if c.peek() == Some(&T::P('-'))
        && let (false, Some(T::Num(n))) = (not, c.peek2())
    {
        c.next();
        c.next();
        return match parse_imm(n, true) {
            Some(i) => Ok(Operand::Imm(i)),
            None => c.err_prev(format!("bad immediate `-{n}`")),
        };
    }
    let neg = c.eat('-');
    let abs = c.eat('|');
    if not || neg || abs {
        let r = reg(c, names)?;
        if abs {
            c.expect('|')?;
        }
        return Ok(Operand::Reg(RegUse { reg: r, neg, abs, not }));
    }
    match c.peek() {
        Some(T::Var(_)) => Ok(Operand::Reg(RegUse::new(reg(c, names)?))),
        Some(T::Num(n)) => {
            c.next();
            match parse_imm(n, false) {
                Some(i) => Ok(Operand::Imm(i)),
                None => c.err_prev(format!("bad immediate `{n}`")),
            }
        }
        Some(T::P('@')) => {
            c.next();
            match c.next() {
                Some(T::Word(w)) => Ok(Operand::Func(w.clone())),
                t => c.err_prev(format!("expected a function name, found {}", describe(t))),
            }
        }
        Some(T::Word(w)) => {
            c.next();
            if c.peek() == Some(&T::P('[')) {
                if w == "c" {
                    return cbank(c, names).map(Operand::CBank);
                }
                if let Some(space) = Space::from_name(w) {
                    return mem(c, names, space).map(Operand::Mem);
                }
                return c.err_prev(format!("`{w}` is not a memory space"));
            }
            if is_block_name(w) {
                return names.block(c, w).map(Operand::Block);
            }
            if let Some(s) = SpecialReg::from_name(w) {
                return Ok(Operand::SReg(s));
            }
            phys_tuple(c, w).map(|p| Operand::Reg(RegUse::new(p)))
        }
        t => c.err(format!("expected an operand, found {}", describe(t))),
    }
}

fn signed_num(c: &mut Cur<'_>) -> Result<i64, ParseError> {
    let neg = c.eat('-');
    match c.next() {
        Some(T::Num(n)) => match parse_int(n, neg) {
            Some(v) => Ok(v),
            None => c.err_prev(format!("bad offset `{n}`")),
        },
        t => c.err_prev(format!("expected a number, found {}", describe(t))),
    }
}

fn cbank(c: &mut Cur<'_>, names: &mut Names) -> Result<CBank, ParseError> {
    c.expect('[')?;
    let bank = signed_num(c)?;
    let Ok(bank) = u8::try_from(bank) else {
        return c.err_prev("constant bank number out of range");
    };
    c.expect(']')?;
    c.expect('[')?;
    let mut index = None;
    let mut offset = 0i64;
    if matches!(c.peek(), Some(T::Var(_)) | Some(T::Word(_))) {
        index = Some(reg(c, names)?);
        if c.eat('+') || c.peek() == Some(&T::P('-')) {
            offset = signed_num(c)?;
        }
    } else {
        offset = signed_num(c)?;
    }
    c.expect(']')?;
    let Ok(offset) = i32::try_from(offset) else {
        return c.err_prev("constant bank offset out of range");
    };
    Ok(CBank { bank, index, offset })
}

fn mem(c: &mut Cur<'_>, names: &mut Names, space: Space) -> Result<MemRef, ParseError> {
    c.expect('[')?;
    let mut m = MemRef { space, sym: None, base: None, offset: 0 };
    let mut have_off = false;
    let mut first = true;
    loop {
        if c.eat(']') {
            if first {
                return c.err_prev("empty address");
            }
            break;
        }
        if !first && c.peek() != Some(&T::P('-')) {
            c.expect('+')?;
        }
        match c.peek() {
            Some(T::Sym(s)) if first => {
                m.sym = Some(s.clone());
                c.next();
            }
            Some(T::Var(_)) | Some(T::Word(_)) if m.base.is_none() && !have_off => {
                m.base = Some(reg(c, names)?);
            }
            Some(T::Num(_)) | Some(T::P('-')) if !have_off => {
                m.offset = signed_num(c)?;
                have_off = true;
            }
            t => return c.err(format!("unexpected {} in address", describe(t))),
        }
        first = false;
    }
    Ok(m)
}
