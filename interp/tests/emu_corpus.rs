//! The SASS emulator on NVIDIA's own code: every corpus kernel (`corpus/cuda/*/<k>.sm_90.ptx`)
//! compiled by NVIDIA ptxas `-arch=sm_90`, checked for decodability, and every fully decodable
//! one run over its launch spec in hazard mode: it must finish with zero hazards and give the
//! same bytes on a second run (determinism).
//!
//! The per-kernel table (decodable / ran / first problem) is printed with
//! `cargo test -p interp --test emu_corpus -- --nocapture`.

use std::collections::BTreeMap;
use std::path::Path;

use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;

#[path = "support/emu_corpus.rs"]
mod support;
use support::{corpus, nvdisasm_suffixes, nvidia_cubin};

/// Decodable kernels that do not run yet, with the measured cause.
const KNOWN: &[(&str, &str)] = &[(
    "tc_wgmma_wide",
    "hazard model stricter than ptxas: NVIDIA's -O3 code issues `WARPGROUP.DEPBAR.LE gsb0, 0x0` 3 cycles after the \
         chain's committing `HGMMA.64x64x16.F32 R24, gdesc[UR8], R24, !UP0, gsb0`, where the checker asks for \
         GSB_SETTLE = 8 (learned on tc_wgmma's N=8, where ptxas leaves 8 and 1 gave stale accumulators on the \
         H100); without --hazards NVIDIA's -O3 outputs equal the interpreter's; the true minimum (3..8) is \
         a GPU measurement still to make",
)];

#[test]
fn nvidia_sm90_corpus_runs_hazard_free() {
    let Some(t) = oracle::tools_or_skip("nvidia_sm90_corpus_runs_hazard_free") else { return };
    let mut decodable = Vec::new();
    let mut ran = Vec::new();
    let mut failed = Vec::new();
    let mut total = 0;
    let mut opcodes = std::collections::BTreeSet::new();
    // Every instruction the emulator cannot execute yet, by reason: the to-do list.
    let mut todo: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (k, ptx, spec_path) in corpus() {
        total += 1;
        let spec = LaunchSpec::from_path(&spec_path).unwrap();
        let bytes = nvidia_cubin(t, &ptx);
        let kernel = Kernel::load(&bytes, &spec.kernel).unwrap();
        if let Some(w) = kernel.words.iter().find(|w| kernel.tables.decode_unchecked(**w).is_err()) {
            println!("{k}: not decodable: no form for {:#05x}", w & 0xfff);
            continue;
        }
        let mut banks = interp::emu::Banks::new();
        banks.insert(0, vec![0; 0x400]);
        let sfx = nvdisasm_suffixes(t, &bytes, &spec.kernel);
        let program = interp::emu::Program::with_suffixes(kernel.tables, &kernel.words, kernel.entry, &banks, &sfx);
        for i in &program.insts {
            if let interp::emu::program::Kind::Invalid(why) = &i.kind {
                let key = if why.starts_with("not decodable") {
                    format!("not decodable {:#05x}", i.word & 0xfff)
                } else {
                    why.clone()
                };
                let ks = todo.entry(key).or_default();
                if !ks.contains(&k) {
                    ks.push(k.clone());
                }
            }
        }
        if let Some((i, why)) = program.first_invalid() {
            println!("{k}: not decodable: {:#06x}: {why}", i.offset);
            continue;
        }
        decodable.push(k.clone());
        for i in &program.insts {
            opcodes.insert(format!("{}{}", i.base, i.suffix));
        }
        let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
        match kernel.run_with_suffixes(&spec, &cfg, &sfx) {
            Ok(_) if KNOWN.iter().any(|(n, _)| *n == k) => failed.push(format!("{k}: listed in KNOWN but runs")),
            Ok(r1) => {
                let r2 = kernel.run_with_suffixes(&spec, &cfg, &sfx).unwrap();
                assert_eq!(r1, r2, "{k}: two runs differ");
                println!("{k}: ran, {} warp-instrs, {} thread-instrs", r1.outputs.warp_steps, r1.thread_instrs);
                ran.push(k);
            }
            Err(e) => match KNOWN.iter().find(|(n, _)| *n == k) {
                Some((_, why)) => println!("{k}: explained: {why} ({e})"),
                None => {
                    println!("{k}: FAILED: {e}");
                    failed.push(format!("{k}: {e}"));
                }
            },
        }
    }
    let bases: std::collections::BTreeSet<&str> = opcodes.iter().map(|o| o.split('.').next().unwrap_or("")).collect();
    println!(
        "opcodes in the kernels run ({} forms, {} bases): {}",
        opcodes.len(),
        bases.len(),
        bases.into_iter().collect::<Vec<_>>().join(" ")
    );
    println!("instructions the emulator cannot execute yet (reason: kernels):");
    for (why, ks) in &todo {
        println!("  {why}: {}", ks.join(" "));
    }
    println!("sm_90: {total} kernels, {} fully decodable, {} ran hazard-free", decodable.len(), ran.len());
    assert!(failed.is_empty(), "decodable kernels that failed:\n{}", failed.join("\n"));
}

