//! The pre-decoded fast path: the common instructions, lowered once per program into a
//! compact [`Fast`] (operands resolved to a register row, a uniform register or an immediate;
//! modifiers as plain flags) and executed on all 32 lanes at once. The register-to-register
//! ALU forms are branch-free, the result blended into the destination row by the guarded mask;
//! the loads and stores of global, shared and local memory check the whole warp's accesses
//! first and then move the bytes; `BRA` goes through the general executor's `branch`.
//!
//! Without the hazard checker, [`run`] executes a run of fast forms in one call (the caller
//! counts its steps and thread-instructions once), which saves the per-instruction dispatch of
//! the warp loop.
//!
//! Invariants:
//! - [`lower`] gives a fast form only where the instruction's meaning is exactly the one
//!   [`super::step`] gives it (each arm here mirrors its arm there); anything else (atomics,
//!   generic and constant accesses, other control flow, uniform destinations, operand forms
//!   that `step` reports as errors, register tuples running past R254) is [`Op::Slow`] and runs
//!   through `step`, which stays the one reference of the semantics.
//! - A fast load or store executes only when no lane's access would fault (all lanes in one
//!   global allocation, or in bounds of the CTA's shared or the threads' local memory,
//!   aligned, in the CTA's shared slot); otherwise it declines with nothing changed and `step`
//!   executes it and reports the fault. Stores write lanes in order, as `step` does.
//! - The functions evaluated per lane are pure, so computing them on lanes outside the guarded
//!   mask and blending is the same as visiting the active lanes only.
//! - The `unsafe` blocks call the AVX2/FMA and AVX-512 compilations of the executor after
//!   detecting those features (see [`exec`]); they change no result.
//! - A fast form changes only what `step` changes for the instruction: registers, predicates
//!   and pc (and for `BRA` the warp's lane groups; for stores memory and the shared memory's
//!   generic-proxy record).
//! - `tests/emu_fast_paths.rs` runs the corpus with and without the fast forms and requires the
//!   same outputs, instruction counts and errors.

use super::super::alu::{self, BoolOp, Cmp, MufuFn, Rnd, ShfType};
use super::super::program::{Arg, Inst, Kind, Opnd, PArg, Space};
use super::{Cta, LANE_BIT, Launch, State, Warp, cmp_lanes, combine};
use ptxas_rs::sass::form::Tables;

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
    Lea { d: u8, a: Src, b: Src, c: Src, sh: u32, m: alu::LeaMods, ci: PArg, co: PArg },
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
    /// `LDG`/`LDS`/`LDL` of `size` bytes (1, 2, 4, 8 or 16) into the `n` registers from `d`
    /// (255: RZ), sub-words extended (`signed`: by sign).
    Ld { d: u8, n: u8, m: MemA, space: MSpace, size: u8, signed: bool },
    /// `STG`/`STS`/`STL` of `size` bytes from the registers from `v` (255: RZ, zeros).
    St { v: u8, m: MemA, space: MSpace, size: u8 },
    /// `BRA` (`.DIV`, `.ANY`) to instruction `t`; `p` its extra predicate (PT when none).
    Bra { t: u32, div: bool, any: bool, p: PArg },
    /// `LDC`/`ULDC` of a constant the program folded into an immediate: `v` the words it
    /// writes (extended as the load's type says) to the `n` registers from `d`.
    Ldc { d: Dst, n: u8, v: [u32; 2] },
    /// `UMOV` to uniform register `d` (63: URZ, not written).
    UMov { d: u8, a: Src },
    /// `IMNMX`/`VIMNMX` (32-bit, one lane per register): the minimum where `p` holds.
    Imnmx { d: u8, a: Src, b: Src, signed: bool, p: PArg },
    /// `PRMT` (`mode`: none for the default byte selection).
    Prmt { d: u8, a: Src, b: Src, c: Src, mode: Option<alu::PrmtMode> },
    /// `IABS` (0), `POPC` (1), `BREV` (2), `FLO` (3, with its flags) of the operand, complemented
    /// first when `inv`.
    Unary { d: u8, a: Src, inv: bool, f: u8, signed: bool, sh: bool },
    /// `PLOP3.LUT`: `pr[0]`, `pr[1]` from the predicates `pr[2..5]` by the two tables.
    Plop3 { pr: [PArg; 5], lut: [u8; 2] },
    /// `S2R` of special register `name` (not the clocks, which read the step count: a run
    /// updates it only at its end); `per_lane`: [`super::sreg_per_lane`].
    S2r { d: u8, name: &'static str, per_lane: bool },
}

/// A destination: a register row (255: RZ) or a uniform register (63: URZ).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Dst {
    R(u8),
    U(u8),
}

/// A memory operand `[Ra(.64) << shift + UR(.64) + off]` (the fields of [`Opnd::Mem`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct MemA {
    ra: u8,
    wide: bool,
    ur: u8,
    ur64: bool,
    shift: u8,
    off: i32,
}

/// The state spaces of the fast loads and stores.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum MSpace {
    Global,
    Shared,
    Local,
}

/// An instruction's fast form with its guard.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Fast {
    guard: PArg,
    op: Op,
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
/// `tables`: the SM's decoder tables (for the special registers' names).
pub(crate) fn lower(inst: &Inst, tables: &Tables) -> Fast {
    Fast { guard: inst.guard, op: lower_op(inst, tables).unwrap_or(Op::Slow) }
}

