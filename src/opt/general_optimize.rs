//! The GeneralOptimize bundles (15 GeneralOptimizeEarly, 33 GeneralOptimize, 43
//! GeneralOptimizeMid, 53 GeneralOptimizeMid2, 66 GeneralOptimizeLate, 75
//! GeneralOptimizeLate2) and OriCopyProp (22). Digest §2.1.
//!
//! [`GeneralOptimize`] runs rounds of one block-wise simplification until a round changes
//! nothing (at most [`ROUND_BUDGET`] rounds). Each round walks every block forward with a
//! table of facts about virtual registers (`x` is constant `c`, or `x` is a copy of `y`):
//!
//! - **Facts.** An unguarded move (`mov`, `MOV`, `UMOV`: [`Sem::Mov`]) of an immediate, a zero
//!   register or an unmodified register of the same class and full width makes a fact for its
//!   destination. Block-local facts die when the destination or the copy's source is written
//!   again. Function-wide facts hold for a register with a single definition that dominates
//!   every (non-phi) use, and, for a copy, whose source has a single definition that dominates
//!   the copy; these are valid at every use, in SSA and non-SSA functions alike.
//! - **Copy propagation.** Uses of `x` (operands, address and bank-index registers, guards;
//!   not phi operands) become uses of `y`, keeping the use's modifiers.
//! - **Constant propagation.** Unmodified uses of a constant `x` become immediates where the
//!   slot accepts one; predicate uses become `PT`/`!PT` (`UPT` in uniform files).
//! - **Constant folding.** A pure instruction ([`Sem`] other than `None`/`Mufu`) whose sources
//!   are all immediates, zero registers or registers with a constant fact (also in slots that
//!   take no immediate) is evaluated by the one semantics table
//!   ([`crate::ori::semantics::eval`]) and becomes one move per destination (`ISETP`'s two
//!   predicates give two moves; writes to `PT`/`RZ` are dropped); forms the table does not
//!   model (f16, approximations) are left alone.
//! - **Algebraic simplification** ([`super::simplify`]). A PTX-stage integer, bits or
//!   predicate instruction that an exact identity decides (`x + 0`, `x & 0`, `x | -1`,
//!   `shl x, 0`, `x >=u 0`, `selp x, x, p`, ...) becomes a move of the surviving operand or of
//!   the constant; floats and instructions with `.sat`, `.hi`/`.wide` or carries are left
//!   alone.
//! - **Predicate simplification.** A `PT` guard is dropped and an instruction guarded by `!PT`
//!   is deleted, except on control flow: a constant guard there is left for OriBranchOpt,
//!   which also updates the phis of the edges it removes; a select on a constant
//!   predicate becomes a move of the chosen operand; a move of a register to itself is deleted.
//! - **Single-incoming phis** (left when OriBranchOpt removes edges) become moves.
//! - **Local DCE** ([`super::live_dead::simple_dce`]) at the end of each round.
//!
//! [`OriCopyProp`] is the copy-propagation part alone, followed by removal of moves whose
//! results are no longer read.
//!
//! Real ptxas only marks fold candidates here and leaves algebraic identities to the SASS
//! peephole optimizer; evaluating exactly with the semantics table, and applying the exact
//! integer identities at the PTX stage, is our choice, checked by translation validation.

use std::collections::HashMap;

use super::live_dead::simple_dce;
use super::simplify::simplify;
use super::util::{
    RegKey, const_pred, imm_for, is_phi, make_mov, mask, pred_const, reg_keys, slot_ty, src_slot, used_keys,
};
use super::{Pass, PassError, PassKind};
use crate::ori::cfg::{Cfg, DomTree};
use crate::ori::opcode::{OpFlags, Sem};
use crate::ori::semantics::{Arg, Val, eval};
use crate::ori::{Block, Function, Guard, InstData, Opcode, Operand, Reg, RegUse, VReg};

/// Most rounds per run.
pub const ROUND_BUDGET: usize = 16;

/// The GeneralOptimize bundle (phases 15, 33, 43, 53, 66, 75).
pub struct GeneralOptimize;

