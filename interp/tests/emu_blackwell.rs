//! The SASS emulator on NVIDIA's Blackwell code (issue 5): every corpus kernel compiled by NVIDIA
//! ptxas 13.0 `-O3` for sm_100 and for sm_120 runs in the emulator with the hazard checker on,
//! and its outputs must equal the GPU goldens `corpus/gpu/sm_90/<kernel>/*.bin` (recorded on an
//! H100/H200 from NVIDIA's sm_90 cubin; a kernel's outputs are its program's, not its arch's,
//! except where it reads arch-dependent state: those are `KNOWN_*`, each with its cause).
//!
//! Inputs per arch: the CUDA kernels' `<k>.sm_100.ptx` / `<k>.sm_120.ptx` (nvcc's PTX for that
//! arch) and the hand-written PTX, retargeted to the arch. The harness is `support/emu_arch.rs`
//! (shared with `emu_sm80.rs`): an arch fails on an unexplained disagreement (wrong output,
//! hazard, emulator error), on an explained one that starts agreeing, and when fewer kernels
//! agree than its floor. The report line per arch (`--nocapture`): kernels run, to completion
//! hazard-free, agreeing, explained, skipped, and the opcodes in the kernels run and executed.
//!
//! Cost: one ptxas run per kernel and arch, and an nvdisasm run for a kernel whose modifiers the
//! decoder's tables lack.

#[path = "support/emu_corpus.rs"]
mod support;

#[path = "support/emu_arch.rs"]
mod emu_arch;

use emu_arch::{Arch, check_arch};

/// The explained disagreements, the same on sm_100 and sm_120: NaN results of FP64 code whose
/// operands ptxas orders differently from its sm_90 code, and a special register whose value is
/// the arch's.
const KNOWN_BLACKWELL: &[(&str, &str)] = &[
    (
        "sreg_reserved_smem",
        "arch-dependent value: `%reserved_smem_offset_0` is 0x40 in ptxas's sm_100/sm_120 code \
         (0 in its sm_90 code, whose H100 golden this is), and the kernel stores it in \
         `out[4i+2]` (the 128 elements that differ: 64 for 0)",
    ),
    (
        "f64_round_modes",
        "arch-dependent code: ptxas's sm_100/sm_120 code passes `add/sub/mul/fma.f64`'s operands \
         in the other order from its sm_90 code (`DADD R6, R8, R16` for sm_90's \
         `DADD R6, R16, R8`: x in R16, y in R8), and of two NaN operands the emulator keeps B's \
         (`alu::nan64_operand`, the rule the H100 golden of the sm_90 cubin shows); so where x \
         and y are both NaN the result is the other NaN (the 28 `out` elements that differ are \
         NaNs: 0xffffffffffffffff for the golden's 0x7ff8000000000000). What a Blackwell GPU \
         gives is not recorded: the project is lent H100/H200s",
    ),
    (
        "f64_minmax_cmp",
        "arch-dependent code, as f64_round_modes: `fmin`/`fmax` are `DSETP.MIN/MAX` with the \
         operands in the other order from sm_90's (`DSETP.MAX.AND P6, P5, R16, R12` with x in \
         R16 for sm_90's `DSETP.MAX.AND P3, P4, R12, R20` with x in R20), and of two NaN \
         operands the result is B's, quieted (`alu::dsetp_minmax`, the H100 golden's rule): \
         `out[5877]` and `out[5878]` (fmin and fmax of element 653, both NaN) differ",
    ),
];

/// Kernels whose NVIDIA sm_100 code has an opcode the SASS decoder (`src/sass/sm100`) cannot
/// decode yet; skipped while it cannot.
const UNDECODABLE_SM100: &[(&str, &str)] = &[];

/// Kernels whose NVIDIA sm_120 code has an opcode the SASS decoder (`src/sass/sm120`) cannot
/// decode yet; skipped while it cannot.
const UNDECODABLE_SM120: &[(&str, &str)] = &[];

#[test]
fn nvidia_sm100_cubins_in_the_emulator_match_the_gpu() {
    let Some(t) = oracle::tools_or_skip("emu_sm100") else { return };
    check_arch(t, &Arch { arch: "sm_100", known: KNOWN_BLACKWELL, undecodable: UNDECODABLE_SM100, min_agree: 125 });
}

#[test]
fn nvidia_sm120_cubins_in_the_emulator_match_the_gpu() {
    let Some(t) = oracle::tools_or_skip("emu_sm120") else { return };
    check_arch(t, &Arch { arch: "sm_120", known: KNOWN_BLACKWELL, undecodable: UNDECODABLE_SM120, min_agree: 125 });
}
