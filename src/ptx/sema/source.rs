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
