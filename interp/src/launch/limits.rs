//! The hardware limits a launch is checked against before any memory is allocated for it.
//!
//! A spec on its own is target-independent, so [`super::spec`] caps `shared_bytes` at
//! [`MAX_SHARED_BYTES`], the most any target gives one block; an executor that knows its target
//! then checks the block's whole shared window (static variables and dynamic bytes) against
//! [`max_shared_per_block`] with [`check_shared`]. Grid and block shapes are the same on every
//! target and are checked by the spec parser.
//!
//! Figures: CUDA's `cudaDevAttrMaxSharedMemoryPerBlockOptin` per compute capability (CUDA C++
//! Programming Guide, "Technical Specifications per Compute Capability"): 64 KiB on sm_75,
//! 163 KiB on sm_80 and sm_87, 99 KiB on sm_86, sm_89 and sm_120, 227 KiB on sm_90 and
//! sm_100/sm_103. The 1 KiB the driver reserves per block from sm_90 on
//! (`.nv.shared.reserved.0`) is not counted against it.
//!
//! Invariants: [`max_shared_per_block`] is total and never above [`MAX_SHARED_BYTES`]; an
//! SM without a figure of its own gets the most restrictive figure of its generation's
//! neighbours (below sm_80: 64 KiB; otherwise 99 KiB unless listed).

/// The most shared memory one block may have on any target (227 KiB, sm_90 and sm_100).
pub const MAX_SHARED_BYTES: u32 = 227 * 1024;

/// The most shared memory (static + dynamic, the reserved 1 KiB of sm_90+ excluded) one block
/// may have on `sm` (e.g. 90).
pub fn max_shared_per_block(sm: u32) -> u32 {
    match sm {
        ..80 => 64 * 1024,
        80 | 87 => 163 * 1024,
        90 | 100 | 101 | 103 | 110 => MAX_SHARED_BYTES,
        _ => 99 * 1024,
    }
}

/// Checks a block's shared window (`static_bytes` of variables, reserved bytes excluded, plus
/// `dynamic_bytes` from the spec) against `sm`'s limit; the error says what exceeds what.
pub fn check_shared(sm: u32, static_bytes: u64, dynamic_bytes: u32) -> Result<(), String> {
    let total = static_bytes + u64::from(dynamic_bytes);
    let max = max_shared_per_block(sm);
    if total > u64::from(max) {
        return Err(format!(
            "shared_bytes = {dynamic_bytes} plus {static_bytes} bytes of static shared variables is {total} bytes of \
             shared memory per block; sm_{sm} allows at most {max}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_per_sm() {
        assert_eq!(max_shared_per_block(90), 232_448);
        assert_eq!(max_shared_per_block(80), 166_912);
        assert_eq!(max_shared_per_block(86), 101_376);
        assert_eq!(max_shared_per_block(75), 65_536);
        for sm in [75, 80, 86, 87, 89, 90, 100, 103, 120] {
            assert!(max_shared_per_block(sm) <= MAX_SHARED_BYTES);
        }
        assert!(check_shared(90, 1024, 231_424).is_ok());
        let e = check_shared(90, 1024, 231_425).unwrap_err();
        assert!(e.contains("sm_90 allows at most 232448"), "{e}");
        assert!(check_shared(86, 0, u32::MAX).is_err());
    }
}
