//! Positions the AST does not record, recovered from the source text: the line of a function
//! body's `{` and `}` and of a directive keyword in a function header. ptxas reports several
//! directive checks on the line of its parser's lookahead token (the `{`) or at the end of the
//! function (the `}`), so these lines are needed to match its output.
//!
//! Invariant: every function here is total: positions past the end give the last line.

/// Line lookup over a source text.
#[derive(Debug, Clone)]
pub struct SourceMap<'a> {
    src: &'a [u8],
    starts: Vec<usize>,
}

impl<'a> SourceMap<'a> {
    /// Indexes `src`.
    pub fn new(src: &'a [u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(src.iter().enumerate().filter(|(_, c)| **c == b'\n').map(|(i, _)| i + 1));
        SourceMap { src, starts }
    }

    /// 1-based line of byte `offset`.
    pub fn line(&self, offset: usize) -> u32 {
        self.starts.partition_point(|&s| s <= offset) as u32
    }

    /// Skips a comment or string starting at `i`, returning the index after it.
    fn skip(&self, i: usize) -> Option<usize> {
        let b = self.src;
        if b[i..].starts_with(b"//") {
            Some(b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p))
        } else if b[i..].starts_with(b"/*") {
            Some(b[i + 2..].windows(2).position(|w| w == b"*/").map_or(b.len(), |p| i + 2 + p + 2))
        } else if b[i] == b'"' {
            Some(b[i + 1..].iter().position(|&c| c == b'"').map_or(b.len(), |p| i + 1 + p + 1))
        } else {
            None
        }
    }

    /// The offsets of the first `{` (or `;`) at or after `from`, and of its matching `}`.
    pub fn body_braces(&self, from: usize) -> (usize, usize) {
        let b = self.src;
        let mut i = from.min(b.len());
        let mut open = None;
        let mut depth = 0usize;
        while i < b.len() {
            if let Some(n) = self.skip(i) {
                i = n;
                continue;
            }
            match b[i] {
                b'{' => {
                    if open.is_none() {
                        open = Some(i);
                    }
                    depth += 1;
                }
                b';' if open.is_none() => return (i, i),
                b'}' if open.is_some() => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return (open.unwrap_or(i), i);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        let end = b.len().saturating_sub(1);
        (open.unwrap_or(end), end)
    }

    /// The lines of the literals ptxas reports `Constant overflow` for
    /// ([`crate::ptx::ast::int_literal_value`]), in source order, outside comments and strings.
    /// A number token starts with a digit not preceded by an identifier character; one with a
    /// `.` or a decimal exponent is a decimal float, checked by [`decimal_float_overflows`];
    /// `0f`/`0d` bit patterns are not checked.
    pub fn overflowing_literals(&self) -> Vec<u32> {
        let b = self.src;
        let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.');
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if let Some(n) = self.skip(i) {
                i = n;
                continue;
            }
            if !b[i].is_ascii_digit() || (i > 0 && word(b[i - 1])) {
                i += 1;
                continue;
            }
            let mut end = b[i..].iter().position(|&c| !word(c)).map_or(b.len(), |p| i + p);
            let radix_prefixed =
                |t: &[u8]| t.len() > 1 && t[0] == b'0' && matches!(t[1] | 0x20, b'x' | b'b' | b'f' | b'd');
            // A decimal exponent's sign (`1e-400`) continues the token.
            if !radix_prefixed(&b[i..end])
                && matches!(b[end - 1] | 0x20, b'e')
                && matches!(b.get(end), Some(b'+' | b'-'))
                && b.get(end + 1).is_some_and(u8::is_ascii_digit)
            {
                end = b[end + 1..].iter().position(|&c| !word(c)).map_or(b.len(), |p| end + 1 + p);
            }
            let tok = std::str::from_utf8(&b[i..end]).unwrap_or("");
            let lower = tok.to_ascii_lowercase();
            let float = lower.contains('.')
                || lower.starts_with("0f")
                || lower.starts_with("0d")
                || (!lower.starts_with("0x") && !lower.starts_with("0b") && lower.contains('e'));
            let digits_ok = lower.trim_end_matches('u').chars().all(|c| c.is_ascii_hexdigit() || c == 'x' || c == 'b');
            let overflows = if float {
                !radix_prefixed(&b[i..end]) && decimal_float_overflows(tok)
            } else {
                digits_ok && crate::ptx::ast::int_literal_value(tok).is_none()
            };
            if overflows {
                out.push(self.line(i));
            }
            i = end;
        }
        out
    }

    /// The offset of `word` (a whole token) between `from` and `to`, outside comments.
    pub fn find_word(&self, from: usize, to: usize, word: &str) -> Option<usize> {
        let b = self.src;
        let w = word.as_bytes();
        let mut i = from.min(b.len());
        let to = to.min(b.len());
        while i < to {
            if let Some(n) = self.skip(i) {
                i = n;
                continue;
            }
            if b[i..].starts_with(w) && !b.get(i + w.len()).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                return Some(i);
            }
            i += 1;
        }
        None
    }
}

/// Whether ptxas reports `Constant overflow` for a decimal floating literal (`1e309`,
/// `1e-310`): where C's `strtod` sets `ERANGE`, i.e. the value is infinite, or nonzero but
/// below the smallest normal double (probed: `2.2250738585072014e-308` passes, `1e-310`,
/// `4.9e-324` and `1.8e308` overflow, `0.0e-999` passes).
pub fn decimal_float_overflows(text: &str) -> bool {
    let Ok(v) = text.parse::<f64>() else { return false };
    let mantissa = text.split(['e', 'E']).next().unwrap_or("");
    let nonzero = mantissa.bytes().any(|c| matches!(c, b'1'..=b'9'));
    v.is_infinite() || (nonzero && v.abs() < f64::MIN_POSITIVE)
}
