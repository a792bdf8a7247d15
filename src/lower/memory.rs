//! Memory instructions: `ld`, `ldu`, `st` (scalar and vector), `atom`, `red`, `cvta`,
//! `isspacep`, and the hints that do not change results (`prefetch`, `prefetchu`,
//! `applypriority`, `discard`, `createpolicy`).
//!
//! Address operands `[base+offset]` resolve by what the base names: a register (the PTX space,
//! generic if none), a frame variable or `.func` parameter (local memory relative to the
//! frame), a kernel parameter (param space at its offset), a module variable (its space, by
//! symbol), or an integer (an absolute address).
//!
//! Invariants: a vector access of N elements is N scalar accesses at consecutive element
//! offsets (elements written as `_` are skipped); the memory-ordering qualifiers
//! (`.relaxed`, `.acquire`, scopes, cache operators) are dropped, which is exact for this
//! in-order, one-warp-at-a-time model; `red` is `atom` into a scratch register;
//! `createpolicy` gives the policy 0; the hints are no instructions at all.

use super::func::{FnCx, Sym};
use super::mods::PtxMods;
use super::types::{class_of_ty, const_int};
use super::{LowerError, Result};
use crate::ori::{FuncKind, Imm, MemRef, Mods, Opcode, Operand, RegClass, Space, SubOp, Ty};
use crate::ptx::ast::{self, AddrElem, ExprKind};

