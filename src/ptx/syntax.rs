//! ptxas's syntax-level diagnostics: the byte scan, the header check and the "near" token.
//!
//! ptxas's scanner is flex and its parser Bison; a syntax error is reported as
//! `ptxas <file>, line N; fatal   : Parsing error near '<token>': syntax error`, where
//! `<token>` is the text of the lookahead token as flex cut it and N is that token's line. This
//! module re-cuts that token at the position where the grammar failed ([`near_token`]), with
//! flex's rules where they differ from the grammar's: `.version 9.0` is one token, `0xZZ` is `0`
//! then `xZZ`, `1.5e` is `1.5` then `e`, an unterminated string is the token `"`, and a lone `.`,
//! `$` or `%` is a one-character token. End of input is the empty token `''` on the last line.
//!
//! Facts measured on ptxas 13.0.88 (see corpus/errors/syn_*):
//! - The first NUL byte gives `Unexpected EOF encountered on line N` and the first non-ASCII
//!   byte `Unexpected non-ASCII character encountered on line N` (unlocated), whichever comes
//!   first, before any syntax error.
//! - An unterminated `/*` gives `Parsing error near '': unexpected EOF while scanning` on the
//!   comment's first line.
//! - A file not starting with `.version X.Y` gives `Missing .version directive at start of file
//!   '<file>'` on the line of its first token, or, when that token is `.target`, on the line of
//!   the token after the target list. Then `.target` must follow (`Missing .target directive ...`
//!   on the line of the token found instead).
//! - `.IF`/`.ELSE`/`.ELIF`/`.ENDIF` (the internal macro preprocessor) give `Ill formed conditional`.

use crate::cli::diag::Diagnostic;

/// Why parsing stopped, located by byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseFailure {
    /// A syntax error at (or before the token at) this offset.
    Syntax(usize),
    /// The parser's depth limit was hit at this offset.
    MemoryExhausted(usize),
}

/// The 1-based line of byte `offset`.
pub fn line_of(src: &str, offset: usize) -> u32 {
    let end = offset.min(src.len());
    1 + src.as_bytes()[..end].iter().filter(|&&c| c == b'\n').count() as u32
}

/// ptxas's byte scan: the first NUL or non-ASCII byte, in file order.
pub fn check_bytes(bytes: &[u8]) -> Result<(), Diagnostic> {
    let Some(at) = bytes.iter().position(|&c| c == 0 || c >= 0x80) else { return Ok(()) };
    let line = 1 + bytes[..at].iter().filter(|&&c| c == b'\n').count() as u32;
    if bytes[at] == 0 {
        Err(Diagnostic::fatal(format!("Unexpected EOF encountered on line {line}")))
    } else {
        Err(non_ascii_diag(line))
    }
}

/// `Unexpected non-ASCII character encountered on line N`.
pub fn non_ascii_diag(line: u32) -> Diagnostic {
    Diagnostic::fatal(format!("Unexpected non-ASCII character encountered on line {line}"))
}

/// A token as ptxas's scanner cuts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Near<'a> {
    /// A token: its text and start offset.
    Token(&'a str, usize),
    /// End of input at this offset.
    Eof(usize),
    /// A `/*` comment that never ends, starting at this offset.
    OpenComment(usize),
}

