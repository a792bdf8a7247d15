//! Instruction checks: recognition through the instruction table ([`crate::ptx::isa`]),
//! modifiers and types, operand counts, symbol resolution of operands, special-register and
//! instruction gates, and the few value checks ptxas makes while parsing (barrier numbers,
//! non-`.sync` shfl/vote, `.aligned` on wmma/mma).
//!
//! Order within one instruction (as ptxas prints): unknown opcode; unknown modifiers; illegal
//! types; operand symbols (an unknown register gives `Arguments mismatch` now and `Unknown
//! symbol` at the end of the function); operand count; value checks; gates.

use super::decls::{Late, Module};
use super::messages as msg;
use super::scope::{FuncScope, Global};
use super::{Ctx, Fatal, Sink, sreg};
use crate::ptx::ast::*;
use crate::ptx::isa::{GateStyle, Isa};

/// Checks one instruction.
pub fn check(
    ins: &Instruction,
    ctx: &Ctx<'_>,
    sink: &mut Sink,
    md: &Module,
    fs: &FuncScope,
    deferred: &mut Vec<(u32, String)>,
    late: &mut Late,
) -> Result<(), Fatal> {
    let isa = Isa::get();
    let line = ins.opcode.span.line;
    let op = ins.opcode.name.as_str();
    let Some(spec) = isa.lookup(op) else {
        return sink.at(line, msg::UNKNOWN_INSTRUCTION, &[op]);
    };
    let mods: Vec<&str> = ins.modifiers.iter().map(|m| m.text.as_str()).collect();
    let mut unknown = false;
    for m in &mods {
        if !isa.is_known_modifier(m) {
            unknown = true;
            sink.at(line, msg::UNKNOWN_MODIFIER, &[m])?;
        }
    }
    let types: Vec<&str> = mods.iter().copied().filter(|m| isa.is_type(m)).collect();
    if !spec.types.is_empty() {
        let bad = types.iter().any(|t| !spec.types.contains(&&t[1..])) || (unknown && types.is_empty());
        if bad {
            sink.at(line, msg::UNEXPECTED_TYPES, &[op])?;
        }
    }
    // Operands.
    let is_branch = matches!(op, "bra" | "call" | "brx");
    let mut mismatch = false;
    let mut illegal_operand = false;
    for (i, o) in ins.operands.iter().enumerate() {
        let mut syms: Vec<(&Ident, bool)> = Vec::new();
        operand_symbols(o, &mut syms);
        for (id, in_address) in syms {
            let name = id.name.as_str();
            if name.starts_with('%') && let Some((_, comps, sm, ptx)) = sreg::lookup(name) {
                let _ = comps;
                if ptx > ctx.version {
                    sink.at(line, msg::FEATURE_PTX, &[name, &super::header::version_text(ptx)])?;
                }
                if sm > ctx.sm() {
                    sink.at(line, msg::FEATURE_SM, &[name, &format!("sm_{sm}")])?;
                }
                continue;
            }
            if fs.lookup(name).is_some() || fs.labels.contains(name) || md.globals.contains_key(name) {
                if op == "call" && i == 0 || (op == "call" && ins.operands.len() > 1 && is_call_target(ins, i)) {
                    call_target(ins, name, line, sink, md, late)?;
                }
                continue;
            }
            if fs.declared_somewhere(name) {
                if !mismatch {
                    sink.at(line, msg::ARGUMENTS_MISMATCH, &[op])?;
                }
                return sink.at(line, msg::FORWARD_REFERENCE, &[name]);
            }
            if is_branch && is_call_target(ins, i) {
                if op == "call" {
                    sink.at(line, msg::CALL_NEEDS_PROTOTYPE, &[name])?;
                }
            } else if in_address {
                if !illegal_operand {
                    illegal_operand = true;
                    sink.at(line, msg::ILLEGAL_OPERAND_TYPE, &[op])?;
                }
            } else if !mismatch {
                mismatch = true;
                sink.at(line, msg::ARGUMENTS_MISMATCH, &[op])?;
            }
            deferred.push((line, name.to_string()));
        }
    }
    if let Some((lo, hi)) = spec.operands
        && !mismatch
        && !(lo..=hi).contains(&ins.operands.len())
    {
        mismatch = true;
        sink.at(line, msg::ARGUMENTS_MISMATCH, &[op])?;
    }
    let _ = mismatch;
    value_checks(ins, op, &mods, line, ctx, sink)?;
    gates(op, &mods, line, ctx, sink)
}

