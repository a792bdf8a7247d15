//! Module items: variables, functions (declarations, definitions, performance directives,
//! parameter space), `.alias`, `.pragma`, `.file`; and a function body's walk, which hands each
//! instruction to [`super::instr`].
//!
//! Lines follow ptxas: a `.func`'s header checks are reported on the line of the token after
//! its header (the `{` or `;`), an `.entry`'s duplicate on its name's line, end-of-function
//! checks (`.maxntid`/`.reqntid`, parameter space, `.blocksareclusters`, `.minnctapersm`) on
//! the closing `}`.

use std::collections::{HashMap, HashSet};

use super::messages as msg;
use super::scope::{FuncScope, FuncSym, Global};
use super::{Ctx, Fatal, Options, Sink};
use crate::ptx::ast::*;

/// Facts gathered for the compile-stage checks.
#[derive(Debug, Default)]
pub struct Late {
    /// `.target debug` given.
    pub debug_target: bool,
    /// A DWARF section or `.file` exists.
    pub has_dwarf: bool,
    /// `.address_size 32`.
    pub address_size_32: bool,
    /// Module `.shared` bytes.
    pub module_shared: u64,
    /// `(entry, own .shared bytes)`.
    pub entry_shared: Vec<(String, u64)>,
    /// Module `.const` bytes.
    pub const_bytes: u64,
    /// `.extern` functions that are called.
    pub called_externs: Vec<String>,
    /// Module `.extern` `.global`/`.const` variables, in declaration
    /// order, and whether their size is known: whole-program compilation gives each a warning
    /// and defines it; one of unknown size (`e[]`) is fatal.
    pub extern_vars: Vec<(String, bool)>,
    /// Entries whose `.maxnreg` is over the limit.
    pub maxnreg_too_big: Vec<String>,
    /// ptxas expanded its `<macro util>` source (see [`crate::ptx::isa::table::MACRO_UTIL`]).
    pub macro_util: bool,
}

/// Module-scope symbol table plus bookkeeping.
#[derive(Debug, Default)]
pub struct Module {
    /// Symbols by name.
    pub globals: HashMap<String, Global>,
    files: HashSet<String>,
    aliased: HashMap<String, String>,
    /// Labels defined in DWARF sections (one namespace across sections).
    section_labels: HashSet<String>,
}

/// Size in bytes of a type keyword (`.u32` → 4); opaque and unknown types count 8.
pub fn type_size(ty: &str) -> u64 {
    match ty.trim_start_matches('.') {
        "b8" | "u8" | "s8" | "pred" | "e4m3" | "e5m2" => 1,
        "b16" | "u16" | "s16" | "f16" | "bf16" => 2,
        "b32" | "u32" | "s32" | "f32" | "f16x2" | "bf16x2" | "tf32" => 4,
        "b128" => 16,
        _ => 8,
    }
}

fn int_of(e: &Expr) -> Option<u64> {
    match &e.kind {
        ExprKind::Int(i) => i.value(),
        _ => None,
    }
}

fn align_of(attrs: &[DeclAttr]) -> Option<&IntLit> {
    attrs.iter().find_map(|a| if let DeclAttr::Align(n) = a { Some(n) } else { None })
}

fn vector_of(attrs: &[DeclAttr]) -> u64 {
    attrs.iter().find_map(|a| if let DeclAttr::Vector(n) = a { Some(*n as u64) } else { None }).unwrap_or(1)
}

/// The checks of a variable's (or parameter's) type in its state space, as ptxas makes them
/// (probed): the types only instructions take (the fp8/fp6/fp4 pairs, `.ue8m0x2`, `.s16x2`,
/// `.u16x2`, and `.e4m3`/`.e5m2`) are `Type ... may only be used as an instruction type`; in
/// `.param` space these and the `.f16x2` pair also `Variable ... cannot be allocated in .param
/// state space`.
fn type_of_variable(ty: &str, space: &str, name: &str, line: u32, sink: &mut Sink) -> Result<(), Fatal> {
    const INSTRUCTION_ONLY: &[&str] =
        &[".e4m3", ".e5m2", ".e4m3x2", ".e5m2x2", ".e2m1x2", ".e2m3x2", ".e3m2x2", ".ue8m0x2", ".s16x2", ".u16x2"];
    let instruction_only = INSTRUCTION_ONLY.contains(&ty);
    if instruction_only {
        sink.at(line, msg::INSTRUCTION_ONLY_TYPE, &[ty])?;
    }
    if space == ".param" && (instruction_only || ty == ".f16x2") {
        sink.at(line, msg::PARAM_TYPE, &[name])?;
    }
    Ok(())
}

