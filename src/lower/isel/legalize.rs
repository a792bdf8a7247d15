//! Operand legalization: the last step of instruction selection, putting every SASS-stage
//! instruction into a shape some sm_90 form encodes, before register allocation.
//!
//! Selection writes operands where the operation wants them; SASS forms are stricter (see the
//! forms in `src/sass/sm90/mod.rs`, which `src/sass/from_ori.rs` spells against):
//!
//! - source A of an ALU form is always a register;
//! - at most one source is an immediate or a constant-bank operand (a *constant*): source B of
//!   two-source forms; B or C of `IADD3`, `IMAD`, `FFMA`, `DFMA`, `SHF`; only B of `LOP3`,
//!   `PRMT`, `SEL`, `FSEL`, compares, min/max; none of a store's value, `PACK64`, `UNPACK64`;
//! - `IMAD.HI` adds a 64-bit addend on sm_90, so the Ori `IMAD.HI` with a non-zero 32-bit
//!   addend becomes `IMAD.HI d', a, b, RZ` + `IADD3 d, d', c, RZ`;
//! - the low word of a 64-bit left shift (`SHF.L.U64` without `.HI`) is spelled
//!   `SHF.L.U32 d, lo, n, RZ`, as ptxas writes it;
//! - the half-precision ops (`HADD2`, `HMUL2`, `HFMA2`, `HMNMX2`, `HSETP2`) take
//!   register sources only;
//! - an f64 immediate keeps only its high word: one with a non-zero low word (in a 64-bit
//!   float slot) is built in a register pair (`MOV` lo, `MOV` hi, `PACK64`).
//!
//! How: an all-constant integer `LOP3`/`IADD3`/`IMAD`/`SHF`/`PRMT` is folded to a `MOV` with
//! [`crate::ori::semantics::eval`]; a zero immediate in a register-only position becomes `RZ`;
//! commutative sources are swapped to bring a constant where the form takes it (`LOP3`
//! permutes its table, `SEL`/`FSEL` invert their predicate); any constant still out of place is
//! moved into a new virtual register by an unguarded `MOV` placed right before the instruction.
//!
//! Invariants: the rewrite keeps the function's meaning for every input (each step is an
//! identity of the Ori semantics), adds only unguarded moves of constants into new virtual
//! registers, and never touches a register operand's modifiers except to move them with their
//! operand.

use crate::ori::semantics::{Arg, Val, eval};
use crate::ori::{Function, Half, Imm, Inst, InstData, Mods, Opcode, Operand, Reg, RegClass, RegFile, Ty};

use super::rz;

/// Legalizes every instruction of a selected (SASS-stage, unallocated) function in place.
pub fn legalize_function(f: &mut Function) {
    let layout = f.layout.clone();
    for b in layout {
        let old: Vec<Inst> = f.blocks[b].insts.clone();
        let mut out = Vec::with_capacity(old.len());
        for i in old {
            let d = f.insts[i].clone();
            let mut l = Legalizer { f, pre: Vec::new() };
            let d = l.inst(d);
            let pre = std::mem::take(&mut l.pre);
            for p in pre {
                out.push(f.insts.push(p));
            }
            f.insts[i] = d;
            out.push(i);
        }
        f.blocks[b].insts = out;
    }
}

struct Legalizer<'a> {
    f: &'a mut Function,
    /// Instructions placed before the one being legalized.
    pre: Vec<InstData>,
}

/// An immediate or constant-bank operand.
fn is_const(o: &Operand) -> bool {
    matches!(o, Operand::Imm(_) | Operand::CBank(_))
}

/// A register read without modifiers (or RZ).
fn is_reg(o: &Operand) -> bool {
    matches!(o, Operand::Reg(_))
}

/// A constant whose value the folder can use: an immediate or `RZ`.
fn const_bits(o: &Operand) -> Option<u64> {
    match o {
        Operand::Imm(i) => Some(i.bits()),
        Operand::Reg(u) if matches!(u.reg, Reg::Phys(p) if p.is_zero() && p.file == RegFile::R) => Some(0),
        _ => None,
    }
}

