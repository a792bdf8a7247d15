//! A device function's register preservation and final frame (after allocation): the
//! callee-saved half of the `.func` ABI of [`crate::lower::isel::call`].
//!
//! # The rule, as ptxas 13.0.88 applies it (sm_90, `-O3`)
//!
//! Measured with `ptxas -c` on `.visible .func`s (whose callers are unknown, so the standard
//! ABI applies) and on `.extern` callees:
//! - a leaf using R0, R2–R15, R32–R35, R40–R43, … R97 (and only those) gets a 0-byte frame:
//!   those registers are *scratch*; it never touches R16–R31, R36–R39, R44–R47, …;
//! - a caller keeping 40 values and a predicate across a `CALL` to an `.extern` function puts
//!   them in R2, R16–R31, R36–R39, R44–R47, …, R84–R85 (the predicate through `P2R` into an
//!   R register; no predicate survives a call) and stores exactly those on entry, plus its
//!   return address R20–R21 (a 176-byte frame, 172 bytes of "spill stores"): they are
//!   *preserved*;
//! - in `func_recursion`, `sumsq` keeps `n` and `acc` across its recursive call by storing R0
//!   and R8:R9 itself (caller-saved: 12 bytes that `-v` does not count as spill stores) and
//!   saves only R2, R20, R21 (12 bytes of spill stores; 28 bytes round up to a 32-byte frame).
//!
//! So the preserved registers are R1 (stack pointer), R2, R16–R31 and, from R32, the groups of
//! four `R4k..R4k+3` with `k` odd; everything else (R0, R3–R15, the even groups from R32, every
//! predicate) is scratch. Our convention ([`crate::lower::isel::call::clobbered`]) is that one
//! with the return address in R2:R3 instead of R20:R21, so R3 is preserved too: ptxas saves
//! its return-address pair when the function calls, and so do we.
//!
//! # What this pass does
//!
//! Every preserved general register the allocated function writes (destinations of its
//! instructions, a `CALL`'s return registers included), except R1 (restored by the epilogue's
//! adjustment), RZ and the function's own parameter and return words, is stored on entry and
//! reloaded before every `RET`. Scratch registers, predicates and the uniform files (all
//! scratch, as in ptxas's ABI) are never saved: the
//! allocator keeps the caller's values live across a `CALL` out of them (and
//! [`super::check`] verifies it). The save area sits at the top of the frame, so nothing laid
//! out before moves:
//!
//! ```text
//! R1 (final) -> [0, F)        locals (isel's IADD3 R1, R1, -F)
//!               [F, F+S)      spill slots (the allocator's IADD3 R1, R1, -S)
//!               [F+S, F+S+Z)  saved registers (this pass's IADD3 R1, R1, -Z, first)
//! caller's R1 ->
//! ```
//!
//! Z is 4 bytes per saved register rounded up to 8 (so a leaf that writes only scratch
//! registers has F + S alone, 0 when it has no locals and spills, as ptxas's).
//!
//! The prologue's adjustments are the leading instructions of the entry block (all of them
//! write R1 only, so their order does not matter and every later R1-relative offset is final);
//! the saves follow them, before anything else can write a register. Each return is preceded
//! by the register reloads and `IADD3 R1, R1, F+S+Z, RZ`.
//!
//! This runs after [`super::check`] (which proves the body's allocation); what it adds is only
//! saves and reloads of whole registers at fixed slots, and it refuses what it cannot
//! preserve (guarded returns).

use crate::lower::isel::call::clobbered;
use crate::ori::{FuncKind, Function, Imm, InstData, MemRef, Mods, Opcode, Operand, PhysReg, Reg, RegFile, Space, Ty};

/// What the pass laid out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saved {
    /// General registers saved (indices, ascending).
    pub gprs: Vec<u16>,
    /// The whole frame: F + S + Z bytes.
    pub frame: u32,
    /// Bytes the saves store (static; ptxas counts them as spill stores).
    pub store_bytes: u32,
    /// Bytes the restores load (static, over every return; ptxas's spill loads).
    pub load_bytes: u32,
}

fn r(k: u16) -> PhysReg {
    PhysReg::new(RegFile::R, k)
}

fn is_r1_only(d: &InstData) -> bool {
    d.guard.is_none() && d.dsts == [Reg::Phys(r(1))]
}

