//! The typed PTX syntax tree.
//!
//! Invariants:
//! - Every node that a diagnostic can point at carries a [`Span`]. Spans never take part in
//!   equality: `Span == Span` is always true, so `a == b` compares structure and text only. That
//!   is what the round-trip property (`parse(print(m)) == m`) needs.
//! - Literals keep their source text (`0x10U`, `017`, `0f3F800000`); values are derived on
//!   demand ([`IntLit::value`]), so printing is exact and never loses a form.
//! - Instructions are generic (opcode, dotted modifiers, operands). The instruction table of the
//!   semantic pass interprets them; nothing here knows an opcode's shape.
//! - Tree depth is bounded by the parser (nesting and expression depth limits, see
//!   [`super::limits`]), so the derived recursive `Drop`, `PartialEq` and the printer are safe.

use std::fmt;

/// A source position: byte offset and 1-based line and column (columns count characters).
///
/// Spans are ignored by equality and hashing (see the module docs), so trees that are equal
/// hash equal.
#[derive(Debug, Clone, Copy, Default, Eq)]
pub struct Span {
    /// Byte offset of the node's first character.
    pub offset: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// An identifier with its position (`%r1`, `$L__BB0_2`, `_`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ident {
    /// The identifier's text.
    pub name: String,
    /// Where it starts.
    pub span: Span,
}

/// An integer literal, kept as written (`42`, `0x2aU`, `0b101`, `017`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IntLit {
    /// The literal's text.
    pub text: String,
    /// Where it starts.
    pub span: Span,
}

impl IntLit {
    /// Whether the literal carries the `U` (unsigned) suffix.
    pub fn is_unsigned(&self) -> bool {
        self.text.ends_with('U')
    }

    /// The value as ptxas reads it, or `None` where ptxas reports `Constant overflow`
    /// ([`int_literal_value`]). Octal is a `0`-prefixed run of digits, as in C.
    pub fn value(&self) -> Option<u64> {
        int_literal_value(&self.text)
    }
}

/// The value of an integer literal's text (`42`, `0x2aU`, `0b101`, `017`) as ptxas 13.0.88
/// reads it: digit by digit into 64 bits, wrapping, with `Constant overflow` (here `None`) only
/// when the value read so far has bit 63 set before the next digit's multiply. So
/// `0x1ffffffffffffffff` is accepted as `0xffffffffffffffff`, `0x100000000000000000` and
/// `18446744073709551616` as 0, while `0x80000000000000000`, `0xfffffffffffffffff` and
/// `99999999999999999999` overflow (probed, every radix). `None` also for text that is no
/// integer literal.
pub fn int_literal_value(text: &str) -> Option<u64> {
    let t = text.trim_end_matches('U');
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        if v >> 63 != 0 {
            return None;
        }
        v = v.wrapping_mul(u64::from(radix)).wrapping_add(u64::from(d));
    }
    Some(v)
}

/// A floating-point literal, kept as written (`1.5`, `1e-3`, `0f3F800000`, `0d3FF0000000000000`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FloatLit {
    /// The literal's text.
    pub text: String,
    /// Where it starts.
    pub span: Span,
}

/// A parsed PTX module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Module {
    /// `.version X.Y`.
    pub version: Version,
    /// `.target a, b, ...`.
    pub target: Target,
    /// `.address_size N`, if present.
    pub address_size: Option<IntLit>,
    /// Everything after the header, in source order.
    pub items: Vec<Item>,
}

/// `.version major.minor`, digits as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Version {
    /// Major digits.
    pub major: String,
    /// Minor digits.
    pub minor: String,
    /// Where the directive starts.
    pub span: Span,
}

/// `.target` and its list (`sm_90a`, `compute_80`, `texmode_independent`, `debug`, ...).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Target {
    /// The comma-separated names.
    pub names: Vec<Ident>,
    /// Where the directive starts.
    pub span: Span,
}

