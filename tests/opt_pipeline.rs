//! The phase manager: the phase table against the project's corrected phases.csv, status
//! counts, opt-level gating, hooks, IR dumps, timing, the verifier after every phase, the
//! check phases rejecting bad IR, SetControlFlowOpLastInBB splitting blocks,
//! MergeEquivalentConditionalFlow merging equivalent blocks, ConvertUnsupportedOps expanding
//! shared atomics into compare-and-swap loops and OriCreateMacroInsts contracting `mul` + `add`
//! into `fma` (each on unit cases and on the corpus), and GeneralOptimize's algebraic
//! identities (and the look-alikes it must leave alone).
//! (Semantic preservation of every phase is checked by translation validation in
//! `interp/tests/validate_*.rs`.)

use ptxas_rs::target::Target;
use std::sync::Arc;

use ptxas_rs::opt::check::{OriCheckInitialProgram, OriSanitize};
use ptxas_rs::opt::control_flow::{AnalyzeControlFlow, SetControlFlowOpLastInBB};
use ptxas_rs::opt::convert_unsupported::ConvertUnsupportedOps;
use ptxas_rs::opt::create_macro::OriCreateMacroInsts;
use ptxas_rs::opt::manager::parse_dump_list;
use ptxas_rs::opt::merge_flow::MergeEquivalentConditionalFlow;
use ptxas_rs::opt::{
    Category, HookAction, OptGate, PHASES, Pass, PassError, PassKind, PhaseHook, PhaseRun, Pipeline, PipelineErrorKind,
    PipelineOptions, Status, phase_by_name,
};
use ptxas_rs::ori::{Block, Flag, Function, Module, parse_function, parse_module, verify_function};

/// Splits one CSV line with double-quoted fields.
fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}

const CSV: &str = include_str!("../src/opt/phases.csv");

#[test]
fn table_matches_phases_csv() {
    let mut lines = CSV.lines();
    let header = csv_fields(lines.next().unwrap());
    assert_eq!(header, ["index", "name", "category", "what", "arch_gate", "default_enabled", "opt_levels", "page"]);
    let rows: Vec<Vec<String>> = lines.filter(|l| !l.trim().is_empty()).map(csv_fields).collect();
    assert_eq!(rows.len(), 159);
    assert_eq!(PHASES.len(), 159);
    for (row, p) in rows.iter().zip(PHASES.iter()) {
        assert_eq!(row.len(), 8, "{row:?}");
        assert_eq!(row[0].parse::<usize>().unwrap(), p.index);
        assert_eq!(row[1], p.name, "phase {}", p.index);
        assert_eq!(row[2], p.category.name(), "{}", p.name);
        assert_eq!(OptGate::from_csv_text(&row[6]), p.gate, "{}: `{}`", p.name, row[6]);
    }
    for (i, p) in PHASES.iter().enumerate() {
        assert_eq!(p.index, i);
        assert_eq!(phase_by_name(p.name).unwrap().index, i, "{} is not unique", p.name);
    }
    // The copy beside the table is the project's table, when the shared notes are reachable.
    for cand in ["../shared/notes/phases.csv", "/work/shared/notes/phases.csv"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(cand);
        if let Ok(s) = std::fs::read_to_string(&path) {
            assert_eq!(s, CSV, "src/opt/phases.csv differs from {}", path.display());
            break;
        }
    }
}

#[test]
fn gate_rule() {
    assert_eq!(OptGate::from_csv_text("all"), OptGate::ALL);
    assert_eq!(OptGate::from_csv_text("O0 only"), OptGate::O0_ONLY);
    assert_eq!(OptGate::from_csv_text("O2+ per p19 gate (p64 matrix says O1+)"), OptGate::O2_UP);
    assert_eq!(OptGate::from_csv_text("O3+? (guard)"), OptGate::O3_UP);
    assert_eq!(OptGate::from_csv_text("gate O2+; full sink+remat O5"), OptGate::O2_UP);
    assert_eq!(OptGate::from_csv_text("?"), OptGate::ALL);
    assert!(OptGate::O1_UP.runs_at(3) && !OptGate::O1_UP.runs_at(0) && OptGate::O0_ONLY.runs_at(0));
    assert!(!OptGate::O0_ONLY.runs_at(1));
}

/// The status counts, pinned: a phase moves to "implemented" only with its tests.
#[test]
fn status_counts() {
    let count = |f: &dyn Fn(&Status) -> bool| PHASES.iter().filter(|p| f(&p.status)).count();
    let transforms = count(&|s| matches!(s, Status::Implemented(p) if p.kind() == PassKind::Transform));
    let checks = count(&|s| matches!(s, Status::Implemented(p) if p.kind() == PassKind::Check));
    let not_yet = count(&|s| matches!(s, Status::NotYet));
    let noop = count(&|s| matches!(s, Status::NoOp));
    let na = count(&|s| matches!(s, Status::NotApplicable));
    eprintln!("implemented: {transforms} transforms + {checks} checks; not yet: {not_yet}; no-op: {noop}; n/a: {na}");
    assert_eq!((transforms, checks, not_yet, noop, na), (10, 3, 108, 32, 6));
    // No-op phases are hooks, updates, reports, the off-by-default passes, the sentinels and
    // PromoteFP16 (every target ptxas 13 accepts has native half precision).
    for p in PHASES.iter().filter(|p| matches!(p.status, Status::NoOp)) {
        assert!(
            matches!(p.category, Category::Gate | Category::Cleanup | Category::Reporting)
                || ["OriLoopFusion", "OriBackCopyPropagate", "PromoteFP16"].contains(&p.name),
            "{} is marked no-op",
            p.name
        );
    }
    // Graphics-only phases.
    for p in PHASES.iter().filter(|p| matches!(p.status, Status::NotApplicable)) {
        assert!(
            [
                "EmitPSI",
                "ConvertVTGReadWrite",
                "DoVTGMultiViewExpansion",
                "ExtractShaderConstsFirst",
                "ExtractShaderConstsFinal",
                "DoKillMovement"
            ]
            .contains(&p.name),
            "{}",
            p.name
        );
    }
}

