//! The control-flow graph, derived from terminators, and the dominator tree.
//!
//! Successors of a laid-out block come from its last instruction only: the block targets of a
//! branch, plus the next block in the layout when that terminator is guarded (a guarded `bra`
//! or `exit` falls through when its predicate is false). A block whose last instruction is not
//! a terminator has no successors (the verifier reports it). Predecessors are the inverse,
//! computed in the same pass, so the two never disagree. Edges are deduplicated.
//!
//! Dominators use the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
//! Dominance Algorithm") over reverse post-order from the entry. Unreachable blocks have no
//! immediate dominator and dominate nothing but themselves.

use super::entity::{Block, SecondaryMap};
use super::function::Function;
use super::opcode::OpFlags;

/// Successor and predecessor lists of every laid-out block.
#[derive(Clone, Debug)]
pub struct Cfg {
    succs: SecondaryMap<Block, Vec<Block>>,
    preds: SecondaryMap<Block, Vec<Block>>,
}

impl Cfg {
    /// Derives the CFG of `f`. Never panics: dangling block ids are skipped.
    pub fn compute(f: &Function) -> Cfg {
        let mut succs = SecondaryMap::with_default(Vec::new());
        let mut preds: SecondaryMap<Block, Vec<Block>> = SecondaryMap::with_default(Vec::new());
        // The fall-through of each block is read off its layout index: looking it up per
        // block ([`Function::layout_next`]) made this quadratic in the block count.
        for (i, &b) in f.layout.iter().enumerate() {
            let s = successors_with_next(f, b, f.layout.get(i + 1).copied());
            for &t in &s {
                let mut p = preds.get(t).clone();
                if !p.contains(&b) {
                    p.push(b);
                    preds.set(t, p);
                }
            }
            succs.set(b, s);
        }
        Cfg { succs, preds }
    }
    /// Successors of `b`.
    pub fn succs(&self, b: Block) -> &[Block] {
        self.succs.get(b)
    }
    /// Predecessors of `b`, in layout order of the predecessor.
    pub fn preds(&self, b: Block) -> &[Block] {
        self.preds.get(b)
    }
}

/// The successors of block `b` as its terminator states them.
pub fn block_successors(f: &Function, b: Block) -> Vec<Block> {
    successors_with_next(f, b, f.layout_next(b))
}

/// [`block_successors`] with `b`'s layout successor given.
fn successors_with_next(f: &Function, b: Block, next: Option<Block>) -> Vec<Block> {
    let mut out = Vec::new();
    let Some(data) = f.last_inst(b).and_then(|i| f.insts.get(i)) else {
        return out;
    };
    let info = data.opcode.info();
    if !info.is_terminator() {
        return out;
    }
    if info.has(OpFlags::BRANCH) {
        for t in data.blocks() {
            if f.blocks.is_valid(t) && !out.contains(&t) {
                out.push(t);
            }
        }
    }
    if data.guard.is_some()
        && let Some(n) = next
        && !out.contains(&n)
    {
        out.push(n);
    }
    out
}

/// The dominator tree of a function's CFG.
#[derive(Clone, Debug)]
pub struct DomTree {
    rpo: Vec<Block>,
    rpo_num: SecondaryMap<Block, Option<u32>>,
    idom: SecondaryMap<Block, Option<Block>>,
}

impl DomTree {
    /// Computes dominators of `f` from its entry block.
    pub fn compute(f: &Function, cfg: &Cfg) -> DomTree {
        let mut rpo_num = SecondaryMap::with_default(None);
        let mut idom = SecondaryMap::with_default(None);
        let Some(entry) = f.entry() else {
            return DomTree { rpo: Vec::new(), rpo_num, idom };
        };
        // Iterative DFS post-order.
        let mut post = Vec::new();
        let mut seen: SecondaryMap<Block, bool> = SecondaryMap::with_default(false);
        let mut stack = vec![(entry, 0usize)];
        seen.set(entry, true);
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            let s = cfg.succs(b);
            if *i < s.len() {
                let n = s[*i];
                *i += 1;
                if !*seen.get(n) {
                    seen.set(n, true);
                    stack.push((n, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        let rpo: Vec<Block> = post.into_iter().rev().collect();
        for (n, &b) in rpo.iter().enumerate() {
            rpo_num.set(b, Some(n as u32));
        }
        idom.set(entry, Some(entry));
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new: Option<Block> = None;
                for &p in cfg.preds(b) {
                    if idom.get(p).is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(n) => intersect(&idom, &rpo_num, p, n),
                    });
                }
                if new.is_some() && *idom.get(b) != new {
                    idom.set(b, new);
                    changed = true;
                }
            }
        }
        DomTree { rpo, rpo_num, idom }
    }
    /// Blocks reachable from the entry, in reverse post-order.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }
    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_num.get(b).is_some()
    }
    /// The immediate dominator of `b` (`None` for the entry and unreachable blocks).
    pub fn idom(&self, b: Block) -> Option<Block> {
        match *self.idom.get(b) {
            Some(d) if d != b => Some(d),
            _ => None,
        }
    }
    /// Whether `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        if !self.is_reachable(b) {
            return false;
        }
        let mut x = b;
        while let Some(d) = self.idom(x) {
            if d == a {
                return true;
            }
            x = d;
        }
        false
    }
}

