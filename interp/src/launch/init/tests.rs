//! Tests of buffer generation: hand-checked forms, golden vectors from an independent
//! reimplementation of the documented rules (Python: `struct` for f16/f32, exact rational
//! rounding for bf16), and properties.

use proptest::prelude::*;

use super::*;
use crate::launch::spec::BufferSpec;
use crate::launch::types::TypeClass;

fn gen_(ty: ElemType, len: usize, init: Init) -> Vec<u8> {
    BufferSpec::new("b", ty, len, init).expect("valid buffer").generate()
}

/// The elements of a generated buffer as bit patterns.
fn elems(ty: ElemType, bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(ty.size())
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}

fn gen_elems(ty: ElemType, len: usize, init: Init) -> Vec<u64> {
    elems(ty, &gen_(ty, len, init))
}

fn random(seed: u64, min: Value, max: Value) -> Init {
    Init::Random { seed, min: Some(min), max: Some(max) }
}

#[test]
fn fill_values_and_default() {
    assert_eq!(gen_(ElemType::U16, 3, Init::Fill(Value::Int(0x1234))), [0x34, 0x12].repeat(3));
    assert_eq!(gen_(ElemType::F32, 2, Init::default()), [0u8; 8]);
    assert_eq!(gen_elems(ElemType::F32, 2, Init::Fill(Value::Float(1.0))), [0x3f80_0000, 0x3f80_0000]);
    let values = Init::Values(vec![Value::Int(1), Value::Int(-1), Value::Bits(0x7f)]);
    assert_eq!(gen_elems(ElemType::S8, 7, values), [1, 0xff, 0x7f, 1, 0xff, 0x7f, 1]);
}

#[test]
fn ramps() {
    let ramp = |start, step| Init::Ramp { start, step };
    // Integers wrap at the type's width, counting down with a negative step.
    assert_eq!(gen_elems(ElemType::U8, 4, ramp(Value::Int(254), Value::Int(1))), [254, 255, 0, 1]);
    assert_eq!(gen_elems(ElemType::S16, 3, ramp(Value::Int(1), Value::Int(-2))), [1, 0xffff, 0xfffd]);
    // Floats: start + i * step in f64, then rounded once.
    assert_eq!(
        gen_elems(ElemType::F16, 4, ramp(Value::Float(0.0), Value::Float(0.1))),
        [0x0000, 0x2e66, 0x3266, 0x34cd]
    );
    assert_eq!(gen_elems(ElemType::F32, 3, ramp(Value::Int(-1), Value::Float(0.5))), [0xbf80_0000, 0xbf00_0000, 0]);
    // Overflow of a float ramp gives infinity (it is computed, not validated).
    assert_eq!(
        gen_elems(ElemType::F16, 3, ramp(Value::Float(60000.0), Value::Float(10000.0))),
        [0x7b53, 0x7c00, 0x7c00]
    );
}

#[test]
fn random_bits_are_the_published_splitmix_outputs() {
    let got = gen_elems(ElemType::U64, 3, Init::Random { seed: 1234567, min: None, max: None });
    assert_eq!(got, [6457827717110365317, 3203168211198807973, 9817491932198370423]);
    let low = gen_elems(ElemType::U32, 2, Init::Random { seed: 1234567, min: None, max: None });
    assert_eq!(low, [6457827717110365317 & 0xffff_ffff, 3203168211198807973 & 0xffff_ffff]);
}

/// Golden vectors computed by the independent Python reference of the documented rules.
#[test]
fn golden_vectors_from_the_reference() {
    let r = |s| Init::Random { seed: s, min: None, max: None };
    assert_eq!(
        gen_elems(ElemType::U32, 6, r(11)),
        [0x2380309d, 0x7a6b13a1, 0x6e9b126d, 0x272e6df0, 0x750459c4, 0x7ab0580e]
    );
    assert_eq!(
        gen_elems(ElemType::S32, 8, random(21, Value::Int(-20), Value::Int(20))),
        [0xb, 0xc, 0xa, 0xf, 0xffff_fffd, 0xffff_fff4, 0xc, 0x1]
    );
    assert_eq!(
        gen_elems(ElemType::F32, 6, random(1, Value::Float(-10.0), Value::Float(10.0))),
        [0x3faa65cb, 0x409d4ce2, 0x4116b88c, 0xbf8e70be, 0xbf8eaeb0, 0x40a8409e]
    );
    assert_eq!(
        gen_elems(ElemType::F16, 6, random(7, Value::Float(-2.0), Value::Float(2.0))),
        [0xb70d, 0xbfbb, 0x3e6a, 0x354f, 0xb216, 0xbc02]
    );
    assert_eq!(
        gen_elems(ElemType::Bf16, 6, random(7, Value::Float(-2.0), Value::Float(2.0))),
        [0xbee2, 0xbff7, 0x3fcd, 0x3eaa, 0xbe43, 0xbf80]
    );
    let e = |s| Init::Edge { seed: s };
    assert_eq!(
        gen_elems(ElemType::F32, 12, e(101)),
        [
            0x4aa5bb51, 0xd3c82717, 0x29881057, 0x2617f675, 0xc42c8506, 0xc5c504ad, 0x040accf4, 0x7fc00000, 0xcdb245d3,
            0x25aa743c, 0x05eb9771, 0xbf800000
        ]
    );
    assert_eq!(
        gen_elems(ElemType::F16, 12, e(5)),
        [0x5fe2, 0xdca2, 0xdb76, 0xf795, 0xffff, 0x6353, 0x3c01, 0x6586, 0x62dc, 0x547d, 0xd599, 0xc0e5]
    );
    assert_eq!(
        gen_elems(ElemType::Bf16, 12, e(5)),
        [0x43fc, 0xdca2, 0xc36f, 0xf795, 0xffff, 0x6353, 0x3f81, 0x6586, 0x445b, 0x547d, 0xc2b3, 0xc0e5]
    );
    assert_eq!(
        gen_elems(ElemType::S8, 12, e(3)),
        [0x89, 0xcf, 0x07, 0x80, 0x7a, 0xcc, 0xf4, 0x5c, 0xe6, 0xa8, 0x32, 0x93]
    );
}