/// Bytes of one declarator (`None` for an incomplete array: a `[]` or `[0]` dimension, as
/// ptxas counts them). A dimension whose literal overflows counts as 1: ptxas reports only the
/// `Constant overflow` for it.
fn decl_size(ty: &Type, pre: &[DeclAttr], post: &[DeclAttr], d: &Declarator) -> Option<u64> {
    let mut n = type_size(&ty.text).saturating_mul(vector_of(pre).max(vector_of(post)));
    if let Shape::Array(dims) = &d.shape {
        for dim in dims {
            let dim = dim.as_ref()?;
            let k = match &dim.kind {
                ExprKind::Int(i) => i.value().unwrap_or(1),
                _ => int_of(dim)?,
            };
            if k == 0 {
                return None;
            }
            n = n.saturating_mul(k);
        }
    }
    Some(n)
}

fn param_sig(params: &Option<Vec<Param>>) -> Vec<(String, u64)> {
    params
        .iter()
        .flatten()
        .map(|p| {
            let size = decl_size(&p.ty, &p.pre, &p.post, &p.decl).unwrap_or(0);
            let align = align_of(&p.pre).or(align_of(&p.post)).and_then(IntLit::value).unwrap_or(0);
            let ty = if matches!(p.decl.shape, Shape::Array(_)) {
                format!("{}[{size}]", p.ty.text)
            } else {
                p.ty.text.clone()
            };
            (ty, align)
        })
        .collect()
}

/// Walks every module item in order.
pub fn check_items(
    m: &crate::ptx::ast::Module,
    ctx: &mut Ctx<'_>,
    sink: &mut Sink,
    late: &mut Late,
    opts: &Options,
) -> Result<(), Fatal> {
    let _ = opts;
    late.debug_target = m.target.names.iter().any(|n| n.name == "debug");
    late.address_size_32 = m.address_size.as_ref().and_then(IntLit::value) == Some(32);
    let mut md = Module::default();
    for item in &m.items {
        match item {
            Item::Var(v) => var_decl(v, true, ctx, sink, &mut md, late, None)?,
            Item::Function(f) => function(f, ctx, sink, &mut md, late)?,
            Item::File(f) => {
                late.has_dwarf = true;
                if !md.files.insert(f.index.text.clone()) {
                    let idx = f.index.value().map_or(f.index.text.clone(), |v| v.to_string());
                    sink.at(f.span.line, msg::DUPLICATE_FILE, &[&idx])?;
                }
            }
            Item::Section(sec) => {
                late.has_dwarf = true;
                section(sec, sink, &mut md.section_labels)?;
            }
            Item::Pragma(p) => module_pragma(p, sink)?,
            Item::Alias(a) => alias(a, ctx, sink, &mut md)?,
        }
    }
    Ok(())
}

/// A DWARF section's checks: labels unique across all sections; symbolic values only in `.b32`
/// and `.b64` lines; integers within their type (`.b8`/`.b16` either signed or unsigned,
/// `.b32` bounded below only, as ptxas 13.0.88 checks them).
fn section(s: &Section, sink: &mut Sink, labels: &mut HashSet<String>) -> Result<(), Fatal> {
    for e in &s.entries {
        match e {
            SectionEntry::Label(l) => {
                if !labels.insert(l.name.clone()) {
                    sink.at(l.span.line, msg::DUPLICATE_LABEL, &[&l.name])?;
                }
            }
            SectionEntry::Data(d) => {
                let narrow = matches!(d.ty.as_str(), ".b8" | ".b16");
                for v in &d.values {
                    match v {
                        SectionValue::Expr(Expr { kind: ExprKind::Int(lit), .. }) => {
                            if let Some(x) = lit.value().and_then(|x| i128::try_from(x).ok()) {
                                section_int(d, x, sink)?;
                            }
                        }
                        SectionValue::Expr(Expr { kind: ExprKind::Unary(UnOp::Neg, inner), .. }) => {
                            if let ExprKind::Int(lit) = &inner.kind
                                && let Some(x) = lit.value()
                            {
                                section_int(d, -i128::from(x), sink)?;
                            }
                        }
                        _ if narrow => sink.at(d.report.line, msg::DWARF_TYPE, &[])?,
                        _ => {}
                    }
                }
            }
        }
    }
    Ok(())
}

fn section_int(d: &SectionData, x: i128, sink: &mut Sink) -> Result<(), Fatal> {
    let (lo, hi): (i128, i128) = match d.ty.as_str() {
        ".b8" => (-(1 << 7), (1 << 8) - 1),
        ".b16" => (-(1 << 15), (1 << 16) - 1),
        ".b32" => (-(1 << 31), i128::MAX),
        _ => (i128::MIN, i128::MAX),
    };
    if x < lo || x > hi {
        sink.at(d.report.line, msg::DWARF_RANGE, &[&d.ty, &x.to_string()])?;
    }
    Ok(())
}

/// Pragmas ptxas knows (first word).
const KNOWN_PRAGMAS: &[&str] = &[
    "nounroll",
    "used_bytes_mask",
    "enable_smem_spilling",
    "local_maxnreg",
    "frequency",
    "CtaReconfigMaxRegAlloc",
    "CtaReconfigMaxRegDealloc",
    "dynamic_smem_size",
    "call_coroutine",
    "confirm",
    "predict",
    "call_abi_param_reg",
    "retaddr_reg_before_param_reg",
    "call_retaddr_reg",
    "call_scratch_regs",
    "call_abi_preserve",
    "call_abi_preserve_control",
    "call_allow_conv_alloc",
    "noPointerTrunc",
];
/// Pragmas that need an argument.
const PRAGMAS_WITH_ARG: &[&str] = &["used_bytes_mask", "local_maxnreg", "frequency", "dynamic_smem_size"];

