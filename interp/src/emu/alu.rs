//! Scalar meanings of the SASS ALU operations: pure functions on 32/64-bit words, one lane at a
//! time. The warp executor ([`super::exec`]) applies them to the 32 lanes of a warp; the property
//! tests (`interp/tests/emu_alu.rs`) compare them with independent references.
//!
//! Conventions (sm_90, what the hardware does as far as it is documented or observed):
//! - NaN results, as measured on an H200 (the goldens `corpus/gpu/sm_90/*`, see each function):
//!   FP32 arithmetic (`FADD`/`FMUL`/`FFMA`, `FMNMX.NAN`) returns the canonical NaN `0x7fffffff`
//!   whatever its operands; FP64 arithmetic (`DADD`/`DMUL`/`DFMA`) and the conversions `F2F`
//!   and `FRND.F64` keep the payload of a NaN operand, quieted ([`nan64_operand`]); an invalid
//!   FP64 operation (`inf - inf`, `0 * inf`) gives [`NAN64_INVALID`].
//! - `.FTZ` flushes denormal inputs and denormal results to zero of the same sign; without it
//!   FP32 denormals are kept. FP64 never flushes.
//! - Rounding modes `.RN` (default), `.RZ`, `.RM`, `.RP` are exact: round-to-nearest uses Rust's
//!   correctly rounded `f32`/`f64` operations, the directed modes take the round-to-nearest
//!   candidate and correct it by the sign of the exact error (computed error-free with TwoSum).
//! - MUFU is modelled as the correctly rounded value of the exact function computed in `f64`
//!   (the hardware is approximate: about 1 ulp for RCP/RSQ/SQRT, 2^-22.5 relative for EX2/LG2,
//!   2^-20.5 absolute for SIN/COS on [-π, π]); inputs and outputs are flushed to zero, as the
//!   unit does. Comparisons with a GPU must use a tolerance for MUFU results.
//!
//! Invariant: nothing here panics for any input bits.

/// Floating-point rounding mode of an instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rnd {
    /// To nearest, ties to even (`.RN`, the default).
    Rn,
    /// Toward zero (`.RZ`).
    Rz,
    /// Toward minus infinity (`.RM`).
    Rm,
    /// Toward plus infinity (`.RP`).
    Rp,
}

/// The FP32 canonical NaN.
pub const NAN32: u32 = 0x7fff_ffff;
/// The FP64 canonical NaN.
pub const NAN64: u64 = 0x7fff_ffff_ffff_ffff;
/// The NaN an invalid FP64 operation (`inf - inf`, `0 * inf`, `inf * 0 + x`) produces: the
/// golden of `f64_round_modes` has `0xfff8000000000000` for `DMUL -inf, -0`, `DFMA x, inf, -inf`
/// (whatever the product's sign) and their directed-rounding forms.
pub const NAN64_INVALID: u64 = 0xfff8_0000_0000_0000;

/// The result of an FP64 arithmetic instruction with a NaN operand: the first NaN of `ops`, in
/// the priority order the caller passes, quieted (bit 51 set), its sign and payload kept.
/// `DADD`/`DMUL`/`DFMA` give the B operand priority, then C, then A; operand negation and
/// absolute value do not change a NaN (they are not applied to NaNs, see `exec::fmod64`).
/// Derived from the golden of `f64_round_modes` (`DADD b, a` and `DADD -c, a` keep `a`'s NaN
/// over `b`'s and `c`'s, `DFMA b, a, c` gives `a`'s NaN, else `c`'s, else `b`'s; a NaN `-c`
/// keeps `c`'s sign) and `cvt_f64_f32` (`DMUL` of a NaN by a constant keeps its payload).
pub fn nan64_operand(ops: &[u64]) -> Option<u64> {
    ops.iter().find(|&&x| f64::from_bits(x).is_nan()).map(|&x| x | 1 << 51)
}

/// Whether FP32 bits are a denormal (non-zero, exponent 0).
#[inline]
pub fn is_denorm32(x: u32) -> bool {
    x & 0x7f80_0000 == 0 && x & 0x007f_ffff != 0
}

/// Flushes an FP32 denormal to a zero of the same sign.
#[inline]
pub fn ftz32(x: u32) -> u32 {
    if is_denorm32(x) { x & 0x8000_0000 } else { x }
}

fn next_up32(x: f32) -> f32 {
    let b = x.to_bits();
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    if b >> 31 == 0 { f32::from_bits(b + 1) } else { f32::from_bits(b - 1) }
}

fn next_down32(x: f32) -> f32 {
    -next_up32(-x)
}

fn next_up64(x: f64) -> f64 {
    let b = x.to_bits();
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    if b >> 63 == 0 { f64::from_bits(b + 1) } else { f64::from_bits(b - 1) }
}

fn next_down64(x: f64) -> f64 {
    -next_up64(-x)
}

/// Error-free sum: `s + e == a + b` exactly (when no overflow).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Rounds the exact value `s + e` (an f64 pair, `s` = round-to-nearest of the sum) to f32.
fn round32(s: f64, e: f64, rnd: Rnd) -> f32 {
    let cand = s as f32;
    if s.is_nan() {
        return f32::NAN;
    }
    if cand.is_infinite() && s.is_finite() {
        let pos = s > 0.0;
        return match (rnd, pos) {
            (Rnd::Rn, _) => cand,
            (Rnd::Rz, true) | (Rnd::Rm, true) => f32::MAX,
            (Rnd::Rz, false) | (Rnd::Rp, false) => f32::MIN,
            _ => cand,
        };
    }
    if s.is_infinite() {
        return cand;
    }
    let d = (s - f64::from(cand)) + e;
    if d == 0.0 {
        return cand;
    }
    let up = d > 0.0;
    match rnd {
        Rnd::Rn => cand,
        Rnd::Rp => {
            if up {
                next_up32(cand)
            } else {
                cand
            }
        }
        Rnd::Rm => {
            if up {
                cand
            } else {
                next_down32(cand)
            }
        }
        Rnd::Rz => {
            // Exact value lies between cand and its neighbour in direction `up`.
            let exact_pos = if cand == 0.0 { up } else { cand > 0.0 };
            if exact_pos && !up && cand > 0.0 {
                next_down32(cand)
            } else if !exact_pos && up && cand < 0.0 {
                next_up32(cand)
            } else if cand == 0.0 {
                if up { 0.0 } else { -0.0 }
            } else {
                cand
            }
        }
    }
}

/// Rounds the exact value `s + e` to f64 (used by DADD/DFMA with a third term).
fn round64(s: f64, e: f64, rnd: Rnd) -> f64 {
    if !s.is_finite() || e == 0.0 || rnd == Rnd::Rn {
        if s.is_infinite() && rnd != Rnd::Rn {
            // Overflow in a directed mode.
            let pos = s > 0.0;
            return match (rnd, pos) {
                (Rnd::Rz, true) | (Rnd::Rm, true) => f64::MAX,
                (Rnd::Rz, false) | (Rnd::Rp, false) => f64::MIN,
                _ => s,
            };
        }
        return s;
    }
    let up = e > 0.0;
    match rnd {
        Rnd::Rn => s,
        Rnd::Rp => {
            if up {
                next_up64(s)
            } else {
                s
            }
        }
        Rnd::Rm => {
            if up {
                s
            } else {
                next_down64(s)
            }
        }
        Rnd::Rz => {
            if s > 0.0 && !up {
                next_down64(s)
            } else if s < 0.0 && up {
                next_up64(s)
            } else {
                s
            }
        }
    }
}

fn finish32(r: f32, ftz: bool, sat: bool) -> u32 {
    if r.is_nan() {
        return if sat { 0 } else { NAN32 };
    }
    let r = if sat { r.clamp(0.0, 1.0) } else { r };
    let b = r.to_bits();
    let b = if sat && b == 0x8000_0000 { 0 } else { b };
    if ftz { ftz32(b) } else { b }
}

fn in32(x: u32, ftz: bool) -> f32 {
    f32::from_bits(if ftz { ftz32(x) } else { x })
}

/// The exact sign of a zero sum `a + b` under rounding `rnd` (IEEE 754: +0 unless both are -0,
/// or the operands cancel under round-down).
fn zero_sum_sign(a: f64, b: f64, rnd: Rnd) -> f64 {
    let both_neg = a.is_sign_negative() && b.is_sign_negative();
    let cancel_down = a.is_sign_negative() != b.is_sign_negative() && rnd == Rnd::Rm;
    if both_neg || cancel_down { -0.0 } else { 0.0 }
}

/// `FADD`: `a + b` (operand modifiers already applied to the bits).
pub fn fadd(a: u32, b: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
    let (x, y) = (in32(a, ftz), in32(b, ftz));
    let r = if rnd == Rnd::Rn {
        x + y
    } else {
        let (s, e) = two_sum(f64::from(x), f64::from(y));
        if s == 0.0 && e == 0.0 { zero_sum_sign(f64::from(x), f64::from(y), rnd) as f32 } else { round32(s, e, rnd) }
    };
    finish32(r, ftz, sat)
}

/// `FMUL`: `a * b`.
pub fn fmul(a: u32, b: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
    let (x, y) = (in32(a, ftz), in32(b, ftz));
    let r = if rnd == Rnd::Rn { x * y } else { round32(f64::from(x) * f64::from(y), 0.0, rnd) };
    finish32(r, ftz, sat)
}

/// `FFMA`: `a * b + c` with one rounding.
pub fn ffma(a: u32, b: u32, c: u32, rnd: Rnd, ftz: bool, sat: bool) -> u32 {
    let (x, y, z) = (in32(a, ftz), in32(b, ftz), in32(c, ftz));
    let r = if rnd == Rnd::Rn {
        fma32(x, y, z)
    } else {
        let p = f64::from(x) * f64::from(y);
        let (s, e) = two_sum(p, f64::from(z));
        if s == 0.0 && e == 0.0 && p.is_finite() {
            zero_sum_sign(p, f64::from(z), rnd) as f32
        } else {
            round32(s, e, rnd)
        }
    };
    finish32(r, ftz, sat)
}

/// `x * y + z` with one rounding to nearest even: `f32::mul_add`'s value, computed in f64
/// where that is exact and fast (`mul_add` is a libm call on targets without an FMA
/// instruction in their baseline).
///
/// The product of two f32 is exact in f64, so `s = x * y + z` rounded to f64 is the only
/// inexact step; rounding `s` to f32 then gives the correctly rounded sum unless `s` lies
/// exactly halfway between two f32 (a double rounding; in the normal range the f64 bits below
/// f32's precision are then `0x1000_0000`), or `s` is outside the normal f32 range (subnormal
/// results have fewer bits; overflow, infinities and NaN), where `mul_add` decides.
#[inline(always)]
pub fn fma32(x: f32, y: f32, z: f32) -> f32 {
    let s = f64::from(x) * f64::from(y) + f64::from(z);
    if fma32_rounds_once(s) { s as f32 } else { x.mul_add(y, z) }
}

/// Whether `s`, `x * y + z` of f32 operands computed in f64, rounds to f32 as the single
/// rounding of the exact value would (see [`fma32`]).
#[inline(always)]
pub fn fma32_rounds_once(s: f64) -> bool {
    let a = s.abs();
    a >= f64::from(f32::MIN_POSITIVE) && a <= f64::from(f32::MAX) && s.to_bits() & 0x1fff_ffff != 0x1000_0000
}

