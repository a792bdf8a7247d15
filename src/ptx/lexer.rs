//! The PTX lexer: source text → tokens with 1-based line/column positions.
//!
//! This is the token level of the front end (the pest grammar in `lexer.pest`). Invariants:
//! - tokens are in source order, non-overlapping, and each token's `text` is exactly the source
//!   slice at its byte range;
//! - whitespace and comments never appear as tokens;
//! - any input (any bytes that are valid UTF-8) yields tokens or one located [`LexError`], never a
//!   panic; the grammar has no recursive rule, so deep nesting cannot exhaust the stack.

use pest::Parser;

mod grammar {
    #![allow(missing_docs)]
    /// The pest parser generated from `lexer.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "ptx/lexer.pest"]
    pub struct PtxLexer;
}
use grammar::{PtxLexer, Rule};

/// What kind of token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// An identifier, register or special register name (`%r1`, `$L__BB0_2`, `add`).
    Ident,
    /// A dot-word: directive, type or modifier (`.reg`, `.u32`, `.rn`).
    Directive,
    /// An integer literal (`42`, `0x2aU`, `0b101`; octal is a decimal-digit run starting `0`).
    Integer,
    /// A floating literal (`1.5`, `0f3F800000`, `0d3FF0000000000000`, `1e-3`).
    Float,
    /// A string literal, quotes included.
    String,
    /// Punctuation and operators.
    Punct,
    /// A `#...` line.
    HashLine,
}

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token<'a> {
    /// Its kind.
    pub kind: TokenKind,
    /// The exact source text.
    pub text: &'a str,
    /// Byte offset of the first character.
    pub offset: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
}

/// A lexical error: the position where no token could start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: unexpected {found}")]
pub struct LexError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What was found there (quoted text, or `end of file`).
    pub found: String,
}

/// Splits `src` into tokens.
pub fn lex(src: &str) -> Result<Vec<Token<'_>>, LexError> {
    let pairs = PtxLexer::parse(Rule::tokens, src).map_err(|e| {
        let (line, column) = match e.line_col {
            pest::error::LineColLocation::Pos(p) | pest::error::LineColLocation::Span(p, _) => p,
        };
        let at = match e.location {
            pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p,
        };
        let found = src[at..].chars().next().map_or("end of file".to_string(), |c| format!("{c:?}"));
        LexError { line: line as u32, column: column as u32, found }
    })?;
    let mut out = Vec::new();
    // Positions advance incrementally from token to token (pest's own `line_col` rescans the
    // input from the start each time, which is quadratic on large files).
    let mut cursor = (0usize, 1u32, 1u32); // (byte offset, line, column)
    for pair in pairs.flatten() {
        let kind = match pair.as_rule() {
            Rule::ident => TokenKind::Ident,
            Rule::directive => TokenKind::Directive,
            Rule::integer => TokenKind::Integer,
            Rule::float => TokenKind::Float,
            Rule::string => TokenKind::String,
            Rule::punct => TokenKind::Punct,
            Rule::hash_line => TokenKind::HashLine,
            _ => continue,
        };
        let span = pair.as_span();
        for c in src[cursor.0..span.start()].chars() {
            if c == '\n' {
                cursor.1 += 1;
                cursor.2 = 1;
            } else {
                cursor.2 += 1;
            }
        }
        cursor.0 = span.start();
        out.push(Token { kind, text: span.as_str(), offset: span.start(), line: cursor.1, column: cursor.2 });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        lex(src).unwrap().into_iter().map(|t| (t.kind, t.text)).collect()
    }

    #[test]
    fn instruction_line() {
        assert_eq!(
            kinds("@!%p1 add.s32 %r1, %r2, -0x10U; // c\n"),
            vec![
                (Punct, "@"),
                (Punct, "!"),
                (Ident, "%p1"),
                (Ident, "add"),
                (Directive, ".s32"),
                (Ident, "%r1"),
                (Punct, ","),
                (Ident, "%r2"),
                (Punct, ","),
                (Punct, "-"),
                (Integer, "0x10U"),
                (Punct, ";"),
            ]
        );
    }

    #[test]
    fn literals_and_positions() {
        let t = lex(".reg .f32 %f<4>;\n/* x\n y */ mov.f32 %f1, 0f3F800000; 1.5e3 0d3FF0000000000000 \"s\"").unwrap();
        let mov = t.iter().find(|t| t.text == "mov").unwrap();
        assert_eq!((mov.line, mov.column), (3, 7));
        assert!(t.iter().any(|t| t.kind == Float && t.text == "0f3F800000"));
        assert!(t.iter().any(|t| t.kind == Float && t.text == "1.5e3"));
        assert!(t.iter().any(|t| t.kind == Float && t.text.starts_with("0d")));
        assert!(t.iter().any(|t| t.kind == String && t.text == "\"s\""));
    }

    #[test]
    fn errors_are_located() {
        let e = lex("ret;\n  /* never closed").unwrap_err();
        assert_eq!(e.line, 2);
        let e = lex("ret;\n\u{1} x").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(lex(&"{".repeat(100_000)).is_ok(), "nesting is not recursion");
    }
}
