//! The device memory model shared by the Ori interpreter and the SASS emulator.
//!
//! # Address spaces
//!
//! | space | what | addresses |
//! |---|---|---|
//! | global | one allocation per launch-spec buffer | [`GLOBAL_BASE`] upward, see below |
//! | shared | one byte array per CTA: [`SHARED_RESERVED`] bytes, static symbols, then `shared_bytes` of dynamic shared memory | offsets from 0 |
//! | local | one byte array per thread, [`ExecConfig`](crate::ori_exec::ExecConfig)`::local_bytes` long | offsets from 0 |
//! | param | the kernel parameter block of [`LaunchSpec::param_block`] | offsets from 0, read-only |
//! | const | constant banks: bank 0 is the driver's bank ([`Bank0Layout`]), bank 3 user constants | `c[bank][offset]`, read-only |
//!
//! **Global layout (deterministic).** Buffers are allocated in the spec's buffer order (names in
//! byte order, the order of [`LaunchSpec::buffers`]), at ascending addresses from
//! [`GLOBAL_BASE`], each across a 4 GiB boundary ([`straddle`]): the allocation of `len` bytes
//! starts [`straddle`]`(len)` bytes (a multiple of [`ALLOC_ALIGN`], 256; about half the buffer,
//! and 256 for buffers of up to 512 bytes) below the first multiple of 2^32 that leaves at least
//! [`GUARD_BYTES`] (256) unallocated after the previous allocation's end, and outside every
//! generic window ([`WINDOWS`]). So every buffer longer than 256 bytes has addresses on both
//! sides of a carry into the high word, and a 64-bit address computation that drops or misplaces
//! that carry or borrow (a wrong `IADD3.X`/`LEA.HI.X` carry-in, a zero- for a sign-extension),
//! faults or lands in the guard, as on the GPU, whose allocations sit at addresses like
//! `0x7f44_bc80_0000`. The guard gap makes a one-past-the-end access fault instead of landing in
//! the neighbour. `GLOBAL_BASE` is far above 4 GiB, so a kernel that truncates a pointer to 32
//! bits faults too.
//!
//! **Generic addresses** resolve by window, the same in the Ori interpreter and the SASS emulator
//! ([`resolve_generic`], the one place that decides it): `[SHARED_WINDOW, SHARED_WINDOW +
//! WINDOW_SIZE)` is the executing CTA's shared memory, `[LOCAL_WINDOW, LOCAL_WINDOW +
//! WINDOW_SIZE)` the executing thread's local memory, `[CONST_WINDOW, ..)` the user constant bank
//! (`cvta.const`), `[PARAM_WINDOW, ..)` the kernel parameter block (`cvta.param`), anything else
//! is global ([`WINDOWS`]). Membership is by range, not by high word: the local, constant and
//! parameter windows start at bases with a nonzero low word (a GPU's local window does too: our
//! `cvta.to.local` that added `c[0x0][0x20]` instead of subtracting it faulted on an H100 at a
//! local address with garbage in its low word), so code that adds a window's base where it
//! should subtract it, or drops its low word, computes a wrong in-space address here as on the
//! GPU. With bases whose low word was 0 that bug was invisible: adding and subtracting the base
//! give the same low 32 bits. Only the shared window keeps a zero low word, as the hardware's
//! does: `cvta.shared` is `SR_SWINHI` over the shared address and `cvta.to.shared` its low word,
//! in ptxas's code as in ours.
//!
//! # Accesses
//!
//! Loads and stores move 1, 2, 4, 8 or 16 bytes, little-endian, as the low bytes of a `u128`.
//! Every access is checked: a size other than those, an address not a multiple of the size
//! (natural alignment), any byte outside an allocation, or a store to a read-only space is a
//! [`Fault`] naming the space, the address and the size. Nothing here panics.
//!
//! Invariants: allocations never overlap and each starts at a multiple of [`ALLOC_ALIGN`];
//! the contents of a region only change through [`Region::store`] / [`GlobalMemory::store`].

use std::collections::BTreeMap;
use std::fmt;

use crate::launch::LaunchSpec;
use ptxas_rs::cubin::{Constant0Layout, DriverSlots};

