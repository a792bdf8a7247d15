//! Float arithmetic: f32 `FADD/FMUL/FFMA/FMNMX/FSETP`, f64 `DADD/DMUL/DFMA/DSETP`, the MUFU
//! special functions, and approximate division.
//!
//! - `sub a, b` is `FADD a, -b`; `abs`/`neg` are `FADD |a|, -0` / `FADD -a, -0` (as ptxas
//!   selects them; a NaN comes out canonical), f64 likewise with `DADD`.
//! - Rounding, `.ftz` and `.sat` carry over as modifiers; `min/max.NaN` is `FMNMX.NAN`
//!   (`HMNMX2.NAN` for the half types), as ptxas selects it; `min/max.xorsign.abs` is
//!   `.XORSIGN` with `|a|`, `|b|`.
//! - FADD/FMUL/FFMA read their first source from a register: a commutative operation swaps an
//!   immediate first source with the second.
//! - `rcp/sqrt/rsqrt/ex2/lg2/sin/cos/tanh.approx.f32` → `MUFU.RCP/SQRT/RSQ/EX2/LG2/SIN/COS/
//!   TANH`. The `.ftz`-less forms keep ptxas's subnormal wrappers where the result is the same
//!   number in exact arithmetic (`rsqrt`: scale by 2^24 and the result by 2^12; `sqrt`
//!   likewise; `rcp`: scale by 2^24 or, for |x| > 2^126, 1/4, operand and result; `ex2`: below -126
//!   the square of `ex2(x/2)`, which keeps subnormal results, rounding them twice); `lg2`
//!   is emitted bare (ptxas's `-24` wrapper changes the rounding of the model's correctly
//!   rounded MUFU). `sin`/`cos`: Ori's `MUFU.SIN/COS` take
//!   radians (see `ori::semantics`), so no `1/2π` pre-scale is emitted; emitting real SASS
//!   needs that scale (`FMUL.RZ x, 0.15915494`) — noted for the emitter.
//! - `tanh/ex2.approx.{f16,f16x2}` → `MUFU.TANH.F16`/`MUFU.EX2.F16` per half, joined with
//!   `PRMT` (see `Sel::sel_mufu_f16`).
//! - `rcp.approx.ftz.f64` → `MUFU.RCP64H` of the high word, the low word 0 (as ptxas).
//! - `div.approx.f32`/`div.full.f32` → `MUFU.RCP` + `FMUL`, with ptxas's guards (selected
//!   with FSEL): `.full` scales both operands by 2^-2 when |divisor| > 2^126; without `.ftz`
//!   a subnormal divisor scales both operands by 2^24; the result is approximate,
//!   so checks compare it with a tolerance.
//! - IEEE `div.{rn,rz,rm,rp}.f32`, `rcp.*.f32` and `sqrt.*.f32` are selected without
//!   ptxas's slow-path subroutine (`__cuda_sm3x_div_rn_noftz_f32_slowpath`, called with
//!   `CALL.REL.NOINC` after an FCHK-guarded FFMA fast path): the result is computed in f64
//!   from a MUFU seed of the operand scaled into [2^-100, 2^100] (two Newton steps, then
//!   Markstein's correction, which makes the f64 quotient / root correctly rounded), and
//!   rounded to f32 in the requested mode. That is the correctly rounded f32 result in every
//!   mode, subnormal results included: f64 has more than 2·24 + 2 bits (double rounding to
//!   nearest is innocuous), and a quotient or root of f32 values that is not itself an f32
//!   value lies farther than half an f64 ulp from every f32 value (so directed modes see
//!   the right side); the property tests check all four modes bit-exactly. Zeros, infinities and NaNs take `a * MUFU.RCP(b)` / `MUFU.SQRT(a)`,
//!   which are exact for them. Straight-line (no call, no branch), so it predicates like any
//!   other sequence. `div.rn.f64` and `rcp.rn.f64` are the module `f64_div`'s. Not yet: the
//!   `.ftz` forms, and f64 division / reciprocal in the directed modes and every f64 square
//!   root (ptxas: `MUFU.RCP64H`/`RSQ64H` seeds plus subroutines such as
//!   `__cuda_sm20_div_rz_f64_v2`).

use super::bits::lut3;
use super::{R, Sel, neg, not_pt, pt, pt_reg, r};
use crate::ori::{BoolOp, Cmp, Flag, Imm, InstData, Mods, Mufu, Opcode, Operand, Reg, RegClass, RegUse, Rnd, Ty};

/// An f32 immediate.
fn f32imm(bits: u32) -> Operand {
    Operand::Imm(Imm::F32(bits))
}

/// An f64 immediate.
fn f64imm(bits: u64) -> Operand {
    Operand::Imm(Imm::F64(bits))
}

/// `|x|` of a register operand.
fn fabs(x: &Operand) -> Operand {
    match x {
        Operand::Reg(u) => Operand::Reg(RegUse { abs: true, neg: false, ..*u }),
        o => o.clone(),
    }
}

/// `-0` as an f32 / f64 immediate.
fn neg_zero(t: Ty) -> Operand {
    if t == Ty::F64 { Operand::Imm(Imm::F64(1 << 63)) } else { Operand::Imm(Imm::F32(0x8000_0000)) }
}

/// A float operand negated (register: `-x`; immediate: sign flipped).
fn fneg(o: Operand, t: Ty) -> Operand {
    match o {
        Operand::Imm(Imm::F32(b)) => Operand::Imm(Imm::F32(b ^ 0x8000_0000)),
        Operand::Imm(Imm::F64(b)) => Operand::Imm(Imm::F64(b ^ (1 << 63))),
        Operand::Imm(Imm::Int(v)) if t == Ty::F64 => Operand::Imm(Imm::F64(v as u64 ^ (1 << 63))),
        Operand::Imm(Imm::Int(v)) => Operand::Imm(Imm::F32(v as u32 ^ 0x8000_0000)),
        o => neg(o),
    }
}

