//! Loads and stores by state space, kernel parameters, and addresses.
//!
//! - `ld`/`st` global → `LDG`/`STG` (64-bit address register, as the PTX-stage memory
//!   reference had it), shared → `LDS`/`STS`, local → `LDL`/`STL`, generic → `LD`/`ST`. The
//!   memory reference (base register, symbol, offset) is kept: a shared symbol's offset and
//!   the global/local bases are resolved by the later stages.
//! - `ld.param` of a kernel at a constant offset → `LDC[.64] d, c[0x0][0x210 + offset]`
//!   (sm_90's parameter base); a parameter address in a register is not selected.
//! - `ld.const` of a module variable → `LDC d, c[0x3][offset]` (the variable's offset in
//!   constant bank 3 by [`data_layout`], plus the access's; a register base indexes the bank,
//!   `c[0x3][Ra+offset]`). A const access without a symbol (a const-space address in a
//!   register) keeps a const-space `LD`, which emission refuses.
//! - The address of a `.global` variable (`mova`, and `ld`/`st`/generic accesses naming one)
//!   is read from its slot of the address table in constant bank 4 (`LDC.64 Rd, c[0x4][8*slot]`;
//!   the cubin relocates the slot to the variable, `R_CUDA_64`, as ptxas does), then the access
//!   goes through that register with the symbol's offset.
//! - A stored immediate is moved into a register first (stores read registers only).
//! - Shared addresses: sm_90 reserves the first [`SM90_SHARED_RESERVED`] (0x400) bytes of every
//!   CTA's shared window, so a variable at offset `o` of the module's shared layout
//!   ([`super::shared_layout`]) has the shared address `SR_CgaCtaId << 24 | (0x400 + o)`: bits
//!   24 and up of an sm_90 shared address are the CTA's slot in its cluster, and that slot is
//!   not 0 in general even without clusters (measured on an H200: with the bits left 0, CTAs
//!   wrote into each other's shared memory; `corpus/gpu/README.md`), so every materialised
//!   shared address reads `SR_CgaCtaId` as ptxas does (`S2R`, `SHF.L`, `IADD3`). Targets
//!   without clusters (the sm_80 family) reserve nothing and their shared address is the
//!   window offset ([`crate::target::Target::shared_reserved`], `has_clusters`).
//!   `mova` of a shared variable is that address; a shared access through
//!   a symbol (`ld.shared [s+8]`) loads the symbol's address into a register and keeps the
//!   constant offset in the instruction (`LDS R, [Ra+0x8]`), as ptxas does with its base
//!   register. A 64-bit shared address register is read through its low word (shared
//!   addresses are 32-bit).
//! - `cvta`/`cvta.to` of global addresses are copies (the global window is the identity);
//!   shared/local windows are not selected.

use std::collections::HashMap;

use super::{R, Sel, imm};
use crate::cubin::DriverSlots;
use crate::ori::{
    CBank, Cmp, Dir, Flag, InstData, MemRef, Mods, Module, Opcode, Operand, Reg, RegClass, RegUse, Space, SpecialReg,
    SubOp, Ty,
};

/// The constant bank of module `.const` variables (`.nv.constant3`).
pub const USER_CONST_BANK: u8 = 3;
/// The constant bank of the table of global-variable addresses (`.nv.constant4`).
pub const ADDRESS_TABLE_BANK: u8 = 4;

/// Where a module's `.const` and `.global` variables live (sm_90).
///
/// Invariants: offsets respect each variable's alignment and variables do not overlap; every
/// name in `address_table` is a `.global` variable of the module, once; the layout is a
/// function of the module alone, so instruction selection and the cubin writer (which both
/// call [`data_layout`]) agree on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataLayout {
    /// `.const` variable → its byte offset in constant bank 3, in module order.
    pub constant: HashMap<String, u64>,
    /// Bytes of constant bank 3 (the end of the last `.const` variable) and its alignment.
    pub constant_size: u64,
    /// Largest `.const` alignment (at least 1).
    pub constant_align: u64,
    /// `.global` variable → (initialised?, byte offset): initialised ones (a non-empty
    /// initialiser) in `.nv.global.init`, the others in `.nv.global`, each in module order.
    pub global: HashMap<String, (bool, u64)>,
    /// Sizes of `.nv.global.init` and `.nv.global`, and their alignments.
    pub global_sizes: [(u64, u64); 2],
    /// The `.global` variables, in module order: slot `i` of constant bank 4 (bytes
    /// `8i..8i+8`) holds the address of `address_table[i]`.
    pub address_table: Vec<String>,
}

