//! The cubin writer (`ptxas_rs::cubin::writer`) against NVIDIA's own sm_90 cubins.
//!
//! For every corpus kernel built for sm_90 (each `corpus/cuda/<k>/<k>.sm_90[a].ptx` with its
//! own arch, and each `corpus/ptx/<k>/<k>.ptx` with `-arch sm_90`), NVIDIA's ptxas (`-v`) writes
//! a cubin; then:
//! 1. byte-exact reconstruction: `write(from_cubin(parse(cubin)))` must equal the file; for
//!    the rest the first differing section is reported (or why no image could be derived);
//! 2. every cubin we write is accepted by `nvdisasm -hex` and `cuobjdump -elf` with nothing on
//!    stderr, and disassembles to exactly the original's `nvdisasm -hex` text;
//! 3. the `-v` lines computed from the derived image ([`verbose::lines`]) equal ptxas's own
//!    (module line and each entry's lines; `Compile time` lines and device functions' lines,
//!    which the cubin does not record, are left out).
//!
//! Floors below are what this implementation reaches; they may only go up.
//! Report: `cargo test --test cubin_writer -- --nocapture`; one kernel:
//! `CUBIN_WRITER_ONLY=module_init cargo test --test cubin_writer -- --nocapture`.

mod common;

use common::corpus_ptx;
use common::par::par_check;
use oracle::{PtxInput, tools_or_skip};
use ptxas_rs::cubin::{Cubin, derive, verbose, writer};
use ptxas_rs::target::Target;
use std::process::Command;
use std::sync::Mutex;

/// Identical files among the corpus cubins.
const FLOOR_IDENTICAL: usize = 128;
/// `-v` lines equal.
const FLOOR_VERBOSE: usize = 127;

fn jobs() -> Vec<(std::path::PathBuf, String)> {
    corpus_ptx()
        .into_iter()
        .filter_map(|c| {
            let hand = c.path.components().any(|p| p.as_os_str() == "ptx");
            if hand {
                // Hand PTX compiles for sm_90, or sm_90a where its `.target` asks for it.
                Some((c.path, if c.arch == "sm_90a" { c.arch } else { "sm_90".to_string() }))
            } else if c.arch.starts_with("sm_90") {
                Some((c.path, c.arch))
            } else {
                None
            }
        })
        .filter(|(p, _)| {
            std::env::var("CUBIN_WRITER_ONLY").is_ok_and(|o| p.to_string_lossy().contains(&o))
                || std::env::var("CUBIN_WRITER_ONLY").is_err()
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    total: usize,
    identical: usize,
    written: usize,
    tools_ok: usize,
    verbose_ok: usize,
    differences: Vec<String>,
    verbose_diffs: Vec<String>,
}

fn run(tool: &std::path::Path, args: &[&str], bytes: &[u8], tag: &str) -> Result<(String, String), String> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("ptxas-rs-cubin-writer-{}-{n}-{tag}.cubin", std::process::id()));
    std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
    let out = Command::new(tool).args(args).arg(&file).output().map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&file);
    let out = out?;
    if !out.status.success() {
        return Err(format!("{} failed: {}", tool.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned()))
}

/// The first section (of NVIDIA's file) whose header or bytes differ from ours.
fn first_difference(theirs: &[u8], ours: &[u8]) -> String {
    let (Ok(a), Ok(b)) = (Cubin::parse(theirs), Cubin::parse(ours)) else {
        return "our file does not parse".into();
    };
    for (x, y) in a.sections.iter().zip(&b.sections) {
        if x != y {
            return format!("section {} ({} vs ours {})", x.name, describe(x), describe(y));
        }
    }
    if a.sections.len() != b.sections.len() {
        return format!("{} sections, ours {}", a.sections.len(), b.sections.len());
    }
    if a.header != b.header {
        return format!("ELF header {:?} vs ours {:?}", a.header, b.header);
    }
    if a.program_headers != b.program_headers {
        return format!("program headers {:?} vs ours {:?}", a.program_headers, b.program_headers);
    }
    let at = theirs.iter().zip(ours).position(|(x, y)| x != y).unwrap_or(theirs.len().min(ours.len()));
    format!("byte {at:#x} (lengths {:#x}, ours {:#x})", theirs.len(), ours.len())
}

fn describe(s: &ptxas_rs::cubin::Section) -> String {
    format!(
        "type {:#x} flags {:#x} off {:#x} size {:#x} link {} info {} align {}",
        s.kind, s.flags, s.offset, s.size, s.link, s.info, s.align
    )
}

