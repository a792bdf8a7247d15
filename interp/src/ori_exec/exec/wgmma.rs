//! The interpreter's warpgroup MMA (`wgmma.mma_async`): each warp computes its 16 rows of the
//! warpgroup's accumulator with [`crate::gmma`], the semantics the SASS emulator's `HGMMA`
//! uses too. The operation completes at issue, so `wgmma.fence`, `wgmma.commit_group` and
//! `wgmma.wait_group` have nothing to order or wait for in this in-order model. The selected
//! forms run the same way: `HGMMA` (on register tuples and a uniform descriptor quad),
//! `VOTEU` (its uniform scale-d), and `WARPGROUP.ARRIVE`/`DEPBAR` as no-ops.

use crate::gmma::Wgmma;
use ptxas_rs::ori::gmma::GmmaForm;

use super::*;

impl Engine<'_> {
    /// `wgmma`: destinations the warp's accumulator registers; sources the form, B's
    /// descriptor, scale-d, A (descriptor or four registers) and the old accumulator. Every
    /// lane of a full warp executes it (`.sync.aligned`), with warp-uniform descriptors and
    /// scale-d.
    pub(super) fn wgmma(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        if !whole_warp(d, exec)? {
            return Ok(());
        }
        let form = form_of(d.srcs.first())?;
        let na = if form.a_regs { 4 } else { 1 };
        if d.srcs.len() != 3 + na + d.dsts.len() || d.dsts.len() != form.d_regs() {
            let m = format!("`wgmma` with {} sources for {} accumulator registers", d.srcs.len(), d.dsts.len());
            return Err((ErrorKind::Invalid(m), None));
        }
        // B's descriptor, scale-d and (descriptor) A, which must be the same in every lane.
        let mut uniform = [0u64; 3];
        let ks = if form.a_regs { vec![1, 2] } else { vec![1, 2, 3] };
        for (u, &k) in uniform.iter_mut().zip(&ks) {
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
        let words = |range: std::ops::Range<usize>| -> Result<Vec<[u32; WARP]>, Er> {
            let mut out = Vec::new();
            for k in range {
                let mut v = [0u32; WARP];
                for (lane, x) in v.iter_mut().enumerate() {
                    *x = self.src(w, cta, d, k, &d.srcs[k], lane as u32)?.val.bits() as u32;
                }
                out.push(v);
            }
            Ok(out)
        };
        let a = if form.a_regs { Some(words(3..7)?) } else { None };
        let c = words(3 + na..d.srcs.len())?;
        let op = Wgmma { form, desc_a: uniform[2], desc_b: uniform[0], scale_d: uniform[1] != 0 };
        let dsts = self.dst_words(d)?;
        self.run_wgmma(cta, w, &op, a.as_deref(), &c, &dsts)
    }

    /// `HGMMA d, quad, c, up, gsb, form[, a]`: `wgmma` with the descriptors in the uniform quad
    /// (A's in its low pair, B's in its high pair), the accumulator as register tuples (`c` RZ:
    /// zeros), scale-d a uniform predicate and A, when in registers, a register tuple.
    pub(super) fn hgmma(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        if !whole_warp(d, exec)? {
            return Ok(());
        }
        let form = form_of(d.srcs.get(4))?;
        if d.srcs.len() != 5 + usize::from(form.a_regs) {
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
        let a = if form.a_regs { Some(self.warp_words(w, cta, d, 5)?) } else { None };
        let p = self.src(w, cta, d, 2, &d.srcs[2], 0)?;
        let scale_d = match p.val {
            Val::Pred(v) => v != p.not,
            Val::Bits(_) => return Err((ErrorKind::Invalid("`HGMMA` scale-d is not a predicate".into()), None)),
        };
        let op = Wgmma { form, desc_a: desc(0), desc_b: desc(2), scale_d };
        self.run_wgmma(cta, w, &op, a.as_deref(), &c, &dsts)
    }

    /// Computes `op` for warp `w` (its quarter of the warpgroup) on A fragment `a` (when A is
    /// in registers) and accumulators `c`, reading shared memory, and writes the results to
    /// `dsts`.
    fn run_wgmma(
        &mut self,
        cta: &Cta,
        w: &mut Warp,
        op: &Wgmma,
        a: Option<&[[u32; WARP]]>,
        c: &[[u32; WARP]],
        dsts: &[Loc],
    ) -> Result<(), Er> {
        let a: Option<[[u32; WARP]; 4]> =
            match a {
                Some(v) => Some(v.try_into().map_err(|_| {
                    (ErrorKind::Invalid(format!("`wgmma` with a {}-register A fragment", v.len())), None)
                })?),
                None => None,
            };
        let load = |off: u32, bytes: u32| cta.shared.load(u64::from(off), bytes).map(|v| v as u32);
        let r = match op.warp((w.id % 4) as usize, a.as_ref(), c, load) {
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

/// Whether any lane executes a warpgroup MMA; every lane of the warp must (`.sync.aligned`).
fn whole_warp(d: &InstData, exec: u32) -> Result<bool, Er> {
    if exec == 0 {
        return Ok(false);
    }
    if exec != u32::MAX {
        let m = format!("`{}` executed by lanes {exec:#010x}, not the whole warp", d.opcode);
        return Err((ErrorKind::Unsupported(m), None));
    }
    Ok(true)
}

/// The form immediate of a warpgroup MMA.
fn form_of(o: Option<&Operand>) -> Result<GmmaForm, Er> {
    match o {
        Some(Operand::Imm(i)) => GmmaForm::unpack(i.bits() as i64).map_err(|e| (ErrorKind::Invalid(e), None)),
        _ => Err((ErrorKind::Invalid("a warpgroup MMA without its form".into()), None)),
    }
}