impl DataLayout {
    /// The constant-bank-4 byte offset of `sym`'s address slot.
    pub fn address_slot(&self, sym: &str) -> Option<i32> {
        self.address_table.iter().position(|n| n == sym).map(|i| 8 * i as i32)
    }
}

/// The [`DataLayout`] of `m`: `.const` variables at their alignment from 0 in bank 3,
/// initialised and uninitialised `.global` variables likewise in their sections, and an address
/// slot for every `.global` variable. It depends on the module's variables only, not on its
/// code, so it is the same before and after instruction selection.
pub fn data_layout(m: &Module) -> DataLayout {
    let mut out = DataLayout { constant_align: 1, global_sizes: [(0, 1), (0, 1)], ..DataLayout::default() };
    let place = |end: &mut u64, align: &mut u64, v: &crate::ori::ModuleVar| {
        let a = u64::from(v.align.max(1));
        let off = end.div_ceil(a) * a;
        *end = off + v.size;
        *align = (*align).max(a);
        off
    };
    for v in &m.vars {
        match v.space {
            Space::Const => {
                let off = place(&mut out.constant_size, &mut out.constant_align, v);
                out.constant.insert(v.name.clone(), off);
            }
            Space::Global => {
                let init = !v.init.is_empty();
                let (end, align) = &mut out.global_sizes[usize::from(!init)];
                let off = place(end, align, v);
                out.global.insert(v.name.clone(), (init, off));
            }
            _ => {}
        }
    }
    // Every global variable gets a slot, as ptxas gives one (cg_block_float's ten unused
    // globals all have one; `tests/backend_data.rs`); the layout is then the same before and
    // after selection, which removes the symbols from the code.
    // The system functions the module calls come first, as ptxas places them (`vprintf` at 0
    // before the strings it prints), each once, in `SYSTEM_FUNCTIONS` order.
    out.address_table = super::call::system_functions_called(m);
    out.address_table.extend(m.vars.iter().filter(|v| v.space == Space::Global).map(|v| v.name.clone()));
    out
}

/// Bytes reserved at the start of every CTA's shared window on sm_90: user shared variables
/// start at this address.
pub const SM90_SHARED_RESERVED: i64 = 0x400;