/// The straight-line kernels the mutation checks alter.
const MUTATED: [&str; 4] = ["int_arith", "f32_arith", "i64_arith", "bits_lop3"];

/// A mutation check's subject: NVIDIA's sm_90 cubin of corpus kernel `k` (which must run
/// hazard-free), its launch spec, nvdisasm's modifier suffixes and the decoded program.
struct Subject {
    spec: LaunchSpec,
    kernel: Kernel,
    sfx: BTreeMap<u32, String>,
    program: interp::emu::Program,
}

fn subject(t: &oracle::Tools, k: &str) -> Subject {
    subject_for(t, k, "sm_90")
}

/// [`subject`] for NVIDIA's cubin of `k` for `arch` (from nvcc's PTX for that arch).
fn subject_for(t: &oracle::Tools, k: &str, arch: &str) -> Subject {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda");
    let ptx = root.join(k).join(format!("{k}.{arch}.ptx"));
    let spec = LaunchSpec::from_path(&root.join(k).join(format!("{k}.run.toml"))).unwrap();
    let bytes = support::nvidia_cubin_with(t, &ptx, &["-arch", arch]);
    let kernel = Kernel::load(&bytes, &spec.kernel).unwrap();
    let sfx = nvdisasm_suffixes(t, &bytes, &spec.kernel);
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    kernel.run_with_suffixes(&spec, &cfg, &sfx).unwrap();
    let mut banks = interp::emu::Banks::new();
    banks.insert(0, vec![0; 0x400]);
    let program = interp::emu::Program::with_suffixes(kernel.tables, &kernel.words, kernel.entry, &banks, &sfx);
    Subject { spec, kernel, sfx, program }
}

/// Mutation check of the hazard model: in NVIDIA's code for a few kernels, clear the wait-mask
/// bit of an instruction that consumes a scoreboarded result (a register written by an earlier
/// instruction of the straight-line code with that write scoreboard): the first such consumer,
/// and the first consumer of a load. The original
/// runs hazard-free; the mutated copy must report a hazard at exactly that instruction.
#[test]
fn cleared_wait_bit_reports_a_hazard() {
    let Some(t) = oracle::tools_or_skip("cleared_wait_bit_reports_a_hazard") else { return };
    cleared_wait_bits(t, "sm_90");
}

/// [`cleared_wait_bit_reports_a_hazard`] on NVIDIA's sm_80, sm_86 and sm_89 code.
#[test]
fn cleared_wait_bit_reports_a_hazard_sm80_family() {
    let Some(t) = oracle::tools_or_skip("cleared_wait_bit_reports_a_hazard_sm80_family") else { return };
    for arch in ["sm_80", "sm_86", "sm_89"] {
        cleared_wait_bits(t, arch);
    }
}

/// [`cleared_wait_bit_reports_a_hazard`] on NVIDIA's sm_75 (Turing) code.
#[test]
fn cleared_wait_bit_reports_a_hazard_sm75() {
    let Some(t) = oracle::tools_or_skip("cleared_wait_bit_reports_a_hazard_sm75") else { return };
    cleared_wait_bits(t, "sm_75");
}

fn cleared_wait_bits(t: &oracle::Tools, arch: &str) {
    let producers = cleared_wait_bits_in(t, arch, &MUTATED, &[]);
    assert_eq!(producers.len(), 2 * MUTATED.len(), "{producers:?}");
}

