//! Tensor-core instructions: `ldmatrix` to `LDSM.16.{M88,MT88}{,.2,.4}`, `stmatrix` to
//! `STSM.16.{M88,MT88}{,.2,.4}` and `mma` to
//! `HMMA.{16816,1688,1684}.F32[.BF16|.TF32]` (f32 accumulators) or `IMMA.{16816,16832}.A.B[.SAT]`
//! (s32 accumulators, A, B = S8 or U8), as ptxas emits them on sm_90.
//!
//! Both read and write register tuples (LDSM's 2 or 4 destinations, HMMA's/IMMA's 4-register d and c,
//! its 2- or 4-register a and 2- or 1-register b), which the PTX-stage opcodes keep as single
//! 32-bit registers: selection gathers sources with `PACK64`/`PACK128` and scatters results
//! with `UNPACK64`/`UNPACK128` (parallel copies that vanish when the allocator gives the tuple
//! the single registers' places).
//!
//! Invariant: a selected instruction computes exactly its PTX-stage opcode (the executors run
//! both with [`crate::ori::tensor`]).

use super::{R, Sel, r};
use crate::ori::{Flag, InstData, Mods, Opcode, Operand, Reg, RegClass, Ty};

impl Sel<'_> {
    /// A register tuple holding `words` (one register: the word itself).
    pub(super) fn tuple(&mut self, words: &[Operand]) -> R<Operand> {
        let mut regs = Vec::new();
        for w in words {
            regs.push(self.reg_src(w)?);
        }
        let (op, class) = match regs.len() {
            1 => return Ok(regs.remove(0)),
            2 => (Opcode::PACK64, RegClass::R64),
            4 => (Opcode::PACK128, RegClass::R128),
            n => (Opcode::PACKW, wide_class(n)?),
        };
        let t = self.f.new_vreg(class);
        self.emit(op, Mods::new(), vec![t.into()], regs);
        Ok(r(t))
    }

    /// A fresh tuple for `dsts`, and the split into them after the producer.
    pub(super) fn tuple_dst(&mut self, dsts: &[Reg]) -> R<(Reg, Option<InstData>)> {
        let (op, class) = match dsts.len() {
            1 => return Ok((dsts[0], None)),
            2 => (Opcode::UNPACK64, RegClass::R64),
            4 => (Opcode::UNPACK128, RegClass::R128),
            n => (Opcode::UNPACKW, wide_class(n)?),
        };
        let t = self.f.new_vreg(class);
        Ok((t.into(), Some(InstData::new(op, Mods::new(), dsts.to_vec(), vec![r(t)]))))
    }

    /// `split`/`join` of a 128-bit register (into or from two 64-bit or four 32-bit parts): the
    /// quad's words through `UNPACK128`/`PACK128`, 64-bit parts through `PACK64`/`UNPACK64`.
    pub(crate) fn sel_split_join(&mut self, d: &InstData) -> R<()> {
        let split = d.opcode == Opcode::Split;
        let parts: Vec<Operand> = if split { d.dsts.iter().map(|&x| r(x)).collect() } else { d.srcs.clone() };
        let wide = if split { d.srcs[0].clone() } else { r(d.dsts[0]) };
        let Operand::Reg(w) = &wide else { return Err("split/join of a non-register".into()) };
        if self.class(w.reg) != RegClass::R128 {
            return Err(format!("`{}` of a {} register", d.opcode, self.class(w.reg)));
        }
        let mut classes = Vec::new();
        for p in &parts {
            let Operand::Reg(u) = p else { return Err("split/join part is not a register".into()) };
            classes.push(self.class(u.reg));
        }
        let words_per_part = match classes.as_slice() {
            [RegClass::R64, RegClass::R64] => 2,
            c if c.len() == 4 && c.iter().all(|&k| k == RegClass::R32) => 1,
            _ => return Err("split/join of a 128-bit register into other than 2 x 64 or 4 x 32 bits".into()),
        };
        if split {
            let words: Vec<Reg> =
                if words_per_part == 1 { d.dsts.clone() } else { (0..4).map(|_| self.t32().into()).collect() };
            self.emit(Opcode::UNPACK128, Mods::new(), words.clone(), vec![wide]);
            if words_per_part == 2 {
                for (k, &dst) in d.dsts.iter().enumerate() {
                    self.emit(Opcode::PACK64, Mods::new(), vec![dst], vec![r(words[2 * k]), r(words[2 * k + 1])]);
                }
            }
        } else {
            let mut words = Vec::new();
            for p in &parts {
                if words_per_part == 1 {
                    words.push(self.reg_src(p)?);
                    continue;
                }
                let (lo, hi) = (self.t32(), self.t32());
                let src = self.reg_src(p)?;
                self.emit(Opcode::UNPACK64, Mods::new(), vec![lo.into(), hi.into()], vec![src]);
                words.extend([r(lo), r(hi)]);
            }
            self.emit(Opcode::PACK128, Mods::new(), vec![d.dsts[0]], words);
        }
        Ok(())
    }

    pub(crate) fn sel_tensor(&mut self, d: &InstData) -> R<()> {
        match d.opcode {
            Opcode::Ldmatrix => {
                let Some(Operand::Mem(m)) = d.srcs.first() else { return Err("ldmatrix without an address".into()) };
                let m = self.shared_ref(m)?;
                let (t, split) = self.tuple_dst(&d.dsts)?;
                let mut mods = Mods::ty(Ty::B16);
                if d.mods.has(Flag::Trans) {
                    mods.set(Flag::Trans);
                }
                self.emit(Opcode::LDSM, mods, vec![t], vec![Operand::Mem(m)]);
                if let Some(s) = split {
                    self.push(s);
                }
            }
            Opcode::Stmatrix => {
                let Some(Operand::Mem(m)) = d.srcs.first() else { return Err("stmatrix without an address".into()) };
                let m = self.shared_ref(m)?;
                let t = self.tuple(&d.srcs[1..])?;
                let mut mods = Mods::ty(Ty::B16);
                if d.mods.has(Flag::Trans) {
                    mods.set(Flag::Trans);
                }
                self.emit(Opcode::STSM, mods, vec![], vec![Operand::Mem(m), t]);
            }
            _ => {
                let op = match (d.mods.ty, d.mods.src_ty) {
                    (Some(Ty::F32), _) => Opcode::HMMA,
                    (Some(Ty::S32), Some(Ty::S8 | Ty::U8)) => Opcode::IMMA,
                    (t, s) => return Err(format!("mma of {t:?} from {s:?}")),
                };
                let n = d.srcs.len();
                let na = n.saturating_sub(4) * 2 / 3;
                if d.dsts.len() != 4 || !matches!(na, 2 | 4) || na + na / 2 + 4 != n {
                    return Err(format!("mma with {} destinations and {n} sources", d.dsts.len()));
                }
                let a = self.tuple(&d.srcs[..na])?;
                let b = self.tuple(&d.srcs[na..na + na / 2])?;
                let c = self.tuple(&d.srcs[na + na / 2..])?;
                let (t, split) = self.tuple_dst(&d.dsts)?;
                // Integer forms keep b's signedness and `.satfinite` (`IMMA ... .SAT`).
                let mods = Mods {
                    ty: d.mods.ty,
                    src_ty: d.mods.src_ty,
                    sub: d.mods.sub,
                    flags: d.mods.flags.clone(),
                    ..Mods::new()
                };
                self.emit(op, mods, vec![t], vec![a, b, c]);
                if let Some(s) = split {
                    self.push(s);
                }
            }
        }
        Ok(())
    }
}

/// The wide R tuple class of `n` registers (`PACKW`/`UNPACKW`), or an error naming `n`.
fn wide_class(n: usize) -> Result<RegClass, String> {
    u8::try_from(n)
        .ok()
        .and_then(RegClass::wide)
        .filter(|c| c.is_wide())
        .ok_or_else(|| format!("a tuple of {n} registers"))
}