/// Float modifiers kept from a PTX instruction.
fn fmods(d: &InstData, allow_sat: bool) -> Mods {
    let mut m = Mods { rnd: d.mods.rnd, ..Mods::new() };
    for f in &d.mods.flags {
        match f {
            Flag::Ftz => m.flags.push(Flag::Ftz),
            Flag::Sat if allow_sat => m.flags.push(Flag::Sat),
            _ => {}
        }
    }
    m
}

/// The modifiers of `FMNMX` (`ty: None`) or `HMNMX2` (typed `ty`) for a PTX `min`/`max`:
/// `.ftz`, and `.NaN` as the SASS `.NAN` that ptxas selects for it (`min.NaN.f32` is
/// `FMNMX.NAN`, `max.NaN.bf16x2` is `HMNMX2.BF16_V2.NAN`, ptxas 13.0 on sm_90).
/// `.xorsign` (`min/max.xorsign.abs`) is `.XORSIGN` with both sources read as `|x|`
/// ([`Sel::xorsign_srcs`]).
fn minmax_mods(ptx: &Mods, ty: Option<Ty>) -> Mods {
    let flags = [Flag::Ftz, Flag::NaN, Flag::Xorsign].into_iter().filter(|f| ptx.has(*f)).collect();
    Mods { ty, flags, ..Mods::new() }
}

