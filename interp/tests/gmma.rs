//! Warpgroup MMA (`wgmma.mma_async` / `HGMMA`): the shared semantics of `interp::gmma` against a
//! plain f32 matrix product written here from the PTX ISA's definitions (descriptor fields, the
//! K-major canonical layout of 8-row x 16-byte core matrices, the m64nNk16 f32 accumulator
//! fragment), on random inputs; and the emulator's hazard view of NVIDIA's tc_wgmma cubin with
//! its `WARPGROUP.DEPBAR` or `WARPGROUP.ARRIVE` removed.

#[path = "support/emu_corpus.rs"]
mod support;

use std::path::Path;

use interp::emu::{EmuConfig, EmuErrorKind, Kernel};
use interp::gmma::Wgmma;
use interp::launch::LaunchSpec;
use ptxas_rs::ori::gmma::{GmmaAcc, GmmaForm, GmmaType};

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
fn random_elem(rng: &mut Rng, ty: GmmaType) -> (u16, f32) {
    let sign = rng.below(2) as u16;
    match ty {
        GmmaType::F16 => {
            // binary16: 5 exponent bits (bias 15), 10 fraction bits.
            let (e, m) = (12 + rng.below(6) as u16, rng.below(1024) as u16);
            let v = (1.0 + f32::from(m) / 1024.0) * 2f32.powi(i32::from(e) - 15);
            (sign << 15 | e << 10 | m, if sign == 1 { -v } else { v })
        }
        _ => {
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
        for ty in [GmmaType::F16, GmmaType::Bf16] {
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
                    let load = |off: u32, bytes: u32| -> Result<u32, ()> { Ok(read(&smem, off, bytes)) };
                    let op = Wgmma { form: form(n, ty, (false, false)), desc_a: da, desc_b: db, scale_d };
                    let d = op.warp(w, None, &regs, load).unwrap();
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
fn offset_descriptors_and_bad_forms_are_refused() {
    let c = vec![[0u32; 32]; 4];
    let load = |_: u32, _: u32| -> Result<u32, ()> { Ok(0) };
    let op = Wgmma { form: form(8, GmmaType::F16, (false, false)), desc_a: 2 << 49, desc_b: 0, scale_d: true };
    let e = op.warp(0, None, &c, load).unwrap_err();
    assert!(matches!(&e, Err(m) if m.contains("base offset")), "{e:?}");
    let op = Wgmma { form: form(12, GmmaType::F16, (false, false)), desc_a: 0, desc_b: 0, scale_d: true };
    assert!(op.warp(0, None, &c, load).is_err(), "N = 12 is not a wgmma shape");
}

/// A 16-bit wgmma form with f32 accumulators.
fn form(n: usize, ty: GmmaType, trans: (bool, bool)) -> GmmaForm {
    GmmaForm {
        n: n as u16,
        acc: GmmaAcc::F32,
        a: ty,
        b: ty,
        a_regs: false,
        trans_a: trans.0,
        trans_b: trans.1,
        neg_a: false,
        neg_b: false,
        satfinite: false,
    }
}

/// A little-endian read of `bytes` bytes.
fn read(smem: &[u8], off: u32, bytes: u32) -> u32 {
    (0..bytes).fold(0, |v, b| v | u32::from(smem[(off + b) as usize]) << (8 * b))
}

/// A CuTe layout mode: shape and byte strides, evaluated colexicographically.
fn eval(shape: &[usize], stride: &[usize], mut x: usize) -> usize {
    let mut off = 0;
    for (k, (&s, &d)) in shape.iter().zip(stride).enumerate() {
        let last = k + 1 == shape.len();
        off += if last { x } else { x % s } * d;
        x /= s;
    }
    off
}

/// The byte address of element (mn, k) of a 16-bit operand in the PTX ISA's canonical layouts
/// (table "canonical layouts" of the wgmma shared-memory section, strides turned into bytes:
/// T = 8 elements = 16 bytes), then the swizzle applied to the address bits (`Swizzle<b,4,3>`).
fn canonical(start: usize, lbo: usize, sbo: usize, swizzle: u64, mn_major: bool, mn: usize, k: usize) -> usize {
    let w = [16, 128, 64, 32][swizzle as usize];
    let (es, t) = (2, 8);
    let raw = match (mn_major, swizzle) {
        (false, 0) => eval(&[8, 1 << 20], &[16, sbo], mn) + eval(&[t, 1 << 20], &[es, lbo], k),
        (false, _) => eval(&[8, 1 << 20], &[w, sbo], mn) + eval(&[t, 1 << 20], &[es, 16], k),
        (true, 0) => eval(&[t, 1, 1 << 20], &[es, 16, sbo], mn) + eval(&[8, 1 << 20], &[16, lbo], k),
        (true, _) => eval(&[t, w / 16, 1 << 20], &[es, 16, lbo], mn) + eval(&[8, 1 << 20], &[w, sbo], k),
    };
    let addr = start + raw;
    let b = [0, 3, 2, 1][swizzle as usize];
    addr ^ (((addr >> 7) & ((1 << b) - 1)) << 4)
}

/// LBO and SBO (bytes) that place an operand of `rows` rows (MN) and K 16 without overlap.
fn offsets(mn_major: bool, swizzle: u64, rows: usize) -> (usize, usize) {
    let w = [16, 128, 64, 32][swizzle as usize];
    match (mn_major, swizzle) {
        (false, 0) => (128, 256),
        (false, _) => (16, 8 * w),
        (true, 0) => (rows / 8 * 128, 128),
        (true, _) => (16 * w, 8 * w),
    }
}

/// Transposed operands and every swizzle mode against a plain matrix product: A and B stored
/// element by element at the canonical layouts' addresses, D compared with the f64 product.
#[test]
fn swizzled_and_transposed_layouts_equal_a_plain_matmul() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut cases = 0;
    for swizzle in 0..4u64 {
        for trans in [(false, false), (true, false), (false, true), (true, true)] {
            for n in [8usize, 64, 256] {
                let ty = if cases % 2 == 0 { GmmaType::F16 } else { GmmaType::Bf16 };
                let (a_start, b_start) = (0x400usize, 0x10000usize);
                let (a_lbo, a_sbo) = offsets(trans.0, swizzle, 64);
                let (b_lbo, b_sbo) = offsets(trans.1, swizzle, n);
                let mut smem = vec![0u8; 0x40000];
                let mut a = vec![[0f64; 16]; 64];
                let mut b = vec![[0f64; 16]; n];
                for (m, row) in a.iter_mut().enumerate() {
                    for (k, x) in row.iter_mut().enumerate() {
                        let (bits, v) = random_elem(&mut rng, ty);
                        let at = canonical(a_start, a_lbo, a_sbo, swizzle, trans.0, m, k);
                        smem[at..at + 2].copy_from_slice(&bits.to_le_bytes());
                        *x = f64::from(v);
                    }
                }
                for (col, bc) in b.iter_mut().enumerate() {
                    for (k, x) in bc.iter_mut().enumerate() {
                        let (bits, v) = random_elem(&mut rng, ty);
                        let at = canonical(b_start, b_lbo, b_sbo, swizzle, trans.1, col, k);
                        smem[at..at + 2].copy_from_slice(&bits.to_le_bytes());
                        *x = f64::from(v);
                    }
                }
                let desc = |start: usize, lbo: usize, sbo: usize| {
                    descriptor(start as u32, lbo as u32, sbo as u32) | swizzle << 62
                };
                let (desc_a, desc_b) = (desc(a_start, a_lbo, a_sbo), desc(b_start, b_lbo, b_sbo));
                let op = Wgmma { form: form(n, ty, trans), desc_a, desc_b, scale_d: false };
                for w in 0..4 {
                    let c = vec![[0u32; 32]; n / 2];
                    let load = |off: u32, bytes: u32| -> Result<u32, ()> { Ok(read(&smem, off, bytes)) };
                    let d = op.warp(w, None, &c, load).unwrap();
                    for (i, di) in d.iter().enumerate() {
                        for (lane, bits) in di.iter().enumerate() {
                            let (r, col) = interp::gmma::d_coord(lane, i);
                            let r = 16 * w + r;
                            let want: f64 = (0..16).map(|k| a[r][k] * b[col][k]).sum();
                            let got = f64::from(f32::from_bits(*bits));
                            assert!(
                                (got - want).abs() <= 1e-5 * (1.0 + want.abs()),
                                "swizzle {swizzle} trans {trans:?} n={n}: D[{r}][{col}] = {got}, want {want}"
                            );
                        }
                    }
                }
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 48);
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

/// A reading warp's `fence.proxy.async` after a barrier orders the other warps' generic-proxy
/// stores made before that barrier (Triton's pattern: stores, `bar.sync`, `fence.proxy.async`,
/// `wgmma`; NVIDIA's sm_90 attn_bwd_dkdv): tc_wgmma with its fence moved after its `bar.sync`
/// runs hazard-free in the emulator with the outputs of the original.
#[test]
fn proxy_fence_after_the_barrier_orders_other_warps_stores() {
    let Some(t) = oracle::tools_or_skip("proxy_fence_after_the_barrier_orders_other_warps_stores") else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda/tc_wgmma");
    let spec = LaunchSpec::from_path(&dir.join("tc_wgmma.run.toml")).unwrap();
    let ptx = std::fs::read_to_string(dir.join("tc_wgmma.sm_90a.ptx")).unwrap();
    let fence = "\tfence.proxy.async.shared::cta;\n";
    let bar = "\tbar.sync \t0;\n";
    assert!(ptx.matches(fence).count() == 1 && ptx.find(fence) < ptx.find(bar), "tc_wgmma fences, then syncs");
    let moved = ptx.replacen(fence, "", 1).replacen(bar, &format!("{bar}{fence}"), 1);
    let compile = |text: &str| {
        let out = t.ptxas_run(oracle::PtxInput::Text { name: "tc_wgmma.ptx", text }, &["-arch", "sm_90a"]).unwrap();
        out.cubin.unwrap_or_else(|| panic!("ptxas: {}", out.stderr))
    };
    let cfg = EmuConfig::default();
    let run = |bytes: &[u8]| Kernel::load(bytes, &spec.kernel).unwrap().run(&spec, &cfg).map_err(Box::new);
    let want = run(&compile(&ptx)).expect("the original runs").outputs.buffers;
    let got = run(&compile(&moved)).expect("the fence after the barrier orders the stores").outputs.buffers;
    assert_eq!(got, want);
}
