//! The independent checker of an allocation (regalloc2's symbolic checker, and the purpose of
//! ptxas's post-RA "memcheck", digest §3.10): given the function before and after allocation,
//! it proves that every read of a physical register (or tuple) in the allocated code sees the
//! value of the virtual register the original instruction read, and reports the first read
//! that does not.
//!
//! It shares nothing with the allocator: it reads the two functions only.
//!
//! # What it checks
//!
//! 1. **Shape.** `after` is allocated and holds no virtual register; every physical register
//!    is a legal, aligned tuple; the layout (blocks, their order) is the same, or has one new
//!    entry block (inserted instructions and an unguarded branch to the old entry only) in
//!    front of an entry block that is a branch target; every original
//!    instruction (an id laid out in `before`) appears exactly once, in its block, in its
//!    order, with the same opcode, modifiers, guard sense and non-register operands; each
//!    virtual register is replaced by a physical register of its class (file and width), each
//!    physical register of `before` (R1, RZ, PT, pre-coloured ones) is kept as is.
//! 2. **Inserted instructions** (ids not laid out in `before`) are only: spill stores and
//!    reloads of a whole register or tuple to local memory (`st/ld.bN local[OFF]` at the PTX
//!    stage, `STL/LDL.bN [R1 + OFF]` at the SASS stage), predicate bit spills (`selp.u32 R, 1,
//!    0, P` and `setp.ne.u32 P, R, 0`; `SEL R, RZ, 1, !P` and `ISETP.NE.U32.AND P, PT, R, RZ,
//!    PT`), and at the SASS stage one frame
//!    adjustment `IADD3 R1, R1, -S, RZ` in the entry block (which must have no predecessors),
//!    before any spill access there, and with every slot inside `[F, F + S)` where `F` is the
//!    frame the prologue's own `IADD3 R1, R1, -F, RZ` laid out.
//! 3. **Values** (abstract interpretation, forward over the CFG to a fixpoint). A *location* is
//!    a 32-bit physical register or a 4-byte spill slot; a *token* is one 32-bit component of
//!    a virtual register, or of a physical register of `before` (its own value). The state
//!    maps each location to the set of tokens whose current value it holds; it also keeps the
//!    set of tokens defined on some path so far, and a location may hold "every token not yet
//!    defined" (an undefined value is as good as any, which is the case at entry for every
//!    non-parameter register). At a merge the states intersect. Transfer:
//!    - an original instruction first reads (each read must find its token in the location),
//!      then writes: a written token is removed from every location and becomes the only
//!      token of its destination; a *guarded* write keeps it only if the destination held the
//!      token before (the old value must survive a false guard);
//!    - a phi reads its source at the end of the predecessor and writes its destination on
//!      that edge, all phis of a block in parallel;
//!    - a spill store copies the register's set to the slot, a reload copies it back; a
//!      predicate bit spill (P2R) puts the *encodings* of the predicate's tokens in the R
//!      register, and R2P decodes them back;
//!    - at the PTX stage a call clears every spill slot (a callee's spill area is the same
//!      memory); at the SASS stage slots survive (callee frames lie below R1), and a `CALL`
//!      changes its destinations and makes every scratch register of the ABI
//!      ([`crate::lower::isel::call::clobbered`]) hold no token (callees save the preserved
//!      registers they write, [`super::callee_save`]): a value read after a call from a
//!      register the call may change is an error.
//!
//! Assumed, not checked: the program's own local-memory accesses never alias the spill area
//! (the frame layout of the parent module makes them disjoint; the interpreter comparisons of
//! the tests back it), and the predicate bit-spill forms are exact round trips.
//!
//! Invariant: `check` returns `Ok` only if all three hold; the error names the first
//! violation in layout order, with the original and the allocated instruction.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::ori::cfg::{Cfg, DomTree};
use crate::ori::opcode::OpFlags;
use crate::ori::print::inst_to_string;
use crate::ori::{Block, EntityRef, Function, Imm, Inst, MemRef, Opcode, Operand, PhysReg, Reg, RegFile, Space, Ty};