/// Lowest address of the global allocations (the address an H100's driver gave a first
/// allocation, 2026-11-27); the first one starts below the 4 GiB boundary above it.
pub const GLOBAL_BASE: u64 = 0x7f44_bc80_0000;
/// Alignment of every global allocation.
pub const ALLOC_ALIGN: u64 = 256;
/// Minimum unallocated gap after each global allocation.
pub const GUARD_BYTES: u64 = 256;
/// Bytes reserved at the start of every CTA's shared memory, as on sm_90 (where the driver
/// keeps the first 0x400 bytes of the window): the first variable's address is this, so the
/// interpreter's shared addresses are the ones ptxas and our backend give the same variables.
pub const SHARED_RESERVED: u64 = 0x400;
/// Start of the generic window onto the executing CTA's shared memory: its low word is 0, as
/// the hardware's (`SR_SWINHI` is its high word, and `cvta.shared` puts it over a shared address).
pub const SHARED_WINDOW: u64 = 0x7ff0_0000_0000;
/// Start of the generic window onto the executing thread's local memory (`c[0x0][0x20]`): its low
/// word is not 0 (see the module docs).
pub const LOCAL_WINDOW: u64 = 0x7fe0_bd00_0000;
/// Start of the generic window onto the user constant bank ([`USER_CONST_BANK`], `cvta.const`,
/// `c[0x0][0xd0]`): its low word is not 0.
pub const CONST_WINDOW: u64 = 0x7fd0_3a40_0000;
/// Start of the generic window onto the kernel parameter block (`cvta.param`, `c[0x0][0x198]`):
/// its low word is not 0.
pub const PARAM_WINDOW: u64 = 0x7fc0_e6c0_0000;
/// Size of each generic window (4 GiB).
pub const WINDOW_SIZE: u64 = 1 << 32;
/// `SR_SWINHI`: the shared window's high word.
pub const SHARED_HI: u32 = (SHARED_WINDOW >> 32) as u32;
/// `SR_LWINHI` / `SR_LWINLO`: the local window's high and low words.
pub const LOCAL_HI: u32 = (LOCAL_WINDOW >> 32) as u32;
/// See [`LOCAL_HI`].
pub const LOCAL_LO: u32 = LOCAL_WINDOW as u32;
/// The generic windows and the state space each opens onto; generic addresses outside all of
/// them are global.
pub const WINDOWS: [(u64, ptxas_rs::ori::Space); 4] = [
    (SHARED_WINDOW, ptxas_rs::ori::Space::Shared),
    (LOCAL_WINDOW, ptxas_rs::ori::Space::Local),
    (CONST_WINDOW, ptxas_rs::ori::Space::Const),
    (PARAM_WINDOW, ptxas_rs::ori::Space::Param),
];

// The windows are disjoint, above the global allocations, and only the shared one has a zero
// low word (module docs).
const _: () = {
    assert!(SHARED_WINDOW as u32 == 0);
    assert!(LOCAL_WINDOW as u32 != 0 && CONST_WINDOW as u32 != 0 && PARAM_WINDOW as u32 != 0);
    let mut i = 0;
    while i < WINDOWS.len() {
        assert!(WINDOWS[i].0 >= GLOBAL_BASE + WINDOW_SIZE);
        let mut j = i + 1;
        while j < WINDOWS.len() {
            let (a, b) = (WINDOWS[i].0, WINDOWS[j].0);
            assert!(a + WINDOW_SIZE <= b || b + WINDOW_SIZE <= a);
            j += 1;
        }
        i += 1;
    }
};

/// The state space and in-space address of generic address `a` ([`WINDOWS`], by range): the one
/// place both executors decide it.
pub fn resolve_generic(a: u64) -> (ptxas_rs::ori::Space, u64) {
    WINDOWS
        .iter()
        .find(|(base, _)| (*base..*base + WINDOW_SIZE).contains(&a))
        .map_or((ptxas_rs::ori::Space::Global, a), |&(base, space)| (space, a - base))
}
/// The constant bank that `ld.const` reads (user `__constant__` data, `.nv.constant3`).
pub const USER_CONST_BANK: u8 = 3;

/// A memory space as faults report it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemSpace {
    /// Device global memory.
    Global,
    /// The CTA's shared memory.
    Shared,
    /// The thread's local memory.
    Local,
    /// The kernel parameter block.
    Param,
    /// A constant bank.
    Const(u8),
    /// A generic address (before it resolved to a space).
    Generic,
}

impl fmt::Display for MemSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemSpace::Global => f.write_str("global"),
            MemSpace::Shared => f.write_str("shared"),
            MemSpace::Local => f.write_str("local"),
            MemSpace::Param => f.write_str("param"),
            MemSpace::Const(b) => write!(f, "const bank {b}"),
            MemSpace::Generic => f.write_str("generic"),
        }
    }
}

/// What went wrong with an access.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// Some byte of the access is outside every allocation of the space.
    OutOfBounds,
    /// The address is not a multiple of the access size.
    Misaligned,
    /// The size is not 1, 2, 4, 8 or 16 bytes.
    BadSize,
    /// A store to a read-only space (param, const).
    ReadOnly,
    /// A shared address whose CTA-slot bits (24 and up, `SR_CgaCtaId << 24` on sm_90) name
    /// another CTA than the one accessing it (the emulator runs no clusters, so any other slot
    /// is a fault).
    OtherCta,
}

/// A failed memory access: the GPU's memory exception, as a value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fault {
    /// What went wrong.
    pub kind: FaultKind,
    /// The space accessed.
    pub space: MemSpace,
    /// The address (space-relative for shared/local/param/const).
    pub addr: u64,
    /// The access size in bytes.
    pub size: u32,
    /// Whether it was a store.
    pub write: bool,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FaultKind::OutOfBounds => "out-of-bounds",
            FaultKind::Misaligned => "misaligned",
            FaultKind::BadSize => "bad-size",
            FaultKind::ReadOnly => "read-only",
            FaultKind::OtherCta => "other-CTA (CTA slot bits != SR_CgaCtaId)",
        };
        let rw = if self.write { "store" } else { "load" };
        write!(f, "{what} {}-byte {} {rw} at {:#x}", self.size, self.space, self.addr)
    }
}

