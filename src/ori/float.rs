//! Correctly rounded IEEE-754 binary32/binary64 arithmetic in all four rounding modes.
//!
//! Host floating point only rounds to nearest, and PTX has `.rz/.rm/.rp` on add, mul, fma,
//! div, sqrt and conversions, so the semantics table uses this small exact implementation
//! instead. Every operation computes the exact result as an integer significand times a power
//! of two (plus a sticky bit for bits shifted out far below the rounding point) and rounds
//! once, in [`round`].
//!
//! Conventions (the GPU's, as far as this module models them):
//! - NaN results follow the GPU (H200 goldens in `corpus/gpu/sm_90`): f32 (and f16/bf16)
//!   arithmetic gives the canonical NaN ([`canonical_nan`], `0x7FFFFFFF`) whatever its operands;
//!   f64 arithmetic and f32<->f64 conversions keep a NaN operand's payload, quieted
//!   ([`nan_operand`]); an invalid f64 operation gives [`default_nan`] `0xFFF80000_00000000`.
//! - Flush-to-zero (`.ftz`) is applied by the caller with [`flush`] on inputs and outputs.
//! - An exact zero sum has sign `+` except in round-toward-minus (IEEE 754 §6.3).
//!
//! Values are passed as raw bits (`u64`, low bits used for f32).

use super::mods::Rnd;
use std::cmp::Ordering;

/// An IEEE binary interchange format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Format {
    /// Total width in bits.
    pub bits: u32,
    /// Stored fraction bits.
    pub frac: u32,
    /// Exponent field bits.
    pub exp: u32,
}

/// binary32.
pub const F32: Format = Format { bits: 32, frac: 23, exp: 8 };
/// bfloat16.
pub const BF16: Format = Format { bits: 16, frac: 7, exp: 8 };
/// binary16.
pub const F16: Format = Format { bits: 16, frac: 10, exp: 5 };
/// binary64.
pub const F64: Format = Format { bits: 64, frac: 52, exp: 11 };

impl Format {
    fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }
    fn emin(self) -> i32 {
        1 - self.bias()
    }
    fn prec(self) -> u32 {
        self.frac + 1
    }
    fn sign_bit(self) -> u64 {
        1 << (self.bits - 1)
    }
    fn exp_mask(self) -> u64 {
        (1 << self.exp) - 1
    }
    fn frac_mask(self) -> u64 {
        (1 << self.frac) - 1
    }
    fn mask(self) -> u64 {
        if self.bits == 64 { u64::MAX } else { (1 << self.bits) - 1 }
    }
    /// The infinity of sign `neg`.
    pub fn inf(self, neg: bool) -> u64 {
        (self.exp_mask() << self.frac) | if neg { self.sign_bit() } else { 0 }
    }
    /// The zero of sign `neg`.
    pub fn zero(self, neg: bool) -> u64 {
        if neg { self.sign_bit() } else { 0 }
    }
    /// The largest finite value with the sign `neg`.
    pub fn max_finite(self, neg: bool) -> u64 {
        self.inf(neg) - 1
    }
}

/// The canonical NaN the GPU produces.
pub fn canonical_nan(f: Format) -> u64 {
    f.mask() >> 1
}

/// The NaN an invalid operation (`inf - inf`, `0 * inf`, `0 / 0`) produces: the canonical NaN,
/// except f64's `0xFFF80000_00000000` (golden of `f64_round_modes`: `DMUL -inf, -0` and
/// `DFMA x, inf, -inf` give it whatever the product's sign).
pub fn default_nan(f: Format) -> u64 {
    if f == F64 { 0xfff8_0000_0000_0000 } else { canonical_nan(f) }
}

/// The result of an arithmetic operation when an operand is a NaN, `None` when none is. f32
/// (and f16/bf16): the canonical NaN. f64: the first NaN of `ops`, quieted (top fraction bit
/// set), sign and payload kept — callers pass the PTX operands in the GPU's priority order,
/// `a, c, b` (ptxas puts PTX's `a` in the SASS B slot, which wins over C, then A: golden of
/// `f64_round_modes`, e.g. `fma(0x7ff0000000000001, y, 0xffffffffffffffff)` is
/// `0x7ff8000000000001`, `fma(x, 0xffffffffffffffff, 0x7ff8000000000000)` is
/// `0x7ff8000000000000`; `sub(x, NaN)` keeps the NaN's sign).
pub fn nan_operand(f: Format, ops: &[u64]) -> Option<u64> {
    let n = ops.iter().map(|&x| x & f.mask()).find(|&x| is_nan(f, x))?;
    Some(if f == F64 { n | 1 << (f.frac - 1) } else { canonical_nan(f) })
}

/// A decoded value: finite values are `(-1)^neg * m * 2^e`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// Any NaN.
    Nan,
    /// Infinity.
    Inf(bool),
    /// Zero.
    Zero(bool),
    /// A nonzero finite value.
    Finite {
        /// Sign.
        neg: bool,
        /// Significand (nonzero).
        m: u128,
        /// Exponent of the significand's unit bit.
        e: i32,
    },
}