/// A module-scope item.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Item {
    /// A kernel or function, defined or declared.
    Function(Function),
    /// A module-scope variable declaration.
    Var(VarDecl),
    /// `.file N "name"[, timestamp, size]`.
    File(FileDir),
    /// `.section .name { ... }`.
    Section(Section),
    /// `.pragma "..."[, "..."];`.
    Pragma(Pragma),
    /// `.alias a, b;`.
    Alias(Alias),
}

/// Linkage and storage qualifiers written before a function or variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// `.visible`.
    Visible,
    /// `.extern`.
    Extern,
    /// `.weak`.
    Weak,
    /// `.common`.
    Common,
}

impl Linkage {
    /// The directive text.
    pub fn as_str(self) -> &'static str {
        match self {
            Linkage::Visible => ".visible",
            Linkage::Extern => ".extern",
            Linkage::Weak => ".weak",
            Linkage::Common => ".common",
        }
    }
}

/// `.entry` or `.func`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// A kernel.
    Entry,
    /// A device function.
    Func,
}

/// A kernel or function.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Function {
    /// Linkage qualifiers in source order.
    pub linkage: Vec<Linkage>,
    /// `.entry` or `.func`.
    pub kind: FunctionKind,
    /// Return parameters (`.func` only), when a list is written.
    pub returns: Option<Vec<Param>>,
    /// The name.
    pub name: Ident,
    /// The parameter list, when written (`()` gives an empty list).
    pub params: Option<Vec<Param>>,
    /// Performance directives and function attributes, in source order.
    pub directives: Vec<FuncDirective>,
    /// The body, or `None` for a declaration ending in `;`.
    pub body: Option<Vec<Statement>>,
    /// Where the function starts.
    pub span: Span,
}

/// A performance directive or function attribute after a function's header.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FuncDirective {
    /// `.maxntid x[, y[, z]]`.
    MaxNTid(Vec<IntLit>),
    /// `.reqntid x[, y[, z]]`.
    ReqNTid(Vec<IntLit>),
    /// `.reqnctapercluster x[, y[, z]]`.
    ReqNCtaPerCluster(Vec<IntLit>),
    /// `.minnctapersm n`.
    MinNCtaPerSm(IntLit),
    /// `.maxnreg n`.
    MaxNReg(IntLit),
    /// `.maxnctapersm n` (deprecated; rejected by the semantic pass).
    MaxNCtaPerSm(IntLit),
    /// `.maxclusterrank n`.
    MaxClusterRank(IntLit),
    /// `.explicitcluster`.
    ExplicitCluster,
    /// `.blocksareclusters`.
    BlocksAreClusters,
    /// `.noreturn`.
    NoReturn,
    /// `.abi_preserve n`.
    AbiPreserve(IntLit),
    /// `.abi_preserve_control n`.
    AbiPreserveControl(IntLit),
}

/// A parameter: `.param .align 8 .b8 p[16]`, `.reg .b32 x`, `.param .u64 .ptr .global .align 16 p`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Param {
    /// `.param` or `.reg`.
    pub space: StateSpace,
    /// Attributes before the type.
    pub pre: Vec<DeclAttr>,
    /// The type.
    pub ty: Type,
    /// Attributes after the type (`.ptr ...`).
    pub post: Vec<DeclAttr>,
    /// The declared name.
    pub decl: Declarator,
    /// Where the parameter starts.
    pub span: Span,
}

/// A state space as written in a declaration, including a `::` sub-space (`.shared::cta`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StateSpace {
    /// The text, dot included (`.reg`, `.shared::cluster`).
    pub text: String,
}

/// A declaration attribute.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DeclAttr {
    /// `.align N`.
    Align(IntLit),
    /// `.v2`, `.v4`, `.v8`: the element count.
    Vector(u8),
    /// `.ptr [.space] [.align N]` (kernel parameters).
    Ptr {
        /// The pointee's state space, dot included.
        space: Option<String>,
        /// The pointee's alignment.
        align: Option<IntLit>,
    },
    /// `.attribute(.managed, ...)`: the dotted words.
    Attribute(Vec<String>),
}

