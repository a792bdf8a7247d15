//! OriCreateMacroInsts (9): floating-point contraction. A `mul` and an `add`/`sub` that PTX
//! lets the compiler fuse become one `fma` flagged [`Flag::Contract`], which instruction
//! selection turns into FFMA / DFMA / HFMA2(.BF16_V2) like any `fma`.
//!
//! # What ptxas 13.0.88 fuses (measured)
//!
//! Small kernels (`mul` of two loaded values feeding an `add`/`sub` with a third, stored),
//! `ptxas -arch sm_90 -O3` and `-arch sm_80 -O3`, `cuobjdump -sass`; the same on both targets:
//!
//! | PTX | SASS |
//! |---|---|
//! | `t = mul.T a, b; d = add.T t, c` (or `add c, t`), T = f32, f64, f16, f16x2, bf16, bf16x2 | `FFMA a, b, c` / `DFMA` / `HFMA2` / `HFMA2.BF16_V2` (`.MMA` for the x2 forms) |
//! | `d = sub.T t, c` | `FFMA a, b, -c` |
//! | `d = sub.T c, t` | `FFMA -a, b, c` |
//! | `mul.rn` (or `.rz`, ...) or `add.rn` / `sub.rn` | `FMUL` + `FADD` (an explicit rounding forbids contraction) |
//! | `mul.ftz` + `add.ftz` | `FFMA.FTZ`; `.ftz` on one side only: not fused |
//! | `add.sat` (`.ftz.sat`) | `FFMA.SAT` (`.FTZ.SAT`); `mul.sat`: not fused |
//! | `t` also read by anything but such an `add`/`sub` (a store, an `add.rn`, an `add` in another block) | not fused at all: `FMUL` + `FADD` for every use |
//! | `t` read by two fusible `add`s | both fused (two FFMAs, no FMUL) |
//! | `add t, t` | not fused |
//! | `add t1, t2`, both products | the first operand's `mul` is fused, the second kept (`FMUL` + `FFMA`); if the first cannot be, the second is |
//! | `mul` and `add` in different blocks | not fused |
//! | guarded `add` (`@p add`), unguarded `mul` | fused; guarded `mul`: not fused |
//! | `-O1`, `-O2`, `-O3` | fused; `-O0`: never fused |
//! | `-fmad false` | never fused (an explicit `fma`/`mad.rn` stays FFMA) |
//!
//! ptxas also fuses across an intervening redefinition of a `mul` source (it works in SSA
//! form) and through a `neg` of the product (`neg(a*b) + c` → `FFMA -a, b, c`); this pass
//! does neither: the PTX-stage Ori is not in SSA form (a source written in between would have
//! to be copied first), and the lowering's `neg` is an instruction of its own. On the 101
//! measurement kernels (the rows above for each type, sm_90 -O3), ptxas-rs's cubins have the
//! same fused and unfused operations as ptxas's but for those two forms and two kernels where
//! ptxas packs two contracted scalar f16/bf16 HFMA2s into one (both contracted). nvcc contracts
//! at the PTX level itself (`fma.rn`), so the corpus has one unrounded pair (bf16_arith2's
//! `mul.bf16` + `add.bf16`, which ptxas -O3 turns into `HFMA2.BF16_V2`).
//!
//! # The rule implemented
//!
//! Only at `-O1` and above with `--fmad true` ([`PipelineOptions`]). For every `add`/`sub` in
//! layout order whose type is one of the six float types and which has no rounding modifier,
//! no flags but `.ftz` and `.sat`, its source operands `k = 0` then `1` are tried: operand `k`
//! must be a plain virtual-register read `t` (no negation or absolute value), the other operand
//! must not read `t`, and the definition of `t` it reads must be the last write of `t` before it
//! in its block: a `mul` of the same type, unguarded, without rounding modifier, with no flag
//! but `.ftz` (set exactly when the `add` has it), not reading `t`, whose sources are registers
//! or immediates. Every read of that definition must be such an `add`/`sub`, between which and
//! the `mul` no source register of the `mul` is written: its reads are those after the `mul` in
//! the block up to the next unguarded write of `t` (the writer's own reads included), and where
//! no such write follows (the value may reach other blocks) they must be every read of `t` in
//! the function. Then every one of them becomes `fma.rn.contract.T a, b, c` (with the `add`'s
//! `.ftz`/`.sat`, guard and destination; for `t - c` the addend is `-c`, for `c - t` a factor
//! is negated, the first register read among them, else the first: a register read gets the
//! negation modifier, an immediate its sign bit(s) flipped; where the operand to negate is
//! neither, the `mul` is left alone), and the `mul` is removed. The `Pass::run_function` entry
//! point contracts whatever the options (as at `-O3`); the manager goes through
//! `Pass::run_module_with`, which applies them.
//!
//! # Invariants
//!
//! - A contracted `fma` computes `a * b + c` rounded once; it stands for `round(round(a * b) +
//!   c)`, which PTX allows the compiler to replace by it. `semantics::eval_unfused` computes
//!   the latter, and translation validation runs this phase's output that way and compares it
//!   bit-exactly with its input: the check proves that only fusible pairs were fused.
//! - The `mul`'s sources are read at the `add`s' positions: no source is written in between,
//!   and the `mul` does not read its own result, so they hold the values the `mul` read.
//! - The product has no other reader, so removing the `mul` loses nothing; each rewritten
//!   `add` keeps its position, guard and destination.
//! - Each rewritten `add`/`sub` and each removed `mul` counts one change.