/// The first violation found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// The block, where there is one.
    pub block: Option<Block>,
    /// The allocated instruction, printed, where there is one.
    pub inst: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(b) = self.block {
            write!(f, "bb{}: ", b.index())?;
        }
        if let Some(i) = &self.inst {
            write!(f, "`{i}`: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for CheckError {}

fn err(block: Option<Block>, inst: Option<String>, message: impl Into<String>) -> CheckError {
    CheckError { block, inst, message: message.into() }
}

const NLOC_REGS: usize = 6 * 256;

fn file_no(f: RegFile) -> usize {
    RegFile::ALL.iter().position(|x| *x == f).unwrap_or(0)
}

/// One register of the original and its replacement.
#[derive(Copy, Clone, Debug)]
struct Pair {
    before: Reg,
    after: PhysReg,
}

/// An instruction of `after`, classified.
#[derive(Clone, Debug)]
enum Step {
    Original {
        inst: Inst,
        reads: Vec<Pair>,
        writes: Vec<Pair>,
        guarded: bool,
        call: bool,
    },
    Phi,
    Store {
        slot: usize,
        reg: PhysReg,
    },
    Reload {
        slot: usize,
        reg: PhysReg,
    },
    /// Predicate to 0/1 in an R register.
    P2R {
        pred: PhysReg,
        reg: PhysReg,
    },
    /// 0/1 in an R register back to a predicate.
    R2P {
        reg: PhysReg,
        pred: PhysReg,
    },
    FrameAdjust,
    /// The branch that ends a new entry block (to the original entry block).
    EntryJump,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Loc {
    /// Holds every token not yet defined.
    undef: bool,
    /// Tokens held explicitly (sorted, all defined).
    ex: Vec<u32>,
}

/// Locations per shared chunk of [`Locs`].
const CHUNK: usize = 32;

/// The locations of a [`State`], in chunks shared copy-on-write between states: a block's
/// state differs from its predecessors' in the few locations it writes, so the fixpoint keeps
/// one chunk per written chunk per block instead of all 1,536+ locations per block (a
/// 10,000-block `brx.idx` kernel took 2 GB with a full copy each).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Locs {
    chunks: Vec<std::rc::Rc<Vec<Loc>>>,
    len: usize,
}

impl Locs {
    fn new(fill: Loc, len: usize) -> Locs {
        let chunk = std::rc::Rc::new(vec![fill; CHUNK]);
        Locs { chunks: vec![chunk; len.div_ceil(CHUNK)], len }
    }
    fn len(&self) -> usize {
        self.len
    }
}

impl std::ops::Index<usize> for Locs {
    type Output = Loc;
    fn index(&self, l: usize) -> &Loc {
        assert!(l < self.len, "location {l} of {}", self.len);
        &self.chunks[l / CHUNK][l % CHUNK]
    }
}

impl std::ops::IndexMut<usize> for Locs {
    fn index_mut(&mut self, l: usize) -> &mut Loc {
        assert!(l < self.len, "location {l} of {}", self.len);
        &mut std::rc::Rc::make_mut(&mut self.chunks[l / CHUNK])[l % CHUNK]
    }
}

/// Abstract state. Tokens `0..base` are values; `base + t` is the 0/1 encoding of
/// predicate value `t` in an R register (a bit spill).
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    base: u32,
    defined: Vec<u64>,
    locs: Locs,
}

impl State {
    fn is_defined(&self, t: u32) -> bool {
        let t = t % self.base;
        self.defined[t as usize / 64] >> (t % 64) & 1 == 1
    }
    fn holds(&self, l: usize, t: u32) -> bool {
        let loc = &self.locs[l];
        loc.ex.binary_search(&t).is_ok() || (loc.undef && !self.is_defined(t))
    }
    fn define(&mut self, l: usize, t: u32, keep: bool) {
        self.defined[t as usize / 64] |= 1 << (t % 64);
        let enc = t + self.base;
        for chunk in &mut self.locs.chunks {
            // Copy a shared chunk only when it holds the token.
            if chunk.iter().any(|loc| loc.ex.iter().any(|&x| x == t || x == enc)) {
                for loc in std::rc::Rc::make_mut(chunk) {
                    loc.ex.retain(|&x| x != t && x != enc);
                }
            }
        }
        self.locs[l] = Loc { undef: false, ex: if keep { vec![t] } else { Vec::new() } };
    }
    fn meet(&self, o: &State) -> State {
        let defined: Vec<u64> = self.defined.iter().zip(&o.defined).map(|(a, b)| a | b).collect();
        let chunks = self
            .locs
            .chunks
            .iter()
            .zip(&o.locs.chunks)
            .enumerate()
            .map(|(c, (ca, cb))| {
                // Equal locations meet to themselves: every token one holds, the other does.
                if std::rc::Rc::ptr_eq(ca, cb) {
                    return ca.clone();
                }
                let merged = ca
                    .iter()
                    .zip(cb.iter())
                    .enumerate()
                    .map(|(i, (a, b))| {
                        let l = c * CHUNK + i;
                        let mut ex: Vec<u32> = a.ex.iter().copied().filter(|&t| o.holds(l, t)).collect();
                        ex.extend(b.ex.iter().copied().filter(|&t| self.holds(l, t)));
                        ex.sort_unstable();
                        ex.dedup();
                        Loc { undef: a.undef && b.undef, ex }
                    })
                    .collect();
                std::rc::Rc::new(merged)
            })
            .collect();
        State { base: self.base, defined, locs: Locs { chunks, len: self.locs.len } }
    }
}

struct Checker<'a> {
    before: &'a Function,
    after: &'a Function,
    /// The first token of each virtual register (its components follow), then the total.
    vtok: Vec<u32>,
    /// Tokens of virtual registers (those of physical registers follow).
    nv: usize,
    slots: HashMap<i64, usize>,
    steps: HashMap<Block, Vec<(Inst, Step)>>,
    /// Phis of each block.
    phis: HashMap<Block, Vec<PhiPairs>>,
}