impl std::error::Error for Fault {}

fn check_shape(space: MemSpace, addr: u64, size: u32, write: bool) -> Result<(), Fault> {
    let fault = |kind| Err(Fault { kind, space, addr, size, write });
    if !matches!(size, 1 | 2 | 4 | 8 | 16) {
        return fault(FaultKind::BadSize);
    }
    if !addr.is_multiple_of(u64::from(size)) {
        return fault(FaultKind::Misaligned);
    }
    Ok(())
}

/// The little-endian value of `bytes` (at most 16 count).
pub(crate) fn read_le(bytes: &[u8]) -> u128 {
    match *bytes {
        [b0] => u128::from(b0),
        [b0, b1] => u128::from(u16::from_le_bytes([b0, b1])),
        [b0, b1, b2, b3] => u128::from(u32::from_le_bytes([b0, b1, b2, b3])),
        _ if bytes.len() == 8 => u128::from(u64::from_le_bytes(bytes.try_into().unwrap_or_default())),
        _ => {
            let mut b = [0u8; 16];
            let n = bytes.len().min(16);
            b[..n].copy_from_slice(&bytes[..n]);
            u128::from_le_bytes(b)
        }
    }
}

/// Writes the low `dst.len()` bytes (at most 16) of `value` little-endian into `dst`.
pub(crate) fn write_le(dst: &mut [u8], value: u128) {
    match dst.len() {
        1 => dst[0] = value as u8,
        2 => dst.copy_from_slice(&(value as u16).to_le_bytes()),
        4 => dst.copy_from_slice(&(value as u32).to_le_bytes()),
        8 => dst.copy_from_slice(&(value as u64).to_le_bytes()),
        n => {
            let n = n.min(16);
            dst[..n].copy_from_slice(&value.to_le_bytes()[..n]);
        }
    }
}

/// Whether every address of `addrs` in the lanes of `mask` is a multiple of `size` (one of 1,
/// 2, 4, 8, 16) and has `size` bytes in `[lo, lo + len)`: no access of the lanes faults.
pub(crate) fn lanes_fit(addrs: &[u64; 32], mask: u32, size: u32, lo: u64, len: u64) -> bool {
    if !matches!(size, 1 | 2 | 4 | 8 | 16) || len < u64::from(size) {
        return false;
    }
    let (sz, last) = (u64::from(size), len - u64::from(size));
    // Every lane evaluated, the mask applied per lane, and the verdicts or-ed (a loop that
    // vectorises, unlike collecting a bit mask lane by lane).
    let mut bad = false;
    for (l, &a) in addrs.iter().enumerate() {
        let off = a.wrapping_sub(lo);
        bad |= (mask & 1 << l != 0) & ((a & (sz - 1) != 0) | (off > last));
    }
    !bad
}

/// Loads `size` bytes at each address of the lanes of `mask` from `bytes` (the addresses
/// `[lo, ..)`); [`lanes_fit`] holds.
fn load_fitting(bytes: &[u8], lo: u64, addrs: &[u64; 32], mask: u32, size: u32, out: &mut [u128; 32]) {
    match size {
        4 => return load_fitting_n::<4>(bytes, lo, addrs, mask, out),
        8 => return load_fitting_n::<8>(bytes, lo, addrs, mask, out),
        16 => return load_fitting_n::<16>(bytes, lo, addrs, mask, out),
        _ => {}
    }
    let n = size as usize;
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let o = addrs[l].wrapping_sub(lo) as usize;
        out[l] = match bytes.get(o..o + n) {
            Some(b) => read_le(b),
            None => 0,
        };
    }
}

/// [`load_fitting`] of `N`-byte values (`N` at most 16), the copy's size known.
fn load_fitting_n<const N: usize>(bytes: &[u8], lo: u64, addrs: &[u64; 32], mask: u32, out: &mut [u128; 32]) {
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let o = addrs[l].wrapping_sub(lo) as usize;
        let mut b = [0u8; 16];
        if let Some(src) = bytes.get(o..o + N) {
            b[..N].copy_from_slice(src);
        }
        out[l] = u128::from_le_bytes(b);
    }
}

/// [`store_fitting`] of `N`-byte values (`N` at most 16), the copy's size known.
fn store_fitting_n<const N: usize>(bytes: &mut [u8], lo: u64, addrs: &[u64; 32], mask: u32, vals: &[u128; 32]) {
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let o = addrs[l].wrapping_sub(lo) as usize;
        if let Some(b) = bytes.get_mut(o..o + N) {
            b.copy_from_slice(&vals[l].to_le_bytes()[..N]);
        }
    }
}

/// Stores the low `size` bytes of each lane's value at its address, lanes of `mask` in order;
/// [`lanes_fit`] holds.
fn store_fitting(bytes: &mut [u8], lo: u64, addrs: &[u64; 32], mask: u32, size: u32, vals: &[u128; 32]) {
    match size {
        4 => return store_fitting_n::<4>(bytes, lo, addrs, mask, vals),
        8 => return store_fitting_n::<8>(bytes, lo, addrs, mask, vals),
        16 => return store_fitting_n::<16>(bytes, lo, addrs, mask, vals),
        _ => {}
    }
    let n = size as usize;
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let o = addrs[l].wrapping_sub(lo) as usize;
        if let Some(b) = bytes.get_mut(o..o + n) {
            write_le(b, vals[l]);
        }
    }
}

