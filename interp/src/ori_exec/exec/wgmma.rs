//! The interpreter's warpgroup MMA (`wgmma.mma_async`): each warp computes its 16 rows of the
//! warpgroup's accumulator with [`crate::gmma`], the semantics the SASS emulator's `HGMMA`
//! uses too. The operation completes at issue, so `wgmma.fence`, `wgmma.commit_group` and
//! `wgmma.wait_group` have nothing to order or wait for in this in-order model. The selected
//! forms run the same way: `HGMMA` (on register tuples and a uniform descriptor quad),
//! `VOTEU` (its uniform scale-d), and `WARPGROUP.ARRIVE`/`DEPBAR` as no-ops.

use crate::gmma::{InType, Wgmma};

use super::*;

impl Engine<'_> {
    /// `wgmma`: destinations the warp's N/2 accumulator registers; sources A's and B's
    /// descriptors, scale-d and the old accumulator. Every live lane of a full warp executes it
    /// (`.sync.aligned`), with warp-uniform descriptors and scale-d.
    pub(super) fn wgmma(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let Some(ty) = whole_warp_input_type(d, exec, "wgmma")? else { return Ok(()) };
        let n = 2 * d.dsts.len();
        if d.srcs.len() != 3 + d.dsts.len() {
            let m = format!("`wgmma` with {} sources for {} accumulator registers", d.srcs.len(), d.dsts.len());
            return Err((ErrorKind::Invalid(m), None));
        }
        // The descriptors and scale-d, which must be the same in every lane.
        let mut uniform = [0u64; 3];
        for (k, u) in uniform.iter_mut().enumerate() {
            for lane in 0..WARP as u32 {
                let a = self.src(w, cta, d, k, &d.srcs[k], lane)?;
                let v = match a.val {
                    Val::Pred(p) => u64::from(p != a.not),
                    Val::Bits(b) => b,
                };
                if lane == 0 {
                    *u = v;
                } else if v != *u {
                    let m = format!("`wgmma` source {k} differs between lanes 0 and {lane}");
                    return Err((ErrorKind::Unsupported(m), Some(lane)));
                }
            }
        }
        let mut c = Vec::with_capacity(d.dsts.len());
        for k in 3..d.srcs.len() {
            let mut v = [0u32; WARP];
            for (lane, x) in v.iter_mut().enumerate() {
                *x = self.src(w, cta, d, k, &d.srcs[k], lane as u32)?.val.bits() as u32;
            }
            c.push(v);
        }
        let op = Wgmma { n, ty, desc_a: uniform[0], desc_b: uniform[1], scale_d: uniform[2] != 0 };
        let dsts = self.dst_words(d)?;
        self.run_wgmma(cta, w, &op, &c, &dsts)
    }

    /// `HGMMA d, quad, c, up, gsb`: `wgmma` with the descriptors in the uniform quad (A's in its
    /// low pair, B's in its high pair), the accumulator as register tuples (`c` RZ: zeros) and
    /// scale-d a uniform predicate.
    pub(super) fn hgmma(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let Some(ty) = whole_warp_input_type(d, exec, "HGMMA")? else { return Ok(()) };
        if d.srcs.len() != 4 {
            return Err((ErrorKind::Invalid(format!("`HGMMA` with {} sources", d.srcs.len())), None));
        }
        let dsts = self.dst_words(d)?;
        let quad = self.warp_words(w, cta, d, 0)?;
        if quad.len() != 4 {
            return Err((ErrorKind::Invalid(format!("`HGMMA` with a {}-word descriptor", quad.len())), None));
        }
        let desc = |k: usize| u64::from(quad[k][0]) | u64::from(quad[k + 1][0]) << 32;
        let zero = matches!(&d.srcs[1], Operand::Reg(u) if u.reg.is_zero());
        let c = if zero { vec![[0u32; WARP]; dsts.len()] } else { self.warp_words(w, cta, d, 1)? };
        if c.len() != dsts.len() {
            let m = format!("`HGMMA` with {} accumulator inputs for {} outputs", c.len(), dsts.len());
            return Err((ErrorKind::Invalid(m), None));
        }
        let p = self.src(w, cta, d, 2, &d.srcs[2], 0)?;
        let scale_d = match p.val {
            Val::Pred(v) => v != p.not,
            Val::Bits(_) => return Err((ErrorKind::Invalid("`HGMMA` scale-d is not a predicate".into()), None)),
        };
        let op = Wgmma { n: 2 * dsts.len(), ty, desc_a: desc(0), desc_b: desc(2), scale_d };
        self.run_wgmma(cta, w, &op, &c, &dsts)
    }

    /// Computes `op` for warp `w` (its quarter of the warpgroup) on accumulators `c`, reading
    /// A and B from the CTA's shared memory, and writes the results to `dsts`.
    fn run_wgmma(&mut self, cta: &Cta, w: &mut Warp, op: &Wgmma, c: &[[u32; WARP]], dsts: &[Loc]) -> Result<(), Er> {
        let load = |off: u32| cta.shared.load(u64::from(off), 2).map(|v| v as u16);
        let r = match op.warp_f32((w.id % 4) as usize, c, load) {
            Ok(r) => r,
            Err(Ok(f)) => return Err((ErrorKind::Fault(f), None)),
            Err(Err(why)) => return Err((ErrorKind::Unsupported(why), None)),
        };
        for (loc, v) in dsts.iter().zip(&r) {
            for (lane, x) in v.iter().enumerate() {
                self.write(w, *loc, lane as u32, u128::from(*x));
            }
        }
        Ok(())
    }

    /// `VOTEU.ANY UPd, p`: whether `p` holds in any executing lane, for the whole warp.
    pub(super) fn voteu(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        if exec == 0 {
            return Ok(());
        }
        let Some(&dst) = d.dsts.first() else {
            return Err((ErrorKind::Invalid("`VOTEU` without a destination".into()), None));
        };
        let src = d.srcs.first().ok_or((ErrorKind::Invalid("`VOTEU` without a source".into()), None))?;
        let mut any = false;
        for lane in (0..WARP as u32).filter(|l| exec >> l & 1 == 1) {
            let a = self.src(w, cta, d, 0, src, lane)?;
            any |= match a.val {
                Val::Pred(v) => v != a.not,
                Val::Bits(_) => return Err((ErrorKind::Invalid("`VOTEU` of a non-predicate".into()), Some(lane))),
            };
        }
        let loc = self.loc(dst)?;
        for lane in 0..WARP as u32 {
            self.write(w, loc, lane, u128::from(any));
        }
        Ok(())
    }
}

/// The input type of a warpgroup MMA (`wgmma`, `HGMMA`: f16 or bf16 into f32), or `None` when no
/// lane executes it; every lane of the warp must (`.sync.aligned`).
fn whole_warp_input_type(d: &InstData, exec: u32, what: &str) -> Result<Option<InType>, Er> {
    if exec == 0 {
        return Ok(None);
    }
    if exec != u32::MAX {
        let m = format!("`{}` executed by lanes {exec:#010x}, not the whole warp", d.opcode);
        return Err((ErrorKind::Unsupported(m), None));
    }
    match (d.mods.ty, d.mods.src_ty) {
        (Some(Ty::F32), Some(Ty::F16)) => Ok(Some(InType::F16)),
        (Some(Ty::F32), Some(Ty::BF16)) => Ok(Some(InType::Bf16)),
        _ => Err((ErrorKind::Unsupported(format!("{what} of types {:?}", d.mods)), None)),
    }
}
