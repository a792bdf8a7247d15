//! `ptxas-rs disasm --hex` against nvdisasm: for sm_90, sm_90a, sm_80, sm_86, sm_89, sm_75, sm_100 and sm_120 corpus
//! kernels (every fifth file of each arch, and those with calls or indirect branches) compiled by NVIDIA ptxas,
//! our listing — parsed with the oracle's own nvdisasm-listing parser, so both sides are read the
//! same way — has the same functions, offsets and words as nvdisasm's, and the same text for every
//! instruction we decode, labels included. Undecoded instructions are counted, never guessed; in a
//! function that has some, label *numbers* are compared masked (an undecoded branch's target takes
//! a number in nvdisasm's count that we cannot know).

mod common;

use std::process::Command;

#[test]
fn disasm_matches_nvdisasm() {
    let Some(t) = oracle::tools_or_skip("disasm_matches_nvdisasm") else { return };
    const ARCHS: &[&str] = &["sm_90", "sm_90a", "sm_80", "sm_86", "sm_89", "sm_75", "sm_100", "sm_120"];
    // Every fifth file of each arch, and every file with calls or indirect branches (CALL/RET
    // name functions, BRX lists its targets: the listing reads symbols and EIATTRs for them).
    const CONTEXT: &[&str] = &["call_recursive", "brx_idx", "callproto_indirect", "func_recursion", "func_params"];
    let files: Vec<_> = ARCHS
        .iter()
        .flat_map(|a| {
            common::corpus_ptx().into_iter().filter(move |c| c.arch == *a).enumerate().filter(|(i, c)| {
                let stem = c.path.file_stem().unwrap().to_string_lossy();
                i % 5 == 0 || CONTEXT.iter().any(|k| stem == *k || stem.starts_with(&format!("{k}.")))
            })
        })
        .map(|(_, c)| c)
        .collect();
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-disasm-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let counts = std::sync::Mutex::new(std::collections::BTreeMap::<String, (usize, usize, usize)>::new());
    let failures = common::par::par_check(&files, |c| {
        let what = c.path.display().to_string();
        let out = t
            .ptxas_run(oracle::PtxInput::File { path: &c.path, cwd: None }, &["-arch", &c.arch])
            .map_err(|e| format!("{what}: {e}"))?;
        let cubin = out.cubin.ok_or_else(|| format!("{what}: no cubin"))?;
        let reference = t.disassemble(&cubin).map_err(|e| format!("{what}: {e}"))?;
        let path = scratch.join(format!("{}.cubin", c.path.file_stem().unwrap().to_string_lossy()));
        std::fs::write(&path, &cubin).unwrap();
        let run = Command::new(env!("CARGO_BIN_EXE_ptxas-rs")).args(["disasm", "--hex"]).arg(&path).output().unwrap();
        if !matches!(run.status.code(), Some(0 | 1)) {
            return Err(format!("{what}: disasm failed: {}", String::from_utf8_lossy(&run.stderr)));
        }
        let ours = oracle::disasm::parse(&String::from_utf8_lossy(&run.stdout))
            .map_err(|e| format!("{what}: our listing: {e}"))?;
        let names = |l: &oracle::Listing| l.functions.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
        if names(&ours) != names(&reference) {
            return Err(format!("{what}: functions {:?} vs nvdisasm {:?}", names(&ours), names(&reference)));
        }
        let (mut same, mut undecoded) = (0, 0);
        let mask = |t: &str| {
            let mut out = String::new();
            let mut rest = t;
            while let Some(i) = rest.find(".L_x_") {
                out.push_str(&rest[..i + 5]);
                rest = rest[i + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
                out.push('N');
            }
            out + rest
        };
        for (a, b) in ours.functions.iter().zip(&reference.functions) {
            let partial = a.instructions.iter().any(|x| x.text.starts_with("<not decoded"));
            if a.instructions.len() != b.instructions.len() {
                return Err(format!(
                    "{what}: {}: {} vs {} instructions",
                    a.name,
                    a.instructions.len(),
                    b.instructions.len()
                ));
            }
            for (x, y) in a.instructions.iter().zip(&b.instructions) {
                if (x.offset, x.word) != (y.offset, y.word) {
                    return Err(format!("{what}: {} at {:#x}: offset/word differ", a.name, y.offset));
                }
                if x.text.starts_with("<not decoded") {
                    undecoded += 1;
                } else if if partial { mask(&x.text) != mask(&y.text) } else { x.text != y.text } {
                    return Err(format!(
                        "{what}: {} at {:#x}: ours {:?}, nvdisasm {:?}",
                        a.name, y.offset, x.text, y.text
                    ));
                } else {
                    same += 1;
                }
            }
        }
        let mut all = counts.lock().unwrap();
        let n = all.entry(c.arch.clone()).or_default();
        n.0 += 1;
        n.1 += same;
        n.2 += undecoded;
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let counts = counts.into_inner().unwrap();
    assert!(failures.is_empty(), "{} of {} cubins:\n{}", failures.len(), files.len(), failures.join("\n"));
    for arch in ARCHS {
        let (cubins, same, undecoded) = counts.get(*arch).copied().unwrap_or_default();
        println!(
            "disasm {arch}: {cubins} cubins, {same} instructions identical to nvdisasm, {undecoded} not decoded yet"
        );
        assert!(same > 0, "{arch}: nothing compared");
        // Every sampled word decodes, CALL/RET/BRX included (they read symbols and EIATTRs).
        assert_eq!(undecoded, 0, "{arch}: {undecoded} instructions not decoded");
    }
}

/// Relocatable code (`ptxas -c`): `CALL.ABS` names the relocation's symbol as nvdisasm does,
/// `RET.ABS` prints its absolute field, and a relocated return address prints as nvdisasm's
/// expression (`MOV R20, 32@lo((call_recursive + .L_x_4@srel))`, whose labels take the first
/// numbers of the file): every instruction's text equals nvdisasm's, label numbers included.
#[test]
fn disasm_relocatable_calls() {
    let Some(t) = oracle::tools_or_skip("disasm_relocatable_calls") else { return };
    let path = common::corpus_dir().join("cuda/call_recursive/call_recursive.sm_90.ptx");
    let out = t.ptxas_run(oracle::PtxInput::File { path: &path, cwd: None }, &["-arch", "sm_90", "-c"]).unwrap();
    let cubin = out.cubin.expect("a cubin");
    let reference = t.disassemble(&cubin).unwrap();
    let listing = ptxas_rs::disasm::listing(&cubin, true).unwrap();
    assert_eq!(listing.undecoded, 0, "{}", listing.text);
    let ours = oracle::disasm::parse(&listing.text).unwrap();
    let (mut calls, mut relocated) = (0, 0);
    assert_eq!(ours.functions.len(), reference.functions.len());
    for (a, b) in ours.functions.iter().zip(&reference.functions) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.instructions.len(), b.instructions.len());
        for (x, y) in a.instructions.iter().zip(&b.instructions) {
            assert_eq!(x.text, y.text, "{} at {:#x}", a.name, y.offset);
            calls += usize::from(y.text.starts_with("CALL.ABS") || y.text.starts_with("RET.ABS"));
            relocated += usize::from(y.text.contains("@srel"));
        }
    }
    println!("relocatable call_recursive: {calls} CALL.ABS/RET.ABS and {relocated} relocated MOVs equal to nvdisasm");
    assert!(calls >= 4 && relocated >= 8, "compared: {calls} calls, {relocated} relocated MOVs");
}