/// An FP64 arithmetic result; a NaN here comes from an invalid operation (NaN operands are
/// handled first, by [`nan64_operand`]).
fn finish64(r: f64) -> u64 {
    if r.is_nan() { NAN64_INVALID } else { r.to_bits() }
}

/// `DADD`: `a + b` (a NaN operand: see [`nan64_operand`], B before A).
pub fn dadd(a: u64, b: u64, rnd: Rnd) -> u64 {
    if let Some(n) = nan64_operand(&[b, a]) {
        return n;
    }
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let (s, e) = two_sum(x, y);
    if s == 0.0 && e == 0.0 && rnd != Rnd::Rn {
        return zero_sum_sign(x, y, rnd).to_bits();
    }
    if !s.is_finite() && x.is_finite() && y.is_finite() && rnd != Rnd::Rn {
        // Overflow: the exact sum lies beyond the largest finite value (the sum to nearest is
        // infinite), so a rounding toward zero gives ±MAX (found by alu_vs_semantics).
        let neg = s < 0.0;
        let to_inf = match rnd {
            Rnd::Rp => !neg,
            Rnd::Rm => neg,
            _ => false,
        };
        let r = if to_inf { f64::INFINITY } else { f64::MAX };
        return (if neg { -r } else { r }).to_bits();
    }
    finish64(if rnd == Rnd::Rn || !s.is_finite() { x + y } else { round64(s, e, rnd) })
}

/// A finite nonzero f64 as `(negative, m, e)` with value `(-1)^neg * m * 2^e`.
fn split64(x: f64) -> (bool, u64, i32) {
    let b = x.to_bits();
    let (ef, f) = (((b >> 52) & 0x7ff) as i32, b & ((1u64 << 52) - 1));
    let (m, e) = if ef == 0 { (f, -1074) } else { (f | 1 << 52, ef - 1075) };
    (b >> 63 != 0, m, e)
}

/// Rounds the exact value `(-1)^neg * (m + δ) * 2^e` to f64 with `rnd`, where `δ ∈ (0, 1)` when
/// `sticky` (bits lost below `m`'s last place) and `δ = 0` otherwise; `m > 0` or `sticky`.
/// Integer-exact, subnormals (last place 2^-1074) and overflow included.
fn round_exact64(neg: bool, m: u128, e: i32, sticky: bool, rnd: Rnd) -> f64 {
    let bl = 128 - m.leading_zeros() as i32;
    // Exponent of the result's last place: 53 significant bits, never below 2^-1074.
    let lsb = (e + bl - 53).max(-1074);
    let sh = lsb - e;
    let (mut q, round_bit, rest) = if sh <= 0 {
        (m << (-sh) as u32, false, sticky)
    } else if sh > 128 {
        (0, false, m != 0 || sticky)
    } else {
        let q = if sh == 128 { 0 } else { m >> sh };
        let r = (m >> (sh - 1)) & 1 == 1;
        let low = if sh == 1 { 0 } else { m & ((1u128 << (sh - 1)) - 1) };
        (q, r, low != 0 || sticky)
    };
    let inexact = round_bit || rest;
    let up = match rnd {
        Rnd::Rn => round_bit && (rest || q & 1 == 1),
        Rnd::Rz => false,
        Rnd::Rp => !neg && inexact,
        Rnd::Rm => neg && inexact,
    };
    q += u128::from(up);
    let qbl = 128 - q.leading_zeros() as i32;
    let r = if qbl > 0 && lsb + qbl - 1 > 1023 {
        let to_inf = match rnd {
            Rnd::Rn => true,
            Rnd::Rz => false,
            Rnd::Rp => !neg,
            Rnd::Rm => neg,
        };
        if to_inf { f64::INFINITY } else { f64::MAX }
    } else {
        // q < 2^54 and q * 2^lsb is representable: two exact power-of-two scalings.
        let pow2 = |k: i32| f64::from_bits(((k + 1023) as u64) << 52);
        if lsb < -1000 { q as f64 * pow2(lsb + 600) * pow2(-600) } else { q as f64 * pow2(lsb) }
    };
    if neg { -r } else { r }
}

/// `DMUL`: `a * b` (a NaN operand: see [`nan64_operand`], B before A).
pub fn dmul(a: u64, b: u64, rnd: Rnd) -> u64 {
    if let Some(n) = nan64_operand(&[b, a]) {
        return n;
    }
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    if rnd != Rnd::Rn && x.is_finite() && y.is_finite() && x != 0.0 && y != 0.0 {
        let ((nx, mx, ex), (ny, my, ey)) = (split64(x), split64(y));
        return round_exact64(nx != ny, u128::from(mx) * u128::from(my), ex + ey, false, rnd).to_bits();
    }
    finish64(x * y)
}

/// `DFMA`: `a * b + c` with one rounding (directed modes integer-exact for finite operands
/// with a nonzero product; otherwise the residual path, exact there). A NaN operand: see
/// [`nan64_operand`], B before C before A.
pub fn dfma(a: u64, b: u64, c: u64, rnd: Rnd) -> u64 {
    if let Some(n) = nan64_operand(&[b, c, a]) {
        return n;
    }
    let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
    if rnd != Rnd::Rn && x.is_finite() && y.is_finite() && z.is_finite() && x != 0.0 && y != 0.0 {
        return dfma_exact(x, y, z, rnd).to_bits();
    }
    let r = x.mul_add(y, z);
    if rnd == Rnd::Rn || !r.is_finite() {
        return finish64(r);
    }
    // Error of r: exact = x*y + z; residual = x*y + z - r = fma(x, y, z - r) when z - r is exact.
    let (d, de) = two_sum(z, -r);
    let res = x.mul_add(y, d) + de;
    if r == 0.0 && res == 0.0 {
        return zero_sum_sign(x * y, z, rnd).to_bits();
    }
    finish64(round64(r, res, rnd))
}

/// `x * y + z` rounded once with a directed `rnd`, integer-exact (finite operands, `x * y != 0`).
fn dfma_exact(x: f64, y: f64, z: f64, rnd: Rnd) -> f64 {
    let ((nx, mx, ex), (ny, my, ey)) = (split64(x), split64(y));
    let (np, mp, ep) = (nx != ny, u128::from(mx) * u128::from(my), ex + ey);
    if z == 0.0 {
        return round_exact64(np, mp, ep, false, rnd);
    }
    let (nz, mz, ez) = split64(z);
    let mz = u128::from(mz);
    let top = |m: u128, e: i32| e + (128 - m.leading_zeros() as i32);
    // Common exponent: the larger term keeps 120 bits (no truncation); the other may lose bits
    // below 2^base, which only ever belong to the strictly smaller term.
    let base = top(mp, ep).max(top(mz, ez)) - 120;
    let align = |m: u128, e: i32| -> (u128, bool) {
        if e >= base {
            (m << (e - base) as u32, false)
        } else {
            let sh = base - e;
            if sh >= 128 { (0, m != 0) } else { (m >> sh, m & ((1u128 << sh) - 1) != 0) }
        }
    };
    let ((a, sa), (b, sb)) = (align(mp, ep), align(mz, ez));
    let (neg, mag, sticky) = if np == nz {
        (np, a + b, sa || sb)
    } else if a > b || (a == b && sa) {
        // |product| > |z|. At most one term lost bits; a lost fraction of the subtracted term
        // makes the difference one less plus a fraction.
        (np, a - b - u128::from(sb), sa || sb)
    } else if b > a || sb {
        (nz, b - a - u128::from(sa), sa || sb)
    } else {
        // Exact cancellation: +0, or -0 rounding toward minus infinity (IEEE 754 §6.3).
        return if rnd == Rnd::Rm { -0.0 } else { 0.0 };
    };
    round_exact64(neg, mag, base, sticky, rnd)
}

/// A comparison of `ISETP`/`FSETP`/`DSETP`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// Never.
    F,
    /// `<`.
    Lt,
    /// `==`.
    Eq,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `!=` (ordered for floats).
    Ne,
    /// `>=`.
    Ge,
    /// Both ordered (floats).
    Num,
    /// Either NaN (floats).
    Nan,
    /// `<` or unordered.
    Ltu,
    /// `==` or unordered.
    Equ,
    /// `<=` or unordered.
    Leu,
    /// `>` or unordered.
    Gtu,
    /// `!=` or unordered.
    Neu,
    /// `>=` or unordered.
    Geu,
    /// Always.
    T,
}

impl Cmp {
    /// Parses a modifier token (`GE`, `NEU`, ...).
    pub fn from_token(t: &str) -> Option<Cmp> {
        Some(match t {
            "F" => Cmp::F,
            "LT" => Cmp::Lt,
            "EQ" => Cmp::Eq,
            "LE" => Cmp::Le,
            "GT" => Cmp::Gt,
            "NE" => Cmp::Ne,
            "GE" => Cmp::Ge,
            "NUM" => Cmp::Num,
            "NAN" => Cmp::Nan,
            "LTU" => Cmp::Ltu,
            "EQU" => Cmp::Equ,
            "LEU" => Cmp::Leu,
            "GTU" => Cmp::Gtu,
            "NEU" => Cmp::Neu,
            "GEU" => Cmp::Geu,
            "T" => Cmp::T,
            _ => return None,
        })
    }

    /// Evaluates on an ordering (`None` = unordered).
    pub fn eval(self, o: Option<std::cmp::Ordering>) -> bool {
        use std::cmp::Ordering::*;
        match (self, o) {
            (Cmp::F, _) => false,
            (Cmp::T, _) => true,
            (Cmp::Num, o) => o.is_some(),
            (Cmp::Nan, o) => o.is_none(),
            (Cmp::Lt | Cmp::Eq | Cmp::Le | Cmp::Gt | Cmp::Ne | Cmp::Ge, None) => false,
            (Cmp::Ltu | Cmp::Equ | Cmp::Leu | Cmp::Gtu | Cmp::Neu | Cmp::Geu, None) => true,
            (Cmp::Lt | Cmp::Ltu, Some(o)) => o == Less,
            (Cmp::Eq | Cmp::Equ, Some(o)) => o == Equal,
            (Cmp::Le | Cmp::Leu, Some(o)) => o != Greater,
            (Cmp::Gt | Cmp::Gtu, Some(o)) => o == Greater,
            (Cmp::Ne | Cmp::Neu, Some(o)) => o != Equal,
            (Cmp::Ge | Cmp::Geu, Some(o)) => o != Less,
        }
    }
}

/// A boolean combiner (`.AND`, `.OR`, `.XOR`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    /// `&`.
    And,
    /// `|`.
    Or,
    /// `^`.
    Xor,
}

impl BoolOp {
    /// Parses `AND`/`OR`/`XOR`.
    pub fn from_token(t: &str) -> Option<BoolOp> {
        Some(match t {
            "AND" => BoolOp::And,
            "OR" => BoolOp::Or,
            "XOR" => BoolOp::Xor,
            _ => return None,
        })
    }
    /// Applies the combiner.
    pub fn apply(self, a: bool, b: bool) -> bool {
        match self {
            BoolOp::And => a && b,
            BoolOp::Or => a || b,
            BoolOp::Xor => a ^ b,
        }
    }
}

