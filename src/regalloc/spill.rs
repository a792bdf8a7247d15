//! Spill code (spec p34, digest §3.7): slots in the local frame, reloads before reads, stores
//! after writes, and the frame itself.
//!
//! Spilling a virtual register `v` everywhere: `v` gets a slot (its own, aligned to its width;
//! a predicate gets an R virtual register instead);
//! every instruction that reads `v` gets a fresh temporary reloaded from the slot right before
//! it, every instruction that writes `v` writes a temporary stored to the slot right after it
//! (a guarded write reloads first: the old value must survive a false guard); a phi source is
//! reloaded at the end of its predecessor (before the terminator), a phi destination stored
//! after the block's phis; a spilled parameter is stored at the top of the entry block (after
//! the SASS prologue; at the PTX stage an entry block that is a branch target first gets a new
//! entry block in front, holding the stores and a branch to it). Temporaries are never spilled again.
//!
//! Slot addresses are placeholders until [`Frame::finish`] knows the frame size `S` and
//! patches every spill instruction (see the parent module doc for the two frame layouts).
//!
//! Invariants:
//! - Every inserted instruction is an unguarded `ld/st.bN local[..]` (PTX stage) or
//!   `LDL/STL.bN [R1 + ..]` (SASS stage) of a whole register or tuple, N = 32 × width, an
//!   unguarded predicate bit spill (P2R/R2P forms of the parent module doc), or the one SASS
//!   frame adjustment `IADD3 R1, R1, -S, RZ` placed right after the prologue.
//! - Slots never overlap; the spill area is `[top - S, top)` of the frame.

use std::collections::HashMap;

use super::liveness::{inst_defs, inst_uses, is_phi};
use super::{Error, Options};
use crate::ori::cfg::Cfg;
use crate::ori::{
    Block, EntityRef, Function, Imm, Inst, InstData, MemRef, Mods, Opcode, Operand, PhysReg, Reg, Space, Ty, VReg,
};

/// What spilling cost, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpillStats {
    /// Bytes of the spill area.
    pub frame_bytes: u32,
    /// Bytes stored by spill stores (static).
    pub store_bytes: u32,
    /// Bytes loaded by spill reloads (static).
    pub load_bytes: u32,
    /// Virtual registers spilled.
    pub spilled: usize,
}

/// Where a spilled register lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum How {
    /// R registers: a slot of the spill area at this offset.
    Mem(u32),
    /// Predicates: a 0/1 value in this R32 virtual register (the "bit spill" P2R/R2P of
    /// digest §3.7), which may itself be spilled later like any R register.
    Bits(VReg),
}

/// The spill frame of one function being allocated.
#[derive(Clone, Debug)]
pub struct Frame {
    temps: Vec<bool>,
    /// Registers spilled so far (a register spilled twice means spilling cannot help).
    done: std::collections::HashSet<VReg>,
    /// Spill instructions: (instruction, slot offset, is store, bytes).
    patches: Vec<(Inst, u32, bool, u32)>,
    next: u32,
    align: u32,
    spilled: usize,
    sass: bool,
    /// SASS: the prologue is usable (entry without predecessors, R1 set up first).
    sass_ok: bool,
    /// SASS: the frame isel laid out below R1 (bytes).
    isel_frame: i64,
}

const R1: PhysReg = PhysReg { file: crate::ori::RegFile::R, index: 1, count: 1 };

/// Whether `d` is a prologue instruction: it writes exactly R1.
fn is_prologue(d: &InstData) -> bool {
    d.dsts == [Reg::Phys(R1)] && d.guard.is_none()
}

/// Visits every register operand of `d` (destinations, sources, address and bank-index
/// registers, the guard).
pub fn regs_mut(d: &mut InstData, mut f: impl FnMut(&mut Reg)) {
    for r in d.dsts.iter_mut() {
        f(r);
    }
    if let Some(g) = d.guard.as_mut() {
        f(&mut g.reg);
    }
    for o in d.srcs.iter_mut() {
        match o {
            Operand::Reg(u) => f(&mut u.reg),
            Operand::CBank(c) => {
                if let Some(r) = c.index.as_mut() {
                    f(r);
                }
            }
            Operand::Mem(m) => {
                if let Some(r) = m.base.as_mut() {
                    f(r);
                }
            }
            _ => {}
        }
    }
}

