//! The fast path of the PTX parser: a hand-written scanner and recursive-descent parser for the
//! same language as `grammar.pest`, building the same [`Module`] (spans included).
//!
//! The pest grammar stays the reference. This parser only ever answers "here is the tree" or
//! "I don't know" (`None`): on anything it does not accept — a syntax error, a construct it
//! does not model, a depth limit — [`super::parser`] runs the pest grammar, which then gives the
//! tree or the exact ptxas diagnostic. So diagnostics come from the reference alone, and the only
//! obligation of this module is: when it returns `Some(m)`, the pest grammar accepts the same
//! input and builds a tree equal to `m` with equal spans. `tests/ptx_fast_parser.rs` checks that
//! on every corpus and error-corpus file and thousands of mutations.
//!
//! How the PEG is mirrored:
//! - Implicit `WHITESPACE`/`COMMENT` between the elements of non-atomic rules is [`P::skip`],
//!   called before every token (it is idempotent). Atomic rules (`@{}`/`${}`) are byte scanners.
//! - Keyword alternatives that end in `kw_end` (or are guarded by `&kw_*`) are "the dot-word
//!   equals the keyword": the word is the maximal `[A-Za-z0-9_$]` run, exactly what `kw_end`
//!   tests.
//! - Ordered choice is kept where an earlier alternative can fail after consuming input and a
//!   later one succeed (`generic(` vs a symbol, dual `p|q`, `(list)` vs `(expr)`, `sym[i]`,
//!   `name = expr` in initializers, a binary operator with no right operand): those save the
//!   cursor and restore it. Everywhere else a failure makes the whole parse return `None`.
//! - Tree-building errors of the reference (expression depth, a `?` without `:`) set `hard`, so
//!   no alternative is tried after them.
//!
//! Recursion is through brackets only (`( )`, `{ }`), whose depth the caller has bounded.

use super::ast::*;
use super::limits;

/// Whether `e` names a symbol other than the constant `WARP_SZ` (or a `generic(…)`).
fn names_symbol(e: &Expr) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Sym(id, _) if id.name != "WARP_SZ" => return true,
            ExprKind::Generic(_) => return true,
            ExprKind::Unary(_, a) => stack.push(a),
            ExprKind::Binary(_, a, b) => stack.extend([a.as_ref(), b.as_ref()]),
            ExprKind::Cond(a, b, c) => stack.extend([a.as_ref(), b.as_ref(), c.as_ref()]),
            _ => {}
        }
    }
    false
}

/// A conservative check that the reference grammar's `op_expr` (or, in braces, `vec_elem`)
/// accepts the operand `e` parsed from `text` with the same tree: a constant expression, or a
/// symbol alone, after one `-`/`!` (not in braces), or before `+` and a constant (not in
/// braces), written without parentheses. Anything else is left to the reference.
fn operand_shape_ok(e: &Expr, text: &str, in_braces: bool) -> bool {
    if !names_symbol(e) {
        return true;
    }
    if text.contains('(') {
        return false;
    }
    let sym = |e: &Expr| matches!(&e.kind, ExprKind::Sym(id, _) if id.name != "WARP_SZ");
    match &e.kind {
        ExprKind::Sym(..) => true,
        _ if in_braces => false,
        ExprKind::Unary(UnOp::Neg | UnOp::Not, a) => sym(a),
        ExprKind::Binary(BinOp::Add, a, b) => sym(a) && !names_symbol(b),
        _ => false,
    }
}

/// Parses `src`, or `None` where the reference parser must decide.
pub(super) fn parse(src: &str) -> Option<Module> {
    if !src.is_ascii() {
        return None;
    }
    let mut p = P {
        s: src,
        b: src.as_bytes(),
        c: Cur { pos: 0, line: 1, ls: 0 },
        hard: false,
        mods: Vec::new(),
        ops: Vec::new(),
    };
    p.module().ok()
}

#[derive(Clone, Copy)]
struct Cur {
    pos: usize,
    line: u32,
    /// Offset of the current line's first byte.
    ls: usize,
}

struct P<'a> {
    s: &'a str,
    b: &'a [u8],
    c: Cur,
    /// The reference would fail while building the tree: do not try other alternatives.
    hard: bool,
    /// Scratch lists for an instruction's modifiers and operands: the tree gets exact-size
    /// vectors (most of a large module's memory is its instructions).
    mods: Vec<Modifier>,
    ops: Vec<Operand>,
}

type F<T> = Result<T, ()>;

