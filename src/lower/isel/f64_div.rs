//! IEEE `div.{rn,rz,rm,rp}.f64` (and `rcp`, which is `1 / x`), `sqrt.{rn,rz,rm,rp}.f64` and
//! ptxas's `rsqrt.approx.f64`: correctly rounded results for every operand, each as one
//! straight-line sequence (no call, no branch, so a guarded instruction predicates like any
//! other sequence). Checked bit for bit against the interpreter's exact arithmetic and against
//! NVIDIA's cubins (fast paths and slow-path subroutines) in the emulator by
//! `interp/tests/f64_ieee.rs`. Division, in rounding to nearest:
//!
//! ptxas selects an inline fast path (a `MUFU.RCP64H` seed, DFMA Newton steps, the quotient
//! and one residual correction) guarded by a range check on the high words, and calls the
//! subroutine `__cuda_sm20_div_rn_f64_full` with `CALL.REL.NOINC` outside that range. Here the
//! range problem is removed instead of branched around:
//!
//! 1. Zeros, infinities and NaNs are the product `s * a` with `s` = ±∞ for a zero divisor, ±0
//!    for an infinite one, the divisor itself for a NaN one and ±1 otherwise (`a` in DMUL's
//!    B slot, whose NaN wins, as the interpreter orders NaN operands).
//! 2. Finite nonzero operands are normalised: `|x|` (a subnormal first scaled by 2^54, exact)
//!    gets the exponent field of 1.0, so `am`, `bm` lie in [1, 2) and the biased exponents
//!    `ea`, `eb` are kept; `k = ea - eb`.
//! 3. `q = am / bm`, correctly rounded, by ptxas's own fast-path iteration (seed with low word
//!    1, `e = 1 - bm·y`, `y += y·(e + e²)`, one Newton step, `q = am·y`, `q += y·(am - bm·q)`):
//!    operands in [1, 2) and a quotient in (1/2, 2) are well inside its range. The residual
//!    `r = am - bm·q` (one DFMA, exact) says on which side of `q` the exact quotient lies.
//! 4. The result is `q·2^k`, applied as two exact power-of-two factors `2^k1`, `2^k2` with `k`
//!    clamped to [-1200, 1100] (beyond, the result is 0 or ∞ anyway): `q·2^k1` is normal and
//!    exact, and the second DMUL rounds once. That single rounding is the correctly rounded
//!    quotient unless the result is subnormal and `q` lies exactly on a midpoint of the
//!    subnormal grid while the exact quotient does not (`r ≠ 0`): `q` was rounded to the
//!    midpoint, and ties-to-even may then pick the wrong neighbour. The midpoint is detected
//!    with the two directed products `lo = RM(q·2^k)` and `hi = RP(q·2^k)`, scaled back
//!    (exact): `q` is the midpoint iff `lo' + hi' = 2q` (exact sums). Then the sign of `r`
//!    picks `hi` or `lo`. For a normal, exact result `lo = hi`, so the choice is harmless;
//!    on overflow `hi' = ∞` and no midpoint is seen.
//! 5. The sign is `sign(a) XOR sign(b)` put on the magnitude.
//!
//! Directed division replaces step 4: the magnitude rounded down is `RM(q'·2^k)` with `q'` the
//! double below `q` when `r < 0` (else `q`), rounded up `RP(q''·2^k)` with `q''` the double
//! above `q` when `r > 0`: between `q'` (or `q''`) and the exact quotient there is no double,
//! so the one directed scaling rounds correctly, subnormal results included. `rz` takes the
//! magnitude rounded down; `rm`/`rp` down or up by the quotient's sign. Square roots:
//! [`Sel::sqrt_f64`].

use super::{R, Sel, neg, not, pt, pt_reg, r, rz};
use crate::ori::{BoolOp, Cmp, Imm, InstData, Mods, Mufu, Opcode, Operand, Reg, RegClass, RegUse, Rnd, Ty};

/// An f64 immediate.
fn f64imm(bits: u64) -> Operand {
    Operand::Imm(Imm::F64(bits))
}

/// A 32-bit immediate given as its bit pattern.
fn u32imm(bits: u32) -> Operand {
    Operand::Imm(Imm::Int(i64::from(bits)))
}

