//! The bodies of the cargo-fuzz targets in `fuzz/`.
//!
//! Each target is a thin shell that calls a function here, so `cargo test` can run the same
//! checks as a smoke test (see `tests/fuzz_smoke.rs`) without libFuzzer. Each function panics
//! exactly when a property is violated.

pub mod pathological;

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

/// `sass_decode`: any bytes, read as 16-byte little-endian SASS words (a short tail is
/// zero-padded). Properties, for every arch with tables: decoding never panics; a word that
/// decodes re-encodes to exactly the same 128 bits; its nvdisasm-style text parses back (with
/// the word's control bits) to an instruction that prints the same text. (Text does not carry
/// every bit — e.g. two residues that print the same suffix — so the text round trip is
/// checked at the text level; the bit-exact round trip is `encode(decode(w)) == w`.)
pub fn sass_decode(data: &[u8]) {
    for arch in ["sm_90", "sm_80", "sm_86", "sm_89", "sm_75", "sm_100", "sm_120"] {
        let Some(tables) = crate::sass::tables_for(arch) else { continue };
        for chunk in data.chunks(16) {
            let mut bytes = [0u8; 16];
            bytes[..chunk.len()].copy_from_slice(chunk);
            let word = u128::from_le_bytes(bytes);
            let Ok(inst) = tables.decode(word) else { continue };
            let again =
                tables.encode(&inst).unwrap_or_else(|e| panic!("{word:#034x} decodes but does not encode: {e}"));
            assert_eq!(again, word, "{word:#034x} re-encodes to {again:#034x}");
            let addr = 0x100;
            let text = tables.print(&inst, addr, None);
            let mut parsed =
                tables.parse(&text, addr).unwrap_or_else(|e| panic!("{word:#034x}: {text:?} does not parse: {e}"));
            parsed.control = crate::sass::Control { reuse: parsed.control.reuse, ..inst.control };
            let reprinted = tables.print(&parsed, addr, None);
            assert_eq!(reprinted, text, "{word:#034x}: parse -> print changed the text");
        }
    }
}
