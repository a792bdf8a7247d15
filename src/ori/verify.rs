//! The verifier: states and checks the invariants of a function and a module.
//!
//! Checked, in order (each error is located at function / block / instruction and carries the
//! instruction's printed form):
//!
//! 1. **Layout.** The function has at least one block; laid-out blocks exist and appear once;
//!    every instruction of a laid-out block exists and sits in exactly one block, once.
//! 2. **Terminators.** Every block is non-empty and ends in a terminator; no terminator
//!    appears before the last instruction; a guarded terminator (which falls through) is not
//!    in the last block of the layout. Phis come before every other instruction of a block.
//! 3. **Opcode table.** The opcode's stage fits the function (`sass` ⇒ no PTX-stage ops);
//!    modifiers are allowed and the required ones are present; a type is known wherever a
//!    signature needs one; operand counts match the signature (fixed, variadic or pairs);
//!    each operand has a kind the slot accepts.
//! 4. **Registers.** Vregs exist; class and width agree with the slot (type width, 32/64-bit
//!    words, predicate, barrier; RZ/URZ/PT/UPT are width-polymorphic); uniform-datapath ops
//!    use only uniform files, other ops write only per-thread files; guards are predicates;
//!    physical registers are in range and aligned, and (except RZ/URZ/PT/UPT, and in a `sass`
//!    function the precoloured ones: general registers fixed by the call ABI, the stack
//!    pointer R1 among them, and the convergence barriers B0–B15, which the allocator never
//!    assigns) appear only in an `allocated` function, which in turn has no vregs. Phi operands match the phi's class; `ret` values match the
//!    signature.
//! 5. **CFG.** Block operands name laid-out blocks; a phi has exactly one incoming value per
//!    predecessor.
//! 6. **SSA** (only for functions declared `ssa`). Each vreg has at most one definition
//!    (parameters are definitions); every use has one, and it dominates the use (for phi
//!    operands: the end of the incoming block). Uses in unreachable blocks are not checked
//!    for dominance.
//!
//! Module level: function names are unique; `call` targets exist, with matching argument and
//! result counts and classes.
//!
//! Not yet checked (TODO as the passes that need them arrive): per-SM opcode availability,
//! register-count limits against `--maxrregcount`, memory-operand alignment, BSSY/BSYNC
//! pairing.

use std::fmt;

use super::cfg::{Cfg, DomTree};
use super::entity::{Block, Inst, SecondaryMap, VReg};
use super::function::{Function, InstData, Module};
use super::mods::{Half, ModSet, Ty};
use super::opcode::{OpFlags, OpInfo, Opcode, Slot, SlotKind, Stage};
use super::operand::Operand;
use super::print::inst_to_string;
use super::reg::{Reg, RegClass, RegFile};