fn unquote(s: &str) -> &str {
    s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(s)
}

fn module_pragma(p: &Pragma, sink: &mut Sink) -> Result<(), Fatal> {
    if !sink.compiles {
        return Ok(());
    }
    for s in &p.strings {
        let text = unquote(s);
        let word = text.split_whitespace().next().unwrap_or("");
        if !KNOWN_PRAGMAS.contains(&word) {
            sink.late(msg::PRAGMA_NOT_SUPPORTED, &[text])?;
        } else if PRAGMAS_WITH_ARG.contains(&word) && text.split_whitespace().nth(1).is_none() {
            sink.late(msg::PRAGMA_EMPTY, &[word])?;
        }
    }
    Ok(())
}

fn function_pragma(p: &Pragma, fname: &str, seen_local_maxnreg: &mut bool, sink: &mut Sink) -> Result<(), Fatal> {
    for s in &p.strings {
        let text = unquote(s);
        let mut words = text.split_whitespace();
        let word = words.next().unwrap_or("");
        if !KNOWN_PRAGMAS.contains(&word) {
            sink.at(p.span.line, msg::PRAGMA_UNSUPPORTED, &[text])?;
            continue;
        }
        if PRAGMAS_WITH_ARG.contains(&word) && words.clone().next().is_none() && sink.compiles {
            sink.late(msg::PRAGMA_EMPTY, &[word])?;
            continue;
        }
        if word == "local_maxnreg" {
            if *seen_local_maxnreg && sink.compiles {
                sink.at(p.span.line, msg::LOCAL_MAXNREG_TWICE, &[fname])?;
            }
            *seen_local_maxnreg = true;
            if let Some(v) = words.next()
                && v.parse::<u64>().is_err()
            {
                sink.unlocated(msg::PRAGMA_BAD_VALUE, &[v, text])?;
            }
        }
    }
    Ok(())
}

fn alias(a: &Alias, _ctx: &Ctx<'_>, sink: &mut Sink, md: &mut Module) -> Result<(), Fatal> {
    let line = a.span.line;
    let (al, to) = (a.alias.name.as_str(), a.aliasee.name.as_str());
    if al == to {
        return sink.at(line, msg::ALIAS_SELF, &[]);
    }
    if let Some(prev) = md.aliased.get(al) {
        let prev = prev.clone();
        return sink.at(line, msg::ALIAS_TWICE, &[al, &prev]);
    }
    match md.globals.get(to) {
        Some(Global::Var { .. }) => return sink.at(line, msg::ALIAS_VARIABLE, &[to]),
        Some(Global::Func(f)) if f.entry => return sink.at(line, msg::ALIAS_ENTRY, &[to]),
        _ => {}
    }
    if let Some(Global::Func(f)) = md.globals.get(al)
        && f.defined
    {
        return sink.at(line, msg::ALIAS_REDEFINITION, &[al]);
    }
    if let (Some(Global::Func(x)), Some(Global::Func(y))) = (md.globals.get(al), md.globals.get(to)) {
        let (x, y) = (x.clone(), y.clone());
        if x.params.len() != y.params.len() || x.returns.len() != y.returns.len() {
            sink.at(line, msg::ALIAS_MISMATCH, &[al, to, "parameter count"])?;
        } else {
            if x.params.iter().zip(&y.params).any(|(p, q)| p.0 != q.0)
                || x.returns.iter().zip(&y.returns).any(|(p, q)| p.0 != q.0)
            {
                sink.at(line, msg::ALIAS_MISMATCH, &[al, to, "parameter types"])?;
            }
            if x.params.iter().zip(&y.params).any(|(p, q)| p.1 != q.1)
                || x.returns.iter().zip(&y.returns).any(|(p, q)| p.1 != q.1)
            {
                sink.at(line, msg::ALIAS_MISMATCH, &[al, to, "parameter alignment"])?;
            }
        }
    }
    if md.version_lt(_ctx, 63) {
        sink.at(line, msg::FEATURE_PTX, &[".alias", "6.3"])?;
    }
    md.aliased.insert(al.to_string(), to.to_string());
    Ok(())
}

impl Module {
    fn version_lt(&self, ctx: &Ctx<'_>, v: u32) -> bool {
        ctx.version < v
    }
}