/// Standalone forward copy propagation (phase 22).
pub struct OriCopyProp;

impl Pass for GeneralOptimize {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let mut total = 0;
        for _ in 0..ROUND_BUDGET {
            let mut n = single_incoming_phis(f);
            let global = global_facts(f);
            n += rewrite(f, &global, true) + simple_dce(f);
            total += n;
            if n == 0 {
                break;
            }
        }
        Ok(total)
    }
}

impl Pass for OriCopyProp {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let mut total = 0;
        for _ in 0..ROUND_BUDGET {
            let global: HashMap<VReg, Fact> =
                global_facts(f).into_iter().filter(|(_, v)| matches!(v, Fact::Copy(_))).collect();
            let n = rewrite(f, &global, false) + dead_moves(f);
            total += n;
            if n == 0 {
                break;
            }
        }
        Ok(total)
    }
}

/// What is known about a virtual register's value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// Holds these register bits (predicates: 0 or 1).
    Const(u64),
    /// Holds the same value as this register (same class).
    Copy(Reg),
}

/// The fact an unguarded move establishes for its destination.
fn mov_fact(f: &Function, d: &InstData) -> Option<(VReg, Fact)> {
    if d.guard.is_some() || d.opcode.info().sem != Sem::Mov || d.dsts.len() != 1 || d.srcs.len() != 1 {
        return None;
    }
    let x = d.dsts[0].as_virt()?;
    let class = f.vregs.get(x)?.class;
    let ty = d.ty()?;
    match &d.srcs[0] {
        Operand::Reg(u) if class.file.is_pred() => {
            if u.neg || u.abs || ty != crate::ori::Ty::Pred {
                return None;
            }
            if let Some(v) = pred_const(u) {
                return Some((x, Fact::Const(u64::from(v))));
            }
            if u.not || f.reg_class(u.reg) != Some(class) || u.reg.as_virt()? == x {
                return None;
            }
            Some((x, Fact::Copy(u.reg)))
        }
        Operand::Reg(u) if class.file.is_data() => {
            if u.has_mods() || ty.bits() != class.bits() {
                return None;
            }
            if u.reg.is_zero() {
                return Some((x, Fact::Const(0)));
            }
            if f.reg_class(u.reg) != Some(class) || u.reg.as_virt()? == x {
                return None;
            }
            Some((x, Fact::Copy(u.reg)))
        }
        Operand::Imm(imm) if class.file.is_data() && class.count <= 2 => {
            let v = eval(d.opcode, &d.mods, &[Arg::bits(imm.bits())]).ok()?;
            match v.as_slice() {
                [Val::Bits(b)] => Some((x, Fact::Const(b & mask(class.bits())))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Function-wide facts: single-definition moves that dominate all their uses.
fn global_facts(f: &Function) -> HashMap<VReg, Fact> {
    let mut defs: HashMap<VReg, usize> = HashMap::new();
    let mut site: HashMap<VReg, (Block, usize)> = HashMap::new();
    for p in &f.params {
        if let Some(v) = p.as_virt() {
            *defs.entry(v).or_default() += 1;
        }
    }
    for &b in &f.layout {
        for (pos, &i) in f.block_insts(b).iter().enumerate() {
            for r in &f.insts[i].dsts {
                if let Some(v) = r.as_virt() {
                    *defs.entry(v).or_default() += 1;
                    site.insert(v, (b, pos));
                }
            }
        }
    }
    let mut cands: HashMap<VReg, Fact> = HashMap::new();
    for (&v, &n) in &defs {
        if n != 1 {
            continue;
        }
        let Some(&(b, pos)) = site.get(&v) else { continue };
        let d = &f.insts[f.block_insts(b)[pos]];
        if let Some((x, fact)) = mov_fact(f, d) {
            debug_assert_eq!(x, v);
            cands.insert(v, fact);
        }
    }
    if cands.is_empty() {
        return cands;
    }
    let cfg = Cfg::compute(f);
    let dom = DomTree::compute(f, &cfg);
    let before = |a: (Block, usize), b: (Block, usize)| {
        if a.0 == b.0 { a.1 < b.1 } else { dom.dominates(a.0, b.0) }
    };
    // Copies: the source must have one definition (or be a parameter never redefined) that
    // dominates the copy.
    cands.retain(|v, fact| match fact {
        Fact::Const(_) => true,
        Fact::Copy(y) => {
            let Some(y) = y.as_virt() else { return false };
            match (defs.get(&y).copied().unwrap_or(0), site.get(&y)) {
                (0, _) => true,
                (1, None) => true, // a parameter
                (1, Some(&ys)) => before(ys, site[v]),
                _ => false,
            }
        }
    });
    // Every non-phi use must be dominated by the definition.
    for &b in &f.layout {
        for (pos, &i) in f.block_insts(b).iter().enumerate() {
            let d = &f.insts[i];
            if is_phi(d) {
                continue;
            }
            for r in d.uses() {
                if let Some(v) = r.as_virt()
                    && let Some(&s) = site.get(&v)
                    && cands.contains_key(&v)
                    && !before(s, (b, pos))
                {
                    cands.remove(&v);
                }
            }
        }
    }
    cands
}

fn lookup(local: &HashMap<VReg, Fact>, global: &HashMap<VReg, Fact>, r: Reg) -> Option<Fact> {
    let v = r.as_virt()?;
    local.get(&v).or_else(|| global.get(&v)).copied()
}

/// One forward walk over every block. Returns the number of instructions changed or deleted.
fn rewrite(f: &mut Function, global: &HashMap<VReg, Fact>, full: bool) -> usize {
    let mut n = 0;
    for b in f.layout.clone() {
        let mut local: HashMap<VReg, Fact> = HashMap::new();
        let mut pos = 0;
        while pos < f.blocks[b].insts.len() {
            let i = f.blocks[b].insts[pos];
            let mut d = f.insts[i].clone();
            let orig = d.clone();
            if !is_phi(&d) {
                substitute(f, &mut d, &local, global, full);
            }
            if full {
                // Predicate simplification on the guard.
                if let Some(g) = d.guard {
                    let gu = RegUse { reg: g.reg, neg: false, abs: false, not: g.not };
                    // Control flow keeps its (constant) guard: dropping it changes CFG edges,
                    // and phis with them, which is OriBranchOpt's job.
                    let term = d.opcode.info().is_terminator();
                    match pred_const(&gu) {
                        Some(true) if !term => d.guard = None,
                        Some(false) if !term => {
                            f.blocks[b].insts.remove(pos);
                            n += 1;
                            continue;
                        }
                        _ => {}
                    }
                }
                let facts = |r: Reg| lookup(&local, global, r);
                if let Some(mut movs) = fold(f, &d, &facts) {
                    // The first move replaces the instruction; the others follow it.
                    let rest = movs.split_off(1);
                    d = movs.pop().expect("one move");
                    for (k, m) in rest.into_iter().enumerate() {
                        let id = f.insts.push(m);
                        f.blocks[b].insts.insert(pos + 1 + k, id);
                    }
                } else if let Some(new) = simplify(f, &d, &|o| const_arg(f, o, &facts)).or_else(|| select_const(f, &d))
                {
                    d = new;
                }
                if is_self_move(f, &d) {
                    f.blocks[b].insts.remove(pos);
                    n += 1;
                    continue;
                }
            }
            if d != orig {
                n += 1;
                f.insts[i] = d.clone();
            }
            // Facts killed by this instruction's writes.
            for r in &d.dsts {
                if let Some(v) = r.as_virt() {
                    local.remove(&v);
                    local.retain(|_, fact| *fact != Fact::Copy(*r));
                }
            }
            if let Some((x, fact)) = mov_fact(f, &d)
                && (full || matches!(fact, Fact::Copy(_)))
            {
                local.insert(x, fact);
            }
            pos += 1;
        }
    }
    n
}

fn substitute(f: &Function, d: &mut InstData, local: &HashMap<VReg, Fact>, global: &HashMap<VReg, Fact>, full: bool) {
    let snapshot = d.clone();
    for (k, o) in d.srcs.iter_mut().enumerate() {
        match o {
            Operand::Reg(u) => {
                let Some(fact) = lookup(local, global, u.reg) else { continue };
                let Some(class) = f.reg_class(u.reg) else { continue };
                match fact {
                    Fact::Copy(y) => u.reg = y,
                    Fact::Const(bits) if full => {
                        let Some(slot) = src_slot(&snapshot, k) else { continue };
                        // sm_90's `WARPSYNC` takes a register mask or `.ALL`, no other immediate.
                        if snapshot.opcode == Opcode::WARPSYNC && bits as u32 != u32::MAX {
                            continue;
                        }
                        if class.file.is_pred() {
                            if !u.neg && !u.abs {
                                let eff = (bits != 0) != u.not;
                                *o = Operand::Reg(const_pred(class.file, eff));
                            }
                        } else if slot.imm && !u.has_mods() {
                            *o = Operand::Imm(imm_for(slot_ty(&snapshot, slot), bits & mask(class.bits())));
                        }
                    }
                    Fact::Const(_) => {}
                }
            }
            Operand::Mem(m) => {
                if let Some(r) = m.base
                    && let Some(Fact::Copy(y)) = lookup(local, global, r)
                {
                    m.base = Some(y);
                }
            }
            Operand::CBank(c) => {
                if let Some(r) = c.index
                    && let Some(Fact::Copy(y)) = lookup(local, global, r)
                {
                    c.index = Some(y);
                }
            }
            _ => {}
        }
    }
    if let Some(g) = d.guard {
        match lookup(local, global, g.reg) {
            Some(Fact::Copy(y)) => d.guard = Some(Guard { reg: y, not: g.not }),
            Some(Fact::Const(bits)) if full => {
                let file = f.reg_class(g.reg).map_or(crate::ori::RegFile::P, |c| c.file);
                let u = const_pred(file, (bits != 0) != g.not);
                d.guard = Some(Guard { reg: u.reg, not: u.not });
            }
            _ => {}
        }
    }
}

/// The constant value of a source operand, if it is one: an immediate, a zero register, or a
/// register with a constant fact (with the use's modifiers kept for `eval` to apply).
fn const_arg(f: &Function, o: &Operand, facts: &dyn Fn(Reg) -> Option<Fact>) -> Option<Arg> {
    match o {
        Operand::Imm(i) => Some(Arg::bits(i.bits())),
        Operand::Reg(u) => {
            let pred = f.reg_class(u.reg)?.file.is_pred();
            let val = if u.reg.is_zero() {
                if pred { Val::Pred(true) } else { Val::Bits(0) }
            } else {
                match facts(u.reg)? {
                    Fact::Const(b) if pred => Val::Pred(b != 0),
                    Fact::Const(b) => Val::Bits(b),
                    Fact::Copy(_) => return None,
                }
            };
            Some(Arg { val, neg: u.neg, abs: u.abs, not: u.not })
        }
        _ => None,
    }
}

/// Constant folding through the semantics table: the instruction becomes one move per
/// destination (writes to zero registers are dropped). `None` when not foldable.
fn fold(f: &Function, d: &InstData, facts: &dyn Fn(Reg) -> Option<Fact>) -> Option<Vec<InstData>> {
    let info = d.opcode.info();
    if matches!(info.sem, Sem::None | Sem::Mufu | Sem::Mov) || info.has(OpFlags::PHI) || d.dsts.is_empty() {
        return None;
    }
    if d.dsts.len() > 1 {
        // Sequential moves must not see each other: no guard (it could be a destination) and
        // no destination twice.
        if d.guard.is_some() || d.dsts.iter().enumerate().any(|(k, r)| !r.is_zero() && d.dsts[..k].contains(r)) {
            return None;
        }
    }
    let args: Vec<Arg> = d.srcs.iter().map(|o| const_arg(f, o, facts)).collect::<Option<_>>()?;
    let vals = eval(d.opcode, &d.mods, &args).ok()?;
    if vals.len() != d.dsts.len() {
        return None;
    }
    let mut out = Vec::new();
    for (&dst, val) in d.dsts.iter().zip(&vals) {
        if dst.is_zero() {
            continue;
        }
        let class = f.reg_class(dst)?;
        let src = if class.file.is_pred() {
            Operand::Reg(const_pred(class.file, val.pred()))
        } else if class.file.is_data() {
            let ty = d.ty().filter(|t| t.is_float() && t.bits() == class.bits());
            Operand::Imm(imm_for(ty, val.bits() & mask(class.bits())))
        } else {
            return None;
        };
        let mut new = make_mov(f, dst, class, src)?;
        new.guard = d.guard;
        out.push(new);
    }
    // An instruction writing only zero registers is dead; leave it to DCE.
    if out.is_empty() { None } else { Some(out) }
}

/// A select on a constant predicate becomes a move of the chosen operand.
fn select_const(f: &Function, d: &InstData) -> Option<InstData> {
    let info = d.opcode.info();
    if !matches!(info.sem, Sem::Selp | Sem::Sel) || d.dsts.len() != 1 || d.srcs.len() != 3 {
        return None;
    }
    let p = pred_const(d.srcs[2].as_reg()?)?;
    let chosen = d.srcs[if p { 0 } else { 1 }].clone();
    if chosen.as_reg().is_some_and(RegUse::has_mods) {
        return None;
    }
    let dst = d.dsts[0];
    let class = f.reg_class(dst)?;
    if !class.file.is_data() || d.ty().is_some_and(|t| t.bits() != class.bits()) {
        return None;
    }
    let mut new = make_mov(f, dst, class, chosen)?;
    new.guard = d.guard;
    Some(new)
}

fn is_self_move(f: &Function, d: &InstData) -> bool {
    if d.opcode.info().sem != Sem::Mov || d.dsts.len() != 1 || d.srcs.len() != 1 {
        return false;
    }
    let Some(u) = d.srcs[0].as_reg() else { return false };
    let Some(class) = f.reg_class(d.dsts[0]) else { return false };
    u.reg == d.dsts[0]
        && !u.has_mods()
        && d.ty()
            .is_some_and(|t| if class.file.is_pred() { t == crate::ori::Ty::Pred } else { t.bits() == class.bits() })
}

/// Phis with a single incoming value (their block has one predecessor, as OriBranchOpt leaves
/// after removing edges) become moves, which copy propagation then removes.
fn single_incoming_phis(f: &mut Function) -> usize {
    let mut n = 0;
    for b in f.layout.clone() {
        let phis: Vec<_> = f.blocks[b].insts.iter().copied().take_while(|&i| is_phi(&f.insts[i])).collect();
        if phis.is_empty() || phis.iter().any(|&i| f.insts[i].srcs.len() != 2) {
            continue;
        }
        let movs: Option<Vec<InstData>> = phis
            .iter()
            .map(|&i| {
                let d = &f.insts[i];
                let dst = *d.dsts.first()?;
                make_mov(f, dst, f.reg_class(dst)?, d.srcs[0].clone())
            })
            .collect();
        let Some(movs) = movs else { continue };
        for (&i, m) in phis.iter().zip(movs) {
            f.insts[i] = m;
            n += 1;
        }
    }
    n
}

/// Removes unguarded-or-not moves whose destination is read nowhere.
fn dead_moves(f: &mut Function) -> usize {
    let used = used_keys(f);
    let mut n = 0;
    for b in f.layout.clone() {
        let before = f.blocks[b].insts.len();
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let kept: Vec<_> = insts
            .into_iter()
            .filter(|&i| {
                let d = &f.insts[i];
                let dead = d.opcode.info().sem == Sem::Mov
                    && matches!(d.srcs.first(), Some(Operand::Reg(_) | Operand::Imm(_)))
                    && !d.dsts.is_empty()
                    && d.dsts.iter().all(|&r| reg_keys(r).all(|k: RegKey| !used.contains(&k)));
                !dead
            })
            .collect();
        n += before - kept.len();
        f.blocks[b].insts = kept;
    }
    n
}
