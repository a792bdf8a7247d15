//! ConvertUnsupportedOps (5): rewrites PTX-stage operations the target has no instruction for
//! into sequences of operations it has (digest-frontend §4 "SM-availability fallbacks";
//! digest-optimizer §2.14, whose example is an atomic without a hardware form).
//!
//! # What is converted: shared-memory atomics without an `ATOMS` form
//!
//! The shared-memory atomic unit (`ATOMS`) of every target ptxas-rs lowers for executes only
//! 32-bit integer operations (`add`, `min`, `max`, `inc`, `dec`, `and`, `or`, `xor`, `exch`),
//! 64-bit `exch`, and compare-and-swap of 32 and 64 bits. Every other `atom.shared` /
//! `red.shared` — float `add` (f16, bf16, f32, f64, f16x2, bf16x2) and 64-bit `add`, `min`,
//! `max`, `and`, `or`, `xor` — is a compare-and-swap loop (scalar 16-bit `min`/`max` are not
//! PTX: "vector modifier required"). Evidence (ptxas 13.0.88, `cuobjdump -sass`, one
//! `atom.shared.<op>` per kernel, sm_75, sm_80, sm_90, sm_100 and sm_120 alike):
//! `add.f32` → `LDS; FADD; ATOMS.CAST.SPIN` in a loop, `add.f64` → `LDS.64; DADD;
//! ATOMS.CAST.SPIN.64`, `add.u64`, `min.s64`, `max.u64`, `and.b64` → `LDS.64 … ATOMS.CAST.SPIN.64`,
//! `add.noftz.f16x2` / `bf16x2` → `LDS … ATOMS.CAST.SPIN`; while `add/max/inc.u32` stay `ATOMS.ADD`
//! / `.MAX` / `.INC` and `exch.b64` stays `ATOMS.EXCH.64`. A 16-bit atomic (`add.noftz.f16`,
//! `add.noftz.bf16`, sm_80 and sm_90) swaps the aligned 32-bit word holding it:
//! `LOP3 w = a & 0xfffffffd; LOP3 s = a & 2; LDS [w]`, then a loop of `HADD2` on the selected
//! half, `PRMT` to put it back and `ATOMS.CAS [w]` (plain `ATOMS.CAS`, not `.CAST.SPIN`). The
//! float `add` of these loops is a plain `FADD`/`DADD`/`HADD2` (round to nearest, no flush),
//! which is what the interpreter's `atom` computes.
//!
//! `d = atom.shared.<op>.<ty> [a], v` in block `B` (guard `g`, if any) becomes
//!
//! ```text
//! B:   ...                                  (B's instructions before the atomic)
//!      (@g) old = ld.shared.b<n> [a]
//!      bra L                                (guarded atomic: @!g bra T, falling through to L)
//! L:   new = <op>.<ty> old, v
//!      res = atomcas.b<n> [a], old, new
//!      p = setp.ne.u<n> res, old
//!      old = mov.b<n> res
//!  @p  bra L
//! T:   (@g) d = mov.b<n> old
//!      ...                                  (B's instructions after the atomic, its terminator)
//! ```
//!
//! with `L` and `T` new blocks laid out right after `B`. For a 16-bit atomic, `B` first
//! computes the address `a` (`mova` of the variable, plus the register and the offset), the
//! word `w = a & 0xfffffffd` and the shift `sh = (a & 2) << 3`; the loop swaps the word at
//! `[w]`, computing `new` as `old` with bits `sh..sh+16` replaced by
//! `(<op>.<ty> ((old >> sh) & 0xffff), v) & 0xffff`; `T` writes `d = (old >> sh) & 0xffff`.
//!
//! A lane's compare-and-swap stores its combined value exactly when the word still holds
//! `old`, the value it was computed from; otherwise the lane retries with the value it found.
//! So every lane applies `op` once, atomically, and receives the value it replaced: the
//! `atom`'s meaning. (ptxas brackets the loop with `BSSY`/`BSYNC`; here reconvergence is the
//! interpreter's and the backend's.)
//! The expansion splits blocks itself, so the IR is well-formed after this phase and
//! SetControlFlowOpLastInBB finds nothing to split. This phase is the only place these loops
//! are built: selection (`lower::isel`) refuses, with a located error, any atomic
//! [`combine_op`] names, so a caller that selects without the standard pipeline runs
//! [`crate::opt::Pipeline::before_selection`] (phases 4..=8) first. A 16-bit atomic whose
//! address register is 64-bit is left alone (and refused by selection).
//!
//! # Invariants
//!
//! - Runs on non-SSA PTX-stage Ori (`old` is written twice): a function in SSA form that needs
//!   a conversion is an error; SASS-stage functions are left alone.
//! - Every instruction other than a converted atomic keeps its block-relative order; the
//!   converted atomic is the only one removed; new registers are fresh virtual registers.
//! - Afterwards no `atom.shared` without an `ATOMS` form remains (but a 16-bit one addressed
//!   by a 64-bit register); each conversion counts one change.