/// Whether operand `i` is the branch/call target (`call (ret), f, (args)` or `call f, …`).
fn is_call_target(ins: &Instruction, i: usize) -> bool {
    let first_list = matches!(ins.operands.first(), Some(Operand::List(..)));
    i == usize::from(ins.opcode.name == "call" && first_list)
}

fn call_target(ins: &Instruction, name: &str, line: u32, sink: &mut Sink, md: &Module, late: &mut Late) -> Result<(), Fatal> {
    let Some(Global::Func(f)) = md.globals.get(name) else { return Ok(()) };
    if f.entry {
        return sink.at(line, msg::CALL_ENTRY, &[]);
    }
    let first_list = matches!(ins.operands.first(), Some(Operand::List(..)));
    let lists: Vec<usize> = ins.operands.iter().filter_map(|o| if let Operand::List(v, _) = o { Some(v.len()) } else { None }).collect();
    let (rets, args) = if first_list { (lists.first().copied().unwrap_or(0), lists.get(1).copied().unwrap_or(0)) } else { (0, lists.first().copied().unwrap_or(0)) };
    if rets != f.returns.len() || args != f.params.len() {
        sink.at(line, msg::CALL_PARAM_COUNT, &[])?;
    }
    if f.is_extern && !f.defined && !late.called_externs.iter().any(|c| c == name) {
        late.called_externs.push(name.to_string());
    }
    Ok(())
}

/// Every identifier an operand names, with whether it sits inside an address.
fn operand_symbols<'a>(o: &'a Operand, out: &mut Vec<(&'a Ident, bool)>) {
    fn expr<'a>(e: &'a Expr, addr: bool, out: &mut Vec<(&'a Ident, bool)>) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Sym(id, _) | ExprKind::Generic(id) => out.push((id, addr)),
                ExprKind::Unary(_, a) => stack.push(a),
                ExprKind::Binary(_, a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                ExprKind::Cond(a, b, c) => stack.extend([c.as_ref(), b.as_ref(), a.as_ref()]),
                _ => {}
            }
        }
    }
    let vec = |v: &'a [VecElem], addr: bool, out: &mut Vec<(&'a Ident, bool)>| {
        for e in v {
            if let VecElem::Expr(e) = e {
                expr(e, addr, out);
            }
        }
    };
    match o {
        Operand::Expr(e) => expr(e, false, out),
        Operand::Dual(a, b) => {
            expr(a, false, out);
            expr(b, false, out);
        }
        Operand::Vector(v, _) => vec(v, false, out),
        Operand::Address(elems, _) => {
            for a in elems {
                match a {
                    AddrElem::Term { base, offset } => {
                        expr(base, true, out);
                        if let Some(o) = offset {
                            expr(o, true, out);
                        }
                    }
                    AddrElem::Vector(v, _) => vec(v, true, out),
                }
            }
        }
        Operand::List(elems, _) => {
            for e in elems {
                match e {
                    ListElem::Expr(e) => expr(e, false, out),
                    ListElem::Vector(v, _) => vec(v, false, out),
                }
            }
        }
        Operand::Indexed(id, e) => {
            out.push((id, false));
            expr(e, false, out);
        }
        Operand::Sink(_) => {}
    }
}

fn has(mods: &[&str], m: &str) -> bool {
    mods.contains(&m)
}

