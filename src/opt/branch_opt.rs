//! OriBranchOpt (17): CFG simplification to a fixed point (spec p20, digest §2.3).
//!
//! Rules, applied until none fires (each firing counts one change):
//! 1. **Constant and identical-target conditions.** A terminator guarded by `PT` loses its
//!    guard. A terminator guarded by `!PT` never fires: it becomes `bra <fall-through>` (and
//!    the dropped edge leaves the target's phis). A guarded `bra` whose target is its own
//!    fall-through block, or the target of a fall-through block that only branches there,
//!    becomes unguarded.
//! 2. **Unreachable blocks** (not reachable from the entry) leave the layout, and their
//!    incoming pairs leave the phis of reachable blocks. No reachable block falls through into
//!    an unreachable one, so no fall-through changes.
//! 3. **Branch chains.** A `bra X` where `X` holds only an unguarded `bra Y` is retargeted to
//!    the end of the chain (cycles are left alone; a chain ending at a block with phis is left
//!    alone, since its phis name the last hop).
//! 4. **Jump to a single-predecessor block.** Ori has no implicit fall-through for unguarded
//!    transfers, so ptxas's "drop a jump to the next block" is block merging here: a block
//!    ending in an unguarded `bra S`, where `S` has no other predecessor, no phis, and is not
//!    the entry, absorbs `S`'s instructions. If `S` ends in a guarded terminator (which falls
//!    through), `S` must directly follow the block in the layout, so the fall-through target
//!    stays the same.

use std::collections::{HashMap, HashSet};

use super::util::{has_phis, layout_prev, pred_const, remove_phi_edge, rename_phi_pred};
use super::{Pass, PassError, PassKind};
use crate::ori::cfg::{Cfg, DomTree};
use crate::ori::opcode::OpFlags;
use crate::ori::{Block, Function, InstData, Mods, Opcode, Operand};

/// Phase 17.
pub struct OriBranchOpt;

impl Pass for OriBranchOpt {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let mut total = 0;
        // Each firing removes a guard, a block, an edge hop or a block; bound the rounds anyway.
        for _ in 0..(4 * f.layout.len() + 8) {
            let n = const_conditions(f) + unreachable_blocks(f) + thread_chains(f) + merge_blocks(f);
            total += n;
            if n == 0 {
                break;
            }
        }
        Ok(total)
    }
}

fn bra_opcode(f: &Function) -> Opcode {
    if f.sass { Opcode::BRA } else { Opcode::Bra }
}

fn const_conditions(f: &mut Function) -> usize {
    let mut n = 0;
    for b in f.layout.clone() {
        let Some(t) = f.last_inst(b) else { continue };
        let d = f.insts[t].clone();
        let Some(g) = d.guard else { continue };
        let gu = crate::ori::RegUse { reg: g.reg, neg: false, abs: false, not: g.not };
        let next = f.layout_next(b);
        match pred_const(&gu) {
            Some(true) => {
                f.insts[t].guard = None;
                // The fall-through edge is gone.
                if let Some(nx) = next
                    && !d.blocks().any(|x| x == nx)
                {
                    remove_phi_edge(f, nx, b);
                }
                n += 1;
            }
            Some(false) => {
                let Some(nx) = next else { continue };
                for tgt in d.blocks() {
                    if tgt != nx {
                        remove_phi_edge(f, tgt, b);
                    }
                }
                f.insts[t] = InstData::new(bra_opcode(f), Mods::new(), vec![], vec![Operand::Block(nx)]);
                n += 1;
            }
            None => {
                let Some(nx) = next else { continue };
                if !d.opcode.info().has(OpFlags::BRANCH) || d.blocks().count() == 0 {
                    continue;
                }
                if d.blocks().all(|x| x == nx) {
                    f.insts[t].guard = None;
                    n += 1;
                } else if let Some(tn) = trampoline(f, nx)
                    && d.blocks().all(|x| x == tn)
                    && !has_phis(f, tn)
                {
                    // Both ways lead to tn: the fall-through through the trampoline nx.
                    f.insts[t].guard = None;
                    n += 1;
                }
            }
        }
    }
    n
}

fn unreachable_blocks(f: &mut Function) -> usize {
    let cfg = Cfg::compute(f);
    let dom = DomTree::compute(f, &cfg);
    let dead: Vec<Block> = f.layout.iter().copied().filter(|&b| !dom.is_reachable(b)).collect();
    if dead.is_empty() {
        return 0;
    }
    for &u in &dead {
        for &s in cfg.succs(u) {
            if dom.is_reachable(s) {
                remove_phi_edge(f, s, u);
            }
        }
    }
    let dead_set: HashSet<Block> = dead.iter().copied().collect();
    f.layout.retain(|b| !dead_set.contains(b));
    dead.len()
}

/// The single unguarded `bra` target of a block that holds nothing else.
fn trampoline(f: &Function, b: Block) -> Option<Block> {
    let insts = f.block_insts(b);
    if insts.len() != 1 {
        return None;
    }
    let d = &f.insts[insts[0]];
    if d.guard.is_some() || !d.opcode.info().has(OpFlags::BRANCH) {
        return None;
    }
    let mut ts = d.blocks();
    let t = ts.next()?;
    if ts.next().is_some() { None } else { Some(t) }
}

