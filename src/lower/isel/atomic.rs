//! Atomics and reductions: `atom`/`red` on global and shared memory.
//!
//! - global: `ATOMG` (SASS `ATOMG.E.op.STRONG.GPU PT, Rd, desc[UR][Ra.64+off], Rb`); when
//!   nothing reads the old value (every `red`, and an `atom` whose destination is dead) the
//!   destination is RZ (also for 64-bit operations) and emission writes
//!   `REDG.E.op.STRONG.GPU` as ptxas does. Compare-and-swap is `ATOMGCAS`.
//! - shared: `ATOMS` / `ATOMSCAS` with the shared address form of loads
//!   ([`Sel::shared_ref`]). Shared f32 add and 64-bit add have no `ATOMS` form: they become a
//!   compare-and-swap loop (`Sel::shared_cas_loop`; ptxas uses an `ATOMS.CAST.SPIN` loop, and
//!   warp-aggregates some shared atomics, which is not done here).
//! - generic: `ATOM` (SASS `ATOM.E.op.STRONG.GPU PT, Rd, desc[UR][Ra.64+off], Rb`, RZ when
//!   the old value is unused, as ptxas emits it); generic compare-and-swap is refused.
//! - Scopes and memory-order qualifiers are dropped by lowering: every atomic is
//!   `.STRONG.GPU` (ptxas: `.SM` for `.cta`, `.SYS` for `.sys`, and `MEMBAR`/`CCTL` fences around
//!   acquire/release forms), which orders no more than `.gpu` scope.
//!
//! The operation, type, rounding (`.rn` of float add) and `.ftz` are kept in the modifiers;
//! the value operands are registers (immediates are moved into one).

use super::{R, Sel, imm, pt, pt_reg, r, rz};
use crate::ori::{BoolOp, Cmp, Guard, InstData, Mods, Opcode, Operand, Reg, RegClass, Space, SubOp, Ty};

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
                if !cas && !native_shared(d.mods.sub, t) {
                    return self.shared_cas_loop(d, t);
                }
                let m = self.shared_ref(m)?;
                (if cas { Opcode::ATOMSCAS } else { Opcode::ATOMS }, m)
            }
            Space::Generic => {
                if cas {
                    return Err(
                        "generic-address compare-and-swap (SASS `ATOM.E.CAS`) has no form in our sm_90 tables".into()
                    );
                }
                if let Some(b) = m.base
                    && !b.is_zero()
                    && self.class(b) != RegClass::R64
                {
                    return Err("a generic atomic needs a 64-bit address register".into());
                }
                if m.sym.is_some() {
                    return Err("a generic atomic on a variable's symbol is not selected yet".into());
                }
                (Opcode::ATOM, m.clone())
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

/// Whether sm_90 has the shared atomic as one `ATOMS` (32-bit integer operations); the rest
/// (float add, 64-bit add) are compare-and-swap loops.
fn native_shared(_sub: Option<SubOp>, t: Ty) -> bool {
    !t.is_float() && t.bits() == 32
}

impl Sel<'_> {
    /// A shared atomic without an `ATOMS` form, as a compare-and-swap loop (ptxas's
    /// `ATOMS.CAST.SPIN` loop computes the same thing):
    ///
    /// ```text
    ///      LDS old, [a]
    ///      BRA L
    /// L:   new = old op v
    ///      res = ATOMS.CAS [a], old, new
    ///      p = res != old
    ///      old = res
    ///  @p  BRA L
    ///      dst = old
    /// ```
    ///
    /// Supported: f32 add (FADD, round to nearest) and 64-bit integer add. The loop needs a
    /// block of its own, so a guarded atomic or one in a function with phis is refused.
    fn shared_cas_loop(&mut self, d: &InstData, t: Ty) -> R<()> {
        let what = || format!("shared `atom.{}` of {t}", d.mods.sub.map_or("?", SubOp::name));
        let add = d.mods.sub == Some(SubOp::AddOp);
        let wide = t.bits() == 64;
        if !(add && ((t == Ty::F32) || (wide && !t.is_float()))) {
            return Err(format!("{} needs a compare-and-swap loop of another kind, not selected yet", what()));
        }
        if self.guard.is_some() || self.has_phis() {
            return Err(format!("{} under a guard or with phis (a loop block) is not selected yet", what()));
        }
        let Some(Operand::Mem(m)) = d.srcs.first() else { return Err("no memory operand".into()) };
        let m = self.shared_ref(m)?;
        let dst = Self::dst(d)?;
        let class = if wide { RegClass::R64 } else { RegClass::R32 };
        let v = if wide { self.wide_reg(&d.srcs[1])? } else { self.reg_src(&d.srcs[1])? };
        let old: Reg = self.vreg(class).into();
        let lty = if wide { Ty::U64 } else { Ty::U32 };
        self.emit(Opcode::LDS, Mods::ty(lty), vec![old], vec![Operand::Mem(m.clone())]);
        // Blocks end in a terminator (successors come from it): the block so far jumps to the
        // loop head, which falls through to the rest when its guarded back branch is not taken.
        let before = self.cur.ok_or("no current block")?;
        let head = self.split_block();
        self.f.push_inst(before, InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(head)]));
        let new: Reg = self.vreg(class).into();
        if wide {
            let (ol, oh) = self.halves(&r(old))?;
            let (vl, vh) = self.halves(&v)?;
            let (lo, hi, c) = (self.t32(), self.t32(), self.tp());
            self.emit(Opcode::IADD3C, Mods::new(), vec![lo.into(), c.into()], vec![ol, vl, rz()]);
            self.emit(Opcode::IADD3X, Mods::new(), vec![hi.into()], vec![oh, vh, rz(), r(c)]);
            self.pack_into(new, r(lo), r(hi));
        } else {
            self.emit(Opcode::FADD, Mods::new(), vec![new], vec![r(old), v]);
        }
        let res: Reg = self.vreg(class).into();
        self.emit(Opcode::ATOMSCAS, Mods::ty(lty), vec![res], vec![Operand::Mem(m), r(old), r(new)]);
        // differ = res != old (64-bit: (lo ^ lo') | (hi ^ hi') != 0).
        let differ = if wide {
            let (rl, rh) = self.halves(&r(res))?;
            let (ol, oh) = self.halves(&r(old))?;
            let (x, y, z) = (self.t32(), self.t32(), self.t32());
            self.emit(Opcode::LOP3, Mods::new(), vec![x.into()], vec![rl, ol, rz(), imm(0x3c)]);
            self.emit(Opcode::LOP3, Mods::new(), vec![y.into()], vec![rh, oh, rz(), imm(0x3c)]);
            self.emit(Opcode::LOP3, Mods::new(), vec![z.into()], vec![r(x), r(y), rz(), imm(0xfc)]);
            (r(z), rz())
        } else {
            (r(res), r(old))
        };
        let p = self.tp();
        let cmp = Mods { cmp: Some(Cmp::Ne), ty: Some(Ty::U32), bop: Some(BoolOp::And), ..Mods::new() };
        self.emit(Opcode::ISETP, cmp, vec![p.into(), pt_reg()], vec![differ.0, differ.1, pt()]);
        self.copy(old, &r(res), lty)?;
        let back = InstData::new(Opcode::BRA, Mods::new(), vec![], vec![Operand::Block(head)]);
        self.push(InstData { guard: Some(Guard { reg: p.into(), not: false }), ..back });
        self.split_block();
        self.copy(dst, &r(old), lty)
    }
}
