//! Textures and surfaces through bindless handles (`cudaTextureObject_t`,
//! `cudaSurfaceObject_t`: a 64-bit register): `tex`, `tld4`, `txq`, `suld.b`, `sust.b`, `suq`
//! become the Ori opcodes [`Opcode::Tex`] ... [`Opcode::Sust`] with the geometry, clamp mode,
//! component and query as immediates ([`crate::ori::texture`]).
//!
//! Supported: geometries `1d 2d 3d a1d a2d`; `tex.GEOM.v4.{f32,s32,u32}.{f32,s32}` (`.base`
//! accepted: there are no mipmaps); `tld4.{r,g,b,a}.{2d,a2d}.v4.{f32,s32,u32}.f32`; `txq` and
//! `suq` of `width height depth array_size` (and, for `txq`, `normalized_coords filter_mode`);
//! `suld.b`/`sust.b` of `b8 b16 b32` scalars and `.v2`/`.v4` vectors with `.trap .clamp .zero`.
//!
//! Invariant: everything else is a located `not supported yet` naming the construct: texture
//! references and separate samplers (`.texref`, `.samplerref`, `.surfref` variables, `[t, s,
//! c]`), `.level`/`.grad` (mipmaps), cube geometries, multisample (`2dms`), depth compare and
//! offsets, `tex` with a predicate destination, f16 results, `b64` surface data, formatted
//! `sust.p`, `sured`, the other queries.

use super::Result;
use super::func::FnCx;
use super::mods::PtxMods;
use crate::ori::texture::{CLAMPS, COMPONENTS, GEOMS, QUERIES, code, ptx_coords};
use crate::ori::{Imm, Mods, Opcode, Operand, Reg, RegClass, Ty};
use crate::ptx::ast;

