//! The pre-decoded fast path: the common register-to-register ALU instructions, lowered once
//! per program into a compact [`Fast`] (operands resolved to a register row, a uniform
//! register or an immediate; modifiers as plain flags) and executed on all 32 lanes at once,
//! branch-free, the result blended into the destination row by the guarded mask.
//!
//! Invariants:
//! - [`lower`] gives a fast form only where the instruction's meaning is exactly the one
//!   [`super::step`] gives it (each arm here mirrors its arm there); anything else (memory,
//!   control flow, uniform destinations, operand forms that `step` reports as errors, register
//!   tuples running past R254) is [`Op::Slow`] and runs through `step`, which stays the one
//!   reference of the semantics.
//! - The functions evaluated per lane are pure, so computing them on lanes outside the guarded
//!   mask and blending is the same as visiting the active lanes only.
//! - Executing a fast form never fails and only writes registers and predicates of the warp
//!   and advances its pc by one, as `step` does for these instructions.

use super::super::alu::{self, BoolOp, Cmp, MufuFn, Rnd, ShfType};
use super::super::program::{Arg, Inst, Kind, Opnd, PArg};
use super::{LANE_BIT, Warp, cmp_lanes, combine};

/// A 32-bit source operand.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Src {
    /// A register row (255: RZ, whose row stays zero).
    R(u8),
    /// A uniform register (63: URZ).
    U(u8),
    /// An immediate (constant-bank operands are already immediates).
    I(u32),
}

/// A 64-bit source operand (a register pair, a uniform pair, or an immediate).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Src64 {
    /// Registers `r`, `r + 1` (`r` below 254).
    R(u8),
    /// Uniform registers `r`, `r + 1` (mod 64).
    U(u8),
    /// An immediate (RZ and URZ are 0).
    I(u64),
}

/// An instruction of the fast path; `d` is the destination register (255: RZ, not written).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Op {
    /// Not handled here: [`super::step`] executes it.
    Slow,
    /// `MOV`.
    Mov { d: u8, a: Src },
    /// `IADD3[.X]`; `inv`: the operand is negated (`~x`, plus one without `.X`).
    Iadd3 { d: u8, s: [Src; 3], inv: [bool; 3], x: bool, ci: [PArg; 2], co: [PArg; 2] },
    /// `IMAD[.X]` (32-bit result).
    Imad { d: u8, a: Src, b: Src, c: Src, cneg: bool, x: bool, ci: PArg, co: PArg },
    /// `IMAD.WIDE[.U32][.X]` (a pair written) and `IMAD.HI` (the high word).
    ImadWide { d: u8, a: Src, b: Src, c: Src64, cneg: bool, x: bool, hi: bool, signed: bool, ci: PArg, co: PArg },
    /// `LEA[.HI][.X][.SX32]`.
    Lea {
        d: u8,
        a: Src,
        b: Src,
        c: Src,
        sh: u32,
        hi: bool,
        x: bool,
        sx32: bool,
        a_mod: u8,
        b_neg: bool,
        b_one: bool,
        ci: PArg,
        co: PArg,
    },
    /// `LOP3.LUT`.
    Lop3 { d: u8, a: Src, b: Src, c: Src, lut: u8, pin: PArg, po: PArg },
    /// `SHF`.
    Shf { d: u8, a: Src, b: Src, c: Src, left: bool, wrap: bool, ty: ShfType, hi: bool },
    /// `SEL` (and `FSEL` without operand modifiers on registers).
    Sel { d: u8, a: Src, b: Src, p: PArg },
    /// `VIADD` (one lane, no saturation); `b` complemented, then negated, as flagged.
    Viadd { d: u8, a: Src, b: Src, bnot: bool, bneg: bool },
    /// 32-bit `ISETP`; `inv`: (not, neg) of each operand.
    Isetp { a: Src, b: Src, inv: [(bool, bool); 2], cmp: Cmp, signed: bool, bop: BoolOp, ex: bool, pr: [PArg; 4] },
    /// `FSETP`; `m`: (abs, neg) of each operand.
    Fsetp { a: Src, b: Src, m: [(bool, bool); 2], cmp: Cmp, ftz: bool, bop: BoolOp, pr: [PArg; 3] },
    /// `MUFU` (FP32); `m`: (abs, neg) of the operand.
    Mufu { f: MufuFn, d: u8, a: Src, m: (bool, bool) },
    /// `FADD`/`FMUL`/`FFMA`; `m`: (abs, neg) of each operand.
    Fp32 { op: u8, d: u8, s: [Src; 3], m: [(bool, bool); 3], rnd: Rnd, ftz: bool, sat: bool },
}

