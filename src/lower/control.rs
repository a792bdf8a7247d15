//! Control flow and synchronisation: `bra`, `brx.idx`, `call` (direct and indirect), `ret`,
//! `exit`, `bar`/`barrier` (CTA barriers), `bar.warp.sync`, `membar`/`fence`, `nanosleep`.
//!
//! Calls follow the ABI in the [`super`] module doc: the callee's frame base is the caller's
//! frame base plus the caller's frame size (patched in when the caller is complete), `.reg`
//! arguments and results and register-passed `.param` scalars travel by value (a `.param`
//! name kept in memory on this side is loaded before the call or stored after it), the other
//! `.param` ones by local address.
//!
//! Invariants: CTA barriers (`bar.sync`/`arrive`/`red`) are [`super::barrier`]'s; `nanosleep`
//! has no effect.

use super::func::{FnCx, Sym};
use super::mods::PtxMods;
use super::{LowerError, Passing, Result};
use crate::ori::{FuncKind, Imm, Mods, Opcode, Operand, Reg, RegClass, Ty};
use crate::ptx::ast::{self, ExprKind, ListElem};

impl FnCx<'_> {
    fn label_of(&self, o: &ast::Operand) -> Result<ast::Ident> {
        match o {
            ast::Operand::Expr(ast::Expr { kind: ExprKind::Sym(id, None), .. }) => Ok(id.clone()),
            _ => self.err("expected a label"),
        }
    }

    /// Control-flow and synchronisation instructions.
    pub(super) fn control(&mut self, i: &ast::Instruction) -> Result<()> {
        let name = i.opcode.name.as_str();
        let mut m = PtxMods::of(i, false);
        match name {
            "bra" => {
                self.leftovers(&m)?;
                let b = self.label_block(&self.label_of(self.operand(i, 0)?)?)?;
                self.emit(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(b)])?;
                Ok(())
            }
            "brx" => {
                m.take(&["idx"]);
                self.leftovers(&m)?;
                let idx = self.src(self.operand(i, 0)?, Ty::U32)?;
                let list = self.label_of(self.operand(i, 1)?)?;
                let Some(targets) = self.branch_targets.get(&list.name).cloned() else {
                    return Err(LowerError::at(list.span, format!("`{}` is not a .branchtargets list", list.name)));
                };
                let mut srcs = vec![idx];
                for t in targets {
                    let b = self.label_block(&ast::Ident { name: t, span: list.span })?;
                    srcs.push(Operand::Block(b));
                }
                self.emit(Opcode::Brx, Mods::new(), vec![], srcs)?;
                Ok(())
            }
            "ret" | "exit" => {
                self.leftovers(&m)?;
                if name == "exit" || self.f.kind == FuncKind::Entry {
                    self.emit(Opcode::Exit, Mods::new(), vec![], vec![])?;
                } else {
                    let srcs = self.ret_values()?;
                    self.emit(Opcode::Ret, Mods::new(), vec![], srcs)?;
                }
                Ok(())
            }
            "bar" | "barrier" => {
                if let Some(w) = m.take(&["warp"]) {
                    let _ = w;
                    self.leftovers(&m)?;
                    let mask = self.src(self.operand(i, 0)?, Ty::U32)?;
                    self.emit(Opcode::Warpsync, Mods::new(), vec![], vec![mask])?;
                    return Ok(());
                }
                self.cta_barrier(i)
            }
            "membar" | "fence" => {
                m.rest.clear();
                let words: Vec<&str> = i.modifiers.iter().map(|md| md.text.trim_start_matches('.')).collect();
                if words.contains(&"tensormap::generic") && words.contains(&"acquire") {
                    // `fence.proxy.tensormap::generic.acquire.scope [a], 128` (every scope is
                    // one sequence, ptxas 13.0.88).
                    let size = self.src(self.operand(i, 1)?, Ty::U32)?;
                    if !matches!(size, Operand::Imm(v) if v.bits() == 128) {
                        return self.err("fence.proxy.tensormap::generic.acquire takes the size 128");
                    }
                    // The generic address: `[reg+off]`, or a variable's address (`[var]`, as its
                    // own space's address, which is the generic one for `.global`).
                    let mut mr = self.mem_ref(self.operand(i, 0)?, None, 1)?;
                    let a = self.tmp(RegClass::R64);
                    match mr.base {
                        Some(b) if mr.sym.is_none() => {
                            let off = Operand::Imm(Imm::Int(mr.offset));
                            self.emit(Opcode::Add, Mods::ty(Ty::U64), vec![a.into()], vec![Operand::reg(b), off])?;
                        }
                        _ => {
                            let var = mr.sym.clone().and_then(|n| self.lookup(&n));
                            if let Some(super::func::Sym::Var(_, s)) = var {
                                mr.space = s;
                            }
                            self.emit(Opcode::Mova, Mods::ty(Ty::U64), vec![a.into()], vec![Operand::Mem(mr)])?;
                        }
                    }
                    self.emit(Opcode::TensormapAcquire, Mods::new(), vec![], vec![Operand::reg(a)])?;
                    return Ok(());
                }
                let form = match crate::ori::fence::Fence::from_ptx(name, &words) {
                    Ok(f) => f,
                    Err(e) => return self.err(e),
                };
                self.emit(Opcode::Membar, Mods::new(), vec![], vec![Operand::Imm(Imm::Int(form.code()))])?;
                Ok(())
            }
            "nanosleep" => Ok(()),
            // `brkpt` suspends the thread for a debugger; ptxas 13.0.88 emits the same
            // `BPT.TRAP 0x1` as for `trap`, which without a debugger ends the launch.
            "trap" | "brkpt" => {
                self.leftovers(&m)?;
                self.emit(Opcode::Trap, Mods::new(), vec![], vec![])?;
                Ok(())
            }
            // `pmevent a` triggers performance-monitor event `a` (`PMTRIG 1 << a`, ptxas),
            // `pmevent.mask m` the events of mask `m` (`PMTRIG m`); no architectural effect.
            "pmevent" => {
                let mask = m.take(&["mask"]).is_some();
                self.leftovers(&m)?;
                let n = match self.src(self.operand(i, 0)?, Ty::U32)? {
                    Operand::Imm(v) => v.bits() as u32,
                    _ => return self.err("`pmevent` takes an immediate"),
                };
                let bits = if mask { n & 0xffff } else { 1u32.checked_shl(n).unwrap_or(0) & 0xffff };
                self.emit(Opcode::Pmevent, Mods::new(), vec![], vec![Operand::Imm(Imm::Int(i64::from(bits)))])?;
                Ok(())
            }
            // `setmaxnreg.{inc,dec}.sync.aligned.u32 n` (sm_90a; the front end checks the
            // modifiers and the range): the count, then 1 for `.inc`, 0 for `.dec`.
            "setmaxnreg" => {
                let inc = match m.take(&["inc", "dec"]) {
                    Some(w) => w == "inc",
                    None => return self.err("`setmaxnreg` needs `.inc` or `.dec`"),
                };
                self.leftovers(&m)?;
                let n = match self.src(self.operand(i, 0)?, Ty::U32)? {
                    Operand::Imm(v) => v.bits() as u32,
                    _ => return self.err("`setmaxnreg` takes an immediate count"),
                };
                let ops = vec![Operand::Imm(Imm::Int(i64::from(n))), Operand::Imm(Imm::Int(i64::from(inc)))];
                self.emit(Opcode::Setmaxnreg, Mods::new(), vec![], ops)?;
                Ok(())
            }
            "griddepcontrol" => {
                let code = match m.take(&["wait", "launch_dependents"]) {
                    Some(w) if w == "wait" => 0,
                    Some(_) => 1,
                    None => return self.err("`griddepcontrol` needs `.wait` or `.launch_dependents`"),
                };
                self.leftovers(&m)?;
                self.emit(Opcode::Griddep, Mods::new(), vec![], vec![Operand::Imm(Imm::Int(code))])?;
                Ok(())
            }
            "call" => self.call(i, m),
            _ => self.err(format!("`{name}` is not supported")),
        }
    }

    fn call(&mut self, i: &ast::Instruction, m: PtxMods) -> Result<()> {
        self.leftovers(&m)?;
        let ops = &i.operands;
        let mut k = 0;
        let rets: Vec<ListElem> = match ops.first() {
            Some(ast::Operand::List(l, _)) if ops.len() > 1 => {
                k = 1;
                l.clone()
            }
            _ => Vec::new(),
        };
        let target = self.operand(i, k)?;
        k += 1;
        let args: Vec<ListElem> = match ops.get(k) {
            Some(ast::Operand::List(l, _)) => {
                k += 1;
                l.clone()
            }
            _ => Vec::new(),
        };
        let proto = ops.get(k);
        let ast::Operand::Expr(ast::Expr { kind: ExprKind::Sym(tid, None), .. }) = target else {
            return self.err("unsupported call target");
        };
        // Direct or indirect?
        let (callee, sig) = match self.lookup(&tid.name) {
            Some(Sym::Reg(v, _)) => {
                let Some(ast::Operand::Expr(ast::Expr { kind: ExprKind::Sym(p, None), .. })) = proto else {
                    return self.err("an indirect call needs a prototype or a call-target list");
                };
                let sig = self.protos.get(&p.name).cloned().ok_or_else(|| {
                    LowerError::at(p.span, format!("`{}` is not a .callprototype or .calltargets label", p.name))
                })?;
                (Err(v), sig)
            }
            _ => {
                let name = self.cx.resolve(&tid.name).to_owned();
                // A system function (`vprintf`, `malloc`, `free`, `__assertfail`) stays a `call`
                // to a function the module does not define: the executors perform it, the
                // backend calls it through the driver's address table.
                let system = crate::ptx::sema::instr::SYSTEM_FUNCTIONS.contains(&name.as_str());
                if !self.cx.func_index.contains_key(&name) && !system {
                    return Err(LowerError::at(tid.span, format!("call to `{}`, which has no body", tid.name)));
                }
                let sig = self.cx.sigs.get(&name).cloned().unwrap_or_default();
                (Ok(name), sig)
            }
        };
        if args.len() != sig.params.len() || rets.len() != sig.rets.len() {
            return self.err("call arguments do not match the callee's parameters");
        }
        let nsp = self.tmp(RegClass::R32);
        let patch = self.emit(
            Opcode::Add,
            Mods::ty(Ty::U32),
            vec![nsp.into()],
            vec![Operand::reg(self.sp), Operand::Imm(Imm::Int(0))],
        )?;
        self.patch_frame(patch);
        let mut srcs = vec![Operand::reg(nsp)];
        // Stores into `.param` names kept elsewhere than the result register, after the call.
        let mut after: Vec<(Reg, ParamHome, u64, bool)> = Vec::new();
        for (a, pass) in args.iter().zip(&sig.params) {
            let ListElem::Expr(e) = a else { return self.err("vector call arguments are not supported") };
            let sym = match &e.kind {
                ExprKind::Sym(id, None) => self.lookup(&id.name),
                _ => None,
            };
            match pass {
                Passing::Reg(_, t) => {
                    let ty = super::types::ty_of(t).unwrap_or(Ty::B32);
                    srcs.push(self.expr(e, ty)?);
                }
                &Passing::ParamReg(c, size) => {
                    // The value of a `.param` scalar: its register, or loaded from its memory.
                    let home = match sym {
                        Some(Sym::ParamReg(v, _)) => {
                            srcs.push(Operand::reg(v));
                            continue;
                        }
                        Some(Sym::Frame(o)) => ParamHome::Frame(o),
                        Some(Sym::ParamAddr(v)) => ParamHome::Addr(v),
                        _ => {
                            srcs.push(self.expr(e, super::types::bits_ty(size))?);
                            continue;
                        }
                    };
                    let t = self.tmp(c);
                    self.param_home_access(home, size, t.into(), true)?;
                    srcs.push(Operand::reg(t));
                }
                Passing::Mem { size, align } => {
                    let addr = match sym {
                        Some(Sym::Frame(o)) => self.frame_addr(o)?,
                        Some(Sym::ParamAddr(v)) => Operand::reg(v),
                        Some(Sym::ParamReg(v, psize)) => {
                            // A `.param` scalar in a register passed in memory: a fresh slot.
                            let o = self.alloc((*size).max(psize), *align);
                            self.frame_store(o, psize, Operand::reg(v))?;
                            self.frame_addr(o)?
                        }
                        _ => {
                            // A value passed to a .param parameter: store it in a fresh slot.
                            let ty = super::types::bits_ty(*size);
                            let v = self.expr(e, ty)?;
                            let o = self.alloc(*size, *align);
                            let mr = crate::ori::MemRef {
                                space: crate::ori::Space::Local,
                                sym: None,
                                base: Some(self.sp.into()),
                                offset: o as i64,
                            };
                            self.emit(Opcode::St, Mods::ty(ty), vec![], vec![Operand::Mem(mr), v])?;
                            self.frame_addr(o)?
                        }
                    };
                    srcs.push(addr);
                }
            }
        }
        let mut dsts: Vec<Reg> = Vec::new();
        for (r, pass) in rets.iter().zip(&sig.rets) {
            let ListElem::Expr(e) = r else { return self.err("vector call results are not supported") };
            let sym = match &e.kind {
                ExprKind::Sym(id, None) => self.lookup(&id.name),
                _ => None,
            };
            match pass {
                Passing::Reg(c, _) => dsts.push(self.dst(&ast::Operand::Expr(e.clone()), *c)?),
                &Passing::ParamReg(c, size) => match sym {
                    Some(Sym::ParamReg(v, _)) => dsts.push(v.into()),
                    Some(Sym::Frame(o)) => {
                        let t = self.tmp(c);
                        dsts.push(t.into());
                        after.push((t.into(), ParamHome::Frame(o), size, false));
                    }
                    Some(Sym::ParamAddr(v)) => {
                        let t = self.tmp(c);
                        dsts.push(t.into());
                        after.push((t.into(), ParamHome::Addr(v), size, false));
                    }
                    _ => return Err(LowerError::at(e.span, "a .param result must be a .param variable")),
                },
                Passing::Mem { size, align } => match sym {
                    Some(Sym::Frame(o)) => {
                        let a = self.frame_addr(o)?;
                        srcs.push(a);
                    }
                    Some(Sym::ParamAddr(v)) => srcs.push(Operand::reg(v)),
                    Some(Sym::ParamReg(v, psize)) => {
                        // A `.param` scalar in a register receiving a result in memory.
                        let o = self.alloc((*size).max(psize), *align);
                        srcs.push(self.frame_addr(o)?);
                        after.push((v.into(), ParamHome::Frame(o), psize, true));
                    }
                    _ => return Err(LowerError::at(e.span, "a .param result must be a .param variable")),
                },
            }
        }
        match callee {
            Ok(name) => {
                srcs.insert(0, Operand::Func(name));
                self.emit(Opcode::Call, Mods::new(), dsts, srcs)?;
            }
            Err(v) => {
                srcs.insert(0, Operand::reg(v));
                self.emit(Opcode::Calli, Mods::new(), dsts, srcs)?;
            }
        }
        for (r, home, size, load) in after {
            self.param_home_access(home, size, r, load)?;
        }
        Ok(())
    }

    /// `r = ld [home]` (`load`) or `st [home], r`: a `.param` scalar's value between a
    /// register and where its name keeps it in local memory.
    fn param_home_access(&mut self, home: ParamHome, size: u64, r: Reg, load: bool) -> Result<()> {
        let base = match home {
            ParamHome::Frame(o) if load => return self.frame_load(o, size, r),
            ParamHome::Frame(o) => return self.frame_store(o, size, Operand::reg(r)),
            ParamHome::Addr(v) => v,
        };
        let m = crate::ori::MemRef { space: crate::ori::Space::Local, sym: None, base: Some(base.into()), offset: 0 };
        let ty = super::types::bits_ty(size);
        if load {
            self.emit(Opcode::Ld, Mods::ty(ty), vec![r], vec![Operand::Mem(m)])?;
        } else {
            self.emit(Opcode::St, Mods::ty(ty), vec![], vec![Operand::Mem(m), Operand::reg(r)])?;
        }
        Ok(())
    }

    fn frame_addr(&mut self, o: u64) -> Result<Operand> {
        let a = self.tmp(RegClass::R32);
        self.emit(
            Opcode::Add,
            Mods::ty(Ty::U32),
            vec![a.into()],
            vec![Operand::reg(self.sp), Operand::Imm(Imm::Int(o as i64))],
        )?;
        Ok(Operand::reg(a))
    }
}

/// Where a `.param` scalar's name keeps its value in local memory: a frame slot at this
/// offset, or the local address in this register (a `.param` passed to this function in
/// memory).
#[derive(Clone, Copy, Debug)]
enum ParamHome {
    Frame(u64),
    Addr(crate::ori::VReg),
}