/// Decodes `bits` of format `f`.
pub fn unpack(f: Format, bits: u64) -> Class {
    let bits = bits & f.mask();
    let neg = bits & f.sign_bit() != 0;
    let ex = ((bits >> f.frac) & f.exp_mask()) as i32;
    let fr = bits & f.frac_mask();
    if ex == f.exp_mask() as i32 {
        if fr == 0 { Class::Inf(neg) } else { Class::Nan }
    } else if ex == 0 {
        if fr == 0 { Class::Zero(neg) } else { Class::Finite { neg, m: u128::from(fr), e: f.emin() - f.frac as i32 } }
    } else {
        Class::Finite { neg, m: u128::from(fr | (1 << f.frac)), e: ex - f.bias() - f.frac as i32 }
    }
}

/// Whether `bits` is a NaN.
pub fn is_nan(f: Format, bits: u64) -> bool {
    unpack(f, bits) == Class::Nan
}

/// Whether `bits` is a subnormal.
pub fn is_subnormal(f: Format, bits: u64) -> bool {
    let bits = bits & f.mask();
    (bits >> f.frac) & f.exp_mask() == 0 && bits & f.frac_mask() != 0
}

/// Flushes a subnormal to the zero of its sign (`.ftz`); other values pass through.
pub fn flush(f: Format, bits: u64) -> u64 {
    if is_subnormal(f, bits) { bits & f.mask() & f.sign_bit() } else { bits & f.mask() }
}

fn bitlen(m: u128) -> u32 {
    128 - m.leading_zeros()
}

/// Rounds `(-1)^neg * (m + s) * 2^e` to format `f`, where `s` is 0 when `!sticky` and some
/// value strictly between 0 and 1 otherwise. Callers that set `sticky` give `m` at least
/// `prec + 3` significant bits, so the sticky fraction lies below the rounding point.
/// `mode` may be an integral mode; its direction is used.
pub fn round(f: Format, neg: bool, m: u128, e: i32, sticky: bool, mode: Rnd) -> u64 {
    let mode = mode.direction();
    if m == 0 {
        // Only reachable with sticky set by a careless caller: a tiny value.
        return if sticky { round(f, neg, 1, e - 1, false, mode) } else { f.zero(neg) };
    }
    let prec = f.prec() as i32;
    let top = bitlen(m) as i32 - 1 + e;
    let min_lsb = f.emin() - (prec - 1);
    let mut lsb = (top - (prec - 1)).max(min_lsb);
    let shift = i64::from(lsb) - i64::from(e);
    let (mut q, above, tie, inexact) = if shift <= 0 {
        // Exact (the significand fits); a sticky fraction is still inexact.
        let q = m << (-shift).min(127) as u32;
        (q, false, false, sticky)
    } else if shift >= 128 {
        (0u128, false, false, true)
    } else {
        let shift = shift as u32;
        let q = m >> shift;
        let r = m & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        (q, r > half || (r == half && sticky), r == half && !sticky, r != 0 || sticky)
    };
    let inc = match mode {
        Rnd::Rn => above || (tie && q & 1 == 1),
        Rnd::Rz => false,
        Rnd::Rp => inexact && !neg,
        Rnd::Rm => inexact && neg,
        _ => false,
    };
    if inc {
        q += 1;
    }
    if q == 1u128 << prec {
        q >>= 1;
        lsb += 1;
    }
    let sign = if neg { f.sign_bit() } else { 0 };
    let biased = if q >= 1u128 << (prec - 1) { lsb + (prec - 1) + f.bias() } else { 0 };
    if biased >= f.exp_mask() as i32 {
        let to_inf = match mode {
            Rnd::Rn => true,
            Rnd::Rz => false,
            Rnd::Rp => !neg,
            Rnd::Rm => neg,
            _ => true,
        };
        return if to_inf { f.inf(neg) } else { f.max_finite(neg) };
    }
    sign | ((biased as u64) << f.frac) | (q as u64 & f.frac_mask())
}

/// Exact `x + y` for finite nonzero operands given as (neg, m, e), rounded once.
fn add_exact(f: Format, x: (bool, u128, i32), y: (bool, u128, i32), mode: Rnd) -> u64 {
    let (mut a, mut b) = (x, y);
    if a.2 < b.2 {
        std::mem::swap(&mut a, &mut b);
    }
    // Shift the operand with the larger exponent left, up to 126 significant bits.
    let d = (i64::from(a.2) - i64::from(b.2)) as u64;
    let room = 126u32.saturating_sub(bitlen(a.1));
    let s = d.min(u64::from(room)) as u32;
    a.1 <<= s;
    a.2 -= s as i32;
    let rest = d - u64::from(s);
    let mut sticky = false;
    if rest > 0 {
        let lost = if rest >= 128 { b.1 } else { b.1 & ((1u128 << rest) - 1) };
        sticky = lost != 0;
        b.1 = if rest >= 128 { 0 } else { b.1 >> rest };
    }
    let e = a.2;
    if a.0 == b.0 {
        return round(f, a.0, a.1 + b.1, e, sticky, mode);
    }
    match a.1.cmp(&b.1) {
        Ordering::Greater => {
            if sticky {
                round(f, a.0, a.1 - b.1 - 1, e, true, mode)
            } else {
                round(f, a.0, a.1 - b.1, e, false, mode)
            }
        }
        Ordering::Less => round(f, b.0, b.1 - a.1, e, false, mode),
        Ordering::Equal => f.zero(mode.direction() == Rnd::Rm),
    }
}