fn check(t: &oracle::Tools, (path, arch): &(std::path::PathBuf, String), tally: &Mutex<Tally>) -> Result<(), String> {
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let out = t.ptxas_run(PtxInput::File { path, cwd: None }, &["-v", "-arch", arch]).map_err(|e| e.to_string())?;
    let theirs = out.cubin.ok_or_else(|| format!("{name}: ptxas wrote no cubin: {}", out.stderr))?;
    tally.lock().unwrap().total += 1;
    let parsed = Cubin::parse(&theirs).map_err(|e| format!("{name}: {e}"))?;
    let image = match derive::from_cubin(&parsed) {
        Ok(i) => i,
        Err(e) => {
            tally.lock().unwrap().differences.push(format!("{name}: no image: {e}"));
            return Ok(());
        }
    };
    // (3) -v lines.
    let ours_v = verbose::lines(&image);
    let theirs_v: Vec<&str> = out.stderr.lines().filter(|l| !l.contains("Compile time =")).collect();
    let n = ours_v.len().min(theirs_v.len());
    if ours_v.len() <= theirs_v.len() && ours_v.iter().zip(&theirs_v).all(|(a, b)| a == b) {
        tally.lock().unwrap().verbose_ok += 1;
    } else {
        tally.lock().unwrap().verbose_diffs.push(format!("{name}: ours {:?}\n  ptxas {:?}", ours_v, &theirs_v[..n]));
    }
    // (1) bytes.
    let ours = writer::write(&image).map_err(|e| format!("{name}: write failed: {e}"))?;
    {
        let mut tl = tally.lock().unwrap();
        tl.written += 1;
        if ours == theirs {
            tl.identical += 1;
        } else {
            tl.differences.push(format!("{name}: {}", first_difference(&theirs, &ours)));
        }
    }
    // (2) the tools accept what we wrote and see the same code.
    let (dis_ours, err1) = run(&t.nvdisasm(), &["-hex"], &ours, "ours")?;
    let (dis_theirs, _) = run(&t.nvdisasm(), &["-hex"], &theirs, "theirs")?;
    let (_, err2) = run(&t.cuobjdump(), &["-elf"], &ours, "ours")?;
    if !err1.is_empty() || !err2.is_empty() {
        return Err(format!("{name}: tools warned: nvdisasm {err1:?} cuobjdump {err2:?}"));
    }
    if dis_ours != dis_theirs {
        return Err(format!("{name}: nvdisasm listing differs from the original's"));
    }
    tally.lock().unwrap().tools_ok += 1;
    Ok(())
}

