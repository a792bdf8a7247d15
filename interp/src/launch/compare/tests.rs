//! Tests of output comparison on edge values and of the mismatch report.

use super::*;
use crate::launch::init::Init;

fn buffer(ty: ElemType, len: usize, tolerance: Tolerance) -> BufferSpec {
    BufferSpec::new("out", ty, len, Init::default())
        .and_then(|b| b.with_output(true).with_tolerance(tolerance))
        .expect("valid buffer")
}

fn f32s(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

const ONE: u64 = 0x3f80_0000;
const POS_ZERO: u64 = 0;
const NEG_ZERO: u64 = 0x8000_0000;
const QNAN: u64 = 0x7fc0_0000;
const NAN_PAYLOAD: u64 = 0xffc0_1234;
const INF: u64 = 0x7f80_0000;
const MAX: u64 = 0x7f7f_ffff;
const DENORM: u64 = 1;
const NEG_DENORM: u64 = 0x8000_0001;

#[test]
fn exact_means_equal_bits() {
    let m = |e, a| elements_match(ElemType::F32, Tolerance::Exact, e, a);
    assert!(m(ONE, ONE));
    assert!(m(QNAN, QNAN));
    assert!(!m(POS_ZERO, NEG_ZERO));
    assert!(!m(QNAN, NAN_PAYLOAD));
    assert!(!m(ONE, ONE + 1));
    // Integers ignore any tolerance.
    assert!(!elements_match(ElemType::U32, Tolerance::Ulp(10), 1, 2));
}

#[test]
fn any_tolerance_matches_nans_and_zeros() {
    for t in [Tolerance::Ulp(0), Tolerance::Abs(0.0), Tolerance::Rel(0.0)] {
        let m = |e, a| elements_match(ElemType::F32, t, e, a);
        assert!(m(QNAN, NAN_PAYLOAD), "{t}");
        assert!(m(POS_ZERO, NEG_ZERO), "{t}");
        assert!(!m(QNAN, ONE), "{t}");
        assert!(!m(ONE, QNAN), "{t}");
        assert!(!m(INF, INF | NEG_ZERO), "{t}");
        assert!(!m(ONE, ONE + 1), "{t}");
    }
}

#[test]
fn ulp_distances() {
    let m = |n, e, a| elements_match(ElemType::F32, Tolerance::Ulp(n), e, a);
    assert!(m(1, ONE, ONE + 1));
    assert!(m(1, ONE, ONE - 1));
    assert!(!m(1, ONE, ONE + 2));
    assert!(m(2, ONE, ONE + 2));
    // Across zero: -denorm, 0, +denorm are consecutive.
    assert!(m(2, NEG_DENORM, DENORM));
    assert!(!m(1, NEG_DENORM, DENORM));
    assert!(m(1, NEG_ZERO, DENORM));
    // Infinity is never within ULPs of a finite value.
    assert!(!m(u64::MAX, MAX, INF));
    // f16: 1.0 and the next value.
    assert!(elements_match(ElemType::F16, Tolerance::Ulp(1), 0x3c00, 0x3c01));
    assert!(!elements_match(ElemType::F16, Tolerance::Ulp(1), 0x3c00, 0x3c02));
    // bf16 and f64 use their own units.
    assert!(elements_match(ElemType::Bf16, Tolerance::Ulp(1), 0x3f80, 0x3f7f));
    let one64 = 1f64.to_bits();
    assert!(elements_match(ElemType::F64, Tolerance::Ulp(3), one64, one64 + 3));
    assert!(!elements_match(ElemType::F64, Tolerance::Ulp(3), one64, one64 + 4));
}

#[test]
fn absolute_and_relative() {
    let d = |x: f64| x.to_bits();
    let abs = |t, e, a| elements_match(ElemType::F64, Tolerance::Abs(t), d(e), d(a));
    let rel = |t, e, a| elements_match(ElemType::F64, Tolerance::Rel(t), d(e), d(a));
    assert!(abs(0.5, 1.0, 1.5));
    assert!(!abs(0.5, 1.0, 1.5000001));
    assert!(abs(1e-300, 0.0, f64::from_bits(1)));
    assert!(!abs(1e300, f64::MAX, f64::INFINITY));
    assert!(!abs(f64::MAX, -f64::MAX, f64::MAX)); // the difference overflows to inf
    assert!(rel(0.25, 100.0, 125.0)); // |d| = 25 <= 0.25 * 125
    assert!(rel(0.25, 125.0, 100.0)); // symmetric
    assert!(!rel(0.1, 100.0, 125.0));
    assert!(!rel(0.5, 0.0, 1e-300)); // relative to zero: only exact
    assert!(!rel(1.0, -1.0, 1.0)); // |d| = 2 > 1 * max(1, 1)
    assert!(rel(2.0, -1.0, 1.0));
}

#[test]
fn reports_first_differences_per_type() {
    let b = buffer(ElemType::F32, 4, Tolerance::Ulp(1));
    let expected = f32s(&[ONE as u32, 0x4020_0000, QNAN as u32, 0]);
    let actual = f32s(&[ONE as u32 + 1, 0x4020_0002, ONE as u32, NEG_ZERO as u32]);
    let err = compare(&b, &expected, &actual).unwrap_err();
    let Mismatch::Values { differing, ref first, .. } = err else { panic!("{err}") };
    assert_eq!(differing, 2);
    assert_eq!(first.iter().map(|d| d.index).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(
        err.to_string(),
        "buffer `out` (f32, ulp = 1): 2 of 4 elements differ\n  \
         [1] expected 2.5 (0x40200000), actual 2.5000005 (0x40200002)\n  \
         [2] expected NaN (0x7fc00000), actual 1.0 (0x3f800000)"
    );
    assert_eq!(compare(&b, &expected, &expected), Ok(()));
}

#[test]
fn report_is_capped() {
    let b = buffer(ElemType::S16, 100, Tolerance::Exact);
    let expected = vec![0u8; 200];
    let actual: Vec<u8> = (0..100i16).flat_map(|i| (-i - 1).to_le_bytes()).collect();
    let err = compare(&b, &expected, &actual).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("buffer `out` (s16, bit-exact): 100 of 100 elements differ"));
    assert!(text.contains("\n  [0] expected 0, actual -1\n"));
    assert!(text.contains(&format!("[{}]", MAX_REPORTED - 1)));
    assert!(!text.contains(&format!("[{}]", MAX_REPORTED)));
    assert!(text.ends_with("... and 90 more"));
}

#[test]
fn length_mismatch() {
    let b = buffer(ElemType::U32, 4, Tolerance::Exact);
    let err = compare(&b, &[0; 16], &[0; 12]).unwrap_err();
    assert!(matches!(err, Mismatch::Length { spec_bytes: 16, expected_bytes: 16, actual_bytes: 12, .. }));
    assert!(err.to_string().contains("actual data has 12"));
}

#[test]
fn element_formatting() {
    assert_eq!(format_elem(ElemType::F16, 0x3c00), "1.0 (0x3c00)");
    assert_eq!(format_elem(ElemType::Bf16, 0xff80), "-inf (0xff80)");
    assert_eq!(format_elem(ElemType::F64, 0x8000_0000_0000_0000), "-0.0 (0x8000000000000000)");
    assert_eq!(format_elem(ElemType::S8, 0x80), "-128");
    assert_eq!(format_elem(ElemType::U64, u64::MAX), "18446744073709551615");
    assert_eq!(format_elem(ElemType::B16, 0xab), "0x00ab");
}