/// Round-to-nearest binary32/binary64 arithmetic on the host, which is IEEE 754 correctly
/// rounded and so equal to the soft-float path here (NaN operands are handled before).
/// A fast path only; `tests/ori_proptest.rs` checks the soft-float path in every mode.
fn host(
    f: Format,
    mode: Rnd,
    args: &[u64],
    op: fn(f64, f64, f64) -> f64,
    op32: fn(f32, f32, f32) -> f32,
) -> Option<u64> {
    if mode != Rnd::Rn {
        return None;
    }
    let get = |i: usize| args.get(i).copied().unwrap_or(0);
    if f == F32 {
        let (x, y, z) = (f32::from_bits(get(0) as u32), f32::from_bits(get(1) as u32), f32::from_bits(get(2) as u32));
        let r = op32(x, y, z);
        return Some(if r.is_nan() { default_nan(f) } else { u64::from(r.to_bits()) });
    }
    if f == F64 {
        let r = op(f64::from_bits(get(0)), f64::from_bits(get(1)), f64::from_bits(get(2)));
        return Some(if r.is_nan() { default_nan(f) } else { r.to_bits() });
    }
    None
}

/// `a + b` (a NaN operand: [`nan_operand`], `a` first).
pub fn add(f: Format, a: u64, b: u64, mode: Rnd) -> u64 {
    if let Some(n) = nan_operand(f, &[a, b]) {
        return n;
    }
    if let Some(r) = host(f, mode, &[a, b], |x, y, _| x + y, |x, y, _| x + y) {
        return r;
    }
    add_soft(f, a, b, mode)
}

fn add_soft(f: Format, a: u64, b: u64, mode: Rnd) -> u64 {
    use Class::*;
    match (unpack(f, a), unpack(f, b)) {
        (Nan, _) | (_, Nan) => nan_operand(f, &[a, b]).unwrap_or(default_nan(f)),
        (Inf(x), Inf(y)) if x != y => default_nan(f),
        (Inf(x), _) | (_, Inf(x)) => f.inf(x),
        (Zero(x), Zero(y)) => f.zero(if x == y { x } else { mode.direction() == Rnd::Rm }),
        (Zero(_), _) => b & f.mask(),
        (_, Zero(_)) => a & f.mask(),
        (Finite { neg: n1, m: m1, e: e1 }, Finite { neg: n2, m: m2, e: e2 }) => {
            add_exact(f, (n1, m1, e1), (n2, m2, e2), mode)
        }
    }
}

/// `a - b` (a NaN operand: [`nan_operand`], `a` first; a NaN `b` keeps its sign).
pub fn sub(f: Format, a: u64, b: u64, mode: Rnd) -> u64 {
    if let Some(n) = nan_operand(f, &[a, b]) {
        return n;
    }
    add(f, a, b ^ f.sign_bit(), mode)
}

/// `a * b` (a NaN operand: [`nan_operand`], `a` first).
pub fn mul(f: Format, a: u64, b: u64, mode: Rnd) -> u64 {
    if let Some(n) = nan_operand(f, &[a, b]) {
        return n;
    }
    if let Some(r) = host(f, mode, &[a, b], |x, y, _| x * y, |x, y, _| x * y) {
        return r;
    }
    mul_soft(f, a, b, mode)
}

fn mul_soft(f: Format, a: u64, b: u64, mode: Rnd) -> u64 {
    use Class::*;
    match (unpack(f, a), unpack(f, b)) {
        (Nan, _) | (_, Nan) => nan_operand(f, &[a, b]).unwrap_or(default_nan(f)),
        (Inf(_), Zero(_)) | (Zero(_), Inf(_)) => default_nan(f),
        (Inf(x), Inf(y)) => f.inf(x != y),
        (Zero(x), Zero(y)) => f.zero(x != y),
        (Inf(x), Finite { neg: y, .. }) | (Finite { neg: y, .. }, Inf(x)) => f.inf(x != y),
        (Zero(x), Finite { neg: y, .. }) | (Finite { neg: y, .. }, Zero(x)) => f.zero(x != y),
        (Finite { neg: n1, m: m1, e: e1 }, Finite { neg: n2, m: m2, e: e2 }) => {
            round(f, n1 != n2, m1 * m2, e1 + e2, false, mode)
        }
    }
}

