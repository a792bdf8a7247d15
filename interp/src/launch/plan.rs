//! GPU launch plans: a launch spec written out for the CUDA-driver runner
//! (`interp/gpu/cuda_runner.c`), which has no TOML parser and no random generator of its own.
//!
//! A plan is a directory:
//!
//! ```text
//! launch.txt        the manifest, one directive per line (below)
//! kernel.cubin      the cubin to load
//! in_<buffer>.bin   each buffer's initial bytes, exactly as [`LaunchSpec::generate_buffers`] makes them
//! ```
//!
//! The manifest's lines, in this order:
//!
//! ```text
//! kernel NAME
//! grid X Y Z
//! block X Y Z
//! cluster X Y Z            (1 1 1 when the spec gives none)
//! shared BYTES             (dynamic shared memory)
//! buffer NAME BYTES OUT    (one per buffer, in name order; OUT is 1 for an output buffer)
//! param HEX                (one per parameter, in declaration order: a by-value parameter's bytes)
//! param @NAME              (a parameter that receives buffer NAME's device address)
//! ```
//!
//! The runner passes each parameter separately (`cuLaunchKernel`'s `kernelParams`), so the
//! driver lays out the parameter block from the cubin's own parameter table; a parameter's bytes
//! here are its slot of [`LaunchSpec::param_block`]. The runner writes each output buffer to
//! `<out>/<buffer>.bin`, the same files `ptxas-rs run --out` writes, so GPU outputs compare with
//! the emulator's and the interpreter's under [`crate::launch::compare()`].
//!
//! Invariant: a plan holds everything the runner needs; it never reads the spec.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use super::{LaunchSpec, Param};

/// The manifest text of a spec (see the module docs).
pub fn manifest(spec: &LaunchSpec) -> String {
    let mut m = String::new();
    let dims = |d: [u32; 3]| format!("{} {} {}", d[0], d[1], d[2]);
    let _ = writeln!(m, "kernel {}", spec.kernel);
    let _ = writeln!(m, "grid {}", dims(spec.grid));
    let _ = writeln!(m, "block {}", dims(spec.block));
    let _ = writeln!(m, "cluster {}", dims(spec.cluster.unwrap_or([1, 1, 1])));
    let _ = writeln!(m, "shared {}", spec.shared_bytes);
    for (name, b) in &spec.buffers {
        let _ = writeln!(m, "buffer {name} {} {}", b.byte_len(), u8::from(b.is_output()));
    }
    let layout = spec.param_layout();
    let block = spec.param_block(|_| 0);
    for (p, slot) in spec.params.iter().zip(&layout.slots) {
        match p {
            Param::Buffer(name) => {
                let _ = writeln!(m, "param @{name}");
            }
            // The runner creates no texture or surface objects yet: the directive it does not
            // know makes it refuse the plan (exit 2) instead of passing a meaningless handle.
            Param::Object(o) => {
                let _ = writeln!(m, "{} {}", o.kind.name(), o.name);
            }
            Param::Scalar(_) => {
                let hex: String =
                    block[slot.offset..slot.offset + slot.size].iter().map(|b| format!("{b:02x}")).collect();
                let _ = writeln!(m, "param {hex}");
            }
        }
    }
    m
}

/// Writes the plan directory `dir` for running `cubin` with `spec` (creating `dir`).
pub fn write_plan(spec: &LaunchSpec, cubin: &[u8], dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("launch.txt"), manifest(spec))?;
    std::fs::write(dir.join("kernel.cubin"), cubin)?;
    for (name, bytes) in spec.generate_buffers() {
        std::fs::write(dir.join(format!("in_{name}.bin")), bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_lists_params_in_order_with_their_slot_bytes() {
        let spec = LaunchSpec::from_toml_str(
            r#"
            kernel = "k"
            grid = [3]
            block = [64, 2]
            [[param]]
            scalar = { type = "u16", value = 0x1234 }
            [[param]]
            buffer = "y"
            [[param]]
            scalar = { type = "f32", value = 1.0 }
            [buffer.y]
            type = "u32"
            len = 5
            init = { fill = 7 }
            output = true
            [buffer.a]
            type = "u8"
            len = 3
            init = { fill = 1 }
            "#,
        )
        .unwrap();
        assert_eq!(
            manifest(&spec),
            "kernel k\ngrid 3 1 1\nblock 64 2 1\ncluster 1 1 1\nshared 0\nbuffer a 3 0\nbuffer y 20 1\n\
             param 3412\nparam @y\nparam 0000803f\n"
        );
    }
}
