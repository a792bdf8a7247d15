//! Property tests for the Ori IR:
//! - random well-typed functions (straight-line and branching, SSA or not, virtual or
//!   allocated registers), generated from the opcode table, verify and round-trip through
//!   the text format;
//! - random integer/float operation sequences evaluated by the semantics table agree with a
//!   separate, straightforward reference written here (host wrapping ops, host f32/f64 RN
//!   arithmetic, an f64-based directed-rounding reference), on edge-biased values.

mod common;

use common::Rng;
use proptest::prelude::*;
use ptxas_rs::ori::opcode::{OpFlags, SlotKind};
use ptxas_rs::ori::semantics::{Arg, Val, eval};
use ptxas_rs::ori::{
    self, Block, BoolOp, CBank, Cmp, Dir, Flag, FuncKind, Function, Guard, Half, Imm, InstData, MemRef, Mods, Opcode,
    Operand, PhysReg, Reg, RegClass, RegFile, RegUse, Rnd, Space, Stage, SubOp, Ty,
};

// ---------------------------------------------------------------------------------------------
// Random functions
// ---------------------------------------------------------------------------------------------

struct Gen {
    rng: Rng,
    f: Function,
    /// Registers readable from the current point: (register, class).
    avail: Vec<(Reg, RegClass)>,
    /// Registers defined in the entry block (dominate every block).
    entry_defs: Vec<(Reg, RegClass)>,
}

const DATA_TYS: &[Ty] = &[Ty::U32, Ty::S32, Ty::B32, Ty::U64, Ty::S64, Ty::B64, Ty::F32, Ty::F64, Ty::U16];

impl Gen {
    fn phys_of(&mut self, class: RegClass) -> PhysReg {
        let usable = class.file.usable();
        let step = u16::from(class.align());
        let slots = (usable - u16::from(class.count)) / step + 1;
        let index = self.rng.below(slots as usize) as u16 * step;
        PhysReg { file: class.file, index, count: class.count }
    }

    /// A fresh destination register of `class`.
    fn def(&mut self, class: RegClass) -> Reg {
        if self.f.allocated {
            if self.rng.chance(5)
                && let Some(z) = PhysReg::zero(class.file)
            {
                return Reg::Phys(z);
            }
            Reg::Phys(self.phys_of(class))
        } else if !self.f.ssa && self.rng.chance(30) {
            // Non-SSA: sometimes redefine an existing register.
            let same: Vec<Reg> = self.avail.iter().filter(|(_, c)| *c == class).map(|x| x.0).collect();
            if same.is_empty() { Reg::Virt(self.f.new_vreg(class)) } else { self.rng.pick(&same) }
        } else {
            Reg::Virt(self.f.new_vreg(class))
        }
    }

    /// A register of `class` to read (`None` when SSA form has nothing of that class in reach
    /// and the file has no zero register).
    fn use_(&mut self, class: RegClass) -> Option<Reg> {
        if self.rng.chance(8)
            && let Some(z) = PhysReg::zero(class.file)
        {
            return Some(Reg::Phys(z));
        }
        if self.f.allocated {
            return Some(Reg::Phys(self.phys_of(class)));
        }
        let same: Vec<Reg> = self.avail.iter().filter(|(_, c)| *c == class).map(|x| x.0).collect();
        if !same.is_empty() && (self.f.ssa || self.rng.chance(85)) {
            return Some(self.rng.pick(&same));
        }
        if self.f.ssa {
            return PhysReg::zero(class.file).map(Reg::Phys);
        }
        Some(Reg::Virt(self.f.new_vreg(class)))
    }

    fn class_for(&mut self, want: Option<Want>, uniform: bool) -> Option<RegClass> {
        let file_d = if uniform { RegFile::UR } else { RegFile::R };
        let file_p = if uniform { RegFile::UP } else { RegFile::P };
        Some(match want? {
            Want::Data(n) => RegClass { file: file_d, count: n },
            Want::Pred => RegClass { file: file_p, count: 1 },
            Want::Barrier => RegClass { file: if uniform { RegFile::UB } else { RegFile::B }, count: 1 },
            Want::Any => {
                let c = self.rng.pick(&[RegClass::R32, RegClass::R64, RegClass::P]);
                if uniform { RegClass { file: c.file.uniform(), count: c.count } } else { c }
            }
        })
    }

    fn imm(&mut self) -> Imm {
        match self.rng.below(4) {
            0 => Imm::Int(self.rng.pick(&[0, 1, -1, 16, 4095, -4096, 0x10000, i64::MIN, i64::MAX])),
            1 => Imm::Int(self.rng.next() as i64),
            2 => Imm::F32(self.rng.next() as u32),
            _ => Imm::F64(self.rng.next()),
        }
    }

    fn mods_for(&mut self, op: Opcode) -> Mods {
        let info = op.info();
        let mut m = Mods::new();
        use ptxas_rs::ori::mods::ModSet as M;
        let al = info.allowed;
        let req = info.required;
        let want = |k: M, rng: &mut Rng| req.contains(k) || (al.contains(k) && rng.chance(40));
        if want(M::TY, &mut self.rng) {
            let logic = matches!(op, Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not | Opcode::Selp | Opcode::Mov);
            m.ty = Some(if logic && self.rng.chance(25) { Ty::Pred } else { self.rng.pick(DATA_TYS) });
        }
        if want(M::SRC_TY, &mut self.rng) {
            m.src_ty = Some(self.rng.pick(DATA_TYS));
        }
        if want(M::HALF, &mut self.rng) {
            let narrow = m.ty.or(info.default_ty).is_some_and(|t| t.bits() <= 32);
            m.half = Some(if narrow {
                self.rng.pick(&[Half::Lo, Half::Hi, Half::Wide])
            } else {
                self.rng.pick(&[Half::Lo, Half::Hi])
            });
        }
        if want(M::CMP, &mut self.rng) {
            m.cmp = Some(self.rng.pick(Cmp::ALL));
        }
        if want(M::RND, &mut self.rng) {
            m.rnd = Some(self.rng.pick(Rnd::ALL));
        }
        if want(M::BOP, &mut self.rng) {
            m.bop = Some(self.rng.pick(BoolOp::ALL));
        }
        if want(M::DIR, &mut self.rng) {
            m.dir = Some(self.rng.pick(Dir::ALL));
        }
        if want(M::MUFU, &mut self.rng) {
            m.mufu = Some(self.rng.pick(ori::Mufu::ALL));
        }
        if want(M::SUBOP, &mut self.rng) {
            m.sub = Some(self.rng.pick(subops_for(op)));
        }
        for &fl in Flag::ALL {
            if al.contains(M::of_flag(fl)) && self.rng.chance(30) {
                m.set(fl);
            }
        }
        m
    }

    fn want(&self, d: &InstData, kind: SlotKind) -> Option<Want> {
        let ty = d.mods.ty.or(d.opcode.info().default_ty);
        let sized = |t: Option<Ty>, wide: bool| {
            t.map(|t| {
                if t == Ty::Pred {
                    Want::Pred
                } else {
                    let n = t.regs();
                    Want::Data(if wide { n * 2 } else { n })
                }
            })
        };
        match kind {
            SlotKind::Ty => sized(ty, false),
            SlotKind::TyWide => sized(ty, d.mods.half == Some(Half::Wide)),
            SlotKind::SrcTy => sized(d.mods.src_ty, false),
            SlotKind::Word => Some(Want::Data(1)),
            SlotKind::Dword => Some(Want::Data(2)),
            SlotKind::Pred => Some(Want::Pred),
            SlotKind::Barrier => Some(Want::Barrier),
            SlotKind::Any => Some(Want::Any),
            _ => None,
        }
    }