/// `ISETP` comparison of one 32-bit pair; with `ex = Some(low)`, the high half of a 64-bit
/// comparison chained on the low half's result (`.EX`).
pub fn isetp(a: u32, b: u32, cmp: Cmp, signed: bool, ex: Option<bool>) -> bool {
    let o = if signed { (a as i32).cmp(&(b as i32)) } else { a.cmp(&b) };
    match ex {
        Some(low) if o == std::cmp::Ordering::Equal => low,
        _ => cmp.eval(Some(o)),
    }
}

/// `FSETP` comparison.
pub fn fsetp(a: u32, b: u32, cmp: Cmp, ftz: bool) -> bool {
    cmp.eval(in32(a, ftz).partial_cmp(&in32(b, ftz)))
}

/// `DSETP` comparison.
pub fn dsetp(a: u64, b: u64, cmp: Cmp) -> bool {
    cmp.eval(f64::from_bits(a).partial_cmp(&f64::from_bits(b)))
}

/// Applies a 3-input lookup table bitwise (`LOP3.LUT`).
#[inline]
pub fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut r = 0;
    for i in 0..8 {
        if lut >> i & 1 == 1 {
            let ma = if i & 4 != 0 { a } else { !a };
            let mb = if i & 2 != 0 { b } else { !b };
            let mc = if i & 1 != 0 { c } else { !c };
            r |= ma & mb & mc;
        }
    }
    r
}

/// Data type of a funnel shift.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShfType {
    /// `.U32`: clamp at 32, logical.
    U32,
    /// `.S32`: clamp at 32, arithmetic.
    S32,
    /// `.U64`: clamp at 64, logical.
    U64,
    /// `.S64`: clamp at 64, arithmetic.
    S64,
}

/// `SHF`: shifts the 64-bit pair `hi:lo` left or right by `s` (clamped to the type's width, or
/// taken modulo it with `.W`) and returns the high (`.HI`) or low word.
#[inline]
pub fn shf(lo: u32, s: u32, hi: u32, left: bool, wrap: bool, ty: ShfType, high: bool) -> u32 {
    let width = if matches!(ty, ShfType::U32 | ShfType::S32) { 32 } else { 64 };
    let s = if wrap { s & (width - 1) } else { s.min(width) };
    let v = (u64::from(hi) << 32) | u64::from(lo);
    let r: u64 = if left {
        if s >= 64 { 0 } else { v << s }
    } else if matches!(ty, ShfType::S32 | ShfType::S64) {
        ((v as i64) >> s.min(63)) as u64
    } else if s >= 64 {
        0
    } else {
        v >> s
    };
    if high { (r >> 32) as u32 } else { r as u32 }
}

/// `PRMT` default mode: byte `i` of the result is byte `sel[4i..4i+3]` of `b:a` (0–3 from `a`,
/// 4–7 from `b`), replicated sign if bit `4i+3` is set.
pub fn prmt(a: u32, sel: u32, b: u32) -> u32 {
    let v = (u64::from(b) << 32) | u64::from(a);
    let mut r = 0u32;
    for i in 0..4 {
        let s = (sel >> (4 * i)) & 0xf;
        let byte = (v >> (8 * (s & 7))) as u8;
        let byte = if s & 8 != 0 { if byte & 0x80 != 0 { 0xff } else { 0 } } else { byte };
        r |= u32::from(byte) << (8 * i);
    }
    r
}

/// `FLO`: position of the most significant 1 (of the most significant bit differing from the sign
/// with `signed`), `0xffffffff` if none; with `sh` (`.SH`) the count of leading bits instead.
pub fn flo(a: u32, signed: bool, sh: bool) -> u32 {
    let x = if signed && (a as i32) < 0 { !a } else { a };
    if x == 0 {
        return u32::MAX;
    }
    let pos = 31 - x.leading_zeros();
    if sh { 31 - pos } else { pos }
}

/// `FMNMX.NAN`: FP32 min/max that propagates NaN (PTX `min.NaN`/`max.NaN`): any NaN operand
/// gives the canonical NaN; otherwise as [`fmnmx`].
pub fn fmnmx_nan(a: u32, b: u32, min: bool, ftz: bool) -> u32 {
    if in32(a, ftz).is_nan() || in32(b, ftz).is_nan() {
        return NAN32;
    }
    fmnmx(a, b, min, ftz)
}

/// FP32 min (`min = true`) or max, NaN-suppressing, `-0 < +0`.
pub fn fmnmx(a: u32, b: u32, min: bool, ftz: bool) -> u32 {
    let (x, y) = (in32(a, ftz), in32(b, ftz));
    let r = match (x.is_nan(), y.is_nan()) {
        (true, true) => return NAN32,
        (true, false) => y,
        (false, true) => x,
        _ => {
            if x == y && x == 0.0 {
                let neg = if min {
                    x.is_sign_negative() || y.is_sign_negative()
                } else {
                    x.is_sign_negative() && y.is_sign_negative()
                };
                if neg { -0.0 } else { 0.0 }
            } else if (x < y) == min {
                x
            } else {
                y
            }
        }
    };
    let b = r.to_bits();
    if ftz { ftz32(b) } else { b }
}

/// `FCHK P, x, y`: whether the division `x / y` must take ptxas's slow path. Modelled
/// conservatively: the fast path only when both are normal and well inside the exponent range.
/// A zero dividend takes the slow path: the fast path's `FFMA q, x, rcp(y), RZ` would give
/// `+0` for `+0 / -y`, where the GPU gives `-0` (golden of `math_div_sqrt_f32`, 17 quotients
/// `±0 / y` with a negative result).
pub fn fchk(x: u32, y: u32) -> bool {
    let exp = |v: u32| ((v >> 23) & 0xff) as i32;
    let (ex, ey) = (exp(x), exp(y));
    !(ex > 30 && ex < 225 && ey > 30 && ey < 225 && (ex - ey).abs() < 100)
}

/// A MUFU function.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MufuFn {
    /// 1/x.
    Rcp,
    /// 1/sqrt(x).
    Rsq,
    /// sqrt(x).
    Sqrt,
    /// 2^x.
    Ex2,
    /// log2(x).
    Lg2,
    /// sin(x), x in radians... as the unit computes sin(2π·x')? No: the input is pre-scaled by
    /// 1/2π in the code ptxas emits, and the unit computes sin(2π·x).
    Sin,
    /// cos(2π·x).
    Cos,
    /// tanh(x).
    Tanh,
    /// High word of 1/x for an FP64 whose high word is the input.
    Rcp64h,
    /// High word of 1/sqrt(x) for an FP64 whose high word is the input.
    Rsq64h,
}

impl MufuFn {
    /// Parses the first modifier token.
    pub fn from_token(t: &str) -> Option<MufuFn> {
        Some(match t {
            "RCP" => MufuFn::Rcp,
            "RSQ" => MufuFn::Rsq,
            "SQRT" => MufuFn::Sqrt,
            "EX2" => MufuFn::Ex2,
            "LG2" => MufuFn::Lg2,
            "SIN" => MufuFn::Sin,
            "COS" => MufuFn::Cos,
            "TANH" => MufuFn::Tanh,
            "RCP64H" => MufuFn::Rcp64h,
            "RSQ64H" => MufuFn::Rsq64h,
            _ => return None,
        })
    }
}

/// `MUFU` (see the module docs for the precision modelled).
#[inline]
pub fn mufu(f: MufuFn, a: u32) -> u32 {
    match f {
        MufuFn::Rcp64h | MufuFn::Rsq64h => {
            let x = f64::from_bits(u64::from(a) << 32);
            let r = if f == MufuFn::Rcp64h { 1.0 / x } else { 1.0 / x.sqrt() };
            if r.is_nan() {
                return 0x7fff_ffff;
            }
            (r.to_bits() >> 32) as u32
        }
        _ => {
            let x = f64::from(f32::from_bits(ftz32(a)));
            let r = match f {
                MufuFn::Rcp => 1.0 / x,
                MufuFn::Rsq => 1.0 / x.sqrt(),
                MufuFn::Sqrt => x.sqrt(),
                MufuFn::Ex2 => x.exp2(),
                MufuFn::Lg2 => x.log2(),
                MufuFn::Sin => (x * std::f64::consts::TAU).sin(),
                MufuFn::Cos => (x * std::f64::consts::TAU).cos(),
                _ => x.tanh(),
            };
            let r = r as f32;
            if r.is_nan() { NAN32 } else { ftz32(r.to_bits()) }
        }
    }
}

/// `MUFU.EX2.F16`/`MUFU.TANH.F16` of one f16 (bits): the function in f64, rounded once to f16
/// (the unit's own approximation error is not modelled: corpus specs compare these with a
/// tolerance). A NaN gives the canonical `0x7fff`.
pub fn mufu_f16(f: MufuFn, h: u16) -> u16 {
    let x = f64::from(f16_to_f32(h));
    let r = match f {
        MufuFn::Ex2 => x.exp2(),
        _ => x.tanh(),
    };
    if r.is_nan() { 0x7fff } else { crate::launch::float::f64_to_f16(r) }
}

/// Integer types of conversions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntTy {
    /// u8.
    U8,
    /// s8.
    S8,
    /// u16.
    U16,
    /// s16.
    S16,
    /// u32.
    U32,
    /// s32.
    S32,
    /// u64.
    U64,
    /// s64.
    S64,
}

impl IntTy {
    /// Parses `U8` ... `S64`.
    pub fn from_token(t: &str) -> Option<IntTy> {
        Some(match t {
            "U8" => IntTy::U8,
            "S8" => IntTy::S8,
            "U16" => IntTy::U16,
            "S16" => IntTy::S16,
            "U32" => IntTy::U32,
            "S32" => IntTy::S32,
            "U64" => IntTy::U64,
            "S64" => IntTy::S64,
            _ => return None,
        })
    }
    /// Whether signed.
    pub fn signed(self) -> bool {
        matches!(self, IntTy::S8 | IntTy::S16 | IntTy::S32 | IntTy::S64)
    }
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            IntTy::U8 | IntTy::S8 => 8,
            IntTy::U16 | IntTy::S16 => 16,
            IntTy::U32 | IntTy::S32 => 32,
            IntTy::U64 | IntTy::S64 => 64,
        }
    }
    /// Interprets the low bits of `v` as this type.
    pub fn value(self, v: u64) -> i128 {
        match self {
            IntTy::U8 => i128::from(v as u8),
            IntTy::S8 => i128::from(v as i8),
            IntTy::U16 => i128::from(v as u16),
            IntTy::S16 => i128::from(v as i16),
            IntTy::U32 => i128::from(v as u32),
            IntTy::S32 => i128::from(v as i32),
            IntTy::U64 => i128::from(v),
            IntTy::S64 => i128::from(v as i64),
        }
    }
}

/// Float-to-integer rounding (`F2I` and `FRND`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntRnd {
    /// Nearest even (default).
    Rni,
    /// `.TRUNC`.
    Trunc,
    /// `.FLOOR`.
    Floor,
    /// `.CEIL`.
    Ceil,
}

fn round_int(x: f64, r: IntRnd) -> f64 {
    match r {
        IntRnd::Rni => x.round_ties_even(),
        IntRnd::Trunc => x.trunc(),
        IntRnd::Floor => x.floor(),
        IntRnd::Ceil => x.ceil(),
    }
}