/// `a * b + c` with a single rounding (a NaN operand: [`nan_operand`], `a`, then `c`, then `b`).
pub fn fma(f: Format, a: u64, b: u64, c: u64, mode: Rnd) -> u64 {
    if let Some(n) = nan_operand(f, &[a, c, b]) {
        return n;
    }
    if let Some(r) = host(f, mode, &[a, b, c], f64::mul_add, f32::mul_add) {
        return r;
    }
    fma_soft(f, a, b, c, mode)
}

fn fma_soft(f: Format, a: u64, b: u64, c: u64, mode: Rnd) -> u64 {
    use Class::*;
    let (ca, cb, cc) = (unpack(f, a), unpack(f, b), unpack(f, c));
    if let Some(n) = nan_operand(f, &[a, c, b]) {
        return n;
    }
    let pneg = sign_of(ca) != sign_of(cb);
    let p_inf = matches!(ca, Inf(_)) || matches!(cb, Inf(_));
    let p_zero = matches!(ca, Zero(_)) || matches!(cb, Zero(_));
    if p_inf && p_zero {
        return default_nan(f);
    }
    if p_inf {
        return match cc {
            Inf(x) if x != pneg => default_nan(f),
            _ => f.inf(pneg),
        };
    }
    if let Inf(x) = cc {
        return f.inf(x);
    }
    if p_zero {
        return match cc {
            Zero(x) => f.zero(if x == pneg { x } else { mode.direction() == Rnd::Rm }),
            _ => c & f.mask(),
        };
    }
    let (Finite { m: m1, e: e1, .. }, Finite { m: m2, e: e2, .. }) = (ca, cb) else {
        return canonical_nan(f);
    };
    let p = (pneg, m1 * m2, e1 + e2);
    match cc {
        Zero(_) => round(f, p.0, p.1, p.2, false, mode),
        Finite { neg, m, e } => add_exact(f, p, (neg, m, e), mode),
        _ => canonical_nan(f),
    }
}

/// `a / b`.
pub fn div(f: Format, a: u64, b: u64, mode: Rnd) -> u64 {
    use Class::*;
    let (ca, cb) = (unpack(f, a), unpack(f, b));
    let neg = sign_of(ca) != sign_of(cb);
    match (ca, cb) {
        (Nan, _) | (_, Nan) => nan_operand(f, &[a, b]).unwrap_or(default_nan(f)),
        (Inf(_), Inf(_)) | (Zero(_), Zero(_)) => default_nan(f),
        (Inf(_), _) | (_, Zero(_)) => f.inf(neg),
        (Zero(_), _) | (_, Inf(_)) => f.zero(neg),
        (Finite { m: m1, e: e1, .. }, Finite { m: m2, e: e2, .. }) => {
            let k = 126 - bitlen(m1);
            let num = m1 << k;
            let q = num / m2;
            let r = num % m2;
            round(f, neg, q, e1 - k as i32 - e2, r != 0, mode)
        }
    }
}

fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    // Newton from an over-estimate; decreases monotonically to floor(sqrt(n)).
    let mut x = 1u128 << bitlen(n).div_ceil(2);
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// `sqrt(a)`.
pub fn sqrt(f: Format, a: u64, mode: Rnd) -> u64 {
    match unpack(f, a) {
        Class::Nan => nan_operand(f, &[a]).unwrap_or(default_nan(f)),
        Class::Inf(true) | Class::Finite { neg: true, .. } => default_nan(f),
        Class::Inf(false) => f.inf(false),
        Class::Zero(n) => f.zero(n),
        Class::Finite { m, e, .. } => {
            let (mut m, mut e) = (m, e);
            if e % 2 != 0 {
                m <<= 1;
                e -= 1;
            }
            let k = (126 - bitlen(m)) / 2;
            m <<= 2 * k;
            e -= 2 * k as i32;
            let s = isqrt(m);
            round(f, false, s, e / 2, s * s != m, mode)
        }
    }
}

fn sign_of(c: Class) -> bool {
    match c {
        Class::Nan => false,
        Class::Inf(n) | Class::Zero(n) => n,
        Class::Finite { neg, .. } => neg,
    }
}

