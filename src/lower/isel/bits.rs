//! Bit-field and byte operations that SASS (sm_90) has no single instruction for: `bfe`,
//! `bfi`, the `prmt` modes, `copysign`, `bfind.shiftamt` and `fns`.
//!
//! - `bfe.{u32,s32} d, a, pos, len` (pos, len taken modulo 256, len clamped to 32):
//!   `t = SHF.R.{U32,S32}.HI RZ, pos, a` (the funnel shift clamps pos to 32, giving 0 / the
//!   sign fill past the word), `k = 32 - len`, `d = SHF.R.{U32,S32}.HI RZ, k, (t << k)`: the
//!   low `len` bits of `t`, zero- or sign-extended from bit `len - 1` (`len = 0` gives 0).
//! - `bfi.b32 d, a, b, pos, len`: mask `m = ~(-1 << len) << pos` (both shifts clamp, so
//!   fields past bit 31 drop), `d = LOP3 (a << pos) & m | b & ~m`. `bfi.b64` with immediate
//!   position and length works per half with immediate masks; with a register position or
//!   length the mask and the shifted field are 64-bit shifts of halves (`SHF.*.U64`).
//! - `fns.b32`: a branch-free binary search over population counts (see [`Sel::sel_fns`]).
//! - `prmt.{f4e,b4e,rc8,ecl,ecr,rc16}`: the mode's selector for `c & 3` is looked up in a
//!   64-bit table of four 16-bit selectors (`SHF.R.U64` by `(c & 3) * 16`), then the default
//!   `PRMT` runs with it.
//! - `copysign.f32 d, a, b` = `LOP3 (a & 0x80000000) | (b & 0x7fffffff)`; f64 on the high
//!   words.

use super::{R, Sel, imm, r, rz};
use crate::ori::{Dir, Flag, InstData, Mods, Opcode, Operand, Reg, SubOp, Ty};

/// The LOP3 table of `f(a, b, c)`.
pub(crate) fn lut3(f: impl Fn(bool, bool, bool) -> bool) -> i64 {
    (0..8).filter(|i| f(i & 4 != 0, i & 2 != 0, i & 1 != 0)).fold(0, |acc, i| acc | (1 << i))
}

/// `SHF` modifiers: direction, type, `.HI`.
pub(crate) fn shf(dir: Dir, t: Ty, hi: bool) -> Mods {
    Mods { dir: Some(dir), ty: Some(t), flags: if hi { vec![Flag::HiWord] } else { vec![] }, ..Mods::new() }
}

