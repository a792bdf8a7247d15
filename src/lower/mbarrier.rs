//! mbarrier instructions and the asynchronous copies that complete on an mbarrier:
//! `mbarrier.{init, arrive, arrive.expect_tx, arrive_drop{.expect_tx}, expect_tx, complete_tx,
//! pending_count, test_wait, try_wait, inval}`
//! (`.parity` forms included), `cp.async.mbarrier.arrive` and
//! `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`.
//!
//! Each becomes one PTX-stage Ori opcode ([`Opcode::MbarInit`] ...) whose meaning on the 64-bit
//! barrier word is [`crate::ori::mbarrier`]'s. `arrive` carries its arrival count and its
//! transaction bytes as operands (`arrive.expect_tx [b], tx` is 1 arrival with `tx` bytes,
//! `expect_tx [b], tx` 0 arrivals with `tx` bytes), so one opcode covers the family. The
//! `.parity` waits pass the state token `parity << 63` (what ptxas passes: `parity << 31` as
//! the token's high word), so test and try waits take a token only.
//!
//! The memory-ordering qualifiers `.release`/`.acquire`/`.relaxed` at `.cta` scope change nothing
//! in the executors (each warp-instruction completes before the next), so they are accepted;
//! `arrive.noComplete [b], count` is the plain arrival (the program promises the arrival does not
//! complete the phase; the ISA leaves the other case undefined); `fence`
//! forms (`fence.proxy.async`, `fence.mbarrier_init`) stay with `control`.
//!
//! `arrive_drop` is `MbarArrive` with [`Flag::Optout`], `complete_tx` with
//! [`Flag::CompleteTx`] (0 arrivals); `pending_count` is plain arithmetic on the token's
//! arrival field (see [`crate::ori::mbarrier`]).
//!
//! Invariant: every other form (`.cluster` scope, `arrive_drop.noComplete`,
//! `cp.async.mbarrier.arrive.noinc`, bulk copies with multicast or cache hints) is a located
//! `not implemented yet` error, never a guess.

use super::Result;
use super::func::FnCx;
use crate::ori::{Flag, Imm, Mods, Opcode, Operand, RegClass, Space, Ty};
use crate::ptx::ast;

/// Whether `i` is lowered here (`mbarrier`, and the `cp.async` forms naming an mbarrier).
pub(super) fn lowers_here(i: &ast::Instruction) -> bool {
    match i.opcode.name.as_str() {
        "mbarrier" => true,
        "cp" => i.modifiers.iter().any(|m| m.text == ".mbarrier" || m.text == ".bulk"),
        _ => false,
    }
}