use std::collections::HashMap;

use super::manager::PipelineOptions;
use super::util::imm_for;
use super::{Pass, PassError, PassKind};
use crate::ori::{Block, Flag, Function, Imm, Inst, InstData, Mods, Module, Opcode, Operand, Reg, RegUse, Rnd, Ty};

/// Phase 9.
pub struct OriCreateMacroInsts;

impl Pass for OriCreateMacroInsts {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    /// Contracts `f` (as at `-O3` with `--fmad true`).
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        Ok(contract_function(f))
    }
    fn run_module_with(&self, m: &mut Module, opts: &PipelineOptions) -> Result<usize, PassError> {
        if !opts.fmad || opts.opt_level == 0 {
            return Ok(0);
        }
        self.run_module(m)
    }
}

/// Whether `t` is a type whose `mul`/`add` ptxas contracts.
fn contractible(t: Ty) -> bool {
    matches!(t, Ty::F32 | Ty::F64 | Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)
}

/// Whether `d` has no rounding modifier and no flag outside `allowed`.
fn only_flags(d: &InstData, allowed: &[Flag]) -> bool {
    d.mods.rnd.is_none() && d.mods.flags.iter().all(|f| allowed.contains(f))
}

/// The type of `d` if it is an `add`/`sub` phase 9 may turn into a contracted `fma`.
fn fusible_add(d: &InstData) -> Option<Ty> {
    let t = d.mods.ty?;
    (matches!(d.opcode, Opcode::Add | Opcode::Sub)
        && contractible(t)
        && d.srcs.len() == 2
        && d.dsts.len() == 1
        && only_flags(d, &[Flag::Ftz, Flag::Sat]))
    .then_some(t)
}

/// Whether `d` is a `mul` of type `t` that may be contracted into an `add` with `.ftz` = `ftz`.
fn fusible_mul(d: &InstData, t: Ty, ftz: bool) -> bool {
    d.opcode == Opcode::Mul
        && d.mods.ty == Some(t)
        && d.guard.is_none()
        && d.srcs.len() == 2
        && d.dsts.len() == 1
        && only_flags(d, &[Flag::Ftz])
        && d.mods.has(Flag::Ftz) == ftz
        && d.mods.half.is_none()
        && d.srcs.iter().all(|o| matches!(o, Operand::Reg(_) | Operand::Imm(_)))
        && !d.srcs.iter().flat_map(Operand::regs).any(|r| r == d.dsts[0])
}

/// The plain register read of operand `o`, if it is one.
fn plain_reg(o: &Operand) -> Option<Reg> {
    match o {
        Operand::Reg(u) if !u.has_mods() => Some(u.reg),
        _ => None,
    }
}

/// `o` negated as a float of type `t`: a register read toggles its negation, an immediate has
/// its sign bit (each half's, for the packed types) flipped; `None` for anything else.
fn negated(o: &Operand, t: Ty) -> Option<Operand> {
    match o {
        Operand::Reg(u) if !u.not => Some(Operand::Reg(RegUse { neg: !u.neg, ..*u })),
        Operand::Imm(i) => {
            let sign: u64 = match t {
                Ty::F64 => 1 << 63,
                Ty::F32 => 1 << 31,
                Ty::F16 | Ty::BF16 => 1 << 15,
                _ => (1 << 31) | (1 << 15),
            };
            let bits = i.bits() ^ sign;
            Some(Operand::Imm(match t {
                Ty::F32 | Ty::F64 => imm_for(Some(t), bits),
                _ => Imm::Int((bits & 0xffff_ffff) as i64),
            }))
        }
        _ => None,
    }
}

/// Where every instruction sits, and how often each register is read.
struct Index {
    /// Block and position of each instruction.
    at: HashMap<Inst, (Block, usize)>,
    /// Reads of each register in the function, once per read.
    reads: HashMap<Reg, usize>,
}

impl Index {
    fn of(f: &Function) -> Index {
        let mut ix = Index { at: HashMap::new(), reads: HashMap::new() };
        for &b in &f.layout {
            for (pos, &i) in f.blocks[b].insts.iter().enumerate() {
                ix.at.insert(i, (b, pos));
                for r in f.insts[i].uses() {
                    *ix.reads.entry(r).or_default() += 1;
                }
            }
        }
        ix
    }
}

/// One fusion: the `mul`, and the `add`s/`sub`s with the operand index of the product.
struct Fusion {
    mul: Inst,
    adds: Vec<(Inst, usize)>,
}

