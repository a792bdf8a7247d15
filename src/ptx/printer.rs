//! [`Module`] → canonical PTX text.
//!
//! Invariants (checked on the whole corpus by `tests/ptx_roundtrip.rs` and by proptest):
//! - `parse(print(m)) == m` for every module the parser produces (spans aside);
//! - printing is idempotent: `print(parse(print(m))) == print(m)`;
//! - the output is plain ASCII, one statement per line, tab-indented by scope depth.
//!
//! Expressions are printed with the fewest parentheses that keep their tree: a child is
//! parenthesised only when it binds more loosely than its parent (or equally, on the right of
//! a left-associative operator).

use std::fmt::Write as _;

use super::ast::*;

/// Prints a module as canonical PTX.
pub fn print(m: &Module) -> String {
    let mut p = Printer { out: String::new() };
    p.module(m);
    p.out
}

/// Prints one expression.
pub fn print_expr(e: &Expr) -> String {
    let mut s = String::new();
    expr(&mut s, e);
    s
}

struct Printer {
    out: String,
}

fn join<T>(out: &mut String, items: &[T], sep: &str, mut f: impl FnMut(&mut String, &T)) {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        f(out, x);
    }
}

impl Printer {
    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push('\t');
        }
    }

    fn module(&mut self, m: &Module) {
        let _ = writeln!(self.out, ".version {}.{}", m.version.major, m.version.minor);
        self.out.push_str(".target ");
        join(&mut self.out, &m.target.names, ", ", |o, n| o.push_str(&n.name));
        self.out.push('\n');
        if let Some(a) = &m.address_size {
            let _ = writeln!(self.out, ".address_size {}", a.text);
        }
        for item in &m.items {
            self.out.push('\n');
            match item {
                Item::Function(f) => self.function(f, 0),
                Item::Var(v) => {
                    var_decl(&mut self.out, v);
                    self.out.push('\n');
                }
                Item::File(f) => {
                    let _ = write!(self.out, ".file {} {}", f.index.text, f.name);
                    for e in &f.extra {
                        let _ = write!(self.out, ", {}", e.text);
                    }
                    self.out.push('\n');
                }
                Item::Section(s) => self.section(s),
                Item::Pragma(p) => {
                    pragma(&mut self.out, p);
                    self.out.push('\n');
                }
                Item::Alias(a) => {
                    let _ = writeln!(self.out, ".alias {}, {};", a.alias.name, a.aliasee.name);
                }
            }
        }
    }

    fn section(&mut self, s: &Section) {
        let _ = writeln!(self.out, ".section {}\n{{", s.name);
        for e in &s.entries {
            match e {
                SectionEntry::Label(l) => {
                    let _ = writeln!(self.out, "{}:", l.name);
                }
                SectionEntry::Data(d) => {
                    let _ = write!(self.out, "\t{} ", d.ty);
                    join(&mut self.out, &d.values, ", ", |o, v| match v {
                        SectionValue::Expr(e) => expr(o, e),
                        SectionValue::Section(s, None) => o.push_str(s),
                        SectionValue::Section(s, Some(off)) => {
                            o.push_str(s);
                            o.push('+');
                            o.push_str(&off.text);
                        }
                    });
                    self.out.push('\n');
                }
            }
        }
        self.out.push_str("}\n");
    }

    fn function(&mut self, f: &Function, depth: usize) {
        self.indent(depth);
        function_head(&mut self.out, f);
        match &f.body {
            None => self.out.push_str(";\n"),
            Some(body) => {
                self.out.push('\n');
                self.indent(depth);
                self.out.push_str("{\n");
                self.stmts(body, depth + 1);
                self.indent(depth);
                self.out.push_str("}\n");
            }
        }
    }

    fn stmts(&mut self, body: &[Statement], depth: usize) {
        for s in body {
            match s {
                Statement::Label(l) => {
                    let _ = writeln!(self.out, "{}:", l.name);
                }
                Statement::Block(inner, _) => {
                    self.indent(depth);
                    self.out.push_str("{\n");
                    self.stmts(inner, depth + 1);
                    self.indent(depth);
                    self.out.push_str("}\n");
                }
                Statement::FuncDecl(f) => self.function(f, depth),
                other => {
                    self.indent(depth);
                    statement_line(&mut self.out, other);
                    self.out.push('\n');
                }
            }
        }
    }
}

