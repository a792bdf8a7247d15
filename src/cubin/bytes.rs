//! Bounds-checked little-endian reads over a byte slice.
//!
//! Invariant: no read here can panic; a read that does not fit yields `None`, which callers turn
//! into a located [`CubinError`](super::CubinError). Reads need no alignment (the `object`
//! crate's `Pod` views do, and a cubin slice taken from an arbitrary buffer may be unaligned).

/// `len` bytes at `off`, if they are all inside `data`.
pub(crate) fn slice(data: &[u8], off: u64, len: u64) -> Option<&[u8]> {
    let start = usize::try_from(off).ok()?;
    let len = usize::try_from(len).ok()?;
    data.get(start..start.checked_add(len)?)
}

fn array<const N: usize>(data: &[u8], off: u64) -> Option<[u8; N]> {
    slice(data, off, N as u64)?.try_into().ok()
}

/// The byte at `off`.
pub(crate) fn u8_at(data: &[u8], off: u64) -> Option<u8> {
    Some(array::<1>(data, off)?[0])
}

/// The little-endian u16 at `off`.
pub(crate) fn u16_at(data: &[u8], off: u64) -> Option<u16> {
    Some(u16::from_le_bytes(array(data, off)?))
}

/// The little-endian u32 at `off`.
pub(crate) fn u32_at(data: &[u8], off: u64) -> Option<u32> {
    Some(u32::from_le_bytes(array(data, off)?))
}

/// The little-endian u64 at `off`.
pub(crate) fn u64_at(data: &[u8], off: u64) -> Option<u64> {
    Some(u64::from_le_bytes(array(data, off)?))
}

/// The NUL-terminated string at `off` (lossily decoded); `None` if `off` is outside `data` or
/// no NUL follows.
pub(crate) fn cstr_at(data: &[u8], off: u64) -> Option<String> {
    let start = usize::try_from(off).ok()?;
    let rest = data.get(start..)?;
    let end = rest.iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// The little-endian u32 words of `data` (a trailing partial word is ignored).
pub(crate) fn words(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}
