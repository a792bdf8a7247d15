//! Conversions (`cvt`).
//!
//! - int → float: `I2F.dst.src` with the rounding mode (sub-word sources extended to 32
//!   bits first; 64-bit sources read as a register pair).
//! - float → int: `F2I.dst.src` with the integral rounding (`.TRUNC` = `rzi`, ...) and `.ftz`.
//! - float → int with a `u8` destination: sm_90 has no `F2I.U8.F32`; ptxas selects
//!   `F2IP.U8.F32.NTZ Rd, RZ, Rs, RZ` (a packing convert). We select `F2I.U32` with the same
//!   rounding and clamp with `VIMNMX.U32 Rd, Rt, 0xff, PT`: both saturate to [0, 255] with NaN
//!   to 0, and F2IP's packing semantics (which byte each source lands in, what `Rc` merges) are
//!   not calibrated on hardware, whereas `F2I.U32` and `VIMNMX` are.
//! - float → float: `F2F.dst.src` (also for same-format integral rounding, which ptxas spells
//!   `FRND`; the semantics are the same). Emission spells the forms sm_90 has no `F2F` for:
//!   f16 → f32 is `HADD2.F32 Rd, -RZ, Rs.H0_H0` (what ptxas emits). bf16 → f32 is selected
//!   here as ptxas does, `IMAD.U32 Rd, Rs, 0x10000, RZ` (the bf16 bits are the high half of
//!   the f32; exact, NaN payloads included; the multiply drops the register's high half).
//!   Same-format integral rounding with `.sat` is `FRND` then `FADD.SAT Rd, RZ, Rt` (ptxas's
//!   pair for `cvt.rni.sat.f32.f32`: FRND has no `.SAT`).
//! - int → int: 32↔32 is a `MOV`; widening to 64 bits is a pair of (value, `RZ` or
//!   `SHF.R.S32.HI RZ, 31, value`); narrowing from 64 takes the low word; a sub-word
//!   destination is masked (`LOP3 0xff/0xffff`) or sign-replicated (`PRMT 0x8880/0x9910`),
//!   leaving the register as the PTX-stage semantics do; `.sat` uses `I2I` on 32-bit sources,
//!   followed (for a sub-word destination) by the same mask/sign replication, as ptxas does.
//! - packing conversions (`cvtpack`: fp8, `.satfinite` halves): one `F2FP` with the same
//!   modifiers, sources moved into registers (ptxas: `MOV R5, UR6` then F2FP).

use super::{R, Sel, imm, r, rz};
use crate::ori::{Dir, Flag, Imm, InstData, Mods, Opcode, Operand, Ty};