fn value_checks(ins: &Instruction, op: &str, mods: &[&str], line: u32, ctx: &Ctx<'_>, sink: &mut Sink) -> Result<(), Fatal> {
    // Barrier numbers.
    if matches!(op, "bar" | "barrier")
        && !has(mods, ".warp")
        && !has(mods, ".cluster")
        && let Some(Operand::Expr(Expr { kind: ExprKind::Int(n), .. })) = ins.operands.first()
        && let Some(v) = n.value()
        && v > 15
    {
        sink.at(line, msg::BARRIER_RANGE, &[&v.to_string()])?;
    }
    // Non-.sync shfl / vote.
    if matches!(op, "shfl" | "vote") && !has(mods, ".sync") && ctx.sm() >= 70 {
        if ctx.version >= 64 {
            sink.at(line, msg::NOSYNC_ERROR, &[op])?;
        } else {
            sink.at(line, msg::NOSYNC_UNPREDICTABLE, &[op])?;
            if ctx.version >= 60 {
                sink.at(line, msg::NOSYNC_DEPRECATED, &[op])?;
            }
        }
    }
    // wmma / mma need .aligned.
    if matches!(op, "wmma" | "mma") && !has(mods, ".aligned") && has(mods, ".sync") {
        let name = if op == "wmma" {
            let parts: Vec<&str> = mods.iter().take_while(|m| matches!(**m, ".load" | ".store" | ".mma" | ".a" | ".b" | ".c" | ".d")).copied().collect();
            format!("wmma{}", parts.concat())
        } else {
            op.to_string()
        };
        sink.at(line, msg::ALIGNED_REQUIRED, &[&name])?;
    }
    if op == "abs" && mods.iter().any(|m| matches!(*m, ".u16" | ".u32" | ".u64" | ".b16" | ".b32" | ".b64")) {
        sink.at(line, msg::ABS_SIGNED, &[])?;
    }
    Ok(())
}

fn gates(op: &str, mods: &[&str], line: u32, ctx: &Ctx<'_>, sink: &mut Sink) -> Result<(), Fatal> {
    let isa = Isa::get();
    let matched: Vec<_> = isa.gates_for(op, mods).collect();
    for g in &matched {
        let structural = |p: &str| !p.starts_with('.');
        // A more specific non-modifier row suppresses its prefix.
        if structural(g.pattern)
            && g.style != GateStyle::Modifier
            && matched.iter().any(|h| {
                h.style != GateStyle::Modifier && h.pattern.len() > g.pattern.len() && h.pattern.starts_with(g.pattern) && h.pattern.as_bytes()[g.pattern.len()] == b'.'
            })
        {
            continue;
        }
        let feature = g.feature.replace("{op}", op);
        let sm_fail = g.sm > ctx.sm();
        let ptx_fail = g.ptx > ctx.version;
        let ptx_v = super::header::version_text(g.ptx);
        let sm_t = format!("sm_{}", g.sm);
        match g.style {
            GateStyle::FeatureSmFirst => {
                if sm_fail {
                    sink.at(line, msg::FEATURE_SM, &[&feature, &sm_t])?;
                }
                if ptx_fail {
                    sink.at(line, msg::FEATURE_PTX, &[&feature, &ptx_v])?;
                }
            }
            GateStyle::FeaturePtxFirst => {
                if ptx_fail {
                    sink.at(line, msg::FEATURE_PTX, &[&feature, &ptx_v])?;
                }
                if sm_fail {
                    sink.at(line, msg::FEATURE_SM, &[&feature, &sm_t])?;
                }
            }
            GateStyle::Instruction => {
                if sm_fail {
                    sink.at(line, msg::INSTR_SM, &[&feature, &sm_t])?;
                }
                if ptx_fail {
                    sink.at(line, msg::FEATURE_PTX, &[&feature, &ptx_v])?;
                }
            }
            GateStyle::Modifier => {
                if sm_fail {
                    sink.at(line, msg::MODIFIER_SM, &[&feature, &sm_t])?;
                }
            }
            GateStyle::ArchSpecific => {
                let specific = ctx.target.is_some_and(|t| t.suffix != super::header::Suffix::None && t.sm >= g.sm);
                if !specific {
                    sink.at(line, msg::NOT_SUPPORTED_ON_TARGET, &[&feature, &ctx.target_name])?;
                } else if ptx_fail {
                    sink.at(line, msg::FEATURE_PTX, &[&feature, &ptx_v])?;
                }
            }
        }
    }
    Ok(())
}
