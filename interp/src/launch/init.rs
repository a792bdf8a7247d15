//! Initial buffer contents: the `init` forms and the exact, reproducible rules that turn them
//! into bytes.
//!
//! A buffer of `len` elements of type `T` becomes `len * size(T)` bytes: element `i` is stored
//! little-endian at byte `i * size(T)`. Each `random`/`edge` buffer has its own generator,
//! [`SplitMix64`] with `state = seed`, and draws from it in element order (element 0 first); no
//! other draws are made. Below, `next()` is one generator output, `u(r) = (r >> 11) * 2^-53`
//! (a uniform `f64` in `[0, 1)`), `N` the width of `T` in bits, and "rounded to `T`" means one
//! round-to-nearest-even step from the `f64` (see [`super::float`]). Numbers in the spec are
//! encoded as described in [`super::scalar`].
//!
//! The forms:
//!
//! - absent: all bytes zero (the same as `fill = 0`).
//! - `fill = v`: every element is `v`.
//! - `values = [v0, v1, ...]`: element `i` is `v[i % count]` (at least one value).
//! - `ramp = { start = a, step = b }`, float `T`: element `i` is `a + (i as f64) * b`, computed
//!   in `f64` (a multiply, then an add; no fused multiply-add), then rounded to `T` (an overflow
//!   gives ±inf).
//! - `ramp`, integer `T`: element `i` is `a + i * b` in wrapping 128-bit arithmetic, truncated to
//!   the low `N` bits. `a` must fit `T`; `b` is any integer (a negative step counts down).
//! - `random = { seed = s }`, integer `T`: each element is the low `N` bits of `next()`.
//! - `random = { seed = s, min = a, max = b }`, integer `T`: each element is
//!   `a + (next() mod (b - a + 1))` in 128-bit arithmetic, stored in two's complement. The
//!   modulo favours small offsets by at most `(b - a + 1) / 2^64`, negligible unless the range
//!   nears `2^64`. Note that bounds spanning the whole range of an `sN` type give
//!   `min + (next() mod 2^N)`, not the low bits of `next()`.
//! - `random = { seed = s, min = a, max = b }`, float `T`: each element is
//!   `a + (b - a) * u(next())` in `f64` (a subtract, a multiply, then an add; no fused
//!   multiply-add), rounded to `T`. `min` and `max` are required.
//! - `edge = { seed = s }`: for each element, `r = next()`.
//!   - If `r % 4 == 0`, the element is edge value number `(r >> 2) % E` of the tables below.
//!   - Otherwise `q = next()`. For an integer `T` the element is the low `N` bits of `q`. For a
//!     float `T`: if `q` is even, the element is `-1000 + 2000 * u(q)` in `f64`, rounded to `T`
//!     (the `random` rule with `min = -1000`, `max = 1000`); if `q` is odd, it is the bit pattern
//!     `q >> 1` truncated to `N` bits, except that a pattern whose exponent field is all ones
//!     (an infinity or a NaN) gets the top bit of its exponent field cleared, which makes it a
//!     finite value of magnitude in `[1, 2)`.
//!
//! Edge values of integer types (`E = 5`, as bit patterns of width `N`, the same for `uN`, `sN`
//! and `bN`): `0`, `1`, all ones (`-1` / the unsigned maximum), `1 << (N-1)` (the signed
//! minimum), `(1 << (N-1)) - 1` (the signed maximum).
//!
//! Edge values of float types (`E = 16`), in this order:
//!
//! | # | value | f16 | bf16 | f32 | f64 |
//! |---|---|---|---|---|---|
//! | 0 | +0 | `0000` | `0000` | `00000000` | `0000000000000000` |
//! | 1 | -0 | `8000` | `8000` | `80000000` | `8000000000000000` |
//! | 2 | 1 | `3c00` | `3f80` | `3f800000` | `3ff0000000000000` |
//! | 3 | -1 | `bc00` | `bf80` | `bf800000` | `bff0000000000000` |
//! | 4 | lowest finite (-max) | `fbff` | `ff7f` | `ff7fffff` | `ffefffffffffffff` |
//! | 5 | max finite | `7bff` | `7f7f` | `7f7fffff` | `7fefffffffffffff` |
//! | 6 | canonical quiet NaN | `7e00` | `7fc0` | `7fc00000` | `7ff8000000000000` |
//! | 7 | +inf | `7c00` | `7f80` | `7f800000` | `7ff0000000000000` |
//! | 8 | -inf | `fc00` | `ff80` | `ff800000` | `fff0000000000000` |
//! | 9 | smallest positive denormal | `0001` | `0001` | `00000001` | `0000000000000001` |
//! | 10 | all ones (a negative NaN) | `ffff` | `ffff` | `ffffffff` | `ffffffffffffffff` |
//! | 11 | smallest positive normal | `0400` | `0080` | `00800000` | `0010000000000000` |
//! | 12 | largest denormal | `03ff` | `007f` | `007fffff` | `000fffffffffffff` |
//! | 13 | negative smallest denormal | `8001` | `8001` | `80000001` | `8000000000000001` |
//! | 14 | signaling NaN (payload 1) | `7c01` | `7f81` | `7f800001` | `7ff0000000000001` |
//! | 15 | next value above 1 | `3c01` | `3f81` | `3f800001` | `3ff0000000000001` |
//!
//! Validation happens when the spec is parsed, so [`super::BufferSpec::generate`] cannot fail:
//! every value fits `T`; integer `min <= max` and `max - min < 2^N`, both given or both
//! omitted; float `min` and `max` both given, finite, `min <= max`, with a finite `max - min`;
//! seeds are integers in `0 ..= 2^64 - 1` (a `"0x..."` string is accepted too).

