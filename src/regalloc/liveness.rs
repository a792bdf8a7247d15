//! Liveness for the allocator: per-block live-in/live-out sets of virtual registers, and the
//! live points of every virtual register.
//!
//! Points: point 0 is the function entry (where parameters are defined); then, in layout
//! order, every instruction `i` has a read point `2k+1` and a write point `2k+2`. A register
//! is present at the read point of `i` if it is live just before `i` (read by it or live
//! across it), and at the write point if it is written by `i` (even if the result is dead) or
//! live just after `i`.
//!
//! Invariants:
//! - A guarded instruction reads its destinations (it may not execute, so the old value
//!   survives): they are live before it.
//! - A phi reads its sources at the end of the corresponding predecessor (they are live out of
//!   it) and writes its destination at the top of its block; phis have no read point uses.
//! - Live sets of unreachable blocks are computed like any other (they only make the
//!   allocation more conservative).

use crate::ori::cfg::Cfg;
use crate::ori::opcode::OpFlags;
use crate::ori::{Block, EntityRef, Function, Inst, InstData, Operand, Reg, VReg};

/// A fixed-size bit set over virtual register indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitSet(Vec<u64>);

impl BitSet {
    /// An empty set for `n` elements.
    pub fn new(n: usize) -> BitSet {
        BitSet(vec![0; n.div_ceil(64)])
    }
    /// Adds `i`.
    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    /// Removes `i`.
    pub fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    /// Whether `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    /// Adds every element of `o`; whether anything changed.
    pub fn union_with(&mut self, o: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    /// The elements, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut b = bits;
            std::iter::from_fn(move || {
                if b == 0 {
                    return None;
                }
                let t = b.trailing_zeros() as usize;
                b &= b - 1;
                Some(w * 64 + t)
            })
        })
    }
}

/// The virtual registers an instruction reads (phi sources excluded; the destinations of a
/// guarded instruction included).
pub fn inst_uses(d: &InstData) -> Vec<VReg> {
    let mut out = Vec::new();
    if !d.opcode.info().has(OpFlags::PHI) {
        out.extend(d.uses().filter_map(Reg::as_virt));
        if d.guard.is_some() {
            out.extend(d.dsts.iter().filter_map(|r| r.as_virt()));
        }
    }
    out
}

/// The virtual registers an instruction writes.
pub fn inst_defs(d: &InstData) -> Vec<VReg> {
    d.dsts.iter().filter_map(|r| r.as_virt()).collect()
}

/// The (value, predecessor) pairs of a phi.
pub fn phi_pairs(d: &InstData) -> Vec<(Reg, Block)> {
    d.srcs
        .chunks(2)
        .filter_map(|c| match c {
            [Operand::Reg(u), Operand::Block(b)] => Some((u.reg, *b)),
            _ => None,
        })
        .collect()
}

/// Whether `d` is a phi.
pub fn is_phi(d: &InstData) -> bool {
    d.opcode.info().has(OpFlags::PHI)
}

/// Liveness of one function.
#[derive(Clone, Debug)]
pub struct Liveness {
    /// Number of virtual registers (the size of every set).
    pub nvregs: usize,
    /// Live-out set of each laid-out block, by layout position.
    pub live_out: Vec<BitSet>,
    /// Live-in set of each laid-out block, by layout position (phi destinations excluded).
    pub live_in: Vec<BitSet>,
    /// Number of points.
    pub npoints: usize,
    /// The points where each virtual register is present (any order).
    pub points: Vec<Vec<u32>>,
    /// The read point of each laid-out instruction.
    pub inst_point: std::collections::HashMap<Inst, u32>,
    /// Virtual registers live across a call (live before and after it, not written by it).
    pub across_call: BitSet,
    /// References (reads + writes) of each virtual register.
    pub refs: Vec<u32>,
}