/// A declared data type (`.u32`, `.f16x2`, `.pred`, `.texref`, ...), dot included.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Type {
    /// The type keyword, dot included.
    pub text: String,
}

/// A variable declaration: `[linkage] .space attrs .type a, b[4] = {...}, %r<10>;`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VarDecl {
    /// Linkage qualifiers in source order.
    pub linkage: Vec<Linkage>,
    /// The state space.
    pub space: StateSpace,
    /// Attributes before the type.
    pub pre: Vec<DeclAttr>,
    /// The type.
    pub ty: Type,
    /// Attributes after the type.
    pub post: Vec<DeclAttr>,
    /// The declared names (at least one).
    pub decls: Vec<Declarator>,
    /// Where the declaration starts.
    pub span: Span,
}

/// One declared name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Declarator {
    /// The name (`_` in prototypes).
    pub name: Ident,
    /// Range or array shape.
    pub shape: Shape,
    /// `= initializer`.
    pub init: Option<Initializer>,
}

/// The shape after a declared name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A single variable.
    Scalar,
    /// `%r<N>`: N registers `%r0 .. %r{N-1}`.
    Range(IntLit),
    /// `a[N][M]...`; `None` is an implied size `[]`.
    Array(Vec<Option<Expr>>),
}

/// A variable initializer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Initializer {
    /// A constant expression, symbol, `generic(sym)+off`, ...
    Expr(Expr),
    /// `{ a, b, {c, d} }`.
    List(Vec<Initializer>, Span),
    /// `name = value` inside a sampler's braces (`filter_mode = linear`).
    Field(Ident, Expr),
}

/// An expression (operands, initializers, array sizes, address offsets).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it starts.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ExprKind {
    /// An integer literal.
    Int(IntLit),
    /// A floating literal.
    Float(FloatLit),
    /// A symbol or register, with an optional `.component` (`%tid.x`; the text after the dot).
    Sym(Ident, Option<String>),
    /// `generic(sym)`.
    Generic(Ident),
    /// A prefix operator.
    Unary(UnOp, Box<Expr>),
    /// A binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-`.
    Neg,
    /// `!`.
    Not,
    /// `~`.
    BitNot,
}

impl UnOp {
    /// The operator's text.
    pub fn as_str(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "!",
            UnOp::BitNot => "~",
        }
    }
}

/// Binary operators, C precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

impl BinOp {
    /// All operators.
    pub const ALL: [BinOp; 18] = [
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::Lt,
        BinOp::Gt,
        BinOp::Le,
        BinOp::Ge,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::BitAnd,
        BinOp::BitXor,
        BinOp::BitOr,
        BinOp::And,
        BinOp::Or,
    ];

    /// The operator's text.
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Parses an operator's text.
    pub fn from_symbol(s: &str) -> Option<BinOp> {
        BinOp::ALL.into_iter().find(|op| op.as_str() == s)
    }

    /// Binding strength: higher binds tighter (all left-associative). The conditional
    /// operator sits below all of them at 1.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Mul | BinOp::Div | BinOp::Rem => 12,
            BinOp::Add | BinOp::Sub => 11,
            BinOp::Shl | BinOp::Shr => 10,
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => 9,
            BinOp::Eq | BinOp::Ne => 8,
            BinOp::BitAnd => 7,
            BinOp::BitXor => 6,
            BinOp::BitOr => 5,
            BinOp::And => 4,
            BinOp::Or => 3,
        }
    }
}

/// `.file N "name"[, n...]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FileDir {
    /// The file index.
    pub index: IntLit,
    /// The file name as written, quotes included.
    pub name: String,
    /// Timestamp and size, if given.
    pub extra: Vec<IntLit>,
    /// Where the directive starts.
    pub span: Span,
}

/// `.section .name { entries }` (DWARF sections).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Section {
    /// The section name, dot included.
    pub name: String,
    /// Labels and data lines.
    pub entries: Vec<SectionEntry>,
    /// Where the directive starts.
    pub span: Span,
}

