//! Warpgroup MMA (`wgmma.mma_async` / `HGMMA`): the shared semantics of `interp::gmma` against a
//! plain f32 matrix product written here from the PTX ISA's definitions (descriptor fields, the
//! K-major canonical layout of 8-row x 16-byte core matrices, the m64nNk16 f32 accumulator
//! fragment), on random inputs; and the emulator's hazard view of NVIDIA's tc_wgmma cubin with
//! its `WARPGROUP.DEPBAR` or `WARPGROUP.ARRIVE` removed.

#[path = "support/emu_corpus.rs"]
mod support;

use std::path::Path;

use interp::emu::{EmuConfig, EmuErrorKind, Kernel};
use interp::gmma::{InType, Wgmma};
use interp::launch::LaunchSpec;

/// xorshift64*: a fixed pseudo-random stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random normal 16-bit value of `ty` in about [-4, 4], as (bits, value).
fn random_elem(rng: &mut Rng, ty: InType) -> (u16, f32) {
    let sign = rng.below(2) as u16;
    match ty {
        InType::F16 => {
            // binary16: 5 exponent bits (bias 15), 10 fraction bits.
            let (e, m) = (12 + rng.below(6) as u16, rng.below(1024) as u16);
            let v = (1.0 + f32::from(m) / 1024.0) * 2f32.powi(i32::from(e) - 15);
            (sign << 15 | e << 10 | m, if sign == 1 { -v } else { v })
        }
        InType::Bf16 => {
            // bfloat16: the top half of an f32.
            let (e, m) = (124 + rng.below(6) as u16, rng.below(128) as u16);
            let bits = sign << 15 | e << 7 | m;
            (bits, f32::from_bits(u32::from(bits) << 16))
        }
    }
}

/// The 64-bit descriptor of the PTX ISA's format (addresses and offsets in 16-byte units).
fn descriptor(start: u32, lbo: u32, sbo: u32) -> u64 {
    u64::from(start >> 4) | u64::from(lbo >> 4) << 16 | u64::from(sbo >> 4) << 32
}

/// Stores element (r, k) of a K-major operand: core matrix (r / 8, k / 8) is 8 rows of 16
/// bytes at `start + (r / 8) * sbo + (k / 8) * lbo`.
fn store(smem: &mut [u8], start: u32, lbo: u32, sbo: u32, r: usize, k: usize, bits: u16) {
    let core = start as usize + (r >> 3) * sbo as usize + (k >> 3) * lbo as usize;
    let at = core + (r & 7) * 16 + (k & 7) * 2;
    smem[at..at + 2].copy_from_slice(&bits.to_le_bytes());
}

