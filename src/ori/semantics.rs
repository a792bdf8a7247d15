//! The one table of operation semantics: what each pure opcode computes, bit-exactly.
//!
//! [`eval`] dispatches on the opcode's [`Sem`] key from the opcode table, so every opcode that
//! means the same thing (`add.f32` and `FADD`, `IADD3` and `UIADD3`) runs the same code. The
//! interpreter executes with it and constant folding folds with it; neither re-implements an
//! operation.
//!
//! Inputs are the values of the instruction's sources, in signature order, with the per-use
//! modifiers still attached ([`Arg`]); `eval` applies them with the operation's meaning
//! (float sign operations for float types, two's complement / bitwise for integers, logical
//! not for predicates). Outputs are the destination values in order.
//!
//! Exactness:
//! - Integers wrap at the type width; `.sat` on `s32` add/sub saturates.
//! - Floats (f16, f32, f64) are correctly rounded in `rn/rz/rm/rp` by [`super::float`]; NaN
//!   results are canonical; `.ftz` flushes subnormal inputs and results; `.sat` clamps to
//!   [0, 1] with NaN to 0. f16 and bf16 arithmetic rounds once, in its own format. Packed
//!   `f16x2`/`bf16x2` operations apply the scalar operation to each half; a packed comparison
//!   (one predicate per half) is refused here and lowered half by half instead.
//! - `neg`/`abs` on floats add -0 as ptxas's selection does: a NaN operand gives the
//!   adder's NaN (canonical for f32/f16/bf16, the quieted operand for f64).
//! - `.relu` (conversions to f16/bf16, f16/bf16 `fma`, `min/max.s32`): a negative result
//!   becomes +0 (-0 included), a NaN result the canonical NaN.
//! - Float `min`/`max` (`FMNMX`, `HMNMX2`): a NaN operand gives the other operand, `-0 < +0`;
//!   with `.NaN` ([`Flag::NaN`]) a NaN operand gives the canonical NaN ([`float::min_nan`]).
//!   `.xorsign` ([`Flag::Xorsign`]): min/max of the magnitudes, a non-NaN result signed with the
//!   XOR of the operands' signs (before `|x|`).
//! - Integer division by zero gives all ones (unsigned) / -1 (signed), remainder by zero the
//!   dividend; `MIN / -1` wraps. PTX leaves these undefined; these values are ours and are to
//!   be calibrated against hardware.
//! - Shifts: amounts are unsigned; amounts ≥ width give 0 (left, logical right) or the sign
//!   fill (arithmetic right).
//! - Values wider than 64 bits are unsupported here.
//! - Carry chains (`addc`, `subc`, `madc`) take the carry in as a predicate source and give it
//!   out as a second, predicate destination. It is always a carry, as PTX's CC.CF: `subc`
//!   computes `a + ~b + cin` (so `a - b - !cin`) and gives that sum's carry-out (1 = no borrow);
//!   a `sub.cc` without carry in is `subc` with `cin = 1`.
//! - `rcp`/`sqrt` with a rounding mode are exact (correctly rounded). Approximate functions
//!   (`.approx` `rcp sqrt rsqrt ex2 lg2 sin cos tanh`, SASS `MUFU`) are computed in host `f64`
//!   (Rust's `std` functions, deterministic on one host) and rounded to nearest f32: the result
//!   is within 1 ulp of the true value, whereas the hardware's MUFU is specified to 2 ulp
//!   (ex2, rsqrt, rcp), 2^-20.5 absolute error in [-pi, pi] (sin, cos) or 2^-10.987 relative
//!   (tanh); compare them with a tolerance. `div.approx.f32`/`div.full.f32` are PTX's
//!   a * (1/b) with that reciprocal and ptxas's range guards (so bit-exact with the SASS
//!   sequence, not correctly rounded: within PTX's 2 ulp bound). Approximate f64 forms (`rcp.approx.ftz.f64`,
//!   `rsqrt.approx.f64`) are computed the same way in f64.
//! - SASS `MUFU.SIN`/`MUFU.COS` take their argument in revolutions (x · 2π radians), as the
//!   hardware does; PTX `sin`/`cos` take radians. Every SASS `MUFU` flushes subnormal inputs
//!   and results whatever the modifiers say.

use std::cmp::Ordering;
use std::fmt;

use super::float::{self, BF16, F16, F32, F64, Format};
use super::mods::{BoolOp, Cmp, Dir, Flag, Half, Mods, Mufu, Rnd, SubOp, Ty};
use super::opcode::{Opcode, Sem};

/// A register value: a predicate, or up to 64 data bits (32-bit values in the low half).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    /// A predicate.
    Pred(bool),
    /// Data bits.
    Bits(u64),
}

impl Val {
    /// The data bits (a predicate reads as 0/1).
    pub fn bits(self) -> u64 {
        match self {
            Val::Bits(b) => b,
            Val::Pred(p) => u64::from(p),
        }
    }
    /// The predicate (nonzero data reads as true).
    pub fn pred(self) -> bool {
        match self {
            Val::Pred(p) => p,
            Val::Bits(b) => b != 0,
        }
    }
}

/// A source value with its per-use modifiers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The value read.
    pub val: Val,
    /// Negate.
    pub neg: bool,
    /// Absolute value.
    pub abs: bool,
    /// Invert.
    pub not: bool,
}

impl Arg {
    /// A plain data value.
    pub fn bits(b: u64) -> Arg {
        Arg { val: Val::Bits(b), neg: false, abs: false, not: false }
    }
    /// A plain predicate value.
    pub fn pred(p: bool) -> Arg {
        Arg { val: Val::Pred(p), neg: false, abs: false, not: false }
    }
}

impl From<Val> for Arg {
    fn from(val: Val) -> Arg {
        Arg { val, neg: false, abs: false, not: false }
    }
}

/// Why an operation could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// The opcode has no pure semantics (memory, control flow, barriers, phi): the
    /// interpreter must handle it.
    NotPure(Opcode),
    /// A form this table does not model yet (f16, approximations, >64-bit values).
    Unsupported(String),
    /// The operands do not fit the opcode (the verifier would have rejected them).
    BadOperands(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::NotPure(op) => write!(f, "`{op}` has no pure semantics"),
            EvalError::Unsupported(m) => write!(f, "unsupported: {m}"),
            EvalError::BadOperands(m) => write!(f, "bad operands: {m}"),
        }
    }
}

impl std::error::Error for EvalError {}

type R = Result<Vec<Val>, EvalError>;