fn function_head(out: &mut String, f: &Function) {
    for l in &f.linkage {
        out.push_str(l.as_str());
        out.push(' ');
    }
    out.push_str(match f.kind {
        FunctionKind::Entry => ".entry ",
        FunctionKind::Func => ".func ",
    });
    if let Some(r) = &f.returns {
        params(out, r);
        out.push(' ');
    }
    out.push_str(&f.name.name);
    if let Some(p) = &f.params {
        params(out, p);
    }
    for d in &f.directives {
        out.push(' ');
        func_directive(out, d);
    }
}

fn params(out: &mut String, ps: &[Param]) {
    out.push('(');
    join(out, ps, ", ", |o, p| {
        space_and_type(o, &p.space, &p.pre, &p.ty, &p.post);
        o.push(' ');
        declarator(o, &p.decl);
    });
    out.push(')');
}

fn func_directive(out: &mut String, d: &FuncDirective) {
    let list = |out: &mut String, name: &str, v: &[IntLit]| {
        out.push_str(name);
        out.push(' ');
        join(out, v, ", ", |o, i| o.push_str(&i.text));
    };
    let one = |out: &mut String, name: &str, v: &IntLit| {
        let _ = write!(out, "{name} {}", v.text);
    };
    match d {
        FuncDirective::MaxNTid(v) => list(out, ".maxntid", v),
        FuncDirective::ReqNTid(v) => list(out, ".reqntid", v),
        FuncDirective::ReqNCtaPerCluster(v) => list(out, ".reqnctapercluster", v),
        FuncDirective::MinNCtaPerSm(v) => one(out, ".minnctapersm", v),
        FuncDirective::MaxNReg(v) => one(out, ".maxnreg", v),
        FuncDirective::MaxNCtaPerSm(v) => one(out, ".maxnctapersm", v),
        FuncDirective::MaxClusterRank(v) => one(out, ".maxclusterrank", v),
        FuncDirective::ExplicitCluster => out.push_str(".explicitcluster"),
        FuncDirective::BlocksAreClusters => out.push_str(".blocksareclusters"),
        FuncDirective::NoReturn => out.push_str(".noreturn"),
        FuncDirective::AbiPreserve(v) => one(out, ".abi_preserve", v),
        FuncDirective::AbiPreserveControl(v) => one(out, ".abi_preserve_control", v),
    }
}

/// `<space> <attrs before the type> <type> <attrs after it>`, shared by parameters and variables.
fn space_and_type(out: &mut String, space: &StateSpace, pre: &[DeclAttr], ty: &Type, post: &[DeclAttr]) {
    out.push_str(&space.text);
    for a in pre {
        out.push(' ');
        decl_attr(out, a);
    }
    out.push(' ');
    out.push_str(&ty.text);
    for a in post {
        out.push(' ');
        decl_attr(out, a);
    }
}

fn decl_attr(out: &mut String, a: &DeclAttr) {
    match a {
        DeclAttr::Align(n) => {
            let _ = write!(out, ".align {}", n.text);
        }
        DeclAttr::Vector(n) => {
            let _ = write!(out, ".v{n}");
        }
        DeclAttr::Ptr { space, align } => {
            out.push_str(".ptr");
            if let Some(s) = space {
                out.push(' ');
                out.push_str(s);
            }
            if let Some(a) = align {
                let _ = write!(out, " .align {}", a.text);
            }
        }
        DeclAttr::Attribute(words) => {
            out.push_str(".attribute(");
            join(out, words, ", ", |o, w| o.push_str(w));
            out.push(')');
        }
    }
}

