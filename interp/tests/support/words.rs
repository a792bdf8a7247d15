//! Little-endian words of an output buffer's bytes (shared by the tests that compare them).
#![allow(dead_code)]

/// The buffer as u32 words.
pub fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// The buffer as u64 words.
pub fn u64s(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}
