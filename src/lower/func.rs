//! Lowering one function: registers and scopes, labels and blocks, the frame, operands,
//! guards, and the legalisation every emitted instruction goes through.
//!
//! Invariants:
//! - Every PTX register name resolves through the scope stack (innermost first); a `%r<N>`
//!   range creates its virtual registers on first use, one per name and scope.
//! - Blocks are laid out in source order: a block enters the layout when code is first
//!   emitted into it or its label is reached ([`FnCx::push`]).
//! - [`FnCx::emit`] legalises operands against the opcode's signature before pushing: an
//!   immediate or special register where only a register fits is moved into a temporary, a
//!   register of the wrong width (PTX's relaxed typing: `ld.u32` into a `.b64` register) is
//!   converted (`cvt`, sign-extending for signed types), and a destination of the wrong width
//!   is written through a temporary. So every emitted instruction fits its signature.
//! - While a guarded PTX instruction is lowered, every Ori instruction it produces carries its
//!   guard.
//! - A `.param` name bound to [`Sym::ParamReg`] (a register-passed parameter or result of this
//!   `.func`, or a body `.param` scalar) is mentioned only by whole-value `ld.param`/`st.param`
//!   (lowered to `mov`) and as a call operand ([`super::param_regs::register_only`] checked it
//!   before binding); otherwise the name is a frame slot ([`Sym::Frame`]), filled from the
//!   parameter register on entry, or loaded into the result register before every `ret`
//!   ([`FnCx::ret_slots`]).

use std::collections::HashMap;

use super::mods::space_of;
use super::types::{class_of, class_of_ty, const_int, float_bits, size_of, ty_of};
use super::{LowerError, ModCx, Passing, Result, Sig};
use crate::ori::EntityRef;
use crate::ori::opcode::{Slot, SlotKind};
use crate::ori::{
    Block, BlockData, FuncKind, Function, Guard, Half, Imm, Inst, InstData, Mods, Opcode, Operand, PhysReg, Reg,
    RegClass, RegUse, Space, SpecialReg, Ty, VReg,
};
use crate::ptx::ast::{self, ExprKind, Ident, Span, Statement, UnOp};

/// What a name in a function's scope stands for.
#[derive(Clone, Debug)]
pub enum Sym {
    /// A register and its PTX type.
    Reg(VReg, String),
    /// A frame variable (`.local`, or a `.param` declared in the body) at this frame offset.
    Frame(u64),
    /// A `.param` parameter or return parameter of a `.func`: its local address is in the vreg.
    ParamAddr(VReg),
    /// A `.param` scalar held in a register (a `.func`'s parameter or return value passed in
    /// registers, or a body `.param` variable only accessed whole and handed to calls;
    /// [`super::param_regs`]): the register and the scalar's size in bytes.
    ParamReg(VReg, u64),
    /// A kernel parameter at this param-space offset.
    KParam(u64),
    /// A module variable (full name, space).
    Var(String, Space),
}

#[derive(Default)]
struct Scope {
    names: HashMap<String, Sym>,
    ranges: Vec<(String, u64, RegClass, String)>,
}

/// The state of lowering one function.
pub struct FnCx<'a> {
    /// The module context.
    pub cx: &'a ModCx,
    /// The function being built.
    pub f: Function,
    cur: Option<Block>,
    scopes: Vec<Scope>,
    /// Labels by (defining statement list's address, name): labels are block-scoped, as ptxas
    /// scopes them (sibling `{ }` blocks may each define `L`, an inner `L` shadows an outer one:
    /// nvcc's inlined asm repeats its wait-loop labels so).
    labels: HashMap<(usize, String), Block>,
    /// The statement lists open at the statement being lowered, the body first.
    open_blocks: Vec<usize>,
    /// Call prototypes by label.
    pub protos: HashMap<String, Sig>,
    /// `.branchtargets` lists by label.
    pub branch_targets: HashMap<String, Vec<String>>,
    frame: u64,
    frame_patches: Vec<Inst>,
    /// The frame base (32-bit local address).
    pub sp: VReg,
    /// The carry flag of `add.cc`/`addc` chains.
    pub cc: Option<VReg>,
    /// `.reg` return parameters.
    pub ret_regs: Vec<VReg>,
    /// Return values passed in registers whose `.param` name lives in a frame slot (its
    /// accesses are not all whole-value): the return register, the slot's offset and size,
    /// loaded before every `ret`.
    pub ret_slots: Vec<(VReg, u64, u64)>,
    /// The guard of the PTX instruction being lowered.
    pub guard: Option<Guard>,
    /// The source position of the PTX instruction being lowered.
    pub span: Span,
}

/// Lowers one defined function.
pub fn lower_function(pf: &ast::Function, cx: &ModCx) -> Result<Function> {
    lower_function_framed(pf, cx).map(|(f, _)| f)
}

