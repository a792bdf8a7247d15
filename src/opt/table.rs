//! The 159 phases of ptxas 13.0's pipeline, declared once as data.
//!
//! Index, name, category and order are those of the project's corrected table
//! (`shared/notes/phases.csv`, copied beside this file as `phases.csv`; see
//! `digest-optimizer.md` §0 for why the reference wiki's numbers differ). The opt-level gate
//! of each phase is read from that table's `opt_levels` column by one rule: `O0 only` runs at
//! -O0 only, otherwise the first `O<n>+` mentioned is the lowest level it runs at, otherwise
//! it runs at every level (a test checks the rule against the CSV).
//!
//! Invariants: `PHASES[i].index == i`; names are unique; a phase has a pass attached iff its
//! status is [`Status::Implemented`].

use std::fmt;

use super::{
    Pass, PassKind, branch_opt, check, control_flow, convert_unsupported, create_macro, general_optimize, live_dead,
    merge_flow, uniform_imm,
};

/// A phase's category (the CSV's `category` column).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Category {
    Validation,
    Optimization,
    Lowering,
    Analysis,
    Gate,
    Cleanup,
    Reporting,
    Scheduling,
    RegAlloc,
    Encoding,
}

impl Category {
    /// The CSV's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Category::Validation => "Validation",
            Category::Optimization => "Optimization",
            Category::Lowering => "Lowering",
            Category::Analysis => "Analysis",
            Category::Gate => "Gate",
            Category::Cleanup => "Cleanup",
            Category::Reporting => "Reporting",
            Category::Scheduling => "Scheduling",
            Category::RegAlloc => "RegAlloc",
            Category::Encoding => "Encoding",
        }
    }
}

/// The optimisation levels (-O0..-O3) at which a phase runs: `min..=max`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OptGate {
    /// Lowest level.
    pub min: u8,
    /// Highest level.
    pub max: u8,
}

impl OptGate {
    /// Every level.
    pub const ALL: OptGate = OptGate { min: 0, max: 3 };
    /// -O1 and up.
    pub const O1_UP: OptGate = OptGate { min: 1, max: 3 };
    /// -O2 and up.
    pub const O2_UP: OptGate = OptGate { min: 2, max: 3 };
    /// -O3 only.
    pub const O3_UP: OptGate = OptGate { min: 3, max: 3 };
    /// -O0 only.
    pub const O0_ONLY: OptGate = OptGate { min: 0, max: 0 };
    /// Whether the phase runs at `level` (levels above 3 count as 3).
    pub fn runs_at(self, level: u8) -> bool {
        let l = level.min(3);
        self.min <= l && l <= self.max
    }
    /// The gate the table's rule reads from a CSV `opt_levels` text.
    pub fn from_csv_text(s: &str) -> OptGate {
        if s.trim_start().starts_with("O0 only") {
            return OptGate::O0_ONLY;
        }
        let b = s.as_bytes();
        for i in 0..b.len().saturating_sub(2) {
            if b[i] == b'O' && b[i + 1].is_ascii_digit() && b[i + 2] == b'+' {
                let n = b[i + 1] - b'0';
                return OptGate { min: n.min(3), max: 3 };
            }
        }
        OptGate::ALL
    }
}

