//! Warpgroup MMA (sm_90a): `wgmma.fence`, `wgmma.mma_async`, `wgmma.commit_group` and
//! `wgmma.wait_group` (the PTX-stage opcodes of `crate::lower::wgmma`) to `HGMMA` and
//! `WARPGROUP`, in the two protocols ptxas 13.0 uses (read from `ptxas -arch sm_90a -O0/-O3` on
//! the corpus kernel tc_wgmma).
//!
//! Serialized (ptxas -O0, and every `wgmma.mma_async` outside a chain below): each
//! `mma_async` is a group of its own that completes before the next instruction:
//!
//! ```text
//! R2UR UR4, Ra.lo ; R2UR UR5, Ra.hi ; R2UR UR6, Rb.lo ; R2UR UR7, Rb.hi   (the descriptors)
//! VOTEU.ANY UP0, !Pscale                                                 (scale-d, inverted)
//! WARPGROUP.ARRIVE
//! HGMMA.64x8x16.F32 R24, gdesc[UR4], R24, !UP0, gsb0
//! WARPGROUP.DEPBAR.LE gsb0, 0x0
//! ```
//!
//! and `wgmma.fence`, `commit_group`, `wait_group` select to nothing. PTX allows this: the
//! accumulator may not be accessed between an `mma_async` and a `wait_group` covering it, so
//! completing earlier is not observable.
//!
//! Pipelined (ptxas -O3; [`super::SelectOptions::pipeline_wgmma`]): a chain ([`plan`]) —
//! `wgmma.fence`, `mma_async`s on one accumulator, `commit_group`, `wait_group 0` in one block
//! — is one `WARPGROUP.ARRIVE` before the first `HGMMA`, the `HGMMA`s back to back on one
//! register tuple (only the last with `gsb0`, closing the group), and one
//! `WARPGROUP.DEPBAR.LE gsb0, 0x0` at the wait, after which the tuple is unpacked. The tuple
//! is live from the first `HGMMA` to the unpack, so the allocator gives nothing else its
//! registers while the `HGMMA`s are pending.
//!
//! | PTX-stage | SASS-stage Ori |
//! |---|---|
//! | `wgmma d, a, b, p, c` | `R2UR`s and `UPACK128` (the uniform quad {a, b}), `VOTEU` (`!p`), then serialized `PACK` (c), `WARPGROUPARRIVE`, `HGMMA t, quad, c', !up, 1`, `WARPGROUPDEPBAR 0`, `UNPACK` (d); chained `HGMMA t, quad, t, !up, last` (the first after `PACK` and `WARPGROUPARRIVE`) |
//! | `wgmmafence`, `wgmmacommit` | nothing |
//! | `wgmmawait 0` ending a chain | `WARPGROUPDEPBAR 0`, `UNPACK` (the accumulator) |
//!
//! `PACK`/`UNPACK` is the join/split of the accumulator's width: `PACK64`/`UNPACK64` (2
//! registers, n8 f16), `PACK128`/`UNPACK128` (4), `PACKW`/`UNPACKW` (a wide tuple of 6 to 128,
//! `crate::ori::reg`; N/2 registers for f32/s32 accumulators, N/4 for f16).
//! | `wgmmawait n` otherwise | nothing |
//!
//! The `PACK`/`UNPACK` copies of the accumulator sit before the `WARPGROUP.ARRIVE` and
//! after the `WARPGROUP.DEPBAR`, so they never touch an accumulator an `HGMMA` still writes,
//! whether or not the allocator makes them vanish.
//!
//! Scale-d: the `HGMMA`'s uniform predicate is true for every lane of the warp or none. ptxas
//! computes it as `!VOTEU.ANY(!p)` (p in all executing lanes); a scale-d the optimizer folded to
//! `PT`/`!PT` is `UPT`/`!UPT`.
//!
//! Invariants: the descriptors reach `HGMMA` unchanged (A's in the quad's low pair, B's in its
//! high pair, as `gdesc[URa]` reads them); every accumulator width (2 to 128 registers) is
//! one tuple; a guarded `wgmma` is an error naming the instruction.

use std::collections::HashMap;