/// [`lower_function`], also returning the size of the function's frame in local memory (its
/// `.local` variables and body `.param` variables, rounded up to 16 bytes): the bytes below the
/// frame base that a kernel's code addresses (a callee's frame starts there).
pub fn lower_function_framed(pf: &ast::Function, cx: &ModCx) -> Result<(Function, u64)> {
    let kind = match pf.kind {
        ast::FunctionKind::Entry => FuncKind::Entry,
        ast::FunctionKind::Func => FuncKind::Func,
    };
    let mut f = Function::new(pf.name.name.clone(), kind);
    let sp = f.new_vreg(RegClass::R32);
    let mut fc = FnCx {
        cx,
        f,
        cur: None,
        scopes: vec![Scope::default()],
        labels: HashMap::new(),
        open_blocks: Vec::new(),
        protos: HashMap::new(),
        branch_targets: HashMap::new(),
        frame: 0,
        frame_patches: Vec::new(),
        sp,
        cc: None,
        ret_regs: Vec::new(),
        ret_slots: Vec::new(),
        guard: None,
        span: pf.span,
    };
    let body = pf.body.as_deref().unwrap_or(&[]);
    fc.collect_labels(body)?;
    if kind == FuncKind::Entry {
        fc.span = pf.span;
        fc.emit(Opcode::Mov, Mods::ty(Ty::U32), vec![sp.into()], vec![Operand::Imm(Imm::Int(0))])?;
        let mut off = 0u64;
        for p in pf.params.as_deref().unwrap_or(&[]) {
            let sig = Sig::of(None, Some(std::slice::from_ref(p)))?;
            let Some(Passing::Mem { size, align }) = sig.params.first().cloned() else {
                return Err(LowerError::at(p.span, "a kernel parameter must be in .param space"));
            };
            off = off.next_multiple_of(align.max(1));
            fc.scopes[0].names.insert(p.decl.name.name.clone(), Sym::KParam(off));
            off += size;
        }
    } else {
        fc.f.params.push(sp.into());
        let sig = cx.sigs.get(&pf.name.name).cloned().unwrap_or_default();
        for (p, pass) in pf.params.as_deref().unwrap_or(&[]).iter().zip(&sig.params) {
            let sym = fc.incoming(pass, &p.decl.name.name, body)?;
            fc.scopes[0].names.insert(p.decl.name.name.clone(), sym);
        }
        for (p, pass) in pf.returns.as_deref().unwrap_or(&[]).iter().zip(&sig.rets) {
            let sym = match pass {
                Passing::Reg(c, t) => {
                    let v = fc.f.new_vreg(*c);
                    fc.ret_regs.push(v);
                    fc.f.rets.push(*c);
                    Sym::Reg(v, t.clone())
                }
                &Passing::ParamReg(c, size) => {
                    let v = fc.f.new_vreg(c);
                    fc.ret_regs.push(v);
                    fc.f.rets.push(c);
                    if super::param_regs::register_only(body, &p.decl.name.name, size) {
                        Sym::ParamReg(v, size)
                    } else {
                        let off = fc.alloc(size, size);
                        fc.ret_slots.push((v, off, size));
                        Sym::Frame(off)
                    }
                }
                Passing::Mem { .. } => fc.incoming(pass, &p.decl.name.name, body)?,
            };
            fc.scopes[0].names.insert(p.decl.name.name.clone(), sym);
        }
    }
    fc.statements(body)?;
    fc.finish()?;
    let frame = fc.frame.next_multiple_of(16);
    Ok((fc.f, frame))
}