/// An instruction's fast form with its guard.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Fast {
    guard: PArg,
    op: Op,
}

impl Fast {
    /// Whether [`super::step`] executes the instruction instead.
    pub(super) fn is_slow(&self) -> bool {
        matches!(self.op, Op::Slow)
    }
}

fn src(a: &Arg) -> Option<Src> {
    match a.o {
        Opnd::R(r) => Some(Src::R(r)),
        Opnd::Ur(r) => Some(Src::U(r & 63)),
        Opnd::Imm(v) => Some(Src::I(v as u32)),
        _ => None,
    }
}

fn src64(a: &Arg) -> Option<Src64> {
    match a.o {
        Opnd::R(255) => Some(Src64::I(0)),
        Opnd::R(r) if r < 254 => Some(Src64::R(r)),
        Opnd::Ur(63) => Some(Src64::I(0)),
        Opnd::Ur(r) => Some(Src64::U(r)),
        Opnd::Imm(v) => Some(Src64::I(v)),
        _ => None,
    }
}

/// A general-register destination (uniform ones go through `step`).
fn dst(a: &Arg) -> Option<u8> {
    match a.o {
        Opnd::R(r) => Some(r),
        _ => None,
    }
}

/// A destination pair: RZ, or a pair below R254.
fn dst_pair(a: &Arg) -> Option<u8> {
    match a.o {
        Opnd::R(r) if r == 255 || r < 254 => Some(r),
        _ => None,
    }
}

/// The fast form of `inst` ([`Op::Slow`] where `step` must run it).
pub(crate) fn lower(inst: &Inst) -> Fast {
    Fast { guard: inst.guard, op: lower_op(inst).unwrap_or(Op::Slow) }
}