use super::{R, Sel, imm, r};
use crate::ori::gmma::GmmaForm;
use crate::ori::{
    Function, Imm, Inst, InstData, Mods, OpFlags, Opcode, Operand, PhysReg, Reg, RegClass, RegFile, RegUse, VReg,
};

/// The part a warpgroup MMA instruction plays in a pipelined chain ([`plan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The chain's `wgmma.fence` (nothing: the first `HGMMA` has its arrive).
    Fence,
    /// A `wgmma.mma_async` of the chain: the first packs the accumulator and arrives, the last
    /// closes the group (`gsb0`).
    Mma { first: bool, last: bool },
    /// The chain's `wgmma.commit_group` (nothing: the last `HGMMA` closes the group).
    Commit,
    /// The chain's `wgmma.wait_group 0`: `WARPGROUP.DEPBAR.LE gsb0, 0x0`, then the accumulator
    /// (the destinations of the `wgmma` named) is unpacked.
    Wait(Inst),
}

/// The pipelined chains of `f`: in one block, `wgmma.fence`, then `wgmma.mma_async`s that all
/// write the same accumulator registers, each after the first reading them (in order) as its
/// accumulator input, then `wgmma.commit_group` and `wgmma.wait_group 0`, nothing guarded, and
/// no other instruction from the first `wgmma.mma_async` to the wait reading or writing the
/// accumulator or calling, none from the fence to the wait another warpgroup MMA operation. ptxas (above -O0) issues such a chain's `HGMMA`s
/// back to back on one register tuple and waits once; every other warpgroup MMA instruction is
/// serialized (not in the map).
pub(crate) fn plan(f: &Function) -> HashMap<Inst, Role> {
    let mut out = HashMap::new();
    for &b in &f.layout {
        let insts = f.block_insts(b);
        let mut k = 0;
        while k < insts.len() {
            if f.insts[insts[k]].opcode == Opcode::WgmmaFence
                && let Some((roles, end)) = chain_at(f, insts, k)
            {
                out.extend(roles);
                k = end;
            }
            k += 1;
        }
    }
    out
}

/// The chain starting at the fence `insts[start]`, and the index of its wait.
fn chain_at(f: &Function, insts: &[Inst], start: usize) -> Option<(Vec<(Inst, Role)>, usize)> {
    let (mut mmas, mut commit, mut wait) = (Vec::new(), None, None);
    let mut others = Vec::new();
    for (j, &i) in insts.iter().enumerate().skip(start + 1) {
        let d = &f.insts[i];
        let family = matches!(d.opcode, Opcode::Wgmma | Opcode::WgmmaFence | Opcode::WgmmaCommit | Opcode::WgmmaWait);
        if family && d.guard.is_some() {
            return None;
        }
        match d.opcode {
            Opcode::Wgmma if commit.is_none() => mmas.push(i),
            Opcode::WgmmaCommit if commit.is_none() && !mmas.is_empty() => commit = Some(i),
            Opcode::WgmmaWait if commit.is_some() && matches!(d.srcs.first(), Some(Operand::Imm(Imm::Int(0)))) => {
                wait = Some((i, j));
                break;
            }
            _ if family => return None,
            // Before the first `HGMMA`'s arrive anything may access the accumulator.
            _ if mmas.is_empty() => {}
            _ => others.push(i),
        }
    }
    let ((wait, end), commit) = (wait?, commit?);
    let head = &f.insts[*mmas.first()?];
    let acc = &head.dsts;
    // A from registers is serialized (its fragment would have to stay untouched until the
    // wait); so is a one-register accumulator, which is no tuple.
    if f.insts[insts[start]].guard.is_some() || acc.len() < 2 || form(head).is_none_or(|g| g.a_regs) {
        return None;
    }
    let reads_acc = |d: &InstData| {
        d.srcs.get(4..).is_some_and(|c| {
            c.len() == acc.len()
                && c.iter().zip(acc).all(|(o, a)| matches!(o, Operand::Reg(u) if u.reg == *a && !u.has_mods()))
        })
    };
    for (k, &m) in mmas.iter().enumerate() {
        let d = &f.insts[m];
        if d.dsts != *acc || d.mods != head.mods || d.srcs.first() != head.srcs.first() || (k > 0 && !reads_acc(d)) {
            return None;
        }
    }
    for &o in &others {
        let d = &f.insts[o];
        if d.opcode.info().has(OpFlags::CALL)
            || d.dsts.iter().chain(d.uses().collect::<Vec<_>>().iter()).any(|r| acc.contains(r))
        {
            return None;
        }
    }
    let last = mmas.len() - 1;
    let mut roles = vec![(insts[start], Role::Fence), (commit, Role::Commit), (wait, Role::Wait(mmas[0]))];
    roles.extend(mmas.iter().enumerate().map(|(k, &m)| (m, Role::Mma { first: k == 0, last: k == last })));
    Some((roles, end))
}

