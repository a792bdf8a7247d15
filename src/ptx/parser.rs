//! Source text → [`Module`]: runs the pest grammar (`grammar.pest`) and builds the typed AST.
//!
//! Invariants:
//! - [`parse`] never panics. Every failure is one ptxas-format fatal [`Diagnostic`] (see
//!   [`super::syntax`] for the wording and the "near" token).
//! - Checks that ptxas makes before or outside its grammar run first, in ptxas's order: the
//!   NUL / non-ASCII byte scan, the `.version` / `.target` header check, the nesting limit.
//! - Recursion is bounded: the grammar recurses only through brackets, whose depth is checked
//!   beforehand ([`super::limits`]); expressions are built with an explicit operator stack and
//!   their tree depth is capped. Inputs nested deeper than [`limits::SMALL_STACK_DEPTH`] are
//!   parsed on a helper thread with a stack sized for [`limits::MAX_BRACE_NESTING`] braces and
//!   [`limits::MAX_NESTING`] other brackets.

use pest::Parser as _;
use pest::iterators::Pair;

use super::ast::*;
use super::limits;
use super::syntax::{self, ParseFailure};
use crate::cli::diag::Diagnostic;

mod grammar {
    #![allow(missing_docs)]
    /// The pest parser generated from `grammar.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "ptx/grammar.pest"]
    pub struct PtxGrammar;
}
use grammar::{PtxGrammar, Rule};

/// Parses PTX source. `file_name` is the name diagnostics print (`ptxas <file_name>, line N; ...`).
pub fn parse(src: &str, file_name: &str) -> Result<Module, Diagnostic> {
    parse_bytes(src.as_bytes(), file_name)
}

/// Parses PTX given as bytes (as read from a file): bytes that are not ASCII give ptxas's
/// `Unexpected non-ASCII character` error rather than a UTF-8 error.
///
/// The hand-written parser (`fast.rs`) runs first; where it returns no tree (every syntax
/// error, anything it does not model) the pest grammar decides, so every diagnostic is the
/// reference's.
pub fn parse_bytes(bytes: &[u8], file_name: &str) -> Result<Module, Diagnostic> {
    parse_with(bytes, file_name, true)
}

/// [`parse_bytes`] with the pest grammar only (the reference the fast path is checked against).
#[doc(hidden)]
pub fn parse_bytes_reference(bytes: &[u8], file_name: &str) -> Result<Module, Diagnostic> {
    parse_with(bytes, file_name, false)
}

/// The fast path alone, after the same pre-checks: `None` where [`parse_bytes`] would fall
/// back to the pest grammar (or fail a pre-check). For the differential test and benchmarks.
#[doc(hidden)]
pub fn parse_bytes_fast_only(bytes: &[u8]) -> Option<Module> {
    syntax::check_bytes(bytes).ok()?;
    let src = std::str::from_utf8(bytes).ok()?;
    syntax::check_header(src, "x").ok()?;
    let depth = limits::check_nesting(src).ok()?;
    with_stack(depth, || super::fast::parse(src), None)
}

fn parse_with(bytes: &[u8], file_name: &str, fast: bool) -> Result<Module, Diagnostic> {
    // 1. Byte scan (ptxas does this before tokenising anything).
    syntax::check_bytes(bytes)?;
    // ASCII only from here, so `from_utf8` cannot fail and byte columns are character columns.
    let src = std::str::from_utf8(bytes).map_err(|_| syntax::non_ascii_diag(1))?;
    // 2. Header directives, 3. nesting depth.
    syntax::check_header(src, file_name)?;
    let depth = limits::check_nesting(src).map_err(|f| syntax::diagnostic(src, file_name, f))?;
    // 4. Grammar and AST: the fast path, else the reference grammar.
    let run = || {
        if fast && let Some(m) = super::fast::parse(src) {
            return Ok(m);
        }
        parse_checked(src).map_err(|f| syntax::diagnostic(src, file_name, f))
    };
    with_stack(depth, run, Err(syntax::diagnostic(src, file_name, ParseFailure::MemoryExhausted(0))))
}

