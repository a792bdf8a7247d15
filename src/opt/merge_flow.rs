//! MergeEquivalentConditionalFlow (13): tail-merge equivalent exit/branch sequences (spec p19
//! as "GeneralOptimizeEarly", digest §2.2).
//!
//! ptxas matches two instruction chains that end a block the same way (same guard, same
//! operands, same modifiers), keeps one exit sequence and splices the duplicate range out. On
//! PTX-stage Ori this is cross-jumping: two laid-out blocks `A` and `B` that end in the same
//! unguarded terminator (same `exit`/`ret`, or the same branch targets, none of them with
//! phis) and share a common suffix of at least one instruction before it share that suffix
//! once. If `B` is nothing but the suffix it is kept as is; otherwise `B` is split before the
//! suffix, the prefix ending in `bra` to a new block holding the suffix, laid out right after
//! it. `A`'s copy of the suffix is replaced by a `bra` to the kept suffix. Each merge counts
//! one change; a merge removes at least one instruction before a terminator from `A`, so the
//! fixed point is reached.
//!
//! Semantics: every involved block ends in an unguarded terminator, so no fall-through
//! changes; the suffix executes the same instructions on the same registers (in SSA form only
//! suffixes that define nothing are merged, so every register they read dominates both copies
//! and therefore the merged block). Not part of a suffix (conservatively, as ptxas's walk stops
//! at convergence regions): phis, side-effecting instructions (barriers, warp collectives,
//! calls, atomics) and instructions naming blocks.

use std::collections::HashMap;

use super::util::is_phi;
use super::{Pass, PassError, PassKind};
use crate::ori::opcode::OpFlags;
use crate::ori::{Block, BlockData, Function, InstData, Mods, Opcode, Operand};

/// Phase 13.
pub struct MergeEquivalentConditionalFlow;

impl Pass for MergeEquivalentConditionalFlow {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let mut total = 0;
        let bound = f.insts.len() + 1;
        for _ in 0..bound {
            if !merge_one(f) {
                break;
            }
            total += 1;
        }
        Ok(total)
    }
}

/// Whether `b` ends in an unguarded terminator whose targets have no phis.
fn candidate(f: &Function, b: Block) -> bool {
    let Some(t) = f.last_inst(b) else { return false };
    let t = &f.insts[t];
    t.opcode.info().is_terminator() && t.guard.is_none() && t.blocks().all(|s| !super::util::has_phis(f, s))
}

/// Whether instruction `d` may be part of a merged suffix.
fn mergeable(f: &Function, d: &InstData) -> bool {
    let info = d.opcode.info();
    !is_phi(d)
        && !info.is_terminator()
        && !info.has(OpFlags::SIDE_EFFECT)
        && d.blocks().next().is_none()
        && (!f.ssa || d.dsts.is_empty())
}

/// The number of equal mergeable instructions before the (equal) terminators of `a` and `b`.
fn common_suffix(f: &Function, a: Block, b: Block) -> usize {
    let (ia, ib) = (f.block_insts(a), f.block_insts(b));
    if f.insts[ia[ia.len() - 1]] != f.insts[ib[ib.len() - 1]] {
        return 0;
    }
    ia.iter()
        .rev()
        .skip(1)
        .zip(ib.iter().rev().skip(1))
        .take_while(|&(&x, &y)| f.insts[x] == f.insts[y] && mergeable(f, &f.insts[x]))
        .count()
}

fn bra(f: &Function, to: Block) -> InstData {
    let op = if f.sass { Opcode::BRA } else { Opcode::Bra };
    InstData::new(op, Mods::new(), vec![], vec![Operand::Block(to)])
}

/// The first pair of candidates, in layout order (the earliest block that has a partner, then
/// its earliest partner after it), that share a suffix of at least one instruction, and that
/// suffix's length. Two blocks do exactly when their terminators and their last instructions
/// before the terminators are equal and mergeable, so candidates are grouped by that pair in
/// one hashing pass: linear in the block count, where comparing every pair was quadratic.
fn first_pair(f: &Function) -> Option<(Block, Block, usize)> {
    let mut groups: HashMap<(&InstData, &InstData), Vec<Block>> = HashMap::new();
    let mut order = Vec::new();
    for &b in &f.layout {
        if !candidate(f, b) {
            continue;
        }
        let insts = f.block_insts(b);
        let [.., before, term] = insts else { continue };
        if !mergeable(f, &f.insts[*before]) {
            continue;
        }
        let key = (&f.insts[*term], &f.insts[*before]);
        let g = groups.entry(key).or_default();
        if g.len() == 1 {
            order.push(key);
        }
        g.push(b);
    }
    let pos: HashMap<Block, usize> = f.layout.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let (x, y) = order.iter().map(|k| (groups[k][0], groups[k][1])).min_by_key(|(x, _)| pos[x])?;
    let n = common_suffix(f, x, y);
    debug_assert!(n > 0, "grouped blocks share a suffix");
    Some((x, y, n))
}

/// Finds one pair with a common suffix and merges it.
fn merge_one(f: &mut Function) -> bool {
    let Some((x, y, n)) = first_pair(f) else { return false };
    // Keep a block that is nothing but the suffix (not the entry) as the shared copy.
    let whole = |b: Block| f.block_insts(b).len() == n + 1 && Some(b) != f.entry();
    let (a, b) = if whole(x) { (y, x) } else { (x, y) };
    let kept = if whole(b) {
        b
    } else {
        let len = f.blocks[b].insts.len();
        let tail = f.blocks[b].insts.split_off(len - n - 1);
        let s = f.blocks.push(BlockData { insts: tail });
        let j = f.insts.push(bra(f, s));
        f.blocks[b].insts.push(j);
        let pos = f.layout.iter().position(|&l| l == b).expect("laid out");
        f.layout.insert(pos + 1, s);
        s
    };
    let len = f.blocks[a].insts.len();
    f.blocks[a].insts.truncate(len - n - 1);
    let j = f.insts.push(bra(f, kept));
    f.blocks[a].insts.push(j);
    true
}