/// One phi: its destination, and its sources with their predecessors.
type PhiPairs = (Pair, Vec<(Pair, Block)>);

/// Checks that `after` is a correct register allocation of `before` (see the module doc).
pub fn check(before: &Function, after: &Function) -> Result<(), CheckError> {
    let mut c = Checker {
        before,
        after,
        vtok: Vec::new(),
        nv: 0,
        slots: HashMap::new(),
        steps: HashMap::new(),
        phis: HashMap::new(),
    };
    let mut next = 0u32;
    for (_, d) in before.vregs.iter() {
        c.vtok.push(next);
        next += u32::from(d.class.count.max(1));
    }
    c.vtok.push(next);
    c.nv = next as usize;
    c.shape()?;
    c.values()
}

impl<'a> Checker<'a> {
    fn show_after(&self, i: Inst) -> Option<String> {
        self.after.insts.get(i).map(|d| inst_to_string(self.after, d))
    }

    fn token(&self, r: Reg, k: u8) -> u32 {
        match r {
            Reg::Virt(v) => self.vtok.get(v.index()).map_or(u32::MAX, |&b| b + u32::from(k)),
            Reg::Phys(p) => (self.nv + file_no(p.file) * 256 + usize::from(p.index) + usize::from(k)) as u32,
        }
    }

    fn loc(p: PhysReg, k: u8) -> usize {
        file_no(p.file) * 256 + (usize::from(p.index) + usize::from(k)).min(255)
    }

    /// Pairs a register of `before` with its replacement.
    fn pair(&self, b: Reg, a: Reg, blk: Block, i: Inst) -> Result<Pair, CheckError> {
        let bad = |m: String| err(Some(blk), self.show_after(i), m);
        let Reg::Phys(p) = a else {
            return Err(bad("a virtual register remains after allocation".into()));
        };
        match b {
            Reg::Virt(v) => {
                let class = self
                    .before
                    .vregs
                    .get(v)
                    .ok_or_else(|| bad(format!("unknown virtual register %{}", v.index())))?
                    .class;
                if p.is_zero() || p.file != class.file || p.count != class.count {
                    return Err(bad(format!("{p} does not fit a {class} virtual register")));
                }
                p.check().map_err(bad)?;
            }
            Reg::Phys(q) => {
                if q != p {
                    return Err(bad(format!("the fixed register {q} became {p}")));
                }
                if !q.is_zero() {
                    q.check().map_err(bad)?;
                }
            }
        }
        Ok(Pair { before: b, after: p })
    }