/// A contiguous, space-relative byte array (shared, local, param, one constant bank).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The space faults report.
    pub space: MemSpace,
    /// Whether stores are allowed.
    pub writable: bool,
    /// The contents.
    pub bytes: Vec<u8>,
}

impl Region {
    /// A region of `len` zero bytes.
    pub fn zeroed(space: MemSpace, len: usize, writable: bool) -> Region {
        Region { space, writable, bytes: vec![0; len] }
    }
    /// A region holding `bytes`.
    pub fn with_bytes(space: MemSpace, bytes: Vec<u8>, writable: bool) -> Region {
        Region { space, writable, bytes }
    }
    fn range(&self, addr: u64, size: u32, write: bool) -> Result<std::ops::Range<usize>, Fault> {
        check_shape(self.space, addr, size, write)?;
        let oob = Fault { kind: FaultKind::OutOfBounds, space: self.space, addr, size, write };
        let end = addr.checked_add(u64::from(size)).ok_or(oob)?;
        if end > self.bytes.len() as u64 {
            return Err(oob);
        }
        Ok(addr as usize..end as usize)
    }
    /// Loads `size` bytes at `addr`.
    pub fn load(&self, addr: u64, size: u32) -> Result<u128, Fault> {
        let r = self.range(addr, size, false)?;
        Ok(read_le(&self.bytes[r]))
    }
    /// Stores the low `size` bytes of `value` at `addr`.
    pub fn store(&mut self, addr: u64, size: u32, value: u128) -> Result<(), Fault> {
        let r = self.range(addr, size, true)?;
        if !self.writable {
            return Err(Fault { kind: FaultKind::ReadOnly, space: self.space, addr, size, write: true });
        }
        write_le(&mut self.bytes[r], value);
        Ok(())
    }
    /// The loads of a warp: `size` bytes at the address of each lane of `mask` into `out`, when
    /// none of them faults; otherwise `false`, nothing read (the caller then loads lane by lane,
    /// which reports the fault).
    pub fn load_lanes(&self, addrs: &[u64; 32], mask: u32, size: u32, out: &mut [u128; 32]) -> bool {
        if !lanes_fit(addrs, mask, size, 0, self.bytes.len() as u64) {
            return false;
        }
        load_fitting(&self.bytes, 0, addrs, mask, size, out);
        true
    }
    /// The stores of a warp, lanes in order, when none of them faults; otherwise `false`,
    /// nothing stored (see [`Region::load_lanes`]).
    pub fn store_lanes(&mut self, addrs: &[u64; 32], mask: u32, size: u32, vals: &[u128; 32]) -> bool {
        if !self.writable || !lanes_fit(addrs, mask, size, 0, self.bytes.len() as u64) {
            return false;
        }
        store_fitting(&mut self.bytes, 0, addrs, mask, size, vals);
        true
    }
}

/// How many bytes of a global allocation of `len` bytes lie below the 4 GiB boundary it
/// straddles: half of it rounded up to [`ALLOC_ALIGN`], at most `len - 1` rounded down to it
/// (so that the boundary falls inside the buffer), at least `ALLOC_ALIGN` (a buffer of up to 256
/// bytes ends just below the boundary, its addresses' low words at 0xffff_ff00 and up).
pub fn straddle(len: u64) -> u64 {
    let half = (len / 2).div_ceil(ALLOC_ALIGN) * ALLOC_ALIGN;
    let inside = len.saturating_sub(1) / ALLOC_ALIGN * ALLOC_ALIGN;
    half.min(inside).max(ALLOC_ALIGN)
}

/// One global allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// The buffer's name.
    pub name: String,
    /// Its device address (a multiple of [`ALLOC_ALIGN`]).
    pub base: u64,
    /// Its contents.
    pub bytes: Vec<u8>,
}

/// Device global memory: the spec's buffers at fixed addresses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalMemory {
    /// Allocations in ascending address order.
    allocs: Vec<Allocation>,
}

