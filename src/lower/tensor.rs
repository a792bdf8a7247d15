//! Tensor-core, asynchronous-copy and SIMD video instructions: `ldmatrix`, `mma.sync`,
//! `wmma.load/mma/store`, `cp.async` (with `commit_group`, `wait_group`, `wait_all`), the SIMD
//! video instructions (`vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4`) and PTX's packed 16-bit
//! integer arithmetic (`add sub min max .{s,u}16x2`), and `cvt.rna.tf32.f32`.
//!
//! `ldmatrix` and `mma` become the warp-collective Ori opcodes of the same names (semantics in
//! [`crate::ori::tensor`]). `wmma` has no Ori opcode: its fragments are plain registers in the
//! layout ptxas 13.0 gives them on sm_90 (PTX leaves them unspecified; the layouts below are
//! read off NVIDIA's cubins), so `wmma.load`/`wmma.store` are per-lane loads and stores at
//! addresses computed from `%laneid`, and `wmma.mma` is the `mma`s ptxas emits for it:
//!
//! | fragment | registers | element of register `i` (g = lane / 4, t = lane % 4) |
//! |---|---|---|
//! | a, m16n16k16 f16/bf16 | 8 (4..7 copy 0..3) | halves h: row g + 8(i % 2), column 2t + h + 8(i / 2) |
//! | b, m16n16k16 f16/bf16 | 8 (4..7 copy 0..3) | halves h: row 2t + h + 8(i % 2), column g + 8(i / 2) |
//! | a, m16n16k8 tf32 | 4 | row g + 8(i % 2), column t + 4(i / 2) |
//! | b, m16n16k8 tf32 | 4 | row t + 4(i % 2), column g + 8(i / 2) |
//! | a, m16n16k16 s8/u8 | 2 | bytes b: row g + 8i, column 4t + b |
//! | b, m16n16k16 s8/u8 | 2 | bytes b: row 4t + b, column g + 8i |
//! | c, d (f32, s32) | 8 | row g + 8(i % 4 / 2), column 8(i / 4) + 2t + i % 2 |
//!
//! `wmma.mma` m16n16k16 is one m16n8k16 `mma` per 8-column half of d (a registers 0..3, b
//! registers 2n, 2n + 1); m16n16k8 tf32 is two m16n8k4 `mma`s per half, k 0..3 then 4..7 (each
//! rounds once, as ptxas's two `HMMA.1684`s do); s8/u8 m16n16k16 is one m16n8k16 integer `mma`
//! per half (a registers 0, 1, b register n), as ptxas's `IMMA.16816.S8.S8`.
//!
//! `cp.async` is [`Opcode::CpAsync`], a copy at issue (so `wait_group` has nothing to wait for
//! in the executors; the opcodes stay for instruction selection). A SIMD video instruction is
//! [`Opcode::Vop4`]/[`Opcode::Vop2`] (merge form) or `vop4add`/`vop2add` (`.add` secondary
//! operation), lane selectors, destination mask and b's signedness as immediate operands.
//!
//! Invariant: everything not listed here (other shapes and layouts, f16 accumulators, integer
//! `wmma` layouts other than the ones above) is a located [`super::LowerError`],
//! never a guess.

use super::Result;
use super::func::FnCx;
use super::mods::PtxMods;
use crate::ori::{Flag, Imm, MemRef, Mods, Opcode, Operand, Reg, RegClass, Space, SpecialReg, SubOp, Ty};
use crate::ptx::ast;

/// Where a fragment element sits: `(row, column)` = `(g * rg + t * rt + r0, g * cg + t * ct + c0)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Coord {
    rg: i64,
    rt: i64,
    r0: i64,
    cg: i64,
    ct: i64,
    c0: i64,
}

const fn at(rg: i64, rt: i64, r0: i64, cg: i64, ct: i64, c0: i64) -> Coord {
    Coord { rg, rt, r0, cg, ct, c0 }
}

/// Which `wmma` fragment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Frag {
    A,
    B,
    C,
}

/// The element type of an a or b fragment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Elem {
    /// f16 or bf16: two per register.
    Half,
    /// tf32: one per register.
    Tf32,
    /// s8 or u8: four per register.
    Byte,
}

impl Elem {
    fn of(t: &str) -> Option<Elem> {
        match t {
            "f16" | "bf16" => Some(Elem::Half),
            "tf32" => Some(Elem::Tf32),
            "s8" | "u8" => Some(Elem::Byte),
            _ => None,
        }
    }
}

/// The element coordinates of fragment register `i`, one per element (low first).
fn frag_coords(frag: Frag, elem: Elem, i: i64) -> Vec<Coord> {
    match (frag, elem) {
        (Frag::C, _) => vec![at(1, 0, 8 * (i % 4 / 2), 0, 2, 8 * (i / 4) + i % 2)],
        (Frag::A, Elem::Half) => (0..2).map(|h| at(1, 0, 8 * (i % 2), 0, 2, h + 8 * (i / 2))).collect(),
        (Frag::B, Elem::Half) => (0..2).map(|h| at(0, 2, h + 8 * (i % 2), 1, 0, 8 * (i / 2))).collect(),
        (Frag::A, Elem::Tf32) => vec![at(1, 0, 8 * (i % 2), 0, 1, 4 * (i / 2))],
        (Frag::B, Elem::Tf32) => vec![at(0, 1, 4 * (i % 2), 1, 0, 8 * (i / 2))],
        (Frag::A, Elem::Byte) => (0..4).map(|b| at(1, 0, 8 * i, 0, 4, b)).collect(),
        (Frag::B, Elem::Byte) => (0..4).map(|b| at(0, 4, b, 1, 0, 8 * i)).collect(),
    }
}