/// How far a phase is implemented.
#[derive(Copy, Clone)]
pub enum Status {
    /// A pass is attached; it transforms or checks (see [`PassKind`]).
    Implemented(&'static dyn Pass),
    /// Does work in ptxas that ptxas-rs does not do yet. Also the slots of a repeated pass
    /// (a later GeneralOptimize or live/dead instance, SetControlFlowOpLastInBB) whose pass
    /// exists but finds nothing to do on any corpus kernel, because no implemented phase before
    /// it creates work yet: `interp/tests/validate_corpus.rs` requires every implemented
    /// transform slot to change something on the corpus. Such passes can still be attached with
    /// [`crate::opt::Pipeline::with_pass`].
    NotYet,
    /// Does nothing in ptxas's default compute pipeline either (AdvancedPhase hooks, Update
    /// phases, Report phases whose dump the manager's IR dump provides, off-by-default passes,
    /// DebuggerBreak, NOP, PromoteFP16 on the targets ptxas 13 accepts).
    NoOp,
    /// Graphics-only; nothing to do for compute kernels.
    NotApplicable,
}

impl Status {
    /// A short name (`implemented`, `not yet`, `no-op`, `n/a`).
    pub fn name(&self) -> &'static str {
        match self {
            Status::Implemented(p) if p.kind() == PassKind::Check => "implemented (check)",
            Status::Implemented(_) => "implemented",
            Status::NotYet => "not yet",
            Status::NoOp => "no-op",
            Status::NotApplicable => "n/a",
        }
    }
    /// The attached pass.
    pub fn pass(&self) -> Option<&'static dyn Pass> {
        match self {
            Status::Implemented(p) => Some(*p),
            _ => None,
        }
    }
}

impl fmt::Debug for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One row of the table.
#[derive(Copy, Clone, Debug)]
pub struct PhaseInfo {
    /// Pipeline index (0..159), also ptxas's factory index.
    pub index: usize,
    /// ptxas's exact phase name.
    pub name: &'static str,
    /// Category.
    pub category: Category,
    /// Opt levels it runs at.
    pub gate: OptGate,
    /// Implementation status.
    pub status: Status,
}

use Category::*;
use Status::{Implemented as Impl, NoOp, NotApplicable, NotYet};
const ALL: OptGate = OptGate::ALL;
const O1_UP: OptGate = OptGate::O1_UP;
const O2_UP: OptGate = OptGate::O2_UP;
const O3_UP: OptGate = OptGate::O3_UP;
const O0_ONLY: OptGate = OptGate::O0_ONLY;

const fn p(index: usize, name: &'static str, category: Category, gate: OptGate, status: Status) -> PhaseInfo {
    PhaseInfo { index, name, category, gate, status }
}