fn lower_op(inst: &Inst, tables: &Tables) -> Option<Op> {
    let a = &inst.args;
    let pr = &inst.preds;
    let arg = |i: usize| a.get(i);
    let p = |i: usize| pr.get(i).copied();
    let inv = |x: &Arg| x.neg || x.not;
    Some(match inst.kind {
        Kind::Mov if arg(0)?.n == 1 && matches!(arg(0)?.o, Opnd::Ur(_)) => {
            let Opnd::Ur(d) = arg(0)?.o else { return None };
            Op::UMov { d, a: src(arg(1)?)? }
        }
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
            Op::Lea {
                d: dst(arg(0)?)?,
                a: src(xa)?,
                b: src(xb)?,
                c: src(arg(3)?)?,
                sh,
                m: alu::LeaMods::new(hi, x, sx32, (xa.neg, xa.not), (xb.neg, xb.not)),
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
        Kind::Ld { space, size, signed } if fits_regs(arg(0)?, size)? => {
            Op::Ld { d: dst(arg(0)?)?, n: arg(0)?.n, m: mem(arg(1)?)?, space: mspace(space)?, size: size as u8, signed }
        }
        Kind::St { space, size } if fits_regs(arg(1)?, size)? => {
            Op::St { v: dst(arg(1)?)?, m: mem(arg(0)?)?, space: mspace(space)?, size: size as u8 }
        }
        Kind::Ldc { size, signed } if matches!(size, 1 | 2 | 4 | 8) => {
            let (x, Opnd::Imm(v)) = (arg(0)?, arg(1)?.o) else { return None };
            let n = x.n;
            let d = match x.o {
                Opnd::R(r) if r == 255 || u32::from(r) + u32::from(n) <= 255 => Dst::R(r),
                Opnd::Ur(u) => Dst::U(u),
                _ => return None,
            };
            if u32::from(n) != size.div_ceil(4) {
                return None;
            }
            let v = if size < 8 { super::extend(v, size, signed) } else { v };
            Op::Ldc { d, n, v: [v as u32, (v >> 32) as u32] }
        }
        Kind::Imnmx { signed, lanes, wide: false, relu: false } if !matches!(lanes, 2 | 4) => {
            Op::Imnmx { d: dst(arg(0)?)?, a: src(arg(1)?)?, b: src(arg(2)?)?, signed, p: p(0)? }
        }
        Kind::Prmt { mode } => {
            Op::Prmt { d: dst(arg(0)?)?, a: src(arg(1)?)?, b: src(arg(2)?)?, c: src(arg(3)?)?, mode }
        }
        Kind::Iabs | Kind::Popc | Kind::Brev | Kind::Flo { .. } => {
            let (f, signed, sh) = match inst.kind {
                Kind::Iabs => (0, false, false),
                Kind::Popc => (1, false, false),
                Kind::Brev => (2, false, false),
                Kind::Flo { signed, sh } => (3, signed, sh),
                _ => return None,
            };
            let x = arg(1)?;
            Op::Unary { d: dst(arg(0)?)?, a: src(x)?, inv: x.not || x.neg, f, signed, sh }
        }
        Kind::Plop3 => {
            let lut = |x: &Arg| match x.o {
                Opnd::Imm(v) => Some(v as u8),
                _ => None,
            };
            Op::Plop3 { pr: [p(0)?, p(1)?, p(2)?, p(3)?, p(4)?], lut: [lut(arg(0)?)?, lut(arg(1)?)?] }
        }
        // `HADD2`/`HMUL2`/`HFMA2` of constants (`HFMA2.MMA R3, -RZ, RZ, 1.875, 0`: ptxas's way
        // of moving a constant): the same value in every lane, computed here once.
        Kind::H2 { op, m } if op <= 2 => {
            let c = |i: usize| -> Option<u32> {
                let x = arg(i)?;
                let v = match x.o {
                    Opnd::Imm(v) => v as u32,
                    Opnd::R(255) | Opnd::Ur(63) => 0,
                    _ => return None,
                };
                Some(super::hmod(x, &[v; 32])[0])
            };
            let vc = if op == 2 { c(3)? } else { 0 };
            Op::Mov { d: dst(arg(0)?)?, a: Src::I(alu::half2(op, c(1)?, c(2)?, vc, m)) }
        }
        Kind::S2r if inst.base == "S2R" && arg(0)?.n == 1 => {
            let (Opnd::R(d), Opnd::Sr(id)) = (arg(0)?.o, arg(1)?.o) else { return None };
            let name = super::sr_name_in(tables, id);
            if super::sreg_reads_steps(name) {
                return None;
            }
            Op::S2r { d, name, per_lane: super::sreg_per_lane(name) }
        }
        Kind::Bra { div, any } if pr.len() <= 1 => {
            let Opnd::Target(t) = arg(0)?.o else { return None };
            let none = PArg { idx: 7, uniform: false, not: false, dst: false };
            Op::Bra { t, div, any, p: p(0).unwrap_or(none) }
        }
        _ => return None,
    })
}

/// Whether a load's destination or a store's source `a` is a register tuple the access fills
/// exactly (`size` 1, 2, 4, 8 or 16 bytes, one register per word, below RZ), or RZ; `None`
/// when it is not a register.
fn fits_regs(a: &Arg, size: u32) -> Option<bool> {
    let Opnd::R(r) = a.o else { return None };
    let n = size.div_ceil(4);
    Some(matches!(size, 1 | 2 | 4 | 8 | 16) && u32::from(a.n) == n && (r == 255 || u32::from(r) + n <= 255))
}

pub(super) fn mem(a: &Arg) -> Option<MemA> {
    match a.o {
        Opnd::Mem { ra, wide, ur, off, shift, ur64 } => Some(MemA { ra, wide, ur, ur64, shift, off }),
        _ => None,
    }
}

fn mspace(s: Space) -> Option<MSpace> {
    match s {
        Space::Global => Some(MSpace::Global),
        Space::Shared => Some(MSpace::Shared),
        Space::Local => Some(MSpace::Local),
        _ => None,
    }
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
    w.r_hi = w.r_hi.max(d as usize + 1);
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

/// Writes `v` to uniform register `u + k` as `Warp::write_n` does: when a lane of `g` runs,
/// and not to URZ (`u` 63, or `u + k` reaching it).
#[inline(always)]
fn put_u(w: &mut Warp, u: u8, k: u8, v: u32, g: u32) {
    let r = (u + k).min(63);
    if u != 63 && r != 63 && g != 0 {
        w.ur[usize::from(r)] = v;
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

/// The lane mask of `f`: bit `l` set where `f(l)`. Each lane's bit is selected from
/// [`LANE_BIT`] by its flag and the bits or-ed together (a loop and a reduction that vectorise:
/// with AVX-512, a compare, a masked move and an or-reduction).
#[inline(always)]
pub(super) fn mask(f: impl Fn(usize) -> bool) -> u32 {
    let bits: [u32; 32] = each(|l| LANE_BIT[l] & u32::from(f(l)).wrapping_neg());
    bits.iter().fold(0, |m, &b| m | b)
}

/// [`alu::shf`] of every lane by one shift amount `s` (an immediate or a uniform register:
/// the common case), its cases decided once, so that each is a loop of equal shifts, which
/// vectorises.
#[inline(always)]
fn shf_uniform(lo: &[u32; 32], s: u32, hi: &[u32; 32], left: bool, wrap: bool, ty: ShfType, high: bool) -> [u32; 32] {
    let width = if matches!(ty, ShfType::U32 | ShfType::S32) { 32 } else { 64 };
    let s = if wrap { s & (width - 1) } else { s.min(width) };
    let v = |l: usize| (u64::from(hi[l]) << 32) | u64::from(lo[l]);
    let r: [u64; 32] = if left {
        if s >= 64 { [0; 32] } else { each(|l| v(l) << s) }
    } else if matches!(ty, ShfType::S32 | ShfType::S64) {
        let s = s.min(63);
        each(|l| ((v(l) as i64) >> s) as u64)
    } else if s >= 64 {
        [0; 32]
    } else {
        each(|l| v(l) >> s)
    };
    if high { each(|l| (r[l] >> 32) as u32) } else { each(|l| r[l] as u32) }
}

/// An FP32 result's bits, a NaN the canonical one (`alu::finish32` without FTZ or saturation).
#[inline(always)]
fn canon(r: f32) -> u32 {
    if r.is_nan() { alu::NAN32 } else { r.to_bits() }
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

/// Executes `f` for the warp's current group and advances its pc, as [`super::step`] would;
/// `false` when it does not (an [`Op::Slow`] instruction, or a load or store that would fault or
/// that the fast forms do not cover, such as lanes in several allocations), with nothing
/// changed: `step` executes it.
///
/// On x86-64 CPUs with AVX2 and FMA, or AVX-512 (detected at run time by [`isa`], so the
/// build still runs on any x86-64) the same code is compiled again for them: 8 or 16 lanes per
/// vector instead of 4, per-lane shifts and 64-bit compares in one instruction, and `mul_add`
/// as an instruction. The results are the same bit for bit: the code is the same Rust, integer operations do not
/// depend on the instruction set, and Rust never contracts a separate multiply and add into
/// a fused one.
#[inline]
pub(super) fn exec(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, f: &Fast) -> bool {
    #[cfg(target_arch = "x86_64")]
    match isa() {
        // SAFETY: `isa` gives 3 only where the CPU has the features `exec_avx512` requires.
        3 => unsafe { exec_avx512(l, st, cta, w, f) },
        // SAFETY: `isa` gives 2 only where the CPU has the features `exec_avx2` requires.
        2 => unsafe { exec_avx2(l, st, cta, w, f) },
        _ => exec_full::<false>(l, st, cta, w, f),
    }
    #[cfg(not(target_arch = "x86_64"))]
    exec_full::<false>(l, st, cta, w, f)
}

/// Executes the fast forms from the warp's pc on, one after another, as long as they apply
/// ([`exec`]) and the group may run on: at most `budget` instructions, and it stops after an
/// instruction that leaves the group's pc at or past another group's ([`Warp::other`]: the
/// caller regroups) or changes the group (a divergent `BRA`). Returns how many it executed,
/// each marked in [`State::issued`]; the group ran all of them with the lanes it had at the
/// start. What the caller does per instruction otherwise (counting steps and
/// thread-instructions) it does once for the run.
#[inline]
pub(super) fn run(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, budget: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    match isa() {
        // SAFETY: as in `exec`.
        3 => unsafe { run_avx512(l, st, cta, w, budget) },
        // SAFETY: as in `exec`.
        2 => unsafe { run_avx2(l, st, cta, w, budget) },
        _ => run_any::<false>(l, st, cta, w, budget),
    }
    #[cfg(not(target_arch = "x86_64"))]
    run_any::<false>(l, st, cta, w, budget)
}

#[inline(always)]
fn run_any<const FMA: bool>(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, budget: u64) -> u64 {
    let act = w.act;
    let mut n = 0;
    while n < budget {
        let pc = w.pc as usize;
        let Some(f) = l.fast.get(pc) else { break };
        if !exec_full::<FMA>(l, st, cta, w, f) {
            break;
        }
        n += 1;
        if let Some(i) = st.issued.get_mut(pc) {
            *i = true;
        }
        if w.pc >= w.other || w.act != act {
            break;
        }
    }
    n
}

/// [`exec`] for any instruction set: memory and branches here, the ALU in [`exec_any`].
#[inline(always)]
fn exec_full<const FMA: bool>(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, f: &Fast) -> bool {
    match f.op {
        Op::Ld { d, n, m, space, size, signed } => {
            let g = w.act & w.pred(&f.guard);
            load(l, st, cta, w, g, (d, n), m, space, u32::from(size), signed)
        }
        Op::St { v, m, space, size } => {
            let g = w.act & w.pred(&f.guard);
            store(l, st, cta, w, g, v, m, space, u32::from(size))
        }
        Op::Bra { t, div, any, p } => {
            let act = w.act;
            let g = act & w.pred(&f.guard) & w.pred(&p);
            let taken = if div {
                if act != w.live() || g != act { g } else { 0 }
            } else if any {
                if g != 0 { act } else { 0 }
            } else {
                g
            };
            let next = w.pc + 1;
            super::branch(w, taken, t, next);
            true
        }
        Op::S2r { d, name, per_lane } => {
            let g = w.act & w.pred(&f.guard);
            let t = &w.tid;
            let v: [u32; 32] = match name {
                "SR_TID.X" => each(|l| t[l][0]),
                "SR_TID.Y" => each(|l| t[l][1]),
                "SR_TID.Z" => each(|l| t[l][2]),
                "SR_LANEID" => each(|l| l as u32),
                _ if per_lane => {
                    let mut v = [0u32; 32];
                    for lane in super::lanes(g) {
                        match super::sreg(l, st, cta, w, name, lane) {
                            Some(x) => v[lane] = x,
                            None => return false,
                        }
                    }
                    v
                }
                // The same value in every lane: read once.
                _ => match super::sreg(l, st, cta, w, name, g.trailing_zeros() as usize & 31) {
                    Some(x) => [x; 32],
                    None => return false,
                },
            };
            put(w, d, &v, g);
            w.pc += 1;
            true
        }
        _ => exec_any::<FMA>(w, f),
    }
}

/// The address of each lane (`exec::address` of every lane; the general executor's loads and
/// stores use it too).
#[inline(always)]
pub(super) fn addresses(w: &Warp, m: MemA) -> [u64; 32] {
    let u = if m.ur == 63 {
        0
    } else if m.ur64 {
        u64::from(w.ur[m.ur as usize & 63]) | u64::from(w.ur[(m.ur as usize + 1).min(63)]) << 32
    } else {
        u64::from(w.ur[m.ur as usize & 63])
    };
    let k = u.wrapping_add(m.off as i64 as u64);
    let keep = if m.wide || m.ur64 { u64::MAX } else { 0xffff_ffff };
    if m.ra == 255 {
        return [k & keep; 32];
    }
    let lo = &w.r[m.ra as usize];
    if m.wide {
        let hi = &w.r[(m.ra as usize + 1).min(255)];
        each(|l| ((u64::from(lo[l]) | u64::from(hi[l]) << 32) << m.shift).wrapping_add(k))
    } else {
        each(|l| (u64::from(lo[l]) << m.shift).wrapping_add(k) & keep)
    }
}

/// Where the lanes `g` access `size` bytes at `a` in `space`, as offsets in the bytes of the
/// space's array (the global allocation at `base`, the CTA's shared memory, the CTA's local
/// memory), when every access is in bounds and aligned (and, in shared memory, in this CTA's
/// slot), as `step`'s checks require; `None` otherwise. A global access's checks were made
/// in `GlobalMemory::lanes_span`; the others go through `memory::lanes_fit`, the check of
/// `Region`'s warp-wide accesses.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn offsets(
    l: &Launch,
    cta: &Cta,
    w: &Warp,
    space: MSpace,
    a: &[u64; 32],
    g: u32,
    size: u32,
    base: u64,
) -> Option<[u64; 32]> {
    let fit = |addrs: &[u64; 32], lo: u64, len: u64| crate::memory::lanes_fit(addrs, g, size, lo, len);
    match space {
        MSpace::Global => Some(each(|l| a[l].wrapping_sub(base))),
        MSpace::Shared => {
            // `Cta::shared_offset`: the CTA's slot in bits 24..32, the offset below.
            let slot = u64::from(cta.slot);
            let wrong_slot = mask(|l| (a[l] & 0xffff_ffff) >> 24 != slot);
            let o = each(|l| a[l] & 0xff_ffff);
            (wrong_slot & g == 0 && fit(&o, 0, cta.shared.bytes.len() as u64)).then_some(o)
        }
        MSpace::Local => {
            // `Cta::local_range`: the thread's `local_bytes` below `LOCAL_TOP`, threads in order.
            let lb = u64::from(l.local_bytes);
            let low = u64::from(super::super::LOCAL_TOP).checked_sub(lb)?;
            let first = u64::from(w.id) * 32 * lb;
            let o = each(|l| (first + l as u64 * lb).wrapping_add(a[l].wrapping_sub(low)));
            fit(a, low, lb).then_some(o)
        }
    }
}

/// A fast load (see [`exec`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn load(
    l: &Launch,
    st: &State,
    cta: &Cta,
    w: &mut Warp,
    g: u32,
    (d, n): (u8, u8),
    m: MemA,
    space: MSpace,
    size: u32,
    signed: bool,
) -> bool {
    if g != 0 {
        let a = addresses(w, m);
        let mut out = [[0u32; 32]; 4];
        let (base, bytes): (u64, &[u8]) = match space {
            MSpace::Global => match st.global.lanes_span(&a, g, size) {
                Some(x) => x,
                None => return false,
            },
            MSpace::Shared => (0, &cta.shared.bytes),
            MSpace::Local => (0, &cta.local),
        };
        let Some(offs) = offsets(l, cta, w, space, &a, g, size, base) else { return false };
        // Local memory never written reads as zeros.
        if !(space == MSpace::Local && bytes.is_empty()) {
            gather(bytes, &offs, g, size, signed, &mut out);
        }
        if d != 255 {
            for (k, row) in out.iter().enumerate().take(usize::from(n)) {
                put(w, d + k as u8, row, g);
            }
        }
    }
    w.pc += 1;
    true
}

/// A fast store (see [`exec`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn store(
    l: &Launch,
    st: &mut State,
    cta: &mut Cta,
    w: &mut Warp,
    g: u32,
    v: u8,
    m: MemA,
    space: MSpace,
    size: u32,
) -> bool {
    if g != 0 {
        let a = addresses(w, m);
        let vals: [[u32; 32]; 4] =
            std::array::from_fn(|k| if v == 255 { [0; 32] } else { w.r[(v as usize + k).min(255)] });
        match space {
            MSpace::Global => {
                let Some((base, bytes)) = st.global.lanes_span_mut(&a, g, size) else { return false };
                scatter(bytes, &each(|l| a[l].wrapping_sub(base)), g, size, &vals);
            }
            MSpace::Shared => {
                if !cta.shared.writable {
                    return false;
                }
                let Some(offs) = offsets(l, cta, w, space, &a, g, size, 0) else { return false };
                scatter(&mut cta.shared.bytes, &offs, g, size, &vals);
                for lane in super::lanes(g) {
                    cta.generic_store(offs[lane], size, w.id);
                }
            }
            MSpace::Local => {
                let Some(offs) = offsets(l, cta, w, space, &a, g, size, 0) else { return false };
                if cta.local.is_empty() {
                    cta.local = vec![0u8; cta.local_size];
                }
                scatter(&mut cta.local, &offs, g, size, &vals);
            }
        }
    }
    w.pc += 1;
    true
}

/// Reads `size` bytes at each offset of the lanes `g` into the lanes' registers `out` (little
/// endian, one register per word; 1- and 2-byte values extended, by sign when `signed`).
/// Offsets outside `bytes` read as zero (the callers checked them).
#[inline(always)]
fn gather(bytes: &[u8], offs: &[u64; 32], g: u32, size: u32, signed: bool, out: &mut [[u32; 32]; 4]) {
    fn at<const N: usize>(bytes: &[u8], o: u64) -> [u8; N] {
        let o = o as usize;
        bytes.get(o..o.wrapping_add(N)).and_then(|b| b.try_into().ok()).unwrap_or([0; N])
    }
    let word = |b: &[u8], k: usize| u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]]);
    // One loop per size (the size decided once, outside the lanes).
    match size {
        1 => {
            for lane in super::lanes(g) {
                let [b] = at::<1>(bytes, offs[lane]);
                out[0][lane] = if signed { b as i8 as i32 as u32 } else { u32::from(b) };
            }
        }
        2 => {
            for lane in super::lanes(g) {
                let h = u16::from_le_bytes(at::<2>(bytes, offs[lane]));
                out[0][lane] = if signed { h as i16 as i32 as u32 } else { u32::from(h) };
            }
        }
        4 if bytes.len() >= 4 => {
            // Every lane read (each offset clamped into the array, so that no read can fail
            // and the loop vectorises into a gather); the lanes outside `g` are not written.
            let last = bytes.len() - 4;
            out[0] = each(|l| {
                let o = (offs[l] as usize).min(last);
                u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap_or_default())
            });
        }
        8 => {
            for lane in super::lanes(g) {
                let b = at::<8>(bytes, offs[lane]);
                out[0][lane] = word(&b, 0);
                out[1][lane] = word(&b, 1);
            }
        }
        _ => {
            for lane in super::lanes(g) {
                let b = at::<16>(bytes, offs[lane]);
                for (k, row) in out.iter_mut().enumerate() {
                    row[lane] = word(&b, k);
                }
            }
        }
    }
}

