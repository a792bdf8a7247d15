//! `.param` scalars of `.func` calls in registers (as ptxas passes them).
//!
//! A `.func`'s `.param` parameter or return value that is one scalar of 4 or 8 bytes (`.b32`,
//! `.u32`, `.s32`, `.f32`, `.b64`, `.u64`, `.s64`, `.f64`: no array, no vector) travels in
//! registers, like a `.reg` one ([`super::Passing::ParamReg`]); aggregates, arrays, vectors and
//! 1- and 2-byte scalars keep the memory passing (their local address is passed). Which it is
//! depends on the signature alone, so callers and callees (and `.callprototype`s) agree.
//!
//! Like ptxas, only the words from `R4` to `R15` carry `.param` scalars ([`within_registers`]):
//! ptxas 13.0.88 (`-c`, a kernel calling an external `.func` with 40 `.param .b32`
//! parameters, `cuobjdump -sass`) passes the first 12 in `R4`..`R15` and the other 28 on the
//! stack. Here a `.param` scalar whose words would end past `R15` (counting every earlier
//! parameter's words as `lower::isel::call::words` lays them out: a 64-bit value on an even
//! register, a memory-passed one as its address word) keeps the memory passing. Results count
//! from `R4` again.
//!
//! A `.param` name whose value is in a register must only be used where a register can stand
//! for it: [`register_only`] checks that every mention of the name in a statement list is
//! - the whole-value address `[name]` / `[name+0]` of a non-vector `ld.param` / `st.param`
//!   whose type has the scalar's size, or
//! - a call argument or call result (`call (name), f, (name)`).
//!
//! Anything else (its address taken by `mov`, a partial or offset access, a vector access)
//! keeps the value in memory on that side: a callee stores an incoming register parameter in a
//! frame slot on entry and loads a register return value from its slot before each `ret`; a
//! caller keeps a body `.param` variable in its frame and loads or stores it around the call.
//! The check is conservative: mentions of the name inside nested blocks count, whether or not
//! the nested block shadows it.

use super::Passing;
use crate::ptx::ast::{AddrElem, Expr, ExprKind, Instruction, ListElem, Operand, Statement, VecElem};

/// The register class of a `.param` scalar of `size` bytes passed in registers, or `None` if a
/// value of that size keeps the memory passing.
pub fn class_of_size(size: u64) -> Option<crate::ori::RegClass> {
    match size {
        4 => Some(crate::ori::RegClass::R32),
        8 => Some(crate::ori::RegClass::R64),
        _ => None,
    }
}

/// The last register a `.param` scalar passed in registers may occupy (see the module doc).
pub const LAST_WORD: u16 = 15;

/// Turns back to memory passing every [`Passing::ParamReg`] of `list` (parameters or results,
/// in order) whose words would not end by [`LAST_WORD`]; words are laid out from `R4` as
/// `lower::isel::call::words` does.
pub fn within_registers(list: &mut [Passing]) {
    let mut k = crate::lower::isel::call::FIRST_WORD;
    for p in list.iter_mut() {
        let n = match p {
            Passing::Reg(c, _) | Passing::ParamReg(c, _) if c.count == 2 => 2,
            _ => 1,
        };
        let start = if n == 2 { k.next_multiple_of(2) } else { k };
        if let Passing::ParamReg(_, size) = *p
            && start + n > LAST_WORD + 1
        {
            *p = Passing::Mem { size, align: size };
            k += 1;
            continue;
        }
        k = start + n;
    }
}

/// Whether every mention of `name` in `stmts` (nested blocks included) is one a register can
/// stand for, for a `.param` scalar of `size` bytes (see the module doc).
pub fn register_only(stmts: &[Statement], name: &str, size: u64) -> bool {
    stmts.iter().all(|s| match s {
        Statement::Instruction(i) => instruction_ok(i, name, size),
        Statement::Block(b, _) => register_only(b, name, size),
        _ => true,
    })
}

/// If `i` is a non-vector `ld.param`/`st.param` of a type of `size` bytes, the index of its
/// address operand.
pub fn whole_param_access(i: &Instruction, size: u64) -> Option<usize> {
    let op = i.opcode.name.as_str();
    if !matches!(op, "ld" | "st") {
        return None;
    }
    let mods = || i.modifiers.iter().map(|m| m.text.as_str());
    let param = mods().any(|m| m == ".param");
    let vector = mods().any(|m| m.starts_with(".v") && m[2..].chars().all(|c| c.is_ascii_digit()));
    let sized = mods().rev().find_map(super::types::size_of) == Some(size);
    (param && !vector && sized).then_some(if op == "ld" { 1 } else { 0 })
}

/// The scalar's name if `o` is the address `[name]` or `[name+0]`.
pub fn whole_address(o: &Operand) -> Option<&str> {
    let Operand::Address(elems, _) = o else { return None };
    let [AddrElem::Term { base, offset }] = elems.as_slice() else { return None };
    let ExprKind::Sym(id, None) = &base.kind else { return None };
    let zero = offset.as_ref().is_none_or(|e| super::types::const_int(e) == Some(0));
    zero.then_some(id.name.as_str())
}

