//! Hopper warpgroup MMA (sm_90a): `wgmma.fence`, `wgmma.mma_async`, `wgmma.commit_group`,
//! `wgmma.wait_group`, each one PTX-stage Ori opcode ([`Opcode::Wgmma`] ...).
//!
//! `wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T d, a-desc, b-desc, scale-d, imm-scale-a,
//! imm-scale-b, imm-trans-a, imm-trans-b` (T = f16 or bf16, both operands through 64-bit
//! shared-memory matrix descriptors) becomes `wgmma` with N/2 destinations (the accumulator
//! vector `d`) and the sources a-desc, b-desc, scale-d and the N/2 registers of `d` again (its
//! old value, added when scale-d is true). The executors' semantics (descriptor, layout,
//! fragment) are the interpreter crate's `gmma` module, shared with the SASS emulator's `HGMMA`.
//!
//! Invariant: every other form (A from registers, f16 accumulators, other types and shapes,
//! negated operands `imm-scale = -1`, transposed operands `imm-trans = 1`, `.sp`) is a located
//! `not implemented yet` error, never a guess.

use super::Result;
use super::func::FnCx;
use super::mods::PtxMods;
use crate::ori::{Imm, Mods, Opcode, Operand, RegClass, Ty};
use crate::ptx::ast;

