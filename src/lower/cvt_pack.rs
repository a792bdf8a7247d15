//! The packing conversions: `cvt` to or from `.e4m3x2`/`.e5m2x2`, and `cvt.satfinite` to the
//! half types, each one `cvtpack` (selected as one `F2FP`, as ptxas 13.0.88 does).
//!
//! Forms (what ptxas 13.0.88 accepts for sm_90/sm_90a; probed with tiny kernels):
//! - `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b` (d `.b16`; a into the high byte);
//! - `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a`;
//! - `cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a`;
//! - `cvt.{rn,rz}.satfinite{.relu}.{f16x2,bf16x2}.f32 d, a, b` and
//!   `cvt.{rn,rz}.satfinite{.relu}.{f16,bf16}.f32 d, a` (`.rm`/`.rp` with `.satfinite`:
//!   "Modifier '.satfinite' cannot be combined with modifier '.rm'").
//!
//! The front end (`ptx::sema::cvt_pack`) reports invalid forms first, located and in ptxas's
//! wording; the checks here guard callers that lower without it. Rejected as ptxas rejects
//! them (its wording): an fp8 destination without `.satfinite`
//! ("'.satfinite' modifier required ..."), no rounding ("Rounding modifier required ..."),
//! a rounding other than `.rn` for fp8 ("Illegal rounding modifier ..."), other type pairs
//! (`.bf16x2` with fp8, scalar `.e4m3`: "Unexpected instruction types ..."), and a wrong
//! source count or a register whose declared size is not its type's ("Arguments mismatch
//! ..."; a scalar f16/bf16 destination may be wider, as ptxas allows).
//!
//! The integer packing conversions `cvt.pack.sat.{u16,s16}.s32 d, a, b` and
//! `cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c` (selected as one `I2IP`; the sub-byte
//! ones as ptxas 13.0.88 does, `I2IP.U4.S32.SAT Rd, Ra, Rb, Rc.24` and `I2IP.U2 ... Rc.28`) are
//! `cvtpack` too, with an integer destination type and three sources: `a`, `b` and `c` (`0`
//! for the 16-bit forms); the PTX ISA's meaning is `d = c << 2n | sat(a) << n | sat(b)` in
//! `n`-bit fields (`n` = 16, 8, 4 or 2). ptxas accepts the sub-byte destinations wherever it
//! accepts `cvt.pack` (sm_75 and later, PTX 6.5 and later; probed for sm_75/80/90 and PTX
//! 6.5–9.0).
//!
//! Invariant: emits exactly one `cvtpack` whose sources are the PTX sources in order (the
//! integer forms: `a, b, c`, `c` the immediate 0 when PTX has none).

use super::Result;
use super::func::FnCx;
use super::mods::PtxMods;
use super::types::{size_of, ty_of};
use crate::ori::{Flag, Imm, Mods, Opcode, Operand, RegClass, Rnd, Ty};
use crate::ptx::ast;

fn is_fp8(t: Ty) -> bool {
    matches!(t, Ty::E4m3x2 | Ty::E5m2x2)
}

