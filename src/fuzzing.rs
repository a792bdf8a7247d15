//! The bodies of the cargo-fuzz targets in `fuzz/`.
//!
//! Each target is a thin shell that calls a function here, so `cargo test` can run the same
//! checks as a smoke test (see `tests/fuzz_smoke.rs`) without libFuzzer. Each function panics
//! exactly when a property is violated.

use crate::ptx;

/// `ptx_parse`: any bytes. Properties: the front end never panics; on success the tokens
/// satisfy the lexer's invariants and re-lexing their space-joined text gives the same tokens.
pub fn ptx_parse(data: &[u8]) {
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