impl GlobalMemory {
    /// Allocates `(name, contents)` pairs in order by the module's layout rule: each across a
    /// 4 GiB boundary, [`straddle`] bytes of it below, past the previous one's guard gap and
    /// clear of the generic windows.
    pub fn from_buffers(buffers: impl IntoIterator<Item = (String, Vec<u8>)>) -> GlobalMemory {
        let mut allocs = Vec::new();
        let mut next = GLOBAL_BASE;
        for (name, bytes) in buffers {
            let len = bytes.len() as u64;
            let below = straddle(len);
            let base = loop {
                let wrap = next.saturating_add(below).div_ceil(1 << 32).saturating_mul(1 << 32);
                let (base, end) = (wrap - below, (wrap - below).saturating_add(len + GUARD_BYTES));
                match WINDOWS.iter().find(|(w, _)| base < w + WINDOW_SIZE && *w < end) {
                    Some((w, _)) => next = w + WINDOW_SIZE,
                    None => break base,
                }
            };
            let end = base.saturating_add(len).saturating_add(GUARD_BYTES);
            next = end.div_ceil(ALLOC_ALIGN).saturating_mul(ALLOC_ALIGN);
            allocs.push(Allocation { name, base, bytes });
        }
        GlobalMemory { allocs }
    }
    /// Allocates one more buffer after every other, by the same layout rule (the system
    /// functions' heap, [`crate::sysfn`]); returns its address.
    pub fn append(&mut self, name: &str, bytes: Vec<u8>) -> u64 {
        let old = std::mem::take(&mut self.allocs);
        let mut all: Vec<(String, Vec<u8>)> = old.into_iter().map(|a| (a.name, a.bytes)).collect();
        all.push((name.to_string(), bytes));
        *self = GlobalMemory::from_buffers(all);
        self.address_of(name).unwrap_or(0)
    }
    /// The spec's buffers with their generated initial contents.
    pub fn from_spec(spec: &LaunchSpec) -> GlobalMemory {
        GlobalMemory::from_buffers(spec.generate_buffers())
    }
    /// The address of buffer `name`.
    pub fn address_of(&self, name: &str) -> Option<u64> {
        self.allocs.iter().find(|a| a.name == name).map(|a| a.base)
    }
    /// The contents of buffer `name`.
    pub fn buffer(&self, name: &str) -> Option<&[u8]> {
        self.allocs.iter().find(|a| a.name == name).map(|a| &a.bytes[..])
    }
    /// All allocations, ascending.
    pub fn allocations(&self) -> &[Allocation] {
        &self.allocs
    }
    fn locate(&self, addr: u64, size: u32, write: bool) -> Result<(usize, usize), Fault> {
        check_shape(MemSpace::Global, addr, size, write)?;
        let oob = Fault { kind: FaultKind::OutOfBounds, space: MemSpace::Global, addr, size, write };
        let i = self.allocs.partition_point(|a| a.base <= addr);
        let a = i.checked_sub(1).and_then(|i| self.allocs.get(i).map(|a| (i, a))).ok_or(oob)?;
        let off = addr - a.1.base;
        let end = off.checked_add(u64::from(size)).ok_or(oob)?;
        if end > a.1.bytes.len() as u64 {
            return Err(oob);
        }
        Ok((a.0, off as usize))
    }
    /// Loads `size` bytes at global address `addr`.
    pub fn load(&self, addr: u64, size: u32) -> Result<u128, Fault> {
        let (i, off) = self.locate(addr, size, false)?;
        Ok(read_le(&self.allocs[i].bytes[off..off + size as usize]))
    }
    /// Stores the low `size` bytes of `value` at global address `addr`.
    pub fn store(&mut self, addr: u64, size: u32, value: u128) -> Result<(), Fault> {
        let (i, off) = self.locate(addr, size, true)?;
        write_le(&mut self.allocs[i].bytes[off..off + size as usize], value);
        Ok(())
    }
    /// The allocation all the lanes of `mask` access without a fault, if there is one.
    fn lanes_alloc(&self, addrs: &[u64; 32], mask: u32, size: u32) -> Option<usize> {
        if mask == 0 {
            return None;
        }
        let first = addrs[mask.trailing_zeros() as usize & 31];
        let i = self.allocs.partition_point(|a| a.base <= first).checked_sub(1)?;
        let a = &self.allocs[i];
        lanes_fit(addrs, mask, size, a.base, a.bytes.len() as u64).then_some(i)
    }
    /// The allocation all the lanes of `mask` access without a fault (`size` bytes at each
    /// of `addrs`, aligned), as its base address and bytes; `None` when there is none (the
    /// lanes span several allocations, or one faults) or `mask` is empty.
    pub(crate) fn lanes_span(&self, addrs: &[u64; 32], mask: u32, size: u32) -> Option<(u64, &[u8])> {
        let a = &self.allocs[self.lanes_alloc(addrs, mask, size)?];
        Some((a.base, &a.bytes))
    }
    /// [`GlobalMemory::lanes_span`], writable.
    pub(crate) fn lanes_span_mut(&mut self, addrs: &[u64; 32], mask: u32, size: u32) -> Option<(u64, &mut [u8])> {
        let i = self.lanes_alloc(addrs, mask, size)?;
        let a = &mut self.allocs[i];
        Some((a.base, &mut a.bytes))
    }
    /// The loads of a warp: `size` bytes at the global address of each lane of `mask` into
    /// `out`, when all are in one allocation and none faults; otherwise `false`, nothing read
    /// (the caller then loads lane by lane, which reports the fault).
    pub fn load_lanes(&self, addrs: &[u64; 32], mask: u32, size: u32, out: &mut [u128; 32]) -> bool {
        let Some((base, bytes)) = self.lanes_span(addrs, mask, size) else { return mask == 0 };
        load_fitting(bytes, base, addrs, mask, size, out);
        true
    }
    /// The stores of a warp, lanes in order, when all are in one allocation and none faults;
    /// otherwise `false`, nothing stored (see [`GlobalMemory::load_lanes`]).
    pub fn store_lanes(&mut self, addrs: &[u64; 32], mask: u32, size: u32, vals: &[u128; 32]) -> bool {
        let Some((base, bytes)) = self.lanes_span_mut(addrs, mask, size) else { return mask == 0 };
        store_fitting(bytes, base, addrs, mask, size, vals);
        true
    }
}

