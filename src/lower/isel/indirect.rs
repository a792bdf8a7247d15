//! Indirect calls (`call (...), %rd, (...), proto;`, Ori `calli`) as a dispatch over the
//! module's device functions, run on PTX-stage Ori before instruction selection.
//!
//! A function pointer's value is [`Module::function_address`] of the function's index (what
//! the lowering gives `mov.u64 %rd, f`, initialisers and the interpreter's `calli`). A module
//! is compiled whole (no `.extern` functions, no relocatable output), so every value a
//! well-defined program can call is the address of one of its `.func`s whose parameters and
//! results have the call's shape. Each `calli` becomes a chain of compares on the pointer
//! (`setp.eq.u64`), one block per candidate holding a direct `call` of it with the `calli`'s
//! operands (a `calli` and a `call` have the same operands after the target), and a join block
//! with the instructions after the call; a pointer equal to no candidate (undefined in PTX)
//! calls nothing. A call no function of the module matches is refused (not implemented yet). The direct calls then take the register ABI of [`super::call`], and every
//! candidate is a subroutine of the kernel.
//!
//! This is not ptxas's code: ptxas stores a function's offset in the kernel's `.text` as its
//! address (an immediate, or a word of `.nv.global.init`, with no relocation) and calls it with
//! `CALL.REL.NOINC Rn`. Pointer values therefore differ from NVIDIA's (they are not code
//! offsets); outputs that depend only on what is called do not.
//!
//! Invariants: a function with `calli` is rewritten only when it is not in SSA form and has no
//! phis (the join block would have to rename phi predecessors); otherwise the pass refuses
//! with "not implemented yet". The rewritten function has no `calli`.

use crate::lower::LowerError;
use crate::ori::{
    Cmp, FuncKind, Function, Guard, Imm, Inst, InstData, Mods, Module, Opcode, Operand, Reg, RegClass, Ty,
};

/// Rewrites every `calli` of `m` (see the module doc).
pub fn expand_indirect_calls(m: &mut Module) -> Result<(), LowerError> {
    for fi in 0..m.functions.len() {
        while let Some((b, k, i)) = first_calli(&m.functions[fi]) {
            let d = m.functions[fi].insts[i].clone();
            let f = &m.functions[fi];
            if f.ssa || f.insts.values().any(|x| x.opcode == Opcode::Phi) {
                return Err(refuse(
                    f,
                    "an indirect call in a function in SSA form or with phis is not implemented yet",
                ));
            }
            let candidates: Vec<(u64, String)> = m
                .functions
                .iter()
                .enumerate()
                .filter(|(_, g)| g.kind == FuncKind::Func && shape_matches(f, &d, g))
                .map(|(j, g)| (Module::function_address(j), g.name.clone()))
                .collect();
            if candidates.is_empty() {
                return Err(refuse(
                    f,
                    "an indirect call whose prototype matches no function of the module is not implemented yet",
                ));
            }
            rewrite(&mut m.functions[fi], b, k, &d, &candidates);
        }
    }
    Ok(())
}

fn refuse(f: &Function, message: &str) -> LowerError {
    LowerError { line: 0, column: 0, function: Some(f.name.clone()), message: message.to_string() }
}

/// The first `calli`: its block, its position there, and the instruction.
fn first_calli(f: &Function) -> Option<(crate::ori::Block, usize, Inst)> {
    f.layout.iter().find_map(|&b| {
        f.block_insts(b)
            .iter()
            .enumerate()
            .find_map(|(k, &i)| (f.insts[i].opcode == Opcode::Calli).then_some((b, k, i)))
    })
}

/// Whether `g` takes the operands of the `calli` `d` of `f`: as many parameters as operands
/// after the target (the stack pointer is the first of both), register operands of the
/// parameters' classes, and results of the same register classes.
fn shape_matches(f: &Function, d: &InstData, g: &Function) -> bool {
    let args = &d.srcs[1.min(d.srcs.len())..];
    if g.params.len() != args.len() || g.rets.len() != d.dsts.len() {
        return false;
    }
    let class = |fun: &Function, r: Reg| fun.reg_class(r);
    let args_ok = args.iter().zip(&g.params).all(|(a, &p)| match a {
        Operand::Reg(u) => class(f, u.reg) == class(g, p),
        _ => true,
    });
    let rets_ok = d.dsts.iter().zip(&g.rets).all(|(&r, &c)| class(f, r) == Some(c));
    args_ok && rets_ok
}

/// Replaces the `calli` at position `k` of block `b` with the compare chain.
fn rewrite(f: &mut Function, b: crate::ori::Block, k: usize, d: &InstData, candidates: &[(u64, String)]) {
    let tail: Vec<Inst> = f.blocks[b].insts.split_off(k + 1);
    f.blocks[b].insts.pop();
    let at = f.layout.iter().position(|&x| x == b).map_or(f.layout.len(), |p| p + 1);
    let block = |f: &mut Function| {
        let nb = f.new_block();
        f.layout.retain(|&x| x != nb);
        nb
    };
    let join = block(f);
    f.blocks[join].insts = tail;
    let bra = |target, guard| InstData {
        guard,
        ..InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(target)])
    };
    if let Some(g) = d.guard {
        f.push_inst(b, bra(join, Some(Guard { reg: g.reg, not: !g.not })));
    }
    let target = d.srcs[0].clone();
    let mut test = b;
    let mut order = Vec::new();
    for (n, (addr, name)) in candidates.iter().enumerate() {
        let call = block(f);
        let next = if n + 1 == candidates.len() { join } else { block(f) };
        let p = f.new_vreg(RegClass::P);
        let m = Mods { cmp: Some(Cmp::Eq), ..Mods::ty(Ty::U64) };
        f.push_inst(
            test,
            InstData::new(Opcode::Setp, m, vec![p.into()], vec![target.clone(), Operand::Imm(Imm::Int(*addr as i64))]),
        );
        f.push_inst(test, bra(next, Some(Guard { reg: p.into(), not: true })));
        let mut srcs = d.srcs.clone();
        srcs[0] = Operand::Func(name.clone());
        f.push_inst(call, InstData::new(Opcode::Call, Mods::new(), d.dsts.clone(), srcs));
        f.push_inst(call, bra(join, None));
        order.push(call);
        if next != join {
            order.push(next);
        }
        test = next;
    }
    order.push(join);
    for (n, nb) in order.into_iter().enumerate() {
        f.layout.insert(at + n, nb);
    }
}
