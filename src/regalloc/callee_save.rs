//! A device function's register preservation and final frame (after allocation): the
//! callee-saved half of the `.func` ABI of [`crate::lower::isel::call`].
//!
//! Every general register the allocated function writes (destinations of its instructions,
//! a `CALL`'s return registers included), except R1 (the stack pointer, restored by the
//! epilogue's adjustment), RZ and the function's own parameter and return words, is stored on
//! entry and reloaded before every `RET`; so is every predicate P0–P6 it writes (as 0/1 through
//! a scratch register that is itself saved). The save area sits at the top of the frame, so
//! nothing laid out before moves:
//!
//! ```text
//! R1 (final) -> [0, F)        locals (isel's IADD3 R1, R1, -F)
//!               [F, F+S)      spill slots (the allocator's IADD3 R1, R1, -S)
//!               [F+S, F+S+Z)  saved registers (this pass's IADD3 R1, R1, -Z, first)
//! caller's R1 ->
//! ```
//!
//! The prologue's adjustments are the leading instructions of the entry block (all of them
//! write R1 only, so their order does not matter and every later R1-relative offset is final);
//! the saves follow them, before anything else can write a register. Each return is preceded
//! by the predicate reloads, the register reloads and `IADD3 R1, R1, F+S+Z, RZ`.
//!
//! This runs after [`super::check`] (which proves the body's allocation); what it adds is only
//! saves and reloads of whole registers at fixed slots, and it refuses what it cannot
//! preserve (uniform registers written, guarded returns).

use crate::ori::{
    BoolOp, Cmp, FuncKind, Function, Imm, InstData, MemRef, Mods, Opcode, Operand, PhysReg, Reg, RegFile, RegUse,
    Space, Ty,
};

/// What the pass laid out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saved {
    /// General registers saved (indices).
    pub gprs: Vec<u16>,
    /// Predicates saved (indices).
    pub preds: Vec<u16>,
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
    let mut preds = std::collections::BTreeSet::new();
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
                        if x != 1 && !own.contains(&x) {
                            gprs.insert(x);
                        }
                    }
                }
                RegFile::P => {
                    preds.insert(p.index);
                }
                RegFile::UR | RegFile::UP => {
                    return Err(format!("a device function writing the uniform register {p}"));
                }
                _ => {}
            }
        }
    }
    // The scratch register of the predicate saves: a saved register other than the return
    // address pair (anything else would do; R0 joins the saved set when none is).
    let scratch = if preds.is_empty() {
        None
    } else {
        let s = gprs.iter().copied().find(|&k| k != 2 && k != 3).unwrap_or(0);
        if own.contains(&s) {
            return Err("no scratch register for the predicate saves".into());
        }
        gprs.insert(s);
        Some(s)
    };
    let gprs: Vec<u16> = gprs.into_iter().collect();
    let preds: Vec<u16> = preds.into_iter().collect();
    let z = (4 * (gprs.len() + preds.len()) as u32).next_multiple_of(8);
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
    let slot_g = |k: usize| top + 4 * k as u32;
    let slot_p = |k: usize| top + 4 * (gprs.len() + k) as u32;
    // Prologue.
    let e = f.entry().ok_or("a function without blocks")?;
    let mut pro = Vec::new();
    if z > 0 {
        pro.push(adjust(-i64::from(z)));
    }
    let lead = f.block_insts(e).iter().take_while(|&&i| is_r1_only(&f.insts[i])).count();
    let mut saves = Vec::new();
    for (k, &g) in gprs.iter().enumerate() {
        saves.push(InstData::new(Opcode::STL, Mods::ty(Ty::B32), vec![], vec![mem(slot_g(k)), Operand::reg(r(g))]));
    }
    if let Some(s) = scratch {
        for (k, &p) in preds.iter().enumerate() {
            let mut u = RegUse::new(PhysReg::new(RegFile::P, p));
            u.not = true;
            // SEL s, RZ, 1, !p  ==  p ? 1 : 0
            saves.push(InstData::new(
                Opcode::SEL,
                Mods::new(),
                vec![Reg::Phys(r(s))],
                vec![Operand::reg(PhysReg::RZ), Operand::Imm(Imm::Int(1)), Operand::Reg(u)],
            ));
            saves.push(InstData::new(Opcode::STL, Mods::ty(Ty::B32), vec![], vec![mem(slot_p(k)), Operand::reg(r(s))]));
        }
    }
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
        let mut epi = Vec::new();
        if let Some(s) = scratch {
            for (k, &p) in preds.iter().enumerate() {
                epi.push(InstData::new(Opcode::LDL, Mods::ty(Ty::B32), vec![Reg::Phys(r(s))], vec![mem(slot_p(k))]));
                let m = Mods { cmp: Some(Cmp::Ne), bop: Some(BoolOp::And), ..Mods::ty(Ty::U32) };
                epi.push(InstData::new(
                    Opcode::ISETP,
                    m,
                    vec![Reg::Phys(PhysReg::new(RegFile::P, p)), Reg::Phys(PhysReg::PT)],
                    vec![Operand::reg(r(s)), Operand::reg(PhysReg::RZ), Operand::reg(PhysReg::PT)],
                ));
            }
        }
        for (k, &g) in gprs.iter().enumerate() {
            epi.push(InstData::new(Opcode::LDL, Mods::ty(Ty::B32), vec![Reg::Phys(r(g))], vec![mem(slot_g(k))]));
        }
        if frame > 0 {
            epi.push(adjust(i64::from(frame)));
        }
        let pos = f.blocks[b].insts.iter().position(|&i| i == ret).ok_or("a return outside its block")?;
        let ids: Vec<_> = epi.into_iter().map(|d| f.insts.push(d)).collect();
        f.blocks[b].insts.splice(pos..pos, ids);
    }
    let n = 4 * (gprs.len() + preds.len()) as u32;
    Ok(Saved { gprs, preds, frame, store_bytes: n, load_bytes: n * nrets })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_written_registers_and_predicates_but_not_own_words() {
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
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(7)], vec![Operand::reg(r(4))]));
        f.push_inst(b, InstData::new(Opcode::MOV, Mods::new(), vec![rr(4)], vec![Operand::reg(r(7))]));
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
        assert_eq!(s.gprs, vec![7]);
        assert_eq!(s.preds, vec![0]);
        assert_eq!(s.frame, 16 + 8 + 8);
        let text: Vec<String> =
            f.inst_order().map(|(_, i)| crate::ori::print::inst_to_string(&f, &f.insts[i])).collect();
        let all = text.join("\n");
        // The adjustment comes first, saves follow the prologue, restores precede RET.
        assert_eq!(text[0], "R1 = IADD3 R1, -8, RZ", "{all}");
        assert!(text[2].contains("STL") && text[2].contains("0x18"), "{all}");
        assert!(text.last().unwrap().starts_with("RET"), "{all}");
        assert_eq!(text[text.len() - 2], "R1 = IADD3 R1, 32, RZ", "{all}");
        assert_eq!(text[text.len() - 3], "R7 = LDL.B32 local[R1+0x18]", "{all}");
        // A uniform register written cannot be preserved.
        let mut g = f.clone();
        g.push_inst(
            b,
            InstData::new(
                Opcode::MOV,
                Mods::new(),
                vec![Reg::Phys(PhysReg::new(RegFile::UR, 4))],
                vec![Operand::Imm(Imm::Int(0))],
            ),
        );
        assert!(finish(&mut g, 0, 0, &[]).is_err());
    }
}