/// Writes the low `size` bytes of each lane's registers `vals` at its offset, lanes of `g` in
/// order (a later lane's store wins); offsets outside `bytes` are skipped (the callers checked
/// them).
#[inline(always)]
fn scatter(bytes: &mut [u8], offs: &[u64; 32], g: u32, size: u32, vals: &[[u32; 32]; 4]) {
    let n = size as usize;
    for lane in super::lanes(g) {
        let o = offs[lane] as usize;
        let mut b = [0u8; 16];
        for (k, row) in vals.iter().enumerate().take(n.div_ceil(4)) {
            b[4 * k..4 * k + 4].copy_from_slice(&row[lane].to_le_bytes());
        }
        if let Some(dst) = bytes.get_mut(o..o.wrapping_add(n)) {
            dst.copy_from_slice(&b[..n]);
        }
    }
}

/// The vector extensions of this CPU the fast path uses: 3 AVX-512 (F, BW, DQ, VL) with
/// FMA, 2 AVX2 with FMA, 1 neither; detected once.
#[cfg(target_arch = "x86_64")]
#[inline]
fn isa() -> u8 {
    use std::sync::atomic::{AtomicU8, Ordering};
    static ISA: AtomicU8 = AtomicU8::new(0);
    let known = ISA.load(Ordering::Relaxed);
    if known != 0 {
        return known;
    }
    let has = |avx512: bool| {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && (!avx512
                || std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx512vl"))
    };
    let level = if has(true) {
        3
    } else if has(false) {
        2
    } else {
        1
    };
    ISA.store(level, Ordering::Relaxed);
    level
}

/// [`exec_full`] compiled for AVX-512 (F, BW, DQ, VL) and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
unsafe fn exec_avx512(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, f: &Fast) -> bool {
    exec_full::<true>(l, st, cta, w, f)
}

/// [`exec_full`] compiled for AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn exec_avx2(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, f: &Fast) -> bool {
    exec_full::<true>(l, st, cta, w, f)
}