impl FnCx<'_> {
    /// `tex`, `tld4`, `txq`, `suld`, `sust`, `suq`, `sured`.
    pub(super) fn texture(&mut self, i: &ast::Instruction) -> Result<()> {
        let name = i.opcode.name.as_str();
        let mut m = PtxMods::of(i, false);
        for unsupported in ["level", "grad", "cube", "acube", "2dms", "a2dms", "p"] {
            if m.rest.iter().any(|w| w == unsupported) {
                return self.err(format!("`{name}.{unsupported}` is not supported yet"));
            }
        }
        match name {
            "tex" | "tld4" => self.tex(i, &mut m),
            "txq" | "suq" => self.tex_query(i, &mut m),
            "suld" | "sust" => self.surface(i, &mut m),
            _ => self.err(format!("instruction `{name}` is not supported yet")),
        }
    }

    fn geom(&self, m: &mut PtxMods) -> Result<u32> {
        match m.take(&GEOMS) {
            Some(g) => Ok(code(&GEOMS, &g).unwrap_or(0)),
            None => self.err("a texture or surface geometry (.1d .2d .3d .a1d .a2d) is needed"),
        }
    }

    /// `[h, {coords}]`: the handle operand and the coordinate expressions.
    fn handle_and_coords<'a>(&mut self, o: &'a ast::Operand) -> Result<(Operand, Vec<&'a ast::VecElem>)> {
        let ast::Operand::Address(elems, _) = o else {
            return self.err("a texture or surface operand `[h, {..}]` is needed");
        };
        match elems.as_slice() {
            [ast::AddrElem::Term { base, offset: None }, rest @ ..] => {
                if let ast::ExprKind::Sym(id, None) = &base.kind
                    && !matches!(self.lookup(&id.name), Some(super::func::Sym::Reg(..)))
                {
                    return self.err(format!(
                        "texture/surface reference `{}` (not a handle in a register) is not supported yet",
                        id.name
                    ));
                }
                let h = self.expr(base, Ty::B64)?;
                match rest {
                    [] => Ok((h, Vec::new())),
                    [ast::AddrElem::Vector(v, _)] => Ok((h, v.iter().collect())),
                    [ast::AddrElem::Term { .. }, ..] => {
                        self.err("a separate sampler operand (`[t, s, {..}]`) is not supported yet")
                    }
                    _ => self.err("unsupported texture operand form"),
                }
            }
            _ => self.err("unsupported texture operand form"),
        }
    }

    fn coord_srcs(&mut self, coords: &[&ast::VecElem], geom: u32) -> Result<Vec<Operand>> {
        if coords.len() != ptx_coords(geom) {
            return self.err(format!(
                "a .{} access takes {} coordinates, found {}",
                GEOMS[geom as usize],
                ptx_coords(geom),
                coords.len()
            ));
        }
        coords
            .iter()
            .map(|c| match c {
                ast::VecElem::Expr(e) => self.expr(e, Ty::B32),
                ast::VecElem::Sink(_) => self.err("a coordinate cannot be `_`"),
            })
            .collect()
    }

    /// The destinations of a vector (`{a, b, c, d}`, `_` allowed) or scalar operand.
    fn tex_dsts(&mut self, o: &ast::Operand, n: usize) -> Result<Vec<Reg>> {
        let elems: Vec<ast::Operand> = match o {
            ast::Operand::Vector(v, _) => v.iter().map(ast::VecElem::to_operand).collect(),
            other => vec![other.clone()],
        };
        if elems.len() != n {
            return self.err(format!("expected {n} destinations, found {}", elems.len()));
        }
        elems.iter().map(|e| self.dst(e, RegClass::R32)).collect()
    }

    fn tex(&mut self, i: &ast::Instruction, m: &mut PtxMods) -> Result<()> {
        let name = i.opcode.name.as_str();
        m.take(&["base"]);
        let comp = if name == "tld4" {
            match m.take(&COMPONENTS) {
                Some(c) => Some(code(&COMPONENTS, &c).unwrap_or(0)),
                None => return self.err("tld4 needs a component (.r .g .b .a)"),
            }
        } else {
            None
        };
        let geom = self.geom(m)?;
        self.leftovers(m)?;
        if m.vec != 4 {
            return self.err(format!("`{name}` without .v4 is not supported yet"));
        }
        let (dty, cty) = match m.types.as_slice() {
            [d, c] => (d.as_str(), c.as_str()),
            _ => return self.err(format!("`{name}` needs a result and a coordinate type")),
        };
        let dty = match dty {
            "f32" => Ty::F32,
            "s32" => Ty::S32,
            "u32" => Ty::U32,
            other => return self.err(format!("`{name}` with .{other} results is not supported yet")),
        };
        let cty = match cty {
            "f32" => Ty::F32,
            "s32" if comp.is_none() => Ty::S32,
            other => return self.err(format!("`{name}` with .{other} coordinates is not supported yet")),
        };
        if comp.is_some() && !matches!(GEOMS[geom as usize], "2d" | "a2d") {
            return self.err(format!("`tld4.{}` is not supported yet", GEOMS[geom as usize]));
        }
        if i.operands.len() > 2 {
            return self.err(format!("`{name}` with an offset or depth-compare operand is not supported yet"));
        }
        if matches!(i.operands.first(), Some(ast::Operand::Dual(..))) {
            return self.err(format!("`{name}` with a predicate destination is not supported yet"));
        }
        let (h, coords) = self.handle_and_coords(self.operand(i, 1)?)?;
        let mut srcs = vec![h, Operand::Imm(Imm::Int(i64::from(geom)))];
        let op = match comp {
            Some(c) => {
                srcs.push(Operand::Imm(Imm::Int(i64::from(c))));
                Opcode::Tld4
            }
            None => Opcode::Tex,
        };
        srcs.extend(self.coord_srcs(&coords, geom)?);
        let dsts = self.tex_dsts(self.operand(i, 0)?, 4)?;
        let md = Mods { src_ty: Some(cty), ..Mods::ty(dty) };
        self.emit(op, md, dsts, srcs)?;
        Ok(())
    }

    fn tex_query(&mut self, i: &ast::Instruction, m: &mut PtxMods) -> Result<()> {
        let name = i.opcode.name.as_str();
        let Some(q) = m.take(&QUERIES) else {
            let what = m.rest.first().cloned().unwrap_or_default();
            return self.err(format!("`{name}.{what}` is not supported yet"));
        };
        let q = code(&QUERIES, &q).unwrap_or(0);
        if name == "suq" && q >= 4 {
            return self.err(format!("`suq.{}` is not supported yet", QUERIES[q as usize]));
        }
        self.leftovers(m)?;
        let (h, coords) = self.handle_and_coords(self.operand(i, 1)?)?;
        if !coords.is_empty() {
            return self.err(format!("`{name}` takes a handle only"));
        }
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        let op = if name == "txq" { Opcode::Txq } else { Opcode::Suq };
        self.emit(op, Mods::new(), vec![d], vec![h, Operand::Imm(Imm::Int(i64::from(q)))])?;
        Ok(())
    }

    fn surface(&mut self, i: &ast::Instruction, m: &mut PtxMods) -> Result<()> {
        let name = i.opcode.name.as_str();
        if m.take(&["b"]).is_none() {
            return self.err(format!("`{name}` without .b is not supported yet"));
        }
        let geom = self.geom(m)?;
        let clamp = match m.take(&CLAMPS) {
            Some(c) => code(&CLAMPS, &c).unwrap_or(0),
            None => 0,
        };
        self.leftovers(m)?;
        let ty = match m.types.as_slice() {
            [t] if matches!(t.as_str(), "b8" | "b16" | "b32") => Ty::from_name(t).unwrap_or(Ty::B32),
            [t] => return self.err(format!("`{name}.b.{t}` is not supported yet")),
            _ => return self.err(format!("`{name}` needs one data type")),
        };
        let n = usize::from(m.vec.max(1));
        if !matches!(n, 1 | 2 | 4) {
            return self.err(format!("`{name}.v{n}` is not supported"));
        }
        let (ao, vo) = if name == "suld" { (1, 0) } else { (0, 1) };
        let (h, coords) = self.handle_and_coords(self.operand(i, ao)?)?;
        let mut srcs = vec![h, Operand::Imm(Imm::Int(i64::from(geom))), Operand::Imm(Imm::Int(i64::from(clamp)))];
        srcs.extend(self.coord_srcs(&coords, geom)?);
        if name == "suld" {
            let dsts = self.tex_dsts(self.operand(i, vo)?, n)?;
            self.emit(Opcode::Suld, Mods::ty(ty), dsts, srcs)?;
        } else {
            let vals: Vec<ast::Operand> = match self.operand(i, vo)? {
                ast::Operand::Vector(v, _) => v.iter().map(ast::VecElem::to_operand).collect(),
                other => vec![other.clone()],
            };
            if vals.len() != n {
                return self.err(format!("expected {n} values, found {}", vals.len()));
            }
            for v in &vals {
                srcs.push(self.src(v, Ty::B32)?);
            }
            self.emit(Opcode::Sust, Mods::ty(ty), vec![], srcs)?;
        }
        Ok(())
    }
}