impl Sel<'_> {
    pub(crate) fn sel_mem(&mut self, d: &InstData) -> R<()> {
        let t = d.ty().ok_or("memory access without a type")?;
        let Some(Operand::Mem(m)) = d.srcs.first() else { return Err("no memory operand".into()) };
        // One register per access: 128 bits in a register quad (`LDG.E.128`), for the spaces
        // with a 128-bit form.
        let quad_ok = matches!(m.space, Space::Global | Space::Generic | Space::Shared | Space::Local);
        if (t.bits() > 64 && !(t.bits() == 128 && quad_ok)) || d.dsts.len() > 1 {
            return Err(format!("{}-bit / vector accesses are not selected yet", t.bits()));
        }
        let load = d.opcode == Opcode::Ld;
        if m.space == Space::Param {
            if !load {
                return Err("st.param in a kernel is not selected".into());
            }
            if m.sym.is_some() {
                return Err("a parameter read through a symbol is not selected yet".into());
            }
            // A parameter address in a register (its param-space offset) indexes the bank.
            let index = match m.base {
                None => None,
                Some(b) if self.class(b) == RegClass::R64 => match self.halves(&Operand::reg(b))?.0 {
                    Operand::Reg(u) => Some(u.reg),
                    _ => None,
                },
                Some(b) => Some(b),
            };
            let dst = Self::dst(d)?;
            let base = self.target.param_base() as i32;
            self.load_bank(dst, t, CBank { bank: 0, index, offset: base + m.offset as i32 });
            return Ok(());
        }
        if m.space == Space::Const {
            if !load {
                return Err("a store to const space".into());
            }
            return self.load_user_const(d, m, t);
        }
        let global_sym = m.sym.as_deref().is_some_and(|s| self.data.global.contains_key(s));
        let (ld, st) = match m.space {
            Space::Global => (Opcode::LDG, Opcode::STG),
            Space::Generic if global_sym => (Opcode::LD, Opcode::ST),
            Space::Shared => (Opcode::LDS, Opcode::STS),
            Space::Local => (Opcode::LDL, Opcode::STL),
            Space::Generic | Space::Const => (Opcode::LD, Opcode::ST),
            Space::Param => unreachable!("handled above"),
        };
        let m = &match m.space {
            Space::Shared => self.shared_ref(m)?,
            Space::Local => self.local_ref(m)?,
            Space::Global | Space::Generic if global_sym => self.global_var_ref(m)?,
            _ => m.clone(),
        };
        let mut mods = Mods { ty: d.mods.ty, ..Mods::new() };
        if d.mods.has(Flag::Volatile) && matches!(ld, Opcode::LDG | Opcode::LD) {
            mods.flags.push(Flag::Volatile);
        }
        if let Some(b) = m.base
            && !b.is_zero()
            && !matches!(self.class(b), RegClass::R32 | RegClass::R64)
        {
            return Err("address register of an unexpected class".into());
        }
        if load {
            let dst = Self::dst(d)?;
            self.emit(ld, mods, vec![dst], vec![Operand::Mem(m.clone())]);
        } else {
            if st == Opcode::ST && m.space == Space::Const {
                return Err("a store to const space".into());
            }
            let v = &d.srcs[1];
            let v = if t.bits() == 64 { self.wide_reg(v)? } else { self.reg_src(v)? };
            self.emit(st, mods, vec![], vec![Operand::Mem(m.clone()), v]);
        }
        Ok(())
    }

    /// `mova`, `cvta`, `cvta.to`.
    pub(crate) fn sel_addr(&mut self, d: &InstData) -> R<()> {
        let dst = Self::dst(d)?;
        let t = d.ty().ok_or("no type")?;
        match d.opcode {
            Opcode::Mova => {
                let Some(Operand::Mem(m)) = d.srcs.first() else { return Err("mova without a memory operand".into()) };
                if matches!(m.space, Space::Global | Space::Generic)
                    && m.base.is_none()
                    && m.sym.as_deref().is_some_and(|s| self.data.global.contains_key(s))
                {
                    let r = self.global_var_ref(m)?;
                    let base = r.base.ok_or("a global variable without an address register")?;
                    let (lo, hi) = self.halves(&Operand::reg(base))?;
                    if r.offset == 0 {
                        return self.copy(dst, &Operand::reg(base), t);
                    }
                    if t.bits() != 64 {
                        return Err("a 32-bit address of a global variable".into());
                    }
                    let (l, h, c) = (self.t32(), self.t32(), self.tp());
                    self.emit(
                        Opcode::IADD3C,
                        Mods::new(),
                        vec![l.into(), c.into()],
                        vec![lo, imm(r.offset), super::rz()],
                    );
                    let carry_hi = imm(if r.offset < 0 { -1 } else { 0 });
                    self.emit(
                        Opcode::IADD3X,
                        Mods::new(),
                        vec![h.into()],
                        vec![hi, carry_hi, super::rz(), Operand::reg(c)],
                    );
                    self.pack_into(dst, Operand::reg(l), Operand::reg(h));
                    return Ok(());
                }
                if m.space == Space::Const
                    && m.base.is_none()
                    && let Some(&off) = m.sym.as_deref().and_then(|s| self.data.constant.get(s))
                {
                    // A const variable's address is its offset in constant bank 3.
                    let v = imm(off as i64 + m.offset);
                    if t.bits() == 64 {
                        self.pack_into(dst, v, imm(0));
                    } else {
                        self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![v]);
                    }
                    return Ok(());
                }
                if m.space != Space::Shared || m.base.is_some() {
                    return Err(format!("the address of a {} variable is not selected yet", m.space.name()));
                }
                let sym = m.sym.as_deref().ok_or("mova without a symbol")?;
                let v = self.shared_window_offset(sym)? + m.offset;
                if t.bits() == 64 {
                    let lo = self.t32();
                    self.slotted_shared_address(lo.into(), v);
                    self.pack_into(dst, Operand::reg(lo), imm(0));
                } else {
                    self.slotted_shared_address(dst, v);
                }
                Ok(())
            }
            Opcode::Cvta | Opcode::CvtaTo if d.mods.sub == Some(SubOp::SpLocal) => self.cvta_local(d, dst, t),
            Opcode::Cvta | Opcode::CvtaTo if d.mods.sub == Some(SubOp::SpShared) => self.cvta_shared(d, dst, t),
            Opcode::Cvta | Opcode::CvtaTo if matches!(d.mods.sub, Some(SubOp::SpConst | SubOp::SpParam)) => {
                let slots = self.driver_slots()?;
                let slot = if d.mods.sub == Some(SubOp::SpConst) { slots.const_window } else { slots.param_window };
                self.cvta_window(d, dst, t, slot)
            }
            _ => {
                if d.mods.sub != Some(SubOp::SpGlobal) {
                    return Err(format!("`{}` of a non-global space is not selected yet", d.opcode));
                }
                self.copy(dst, &d.srcs[0], t)
            }
        }
    }

    /// `cvta.local` / `cvta.to.local`: a generic address of local memory is the absolute local
    /// address plus the local window's generic base (`c[0x0][0x20]`, 64-bit, as ptxas reads
    /// it); a local address in the code is frame-relative (see [`Sel::local_ref`]), so the
    /// frame base is added going to generic and subtracted coming back. The generic form is
    /// what crosses function boundaries.
    fn cvta_local(&mut self, d: &InstData, dst: crate::ori::Reg, t: Ty) -> R<()> {
        let window = Operand::CBank(crate::ori::CBank { bank: 0, index: None, offset: 0x20 });
        let base = self.local_base;
        let rel_to_abs = |s: &mut Self, v: Operand| -> R<Operand> {
            let lo = match &v {
                Operand::Reg(u) if s.class(u.reg) == crate::ori::RegClass::R64 => s.halves(&v)?.0,
                _ => s.src(&v)?,
            };
            let Some(b) = base else { return Ok(lo) };
            let a = s.t32();
            s.emit(Opcode::IADD3, Mods::new(), vec![a.into()], vec![lo, Operand::reg(b), super::rz()]);
            Ok(Operand::reg(a))
        };
        if d.opcode == Opcode::Cvta {
            let abs = rel_to_abs(self, d.srcs[0].clone())?;
            let wide = self.vreg(crate::ori::RegClass::R64);
            self.pack_into(wide.into(), abs, imm(0));
            let add = InstData::new(Opcode::Add, Mods::ty(Ty::U64), vec![], vec![Operand::reg(wide), window]);
            if t.bits() == 64 {
                return self.sel_arith(&InstData { dsts: vec![dst], ..add });
            }
            let g = self.vreg(crate::ori::RegClass::R64);
            self.sel_arith(&InstData { dsts: vec![g.into()], ..add })?;
            let lo = self.halves(&Operand::reg(g))?.0;
            self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![lo]);
            return Ok(());
        }
        // Generic to local: the low word of (generic - window), made frame-relative.
        let src = match &d.srcs[0] {
            o @ Operand::Reg(_) if t.bits() == 64 => o.clone(),
            o => {
                let w = self.vreg(crate::ori::RegClass::R64);
                let v = self.src(o)?;
                self.pack_into(w.into(), v, imm(0));
                Operand::reg(w)
            }
        };
        let diff = self.vreg(crate::ori::RegClass::R64);
        self.sel_arith(&InstData::new(Opcode::Sub, Mods::ty(Ty::U64), vec![diff.into()], vec![src, window]))?;
        let lo = self.halves(&Operand::reg(diff))?.0;
        let rel = match base {
            Some(b) => {
                let r = self.t32();
                let nb = Operand::Reg(RegUse { neg: true, ..RegUse::new(b) });
                self.emit(Opcode::IADD3, Mods::new(), vec![r.into()], vec![lo, nb, super::rz()]);
                Operand::reg(r)
            }
            None => lo,
        };
        if t.bits() == 64 {
            self.pack_into(dst, rel, imm(0));
        } else {
            self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![rel]);
        }
        Ok(())
    }

    /// The target's driver slots of constant bank 0 (generic windows, ...); an error where
    /// they are not known.
    pub(crate) fn driver_slots(&self) -> R<DriverSlots> {
        self.target
            .driver_slots()
            .copied()
            .ok_or_else(|| format!("the driver slots of constant bank 0 are not known for {}", self.target.name()))
    }

    /// The operand as a 64-bit register (a 32-bit one zero-extended).
    fn wide_operand(&mut self, o: &Operand, t: Ty) -> R<Operand> {
        if t.bits() == 64
            && let Operand::Reg(_) = o
        {
            return Ok(o.clone());
        }
        let w = self.vreg(RegClass::R64);
        let v = self.src(o)?;
        self.pack_into(w.into(), v, imm(0));
        Ok(Operand::reg(w))
    }

    /// `dst = op(a, c[0x0][slot])` on 64 bits (`add`/`sub`/`setp`), truncated to `t`'s width.
    fn with_window(&mut self, op: Opcode, mods: Mods, dst: Reg, a: Operand, slot: u32, t: Ty) -> R<()> {
        let window = Operand::CBank(CBank { bank: 0, index: None, offset: slot as i32 });
        if t.bits() == 64 || op == Opcode::Setp {
            return self.inst(&InstData::new(op, mods, vec![dst], vec![a, window]));
        }
        let g = self.vreg(RegClass::R64);
        self.inst(&InstData::new(op, mods, vec![g.into()], vec![a, window]))?;
        let lo = self.halves(&Operand::reg(g))?.0;
        self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![lo]);
        Ok(())
    }

    /// `cvta.const`/`cvta.param` and back: the window's generic base is a 64-bit driver slot of
    /// bank 0 (`c[0x0][0xd0]`, `c[0x0][0x198]`), added or subtracted, as ptxas does.
    fn cvta_window(&mut self, d: &InstData, dst: Reg, t: Ty, slot: u32) -> R<()> {
        let a = self.wide_operand(&d.srcs[0], t)?;
        let op = if d.opcode == Opcode::Cvta { Opcode::Add } else { Opcode::Sub };
        self.with_window(op, Mods::ty(Ty::U64), dst, a, slot, t)
    }

    /// `cvta.shared`: the generic address is the shared address under the window's high word
    /// (`S2R SR_SWINHI`, as ptxas does); `cvta.to.shared`: its low word.
    fn cvta_shared(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let lo = match &d.srcs[0] {
            o @ Operand::Reg(u) if self.class(u.reg) == RegClass::R64 => self.halves(o)?.0,
            o => self.src(o)?,
        };
        if d.opcode == Opcode::CvtaTo {
            if t.bits() == 64 {
                self.pack_into(dst, lo, imm(0));
            } else {
                self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![lo]);
            }
            return Ok(());
        }
        if t.bits() != 64 {
            return Err("a 32-bit generic shared address".into());
        }
        let hi = self.t32();
        self.emit(Opcode::S2R, Mods::new(), vec![hi.into()], vec![Operand::SReg(SpecialReg::SwinHi)]);
        self.pack_into(dst, lo, Operand::reg(hi));
        Ok(())
    }

    /// `isspacep`: `QSPC.E.S`/`QSPC.E.L` for shared and local; global is `QSPC.E.G` outside the
    /// constant window `[c[0x0][0xd0], + bank 3's size)`; const is inside that window, param inside
    /// `[c[0x0][0x198], c[0x0][0x1a0]]` (both ends, as ptxas compares) — the sequences ptxas emits.
    pub(crate) fn sel_isspacep(&mut self, d: &InstData) -> R<()> {
        let dst = Self::dst(d)?;
        let a = self.wide_operand(&d.srcs[0], Ty::U64)?;
        let slots = self.driver_slots()?;
        let cmp = |c: Cmp| {
            let mut m = Mods::ty(Ty::U64);
            m.cmp = Some(c);
            m
        };
        let and = |s: &mut Self, x: Reg, y: Reg, not_y: bool| -> R<()> {
            let mut yu = RegUse::new(y);
            yu.not = not_y;
            s.inst(&InstData::new(Opcode::And, Mods::ty(Ty::Pred), vec![dst], vec![Operand::reg(x), Operand::Reg(yu)]))
        };
        // a in [base, base + size): two 64-bit compares.
        let in_const = |s: &mut Self| -> R<Reg> {
            let (ge, lt, inside) = (s.tp(), s.tp(), s.tp());
            s.with_window(Opcode::Setp, cmp(Cmp::Ge), ge.into(), a.clone(), slots.const_window, Ty::U64)?;
            let end = s.vreg(RegClass::R64);
            let window = Operand::CBank(CBank { bank: 0, index: None, offset: slots.const_window as i32 });
            let size = imm(s.data.constant_size as i64);
            s.inst(&InstData::new(Opcode::Add, Mods::ty(Ty::U64), vec![end.into()], vec![window, size]))?;
            s.inst(&InstData::new(Opcode::Setp, cmp(Cmp::Lt), vec![lt.into()], vec![a.clone(), Operand::reg(end)]))?;
            s.inst(&InstData::new(
                Opcode::And,
                Mods::ty(Ty::Pred),
                vec![inside.into()],
                vec![Operand::reg(ge), Operand::reg(lt)],
            ))?;
            Ok(inside.into())
        };
        let qspc = |s: &mut Self, sub: SubOp, p: Reg| {
            let m = Mods { sub: Some(sub), ..Mods::new() };
            s.emit(Opcode::QSPC, m, vec![p], vec![a.clone()]);
        };
        match d.mods.sub {
            Some(sub @ (SubOp::SpShared | SubOp::SpLocal)) => qspc(self, sub, dst),
            Some(SubOp::SpGlobal) if self.data.constant_size == 0 => qspc(self, SubOp::SpGlobal, dst),
            Some(SubOp::SpGlobal) => {
                let g = self.tp();
                qspc(self, SubOp::SpGlobal, g.into());
                let c = in_const(self)?;
                and(self, g.into(), c, true)?;
            }
            Some(SubOp::SpConst) => {
                let c = in_const(self)?;
                self.emit(
                    Opcode::PLOP3,
                    Mods::new(),
                    vec![dst, super::pt_reg()],
                    vec![Operand::reg(c), super::pt(), super::pt(), imm(0xf0), imm(0)],
                );
            }
            Some(SubOp::SpParam) => {
                let (ge, gt) = (self.tp(), self.tp());
                self.with_window(Opcode::Setp, cmp(Cmp::Ge), ge.into(), a.clone(), slots.param_window, Ty::U64)?;
                self.with_window(Opcode::Setp, cmp(Cmp::Gt), gt.into(), a.clone(), slots.param_window + 8, Ty::U64)?;
                and(self, ge.into(), gt.into(), true)?;
            }
            s => return Err(format!("isspacep of {s:?}")),
        }
        Ok(())
    }

    /// `ld.const` of a module variable: `LDC` from constant bank 3 (see the module doc).
    fn load_user_const(&mut self, d: &InstData, m: &MemRef, t: Ty) -> R<()> {
        // Without a symbol the register holds a bank-3 offset (a variable's `mova`, see
        // `sel_addr`).
        let off = match m.sym.as_deref() {
            Some(sym) => *self.data.constant.get(sym).ok_or_else(|| format!("unknown const variable `{sym}`"))?,
            None => 0,
        };
        let mut index = match m.base {
            Some(b) if !b.is_zero() => Some(self.address_word(b, "const")?),
            _ => None,
        };
        let mut total = off as i64 + m.offset;
        // With an index register, an offset the form cannot hold (`ld.const.f64 [%rd62+-8]`,
        // libcurand) is added to the index instead: the bank address is their 32-bit sum.
        if let Some(i) = index
            && !(0..0x1_0000).contains(&total)
            && let Ok(add) = i32::try_from(total)
        {
            let t = self.t32();
            self.emit(
                Opcode::IADD3,
                Mods::new(),
                vec![t.into()],
                vec![Operand::reg(i), imm(i64::from(add)), super::rz()],
            );
            index = Some(t.into());
            total = 0;
        }
        let offset = i32::try_from(total)
            .ok()
            .filter(|o| (0..0x1_0000).contains(o))
            .ok_or_else(|| format!("const offset {:#x} outside the 64 KiB bank", total))?;
        self.load_bank(Self::dst(d)?, t, CBank { bank: USER_CONST_BANK, index, offset });
        Ok(())
    }

    /// `dst = c[bank][..]` of type `t`: `LDC` of the width (sub-words zero-extended by the
    /// load, then sign-extended with `PRMT` for signed types).
    pub(crate) fn load_bank(&mut self, dst: Reg, t: Ty, cb: CBank) {
        let ty = match t.bits() {
            64 => Some(Ty::U64),
            8 => Some(Ty::U8),
            16 => Some(Ty::U16),
            _ => None,
        };
        self.emit(Opcode::LDC, Mods { ty, ..Mods::new() }, vec![dst], vec![Operand::CBank(cb)]);
        if t.bits() < 32 && t.is_signed() {
            let sel = if t.bits() == 8 { 0x8880 } else { 0x9910 };
            self.emit(Opcode::PRMT, Mods::new(), vec![dst], vec![Operand::reg(dst), imm(sel), super::rz()]);
        }
    }

    /// A reference to a `.global` variable (`[sym+off]`, global or generic space): its
    /// address is loaded from the address table (constant bank 4) into a 64-bit register,
    /// which becomes the base; the offset stays.
    fn global_var_ref(&mut self, m: &MemRef) -> R<MemRef> {
        let sym = m.sym.as_deref().ok_or("a global reference without a symbol")?;
        if m.base.is_some_and(|b| !b.is_zero()) {
            return Err("a global variable reference with a register base is not selected yet".into());
        }
        let slot = self.data.address_slot(sym).ok_or_else(|| format!("no address slot for `{sym}`"))?;
        let a = self.vreg(RegClass::R64);
        self.load_bank(a.into(), Ty::U64, CBank { bank: ADDRESS_TABLE_BANK, index: None, offset: slot });
        Ok(MemRef { space: m.space, sym: None, base: Some(a.into()), offset: m.offset })
    }

    /// `dst = SR_CgaCtaId << 24 | offset`: the shared address of window offset `offset` in this
    /// CTA (see the module doc).
    /// Without clusters (the sm_80 family: [`crate::target::Target::has_clusters`]) the address
    /// is the offset itself.
    pub(crate) fn slotted_shared_address(&mut self, dst: crate::ori::Reg, offset: i64) {
        if !self.target.has_clusters() {
            self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![imm(offset)]);
            return;
        }
        let slot = self.t32();
        self.emit(Opcode::S2R, Mods::new(), vec![slot.into()], vec![Operand::SReg(SpecialReg::CgaCtaId)]);
        let hi = self.t32();
        let m = Mods { dir: Some(Dir::L), ty: Some(Ty::U32), ..Mods::new() };
        self.emit(Opcode::SHF, m, vec![hi.into()], vec![Operand::reg(slot), imm(24), super::rz()]);
        self.emit(Opcode::IADD3, Mods::new(), vec![dst], vec![Operand::reg(hi), imm(offset), super::rz()]);
    }

    /// The shared window offset of the variable `sym` (see the module doc).
    pub(crate) fn shared_window_offset(&self, sym: &str) -> R<i64> {
        let off = self.shared_offset(sym).ok_or_else(|| format!("unknown shared variable `{sym}`"))?;
        let reserved = i64::try_from(self.target.shared_reserved()).unwrap_or(SM90_SHARED_RESERVED);
        Ok(reserved + off)
    }

    /// A shared memory reference in the form LDS/STS/ATOMS read: a 32-bit base register (a
    /// symbol's address is moved into one; a 64-bit register is read through its low word)
    /// and a constant offset.
    pub(crate) fn shared_ref(&mut self, m: &MemRef) -> R<MemRef> {
        let mut out = MemRef { space: Space::Shared, sym: None, base: m.base, offset: m.offset };
        if let Some(sym) = &m.sym {
            if m.base.is_some() {
                return Err("a shared reference with both a symbol and a register".into());
            }
            let a = self.shared_window_offset(sym)?;
            let t = self.t32();
            self.slotted_shared_address(t.into(), a);
            out.base = Some(t.into());
        } else if let Some(b) = m.base
            && !b.is_zero()
        {
            out.base = Some(self.address_word(b, "shared")?);
        }
        if !(-(1 << 23)..(1 << 23)).contains(&out.offset) {
            return Err(format!("shared offset {:#x} does not fit the 24-bit immediate", out.offset));
        }
        Ok(out)
    }

    /// The 32-bit address register of a shared or local reference: `b` itself, or the low word
    /// of a 64-bit `b` (those windows' addresses are 32-bit).
    fn address_word(&mut self, b: Reg, space: &str) -> R<Reg> {
        if self.class(b) != RegClass::R64 {
            return Ok(b);
        }
        match self.halves(&Operand::reg(b))?.0 {
            Operand::Reg(u) => Ok(u.reg),
            _ => Err(format!("a 64-bit {space} address without a low word")),
        }
    }

    /// A local memory reference rebased on the kernel's frame base (see [`Sel::local_base`]): the
    /// lowered local address is an offset into the frame; the GPU's local window ends at the
    /// initial stack pointer, so the frame is addressed from the stack pointer after the
    /// prologue reserved it. Without a frame base (no frame, or not a kernel) unchanged.
    pub(crate) fn local_ref(&mut self, m: &MemRef) -> R<MemRef> {
        let Some(base) = self.local_base else { return Ok(m.clone()) };
        if m.sym.is_some() {
            return Err("a local reference through a symbol".into());
        }
        let addr = match m.base {
            Some(b) if !b.is_zero() => Some(self.address_word(b, "local")?),
            _ => None,
        };
        let out = match addr {
            None => base.into(),
            Some(a) => {
                let t = self.t32();
                self.emit(
                    Opcode::IADD3,
                    Mods::new(),
                    vec![t.into()],
                    vec![Operand::reg(a), Operand::reg(base), super::rz()],
                );
                t.into()
            }
        };
        Ok(MemRef { space: Space::Local, sym: None, base: Some(out), offset: m.offset })
    }

    /// `dst = src` for any width.
    pub(crate) fn copy(&mut self, dst: crate::ori::Reg, src: &Operand, t: Ty) -> R<()> {
        if t.bits() == 64 {
            let (lo, hi) = self.halves(src)?;
            self.pack_into(dst, lo, hi);
        } else {
            let a = self.src(src)?;
            self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![a]);
        }
        Ok(())
    }
}
