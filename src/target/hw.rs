//! [`HwFacts`]: the measured hardware facts of one SM that the scheduler and the SASS
//! emulator's hazard checker both depend on, kept in one place.
//!
//! Every field is a figure or a yes/no fact read off NVIDIA's code for that SM (ptxas 13.0.88
//! -O3 on the corpus) or measured on a GPU; its doc comment says where. The *rules* that use
//! them stay with their users: the scheduler ([`crate::sched`]) decides stalls and scoreboards
//! from them, and the emulator's hazard checker (`interp::emu::hazard`, the independent check)
//! applies its own model to them. The sm_90 values are the reference model; each other SM
//! differs only where its NVIDIA code shows it (the notes give few per-SM figures).
//!
//! Invariants: [`HwFacts::for_sm`] is total (an SM number without measurements of its own gets
//! sm_90's model, as the checker always did); the facts are plain data, never computed from
//! anything but the SM number; sm_90's values equal the constants the sm_90 scheduler was
//! built with (13-cycle guard latency, 6-cycle barrier settle), so code for sm_90 does not
//! change when the scheduler reads them from here.

/// Cycles a CTA barrier (`BAR`) needs on sm_90 (and every SM but sm_75) before the warp issues
/// an instruction that is not fixed-latency arithmetic
/// ([`crate::sched::class::settles_after_barrier`]).
///
/// Measured on ptxas 13.0.88 -O3 sm_90 output for the 128 corpus kernels: of the 134
/// `BAR.SYNC`s, every one followed by a memory access (`LDS` 25, `LDC` 3, `LDG`, `SYNCS`), a
/// control transfer (`BRA` 8, `EXIT` 10, `BSSY`) or `VOTEU` has stall 6 or more, while 82 followed
/// by ALU/FMA/uniform arithmetic have stall 1. On the H100 our -O3 cubin of algo_matmul_tiled,
/// with an `LDS` 1 cycle after `BAR.SYNC`, read shared memory the other warps had not finished
/// writing (`interp/gpu/README.md`, run 4).
pub const BARRIER_SETTLE: u64 = 6;

/// Cycles from a fixed-latency instruction writing a predicate to a guard or branch reading it,
/// on sm_90 (and every SM but sm_75).
///
/// ptxas never guards an instruction less than 13 cycles after a fixed-latency instruction set
/// the predicate: 0 of the 2,360 guarded instructions, branches included, whose guard comes
/// from a fixed-latency instruction of the same block, over the 128 corpus kernels at -O3
/// (sm_90); on the H100 our guarded `IADD3`/`MOV`/`STG` 5 cycles after their `ISETP` saw the
/// predicate's old value (`digest-backend.md` §2.1 and §2.3).
pub const PRED_GUARD_LATENCY: u64 = 13;