/// [`run_any`] compiled for AVX-512 (F, BW, DQ, VL) and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
unsafe fn run_avx512(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, budget: u64) -> u64 {
    run_any::<true>(l, st, cta, w, budget)
}

/// [`run_any`] compiled for AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_avx2(l: &Launch, st: &mut State, cta: &mut Cta, w: &mut Warp, budget: u64) -> u64 {
    run_any::<true>(l, st, cta, w, budget)
}

/// [`exec_any`] compiled for AVX2 and FMA (for the test that compares the compilations).
#[cfg(all(test, target_arch = "x86_64"))]
#[target_feature(enable = "avx2,fma")]
unsafe fn alu_avx2(w: &mut Warp, f: &Fast) -> bool {
    exec_any::<true>(w, f)
}

/// [`exec_any`] compiled for AVX-512 (for the test that compares the compilations).
#[cfg(all(test, target_arch = "x86_64"))]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
unsafe fn alu_avx512(w: &mut Warp, f: &Fast) -> bool {
    exec_any::<true>(w, f)
}

/// The ALU fast forms for any instruction set (`false`, nothing done, for the others).
/// `FMA`: compiled where `mul_add` is a vector instruction (the FFMA of every lane is then one
/// fused operation; elsewhere it is computed in f64 and only the lanes where that is not a
/// single rounding call `mul_add`, a library routine there: the same results).
#[inline(always)]
fn exec_any<const FMA: bool>(w: &mut Warp, f: &Fast) -> bool {
    let g = w.act & w.pred(&f.guard);
    match f.op {
        Op::Slow | Op::Ld { .. } | Op::St { .. } | Op::Bra { .. } | Op::S2r { .. } => return false,
        Op::Ldc { d, n, v } => {
            for (k, &x) in v.iter().enumerate().take(usize::from(n)) {
                match d {
                    Dst::R(255) => {}
                    Dst::R(r) => put(w, r + k as u8, &[x; 32], g),
                    Dst::U(u) => put_u(w, u, k as u8, x, g),
                }
            }
        }
        Op::Imnmx { d, a, b, signed, p } => {
            let (va, vb) = (rd(w, a), rd(w, b));
            let p = w.pred(&p);
            let lt = if signed { mask(|l| (va[l] as i32) < (vb[l] as i32)) } else { mask(|l| va[l] < vb[l]) };
            // `x` where `lt == min`, else `y`.
            let pick = !(lt ^ p);
            let r: [u32; 32] = each(|l| {
                let take = u32::from(pick & LANE_BIT[l] != 0).wrapping_neg();
                (va[l] & take) | (vb[l] & !take)
            });
            put(w, d, &r, g);
        }
        Op::Prmt { d, a, b, c, mode } => {
            let (va, vb, vc) = (rd(w, a), rd(w, b), rd(w, c));
            let r: [u32; 32] = match mode {
                None => each(|l| alu::prmt(va[l], vb[l], vc[l])),
                Some(m) => each(|l| alu::prmt_mode(va[l], vb[l], vc[l], m)),
            };
            put(w, d, &r, g);
        }
        Op::Unary { d, a, inv, f: op, signed, sh } => {
            let mut va = rd(w, a);
            if inv {
                va.iter_mut().for_each(|v| *v = !*v);
            }
            let r: [u32; 32] = match op {
                0 => each(|l| (va[l] as i32).unsigned_abs()),
                1 => each(|l| va[l].count_ones()),
                2 => each(|l| va[l].reverse_bits()),
                _ => each(|l| alu::flo(va[l], signed, sh)),
            };
            put(w, d, &r, g);
        }
        Op::Plop3 { pr, lut } => {
            let (pa, pb, pc) = (w.pred(&pr[2]), w.pred(&pr[3]), w.pred(&pr[4]));
            let r1 = alu::lop3(pa, pb, pc, lut[0]);
            let r2 = alu::lop3(pa, pb, pc, lut[1]);
            w.set_pred(&pr[0], r1, g);
            w.set_pred(&pr[1], r2, g);
        }
        Op::UMov { d, a } => {
            let v = rd(w, a);
            put_u(w, d, 0, v[g.trailing_zeros() as usize & 31], g);
        }
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
                return true;
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
                return true;
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
                return true;
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
        Op::Lea { d, a, b, c, sh, m, ci, co } => {
            let (va, vb, vc) = (rd(w, a), rd(w, b), rd(w, c));
            let cin = w.pred(&ci);
            let s: [(u32, bool); 32] = each(|l| alu::lea(va[l], vb[l], vc[l], sh, m, bit(cin, l) == 1));
            let cm = mask(|l| s[l].1);
            put(w, d, &each(|l| s[l].0), g);
            w.set_pred(&co, cm & g, g);
        }
        Op::Lop3 { d, a, b, c, lut, pin, po } => {
            let (va, vb, vc) = (rd(w, a), rd(w, b), rd(w, c));
            let r: [u32; 32] = each(|l| alu::lop3(va[l], vb[l], vc[l], lut));
            if po.idx >= 7 {
                put(w, d, &r, g);
                w.pc += 1;
                return true;
            }
            let pm = mask(|l| r[l] != 0) | w.pred(&pin);
            put(w, d, &r, g);
            w.set_pred(&po, pm & g, g);
        }
        Op::Shf { d, a, b, c, left, wrap, ty, hi } => {
            let (va, vb, vc) = (rd(w, a), rd(w, b), rd(w, c));
            let r: [u32; 32] = if matches!(b, Src::R(_)) {
                each(|l| alu::shf(va[l], vb[l], vc[l], left, wrap, ty, hi))
            } else {
                shf_uniform(&va, vb[0], &vc, left, wrap, ty, hi)
            };
            put(w, d, &r, g);
        }
        Op::Sel { d, a, b, p } => {
            let (va, vb) = (rd(w, a), rd(w, b));
            let p = w.pred(&p);
            let r: [u32; 32] = each(|l| {
                // A blend by a lane mask (a per-lane `if` on the rows compiles to a gather).
                let take = u32::from(p & LANE_BIT[l] != 0).wrapping_neg();
                (va[l] & take) | (vb[l] & !take)
            });
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
            // The function decided once, outside the lanes (with it a constant, `alu::mufu`
            // folds to one expression, which vectorises).
            let r = match f {
                MufuFn::Rcp => each(|l| alu::mufu(MufuFn::Rcp, va[l])),
                MufuFn::Rsq => each(|l| alu::mufu(MufuFn::Rsq, va[l])),
                MufuFn::Sqrt => each(|l| alu::mufu(MufuFn::Sqrt, va[l])),
                MufuFn::Ex2 => each(|l| alu::mufu(MufuFn::Ex2, va[l])),
                MufuFn::Lg2 => each(|l| alu::mufu(MufuFn::Lg2, va[l])),
                _ => each(|l| alu::mufu(f, va[l])),
            };
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
                // The common case (`alu::fadd`/`fmul`/`ffma` to nearest, no FTZ, no saturation):
                // the f32 operation, a NaN result canonical.
                (0, Rnd::Rn, false, false) => each(|l| canon(f32::from_bits(va[l]) + f32::from_bits(vb[l]))),
                (1, Rnd::Rn, false, false) => each(|l| canon(f32::from_bits(va[l]) * f32::from_bits(vb[l]))),
                (2.., Rnd::Rn, false, false) if FMA => {
                    let (x, y, z) = (va.map(f32::from_bits), vb.map(f32::from_bits), vc.map(f32::from_bits));
                    each(|l| canon(x[l].mul_add(y[l], z[l])))
                }
                (2.., Rnd::Rn, false, false) => {
                    // `alu::fma32` in two passes: every lane in f64 (a loop that vectorises),
                    // then `mul_add` for the lanes where that is not the single rounding.
                    let (x, y, z) = (va.map(f32::from_bits), vb.map(f32::from_bits), vc.map(f32::from_bits));
                    let s: [f64; 32] = each(|l| f64::from(x[l]) * f64::from(y[l]) + f64::from(z[l]));
                    let mut r = each(|l| canon(s[l] as f32));
                    for l in super::lanes(!mask(|l| alu::fma32_rounds_once(s[l]))) {
                        r[l] = canon(x[l].mul_add(y[l], z[l]));
                    }
                    r
                }
                (0, ..) => each(|l| alu::fadd(va[l], vb[l], rnd, ftz, sat)),
                (1, ..) => each(|l| alu::fmul(va[l], vb[l], rnd, ftz, sat)),
                _ => each(|l| alu::ffma(va[l], vb[l], vc[l], rnd, ftz, sat)),
            };
            put(w, d, &r, g);
        }
    }
    w.pc += 1;
    true
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