    /// `PACKW t = s0..s(n-1)` or `UNPACKW d0..d(n-1) = t` on a wide tuple of 6, 12 or 32
    /// registers (the warpgroup MMA accumulators' classes).
    fn wide_join_split(&mut self, op: Opcode) -> Option<InstData> {
        let n = self.rng.pick(&[6u8, 12, 32]);
        let class = RegClass::wide(n)?;
        if op == Opcode::PACKW {
            let mut srcs = Vec::new();
            for _ in 0..n {
                srcs.push(Operand::reg(self.use_(RegClass::R32)?));
            }
            Some(InstData::new(op, Mods::new(), vec![self.def(class)], srcs))
        } else {
            let t = self.use_(class).filter(|t| !t.is_zero())?;
            let dsts = (0..n).map(|_| self.def(RegClass::R32)).collect();
            Some(InstData::new(op, Mods::new(), dsts, vec![Operand::reg(t)]))
        }
    }

    /// One random non-terminator instruction, or `None` if the opcode does not fit here.
    fn inst(&mut self, op: Opcode) -> Option<InstData> {
        let info = op.info();
        if info.is_terminator() || info.has(OpFlags::PHI) || info.has(OpFlags::CALL) {
            return None;
        }
        if self.f.sass && info.stage == Stage::Ptx {
            return None;
        }
        if matches!(op, Opcode::PACKW | Opcode::UNPACKW) {
            return self.wide_join_split(op);
        }
        let uniform = info.has(OpFlags::UNIFORM);
        let mut d = InstData::new(op, self.mods_for(op), Vec::new(), Vec::new());
        if d.mods.half == Some(Half::Wide) && d.mods.ty.or(info.default_ty).is_some_and(|t| t.bits() > 32) {
            return None;
        }
        // Sources.
        for slot in &info.srcs {
            let o = match slot.kind {
                SlotKind::Mem(space) => {
                    let space = space.unwrap_or_else(|| self.rng.pick(&Space::ALL));
                    let base = if self.rng.chance(80) {
                        let c = if self.rng.chance(50) { RegClass::R64 } else { RegClass::R32 };
                        let c = if uniform { RegClass { file: RegFile::UR, count: c.count } } else { c };
                        Some(self.use_(c)?)
                    } else {
                        None
                    };
                    let sym = self.rng.chance(20).then(|| "sym".to_string());
                    let offset = self.rng.pick(&[0i64, 4, -8, 0x10, 0x7fff_ffff, -0x8000_0000]);
                    Operand::Mem(MemRef { space, sym, base, offset })
                }
                SlotKind::Imm => Operand::Imm(Imm::Int(self.rng.below(256) as i64)),
                SlotKind::SReg => Operand::SReg(self.rng.pick(ori::SpecialReg::ALL)),
                SlotKind::Block | SlotKind::Func => return None,
                _ => {
                    let want = self.want(&d, slot.kind)?;
                    let pred = want == Want::Pred;
                    let roll = self.rng.below(10);
                    if slot.imm && !pred && roll == 0 {
                        Operand::Imm(self.imm())
                    } else if slot.cbank && !pred && roll <= 1 {
                        let index = if self.rng.chance(30) {
                            Some(self.use_(if uniform { RegClass::UR32 } else { RegClass::R32 })?)
                        } else {
                            None
                        };
                        Operand::CBank(CBank {
                            bank: self.rng.below(18) as u8,
                            index,
                            offset: self.rng.pick(&[0, 0x160, -4, 0x7ffc]),
                        })
                    } else if slot.sreg && !pred && roll <= 2 {
                        Operand::SReg(self.rng.pick(ori::SpecialReg::ALL))
                    } else if slot.reg {
                        let class = self.class_for(Some(want), uniform)?;
                        let r = self.use_(class)?;
                        let data = class.file.is_data();
                        Operand::Reg(RegUse {
                            reg: r,
                            neg: data && self.rng.chance(10),
                            abs: data && self.rng.chance(10),
                            not: self.rng.chance(10),
                        })
                    } else if slot.cbank && !pred {
                        Operand::CBank(CBank { bank: 0, index: None, offset: 0 })
                    } else {
                        return None;
                    }
                }
            };
            d.srcs.push(o);
        }
        // Destinations.
        for slot in &info.dsts {
            let want = self.want(&d, slot.kind)?;
            let class = self.class_for(Some(want), uniform)?;
            d.dsts.push(self.def(class));
        }
        if self.rng.chance(15) {
            let g = self.use_(if uniform { RegClass::UP } else { RegClass::P })?;
            d.guard = Some(Guard { reg: g, not: self.rng.chance(50) });
        }
        Some(d)
    }

    fn record_defs(&mut self, d: &InstData, in_entry: bool) {
        for &r in &d.dsts {
            if let Some(c) = self.f.reg_class(r)
                && !r.is_zero()
            {
                self.avail.push((r, c));
                if in_entry {
                    self.entry_defs.push((r, c));
                }
            }
        }
    }
}