fn lower_op(inst: &Inst) -> Option<Op> {
    let a = &inst.args;
    let pr = &inst.preds;
    let arg = |i: usize| a.get(i);
    let p = |i: usize| pr.get(i).copied();
    let inv = |x: &Arg| x.neg || x.not;
    Some(match inst.kind {
        Kind::Mov if arg(0)?.n != 2 => Op::Mov { d: dst(arg(0)?)?, a: src(arg(1)?)? },
        Kind::Iadd3 { x } => Op::Iadd3 {
            d: dst(arg(0)?)?,
            s: [src(arg(1)?)?, src(arg(2)?)?, src(arg(3)?)?],
            inv: [inv(arg(1)?), inv(arg(2)?), inv(arg(3)?)],
            x,
            ci: [p(2)?, p(3)?],
            co: [p(0)?, p(1)?],
        },
        Kind::Imad { wide: false, hi: false, x, .. } => Op::Imad {
            d: dst(arg(0)?)?,
            a: src(arg(1)?)?,
            b: src(arg(2)?)?,
            c: src(arg(3)?)?,
            cneg: inv(arg(3)?),
            x,
            // `step` reads the carry-in only with `.X`.
            ci: if x { p(1)? } else { p(0)? },
            co: p(0)?,
        },
        Kind::Imad { hi, signed, x, .. } => Op::ImadWide {
            d: if hi { dst(arg(0)?)? } else { dst_pair(arg(0)?)? },
            a: src(arg(1)?)?,
            b: src(arg(2)?)?,
            c: src64(arg(3)?)?,
            cneg: inv(arg(3)?),
            x,
            hi,
            signed,
            ci: if x { p(1)? } else { p(0)? },
            co: p(0)?,
        },
        Kind::Lea { hi, x, sx32 } => {
            let (xa, xb) = (arg(1)?, arg(2)?);
            let sh = match arg(4)?.o {
                Opnd::Imm(v) => v as u32 & 63,
                _ => return None,
            };
            let b_neg = inv(xb);
            Op::Lea {
                d: dst(arg(0)?)?,
                a: src(xa)?,
                b: src(xb)?,
                c: src(arg(3)?)?,
                sh,
                hi,
                x,
                sx32,
                // 0: as is; 1: `~a`; 2: `-a`.
                a_mod: if xa.neg || xa.not { if x || xa.not { 1 } else { 2 } } else { 0 },
                b_neg,
                b_one: b_neg && !x && !xb.not,
                ci: p(1)?,
                co: p(0)?,
            }
        }
        Kind::Lop3 => {
            let lut = match arg(4)?.o {
                Opnd::Imm(v) => v as u8,
                _ => return None,
            };
            Op::Lop3 {
                d: dst(arg(0)?)?,
                a: src(arg(1)?)?,
                b: src(arg(2)?)?,
                c: src(arg(3)?)?,
                lut,
                pin: p(1)?,
                po: p(0)?,
            }
        }
        Kind::Shf { left, wrap, ty, hi } => {
            Op::Shf { d: dst(arg(0)?)?, a: src(arg(1)?)?, b: src(arg(2)?)?, c: src(arg(3)?)?, left, wrap, ty, hi }
        }
        Kind::Sel if arg(0)?.n != 2 => {
            let (xa, xb) = (arg(1)?, arg(2)?);
            let modded = |x: &Arg| matches!(x.o, Opnd::R(_)) && (x.abs || x.neg);
            if inst.base == "FSEL" && (modded(xa) || modded(xb)) {
                return None;
            }
            Op::Sel { d: dst(arg(0)?)?, a: src(xa)?, b: src(xb)?, p: p(0)? }
        }
        Kind::Viadd { lanes: 1, sat: false } => {
            let xb = arg(2)?;
            Op::Viadd { d: dst(arg(0)?)?, a: src(arg(1)?)?, b: src(xb)?, bnot: xb.not, bneg: xb.neg }
        }
        Kind::Isetp { cmp, signed, wide: false, bop, ex } => {
            let (xa, xb) = (arg(0)?, arg(1)?);
            Op::Isetp {
                a: src(xa)?,
                b: src(xb)?,
                inv: [(xa.not, xa.neg), (xb.not, xb.neg)],
                cmp,
                signed,
                bop,
                ex,
                pr: [p(0)?, p(1)?, p(2)?, if ex { p(3)? } else { p(2)? }],
            }
        }
        Kind::Fsetp { cmp, ftz, bop } => {
            let (xa, xb) = (arg(0)?, arg(1)?);
            Op::Fsetp {
                a: src(xa)?,
                b: src(xb)?,
                m: [(xa.abs, xa.neg), (xb.abs, xb.neg)],
                cmp,
                ftz,
                bop,
                pr: [p(0)?, p(1)?, p(2)?],
            }
        }
        Kind::Mufu(f) => {
            let x = arg(1)?;
            Op::Mufu { f, d: dst(arg(0)?)?, a: src(x)?, m: (x.abs, x.neg) }
        }
        Kind::Fp32 { op, rnd, ftz, sat } => {
            let m = |x: &Arg| (x.abs, x.neg);
            let (x1, x2) = (arg(1)?, arg(2)?);
            let x3 = if op >= 2 { arg(3)? } else { x2 };
            Op::Fp32 {
                op,
                d: dst(arg(0)?)?,
                s: [src(x1)?, src(x2)?, src(x3)?],
                m: [m(x1), m(x2), m(x3)],
                rnd,
                ftz,
                sat,
            }
        }
        _ => return None,
    })
}

