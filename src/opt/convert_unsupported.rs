//! ConvertUnsupportedOps (5): rewrites PTX-stage operations the target has no instruction for
//! into sequences of operations it has (digest-frontend §4 "SM-availability fallbacks";
//! digest-optimizer §2.14, whose example is an atomic without a hardware form).
//!
//! # What is converted: shared-memory atomics without an `ATOMS` form
//!
//! The shared-memory atomic unit (`ATOMS`) of every target ptxas-rs lowers for executes only
//! 32-bit integer operations (`add`, `min`, `max`, `inc`, `dec`, `and`, `or`, `xor`, `exch`),
//! 64-bit `exch`, and compare-and-swap of 32 and 64 bits. Every other `atom.shared` /
//! `red.shared` — float `add` (f32, f64, f16x2, bf16x2) and 64-bit `add`, `min`, `max`, `and`,
//! `or`, `xor` — is a compare-and-swap loop. Evidence (ptxas 13.0.88, `cuobjdump -sass`, one
//! `atom.shared.<op>` per kernel, sm_75, sm_80, sm_90, sm_100 and sm_120 alike):
//! `add.f32` → `LDS; FADD; ATOMS.CAST.SPIN` in a loop, `add.f64` → `LDS.64; DADD;
//! ATOMS.CAST.SPIN.64`, `add.u64`, `min.s64`, `max.u64`, `and.b64` → `LDS.64 … ATOMS.CAST.SPIN.64`,
//! `add.noftz.f16x2` / `bf16x2` → `LDS … ATOMS.CAST.SPIN`; while `add/max/inc.u32` stay `ATOMS.ADD`
//! / `.MAX` / `.INC` and `exch.b64` stays `ATOMS.EXCH.64`. The float `add` of that loop is a
//! plain `FADD`/`DADD` (round to nearest, no flush), which is what the interpreter's `atom`
//! computes.
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
//! with `L` and `T` new blocks laid out right after `B`. A lane's compare-and-swap stores
//! `old op v` exactly when the word still holds `old`, the value it was computed from;
//! otherwise the lane retries with the value it found. So every lane applies `op` once,
//! atomically, and receives the value it replaced: the `atom`'s meaning. (ptxas brackets the
//! loop with `BSSY`/`BSYNC`; here reconvergence is the interpreter's and the backend's.)
//! The expansion splits blocks itself, so the IR is well-formed after this phase and
//! SetControlFlowOpLastInBB finds nothing to split. Selection (`lower::isel`) keeps its own
//! loop for shared f32 and 64-bit `add`, reached only when it runs without the pipeline.
//! 16-bit atomics (scalar f16/bf16) are not converted (see [`combine_op`]).
//!
//! # Invariants
//!
//! - Runs on non-SSA PTX-stage Ori (`old` is written twice): a function in SSA form that needs
//!   a conversion is an error; SASS-stage functions are left alone.
//! - Every instruction other than a converted atomic keeps its block-relative order; the
//!   converted atomic is the only one removed; new registers are fresh virtual registers.
//! - Afterwards no `atom.shared` without an `ATOMS` form remains; each conversion counts one
//!   change.

use super::util::rename_phi_pred;
use super::{Pass, PassError, PassKind};
use crate::ori::{
    Block, BlockData, Cmp, Function, Guard, InstData, Mods, Opcode, Operand, Reg, RegClass, Rnd, Space, SubOp, Ty,
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
            let found = f.blocks[b].insts.iter().position(|&i| combine_op(&f.insts[i]).is_some());
            if let Some(pos) = found {
                if f.ssa {
                    return Err(PassError::in_func(
                        f,
                        "a shared atomic to expand into a compare-and-swap loop in an SSA function (phase 5 runs on non-SSA PTX-stage Ori)",
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
/// `add`), or `None` for every other instruction. Only 32- and 64-bit words are converted:
/// a 16-bit `atom.shared` (scalar f16/bf16) would need a loop on its containing word, and is
/// left to selection, which refuses it.
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
        32 => t.is_float(),
        64 => true,
        _ => false,
    };
    if !no_atoms_form {
        return None;
    }
    let rnd = (op == Opcode::Add && t.is_float()).then_some(Rnd::Rn);
    Some((op, Mods { rnd, ..Mods::ty(t) }))
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
    let mem = d.srcs[0].clone();
    let v = d.srcs[1].clone();
    let dst = d.dsts[0];
    let g = d.guard;

    let old: Reg = f.new_vreg(class).into();
    let new: Reg = f.new_vreg(class).into();
    let res: Reg = f.new_vreg(class).into();
    let p: Reg = f.new_vreg(RegClass::P).into();

    let tail: Vec<_> = f.blocks[b].insts.split_off(pos + 1);
    f.blocks[b].insts.pop(); // the atomic
    let l = f.blocks.push(BlockData::default());
    let t_blk = f.blocks.push(BlockData::default());
    f.layout.insert(li + 1, l);
    f.layout.insert(li + 2, t_blk);

    // B: the load and the way into the loop.
    let load = InstData { guard: g, ..InstData::new(Opcode::Ld, Mods::ty(bits_ty), vec![old], vec![mem.clone()]) };
    f.push_inst(b, load);
    let enter = match g {
        Some(g) => InstData {
            guard: Some(Guard { reg: g.reg, not: !g.not }),
            ..InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(t_blk)])
        },
        None => InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(l)]),
    };
    f.push_inst(b, enter);

    // L: one attempt.
    f.push_inst(l, InstData::new(op, mods, vec![new], vec![Operand::reg(old), v]));
    f.push_inst(
        l,
        InstData::new(Opcode::AtomCas, Mods::ty(bits_ty), vec![res], vec![mem, Operand::reg(old), Operand::reg(new)]),
    );
    let ne = Mods { cmp: Some(Cmp::Ne), ..Mods::ty(cmp_ty) };
    f.push_inst(l, InstData::new(Opcode::Setp, ne, vec![p], vec![Operand::reg(res), Operand::reg(old)]));
    f.push_inst(l, InstData::new(Opcode::Mov, Mods::ty(bits_ty), vec![old], vec![Operand::reg(res)]));
    let back = InstData {
        guard: Some(Guard { reg: p, not: false }),
        ..InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(l)])
    };
    f.push_inst(l, back);

    // T: the result, then the rest of B.
    let result =
        InstData { guard: g, ..InstData::new(Opcode::Mov, Mods::ty(bits_ty), vec![dst], vec![Operand::reg(old)]) };
    f.push_inst(t_blk, result);
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