/// `F2I`: float (f32 bits, or f64 with `src64`) to integer, saturating. A NaN converts to 0 with
/// `.NTZ` (`ntz`; ptxas puts it on f32 to 32-bit-or-narrower conversions, PTX's NaN → 0), and
/// otherwise to the destination's sign bit alone, signed or not: `0x8000000000000000` for
/// 64-bit destinations, `0x80000000` for 32-bit ones (golden of `cvt_f2ll_round`:
/// `F2I.S64`, `F2I.U64`, `F2I.S64.F64`, `F2I.U64.F64`, `F2I.F64` (s32) and `F2I.U32.F64` of NaN;
/// `cvt_f2i_round`: `F2I.NTZ`/`F2I.U32.NTZ` of NaN give 0). Returns the result bits (64 for
/// 64-bit destinations).
pub fn f2i(x: u64, src64: bool, dst: IntTy, r: IntRnd, ftz: bool, ntz: bool) -> u64 {
    let v = if src64 {
        f64::from_bits(x)
    } else {
        let b = x as u32;
        f64::from(f32::from_bits(if ftz { ftz32(b) } else { b }))
    };
    if v.is_nan() {
        return if ntz { 0 } else { 1 << (dst.bits().max(32) - 1) };
    }
    let b = dst.bits();
    let (lo, hi): (i128, i128) =
        if dst.signed() { (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1) } else { (0, (1i128 << b) - 1) };
    // `as i128` saturates at i128's range, far outside every destination type.
    let i = (round_int(v, r) as i128).clamp(lo, hi);
    // A narrow destination fills the 32-bit register: signed results sign-extended (ptxas
    // stores `F2I.S8` straight out for `cvt.rni.sat.s8.f32` + `cvt.s32.s8`), unsigned ones
    // zero-extended (they are non-negative after the clamp).
    let bits = i as u64;
    if dst.bits() < 64 { bits & 0xffff_ffff } else { bits }
}

/// `I2F`: integer to f32 (or f64 with `dst64`) with rounding `rnd`.
pub fn i2f(x: u64, src: IntTy, dst64: bool, rnd: Rnd) -> u64 {
    let v = src.value(x);
    if dst64 {
        // |v| < 2^64: exact in two f64s.
        let hi = (v >> 32) as f64 * 4294967296.0;
        let lo = (v & 0xffff_ffff) as f64;
        let (s, e) = two_sum(hi, lo);
        round64(s, e, rnd).to_bits()
    } else {
        let hi = (v >> 32) as f64 * 4294967296.0;
        let lo = (v & 0xffff_ffff) as f64;
        let (s, e) = two_sum(hi, lo);
        let r = if rnd == Rnd::Rn {
            // Correct RN from the exact pair.
            let c = s as f32;
            let d = (s - f64::from(c)) + e;
            let ulp = f64::from(next_up32(c.abs()) - c.abs());
            if d.abs() * 2.0 > ulp || (d.abs() * 2.0 == ulp && c.to_bits() & 1 == 1) {
                if d > 0.0 { next_up32(c) } else { next_down32(c) }
            } else {
                c
            }
        } else {
            round32(s, e, rnd)
        };
        u64::from(r.to_bits())
    }
}

/// `F2F` f64 → f32 with rounding (and `.FTZ`). A NaN keeps its sign and the top 22 bits of
/// its payload, quieted: `0x7ff0000000000001` → `0x7fc00000`, `0xffffffffffffffff` →
/// `0xffffffff` (golden of `cvt_f64_f32`, `cvt.rn/rz/rp/rm.f32.f64` of NaNs).
pub fn f2f_f64_f32(x: u64, rnd: Rnd, ftz: bool) -> u32 {
    let v = f64::from_bits(x);
    if v.is_nan() {
        return ((x >> 32) as u32 & 0x8000_0000) | 0x7fc0_0000 | ((x >> 29) as u32 & 0x003f_ffff);
    }
    let c = v as f32;
    let r = if rnd == Rnd::Rn { c } else { round32(v, 0.0, rnd) };
    let b = r.to_bits();
    if ftz { ftz32(b) } else { b }
}

/// `F2F` f32 → f64 (exact). A NaN keeps its sign and payload (shifted to the top of the f64
/// fraction), quieted: `0x7f800001` → `0x7ff8000020000000`, `0xffffffff` →
/// `0xffffffffe0000000` (golden of `cvt_f64_f32`, `cvt.f64.f32` of NaNs).
pub fn f2f_f32_f64(x: u32, ftz: bool) -> u64 {
    let v = f32::from_bits(if ftz { ftz32(x) } else { x });
    if v.is_nan() {
        let x = u64::from(x);
        return ((x & 0x8000_0000) << 32) | 0x7ff8_0000_0000_0000 | ((x & 0x003f_ffff) << 29);
    }
    f64::from(v).to_bits()
}

/// `FRND` (f32): round to an integral value.
pub fn frnd32(x: u32, r: IntRnd, ftz: bool) -> u32 {
    let v = f32::from_bits(if ftz { ftz32(x) } else { x });
    if v.is_nan() {
        return NAN32;
    }
    let t = round_int(f64::from(v), r) as f32;
    // Keep the sign of zero results (e.g. trunc(-0.5) = -0).
    let t = if t == 0.0 && v.is_sign_negative() { -0.0 } else { t };
    t.to_bits()
}

/// `FRND.F64`: f64 rounded to an integral value (zero signs kept). A NaN keeps its payload,
/// quieted (golden of `cvt_f64_f32`: `cvt.rni.f64.f64` of `0xffffffffe0000000` is itself).
pub fn frnd64(x: u64, r: IntRnd) -> u64 {
    let v = f64::from_bits(x);
    if v.is_nan() {
        return x | 1 << 51;
    }
    let t = round_int(v, r);
    let t = if t == 0.0 && v.is_sign_negative() { -0.0 } else { t };
    t.to_bits()
}

