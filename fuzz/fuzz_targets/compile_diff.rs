//! Fuzz target: the whole compiler, differentially. The bytes become a valid, UB-free PTX
//! kernel (`interp::difftest::kernelgen`), compiled by ptxas-rs at -O0 and -O3; the SASS
//! emulator (hazard checks on) must give the outputs the Ori interpreter gives for the lowered
//! PTX. A finding panics with the kernel's PTX and launch spec; a kernel the backend refuses is
//! a skip. At every power of two and every 1000 executions the target prints to stderr how many
//! kernel-levels were compared and skipped so far.
#![no_main]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use interp::difftest::{CheckConfig, check_bytes};

static EXECS: AtomicU64 = AtomicU64::new(0);
static COMPARED: AtomicU64 = AtomicU64::new(0);
static SKIPPED: AtomicU64 = AtomicU64::new(0);

fn config() -> &'static CheckConfig {
    static CFG: OnceLock<CheckConfig> = OnceLock::new();
    CFG.get_or_init(|| {
        let mut cfg = CheckConfig::default();
        // `PTXAS_RS_DIFF_REFUSED=1` also generates what the backend refused when the generator
        // was written (see `GenConfig::refused_too`).
        cfg.generator.refused_too = std::env::var_os("PTXAS_RS_DIFF_REFUSED").is_some();
        cfg
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let r = check_bytes(data, config());
    let n = EXECS.fetch_add(1, Ordering::Relaxed) + 1;
    COMPARED.fetch_add(r.compared.len() as u64, Ordering::Relaxed);
    SKIPPED.fetch_add(r.skipped.len() as u64, Ordering::Relaxed);
    if n.is_power_of_two() || n % 1000 == 0 {
        eprintln!(
            "compile_diff: {n} cases, {} kernel-levels compared, {} skipped",
            COMPARED.load(Ordering::Relaxed),
            SKIPPED.load(Ordering::Relaxed)
        );
    }
    if let Some(f) = r.finding {
        panic!("{f}");
    }
});