#[inline]
fn is_ic(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

const STMT_KW: &[&[u8]] = &[
    b"reg",
    b"pragma",
    b"loc",
    b"file",
    b"section",
    b"entry",
    b"func",
    b"callprototype",
    b"calltargets",
    b"branchtargets",
    b"version",
    b"target",
    b"address_size",
    b"visible",
    b"extern",
    b"common",
    b"alias",
];
const STATE_SPACES: &[&[u8]] = &[b"reg", b"const", b"global", b"local", b"param", b"shared", b"tex"];
/// Variable types. ptxas's grammar has no `.bf16`, `.bf16x2` or `.tf32` variable (a syntax
/// error there); the instruction-only types parse and fail in `sema` (probed).
const TYPES: &[&[u8]] = &[
    b"b128",
    b"b16",
    b"b32",
    b"b64",
    b"b8",
    b"u16x2",
    b"s16x2",
    b"u16",
    b"u32",
    b"u64",
    b"u8",
    b"s16",
    b"s32",
    b"s64",
    b"s8",
    b"f16x2",
    b"f16",
    b"f32",
    b"f64",
    b"e4m3x2",
    b"e5m2x2",
    b"e2m1x2",
    b"e2m3x2",
    b"e3m2x2",
    b"ue8m0x2",
    b"e4m3",
    b"e5m2",
    b"pred",
    b"texref",
    b"samplerref",
    b"surfref",
];
const PTR_SPACES: &[&[u8]] = &[b"global", b"const", b"local", b"shared"];

fn in_set(w: &[u8], set: &[&[u8]]) -> bool {
    set.contains(&w)
}

impl<'a> P<'a> {
    // ---- scanning --------------------------------------------------------------------------

    #[inline]
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    #[inline]
    fn peek(&self) -> u8 {
        self.at(self.c.pos)
    }

    #[inline]
    fn span(&self) -> Span {
        Span { offset: self.c.pos as u32, line: self.c.line, column: (self.c.pos - self.c.ls + 1) as u32 }
    }

    fn newline_at(&mut self, i: usize) {
        self.c.line += 1;
        self.c.ls = i + 1;
    }

    /// `(WHITESPACE | COMMENT)*`. An unterminated `/*` is left to the reference.
    #[inline]
    fn skip(&mut self) -> F<()> {
        let b = self.b;
        let mut i = self.c.pos;
        loop {
            match b.get(i) {
                Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c) => i += 1,
                Some(b'\n') => {
                    self.newline_at(i);
                    i += 1;
                }
                Some(b'/') if b.get(i + 1) == Some(&b'/') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                Some(b'/') if b.get(i + 1) == Some(&b'*') => {
                    let mut j = i + 2;
                    loop {
                        if j + 1 >= b.len() {
                            return Err(());
                        }
                        if b[j] == b'*' && b[j + 1] == b'/' {
                            break;
                        }
                        if b[j] == b'\n' {
                            self.newline_at(j);
                        }
                        j += 1;
                    }
                    i = j + 2;
                }
                Some(b'#') => match hash_line_end(b, i) {
                    Some(e) => i = e,
                    None => break,
                },
                _ => break,
            }
        }
        self.c.pos = i;
        Ok(())
    }

    fn word_end(&self, mut i: usize) -> usize {
        while i < self.b.len() && is_ic(self.b[i]) {
            i += 1;
        }
        i
    }

    /// The word after a `.` at the cursor (empty when there is no `.`).
    fn dot_word_here(&self) -> &'a [u8] {
        let i = self.c.pos;
        if self.at(i) != b'.' {
            return &[];
        }
        &self.b[i + 1..self.word_end(i + 1)]
    }

    fn ident_end(&self, i: usize) -> Option<usize> {
        let c = self.at(i);
        if c.is_ascii_alphabetic() {
            Some(self.word_end(i + 1))
        } else if c == b'_' || c == b'$' || c == b'%' {
            let e = self.word_end(i + 1);
            (e > i + 1).then_some(e)
        } else {
            None
        }
    }

    fn is_stmt_kw(&self, i: usize) -> bool {
        self.at(i) == b'.' && in_set(&self.b[i + 1..self.word_end(i + 1)], STMT_KW)
    }

    fn digits(&self, mut i: usize) -> usize {
        while i < self.b.len() && self.b[i].is_ascii_digit() {
            i += 1;
        }
        i
    }

    fn hex_digits(&self, mut i: usize) -> usize {
        while i < self.b.len() && self.b[i].is_ascii_hexdigit() {
            i += 1;
        }
        i
    }

    fn exponent_end(&self, i: usize) -> Option<usize> {
        if !matches!(self.at(i), b'e' | b'E') {
            return None;
        }
        let mut j = i + 1;
        if matches!(self.at(j), b'+' | b'-') {
            j += 1;
        }
        let k = self.digits(j);
        (k > j).then_some(k)
    }

    /// The `float` rule.
    fn float_end(&self, i: usize) -> Option<usize> {
        let (c0, c1) = (self.at(i), self.at(i + 1));
        if c0 == b'0' && matches!(c1, b'f' | b'F') && self.hex_digits(i + 2) >= i + 10 && !is_ic(self.at(i + 10)) {
            return Some(i + 10);
        }
        if c0 == b'0' && matches!(c1, b'd' | b'D') && self.hex_digits(i + 2) >= i + 18 && !is_ic(self.at(i + 18)) {
            return Some(i + 18);
        }
        let d = self.digits(i);
        if self.at(d) == b'.' {
            let e = self.digits(d + 1);
            if e > d + 1 {
                return Some(self.exponent_end(e).unwrap_or(e));
            }
            if d > i {
                return Some(self.exponent_end(d + 1).unwrap_or(d + 1));
            }
        }
        if d > i {
            return self.exponent_end(d);
        }
        None
    }

    /// The `integer` rule.
    fn int_end(&self, i: usize) -> Option<usize> {
        let (c0, c1) = (self.at(i), self.at(i + 1));
        let u = |e: usize| if self.at(e) == b'U' { e + 1 } else { e };
        if c0 == b'0' && matches!(c1, b'x' | b'X') {
            let e = self.hex_digits(i + 2);
            if e > i + 2 {
                return Some(u(e));
            }
        }
        if c0 == b'0' && matches!(c1, b'b' | b'B') {
            let mut e = i + 2;
            while matches!(self.at(e), b'0' | b'1') {
                e += 1;
            }
            if e > i + 2 {
                return Some(u(e));
            }
        }
        let e = self.digits(i);
        (e > i).then(|| u(e))
    }

    /// The `dot_word` rule.
    fn dot_word_end(&self, i: usize) -> Option<usize> {
        if self.at(i) != b'.' || self.is_stmt_kw(i) {
            return None;
        }
        if let Some(e) = self.float_end(i)
            && !is_ic(self.at(e))
        {
            return None;
        }
        let mut w = self.word_end(i + 1);
        if w == i + 1 {
            return None;
        }
        while self.at(w) == b':' && self.at(w + 1) == b':' {
            let w2 = self.word_end(w + 2);
            if w2 == w + 2 {
                break;
            }
            w = w2;
        }
        Some(w)
    }

    /// The `string` rule.
    fn string_end(&self, i: usize) -> Option<usize> {
        if self.at(i) != b'"' {
            return None;
        }
        let mut j = i + 1;
        loop {
            match self.b.get(j)? {
                b'"' => return Some(j + 1),
                b'\n' => return None,
                b'\\' => {
                    if matches!(self.b.get(j + 1), None | Some(b'\n')) {
                        return None;
                    }
                    j += 2;
                }
                _ => j += 1,
            }
        }
    }

    fn text(&self, from: usize, to: usize) -> String {
        self.s[from..to].to_string()
    }

    // ---- tokens ----------------------------------------------------------------------------

    fn eat(&mut self, ch: u8) -> F<()> {
        self.skip()?;
        if self.peek() == ch {
            self.c.pos += 1;
            Ok(())
        } else {
            Err(())
        }
    }

    /// Skips trivia and consumes `ch` if it is next.
    fn check(&mut self, ch: u8) -> F<bool> {
        self.skip()?;
        if self.peek() == ch {
            self.c.pos += 1;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// `.word` where the whole dot-word equals `w`.
    fn kw(&mut self, w: &[u8]) -> F<()> {
        self.skip()?;
        if self.dot_word_here() == w {
            self.c.pos += 1 + w.len();
            Ok(())
        } else {
            Err(())
        }
    }

    fn ident(&mut self) -> F<Ident> {
        self.skip()?;
        let e = self.ident_end(self.c.pos).ok_or(())?;
        let span = self.span();
        let name = self.text(self.c.pos, e);
        self.c.pos = e;
        Ok(Ident { name, span })
    }

    /// `ident | sink`.
    fn name(&mut self) -> F<Ident> {
        self.skip()?;
        if self.ident_end(self.c.pos).is_some() {
            return self.ident();
        }
        if self.is_sink() {
            let span = self.span();
            self.c.pos += 1;
            return Ok(Ident { name: "_".into(), span });
        }
        Err(())
    }

    fn is_sink(&self) -> bool {
        self.peek() == b'_' && !is_ic(self.at(self.c.pos + 1))
    }

    fn integer(&mut self) -> F<IntLit> {
        self.skip()?;
        let e = self.int_end(self.c.pos).ok_or(())?;
        let span = self.span();
        let text = self.text(self.c.pos, e);
        self.c.pos = e;
        Ok(IntLit { text, span })
    }

    fn string(&mut self) -> F<String> {
        self.skip()?;
        let e = self.string_end(self.c.pos).ok_or(())?;
        let t = self.text(self.c.pos, e);
        self.c.pos = e;
        Ok(t)
    }

    /// A `.word` from `set`, returned with its dot.
    fn dot_from(&mut self, set: &[&[u8]]) -> F<Option<String>> {
        self.skip()?;
        let w = self.dot_word_here();
        if !w.is_empty() && in_set(w, set) {
            let t = self.text(self.c.pos, self.c.pos + 1 + w.len());
            self.c.pos += 1 + w.len();
            Ok(Some(t))
        } else {
            Ok(None)
        }
    }

    // ---- module ----------------------------------------------------------------------------

    fn module(&mut self) -> F<Module> {
        self.skip()?;
        // version = ${ ".version" ~ (" " | "\t")+ ~ DIGIT+ "." DIGIT+ }
        let span = self.span();
        let i = self.c.pos;
        if !self.b[i..].starts_with(b".version") {
            return Err(());
        }
        let mut j = i + 8;
        if !matches!(self.at(j), b' ' | b'\t') {
            return Err(());
        }
        while matches!(self.at(j), b' ' | b'\t') {
            j += 1;
        }
        let d1 = self.digits(j);
        if d1 == j || self.at(d1) != b'.' {
            return Err(());
        }
        let d2 = self.digits(d1 + 1);
        if d2 == d1 + 1 {
            return Err(());
        }
        let version = Version { major: self.text(j, d1), minor: self.text(d1 + 1, d2), span };
        self.c.pos = d2;

        self.skip()?;
        let span = self.span();
        self.kw(b"target")?;
        let mut names = vec![self.target_name()?];
        while self.check(b',')? {
            names.push(self.target_name()?);
        }
        let target = Target { names, span };

        self.skip()?;
        let address_size = if self.dot_word_here() == b"address_size" {
            self.c.pos += 13;
            Some(self.integer()?)
        } else {
            None
        };

        let mut items = Vec::new();
        loop {
            self.skip()?;
            if self.c.pos >= self.b.len() {
                break;
            }
            items.push(self.item()?);
        }
        Ok(Module { version, target, address_size, items })
    }

    fn target_name(&mut self) -> F<Ident> {
        self.skip()?;
        let i = self.c.pos;
        if self.b[i..].starts_with(b"texmode_raw") && !is_ic(self.at(i + 11)) {
            return Err(());
        }
        self.ident()
    }

    fn item(&mut self) -> F<Item> {
        let span = self.span();
        let w = self.dot_word_here();
        Ok(match w {
            b"file" => {
                self.c.pos += 5;
                let index = self.integer()?;
                let name = self.string()?;
                let mut extra = Vec::new();
                while self.check(b',')? {
                    extra.push(self.integer()?);
                }
                Item::File(FileDir { index, name, extra, span })
            }
            b"section" => Item::Section(self.section()?),
            b"pragma" => Item::Pragma(self.pragma()?),
            b"alias" => {
                self.c.pos += 6;
                let alias = self.ident()?;
                self.eat(b',')?;
                let aliasee = self.ident()?;
                self.eat(b';')?;
                Item::Alias(Alias { alias, aliasee, span })
            }
            _ => match self.decl_or_function(true)? {
                DeclOrFn::Var(v) => Item::Var(v),
                DeclOrFn::Function(f) => Item::Function(f),
            },
        })
    }

    /// `linkage* (function | var_decl ";")`.
    fn decl_or_function(&mut self, allow_body: bool) -> F<DeclOrFn> {
        self.skip()?;
        let span = self.span();
        let mut linkage = Vec::new();
        loop {
            self.skip()?;
            let l = match self.dot_word_here() {
                b"visible" => Linkage::Visible,
                b"extern" => Linkage::Extern,
                b"weak" => Linkage::Weak,
                b"common" => Linkage::Common,
                _ => break,
            };
            self.c.pos += l.as_str().len();
            linkage.push(l);
        }
        let w = self.dot_word_here();
        if w == b"entry" || w == b"func" {
            return Ok(DeclOrFn::Function(self.function(linkage, span, allow_body)?));
        }
        if !in_set(w, STATE_SPACES) {
            return Err(());
        }
        let v = self.var_decl(linkage, span)?;
        self.eat(b';')?;
        Ok(DeclOrFn::Var(v))
    }

    fn function(&mut self, linkage: Vec<Linkage>, span: Span, allow_body: bool) -> F<Function> {
        let entry = self.dot_word_here() == b"entry";
        let (kind, returns) = if entry {
            self.c.pos += 6;
            (FunctionKind::Entry, None)
        } else {
            self.c.pos += 5;
            self.skip()?;
            (FunctionKind::Func, if self.peek() == b'(' { Some(self.params()?) } else { None })
        };
        let name = self.ident()?;
        self.skip()?;
        let params = if self.peek() == b'(' { Some(self.params()?) } else { None };
        let mut directives = Vec::new();
        loop {
            self.skip()?;
            let d = if entry { self.entry_dir()? } else { self.func_dir()? };
            match d {
                Some(d) => directives.push(d),
                None => break,
            }
        }
        self.skip()?;
        let body = match self.peek() {
            b'{' if allow_body => {
                self.c.pos += 1;
                Some(self.stmts()?)
            }
            b';' => {
                self.c.pos += 1;
                None
            }
            _ => return Err(()),
        };
        Ok(Function { linkage, kind, returns, name, params, directives, body, span })
    }

    fn dims3(&mut self) -> F<Vec<IntLit>> {
        let mut v = vec![self.integer()?];
        if self.check(b',')? {
            v.push(self.integer()?);
            if self.check(b',')? {
                v.push(self.integer()?);
            }
        }
        Ok(v)
    }

    fn entry_dir(&mut self) -> F<Option<FuncDirective>> {
        let w = self.dot_word_here();
        let n = 1 + w.len();
        let d = match w {
            b"maxntid" | b"reqntid" | b"reqnctapercluster" => {
                self.c.pos += n;
                let v = self.dims3()?;
                match w {
                    b"maxntid" => FuncDirective::MaxNTid(v),
                    b"reqntid" => FuncDirective::ReqNTid(v),
                    _ => FuncDirective::ReqNCtaPerCluster(v),
                }
            }
            b"minnctapersm" | b"maxnreg" | b"maxnctapersm" | b"maxclusterrank" => {
                self.c.pos += n;
                let i = self.integer()?;
                match w {
                    b"minnctapersm" => FuncDirective::MinNCtaPerSm(i),
                    b"maxnreg" => FuncDirective::MaxNReg(i),
                    b"maxnctapersm" => FuncDirective::MaxNCtaPerSm(i),
                    _ => FuncDirective::MaxClusterRank(i),
                }
            }
            b"explicitcluster" => {
                self.c.pos += n;
                FuncDirective::ExplicitCluster
            }
            b"blocksareclusters" => {
                self.c.pos += n;
                FuncDirective::BlocksAreClusters
            }
            _ => return Ok(None),
        };
        Ok(Some(d))
    }

    fn func_dir(&mut self) -> F<Option<FuncDirective>> {
        let w = self.dot_word_here();
        let n = 1 + w.len();
        let d = match w {
            b"noreturn" => {
                self.c.pos += n;
                FuncDirective::NoReturn
            }
            b"abi_preserve" => {
                self.c.pos += n;
                FuncDirective::AbiPreserve(self.integer()?)
            }
            b"abi_preserve_control" => {
                self.c.pos += n;
                FuncDirective::AbiPreserveControl(self.integer()?)
            }
            _ => return Ok(None),
        };
        Ok(Some(d))
    }

    /// `"(" (param ("," param)*)? ")"`.
    fn params(&mut self) -> F<Vec<Param>> {
        self.eat(b'(')?;
        let mut v = Vec::new();
        if self.check(b')')? {
            return Ok(v);
        }
        loop {
            v.push(self.param()?);
            if !self.check(b',')? {
                break;
            }
        }
        self.eat(b')')?;
        Ok(v)
    }

    fn param(&mut self) -> F<Param> {
        self.skip()?;
        let span = self.span();
        let space = match self.dot_word_here() {
            w @ (b"param" | b"reg") => {
                let t = self.text(self.c.pos, self.c.pos + 1 + w.len());
                self.c.pos += 1 + w.len();
                StateSpace { text: t }
            }
            _ => return Err(()),
        };
        let pre = self.decl_attrs()?;
        let ty = self.var_type()?;
        let post = self.decl_attrs()?;
        let decl = self.declarator()?;
        Ok(Param { space, pre, ty, post, decl, span })
    }

    fn var_type(&mut self) -> F<Type> {
        match self.dot_from(TYPES)? {
            Some(text) => Ok(Type { text }),
            None => Err(()),
        }
    }

    fn decl_attrs(&mut self) -> F<Vec<DeclAttr>> {
        let mut v = Vec::new();
        loop {
            self.skip()?;
            let w = self.dot_word_here();
            let n = 1 + w.len();
            v.push(match w {
                b"align" => {
                    self.c.pos += n;
                    DeclAttr::Align(self.integer()?)
                }
                b"v2" | b"v4" | b"v8" => {
                    self.c.pos += n;
                    DeclAttr::Vector(w[1] - b'0')
                }
                b"ptr" => {
                    self.c.pos += n;
                    let space = self.dot_from(PTR_SPACES)?;
                    self.skip()?;
                    let align = if self.dot_word_here() == b"align" {
                        self.c.pos += 6;
                        Some(self.integer()?)
                    } else {
                        None
                    };
                    DeclAttr::Ptr { space, align }
                }
                b"attribute" => {
                    self.c.pos += n;
                    self.eat(b'(')?;
                    let mut words = Vec::new();
                    loop {
                        self.skip()?;
                        let e = self.dot_word_end(self.c.pos).ok_or(())?;
                        words.push(self.text(self.c.pos, e));
                        self.c.pos = e;
                        if !self.check(b',')? {
                            break;
                        }
                    }
                    self.eat(b')')?;
                    DeclAttr::Attribute(words)
                }
                _ => break,
            });
        }
        Ok(v)
    }

    /// `state_space decl_attr* var_type decl_attr* declarator ("," declarator)*`.
    fn var_decl(&mut self, linkage: Vec<Linkage>, span: Span) -> F<VarDecl> {
        self.skip()?;
        let w = self.dot_word_here();
        if !in_set(w, STATE_SPACES) {
            return Err(());
        }
        let start = self.c.pos;
        let mut e = start + 1 + w.len();
        if self.at(e) == b':' && self.at(e + 1) == b':' {
            let w2 = self.word_end(e + 2);
            if w2 > e + 2 {
                e = w2;
            }
        }
        let space = StateSpace { text: self.text(start, e) };
        self.c.pos = e;
        let pre = self.decl_attrs()?;
        let ty = self.var_type()?;
        let post = self.decl_attrs()?;
        let mut decls = vec![self.declarator()?];
        while self.check(b',')? {
            decls.push(self.declarator()?);
        }
        Ok(VarDecl { linkage, space, pre, ty, post, decls, span })
    }

    fn declarator(&mut self) -> F<Declarator> {
        let name = self.name()?;
        self.skip()?;
        let mut shape = Shape::Scalar;
        match self.peek() {
            b'<' => {
                self.c.pos += 1;
                let n = self.integer()?;
                self.eat(b'>')?;
                shape = Shape::Range(n);
            }
            b'[' => {
                let mut dims = Vec::new();
                while self.check(b'[')? {
                    self.skip()?;
                    if self.peek() == b']' {
                        dims.push(None);
                    } else {
                        dims.push(Some(self.expr()?.0));
                    }
                    self.eat(b']')?;
                }
                shape = Shape::Array(dims);
            }
            _ => {}
        }
        let init = if self.check(b'=')? { Some(self.initializer()?) } else { None };
        Ok(Declarator { name, shape, init })
    }

    fn initializer(&mut self) -> F<Initializer> {
        self.skip()?;
        if self.peek() != b'{' {
            return Ok(Initializer::Expr(self.expr()?.0));
        }
        let span = self.span();
        self.c.pos += 1;
        let mut items = Vec::new();
        if !self.check(b'}')? {
            loop {
                items.push(self.init_item()?);
                if !self.check(b',')? {
                    break;
                }
            }
            self.eat(b'}')?;
        }
        Ok(Initializer::List(items, span))
    }

    /// `init_field | initializer`.
    fn init_item(&mut self) -> F<Initializer> {
        self.skip()?;
        if self.ident_end(self.c.pos).is_some() {
            let save = self.c;
            let field = (|| {
                let n = self.ident()?;
                self.eat(b'=')?;
                Ok(Initializer::Field(n, self.expr()?.0))
            })();
            match field {
                Ok(f) => return Ok(f),
                Err(()) if self.hard => return Err(()),
                Err(()) => self.c = save,
            }
        }
        self.initializer()
    }

    fn section(&mut self) -> F<Section> {
        let span = self.span();
        self.c.pos += 8;
        self.skip()?;
        let e = self.dot_word_end(self.c.pos).ok_or(())?;
        let name = self.text(self.c.pos, e);
        self.c.pos = e;
        self.eat(b'{')?;
        let mut entries = Vec::new();
        loop {
            self.skip()?;
            if self.peek() == b'}' {
                self.c.pos += 1;
                break;
            }
            if self.ident_end(self.c.pos).is_some() {
                let n = self.ident()?;
                self.eat(b':')?;
                entries.push(SectionEntry::Label(n));
                continue;
            }
            entries.push(SectionEntry::Data(self.section_data()?));
        }
        Ok(Section { name, entries, span })
    }

    /// One data line (the `section_data` rule): integers, or one symbolic value.
    fn section_data(&mut self) -> F<SectionData> {
        let span = self.span();
        let ty = match self.dot_word_here() {
            w @ (b"b8" | b"b16" | b"b32" | b"b64") => {
                let t = self.text(self.c.pos, self.c.pos + 1 + w.len());
                self.c.pos += 1 + w.len();
                t
            }
            _ => return Err(()),
        };
        self.skip()?;
        let i = self.c.pos;
        let at_int = self.int_end(i).is_some() || (self.peek() == b'-' && self.int_end(i + 1).is_some());
        if at_int {
            let mut values = Vec::new();
            loop {
                self.skip()?;
                let neg = (self.peek() == b'-').then(|| self.span());
                if neg.is_some() {
                    self.c.pos += 1;
                    self.skip()?;
                }
                let lit = self.integer()?;
                let int = Expr { span: lit.span, kind: ExprKind::Int(lit) };
                values.push(SectionValue::Expr(match neg {
                    Some(s) => Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(int)), span: s },
                    None => int,
                }));
                if !self.check(b',')? {
                    break;
                }
            }
            self.skip()?;
            return Ok(SectionData { ty, values, span, report: self.span() });
        }
        let vspan = self.span();
        // `.section [+ int]`
        if self.peek() == b'.' {
            let e = self.word_end(i + 1);
            if e == i + 1 || self.is_stmt_kw(i) || matches!(&self.b[i + 1..e], b"b8" | b"b16" | b"b32" | b"b64") {
                return Err(());
            }
            let name = self.text(i, e);
            self.c.pos = e;
            let off = if self.check(b'+')? { Some(self.integer()?) } else { None };
            let report = match &off {
                Some(o) => o.span,
                None => {
                    self.skip()?;
                    self.span()
                }
            };
            return Ok(SectionData { ty, values: vec![SectionValue::Section(name, off)], span, report });
        }
        let sym = |me: &mut Self| -> F<Expr> {
            me.skip()?;
            let id = me.ident()?;
            Ok(Expr { span: id.span, kind: ExprKind::Sym(id, None) })
        };
        let a = sym(self)?;
        let (v, report) = if self.check(b'-')? {
            let b = sym(self)?;
            let report = b.span;
            (Expr { span: vspan, kind: ExprKind::Binary(BinOp::Sub, Box::new(a), Box::new(b)) }, report)
        } else if self.check(b'+')? {
            let lit = self.integer()?;
            let int = Expr { span: lit.span, kind: ExprKind::Int(lit) };
            let report = int.span;
            (Expr { span: vspan, kind: ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(int)) }, report)
        } else {
            self.skip()?;
            (a, self.span())
        };
        Ok(SectionData { ty, values: vec![SectionValue::Expr(v)], span, report })
    }

    fn pragma(&mut self) -> F<Pragma> {
        let span = self.span();
        self.c.pos += 7;
        let mut strings = vec![self.string()?];
        while self.check(b',')? {
            strings.push(self.string()?);
        }
        self.eat(b';')?;
        Ok(Pragma { strings, span })
    }

    // ---- statements ------------------------------------------------------------------------

    /// `stmt* "}"` (the `{` is consumed).
    fn stmts(&mut self) -> F<Vec<Statement>> {
        let mut v = Vec::new();
        loop {
            self.skip()?;
            if self.peek() == b'}' {
                self.c.pos += 1;
                return Ok(v);
            }
            v.push(self.stmt()?);
        }
    }

    fn stmt(&mut self) -> F<Statement> {
        let span = self.span();
        let c = self.peek();
        if let Some(e) = self.ident_end(self.c.pos) {
            // label = { ident ~ ":" }
            let save = self.c;
            self.c.pos = e;
            self.skip()?;
            if self.peek() == b':' {
                let name = self.text(save.pos, e);
                self.c.pos += 1;
                return Ok(Statement::Label(Ident { name, span }));
            }
            self.c = save;
            return Ok(Statement::Instruction(self.instruction()?));
        }
        match c {
            b'@' => return Ok(Statement::Instruction(self.instruction()?)),
            b'{' => {
                self.c.pos += 1;
                return Ok(Statement::Block(self.stmts()?, span));
            }
            b'.' => {}
            _ => return Err(()),
        }
        let w = self.dot_word_here();
        Ok(match w {
            b"loc" => Statement::Loc(self.loc()?),
            b"pragma" => Statement::Pragma(self.pragma()?),
            b"callprototype" => {
                self.c.pos += 14;
                self.skip()?;
                let returns = if self.peek() == b'(' { Some(self.params()?) } else { None };
                self.skip()?;
                if !self.is_sink() {
                    return Err(());
                }
                self.c.pos += 1;
                self.skip()?;
                let params = if self.peek() == b'(' { Some(self.params()?) } else { None };
                let mut directives = Vec::new();
                loop {
                    self.skip()?;
                    match self.func_dir()? {
                        Some(d) => directives.push(d),
                        None => break,
                    }
                }
                self.eat(b';')?;
                Statement::CallPrototype(CallPrototype { returns, params, directives, span })
            }
            b"calltargets" | b"branchtargets" => {
                self.c.pos += 1 + w.len();
                let mut names = vec![self.ident()?];
                while self.check(b',')? {
                    names.push(self.ident()?);
                }
                self.eat(b';')?;
                if w == b"calltargets" {
                    Statement::CallTargets(names, span)
                } else {
                    Statement::BranchTargets(names, span)
                }
            }
            _ => match self.decl_or_function(false)? {
                DeclOrFn::Var(v) => Statement::Var(v),
                DeclOrFn::Function(f) => Statement::FuncDecl(f),
            },
        })
    }

    fn loc(&mut self) -> F<Loc> {
        let span = self.span();
        self.c.pos += 4;
        let file = self.integer()?;
        let line = self.integer()?;
        let column = self.integer()?;
        let mut attrs = Vec::new();
        while self.check(b',')? {
            self.skip()?;
            let i = self.c.pos;
            let w = &self.b[i..self.word_end(i)];
            if w == b"function_name" {
                self.c.pos += w.len();
                let n = self.ident()?;
                let off = if self.check(b'+')? { Some(self.integer()?) } else { None };
                attrs.push(LocAttr::FunctionName(n, off));
            } else if w == b"inlined_at" {
                self.c.pos += w.len();
                let (a, b, c) = (self.integer()?, self.integer()?, self.integer()?);
                attrs.push(LocAttr::InlinedAt(a, b, c));
            } else {
                return Err(());
            }
        }
        Ok(Loc { file, line, column, attrs, span })
    }

    fn instruction(&mut self) -> F<Instruction> {
        let span = self.span();
        let mut guard = None;
        if self.peek() == b'@' {
            self.c.pos += 1;
            let negated = self.check(b'!')?;
            guard = Some(Guard { negated, pred: self.ident()? });
        }
        let opcode = self.ident()?;
        self.mods.clear();
        loop {
            self.skip()?;
            match self.dot_word_end(self.c.pos) {
                Some(e) => {
                    let m = Modifier { text: self.text(self.c.pos, e), span: self.span() };
                    self.mods.push(m);
                    self.c.pos = e;
                }
                None => break,
            }
        }
        let modifiers: Vec<Modifier> = self.mods.drain(..).collect();
        self.ops.clear();
        if self.peek() != b';' {
            loop {
                let op = self.operand()?;
                self.ops.push(op);
                if !self.check(b',')? {
                    break;
                }
            }
        }
        let operands: Vec<Operand> = self.ops.drain(..).collect();
        self.eat(b';')?;
        Ok(Instruction { guard, opcode, modifiers, operands, span })
    }

    // ---- operands --------------------------------------------------------------------------

    /// The `dual` rule at the cursor (`p|q`, `_|q`, `p|_`), or `None` with the cursor unmoved.
    fn dual(&mut self) -> F<Option<Operand>> {
        let save = self.c;
        let elem = |me: &mut Self, scan: bool| -> F<Option<VecElem>> {
            me.skip()?;
            if me.is_sink() {
                let s = me.span();
                me.c.pos += 1;
                return Ok(Some(VecElem::Sink(s)));
            }
            if scan {
                me.scan_symbol()?;
                return Ok(None);
            }
            Ok(Some(VecElem::Expr(me.symbol()?)))
        };
        let is_dual = (|| {
            let a = elem(self, true)?;
            self.eat(b'|')?;
            let b = elem(self, true)?;
            if a.is_some() && b.is_some() {
                return Err(());
            }
            self.comma_or_semi_follows()
        })()
        .unwrap_or(false);
        self.c = save;
        if !is_dual {
            return Ok(None);
        }
        let a = elem(self, false)?.ok_or(())?;
        self.eat(b'|')?;
        let b = elem(self, false)?.ok_or(())?;
        Ok(Some(Operand::Dual(a, b)))
    }

    /// Whether `("," | ";")` follows (after trivia).
    fn comma_or_semi_follows(&mut self) -> F<bool> {
        self.skip()?;
        Ok(matches!(self.peek(), b',' | b';'))
    }

    /// Scans a `symbol` without building it.
    fn scan_symbol(&mut self) -> F<()> {
        self.skip()?;
        self.c.pos = self.ident_end(self.c.pos).ok_or(())?;
        self.skip()?;
        if let Some(e) = self.component_end(self.c.pos) {
            self.c.pos = e;
        }
        Ok(())
    }

    fn component_end(&self, i: usize) -> Option<usize> {
        if self.at(i) != b'.' || self.is_stmt_kw(i) {
            return None;
        }
        let e = self.word_end(i + 1);
        // Section data types end a value (`.b64 sym` then `.b32 1`): never a component.
        if matches!(&self.b[i + 1..e], b"b8" | b"b16" | b"b32" | b"b64") {
            return None;
        }
        (e > i + 1).then_some(e)
    }

    fn operand(&mut self) -> F<Operand> {
        self.skip()?;
        let span = self.span();
        if self.is_sink() {
            if let Some(d) = self.dual()? {
                return Ok(d);
            }
            self.c.pos += 1;
            return Ok(Operand::Sink(span));
        }
        match self.peek() {
            b'{' => {
                self.c.pos += 1;
                return Ok(Operand::Vector(self.vec_elems()?, span));
            }
            b'[' => {
                self.c.pos += 1;
                let mut elems = Vec::new();
                loop {
                    self.skip()?;
                    let s = self.span();
                    if self.peek() == b'{' {
                        self.c.pos += 1;
                        elems.push(AddrElem::Vector(self.vec_elems()?, s));
                    } else {
                        let base = if self.ident_end(self.c.pos).is_some() {
                            self.symbol()?
                        } else {
                            let i = self.integer()?;
                            Expr { kind: ExprKind::Int(i), span: s }
                        };
                        let mut offset = None;
                        if self.check(b'+')? {
                            // A `+` with no expression after it fails the address either way.
                            offset = Some(self.expr()?.0);
                        }
                        elems.push(AddrElem::Term { base, offset });
                    }
                    if !self.check(b',')? {
                        break;
                    }
                }
                self.eat(b']')?;
                return Ok(Operand::Address(elems, span));
            }
            b'(' => {
                let save = self.c;
                match self.list_operand(span) {
                    Ok(op) => return Ok(op),
                    Err(()) if self.hard => return Err(()),
                    Err(()) => self.c = save,
                }
            }
            _ => {}
        }
        if let Some(e) = self.ident_end(self.c.pos) {
            // dual = { dual_elem ~ "|" ~ dual_elem ~ &("," | ";") }, not both sinks
            if let Some(d) = self.dual()? {
                return Ok(d);
            }
            let save = self.c;
            // indexed = { ident ~ "[" ~ expr ~ "]" }
            self.c.pos = e;
            self.skip()?;
            let bracket = self.peek() == b'[';
            self.c = save;
            if bracket {
                let r = (|| {
                    let n = self.ident()?;
                    self.eat(b'[')?;
                    let (x, _) = self.expr()?;
                    self.eat(b']')?;
                    Ok(Operand::Indexed(n, x))
                })();
                match r {
                    Ok(op) => return Ok(op),
                    Err(()) if self.hard => return Err(()),
                    Err(()) => self.c = save,
                }
            }
        }
        let start = self.c.pos;
        let (x, _) = self.expr()?;
        // The reference's operand grammar (`op_expr`): leave anything else to it.
        if !operand_shape_ok(&x, &self.s[start..self.c.pos], false) {
            return Err(());
        }
        Ok(Operand::Expr(x))
    }

    fn list_operand(&mut self, span: Span) -> F<Operand> {
        self.c.pos += 1;
        let mut elems = Vec::new();
        if !self.check(b')')? {
            loop {
                self.skip()?;
                if self.peek() == b'{' {
                    let s = self.span();
                    self.c.pos += 1;
                    elems.push(ListElem::Vector(self.vec_elems()?, s));
                } else {
                    elems.push(ListElem::Expr(self.expr()?.0));
                }
                if !self.check(b',')? {
                    break;
                }
            }
            self.eat(b')')?;
        }
        if !self.comma_or_semi_follows()? {
            return Err(());
        }
        Ok(Operand::List(elems, span))
    }

    /// `vec_elem ("," vec_elem)* "}"` (the `{` is consumed).
    fn vec_elems(&mut self) -> F<Vec<VecElem>> {
        let mut v = Vec::new();
        loop {
            self.skip()?;
            if self.is_sink() {
                v.push(VecElem::Sink(self.span()));
                self.c.pos += 1;
            } else {
                let start = self.c.pos;
                let (x, _) = self.expr()?;
                if !operand_shape_ok(&x, &self.s[start..self.c.pos], true) {
                    return Err(());
                }
                v.push(VecElem::Expr(x));
            }
            if !self.check(b',')? {
                break;
            }
        }
        self.eat(b'}')?;
        Ok(v)
    }

    // ---- expressions -----------------------------------------------------------------------

    fn symbol(&mut self) -> F<Expr> {
        self.skip()?;
        let span = self.span();
        let name = self.ident()?;
        self.skip()?;
        let comp = match self.component_end(self.c.pos) {
            Some(e) => {
                let t = self.text(self.c.pos + 1, e);
                self.c.pos = e;
                Some(t)
            }
            None => None,
        };
        Ok(Expr { kind: ExprKind::Sym(name, comp), span })
    }

    fn primary(&mut self) -> F<(Expr, usize)> {
        self.skip()?;
        let i = self.c.pos;
        let span = self.span();
        if let Some(e) = self.float_end(i) {
            self.c.pos = e;
            return Ok((Expr { kind: ExprKind::Float(FloatLit { text: self.text(i, e), span }), span }, 1));
        }
        if let Some(e) = self.int_end(i) {
            self.c.pos = e;
            return Ok((Expr { kind: ExprKind::Int(IntLit { text: self.text(i, e), span }), span }, 1));
        }
        if self.b[i..].starts_with(b"generic") {
            let save = self.c;
            self.c.pos += 7;
            let g = (|| {
                self.eat(b'(')?;
                let n = self.ident()?;
                self.eat(b')')?;
                Ok(n)
            })();
            match g {
                Ok(n) => return Ok((Expr { kind: ExprKind::Generic(n), span }, 1)),
                Err(()) => self.c = save,
            }
        }
        if self.ident_end(i).is_some() {
            return Ok((self.symbol()?, 1));
        }
        if self.peek() == b'(' {
            self.c.pos += 1;
            let r = self.expr()?;
            self.eat(b')')?;
            return Ok(r);
        }
        Err(())
    }

    fn unary(&mut self) -> F<(Expr, usize)> {
        self.skip()?;
        if !matches!(self.peek(), b'-' | b'!' | b'~') {
            return self.primary();
        }
        let mut ops = Vec::new();
        loop {
            self.skip()?;
            let op = match self.peek() {
                b'-' => UnOp::Neg,
                b'!' => UnOp::Not,
                b'~' => UnOp::BitNot,
                _ => break,
            };
            ops.push((op, self.span()));
            self.c.pos += 1;
        }
        // A hex float after a unary operator is a syntax error (see `unary` in grammar.pest).
        self.skip()?;
        let i = self.c.pos;
        if matches!(self.at(i), b'0')
            && matches!(self.at(i + 1), b'f' | b'F' | b'd' | b'D')
            && self.float_end(i).is_some()
        {
            return Err(());
        }
        let (mut e, mut depth) = self.primary()?;
        for (op, span) in ops.into_iter().rev() {
            depth += 1;
            if depth > limits::MAX_EXPR_DEPTH {
                self.hard = true;
                return Err(());
            }
            e = Expr { kind: ExprKind::Unary(op, Box::new(e)), span };
        }
        Ok((e, depth))
    }

    /// The `binop` rule at the cursor: the operator and its length.
    fn binop_here(&self) -> Option<(BinTok, usize)> {
        let i = self.c.pos;
        let (c, n) = (self.at(i), self.at(i + 1));
        Some(match c {
            b'*' => (BinTok::Bin(BinOp::Mul), 1),
            b'/' => (BinTok::Bin(BinOp::Div), 1),
            b'%' if !is_ic(n) => (BinTok::Bin(BinOp::Rem), 1),
            b'+' => (BinTok::Bin(BinOp::Add), 1),
            b'-' => (BinTok::Bin(BinOp::Sub), 1),
            b'<' if n == b'<' => (BinTok::Bin(BinOp::Shl), 2),
            b'>' if n == b'>' => (BinTok::Bin(BinOp::Shr), 2),
            b'<' if n == b'=' => (BinTok::Bin(BinOp::Le), 2),
            b'>' if n == b'=' => (BinTok::Bin(BinOp::Ge), 2),
            b'<' => (BinTok::Bin(BinOp::Lt), 1),
            b'>' => (BinTok::Bin(BinOp::Gt), 1),
            b'=' if n == b'=' => (BinTok::Bin(BinOp::Eq), 2),
            b'!' if n == b'=' => (BinTok::Bin(BinOp::Ne), 2),
            b'&' if n == b'&' => (BinTok::Bin(BinOp::And), 2),
            b'|' if n == b'|' => (BinTok::Bin(BinOp::Or), 2),
            b'&' => (BinTok::Bin(BinOp::BitAnd), 1),
            b'^' => (BinTok::Bin(BinOp::BitXor), 1),
            b'|' => (BinTok::Bin(BinOp::BitOr), 1),
            b'?' => (BinTok::Question, 1),
            b':' => (BinTok::Colon, 1),
            _ => return None,
        })
    }

    /// `unary (binop unary)*`, with precedence resolved exactly as the reference's builder
    /// does (an explicit operator stack; the same depth limit). Returns the tree and its depth.
    fn expr(&mut self) -> F<(Expr, usize)> {
        let first = self.unary()?;
        self.skip()?;
        if self.binop_here().is_none() {
            return Ok(first);
        }
        let mut out: Vec<(Expr, usize)> = vec![first];
        let mut ops: Vec<Op> = Vec::new();
        loop {
            self.skip()?;
            let Some((tok, len)) = self.binop_here() else { break };
            let save = self.c;
            let span = self.span();
            self.c.pos += len;
            let operand = match self.unary() {
                Ok(u) => u,
                Err(()) if self.hard => return Err(()),
                Err(()) => {
                    self.c = save;
                    break;
                }
            };
            let r = match tok {
                BinTok::Question => {
                    let mut r = Ok(());
                    while matches!(ops.last(), Some(Op::Bin(..))) {
                        if let Some(op) = ops.pop() {
                            r = r.and_then(|_| reduce(&mut out, op));
                        }
                    }
                    ops.push(Op::Question(span));
                    r
                }
                BinTok::Colon => {
                    let mut r = Ok(());
                    loop {
                        match ops.pop() {
                            Some(Op::Question(_)) => break,
                            Some(op) => {
                                r = r.and_then(|_| reduce(&mut out, op));
                            }
                            None => {
                                r = Err(());
                                break;
                            }
                        }
                    }
                    ops.push(Op::Colon);
                    r
                }
                BinTok::Bin(b) => {
                    let mut r = Ok(());
                    while let Some(Op::Bin(top)) = ops.last() {
                        if top.precedence() < b.precedence() {
                            break;
                        }
                        if let Some(op) = ops.pop() {
                            r = r.and_then(|_| reduce(&mut out, op));
                        }
                    }
                    ops.push(Op::Bin(b));
                    r
                }
            };
            if r.is_err() {
                self.hard = true;
                return Err(());
            }
            out.push(operand);
        }
        while let Some(op) = ops.pop() {
            if reduce(&mut out, op).is_err() {
                self.hard = true;
                return Err(());
            }
        }
        match (out.pop(), out.is_empty()) {
            (Some(e), true) => Ok(e),
            _ => {
                self.hard = true;
                Err(())
            }
        }
    }
}

