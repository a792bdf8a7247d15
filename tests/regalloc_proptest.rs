//! Register allocation on random well-typed Ori functions of every opcode and register file
//! (R, UR, P, UP, B, UB; single registers, pairs and quads), straight-line and branching, SSA
//! or not, PTX-stage or SASS-stage (the generator of `ori_proptest.rs`, copied): allocation
//! either succeeds, and then the independent checker accepts the result, the verifier accepts
//! it, every tuple is aligned (pairs even, quads on multiples of 4) and inside the budget;
//! or it fails with a clean error. It never panics.

mod common;

use common::Rng;
use proptest::prelude::*;
use ptxas_rs::ori::opcode::{OpFlags, SlotKind};
use ptxas_rs::ori::{
    self, Block, BoolOp, CBank, Cmp, Dir, Flag, FuncKind, Function, Guard, Half, Imm, InstData, MemRef, Mods, Opcode,
    Operand, PhysReg, Reg, RegClass, RegFile, RegUse, Rnd, Space, Stage, SubOp, Ty,
};
use ptxas_rs::regalloc::{self, Options};

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
                // Now and then a wide tuple (a warpgroup MMA accumulator's class; R only).
                let wide = [6u8, 12, 32].map(|n| RegClass::wide(n).expect("a wide class"));
                let c = if !uniform && self.rng.chance(4) {
                    self.rng.pick(&wide)
                } else {
                    self.rng.pick(&[RegClass::R32, RegClass::R64, RegClass::P])
                };
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

    /// One random non-terminator instruction, or `None` if the opcode does not fit here.
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

/// Allocates one random function under `budget` and checks the result (see the module doc).
fn allocate_and_check(
    seed: u64,
    nblocks: usize,
    ninst: usize,
    ssa: bool,
    sass: bool,
    budget: u32,
) -> Result<(), TestCaseError> {
    let before = gen_function(seed, nblocks, ninst, ssa, sass, false);
    prop_assume!(ori::verify_function(&before).is_ok());
    let mut after = before.clone();
    let opts = Options { max_regs: budget, ..Options::default() };
    match regalloc::allocate_function(&mut after, &opts) {
        Err(e) => {
            prop_assert_eq!(&after, &before, "a failed allocation changed the function");
            prop_assert!(budget < 255 || matches!(e, regalloc::Error::OutOfRegisters { .. }), "{}", e);
        }
        Ok(r) => {
            regalloc::check(&before, &after).map_err(|e| TestCaseError::fail(format!("{e}\n{before}\n{after}")))?;
            ori::verify_function(&after).map_err(|e| TestCaseError::fail(format!("{e}\n{after}")))?;
            for (_, i) in after.inst_order() {
                let d = &after.insts[i];
                for reg in d.dsts.iter().copied().chain(d.uses()) {
                    let Reg::Phys(p) = reg else { return Err(TestCaseError::fail("a virtual register remains")) };
                    if p.is_zero() {
                        continue;
                    }
                    prop_assert_eq!(p.index % u16::from(p.class().align()), 0);
                    if p.file == RegFile::R {
                        prop_assert!(u32::from(p.index) + u32::from(p.count) <= budget);
                    }
                }
            }
            prop_assert!(r.regs <= budget);
        }
    }
    Ok(())
}

/// Found by CI: a spilled parameter of a function whose entry block is a loop header was
/// stored again on every back edge (it must be stored once, on entry).
#[test]
fn spilled_parameter_of_a_looping_entry_block() {
    allocate_and_check(10842750089145311804, 3, 10, false, false, 8).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_functions_allocate_and_check(
        seed in any::<u64>(),
        nblocks in 1usize..5,
        ninst in 1usize..14,
        ssa in any::<bool>(),
        sass in any::<bool>(),
        budget in prop_oneof![Just(255u32), Just(24u32), Just(8u32)],
    ) {
        allocate_and_check(seed, nblocks, ninst, ssa, sass, budget)?;
    }
}