impl FnCx<'_> {
    /// Lowers one `wgmma` instruction (see the module doc).
    pub(super) fn wgmma(&mut self, i: &ast::Instruction) -> Result<()> {
        let mut m = PtxMods::of(i, false);
        let op = m.take(&["fence", "commit_group", "wait_group", "mma_async"]);
        let (sync, aligned) = (m.flags.iter().any(|f| f == "sync"), m.flags.iter().any(|f| f == "aligned"));
        m.flags.retain(|f| f != "sync" && f != "aligned");
        if !(sync && aligned) {
            return self.err("`wgmma` needs `.sync.aligned`");
        }
        match op.as_deref() {
            Some("fence") => {
                self.leftovers(&m)?;
                self.no_flags(&m)?;
                self.emit(Opcode::WgmmaFence, Mods::new(), vec![], vec![])?;
            }
            Some("commit_group") => {
                self.leftovers(&m)?;
                self.no_flags(&m)?;
                self.emit(Opcode::WgmmaCommit, Mods::new(), vec![], vec![])?;
            }
            Some("wait_group") => {
                self.leftovers(&m)?;
                self.no_flags(&m)?;
                let Operand::Imm(n) = self.src(self.operand(i, 0)?, Ty::U32)? else {
                    return self.err("wgmma.wait_group needs an integer constant");
                };
                self.emit(Opcode::WgmmaWait, Mods::new(), vec![], vec![Operand::Imm(n)])?;
            }
            Some(_) => self.wgmma_mma(i, m)?,
            None => return self.err("`wgmma` needs an operation"),
        }
        Ok(())
    }

    fn no_flags(&self, m: &PtxMods) -> Result<()> {
        match m.flags.first().or(m.types.first()) {
            Some(f) => self.err(format!("`wgmma` with `.{f}` is not implemented yet")),
            None => Ok(()),
        }
    }

    fn wgmma_mma(&mut self, i: &ast::Instruction, mut m: PtxMods) -> Result<()> {
        let shape = m.rest.iter().position(|w| w.starts_with('m')).map(|k| m.rest.remove(k));
        self.leftovers(&m)?;
        self.no_flags(&PtxMods { types: Vec::new(), ..m.clone() })?;
        let n = shape
            .as_deref()
            .and_then(|s| s.strip_prefix("m64n")?.strip_suffix("k16")?.parse::<usize>().ok())
            .filter(|&n| (8..=256).contains(&n) && n.is_multiple_of(8));
        let Some(n) = n else {
            return self.err(format!("wgmma.mma_async shape `{}` is not implemented yet", shape.unwrap_or_default()));
        };
        let types: Vec<&str> = m.types.iter().map(String::as_str).collect();
        let ty = match types.as_slice() {
            ["f32", "f16", "f16"] => Ty::F16,
            ["f32", "bf16", "bf16"] => Ty::BF16,
            t => return self.err(format!("wgmma.mma_async with types .{} is not implemented yet", t.join("."))),
        };
        if i.operands.len() != 8 {
            return self.err("wgmma.mma_async with A in registers (or without the scale and transpose immediates) is not implemented yet");
        }
        // imm-scale-a, imm-scale-b must be 1 (no negation), imm-trans-a, imm-trans-b 0 (K-major).
        for (k, want, what) in
            [(4, 1, "imm-scale-a"), (5, 1, "imm-scale-b"), (6, 0, "imm-trans-a"), (7, 0, "imm-trans-b")]
        {
            match self.src(self.operand(i, k)?, Ty::S32)? {
                Operand::Imm(Imm::Int(v)) if v == want => {}
                Operand::Imm(_) => {
                    return self.err(format!("wgmma.mma_async with {what} other than {want} is not implemented yet"));
                }
                _ => return self.err(format!("wgmma.mma_async: {what} must be an integer constant")),
            }
        }
        let ast::Operand::Vector(v, _) = self.operand(i, 0)? else {
            return self.err(format!("wgmma.mma_async needs a vector of {} accumulator registers", n / 2));
        };
        if v.len() != n / 2 {
            return self.err(format!(
                "wgmma.mma_async m64n{n}k16 needs {} accumulator registers, not {}",
                n / 2,
                v.len()
            ));
        }
        let mut srcs = vec![
            self.src(self.operand(i, 1)?, Ty::B64)?,
            self.src(self.operand(i, 2)?, Ty::B64)?,
            self.src(self.operand(i, 3)?, Ty::Pred)?,
        ];
        let mut d = Vec::new();
        for e in v {
            let ast::VecElem::Expr(e) = e else { return self.err("wgmma.mma_async accumulators must be registers") };
            srcs.push(self.expr(e, Ty::B32)?);
            d.push(self.dst(&ast::Operand::Expr(e.clone()), RegClass::R32)?);
        }
        let md = Mods { src_ty: Some(ty), ..Mods::ty(Ty::F32) };
        self.emit(Opcode::Wgmma, md, d, srcs)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    fn ori(body: &str) -> Result<String, String> {
        let text = format!(
            ".version 8.0\n.target sm_90a\n.address_size 64\n.entry k() {{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n\
             .reg .f32 %f<40>;\n.reg .b64 %rd<4>;\n{body}\n}}\n"
        );
        crate::lower::lower_source(&text).map(|m| m.to_string()).map_err(|e| e.to_string())
    }

    /// The four instructions lower to their opcodes; the accumulator is both destination and source.
    #[test]
    fn wgmma_lowers_to_its_opcodes() {
        let t = ori("wgmma.fence.sync.aligned;\n\
                     wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0;\n\
                     wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, \
                     %rd1, %rd2, %p1, 1, 1, 0, 0;\n\
                     wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 1;")
        .unwrap();
        assert!(t.contains("wgmmafence") && t.contains("wgmmacommit") && t.contains("wgmmawait 1"), "{t}");
        let line = t.lines().find(|l| l.contains("= wgmma.f32.f16 ")).unwrap_or_else(|| panic!("{t}"));
        assert_eq!(line.matches('%').count(), 4 + 2 + 1 + 4, "{line}");
        let line = t.lines().find(|l| l.contains("= wgmma.f32.bf16 ")).unwrap_or_else(|| panic!("{t}"));
        assert_eq!(line.matches('%').count(), 8 + 2 + 1 + 8, "{line}");
    }

    /// What is not modelled is a located error, not a guess.
    #[test]
    fn unsupported_wgmma_forms_are_located_errors() {
        let acc = "{%f1, %f2, %f3, %f4}";
        for (bad, why) in [
            (
                format!("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {acc}, %rd1, %rd2, %p1, -1, 1, 0, 0;"),
                "imm-scale-a",
            ),
            (
                format!("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {acc}, %rd1, %rd2, %p1, 1, 1, 1, 0;"),
                "imm-trans-a",
            ),
            (format!("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {acc}, %rd1, %rd2, %p1, 1, 1;"), "m64n8k8"),
            (
                "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%r1, %r2}, %rd1, %rd2, %p1, 1, 1, 0, 0;"
                    .to_string(),
                "types",
            ),
            (
                "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%f1, %f2}, %rd1, %rd2, %p1, 1, 1, 0, 0;".into(),
                "8 accumulator",
            ),
            ("wgmma.fence.aligned;".into(), ".sync.aligned"),
        ] {
            let e = ori(&bad).expect_err(&bad);
            assert!(e.contains(why) && e.starts_with("line "), "{bad}: {e}");
        }
    }
}