/// The modifiers of an integer [`Opcode::Mma`] with a and b of PTX types `a`, `b` (s8 or u8):
/// `src_ty` a's type, `bs8`/`bu8` b's when it differs, `sat` for `.satfinite`.
fn int_mma_mods(a: &str, b: &str, satfinite: bool) -> Mods {
    let sub = match (a == b, b) {
        (true, _) => None,
        (false, "s8") => Some(SubOp::BS8),
        (false, _) => Some(SubOp::BU8),
    };
    let mut md = Mods { src_ty: Some(if a == "s8" { Ty::S8 } else { Ty::U8 }), sub, ..Mods::ty(Ty::S32) };
    if satfinite {
        md.set(Flag::Sat);
    }
    md
}

/// Whether `i` lowers here although its mnemonic belongs to another family: PTX's packed 16-bit
/// integer arithmetic (`add sub min max .{s,u}16x2`) and `cvt` to `.tf32`.
pub(super) fn lowers_here(i: &ast::Instruction) -> bool {
    let has = |t: &str| i.modifiers.iter().any(|m| m.text == t);
    match i.opcode.name.as_str() {
        "add" | "sub" | "min" | "max" => has(".s16x2") || has(".u16x2"),
        "cvt" => has(".tf32"),
        _ => false,
    }
}