/// One entry of a section body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SectionEntry {
    /// `label:`.
    Label(Ident),
    /// `.b8 1, 2, 3` or `.b64 $L__a - $L__b`.
    Data(SectionData),
}

/// One data line of a section. ptxas's grammar allows a list of (optionally negated) integers,
/// or exactly one symbolic value: `label`, `label + int`, `label - label`, `.section` or
/// `.section + int` (see [`SectionValue`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SectionData {
    /// `.b8`, `.b16`, `.b32` or `.b64`.
    pub ty: String,
    /// The values.
    pub values: Vec<SectionValue>,
    /// Where the line starts.
    pub span: Span,
    /// Where ptxas reports the line's semantic errors: the token after the values when ptxas
    /// needed it to end the line (an integer list, a lone symbol), else the last value.
    pub report: Span,
}

/// A value in a section data line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SectionValue {
    /// An integer (`Int` or `Neg(Int)`), a label, `label + int` or `label - label`.
    Expr(Expr),
    /// A dotted section name (`.debug_abbrev`) and an optional `+ offset`.
    Section(String, Option<IntLit>),
}

/// `.pragma "a"[, "b"];` (strings as written, quotes included).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pragma {
    /// The strings.
    pub strings: Vec<String>,
    /// Where the directive starts.
    pub span: Span,
}

/// `.alias alias, aliasee;`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Alias {
    /// The new name.
    pub alias: Ident,
    /// The existing function.
    pub aliasee: Ident,
    /// Where the directive starts.
    pub span: Span,
}

/// A statement in a function body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Statement {
    /// `name:`.
    Label(Ident),
    /// An instruction.
    Instruction(Instruction),
    /// A variable declaration.
    Var(VarDecl),
    /// A function declared in the body (`.func f(...);`).
    FuncDecl(Function),
    /// A nested `{ ... }` scope.
    Block(Vec<Statement>, Span),
    /// `.loc file line column [, function_name label[+off]] [, inlined_at f l c]`.
    Loc(Loc),
    /// `.pragma "...";`.
    Pragma(Pragma),
    /// `.callprototype (rets) _ (params) attrs;` (its label is the preceding statement).
    CallPrototype(CallPrototype),
    /// `.calltargets f, g;`.
    CallTargets(Vec<Ident>, Span),
    /// `.branchtargets L1, L2;`.
    BranchTargets(Vec<Ident>, Span),
}

/// `.loc` and its optional attributes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Loc {
    /// File index, line, column.
    pub file: IntLit,
    /// Line.
    pub line: IntLit,
    /// Column.
    pub column: IntLit,
    /// `function_name label[+offset]`, `inlined_at f l c`, in source order.
    pub attrs: Vec<LocAttr>,
    /// Where the directive starts.
    pub span: Span,
}

/// An attribute of `.loc`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LocAttr {
    /// `function_name label[+offset]`.
    FunctionName(Ident, Option<IntLit>),
    /// `inlined_at file line column`.
    InlinedAt(IntLit, IntLit, IntLit),
}

/// `.callprototype`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CallPrototype {
    /// Return parameters, when written.
    pub returns: Option<Vec<Param>>,
    /// Parameters, when written.
    pub params: Option<Vec<Param>>,
    /// `.noreturn`, `.abi_preserve n`, ...
    pub directives: Vec<FuncDirective>,
    /// Where the directive starts.
    pub span: Span,
}

/// A generic instruction: `[@[!]pred] opcode.mod.mod operand, ...;`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The guard predicate.
    pub guard: Option<Guard>,
    /// The mnemonic (`ld`, `mma`, ...).
    pub opcode: Ident,
    /// The dotted modifiers in source order, dot included (`.global`, `.L2::cache_hint`).
    pub modifiers: Vec<Modifier>,
    /// The operands.
    pub operands: Vec<Operand>,
    /// Where the instruction starts (its guard, if any).
    pub span: Span,
}

/// `@p` or `@!p`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Guard {
    /// `@!p`.
    pub negated: bool,
    /// The predicate register.
    pub pred: Ident,
}