/// The sub-operations that make sense for `op`.
fn subops_for(op: Opcode) -> &'static [SubOp] {
    use SubOp::*;
    match op {
        Opcode::PrmtP => &[F4e, B4e, Rc8, Ecl, Ecr, Rc16],
        Opcode::ShfP | Opcode::Bmsk => &[Wrap, Clamp],
        Opcode::Bfind => &[ShiftAmt],
        Opcode::Testp => &[Finite, Infinite, Number, NotANumber, Normal, Subnormal],
        Opcode::Cvta | Opcode::CvtaTo => &[SpShared, SpLocal],
        Opcode::Isspacep => &[SpGlobal, SpShared, SpLocal],
        Opcode::Atom => &[AddOp, MinOp, MaxOp, AndOp, OrOp, XorOp, Exch, Inc, Dec],
        Opcode::Shfl => &[Up, Down, Bfly, Idx],
        Opcode::Vote => &[All, Any, Uni],
        _ => &[AddOp, MinOp, MaxOp, AndOp, OrOp, XorOp],
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Want {
    Data(u8),
    Pred,
    Barrier,
    Any,
}

fn gen_function(seed: u64, nblocks: usize, ninst: usize, ssa: bool, sass: bool, allocated: bool) -> Function {
    let mut g =
        Gen { rng: Rng(seed | 1), f: Function::new("gen", FuncKind::Func), avail: Vec::new(), entry_defs: Vec::new() };
    g.f.ssa = ssa && !allocated;
    g.f.sass = sass;
    g.f.allocated = allocated;
    // Parameters.
    for _ in 0..g.rng.below(3) {
        let class = g.rng.pick(&[RegClass::R32, RegClass::R64, RegClass::P]);
        let r = if allocated { Reg::Phys(g.phys_of(class)) } else { Reg::Virt(g.f.new_vreg(class)) };
        if !g.f.params.contains(&r) {
            g.f.params.push(r);
            g.avail.push((r, class));
            g.entry_defs.push((r, class));
        }
    }
    let blocks: Vec<Block> = (0..nblocks).map(|_| g.f.new_block()).collect();
    let ops: Vec<Opcode> = Opcode::all().collect();
    for (bi, &b) in blocks.iter().enumerate() {
        if bi > 0 && g.f.ssa {
            g.avail = g.entry_defs.clone();
        }
        let mut made = 0;
        let mut tries = 0;
        while made < ninst && tries < ninst * 20 {
            tries += 1;
            let op = g.rng.pick(&ops);
            if let Some(d) = g.inst(op) {
                g.record_defs(&d, bi == 0);
                g.f.push_inst(b, d);
                made += 1;
            }
        }
        // Terminator.
        let last = bi + 1 == nblocks;
        let (bra, exit) = if sass { (Opcode::BRA, Opcode::EXIT) } else { (Opcode::Bra, Opcode::Exit) };
        let mut t = match g.rng.below(3) {
            0 => InstData::new(exit, Mods::new(), vec![], vec![]),
            _ => InstData::new(bra, Mods::new(), vec![], vec![Operand::Block(blocks[g.rng.below(nblocks)])]),
        };
        if !last
            && g.rng.chance(50)
            && let Some(p) = g.use_(RegClass::P)
        {
            t.guard = Some(Guard { reg: p, not: g.rng.chance(50) });
        }
        g.f.push_inst(b, t);
    }
    g.f
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn random_functions_verify_and_roundtrip(
        seed in any::<u64>(),
        nblocks in 1usize..6,
        ninst in 0usize..14,
        ssa in any::<bool>(),
        sass in any::<bool>(),
        allocated in prop::bool::weighted(0.25),
    ) {
        let f = gen_function(seed, nblocks, ninst, ssa, sass, allocated);
        let text = f.to_string();
        if let Err(e) = ori::verify_function(&f) {
            prop_assert!(false, "generated function does not verify:\n{e}\n{text}");
        }
        let g = ori::parse_function(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&g, &f, "reparsed function differs:\n{}", text);
        prop_assert_eq!(g.to_string(), text);
        prop_assert!(ori::verify_function(&g).is_ok());
    }

    #[test]
    fn parser_and_verifier_never_panic(text in "[ -~\n]{0,200}") {
        if let Ok(m) = ori::parse_module(&text) {
            let _ = ori::verify_module(&m);
            let _ = m.to_string();
        }
    }

    #[test]
    fn mutated_golden_never_panics(pos in 0usize..400, byte in 32u8..127) {
        let base = "func @f(%r0, %p1) -> (r32) ssa {\nbb0:\n    %r2 = add.u32 %r0, c[0x0][%r0+0x4]\n    @%p1 bra bb2\nbb1:\n    %r3 = ld.u32 global[$s+%r0-0x4]\n    ret %r3\nbb2:\n    R4:R5 = IMAD.WIDE %r2, 3, RZ\n    ret %r2\n}\n";
        let mut bytes = base.as_bytes().to_vec();
        let i = pos % bytes.len();
        bytes[i] = byte;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Ok(m) = ori::parse_module(&text) {
            let _ = ori::verify_module(&m);
            let printed = m.to_string();
            let again = ori::parse_module(&printed);
            prop_assert!(again.is_ok(), "printed form does not reparse:\n{printed}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Semantics against a separate reference
// ---------------------------------------------------------------------------------------------

fn edge_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => prop::sample::select(vec![0u32, 1, 2, 31, 32, 33, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFFE, 0x8000_0001]),
        2 => any::<u32>(),
    ]
}

fn edge_f32() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => prop::sample::select(vec![
            0u32, 0x8000_0000, 1, 0x8000_0001, 0x007F_FFFF, 0x0080_0000, 0x3F80_0000, 0xBF80_0000,
            0x7F7F_FFFF, 0xFF7F_FFFF, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x7F80_0001, 0xFFC1_2345,
            0x3400_0000, 0x3F80_0001, 0x4B80_0000, 0x3EFF_FFFF, 0x0040_0000,
        ]),
        2 => any::<u32>(),
        2 => (-1000.0f32..1000.0).prop_map(f32::to_bits),
    ]
}

fn edge_f64() -> impl Strategy<Value = u64> {
    prop_oneof![
        2 => prop::sample::select(vec![
            0u64, 1 << 63, 1, 0x000F_FFFF_FFFF_FFFF, 0x3FF0_0000_0000_0000, 0x7FEF_FFFF_FFFF_FFFF,
            0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000, 0x7FF8_0000_0000_0000, 0x7FF0_0000_0000_0001,
        ]),
        2 => any::<u64>(),
        2 => (-1e6f64..1e6).prop_map(f64::to_bits),
    ]
}

const CANON32: u32 = 0x7FFF_FFFF;

fn canon32(x: f32) -> u32 {
    if x.is_nan() { CANON32 } else { x.to_bits() }
}
/// An f64 result on the GPU (H200 goldens, `ori::float::nan_operand`): the first NaN among
/// `ops` (in the unit's priority order), quieted with sign and payload kept; else an invalid
/// operation's 0xfff8000000000000; else `r`.
fn gpu64(ops: &[u64], r: f64) -> u64 {
    match ops.iter().find(|&&o| f64::from_bits(o).is_nan()) {
        Some(n) => n | 1 << 51,
        None if r.is_nan() => 0xfff8_0000_0000_0000,
        None => r.to_bits(),
    }
}
fn ftz32(b: u32) -> u32 {
    if b & 0x7F80_0000 == 0 { b & 0x8000_0000 } else { b }
}

/// Reference directed rounding of the exact value `s + e` (`s = RN64(exact)`,
/// `|e| <= ulp(s)/2`, both finite) to f32, using only host f64/f32 operations and
/// comparisons with the two f32 neighbours of the exact value.
fn ref_round_f32(s: f64, e: f64, mode: Rnd) -> u32 {
    use std::cmp::Ordering::*;
    let big = 2f64.powi(128); // stands in for ±infinity in comparisons
    let to_f64 = |x: f32| if x.is_infinite() { big.copysign(f64::from(x)) } else { f64::from(x) };
    if s.abs() >= big {
        // Far beyond the largest finite f32: infinity, or the largest finite value when
        // rounding toward zero from that side.
        let to_inf = match mode {
            Rnd::Rz => false,
            Rnd::Rm => s < 0.0,
            Rnd::Rp => s > 0.0,
            _ => true,
        };
        let v = if to_inf { f32::INFINITY } else { f32::MAX };
        return v.copysign(s as f32).to_bits();
    }
    let r = s as f32;
    // Sign of (r - exact).
    let rd = to_f64(r);
    let cmp = if rd != s { rd.partial_cmp(&s).unwrap() } else { 0.0f64.partial_cmp(&e).unwrap() };
    if cmp == Equal {
        return r.to_bits();
    }
    let up = |x: f32| {
        if x == 0.0 {
            f32::from_bits(1)
        } else if x > 0.0 {
            f32::from_bits(x.to_bits() + 1)
        } else {
            f32::from_bits(x.to_bits() - 1)
        }
    };
    let down = |x: f32| -up(-x);
    let (lo, hi) = if cmp == Greater { (down(r), r) } else { (r, up(r)) };
    let positive = s > 0.0 || (s == 0.0 && e > 0.0);
    let pick = match mode {
        Rnd::Rz => {
            if positive {
                lo
            } else {
                hi
            }
        }
        Rnd::Rm => lo,
        Rnd::Rp => hi,
        _ => {
            let mid = (to_f64(lo) + to_f64(hi)) / 2.0;
            let c = if mid != s { s.partial_cmp(&mid).unwrap() } else { e.partial_cmp(&0.0).unwrap() };
            match c {
                Less => lo,
                Greater => hi,
                Equal => {
                    if lo.to_bits() & 1 == 0 {
                        lo
                    } else {
                        hi
                    }
                }
            }
        }
    };
    pick.to_bits()
}

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, if s.is_finite() { e } else { 0.0 })
}

/// Reference f32 add (op 0), mul (1) and fma (2) in any rounding mode.
fn ref_f32_directed(op: u8, a: u32, b: u32, c: u32, mode: Rnd) -> u32 {
    let (x, y, z) = (f64::from(f32::from_bits(a)), f64::from(f32::from_bits(b)), f64::from(f32::from_bits(c)));
    // Products of f32 values are exact in f64; two_sum makes sums exact as s + e.
    let (s, e, l, r) = match op {
        0 => (two_sum(x, y).0, two_sum(x, y).1, x, y),
        1 => (x * y, 0.0, x * y, 0.0),
        _ => (two_sum(x * y, z).0, two_sum(x * y, z).1, x * y, z),
    };
    if s.is_nan() {
        return CANON32;
    }
    if s.is_infinite() {
        return (s as f32).to_bits();
    }
    if s == 0.0 && e == 0.0 {
        // An exact zero: the sign of like-signed zeros; otherwise +0, or -0 rounding down.
        if op == 1 {
            return (a ^ b) & 0x8000_0000;
        }
        if l.is_sign_negative() == r.is_sign_negative() {
            return if l.is_sign_negative() { 0x8000_0000 } else { 0 };
        }
        return if mode == Rnd::Rm { 0x8000_0000 } else { 0 };
    }
    ref_round_f32(s, e, mode)
}