use super::error::{Located, Problem};
use super::float;
use super::rng::{SplitMix64, unit_f64};
use super::scalar::{Value, encode_elem};
use super::spec::{check_keys, expect_table, join, one_of, parse_u64, required, wrong_type};
use super::types::ElemType;

/// The initial contents of a buffer, as written in a spec.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// `{ fill = v }`.
    Fill(Value),
    /// `{ ramp = { start = a, step = b } }`.
    Ramp {
        /// The value of element 0.
        start: Value,
        /// The difference between consecutive elements.
        step: Value,
    },
    /// `{ values = [ ... ] }`, repeated cyclically.
    Values(Vec<Value>),
    /// `{ random = { seed = s, min = a, max = b } }`.
    Random {
        /// The generator's initial state.
        seed: u64,
        /// The lower bound (inclusive).
        min: Option<Value>,
        /// The upper bound (inclusive for integers; floats reach it only by rounding).
        max: Option<Value>,
    },
    /// `{ edge = { seed = s } }`.
    Edge {
        /// The generator's initial state.
        seed: u64,
    },
}

impl Default for Init {
    /// All-zero bytes.
    fn default() -> Init {
        Init::Fill(Value::Int(0))
    }
}

/// An `init` checked against its element type, ready to generate.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Plan {
    Fill(u64),
    /// Non-empty.
    Values(Vec<u64>),
    RampInt {
        start: i128,
        step: i128,
    },
    RampFloat {
        start: f64,
        step: f64,
    },
    RandomBits {
        seed: u64,
    },
    /// `1 <= range <= 2^64`.
    RandomInt {
        seed: u64,
        min: i128,
        range: u128,
    },
    /// Finite bounds, `min <= max`, finite `max - min`.
    RandomFloat {
        seed: u64,
        min: f64,
        max: f64,
    },
    Edge {
        seed: u64,
    },
}

const INIT_FORMS: &[&str] = &["fill", "ramp", "values", "random", "edge"];

/// Parses the value of an `init` key (`path` is its dotted key).
pub(crate) fn parse(v: &toml::Value, path: &str) -> Result<Init, Located> {
    let (form, body) = one_of(v, path, INIT_FORMS, "fill, ramp, values, random, edge")?;
    let key = join(path, form);
    let number = |v: &toml::Value, key: &str| Value::from_toml(v).map_err(|p| Located::new(key, p));
    match form {
        "fill" => number(body, &key).map(Init::Fill),
        "values" => {
            let items = body.as_array().ok_or_else(|| wrong_type(&key, "an array of numbers", body))?;
            if items.is_empty() {
                return Err(Located::new(key, Problem::Invalid("needs at least one value".into())));
            }
            items
                .iter()
                .enumerate()
                .map(|(i, v)| number(v, &format!("{key}[{i}]")))
                .collect::<Result<_, _>>()
                .map(Init::Values)
        }
        "ramp" => {
            let r = expect_table(body, &key)?;
            check_keys(r, &key, &["start", "step"])?;
            let start = number(required(r, &key, "start")?, &join(&key, "start"))?;
            let step = number(required(r, &key, "step")?, &join(&key, "step"))?;
            Ok(Init::Ramp { start, step })
        }
        "random" => {
            let r = expect_table(body, &key)?;
            check_keys(r, &key, &["seed", "min", "max"])?;
            let seed = parse_u64(required(r, &key, "seed")?, &join(&key, "seed"))?;
            let min = r.get("min").map(|v| number(v, &join(&key, "min"))).transpose()?;
            let max = r.get("max").map(|v| number(v, &join(&key, "max"))).transpose()?;
            Ok(Init::Random { seed, min, max })
        }
        _ => {
            let r = expect_table(body, &key)?;
            check_keys(r, &key, &["seed"])?;
            let seed = parse_u64(required(r, &key, "seed")?, &join(&key, "seed"))?;
            Ok(Init::Edge { seed })
        }
    }
}