    /// Pairs the operands of an original instruction.
    fn original(&self, blk: Block, i: Inst) -> Result<Step, CheckError> {
        let b = &self.before.insts[i];
        let a = self.after.insts.get(i).ok_or_else(|| err(Some(blk), None, "an original instruction is missing"))?;
        let bad = |m: &str| {
            err(Some(blk), self.show_after(i), format!("{m} (originally `{}`)", inst_to_string(self.before, b)))
        };
        if a.opcode != b.opcode || a.mods != b.mods || a.dsts.len() != b.dsts.len() || a.srcs.len() != b.srcs.len() {
            return Err(bad("the instruction changed"));
        }
        let mut reads = Vec::new();
        match (&a.guard, &b.guard) {
            (None, None) => {}
            (Some(ga), Some(gb)) if ga.not == gb.not => reads.push(self.pair(gb.reg, ga.reg, blk, i)?),
            _ => return Err(bad("the guard changed")),
        }
        for (oa, ob) in a.srcs.iter().zip(&b.srcs) {
            match (oa, ob) {
                (Operand::Reg(ua), Operand::Reg(ub)) => {
                    if (ua.neg, ua.abs, ua.not) != (ub.neg, ub.abs, ub.not) {
                        return Err(bad("an operand modifier changed"));
                    }
                    reads.push(self.pair(ub.reg, ua.reg, blk, i)?);
                }
                (Operand::CBank(ca), Operand::CBank(cb)) => {
                    if (ca.bank, ca.offset, ca.index.is_some()) != (cb.bank, cb.offset, cb.index.is_some()) {
                        return Err(bad("a constant-bank operand changed"));
                    }
                    if let (Some(x), Some(y)) = (ca.index, cb.index) {
                        reads.push(self.pair(y, x, blk, i)?);
                    }
                }
                (Operand::Mem(ma), Operand::Mem(mb)) => {
                    if (ma.space, &ma.sym, ma.offset, ma.base.is_some())
                        != (mb.space, &mb.sym, mb.offset, mb.base.is_some())
                    {
                        return Err(bad("a memory operand changed"));
                    }
                    if let (Some(x), Some(y)) = (ma.base, mb.base) {
                        reads.push(self.pair(y, x, blk, i)?);
                    }
                }
                (x, y) if x == y => {}
                _ => return Err(bad("an operand changed")),
            }
        }
        let mut writes = Vec::new();
        for (ra, rb) in a.dsts.iter().zip(&b.dsts) {
            writes.push(self.pair(*rb, *ra, blk, i)?);
        }
        if b.opcode.info().has(OpFlags::PHI) {
            return Ok(Step::Phi);
        }
        Ok(Step::Original {
            inst: i,
            reads,
            writes,
            guarded: b.guard.is_some(),
            call: b.opcode.info().has(OpFlags::CALL),
        })
    }

    fn slot_of(&mut self, m: &MemRef, bytes: u32) -> Result<usize, String> {
        if m.offset < 0 || m.offset % i64::from(bytes.min(16)) != 0 {
            return Err(format!("spill slot offset {} is not aligned to {bytes} bytes", m.offset));
        }
        let n = self.slots.len();
        let base = *self.slots.entry(m.offset / 4).or_insert(n);
        // Components of wide slots: consecutive words.
        for k in 1..i64::from(bytes / 4) {
            let n = self.slots.len();
            self.slots.entry(m.offset / 4 + k).or_insert(n);
        }
        Ok(base)
    }

    /// Classifies an inserted instruction.
    fn inserted(&mut self, blk: Block, i: Inst) -> Result<Step, CheckError> {
        let a = self.after.insts.get(i).ok_or_else(|| err(Some(blk), None, "a dangling instruction"))?.clone();
        let shown = self.show_after(i);
        let bad = |m: &str| err(Some(blk), shown.clone(), format!("inserted instruction: {m}"));
        if a.guard.is_some() {
            return Err(bad("guarded"));
        }
        let r1 = Reg::Phys(PhysReg::new(RegFile::R, 1));
        let sass = self.before.sass;
        let (store, load) = if sass { (Opcode::STL, Opcode::LDL) } else { (Opcode::St, Opcode::Ld) };
        if sass && a.opcode == Opcode::IADD3 {
            return match (&a.dsts[..], &a.srcs[..]) {
                ([d], [Operand::Reg(x), Operand::Imm(Imm::Int(s)), Operand::Reg(z)])
                    if *d == r1 && x.reg == r1 && !x.has_mods() && z.reg.is_zero() && !z.has_mods() && *s < 0 =>
                {
                    Ok(Step::FrameAdjust)
                }
                _ => Err(bad("not a frame adjustment")),
            };
        }
        if let Some(st) = bit_spill(&a, sass) {
            return Ok(st);
        }
        if a.opcode != store && a.opcode != load {
            return Err(bad("neither a spill store, a reload, nor a predicate bit spill"));
        }
        let m = match a.srcs.first() {
            Some(Operand::Mem(m)) => m.clone(),
            _ => return Err(bad("no memory operand")),
        };
        let want_base = if sass { Some(r1) } else { None };
        if m.space != Space::Local || m.sym.is_some() || m.base != want_base {
            return Err(bad("not a spill-area address"));
        }
        let reg = if a.opcode == store {
            match (&a.dsts[..], &a.srcs[..]) {
                ([], [_, Operand::Reg(u)]) if !u.has_mods() => u.reg,
                _ => return Err(bad("malformed spill store")),
            }
        } else {
            match (&a.dsts[..], &a.srcs[..]) {
                ([d], [_]) => *d,
                _ => return Err(bad("malformed reload")),
            }
        };
        let Reg::Phys(p) = reg else { return Err(bad("a virtual register")) };
        if p.is_zero() || p.file != RegFile::R || p.check().is_err() {
            return Err(bad("not an allocatable R register or tuple"));
        }
        let ty = match p.count {
            1 => Ty::B32,
            2 => Ty::B64,
            _ => Ty::B128,
        };
        if a.mods.ty != Some(ty) || a.mods != crate::ori::Mods::ty(ty) {
            return Err(bad("the access width is not the register's"));
        }
        let slot = self.slot_of(&m, 4 * u32::from(p.count)).map_err(|e| bad(&e))?;
        Ok(if a.opcode == store { Step::Store { slot, reg: p } } else { Step::Reload { slot, reg: p } })
    }

