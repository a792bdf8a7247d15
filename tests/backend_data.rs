//! Module data (`.const` and `.global` variables) in the cubins our backend writes, against
//! NVIDIA's for the same PTX.
//!
//! For every CUDA corpus kernel whose sm_90 PTX declares a module `.const` or `.global`
//! variable and that [`ptxas_rs::backend::compile`] compiles (at -O0 and -O3), NVIDIA's ptxas
//! (`-arch sm_90`) compiles the same file, both cubins are read back into images
//! ([`ptxas_rs::cubin::derive::from_cubin`], which refuses what it cannot describe), and their
//! module data must agree: the variables (name, binding, section, size, initial bytes), the
//! sizes and alignments of `.nv.constant3`, `.nv.global.init` and `.nv.global`, and the
//! address table `.nv.constant4` (which variable each relocated slot holds; ptxas gives every
//! global variable a slot, as we do). Offsets within a section are not compared (see
//! [`facts`]).
//!
//! The end-to-end behaviour of these kernels (the emulator reading bank 3 and the relocated
//! bank 4) is checked by `interp/tests/e2e_corpus.rs`.

mod common;

use oracle::{PtxInput, tools_or_skip};
use ptxas_rs::cubin::{Cubin, derive, image};
use ptxas_rs::{backend, ptx};

/// Kernel-levels compared (all must agree); may only go up.
const FLOOR_COMPARED: usize = 12;

/// Variables whose initial bytes hold function pointers, which differ from ptxas's by design
/// (kernel, variable): ptxas stores a function's byte offset in the kernel's `.text` (no
/// relocation), ours are the abstract addresses `16 * (function index + 1)` that our indirect
/// calls dispatch on (`lower::isel::indirect`). Everything else of these kernels' data must
/// agree, and the listed bytes must still differ (a stale entry fails).
const FUNCTION_POINTERS: &[(&str, &str)] = &[("call_fnptr", "table")];

/// `facts` with the initial bytes of variable `var` left out.
fn without_bytes(facts: &[String], var: &str) -> Vec<String> {
    let prefix = format!("{var} ");
    facts
        .iter()
        .map(|f| match (f.starts_with(&prefix), f.find(" bytes ")) {
            (true, Some(at)) => format!("{} bytes <function pointers>", &f[..at]),
            _ => f.clone(),
        })
        .collect()
}

/// What is compared of a module's data, as text: per variable (sorted by name) its binding,
/// section, size and initial bytes (the section bytes at its offset), then the sections' sizes
/// and alignments and the address table. Offsets are not compared: ptxas places several
/// variables of one section in an order of its own (cg_block_float's ten 1-byte globals at
/// offsets 1, 6, 3, 8, 2, ... in PTX order); ours are in PTX order, and the writer checks that
/// each lies inside its section.
fn facts(d: &image::ModuleData) -> Vec<String> {
    let bytes_of = |v: &image::Variable| -> Vec<u8> {
        let sec = match v.space {
            image::Space::Constant => d.constant3.as_ref(),
            image::Space::GlobalInit => d.global_init.as_ref(),
            image::Space::Global => None,
        };
        sec.and_then(|s| s.bytes.get(v.offset as usize..(v.offset + v.size) as usize))
            .map_or(Vec::new(), <[u8]>::to_vec)
    };
    let mut vars: Vec<String> = d
        .variables
        .iter()
        .map(|v| format!("{} {:?} {:?} size {} bytes {:02x?}", v.name, v.bind, v.space, v.size, bytes_of(v)))
        .collect();
    vars.sort();
    let sec = |s: &Option<image::DataSection>| s.as_ref().map(|s| (s.bytes.len(), s.align, s.relocations.len()));
    vars.push(format!("constant3 {:?}", sec(&d.constant3)));
    vars.push(format!("global.init {:?}", sec(&d.global_init)));
    vars.push(format!("global {:?}", d.global));
    vars.push(format!("address table {:?}", d.address_table));
    vars
}

#[test]
fn module_data_matches_ptxas() {
    let Some(t) = tools_or_skip("module_data_matches_ptxas") else { return };
    let (mut compared, mut skipped, mut diffs) = (Vec::new(), Vec::new(), Vec::new());
    for c in common::corpus_ptx() {
        if c.arch != "sm_90" || c.path.components().any(|p| p.as_os_str() == "ptx") {
            continue;
        }
        let text = std::fs::read_to_string(&c.path).unwrap();
        if !text.lines().any(|l| {
            let l = l.trim_start();
            !l.starts_with("//") && (l.contains(".const .") || l.contains(".global .")) && !l.contains("(")
        }) {
            continue;
        }
        let name = c.path.file_stem().unwrap().to_string_lossy().replace(".sm_90", "");
        let ast = ptx::parse(&text, "in.ptx").unwrap();
        let out = t.ptxas_run(PtxInput::File { path: &c.path, cwd: None }, &["-arch", "sm_90"]).unwrap();
        let theirs = derive::from_cubin(&Cubin::parse(&out.cubin.expect("ptxas wrote a cubin")).unwrap()).unwrap();
        for level in [0u8, 3] {
            let opts = backend::Options { opt_level: level, ..backend::Options::default() };
            let ours = match backend::compile(&ast, &opts) {
                Ok(o) => o,
                Err(e) => {
                    skipped.push(format!("{name}@O{level} ({}: {})", e.stage, e.message));
                    continue;
                }
            };
            let mine = derive::from_cubin(&Cubin::parse(&ours.cubin).unwrap())
                .unwrap_or_else(|e| panic!("{name}@O{level}: our cubin does not read back: {e}"));
            let (a, b) = (facts(&mine.data), facts(&theirs.data));
            if let Some((_, var)) = FUNCTION_POINTERS.iter().find(|(k, _)| *k == name) {
                if a == b {
                    diffs.push(format!("{name}@O{level}: listed in FUNCTION_POINTERS but the data now agrees"));
                } else if without_bytes(&a, var) != without_bytes(&b, var) {
                    diffs.push(format!("{name}@O{level} (beyond `{var}`'s bytes):\n  ours  {a:?}\n  ptxas {b:?}"));
                }
            } else if a != b {
                diffs.push(format!("{name}@O{level}:\n  ours  {a:?}\n  ptxas {b:?}"));
            }
            compared.push(format!("{name}@O{level}"));
        }
    }
    println!("compared {}: {}", compared.len(), compared.join(" "));
    for s in &skipped {
        println!("    not compiled: {s}");
    }
    assert!(diffs.is_empty(), "module data differs:\n{}", diffs.join("\n"));
    assert!(
        compared.len() >= FLOOR_COMPARED,
        "only {} kernel-levels compared (floor {FLOOR_COMPARED})",
        compared.len()
    );
}
