//! Emulator throughput: thread-instructions per second on the largest corpus kernel the
//! emulator runs today (`ctrl_collatz`, NVIDIA ptxas -arch=sm_90), with and without the hazard
//! checker. Run: `cargo bench -p interp --bench emu`.

use std::path::Path;
use std::time::Instant;

use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;

#[path = "../tests/support/emu_corpus.rs"]
mod support;

fn main() {
    let Some(t) = oracle::tools_or_skip("bench emu") else { return };
    for k in ["ctrl_collatz", "int_divrem_const", "i64_arith"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda").join(k);
        let spec = LaunchSpec::from_path(&dir.join(format!("{k}.run.toml"))).unwrap();
        let bytes = support::nvidia_cubin(t, &dir.join(format!("{k}.sm_90.ptx")));
        let sfx = support::nvdisasm_suffixes(t, &bytes, &spec.kernel);
        let kernel = Kernel::load(&bytes, &spec.kernel).unwrap();
        for hazards in [false, true] {
            let cfg = EmuConfig { hazards, ..EmuConfig::default() };
            let mut n = 0u64;
            let t0 = Instant::now();
            let mut reps = 0;
            while t0.elapsed().as_secs_f64() < 1.0 {
                n += kernel.run_with_suffixes(&spec, &cfg, &sfx).unwrap().thread_instrs;
                reps += 1;
            }
            let s = t0.elapsed().as_secs_f64();
            println!(
                "{k:18} hazards={hazards:5}: {reps:4} runs, {:.1} M thread-instr/s ({:.1} M warp-instr/s est.)",
                n as f64 / s / 1e6,
                n as f64 / s / 1e6 / 32.0
            );
        }
    }
}