/// [`cleared_wait_bit_reports_a_hazard`] on `kernels` of `arch`: for each, the first consumer of
/// a scoreboarded result, the first consumer of a load, and for each of `also` the first
/// consumer of a producer for which it holds (where there is one). Returns the producers' opcodes, one per
/// mutation checked.
fn cleared_wait_bits_in(
    t: &oracle::Tools,
    arch: &str,
    kernels: &[&str],
    also: &[&dyn Fn(&interp::emu::program::Inst) -> bool],
) -> Vec<String> {
    let mut producers = Vec::new();
    for &k in kernels {
        let Subject { spec, kernel, sfx, program } = subject_for(t, k, arch);
        let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
        // Straight-line code up to the first BRA: every instruction that waits on the write
        // scoreboard of the earlier variable-latency producer of a register it reads. Check the
        // first one, and the first whose producer is a load.
        let mut writer: BTreeMap<interp::emu::hazard::Reg, (u8, usize)> = BTreeMap::new();
        let mut cands: Vec<(u32, u8, usize)> = Vec::new();
        for (i, inst) in program.insts.iter().enumerate() {
            let (rd, wr) = interp::emu::hazard::regs(inst);
            if let Some((sb, p)) =
                rd.iter().find_map(|r| writer.get(r).copied().filter(|(k, _)| inst.control.wait >> k & 1 == 1))
            {
                cands.push((inst.offset, sb, p));
            }
            if matches!(inst.kind, interp::emu::program::Kind::Bra { .. }) {
                break;
            }
            for r in wr {
                match inst.control.write_sb {
                    Some(sb) if interp::emu::hazard::HazardState::for_sm(kernel.sm).variable(inst) => {
                        writer.insert(r, (sb, i))
                    }
                    _ => writer.remove(&r),
                };
            }
        }
        let load = |p: usize| matches!(program.insts[p].kind, interp::emu::program::Kind::Ld { .. });
        let first = *cands.first().unwrap_or_else(|| panic!("{k}: no scoreboard consumer"));
        let on_load = cands.iter().copied().find(|c| load(c.2)).unwrap_or_else(|| panic!("{k}: no load consumer"));
        let extra = also.iter().filter_map(|f| cands.iter().copied().find(|c| f(&program.insts[c.2])));
        let mut chosen = vec![first, on_load];
        for c in extra {
            if !chosen.contains(&c) {
                chosen.push(c);
            }
        }
        for (off, sb, p) in chosen {
            let mut mutated = kernel.clone();
            mutated.words[off as usize / 16] &= !(1u128 << (116 + u32::from(sb)));
            let e = mutated.run_with_suffixes(&spec, &cfg, &sfx).expect_err("mutated copy must report a hazard");
            assert!(matches!(e.kind, interp::emu::EmuErrorKind::Hazard(_)), "{k}: {e}");
            assert_eq!(e.offset, Some(off), "{k}: {e}");
            let producer = &program.insts[p];
            println!(
                "{k} {arch}: wait bit SB{sb} cleared at {off:#06x} (producer {}{}): {e}",
                producer.base, producer.suffix
            );
            producers.push(producer.base.to_string());
            // Without hazard checking the mutated copy computes the same outputs: the checker,
            // not the executor, is what catches it.
            let plain = EmuConfig::default();
            assert_eq!(
                mutated.run_with_suffixes(&spec, &plain, &sfx).unwrap().outputs,
                kernel.run_with_suffixes(&spec, &plain, &sfx).unwrap().outputs
            );
        }
    }
    producers
}

/// [`cleared_wait_bit_reports_a_hazard`] on NVIDIA's sm_100 and sm_120 (Blackwell) code, with
/// the first consumer of an `LDCU` (Blackwell's variable-latency uniform constant load) too; on
/// sm_120 f64_round_modes replaces i64_arith (whose sm_120 code does not
/// decode yet), with a consumer of an FP64 result, scoreboarded on sm_120 only.
#[test]
fn cleared_wait_bit_reports_a_hazard_blackwell() {
    let Some(t) = oracle::tools_or_skip("cleared_wait_bit_reports_a_hazard_blackwell") else { return };
    let ldcu = |i: &interp::emu::program::Inst| i.base == "LDCU";
    let p100 = cleared_wait_bits_in(t, "sm_100", &MUTATED, &[&ldcu]);
    assert!(p100.len() >= 9, "{p100:?}");
    assert!(p100.iter().any(|p| p == "LDCU"), "{p100:?}");
    let fp64 = |i: &interp::emu::program::Inst| matches!(i.kind, interp::emu::program::Kind::Fp64 { .. });
    let p120 =
        cleared_wait_bits_in(t, "sm_120", &["int_arith", "f32_arith", "f64_round_modes", "bits_lop3"], &[&ldcu, &fp64]);
    assert!(p120.iter().any(|p| p == "LDCU"), "{p120:?}");
    assert!(p120.iter().any(|p| matches!(p.as_str(), "DADD" | "DMUL" | "DFMA")), "{p120:?}");
}

