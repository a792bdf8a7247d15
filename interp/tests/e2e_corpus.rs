//! End to end on sm_90 (issue 7): every CUDA corpus kernel with an sm_90 PTX (or only an sm_90a
//! one: tc_wgmma, compiled into an sm_90a cubin) is compiled by
//! ptxas-rs ([`ptxas_rs::backend::compile`]) at -O0 and -O3, and each cubin we produce must
//! 1. be accepted by NVIDIA's `nvdisasm` and `cuobjdump -elf` with nothing on stderr (every word
//!    through a raw `nvdisasm` run, every 4th cubin whole: `support::accepted_by_tools`),
//! 2. run in the SASS emulator with hazard checking on, with no hazard,
//! 3. give the same outputs as the Ori interpreter running the lowered PTX (the launch spec's
//!    comparison rules), contracted by phase 9 (OriCreateMacroInsts) at the same level as the
//!    cubin: the fused `mul` + `add` pairs are FFMAs in the cubin, one rounding where PTX's
//!    pair has two.
//!
//! A kernel the backend cannot compile yet is counted by the stage that refused it (the
//! backend's errors name the stage), and the test prints that table; a kernel that compiles
//! and then misbehaves (rejected by NVIDIA's tools, a hazard, an emulator error or different
//! outputs) fails the test unless [`KNOWN`] explains it. `MIN_PASSED` keeps the number of
//! passing kernel-levels from going down.
//!
//! `cargo test -p interp --test e2e_corpus -- --nocapture` prints the table;
//! `PTXAS_RS_E2E_ONLY=k1,k2` runs only those kernels (and skips the `MIN_PASSED` floor).

#[path = "../../tests/common/par.rs"]
mod par;
#[path = "support/emu_corpus.rs"]
mod support;

use std::collections::BTreeMap;

use interp::ExecConfig;
use interp::emu::{EmuConfig, Kernel};
use interp::launch::{LaunchSpec, compare::compare};
use ptxas_rs::backend;
use ptxas_rs::opt::{Pipeline, PipelineOptions};

/// Kernel-levels (`kernel@O`) that compile but misbehave, with the cause investigated.
const KNOWN: &[(&str, &str)] = &[];

/// Kernel-levels that pass end to end when this test landed; a regression fails.
const MIN_PASSED: usize = 202;

/// (kernel, PTX, launch spec) of the sm_90 corpus, and the kernels whose PTX is sm_90a only
/// (tc_wgmma: `wgmma`, which needs the arch-accelerated target).
fn kernels() -> Vec<(String, std::path::PathBuf, std::path::PathBuf)> {
    // The sm_90 PTX, or the sm_90a one for kernels that have no sm_90 PTX.
    let mut v = support::corpus();
    let sm90: std::collections::BTreeSet<String> = v.iter().map(|(k, ..)| k.clone()).collect();
    v.extend(support::corpus_for("sm_90a").into_iter().filter(|(k, ..)| !sm90.contains(k)));
    v.sort();
    v
}

/// What one kernel-level gave.
enum Level {
    /// Refused by the backend (or the lowering): the stage and what it said.
    Refused(String, String),
    /// Compiled and run: `Err` says what went wrong; the cubin, for NVIDIA's tools.
    Checked(String, Result<(), String>, Vec<u8>),
}

/// Compiles `k` at -O0 and -O3 and checks each cubin (see the module docs).
fn check_kernel(k: &str, ptx: &std::path::Path, spec_path: &std::path::Path) -> Vec<Level> {
    let exec = ExecConfig { local_bytes: 16 * 1024, step_limit: 50_000_000, ..ExecConfig::default() };
    let spec = LaunchSpec::from_path(spec_path).unwrap();
    let text = std::fs::read_to_string(ptx).unwrap();
    let ast = ptxas_rs::ptx::parse(&text, "in.ptx").unwrap();
    let Ok(module) = ptxas_rs::lower::lower_source(&text) else {
        return vec![Level::Refused("lowering".into(), k.into()), Level::Refused("lowering".into(), k.into())];
    };
    let mut out = Vec::new();
    for level in [0u8, 3] {
        let mut contracted = module.clone();
        let popts = PipelineOptions { opt_level: level, ..PipelineOptions::default() };
        let reference = Pipeline::only(&["OriCreateMacroInsts"])
            .map_err(|e| e.to_string())
            .and_then(|p| p.run(&mut contracted, &popts, &mut []).map_err(|e| e.to_string()))
            .and_then(|_| interp::run_ori_with(&contracted, &spec.kernel, &spec, &exec).map_err(|e| e.to_string()));
        let name = format!("{k}@O{level}");
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let compiled = match backend::compile(&ast, &opts) {
            Ok(c) => c,
            Err(e) => {
                out.push(Level::Refused(e.stage.to_string(), format!("{name} ({})", e.message)));
                continue;
            }
        };
        let problem = (|| -> Result<(), String> {
            let kernel = Kernel::load(&compiled.cubin, &spec.kernel).map_err(|e| format!("load: {e}"))?;
            let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
            let run = kernel.run(&spec, &cfg).map_err(|e| format!("emulator: {e}"))?;
            let reference = reference.as_ref().map_err(|e| format!("the interpreter fails: {e}"))?;
            let mut diffs = Vec::new();
            for buf in spec.outputs() {
                let n = buf.name();
                if let Err(m) = compare(buf, run.outputs.get(n).unwrap(), reference.get(n).unwrap()) {
                    diffs.push(format!("{n}: {m}"));
                }
            }
            if diffs.is_empty() { Ok(()) } else { Err(format!("outputs differ: {}", diffs.join("; "))) }
        })();
        out.push(Level::Checked(name, problem, compiled.cubin));
    }
    out
}