enum DeclOrFn {
    Var(VarDecl),
    Function(Function),
}

#[derive(Clone, Copy)]
enum BinTok {
    Bin(BinOp),
    Question,
    Colon,
}

enum Op {
    Bin(BinOp),
    Question(#[allow(dead_code)] Span),
    Colon,
}

/// One reduction of the operator stack (as the reference builder's `reduce`); `Err` where the
/// reference fails (a missing operand, a `?` without `:`, the depth limit).
fn reduce(out: &mut Vec<(Expr, usize)>, op: Op) -> Result<(), ()> {
    match op {
        Op::Bin(b) => {
            let (r, dr) = out.pop().ok_or(())?;
            let (l, dl) = out.pop().ok_or(())?;
            let d = dl.max(dr) + 1;
            if d > limits::MAX_EXPR_DEPTH {
                return Err(());
            }
            let s = l.span;
            out.push((Expr { kind: ExprKind::Binary(b, Box::new(l), Box::new(r)), span: s }, d));
        }
        Op::Colon => {
            let (e, de) = out.pop().ok_or(())?;
            let (t, dt) = out.pop().ok_or(())?;
            let (c, dc) = out.pop().ok_or(())?;
            let d = dc.max(dt).max(de) + 1;
            if d > limits::MAX_EXPR_DEPTH {
                return Err(());
            }
            let s = c.span;
            out.push((Expr { kind: ExprKind::Cond(Box::new(c), Box::new(t), Box::new(e)), span: s }, d));
        }
        Op::Question(_) => return Err(()),
    }
    Ok(())
}

/// `hash_line = "#" (" "|"\t")* ("line" (" "|"\t")+)? DIGIT (!"\n" ANY)*`: its end.
fn hash_line_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let blank = |c: Option<&u8>| matches!(c, Some(b' ' | b'\t'));
    while blank(b.get(j)) {
        j += 1;
    }
    if b[j..].starts_with(b"line") && blank(b.get(j + 4)) {
        j += 4;
        while blank(b.get(j)) {
            j += 1;
        }
    }
    if !b.get(j).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    while j < b.len() && b[j] != b'\n' {
        j += 1;
    }
    Some(j)
}