const K: &str = "
entry @k() {
bb0:
    %r0 = mov.u32 SR_TID.X
    %r1 = mov.u32 5
    %r2 = add.u32 %r1, 3
    %r3 = add.u32 %r0, %r2
    %r4 = mul.lo.u32 %r0, 9
    %rd5 = ld.u64 param[0]
    bra bb1
bb1:
    st.u32 global[%rd5], %r3
    exit
}
";

struct Recorder(Vec<(String, usize)>, usize);

impl PhaseHook for Recorder {
    fn start(&mut self, _m: &Module) -> HookAction {
        self.1 += 1;
        HookAction::Continue
    }
    fn after_phase(&mut self, run: &PhaseRun, module: &Module) -> HookAction {
        verify_function(&module.functions[0]).unwrap();
        self.0.push((run.name.clone(), run.changed));
        HookAction::Continue
    }
}

#[test]
fn gating_hooks_dumps_and_timing() {
    for level in 0..=3u8 {
        let mut m = parse_module(K).unwrap();
        let opts = PipelineOptions {
            opt_level: level,
            verify: true,
            dump: parse_dump_list("OriBranchOpt, reportinitialrepresentation,,NoSuchPhase"),
            dump_to_stderr: false,
            fmad: true,
        };
        let mut rec = Recorder(Vec::new(), 0);
        let report = Pipeline::standard().run(&mut m, &opts, &mut [&mut rec]).unwrap();
        assert_eq!(rec.1, 1);
        let admitted: Vec<&str> = PHASES.iter().filter(|p| p.gate.runs_at(level)).map(|p| p.name).collect();
        assert_eq!(rec.0.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), admitted, "-O{level}");
        assert_eq!(report.phases.len(), admitted.len());
        let ran = |n: &str| report.phases.iter().any(|p| p.name == n && p.ran);
        assert!(ran("EarlyOriSimpleLiveDead") && ran("OriPerformLiveDeadFirst"));
        assert_eq!(ran("GeneralOptimizeEarly"), level >= 2, "-O{level}");
        assert_eq!(ran("OriBranchOpt"), level >= 1, "-O{level}");
        assert_eq!(report.phases.iter().any(|p| p.name == "ProcessO0WaitsAndSBs"), level == 0);
        // Dumps: by name, case-insensitive, only for admitted phases.
        let dumped: Vec<&str> = report.dumps.iter().map(|d| d.0.as_str()).collect();
        if level >= 1 {
            assert_eq!(dumped, ["ReportInitialRepresentation", "OriBranchOpt"]);
            // After OriBranchOpt the two blocks are one; the dump parses back.
            let after = parse_module(&report.dumps[1].1).unwrap();
            assert_eq!(after.functions[0].layout.len(), 1);
        } else {
            assert_eq!(dumped, ["ReportInitialRepresentation"]);
        }
        let table = report.timing_table();
        assert!(table.contains("EarlyOriSimpleLiveDead") && !table.contains("AdvancedPhaseBeforeConvUnSup"), "{table}");
        // Every level removes the dead multiply; -O2 and up also fold the constant add.
        let text = m.to_string();
        assert!(!text.contains("mul.lo"), "{text}");
        assert_eq!(text.contains("add.u32 %r0, 8"), level >= 2, "-O{level}:\n{text}");
        assert!(report.total_changed() >= 1);
    }
}

struct Breaks;

impl Pass for Breaks {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let b = f.entry().unwrap();
        f.blocks[b].insts.pop();
        Ok(1)
    }
}

#[test]
fn verifier_runs_after_every_phase_and_names_it() {
    let p = Pipeline::standard().with_pass("OriSplitLiveRanges", Arc::new(Breaks)).unwrap();
    let mut m = parse_module(K).unwrap();
    let e = p.run(&mut m, &PipelineOptions { verify: true, ..PipelineOptions::default() }, &mut []).unwrap_err();
    assert_eq!(e.phase, "OriSplitLiveRanges");
    assert_eq!(e.index, Some(21));
    assert!(matches!(e.kind, PipelineErrorKind::Verifier(_)), "{e}");
    assert!(e.to_string().starts_with("phase 21 OriSplitLiveRanges: the verifier rejects"), "{e}");
    // Phases before it are in the partial report.
    assert_eq!(e.report.phases.last().unwrap().name, "OriLoopSimplification");
    assert!(Pipeline::standard().with_pass("NoSuchPhase", Arc::new(Breaks)).is_err());
    assert!(Pipeline::only(&["OriBranchOpt", "Bogus"]).is_err());
    // With the verifier off (release builds), the manager itself does not notice.
    let mut m = parse_module(K).unwrap();
    let only =
        Pipeline::only(&["OriSplitLiveRanges"]).unwrap().with_pass("OriSplitLiveRanges", Arc::new(Breaks)).unwrap();
    assert!(only.run(&mut m, &PipelineOptions { verify: false, ..PipelineOptions::default() }, &mut []).is_ok());
}

