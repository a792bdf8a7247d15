//! The interpreter's tensor-core and asynchronous-copy operations: `ldmatrix`/`LDSM` and
//! `mma`/`HMMA` (warp-collective: the whole warp executes them; arithmetic and element placement from
//! [`ptxas_rs::ori::tensor`], shared with the SASS emulator) and `cp.async` (a copy at issue:
//! `commit_group`/`wait_group` are no-ops in this in-order model), and the register-quad copies
//! `PACK128`/`UNPACK128`.

use ptxas_rs::ori::tensor::{self, MmaType};

use super::*;

impl Engine<'_> {
    /// The 32-bit components of source `i` for every lane of the warp (a register tuple gives
    /// one entry per component; RZ and immediates one entry).
    pub(super) fn warp_words(&self, w: &Warp, cta: &Cta, d: &InstData, i: usize) -> Result<Vec<[u32; WARP]>, Er> {
        let o = d.srcs.get(i).ok_or((ErrorKind::Invalid(format!("`{}` lacks operand {i}", d.opcode)), None))?;
        if let Operand::Reg(u) = o {
            let loc = self.loc(u.reg)?;
            let mut out = Vec::new();
            for k in 0..loc.count {
                let one = Loc { slot: loc.slot + k, count: 1, ..loc };
                let mut v = [0u32; WARP];
                for (lane, x) in v.iter_mut().enumerate() {
                    *x = self.read(w, one, lane as u32)? as u32;
                }
                out.push(v);
            }
            return Ok(out);
        }
        let mut v = [0u32; WARP];
        for (lane, x) in v.iter_mut().enumerate() {
            *x = self.src(w, cta, d, i, o, lane as u32)?.val.bits() as u32;
        }
        Ok(vec![v])
    }

    /// The destination components of `d`, in order (a tuple gives one entry per component).
    pub(super) fn dst_words(&self, d: &InstData) -> Result<Vec<Loc>, Er> {
        let mut out = Vec::new();
        for r in &d.dsts {
            let loc = self.loc(*r)?;
            out.extend((0..loc.count).map(|k| Loc { slot: loc.slot + k, count: 1, ..loc }));
        }
        Ok(out)
    }

    /// `PACK128`/`UNPACK128` (and the wide `PACKW`/`UNPACKW`): component-wise parallel copies,
    /// lane by lane.
    pub(super) fn quad_copy(&mut self, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let mut vals = Vec::new();
        for o in &d.srcs {
            let Operand::Reg(u) = o else {
                return Err((ErrorKind::Invalid(format!("`{}` of a non-register", d.opcode)), None));
            };
            let loc = self.loc(u.reg)?;
            for k in 0..loc.count {
                let one = Loc { slot: loc.slot + k, count: 1, ..loc };
                let mut v = [0u32; WARP];
                for (lane, x) in v.iter_mut().enumerate() {
                    *x = self.read(w, one, lane as u32)? as u32;
                }
                vals.push(v);
            }
        }
        let dsts = self.dst_words(d)?;
        if dsts.len() != vals.len() {
            let m = format!("`{}` copies {} components into {}", d.opcode, vals.len(), dsts.len());
            return Err((ErrorKind::Invalid(m), None));
        }
        for (loc, v) in dsts.iter().zip(vals) {
            for lane in 0..WARP as u32 {
                if exec >> lane & 1 == 1 {
                    self.write(w, *loc, lane, u128::from(v[lane as usize]));
                }
            }
        }
        Ok(())
    }

    /// `ldmatrix`/`LDSM` and `mma`/`HMMA`: every live lane of a full warp must execute them.
    pub(super) fn tensor_op(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        if exec == 0 {
            return Ok(());
        }
        if exec != u32::MAX {
            let m = format!("`{}` executed by lanes {exec:#010x}, not the whole warp", d.opcode);
            return Err((ErrorKind::Unsupported(m), None));
        }
        let locs = self.dst_words(d)?;
        match d.opcode {
            Opcode::Movmatrix | Opcode::MOVM => {
                let mut a = [0u32; WARP];
                for (lane, v) in a.iter_mut().enumerate() {
                    *v = self.lane_val(w, cta, d, 0, lane as u32)? as u32;
                }
                let loc = *locs.first().ok_or((ErrorKind::Invalid("movmatrix without a destination".into()), None))?;
                for lane in 0..WARP {
                    let mut v = 0u32;
                    for h in 0..2 {
                        let (sl, sh) = tensor::movmatrix_source(lane, h);
                        v |= (a[sl] >> (16 * sh) & 0xffff) << (16 * h);
                    }
                    self.write(w, loc, lane as u32, u128::from(v));
                }
            }
            Opcode::Ldmatrix | Opcode::LDSM => {
                let m = Self::mem_ref(d)?;
                let mut addr = [0u64; WARP];
                for (lane, a) in addr.iter_mut().enumerate() {
                    let (space, x) = self.address(w, d, m, lane as u32)?;
                    if space != Space::Shared {
                        return Err((ErrorKind::Invalid("ldmatrix of a non-shared address".into()), Some(lane as u32)));
                    }
                    *a = x;
                }
                let trans = d.mods.has(ptxas_rs::ori::Flag::Trans);
                for (mat, loc) in locs.iter().enumerate() {
                    for lane in 0..WARP {
                        let mut v = 0u128;
                        for h in 0..2 {
                            let (row, off) = tensor::ldmatrix_source(mat, lane, h, trans);
                            let x = cta
                                .shared
                                .load(addr[row].wrapping_add(off), 2)
                                .map_err(|f| (ErrorKind::Fault(f), Some(lane as u32)))?;
                            v |= x << (16 * h);
                        }
                        self.write(w, *loc, lane as u32, v);
                    }
                }
            }
            Opcode::Stmatrix | Opcode::STSM => {
                let m = Self::mem_ref(d)?;
                let mut addr = [0u64; WARP];
                for (lane, a) in addr.iter_mut().enumerate() {
                    let (space, x) = self.address(w, d, m, lane as u32)?;
                    if space != Space::Shared {
                        return Err((ErrorKind::Invalid("stmatrix of a non-shared address".into()), Some(lane as u32)));
                    }
                    *a = x;
                }
                // Stmatrix: one word per matrix; STSM: one tuple.
                let mut words: Vec<[u32; WARP]> = Vec::new();
                for i in 1..d.srcs.len() {
                    words.extend(self.warp_words(w, cta, d, i)?);
                }
                let trans = d.mods.has(ptxas_rs::ori::Flag::Trans);
                for (mat, v) in words.iter().enumerate() {
                    for (lane, &x) in v.iter().enumerate() {
                        for h in 0..2 {
                            let (row, off) = tensor::ldmatrix_source(mat, lane, h, trans);
                            cta.shared
                                .store(addr[row].wrapping_add(off), 2, u128::from(x >> (16 * h) & 0xffff))
                                .map_err(|f| (ErrorKind::Fault(f), Some(row as u32)))?;
                        }
                    }
                }
            }
            Opcode::Mma | Opcode::HMMA | Opcode::IMMA => {
                let int = matches!(d.mods.src_ty, Some(Ty::S8 | Ty::U8)) && d.mods.ty == Some(Ty::S32);
                let ty = d.mods.src_ty.and_then(MmaType::of);
                let ty = match ty.filter(|_| d.mods.ty == Some(Ty::F32)) {
                    Some(t) => Some(t),
                    None if int => None,
                    None => return Err((ErrorKind::Unsupported(format!("mma of types {:?}", d.mods)), None)),
                };
                // Mma: a, b and c as single words; HMMA/IMMA: one tuple each.
                let mut parts: Vec<Vec<[u32; WARP]>> = Vec::new();
                for i in 0..d.srcs.len() {
                    parts.push(self.warp_words(w, cta, d, i)?);
                }
                let (fa, fb, fc) = if d.opcode != Opcode::Mma {
                    match parts.as_slice() {
                        [a, b, c] => (a.clone(), b.clone(), c.clone()),
                        _ => return Err((ErrorKind::Invalid(format!("`{}` takes three sources", d.opcode)), None)),
                    }
                } else {
                    let flat: Vec<[u32; WARP]> = parts.into_iter().flatten().collect();
                    let na = flat.len().saturating_sub(4) * 2 / 3;
                    (flat[..na].to_vec(), flat[na..na + na / 2].to_vec(), flat[na + na / 2..].to_vec())
                };
                let na = fa.len();
                if locs.len() != 4 || !matches!(na, 2 | 4) || fb.len() != na / 2 || fc.len() != 4 {
                    let m = format!(
                        "`{}` with fragments of {na}, {}, {} words into {}",
                        d.opcode,
                        fb.len(),
                        fc.len(),
                        locs.len()
                    );
                    return Err((ErrorKind::Invalid(m), None));
                }
                let (mut a, mut b, mut c) = ([[0u32; 4]; 32], [[0u32; 2]; 32], [[0u32; 4]; 32]);
                for l in 0..WARP {
                    (0..na).for_each(|i| a[l][i] = fa[i][l]);
                    (0..na / 2).for_each(|i| b[l][i] = fb[i][l]);
                    (0..4).for_each(|i| c[l][i] = fc[i][l]);
                }
                let r = match ty {
                    Some(ty) => tensor::mma_f32(ty.k_of(na), ty, &a, &b, &c),
                    None => {
                        let Some(signed) = tensor::int_mma_signedness(&d.mods) else {
                            let m = format!("`{}` with modifiers {:?}", d.opcode, d.mods);
                            return Err((ErrorKind::Invalid(m), None));
                        };
                        tensor::mma_s32(na, signed, d.mods.has(ptxas_rs::ori::Flag::Sat), &a, &b, &c)
                    }
                };
                for (i, loc) in locs.iter().enumerate() {
                    for (lane, rl) in r.iter().enumerate() {
                        self.write(w, *loc, lane as u32, u128::from(rl[i]));
                    }
                }
            }
            op => return Err((ErrorKind::Invalid(format!("`{op}` is not a tensor operation")), None)),
        }
        Ok(())
    }

    /// `cp.async` and `LDGSTS`: copies the type's width from global to shared memory, writing zeros from
    /// byte `src_size` on (nothing is read past it). `LDGSTS.ZFILL` takes the zero count from the
    /// global address's low bits and reads the rest from the address rounded down to the width.
    pub(super) fn cp_async(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let (Some(Operand::Mem(dm)), Some(Operand::Mem(sm))) = (d.srcs.first(), d.srcs.get(1)) else {
            return Err((ErrorKind::Invalid("cp.async needs two memory operands".into()), None));
        };
        let size = Self::access_size(d)?;
        for lane in 0..WARP as u32 {
            if exec >> lane & 1 == 0 {
                continue;
            }
            // cp.async: a source size; LDGSTS: a predicate, the whole width or nothing.
            let arg = self.src(w, cta, d, 2, &d.srcs[2], lane)?;
            let n = match arg.val {
                Val::Pred(p) => u32::from(p != arg.not) * size,
                Val::Bits(b) => b.min(u64::from(size)) as u32,
            };
            let (ds, da) = self.address(w, d, dm, lane)?;
            let (ss, mut sa) = self.address(w, d, sm, lane)?;
            // LDGSTS.ZFILL: the address's low bits count the zero bytes at the end.
            let n = if d.mods.has(ptxas_rs::ori::Flag::Zfill) && n != 0 {
                let z = (sa & u64::from(size - 1)) as u32;
                sa -= u64::from(z);
                size - z
            } else {
                n
            };
            if ds != Space::Shared || ss != Space::Global {
                return Err((ErrorKind::Invalid("cp.async from global to shared only".into()), Some(lane)));
            }
            for k in 0..size {
                let b = if k < n {
                    self.mem.global.load(sa + u64::from(k), 1).map_err(|f| (ErrorKind::Fault(f), Some(lane)))?
                } else {
                    0
                };
                cta.shared.store(da + u64::from(k), 1, b).map_err(|f| (ErrorKind::Fault(f), Some(lane)))?;
            }
        }
        Ok(())
    }
}