impl FnCx<'_> {
    /// The parameter `name` of this `.func` (body `body`) passed as `pass`: a new parameter
    /// register and what the name stands for. A `.param` scalar passed in a register whose
    /// accesses are not all whole-value is stored in a frame slot on entry.
    fn incoming(&mut self, pass: &Passing, name: &str, body: &[Statement]) -> Result<Sym> {
        Ok(match pass {
            Passing::Mem { .. } => {
                let v = self.f.new_vreg(RegClass::R32);
                self.f.params.push(v.into());
                Sym::ParamAddr(v)
            }
            Passing::Reg(c, t) => {
                let v = self.f.new_vreg(*c);
                self.f.params.push(v.into());
                Sym::Reg(v, t.clone())
            }
            &Passing::ParamReg(c, size) => {
                let v = self.f.new_vreg(c);
                self.f.params.push(v.into());
                if super::param_regs::register_only(body, name, size) {
                    Sym::ParamReg(v, size)
                } else {
                    let off = self.alloc(size, size);
                    self.frame_store(off, size, Operand::reg(v))?;
                    Sym::Frame(off)
                }
            }
        })
    }

    /// The operands of a `.func`'s `ret`: its return registers, after loading those whose
    /// `.param` name lives in a frame slot ([`FnCx::ret_slots`]).
    pub fn ret_values(&mut self) -> Result<Vec<Operand>> {
        for (v, off, size) in self.ret_slots.clone() {
            self.frame_load(off, size, v.into())?;
        }
        Ok(self.ret_regs.iter().map(|v| Operand::reg(*v)).collect())
    }

    /// `st.local.b<size*8> [%sp+off], v`.
    pub fn frame_store(&mut self, off: u64, size: u64, v: Operand) -> Result<()> {
        let m = self.frame_ref(off);
        self.emit(Opcode::St, Mods::ty(super::types::bits_ty(size)), vec![], vec![Operand::Mem(m), v])?;
        Ok(())
    }

    /// `dst = ld.local.b<size*8> [%sp+off]`.
    pub fn frame_load(&mut self, off: u64, size: u64, dst: Reg) -> Result<()> {
        let m = self.frame_ref(off);
        self.emit(Opcode::Ld, Mods::ty(super::types::bits_ty(size)), vec![dst], vec![Operand::Mem(m)])?;
        Ok(())
    }

    fn frame_ref(&self, off: u64) -> crate::ori::MemRef {
        crate::ori::MemRef { space: Space::Local, sym: None, base: Some(self.sp.into()), offset: off as i64 }
    }

    /// An error at the current instruction.
    pub fn err<T>(&self, msg: impl Into<String>) -> Result<T> {
        Err(LowerError::at(self.span, msg))
    }

    fn collect_labels(&mut self, stmts: &[Statement]) -> Result<()> {
        for (n, s) in stmts.iter().enumerate() {
            match s {
                Statement::Label(id) => {
                    let special = matches!(
                        stmts.get(n + 1),
                        Some(Statement::CallPrototype(_) | Statement::CallTargets(..) | Statement::BranchTargets(..))
                    );
                    if !special {
                        let b = self.f.blocks.push(BlockData::default());
                        if self.labels.insert((stmts.as_ptr() as usize, id.name.clone()), b).is_some() {
                            return Err(LowerError::at(id.span, format!("label `{}` defined twice", id.name)));
                        }
                    }
                }
                Statement::Block(b, _) => self.collect_labels(b)?,
                _ => {}
            }
        }
        Ok(())
    }

    fn statements(&mut self, stmts: &[Statement]) -> Result<()> {
        self.open_blocks.push(stmts.as_ptr() as usize);
        let r = self.statements_in_scope(stmts);
        self.open_blocks.pop();
        r
    }

    /// The block a label name resolves to from the open statement lists, innermost first.
    fn resolve_label(&self, name: &str) -> Option<Block> {
        self.open_blocks.iter().rev().find_map(|&b| self.labels.get(&(b, name.to_string())).copied())
    }

    fn statements_in_scope(&mut self, stmts: &[Statement]) -> Result<()> {
        let mut n = 0;
        while n < stmts.len() {
            match &stmts[n] {
                Statement::Label(id) => match stmts.get(n + 1) {
                    Some(Statement::CallPrototype(p)) => {
                        let sig = Sig::of_func(p.returns.as_deref(), p.params.as_deref())?;
                        self.protos.insert(id.name.clone(), sig);
                        n += 1;
                    }
                    Some(Statement::CallTargets(t, _)) => {
                        if let Some(sig) = t.first().and_then(|f| self.cx.sigs.get(self.cx.resolve(&f.name))) {
                            self.protos.insert(id.name.clone(), sig.clone());
                        }
                        n += 1;
                    }
                    Some(Statement::BranchTargets(t, _)) => {
                        self.branch_targets.insert(id.name.clone(), t.iter().map(|x| x.name.clone()).collect());
                        n += 1;
                    }
                    _ => self.label(id)?,
                },
                Statement::Instruction(i) => {
                    self.span = i.span;
                    self.guard = match &i.guard {
                        None => None,
                        Some(g) => {
                            let (v, _) = self.reg(&g.pred)?;
                            if self.f.reg_class(v.into()) != Some(RegClass::P) {
                                return self.err(format!("guard `{}` is not a predicate", g.pred.name));
                            }
                            Some(Guard { reg: v.into(), not: g.negated })
                        }
                    };
                    self.instruction(i)?;
                    self.guard = None;
                }
                Statement::Var(v) => self.declare(v, stmts)?,
                Statement::Block(b, _) => {
                    self.scopes.push(Scope::default());
                    let r = self.statements(b);
                    self.scopes.pop();
                    r?;
                }
                Statement::FuncDecl(_)
                | Statement::Loc(_)
                | Statement::Pragma(_)
                | Statement::CallPrototype(_)
                | Statement::CallTargets(..)
                | Statement::BranchTargets(..) => {}
            }
            n += 1;
        }
        Ok(())
    }

    fn label(&mut self, id: &Ident) -> Result<()> {
        let Some(b) = self.resolve_label(&id.name) else {
            return Err(LowerError::at(id.span, format!("unknown label `{}`", id.name)));
        };
        if let Some(cur) = self.cur {
            self.guard = None;
            self.push(InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(b)]));
            let _ = cur;
        }
        self.f.layout.push(b);
        self.cur = Some(b);
        Ok(())
    }

    /// The block a label names.
    pub fn label_block(&self, id: &Ident) -> Result<Block> {
        self.resolve_label(&id.name).ok_or_else(|| LowerError::at(id.span, format!("unknown label `{}`", id.name)))
    }

    fn finish(&mut self) -> Result<()> {
        if self.cur.is_some() || self.f.layout.is_empty() || self.last_guarded() {
            self.guard = None;
            let (op, srcs) = match self.f.kind {
                FuncKind::Entry => (Opcode::Exit, vec![]),
                FuncKind::Func => (Opcode::Ret, self.ret_values()?),
            };
            self.push(InstData::new(op, Mods::new(), vec![], srcs));
        }
        for b in self.labels.values() {
            if !self.f.layout.contains(b) {
                return Err(LowerError::at(self.span, "a label is never placed"));
            }
        }
        let size = self.frame.next_multiple_of(16) as i64;
        for &i in &self.frame_patches {
            self.f.insts[i].srcs[1] = Operand::Imm(Imm::Int(size));
        }
        self.compact_vregs();
        Ok(())
    }

    /// Drops virtual registers nothing mentions and renumbers the rest densely, in order, so
    /// that the text form names every register the function has.
    fn compact_vregs(&mut self) {
        let n = self.f.vregs.len();
        let mut used = vec![false; n];
        let mut mark = |r: &Reg| {
            if let Reg::Virt(v) = r {
                used[v.index()] = true;
            }
        };
        self.f.params.iter().for_each(&mut mark);
        for (_, i) in self.f.inst_order() {
            let d = &self.f.insts[i];
            d.dsts.iter().for_each(&mut mark);
            d.uses().for_each(|r| mark(&r));
        }
        let mut map = vec![None; n];
        let mut vregs = crate::ori::EntityVec::new();
        for (k, (_, data)) in self.f.vregs.iter().enumerate() {
            if used[k] {
                map[k] = Some(vregs.push(*data));
            }
        }
        let re = |r: &mut Reg| {
            if let Reg::Virt(v) = r
                && let Some(Some(nv)) = map.get(v.index())
            {
                *v = *nv;
            }
        };
        self.f.params.iter_mut().for_each(re);
        for d in self.f.insts.iter_mut().map(|(_, d)| d) {
            d.dsts.iter_mut().for_each(re);
            if let Some(g) = &mut d.guard {
                re(&mut g.reg);
            }
            for o in &mut d.srcs {
                match o {
                    Operand::Reg(u) => re(&mut u.reg),
                    Operand::Mem(m) => {
                        if let Some(b) = &mut m.base {
                            re(b);
                        }
                    }
                    Operand::CBank(c) => {
                        if let Some(b) = &mut c.index {
                            re(b);
                        }
                    }
                    _ => {}
                }
            }
        }
        self.f.vregs = vregs;
    }

    fn last_guarded(&self) -> bool {
        self.f.layout.last().and_then(|&b| self.f.last_inst(b)).is_some_and(|i| self.f.insts[i].guard.is_some())
    }

    /// Appends an instruction (with the current guard) to the current block, opening a new
    /// block first if the previous one ended; a terminator closes the block.
    pub fn push(&mut self, mut d: InstData) -> Inst {
        let b = match self.cur {
            Some(b) => b,
            None => {
                let b = self.f.blocks.push(BlockData::default());
                self.f.layout.push(b);
                b
            }
        };
        if d.guard.is_none() {
            d.guard = self.guard;
        }
        let term = d.opcode.info().is_terminator();
        let i = self.f.push_inst(b, d);
        self.cur = if term { None } else { Some(b) };
        i
    }

    /// Records `i` as an instruction whose second source becomes the frame size.
    pub fn patch_frame(&mut self, i: Inst) {
        self.frame_patches.push(i);
    }

    /// Allocates `size` bytes at `align` in the frame; returns the offset.
    pub fn alloc(&mut self, size: u64, align: u64) -> u64 {
        let off = self.frame.next_multiple_of(align.max(1));
        self.frame = off + size;
        off
    }

    /// A new virtual register of `class`.
    pub fn tmp(&mut self, class: RegClass) -> VReg {
        self.f.new_vreg(class)
    }

    /// Declares the variables of `v`, a statement of `scope` (the statements of its block,
    /// which decide whether a body `.param` scalar can live in a register).
    fn declare(&mut self, v: &ast::VarDecl, scope: &[Statement]) -> Result<()> {
        let space = v.space.text.as_str();
        if space == ".reg" {
            let class =
                class_of(&v.ty.text).ok_or_else(|| LowerError::at(v.span, format!("register type `{}`", v.ty.text)))?;
            let vec = v.pre.iter().chain(&v.post).find_map(|a| match a {
                ast::DeclAttr::Vector(n) => Some(*n),
                _ => None,
            });
            let ty = v.ty.text.trim_start_matches('.').to_owned();
            if let Some(n) = vec {
                // A vector register is its components, `%v.x`, `%v.y`, ... (one register each).
                if n > 4 {
                    return Err(LowerError::at(v.span, "vector registers of more than 4 elements"));
                }
                for d in &v.decls {
                    if !matches!(d.shape, ast::Shape::Scalar) {
                        return Err(LowerError::at(v.span, "vector register ranges or arrays are not supported"));
                    }
                    for comp in &["x", "y", "z", "w"][..usize::from(n)] {
                        let r = self.f.new_vreg(class);
                        let scope = self.scopes.last_mut().expect("scope stack is never empty");
                        scope.names.insert(format!("{}.{comp}", d.name.name), Sym::Reg(r, ty.clone()));
                    }
                }
                return Ok(());
            }
            for d in &v.decls {
                let scope = self.scopes.last_mut().expect("scope stack is never empty");
                match &d.shape {
                    ast::Shape::Range(n) => {
                        scope.ranges.push((d.name.name.clone(), n.value().unwrap_or(0), class, ty.clone()));
                    }
                    ast::Shape::Scalar => {
                        let r = self.f.new_vreg(class);
                        let scope = self.scopes.last_mut().expect("scope stack is never empty");
                        scope.names.insert(d.name.name.clone(), Sym::Reg(r, ty.clone()));
                    }
                    ast::Shape::Array(_) => return Err(LowerError::at(v.span, "register arrays are not supported")),
                }
            }
            return Ok(());
        }
        match space_of(space) {
            Some(Space::Local | Space::Param) => {
                let elem = size_of(&v.ty.text)
                    .ok_or_else(|| LowerError::at(v.span, super::vars::unsized_var_type(&v.ty.text)))?;
                let mut vecn = 1;
                let mut align = None;
                for a in v.pre.iter().chain(&v.post) {
                    match a {
                        ast::DeclAttr::Vector(n) => vecn = u64::from(*n),
                        ast::DeclAttr::Align(l) => align = l.value(),
                        _ => {}
                    }
                }
                for d in &v.decls {
                    if d.init.is_some() {
                        return Err(LowerError::at(v.span, "initialised local variables are not supported"));
                    }
                    let reg = (space_of(space) == Some(Space::Param)
                        && vecn == 1
                        && matches!(d.shape, ast::Shape::Scalar)
                        && super::param_regs::register_only(scope, &d.name.name, elem))
                    .then(|| super::param_regs::class_of_size(elem))
                    .flatten();
                    if let Some(c) = reg {
                        let r = self.f.new_vreg(c);
                        let names = &mut self.scopes.last_mut().expect("scope stack is never empty").names;
                        names.insert(d.name.name.clone(), Sym::ParamReg(r, elem));
                        continue;
                    }
                    let n = super::vars::array_len(&d.shape, v.span)?.unwrap_or(1);
                    let off = self.alloc(elem * vecn * n, align.unwrap_or(elem * vecn));
                    let scope = self.scopes.last_mut().expect("scope stack is never empty");
                    scope.names.insert(d.name.name.clone(), Sym::Frame(off));
                }
                Ok(())
            }
            Some(s @ (Space::Shared | Space::Global | Space::Const)) => {
                for d in &v.decls {
                    let full = format!("{}.{}", self.f.name, d.name.name);
                    let scope = self.scopes.last_mut().expect("scope stack is never empty");
                    scope.names.insert(d.name.name.clone(), Sym::Var(full, s));
                }
                Ok(())
            }
            _ => Err(LowerError::at(v.span, format!("variables in `{space}` are not supported"))),
        }
    }

    /// What a name stands for: scopes innermost first, then module variables.
    pub fn lookup(&mut self, name: &str) -> Option<Sym> {
        for k in (0..self.scopes.len()).rev() {
            if let Some(s) = self.scopes[k].names.get(name) {
                return Some(s.clone());
            }
            let hit = self.scopes[k].ranges.iter().find_map(|(p, n, c, t)| {
                let idx: u64 = name.strip_prefix(p.as_str())?.parse().ok()?;
                (idx < *n).then(|| (*c, t.clone()))
            });
            if let Some((c, t)) = hit {
                let v = self.f.new_vreg(c);
                let sym = Sym::Reg(v, t);
                self.scopes[k].names.insert(name.to_owned(), sym.clone());
                return Some(sym);
            }
        }
        self.cx.vars.get(name).map(|s| Sym::Var(name.to_owned(), *s))
    }

    /// Component `c` (`x y z w`, or `r g b a`) of vector register `name`.
    pub fn vector_component(&mut self, name: &str, c: &str) -> Option<VReg> {
        let c = match c {
            "r" => "x",
            "g" => "y",
            "b" => "z",
            "a" => "w",
            c => c,
        };
        match self.lookup(&format!("{name}.{c}")) {
            Some(Sym::Reg(v, _)) => Some(v),
            _ => None,
        }
    }

    /// The component expressions of an operand naming a whole vector register of `n`
    /// elements (`%v` in `ld.v2.f32 %v, [a]`), if it is one.
    pub fn vector_operand(&mut self, o: &ast::Operand, n: u8) -> Option<Vec<ast::Expr>> {
        let ast::Operand::Expr(ast::Expr { kind: ExprKind::Sym(id, None), span }) = o else { return None };
        let comps = &["x", "y", "z", "w"][..usize::from(n.min(4))];
        if comps.iter().any(|c| self.vector_component(&id.name, c).is_none()) {
            return None;
        }
        Some(
            comps
                .iter()
                .map(|c| ast::Expr { kind: ExprKind::Sym(id.clone(), Some((*c).to_owned())), span: *span })
                .collect(),
        )
    }

    /// The register a name stands for, with its PTX type.
    pub fn reg(&mut self, id: &Ident) -> Result<(VReg, String)> {
        match self.lookup(&id.name) {
            Some(Sym::Reg(v, t)) => Ok((v, t)),
            Some(_) => Err(LowerError::at(id.span, format!("`{}` is not a register", id.name))),
            None => Err(LowerError::at(id.span, format!("unknown register `{}`", id.name))),
        }
    }

    /// The single type modifier of an instruction.
    pub fn one_ty(&self, types: &[String]) -> Result<Ty> {
        match types {
            [t] => ty_of(t).ok_or_else(|| LowerError::at(self.span, format!("type `.{t}` is not supported"))),
            _ => self.err(format!("expected one type, found {}", types.len())),
        }
    }

    /// A source operand of data type `ty` (registers, immediates, special registers, `!p`,
    /// and symbols, whose address is computed).
    pub fn src(&mut self, o: &ast::Operand, ty: Ty) -> Result<Operand> {
        match o {
            ast::Operand::Expr(e) => self.expr(e, ty),
            _ => self.err("unsupported operand form"),
        }
    }

    /// A source expression of data type `ty`.
    pub fn expr(&mut self, e: &ast::Expr, ty: Ty) -> Result<Operand> {
        match &e.kind {
            ExprKind::Sym(id, Some(c)) if self.vector_component(&id.name, c).is_some() => {
                let v = self.vector_component(&id.name, c).unwrap_or_else(|| unreachable!());
                Ok(Operand::reg(v))
            }
            ExprKind::Sym(id, comp) => {
                if let Some(op) = self.special(&id.name, comp.as_deref(), e.span)? {
                    return Ok(op);
                }
                if comp.is_some() {
                    return Err(LowerError::at(e.span, format!("unknown register `{}`", id.name)));
                }
                if id.name == "WARP_SZ" {
                    return Ok(Operand::Imm(Imm::Int(32)));
                }
                match self.lookup(&id.name) {
                    Some(Sym::Reg(v, _)) => Ok(Operand::reg(v)),
                    Some(s) => {
                        let r = self.address_of(s, 0, ty)?;
                        Ok(Operand::reg(r))
                    }
                    None => match self.cx.func_index.get(self.cx.resolve(&id.name)) {
                        Some(&i) => Ok(Operand::Imm(Imm::Int(crate::ori::Module::function_address(i) as i64))),
                        None => Err(LowerError::at(e.span, format!("unknown symbol `{}`", id.name))),
                    },
                }
            }
            ExprKind::Float(l) => {
                let ft = if ty == Ty::F64 { Ty::F64 } else { Ty::F32 };
                float_bits(l, ft).map(Operand::Imm).ok_or_else(|| LowerError::at(e.span, "bad float literal"))
            }
            ExprKind::Unary(UnOp::Neg, x) if matches!(x.kind, ExprKind::Float(_)) => match self.expr(x, ty)? {
                Operand::Imm(Imm::F32(b)) => Ok(Operand::Imm(Imm::F32(b ^ 0x8000_0000))),
                Operand::Imm(Imm::F64(b)) => Ok(Operand::Imm(Imm::F64(b ^ (1 << 63)))),
                _ => Err(LowerError::at(e.span, "bad float literal")),
            },
            ExprKind::Unary(UnOp::Not, x) if matches!(x.kind, ExprKind::Sym(..)) => {
                let mut o = self.expr(x, Ty::Pred)?;
                if let Operand::Reg(u) = &mut o {
                    u.not = !u.not;
                    return Ok(o);
                }
                Err(LowerError::at(e.span, "`!` applies to a predicate register"))
            }
            ExprKind::Binary(op @ (ast::BinOp::Add | ast::BinOp::Sub), a, b)
                if matches!(a.kind, ExprKind::Sym(_, None)) && const_int(b).is_some() =>
            {
                let ExprKind::Sym(id, _) = &a.kind else { unreachable!() };
                let off = const_int(b).unwrap_or(0);
                let off = if *op == ast::BinOp::Sub { -off } else { off };
                match self.lookup(&id.name) {
                    Some(s @ (Sym::Frame(_) | Sym::ParamAddr(_) | Sym::KParam(_) | Sym::Var(..))) => {
                        Ok(Operand::reg(self.address_of(s, off, ty)?))
                    }
                    _ => Err(LowerError::at(e.span, format!("`{}` has no address", id.name))),
                }
            }
            _ => match const_int(e) {
                Some(v) => Ok(Operand::Imm(Imm::Int(v))),
                None => Err(LowerError::at(e.span, "unsupported operand expression")),
            },
        }
    }

    /// A destination register (`_` gives a fresh one of `class`).
    pub fn dst(&mut self, o: &ast::Operand, class: RegClass) -> Result<Reg> {
        match o {
            ast::Operand::Expr(e) => match &e.kind {
                ExprKind::Sym(id, None) => Ok(self.reg(id)?.0.into()),
                ExprKind::Sym(id, Some(c)) => match self.vector_component(&id.name, c) {
                    Some(v) => Ok(v.into()),
                    None => Err(LowerError::at(e.span, format!("`{}.{c}` is not a register", id.name))),
                },
                _ => Err(LowerError::at(e.span, "a destination must be a register")),
            },
            ast::Operand::Sink(_) => Ok(self.tmp(class).into()),
            _ => self.err("unsupported destination form"),
        }
    }

    /// A special register operand, or `None` if `name` is not one.
    fn special(&mut self, name: &str, comp: Option<&str>, span: Span) -> Result<Option<Operand>> {
        use SpecialReg::*;
        let xyz = |x, y, z| -> Option<SpecialReg> {
            match comp {
                Some("x") => Some(x),
                Some("y") => Some(y),
                Some("z") => Some(z),
                _ => None,
            }
        };
        let imm = |v: i64| Ok(Some(Operand::Imm(Imm::Int(v))));
        let sr = match name {
            "%tid" => xyz(TidX, TidY, TidZ),
            "%ntid" => xyz(NtidX, NtidY, NtidZ),
            "%ctaid" => xyz(CtaidX, CtaidY, CtaidZ),
            "%nctaid" => xyz(NctaidX, NctaidY, NctaidZ),
            "%clusterid" => xyz(ClusterIdX, ClusterIdY, ClusterIdZ),
            "%nclusterid" => xyz(NClusterIdX, NClusterIdY, NClusterIdZ),
            "%cluster_ctaid" => xyz(ClusterCtaidX, ClusterCtaidY, ClusterCtaidZ),
            "%cluster_nctaid" => xyz(ClusterNctaidX, ClusterNctaidY, ClusterNctaidZ),
            "%cluster_ctarank" => Some(ClusterCtaRank),
            "%cluster_nctarank" => Some(ClusterNctaRank),
            "%is_explicit_cluster" => {
                // A .pred special register: 0 or 1 read as a word, then compared.
                let r = self.tmp(RegClass::R32);
                self.emit(Opcode::Mov, Mods::ty(Ty::U32), vec![r.into()], vec![Operand::SReg(IsExplicitCluster)])?;
                let p = self.tmp(RegClass::P);
                let mut m = Mods::ty(Ty::U32);
                m.cmp = Some(crate::ori::Cmp::Ne);
                self.emit(Opcode::Setp, m, vec![p.into()], vec![Operand::reg(r), Operand::Imm(Imm::Int(0))])?;
                return Ok(Some(Operand::reg(p)));
            }
            "%laneid" => Some(LaneId),
            "%warpid" => Some(WarpId),
            "%nwarpid" => Some(NWarpId),
            "%smid" => Some(SmId),
            "%nsmid" => Some(NSmId),
            "%lanemask_eq" => Some(LanemaskEq),
            "%lanemask_lt" => Some(LanemaskLt),
            "%lanemask_le" => Some(LanemaskLe),
            "%lanemask_gt" => Some(LanemaskGt),
            "%lanemask_ge" => Some(LanemaskGe),
            "%clock" => Some(ClockLo),
            "%clock_hi" => Some(ClockHi),
            "%globaltimer_lo" => Some(GlobalTimerLo),
            "%globaltimer_hi" => Some(GlobalTimerHi),
            "%dynamic_smem_size" => Some(DynSmemSize),
            "%total_smem_size" | "%aggr_smem_size" => Some(TotalSmemSize),
            "%clock64" | "%globaltimer" | "%gridid" => {
                let (lo, hi) = match name {
                    "%clock64" => (ClockLo, Some(ClockHi)),
                    "%globaltimer" => (GlobalTimerLo, Some(GlobalTimerHi)),
                    _ => (GridId, None),
                };
                let l = self.tmp(RegClass::R32);
                self.emit(Opcode::Mov, Mods::ty(Ty::U32), vec![l.into()], vec![Operand::SReg(lo)])?;
                let h = match hi {
                    Some(hi) => {
                        let h = self.tmp(RegClass::R32);
                        self.emit(Opcode::Mov, Mods::ty(Ty::U32), vec![h.into()], vec![Operand::SReg(hi)])?;
                        Operand::reg(h)
                    }
                    None => Operand::Imm(Imm::Int(0)),
                };
                let r = self.pack64(Operand::reg(l), h)?;
                return Ok(Some(Operand::reg(r)));
            }
            "%reserved_smem_offset_begin" => Some(ReservedSmemBegin),
            "%reserved_smem_offset_end" => Some(ReservedSmemEnd),
            "%reserved_smem_offset_cap" => Some(ReservedSmemCap),
            "%reserved_smem_offset_0" => Some(ReservedSmem0),
            "%reserved_smem_offset_1" => Some(ReservedSmem1),
            // No driver environment in this model: 0.
            _ if name.starts_with("%envreg") => return imm(0),
            _ if name.starts_with("%pm") => {
                return Err(LowerError::at(span, format!("special register `{name}` is not supported")));
            }
            _ => return Ok(None),
        };
        let Some(sr) = sr else {
            return Err(LowerError::at(span, format!("special register `{name}` needs .x, .y or .z")));
        };
        let r = self.tmp(RegClass::R32);
        self.emit(Opcode::Mov, Mods::ty(Ty::U32), vec![r.into()], vec![Operand::SReg(sr)])?;
        Ok(Some(Operand::reg(r)))
    }

    /// `{hi:lo}` as a 64-bit register from two 32-bit operands.
    pub fn pack64(&mut self, lo: Operand, hi: Operand) -> Result<VReg> {
        let l = self.tmp(RegClass::R64);
        self.emit(Opcode::Cvt, cvt_mods(Ty::U64, Ty::U32), vec![l.into()], vec![lo])?;
        let h = self.tmp(RegClass::R64);
        self.emit(Opcode::Cvt, cvt_mods(Ty::U64, Ty::U32), vec![h.into()], vec![hi])?;
        let hs = self.tmp(RegClass::R64);
        self.emit(Opcode::Shl, Mods::ty(Ty::B64), vec![hs.into()], vec![Operand::reg(h), Operand::Imm(Imm::Int(32))])?;
        let r = self.tmp(RegClass::R64);
        self.emit(Opcode::Or, Mods::ty(Ty::B64), vec![r.into()], vec![Operand::reg(hs), Operand::reg(l)])?;
        Ok(r)
    }

    /// The address of a symbol plus `off`, as a register of `ty`'s width (64-bit unless `ty`
    /// is 32-bit): frame variables are `%sp + offset` (local addresses), module variables
    /// their space-relative address (`mova`), kernel parameters their param offset.
    pub fn address_of(&mut self, s: Sym, off: i64, ty: Ty) -> Result<VReg> {
        let wide = ty.bits() != 32;
        let (class, uty) = if wide { (RegClass::R64, Ty::U64) } else { (RegClass::R32, Ty::U32) };
        let r = self.tmp(class);
        match s {
            Sym::Reg(..) => return self.err("a register has no address"),
            Sym::ParamReg(..) => return self.err("a `.param` scalar held in a register has no address"),
            Sym::Frame(o) => {
                let a = self.tmp(RegClass::R32);
                self.emit(
                    Opcode::Add,
                    Mods::ty(Ty::U32),
                    vec![a.into()],
                    vec![Operand::reg(self.sp), Operand::Imm(Imm::Int(o as i64 + off))],
                )?;
                self.emit(Opcode::Cvt, cvt_mods(uty, Ty::U32), vec![r.into()], vec![Operand::reg(a)])?;
                // A same-width cvt is a move.
            }
            Sym::ParamAddr(v) => {
                let a = self.tmp(RegClass::R32);
                self.emit(
                    Opcode::Add,
                    Mods::ty(Ty::U32),
                    vec![a.into()],
                    vec![Operand::reg(v), Operand::Imm(Imm::Int(off))],
                )?;
                self.emit(Opcode::Cvt, cvt_mods(uty, Ty::U32), vec![r.into()], vec![Operand::reg(a)])?;
            }
            Sym::KParam(o) => {
                self.emit(Opcode::Mov, Mods::ty(uty), vec![r.into()], vec![Operand::Imm(Imm::Int(o as i64 + off))])?;
            }
            Sym::Var(name, space) => {
                let m = crate::ori::MemRef { space, sym: Some(name), base: None, offset: off };
                self.emit(Opcode::Mova, Mods::ty(uty), vec![r.into()], vec![Operand::Mem(m)])?;
            }
        }
        Ok(r)
    }

    /// Emits an instruction after legalising its operands (see the module doc).
    pub fn emit(&mut self, op: Opcode, mods: Mods, dsts: Vec<Reg>, srcs: Vec<Operand>) -> Result<Inst> {
        let info = op.info();
        let mut d = InstData::new(op, mods, dsts, srcs);
        let mut after: Vec<InstData> = Vec::new();
        let signed = d.ty().is_some_and(Ty::is_signed);
        for n in 0..d.srcs.len() {
            let slot = info.src_slot(n);
            let Some(slot) = slot.copied() else { continue };
            let want = want(&d, &slot);
            let o = d.srcs[n].clone();
            match (&o, want) {
                (Operand::Imm(i), Some(Want::Pred)) => {
                    let t = PhysReg::PT;
                    d.srcs[n] = Operand::Reg(RegUse { reg: t.into(), neg: false, abs: false, not: i.bits() == 0 });
                }
                (Operand::Imm(_) | Operand::SReg(_), Some(Want::Data(w))) if !slot_accepts(&slot, &o) => {
                    let class = RegClass::data(crate::ori::RegFile::R, w);
                    let t = self.tmp(class);
                    let mty = uty_of(w);
                    self.push(InstData::new(Opcode::Mov, Mods::ty(mty), vec![t.into()], vec![o]));
                    d.srcs[n] = Operand::reg(t);
                }
                (Operand::Reg(u), Some(Want::Data(w))) => {
                    let c = self.f.reg_class(u.reg);
                    match c {
                        Some(c) if c.file.is_pred() => {
                            return self.err(format!("`{op}`: a predicate where data is expected"));
                        }
                        Some(c) if c.count != w && !u.reg.is_zero() => {
                            let t = self.tmp(RegClass::data(crate::ori::RegFile::R, w));
                            let st = if signed && c.count < w { sty_of(c.count) } else { uty_of(c.count) };
                            let m = cvt_mods(uty_of(w), st);
                            self.push(InstData::new(Opcode::Cvt, m, vec![t.into()], vec![Operand::reg(u.reg)]));
                            d.srcs[n] = Operand::Reg(RegUse { reg: t.into(), ..*u });
                        }
                        _ => {}
                    }
                }
                (Operand::Reg(u), Some(Want::Pred)) if self.f.reg_class(u.reg).is_some_and(|c| !c.file.is_pred()) => {
                    return self.err(format!("`{op}`: data where a predicate is expected"));
                }
                _ => {}
            }
        }
        for n in 0..d.dsts.len() {
            let slot = info.dst_slot(n);
            let Some(slot) = slot.copied() else { continue };
            let r = d.dsts[n];
            let c = self.f.reg_class(r);
            match (want(&d, &slot), c) {
                (Some(Want::Data(w)), Some(c)) if c.file.is_data() && c.count != w => {
                    let t = self.tmp(RegClass::data(crate::ori::RegFile::R, w));
                    d.dsts[n] = t.into();
                    let st = if signed && c.count > w { sty_of(w) } else { uty_of(w) };
                    after.push(InstData::new(
                        Opcode::Cvt,
                        cvt_mods(uty_of(c.count), st),
                        vec![r],
                        vec![Operand::reg(t)],
                    ));
                }
                (Some(Want::Data(_)), Some(c)) if c.file.is_pred() => {
                    return self.err(format!("`{op}`: a predicate destination where data is written"));
                }
                (Some(Want::Pred), Some(c)) if !c.file.is_pred() => {
                    return self.err(format!("`{op}`: a data destination where a predicate is written"));
                }
                _ => {}
            }
        }
        let i = self.push(d);
        for a in after {
            self.push(a);
        }
        Ok(i)
    }
}