/// Every phase, in pipeline order.
pub static PHASES: [PhaseInfo; 159] = [
    p(0, "OriCheckInitialProgram", Validation, ALL, Impl(&check::OriCheckInitialProgram)),
    p(1, "ApplyNvOptRecipes", Optimization, ALL, NotYet),
    // PromoteFP16: no f16/bf16 operation is promoted on any target ptxas 13.0.88 accepts
    // (sm_75 onwards). ptxas executes every half-precision form PTX accepts for a target
    // natively (cuobjdump -sass, sm_75/80/90: add/mul/fma(.relu) → HADD2/HMUL2/HFMA2(.BF16_V2),
    // min/max(.NaN/.xorsign) → HMNMX2, setp → HSETP2, neg/abs → HFMA2/HADD2, ex2/tanh.approx →
    // MUFU.*.F16/BF16), and PTX rejects the forms a target lacks ("setp.bf16 requires sm_90",
    // "min.f16 requires sm_80"); the FSETP/F2F in nvcc's sm_75/sm_80 corpus PTX come from nvcc's
    // own cvt's. The phase matters for targets before sm_53 only, which ptxas 13 does not accept:
    // a no-op in ptxas's compute pipeline as in ours.
    p(2, "PromoteFP16", Lowering, ALL, NoOp),
    p(3, "AnalyzeControlFlow", Analysis, ALL, Impl(&control_flow::AnalyzeControlFlow)),
    p(4, "AdvancedPhaseBeforeConvUnSup", Gate, ALL, NoOp),
    // ConvertUnsupportedOps: shared-memory atomics without an ATOMS form become compare-and-swap
    // loops, as ptxas does on every target (convert_unsupported.rs). The rest of ptxas's
    // MercConverter (PTX-derived to SASS opcodes) is `lower::isel`, after the pipeline.
    p(5, "ConvertUnsupportedOps", Lowering, ALL, Impl(&convert_unsupported::ConvertUnsupportedOps)),
    // SetControlFlowOpLastInBB: the pass exists (control_flow.rs, unit-tested), but nothing
    // before it leaves control flow mid-block: the lowering ends blocks at terminators, and
    // phase 5's compare-and-swap loops split their own blocks, because every phase's output must
    // pass the verifier (no terminator before a block's end) and the interpreter derives
    // reconvergence from the terminator-derived CFG. So it changes nothing on any kernel
    // (attach it with Pipeline::with_pass where an expansion leaves mid-block control flow).
    p(6, "SetControlFlowOpLastInBB", Cleanup, ALL, NotYet),
    p(7, "AdvancedPhaseAfterConvUnSup", Gate, ALL, NoOp),
    p(8, "UpdateAfterConvertUnsupportedOps", Cleanup, ALL, NoOp),
    // OriCreateMacroInsts: floating-point contraction (create_macro.rs). The spec (p08) has it
    // fuse mul+add into FMA, compare+branch and address+memory; ptxas's SASS shows the one
    // observable fusion: `mul` + `add`/`sub` without rounding modifiers (f32, f64, f16(x2),
    // bf16(x2); .ftz on both or neither; the product read by nothing else, in the same block)
    // become one `fma.rn.contract` (FFMA/DFMA/HFMA2), at -O1 and above with --fmad true;
    // compare+branch stays ISETP+BRA. Validation runs its output with contraction undone.
    p(9, "OriCreateMacroInsts", Lowering, ALL, Impl(&create_macro::OriCreateMacroInsts)),
    p(10, "ReportInitialRepresentation", Reporting, ALL, NoOp),
    p(11, "EarlyOriSimpleLiveDead", Optimization, ALL, Impl(&live_dead::SimpleLiveDead)),
    // ReplaceUniformsWithImm: the special registers ptxas 13.0.88's sm_90 code has as immediates,
    // %reserved_smem_offset_begin/_0 (0) and _cap (0x400), become immediates (uniform_imm.rs,
    // which tables what ptxas does per target; ptxas substitutes them after its optimizer). Everything else the corpus reads stays a
    // constant-bank read in ptxas's code on sm_90, as here: parameters; initialized `.const`
    // variables, `.visible`, internal or function-scope (LDC c[0x3]); %ntid under `.reqntid`
    // (ULDC c[0x0][0x0]); %cluster_nctaid/%cluster_nctarank under `.reqnctapercluster`
    // (c[0x0][0x144]/[0x188]).
    p(12, "ReplaceUniformsWithImm", Optimization, ALL, Impl(&uniform_imm::ReplaceUniformsWithImm)),
    p(13, "MergeEquivalentConditionalFlow", Optimization, O2_UP, Impl(&merge_flow::MergeEquivalentConditionalFlow)),
    p(14, "OriSanitize", Validation, ALL, Impl(&check::OriSanitize)),
    p(15, "GeneralOptimizeEarly", Optimization, O2_UP, Impl(&general_optimize::GeneralOptimize)),
    p(16, "DoSwitchOptFirst", Optimization, O1_UP, NotYet),
    p(17, "OriBranchOpt", Optimization, O1_UP, Impl(&branch_opt::OriBranchOpt)),
    p(18, "OriPerformLiveDeadFirst", Analysis, ALL, Impl(&live_dead::PerformLiveDead)),
    p(19, "OptimizeBindlessHeaderLoads", Optimization, ALL, NotYet),
    p(20, "OriLoopSimplification", Optimization, O1_UP, NotYet),
    p(21, "OriSplitLiveRanges", Optimization, ALL, NotYet),
    p(22, "OriCopyProp", Optimization, ALL, Impl(&general_optimize::OriCopyProp)),
    p(23, "PerformPGO", Optimization, ALL, NotYet),
    p(24, "OriStrengthReduce", Optimization, O1_UP, NotYet),
    p(25, "OriLoopUnrolling", Optimization, O3_UP, NotYet),
    p(26, "GenerateMovPhi", Lowering, ALL, NotYet),
    p(27, "OriPipelining", Optimization, O2_UP, NotYet),
    p(28, "StageAndFence", Lowering, O2_UP, NotYet),
    p(29, "OriRemoveRedundantBarriers", Optimization, O2_UP, NotYet),
    p(30, "AnalyzeUniformsForSpeculation", Analysis, ALL, NotYet),
    p(31, "SinkRemat", Optimization, O2_UP, NotYet),
    p(32, "OptimizeNaNOrZero", Optimization, ALL, NotYet),
    p(33, "GeneralOptimize", Optimization, O2_UP, NotYet),
    p(34, "DoSwitchOptSecond", Optimization, O1_UP, NotYet),
    p(35, "OriLinearReplacement", Optimization, ALL, NotYet),
    p(36, "CompactLocalMemory", Optimization, ALL, NotYet),
    p(37, "ConvertMemoryToRegisterOrUniform", Optimization, ALL, NotYet),
    p(38, "OriPerformLiveDeadSecond", Analysis, ALL, Impl(&live_dead::PerformLiveDead)),
    p(39, "ExtractShaderConstsFirst", Optimization, ALL, NotApplicable),
    p(40, "OriHoistInvariantsEarly", Optimization, O3_UP, NotYet),
    p(41, "Vectorization", Optimization, ALL, NotYet),
    p(42, "EmitPSI", Lowering, ALL, NotApplicable),
    p(43, "GeneralOptimizeMid", Optimization, O2_UP, NotYet),
    p(44, "OptimizeNestedCondBranches", Optimization, O1_UP, NotYet),
    p(45, "ConvertVTGReadWrite", Lowering, ALL, NotApplicable),
    p(46, "DoVirtualCTAExpansion", Lowering, ALL, NotYet),
    p(47, "MarkAdditionalColdBlocks", Analysis, O1_UP, NotYet),
    p(48, "ExpandMbarrier", Lowering, ALL, NotYet),
    p(49, "ForwardProgress", Lowering, ALL, NotYet),
    p(50, "OptimizeUniformAtomic", Optimization, ALL, NotYet),
    p(51, "MidExpansion", Lowering, ALL, NotYet),
    p(52, "AdvancedPhaseAfterMidExpansion", Gate, ALL, NoOp),
    p(53, "GeneralOptimizeMid2", Optimization, O2_UP, NotYet),
    p(54, "AdvancedPhaseEarlyEnforceArgs", Gate, ALL, NoOp),
    p(55, "EnforceArgumentRestrictions", Lowering, ALL, NotYet),
    p(56, "GvnCse", Optimization, O2_UP, NotYet),
    p(57, "OriCommoning", Optimization, ALL, NotYet),
    p(58, "OriReassociateAndCommon", Optimization, ALL, NotYet),
    p(59, "ExtractShaderConstsFinal", Optimization, ALL, NotApplicable),
    p(60, "OriReplaceEquivMultiDefMov", Optimization, ALL, NotYet),
    p(61, "OriPropagateVaryingFirst", Analysis, ALL, NotYet),
    p(62, "OriDoRematEarly", Optimization, O2_UP, NotYet),
    p(63, "LateExpansion", Lowering, ALL, NotYet),
    p(64, "SpeculativeHoistComInsts", Optimization, O2_UP, NotYet),
    p(65, "RemoveASTToDefaultValues", Cleanup, ALL, NotYet),
    p(66, "GeneralOptimizeLate", Optimization, O2_UP, NotYet),
    p(67, "OriLoopFusion", Optimization, ALL, NoOp),
    p(68, "DoVTGMultiViewExpansion", Lowering, ALL, NotApplicable),
    p(69, "OriSimpleLiveDead", Optimization, ALL, NotYet),
    p(70, "OriPerformLiveDeadThird", Analysis, ALL, NotYet),
    p(71, "OriRemoveRedundantMultiDefMov", Optimization, ALL, NotYet),
    p(72, "OriDoPredication", Optimization, O2_UP, NotYet),
    p(73, "LateVectorization", Optimization, ALL, NotYet),
    p(74, "LateOriCommoning", Optimization, ALL, NotYet),
    p(75, "GeneralOptimizeLate2", Optimization, O2_UP, NotYet),
    p(76, "OriHoistInvariantsLate", Optimization, O3_UP, NotYet),
    p(77, "SinkCodeIntoBlock", Optimization, ALL, NotYet),
    p(78, "DoKillMovement", Optimization, ALL, NotApplicable),
    p(79, "DoTexMovement", Optimization, ALL, NotYet),
    p(80, "OriDoRemat", Optimization, O2_UP, NotYet),
    p(81, "OriPropagateVaryingSecond", Analysis, ALL, NotYet),
    p(82, "OptimizeSyncInstructions", Optimization, O2_UP, NotYet),
    p(83, "AdvancedPhaseLateExpandSyncInstructions", Gate, ALL, NoOp),
    p(84, "LateExpandSyncInstructions", Lowering, O3_UP, NotYet),
    p(85, "ConvertAllMovPhiToMov", Lowering, ALL, NotYet),
    p(86, "ConvertToUniformReg", Optimization, ALL, NotYet),
    p(87, "LateArchOptimizeFirst", Optimization, ALL, NotYet),
    p(88, "UpdateAfterOptimize", Cleanup, ALL, NoOp),
    p(89, "AdvancedPhaseLateConvUnSup", Gate, ALL, NoOp),
    p(90, "LateExpansionUnsupportedOps", Lowering, ALL, NotYet),
    p(91, "OriHoistInvariantsLate2", Optimization, O3_UP, NotYet),
    p(92, "LateMergeEquivalentConditionalFlow", Optimization, ALL, NotYet),
    p(93, "LateExpansionUnsupportedOpsMid", Lowering, ALL, NotYet),
    p(94, "ExpandJmxComputation", Lowering, ALL, NotYet),
    p(95, "LateArchOptimizeSecond", Optimization, ALL, NotYet),
    p(96, "AdvancedPhaseBackPropVReg", Gate, ALL, NoOp),
    p(97, "OriBackCopyPropagate", Optimization, ALL, NoOp),
    p(98, "OriSplitHighPressureLiveRanges", RegAlloc, ALL, NotYet),
    p(99, "OriPerformLiveDeadFourth", Analysis, ALL, NotYet),
    p(100, "OriPropagateGmma", Optimization, ALL, NotYet),
    p(101, "InsertPseudoUseDefForConvUR", Lowering, ALL, NotYet),
    p(102, "FixupGmmaSequence", Lowering, ALL, NotYet),
    p(103, "LateEnforceArgumentRestrictions", Lowering, ALL, NotYet),
    p(104, "OriHoistInvariantsLate3", Optimization, O3_UP, NotYet),
    p(105, "AdvancedPhaseSetRegAttr", Gate, ALL, NoOp),
    p(106, "OriSetRegisterAttr", Analysis, ALL, NotYet),
    p(107, "OriCalcDependantTex", Analysis, ALL, NotYet),
    p(108, "AdvancedPhaseAfterSetRegAttr", Gate, ALL, NoOp),
    p(109, "LateExpansionUnsupportedOps2", Lowering, ALL, NotYet),
    p(110, "FinalInspectionPass", Validation, ALL, NotYet),
    p(111, "SetAfterLegalization", Cleanup, O2_UP, NotYet),
    p(112, "ReportBeforeScheduling", Reporting, ALL, NoOp),
    p(113, "AdvancedPhasePreSched", Gate, ALL, NoOp),
    p(114, "ScheduleInstructions", Scheduling, O1_UP, NotYet),
    p(115, "UpdateAfterScheduleInstructions", Cleanup, ALL, NoOp),
    p(116, "BackPropagateVEC2D", Optimization, ALL, NotYet),
    p(117, "OriDoSyncronization", Scheduling, O2_UP, NotYet),
    p(118, "UpdateAfterOriDoSyncronization", Cleanup, ALL, NoOp),
    p(119, "ApplyPostSyncronizationWars", Scheduling, O2_UP, NotYet),
    p(120, "ReportBeforeRegisterAllocation", Reporting, ALL, NoOp),
    p(121, "AdvancedPhaseAllocReg", Gate, ALL, NoOp),
    p(122, "AllocateRegisters", RegAlloc, ALL, NotYet),
    p(123, "ReportAfterRegisterAllocation", Reporting, ALL, NoOp),
    p(124, "UpdateAfterOriAllocateRegisters", Cleanup, ALL, NoOp),
    p(125, "Get64bRegComponents", RegAlloc, ALL, NotYet),
    p(126, "AdvancedPhasePostExpansion", Gate, ALL, NoOp),
    p(127, "PostExpansion", Lowering, ALL, NotYet),
    p(128, "ApplyPostRegAllocWars", RegAlloc, ALL, NotYet),
    p(129, "AdvancedPhasePostSched", Gate, ALL, NoOp),
    p(130, "OriRemoveNopCode", Cleanup, ALL, NotYet),
    p(131, "OptimizeHotColdInLoop", Optimization, O1_UP, NotYet),
    p(132, "OptimizeHotColdFlow", Optimization, O1_UP, NotYet),
    p(133, "PostSchedule", Scheduling, O1_UP, NotYet),
    p(134, "AdvancedPhasePostFixUp", Gate, ALL, NoOp),
    p(135, "PlaceBlocksInSourceOrder", Cleanup, ALL, NotYet),
    p(136, "PostFixForMercTargets", Encoding, ALL, NotYet),
    p(137, "FixUpTexDepBarAndSync", Scheduling, O2_UP, NotYet),
    p(138, "AdvancedScoreboardsAndOpexes", Gate, O1_UP, NotYet),
    p(139, "ProcessO0WaitsAndSBs", Scheduling, O0_ONLY, NotYet),
    p(140, "PostFixUp", Cleanup, ALL, NotYet),
    p(141, "MercConverter", Encoding, ALL, NotYet),
    p(142, "MercEncodeAndDecode", Encoding, ALL, NotYet),
    p(143, "MercExpandInstructions", Encoding, ALL, NotYet),
    p(144, "MercGenerateWARs1", Encoding, ALL, NotYet),
    p(145, "MercGenerateOpex", Encoding, ALL, NotYet),
    p(146, "MercGenerateWARs2", Encoding, ALL, NotYet),
    p(147, "MercGenerateSassUCode", Encoding, ALL, NotYet),
    p(148, "ComputeVCallRegUse", RegAlloc, ALL, NotYet),
    p(149, "CalcRegisterMap", RegAlloc, ALL, NotYet),
    p(150, "UpdateAfterPostRegAlloc", Cleanup, ALL, NoOp),
    p(151, "ReportFinalMemoryUsage", Reporting, ALL, NoOp),
    p(152, "AdvancedPhaseOriPhaseEncoding", Gate, ALL, NoOp),
    p(153, "FormatCodeList", Encoding, ALL, NotYet),
    p(154, "UpdateAfterFormatCodeList", Cleanup, ALL, NoOp),
    p(155, "DumpNVuCodeText", Reporting, ALL, NotYet),
    p(156, "DumpNVuCodeHex", Reporting, ALL, NotYet),
    p(157, "DebuggerBreak", Cleanup, ALL, NoOp),
    p(158, "NOP", Cleanup, ALL, NoOp),
];

/// The phase named `name` (exact, case-sensitive; ptxas's own lookup is case-insensitive, see
/// [`phase_by_name_ci`]).
pub fn phase_by_name(name: &str) -> Option<&'static PhaseInfo> {
    PHASES.iter().find(|p| p.name == name)
}

/// The phase named `name`, ignoring ASCII case (how ptxas looks up DUMPIR / NamedPhases names).
pub fn phase_by_name_ci(name: &str) -> Option<&'static PhaseInfo> {
    PHASES.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}
