//! Hopper warpgroup MMA (sm_90a): `wgmma.fence`, `wgmma.mma_async`, `wgmma.commit_group`,
//! `wgmma.wait_group`, each one PTX-stage Ori opcode ([`Opcode::Wgmma`] ...).
//!
//! `wgmma.mma_async.sync.aligned.m64nNkK{.satfinite}.D.A.B d, a, b-desc, scale-d[, imm-scale-a,
//! imm-scale-b[, imm-trans-a], imm-trans-b]` in every form the PTX ISA 9.0 lists (f16/bf16 k16
//! with f32 or f16 accumulators and transposes, tf32 k8, e4m3/e5m2 k32, s8/u8 k32 with
//! `.satfinite`; A a shared-memory descriptor or four registers) becomes `wgmma` whose
//! destinations are the accumulator vector `d` and whose sources are the form
//! ([`GmmaForm::pack`]: shape, types, A's origin, negations from imm-scale -1, transposes,
//! `.satfinite`), b-desc, scale-d, A and the registers of `d` again (its old value, added when
//! scale-d is true). The executors' semantics (descriptor, layouts, fragments) are the
//! interpreter crate's `gmma` module, shared with the SASS emulator's `HGMMA`.
//!
//! Invariant: the operand count, the immediates (imm-scale 1 or -1, imm-trans 0 or 1) and the
//! combination ([`GmmaForm::check`]) are checked here, each failure a located error; `.sp`
//! (sparse `wgmma.mma_async.sp`) and `.b1` are `not supported yet`.