/// Checks `init` against `ty`. Error keys are relative to the `init` key (`random.min`).
pub(crate) fn plan(ty: ElemType, init: &Init) -> Result<Plan, Located> {
    match init {
        Init::Fill(v) => encode_elem(ty, *v).map(Plan::Fill).map_err(at("fill")),
        Init::Values(values) => {
            if values.is_empty() {
                return Err(Located::new("values", Problem::Invalid("needs at least one value".into())));
            }
            values
                .iter()
                .enumerate()
                .map(|(i, v)| encode_elem(ty, *v).map_err(at(&format!("values[{i}]"))))
                .collect::<Result<_, _>>()
                .map(Plan::Values)
        }
        Init::Ramp { start, step } if ty.is_float() => {
            encode_elem(ty, *start).map_err(at("ramp.start"))?;
            let (start, step) = (start.as_f64(ty), step.as_f64(ty));
            if !step.is_finite() {
                return Err(Located::new("ramp.step", Problem::Invalid("the step must be finite".into())));
            }
            if !start.is_finite() {
                return Err(Located::new("ramp.start", Problem::Invalid("the start must be finite".into())));
            }
            Ok(Plan::RampFloat { start, step })
        }
        Init::Ramp { start, step } => {
            let start = start.as_int(ty).map_err(at("ramp.start"))?;
            let step = match *step {
                Value::Int(i) => i,
                Value::Bits(b) => i128::from(b),
                Value::Float(x) if x.is_finite() && x.fract() == 0.0 && x.abs() <= 2f64.powi(64) => x as i128,
                Value::Float(x) => {
                    return Err(Located::new(
                        "ramp.step",
                        Problem::Invalid(format!("{x:?} is not an integer, which type {ty} needs")),
                    ));
                }
            };
            Ok(Plan::RampInt { start, step })
        }
        Init::Random { seed, min: None, max: None } if !ty.is_float() => Ok(Plan::RandomBits { seed: *seed }),
        Init::Random { seed, min: Some(min), max: Some(max) } if !ty.is_float() => {
            let lo = min.as_int(ty).map_err(at("random.min"))?;
            let hi = max.as_int(ty).map_err(at("random.max"))?;
            if lo > hi {
                return Err(min_above_max(min, max));
            }
            let range = (hi - lo) as u128 + 1;
            if range > 1u128 << ty.bits() {
                return Err(Located::new(
                    "random",
                    Problem::Invalid(format!(
                        "min = {min} and max = {max} span more than the 2^{} values of {ty}",
                        ty.bits()
                    )),
                ));
            }
            Ok(Plan::RandomInt { seed: *seed, min: lo, range })
        }
        Init::Random { seed, min: Some(min), max: Some(max) } => {
            encode_elem(ty, *min).map_err(at("random.min"))?;
            encode_elem(ty, *max).map_err(at("random.max"))?;
            let (lo, hi) = (min.as_f64(ty), max.as_f64(ty));
            for (x, key) in [(lo, "random.min"), (hi, "random.max")] {
                if !x.is_finite() {
                    return Err(Located::new(key, Problem::Invalid("random bounds must be finite".into())));
                }
            }
            if lo > hi {
                return Err(min_above_max(min, max));
            }
            if !(hi - lo).is_finite() {
                return Err(Located::new("random", Problem::Invalid("max - min overflows f64".into())));
            }
            Ok(Plan::RandomFloat { seed: *seed, min: lo, max: hi })
        }
        Init::Random { min: None, max: None, .. } => {
            Err(Located::new("random", Problem::Invalid(format!("a random {ty} buffer needs both min and max"))))
        }
        Init::Random { .. } => {
            Err(Located::new("random", Problem::Invalid("give both min and max, or neither".into())))
        }
        Init::Edge { seed } => Ok(Plan::Edge { seed: *seed }),
    }
}

fn min_above_max(min: &Value, max: &Value) -> Located {
    Located::new("random", Problem::Invalid(format!("min = {min} is above max = {max}")))
}

/// Attaches `key` to a problem.
fn at(key: &str) -> impl FnOnce(Problem) -> Located + '_ {
    move |p| Located::new(key, p)
}

