//! Atomics and reductions: `atom`/`red` on global and shared memory.
//!
//! - global: `ATOMG` (SASS `ATOMG.E.op.STRONG.GPU PT, Rd, desc[UR][Ra.64+off], Rb`); when
//!   nothing reads the old value (every `red`, and an `atom` whose destination is dead) the
//!   destination is RZ (also for 64-bit operations) and emission writes
//!   `REDG.E.op.STRONG.GPU` as ptxas does. Compare-and-swap is `ATOMGCAS` (global), `ATOMCAS` (generic, `ATOM.E.CAS`) or `ATOMSCAS`.
//! - shared: `ATOMS` / `ATOMSCAS` with the shared address form of loads
//!   ([`Sel::shared_ref`]). Shared atomics without an `ATOMS` form (float add, 64-bit
//!   add/min/max/and/or/xor, 16-bit add) are not selected here: phase 5 ConvertUnsupportedOps
//!   (`opt::convert_unsupported`) has already made them compare-and-swap loops of `ld.shared`
//!   and `atomcas` (ptxas: an `ATOMS.CAST.SPIN` loop; ptxas also warp-aggregates some shared
//!   atomics, which is not done here). Selecting without that phase (callers that skip the
//!   pipeline run `opt::Pipeline::before_selection` first) is a located error, not a panic.
//! - generic: `ATOM` (SASS `ATOM.E.op.STRONG.GPU PT, Rd, desc[UR][Ra.64+off], Rb`, RZ when
//!   the old value is unused, as ptxas emits it); generic compare-and-swap is refused.
//! - Scopes and memory-order qualifiers are dropped by lowering: every atomic is
//!   `.STRONG.GPU` (ptxas: `.SM` for `.cta`, `.SYS` for `.sys`, and `MEMBAR`/`CCTL` fences around
//!   acquire/release forms), which orders no more than `.gpu` scope.
//!
//! The operation, type, rounding (`.rn` of float add) and `.ftz` are kept in the modifiers;
//! the value operands are registers (immediates are moved into one).

use super::{R, Sel, rz};
use crate::opt::convert_unsupported::combine_op;
use crate::ori::{InstData, Mods, Opcode, Operand, Reg, RegClass, Space, SubOp, Ty};

impl Sel<'_> {
    /// Whether some instruction of the function being selected reads `r`.
    fn is_read(&self, r: Reg) -> bool {
        let old = self.old;
        old.inst_order().any(|(_, i)| old.insts[i].uses().any(|u| u == r))
    }

    /// `atom` / `atomcas` (and `red`, which lowers to an `atom` with an unused destination).
    pub(crate) fn sel_atom(&mut self, d: &InstData) -> R<()> {
        let t = d.ty().ok_or("an atomic without a type")?;
        let Some(Operand::Mem(m)) = d.srcs.first() else { return Err("no memory operand".into()) };
        let dst = Self::dst(d)?;
        if combine_op(d).is_some() {
            return Err(format!(
                "shared `atom.{}` of {t} has no `ATOMS` form: phase 5 ConvertUnsupportedOps makes it a \
                 compare-and-swap loop before selection (`opt::Pipeline::before_selection`), which did not run \
                 or could not convert this one",
                d.mods.sub.map_or("?", SubOp::name)
            ));
        }
        let cas = d.opcode == Opcode::AtomCas;
        let wide = t.bits() == 64;
        if !matches!(t.bits(), 32 | 64) {
            return Err(format!("{}-bit atomics are not selected", t.bits()));
        }
        let val = |s: &mut Self, o: &Operand| if wide { s.wide_reg(o) } else { s.reg_src(o) };
        let (op, m) = match m.space {
            Space::Global => {
                if let Some(b) = m.base
                    && !b.is_zero()
                    && self.class(b) != RegClass::R64
                {
                    return Err("a global atomic needs a 64-bit address register".into());
                }
                (if cas { Opcode::ATOMGCAS } else { Opcode::ATOMG }, m.clone())
            }
            Space::Shared => {
                if !cas && !native_shared(t, d.mods.sub) {
                    return Err(format!(
                        "shared `atom.{}` of {t} is not selected yet",
                        d.mods.sub.map_or("?", SubOp::name)
                    ));
                }
                let m = self.shared_ref(m)?;
                (if cas { Opcode::ATOMSCAS } else { Opcode::ATOMS }, m)
            }
            Space::Generic => {
                if let Some(b) = m.base
                    && !b.is_zero()
                    && self.class(b) != RegClass::R64
                {
                    return Err("a generic atomic needs a 64-bit address register".into());
                }
                if m.sym.is_some() {
                    return Err("a generic atomic on a variable's symbol is not selected yet".into());
                }
                (if cas { Opcode::ATOMCAS } else { Opcode::ATOM }, m.clone())
            }
            s => return Err(format!("atomics on {} space are not selected yet", s.name())),
        };
        let mut srcs = vec![Operand::Mem(m)];
        for o in &d.srcs[1..] {
            srcs.push(val(self, o)?);
        }
        // The old value goes to RZ when nothing reads it (REDG / `ATOMS RZ`), also for 64-bit
        // operations (the zero register stands for the discarded pair).
        let dst = if !cas && !self.is_read(dst) { rz_reg() } else { dst };
        let mods = if cas {
            Mods::ty(t)
        } else {
            Mods { ty: Some(t), sub: d.mods.sub, rnd: d.mods.rnd, flags: d.mods.flags.clone(), ..Mods::new() }
        };
        self.emit(op, mods, vec![dst], srcs);
        Ok(())
    }
}

fn rz_reg() -> Reg {
    match rz() {
        Operand::Reg(u) => u.reg,
        _ => unreachable!("rz() is a register"),
    }
}

/// Whether the shared atomic is selected as one `ATOMS`: 32-bit integer operations and the
/// 64-bit exchange (`ATOMS.EXCH.64`, as ptxas 13.0.88 selects `atom.shared.exch.b64`); the
/// operations without an `ATOMS` form phase 5 has made compare-and-swap loops.
fn native_shared(t: Ty, sub: Option<SubOp>) -> bool {
    !t.is_float() && (t.bits() == 32 || (t.bits() == 64 && sub == Some(SubOp::Exch)))
}