/// Where the driver puts launch values in constant bank 0, per architecture (see
/// `shared/notes/digest-backend.md` §4.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bank0Layout {
    /// Offset of ntid.x (y, z follow at +4, +8).
    pub ntid: u32,
    /// Offset of nctaid.x (y, z follow at +4, +8).
    pub nctaid: u32,
    /// Offset of the initial stack pointer (32-bit).
    pub stack_ptr: u32,
    /// Offset of the kernel parameter block.
    pub param_base: u32,
    /// The further driver slots (generic windows, cluster shape, ...), where known.
    pub driver: Option<DriverSlots>,
}

impl Bank0Layout {
    /// sm_75 to sm_89.
    pub const SM80: Bank0Layout =
        Bank0Layout { ntid: 0x0, nctaid: 0xc, stack_ptr: 0x28, param_base: 0x160, driver: None };
    /// sm_90.
    pub const SM90: Bank0Layout = Bank0Layout {
        ntid: 0x0,
        nctaid: 0xc,
        stack_ptr: 0x28,
        param_base: 0x210,
        driver: Constant0Layout::for_sm(90).driver,
    };
    /// sm_100 to sm_121.
    pub const SM100: Bank0Layout =
        Bank0Layout { ntid: 0x360, nctaid: 0x370, stack_ptr: 0x37c, param_base: 0x380, driver: None };

    /// Builds bank 0: launch dimensions, stack pointer (`local_bytes`, the top of each thread's
    /// local memory), then the parameter block at `param_base`. Unfilled bytes are zero.
    pub fn build(&self, spec: &LaunchSpec, params: &[u8], local_bytes: u32) -> Vec<u8> {
        let end = (self.param_base as usize + params.len())
            .max(self.driver.map_or(0, |d| d.param_window as usize + 16))
            .max(self.nctaid as usize + 12)
            .max(self.ntid as usize + 12)
            .max(self.stack_ptr as usize + 4);
        let mut b = vec![0u8; end.next_multiple_of(4)];
        let mut put = |off: u32, v: u32| {
            let o = off as usize;
            b[o..o + 4].copy_from_slice(&v.to_le_bytes());
        };
        for d in 0..3u32 {
            put(self.ntid + 4 * d, spec.block[d as usize]);
            put(self.nctaid + 4 * d, spec.grid[d as usize]);
        }
        put(self.stack_ptr, local_bytes);
        if let Some(d) = self.driver {
            // The interpreter's parameter window opens onto the parameter block itself.
            let window = (PARAM_WINDOW, PARAM_WINDOW + params.len() as u64);
            put_driver_slots(&d, spec, window, &mut put);
        }
        let p = self.param_base as usize;
        b[p..p + params.len()].copy_from_slice(params);
        b
    }
}

/// SMs the executors report (`%nsmid`, bank 0's SM count): an H100 SXM's 132.
pub const SM_COUNT: u32 = 132;
/// Warp slots per SM the executors report (`%nwarpid`, bits 8..16 of `SR_VIRTCFG`): an H100's 64.
pub const WARP_SLOTS: u32 = 64;

/// Fills the driver slots `d` of constant bank 0 for a launch of `spec`, as both executors lay
/// them out: the generic windows of this module (`param_window`: the parameter window's start and
/// end), [`SM_COUNT`] SMs, grid id 0, the cluster shape (a launch without a cluster runs as clusters of one
/// CTA, not explicit), and shared-memory sizes chosen to satisfy PTX's relations between them
/// (`SR_SMEMSZ` is the CTA's whole allocation, all of it counted as used; an H100's 228 KiB per
/// SM as the aggregate; sreg_cluster_smem checks the relations), not measured.
pub fn put_driver_slots(d: &DriverSlots, spec: &LaunchSpec, param_window: (u64, u64), put: &mut impl FnMut(u32, u32)) {
    let mut put64 = |off: u32, v: u64| {
        put(off, v as u32);
        put(off + 4, (v >> 32) as u32);
    };
    put64(d.local_window, LOCAL_WINDOW);
    put64(d.const_window, CONST_WINDOW);
    put64(d.param_window, param_window.0);
    put64(d.param_window + 8, param_window.1);
    put64(d.grid_id, 0);
    put(d.dynamic_smem, spec.shared_bytes);
    put(d.sm_count, SM_COUNT);
    let cl = spec.cluster.unwrap_or([1, 1, 1]);
    for (k, (&c, &g)) in cl.iter().zip(&spec.grid).enumerate() {
        let o = 4 * k as u32;
        put(d.cluster_dims + o, c);
        put(d.cluster_rcp + o, (1.0 / c as f32).to_bits());
        put(d.nclusters + o, g / c);
    }
    put(d.cluster_size, cl.iter().product());
    put(d.explicit_cluster, u32::from(spec.cluster.is_some()));
    put(d.smem_total_sub, 0);
    put(d.aggr_smem, 228 * 1024);
    put(d.reserved_smem_end, RESERVED_SMEM_END);
    put(d.reserved_smem_1, RESERVED_SMEM_1);
}

