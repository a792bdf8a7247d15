//! Emitted code runs like the Ori it came from: each hand-written allocated SASS-stage Ori
//! kernel of `tests/emit_kernels/` (with its launch spec) runs on the Ori interpreter, is
//! emitted by `sass::from_ori::emit_function` (both control-word recipes), and the words run in
//! the SASS emulator with the hazard checker on: zero hazards, and output buffers equal to the
//! interpreter's, byte for byte. Inputs are edge-biased full-width random values.
//!
//! The emulator runs the raw words through `interp::emu::Kernel` built directly (no cubin yet):
//! entry 0, parameters at c[0x0][0x210], the spec's dynamic shared memory, 1 KiB of local memory.

use ptxas_rs::target::Target;
use std::path::Path;

use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;
use ptxas_rs::ori;
use ptxas_rs::sass::from_ori::{EmitOptions, emit_function_with};
use ptxas_rs::sched::Recipe;

fn kernels() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/emit_kernels");
    let mut v: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".ori").map(str::to_string))
        .collect();
    v.sort();
    v
}

#[test]
fn emitted_kernels_match_the_interpreter() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/emit_kernels");
    let names = kernels();
    assert!(names.len() >= 4, "{names:?}");
    for name in names {
        let text = std::fs::read_to_string(dir.join(format!("{name}.ori"))).unwrap();
        let module = ori::parse_module(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let spec = LaunchSpec::from_path(&dir.join(format!("{name}.toml"))).unwrap();
        let want = interp::run_ori(&module, &spec.kernel, &spec).unwrap_or_else(|e| panic!("{name}: interpreter: {e}"));
        let f = module.function(&spec.kernel).unwrap();
        let params = spec.param_block(|_| 0).len() as u32;
        for recipe in [Recipe::O0, Recipe::Latency] {
            let e = emit_function_with(f, &Target::default(), &EmitOptions { recipe })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let words: Vec<u128> =
                e.code.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().unwrap())).collect();
            let kernel = Kernel {
                name: spec.kernel.clone(),
                sm: 90,
                words,
                // One section, no relocations: the emitted function alone.
                code: Default::default(),
                entry: 0,
                param_base: 0x210,
                param_size: params,
                bank0_size: 0x210 + params,
                shared_static: 0,
                local_bytes: 1024,
                banks: Vec::new(),
                globals: Vec::new(),
                tables: ptxas_rs::sass::tables_for("sm_90").unwrap(),
            };
            let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
            let got = kernel.run(&spec, &cfg).unwrap_or_else(|e| panic!("{name} {recipe:?}: emulator: {e}"));
            for (buf, bytes) in &want.buffers {
                let ours = got.outputs.buffers.get(buf).unwrap_or_else(|| panic!("{name}: no buffer {buf}"));
                if ours != bytes {
                    let diffs: Vec<String> = ours
                        .chunks(4)
                        .zip(bytes.chunks(4))
                        .enumerate()
                        .filter(|(_, (a, b))| a != b)
                        .take(12)
                        .map(|(k, (a, b))| format!("word {k}: emulator {a:02x?} interpreter {b:02x?}"))
                        .collect();
                    let t = ptxas_rs::sass::tables_for("sm_90").unwrap();
                    let listing: Vec<String> = e
                        .insts
                        .iter()
                        .enumerate()
                        .map(|(k, i)| format!("/*{:04x}*/ {} {}", 16 * k, t.print(i, 16 * k as u64, None), i.control))
                        .collect();
                    panic!(
                        "{name} {recipe:?}: buffer {buf} differs:\n{}\nemitted code:\n{}",
                        diffs.join("\n"),
                        listing.join("\n")
                    );
                }
            }
            println!("{name} {recipe:?}: {} instructions, outputs equal, hazard-free", e.tail);
        }
    }
}
