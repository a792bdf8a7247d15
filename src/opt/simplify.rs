//! Algebraic simplification of PTX-stage integer, bits and predicate instructions, one step of
//! [`super::general_optimize::GeneralOptimize`]'s rewrite.
//!
//! [`simplify`] turns an instruction that an identity decides into a move (of the operand that
//! survives, or of a constant), which copy propagation and local DCE then remove:
//!
//! | instruction | becomes |
//! |---|---|
//! | `add x, 0`, `add 0, x`, `sub x, 0` | `x` |
//! | `sub x, x`, `xor x, x` | `0` |
//! | `mul.lo x, 1`, `mul.lo 1, x` | `x` |
//! | `mul.lo x, 0`, `mul.lo 0, x` | `0` |
//! | `and x, 0`, `or x, -1` (either order) | the constant |
//! | `and x, -1`, `or x, 0`, `xor x, 0` (either order), `and x, x`, `or x, x` | `x` |
//! | `shl x, 0`, `shr x, 0` | `x` |
//! | `setp` of an unsigned order against 0 or the type's maximum (`x >=u 0`, `x <u 0`, `x <=u max`, `x >u max`, and mirrored) | `PT` / `!PT` |
//! | `setp` of an integer order of `x` against itself | `PT` / `!PT` |
//! | `selp x, x, p` | `x` |
//!
//! `-1` is the type's all-ones value; for `.pred` logic ops it is `true` (`PT`).
//!
//! Invariants (each identity is exact, so translation validation sees bit-identical results):
//!
//! - Only PTX-stage opcodes ([`Stage::Ptx`]) with an integer or bits type (`and`/`or`/`xor`/
//!   `selp` also `.pred`); floats are never touched (`x + 0.0` is not `x` for `-0.0`, `.ftz`
//!   flushes). The carry forms (`add.cc`, `addc`, ...) have their own [`Sem`]s and are not
//!   matched.
//! - No modifier other than the type (and `.lo` on `mul`): `.sat`, rounding, `.hi`/`.wide`
//!   leave the instruction alone.
//! - The type is as wide as the destination's register class, and the surviving register has
//!   that same class, so no truncation or extension is lost (`add.u16` on a 32-bit register
//!   clears the upper half; it is not simplified).
//! - Constants are immediates, zero registers, `PT`, or registers with a constant fact, read
//!   without `-`/`|.|` (a `~`/`!` is applied); the surviving operand is a register read
//!   without modifiers.
//! - The move keeps the instruction's guard.

use crate::ori::opcode::{Sem, Stage};
use crate::ori::semantics::{Arg, Val};
use crate::ori::{Cmp, Function, Half, InstData, Operand, Ty};

use super::util::{const_pred, imm_for, make_mov, mask};

/// What an identity leaves: one of the sources, or a constant (register bits; predicates 0/1).
enum Outcome {
    Src(usize),
    Const(u64),
}

/// The move that replaces `d` when an identity decides it, or `None`. `konst` gives a source
/// operand's constant value (with its modifiers), if it has one.
pub fn simplify(f: &Function, d: &InstData, konst: &dyn Fn(&Operand) -> Option<Arg>) -> Option<InstData> {
    let info = d.opcode.info();
    if info.stage != Stage::Ptx || d.dsts.len() != 1 {
        return None;
    }
    let ty = d.ty()?;
    if ty.is_float() || ty.bits() > 64 {
        return None;
    }
    let m = &d.mods;
    let plain = m.rnd.is_none()
        && m.cmp.is_none() == (info.sem != Sem::Setp)
        && m.flags.is_empty()
        && m.src_ty.is_none()
        && m.bop.is_none()
        && m.sub.is_none()
        && m.dir.is_none()
        && m.mufu.is_none()
        && (m.half.is_none() || (info.sem == Sem::Mul && m.half == Some(Half::Lo)));
    if !plain {
        return None;
    }
    let dst = d.dsts[0];
    if dst.is_zero() {
        // A write to `RZ`/`PT` only; dead, left to DCE.
        return None;
    }
    let dclass = f.reg_class(dst)?;
    let w = ty.bits();
    // The operand type's width; for `setp` the destination is a predicate.
    if info.sem == Sem::Setp {
        if ty == Ty::Pred || !dclass.file.is_pred() {
            return None;
        }
    } else if dclass.bits() != w || (ty == Ty::Pred) != dclass.file.is_pred() {
        return None;
    }
    let ones = mask(w);
    let k = |i: usize| d.srcs.get(i).and_then(|o| const_value(konst, o, w));
    let same = |i: usize, j: usize| match (d.srcs.get(i), d.srcs.get(j)) {
        (Some(Operand::Reg(a)), Some(Operand::Reg(b))) => a == b && !a.has_mods() && !a.reg.is_zero(),
        _ => false,
    };
    let r = match (info.sem, d.srcs.len()) {
        (Sem::Add, 2) => match (k(0), k(1)) {
            (_, Some(0)) => Outcome::Src(0),
            (Some(0), _) => Outcome::Src(1),
            _ => return None,
        },
        (Sem::Sub, 2) if k(1) == Some(0) => Outcome::Src(0),
        (Sem::Sub | Sem::Xor, 2) if same(0, 1) => Outcome::Const(0),
        (Sem::Mul, 2) => match (k(0), k(1)) {
            (_, Some(0)) | (Some(0), _) => Outcome::Const(0),
            (_, Some(1)) => Outcome::Src(0),
            (Some(1), _) => Outcome::Src(1),
            _ => return None,
        },
        (Sem::And | Sem::Or | Sem::Xor, 2) => {
            if matches!(info.sem, Sem::And | Sem::Or) && same(0, 1) {
                Outcome::Src(0)
            } else {
                let (c, x) = match (k(0), k(1)) {
                    (_, Some(c)) => (c, 0),
                    (Some(c), _) => (c, 1),
                    _ => return None,
                };
                match (info.sem, c) {
                    (Sem::And, 0) => Outcome::Const(0),
                    (Sem::Or, c) if c == ones => Outcome::Const(ones),
                    (Sem::And, c) if c == ones => Outcome::Src(x),
                    (Sem::Or | Sem::Xor, 0) => Outcome::Src(x),
                    _ => return None,
                }
            }
        }
        // The shift amount is read as 32 bits whatever the type.
        (Sem::Shl | Sem::Shr, 2) if d.srcs.get(1).and_then(|o| const_value(konst, o, 32)) == Some(0) => Outcome::Src(0),
        (Sem::Setp, 2) => Outcome::Const(u64::from(setp(ty, m.cmp?, k(0), k(1), same(0, 1))?)),
        (Sem::Selp, 3) if same(0, 1) => Outcome::Src(0),
        _ => return None,
    };
    let src = match r {
        Outcome::Src(i) => {
            let Operand::Reg(u) = d.srcs.get(i)? else { return None };
            if u.has_mods() || u.reg.is_zero() || f.reg_class(u.reg)? != dclass {
                return None;
            }
            Operand::Reg(*u)
        }
        Outcome::Const(b) if dclass.file.is_pred() => Operand::Reg(const_pred(dclass.file, b != 0)),
        Outcome::Const(b) => Operand::Imm(imm_for(Some(if w > 32 { Ty::B64 } else { Ty::B32 }), b & ones)),
    };
    let mut new = make_mov(f, dst, dclass, src)?;
    new.guard = d.guard;
    Some(new)
}