/// Mutation check of the pipe-throughput rule (`ptxas_rs::sched::class::pipe`): in NVIDIA's code
/// for a few kernels, take the first two consecutive instructions of the straight-line code that
/// go to the same pipe (ALU, and IMAD-class on the FMA pipe) with the second not reading the
/// first's results, issued exactly the pipe's hold time apart, and lower the first one's stall
/// to 1. The original runs hazard-free; the mutated copy must report a pipe hazard at the
/// second instruction, and compute the same outputs without hazard checking.
#[test]
fn shortened_pipe_spacing_reports_a_hazard() {
    let Some(t) = oracle::tools_or_skip("shortened_pipe_spacing_reports_a_hazard") else { return };
    let checked = shortened_pipe_spacing(t, "sm_90");
    // Measured: ALU pairs in int_arith, i64_arith, bits_lop3; IMAD pairs in int_arith, i64_arith.
    assert!(checked.get("Alu").is_some_and(|n| *n >= 3), "{checked:?}");
    assert!(checked.get("Fma").is_some_and(|n| *n >= 2), "{checked:?}");
}

/// [`shortened_pipe_spacing_reports_a_hazard`] on NVIDIA's sm_80, sm_86 and sm_89 code. The
/// pairs exclude what the sm_80-family model leaves out of the pipes (`CS2R`; on sm_86/89 an
/// FP32 instruction after an IMAD: see `HazardState::for_sm`), so both instructions of a pair
/// hold their pipe 2 cycles.
#[test]
fn shortened_pipe_spacing_reports_a_hazard_sm80_family() {
    let Some(t) = oracle::tools_or_skip("shortened_pipe_spacing_reports_a_hazard_sm80_family") else { return };
    for arch in ["sm_80", "sm_86", "sm_89"] {
        let checked = shortened_pipe_spacing(t, arch);
        // Measured: ALU pairs in int_arith, i64_arith, bits_lop3; IMAD pairs in int_arith,
        // i64_arith (each of sm_80, sm_86, sm_89).
        assert!(checked.get("Alu").is_some_and(|n| *n >= 3), "{arch}: {checked:?}");
        assert!(checked.get("Fma").is_some_and(|n| *n >= 2), "{arch}: {checked:?}");
    }
}

/// [`shortened_pipe_spacing_reports_a_hazard`] on NVIDIA's sm_75 (Turing) code, with the
/// sm_80 family's exclusions (`CS2R`).
#[test]
fn shortened_pipe_spacing_reports_a_hazard_sm75() {
    let Some(t) = oracle::tools_or_skip("shortened_pipe_spacing_reports_a_hazard_sm75") else { return };
    let checked = shortened_pipe_spacing(t, "sm_75");
    // Measured: ALU pairs in int_arith, i64_arith, bits_lop3; IMAD pairs in int_arith, i64_arith.
    assert!(checked.get("Alu").is_some_and(|n| *n >= 3), "{checked:?}");
    assert!(checked.get("Fma").is_some_and(|n| *n >= 2), "{checked:?}");
}

fn shortened_pipe_spacing(t: &oracle::Tools, arch: &str) -> BTreeMap<String, usize> {
    shortened_pipe_spacing_of(
        t,
        arch,
        &MUTATED,
        &[ptxas_rs::sched::class::Pipe::Alu, ptxas_rs::sched::class::Pipe::Fma],
    )
}

