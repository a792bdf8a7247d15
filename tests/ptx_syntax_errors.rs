//! The error corpus against the parser: for every case whose recorded ptxas output contains a
//! syntax-level diagnostic (`Parsing error near ...`, `Unexpected non-ASCII ...`, `Unexpected EOF
//! ...`, `Missing .version/.target ...`, `Ill formed conditional`), the parser rejects the file
//! with exactly that line; every other case (all of whose errors are semantic) must parse.
//! One class of syntax error is raised by the semantic pass instead of the parser: a symbol inside
//! a parenthesized operand list (`(1 + %r2)`), which ptxas reports after the semantic errors of
//! earlier lines. For those the parse must succeed and the semantic pass must print the line.

mod common;

use ptxas_rs::ptx;
use ptxas_rs::ptx::sema;

/// Cases whose recorded errors are semantic but which this parser rejects, with the reason.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

fn is_syntax_line(line: &str) -> bool {
    let msg = line.split_once(": ").map_or("", |(_, m)| m);
    [
        "Parsing error near ",
        "Unexpected non-ASCII character",
        "Unexpected EOF encountered",
        "Missing .version directive",
        "Missing .target directive",
        "Ill formed conditional",
    ]
    .iter()
    .any(|p| msg.starts_with(p))
}

/// The `-arch` of a case's `// ptxas-args:` first line (`sm_90` when it names none).
fn args_arch(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    let mut words = first.split_whitespace();
    while let Some(w) = words.next() {
        if w == "-arch" {
            return words.next().unwrap_or("sm_90").to_string();
        }
        if let Some(a) = w.strip_prefix("-arch=").or_else(|| w.strip_prefix("--gpu-name=")) {
            return a.to_string();
        }
    }
    "sm_90".to_string()
}

#[test]
fn ptx_error_corpus_syntax_verdicts() {
    let files = common::error_corpus();
    assert!(files.len() >= 300);
    let (mut syn_total, mut syn_ok, mut sem_total, mut sem_ok) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".ptx");
        let bytes = std::fs::read(path).unwrap();
        let stderr = std::fs::read_to_string(path.with_extension("stderr")).unwrap();
        let got = ptx::parse_bytes(&bytes, &name);
        match stderr.lines().find(|l| is_syntax_line(l)) {
            Some(want) => {
                syn_total += 1;
                match got {
                    Err(d) if d.to_string() == want => syn_ok += 1,
                    Err(d) => failures.push(format!("{stem}: want `{want}`\n{:>w$}got  `{d}`", "", w = stem.len() + 2)),
                    Ok(m) => {
                        let arch = args_arch(&String::from_utf8_lossy(&bytes));
                        let report = sema::check(&m, &bytes, &sema::Options::new(&name, &arch));
                        if report.diagnostics.iter().any(|d| d.to_string() == want) {
                            syn_ok += 1;
                        } else {
                            failures.push(format!("{stem}: accepted; want `{want}`"));
                        }
                    }
                }
            }
            None => {
                sem_total += 1;
                match got {
                    Ok(_) => sem_ok += 1,
                    Err(_) if KNOWN_DIFFERENCES.iter().any(|(n, _)| *n == stem) => {}
                    Err(d) => failures.push(format!("{stem}: semantic-only case rejected: {d}")),
                }
            }
        }
    }
    eprintln!(
        "syntax cases matched {syn_ok}/{syn_total}; semantic cases accepted {sem_ok}/{sem_total} ({} known differences)",
        KNOWN_DIFFERENCES.len()
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
