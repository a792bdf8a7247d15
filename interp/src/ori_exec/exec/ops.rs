//! The interpreter's non-pure operations beyond loads, stores and branches: calls and returns,
//! `brx`, atomics, address operations (`mova`, `cvta`, `isspacep`) and warp-level operations
//! (`shfl`, `vote`, `ballot`, `match`, `redux`, `activemask`). Their model is in the
//! [`crate::ori_exec`] module doc.

use super::*;

/// The deepest call nesting a warp may reach.
const MAX_CALL_DEPTH: usize = 4096;

fn lanes(mask: u32) -> impl Iterator<Item = u32> {
    (0..WARP as u32).filter(move |l| mask >> l & 1 == 1)
}

impl Engine<'_> {
    /// A source operand's value for one lane, with its modifiers applied for a plain read
    /// (predicates honour `!`).
    pub(super) fn lane_val(&self, w: &Warp, cta: &Cta, d: &InstData, i: usize, lane: u32) -> Result<u64, Er> {
        let o = d.srcs.get(i).ok_or((ErrorKind::Invalid(format!("`{}` lacks operand {i}", d.opcode)), None))?;
        let a = self.src(w, cta, d, i, o, lane)?;
        Ok(match a.val {
            Val::Pred(p) => u64::from(p != a.not),
            Val::Bits(b) => b,
        })
    }

    /// `call` / `calli`: suspends the caller and enters the callee with the calling lanes. An
    /// indirect call whose lanes name different functions calls them one after another, in
    /// order of their lowest lane, before the caller resumes.
    pub(super) fn call(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let mut groups: Vec<(usize, u32)> = Vec::new();
        if let (Opcode::Call, Some(Operand::Func(name))) = (d.opcode, d.srcs.first())
            && !self.module.functions.iter().any(|g| g.name == *name)
            && let Some(f) = crate::sysfn::SysFn::by_name(name)
        {
            return self.system_call(cta, w, d, exec, f);
        }
        match (d.opcode, d.srcs.first()) {
            (Opcode::Call, Some(Operand::Func(name))) => {
                let ci = self
                    .module
                    .functions
                    .iter()
                    .position(|g| g.name == *name)
                    .ok_or((ErrorKind::Invalid(format!("call to unknown function @{name}")), None))?;
                groups.push((ci, exec));
            }
            (Opcode::Calli, Some(_)) => {
                for l in lanes(exec) {
                    let a = self.lane_val(w, cta, d, 0, l)?;
                    let g = self.module.function_at_address(a).ok_or((
                        ErrorKind::Invalid(format!("indirect call to {a:#x}, which is not a function address")),
                        Some(l),
                    ))?;
                    let ci = self.module.functions.iter().position(|x| std::ptr::eq(x, g)).unwrap_or(0);
                    match groups.iter_mut().find(|x| x.0 == ci) {
                        Some(x) => x.1 |= 1 << l,
                        None => groups.push((ci, 1 << l)),
                    }
                }
            }
            _ => return Err((ErrorKind::Invalid("a call without a callee".into()), None)),
        }
        let args = &d.srcs[1..];
        let mut vals = vec![[0u128; WARP]; args.len()];
        for (k, o) in args.iter().enumerate() {
            for l in lanes(exec) {
                vals[k][l as usize] = match o {
                    Operand::Reg(u) => self.read(w, self.loc(u.reg)?, l)?,
                    Operand::Imm(i) => u128::from(i.bits()),
                    _ => u128::from(self.lane_val(w, cta, d, k + 1, l)?),
                };
            }
        }
        self.advance(w);
        let (ci, mask) = groups.remove(0);
        self.enter(w, ci, mask, vals, d.dsts.clone(), groups, None)
    }

    /// `CALL` (the ABI-lowered call of [`ptxas_rs::lower::isel::call`]): suspends the caller
    /// and enters the callee with the calling lanes and a fresh frame of virtual registers.
    /// Arguments and results travel in the physical registers, which caller and callee share,
    /// so nothing is copied; `RET` resumes the caller after the `CALL`. A register target is a
    /// [`Module::function_address`](ptxas_rs::ori::Module::function_address), called group by
    /// group as `calli` is.
    pub(super) fn abi_call(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let mut groups: Vec<(usize, u32)> = Vec::new();
        match d.srcs.first() {
            Some(Operand::Func(name)) => {
                let ci = self
                    .module
                    .functions
                    .iter()
                    .position(|g| g.name == *name)
                    .ok_or((ErrorKind::Invalid(format!("call to unknown function @{name}")), None))?;
                groups.push((ci, exec));
            }
            Some(Operand::Reg(_)) => {
                for l in lanes(exec) {
                    let a = self.lane_val(w, cta, d, 0, l)?;
                    let g = self.module.function_at_address(a).ok_or((
                        ErrorKind::Invalid(format!("indirect call to {a:#x}, which is not a function address")),
                        Some(l),
                    ))?;
                    let ci = self.module.functions.iter().position(|x| std::ptr::eq(x, g)).unwrap_or(0);
                    match groups.iter_mut().find(|x| x.0 == ci) {
                        Some(x) => x.1 |= 1 << l,
                        None => groups.push((ci, 1 << l)),
                    }
                }
            }
            _ => return Err((ErrorKind::Invalid("a CALL without a callee".into()), None)),
        }
        if let Some(&(ci, _)) = groups.iter().find(|g| !self.module.functions[g.0].params.is_empty()) {
            let m = format!("CALL of @{}, which takes register parameters", self.module.functions[ci].name);
            return Err((ErrorKind::Invalid(m), None));
        }
        self.advance(w);
        let (ci, mask) = groups.remove(0);
        let mut sp = [0u32; WARP];
        sp.copy_from_slice(&w.phys[r1_slot() * WARP..(r1_slot() + 1) * WARP]);
        self.enter(w, ci, mask, Vec::new(), Vec::new(), groups, Some(sp))
    }

    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        w: &mut Warp,
        ci: usize,
        mask: u32,
        args: Vec<[u128; WARP]>,
        dsts: Vec<Reg>,
        pending: Vec<(usize, u32)>,
        sp: Option<[u32; WARP]>,
    ) -> Result<(), Er> {
        if w.frames.len() >= MAX_CALL_DEPTH {
            return Err((ErrorKind::Unsupported(format!("call depth over {MAX_CALL_DEPTH}")), None));
        }
        let callee = &self.module.functions[ci];
        if args.len() != callee.params.len() {
            let m = format!("@{} takes {} arguments, not {}", callee.name, callee.params.len(), args.len());
            return Err((ErrorKind::Invalid(m), None));
        }
        let entry = callee.entry().ok_or((ErrorKind::Invalid(format!("@{} has no blocks", callee.name)), None))?;
        let params = callee.params.clone();
        w.frames.push(Frame {
            fidx: w.fidx,
            stack: std::mem::take(&mut w.stack),
            regs: std::mem::take(&mut w.regs),
            prev: w.prev,
            returned: w.returned,
            ret_vals: std::mem::take(&mut w.ret_vals),
            dsts,
            args,
            pending,
            phys: sp.is_none().then(|| std::mem::replace(&mut w.phys, vec![0; PHYS_SLOTS * WARP])),
            sp,
        });
        self.set_fn(ci);
        w.fidx = ci;
        w.regs = vec![0; self.fns[ci].slots.total as usize * WARP];
        w.prev = [None; WARP];
        w.returned = 0;
        w.stack = vec![Entry { block: entry, idx: 0, rpc: None, mask, parked: false }];
        let args = &w.frames.last().map(|f| f.args.clone()).unwrap_or_default();
        for (k, p) in params.iter().enumerate() {
            let loc = self.loc(*p)?;
            for l in lanes(mask) {
                self.write(w, loc, l, args[k][l as usize]);
            }
        }
        Ok(())
    }

    /// Every calling lane has returned or exited: writes the returned lanes' results to the
    /// call's destinations, then calls the next pending target or resumes the caller.
    pub(super) fn return_to_caller(&mut self, w: &mut Warp) -> Result<(), Er> {
        let Some(mut fr) = w.frames.pop() else { return Ok(()) };
        let returned = w.returned;
        if let Some(sp) = &fr.sp {
            // The callee releases its frame: allocated code by its epilogue (checked here),
            // code before allocation implicitly (callee_save lays out the epilogue later).
            let callee = &self.module.functions[w.fidx];
            for l in lanes(returned) {
                let slot = &mut w.phys[r1_slot() * WARP + l as usize];
                if callee.allocated && *slot != sp[l as usize] {
                    let m = format!(
                        "@{} returned with the stack pointer R1 = {:#x}, not the caller's {:#x}",
                        callee.name, *slot, sp[l as usize]
                    );
                    return Err((ErrorKind::Invalid(m), Some(l)));
                }
                *slot = sp[l as usize];
            }
        }
        let vals = std::mem::take(&mut w.ret_vals);
        if let Some(p) = fr.phys.take() {
            w.phys = p;
        }
        w.fidx = fr.fidx;
        self.set_fn(fr.fidx);
        w.stack = std::mem::take(&mut fr.stack);
        w.regs = std::mem::take(&mut fr.regs);
        w.prev = fr.prev;
        w.returned = fr.returned;
        w.ret_vals = std::mem::take(&mut fr.ret_vals);
        for (k, r) in fr.dsts.iter().enumerate() {
            let loc = self.loc(*r)?;
            for l in lanes(returned) {
                let v = vals.get(k).map_or(0, |x| x[l as usize]);
                self.write(w, loc, l, v);
            }
        }
        if !fr.pending.is_empty() {
            let (ci, mask) = fr.pending.remove(0);
            return self.enter(w, ci, mask & !w.exited, fr.args, fr.dsts, fr.pending, fr.sp);
        }
        Ok(())
    }

    /// `brx`: each lane goes to the target its index selects (guard-false lanes fall through);
    /// distinct targets diverge like a branch, reconverging at the immediate post-dominator.
    pub(super) fn brx(&mut self, w: &mut Warp, d: &InstData, top: Entry, active: u32, exec: u32) -> Result<(), Er> {
        let b = top.block;
        let targets: Vec<Block> = d.blocks().collect();
        let idx = d
            .srcs
            .first()
            .and_then(|o| o.as_reg())
            .ok_or((ErrorKind::Invalid("brx without an index register".into()), None))?;
        let loc = self.loc(idx.reg)?;
        let mut groups: Vec<(Block, u32)> = Vec::new();
        for l in lanes(active) {
            let t = if exec >> l & 1 == 1 {
                let i = self.read(w, loc, l)? as u32 as usize;
                *targets
                    .get(i)
                    .ok_or((ErrorKind::Invalid(format!("brx index {i} out of {} targets", targets.len())), Some(l)))?
            } else {
                self.f
                    .layout_next(b)
                    .ok_or((ErrorKind::Invalid("guarded brx at the end of the layout".into()), None))?
            };
            match groups.iter_mut().find(|g| g.0 == t) {
                Some(g) => g.1 |= 1 << l,
                None => groups.push((t, 1 << l)),
            }
        }
        if let [(to, _)] = groups[..] {
            Self::goto(w, b, to, active);
        } else {
            self.diverge(w, top, active, &groups);
        }
        Ok(())
    }

    /// `atom` / `atomcas`: one lane after another in lane order, each a read-modify-write; the
    /// destination gets the old value.
    pub(super) fn atomic(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let m = Self::mem_ref(d)?.clone();
        let size = Self::access_size(d)?;
        let ty = d.ty().unwrap_or(Ty::B32);
        let dst = d.dsts.first().ok_or((ErrorKind::Invalid("an atomic without a destination".into()), None))?;
        let loc = self.loc(*dst)?;
        let bits = ty.bits().min(64);
        let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        for l in lanes(exec) {
            let b = self.lane_val(w, cta, d, 1, l)? & mask;
            let (space, addr) = self.address(w, d, &m, l)?;
            let old =
                self.access(cta, w, space, addr, size, l, None).map_err(|f| (ErrorKind::Fault(f), Some(l)))? as u64;
            let new = if matches!(d.opcode, Opcode::AtomCas | Opcode::ATOMCAS | Opcode::ATOMGCAS | Opcode::ATOMSCAS) {
                let c = self.lane_val(w, cta, d, 2, l)? & mask;
                (old == b).then_some(c)
            } else {
                let pure = |op: Opcode, rnd: Option<ptxas_rs::ori::Rnd>| -> Result<u64, Er> {
                    let md = ptxas_rs::ori::Mods { rnd, ..ptxas_rs::ori::Mods::ty(ty) };
                    let r = semantics::eval(op, &md, &[Arg::bits(old), Arg::bits(b)])
                        .map_err(|e| (ErrorKind::from(e), Some(l)))?;
                    Ok(r.first().map_or(0, |v| v.bits()))
                };
                use ptxas_rs::ori::SubOp::*;
                Some(
                    match d.mods.sub {
                        Some(AddOp) => pure(Opcode::Add, ty.is_float().then_some(ptxas_rs::ori::Rnd::Rn))?,
                        Some(MinOp) => pure(Opcode::Min, None)?,
                        Some(MaxOp) => pure(Opcode::Max, None)?,
                        Some(AndOp) => old & b,
                        Some(OrOp) => old | b,
                        Some(XorOp) => old ^ b,
                        Some(Exch) => b,
                        Some(Inc) => {
                            if old >= b {
                                0
                            } else {
                                old + 1
                            }
                        }
                        Some(Dec) => {
                            if old == 0 || old > b {
                                b
                            } else {
                                old - 1
                            }
                        }
                        s => return Err((ErrorKind::Invalid(format!("atomic operation {s:?}")), Some(l))),
                    } & mask,
                )
            };
            if let Some(n) = new {
                self.access(cta, w, space, addr, size, l, Some(u128::from(n)))
                    .map_err(|f| (ErrorKind::Fault(f), Some(l)))?;
            }
            self.write(w, loc, l, u128::from(old));
        }
        Ok(())
    }

    /// `mova`, `cvta`, `cvtato`, `isspacep`.
    pub(super) fn address_op(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        use ptxas_rs::ori::SubOp;
        let dst = d.dsts.first().ok_or((ErrorKind::Invalid("no destination".into()), None))?;
        let loc = self.loc(*dst)?;
        let bits = d.ty().map_or(64, |t| t.bits().min(64));
        let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        // The state space a cvta/cvtato/isspacep sub-op names (None: global).
        let space = |s: Option<SubOp>| -> Result<Option<Space>, Er> {
            match s {
                Some(SubOp::SpShared) => Ok(Some(Space::Shared)),
                Some(SubOp::SpLocal) => Ok(Some(Space::Local)),
                Some(SubOp::SpConst) => Ok(Some(Space::Const)),
                Some(SubOp::SpParam) => Ok(Some(Space::Param)),
                Some(SubOp::SpGlobal) => Ok(None),
                s => Err((ErrorKind::Unsupported(format!("generic addresses of {s:?} space")), None)),
            }
        };
        let window = |s: Option<SubOp>| -> Result<Option<u64>, Er> {
            Ok(space(s)?.and_then(|sp| WINDOWS.iter().find(|w| w.1 == sp).map(|w| w.0)))
        };
        for l in lanes(exec) {
            let v: u64 = match d.opcode {
                Opcode::Mova => {
                    let m = Self::mem_ref(d)?;
                    self.address(w, d, m, l)?.1
                }
                Opcode::Getctarank => {
                    // The address's bits [24:32), as sm_90 reads them (see the opcode's docs).
                    (self.lane_val(w, cta, d, 0, l)? >> 24) & 0xff
                }
                Opcode::Cvta | Opcode::CvtaTo => {
                    let a = self.lane_val(w, cta, d, 0, l)?;
                    let base = window(d.mods.sub)?.unwrap_or(0);
                    if d.opcode == Opcode::Cvta { a.wrapping_add(base) } else { a.wrapping_sub(base) }
                }
                _ => {
                    let a = self.lane_val(w, cta, d, 0, l)?;
                    let (is, _) = resolve_generic(a);
                    u64::from(match space(d.mods.sub)? {
                        Some(sp) => is == sp,
                        // QSPC.E.G: outside the shared and local windows, the const and param
                        // ones included (as the emulator's); isspacep.global: global memory.
                        None if d.opcode == Opcode::QSPC => !matches!(is, Space::Shared | Space::Local),
                        None => is == Space::Global,
                    })
                }
            };
            self.write(w, loc, l, u128::from(v & mask));
        }
        Ok(())
    }

    /// Warp-level operations over the executing lanes.
    pub(super) fn warp_op(
        &mut self,
        cta: &mut Cta,
        w: &mut Warp,
        d: &InstData,
        _active: u32,
        exec: u32,
    ) -> Result<(), Er> {
        if exec == 0 {
            return Ok(());
        }
        if matches!(d.opcode, Opcode::Activemask | Opcode::ACTIVEMASK) {
            return self.warp_group_op(cta, w, d, exec, exec, false);
        }
        // Each lane names its own member mask (cooperative-groups tiles: `0xffff << (lane &
        // 16)`); the lanes naming one mask form one collective, run in order of the mask's
        // lowest executing lane.
        let n = d.srcs.len() - 1;
        let live = w.live_init & !w.exited;
        let mut groups: Vec<(u32, u32)> = Vec::new();
        for l in lanes(exec) {
            let m = self.lane_val(w, cta, d, n, l)? as u32;
            if m & live & !exec != 0 {
                let msg = format!("`{}` member lanes {:#010x} are not all executing ({exec:#010x})", d.opcode, m);
                return Err((ErrorKind::Unsupported(msg), Some(l)));
            }
            match groups.iter_mut().find(|(gm, _)| *gm == m) {
                Some((_, ls)) => *ls |= 1 << l,
                None => groups.push((m, 1 << l)),
            }
        }
        // Several collectives in one warp: a uniform result is written to each group's own
        // lanes (ptxas reads it inside a `WARPSYNC.EXCLUSIVE` region, where each group runs
        // to the `BSYNC` before the next starts, so each group sees its own value).
        let split = groups.len() > 1;
        for (m, ls) in groups {
            self.warp_group_op(cta, w, d, ls, m & exec, split)?;
        }
        Ok(())
    }

    /// One collective of a warp operation: the lanes `exec` that name the same member mask,
    /// whose executing members are `group`.
    fn warp_group_op(
        &mut self,
        cta: &mut Cta,
        w: &mut Warp,
        d: &InstData,
        exec: u32,
        group: u32,
        split: bool,
    ) -> Result<(), Er> {
        use ptxas_rs::ori::SubOp::*;
        let first = exec.trailing_zeros();
        let locs: Vec<Loc> = d.dsts.iter().map(|r| self.loc(*r)).collect::<Result<_, _>>()?;
        match d.opcode {
            Opcode::Activemask | Opcode::ACTIVEMASK => {
                for l in lanes(exec) {
                    self.write(w, locs[0], l, u128::from(exec));
                }
            }
            Opcode::Shfl | Opcode::SHFL => {
                let mut vals = [0u64; WARP];
                for (l, v) in vals.iter_mut().enumerate() {
                    *v = match &d.srcs[0] {
                        Operand::Reg(u) => self.read(w, self.loc(u.reg)?, l as u32)? as u64,
                        _ => self.lane_val(w, cta, d, 0, l as u32)?,
                    };
                }
                let mut out = Vec::new();
                for l in lanes(exec) {
                    let b = self.lane_val(w, cta, d, 1, l)? as u32 & 31;
                    let c = self.lane_val(w, cta, d, 2, l)? as u32;
                    let seg = (c >> 8) & 31;
                    let cval = c & 31;
                    let max = (l & seg) | (cval & !seg);
                    let min = l & seg;
                    let (j, ok) = match d.mods.sub {
                        Some(Up) => {
                            let j = l as i32 - b as i32;
                            (j, j >= max as i32)
                        }
                        Some(Down) => {
                            let j = (l + b) as i32;
                            (j, j <= max as i32)
                        }
                        Some(Bfly) => {
                            let j = (l ^ b) as i32;
                            (j, j <= max as i32)
                        }
                        _ => {
                            let j = (min | (b & !seg)) as i32;
                            (j, j <= max as i32)
                        }
                    };
                    let src = if ok { j as u32 } else { l };
                    out.push((l, vals[src as usize & 31], ok));
                }
                for (l, v, ok) in out {
                    self.write(w, locs[0], l, u128::from(v));
                    if let Some(p) = locs.get(1) {
                        self.write(w, *p, l, u128::from(ok));
                    }
                }
            }
            Opcode::Vote | Opcode::Ballot | Opcode::VOTE => {
                let mut ballot = 0u32;
                for l in lanes(group) {
                    if self.lane_val(w, cta, d, 0, l)? != 0 {
                        ballot |= 1 << l;
                    }
                }
                let v: u64 = match (d.opcode, d.mods.sub) {
                    (Opcode::Ballot, _) => u64::from(ballot),
                    (_, Some(All)) => u64::from(ballot == group),
                    (_, Some(Any)) => u64::from(ballot != 0),
                    (_, Some(Uni)) => u64::from(ballot == group || ballot == 0),
                    (_, s) => return Err((ErrorKind::Invalid(format!("vote mode {s:?}")), None)),
                };
                for l in lanes(exec) {
                    if d.opcode == Opcode::VOTE {
                        // SASS `VOTE Rd, Pd, Ps`: the ballot and the vote.
                        self.write(w, locs[0], l, u128::from(ballot));
                        if let Some(p) = locs.get(1) {
                            self.write(w, *p, l, u128::from(v));
                        }
                    } else {
                        self.write(w, locs[0], l, u128::from(v));
                    }
                }
            }
            Opcode::MatchAny | Opcode::MatchAll | Opcode::MATCH => {
                let mut vals = [0u128; WARP];
                for l in lanes(group) {
                    vals[l as usize] = match &d.srcs[0] {
                        Operand::Reg(u) => self.read(w, self.loc(u.reg)?, l)?,
                        _ => u128::from(self.lane_val(w, cta, d, 0, l)?),
                    };
                }
                let all_eq = lanes(group).all(|l| vals[l as usize] == vals[first as usize]);
                for l in lanes(exec) {
                    let same: u32 =
                        lanes(group).filter(|&k| vals[k as usize] == vals[l as usize]).fold(0, |m, k| m | 1 << k);
                    if d.opcode == Opcode::MatchAny || (d.opcode == Opcode::MATCH && d.mods.sub == Some(Any)) {
                        self.write(w, locs[0], l, u128::from(same));
                    } else {
                        self.write(w, locs[0], l, u128::from(if all_eq { group } else { 0 }));
                        if let Some(p) = locs.get(1) {
                            self.write(w, *p, l, u128::from(all_eq));
                        }
                    }
                }
            }
            Opcode::Elect => {
                // The leader is the lowest member lane; every member lane gets its number.
                let leader = group.trailing_zeros();
                for l in lanes(exec) {
                    self.write(w, locs[0], l, u128::from(leader));
                    self.write(w, locs[1], l, u128::from(l == leader));
                }
            }
            Opcode::ELECT => {
                // `ELECT Pd, URd`: the predicate per lane, the leader's number in the uniform
                // register (each group's own lanes when several collectives share the warp).
                let leader = group.trailing_zeros();
                for l in lanes(exec) {
                    self.write(w, locs[0], l, u128::from(l == leader));
                    if let Some(u) = locs.get(1) {
                        if split {
                            self.write_lane(w, *u, l, u128::from(leader));
                        } else {
                            self.write(w, *u, l, u128::from(leader));
                        }
                    }
                }
            }
            Opcode::Redux | Opcode::REDUX => {
                let signed = d.ty().is_some_and(Ty::is_signed);
                let mut acc: Option<u32> = None;
                for l in lanes(group) {
                    let v = self.lane_val(w, cta, d, 0, l)? as u32;
                    acc = Some(match (acc, d.mods.sub) {
                        (None, _) => v,
                        (Some(a), Some(AddOp)) => a.wrapping_add(v),
                        (Some(a), Some(AndOp)) => a & v,
                        (Some(a), Some(OrOp)) => a | v,
                        (Some(a), Some(XorOp)) => a ^ v,
                        (Some(a), Some(MinOp)) if signed => (a as i32).min(v as i32) as u32,
                        (Some(a), Some(MaxOp)) if signed => (a as i32).max(v as i32) as u32,
                        (Some(a), Some(MinOp)) => a.min(v),
                        (Some(a), Some(MaxOp)) => a.max(v),
                        (_, s) => return Err((ErrorKind::Invalid(format!("redux operation {s:?}")), None)),
                    });
                }
                for l in lanes(exec) {
                    if split {
                        self.write_lane(w, locs[0], l, u128::from(acc.unwrap_or(0)));
                    } else {
                        self.write(w, locs[0], l, u128::from(acc.unwrap_or(0)));
                    }
                }
            }
            op => return Err((ErrorKind::Invalid(format!("`{op}` is not a warp operation")), None)),
        }
        Ok(())
    }
}
