//! Running a test's independent cases on all cores (included with `#[path]` by the root and
//! the `interp` test suites, so there is one copy).
//!
//! Invariant: the results come back in the items' order whatever the scheduling, so a test that
//! reports or asserts on them is as deterministic as its sequential loop was.
#![allow(dead_code)]

/// How many worker threads: the machine's parallelism, at most 8.
pub fn workers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()).min(8)
}

/// `f` over `items` on `threads` threads (each takes the next unclaimed item); the results in
/// the items' order.
pub fn par_map_on<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new((0..items.len()).map(|_| None).collect::<Vec<Option<R>>>());
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, items.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let v = f(item);
                    results.lock().unwrap()[i] = Some(v);
                }
            });
        }
    });
    results.into_inner().unwrap().into_iter().map(|v| v.expect("every item ran")).collect()
}

/// `f` over `items` on [`workers`] threads; the results in the items' order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    par_map_on(items, workers(), f)
}

/// Runs `f` over `items` on all cores, collecting the `Err` messages (sorted).
pub fn par_check<T: Sync>(items: &[T], f: impl Fn(&T) -> Result<(), String> + Sync) -> Vec<String> {
    let mut v: Vec<String> = par_map(items, f).into_iter().filter_map(Result::err).collect();
    v.sort();
    v
}