fn ev(op: Opcode, mods: Mods, args: &[Arg]) -> Vec<Val> {
    eval(op, &mods, args).unwrap_or_else(|e| panic!("{op}: {e}"))
}

fn bits(v: &[Val]) -> u64 {
    v[0].bits()
}

fn m(ty: Ty) -> Mods {
    Mods::ty(ty)
}

#[derive(Debug, Clone)]
enum IntOp {
    Add,
    Sub,
    MulLo,
    MulHiS,
    MulHiU,
    MulWideS,
    Shl,
    ShrS,
    ShrU,
    And,
    Or,
    Xor,
    MinS,
    MaxU,
    IAdd3Neg,
    Lop3(u8),
    DivS,
    RemU,
    Popc,
    Clz,
    Brev,
    SetpLtS,
    SetpHi,
    Add64,
    Mul64,
    Shf(bool, bool, bool),
    SatAdd,
    Bfe(bool),
    Bfi,
    Sad(bool),
    Addc,
    Subc,
    Bfind(bool, bool),
    Dp4a(bool, bool),
    PrmtMode(u8),
    ShfPtx(bool, bool),
}

fn int_op() -> impl Strategy<Value = IntOp> {
    prop_oneof![
        Just(IntOp::Add),
        Just(IntOp::Sub),
        Just(IntOp::MulLo),
        Just(IntOp::MulHiS),
        Just(IntOp::MulHiU),
        Just(IntOp::MulWideS),
        Just(IntOp::Shl),
        Just(IntOp::ShrS),
        Just(IntOp::ShrU),
        Just(IntOp::And),
        Just(IntOp::Or),
        Just(IntOp::Xor),
        Just(IntOp::MinS),
        Just(IntOp::MaxU),
        Just(IntOp::IAdd3Neg),
        any::<u8>().prop_map(IntOp::Lop3),
        Just(IntOp::DivS),
        Just(IntOp::RemU),
        Just(IntOp::Popc),
        Just(IntOp::Clz),
        Just(IntOp::Brev),
        Just(IntOp::SetpLtS),
        Just(IntOp::SetpHi),
        Just(IntOp::Add64),
        Just(IntOp::Mul64),
        (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(a, b, c)| IntOp::Shf(a, b, c)),
        Just(IntOp::SatAdd),
        any::<bool>().prop_map(IntOp::Bfe),
        Just(IntOp::Bfi),
        any::<bool>().prop_map(IntOp::Sad),
        Just(IntOp::Addc),
        Just(IntOp::Subc),
        (any::<bool>(), any::<bool>()).prop_map(|(a, b)| IntOp::Bfind(a, b)),
        (any::<bool>(), any::<bool>()).prop_map(|(a, b)| IntOp::Dp4a(a, b)),
        (0u8..6).prop_map(IntOp::PrmtMode),
        (any::<bool>(), any::<bool>()).prop_map(|(a, b)| IntOp::ShfPtx(a, b)),
    ]
}

