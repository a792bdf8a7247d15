//! Immediate post-dominators: where the SIMT stack reconverges diverged lanes.
//!
//! Computed with the Cooper–Harvey–Kennedy iterative algorithm on the reversed CFG, rooted at
//! a virtual exit node whose reverse successors are the blocks with no CFG successors (those
//! ending in an unguarded `exit`/`ret`, or in no terminator at all). A block whose immediate
//! post-dominator is the virtual exit — or that cannot reach any exit (an infinite loop) — has
//! none: lanes that diverge there only meet again when they have all exited.

use std::collections::HashMap;

use ptxas_rs::ori::Block;
use ptxas_rs::ori::Function;
use ptxas_rs::ori::cfg::Cfg;

/// The immediate post-dominator of every laid-out block.
#[derive(Clone, Debug, Default)]
pub struct PostDom {
    ipdom: HashMap<Block, Block>,
}

impl PostDom {
    /// Computes post-dominators of `f`. Never panics.
    pub fn compute(f: &Function, cfg: &Cfg) -> PostDom {
        let blocks: Vec<Block> = f.layout.clone();
        let n = blocks.len();
        let index: HashMap<Block, usize> = blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let exit = n;
        // Reverse-graph successors (= forward predecessors) and predecessors (= forward
        // successors), over nodes 0..=n.
        let mut rsucc: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        let mut rpred: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (i, &b) in blocks.iter().enumerate() {
            let succs: Vec<usize> = cfg.succs(b).iter().filter_map(|s| index.get(s).copied()).collect();
            if succs.is_empty() {
                rsucc[exit].push(i);
                rpred[i].push(exit);
            }
            for s in succs {
                rsucc[s].push(i);
                rpred[i].push(s);
            }
        }
        // Post-order of the reverse graph from the exit.
        let mut num = vec![usize::MAX; n + 1];
        let mut order = Vec::new();
        let mut seen = vec![false; n + 1];
        let mut stack = vec![(exit, 0usize)];
        seen[exit] = true;
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if i < rsucc[v].len() {
                top.1 += 1;
                let w = rsucc[v][i];
                if !seen[w] {
                    seen[w] = true;
                    stack.push((w, 0));
                }
            } else {
                num[v] = order.len();
                order.push(v);
                stack.pop();
            }
        }
        let mut idom = vec![usize::MAX; n + 1];
        idom[exit] = exit;
        let mut changed = true;
        while changed {
            changed = false;
            for &v in order.iter().rev() {
                if v == exit {
                    continue;
                }
                let mut new = usize::MAX;
                for &p in &rpred[v] {
                    if idom[p] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX { p } else { intersect(&idom, &num, p, new) };
                }
                if new != usize::MAX && idom[v] != new {
                    idom[v] = new;
                    changed = true;
                }
            }
        }
        let ipdom = (0..n)
            .filter(|&i| idom[i] != usize::MAX && idom[i] != exit)
            .map(|i| (blocks[i], blocks[idom[i]]))
            .collect();
        PostDom { ipdom }
    }

    /// The immediate post-dominator of `b`, or `None` when only the function's exit
    /// post-dominates it.
    pub fn ipdom(&self, b: Block) -> Option<Block> {
        self.ipdom.get(&b).copied()
    }
}

fn intersect(idom: &[usize], num: &[usize], mut a: usize, mut b: usize) -> usize {
    // Post-order numbers grow towards the root; each step moves a finger to its dominator.
    let mut guard = 0usize;
    while a != b {
        while num[a] < num[b] {
            a = idom[a];
        }
        while num[b] < num[a] {
            b = idom[b];
        }
        guard += 1;
        if guard > idom.len() * idom.len() + 4 {
            break;
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxas_rs::ori::parse_function;

    fn pd(text: &str) -> PostDom {
        let f = parse_function(text).unwrap();
        PostDom::compute(&f, &Cfg::compute(&f))
    }

    #[test]
    fn diamond_and_loop() {
        let b = Block::from_u32;
        let p = pd("func @f(%p0) {\nbb0:\n    @%p0 bra bb2\nbb1:\n    bra bb3\nbb2:\n    bra bb3\nbb3:\n    ret\n}\n");
        assert_eq!(p.ipdom(b(0)), Some(b(3)));
        assert_eq!(p.ipdom(b(1)), Some(b(3)));
        assert_eq!(p.ipdom(b(3)), None);
        let p = pd("func @f(%p0) {\nbb0:\n    bra bb1\nbb1:\n    @%p0 bra bb1\nbb2:\n    ret\n}\n");
        assert_eq!(p.ipdom(b(1)), Some(b(2)));
        // Two separate exits: no post-dominator but the exit.
        let p = pd("func @f(%p0) {\nbb0:\n    @%p0 bra bb2\nbb1:\n    ret\nbb2:\n    ret\n}\n");
        assert_eq!(p.ipdom(b(0)), None);
    }
}