/// [`shortened_pipe_spacing`] on `kernels` for the pipes `pipes`.
fn shortened_pipe_spacing_of(
    t: &oracle::Tools,
    arch: &str,
    kernels: &[&str],
    pipes: &[ptxas_rs::sched::class::Pipe],
) -> BTreeMap<String, usize> {
    use ptxas_rs::sched::class::pipe;
    let sm90 = arch == "sm_90";
    let mut checked = BTreeMap::new();
    for &k in kernels {
        let Subject { spec, kernel, sfx, program } = subject_for(t, k, arch);
        let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
        let plain = EmuConfig::default();
        let want = kernel.run_with_suffixes(&spec, &plain, &sfx).unwrap().outputs;
        let insts = &program.insts;
        for &want_pipe in pipes {
            let pair = insts
                .windows(2)
                .take_while(|w| !matches!(w[0].kind, interp::emu::program::Kind::Bra { .. }))
                .find(|w| {
                    let (a, b) = (pipe(w[0].base), pipe(w[1].base));
                    a.is_some_and(|(p, hold)| p == want_pipe && hold == 2 && u64::from(w[0].control.stall) == hold)
                        && b.is_some_and(|(p, hold)| p == want_pipe && (sm90 || hold == 2))
                        && (sm90 || (w[0].base != "CS2R" && w[1].base != "CS2R"))
                        && w[0].guard.idx == 7
                        && w[1].guard.idx == 7
                        && !w[1].regs.0.iter().any(|r| w[0].regs.1.contains(r))
                });
            let Some(w) = pair else { continue };
            let (off0, off1) = (w[0].offset as usize, w[1].offset);
            let mut mutated = kernel.clone();
            mutated.words[off0 / 16] = mutated.words[off0 / 16] & !(0xfu128 << 105) | 1u128 << 105;
            let e = mutated.run_with_suffixes(&spec, &cfg, &sfx).expect_err("mutated copy must report a hazard");
            assert!(matches!(e.kind, interp::emu::EmuErrorKind::Hazard(_)), "{k}: {e}");
            assert_eq!(e.offset, Some(off1), "{k}: {e}");
            assert!(e.to_string().contains("pipe"), "{k}: {e}");
            println!("{k} {arch}: stall of {off0:#06x} lowered to 1: {e}");
            assert_eq!(mutated.run_with_suffixes(&spec, &plain, &sfx).unwrap().outputs, want);
            *checked.entry(format!("{want_pipe:?}")).or_insert(0) += 1;
        }
    }
    println!("{arch}: mutations checked per pipe: {checked:?}");
    checked
}

/// [`shortened_pipe_spacing_reports_a_hazard`] on NVIDIA's sm_100 code (the sm_90 pipe model)
/// and, for the FMA pipe only, its sm_120 code (where ALU instructions hold no pipe:
/// `HazardState::for_sm`).
#[test]
fn shortened_pipe_spacing_reports_a_hazard_blackwell() {
    use ptxas_rs::sched::class::Pipe;
    let Some(t) = oracle::tools_or_skip("shortened_pipe_spacing_reports_a_hazard_blackwell") else { return };
    let checked = shortened_pipe_spacing(t, "sm_100");
    assert!(checked.get("Alu").is_some_and(|n| *n >= 3), "{checked:?}");
    assert!(checked.get("Fma").is_some_and(|n| *n >= 2), "{checked:?}");
    let checked = shortened_pipe_spacing_of(
        t,
        "sm_120",
        &["int_arith", "f32_arith", "bits_lop3", "int_mulhi_wide"],
        &[Pipe::Fma],
    );
    assert!(checked.get("Fma").is_some_and(|n| *n >= 2), "{checked:?}");
}