fn var_decl(out: &mut String, v: &VarDecl) {
    for l in &v.linkage {
        out.push_str(l.as_str());
        out.push(' ');
    }
    space_and_type(out, &v.space, &v.pre, &v.ty, &v.post);
    out.push(' ');
    join(out, &v.decls, ", ", declarator);
    out.push(';');
}

fn declarator(out: &mut String, d: &Declarator) {
    out.push_str(&d.name.name);
    match &d.shape {
        Shape::Scalar => {}
        Shape::Range(n) => {
            let _ = write!(out, "<{}>", n.text);
        }
        Shape::Array(dims) => {
            for d in dims {
                out.push('[');
                if let Some(e) = d {
                    expr(out, e);
                }
                out.push(']');
            }
        }
    }
    if let Some(i) = &d.init {
        out.push_str(" = ");
        initializer(out, i);
    }
}

fn initializer(out: &mut String, i: &Initializer) {
    match i {
        Initializer::Expr(e) => expr(out, e),
        Initializer::List(items, _) => {
            out.push('{');
            join(out, items, ", ", initializer);
            out.push('}');
        }
        Initializer::Field(n, e) => {
            let _ = write!(out, "{} = ", n.name);
            expr(out, e);
        }
    }
}

fn pragma(out: &mut String, p: &Pragma) {
    out.push_str(".pragma ");
    join(out, &p.strings, ", ", |o, s| o.push_str(s));
    out.push(';');
}

fn statement_line(out: &mut String, s: &Statement) {
    match s {
        Statement::Instruction(i) => instruction(out, i),
        Statement::Var(v) => var_decl(out, v),
        Statement::Loc(l) => {
            let _ = write!(out, ".loc {} {} {}", l.file.text, l.line.text, l.column.text);
            for a in &l.attrs {
                match a {
                    LocAttr::FunctionName(n, off) => {
                        let _ = write!(out, ", function_name {}", n.name);
                        if let Some(o) = off {
                            let _ = write!(out, "+{}", o.text);
                        }
                    }
                    LocAttr::InlinedAt(f, l, c) => {
                        let _ = write!(out, ", inlined_at {} {} {}", f.text, l.text, c.text);
                    }
                }
            }
        }
        Statement::Pragma(p) => pragma(out, p),
        Statement::CallPrototype(c) => {
            out.push_str(".callprototype ");
            if let Some(r) = &c.returns {
                params(out, r);
                out.push(' ');
            }
            out.push('_');
            if let Some(p) = &c.params {
                out.push(' ');
                params(out, p);
            }
            for d in &c.directives {
                out.push(' ');
                func_directive(out, d);
            }
            out.push(';');
        }
        Statement::CallTargets(v, _) => {
            out.push_str(".calltargets ");
            join(out, v, ", ", |o, n| o.push_str(&n.name));
            out.push(';');
        }
        Statement::BranchTargets(v, _) => {
            out.push_str(".branchtargets ");
            join(out, v, ", ", |o, n| o.push_str(&n.name));
            out.push(';');
        }
        // Printed by the caller (they span lines).
        Statement::Label(_) | Statement::Block(..) | Statement::FuncDecl(_) => {}
    }
}

/// Prints one instruction (no indentation, no newline).
pub fn instruction(out: &mut String, i: &Instruction) {
    if let Some(g) = &i.guard {
        out.push('@');
        if g.negated {
            out.push('!');
        }
        out.push_str(&g.pred.name);
        out.push(' ');
    }
    out.push_str(&i.opcode.name);
    for m in &i.modifiers {
        out.push_str(&m.text);
    }
    if !i.operands.is_empty() {
        out.push(' ');
        join(out, &i.operands, ", ", operand);
    }
    out.push(';');
}

