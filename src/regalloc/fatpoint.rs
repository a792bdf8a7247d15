//! One fat-point allocation round (spec p32–p33, digest §3.4), and the final rewrite.
//!
//! Per register file, an occupancy table holds, for every point, the slots already committed
//! there. Virtual registers are taken in priority order; for each, the pressure over its live
//! points (the union of the occupancy at those points and the file's reserved slots) is the
//! "fat point"; the first zero-pressure slot aligned to the class's width wins, a slot that
//! already holds a copy-related register (the other side of a `mov` or a phi) first. A
//! spillable register that finds no slot below the budget is returned as spilled; an
//! unspillable one is an error.
//!
//! Invariants:
//! - A committed assignment never overlaps another register's assignment at a shared point.
//! - A tuple starts at a multiple of its class's alignment ([`crate::ori::RegClass::align`]: its
//!   width up to 4 components, 4 for the wide warpgroup MMA accumulators) and ends below the
//!   file's limit.
//! - Wide tuples are never spilled: one that finds no slot is `Error::OutOfRegisters`.
//! - Reserved slots (fixed registers of the input, R1, indices at or above the budget) are
//!   never assigned.
//! - At the SASS stage a register live across a `CALL` gets only slots the call preserves
//!   (`lower::isel::call`'s convention): R ones outside the scratch set, no predicate (a
//!   predicate live across a call is spilled to an R register).

use super::liveness::{BitSet, Liveness, is_phi, phi_pairs};
use super::spill::Frame;
use super::{Error, Options};
use crate::ori::{EntityRef, EntityVec, Function, Opcode, Operand, PhysReg, Reg, RegFile, VReg};

/// The result of one round.
#[derive(Clone, Debug)]
pub struct Round {
    /// The physical register of every virtual register that got one (indexed by vreg).
    pub assignment: Vec<Option<PhysReg>>,
    /// Spillable registers that found no slot.
    pub spilled: Vec<VReg>,
}

type Mask = [u64; 4];

fn file_index(f: RegFile) -> usize {
    RegFile::ALL.iter().position(|x| *x == f).unwrap_or(0)
}

fn set_bits(m: &mut Mask, from: usize, n: usize) {
    for b in from..from + n {
        m[b / 64] |= 1 << (b % 64);
    }
}

fn bits_free(m: &Mask, from: usize, n: usize) -> bool {
    (from..from + n).all(|b| m[b / 64] >> (b % 64) & 1 == 0)
}

/// The number of allocatable slots of `file` under `opts`.
pub fn file_limit(file: RegFile, opts: &Options) -> usize {
    match file {
        RegFile::R => opts.max_regs.clamp(1, 255) as usize,
        other => other.usable() as usize,
    }
}

/// The slots reserved in every file: fixed physical registers of `f` and R1 when asked.
pub fn reserved(f: &Function, opts: &Options) -> [Mask; 6] {
    let mut res = [[0u64; 4]; 6];
    let mut note = |r: Reg| {
        if let Reg::Phys(p) = r
            && !p.is_zero()
        {
            let end = (usize::from(p.index) + usize::from(p.count)).min(256);
            set_bits(&mut res[file_index(p.file)], usize::from(p.index).min(256), end - usize::from(p.index).min(256));
        }
    };
    f.params.iter().copied().for_each(&mut note);
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        d.dsts.iter().copied().for_each(&mut note);
        d.uses().for_each(&mut note);
    }
    if opts.reserve_r1 {
        set_bits(&mut res[0], 1, 1);
    }
    res
}

/// `mask` plus every slot of `file` a `CALL` may change ([`crate::lower::isel::call::clobbered`]).
fn clobber_mask(file: RegFile, mut mask: Mask) -> Mask {
    for k in 0..256u16 {
        if crate::lower::isel::call::clobbered(file, k) {
            set_bits(&mut mask, usize::from(k), 1);
        }
    }
    mask
}

/// An affinity of a virtual register: it would like the slot `other`'s assignment starts at,
/// plus `offset` (0 for a copy; a component's position for the register-pair pseudo-operations).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Hint {
    other: VReg,
    offset: i32,
}

/// Copy affinities: the other side of plain moves and phis (same slot), and the components of
/// `PACK64`/`UNPACK64` (and the quad forms) and the tuple they build or split (component `k`
/// at the tuple's slot + `k`), so that `Get64bRegComponents` finds nothing to copy.
fn hints(f: &Function) -> Vec<Vec<Hint>> {
    let mut h: Vec<Vec<Hint>> = vec![Vec::new(); f.vregs.len()];
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        // `part` (one register) is component `k` of `whole`.
        let mut component = |part: Reg, whole: Reg, k: i32| {
            if let (Reg::Virt(a), Reg::Virt(b)) = (part, whole)
                && f.vregs[a].class.file == f.vregs[b].class.file
            {
                h[a.index()].push(Hint { other: b, offset: k });
                h[b.index()].push(Hint { other: a, offset: -k });
            }
        };
        if is_phi(d) {
            if let Some(&dst) = d.dsts.first() {
                for (r, _) in phi_pairs(d) {
                    if f.reg_class(dst) == f.reg_class(r) {
                        component(dst, r, 0);
                    }
                }
            }
        } else if d.guard.is_some() {
            continue;
        } else if matches!(d.opcode, Opcode::Mov | Opcode::MOV | Opcode::UMOV)
            && let ([dst], [Operand::Reg(u)]) = (&d.dsts[..], &d.srcs[..])
            && !u.has_mods()
            && f.reg_class(*dst) == f.reg_class(u.reg)
        {
            component(*dst, u.reg, 0);
        } else if matches!(
            d.opcode,
            Opcode::PACK64 | Opcode::UPACK64 | Opcode::PACK128 | Opcode::UPACK128 | Opcode::PACKW
        ) && let [whole] = d.dsts[..]
        {
            for (k, o) in d.srcs.iter().enumerate() {
                if let Operand::Reg(u) = o
                    && !u.has_mods()
                {
                    component(u.reg, whole, k as i32);
                }
            }
        } else if matches!(d.opcode, Opcode::UNPACK64 | Opcode::UNPACK128 | Opcode::UNPACKW)
            && let [Operand::Reg(u)] = &d.srcs[..]
            && !u.has_mods()
        {
            for (k, &part) in d.dsts.iter().enumerate() {
                component(part, u.reg, k as i32);
            }
        }
    }
    h
}