fn is_follow(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Skips whitespace, comments and `#line` lines from `i`.
fn skip_trivia(b: &[u8], mut i: usize) -> Result<usize, usize> {
    loop {
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c) {
            i += 1;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(start);
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
        } else if b.get(i) == Some(&b'#') && is_line_directive(&b[i + 1..]) {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else {
            return Ok(i);
        }
    }
}

fn is_line_directive(rest: &[u8]) -> bool {
    let mut j = 0;
    while j < rest.len() && matches!(rest[j], b' ' | b'\t') {
        j += 1;
    }
    if rest[j..].starts_with(b"line") && matches!(rest.get(j + 4), Some(b' ' | b'\t')) {
        j += 4;
        while j < rest.len() && matches!(rest[j], b' ' | b'\t') {
            j += 1;
        }
    }
    rest.get(j).is_some_and(u8::is_ascii_digit)
}

/// The token ptxas's scanner would produce at or after byte `pos`.
pub fn near_token(src: &str, pos: usize) -> Near<'_> {
    let b = src.as_bytes();
    let i = match skip_trivia(b, pos.min(b.len())) {
        Ok(i) => i,
        Err(start) => return Near::OpenComment(start),
    };
    if i >= b.len() {
        return Near::Eof(b.len());
    }
    let end = token_end(b, i);
    Near::Token(&src[i..end], i)
}

fn token_end(b: &[u8], i: usize) -> usize {
    let c = b[i];
    let mut j = i + 1;
    let run = |mut j: usize, f: &dyn Fn(u8) -> bool| {
        while j < b.len() && f(b[j]) {
            j += 1;
        }
        j
    };
    match c {
        b'.' => {
            if b.get(j).is_some_and(|&c| is_follow(c)) {
                j = run(j, &is_follow);
                // `.version X.Y` is a single token.
                if &b[i..j] == b".version" {
                    let k = run(j, &|c| c == b' ' || c == b'\t');
                    if k > j {
                        let m = run(k, &|c| c.is_ascii_digit());
                        if m > k && b.get(m) == Some(&b'.') {
                            let n = run(m + 1, &|c| c.is_ascii_digit());
                            if n > m + 1 {
                                return n;
                            }
                        }
                    }
                }
                j
            } else if b.get(j).is_some_and(u8::is_ascii_digit) {
                number_end(b, i)
            } else {
                j
            }
        }
        b'a'..=b'z' | b'A'..=b'Z' => run(j, &is_follow),
        b'_' | b'$' | b'%' => {
            if b.get(j).is_some_and(|&c| is_follow(c)) {
                run(j, &is_follow)
            } else {
                j
            }
        }
        b'0'..=b'9' => number_end(b, i),
        b'"' => {
            while j < b.len() && b[j] != b'"' && b[j] != b'\n' {
                if b[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            if j < b.len() && b[j] == b'"' { j + 1 } else { i + 1 }
        }
        b':' if b.get(j) == Some(&b':') => j + 1,
        _ => j,
    }
}

fn number_end(b: &[u8], i: usize) -> usize {
    let digits = |mut j: usize, f: fn(&u8) -> bool| {
        while j < b.len() && f(&b[j]) {
            j += 1;
        }
        j
    };
    let hexrun = digits(i + 2, u8::is_ascii_hexdigit);
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'f' | b'F')) && hexrun == i + 10 {
        return hexrun;
    }
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'd' | b'D')) && hexrun == i + 18 {
        return hexrun;
    }
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) && hexrun > i + 2 {
        return if b.get(hexrun) == Some(&b'U') { hexrun + 1 } else { hexrun };
    }
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'b' | b'B')) {
        let j = digits(i + 2, |c| *c == b'0' || *c == b'1');
        if j > i + 2 {
            return if b.get(j) == Some(&b'U') { j + 1 } else { j };
        }
    }
    let mut j = digits(i, u8::is_ascii_digit);
    let mut float = false;
    if b.get(j) == Some(&b'.') {
        float = true;
        j = digits(j + 1, u8::is_ascii_digit);
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let m = digits(k, u8::is_ascii_digit);
        if m > k {
            return m;
        }
    }
    if !float && b.get(j) == Some(&b'U') {
        j += 1;
    }
    j
}