/// Converts between formats (`from` to `to`), rounding with `mode`. A NaN between f32 and f64
/// keeps its sign and the top of its payload, quieted (golden of `cvt_f64_f32`: `cvt.f64.f32`
/// of `0x7f800001` is `0x7ff8000020000000`, `cvt.rn.f32.f64` of `0xffffffffffffffff` is
/// `0xffffffff`); bf16 → f32 is the bits shifted into the high half, NaN payloads and
/// signalling NaNs included (ptxas 13.0.88 selects `cvt.f32.bf16` as `IMAD.U32 Rd, Rs,
/// 0x10000, RZ` or `SHF.L.U32 Rd, Rs, 0x10, RZ`); f64 → f16/bf16 also keeps sign and top
/// payload, quieted (H200 golden of `cvt_f16_bf16`: `cvt.rn.f16.f64` and `cvt.rn.bf16.f64`, which
/// ptxas selects as `F2F.F16.F64`/`F2F.BF16.F64`, give `0x7e00`/`0x7fc0` for `0x7ff0000000000001`
/// and `0xffff` for `0xffffffffffffffff`); other NaN conversions (f32 → f16/bf16 included: `0x7fff`
/// in the same golden) give the canonical NaN.
pub fn convert(from: Format, to: Format, a: u64, mode: Rnd) -> u64 {
    if (from, to) == (BF16, F32) {
        return (a & 0xffff) << 16;
    }
    match unpack(from, a) {
        Class::Nan
            if matches!((from, to), (F32, F64) | (F64, F32) | (F64, F64) | (F32, F32) | (F64, F16) | (F64, BF16)) =>
        {
            let a = a & from.mask();
            let sign = if a & from.sign_bit() != 0 { to.sign_bit() } else { 0 };
            let frac = a & from.frac_mask();
            let frac = if to.frac >= from.frac { frac << (to.frac - from.frac) } else { frac >> (from.frac - to.frac) };
            sign | to.inf(false) | 1 << (to.frac - 1) | frac
        }
        Class::Nan => canonical_nan(to),
        Class::Inf(n) => to.inf(n),
        Class::Zero(n) => to.zero(n),
        Class::Finite { neg, m, e } => round(to, neg, m, e, false, mode),
    }
}

/// Rounds to an integral value in the same format (`cvt.rni.f32.f32`).
/// A NaN: f64 keeps it, quieted (golden of `cvt_f64_f32`: `cvt.rni.f64.f64` of
/// `0xffffffffe0000000`); f32 gives the canonical NaN.
pub fn round_integral(f: Format, a: u64, mode: Rnd) -> u64 {
    match unpack(f, a) {
        Class::Nan => nan_operand(f, &[a]).unwrap_or(canonical_nan(f)),
        // Already integral (and possibly beyond to_integer's 2^127 saturation: f32::MAX).
        Class::Finite { e, .. } if e >= 0 => a & f.mask(),
        Class::Finite { neg, m, e } => match to_integer(neg, m, e, mode) {
            0 => f.zero(neg),
            q => round(f, neg, q, 0, false, Rnd::Rn),
        },
        _ => a & f.mask(),
    }
}

/// `|m * 2^e|` rounded to an integer with `mode`'s direction (saturating at `u128::MAX`).
fn to_integer(neg: bool, m: u128, e: i32, mode: Rnd) -> u128 {
    if e >= 0 {
        return if e >= 127 || bitlen(m) + e as u32 > 127 { u128::MAX } else { m << e };
    }
    let s = -(i64::from(e));
    if s >= 128 {
        let inexact = m != 0;
        return match mode.direction() {
            Rnd::Rp if !neg && inexact => 1,
            Rnd::Rm if neg && inexact => 1,
            _ => 0,
        };
    }
    let s = s as u32;
    let q = m >> s;
    let r = m & ((1u128 << s) - 1);
    let half = 1u128 << (s - 1);
    let inc = match mode.direction() {
        Rnd::Rn => r > half || (r == half && q & 1 == 1),
        Rnd::Rz => false,
        Rnd::Rp => r != 0 && !neg,
        Rnd::Rm => r != 0 && neg,
        _ => false,
    };
    q + u128::from(inc)
}

/// Converts to an integer of `bits` bits (`signed` or not), rounding with `mode` and
/// saturating to the range. A NaN converts as the GPU's `F2I` does: to 0 from f32 (and f16) to
/// 32 bits or fewer (ptxas's `F2I.NTZ`, PTX's NaN → 0), otherwise to the destination's sign bit
/// alone, signed or not (golden of `cvt_f2ll_round`: `cvt.rni.s64.f32`, `cvt.rzi.u64.f32`,
/// `cvt.rni.s64.f64`, `cvt.rni.s32.f64`, `cvt.rni.u32.f64` of NaN give `0x8000000000000000`,
/// `0x8000000000000000`, `0x8000000000000000`, `0x80000000`, `0x80000000`).
pub fn to_int(f: Format, a: u64, bits: u32, signed: bool, mode: Rnd) -> u64 {
    let (min, max): (i128, i128) =
        if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
    let v: i128 = match unpack(f, a) {
        // A NaN f16 gives 0 at every width (NVIDIA's code for `cvt.rzi.s64.f16`, form sweep).
        Class::Nan if f != F16 && ((f == F64 && bits >= 32) || bits == 64) => return 1 << (bits - 1),
        Class::Nan | Class::Zero(_) => 0,
        Class::Inf(n) => {
            if n {
                min
            } else {
                max
            }
        }
        Class::Finite { neg, m, e } => {
            let q = to_integer(neg, m, e, mode).min(1u128 << 100) as i128;
            if neg { -q } else { q }
        }
    };
    let v = v.clamp(min, max);
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    (v as u64) & mask
}