/// `cvt` modifiers: destination type, source type.
pub fn cvt_mods(dt: Ty, st: Ty) -> Mods {
    Mods { ty: Some(dt), src_ty: Some(st), ..Mods::default() }
}

fn uty_of(w: u8) -> Ty {
    match w {
        1 => Ty::U32,
        2 => Ty::U64,
        _ => Ty::B128,
    }
}

fn sty_of(w: u8) -> Ty {
    match w {
        1 => Ty::S32,
        2 => Ty::S64,
        _ => Ty::B128,
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Want {
    Data(u8),
    Pred,
}

fn want(d: &InstData, slot: &Slot) -> Option<Want> {
    let t = match slot.kind {
        SlotKind::Ty | SlotKind::TyWide => d.ty()?,
        SlotKind::SrcTy => d.mods.src_ty?,
        SlotKind::Word => return Some(Want::Data(1)),
        SlotKind::Dword => return Some(Want::Data(2)),
        SlotKind::Pred => return Some(Want::Pred),
        _ => return None,
    };
    if t == Ty::Pred {
        return Some(Want::Pred);
    }
    let mut n = class_of_ty(t).count;
    if slot.kind == SlotKind::TyWide && d.mods.half == Some(Half::Wide) {
        n *= 2;
    }
    Some(Want::Data(n))
}

/// `{ x }`: a vector operand of one expression (not `{ _ }`, which stays a sink vector).
fn is_singleton_vector(o: &ast::Operand) -> bool {
    matches!(o, ast::Operand::Vector(v, _) if matches!(v.as_slice(), [ast::VecElem::Expr(_)]))
}

fn slot_accepts(slot: &Slot, o: &Operand) -> bool {
    match o {
        Operand::Imm(_) => slot.imm,
        Operand::SReg(_) => slot.sreg,
        _ => true,
    }
}

impl FnCx<'_> {
    /// Lowers one PTX instruction by family. A one-element vector operand `{ %r }` (Triton and
    /// LLVM write them for scalar loads and stores) is the scalar itself; families that take
    /// vectors of `n` elements accept a scalar where `n` is 1.
    fn instruction(&mut self, i: &ast::Instruction) -> Result<()> {
        if i.operands.iter().any(is_singleton_vector) {
            let mut i = i.clone();
            for o in &mut i.operands {
                if let ast::Operand::Vector(v, _) = o
                    && let [ast::VecElem::Expr(e)] = v.as_slice()
                {
                    *o = ast::Operand::Expr(e.clone());
                }
            }
            return self.instruction_by_family(&i);
        }
        self.instruction_by_family(i)
    }

    fn instruction_by_family(&mut self, i: &ast::Instruction) -> Result<()> {
        if super::tensor::lowers_here(i) {
            return self.tensor(i);
        }
        if super::mbarrier::lowers_here(i) {
            return self.mbarrier(i);
        }
        match i.opcode.name.as_str() {
            "mov" => self.mov(i),
            "add" | "sub" | "mul" | "mad" | "fma" | "div" | "rem" | "min" | "max" | "abs" | "neg" | "and" | "or"
            | "xor" | "not" | "cnot" | "shl" | "shr" | "popc" | "clz" | "brev" | "bfe" | "bfi" | "bfind" | "fns"
            | "bmsk" | "szext" | "prmt" | "shf" | "lop3" | "sad" | "copysign" | "testp" | "rcp" | "sqrt" | "rsqrt"
            | "ex2" | "lg2" | "sin" | "cos" | "tanh" | "addc" | "subc" | "madc" | "dp4a" | "dp2a" | "mul24"
            | "mad24" => self.arith(i),
            "setp" | "set" | "selp" | "slct" => self.compare(i),
            "cvt" => self.cvt(i),
            "ld" | "ldu" | "st" | "atom" | "red" | "cvta" | "isspacep" | "getctarank" | "prefetch" | "prefetchu"
            | "applypriority" | "createpolicy" | "discard" => self.memory(i),
            "bra" | "brx" | "call" | "ret" | "exit" | "bar" | "barrier" | "membar" | "fence" | "nanosleep" | "trap"
            | "brkpt" | "pmevent" | "griddepcontrol" | "setmaxnreg" => self.control(i),
            "shfl" | "vote" | "match" | "redux" | "activemask" | "elect" => self.warp(i),
            "ldmatrix" | "stmatrix" | "movmatrix" | "mma" | "wmma" | "cp" | "vadd4" | "vsub4" | "vavrg4"
            | "vabsdiff4" | "vmin4" | "vmax4" | "vset4" | "vadd2" | "vsub2" | "vavrg2" | "vabsdiff2" | "vmin2"
            | "vmax2" | "vset2" => self.tensor(i),
            "wgmma" => self.wgmma(i),
            "tex" | "tld4" | "txq" | "suld" | "sust" | "suq" | "sured" => self.texture(i),
            op if super::video::is_scalar_video(op) => self.scalar_video(i),
            op => self.err(format!("instruction `{op}` is not supported")),
        }
    }

    /// The operand at `n`, or an error.
    pub fn operand<'o>(&self, i: &'o ast::Instruction, n: usize) -> Result<&'o ast::Operand> {
        i.operands.get(n).ok_or_else(|| LowerError::at(i.span, format!("`{}` needs operand {}", i.opcode.name, n + 1)))
    }

    /// An error for modifiers a family did not consume.
    pub fn leftovers(&self, m: &super::mods::PtxMods) -> Result<()> {
        match m.rest.first() {
            Some(w) => self.err(format!("modifier `.{w}` is not supported here")),
            None => Ok(()),
        }
    }
}