/// Checks one variable declaration and enters it in the right table.
fn var_decl(
    v: &VarDecl,
    module_scope: bool,
    ctx: &Ctx<'_>,
    sink: &mut Sink,
    md: &mut Module,
    late: &mut Late,
    mut fs: Option<&mut FuncScope>,
) -> Result<(), Fatal> {
    let line = v.span.line;
    let space = v.space.text.as_str();
    let is_extern = v.linkage.contains(&Linkage::Extern);
    for d in &v.decls {
        type_of_variable(&v.ty.text, space, &d.name.name, line, sink)?;
    }
    if module_scope && matches!(space, ".global" | ".const") {
        for d in &v.decls {
            let name = &d.name.name;
            // A later definition does not silence it (probed: `.extern` then `.visible`).
            if is_extern && !late.extern_vars.iter().any(|(x, _)| x == name) {
                let sized = decl_size(&v.ty, &v.pre, &v.post, d).is_some();
                late.extern_vars.push((name.clone(), sized));
            }
        }
    }
    if let Some(a) = align_of(&v.pre).or(align_of(&v.post))
        && a.value().is_none_or(|n| n == 0 || !n.is_power_of_two())
    {
        sink.at(line, msg::ALIGN_POW2, &[])?;
    }
    if v.linkage.contains(&Linkage::Common) && space != ".global" {
        sink.at(line, msg::COMMON_SPACE, &[])?;
    }
    if space == ".tex" && ctx.version >= 15 {
        sink.at(line, msg::DEPRECATED, &[".tex", "1.5"])?;
    }
    if v.ty.text == ".samplerref" && !ctx.texmode_independent {
        sink.at(line, msg::TEXMODE_UNIFIED, &[])?;
    }
    if v.ty.text == ".b128" && ctx.version < 83 {
        sink.at(line, msg::FEATURE_PTX, &["Type .b128", "8.3"])?;
    }
    for a in v.pre.iter().chain(&v.post) {
        if let DeclAttr::Attribute(words) = a
            && words.iter().any(|w| w == ".managed")
            && space != ".global"
            && let Some(d) = v.decls.first()
        {
            sink.at(line, msg::ILLEGAL_ATTRIBUTE, &[".managed", &d.name.name])?;
        }
    }
    // Initializers only in `.global` and `.const`, each declarator in turn (probed: before the
    // module-scope space checks, after the alignment check).
    if !matches!(space, ".global" | ".const") {
        for d in v.decls.iter().filter(|d| d.init.is_some()) {
            sink.at(line, msg::NO_INIT_IN_SPACE, &[&d.name.name])?;
        }
    }
    // A vector of more than 128 bits (probed: `.v4 .b64`, `.v2 .b128` in every space).
    let known = matches!(
        v.ty.text.trim_start_matches('.'),
        "b8" | "u8"
            | "s8"
            | "b16"
            | "u16"
            | "s16"
            | "f16"
            | "bf16"
            | "b32"
            | "u32"
            | "s32"
            | "f32"
            | "b64"
            | "u64"
            | "s64"
            | "f64"
            | "b128"
    );
    if known && type_size(&v.ty.text).saturating_mul(vector_of(&v.pre).max(vector_of(&v.post))) > 16 {
        sink.at(line, msg::VECTOR_TOO_LARGE, &[])?;
    }
    if v.ty.text == ".pred" {
        if vector_of(&v.pre) > 1 || vector_of(&v.post) > 1 {
            sink.at(line, msg::PRED_SCALAR, &[])?;
        } else if space != ".reg" {
            for d in &v.decls {
                sink.at(line, msg::PRED_SPACE, &[&d.name.name])?;
            }
        }
    }
    if module_scope && space == ".param" {
        sink.at(line, msg::PARAM_MODULE_SCOPE, &[])?;
    }
    if module_scope && space == ".local" {
        sink.at(line, msg::MODULE_SCOPE_SPACE, &[".local"])?;
    }
    for d in &v.decls {
        let name = d.name.name.as_str();
        let size = decl_size(&v.ty, &v.pre, &v.post, d);
        if size.is_none() && !is_extern && d.init.is_none() {
            sink.at(line, msg::INCOMPLETE_TYPE, &[name])?;
        }
        if let Some(init) = &d.init {
            initializer(init, v, d, ctx, sink, md, fs.as_deref())?;
        }
        let bytes = size.unwrap_or(0);
        match space {
            ".shared" if module_scope => late.module_shared = late.module_shared.saturating_add(bytes),
            ".shared" => {
                if let Some(e) = late.entry_shared.last_mut() {
                    e.1 = e.1.saturating_add(bytes);
                }
            }
            ".const" => late.const_bytes = late.const_bytes.saturating_add(bytes),
            _ => {}
        }
        match fs.as_deref_mut() {
            Some(fs) => {
                // Registers are recorded by their type alone; other variables carry their
                // space first (`.shared .b8`), so operand checks can tell them apart.
                let ty = if space == ".reg" { v.ty.text.clone() } else { format!("{space} {}", v.ty.text) };
                let ok = match &d.shape {
                    Shape::Range(n) => {
                        // ptxas takes the count as 32 bits: a value whose high word is neither
                        // 0 nor all ones overflows (`%r<10000000000>`; `%r<0xffffffff00000000>`
                        // passes, as 0).
                        let v = n.value().unwrap_or(0);
                        if n.value().is_some() && !matches!(v >> 32, 0 | 0xffff_ffff) {
                            sink.at(n.span.line, msg::CONSTANT_OVERFLOW, &[])?;
                        }
                        fs.declare_range(name, v & 0xffff_ffff, &ty)
                    }
                    _ => fs.declare(name, &ty),
                };
                if !ok {
                    sink.at(line, msg::DUPLICATE_VARIABLE, &[name])?;
                }
            }
            None => match md.globals.get(name) {
                Some(Global::Var { space: s, ty, is_extern: e }) => {
                    if s != space || ty != &v.ty.text {
                        sink.at(line, msg::INCONSISTENT_VARIABLE, &[name])?;
                    } else if !e && !is_extern {
                        sink.at(line, msg::DUPLICATE_VARIABLE, &[name])?;
                    }
                }
                Some(Global::Func(_)) => {
                    sink.at(line, msg::INCONSISTENT_VARIABLE, &[name])?;
                }
                None => {
                    md.globals.insert(
                        name.to_string(),
                        Global::Var { space: space.to_string(), ty: v.ty.text.clone(), is_extern },
                    );
                }
            },
        }
    }
    Ok(())
}