#[test]
fn check_phases_reject_bad_ir() {
    // A block without a terminator.
    let bad = "entry @k() {\nbb0:\n    %r0 = mov.u32 1\n}\n";
    let mut m = parse_module(bad).unwrap();
    for pass in [&OriCheckInitialProgram as &dyn Pass, &OriSanitize] {
        assert_eq!(pass.kind(), PassKind::Check);
        let e = pass.run_module(&mut m.clone()).unwrap_err();
        assert!(e.message.contains("terminator") || e.message.contains("control"), "{e}");
    }
    assert!(AnalyzeControlFlow.run_function(&mut m.functions[0]).is_err());
    let e = Pipeline::standard().run(&mut m, &PipelineOptions::default(), &mut []).unwrap_err();
    assert_eq!(e.phase, "OriCheckInitialProgram");
    assert!(matches!(e.kind, PipelineErrorKind::Pass(_)));
    // Good IR passes every check unchanged.
    let mut good = parse_module(K).unwrap();
    let before = good.clone();
    assert_eq!(OriCheckInitialProgram.run_module(&mut good).unwrap(), 0);
    assert_eq!(OriSanitize.run_module(&mut good).unwrap(), 0);
    assert_eq!(AnalyzeControlFlow.run_module(&mut good).unwrap(), 0);
    assert_eq!(good, before);
    // A phi that does not list the predecessors, caught by AnalyzeControlFlow.
    let mut f = parse_function(
        "func @f(%p0) ssa {\nbb0:\n    %r5 = mov.u32 1\n    %r6 = mov.u32 2\n    @%p0 bra bb2\nbb1:\n    bra bb2\nbb2:\n    %r1 = phi RZ, bb0, RZ, bb1\n    ret\n}\n",
    )
    .unwrap();
    assert_eq!(AnalyzeControlFlow.run_function(&mut f).unwrap(), 0);
    f.insts[f.blocks[Block::from_u32(2)].insts[0]].srcs.truncate(2);
    assert!(AnalyzeControlFlow.run_function(&mut f).unwrap_err().message.contains("phi"));
}

#[test]
fn set_control_flow_op_last_splits_blocks() {
    let text = "entry @k(%p0) {\nbb0:\n    %r1 = mov.u32 1\n    @%p0 bra bb2\nbb1:\n    %r2 = add.u32 %r1, 1\n    @%p0 exit\nbb3:\n    exit\nbb2:\n    exit\n}\n";
    let orig = parse_function(text).unwrap();
    // Fuse bb1 into bb0, so that a guarded branch sits mid-block, as an expansion may leave it.
    let mut f = orig.clone();
    let (b0, b1) = (Block::from_u32(0), Block::from_u32(1));
    let tail = std::mem::take(&mut f.blocks[b1].insts);
    f.blocks[b0].insts.extend(tail);
    f.layout.retain(|&b| b != b1);
    assert!(verify_function(&f).is_err());
    let n = SetControlFlowOpLastInBB.run_function(&mut f).unwrap();
    assert_eq!(n, 1);
    verify_function(&f).unwrap();
    // Same program, the new block standing where bb1 stood.
    let renamed = f.to_string().replace("bb4", "bb1");
    assert_eq!(renamed, orig.to_string());
    assert_eq!(SetControlFlowOpLastInBB.run_function(&mut f).unwrap(), 0);
}

#[test]
fn merge_equivalent_conditional_flow_merges_duplicate_exits() {
    // bb2 and bb1 end in the same `st; exit`: bb1 is split before it, bb2 branches there.
    let text = "entry @k(%p0, %rd9, %r1, %r2) {\nbb0:\n    @%p0 bra bb1\nbb2:\n    %r3 = add.u32 %r1, 1\n    st.u32 global[%rd9], %r3\n    exit\nbb1:\n    %r3 = add.u32 %r2, 2\n    st.u32 global[%rd9], %r3\n    exit\n}\n";
    let mut f = parse_function(text).unwrap();
    assert_eq!(MergeEquivalentConditionalFlow.run_function(&mut f).unwrap(), 1);
    verify_function(&f).unwrap();
    let want = "entry @k(%p0, %rd9, %r1, %r2) {\nbb0:\n    @%p0 bra bb1\nbb2:\n    %r3 = add.u32 %r1, 1\n    bra bb3\nbb1:\n    %r3 = add.u32 %r2, 2\n    bra bb3\nbb3:\n    st.u32 global[%rd9], %r3\n    exit\n}\n";
    assert_eq!(f.to_string(), want);
    assert_eq!(MergeEquivalentConditionalFlow.run_function(&mut f).unwrap(), 0);
    // In SSA form a suffix that defines a register is not merged; a block that is only the
    // suffix is reused as the shared copy.
    let text = "func @f(%p0, %rd9, %r1) ssa {\nbb0:\n    @%p0 bra bb2\nbb1:\n    %r3 = add.u32 %r1, 1\n    st.u32 global[%rd9], %r1\n    ret\nbb2:\n    st.u32 global[%rd9], %r1\n    ret\n}\n";
    let mut g = parse_function(text).unwrap();
    assert_eq!(MergeEquivalentConditionalFlow.run_function(&mut g).unwrap(), 1);
    verify_function(&g).unwrap();
    assert!(g.to_string().contains("bb1:\n    %r3 = add.u32 %r1, 1\n    bra bb2\n"), "{g}");
}