/// Runs one integer op on a 4-register state through the semantics table and through the
/// reference; returns (ours, reference) for the written register.
fn int_step(op: &IntOp, a: u32, b: u32, c: u32) -> (u64, u64) {
    let (x, y, z) = (Arg::bits(u64::from(a)), Arg::bits(u64::from(b)), Arg::bits(u64::from(c)));
    let (sa, sb) = (a as i32, b as i32);
    let half = |h: Half, t: Ty| Mods { half: Some(h), ..m(t) };
    match op {
        IntOp::Add => (bits(&ev(Opcode::Add, m(Ty::U32), &[x, y])), u64::from(a.wrapping_add(b))),
        IntOp::Sub => (bits(&ev(Opcode::Sub, m(Ty::S32), &[x, y])), u64::from(a.wrapping_sub(b))),
        IntOp::MulLo => (bits(&ev(Opcode::Mul, half(Half::Lo, Ty::S32), &[x, y])), u64::from(a.wrapping_mul(b))),
        IntOp::MulHiS => (
            bits(&ev(Opcode::Mul, half(Half::Hi, Ty::S32), &[x, y])),
            u64::from(((i64::from(sa) * i64::from(sb)) >> 32) as u32),
        ),
        IntOp::MulHiU => (
            bits(&ev(Opcode::IMAD, half(Half::Hi, Ty::U32), &[x, y, Arg::bits(0)])),
            (u64::from(a) * u64::from(b)) >> 32,
        ),
        IntOp::MulWideS => (
            bits(&ev(Opcode::Mad, half(Half::Wide, Ty::S32), &[x, y, Arg::bits(u64::from(c) << 32 | u64::from(a))])),
            ((i64::from(sa) * i64::from(sb)) as u64).wrapping_add(u64::from(c) << 32 | u64::from(a)),
        ),
        IntOp::Shl => (bits(&ev(Opcode::Shl, m(Ty::B32), &[x, y])), if b >= 32 { 0 } else { u64::from(a << b) }),
        IntOp::ShrS => (bits(&ev(Opcode::Shr, m(Ty::S32), &[x, y])), u64::from((sa >> b.min(31)) as u32)),
        IntOp::ShrU => (bits(&ev(Opcode::Shr, m(Ty::U32), &[x, y])), if b >= 32 { 0 } else { u64::from(a >> b) }),
        IntOp::And => (bits(&ev(Opcode::And, m(Ty::B32), &[x, y])), u64::from(a & b)),
        IntOp::Or => (bits(&ev(Opcode::Or, m(Ty::B32), &[x, y])), u64::from(a | b)),
        IntOp::Xor => (bits(&ev(Opcode::Xor, m(Ty::B32), &[x, y])), u64::from(a ^ b)),
        IntOp::MinS => (bits(&ev(Opcode::Min, m(Ty::S32), &[x, y])), u64::from(sa.min(sb) as u32)),
        IntOp::MaxU => (bits(&ev(Opcode::IMNMX, m(Ty::U32), &[x, y, Arg::pred(false)])), u64::from(a.max(b))),
        IntOp::IAdd3Neg => {
            let ny = Arg { neg: true, ..y };
            let nz = Arg { not: true, ..z };
            (bits(&ev(Opcode::IADD3, Mods::new(), &[x, ny, nz])), u64::from(a.wrapping_sub(b).wrapping_add(!c)))
        }
        IntOp::Lop3(lut) => {
            let mut r = 0u32;
            for i in 0..32 {
                let idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
                r |= (u32::from(*lut) >> idx & 1) << i;
            }
            (bits(&ev(Opcode::LOP3, Mods::new(), &[x, y, z, Arg::bits(u64::from(*lut))])), u64::from(r))
        }
        IntOp::DivS => {
            let r = if sb == 0 { -1 } else { sa.wrapping_div(sb) };
            (bits(&ev(Opcode::Div, m(Ty::S32), &[x, y])), u64::from(r as u32))
        }
        IntOp::RemU => (bits(&ev(Opcode::Rem, m(Ty::U32), &[x, y])), u64::from(if b == 0 { a } else { a % b })),
        IntOp::Popc => (bits(&ev(Opcode::Popc, m(Ty::B32), &[x])), u64::from(a.count_ones())),
        IntOp::Clz => (bits(&ev(Opcode::Clz, m(Ty::B32), &[x])), u64::from(a.leading_zeros())),
        IntOp::Brev => (bits(&ev(Opcode::BREV, Mods::new(), &[x])), u64::from(a.reverse_bits())),
        IntOp::SetpLtS => {
            let md = Mods { cmp: Some(Cmp::Lt), ..m(Ty::S32) };
            (u64::from(ev(Opcode::Setp, md, &[x, y])[0].pred()), u64::from(sa < sb))
        }
        IntOp::SetpHi => {
            let md = Mods { cmp: Some(Cmp::Hi), bop: Some(BoolOp::Xor), ..Mods::new() };
            let r = ev(Opcode::ISETP, md, &[x, y, Arg::pred(c & 1 == 1)]);
            let want = (a > b) != (c & 1 == 1);
            let want2 = (a <= b) != (c & 1 == 1);
            (u64::from(r[0].pred()) | u64::from(r[1].pred()) << 1, u64::from(want) | u64::from(want2) << 1)
        }
        IntOp::Add64 => {
            let (p, q) = (u64::from(a) << 32 | u64::from(c), u64::from(b) << 32 | u64::from(a));
            (bits(&ev(Opcode::Add, m(Ty::S64), &[Arg::bits(p), Arg::bits(q)])), p.wrapping_add(q))
        }
        IntOp::Mul64 => {
            let (p, q) = (u64::from(a) << 32 | u64::from(c), u64::from(b) << 32 | u64::from(a));
            (
                bits(&ev(Opcode::Mul, half(Half::Hi, Ty::U64), &[Arg::bits(p), Arg::bits(q)])),
                ((u128::from(p) * u128::from(q)) >> 64) as u64,
            )
        }
        IntOp::Shf(left, signed, hiw) => {
            let ty = if *signed { Ty::S32 } else { Ty::U32 };
            let mut md = Mods { dir: Some(if *left { Dir::L } else { Dir::R }), ..m(ty) };
            if *hiw {
                md.set(Flag::HiWord);
            }
            let s = b % 40;
            let v = u64::from(c) << 32 | u64::from(a);
            let s = s.min(32);
            let r = if *left {
                if s >= 64 { 0 } else { v << s }
            } else if *signed {
                ((v as i64) >> s) as u64
            } else {
                v >> s
            };
            let want = if *hiw { r >> 32 } else { r & 0xFFFF_FFFF };
            (bits(&ev(Opcode::SHF, md, &[x, Arg::bits(u64::from(b % 40)), z])), want)
        }
        IntOp::SatAdd => {
            let mut md = m(Ty::S32);
            md.set(Flag::Sat);
            (bits(&ev(Opcode::Add, md, &[x, y])), u64::from(sa.saturating_add(sb) as u32))
        }
        IntOp::Bfe(signed) => {
            // Position and length from the low bytes of b and c, edge-biased toward 32.
            let (pos, len) = (b & 0x3f, c & 0x3f);
            let ty = if *signed { Ty::S32 } else { Ty::U32 };
            let got = bits(&ev(Opcode::Bfe, m(ty), &[x, Arg::bits(u64::from(pos)), Arg::bits(u64::from(len))]));
            let want = if len == 0 {
                0
            } else {
                let field = if pos >= 32 { 0 } else { u64::from(a) >> pos };
                let valid = len.min(32 - pos.min(32));
                let keep = if valid >= 64 { u64::MAX } else { (1u64 << valid) - 1 };
                let mut d = field & keep;
                let sbit = u64::from(a) >> (pos + len - 1).min(31) & 1;
                if *signed && sbit == 1 {
                    d |= !keep;
                }
                d & 0xFFFF_FFFF
            };
            (got, want)
        }
        IntOp::Bfi => {
            let (pos, len) = (c & 0x3f, (c >> 8) & 0x3f);
            let got = bits(&ev(Opcode::Bfi, m(Ty::B32), &[x, y, Arg::bits(u64::from(pos)), Arg::bits(u64::from(len))]));
            let want = if pos >= 32 {
                u64::from(b)
            } else {
                let n = len.min(32 - pos);
                let mk = (((1u64 << n) - 1) << pos) as u32;
                u64::from((b & !mk) | ((a << pos) & mk))
            };
            (got, want)
        }
        IntOp::Sad(signed) => {
            let ty = if *signed { Ty::S32 } else { Ty::U32 };
            let d = if *signed { (i64::from(sa) - i64::from(sb)).unsigned_abs() as u32 } else { a.abs_diff(b) };
            (bits(&ev(Opcode::Sad, m(ty), &[x, y, z])), u64::from(d.wrapping_add(c)))
        }
        IntOp::Addc => {
            let cin = c & 1 == 1;
            let r = ev(Opcode::Addc, m(Ty::U32), &[x, y, Arg::pred(cin)]);
            let (s1, o1) = a.overflowing_add(b);
            let (s2, o2) = s1.overflowing_add(u32::from(cin));
            (r[0].bits() | u64::from(r[1].pred()) << 32, u64::from(s2) | u64::from(o1 || o2) << 32)
        }
        IntOp::Subc => {
            // CC.CF is a carry after a subtraction too (1 = no borrow): a - b - !cin, carry out
            // = no borrow.
            let cin = c & 1 == 1;
            let r = ev(Opcode::Subc, m(Ty::U32), &[x, y, Arg::pred(cin)]);
            let (s1, o1) = a.overflowing_sub(b);
            let (s2, o2) = s1.overflowing_sub(u32::from(!cin));
            (r[0].bits() | u64::from(r[1].pred()) << 32, u64::from(s2) | u64::from(!(o1 || o2)) << 32)
        }
        IntOp::Bfind(signed, shiftamt) => {
            let ty = if *signed { Ty::S32 } else { Ty::U32 };
            let md = Mods { sub: shiftamt.then_some(SubOp::ShiftAmt), ..m(ty) };
            let v = if *signed && sa < 0 { !a } else { a };
            let want = if v == 0 {
                0xFFFF_FFFF
            } else if *shiftamt {
                u64::from(v.leading_zeros())
            } else {
                u64::from(31 - v.leading_zeros())
            };
            (bits(&ev(Opcode::Bfind, md, &[x])), want)
        }
        IntOp::Dp4a(sa_, sb_) => {
            let (ta, tb) = (if *sa_ { Ty::S32 } else { Ty::U32 }, if *sb_ { Ty::S32 } else { Ty::U32 });
            let md = Mods { src_ty: Some(tb), ..m(ta) };
            let byte = |v: u32, i: u32, s: bool| -> i32 {
                let x = (v >> (8 * i)) as u8;
                if s { i32::from(x as i8) } else { i32::from(x) }
            };
            let mut acc = c as i32;
            for i in 0..4 {
                acc = acc.wrapping_add(byte(a, i, *sa_).wrapping_mul(byte(b, i, *sb_)));
            }
            (bits(&ev(Opcode::Dp4a, md, &[x, y, z])), u64::from(acc as u32))
        }
        IntOp::PrmtMode(k) => {
            let modes = [SubOp::F4e, SubOp::B4e, SubOp::Rc8, SubOp::Ecl, SubOp::Ecr, SubOp::Rc16];
            let md = Mods { sub: Some(modes[*k as usize]), ..m(Ty::B32) };
            let bytes: [u8; 8] = (u64::from(c) << 32 | u64::from(a)).to_le_bytes();
            let s = (b & 3) as usize;
            // The PTX ISA's byte tables for the special modes.
            let sel: [usize; 4] = match k {
                0 => [s, s + 1, s + 2, s + 3],
                1 => [s, (s + 7) % 8, (s + 6) % 8, (s + 5) % 8],
                2 => [s, s, s, s],
                3 => [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]][s],
                4 => [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]][s],
                _ => [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]][s],
            };
            let want = u32::from_le_bytes(sel.map(|i| bytes[i]));
            (bits(&ev(Opcode::PrmtP, md, &[x, y, z])), u64::from(want))
        }
        IntOp::ShfPtx(left, clamp) => {
            let md = Mods {
                dir: Some(if *left { Dir::L } else { Dir::R }),
                sub: Some(if *clamp { SubOp::Clamp } else { SubOp::Wrap }),
                ..m(Ty::B32)
            };
            let n = b % 48;
            let n = if *clamp { n.min(32) } else { n % 32 };
            let v = u64::from(c) << 32 | u64::from(a);
            let want = if *left { (v << n) >> 32 } else { (v >> n) & 0xFFFF_FFFF } & 0xFFFF_FFFF;
            (bits(&ev(Opcode::ShfP, md, &[x, z, Arg::bits(u64::from(b % 48))])), want)
        }
    }
}