/// Converts an integer (`v`, interpreted per `signed`) to format `f` with `mode`.
pub fn from_int(f: Format, v: i128, mode: Rnd) -> u64 {
    if v == 0 {
        return f.zero(false);
    }
    round(f, v < 0, v.unsigned_abs(), 0, false, mode)
}

/// IEEE comparison: `None` when unordered; `-0 == +0`.
pub fn compare(f: Format, a: u64, b: u64) -> Option<Ordering> {
    let (ca, cb) = (unpack(f, a), unpack(f, b));
    if ca == Class::Nan || cb == Class::Nan {
        return None;
    }
    let key = |c: Class| -> (i8, i64, u128) {
        // A total key for non-NaN values: sign class, then magnitude.
        match c {
            Class::Zero(_) => (0, 0, 0),
            Class::Inf(n) => (if n { -2 } else { 2 }, 0, 0),
            Class::Finite { neg, m, e } => {
                // Normalise magnitude to compare (e + bitlen, then m aligned).
                let top = i64::from(e) + i64::from(bitlen(m));
                let aligned = m << (127 - bitlen(m));
                let (s, t, al) = (if neg { -1 } else { 1 }, top, aligned);
                if neg { (s, -t, u128::MAX - al) } else { (s, t, al) }
            }
            Class::Nan => (0, 0, 0),
        }
    };
    Some(key(ca).cmp(&key(cb)))
}

/// `min(a, b)` per PTX: a NaN operand yields the other; `-0 < +0`. Two NaNs: the canonical NaN,
/// except f64's `a`, quieted (golden of `f64_minmax_cmp`: `fmin`/`fmax(0xffffffffffffffff,
/// 0x7ff8000000000000)` are `0xffffffffffffffff`; ptxas selects with `DSETP.MIN/MAX`).
pub fn min(f: Format, a: u64, b: u64) -> u64 {
    minmax(f, a, b, true)
}

/// `max(a, b)` per PTX (see [`min`]).
pub fn max(f: Format, a: u64, b: u64) -> u64 {
    minmax(f, a, b, false)
}

/// `min.NaN(a, b)`: a NaN operand, whatever its payload and sign, gives the canonical NaN;
/// otherwise [`min`] (`-0 < +0`). As the GPU computes it (`FMNMX.NAN`/`HMNMX2.NAN`), in every
/// format PTX has it for (f32, f16, bf16): golden of f32_minmax_sign, out[30] = `min.NaN(
/// 0x7f800001, 0x6a3e7dc1)` is `0x7fffffff` where `fminf` gives `0x6a3e7dc1` (out[24]); of
/// f16_compare_minmax, out[190] = `__hmin2_nan` is `0x7fff` where `__hmin2` gives `0xc000`
/// (out[186]); of bf16_compare_minmax, out[20] = `__hmax2_nan` is `0x7fff` where `__hmax2`
/// gives `0x3949` (out[16]).
pub fn min_nan(f: Format, a: u64, b: u64) -> u64 {
    minmax_nan(f, a, b, true)
}

/// `max.NaN(a, b)` (see [`min_nan`]).
pub fn max_nan(f: Format, a: u64, b: u64) -> u64 {
    minmax_nan(f, a, b, false)
}

fn minmax_nan(f: Format, a: u64, b: u64, want_min: bool) -> u64 {
    if is_nan(f, a) || is_nan(f, b) { canonical_nan(f) } else { minmax(f, a, b, want_min) }
}

