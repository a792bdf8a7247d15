//! Shared memory in the cubins our backend writes, against NVIDIA's for the same PTX.
//!
//! For every CUDA corpus kernel whose sm_90 PTX declares `.shared` memory (static or
//! `extern`) and that [`ptxas_rs::backend::compile`] compiles (at -O3), NVIDIA's ptxas (`-v
//! -arch sm_90`) compiles the same file, and for each kernel:
//! 1. `.nv.shared.<kernel>` exists in both or in neither, with the same type (NOBITS), flags,
//!    size (0x400 reserved bytes plus the static variables), alignment, and `sh_info` naming
//!    the kernel's `.text`;
//! 2. the section has a section symbol in both or in neither (ptxas writes none when the kernel
//!    has only dynamic shared memory);
//! 3. the same number of dropped (nameless `STV_INTERNAL`) symbols: one per shared variable;
//! 4. the same `EIATTR_NUM_BARRIERS` (`bar.sync` uses barrier 0);
//! 5. the `-v` line's `bytes smem` figure (and `used N barriers`) is the same.
//!
//! The end-to-end behaviour of these kernels is checked by `interp/tests/e2e_corpus.rs`.
//! Report: `cargo test --test backend_shared -- --nocapture`.

mod common;

use oracle::{PtxInput, tools_or_skip};
use ptxas_rs::cubin::eiattr::code;
use ptxas_rs::cubin::{Cubin, verbose};
use ptxas_rs::{backend, ptx};

/// Kernels compared (all must agree); may only go up.
const FLOOR_COMPARED: usize = 7;

/// What this test compares of one kernel, as text (so a difference prints both sides).
fn facts(c: &Cubin, kernel: &str) -> Vec<String> {
    let mut out = Vec::new();
    let sec = c.section(&format!(".nv.shared.{kernel}"));
    match sec {
        None => out.push("no .nv.shared section".into()),
        Some(s) => {
            let text = c.sections.get(s.info as usize).map_or("?", |t| t.name.as_str());
            out.push(format!(
                ".nv.shared: type {:#x} flags {:#x} size {:#x} align {:#x} info -> {text}",
                s.kind, s.flags, s.size, s.align
            ));
            let sym = c.symbols.iter().any(|y| y.kind() == 3 && u32::from(y.shndx) == s.index);
            out.push(format!("section symbol: {sym}"));
        }
    }
    let dropped = c.symbols.iter().filter(|y| y.index != 0 && y.name.is_empty() && y.other == 1).count();
    out.push(format!("dropped symbols: {dropped}"));
    let bars =
        c.function_info(kernel).and_then(|i| i.records.iter().find(|r| r.code == code::NUM_BARRIERS)).map(|r| r.x);
    out.push(format!("NUM_BARRIERS: {bars:?}"));
    out
}

/// The `-v` figures this test compares: `used N barriers` and `N bytes smem` of the entry line.
fn verbose_figures(line: &str) -> String {
    line.split(", ")
        .filter(|p| p.contains("barriers") || p.contains("smem"))
        .map(|p| p.trim().trim_start_matches("Used ").to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn shared_sections_match_ptxas() {
    let Some(t) = tools_or_skip("shared_sections_match_ptxas") else { return };
    let mut compared = Vec::new();
    let mut skipped = Vec::new();
    let mut diffs = Vec::new();
    for c in common::corpus_ptx() {
        if c.arch != "sm_90" || c.path.components().any(|p| p.as_os_str() == "ptx") {
            continue;
        }
        let text = std::fs::read_to_string(&c.path).unwrap();
        if !text.contains(".shared .") {
            continue;
        }
        let name = c.path.file_stem().unwrap().to_string_lossy().replace(".sm_90", "");
        let ast = ptx::parse(&text, "in.ptx").unwrap();
        let opts = backend::Options { opt_level: 3, ..backend::Options::default() };
        let ours = match backend::compile(&ast, &opts) {
            Ok(o) => o,
            Err(e) => {
                skipped.push(format!("{name} ({}: {})", e.stage, e.message));
                continue;
            }
        };
        let out = t.ptxas_run(PtxInput::File { path: &c.path, cwd: None }, &["-v", "-arch", "sm_90"]).unwrap();
        let theirs = Cubin::parse(&out.cubin.expect("ptxas wrote a cubin")).unwrap();
        let mine = Cubin::parse(&ours.cubin).unwrap();
        for k in &ours.image.kernels {
            let (a, b) = (facts(&mine, &k.name), facts(&theirs, &k.name));
            if a != b {
                diffs.push(format!("{}: ours {a:?}\n    ptxas {b:?}", k.name));
            }
            let ours_v = verbose::lines(&ours.image)
                .into_iter()
                .find(|l| l.contains("Used ") && l.contains("registers"))
                .map(|l| verbose_figures(&l));
            // ptxas prints the function's properties line, then its `Used` line.
            let their_v = out
                .stderr
                .lines()
                .skip_while(|l| !l.contains(&format!("'{}'", k.name)))
                .find(|l| l.contains("Used ") && l.contains("registers"))
                .map(verbose_figures);
            if ours_v != their_v {
                diffs.push(format!("{}: -v ours {ours_v:?}, ptxas {their_v:?}", k.name));
            }
            compared.push(k.name.clone());
        }
    }
    println!("compared {} kernels: {}", compared.len(), compared.join(" "));
    println!("not compiled by our backend yet: {}", skipped.len());
    for s in &skipped {
        println!("    {s}");
    }
    assert!(diffs.is_empty(), "shared-memory facts differ:\n{}", diffs.join("\n"));
    assert!(compared.len() >= FLOOR_COMPARED, "only {} kernels compared (floor {FLOOR_COMPARED})", compared.len());
}