#[derive(Debug, Clone)]
enum FloatOp {
    Add(bool),
    Sub,
    Mul(bool),
    Fma,
    Min,
    Max,
    Abs,
    Neg,
    Directed(u8, Rnd),
    Div(Rnd),
    Sqrt,
    Setp(Cmp),
    F2I(Rnd),
    I2F,
    F2F64,
    Sat,
}

fn float_op() -> impl Strategy<Value = FloatOp> {
    let rnd = prop::sample::select(vec![Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp]);
    let irnd = prop::sample::select(vec![Rnd::Rni, Rnd::Rzi, Rnd::Rmi, Rnd::Rpi]);
    prop_oneof![
        any::<bool>().prop_map(FloatOp::Add),
        Just(FloatOp::Sub),
        any::<bool>().prop_map(FloatOp::Mul),
        Just(FloatOp::Fma),
        Just(FloatOp::Min),
        Just(FloatOp::Max),
        Just(FloatOp::Abs),
        Just(FloatOp::Neg),
        (0u8..3, rnd.clone()).prop_map(|(o, r)| FloatOp::Directed(o, r)),
        (0u8..3, rnd.clone()).prop_map(|(o, r)| FloatOp::Directed(o, r)),
        (0u8..3, rnd).prop_map(|(o, r)| FloatOp::Directed(o, r)),
        Just(FloatOp::Div(Rnd::Rn)),
        Just(FloatOp::Sqrt),
        prop::sample::select(Cmp::ALL.to_vec()).prop_map(FloatOp::Setp),
        irnd.prop_map(FloatOp::F2I),
        Just(FloatOp::I2F),
        Just(FloatOp::F2F64),
        Just(FloatOp::Sat),
    ]
}