/// Runs `f` on this thread when the input's bracket depth is small, else on a helper thread
/// with a stack sized for [`limits::MAX_BRACE_NESTING`] + [`limits::MAX_NESTING`] levels; `failed` if that thread cannot run.
fn with_stack<T: Send>(depth: usize, f: impl FnOnce() -> T + Send, failed: T) -> T {
    if depth <= limits::SMALL_STACK_DEPTH {
        return f();
    }
    std::thread::scope(|s| match std::thread::Builder::new().stack_size(limits::BIG_STACK_BYTES).spawn_scoped(s, f) {
        Ok(handle) => handle.join().unwrap_or(failed),
        Err(_) => failed,
    })
}

fn parse_checked(src: &str) -> Result<Module, ParseFailure> {
    let mut pairs = PtxGrammar::parse(Rule::module, src).map_err(|e| ParseFailure::Syntax(error_position(src, &e)))?;
    let b = Builder { lines: LineIndex::new(src) };
    match pairs.next() {
        Some(module) => b.module(module),
        None => Err(ParseFailure::Syntax(0)),
    }
}

/// Where ptxas's parser would have stopped, from a pest failure.
///
/// pest's own position (`attempt_pos`) is the furthest *rule* attempt; it misses literals a rule
/// expected (a `)` or `]`). Its detailed mode also records literal attempts, but including
/// characters inside atomic tokens (after `1.5e` it expects a digit). So: re-run with detail,
/// and take the detailed position when it lies beyond the ptxas token at the rule position.
/// The detail switch is process-global in pest; a lock keeps concurrent re-runs deterministic
/// (other parses running meanwhile only collect extra detail, which does not change results).
fn error_position(src: &str, e: &pest::error::Error<Rule>) -> usize {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let at = match e.location {
        pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p,
    };
    let detailed = {
        let _guard = DETAIL.lock().unwrap_or_else(|p| p.into_inner());
        pest::set_error_detail(true);
        let r = PtxGrammar::parse(Rule::module, src);
        pest::set_error_detail(false);
        match r {
            Err(e) => e.parse_attempts().map(|a| a.max_position),
            Ok(_) => None,
        }
    };
    // A detailed position reached without crossing whitespace is inside one atomic token
    // (`1.5e`, an unterminated `"...`): ptxas's token is the one at the rule position.
    let crosses_space = |d: usize| src.as_bytes()[at.min(d)..d].iter().any(|c| c.is_ascii_whitespace());
    match (detailed, syntax::near_token(src, at)) {
        (Some(d), syntax::Near::Token(t, s)) if t != "\"" && d > s + t.len() && crosses_space(d) => d,
        _ => at,
    }
}

/// Line starts, for O(log n) offset → (line, column).
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(src: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(src.as_bytes()));
        LineIndex { starts }
    }
    fn span(&self, offset: usize) -> Span {
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line.saturating_sub(1)];
        Span { offset: offset as u32, line: line as u32, column: (offset - start + 1) as u32 }
    }
}

fn memchr_newlines(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().filter(|(_, c)| **c == b'\n').map(|(i, _)| i + 1)
}

struct Builder {
    lines: LineIndex,
}

type R<T> = Result<T, ParseFailure>;

fn ident_of(b: &Builder, p: Pair<'_, Rule>) -> Ident {
    Ident { name: p.as_str().to_string(), span: b.span(&p) }
}

impl Builder {
    fn span(&self, p: &Pair<'_, Rule>) -> Span {
        self.lines.span(p.as_span().start())
    }

    fn int(&self, p: Pair<'_, Rule>) -> IntLit {
        IntLit { text: p.as_str().to_string(), span: self.span(&p) }
    }

