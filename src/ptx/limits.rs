//! Resource limits of the front end, and the bracket-depth pre-scan that enforces them.
//!
//! ptxas's Bison parser grows its stack to 10,000 entries and then fails with
//! `Parsing error near '<tok>': memory exhausted`; measured, that is 1,664 nested `{ }` scopes
//! or 9,979 nested parentheses. This front end caps `{ }` nesting at ptxas's own limit,
//! [`MAX_BRACE_NESTING`] (ptxas 13.0.88 accepts a kernel body with 1,663 nested scopes inside
//! it, 1,664 braces in all, and rejects one more), `( )` and `[ ]` nesting together at
//! [`MAX_NESTING`], and expression trees at [`MAX_EXPR_DEPTH`] levels, with the same message.
//! (ptxas names the token where its stack overflowed, which can be a later token than the
//! bracket named here.)
//! Invariants: the scan is one linear pass with O(1) memory; nothing it checks can recurse.

use super::syntax::ParseFailure;

/// Deepest `(`/`[` nesting (together) accepted.
pub const MAX_NESTING: usize = 1000;
/// Deepest `{` nesting accepted (ptxas's measured limit, see the module doc).
pub const MAX_BRACE_NESTING: usize = 1664;
/// Deepest expression tree accepted (operator chains build trees as deep as they are long).
pub const MAX_EXPR_DEPTH: usize = 1000;
/// Nesting up to which parsing runs on the caller's stack.
pub const SMALL_STACK_DEPTH: usize = 48;
/// Stack for the helper thread that parses deeper inputs (reserved, touched only as used).
pub const BIG_STACK_BYTES: usize = 512 << 20;

/// Scans `src` (comments, strings and `#` lines skipped) and returns the deepest bracket
/// nesting (braces and other brackets together), or `MemoryExhausted` at the bracket that
/// goes past [`MAX_BRACE_NESTING`] or [`MAX_NESTING`].
pub fn check_nesting(src: &str) -> Result<usize, ParseFailure> {
    let b = src.as_bytes();
    let (mut i, mut braces, mut others, mut max) = (0usize, 0usize, 0usize, 0usize);
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
            b'{' => {
                braces += 1;
                if braces > MAX_BRACE_NESTING {
                    return Err(ParseFailure::MemoryExhausted(i));
                }
                max = max.max(braces + others);
            }
            b'(' | b'[' => {
                others += 1;
                if others > MAX_NESTING {
                    return Err(ParseFailure::MemoryExhausted(i));
                }
                max = max.max(braces + others);
            }
            b'}' => braces = braces.saturating_sub(1),
            b')' | b']' => others = others.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(max)
}
