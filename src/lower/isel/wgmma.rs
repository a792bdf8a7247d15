//! Warpgroup MMA (sm_90a): `wgmma.fence`, `wgmma.mma_async`, `wgmma.commit_group` and
//! `wgmma.wait_group` (the PTX-stage opcodes of `crate::lower::wgmma`) to `HGMMA` and
//! `WARPGROUP`, in the serialized form ptxas 13.0 emits at -O0 (read from `ptxas -arch sm_90a
//! -O0` on the corpus kernel tc_wgmma):
//!
//! ```text
//! R2UR UR4, Ra.lo ; R2UR UR5, Ra.hi ; R2UR UR6, Rb.lo ; R2UR UR7, Rb.hi   (the descriptors)
//! VOTEU.ANY UP0, !Pscale                                                 (scale-d, inverted)
//! WARPGROUP.ARRIVE
//! HGMMA.64x8x16.F32 R24, gdesc[UR4], R24, !UP0, gsb0
//! WARPGROUP.DEPBAR.LE gsb0, 0x0
//! ```
//!
//! | PTX-stage | SASS-stage Ori |
//! |---|---|
//! | `wgmma d, a, b, p, c` | `R2UR`s and `UPACK128` (the uniform quad {a, b}), `VOTEU` (`!p`), `PACK128` (c), `WARPGROUPARRIVE`, `HGMMA t, quad, c', !up, 1`, `WARPGROUPDEPBAR 0`, `UNPACK128` (d) |
//! | `wgmmafence` | nothing: every `HGMMA` has its own `WARPGROUP.ARRIVE` right before it |
//! | `wgmmacommit`, `wgmmawait n` | nothing: every `HGMMA` closes its own group (`gsb0`) and waits for it |
//!
//! Each `wgmma.mma_async` is thus a group of its own that completes before the next
//! instruction, which is what PTX allows an implementation to do (the accumulator may not be
//! accessed between the `mma_async` and a `wait_group` covering it, so completing earlier is
//! not observable), and what ptxas does where it serializes (at -O0, and at -O3 when it lacks
//! registers for the pipeline: its C7511 advisory). The `PACK128`/`UNPACK128` copies of the
//! accumulator sit before the `WARPGROUP.ARRIVE` and after the `WARPGROUP.DEPBAR`, so they
//! never touch an accumulator an `HGMMA` still writes, whether or not the allocator makes them
//! vanish.
//!
//! Scale-d: the `HGMMA`'s uniform predicate is true for every lane of the warp or none. ptxas
//! computes it as `!VOTEU.ANY(!p)` (p in all executing lanes); a scale-d the optimizer folded to
//! `PT`/`!PT` is `UPT`/`!UPT`.
//!
//! Invariants: the descriptors reach `HGMMA` unchanged (A's in the quad's low pair, B's in its
//! high pair, as `gdesc[URa]` reads them); only what our sm_90 tables encode is selected
//! (`HGMMA.64x8x16.F32`: m64n8k16 with f16 operands, a 4-register accumulator); other shapes,
//! bf16 and a guarded `wgmma` are errors naming the instruction.

use super::{R, Sel, imm, r};
use crate::ori::{InstData, Mods, Opcode, Operand, PhysReg, Reg, RegClass, RegFile, RegUse, Ty};

impl Sel<'_> {
    /// Selects one warpgroup MMA operation (see the module doc).
    pub(crate) fn sel_wgmma(&mut self, d: &InstData) -> R<()> {
        if self.guard.is_some() {
            return Err(format!("a predicated `{}` is not selected yet", d.opcode));
        }
        match d.opcode {
            // Subsumed by the per-`HGMMA` arrive, group and wait (module doc).
            Opcode::WgmmaFence | Opcode::WgmmaCommit => Ok(()),
            Opcode::WgmmaWait => match d.srcs.first() {
                Some(Operand::Imm(_)) => Ok(()),
                _ => Err("wgmma.wait_group without a constant count".into()),
            },
            Opcode::Wgmma => self.sel_hgmma(d),
            op => Err(format!("`{op}` is not a warpgroup MMA operation")),
        }
    }

    fn sel_hgmma(&mut self, d: &InstData) -> R<()> {
        let n = 2 * d.dsts.len();
        if d.dsts.len() != 4 {
            return Err(format!(
                "wgmma m64n{n}k16 is not selected yet (only m64n8k16: HGMMA.64x8x16.F32 is the one shape the sm_90 \
                 tables encode)"
            ));
        }
        match (d.mods.ty, d.mods.src_ty) {
            (Some(Ty::F32), Some(Ty::F16)) => {}
            (t, s) => {
                return Err(format!(
                    "wgmma of {t:?} from {s:?} is not selected yet (only f32 from f16: HGMMA.64x8x16.F32 is the one \
                     form the sm_90 tables encode)"
                ));
            }
        }
        let [da, db, scale, c @ ..] = d.srcs.as_slice() else {
            return Err(format!("wgmma with {} sources", d.srcs.len()));
        };
        if c.len() != d.dsts.len() {
            return Err(format!("wgmma with {} accumulator inputs for {} outputs", c.len(), d.dsts.len()));
        }
        // The descriptors: the uniform quad {A.lo, A.hi, B.lo, B.hi}.
        let mut words = Vec::with_capacity(4);
        for desc in [da, db] {
            let (lo, hi) = self.halves(desc)?;
            for h in [lo, hi] {
                let u = match h {
                    Operand::Imm(_) => self.ur_of(h)?,
                    h => {
                        let x = self.reg_src(&h)?;
                        self.ur_of(x)?
                    }
                };
                words.push(r(u));
            }
        }
        let quad = self.vreg(RegClass::UR128);
        self.emit(Opcode::UPACK128, Mods::new(), vec![quad.into()], words);
        let scale = self.uniform_scale(scale)?;
        let c = self.tuple(c)?;
        let (t, split) = self.tuple_dst(&d.dsts)?;
        self.emit(Opcode::WARPGROUPARRIVE, Mods::new(), vec![], vec![]);
        let mods = Mods { ty: d.mods.ty, src_ty: d.mods.src_ty, ..Mods::new() };
        self.emit(Opcode::HGMMA, mods, vec![t], vec![r(quad), c, scale, imm(1)]);
        self.emit(Opcode::WARPGROUPDEPBAR, Mods::new(), vec![], vec![imm(0)]);
        if let Some(s) = split {
            self.push(s);
        }
        Ok(())
    }

    /// The `HGMMA` predicate for PTX scale-d `p`: `UPT`/`!UPT` for a constant, else `!up` with
    /// `up = VOTEU.ANY !p` (true in every lane of the warp exactly when `p` holds in all
    /// executing lanes).
    fn uniform_scale(&mut self, p: &Operand) -> R<Operand> {
        let Operand::Reg(u) = p else { return Err(format!("a {} scale-d", p.kind_name())) };
        if u.reg.is_zero() {
            let upt = PhysReg::zero(RegFile::UP).ok_or("no UPT")?;
            return Ok(Operand::Reg(RegUse { reg: Reg::Phys(upt), neg: false, abs: false, not: u.not }));
        }
        if self.class(u.reg) != RegClass::P {
            return Err(format!("a {} scale-d", self.class(u.reg)));
        }
        let up = self.vreg(RegClass::UP);
        let inverted = Operand::Reg(RegUse { not: !u.not, ..*u });
        self.emit(Opcode::VOTEU, Mods::new(), vec![up.into()], vec![inverted]);
        Ok(Operand::Reg(RegUse { reg: up.into(), neg: false, abs: false, not: true }))
    }
}
