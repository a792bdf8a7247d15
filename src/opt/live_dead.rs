//! Liveness and dead-code elimination: EarlyOriSimpleLiveDead (11) / OriSimpleLiveDead (69)
//! and OriPerformLiveDead{First,Second,Third,Fourth} (18, 38, 70, 99).
//!
//! **Removable** instructions ([`super::util::is_removable`]) write registers and have no
//! other effect: no control flow, call, store, atomic, barrier, fence or volatile access.
//! Everything else is never removed.
//!
//! - [`PerformLiveDead`]: textbook global backward liveness over [`RegKey`]s (a virtual
//!   register, or one component of a physical register). Per block, `gen` holds the keys read
//!   before an unguarded write; an unguarded write kills, a guarded one does not (the old
//!   value survives when the guard is false). A phi's operands are live out of the incoming
//!   block, not into the phi's block. `ret` operands are uses. Then each block is walked
//!   backward with its live-out set: a removable instruction none of whose destinations is
//!   live is unlinked and its sources are not added, so dead chains fall in one walk. Before
//!   that, a mark phase from the roots (every non-removable instruction) marks the keys they
//!   read and, transitively, every definition of a marked key; removable instructions that
//!   write no marked key are unlinked. This removes dead cycles (a loop-carried value nothing
//!   reads, through phis or redefinitions) that liveness alone keeps. The whole analysis
//!   repeats until nothing more is removed.
//! - [`SimpleLiveDead`]: the cheap variant. A removable instruction is dead when none of its
//!   destinations is read anywhere in the function (repeated to a fixed point), or when, in
//!   the same block, every destination is overwritten unconditionally before any read.

use std::collections::{HashMap, HashSet};

use super::util::{RegKey, is_phi, is_removable, reg_keys, used_keys};
use super::{Pass, PassError, PassKind};
use crate::ori::cfg::Cfg;
use crate::ori::{Block, Function, Operand};

/// Global liveness + DCE (phases 18, 38, 70, 99).
pub struct PerformLiveDead;

/// Local / use-count DCE (phases 11, 69).
pub struct SimpleLiveDead;

impl Pass for PerformLiveDead {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let mut total = 0;
        loop {
            let n = live_dead_round(f);
            total += n;
            if n == 0 {
                return Ok(total);
            }
        }
    }
}

impl Pass for SimpleLiveDead {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        Ok(simple_dce(f))
    }
}

/// Block-local overwritten-before-read removal plus whole-function unused-result removal, to a
/// fixed point. Returns the number of instructions removed.
pub fn simple_dce(f: &mut Function) -> usize {
    let mut total = 0;
    loop {
        let mut n = 0;
        // Never read anywhere.
        let used = used_keys(f);
        for b in f.layout.clone() {
            let before = f.blocks[b].insts.len();
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let kept: Vec<_> = insts
                .into_iter()
                .filter(|&i| {
                    let d = &f.insts[i];
                    !(is_removable(d) && d.dsts.iter().all(|&r| reg_keys(r).all(|k| !used.contains(&k))))
                })
                .collect();
            n += before - kept.len();
            f.blocks[b].insts = kept;
        }
        // Overwritten before read, within a block.
        for b in f.layout.clone() {
            let insts = f.blocks[b].insts.clone();
            let mut killed_below: HashSet<RegKey> = HashSet::new();
            let mut dead = HashSet::new();
            for &i in insts.iter().rev() {
                let d = &f.insts[i];
                if is_phi(d) {
                    break;
                }
                let keys: Vec<RegKey> = d.dsts.iter().flat_map(|&r| reg_keys(r)).collect();
                if is_removable(d) && !keys.is_empty() && keys.iter().all(|k| killed_below.contains(k)) {
                    dead.insert(i);
                    continue;
                }
                if d.guard.is_none() {
                    killed_below.extend(keys);
                }
                for r in d.uses() {
                    for k in reg_keys(r) {
                        killed_below.remove(&k);
                    }
                }
            }
            if !dead.is_empty() {
                n += dead.len();
                f.blocks[b].insts.retain(|i| !dead.contains(i));
            }
        }
        total += n;
        if n == 0 {
            return total;
        }
    }
}

/// Per-block liveness sets, computed to a fixed point.
pub struct Liveness {
    /// Keys live on entry to each block (phi results excluded).
    pub live_in: HashMap<Block, HashSet<RegKey>>,
    /// Keys live on exit from each block (including the operands its successors' phis read
    /// for this edge).
    pub live_out: HashMap<Block, HashSet<RegKey>>,
}