/// A dotted instruction modifier, dot included.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Modifier {
    /// The text (`.u32`, `.shared::cta`).
    pub text: String,
    /// Where it starts.
    pub span: Span,
}

/// An instruction operand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register, symbol, label, immediate or constant expression (`%r1`, `%tid.x`, `-1`, `!%p`).
    Expr(Expr),
    /// `p|q` (dual destination); one side may be the sink `_` (`elect.sync _|p, m`).
    Dual(VecElem, VecElem),
    /// `{a, _, b}`.
    Vector(Vec<VecElem>, Span),
    /// `[base+off]` or `[tex, sampler, {coords}]`.
    Address(Vec<AddrElem>, Span),
    /// `(a, b)` (call arguments and return values).
    List(Vec<ListElem>, Span),
    /// `sym[index]`.
    Indexed(Ident, Expr),
    /// `_`: a discarded result.
    Sink(Span),
}

/// An element of a vector operand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum VecElem {
    /// `_`: a discarded result.
    Sink(Span),
    /// A register or value.
    Expr(Expr),
}

impl VecElem {
    /// The element as an operand of its own (`_` is [`Operand::Sink`]).
    pub fn to_operand(&self) -> Operand {
        match self {
            VecElem::Sink(s) => Operand::Sink(*s),
            VecElem::Expr(e) => Operand::Expr(e.clone()),
        }
    }
}

/// An element of an address operand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AddrElem {
    /// `base[+offset]`; the base is a symbol/register or an integer (absolute address).
    Term {
        /// The base.
        base: Expr,
        /// The offset after `+`.
        offset: Option<Expr>,
    },
    /// `{a, b}` (texture coordinates).
    Vector(Vec<VecElem>, Span),
}

/// An element of a parenthesised operand list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ListElem {
    /// A value.
    Expr(Expr),
    /// A vector.
    Vector(Vec<VecElem>, Span),
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::printer::print(self))
    }
}

#[cfg(test)]
mod tests {
    use super::int_literal_value;

    /// Every 64-bit value written in each radix reads back (random full-width values and edges).
    #[test]
    fn literals_that_fit_read_back() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut values = vec![0, 1, u64::MAX, 1 << 63, (1 << 63) - 1, u64::from(u32::MAX)];
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x);
        }
        for v in values {
            assert_eq!(int_literal_value(&v.to_string()), Some(v), "{v}");
            assert_eq!(int_literal_value(&format!("0x{v:x}U")), Some(v), "{v:#x}");
            assert_eq!(int_literal_value(&format!("0b{v:b}")), Some(v), "{v:#b}");
            assert_eq!(int_literal_value(&format!("0{v:o}")), Some(v), "{v:#o}");
        }
    }

    /// ptxas 13.0.88's verdicts and values past 64 bits (probed with `mov.b64` and the SASS it
    /// wrote): the read wraps, and overflows only once bit 63 is set before a digit's multiply.
    #[test]
    fn literals_past_64_bits_as_ptxas_reads_them() {
        let cases: &[(&str, Option<u64>)] = &[
            ("0x1ffffffffffffffff", Some(u64::MAX)),
            ("0x1fffffffffffffff0", Some(0xffff_ffff_ffff_fff0)),
            ("0x7ffffffffffffffff", Some(u64::MAX)),
            ("0x100000000000000000", Some(0)),
            ("0x11111111111111111", Some(0x1111_1111_1111_1111)),
            ("18446744073709551616", Some(0)),
            ("36893488147419103231", Some(u64::MAX)),
            ("01777777777777777777777", Some(u64::MAX)),
            ("0x80000000000000000", None),
            ("0x8000000000000000f", None),
            ("0xfffffffffffffffff", None),
            ("0xf0000000000000000", None),
            ("99999999999999999999", None),
            ("0777777777777777777777777", None),
            ("0b11111111111111111111111111111111111111111111111111111111111111111", None),
        ];
        for &(text, want) in cases {
            assert_eq!(int_literal_value(text), want, "{text}");
        }
    }
}
