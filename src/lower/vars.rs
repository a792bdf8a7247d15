//! Module variables: `.global`, `.const` and `.shared` declarations become
//! [`ModuleVar`]s with their size, alignment and initial bytes.
//!
//! Invariants: the initial bytes are the initializer's elements in order, little-endian, each
//! of the element type's size; a missing tail is zero. An implied array size (`[]`) is the
//! initializer's element count. Initializer symbols that name functions become their
//! [`ori::Module::function_address`]; addresses of variables (`var`, `generic(var)`, plus or
//! minus a constant) become [`VarReloc`]s that the executor fills in.
//! Function-scope statics are named `function.variable`.

use super::types::{const_int, float_bits, size_of, ty_of};
use super::{LowerError, ModCx, Result};
use crate::ori::{self, Imm, ModuleVar, Space, VarReloc};
use crate::ptx::ast::{DeclAttr, Expr, ExprKind, Initializer, Shape, Span, Statement, UnOp, VarDecl};

/// The element count of an array shape (product of the dimensions); `None` for a scalar or an
/// implied size.
pub fn array_len(shape: &Shape, span: Span) -> Result<Option<u64>> {
    match shape {
        Shape::Scalar => Ok(None),
        Shape::Range(_) => Err(LowerError::at(span, "a register range where a variable was expected")),
        Shape::Array(dims) => {
            let mut n = 1u64;
            for d in dims {
                match d {
                    None => return Ok(None),
                    Some(e) => {
                        let v = const_int(e).ok_or_else(|| LowerError::at(e.span, "array size is not a constant"))?;
                        n = n.saturating_mul(v.max(0) as u64);
                    }
                }
            }
            Ok(Some(n))
        }
    }
}

/// Collects the static (shared, global, const) variable declarations of a function body.
pub fn collect_static<'a>(stmts: &'a [Statement], out: &mut Vec<&'a VarDecl>) {
    for s in stmts {
        match s {
            Statement::Var(v) if static_space(v).is_some() => out.push(v),
            Statement::Block(b, _) => collect_static(b, out),
            _ => {}
        }
    }
}

/// The space of a variable declaration if it is a module variable's space.
pub fn static_space(v: &VarDecl) -> Option<Space> {
    match super::mods::space_of(&v.space.text)? {
        s @ (Space::Global | Space::Const | Space::Shared) => Some(s),
        _ => None,
    }
}

/// Why a variable of an opaque type cannot be lowered: texture, sampler and surface references
/// are not supported yet (bindless handles are, `super::texture`).
pub fn unsized_var_type(ty: &str) -> String {
    match ty.trim_start_matches('.') {
        t @ ("texref" | "samplerref" | "surfref") => {
            format!("variable type `.{t}` (texture/sampler/surface references) is not supported yet")
        }
        _ => format!("variable type `{ty}`"),
    }
}

