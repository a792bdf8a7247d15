//! CTA barriers: `bar{.cta}.sync` / `barrier{.cta}.sync{.aligned}` `a{, b}`, `bar{.cta}.arrive`
//! / `barrier{.cta}.arrive{.aligned}` `a, b` and `bar{.cta}.red.{popc.u32,and.pred,or.pred}` /
//! `barrier{.cta}.red...{.aligned}` `d, a{, b}, {!}c`, with the barrier id `a` and the thread
//! count `b` in registers or immediates.
//!
//! Each becomes [`Opcode::Bar`] (`id[, count]`), [`Opcode::BarArrive`] (`id, count`) or
//! [`Opcode::BarRed`] (`d = id, c[, count]` with the combiner as the sub-operation). The
//! executors' barrier model (`interp::ori_exec`, the SASS emulator) counts arrivals per barrier id
//! in whole warps: a count releases the barrier once that many threads arrived, no count once
//! every live warp of the CTA did; `arrive` does not wait.
//!
//! `barrier.cluster.arrive`/`.wait` become [`Opcode::ClusterArrive`]/[`Opcode::ClusterWait`]
//! (see [`FnCx::cluster_barrier`]); instruction selection gives them ptxas's cluster-launch test.
//!
//! Invariant: an immediate id is 0..=15 and an immediate count a positive multiple of 32 (ptxas's
//! rules); anything else in the family (`bar.red` without a combiner or with the wrong type) is a
//! located error, never a guess.

use super::Result;
use super::func::FnCx;
use crate::ori::{Flag, Imm, Mods, Opcode, Operand, RegClass, SubOp, Ty};
use crate::ptx::ast;