/// Every sm_90 CUDA corpus kernel and every hand-written PTX kernel that parses and lowers,
/// lowered (`lower_module_framed`), with its name, in directory order.
fn lowered_corpus() -> Vec<(String, Module)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut out = Vec::new();
    for (sub, suffix) in [("cuda", ".sm_90.ptx"), ("ptx", ".ptx")] {
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(sub)).unwrap().map(|e| e.unwrap().path()).collect();
        dirs.sort();
        for d in dirs {
            let stem = d.file_name().unwrap().to_string_lossy().into_owned();
            let Ok(text) = std::fs::read_to_string(d.join(format!("{stem}{suffix}"))) else { continue };
            let Ok(ast) = ptxas_rs::ptx::parse(&text, &stem) else { continue };
            let Ok((m, _)) = ptxas_rs::lower::lower_module_framed(&ast) else { continue };
            out.push((stem, m));
        }
    }
    out
}

/// MergeEquivalentConditionalFlow on the lowered corpus (each sm_90 CUDA kernel and each
/// hand-written PTX kernel that lowers): the number of modules it changes, measured.
#[test]
fn merge_equivalent_conditional_flow_on_the_corpus() {
    let mut changed = Vec::new();
    let mut merged = 0;
    for (stem, mut m) in lowered_corpus() {
        let n = MergeEquivalentConditionalFlow.run_module(&mut m).unwrap();
        for f in &m.functions {
            verify_function(f).unwrap();
        }
        if n > 0 {
            merged += n;
            changed.push(stem);
        }
    }
    eprintln!("MergeEquivalentConditionalFlow: {merged} blocks merged in {} modules: {changed:?}", changed.len());
    assert!(!changed.is_empty());
}

#[test]
fn convert_unsupported_ops_expands_shared_atomics_without_an_atoms_form() {
    // A 64-bit add (no ATOMS form) between two instructions, a guarded f32 add, and a 32-bit
    // add and a 64-bit exch (both ATOMS forms, kept).
    let text = "entry @k(%r0, %rd1, %p2, %r3) {\nbb0:\n    %r4 = add.u32 %r0, 1\n    %rd5 = atom.add.u64 shared[%r0+8], %rd1\n    %r6 = atom.add.u32 shared[%r0], %r4\n    %rd7 = atom.exch.b64 shared[%r0+16], %rd5\n    @%p2 %r8 = atom.add.f32 shared[%r0+24], %r3\n    st.u32 global[%rd1], %r8\n    exit\n}\n";
    let mut f = parse_function(text).unwrap();
    assert_eq!(ConvertUnsupportedOps.run_function(&mut f).unwrap(), 2);
    verify_function(&f).unwrap();
    let want = "entry @k(%r0, %rd1, %p2, %r3) {
bb0:
    %r4 = add.u32 %r0, 1
    %rd9 = ld.b64 shared[%r0+0x8]
    bra bb1
bb1:
    %rd10 = add.u64 %rd9, %rd1
    %rd11 = atomcas.b64 shared[%r0+0x8], %rd9, %rd10
    %p12 = setp.ne.u64 %rd11, %rd9
    %rd9 = mov.b64 %rd11
    @%p12 bra bb1
bb2:
    %rd5 = mov.b64 %rd9
    %r6 = atom.add.u32 shared[%r0], %r4
    %rd7 = atom.exch.b64 shared[%r0+0x10], %rd5
    @%p2 %r13 = ld.b32 shared[%r0+0x18]
    @!%p2 bra bb4
bb3:
    %r14 = add.rn.f32 %r13, %r3
    %r15 = atomcas.b32 shared[%r0+0x18], %r13, %r14
    %p16 = setp.ne.u32 %r15, %r13
    %r13 = mov.b32 %r15
    @%p16 bra bb3
bb4:
    @%p2 %r8 = mov.b32 %r13
    st.u32 global[%rd1], %r8
    exit
}
";
    assert_eq!(f.to_string(), want);
    assert_eq!(ConvertUnsupportedOps.run_function(&mut f).unwrap(), 0);
    // A 16-bit atomic swaps its aligned word: the address (variable + register + offset), the
    // word and the shift are computed first; with a 64-bit address register it is left alone.
    let text = "var shared $s 16 4\n\nentry @h(%r0, %r1, %rd2) {\nbb0:\n    %r3 = atom.add.rn.f16 shared[$s+%r1+0x2], %r0\n    %r4 = atom.max.bf16 shared[%rd2], %r0\n    exit\n}\n";
    let mut m = parse_module(text).unwrap();
    assert_eq!(ConvertUnsupportedOps.run_module(&mut m).unwrap(), 1);
    let h = m.function("h").unwrap();
    verify_function(h).unwrap();
    let out = h.to_string();
    for line in [
        "%r5 = mova.u32 shared[$s]\n    %r6 = add.u32 %r5, %r1\n    %r7 = add.u32 %r6, 2\n",
        "%r8 = and.b32 %r7, 0xfffffffd\n    %r9 = and.b32 %r7, 2\n    %r10 = shl.b32 %r9, 3\n    %r11 = ld.b32 shared[%r8]\n",
        "%r3 = and.b32 %r22, 0xffff\n    %r4 = atom.max.bf16 shared[%rd2], %r0\n",
    ] {
        assert!(out.contains(line), "{line}\nnot in\n{out}");
    }
    // The loop reassigns `old`: an SSA function with work to do is refused.
    let mut g =
        parse_function("func @g(%r0, %rd1) ssa {\nbb0:\n    %rd2 = atom.max.s64 shared[%r0], %rd1\n    ret\n}\n")
            .unwrap();
    assert!(ConvertUnsupportedOps.run_function(&mut g).unwrap_err().message.contains("SSA"));
}

