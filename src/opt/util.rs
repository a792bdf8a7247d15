//! IR editing helpers shared by the passes: register keys for dataflow, def/use queries,
//! removability, constants as operands, and block-list edits that keep phis consistent.
//!
//! Invariants: helpers never leave an instruction in two blocks, and every edge they remove
//! or rename is also removed or renamed in the target block's phis.

use std::collections::HashSet;

use crate::ori::opcode::{OpFlags, Slot, SlotKind};
use crate::ori::{
    Block, Flag, Function, Imm, Inst, InstData, Mods, Opcode, Operand, PhysReg, Reg, RegClass, RegFile, RegUse, Ty,
    VReg,
};

/// A unit of register storage for dataflow: a whole virtual register, or one 32-bit component
/// (one predicate) of a physical register. Zero registers have no key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegKey {
    /// A virtual register.
    Virt(VReg),
    /// A physical component.
    Phys(RegFile, u16),
}

/// The keys a register occupies (none for RZ/URZ/PT/UPT).
pub fn reg_keys(r: Reg) -> impl Iterator<Item = RegKey> {
    let (v, p) = match r {
        Reg::Virt(v) => (Some(RegKey::Virt(v)), None),
        Reg::Phys(p) if p.is_zero() => (None, None),
        Reg::Phys(p) => (None, Some(p)),
    };
    v.into_iter()
        .chain(p.into_iter().flat_map(|p| (0..u16::from(p.count)).map(move |i| RegKey::Phys(p.file, p.index + i))))
}

/// Whether `d` reads only values (no memory, no control, no side effect) and writes at least
/// one register, so it may be deleted when its results are dead. Non-volatile loads count as
/// removable: deleting a dead load only removes a possible fault.
pub fn is_removable(d: &InstData) -> bool {
    let info = d.opcode.info();
    if d.dsts.is_empty() {
        return false;
    }
    if info.has(OpFlags::TERM)
        || info.has(OpFlags::CALL)
        || info.has(OpFlags::SIDE_EFFECT)
        || info.has(OpFlags::MEM_WRITE)
    {
        return false;
    }
    if info.has(OpFlags::MEM_READ) && d.mods.has(Flag::Volatile) {
        return false;
    }
    true
}

/// Whether `d` is a phi.
pub fn is_phi(d: &InstData) -> bool {
    d.opcode.info().has(OpFlags::PHI)
}

/// Removes the instruction at position `pos` of block `b`.
pub fn unlink(f: &mut Function, b: Block, pos: usize) -> Inst {
    f.blocks[b].insts.remove(pos)
}

/// Keys read anywhere in the function, phi operands included.
pub fn used_keys(f: &Function) -> HashSet<RegKey> {
    let mut s = HashSet::new();
    for (_, i) in f.inst_order() {
        for r in f.insts[i].uses() {
            s.extend(reg_keys(r));
        }
    }
    s
}

/// The slot that source operand `i` of `d` fills (variadic and paired lists repeat).
pub fn src_slot(d: &InstData, i: usize) -> Option<Slot> {
    let info = d.opcode.info();
    let n = info.srcs.len();
    if n == 0 {
        return None;
    }
    if i < n {
        return Some(info.srcs[i]);
    }
    if info.has(OpFlags::PAIRS) {
        return Some(info.srcs[i % n]);
    }
    if info.has(OpFlags::VAR_SRCS) {
        return Some(info.srcs[n - 1]);
    }
    None
}

/// The data type a slot of `d` reads (`None` for untyped slots).
pub fn slot_ty(d: &InstData, slot: Slot) -> Option<Ty> {
    match slot.kind {
        SlotKind::Ty | SlotKind::TyWide => d.ty(),
        SlotKind::SrcTy => d.mods.src_ty,
        SlotKind::Word => Some(Ty::B32),
        SlotKind::Dword => Some(Ty::B64),
        _ => None,
    }
}

/// The low `bits` bits set (all 64 from 64 on).
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