impl Liveness {
    /// Computes liveness of `f`.
    pub fn compute(f: &Function) -> Liveness {
        let cfg = Cfg::compute(f);
        let mut gen_: HashMap<Block, HashSet<RegKey>> = HashMap::new();
        let mut kill: HashMap<Block, HashSet<RegKey>> = HashMap::new();
        let mut edge_uses: HashMap<Block, HashSet<RegKey>> = HashMap::new();
        for &b in &f.layout {
            let (mut g, mut k) = (HashSet::new(), HashSet::new());
            for &i in f.block_insts(b) {
                let d = &f.insts[i];
                if is_phi(d) {
                    let mut s = d.srcs.iter();
                    while let (Some(v), Some(Operand::Block(p))) = (s.next(), s.next()) {
                        for r in v.regs() {
                            edge_uses.entry(*p).or_default().extend(reg_keys(r));
                        }
                    }
                } else {
                    for r in d.uses() {
                        for key in reg_keys(r) {
                            if !k.contains(&key) {
                                g.insert(key);
                            }
                        }
                    }
                }
                if d.guard.is_none() {
                    for &r in &d.dsts {
                        k.extend(reg_keys(r));
                    }
                }
            }
            gen_.insert(b, g);
            kill.insert(b, k);
        }
        let mut live_in: HashMap<Block, HashSet<RegKey>> = HashMap::new();
        let mut live_out: HashMap<Block, HashSet<RegKey>> = HashMap::new();
        let mut changed = true;
        while changed {
            changed = false;
            for &b in f.layout.iter().rev() {
                let mut out: HashSet<RegKey> = edge_uses.get(&b).cloned().unwrap_or_default();
                for s in cfg.succs(b) {
                    if let Some(li) = live_in.get(s) {
                        out.extend(li.iter().copied());
                    }
                }
                let mut inn = gen_[&b].clone();
                inn.extend(out.iter().filter(|k| !kill[&b].contains(k)).copied());
                if live_in.get(&b) != Some(&inn) || live_out.get(&b) != Some(&out) {
                    changed = true;
                    live_in.insert(b, inn);
                    live_out.insert(b, out);
                }
            }
        }
        Liveness { live_in, live_out }
    }
}

/// Removes removable instructions that contribute to no root (mark and sweep over keys).
pub fn sweep_unneeded(f: &mut Function) -> usize {
    let mut defs: HashMap<RegKey, Vec<crate::ori::Inst>> = HashMap::new();
    let mut work: Vec<crate::ori::Inst> = Vec::new();
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        for &r in &d.dsts {
            for k in reg_keys(r) {
                defs.entry(k).or_default().push(i);
            }
        }
        if !is_removable(d) {
            work.push(i);
        }
    }
    let mut marked_insts: HashSet<crate::ori::Inst> = work.iter().copied().collect();
    let mut marked_keys: HashSet<RegKey> = HashSet::new();
    while let Some(i) = work.pop() {
        for r in f.insts[i].uses() {
            for k in reg_keys(r) {
                if marked_keys.insert(k) {
                    for &di in defs.get(&k).map(|v| &v[..]).unwrap_or(&[]) {
                        if marked_insts.insert(di) {
                            work.push(di);
                        }
                    }
                }
            }
        }
    }
    let mut removed = 0;
    for b in f.layout.clone() {
        let before = f.blocks[b].insts.len();
        f.blocks[b].insts.retain(|i| marked_insts.contains(i));
        removed += before - f.blocks[b].insts.len();
    }
    removed
}

fn live_dead_round(f: &mut Function) -> usize {
    let mut removed = sweep_unneeded(f);
    let lv = Liveness::compute(f);
    for b in f.layout.clone() {
        let mut live = lv.live_out.get(&b).cloned().unwrap_or_default();
        let insts = f.blocks[b].insts.clone();
        let mut dead = HashSet::new();
        for &i in insts.iter().rev() {
            let d = &f.insts[i];
            let keys: Vec<RegKey> = d.dsts.iter().flat_map(|&r| reg_keys(r)).collect();
            if is_removable(d) && keys.iter().all(|k| !live.contains(k)) {
                dead.insert(i);
                continue;
            }
            if d.guard.is_none() {
                for k in &keys {
                    live.remove(k);
                }
            }
            if !is_phi(d) {
                for r in d.uses() {
                    live.extend(reg_keys(r));
                }
            }
        }
        if !dead.is_empty() {
            removed += dead.len();
            f.blocks[b].insts.retain(|i| !dead.contains(i));
        }
    }
    removed
}