/// Converts an f16 (bits) to f32, exactly.
pub fn f16_to_f32(h: u16) -> f32 {
    let s = u32::from(h >> 15) << 31;
    let e = (h >> 10) & 0x1f;
    let m = u32::from(h & 0x3ff);
    let bits = match (e, m) {
        (0, 0) => s,
        (0, m) => {
            // Denormal: m * 2^-24.
            let v = m as f32 * f32::from_bits(0x3380_0000);
            return if s != 0 { -v } else { v };
        }
        (0x1f, 0) => s | 0x7f80_0000,
        (0x1f, m) => s | 0x7fc0_0000 | (m << 13),
        (e, m) => s | ((u32::from(e) + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// `HADD2.F32`: two f16s (bits) summed into an f32, rounded to nearest even; a NaN operand
/// or result gives the canonical NaN. The sum of two f16s is exact in f64 (11-bit significands,
/// exponents 2^-24..2^15), so one rounding to f32 is the correctly rounded result. With
/// `a = -0` (ptxas's `cvt.f32.f16`) it is the exact conversion of `b`, `-0` kept.
pub fn hadd2_f32(a: u16, b: u16) -> u32 {
    let v = f64::from(f16_to_f32(a)) + f64::from(f16_to_f32(b));
    if v.is_nan() { NAN32 } else { (v as f32).to_bits() }
}

/// `HADD2.F32.SAT`: [`hadd2_f32`] clamped to [+0, 1]; a NaN or any negative result (-0
/// included) gives +0 (PTX `.sat`: "NaN results are flushed to +0.0f", the range [0.0, 1.0]).
pub fn hadd2_f32_sat(a: u16, b: u16) -> u32 {
    let r = hadd2_f32(a, b);
    let v = f32::from_bits(r);
    if v.is_nan() || r & 0x8000_0000 != 0 {
        0
    } else if v > 1.0 {
        1f32.to_bits()
    } else {
        r
    }
}

/// `.XORSIGN` on an f32 min/max result `r` (`FMNMX.XORSIGN d, |a|, |b|`, PTX
/// `min/max.xorsign.abs`): the magnitude is the min/max of the absolute values, the sign bit
/// the XOR of the operands' sign bits before `|x|` (`sa`, `sb`: the raw operands, negation
/// applied). A NaN result stays as it is (the canonical NaN: PTX defines no sign for it; not
/// measured on hardware).
pub fn xorsign32(r: u32, sa: u32, sb: u32) -> u32 {
    if f32::from_bits(r).is_nan() { r } else { (r & 0x7fff_ffff) | ((sa ^ sb) & 0x8000_0000) }
}

/// [`xorsign32`] on both halves of an `HMNMX2.XORSIGN` result (f16 and bf16 alike: bit 15 is the
/// sign, and a NaN half — exponent all ones, fraction nonzero — stays as it is).
pub fn xorsign_half2(r: u32, sa: u32, sb: u32, bf16: bool) -> u32 {
    let mut out = 0u32;
    for sh in [0, 16] {
        let h = (r >> sh) as u16;
        let (exp, frac) = if bf16 { (0x7f80u16, 0x007fu16) } else { (0x7c00, 0x03ff) };
        let nan = h & exp == exp && h & frac != 0;
        let s = ((sa ^ sb) >> sh) as u16 & 0x8000;
        let o = if nan { h } else { (h & 0x7fff) | s };
        out |= u32::from(o) << sh;
    }
    out
}

/// `FSET[.BF].<cmp>.<bop>[.FTZ]`: `cmp(a, b) bop p` (operands already carrying their `-`/`|x|`;
/// `.FTZ` compares flushed subnormals), written as 1.0f with `bf` (`.BF`, PTX `set.*.f32.f32`)
/// or the all-ones mask (PTX `set.*.u32.f32`) when true, 0 when false.
pub fn fset(a: u32, b: u32, p: bool, cmp: Cmp, bop: BoolOp, ftz: bool, bf: bool) -> u32 {
    let (x, y) = (in32(a, ftz), in32(b, ftz));
    let t = bop.apply(cmp.eval(x.partial_cmp(&y)), p);
    match (t, bf) {
        (false, _) => 0,
        (true, true) => 1f32.to_bits(),
        (true, false) => u32::MAX,
    }
}

/// `F2F.F64.F16`: the f16 `h` widened exactly to f64; a NaN gives the canonical NaN
/// `0x7fffffffffffffff`, as `F2F.F32.F16` gives `0x7fffffff` (a modelling choice by analogy, not
/// a hardware measurement).
pub fn f2f_f16_f64(h: u16) -> u64 {
    let x = crate::launch::float::f16_to_f64(h);
    if x.is_nan() { NAN64 } else { x.to_bits() }
}

/// `FRND.F16`: the binary16 `h` rounded to an integral binary16 with `r`; a NaN gives the
/// canonical NaN `0x7fff`, infinities and zeros stay, a zero result keeps the sign (every f16 is
/// exact in f64 and every integral f16 is representable, so one rounding in f64 is exact).
pub fn frnd16(h: u16, r: IntRnd) -> u16 {
    let v = crate::launch::float::f16_to_f64(h);
    if v.is_nan() {
        return 0x7fff;
    }
    if v.is_infinite() {
        return h;
    }
    let t = round_int(v, r);
    let t = if t == 0.0 && v.is_sign_negative() { -0.0 } else { t };
    crate::launch::float::f64_to_f16(t)
}

/// `F2F.F16`/`F2F.BF16` from f32 or f64 (`x`, exact in f64): rounded once to the half format
/// (`bf16`: bfloat16, else binary16) with `rnd`; a NaN gives the canonical NaN `0x7fff`.
/// A directed rounding starts from the nearest value and steps one unit in the last place
/// (magnitude ±1 in the bit pattern, which is monotonic within a sign) when the nearest value
/// lies on the wrong side of `x`: toward zero that turns an overflow into the largest finite
/// value, away from zero a tiny value into the smallest subnormal.
pub fn f2f_half(x: f64, bf16: bool, rnd: Rnd) -> u16 {
    use crate::launch::float::{bf16_to_f64, f16_to_f64, f64_to_bf16, f64_to_f16};
    if x.is_nan() {
        return 0x7fff;
    }
    let h = if bf16 { f64_to_bf16(x) } else { f64_to_f16(x) };
    let v = if bf16 { bf16_to_f64(h) } else { f16_to_f64(h) };
    // Exact (zeros included: the nearest value keeps x's sign).
    if v == x {
        return h;
    }
    let neg = x.is_sign_negative();
    let toward_zero = match rnd {
        Rnd::Rn => return h,
        Rnd::Rz => true,
        Rnd::Rm => !neg,
        Rnd::Rp => neg,
    };
    // Whether the nearest value lies farther from zero than x (|v| > |x|).
    let beyond = if neg { v < x } else { v > x };
    let (sign, mag) = (h & 0x8000, h & 0x7fff);
    match (toward_zero, beyond) {
        (true, true) => sign | (mag - 1),
        (false, false) => sign | (mag + 1),
        _ => h,
    }
}

/// One half of `F2FP`: f32 `x` rounded to the half format with `rnd` ([`f2f_half`]); with
/// `.RELU` a negative result (-0 included) becomes +0 and a NaN stays the canonical `0x7fff`
/// (PTX's `cvt.relu`: negative results clamp to 0, NaN results are canonical).
pub fn f2fp_half(x: u32, bf16: bool, rnd: Rnd, relu: bool) -> u16 {
    let h = f2f_half(f64::from(f32::from_bits(x)), bf16, rnd);
    if relu && h & 0x8000 != 0 { 0 } else { h }
}

/// `F2F.F16.F64`/`F2F.BF16.F64`: as [`f2f_half`], except that a NaN keeps its sign and the top
/// of its payload, quieted (H200 golden of cvt_f16_bf16: `0x7ff0000000000001` gives `0x7e00` /
/// `0x7fc0`, `0xffffffffffffffff` gives `0xffff`, where the f32 sources of `F2F`/`F2FP` give
/// `0x7fff`).
pub fn f2f_half_from64(x: u64, bf16: bool, rnd: Rnd) -> u16 {
    let v = f64::from_bits(x);
    if !v.is_nan() {
        return f2f_half(v, bf16, rnd);
    }
    let frac_bits = if bf16 { 7 } else { 10 };
    let exp_all = if bf16 { 0x7f80 } else { 0x7c00 };
    let sign = ((x >> 63) as u16) << 15;
    let top = ((x & ((1u64 << 52) - 1)) >> (52 - frac_bits)) as u16;
    sign | exp_all | 1 << (frac_bits - 1) | top
}

/// Converts an f32 to f16 bits, round to nearest even.
pub fn f32_to_f16(x: f32) -> u16 {
    crate::launch::float::f64_to_f16(f64::from(x))
}

/// `HADD2`/`HMUL2`/`HFMA2` on packed f16 pairs: each half computed exactly in f32/f64 and rounded
/// once to f16 (RN). `op` 0 = add (a+c), 1 = mul (a*b), 2 = fma (a*b+c).
pub fn h2(op: u8, a: u32, b: u32, c: u32) -> u32 {
    let mut r = 0u32;
    for i in 0..2 {
        let sh = 16 * i;
        let x = f64::from(f16_to_f32((a >> sh) as u16));
        let y = f64::from(f16_to_f32((b >> sh) as u16));
        let z = f64::from(f16_to_f32((c >> sh) as u16));
        // Products and sums of f16s are exact in f64 (22-bit products, exponents within range).
        let v = match op {
            0 => x + z,
            1 => x * y,
            _ => x * y + z,
        };
        let h = if v.is_nan() { 0x7fff } else { crate::launch::float::f64_to_f16(v) };
        r |= u32::from(h) << sh;
    }
    r
}

/// Modifiers of the sm_90 half-precision family (`HADD2`, `HMUL2`, `HFMA2`, `HMNMX2`,
/// `HSETP2`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HalfMods {
    /// `.BF16_V2`: the halves are bfloat16 (otherwise binary16).
    pub bf16: bool,
    /// `.FTZ`: subnormal inputs and results flush to (sign-preserving) zero.
    pub ftz: bool,
    /// `.SAT`: results clamp to [+0, 1], NaN to +0.
    pub sat: bool,
    /// `.RELU`: negative results become +0, NaN the canonical NaN.
    pub relu: bool,
    /// `.NAN` (`HMNMX2` only, PTX `min/max.NaN`): a NaN half gives the canonical NaN half.
    pub nan: bool,
    /// `.XORSIGN` (`HMNMX2` only, PTX `min/max.xorsign.abs`): applied by the executor with
    /// [`xorsign_half2`] on the operands' signs before `|x|`.
    pub xorsign: bool,
}

/// A half operand selector applied to a 32-bit register (`.H0_H0` = 2 copies the low half to
/// both halves, `.H1_H1` = 3 the high half; anything else leaves the pair as it is).
pub fn hsel(v: u32, sel: u8) -> u32 {
    match sel {
        2 => (v & 0xffff) * 0x1_0001,
        3 => (v >> 16) * 0x1_0001,
        _ => v,
    }
}

fn half_exp_zero(h: u16, bf16: bool) -> bool {
    if bf16 { h & 0x7f80 == 0 } else { h & 0x7c00 == 0 }
}

/// One half's exact value (subnormals flushed under `.FTZ`).
fn half_in(h: u16, m: HalfMods) -> f64 {
    let h = if m.ftz && half_exp_zero(h, m.bf16) { h & 0x8000 } else { h };
    if m.bf16 { crate::launch::float::bf16_to_f64(h) } else { crate::launch::float::f16_to_f64(h) }
}

/// A result rounded once to the half format (RN), then `.SAT`/`.FTZ`/`.RELU`.
fn half_out(v: f64, m: HalfMods) -> u16 {
    // The canonical NaN is 0x7fff in both formats.
    if v.is_nan() {
        return if m.sat { 0 } else { 0x7fff };
    }
    let mut h = if m.bf16 { crate::launch::float::f64_to_bf16(v) } else { crate::launch::float::f64_to_f16(v) };
    if m.sat {
        let one = if m.bf16 { 0x3f80 } else { 0x3c00 };
        h = if h & 0x8000 != 0 { 0 } else { h.min(one) };
    }
    if m.ftz && half_exp_zero(h, m.bf16) {
        h &= 0x8000;
    }
    if m.relu && h & 0x8000 != 0 {
        h = 0;
    }
    h
}

/// `HADD2` (op 0: `a + b`), `HMUL2` (op 1: `a * b`) and `HFMA2` (op 2: `a * b + c`) on both
/// halves, with modifiers; the operands already carry their selectors and signs. Each half is
/// computed exactly (in `f64`, with the FMA's rounding error kept) and rounded once.
pub fn half2(op: u8, a: u32, b: u32, c: u32, m: HalfMods) -> u32 {
    let mut r = 0u32;
    for sh in [0, 16] {
        let (x, y, z) = (half_in((a >> sh) as u16, m), half_in((b >> sh) as u16, m), half_in((c >> sh) as u16, m));
        // Sums and products of halves are exact in f64 except the FMA's final add: keep its
        // error term and nudge the sum one f64 ulp toward it, so the one rounding to the half
        // format breaks an exact-midpoint tie the way the exact value does.
        let v = match op {
            0 => x + y,
            1 => x * y,
            _ => {
                let (s, e) = two_sum(x * y, z);
                if s.is_finite() && e != 0.0 && s != 0.0 {
                    let toward_larger_magnitude = (e > 0.0) == (s > 0.0);
                    let b = s.to_bits();
                    f64::from_bits(if toward_larger_magnitude { b + 1 } else { b - 1 })
                } else {
                    s
                }
            }
        };
        r |= u32::from(half_out(v, m)) << sh;
    }
    r
}

/// `HMNMX2` on both halves: the minimum when `min`, else the maximum; a NaN operand gives the
/// other one (both NaN: the canonical NaN); `-0 < +0`. `.NAN`: a NaN operand gives the
/// canonical NaN `0x7fff`, in f16 and bf16 alike (goldens of f16_compare_minmax, out[190]:
/// `__hmin2_nan`, and bf16_compare_minmax, out[20]: `__hmax2_nan`).
pub fn hmnmx2(a: u32, b: u32, min: bool, m: HalfMods) -> u32 {
    let mut r = 0u32;
    for sh in [0, 16] {
        let (ha, hb) = ((a >> sh) as u16, (b >> sh) as u16);
        let (x, y) = (half_in(ha, m), half_in(hb, m));
        let pick =
            |v: f64| if m.bf16 { crate::launch::float::f64_to_bf16(v) } else { crate::launch::float::f64_to_f16(v) };
        let h = match (x.is_nan(), y.is_nan()) {
            (true, _) | (_, true) if m.nan => 0x7fff,
            (true, true) => 0x7fff,
            (true, false) => pick(y),
            (false, true) => pick(x),
            _ => {
                let lt = x < y || (x == y && x.is_sign_negative() && !y.is_sign_negative());
                pick(if lt == min { x } else { y })
            }
        };
        r |= u32::from(h) << sh;
    }
    r
}

/// `HSETP2`'s comparison of the low halves (the operands carry their selectors).
pub fn hsetp_lo(a: u32, b: u32, cmp: Cmp, m: HalfMods) -> bool {
    cmp.eval(half_in(a as u16, m).partial_cmp(&half_in(b as u16, m)))
}

/// `VIADDMNMX`: the 32-bit sum `a + b` (wrapping), then its minimum (`min`) or maximum with `c`,
/// compared signed or unsigned. ptxas uses it to clamp exponent differences in its f64
/// division/sqrt subroutines (`VIADDMNMX R14, R15, -R14, 0xb9600000, !PT`: max).
pub fn viaddmnmx(a: u32, b: u32, c: u32, signed: bool, min: bool) -> u32 {
    let s = a.wrapping_add(b);
    let lt = if signed { (s as i32) < (c as i32) } else { s < c };
    if lt == min { s } else { c }
}

/// `PRMT`'s byte-selection modes (PTX `prmt.f4e` ...): the low two bits of the selector pick a
/// pattern of four byte indices into the eight bytes `{b, a}` (`a` = bytes 0–3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    /// Forward 4 extract: bytes `s, s+1, s+2, s+3`.
    F4e,
    /// Backward 4 extract: bytes `s, s-1, s-2, s-3` (mod 8).
    B4e,
    /// Replicate byte `s`.
    Rc8,
    /// Edge clamp left: bytes `s, max(s,1), max(s,2), 3`.
    Ecl,
    /// Edge clamp right: bytes `0, min(s,1), min(s,2), s`.
    Ecr,
    /// Replicate the 16-bit half `s & 1`.
    Rc16,
}

impl PrmtMode {
    /// The mode of a `PRMT` modifier token.
    pub fn from_token(t: &str) -> Option<PrmtMode> {
        Some(match t {
            "F4E" => PrmtMode::F4e,
            "B4E" => PrmtMode::B4e,
            "RC8" => PrmtMode::Rc8,
            "ECL" => PrmtMode::Ecl,
            "ECR" => PrmtMode::Ecr,
            "RC16" => PrmtMode::Rc16,
            _ => return None,
        })
    }
}

/// `PRMT` with a byte-selection mode: result byte `k` is byte `idx[k]` of `{b, a}`.
pub fn prmt_mode(a: u32, sel: u32, b: u32, mode: PrmtMode) -> u32 {
    let src = u64::from(b) << 32 | u64::from(a);
    let s = sel & 3;
    let idx = match mode {
        PrmtMode::F4e => [s, s + 1, s + 2, s + 3],
        PrmtMode::B4e => [s, (s + 7) & 7, (s + 6) & 7, (s + 5) & 7],
        PrmtMode::Rc8 => [s; 4],
        PrmtMode::Ecl => [s, s.max(1), s.max(2), 3],
        PrmtMode::Ecr => [0, s.min(1), s.min(2), s],
        PrmtMode::Rc16 => {
            let h = (s & 1) * 2;
            [h, h + 1, h, h + 1]
        }
    };
    idx.iter().rev().fold(0u32, |r, &k| r << 8 | (src >> (8 * k)) as u32 & 0xff)
}

/// `DSETP.MIN`/`DSETP.MAX a, b`: `(pick_a, both_nan)`, ptxas's f64 `min`/`max` (the result is
/// `a` where `pick_a`, else `b`, and `b` quieted where `both_nan`). A NaN operand loses to a
/// number; of two equal zeros the minimum is the negative one.
pub fn dsetp_minmax(a: u64, b: u64, min: bool) -> (bool, bool) {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => (false, true),
        (true, false) => (false, false),
        (false, true) => (true, false),
        _ if x == y => (x.is_sign_negative() == min || x.is_sign_negative() == y.is_sign_negative(), false),
        _ => ((x < y) == min, false),
    }
}

/// `F2IP.U8.F32`/`F2IP.S8.F32` of one f32: rounded to the nearest integer (ties to even),
/// saturated to the byte's range; NaN gives 0 (`.NTZ`, the only form ptxas emits for
/// `cvt.rni.{u8,s8}.f32`). The byte's bits (`s8` two's complement).
pub fn f2ip(x: u32, signed: bool) -> u32 {
    let f = f32::from_bits(x);
    if f.is_nan() {
        return 0;
    }
    let (lo, hi) = if signed { (-128.0, 127.0) } else { (0.0, 255.0) };
    (f.round_ties_even().clamp(lo, hi) as i32 as u32) & 0xff
}

/// `VABSDIFF4` byte by byte: `|a_k - b_k|` per byte (`signed`: the bytes as s8). With `acc`, the
/// sum of the four differences plus `c`; else the differences packed.
pub fn vabsdiff4(a: u32, b: u32, c: u32, signed: bool, acc: bool) -> u32 {
    let byte = |v: u32, k: u32| -> i32 {
        let x = (v >> (8 * k)) & 0xff;
        if signed { x as u8 as i8 as i32 } else { x as i32 }
    };
    let d: [u32; 4] = std::array::from_fn(|k| byte(a, k as u32).abs_diff(byte(b, k as u32)));
    if acc { d.iter().fold(c, |s, &x| s.wrapping_add(x)) } else { d.iter().rev().fold(0, |r, &x| r << 8 | (x & 0xff)) }
}

/// `VABSDIFF a, b, c`: `|a - b| + c` on 32-bit integers (wrapping).
pub fn vabsdiff(a: u32, b: u32, c: u32, signed: bool) -> u32 {
    let d = if signed { (a as i32).abs_diff(b as i32) } else { a.abs_diff(b) };
    d.wrapping_add(c)
}

/// `VIADD.16x2 a, b` (`lanes` 2) and sm_120's `VIADD.U8x4 a, b` (`lanes` 4): independent
/// sums of each 16-bit half or byte, wrapping (no carry between lanes); a negated operand is
/// negated per lane.
pub fn viadd_simd(a: u32, b: u32, neg_a: bool, neg_b: bool, lanes: u8) -> u32 {
    let bits = 32 / u32::from(lanes.clamp(1, 4));
    let mask = if bits == 32 { u32::MAX } else { (1 << bits) - 1 };
    let part = |v: u32, k: u32, neg: bool| {
        let x = v >> (bits * k) & mask;
        if neg { x.wrapping_neg() & mask } else { x }
    };
    (0..32 / bits).fold(0, |r, k| r | (part(a, k, neg_a).wrapping_add(part(b, k, neg_b)) & mask) << (bits * k))
}

/// sm_120's `VIADD.S32.ISAT a, b`: the signed 32-bit sum, saturated (PTX `add.sat.s32`).
pub fn iadd_sat_s32(a: u32, b: u32) -> u32 {
    (a as i32).saturating_add(b as i32) as u32
}

/// `VIADD.S32.ISAT [-]a, [-]b` (`na`, `nb`: the operands' `-`): the exact signed sum of the
/// (negated) operands, saturated to s32. ptxas's sm_120 `sub.sat.s32 d, a, b` is
/// `VIADD.S32.ISAT d, a, -b`, so the negation is exact (`-INT_MIN` is 2^31, not wrapped).
pub fn viadd_sat_s32(a: u32, b: u32, na: bool, nb: bool) -> u32 {
    let v = |x: u32, n: bool| if n { -i64::from(x as i32) } else { i64::from(x as i32) };
    (v(a, na) + v(b, nb)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
}

/// `VIMNMX.{S16x2,U16x2} a, b` (`lanes` 2) and sm_120's `VIMNMX.{S8x4,U8x4}` (`lanes` 4): the
/// minimum (`min`) or maximum of each 16-bit half or byte.
pub fn imnmx_simd(a: u32, b: u32, signed: bool, min: bool, lanes: u8) -> u32 {
    let bits = 32 / u32::from(lanes.clamp(1, 4));
    let mask = if bits == 32 { u32::MAX } else { (1 << bits) - 1 };
    (0..32 / bits).fold(0, |r, k| {
        let (x, y) = (a >> (bits * k) & mask, b >> (bits * k) & mask);
        // Sign-extend the lane for the signed comparison.
        let sx = |v: u32| ((v << (32 - bits)) as i32) >> (32 - bits);
        let lt = if signed { sx(x) < sx(y) } else { x < y };
        r | (if lt == min { x } else { y }) << (bits * k)
    })
}

/// The modifiers of `LEA`/`LEA.HI` (see [`lea`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LeaMods {
    /// `.HI`: the high word of the shifted 64-bit `{c, a}` (else the low word of `a << sh`).
    pub hi: bool,
    /// `.X`: the carry in is added (else the negations' `+1`s).
    pub x: bool,
    /// `.SX32`: the high word is `a`'s sign (else `c`).
    pub sx32: bool,
    /// `a` negated (`-a` or `~a`): the shifted value is inverted.
    pub a_inv: bool,
    /// `-a` outside `.X`: plus one (two's complement of the shifted value).
    pub a_one: bool,
    /// `b` negated (`-b` or `~b`): inverted.
    pub b_inv: bool,
    /// `-b` outside `.X`: plus one.
    pub b_one: bool,
}

impl LeaMods {
    /// The modifiers from the operands' signs: `-x` is `~x + 1` outside `.X`, `~x` inside (as
    /// IADD3's negated operands).
    pub fn new(hi: bool, x: bool, sx32: bool, a: (bool, bool), b: (bool, bool)) -> LeaMods {
        let ((an, at), (bn, bt)) = (a, b);
        LeaMods { hi, x, sx32, a_inv: an || at, a_one: an && !at && !x, b_inv: bn || bt, b_one: bn && !bt && !x }
    }
}

/// `LEA d, P, a, b, sh` = `(a << sh) + b`; `LEA.HI d, P, a, b, c, sh` = the high word of
/// `{c, a} << sh` (`.SX32`: `{sign(a), a}`), plus `b`; the carry out in `P`. A negated `a`
/// negates the *shifted* value (`b - (a << sh)`: ptxas's `LEA d, P0, -a, b, s` followed by
/// `IMAD.X hi, b_hi, 1, ~hi(a << s), P0` for a 64-bit `b - (a << s)`, whose carry is that of
/// `b + ~(a << s) + 1`; semantics_fixes::lea_negated_operands, NVIDIA's code against the
/// interpreter). `.X` adds the carry in `cin` instead of the negations' ones.
pub fn lea(a: u32, b: u32, c: u32, sh: u32, m: LeaMods, cin: bool) -> (u32, bool) {
    let hiw = if m.sx32 { ((a as i32) >> 31) as u32 } else { c };
    let v = (u64::from(hiw) << 32) | u64::from(a);
    let sh = sh & 63;
    let mut shifted = if m.hi { ((u128::from(v) << sh) >> 32) as u32 } else { (v << sh) as u32 };
    if m.a_inv {
        shifted = !shifted;
    }
    let b = if m.b_inv { !b } else { b };
    let ones = if m.x { u64::from(cin) } else { u64::from(m.a_one) + u64::from(m.b_one) };
    let s = u64::from(shifted) + u64::from(b) + ones;
    (s as u32, s >> 32 != 0)
}

/// `.RELU` on a min/max result of `lanes` signed lanes per register: each negative lane
/// becomes 0.
pub fn relu_lanes(r: u32, lanes: u8) -> u32 {
    let bits = 32 / u32::from(lanes.clamp(1, 4));
    let mask = if bits == 32 { u32::MAX } else { (1 << bits) - 1 };
    (0..32 / bits).fold(0, |acc, k| {
        let x = r >> (bits * k) & mask;
        if x >> (bits - 1) & 1 == 1 { acc } else { acc | x << (bits * k) }
    })
}

/// `VIMNMX3 a, b, c`: the minimum (`min`) or maximum of three 32-bit integers.
pub fn vimnmx3(a: u32, b: u32, c: u32, signed: bool, min: bool) -> u32 {
    let pick = |x: u32, y: u32| {
        let lt = if signed { (x as i32) < (y as i32) } else { x < y };
        if lt == min { x } else { y }
    };
    pick(pick(a, b), c)
}

/// `IDP`: `c` plus the dot product of `a`'s parts and `b`'s bytes (wrapping): four bytes each
/// (`.4A`), or `a`'s two 16-bit halves with `b`'s bytes 0–1 (2–3 with `hi`) (`.2A`).
pub fn idp(a: u32, b: u32, c: u32, two: bool, hi: bool, sa: bool, sb: bool) -> u32 {
    let part = |v: u32, k: u32, bits: u32, signed: bool| -> i64 {
        let x = (v >> (k * bits)) & ((1u32 << bits) - 1);
        if signed { i64::from(x) - (i64::from(x >> (bits - 1)) << bits) } else { i64::from(x) }
    };
    let mut acc = i64::from(c);
    if two {
        let off = if hi { 2 } else { 0 };
        for k in 0..2 {
            acc += part(a, k, 16, sa) * part(b, k + off, 8, sb);
        }
    } else {
        for k in 0..4 {
            acc += part(a, k, 8, sa) * part(b, k, 8, sb);
        }
    }
    acc as u32
}

/// The tensor-core arithmetic is the compiler crate's, shared with the Ori interpreter.
pub use ptxas_rs::ori::tensor::{MmaType, mma_f32, mma_s32};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shf_examples() {
        assert_eq!(shf(0, 0x1f, 0x8000_0000, false, false, ShfType::S32, true), 0xffff_ffff);
        assert_eq!(shf(5, 2, 0, true, false, ShfType::U32, false), 20);
        assert_eq!(shf(0x8000_0001, 1, 0, true, false, ShfType::U64, true), 1);
    }

    #[test]
    fn lop3_tables() {
        assert_eq!(lop3(0xf0, 0xcc, 0xaa, 0xc0), 0xf0 & 0xcc);
        assert_eq!(lop3(0xf0, 0xcc, 0xaa, 0xfc), 0xf0 | 0xcc);
        assert_eq!(lop3(0xf0, 0xcc, 0xaa, 0x3c), 0xf0 ^ 0xcc);
    }

    /// Edge-biased random 16-bit half: zeros, subnormals, ones, infinities, NaNs, extremes, or
    /// any pattern.
    fn half_bits(x: &mut u64, bf16: bool) -> u32 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        let edges: &[u16] = if bf16 {
            &[0, 0x8000, 0x0001, 0x807f, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x7f7f, 0x0080, 0x3f00]
        } else {
            &[0, 0x8000, 0x0001, 0x83ff, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x0400, 0x3800]
        };
        let r = (*x >> 20) as u16;
        if *x & 3 == 0 { u32::from(edges[usize::from(r) % edges.len()]) } else { u32::from(r) }
    }

    /// The half-precision family against the interpreter's semantics
    /// (`ptxas_rs::ori::semantics::eval` of `HADD2`/`HMUL2`/`HFMA2`/`HMNMX2`/`HSETP2`), random
    /// full-width operands, every modifier combination the emission spells.
    #[test]
    fn half_family_matches_the_interpreter() {
        use ptxas_rs::ori::semantics::{Arg as OArg, Val, eval};
        use ptxas_rs::ori::{self as o, Flag, Opcode};
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for case in 0..60_000u32 {
            let bf16 = case & 1 == 1;
            let ftz = case & 2 != 0 && !bf16;
            let sat = case & 4 != 0 && !bf16;
            let relu = case & 8 != 0;
            let nan = case & 64 != 0;
            let op = (case >> 4) % 5;
            let pair = |x: &mut u64| half_bits(x, bf16) | half_bits(x, bf16) << 16;
            let (a, b, c) = (pair(&mut x), pair(&mut x), pair(&mut x));
            let m =
                HalfMods { bf16, ftz, sat: sat && op < 3, relu: relu && op == 2, nan: nan && op == 3, xorsign: false };
            let ty = if bf16 { o::Ty::BF16x2 } else { o::Ty::F16x2 };
            let mut mods = o::Mods::ty(ty);
            if m.ftz {
                mods.set(Flag::Ftz);
            }
            if m.sat {
                mods.set(Flag::Sat);
            }
            if m.relu {
                mods.set(Flag::Relu);
            }
            if m.nan {
                mods.set(Flag::NaN);
            }
            let bits = |v: u32| OArg { val: Val::Bits(u64::from(v)), neg: false, abs: false, not: false };
            let pred = |p: bool| OArg { val: Val::Pred(p), neg: false, abs: false, not: false };
            match op {
                0..=2 => {
                    let (opc, args, ours) = match op {
                        0 => (Opcode::HADD2, vec![bits(a), bits(b)], half2(0, a, b, 0, m)),
                        1 => (Opcode::HMUL2, vec![bits(a), bits(b)], half2(1, a, b, 0, m)),
                        _ => (Opcode::HFMA2, vec![bits(a), bits(b), bits(c)], half2(2, a, b, c, m)),
                    };
                    let want = eval(opc, &mods, &args).expect("eval");
                    let want = want[0].bits() as u32;
                    // NaN payloads: both sides give a NaN (hardware: the canonical one).
                    let nan = |h: u32| {
                        if bf16 {
                            h & 0x7f80 == 0x7f80 && h & 0x7f != 0
                        } else {
                            h & 0x7c00 == 0x7c00 && h & 0x3ff != 0
                        }
                    };
                    for sh in [0, 16] {
                        let (u, v) = ((ours >> sh) & 0xffff, (want >> sh) & 0xffff);
                        assert!(
                            u == v || (nan(u) && nan(v)),
                            "{opc} {m:?} {a:#x} {b:#x} {c:#x}: ours {ours:#x} interpreter {want:#x}"
                        );
                    }
                }
                3 => {
                    let min = case & 32 != 0;
                    let want = eval(Opcode::HMNMX2, &mods, &[bits(a), bits(b), pred(min)]).expect("eval");
                    let want = want[0].bits() as u32;
                    let ours = hmnmx2(a, b, min, m);
                    assert_eq!(ours, want, "HMNMX2 min={min} {m:?} {a:#x} {b:#x}");
                }
                _ => {
                    let cmps = [
                        o::Cmp::Eq,
                        o::Cmp::Ne,
                        o::Cmp::Lt,
                        o::Cmp::Le,
                        o::Cmp::Gt,
                        o::Cmp::Ge,
                        o::Cmp::Equ,
                        o::Cmp::Neu,
                        o::Cmp::Ltu,
                        o::Cmp::Leu,
                        o::Cmp::Gtu,
                        o::Cmp::Geu,
                        o::Cmp::Num,
                        o::Cmp::Nan,
                    ];
                    let oc = cmps[(x % 14) as usize];
                    let sc = Cmp::from_token(&oc.to_string().to_uppercase()).expect("token");
                    let mut mods = mods.clone();
                    mods.ty = Some(if bf16 { o::Ty::BF16 } else { o::Ty::F16 });
                    mods.cmp = Some(oc);
                    mods.bop = Some(o::BoolOp::And);
                    let want = eval(Opcode::HSETP2, &mods, &[bits(a), bits(b), pred(true)]).expect("eval");
                    let ours = hsetp_lo(a, b, sc, m);
                    assert_eq!(
                        Some(ours),
                        match want[0] {
                            Val::Pred(p) => Some(p),
                            _ => None,
                        },
                        "HSETP2.{sc:?} {m:?} {a:#x} {b:#x}"
                    );
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 60_000);
    }

    /// xorshift64: full-width random words for the checks below.
    fn rnd(x: &mut u64) -> u32 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        (*x >> 16) as u32
    }

    /// PTX ISA's table of `prmt`'s modes: for each mode and `c & 3`, the source byte of result
    /// bytes 3, 2, 1, 0 (written out from the manual, not derived from the implementation).
    #[test]
    fn prmt_modes_follow_the_ptx_table() {
        let table: [(PrmtMode, [[u32; 4]; 4]); 6] = [
            (PrmtMode::F4e, [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]]),
            (PrmtMode::B4e, [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]]),
            (PrmtMode::Rc8, [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]),
            (PrmtMode::Ecl, [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]]),
            (PrmtMode::Ecr, [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]]),
            (PrmtMode::Rc16, [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]]),
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let (a, b, c) = (rnd(&mut x), rnd(&mut x), rnd(&mut x));
            let bytes = [a.to_le_bytes(), b.to_le_bytes()].concat();
            for (mode, rows) in table {
                let sel = &rows[(c & 3) as usize];
                let want = u32::from_le_bytes([
                    bytes[sel[3] as usize],
                    bytes[sel[2] as usize],
                    bytes[sel[1] as usize],
                    bytes[sel[0] as usize],
                ]);
                assert_eq!(prmt_mode(a, c, b, mode), want, "{mode:?} a={a:#x} b={b:#x} c={c:#x}");
            }
        }
    }

    /// DSETP.MIN/MAX against Rust's f64 ordering, with the NaN and signed-zero rules spelled out.
    #[test]
    fn dsetp_minmax_picks_like_fmin_fmax() {
        let edges =
            [0.0f64, -0.0, 1.0, -1.0, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE, 5e-324, f64::NAN, -f64::NAN];
        let mut x = 7u64;
        let mut vals: Vec<f64> = edges.to_vec();
        vals.extend((0..40).map(|_| f64::from_bits(u64::from(rnd(&mut x)) << 32 | u64::from(rnd(&mut x)))));
        for &p in &vals {
            for &q in &vals {
                for min in [true, false] {
                    let (pick_a, nan2) = dsetp_minmax(p.to_bits(), q.to_bits(), min);
                    assert_eq!(nan2, p.is_nan() && q.is_nan());
                    if p.is_nan() || q.is_nan() {
                        assert_eq!(pick_a, !p.is_nan() && q.is_nan());
                        continue;
                    }
                    let got = if pick_a { p } else { q };
                    let want = if p == q && p == 0.0 {
                        // -0 < +0.
                        let neg = if min {
                            p.is_sign_negative() || q.is_sign_negative()
                        } else {
                            p.is_sign_negative() && q.is_sign_negative()
                        };
                        if neg { -0.0 } else { 0.0 }
                    } else if min {
                        p.min(q)
                    } else {
                        p.max(q)
                    };
                    assert_eq!(got.to_bits(), want.to_bits(), "p={p:e} q={q:e} min={min}");
                }
            }
        }
    }

    /// VABSDIFF4 and IDP against byte-array arithmetic in i64.
    #[test]
    fn byte_simd_ops_match_byte_arithmetic() {
        let mut x = 99u64;
        for _ in 0..2000 {
            let (a, b, c) = (rnd(&mut x), rnd(&mut x), rnd(&mut x));
            let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
            for signed in [false, true] {
                let v = |y: u8| if signed { i64::from(y as i8) } else { i64::from(y) };
                let diffs: Vec<i64> = (0..4).map(|k| (v(ab[k]) - v(bb[k])).abs()).collect();
                let packed = diffs.iter().rev().fold(0u32, |r, d| r << 8 | (*d as u32 & 0xff));
                assert_eq!(vabsdiff4(a, b, c, signed, false), packed);
                assert_eq!(vabsdiff4(a, b, c, signed, true), (i64::from(c) + diffs.iter().sum::<i64>()) as u32);
            }
            for (sa, sb) in [(false, false), (false, true), (true, false), (true, true)] {
                let va = |y: u8| if sa { i64::from(y as i8) } else { i64::from(y) };
                let vb = |y: u8| if sb { i64::from(y as i8) } else { i64::from(y) };
                let dot4: i64 = (0..4).map(|k| va(ab[k]) * vb(bb[k])).sum();
                assert_eq!(idp(a, b, c, false, false, sa, sb), (i64::from(c) + dot4) as u32);
                let h = |k: usize| {
                    let w = u16::from_le_bytes([ab[2 * k], ab[2 * k + 1]]);
                    if sa { i64::from(w as i16) } else { i64::from(w) }
                };
                for hi in [false, true] {
                    let o = if hi { 2 } else { 0 };
                    let dot2 = h(0) * vb(bb[o]) + h(1) * vb(bb[o + 1]);
                    assert_eq!(idp(a, b, c, true, hi, sa, sb), (i64::from(c) + dot2) as u32);
                }
            }
        }
    }

    /// `mma.m16n8k16` with A = the identity's first 16 columns scaled by 2 (exact in f16): D must
    /// be 2B + C element for element, which pins the A, B and C/D fragment layouts to each other.
    #[test]
    #[allow(clippy::needless_range_loop)] // lane and element indices are the fragment coordinates
    fn mma_with_a_scaled_identity_returns_b() {
        let f16 = |v: f32| u32::from(f32_to_f16(v));
        let mut x = 5u64;
        let bm: Vec<Vec<f32>> = (0..16).map(|_| (0..8).map(|_| (rnd(&mut x) % 64) as f32 - 32.0).collect()).collect();
        let cm: Vec<Vec<f32>> = (0..16).map(|_| (0..8).map(|_| (rnd(&mut x) % 1000) as f32 / 8.0).collect()).collect();
        let (mut a, mut b, mut c) = ([[0u32; 4]; 32], [[0u32; 2]; 32], [[0u32; 4]; 32]);
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for i in 0..8 {
                let (row, col) = (g + 8 * (i / 2 % 2), 2 * t + i % 2 + 8 * (i / 4));
                a[lane][i / 2] |= f16(if row == col { 2.0 } else { 0.0 }) << (16 * (i % 2));
            }
            for i in 0..4 {
                b[lane][i / 2] |= f16(bm[2 * t + i % 2 + 8 * (i / 2)][g]) << (16 * (i % 2));
                c[lane][i] = cm[g + 8 * (i / 2)][2 * t + i % 2].to_bits();
            }
        }
        let d = mma_f32(16, MmaType::F16, &a, &b, &c);
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for i in 0..4 {
                let (row, col) = (g + 8 * (i / 2), 2 * t + i % 2);
                assert_eq!(f32::from_bits(d[lane][i]), 2.0 * bm[row][col] + cm[row][col], "lane {lane} element {i}");
            }
        }
    }

    /// A negated `a` negates the shifted value, so `LEA lo, P, -a, b, s` then
    /// `LEA.HI.X hi, ~a, b_hi, c, s, P` is the 64-bit `b - ({c, a} << s)`, and `LEA.HI` with
    /// `-a` (no `.X`) the high word of `b_hi - hi({c, a} << s)`; on edge words and every shift.
    #[test]
    fn lea_negated_a_is_a_64_bit_subtraction() {
        let w = simd_words();
        for (k, &a) in w.iter().enumerate() {
            let c = w[(k * 7 + 3) % w.len()];
            let (bl, bh) = (w[(k * 13 + 5) % w.len()], w[(k * 5 + 1) % w.len()]);
            for sh in 0..32 {
                let want = (u64::from(bh) << 32 | u64::from(bl))
                    .wrapping_sub(((u64::from(c) << 32 | u64::from(a)) << sh) & u64::MAX);
                let lo = LeaMods::new(false, false, false, (true, false), (false, false));
                let (rl, p) = lea(a, bl, 0, sh, lo, false);
                let hx = LeaMods::new(true, true, false, (false, true), (false, false));
                let (rh, _) = lea(a, bh, c, sh, hx, p);
                assert_eq!(u64::from(rh) << 32 | u64::from(rl), want, "a {a:#x} c {c:#x} b {bh:#x}:{bl:#x} sh {sh}");
                let h = LeaMods::new(true, false, false, (true, false), (false, false));
                let hi = ((u64::from(c) << 32 | u64::from(a)) << sh >> 32) as u32;
                assert_eq!(lea(a, bh, c, sh, h, false).0, bh.wrapping_sub(hi));
            }
        }
    }

    /// A negated `b` is subtracted: `LEA lo, P, a, -bl, s` then `LEA.HI.X hi, a, ~bh, c, s, P`
    /// is the 64-bit `({c, a} << s) - b`, and `LEA.HI.SX32 d, a, -b, s` (NVIDIA's sm_90a
    /// `ULEA.HI.SX32 UR5, UR5, -UR11, 0x1a`) the high word of the sign-extended `a << s`
    /// minus `b`; on edge words and every shift, against 64-bit integer arithmetic.
    #[test]
    fn lea_negated_b_is_a_subtraction() {
        let w = simd_words();
        for (k, &a) in w.iter().enumerate() {
            let c = w[(k * 7 + 3) % w.len()];
            let (bl, bh) = (w[(k * 13 + 5) % w.len()], w[(k * 5 + 1) % w.len()]);
            for sh in 0..32 {
                let b = u64::from(bh) << 32 | u64::from(bl);
                let want = ((u64::from(c) << 32 | u64::from(a)) << sh).wrapping_sub(b);
                let lo = LeaMods::new(false, false, false, (false, false), (true, false));
                let (rl, p) = lea(a, bl, 0, sh, lo, false);
                assert_eq!(p, (u64::from(a) << sh) as u32 >= bl, "borrow of {a:#x} << {sh} - {bl:#x}");
                let hx = LeaMods::new(true, true, false, (false, false), (false, true));
                let (rh, _) = lea(a, bh, c, sh, hx, p);
                assert_eq!(u64::from(rh) << 32 | u64::from(rl), want, "a {a:#x} c {c:#x} b {b:#x} sh {sh}");
                let sx = LeaMods::new(true, false, true, (false, false), (true, false));
                let hi = ((i64::from(a as i32) << sh) >> 32) as u32;
                assert_eq!(lea(a, bh, 0, sh, sx, false).0, hi.wrapping_sub(bh), "a {a:#x} b {bh:#x} sh {sh}");
            }
        }
    }

    /// Edge-biased 32-bit words for the SIMD tests: every byte pattern the lanes care about
    /// (0, 1, 0x7f, 0x80, 0xff) in every position, and a pseudo-random sweep.
    fn simd_words() -> Vec<u32> {
        let bytes = [0u8, 1, 0x7f, 0x80, 0xff];
        let mut v: Vec<u32> = Vec::new();
        for &a in &bytes {
            for &b in &bytes {
                v.push(u32::from_le_bytes([a, b, b, a]));
                v.push(u32::from_le_bytes([b, a, a, b]));
            }
        }
        let mut x = 0x9e37_79b9u32;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            v.push(x);
        }
        v
    }

    /// sm_120's `VIADD.U8x4` (and `.16x2`) against per-lane sums of the little-endian byte /
    /// half arrays.
    #[test]
    fn viadd_simd_adds_each_lane_apart() {
        let w = simd_words();
        for &a in &w {
            for &b in w.iter().step_by(7) {
                for (na, nb) in [(false, false), (false, true), (true, false)] {
                    let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
                    let lane = |x: u8, n: bool| if n { 0u8.wrapping_sub(x) } else { x };
                    let want =
                        u32::from_le_bytes(std::array::from_fn(|k| lane(ab[k], na).wrapping_add(lane(bb[k], nb))));
                    assert_eq!(viadd_simd(a, b, na, nb, 4), want, "{a:#x} {b:#x} {na} {nb}");
                    let h = |v: u32, k: u32| (v >> (16 * k)) as u16;
                    let hn = |x: u16, n: bool| if n { 0u16.wrapping_sub(x) } else { x };
                    let want16 = (0..2)
                        .map(|k| u32::from(hn(h(a, k), na).wrapping_add(hn(h(b, k), nb))) << (16 * k))
                        .fold(0, |r, x| r | x);
                    assert_eq!(viadd_simd(a, b, na, nb, 2), want16, "{a:#x} {b:#x}");
                }
            }
        }
    }

    /// sm_120's `VIMNMX.{U8x4,S8x4}` (and `.16x2`) against per-lane `min`/`max` of the byte and
    /// half arrays, unsigned and signed.
    #[test]
    fn imnmx_simd_takes_each_lane_apart() {
        let w = simd_words();
        for &a in &w {
            for &b in w.iter().step_by(5) {
                for min in [true, false] {
                    let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
                    let pick_u = |x: u8, y: u8| if min { x.min(y) } else { x.max(y) };
                    let pick_s =
                        |x: u8, y: u8| (if min { (x as i8).min(y as i8) } else { (x as i8).max(y as i8) }) as u8;
                    let u = u32::from_le_bytes(std::array::from_fn(|k| pick_u(ab[k], bb[k])));
                    let s = u32::from_le_bytes(std::array::from_fn(|k| pick_s(ab[k], bb[k])));
                    assert_eq!(imnmx_simd(a, b, false, min, 4), u, "{a:#x} {b:#x} {min}");
                    assert_eq!(imnmx_simd(a, b, true, min, 4), s, "{a:#x} {b:#x} {min}");
                    let h = |v: u32, k: u32| (v >> (16 * k)) as u16;
                    let s16 = (0..2)
                        .map(|k| {
                            let (x, y) = (h(a, k) as i16, h(b, k) as i16);
                            u32::from((if min { x.min(y) } else { x.max(y) }) as u16) << (16 * k)
                        })
                        .fold(0, |r, x| r | x);
                    assert_eq!(imnmx_simd(a, b, true, min, 2), s16, "{a:#x} {b:#x} {min}");
                }
            }
        }
    }

    /// sm_120's `VIADD.S32.ISAT` against the sum in i64, clamped.
    #[test]
    fn iadd_sat_s32_clamps_the_exact_sum() {
        let edges = [0u32, 1, 0xffff_ffff, 0x7fff_ffff, 0x8000_0000, 0x8000_0001, 0x7fff_fffe, 12345, 0xdead_beef];
        for &a in &edges {
            for &b in &edges {
                let exact = i64::from(a as i32) + i64::from(b as i32);
                let want = exact.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32;
                assert_eq!(iadd_sat_s32(a, b), want, "{a:#x} {b:#x}");
            }
        }
    }
}

