//! Control-flow structure phases: AnalyzeControlFlow (3) and SetControlFlowOpLastInBB (6).
//!
//! - **AnalyzeControlFlow** is a check. Ori derives the CFG from terminators
//!   ([`crate::ori::cfg`]), so there is nothing to cache; the phase computes the CFG and the
//!   dominator tree and checks what later phases rely on: every laid-out block ends in a
//!   terminator, branch targets are laid-out blocks, a guarded terminator has a fall-through
//!   block, the entry has no phis, and every phi lists exactly the block's predecessors.
//! - **SetControlFlowOpLastInBB** is a transform. A control-flow instruction in the middle of a
//!   block (as an expansion may leave one) is made the last of its block: the instructions
//!   after it move to a new block placed right after it in the layout. After a guarded
//!   terminator they are its fall-through, exactly as before; after an unguarded one they were
//!   unreachable and stay so. Invariant afterwards: no terminator before the end of a block.

use super::util::{has_phis, is_phi};
use super::{Pass, PassError, PassKind};
use crate::ori::cfg::{Cfg, DomTree};
use crate::ori::{Block, BlockData, Function};

/// Phase 3: the CFG check.
pub struct AnalyzeControlFlow;

impl Pass for AnalyzeControlFlow {
    fn kind(&self) -> PassKind {
        PassKind::Check
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let Some(entry) = f.entry() else {
            return Err(PassError::in_func(f, "function has no blocks"));
        };
        let cfg = Cfg::compute(f);
        let _dom = DomTree::compute(f, &cfg);
        if has_phis(f, entry) {
            return Err(PassError::in_func(f, format!("entry block {entry} has phis")));
        }
        let laid_out: std::collections::HashSet<_> = f.layout.iter().copied().collect();
        for &b in &f.layout {
            let Some(t) = f.last_inst(b).and_then(|i| f.insts.get(i)) else {
                return Err(PassError::in_func(f, format!("{b} is empty")));
            };
            if !t.opcode.info().is_terminator() {
                return Err(PassError::in_func(f, format!("{b} does not end in a control-flow instruction")));
            }
            for tgt in t.blocks() {
                if !laid_out.contains(&tgt) {
                    return Err(PassError::in_func(f, format!("{b} branches to {tgt}, which is not laid out")));
                }
            }
            if t.guard.is_some() && f.layout.last() == Some(&b) {
                return Err(PassError::in_func(f, format!("{b} ends in a guarded terminator with no fall-through")));
            }
            let preds = cfg.preds(b);
            for &i in f.block_insts(b) {
                let d = &f.insts[i];
                if !is_phi(d) {
                    break;
                }
                let mut incoming: Vec<Block> = d.blocks().collect();
                incoming.sort();
                let mut want = preds.to_vec();
                want.sort();
                if incoming != want {
                    return Err(PassError::in_func(
                        f,
                        format!("phi in {b} has incoming blocks {incoming:?}, predecessors are {want:?}"),
                    ));
                }
            }
        }
        Ok(0)
    }
}

/// Phase 6: split blocks after mid-block control flow.
pub struct SetControlFlowOpLastInBB;

impl Pass for SetControlFlowOpLastInBB {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        let mut changed = 0;
        let mut li = 0;
        while li < f.layout.len() {
            let b = f.layout[li];
            let insts = f.blocks[b].insts.clone();
            let cut = insts.iter().position(|&i| f.insts[i].opcode.info().is_terminator());
            if let Some(pos) = cut
                && pos + 1 < insts.len()
            {
                let tail = insts[pos + 1..].to_vec();
                f.blocks[b].insts.truncate(pos + 1);
                let nb = f.blocks.push(BlockData { insts: tail });
                f.layout.insert(li + 1, nb);
                // Phis of b's old successors named b; the edges now leave from nb.
                let succs: Vec<Block> =
                    f.block_insts(nb).last().map(|&i| f.insts[i].blocks().collect()).unwrap_or_default();
                for s in succs {
                    super::util::rename_phi_pred(f, s, b, nb);
                }
                // A phi naming b for b's own fall-through successor also moved to nb.
                if let Some(n) = f.layout.get(li + 2).copied()
                    && f.insts[*f.blocks[nb].insts.last().expect("non-empty")].guard.is_some()
                {
                    super::util::rename_phi_pred(f, n, b, nb);
                }
                changed += 1;
            }
            li += 1;
        }
        Ok(changed)
    }
}