/// `lut` with inputs `j` and `k` (0 = A, 1 = B, 2 = C) exchanged.
fn lut_swap(lut: u8, j: usize, k: usize) -> u8 {
    let (bj, bk) = (4u8 >> j, 4u8 >> k);
    (0..8u8).fold(0, |acc, i| {
        let mut s = i & !(bj | bk);
        if i & bj != 0 {
            s |= bk;
        }
        if i & bk != 0 {
            s |= bj;
        }
        acc | (((lut >> s) & 1) << i)
    })
}

impl Legalizer<'_> {
    fn vreg(&mut self, c: RegClass) -> Reg {
        self.f.new_vreg(c).into()
    }

    fn pre(&mut self, op: Opcode, mods: Mods, dst: Reg, srcs: Vec<Operand>) {
        self.pre.push(InstData::new(op, mods, vec![dst], srcs));
    }

    /// A 32-bit constant moved into a register (a zero immediate is `RZ`).
    fn materialize(&mut self, o: Operand) -> Operand {
        match o {
            Operand::Imm(i) if i.bits() as u32 == 0 && !matches!(i, Imm::F64(_)) => rz(),
            o @ (Operand::Imm(_) | Operand::CBank(_)) => {
                let t = self.vreg(RegClass::R32);
                self.pre(Opcode::MOV, Mods::new(), t, vec![o]);
                Operand::reg(t)
            }
            o => o,
        }
    }

    /// A 64-bit constant moved into a register pair.
    fn materialize64(&mut self, o: Operand) -> Operand {
        match o {
            Operand::Imm(i) if i.bits() == 0 => rz(),
            Operand::Imm(i) => {
                let b = i.bits();
                let lo = self.materialize(Operand::Imm(Imm::Int(i64::from(b as u32))));
                let hi = self.materialize(Operand::Imm(Imm::Int(i64::from((b >> 32) as u32))));
                let t = self.vreg(RegClass::R64);
                self.pre(Opcode::PACK64, Mods::new(), t, vec![lo, hi]);
                Operand::reg(t)
            }
            Operand::CBank(c) => {
                let t = self.vreg(RegClass::R64);
                self.pre(Opcode::LDC, Mods::ty(Ty::B64), t, vec![Operand::CBank(c)]);
                Operand::reg(t)
            }
            o => o,
        }
    }

    /// Source `k` of `d` moved into a register (of the slot's width).
    fn force_reg(&mut self, d: &mut InstData, k: usize, wide: bool) {
        if let Some(o) = d.srcs.get(k).cloned()
            && is_const(&o)
        {
            d.srcs[k] = if wide { self.materialize64(o) } else { self.materialize(o) };
        }
    }

    /// Of sources `ks`, keeps at most one constant (the first one in `prefer` order), moving the
    /// others into registers.
    fn one_const(&mut self, d: &mut InstData, ks: &[usize], wide: impl Fn(usize) -> bool) {
        let mut kept = false;
        for &k in ks {
            if d.srcs.get(k).is_some_and(is_const) {
                // A zero immediate costs nothing as RZ: keep the slot for another constant.
                let zero = matches!(d.srcs[k], Operand::Imm(i) if i.bits() == 0);
                if kept || zero {
                    self.force_reg(d, k, wide(k));
                } else {
                    kept = true;
                }
            }
        }
    }

    /// Folds an all-constant integer instruction with one destination to a `MOV`.
    fn fold(&mut self, d: &InstData, vals: &[usize]) -> Option<InstData> {
        if d.dsts.len() != 1 || self.f.reg_class(d.dsts[0]) != Some(RegClass::R32) {
            return None;
        }
        let mut args = Vec::new();
        for (k, o) in d.srcs.iter().enumerate() {
            if vals.contains(&k) {
                let (Operand::Imm(_) | Operand::Reg(_)) = o else { return None };
                let bits = const_bits(o)?;
                let (neg, not) = match o {
                    Operand::Reg(u) => (u.neg, u.not),
                    _ => (false, false),
                };
                args.push(Arg { val: Val::Bits(bits), neg, abs: false, not });
            } else {
                let bits = const_bits(o)?;
                args.push(Arg::bits(bits));
            }
        }
        let r = eval(d.opcode, &d.mods, &args).ok()?;
        let Some(Val::Bits(v)) = r.first().copied() else { return None };
        let mut m =
            InstData::new(Opcode::MOV, Mods::new(), d.dsts.clone(), vec![Operand::Imm(Imm::Int(i64::from(v as u32)))]);
        m.guard = d.guard;
        Some(m)
    }

    fn inst(&mut self, mut d: InstData) -> InstData {
        use Opcode::*;
        // Constant-bank sources of ALU instructions are loaded into registers first (`LDC`,
        // what ptxas does at -O0); only immediates stay in place.
        if !matches!(d.opcode, MOV | LDC | ULDC | UMOV) {
            for k in 0..d.srcs.len() {
                if matches!(d.srcs[k], Operand::CBank(_)) {
                    let wide = slot_wide(&d, k);
                    self.force_reg(&mut d, k, wide);
                }
            }
        }
        // The multiplicand B of FFMA/FMUL/DFMA/DMUL has no `|x|` bit: swap the multiplicands,
        // or (f32) clear the sign bit with a LOP3.
        if matches!(d.opcode, FFMA | FMUL | DFMA | DMUL)
            && let Some(Operand::Reg(b)) = d.srcs.get(1).cloned()
            && b.abs
        {
            let a_abs = matches!(&d.srcs[0], Operand::Reg(a) if a.abs);
            if matches!(d.opcode, DFMA | DMUL) {
                // f64 keeps the slots (with two NaN operands the unit returns slot B's): |b|
                // comes from `DADD |b|, -0`, which is |b| exactly and leaves a NaN as it is,
                // like the modifier.
                let t = self.vreg(RegClass::R64);
                let plain = Operand::Reg(crate::ori::RegUse { neg: false, ..b });
                self.pre(DADD, Mods::new(), t, vec![plain, Operand::Imm(Imm::F64(1 << 63))]);
                d.srcs[1] = Operand::Reg(crate::ori::RegUse { reg: t, abs: false, neg: b.neg, not: false });
            } else if !a_abs {
                d.srcs.swap(0, 1);
            } else {
                let t = self.vreg(RegClass::R32);
                let plain = Operand::Reg(crate::ori::RegUse { abs: false, neg: false, ..b });
                self.pre(
                    LOP3,
                    Mods::new(),
                    t,
                    vec![plain, Operand::Imm(Imm::Int(0x7fff_ffff)), rz(), Operand::Imm(Imm::Int(0xc0))],
                );
                d.srcs[1] = Operand::Reg(crate::ori::RegUse { reg: t, abs: false, neg: b.neg, not: false });
            }
        }
        self.source_mods(&mut d);
        match d.opcode {
            LOP3 => {
                if let Some(m) = self.fold(&d, &[0, 1, 2]) {
                    return m;
                }
                let lut_at = 3;
                // A: swap in a register source, permuting the table.
                if !is_reg(&d.srcs[0]) {
                    if let Some(k) = [2usize, 1].into_iter().find(|&k| is_reg(&d.srcs[k])) {
                        d.srcs.swap(0, k);
                        if let Some(&Operand::Imm(l)) = d.srcs.get(lut_at) {
                            d.srcs[lut_at] = Operand::Imm(Imm::Int(i64::from(lut_swap(l.bits() as u8, 0, k))));
                        }
                    } else {
                        self.force_reg(&mut d, 0, false);
                    }
                }
                // Only one of B and C may be a constant (emission puts it in B).
                self.one_const(&mut d, &[1, 2], |_| false);
            }
            IADD3 | IADD3C | IADD3X => {
                if d.opcode == IADD3
                    && let Some(m) = self.fold(&d, &[0, 1, 2])
                {
                    return m;
                }
                if !is_reg(&d.srcs[0])
                    && let Some(k) = [1usize, 2].into_iter().find(|&k| is_reg(&d.srcs[k]))
                {
                    d.srcs.swap(0, k);
                }
                self.force_reg(&mut d, 0, false);
                self.one_const(&mut d, &[1, 2], |_| false);
            }
            IMAD => {
                let half = d.mods.half.unwrap_or(Half::Lo);
                if half == Half::Lo
                    && let Some(m) = self.fold(&d, &[0, 1, 2])
                {
                    return m;
                }
                if !is_reg(&d.srcs[0]) && is_reg(&d.srcs[1]) {
                    d.srcs.swap(0, 1);
                }
                self.force_reg(&mut d, 0, false);
                match half {
                    Half::Hi => {
                        self.force_reg(&mut d, 1, false);
                        let zero = match &d.srcs[2] {
                            Operand::Reg(u) => u.reg.is_zero() && !u.neg && !u.not,
                            Operand::Imm(i) => i.bits() as u32 == 0,
                            _ => false,
                        };
                        if !zero {
                            // IMAD.HI t, a, b, RZ; IADD3 d, t, c, RZ.
                            let c = std::mem::replace(&mut d.srcs[2], rz());
                            let t = self.vreg(RegClass::R32);
                            let dst = std::mem::replace(&mut d.dsts[0], t);
                            let hi = InstData { guard: None, ..d.clone() };
                            self.pre.push(hi);
                            let mut add = InstData::new(IADD3, Mods::new(), vec![dst], vec![Operand::reg(t), c, rz()]);
                            add.guard = d.guard;
                            return self.inst(add);
                        }
                        d.srcs[2] = rz();
                    }
                    Half::Wide => {
                        // C is 64-bit: only a register pair (or RZ).
                        self.force_reg(&mut d, 2, true);
                    }
                    Half::Lo => self.one_const(&mut d, &[1, 2], |_| false),
                }
            }
            FFMA | DFMA => {
                let wide = d.opcode == DFMA;
                self.f64_imms(&mut d, &[0, 1, 2], wide);
                // f64 keeps its slots (slot B's NaN wins over A's): A is made a register instead.
                if !wide && !is_reg(&d.srcs[0]) && is_reg(&d.srcs[1]) {
                    d.srcs.swap(0, 1);
                }
                self.force_reg(&mut d, 0, wide);
                self.one_const(&mut d, &[1, 2], |_| wide);
            }
            FADD | FMUL | DADD | DMUL => {
                let wide = matches!(d.opcode, DADD | DMUL);
                self.f64_imms(&mut d, &[0, 1], wide);
                if !wide && !is_reg(&d.srcs[0]) && is_reg(&d.srcs[1]) {
                    d.srcs.swap(0, 1);
                }
                self.force_reg(&mut d, 0, wide);
            }
            FSETP | DSETP | ISETP | ISETPX | FMNMX | IMNMX => {
                let wide = d.opcode == DSETP;
                self.f64_imms(&mut d, &[0, 1], wide);
                self.force_reg(&mut d, 0, wide);
            }
            SEL | FSEL => {
                if !is_reg(&d.srcs[0]) && is_reg(&d.srcs[1]) {
                    d.srcs.swap(0, 1);
                    if let Some(Operand::Reg(u)) = d.srcs.get_mut(2) {
                        u.not = !u.not;
                    }
                }
                self.force_reg(&mut d, 0, false);
            }
            SHF => {
                if let Some(m) = self.fold(&d, &[0, 1, 2]) {
                    return m;
                }
                // The low word of a 64-bit left shift is `lo << n` (0 from n = 32 on) whatever
                // the high source: ptxas writes it `SHF.L.U32 d, lo, n, RZ` (sm_90's SHF.L.U64
                // without `.HI` is not among the forms our tables list).
                if d.mods.dir == Some(crate::ori::Dir::L)
                    && d.ty().is_some_and(|t| t.bits() == 64)
                    && !d.mods.has(crate::ori::Flag::HiWord)
                {
                    d.mods.ty = Some(Ty::U32);
                    d.srcs[2] = rz();
                }
                self.force_reg(&mut d, 0, false);
                self.one_const(&mut d, &[1, 2], |_| false);
            }
            PRMT => {
                if let Some(m) = self.fold(&d, &[0, 1, 2]) {
                    return m;
                }
                self.force_reg(&mut d, 0, false);
                self.force_reg(&mut d, 2, false);
            }
            STG | STS | STL | ST => {
                let wide = d.ty().is_some_and(|t| t.bits() == 64);
                if wide {
                    self.force_reg(&mut d, 1, true);
                } else if d.ty().is_none_or(|t| t.bits() <= 32) {
                    self.force_reg(&mut d, 1, false);
                }
            }
            PACK64 => {
                self.force_reg(&mut d, 0, false);
                self.force_reg(&mut d, 1, false);
            }
            HADD2 | HMUL2 | HFMA2 | HMNMX2 | HSETP2 => {
                // The half-precision forms the tables model take registers only (a constant the
                // optimizer propagated, `mul.f16 %rs2, %rs1, 0x3C00`, is moved back into a
                // register; scalar halves sit in the low half, which `.H0_H0` reads).
                let n = if d.opcode == HFMA2 { 3 } else { 2 };
                for k in 0..n.min(d.srcs.len()) {
                    if let Operand::Imm(i) = d.srcs[k] {
                        d.srcs[k] = Operand::Imm(Imm::Int(i64::from(i.bits() as u32)));
                    }
                    self.force_reg(&mut d, k, false);
                }
            }
            F2I | F2F if d.mods.src_ty == Some(Ty::F64) => self.f64_imms(&mut d, &[0], true),
            _ => {}
        }
        d
    }

    /// Integer source modifiers the forms cannot spell are applied by a separate instruction:
    /// `IADD3` (with or without carry-out) spells `-x` but not `~x`, `IADD3.X` spells `~x` but
    /// not `-x`; `IMAD`'s A and B take neither, its C only `-x`.
    fn source_mods(&mut self, d: &mut InstData) {
        use Opcode::*;
        let (no_neg, no_not): (&[usize], &[usize]) = match d.opcode {
            IADD3 | IADD3C => (&[], &[0, 1, 2]),
            IADD3X => (&[0, 1, 2], &[]),
            IMAD => (&[0, 1], &[0, 1, 2]),
            _ => return,
        };
        for k in 0..d.srcs.len().min(3) {
            let Operand::Reg(u) = d.srcs[k].clone() else { continue };
            if u.reg.is_zero() {
                // -RZ and ~RZ are constants.
                if u.neg && no_neg.contains(&k) {
                    d.srcs[k] = rz();
                } else if u.not && no_not.contains(&k) {
                    d.srcs[k] = Operand::Imm(Imm::Int(0xffff_ffff));
                }
                continue;
            }
            if (u.neg && no_neg.contains(&k)) || (u.not && no_not.contains(&k)) {
                let t = self.vreg(RegClass::R32);
                if u.neg {
                    // t = -x + 0 + 0 (IADD3's A spells `-x`).
                    self.pre(IADD3, Mods::new(), t, vec![d.srcs[k].clone(), rz(), rz()]);
                } else {
                    // t = ~x (LOP3 with table A; emission folds `~` into the table).
                    self.pre(LOP3, Mods::new(), t, vec![d.srcs[k].clone(), rz(), rz(), Operand::Imm(Imm::Int(0xf0))]);
                }
                d.srcs[k] = Operand::reg(t);
            }
        }
    }

    /// 64-bit float immediates the form cannot hold (non-zero low word) in 64-bit float
    /// sources `ks` are built in a register pair; the rest are spelled as f64 immediates.
    fn f64_imms(&mut self, d: &mut InstData, ks: &[usize], wide: bool) {
        if !wide {
            return;
        }
        for &k in ks {
            if let Some(&Operand::Imm(i)) = d.srcs.get(k) {
                let b = i.bits();
                if b as u32 != 0 {
                    d.srcs[k] = self.materialize64(Operand::Imm(Imm::F64(b)));
                } else if b != 0 {
                    d.srcs[k] = Operand::Imm(Imm::F64(b));
                }
            }
        }
    }
}

