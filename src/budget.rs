//! The memory budget of the `ptxas-rs` process: a counting global allocator that turns an
//! allocation past the budget, or one the system refuses, into ptxas's failure — `ptxas fatal
//! : Memory allocation failure` on stderr and exit status 255 — instead of Rust's default
//! `memory allocation of N bytes failed` and SIGABRT (issue 28).
//!
//! The `ptxas-rs` binary installs [`Budgeted`] as its `#[global_allocator]`; the library does
//! not (an embedding program keeps its own allocator and its own policy). The budget is
//! `PTXAS_RS_MEMORY_LIMIT_MIB` MiB when that is set to a positive integer, else three quarters
//! of the machine's memory (`MemTotal` of `/proc/meminfo`), else unlimited; it is read once,
//! by [`Budgeted::init`] at the start of `main`, before that every allocation is allowed.
//!
//! Invariants: the failure path allocates nothing (a fixed message written straight to file
//! descriptor 2) and ends the process with [`std::process::exit`] (255), so no partial output
//! file is written: the driver writes `-o` only after a compile succeeded. The count is of
//! live heap bytes (allocations minus deallocations), kept with relaxed atomics: it is exact
//! for one thread and never lost across threads, only momentarily stale.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The message printed when the budget is exceeded, as ptxas prints an allocation failure.
pub const MESSAGE: &str = "ptxas fatal   : Memory allocation failure\n";

/// The system allocator with a live-byte count and a limit (see the module doc).
pub struct Budgeted {
    live: AtomicUsize,
    limit: AtomicUsize,
}

impl Budgeted {
    /// An unlimited budget (until [`Budgeted::init`]).
    pub const fn new() -> Self {
        Budgeted { live: AtomicUsize::new(0), limit: AtomicUsize::new(usize::MAX) }
    }

    /// Sets the limit from the environment and the machine (see the module doc).
    pub fn init(&self) {
        self.limit.store(limit_from_env().or_else(three_quarters_of_memory).unwrap_or(usize::MAX), Ordering::Relaxed);
    }

    /// Live heap bytes now.
    pub fn live(&self) -> usize {
        self.live.load(Ordering::Relaxed)
    }

    fn admit(&self, size: usize) {
        let before = self.live.fetch_add(size, Ordering::Relaxed);
        if before.saturating_add(size) > self.limit.load(Ordering::Relaxed) {
            fail();
        }
    }
}

impl Default for Budgeted {
    fn default() -> Self {
        Self::new()
    }
}

fn limit_from_env() -> Option<usize> {
    let mib: usize = std::env::var("PTXAS_RS_MEMORY_LIMIT_MIB").ok()?.trim().parse().ok()?;
    (mib > 0).then(|| mib.saturating_mul(1 << 20))
}

fn three_quarters_of_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024) / 4 * 3)
}

/// Prints [`MESSAGE`] and exits 255, allocating nothing.
fn fail() -> ! {
    use std::io::Write;
    // `Stderr` is unbuffered and writes a `&[u8]` without allocating.
    let _ = std::io::stderr().write_all(MESSAGE.as_bytes());
    std::process::exit(255)
}

// SAFETY: every method forwards to `System` with the caller's layout and pointer unchanged;
// the count only decides whether to end the process before forwarding.
unsafe impl GlobalAlloc for Budgeted {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.admit(layout.size());
        // SAFETY: forwarded as is (see above).
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            fail();
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.admit(layout.size());
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            fail();
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.live.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            self.admit(new_size - layout.size());
        } else {
            self.live.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: forwarded as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            fail();
        }
        p
    }
}