    fn shape(&mut self) -> Result<(), CheckError> {
        let (b, a) = (self.before, self.after);
        if !a.allocated {
            return Err(err(None, None, "the function is not marked allocated"));
        }
        let mut new_entry = None;
        if a.layout != b.layout {
            // The one allowed change: a new entry block in front of an entry block that is a
            // branch target (it holds inserted instructions only, checked below).
            new_entry = match (a.layout.split_first(), b.entry()) {
                (Some((&pre, rest)), Some(e))
                    if rest == &b.layout[..] && b.blocks.get(pre).is_none() && !Cfg::compute(b).preds(e).is_empty() =>
                {
                    Some((pre, e))
                }
                _ => return Err(err(None, None, "the block layout changed")),
            };
        }
        if a.params.len() != b.params.len() {
            return Err(err(None, None, "the parameter list changed"));
        }
        let orig: HashSet<Inst> = b.inst_order().map(|(_, i)| i).collect();
        let mut sass_adjust: Option<(Block, usize, i64)> = None;
        let mut spill_pos: Vec<(Block, usize, i64, u32)> = Vec::new();
        for &blk in &a.layout {
            let want = b.block_insts(blk);
            let mut k = 0;
            let mut steps = Vec::new();
            let mut phis = Vec::new();
            for (pos, &i) in a.block_insts(blk).iter().enumerate() {
                if orig.contains(&i) {
                    if want.get(k) != Some(&i) {
                        return Err(err(Some(blk), self.show_after(i), "an original instruction moved"));
                    }
                    k += 1;
                    let st = self.original(blk, i)?;
                    if let Step::Phi = st {
                        let (bd, ad) = (&b.insts[i], &a.insts[i]);
                        let (Some(&bdst), Some(&adst)) = (bd.dsts.first(), ad.dsts.first()) else {
                            return Err(err(Some(blk), self.show_after(i), "a phi without a destination"));
                        };
                        let dst = self.pair(bdst, adst, blk, i)?;
                        let mut srcs = Vec::new();
                        for (cb, ca) in bd.srcs.chunks(2).zip(ad.srcs.chunks(2)) {
                            if let ([Operand::Reg(ub), Operand::Block(p)], [Operand::Reg(ua), _]) = (cb, ca) {
                                srcs.push((self.pair(ub.reg, ua.reg, blk, i)?, *p));
                            }
                        }
                        phis.push((dst, srcs));
                    }
                    steps.push((i, st));
                } else if let Some((pre, e)) = new_entry
                    && blk == pre
                    && pos + 1 == a.block_insts(blk).len()
                {
                    let d = &a.insts[i];
                    let bra = if b.sass { Opcode::BRA } else { Opcode::Bra };
                    if d.opcode != bra || d.guard.is_some() || d.srcs[..] != [Operand::Block(e)] {
                        return Err(err(
                            Some(blk),
                            self.show_after(i),
                            "the new entry block does not branch to the entry",
                        ));
                    }
                    steps.push((i, Step::EntryJump));
                } else {
                    let st = self.inserted(blk, i)?;
                    match &st {
                        Step::FrameAdjust => {
                            if sass_adjust.is_some() || Some(blk) != b.entry() {
                                return Err(err(
                                    Some(blk),
                                    self.show_after(i),
                                    "a second or misplaced frame adjustment",
                                ));
                            }
                            let Some(Operand::Imm(Imm::Int(s))) = a.insts[i].srcs.get(1) else { unreachable!() };
                            sass_adjust = Some((blk, pos, -*s));
                        }
                        Step::Store { reg, .. } | Step::Reload { reg, .. } => {
                            if let Some(Operand::Mem(m)) = a.insts[i].srcs.first() {
                                spill_pos.push((blk, pos, m.offset, 4 * u32::from(reg.count)));
                            }
                        }
                        _ => {}
                    }
                    steps.push((i, st));
                }
            }
            if k != want.len() {
                return Err(err(Some(blk), None, format!("{} original instruction(s) dropped", want.len() - k)));
            }
            self.steps.insert(blk, steps);
            self.phis.insert(blk, phis);
        }
        for (i, (pb, pa)) in b.params.iter().zip(&a.params).enumerate() {
            let Reg::Phys(p) = *pa else { return Err(err(None, None, format!("parameter {i} is still virtual"))) };
            if let Reg::Virt(v) = pb {
                let class = b.vregs.get(*v).map(|d| d.class);
                if class != Some(p.class()) || p.check().is_err() || p.is_zero() {
                    return Err(err(None, None, format!("parameter {i} got {p}, which does not fit its class")));
                }
            } else if pb != pa {
                return Err(err(None, None, format!("fixed parameter {i} changed")));
            }
        }
        if b.sass && !spill_pos.is_empty() {
            let Some((eb, at, size)) = sass_adjust else {
                return Err(err(None, None, "spill code without a frame adjustment"));
            };
            let cfg = Cfg::compute(a);
            if !cfg.preds(eb).is_empty() {
                return Err(err(Some(eb), None, "the frame adjustment's block is a loop header"));
            }
            // The frame the prologue laid out itself.
            let r1 = Reg::Phys(PhysReg::new(RegFile::R, 1));
            let mut own = 0i64;
            for &i in a.block_insts(eb).iter().take(at) {
                let d = &a.insts[i];
                if d.dsts.contains(&r1) {
                    if let (Opcode::IADD3, [Operand::Reg(x), Operand::Imm(Imm::Int(s)), Operand::Reg(_)]) =
                        (d.opcode, &d.srcs[..])
                        && x.reg == r1
                        && orig.contains(&i)
                    {
                        own -= s;
                    } else if orig.contains(&i) && !matches!(d.opcode, Opcode::MOV | Opcode::LDC) {
                        return Err(err(
                            Some(eb),
                            self.show_after(i),
                            "an unrecognised stack-pointer write before the frame",
                        ));
                    }
                }
            }
            for (blk, pos, off, bytes) in spill_pos {
                if blk == eb && pos < at {
                    return Err(err(Some(blk), None, "spill code before the frame adjustment"));
                }
                if off < own || off + i64::from(bytes) > own + size {
                    return Err(err(
                        Some(blk),
                        None,
                        format!("spill slot [{off}, +{bytes}) outside the spill area [{own}, {})", own + size),
                    ));
                }
            }
            // R1 must not be written after the frame adjustment except by the original code.
        } else if sass_adjust.is_some() && spill_pos.is_empty() {
            return Err(err(None, None, "a frame adjustment without spill code"));
        }
        Ok(())
    }