/// ConvertUnsupportedOps on the lowered corpus (each sm_90 CUDA kernel and each hand-written
/// PTX kernel that lowers): the shared atomics it converts, measured, and none left behind.
#[test]
fn convert_unsupported_ops_on_the_corpus() {
    let mut changed = Vec::new();
    for (stem, mut m) in lowered_corpus() {
        let n = ConvertUnsupportedOps.run_module(&mut m).unwrap();
        for f in &m.functions {
            verify_function(f).unwrap();
            let left =
                f.inst_order().filter(|&(_, i)| ptxas_rs::opt::convert_unsupported::combine_op(&f.insts[i]).is_some());
            assert_eq!(left.count(), 0, "{stem}");
        }
        if n > 0 {
            changed.push((stem, n));
        }
    }
    eprintln!("ConvertUnsupportedOps on the corpus: {changed:?}");
    // atom_shared_ops: the shared atomics ATOMS has no form for (float, 64-bit min/max/and/or/xor,
    // inc/dec …) become CAS loops.
    assert_eq!(
        changed,
        [("atom_float_double".to_string(), 1), ("atom_shared".to_string(), 2), ("atom_shared_ops".to_string(), 16)]
    );
}

/// The legalization bridge callers run before selecting without the standard pipeline
/// (`Pipeline::before_selection`: table phases 4..=8, ConvertUnsupportedOps the one with a
/// pass): selecting a lowered module with shared atomics that `ATOMS` lacks is a located
/// error naming phase 5; after the bridge the same module selects.
#[test]
fn selection_refuses_unconverted_shared_atomics_until_the_bridge_runs() {
    let bridge = Pipeline::before_selection();
    let names: Vec<&str> = bridge.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "AdvancedPhaseBeforeConvUnSup",
            "ConvertUnsupportedOps",
            "SetControlFlowOpLastInBB",
            "AdvancedPhaseAfterConvUnSup",
            "UpdateAfterConvertUnsupportedOps"
        ]
    );
    assert!(bridge.phases.iter().all(|p| p.gate == OptGate::ALL));
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/cuda/atom_shared");
    let text = std::fs::read_to_string(root.join("atom_shared.sm_90.ptx")).unwrap();
    let lowered = ptxas_rs::lower::lower_source(&text).unwrap();
    let mut raw = lowered.clone();
    let e = ptxas_rs::lower::isel::select_module(&mut raw, &Target::default()).unwrap_err();
    assert!(e.function.is_some() && e.message.contains("ConvertUnsupportedOps") && e.message.contains('`'), "{e}");
    let mut m = lowered;
    for level in [0, 3] {
        let mut m = m.clone();
        let opts = PipelineOptions { opt_level: level, verify: true, ..PipelineOptions::default() };
        assert_eq!(bridge.run(&mut m, &opts, &mut []).unwrap().total_changed(), 2);
        ptxas_rs::lower::isel::select_module(&mut m, &Target::default()).unwrap();
    }
    bridge.run(&mut m, &PipelineOptions::default(), &mut []).unwrap();
    assert_eq!(bridge.run(&mut m, &PipelineOptions::default(), &mut []).unwrap().total_changed(), 0);
}

