//! Selection of bindless surface accesses on sm_90, as ptxas 13.0.88 selects them:
//!
//! | Ori | SASS |
//! |---|---|
//! | `suld.b32 d, h, geom, clamp, coords` | `R2UR URh, h.lo`; the coordinates packed x (bytes), y, z, layer last; `SULD.D.BA.GEOM.STRONG.SM{.TRAP,,.IGN} Rd, [Rc], URh, 0x0` |
//! | `sust.b32 h, geom, clamp, coords, v` | the same operands, `SUST.D.BA.GEOM.STRONG.SM... [Rc], Rv, URh, 0x0` |
//!
//! Sizes: `.b8`/`.b16` scalars `.U8`/`.U16`, `.b32` none, `.v2.b32` `.64`, `.v4.b32` `.128`.
//! The handle's low word goes through `R2UR`, which takes the lowest active lane's value: a
//! handle that differs between the lanes of a warp is not supported (ptxas loops over the
//! distinct handles; kernels pass handles as parameters, which are uniform).
//!
//! Not supported yet (errors naming the opcode): `tex`, `tld4`, `txq`, `suq`, and vectors of
//! `.b8`/`.b16` surface data.

use super::{R, Sel, r};
use crate::ori::texture::ptx_coords;
use crate::ori::{Imm, InstData, Mods, Opcode, Operand, RegClass, Ty, VReg};

impl Sel<'_> {
    fn imm_code(d: &InstData, n: usize) -> R<u32> {
        match d.srcs.get(n) {
            Some(Operand::Imm(i)) => Ok(i.bits() as u32),
            _ => Err(format!("`{}` needs an immediate source {n}", d.opcode)),
        }
    }

    /// Registers packed into one tuple (1 word: the register itself; 2: a pair; 3 or 4: a quad,
    /// a missing fourth word repeating the third).
    fn pack_words(&mut self, words: Vec<Operand>) -> R<Operand> {
        let mut regs = Vec::with_capacity(4);
        for w in &words {
            regs.push(self.reg_src(w)?);
        }
        let class = match regs.len() {
            1 => return Ok(regs.remove(0)),
            2 => RegClass::R64,
            3 | 4 => RegClass::R128,
            n => return Err(format!("{n} surface coordinates")),
        };
        if regs.len() == 3 {
            regs.push(regs[2].clone());
        }
        let t = self.vreg(class);
        self.emit(Opcode::PACKW, Mods::new(), vec![t.into()], regs);
        Ok(r(t))
    }

    /// `suld`/`sust` (see the module documentation); the other texture opcodes are refused.
    pub(crate) fn sel_texture(&mut self, d: &InstData) -> R<()> {
        if !matches!(d.opcode, Opcode::Suld | Opcode::Sust) {
            return Err(format!("`{}` is not supported yet by sm_90 instruction selection", d.opcode));
        }
        let store = d.opcode == Opcode::Sust;
        let geom = Self::imm_code(d, 1)?;
        let clamp = Self::imm_code(d, 2)?;
        let n = ptx_coords(geom);
        let coords = d.srcs.get(3..3 + n).ok_or("surface coordinates")?.to_vec();
        // PTX: the layer first; SASS: x, y, z, the layer last.
        let (layered, dims) = match geom {
            0 => (false, 1),
            1 => (false, 2),
            2 => (false, 3),
            3 => (true, 1),
            _ => (true, 2),
        };
        let mut words: Vec<Operand> = coords[usize::from(layered)..usize::from(layered) + dims].to_vec();
        if layered {
            words.push(coords[0].clone());
        }
        let c = self.pack_words(words)?;
        let lo = self.halves(&d.srcs[0])?.0;
        let lo = self.reg_src(&lo)?;
        let h = self.vreg(RegClass::UR32);
        self.emit(Opcode::R2UR, Mods::new(), vec![h.into()], vec![lo]);
        let ty = d.ty().ok_or("a surface access without a type")?;
        let count = if store { d.srcs.len() - 3 - n } else { d.dsts.len() };
        if count > 1 && ty != Ty::B32 {
            return Err(format!("`{}` of {count} x .{ty} is not supported yet", d.opcode));
        }
        let class = match count {
            1 => RegClass::R32,
            2 => RegClass::R64,
            4 => RegClass::R128,
            _ => return Err(format!("`{}` of {count} values", d.opcode)),
        };
        let codes = [Operand::Imm(Imm::Int(i64::from(geom))), Operand::Imm(Imm::Int(i64::from(clamp)))];
        if store {
            let data = self.pack_words(d.srcs[3 + n..].to_vec())?;
            let mut srcs = vec![c, data, r(h)];
            srcs.extend(codes);
            self.emit(Opcode::SUST, Mods::ty(ty), vec![], srcs);
        } else {
            let data: VReg = if count == 1 {
                match d.dsts[0] {
                    crate::ori::Reg::Virt(v) => v,
                    _ => return Err("suld into a physical register".into()),
                }
            } else {
                self.vreg(class)
            };
            let mut srcs = vec![c, r(h)];
            srcs.extend(codes);
            self.emit(Opcode::SULD, Mods::ty(ty), vec![data.into()], srcs);
            if count > 1 {
                self.emit(Opcode::UNPACKW, Mods::new(), d.dsts.clone(), vec![r(data)]);
            }
        }
        Ok(())
    }
}
