//! Resource limits of the front end, and the bracket-depth pre-scan that enforces them.
//!
//! ptxas's Bison parser grows its stack to 10,000 entries and then fails with
//! `Parsing error near '<tok>': memory exhausted`; measured, that is 1,664 nested `{ }` scopes
//! or 9,979 nested parentheses. This front end caps every kind of bracket nesting at
//! [`MAX_NESTING`] and expression trees at [`MAX_EXPR_DEPTH`] levels, with the same message.
//! Invariants: the scan is one linear pass with O(1) memory; nothing it checks can recurse.

use super::syntax::ParseFailure;

/// Deepest bracket nesting (`{`, `(`, `[` together) accepted.
pub const MAX_NESTING: usize = 1000;
/// Deepest expression tree accepted (operator chains build trees as deep as they are long).
pub const MAX_EXPR_DEPTH: usize = 1000;
/// Nesting up to which parsing runs on the caller's stack.
pub const SMALL_STACK_DEPTH: usize = 48;
/// Stack for the helper thread that parses deeper inputs (reserved, touched only as used).
pub const BIG_STACK_BYTES: usize = 512 << 20;

/// Scans `src` (comments, strings and `#` lines skipped) and returns the deepest bracket
/// nesting, or `MemoryExhausted` at the bracket that goes past [`MAX_NESTING`].
pub fn check_nesting(src: &str) -> Result<usize, ParseFailure> {
    let b = src.as_bytes();
    let (mut i, mut depth, mut max) = (0usize, 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' | b'(' | b'[' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ParseFailure::MemoryExhausted(i));
                }
                max = max.max(depth);
            }
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(max)
}