impl Sel<'_> {
    pub(crate) fn sel_cvt(&mut self, d: &InstData) -> R<()> {
        let dst = Self::dst(d)?;
        let (dt, st) = (d.mods.ty.ok_or("cvt without a type")?, d.mods.src_ty.ok_or("cvt without a source type")?);
        let s = &d.srcs[0];
        let half = |t: Ty| matches!(t, Ty::F16x2 | Ty::BF16x2);
        if half(dt) || half(st) {
            return Err(format!("cvt.{dt}.{st} is not selected yet"));
        }
        let mut flags = vec![];
        if d.mods.has(Flag::Ftz) {
            flags.push(Flag::Ftz);
        }
        match (dt.is_float(), st.is_float()) {
            (true, false) => {
                let a = if st.bits() == 64 { self.wide_reg(s)? } else { self.ext(s, st)? };
                let src_ty = if st.bits() < 32 { if st.is_signed() { Ty::S32 } else { Ty::U32 } } else { st };
                if d.mods.has(Flag::Sat) {
                    return Err("cvt.sat int→float is not selected yet".into());
                }
                let m = Mods { ty: Some(dt), src_ty: Some(src_ty), rnd: d.mods.rnd, ..Mods::new() };
                self.emit(Opcode::I2F, m, vec![dst], vec![a]);
            }
            (false, true) => {
                let a = if st == Ty::F64 { self.wide_reg(s)? } else { self.src(s)? };
                if d.mods.has(Flag::Sat) && dt.bits() >= 32 {
                    // float → int saturates anyway.
                }
                if dt == Ty::U8 {
                    // No `F2I.U8` on sm_90 (see the module docs): convert to u32, then clamp.
                    let t = self.t32();
                    let m = Mods { ty: Some(Ty::U32), src_ty: Some(st), rnd: d.mods.rnd, flags, ..Mods::new() };
                    self.emit(Opcode::F2I, m, vec![t.into()], vec![a]);
                    self.emit(Opcode::IMNMX, super::ty(Ty::U32), vec![dst], vec![r(t), imm(0xff), super::pt()]);
                    return Ok(());
                }
                let m = Mods { ty: Some(dt), src_ty: Some(st), rnd: d.mods.rnd, flags, ..Mods::new() };
                self.emit(Opcode::F2I, m, vec![dst], vec![a]);
            }
            (true, true) if dt == Ty::F32 && st == Ty::BF16 && !d.mods.has(Flag::Ftz) => {
                // ptxas: `IMAD.U32 Rd, Rs, 0x10000, RZ` — the bf16 bits become the f32's high half.
                let a = self.src(s)?;
                let a = self.reg_src(&a)?;
                self.emit(Opcode::IMAD, super::ty(Ty::U32), vec![dst], vec![a, imm(0x10000), rz()]);
            }
            (true, true) if dt == st && !d.mods.rnd.is_some_and(|r| r.is_integral()) => {
                return self.same_float_cvt(d, dst, dt);
            }
            (true, true) => {
                let a = if st == Ty::F64 { self.wide_reg(s)? } else { self.src(s)? };
                if d.mods.has(Flag::Sat)
                    && dt == Ty::F32
                    && st == Ty::F32
                    && d.mods.rnd.is_some_and(|r| r.is_integral())
                {
                    // ptxas: `FRND` (no `.SAT` form), then `FADD.SAT Rd, RZ, Rt`.
                    let t = self.t32();
                    let m =
                        Mods { ty: Some(dt), src_ty: Some(st), rnd: d.mods.rnd, flags: flags.clone(), ..Mods::new() };
                    self.emit(Opcode::F2F, m, vec![t.into()], vec![a]);
                    flags.push(Flag::Sat);
                    let m = Mods { ty: Some(dt), src_ty: Some(st), flags, ..Mods::new() };
                    self.emit(Opcode::F2F, m, vec![dst], vec![r(t)]);
                    return Ok(());
                }
                if d.mods.has(Flag::Sat) {
                    flags.push(Flag::Sat);
                }
                let m = Mods { ty: Some(dt), src_ty: Some(st), rnd: d.mods.rnd, flags, ..Mods::new() };
                self.emit(Opcode::F2F, m, vec![dst], vec![a]);
            }
            (false, false) => return self.int_cvt(d, dst, dt, st),
        }
        Ok(())
    }

    /// `cvt.{ftz,sat}.T.T` without an integral rounding, as ptxas selects it: f32/f64 without
    /// modifiers are copies; f32 with `.ftz`/`.sat` is `FADD Rd, Rs, -RZ` (F2F in Ori, spelled
    /// as that FADD at emission); f16/bf16 add -0 (`HADD2`, `HFMA2.BF16_V2`), which keeps
    /// every number and makes a NaN canonical, `.sat` clamping to [0, 1] (`.ftz` does not apply
    /// to the half types).
    fn same_float_cvt(&mut self, d: &InstData, dst: crate::ori::Reg, t: Ty) -> R<()> {
        let s = &d.srcs[0];
        let (ftz, sat) = (d.mods.has(Flag::Ftz), d.mods.has(Flag::Sat));
        match t {
            Ty::F64 if sat => Err("cvt.sat.f64.f64 is not selected yet".into()),
            Ty::F64 => {
                let a = self.wide_reg(s)?;
                let (lo, hi) = self.halves(&a)?;
                self.pack_into(dst, lo, hi);
                Ok(())
            }
            Ty::F32 if !ftz && !sat => {
                let a = self.src(s)?;
                self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![a]);
                Ok(())
            }
            Ty::F32 => {
                let a = self.src(s)?;
                let flags = [Flag::Ftz, Flag::Sat].into_iter().filter(|f| d.mods.has(*f)).collect();
                let m = Mods { ty: Some(t), src_ty: Some(t), flags, ..Mods::new() };
                self.emit(Opcode::F2F, m, vec![dst], vec![a]);
                Ok(())
            }
            Ty::F16 | Ty::BF16 => {
                let a = self.reg_src(s)?;
                let flags = if sat { vec![Flag::Sat] } else { vec![] };
                let m = Mods { ty: Some(t), flags, ..Mods::new() };
                self.emit(Opcode::HADD2, m, vec![dst], vec![a, super::neg(super::rz())]);
                Ok(())
            }
            t => Err(format!("cvt.{t}.{t} is not selected yet")),
        }
    }

    /// `cvtpack` → `F2FP` (emission picks the packing mode from the types and source count).
    pub(crate) fn sel_cvt_pack(&mut self, d: &InstData) -> R<()> {
        let dst = Self::dst(d)?;
        if d.mods.ty.is_some_and(Ty::is_int) {
            // `cvt.pack.sat`: `I2IP.{U16,S16,U8,S8}.S32.SAT Rd, Ra, b, Rc` (ptxas 13.0.88), b a
            // register or an immediate, c RZ for the 16-bit forms.
            let [a, b, c] = d.srcs.as_slice() else {
                return Err(format!("cvtpack.{:?} with {} sources", d.mods.ty, d.srcs.len()));
            };
            let a = self.reg_src(a)?;
            let b = match self.src(b)? {
                o @ Operand::Imm(Imm::Int(_)) => o,
                o => self.reg_src(&o)?,
            };
            let c = match self.src(c)? {
                Operand::Imm(Imm::Int(0)) => rz(),
                o => self.reg_src(&o)?,
            };
            self.emit(Opcode::I2IP, d.mods.clone(), vec![dst], vec![a, b, c]);
            return Ok(());
        }
        let mut srcs = Vec::new();
        for s in &d.srcs {
            srcs.push(self.reg_src(s)?);
        }
        self.emit(Opcode::F2FP, d.mods.clone(), vec![dst], srcs);
        Ok(())
    }

    fn int_cvt(&mut self, d: &InstData, dst: crate::ori::Reg, dt: Ty, st: Ty) -> R<()> {
        let s = &d.srcs[0];
        if d.mods.has(Flag::Sat) && st.bits() == 64 && dt.bits() <= 32 {
            return self.sat_from64(dst, dt, st, s);
        }
        if d.mods.has(Flag::Sat) {
            if st.bits() != 32 || dt.bits() > 32 {
                return Err(format!("cvt.sat.{dt}.{st} is not selected yet"));
            }
            let a = self.src(s)?;
            let m = Mods { ty: Some(dt), src_ty: Some(st), flags: vec![Flag::Sat], ..Mods::new() };
            if dt.bits() >= 32 {
                self.emit(Opcode::I2I, m, vec![dst], vec![a]);
                return Ok(());
            }
            // ptxas does not rely on the upper bits of a narrow I2I result: it re-extends
            // (`I2I.S8.S32.SAT` + `PRMT 0x8880`, `I2I.U16.S32.SAT` + `LOP3 0xffff`).
            let t = self.t32();
            self.emit(Opcode::I2I, m, vec![t.into()], vec![a]);
            self.subword_into(dst, r(t), dt)?;
            return Ok(());
        }
        // The source value as 32 bits (low word of a 64-bit source), extended per its type.
        let (dw, sw) = (dt.bits(), st.bits());
        if dw == 64 {
            if sw == 64 {
                let a = self.wide_reg(s)?;
                let (lo, hi) = self.halves(&a)?;
                self.pack_into(dst, lo, hi);
                return Ok(());
            }
            let a = self.ext(s, st)?;
            let a = self.reg_src(&a)?;
            let hi = if st.is_signed() {
                let h = self.t32();
                let m = Mods { dir: Some(Dir::R), ty: Some(Ty::S32), flags: vec![Flag::HiWord], ..Mods::new() };
                self.emit(Opcode::SHF, m, vec![h.into()], vec![rz(), imm(31), a.clone()]);
                r(h)
            } else {
                rz()
            };
            self.pack_into(dst, a, hi);
            return Ok(());
        }
        let a = if sw == 64 {
            self.halves(s)?.0
        } else if sw < dw {
            self.ext(s, st)?
        } else {
            self.src(s)?
        };
        if dw >= 32 {
            self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![a]);
            return Ok(());
        }
        self.subword_into(dst, a, dt)
    }

    /// Writes the sub-word value `a` of type `dt` to `dst` as the semantics store it
    /// (signed: sign-extended, else masked).
    fn subword_into(&mut self, dst: crate::ori::Reg, a: Operand, dt: Ty) -> R<()> {
        let dw = dt.bits();
        if dt.is_signed() {
            let a = self.reg_src(&a)?;
            let sel = if dw == 8 { 0x8880 } else { 0x9910 };
            self.emit(Opcode::PRMT, Mods::new(), vec![dst], vec![a, imm(sel), rz()]);
        } else {
            let mask = (1i64 << dw) - 1;
            self.emit(Opcode::LOP3, Mods::new(), vec![dst], vec![a, imm(mask), rz(), imm(0xc0)]);
        }
        Ok(())
    }
}