impl FnCx<'_> {
    /// The registers of a vector operand `{a, b, ...}` of exactly `n` elements, as destinations
    /// (`_` gives a fresh register).
    fn vec_dsts(&mut self, o: &ast::Operand, n: usize) -> Result<Vec<Reg>> {
        match o {
            ast::Operand::Vector(v, _) if v.len() == n => v
                .iter()
                .map(|e| match e {
                    ast::VecElem::Expr(e) => self.dst(&ast::Operand::Expr(e.clone()), RegClass::R32),
                    ast::VecElem::Sink(_) => Ok(self.tmp(RegClass::R32).into()),
                })
                .collect(),
            ast::Operand::Expr(_) if n == 1 => Ok(vec![self.dst(o, RegClass::R32)?]),
            _ => self.err(format!("expected a vector of {n} registers")),
        }
    }

    /// The values of a vector operand `{a, b, ...}` of exactly `n` 32-bit elements.
    fn vec_srcs(&mut self, o: &ast::Operand, n: usize) -> Result<Vec<Operand>> {
        match o {
            ast::Operand::Vector(v, _) if v.len() == n => v
                .iter()
                .map(|e| match e {
                    ast::VecElem::Expr(e) => self.expr(e, Ty::B32),
                    ast::VecElem::Sink(_) => self.err("`_` as a source"),
                })
                .collect(),
            ast::Operand::Expr(e) if n == 1 => Ok(vec![self.expr(e, Ty::B32)?]),
            _ => self.err(format!("expected a vector of {n} values")),
        }
    }

    /// Tensor-core, asynchronous-copy and SIMD video instructions (see the module doc).
    pub(super) fn tensor(&mut self, i: &ast::Instruction) -> Result<()> {
        match i.opcode.name.as_str() {
            "cvt" => self.cvt_tf32(i),
            "ldmatrix" => self.ldmatrix(i),
            "stmatrix" => self.stmatrix(i),
            "movmatrix" => self.movmatrix(i),
            "mma" => self.mma(i),
            "wmma" => self.wmma(i),
            "cp" => self.cp_async(i),
            op => self.video(i, op),
        }
    }

    /// `cvt.rna{.satfinite}.tf32.f32 d, a`: a rounded to TF32's 10 fraction bits, to nearest with
    /// ties away from zero, as an f32 pattern with the low 13 bits clear. As ptxas emits it:
    /// a finite `a` gets 0x1000 added to its bits (a carry into the exponent is the correct
    /// rounding up), then the low bits are cleared; infinities and NaNs are only masked.
    fn cvt_tf32(&mut self, i: &ast::Instruction) -> Result<()> {
        let m = PtxMods::of(i, false);
        if m.types.iter().map(String::as_str).collect::<Vec<_>>() != ["tf32", "f32"] || m.rnd.is_some() {
            return self.err("cvt to .tf32 supports .rna from .f32 only");
        }
        let mut m = m;
        if m.take(&["rna"]).is_none() {
            return self.err("cvt to .tf32 supports .rna from .f32 only");
        }
        self.leftovers(&m)?;
        if !m.flags.is_empty() {
            return self.err(format!("modifier `.{}` is not supported here", m.flags[0]));
        }
        let a = self.src(self.operand(i, 1)?, Ty::B32)?;
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        let b32 = Mods::ty(Ty::B32);
        let mag = self.tmp(RegClass::R32);
        self.emit(Opcode::And, b32.clone(), vec![mag.into()], vec![a.clone(), Operand::Imm(Imm::Int(0x7fff_ffff))])?;
        let finite = self.tmp(RegClass::P);
        let lt = Mods { cmp: Some(crate::ori::Cmp::Lt), ..Mods::ty(Ty::U32) };
        self.emit(Opcode::Setp, lt, vec![finite.into()], vec![Operand::reg(mag), Operand::Imm(Imm::Int(0x7f80_0000))])?;
        let up = self.tmp(RegClass::R32);
        self.emit(Opcode::Add, Mods::ty(Ty::U32), vec![up.into()], vec![a.clone(), Operand::Imm(Imm::Int(0x1000))])?;
        let pick = self.tmp(RegClass::R32);
        self.emit(Opcode::Selp, b32.clone(), vec![pick.into()], vec![Operand::reg(up), a, Operand::reg(finite)])?;
        self.emit(Opcode::And, b32, vec![d], vec![Operand::reg(pick), Operand::Imm(Imm::Int(0xffff_e000))])?;
        Ok(())
    }

    fn ldmatrix(&mut self, i: &ast::Instruction) -> Result<()> {
        let mut m = PtxMods::of(i, false);
        let n = match m.take(&["x1", "x2", "x4"]).as_deref() {
            Some("x1") => 1,
            Some("x2") => 2,
            Some(_) => 4,
            None => return self.err("ldmatrix needs .x1, .x2 or .x4"),
        };
        let trans = m.take(&["trans"]).is_some();
        if m.take(&["m8n8"]).is_none() {
            return self.err("ldmatrix supports the .m8n8 shape only");
        }
        self.leftovers(&m)?;
        if m.types.as_slice() != ["b16"] {
            return self.err("ldmatrix supports .b16 only");
        }
        if m.space != Some(Space::Shared) {
            return self.err("ldmatrix supports .shared addresses only");
        }
        let mr = self.mem_ref(self.operand(i, 1)?, Some(Space::Shared), 2)?;
        let d = self.vec_dsts(self.operand(i, 0)?, n)?;
        let mut md = Mods::ty(Ty::B16);
        if trans {
            md.set(Flag::Trans);
        }
        self.emit(Opcode::Ldmatrix, md, d, vec![Operand::Mem(mr)])?;
        Ok(())
    }

    /// `movmatrix.sync.aligned.m8n8.trans.b16 d, a`: the 8x8 matrix held by the warp in the
    /// `ldmatrix` fragment layout, transposed ([`crate::ori::tensor::movmatrix_source`]).
    fn movmatrix(&mut self, i: &ast::Instruction) -> Result<()> {
        let mut m = PtxMods::of(i, false);
        if m.take(&["m8n8"]).is_none() || m.take(&["trans"]).is_none() {
            return self.err("movmatrix supports .m8n8.trans only");
        }
        self.leftovers(&m)?;
        if m.types.as_slice() != ["b16"] {
            return self.err("movmatrix supports .b16 only");
        }
        let a = self.src(self.operand(i, 1)?, Ty::B32)?;
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        self.emit(Opcode::Movmatrix, Mods::ty(Ty::B16), vec![d], vec![a])?;
        Ok(())
    }

    /// `stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared[::cta].b16 [a], {r, ...}`.
    fn stmatrix(&mut self, i: &ast::Instruction) -> Result<()> {
        let mut m = PtxMods::of(i, false);
        let n = match m.take(&["x1", "x2", "x4"]).as_deref() {
            Some("x1") => 1,
            Some("x2") => 2,
            Some(_) => 4,
            None => return self.err("stmatrix needs .x1, .x2 or .x4"),
        };
        let trans = m.take(&["trans"]).is_some();
        if m.take(&["m8n8"]).is_none() {
            return self.err("stmatrix supports the .m8n8 shape only (not supported yet)");
        }
        self.leftovers(&m)?;
        if m.types.as_slice() != ["b16"] {
            return self.err("stmatrix .m8n8 supports .b16 only");
        }
        if m.space != Some(Space::Shared) {
            return self.err("stmatrix supports .shared addresses only");
        }
        let mr = self.mem_ref(self.operand(i, 0)?, Some(Space::Shared), 2)?;
        let mut srcs = vec![Operand::Mem(mr)];
        srcs.extend(self.vec_srcs(self.operand(i, 1)?, n)?);
        let mut md = Mods::ty(Ty::B16);
        if trans {
            md.set(Flag::Trans);
        }
        self.emit(Opcode::Stmatrix, md, vec![], srcs)?;
        Ok(())
    }

    fn mma(&mut self, i: &ast::Instruction) -> Result<()> {
        let mut m = PtxMods::of(i, false);
        let shape = m.take(&["m16n8k16", "m16n8k8", "m16n8k4", "m16n8k32"]);
        let (row, col) = (m.take(&["row"]), m.take(&["col"]));
        let satfinite = m.take(&["satfinite"]).is_some();
        self.leftovers(&m)?;
        let Some(shape) = shape else {
            return self.err("mma: only the m16n8k16, m16n8k8 and m16n8k4 shapes are supported");
        };
        if row.is_none() || col.is_none() {
            return self.err("mma needs the .row.col layouts");
        }
        let types: Vec<&str> = m.types.iter().map(String::as_str).collect();
        let [d, a, b, c] = types.as_slice() else { return self.err("mma needs four types (d, a, b, c)") };
        if let (("s32", "s32"), "s8" | "u8", "s8" | "u8") = ((*d, *c), *a, *b) {
            let k = match shape.as_str() {
                "m16n8k16" => 16,
                "m16n8k32" => 32,
                s => return self.err(format!("mma .{s} with .{a} operands is not supported")),
            };
            let d = self.vec_dsts(self.operand(i, 0)?, 4)?;
            let mut srcs = self.vec_srcs(self.operand(i, 1)?, k / 8)?;
            srcs.extend(self.vec_srcs(self.operand(i, 2)?, k / 16)?);
            srcs.extend(self.vec_srcs(self.operand(i, 3)?, 4)?);
            let md = int_mma_mods(a, b, satfinite);
            self.emit(Opcode::Mma, md, d, srcs)?;
            return Ok(());
        }
        if satfinite {
            return self.err("mma .satfinite needs s32 accumulators with integer operands");
        }
        if (*d, *c) != ("f32", "f32") || a != b {
            return self.err("mma supports f32 accumulators with equal a and b types only");
        }
        let (ty, k) = match (*a, shape.as_str()) {
            ("f16", "m16n8k16") => (Ty::F16, 16),
            ("f16", "m16n8k8") => (Ty::F16, 8),
            ("bf16", "m16n8k16") => (Ty::BF16, 16),
            ("bf16", "m16n8k8") => (Ty::BF16, 8),
            ("tf32", "m16n8k8") => (Ty::TF32, 8),
            ("tf32", "m16n8k4") => (Ty::TF32, 4),
            (t, s) => return self.err(format!("mma .{s} with .{t} operands is not supported")),
        };
        let a_regs = if ty == Ty::TF32 { k / 2 } else { k / 4 };
        let d = self.vec_dsts(self.operand(i, 0)?, 4)?;
        let mut srcs = self.vec_srcs(self.operand(i, 1)?, a_regs)?;
        srcs.extend(self.vec_srcs(self.operand(i, 2)?, a_regs / 2)?);
        srcs.extend(self.vec_srcs(self.operand(i, 3)?, 4)?);
        self.emit_mma(ty, d, srcs)
    }

    fn emit_mma(&mut self, ty: Ty, d: Vec<Reg>, srcs: Vec<Operand>) -> Result<()> {
        let md = Mods { src_ty: Some(ty), ..Mods::ty(Ty::F32) };
        self.emit(Opcode::Mma, md, d, srcs)?;
        Ok(())
    }

    fn wmma(&mut self, i: &ast::Instruction) -> Result<()> {
        let mut m = PtxMods::of(i, false);
        let action = m.take(&["load", "store", "mma"]);
        let frag = m.take(&["a", "b", "c", "d"]);
        let shape = m.take(&["m16n16k16", "m16n16k8"]);
        let layouts: Vec<String> = std::iter::from_fn(|| m.take(&["row", "col"])).collect();
        let satfinite = m.take(&["satfinite"]).is_some();
        self.leftovers(&m)?;
        let Some(shape) = shape else { return self.err("wmma: only the m16n16k16 and m16n16k8 shapes are supported") };
        let tf32 = shape == "m16n16k8";
        match action.as_deref() {
            Some("mma") => {
                let types: Vec<&str> = m.types.iter().map(String::as_str).collect();
                let int = match types.as_slice() {
                    ["f32", "f32"] if !tf32 => None,
                    ["f32", "tf32", "tf32", "f32"] if tf32 => None,
                    ["s32", "s8", "s8", "s32"] if !tf32 => Some(Ty::S8),
                    ["s32", "u8", "u8", "s32"] if !tf32 => Some(Ty::U8),
                    _ => {
                        return self.err(
                            "wmma.mma supports f32 accumulators with f16 (m16n16k16) or tf32 (m16n16k8) operands, \
                             and s32 accumulators with s8 or u8 operands (m16n16k16)",
                        );
                    }
                };
                if layouts.len() != 2 {
                    return self.err("wmma.mma needs two layouts");
                }
                if satfinite && int.is_none() {
                    return self.err("wmma.mma .satfinite with f32 accumulators is not supported yet");
                }
                let (na, nb) = if int.is_some() {
                    (2, 2)
                } else if tf32 {
                    (4, 4)
                } else {
                    (8, 8)
                };
                let d = self.vec_dsts(self.operand(i, 0)?, 8)?;
                let a = self.vec_srcs(self.operand(i, 1)?, na)?;
                let b = self.vec_srcs(self.operand(i, 2)?, nb)?;
                let c = self.vec_srcs(self.operand(i, 3)?, 8)?;
                // Each 8-column half of d accumulates in a fresh register set first, so that a
                // d register that is also an a, b or c register is read before it is written.
                let tmp: Vec<Reg> = (0..8).map(|_| self.tmp(RegClass::R32).into()).collect();
                for half in 0..2 {
                    let acc: Vec<Reg> = tmp[4 * half..4 * half + 4].to_vec();
                    let mut cin: Vec<Operand> = c[4 * half..4 * half + 4].to_vec();
                    if let Some(it) = int {
                        let mut s = vec![a[0].clone(), a[1].clone(), b[half].clone()];
                        s.extend(cin);
                        let t = if it == Ty::S8 { "s8" } else { "u8" };
                        self.emit(Opcode::Mma, int_mma_mods(t, t, satfinite), acc, s)?;
                    } else if tf32 {
                        for kh in 0..2 {
                            let mut s = vec![a[2 * kh].clone(), a[2 * kh + 1].clone(), b[2 * half + kh].clone()];
                            s.extend(cin);
                            self.emit_mma(Ty::TF32, acc.clone(), s)?;
                            cin = acc.iter().map(|r| Operand::reg(*r)).collect();
                        }
                    } else {
                        let mut s = a[..4].to_vec();
                        s.extend([b[2 * half].clone(), b[2 * half + 1].clone()]);
                        s.extend(cin);
                        self.emit_mma(Ty::F16, acc, s)?;
                    }
                }
                for (dr, t) in d.into_iter().zip(tmp) {
                    self.emit(Opcode::Mov, Mods::ty(Ty::B32), vec![dr], vec![Operand::reg(t)])?;
                }
                Ok(())
            }
            Some(act @ ("load" | "store")) => {
                let store = act == "store";
                let frag = match (frag.as_deref(), store) {
                    (Some("a"), false) => Frag::A,
                    (Some("b"), false) => Frag::B,
                    (Some("c"), false) | (Some("d"), true) => Frag::C,
                    _ => return self.err(format!("wmma.{act} of this fragment is not supported")),
                };
                let [layout] = layouts.as_slice() else { return self.err("wmma needs one layout, .row or .col") };
                let row = layout == "row";
                let t = match m.types.as_slice() {
                    [t] => t.as_str(),
                    _ => return self.err(format!("wmma.{act} needs one type")),
                };
                let elem = match (frag, Elem::of(t)) {
                    (Frag::C, _) if matches!(t, "f32" | "s32") => Elem::Tf32,
                    (Frag::A | Frag::B, Some(e)) if (e == Elem::Tf32) == tf32 => e,
                    _ => return self.err(format!("wmma.{act} of .{t} fragments is not supported")),
                };
                let regs = match (frag, elem) {
                    (Frag::C, _) | (_, Elem::Half) => 8,
                    (_, Elem::Tf32) => 4,
                    (_, Elem::Byte) => 2,
                };
                // The default stride is the matrix's row length (row-major) or column length.
                let (rows, cols) = match (frag, tf32) {
                    (Frag::A, true) => (16, 8),
                    (Frag::B, true) => (8, 16),
                    _ => (16, 16),
                };
                let (mem_at, val_at) = if store { (0, 1) } else { (1, 0) };
                let ldm = match i.operands.get(2) {
                    Some(o) => self.src(o, Ty::U32)?,
                    None => Operand::Imm(Imm::Int(if row { cols } else { rows })),
                };
                let es: i64 = match elem {
                    Elem::Half => 2,
                    Elem::Byte => 1,
                    Elem::Tf32 => 4,
                };
                let mr = self.mem_ref(self.operand(i, mem_at)?, m.space, es)?;
                // f16/bf16 a and b fragments hold each word twice (registers 4..7 copy 0..3).
                let distinct = if frag != Frag::C && elem == Elem::Half { 4 } else { regs };
                let mut vals = if store {
                    self.vec_srcs(self.operand(i, val_at)?, regs)?.into_iter().map(Some).collect::<Vec<_>>()
                } else {
                    vec![None; regs]
                };
                let dsts = if store { Vec::new() } else { self.vec_dsts(self.operand(i, val_at)?, regs)? };
                let elems: Vec<Vec<Coord>> = (0..distinct as i64).map(|k| frag_coords(frag, elem, k)).collect();
                let addrs = self.fragment_addresses(&mr, &elems, row, &ldm, es)?;
                for (k, (coords, addr)) in elems.iter().zip(addrs).enumerate() {
                    if store {
                        let v = vals[k].take().unwrap_or(Operand::Imm(Imm::Int(0)));
                        self.emit(Opcode::St, Mods::ty(Ty::B32), vec![], vec![Operand::Mem(addr[0].clone()), v])?;
                    } else if addr
                        .iter()
                        .enumerate()
                        .all(|(j, x)| x.base == addr[0].base && x.offset == addr[0].offset + es * j as i64)
                    {
                        // The register's elements are consecutive in memory: one word.
                        self.emit(Opcode::Ld, Mods::ty(Ty::B32), vec![dsts[k]], vec![Operand::Mem(addr[0].clone())])?;
                    } else if coords.len() != 2 {
                        return self
                            .err(format!("wmma.load of .{t} fragments in the .{layout} layout is not supported"));
                    } else {
                        let lo = self.tmp(RegClass::R32);
                        let hi = self.tmp(RegClass::R32);
                        self.emit(Opcode::Ld, Mods::ty(Ty::U16), vec![lo.into()], vec![Operand::Mem(addr[0].clone())])?;
                        self.emit(Opcode::Ld, Mods::ty(Ty::U16), vec![hi.into()], vec![Operand::Mem(addr[1].clone())])?;
                        // d = lo | hi << 16 (PRMT's selector 0x5410: bytes 0, 1 of a, then 0, 1 of b).
                        let srcs = vec![Operand::reg(lo), Operand::Imm(Imm::Int(0x5410)), Operand::reg(hi)];
                        self.emit(Opcode::PrmtP, Mods::ty(Ty::B32), vec![dsts[k]], srcs)?;
                    }
                }
                if !store {
                    for k in distinct..regs {
                        let src = Operand::reg(dsts[k - distinct]);
                        self.emit(Opcode::Mov, Mods::ty(Ty::B32), vec![dsts[k]], vec![src])?;
                    }
                }
                Ok(())
            }
            _ => self.err("wmma needs .load, .store or .mma"),
        }
    }

    /// For each fragment register, the memory reference of each of its elements.
    fn fragment_addresses(
        &mut self,
        mr: &MemRef,
        elems: &[Vec<Coord>],
        row_major: bool,
        ldm: &Operand,
        es: i64,
    ) -> Result<Vec<Vec<MemRef>>> {
        // Offset in elements of (r, c): row-major r * ldm + c, column-major c * ldm + r. With
        // (p, q) the (r, c) or (c, r) pair: p * ldm + q, and p, q linear in g and t.
        let pq = |c: &Coord| {
            if row_major { (c.rg, c.rt, c.r0, c.cg, c.ct, c.c0) } else { (c.cg, c.ct, c.c0, c.rg, c.rt, c.r0) }
        };
        let wide = match mr.base {
            Some(b) => self.f.reg_class(b).is_some_and(|c| c.count == 2),
            None => mr.space != Space::Shared,
        };
        let (aty, aclass) = if wide { (Ty::U64, RegClass::R64) } else { (Ty::U32, RegClass::R32) };
        let u32m = Mods::ty(Ty::U32);
        let lane = self.tmp(RegClass::R32);
        self.emit(Opcode::Mov, u32m.clone(), vec![lane.into()], vec![Operand::SReg(SpecialReg::LaneId)])?;
        let g = self.tmp(RegClass::R32);
        self.emit(Opcode::Shr, u32m.clone(), vec![g.into()], vec![Operand::reg(lane), Operand::Imm(Imm::Int(2))])?;
        let t = self.tmp(RegClass::R32);
        self.emit(Opcode::And, Mods::ty(Ty::B32), vec![t.into()], vec![Operand::reg(lane), Operand::Imm(Imm::Int(3))])?;
        // The lane part (same for every element of a fragment: the layouts share g and t's
        // coefficients): g * (pg * ldm + qg) + t * (pt * ldm + qt).
        let (pg, pt, _, qg, qt, _) = pq(&elems[0][0]);
        let lo = Mods { half: Some(crate::ori::Half::Lo), ..u32m.clone() };
        let coef = |cx: &mut Self, p: i64, q: i64| -> Result<Operand> {
            if p == 0 {
                return Ok(Operand::Imm(Imm::Int(q)));
            }
            let r = cx.tmp(RegClass::R32);
            cx.emit(
                Opcode::Mad,
                lo.clone(),
                vec![r.into()],
                vec![ldm.clone(), Operand::Imm(Imm::Int(p)), Operand::Imm(Imm::Int(q))],
            )?;
            Ok(Operand::reg(r))
        };
        let cg = coef(self, pg, qg)?;
        let ct = coef(self, pt, qt)?;
        let tpart = self.tmp(RegClass::R32);
        self.emit(Opcode::Mul, lo.clone(), vec![tpart.into()], vec![Operand::reg(t), ct])?;
        let off = self.tmp(RegClass::R32);
        self.emit(Opcode::Mad, lo.clone(), vec![off.into()], vec![Operand::reg(g), cg, Operand::reg(tpart)])?;
        // Byte offset, widened to the address width, added to the base.
        let boff = self.tmp(aclass);
        let mul = if wide { Mods { half: Some(crate::ori::Half::Wide), ..u32m.clone() } } else { lo.clone() };
        self.emit(Opcode::Mul, mul.clone(), vec![boff.into()], vec![Operand::reg(off), Operand::Imm(Imm::Int(es))])?;
        let lane_base = self.tmp(aclass);
        match mr.base {
            Some(b) => self.emit(
                Opcode::Add,
                Mods::ty(aty),
                vec![lane_base.into()],
                vec![Operand::reg(b), Operand::reg(boff)],
            )?,
            None => self.emit(Opcode::Mov, Mods::ty(aty), vec![lane_base.into()], vec![Operand::reg(boff)])?,
        };
        // One base per distinct row step p0: lane_base + p0 * ldm * es.
        let mut steps: Vec<(i64, crate::ori::VReg)> = vec![(0, lane_base)];
        let mut out = Vec::new();
        for regs in elems {
            let mut refs = Vec::new();
            for c in regs {
                let (p0, q0) = {
                    let (.., p0, _, _, q0) = pq(c);
                    (p0, q0)
                };
                let base = match steps.iter().find(|(p, _)| *p == p0) {
                    Some((_, r)) => *r,
                    None => {
                        let step = self.tmp(aclass);
                        self.emit(
                            Opcode::Mul,
                            mul.clone(),
                            vec![step.into()],
                            vec![ldm.clone(), Operand::Imm(Imm::Int(p0 * es))],
                        )?;
                        let r = self.tmp(aclass);
                        self.emit(
                            Opcode::Add,
                            Mods::ty(aty),
                            vec![r.into()],
                            vec![Operand::reg(lane_base), Operand::reg(step)],
                        )?;
                        steps.push((p0, r));
                        r
                    }
                };
                refs.push(MemRef {
                    space: mr.space,
                    sym: mr.sym.clone(),
                    base: Some(base.into()),
                    offset: mr.offset + q0 * es,
                });
            }
            out.push(refs);
        }
        Ok(out)
    }

    fn cp_async(&mut self, i: &ast::Instruction) -> Result<()> {
        let words: Vec<&str> = i.modifiers.iter().map(|m| m.text.trim_start_matches('.')).collect();
        match words.as_slice() {
            ["async", "commit_group"] => {
                self.emit(Opcode::CpAsyncCommit, Mods::new(), vec![], vec![])?;
                Ok(())
            }
            ["async", "wait_all"] => {
                self.emit(Opcode::CpAsyncCommit, Mods::new(), vec![], vec![])?;
                self.emit(Opcode::CpAsyncWait, Mods::new(), vec![], vec![Operand::Imm(Imm::Int(0))])?;
                Ok(())
            }
            ["async", "wait_group"] => {
                let n = match self.src(self.operand(i, 0)?, Ty::U32)? {
                    Operand::Imm(n) => n,
                    _ => return self.err("cp.async.wait_group needs an integer constant"),
                };
                self.emit(Opcode::CpAsyncWait, Mods::new(), vec![], vec![Operand::Imm(n)])?;
                Ok(())
            }
            ["async", cache @ ("ca" | "cg"), "shared" | "shared::cta", "global", rest @ ..]
                if rest.iter().all(|w| w.starts_with("L2::")) && !rest.contains(&"L2::cache_hint") =>
            {
                let size = match self.src(self.operand(i, 2)?, Ty::U32)? {
                    Operand::Imm(n) => n.bits(),
                    _ => return self.err("cp.async needs a constant copy size"),
                };
                // .ca copies 4, 8 or 16 bytes, .cg 16.
                let ty = match (size, *cache) {
                    (4, "ca") => Ty::B32,
                    (8, "ca") => Ty::B64,
                    (16, _) => Ty::B128,
                    _ => return self.err(format!("cp.async.{cache} of {size} bytes is not supported")),
                };
                let dst = self.mem_ref(self.operand(i, 0)?, Some(Space::Shared), size as i64)?;
                let src = self.mem_ref(self.operand(i, 1)?, Some(Space::Global), size as i64)?;
                let src_size = match i.operands.get(3) {
                    Some(o) => self.src(o, Ty::U32)?,
                    None => Operand::Imm(Imm::Int(size as i64)),
                };
                let md = Mods { sub: Some(if *cache == "cg" { SubOp::Cg } else { SubOp::Ca }), ..Mods::ty(ty) };
                self.emit(Opcode::CpAsync, md, vec![], vec![Operand::Mem(dst), Operand::Mem(src), src_size])?;
                Ok(())
            }
            _ => self.err(format!("`cp.{}` is not supported", words.join("."))),
        }
    }

    /// SIMD video instructions and packed 16-bit integer arithmetic.
    fn video(&mut self, i: &ast::Instruction, op: &str) -> Result<()> {
        let mut m = PtxMods::of(i, true);
        let simd = op.starts_with('v');
        let (base, lanes) = match op.strip_suffix('4').or_else(|| op.strip_suffix('2')) {
            Some(b) if simd => (&b[1..], if op.ends_with('4') { 4u32 } else { 2 }),
            _ => (op, 2),
        };
        let sub = match base {
            "add" => SubOp::AddOp,
            "sub" => SubOp::SubtractOp,
            "absdiff" if simd => SubOp::Absdiff,
            "avrg" if simd => SubOp::Avrg,
            "min" => SubOp::MinOp,
            "max" => SubOp::MaxOp,
            "set" if simd => SubOp::SetOp,
            _ => return self.err(format!("instruction `{op}` is not supported")),
        };
        let sat = m.flags.iter().any(|f| f == "sat");
        m.flags.retain(|f| f != "sat");
        let cmp = m.cmp.take();
        if (sub == SubOp::SetOp) != cmp.is_some() {
            return self.err(format!("`{op}`: a comparison belongs to vset only"));
        }
        let int_ty = |s: &str| match s {
            "s32" => Some(Ty::S32),
            "u32" => Some(Ty::U32),
            _ => None,
        };
        let (dt, at, bt, acc) = if simd {
            let acc = m.take(&["add"]).is_some();
            let ts: Vec<Option<Ty>> = m.types.iter().map(|t| int_ty(t)).collect();
            let (d, a, b) = match (sub, ts.as_slice()) {
                (SubOp::SetOp, [Some(a), Some(b)]) => (Ty::U32, *a, *b),
                (_, [Some(d), Some(a), Some(b)]) if sub != SubOp::SetOp => (*d, *a, *b),
                _ => return self.err(format!("`{op}` takes .u32 or .s32 types (d, a, b; vset: a, b)")),
            };
            if acc && sat {
                return self.err(format!("`{op}`: .sat does not apply to the .add form"));
            }
            (d, a, b, acc)
        } else {
            let t = match (m.take(&["s16x2", "u16x2"]).as_deref(), m.types.is_empty()) {
                (Some("s16x2"), true) => Ty::S32,
                (Some(_), true) => Ty::U32,
                _ => return self.err(format!("`{op}` of these types is not supported")),
            };
            (t, t, t, false)
        };
        self.leftovers(&m)?;
        if !m.flags.is_empty() {
            return self.err(format!("modifier `.{}` is not supported here", m.flags[0]));
        }
        let nsrc = if simd { 3 } else { 2 };
        if i.operands.len() != nsrc + 1 {
            return self.err(format!("`{op}` needs {} operands", nsrc + 1));
        }
        // Lane selectors (`a.h10`, `b.b7654`) and the destination mask (`d.h1`, `d.b30`).
        let (sel_a, sel_b, full) = if lanes == 2 { (0x10, 0x32, 0x3) } else { (0x3210, 0x7654, 0xf) };
        let (prefix, max) = if lanes == 2 { ('h', 3) } else { ('b', 7) };
        let split = |o: &ast::Operand| -> Option<(ast::Operand, String)> {
            match o {
                ast::Operand::Expr(ast::Expr { kind: ast::ExprKind::Sym(id, Some(c)), span })
                    if c.starts_with(prefix) =>
                {
                    let e = ast::Expr { kind: ast::ExprKind::Sym(id.clone(), None), span: *span };
                    Some((ast::Operand::Expr(e), c[1..].to_owned()))
                }
                _ => None,
            }
        };
        let digits = |s: &str, n: usize| -> Option<Vec<u64>> {
            let d: Option<Vec<u64>> = s.chars().map(|c| c.to_digit(10).map(u64::from)).collect();
            d.filter(|d| (n == 0 || d.len() == n) && !d.is_empty() && d.iter().all(|x| *x <= max))
        };
        let mut srcs = Vec::new();
        let mut sels = [sel_a, sel_b];
        for k in 1..=nsrc {
            let o = self.operand(i, k)?;
            let o = match (k, split(o)) {
                (1 | 2, Some((reg, sel))) if simd => {
                    // `.hxy` / `.bxyzw`: the source of the highest lane first.
                    let Some(d) = digits(&sel, lanes as usize) else {
                        return self.err(format!("lane selector `.{prefix}{sel}` is not supported"));
                    };
                    sels[k - 1] = d.iter().rev().enumerate().fold(0, |s, (lane, x)| s | x << (4 * lane));
                    reg
                }
                _ => o.clone(),
            };
            srcs.push(self.src(&o, Ty::B32)?);
        }
        if !simd {
            srcs.push(Operand::Imm(Imm::Int(0)));
        }
        let mut dmask = full;
        let d_op = match split(self.operand(i, 0)?) {
            Some((reg, sel)) if simd => {
                let Some(d) = digits(&sel, 0).filter(|d| d.iter().all(|x| *x < u64::from(lanes))) else {
                    return self.err(format!("destination mask `.{prefix}{sel}` is not supported"));
                };
                dmask = d.iter().fold(0, |m, x| m | 1 << x);
                reg
            }
            _ => self.operand(i, 0)?.clone(),
        };
        let d = self.dst(&d_op, RegClass::R32)?;
        srcs.extend([sels[0], sels[1], dmask, u64::from(bt.is_signed())].map(|v| Operand::Imm(Imm::Int(v as i64))));
        let opc = match (lanes, acc) {
            (4, false) => Opcode::Vop4,
            (4, true) => Opcode::Vop4Add,
            (_, false) => Opcode::Vop2,
            (_, true) => Opcode::Vop2Add,
        };
        let mut md = Mods { sub: Some(sub), src_ty: Some(at), cmp, ..Mods::ty(dt) };
        if sat {
            md.set(Flag::Sat);
        }
        self.emit(opc, md, vec![d], srcs)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    fn kernel(body: &str) -> String {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p) {{\n.reg .b32 %r<40>;\n\
             .reg .f32 %f<40>;\n.reg .b64 %rd<4>;\n.shared .align 16 .b8 buf[1024];\n{body}\n}}\n"
        )
    }

    fn ori(body: &str) -> Result<String, String> {
        crate::lower::lower_source(&kernel(body)).map(|m| m.to_string()).map_err(|e| e.to_string())
    }

    /// Each family lowers to its Ori opcode with the modifiers that carry its meaning.
    #[test]
    fn families_lower_to_their_opcodes() {
        let t = ori("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [buf];").unwrap();
        assert!(t.contains("= ldmatrix.trans.b16 shared[$k.buf]"), "{t}");
        let t = ori("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, \
                     {%r5,%r6}, {%f5,%f6,%f7,%f8};")
        .unwrap();
        assert!(t.contains("mma.f32.bf16"), "{t}");
        let t =
            ori("cp.async.cg.shared.global [buf], [%rd1], 16, %r1;\ncp.async.commit_group;\ncp.async.wait_group 1;")
                .unwrap();
        assert!(t.contains("cpasync.cg.b128 shared[$k.buf], global[%"), "{t}");
        assert!(t.contains("cpasynccommit") && t.contains("cpasyncwait 1"), "{t}");
        let t = ori("vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r4;\nmin.s16x2 %r5, %r6, %r7;").unwrap();
        assert!(t.contains("vop4add.absdiff.u32.u32 ") && t.contains(", 0x3210, 0x7654, 15, 0\n"), "{t}");
        assert!(t.contains("vop2.min.s32.s32 ") && t.contains(", 0, 16, 50, 3, 1\n"), "{t}");
        let t =
            ori("vadd4.u32.u32.s32.sat %r1.b20, %r2.b0123, %r3.b4444, %r4;\nvset2.s32.u32.lt.add %r5, %r6, %r7, %r8;")
                .unwrap();
        // .b0123: lane 3 takes byte 0, ..., lane 0 byte 3; .b20: lanes 2 and 0; b is s32.
        assert!(t.contains("vop4.add.sat.u32.u32 ") && t.contains(", 291, 0x4444, 5, 1\n"), "{t}");
        assert!(t.contains("vop2add.set.lt.u32.s32 ") && t.contains(", 16, 50, 3, 0\n"), "{t}");
        // wmma: plain loads at lane-dependent addresses and two mma per m16n16k16.
        let t =
            ori("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], 32;\n\
                     wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, \
                     {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, \
                     {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};")
            .unwrap();
        assert_eq!(t.matches("mma.f32.f16").count(), 2, "{t}");
        assert!(t.contains("SR_LANEID") && t.matches("ld.b32 global").count() == 4, "{t}");
    }

    /// What is not modelled is a located error, not a guess.
    #[test]
    fn unsupported_forms_are_located_errors() {
        for (bad, why) in [
            ("ldmatrix.sync.aligned.m16n16.x1.shared.b16 {%r1}, [buf];", ".m8n8 shape only"),
            (
                "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1,%r2}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r7,%r8};",
                "f32 accumulators",
            ),
            // Rejected by the front end first (ptxas's wording), before lowering sees it.
            ("cp.async.cg.shared.global [buf], [%rd1], 8;", "expected to be 16"),
            ("vabsdiff4.u32.f32.u32 %r1, %r2, %r3, %r4;", "Unexpected instruction types"),
            ("vabsdiff4.u32.u32.u32 %r1, %r2.b9876, %r3, %r4;", "Unknown video selector: '.b9876'"),
            ("vadd2.u32.u32.u32 %r1.h2, %r2, %r3, %r4;", "Incorrect video selector for operand 0"),
            (
                "wmma.load.a.sync.aligned.row.m32n8k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], 32;",
                "`.m32n8k16` is not supported",
            ),
            ("cvt.rn.tf32.f32 %r1, %f1;", ".rna from .f32 only"),
        ] {
            let e = ori(bad).expect_err(bad);
            assert!(e.contains(why) && e.starts_with("line "), "{bad}: {e}");
        }
    }

    /// `cvt.rna.tf32.f32` as ptxas computes it: ties away from zero, carries into the exponent,
    /// infinities and NaNs only masked.
    #[test]
    fn cvt_rna_tf32_rounds_ties_away() {
        use crate::ori::semantics::{Arg, eval};
        let m = crate::lower::lower_source(&kernel("cvt.rna.tf32.f32 %r1, %f1;")).unwrap();
        let f = &m.functions[0];
        let run = |x: u32| -> u32 {
            // Straight-line code: evaluate every instruction in order on one lane.
            let mut regs = std::collections::HashMap::new();
            let mut out = 0;
            for (_, i) in f.inst_order() {
                let d = &f.insts[i];
                let args: Vec<Arg> = d
                    .srcs
                    .iter()
                    .map(|o| match o {
                        crate::ori::Operand::Reg(u) => {
                            let v = regs.get(&u.reg).copied().unwrap_or(crate::ori::semantics::Val::Bits(u64::from(x)));
                            Arg { val: v, neg: u.neg, abs: u.abs, not: u.not }
                        }
                        crate::ori::Operand::Imm(k) => Arg::bits(k.bits()),
                        _ => Arg::bits(0),
                    })
                    .collect();
                if let Ok(v) = eval(d.opcode, &d.mods, &args) {
                    for (r, v) in d.dsts.iter().zip(v) {
                        regs.insert(*r, v);
                        out = v.bits() as u32;
                    }
                }
            }
            out
        };
        assert_eq!(run(0x3f80_1000), 0x3f80_2000); // a tie rounds away from zero
        assert_eq!(run(0x3f80_0fff), 0x3f80_0000);
        assert_eq!(run(0xbf80_1000), 0xbf80_2000);
        assert_eq!(run(0x3fff_f000), 0x4000_0000); // carries into the exponent
        assert_eq!(run(0x7f80_0000), 0x7f80_0000); // infinity stays
        assert_eq!(run(0x7fff_ffff), 0x7fff_e000); // a NaN is only masked
    }
}