/// The measured per-SM hardware facts (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HwFacts {
    /// Cycles from a fixed-latency instruction writing a predicate to a guard or branch reading
    /// it: [`PRED_GUARD_LATENCY`] (13), but 12 on sm_75 (`digest-backend.md` §2.1 and §2.3;
    /// NVIDIA's sm_75 cubins of the corpus guard `@P0 EXIT` 12 cycles after its `ISETP`).
    pub pred_guard_latency: u64,
    /// Extra cycles over [`HwFacts::pred_guard_latency`] before a predicate a fixed-latency
    /// FP64 instruction (`DSETP`) wrote may guard an instruction or steer a branch: 1, 3 on
    /// sm_75. NVIDIA's -O3 corpus code never does it sooner (`DSETP` to guard or branch: 14
    /// cycles at least on sm_80, sm_86, sm_89, sm_90 and sm_100, 33 to 40 pairs per SM; 15 on
    /// sm_75, 40 pairs; ISETP/FSETP: 13, 12 on sm_75), and on the H100 our -O3
    /// math_libdevice_f64, whose `@P0 BRA` came 13 cycles after its `DSETP.LTU P0`, sent lanes
    /// with small arguments into the Payne–Hanek call (2026-11-27, compute-sanitizer: an
    /// out-of-bounds `LDG` there).
    pub fp64_pred_guard_extra: u64,
    /// Cycles after a `BAR` before anything but pipe arithmetic may issue: [`BARRIER_SETTLE`]
    /// (6), but 5 on sm_75: NVIDIA's sm_75 code issues `LDS`, `LDG`, `BRA`, `EXIT` and `BSSY`
    /// 5 cycles after `BAR.SYNC` (algo_block_scan, smem_swizzle, ...; none closer), where its
    /// sm_80/90 code waits 6.
    pub barrier_settle: u64,
    /// `R2UR` returns its results through a scoreboard (variable latency): on sm_75 and the
    /// sm_80 family (sm_80 to sm_89). NVIDIA's sm_80 cubins give it a write scoreboard and wait
    /// on it, e.g. cg_tiled_reduce's `R2UR P0, URZ, R3` with SB0, the `@!P0 BRA.DIV` 7 cycles
    /// later waiting on SB0; on sm_90 ptxas reads its result at the fixed latency.
    pub r2ur_variable_latency: bool,
    /// `CS2R` holds the ALU pipe (2 cycles) as on sm_90; not on sm_75 and the sm_80 family
    /// (algo_nbody: `CS2R R4, SRZ` then `CS2R R6, SRZ` one cycle apart).
    pub cs2r_holds_alu_pipe: bool,
    /// A second FP32 datapath (GA10x/AD10x: sm_86 and sm_89): the FP32 instructions (`FFMA`,
    /// `FMUL`, `FADD`, `FSWZADD`) do not wait for the FMA pipe an `IMAD` holds
    /// (ctrl_predicated sm_86: `IMAD.WIDE.U32` at 0x00f0 with stall 1, `FMUL` at 0x0100;
    /// sm_80 and sm_90 code never issues them so close).
    pub dual_fp32: bool,
    /// FP64 arithmetic (`DADD`/`DMUL`/`DFMA`/`DSETP`) returns through a scoreboard, its
    /// uniform-register sources read at issue: sm_75, the sm_80 family and sm_120
    /// (`digest-backend.md` §2.2: "SB" there); fixed latency on sm_90 and sm_100. ptxas
    /// 13.0.88 -O3 on the CUDA corpus gives a write scoreboard to 563 of 629 of them on sm_75,
    /// 562 of 629 on sm_80, 567 of 629 on sm_86 and sm_89, 555 of 621 on sm_120, and none of
    /// 624 on sm_90; at -O0 every one carries `R1:W0` on sm_75, sm_80 and sm_120 (the
    /// recipe of variable-latency instructions; `tests/sched_o0.rs`). math_libdevice_f64 on
    /// sm_120: `DFMA R24, R20, R8, UR6` with read SB2, then `UMOV.64 UR6` next with no wait.
    pub fp64_variable_latency: bool,
    /// ALU and uniform-ALU instructions, and `VIADD`s with a SIMD or saturating modifier, hold
    /// no pipe: sm_120. NVIDIA's sm_120 -O3 corpus code has 1,537 of 4,924 ALU→ALU and 42 of 98
    /// UALU→UALU pairs 1 cycle apart (none on sm_100 or sm_90); int_simd_video has an
    /// `IMAD.WIDE.U32` 1 cycle after a `VIADD.U8x4`, the form sweep's -O3 code a
    /// `VIADD.16x2 R0, R2, R5` (add_u16x2__g) and a `VIADD.S32.ISAT R9, R2, R5` (add_sat_s32__r)
    /// 1 cycle after an `IMAD.WIDE.U32` (stall 1), and an `IMAD.WIDE.U32` 1 cycle after a
    /// `VIADD.S32.ISAT`. The plain `VIADD` keeps the FMA pipe: no sm_120 code of the corpus or
    /// the sweep issues it 1 cycle from an `IMAD`.
    pub alu_holds_no_pipe: bool,
    /// Uniform address registers of a late-reading instruction are read at issue (not protected
    /// by its read scoreboard): sm_75 (`LDG.E.SYS R7, [R4.64+UR4]` with a read SB, then
    /// `ULDC.64 UR4` next with no wait: atom_int_ops and others) and sm_90 on (corpus
    /// mbarrier_guarded, ptxas -O3: `STS [UR4+0x8], R2` with read SB0, then `UMOV UR4, 0x400`
    /// three instructions later with no wait). The sm_80 family's code shows neither way.
    pub uniform_read_at_issue: bool,
    /// `SHFL` completes in order with shared-memory loads: sm_75. ptxas's sm_75 code leaves
    /// `@P0 LDS.U R3, [R5.X4+-0x4]` without a write scoreboard and reads R3 after waiting only
    /// on a later `SHFL.UP`'s (algo_warp_scan 0x05a0, 0x05c0, 0x0600).
    pub shfl_in_shared_queue: bool,
    /// The tensor pipe's result latency for an `HMMA`/`IMMA` issued with a stall of 1 or more
    /// is modelled ([`crate::sched::latency::MMA_LATENCY`], measured on the H100): sm_80 to
    /// sm_90. On sm_75 and Blackwell only the interlock is (ptxas's sm_75 code reads an
    /// `IMMA.8816` result in a chain after 10 cycles, an `HMMA`'s after 29, its sm_100 code an
    /// `HMMA`'s after fewer than 32; no GPU run on either).
    pub mma_result_latency_modelled: bool,
    /// Where [`HwFacts::mma_result_latency_modelled`]: cycles before an `HMMA`/`IMMA` result
    /// issued with a stall may be read or its registers rewritten by anything but another MMA:
    /// 24 on the sm_80 family and sm_90. ptxas's sm_80 code for Triton's matmuls reads
    /// `HMMA.16816.F32` results 24 cycles after issue (9 reads at exactly 24, none sooner), and
    /// its sm_90 code of the same PTX does too (bmm_f16, matmul_f16_64x64x32, persistent_matmul,
    /// attention forward/backward: `F2FP.PACK_AB`, `FMUL`, `FFMA` 24 cycles after the `HMMA`;
    /// `HMMA.1688.F32.TF32` in matmul_tf32x3); the H100 runs found readers at 5 to 15 cycles
    /// stale and 32 correct, which 24 respects. The scheduler keeps
    /// [`crate::sched::latency::MMA_LATENCY`] (32) on every SM.
    pub mma_result_latency: u64,
    /// `HMMA`/`IMMA` return their results through a scoreboard: sm_75 (ptxas 13.0.88 gives 37
    /// of the 40 in the CUDA corpus's -O3 sm_75 code a write scoreboard, none of 37 on sm_80;
    /// at -O0 all 40 carry `R1:W0` with a stall of 15, where sm_80 on issue them with stall 0).
    pub mma_variable_latency: bool,
}