#[cfg(test)]
mod shf_tests {
    use super::super::super::alu::{self, ShfType};
    use super::shf_uniform;

    #[test]
    fn uniform_shift_agrees_with_alu_shf() {
        let lo: [u32; 32] = std::array::from_fn(|l| 0x9e37_79b9u32.wrapping_mul(l as u32 + 1));
        let hi: [u32; 32] = std::array::from_fn(|l| 0x8000_0001u32.rotate_left(l as u32) ^ lo[l]);
        for ty in [ShfType::U32, ShfType::S32, ShfType::U64, ShfType::S64] {
            for s in [0, 1, 5, 31, 32, 33, 63, 64, 65, 200, u32::MAX] {
                for (left, wrap, high) in (0..8).map(|b| (b & 1 == 1, b & 2 == 2, b & 4 == 4)) {
                    let r = shf_uniform(&lo, s, &hi, left, wrap, ty, high);
                    for l in 0..32 {
                        assert_eq!(
                            r[l],
                            alu::shf(lo[l], s, hi[l], left, wrap, ty, high),
                            "{ty:?} {s} {left} {wrap} {high}"
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod isa_tests {
    use super::super::super::alu::{BoolOp, Cmp, MufuFn, Rnd, ShfType};
    use super::super::super::program::PArg;
    use super::super::Warp;
    use super::{Fast, Op, Src, Src64, exec_any};

    fn p(idx: u8) -> PArg {
        PArg { idx, uniform: false, not: false, dst: false }
    }

    /// A warp with pseudo-random registers (special FP values among them) and predicates.
    fn warp(seed: u32) -> Warp {
        let mut w = Warp::new(0, u32::MAX, 0, [[0; 3]; 32], None, None);
        let mut x = seed | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let special = [0, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 1, 0x0080_0000, 0x3f80_0000];
        for row in w.r.iter_mut().take(16) {
            for v in row.iter_mut() {
                let r = next();
                *v = if r % 5 == 0 { special[(r >> 8) as usize % special.len()] } else { next() };
            }
        }
        w.r_hi = 16;
        for u in w.ur.iter_mut().take(8) {
            *u = next();
        }
        for q in w.p.iter_mut().take(7) {
            *q = next();
        }
        w.act = next() | 1;
        w
    }

    /// The fast forms executed by the portable code and by each compilation for the CPU's
    /// vector extensions give the same registers and predicates.
    #[test]
    fn every_compilation_gives_the_same_results() {
        let (r, u, i) = (Src::R, Src::U, Src::I);
        let ops = [
            Op::Mov { d: 3, a: r(4) },
            Op::Iadd3 {
                d: 2,
                s: [r(1), u(2), r(3)],
                inv: [false, true, false],
                x: false,
                ci: [p(7); 2],
                co: [p(0), p(1)],
            },
            Op::Iadd3 {
                d: 2,
                s: [r(1), i(5), r(3)],
                inv: [true, false, true],
                x: true,
                ci: [p(2), p(3)],
                co: [p(0), p(7)],
            },
            Op::Iadd3 { d: 5, s: [r(1), r(2), r(3)], inv: [false; 3], x: false, ci: [p(7); 2], co: [p(7); 2] },
            Op::Imad { d: 6, a: r(1), b: r(2), c: r(3), cneg: true, x: false, ci: p(7), co: p(7) },
            Op::Imad { d: 6, a: r(1), b: i(3), c: r(3), cneg: false, x: true, ci: p(2), co: p(1) },
            Op::ImadWide {
                d: 6,
                a: r(1),
                b: r(2),
                c: Src64::R(8),
                cneg: false,
                x: false,
                hi: false,
                signed: true,
                ci: p(7),
                co: p(7),
            },
            Op::ImadWide {
                d: 6,
                a: r(1),
                b: u(1),
                c: Src64::U(2),
                cneg: true,
                x: true,
                hi: false,
                signed: false,
                ci: p(3),
                co: p(4),
            },
            Op::ImadWide {
                d: 6,
                a: r(1),
                b: r(9),
                c: Src64::I(7),
                cneg: false,
                x: false,
                hi: true,
                signed: false,
                ci: p(7),
                co: p(0),
            },
            Op::Lea {
                d: 7,
                a: r(1),
                b: r(2),
                c: r(3),
                sh: 5,
                m: super::super::super::alu::LeaMods::new(true, false, true, (true, false), (true, false)),
                ci: p(7),
                co: p(0),
            },
            Op::Lea {
                d: 7,
                a: r(1),
                b: u(2),
                c: r(3),
                sh: 2,
                m: super::super::super::alu::LeaMods::new(false, true, false, (false, true), (false, false)),
                ci: p(1),
                co: p(2),
            },
            Op::Lop3 { d: 8, a: r(1), b: r(2), c: i(0xff), lut: 0x96, pin: p(3), po: p(0) },
            Op::Shf { d: 9, a: r(1), b: r(2), c: r(3), left: false, wrap: false, ty: ShfType::S64, hi: true },
            Op::Shf { d: 9, a: r(1), b: i(3), c: r(3), left: true, wrap: true, ty: ShfType::U32, hi: false },
            Op::Shf { d: 9, a: r(1), b: u(1), c: r(3), left: false, wrap: false, ty: ShfType::U64, hi: false },
            Op::Sel { d: 10, a: r(1), b: i(7), p: PArg { not: true, ..p(2) } },
            Op::Viadd { d: 11, a: r(1), b: r(2), bnot: true, bneg: true },
            Op::Isetp {
                a: r(1),
                b: r(2),
                inv: [(false, false); 2],
                cmp: Cmp::Lt,
                signed: true,
                bop: BoolOp::And,
                ex: false,
                pr: [p(0), p(1), p(2), p(2)],
            },
            Op::Isetp {
                a: r(1),
                b: u(2),
                inv: [(true, false), (false, true)],
                cmp: Cmp::Ge,
                signed: false,
                bop: BoolOp::Xor,
                ex: true,
                pr: [p(3), p(7), p(4), p(5)],
            },
            Op::Fsetp {
                a: r(1),
                b: r(2),
                m: [(true, false), (false, true)],
                cmp: Cmp::Ltu,
                ftz: true,
                bop: BoolOp::Or,
                pr: [p(0), p(1), p(6)],
            },
            Op::Mufu { f: MufuFn::Rsq, d: 12, a: r(1), m: (true, false) },
            Op::Ldc { d: super::Dst::R(12), n: 2, v: [0x8000_0001, 0x7fff_fffe] },
            Op::Ldc { d: super::Dst::U(5), n: 2, v: [0xdead_beef, 3] },
            Op::UMov { d: 6, a: u(2) },
            Op::Imnmx { d: 7, a: r(1), b: r(2), signed: true, p: p(3) },
            Op::Imnmx { d: 7, a: r(1), b: i(0x8000_0000), signed: false, p: PArg { not: true, ..p(7) } },
            Op::Prmt { d: 8, a: r(1), b: r(2), c: r(3), mode: None },
            Op::Unary { d: 9, a: r(1), inv: true, f: 3, signed: true, sh: true },
            Op::Unary { d: 9, a: r(2), inv: false, f: 0, signed: false, sh: false },
            Op::Plop3 { pr: [p(0), p(1), p(2), p(3), p(4)], lut: [0x96, 0xe8] },
            Op::Fp32 {
                op: 0,
                d: 13,
                s: [r(1), r(2), r(3)],
                m: [(false, false); 3],
                rnd: Rnd::Rn,
                ftz: false,
                sat: false,
            },
            Op::Fp32 {
                op: 1,
                d: 13,
                s: [r(1), u(2), r(3)],
                m: [(false, true); 3],
                rnd: Rnd::Rz,
                ftz: true,
                sat: false,
            },
            Op::Fp32 {
                op: 2,
                d: 13,
                s: [r(1), r(2), r(3)],
                m: [(false, false); 3],
                rnd: Rnd::Rn,
                ftz: false,
                sat: false,
            },
            Op::Fp32 {
                op: 2,
                d: 13,
                s: [r(4), r(5), r(6)],
                m: [(true, false), (false, false), (false, true)],
                rnd: Rnd::Rm,
                ftz: false,
                sat: true,
            },
        ];
        for (k, op) in ops.into_iter().enumerate() {
            for seed in 1..40u32 {
                let f =
                    Fast { guard: PArg { idx: (seed % 8) as u8, uniform: false, not: seed % 3 == 0, dst: false }, op };
                let mut want = warp(seed * 7919 + k as u32);
                assert!(exec_any::<false>(&mut want, &f));
                let mut runs: Vec<(&str, Warp)> = Vec::new();
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
                    let mut w = warp(seed * 7919 + k as u32);
                    // SAFETY: the features `alu_avx2` requires were just detected.
                    assert!(unsafe { super::alu_avx2(&mut w, &f) });
                    runs.push(("avx2", w));
                }
                #[cfg(target_arch = "x86_64")]
                if super::isa() == 3 {
                    let mut w = warp(seed * 7919 + k as u32);
                    // SAFETY: `isa` gives 3 only where the CPU has the features `alu_avx512` requires.
                    assert!(unsafe { super::alu_avx512(&mut w, &f) });
                    runs.push(("avx512", w));
                }
                for (name, got) in runs {
                    assert!(
                        got.r == want.r && got.p == want.p && got.ur == want.ur && got.pc == want.pc,
                        "{name}: {op:?}, seed {seed}"
                    );
                }
            }
        }
    }
}