use super::util::rename_phi_pred;
use super::{Pass, PassError, PassKind};
use crate::ori::{
    Block, BlockData, Cmp, Function, Guard, Imm, InstData, MemRef, Mods, Opcode, Operand, Reg, RegClass, Rnd, Space,
    SubOp, Ty,
};

/// Phase 5.
pub struct ConvertUnsupportedOps;

impl Pass for ConvertUnsupportedOps {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        if f.sass {
            return Ok(0);
        }
        let mut changed = 0;
        let mut li = 0;
        while li < f.layout.len() {
            let b = f.layout[li];
            let found = f.blocks[b].insts.iter().position(|&i| converts(f, &f.insts[i]));
            if let Some(pos) = found {
                if f.ssa {
                    return Err(PassError::in_func(
                        f,
                        "a shared atomic to expand into a compare-and-swap loop in an SSA function \
                         (phase 5 runs on non-SSA PTX-stage Ori)",
                    ));
                }
                expand_shared_atomic(f, li, pos);
                changed += 1;
            }
            li += 1;
        }
        Ok(changed)
    }
}

/// The operation an `atom.shared` without an `ATOMS` form applies to the old value, with its
/// modifiers (those the interpreter's `atom` uses: the type, and round-to-nearest for a float
/// `add`), or `None` for every other instruction.
pub fn combine_op(d: &InstData) -> Option<(Opcode, Mods)> {
    let Some(Operand::Mem(m)) = d.srcs.first() else { return None };
    if d.opcode != Opcode::Atom || m.space != Space::Shared {
        return None;
    }
    let t = d.ty()?;
    let op = match d.mods.sub? {
        SubOp::AddOp => Opcode::Add,
        SubOp::MinOp => Opcode::Min,
        SubOp::MaxOp => Opcode::Max,
        SubOp::AndOp => Opcode::And,
        SubOp::OrOp => Opcode::Or,
        SubOp::XorOp => Opcode::Xor,
        _ => return None,
    };
    // ATOMS combines 32-bit integers only.
    let no_atoms_form = match t.bits() {
        16 | 64 => true,
        32 => t.is_float(),
        _ => false,
    };
    if !no_atoms_form {
        return None;
    }
    let rnd = (op == Opcode::Add && t.is_float()).then_some(Rnd::Rn);
    Some((op, Mods { rnd, ..Mods::ty(t) }))
}

/// Whether phase 5 converts instruction `d` of `f`: an atomic [`combine_op`] names whose
/// address it can compute (a 16-bit atomic's address register, if any, is 32-bit).
fn converts(f: &Function, d: &InstData) -> bool {
    let Some((_, mods)) = combine_op(d) else { return false };
    let Some(Operand::Mem(m)) = d.srcs.first() else { return false };
    mods.ty.is_some_and(|t| t.bits() != 16) || m.base.is_none_or(|r| f.reg_class(r) == Some(RegClass::R32))
}

fn imm(v: i64) -> Operand {
    Operand::Imm(Imm::Int(v))
}

/// Appends `dst = op.ty srcs` to block `b`, guarded by `guard`.
fn emit(f: &mut Function, b: Block, guard: Option<Guard>, op: Opcode, mods: Mods, dst: Reg, srcs: Vec<Operand>) {
    f.push_inst(b, InstData { guard, ..InstData::new(op, mods, vec![dst], srcs) });
}

/// A new 32-bit register.
fn r32(f: &mut Function) -> Reg {
    f.new_vreg(RegClass::R32).into()
}

/// Appends to `b` the computation of the 32-bit shared address of `m` and returns it.
fn shared_address(f: &mut Function, b: Block, m: &MemRef) -> Operand {
    let u32 = Mods::ty(Ty::U32);
    let mut acc: Option<Operand> = None;
    if let Some(sym) = &m.sym {
        let a = r32(f);
        let var = MemRef { space: Space::Shared, sym: Some(sym.clone()), base: None, offset: 0 };
        emit(f, b, None, Opcode::Mova, u32.clone(), a, vec![Operand::Mem(var)]);
        acc = Some(Operand::reg(a));
    }
    for part in m.base.map(Operand::reg).into_iter().chain((m.offset != 0).then(|| imm(m.offset))) {
        acc = Some(match acc {
            None => part,
            Some(x) => {
                let a = r32(f);
                emit(f, b, None, Opcode::Add, u32.clone(), a, vec![x, part]);
                Operand::reg(a)
            }
        });
    }
    acc.unwrap_or_else(|| imm(0))
}

