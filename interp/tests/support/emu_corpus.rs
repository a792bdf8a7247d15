//! Helpers shared by the emulator corpus tests (included with `#[path]`): the sm_90 corpus,
//! NVIDIA's cubin for a kernel, and nvdisasm's modifier text per instruction.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use interp::launch::LaunchSpec;

/// (kernel, sm_90 PTX, launch spec) of every CUDA corpus kernel with an sm_90 PTX.
pub fn corpus() -> Vec<(String, PathBuf, PathBuf)> {
    corpus_for("sm_90")
}

/// (kernel, PTX for `arch`, launch spec) of every CUDA corpus kernel with a PTX for `arch`
/// (`corpus/cuda/<k>/<k>.<arch>.ptx`) and a launch spec, sorted.
pub fn corpus_for(arch: &str) -> Vec<(String, PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cuda");
    let mut v = Vec::new();
    for e in std::fs::read_dir(&root).unwrap() {
        let dir = e.unwrap().path();
        let k = dir.file_name().unwrap().to_string_lossy().into_owned();
        let ptx = dir.join(format!("{k}.{arch}.ptx"));
        let spec = dir.join(format!("{k}.run.toml"));
        if ptx.exists() && spec.exists() {
            v.push((k, ptx, spec));
        }
    }
    v.sort();
    v
}

/// Runs an NVIDIA tool (`t.nvdisasm()`, `t.cuobjdump()`) with `args` on `bytes` (memoised by
/// content); `Err` unless it succeeds with nothing on stderr.
pub fn silent_on(t: &oracle::Tools, tool: &Path, args: &[&str], bytes: &[u8]) -> Result<(), String> {
    let out = t.tool_on_bytes(tool, args, "in.cubin", bytes).map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || !stderr.trim().is_empty() {
        return Err(format!("status {}: {}", out.status, stderr.trim()));
    }
    Ok(())
}

/// NVIDIA's tools' verdict on many of our cubins, with few tool starts (`nvdisasm` spends about
/// a second starting up, which made most of these suites' time when it ran once per cubin):
/// - every cubin through `cuobjdump -elf` (quick), which must print nothing on stderr;
/// - every code word of every cubin (`.text.*` sections) through one raw `nvdisasm -b SM<nn>`
///   run per arch, which must decode each of them;
/// - every `whole_every`-th cubin (and each one named in `PTXAS_RS_NVDISASM_ALL`, or all when
///   that is `1`) through `nvdisasm` as a cubin, which must print nothing on stderr: the
///   ELF-level reading (sections, symbols, relocations), which does not depend on the kernel
///   as the words do.
///
/// Returns one verdict per cubin, in order.
pub fn accepted_by_tools(t: &oracle::Tools, cubins: &[(String, &[u8])], whole_every: usize) -> Vec<Result<(), String>> {
    let all = std::env::var("PTXAS_RS_NVDISASM_ALL").unwrap_or_default();
    let mut verdicts: Vec<Result<(), String>> = cubins
        .iter()
        .enumerate()
        .map(|(i, (name, bytes))| {
            silent_on(t, &t.cuobjdump(), &["-elf"], bytes).map_err(|e| format!("cuobjdump -elf: {e}"))?;
            if all == "1" || all.split(',').any(|n| n == name) || i % whole_every.max(1) == 0 {
                silent_on(t, &t.nvdisasm(), &[], bytes).map_err(|e| format!("nvdisasm: {e}"))?;
            }
            Ok(())
        })
        .collect();
    // (arch, [(cubin index, word)])
    let mut words: BTreeMap<String, Vec<(usize, u128)>> = BTreeMap::new();
    for (i, (_, bytes)) in cubins.iter().enumerate() {
        let cubin = match ptxas_rs::cubin::Cubin::parse(bytes) {
            Ok(c) => c,
            Err(e) => {
                verdicts[i] = Err(format!("our cubin reader: {e}"));
                continue;
            }
        };
        let arch = format!("SM{}{}", cubin.sm(), if cubin.accelerated() { "a" } else { "" });
        let list = words.entry(arch).or_default();
        for s in cubin.sections.iter().filter(|s| s.name.starts_with(".text.")) {
            list.extend(s.data.chunks_exact(16).map(|w| (i, u128::from_le_bytes(w.try_into().unwrap()))));
        }
    }
    for (arch, list) in words {
        let raw: Vec<u128> = list.iter().map(|&(_, w)| w).collect();
        match t.disassemble_raw(&arch, &raw) {
            Ok(texts) => {
                for ((i, w), text) in list.iter().zip(texts) {
                    if text.is_none() && verdicts[*i].is_ok() {
                        verdicts[*i] = Err(format!("nvdisasm -b {arch}: illegal instruction {w:#034x}"));
                    }
                }
            }
            Err(e) => {
                for (i, _) in &list {
                    if verdicts[*i].is_ok() {
                        verdicts[*i] = Err(format!("nvdisasm -b {arch}: {e}"));
                    }
                }
            }
        }
    }
    verdicts
}

/// Compiles with NVIDIA ptxas for sm_90.
pub fn nvidia_cubin(t: &oracle::Tools, ptx: &Path) -> Vec<u8> {
    nvidia_cubin_with(t, ptx, &["-arch", "sm_90"])
}

/// Compiles with NVIDIA ptxas and the given arguments (panics with ptxas's message on failure).
pub fn nvidia_cubin_with(t: &oracle::Tools, ptx: &Path, args: &[&str]) -> Vec<u8> {
    let out = t.ptxas_run(oracle::PtxInput::File { path: ptx, cwd: None }, args).unwrap();
    out.cubin.unwrap_or_else(|| panic!("ptxas failed on {}: {}", ptx.display(), out.stderr))
}

/// The modifier suffix of each instruction of `kernel`'s section, from nvdisasm's listing
/// (see `interp::emu::program::listing_suffix`).
pub fn nvdisasm_suffixes(t: &oracle::Tools, cubin: &[u8], kernel: &str) -> BTreeMap<u32, String> {
    let listing = t.disassemble(cubin).unwrap();
    let f = listing.function(kernel).unwrap();
    f.instructions.iter().map(|i| (i.offset as u32, interp::emu::program::listing_suffix(&i.text))).collect()
}

/// Every corpus kernel with a launch spec (`<dir>/<k>.run.toml`): its name, its directory, and
/// whether it is hand-written PTX (`corpus/ptx`) rather than a CUDA kernel (`corpus/cuda`),
/// sorted by name.
pub fn spec_dirs() -> Vec<(String, PathBuf, bool)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut v = Vec::new();
    for (dir, hand) in [("cuda", false), ("ptx", true)] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let d = e.unwrap().path();
            let k = d.file_name().unwrap().to_string_lossy().into_owned();
            if d.join(format!("{k}.run.toml")).exists() {
                v.push((k, d, hand));
            }
        }
    }
    v.sort();
    v
}

/// The output buffers `dir/<buffer>.bin` of `spec`, or None when one is missing.
pub fn read_outputs(dir: &Path, spec: &LaunchSpec) -> Option<BTreeMap<String, Vec<u8>>> {
    spec.outputs()
        .map(|b| Some((b.name().to_string(), std::fs::read(dir.join(format!("{}.bin", b.name()))).ok()?)))
        .collect()
}
