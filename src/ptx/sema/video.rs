//! Video selectors (`%r1.b0`, `%r2.h10`, `%r3.b7654`, `%r4.b30`) and the video instructions'
//! secondary operations, checked in ptxas 13.0.88's wording and order (probed on sm_90 with
//! one-instruction kernels over every selector shape on every operand position).
//!
//! A selector is the component written after a plain (non-vector, non-special) register. Per
//! operand, in operand order:
//!
//! 1. a selector ptxas's scanner does not know (`.b` or `.h` followed by more than four digits,
//!    a `.b` digit above 7, an `.h` digit above 3, any other word): `Unknown video selector`;
//! 2. outside the video instructions: `Video selector is not allowed on destination|source
//!    operand for instruction '…'`, whatever the selector;
//! 3. in a video instruction, a selector whose shape the position does not take: `Incorrect
//!    video selector for operand N`. Sources a and b of the scalar forms take one byte
//!    (`.b0`–`.b3`) or half (`.h0`, `.h1`); of the 2-way SIMD forms `.h` with exactly two lane
//!    digits 0–3; of the 4-way forms `.b` with exactly four digits 0–7. The destination mask of
//!    the SIMD forms is `.h`/`.b` with one digit per written lane, strictly descending, each
//!    below the lane count (`.h10`, `.b31`; `.h01` is incorrect); the scalar destination
//!    selector is a byte or a half as for the sources;
//! 4. structure: a scalar destination selector with a secondary operation (`Video instruction
//!    cannot have destination selector and secondary operation`) or without the `c` operand,
//!    and any on `vmad` (`Video selector is not allowed on destination …`); a selector on
//!    `c`: `Video selector is not allowed on 'source C' operand`.
//!
//! Before the operands: a SIMD form's secondary operation other than `.add` is `Illegal
//! secondary operation for video instruction '…'`, and `.sat` with `.add` there is `Illegal
//! combination of .sat and .add modifiers`.
//!
//! Invariant: reports only for operands with a component on a declared scalar register (a
//! vector register's `.x`/`.r`… components and special registers' `%tid.x` are left alone);
//! every message is located at the instruction's line.

use super::messages as msg;
use super::scope::FuncScope;
use super::{Fatal, Sink};
use crate::ptx::ast::{Expr, ExprKind, Instruction, Operand, UnOp};

/// The kinds of video instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Video {
    /// `vadd` … `vset`, with `vmad` apart (no destination selector, no secondary operation).
    Scalar { mad: bool },
    /// `vadd2` … `vset2` (2 lanes) and `vadd4` … `vset4` (4 lanes).
    Simd { lanes: u32 },
}

fn video(op: &str) -> Option<Video> {
    Some(match op {
        "vmad" => Video::Scalar { mad: true },
        "vadd" | "vsub" | "vabsdiff" | "vmin" | "vmax" | "vshl" | "vshr" | "vset" => Video::Scalar { mad: false },
        "vadd2" | "vsub2" | "vavrg2" | "vabsdiff2" | "vmin2" | "vmax2" | "vset2" => Video::Simd { lanes: 2 },
        "vadd4" | "vsub4" | "vavrg4" | "vabsdiff4" | "vmin4" | "vmax4" | "vset4" => Video::Simd { lanes: 4 },
        _ => return None,
    })
}

/// A selector split into its letter and lane digits, when ptxas's scanner knows it.
fn known(sel: &str) -> Option<(char, Vec<u32>)> {
    scan(sel).filter(|(_, d)| d.len() <= 4)
}

/// A `.b`/`.h` selector's letter and digits when every digit is a lane ptxas names; the shape
/// check reads only the first four (`%r2.b01234` on a 4-way source is unknown but not
/// incorrect, probed).
fn scan(sel: &str) -> Option<(char, Vec<u32>)> {
    let mut chars = sel.chars();
    let letter = chars.next()?;
    let max = match letter {
        'b' => 7,
        'h' => 3,
        _ => return None,
    };
    let digits: Option<Vec<u32>> = chars.map(|c| c.to_digit(10).filter(|d| *d <= max)).collect();
    digits.map(|d| (letter, d))
}

/// Whether a known selector fits operand position `k` (0 the destination, 1 and 2 the
/// sources a and b) of a video instruction.
fn fits(kind: Video, k: usize, letter: char, digits: &[u32]) -> bool {
    match kind {
        Video::Scalar { .. } => match (letter, digits) {
            ('b', [d]) => *d <= 3,
            ('h', [d]) => *d <= 1,
            _ => false,
        },
        Video::Simd { lanes } => {
            let want = if lanes == 2 { 'h' } else { 'b' };
            if letter != want {
                return false;
            }
            if k == 0 {
                !digits.is_empty() && digits.iter().all(|d| *d < lanes) && digits.windows(2).all(|w| w[0] > w[1])
            } else {
                digits.len() == lanes as usize && digits.iter().all(|d| *d < 2 * lanes)
            }
        }
    }
}