fn count_elems(i: &Initializer) -> usize {
    match i {
        Initializer::List(v, _) => v.len(),
        _ => 1,
    }
}

fn initializer(
    init: &Initializer,
    v: &VarDecl,
    d: &Declarator,
    ctx: &Ctx<'_>,
    sink: &mut Sink,
    md: &Module,
    fs: Option<&FuncScope>,
) -> Result<(), Fatal> {
    let _ = ctx;
    let line = v.span.line;
    if v.ty.text == ".f16" || v.ty.text == ".bf16" {
        return sink.at(line, msg::F16_INIT, &[]);
    }
    let vec = vector_of(&v.pre).max(vector_of(&v.post));
    if let Shape::Array(dims) = &d.shape
        && let Some(Some(first)) = dims.first()
        && let Some(n) = int_of(first)
        && count_elems(init) as u64 > n
    {
        return sink.at(line, msg::INIT_TOO_MANY, &[]);
    }
    if vec > 1 && matches!(d.shape, Shape::Scalar) && count_elems(init) as u64 != vec {
        return sink.at(line, msg::INIT_VECTOR_COUNT, &[]);
    }
    let is_int_ty = !matches!(v.ty.text.as_str(), ".f32" | ".f64" | ".f16" | ".bf16");
    let mut stack = vec![init];
    while let Some(i) = stack.pop() {
        match i {
            Initializer::List(v, _) => stack.extend(v.iter()),
            Initializer::Field(_, e) | Initializer::Expr(e) => init_expr(e, is_int_ty, line, sink, md, fs)?,
        }
    }
    Ok(())
}

fn init_expr(
    e: &Expr,
    is_int: bool,
    line: u32,
    sink: &mut Sink,
    md: &Module,
    fs: Option<&FuncScope>,
) -> Result<(), Fatal> {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Float(_) if is_int => return sink.at(line, msg::INIT_TYPE_MISMATCH, &[]),
            ExprKind::Binary(op, a, b) => {
                if matches!(op, BinOp::Div | BinOp::Rem) && int_of(b) == Some(0) {
                    return sink.at(line, msg::INIT_DIV_ZERO, &[]);
                }
                stack.push(a);
                stack.push(b);
            }
            ExprKind::Unary(_, a) => stack.push(a),
            ExprKind::Cond(a, b, c) => stack.extend([a.as_ref(), b.as_ref(), c.as_ref()]),
            ExprKind::Sym(id, _) | ExprKind::Generic(id) => match md.globals.get(&id.name) {
                Some(Global::Var { space, .. }) if space != ".global" && space != ".const" => {
                    return sink.at(line, msg::INIT_SPACE, &[]);
                }
                Some(_) => {}
                None if fs.is_some_and(|f| f.lookup(&id.name).is_some()) => return sink.at(line, msg::INIT_SPACE, &[]),
                None => return sink.at(line, msg::INVALID_INIT_SYMBOL, &[&id.name]),
            },
            _ => {}
        }
    }
    Ok(())
}

fn dir_values(v: &[IntLit]) -> Vec<u64> {
    v.iter().map(|n| n.value().unwrap_or(0)).collect()
}

