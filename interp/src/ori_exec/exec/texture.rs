//! The interpreter's texture and surface operations (`tex`, `tld4`, `txq`, `suq`, `suld.b`,
//! `sust.b` through bindless handles): per lane, the handle's low 32 bits name an object of
//! the launch spec ([`crate::launch::texture`]); the meaning is [`crate::texture`]'s; the
//! texels are the object's buffer in global memory.

use crate::texture::{self as tx, Clamp, Coords, Geom, Query};

use super::*;

fn imm_code(d: &InstData, i: usize) -> Result<u32, Er> {
    match d.srcs.get(i) {
        Some(Operand::Imm(imm)) => Ok(imm.bits() as u32),
        _ => Err((ErrorKind::Invalid(format!("`{}` needs an immediate operand {i}", d.opcode)), None)),
    }
}

fn tex_err(lane: u32) -> impl Fn(tx::TexFault) -> Er {
    move |f| (ErrorKind::Texture(f.to_string()), Some(lane))
}

impl Engine<'_> {
    fn geom_of(d: &InstData) -> Result<Geom, Er> {
        let c = imm_code(d, 1)?;
        Geom::from_code(c).ok_or((ErrorKind::Invalid(format!("geometry code {c}")), None))
    }

    /// Coordinates from source `first` on: the layer first for layered geometries.
    fn coords(
        &self,
        w: &Warp,
        cta: &Cta,
        d: &InstData,
        first: usize,
        geom: Geom,
        int: bool,
        lane: u32,
    ) -> Result<Coords, Er> {
        let mut c = Coords { xyz: [0; 3], int, layer: 0 };
        let mut k = first;
        if geom.layered() {
            c.layer = self.lane_val(w, cta, d, k, lane)? as u32;
            k += 1;
        }
        for x in c.xyz.iter_mut().take(geom.dims()) {
            *x = self.lane_val(w, cta, d, k, lane)? as u32;
            k += 1;
        }
        Ok(c)
    }

    fn texels(&self, buffer: &str) -> &[u8] {
        self.mem.global.buffer(buffer).unwrap_or(&[])
    }

    fn bad_handle(kind: &str, h: u32, lane: u32) -> Er {
        (ErrorKind::Texture(format!("handle {h:#x} names no {kind} of the launch spec")), Some(lane))
    }

    pub(super) fn texture_op(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let locs: Vec<Loc> = d.dsts.iter().map(|r| self.loc(*r)).collect::<Result<_, _>>()?;
        let spec = self.spec;
        for lane in (0..WARP as u32).filter(|l| exec >> l & 1 == 1) {
            let h = self.lane_val(w, cta, d, 0, lane)? as u32;
            let words: Vec<u32> = match d.opcode {
                Opcode::Tex | Opcode::Tld4 => {
                    let t = spec.objects.texture(h).ok_or_else(|| Self::bad_handle("texture", h, lane))?;
                    let geom = Self::geom_of(d)?;
                    let int = d.mods.src_ty == Some(Ty::S32);
                    let texels = self.texels(&t.array.buffer);
                    let r = if d.opcode == Opcode::Tex {
                        let c = self.coords(w, cta, d, 2, geom, int, lane)?;
                        tx::fetch(t, texels, geom, c)
                    } else {
                        let c = self.coords(w, cta, d, 3, geom, int, lane)?;
                        tx::gather(t, texels, geom, c, imm_code(d, 2)? as usize)
                    };
                    r.map_err(tex_err(lane))?.to_vec()
                }
                Opcode::Txq | Opcode::Suq => {
                    let q = imm_code(d, 1)?;
                    let q = Query::from_code(q).ok_or((ErrorKind::Invalid(format!("query code {q}")), None))?;
                    let v = if d.opcode == Opcode::Txq {
                        let t = spec.objects.texture(h).ok_or_else(|| Self::bad_handle("texture", h, lane))?;
                        tx::query(&t.array, Some(t), q)
                    } else {
                        let s = spec.objects.surface(h).ok_or_else(|| Self::bad_handle("surface", h, lane))?;
                        tx::query(&s.array, None, q)
                    };
                    vec![v.map_err(tex_err(lane))?]
                }
                Opcode::Suld | Opcode::Sust => {
                    let s = spec.objects.surface(h).ok_or_else(|| Self::bad_handle("surface", h, lane))?;
                    let geom = Self::geom_of(d)?;
                    let clamp = imm_code(d, 2)?;
                    let clamp =
                        Clamp::from_code(clamp).ok_or((ErrorKind::Invalid(format!("clamp code {clamp}")), None))?;
                    let elem = d.ty().map_or(4, |t| (t.bits() / 8).max(1)) as usize;
                    let n = if d.opcode == Opcode::Suld { d.dsts.len() } else { d.srcs.len() - 3 - geom.ptx_coords() };
                    let c = self.coords(w, cta, d, 3, geom, true, lane)?;
                    let at = tx::surface_offset(s, geom, c.xyz, c.layer, elem * n, clamp).map_err(tex_err(lane))?;
                    let base = self.mem.global.address_of(&s.array.buffer).unwrap_or(0);
                    let fault = |f| (ErrorKind::Fault(f), Some(lane));
                    if d.opcode == Opcode::Suld {
                        let mut out = Vec::with_capacity(n);
                        for k in 0..n {
                            out.push(match at {
                                Some(o) => {
                                    self.mem.global.load(base + (o + k * elem) as u64, elem as u32).map_err(fault)?
                                        as u32
                                }
                                None => 0,
                            });
                        }
                        out
                    } else {
                        let first = 3 + geom.ptx_coords();
                        let vals: Vec<u64> =
                            (0..n).map(|k| self.lane_val(w, cta, d, first + k, lane)).collect::<Result<_, _>>()?;
                        if let Some(o) = at {
                            for (k, v) in vals.into_iter().enumerate() {
                                let mask = if elem == 8 { u64::MAX } else { (1u64 << (8 * elem)) - 1 };
                                self.mem
                                    .global
                                    .store(base + (o + k * elem) as u64, elem as u32, u128::from(v & mask))
                                    .map_err(fault)?;
                            }
                        }
                        Vec::new()
                    }
                }
                op => return Err((ErrorKind::Invalid(format!("`{op}` is not a texture operation")), None)),
            };
            for (loc, v) in locs.iter().zip(words) {
                self.write(w, *loc, lane, u128::from(v));
            }
        }
        Ok(())
    }
}