impl Sel<'_> {
    /// `x & 0xff`, folded for immediates.
    fn byte_of(&mut self, o: &Operand) -> R<Operand> {
        let o = self.src(o)?;
        if let Operand::Imm(i) = o {
            return Ok(imm((i.bits() & 0xff) as i64));
        }
        let t = self.t32();
        self.emit(Opcode::LOP3, Mods::new(), vec![t.into()], vec![o, imm(0xff), rz(), imm(0xc0)]);
        Ok(r(t))
    }

    pub(crate) fn sel_bfe(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        if t.bits() != 32 {
            return Err(format!("bfe.{t} is not selected yet"));
        }
        let st = if t.is_signed() { Ty::S32 } else { Ty::U32 };
        let a = self.reg_src(&d.srcs[0])?;
        let pos = self.byte_of(&d.srcs[1])?;
        let len = self.byte_of(&d.srcs[2])?;
        let k = match len {
            Operand::Imm(i) => imm(32 - (i.bits() as i64).min(32)),
            len => {
                let (l, k) = (self.t32(), self.t32());
                self.emit(Opcode::IMNMX, super::ty(Ty::U32), vec![l.into()], vec![len, imm(32), super::pt()]);
                self.emit(Opcode::IADD3, Mods::new(), vec![k.into()], vec![super::neg(r(l)), imm(32), rz()]);
                r(k)
            }
        };
        let (t1, u) = (self.t32(), self.t32());
        self.emit(Opcode::SHF, shf(Dir::R, st, true), vec![t1.into()], vec![rz(), pos, a]);
        self.emit(Opcode::SHF, shf(Dir::L, Ty::U32, false), vec![u.into()], vec![r(t1), k.clone(), rz()]);
        self.emit(Opcode::SHF, shf(Dir::R, st, true), vec![dst], vec![rz(), k, r(u)]);
        Ok(())
    }

    pub(crate) fn sel_bfi(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let s = &d.srcs;
        let merge = lut3(|m, x, b| if m { x } else { b });
        if t.bits() == 64 {
            let (Operand::Imm(p), Operand::Imm(l)) = (&s[2], &s[3]) else {
                return self.sel_bfi64_var(d, dst);
            };
            let (p, l) = (p.bits() & 0xff, (l.bits() & 0xff).min(64));
            let mask: u64 = if p >= 64 { 0 } else { (if l >= 64 { u64::MAX } else { (1u64 << l) - 1 }) << p };
            // (a << p) in halves
            let (al, ah) = self.halves(&s[0])?;
            let (bl, bh) = self.halves(&s[1])?;
            let (sl, sh) = match p {
                0 => (al, ah),
                32 => (rz(), al),
                p if p >= 64 => (rz(), rz()),
                p if p > 32 => {
                    let al = self.reg_src(&al)?;
                    let h = self.t32();
                    self.emit(
                        Opcode::SHF,
                        shf(Dir::L, Ty::U32, false),
                        vec![h.into()],
                        vec![al, imm(p as i64 - 32), rz()],
                    );
                    (rz(), r(h))
                }
                p => {
                    let al = self.reg_src(&al)?;
                    let (lo, hi) = (self.t32(), self.t32());
                    let ah = self.src(&ah)?;
                    self.emit(
                        Opcode::SHF,
                        shf(Dir::L, Ty::U64, true),
                        vec![hi.into()],
                        vec![al.clone(), imm(p as i64), ah],
                    );
                    self.emit(Opcode::SHF, shf(Dir::L, Ty::U32, false), vec![lo.into()], vec![al, imm(p as i64), rz()]);
                    (r(lo), r(hi))
                }
            };
            let (lo, hi) = (self.t32(), self.t32());
            let ml = imm(i64::from(mask as u32));
            let mh = imm(i64::from((mask >> 32) as u32));
            self.emit(Opcode::LOP3, Mods::new(), vec![lo.into()], vec![ml, sl, bl, imm(merge)]);
            self.emit(Opcode::LOP3, Mods::new(), vec![hi.into()], vec![mh, sh, bh, imm(merge)]);
            self.pack_into(dst, r(lo), r(hi));
            return Ok(());
        }
        let a = self.reg_src(&s[0])?;
        let b = self.src(&s[1])?;
        let pos = self.byte_of(&s[2])?;
        let len = self.byte_of(&s[3])?;
        let (x, m0, m, ins) = (self.t32(), self.t32(), self.t32(), self.t32());
        // m0 = ~(-1 << len): the low len bits (SHF clamps len to 32).
        let ones = self.reg_src(&imm(-1))?;
        self.emit(Opcode::SHF, shf(Dir::L, Ty::U32, false), vec![x.into()], vec![ones, len, rz()]);
        self.emit(Opcode::LOP3, Mods::new(), vec![m0.into()], vec![rz(), r(x), rz(), imm(0x33)]);
        self.emit(Opcode::SHF, shf(Dir::L, Ty::U32, false), vec![m.into()], vec![r(m0), pos.clone(), rz()]);
        self.emit(Opcode::SHF, shf(Dir::L, Ty::U32, false), vec![ins.into()], vec![a, pos, rz()]);
        self.emit(Opcode::LOP3, Mods::new(), vec![dst], vec![r(m), r(ins), b, imm(merge)]);
        Ok(())
    }

    /// `prmt` with a mode: the mode's selector from a table, then the default PRMT.
    pub(crate) fn sel_prmt_mode(&mut self, d: &InstData, dst: Reg, mode: SubOp) -> R<()> {
        let sels: [[u64; 4]; 4] = {
            let mut out = [[0u64; 4]; 4];
            for (s, row) in out.iter_mut().enumerate() {
                let s = s as u64;
                *row = match mode {
                    SubOp::F4e => [s, s + 1, s + 2, s + 3],
                    SubOp::B4e => [s, (s + 7) & 7, (s + 6) & 7, (s + 5) & 7],
                    SubOp::Rc8 => [s; 4],
                    SubOp::Ecl => [s, s.max(1), s.max(2), 3],
                    SubOp::Ecr => [0, s.min(1), s.min(2), s],
                    SubOp::Rc16 => {
                        let h = (s & 1) * 2;
                        [h, h + 1, h, h + 1]
                    }
                    m => return Err(format!("prmt mode `{m}`")),
                };
            }
            out
        };
        let table: u64 = sels.iter().enumerate().fold(0, |acc, (s, row)| {
            let sel = row.iter().enumerate().fold(0u64, |x, (i, &k)| x | ((k & 7) << (4 * i)));
            acc | (sel << (16 * s))
        });
        let s = &d.srcs;
        let a = self.reg_src(&s[0])?;
        let c = self.src(&s[1])?;
        let b = self.src(&s[2])?;
        let sel = match c {
            Operand::Imm(i) => imm(((table >> (16 * (i.bits() & 3))) & 0xffff) as i64),
            c => {
                // n = (c & 3) * 16; sel = (table >> n) & 0xffff
                let (n, lo, hi, w, sel) = (self.t32(), self.t32(), self.t32(), self.t32(), self.t32());
                self.emit(Opcode::LOP3, Mods::new(), vec![w.into()], vec![c, imm(3), rz(), imm(0xc0)]);
                self.emit(Opcode::SHF, shf(Dir::L, Ty::U32, false), vec![n.into()], vec![r(w), imm(4), rz()]);
                self.emit(Opcode::MOV, Mods::new(), vec![lo.into()], vec![imm(i64::from(table as u32))]);
                self.emit(Opcode::MOV, Mods::new(), vec![hi.into()], vec![imm(i64::from((table >> 32) as u32))]);
                let t = self.t32();
                self.emit(Opcode::SHF, shf(Dir::R, Ty::U64, false), vec![t.into()], vec![r(lo), r(n), r(hi)]);
                self.emit(Opcode::LOP3, Mods::new(), vec![sel.into()], vec![r(t), imm(0xffff), rz(), imm(0xc0)]);
                r(sel)
            }
        };
        self.emit(Opcode::PRMT, Mods::new(), vec![dst], vec![a, sel, b]);
        Ok(())
    }

    pub(crate) fn sel_copysign(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        let f = lut3(|a, b, m| if m { a } else { b });
        let s = &d.srcs;
        if t == Ty::F64 {
            let (_, ah) = self.halves(&s[0])?;
            let (bl, bh) = self.halves(&s[1])?;
            let hi = self.t32();
            self.emit(Opcode::LOP3, Mods::new(), vec![hi.into()], vec![ah, bh, imm(0x8000_0000), imm(f)]);
            self.pack_into(dst, bl, r(hi));
            return Ok(());
        }
        if t != Ty::F32 {
            return Err(format!("copysign.{t}"));
        }
        let (a, b) = (self.src(&s[0])?, self.src(&s[1])?);
        self.emit(Opcode::LOP3, Mods::new(), vec![dst], vec![a, b, imm(0x8000_0000), imm(f)]);
        Ok(())
    }

    /// `bfind.shiftamt`: `31 - FLO` unless none is found (all ones).
    pub(crate) fn sel_bfind_shiftamt(&mut self, d: &InstData, dst: Reg, t: Ty) -> R<()> {
        if t.bits() != 32 {
            return Err(format!("bfind.shiftamt.{t}"));
        }
        let a = self.src(&d.srcs[0])?;
        let st = if t.is_signed() { Ty::S32 } else { Ty::U32 };
        let (f, n, p) = (self.t32(), self.t32(), self.tp());
        self.emit(Opcode::FLO, super::ty(st), vec![f.into()], vec![a]);
        self.emit(Opcode::IADD3, Mods::new(), vec![n.into()], vec![super::neg(r(f)), imm(31), rz()]);
        self.isetp(p.into(), crate::ori::Cmp::Ne, Ty::U32, r(f), imm(-1));
        self.emit(Opcode::SEL, Mods::new(), vec![dst], vec![r(n), imm(-1), r(p)]);
        Ok(())
    }

    /// `bfi.b64` with a register position or length: `pos = p & 0xff`, `len = min(l & 0xff,
    /// 64)`, mask `m = ~(-1 << len) << pos` and `ins = a << pos` as 64-bit shifts of halves
    /// (both clamp at 64, so a field past bit 63 drops), then `d = ins & m | b & ~m` per half.
    fn sel_bfi64_var(&mut self, d: &InstData, dst: Reg) -> R<()> {
        let s = &d.srcs;
        let merge = lut3(|m, x, b| if m { x } else { b });
        let ha = self.halves(&s[0])?;
        let (bl, bh) = self.halves(&s[1])?;
        let pos = self.byte_of(&s[2])?;
        let len = self.byte_of(&s[3])?;
        let len = match len {
            Operand::Imm(i) => imm((i.bits() as i64).min(64)),
            len => {
                let l = self.t32();
                self.emit(Opcode::IMNMX, super::ty(Ty::U32), vec![l.into()], vec![len, imm(64), super::pt()]);
                r(l)
            }
        };
        // -1 << len, inverted: the low len bits.
        let (xl, xh) = self.shift64(true, false, (imm(-1), imm(-1)), len)?;
        let (ml, mh) = (self.t32(), self.t32());
        self.emit(Opcode::LOP3, Mods::new(), vec![ml.into()], vec![rz(), r(xl), rz(), imm(0x33)]);
        self.emit(Opcode::LOP3, Mods::new(), vec![mh.into()], vec![rz(), r(xh), rz(), imm(0x33)]);
        let (kl, kh) = self.shift64(true, false, (r(ml), r(mh)), pos.clone())?;
        let (il, ih) = self.shift64(true, false, ha, pos)?;
        let (lo, hi) = (self.t32(), self.t32());
        self.emit(Opcode::LOP3, Mods::new(), vec![lo.into()], vec![r(kl), r(il), bl, imm(merge)]);
        self.emit(Opcode::LOP3, Mods::new(), vec![hi.into()], vec![r(kh), r(ih), bh, imm(merge)]);
        self.pack_into(dst, r(lo), r(hi));
        Ok(())
    }

    /// `fns.b32 d, mask, base, offset`: the position of the |offset|-th set bit of `mask`
    /// searching from `base` up (offset > 0) or down (offset < 0); offset 0 gives `base` when
    /// that bit is set; all ones when there is no such bit or `base > 31` (the Ori semantics).
    ///
    /// Branch-free: a downward search is an upward one on `brev(mask)` from `31 - base`, whose
    /// result `p` maps back to `31 - p`. The candidates are `m = M & (-1 << b)` (offset 0:
    /// `M & (1 << b)`, n = 1), and the n-th set bit of `m` from the bottom is found by halving:
    /// for w in 16, 8, 4, 2, 1, when `popc(m & (2^w - 1)) < k` the window moves up by w
    /// (`k -= popc`, `m >>= w`, `pos += w`). It exists when `popc(m) >= n`.
    pub(crate) fn sel_fns(&mut self, d: &InstData, dst: Reg) -> R<()> {
        use crate::ori::{BoolOp, Cmp};
        let s = &d.srcs;
        let mask = self.reg_src(&s[0])?;
        let base = self.reg_src(&s[1])?;
        let off = self.reg_src(&s[2])?;
        let (down, zero) = (self.tp(), self.tp());
        self.isetp(down.into(), Cmp::Lt, Ty::S32, off.clone(), rz());
        self.isetp(zero.into(), Cmp::Eq, Ty::U32, off.clone(), rz());
        // M and b, per direction.
        let (bm, mm, nb, b) = (self.t32(), self.t32(), self.t32(), self.t32());
        self.emit(Opcode::BREV, Mods::new(), vec![bm.into()], vec![mask.clone()]);
        self.emit(Opcode::SEL, Mods::new(), vec![mm.into()], vec![r(bm), mask, r(down)]);
        self.emit(Opcode::IADD3, Mods::new(), vec![nb.into()], vec![super::neg(base.clone()), imm(31), rz()]);
        self.emit(Opcode::SEL, Mods::new(), vec![b.into()], vec![r(nb), base.clone(), r(down)]);
        // The window: -1 << b, or 1 << b for offset 0.
        let (one, x, w, m) = (self.t32(), self.t32(), self.t32(), self.t32());
        self.emit(Opcode::MOV, Mods::new(), vec![one.into()], vec![imm(1)]);
        self.emit(Opcode::SEL, Mods::new(), vec![x.into()], vec![r(one), imm(-1), r(zero)]);
        self.emit(Opcode::SHF, shf(Dir::L, Ty::U32, false), vec![w.into()], vec![r(x), r(b), rz()]);
        self.emit(Opcode::LOP3, Mods::new(), vec![m.into()], vec![r(mm), r(w), rz(), imm(0xc0)]);
        // n = |offset| (1 for offset 0).
        let (no, ab, n) = (self.t32(), self.t32(), self.t32());
        self.emit(Opcode::IADD3, Mods::new(), vec![no.into()], vec![rz(), super::neg(off.clone()), rz()]);
        self.emit(Opcode::SEL, Mods::new(), vec![ab.into()], vec![r(no), off, r(down)]);
        self.emit(Opcode::SEL, Mods::new(), vec![n.into()], vec![r(one), r(ab), r(zero)]);
        // Not found: popc(m) < n, or base > 31.
        let (total, bad) = (self.t32(), self.tp());
        self.emit(Opcode::POPC, Mods::new(), vec![total.into()], vec![r(m)]);
        let lt = self.tp();
        self.isetp(lt.into(), Cmp::Lt, Ty::U32, r(total), r(n));
        let or = Mods { cmp: Some(Cmp::Gt), ty: Some(Ty::U32), bop: Some(BoolOp::Or), ..Mods::new() };
        self.emit(Opcode::ISETP, or, vec![bad.into(), super::pt_reg()], vec![base, imm(31), r(lt)]);
        // The halving search.
        let (mut cur, mut k, mut pos) = (m, n, None::<crate::ori::VReg>);
        for width in [16i64, 8, 4, 2, 1] {
            let (low, c, p) = (self.t32(), self.t32(), self.tp());
            self.emit(
                Opcode::LOP3,
                Mods::new(),
                vec![low.into()],
                vec![r(cur), imm((1 << width) - 1), rz(), imm(0xc0)],
            );
            self.emit(Opcode::POPC, Mods::new(), vec![c.into()], vec![r(low)]);
            self.isetp(p.into(), Cmp::Lt, Ty::U32, r(c), r(k));
            let np = self.t32();
            match pos {
                None => self.emit(Opcode::SEL, Mods::new(), vec![np.into()], vec![rz(), imm(width), super::not(r(p))]),
                Some(q) => {
                    let t = self.t32();
                    self.emit(Opcode::IADD3, Mods::new(), vec![t.into()], vec![r(q), imm(width), rz()]);
                    self.emit(Opcode::SEL, Mods::new(), vec![np.into()], vec![r(t), r(q), r(p)]);
                }
            }
            pos = Some(np);
            if width > 1 {
                let (kk, nk, sh, nm) = (self.t32(), self.t32(), self.t32(), self.t32());
                self.emit(Opcode::IADD3, Mods::new(), vec![kk.into()], vec![r(k), super::neg(r(c)), rz()]);
                self.emit(Opcode::SEL, Mods::new(), vec![nk.into()], vec![r(kk), r(k), r(p)]);
                self.emit(Opcode::SHF, shf(Dir::R, Ty::U32, true), vec![sh.into()], vec![rz(), imm(width), r(cur)]);
                self.emit(Opcode::SEL, Mods::new(), vec![nm.into()], vec![r(sh), r(cur), r(p)]);
                k = nk;
                cur = nm;
            }
        }
        let pos = pos.ok_or("fns: no search step")?;
        let (rp, res) = (self.t32(), self.t32());
        self.emit(Opcode::IADD3, Mods::new(), vec![rp.into()], vec![super::neg(r(pos)), imm(31), rz()]);
        self.emit(Opcode::SEL, Mods::new(), vec![res.into()], vec![r(rp), r(pos), r(down)]);
        self.emit(Opcode::SEL, Mods::new(), vec![dst], vec![r(res), imm(-1), super::not(r(bad))]);
        Ok(())
    }
}