/// Checks a function: its declaration against earlier ones, its directives and its body.
fn function(f: &Function, ctx: &mut Ctx<'_>, sink: &mut Sink, md: &mut Module, late: &mut Late) -> Result<(), Fatal> {
    let name = f.name.name.as_str();
    let entry = f.kind == FunctionKind::Entry;
    let (open, close) = ctx.src.body_braces(f.name.span.offset as usize);
    let (open_line, close_line) = (ctx.src.line(open), ctx.src.line(close));
    let head_line = if entry { f.name.span.line } else { open_line };
    let is_extern = f.linkage.contains(&Linkage::Extern);
    let defined = f.body.is_some();
    let sym = FuncSym {
        entry,
        is_extern,
        defined,
        params: param_sig(&f.params),
        param_names: f.params.iter().flatten().map(|p| p.decl.name.name.clone()).collect(),
        returns: param_sig(&f.returns),
        has_returns: f.returns.is_some(),
        alias_of: None,
    };
    let mut extern_conflict = false;
    match md.globals.get(name).cloned() {
        Some(Global::Var { .. }) => {
            sink.at(head_line, msg::INCONSISTENT_VARIABLE, &[name])?;
            if defined {
                sink.at(head_line, msg::DUPLICATE_FUNCTION, &[name])?;
            }
            sink.at(head_line, msg::INCONSISTENT_SYMBOL, &[name])?;
        }
        Some(Global::Func(prev)) => {
            if prev.entry != entry {
                sink.at(head_line, msg::ENTRY_VS_FUNCTION, &[name])?;
            }
            if prev.defined && defined {
                sink.at(head_line, msg::DUPLICATE_FUNCTION, &[name])?;
            } else if prev.entry == entry {
                if prev.params.len() != sym.params.len() || prev.returns.len() != sym.returns.len() {
                    sink.at(head_line, msg::INCONSISTENT_PROTOTYPES, &[name, "parameter counts"])?;
                } else {
                    if prev.params.iter().zip(&sym.params).any(|(a, b)| a.0 != b.0)
                        || prev.returns.iter().zip(&sym.returns).any(|(a, b)| a.0 != b.0)
                    {
                        sink.at(head_line, msg::INCONSISTENT_PROTOTYPES, &[name, "parameter types"])?;
                    }
                    if prev.params.iter().zip(&sym.params).any(|(a, b)| a.1 != b.1) {
                        sink.at(head_line, msg::INCONSISTENT_PROTOTYPES, &[name, "parameter alignment"])?;
                    }
                }
            }
            if prev.is_extern && defined {
                if !entry && !prev.entry {
                    sink.at(head_line, msg::INCONSISTENT_VARIABLE, &[name])?;
                }
                extern_conflict = true;
            }
            let mut merged = sym.clone();
            merged.defined |= prev.defined;
            merged.is_extern = prev.is_extern && is_extern;
            md.globals.insert(name.to_string(), Global::Func(merged));
        }
        None => {
            md.globals.insert(name.to_string(), Global::Func(sym.clone()));
        }
    }
    // A definition that is itself `.extern` (probed: `.extern .entry k() { ret; }` and the
    // same `.func` are refused at the closing brace).
    if is_extern && defined {
        extern_conflict = true;
    }
    // Parameter names are one scope with the return parameters (probed).
    let mut param_names: Vec<&str> = Vec::new();
    for r in f.returns.iter().flatten() {
        if r.ty.text == ".pred" && r.space.text != ".reg" {
            sink.at(r.span.line, msg::PRED_SPACE, &[&r.decl.name.name])?;
        }
        if param_names.contains(&r.decl.name.name.as_str()) {
            sink.at(r.span.line, msg::DUPLICATE_VARIABLE, &[&r.decl.name.name])?;
        }
        param_names.push(&r.decl.name.name);
    }
    if let Some(ps) = &f.params {
        let n = ps.len();
        for (i, p) in ps.iter().enumerate() {
            let pname = p.decl.name.name.as_str();
            if entry && p.space.text != ".param" {
                sink.at(p.span.line, msg::ENTRY_PARAM_SPACE, &[pname])?;
            }
            if p.ty.text == ".pred" && p.space.text != ".reg" {
                sink.at(p.span.line, msg::PRED_SPACE, &[pname])?;
            }
            type_of_variable(&p.ty.text, &p.space.text, pname, p.span.line, sink)?;
            if let Some(a) = align_of(&p.pre).or(align_of(&p.post))
                && a.value().is_none_or(|n| n == 0 || !n.is_power_of_two())
            {
                sink.at(p.span.line, msg::ALIGN_POW2, &[])?;
            }
            if i + 1 < n
                && let Shape::Array(d) = &p.decl.shape
                && d.iter().any(Option::is_none)
            {
                sink.at(p.span.line, msg::INCOMPLETE_NOT_LAST, &[])?;
            }
            if param_names.contains(&pname) {
                sink.at(p.span.line, msg::DUPLICATE_VARIABLE, &[pname])?;
            }
            param_names.push(pname);
        }
    }
    if let Some(rs) = &f.returns
        && rs.len() > 1
        && rs.iter().any(|r| r.space.text != ".reg")
    {
        sink.at(open_line, msg::MULTIPLE_RETURNS, &[])?;
    }
    // Directives.
    let (mut maxntid, mut reqntid, mut reqncta, mut maxrank, mut blocks, mut minncta) =
        (false, false, false, false, false, false);
    // Single-value directives are reported on their own line; list directives (`.maxntid`,
    // `.reqntid`, `.reqnctapercluster`) on the line of the token after them (probed).
    let dline =
        |word: &str| ctx.src.find_word(f.name.span.offset as usize, open, word).map_or(open_line, |o| ctx.src.line(o));
    for d in &f.directives {
        match d {
            FuncDirective::MaxNTid(v) => {
                maxntid = true;
                if dir_values(v).contains(&0) {
                    sink.at(open_line, msg::POSITIVE_EXPECTED, &["maxntid"])?;
                }
            }
            FuncDirective::ReqNTid(v) => {
                reqntid = true;
                if dir_values(v).contains(&0) {
                    sink.at(open_line, msg::POSITIVE_EXPECTED, &["reqntid"])?;
                }
            }
            FuncDirective::MinNCtaPerSm(n) => {
                minncta = true;
                if n.value() == Some(0) {
                    sink.at(dline(".minnctapersm"), msg::POSITIVE_EXPECTED, &["minnctapersm"])?;
                }
            }
            FuncDirective::MaxNReg(n) => {
                if n.value() == Some(0) {
                    sink.at(dline(".maxnreg"), msg::POSITIVE_EXPECTED, &["maxnreg"])?;
                } else if n.value().is_none_or(|v| v > 255) {
                    late.maxnreg_too_big.push(name.to_string());
                }
            }
            FuncDirective::MaxNCtaPerSm(_) => {
                let line = ctx
                    .src
                    .find_word(f.name.span.offset as usize, open, ".maxnctapersm")
                    .map_or(open_line, |o| ctx.src.line(o));
                sink.at(line, msg::DEPRECATED, &[".maxnctapersm directive", "2.1"])?;
            }
            FuncDirective::ReqNCtaPerCluster(_) => {
                reqncta = true;
                gate_directive(".reqnctapercluster", open_line, ctx, sink)?;
            }
            FuncDirective::MaxClusterRank(_) => {
                maxrank = true;
                gate_directive(".maxclusterrank", dline(".maxclusterrank"), ctx, sink)?;
            }
            FuncDirective::ExplicitCluster => gate_directive(".explicitcluster", dline(".explicitcluster"), ctx, sink)?,
            FuncDirective::BlocksAreClusters => {
                blocks = true;
                gate_directive_from(".blocksareclusters", 90, dline(".blocksareclusters"), ctx, sink)?;
            }
            _ => {}
        }
    }
    if reqncta && maxrank {
        sink.at(open_line, msg::CLUSTER_CONFLICT, &[])?;
    }
    if let Some(body) = &f.body {
        if entry {
            late.entry_shared.push((name.to_string(), 0));
        }
        let mut fs = FuncScope::new();
        collect(body, &mut fs);
        for p in f.params.iter().flatten().chain(f.returns.iter().flatten()) {
            // A `.reg` parameter is a register (recorded by its type alone, as declared ones).
            let ty = if p.space.text == ".reg" { p.ty.text.clone() } else { format!(".param {}", p.ty.text) };
            fs.declare(&p.decl.name.name, &ty);
        }
        fs.input_params.extend(f.params.iter().flatten().map(|p| p.decl.name.name.clone()));
        fs.return_params.extend(f.returns.iter().flatten().map(|p| p.decl.name.name.clone()));
        let mut deferred = Vec::new();
        let mut seen_lm = false;
        body_walk(body, ctx, sink, md, late, &mut fs, &mut deferred, name, &mut seen_lm)?;
        for (line, sym) in deferred {
            sink.at(line, msg::UNKNOWN_SYMBOL, &[&sym])?;
        }
    }
    if entry {
        let total = param_space(&f.params);
        let limit = if ctx.version >= 81 { 32764 } else { 4352 };
        if total > limit {
            sink.at(close_line, msg::PARAM_SPACE, &[name, &format!("{total:x}"), &format!("{limit:x}")])?;
            if ctx.version < 81 {
                sink.at(close_line, msg::FEATURE_PTX, &["Kernel parameter size larger than 4352 bytes", "8.1"])?;
            }
        }
    }
    if maxntid && reqntid {
        sink.at(close_line, msg::MAXNTID_REQNTID, &[])?;
    }
    if blocks && !(reqntid && reqncta) {
        sink.at(close_line, msg::BLOCKSARECLUSTERS, &[])?;
    }
    if minncta && !maxntid && !reqntid {
        sink.at(close_line, msg::MINNCTAPERSM_IGNORED, &[])?;
    }
    if extern_conflict {
        sink.at(close_line, msg::EXTERN_DEFINITION, &[name])?;
    }
    Ok(())
}