/// Mutation check of sm_100's `CREDUX` latency (`hazard::CREDUX_LATENCY`, 13 cycles): in
/// NVIDIA's sm_100 code of the kernels with a `CREDUX`, the first reader of each `CREDUX` result
/// in straight-line code is brought one cycle closer than 13 (the stall of the instruction before
/// it lowered, where it can be); the checker must report that reader, and the outputs without checking are the same.
#[test]
fn shortened_credux_distance_reports_a_hazard_sm100() {
    use interp::emu::hazard::{Reg, regs};
    let Some(t) = oracle::tools_or_skip("shortened_credux_distance_reports_a_hazard_sm100") else { return };
    let mut checked = 0;
    for k in ["warp_redux", "atom_scopes", "cg_tiled_reduce"] {
        let Subject { spec, kernel, sfx, program } = subject_for(t, k, "sm_100");
        let insts = &program.insts;
        let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
        let plain = EmuConfig::default();
        let want = kernel.run_with_suffixes(&spec, &plain, &sfx).unwrap().outputs;
        for (p, prod) in insts.iter().enumerate().filter(|(_, i)| i.base == "CREDUX") {
            let dst: Vec<Reg> = regs(prod).1;
            // The first reader in the same block, and the cycles from the CREDUX to it.
            let mut dist = 0u64;
            let mut reader = None;
            for (j, x) in insts.iter().enumerate().skip(p + 1) {
                dist += u64::from(insts[j - 1].control.stall.max(1));
                if regs(x).0.iter().any(|r| dst.contains(r)) {
                    reader = Some(j);
                    break;
                }
                if interp::emu::hazard::is_branch(x) || x.base == "BSSY" || regs(x).1.iter().any(|r| dst.contains(r)) {
                    break;
                }
            }
            let Some(j) = reader else { continue };
            // The stall just before the reader, so no other reader comes closer too, unless
            // that would put the two in one pipe too close (a different hazard).
            let m = j - 1;
            let pipe = |i: usize| ptxas_rs::sched::class::pipe(insts[i].base).map(|p| p.0);
            if pipe(m).is_some() && pipe(m) == pipe(j) {
                continue;
            }
            let cut = dist.saturating_sub(12);
            let stall = u64::from(insts[m].control.stall);
            if stall <= cut {
                continue;
            }
            let mut mutated = kernel.clone();
            let w = &mut mutated.words[insts[m].offset as usize / 16];
            *w = *w & !(0xfu128 << 105) | u128::from(stall - cut) << 105;
            let e = mutated.run_with_suffixes(&spec, &cfg, &sfx).expect_err("mutated copy must report a hazard");
            assert!(matches!(e.kind, interp::emu::EmuErrorKind::Hazard(_)), "{k}: {e}");
            assert_eq!(e.offset, Some(insts[j].offset), "{k}: {e}");
            assert!(dst.iter().any(|r| e.to_string().contains(&format!("{r} read"))), "{k}: {e}");
            println!("{k} sm_100: CREDUX at {:#06x} read {dist} cycles later, now 12: {e}", prod.offset);
            assert_eq!(mutated.run_with_suffixes(&spec, &plain, &sfx).unwrap().outputs, want);
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} CREDUX readers checked");
}

/// A latency rule of the hazard checker that the H100 showed (`interp/gpu/README.md`, run 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rule {
    /// A guard predicate written by a fixed-latency instruction is read 13 cycles later at the
    /// earliest.
    Guard,
    /// An FP64 instruction reads another pipe's register result 6 cycles later at the earliest.
    Fp64,
    /// Nothing but pipe arithmetic issues within 6 cycles of a `BAR`.
    Barrier,
}

/// In `program`, the consumers `i` that `rule` protects and whose distance from their producer
/// falls below the rule's minimum when the stall of instruction `i - 1` is lowered to 1 (without
/// making `i - 1` and `i` collide in one pipe), in layout order: `(i, text the hazard must
/// mention)`. Straight-line reasoning: blocks start after control transfers and at targets.
fn rule_candidates(program: &interp::emu::Program, rule: Rule) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    use interp::emu::hazard::{Reg, guard_reg, is_branch, is_fp64, variable_latency};
    use interp::emu::program::Kind;
    use ptxas_rs::sched::class::{pipe, settles_after_barrier};
    let insts = &program.insts;
    let mut t = 0u64;
    // Register -> (issue cycle, index) of its fixed-latency writer in the current block.
    let mut writer: BTreeMap<Reg, (u64, usize)> = BTreeMap::new();
    // Branch and BSSY targets start blocks too (byte offsets).
    let targets: std::collections::BTreeSet<u32> = insts
        .iter()
        .flat_map(|x| x.args.iter())
        .filter_map(|a| match a.o {
            interp::emu::program::Opnd::Target(k) => Some(k * 16),
            _ => None,
        })
        .collect();
    for (i, inst) in insts.iter().enumerate() {
        if targets.contains(&inst.offset) {
            writer.clear();
        }
        if i > 0 && !is_branch(&insts[i - 1]) && !targets.contains(&inst.offset) {
            let p = &insts[i - 1];
            let saved = u64::from(p.control.stall.max(1)) - 1;
            let same_pipe = pipe(p.base).is_some_and(|(a, _)| pipe(inst.base).is_some_and(|(b, _)| a == b));
            let found = match rule {
                Rule::Guard if !is_branch(inst) && matches!(guard_reg(inst), Some(Reg::P(_))) => {
                    let g = guard_reg(inst).unwrap();
                    writer.get(&g).filter(|(tw, _)| t - saved - tw < 13).map(|_| format!("{g} read"))
                }
                Rule::Fp64 if is_fp64(inst) => inst
                    .regs
                    .0
                    .iter()
                    .filter(|r| matches!(r, Reg::R(_)))
                    .find(|r| {
                        writer.get(r).is_some_and(|(tw, j)| !is_fp64(&insts[*j]) && t - saved - tw < 6 && t - tw >= 6)
                    })
                    .map(|r| format!("{r} read")),
                Rule::Barrier
                    if matches!(p.kind, Kind::Bar { .. }) && settles_after_barrier(inst.base) && saved > 0 =>
                {
                    Some("after a BAR".to_string())
                }
                _ => None,
            };
            if let Some(m) = found.filter(|_| saved > 0 && !same_pipe) {
                out.push((i, m));
            }
        }
        if !variable_latency(inst) {
            for r in &inst.regs.1 {
                writer.insert(*r, (t, i));
            }
        } else {
            for r in &inst.regs.1 {
                writer.remove(r);
            }
        }
        if is_branch(inst) {
            writer.clear();
        }
        t += u64::from(inst.control.stall.max(1));
    }
    out
}

