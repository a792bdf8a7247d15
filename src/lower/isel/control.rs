//! Moves, special registers, branches, exit/return, barriers.
//!
//! - `mov` of data → `MOV` (64-bit: a register-pair copy); of a predicate → `PLOP3.LUT`;
//!   of a special register → `S2R`, or the constant-bank-0 reads and short sequences ptxas
//!   uses on sm_90 (see [`Sel::read_sreg`]).
//! - `bra` → `BRA` (guard kept), `exit` and a kernel's `ret` → `EXIT`, a `.func`'s `ret`
//!   without values → `RET`; `bar.sync` → `WARPSYNC.ALL` + `BAR.SYNC`; `membar` → `MEMBAR`; `bar.warp.sync`
//!   → `WARPSYNC` (a register mask unless full; see [`Sel::warp_sync`]).
//! - A `.func`'s `ret` and direct calls follow the ABI of [`super::call`]; indirect calls
//!   (`calli`, through function pointers) are not selected yet.

use super::{R, Sel, imm, pt, pt_reg};
use crate::ori::{CBank, FuncKind, Half, InstData, Mods, Opcode, Operand, Reg, Rnd, SpecialReg, Ty};
use Opcode::{BRA, ISETP};

impl Sel<'_> {
    /// Reads special register `sr` into `dst`, with the sequences ptxas emits on sm_90: the
    /// grid shape, `%nsmid`, `%gridid`, `%dynamic_smem_size` and the cluster shape come from
    /// the driver's slots of constant bank 0 ([`crate::cubin::DriverSlots`]); `%warpid` and
    /// `%nwarpid` are bits of `SR_VIRTID` / `SR_VIRTCFG`, `%smid` is `SR_VIRTUALSMID`,
    /// `%cluster_ctarank` is `SR_CgaCtaId` (spelled so by emission); `%clusterid` is `trunc(%ctaid * 1/dim)` in f32 and
    /// `%cluster_ctaid` is `%ctaid - %clusterid * dim` (sreg_geometry, sreg_cluster_smem).
    pub(crate) fn read_sreg(&mut self, dst: Reg, sr: SpecialReg) -> R<()> {
        use SpecialReg::*;
        let bank = |off: u32| Operand::CBank(CBank { bank: 0, index: None, offset: off as i32 });
        let layout = *self.target.layout();
        // The driver slots, where the sequence needs them (not known on every target).
        let slots = self.driver_slots();
        let d = || slots.clone();
        let ldc = |s: &mut Self, dst: Reg, off: u32| s.emit(Opcode::LDC, Mods::new(), vec![dst], vec![bank(off)]);
        let s2r = |s: &mut Self, dst: Reg, sr: SpecialReg| {
            s.emit(Opcode::S2R, Mods::new(), vec![dst], vec![Operand::SReg(sr)]);
        };
        // dst = op.ty(a, b), selected.
        let op = |s: &mut Self, op: Opcode, m: Mods, dst: Reg, a: Operand, b: Operand| {
            s.inst(&InstData::new(op, m, vec![dst], vec![a, b]))
        };
        let dim = |first: SpecialReg| sr as u32 - first as u32;
        match sr {
            NtidX | NtidY | NtidZ => ldc(self, dst, layout.ntid[dim(NtidX) as usize]),
            NctaidX | NctaidY | NctaidZ => ldc(self, dst, layout.nctaid[dim(NctaidX) as usize]),
            NSmId => ldc(self, dst, d()?.sm_count),
            GridId => ldc(self, dst, d()?.grid_id),
            DynSmemSize => ldc(self, dst, d()?.dynamic_smem),
            // The reserved shared-memory window: its start, its capacity and offset 0 are
            // constants on sm_90 (phase 12 ReplaceUniformsWithImm folds them first, so these
            // immediates are only reached when the pipeline did not run); its end and offset 1
            // are driver slots.
            ReservedSmemBegin | ReservedSmem0 | ReservedSmemCap => {
                let v = crate::opt::uniform_imm::reserved_smem_constant(sr).ok_or("a reserved-smem constant")?;
                self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![imm(v.into())]);
            }
            ReservedSmemEnd => ldc(self, dst, d()?.reserved_smem_end),
            ReservedSmem1 => ldc(self, dst, d()?.reserved_smem_1),
            ClusterNctaidX | ClusterNctaidY | ClusterNctaidZ => {
                ldc(self, dst, d()?.cluster_dims + 4 * dim(ClusterNctaidX));
            }
            NClusterIdX | NClusterIdY | NClusterIdZ => ldc(self, dst, d()?.nclusters + 4 * dim(NClusterIdX)),
            ClusterNctaRank => ldc(self, dst, d()?.cluster_size),
            SmId => s2r(self, dst, VirtualSmId),
            WarpId | NWarpId => {
                let (src, mask) = if sr == WarpId { (VirtId, 0x7f) } else { (VirtCfg, 0xff) };
                let (v, sh) = (self.t32(), self.t32());
                s2r(self, v.into(), src);
                op(self, Opcode::Shr, Mods::ty(Ty::U32), sh.into(), Operand::reg(v), imm(8))?;
                op(self, Opcode::And, Mods::ty(Ty::B32), dst, Operand::reg(sh), imm(mask))?;
            }
            TotalSmemSize => {
                let (all, sub) = (self.t32(), self.t32());
                s2r(self, all.into(), SmemSz);
                ldc(self, sub.into(), d()?.smem_total_sub);
                op(self, Opcode::Sub, Mods::ty(Ty::U32), dst, Operand::reg(all), Operand::reg(sub))?;
            }
            IsExplicitCluster => {
                let (w, p) = (self.t32(), self.tp());
                ldc(self, w.into(), d()?.explicit_cluster);
                let m = Mods { cmp: Some(crate::ori::Cmp::Eq), ..Mods::ty(Ty::U32) };
                op(self, Opcode::Setp, m, p.into(), Operand::reg(w), imm(1))?;
                self.inst(&InstData::new(
                    Opcode::Selp,
                    Mods::ty(Ty::U32),
                    vec![dst],
                    vec![imm(1), imm(0), Operand::reg(p)],
                ))?;
            }
            ClusterIdX | ClusterIdY | ClusterIdZ | ClusterCtaidX | ClusterCtaidY | ClusterCtaidZ => {
                let k = if (ClusterIdX as u32..=ClusterIdZ as u32).contains(&(sr as u32)) {
                    dim(ClusterIdX)
                } else {
                    dim(ClusterCtaidX)
                };
                let ctaid = [CtaidX, CtaidY, CtaidZ][k as usize];
                let (c, f, rcp, q) = (self.t32(), self.t32(), self.t32(), self.t32());
                s2r(self, c.into(), ctaid);
                let cvt = |dt, st, rnd| Mods { rnd: Some(rnd), ..crate::lower::func::cvt_mods(dt, st) };
                self.inst(&InstData::new(
                    Opcode::Cvt,
                    cvt(Ty::F32, Ty::U32, Rnd::Rn),
                    vec![f.into()],
                    vec![Operand::reg(c)],
                ))?;
                ldc(self, rcp.into(), d()?.cluster_rcp + 4 * k);
                let m = Mods { rnd: Some(Rnd::Rn), ..Mods::ty(Ty::F32) };
                op(self, Opcode::Mul, m, q.into(), Operand::reg(f), Operand::reg(rcp))?;
                let id: Reg = if sr as u32 <= ClusterIdZ as u32 { dst } else { self.t32().into() };
                self.inst(&InstData::new(
                    Opcode::Cvt,
                    cvt(Ty::U32, Ty::F32, Rnd::Rzi),
                    vec![id],
                    vec![Operand::reg(q)],
                ))?;
                if id != dst {
                    // %cluster_ctaid = %ctaid - %clusterid * %cluster_nctaid.
                    let (n, prod) = (self.t32(), self.t32());
                    ldc(self, n.into(), d()?.cluster_dims + 4 * k);
                    op(
                        self,
                        Opcode::Mul,
                        Mods { half: Some(Half::Lo), ..Mods::ty(Ty::U32) },
                        prod.into(),
                        Operand::reg(id),
                        Operand::reg(n),
                    )?;
                    op(self, Opcode::Sub, Mods::ty(Ty::U32), dst, Operand::reg(c), Operand::reg(prod))?;
                }
            }
            _ if sr.is_pseudo() => return Err(format!("{} is not selected yet", sr.name())),
            _ => s2r(self, dst, sr),
        }
        Ok(())
    }

    pub(crate) fn sel_mov(&mut self, d: &InstData) -> R<()> {
        if d.opcode != Opcode::Mov {
            return self.sel_addr(d);
        }
        let dst = Self::dst(d)?;
        let t = d.ty().ok_or("mov without a type")?;
        let s = &d.srcs[0];
        if t == Ty::Pred {
            let a = self.pred_src(s)?;
            // PLOP3.LUT d, PT, a, PT, PT, 0xf0: d = a.
            self.emit(Opcode::PLOP3, Mods::new(), vec![dst, pt_reg()], vec![a, pt(), pt(), imm(0xf0), imm(0)]);
            return Ok(());
        }
        if let Operand::SReg(sr) = s {
            if t.bits() == 64 {
                return Err(format!("a 64-bit read of {}", sr.name()));
            }
            return self.read_sreg(dst, *sr);
        }
        if t.bits() > 64 {
            return Err(format!("mov.{t} is not selected yet"));
        }
        self.copy(dst, s, t)
    }

    pub(crate) fn sel_control(&mut self, d: &InstData) -> R<()> {
        use Opcode::*;
        match d.opcode {
            Bra => self.emit(BRA, Mods::new(), vec![], d.srcs.clone()),
            Exit => self.emit(EXIT, Mods::new(), vec![], vec![]),
            Ret => {
                if self.f.kind == FuncKind::Entry {
                    self.emit(EXIT, Mods::new(), vec![], vec![]);
                } else {
                    self.sel_func_ret(d)?;
                }
            }
            Membar => {
                use crate::ori::fence::{Fence, Step};
                let form = match d.srcs.first() {
                    Some(Operand::Imm(i)) => Fence::from_code(i.bits() as i64),
                    _ => None,
                };
                let form = form.ok_or_else(|| format!("`membar` without a fence form: {:?}", d.srcs))?;
                // ptxas's sequence for the form (`ori::fence`).
                for step in form.sass() {
                    match step {
                        Step::Membar(m) => self.emit(MEMBAR, Mods::new(), vec![], vec![imm(m.code())]),
                        Step::Errbar => self.emit(ERRBAR, Mods::new(), vec![], vec![]),
                        // Only with clusters: ptxas's sm_80 `membar.gl` is
                        // `MEMBAR.SC.GPU; ERRBAR; CCTL.IVALL` (atom_threadfence).
                        Step::CgaErrbar if !self.target.has_clusters() => {}
                        Step::CgaErrbar => self.emit(CGAERRBAR, Mods::new(), vec![], vec![]),
                        Step::CctlIvall => self.emit(CCTLIVALL, Mods::new(), vec![], vec![]),
                        Step::FenceView { global } => {
                            self.emit(FENCEVIEW, Mods::new(), vec![], vec![imm(i64::from(global))])
                        }
                        Step::Nop => self.emit(NOP, Mods::new(), vec![], vec![]),
                    }
                }
            }
            Warpsync => {
                self.warp_sync(&d.srcs[0])?;
            }
            TensormapAcquire => {
                // `DEPBAR {5,4,3,2,1,0}; UTMACCTL.IV [URa]` (ptxas 13.0.88).
                let (lo, hi) = self.halves(&d.srcs[0])?;
                let (ul, uh) = (self.ur_of(lo)?, self.ur_of(hi)?);
                let pair = self.ur_pair(ul, uh);
                self.emit(DEPBARLIST, Mods::new(), vec![], vec![imm(0x3f)]);
                self.emit(UTMACCTL, Mods::new(), vec![], vec![super::r(pair)]);
            }
            op => return Err(format!("`{op}` is not selected yet")),
        }
        Ok(())
    }

    /// `brx.idx i, [t0, .., tn-1]`: a chain of compares and guarded branches, one block per
    /// target (`ISETP.EQ p, PT, i, k, g` + `@p BRA tk`), the last target taken unconditionally
    /// (under the instruction's guard). ptxas uses a `BRX` through a jump table in constant
    /// memory, which needs the cubin's table; an index out of range (undefined in PTX) goes
    /// to the last target here.
    pub(crate) fn sel_brx(&mut self, d: &InstData) -> R<()> {
        if self.has_phis() {
            return Err("brx in a function with phis is not selected yet".into());
        }
        let g = self.guard.take();
        let idx = self.reg_src(&d.srcs[0])?;
        let targets: Vec<Operand> = d.srcs[1..].to_vec();
        let gp = match g {
            Some(g) => Operand::Reg(crate::ori::RegUse { reg: g.reg, neg: false, abs: false, not: g.not }),
            None => pt(),
        };
        for (k, t) in targets.iter().enumerate() {
            if k + 1 == targets.len() {
                self.push(InstData { guard: g, ..InstData::new(BRA, Mods::new(), vec![], vec![t.clone()]) });
                break;
            }
            let p = self.tp();
            let m = Mods {
                cmp: Some(crate::ori::Cmp::Eq),
                ty: Some(Ty::U32),
                bop: Some(crate::ori::BoolOp::And),
                ..Mods::new()
            };
            self.emit(ISETP, m, vec![p.into(), pt_reg()], vec![idx.clone(), imm(k as i64), gp.clone()]);
            let guard = crate::ori::Guard { reg: p.into(), not: false };
            self.push(InstData { guard: Some(guard), ..InstData::new(BRA, Mods::new(), vec![], vec![t.clone()]) });
            self.split_block();
        }
        Ok(())
    }
}