/// `%reserved_smem_offset_end` as the executors' driver reports it: the end of the reserved
/// window at the start of a CTA's shared memory (`%reserved_smem_offset_begin` is 0 and
/// `%reserved_smem_offset_cap` 0x400 on sm_90, constants in ptxas's code), so the whole window.
/// A model value, not measured (sreg_cluster_smem's H200 golden confirms `begin <= end` only).
pub const RESERVED_SMEM_END: u32 = ptxas_rs::cubin::writer::RESERVED_SHARED as u32;
/// `%reserved_smem_offset_1` as the executors' driver reports it: an offset inside the reserved
/// window, distinct from every other reserved-smem value so that reading the wrong slot shows. A
/// model value, not measured.
pub const RESERVED_SMEM_1: u32 = 0x40;

/// A `%reserved_smem_offset_*` register (`sr`) as a launch of the executors gives it, the same
/// value ptxas's code reads from the emulator's bank 0: with the sm_90 driver slots
/// (`driver`), begin, offset 0 and the capacity are ptxas's constants
/// ([`ptxas_rs::opt::uniform_imm::reserved_smem_constant`]) and end and offset 1 the words
/// [`put_driver_slots`] writes; on the sm_80 layout ptxas computes begin, offset 0 and the
/// capacity from `SR_SMEMSZ` (`smem_size`) minus / and bank-0 words the executors leave 0.
/// Any other register: 0.
pub fn reserved_smem(sr: ptxas_rs::ori::SpecialReg, driver: bool, smem_size: u64) -> u64 {
    use ptxas_rs::ori::SpecialReg::{
        ReservedSmem0, ReservedSmem1, ReservedSmemBegin, ReservedSmemCap, ReservedSmemEnd,
    };
    match (sr, driver) {
        (ReservedSmemBegin | ReservedSmem0 | ReservedSmemCap, true) => {
            ptxas_rs::opt::uniform_imm::reserved_smem_constant(sr).map_or(0, u64::from)
        }
        (ReservedSmemBegin | ReservedSmem0 | ReservedSmemCap, false) => smem_size,
        (ReservedSmemEnd, true) => u64::from(RESERVED_SMEM_END),
        (ReservedSmem1, true) => u64::from(RESERVED_SMEM_1),
        _ => 0,
    }
}

/// The launch-wide memory: global buffers, the parameter block, constant banks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchMemory {
    /// Global memory.
    pub global: GlobalMemory,
    /// The parameter block (read-only).
    pub param: Region,
    /// Constant banks by number (read-only).
    pub banks: BTreeMap<u8, Region>,
}