    fn initial(&self) -> State {
        let ntok = self.nv + NLOC_REGS;
        let nloc = NLOC_REGS + self.slots.len();
        let mut s = State {
            base: ntok as u32,
            defined: vec![0; ntok.div_ceil(64)],
            locs: Locs::new(Loc { undef: true, ex: Vec::new() }, nloc),
        };
        // Every physical register holds its own initial value.
        for f in RegFile::ALL {
            for idx in 0..256u16 {
                let p = PhysReg::new(f, idx);
                let t = self.token(Reg::Phys(p), 0);
                s.defined[t as usize / 64] |= 1 << (t % 64);
                s.locs[Self::loc(p, 0)].ex = vec![t];
            }
        }
        for (pb, pa) in self.before.params.iter().zip(&self.after.params) {
            if let (Reg::Virt(_), Reg::Phys(p)) = (pb, pa) {
                for k in 0..p.count {
                    let t = self.token(*pb, k);
                    s.defined[t as usize / 64] |= 1 << (t % 64);
                }
            }
        }
        for (pb, pa) in self.before.params.iter().zip(&self.after.params) {
            if let (Reg::Virt(_), Reg::Phys(p)) = (pb, pa) {
                for k in 0..p.count {
                    let t = self.token(*pb, k);
                    let l = Self::loc(*p, k);
                    if !s.locs[l].ex.contains(&t) {
                        s.locs[l].ex.push(t);
                        s.locs[l].ex.sort_unstable();
                    }
                    // A parameter register holds the parameter, not its own old value.
                    let own = self.token(Reg::Phys(PhysReg::new(p.file, p.index + u16::from(k))), 0);
                    s.locs[l].ex.retain(|&x| x != own || x == t);
                }
            }
        }
        s
    }