/// OriCreateMacroInsts on each row of its measured table (`opt::create_macro`): fused and kept
/// pairs, exact output text.
#[test]
fn create_macro_insts_contracts_the_pairs_ptxas_contracts() {
    let text = "entry @k(%r0, %r1, %r2, %rd3, %rd4, %p5) {
bb0:
    %r10 = mul.f32 %r0, %r1
    %r11 = add.f32 %r10, %r2
    %r12 = mul.f32 %r0, %r1
    %r13 = add.f32 %r2, %r12
    %r14 = mul.f32 %r0, %r1
    %r15 = sub.f32 %r14, %r2
    %r16 = mul.f32 %r0, 0f40400000
    %r17 = sub.f32 %r2, %r16
    %r18 = mul.f32 %r0, %r1
    %r19 = sub.f32 %r18, 0f3F800000
    %r20 = mul.f32 %r0, %r1
    %r21 = add.f32 %r20, %r2
    %r22 = add.f32 %r20, %r11
    %r23 = mul.ftz.f32 %r0, %r1
    %r24 = add.ftz.sat.f32 %r23, %r2
    %r25 = mul.f32 %r0, %r1
    @%p5 %r26 = add.f32 %r25, %r2
    %r27 = mul.f32 %r0, %r1
    %r28 = mul.f32 %r1, %r2
    %r29 = sub.f32 %r27, %r28
    %rd30 = mul.f64 %rd3, %rd4
    %rd31 = sub.f64 %rd3, %rd30
    %r32 = mul.f16x2 %r0, %r1
    %r33 = add.f16x2 %r32, %r2
    %r34 = mul.bf16 %r0, %r1
    %r35 = sub.bf16 %r34, 0x3f80
    st.u32 global[%rd3], %r11
    st.u32 global[%rd3+4], %r13
    st.u32 global[%rd3+8], %r15
    st.u32 global[%rd3+12], %r17
    st.u32 global[%rd3+16], %r19
    st.u32 global[%rd3+20], %r21
    st.u32 global[%rd3+24], %r22
    st.u32 global[%rd3+28], %r24
    st.u32 global[%rd3+32], %r26
    st.u32 global[%rd3+36], %r29
    st.u64 global[%rd3+40], %rd31
    st.u32 global[%rd3+48], %r33
    st.u16 global[%rd3+52], %r35
    exit
}
";
    let mut f = parse_function(text).unwrap();
    // 13 adds/subs rewritten, 12 muls removed (one feeds two adds).
    assert_eq!(OriCreateMacroInsts.run_function(&mut f).unwrap(), 25);
    verify_function(&f).unwrap();
    let want = "entry @k(%r0, %r1, %r2, %rd3, %rd4, %p5) {
bb0:
    %r11 = fma.rn.contract.f32 %r0, %r1, %r2
    %r13 = fma.rn.contract.f32 %r0, %r1, %r2
    %r15 = fma.rn.contract.f32 %r0, %r1, -%r2
    %r17 = fma.rn.contract.f32 -%r0, 0f40400000, %r2
    %r19 = fma.rn.contract.f32 %r0, %r1, 0fBF800000
    %r21 = fma.rn.contract.f32 %r0, %r1, %r2
    %r22 = fma.rn.contract.f32 %r0, %r1, %r11
    %r24 = fma.rn.ftz.sat.contract.f32 %r0, %r1, %r2
    @%p5 %r26 = fma.rn.contract.f32 %r0, %r1, %r2
    %r28 = mul.f32 %r1, %r2
    %r29 = fma.rn.contract.f32 %r0, %r1, -%r28
    %rd31 = fma.rn.contract.f64 -%rd3, %rd4, %rd3
    %r33 = fma.rn.contract.f16x2 %r0, %r1, %r2
    %r35 = fma.rn.contract.bf16 %r0, %r1, 0xbf80
    st.u32 global[%rd3], %r11
    st.u32 global[%rd3+0x4], %r13
    st.u32 global[%rd3+0x8], %r15
    st.u32 global[%rd3+0xc], %r17
    st.u32 global[%rd3+0x10], %r19
    st.u32 global[%rd3+0x14], %r21
    st.u32 global[%rd3+0x18], %r22
    st.u32 global[%rd3+0x1c], %r24
    st.u32 global[%rd3+0x20], %r26
    st.u32 global[%rd3+0x24], %r29
    st.u64 global[%rd3+0x28], %rd31
    st.u32 global[%rd3+0x30], %r33
    st.u16 global[%rd3+0x34], %r35
    exit
}
";
    assert_eq!(f.to_string(), want);
    assert_eq!(OriCreateMacroInsts.run_function(&mut f).unwrap(), 0);
}

/// The pairs ptxas keeps as FMUL + FADD stay: a rounding modifier on either side, `.ftz` on one
/// side, `mul.sat`, a product read by anything else (a store, an `add.rn`, an `add` in another
/// block, both operands of one `add`), a guarded `mul`, a `mul` source written in between.
#[test]
fn create_macro_insts_keeps_the_pairs_ptxas_keeps() {
    let text = "entry @k(%r0, %r1, %r2, %rd3, %p5) {
bb0:
    %r10 = mul.rn.f32 %r0, %r1
    %r11 = add.f32 %r10, %r2
    %r12 = mul.f32 %r0, %r1
    %r13 = add.rn.f32 %r12, %r2
    %r14 = mul.ftz.f32 %r0, %r1
    %r15 = add.f32 %r14, %r2
    %r16 = mul.f32 %r0, %r1
    %r17 = add.ftz.f32 %r16, %r2
    %r18 = mul.sat.f32 %r0, %r1
    %r19 = add.f32 %r18, %r2
    %r20 = mul.f32 %r0, %r1
    %r21 = add.f32 %r20, %r2
    st.u32 global[%rd3], %r20
    %r22 = mul.f32 %r0, %r1
    %r23 = add.f32 %r22, %r2
    %r24 = add.rn.f32 %r22, %r1
    %r25 = mul.f32 %r0, %r1
    %r26 = add.f32 %r25, %r25
    @%p5 %r27 = mul.f32 %r0, %r1
    %r28 = add.f32 %r27, %r2
    %r29 = mul.f32 %r0, %r1
    %r0 = mov.b32 %r2
    %r30 = add.f32 %r29, %r2
    %r31 = mul.f32 %r1, %r2
    %r32 = add.f32 %r31, %r2
    bra bb1
bb1:
    %r33 = add.f32 %r31, %r1
    exit
}
";
    let mut f = parse_function(text).unwrap();
    let before = f.to_string();
    assert_eq!(OriCreateMacroInsts.run_function(&mut f).unwrap(), 0);
    assert_eq!(f.to_string(), before);
}