impl FnCx<'_> {
    /// `bar`/`barrier` except `bar.warp.sync` (see the module doc).
    pub(super) fn cta_barrier(&mut self, i: &ast::Instruction) -> Result<()> {
        let words: Vec<&str> = i.modifiers.iter().map(|m| m.text.trim_start_matches('.')).collect();
        let (mut op, mut comb, mut ty) = (None, None, None);
        for &w in &words {
            match w {
                "cta" | "aligned" => {}
                "cluster" => return self.cluster_barrier(i, &words),
                "sync" | "arrive" | "red" if op.is_none() => op = Some(w),
                "popc" | "and" | "or" if comb.is_none() => comb = Some(w),
                "u32" | "pred" if ty.is_none() => ty = Some(w),
                w => return self.err(format!("`{}.{w}` is not a barrier form", i.opcode.name)),
            }
        }
        // `bar a` is `bar.sync a` (ptxas accepts the bare form).
        let op = op.unwrap_or("sync");
        if op != "red" && (comb.is_some() || ty.is_some()) {
            return self.err(format!("`{}.{op}` takes no reduction modifiers", i.opcode.name));
        }
        let n = i.operands.len();
        match op {
            "sync" | "arrive" => {
                if n > 2 || n == 0 || (op == "arrive" && n != 2) {
                    return self.err(format!(
                        "`{}.{op}` takes {} operands",
                        i.opcode.name,
                        if op == "arrive" { "2" } else { "1 or 2" }
                    ));
                }
                let mut srcs = vec![self.barrier_id(self.operand(i, 0)?)?];
                if n == 2 {
                    srcs.push(self.barrier_count(self.operand(i, 1)?)?);
                }
                if op == "sync" {
                    let mut md = Mods::new();
                    md.set(Flag::Sync);
                    self.emit(Opcode::Bar, md, vec![], srcs)?;
                } else {
                    self.emit(Opcode::BarArrive, Mods::new(), vec![], srcs)?;
                }
            }
            _ => {
                let (sub, class) = match (comb, ty) {
                    (Some("popc"), Some("u32")) => (SubOp::PopcOp, RegClass::R32),
                    (Some("and"), Some("pred")) => (SubOp::AndOp, RegClass::P),
                    (Some("or"), Some("pred")) => (SubOp::OrOp, RegClass::P),
                    _ => return self.err("`bar.red` needs `.popc.u32`, `.and.pred` or `.or.pred`"),
                };
                if !(3..=4).contains(&n) {
                    return self.err("`bar.red` takes 3 or 4 operands");
                }
                let d = self.dst(self.operand(i, 0)?, class)?;
                let id = self.barrier_id(self.operand(i, 1)?)?;
                let p = self.src(self.operand(i, n - 1)?, Ty::Pred)?;
                let mut srcs = vec![id, p];
                if n == 4 {
                    srcs.push(self.barrier_count(self.operand(i, 2)?)?);
                }
                self.emit(Opcode::BarRed, Mods { sub: Some(sub), ..Mods::new() }, vec![d], srcs)?;
            }
        }
        Ok(())
    }

    /// `barrier.cluster.arrive{.release|.relaxed}{.aligned}` (no operands) becomes
    /// [`Opcode::ClusterArrive`] (immediate 1 for `.relaxed`), `barrier.cluster.wait{.acquire}
    /// {.aligned}` [`Opcode::ClusterWait`]. `.aligned` only promises that the warp is converged.
    fn cluster_barrier(&mut self, i: &ast::Instruction, words: &[&str]) -> Result<()> {
        if i.opcode.name != "barrier" {
            return self.err("`bar.cluster` is not a barrier form (use `barrier.cluster`)");
        }
        let (mut op, mut sem) = (None, None);
        for &w in words {
            match w {
                "cluster" | "aligned" => {}
                "arrive" | "wait" if op.is_none() => op = Some(w),
                "release" | "relaxed" | "acquire" if sem.is_none() => sem = Some(w),
                w => return self.err(format!("`barrier.cluster` does not take `.{w}`")),
            }
        }
        if !i.operands.is_empty() {
            return self.err("`barrier.cluster` takes no operands");
        }
        match (op, sem) {
            (Some("arrive"), None | Some("release")) => {
                self.emit(Opcode::ClusterArrive, Mods::new(), vec![], vec![Operand::Imm(Imm::Int(0))])?;
            }
            (Some("arrive"), Some("relaxed")) => {
                self.emit(Opcode::ClusterArrive, Mods::new(), vec![], vec![Operand::Imm(Imm::Int(1))])?;
            }
            (Some("wait"), None | Some("acquire")) => {
                self.emit(Opcode::ClusterWait, Mods::new(), vec![], vec![])?;
            }
            (Some(o), Some(s)) => return self.err(format!("`barrier.cluster.{o}` does not take `.{s}`")),
            _ => return self.err("`barrier.cluster` needs `.arrive` or `.wait`"),
        }
        Ok(())
    }

    fn barrier_id(&mut self, o: &ast::Operand) -> Result<Operand> {
        let v = self.src(o, Ty::U32)?;
        if let Operand::Imm(Imm::Int(x)) = v
            && !(0..=15).contains(&x)
        {
            return self.err(format!("barrier id {x} is out of range 0..15"));
        }
        Ok(v)
    }

    fn barrier_count(&mut self, o: &ast::Operand) -> Result<Operand> {
        let v = self.src(o, Ty::U32)?;
        if let Operand::Imm(Imm::Int(x)) = v
            && (x <= 0 || x % 32 != 0 || x > 4095)
        {
            return self.err(format!("barrier thread count {x} is not a positive multiple of 32"));
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    fn kernel(body: &str) -> String {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{{\n\
             .reg .b32 %r<8>;\n.reg .pred %p<4>;\nld.param.u32 %r1, [n];\nsetp.ne.u32 %p1, %r1, 0;\n{body}\nret;\n}}\n"
        )
    }

    fn ori(body: &str) -> Result<String, String> {
        crate::lower::lower_source(&kernel(body)).map(|m| m.to_string()).map_err(|e| e.to_string())
    }

    /// Every member of the family lowers to its opcode with its operands.
    #[test]
    fn family_lowers() {
        let t = ori("bar.sync 1;\nbar.sync 2, 64;\nbarrier.sync.aligned %r1, %r1;\nbarrier.cta.sync %r1;").unwrap();
        assert!(t.contains("bar.sync 1\n") && t.contains("bar.sync 2, 64"), "{t}");
        let t = ori("bar.arrive 3, 96;\nbarrier.cta.arrive.aligned %r1, %r1;").unwrap();
        assert!(t.contains("bararrive 3, 96") && t.contains("bararrive %"), "{t}");
        let t = ori("bar.red.popc.u32 %r2, 4, %p1;\nbar.cta.red.and.pred %p2, %r1, 64, !%p1;\n\
                     barrier.red.or.pred.aligned %p3, 5, %r1, %p1;")
        .unwrap();
        assert!(t.contains("= barred.popc 4, %p") && t.contains("= barred.and %r1, !%p"), "{t}");
        assert!(t.contains("= barred.or 5, %p") && t.contains(", %r1\n"), "{t}");
    }

    /// Every member of the cluster family lowers to its opcode (`.relaxed` marked 1).
    #[test]
    fn cluster_family_lowers() {
        let t = ori("barrier.cluster.arrive;\nbarrier.cluster.arrive.release.aligned;\n\
                     barrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\nbarrier.cluster.wait.acquire.aligned;")
        .unwrap();
        assert_eq!(t.matches("clusterarrive 0\n").count(), 2, "{t}");
        assert_eq!(t.matches("clusterarrive 1\n").count(), 1, "{t}");
        assert_eq!(t.matches("clusterwait\n").count(), 2, "{t}");
    }

    /// Out-of-range ids and counts and malformed reductions are located errors.
    #[test]
    fn bad_forms_are_located() {
        for bad in [
            "bar.sync 16;",
            "bar.arrive 1, 33;",
            "bar.arrive 1;",
            "bar.red.popc.pred %p2, 1, %p1;",
            "bar.red.add.u32 %r2, 1, %p1;",
            "bar.sync.popc 1;",
            "barrier.cluster.sync;",
            "barrier.cluster.wait.release;",
            "barrier.cluster.arrive.acquire;",
            "barrier.cluster.arrive 1;",
            "bar.cluster.arrive;",
        ] {
            let e = ori(bad).expect_err(bad);
            assert!(e.starts_with("line "), "{bad}: {e}");
        }
    }
}