/// Mutation checks of the guard, FP64-operand and barrier rules (found on the H100, where our
/// cubins that broke them computed wrong results): in NVIDIA's hazard-free code, lower the stall
/// of the instruction before a protected consumer to 1 so the consumer issues closer to its
/// producer than the rule allows; the mutated copy must report a hazard at exactly that
/// consumer, naming the register or the barrier, and give unchanged outputs without the checker.
/// A candidate the launch never executes (its block is skipped) runs clean and the next one is
/// tried; a hazard anywhere else fails the test.
#[test]
fn shortened_guard_fp64_and_barrier_distances_report_hazards() {
    let Some(t) = oracle::tools_or_skip("shortened_guard_fp64_and_barrier_distances_report_hazards") else { return };
    let cases: [(Rule, &[&str]); 3] = [
        (Rule::Guard, &["algo_bitonic_sort", "algo_nbody"]),
        (Rule::Fp64, &["f64_horner_scalar", "f64_div_sqrt"]),
        (Rule::Barrier, &["algo_stencil_1d", "algo_block_scan"]),
    ];
    let mut checked: BTreeMap<Rule, usize> = BTreeMap::new();
    for (rule, kernels) in cases {
        for k in kernels {
            let Subject { spec, kernel, sfx, program } = subject(t, k);
            let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
            let plain = EmuConfig::default();
            let want = kernel.run_with_suffixes(&spec, &plain, &sfx).unwrap().outputs;
            for (i, mention) in rule_candidates(&program, rule) {
                let (prev, off) = (program.insts[i - 1].offset as usize, program.insts[i].offset);
                let mut mutated = kernel.clone();
                mutated.words[prev / 16] = mutated.words[prev / 16] & !(0xfu128 << 105) | 1u128 << 105;
                let Err(e) = mutated.run_with_suffixes(&spec, &cfg, &sfx) else { continue };
                assert!(matches!(e.kind, interp::emu::EmuErrorKind::Hazard(_)), "{k} {rule:?}: {e}");
                assert_eq!(e.offset, Some(off), "{k} {rule:?}: {e}");
                assert!(e.to_string().contains(&mention), "{k} {rule:?}: expected `{mention}` in: {e}");
                println!("{k}: {rule:?}: stall of {prev:#06x} lowered to 1: {e}");
                assert_eq!(mutated.run_with_suffixes(&spec, &plain, &sfx).unwrap().outputs, want);
                *checked.entry(rule).or_insert(0) += 1;
                break;
            }
        }
    }
    println!("mutations checked per rule: {checked:?}");
    for rule in [Rule::Guard, Rule::Fp64, Rule::Barrier] {
        assert!(checked.get(&rule).is_some_and(|n| *n >= 1), "no {rule:?} mutation found: {checked:?}");
    }
}