impl LaunchMemory {
    /// Allocates the spec's buffers, builds the parameter block with their addresses, and
    /// constant bank 0 by `bank0`.
    pub fn new(spec: &LaunchSpec, bank0: Bank0Layout, local_bytes: u32) -> LaunchMemory {
        let global = GlobalMemory::from_spec(spec);
        let params = spec.param_block(|name| global.address_of(name).unwrap_or(0));
        let b0 = bank0.build(spec, &params, local_bytes);
        let mut banks = BTreeMap::new();
        banks.insert(0, Region::with_bytes(MemSpace::Const(0), b0, false));
        LaunchMemory { global, param: Region::with_bytes(MemSpace::Param, params, false), banks }
    }
    /// Loads from constant bank `bank` (a missing bank is empty: every access faults).
    pub fn load_const(&self, bank: u8, addr: u64, size: u32) -> Result<u128, Fault> {
        match self.banks.get(&bank) {
            Some(r) => r.load(addr, size),
            None => Region::zeroed(MemSpace::Const(bank), 0, false).load(addr, size),
        }
    }
    /// The contents of the spec's output buffers, by name.
    pub fn outputs(&self, spec: &LaunchSpec) -> BTreeMap<String, Vec<u8>> {
        spec.outputs()
            .filter_map(|b| self.global.buffer(b.name()).map(|bytes| (b.name().to_owned(), bytes.to_vec())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_aligned_with_guards() {
        let g = GlobalMemory::from_buffers([
            ("a".into(), vec![0; 4]),
            ("b".into(), vec![0; 300]),
            ("c".into(), vec![0; 1]),
        ]);
        assert_eq!(g.address_of("a"), Some(0x7f44_ffff_ff00));
        assert_eq!(g.address_of("b"), Some(0x7f45_ffff_ff00));
        assert_eq!(g.address_of("c"), Some(0x7f46_ffff_ff00));
        for a in g.allocations() {
            assert_eq!(a.base % ALLOC_ALIGN, 0);
        }
    }

    /// Every buffer longer than 256 bytes has addresses on both sides of a 4 GiB boundary,
    /// allocations ascend with their guard gaps, and none touches a generic window.
    #[test]
    fn buffers_straddle_4gib_boundaries() {
        let lens = [0usize, 1, 256, 257, 300, 512, 513, 2400, 9600, 1 << 20];
        let g = GlobalMemory::from_buffers(lens.iter().enumerate().map(|(i, &n)| (format!("b{i}"), vec![0; n])));
        let mut prev_end = 0;
        for a in g.allocations() {
            let (base, len) = (a.base, a.bytes.len() as u64);
            assert!(base >= GLOBAL_BASE && base % ALLOC_ALIGN == 0, "{base:#x}");
            assert!(base >= prev_end + GUARD_BYTES, "{}: {base:#x} after {prev_end:#x}", a.name);
            let wrap = (base >> 32 << 32) + (1 << 32);
            assert_eq!(wrap - base, straddle(len));
            if len > 256 {
                assert!(base + len > wrap, "{} ({len} bytes at {base:#x}) does not cross {wrap:#x}", a.name);
            }
            for (w, _) in WINDOWS {
                assert!(base + len + GUARD_BYTES <= w || base >= w + WINDOW_SIZE, "{} in a window", a.name);
            }
            prev_end = base + len;
        }
        // A carry into the high word within the buffer: the last byte of the 2400-byte buffer
        // has an address whose low word is below its base's.
        let b = g.address_of("b7").unwrap();
        assert!(((b + 2399) as u32) < b as u32);
    }

    /// Many allocations walk past the generic windows instead of into them.
    #[test]
    fn layout_skips_the_generic_windows() {
        let g = GlobalMemory::from_buffers((0..300).map(|i| (format!("{i:03}"), vec![0; 1024])));
        for a in g.allocations() {
            for (w, _) in WINDOWS {
                assert!(a.base + 1024 + GUARD_BYTES <= w || a.base >= w + WINDOW_SIZE, "{} at {:#x}", a.name, a.base);
            }
            assert_eq!(resolve_generic(a.base).0, ptxas_rs::ori::Space::Global);
        }
        assert!(g.allocations().windows(2).all(|p| p[0].base < p[1].base));
    }

    /// The warp-wide accesses do what lane-by-lane ones do, or decline (then nothing changed).
    #[test]
    fn lane_accesses_match_single_ones() {
        let mut g = GlobalMemory::from_buffers([("a".into(), (0..64).collect()), ("b".into(), vec![0; 64])]);
        let a = g.address_of("a").unwrap();
        let b = g.address_of("b").unwrap();
        for size in [1u32, 2, 4, 8, 16, 3] {
            for (base, stride) in [(a, size), (a + 1, size), (a, 0), (b - 8, size), (a + 48, size), (a, 2 * size)] {
                let addrs: [u64; 32] = std::array::from_fn(|l| base + u64::from(stride) * l as u64);
                for mask in [0u32, 1, 0b1011, 0xffff, u32::MAX] {
                    let mut out = [0u128; 32];
                    let single: Vec<_> = lanes_of(mask).map(|l| g.load(addrs[l], size)).collect();
                    if g.load_lanes(&addrs, mask, size, &mut out) {
                        for (l, r) in lanes_of(mask).zip(&single) {
                            assert_eq!(Ok(out[l]), *r);
                        }
                        let before = g.clone();
                        let vals: [u128; 32] =
                            std::array::from_fn(|l| 0x0102_0304_0506_0708_1112_1314_1516_1718 ^ l as u128);
                        assert!(g.store_lanes(&addrs, mask, size, &vals));
                        let mut h = before.clone();
                        for l in lanes_of(mask) {
                            h.store(addrs[l], size, vals[l]).unwrap();
                        }
                        assert_eq!(g, h);
                        g = before;
                    } else {
                        assert!(single.iter().any(Result::is_err) || mask != 0);
                        let before = g.clone();
                        assert!(!g.store_lanes(&addrs, mask, size, &[0; 32]));
                        assert_eq!(g, before);
                    }
                }
            }
        }
    }

    fn lanes_of(m: u32) -> impl Iterator<Item = usize> {
        (0..32).filter(move |l| m >> l & 1 == 1)
    }

    #[test]
    fn checked_accesses() {
        let mut g = GlobalMemory::from_buffers([("a".into(), vec![0; 16])]);
        let a = g.address_of("a").unwrap();
        g.store(a + 8, 8, 0x0102_0304_0506_0708).unwrap();
        assert_eq!(g.load(a + 8, 4).unwrap(), 0x0506_0708);
        assert_eq!(g.load(a, 16).unwrap() >> 64, 0x0102_0304_0506_0708);
        assert_eq!(g.load(a + 16, 4).unwrap_err().kind, FaultKind::OutOfBounds);
        assert_eq!(g.load(a + 2, 4).unwrap_err().kind, FaultKind::Misaligned);
        assert_eq!(g.load(a, 3).unwrap_err().kind, FaultKind::BadSize);
        assert_eq!(g.load(0, 4).unwrap_err().kind, FaultKind::OutOfBounds);
        assert_eq!(g.load(u64::MAX - 7, 8).unwrap_err().kind, FaultKind::OutOfBounds);
        let mut r = Region::zeroed(MemSpace::Param, 8, false);
        assert_eq!(r.store(0, 4, 1).unwrap_err().kind, FaultKind::ReadOnly);
        assert_eq!(r.load(8, 1).unwrap_err().kind, FaultKind::OutOfBounds);
    }
}