fn gate_directive(name: &str, line: u32, ctx: &Ctx<'_>, sink: &mut Sink) -> Result<(), Fatal> {
    gate_directive_from(name, 78, line, ctx, sink)
}

/// A cluster directive's gates: PTX `ptx` (×10) and `sm_90` (probed wording and order).
fn gate_directive_from(name: &str, ptx: u32, line: u32, ctx: &Ctx<'_>, sink: &mut Sink) -> Result<(), Fatal> {
    if ctx.version < ptx {
        sink.at(line, msg::FEATURE_PTX, &[name, &super::header::version_text(ptx)])?;
    }
    if ctx.sm() < 90 {
        sink.at(line, msg::FEATURE_SM, &[name, "sm_90"])?;
    }
    Ok(())
}

fn param_space(params: &Option<Vec<Param>>) -> u64 {
    let mut off = 0u64;
    for p in params.iter().flatten() {
        let size = decl_size(&p.ty, &p.pre, &p.post, &p.decl).unwrap_or(0);
        let align = align_of(&p.pre)
            .or(align_of(&p.post))
            .and_then(IntLit::value)
            .unwrap_or(type_size(&p.ty.text))
            .clamp(1, 1 << 20);
        off = off.div_ceil(align).saturating_mul(align).saturating_add(size);
    }
    off
}