impl Sel<'_> {
    /// The sources of a `.XORSIGN` min/max, as ptxas selects them: `|a|`, `|b|`, where an
    /// immediate b stays an immediate when its sign bit is clear (its own magnitude) and goes
    /// to a register otherwise (`FMNMX.XORSIGN R0, |R2|, |R0|` after `MOV R0, 0xc0490fdb`).
    /// `sign`: the immediate's sign bit(s) (both halves' for the packed types).
    fn xorsign_srcs(&mut self, a: Operand, b: Operand, sign: u64) -> R<(Operand, Operand)> {
        let abs = |o: Operand| match o {
            Operand::Reg(u) => Ok(Operand::Reg(RegUse { abs: true, ..u })),
            o => Err(format!("`.XORSIGN` source {o:?} is not a register")),
        };
        let a = abs(self.reg_src(&a)?)?;
        let b = match b {
            Operand::Imm(i) if i.bits() & sign == 0 => Operand::Imm(i),
            b => abs(self.reg_src(&b)?)?,
        };
        Ok((a, b))
    }

    /// A float source as its data operand (f64 sources stay 64-bit).
    fn fsrc(&mut self, o: &Operand, t: Ty) -> R<Operand> {
        if t == Ty::F64 {
            return match o {
                Operand::Imm(_) => Ok(o.clone()),
                // A negated or absolute f64 (a contracted `fma`'s `-c`): the modifiers stay
                // on the 64-bit register read.
                Operand::Reg(u) if (u.neg || u.abs) && !u.not => {
                    let plain = Operand::Reg(RegUse { neg: false, abs: false, ..*u });
                    match self.wide_reg(&plain)? {
                        Operand::Reg(w) => Ok(Operand::Reg(RegUse { neg: u.neg, abs: u.abs, ..w })),
                        w => Ok(w),
                    }
                }
                _ => self.wide_reg(o),
            };
        }
        self.src(o)
    }

    /// A float source that must be a register.
    fn freg(&mut self, o: &Operand, t: Ty) -> R<Operand> {
        if t == Ty::F64 {
            return self.wide_reg(o);
        }
        self.reg_src(o)
    }

    pub(crate) fn sel_float(&mut self, d: &InstData) -> R<()> {
        use Opcode::*;
        let t = d.ty().ok_or("no type")?;
        if t != Ty::F32 && t != Ty::F64 {
            return self.sel_half(d, t);
        }
        if d.mods.has(Flag::Relu) {
            return Err("`.relu` is not selected yet".into());
        }
        let dst = Self::dst(d)?;
        if d.opcode == Copysign {
            return self.sel_copysign(d, dst, t);
        }
        let s = &d.srcs;
        let dbl = t == Ty::F64;
        let (add, mul, fma) = if dbl { (DADD, DMUL, DFMA) } else { (FADD, FMUL, FFMA) };
        if dbl && (d.mods.has(Flag::Sat) || d.mods.has(Flag::Ftz)) {
            return Err("f64 with `.sat`/`.ftz`".into());
        }
        let m = fmods(d, true);
        match d.opcode {
            Add | Sub | Mul => {
                let a = self.fsrc(&s[0], t)?;
                let mut b = self.fsrc(&s[1], t)?;
                if d.opcode == Sub {
                    if let Operand::CBank(_) = b {
                        b = self.freg(&b, t)?;
                    }
                    b = fneg(b, t);
                }
                let op = if d.opcode == Mul { mul } else { add };
                let (a, b) = self.commuted(a, b, t)?;
                self.emit(op, m, vec![dst], vec![a, b]);
            }
            Fma | Mad => {
                let a = self.fsrc(&s[0], t)?;
                let b = self.fsrc(&s[1], t)?;
                let c = self.fsrc(&s[2], t)?;
                let (a, b) = self.commuted(a, b, t)?;
                self.emit(fma, m, vec![dst], vec![a, b, c]);
            }
            Abs | Neg => {
                let a = self.freg(&s[0], t)?;
                let a = match (d.opcode, a) {
                    (Abs, Operand::Reg(u)) => Operand::Reg(crate::ori::RegUse { abs: true, ..u }),
                    (_, a) => neg(a),
                };
                let m = Mods { flags: if d.mods.has(Flag::Ftz) { vec![Flag::Ftz] } else { vec![] }, ..Mods::new() };
                self.emit(add, m, vec![dst], vec![a, neg_zero(t)]);
            }
            Min | Max if !dbl => {
                let a = self.freg(&s[0], t)?;
                let b = self.fsrc(&s[1], t)?;
                let (a, b) = if d.mods.has(Flag::Xorsign) { self.xorsign_srcs(a, b, 1 << 31)? } else { (a, b) };
                let p = if d.opcode == Min { pt() } else { not_pt() };
                self.emit(FMNMX, minmax_mods(&d.mods, None), vec![dst], vec![a, b, p]);
            }
            Min | Max => return self.sel_minmax_f64(d, dst),
            op => return Err(format!("`{op}.{t}` is not selected yet")),
        }
        Ok(())
    }

    /// The SASS (A, B) slots of a commutative float operation's PTX operands `a`, `b`: A takes
    /// a register. f64: PTX `a` goes to slot B where it can, because with two NaN operands
    /// DADD/DMUL/DFMA keep the NaN of slot B, then C, then A (measured on an H200, the golden of
    /// f64_round_modes, where ptxas put `a` in B) and the interpreter gives PTX `a`'s, then
    /// `c`'s, then `b`'s (`ori::float`). f32 results are the canonical NaN either way.
    fn commuted(&mut self, a: Operand, b: Operand, t: Ty) -> R<(Operand, Operand)> {
        Ok(match (&a, &b) {
            (_, Operand::Reg(_)) if t == Ty::F64 => (b, a),
            (Operand::Reg(_), _) => (a, b),
            (_, Operand::Reg(_)) => (b, a),
            _ => (self.freg(&a, t)?, b),
        })
    }

    /// `setp` on floats: `FSETP`/`DSETP`.
    pub(crate) fn sel_fsetp(&mut self, d: &InstData, dst: Reg, c: Cmp, t: Ty) -> R<()> {
        if t != Ty::F32 && t != Ty::F64 {
            // f16/bf16 scalars (the lowering compares packed halves one by one).
            if matches!(t, Ty::F16x2 | Ty::BF16x2) {
                return Err(format!("`setp.{c}.{t}`: packed halves are compared one by one by the lowering"));
            }
            let st = if t == Ty::BF16 { Ty::BF16 } else { Ty::F16 };
            let a = self.reg_src(&d.srcs[0])?;
            let b = self.src(&d.srcs[1])?;
            let mut m = Mods { cmp: Some(c), ty: Some(st), bop: Some(BoolOp::And), ..Mods::new() };
            if d.mods.has(Flag::Ftz) {
                m.flags.push(Flag::Ftz);
            }
            self.emit(Opcode::HSETP2, m, vec![dst, pt_reg()], vec![a, b, pt()]);
            return Ok(());
        }
        let s = &d.srcs;
        let a = self.fsrc(&s[0], t)?;
        let b = self.fsrc(&s[1], t)?;
        let (a, b, c) = match (&a, &b) {
            (Operand::Reg(_), _) => (a, b, c),
            (_, Operand::Reg(_)) => (b, a, super::arith::swap_cmp(c)),
            _ => (self.freg(&a, t)?, b, c),
        };
        let mut m = Mods { cmp: Some(c), bop: Some(BoolOp::And), ..Mods::new() };
        if d.mods.has(Flag::Ftz) {
            if t == Ty::F64 {
                return Err("setp.ftz.f64".into());
            }
            m.flags.push(Flag::Ftz);
        }
        let op = if t == Ty::F64 { Opcode::DSETP } else { Opcode::FSETP };
        self.emit(op, m, vec![dst, pt_reg()], vec![a, b, pt()]);
        Ok(())
    }

    /// `testp.class.{f32,f64}` as ptxas selects it: integer compares of the magnitude
    /// `|a|` (the sign bit cleared with LOP3) against the class bounds — infinity's bits and,
    /// for `.normal`/`.subnormal`, the smallest normal's — unsigned, 64-bit ones as
    /// `ISETP.U32` on the low words then `ISETP.U32.EX` on the high words; two bounds are
    /// combined with PLOP3. PTX counts ±0 as normal.
    fn sel_testp(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        use crate::ori::SubOp;
        let class = d.mods.sub.ok_or("testp without a class")?;
        let wide = match t {
            Ty::F32 => false,
            Ty::F64 => true,
            _ => return Err(format!("`testp.{t}` is not selected yet")),
        };
        // The magnitude as (low word, high word); f32 has no low word.
        let (lo, hi) = if wide { self.halves(&d.srcs[0])? } else { (super::rz(), self.src(&d.srcs[0])?) };
        let lo = self.reg_src(&lo)?;
        let m = self.t32();
        self.emit(
            Opcode::LOP3,
            Mods::new(),
            vec![m.into()],
            vec![hi, super::imm(0x7fff_ffff), super::rz(), super::imm(0xc0)],
        );
        // Bounds on the high word (the low word of both bounds is 0 for f64).
        let (inf, min_normal) = if wide { (0x7ff0_0000, 0x0010_0000) } else { (0x7f80_0000, 0x0080_0000) };
        let cmp = |s: &mut Self, c: Cmp, bound: i64| -> R<Reg> {
            let p = s.tp();
            if wide {
                let low = s.tp();
                s.isetp(low.into(), c, Ty::U32, lo.clone(), super::rz());
                let mx = Mods { cmp: Some(c), ty: Some(Ty::U32), bop: Some(BoolOp::And), ..Mods::new() };
                s.emit(Opcode::ISETPX, mx, vec![p.into(), pt_reg()], vec![r(m), super::imm(bound), pt(), r(low)]);
            } else {
                s.isetp(p.into(), c, Ty::U32, r(m), super::imm(bound));
            }
            Ok(p.into())
        };
        let (a, b, c, lut): (Reg, Option<Reg>, Option<Reg>, i64) = match class {
            SubOp::Finite => (cmp(self, Cmp::Lt, inf)?, None, None, lut3(|a, _, _| a)),
            SubOp::Infinite => (cmp(self, Cmp::Eq, inf)?, None, None, lut3(|a, _, _| a)),
            SubOp::Number => (cmp(self, Cmp::Le, inf)?, None, None, lut3(|a, _, _| a)),
            SubOp::NotANumber => (cmp(self, Cmp::Gt, inf)?, None, None, lut3(|a, _, _| a)),
            SubOp::Normal => {
                let below_inf = cmp(self, Cmp::Lt, inf)?;
                let normal_exp = cmp(self, Cmp::Ge, min_normal)?;
                let zero = cmp(self, Cmp::Eq, 0)?;
                (below_inf, Some(normal_exp), Some(zero), lut3(|a, b, c| a && (b || c)))
            }
            SubOp::Subnormal => {
                let below_min = cmp(self, Cmp::Lt, min_normal)?;
                let nonzero = cmp(self, Cmp::Ne, 0)?;
                (below_min, Some(nonzero), None, lut3(|a, b, _| a && b))
            }
            other => return Err(format!("`testp.{other}` is not selected yet")),
        };
        let src = |p: Option<Reg>| p.map_or(pt(), r);
        self.emit(
            Opcode::PLOP3,
            Mods::new(),
            vec![dst, pt_reg()],
            vec![r(a), src(b), src(c), super::imm(lut), super::imm(0)],
        );
        Ok(())
    }

    /// `rcp sqrt rsqrt ex2 lg2 sin cos tanh` (approximate f32 forms) and `testp`.
    pub(crate) fn sel_float_fn(&mut self, d: &InstData) -> R<()> {
        use Opcode::*;
        let t = d.ty().ok_or("no type")?;
        let dst = Self::dst(d)?;
        if d.opcode == Testp {
            return self.sel_testp(d, dst, t);
        }
        if matches!(t, Ty::F16 | Ty::F16x2) && matches!(d.opcode, Tanh | Ex2) && d.mods.has(Flag::Approx) {
            return self.sel_mufu_f16(d, dst, t);
        }
        if t == Ty::F64 && d.opcode == Rcp && d.mods.has(Flag::Approx) && d.mods.has(Flag::Ftz) {
            // `rcp.approx.ftz.f64`: ptxas's `MUFU.RCP64H` of the high word, low word 0.
            let (_, hi) = self.halves(&d.srcs[0])?;
            let hi = self.reg_src(&hi)?;
            let h = self.t32();
            self.emit(MUFU, Mods { mufu: Some(Mufu::Rcp64h), ..Mods::new() }, vec![h.into()], vec![hi]);
            self.pack_into(dst, super::rz(), r(h));
            return Ok(());
        }
        if t == Ty::F64 && d.opcode == Rsqrt && d.mods.has(Flag::Approx) {
            return self.rsqrt_approx_f64(dst, &d.srcs[0].clone());
        }
        if let (Ty::F64, Some(rnd), false) = (t, d.mods.rnd, d.mods.has(Flag::Approx)) {
            match d.opcode {
                Rcp => return self.rcp_f64(d, rnd),
                Sqrt => return self.sqrt_f64(dst, &d.srcs[0].clone(), rnd),
                _ => {}
            }
        }
        if t != Ty::F32 {
            return Err(format!("`{}.{t}` is not selected yet", d.opcode));
        }
        let exact = d.mods.rnd.is_some() && !d.mods.has(Flag::Approx);
        if exact {
            let rnd = d.mods.rnd.unwrap_or(Rnd::Rn);
            if d.mods.has(Flag::Ftz) {
                return Err(format!("IEEE `{}.ftz.f32` is not selected yet", d.opcode));
            }
            return match d.opcode {
                Rcp => self.div_rn_f32(dst, f32imm(0x3f80_0000), d.srcs[0].clone(), rnd),
                Sqrt => self.sqrt_rn_f32(dst, d.srcs[0].clone(), rnd),
                op => Err(format!("IEEE `{op}.f32` is not selected yet")),
            };
        }
        let ftz = d.mods.has(Flag::Ftz);
        let func = match d.opcode {
            Rcp => Mufu::Rcp,
            Sqrt => Mufu::Sqrt,
            Rsqrt => Mufu::Rsq,
            Ex2 => Mufu::Ex2,
            Lg2 => Mufu::Lg2,
            Sin => Mufu::Sin,
            Cos => Mufu::Cos,
            Tanh => Mufu::Tanh,
            op => return Err(format!("`{op}.f32` is not selected yet")),
        };
        let a = self.src(&d.srcs[0])?;
        let m = Mods { mufu: Some(func), flags: if ftz { vec![Flag::Ftz] } else { vec![] }, ..Mods::new() };
        if matches!(func, Mufu::Sin | Mufu::Cos) {
            // SASS MUFU.SIN/COS take revolutions: ptxas scales by 1/(2π) rounding toward zero
            // first (`FMUL.RZ R, R, 0.15915494`), and emits the MUFU without `.FTZ` (the unit
            // flushes anyway), also for `.ftz`.
            let a = self.reg_src(&a)?;
            let rev = self.t32();
            let rz_mods = Mods { rnd: Some(Rnd::Rz), ..Mods::new() };
            self.emit(FMUL, rz_mods, vec![rev.into()], vec![a, Operand::Imm(Imm::F32(0x3e22_f983))]);
            self.emit(MUFU, Mods { mufu: Some(func), ..Mods::new() }, vec![dst], vec![r(rev)]);
            return Ok(());
        }
        if !ftz && func == Mufu::Ex2 {
            return self.ex2_approx_subnormal(dst, a, m);
        }
        let scale = !ftz && matches!(func, Mufu::Rsq | Mufu::Rcp | Mufu::Sqrt);
        if !scale {
            self.emit(MUFU, m, vec![dst], vec![a]);
            return Ok(());
        }
        let a = self.reg_src(&a)?;
        if func == Mufu::Rcp {
            return self.rcp_approx_scaled(dst, a, m);
        }
        // ptxas's subnormal wrapper: p = |x| >= 2^-126; if !p, x *= 2^24 and the result is
        // rescaled (rsqrt: *2^12, sqrt: *2^-12). Done with FSEL, not predication.
        let (p, xs, x, y) = (self.tp(), self.t32(), self.t32(), self.t32());
        let abs = match a.clone() {
            Operand::Reg(u) => Operand::Reg(crate::ori::RegUse { abs: true, ..u }),
            o => o,
        };
        let fm = Mods { cmp: Some(Cmp::Geu), bop: Some(BoolOp::And), ..Mods::new() };
        self.emit(FSETP, fm, vec![p.into(), pt_reg()], vec![abs, Operand::Imm(Imm::F32(0x0080_0000)), pt()]);
        self.emit(FMUL, Mods::new(), vec![xs.into()], vec![a.clone(), Operand::Imm(Imm::F32(0x4B80_0000))]);
        self.emit(FSEL, Mods::new(), vec![x.into()], vec![a, r(xs), r(p)]);
        self.emit(MUFU, m, vec![y.into()], vec![r(x)]);
        let k = match func {
            Mufu::Rsq => 0x4580_0000, // 2^12
            _ => 0x3980_0000,         // 2^-12
        };
        let ys = self.t32();
        self.emit(FMUL, Mods::new(), vec![ys.into()], vec![r(y), Operand::Imm(Imm::F32(k))]);
        self.emit(FSEL, Mods::new(), vec![dst], vec![r(y), r(ys), r(p)]);
        Ok(())
    }

    /// `tanh.approx` / `ex2.approx` of `f16` and `f16x2`: `MUFU.{TANH,EX2}.F16` per half (the
    /// unit reads the low half and writes the result zero-extended). A pair's high half is
    /// moved down first (`SHF.R.U32.HI`; ptxas reads it in place with the `.H1` selector) and
    /// the halves are joined with `PRMT 0x5410`, as ptxas joins them. `.ftz` changes nothing
    /// for these (f16 results are not flushed).
    fn sel_mufu_f16(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let func = if d.opcode == Opcode::Tanh { Mufu::Tanh } else { Mufu::Ex2 };
        let m = Mods { mufu: Some(func), ty: Some(Ty::F16), ..Mods::new() };
        let a = self.reg_src(&d.srcs[0])?;
        if t == Ty::F16 {
            self.emit(Opcode::MUFU, m, vec![dst], vec![a]);
            return Ok(());
        }
        let (hi, lo, rh) = (self.t32(), self.t32(), self.t32());
        let sh = Mods { dir: Some(crate::ori::Dir::R), ty: Some(Ty::U32), flags: vec![Flag::HiWord], ..Mods::new() };
        self.emit(Opcode::SHF, sh, vec![hi.into()], vec![super::rz(), super::imm(16), a.clone()]);
        self.emit(Opcode::MUFU, m.clone(), vec![lo.into()], vec![a]);
        self.emit(Opcode::MUFU, m, vec![rh.into()], vec![r(hi)]);
        self.emit(Opcode::PRMT, Mods::new(), vec![dst], vec![r(lo), super::imm(0x5410), r(rh)]);
        Ok(())
    }

    /// `ex2.approx.f32` without `.ftz`, as ptxas selects it: the unit flushes subnormal
    /// results, so for `x < -126` it computes `ex2(x / 2)` (a normal number down to
    /// `x = -252`) and squares it with an `FMUL` that keeps the subnormal result
    /// (`FSETP.GEU p, x, -126`, then FSEL instead of ptxas's predication). The square rounds
    /// twice, so such results may differ from the correctly rounded one by an ulp.
    fn ex2_approx_subnormal(&mut self, dst: Reg, a: Operand, m: Mods) -> R<()> {
        use Opcode::*;
        let a = self.reg_src(&a)?;
        let (p, xs, x, y, ys) = (self.tp(), self.t32(), self.t32(), self.t32(), self.t32());
        let fm = Mods { cmp: Some(Cmp::Geu), bop: Some(BoolOp::And), ..Mods::new() };
        self.emit(FSETP, fm, vec![p.into(), pt_reg()], vec![a.clone(), f32imm(0xc2fc_0000), pt()]);
        self.emit(FMUL, Mods::new(), vec![xs.into()], vec![a.clone(), f32imm(0x3f00_0000)]);
        self.emit(FSEL, Mods::new(), vec![x.into()], vec![a, r(xs), r(p)]);
        self.emit(MUFU, m, vec![y.into()], vec![r(x)]);
        self.emit(FMUL, Mods::new(), vec![ys.into()], vec![r(y), r(y)]);
        self.emit(FSEL, Mods::new(), vec![dst], vec![r(y), r(ys), r(p)]);
        Ok(())
    }

    /// `rcp.approx.f32` without `.ftz`, as ptxas selects it: a scale `s` (2^24 for
    /// |x| < 2^-126, 1/4 for |x| > 2^126, else 1) and `s * MUFU.RCP(x * s)`, so neither the
    /// unit's input nor its result is subnormal (MUFU flushes both); the final FMUL makes the
    /// subnormal reciprocals of huge operands.
    fn rcp_approx_scaled(&mut self, dst: Reg, a: Operand, m: Mods) -> R<()> {
        use Opcode::*;
        // 2^-126 → 2^24, 2^126 → 1/4.
        let (_, _, s) = self.range_scale(&a, (0x0080_0000, 0x4b80_0000), (0x7e80_0000, 0x3e80_0000));
        let (xs, y) = (self.t32(), self.t32());
        self.emit(FMUL, Mods::new(), vec![xs.into()], vec![a, r(s)]);
        self.emit(MUFU, m, vec![y.into()], vec![r(xs)]);
        self.emit(FMUL, Mods::new(), vec![dst], vec![r(s), r(y)]);
        Ok(())
    }

    /// `div.approx.f32` / `div.full.f32`: `MUFU.RCP` + `FMUL`. As ptxas: `.full` scales both
    /// operands by 2^-2 when |b| > 2^126 (so the reciprocal stays normal; `.approx` gives 0
    /// there), and without `.ftz` a subnormal divisor scales both by 2^24.
    pub(crate) fn sel_fdiv(&mut self, d: &InstData, t: Ty) -> R<()> {
        let dst = Self::dst(d)?;
        if t == Ty::F32 && d.mods.rnd.is_some() && !d.mods.has(Flag::Ftz) {
            return self.div_rn_f32(dst, d.srcs[0].clone(), d.srcs[1].clone(), d.mods.rnd.unwrap_or(Rnd::Rn));
        }
        if let (Ty::F64, Some(rnd)) = (t, d.mods.rnd) {
            return self.div_f64(dst, &d.srcs[0], &d.srcs[1], rnd);
        }
        if t != Ty::F32 || d.mods.rnd.is_some() {
            return Err(format!(
                "IEEE `div.{}.{t}` needs ptxas's slow-path subroutine (CALL.REL.NOINC), not selected yet",
                d.mods.rnd.map_or("", |r| r.name())
            ));
        }
        let mut a = self.reg_src(&d.srcs[0])?;
        let mut b = self.reg_src(&d.srcs[1])?;
        let ftz = if d.mods.has(Flag::Ftz) { vec![Flag::Ftz] } else { vec![] };
        if d.mods.has(Flag::Full) {
            // ptxas's full-range guard: a divisor above 2^126 (whose reciprocal MUFU.RCP
            // would flush) scales both operands by 2^-2 first.
            let p = self.tp();
            let m = Mods { cmp: Some(Cmp::Gt), bop: Some(BoolOp::And), flags: ftz.clone(), ..Mods::new() };
            self.emit(Opcode::FSETP, m, vec![p.into(), pt_reg()], vec![fabs(&b), f32imm(0x7e80_0000), pt()]);
            let (as_, bs) = (self.t32(), self.t32());
            let fm = Mods { flags: ftz.clone(), ..Mods::new() };
            self.emit(Opcode::FMUL, fm.clone(), vec![as_.into()], vec![a.clone(), f32imm(0x3e80_0000)]);
            self.emit(Opcode::FMUL, fm, vec![bs.into()], vec![b.clone(), f32imm(0x3e80_0000)]);
            a = r(self.fsel(r(as_), a, p.into()));
            b = r(self.fsel(r(bs), b, p.into()));
        }
        if ftz.is_empty() {
            // ptxas's guard: a subnormal divisor scales both operands by 2^24 first.
            let p = self.tp();
            self.fsetp(p.into(), Cmp::Geu, fabs(&b), f32imm(0x0080_0000), None);
            let (as_, bs) = (self.t32(), self.t32());
            self.emit(Opcode::FMUL, Mods::new(), vec![as_.into()], vec![a.clone(), f32imm(0x4b80_0000)]);
            self.emit(Opcode::FMUL, Mods::new(), vec![bs.into()], vec![b.clone(), f32imm(0x4b80_0000)]);
            a = r(self.fsel(a, r(as_), p.into()));
            b = r(self.fsel(b, r(bs), p.into()));
        }
        let rc = self.t32();
        let m = Mods { mufu: Some(Mufu::Rcp), flags: ftz.clone(), ..Mods::new() };
        self.emit(Opcode::MUFU, m, vec![rc.into()], vec![b]);
        self.emit(Opcode::FMUL, Mods { flags: ftz, ..Mods::new() }, vec![dst], vec![a, r(rc)]);
        Ok(())
    }

    /// `FSETP.cmp.AND p, PT, a, b, q` (q = PT when None).
    fn fsetp(&mut self, p: Reg, c: Cmp, a: Operand, b: Operand, q: Option<Reg>) {
        let m = Mods { cmp: Some(c), bop: Some(BoolOp::And), ..Mods::new() };
        let q = q.map_or_else(pt, r);
        self.emit(Opcode::FSETP, m, vec![p, pt_reg()], vec![a, b, q]);
    }

    /// f32 → f64 (exact).
    fn widen_f64(&mut self, a: Operand) -> Reg {
        let d = self.vreg(RegClass::R64);
        let m = Mods { ty: Some(Ty::F64), src_ty: Some(Ty::F32), ..Mods::new() };
        self.emit(Opcode::F2F, m, vec![d.into()], vec![a]);
        d.into()
    }

    /// `p = x is finite and nonzero && q`.
    fn finite_nonzero(&mut self, x: &Operand, q: Option<Reg>) -> Reg {
        let (p1, p2) = (self.tp(), self.tp());
        self.fsetp(p1.into(), Cmp::Gt, fabs(x), f32imm(0), q);
        self.fsetp(p2.into(), Cmp::Lt, fabs(x), f32imm(0x7f80_0000), Some(p1.into()));
        p2.into()
    }

    /// `d = p ? a : b` on f32 values (a moved into a register where needed).
    fn fsel(&mut self, a: Operand, b: Operand, p: Reg) -> Reg {
        let a = match a {
            Operand::Reg(_) => a,
            o => {
                let t = self.t32();
                self.emit(Opcode::MOV, Mods::new(), vec![t.into()], vec![o]);
                r(t)
            }
        };
        let d = self.t32();
        self.emit(Opcode::FSEL, Mods::new(), vec![d.into()], vec![a, b, r(p)]);
        d.into()
    }

    /// The predicates `tiny` (|x| < `lo`) and `huge` (|x| > `hi`; both false for a NaN) and the
    /// f32 scale `s`: `s_lo` when tiny, `s_hi` when huge, else 1 (bounds and scales are f32 bits).
    fn range_scale(&mut self, x: &Operand, (lo, s_lo): (u32, u32), (hi, s_hi): (u32, u32)) -> (Reg, Reg, Reg) {
        let (tiny, huge) = (self.tp(), self.tp());
        self.fsetp(tiny.into(), Cmp::Lt, fabs(x), f32imm(lo), None);
        self.fsetp(huge.into(), Cmp::Gt, fabs(x), f32imm(hi), None);
        let s1 = self.fsel(f32imm(s_hi), f32imm(0x3f80_0000), huge.into());
        let s = self.fsel(f32imm(s_lo), r(s1), tiny.into());
        (tiny.into(), huge.into(), s)
    }

    /// A power-of-two scale `s` (2^64 for |x| < 2^-100, 2^-64 for |x| > 2^100, else 1) that
    /// keeps a MUFU seed of `x * s` normal; returns (`x * s`, the f64 factor that undoes it
    /// on the seed: `s` for a reciprocal, `sqrt(s)` for a reciprocal square root).
    fn seed_scale(&mut self, x: &Operand, sqrt: bool) -> (Reg, Reg) {
        // 2^-100 → 2^64, 2^100 → 2^-64.
        let (tiny, huge, s) = self.range_scale(x, (0x0d80_0000, 0x5f80_0000), (0x7180_0000, 0x1f80_0000));
        let xs = self.t32();
        self.emit(Opcode::FMUL, Mods::new(), vec![xs.into()], vec![x.clone(), r(s)]);
        let back = if sqrt {
            let b1 = self.fsel(f32imm(0x2f80_0000), f32imm(0x3f80_0000), huge); // 2^-32
            self.fsel(f32imm(0x4f80_0000), r(b1), tiny) // 2^32
        } else {
            s
        };
        let back = self.widen_f64(r(back));
        (xs.into(), back)
    }

    /// IEEE `div.{rn,rz,rm,rp}.f32` without a subroutine: the quotient computed in f64 from a
    /// scaled MUFU.RCP seed (two Newton steps, then Markstein's correction: a correctly
    /// rounded f64 quotient), rounded once to f32 with the requested mode (exact for every
    /// f32 operand pair: f64 has more than 2·24+2 bits); zeros, infinities and NaNs take
    /// `a * MUFU.RCP(b)`, which is exact for them.
    pub(crate) fn div_rn_f32(&mut self, dst: Reg, a: Operand, b: Operand, rnd: Rnd) -> R<()> {
        use Opcode::*;
        let a = self.reg_src(&a)?;
        let b = self.reg_src(&b)?;
        let (bs, back) = self.seed_scale(&b, false);
        let rc = self.t32();
        self.emit(MUFU, Mods { mufu: Some(Mufu::Rcp), ..Mods::new() }, vec![rc.into()], vec![r(bs)]);
        // Special operands: a * rcp(b * s) has the right zero/inf/NaN.
        let sp = self.t32();
        self.emit(FMUL, Mods::new(), vec![sp.into()], vec![a.clone(), r(rc)]);
        let (da, db) = (self.widen_f64(a.clone()), self.widen_f64(b.clone()));
        let y0 = self.widen_f64(r(rc));
        let mut y = self.vreg(RegClass::R64);
        self.emit(DMUL, Mods::new(), vec![y.into()], vec![r(y0), r(back)]);
        for _ in 0..2 {
            let (e, y2) = (self.vreg(RegClass::R64), self.vreg(RegClass::R64));
            self.emit(DFMA, Mods::new(), vec![e.into()], vec![neg(r(db)), r(y), f64imm(0x3ff0_0000_0000_0000)]);
            self.emit(DFMA, Mods::new(), vec![y2.into()], vec![r(y), r(e), r(y)]);
            y = y2;
        }
        let (q, e, q2) = (self.vreg(RegClass::R64), self.vreg(RegClass::R64), self.vreg(RegClass::R64));
        self.emit(DMUL, Mods::new(), vec![q.into()], vec![r(da), r(y)]);
        self.emit(DFMA, Mods::new(), vec![e.into()], vec![neg(r(db)), r(q), r(da)]);
        self.emit(DFMA, Mods::new(), vec![q2.into()], vec![r(y), r(e), r(q)]);
        let qf = self.t32();
        let m = Mods { ty: Some(Ty::F32), src_ty: Some(Ty::F64), rnd: Some(rnd), ..Mods::new() };
        self.emit(F2F, m, vec![qf.into()], vec![r(q2)]);
        let pa = self.finite_nonzero(&a, None);
        let ok = self.finite_nonzero(&b, Some(pa));
        self.emit(FSEL, Mods::new(), vec![dst], vec![r(qf), r(sp), r(ok)]);
        Ok(())
    }

    /// IEEE `sqrt.{rn,rz,rm,rp}.f32`: the root computed in f64 from a scaled MUFU.RSQ seed
    /// (two Newton steps on the reciprocal root, then the correction `s + (a - s²)·y/2`),
    /// rounded once to f32; zero, negative, infinite and NaN operands take `MUFU.SQRT` of the
    /// scaled operand, exact for them.
    pub(crate) fn sqrt_rn_f32(&mut self, dst: Reg, a: Operand, rnd: Rnd) -> R<()> {
        use Opcode::*;
        let a = self.reg_src(&a)?;
        let (as_, back) = self.seed_scale(&a, true);
        let y32 = self.t32();
        self.emit(MUFU, Mods { mufu: Some(Mufu::Rsq), ..Mods::new() }, vec![y32.into()], vec![r(as_)]);
        // The special path takes the scaled operand: MUFU.SQRT flushes a subnormal input to
        // zero, so `MUFU.SQRT(a)` of a negative subnormal would be -0.0 where IEEE (and
        // NVIDIA's code, on an H200) gives NaN; scaled by 2^64 it is a negative normal.
        let sp = self.t32();
        self.emit(MUFU, Mods { mufu: Some(Mufu::Sqrt), ..Mods::new() }, vec![sp.into()], vec![r(as_)]);
        let da = self.widen_f64(a.clone());
        let y0 = self.widen_f64(r(y32));
        let mut y = self.vreg(RegClass::R64);
        self.emit(DMUL, Mods::new(), vec![y.into()], vec![r(y0), r(back)]);
        for _ in 0..2 {
            // y += y * (0.5 - 0.5 * a * y * y)
            let (u, v, e, y2) = (
                self.vreg(RegClass::R64),
                self.vreg(RegClass::R64),
                self.vreg(RegClass::R64),
                self.vreg(RegClass::R64),
            );
            self.emit(DMUL, Mods::new(), vec![u.into()], vec![r(y), r(y)]);
            self.emit(DMUL, Mods::new(), vec![v.into()], vec![r(da), r(u)]);
            self.emit(
                DFMA,
                Mods::new(),
                vec![e.into()],
                vec![r(v), f64imm(0xbfe0_0000_0000_0000), f64imm(0x3fe0_0000_0000_0000)],
            );
            self.emit(DFMA, Mods::new(), vec![y2.into()], vec![r(y), r(e), r(y)]);
            y = y2;
        }
        let (s0, h, e, s1) =
            (self.vreg(RegClass::R64), self.vreg(RegClass::R64), self.vreg(RegClass::R64), self.vreg(RegClass::R64));
        self.emit(DMUL, Mods::new(), vec![s0.into()], vec![r(da), r(y)]);
        self.emit(DMUL, Mods::new(), vec![h.into()], vec![r(y), f64imm(0x3fe0_0000_0000_0000)]);
        self.emit(DFMA, Mods::new(), vec![e.into()], vec![neg(r(s0)), r(s0), r(da)]);
        self.emit(DFMA, Mods::new(), vec![s1.into()], vec![r(e), r(h), r(s0)]);
        let qf = self.t32();
        let m = Mods { ty: Some(Ty::F32), src_ty: Some(Ty::F64), rnd: Some(rnd), ..Mods::new() };
        self.emit(F2F, m, vec![qf.into()], vec![r(s1)]);
        let (p1, ok) = (self.tp(), self.tp());
        self.fsetp(p1.into(), Cmp::Gt, a.clone(), f32imm(0), None);
        self.fsetp(ok.into(), Cmp::Lt, a, f32imm(0x7f80_0000), Some(p1.into()));
        self.emit(FSEL, Mods::new(), vec![dst], vec![r(qf), r(sp), r(ok)]);
        Ok(())
    }

    /// f16/bf16 arithmetic (scalar in the low half, or packed x2): `HADD2`/`HMUL2`/`HFMA2`/
    /// `HMNMX2` typed with the PTX type; `neg`/`abs` add -0 (`HADD2 Rd, -Ra, -RZ` and
    /// `HADD2 Rd, |Ra|, -RZ`, ptxas: `HADD2`/`HFMA2.BF16_V2` with `-RZ.H0_H0`), so a NaN half
    /// comes out canonical (`0x7fff`) as on the GPU.
    fn sel_half(&mut self, d: &InstData, t: Ty) -> R<()> {
        use Opcode::*;
        let dst = Self::dst(d)?;
        let s = &d.srcs;
        let sign: i64 = match t {
            Ty::F16x2 | Ty::BF16x2 => 0x8000_8000,
            _ => 0x8000,
        };
        let keep = |mods: &Mods, relu: bool| {
            let mut m = Mods { ty: Some(t), rnd: mods.rnd, ..Mods::new() };
            for f in &mods.flags {
                if matches!(f, Flag::Ftz | Flag::Sat) || (relu && *f == Flag::Relu) {
                    m.flags.push(*f);
                }
            }
            m
        };
        let hneg = |o: Operand| match o {
            Operand::Imm(i) => Operand::Imm(Imm::Int((i.bits() as i64) ^ sign)),
            o => neg(o),
        };
        match d.opcode {
            Add | Sub | Mul => {
                if d.mods.has(Flag::Relu) {
                    return Err(format!("`{}.relu.{t}`", d.opcode));
                }
                let a = self.src(&s[0])?;
                let mut b = self.src(&s[1])?;
                if d.opcode == Sub {
                    if let Operand::CBank(_) = b {
                        b = self.reg_src(&b)?;
                    }
                    b = hneg(b);
                }
                let (a, b) = match (&a, &b) {
                    (Operand::Reg(_), _) => (a, b),
                    (_, Operand::Reg(_)) => (b, a),
                    _ => (self.reg_src(&a)?, b),
                };
                let op = if d.opcode == Mul { HMUL2 } else { HADD2 };
                self.emit(op, keep(&d.mods, false), vec![dst], vec![a, b]);
            }
            Fma | Mad => {
                let a = self.src(&s[0])?;
                let b = self.src(&s[1])?;
                let c = self.src(&s[2])?;
                let (a, b) = match (&a, &b) {
                    (Operand::Reg(_), _) => (a, b),
                    (_, Operand::Reg(_)) => (b, a),
                    _ => (self.reg_src(&a)?, b),
                };
                self.emit(HFMA2, keep(&d.mods, true), vec![dst], vec![a, b, c]);
            }
            Min | Max => {
                if d.mods.has(Flag::Relu) {
                    return Err(format!("`{}.relu.{t}`", d.opcode));
                }
                let a = self.reg_src(&s[0])?;
                let b = self.src(&s[1])?;
                let (a, b) = if d.mods.has(Flag::Xorsign) { self.xorsign_srcs(a, b, sign as u64)? } else { (a, b) };
                let p = if d.opcode == Min { pt() } else { not_pt() };
                self.emit(HMNMX2, minmax_mods(&d.mods, Some(t)), vec![dst], vec![a, b, p]);
            }
            Neg | Abs => {
                if d.mods.has(Flag::Ftz) {
                    return Err(format!("`{}.ftz.{t}`", d.opcode));
                }
                let a = self.reg_src(&s[0])?;
                let a = match (d.opcode, a) {
                    (Abs, Operand::Reg(u)) => Operand::Reg(crate::ori::RegUse { abs: true, ..u }),
                    (_, a) => neg(a),
                };
                self.emit(HADD2, keep(&d.mods, false), vec![dst], vec![a, neg(super::rz())]);
            }
            op => return Err(format!("`{op}.{t}` is not selected yet")),
        }
        Ok(())
    }
}