/// The form of `wgmma` `d` (its first source).
fn form(d: &InstData) -> Option<GmmaForm> {
    match d.srcs.first() {
        Some(Operand::Imm(Imm::Int(v))) => GmmaForm::unpack(*v).ok(),
        _ => None,
    }
}

/// What `sel_hgmma`/`sel_wgmma_chained` emit for one `wgmma`: the descriptor quad, the scale-d
/// predicate, the accumulator inputs, the form and A's register tuple (A in registers).
struct HgmmaOps<'d> {
    quad: VReg,
    scale: Operand,
    c: &'d [Operand],
    form: GmmaForm,
    a: Option<Operand>,
}

impl HgmmaOps<'_> {
    /// The `HGMMA` sources after the accumulator input `c` and the group flag.
    fn srcs(&self, c: Operand, group: bool) -> Vec<Operand> {
        let mut v = vec![r(self.quad), c, self.scale.clone(), imm(i64::from(group)), imm(self.form.pack())];
        v.extend(self.a.clone());
        v
    }
}

impl Sel<'_> {
    /// Selects one warpgroup MMA operation (see the module doc).
    pub(crate) fn sel_wgmma(&mut self, d: &InstData) -> R<()> {
        if self.guard.is_some() {
            return Err(format!("a predicated `{}` is not selected yet", d.opcode));
        }
        match d.opcode {
            // Subsumed by the per-`HGMMA` arrive, group and wait (module doc).
            Opcode::WgmmaFence | Opcode::WgmmaCommit => Ok(()),
            Opcode::WgmmaWait => match d.srcs.first() {
                Some(Operand::Imm(_)) => Ok(()),
                _ => Err("wgmma.wait_group without a constant count".into()),
            },
            Opcode::Wgmma => self.sel_hgmma(d),
            op => Err(format!("`{op}` is not a warpgroup MMA operation")),
        }
    }

    fn sel_hgmma(&mut self, d: &InstData) -> R<()> {
        let ops = self.hgmma_operands(d)?;
        let c = self.tuple(ops.c)?;
        let (t, split) = self.tuple_dst(&d.dsts)?;
        self.emit(Opcode::WARPGROUPARRIVE, Mods::new(), vec![], vec![]);
        self.emit(Opcode::HGMMA, Mods::new(), vec![t], ops.srcs(c, true));
        self.emit(Opcode::WARPGROUPDEPBAR, Mods::new(), vec![], vec![imm(0)]);
        if let Some(s) = split {
            self.push(s);
        }
        Ok(())
    }

    /// Selects a warpgroup MMA instruction of a pipelined chain ([`plan`]).
    pub(crate) fn sel_wgmma_chained(&mut self, d: &InstData, role: Role) -> R<()> {
        match role {
            // The chain's first `HGMMA` has the arrive; the last one closes the group.
            Role::Fence | Role::Commit => Ok(()),
            Role::Mma { first, last } => {
                let ops = self.hgmma_operands(d)?;
                let t = match self.gmma_acc {
                    Some(t) if !first => t,
                    None if first => {
                        let Operand::Reg(t) = self.tuple(ops.c)? else { return Err("an accumulator tuple".into()) };
                        let Reg::Virt(t) = t.reg else { return Err("a physical accumulator tuple".into()) };
                        self.emit(Opcode::WARPGROUPARRIVE, Mods::new(), vec![], vec![]);
                        self.gmma_acc = Some(t);
                        t
                    }
                    _ => return Err("a broken wgmma chain".into()),
                };
                self.emit(Opcode::HGMMA, Mods::new(), vec![t.into()], ops.srcs(r(t), last));
                Ok(())
            }
            Role::Wait(acc) => {
                let t = self.gmma_acc.take().ok_or("a wgmma chain without its accumulator")?;
                self.emit(Opcode::WARPGROUPDEPBAR, Mods::new(), vec![], vec![imm(0)]);
                let acc = self.old.insts[acc].dsts.clone();
                let split = match acc.len() {
                    2 => Opcode::UNPACK64,
                    4 => Opcode::UNPACK128,
                    _ => Opcode::UNPACKW,
                };
                self.emit(split, Mods::new(), acc, vec![r(t)]);
                Ok(())
            }
        }
    }

    /// The descriptor quad, the scale-d predicate and A's tuple of `wgmma` `d` (emitted), its
    /// accumulator inputs and form; errors for the forms not selected.
    fn hgmma_operands<'d>(&mut self, d: &'d InstData) -> R<HgmmaOps<'d>> {
        let form = form(d).ok_or("a wgmma without its form")?;
        let na = if form.a_regs { 4 } else { 1 };
        let (Some([db, scale]), Some(a), Some(c)) = (d.srcs.get(1..3), d.srcs.get(3..3 + na), d.srcs.get(3 + na..))
        else {
            return Err(format!("wgmma with {} sources", d.srcs.len()));
        };
        if c.len() != d.dsts.len() {
            return Err(format!("wgmma with {} accumulator inputs for {} outputs", c.len(), d.dsts.len()));
        }
        // The descriptors: the uniform quad {A.lo, A.hi, B.lo, B.hi}; with A in registers, A's
        // pair (which `HGMMA` does not read) repeats B's.
        let descs = if form.a_regs { [db, db] } else { [&a[0], db] };
        let mut words = Vec::with_capacity(4);
        for desc in descs {
            let (lo, hi) = self.halves(desc)?;
            for h in [lo, hi] {
                let u = match h {
                    Operand::Imm(_) => self.ur_of(h)?,
                    h => {
                        let x = self.reg_src(&h)?;
                        self.ur_of(x)?
                    }
                };
                words.push(r(u));
            }
        }
        let quad = self.vreg(RegClass::UR128);
        self.emit(Opcode::UPACK128, Mods::new(), vec![quad.into()], words);
        let a = if form.a_regs { Some(self.tuple(a)?) } else { None };
        let scale = self.uniform_scale(scale)?;
        Ok(HgmmaOps { quad, scale, c, form, a })
    }

    /// The `HGMMA` predicate for PTX scale-d `p`: `UPT`/`!UPT` for a constant, else `!up` with
    /// `up = VOTEU.ANY !p` (true in every lane of the warp exactly when `p` holds in all
    /// executing lanes).
    fn uniform_scale(&mut self, p: &Operand) -> R<Operand> {
        if let Operand::Imm(v) = p {
            // A constant scale-d (`wgmma ... d, a, b, 0, ...`): `!UPT` for 0, `UPT` otherwise.
            let upt = PhysReg::zero(RegFile::UP).ok_or("no UPT")?;
            let not = v.bits() == 0;
            return Ok(Operand::Reg(RegUse { reg: Reg::Phys(upt), neg: false, abs: false, not }));
        }
        let Operand::Reg(u) = p else { return Err(format!("a {} scale-d", p.kind_name())) };
        if u.reg.is_zero() {
            let upt = PhysReg::zero(RegFile::UP).ok_or("no UPT")?;
            return Ok(Operand::Reg(RegUse { reg: Reg::Phys(upt), neg: false, abs: false, not: u.not }));
        }
        if self.class(u.reg) != RegClass::P {
            return Err(format!("a {} scale-d", self.class(u.reg)));
        }
        let up = self.vreg(RegClass::UP);
        let inverted = Operand::Reg(RegUse { not: !u.not, ..*u });
        self.emit(Opcode::VOTEU, Mods::new(), vec![up.into()], vec![inverted]);
        Ok(Operand::Reg(RegUse { reg: up.into(), neg: false, abs: false, not: true }))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use crate::lower::isel::{SelectOptions, select_module_with};
    use crate::lower::lower_source;

    const MMA: &str =
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0;";

    fn select(body: &str, pipeline_wgmma: bool) -> Result<String, String> {
        let text = format!(
            ".version 8.0\n.target sm_90a\n.address_size 64\n.entry k(.param .u64 p) {{\n.reg .pred %p<2>;\n\
             .reg .b32 %r<4>;\n.reg .f32 %f<140>;\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [p];\n\
             ld.param.u64 %rd2, [p];\nsetp.ne.b32 %p1, %r1, 0;\n{body}\n}}\n"
        );
        let mut m = lower_source(&text).map_err(|e| e.to_string())?;
        select_module_with(
            &mut m,
            &crate::target::Target::default(),
            &[],
            &HashMap::new(),
            &SelectOptions { pipeline_wgmma, sync_setmaxnreg: false },
        )
        .map_err(|e| e.to_string())?;
        Ok(m.to_string())
    }

    fn count(t: &str, op: &str) -> usize {
        t.lines().filter(|l| l.split_whitespace().any(|w| w == op || w.starts_with(&format!("{op}.")))).count()
    }

    /// A chain is one arrive, HGMMAs only the last of which closes the group (`1`), one wait;
    /// serialized, every HGMMA has all three.
    #[test]
    fn chains_pipeline_and_the_rest_serializes() {
        let chain = format!(
            "wgmma.fence.sync.aligned;\n{MMA}\n{MMA}\n{MMA}\nwgmma.commit_group.sync.aligned;\n\
             wgmma.wait_group.sync.aligned 0;"
        );
        let t = select(&chain, true).unwrap();
        assert_eq!((count(&t, "WARPGROUPARRIVE"), count(&t, "HGMMA"), count(&t, "WARPGROUPDEPBAR")), (1, 3, 1));
        // The group flag is the source before the form.
        let groups: Vec<&str> =
            t.lines().filter(|l| l.contains("HGMMA")).filter_map(|l| l.trim_end().rsplit(", ").nth(1)).collect();
        assert_eq!(groups, ["0", "0", "1"], "{t}");
        let t = select(&chain, false).unwrap();
        assert_eq!((count(&t, "WARPGROUPARRIVE"), count(&t, "HGMMA"), count(&t, "WARPGROUPDEPBAR")), (3, 3, 3));
        // Not a chain: the accumulator read between two mma_asyncs, or a wait for one group.
        for body in [
            format!(
                "wgmma.fence.sync.aligned;\n{MMA}\nmov.f32 %f5, %f1;\n{MMA}\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;"
            ),
            format!(
                "wgmma.fence.sync.aligned;\n{MMA}\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 1;"
            ),
        ] {
            let t = select(&body, true).unwrap();
            assert_eq!(count(&t, "WARPGROUPDEPBAR"), count(&t, "HGMMA"), "{body}\n{t}");
        }
    }

    /// Wide accumulators are one tuple: n64 f32 (32 registers) and n24 f32 (12, no power of
    /// two) chain through `PACKW`/`UNPACKW` on a `%rw<n>_` tuple, as does n256 f32 (128, the
    /// widest); serialized, each `wgmma` packs and unpacks.
    #[test]
    fn wide_accumulators_are_one_tuple() {
        for (shape, n) in [("m64n64k16.f32", 32), ("m64n24k16.f32", 12), ("m64n256k16.f32", 128)] {
            let acc: Vec<String> = (0..n).map(|k| format!("%f{k}")).collect();
            let mma = format!(
                "wgmma.mma_async.sync.aligned.{shape}.f16.f16 {{{}}}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
                acc.join(", ")
            );
            let chain = format!(
                "wgmma.fence.sync.aligned;\n{mma}\n{mma}\nwgmma.commit_group.sync.aligned;\n\
                 wgmma.wait_group.sync.aligned 0;"
            );
            for pipeline in [true, false] {
                let t = select(&chain, pipeline).unwrap_or_else(|e| panic!("{shape}: {e}"));
                let (packs, unpacks) = (count(&t, "PACKW"), count(&t, "UNPACKW"));
                let want = if pipeline { (1, 1) } else { (2, 2) };
                assert_eq!((packs, unpacks), want, "{shape} pipeline={pipeline}\n{t}");
                assert!(t.contains(&format!("%rw{n}_")), "{t}");
                assert_eq!(count(&t, "HGMMA"), 2);
            }
        }
    }
}