#[cfg(test)]
mod fma32_tests {
    use super::fma32;

    fn same(x: f32, y: f32, z: f32) {
        let (a, b) = (fma32(x, y, z), x.mul_add(y, z));
        assert!(
            a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            "fma32({x:e}, {y:e}, {z:e}) = {a:e}, not {b:e}"
        );
    }

    #[test]
    fn agrees_with_mul_add_on_random_bits() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..200_000 {
            let r = next();
            let (x, y) = (f32::from_bits(r as u32), f32::from_bits((r >> 32) as u32));
            let z = f32::from_bits(next() as u32);
            same(x, y, z);
            // Operands of nearby magnitudes, where cancellation and ties happen.
            let e = (next() % 40) as i32 - 20;
            same(x, y, -(x * y) * 2f32.powi(e));
        }
    }

    #[test]
    fn double_rounding_ties_and_edges() {
        // 1 + 2^-24 is a tie in f32; a tiny product decides the direction.
        let tiny = 2f32.powi(-60);
        same(1.0 + 2f32.powi(-23), 1.0, 2f32.powi(-24));
        same(tiny, tiny, 1.0);
        same(tiny, -tiny, 1.0);
        same(2f32.powi(-12), 2f32.powi(-12) + 2f32.powi(-35), 1.0);
        same(f32::MAX, 1.0 + 2f32.powi(-23), 0.0);
        same(f32::MAX, 1.0, f32::MAX);
        same(f32::MIN_POSITIVE, 0.5, f32::from_bits(1));
        same(f32::INFINITY, 0.0, 1.0);
        same(-0.0, 0.0, -0.0);
        same(f32::NAN, 1.0, 1.0);
    }
}