/// The 32 lanes of a source.
#[inline(always)]
fn rd(w: &Warp, s: Src) -> [u32; 32] {
    match s {
        Src::R(r) => w.r[r as usize],
        Src::U(r) => [w.ur[r as usize]; 32],
        Src::I(v) => [v; 32],
    }
}

#[inline(always)]
fn rd64(w: &Warp, s: Src64) -> [u64; 32] {
    match s {
        Src64::R(r) => {
            let (lo, hi) = (&w.r[r as usize], &w.r[r as usize + 1]);
            each(|l| u64::from(lo[l]) | u64::from(hi[l]) << 32)
        }
        Src64::U(r) => [u64::from(w.ur[r as usize & 63]) | u64::from(w.ur[(r as usize + 1) & 63]) << 32; 32],
        Src64::I(v) => [v; 32],
    }
}

/// Writes the lanes `g` of `v` to register `d` (RZ: nothing).
#[inline(always)]
fn put(w: &mut Warp, d: u8, v: &[u32; 32], g: u32) {
    if d == 255 {
        return;
    }
    let row = &mut w.r[d as usize];
    if g == u32::MAX {
        *row = *v;
    } else {
        for ((x, &y), &b) in row.iter_mut().zip(v).zip(&LANE_BIT) {
            let keep = u32::from(g & b == 0).wrapping_neg();
            *x = (*x & keep) | (y & !keep);
        }
    }
}

/// Writes a pair (RZ: nothing).
#[inline(always)]
fn put64(w: &mut Warp, d: u8, v: &[u64; 32], g: u32) {
    if d == 255 {
        return;
    }
    let lo: [u32; 32] = each(|l| v[l] as u32);
    let hi: [u32; 32] = each(|l| (v[l] >> 32) as u32);
    put(w, d, &lo, g);
    put(w, d + 1, &hi, g);
}

/// `f` of each lane, as a plain counted loop (which the loop vectoriser takes; `from_fn` of
/// a closure this size tends to be unrolled into scalar code).
#[inline(always)]
fn each<T: Copy + Default>(f: impl Fn(usize) -> T) -> [T; 32] {
    let mut o = [T::default(); 32];
    for (l, x) in o.iter_mut().enumerate() {
        *x = f(l);
    }
    o
}

/// The lane's bit of `m` as 0 or 1 (a lane-independent shift amount, so it vectorises).
#[inline(always)]
fn bit(m: u32, l: usize) -> u64 {
    u64::from(m & LANE_BIT[l] != 0)
}

