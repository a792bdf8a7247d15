//! The interpreter's warpgroup MMA (`wgmma.mma_async`): each warp computes its 16 rows of the
//! warpgroup's accumulator with [`crate::gmma`], the semantics the SASS emulator's `HGMMA`
//! uses too. The operation completes at issue, so `wgmma.fence`, `wgmma.commit_group` and
//! `wgmma.wait_group` have nothing to order or wait for in this in-order model.

use crate::gmma::{InType, Wgmma};

use super::*;

impl Engine<'_> {
    /// `wgmma`: destinations the warp's N/2 accumulator registers; sources A's and B's
    /// descriptors, scale-d and the old accumulator. Every live lane of a full warp executes it
    /// (`.sync.aligned`), with warp-uniform descriptors and scale-d.
    pub(super) fn wgmma(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        if exec == 0 {
            return Ok(());
        }
        if exec != u32::MAX {
            let m = format!("`{}` executed by lanes {exec:#010x}, not the whole warp", d.opcode);
            return Err((ErrorKind::Unsupported(m), None));
        }
        let ty = match (d.mods.ty, d.mods.src_ty) {
            (Some(Ty::F32), Some(Ty::F16)) => InType::F16,
            (Some(Ty::F32), Some(Ty::BF16)) => InType::Bf16,
            _ => return Err((ErrorKind::Unsupported(format!("wgmma of types {:?}", d.mods)), None)),
        };
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
        let load = |off: u32| cta.shared.load(u64::from(off), 2).map(|v| v as u16);
        let r = match op.warp_f32((w.id % 4) as usize, &c, load) {
            Ok(r) => r,
            Err(Ok(f)) => return Err((ErrorKind::Fault(f), None)),
            Err(Err(why)) => return Err((ErrorKind::Unsupported(why), None)),
        };
        for (dst, v) in d.dsts.iter().zip(&r) {
            let loc = self.loc(*dst)?;
            for (lane, x) in v.iter().enumerate() {
                self.write(w, loc, lane as u32, u128::from(*x));
            }
        }
        Ok(())
    }
}