impl Frame {
    /// The frame of `f` before any spill.
    pub fn new(f: &Function) -> Result<Frame, Error> {
        let mut fr = Frame {
            temps: vec![false; f.vregs.len()],
            done: std::collections::HashSet::new(),
            patches: Vec::new(),
            next: 0,
            align: 8,
            spilled: 0,
            sass: f.sass,
            sass_ok: false,
            isel_frame: 0,
        };
        if f.sass
            && let Some(e) = f.entry()
        {
            let cfg = Cfg::compute(f);
            let insts = f.block_insts(e);
            let pro: Vec<&InstData> = insts.iter().map(|&i| &f.insts[i]).take_while(|d| is_prologue(d)).collect();
            // A kernel's prologue loads R1 first; a device function's only moves it down
            // (`lower::isel::call`).
            let first_loads = !pro.is_empty() && matches!(pro[0].opcode, Opcode::MOV | Opcode::LDC);
            let func = f.kind == crate::ori::FuncKind::Func && !pro.is_empty();
            let mut ok = cfg.preds(e).is_empty() && (first_loads || func);
            for d in pro.iter().skip(usize::from(first_loads)) {
                match (d.opcode, &d.srcs[..]) {
                    (Opcode::IADD3, [Operand::Reg(a), Operand::Imm(Imm::Int(x)), Operand::Reg(z)])
                        if a.reg == Reg::Phys(R1) && !a.has_mods() && z.reg.is_zero() && *x <= 0 =>
                    {
                        fr.isel_frame -= x;
                    }
                    _ => ok = false,
                }
            }
            fr.sass_ok = ok;
        }
        Ok(fr)
    }

    /// Whether `v` is a spill temporary.
    pub fn is_temp(&self, v: VReg) -> bool {
        self.temps.get(v.index()).copied().unwrap_or(false)
    }

    /// Whether the frame can take spilled R registers (at the SASS stage: the prologue is
    /// there and the entry block is not a loop header).
    pub fn can_spill(&self) -> bool {
        !self.sass || self.sass_ok
    }

    fn slot(&mut self, bytes: u32) -> u32 {
        let off = self.next.next_multiple_of(bytes);
        self.next = off + bytes;
        self.align = self.align.max(bytes);
        off
    }

    fn temp(&mut self, f: &mut Function, like: VReg) -> VReg {
        let t = f.new_vreg(f.vregs[like].class);
        if self.temps.len() <= t.index() {
            self.temps.resize(t.index() + 1, false);
        }
        self.temps[t.index()] = true;
        t
    }

    /// The instruction that saves temporary `t` to `how`.
    fn save(&mut self, f: &mut Function, t: VReg, how: How) -> Inst {
        match how {
            How::Mem(off) => self.mem_inst(f, t, off, true),
            How::Bits(w) => {
                let d = if self.sass {
                    // SEL w, RZ, 1, !t  ==  t ? 1 : 0
                    let mut p = crate::ori::RegUse::new(t);
                    p.not = true;
                    InstData::new(
                        Opcode::SEL,
                        Mods::new(),
                        vec![w.into()],
                        vec![Operand::reg(PhysReg::RZ), Operand::Imm(Imm::Int(1)), Operand::Reg(p)],
                    )
                } else {
                    InstData::new(
                        Opcode::Selp,
                        Mods::ty(Ty::U32),
                        vec![w.into()],
                        vec![Operand::Imm(Imm::Int(1)), Operand::Imm(Imm::Int(0)), Operand::reg(t)],
                    )
                };
                f.insts.push(d)
            }
        }
    }

    /// The instruction that restores temporary `t` from `how`.
    fn restore(&mut self, f: &mut Function, t: VReg, how: How) -> Inst {
        match how {
            How::Mem(off) => self.mem_inst(f, t, off, false),
            How::Bits(w) => {
                let d = if self.sass {
                    let mut m = Mods::ty(Ty::U32);
                    m.cmp = Some(crate::ori::Cmp::Ne);
                    m.bop = Some(crate::ori::BoolOp::And);
                    InstData::new(
                        Opcode::ISETP,
                        m,
                        vec![t.into(), Reg::Phys(PhysReg::PT)],
                        vec![Operand::reg(w), Operand::reg(PhysReg::RZ), Operand::reg(PhysReg::PT)],
                    )
                } else {
                    let mut m = Mods::ty(Ty::U32);
                    m.cmp = Some(crate::ori::Cmp::Ne);
                    InstData::new(Opcode::Setp, m, vec![t.into()], vec![Operand::reg(w), Operand::Imm(Imm::Int(0))])
                };
                f.insts.push(d)
            }
        }
    }