#[test]
fn our_cubins_match_the_interpreter() {
    let Some(t) = oracle::tools_or_skip("our_cubins_match_the_interpreter") else { return };
    let mut passed = Vec::new();
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut bad = Vec::new();
    let mut explained = Vec::new();
    let mut total = 0;
    let only: Option<Vec<String>> =
        std::env::var("PTXAS_RS_E2E_ONLY").ok().map(|v| v.split(',').map(str::to_owned).collect());
    let kernels: Vec<_> = kernels().into_iter().filter(|(k, ..)| only.as_ref().is_none_or(|o| o.contains(k))).collect();
    let levels: Vec<Level> =
        par::par_map(&kernels, |(k, ptx, spec)| check_kernel(k, ptx, spec)).into_iter().flatten().collect();
    // NVIDIA's tools read every cubin we made (the whole-cubin nvdisasm run on every 4th).
    let cubins: Vec<(String, &[u8])> = levels
        .iter()
        .filter_map(|l| match l {
            Level::Checked(name, _, cubin) => Some((name.clone(), &cubin[..])),
            Level::Refused(..) => None,
        })
        .collect();
    let mut verdicts = support::accepted_by_tools(t, &cubins, 4).into_iter();
    for level in levels {
        total += 1;
        let (name, problem) = match level {
            Level::Refused(stage, what) => {
                refused.entry(stage).or_default().push(what);
                continue;
            }
            Level::Checked(name, problem, _) => (name, verdicts.next().expect("a verdict per cubin").and(problem)),
        };
        match (problem, KNOWN.iter().find(|(n, _)| *n == name)) {
            (Ok(()), None) => passed.push(name),
            (Ok(()), Some(_)) => bad.push(format!("{name}: listed in KNOWN but now passes")),
            (Err(_), Some((_, why))) => explained.push(format!("{name}: {why}")),
            (Err(e), None) => bad.push(format!("{name}: {e}")),
        }
    }
    println!("end to end: {} of {total} kernel-levels pass", passed.len());
    println!("passed: {}", passed.join(" "));
    for (stage, v) in &refused {
        println!("refused by {stage}: {}", v.len());
        for x in v {
            println!("    {x}");
        }
    }
    for e in &explained {
        println!("explained: {e}");
    }
    assert!(bad.is_empty(), "compiled but wrong:\n{}", bad.join("\n"));
    if only.is_none() {
        assert!(
            passed.len() >= MIN_PASSED,
            "only {} kernel-levels pass (expected at least {MIN_PASSED})",
            passed.len()
        );
    }
}

/// Our -O3 cubin of CUDA corpus kernel `k`, loaded for the emulator, and its launch spec.
fn our_o3_kernel(k: &str) -> (Kernel, LaunchSpec) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda").join(k);
    let text = std::fs::read_to_string(root.join(format!("{k}.sm_90.ptx"))).unwrap();
    let spec = LaunchSpec::from_path(&root.join(format!("{k}.run.toml"))).unwrap();
    let ast = ptxas_rs::ptx::parse(&text, "in.ptx").unwrap();
    let opts = backend::Options { opt_level: 3, ..backend::Options::default() };
    let cubin = backend::compile(&ast, &opts).unwrap().cubin;
    (Kernel::load(&cubin, &spec.kernel).unwrap(), spec)
}