/// Expands the atomic at position `pos` of the block at layout index `li`.
fn expand_shared_atomic(f: &mut Function, li: usize, pos: usize) {
    let b = f.layout[li];
    let atom_id = f.blocks[b].insts[pos];
    let d = f.insts[atom_id].clone();
    let (op, mods) = combine_op(&d).expect("checked by the caller");
    let t = d.ty().expect("typed");
    let wide = t.bits() == 64;
    let (class, bits_ty, cmp_ty) =
        if wide { (RegClass::R64, Ty::B64, Ty::U64) } else { (RegClass::R32, Ty::B32, Ty::U32) };
    let Some(Operand::Mem(m)) = d.srcs.first().cloned() else { unreachable!("checked by the caller") };
    let v = d.srcs[1].clone();
    let dst = d.dsts[0];
    let g = d.guard;
    let (b32, u32) = (Mods::ty(Ty::B32), Mods::ty(Ty::U32));

    let tail: Vec<_> = f.blocks[b].insts.split_off(pos + 1);
    f.blocks[b].insts.pop(); // the atomic
    let l = f.blocks.push(BlockData::default());
    let t_blk = f.blocks.push(BlockData::default());
    f.layout.insert(li + 1, l);
    f.layout.insert(li + 2, t_blk);

    // B: for a 16-bit atomic, the aligned word holding it and its bit position in the word
    // (as ptxas: word = a & ~2, shift = (a & 2) * 8); the load; the way into the loop.
    let (mem, shift) = if t.bits() == 16 {
        let a = shared_address(f, b, &m);
        let (w, s, sh) = (r32(f), r32(f), r32(f));
        emit(f, b, None, Opcode::And, b32.clone(), w, vec![a.clone(), imm(0xffff_fffd)]);
        emit(f, b, None, Opcode::And, b32.clone(), s, vec![a, imm(2)]);
        emit(f, b, None, Opcode::Shl, b32.clone(), sh, vec![Operand::reg(s), imm(3)]);
        (MemRef { space: Space::Shared, sym: None, base: Some(w), offset: 0 }, Some(sh))
    } else {
        (m, None)
    };
    let mem = Operand::Mem(mem);
    let old: Reg = f.new_vreg(class).into();
    emit(f, b, g, Opcode::Ld, Mods::ty(bits_ty), old, vec![mem.clone()]);
    let enter = match g {
        Some(g) => InstData {
            guard: Some(Guard { reg: g.reg, not: !g.not }),
            ..InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(t_blk)])
        },
        None => InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(l)]),
    };
    f.push_inst(b, enter);

    // L: one attempt. A 16-bit value is taken out of the word, combined, and put back.
    let new: Reg = f.new_vreg(class).into();
    match shift {
        None => emit(f, l, None, op, mods, new, vec![Operand::reg(old), v]),
        Some(sh) => {
            let (h, x, y, z, k, mask, keep) = (r32(f), r32(f), r32(f), r32(f), r32(f), r32(f), r32(f));
            emit(f, l, None, Opcode::Shr, u32.clone(), h, vec![Operand::reg(old), Operand::reg(sh)]);
            emit(f, l, None, Opcode::And, b32.clone(), x, vec![Operand::reg(h), imm(0xffff)]);
            emit(f, l, None, op, mods, y, vec![Operand::reg(x), v]);
            emit(f, l, None, Opcode::And, b32.clone(), z, vec![Operand::reg(y), imm(0xffff)]);
            emit(f, l, None, Opcode::Shl, b32.clone(), k, vec![Operand::reg(z), Operand::reg(sh)]);
            emit(f, l, None, Opcode::Shl, b32.clone(), mask, vec![imm(0xffff), Operand::reg(sh)]);
            emit(f, l, None, Opcode::Not, b32.clone(), mask, vec![Operand::reg(mask)]);
            emit(f, l, None, Opcode::And, b32.clone(), keep, vec![Operand::reg(old), Operand::reg(mask)]);
            emit(f, l, None, Opcode::Or, b32.clone(), new, vec![Operand::reg(keep), Operand::reg(k)]);
        }
    }
    let res: Reg = f.new_vreg(class).into();
    f.push_inst(
        l,
        InstData::new(Opcode::AtomCas, Mods::ty(bits_ty), vec![res], vec![mem, Operand::reg(old), Operand::reg(new)]),
    );
    let p: Reg = f.new_vreg(RegClass::P).into();
    let ne = Mods { cmp: Some(Cmp::Ne), ..Mods::ty(cmp_ty) };
    emit(f, l, None, Opcode::Setp, ne, p, vec![Operand::reg(res), Operand::reg(old)]);
    emit(f, l, None, Opcode::Mov, Mods::ty(bits_ty), old, vec![Operand::reg(res)]);
    let back = InstData {
        guard: Some(Guard { reg: p, not: false }),
        ..InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(l)])
    };
    f.push_inst(l, back);

    // T: the result (a 16-bit one zero-extended, as the atomic writes it), then the rest of B.
    match shift {
        None => emit(f, t_blk, g, Opcode::Mov, Mods::ty(bits_ty), dst, vec![Operand::reg(old)]),
        Some(sh) => {
            let h = r32(f);
            emit(f, t_blk, None, Opcode::Shr, u32, h, vec![Operand::reg(old), Operand::reg(sh)]);
            emit(f, t_blk, g, Opcode::And, b32, dst, vec![Operand::reg(h), imm(0xffff)]);
        }
    }
    f.blocks[t_blk].insts.extend(tail);

    // Phis of B's successors (through its terminator, now T's, or its fall-through) named B.
    let mut succs: Vec<Block> = f.last_inst(t_blk).map(|i| f.insts[i].blocks().collect()).unwrap_or_default();
    if let Some(n) = f.layout.get(li + 3).copied() {
        succs.push(n);
    }
    for s in succs {
        rename_phi_pred(f, s, b, t_blk);
    }
}
