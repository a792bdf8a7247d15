//! Running a `difftest::micro::Micro` on the three voices (included with `#[path]`): the
//! interpreter on the PTX, the emulator on NVIDIA ptxas's cubin (-O0 and -O3), and the emulator
//! on ptxas-rs's cubin (-O0 and -O3).
#![allow(dead_code)]

use interp::difftest::micro::{KERNEL, Micro};

/// NVIDIA ptxas's cubin of `m` at `-O{level}` and nvdisasm's modifier text per instruction.
pub fn nvidia(t: &oracle::Tools, m: &Micro, level: u8) -> (Vec<u8>, std::collections::BTreeMap<u32, String>) {
    let ptx = m.ptx();
    let dir = std::env::temp_dir().join(format!("ptxas-rs-micro-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let h = ptx.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let path = dir.join(format!("{h:016x}.ptx"));
    std::fs::write(&path, &ptx).unwrap();
    let out = t
        .ptxas_run(oracle::PtxInput::File { path: &path, cwd: None }, &["-arch", m.target, &format!("-O{level}")])
        .unwrap();
    let cubin = out.cubin.unwrap_or_else(|| panic!("ptxas failed: {}\n{ptx}", out.stderr));
    let listing = t.disassemble(&cubin).unwrap();
    let f = listing.function(KERNEL).unwrap();
    let sfx = f.instructions.iter().map(|i| (i.offset as u32, interp::emu::program::listing_suffix(&i.text))).collect();
    (cubin, sfx)
}

/// Every disagreement of `m`: the interpreter against NVIDIA's cubin in the emulator (the
/// independent voice) at -O0 and -O3, and against ptxas-rs's cubins when `ours`.
pub fn disagreements(t: &oracle::Tools, m: &Micro, ours: bool) -> Vec<String> {
    let reference = match m.interpret() {
        Ok(r) => r,
        Err(e) => return vec![format!("interpreter: {e}")],
    };
    let mut v = Vec::new();
    for level in [0u8, 3] {
        let (cubin, sfx) = nvidia(t, m, level);
        match m.emulate(&cubin, &sfx) {
            Ok(out) => {
                for d in m.diff(&out, &reference) {
                    v.push(format!("NVIDIA -O{level} (expected) vs interpreter: {d}"));
                }
            }
            Err(e) => v.push(format!("NVIDIA -O{level}: {e}")),
        }
        if ours {
            match m.our_cubin(level).and_then(|c| m.emulate(&c, &Default::default())) {
                Ok(out) => {
                    for d in m.diff(&reference, &out) {
                        v.push(format!("interpreter (expected) vs ptxas-rs -O{level}: {d}"));
                    }
                }
                Err(e) => v.push(format!("ptxas-rs -O{level}: {e}")),
            }
        }
    }
    v
}

/// Asserts that every case agrees on every voice.
pub fn check_all(t: &oracle::Tools, cases: &[(&str, Micro)], ours: bool) {
    let mut bad = Vec::new();
    for (name, m) in cases {
        let d = disagreements(t, m, ours);
        if !d.is_empty() {
            bad.push(format!("{name}:\n  {}\n--- PTX ---\n{}", d.join("\n  "), m.ptx()));
        }
    }
    assert!(bad.is_empty(), "{} of {} cases disagree:\n{}", bad.len(), cases.len(), bad.join("\n"));
}