fn float_step(op: &FloatOp, a: u32, b: u32, c: u32) -> (u64, u64) {
    let (x, y, z) = (Arg::bits(u64::from(a)), Arg::bits(u64::from(b)), Arg::bits(u64::from(c)));
    let (fa, fb, fc) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
    let ftz_m = |ftz: bool, rnd: Option<Rnd>| {
        let mut md = Mods { rnd, ..m(Ty::F32) };
        if ftz {
            md.set(Flag::Ftz);
        }
        md
    };
    match op {
        FloatOp::Add(ftz) => {
            let want = if *ftz {
                ftz32(canon32(f32::from_bits(ftz32(a)) + f32::from_bits(ftz32(b))))
            } else {
                canon32(fa + fb)
            };
            (bits(&ev(Opcode::FADD, ftz_m(*ftz, None), &[x, y])), u64::from(want))
        }
        FloatOp::Sub => (bits(&ev(Opcode::Sub, ftz_m(false, Some(Rnd::Rn)), &[x, y])), u64::from(canon32(fa - fb))),
        FloatOp::Mul(ftz) => {
            let want = if *ftz {
                ftz32(canon32(f32::from_bits(ftz32(a)) * f32::from_bits(ftz32(b))))
            } else {
                canon32(fa * fb)
            };
            (bits(&ev(Opcode::Mul, ftz_m(*ftz, None), &[x, y])), u64::from(want))
        }
        FloatOp::Fma => (bits(&ev(Opcode::FFMA, Mods::new(), &[x, y, z])), u64::from(canon32(fa.mul_add(fb, fc)))),
        FloatOp::Min | FloatOp::Max => {
            let is_min = matches!(op, FloatOp::Min);
            let want = match (fa.is_nan(), fb.is_nan()) {
                (true, true) => CANON32,
                (true, false) => b,
                (false, true) => a,
                _ if fa == fb => {
                    // ±0: min prefers the negative one, max the positive.
                    let neg_a = a & 0x8000_0000 != 0;
                    if neg_a == is_min { a } else { b }
                }
                _ => {
                    if (fa < fb) == is_min {
                        a
                    } else {
                        b
                    }
                }
            };
            let opc = if is_min { Opcode::Min } else { Opcode::Max };
            (bits(&ev(opc, m(Ty::F32), &[x, y])), u64::from(want))
        }
        // ptxas emits `FADD |x|, -RZ` / `FADD -x, -RZ`: a NaN comes out canonical.
        FloatOp::Abs => (bits(&ev(Opcode::Abs, m(Ty::F32), &[x])), u64::from(canon32(f32::from_bits(a & 0x7FFF_FFFF)))),
        FloatOp::Neg => (bits(&ev(Opcode::Neg, m(Ty::F32), &[x])), u64::from(canon32(f32::from_bits(a ^ 0x8000_0000)))),
        FloatOp::Directed(o, r) => {
            let opc = [Opcode::Add, Opcode::Mul, Opcode::Fma][*o as usize];
            let args: &[Arg] = if *o == 2 { &[x, y, z] } else { &[x, y] };
            (bits(&ev(opc, ftz_m(false, Some(*r)), args)), u64::from(ref_f32_directed(*o, a, b, c, *r)))
        }
        FloatOp::Div(r) => {
            // RN division via f64 is innocuous double rounding for f32 operands.
            let want = canon32((f64::from(fa) / f64::from(fb)) as f32);
            (bits(&ev(Opcode::Div, ftz_m(false, Some(*r)), &[x, y])), u64::from(want))
        }
        FloatOp::Sqrt => {
            let got = ptxas_rs::ori::float::sqrt(ptxas_rs::ori::float::F32, u64::from(a), Rnd::Rn);
            (got, u64::from(canon32(fa.sqrt())))
        }
        FloatOp::Setp(cmp) => {
            let md = Mods { cmp: Some(*cmp), ..m(Ty::F32) };
            let o = fa.partial_cmp(&fb);
            use std::cmp::Ordering::*;
            let want = match cmp {
                Cmp::Eq => o == Some(Equal),
                Cmp::Ne => o.is_some() && o != Some(Equal),
                Cmp::Lt | Cmp::Lo => o == Some(Less),
                Cmp::Le | Cmp::Ls => o == Some(Less) || o == Some(Equal),
                Cmp::Gt | Cmp::Hi => o == Some(Greater),
                Cmp::Ge | Cmp::Hs => o == Some(Greater) || o == Some(Equal),
                Cmp::Equ => o.is_none() || o == Some(Equal),
                Cmp::Neu => o != Some(Equal),
                Cmp::Ltu => o.is_none() || o == Some(Less),
                Cmp::Leu => o != Some(Greater),
                Cmp::Gtu => o.is_none() || o == Some(Greater),
                Cmp::Geu => o != Some(Less),
                Cmp::Num => o.is_some(),
                Cmp::Nan => o.is_none(),
            };
            (u64::from(ev(Opcode::Setp, md, &[x, y])[0].pred()), u64::from(want))
        }
        FloatOp::F2I(r) => {
            let md = Mods { rnd: Some(*r), src_ty: Some(Ty::F32), ..m(Ty::S32) };
            let rounded = match r {
                Rnd::Rni => fa.round_ties_even(),
                Rnd::Rzi => fa.trunc(),
                Rnd::Rmi => fa.floor(),
                _ => fa.ceil(),
            };
            // Rust's `as` saturates and maps NaN to 0, as PTX cvt does.
            (bits(&ev(Opcode::Cvt, md, &[x])), u64::from(rounded as i32 as u32))
        }
        FloatOp::I2F => {
            let md = Mods { rnd: Some(Rnd::Rn), src_ty: Some(Ty::S32), ..m(Ty::F32) };
            (bits(&ev(Opcode::I2F, md, &[x])), u64::from((a as i32 as f32).to_bits()))
        }
        FloatOp::F2F64 => {
            let md = Mods { src_ty: Some(Ty::F32), ..m(Ty::F64) };
            // A NaN keeps its sign and payload, quieted (golden of cvt_f64_f32).
            let want = if fa.is_nan() { f64::from(fa).to_bits() | 1 << 51 } else { f64::from(fa).to_bits() };
            (bits(&ev(Opcode::F2F, md, &[x])), want)
        }
        FloatOp::Sat => {
            let mut md = m(Ty::F32);
            md.set(Flag::Sat);
            let s = fa + fb;
            let want = if s.is_nan() { 0.0f32 } else { s.clamp(0.0, 1.0) };
            // clamp keeps -0.0 as -0.0; saturation gives +0.
            let want = if want == 0.0 { 0.0 } else { want };
            (bits(&ev(Opcode::Add, md, &[x, y])), u64::from(want.to_bits()))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn integer_sequences_match_reference(
        init in prop::array::uniform4(edge_u32()),
        ops in prop::collection::vec((int_op(), 0usize..4, 0usize..4, 0usize..4, 0usize..4), 1..24),
    ) {
        let mut regs = init;
        for (op, d, s1, s2, s3) in ops {
            let (got, want) = int_step(&op, regs[s1], regs[s2], regs[s3]);
            prop_assert_eq!(got, want, "{:?} on {:#x}, {:#x}, {:#x}", op, regs[s1], regs[s2], regs[s3]);
            regs[d] = got as u32;
        }
    }

    #[test]
    fn float_sequences_match_reference(
        init in prop::array::uniform4(edge_f32()),
        ops in prop::collection::vec((float_op(), 0usize..4, 0usize..4, 0usize..4, 0usize..4), 1..24),
    ) {
        let mut regs = init;
        for (op, d, s1, s2, s3) in ops {
            let (got, want) = float_step(&op, regs[s1], regs[s2], regs[s3]);
            prop_assert_eq!(got, want, "{:?} on {:#010x}, {:#010x}, {:#010x}", op, regs[s1], regs[s2], regs[s3]);
            regs[d] = got as u32;
        }
    }

    #[test]
    fn f64_ops_match_host(a in edge_f64(), b in edge_f64(), c in edge_f64()) {
        let (x, y, z) = (Arg::bits(a), Arg::bits(b), Arg::bits(c));
        let (fa, fb, fc) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        // SASS slots: B's NaN, then C's, then A's.
        prop_assert_eq!(bits(&ev(Opcode::DADD, Mods::new(), &[x, y])), gpu64(&[b, a], fa + fb));
        prop_assert_eq!(bits(&ev(Opcode::DMUL, Mods::new(), &[x, y])), gpu64(&[b, a], fa * fb));
        prop_assert_eq!(bits(&ev(Opcode::DFMA, Mods::new(), &[x, y, z])), gpu64(&[b, c, a], fa.mul_add(fb, fc)));
        prop_assert_eq!(bits(&ev(Opcode::Div, Mods { rnd: Some(Rnd::Rn), ..m(Ty::F64) }, &[x, y])), gpu64(&[a, b], fa / fb));
        let md = Mods { rnd: Some(Rnd::Rn), src_ty: Some(Ty::F64), ..m(Ty::F32) };
        // f64 -> f32 of a NaN: sign and the top of the payload, quieted (golden of cvt_f64_f32).
        let want = if fa.is_nan() { (((a >> 32) as u32 & 0x8000_0000) | 0x7fc0_0000 | ((a >> 29) as u32 & 0x003f_ffff)).into() } else { u64::from((fa as f32).to_bits()) };
        prop_assert_eq!(bits(&ev(Opcode::Cvt, md, &[x])), want);
        let md = Mods { rnd: Some(Rnd::Rn), src_ty: Some(Ty::S64), ..m(Ty::F64) };
        prop_assert_eq!(bits(&ev(Opcode::Cvt, md, &[x])), (a as i64 as f64).to_bits());
        let md = Mods { rnd: Some(Rnd::Rzi), src_ty: Some(Ty::F64), ..m(Ty::U64) };
        // NaN: the destination's sign bit (golden of cvt_f2ll_round: F2I.U64 without .NTZ).
        prop_assert_eq!(bits(&ev(Opcode::Cvt, md, &[x])), if fa.is_nan() { 1 << 63 } else { fa.trunc() as u64 });
    }

    #[test]
    fn f64_directed_add_brackets_host(a in edge_f64(), b in edge_f64()) {
        // rm <= exact <= rp, with rn one of the two and rz the one toward zero.
        let (fa, fb) = (f64::from_bits(a), f64::from_bits(b));
        let r = |mode| f64::from_bits(bits(&ev(Opcode::DADD, Mods { rnd: Some(mode), ..Mods::new() }, &[Arg::bits(a), Arg::bits(b)])));
        let (rn, rz, rm, rp) = (r(Rnd::Rn), r(Rnd::Rz), r(Rnd::Rm), r(Rnd::Rp));
        let s = fa + fb;
        if s.is_finite() {
            let (_, e) = two_sum(fa, fb);
            prop_assert_eq!(rn.to_bits(), s.to_bits());
            if e == 0.0 {
                prop_assert!(rm == s && rp == s && rz == s);
            } else {
                let (lo, hi) = if e > 0.0 { (s, s.next_up()) } else { (s.next_down(), s) };
                prop_assert_eq!(rm, lo);
                prop_assert_eq!(rp, hi);
                prop_assert_eq!(rz, if lo >= 0.0 { lo } else { hi });
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// min.NaN / max.NaN against a reference on decoded values
// ---------------------------------------------------------------------------------------------

/// An f16 or bf16 value, exactly, decoded from its bits here (bf16 is the top half of an f32;
/// f16 by its fields); `None` for a NaN.
fn half_value(h: u16, bf16: bool) -> Option<f64> {
    if bf16 {
        let x = f32::from_bits(u32::from(h) << 16);
        return (!x.is_nan()).then_some(f64::from(x));
    }
    let (neg, exp, frac) = (h & 0x8000 != 0, (h >> 10) & 0x1f, f64::from(h & 0x3ff));
    let mag = match exp {
        0x1f if frac != 0.0 => return None,
        0x1f => f64::INFINITY,
        0 => frac * 2f64.powi(-24),
        e => (1024.0 + frac) * 2f64.powi(i32::from(e) - 25),
    };
    Some(if neg { -mag } else { mag })
}

/// The PTX `min.NaN`/`max.NaN` of `a` and `b` (bit patterns of one format, `value` decodes
/// them, `None` for NaN): the canonical NaN `canon` when either is a NaN, else the smaller
/// (`min`) or larger operand with `-0 < +0`. `flush` is `.ftz`'s input flush.
fn ref_minmax_nan(
    a: u64,
    b: u64,
    min: bool,
    canon: u64,
    flush: impl Fn(u64) -> u64,
    value: impl Fn(u64) -> Option<f64>,
) -> u64 {
    let (a, b) = (flush(a), flush(b));
    let (Some(x), Some(y)) = (value(a), value(b)) else { return canon };
    let a_less = x < y || (x == y && x.is_sign_negative() && !y.is_sign_negative());
    if a_less == min { a } else { b }
}

fn edge_half() -> impl Strategy<Value = u16> {
    prop_oneof![
        // f16 and bf16 zeros, ones, extremes, infinities, NaNs (quiet, signalling, negative,
        // all ones), denormals.
        3 => prop::sample::select(vec![
            0u16, 0x8000, 0x3c00, 0xbc00, 0xfbff, 0x7bff, 0x7e00, 0x7c00, 0xfc00, 0x0001, 0xffff, 0x0400, 0x03ff,
            0x8001, 0x7c01, 0xfe01, 0x3f80, 0xbf80, 0xff7f, 0x7f7f, 0x7fc0, 0x7f80, 0xff80, 0x0080, 0x007f, 0x7f81,
            0xffc1,
        ]),
        2 => any::<u16>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// `min.NaN.f32`/`max.NaN.f32` (PTX stage) and `FMNMX.NAN` (SASS stage; the predicate picks
    /// min), with and without `.ftz`.
    #[test]
    fn min_max_nan_f32_match_reference(a in edge_f32(), b in edge_f32(), ftz in any::<bool>()) {
        let flush = |v: u64| if ftz { u64::from(ftz32(v as u32)) } else { v };
        let value = |v: u64| {
            let x = f32::from_bits(v as u32);
            (!x.is_nan()).then_some(f64::from(x))
        };
        let mut flags = vec![Flag::NaN];
        if ftz {
            flags.insert(0, Flag::Ftz);
        }
        for min in [true, false] {
            let want = ref_minmax_nan(u64::from(a), u64::from(b), min, u64::from(CANON32), flush, value);
            let (x, y) = (Arg::bits(u64::from(a)), Arg::bits(u64::from(b)));
            let md = Mods { flags: flags.clone(), ..m(Ty::F32) };
            let ptx = bits(&ev(if min { Opcode::Min } else { Opcode::Max }, md, &[x, y]));
            prop_assert_eq!(ptx, want, "min={} ftz={} {:#010x} {:#010x}", min, ftz, a, b);
            let sass = bits(&ev(Opcode::FMNMX, Mods { flags: flags.clone(), ..Mods::new() }, &[x, y, Arg::pred(min)]));
            prop_assert_eq!(sass, want, "FMNMX min={} ftz={} {:#010x} {:#010x}", min, ftz, a, b);
        }
    }

    /// `min.NaN`/`max.NaN` on f16 and bf16 (`.ftz`: f16 only, as in PTX), scalar and packed
    /// (`.f16x2`, `.bf16x2`: each half on its own), and `HMNMX2.NAN` typed like them.
    #[test]
    fn min_max_nan_halves_match_reference(
        a in prop::array::uniform2(edge_half()),
        b in prop::array::uniform2(edge_half()),
        bf16 in any::<bool>(),
        ftz in any::<bool>(),
    ) {
        let ftz = ftz && !bf16;
        let exp_mask = if bf16 { 0x7f80 } else { 0x7c00 };
        let flush = |v: u64| if ftz && v & exp_mask == 0 { v & 0x8000 } else { v };
        let value = |v: u64| half_value(v as u16, bf16);
        let (scalar, pair) = if bf16 { (Ty::BF16, Ty::BF16x2) } else { (Ty::F16, Ty::F16x2) };
        let mut flags = vec![Flag::NaN];
        if ftz {
            flags.insert(0, Flag::Ftz);
        }
        let pack = |h: [u16; 2]| u64::from(h[0]) | u64::from(h[1]) << 16;
        let (pa, pb) = (Arg::bits(pack(a)), Arg::bits(pack(b)));
        for min in [true, false] {
            let want: Vec<u64> =
                (0..2).map(|k| ref_minmax_nan(u64::from(a[k]), u64::from(b[k]), min, 0x7fff, flush, value)).collect();
            let opc = if min { Opcode::Min } else { Opcode::Max };
            let lo = bits(&ev(opc, Mods { flags: flags.clone(), ..m(scalar) }, &[Arg::bits(u64::from(a[0])), Arg::bits(u64::from(b[0]))]));
            prop_assert_eq!(lo, want[0], "{} min={} ftz={} {:#06x} {:#06x}", scalar, min, ftz, a[0], b[0]);
            let want2 = want[0] | want[1] << 16;
            let x2 = bits(&ev(opc, Mods { flags: flags.clone(), ..m(pair) }, &[pa, pb]));
            prop_assert_eq!(x2, want2, "{} min={} ftz={} {:?} {:?}", pair, min, ftz, a, b);
            let sass = bits(&ev(Opcode::HMNMX2, Mods { flags: flags.clone(), ..m(pair) }, &[pa, pb, Arg::pred(min)]));
            prop_assert_eq!(sass, want2, "HMNMX2 {} min={} ftz={} {:?} {:?}", pair, min, ftz, a, b);
        }
    }
}

#[test]
fn semantics_table_rejects_impure_and_unmodelled_ops() {
    use ptxas_rs::ori::semantics::EvalError;
    assert_eq!(eval(Opcode::Bra, &Mods::new(), &[]), Err(EvalError::NotPure(Opcode::Bra)));
    assert!(matches!(eval(Opcode::MUFU, &Mods::new(), &[Arg::bits(0)]), Err(EvalError::BadOperands(_))));
    assert!(matches!(eval(Opcode::Rem, &m(Ty::F32), &[Arg::bits(0), Arg::bits(0)]), Err(EvalError::Unsupported(_))));
    assert!(matches!(eval(Opcode::Atom, &m(Ty::U32), &[Arg::bits(0), Arg::bits(0)]), Err(EvalError::NotPure(_))));
    assert!(matches!(eval(Opcode::Add, &m(Ty::U32), &[Arg::bits(0)]), Err(EvalError::BadOperands(_))));
}

#[test]
fn generator_covers_the_opcode_table() {
    // Guards against a generator that silently degenerates to empty functions.
    let mut seen = std::collections::BTreeSet::new();
    let mut total = 0;
    for seed in 0..200u64 {
        let f = gen_function(
            seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            4,
            12,
            seed % 2 == 0,
            seed % 3 == 0,
            seed % 5 == 0,
        );
        ori::verify_function(&f).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{f}"));
        for (_, i) in f.inst_order() {
            seen.insert(f.insts[i].opcode);
            total += 1;
        }
    }
    assert!(total > 5000, "only {total} instructions generated");
    let pure = Opcode::all()
        .filter(|o| !o.info().is_terminator() && !o.info().has(OpFlags::PHI) && !o.info().has(OpFlags::CALL))
        .count();
    assert!(seen.len() + 4 >= pure, "generator reached {} of {pure} opcodes: {seen:?}", seen.len());
}

/// f32 `abs`/`neg` of a NaN give the canonical NaN: ptxas selects `FADD |x|, -RZ`,
/// `FADD -|y|, -RZ` for them (f32_minmax_sign elements 26 and 52: `abs(0x7f800001)` and
/// `-abs(0xffc00000)` are `0x7fffffff` on the GPU); f64's `DADD -RZ, |x|` keeps the NaN,
/// quieted, sign included (`ori::float`'s rule for DADD).
#[test]
fn abs_neg_of_nan() {
    let f = |op, ty, v: u64| bits(&ev(op, m(ty), &[Arg::bits(v)]));
    assert_eq!(f(Opcode::Abs, Ty::F32, 0x7f80_0001), 0x7fff_ffff);
    assert_eq!(f(Opcode::Neg, Ty::F32, 0x7fc0_0000), 0x7fff_ffff);
    assert_eq!(f(Opcode::Neg, Ty::F32, 0xffc0_0000), 0x7fff_ffff);
    assert_eq!(f(Opcode::Abs, Ty::F64, 0xfff8_0000_0000_0001), 0xfff8_0000_0000_0001);
    assert_eq!(f(Opcode::Neg, Ty::F64, 0x7ff0_0000_0000_0001), 0x7ff8_0000_0000_0001);
    assert_eq!(f(Opcode::Neg, Ty::F32, 0xff80_0000), 0x7f80_0000);
    assert_eq!(f(Opcode::Abs, Ty::F32, 0x8000_0001), 0x0000_0001);
}