/// The effective value of a constant operand at width `w` (`~`/`!` applied), or `None` when it
/// is not a constant or is read with `-`/`|.|`.
fn const_value(konst: &dyn Fn(&Operand) -> Option<Arg>, o: &Operand, w: u32) -> Option<u64> {
    let a = konst(o)?;
    if a.neg || a.abs {
        return None;
    }
    let v = match a.val {
        Val::Pred(p) => u64::from(p),
        Val::Bits(b) => b,
    };
    Some(if a.not { !v } else { v } & mask(w))
}

/// The known result of an integer `setp` of `a` and `b` (constants where known; `same` when
/// both read one register unmodified), or `None`.
fn setp(ty: Ty, c: Cmp, a: Option<u64>, b: Option<u64>, same: bool) -> Option<bool> {
    use Cmp::*;
    // (a < b, a <= b, a > b, a >= b): which order is asked.
    let (lt, le, gt, ge) = (
        matches!(c, Lt | Lo | Ltu),
        matches!(c, Le | Ls | Leu),
        matches!(c, Gt | Hi | Gtu),
        matches!(c, Ge | Hs | Geu),
    );
    if same {
        return match c {
            Eq | Equ => Some(true),
            Ne | Neu => Some(false),
            _ if le || ge => Some(true),
            _ if lt || gt => Some(false),
            _ => None,
        };
    }
    let unsigned = matches!(c, Lo | Ls | Hi | Hs) || !ty.is_signed();
    if !unsigned {
        return None;
    }
    let max = mask(ty.bits());
    // `x >= 0`, `x < 0`, `x <= max`, `x > max`; mirrored for a constant first operand.
    match (a, b) {
        (_, Some(0)) if ge || lt => Some(ge),
        (_, Some(m)) if m == max && (le || gt) => Some(le),
        (Some(0), _) if le || gt => Some(le),
        (Some(m), _) if m == max && (ge || lt) => Some(ge),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::setp;
    use crate::ori::{Cmp, Ty};

    #[test]
    fn setp_unsigned_bounds() {
        assert_eq!(setp(Ty::U32, Cmp::Ge, None, Some(0), false), Some(true));
        assert_eq!(setp(Ty::U32, Cmp::Lt, None, Some(0), false), Some(false));
        assert_eq!(setp(Ty::S32, Cmp::Hs, None, Some(0), false), Some(true));
        assert_eq!(setp(Ty::S32, Cmp::Ge, None, Some(0), false), None);
        assert_eq!(setp(Ty::U32, Cmp::Le, None, Some(0xFFFF_FFFF), false), Some(true));
        assert_eq!(setp(Ty::U64, Cmp::Le, None, Some(0xFFFF_FFFF), false), None);
        assert_eq!(setp(Ty::U32, Cmp::Gt, Some(0), None, false), Some(false));
        assert_eq!(setp(Ty::U32, Cmp::Eq, None, Some(0), false), None);
        assert_eq!(setp(Ty::S32, Cmp::Lt, None, None, true), Some(false));
        assert_eq!(setp(Ty::S32, Cmp::Ge, None, None, true), Some(true));
    }
}