/// Selection puts `WARPSYNC.ALL` before a full-warp `SHFL` (we emit no `BSSY`/`BSYNC` to
/// reconverge the warp after divergent code). The check that can fail: in our -O3 cubin of
/// algo_spmv_csr (a warp-per-row loop with per-lane trip counts, then a `SHFL.DOWN` reduction),
/// turning that `WARPSYNC.ALL` into a `NOP` must make the emulator report the divergent `SHFL`
/// (on the H100 such a cubin computed other sums: `interp/gpu/README.md`, run 4), while the
/// cubin as compiled runs hazard-free.
#[test]
fn shfl_after_divergence_needs_its_warpsync() {
    let (kernel, spec) = our_o3_kernel("algo_spmv_csr");
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    kernel.run(&spec, &cfg).unwrap();
    let mut banks = interp::emu::Banks::new();
    banks.insert(0, vec![0; 0x400]);
    let program = kernel.program(&banks);
    let insts = &program.insts;
    let shfl = insts.iter().position(|i| i.base == "SHFL").expect("a SHFL");
    assert_eq!(insts[shfl - 1].base, "WARPSYNC", "the first SHFL's predecessor");
    // `NOP` (opcode 0x918, guard PT), as in ptxas's padding.
    let nop = 0x7918u128;
    assert_eq!(kernel.tables.decode(nop).unwrap().form.base, "NOP");
    let keep = (1u128 << 105) - 1;
    let mut mutated = kernel.clone();
    let w = (insts[shfl - 1].offset / 16) as usize;
    mutated.words[w] = nop & keep | mutated.words[w] & !keep;
    let e = mutated.run(&spec, &cfg).expect_err("the divergent SHFL must be reported");
    assert!(matches!(e.kind, interp::emu::EmuErrorKind::DivergentBarrier(_)), "{e}");
    assert_eq!(e.offset, Some(insts[shfl].offset), "{e}");
}

/// A `redux.sync` on a 16-lane tile's member mask reads its uniform result inside a
/// `BSSY`/`WARPSYNC.EXCLUSIVE`/`BSYNC` region. The check that can fail: in our -O3 cubin of
/// cg_tiled_reduce, turning each `WARPSYNC.EXCLUSIVE` into a plain `WARPSYNC` (clearing bit 85)
/// lets the two tiles take turns between `REDUX` and `MOV`, so one tile reads the other's
/// uniform register and the `per_thread` outputs change (on an H200 such a cubin gave other
/// values than NVIDIA's: gpu_golden's history).
#[test]
fn tile_redux_needs_its_exclusive_region() {
    let (kernel, spec) = our_o3_kernel("cg_tiled_reduce");
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let good = kernel.run(&spec, &cfg).unwrap();
    let mut mutated = kernel.clone();
    let mut n = 0;
    for w in mutated.words.iter_mut() {
        let text = kernel.tables.decode(*w).map(|i| kernel.tables.print(&i, 0, None)).unwrap_or_default();
        if text.starts_with("WARPSYNC.EXCLUSIVE") {
            *w &= !(1u128 << 85);
            let plain = kernel.tables.decode(*w).map(|i| kernel.tables.print(&i, 0, None)).unwrap();
            assert!(plain.starts_with("WARPSYNC R"), "{plain}");
            n += 1;
        }
    }
    assert!(n >= 2, "the two tile reductions (max, xor) each have a region: {n}");
    let bad = mutated.run(&spec, &cfg).unwrap();
    assert_ne!(good.outputs.get("per_thread"), bad.outputs.get("per_thread"), "the regions must matter");
}