/// The bytes of `len` elements of `ty` under `plan`.
pub(crate) fn generate(plan: &Plan, ty: ElemType, len: usize) -> Vec<u8> {
    let size = ty.size();
    let mut out = Vec::with_capacity(len * size);
    let mut push = |bits: u64| out.extend_from_slice(&bits.to_le_bytes()[..size]);
    let mask = ty.mask();
    match plan {
        Plan::Fill(bits) => (0..len).for_each(|_| push(*bits)),
        Plan::Values(values) => values.iter().cycle().take(len).for_each(|&b| push(b)),
        Plan::RampInt { start, step } => (0..len).for_each(|i| {
            let v = start.wrapping_add((i as i128).wrapping_mul(*step));
            push(v as u64 & mask);
        }),
        Plan::RampFloat { start, step } => {
            (0..len).for_each(|i| push(float::from_f64(ty, start + (i as f64) * step)));
        }
        Plan::RandomBits { seed } => {
            let mut g = SplitMix64::new(*seed);
            (0..len).for_each(|_| push(g.next() & mask));
        }
        Plan::RandomInt { seed, min, range } => {
            let mut g = SplitMix64::new(*seed);
            (0..len).for_each(|_| {
                let v = min + (u128::from(g.next()) % range) as i128;
                push(v as u64 & mask);
            });
        }
        Plan::RandomFloat { seed, min, max } => {
            let mut g = SplitMix64::new(*seed);
            (0..len).for_each(|_| push(random_float(ty, *min, *max, g.next())));
        }
        Plan::Edge { seed } => {
            let mut g = SplitMix64::new(*seed);
            let edges = edge_values(ty);
            (0..len).for_each(|_| {
                let r = g.next();
                if r.is_multiple_of(4) {
                    push(edges[((r >> 2) % edges.len() as u64) as usize]);
                } else {
                    push(edge_filler(ty, g.next()));
                }
            });
        }
    }
    out
}

/// `min + (max - min) * u(r)` rounded to `ty`.
fn random_float(ty: ElemType, min: f64, max: f64, r: u64) -> u64 {
    float::from_f64(ty, min + (max - min) * unit_f64(r))
}

/// The non-edge element of an `edge` buffer, from the second draw `q`.
fn edge_filler(ty: ElemType, q: u64) -> u64 {
    if !ty.is_float() {
        return q & ty.mask();
    }
    if q & 1 == 0 {
        return random_float(ty, -1000.0, 1000.0, q);
    }
    let bits = (q >> 1) & ty.mask();
    let (exp_field, exp_top) = float_exponent_field(ty);
    if bits & exp_field == exp_field { bits & !exp_top } else { bits }
}

/// The exponent field mask of a float type and the mask of its top bit.
fn float_exponent_field(ty: ElemType) -> (u64, u64) {
    let (exp_bits, mant_bits) = match ty {
        ElemType::F16 => (5, 10),
        ElemType::Bf16 => (8, 7),
        ElemType::F32 => (8, 23),
        _ => (11, 52),
    };
    (((1u64 << exp_bits) - 1) << mant_bits, 1u64 << (exp_bits + mant_bits - 1))
}

const EDGE_F16: [u64; 16] = [
    0x0000, 0x8000, 0x3c00, 0xbc00, 0xfbff, 0x7bff, 0x7e00, 0x7c00, 0xfc00, 0x0001, 0xffff, 0x0400, 0x03ff, 0x8001,
    0x7c01, 0x3c01,
];
const EDGE_BF16: [u64; 16] = [
    0x0000, 0x8000, 0x3f80, 0xbf80, 0xff7f, 0x7f7f, 0x7fc0, 0x7f80, 0xff80, 0x0001, 0xffff, 0x0080, 0x007f, 0x8001,
    0x7f81, 0x3f81,
];
const EDGE_F32: [u64; 16] = [
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0xff7f_ffff,
    0x7f7f_ffff,
    0x7fc0_0000,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0001,
    0xffff_ffff,
    0x0080_0000,
    0x007f_ffff,
    0x8000_0001,
    0x7f80_0001,
    0x3f80_0001,
];
const EDGE_F64: [u64; 16] = [
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0xffef_ffff_ffff_ffff,
    0x7fef_ffff_ffff_ffff,
    0x7ff8_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x0000_0000_0000_0001,
    0xffff_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x000f_ffff_ffff_ffff,
    0x8000_0000_0000_0001,
    0x7ff0_0000_0000_0001,
    0x3ff0_0000_0000_0001,
];
const EDGE_B8: [u64; 5] = [0, 1, 0xff, 0x80, 0x7f];
const EDGE_B16: [u64; 5] = [0, 1, 0xffff, 0x8000, 0x7fff];
const EDGE_B32: [u64; 5] = [0, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff];
const EDGE_B64: [u64; 5] = [0, 1, u64::MAX, 1 << 63, (1 << 63) - 1];

/// The edge values of `ty`, in the documented order, as bit patterns.
pub fn edge_values(ty: ElemType) -> &'static [u64] {
    match ty {
        ElemType::F16 => &EDGE_F16,
        ElemType::Bf16 => &EDGE_BF16,
        ElemType::F32 => &EDGE_F32,
        ElemType::F64 => &EDGE_F64,
        _ => match ty.bits() {
            8 => &EDGE_B8,
            16 => &EDGE_B16,
            32 => &EDGE_B32,
            _ => &EDGE_B64,
        },
    }
}

#[cfg(test)]
mod tests;