/// Labels and declared names of a whole body (for forward references).
fn collect(body: &[Statement], fs: &mut FuncScope) {
    let mut stack: Vec<&[Statement]> = vec![body];
    while let Some(stmts) = stack.pop() {
        for s in stmts {
            match s {
                Statement::Label(l) => fs.define_label(&l.name, stmts.as_ptr() as usize),
                Statement::Var(v) => {
                    for d in &v.decls {
                        if vector_of(&v.pre) > 1 || vector_of(&v.post) > 1 {
                            fs.vector_names.insert(d.name.name.clone());
                        }
                        match &d.shape {
                            Shape::Range(n) => fs.ranged_anywhere.push((d.name.name.clone(), n.value().unwrap_or(0))),
                            _ => {
                                fs.declared_anywhere.insert(d.name.name.clone());
                            }
                        }
                    }
                }
                Statement::Block(b, _) => stack.push(b),
                _ => {}
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn body_walk(
    body: &[Statement],
    ctx: &mut Ctx<'_>,
    sink: &mut Sink,
    md: &mut Module,
    late: &mut Late,
    fs: &mut FuncScope,
    deferred: &mut Vec<(u32, String)>,
    fname: &str,
    seen_lm: &mut bool,
) -> Result<(), Fatal> {
    // Explicit stack of (statements, index) to bound recursion.
    let mut stack: Vec<(&[Statement], usize)> = vec![(body, 0)];
    fs.push(body.as_ptr() as usize);
    // Labels are block-scoped: a duplicate is one defined twice in the same statement list.
    let mut seen_labels: HashSet<(usize, String)> = HashSet::new();
    while let Some((stmts, i)) = stack.pop() {
        let Some(s) = stmts.get(i) else {
            if !stack.is_empty() {
                fs.pop();
            }
            continue;
        };
        stack.push((stmts, i + 1));
        match s {
            Statement::Label(l) => {
                if !seen_labels.insert((stmts.as_ptr() as usize, l.name.clone())) || fs.lookup(&l.name).is_some() {
                    sink.at(l.span.line, msg::DUPLICATE_LABEL, &[&l.name])?;
                }
            }
            Statement::Var(v) => var_decl(v, false, ctx, sink, md, late, Some(fs))?,
            Statement::Instruction(ins) => super::instr::check(ins, ctx, sink, md, fs, deferred, late)?,
            Statement::Block(b, _) => {
                fs.push(b.as_ptr() as usize);
                stack.push((b, 0));
            }
            Statement::Pragma(p) => function_pragma(p, fname, seen_lm, sink)?,
            Statement::BranchTargets(ls, span) | Statement::CallTargets(ls, span) => {
                for l in ls {
                    if !fs.has_label(&l.name) && !md.globals.contains_key(&l.name) {
                        deferred.push((span.line, l.name.clone()));
                    }
                }
            }
            Statement::FuncDecl(f) => {
                md.globals.entry(f.name.name.clone()).or_insert_with(|| {
                    Global::Func(FuncSym {
                        entry: false,
                        is_extern: f.linkage.contains(&Linkage::Extern),
                        defined: false,
                        params: param_sig(&f.params),
                        param_names: f.params.iter().flatten().map(|p| p.decl.name.name.clone()).collect(),
                        returns: param_sig(&f.returns),
                        has_returns: f.returns.is_some(),
                        alias_of: None,
                    })
                });
            }
            Statement::Loc(_) | Statement::CallPrototype(_) => {}
        }
    }
    Ok(())
}

/// Compile-stage checks after a clean parse (no trailer).
pub fn late_checks(sink: &mut Sink, late: &Late, opts: &Options) -> Result<(), Fatal> {
    let _ = opts;
    for e in &late.maxnreg_too_big {
        sink.late(msg::MAXNREG_TOO_MANY, &[e])?;
    }
    if late.const_bytes > 0x10000 {
        sink.late(msg::CONST_TOO_BIG, &[&format!("{:x}", late.const_bytes)])?;
    }
    for (e, own) in &late.entry_shared {
        let total = own.saturating_add(late.module_shared);
        if total > 0xc000 {
            sink.late(msg::SHARED_TOO_BIG, &[e, &format!("{total:x}")])?;
        }
    }
    for (v, sized) in &late.extern_vars {
        let m = if *sized { msg::UNRESOLVED_EXTERN_VAR } else { msg::UNRESOLVED_EXTERN_VAR_UNSIZED };
        sink.late(m, &[v])?;
    }
    for f in &late.called_externs {
        sink.late(msg::UNRESOLVED_EXTERN, &[f])?;
    }
    Ok(())
}
