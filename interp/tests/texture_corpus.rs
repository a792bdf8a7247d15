//! The texture and surface kernels of `corpus/texture` (nvcc's PTX of bindless
//! `cudaTextureObject_t` / `cudaSurfaceObject_t` code) in the Ori interpreter, against outputs
//! computed here from the launch specs' inputs with plain arithmetic on the buffers (the
//! expected texel of each thread written out by hand: centres, a clamped edge, border zeros,
//! linear weights 1/2 and 1/4, a clamped layer, a `.zero` surface read), not with
//! `interp::texture`. NVIDIA's ptxas must accept every file; the emulator does not decode
//! `TEX`/`TLD`/`SULD`/`SUST` yet, so the emulator legs of the corpus check are not run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use interp::launch::LaunchSpec;
use interp::ori_exec::ExecConfig;

fn dir(k: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/texture").join(k)
}

/// The interpreter's outputs and the spec's inputs.
fn run(k: &str) -> (BTreeMap<String, Vec<u8>>, BTreeMap<String, Vec<u8>>) {
    let ptx = dir(k).join(format!("{k}.sm_90.ptx"));
    let text = std::fs::read_to_string(&ptx).unwrap();
    let spec = LaunchSpec::from_path(&dir(k).join(format!("{k}.run.toml"))).unwrap();
    if let Some(t) = oracle::tools_or_skip("texture corpus: ptxas accepts") {
        let out = t.ptxas_run(oracle::PtxInput::File { path: &ptx, cwd: None }, &["-arch", "sm_90"]).unwrap();
        assert!(out.cubin.is_some(), "{k}: NVIDIA ptxas: {}", out.stderr);
    }
    let module = ptxas_rs::lower::lower_source(&text).expect("lowering");
    let cfg = ExecConfig { step_limit: 1_000_000, ..ExecConfig::default() };
    let out = interp::run_ori_with(&module, &spec.kernel, &spec, &cfg).unwrap_or_else(|e| panic!("{k}: {e}"));
    (out.buffers, spec.generate_buffers())
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn s32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn tex_fetch1d() {
    let (out, input) = run("tex_fetch1d");
    let t = f32s(&input["texels"]);
    let got = f32s(&out["out"]);
    for (i, g) in got.iter().enumerate() {
        // Index i - 2, border outside [0, 32); threads i >= 36 write nothing.
        let want = if i >= 36 { -7.0 } else if (2..34).contains(&i) { t[i - 2] } else { 0.0 };
        assert_eq!(g.to_bits(), want.to_bits(), "out[{i}]");
    }
}

#[test]
fn tex2d_point() {
    let (out, _) = run("tex2d_point");
    let got = f32s(&out["out"]);
    for y in 0..4 {
        for x in 0..8 {
            // Texel (x, y) holds 1 + 8y + x; the second sample is texel x - 1, clamped to 0.
            let t = |x: usize| (1 + 8 * y + x) as f32;
            assert_eq!(got[y * 8 + x], t(x) + 1000.0 * t(x.saturating_sub(1)), "({x}, {y})");
        }
    }
}

#[test]
fn tex2d_linear() {
    let (out, input) = run("tex2d_linear");
    let t = f32s(&input["texels"]);
    let got = f32s(&out["out"]);
    let at = |x: usize, y: usize| f64::from(t[y.min(3) * 8 + x.min(7)]);
    for y in 0..4 {
        for x in 0..8 {
            // (x + 1.0, y + 0.75): texels x, x + 1 with weights 1/2, 1/2; rows y, y + 1 with 3/4, 1/4.
            let want = 0.375 * (at(x, y) + at(x + 1, y)) + 0.125 * (at(x, y + 1) + at(x + 1, y + 1));
            assert_eq!(f64::from(got[y * 8 + x]), want, "({x}, {y})");
        }
    }
}

#[test]
fn tex3d() {
    // Every thread samples its own texel's centre: the output is the texel array.
    let (out, input) = run("tex3d");
    assert_eq!(f32s(&out["out"]), f32s(&input["texels"]));
}

#[test]
fn tex_layered() {
    let (out, input) = run("tex_layered");
    let t = &input["texels"];
    let got = f32s(&out["out"]);
    for l in 0..4 {
        for y in 0..2 {
            for x in 0..4 {
                // Layer 3 is past the 3 layers: clamped to 2. u8 read as v / 255.
                let v = t[l.min(2) * 8 + y * 4 + x];
                assert_eq!(got[(l * 2 + y) * 4 + x], f32::from(v) / 255.0, "({x}, {y}, {l})");
            }
        }
    }
}

#[test]
fn surf2d() {
    let (out, input) = run("surf2d");
    let s = s32s(&input["src_texels"]);
    let got = s32s(&out["dst_texels"]);
    for y in 0..4 {
        for x in 0..8 {
            // The element to the right reads 0 past the row (cudaBoundaryModeZero).
            let b = if x + 1 < 8 { s[y * 8 + x + 1] } else { 0 };
            assert_eq!(got[y * 8 + x], s[y * 8 + x].wrapping_mul(2).wrapping_add(b), "({x}, {y})");
        }
    }
}
