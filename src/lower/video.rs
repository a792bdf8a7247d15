//! The scalar video instructions: `vadd vsub vabsdiff vmin vmax vset vshl vshr vmad`.
//!
//! No SASS of sm_75..sm_120 executes them: ptxas expands each into 64-bit integer arithmetic
//! (byte/half extraction by `PRMT`, `IMAD.WIDE` products, `ISETP.EX` clamps), and so does this
//! lowering, into plain PTX-stage Ori (`bfe`, `cvt`, 64-bit `add`/`sub`/`abs`/`min`/`max`/`mul`/
//! shifts, `setp`/`selp`, `bfi`), so the interpreter, the optimizer and instruction selection
//! need nothing video-specific. Semantics: the PTX ISA's ("Scalar Video Instructions") where
//! ptxas follows it, and ptxas 13.0's where it does not (read off its SASS, and checked on the
//! GPU by the corpus's `video_scalar` golden and in the emulator by
//! `interp/tests/video_scalar.rs` against NVIDIA's cubins of 160 random forms):
//!
//! 1. each source is its selected byte (`.b0`..`.b3`), half (`.h0`, `.h1`) or the whole word,
//!    sign- or zero-extended by its type to 64 bits;
//! 2. the operation in 64 bits (`vabsdiff` = |a - b|; `vset` compares and gives 0/1;
//!    `vshl`/`vshr` shift a by b clamped to 32 (`.clamp`) or masked to 5 bits (`.wrap`),
//!    arithmetically when a is signed);
//! 3. `.sat` clamps to the destination type's 32-bit range. ptxas: a shift saturates its 34-bit
//!    signed view (bits above 33 dropped) and ignores a merge selector; other merge forms clamp
//!    to the selected byte/half's maximum with an unsigned comparison, so a negative
//!    intermediate saturates to the maximum (0x7fff for `vsub.s32.s32.s32.sat d.h0` of a
//!    negative difference, on the GPU);
//! 4. the secondary operation with c: `.add` on the low 32 bits; `.min`/`.max` in 64 bits with
//!    c extended, and compared, by the destination type's signedness (`vset`: a's), where an
//!    unsaturated sum or difference counts as its 32-bit result sign-extended (ptxas);
//!    or the merge into c at the destination selector (`d.b2` writes byte 2 and keeps c's
//!    other bytes; ptxas's `d.h1` keeps the result's own high half, unshifted). A c operand
//!    with neither is read and ignored, as ptxas does.
//!
//! `vmad` is `(±a·b) ± c (+1 with .po)`, optionally shifted right by 7 or 15 (`.shr7`/`.shr15`,
//! arithmetic when the result is signed) and saturated to s32 or u32 (from a signed 64-bit
//! view): the result is signed when a or b is signed or exactly one of a, b, or c is negated;
//! a negated product is its one's complement plus the `+1`, as is a negated c. ptxas multiplies
//! the 32-bit extracted values as signed numbers (a full `.u32` word too) and sign-extends c
//! whatever the types.
//!
//! Invariant: the destination is written once, by the last instruction, so a destination that
//! is also a source reads the old value; the current guard covers every instruction.

use super::Result;
use super::func::{FnCx, cvt_mods};
use super::mods::PtxMods;
use crate::ori::{Half, Imm, Mods, Opcode, Operand, RegClass, Ty, VReg};
use crate::ptx::ast;

/// The scalar video operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum VOp {
    Add,
    Sub,
    Absdiff,
    Min,
    Max,
    Set,
    Shl,
    Shr,
    Mad,
}

impl VOp {
    fn of(name: &str) -> Option<VOp> {
        Some(match name {
            "vadd" => VOp::Add,
            "vsub" => VOp::Sub,
            "vabsdiff" => VOp::Absdiff,
            "vmin" => VOp::Min,
            "vmax" => VOp::Max,
            "vset" => VOp::Set,
            "vshl" => VOp::Shl,
            "vshr" => VOp::Shr,
            "vmad" => VOp::Mad,
            _ => return None,
        })
    }
}

/// A byte or half selector: `(bit position, width)`; `None` is the whole word.
type Sel = Option<(u32, u32)>;

fn selector(c: &str) -> Option<(u32, u32)> {
    match c {
        "b0" => Some((0, 8)),
        "b1" => Some((8, 8)),
        "b2" => Some((16, 8)),
        "b3" => Some((24, 8)),
        "h0" => Some((0, 16)),
        "h1" => Some((16, 16)),
        _ => None,
    }
}

