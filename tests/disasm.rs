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

/// `ptxas-rs disasm FILE` with `args`; (status, stdout, stderr).
fn ours(args: &[&str], file: &std::path::Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxas-rs")).arg("disasm").args(args).arg(file).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// Known differences from nvdisasm, left out of the whole-text comparison (each a named gap):
/// call_fnptr, call_recursive on sm_100/sm_120: the end label's number (`.size` lines and the
/// final label) is one past nvdisasm's (the listing counts RETs - 1 numbers for the returns;
/// these take fewer); ctrl_switch_*: a `BRX` comment's column under `-raw` and the `-hex` column
/// after it.
const TEXT_GAPS: &[&str] = &["call_fnptr", "call_recursive.sm_1", "ctrl_switch_"];

/// The whole text of `ptxas-rs disasm` equals nvdisasm's, for each supported option (`-c`,
/// `-c -hex`, `-c -raw`, `-c -ndf`, `-c -fun <index>`, and the DOT graphs of `-bbcfg` and `-cfg`), on a sample
/// of corpus kernels of every
/// arch with a backend (every 15th file of each arch), compiled by NVIDIA's ptxas and (the first
/// two of each arch's sample) by ours. The sweep of every corpus kernel is
/// `disasm_text_equals_nvdisasm_full` (`--ignored`).
#[test]
fn disasm_text_equals_nvdisasm_per_option() {
    text_equals_nvdisasm("disasm_text_equals_nvdisasm_per_option", 15, 2);
}

/// [`disasm_text_equals_nvdisasm_per_option`] on every corpus kernel, both cubins of each.
#[test]
#[ignore = "full sweep: several minutes"]
fn disasm_text_equals_nvdisasm_full() {
    text_equals_nvdisasm("disasm_text_equals_nvdisasm_full", 1, usize::MAX);
}

fn text_equals_nvdisasm(test: &str, step: usize, ours_per_arch: usize) {
    let Some(t) = oracle::tools_or_skip(test) else { return };
    const ARCHS: &[&str] = &["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"];
    let files: Vec<(bool, common::CorpusPtx)> = ARCHS
        .iter()
        .flat_map(|a| {
            common::corpus_ptx()
                .into_iter()
                .filter(move |c| c.arch == *a)
                .filter(|c| !TEXT_GAPS.iter().any(|g| c.path.to_string_lossy().contains(g)))
                .step_by(step)
                .enumerate()
                .map(move |(i, c)| (i < ours_per_arch, c))
        })
        .collect();
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-disasm-opts-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let counts = std::sync::Mutex::new(std::collections::BTreeMap::<String, (usize, usize)>::new());
    let failures = common::par::par_check(&files, |(with_ours, c)| {
        let stem = c.path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut cubins = Vec::new();
        let nv = t.ptxas_run(oracle::PtxInput::File { path: &c.path, cwd: None }, &["-arch", &c.arch]);
        if let Some(cubin) = nv.ok().and_then(|o| o.cubin) {
            cubins.push(("nvidia", cubin));
        }
        let path = scratch.join(format!("{stem}.ours.cubin"));
        if *with_ours {
            let run = Command::new(env!("CARGO_BIN_EXE_ptxas-rs"))
                .args(["-arch", &c.arch])
                .arg(&c.path)
                .arg("-o")
                .arg(&path)
                .output()
                .unwrap();
            if run.status.success() {
                cubins.push(("ours", std::fs::read(&path).unwrap()));
            }
        }
        for (who, cubin) in cubins {
            let path = scratch.join(format!("{stem}.{who}.cubin"));
            std::fs::write(&path, &cubin).unwrap();
            let parsed = ptxas_rs::cubin::Cubin::parse(&cubin).map_err(|e| format!("{stem}: {e}"))?;
            let fun = parsed.functions.iter().find(|f| f.offset == 0).map(|f| f.symbol.to_string()).unwrap_or_default();
            let option_sets: [&[&str]; 7] = [
                &["-c"],
                &["-c", "-hex"],
                &["-c", "-raw"],
                &["-c", "-ndf"],
                &["-c", "-fun", &fun],
                &["-bbcfg"],
                &["-cfg"],
            ];
            for args in option_sets {
                let reference =
                    t.tool_on_bytes(&t.nvdisasm(), args, "in.cubin", &cubin).map_err(|e| format!("{stem}: {e}"))?;
                let reference = String::from_utf8_lossy(&reference.stdout).into_owned();
                let (status, text, err) = ours(args, &path);
                if status != 0 || text != reference {
                    let diff: Vec<String> = text
                        .lines()
                        .zip(reference.lines())
                        .filter(|(a, b)| a != b)
                        .take(3)
                        .map(|(a, b)| format!("  ours     {a:?}\n  nvdisasm {b:?}"))
                        .collect();
                    return Err(format!("{stem} ({who} cubin) {args:?}: status {status} {err}\n{}", diff.join("\n")));
                }
                let mut all = counts.lock().unwrap();
                let n = all.entry(format!("{} {who}", c.arch)).or_default();
                n.0 += 1;
                n.1 += text.lines().count();
            }
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{} of {} kernels:\n{}", failures.len(), files.len(), failures.join("\n"));
    let counts = counts.into_inner().unwrap();
    for (k, (listings, lines)) in &counts {
        println!("disasm options {k}: {listings} listings ({lines} lines) equal to nvdisasm's");
    }
    for a in ARCHS {
        assert!(counts.keys().any(|k| k.starts_with(&format!("{a} nvidia"))), "{a}: nothing compared");
    }
}

/// `-b SMxy` on raw words (the code of NVIDIA cubins of every arch), with `-hex` and `-base`:
/// the whole text equals `nvdisasm -b`'s.
#[test]
fn disasm_raw_words_equal_nvdisasm() {
    let Some(t) = oracle::tools_or_skip("disasm_raw_words_equal_nvdisasm") else { return };
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-disasm-raw-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut compared = 0;
    for (arch, nv) in [
        ("sm_75", "SM75"),
        ("sm_80", "SM80"),
        ("sm_86", "SM86"),
        ("sm_89", "SM89"),
        ("sm_90", "SM90"),
        ("sm_100", "SM100"),
        ("sm_120", "SM120"),
    ] {
        let path = common::corpus_dir().join(format!("cuda/algo_histogram/algo_histogram.{arch}.ptx"));
        let out = t.ptxas_run(oracle::PtxInput::File { path: &path, cwd: None }, &["-arch", arch]).unwrap();
        let cubin = ptxas_rs::cubin::Cubin::parse(&out.cubin.unwrap()).unwrap();
        let bytes: Vec<u8> = cubin.functions[0].words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let file = scratch.join(format!("{arch}.bin"));
        std::fs::write(&file, &bytes).unwrap();
        for extra in [&[][..], &["-hex"], &["-base", "0x100"], &["-raw"]] {
            let mut args = vec!["-b", nv];
            args.extend_from_slice(extra);
            let reference = t.tool_on_bytes(&t.nvdisasm(), &args, "raw.bin", &bytes).unwrap();
            let (status, text, err) = ours(&args, &file);
            assert_eq!(status, 0, "{arch} {args:?}: {err}");
            assert_eq!(text, String::from_utf8_lossy(&reference.stdout), "{arch} {args:?}");
            compared += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("disasm -b: {compared} raw-word listings equal to nvdisasm's");
}

/// The command line: `--help` with an example, unknown and not-yet-supported options refused
/// by name, a missing file, and a host object named as such (never decoded as SASS).
#[test]
fn disasm_cli_help_and_errors() {
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-disasm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let none = scratch.join("none.cubin");
    let (status, help, _) = ours(&["--help"], &none);
    assert_eq!(status, 0);
    assert!(help.contains("Usage  : ptxas-rs disasm") && help.contains("Example:") && help.contains("-fun"), "{help}");
    let (status, _, err) = ours(&["-bogus"], &none);
    assert_eq!((status, err.trim()), (2, "ptxas-rs disasm: unknown option '-bogus' (see ptxas-rs disasm --help)"));
    for (opt, long) in [("-g", "--print-line-info"), ("-gi", "--print-line-info-inline"), ("-json", "--emit-json")] {
        let (status, _, err) = ours(&[opt], &none);
        assert_eq!(
            (status, err.trim().to_string()),
            (2, format!("ptxas-rs disasm: option {opt} ({long}) is not supported yet"))
        );
    }
    let (status, _, err) = ours(&[], &none);
    assert_eq!(status, 2);
    assert!(err.contains("none.cubin") && err.contains("No such file"), "{err}");
    let (status, _, err) = ours(&["-base", "0x10"], &none);
    assert_eq!((status, err.trim()), (2, "ptxas-rs disasm: option -base is only valid with -b (raw words)"));
    // Not an ELF at all.
    let text = scratch.join("k.ptx");
    std::fs::write(&text, ".version 8.0\n").unwrap();
    let (status, out, err) = ours(&[], &text);
    assert_eq!((status, out.as_str()), (2, ""));
    assert!(err.contains("is not an ELF file"), "{err}");
    // A host object made by the C compiler: no fatbin section.
    let src = scratch.join("host.c");
    std::fs::write(&src, "int f(int x) { return x + 1; }\n").unwrap();
    let obj = scratch.join("host.o");
    let cc = Command::new("cc").arg("-c").arg(&src).arg("-o").arg(&obj).status();
    if cc.is_ok_and(|s| s.success()) {
        let (status, out, err) = ours(&[], &obj);
        assert_eq!((status, out.as_str()), (2, ""), "{err}");
        assert!(err.contains("is a host ELF object") && err.contains("no fatbin section"), "{err}");
        // The same with a `.nv_fatbin` section (as nvcc makes): the section is named.
        let with = scratch.join("fat.o");
        let oc = Command::new("objcopy")
            .args(["--add-section", &format!(".nv_fatbin={}", src.display())])
            .arg(&obj)
            .arg(&with)
            .status();
        if oc.is_ok_and(|s| s.success()) {
            let (status, _, err) = ours(&[], &with);
            assert_eq!(status, 2);
            assert!(err.contains("in the fatbin section .nv_fatbin"), "{err}");
        } else {
            println!("SKIPPED: objcopy not found (host object with a .nv_fatbin section)");
        }
    } else {
        println!("SKIPPED: cc not found (host object test)");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// `-bbcfg`'s and `-cfg`'s DOT is accepted by Graphviz `dot` (rendered to SVG) for kernels with loops, calls
/// and indirect branches. Graphviz is installed with `apt-get` when missing (as the wild corpus
/// installs clang); without it the test prints `SKIPPED:`, or fails where the oracle is required
/// (CI, `PTXAS_RS_ORACLE=required`) or `CI` is set.
#[test]
fn disasm_bbcfg_renders_with_graphviz() {
    let Some(t) = oracle::tools_or_skip("disasm_bbcfg_renders_with_graphviz") else { return };
    let has_dot = || Command::new("dot").arg("-V").output().is_ok_and(|o| o.status.success());
    if !has_dot() {
        let _ = Command::new("sh")
            .args(["-c", "{ apt-get update -qq && apt-get install -y -qq graphviz; } >/dev/null 2>&1"])
            .status();
    }
    if !has_dot() {
        let required = std::env::var_os("CI").is_some() || oracle::required();
        assert!(!required, "Graphviz `dot` is required (apt-get install graphviz failed)");
        println!("SKIPPED: Graphviz `dot` not installed (apt-get install graphviz)");
        return;
    }
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-disasm-dot-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut rendered = 0;
    for k in ["algo_histogram.sm_80", "call_recursive.sm_90", "ctrl_switch_dense.sm_86", "call_fnptr.sm_120"] {
        let (stem, arch) = k.split_once('.').unwrap();
        let path = common::corpus_dir().join(format!("cuda/{stem}/{k}.ptx"));
        let out = t.ptxas_run(oracle::PtxInput::File { path: &path, cwd: None }, &["-arch", arch]).unwrap();
        let file = scratch.join(format!("{k}.cubin"));
        std::fs::write(&file, out.cubin.unwrap()).unwrap();
        for option in ["-bbcfg", "-cfg"] {
            let (status, dot, err) = ours(&[option], &file);
            assert_eq!(status, 0, "{k}: {err}");
            let dot_file = scratch.join(format!("{k}.dot"));
            std::fs::write(&dot_file, &dot).unwrap();
            let svg = Command::new("dot").arg("-Tsvg").arg(&dot_file).output().unwrap();
            assert!(svg.status.success(), "{k} {option}: dot rejected it: {}", String::from_utf8_lossy(&svg.stderr));
            assert!(String::from_utf8_lossy(&svg.stdout).contains("<svg"), "{k} {option}: no SVG");
            rendered += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("disasm -bbcfg/-cfg: {rendered} graphs rendered by Graphviz dot");
}