/// Every lane of a warp issues its own bulk copy (a distinct source and destination) completing
/// on one mbarrier, then waits for the phase and reads slots other lanes copied. Checks that can
/// fail: at -O0 and -O3 our cubin must run hazard-free in the emulator and equal the
/// interpreter (so the `ELECT` loop issues one `UBLKCP` per lane with that lane's operands, and
/// the wait holds until all 32 transactions are complete); and with the loop's back branch
/// turned into a `NOP` (one copy for the warp) the run must fail or give other outputs.
#[test]
fn bulk_copies_of_every_lane_complete_before_the_wait() {
    let Some(_t) = oracle::tools_or_skip("bulk_copies_of_every_lane_complete_before_the_wait") else { return };
    let mut reads = String::new();
    for j in 0..4 {
        reads.push_str(&format!(
            "shl.b32 %r10, %r1, 2;\nadd.u32 %r10, %r10, {};\nand.b32 %r10, %r10, 127;\nshl.b32 %r10, %r10, 2;\n\
             add.u32 %r10, %r10, %r8;\nld.shared.u32 %r11, [%r10];\nmad.lo.u32 %r12, %r6, 4, {j};\n\
             mul.wide.u32 %rd5, %r12, 4;\nadd.u64 %rd6, %rd2, %rd5;\nst.global.u32 [%rd6], %r11;\n",
            j * 5 + 3
        ));
    }
    let ptx = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry bulk_lanes(.param .u64 pin, .param .u64 pout) {{\n\
         .reg .b32 %r<20>;\n.reg .b64 %rd<10>;\n.reg .pred %p<4>;\n\
         .shared .align 128 .b8 buf[512];\n.shared .align 8 .b64 bar;\n\
         ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\n\
         cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\n\
         mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, bar;\nmov.u32 %r8, buf;\n\
         setp.ne.u32 %p1, %r1, 0;\n@%p1 bra SKIP;\nmbarrier.init.shared.b64 [%r3], 32;\nSKIP:\nbar.sync 0;\n\
         mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r3], 16;\n\
         sub.u32 %r4, 31, %r1;\nshl.b32 %r4, %r4, 4;\nadd.u32 %r5, %r8, %r4;\n\
         mad.lo.u32 %r6, %r2, 32, %r1;\nmul.wide.u32 %rd3, %r6, 16;\nadd.u64 %rd4, %rd1, %rd3;\n\
         cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r5], [%rd4], 16, [%r3];\n\
         mov.u32 %r7, 0;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], %r7;\n@!%p2 bra WAIT;\n\
         {reads}ret;\n}}\n"
    );
    let spec = LaunchSpec::from_toml_str(
        "kernel = \"bulk_lanes\"\ngrid = [2, 1, 1]\nblock = [32, 1, 1]\n[[param]]\nbuffer = \"in\"\n\
         [[param]]\nbuffer = \"out\"\n[buffer.in]\ntype = \"u32\"\nlen = 256\ninit = { random = { seed = 7 } }\n\
         [buffer.out]\ntype = \"u32\"\nlen = 256\ninit = { fill = 0 }\noutput = true\n",
    )
    .unwrap();
    let module = ptxas_rs::lower::lower_source(&ptx).unwrap();
    let exec = ExecConfig::default();
    let reference = interp::run_ori_with(&module, &spec.kernel, &spec, &exec).unwrap();
    let ast = ptxas_rs::ptx::parse(&ptx, "in.ptx").unwrap();
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    for level in [0u8, 3] {
        let opts = backend::Options { opt_level: level, ..backend::Options::default() };
        let cubin = backend::compile(&ast, &opts).unwrap().cubin;
        let kernel = Kernel::load(&cubin, &spec.kernel).unwrap();
        let run = kernel.run(&spec, &cfg).unwrap_or_else(|e| panic!("-O{level}: {e}"));
        for buf in spec.outputs() {
            let n = buf.name();
            compare(buf, run.outputs.get(n).unwrap(), reference.get(n).unwrap())
                .unwrap_or_else(|m| panic!("-O{level} {n}: {m}"));
        }
        // Without the loop's back branch only the lowest lane copies.
        let mut banks = interp::emu::Banks::new();
        banks.insert(0, vec![0; 0x400]);
        let insts = kernel.program(&banks).insts;
        let copy = insts.iter().position(|i| i.base == "UBLKCP").expect("a UBLKCP");
        assert_eq!(insts[copy + 1].base, "BRA", "-O{level}: the loop's back branch follows the copy");
        let mut mutated = kernel.clone();
        let w = (insts[copy + 1].offset / 16) as usize;
        let keep = (1u128 << 105) - 1;
        mutated.words[w] = 0x7918u128 & keep | mutated.words[w] & !keep;
        let cfg_short = EmuConfig { step_limit: 2_000_000, ..cfg.clone() };
        match mutated.run(&spec, &cfg_short) {
            Err(_) => {}
            Ok(bad) => assert_ne!(bad.outputs.get("out"), run.outputs.get("out"), "-O{level}: the loop must matter"),
        }
    }
}

/// The batched acceptance check can fail: a cubin with one word no SM90 instruction has is
/// refused (and only that cubin), by the raw run even when it is not among the whole-cubin
/// sample.
#[test]
fn the_batched_tool_check_refuses_an_illegal_word() {
    let Some(t) = oracle::tools_or_skip("the_batched_tool_check_refuses_an_illegal_word") else { return };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda/int_arith");
    let text = std::fs::read_to_string(root.join("int_arith.sm_90.ptx")).unwrap();
    let ast = ptxas_rs::ptx::parse(&text, "in.ptx").unwrap();
    let good = backend::compile(&ast, &backend::Options::default()).unwrap().cubin;
    let cubin = ptxas_rs::cubin::Cubin::parse(&good).unwrap();
    let text_section = cubin.sections.iter().find(|s| s.name.starts_with(".text.")).unwrap();
    let mut bad = good.clone();
    let at = text_section.offset as usize;
    bad[at..at + 16].copy_from_slice(&[0xff; 16]);
    let v = support::accepted_by_tools(t, &[("good".into(), &good[..]), ("bad".into(), &bad[..])], 1000);
    assert!(v[0].is_ok(), "{:?}", v[0]);
    assert!(v[1].as_ref().is_err_and(|e| e.contains("illegal instruction")), "{:?}", v[1]);
}