/// The diagnostic for a failure at `f`.
pub fn diagnostic(src: &str, file: &str, f: ParseFailure) -> Diagnostic {
    let (pos, what) = match f {
        ParseFailure::Syntax(p) => (p, "syntax error"),
        ParseFailure::MemoryExhausted(p) => (p, "memory exhausted"),
    };
    match near_token(src, pos) {
        Near::OpenComment(start) => {
            Diagnostic::fatal("Parsing error near '': unexpected EOF while scanning").at(file, line_of(src, start))
        }
        Near::Eof(end) => Diagnostic::fatal(format!("Parsing error near '': {what}")).at(file, line_of(src, end)),
        Near::Token(t, at) => {
            if matches!(t, ".IF" | ".ELSE" | ".ELIF" | ".ENDIF") {
                return Diagnostic::fatal("Ill formed conditional").at(file, line_of(src, at));
            }
            Diagnostic::fatal(format!("Parsing error near '{t}': {what}")).at(file, line_of(src, at))
        }
    }
}

/// The header check ptxas makes before its grammar sees anything: `.version X.Y` first, then
/// `.target`.
pub fn check_header(src: &str, file: &str) -> Result<(), Diagnostic> {
    let b = src.as_bytes();
    let next = |pos: usize| -> Result<Near<'_>, Diagnostic> {
        match near_token(src, pos) {
            Near::OpenComment(s) => Err(diagnostic(src, file, ParseFailure::Syntax(s))),
            n => Ok(n),
        }
    };
    let line = |n: &Near<'_>| match n {
        Near::Token(_, at) => line_of(src, *at),
        Near::Eof(end) | Near::OpenComment(end) => line_of(src, *end),
    };
    let first = next(0)?;
    let is_version = matches!(first, Near::Token(t, _) if t.starts_with(".version") && t.len() > ".version".len());
    if !is_version {
        let mut at = first.clone();
        if let Near::Token(".target", p) = first {
            // The check fires when the target list has been read: report the token after it.
            let mut pos = p + ".target".len();
            let mut expect_name = true;
            loop {
                at = next(pos)?;
                match at {
                    Near::Token(t, q) if expect_name && t.as_bytes()[0].is_ascii_alphabetic() => {
                        pos = q + t.len();
                        expect_name = false;
                    }
                    Near::Token(",", q) if !expect_name => {
                        pos = q + 1;
                        expect_name = true;
                    }
                    _ => break,
                }
            }
        }
        return Err(
            Diagnostic::fatal(format!("Missing .version directive at start of file '{file}'")).at(file, line(&at))
        );
    }
    let Near::Token(v, p) = first else { return Ok(()) };
    let second = next(p + v.len())?;
    match second {
        Near::Token(".target", _) => Ok(()),
        _ => {
            let _ = b;
            Err(Diagnostic::fatal(format!("Missing .target directive at start of file '{file}'"))
                .at(file, line(&second)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str) -> String {
        match near_token(s, 0) {
            Near::Token(t, _) => t.to_string(),
            Near::Eof(_) => String::new(),
            Near::OpenComment(_) => "/*".into(),
        }
    }

    #[test]
    fn flex_token_cuts() {
        assert_eq!(tok("  .version 9.0\n"), ".version 9.0");
        assert_eq!(tok(".version 9\n"), ".version");
        assert_eq!(tok("0xZZ"), "0");
        assert_eq!(tok("1.5e;"), "1.5");
        assert_eq!(tok("1.5e3;"), "1.5e3");
        assert_eq!(tok("..b32"), ".");
        assert_eq!(tok("\"abc;\n"), "\"");
        assert_eq!(tok("\"abc\";"), "\"abc\"");
        assert_eq!(tok("$;"), "$");
        assert_eq!(tok("%r<4>"), "%r");
        assert_eq!(tok("0f3F800000,"), "0f3F800000");
        assert_eq!(tok("42U;"), "42U");
        assert_eq!(tok("// c\n/* d */ x"), "x");
        assert_eq!(tok("/* open"), "/*");
        assert_eq!(tok("# 5 \"f\"\n y"), "y");
        assert_eq!(tok("#include"), "#");
        assert_eq!(tok(""), "");
    }
}