fn intersect(
    idom: &SecondaryMap<Block, Option<Block>>,
    num: &SecondaryMap<Block, Option<u32>>,
    mut a: Block,
    mut b: Block,
) -> Block {
    let n = |x: Block| num.get(x).unwrap_or(u32::MAX);
    // Each step moves a finger to its (already processed) dominator, whose RPO number is
    // smaller, so both fingers meet at the entry at the latest.
    while a != b {
        while n(a) > n(b) {
            match *idom.get(a) {
                Some(d) if d != a => a = d,
                _ => return b,
            }
        }
        while n(b) > n(a) {
            match *idom.get(b) {
                Some(d) if d != b => b = d,
                _ => return a,
            }
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ori::parse_function;

    fn b(n: u32) -> Block {
        Block::from_u32(n)
    }

    fn dom_of(text: &str) -> (Cfg, DomTree) {
        let f = parse_function(text).unwrap();
        let cfg = Cfg::compute(&f);
        let dom = DomTree::compute(&f, &cfg);
        (cfg, dom)
    }

    #[test]
    fn diamond() {
        let (cfg, dom) =
            dom_of("func @f(%p0) {\nbb0:\n    @%p0 bra bb2\nbb1:\n    bra bb3\nbb2:\n    bra bb3\nbb3:\n    ret\n}\n");
        assert_eq!(cfg.succs(b(0)), &[b(2), b(1)]);
        assert_eq!(cfg.preds(b(3)), &[b(1), b(2)]);
        assert_eq!(dom.idom(b(3)), Some(b(0)));
        assert_eq!(dom.idom(b(1)), Some(b(0)));
        assert_eq!(dom.idom(b(0)), None);
        assert!(!dom.dominates(b(1), b(3)));
        assert!(dom.dominates(b(3), b(3)));
        assert_eq!(dom.rpo()[0], b(0));
        assert_eq!(*dom.rpo().last().unwrap(), b(3));
    }

    #[test]
    fn nested_loops() {
        // bb0 -> bb1 (outer header) -> bb2 (inner header) <-> bb3; bb3 -> bb1; bb1 -> bb4.
        let (_, dom) = dom_of(
            "func @f(%p0, %p1) {\nbb0:\n    bra bb1\nbb1:\n    @%p0 bra bb4\nbb2:\n    bra bb3\nbb3:\n    @%p1 bra bb2\nbb5:\n    bra bb1\nbb4:\n    ret\n}\n",
        );
        assert_eq!(dom.idom(b(1)), Some(b(0)));
        assert_eq!(dom.idom(b(2)), Some(b(1)));
        assert_eq!(dom.idom(b(3)), Some(b(2)));
        assert_eq!(dom.idom(b(5)), Some(b(3)));
        assert_eq!(dom.idom(b(4)), Some(b(1)));
        assert!(dom.dominates(b(1), b(5)));
        assert!(!dom.dominates(b(2), b(4)));
    }

    #[test]
    fn irreducible_and_unreachable() {
        // bb1 and bb2 jump into each other, both entered from bb0: neither dominates the other.
        let (_, dom) = dom_of(
            "func @f(%p0) {\nbb0:\n    @%p0 bra bb2\nbb1:\n    @%p0 bra bb2\nbb3:\n    ret\nbb2:\n    bra bb1\nbb4:\n    bra bb1\n}\n",
        );
        assert_eq!(dom.idom(b(1)), Some(b(0)));
        assert_eq!(dom.idom(b(2)), Some(b(0)));
        assert_eq!(dom.idom(b(3)), Some(b(1)));
        assert!(!dom.is_reachable(b(4)));
        assert!(!dom.dominates(b(0), b(4)));
        assert_eq!(dom.idom(b(4)), None);
    }

    #[test]
    fn self_loop_and_guarded_exit_fallthrough() {
        let (cfg, dom) = dom_of("func @f(%p0) {\nbb0:\n    @%p0 bra bb0\nbb1:\n    @%p0 exit\nbb2:\n    ret\n}\n");
        assert_eq!(cfg.succs(b(0)), &[b(0), b(1)]);
        assert_eq!(cfg.succs(b(1)), &[b(2)]);
        assert_eq!(cfg.preds(b(0)), &[b(0)]);
        assert_eq!(dom.idom(b(2)), Some(b(1)));
    }
}