impl FnCx<'_> {
    /// Lowers one instruction of this module's family (see the module doc).
    pub(super) fn mbarrier(&mut self, i: &ast::Instruction) -> Result<()> {
        let words: Vec<&str> = i.modifiers.iter().map(|m| m.text.trim_start_matches('.')).collect();
        if i.opcode.name == "cp" {
            return self.cp_mbarrier(i, &words);
        }
        let Some((&op, rest)) = words.split_first() else {
            return self.err("`mbarrier` needs an operation");
        };
        let mut space = None;
        let (mut parity, mut expect_tx) = (false, false);
        for &w in rest {
            match w {
                "shared" | "shared::cta" => space = Some(Space::Shared),
                "b64" | "release" | "acquire" | "relaxed" | "cta" => {}
                // `.noComplete` promises the arrival does not complete the phase (undefined
                // otherwise), so the plain arrival is a correct meaning of every defined use.
                "noComplete" if op == "arrive" && i.operands.len() == 3 => {}
                "parity" if matches!(op, "test_wait" | "try_wait") => parity = true,
                "expect_tx" if matches!(op, "arrive" | "arrive_drop") => expect_tx = true,
                w => return self.err(format!("`mbarrier.{op}` with `.{w}` is not implemented yet")),
            }
        }
        let bar =
            |cx: &mut Self, n: usize| -> Result<Operand> { Ok(Operand::Mem(cx.mem_ref(cx.operand(i, n)?, space, 8)?)) };
        let u32_src = |cx: &mut Self, n: usize| -> Result<Operand> { cx.src(cx.operand(i, n)?, Ty::U32) };
        match op {
            "init" => {
                let srcs = vec![bar(self, 0)?, u32_src(self, 1)?];
                self.emit(Opcode::MbarInit, Mods::new(), vec![], srcs)?;
            }
            "inval" => {
                let srcs = vec![bar(self, 0)?];
                self.emit(Opcode::MbarInval, Mods::new(), vec![], srcs)?;
            }
            "arrive" | "arrive_drop" => {
                let state = self.dst(self.operand(i, 0)?, RegClass::R64)?;
                let b = bar(self, 1)?;
                let third = match i.operands.get(2) {
                    Some(o) => Some(self.src(o, Ty::U32)?),
                    None => None,
                };
                let one = Operand::Imm(Imm::Int(1));
                let zero = Operand::Imm(Imm::Int(0));
                let (arrivals, tx) = match (expect_tx, third) {
                    (true, Some(tx)) => (one, tx),
                    (true, None) => return self.err("`mbarrier.arrive.expect_tx` needs a transaction count"),
                    (false, Some(count)) => (count, zero),
                    (false, None) => (one, zero),
                };
                let mut m = Mods::new();
                if op == "arrive_drop" {
                    m.set(Flag::Optout);
                }
                self.emit(Opcode::MbarArrive, m, vec![state], vec![b, arrivals, tx])?;
            }
            "complete_tx" => {
                let state = self.tmp(RegClass::R64);
                let srcs = vec![bar(self, 0)?, Operand::Imm(Imm::Int(0)), u32_src(self, 1)?];
                let mut m = Mods::new();
                m.set(Flag::CompleteTx);
                self.emit(Opcode::MbarArrive, m, vec![state.into()], srcs)?;
            }
            "pending_count" => {
                // `0x100000 - (state.hi >> 11 & 0xfffff)` ([`crate::ori::mbarrier::pending_count`]),
                // as ptxas computes it from the token.
                if space.is_some() {
                    return self.err("`mbarrier.pending_count` takes no state space");
                }
                let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
                let state = self.src(self.operand(i, 1)?, Ty::B64)?;
                let sh = self.tmp(RegClass::R64);
                self.emit(Opcode::Shr, Mods::ty(Ty::U64), vec![sh.into()], vec![state, Operand::Imm(Imm::Int(43))])?;
                let lo = self.tmp(RegClass::R32);
                let cvt = Mods { ty: Some(Ty::U32), src_ty: Some(Ty::U64), ..Mods::default() };
                self.emit(Opcode::Cvt, cvt, vec![lo.into()], vec![Operand::reg(sh)])?;
                let f = self.tmp(RegClass::R32);
                self.emit(
                    Opcode::And,
                    Mods::ty(Ty::B32),
                    vec![f.into()],
                    vec![Operand::reg(lo), Operand::Imm(Imm::Int(0xF_FFFF))],
                )?;
                self.emit(
                    Opcode::Sub,
                    Mods::ty(Ty::U32),
                    vec![d],
                    vec![Operand::Imm(Imm::Int(0x10_0000)), Operand::reg(f)],
                )?;
            }
            "expect_tx" => {
                let state = self.tmp(RegClass::R64);
                let srcs = vec![bar(self, 0)?, Operand::Imm(Imm::Int(0)), u32_src(self, 1)?];
                self.emit(Opcode::MbarArrive, Mods::new(), vec![state.into()], srcs)?;
            }
            "test_wait" | "try_wait" => {
                let p = self.dst(self.operand(i, 0)?, RegClass::P)?;
                let b = bar(self, 1)?;
                let token = if parity {
                    // The token of the phase with this parity: parity << 63.
                    let par = u32_src(self, 2)?;
                    let t = self.tmp(RegClass::R64);
                    let cvt = Mods { ty: Some(Ty::U64), src_ty: Some(Ty::U32), ..Mods::default() };
                    self.emit(Opcode::Cvt, cvt, vec![t.into()], vec![par])?;
                    let s = self.tmp(RegClass::R64);
                    let shl = vec![Operand::reg(t), Operand::Imm(Imm::Int(63))];
                    self.emit(Opcode::Shl, Mods::ty(Ty::B64), vec![s.into()], shl)?;
                    Operand::reg(s)
                } else {
                    match self.src(self.operand(i, 2)?, Ty::B64)? {
                        o @ Operand::Reg(_) => o,
                        _ => return self.err("the state of `mbarrier.test_wait`/`try_wait` must be a register"),
                    }
                };
                // try_wait's optional suspend-time hint only bounds the GPU's wait.
                let opc = if op == "test_wait" { Opcode::MbarTestWait } else { Opcode::MbarTryWait };
                self.emit(opc, Mods::new(), vec![p], vec![b, token])?;
            }
            op => return self.err(format!("`mbarrier.{op}` is not implemented yet")),
        }
        Ok(())
    }

    /// `cp.async.mbarrier.arrive` and the bulk copy completing on an mbarrier.
    fn cp_mbarrier(&mut self, i: &ast::Instruction, words: &[&str]) -> Result<()> {
        match words {
            ["async", "mbarrier", "arrive", rest @ ..] => {
                let space = match rest {
                    ["b64"] => None,
                    ["shared" | "shared::cta", "b64"] => Some(Space::Shared),
                    _ => return self.err(format!("`cp.{}` is not implemented yet", words.join("."))),
                };
                let b = self.mem_ref(self.operand(i, 0)?, space, 8)?;
                self.emit(Opcode::CpAsyncMbarArrive, Mods::new(), vec![], vec![Operand::Mem(b)])?;
                Ok(())
            }
            ["async", "bulk", "shared::cluster", "global", "mbarrier::complete_tx::bytes"] => {
                let dst = self.mem_ref(self.operand(i, 0)?, Some(Space::Shared), 16)?;
                let src = self.mem_ref(self.operand(i, 1)?, Some(Space::Global), 16)?;
                let size = self.src(self.operand(i, 2)?, Ty::U32)?;
                let bar = self.mem_ref(self.operand(i, 3)?, Some(Space::Shared), 8)?;
                let srcs = vec![Operand::Mem(dst), Operand::Mem(src), size, Operand::Mem(bar)];
                self.emit(Opcode::CpBulk, Mods::new(), vec![], srcs)?;
                Ok(())
            }
            _ => self.err(format!("`cp.{}` is not implemented yet", words.join("."))),
        }
    }
}