/// In the pipeline, phase 9 contracts at -O1..-O3 with `--fmad true` only.
#[test]
fn create_macro_insts_follows_the_opt_level_and_fmad() {
    let text = "entry @k(%r0, %r1, %r2, %rd3) {\nbb0:\n    %r4 = mul.f32 %r0, %r1\n    %r5 = add.f32 %r4, %r2\n    st.u32 global[%rd3], %r5\n    exit\n}\n";
    for (opt_level, fmad, fused) in
        [(0, true, false), (1, true, true), (2, true, true), (3, true, true), (3, false, false)]
    {
        let mut m = parse_module(text).unwrap();
        let opts = PipelineOptions { opt_level, fmad, verify: true, ..PipelineOptions::default() };
        let r = Pipeline::only(&["OriCreateMacroInsts"]).unwrap().run(&mut m, &opts, &mut []).unwrap();
        assert_eq!(r.total_changed() > 0, fused, "-O{opt_level} --fmad {fmad}");
        assert_eq!(m.to_string().contains("fma.rn.contract.f32 %r0, %r1, %r2"), fused, "{m}");
    }
}

/// OriCreateMacroInsts on the lowered corpus: the kernels it contracts and how many pairs,
/// measured (`cargo test --release --test opt_pipeline create_macro -- --nocapture`).
#[test]
fn create_macro_insts_on_the_corpus() {
    let mut changed = Vec::new();
    let mut total = 0;
    for (stem, mut m) in lowered_corpus() {
        OriCreateMacroInsts.run_module(&mut m).unwrap();
        let mut fused = 0;
        for f in &m.functions {
            verify_function(f).unwrap();
            fused += f.inst_order().filter(|&(_, i)| f.insts[i].mods.has(Flag::Contract)).count();
        }
        if fused > 0 {
            total += fused;
            changed.push((stem, fused));
        }
    }
    eprintln!("OriCreateMacroInsts: {total} contractions in {} modules: {changed:?}", changed.len());
    // nvcc contracts at the PTX level itself (`fma.rn`); the corpus's one unrounded pair is
    // bf16_arith2's `mul.bf16` + `add.bf16`.
    assert_eq!(changed, [("bf16_arith2".to_string(), 1)]);
}

/// Registers written more than once (PTX reuses them): the definition an `add` reads is the
/// last write before it in its block, and its reads end at the next unguarded write; a value
/// that may reach another block that reads it stays.
#[test]
fn create_macro_insts_follows_definitions_in_non_ssa_code() {
    let text = "entry @k(%r0, %r1, %r2, %rd3, %p4) {
bb0:
    %r5 = mul.f32 %r0, %r1
    %r5 = add.f32 %r5, %r2
    %r6 = mul.f32 %r0, %r1
    %r7 = add.f32 %r6, %r2
    %r6 = mov.b32 %r2
    %r8 = mul.f32 %r0, %r1
    %r9 = add.f32 %r8, %r2
    @%p4 %r8 = mov.b32 %r2
    bra bb1
bb1:
    st.u32 global[%rd3], %r5
    st.u32 global[%rd3+4], %r6
    st.u32 global[%rd3+8], %r7
    st.u32 global[%rd3+12], %r8
    st.u32 global[%rd3+16], %r9
    exit
}
";
    let mut f = parse_function(text).unwrap();
    assert_eq!(OriCreateMacroInsts.run_function(&mut f).unwrap(), 4);
    verify_function(&f).unwrap();
    let want = "entry @k(%r0, %r1, %r2, %rd3, %p4) {
bb0:
    %r5 = fma.rn.contract.f32 %r0, %r1, %r2
    %r7 = fma.rn.contract.f32 %r0, %r1, %r2
    %r6 = mov.b32 %r2
    %r8 = mul.f32 %r0, %r1
    %r9 = add.f32 %r8, %r2
    @%p4 %r8 = mov.b32 %r2
    bra bb1
bb1:
    st.u32 global[%rd3], %r5
    st.u32 global[%rd3+0x4], %r6
    st.u32 global[%rd3+0x8], %r7
    st.u32 global[%rd3+0xc], %r8
    st.u32 global[%rd3+0x10], %r9
    exit
}
";
    assert_eq!(f.to_string(), want);
}

/// ReplaceUniformsWithImm on the lowered corpus: the reserved shared-memory registers whose
/// values are sm_90 constants become immediates (sreg_cluster_smem reads begin;
/// sreg_reserved_smem begin, cap and offset 0), and none is left behind.
#[test]
fn replace_uniforms_with_imm_on_the_corpus() {
    use ptxas_rs::opt::uniform_imm::{ReplaceUniformsWithImm, reserved_smem_constant};
    use ptxas_rs::ori::Operand;
    let mut changed = Vec::new();
    for (stem, mut m) in lowered_corpus() {
        let n = ReplaceUniformsWithImm.run_module(&mut m).unwrap();
        for f in &m.functions {
            verify_function(f).unwrap();
            let left = f.inst_order().filter(|&(_, i)| {
                f.insts[i].srcs.iter().any(|o| matches!(o, Operand::SReg(s) if reserved_smem_constant(*s).is_some()))
            });
            assert_eq!(left.count(), 0, "{stem}");
        }
        if n > 0 {
            changed.push((stem, n));
        }
    }
    eprintln!("ReplaceUniformsWithImm on the corpus: {changed:?}");
    assert_eq!(changed, [("sreg_cluster_smem".to_string(), 1), ("sreg_reserved_smem".to_string(), 3)]);
}