impl FnCx<'_> {
    /// The memory reference of an address operand accessed in PTX space `space` (`None`:
    /// generic).
    pub fn mem_ref(&mut self, o: &ast::Operand, space: Option<Space>, elem: i64) -> Result<MemRef> {
        if let ast::Operand::Indexed(id, idx) = o {
            // `sym[i]` addresses element i of the access size (as ptxas does).
            let i = const_int(idx).ok_or_else(|| LowerError::at(idx.span, "array index is not a constant"))?;
            let e = ast::Expr { kind: ExprKind::Sym(id.clone(), None), span: id.span };
            let off = ast::Expr {
                kind: ExprKind::Int(ast::IntLit { text: (i * elem).to_string(), span: idx.span }),
                span: idx.span,
            };
            let t = AddrElem::Term { base: e, offset: Some(off) };
            return self.mem_ref(&ast::Operand::Address(vec![t], id.span), space, elem);
        }
        let ast::Operand::Address(elems, span) = o else {
            return self.err("expected an address operand `[...]`");
        };
        let [AddrElem::Term { base, offset }] = elems.as_slice() else {
            return Err(LowerError::at(*span, "unsupported address form"));
        };
        let off = match offset {
            None => 0,
            Some(e) => const_int(e).ok_or_else(|| LowerError::at(e.span, "address offset is not a constant"))?,
        };
        let generic = space.unwrap_or(Space::Generic);
        match &base.kind {
            ExprKind::Sym(id, None) => match self.lookup(&id.name) {
                Some(Sym::Reg(v, _)) => {
                    let sp = match generic {
                        Space::Param if self.f.kind == FuncKind::Func => Space::Local,
                        s => s,
                    };
                    Ok(MemRef { space: sp, sym: None, base: Some(v.into()), offset: off })
                }
                Some(Sym::Frame(o)) => {
                    Ok(MemRef { space: Space::Local, sym: None, base: Some(self.sp.into()), offset: o as i64 + off })
                }
                Some(Sym::ParamReg(..)) => Err(LowerError::at(
                    base.span,
                    format!(
                        "`{}` is a `.param` scalar held in a register: only whole-value ld/st.param reach it",
                        id.name
                    ),
                )),
                Some(Sym::ParamAddr(v)) => {
                    Ok(MemRef { space: Space::Local, sym: None, base: Some(v.into()), offset: off })
                }
                Some(Sym::KParam(o)) => {
                    Ok(MemRef { space: Space::Param, sym: None, base: None, offset: o as i64 + off })
                }
                Some(Sym::Var(name, s)) => Ok(MemRef { space: s, sym: Some(name), base: None, offset: off }),
                None => Err(LowerError::at(base.span, format!("unknown symbol `{}`", id.name))),
            },
            _ => match const_int(base) {
                Some(v) => Ok(MemRef { space: generic, sym: None, base: None, offset: v.wrapping_add(off) }),
                None => Err(LowerError::at(base.span, "unsupported address base")),
            },
        }
    }

    fn vec_elems(&mut self, o: &ast::Operand, n: u8) -> Result<Vec<Option<ast::Expr>>> {
        if let Some(v) = self.vector_operand(o, n) {
            return Ok(v.into_iter().map(Some).collect());
        }
        match o {
            ast::Operand::Vector(v, _) if v.len() == usize::from(n) => Ok(v
                .iter()
                .map(|e| match e {
                    ast::VecElem::Expr(e) => Some(e.clone()),
                    ast::VecElem::Sink(_) => None,
                })
                .collect()),
            ast::Operand::Expr(e) if n == 1 => Ok(vec![Some(e.clone())]),
            _ => self.err(format!("expected a vector of {n} elements")),
        }
    }

    /// Memory instructions.
    pub(super) fn memory(&mut self, i: &ast::Instruction) -> Result<()> {
        let name = i.opcode.name.as_str();
        let mut m = PtxMods::of(i, false);
        match name {
            "prefetch" | "prefetchu" | "applypriority" | "discard" => Ok(()),
            "createpolicy" => {
                let d = self.dst(self.operand(i, 0)?, RegClass::R64)?;
                self.emit(Opcode::Mov, Mods::ty(Ty::B64), vec![d], vec![Operand::Imm(Imm::Int(0))])?;
                Ok(())
            }
            "ld" | "ldu" | "st" => {
                self.leftovers(&m)?;
                let ty = self.one_ty(&m.types)?;
                let volatile = m.has("volatile");
                let mut md = Mods::ty(ty);
                if volatile {
                    md.set(crate::ori::Flag::Volatile);
                }
                let size = i64::from((ty.bits() / 8).max(1));
                let load = name != "st";
                let (addr_op, val_op) = if load {
                    (self.operand(i, 1)?, self.operand(i, 0)?)
                } else {
                    (self.operand(i, 0)?, self.operand(i, 1)?)
                };
                // A `.param` scalar held in a register: the access is a move.
                if m.vec <= 1
                    && m.space == Some(Space::Param)
                    && let Some(n) = super::param_regs::whole_address(addr_op)
                    && let Some(Sym::ParamReg(v, psize)) = self.lookup(n)
                {
                    if psize != size as u64 {
                        return self.err(format!("a {size}-byte access to the {psize}-byte `.param` `{n}`"));
                    }
                    if load {
                        let d = self.dst(val_op, class_of_ty(ty))?;
                        self.emit(Opcode::Mov, Mods::ty(ty), vec![d], vec![Operand::reg(v)])?;
                    } else {
                        let s = self.src(val_op, ty)?;
                        self.emit(Opcode::Mov, Mods::ty(ty), vec![v.into()], vec![s])?;
                    }
                    return Ok(());
                }
                let mut base = self.mem_ref(addr_op, m.space, size)?;
                let elems: Vec<Option<ast::Operand>> = if m.vec > 1 {
                    self.vec_elems(val_op, m.vec)?.into_iter().map(|e| e.map(ast::Operand::Expr)).collect()
                } else {
                    vec![Some(val_op.clone())]
                };
                // A vector load into its own address register reads the address once, first:
                // the element loads then use a copy of it.
                if load
                    && elems.len() > 1
                    && let Some(b) = base.base
                {
                    let mut overwrites = false;
                    for e in elems.iter().flatten() {
                        if matches!(e, ast::Operand::Expr(_)) && self.dst(e, class_of_ty(ty))? == b {
                            overwrites = true;
                        }
                    }
                    if let (true, crate::ori::Reg::Virt(v)) = (overwrites, b) {
                        let class = self.f.vregs[v].class;
                        let t = self.tmp(class);
                        let mty = if class == RegClass::R64 { Ty::B64 } else { Ty::B32 };
                        self.emit(Opcode::Mov, Mods::ty(mty), vec![t.into()], vec![Operand::reg(v)])?;
                        base.base = Some(t.into());
                    }
                }
                for (k, e) in elems.iter().enumerate() {
                    let Some(e) = e else { continue };
                    let mut mr = base.clone();
                    mr.offset += size * k as i64;
                    if load {
                        let d = self.dst(e, class_of_ty(ty))?;
                        self.emit(Opcode::Ld, md.clone(), vec![d], vec![Operand::Mem(mr)])?;
                    } else {
                        let v = self.src(e, ty)?;
                        self.emit(Opcode::St, md.clone(), vec![], vec![Operand::Mem(mr), v])?;
                    }
                }
                Ok(())
            }
            "atom" | "red" => {
                let ops = ["add", "min", "max", "and", "or", "xor", "exch", "inc", "dec", "cas"];
                let Some(aop) = m.take(&ops) else { return self.err(format!("`{name}` needs an operation")) };
                self.leftovers(&m)?;
                let ty = self.one_ty(&m.types)?;
                if ty == Ty::F16 && aop != "add" {
                    return self.err("f16 atomics other than add are not supported");
                }
                let red = name == "red";
                let (addr_at, first_val) = if red { (0, 1) } else { (1, 2) };
                let mr = self.mem_ref(self.operand(i, addr_at)?, m.space, i64::from(ty.bits() / 8))?;
                let d = if red {
                    self.tmp(class_of_ty(ty)).into()
                } else {
                    self.dst(self.operand(i, 0)?, class_of_ty(ty))?
                };
                if aop == "cas" {
                    let b = self.src(self.operand(i, first_val)?, ty)?;
                    let c = self.src(self.operand(i, first_val + 1)?, ty)?;
                    self.emit(Opcode::AtomCas, Mods::ty(ty), vec![d], vec![Operand::Mem(mr), b, c])?;
                } else {
                    let b = self.src(self.operand(i, first_val)?, ty)?;
                    let mut md = Mods::ty(ty);
                    md.sub = SubOp::from_name(&aop);
                    if ty.is_float() && aop == "add" {
                        md.rnd = Some(crate::ori::Rnd::Rn);
                    }
                    self.emit(Opcode::Atom, md, vec![d], vec![Operand::Mem(mr), b])?;
                }
                Ok(())
            }
            "cvta" => {
                let to = m.has("to");
                self.leftovers(&m)?;
                let ty = self.one_ty(&m.types)?;
                let space = m.space.ok_or_else(|| LowerError::at(i.span, "cvta needs a state space"))?;
                let s = self.src(self.operand(i, 1)?, ty)?;
                let d = self.dst(self.operand(i, 0)?, class_of_ty(ty))?;
                let sub = match space {
                    Space::Global => None,
                    Space::Shared => Some(SubOp::SpShared),
                    Space::Local => Some(SubOp::SpLocal),
                    Space::Const => Some(SubOp::SpConst),
                    Space::Param => Some(SubOp::SpParam),
                    Space::Generic => None,
                };
                match sub {
                    None => {
                        self.emit(Opcode::Mov, Mods::ty(ty), vec![d], vec![s])?;
                    }
                    Some(sub) => {
                        let md = Mods { sub: Some(sub), ..Mods::ty(ty) };
                        self.emit(if to { Opcode::CvtaTo } else { Opcode::Cvta }, md, vec![d], vec![s])?;
                    }
                }
                Ok(())
            }
            "getctarank" => {
                // `getctarank{.shared::cluster}.{u32,u64} d, a` (a register or a variable).
                self.leftovers(&m)?;
                let ty = match m.types.as_slice() {
                    [t] if t == "u32" => Ty::U32,
                    [t] if t == "u64" => Ty::U64,
                    _ => return self.err("Unexpected instruction types specified for 'getctarank'"),
                };
                if !matches!(m.space, None | Some(Space::Shared)) {
                    return self.err("Illegal state space for instruction 'getctarank'");
                }
                let s = self.src(self.operand(i, 1)?, ty)?;
                let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
                self.emit(Opcode::Getctarank, Mods::ty(ty), vec![d], vec![s])?;
                Ok(())
            }
            "isspacep" => {
                self.leftovers(&m)?;
                let space = m.space.ok_or_else(|| LowerError::at(i.span, "isspacep needs a state space"))?;
                let sub = match space {
                    Space::Global => SubOp::SpGlobal,
                    Space::Shared => SubOp::SpShared,
                    Space::Local => SubOp::SpLocal,
                    Space::Const => SubOp::SpConst,
                    _ => SubOp::SpParam,
                };
                let s = self.src(self.operand(i, 1)?, Ty::U64)?;
                let d = self.dst(self.operand(i, 0)?, RegClass::P)?;
                let md = Mods { sub: Some(sub), ..Mods::new() };
                self.emit(Opcode::Isspacep, md, vec![d], vec![s])?;
                Ok(())
            }
            _ => self.err(format!("`{name}` is not supported")),
        }
    }
}