#[cfg(test)]
mod tests {
    fn kernel(body: &str) -> String {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p) {{\n.reg .b32 %r<40>;\n\
             .reg .pred %p<4>;\n.reg .b64 %rd<4>;\n.shared .align 16 .b8 buf[1024];\n\
             .shared .align 8 .b64 bar;\n{body}\n}}\n"
        )
    }

    fn ori(body: &str) -> Result<String, String> {
        crate::lower::lower_source(&kernel(body)).map(|m| m.to_string()).map_err(|e| e.to_string())
    }

    /// Each form lowers to its opcode with its arrival and transaction operands.
    #[test]
    fn forms_lower_to_their_opcodes() {
        let t = ori("mbarrier.init.shared::cta.b64 [bar], 128;\nmbarrier.inval.shared.b64 [bar];").unwrap();
        assert!(t.contains("mbarinit shared[$k.bar], 128") && t.contains("mbarinval shared[$k.bar]"), "{t}");
        let t =
            ori("mbarrier.arrive.shared.b64 %rd1, [bar];\nmbarrier.arrive.shared::cta.b64 %rd2, [bar], %r3;").unwrap();
        assert!(t.contains("mbararrive shared[$k.bar], 1, 0") && t.contains("mbararrive shared[$k.bar], %"), "{t}");
        let t = ori("mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 4096;").unwrap();
        assert!(t.contains("mbararrive shared[$k.bar], 1, 0x1000"), "{t}");
        let t = ori("mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], %r1;").unwrap();
        assert!(t.contains("cvt.u64.u32") && t.contains("shl.b64") && t.contains("mbartrywait shared[$k.bar]"), "{t}");
        let t = ori("mbarrier.test_wait.b64 %p1, [%rd1], %rd2;").unwrap();
        assert!(t.contains("mbartestwait generic[%"), "{t}");
        let t = ori("cp.async.mbarrier.arrive.shared.b64 [bar];\n\
                     cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 256, [bar];")
        .unwrap();
        assert!(t.contains("cpasyncmbararrive shared[$k.bar]"), "{t}");
        // `.noComplete` and `.relaxed` are the plain arrival / transaction expectation.
        let a = ori("mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], %r1;").unwrap();
        let b = ori("mbarrier.arrive.shared.b64 %rd1, [bar], %r1;").unwrap();
        assert_eq!(a, b);
        let a = ori("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], %r1;").unwrap();
        let b = ori("mbarrier.expect_tx.shared::cta.b64 [bar], %r1;").unwrap();
        assert_eq!(a, b);
        assert!(t.contains("cpbulk shared[$k.buf], global[%") && t.contains("256, shared[$k.bar]"), "{t}");
    }

    /// Forms not modelled are located `not implemented yet` errors.
    #[test]
    fn other_forms_are_located_errors() {
        for bad in [
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar];",
            "mbarrier.arrive_drop.noComplete.shared.b64 %rd1, [bar], 1;",
            "cp.async.mbarrier.arrive.noinc.shared.b64 [bar];",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [buf], [%rd1], 256, \
             [bar], %rd2;",
        ] {
            let e = ori(bad).expect_err(bad);
            assert!(e.contains("not implemented yet") && e.starts_with("line "), "{bad}: {e}");
        }
    }
}