/// Runs GeneralOptimize on one entry block of `body` (parameters `%rd9`, `%r1`, `%rd2`, `%p0`) and returns the block's text.
fn general_optimize(body: &str) -> String {
    use ptxas_rs::opt::general_optimize::GeneralOptimize;
    let text = format!("entry @k(%rd9, %r1, %rd2, %p0) {{\nbb0:\n{body}    exit\n}}\n");
    let mut f = parse_function(&text).unwrap();
    GeneralOptimize.run_function(&mut f).unwrap();
    verify_function(&f).unwrap();
    f.to_string()
}

#[test]
fn general_optimize_applies_exact_integer_identities() {
    let st = |r: &str| format!("    st.u32 global[%rd9], {r}\n");
    // Each identity leaves the operand (copy-propagated into the store) or the constant.
    for (inst, want) in [
        ("%r3 = add.u32 %r1, 0", "%r1"),
        ("%r3 = add.s32 0, %r1", "%r1"),
        ("%r3 = sub.u32 %r1, 0", "%r1"),
        ("%r3 = sub.s32 %r1, %r1", "0"),
        ("%r3 = mul.lo.u32 %r1, 1", "%r1"),
        ("%r3 = mul.lo.s32 1, %r1", "%r1"),
        ("%r3 = mul.lo.u32 %r1, 0", "0"),
        ("%r3 = and.b32 %r1, 0", "0"),
        ("%r3 = and.b32 -1, %r1", "%r1"),
        ("%r3 = and.b32 %r1, %r1", "%r1"),
        ("%r3 = or.b32 %r1, 0", "%r1"),
        ("%r3 = or.b32 %r1, -1", "-1"),
        ("%r3 = xor.b32 0, %r1", "%r1"),
        ("%r3 = xor.b32 %r1, %r1", "0"),
        ("%r3 = shl.b32 %r1, 0", "%r1"),
        ("%r3 = shr.s32 %r1, 0", "%r1"),
        ("%r3 = selp.b32 %r1, %r1, %p0", "%r1"),
    ] {
        let got = general_optimize(&format!("    {inst}\n{}", st("%r3")));
        // A constant stays in a move: the store takes no immediate.
        let kept = if want.starts_with('%') { st(want) } else { format!("    %r3 = mov.b32 {want}\n{}", st("%r3")) };
        let expect = format!("bb0:\n{kept}    exit\n");
        assert!(got.contains(&expect), "{inst}:\n{got}");
    }
    // 64-bit: the constant comes from a move, not an immediate.
    let got = general_optimize("    %rd3 = mov.u64 0\n    %rd4 = add.u64 %rd2, %rd3\n    st.u64 global[%rd9], %rd4\n");
    assert!(got.contains("bb0:\n    st.u64 global[%rd9], %rd2\n    exit\n"), "{got}");
    // Unsigned comparisons with a known answer become constant predicates, and what they guard
    // folds with them.
    for (cmp, kept) in
        [("ge.u32 %r1, 0", true), ("lo.s32 %r1, 0", false), ("le.u32 %r1, -1", true), ("gt.u32 0, %r1", false)]
    {
        let got = general_optimize(&format!("    %p4 = setp.{cmp}\n    %r3 = selp.b32 7, 8, %p4\n{}", st("%r3")));
        let expect = format!("bb0:\n    %r3 = mov.b32 {}\n{}    exit\n", if kept { 7 } else { 8 }, st("%r3"));
        assert!(got.contains(&expect), "setp.{cmp}:\n{got}");
    }
}

#[test]
fn general_optimize_leaves_inexact_identities_alone() {
    for inst in [
        // Floats: `-0.0 + 0.0` is `+0.0`; `.ftz` flushes.
        "%r3 = add.f32 %r1, 0f00000000",
        "%r3 = mul.ftz.f32 %r1, 0f3F800000",
        // `.hi`/`.wide` multiplies, saturation, signed comparisons against 0.
        "%r3 = mul.hi.u32 %r1, 1",
        "%r3 = add.sat.s32 %r1, 0",
        "%p2 = setp.ge.s32 %r1, 0",
        // Sub-word types clear the register's upper bits.
        "%r3 = add.u16 %r1, 0",
        // Carry in and out.
        "%r3, %p2 = addc.u32 %r1, 0, %p0",
    ] {
        let text = format!(
            "entry @k(%rd9, %r1, %p0, %p2) {{\nbb0:\n    {inst}\n    @%p2 exit\nbb1:\n    st.u32 global[%rd9], %r3\n    exit\n}}\n"
        );
        let mut f = parse_function(&text).unwrap();
        let before = f.to_string();
        ptxas_rs::opt::general_optimize::GeneralOptimize.run_function(&mut f).unwrap();
        assert_eq!(f.to_string(), before, "{inst}");
    }
}