    /// Whether the token(s) of `pr.before` are in the locations of `pr.after`.
    fn read_ok(&self, s: &State, pr: &Pair) -> Result<(), String> {
        if pr.after.is_zero() {
            return Ok(());
        }
        for k in 0..pr.after.count {
            let t = self.token(pr.before, k);
            let l = Self::loc(pr.after, k);
            if !s.holds(l, t) {
                let what = match pr.before {
                    Reg::Virt(_) => crate::ori::print::reg_to_string(self.before, pr.before),
                    Reg::Phys(p) => format!("the value of {p}"),
                };
                let comp = if pr.after.count > 1 { format!(" (component {k})") } else { String::new() };
                return Err(format!(
                    "reads {} but {}{comp} does not hold {what} here{}",
                    pr.after,
                    PhysReg::new(pr.after.file, pr.after.index + u16::from(k)),
                    self.describe(s, l)
                ));
            }
        }
        Ok(())
    }

    fn describe(&self, s: &State, l: usize) -> String {
        let names: Vec<String> = s.locs[l]
            .ex
            .iter()
            .filter(|&&t| (t as usize) < self.nv)
            .map(|&t| {
                let v = self.vtok.partition_point(|&b| b <= t) - 1;
                let k = t - self.vtok[v];
                let name = crate::ori::print::reg_to_string(self.before, Reg::Virt(crate::ori::VReg::new(v)));
                if k == 0 { name } else { format!("{name}.{k}") }
            })
            .collect();
        if names.is_empty() { String::new() } else { format!(" (it holds {})", names.join(", ")) }
    }

    fn write(&self, s: &mut State, pr: &Pair, guarded: bool) {
        if pr.after.is_zero() {
            return;
        }
        for k in 0..pr.after.count {
            let t = self.token(pr.before, k);
            let l = Self::loc(pr.after, k);
            let keep = !guarded || s.holds(l, t);
            s.define(l, t, keep);
        }
    }

    /// The state on entry to `blk` along the edge from `pred`, with phi reads checked.
    fn edge(&self, out: &State, pred: Block, blk: Block, checks: bool) -> Result<State, CheckError> {
        let mut s = out.clone();
        let phis = &self.phis[&blk];
        for (_, srcs) in phis {
            for (src, p) in srcs {
                if *p == pred
                    && checks
                    && let Err(m) = self.read_ok(&s, src)
                {
                    return Err(err(Some(blk), None, format!("phi source from bb{}: {m}", pred.index())));
                }
            }
        }
        for (dst, srcs) in phis {
            if srcs.iter().any(|(_, p)| *p == pred) {
                self.write(&mut s, dst, false);
            }
        }
        Ok(s)
    }

    /// Runs block `blk` from `s`; with `checks`, reports the first bad read.
    fn run_block(&self, blk: Block, s: &mut State, checks: bool) -> Result<(), CheckError> {
        for (i, st) in &self.steps[&blk] {
            match st {
                Step::Original { inst, reads, writes, guarded, call } => {
                    if checks {
                        for r in reads {
                            if let Err(m) = self.read_ok(s, r) {
                                let orig = inst_to_string(self.before, &self.before.insts[*inst]);
                                return Err(err(Some(blk), self.show_after(*i), format!("{m} (originally `{orig}`)")));
                            }
                        }
                    }
                    // PTX stage: the callee's spill area is the same memory. SASS stage: the
                    // callee's frame lies below R1 (`lower::isel::call`), slots survive.
                    if *call && !self.before.sass {
                        for l in NLOC_REGS..s.locs.len() {
                            s.locs[l] = Loc { undef: false, ex: Vec::new() };
                        }
                    }
                    // SASS stage: the callee may change every scratch register.
                    if *call && self.before.sass {
                        for file in [RegFile::R, RegFile::P] {
                            for k in 0..255u16 {
                                if crate::lower::isel::call::clobbered(file, k) {
                                    s.locs[Self::loc(PhysReg::new(file, k), 0)] = Loc { undef: false, ex: Vec::new() };
                                }
                            }
                        }
                    }
                    for w in writes {
                        self.write(s, w, *guarded);
                    }
                }
                Step::Phi | Step::FrameAdjust | Step::EntryJump => {}
                Step::P2R { pred, reg } => {
                    let src = &s.locs[Self::loc(*pred, 0)];
                    let base = s.base;
                    let ex: Vec<u32> = src.ex.iter().filter(|&&t| t < base).map(|&t| t + base).collect();
                    s.locs[Self::loc(*reg, 0)] = Loc { undef: src.undef, ex };
                }
                Step::R2P { reg, pred } => {
                    let src = &s.locs[Self::loc(*reg, 0)];
                    let base = s.base;
                    let ex: Vec<u32> = src.ex.iter().filter(|&&t| t >= base).map(|&t| t - base).collect();
                    s.locs[Self::loc(*pred, 0)] = Loc { undef: src.undef, ex };
                }
                Step::Store { slot, reg } => {
                    for k in 0..reg.count {
                        s.locs[NLOC_REGS + slot + usize::from(k)] = s.locs[Self::loc(*reg, k)].clone();
                    }
                }
                Step::Reload { slot, reg } => {
                    for k in 0..reg.count {
                        s.locs[Self::loc(*reg, k)] = s.locs[NLOC_REGS + slot + usize::from(k)].clone();
                    }
                }
            }
        }
        Ok(())
    }