#[test]
fn warpgroup_tiles_equal_a_plain_f32_matmul() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = 0;
    for &n in &[8usize, 16, 24, 64, 128, 256] {
        for ty in [InType::F16, InType::Bf16] {
            for trial in 0..3 {
                // Layouts: core matrices adjacent in K (LBO 128) or in M/N (SBO 128), with
                // random padding between them; B after A.
                let pad = 16 * rng.below(4) as u32;
                let (a_lbo, a_sbo) =
                    if trial % 2 == 0 { (128 + pad, 256 + 2 * pad) } else { (8 * (128 + pad), 128 + pad) };
                let nb = (n / 8) as u32;
                let (b_lbo, b_sbo) =
                    if trial % 2 == 1 { (128 + pad, 256 + 2 * pad) } else { (nb * (128 + pad), 128 + pad) };
                let a_start = 0x400 + 16 * rng.below(8) as u32;
                let b_start = (a_start + 16 * 1024 + 127) & !127;
                let mut smem = vec![0u8; (b_start + 16 * 1024 + 1024 * nb) as usize];
                let mut a = vec![[0f32; 16]; 64];
                let mut b = vec![[0f32; 16]; n];
                for (r, row) in a.iter_mut().enumerate() {
                    for (k, x) in row.iter_mut().enumerate() {
                        let (bits, v) = random_elem(&mut rng, ty);
                        store(&mut smem, a_start, a_lbo, a_sbo, r, k, bits);
                        *x = v;
                    }
                }
                for (col, bc) in b.iter_mut().enumerate() {
                    for (k, x) in bc.iter_mut().enumerate() {
                        let (bits, v) = random_elem(&mut rng, ty);
                        store(&mut smem, b_start, b_lbo, b_sbo, col, k, bits);
                        *x = v;
                    }
                }
                let c: Vec<f32> = (0..64 * n).map(|_| (rng.below(2001) as f32 - 1000.0) / 64.0).collect();
                let scale_d = trial != 2;
                let da = descriptor(a_start, a_lbo, a_sbo);
                let db = descriptor(b_start, b_lbo, b_sbo);
                // The accumulator fragment (PTX, m64nNk16 f32 D): warp w holds rows 16w..16w+16;
                // lane l's register i is row 16w + l/4 + 8*((i>>1)&1), column 8*(i>>2) + 2*(l&3)
                // + (i&1).
                let at = |w: usize, lane: usize, i: usize| {
                    (16 * w + lane / 4 + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * (lane & 3) + (i & 1))
                };
                for w in 0..4 {
                    let regs: Vec<[u32; 32]> = (0..n / 2)
                        .map(|i| {
                            std::array::from_fn(|lane| {
                                let (r, col) = at(w, lane, i);
                                c[r * n + col].to_bits()
                            })
                        })
                        .collect();
                    let load = |off: u32| -> Result<u16, ()> {
                        let o = off as usize;
                        Ok(u16::from_le_bytes([smem[o], smem[o + 1]]))
                    };
                    let op = Wgmma { n, ty, desc_a: da, desc_b: db, scale_d };
                    let d = op.warp_f32(w, &regs, load).unwrap();
                    assert_eq!(d.len(), n / 2);
                    for (i, di) in d.iter().enumerate() {
                        for (lane, bits) in di.iter().enumerate() {
                            let (r, col) = at(w, lane, i);
                            let mut want = if scale_d { c[r * n + col] } else { 0.0 };
                            let mut mag = want.abs();
                            for k in 0..16 {
                                want += a[r][k] * b[col][k];
                                mag += (a[r][k] * b[col][k]).abs();
                            }
                            let got = f32::from_bits(*bits);
                            assert!(
                                (got - want).abs() <= 1e-5 * (1.0 + mag),
                                "n={n} {ty:?} trial {trial} D[{r}][{col}]: got {got}, want {want}"
                            );
                        }
                    }
                }
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 36);
}

#[test]
fn swizzled_and_offset_descriptors_are_refused() {
    let c = vec![[0u32; 32]; 4];
    let load = |_: u32| -> Result<u16, ()> { Ok(0) };
    for (da, what) in [(1u64 << 62, "swizzle"), (2 << 49, "base offset")] {
        let op = Wgmma { n: 8, ty: InType::F16, desc_a: da, desc_b: 0, scale_d: true };
        let e = op.warp_f32(0, &c, load).unwrap_err();
        assert!(matches!(&e, Err(m) if m.contains(what)), "{e:?}");
    }
    let op = Wgmma { n: 12, ty: InType::F16, desc_a: 0, desc_b: 0, scale_d: true };
    assert!(op.warp_f32(0, &c, load).is_err(), "N = 12 is not a wgmma shape");
}

/// NVIDIA's tc_wgmma cubin with the 16-byte instruction `word` replaced by `NOP` (same control).
fn patched(cubin: &[u8], word: u128) -> Vec<u8> {
    let pat = word.to_le_bytes();
    let at: Vec<usize> = cubin.windows(16).enumerate().filter(|(_, w)| *w == pat).map(|(i, _)| i).collect();
    assert_eq!(at.len(), 1, "{word:#034x} once in the cubin");
    // Keep the control bits (105 and up), the rest a plain NOP.
    let nop = (word & !((1u128 << 105) - 1)) | 0x7918;
    let mut out = cubin.to_vec();
    out[at[0]..at[0] + 16].copy_from_slice(&nop.to_le_bytes());
    out
}

#[test]
fn hazard_checker_requires_the_warpgroup_fence_and_wait() {
    let Some(t) = oracle::tools_or_skip("hazard_checker_requires_the_warpgroup_fence_and_wait") else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda/tc_wgmma");
    let spec = LaunchSpec::from_path(&dir.join("tc_wgmma.run.toml")).unwrap();
    let cubin = support::nvidia_cubin_with(t, &dir.join("tc_wgmma.sm_90a.ptx"), &["-arch", "sm_90a"]);
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let run = |bytes: &[u8]| Kernel::load(bytes, &spec.kernel).unwrap().run(&spec, &cfg).map_err(Box::new);
    run(&cubin).expect("NVIDIA's code is hazard-free");
    let kernel = Kernel::load(&cubin, &spec.kernel).unwrap();
    let program = kernel.program(&Default::default());
    // Every word of NVIDIA's code decodes with our sm_90a tables alone (no nvdisasm suffixes)
    // and lowers to something the emulator executes.
    assert!(program.first_invalid().is_none(), "{:?}", program.first_invalid().map(|(i, why)| (i.offset, why)));
    let word_of = |what: &str| {
        program.insts.iter().find(|i| i.base == "WARPGROUP" && i.suffix.contains(what)).map(|i| i.word).unwrap()
    };
    for (what, expect) in [("DEPBAR", "missing WARPGROUP.DEPBAR"), ("ARRIVE", "missing wgmma.fence")] {
        let e = run(&patched(&cubin, word_of(what))).expect_err(what);
        assert!(matches!(&e.kind, EmuErrorKind::Hazard(m) if m.contains(expect)), "without {what}: {e}");
    }
}

/// The HGMMAs read shared memory through the async proxy: the generic-proxy `STS`s that wrote
/// the operands must be followed by `fence.proxy.async` (`FENCE.VIEW.ASYNC.S`). NVIDIA's
/// tc_wgmma runs; with its fence replaced by a NOP the emulator reports the HGMMA's read (on the
/// H100 our cubin without the fence computed with stale shared data).
#[test]
fn hgmma_operands_need_the_proxy_fence() {
    let Some(t) = oracle::tools_or_skip("hgmma_operands_need_the_proxy_fence") else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda/tc_wgmma");
    let spec = LaunchSpec::from_path(&dir.join("tc_wgmma.run.toml")).unwrap();
    let cubin = support::nvidia_cubin_with(t, &dir.join("tc_wgmma.sm_90a.ptx"), &["-arch", "sm_90a"]);
    let cfg = EmuConfig::default();
    let run = |bytes: &[u8]| Kernel::load(bytes, &spec.kernel).unwrap().run(&spec, &cfg).map_err(Box::new);
    run(&cubin).expect("NVIDIA's code fences its operand stores");
    let kernel = Kernel::load(&cubin, &spec.kernel).unwrap();
    let program = kernel.program(&Default::default());
    let fence =
        program.insts.iter().find(|i| i.base == "FENCE" && i.suffix.contains("ASYNC.S")).expect("a proxy fence");
    let e = run(&patched(&cubin, fence.word)).expect_err("no proxy fence");
    assert!(matches!(&e.kind, EmuErrorKind::Hazard(m) if m.contains("fence.proxy.async")), "{e}");
}