/// Adds the saves, the restores and the final frame adjustment to the allocated device function
/// `f` whose locals take `locals` bytes (isel's F) and spill slots `spill` bytes (S); `own` are
/// its parameter and return word registers.
pub fn finish(f: &mut Function, locals: u32, spill: u32, own: &[PhysReg]) -> Result<Saved, String> {
    if f.kind != FuncKind::Func || !f.allocated || !f.sass {
        return Err("callee saves apply to allocated SASS-stage device functions".into());
    }
    let own: Vec<u16> = own.iter().map(|p| p.index).collect();
    let mut gprs = std::collections::BTreeSet::new();
    let mut rets = Vec::new();
    for (b, i) in f.inst_order() {
        let d = &f.insts[i];
        if d.opcode == Opcode::RET {
            if d.guard.is_some() {
                return Err("a guarded return".into());
            }
            rets.push((b, i));
        }
        for dst in &d.dsts {
            let Reg::Phys(p) = dst else { return Err("a virtual register after allocation".into()) };
            if p.is_zero() {
                continue;
            }
            match p.file {
                RegFile::R => {
                    for k in 0..u16::from(p.count) {
                        let x = p.index + k;
                        if x != 1 && !own.contains(&x) && !clobbered(RegFile::R, x) {
                            gprs.insert(x);
                        }
                    }
                }
                // Uniform registers and predicates are scratch (`clobbered`): never saved.
                _ => {}
            }
        }
    }
    let gprs: Vec<u16> = gprs.into_iter().collect();
    let z = (4 * gprs.len() as u32).next_multiple_of(8);
    let top = locals + spill;
    let frame = top + z;
    let mem = |off: u32| {
        Operand::Mem(MemRef { space: Space::Local, sym: None, base: Some(Reg::Phys(r(1))), offset: i64::from(off) })
    };
    let adjust = |by: i64| {
        InstData::new(
            Opcode::IADD3,
            Mods::new(),
            vec![Reg::Phys(r(1))],
            vec![Operand::reg(r(1)), Operand::Imm(Imm::Int(by)), Operand::reg(PhysReg::RZ)],
        )
    };
    let slot = |k: usize| top + 4 * k as u32;
    // Prologue.
    let e = f.entry().ok_or("a function without blocks")?;
    let lead = f.block_insts(e).iter().take_while(|&&i| is_r1_only(&f.insts[i])).count();
    let mut pro = Vec::new();
    if z > 0 {
        pro.push(adjust(-i64::from(z)));
    }
    let saves: Vec<InstData> = gprs
        .iter()
        .enumerate()
        .map(|(k, &g)| InstData::new(Opcode::STL, Mods::ty(Ty::B32), vec![], vec![mem(slot(k)), Operand::reg(r(g))]))
        .collect();
    let mut insts = f.blocks[e].insts.clone();
    let mut at = 0;
    for d in pro {
        insts.insert(at, f.insts.push(d));
        at += 1;
    }
    at += lead;
    for d in saves {
        insts.insert(at, f.insts.push(d));
        at += 1;
    }
    f.blocks[e].insts = insts;
    // Epilogues.
    let nrets = rets.len() as u32;
    for (b, ret) in rets {
        let mut epi: Vec<InstData> = gprs
            .iter()
            .enumerate()
            .map(|(k, &g)| InstData::new(Opcode::LDL, Mods::ty(Ty::B32), vec![Reg::Phys(r(g))], vec![mem(slot(k))]))
            .collect();
        if frame > 0 {
            epi.push(adjust(i64::from(frame)));
        }
        let pos = f.blocks[b].insts.iter().position(|&i| i == ret).ok_or("a return outside its block")?;
        let ids: Vec<_> = epi.into_iter().map(|d| f.insts.push(d)).collect();
        f.blocks[b].insts.splice(pos..pos, ids);
    }
    let n = 4 * gprs.len() as u32;
    Ok(Saved { gprs, frame, store_bytes: n, load_bytes: n * nrets })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ori::{BoolOp, Cmp};

    #[test]
    fn saves_written_preserved_registers_only() {
        let mut f = Function::new("g", FuncKind::Func);
        f.sass = true;
        f.allocated = true;
        let b = f.new_block();
        let rr = |k| Reg::Phys(r(k));
        f.push_inst(
            b,
            InstData::new(
                Opcode::IADD3,
                Mods::new(),
                vec![rr(1)],
                vec![Operand::reg(r(1)), Operand::Imm(Imm::Int(-16)), Operand::reg(PhysReg::RZ)],
            ),
        );
        // R7 and R0 are scratch, R16 and R36 preserved, R4 is the function's own word.
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(7)], vec![Operand::reg(r(4))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(0)], vec![Operand::reg(r(4))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(16)], vec![Operand::reg(r(7))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(36)], vec![Operand::reg(r(7))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(4)], vec![Operand::reg(r(16))]));
        let m = Mods { cmp: Some(Cmp::Ne), bop: Some(BoolOp::And), ..Mods::ty(Ty::U32) };
        let p0 = Reg::Phys(PhysReg::new(RegFile::P, 0));
        f.push_inst(
            b,
            InstData::new(
                Opcode::ISETP,
                m,
                vec![p0, Reg::Phys(PhysReg::PT)],
                vec![Operand::reg(r(7)), Operand::reg(PhysReg::RZ), Operand::reg(PhysReg::PT)],
            ),
        );
        f.push_inst(b, InstData::new(Opcode::RET, Mods::new(), vec![], vec![Operand::reg(r(2)), Operand::reg(r(4))]));
        let s = finish(&mut f, 16, 8, &[r(4)]).unwrap();
        assert_eq!(s.gprs, vec![16, 36]);
        assert_eq!(s.frame, 16 + 8 + 8);
        assert_eq!((s.store_bytes, s.load_bytes), (8, 8));
        let text: Vec<String> =
            f.inst_order().map(|(_, i)| crate::ori::print::inst_to_string(&f, &f.insts[i])).collect();
        let all = text.join("\n");
        // The adjustment comes first, saves follow the prologue, restores precede RET.
        assert_eq!(text[0], "R1 = IADD3 R1, -8, RZ", "{all}");
        assert!(text[2].contains("STL") && text[2].contains("0x18") && text[2].contains("R16"), "{all}");
        assert!(text.last().unwrap().starts_with("RET"), "{all}");
        assert_eq!(text[text.len() - 2], "R1 = IADD3 R1, 32, RZ", "{all}");
        assert_eq!(text[text.len() - 3], "R36 = LDL.B32 local[R1+0x1c]", "{all}");
        assert!(!all.contains("SEL") && !all.contains("R7 = LDL") && !all.contains("R0 = LDL"), "{all}");
    }

    #[test]
    fn uniform_registers_written_are_scratch() {
        let mut f = Function::new("redux", FuncKind::Func);
        f.sass = true;
        f.allocated = true;
        let b = f.new_block();
        let u = |k| Reg::Phys(PhysReg::new(RegFile::UR, k));
        let up0 = Reg::Phys(PhysReg::new(RegFile::UP, 0));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![u(62)], vec![Operand::reg(r(4))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![u(4)], vec![Operand::Imm(Imm::Int(0))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![up0], vec![Operand::reg(PhysReg::PT)]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![Reg::Phys(r(16))], vec![Operand::reg(r(4))]));
        f.push_inst(b, InstData::new(Opcode::RET, Mods::new(), vec![], vec![Operand::reg(r(2))]));
        let s = finish(&mut f, 0, 0, &[r(4)]).unwrap();
        // Only R16 (preserved) is saved; UR62, UR4 and UP0 are scratch.
        assert_eq!(s.gprs, vec![16]);
        assert_eq!(s.frame, 8);
    }

    #[test]
    fn a_leaf_writing_only_scratch_registers_keeps_its_frame() {
        let mut f = Function::new("leaf", FuncKind::Func);
        f.sass = true;
        f.allocated = true;
        let b = f.new_block();
        let rr = |k| Reg::Phys(r(k));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(0)], vec![Operand::reg(r(4))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(15)], vec![Operand::reg(r(0))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(32)], vec![Operand::reg(r(15))]));
        f.push_inst(b, InstData::new(Opcode::RET, Mods::new(), vec![], vec![Operand::reg(r(2))]));
        let s = finish(&mut f, 0, 0, &[r(4)]).unwrap();
        assert_eq!(s, Saved { gprs: vec![], frame: 0, store_bytes: 0, load_bytes: 0 });
        assert_eq!(f.inst_order().count(), 4);
    }
}