fn vec_elems(out: &mut String, v: &[VecElem]) {
    out.push('{');
    join(out, v, ", ", |o, e| match e {
        VecElem::Sink(_) => o.push('_'),
        VecElem::Expr(e) => expr(o, e),
    });
    out.push('}');
}

fn operand(out: &mut String, op: &Operand) {
    match op {
        Operand::Expr(e) => {
            // `a|b` of two symbols would re-parse as a dual destination, and a leading `(`
            // followed by `)` and `,` as an argument list: parenthesise the left operand.
            if let ExprKind::Binary(BinOp::BitOr, l, r) = &e.kind
                && matches!(l.kind, ExprKind::Sym(..))
                && matches!(r.kind, ExprKind::Sym(..))
            {
                out.push('(');
                expr(out, l);
                out.push_str(") | ");
                expr(out, r);
                return;
            }
            expr(out, e)
        }
        Operand::Dual(a, b) => {
            for (k, x) in [a, b].into_iter().enumerate() {
                if k == 1 {
                    out.push('|');
                }
                match x {
                    VecElem::Sink(_) => out.push('_'),
                    VecElem::Expr(e) => expr(out, e),
                }
            }
        }
        Operand::Vector(v, _) => vec_elems(out, v),
        Operand::Address(elems, _) => {
            out.push('[');
            join(out, elems, ", ", |o, e| match e {
                AddrElem::Term { base, offset } => {
                    expr(o, base);
                    if let Some(off) = offset {
                        o.push('+');
                        expr(o, off);
                    }
                }
                AddrElem::Vector(v, _) => vec_elems(o, v),
            });
            out.push(']');
        }
        Operand::List(elems, _) => {
            out.push('(');
            join(out, elems, ", ", |o, e| match e {
                ListElem::Expr(e) => expr(o, e),
                ListElem::Vector(v, _) => vec_elems(o, v),
            });
            out.push(')');
        }
        Operand::Sink(_) => out.push('_'),
        Operand::Indexed(n, e) => {
            out.push_str(&n.name);
            out.push('[');
            expr(out, e);
            out.push(']');
        }
    }
}

/// Binding strength of an expression's top node (higher binds tighter).
fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary(op, ..) => op.precedence(),
        ExprKind::Cond(..) => 1,
        ExprKind::Unary(..) => 13,
        _ => 14,
    }
}

fn expr_paren(out: &mut String, e: &Expr, paren: bool) {
    if paren {
        out.push('(');
        expr(out, e);
        out.push(')');
    } else {
        expr(out, e);
    }
}

fn expr(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Int(i) => out.push_str(&i.text),
        ExprKind::Float(f) => out.push_str(&f.text),
        ExprKind::Sym(n, comp) => {
            out.push_str(&n.name);
            if let Some(c) = comp {
                out.push('.');
                out.push_str(c);
            }
        }
        ExprKind::Generic(n) => {
            let _ = write!(out, "generic({})", n.name);
        }
        ExprKind::Unary(op, a) => {
            out.push_str(op.as_str());
            // ptxas refuses a unary operator right before a hex float (`-0f3F800000`) but
            // takes it parenthesized.
            let hex = matches!(&a.kind, ExprKind::Float(f)
                if matches!(f.text.as_bytes().get(..2), Some([b'0', b'f' | b'F' | b'd' | b'D'])));
            expr_paren(out, a, prec(a) < 13 || hex);
        }
        ExprKind::Binary(op, l, r) => {
            let p = op.precedence();
            expr_paren(out, l, prec(l) < p);
            let _ = write!(out, " {} ", op.as_str());
            expr_paren(out, r, prec(r) <= p);
        }
        ExprKind::Cond(c, t, f) => {
            expr_paren(out, c, prec(c) <= 1);
            out.push_str(" ? ");
            expr(out, t);
            out.push_str(" : ");
            expr(out, f);
        }
    }
}