impl FnCx<'_> {
    /// The declared size in bytes of a plain register operand (`None`: not one).
    fn reg_bytes(&mut self, o: &ast::Operand) -> Option<u64> {
        let ast::Operand::Expr(ast::Expr { kind: ast::ExprKind::Sym(id, None), .. }) = o else { return None };
        match self.lookup(&id.name) {
            Some(super::func::Sym::Reg(_, t)) => size_of(&t),
            _ => None,
        }
    }

    /// Whether `cvt` with these modifiers is a packing conversion (see the module docs).
    pub(super) fn is_cvt_pack(m: &PtxMods) -> bool {
        m.rest.iter().any(|w| w == "satfinite")
            || m.types.iter().any(|t| matches!(t.as_str(), "e4m3x2" | "e5m2x2" | "e4m3" | "e5m2"))
    }

    /// Whether `cvt` with these modifiers is an integer packing conversion (`cvt.pack`).
    pub(super) fn is_cvt_pack_int(m: &PtxMods) -> bool {
        m.rest.iter().any(|w| w == "pack")
    }

    /// Lowers `cvt.pack.sat` (see the module docs).
    pub(super) fn cvt_pack_int(&mut self, i: &ast::Instruction) -> Result<()> {
        let mut m = PtxMods::of(i, false);
        m.take(&["pack"]);
        if !m.has("sat") {
            return self.err(".sat modifier required for instruction 'cvt.pack'");
        }
        m.flags.retain(|f| f != "sat");
        self.leftovers(&m)?;
        if !m.flags.is_empty() || m.rnd.is_some() {
            return self.err("Illegal modifier for instruction 'cvt.pack'");
        }
        let tys: Vec<Option<Ty>> = m.types.iter().map(|t| ty_of(t)).collect();
        let (dt, srcs) = match tys.as_slice() {
            [Some(d @ (Ty::U16 | Ty::S16)), Some(Ty::S32)] => (*d, 2),
            [Some(d @ (Ty::U8 | Ty::S8 | Ty::U4 | Ty::S4 | Ty::U2 | Ty::S2)), Some(Ty::S32), Some(Ty::B32)] => (*d, 3),
            _ => return self.err("Unexpected instruction types specified for 'cvt.pack'"),
        };
        if i.operands.len() != srcs + 1 {
            return self.err("Arguments mismatch for instruction 'cvt.pack'");
        }
        let mut s = Vec::new();
        for k in 0..srcs {
            let o = self.operand(i, 1 + k)?;
            s.push(self.src(o, if k < 2 { Ty::S32 } else { Ty::B32 })?);
        }
        if srcs == 2 {
            s.push(Operand::Imm(Imm::Int(0)));
        }
        let mut md = Mods { ty: Some(dt), src_ty: Some(Ty::S32), ..Mods::new() };
        md.set(Flag::Sat);
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        self.emit(Opcode::Cvtpack, md, vec![d], s)?;
        Ok(())
    }

    /// Lowers a packing `cvt` (see the module docs).
    pub(super) fn cvt_pack(&mut self, i: &ast::Instruction) -> Result<()> {
        let mut m = PtxMods::of(i, false);
        let sat = m.take(&["satfinite"]).is_some();
        self.leftovers(&m)?;
        let (dt, st) = match (m.types.first().and_then(|t| ty_of(t)), m.types.get(1).and_then(|t| ty_of(t))) {
            (Some(d), Some(s)) if m.types.len() == 2 => (d, s),
            _ => return self.err("Unexpected instruction types specified for 'cvt'"),
        };
        let srcs = match (dt, st) {
            (d, Ty::F32) if is_fp8(d) => 2,
            (d, Ty::F16x2) if is_fp8(d) => 1,
            (Ty::F16x2, s) if is_fp8(s) => 1,
            (Ty::F16x2 | Ty::BF16x2, Ty::F32) if sat => 2,
            (Ty::F16 | Ty::BF16, Ty::F32) if sat => 1,
            _ => return self.err("Unexpected instruction types specified for 'cvt'"),
        };
        if is_fp8(dt) && !sat {
            return self
                .err(format!("'.satfinite' modifier required for instruction 'cvt' with destination type '.{dt}'"));
        }
        if is_fp8(st) && sat {
            return self.err("Unexpected instruction types specified for 'cvt'");
        }
        let fp8 = is_fp8(dt) || is_fp8(st);
        match m.rnd {
            None => return self.err("Rounding modifier required for instruction 'cvt'"),
            Some(Rnd::Rn) => {}
            Some(Rnd::Rz) if !fp8 => {}
            Some(r @ (Rnd::Rm | Rnd::Rp)) if !fp8 => {
                return self.err(format!("Modifier '.satfinite' cannot be combined with modifier '.{r}'"));
            }
            Some(_) => return self.err("Illegal rounding modifier for instruction 'cvt'"),
        }
        if m.has("ftz") || m.has("sat") {
            return self.err("Illegal modifier for instruction 'cvt'");
        }
        if i.operands.len() != srcs + 1 {
            return self.err("Arguments mismatch for instruction 'cvt'");
        }
        // A register operand's declared size must be its type's (ptxas: "Arguments mismatch"),
        // except that a scalar f16/bf16 destination may sit in a wider register.
        let size = |t: Ty| u64::from(t.bits() / 8);
        for k in 0..=srcs {
            let want = size(if k == 0 { dt } else { st });
            let wider_ok = k == 0 && matches!(dt, Ty::F16 | Ty::BF16);
            if let Some(have) = self.reg_bytes(self.operand(i, k)?)
                && (have < want || have > want && !wider_ok)
            {
                return self.err("Arguments mismatch for instruction 'cvt'");
            }
        }
        let src_ty = if st == Ty::F32 { Ty::F32 } else { Ty::B32 };
        let mut s = Vec::new();
        for k in 0..srcs {
            let o = self.operand(i, 1 + k)?;
            s.push(self.src(o, src_ty)?);
        }
        let mut md = Mods { ty: Some(dt), src_ty: Some(st), rnd: m.rnd, ..Mods::new() };
        if sat {
            md.set(Flag::Sat);
        }
        if m.has("relu") {
            md.set(Flag::Relu);
        }
        let d = self.dst(self.operand(i, 0)?, RegClass::R32)?;
        self.emit(Opcode::Cvtpack, md, vec![d], s)?;
        Ok(())
    }
}