/// The selector written on operand `o`, when it names a declared scalar register.
fn selector<'a>(o: &'a Operand, fs: &FuncScope) -> Option<&'a str> {
    let Operand::Expr(e) = o else { return None };
    let e: &Expr = match &e.kind {
        ExprKind::Unary(UnOp::Neg, inner) => inner,
        _ => e,
    };
    let ExprKind::Sym(id, Some(sel)) = &e.kind else { return None };
    let name = id.name.as_str();
    if super::sreg::lookup(name).is_some() || fs.is_vector(name) {
        return None;
    }
    let ty = fs.lookup(name)?;
    (!ty.contains(' ')).then_some(sel.as_str())
}

/// The checks above, for one instruction with opcode `op` and modifiers `mods`.
pub fn check(
    ins: &Instruction,
    op: &str,
    mods: &[&str],
    fs: &FuncScope,
    line: u32,
    sink: &mut Sink,
) -> Result<(), Fatal> {
    let kind = video(op);
    let has = |m: &str| mods.contains(&m);
    let secondary = has(".add") || has(".min") || has(".max");
    if let Some(Video::Simd { .. }) = kind {
        if has(".min") || has(".max") {
            sink.at(line, msg::VIDEO_SECONDARY, &[op])?;
        } else if has(".sat") && has(".add") {
            sink.at(line, msg::VIDEO_SAT_ADD, &[])?;
        }
    }
    for (k, o) in ins.operands.iter().enumerate() {
        let Some(sel) = selector(o, fs) else { continue };
        let parsed = scan(sel).map(|(letter, mut digits)| {
            digits.truncate(4);
            (letter, digits)
        });
        if known(sel).is_none() {
            sink.at(line, msg::VIDEO_UNKNOWN_SELECTOR, &[&format!(".{sel}")])?;
        }
        let Some(kind) = kind else {
            let place = if k == 0 { msg::VIDEO_SELECTOR_DESTINATION } else { msg::VIDEO_SELECTOR_SOURCE };
            sink.at(line, place, &[op])?;
            continue;
        };
        if !parsed.is_some_and(|(letter, digits)| fits(kind, k, letter, &digits)) {
            sink.at(line, msg::VIDEO_INCORRECT_SELECTOR, &[&k.to_string()])?;
        }
        if k >= 3 {
            sink.at(line, msg::VIDEO_SELECTOR_SOURCE_C, &[])?;
            continue;
        }
        if k == 0
            && let Video::Scalar { mad } = kind
        {
            if mad || ins.operands.len() < 4 {
                sink.at(line, msg::VIDEO_SELECTOR_DESTINATION, &[op])?;
            } else if secondary {
                sink.at(line, msg::VIDEO_DESTINATION_AND_SECONDARY, &[])?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanner_knows_b_and_h_with_up_to_four_digits() {
        assert_eq!(known("b7654"), Some(('b', vec![7, 6, 5, 4])));
        assert_eq!(known("h"), Some(('h', vec![])));
        for bad in ["b8", "h4", "b01234", "bb", "x", "h0a"] {
            assert_eq!(known(bad), None, "{bad}");
        }
    }

    #[test]
    fn shapes_per_position() {
        let s2 = Video::Simd { lanes: 2 };
        let s4 = Video::Simd { lanes: 4 };
        let sc = Video::Scalar { mad: false };
        let f = |kind, k, sel: &str| {
            let (l, d) = known(sel).unwrap();
            fits(kind, k, l, &d)
        };
        // Probed: ok / incorrect.
        assert!(f(s2, 1, "h10") && f(s2, 1, "h01") && f(s2, 1, "h32") && f(s2, 1, "h22"));
        assert!(!f(s2, 1, "h0") && !f(s2, 1, "h3") && !f(s2, 1, "h") && !f(s2, 1, "b10") && !f(s2, 1, "h012"));
        assert!(f(s2, 0, "h0") && f(s2, 0, "h1") && f(s2, 0, "h10"));
        assert!(!f(s2, 0, "h01") && !f(s2, 0, "h2") && !f(s2, 0, "h22") && !f(s2, 0, "h"));
        assert!(f(s4, 1, "b0123") && f(s4, 1, "b7654") && f(s4, 1, "b4444") && f(s4, 2, "b0000"));
        assert!(!f(s4, 1, "b0") && !f(s4, 1, "b20") && !f(s4, 1, "b012") && !f(s4, 1, "h10"));
        assert!(f(s4, 0, "b0") && f(s4, 0, "b3") && f(s4, 0, "b20") && f(s4, 0, "b3210") && f(s4, 0, "b10"));
        assert!(!f(s4, 0, "b0123") && !f(s4, 0, "b012") && !f(s4, 0, "b4") && !f(s4, 0, "b7654"));
        assert!(f(sc, 1, "b0") && f(sc, 1, "b3") && f(sc, 1, "h1") && f(sc, 0, "h0"));
        assert!(!f(sc, 1, "b4") && !f(sc, 1, "h2") && !f(sc, 1, "b10") && !f(sc, 1, "h10") && !f(sc, 1, "b"));
    }
}