    fn module(&self, p: Pair<'_, Rule>) -> R<Module> {
        let mut version = None;
        let mut target = None;
        let mut address_size = None;
        let mut items = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::version => {
                    let span = self.span(&c);
                    let num = c.into_inner().next().map(|n| n.as_str().to_string()).unwrap_or_default();
                    let (major, minor) = num.split_once('.').unwrap_or((&num, ""));
                    version = Some(Version { major: major.into(), minor: minor.into(), span });
                }
                Rule::target => {
                    let span = self.span(&c);
                    target = Some(Target { names: c.into_inner().map(|n| ident_of(self, n)).collect(), span });
                }
                Rule::address_size => {
                    address_size = c.into_inner().next().map(|n| self.int(n));
                }
                Rule::EOI => {}
                _ => items.push(self.item(c)?),
            }
        }
        match (version, target) {
            (Some(version), Some(target)) => Ok(Module { version, target, address_size, items }),
            _ => Err(ParseFailure::Syntax(0)),
        }
    }

    fn item(&self, p: Pair<'_, Rule>) -> R<Item> {
        Ok(match p.as_rule() {
            Rule::function => Item::Function(self.function(p)?),
            Rule::module_var => Item::Var(self.var_stmt(p)?),
            Rule::file_dir => Item::File(self.file_dir(p)),
            Rule::section => Item::Section(self.section(p)?),
            Rule::pragma => Item::Pragma(self.pragma(p)),
            Rule::alias => {
                let span = self.span(&p);
                let mut it = p.into_inner();
                let (a, b) = (it.next(), it.next());
                match (a, b) {
                    (Some(a), Some(b)) => {
                        Item::Alias(Alias { alias: ident_of(self, a), aliasee: ident_of(self, b), span })
                    }
                    _ => return Err(ParseFailure::Syntax(span.offset as usize)),
                }
            }
            _ => return Err(ParseFailure::Syntax(p.as_span().start())),
        })
    }

    fn linkage(p: &Pair<'_, Rule>) -> Linkage {
        match p.as_str() {
            ".visible" => Linkage::Visible,
            ".extern" => Linkage::Extern,
            ".weak" => Linkage::Weak,
            _ => Linkage::Common,
        }
    }

    fn function(&self, p: Pair<'_, Rule>) -> R<Function> {
        let span = self.span(&p);
        let mut linkage = Vec::new();
        let mut f = None;
        let mut body = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::linkage => linkage.push(Self::linkage(&c)),
                Rule::entry_head | Rule::func_head => f = Some(self.head(c)?),
                Rule::body => body = Some(self.stmts(c)?),
                _ => {}
            }
        }
        let (kind, returns, name, params, directives) = f.ok_or(ParseFailure::Syntax(span.offset as usize))?;
        Ok(Function { linkage, kind, returns, name, params, directives, body, span })
    }

    #[allow(clippy::type_complexity)]
    fn head(
        &self,
        p: Pair<'_, Rule>,
    ) -> R<(FunctionKind, Option<Vec<Param>>, Ident, Option<Vec<Param>>, Vec<FuncDirective>)> {
        let kind = if p.as_rule() == Rule::entry_head { FunctionKind::Entry } else { FunctionKind::Func };
        let mut returns = None;
        let mut name = None;
        let mut params = None;
        let mut dirs = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::ret_params => returns = Some(self.params(c)?),
                Rule::ident => name = Some(ident_of(self, c)),
                Rule::params => params = Some(self.params(c)?),
                _ => dirs.push(self.func_dir(c)),
            }
        }
        let name = name.ok_or(ParseFailure::Syntax(0))?;
        Ok((kind, returns, name, params, dirs))
    }

    fn func_dir(&self, p: Pair<'_, Rule>) -> FuncDirective {
        let rule = p.as_rule();
        let ints: Vec<IntLit> = p.into_inner().map(|n| self.int(n)).collect();
        let first = || ints.first().cloned().unwrap_or(IntLit { text: "0".into(), span: Span::default() });
        match rule {
            Rule::maxntid => FuncDirective::MaxNTid(ints),
            Rule::reqntid => FuncDirective::ReqNTid(ints),
            Rule::reqnctapercluster => FuncDirective::ReqNCtaPerCluster(ints),
            Rule::minnctapersm => FuncDirective::MinNCtaPerSm(first()),
            Rule::maxnreg => FuncDirective::MaxNReg(first()),
            Rule::maxnctapersm => FuncDirective::MaxNCtaPerSm(first()),
            Rule::maxclusterrank => FuncDirective::MaxClusterRank(first()),
            Rule::explicitcluster => FuncDirective::ExplicitCluster,
            Rule::blocksareclusters => FuncDirective::BlocksAreClusters,
            Rule::abi_preserve => FuncDirective::AbiPreserve(first()),
            Rule::abi_preserve_control => FuncDirective::AbiPreserveControl(first()),
            _ => FuncDirective::NoReturn,
        }
    }

    fn params(&self, p: Pair<'_, Rule>) -> R<Vec<Param>> {
        p.into_inner().map(|c| self.param(c)).collect()
    }

    fn param(&self, p: Pair<'_, Rule>) -> R<Param> {
        let span = self.span(&p);
        let mut space = None;
        let (mut pre, mut post, mut ty, mut decl) = (Vec::new(), Vec::new(), None, None);
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::param_space => space = Some(StateSpace { text: c.as_str().to_string() }),
                Rule::var_type => ty = Some(Type { text: c.as_str().to_string() }),
                Rule::declarator => decl = Some(self.declarator(c)?),
                _ => {
                    let a = self.decl_attr(c);
                    if ty.is_none() { pre.push(a) } else { post.push(a) }
                }
            }
        }
        match (space, ty, decl) {
            (Some(space), Some(ty), Some(decl)) => Ok(Param { space, pre, ty, post, decl, span }),
            _ => Err(ParseFailure::Syntax(span.offset as usize)),
        }
    }

    fn decl_attr(&self, p: Pair<'_, Rule>) -> DeclAttr {
        match p.as_rule() {
            Rule::align => DeclAttr::Align(
                p.into_inner()
                    .next()
                    .map(|n| self.int(n))
                    .unwrap_or(IntLit { text: "0".into(), span: Span::default() }),
            ),
            Rule::vector => DeclAttr::Vector(p.as_str()[2..].parse().unwrap_or(0)),
            Rule::ptr => {
                let (mut space, mut align) = (None, None);
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::ptr_space => space = Some(c.as_str().to_string()),
                        _ => align = c.into_inner().next().map(|n| self.int(n)),
                    }
                }
                DeclAttr::Ptr { space, align }
            }
            _ => DeclAttr::Attribute(p.into_inner().map(|w| w.as_str().to_string()).collect()),
        }
    }

    fn var_stmt(&self, p: Pair<'_, Rule>) -> R<VarDecl> {
        let span = self.span(&p);
        let mut linkage = Vec::new();
        let mut decl = None;
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::linkage => linkage.push(Self::linkage(&c)),
                _ => decl = Some(c),
            }
        }
        let decl = decl.ok_or(ParseFailure::Syntax(span.offset as usize))?;
        let mut space = None;
        let (mut pre, mut post, mut ty, mut decls) = (Vec::new(), Vec::new(), None, Vec::new());
        for c in decl.into_inner() {
            match c.as_rule() {
                Rule::state_space => space = Some(StateSpace { text: c.as_str().to_string() }),
                Rule::var_type => ty = Some(Type { text: c.as_str().to_string() }),
                Rule::declarator => decls.push(self.declarator(c)?),
                _ => {
                    let a = self.decl_attr(c);
                    if ty.is_none() { pre.push(a) } else { post.push(a) }
                }
            }
        }
        match (space, ty) {
            (Some(space), Some(ty)) if !decls.is_empty() => Ok(VarDecl { linkage, space, pre, ty, post, decls, span }),
            _ => Err(ParseFailure::Syntax(span.offset as usize)),
        }
    }

    fn declarator(&self, p: Pair<'_, Rule>) -> R<Declarator> {
        let mut it = p.into_inner();
        let name = it.next().map(|n| ident_of(self, n)).ok_or(ParseFailure::Syntax(0))?;
        let mut shape = Shape::Scalar;
        let mut init = None;
        for c in it {
            match c.as_rule() {
                Rule::range => {
                    if let Some(n) = c.into_inner().next() {
                        shape = Shape::Range(self.int(n));
                    }
                }
                Rule::dims => {
                    let mut dims = Vec::new();
                    for d in c.into_inner() {
                        dims.push(match d.into_inner().next() {
                            Some(e) => Some(self.expr(e)?),
                            None => None,
                        });
                    }
                    shape = Shape::Array(dims);
                }
                _ => init = Some(self.initializer(c)?),
            }
        }
        Ok(Declarator { name, shape, init })
    }

    fn initializer(&self, p: Pair<'_, Rule>) -> R<Initializer> {
        match p.as_rule() {
            Rule::initializer => match p.into_inner().next() {
                Some(c) => self.initializer(c),
                None => Err(ParseFailure::Syntax(0)),
            },
            Rule::init_list => {
                let span = self.span(&p);
                let items = p.into_inner().map(|c| self.initializer(c)).collect::<R<Vec<_>>>()?;
                Ok(Initializer::List(items, span))
            }
            Rule::init_field => {
                let mut it = p.into_inner();
                match (it.next(), it.next()) {
                    (Some(n), Some(e)) => Ok(Initializer::Field(ident_of(self, n), self.expr(e)?)),
                    _ => Err(ParseFailure::Syntax(0)),
                }
            }
            _ => Ok(Initializer::Expr(self.expr(p)?)),
        }
    }

    fn file_dir(&self, p: Pair<'_, Rule>) -> FileDir {
        let span = self.span(&p);
        let mut index = None;
        let mut name = String::new();
        let mut extra = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::string => name = c.as_str().to_string(),
                _ if index.is_none() => index = Some(self.int(c)),
                _ => extra.push(self.int(c)),
            }
        }
        let index = index.unwrap_or(IntLit { text: "0".into(), span });
        FileDir { index, name, extra, span }
    }

    fn section(&self, p: Pair<'_, Rule>) -> R<Section> {
        let span = self.span(&p);
        // The closing brace: the token after the last entry.
        let close = self.lines.span(p.as_span().end().saturating_sub(1));
        let mut it = p.into_inner();
        let name = it.next().map(|n| n.as_str().to_string()).unwrap_or_default();
        let children: Vec<_> = it.collect();
        let mut entries = Vec::new();
        for (k, c) in children.iter().enumerate() {
            let next = children.get(k + 1).map_or(close, |n| self.span(n));
            match c.as_rule() {
                Rule::label => {
                    if let Some(n) = c.clone().into_inner().next() {
                        entries.push(SectionEntry::Label(ident_of(self, n)));
                    }
                }
                _ => entries.push(SectionEntry::Data(self.section_data(c.clone(), next)?)),
            }
        }
        Ok(Section { name, entries, span })
    }

    /// One data line; `next` is the token after it.
    fn section_data(&self, c: Pair<'_, Rule>, next: Span) -> R<SectionData> {
        let span = self.span(&c);
        let mut parts = c.into_inner();
        let ty = parts.next().map(|t| t.as_str().to_string()).unwrap_or_default();
        let mut values = Vec::new();
        let mut report = next;
        for v in parts {
            let vspan = self.span(&v);
            if v.as_rule() == Rule::section_int {
                let mut neg = None;
                let mut lit = None;
                for x in v.into_inner() {
                    match x.as_rule() {
                        Rule::neg => neg = Some(self.span(&x)),
                        _ => lit = Some(self.int(x)),
                    }
                }
                let lit = lit.ok_or(ParseFailure::Syntax(vspan.offset as usize))?;
                let int = Expr { span: lit.span, kind: ExprKind::Int(lit) };
                values.push(SectionValue::Expr(match neg {
                    Some(s) => Expr { kind: ExprKind::Unary(UnOp::Neg, Box::new(int)), span: s },
                    None => int,
                }));
                continue;
            }
            let inner: Vec<_> = v.into_inner().collect();
            let last = inner.last().map_or(vspan, |x| self.span(x));
            if inner.len() > 1 {
                report = last;
            }
            let sym = |x: &Pair<'_, Rule>| {
                let id = ident_of(self, x.clone());
                Expr { span: id.span, kind: ExprKind::Sym(id, None) }
            };
            values.push(match inner.as_slice() {
                [d] if d.as_rule() == Rule::section_dot => SectionValue::Section(d.as_str().to_string(), None),
                [d, off] if d.as_rule() == Rule::section_dot => {
                    SectionValue::Section(d.as_str().to_string(), Some(self.int(off.clone())))
                }
                [a] => SectionValue::Expr(sym(a)),
                [a, b] if b.as_rule() == Rule::ident => SectionValue::Expr(Expr {
                    span: vspan,
                    kind: ExprKind::Binary(BinOp::Sub, Box::new(sym(a)), Box::new(sym(b))),
                }),
                [a, off] => {
                    let lit = self.int(off.clone());
                    let int = Expr { span: lit.span, kind: ExprKind::Int(lit) };
                    SectionValue::Expr(Expr {
                        span: vspan,
                        kind: ExprKind::Binary(BinOp::Add, Box::new(sym(a)), Box::new(int)),
                    })
                }
                _ => return Err(ParseFailure::Syntax(vspan.offset as usize)),
            });
        }
        Ok(SectionData { ty, values, span, report })
    }

    fn pragma(&self, p: Pair<'_, Rule>) -> Pragma {
        let span = self.span(&p);
        Pragma { strings: p.into_inner().map(|s| s.as_str().to_string()).collect(), span }
    }

    fn stmts(&self, p: Pair<'_, Rule>) -> R<Vec<Statement>> {
        p.into_inner().map(|c| self.stmt(c)).collect()
    }

    fn stmt(&self, p: Pair<'_, Rule>) -> R<Statement> {
        let span = self.span(&p);
        Ok(match p.as_rule() {
            Rule::label => match p.into_inner().next() {
                Some(n) => Statement::Label(ident_of(self, n)),
                None => return Err(ParseFailure::Syntax(span.offset as usize)),
            },
            Rule::block => Statement::Block(self.stmts(p)?, span),
            Rule::loc => Statement::Loc(self.loc(p)),
            Rule::pragma => Statement::Pragma(self.pragma(p)),
            Rule::callprototype => {
                let (mut returns, mut params, mut directives) = (None, None, Vec::new());
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::ret_params => returns = Some(self.params(c)?),
                        Rule::params => params = Some(self.params(c)?),
                        Rule::sink => {}
                        _ => directives.push(self.func_dir(c)),
                    }
                }
                Statement::CallPrototype(CallPrototype { returns, params, directives, span })
            }
            Rule::calltargets => Statement::CallTargets(p.into_inner().map(|n| ident_of(self, n)).collect(), span),
            Rule::branchtargets => Statement::BranchTargets(p.into_inner().map(|n| ident_of(self, n)).collect(), span),
            Rule::function_decl => Statement::FuncDecl(self.function(p)?),
            Rule::var_decl_stmt => Statement::Var(self.var_stmt(p)?),
            Rule::instruction => Statement::Instruction(self.instruction(p)?),
            _ => return Err(ParseFailure::Syntax(span.offset as usize)),
        })
    }

    fn loc(&self, p: Pair<'_, Rule>) -> Loc {
        let span = self.span(&p);
        let mut ints = Vec::new();
        let mut attrs = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::integer => ints.push(self.int(c)),
                Rule::function_name => {
                    let mut it = c.into_inner();
                    if let Some(n) = it.next() {
                        attrs.push(LocAttr::FunctionName(ident_of(self, n), it.next().map(|o| self.int(o))));
                    }
                }
                _ => {
                    let v: Vec<IntLit> = c.into_inner().map(|n| self.int(n)).collect();
                    if let [a, b, c] = &v[..] {
                        attrs.push(LocAttr::InlinedAt(a.clone(), b.clone(), c.clone()));
                    }
                }
            }
        }
        let zero = IntLit { text: "0".into(), span };
        let mut it = ints.into_iter();
        let file = it.next().unwrap_or_else(|| zero.clone());
        let line = it.next().unwrap_or_else(|| zero.clone());
        let column = it.next().unwrap_or(zero);
        Loc { file, line, column, attrs, span }
    }

    fn instruction(&self, p: Pair<'_, Rule>) -> R<Instruction> {
        let span = self.span(&p);
        let mut guard = None;
        let mut opcode = None;
        let mut modifiers = Vec::new();
        let mut operands = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::guard => {
                    let mut negated = false;
                    let mut pred = None;
                    for g in c.into_inner() {
                        match g.as_rule() {
                            Rule::negate => negated = true,
                            _ => pred = Some(ident_of(self, g)),
                        }
                    }
                    if let Some(pred) = pred {
                        guard = Some(Guard { negated, pred });
                    }
                }
                Rule::opcode => opcode = Some(ident_of(self, c)),
                Rule::dot_word => modifiers.push(Modifier { text: c.as_str().to_string(), span: self.span(&c) }),
                Rule::comma | Rule::semi => {}
                _ => operands.push(self.operand(c)?),
            }
        }
        let opcode = opcode.ok_or(ParseFailure::Syntax(span.offset as usize))?;
        Ok(Instruction { guard, opcode, modifiers, operands, span })
    }

    fn vec_elems(&self, p: Pair<'_, Rule>) -> R<Vec<VecElem>> {
        p.into_inner()
            .map(|e| match e.as_rule() {
                Rule::sink => Ok(VecElem::Sink(self.span(&e))),
                _ => Ok(VecElem::Expr(self.expr(e)?)),
            })
            .collect()
    }

    fn dual_elem(&self, p: Pair<'_, Rule>) -> R<VecElem> {
        Ok(match p.as_rule() {
            Rule::sink => VecElem::Sink(self.span(&p)),
            _ => VecElem::Expr(self.expr(p)?),
        })
    }

    fn operand(&self, p: Pair<'_, Rule>) -> R<Operand> {
        let span = self.span(&p);
        Ok(match p.as_rule() {
            Rule::dual => {
                let mut it = p.into_inner();
                match (it.next(), it.next()) {
                    (Some(a), Some(b)) => Operand::Dual(self.dual_elem(a)?, self.dual_elem(b)?),
                    _ => return Err(ParseFailure::Syntax(span.offset as usize)),
                }
            }
            Rule::vec_operand => Operand::Vector(self.vec_elems(p)?, span),
            Rule::sink => Operand::Sink(span),
            Rule::address => {
                let mut elems = Vec::new();
                for e in p.into_inner() {
                    elems.push(match e.as_rule() {
                        Rule::vec_operand => AddrElem::Vector(self.vec_elems(e.clone())?, self.span(&e)),
                        _ => {
                            let mut it = e.into_inner();
                            let base = match it.next() {
                                Some(b) => self.expr(b)?,
                                None => return Err(ParseFailure::Syntax(span.offset as usize)),
                            };
                            let offset = match it.next() {
                                Some(o) => Some(self.expr(o)?),
                                None => None,
                            };
                            AddrElem::Term { base, offset }
                        }
                    });
                }
                Operand::Address(elems, span)
            }
            Rule::list_operand => {
                let mut elems = Vec::new();
                for e in p.into_inner() {
                    elems.push(match e.as_rule() {
                        Rule::vec_operand => ListElem::Vector(self.vec_elems(e.clone())?, self.span(&e)),
                        _ => ListElem::Expr(self.expr(e)?),
                    });
                }
                Operand::List(elems, span)
            }
            Rule::indexed => {
                let mut it = p.into_inner();
                match (it.next(), it.next()) {
                    (Some(n), Some(e)) => Operand::Indexed(ident_of(self, n), self.expr(e)?),
                    _ => return Err(ParseFailure::Syntax(span.offset as usize)),
                }
            }
            _ => Operand::Expr(self.expr(p)?),
        })
    }

    /// Builds an expression from `expr`, `unary`, `symbol`, literal, `generic` or `paren`
    /// pairs. Operators are resolved with an explicit stack (shunting-yard), so operator chains
    /// never recurse; only `( ... )` recurses, and bracket depth is bounded beforehand.
    fn expr(&self, p: Pair<'_, Rule>) -> R<Expr> {
        match p.as_rule() {
            Rule::expr | Rule::op_expr | Rule::const_expr => self.expr_list(p),
            Rule::unary | Rule::sym_unary | Rule::const_unary => {
                let mut ops = Vec::new();
                let mut prim = None;
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::unop => ops.push((c.as_str().to_string(), self.span(&c))),
                        _ => prim = Some(c),
                    }
                }
                let mut e = match prim {
                    Some(c) => self.expr(c)?,
                    None => return Err(ParseFailure::Syntax(0)),
                };
                let mut depth = depth_of(&e);
                for (op, span) in ops.into_iter().rev() {
                    let op = match op.as_str() {
                        "-" => UnOp::Neg,
                        "!" => UnOp::Not,
                        _ => UnOp::BitNot,
                    };
                    depth += 1;
                    if depth > limits::MAX_EXPR_DEPTH {
                        return Err(ParseFailure::MemoryExhausted(span.offset as usize));
                    }
                    e = Expr { kind: ExprKind::Unary(op, Box::new(e)), span };
                }
                Ok(e)
            }
            Rule::integer => {
                let span = self.span(&p);
                Ok(Expr { kind: ExprKind::Int(self.int(p)), span })
            }
            Rule::float => {
                let span = self.span(&p);
                Ok(Expr { kind: ExprKind::Float(FloatLit { text: p.as_str().to_string(), span }), span })
            }
            Rule::generic => {
                let span = self.span(&p);
                match p.into_inner().next() {
                    Some(n) => Ok(Expr { kind: ExprKind::Generic(ident_of(self, n)), span }),
                    None => Err(ParseFailure::Syntax(span.offset as usize)),
                }
            }
            Rule::symbol => {
                let span = self.span(&p);
                let mut it = p.into_inner();
                let name = it.next().map(|n| ident_of(self, n)).ok_or(ParseFailure::Syntax(span.offset as usize))?;
                let comp = it.next().map(|c| c.as_str()[1..].to_string());
                Ok(Expr { kind: ExprKind::Sym(name, comp), span })
            }
            Rule::paren | Rule::const_paren => match p.into_inner().next() {
                Some(e) => self.expr(e),
                None => Err(ParseFailure::Syntax(0)),
            },
            _ => Err(ParseFailure::Syntax(p.as_span().start())),
        }
    }

    fn expr_list(&self, p: Pair<'_, Rule>) -> R<Expr> {
        enum Op {
            Bin(BinOp, Span),
            Question(Span),
            Colon(Span),
        }
        fn reduce(out: &mut Vec<(Expr, usize)>, op: Op) -> R<()> {
            let err_at = |s: Span| ParseFailure::Syntax(s.offset as usize);
            match op {
                Op::Bin(b, span) => {
                    let (r, dr) = out.pop().ok_or(err_at(span))?;
                    let (l, dl) = out.pop().ok_or(err_at(span))?;
                    let d = dl.max(dr) + 1;
                    if d > limits::MAX_EXPR_DEPTH {
                        return Err(ParseFailure::MemoryExhausted(span.offset as usize));
                    }
                    let s = l.span;
                    out.push((Expr { kind: ExprKind::Binary(b, Box::new(l), Box::new(r)), span: s }, d));
                }
                Op::Colon(span) => {
                    let (e, de) = out.pop().ok_or(err_at(span))?;
                    let (t, dt) = out.pop().ok_or(err_at(span))?;
                    let (c, dc) = out.pop().ok_or(err_at(span))?;
                    let d = dc.max(dt).max(de) + 1;
                    if d > limits::MAX_EXPR_DEPTH {
                        return Err(ParseFailure::MemoryExhausted(span.offset as usize));
                    }
                    let s = c.span;
                    out.push((Expr { kind: ExprKind::Cond(Box::new(c), Box::new(t), Box::new(e)), span: s }, d));
                }
                // A `?` without its `:` is a syntax error at the end of the expression.
                Op::Question(span) => return Err(err_at(span)),
            }
            Ok(())
        }
        let end = p.as_span().end();
        let mut out: Vec<(Expr, usize)> = Vec::new();
        let mut ops: Vec<Op> = Vec::new();
        for c in p.into_inner() {
            if c.as_rule() != Rule::binop {
                let e = self.expr(c)?;
                let d = depth_of(&e);
                out.push((e, d));
                continue;
            }
            let span = self.span(&c);
            match c.as_str() {
                "?" => {
                    while matches!(ops.last(), Some(Op::Bin(..))) {
                        let op = ops.pop().ok_or(ParseFailure::Syntax(0))?;
                        reduce(&mut out, op)?;
                    }
                    ops.push(Op::Question(span));
                }
                ":" => {
                    loop {
                        match ops.pop() {
                            Some(Op::Question(_)) => break,
                            Some(op) => reduce(&mut out, op)?,
                            None => return Err(ParseFailure::Syntax(span.offset as usize)),
                        }
                    }
                    ops.push(Op::Colon(span));
                }
                s => {
                    let b = BinOp::from_symbol(s).ok_or(ParseFailure::Syntax(span.offset as usize))?;
                    while let Some(Op::Bin(top, _)) = ops.last() {
                        if top.precedence() < b.precedence() {
                            break;
                        }
                        let op = ops.pop().ok_or(ParseFailure::Syntax(0))?;
                        reduce(&mut out, op)?;
                    }
                    ops.push(Op::Bin(b, span));
                }
            }
        }
        while let Some(op) = ops.pop() {
            if let Op::Question(_) = op {
                return Err(ParseFailure::Syntax(end));
            }
            reduce(&mut out, op)?;
        }
        match (out.pop(), out.is_empty()) {
            (Some((e, _)), true) => Ok(e),
            _ => Err(ParseFailure::Syntax(end)),
        }
    }
}

/// Depth of an expression tree, iteratively (no recursion on input-controlled depth).
fn depth_of(e: &Expr) -> usize {
    let mut max = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, d)) = stack.pop() {
        max = max.max(d);
        match &e.kind {
            ExprKind::Unary(_, a) => stack.push((a, d + 1)),
            ExprKind::Binary(_, a, b) => {
                stack.push((a, d + 1));
                stack.push((b, d + 1));
            }
            ExprKind::Cond(a, b, c) => {
                stack.push((a, d + 1));
                stack.push((b, d + 1));
                stack.push((c, d + 1));
            }
            _ => {}
        }
    }
    max
}
