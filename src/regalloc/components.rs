//! `Get64bRegComponents` (phase 125): after allocation, the register-pair pseudo-operations
//! become 32-bit moves.
//!
//! Instruction selection joins and splits 64-bit values with `PACK64 d:d+1 = lo, hi` and
//! `UNPACK64 lo, hi = s:s+1`, which have no SASS encoding. Once registers are physical each one
//! is a parallel copy of two 32-bit components; this pass writes it as `MOV`s, ordered so no
//! component is overwritten before it is read, with a swap (`LOP3.LUT` exclusive-or three
//! times) where the two copies form a cycle. Copies onto themselves disappear, so a well
//! allocated pair costs nothing.
//!
//! Invariants: only allocated functions are rewritten; the guard of a pseudo-operation guards
//! each instruction it becomes; every other instruction is untouched and keeps its id.

use crate::ori::{Function, Imm, InstData, Mods, Opcode, Operand, PhysReg, Reg, RegFile};

/// The 32-bit components of a physical register operand: `count` registers from `index`
/// (RZ stands for as many RZs as asked).
fn components(r: Reg, n: u8) -> Result<Vec<PhysReg>, String> {
    components_in(r, n, RegFile::R)
}

/// [`components`] in register file `file` (R, or UR for `UPACK64`/`UPACK128`).
fn components_in(r: Reg, n: u8, file: RegFile) -> Result<Vec<PhysReg>, String> {
    let Reg::Phys(p) = r else { return Err(format!("virtual register {r:?} after allocation")) };
    if p.file != file {
        return Err(format!("{p} is not a {file:?} register"));
    }
    if p.is_zero() {
        let z = PhysReg::zero(file).ok_or("no zero register")?;
        return Ok(vec![z; usize::from(n)]);
    }
    if p.count != n {
        return Err(format!("{p} is not a {n}-register operand"));
    }
    Ok((0..u16::from(n)).map(|k| PhysReg::new(file, p.index + k)).collect())
}

fn src_reg(o: &Operand) -> Result<Reg, String> {
    match o {
        Operand::Reg(u) if !u.has_mods() => Ok(u.reg),
        other => Err(format!("operand {other:?} of a register-pair pseudo-operation")),
    }
}

/// The parallel copies (destination, source) one pseudo-operation stands for.
fn copies(d: &InstData) -> Result<Vec<(PhysReg, PhysReg)>, String> {
    match (d.opcode, &d.dsts[..], &d.srcs[..]) {
        (Opcode::PACK64 | Opcode::UPACK64, [dst], [lo, hi]) => {
            let file = if d.opcode == Opcode::UPACK64 { RegFile::UR } else { RegFile::R };
            let dst = components_in(*dst, 2, file)?;
            let lo = components_in(src_reg(lo)?, 1, file)?[0];
            let hi = components_in(src_reg(hi)?, 1, file)?[0];
            Ok(vec![(dst[0], lo), (dst[1], hi)])
        }
        (Opcode::UNPACK64, [lo, hi], [src]) => {
            let src = components(src_reg(src)?, 2)?;
            let lo = components(*lo, 1)?[0];
            let hi = components(*hi, 1)?[0];
            Ok(vec![(lo, src[0]), (hi, src[1])])
        }
        (Opcode::PACK128 | Opcode::UPACK128, [dst], srcs) if srcs.len() == 4 => {
            let file = if d.opcode == Opcode::UPACK128 { RegFile::UR } else { RegFile::R };
            let dst = components_in(*dst, 4, file)?;
            let mut out = Vec::new();
            for (d, s) in dst.into_iter().zip(srcs) {
                out.push((d, components_in(src_reg(s)?, 1, file)?[0]));
            }
            Ok(out)
        }
        (Opcode::UNPACK128, dsts, [src]) if dsts.len() == 4 => {
            let src = components(src_reg(src)?, 4)?;
            let mut out = Vec::new();
            for (d, s) in dsts.iter().zip(src) {
                out.push((components(*d, 1)?[0], s));
            }
            Ok(out)
        }
        (Opcode::PACKW, [dst], srcs) => {
            let dst = components(*dst, u8::try_from(srcs.len()).map_err(|_| "a PACKW of over 255 parts")?)?;
            let mut out = Vec::new();
            for (d, s) in dst.into_iter().zip(srcs) {
                out.push((d, components(src_reg(s)?, 1)?[0]));
            }
            Ok(out)
        }
        (Opcode::UNPACKW, dsts, [src]) => {
            let src = components(src_reg(src)?, u8::try_from(dsts.len()).map_err(|_| "an UNPACKW of over 255 parts")?)?;
            let mut out = Vec::new();
            for (d, s) in dsts.iter().zip(src) {
                out.push((components(*d, 1)?[0], s));
            }
            Ok(out)
        }
        _ => Err("malformed register-pair pseudo-operation".into()),
    }
}