use super::Result;
use super::func::FnCx;
use super::mods::PtxMods;
use crate::ori::gmma::{GmmaAcc, GmmaForm, GmmaType};
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
        let satfinite = m.rest.iter().position(|w| w == "satfinite").map(|k| m.rest.remove(k)).is_some();
        self.leftovers(&m)?;
        self.no_flags(&PtxMods { types: Vec::new(), ..m.clone() })?;
        let shape = shape.unwrap_or_default();
        let nk = shape.strip_prefix("m64n").and_then(|s| s.split_once('k'));
        let Some((n, k)) = nk.and_then(|(n, k)| Some((n.parse::<u16>().ok()?, k.parse::<usize>().ok()?))) else {
            return self.err(format!("wgmma.mma_async shape `{shape}` is not supported"));
        };
        let types: Vec<&str> = m.types.iter().map(String::as_str).collect();
        let (acc, a, b) = match types.as_slice() {
            [d, a, b] => (*d, GmmaType::of_ptx(a), GmmaType::of_ptx(b)),
            t => return self.err(format!("wgmma.mma_async with types .{} is not supported", t.join("."))),
        };
        let (acc, acc_ty) = match acc {
            "f32" => (GmmaAcc::F32, Ty::F32),
            "f16" => (GmmaAcc::F16, Ty::F16),
            "s32" => (GmmaAcc::S32, Ty::S32),
            _ => return self.err(format!("wgmma.mma_async with types .{} is not supported yet", types.join("."))),
        };
        let (Some(a), Some(b)) = (a, b) else {
            return self.err(format!("wgmma.mma_async with types .{} is not supported yet", types.join(".")));
        };
        let a_regs = matches!(self.operand(i, 1)?, ast::Operand::Vector(..));
        let mut form =
            GmmaForm { n, acc, a, b, a_regs, trans_a: false, trans_b: false, neg_a: false, neg_b: false, satfinite };
        if form.k() != k {
            return self.err(format!("wgmma.mma_async shape `{shape}` is not valid for .{}", a.ptx()));
        }
        // The immediates after scale-d: imm-scale-a, imm-scale-b (floating-point types), then
        // imm-trans-a (descriptor A) and imm-trans-b (f16/bf16).
        let mut imms: Vec<&str> = Vec::new();
        if !a.is_int() {
            imms.extend(["imm-scale-a", "imm-scale-b"]);
        }
        if matches!(a, GmmaType::F16 | GmmaType::Bf16) {
            if !a_regs {
                imms.push("imm-trans-a");
            }
            imms.push("imm-trans-b");
        }
        if i.operands.len() != 4 + imms.len() {
            return self.err(format!(
                "wgmma.mma_async .{} with A {} takes {} operands (d, a, b-desc, scale-d{}), not {}",
                form.ptx_name(),
                if a_regs { "in registers" } else { "from a descriptor" },
                4 + imms.len(),
                imms.iter().map(|w| format!(", {w}")).collect::<String>(),
                i.operands.len()
            ));
        }
        for (k, what) in imms.iter().enumerate() {
            let v = match self.src(self.operand(i, 4 + k)?, Ty::S32)? {
                Operand::Imm(Imm::Int(v)) => v,
                _ => return self.err(format!("wgmma.mma_async: {what} must be an integer constant")),
            };
            let scale = what.starts_with("imm-scale");
            let ok = if scale { v == 1 || v == -1 } else { v == 0 || v == 1 };
            if !ok {
                let want = if scale { "1 or -1" } else { "0 or 1" };
                return self.err(format!("wgmma.mma_async: {what} must be {want}, not {v}"));
            }
            match *what {
                "imm-scale-a" => form.neg_a = v == -1,
                "imm-scale-b" => form.neg_b = v == -1,
                "imm-trans-a" => form.trans_a = v == 1,
                _ => form.trans_b = v == 1,
            }
        }
        if let Err(e) = form.check() {
            return self.err(e);
        }
        let regs = form.d_regs();
        let ast::Operand::Vector(v, _) = self.operand(i, 0)? else {
            return self.err(format!("wgmma.mma_async needs a vector of {regs} accumulator registers"));
        };
        if v.len() != regs {
            return self.err(format!(
                "wgmma.mma_async .{} needs {regs} accumulator registers, not {}",
                form.ptx_name(),
                v.len()
            ));
        }
        let mut srcs = vec![
            Operand::Imm(Imm::Int(form.pack())),
            self.src(self.operand(i, 2)?, Ty::B64)?,
            self.src(self.operand(i, 3)?, Ty::Pred)?,
        ];
        match self.operand(i, 1)? {
            ast::Operand::Vector(av, _) => {
                if av.len() != 4 {
                    return self.err(format!("wgmma.mma_async needs A in 4 registers, not {}", av.len()));
                }
                for e in av {
                    let ast::VecElem::Expr(e) = e else { return self.err("wgmma.mma_async: A must be registers") };
                    srcs.push(self.expr(e, Ty::B32)?);
                }
            }
            a => srcs.push(self.src(a, Ty::B64)?),
        }
        let mut d = Vec::new();
        for e in v {
            let ast::VecElem::Expr(e) = e else { return self.err("wgmma.mma_async accumulators must be registers") };
            srcs.push(self.expr(e, Ty::B32)?);
            d.push(self.dst(&ast::Operand::Expr(e.clone()), RegClass::R32)?);
        }
        self.emit(Opcode::Wgmma, Mods::ty(acc_ty), d, srcs)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    fn ori(body: &str) -> Result<String, String> {
        let text = format!(
            ".version 8.4\n.target sm_90a\n.address_size 64\n.entry k() {{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n\
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
        let lines: Vec<&str> = t.lines().filter(|l| l.contains("= wgmma.f32 ")).collect();
        assert_eq!(lines.len(), 2, "{t}");
        assert_eq!(lines[0].matches('%').count(), 4 + 2 + 1 + 4, "{}", lines[0]);
        assert_eq!(lines[1].matches('%').count(), 8 + 2 + 1 + 8, "{}", lines[1]);
    }

    /// Every family member lowers, with its form packed in the first source.
    #[test]
    fn every_form_lowers() {
        use crate::ori::gmma::GmmaForm;
        let acc4 = "{%r0, %r1, %r2, %r3}";
        for (body, want) in [
            (format!("m64n8k16.f32.f16.f16 {acc4}, %rd1, %rd2, %p1, -1, 1, 1, 1;"), "m64n8k16.f32.f16.f16"),
            (format!("m64n8k16.f32.bf16.bf16 {acc4}, {acc4}, %rd2, %p1, 1, -1, 1;"), "m64n8k16.f32.bf16.bf16"),
            ("m64n8k16.f16.f16.f16 {%r0, %r1}, %rd1, %rd2, 0, 1, 1, 0, 0;".into(), "m64n8k16.f16.f16.f16"),
            (format!("m64n8k8.f32.tf32.tf32 {acc4}, %rd1, %rd2, %p1, 1, 1;"), "m64n8k8.f32.tf32.tf32"),
            (format!("m64n8k32.f32.e4m3.e5m2 {acc4}, %rd1, %rd2, %p1, 1, -1;"), "m64n8k32.f32.e4m3.e5m2"),
            (format!("m64n8k32.satfinite.s32.u8.s8 {acc4}, {acc4}, %rd2, %p1;"), "m64n8k32.s32.u8.s8"),
        ] {
            let t = ori(&format!("wgmma.mma_async.sync.aligned.{body}")).unwrap_or_else(|e| panic!("{body}: {e}"));
            let line = t.lines().find(|l| l.contains("= wgmma.")).unwrap_or_else(|| panic!("{t}"));
            let imm = line.split(" = wgmma.").nth(1).unwrap().split_whitespace().nth(1).unwrap().trim_end_matches(',');
            let v = if let Some(h) = imm.strip_prefix("0x") {
                i64::from_str_radix(h, 16).unwrap()
            } else {
                imm.parse().unwrap()
            };
            let f = GmmaForm::unpack(v).unwrap();
            assert_eq!(f.ptx_name(), want, "{line}");
            assert_eq!(f.a_regs, body.contains(", {%r0"), "{line}");
        }
    }

    /// What the PTX ISA does not allow is a located error.
    #[test]
    fn invalid_wgmma_forms_are_located_errors() {
        let acc = "{%r0, %r1, %r2, %r3}";
        for (bad, why) in [
            (
                format!("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {acc}, %rd1, %rd2, %p1, 2, 1, 0, 0;"),
                "imm-scale-a",
            ),
            (format!("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {acc}, %rd1, %rd2, %p1, 1, 1, 0;"), "operands"),
            (format!("wgmma.mma_async.sync.aligned.m64n8k16.f32.tf32.tf32 {acc}, %rd1, %rd2, %p1, 1, 1;"), "not valid"),
            (format!("wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {acc}, %rd1, %rd2, %p1;"), "m64n40k32"),
            (
                "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%r0, %r1}, %rd1, %rd2, %p1, 1, 1, 0, 0;".into(),
                "8 accumulator",
            ),
            ("wgmma.fence.aligned;".into(), ".sync.aligned"),
        ] {
            let e = ori(&bad).expect_err(&bad);
            assert!(e.contains(why) && e.starts_with("line "), "{bad}: {e}");
        }
    }
}