/// Runs one round on `f` (see the module doc).
pub fn assign(f: &Function, live: &Liveness, opts: &Options, frame: &Frame) -> Result<Round, Error> {
    let n = f.vregs.len();
    let res = reserved(f, opts);
    let hints = hints(f);
    let mut is_param = BitSet::new(n);
    for p in &f.params {
        if let Reg::Virt(v) = p {
            is_param.insert(v.index());
        }
    }
    let spillable = |v: VReg| {
        let c = f.vregs[v].class;
        // Wide tuples (warpgroup MMA accumulators) are not spilled: placed first, they fail
        // cleanly when the file cannot hold them.
        !frame.is_temp(v)
            && !c.is_wide()
            && match c.file {
                // Predicates spill to R registers (no memory).
                RegFile::P => true,
                RegFile::R => (f.sass || !live.across_call.contains(v.index())) && frame.can_spill(),
                _ => false,
            }
    };
    let mut order: Vec<VReg> =
        f.vregs.keys().filter(|v| live.refs[v.index()] > 0 || is_param.contains(v.index())).collect();
    order.sort_by_key(|&v| {
        let c = f.vregs[v].class;
        let density = u64::from(live.refs[v.index()]) * 4096 / (live.points[v.index()].len() as u64 + 1);
        (spillable(v), std::cmp::Reverse(c.count), std::cmp::Reverse(density), v.index())
    });
    let mut occ: Vec<Vec<Mask>> = vec![Vec::new(); 6];
    let mut assignment: Vec<Option<PhysReg>> = vec![None; n];
    let mut spilled = Vec::new();
    for v in order {
        let class = f.vregs[v].class;
        let fi = file_index(class.file);
        if occ[fi].is_empty() {
            occ[fi] = vec![[0u64; 4]; live.npoints];
        }
        let count = usize::from(class.count);
        let limit = file_limit(class.file, opts);
        // The fat point: everything committed at any point where v is present.
        let mut mask = res[fi];
        // SASS stage: a value live across a `CALL` avoids what the call may change.
        if f.sass && live.across_call.contains(v.index()) {
            mask = clobber_mask(class.file, mask);
        }
        for &p in &live.points[v.index()] {
            let o = &occ[fi][p as usize];
            for k in 0..4 {
                mask[k] |= o[k];
            }
        }
        let align = usize::from(class.align());
        let fits = |s: usize| s.is_multiple_of(align) && s + count <= limit && bits_free(&mask, s, count);
        // Secondary weight: a slot a copy-related register already holds.
        let hinted = hints[v.index()]
            .iter()
            .filter_map(|h| Some((assignment[h.other.index()]?, h.offset)))
            .filter_map(|(p, off)| usize::try_from(i64::from(p.index) + i64::from(off)).ok())
            .find(|&s| fits(s));
        let slot = hinted.or_else(|| (0..limit).step_by(align).find(|&s| fits(s)));
        match slot {
            Some(s) => {
                for &p in &live.points[v.index()] {
                    set_bits(&mut occ[fi][p as usize], s, count);
                }
                assignment[v.index()] = Some(PhysReg { file: class.file, index: s as u16, count: class.count });
            }
            None if spillable(v) => spilled.push(v),
            None => {
                return Err(Error::OutOfRegisters {
                    file: class.file,
                    budget: limit as u32,
                    message: format!(
                        "no {} slot for an unspillable {} value ({} live points)",
                        class.file.phys_prefix(),
                        class,
                        live.points[v.index()].len()
                    ),
                });
            }
        }
    }
    Ok(Round { assignment, spilled })
}

/// Replaces every virtual register of `f` with its assignment and marks `f` allocated.
pub fn rewrite(f: &mut Function, assignment: &[Option<PhysReg>]) -> Result<(), Error> {
    let map = |r: &mut Reg| -> Result<(), Error> {
        if let Reg::Virt(v) = *r {
            let p = assignment
                .get(v.index())
                .copied()
                .flatten()
                .ok_or_else(|| Error::Invalid(format!("virtual register %{} got no register", v.index())))?;
            *r = Reg::Phys(p);
        }
        Ok(())
    };
    for p in f.params.iter_mut() {
        map(p)?;
    }
    let ids: Vec<_> = f.inst_order().map(|(_, i)| i).collect();
    for i in ids {
        let d = &mut f.insts[i];
        for r in d.dsts.iter_mut() {
            map(r)?;
        }
        if let Some(g) = d.guard.as_mut() {
            map(&mut g.reg)?;
        }
        for o in d.srcs.iter_mut() {
            match o {
                Operand::Reg(u) => map(&mut u.reg)?,
                Operand::CBank(c) => {
                    if let Some(r) = c.index.as_mut() {
                        map(r)?;
                    }
                }
                Operand::Mem(m) => {
                    if let Some(r) = m.base.as_mut() {
                        map(r)?;
                    }
                }
                _ => {}
            }
        }
    }
    f.vregs = EntityVec::new();
    f.allocated = true;
    f.ssa = false;
    Ok(())
}