fn mask(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

fn fmt_of(t: Ty) -> Result<Format, EvalError> {
    match t {
        Ty::F16 => Ok(F16),
        Ty::BF16 => Ok(BF16),
        Ty::F32 => Ok(F32),
        Ty::F64 => Ok(F64),
        t => Err(EvalError::Unsupported(format!("float type {t}"))),
    }
}

/// Evaluates `op` with modifiers `mods` on `args`.
pub fn eval(op: Opcode, mods: &Mods, args: &[Arg]) -> R {
    // SASS DADD/DMUL/DFMA with two NaN operands keep the NaN of slot B, then C, then A (golden
    // of f64_round_modes; the emulator's `alu::nan64_operand`), while `float` ranks PTX's
    // operands a, c, b: evaluate with A and B exchanged (the same number otherwise: both
    // operations commute). An operand's `-`/`|.|` leaves a NaN as it is (golden of
    // f64_minmax_cmp: `abs.f64` of 0xffffffffffffffff, selected as `DADD |x|, -0`, keeps the sign).
    let swapped: Vec<Arg>;
    let args = if matches!(op, Opcode::DADD | Opcode::DMUL | Opcode::DFMA) && args.len() >= 2 {
        let keep_nan = |a: &Arg| match a.val {
            Val::Bits(b) if float::is_nan(F64, b) => Arg { abs: false, neg: false, ..*a },
            _ => *a,
        };
        swapped = [&args[1..2], &args[..1], &args[2..]].concat().iter().map(keep_nan).collect();
        &swapped[..]
    } else {
        args
    };
    let info = op.info();
    let ty = mods.ty.or(info.default_ty);
    if let Some(pt @ (Ty::F16x2 | Ty::BF16x2)) = ty
        && !matches!(info.sem, Sem::Mov | Sem::Selp | Sem::Cvt | Sem::CvtPack | Sem::None)
    {
        return packed(op, mods, args, if pt == Ty::F16x2 { Ty::F16 } else { Ty::BF16 });
    }
    let need = |n: usize| -> Result<(), EvalError> {
        if args.len() == n {
            Ok(())
        } else {
            Err(EvalError::BadOperands(format!("`{op}` takes {n} operand(s), got {}", args.len())))
        }
    };
    let ty_or = |d: Ty| ty.unwrap_or(d);
    match info.sem {
        Sem::None => Err(EvalError::NotPure(op)),
        Sem::Mufu => {
            need(1)?;
            let func = mods.mufu.ok_or_else(|| EvalError::BadOperands("MUFU needs a function".into()))?;
            // The unit flushes subnormal inputs and results whatever the modifiers say (as the
            // emulator's MUFU; on an H200, `MUFU.SQRT` of a negative subnormal gives -0.0).
            let ftz = Mods { flags: vec![Flag::Ftz], ..mods.clone() };
            if ty == Some(Ty::F16) {
                // `MUFU.{EX2,TANH}.F16`: the function of the low f16 half, rounded once to f16
                // in the low half (the high half 0); no flush (the emulator's `mufu_f16`).
                if !matches!(func, Mufu::Ex2 | Mufu::Tanh) {
                    return Err(EvalError::Unsupported(format!("MUFU.{func:?}.F16")));
                }
                let h = Arg { val: Val::Bits(args[0].val.bits() & 0xFFFF), ..args[0] };
                return Ok(vec![Val::Bits(approx(F16, func, h, &Mods::new()))]);
            }
            if matches!(func, Mufu::Rcp64h | Mufu::Rsq64h) {
                // The exact f64 function of the operand as an f64 high word (low word 0),
                // truncated to its high word; a NaN gives 0x7fffffff (the emulator's `mufu`).
                let a = args[0].val.bits() & 0xFFFF_FFFF;
                let x = f64::from_bits(a << 32);
                let r = if func == Mufu::Rcp64h { 1.0 / x } else { 1.0 / x.sqrt() };
                return Ok(vec![Val::Bits(if r.is_nan() { 0x7FFF_FFFF } else { r.to_bits() >> 32 })]);
            }
            let r = match func {
                Mufu::Sin | Mufu::Cos => mufu_trig(func, args[0]),
                _ => approx(F32, func, args[0], &ftz),
            };
            Ok(vec![Val::Bits(r)])
        }
        Sem::Rcp | Sem::Sqrt | Sem::Rsqrt | Sem::Ex2 | Sem::Lg2 | Sem::Sin | Sem::Cos | Sem::Tanh => {
            need(1)?;
            let f = fmt_of(ty_or(Ty::F32))?;
            let exact = !mods.has(Flag::Approx) && mods.rnd.is_some();
            let r = match info.sem {
                Sem::Rcp if exact => fout(
                    f,
                    float::div(
                        f,
                        float::convert(F64, f, 1f64.to_bits(), Rnd::Rn),
                        farg(f, args[0], mods),
                        rnd_of(mods),
                    ),
                    mods,
                ),
                Sem::Sqrt if exact => fout(f, float::sqrt(f, farg(f, args[0], mods), rnd_of(mods)), mods),
                s => {
                    let func = match s {
                        Sem::Rcp => Mufu::Rcp,
                        Sem::Sqrt => Mufu::Sqrt,
                        Sem::Rsqrt => Mufu::Rsq,
                        Sem::Ex2 => Mufu::Ex2,
                        Sem::Lg2 => Mufu::Lg2,
                        Sem::Sin => Mufu::Sin,
                        Sem::Cos => Mufu::Cos,
                        _ => Mufu::Tanh,
                    };
                    approx(f, func, args[0], mods)
                }
            };
            Ok(vec![Val::Bits(r)])
        }
        Sem::Addc | Sem::Subc | Sem::Madc => {
            let n = if info.sem == Sem::Madc { 4 } else { 3 };
            need(n)?;
            let t = ty_or(Ty::U32);
            let w = t.bits();
            let cin = u64::from(pred_arg(args[n - 1]));
            let (a, b) = (int_arg(args[0], w), int_arg(args[1], w));
            let wide = |x: u64| -> u128 { u128::from(x) };
            let (r, carry) = match info.sem {
                Sem::Addc => {
                    let s = wide(a) + wide(b) + wide(cin);
                    (s as u64 & mask(w), (s >> w) & 1 == 1)
                }
                Sem::Subc => {
                    // PTX's CC.CF after a subtraction is the carry-out of `a + ~b + CF`: 1 means
                    // no borrow, and `subc` consumes it as such (ptxas: IADD3.X a, ~b).
                    let s = wide(a) + wide(!b & mask(w)) + wide(cin);
                    (s as u64 & mask(w), (s >> w) & 1 == 1)
                }
                _ => {
                    let p = if t.is_signed() {
                        (i128::from(sext(a, w)) * i128::from(sext(b, w))) as u128
                    } else {
                        wide(a) * wide(b)
                    };
                    let p = match mods.half.unwrap_or(Half::Lo) {
                        Half::Hi => (p >> w) as u64 & mask(w),
                        _ => p as u64 & mask(w),
                    };
                    let s = wide(p) + wide(int_arg(args[2], w)) + wide(cin);
                    (s as u64 & mask(w), (s >> w) & 1 == 1)
                }
            };
            Ok(vec![Val::Bits(r), Val::Pred(carry)])
        }
        Sem::Bfe => {
            need(3)?;
            let t = ty_or(Ty::U32);
            let w = t.bits();
            let a = int_arg(args[0], w);
            let pos = int_arg(args[1], 32) & 0xFF;
            let len = int_arg(args[2], 32) & 0xFF;
            let msb = pos.saturating_add(len).saturating_sub(1).min(u64::from(w) - 1);
            let sbit = if t.is_signed() && len != 0 { (a >> msb) & 1 } else { 0 };
            let mut r = 0u64;
            for i in 0..u64::from(w) {
                let bit = if i < len && pos + i < u64::from(w) { (a >> (pos + i)) & 1 } else { sbit };
                r |= bit << i;
            }
            Ok(vec![Val::Bits(r & mask(w))])
        }
        Sem::Bfi => {
            need(4)?;
            let t = ty_or(Ty::B32);
            let w = u64::from(t.bits());
            let (a, b) = (int_arg(args[0], t.bits()), int_arg(args[1], t.bits()));
            let pos = int_arg(args[2], 32) & 0xFF;
            let len = int_arg(args[3], 32) & 0xFF;
            let mut r = b;
            for i in 0..len {
                if pos + i >= w {
                    break;
                }
                r = (r & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
            }
            Ok(vec![Val::Bits(r & mask(t.bits()))])
        }
        Sem::Bfind => {
            need(1)?;
            let t = ty_or(Ty::U32);
            let w = t.bits();
            let mut a = int_arg(args[0], w);
            if t.is_signed() && (a >> (w - 1)) & 1 == 1 {
                a = !a & mask(w);
            }
            let r = if a == 0 {
                0xFFFF_FFFF
            } else {
                let idx = u64::from(63 - a.leading_zeros());
                if mods.sub == Some(SubOp::ShiftAmt) { u64::from(w - 1) - idx } else { idx }
            };
            Ok(vec![Val::Bits(r)])
        }
        Sem::Fns => {
            need(3)?;
            let mask_v = int_arg(args[0], 32);
            let base = int_arg(args[1], 32);
            let offset = sext(int_arg(args[2], 32), 32);
            if base >= 32 {
                return Ok(vec![Val::Bits(0xFFFF_FFFF)]);
            }
            // PTX fns: find the n-th set bit (n = |offset|), searching up (offset > 0) or down
            // (offset < 0) from `base`; offset 0 asks whether `base` itself is set.
            let r = if offset == 0 {
                if (mask_v >> base) & 1 == 1 { base } else { 0xFFFF_FFFF }
            } else {
                let mut n = offset.unsigned_abs();
                let mut found = 0xFFFF_FFFF;
                let mut pos = base as i64;
                while (0..32).contains(&pos) {
                    if (mask_v >> pos) & 1 == 1 {
                        n -= 1;
                        if n == 0 {
                            found = pos as u64;
                            break;
                        }
                    }
                    pos += if offset > 0 { 1 } else { -1 };
                }
                found
            };
            Ok(vec![Val::Bits(r)])
        }
        Sem::Bmsk => {
            need(2)?;
            let (mut a, mut b) = (int_arg(args[0], 32), int_arg(args[1], 32));
            if mods.sub == Some(SubOp::Wrap) {
                a &= 31;
                b &= 31;
            } else {
                a = a.min(32);
                b = b.min(32);
            }
            let hi = (a + b).min(32);
            let r = (mask(hi as u32) & !mask(a as u32)) & 0xFFFF_FFFF;
            Ok(vec![Val::Bits(r)])
        }
        Sem::Szext => {
            // The PTX ISA's pseudocode: N = b & 31, or "too large" (all of `a`) for `.clamp`
            // with b >= 32; N = 0 gives 0.
            need(2)?;
            let (a, b) = (int_arg(args[0], 32) as u32, int_arg(args[1], 32) as u32);
            let b1 = b & 31;
            let too_large = b >= 32 && mods.sub != Some(SubOp::Wrap);
            let mask = if too_large { 0 } else { u32::MAX << b1 };
            let signed = mods.ty.is_some_and(Ty::is_signed);
            let sign = !(b1 == 0 || too_large || !signed) && (a >> ((b1.wrapping_sub(1)) & 31)) & 1 == 1;
            let r = (a & !mask) | if sign { mask } else { 0 };
            Ok(vec![Val::Bits(u64::from(r))])
        }
        Sem::ShfPtx => {
            need(3)?;
            let dir = mods.dir.ok_or_else(|| EvalError::BadOperands("shf needs a direction".into()))?;
            let (lo, hi, n) = (int_arg(args[0], 32), int_arg(args[1], 32), int_arg(args[2], 32));
            let n = if mods.sub == Some(SubOp::Clamp) { n.min(32) } else { n & 31 };
            let v = (hi << 32) | lo;
            let r = match dir {
                Dir::L => ((v << n) >> 32) & 0xFFFF_FFFF,
                Dir::R => (v >> n) & 0xFFFF_FFFF,
            };
            Ok(vec![Val::Bits(r)])
        }
        Sem::Sad => {
            need(3)?;
            let t = ty_or(Ty::U32);
            let w = t.bits();
            let (a, b, c) = (int_arg(args[0], w), int_arg(args[1], w), int_arg(args[2], w));
            let d = if t.is_signed() { sext(a, w).abs_diff(sext(b, w)) } else { a.abs_diff(b) };
            Ok(vec![Val::Bits(d.wrapping_add(c) & mask(w))])
        }
        Sem::Copysign => {
            need(2)?;
            let f = fmt_of(ty_or(Ty::F32))?;
            let sign = 1u64 << (f.bits - 1);
            let (a, b) = (int_arg(args[0], f.bits), int_arg(args[1], f.bits));
            Ok(vec![Val::Bits((b & !sign) | (a & sign))])
        }
        Sem::Testp => {
            need(1)?;
            let f = fmt_of(ty_or(Ty::F32))?;
            let a = int_arg(args[0], f.bits);
            let nan = float::is_nan(f, a);
            let exp_all = (a >> f.frac) & mask(f.exp) == mask(f.exp);
            let inf = exp_all && !nan;
            let sub = float::is_subnormal(f, a);
            let r = match mods.sub {
                Some(SubOp::Finite) => !exp_all,
                Some(SubOp::Infinite) => inf,
                Some(SubOp::Number) => !nan,
                Some(SubOp::NotANumber) => nan,
                // PTX ISA: "as a special case, positive and negative zero are considered
                // normal numbers" (and ptxas's code agrees: `|a| == 0 || 2^-126 <= |a| < inf`).
                Some(SubOp::Normal) => !exp_all && !sub,
                Some(SubOp::Subnormal) => sub,
                _ => return Err(EvalError::BadOperands("testp needs a class".into())),
            };
            Ok(vec![Val::Pred(r)])
        }
        // ---- added by isel ----
        Sem::IAdd3C => {
            need(3)?;
            // A negated source enters the adder as `~x + 1` (so `a - 0` carries out).
            let term = |a: Arg| -> u64 {
                let v = Arg { neg: false, ..a };
                let x = int_arg(v, 32);
                if a.neg { (!x & mask(32)) + 1 } else { x }
            };
            let s: u64 = args.iter().map(|a| term(*a)).sum();
            Ok(vec![Val::Bits(s & mask(32)), Val::Pred((s >> 32) & 1 == 1)])
        }
        Sem::IAdd3X => {
            need(4)?;
            let s = args[..3].iter().fold(0u64, |acc, a| acc.wrapping_add(int_arg(*a, 32)));
            Ok(vec![Val::Bits(s.wrapping_add(u64::from(pred_arg(args[3]))) & mask(32))])
        }
        Sem::SetpX => {
            need(4)?;
            let c = mods.cmp.ok_or_else(|| EvalError::BadOperands("no comparison".into()))?;
            let t = ty_or(Ty::S32);
            let (a, b) = (int_arg(args[0], 32), int_arg(args[1], 32));
            let o = if t.is_signed() { int_cmp(a, b, 32, true) } else { a.cmp(&b) };
            let low = pred_arg(args[3]);
            let r = match c {
                Cmp::Eq => o == Ordering::Equal && low,
                Cmp::Ne => o != Ordering::Equal || low,
                Cmp::Lt | Cmp::Le | Cmp::Lo | Cmp::Ls => o == Ordering::Less || (o == Ordering::Equal && low),
                Cmp::Gt | Cmp::Ge | Cmp::Hi | Cmp::Hs => o == Ordering::Greater || (o == Ordering::Equal && low),
                c => return Err(EvalError::BadOperands(format!("ISETPX cannot compare `{c}`"))),
            };
            let p = pred_arg(args[2]);
            let comb = |x: bool| match mods.bop.unwrap_or(BoolOp::And) {
                BoolOp::And => x && p,
                BoolOp::Or => x || p,
                BoolOp::Xor => x != p,
            };
            Ok(vec![Val::Pred(comb(r)), Val::Pred(comb(!r))])
        }
        Sem::Pack64 => {
            need(2)?;
            Ok(vec![Val::Bits(int_arg(args[0], 32) | (int_arg(args[1], 32) << 32))])
        }
        Sem::Unpack64 => {
            need(1)?;
            let v = int_arg(args[0], 64);
            Ok(vec![Val::Bits(v & mask(32)), Val::Bits(v >> 32)])
        }
        Sem::Vop | Sem::VopAdd => {
            let acc = info.sem == Sem::VopAdd;
            let (Some(dt), Some(st)) = (ty, mods.src_ty) else {
                return Err(EvalError::BadOperands("a SIMD video operation needs two types".into()));
            };
            let lanes: u32 =
                if matches!(op, Opcode::Vop2 | Opcode::Vop2Add | Opcode::VIADD2 | Opcode::VIMNMX2) { 2 } else { 4 };
            let full = if lanes == 2 { (0x10, 0x32, 0x3) } else { (0x3210, 0x7654, 0xf) };
            // PTX stage: a, b, c, a-selector, b-selector, mask, b signed; SASS stage: a, b (and c
            // for the accumulating form) with the default selectors, full mask and b typed as a.
            let v = |i: usize| int_arg(args[i], 32);
            let (a, b, c, asel, bsel, dmask, bs) = match args.len() {
                7 => (v(0), v(1), v(2), v(3), v(4), v(5), v(6) != 0),
                2 if !acc => (v(0), v(1), 0, full.0, full.1, full.2, st.is_signed()),
                3 if acc => (v(0), v(1), v(2), full.0, full.1, full.2, st.is_signed()),
                n => return Err(EvalError::BadOperands(format!("`{op}` with {n} operands"))),
            };
            let r = video_lanes(lanes, mods, (st.is_signed(), bs), a, b, asel, bsel)?;
            let bits = 32 / lanes;
            if acc {
                let sum =
                    (0..lanes as usize).filter(|i| dmask >> i & 1 == 1).fold(c as i64, |s, i| s.wrapping_add(r[i]));
                return Ok(vec![Val::Bits(sum as u64 & mask(32))]);
            }
            let sat = mods.has(Flag::Sat);
            let (lo, hi) = if dt.is_signed() {
                (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
            } else {
                (0, (1i64 << bits) - 1)
            };
            let d = r.iter().enumerate().fold(0u64, |d, (i, v)| {
                let lane = if dmask >> i & 1 == 1 {
                    (if sat { (*v).clamp(lo, hi) } else { *v }) as u64
                } else {
                    c >> (bits * i as u32)
                };
                d | (lane & mask(bits)) << (bits * i as u32)
            });
            Ok(vec![Val::Bits(d)])
        }
        Sem::Dp4a | Sem::Dp2a => {
            need(3)?;
            let (Some(ta), Some(tb)) = (ty, mods.src_ty) else {
                return Err(EvalError::BadOperands("dp4a/dp2a need two types".into()));
            };
            let (a, b, c) = (int_arg(args[0], 32), int_arg(args[1], 32), int_arg(args[2], 32));
            let part = |v: u64, i: u32, bits: u32, signed: bool| -> i64 {
                let x = (v >> (i * bits)) & mask(bits);
                if signed { sext(x, bits) } else { x as i64 }
            };
            let mut acc = c as i64;
            if info.sem == Sem::Dp4a {
                for i in 0..4 {
                    acc = acc.wrapping_add(part(a, i, 8, ta.is_signed()) * part(b, i, 8, tb.is_signed()));
                }
            } else {
                let off = if mods.half == Some(Half::Hi) { 2 } else { 0 };
                for i in 0..2 {
                    acc = acc.wrapping_add(part(a, i, 16, ta.is_signed()) * part(b, i + off, 8, tb.is_signed()));
                }
            }
            Ok(vec![Val::Bits(acc as u64 & mask(32))])
        }
        Sem::Mov => {
            need(1)?;
            let t = ty_or(Ty::B32);
            if t == Ty::Pred {
                return Ok(vec![Val::Pred(pred_arg(args[0]))]);
            }
            Ok(vec![Val::Bits(int_arg(args[0], t.bits().min(64)))])
        }
        Sem::Add | Sem::Sub => {
            need(2)?;
            let t = ty_or(Ty::S32);
            let sub = info.sem == Sem::Sub;
            if t.is_float() {
                let f = fmt_of(t)?;
                let (a, b) = (farg(f, args[0], mods), farg(f, args[1], mods));
                let rnd = mods.rnd.unwrap_or(Rnd::Rn);
                let r = if sub { float::sub(f, a, b, rnd) } else { float::add(f, a, b, rnd) };
                return Ok(vec![Val::Bits(fout(f, r, mods))]);
            }
            let w = t.bits();
            let (a, b) = (int_arg(args[0], w), int_arg(args[1], w));
            if mods.has(Flag::Sat) && t == Ty::S32 {
                let (a, b) = (a as u32 as i32, b as u32 as i32);
                let r = if sub { a.saturating_sub(b) } else { a.saturating_add(b) };
                return Ok(vec![Val::Bits(u64::from(r as u32))]);
            }
            let r = if sub { a.wrapping_sub(b) } else { a.wrapping_add(b) };
            Ok(vec![Val::Bits(r & mask(w))])
        }
        Sem::Mul | Sem::Mad | Sem::IMad => {
            let mad = info.sem != Sem::Mul;
            need(if mad { 3 } else { 2 })?;
            let t = ty_or(Ty::U32);
            if t.is_float() {
                let f = fmt_of(t)?;
                let rnd = mods.rnd.unwrap_or(Rnd::Rn);
                let (a, b) = (farg(f, args[0], mods), farg(f, args[1], mods));
                let r = if mad { float::fma(f, a, b, farg(f, args[2], mods), rnd) } else { float::mul(f, a, b, rnd) };
                return Ok(vec![Val::Bits(fout(f, r, mods))]);
            }
            let w = t.bits();
            let half = mods.half.unwrap_or(Half::Lo);
            let (a, b) = (int_arg(args[0], w), int_arg(args[1], w));
            let wide = |x: u64| -> i128 { if t.is_signed() { i128::from(sext(x, w)) } else { i128::from(x) } };
            let p = wide(a).wrapping_mul(wide(b));
            let (r, rw) = match half {
                Half::Lo => (p as u64, w),
                Half::Hi => ((p >> w) as u64, w),
                Half::Wide => (p as u64, 2 * w),
            };
            // `mad.hi.sat.s32`: the high word plus c, saturated to s32 (PTX; ptxas's
            // `IMAD.HI`, `IADD3`, then `PLOP3` on the signs and two `SEL`s).
            if mad && mods.has(Flag::Sat) && t == Ty::S32 && half == Half::Hi {
                let c = i64::from(int_arg(args[2], 32) as u32 as i32);
                let r = (i64::from(r as u32 as i32) + c).clamp(i64::from(i32::MIN), i64::from(i32::MAX));
                return Ok(vec![Val::Bits(u64::from(r as i32 as u32))]);
            }
            let r = if mad { r.wrapping_add(int_arg(args[2], rw)) } else { r };
            Ok(vec![Val::Bits(r & mask(rw))])
        }
        Sem::Fma => {
            need(3)?;
            let f = fmt_of(ty_or(Ty::F32))?;
            let arg = |a: Arg| farg(f, contracted_arg(f, mods, a), mods);
            let (a, b, c) = (arg(args[0]), arg(args[1]), arg(args[2]));
            let r = float::fma(f, a, b, c, mods.rnd.unwrap_or(Rnd::Rn));
            Ok(vec![Val::Bits(fout(f, r, mods))])
        }
        Sem::Div | Sem::Rem => {
            need(2)?;
            let t = ty_or(Ty::U32);
            if t.is_float() {
                if info.sem == Sem::Rem {
                    return Err(EvalError::Unsupported(format!("`{op}` on floats")));
                }
                // `div.approx.f32`/`div.full.f32`: PTX's a * (1/b) (see `div_approx_f32`); other
                // floats without a rounding mode are computed correctly rounded.
                let f = fmt_of(t)?;
                let (a, b) = (farg(f, args[0], mods), farg(f, args[1], mods));
                if t == Ty::F32 && mods.rnd.is_none() && (mods.has(Flag::Approx) || mods.has(Flag::Full)) {
                    return Ok(vec![Val::Bits(fout(f, div_approx_f32(a, b, mods), mods))]);
                }
                let r = float::div(f, a, b, mods.rnd.unwrap_or(Rnd::Rn));
                return Ok(vec![Val::Bits(fout(f, r, mods))]);
            }
            let w = t.bits();
            let (a, b) = (int_arg(args[0], w), int_arg(args[1], w));
            // In 64-bit host arithmetic on sign-extended values, MIN / -1 of a narrower type
            // does not overflow; masking wraps it to MIN.
            let r = if t.is_signed() {
                let (a, b) = (sext(a, w), sext(b, w));
                (match (b, info.sem) {
                    (0, Sem::Div) => -1,
                    (0, _) => a,
                    (_, Sem::Div) => a.wrapping_div(b),
                    _ => a.wrapping_rem(b),
                }) as u64
            } else {
                match (b, info.sem) {
                    (0, Sem::Div) => u64::MAX,
                    (0, _) => a,
                    (_, Sem::Div) => a / b,
                    _ => a % b,
                }
            };
            Ok(vec![Val::Bits(r & mask(w))])
        }
        Sem::Min | Sem::Max | Sem::Mnmx => {
            let is_min = match info.sem {
                Sem::Min => true,
                Sem::Max => false,
                _ => {
                    need(3)?;
                    pred_arg(args[2])
                }
            };
            if info.sem != Sem::Mnmx {
                need(2)?;
            }
            let t = ty_or(Ty::S32);
            if t.is_float() {
                let f = fmt_of(t)?;
                let xorsign = mods.has(Flag::Xorsign);
                // `.xorsign`: compare magnitudes (`|x|` forced on both operands).
                let mag = |a: Arg| if xorsign { Arg { abs: true, ..a } } else { a };
                let (a, b) = (farg(f, mag(args[0]), mods), farg(f, mag(args[1]), mods));
                let r = match (is_min, mods.has(Flag::NaN)) {
                    (true, false) => float::min(f, a, b),
                    (false, false) => float::max(f, a, b),
                    (true, true) => float::min_nan(f, a, b),
                    (false, true) => float::max_nan(f, a, b),
                };
                let r = fout(f, r, mods);
                if xorsign && !float::is_nan(f, r) {
                    // The sign bits before `|x|` (negation applied), XORed onto the result.
                    let sign = 1u64 << (f.bits - 1);
                    let raw = |a: Arg| farg(f, Arg { abs: false, ..a }, mods);
                    return Ok(vec![Val::Bits((r & !sign) | ((raw(args[0]) ^ raw(args[1])) & sign))]);
                }
                return Ok(vec![Val::Bits(r)]);
            }
            let w = t.bits();
            let (a, b) = (int_arg(args[0], w), int_arg(args[1], w));
            let ord = int_cmp(a, b, w, t.is_signed());
            let a_first = (ord != Ordering::Greater) == is_min;
            let r = if a_first { a } else { b };
            // `.relu` (`min/max.relu.s32`): a negative result becomes 0.
            let r = if mods.has(Flag::Relu) && t.is_signed() && sext(r, w) < 0 { 0 } else { r };
            Ok(vec![Val::Bits(r)])
        }
        Sem::Abs | Sem::Neg => {
            need(1)?;
            let t = ty_or(Ty::S32);
            if t.is_float() {
                let f = fmt_of(t)?;
                let a = farg(f, args[0], mods);
                let sign = 1u64 << (f.bits - 1);
                // ptxas selects an addition of -0 (`|x| + -0`, `-x + -0`: FADD/DADD for f32/f64,
                // HADD2/HFMA2 for f16/bf16 and their x2 forms) for abs and neg, so a NaN operand
                // comes out as the adder's NaN (f32, f16, bf16: canonical, goldens of
                // f32_minmax_sign `-fabsf(NaN)`, f16_half2_arith and bf16_arith2 `__hneg2`/
                // `__habs2`; f64: the NaN quieted, sign not flipped).
                let r = if float::is_nan(f, a) {
                    float::nan_operand(f, &[a]).unwrap_or(float::canonical_nan(f))
                } else if info.sem == Sem::Abs {
                    a & !sign
                } else {
                    a ^ sign
                };
                return Ok(vec![Val::Bits(fout(f, r, mods))]);
            }
            let w = t.bits();
            let a = sext(int_arg(args[0], w), w);
            let r = if info.sem == Sem::Abs { a.wrapping_abs() } else { a.wrapping_neg() };
            Ok(vec![Val::Bits(r as u64 & mask(w))])
        }
        Sem::And | Sem::Or | Sem::Xor | Sem::Not => {
            need(if info.sem == Sem::Not { 1 } else { 2 })?;
            let t = ty_or(Ty::B32);
            if t == Ty::Pred {
                let a = pred_arg(args[0]);
                let b = args.get(1).is_some_and(|x| pred_arg(*x));
                let r = match info.sem {
                    Sem::And => a && b,
                    Sem::Or => a || b,
                    Sem::Xor => a != b,
                    _ => !a,
                };
                return Ok(vec![Val::Pred(r)]);
            }
            let w = t.bits();
            let a = int_arg(args[0], w);
            let b = args.get(1).map_or(0, |x| int_arg(*x, w));
            let r = match info.sem {
                Sem::And => a & b,
                Sem::Or => a | b,
                Sem::Xor => a ^ b,
                _ => !a,
            };
            Ok(vec![Val::Bits(r & mask(w))])
        }
        Sem::Shl | Sem::Shr => {
            need(2)?;
            let t = ty_or(Ty::B32);
            let w = t.bits();
            let a = int_arg(args[0], w);
            let s = int_arg(args[1], 32);
            let r = if info.sem == Sem::Shl {
                if s >= u64::from(w) { 0 } else { a << s }
            } else if t.is_signed() {
                (sext(a, w) >> s.min(u64::from(w) - 1)) as u64
            } else if s >= u64::from(w) {
                0
            } else {
                a >> s
            };
            Ok(vec![Val::Bits(r & mask(w))])
        }
        Sem::Popc | Sem::Clz | Sem::Brev => {
            need(1)?;
            let t = ty_or(Ty::B32);
            let w = t.bits();
            let a = int_arg(args[0], w);
            let r = match info.sem {
                Sem::Popc => u64::from(a.count_ones()),
                Sem::Clz => u64::from(a.leading_zeros() - (64 - w)),
                _ => a.reverse_bits() >> (64 - w),
            };
            Ok(vec![Val::Bits(r)])
        }
        Sem::Flo => {
            need(1)?;
            let t = ty_or(Ty::U32);
            let mut a = int_arg(args[0], 32);
            if t.is_signed() && a & 0x8000_0000 != 0 {
                a = !a & 0xFFFF_FFFF;
            }
            Ok(vec![Val::Bits(if a == 0 { 0xFFFF_FFFF } else { u64::from(63 - a.leading_zeros()) })])
        }
        Sem::Setp => {
            need(2)?;
            let c = mods.cmp.ok_or_else(|| EvalError::BadOperands("no comparison".into()))?;
            Ok(vec![Val::Pred(compare(ty_or(Ty::S32), c, args[0], args[1], mods)?)])
        }
        Sem::SetpBop => {
            need(3)?;
            let c = mods.cmp.ok_or_else(|| EvalError::BadOperands("no comparison".into()))?;
            let r = compare(ty_or(Ty::S32), c, args[0], args[1], mods)?;
            let p = pred_arg(args[2]);
            let bop = mods.bop.unwrap_or(BoolOp::And);
            let comb = |x: bool| match bop {
                BoolOp::And => x && p,
                BoolOp::Or => x || p,
                BoolOp::Xor => x != p,
            };
            Ok(vec![Val::Pred(comb(r)), Val::Pred(comb(!r))])
        }
        Sem::Selp | Sem::Sel => {
            need(3)?;
            let t = ty_or(Ty::B32);
            let p = pred_arg(args[2]);
            let pick = if p { args[0] } else { args[1] };
            if t == Ty::Pred {
                return Ok(vec![Val::Pred(pred_arg(pick))]);
            }
            Ok(vec![Val::Bits(int_arg(pick, t.bits()))])
        }
        Sem::IAdd3 => {
            need(3)?;
            let r = args.iter().fold(0u64, |acc, a| acc.wrapping_add(int_arg(*a, 32)));
            Ok(vec![Val::Bits(r & mask(32))])
        }
        Sem::Lop3 => {
            need(4)?;
            let (a, b, c) = (int_arg(args[0], 32), int_arg(args[1], 32), int_arg(args[2], 32));
            let lut = args[3].val.bits() & 0xFF;
            let mut r = 0u64;
            for i in 0..32 {
                let idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
                r |= ((lut >> idx) & 1) << i;
            }
            Ok(vec![Val::Bits(r)])
        }
        Sem::PLop3 => {
            need(5)?;
            let (a, b, c) = (pred_arg(args[0]), pred_arg(args[1]), pred_arg(args[2]));
            let idx = (u64::from(a) << 2) | (u64::from(b) << 1) | u64::from(c);
            let l = |x: Arg| (x.val.bits() >> idx) & 1 == 1;
            Ok(vec![Val::Pred(l(args[3])), Val::Pred(l(args[4]))])
        }
        Sem::Shf => {
            need(3)?;
            let t = ty.ok_or_else(|| EvalError::BadOperands("SHF needs a type".into()))?;
            let dir = mods.dir.ok_or_else(|| EvalError::BadOperands("SHF needs a direction".into()))?;
            let (lo, s, hi) = (int_arg(args[0], 32), int_arg(args[1], 32), int_arg(args[2], 32));
            let limit = if t.bits() == 64 { 64 } else { 32 };
            let s = s.min(limit) as u32;
            let v = (hi << 32) | lo;
            let r: u64 = match dir {
                Dir::L => ((u128::from(v) << s) & u128::from(u64::MAX)) as u64,
                Dir::R if t.is_signed() => ((v as i64) >> s.min(63)) as u64,
                Dir::R => {
                    if s >= 64 {
                        0
                    } else {
                        v >> s
                    }
                }
            };
            let word = if mods.has(Flag::HiWord) { r >> 32 } else { r & 0xFFFF_FFFF };
            Ok(vec![Val::Bits(word)])
        }
        Sem::Prmt => {
            need(3)?;
            let (a, sel, b) = (int_arg(args[0], 32), int_arg(args[1], 32), int_arg(args[2], 32));
            let src = (b << 32) | a;
            if let Some(mode) = mods.sub {
                let byte = |i: u64| (src >> (8 * (i & 7))) & 0xFF;
                let s = sel & 3;
                let idx: [u64; 4] = match mode {
                    SubOp::F4e => [s, s + 1, s + 2, s + 3],
                    SubOp::B4e => [s, s.wrapping_sub(1) & 7, s.wrapping_sub(2) & 7, s.wrapping_sub(3) & 7],
                    SubOp::Rc8 => [s; 4],
                    SubOp::Ecl => [s, s.max(1), s.max(2), 3],
                    SubOp::Ecr => [0, s.min(1), s.min(2), s],
                    SubOp::Rc16 => {
                        let h = (s & 1) * 2;
                        [h, h + 1, h, h + 1]
                    }
                    m => return Err(EvalError::BadOperands(format!("prmt mode `{m}`"))),
                };
                let r = idx.iter().enumerate().fold(0u64, |r, (i, &k)| r | (byte(k) << (8 * i)));
                return Ok(vec![Val::Bits(r)]);
            }
            let mut r = 0u64;
            for i in 0..4 {
                let s = (sel >> (4 * i)) & 0xF;
                let byte = (src >> (8 * (s & 7))) & 0xFF;
                let byte = if s & 8 != 0 { if byte & 0x80 != 0 { 0xFF } else { 0 } } else { byte };
                r |= byte << (8 * i);
            }
            Ok(vec![Val::Bits(r)])
        }
        Sem::CvtPack => {
            let (Some(dt), Some(st)) = (ty, mods.src_ty) else {
                return Err(EvalError::BadOperands("conversion needs two types".into()));
            };
            let bits: Vec<u64> = args.iter().map(|a| int_arg(*a, 32)).collect();
            Ok(vec![Val::Bits(cvt_pack(dt, st, mods, &bits)?)])
        }
        Sem::Cvt => {
            need(1)?;
            let (Some(dt), Some(st)) = (ty, mods.src_ty) else {
                return Err(EvalError::BadOperands("conversion needs two types".into()));
            };
            Ok(vec![Val::Bits(convert(dt, st, args[0], mods)?)])
        }
    }
}

/// Evaluates `op` like [`eval`], except that a contracted `fma` ([`Flag::Contract`]) is
/// computed as the `mul` and `add` it stands for, each rounded (to nearest): `round(round(a *
/// b) + c)`, the `mul` with the fma's `.ftz`, the `add` with its `.ftz` and `.sat` (phase 9
/// fuses only pairs whose modifiers agree so: see `opt::create_macro`). This is what the
/// program meant before contraction; translation validation runs a contracting phase's output
/// so and compares it bit-exactly with its input. The sum is `add(product, c)`: for a pair
/// written `add c, product` (or `sub c, product`) the only difference is which NaN an f64 sum
/// of two NaNs keeps (the payload, which PTX leaves unspecified).
pub fn eval_unfused(op: Opcode, mods: &Mods, args: &[Arg]) -> R {
    let info = op.info();
    if !mods.has(Flag::Contract) || info.sem != Sem::Fma {
        return eval(op, mods, args);
    }
    if args.len() != 3 {
        return Err(EvalError::BadOperands(format!("`{op}` takes 3 operand(s), got {}", args.len())));
    }
    let ty = mods.ty.or(info.default_ty);
    let keep = |fs: &[Flag]| fs.iter().copied().filter(|f| mods.has(*f)).collect::<Vec<_>>();
    let mul = Mods { ty, flags: keep(&[Flag::Ftz]), ..Mods::new() };
    let add = Mods { ty, flags: keep(&[Flag::Ftz, Flag::Sat]), ..Mods::new() };
    let strip = |a: Arg| match ty.and_then(|t| fmt_of(t).ok()) {
        Some(f) => contracted_arg(f, mods, a),
        None => a,
    };
    let (a, b, c) = (strip(args[0]), strip(args[1]), strip(args[2]));
    let Some(&p) = eval(Opcode::Mul, &mul, &[a, b])?.first() else {
        return Err(EvalError::BadOperands("`mul` gave no result".into()));
    };
    eval(Opcode::Add, &add, &[Arg::from(p), c])
}

/// An operand of a contracted `fma`: its negation stands for the `sub` it came from, which
/// keeps an f64 NaN's sign (as DFMA's operand negation does), so a negated f64 NaN is read
/// unnegated.
fn contracted_arg(f: Format, mods: &Mods, a: Arg) -> Arg {
    match a.val {
        Val::Bits(b) if a.neg && f == F64 && mods.has(Flag::Contract) && float::is_nan(f, b & mask(f.bits)) => {
            Arg { neg: false, ..a }
        }
        _ => a,
    }
}

/// A packed `f16x2`/`bf16x2` operation: the scalar operation (type `elem`) on the low halves
/// and on the high halves (data sources split; predicate sources shared), results packed low
/// half first. Predicate results (packed comparisons) are refused.
fn packed(op: Opcode, mods: &Mods, args: &[Arg], elem: Ty) -> R {
    let half = |hi: bool| -> Vec<Arg> {
        args.iter()
            .map(|a| match a.val {
                Val::Bits(b) => Arg { val: Val::Bits(if hi { (b >> 16) & 0xFFFF } else { b & 0xFFFF }), ..*a },
                Val::Pred(_) => *a,
            })
            .collect()
    };
    let m16 = Mods { ty: Some(elem), ..mods.clone() };
    let (lo, hi) = (eval(op, &m16, &half(false))?, eval(op, &m16, &half(true))?);
    lo.iter()
        .zip(&hi)
        .map(|(l, h)| match (l, h) {
            (Val::Bits(l), Val::Bits(h)) => Ok(Val::Bits((l & 0xFFFF) | ((h & 0xFFFF) << 16))),
            // A comparison of packed halves has one predicate per half: the lowering compares
            // the halves one by one instead.
            _ => Err(EvalError::BadOperands(format!("`{op}` on packed halves gives a predicate per half"))),
        })
        .collect()
}

fn rnd_of(mods: &Mods) -> Rnd {
    mods.rnd.map_or(Rnd::Rn, Rnd::direction)
}

/// An approximate special function (see the module doc for the precision): computed in host
/// `f64`, rounded to nearest in format `f`, `.ftz` applied to the input and the result.
fn approx(f: Format, func: Mufu, a: Arg, mods: &Mods) -> u64 {
    let x = float::convert(f, F64, farg(f, a, mods), Rnd::Rn);
    let x = f64::from_bits(x);
    let r = match func {
        Mufu::Rcp => 1.0 / x,
        Mufu::Rsq => 1.0 / x.sqrt(),
        Mufu::Sqrt => x.sqrt(),
        Mufu::Sin => x.sin(),
        Mufu::Cos => x.cos(),
        Mufu::Ex2 => x.exp2(),
        Mufu::Lg2 => x.log2(),
        Mufu::Tanh => x.tanh(),
        Mufu::Rcp64h => 1.0 / x,
        Mufu::Rsq64h => 1.0 / x.sqrt(),
    };
    let bits = if r.is_nan() { float::canonical_nan(F64) } else { r.to_bits() };
    let out = float::convert(F64, f, bits, Rnd::Rn);
    if mods.has(Flag::Ftz) { float::flush(f, out) } else { out }
}

/// `div.approx.f32` / `div.full.f32` of operands already read (`farg`): PTX defines them as
/// a * (1/b), the reciprocal being `MUFU.RCP`'s (flushing subnormal inputs and results), with
/// ptxas's range guards: `.full` scales both operands by 2^-2 when |b| > 2^126 (so the
/// reciprocal stays normal; `.approx` gives a * 0 there), and without `.ftz` a subnormal
/// divisor scales both by 2^24. Each step rounds to nearest f32 (FMUL), flushing under `.ftz`.
fn div_approx_f32(mut a: u64, mut b: u64, mods: &Mods) -> u64 {
    let ftz = mods.has(Flag::Ftz);
    let fmul = |x: u64, y: u64| {
        let r = float::mul(F32, x, y, Rnd::Rn);
        if ftz { float::flush(F32, r) } else { r }
    };
    let mag = b & 0x7FFF_FFFF;
    if mods.has(Flag::Full) && !float::is_nan(F32, b) && mag > 0x7E80_0000 {
        (a, b) = (fmul(a, 0x3E80_0000), fmul(b, 0x3E80_0000)); // 2^-2
    } else if !ftz && mag < 0x0080_0000 {
        (a, b) = (fmul(a, 0x4B80_0000), fmul(b, 0x4B80_0000)); // 2^24
    }
    let flush = Mods { flags: vec![Flag::Ftz], ..Mods::new() };
    let rcp = approx(F32, Mufu::Rcp, Arg { val: Val::Bits(b), neg: false, abs: false, not: false }, &flush);
    fmul(a, rcp)
}

/// SASS `MUFU.SIN`/`MUFU.COS`: the argument is in *revolutions* (ptxas multiplies a PTX
/// `sin`/`cos` argument by 1/(2π) with `FMUL.RZ` first); the unit flushes subnormal inputs and
/// results whatever the modifiers say. Computed in host `f64` and rounded to nearest f32.
fn mufu_trig(func: Mufu, a: Arg) -> u64 {
    let ftz = Mods { flags: vec![Flag::Ftz], ..Mods::new() };
    let x = float::convert(F32, F64, farg(F32, a, &ftz), Rnd::Rn);
    let x = f64::from_bits(x) * std::f64::consts::TAU;
    let r = if func == Mufu::Sin { x.sin() } else { x.cos() };
    let bits = if r.is_nan() { float::canonical_nan(F64) } else { r.to_bits() };
    float::flush(F32, float::convert(F64, F32, bits, Rnd::Rn))
}

fn pred_arg(a: Arg) -> bool {
    a.val.pred() != a.not
}

/// An integer/bits operand at width `w` with its modifiers (abs, then neg, then not).
fn int_arg(a: Arg, w: u32) -> u64 {
    let mut v = a.val.bits() & mask(w);
    if a.abs {
        v = sext(v, w).wrapping_abs() as u64;
    }
    if a.neg {
        v = v.wrapping_neg();
    }
    if a.not {
        v = !v;
    }
    v & mask(w)
}

/// A float operand with its modifiers (abs, neg), flushed under `.ftz`.
fn farg(f: Format, a: Arg, mods: &Mods) -> u64 {
    let sign = 1u64 << (f.bits - 1);
    let mut v = a.val.bits() & mask(f.bits);
    if mods.has(Flag::Ftz) {
        v = float::flush(f, v);
    }
    if a.abs {
        v &= !sign;
    }
    if a.neg {
        v ^= sign;
    }
    v
}

/// A float result with `.sat` and `.ftz` applied.
fn fout(f: Format, mut r: u64, mods: &Mods) -> u64 {
    if mods.has(Flag::Sat) {
        let one = float::convert(F64, f, 1f64.to_bits(), Rnd::Rn);
        r = if float::is_nan(f, r) || r & (1u64 << (f.bits - 1)) != 0 {
            0
        } else if float::compare(f, r, one) == Some(Ordering::Greater) {
            one
        } else {
            r
        };
    }
    if mods.has(Flag::Ftz) {
        r = float::flush(f, r);
    }
    if mods.has(Flag::Relu) {
        if float::is_nan(f, r) {
            r = float::canonical_nan(f);
        } else if r & (1u64 << (f.bits - 1)) != 0 {
            r = 0;
        }
    }
    r
}

fn int_cmp(a: u64, b: u64, w: u32, signed: bool) -> Ordering {
    if signed { sext(a, w).cmp(&sext(b, w)) } else { a.cmp(&b) }
}

fn compare(t: Ty, c: Cmp, a: Arg, b: Arg, mods: &Mods) -> Result<bool, EvalError> {
    if t.is_float() {
        let f = fmt_of(t)?;
        let o = float::compare(f, farg(f, a, mods), farg(f, b, mods));
        use Ordering::*;
        return Ok(match c {
            Cmp::Num => o.is_some(),
            Cmp::Nan => o.is_none(),
            Cmp::Eq => o == Some(Equal),
            Cmp::Ne => o.is_some_and(|o| o != Equal),
            Cmp::Lt | Cmp::Lo => o == Some(Less),
            Cmp::Le | Cmp::Ls => matches!(o, Some(Less | Equal)),
            Cmp::Gt | Cmp::Hi => o == Some(Greater),
            Cmp::Ge | Cmp::Hs => matches!(o, Some(Greater | Equal)),
            Cmp::Equ => o.is_none_or(|o| o == Equal),
            Cmp::Neu => o != Some(Equal),
            Cmp::Ltu => o.is_none_or(|o| o == Less),
            Cmp::Leu => o != Some(Greater),
            Cmp::Gtu => o.is_none_or(|o| o == Greater),
            Cmp::Geu => o != Some(Less),
        });
    }
    let w = t.bits().min(64);
    let (a, b) = (int_arg(a, w), int_arg(b, w));
    let o = match c {
        Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => a.cmp(&b),
        _ => int_cmp(a, b, w, t.is_signed()),
    };
    use Ordering::*;
    Ok(match c {
        Cmp::Eq | Cmp::Equ => o == Equal,
        Cmp::Ne | Cmp::Neu => o != Equal,
        Cmp::Lt | Cmp::Lo | Cmp::Ltu => o == Less,
        Cmp::Le | Cmp::Ls | Cmp::Leu => o != Greater,
        Cmp::Gt | Cmp::Hi | Cmp::Gtu => o == Greater,
        Cmp::Ge | Cmp::Hs | Cmp::Geu => o != Less,
        Cmp::Num => true,
        Cmp::Nan => false,
    })
}

/// `cvt` / `I2F` / `F2I` / `F2F` / `I2I`: destination type `dt` from source type `st`.
fn convert(dt: Ty, st: Ty, a: Arg, mods: &Mods) -> Result<u64, EvalError> {
    let rnd = mods.rnd;
    // `cvt.ftz` flushes f32 subnormals only (a subnormal f16 source or result, or an f64 one,
    // is kept: NVIDIA's code in the form sweep), so the source's and the result's flushes
    // apply only to an f32 side; between f16 and f32 not at all (ptxas selects `F2F.F16.F32`
    // without `.FTZ`, which keeps an f32 subnormal source: semantics_fixes).
    let half = st == Ty::F16 || dt == Ty::F16;
    let f32_only = |t: Ty| {
        if (t == Ty::F32 && !half) || !mods.has(Flag::Ftz) {
            mods.clone()
        } else {
            Mods { flags: mods.flags.iter().copied().filter(|f| *f != Flag::Ftz).collect(), ..mods.clone() }
        }
    };
    let (smods, dmods) = (&f32_only(st), &f32_only(dt));
    match (dt.is_float(), st.is_float()) {
        (true, true) => {
            let (df, sf) = (fmt_of(dt)?, fmt_of(st)?);
            let mut v = farg(sf, a, smods);
            // `cvt.ftz.f64.f32`: ptxas flushes the source with `FMUL.FTZ x, 1` before
            // `F2F.F64.F32`, and the multiply turns any NaN into the canonical f32 NaN
            // (`0x7fffffff`, widened to `0x7fffffffe0000000`), its payload and sign dropped.
            if (dt, st) == (Ty::F64, Ty::F32) && mods.has(Flag::Ftz) && float::is_nan(sf, v) {
                v = float::canonical_nan(sf);
            }
            let r = if df == sf {
                match rnd {
                    Some(r) if r.is_integral() => float::round_integral(df, v, r),
                    // Same type, no integral rounding (ptxas: a copy for f32/f64 without
                    // modifiers; `FADD x, -0` with `.ftz`/`.sat`, and `HADD2`/`HFMA2` adding -0
                    // for the half types, which make a NaN canonical).
                    _ if matches!(df, F32 | F64) && !mods.has(Flag::Ftz) && !mods.has(Flag::Sat) => {
                        return Ok(int_arg(a, df.bits));
                    }
                    _ if float::is_nan(df, v) => float::canonical_nan(df),
                    _ => v,
                }
            } else {
                float::convert(sf, df, v, rnd.unwrap_or(Rnd::Rn))
            };
            Ok(fout(df, r, dmods))
        }
        (true, false) => {
            let df = fmt_of(dt)?;
            let w = st.bits().min(64);
            let v = int_arg(a, w);
            let v = if st.is_signed() { i128::from(sext(v, w)) } else { i128::from(v) };
            Ok(fout(df, float::from_int(df, v, rnd.unwrap_or(Rnd::Rn)), dmods))
        }
        (false, true) => {
            let sf = fmt_of(st)?;
            let v = farg(sf, a, smods);
            let dw = dt.bits().min(64);
            let r = float::to_int(sf, v, dw, dt.is_signed(), rnd.unwrap_or(Rnd::Rzi));
            // A signed sub-word destination fills its 32-bit register sign-extended (PTX).
            Ok(if dt.is_signed() && dw < 32 { sext(r & mask(dw), dw) as u64 & mask(32) } else { r })
        }
        (false, false) => {
            let (sw, dw) = (st.bits().min(64), dt.bits().min(64));
            let v = int_arg(a, sw);
            let wide: i128 = if st.is_signed() { i128::from(sext(v, sw)) } else { i128::from(v) };
            if mods.has(Flag::Sat) {
                let (lo, hi): (i128, i128) = if dt.is_signed() {
                    (-(1i128 << (dw - 1)), (1i128 << (dw - 1)) - 1)
                } else {
                    (0, (1i128 << dw) - 1)
                };
                // As the plain narrowing below (PTX: a signed destination type narrower than
                // its register is sign-extended; ptxas follows `I2I.S8.S32.SAT` with
                // `PRMT 0x8880`).
                let r = wide.clamp(lo, hi) as u64 & mask(dw);
                return Ok(if dt.is_signed() && dw < 32 { sext(r, dw) as u64 & mask(32) } else { r });
            }
            // Widening sign- or zero-extends per the source; narrowing truncates. A sub-word
            // destination is stored sign/zero-extended per its own type in a 32-bit register.
            let r = wide as u64 & mask(dw);
            Ok(if dt.is_signed() && dw < 32 { sext(r, dw) as u64 & mask(32) } else { r })
        }
    }
}

/// A packing conversion (`cvtpack`/`F2FP`, see [`super::fp8`]): fp8x2 from two f32 (a in the
/// high byte) or from f16x2, f16x2 from fp8x2, f16x2/bf16x2 from two f32 (a in the high half)
/// and one f16/bf16 from an f32, each element rounded as `mods` says (`.satfinite` = `Sat`).
/// `cvt.pack.sat.{dt}.s32`: the PTX ISA's pseudocode with `n` the bits of `dt`: `a` and `b`
/// (signed 32-bit) clamped to `dt`'s range, `b` in bits `[0, n)`, `a` in `[n, 2n)`, and the
/// low `32 - 2n` bits of `c` above them (none for 16-bit `dt`).
fn pack_sat(dt: Ty, a: u64, b: u64, c: u64) -> u64 {
    let n = dt.bits();
    let (lo, hi) = if dt.is_signed() { (-(1i64 << (n - 1)), (1i64 << (n - 1)) - 1) } else { (0, (1i64 << n) - 1) };
    let sat = |x: u64| (i64::from(x as u32 as i32).clamp(lo, hi) as u64) & mask(n);
    (c << (2 * n) | sat(a) << n | sat(b)) & mask(32)
}

fn cvt_pack(dt: Ty, st: Ty, mods: &Mods, a: &[u64]) -> Result<u64, EvalError> {
    use super::fp8::Fp8;
    let relu = mods.has(Flag::Relu);
    let fp8 = |t: Ty| match t {
        Ty::E4m3x2 => Some(Fp8::E4m3),
        Ty::E5m2x2 => Some(Fp8::E5m2),
        _ => None,
    };
    let bad = || EvalError::BadOperands(format!("cvtpack.{dt}.{st} with {} source(s)", a.len()));
    let f32v = |x: u64| f64::from(f32::from_bits(x as u32));
    let f16v = |x: u64| f64::from_bits(float::convert(F16, F64, x & 0xffff, Rnd::Rn));
    match (fp8(dt), fp8(st), a) {
        (None, None, &[x, y, c]) if st == Ty::S32 && dt.is_int() && dt.bits() <= 16 => Ok(pack_sat(dt, x, y, c)),
        (Some(f), None, &[x, y]) if st == Ty::F32 => {
            Ok(u64::from(f.encode(f32v(x), relu)) << 8 | u64::from(f.encode(f32v(y), relu)))
        }
        (Some(f), None, &[x]) if st == Ty::F16x2 => {
            Ok(u64::from(f.encode(f16v(x >> 16), relu)) << 8 | u64::from(f.encode(f16v(x), relu)))
        }
        (None, Some(f), &[x]) if dt == Ty::F16x2 => {
            Ok(u64::from(f.to_f16((x >> 8) as u8, relu)) << 16 | u64::from(f.to_f16(x as u8, relu)))
        }
        (None, None, _) if st == Ty::F32 => {
            let hf = match dt {
                Ty::F16 | Ty::F16x2 => F16,
                Ty::BF16 | Ty::BF16x2 => BF16,
                _ => return Err(bad()),
            };
            let half = |x: u64| {
                let h = float::convert(F32, hf, x & mask(32), rnd_of(mods));
                let h = if float::is_nan(hf, h) {
                    float::canonical_nan(hf)
                } else if mods.has(Flag::Sat) && h & 0x7fff == hf.inf(false) {
                    hf.max_finite(h & 0x8000 != 0)
                } else {
                    h
                };
                if relu && h & 0x8000 != 0 && !float::is_nan(hf, h) { 0 } else { h }
            };
            match (dt, a) {
                (Ty::F16 | Ty::BF16, &[x]) => Ok(half(x)),
                (Ty::F16x2 | Ty::BF16x2, &[x, y]) => Ok(half(x) << 16 | half(y)),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

/// The per-lane results of a SIMD video operation (`vadd2/4`, `vsub`, `vavrg`, `vabsdiff`,
/// `vmin`, `vmax`, `vset`; PTX's `add/sub/min/max.{s,u}16x2`) on `lanes` lanes: lane i of a is
/// the lane of the pair {b, a} that selector `asel` names in its bits 4i.. (of b likewise with
/// `bsel`), sign- or zero-extended by `signed` (a's, b's); results exact (before any saturation
/// or truncation). `vavrg` is PTX's `(x + y + 1) >> 1` for a non-negative sum, `(x + y) >> 1`
/// otherwise; `vset` gives 1 or 0 by `mods.cmp`.
fn video_lanes(
    lanes: u32,
    mods: &Mods,
    signed: (bool, bool),
    a: u64,
    b: u64,
    asel: u64,
    bsel: u64,
) -> Result<Vec<i64>, EvalError> {
    let bits = 32 / lanes;
    let pair = (b & mask(32)) << 32 | (a & mask(32));
    let lane = |sel: u64, i: u32, s: bool| {
        let k = ((sel >> (4 * i)) & 0xf) as u32 % (2 * lanes);
        let x = (pair >> (bits * k)) & mask(bits);
        if s { sext(x, bits) } else { x as i64 }
    };
    (0..lanes)
        .map(|i| {
            let (x, y) = (lane(asel, i, signed.0), lane(bsel, i, signed.1));
            Ok(match mods.sub {
                Some(SubOp::AddOp) => x + y,
                Some(SubOp::SubtractOp) => x - y,
                Some(SubOp::Absdiff) => (x - y).abs(),
                Some(SubOp::MinOp) => x.min(y),
                Some(SubOp::MaxOp) => x.max(y),
                Some(SubOp::Avrg) if x + y >= 0 => (x + y + 1) >> 1,
                Some(SubOp::Avrg) => (x + y) >> 1,
                Some(SubOp::SetOp) => {
                    let r = match mods.cmp {
                        Some(Cmp::Eq) => x == y,
                        Some(Cmp::Ne) => x != y,
                        Some(Cmp::Lt) => x < y,
                        Some(Cmp::Le) => x <= y,
                        Some(Cmp::Gt) => x > y,
                        Some(Cmp::Ge) => x >= y,
                        c => return Err(EvalError::BadOperands(format!("vset comparison {c:?}"))),
                    };
                    i64::from(r)
                }
                o => return Err(EvalError::BadOperands(format!("SIMD video operation {o:?}"))),
            })
        })
        .collect()
}

#[cfg(test)]
mod video_tests {
    use super::*;

    /// The PTX-stage form with the default selectors and mask (c = `args[2]` or 0), checked
    /// against the SASS-stage form where it has one.
    fn vop(op: Opcode, sub: SubOp, dt: Ty, at: Ty, sat: bool, args: &[u64]) -> u64 {
        let mut m = Mods { sub: Some(sub), src_ty: Some(at), ..Mods::ty(dt) };
        if sat {
            m.set(Flag::Sat);
        }
        let four = matches!(op, Opcode::Vop4 | Opcode::Vop4Add);
        let (asel, bsel, dmask) = if four { (0x3210, 0x7654, 0xf) } else { (0x10, 0x32, 0x3) };
        let c = args.get(2).copied().unwrap_or(0);
        let full = [args[0], args[1], c, asel, bsel, dmask, u64::from(at.is_signed())];
        let a: Vec<Arg> = full.iter().map(|v| Arg::bits(*v)).collect();
        let r = eval(op, &m, &a).unwrap()[0].bits();
        let sass = match (op, sub) {
            (Opcode::Vop4, SubOp::Absdiff) => Some(Opcode::VABSDIFF4),
            (Opcode::Vop4Add, SubOp::Absdiff) => Some(Opcode::VABSDIFF4ACC),
            (Opcode::Vop2, SubOp::AddOp | SubOp::SubtractOp) if !sat => Some(Opcode::VIADD2),
            (Opcode::Vop2, SubOp::MinOp | SubOp::MaxOp) => Some(Opcode::VIMNMX2),
            _ => None,
        };
        if let Some(s) = sass {
            let a: Vec<Arg> = args.iter().map(|v| Arg::bits(*v)).collect();
            assert_eq!(eval(s, &m, &a).unwrap()[0].bits(), r, "{s} against {op}");
        }
        r
    }

    /// Selectors (lanes of b picked for a, and the other way round), a partial mask keeping c's
    /// other lanes, mixed signedness, vavrg's rounding and vset.
    #[test]
    fn simd_video_selectors_masks_and_set() {
        let m = |sub, cmp| Mods { sub: Some(sub), cmp, src_ty: Some(Ty::U32), ..Mods::ty(Ty::U32) };
        let ev = |op, md: &Mods, v: [u64; 7]| {
            let a: Vec<Arg> = v.iter().map(|x| Arg::bits(*x)).collect();
            eval(op, md, &a).unwrap()[0].bits()
        };
        // a's lanes from b's bytes and b's from a's: vadd4 b.b7654 + a.b3210 = the plain sum.
        let add = m(SubOp::AddOp, None);
        let plain = ev(Opcode::Vop4, &add, [0x0102_0304, 0x1020_3040, 0, 0x3210, 0x7654, 0xf, 0]);
        assert_eq!(plain, 0x1122_3344);
        assert_eq!(ev(Opcode::Vop4, &add, [0x0102_0304, 0x1020_3040, 0, 0x7654, 0x3210, 0xf, 0]), plain);
        // Mask .b0: only lane 0 is the result's; the rest is c's.
        assert_eq!(
            ev(Opcode::Vop4, &add, [0x0102_0304, 0x1020_3040, 0xaabb_ccdd, 0x3210, 0x7654, 0x1, 0]),
            0xaabb_cc44
        );
        // vavrg2 signed: (-3 + 0) >> 1 = -2 (floor for a negative sum), (1 + 2 + 1) >> 1 = 2.
        let avrg = Mods { src_ty: Some(Ty::S32), ..m(SubOp::Avrg, None) };
        assert_eq!(ev(Opcode::Vop2, &avrg, [0x0001_fffd, 0x0002_0000, 0, 0x10, 0x32, 0x3, 1]), 0x0002_fffe);
        // vset4.u32.u32.lt with .add: count of lanes where a < b.
        let set = m(SubOp::SetOp, Some(Cmp::Lt));
        assert_eq!(ev(Opcode::Vop4Add, &set, [0x0105_0109, 0x0204_0208, 10, 0x3210, 0x7654, 0xf, 0]), 12);
        // Mixed: a unsigned 0xff (255), b signed 0xff (-1): absdiff 256 saturates to 255.
        let sat = Mods { flags: vec![Flag::Sat], ..m(SubOp::Absdiff, None) };
        assert_eq!(ev(Opcode::Vop4, &sat, [0xff, 0xff, 0, 0x3210, 0x7654, 0xf, 1]), 0xff);
        assert_eq!(ev(Opcode::Vop4, &m(SubOp::Absdiff, None), [0xff, 0xff, 0, 0x3210, 0x7654, 0xf, 1]), 0x00);
    }

    /// Hand-computed lanes: unsigned byte absolute differences (and their sum with `.add`),
    /// signed 16-bit lanes wrapping or saturating, signed and unsigned minimum.
    #[test]
    fn simd_video_lanes() {
        let (u, s) = (Ty::U32, Ty::S32);
        assert_eq!(vop(Opcode::Vop4, SubOp::Absdiff, u, u, false, &[0x00ff_1080, 0xff00_2001]), 0xffff_107f);
        assert_eq!(
            vop(Opcode::Vop4Add, SubOp::Absdiff, u, u, false, &[0x00ff_1080, 0xff00_2001, 5]),
            5 + 0x1fe + 0x10 + 0x7f
        );
        // s16 lanes: 0x7fff + 1 wraps to 0x8000; with .sat it stays 0x7fff. -2 + -3 = -5.
        assert_eq!(vop(Opcode::Vop2, SubOp::AddOp, s, s, false, &[0x7fff_fffe, 0x0001_fffd]), 0x8000_fffb);
        assert_eq!(vop(Opcode::Vop2, SubOp::AddOp, s, s, true, &[0x7fff_fffe, 0x0001_fffd]), 0x7fff_fffb);
        assert_eq!(vop(Opcode::Vop2, SubOp::MinOp, s, s, false, &[0x8000_0001, 0x7fff_ffff]), 0x8000_ffff);
        assert_eq!(vop(Opcode::Vop2, SubOp::MinOp, u, u, false, &[0x8000_0001, 0x7fff_ffff]), 0x7fff_0001);
        // Unsigned bytes saturated to an unsigned result: 0x10 - 0x20 clamps to 0.
        assert_eq!(vop(Opcode::Vop4, SubOp::SubtractOp, u, u, true, &[0x0000_0010, 0x0000_0020]), 0);
        assert_eq!(vop(Opcode::Vop4, SubOp::SubtractOp, u, u, false, &[0x0000_0010, 0x0000_0020]), 0xf0);
    }
}

#[cfg(test)]
mod contraction_tests {
    use super::*;

    fn bits(v: &[Val]) -> u64 {
        v[0].bits()
    }

    fn contracted(ty: Ty, flags: &[Flag]) -> Mods {
        let mut m = Mods { rnd: Some(Rnd::Rn), ..Mods::ty(ty) };
        for &f in flags.iter().chain(&[Flag::Contract]) {
            m.set(f);
        }
        m
    }

    /// A contracted fma rounds once by default and twice unfused; an uncontracted one is
    /// fused either way.
    #[test]
    fn unfused_evaluation_rounds_twice() {
        let (a, b) = (0.1f32, 1.3345f32);
        let p = a * b;
        let args = [
            Arg::bits(u64::from(a.to_bits())),
            Arg::bits(u64::from(b.to_bits())),
            Arg { neg: true, ..Arg::bits(u64::from(p.to_bits())) },
        ];
        let m = contracted(Ty::F32, &[]);
        let fused = f32::from_bits(bits(&eval(Opcode::Fma, &m, &args).unwrap()) as u32);
        assert_eq!(fused, a.mul_add(b, -p));
        assert_ne!(fused, 0.0);
        assert_eq!(bits(&eval_unfused(Opcode::Fma, &m, &args).unwrap()), 0);
        let plain = Mods { rnd: Some(Rnd::Rn), ..Mods::ty(Ty::F32) };
        assert_eq!(eval_unfused(Opcode::Fma, &plain, &args), eval(Opcode::Fma, &plain, &args));
        // `.sat` applies to the sum only: 0.5 * 4 - 1.5 = 0.5, while `mul.sat` would give -0.5.
        let m = contracted(Ty::F32, &[Flag::Sat]);
        let args = [0.5f32, 4.0, -1.5].map(|x| Arg::bits(u64::from(x.to_bits())));
        assert_eq!(bits(&eval_unfused(Opcode::Fma, &m, &args).unwrap()), u64::from(0.5f32.to_bits()));
        // Packed halves: each half unfused (1.5 * 1.5 + 1 = 3.25 in both).
        let m = contracted(Ty::F16x2, &[]);
        let args = [0x3e00_3e00u64, 0x3e00_3e00, 0x3c00_3c00].map(Arg::bits);
        assert_eq!(bits(&eval_unfused(Opcode::Fma, &m, &args).unwrap()), 0x4280_4280);
    }

    /// A negated f64 NaN operand of a contracted fma (a `sub`'s operand) keeps its sign, as
    /// the `sub` would.
    #[test]
    fn contracted_negation_keeps_an_f64_nan() {
        let nan = 0x7ff8_0000_0000_0001u64;
        let args = [Arg::bits(1.0f64.to_bits()), Arg::bits(2.0f64.to_bits()), Arg { neg: true, ..Arg::bits(nan) }];
        let m = contracted(Ty::F64, &[]);
        assert_eq!(bits(&eval(Opcode::Fma, &m, &args).unwrap()), nan);
        assert_eq!(bits(&eval_unfused(Opcode::Fma, &m, &args).unwrap()), nan);
        let sub = eval(Opcode::Sub, &Mods::ty(Ty::F64), &[Arg::bits(2.0f64.to_bits()), Arg::bits(nan)]).unwrap();
        assert_eq!(bits(&sub), nan);
    }
}