/// [`HwFacts::mma_result_latency`] where it is modelled (the sm_80 family and sm_90).
const MMA_RESULT_LATENCY: u64 = 24;

impl HwFacts {
    /// sm_90's facts: the reference model.
    pub const SM90: HwFacts = HwFacts {
        pred_guard_latency: PRED_GUARD_LATENCY,
        fp64_pred_guard_extra: 1,
        barrier_settle: BARRIER_SETTLE,
        r2ur_variable_latency: false,
        cs2r_holds_alu_pipe: true,
        dual_fp32: false,
        fp64_variable_latency: false,
        alu_holds_no_pipe: false,
        uniform_read_at_issue: true,
        shfl_in_shared_queue: false,
        mma_result_latency_modelled: true,
        mma_result_latency: MMA_RESULT_LATENCY,
        mma_variable_latency: false,
    };

    /// The facts for code of SM number `sm` (75, 80, 86, 89, 90, 100, 120, ...): sm_90's,
    /// changed where that SM's NVIDIA code or a GPU run shows a difference (each field's doc).
    /// sm_75 takes the sm_80 family's differences and its own; sm_100 is sm_90's model, sm_120
    /// sm_100's with its FP64 and pipe differences. SMs never measured (sm_87, sm_88, sm_103,
    /// sm_110, sm_121) take the model of the number range they fall in, exactly as the hazard
    /// checker always treated them.
    pub const fn for_sm(sm: u32) -> HwFacts {
        let pre_hopper = sm >= 75 && sm < 90;
        let turing = sm == 75;
        HwFacts {
            pred_guard_latency: if turing { 12 } else { PRED_GUARD_LATENCY },
            fp64_pred_guard_extra: if turing { 3 } else { 1 },
            barrier_settle: if turing { 5 } else { BARRIER_SETTLE },
            r2ur_variable_latency: pre_hopper,
            cs2r_holds_alu_pipe: !pre_hopper,
            dual_fp32: matches!(sm, 86 | 89),
            fp64_variable_latency: pre_hopper || sm == 120,
            alu_holds_no_pipe: sm == 120,
            uniform_read_at_issue: !pre_hopper || turing,
            shfl_in_shared_queue: turing,
            mma_result_latency_modelled: sm >= 80 && sm < 100,
            mma_result_latency: MMA_RESULT_LATENCY,
            mma_variable_latency: turing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sm90_is_the_reference_model() {
        assert_eq!(HwFacts::for_sm(90), HwFacts::SM90);
        // sm_100 is sm_90's model but for its tensor pipe, which is modelled by the interlock only.
        assert_eq!(HwFacts::for_sm(100), HwFacts { mma_result_latency_modelled: false, ..HwFacts::SM90 });
    }

    #[test]
    fn per_sm_differences_are_where_the_evidence_is() {
        let f = HwFacts::for_sm;
        assert_eq!((f(75).pred_guard_latency, f(75).barrier_settle, f(75).fp64_pred_guard_extra), (12, 5, 3));
        for sm in [75, 80, 86, 89] {
            assert!(f(sm).r2ur_variable_latency && !f(sm).cs2r_holds_alu_pipe, "sm_{sm}");
        }
        assert_eq!(
            [75, 80, 86, 89, 90, 100, 120].map(|s| f(s).dual_fp32),
            [false, false, true, true, false, false, false]
        );
        assert!(f(120).alu_holds_no_pipe);
        assert_eq!(
            [75, 80, 86, 89, 90, 100, 120].map(|s| f(s).fp64_variable_latency),
            [true, true, true, true, false, false, true]
        );
        assert!(f(75).uniform_read_at_issue && f(75).shfl_in_shared_queue && !f(80).uniform_read_at_issue);
        assert!(f(90).uniform_read_at_issue && f(100).uniform_read_at_issue && f(120).uniform_read_at_issue);
        assert_eq!([75, 80, 90, 100, 120].map(|s| f(s).mma_result_latency_modelled), [false, true, true, false, false]);
    }
}