/// The edge tables hold what the documentation says, derived here from the values.
#[test]
fn edge_tables_match_their_description() {
    for ty in [ElemType::F16, ElemType::Bf16, ElemType::F32, ElemType::F64] {
        let e = edge_values(ty);
        assert_eq!(e.len(), 16, "{ty}");
        let v = |i: usize| float::to_f64(ty, e[i]);
        let bits_of = |x: f64| float::from_f64(ty, x);
        assert_eq!(e[0], 0);
        assert_eq!(e[1], 1 << (ty.bits() - 1));
        assert_eq!(v(2), 1.0);
        assert_eq!(v(3), -1.0);
        assert_eq!(v(4), -v(5));
        assert!(v(5).is_finite() && float::to_f64(ty, e[5] + 1).is_infinite(), "{ty} max");
        assert_eq!(e[6], bits_of(f64::NAN), "{ty} canonical NaN");
        assert_eq!(v(7), f64::INFINITY);
        assert_eq!(v(8), f64::NEG_INFINITY);
        assert_eq!(e[9], 1);
        assert!(v(9) > 0.0);
        assert_eq!(e[10], ty.mask());
        assert!(v(10).is_nan());
        assert!(v(11).is_normal() || ty != ElemType::F64);
        assert!(float::to_f64(ty, e[11] - 1) > 0.0 && e[12] == e[11] - 1, "{ty} denormal max");
        assert_eq!(v(13), -v(9));
        assert!(v(14).is_nan());
        let quiet = e[6] & !(e[7]);
        assert_eq!(e[14] & quiet, 0, "{ty} sNaN has the quiet bit clear");
        assert_eq!(e[15], e[2] + 1);
    }
    for ty in [ElemType::U8, ElemType::S16, ElemType::B32, ElemType::U64] {
        let e = edge_values(ty);
        assert_eq!(ty.int_value(e[0]), 0);
        assert_eq!(ty.int_value(e[1]), 1);
        assert_eq!(e[2], ty.mask());
        assert_eq!(e[3], ty.mask() ^ (ty.mask() >> 1));
        assert_eq!(e[4], ty.mask() >> 1);
    }
}

#[test]
fn edge_mixes_edges_and_fillers() {
    let got = gen_elems(ElemType::F32, 4000, Init::Edge { seed: 42 });
    let edges = edge_values(ElemType::F32);
    let n_edges = got.iter().filter(|b| edges.contains(b)).count();
    // About a quarter are edge values (fillers rarely collide with them).
    assert!((800..1200).contains(&n_edges), "{n_edges}");
    // Every edge value shows up.
    for e in edges {
        assert!(got.contains(e), "{e:#x}");
    }
    // Fillers are finite.
    assert!(got.iter().filter(|b| !edges.contains(b)).all(|&b| float::to_f64(ElemType::F32, b).is_finite()));
}