impl Liveness {
    /// Computes liveness of `f`.
    pub fn compute(f: &Function) -> Liveness {
        let n = f.vregs.len();
        let nb = f.layout.len();
        let cfg = Cfg::compute(f);
        let pos: std::collections::HashMap<Block, usize> = f.layout.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        // Per-block gen/kill (upward-exposed uses, defs), phi defs and phi uses per predecessor.
        let mut gen_ = vec![BitSet::new(n); nb];
        let mut kill = vec![BitSet::new(n); nb];
        let mut phi_defs = vec![BitSet::new(n); nb];
        // phi_uses[pred position] accumulates the phi sources flowing out of that predecessor.
        let mut phi_out = vec![BitSet::new(n); nb];
        let mut refs = vec![0u32; n];
        for (bi, &b) in f.layout.iter().enumerate() {
            for &i in f.block_insts(b) {
                let d = &f.insts[i];
                if is_phi(d) {
                    for v in inst_defs(d) {
                        phi_defs[bi].insert(v.index());
                        refs[v.index()] += 1;
                    }
                    for (r, p) in phi_pairs(d) {
                        if let (Reg::Virt(v), Some(&pi)) = (r, pos.get(&p)) {
                            phi_out[pi].insert(v.index());
                            refs[v.index()] += 1;
                        }
                    }
                    continue;
                }
                for v in inst_uses(d) {
                    refs[v.index()] += 1;
                    if !kill[bi].contains(v.index()) {
                        gen_[bi].insert(v.index());
                    }
                }
                for v in inst_defs(d) {
                    refs[v.index()] += 1;
                    kill[bi].insert(v.index());
                }
            }
        }
        let mut live_in = vec![BitSet::new(n); nb];
        let mut live_out = vec![BitSet::new(n); nb];
        let mut changed = true;
        while changed {
            changed = false;
            for bi in (0..nb).rev() {
                let b = f.layout[bi];
                let mut out = phi_out[bi].clone();
                for s in cfg.succs(b) {
                    if let Some(&si) = pos.get(s) {
                        out.union_with(&live_in[si]);
                    }
                }
                // in = gen ∪ (out − kill) − phi defs
                let mut inn = out.clone();
                for (w, (k, g)) in inn.0.iter_mut().zip(kill[bi].0.iter().zip(&gen_[bi].0)) {
                    *w = (*w & !k) | g;
                }
                for (w, p) in inn.0.iter_mut().zip(&phi_defs[bi].0) {
                    *w &= !p;
                }
                if out != live_out[bi] {
                    live_out[bi] = out;
                    changed = true;
                }
                if inn != live_in[bi] {
                    live_in[bi] = inn;
                    changed = true;
                }
            }
        }
        // Points.
        let mut points: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut inst_point = std::collections::HashMap::new();
        let mut across_call = BitSet::new(n);
        let mut next = 1u32;
        let mut first_point = vec![0u32; nb];
        for (bi, &b) in f.layout.iter().enumerate() {
            first_point[bi] = next;
            for &i in f.block_insts(b) {
                inst_point.insert(i, next);
                next += 2;
            }
        }
        for (bi, &b) in f.layout.iter().enumerate() {
            let mut live = live_out[bi].clone();
            let insts = f.block_insts(b);
            for (k, &i) in insts.iter().enumerate().rev() {
                let d = &f.insts[i];
                let rp = first_point[bi] + 2 * k as u32;
                let defs = inst_defs(d);
                // Write point: live after ∪ defs.
                for v in live.iter() {
                    points[v].push(rp + 1);
                }
                for v in &defs {
                    if !live.contains(v.index()) {
                        points[v.index()].push(rp + 1);
                    }
                }
                let is_call = d.opcode.info().has(OpFlags::CALL);
                for v in &defs {
                    live.remove(v.index());
                }
                if is_call {
                    for v in live.iter() {
                        across_call.insert(v);
                    }
                }
                for v in inst_uses(d) {
                    live.insert(v.index());
                }
                for v in live.iter() {
                    points[v].push(rp);
                }
            }
        }
        // The entry point: parameters and whatever is live into the entry block.
        if let Some(e) = f.entry() {
            let mut at_entry = live_in[pos[&e]].clone();
            for p in &f.params {
                if let Reg::Virt(v) = p {
                    at_entry.insert(v.index());
                }
            }
            for v in at_entry.iter() {
                points[v].push(0);
            }
        }
        Liveness { nvregs: n, live_out, live_in, npoints: next as usize, points, inst_point, across_call, refs }
    }
}