fn instruction_ok(i: &Instruction, name: &str, size: u64) -> bool {
    let total: usize = i.operands.iter().map(|o| operand_mentions(o, name)).sum();
    if total == 0 {
        return true;
    }
    let allowed = match i.opcode.name.as_str() {
        "call" => i
            .operands
            .iter()
            .filter_map(|o| match o {
                Operand::List(l, _) => Some(l),
                _ => None,
            })
            .flatten()
            .filter(|e| matches!(e, ListElem::Expr(Expr { kind: ExprKind::Sym(id, None), .. }) if id.name == name))
            .count(),
        _ => whole_param_access(i, size)
            .and_then(|k| i.operands.get(k))
            .and_then(whole_address)
            .map_or(0, |n| usize::from(n == name)),
    };
    allowed == total
}

fn operand_mentions(o: &Operand, name: &str) -> usize {
    let vec = |v: &[VecElem]| -> usize {
        v.iter()
            .map(|e| match e {
                VecElem::Expr(e) => expr_mentions(e, name),
                VecElem::Sink(_) => 0,
            })
            .sum()
    };
    match o {
        Operand::Expr(e) => expr_mentions(e, name),
        Operand::Dual(a, b) => vec(&[a.clone(), b.clone()]),
        Operand::Vector(v, _) => vec(v),
        Operand::Address(elems, _) => elems
            .iter()
            .map(|a| match a {
                AddrElem::Term { base, offset } => {
                    expr_mentions(base, name) + offset.as_ref().map_or(0, |e| expr_mentions(e, name))
                }
                AddrElem::Vector(v, _) => vec(v),
            })
            .sum(),
        Operand::List(l, _) => l
            .iter()
            .map(|e| match e {
                ListElem::Expr(e) => expr_mentions(e, name),
                ListElem::Vector(v, _) => vec(v),
            })
            .sum(),
        Operand::Indexed(id, e) => usize::from(id.name == name) + expr_mentions(e, name),
        Operand::Sink(_) => 0,
    }
}

fn expr_mentions(e: &Expr, name: &str) -> usize {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) => 0,
        ExprKind::Sym(id, _) | ExprKind::Generic(id) => usize::from(id.name == name),
        ExprKind::Unary(_, a) => expr_mentions(a, name),
        ExprKind::Binary(_, a, b) => expr_mentions(a, name) + expr_mentions(b, name),
        ExprKind::Cond(c, a, b) => expr_mentions(c, name) + expr_mentions(a, name) + expr_mentions(b, name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(src: &str) -> Vec<Statement> {
        let text = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.func (.param .b32 r) g(.param .b32 x)\n{{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n{src}\nret;\n}}\n"
        );
        let m = crate::ptx::parse(&text, "t.ptx").expect("parses");
        m.items
            .into_iter()
            .find_map(|i| match i {
                crate::ptx::ast::Item::Function(f) => f.body,
                _ => None,
            })
            .expect("a body")
    }

    #[test]
    fn whole_accesses_and_call_operands_are_register_only() {
        let b = body(
            "ld.param.u32 %r1, [x];\nst.param.b32 [r], %r1;\n{\n.param .b32 a;\nst.param.b32 [a+0], %r1;\ncall (a), g, (a);\n}",
        );
        assert!(register_only(&b, "x", 4));
        assert!(register_only(&b, "r", 4));
        assert!(register_only(&b, "a", 4));
        // The wrong size, an offset, a vector access or the address taken keep it in memory.
        assert!(!register_only(&body("ld.param.u64 %rd1, [x];"), "x", 4));
        assert!(!register_only(&body("ld.param.u8 %r1, [x+1];"), "x", 4));
        assert!(!register_only(&body("ld.param.v2.u32 {%r1, %r2}, [x];"), "x", 8));
        assert!(!register_only(&body("mov.u64 %rd1, x;"), "x", 4));
        assert!(!register_only(&body("{\nld.param.u16 %r1, [x];\n}"), "x", 4));
        assert!(register_only(&body("ld.param.f32 %r1, [x];"), "y", 4));
    }

    #[test]
    fn twelve_words_from_r4_to_r15_then_memory() {
        use crate::ori::RegClass;
        let mem = |size| Passing::Mem { size, align: size };
        // 12 b32 scalars fill R4..R15; the 13th stays in memory.
        let mut l = vec![Passing::ParamReg(RegClass::R32, 4); 13];
        within_registers(&mut l);
        assert!(l[..12].iter().all(|p| matches!(p, Passing::ParamReg(..))));
        assert_eq!(l[12], mem(4));
        // b32 in R4, b64 in R6:R7 (even), ..., a b64 that would need R16:R17 stays in memory
        // while a later b32 still fits after an address word.
        let (r32, r64) = (Passing::ParamReg(RegClass::R32, 4), Passing::ParamReg(RegClass::R64, 8));
        let mut l =
            vec![r32.clone(), r64.clone(), r64.clone(), r64.clone(), r64.clone(), r32.clone(), r64.clone(), r32];
        within_registers(&mut l);
        // R4, R6:7, R8:9, R10:11, R12:13, R14, (R16:17 no: address in R15), then nothing left.
        assert_eq!(l[5], Passing::ParamReg(RegClass::R32, 4));
        assert_eq!(l[6], mem(8));
        assert_eq!(l[7], mem(4));
    }
}