    fn mem_inst(&mut self, f: &mut Function, v: VReg, off: u32, store: bool) -> Inst {
        let count = f.vregs[v].class.count;
        let ty = match count {
            1 => Ty::B32,
            2 => Ty::B64,
            _ => Ty::B128,
        };
        let base = self.sass.then_some(Reg::Phys(R1));
        let mem = Operand::Mem(MemRef { space: Space::Local, sym: None, base, offset: i64::from(off) });
        let d = match (self.sass, store) {
            (false, false) => InstData::new(Opcode::Ld, Mods::ty(ty), vec![v.into()], vec![mem]),
            (false, true) => InstData::new(Opcode::St, Mods::ty(ty), vec![], vec![mem, Operand::reg(v)]),
            (true, false) => InstData::new(Opcode::LDL, Mods::ty(ty), vec![v.into()], vec![mem]),
            (true, true) => InstData::new(Opcode::STL, Mods::ty(ty), vec![], vec![mem, Operand::reg(v)]),
        };
        let i = f.insts.push(d);
        self.patches.push((i, off, store, 4 * u32::from(count)));
        i
    }

    /// Spills every register of `vs` everywhere in `f` (see the module doc).
    pub fn spill(&mut self, f: &mut Function, vs: &[VReg]) -> Result<(), Error> {
        let mut slot_of: HashMap<VReg, How> = HashMap::new();
        for &v in vs {
            if !self.done.insert(v) {
                return Err(Error::OutOfRegisters {
                    file: f.vregs[v].class.file,
                    budget: 0,
                    message: format!(
                        "%{} was spilled already and still does not fit (the parameters alone exceed the budget?)",
                        v.index()
                    ),
                });
            }
            let class = f.vregs[v].class;
            let how = if class.file == crate::ori::RegFile::P {
                How::Bits(f.new_vreg(crate::ori::RegClass::R32))
            } else {
                let bytes = 4 * u32::from(class.count);
                self.spilled += 1;
                How::Mem(self.slot(bytes))
            };
            slot_of.insert(v, how);
        }
        // A spilled parameter is stored once, on function entry: when the entry block is also a
        // branch target (a loop header), the stores go to a new entry block in front of it.
        if !self.sass
            && f.params.iter().any(|r| r.as_virt().is_some_and(|p| slot_of.contains_key(&p)))
            && let Some(e) = f.entry()
            && !Cfg::compute(f).preds(e).is_empty()
        {
            let pre = f.new_block();
            f.layout.pop();
            f.layout.insert(0, pre);
            f.push_inst(pre, InstData::new(Opcode::Bra, Mods::new(), vec![], vec![Operand::Block(e)]));
        }
        let mut edge_reloads: HashMap<Block, Vec<Inst>> = HashMap::new();
        let layout = f.layout.clone();
        for (bi, &b) in layout.iter().enumerate() {
            let old = f.blocks[b].insts.clone();
            let mut new = Vec::with_capacity(old.len());
            let mut pending: Vec<Inst> = Vec::new();
            let mut in_phis = true;
            let mut in_prologue = bi == 0 && self.sass;
            // Spilled parameters: stored at the top of the entry block.
            if bi == 0 {
                let params: Vec<VReg> = f.params.iter().filter_map(|r| r.as_virt()).collect();
                for p in params {
                    if let Some(&off) = slot_of.get(&p) {
                        let s = self.save(f, p, off);
                        pending.push(s);
                    }
                }
            }
            for i in old {
                let d = f.insts[i].clone();
                if is_phi(&d) {
                    let mut d2 = d.clone();
                    if let Some(Reg::Virt(v)) = d2.dsts.first().copied()
                        && let Some(&off) = slot_of.get(&v)
                    {
                        let t = self.temp(f, v);
                        d2.dsts[0] = t.into();
                        let s = self.save(f, t, off);
                        pending.push(s);
                    }
                    for k in (0..d2.srcs.len()).step_by(2) {
                        if let (Some(Operand::Reg(u)), Some(Operand::Block(p))) = (d2.srcs.get(k), d2.srcs.get(k + 1))
                            && let Reg::Virt(v) = u.reg
                            && let Some(&off) = slot_of.get(&v)
                        {
                            let p = *p;
                            let t = self.temp(f, v);
                            if let Some(Operand::Reg(u)) = d2.srcs.get_mut(k) {
                                u.reg = t.into();
                            }
                            let l = self.restore(f, t, off);
                            edge_reloads.entry(p).or_default().push(l);
                        }
                    }
                    f.insts[i] = d2;
                    new.push(i);
                    continue;
                }
                if in_phis && !(in_prologue && is_prologue(&d)) {
                    in_phis = false;
                    in_prologue = false;
                    new.append(&mut pending);
                }
                if in_prologue && is_prologue(&d) {
                    new.push(i);
                    continue;
                }
                let uses = inst_uses(&d);
                let defs = inst_defs(&d);
                let mut temp_of: HashMap<VReg, VReg> = HashMap::new();
                for v in uses.iter().chain(&defs) {
                    if slot_of.contains_key(v) && !temp_of.contains_key(v) {
                        let t = self.temp(f, *v);
                        temp_of.insert(*v, t);
                    }
                }
                if temp_of.is_empty() {
                    new.push(i);
                    continue;
                }
                let mut reloaded = Vec::new();
                for v in &uses {
                    if let Some(&t) = temp_of.get(v)
                        && !reloaded.contains(v)
                    {
                        reloaded.push(*v);
                        new.push(self.restore(f, t, slot_of[v]));
                    }
                }
                let mut d2 = d.clone();
                regs_mut(&mut d2, |r| {
                    if let Reg::Virt(v) = *r
                        && let Some(&t) = temp_of.get(&v)
                    {
                        *r = t.into();
                    }
                });
                let term = d2.opcode.info().is_terminator();
                f.insts[i] = d2;
                new.push(i);
                let mut stored = Vec::new();
                for v in &defs {
                    if let Some(&t) = temp_of.get(v)
                        && !stored.contains(v)
                    {
                        if term {
                            return Err(Error::Unsupported {
                                inst: Some(super::show(f, i)),
                                message: "a terminator that writes a spilled register".into(),
                            });
                        }
                        stored.push(*v);
                        new.push(self.save(f, t, slot_of[v]));
                    }
                }
            }
            new.append(&mut pending);
            f.blocks[b].insts = new;
        }
        for (p, loads) in edge_reloads {
            let Some(bd) = f.blocks.get_mut(p) else { continue };
            let at = bd.insts.len().saturating_sub(1);
            for (k, l) in loads.into_iter().enumerate() {
                bd.insts.insert(at + k, l);
            }
        }
        Ok(())
    }