/// The lane mask of `f`: bit `l` set where `f(l)`. The flags are gathered as bytes (a loop
/// that vectorises) and packed eight at a time by a multiplication that moves byte `i`'s low
/// bit to bit `56 + i`.
#[inline(always)]
fn mask(f: impl Fn(usize) -> bool) -> u32 {
    let b: [u8; 32] = each(|l| u8::from(f(l)));
    let mut m = 0u32;
    for k in 0..4 {
        let x = u64::from_le_bytes([
            b[8 * k],
            b[8 * k + 1],
            b[8 * k + 2],
            b[8 * k + 3],
            b[8 * k + 4],
            b[8 * k + 5],
            b[8 * k + 6],
            b[8 * k + 7],
        ]);
        m |= ((x.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32) << (8 * k);
    }
    m
}

/// FP32 operand modifiers `(abs, neg)`: `|x|`, then `-x` (as `exec::fmod32`).
#[inline(always)]
fn fmod(v: &mut [u32; 32], (abs, neg): (bool, bool)) {
    if abs {
        v.iter_mut().for_each(|y| *y &= 0x7fff_ffff);
    }
    if neg {
        v.iter_mut().for_each(|y| *y ^= 0x8000_0000);
    }
}

/// Executes `f` for the warp's current group and advances its pc.
pub(super) fn exec(w: &mut Warp, f: &Fast) {
    let g = w.act & w.pred(&f.guard);
    match f.op {
        Op::Slow => unreachable!("the slow path runs through step"),
        Op::Mov { d, a } => {
            let v = rd(w, a);
            put(w, d, &v, g);
        }
        Op::Iadd3 { d, s, inv, x, ci, co } => {
            let v = [rd(w, s[0]), rd(w, s[1]), rd(w, s[2])];
            if !x && co[0].idx >= 7 && co[1].idx >= 7 {
                // No carries in or out: the wrapping sum, which vectorises.
                let t = |i: usize, x0: u32| if inv[i] { x0.wrapping_neg() } else { x0 };
                let r: [u32; 32] = each(|l| t(0, v[0][l]).wrapping_add(t(1, v[1][l])).wrapping_add(t(2, v[2][l])));
                put(w, d, &r, g);
                w.pc += 1;
                return;
            }
            let (ci0, ci1) = if x { (w.pred(&ci[0]), w.pred(&ci[1])) } else { (0, 0) };
            let one = u64::from(!x);
            let opv = |i: usize, x0: u32| -> u64 { if inv[i] { u64::from(!x0) + one } else { u64::from(x0) } };
            let s: [u64; 32] =
                each(|l| opv(0, v[0][l]) + opv(1, v[1][l]) + opv(2, v[2][l]) + bit(ci0, l) + bit(ci1, l));
            // The carry out of bit 31: 0, 1 or 2.
            let co0 = mask(|l| s[l] >> 32 != 0);
            let co1 = mask(|l| s[l] >> 33 != 0);
            put(w, d, &each(|l| s[l] as u32), g);
            w.set_pred(&co[0], co0 & g, g);
            w.set_pred(&co[1], co1 & g, g);
        }
        Op::Imad { d, a, b, c, cneg, x, ci, co } => {
            let (va, vb, vc) = (rd(w, a), rd(w, b), rd(w, c));
            if !x && co.idx >= 7 {
                let r: [u32; 32] = each(|l| {
                    let c = if cneg { vc[l].wrapping_neg() } else { vc[l] };
                    va[l].wrapping_mul(vb[l]).wrapping_add(c)
                });
                put(w, d, &r, g);
                w.pc += 1;
                return;
            }
            let cin = if x { w.pred(&ci) } else { 0 };
            let s: [u64; 32] = each(|l| {
                let c = if cneg { if x { !vc[l] } else { vc[l].wrapping_neg() } } else { vc[l] };
                u64::from(va[l].wrapping_mul(vb[l])) + u64::from(c) + bit(cin, l)
            });
            let cm = mask(|l| s[l] >> 32 & 1 == 1);
            put(w, d, &each(|l| s[l] as u32), g);
            w.set_pred(&co, cm & g, g);
        }
        Op::ImadWide { d, a, b, c, cneg, x, hi, signed, ci, co } => {
            let (va, vb, vc) = (rd(w, a), rd(w, b), rd64(w, c));
            if !x && co.idx >= 7 {
                let res: [u64; 32] = each(|l| {
                    let p = if signed {
                        (i64::from(va[l] as i32) * i64::from(vb[l] as i32)) as u64
                    } else {
                        u64::from(va[l]) * u64::from(vb[l])
                    };
                    p.wrapping_add(if cneg { vc[l].wrapping_neg() } else { vc[l] })
                });
                if hi {
                    put(w, d, &each(|l| (res[l] >> 32) as u32), g);
                } else {
                    put64(w, d, &res, g);
                }
                w.pc += 1;
                return;
            }
            let cin = if x { w.pred(&ci) } else { 0 };
            let mut res = [0u64; 32];
            let mut cm = 0u32;
            for lane in 0..32 {
                let p = if signed {
                    (i64::from(va[lane] as i32) * i64::from(vb[lane] as i32)) as u64
                } else {
                    u64::from(va[lane]) * u64::from(vb[lane])
                };
                let c = if cneg { if x { !vc[lane] } else { vc[lane].wrapping_neg() } } else { vc[lane] };
                let s = u128::from(p) + u128::from(c) + u128::from(bit(cin, lane));
                cm |= ((s >> 64) as u32 & 1) << lane;
                res[lane] = if hi { (s >> 32) as u64 & 0xffff_ffff } else { s as u64 };
            }
            if hi {
                put(w, d, &each(|l| res[l] as u32), g);
            } else {
                put64(w, d, &res, g);
            }
            w.set_pred(&co, cm & g, g);
        }
        Op::Lea { d, a, b, c, sh, hi, x, sx32, a_mod, b_neg, b_one, ci, co } => {
            let (mut va, mut vb, vc) = (rd(w, a), rd(w, b), rd(w, c));
            if b_neg {
                vb.iter_mut().for_each(|v| *v = !*v);
            }
            match a_mod {
                1 => va.iter_mut().for_each(|v| *v = !*v),
                2 => va.iter_mut().for_each(|v| *v = v.wrapping_neg()),
                _ => {}
            }
            let cin = w.pred(&ci);
            let b_one = u64::from(b_one);
            let s: [u64; 32] = each(|l| {
                let hiw = if sx32 { ((va[l] as i32) >> 31) as u32 } else { vc[l] };
                let v = (u64::from(hiw) << 32) | u64::from(va[l]);
                let shifted = if hi { ((u128::from(v) << sh) >> 32) as u32 } else { (v << sh) as u32 };
                u64::from(shifted) + u64::from(vb[l]) + if x { bit(cin, l) } else { b_one }
            });
            let cm = mask(|l| s[l] >> 32 & 1 == 1);
            put(w, d, &each(|l| s[l] as u32), g);
            w.set_pred(&co, cm & g, g);
        }
        Op::Lop3 { d, a, b, c, lut, pin, po } => {
            let (va, vb, vc) = (rd(w, a), rd(w, b), rd(w, c));
            let r: [u32; 32] = each(|l| alu::lop3(va[l], vb[l], vc[l], lut));
            if po.idx >= 7 {
                put(w, d, &r, g);
                w.pc += 1;
                return;
            }
            let pm = mask(|l| r[l] != 0) | w.pred(&pin);
            put(w, d, &r, g);
            w.set_pred(&po, pm & g, g);
        }
        Op::Shf { d, a, b, c, left, wrap, ty, hi } => {
            let (va, vb, vc) = (rd(w, a), rd(w, b), rd(w, c));
            let r: [u32; 32] = each(|l| alu::shf(va[l], vb[l], vc[l], left, wrap, ty, hi));
            put(w, d, &r, g);
        }
        Op::Sel { d, a, b, p } => {
            let (va, vb) = (rd(w, a), rd(w, b));
            let p = w.pred(&p);
            let r: [u32; 32] = each(|l| if p & LANE_BIT[l] != 0 { va[l] } else { vb[l] });
            put(w, d, &r, g);
        }
        Op::Viadd { d, a, b, bnot, bneg } => {
            let (va, mut vb) = (rd(w, a), rd(w, b));
            if bnot {
                vb.iter_mut().for_each(|x| *x = !*x);
            }
            if bneg {
                vb.iter_mut().for_each(|x| *x = x.wrapping_neg());
            }
            let r: [u32; 32] = each(|l| va[l].wrapping_add(vb[l]));
            put(w, d, &r, g);
        }
        Op::Isetp { a, b, inv, cmp, signed, bop, ex, pr } => {
            let (mut va, mut vb) = (rd(w, a), rd(w, b));
            for (v, (not, neg)) in [(&mut va, inv[0]), (&mut vb, inv[1])] {
                if not {
                    v.iter_mut().for_each(|x| *x = !*x);
                }
                if neg {
                    v.iter_mut().for_each(|x| *x = x.wrapping_neg());
                }
            }
            let pp = w.pred(&pr[2]);
            let low = if ex { w.pred(&pr[3]) } else { 0 };
            let lt = if signed { mask(|l| (va[l] as i32) < (vb[l] as i32)) } else { mask(|l| va[l] < vb[l]) };
            let eq = mask(|l| va[l] == vb[l]);
            let mut r = cmp_lanes(cmp, lt, eq, !(lt | eq), 0);
            if ex {
                r = (r & !eq) | (low & eq);
            }
            let (u, v) = combine(bop, r & g, pp, g);
            w.set_pred(&pr[0], u, g);
            w.set_pred(&pr[1], v, g);
        }
        Op::Fsetp { a, b, m, cmp, ftz, bop, pr } => {
            let (mut va, mut vb) = (rd(w, a), rd(w, b));
            fmod(&mut va, m[0]);
            fmod(&mut vb, m[1]);
            let pp = w.pred(&pr[2]);
            let (mut x, mut y) = ([0f32; 32], [0f32; 32]);
            for l in 0..32 {
                let (p, q) = if ftz { (alu::ftz32(va[l]), alu::ftz32(vb[l])) } else { (va[l], vb[l]) };
                x[l] = f32::from_bits(p);
                y[l] = f32::from_bits(q);
            }
            let lt = mask(|l| x[l] < y[l]);
            let eq = mask(|l| x[l] == y[l]);
            let gt = mask(|l| x[l] > y[l]);
            let r = cmp_lanes(cmp, lt, eq, gt, !(lt | eq | gt));
            let (u, v) = combine(bop, r & g, pp, g);
            w.set_pred(&pr[0], u, g);
            w.set_pred(&pr[1], v, g);
        }
        Op::Mufu { f, d, a, m } => {
            let mut va = rd(w, a);
            fmod(&mut va, m);
            let r = each(|l| alu::mufu(f, va[l]));
            put(w, d, &r, g);
        }
        Op::Fp32 { op, d, s, m, rnd, ftz, sat } => {
            let mut v = [rd(w, s[0]), rd(w, s[1]), rd(w, s[2])];
            for (x, &am) in v.iter_mut().zip(&m) {
                fmod(x, am);
            }
            let [va, vb, vc] = v;
            let r: [u32; 32] = match (op, rnd, ftz, sat) {
                // The common case, without the per-lane rounding-mode dispatch.
                (0, Rnd::Rn, false, false) => each(|l| alu::fadd(va[l], vb[l], Rnd::Rn, false, false)),
                (1, Rnd::Rn, false, false) => each(|l| alu::fmul(va[l], vb[l], Rnd::Rn, false, false)),
                (2.., Rnd::Rn, false, false) => each(|l| alu::ffma(va[l], vb[l], vc[l], Rnd::Rn, false, false)),
                (0, ..) => each(|l| alu::fadd(va[l], vb[l], rnd, ftz, sat)),
                (1, ..) => each(|l| alu::fmul(va[l], vb[l], rnd, ftz, sat)),
                _ => each(|l| alu::ffma(va[l], vb[l], vc[l], rnd, ftz, sat)),
            };
            put(w, d, &r, g);
        }
    }
    w.pc += 1;
}

#[cfg(test)]
mod tests {
    use super::mask;

    #[test]
    fn mask_packs_lane_flags() {
        for m in [0u32, 1, 0x8000_0000, 0xdead_beef, u32::MAX, 0x0101_0101, 0x8080_8080] {
            assert_eq!(mask(|l| m >> l & 1 == 1), m);
        }
    }
}