#[test]
fn writer_reproduces_ptxas_cubins() {
    let Some(t) = tools_or_skip("writer_reproduces_ptxas_cubins") else { return };
    let jobs = jobs();
    let tally = Mutex::new(Tally::default());
    let failures = par_check(&jobs, |j| check(t, j, &tally));
    let mut tl = tally.into_inner().unwrap();
    tl.differences.sort();
    tl.verbose_diffs.sort();
    println!("cubin writer vs ptxas 13.0.88 (sm_90):");
    println!("  (1) identical files: {}/{} ({} written)", tl.identical, tl.total, tl.written);
    for d in &tl.differences {
        println!("      {d}");
    }
    println!("  (2) accepted by nvdisasm + cuobjdump, same listing: {}/{}", tl.tools_ok, tl.written);
    println!("  (3) -v lines equal: {}/{}", tl.verbose_ok, tl.total);
    for d in &tl.verbose_diffs {
        println!("      {d}");
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    // The floors hold for the whole corpus (`CUBIN_WRITER_ONLY=<substring>` narrows the run).
    if std::env::var("CUBIN_WRITER_ONLY").is_err() {
        assert!(tl.identical >= FLOOR_IDENTICAL, "identical {} < floor {FLOOR_IDENTICAL}", tl.identical);
        assert!(tl.verbose_ok >= FLOOR_VERBOSE, "-v equal {} < floor {FLOOR_VERBOSE}", tl.verbose_ok);
    } else {
        assert_eq!(tl.identical, tl.total, "a narrowed run expects every selected cubin identical");
    }
    assert_eq!(tl.tools_ok, tl.written, "every written cubin must pass the tools");
}

/// Synthetic images (no NVIDIA tools needed): every image the writer accepts parses with the
/// reader and derives back to itself; malformed images are located errors, never panics.
#[test]
fn synthetic_images_round_trip() {
    use ptxas_rs::cubin::image::{
        Bind, Cfa, DataReloc, DataSection, Frame, Image, Kernel, KernelAttr, ModuleData, Param, Report, Shared, Space,
        Subroutine, Variable,
    };
    let mut rng = common::Rng(0x5eed_cafe_f00d_0001);
    let edge = |rng: &mut common::Rng, max: u64| -> u64 {
        match rng.below(4) {
            0 => 0,
            1 => max,
            _ => rng.next() % (max + 1),
        }
    };
    for round in 0..200 {
        let words = 1 + rng.below(64) as u64;
        let mut code: Vec<u8> = (0..words * 16).map(|_| rng.next() as u8).collect();
        code.truncate((words * 16) as usize);
        let nparams = rng.below(6);
        let mut params = Vec::new();
        let mut off = 0u16;
        for _ in 0..nparams {
            let size = [1u16, 2, 4, 8, 16, 0x3fff][rng.below(6)];
            params.push(Param { offset: off, size, log_align: 0, space: 0, smem: false });
            off = off.saturating_add(size);
        }
        let param_size = u32::from(off) + edge(&mut rng, 8) as u32;
        let inst = |rng: &mut common::Rng| (rng.below(words as usize) * 16) as u32;
        let nsubs = rng.below(3);
        let mut subroutines = Vec::new();
        for s in 0..nsubs {
            let at = inst(&mut rng) as u64;
            subroutines.push(Subroutine {
                name: format!("$k{round}$sub{s}"),
                offset: at,
                size: words * 16 - at,
                bind: [Bind::Local, Bind::Weak, Bind::Global][rng.below(3)],
                frame_size: edge(&mut rng, u32::MAX as u64) as u32,
                aliases: (0..rng.below(2)).map(|a| format!("$k{round}$sub{s}_alias{a}")).collect(),
            });
        }
        subroutines.sort_by_key(|s: &Subroutine| s.bind == Bind::Global);
        let frames = (0..1 + nsubs)
            .map(|_| Frame {
                return_address: if rng.chance(50) { 0xffff_ffff } else { 0x500_0100 },
                cie: vec![
                    Cfa::DefCfa { reg: 0x500_0001, offset: 0 },
                    Cfa::SameValue(0x500_00ff),
                    Cfa::ValExpression {
                        reg: 0x500_0100,
                        expr: vec![3, 0, 0, 0, 0, 0, 0, 0, 0, 0x92, 0x80, 0x80, 0x80, 0x28, 0, 0x22],
                    },
                ],
                start: inst(&mut rng) as u64,
                range: 16,
                fde: vec![Cfa::AdvanceLoc4(edge(&mut rng, u32::MAX as u64) as u32), Cfa::RestoreExtended(0x500_0014)],
            })
            .collect();
        let mut extra = Vec::new();
        if rng.chance(50) {
            extra.push(KernelAttr::CoopGroupInstrOffsets(vec![inst(&mut rng), inst(&mut rng)]));
        }
        if rng.chance(50) {
            extra.push(KernelAttr::NumMbarriers(rng.next() as u16));
        }
        let shared = rng.chance(50).then(|| Shared {
            size: 0x400 + edge(&mut rng, 0xc000),
            align: [4u64, 8, 16][rng.below(3)],
            dropped_symbols: 1,
        });
        let k = Kernel {
            name: format!("kernel_{round}_{}", rng.next() % 1000),
            code,
            registers: edge(&mut rng, 255) as u32,
            params,
            param_size,
            frame_size: edge(&mut rng, u32::MAX as u64) as u32,
            min_stack_size: edge(&mut rng, u32::MAX as u64) as u32,
            shared,
            maxreg: edge(&mut rng, 0xffff) as u16,
            sparse_mma_mask: 0,
            max_threads: rng.chance(30).then(|| [rng.next() as u32, 1, 1]),
            reqntid: None,
            num_barriers: rng.chance(50).then(|| rng.next() as u8),
            exit_offsets: (0..rng.below(4)).map(|_| inst(&mut rng)).collect(),
            crs_stack_size: rng.chance(50).then(|| rng.next() as u32),
            extra,
            subroutines,
            frames,
            constant2: rng.chance(30).then(|| (0..4 * (1 + rng.below(8))).map(|_| rng.next() as u8).collect()),
            code_relocation_section: rng.chance(50),
            report: Report::default(),
        };
        let mut image = Image::new(&Target::default());
        image.accelerated = rng.chance(20);
        image.tool.arguments = format!("-arch sm_90 -O{} ", rng.below(4));
        if rng.chance(60) {
            // Module data: a few variables per space, an address table, data relocations.
            let mut vars = Vec::new();
            let mut init = Vec::new();
            let mut bss = 0u64;
            let mut cst = Vec::new();
            for v in 0..1 + rng.below(5) {
                let size = 1 + rng.below(24) as u64;
                let space = [Space::GlobalInit, Space::Global, Space::Constant][rng.below(3)];
                let offset = match space {
                    Space::GlobalInit => init.len() as u64,
                    Space::Global => bss,
                    Space::Constant => cst.len() as u64,
                };
                match space {
                    Space::GlobalInit => init.extend((0..size).map(|_| rng.next() as u8)),
                    Space::Global => bss += size,
                    Space::Constant => cst.extend((0..size).map(|_| rng.next() as u8)),
                }
                let bind = [Bind::Local, Bind::Weak, Bind::Global][rng.below(3)];
                vars.push(Variable { name: format!("var{v}_{}", rng.next() % 100), bind, space, offset, size });
            }
            vars.sort_by_key(|v| match v.bind {
                Bind::Weak => 0,
                Bind::Global => 1,
                Bind::Local => 2,
            });
            let table: Vec<String> = vars.iter().filter(|_| rng.chance(50)).map(|v| v.name.clone()).collect();
            let reloc = |rng: &mut common::Rng, len: usize, target: &str| DataReloc {
                offset: (rng.below(len.max(1)) & !7) as u64,
                symbol: target.to_string(),
                kind: [2, 4][rng.below(2)],
                addend: rng.next() as i64,
            };
            let target = vars[0].name.clone();
            let section = |rng: &mut common::Rng, bytes: Vec<u8>| {
                let relocs: Vec<DataReloc> = (bytes.len() >= 8 && rng.chance(50))
                    .then(|| reloc(rng, bytes.len(), &target))
                    .into_iter()
                    .collect();
                DataSection {
                    align: [4u64, 8, 16][rng.below(3)],
                    relocation_section: !relocs.is_empty() || rng.chance(30),
                    bytes,
                    relocations: relocs,
                }
            };
            image.data = ModuleData {
                global_init: vars.iter().any(|v| v.space == Space::GlobalInit).then(|| section(&mut rng, init)),
                global: vars.iter().any(|v| v.space == Space::Global).then_some((bss, 8)),
                constant3: vars.iter().any(|v| v.space == Space::Constant).then(|| section(&mut rng, cst)),
                address_table: table,
                variables: vars,
            };
        }
        image.kernels.push(k);
        let bytes = writer::write(&image).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let parsed = Cubin::parse(&bytes).unwrap_or_else(|e| panic!("round {round}: our cubin does not parse: {e}"));
        let back = derive::from_cubin(&parsed).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(back, image, "round {round}: the image does not survive write → parse → derive");
        // Break one invariant: a located error, never a panic.
        let mut bad = image.clone();
        match round % 4 {
            0 => bad.kernels[0].code.push(0),
            1 => bad.kernels[0].exit_offsets.push(words as u32 * 16),
            2 => bad.kernels[0].name.clear(),
            _ => bad.kernels[0].code.clear(),
        }
        let e = writer::write(&bad).expect_err("a malformed image must be rejected");
        assert!(!e.at.is_empty() && !e.what.is_empty());
    }
}

/// Two kernels in one module (the corpus has one per file): ptxas emits them in reverse PTX
/// order; the writer must reproduce the file byte for byte, and the `-v` lines.
#[test]
fn two_kernel_module_matches_ptxas() {
    let Some(t) = tools_or_skip("two_kernel_module_matches_ptxas") else { return };
    const PTX: &str = r#".version 8.0
.target sm_90
.address_size 64
.visible .entry first(.param .u64 p){
.reg .b32 %r<4>; .reg .b64 %rd<3>;
mov.u32 %r1, %tid.x; ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1; st.global.u32 [%rd2], %r1; ret; }
.visible .entry second_kernel(.param .u64 q, .param .u32 n){
.reg .b32 %r<4>; .reg .b64 %rd<3>;
mov.u32 %r1, %ctaid.x; ld.param.u32 %r2, [n]; add.u32 %r1, %r1, %r2; ld.param.u64 %rd1, [q];
cvta.to.global.u64 %rd2, %rd1; st.global.u32 [%rd2], %r1; ret; }
"#;
    let out = t.ptxas_run(PtxInput::Text { name: "two.ptx", text: PTX }, &["-v", "-arch", "sm_90"]).unwrap();
    let theirs = out.cubin.expect("ptxas wrote a cubin");
    let image = derive::from_cubin(&Cubin::parse(&theirs).unwrap()).unwrap();
    assert_eq!(image.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["second_kernel", "first"]);
    let ours = writer::write(&image).unwrap();
    assert!(ours == theirs, "differs: {}", first_difference(&theirs, &ours));
    let theirs_v: Vec<&str> = out.stderr.lines().filter(|l| !l.contains("Compile time =")).collect();
    assert_eq!(verbose::lines(&image), theirs_v);
}

/// Modules without kernels (libraries of device functions and data; the wild corpus has empty
/// ones): ptxas writes a cubin without code whose `.nv.info` holds MERCURY_ISA_VERSION alone,
/// with no `.rela.debug_frame` and the symtab's sh_info one past the last local symbol. The
/// writer must reproduce NVIDIA's file from its image, and our compiler must write the same
/// bytes from the PTX.
#[test]
fn kernelless_modules_match_ptxas() {
    let Some(t) = tools_or_skip("kernelless_modules_match_ptxas") else { return };
    const HEAD: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";
    const FUNCS: &str = r#"
.visible .func (.reg .b32 r) addone(.reg .b32 a) { add.u32 r, a, 1; ret; }
.func (.reg .b32 r) hidden(.reg .b32 a) { add.u32 r, a, 2; ret; }
"#;
    const DATA: &str = r#"
.global .align 4 .u32 gv = 7;
.const .align 4 .b32 cv[2] = {1, 2};
"#;
    const VISIBLE: &str = r#"
.visible .global .align 8 .u64 vg[4];
.global .align 4 .b8 buf[64];
.shared .align 4 .b32 sm[32];
.const .align 8 .u64 ptrs[1] = {generic(vg)};
.func (.param .b32 r) inner(.param .b32 a) { .reg .b32 t; ld.param.b32 t, [a]; st.param.b32 [r], t; ret; }
.weak .func (.reg .b32 r) wk(.reg .b32 a) { mul.lo.u32 r, a, 3; ret; }
.visible .func (.reg .b32 r) outer(.reg .b32 a)
{ .param .b32 p; .param .b32 q; st.param.b32 [p], a; call.uni (q), inner, (p); ld.param.b32 r, [q]; ret; }
"#;
    let cases = [
        ("empty", HEAD.to_string(), "sm_90"),
        ("funcs", format!("{HEAD}{FUNCS}"), "sm_90"),
        ("data", format!("{HEAD}{DATA}{FUNCS}"), "sm_90"),
        ("visible", format!("{HEAD}{VISIBLE}").replace("sm_90\n", "sm_90a\n"), "sm_90a"),
    ];
    let ours_bin = env!("CARGO_BIN_EXE_ptxas-rs");
    for (name, text, arch) in cases {
        let out = t.ptxas_run(PtxInput::Text { name: "lib.ptx", text: &text }, &["-arch", arch]).unwrap();
        let theirs = out.cubin.unwrap_or_else(|| panic!("{name}: ptxas wrote no cubin: {}", out.stderr));
        let image = derive::from_cubin(&Cubin::parse(&theirs).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(image.kernels.is_empty(), "{name}");
        let written = writer::write(&image).unwrap();
        assert!(written == theirs, "{name}: writer differs: {}", first_difference(&theirs, &written));
        let dir = std::env::temp_dir().join(format!("ptxas-rs-kernelless-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (src, dst) = (dir.join("lib.ptx"), dir.join("lib.cubin"));
        std::fs::write(&src, &text).unwrap();
        let o = Command::new(ours_bin).args(["-arch", arch]).arg(&src).arg("-o").arg(&dst).output().unwrap();
        assert!(o.status.success(), "{name}: ptxas-rs failed: {}", String::from_utf8_lossy(&o.stderr));
        let ours = std::fs::read(&dst).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(ours == theirs, "{name}: ptxas-rs's cubin differs: {}", first_difference(&theirs, &ours));
    }
}