/// Orders parallel copies into instructions.
fn sequence(mut moves: Vec<(PhysReg, PhysReg)>) -> Vec<InstData> {
    moves.retain(|(d, s)| d != s && !d.is_zero());
    // Uniform pairs and quads (`UPACK64`, `UPACK128`) copy with UMOV / ULOP3.
    let uniform = moves.first().is_some_and(|(d, _)| d.file == RegFile::UR);
    let (mov_op, lop_op) = if uniform { (Opcode::UMOV, Opcode::ULOP3) } else { (Opcode::MOV, Opcode::LOP3) };
    let zero = if uniform { PhysReg::zero(RegFile::UR).expect("URZ") } else { PhysReg::RZ };
    let mov = |d: PhysReg, s: PhysReg| {
        InstData::new(mov_op, Mods::new(), vec![Reg::Phys(d)], vec![Operand::reg(Reg::Phys(s))])
    };
    let xor = |d: PhysReg, a: PhysReg, b: PhysReg| {
        InstData::new(
            lop_op,
            Mods::new(),
            vec![Reg::Phys(d)],
            vec![
                Operand::reg(Reg::Phys(a)),
                Operand::reg(Reg::Phys(b)),
                Operand::reg(Reg::Phys(zero)),
                Operand::Imm(Imm::Int(0x3c)),
            ],
        )
    };
    let mut out = Vec::new();
    while !moves.is_empty() {
        if let Some(k) = moves.iter().position(|(d, _)| !moves.iter().any(|(_, s)| s == d)) {
            let (d, s) = moves.remove(k);
            out.push(mov(d, s));
            continue;
        }
        // Every destination is still to be read: with two copies that is a swap.
        let (a, b) = moves[0];
        out.push(xor(a, a, b));
        out.push(xor(b, a, b));
        out.push(xor(a, a, b));
        moves.remove(0);
        // The swap also did the other copy of the cycle (b <- a).
        moves.retain(|&(d, s)| !(d == b && s == a));
        for m in &mut moves {
            if m.1 == a {
                m.1 = b;
            } else if m.1 == b {
                m.1 = a;
            }
        }
    }
    out
}

/// Rewrites every `PACK64`/`UNPACK64` (the quad forms `PACK128`/`UPACK128`/`UNPACK128`, the wide
/// `PACKW`/`UNPACKW`) of the
/// allocated function `f`; returns how many.
pub fn split_components(f: &mut Function) -> Result<usize, String> {
    if !f.allocated {
        return Err(format!("@{}: register-pair splitting needs an allocated function", f.name));
    }
    let mut n = 0;
    for b in f.layout.clone() {
        let old = f.blocks[b].insts.clone();
        let mut new = Vec::with_capacity(old.len());
        for i in old {
            let d = f.insts[i].clone();
            if !matches!(
                d.opcode,
                Opcode::PACK64
                    | Opcode::UPACK64
                    | Opcode::UNPACK64
                    | Opcode::PACK128
                    | Opcode::UPACK128
                    | Opcode::UNPACK128
                    | Opcode::PACKW
                    | Opcode::UNPACKW
            ) {
                new.push(i);
                continue;
            }
            n += 1;
            let seq = copies(&d).map_err(|m| format!("@{}: {m}", f.name))?;
            for mut inst in sequence(seq) {
                inst.guard = d.guard;
                new.push(f.insts.push(inst));
            }
        }
        f.blocks[b].insts = new;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(i: u16) -> PhysReg {
        PhysReg::new(RegFile::R, i)
    }

    /// Runs the sequence on a register file and checks it equals the parallel copy.
    fn simulate(moves: &[(PhysReg, PhysReg)]) {
        let mut regs: Vec<u32> = (0..16).map(|k| 0x1000_0001u32.wrapping_mul(k + 7)).collect();
        let before = regs.clone();
        let read = |regs: &[u32], p: PhysReg| if p.is_zero() { 0 } else { regs[usize::from(p.index)] };
        for inst in sequence(moves.to_vec()) {
            let Reg::Phys(d) = inst.dsts[0] else { panic!() };
            let src = |k: usize| match &inst.srcs[k] {
                Operand::Reg(u) => match u.reg {
                    Reg::Phys(p) => read(&regs, p),
                    Reg::Virt(_) => panic!(),
                },
                _ => panic!(),
            };
            let v = match inst.opcode {
                Opcode::MOV => src(0),
                Opcode::LOP3 => src(0) ^ src(1),
                _ => panic!(),
            };
            regs[usize::from(d.index)] = v;
        }
        for &(d, s) in moves {
            if !d.is_zero() {
                assert_eq!(regs[usize::from(d.index)], read(&before, s), "{moves:?}");
            }
        }
    }

    #[test]
    fn parallel_copies_in_any_overlap() {
        simulate(&[(r(0), r(4)), (r(4), r(5))]);
        simulate(&[(r(5), r(4)), (r(4), r(5))]);
        simulate(&[(r(4), r(4)), (r(5), r(5))]);
        simulate(&[(r(4), r(5)), (r(5), r(4))]);
        simulate(&[(r(2), r(3)), (r(3), PhysReg::RZ)]);
        simulate(&[(r(3), r(2)), (r(2), r(3))]);
        for a in 0..4u16 {
            for b in 0..4u16 {
                for c in 0..4u16 {
                    for d in 0..4u16 {
                        if a != c {
                            simulate(&[(r(a), r(b)), (r(c), r(d))]);
                        }
                    }
                }
            }
        }
    }
}