/// One invariant violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifierError {
    /// The function.
    pub func: String,
    /// The block, when the error is inside one.
    pub block: Option<Block>,
    /// The instruction, when the error is about one.
    pub inst: Option<Inst>,
    /// The instruction's printed form.
    pub context: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.func)?;
        if let Some(b) = self.block {
            write!(f, ", {b}")?;
        }
        if let Some(i) = self.inst {
            write!(f, ", {i}")?;
        }
        if let Some(c) = &self.context {
            write!(f, " `{c}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// All violations found in one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifierErrors(pub Vec<VerifierError>);

impl fmt::Display for VerifierErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.0 {
            writeln!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for VerifierErrors {}

/// Verifies a module: each function, then the calls between them.
pub fn verify_module(m: &Module) -> Result<(), VerifierErrors> {
    let mut errs = Vec::new();
    for (i, f) in m.functions.iter().enumerate() {
        if m.functions[..i].iter().any(|g| g.name == f.name) {
            errs.push(VerifierError {
                func: f.name.clone(),
                block: None,
                inst: None,
                context: None,
                message: "function defined twice".into(),
            });
        }
        let mut v = Verifier::new(f);
        v.run();
        v.calls(m);
        errs.extend(v.errs);
    }
    if errs.is_empty() { Ok(()) } else { Err(VerifierErrors(errs)) }
}

/// Verifies one function on its own (calls are not resolved).
pub fn verify_function(f: &Function) -> Result<(), VerifierErrors> {
    let mut v = Verifier::new(f);
    v.run();
    if v.errs.is_empty() { Ok(()) } else { Err(VerifierErrors(v.errs)) }
}

struct Verifier<'a> {
    f: &'a Function,
    errs: Vec<VerifierError>,
    /// Block of each laid-out instruction.
    where_: SecondaryMap<Inst, Option<Block>>,
    /// Whether each block is laid out (a set, so checking a branch target is O(1)).
    laid_out: SecondaryMap<Block, bool>,
}

impl<'a> Verifier<'a> {
    fn new(f: &'a Function) -> Self {
        let mut laid_out = SecondaryMap::with_default(false);
        for &b in &f.layout {
            laid_out.set(b, true);
        }
        Verifier { f, errs: Vec::new(), where_: SecondaryMap::with_default(None), laid_out }
    }

    fn report(&mut self, block: Option<Block>, inst: Option<Inst>, message: impl Into<String>) {
        let context = inst.and_then(|i| self.f.insts.get(i)).map(|d| inst_to_string(self.f, d));
        self.errs.push(VerifierError { func: self.f.name.clone(), block, inst, context, message: message.into() });
    }

    fn run(&mut self) {
        if !self.layout() {
            return;
        }
        self.terminators();
        for (b, i) in self.f.inst_order().collect::<Vec<_>>() {
            if let Some(d) = self.f.insts.get(i) {
                self.inst(b, i, d);
            }
        }
        self.signature();
        if !self.errs.is_empty() {
            // Later checks assume well-formed operands and terminators.
            return;
        }
        let cfg = Cfg::compute(self.f);
        self.cfg(&cfg);
        if self.f.ssa && self.errs.is_empty() {
            let dom = DomTree::compute(self.f, &cfg);
            self.ssa(&dom);
        }
    }

    /// Check 1. Returns false when the layout is too broken to go on.
    fn layout(&mut self) -> bool {
        let f = self.f;
        if f.layout.is_empty() {
            self.report(None, None, "function has no blocks");
            return false;
        }
        let mut seen: SecondaryMap<Block, bool> = SecondaryMap::with_default(false);
        let mut ok = true;
        for &b in &f.layout {
            if !f.blocks.is_valid(b) {
                self.report(Some(b), None, format!("layout names nonexistent block {b}"));
                ok = false;
                continue;
            }
            if *seen.get(b) {
                self.report(Some(b), None, format!("block {b} appears twice in the layout"));
                ok = false;
            }
            seen.set(b, true);
            for &i in f.block_insts(b) {
                if !f.insts.is_valid(i) {
                    self.report(Some(b), None, format!("block lists nonexistent instruction {i}"));
                    ok = false;
                } else if let Some(other) = *self.where_.get(i) {
                    self.report(Some(b), Some(i), format!("instruction is also in {other}"));
                    ok = false;
                } else {
                    self.where_.set(i, Some(b));
                }
            }
        }
        ok
    }

    /// Check 2.
    fn terminators(&mut self) {
        let f = self.f;
        let last_block = f.layout.last().copied();
        for &b in &f.layout {
            let insts = f.block_insts(b);
            let Some(&last) = insts.last() else {
                self.report(Some(b), None, "block is empty (it must end in a terminator)");
                continue;
            };
            let mut seen_non_phi = false;
            for (n, &i) in insts.iter().enumerate() {
                let info = f.insts[i].opcode.info();
                if info.is_terminator() && i != last {
                    self.report(
                        Some(b),
                        Some(i),
                        format!("terminator is not last in its block ({} more after it)", insts.len() - n - 1),
                    );
                }
                if info.has(OpFlags::PHI) {
                    if seen_non_phi {
                        self.report(Some(b), Some(i), "phi after a non-phi instruction");
                    }
                } else {
                    seen_non_phi = true;
                }
            }
            let d = &f.insts[last];
            if !d.opcode.info().is_terminator() {
                self.report(Some(b), Some(last), "block does not end in a terminator");
            } else if d.guard.is_some() && Some(b) == last_block {
                self.report(Some(b), Some(last), "guarded terminator in the last block has nowhere to fall through");
            }
        }
    }

    fn signature(&mut self) {
        let f = self.f;
        for (n, &p) in f.params.iter().enumerate() {
            if let Some(m) = self.reg_ok(p) {
                self.report(None, None, format!("parameter {n}: {m}"));
            }
        }
        for (n, r) in f.rets.iter().enumerate() {
            if !r.is_valid() {
                self.report(None, None, format!("return value {n} has invalid class {r:?}"));
            }
        }
    }

    /// Why `r` may not appear in this function, if it may not.
    fn reg_ok(&self, r: Reg) -> Option<String> {
        match r {
            Reg::Virt(v) => {
                if !self.f.vregs.is_valid(v) {
                    Some(format!("virtual register {v} does not exist"))
                } else if self.f.allocated {
                    Some(format!("virtual register {v} in an allocated function"))
                } else {
                    None
                }
            }
            Reg::Phys(p) => {
                if let Err(m) = p.check() {
                    Some(m)
                } else if !(p.is_zero() || self.f.allocated || self.f.sass && matches!(p.file, RegFile::R | RegFile::B))
                {
                    Some(format!("physical register {p} before register allocation"))
                } else {
                    None
                }
            }
        }
    }

    /// Checks 3 and 4 for one instruction.
    fn inst(&mut self, b: Block, i: Inst, d: &InstData) {
        let info = d.opcode.info();
        let mut msgs: Vec<String> = Vec::new();
        if self.f.sass && info.stage == Stage::Ptx {
            msgs.push(format!("PTX-stage opcode `{}` in a `sass` function", d.opcode));
        }
        let kinds = d.mods.kinds();
        if !info.allowed.contains(kinds) {
            msgs.push(format!("modifiers not allowed on `{}`", d.opcode));
        }
        if !kinds.contains(info.required) {
            msgs.push(format!("`{}` is missing a required modifier ({})", d.opcode, missing(info.required, kinds)));
        }
        if d.mods.half == Some(Half::Wide) && d.ty().is_some_and(|t| t.bits() > 32) {
            msgs.push(".wide needs a type of at most 32 bits".into());
        }
        // Guard.
        if let Some(g) = d.guard {
            if let Some(m) = self.reg_ok(g.reg) {
                msgs.push(format!("guard: {m}"));
            } else if let Some(c) = self.f.reg_class(g.reg) {
                let want_uniform = info.has(OpFlags::UNIFORM);
                if !c.file.is_pred() || (want_uniform && c.file != RegFile::UP) {
                    msgs.push(format!(
                        "guard must be a {}predicate, not {c}",
                        if want_uniform { "uniform " } else { "" }
                    ));
                }
            }
        }
        // Counts.
        let dst_ok = if info.has(OpFlags::VAR_DSTS) { true } else { d.dsts.len() == info.dsts.len() };
        if !dst_ok {
            msgs.push(format!("`{}` writes {} register(s), not {}", d.opcode, info.dsts.len(), d.dsts.len()));
        }
        let src_ok = if info.has(OpFlags::PAIRS) {
            !d.srcs.is_empty() && d.srcs.len().is_multiple_of(info.srcs.len().max(1))
        } else if info.has(OpFlags::VAR_SRCS) {
            d.srcs.len() + 1 >= info.srcs.len()
        } else {
            d.srcs.len() == info.srcs.len()
        };
        if !src_ok {
            let how = if info.has(OpFlags::PAIRS) {
                format!("a positive multiple of {}", info.srcs.len())
            } else if info.has(OpFlags::VAR_SRCS) {
                format!("at least {}", info.srcs.len().saturating_sub(1))
            } else {
                info.srcs.len().to_string()
            };
            msgs.push(format!("`{}` takes {how} operand(s), not {}", d.opcode, d.srcs.len()));
        }
        if dst_ok {
            for (n, &r) in d.dsts.iter().enumerate() {
                let slot = info.dst_slot(n);
                if let Some(slot) = slot
                    && let Some(m) = self.check_dst(info, d, slot, r)
                {
                    msgs.push(format!("destination {n}: {m}"));
                }
            }
        }
        if src_ok {
            for (n, o) in d.srcs.iter().enumerate() {
                let slot = info.src_slot(n);
                if let Some(slot) = slot
                    && let Some(m) = self.check_src(info, d, slot, o)
                {
                    msgs.push(format!("operand {n}: {m}"));
                }
            }
        }
        // Phi operands match the phi's class.
        if info.has(OpFlags::PHI) && dst_ok && src_ok {
            let want = d.dsts.first().and_then(|r| self.f.reg_class(*r));
            for (n, o) in d.srcs.iter().enumerate().step_by(2) {
                if let Operand::Reg(u) = o {
                    let got = self.f.reg_class(u.reg);
                    if got != want && !u.reg.is_zero() {
                        msgs.push(format!("operand {n}: phi value is {}, the phi is {}", cname(got), cname(want)));
                    }
                }
            }
        }
        // A wide-tuple join/split names as many 32-bit parts as its tuple has components (a zero
        // register is width-polymorphic: writing RZ discards, reading it reads zeros).
        if matches!(d.opcode, Opcode::PACKW | Opcode::UNPACKW) && dst_ok && src_ok {
            let (tuple, parts) = if d.opcode == Opcode::PACKW {
                (d.dsts.first().copied(), d.srcs.len())
            } else {
                (d.srcs.first().and_then(|o| o.as_reg()).map(|u| u.reg), d.dsts.len())
            };
            if let Some(c) = tuple.filter(|r| !r.is_zero()).and_then(|r| self.f.reg_class(r))
                && (!c.is_wide() || usize::from(c.count) != parts)
            {
                msgs.push(format!(
                    "`{}` of a {c} tuple into {parts} parts (a wide tuple and one part per component)",
                    d.opcode
                ));
            }
        }
        // ret values match the signature.
        if d.opcode == Opcode::Ret && src_ok {
            if d.srcs.len() != self.f.rets.len() {
                msgs.push(format!("returns {} value(s), the function returns {}", d.srcs.len(), self.f.rets.len()));
            } else {
                for (n, (o, want)) in d.srcs.iter().zip(&self.f.rets).enumerate() {
                    if let Some(u) = o.as_reg() {
                        let got = self.f.reg_class(u.reg);
                        if !class_fits(got, *want, u.reg) {
                            msgs.push(format!("return value {n} is {}, the signature says {want}", cname(got)));
                        }
                    }
                }
            }
        }
        for m in msgs {
            self.report(Some(b), Some(i), m);
        }
    }

    fn expected(&self, d: &InstData, slot: &Slot) -> Result<Option<Want>, String> {
        let ty = |t: Option<Ty>, what: &str| t.ok_or_else(|| format!("no {what} to size this operand"));
        Ok(Some(match slot.kind {
            SlotKind::Ty | SlotKind::SrcTy | SlotKind::TyWide => {
                let t =
                    if slot.kind == SlotKind::SrcTy { ty(d.mods.src_ty, "source type")? } else { ty(d.ty(), "type")? };
                if t == Ty::Pred {
                    Want::Pred
                } else {
                    let mut n = t.regs();
                    if slot.kind == SlotKind::TyWide && d.mods.half == Some(Half::Wide) {
                        n *= 2;
                    }
                    Want::Data(n)
                }
            }
            SlotKind::Word => Want::Data(1),
            SlotKind::Dword => Want::Data(2),
            SlotKind::Pred => Want::Pred,
            SlotKind::Barrier => Want::Barrier,
            SlotKind::Any => Want::Any,
            _ => return Ok(None),
        }))
    }

    fn check_reg_class(&self, info: &OpInfo, want: Want, r: Reg, is_dst: bool) -> Option<String> {
        if let Some(m) = self.reg_ok(r) {
            return Some(m);
        }
        let c = self.f.reg_class(r)?;
        if !c.is_valid() {
            return Some(format!("invalid register class {c:?}"));
        }
        let zero = r.is_zero();
        let ok = match want {
            Want::Data(n) => c.file.is_data() && (zero || c.count == n),
            Want::Pred => c.file.is_pred(),
            Want::Barrier => c.file.is_barrier(),
            Want::Any => true,
        };
        if !ok {
            return Some(format!("expected {}, found {c}", want.describe()));
        }
        if info.has(OpFlags::UNIFORM) && !c.file.is_uniform() {
            return Some(format!("uniform-datapath op uses per-thread register class {c}"));
        }
        if is_dst && !info.has(OpFlags::UNIFORM) && c.file.is_uniform() && want != Want::Any {
            return Some(format!("per-thread op writes uniform register class {c}"));
        }
        None
    }

    fn check_dst(&self, info: &OpInfo, d: &InstData, slot: &Slot, r: Reg) -> Option<String> {
        match self.expected(d, slot) {
            Err(m) => Some(m),
            Ok(None) => Some("this slot cannot be a destination".into()),
            Ok(Some(w)) => self.check_reg_class(info, w, r, true),
        }
    }

    fn check_src(&self, info: &OpInfo, d: &InstData, slot: &Slot, o: &Operand) -> Option<String> {
        let form_ok = match o {
            Operand::Reg(_) => slot.reg,
            Operand::Imm(_) => slot.imm,
            Operand::CBank(_) => slot.cbank,
            Operand::SReg(_) => slot.sreg,
            Operand::Mem(_) => matches!(slot.kind, SlotKind::Mem(_)),
            Operand::Block(_) => slot.kind == SlotKind::Block,
            Operand::Func(_) => slot.kind == SlotKind::Func,
        };
        if !form_ok {
            return Some(format!("{} operand not allowed here", o.kind_name()));
        }
        match o {
            Operand::Reg(u) => {
                let want = match self.expected(d, slot) {
                    Err(m) => return Some(m),
                    Ok(w) => w.unwrap_or(Want::Any),
                };
                if let Some(m) = self.check_reg_class(info, want, u.reg, false) {
                    return Some(m);
                }
                let c = self.f.reg_class(u.reg)?;
                if (u.neg || u.abs) && !c.file.is_data() {
                    return Some(format!("`-`/`|..|` on a {c} register"));
                }
                None
            }
            Operand::Imm(_) | Operand::SReg(_) => match self.expected(d, slot) {
                Err(m) => Some(m),
                Ok(Some(Want::Pred)) if !matches!(slot.kind, SlotKind::Imm) => {
                    Some("an immediate cannot be a predicate".into())
                }
                _ => None,
            },
            Operand::CBank(cb) => {
                if let Err(m) = self.expected(d, slot) {
                    return Some(m);
                }
                let r = cb.index?;
                self.check_reg_class(info, Want::Data(1), r, false).map(|m| format!("bank index: {m}"))
            }
            Operand::Mem(m) => {
                if let SlotKind::Mem(Some(space)) = slot.kind
                    && m.space != space
                {
                    return Some(format!("`{}` needs {} memory, found {}", d.opcode, space.name(), m.space.name()));
                }
                let r = m.base?;
                if let Some(e) = self.reg_ok(r) {
                    return Some(format!("address: {e}"));
                }
                let c = self.f.reg_class(r)?;
                if !c.file.is_data() || c.count > 2 {
                    return Some(format!("address register must be 32- or 64-bit data, found {c}"));
                }
                if info.has(OpFlags::UNIFORM) && !c.file.is_uniform() {
                    return Some(format!("uniform-datapath op uses per-thread register class {c}"));
                }
                None
            }
            Operand::Block(b) => {
                if !self.f.blocks.is_valid(*b) || !*self.laid_out.get(*b) {
                    Some(format!("target {b} is not a block of this function"))
                } else {
                    None
                }
            }
            Operand::Func(_) => None,
        }
    }

    /// Check 5.
    fn cfg(&mut self, cfg: &Cfg) {
        let f = self.f;
        for (b, i) in f.inst_order().collect::<Vec<_>>() {
            let d = &f.insts[i];
            if !d.opcode.info().has(OpFlags::PHI) {
                continue;
            }
            let preds = cfg.preds(b);
            let incoming: Vec<Block> = d.blocks().collect();
            for &p in preds {
                let n = incoming.iter().filter(|&&x| x == p).count();
                if n != 1 {
                    self.report(Some(b), Some(i), format!("phi has {n} incoming values from predecessor {p}"));
                }
            }
            for &x in &incoming {
                if !preds.contains(&x) {
                    self.report(Some(b), Some(i), format!("phi names {x}, which is not a predecessor"));
                }
            }
        }
    }

    /// Check 6.
    fn ssa(&mut self, dom: &DomTree) {
        let f = self.f;
        // Definition site: None = parameter; Some((block, position)).
        let mut defs: SecondaryMap<VReg, Option<Option<(Block, usize)>>> = SecondaryMap::with_default(None);
        for &p in &f.params {
            if let Reg::Virt(v) = p {
                if defs.get(v).is_some() {
                    self.report(None, None, format!("parameter {v} listed twice"));
                }
                defs.set(v, Some(None));
            }
        }
        for &b in &f.layout {
            for (n, &i) in f.block_insts(b).iter().enumerate() {
                for &r in &f.insts[i].dsts {
                    if let Reg::Virt(v) = r {
                        if defs.get(v).is_some() {
                            self.report(
                                Some(b),
                                Some(i),
                                format!("{} defined more than once in SSA form", vname(f, v)),
                            );
                        } else {
                            defs.set(v, Some(Some((b, n))));
                        }
                    }
                }
            }
        }
        for &b in &f.layout {
            if !dom.is_reachable(b) {
                continue;
            }
            for (n, &i) in f.block_insts(b).iter().enumerate() {
                let d = &f.insts[i];
                let is_phi = d.opcode.info().has(OpFlags::PHI);
                let mut uses: Vec<(Reg, Option<Block>)> = Vec::new();
                if is_phi {
                    for pair in d.srcs.chunks(2) {
                        if let [v, Operand::Block(p)] = pair {
                            uses.extend(v.regs().map(|r| (r, Some(*p))));
                        }
                    }
                    uses.extend(d.guard.map(|g| (g.reg, None)));
                } else {
                    uses.extend(d.uses().map(|r| (r, None)));
                }
                for (r, from) in uses {
                    let Reg::Virt(v) = r else { continue };
                    let ok = match *defs.get(v) {
                        None => {
                            self.report(Some(b), Some(i), format!("{} is used but never defined", vname(f, v)));
                            continue;
                        }
                        Some(None) => true,
                        Some(Some((db, dn))) => match from {
                            Some(p) => dom.dominates(db, p),
                            None if db == b => dn < n,
                            None => dom.dominates(db, b),
                        },
                    };
                    if !ok {
                        let at = match from {
                            Some(p) => format!(" (at the end of {p})"),
                            None => String::new(),
                        };
                        self.report(
                            Some(b),
                            Some(i),
                            format!("the definition of {} does not dominate this use{at}", vname(f, v)),
                        );
                    }
                }
            }
        }
    }

    /// Module-level: calls.
    fn calls(&mut self, m: &Module) {
        let f = self.f;
        for (b, i) in f.inst_order().collect::<Vec<_>>() {
            let Some(d) = f.insts.get(i) else { continue };
            if !d.opcode.info().has(OpFlags::CALL) {
                continue;
            }
            let Some(Operand::Func(name)) = d.srcs.first() else { continue };
            let Some(callee) = m.function(name) else {
                // The system functions (`vprintf`...) have no body in the module: the executors
                // and the driver provide them.
                if crate::ptx::sema::instr::SYSTEM_FUNCTIONS.contains(&name.as_str()) {
                    continue;
                }
                self.report(Some(b), Some(i), format!("call to undefined function @{name}"));
                continue;
            };
            if d.opcode != Opcode::Call {
                continue;
            }
            let args = &d.srcs[1..];
            if args.len() != callee.params.len() {
                self.report(
                    Some(b),
                    Some(i),
                    format!("@{name} takes {} argument(s), not {}", callee.params.len(), args.len()),
                );
            } else {
                for (n, (a, p)) in args.iter().zip(&callee.params).enumerate() {
                    let want = callee.reg_class(*p);
                    if let Some(u) = a.as_reg() {
                        let got = f.reg_class(u.reg);
                        if !class_fits(got, want.unwrap_or(RegClass::R32), u.reg) {
                            self.report(
                                Some(b),
                                Some(i),
                                format!("argument {n} is {}, @{name} takes {}", cname(got), cname(want)),
                            );
                        }
                    }
                }
            }
            if d.dsts.len() != callee.rets.len() {
                self.report(
                    Some(b),
                    Some(i),
                    format!("@{name} returns {} value(s), not {}", callee.rets.len(), d.dsts.len()),
                );
            } else {
                for (n, (r, want)) in d.dsts.iter().zip(&callee.rets).enumerate() {
                    let got = f.reg_class(*r);
                    if !class_fits(got, *want, *r) {
                        self.report(Some(b), Some(i), format!("result {n} is {}, @{name} returns {want}", cname(got)));
                    }
                }
            }
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Want {
    Data(u8),
    Pred,
    Barrier,
    Any,
}

impl Want {
    fn describe(self) -> String {
        match self {
            Want::Data(1) => "a 32-bit register".into(),
            Want::Data(n) => format!("a {}-bit register tuple", 32 * u32::from(n)),
            Want::Pred => "a predicate".into(),
            Want::Barrier => "a barrier register".into(),
            Want::Any => "a register".into(),
        }
    }
}

fn class_fits(got: Option<RegClass>, want: RegClass, r: Reg) -> bool {
    match got {
        Some(g) => g == want || (r.is_zero() && g.file == want.file),
        None => false,
    }
}

fn cname(c: Option<RegClass>) -> String {
    c.map_or_else(|| "unknown".to_string(), |c| c.to_string())
}

fn vname(f: &Function, v: VReg) -> String {
    super::print::reg_to_string(f, Reg::Virt(v))
}

fn missing(required: ModSet, present: ModSet) -> String {
    let names = [
        (ModSet::TY, "type"),
        (ModSet::SRC_TY, "source type"),
        (ModSet::CMP, "comparison"),
        (ModSet::RND, "rounding"),
        (ModSet::BOP, "boolean op"),
        (ModSet::MUFU, "function"),
        (ModSet::DIR, "direction"),
    ];
    let v: Vec<&str> =
        names.iter().filter(|(k, _)| required.contains(*k) && !present.contains(*k)).map(|(_, n)| *n).collect();
    v.join(", ")
}

#[cfg(test)]
mod tests {
    //! One test per invariant; the text-level negative corpus is in `tests/ori_roundtrip.rs`.
    use super::*;
    use crate::ori::{Operand, parse_function, parse_module};

    fn errors(text: &str) -> Vec<String> {
        let m = parse_module(text).unwrap();
        match verify_module(&m) {
            Ok(()) => Vec::new(),
            Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
        }
    }

    fn assert_err(text: &str, frag: &str) {
        let e = errors(text);
        assert!(e.iter().any(|e| e.contains(frag)), "expected `{frag}`, got {e:#?}");
    }

    const OK: &str = "func @f(%r0) -> (r32) ssa {\nbb0:\n    %r1 = add.u32 %r0, 1\n    ret %r1\n}\n";

    #[test]
    fn valid_function_passes() {
        assert!(errors(OK).is_empty());
    }

    #[test]
    fn layout_invariants() {
        let mut f = parse_function(OK).unwrap();
        f.layout.push(f.layout[0]);
        assert!(verify_function(&f).unwrap_err().to_string().contains("appears twice in the layout"));
        let mut f = parse_function(OK).unwrap();
        f.layout.push(Block::from_u32(9));
        assert!(verify_function(&f).unwrap_err().to_string().contains("nonexistent block bb9"));
        let mut f = parse_function(OK).unwrap();
        let b = f.new_block();
        let i = f.block_insts(Block::from_u32(0))[1];
        f.blocks[b].insts.push(i);
        assert!(verify_function(&f).unwrap_err().to_string().contains("instruction is also in bb0"));
        let mut f = parse_function(OK).unwrap();
        f.blocks[Block::from_u32(0)].insts.insert(0, Inst::from_u32(77));
        assert!(verify_function(&f).unwrap_err().to_string().contains("nonexistent instruction inst77"));
        let mut f = parse_function(OK).unwrap();
        f.layout.clear();
        assert!(verify_function(&f).unwrap_err().to_string().contains("no blocks"));
    }

    #[test]
    fn terminator_invariants() {
        assert_err("func @f() {\nbb0:\n    %r0 = mov.u32 1\n}\n", "does not end in a terminator");
        assert_err(
            "func @f() {\nbb0:\n    exit\n    exit\n}\n",
            "terminator is not last in its block (1 more after it)",
        );
        assert_err("func @f(%p0) {\nbb0:\n    @%p0 exit\n}\n", "nowhere to fall through");
        assert_err("func @f() {\nbb0:\n    bra bb1\nbb1:\n}\n", "block is empty");
    }

    #[test]
    fn opcode_table_invariants() {
        assert_err("func @f() {\nbb0:\n    %r0 = add %r1, %r2\n    ret\n}\n", "missing a required modifier (type)");
        assert_err("func @f() {\nbb0:\n    %r0 = add.u32 %r1, %r2, %r3\n    ret\n}\n", "takes 2 operand(s), not 3");
        assert_err("func @f() {\nbb0:\n    %r0, %r3 = add.u32 %r1, %r2\n    ret\n}\n", "writes 1 register(s), not 2");
        assert_err("func @f() {\nbb0:\n    %r0 = add.u32 %r1, bb0\n    ret\n}\n", "block operand not allowed here");
        assert_err("func @f() {\nbb0:\n    %r0 = phi %r1\n    ret\n}\n", "positive multiple of 2");
        assert_err("func @f() sass {\nbb0:\n    exit\n}\n", "PTX-stage opcode `exit`");
        // Modifiers are checked on constructed IR too, not only by the parser.
        let mut f = parse_function(OK).unwrap();
        f.insts[Inst::from_u32(0)].mods.cmp = Some(crate::ori::Cmp::Lt);
        assert!(verify_function(&f).unwrap_err().to_string().contains("modifiers not allowed on `add`"));
    }

    #[test]
    fn register_invariants() {
        assert_err(
            "func @f() {\nbb0:\n    %rd0 = add.u32 %r1, %r2\n    ret\n}\n",
            "expected a 32-bit register, found r64",
        );
        assert_err("func @f() {\nbb0:\n    %p0 = setp.lt.u32 %r1, %p2\n    ret\n}\n", "found p");
        assert_err("func @f() {\nbb0:\n    %p0 = and.pred %p1, 1\n    ret\n}\n", "an immediate cannot be a predicate");
        assert_err("func @f() {\nbb0:\n    %r0 = add.u32 -%p1, 1\n    ret\n}\n", "expected a 32-bit register, found p");
        assert_err("func @f() {\nbb0:\n    B0 = BSSY bb0\n}\n", "before register allocation");
        assert_err("func @f() allocated {\nbb0:\n    R3:R4 = add.u64 RZ, RZ\n    ret\n}\n", "not aligned");
        assert_err("func @f() allocated {\nbb0:\n    %r0 = add.u32 RZ, RZ\n    ret\n}\n", "in an allocated function");
        assert_err(
            "func @f() {\nbb0:\n    %ur0 = UIADD3 %ur1, %r2, URZ\n    ret\n}\n",
            "uniform-datapath op uses per-thread",
        );
        assert_err("func @f() {\nbb0:\n    @%p3 %ur1 = UMOV %ur2\n    ret\n}\n", "guard must be a uniform predicate");
        assert_err(
            "func @f() {\nbb0:\n    %r0 = ld.u32 global[%p1]\n    ret\n}\n",
            "address register must be 32- or 64-bit data",
        );
        assert_err("func @f() {\nbb0:\n    %r0 = LDC c[0x0][%rd1]\n    ret\n}\n", "bank index");
        // RZ is width-polymorphic; a vreg that is not in the table is reported.
        assert!(errors("func @f() {\nbb0:\n    %rd0 = add.u64 RZ, 1\n    ret\n}\n").is_empty());
        let mut f = parse_function(OK).unwrap();
        f.insts[Inst::from_u32(0)].srcs[0] = Operand::reg(VReg::from_u32(40));
        assert!(verify_function(&f).unwrap_err().to_string().contains("virtual register v40 does not exist"));
    }

    #[test]
    fn cfg_invariants() {
        assert_err("func @f() {\nbb0:\n    bra bb3\n}\n", "target bb3 is not a block");
        assert_err(
            "func @f(%p0) ssa {\nbb0:\n    %r1 = mov.u32 0\n    @%p0 bra bb2\nbb1:\n    bra bb2\nbb2:\n    %r2 = phi %r1, bb0\n    ret\n}\n",
            "phi has 0 incoming values from predecessor bb1",
        );
        assert_err(
            "func @f() ssa {\nbb0:\n    %r1 = mov.u32 0\n    bra bb1\nbb1:\n    %r2 = phi %r1, bb0, %r1, bb0\n    ret\n}\n",
            "phi has 2 incoming values from predecessor bb0",
        );
    }

    #[test]
    fn ssa_invariants() {
        assert_err("func @f(%r0) ssa {\nbb0:\n    %r0 = mov.u32 1\n    ret\n}\n", "%r0 defined more than once");
        assert_err("func @f() ssa {\nbb0:\n    %r0 = add.u32 %r0, 1\n    ret\n}\n", "does not dominate");
        assert_err(
            "func @f(%p0) ssa {\nbb0:\n    @%p0 bra bb2\nbb1:\n    %r1 = mov.u32 0\n    bra bb3\nbb2:\n    %r2 = mov.u32 1\n    bra bb3\nbb3:\n    %r3 = phi %r2, bb1, %r1, bb2\n    ret\n}\n",
            "(at the end of bb1)",
        );
        // The same code without the `ssa` flag is fine: multiple definitions are allowed.
        assert!(errors("func @f(%r0) {\nbb0:\n    %r0 = mov.u32 1\n    %r0 = add.u32 %r0, 1\n    ret\n}\n").is_empty());
        // A guard is a use.
        assert_err("func @f() ssa {\nbb0:\n    @%p0 bra bb1\nbb1:\n    ret\n}\n", "%p0 is used but never defined");
    }

    #[test]
    fn module_invariants() {
        assert_err(
            "func @f() {\nbb0:\n    call @g, %r1\n    ret\n}\nfunc @g(%rd0) {\nbb0:\n    ret\n}\n",
            "argument 0 is r32, @g takes r64",
        );
        let m = Module { vars: vec![], functions: vec![parse_function(OK).unwrap(), parse_function(OK).unwrap()] };
        assert!(verify_module(&m).unwrap_err().to_string().contains("function defined twice"));
    }
}