/// Whether source `k` of `d` is a 64-bit value.
fn slot_wide(d: &InstData, k: usize) -> bool {
    use Opcode::*;
    let wide_ty = |t: Option<Ty>| t.is_some_and(|t| t.bits() == 64);
    match d.opcode {
        DADD | DMUL | DFMA | DSETP => k < 3,
        IMAD => d.mods.half == Some(Half::Wide) && k == 2,
        F2I | F2F | I2F | I2I => k == 0 && wide_ty(d.mods.src_ty),
        STG | STS | STL | ST => k == 1 && wide_ty(d.ty()),
        PACK64 => false,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lut_swap_permutes_inputs() {
        // For every table and pair, evaluating the swapped table with swapped inputs agrees.
        for lut in 0..=255u8 {
            for (j, k) in [(0, 1), (0, 2), (1, 2)] {
                let s = lut_swap(lut, j, k);
                for i in 0..8u8 {
                    let bit = |x: u8, n: usize| (x >> (2 - n)) & 1;
                    let mut v = [bit(i, 0), bit(i, 1), bit(i, 2)];
                    let orig = (lut >> i) & 1;
                    v.swap(j, k);
                    let si = (v[0] << 2) | (v[1] << 1) | v[2];
                    assert_eq!((s >> si) & 1, orig, "lut {lut:#x} swap {j}{k} at {i}");
                }
            }
        }
    }
}