/// The PTX names of the scalar video instructions.
pub(super) fn is_scalar_video(name: &str) -> bool {
    VOp::of(name).is_some()
}

fn imm(v: i64) -> Operand {
    Operand::Imm(Imm::Int(v))
}

impl FnCx<'_> {
    /// A video source: its negation (`vmad`), the register expression without its selector,
    /// and the selector.
    fn video_source(&self, o: &ast::Operand) -> Result<(bool, ast::Operand, Sel)> {
        let ast::Operand::Expr(e) = o else { return self.err("unsupported operand form") };
        let (neg, inner) = match &e.kind {
            ast::ExprKind::Unary(ast::UnOp::Neg, x) => (true, x.as_ref()),
            _ => (false, e),
        };
        match &inner.kind {
            ast::ExprKind::Sym(id, Some(c)) => {
                let Some(sel) = selector(c) else {
                    return self.err(format!("video operand selector `.{c}` is not supported"));
                };
                let plain = ast::Expr { kind: ast::ExprKind::Sym(id.clone(), None), span: inner.span };
                Ok((neg, ast::Operand::Expr(plain), Some(sel)))
            }
            _ => Ok((neg, ast::Operand::Expr(inner.clone()), None)),
        }
    }

    /// The selected part of `o`, extended to 32 bits by `signed`.
    fn video_part(&mut self, o: &ast::Operand, sel: Sel, signed: bool) -> Result<Operand> {
        let v = self.src(o, Ty::B32)?;
        let Some((pos, w)) = sel else { return Ok(v) };
        let r = self.tmp(RegClass::R32);
        let t32 = if signed { Ty::S32 } else { Ty::U32 };
        self.emit(Opcode::Bfe, Mods::ty(t32), vec![r.into()], vec![v, imm(pos.into()), imm(w.into())])?;
        Ok(Operand::reg(r))
    }

    /// The 32-bit `v` extended to 64 bits by `signed`.
    fn video_widen(&mut self, v: Operand, signed: bool) -> Result<VReg> {
        let r = self.tmp(RegClass::R64);
        let m = if signed { cvt_mods(Ty::S64, Ty::S32) } else { cvt_mods(Ty::U64, Ty::U32) };
        self.emit(Opcode::Cvt, m, vec![r.into()], vec![v])?;
        Ok(r)
    }

    /// The selected part of `o`, extended to 64 bits by `signed`.
    fn video_extend(&mut self, o: &ast::Operand, sel: Sel, signed: bool) -> Result<VReg> {
        let v = self.video_part(o, sel, signed)?;
        self.video_widen(v, signed)
    }

    /// `op.ty d, a, b` into a new register of `class`.
    fn video_bin(&mut self, op: Opcode, md: Mods, class: RegClass, a: Operand, b: Operand) -> Result<VReg> {
        let r = self.tmp(class);
        self.emit(op, md, vec![r.into()], vec![a, b])?;
        Ok(r)
    }

    /// Clamps the 64-bit `v` to `[lo, hi]` (signed comparisons).
    fn video_clamp(&mut self, v: VReg, lo: i64, hi: i64) -> Result<VReg> {
        let r = self.video_bin(Opcode::Max, Mods::ty(Ty::S64), RegClass::R64, Operand::reg(v), imm(lo))?;
        self.video_bin(Opcode::Min, Mods::ty(Ty::S64), RegClass::R64, Operand::reg(r), imm(hi))
    }

    /// The low 32 bits of `v`.
    fn video_low(&mut self, v: VReg) -> Result<VReg> {
        let r = self.tmp(RegClass::R32);
        self.emit(Opcode::Cvt, cvt_mods(Ty::U32, Ty::U64), vec![r.into()], vec![Operand::reg(v)])?;
        Ok(r)
    }

    /// A scalar video instruction (see the module doc).
    pub(super) fn scalar_video(&mut self, i: &ast::Instruction) -> Result<()> {
        let name = i.opcode.name.as_str();
        let Some(op) = VOp::of(name) else { return self.err(format!("instruction `{name}` is not supported")) };
        let mut m = PtxMods::of(i, true);
        let sat = m.has("sat");
        m.flags.retain(|f| f != "sat");
        let cmp = m.cmp.take();
        if (op == VOp::Set) != cmp.is_some() {
            return self.err(format!("`{name}`: a comparison belongs to vset only"));
        }
        let op2 = if op == VOp::Mad { None } else { m.take(&["add", "min", "max"]) };
        let mode = if matches!(op, VOp::Shl | VOp::Shr) {
            match m.take(&["clamp", "wrap"]) {
                Some(w) => Some(w),
                None => return self.err(format!("`{name}` needs .clamp or .wrap")),
            }
        } else {
            None
        };
        let (scale, po) =
            if op == VOp::Mad { (m.take(&["shr7", "shr15"]), m.take(&["po"]).is_some()) } else { (None, false) };
        let signed_ty = |s: &str| match s {
            "s32" => Some(true),
            "u32" => Some(false),
            _ => None,
        };
        let tys: Vec<Option<bool>> = m.types.iter().map(|t| signed_ty(t)).collect();
        let (d_signed, a_signed, b_signed) = match (op, tys.as_slice()) {
            (VOp::Set, [Some(a), Some(b)]) => (false, *a, *b),
            (VOp::Shl | VOp::Shr, [Some(d), Some(a), Some(false)]) => (*d, *a, false),
            (VOp::Shl | VOp::Shr, _) => {
                return self.err(format!("`{name}` takes .u32/.s32 d and a types and a .u32 b"));
            }
            (VOp::Set, _) => return self.err(format!("`{name}` takes .u32 or .s32 types (a, b)")),
            (_, [Some(d), Some(a), Some(b)]) => (*d, *a, *b),
            _ => return self.err(format!("`{name}` takes .u32 or .s32 types (d, a, b)")),
        };
        if op == VOp::Set && sat {
            return self.err(format!("`{name}`: .sat does not apply to vset"));
        }
        self.leftovers(&m)?;
        if let Some(f) = m.flags.first() {
            return self.err(format!("modifier `.{f}` is not supported here"));
        }
        let n = i.operands.len();
        // The destination and its merge selector.
        let (d_op, dsel) = match self.video_source(self.operand(i, 0)?)? {
            (false, d, sel) => (d, sel),
            (true, ..) => return self.err(format!("`{name}`: a negated destination")),
        };
        let want = if op == VOp::Mad || op2.is_some() || dsel.is_some() { 4 } else { 3 };
        if n != want && !(want == 3 && n == 4) {
            return self.err(format!("`{name}` needs {want} operands"));
        }
        if dsel.is_some() && (op2.is_some() || op == VOp::Mad) {
            return self.err(format!("`{name}`: a destination selector and a secondary operation together"));
        }
        let (na, a_op, asel) = self.video_source(self.operand(i, 1)?)?;
        let (nb, b_op, bsel) = self.video_source(self.operand(i, 2)?)?;
        let (nc, c_op) = if n == 4 {
            let (nc, c, csel) = self.video_source(self.operand(i, 3)?)?;
            if csel.is_some() {
                return self.err(format!("`{name}`: c takes no selector"));
            }
            (nc, Some(c))
        } else {
            (false, None)
        };
        if op != VOp::Mad && (na || nb || nc) {
            return self.err(format!("`{name}`: negated operands belong to vmad only"));
        }
        if op == VOp::Mad {
            return self.video_mad(
                i,
                (a_signed, b_signed),
                (na, a_op, asel),
                (nb, b_op, bsel),
                (nc, c_op),
                sat,
                scale,
                po,
            );
        }
        let ta = self.video_extend(&a_op, asel, a_signed)?;
        let s64 = Mods::ty(Ty::S64);
        let r64 = RegClass::R64;
        let wide = match op {
            VOp::Shl | VOp::Shr => {
                // The shift count: b's selected part, clamped to 32 or masked to 5 bits.
                let cnt = self.video_part(&b_op, bsel, false)?;
                let cnt = if mode.as_deref() == Some("clamp") {
                    self.video_bin(Opcode::Min, Mods::ty(Ty::U32), RegClass::R32, cnt, imm(32))?
                } else {
                    self.video_bin(Opcode::And, Mods::ty(Ty::B32), RegClass::R32, cnt, imm(31))?
                };
                let (opc, md) = match op {
                    VOp::Shl => (Opcode::Shl, Mods::ty(Ty::B64)),
                    _ => (Opcode::Shr, Mods::ty(if a_signed { Ty::S64 } else { Ty::U64 })),
                };
                self.video_bin(opc, md, r64, Operand::reg(ta), Operand::reg(cnt))?
            }
            _ => {
                let tb = self.video_extend(&b_op, bsel, b_signed)?;
                let (a, b) = (Operand::reg(ta), Operand::reg(tb));
                match op {
                    VOp::Add => self.video_bin(Opcode::Add, s64, r64, a, b)?,
                    VOp::Sub => self.video_bin(Opcode::Sub, s64, r64, a, b)?,
                    VOp::Absdiff => {
                        let diff = self.video_bin(Opcode::Sub, s64.clone(), r64, a, b)?;
                        let r = self.tmp(r64);
                        self.emit(Opcode::Abs, s64, vec![r.into()], vec![Operand::reg(diff)])?;
                        r
                    }
                    VOp::Min => self.video_bin(Opcode::Min, s64, r64, a, b)?,
                    VOp::Max => self.video_bin(Opcode::Max, s64, r64, a, b)?,
                    VOp::Set => {
                        let p = self.tmp(RegClass::P);
                        self.emit(Opcode::Setp, Mods { cmp, ..s64 }, vec![p.into()], vec![a, b])?;
                        let r = self.tmp(RegClass::R32);
                        let md = Mods::ty(Ty::U32);
                        self.emit(Opcode::Selp, md, vec![r.into()], vec![imm(1), imm(0), Operand::reg(p)])?;
                        let w = self.tmp(r64);
                        self.emit(Opcode::Cvt, cvt_mods(Ty::U64, Ty::U32), vec![w.into()], vec![Operand::reg(r)])?;
                        w
                    }
                    VOp::Shl | VOp::Shr | VOp::Mad => unreachable!("handled above"),
                }
            }
        };
        let shift = matches!(op, VOp::Shl | VOp::Shr);
        let (lo32, hi32) = if d_signed { (i64::from(i32::MIN), i64::from(i32::MAX)) } else { (0, i64::from(u32::MAX)) };
        let wide = match (sat, dsel) {
            (false, _) => wide,
            (true, _) if shift => {
                // ptxas saturates a shift's 34-bit signed view to the 32-bit range, whatever
                // the merge selector.
                let up = self.video_bin(Opcode::Shl, Mods::ty(Ty::B64), r64, Operand::reg(wide), imm(30))?;
                let v = self.video_bin(Opcode::Shr, Mods::ty(Ty::S64), r64, Operand::reg(up), imm(30))?;
                self.video_clamp(v, lo32, hi32)?
            }
            (true, None) => self.video_clamp(wide, lo32, hi32)?,
            (true, Some((_, bits))) => {
                // ptxas clamps a merged byte/half from above only, comparing unsigned: a
                // negative intermediate saturates to the maximum (0x7fff for `.s32` `.h0`;
                // measured on the GPU, the PTX ISA's clamp would give 0x8000 or the value).
                let hi = if d_signed { (1i64 << (bits - 1)) - 1 } else { (1i64 << bits) - 1 };
                self.video_bin(Opcode::Min, Mods::ty(Ty::U64), r64, Operand::reg(wide), imm(hi))?
            }
        };
        let low = self.video_low(wide)?;
        let d = self.dst(&d_op, RegClass::R32)?;
        match (op2.as_deref(), dsel, c_op) {
            (Some("add"), None, Some(c)) => {
                let c = self.src(&c, Ty::B32)?;
                self.emit(Opcode::Add, Mods::ty(Ty::U32), vec![d], vec![Operand::reg(low), c])?;
            }
            (Some(o2), None, Some(c)) => {
                // In 64 bits: an unsaturated sum or difference is its 32-bit result
                // sign-extended; c and the comparison take the destination's signedness
                // (vset: a's).
                let signed = if op == VOp::Set { a_signed } else { d_signed };
                let t = if !sat && matches!(op, VOp::Add | VOp::Sub) {
                    self.video_widen(Operand::reg(low), true)?
                } else {
                    wide
                };
                let c = self.src(&c, Ty::B32)?;
                let cx = self.video_widen(c, signed)?;
                let opc = if o2 == "min" { Opcode::Min } else { Opcode::Max };
                let md = Mods::ty(if signed { Ty::S64 } else { Ty::U64 });
                let r = self.video_bin(opc, md, r64, Operand::reg(t), Operand::reg(cx))?;
                let r = self.video_low(r)?;
                self.emit(Opcode::Mov, Mods::ty(Ty::B32), vec![d], vec![Operand::reg(r)])?;
            }
            (None, Some((16, 16)), Some(c)) => {
                // `.h1` keeps the result's own high half (ptxas: `PRMT d, tmp, 0x3254, c`).
                let c = self.src(&c, Ty::B32)?;
                self.emit(Opcode::Bfi, Mods::ty(Ty::B32), vec![d], vec![c, Operand::reg(low), imm(0), imm(16)])?;
            }
            (None, Some((pos, w)), Some(c)) => {
                let c = self.src(&c, Ty::B32)?;
                self.emit(
                    Opcode::Bfi,
                    Mods::ty(Ty::B32),
                    vec![d],
                    vec![Operand::reg(low), c, imm(pos.into()), imm(w.into())],
                )?;
            }
            _ => {
                self.emit(Opcode::Mov, Mods::ty(Ty::B32), vec![d], vec![Operand::reg(low)])?;
            }
        }
        Ok(())
    }

    /// `vmad` (see the module doc).
    #[allow(clippy::too_many_arguments)]
    fn video_mad(
        &mut self,
        i: &ast::Instruction,
        (a_signed, b_signed): (bool, bool),
        (na, a_op, asel): (bool, ast::Operand, Sel),
        (nb, b_op, bsel): (bool, ast::Operand, Sel),
        (nc, c_op): (bool, Option<ast::Operand>),
        sat: bool,
        scale: Option<String>,
        po: bool,
    ) -> Result<()> {
        let neg_prod = na != nb;
        if neg_prod && nc {
            return self.err("`vmad`: negate either the product or c, not both");
        }
        if po && (na || nb || nc) {
            return self.err("`vmad.po` takes no negated operand");
        }
        let Some(c_op) = c_op else { return self.err("`vmad` needs 4 operands") };
        let signed = a_signed || b_signed || neg_prod || nc;
        // ptxas multiplies the 32-bit extracted values as signed (`IMAD.WIDE`, a full `.u32`
        // word included) and sign-extends c whatever the types.
        let a32 = self.video_part(&a_op, asel, a_signed)?;
        let ta = self.video_widen(a32, true)?;
        let b32 = self.video_part(&b_op, bsel, b_signed)?;
        let tb = self.video_widen(b32, true)?;
        let r64 = RegClass::R64;
        let mul = Mods { half: Some(Half::Lo), ..Mods::ty(Ty::S64) };
        let mut prod = self.video_bin(Opcode::Mul, mul, r64, Operand::reg(ta), Operand::reg(tb))?;
        if neg_prod {
            let r = self.tmp(r64);
            self.emit(Opcode::Not, Mods::ty(Ty::B64), vec![r.into()], vec![Operand::reg(prod)])?;
            prod = r;
        }
        let mut c = self.src(&c_op, Ty::B32)?;
        if nc {
            let r = self.tmp(RegClass::R32);
            self.emit(Opcode::Not, Mods::ty(Ty::B32), vec![r.into()], vec![c])?;
            c = Operand::reg(r);
        }
        let c64 = self.video_widen(c, true)?;
        let mut sum = self.video_bin(Opcode::Add, Mods::ty(Ty::S64), r64, Operand::reg(prod), Operand::reg(c64))?;
        if po || neg_prod || nc {
            sum = self.video_bin(Opcode::Add, Mods::ty(Ty::S64), r64, Operand::reg(sum), imm(1))?;
        }
        if let Some(s) = scale {
            let sh = if s == "shr7" { 7 } else { 15 };
            let md = Mods::ty(if signed { Ty::S64 } else { Ty::U64 });
            sum = self.video_bin(Opcode::Shr, md, r64, Operand::reg(sum), imm(sh))?;
        }
        if sat {
            sum = if signed {
                self.video_clamp(sum, i64::from(i32::MIN), i64::from(i32::MAX))?
            } else {
                self.video_clamp(sum, 0, i64::from(u32::MAX))?
            };
        }
        let low = self.video_low(sum)?;
        let (d_op, _) = match self.video_source(self.operand(i, 0)?)? {
            (false, d, None) => (d, ()),
            _ => return self.err("`vmad`: the destination takes no selector"),
        };
        let d = self.dst(&d_op, RegClass::R32)?;
        self.emit(Opcode::Mov, Mods::ty(Ty::B32), vec![d], vec![Operand::reg(low)])?;
        Ok(())
    }
}