fn minmax(f: Format, a: u64, b: u64, want_min: bool) -> u64 {
    let (a, b) = (a & f.mask(), b & f.mask());
    match (is_nan(f, a), is_nan(f, b)) {
        (true, true) => return if f == F64 { a | 1 << (f.frac - 1) } else { canonical_nan(f) },
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let ord = match compare(f, a, b) {
        Some(Ordering::Equal) => {
            // Equal values differ at most in the sign of zero.
            let an = a & f.sign_bit() != 0;
            let bn = b & f.sign_bit() != 0;
            an.cmp(&bn).reverse()
        }
        Some(o) => o,
        None => Ordering::Equal,
    };
    let a_smaller = ord == Ordering::Less;
    if a_smaller == want_min { a } else { b }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    #[test]
    fn directed_rounding_of_a_tiny_addend() {
        let one = f(1.0);
        let tiny = f(2f32.powi(-30));
        assert_eq!(add(F32, one, tiny, Rnd::Rn), one);
        assert_eq!(add(F32, one, tiny, Rnd::Rz), one);
        assert_eq!(add(F32, one, tiny, Rnd::Rm), one);
        assert_eq!(add(F32, one, tiny, Rnd::Rp), one + 1);
        assert_eq!(sub(F32, one, tiny, Rnd::Rz), f(1.0f32.next_down()));
        assert_eq!(sub(F32, one, tiny, Rnd::Rn), one);
    }

    #[test]
    fn overflow_and_underflow() {
        let max = f(f32::MAX);
        assert_eq!(mul(F32, max, f(2.0), Rnd::Rn), f(f32::INFINITY));
        assert_eq!(mul(F32, max, f(2.0), Rnd::Rz), max);
        assert_eq!(mul(F32, max | 0x8000_0000, f(2.0), Rnd::Rp), max | 0x8000_0000);
        assert_eq!(mul(F32, 1, f(0.5), Rnd::Rn), 0); // ties to even: 0
        assert_eq!(mul(F32, 1, f(0.5), Rnd::Rp), 1);
        assert_eq!(mul(F32, 3, f(0.5), Rnd::Rn), 2);
        assert_eq!(flush(F32, 3), 0);
        assert_eq!(flush(F32, 0x8000_0003), 0x8000_0000);
    }

    #[test]
    fn zeros_nans_and_conversions() {
        assert_eq!(add(F32, f(1.0), f(-1.0), Rnd::Rm), f(-0.0));
        assert_eq!(add(F32, f(1.0), f(-1.0), Rnd::Rn), 0);
        assert_eq!(add(F32, f(f32::INFINITY), f(f32::NEG_INFINITY), Rnd::Rn), 0x7FFF_FFFF);
        assert_eq!(fma(F32, f(0.0), f(f32::INFINITY), f(1.0), Rnd::Rn), 0x7FFF_FFFF);
        assert_eq!(sqrt(F32, f(2.0), Rnd::Rn), f(2f32.sqrt()));
        assert_eq!(sqrt(F32, f(-0.0), Rnd::Rn), f(-0.0));
        assert_eq!(to_int(F32, f(-1.5), 32, true, Rnd::Rni), (-2i32) as u32 as u64);
        assert_eq!(to_int(F32, f(2.5), 32, true, Rnd::Rni), 2);
        assert_eq!(to_int(F32, f(1e20), 32, true, Rnd::Rzi), 0x7FFF_FFFF);
        assert_eq!(to_int(F32, f(-1.0), 32, false, Rnd::Rzi), 0);
        assert_eq!(to_int(F32, f(f32::NAN), 32, true, Rnd::Rzi), 0);
        assert_eq!(from_int(F32, 16_777_217, Rnd::Rn), f(16_777_216.0));
        assert_eq!(from_int(F32, 16_777_217, Rnd::Rp), f(16_777_218.0));
        assert_eq!(convert(F64, F32, 0x3FF0_0000_0000_0001, Rnd::Rp), f(1.0) + 1);
        assert_eq!(round_integral(F32, f(-0.4), Rnd::Rni), f(-0.0));
        // Large values are integral already (f32::MAX is beyond 2^127: no saturation to inf).
        for m in [Rnd::Rni, Rnd::Rzi, Rnd::Rmi, Rnd::Rpi] {
            assert_eq!(round_integral(F32, f(-f32::MAX), m), f(-f32::MAX));
            assert_eq!(round_integral(F64, f64::MAX.to_bits(), m), f64::MAX.to_bits());
        }
        assert_eq!(compare(F32, f(0.0), f(-0.0)), Some(Ordering::Equal));
        assert_eq!(min(F32, f(0.0), f(-0.0)), f(-0.0));
        assert_eq!(max(F32, f(f32::NAN), f(3.0)), f(3.0));
    }

    /// NaN results as measured on the GPU (H200 goldens `corpus/gpu/sm_90`), with random
    /// full-width operands (a quarter of them NaNs with random payloads) for the f64 priority
    /// rule (`a`, then `c`, then `b`, quieted; invalid: `0xfff8000000000000`).
    #[test]
    fn nan_results_follow_the_gpu() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let is_nan64 = |v: u64| is_nan(F64, v);
        for _ in 0..20_000 {
            let mut pick = || {
                let r = next();
                if r % 4 == 0 { (r & 0x800f_ffff_ffff_ffff) | 0x7ff0_0000_0000_0001 } else { next() }
            };
            let (a, b, c) = (pick(), pick(), pick());
            let want = |ops: &[u64], host: f64| match ops.iter().find(|&&v| is_nan64(v)) {
                Some(&v) => v | 1 << 51,
                None if host.is_nan() => 0xfff8_0000_0000_0000,
                None => host.to_bits(),
            };
            let (fa, fb, fc) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
            for m in [Rnd::Rn, Rnd::Rz] {
                let same = |got: u64, w: u64| got == w || (m != Rnd::Rn && !is_nan64(w) && !is_nan64(got));
                assert!(same(add(F64, a, b, m), want(&[a, b], fa + fb)), "add {a:#x} {b:#x}");
                assert!(same(sub(F64, a, b, m), want(&[a, b], fa - fb)), "sub {a:#x} {b:#x}");
                assert!(same(mul(F64, a, b, m), want(&[a, b], fa * fb)), "mul {a:#x} {b:#x}");
                assert!(same(fma(F64, a, b, c, m), want(&[a, c, b], fa.mul_add(fb, fc))), "fma {a:#x} {b:#x} {c:#x}");
            }
            // f32 arithmetic: the canonical NaN whatever the operands.
            let (a32, b32) = (a >> 32, b >> 32);
            if is_nan(F32, a32) || is_nan(F32, b32) {
                assert_eq!(add(F32, a32, b32, Rnd::Rn), 0x7FFF_FFFF);
                assert_eq!(mul(F32, a32, b32, Rnd::Rp), 0x7FFF_FFFF);
            }
            // f32 <-> f64 keeps sign and payload: the round trip gives the f32 NaN back, quieted.
            if is_nan(F32, a32) {
                assert_eq!(convert(F64, F32, convert(F32, F64, a32, Rnd::Rn), Rnd::Rn), a32 | 0x40_0000);
            }
        }
        // The measured cases (cvt_f64_f32, f64_round_modes, cvt_f2ll_round, f64_minmax_cmp).
        assert_eq!(convert(F32, F64, 0x7F80_0001, Rnd::Rn), 0x7FF8_0000_2000_0000);
        assert_eq!(convert(F32, F64, 0xFFFF_FFFF, Rnd::Rn), 0xFFFF_FFFF_E000_0000);
        assert_eq!(convert(F64, F32, 0x7FF0_0000_0000_0001, Rnd::Rz), 0x7FC0_0000);
        assert_eq!(convert(F64, F32, u64::MAX, Rnd::Rm), 0xFFFF_FFFF);
        assert_eq!(round_integral(F64, 0xFFFF_FFFF_E000_0000, Rnd::Rni), 0xFFFF_FFFF_E000_0000);
        let (snan, nqnan, qnan) = (0x7FF0_0000_0000_0001u64, u64::MAX, 0x7FF8_0000_0000_0000u64);
        assert_eq!(add(F64, snan, nqnan, Rnd::Rn), 0x7FF8_0000_0000_0001);
        assert_eq!(sub(F64, 0x0010_0000_0000_0000, nqnan, Rnd::Rn), nqnan);
        assert_eq!(fma(F64, snan, 0x8000_0000_0000_0001, nqnan, Rnd::Rn), 0x7FF8_0000_0000_0001);
        assert_eq!(fma(F64, 0x0010_0000_0000_0000, snan, nqnan, Rnd::Rn), nqnan);
        assert_eq!(fma(F64, 0xC076_85FE_24C3_30F8, nqnan, qnan, Rnd::Rp), qnan);
        assert_eq!(mul(F64, 0xFFF0_0000_0000_0000, 1 << 63, Rnd::Rn), 0xFFF8_0000_0000_0000);
        assert_eq!(
            fma(F64, 0x2EB6_5F1A_EF4E_0906, 0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000, Rnd::Rm),
            0xFFF8_0000_0000_0000
        );
        assert_eq!(to_int(F32, 0x7FC0_0000, 64, true, Rnd::Rni), 1 << 63);
        assert_eq!(to_int(F32, u32::MAX.into(), 64, false, Rnd::Rzi), 1 << 63);
        assert_eq!(to_int(F64, snan, 32, true, Rnd::Rni), 0x8000_0000);
        assert_eq!(to_int(F64, snan, 32, false, Rnd::Rmi), 0x8000_0000);
        assert_eq!(to_int(F32, 0x7F80_0001, 32, false, Rnd::Rzi), 0);
        assert_eq!(min(F64, nqnan, qnan), nqnan);
        assert_eq!(max(F64, nqnan, qnan), nqnan);
        assert_eq!(min(F32, 0x7FC0_0000, u32::MAX.into()), 0x7FFF_FFFF);
    }

    #[test]
    fn soft_float_equals_host_in_round_to_nearest() {
        // The host fast path and the soft-float path agree (NaNs canonical) on edge-biased
        // random operands, in both formats.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let edges32 = [0u64, 0x8000_0000, 1, 0x7F80_0000, 0xFF80_0000, 0x7F7F_FFFF, 0x0080_0000, 0x3F80_0000];
        for _ in 0..20_000 {
            let mut pick32 = || if next() % 4 == 0 { edges32[(next() % 8) as usize] } else { next() & 0xFFFF_FFFF };
            let (a, b, c) = (pick32(), pick32(), pick32());
            assert_eq!(add(F32, a, b, Rnd::Rn), add_soft(F32, a, b, Rnd::Rn), "add {a:#x} {b:#x}");
            assert_eq!(mul(F32, a, b, Rnd::Rn), mul_soft(F32, a, b, Rnd::Rn), "mul {a:#x} {b:#x}");
            assert_eq!(fma(F32, a, b, c, Rnd::Rn), fma_soft(F32, a, b, c, Rnd::Rn), "fma {a:#x} {b:#x} {c:#x}");
            let (a, b, c) = (next(), next(), next());
            assert_eq!(add(F64, a, b, Rnd::Rn), add_soft(F64, a, b, Rnd::Rn));
            assert_eq!(mul(F64, a, b, Rnd::Rn), mul_soft(F64, a, b, Rnd::Rn));
            assert_eq!(fma(F64, a, b, c, Rnd::Rn), fma_soft(F64, a, b, c, Rnd::Rn));
        }
    }
}