/// Lowers one declaration (possibly several names) in function `scope` (or module scope).
pub fn lower_var(v: &VarDecl, cx: &ModCx, scope: Option<&str>) -> Result<Vec<ModuleVar>> {
    let Some(space) = static_space(v) else {
        return Err(LowerError::at(v.span, format!("module variable in space `{}`", v.space.text)));
    };
    let elem = size_of(&v.ty.text).ok_or_else(|| LowerError::at(v.span, unsized_var_type(&v.ty.text)))?;
    let mut vec = 1u64;
    let mut align = elem;
    for a in v.pre.iter().chain(&v.post) {
        match a {
            DeclAttr::Vector(n) => vec = u64::from(*n),
            DeclAttr::Align(l) => align = l.value().unwrap_or(elem),
            _ => {}
        }
    }
    if !v.pre.iter().chain(&v.post).any(|a| matches!(a, DeclAttr::Align(_))) {
        align = elem * vec;
    }
    let mut out = Vec::new();
    for d in &v.decls {
        let mut values = Vec::new();
        if let Some(init) = &d.init {
            flatten(init, &mut values);
        }
        let n = match array_len(&d.shape, v.span)? {
            Some(n) => n,
            None if matches!(d.shape, Shape::Array(_)) => (values.len() as u64).div_ceil(vec),
            None => 1,
        };
        let size = n * vec * elem;
        let mut init = Vec::new();
        let mut relocs = Vec::new();
        for e in &values {
            if let Some((sym, addend)) = var_address(e, cx) {
                if elem != 4 && elem != 8 {
                    return Err(LowerError::at(e.span, "an address in an initializer of a type narrower than 32 bits"));
                }
                relocs.push(VarReloc { offset: init.len() as u64, size: elem as u8, sym, addend });
                init.extend(std::iter::repeat_n(0, elem as usize));
                continue;
            }
            let bits = init_value(e, &v.ty.text, cx)?;
            init.extend_from_slice(&bits.to_le_bytes()[..elem as usize]);
        }
        if init.len() as u64 > size {
            return Err(LowerError::at(v.span, "more initializer elements than the variable holds"));
        }
        while init.last() == Some(&0) {
            init.pop();
        }
        let name = match scope {
            Some(f) => format!("{f}.{}", d.name.name),
            None => d.name.name.clone(),
        };
        out.push(ModuleVar { name, space, size, align: align.max(1) as u32, init, relocs });
    }
    Ok(out)
}

fn flatten<'a>(i: &'a Initializer, out: &mut Vec<&'a Expr>) {
    match i {
        Initializer::Expr(e) => out.push(e),
        Initializer::List(l, _) => l.iter().for_each(|x| flatten(x, out)),
        Initializer::Field(_, e) => out.push(e),
    }
}

/// `var`, `generic(var)`, optionally `+ const` / `- const`: the variable and the addend.
fn var_address(e: &Expr, cx: &ModCx) -> Option<(String, i64)> {
    use crate::ptx::ast::BinOp;
    match &e.kind {
        ExprKind::Sym(id, None) | ExprKind::Generic(id) if cx.vars.contains_key(&id.name) => Some((id.name.clone(), 0)),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let (sym, base) = var_address(a, cx)?;
            let k = const_int(b)?;
            Some((sym, if *op == BinOp::Add { base.wrapping_add(k) } else { base.wrapping_sub(k) }))
        }
        _ => None,
    }
}

fn init_value(e: &Expr, ty: &str, cx: &ModCx) -> Result<u64> {
    let t = ty_of(ty);
    if let ExprKind::Sym(id, None) = &e.kind
        && let Some(&i) = cx.func_index.get(cx.resolve(&id.name))
    {
        return Ok(ori::Module::function_address(i));
    }
    let float = |e: &Expr, neg: bool| -> Option<u64> {
        let ExprKind::Float(l) = &e.kind else { return None };
        let ft = if t == Some(ori::Ty::F64) { ori::Ty::F64 } else { ori::Ty::F32 };
        let b = float_bits(l, ft)?;
        let sign = if ft == ori::Ty::F64 { 1u64 << 63 } else { 1u64 << 31 };
        let bits = match b {
            Imm::F32(b) => u64::from(b),
            Imm::F64(b) => b,
            Imm::Int(v) => v as u64,
        };
        Some(if neg { bits ^ sign } else { bits })
    };
    match &e.kind {
        ExprKind::Float(_) => return float(e, false).ok_or_else(|| LowerError::at(e.span, "bad float literal")),
        ExprKind::Unary(UnOp::Neg, x) if matches!(x.kind, ExprKind::Float(_)) => {
            return float(x, true).ok_or_else(|| LowerError::at(e.span, "bad float literal"));
        }
        _ => {}
    }
    let v = const_int(e).ok_or_else(|| {
        LowerError::at(e.span, "initializer is not a constant (addresses of variables are not supported)")
    })?;
    Ok(match t {
        Some(ori::Ty::F32) => (v as f32).to_bits().into(),
        Some(ori::Ty::F64) => (v as f64).to_bits(),
        _ => v as u64,
    })
}