    /// Lays out the spill area, patches every spill address and (SASS) inserts the frame
    /// adjustment.
    pub fn finish(&mut self, f: &mut Function, opts: &Options) -> Result<SpillStats, Error> {
        let mut st = SpillStats { spilled: self.spilled, ..SpillStats::default() };
        if self.patches.is_empty() {
            return Ok(st);
        }
        let size = self.next.next_multiple_of(self.align);
        st.frame_bytes = size;
        let base: i64 = if self.sass {
            self.isel_frame
        } else {
            if opts.local_top < size {
                return Err(Error::OutOfRegisters {
                    file: crate::ori::RegFile::R,
                    budget: opts.max_regs,
                    message: format!(
                        "the spill area ({size} bytes) does not fit the local window ({})",
                        opts.local_top
                    ),
                });
            }
            i64::from(opts.local_top - size)
        };
        for &(i, off, store, bytes) in &self.patches {
            if let Some(Operand::Mem(m)) = f.insts[i].srcs.first_mut() {
                m.offset = base + i64::from(off);
            }
            if store {
                st.store_bytes += bytes;
            } else {
                st.load_bytes += bytes;
            }
        }
        if self.sass {
            let e = f.entry().ok_or_else(|| Error::Invalid("a function without blocks spills".into()))?;
            let pro = f.block_insts(e).iter().take_while(|&&i| is_prologue(&f.insts[i])).count();
            let adj = f.insts.push(InstData::new(
                Opcode::IADD3,
                Mods::new(),
                vec![Reg::Phys(R1)],
                vec![Operand::reg(R1), Operand::Imm(Imm::Int(-i64::from(size))), Operand::reg(PhysReg::RZ)],
            ));
            f.blocks[e].insts.insert(pro, adj);
        }
        Ok(st)
    }
}
