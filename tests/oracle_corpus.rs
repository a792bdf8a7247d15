//! The corpus against NVIDIA's ptxas 13.0.88:
//! - every corpus PTX is accepted for its arch;
//! - every error-corpus file is rejected with exactly the recorded diagnostics;
//! - on corpus kernels, ptxas + nvdisasm + cuobjdump give a sane listing, and the `-v` register
//!   count equals the cubin's metadata, read both by cuobjdump and from the ELF bytes directly.

mod common;

use common::par::par_check;
use common::{corpus_dir, corpus_ptx, error_corpus};
use oracle::{PtxInput, tools_or_skip};
use std::path::Path;

#[test]
fn corpus_ptx_is_accepted_by_ptxas() {
    let Some(t) = tools_or_skip("corpus_ptx_is_accepted_by_ptxas") else { return };
    let files = corpus_ptx();
    assert!(files.len() >= 80, "the corpus has only {} PTX files", files.len());
    let failures = par_check(&files, |c| {
        let out = t
            .ptxas_run(PtxInput::File { path: &c.path, cwd: None }, &["-arch", &c.arch])
            .map_err(|e| format!("{}: {e}", c.path.display()))?;
        if out.success() && out.cubin.is_some() {
            Ok(())
        } else {
            Err(format!("{} (-arch {}): {}", c.path.display(), c.arch, out.stderr.trim_end()))
        }
    });
    assert!(
        failures.is_empty(),
        "{} of {} corpus files rejected:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    println!("ptxas accepted all {} corpus PTX files", files.len());
}

/// The arguments on an error-corpus file's first line (`// ptxas-args: ...`).
fn recorded_args(text: &str) -> Option<Vec<String>> {
    let rest = text.lines().next()?.strip_prefix("// ptxas-args:")?;
    Some(rest.split_whitespace().map(str::to_string).collect())
}

#[test]
fn error_corpus_is_rejected_with_recorded_diagnostics() {
    let Some(t) = tools_or_skip("error_corpus_is_rejected_with_recorded_diagnostics") else { return };
    let files = error_corpus();
    assert!(files.len() >= 100, "the error corpus has only {} files", files.len());
    let dir = corpus_dir().join("errors");
    let failures = par_check(&files, |path| {
        let name = path.file_name().unwrap();
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let args = recorded_args(&text).ok_or_else(|| format!("{}: no `// ptxas-args:` first line", path.display()))?;
        let expected = std::fs::read_to_string(path.with_extension("stderr"))
            .map_err(|e| format!("{}: no recorded .stderr ({e})", path.display()))?;
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = t
            .ptxas_run(PtxInput::File { path: Path::new(name), cwd: Some(&dir) }, &args)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if out.code != Some(255) {
            return Err(format!("{}: ptxas exited {:?}, expected 255", path.display(), out.code));
        }
        if out.cubin.is_some() {
            return Err(format!("{}: ptxas wrote an output file for a rejected input", path.display()));
        }
        if out.stderr != expected {
            let diff = similar::TextDiff::from_lines(expected.as_str(), out.stderr.as_str());
            return Err(format!("{}: stderr differs from the recording:\n{}", path.display(), diff.unified_diff()));
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{} of {} error-corpus files:\n{}", failures.len(), files.len(), failures.join("\n"));
    println!("ptxas rejected all {} error-corpus files with the recorded diagnostics", files.len());
}

/// The register count a cubin records for `function`, read from the ELF bytes: sm_75–sm_89 put
/// it in bits 24.. of the `.text.<function>` section's sh_info, sm_90+ in an `EIATTR_REGCOUNT`
/// (attribute 0x2f, SVAL `[symbol index, count]`) record of the global `.nv.info` section.
fn elf_register_count(cubin: &[u8], function: &str) -> Option<u32> {
    use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
    use object::{Object, ObjectSection, ObjectSymbol};
    let elf = ElfFile64::<object::Endianness>::parse(cubin).ok()?;
    let endian = elf.endian();
    let sym = elf.symbols().find(|s| s.name() == Ok(function))?.index().0 as u32;
    if let Some(info) = elf.section_by_name(".nv.info").and_then(|s| s.data().ok()) {
        let mut at = 0;
        while at + 4 <= info.len() {
            let (fmt, attr, len) = (info[at], info[at + 1], u16::from_le_bytes([info[at + 2], info[at + 3]]) as usize);
            let payload = info.get(at + 4..at + 4 + if fmt == 4 { len } else { 0 })?;
            if fmt == 4
                && attr == 0x2f
                && payload.len() == 8
                && u32::from_le_bytes(payload[..4].try_into().ok()?) == sym
            {
                return Some(u32::from_le_bytes(payload[4..].try_into().ok()?));
            }
            at += 4 + if fmt == 4 { len } else { 0 };
        }
    }
    let text = elf.section_by_name(&format!(".text.{function}"))?;
    let headers = elf.elf_header().section_headers(endian, cubin).ok()?;
    Some(headers.get(text.index().0)?.sh_info(endian) >> 24).filter(|&r| r != 0)
}

#[test]
fn ptxas_and_nvdisasm_on_corpus_kernels_are_consistent() {
    let Some(t) = tools_or_skip("ptxas_and_nvdisasm_on_corpus_kernels_are_consistent") else { return };
    let files: Vec<_> =
        corpus_ptx().into_iter().filter(|c| ["sm_75", "sm_80", "sm_90", "sm_100"].contains(&c.arch.as_str())).collect();
    assert!(!files.is_empty());
    // Every 4th file keeps the test quick while still covering each arch and many kernels.
    let files: Vec<_> = files.into_iter().step_by(4).collect();
    let failures = par_check(&files, |c| {
        let what = format!("{} (-arch {})", c.path.display(), c.arch);
        let out = t
            .ptxas_run(PtxInput::File { path: &c.path, cwd: None }, &["-arch", &c.arch, "-v"])
            .map_err(|e| format!("{what}: {e}"))?;
        let cubin = out.cubin.as_ref().ok_or_else(|| format!("{what}: no cubin: {}", out.stderr))?;
        let listing = t.disassemble(cubin).map_err(|e| format!("{what}: {e}"))?;
        let dump = t.elf_dump(cubin).map_err(|e| format!("{what}: {e}"))?;
        let entries: Vec<_> = out.resources.functions.iter().filter(|f| f.entry).collect();
        if entries.is_empty() {
            return Err(format!("{what}: -v reported no entry function"));
        }
        for f in entries {
            let regs = f.registers.ok_or_else(|| format!("{what}: no register count for {}", f.name))?;
            let func = listing.function(&f.name).ok_or_else(|| format!("{what}: {} not in the listing", f.name))?;
            if func.instructions.is_empty() || !func.instructions.iter().any(|i| i.text.contains("EXIT")) {
                return Err(format!("{what}: {}: empty listing or no EXIT", f.name));
            }
            if func.instructions.iter().enumerate().any(|(k, i)| i.offset != 16 * k as u64) {
                return Err(format!("{what}: {}: offsets not contiguous", f.name));
            }
            let from_dump = dump.register_count(&f.name);
            let from_elf = elf_register_count(cubin, &f.name);
            if from_dump != Some(regs) || from_elf != Some(regs) {
                return Err(format!(
                    "{what}: {}: -v says {regs} registers, cuobjdump {from_dump:?}, the ELF {from_elf:?}",
                    f.name
                ));
            }
            if !(1..=255).contains(&regs) {
                return Err(format!("{what}: {}: {regs} registers", f.name));
            }
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{} of {} checks failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}
