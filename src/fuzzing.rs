//! The bodies of the cargo-fuzz targets in `fuzz/`.
//!
//! Each target is a thin shell that calls a function here, so `cargo test` can run the same
//! checks as a smoke test (see `tests/fuzz_smoke.rs`) without libFuzzer. Each function panics
//! exactly when a property is violated.

use crate::ptx;

/// `ptx_parse`: any bytes. Properties: the front end never panics; the lexer's tokens satisfy
/// its invariants and re-lex to themselves; the parser either fails with one single-line fatal
/// diagnostic or gives a tree that prints, re-parses to an equal tree and prints identically.
pub fn ptx_parse(data: &[u8]) {
    match ptx::parse_bytes(data, "fuzz.ptx") {
        Ok(m) => {
            let printed = ptx::print(&m);
            let again = ptx::parse(&printed, "printed.ptx")
                .unwrap_or_else(|d| panic!("print does not re-parse: {d}\n{printed}"));
            assert!(again == m, "print -> parse changed the tree:\n{printed}");
            assert_eq!(ptx::print(&again), printed, "printing is not idempotent");
        }
        Err(d) => {
            assert_eq!(d.severity, crate::cli::diag::Severity::Fatal, "syntax errors are fatal: {d}");
            assert!(!d.to_string().contains('\n'), "a diagnostic is one line: {d:?}");
        }
    }
    let Ok(src) = std::str::from_utf8(data) else { return };
    let Ok(tokens) = ptx::lex(src) else { return };
    let mut end = 0;
    for t in &tokens {
        assert!(t.offset >= end, "tokens overlap at byte {}", t.offset);
        assert_eq!(&src[t.offset..t.offset + t.text.len()], t.text, "token text is its source slice");
        assert!(t.line >= 1 && t.column >= 1);
        end = t.offset + t.text.len();
    }
    // Re-lex with newlines as separators (a `//` comment or `#` line in the original cannot
    // swallow what follows a newline).
    let joined: String = tokens.iter().map(|t| t.text).collect::<Vec<_>>().join("\n");
    let again = ptx::lex(&joined).unwrap_or_else(|e| panic!("re-lexing tokens failed: {e}\n{joined:?}"));
    let a: Vec<_> = tokens.iter().map(|t| (t.kind, t.text)).collect();
    let b: Vec<_> = again.iter().map(|t| (t.kind, t.text)).collect();
    assert_eq!(a, b, "re-lexing changed the tokens");
}