/// `|x|` of a register operand.
fn fabs(x: &Operand) -> Operand {
    match x {
        Operand::Reg(u) => Operand::Reg(RegUse { abs: true, neg: false, ..*u }),
        o => o.clone(),
    }
}

/// The f64 bits of 1.0.
const ONE: u64 = 0x3ff0_0000_0000_0000;

impl Sel<'_> {
    /// `DSETP.cmp.AND p, PT, a, b, q` (q = PT when None).
    fn dsetp(&mut self, c: Cmp, a: Operand, b: Operand, q: Option<Reg>) -> Reg {
        let p = self.tp();
        let m = Mods { cmp: Some(c), bop: Some(BoolOp::And), ..Mods::new() };
        let q = q.map_or_else(pt, r);
        self.emit(Opcode::DSETP, m, vec![p.into(), pt_reg()], vec![a, b, q]);
        p.into()
    }

    /// `ISETP.cmp.U32.AND p, PT, a, b, PT`.
    fn isetp_u32(&mut self, c: Cmp, a: Operand, b: Operand) -> Reg {
        let p = self.tp();
        let m = Mods { cmp: Some(c), ty: Some(Ty::U32), bop: Some(BoolOp::And), ..Mods::new() };
        self.emit(Opcode::ISETP, m, vec![p.into(), pt_reg()], vec![a, b, pt()]);
        p.into()
    }

    /// `LOP3.LUT d, a, b, c, lut`.
    fn lop3(&mut self, a: Operand, b: Operand, c: Operand, lut: i64) -> Reg {
        let d = self.t32();
        self.emit(Opcode::LOP3, Mods::new(), vec![d.into()], vec![a, b, c, Operand::Imm(Imm::Int(lut))]);
        d.into()
    }

    /// A 32-bit `op` with one destination.
    fn op32(&mut self, op: Opcode, m: Mods, srcs: Vec<Operand>) -> Reg {
        let d = self.t32();
        self.emit(op, m, vec![d.into()], srcs);
        d.into()
    }

    /// An f64 `op` (DMUL/DFMA/DADD) with rounding `rnd` into a new 64-bit register.
    fn dop(&mut self, op: Opcode, rnd: Option<Rnd>, srcs: Vec<Operand>) -> Reg {
        let d = self.vreg(RegClass::R64);
        self.emit(op, Mods { rnd, ..Mods::new() }, vec![d.into()], srcs);
        d.into()
    }

    /// A 64-bit register from two 32-bit halves.
    fn pack(&mut self, lo: Operand, hi: Operand) -> Reg {
        let d = self.vreg(RegClass::R64);
        self.pack_into(d.into(), lo, hi);
        d.into()
    }

    /// `p ? a : b` on 64-bit registers, written to `dst` (a new register when None).
    fn sel64(&mut self, a: Reg, b: Reg, p: Reg, dst: Option<Reg>) -> R<Reg> {
        let (al, ah) = self.halves(&r(a))?;
        let (bl, bh) = self.halves(&r(b))?;
        let lo = self.op32(Opcode::SEL, Mods::new(), vec![al, bl, r(p)]);
        let hi = self.op32(Opcode::SEL, Mods::new(), vec![ah, bh, r(p)]);
        let d = dst.unwrap_or_else(|| self.vreg(RegClass::R64).into());
        self.pack_into(d, r(lo), r(hi));
        Ok(d)
    }

    /// `|x|` with the exponent field of 1.0 (in [1, 2)) and its biased exponent (a subnormal
    /// `x` counted from its value scaled by 2^54); meaningful for finite nonzero `x`.
    fn f64_normalise(&mut self, x: Reg) -> R<(Reg, Reg)> {
        let (xl, xh) = self.halves(&r(x))?;
        let xh_abs = self.lop3(xh, u32imm(0x7fff_ffff), rz(), 0xc0);
        let sub = self.isetp_u32(Cmp::Lo, r(xh_abs), u32imm(0x0010_0000));
        let xa = self.pack(xl, r(xh_abs));
        let xs = self.dop(Opcode::DMUL, None, vec![r(xa), f64imm(0x4350_0000_0000_0000)]); // 2^54
        let xn = self.sel64(xs, xa, sub, None)?;
        let (nl, nh) = self.halves(&r(xn))?;
        let shr = super::bits::shf(crate::ori::Dir::R, Ty::U32, true);
        let e0 = self.op32(Opcode::SHF, shr, vec![rz(), u32imm(20), nh.clone()]);
        let adj = self.op32(Opcode::SEL, Mods::new(), vec![rz(), u32imm((-54i32) as u32), not(r(sub))]);
        let e = self.op32(Opcode::IADD3, Mods::new(), vec![r(e0), r(adj), rz()]);
        // (nh & 0x000fffff) | 0x3ff00000
        let mh = self.lop3(nh, u32imm(0x000f_ffff), u32imm(0x3ff0_0000), 0xea);
        let m = self.pack(nl, r(mh));
        Ok((m, e))
    }

    /// `p = x is finite and nonzero && q` (f64).
    fn finite_nonzero64(&mut self, x: Reg, q: Option<Reg>) -> Reg {
        let p1 = self.dsetp(Cmp::Gt, fabs(&r(x)), f64imm(0), q);
        self.dsetp(Cmp::Lt, fabs(&r(x)), f64imm(0x7ff0_0000_0000_0000), Some(p1))
    }

    /// `2^k` as an f64 (k within the normal exponent range), scaled by `sign` ±1 on the
    /// exponent: `hi = 0x3ff00000 + sign·k·2^20`.
    fn pow2(&mut self, k: Reg, negate: bool) -> Reg {
        let step = if negate { 0xfff0_0000 } else { 0x0010_0000 };
        let hi = self.op32(Opcode::IMAD, Mods::ty(Ty::U32), vec![r(k), u32imm(step), u32imm(0x3ff0_0000)]);
        self.pack(rz(), r(hi))
    }

    /// `dst = a / b` (f64, rounded by `rnd`), see the module doc.
    pub(crate) fn div_f64(&mut self, dst: Reg, a: &Operand, b: &Operand, rnd: Rnd) -> R<()> {
        use Opcode::*;
        let Operand::Reg(au) = self.wide_reg(a)? else { return Err("f64 dividend".into()) };
        let Operand::Reg(bu) = self.wide_reg(b)? else { return Err("f64 divisor".into()) };
        let (a, b) = (au.reg, bu.reg);
        // 1. Zeros, infinities, NaNs.
        let (bl, bh) = self.halves(&r(b))?;
        let zb = self.dsetp(Cmp::Eq, fabs(&r(b)), f64imm(0), None);
        let ib = self.dsetp(Cmp::Eq, fabs(&r(b)), f64imm(0x7ff0_0000_0000_0000), None);
        let nb = self.dsetp(Cmp::Nan, r(b), r(b), None);
        let t1 = self.op32(SEL, Mods::new(), vec![rz(), u32imm(0x3ff0_0000), r(ib)]);
        let t2 = self.op32(SEL, Mods::new(), vec![r(t1), u32imm(0x7ff0_0000), not(r(zb))]);
        let sgn_b = self.lop3(bh.clone(), u32imm(0x8000_0000), rz(), 0xc0);
        let t3 = self.lop3(r(t2), r(sgn_b), rz(), 0xfc);
        let shi = self.op32(SEL, Mods::new(), vec![bh.clone(), r(t3), r(nb)]);
        let slo = self.op32(SEL, Mods::new(), vec![bl, rz(), r(nb)]);
        let s = self.pack(r(slo), r(shi));
        let special = self.dop(DMUL, None, vec![r(s), r(a)]);
        // 2. Normalise.
        let (am, ea) = self.f64_normalise(a)?;
        let (bm, eb) = self.f64_normalise(b)?;
        // 3. q = am / bm, correctly rounded, and its exact residual.
        let (_, bmh) = self.halves(&r(bm))?;
        let seed = self.op32(MUFU, Mods { mufu: Some(Mufu::Rcp64h), ..Mods::new() }, vec![bmh]);
        let one_lo = self.op32(MOV, Mods::new(), vec![u32imm(1)]);
        let y0 = self.pack(r(one_lo), r(seed));
        let e0 = self.dop(DFMA, None, vec![neg(r(bm)), r(y0), f64imm(ONE)]);
        let e1 = self.dop(DFMA, None, vec![r(e0), r(e0), r(e0)]);
        let y1 = self.dop(DFMA, None, vec![r(y0), r(e1), r(y0)]);
        let e2 = self.dop(DFMA, None, vec![neg(r(bm)), r(y1), f64imm(ONE)]);
        let y = self.dop(DFMA, None, vec![r(y1), r(e2), r(y1)]);
        let q0 = self.dop(DMUL, None, vec![r(am), r(y)]);
        let r0 = self.dop(DFMA, None, vec![neg(r(bm)), r(q0), r(am)]);
        let q = self.dop(DFMA, None, vec![r(y), r(r0), r(q0)]);
        let res = self.dop(DFMA, None, vec![neg(r(bm)), r(q), r(am)]);
        // 4. Scale by 2^k, k = ea - eb clamped, in two exact halves k1 = floor(k/2), k2 = k - k1.
        let k0 = self.op32(IADD3, Mods::new(), vec![r(ea), neg(r(eb)), rz()]);
        let k1c = self.op32(IMNMX, Mods::ty(Ty::S32), vec![r(k0), u32imm((-1200i32) as u32), super::not_pt()]);
        let k = self.op32(IMNMX, Mods::ty(Ty::S32), vec![r(k1c), u32imm(1100), pt()]);
        let kb = self.op32(IADD3, Mods::new(), vec![r(k), u32imm(1200), rz()]);
        let shr = super::bits::shf(crate::ori::Dir::R, Ty::U32, true);
        let half = self.op32(SHF, shr, vec![rz(), u32imm(1), r(kb)]);
        let k1 = self.op32(IADD3, Mods::new(), vec![r(half), u32imm((-600i32) as u32), rz()]);
        let k2 = self.op32(IADD3, Mods::new(), vec![r(k), neg(r(k1)), rz()]);
        let (p1, p2, p2inv) = (self.pow2(k1, false), self.pow2(k2, false), self.pow2(k2, true));
        let (_, ah) = self.halves(&r(a))?;
        let (_, bh) = self.halves(&r(b))?;
        let sgn = self.lop3(ah, bh, u32imm(0x8000_0000), 0x28); // (a ^ b) & c
        let mag = if rnd == Rnd::Rn {
            let qs = self.dop(DMUL, None, vec![r(q), r(p1)]);
            let rn = self.dop(DMUL, None, vec![r(qs), r(p2)]);
            let lo = self.dop(DMUL, Some(Rnd::Rm), vec![r(qs), r(p2)]);
            let hi = self.dop(DMUL, Some(Rnd::Rp), vec![r(qs), r(p2)]);
            let lo_b = self.dop(DMUL, None, vec![r(lo), r(p2inv)]);
            let hi_b = self.dop(DMUL, None, vec![r(hi), r(p2inv)]);
            let sum = self.dop(DADD, None, vec![r(lo_b), r(hi_b)]);
            let twice = self.dop(DADD, None, vec![r(qs), r(qs)]);
            let mid = self.dsetp(Cmp::Eq, r(sum), r(twice), None);
            let up = self.dsetp(Cmp::Gt, r(res), f64imm(0), Some(mid));
            let down = self.dsetp(Cmp::Lt, r(res), f64imm(0), Some(mid));
            let m1 = self.sel64(hi, rn, up, None)?;
            self.sel64(lo, m1, down, None)?
        } else {
            // Directed: the magnitude rounded down is RM(q'·2^k) with q' = q, or the double
            // below q when the exact quotient is below it (r < 0); rounded up, RP(q''·2^k)
            // with q'' the double above q when r > 0. q' and q'' bracket the exact quotient
            // with no double between, so one directed scaling rounds it correctly, subnormal
            // results included.
            let (qd, qu) = self.f64_neighbours(q)?;
            let below = self.dsetp(Cmp::Lt, r(res), f64imm(0), None);
            let above = self.dsetp(Cmp::Gt, r(res), f64imm(0), None);
            let q_lo = self.sel64(qd, q, below, None)?;
            let q_hi = self.sel64(qu, q, above, None)?;
            let lo_s = self.dop(DMUL, None, vec![r(q_lo), r(p1)]);
            let hi_s = self.dop(DMUL, None, vec![r(q_hi), r(p1)]);
            let down = self.dop(DMUL, Some(Rnd::Rm), vec![r(lo_s), r(p2)]);
            let up = self.dop(DMUL, Some(Rnd::Rp), vec![r(hi_s), r(p2)]);
            let _ = p2inv;
            match rnd {
                Rnd::Rz => down,
                _ => {
                    // rm rounds a negative quotient's magnitude up, rp a positive one's.
                    let negative = self.isetp_u32(Cmp::Ne, r(sgn), rz());
                    let (if_neg, if_pos) = if rnd == Rnd::Rm { (up, down) } else { (down, up) };
                    self.sel64(if_neg, if_pos, negative, None)?
                }
            }
        };
        // 5. The sign.
        let (ml, mh) = self.halves(&r(mag))?;
        let qh = self.lop3(mh, r(sgn), rz(), 0x3c); // a ^ b
        let quot = self.pack(ml, r(qh));
        let ok_a = self.finite_nonzero64(a, None);
        let ok = self.finite_nonzero64(b, Some(ok_a));
        self.sel64(quot, special, ok, Some(dst))?;
        Ok(())
    }

    /// `rcp.{rn,rz,rm,rp}.f64 d, x`: `1 / x` through [`Sel::div_f64`].
    pub(crate) fn rcp_f64(&mut self, d: &InstData, rnd: Rnd) -> R<()> {
        let dst = Self::dst(d)?;
        self.div_f64(dst, &f64imm(ONE), &d.srcs[0].clone(), rnd)
    }

    /// The doubles just below and just above the positive finite `x`: `x ∓ 2^-1074` rounded
    /// down and up (exact neighbours, across binade boundaries too).
    fn f64_neighbours(&mut self, x: Reg) -> R<(Reg, Reg)> {
        let one = self.op32(Opcode::MOV, Mods::new(), vec![u32imm(1)]);
        let tiny = self.pack(r(one), rz());
        let below = self.dop(Opcode::DADD, Some(Rnd::Rm), vec![r(x), neg(r(tiny))]);
        let above = self.dop(Opcode::DADD, Some(Rnd::Rp), vec![r(x), r(tiny)]);
        Ok((below, above))
    }

    /// `dst = sqrt(x)` (f64, rounded by `rnd`), straight-line:
    ///
    /// 1. `±0`, `+∞` and NaNs are `x·1` (a NaN quieted), a negative `x` the invalid-operation
    ///    NaN `∞·0`;
    /// 2. a finite positive `x` is `m·2^(2j)` with `m` in [1, 4) ([`Sel::f64_normalise`], one
    ///    binade more for an odd exponent);
    /// 3. `s ≈ sqrt(m)` from `MUFU.RSQ64H`, two Newton steps on `1/sqrt(m)` and one residual
    ///    correction (within an ulp);
    /// 4. the root rounded down, `d`, by the exact sign of `m - s²` (one DFMA) at `s` and its
    ///    neighbours; up: `d` or the double above it by whether `m - d² = 0`; to nearest: the
    ///    double above `d` iff `m > d·d⁺` (Tuckerman's test, the midpoint's square lies
    ///    strictly between `d·d⁺` and the next multiple of `m`'s ulp);
    /// 5. `·2^j`, exact (a root of a double is a normal number).
    pub(crate) fn sqrt_f64(&mut self, dst: Reg, x: &Operand, rnd: Rnd) -> R<()> {
        use Opcode::*;
        let Operand::Reg(xu) = self.wide_reg(x)? else { return Err("f64 operand".into()) };
        let x = xu.reg;
        // 1. Special operands.
        let inf_hi = self.op32(MOV, Mods::new(), vec![u32imm(0x7ff0_0000)]);
        let inf = self.pack(rz(), r(inf_hi));
        let invalid = self.dop(DMUL, None, vec![r(inf), f64imm(0)]);
        let same = self.dop(DMUL, None, vec![r(x), f64imm(ONE)]);
        let negative = self.dsetp(Cmp::Lt, r(x), f64imm(0), None);
        let special = self.sel64(invalid, same, negative, None)?;
        // 2. x = m·2^(2j).
        let (m1, e) = self.f64_normalise(x)?;
        let eo = self.op32(IADD3, Mods::new(), vec![r(e), u32imm((-1023i32) as u32), rz()]);
        let odd = self.lop3(r(eo), u32imm(1), rz(), 0xc0);
        let is_odd = self.isetp_u32(Cmp::Ne, r(odd), rz());
        let m2 = self.dop(DADD, None, vec![r(m1), r(m1)]);
        let m = self.sel64(m2, m1, is_odd, None)?;
        let ev = self.op32(IADD3, Mods::new(), vec![r(eo), neg(r(odd)), rz()]);
        let sar = super::bits::shf(crate::ori::Dir::R, Ty::S32, true);
        let j = self.op32(SHF, sar, vec![rz(), u32imm(1), r(ev)]);
        // 3. s ≈ sqrt(m).
        let (_, mh) = self.halves(&r(m))?;
        let seed = self.op32(MUFU, Mods { mufu: Some(Mufu::Rsq64h), ..Mods::new() }, vec![mh]);
        let mut y = self.pack(rz(), r(seed));
        let h = self.dop(DMUL, None, vec![r(m), f64imm(0x3fe0_0000_0000_0000)]); // m/2
        for _ in 0..2 {
            let t = self.dop(DMUL, None, vec![r(y), r(y)]);
            let e = self.dop(DFMA, None, vec![neg(r(h)), r(t), f64imm(0x3fe0_0000_0000_0000)]);
            y = self.dop(DFMA, None, vec![r(y), r(e), r(y)]);
        }
        let s0 = self.dop(DMUL, None, vec![r(m), r(y)]);
        let r0 = self.dop(DFMA, None, vec![neg(r(s0)), r(s0), r(m)]);
        let hy = self.dop(DMUL, None, vec![r(y), f64imm(0x3fe0_0000_0000_0000)]);
        let s = self.dop(DFMA, None, vec![r(r0), r(hy), r(s0)]);
        // 4. Rounded down, then up or to nearest.
        let r1 = self.dop(DFMA, None, vec![neg(r(s)), r(s), r(m)]);
        let too_big = self.dsetp(Cmp::Lt, r(r1), f64imm(0), None);
        let (s_below, _) = self.f64_neighbours(s)?;
        let d1 = self.sel64(s_below, s, too_big, None)?;
        let (_, d1_above) = self.f64_neighbours(d1)?;
        let r2 = self.dfma_residual(d1_above, d1_above, m);
        let fits = self.dsetp(Cmp::Ge, r(r2), f64imm(0), None);
        let down = self.sel64(d1_above, d1, fits, None)?;
        let (_, up1) = self.f64_neighbours(down)?;
        let root = match rnd {
            Rnd::Rz | Rnd::Rm => down,
            Rnd::Rp => {
                let r3 = self.dfma_residual(down, down, m);
                let exact = self.dsetp(Cmp::Eq, r(r3), f64imm(0), None);
                self.sel64(down, up1, exact, None)?
            }
            _ => {
                let r4 = self.dfma_residual(down, up1, m);
                let above_mid = self.dsetp(Cmp::Gt, r(r4), f64imm(0), None);
                self.sel64(up1, down, above_mid, None)?
            }
        };
        // 5. ·2^j.
        let p = self.pow2(j, false);
        let scaled = self.dop(DMUL, None, vec![r(root), r(p)]);
        let ok = self.finite_nonzero64(x, None);
        let pos = self.dsetp(Cmp::Gt, r(x), f64imm(0), Some(ok));
        self.sel64(scaled, special, pos, Some(dst))?;
        Ok(())
    }

    /// `rsqrt.approx.f64 d, x` as ptxas computes it: a `MUFU.RSQ64H` seed (low word 0) and one
    /// correction `y + (1 - x·y²)·(3/8·(1 - x·y²) + 1/2)·y`, for x with a biased exponent in
    /// [1, 2046]; ptxas's out-of-line path for the rest, here selected instead of branched
    /// to: a positive subnormal is scaled by 2^54 and its result by 2^27, ±0 gives ±∞, a NaN
    /// `x + x`, a negative x the NaN `0xfff80000_00000000`, +∞ gives +0.
    pub(crate) fn rsqrt_approx_f64(&mut self, dst: Reg, x: &Operand) -> R<()> {
        use Opcode::*;
        let Operand::Reg(xu) = self.wide_reg(x)? else { return Err("f64 operand".into()) };
        let x = xu.reg;
        let (_, xh) = self.halves(&r(x))?;
        let xs = self.dop(DMUL, None, vec![r(x), f64imm(0x4350_0000_0000_0000)]); // 2^54
        let fast = self.rsqrt_step(x)?;
        let sub = self.rsqrt_step(xs)?;
        let sub = self.dop(DMUL, None, vec![r(sub), f64imm(0x41a0_0000_0000_0000)]); // 2^27
        // Special operands.
        let sgn = self.lop3(xh.clone(), u32imm(0x8000_0000), rz(), 0xc0);
        let inf_hi = self.lop3(r(sgn), u32imm(0x7ff0_0000), rz(), 0xfc);
        let zero_res = self.pack(rz(), r(inf_hi));
        let nan_res = self.dop(DADD, None, vec![r(x), r(x)]);
        let neg_hi = self.op32(MOV, Mods::new(), vec![u32imm(0xfff8_0000)]);
        let neg_res = self.pack(rz(), r(neg_hi));
        let pos_zero = self.pack(rz(), rz());
        let is_zero = self.dsetp(Cmp::Eq, r(x), f64imm(0), None);
        let is_nan = self.dsetp(Cmp::Nan, r(x), r(x), None);
        let is_neg = self.isetp_u32(Cmp::Ne, r(sgn), rz());
        let is_pos = self.dsetp(Cmp::Gt, r(x), f64imm(0), None);
        let is_sub = self.dsetp(Cmp::Lt, r(x), f64imm(0x0010_0000_0000_0000), Some(is_pos));
        // Innermost choice last: +inf, then negative, NaN, zero, subnormal, in range.
        let t1 = self.sel64(neg_res, pos_zero, is_neg, None)?;
        let t2 = self.sel64(nan_res, t1, is_nan, None)?;
        let t3 = self.sel64(zero_res, t2, is_zero, None)?;
        let t4 = self.sel64(sub, t3, is_sub, None)?;
        let biased = self.op32(IADD3, Mods::new(), vec![xh, u32imm((-0x0010_0000i32) as u32), rz()]);
        let in_range = self.isetp_u32(Cmp::Lo, r(biased), u32imm(0x7fe0_0000));
        self.sel64(fast, t4, in_range, Some(dst))?;
        Ok(())
    }

    /// ptxas's `rsqrt.approx.f64` fast path on `x`.
    fn rsqrt_step(&mut self, x: Reg) -> R<Reg> {
        use Opcode::*;
        let (_, xh) = self.halves(&r(x))?;
        let seed = self.op32(MUFU, Mods { mufu: Some(Mufu::Rsq64h), ..Mods::new() }, vec![xh]);
        let y = self.pack(rz(), r(seed));
        let t = self.dop(DMUL, None, vec![r(y), r(y)]);
        let e = self.dop(DFMA, None, vec![r(x), neg(r(t)), f64imm(ONE)]);
        let c = self.dop(DFMA, None, vec![r(e), f64imm(0x3fd8_0000_0000_0000), f64imm(0x3fe0_0000_0000_0000)]);
        let w = self.dop(DMUL, None, vec![r(y), r(e)]);
        Ok(self.dop(DFMA, None, vec![r(c), r(w), r(y)]))
    }

    /// `m - a·b`, rounded once (its sign is exact).
    fn dfma_residual(&mut self, a: Reg, b: Reg, m: Reg) -> Reg {
        self.dop(Opcode::DFMA, None, vec![neg(r(a)), r(b), r(m)])
    }
}
