//! NVIDIA's sm_90 code for simple corpus kernels, run in the SASS emulator, against plain-Rust
//! references written from the kernels' `.cu` sources (no GPU and no recorded outputs yet):
//! outputs must be bit-identical.

#[path = "support/words.rs"]
mod words;
use std::collections::BTreeMap;
use std::path::Path;
use words::{u32s, u64s};

use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;

#[path = "support/emu_corpus.rs"]
mod support;

fn run(k: &str) -> Option<(LaunchSpec, BTreeMap<String, Vec<u8>>)> {
    let t = oracle::tools_or_skip(k)?;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda").join(k);
    let spec = LaunchSpec::from_path(&dir.join(format!("{k}.run.toml"))).unwrap();
    let ptx = dir.join(format!("{k}.sm_90.ptx"));
    let bytes = support::nvidia_cubin(t, &ptx);
    // Modifier names the decoder's table lacks come from nvdisasm (see Program::with_suffixes).
    let sfx = support::nvdisasm_suffixes(t, &bytes, &spec.kernel);
    let kernel = Kernel::load(&bytes, &spec.kernel).unwrap();
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let r = kernel.run_with_suffixes(&spec, &cfg, &sfx).unwrap();
    let inputs = spec.generate_buffers();
    let mut all = inputs.clone();
    all.extend(r.outputs.buffers);
    Some((spec, all))
}

#[test]
fn collatz_matches_reference() {
    let Some((_, m)) = run("ctrl_collatz") else { return };
    let start = u32s(&m["start"]);
    let (n, max_steps) = (500usize, 300u32);
    let (steps, peak) = (u32s(&m["steps"]), u64s(&m["peak"]));
    for i in 0..n {
        let mut v = u64::from(start[i]);
        let mut pk = v;
        let mut s = 0;
        while v > 1 && s < max_steps {
            v = if v & 1 == 1 { 3 * v + 1 } else { v >> 1 };
            pk = pk.max(v);
            s += 1;
        }
        assert_eq!((steps[i], peak[i]), (s, pk), "element {i}");
    }
}

#[test]
fn funnel_shifts_match_reference() {
    let Some((_, m)) = run("bits_funnel") else { return };
    let (a, b, s, out) = (u32s(&m["a"]), u32s(&m["b"]), u32s(&m["s"]), u32s(&m["out"]));
    let fl = |lo: u32, hi: u32, k: u32| ((((u64::from(hi) << 32) | u64::from(lo)) << k) >> 32) as u32;
    let fr = |lo: u32, hi: u32, k: u32| ((((u64::from(hi) << 32) | u64::from(lo)) >> k) & 0xffff_ffff) as u32;
    for i in 0..500 {
        let (lo, hi, k) = (a[i], b[i], s[i]);
        let want = [
            fl(lo, hi, k & 31),
            fr(lo, hi, k & 31),
            fl(lo, hi, k.min(32)),
            fr(lo, hi, k.min(32)),
            fl(lo, lo, k & 31),
            hi.rotate_right(13),
            fr(lo, hi, 8),
            fl(hi, lo, 32),
            if k >= 32 { 0 } else { lo << k },
            if k >= 32 { 0 } else { hi >> k },
            ((hi as i32) >> k.min(31)) as u32,
            (lo << (k & 31)) ^ (((hi as i32) >> (k & 31)) as u32),
        ];
        assert_eq!(&out[12 * i..12 * i + 12], &want[..], "element {i} (lo {lo:#x} hi {hi:#x} k {k})");
    }
}

/// Faults are located errors: a spec whose output buffer is too small makes NVIDIA's code store
/// out of bounds, and an unknown opcode is an illegal instruction; both name the offset and the
/// thread, and neither panics.
#[test]
fn faults_name_the_instruction_and_thread() {
    let Some(t) = oracle::tools_or_skip("faults_name_the_instruction_and_thread") else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda/bits_funnel");
    let text = std::fs::read_to_string(dir.join("bits_funnel.run.toml")).unwrap();
    let small = text.replace("len = 6000", "len = 100");
    assert_ne!(small, text);
    let spec = LaunchSpec::from_toml_str(&small).unwrap();
    let out = t
        .ptxas_run(oracle::PtxInput::File { path: &dir.join("bits_funnel.sm_90.ptx"), cwd: None }, &["-arch", "sm_90"])
        .unwrap();
    let bytes = out.cubin.unwrap();
    let listing = t.disassemble(&bytes).unwrap();
    let f = listing.function("bits_funnel").unwrap();
    let sfx: BTreeMap<u32, String> = f
        .instructions
        .iter()
        .map(|i| {
            let m = i.text.trim().trim_start_matches(|c: char| c != ' ' && i.text.trim().starts_with('@'));
            let mnem = m.split_whitespace().next().unwrap_or("");
            let mut toks: Vec<&str> = mnem.split('.').skip(1).collect();
            if mnem.starts_with("IMAD.") {
                toks.retain(|t| !matches!(*t, "MOV" | "SHL" | "IADD"));
            }
            (i.offset as u32, toks.iter().map(|t| format!(".{t}")).collect())
        })
        .collect();
    let kernel = Kernel::load(&bytes, "bits_funnel").unwrap();
    let e = kernel.run_with_suffixes(&spec, &EmuConfig::default(), &sfx).unwrap_err();
    let interp::emu::EmuErrorKind::Fault(fault) = e.kind else { panic!("{e}") };
    assert_eq!(fault.kind, interp::memory::FaultKind::OutOfBounds, "{e}");
    assert!(fault.write);
    let off = e.offset.unwrap() as usize;
    assert!(f.instructions[off / 16].text.contains("STG"), "{e}");
    let th = e.thread.unwrap();
    // out has 100 u32 = 400 bytes; thread i stores 48 bytes at 48*i, so the first store outside
    // is by thread 8 or 9 (depending on which element the first STG writes), in CTA 0.
    let base = interp::memory::GlobalMemory::from_spec(&spec).address_of("out").unwrap();
    assert!(th.cta == [0, 0, 0] && (th.tid[0] == 8 || th.tid[0] == 9), "{e}");
    assert!(fault.addr >= base + 400 && fault.addr < base + 48 * 10, "{e}");
    println!("{e}");
    // An opcode without a form: illegal instruction at that offset.
    let mut k2 = kernel.clone();
    let at = 4;
    k2.words[at] = (k2.words[at] & !0xfffu128) | 0x0ff;
    let e = k2.run_with_suffixes(&spec, &EmuConfig::default(), &sfx).unwrap_err();
    assert!(matches!(e.kind, interp::emu::EmuErrorKind::Invalid(_)), "{e}");
    assert_eq!(e.offset, Some(at as u32 * 16));
    println!("{e}");
}