/// An immediate holding register bits `bits` for a slot of type `ty` (floats print as float
/// bit patterns; the interpreter reads immediates as raw bits either way).
pub fn imm_for(ty: Option<Ty>, bits: u64) -> Imm {
    match ty {
        Some(Ty::F32) => Imm::F32(bits as u32),
        Some(Ty::F64) => Imm::F64(bits),
        Some(t) if t.bits() <= 32 => Imm::Int(i64::from(bits as u32 as i32)),
        _ => Imm::Int(bits as i64),
    }
}

/// A read of the constant predicate `value` in register file `file` (`PT` or `!PT`, `UPT` or
/// `!UPT`).
pub fn const_pred(file: RegFile, value: bool) -> RegUse {
    let z = PhysReg::zero(if file.is_uniform() { RegFile::UP } else { RegFile::P }).unwrap_or(PhysReg::PT);
    RegUse { reg: Reg::Phys(z), neg: false, abs: false, not: !value }
}

/// The constant value a predicate read has, if it reads PT/UPT.
pub fn pred_const(u: &RegUse) -> Option<bool> {
    match u.reg {
        Reg::Phys(p) if p.is_zero() && p.file.is_pred() => Some(!u.not),
        _ => None,
    }
}

/// The move opcode of the function's stage.
pub fn mov_opcode(f: &Function) -> Opcode {
    if f.sass { Opcode::MOV } else { Opcode::Mov }
}

/// A move of `src` into `dst` (class `class`), in the function's stage (`UMOV` for a 32-bit
/// uniform register), or `None` for classes no move carries (128-bit, barriers, 64-bit
/// uniform, uniform predicates).
pub fn make_mov(f: &Function, dst: Reg, class: RegClass, src: Operand) -> Option<InstData> {
    let ty = if class.file.is_pred() {
        Ty::Pred
    } else if class.file.is_data() {
        match class.count {
            1 => Ty::B32,
            2 => Ty::B64,
            _ => return None,
        }
    } else {
        return None;
    };
    if class.file.is_uniform() {
        // Only the uniform datapath writes uniform files, and it has a 32-bit move only.
        return (ty == Ty::B32).then(|| InstData::new(Opcode::UMOV, Mods::new(), vec![dst], vec![src]));
    }
    Some(InstData::new(mov_opcode(f), Mods::ty(ty), vec![dst], vec![src]))
}

/// Removes the incoming pairs for predecessor `from` in the phis of `to`.
pub fn remove_phi_edge(f: &mut Function, to: Block, from: Block) {
    let insts = f.blocks[to].insts.clone();
    for i in insts {
        let d = &mut f.insts[i];
        if !is_phi(d) {
            break;
        }
        let mut k = 0;
        while k + 1 < d.srcs.len() {
            if d.srcs[k + 1] == Operand::Block(from) {
                d.srcs.drain(k..k + 2);
            } else {
                k += 2;
            }
        }
    }
}

/// Renames predecessor `old` to `new` in the phis of `to`.
pub fn rename_phi_pred(f: &mut Function, to: Block, old: Block, new: Block) {
    let insts = f.blocks[to].insts.clone();
    for i in insts {
        let d = &mut f.insts[i];
        if !is_phi(d) {
            break;
        }
        for s in d.srcs.iter_mut() {
            if *s == Operand::Block(old) {
                *s = Operand::Block(new);
            }
        }
    }
}

/// Whether block `b` starts with a phi.
pub fn has_phis(f: &Function, b: Block) -> bool {
    f.block_insts(b).first().is_some_and(|&i| is_phi(&f.insts[i]))
}

/// The block before `b` in the layout.
pub fn layout_prev(f: &Function, b: Block) -> Option<Block> {
    let i = f.layout.iter().position(|&x| x == b)?;
    i.checked_sub(1).map(|j| f.layout[j])
}

/// Number of laid-out instructions.
pub fn inst_count(f: &Function) -> usize {
    f.layout.iter().map(|&b| f.block_insts(b).len()).sum()
}