#[test]
fn plan_errors_name_the_key() {
    let bad = |ty, init| BufferSpec::new("b", ty, 4, init).unwrap_err().key().map(str::to_owned);
    let key = |k: &str| Some(format!("buffer.b.init.{k}"));
    assert_eq!(bad(ElemType::U8, Init::Fill(Value::Int(256))), key("fill"));
    assert_eq!(bad(ElemType::U8, Init::Values(vec![Value::Int(1), Value::Int(-1)])), key("values[1]"));
    assert_eq!(bad(ElemType::U8, Init::Values(vec![])), key("values"));
    assert_eq!(bad(ElemType::S32, random(1, Value::Int(5), Value::Int(4))), key("random"));
    assert_eq!(bad(ElemType::U32, random(1, Value::Int(-5), Value::Int(4))), key("random.min"));
    assert_eq!(bad(ElemType::B8, random(1, Value::Int(-128), Value::Int(255))), key("random"));
    assert_eq!(bad(ElemType::F32, Init::Random { seed: 1, min: None, max: None }), key("random"));
    assert_eq!(bad(ElemType::S32, Init::Random { seed: 1, min: Some(Value::Int(0)), max: None }), key("random"));
    assert_eq!(bad(ElemType::F16, random(1, Value::Float(0.0), Value::Float(1e6))), key("random.max"));
    assert_eq!(bad(ElemType::F64, random(1, Value::Float(-f64::MAX), Value::Float(f64::MAX))), key("random"));
    assert_eq!(bad(ElemType::F32, random(1, Value::Float(f64::NEG_INFINITY), Value::Float(0.0))), key("random.min"));
    assert_eq!(
        bad(ElemType::F32, Init::Ramp { start: Value::Float(0.0), step: Value::Float(f64::NAN) }),
        key("ramp.step")
    );
    assert_eq!(bad(ElemType::U32, Init::Ramp { start: Value::Int(0), step: Value::Float(0.5) }), key("ramp.step"));
}

fn int_type() -> impl Strategy<Value = ElemType> {
    prop::sample::select(ElemType::ALL.iter().copied().filter(|t| !t.is_float()).collect::<Vec<_>>())
}

fn float_type() -> impl Strategy<Value = ElemType> {
    prop::sample::select(vec![ElemType::F16, ElemType::Bf16, ElemType::F32, ElemType::F64])
}

proptest! {
    #[test]
    fn generation_is_deterministic(
        seed in any::<u64>(),
        ty in prop::sample::select(ElemType::ALL.to_vec()),
        edge in any::<bool>(),
    ) {
        let init = if edge {
            Init::Edge { seed }
        } else if ty.is_float() {
            random(seed, Value::Float(-3.0), Value::Float(7.5))
        } else {
            Init::Random { seed, min: None, max: None }
        };
        let a = gen_(ty, 64, init.clone());
        prop_assert_eq!(a.len(), 64 * ty.size());
        prop_assert_eq!(a, gen_(ty, 64, init));
    }

    #[test]
    fn random_ints_stay_within_bounds(
        seed in any::<u64>(),
        ty in int_type(),
        a in any::<i128>(),
        b in any::<i128>(),
    ) {
        // Map a and b into the type's range (reading bN as signed when the bounds are negative).
        let (tmin, tmax) = if ty.class() == TypeClass::Bits {
            (ty.int_min(), ty.int_max() / 2)
        } else {
            (ty.int_min(), ty.int_max())
        };
        let span = (tmax - tmin) as u128 + 1;
        let pick = |x: i128| tmin + (x.unsigned_abs() % span) as i128;
        let (lo, hi) = (pick(a).min(pick(b)), pick(a).max(pick(b)));
        let got = gen_elems(ty, 50, random(seed, Value::Int(lo), Value::Int(hi)));
        for bits in got {
            let v = if ty.class() == TypeClass::Bits {
                let signed = bits & !(ty.mask() >> 1) != 0;
                let v = i128::from(bits);
                if signed { v - (1i128 << ty.bits()) } else { v }
            } else {
                ty.int_value(bits)
            };
            prop_assert!((lo..=hi).contains(&v), "{v} not in {lo}..={hi}");
        }
    }

    #[test]
    fn random_floats_stay_within_rounded_bounds(
        seed in any::<u64>(),
        ty in float_type(),
        a in -60000.0f64..60000.0,
        b in -60000.0f64..60000.0,
    ) {
        let (lo, hi) = (a.min(b), a.max(b));
        let got = gen_elems(ty, 50, random(seed, Value::Float(lo), Value::Float(hi)));
        let rlo = float::to_f64(ty, float::from_f64(ty, lo));
        let rhi = float::to_f64(ty, float::from_f64(ty, hi));
        for bits in got {
            let v = float::to_f64(ty, bits);
            prop_assert!(rlo <= v && v <= rhi, "{v} not in [{rlo}, {rhi}]");
        }
    }

    #[test]
    fn values_repeat_cyclically(
        ty in int_type(),
        values in prop::collection::vec(any::<u8>(), 1..9),
        len in 1usize..100,
    ) {
        let init = Init::Values(values.iter().map(|&v| Value::Int(i128::from(v & 0x7f))).collect());
        let got = gen_elems(ty, len, init);
        for (i, bits) in got.iter().enumerate() {
            prop_assert_eq!(*bits, u64::from(values[i % values.len()] & 0x7f));
        }
    }

    #[test]
    fn edge_floats_are_edges_or_finite_fillers(seed in any::<u64>(), ty in float_type()) {
        let edges = edge_values(ty);
        for bits in gen_elems(ty, 64, Init::Edge { seed }) {
            prop_assert!(edges.contains(&bits) || float::to_f64(ty, bits).is_finite());
        }
    }
}