/// The fusion of product operand `k` of the `add` `add`, if every rule of the module doc holds.
fn plan(f: &Function, ix: &Index, add: Inst, k: usize) -> Option<Fusion> {
    let d = &f.insts[add];
    let t = fusible_add(d)?;
    let ftz = d.mods.has(Flag::Ftz);
    let r = plain_reg(&d.srcs[k])?;
    r.as_virt()?;
    let (b, apos) = *ix.at.get(&add)?;
    let insts = &f.blocks[b].insts;
    // The definition the `add` reads: the last write of `t` before it in its block.
    let mpos = (0..apos).rev().find(|&p| f.insts[insts[p]].dsts.contains(&r))?;
    let mul = insts[mpos];
    let md = &f.insts[mul];
    if !fusible_mul(md, t, ftz) {
        return None;
    }
    // Its reads: those after it up to the next unguarded write of `t` in the block; if there
    // is none, it may reach other blocks, so `t` must have no other read in the function.
    let mut reads: Vec<(Inst, usize)> = Vec::new();
    let mut killed = false;
    for (p, &i) in insts.iter().enumerate().skip(mpos + 1) {
        let id = &f.insts[i];
        reads.extend(id.uses().filter(|&x| x == r).map(|_| (i, p)));
        if id.guard.is_none() && id.dsts.contains(&r) {
            killed = true;
            break;
        }
    }
    if !killed && ix.reads.get(&r).copied().unwrap_or(0) != reads.len() {
        return None;
    }
    let sources: Vec<Reg> = md.srcs.iter().flat_map(Operand::regs).collect();
    let mut adds = Vec::new();
    for &(u, upos) in &reads {
        let ud = &f.insts[u];
        if fusible_add(ud) != Some(t) || ud.mods.has(Flag::Ftz) != ftz {
            return None;
        }
        // `t` in exactly one operand, plainly; nowhere else (guard).
        let slots: Vec<usize> = (0..2).filter(|&j| ud.srcs[j].regs().any(|x| x == r)).collect();
        let [j] = slots[..] else { return None };
        if plain_reg(&ud.srcs[j]) != Some(r) || ud.guard.is_some_and(|g| g.reg == r) {
            return None;
        }
        // No source of the mul written between the mul and this use.
        let between = &insts[mpos + 1..upos];
        if between.iter().any(|&i| f.insts[i].dsts.iter().any(|x| sources.contains(x))) {
            return None;
        }
        // `c - t` needs a negatable factor, `t - c` a negatable `c`.
        if ud.opcode == Opcode::Sub && j == 1 && !md.srcs.iter().any(|o| negated(o, t).is_some()) {
            return None;
        }
        if ud.opcode == Opcode::Sub && j == 0 && negated(&ud.srcs[1], t).is_none() {
            return None;
        }
        if !adds.iter().any(|&(a, _)| a == u) {
            adds.push((u, j));
        }
    }
    (!adds.is_empty()).then_some(Fusion { mul, adds })
}

/// Rewrites the `add`s of `fu` into contracted `fma`s. Returns the number of rewritten adds.
fn apply(f: &mut Function, fu: &Fusion) -> usize {
    let md = f.insts[fu.mul].clone();
    for &(add, j) in &fu.adds {
        let d = f.insts[add].clone();
        let Some(t) = d.mods.ty else { continue };
        let c = d.srcs[1 - j].clone();
        let (mut a, mut b) = (md.srcs[0].clone(), md.srcs[1].clone());
        let c = match (d.opcode, j) {
            (Opcode::Sub, 0) => negated(&c, t).unwrap_or(c),
            (Opcode::Sub, _) => {
                // Negate the first factor that is a register read, else the first negatable.
                let first_reg = matches!(a, Operand::Reg(_)) || !matches!(b, Operand::Reg(_));
                if first_reg {
                    a = negated(&a, t).unwrap_or(a);
                } else {
                    b = negated(&b, t).unwrap_or(b);
                }
                c
            }
            _ => c,
        };
        let mut mods = Mods { rnd: Some(Rnd::Rn), ..Mods::ty(t) };
        for fl in [Flag::Ftz, Flag::Sat] {
            if d.mods.has(fl) {
                mods.set(fl);
            }
        }
        mods.set(Flag::Contract);
        f.insts[add] = InstData { guard: d.guard, ..InstData::new(Opcode::Fma, mods, d.dsts.clone(), vec![a, b, c]) };
    }
    fu.adds.len()
}

/// Contracts every fusible pair of `f`; returns the number of changes.
fn contract_function(f: &mut Function) -> usize {
    if f.sass {
        return 0;
    }
    let mut ix = Index::of(f);
    let mut changed = 0;
    let adds: Vec<Inst> = f.layout.iter().flat_map(|&b| f.blocks[b].insts.iter().copied()).collect();
    for add in adds {
        if fusible_add(&f.insts[add]).is_none() {
            continue;
        }
        let Some(fu) = (0..2).find_map(|k| plan(f, &ix, add, k)) else { continue };
        changed += apply(f, &fu) + 1;
        if let Some(&(b, pos)) = ix.at.get(&fu.mul) {
            f.blocks[b].insts.remove(pos);
        }
        ix = Index::of(f);
    }
    changed
}
