//! The SASS emulator on NVIDIA's sm_80-family and sm_75 (Turing) code (issue 5): every corpus
//! kernel compiled by NVIDIA ptxas 13.0 `-O3` for sm_80, sm_86, sm_89 and sm_75 runs in the
//! emulator with the hazard checker on, and its outputs must equal the GPU goldens `corpus/gpu/sm_90/<kernel>/*.bin`
//! (recorded on an H100/H200 from NVIDIA's sm_90 cubin; a kernel's outputs are its program's,
//! not its arch's, so the same goldens apply).
//!
//! Inputs per arch: the CUDA kernels' `<k>.sm_XX.ptx` (nvcc's PTX for that arch), and the
//! hand-written PTX whose `.target` the arch can compile (those targeting sm_90 are skipped and
//! counted). A kernel ptxas refuses for the arch (it needs an sm_90 feature) is skipped and
//! counted, with ptxas's first error line.
//!
//! The harness is `support/emu_arch.rs` (shared with `emu_blackwell.rs`): each arch fails on an
//! unexplained disagreement (wrong output, hazard, emulator error), on an explained one
//! (`KNOWN`) that starts agreeing, and when fewer kernels agree than its floor. The report line
//! per arch (`--nocapture`): kernels run, matching, skipped, and the distinct opcodes (with
//! modifiers) in the kernels run and executed.
//!
//! Cost: one ptxas run per kernel and arch (no cache; the modifiers come from the decoder's
//! tables, not nvdisasm). The measured time is in the commit message that last changed it.

#[path = "support/emu_corpus.rs"]
mod support;

#[path = "support/emu_arch.rs"]
mod emu_arch;

use emu_arch::{Arch, check_arch};

/// Kernels whose sm_80-family run disagrees with the sm_90 golden, with the investigated cause
/// (the same for sm_80, sm_86 and sm_89).
const KNOWN_SM80: &[(&str, &str)] = &[
    (
        "sreg_reserved_smem",
        "arch-dependent values: ptxas's sm_80-family code computes the reserved shared-memory \
         offsets from `SR_SMEMSZ` and bank-0 words (in the emulator: its launch model), where \
         its sm_90 code has the constants 0 / 0x400 / 0 of the H100 golden; the kernel's slot \
         ((cap >> 10) - 1 + begin + (offset_0 & 63), 0 on sm_90) then falls outside `out`",
    ),
    (
        "bf16_arith2",
        "arch-dependent PTX: nvcc writes `mul.bf16` and `add.bf16` for sm_80/86/89 as two \
         `fma.rn.bf16` with constants (x*y + -0, then t*1 + z: two roundings, kept apart by ptxas), \
         while the sm_90 PTX has `mul.bf16` + `add.bf16`, which ptxas -O3 contracts into one \
         `HFMA2.BF16_V2`; the golden (sm_90 cubin) holds the fused result, one bf16 ulp from the \
         twice-rounded one in 5 `outs` elements (gpu_golden's CONTRACTED)",
    ),
    (
        "cvt_f16_bf16",
        "arch-dependent code: `cvt.rp/.rm.bf16.f32` has no sm_80-family instruction, and ptxas \
         rounds in software there, writing the canonical NaN 0x7fff for a NaN input (sm_80 -O3: \
         `SEL R14, R6, 0x7fff, !P1` at 0x0230, P1 = |x| > 0x7f800000); sm_90's \
         `F2FP.BF16.F32.PACK_AB.RP/.RM` keeps the NaN's sign and payload (0x7fc0, 0xffff), which \
         the golden holds: the 23 `bh` elements that differ are NaNs",
    ),
];

/// Kernels whose sm_75 run disagrees with the sm_90 golden, with the investigated cause. The
/// sm_75 programs of the first two differ from sm_90's in their CUDA source
/// (`#if __CUDA_ARCH__ >= 800`); an sm_75 GPU's outputs are not recorded (the project is lent
/// H100/H200s, which do not run sm_75 cubins).
const KNOWN_SM75: &[(&str, &str)] = &[
    (
        "cvt_f16_bf16",
        "arch-dependent code, as on the sm_80 family: Turing has no bf16 conversion instruction          and ptxas rounds `cvt.rn/.rz/.rp/.rm.bf16.f32` in software, writing the canonical NaN          0x7fff for a NaN input (sm_75 -O3: `SEL R14, R14, 0x7fff, !P0` at 0x0240); sm_90's          `F2FP.BF16.F32.PACK_AB` keeps the NaN's sign and payload (0x7fc0, 0xffff), which the golden          holds: the 23 `bh` elements that differ are NaNs (the f16 outputs, `cvt.rz.f16.f32` as          `HADD2 R5, R6.F32, -RZ.H0_H0` included, all agree)",
    ),
    (
        "f16_compare_minmax",
        "arch-dependent source: `o[5]` is `__hmin2_nan(x, y)` under `__CUDA_ARCH__ >= 800` and          `__hgt2(x, y)` (1.0/0.0 per half) below, so the sm_75 program writes comparison results          where the golden holds minima: elements 12i+10 and 12i+11 of `out` differ",
    ),
    (
        "f16_half2_arith",
        "arch-dependent source: `outs[3i+2]` is `__hfma_relu(xl, yh, zl)` under          `__CUDA_ARCH__ >= 800` and `__hfma(xl, yh, zl)` below: the differing `outs` elements          are those at 3i+2 whose fused result is negative (the golden holds 0 there)",
    ),
    (
        "f32_compare_select",
        "arch-dependent code: `sel[3i+2] = x == 0 ? y : (x > 1 ? 1 : x)` is          `FMNMX.NAN R12, R2, 1, PT` in ptxas's sm_90 code, which gives the canonical NaN          0x7fffffff for a NaN x (the golden), while Turing has no `.NAN` minimum and ptxas's sm_75          code selects (`@P5 FSEL R11, R2, 1, !P2` at 0x03a0), passing x's NaN through with its          payload (0x7f800001, 0x7fc00000, 0xffffffff): the 52 `sel` elements that differ are NaNs",
    ),
];

/// Runs the corpus for `arch` and checks it against the goldens and the floor.
fn check(arch: &str, min_agree: usize) {
    let known = if arch == "sm_75" { KNOWN_SM75 } else { KNOWN_SM80 };
    let Some(t) = oracle::tools_or_skip(&format!("emu_{arch}")) else { return };
    check_arch(t, &Arch { arch, known, undecodable: &[], min_agree });
}

#[test]
fn nvidia_sm80_cubins_in_the_emulator_match_the_gpu() {
    check("sm_80", 122);
}

#[test]
fn nvidia_sm86_cubins_in_the_emulator_match_the_gpu() {
    check("sm_86", 122);
}

#[test]
fn nvidia_sm89_cubins_in_the_emulator_match_the_gpu() {
    check("sm_89", 122);
}

#[test]
fn nvidia_sm75_cubins_in_the_emulator_match_the_gpu() {
    check("sm_75", 110);
}