    fn values(&self) -> Result<(), CheckError> {
        let cfg = Cfg::compute(self.after);
        let dom = DomTree::compute(self.after, &cfg);
        let Some(entry) = self.after.entry() else { return Ok(()) };
        let init = self.initial();
        let mut outs: HashMap<Block, State> = HashMap::new();
        let block_in = |outs: &HashMap<Block, State>, b: Block, checks: bool| -> Result<Option<State>, CheckError> {
            let mut acc: Option<State> = if b == entry { Some(init.clone()) } else { None };
            for &p in cfg.preds(b) {
                if let Some(o) = outs.get(&p) {
                    let e = self.edge(o, p, b, checks)?;
                    acc = Some(match acc {
                        None => e,
                        Some(a) => a.meet(&e),
                    });
                }
            }
            Ok(acc)
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in dom.rpo() {
                let Some(mut s) = block_in(&outs, b, false)? else { continue };
                self.run_block(b, &mut s, false)?;
                if outs.get(&b) != Some(&s) {
                    outs.insert(b, s);
                    changed = true;
                }
            }
        }
        for &b in &self.after.layout {
            if !dom.is_reachable(b) {
                continue;
            }
            let Some(mut s) = block_in(&outs, b, true)? else { continue };
            self.run_block(b, &mut s, true)?;
        }
        Ok(())
    }
}

/// Recognises the two predicate bit-spill forms: P2R (`selp.u32 R, 1, 0, P` / `SEL R, RZ, 1,
/// !P`) and R2P (`setp.ne.u32 P, R, 0` / `ISETP.NE.U32.AND P, PT, R, RZ, PT`).
fn bit_spill(a: &crate::ori::InstData, sass: bool) -> Option<Step> {
    use crate::ori::{BoolOp, Cmp, Mods};
    let single_r = |r: Reg| match r {
        Reg::Phys(p) if p.file == RegFile::R && p.count == 1 && !p.is_zero() => Some(p),
        _ => None,
    };
    let pred = |r: Reg| match r {
        Reg::Phys(p) if p.file == RegFile::P && !p.is_zero() => Some(p),
        _ => None,
    };
    let mut ne = Mods::ty(Ty::U32);
    ne.cmp = Some(Cmp::Ne);
    match (sass, a.opcode, &a.dsts[..], &a.srcs[..]) {
        (false, Opcode::Selp, [d], [Operand::Imm(Imm::Int(1)), Operand::Imm(Imm::Int(0)), Operand::Reg(p)])
            if a.mods == Mods::ty(Ty::U32) && !p.has_mods() =>
        {
            Some(Step::P2R { pred: pred(p.reg)?, reg: single_r(*d)? })
        }
        (false, Opcode::Setp, [d], [Operand::Reg(r), Operand::Imm(Imm::Int(0))]) if a.mods == ne && !r.has_mods() => {
            Some(Step::R2P { reg: single_r(r.reg)?, pred: pred(*d)? })
        }
        (true, Opcode::SEL, [d], [Operand::Reg(z), Operand::Imm(Imm::Int(1)), Operand::Reg(p)])
            if a.mods == Mods::new() && z.reg.is_zero() && !z.has_mods() && p.not && !p.neg && !p.abs =>
        {
            Some(Step::P2R { pred: pred(p.reg)?, reg: single_r(*d)? })
        }
        (true, Opcode::ISETP, [d, pt], [Operand::Reg(r), Operand::Reg(z), Operand::Reg(q)])
            if {
                let mut m = ne;
                m.bop = Some(BoolOp::And);
                a.mods == m
            } && pt.is_zero()
                && z.reg.is_zero()
                && q.reg.is_zero()
                && !r.has_mods()
                && !z.has_mods()
                && !q.has_mods() =>
        {
            Some(Step::R2P { reg: single_r(r.reg)?, pred: pred(*d)? })
        }
        _ => None,
    }
}