/// The end of every trampoline chain, memoised per call of [`thread_chains`] so that a run of
/// `n` trampolines costs O(n), not O(n^2): for a block `x`, the first block reached from `x`
/// through trampolines that is not one itself (`x` when `x` is none), or `None` when the walk
/// runs into a cycle. Retargeting a branch to its chain's end keeps every memoised end true.
#[derive(Default)]
struct ChainEnds(HashMap<Block, Option<Block>>);

impl ChainEnds {
    fn end(&mut self, f: &Function, x: Block) -> Option<Block> {
        let (mut path, mut on_path) = (Vec::new(), HashSet::new());
        let mut cur = x;
        let result = loop {
            if let Some(&r) = self.0.get(&cur) {
                break r;
            }
            if !on_path.insert(cur) {
                break None;
            }
            path.push(cur);
            match trampoline(f, cur) {
                Some(y) => cur = y,
                None => break Some(cur),
            }
        };
        for p in path {
            self.0.insert(p, result);
        }
        result
    }
}

fn thread_chains(f: &mut Function) -> usize {
    let mut n = 0;
    let mut ends = ChainEnds::default();
    for b in f.layout.clone() {
        let Some(t) = f.last_inst(b) else { continue };
        if !f.insts[t].opcode.info().has(OpFlags::BRANCH) {
            continue;
        }
        let mut srcs = f.insts[t].srcs.clone();
        let mut changed = false;
        for s in srcs.iter_mut() {
            let Operand::Block(x) = *s else { continue };
            // Follow the chain x -> y -> ... to its end; a chain through `b` is a cycle.
            let Some(end) = ends.end(f, x) else { continue };
            if end == b || end == x || has_phis(f, end) {
                continue;
            }
            // The edge b -> x leaves x's phis (x is a trampoline, so it has none).
            *s = Operand::Block(end);
            changed = true;
        }
        if changed {
            f.insts[t].srcs = srcs;
            n += 1;
        }
    }
    n
}

/// Rule 4. One CFG per call, kept current as blocks merge (recomputing it per candidate made
/// this rule cubic in the block count on large kernels); after a merge the same block is tried
/// again, since its new terminator is the absorbed block's. Merges that a layout change enables
/// earlier in the layout are found by the caller's next round.
fn merge_blocks(f: &mut Function) -> usize {
    let entry = f.entry();
    let cfg = Cfg::compute(f);
    let mut preds: HashMap<Block, Vec<Block>> = f.layout.iter().map(|&b| (b, cfg.preds(b).to_vec())).collect();
    let mut succs: HashMap<Block, Vec<Block>> = f.layout.iter().map(|&b| (b, cfg.succs(b).to_vec())).collect();
    let mut n = 0;
    let mut i = 0;
    while i < f.layout.len() {
        let b = f.layout[i];
        let Some(s) = mergeable_successor(f, b, i, entry, &preds) else {
            i += 1;
            continue;
        };
        let succs_s = succs.remove(&s).unwrap_or_default();
        let moved = std::mem::take(&mut f.blocks[s].insts);
        f.blocks[b].insts.pop();
        f.blocks[b].insts.extend(moved);
        f.layout.retain(|&x| x != s);
        preds.remove(&s);
        for &x in &succs_s {
            rename_phi_pred(f, x, s, b);
            if let Some(p) = preds.get_mut(&x) {
                p.retain(|&y| y != s);
                if !p.contains(&b) {
                    p.push(b);
                }
            }
        }
        succs.insert(b, succs_s);
        n += 1;
        // `s` may have preceded `b`; try `b` again at its current position.
        i = f.layout.iter().position(|&x| x == b).unwrap_or(i);
    }
    n
}

/// The block `b` (at layout index `i`) may absorb: the single target of its unguarded branch,
/// when that target has `b` as its only predecessor, no phis, is not the entry, and keeps its
/// fall-through (see rule 4).
fn mergeable_successor(
    f: &Function,
    b: Block,
    i: usize,
    entry: Option<Block>,
    preds: &HashMap<Block, Vec<Block>>,
) -> Option<Block> {
    let d = &f.insts[f.last_inst(b)?];
    if d.guard.is_some() || !d.opcode.info().has(OpFlags::BRANCH) {
        return None;
    }
    let mut ts = d.blocks();
    let (Some(s), None) = (ts.next(), ts.next()) else { return None };
    if s == b || Some(s) == entry || has_phis(f, s) || preds.get(&s).map(Vec::as_slice) != Some(&[b][..]) {
        return None;
    }
    let s_guarded = f.last_inst(s).is_some_and(|x| f.insts[x].guard.is_some());
    if s_guarded && f.layout.get(i + 1) != Some(&s) {
        return None;
    }
    // No block may fall through into s except b (which does not: its bra is unguarded).
    if let Some(p) = layout_prev(f, s)
        && p != b
        && f.last_inst(p).is_some_and(|x| f.insts[x].guard.is_some())
    {
        return None;
    }
    Some(s)
}
