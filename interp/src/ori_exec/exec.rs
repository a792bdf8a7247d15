//! The execution engine behind [`super::run_ori_with`]; the model is documented in [`super`].

use std::collections::HashMap;

use ptxas_rs::ori::cfg::Cfg;
use ptxas_rs::ori::opcode::SlotKind;
use ptxas_rs::ori::print::inst_to_string;
use ptxas_rs::ori::semantics::{self, Arg, Val};
use ptxas_rs::ori::{
    Block, EntityRef, Function, Half, Inst, InstData, MemRef, Module, Opcode, Operand, Reg, RegFile, Space, SpecialReg,
    Ty,
};

mod bar;
mod mbar;
mod ops;
mod sysfn;
mod tensor;
mod texture;
mod wgmma;

use super::postdom::PostDom;
use super::{ErrorKind, ExecConfig, ExecError, Outputs, ThreadId};
use crate::launch::LaunchSpec;
use crate::memory::{Fault, FaultKind, LaunchMemory, MemSpace, Region, USER_CONST_BANK, WINDOWS, resolve_generic};

const WARP: usize = 32;

/// Where each register lives: virtual registers in the frame's array, physical registers in
/// the warp's physical register file (shared across ABI calls, as the ABI requires).
struct Slots {
    vreg: Vec<u32>,
    total: u32,
}

impl Slots {
    fn new(f: &Function) -> Slots {
        let mut vreg = Vec::with_capacity(f.vregs.len());
        let mut next = 0u32;
        for (_, d) in f.vregs.iter() {
            vreg.push(next);
            next += u32::from(d.class.count.max(1));
        }
        Slots { vreg, total: next }
    }
}

/// The slots of the physical register files, 256 registers each, in [`RegFile::ALL`] order.
fn phys_base(file: RegFile) -> u32 {
    RegFile::ALL.iter().position(|&f| f == file).unwrap_or(0) as u32 * 256
}

/// Slots of the physical register file.
const PHYS_SLOTS: usize = RegFile::ALL.len() * 256;

/// The slot of R1, the ABI's stack pointer.
fn r1_slot() -> usize {
    phys_base(RegFile::R) as usize + 1
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum WarpState {
    Running,
    AtBarrier(u32, Inst),
    /// Polled an mbarrier whose phase has not completed: runs again after the CTA's other
    /// running warps had their turn.
    Yielded,
    Done,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    block: Block,
    idx: usize,
    rpc: Option<Block>,
    mask: u32,
    /// Waits for lanes that can only exit (no post-dominator): must never run again.
    parked: bool,
}

struct Warp {
    id: u32,
    exited: u32,
    live_init: u32,
    stack: Vec<Entry>,
    /// The current frame's virtual registers.
    regs: Vec<u32>,
    /// The physical registers (R, UR, P, UP, B, UB, ...): one file shared by the frames of ABI
    /// calls (`CALL`); a PTX-stage call's callee has its own.
    phys: Vec<u32>,
    prev: [Option<Block>; WARP],
    state: WarpState,
    /// The function the warp executes now (index into the module).
    fidx: usize,
    /// Lanes that returned from the current callee (they wait for the others).
    returned: u32,
    /// The current callee's return values, per value, per lane.
    ret_vals: Vec<[u128; WARP]>,
    /// The callers' suspended state, innermost last.
    frames: Vec<Frame>,
}

/// A caller suspended at a call.
struct Frame {
    fidx: usize,
    stack: Vec<Entry>,
    regs: Vec<u32>,
    prev: [Option<Block>; WARP],
    returned: u32,
    ret_vals: Vec<[u128; WARP]>,
    /// The call's destinations (caller registers).
    dsts: Vec<Reg>,
    /// The call's argument values, per argument, per lane.
    args: Vec<[u128; WARP]>,
    /// Lanes of an indirect call still to call their (different) targets: (function, lanes).
    pending: Vec<(usize, u32)>,
    /// An ABI call (`CALL`): the caller's stack pointer R1 per lane at the call.
    sp: Option<[u32; WARP]>,
    /// A PTX-stage call (`call`, `calli`): the caller's physical registers, which the callee
    /// does not share.
    phys: Option<Vec<u32>>,
}

/// Per-function tables.
struct FnInfo {
    slots: Slots,
    pdom: PostDom,
}

struct Cta {
    id: [u32; 3],
    shared: Region,
    locals: Vec<Option<Region>>,
    /// Pending transactions of each mbarrier, by shared address ([`ptxas_rs::ori::mbarrier`]).
    mbar_tx: std::collections::BTreeMap<u64, i64>,
    /// The CTA barriers' phases ([`bar`]).
    bars: bar::Barriers,
}

/// Where a register's components are; `None` for the zero/true registers.
#[derive(Copy, Clone)]
struct Loc {
    slot: u32,
    count: u32,
    file: RegFile,
    zero: bool,
    /// In the physical register file (else in the frame's virtual registers).
    phys: bool,
}

type Er = (ErrorKind, Option<u32>);

struct Engine<'a> {
    module: &'a Module,
    f: &'a Function,
    fns: Vec<FnInfo>,
    cur: usize,
    spec: &'a LaunchSpec,
    config: &'a ExecConfig,
    mem: LaunchMemory,
    /// Global addresses of module `global` variables.
    global_syms: HashMap<String, u64>,
    /// Offsets of module `const` variables in the user constant bank.
    const_syms: HashMap<String, u64>,
    shared_syms: HashMap<String, u64>,
    shared_size: usize,
    steps: u64,
    threads: u32,
    /// The system functions' state (`vprintf`'s log, the heap).
    services: crate::sysfn::Services,
}

pub(super) fn run(module: &Module, kernel: &str, spec: &LaunchSpec, config: &ExecConfig) -> Result<Outputs, ExecError> {
    let f = module.function(kernel).ok_or_else(|| ExecError {
        function: kernel.to_owned(),
        inst: None,
        thread: None,
        kind: ErrorKind::NoKernel(kernel.to_owned()),
    })?;
    let fail = |kind| ExecError { function: f.name.clone(), inst: None, thread: None, kind };
    if config.verify {
        ptxas_rs::ori::verify_module(module).map_err(|e| fail(ErrorKind::Invalid(e.to_string())))?;
    }
    let kidx = module.functions.iter().position(|g| g.name == f.name).unwrap_or(0);
    if !f.params.is_empty() {
        return Err(fail(ErrorKind::Unsupported(
            "a kernel with register parameters (kernels read parameters from param space or c[0])".into(),
        )));
    }
    if f.entry().is_none() {
        return Err(fail(ErrorKind::Invalid("the function has no blocks".into())));
    }
    let fns = module
        .functions
        .iter()
        .map(|g| FnInfo { slots: Slots::new(g), pdom: PostDom::compute(g, &Cfg::compute(g)) })
        .collect();
    // Shared memory: sm_90's reserved bytes, the configured symbols, then the module's static
    // shared variables, in order at their alignment; dynamic shared memory (size-0 variables)
    // at the next multiple of 16.
    let mut statics: Vec<(String, u32, u32)> = config.shared_symbols.clone();
    let mut dynamic = Vec::new();
    for v in module.vars.iter().filter(|v| v.space == Space::Shared) {
        if v.size == 0 {
            dynamic.push(v.name.clone());
        } else {
            statics.push((v.name.clone(), v.size as u32, v.align));
        }
    }
    let mut shared_syms = HashMap::new();
    let mut off = crate::memory::SHARED_RESERVED;
    for (name, size, align) in &statics {
        let a = u64::from((*align).max(1));
        off = off.div_ceil(a) * a;
        shared_syms.insert(name.clone(), off);
        off += u64::from(*size);
    }
    let dyn_base = off.div_ceil(16) * 16;
    for name in dynamic {
        shared_syms.insert(name, dyn_base);
    }
    crate::launch::limits::check_shared(config.sm, dyn_base - crate::memory::SHARED_RESERVED, spec.shared_bytes)
        .map_err(|m| fail(ErrorKind::Launch(m)))?;
    let shared_size = (dyn_base + u64::from(spec.shared_bytes)) as usize;
    let mut mem = LaunchMemory::new(spec, config.bank0, config.local_bytes);
    // Module global variables follow the spec's buffers (whose addresses do not move).
    let prefix = |n: &str| format!("@{n}");
    let mut buffers: Vec<(String, Vec<u8>)> = spec.generate_buffers().into_iter().collect();
    for v in module.vars.iter().filter(|v| v.space == Space::Global) {
        let mut bytes = v.init.clone();
        bytes.resize(v.size as usize, 0);
        buffers.push((prefix(&v.name), bytes));
    }
    mem.global = crate::memory::GlobalMemory::from_buffers(buffers);
    let global_syms: HashMap<String, u64> = module
        .vars
        .iter()
        .filter(|v| v.space == Space::Global)
        .filter_map(|v| mem.global.address_of(&prefix(&v.name)).map(|a| (v.name.clone(), a)))
        .collect();
    let mut const_syms = HashMap::new();
    let mut bank = Vec::new();
    for v in module.vars.iter().filter(|v| v.space == Space::Const) {
        let a = (v.align.max(1)) as usize;
        let o = bank.len().div_ceil(a) * a;
        bank.resize(o, 0);
        bank.extend_from_slice(&v.init);
        bank.resize(o + v.size as usize, 0);
        const_syms.insert(v.name.clone(), o as u64);
    }
    // Addresses stored in initial contents.
    for v in &module.vars {
        for r in &v.relocs {
            let target = global_syms
                .get(&r.sym)
                .or_else(|| const_syms.get(&r.sym))
                .or_else(|| shared_syms.get(&r.sym))
                .copied()
                .ok_or_else(|| {
                    fail(ErrorKind::Invalid(format!("${} refers to unknown variable ${}", v.name, r.sym)))
                })?;
            let value = target.wrapping_add(r.addend as u64);
            let bytes = &value.to_le_bytes()[..usize::from(r.size.min(8))];
            match v.space {
                Space::Global => {
                    let base = global_syms.get(&v.name).copied().unwrap_or(0);
                    mem.global
                        .store(base + r.offset, u32::from(r.size), u128::from(value))
                        .map_err(|f| fail(ErrorKind::Fault(f)))?;
                }
                Space::Const => {
                    let o = (const_syms.get(&v.name).copied().unwrap_or(0) + r.offset) as usize;
                    if let Some(dst) = bank.get_mut(o..o + bytes.len()) {
                        dst.copy_from_slice(bytes);
                    }
                }
                _ => return Err(fail(ErrorKind::Unsupported(format!("initialised {} variable", v.space.name())))),
            }
        }
    }
    if !bank.is_empty() {
        mem.banks.insert(USER_CONST_BANK, Region::with_bytes(MemSpace::Const(USER_CONST_BANK), bank, false));
    }
    // The address table of selected (SASS-stage) code: slot i of constant bank 4 holds the
    // address of the i-th global variable instruction selection reads it for (the cubin's
    // relocated `.nv.constant4`).
    let table = ptxas_rs::lower::isel::data_layout(module).address_table;
    if !table.is_empty() {
        let mut slots = Vec::with_capacity(8 * table.len());
        for name in &table {
            let a = global_syms
                .get(name)
                .copied()
                .or_else(|| crate::sysfn::SysFn::by_name(name).map(crate::sysfn::address_of))
                .ok_or_else(|| fail(ErrorKind::Invalid(format!("the address table names unknown variable ${name}"))))?;
            slots.extend_from_slice(&a.to_le_bytes());
        }
        let b = ptxas_rs::lower::isel::ADDRESS_TABLE_BANK;
        mem.banks.insert(b, Region::with_bytes(MemSpace::Const(b), slots, false));
    }
    let mut e = Engine {
        module,
        f,
        fns,
        cur: kidx,
        spec,
        config,
        mem,
        global_syms,
        const_syms,
        shared_syms,
        shared_size,
        steps: 0,
        threads: spec.block.iter().product(),
        services: Default::default(),
    };
    for z in 0..spec.grid[2] {
        for y in 0..spec.grid[1] {
            for x in 0..spec.grid[0] {
                e.run_cta([x, y, z])?;
            }
        }
    }
    Ok(Outputs { buffers: e.mem.outputs(spec), warp_steps: e.steps, log: e.services.log() })
}

impl Engine<'_> {
    fn tid_of(&self, linear: u32) -> [u32; 3] {
        let [bx, by, _] = self.spec.block;
        [linear % bx, (linear / bx) % by, linear / (bx * by)]
    }

    fn thread(&self, cta: [u32; 3], warp: u32, lane: u32) -> ThreadId {
        ThreadId { cta, tid: self.tid_of(warp * 32 + lane), warp, lane }
    }

    fn error(&self, cta: [u32; 3], w: &Warp, inst: Option<Inst>, lane: Option<u32>, kind: ErrorKind) -> ExecError {
        let lane = lane.or_else(|| {
            let m = w.stack.last().map_or(0, |t| t.mask & !w.exited);
            (m != 0).then(|| m.trailing_zeros())
        });
        ExecError {
            function: self.f.name.clone(),
            inst: inst.and_then(|i| self.f.insts.get(i)).map(|d| inst_to_string(self.f, d)),
            thread: lane.map(|l| self.thread(cta, w.id, l)),
            kind,
        }
    }

    fn run_cta(&mut self, id: [u32; 3]) -> Result<(), ExecError> {
        let entry = self.f.entry().unwrap_or(Block::from_u32(0));
        let nwarps = self.threads.div_ceil(32);
        let mut warps: Vec<Warp> = (0..nwarps)
            .map(|w| {
                let n = (self.threads - w * 32).min(32);
                let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
                Warp {
                    id: w,
                    exited: 0,
                    live_init: mask,
                    stack: vec![Entry { block: entry, idx: 0, rpc: None, mask, parked: false }],
                    regs: vec![0; self.fns[self.cur].slots.total as usize * WARP],
                    phys: vec![0; PHYS_SLOTS * WARP],
                    prev: [None; WARP],
                    state: WarpState::Running,
                    fidx: self.cur,
                    returned: 0,
                    ret_vals: Vec::new(),
                    frames: Vec::new(),
                }
            })
            .collect();
        let mut cta = Cta {
            id,
            shared: Region::zeroed(MemSpace::Shared, self.shared_size, true),
            locals: (0..self.threads).map(|_| None).collect(),
            mbar_tx: std::collections::BTreeMap::new(),
            bars: bar::Barriers::new(nwarps),
        };
        loop {
            for w in warps.iter_mut() {
                if w.state == WarpState::Running {
                    self.run_warp(&mut cta, w)?;
                }
            }
            // Warps that yielded in a spin on an mbarrier poll again; a barrier releases only
            // when no warp is running or polling.
            if warps.iter().any(|w| w.state == WarpState::Yielded) {
                for w in warps.iter_mut().filter(|w| w.state == WarpState::Yielded) {
                    w.state = WarpState::Running;
                }
                continue;
            }
            let waiting: Vec<(u32, u32, Inst)> = warps
                .iter()
                .filter_map(|w| match w.state {
                    WarpState::AtBarrier(b, i) => Some((w.id, b, i)),
                    _ => None,
                })
                .collect();
            let Some(&(w0, _, i0)) = waiting.first() else {
                return Ok(());
            };
            // Barriers without a count complete once every live warp arrived.
            let live = warps.iter().filter(|w| w.state != WarpState::Done).count() as u32;
            cta.bars.complete_all(live);
            let mut released = false;
            for w in warps.iter_mut() {
                if matches!(w.state, WarpState::AtBarrier(..)) && cta.bars.is_released(w.id) {
                    w.state = WarpState::Running;
                    released = true;
                }
            }
            if !released {
                let mut desc: Vec<String> =
                    waiting.iter().map(|(w, b, _)| format!("warp {w} at barrier {b}")).collect();
                desc.extend(cta.bars.waiting());
                let w = &warps[w0 as usize];
                return Err(self.error(id, w, Some(i0), None, ErrorKind::Deadlock(desc.join(", "))));
            }
        }
    }

    /// Pops finished and reconverged entries; returns the top entry's active mask (0: done).
    fn normalize(w: &mut Warp) -> u32 {
        while let Some(top) = w.stack.last() {
            let active = top.mask & !w.exited & !w.returned;
            if active == 0 || (top.idx == 0 && Some(top.block) == top.rpc) {
                w.stack.pop();
                continue;
            }
            return active;
        }
        0
    }

    /// Makes function `i` the one executing.
    fn set_fn(&mut self, i: usize) {
        self.cur = i;
        self.f = &self.module.functions[i];
    }

    fn run_warp(&mut self, cta: &mut Cta, w: &mut Warp) -> Result<(), ExecError> {
        self.set_fn(w.fidx);
        loop {
            let active = Self::normalize(w);
            if active == 0 {
                if !w.frames.is_empty() {
                    if let Err((kind, lane)) = self.return_to_caller(w) {
                        return Err(self.error(cta.id, w, None, lane, kind));
                    }
                    continue;
                }
                w.state = WarpState::Done;
                return Ok(());
            }
            let Some(top) = w.stack.last().copied() else {
                w.state = WarpState::Done;
                return Ok(());
            };
            let Some(&inst) = self.f.block_insts(top.block).get(top.idx) else {
                let kind = ErrorKind::Invalid(format!("fell off the end of {} without a terminator", top.block));
                return Err(self.error(cta.id, w, None, None, kind));
            };
            if top.parked {
                let kind = ErrorKind::Invalid("lanes resumed at a parked reconvergence entry".into());
                return Err(self.error(cta.id, w, Some(inst), None, kind));
            }
            if self.steps >= self.config.step_limit {
                return Err(self.error(cta.id, w, Some(inst), None, ErrorKind::StepLimit(self.config.step_limit)));
            }
            self.steps += 1;
            match self.step(cta, w, inst, active) {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err((kind, lane)) => return Err(self.error(cta.id, w, Some(inst), lane, kind)),
            }
        }
    }

    /// Executes one instruction for the active lanes. Returns false when the warp stops
    /// running (barrier).
    fn step(&mut self, cta: &mut Cta, w: &mut Warp, inst: Inst, active: u32) -> Result<bool, Er> {
        let f = self.f;
        let d = f.insts.get(inst).ok_or((ErrorKind::Invalid(format!("unknown instruction {inst}")), None))?;
        if d.opcode == Opcode::Phi {
            self.phis(w)?;
            return Ok(true);
        }
        let exec = active & self.guard_mask(w, d)?;
        let info = d.opcode.info();
        if info.is_terminator() {
            return self.terminator(w, d, active, exec).map(|()| true);
        }
        use Opcode::*;
        match d.opcode {
            Ld | LDG | LDS | LDL | LD => self.load(cta, w, d, exec)?,
            St | STG | STS | STL | ST => self.store(cta, w, d, exec)?,
            Bar | BAR | BarArrive | BARARV | BarRed | BARRED => {
                if let Some(id) = self.barrier(cta, w, d, exec)? {
                    w.state = WarpState::AtBarrier(id, inst);
                    return Ok(false);
                }
            }
            // The cluster barrier under the one-CTA-per-cluster model: a launch without a
            // cluster, or with clusters of one CTA, has the CTA as its cluster, so `arrive`
            // has nothing to wait for and `wait` completes once every live warp of the CTA
            // reached it: barrier 0's all-threads `bar.sync` (ptxas's own non-cluster path is
            // `BAR.SYNC 0`). A warp arrives before it waits, so every warp at a wait has
            // arrived. Clusters of several CTAs are refused, never run wrongly.
            ClusterArrive | UCGABARARV | ClusterWait | UCGABARWAIT => {
                if let Some(c) = self.spec.cluster.filter(|c| c.iter().product::<u32>() > 1) {
                    let m = format!(
                        "barrier.cluster with {} CTAs per cluster (one is modelled)",
                        c.iter().product::<u32>()
                    );
                    return Err((ErrorKind::Unsupported(m), None));
                }
                if matches!(d.opcode, ClusterWait | UCGABARWAIT)
                    && let Some(id) = self.barrier(cta, w, d, exec)?
                {
                    w.state = WarpState::AtBarrier(id, inst);
                    return Ok(false);
                }
            }
            B2R => self.b2r(cta, w, d, exec)?,
            Membar | MEMBAR | NOP | BSSY | BSYNC | WARPSYNC | Warpsync => {}
            // The interpreter's memory is sequentially consistent, one proxy: fences are no-ops.
            ERRBAR | CGAERRBAR | CCTLIVALL | FENCEVIEW | YIELD => {}
            Trap | BPT if exec != 0 => return Err((ErrorKind::Trap, Some(exec.trailing_zeros()))),
            // A single launch has no prerequisite grid to wait for and no dependent grid to
            // launch early: `griddepcontrol` (programmatic dependent launch) has no effect.
            Trap | BPT | Griddep | ACQBULK | PREEXIT => {}
            Call | Calli => {
                if exec != 0 {
                    return self.call(cta, w, d, exec).map(|()| true);
                }
            }
            CALLABS => {
                if exec != 0 {
                    return self.system_call_abs(cta, w, d, exec).map(|()| true);
                }
            }
            // The return address of a `CALLABS`, which the interpreter does not need.
            LEPC => {}
            CALL => {
                if exec != 0 {
                    return self.abi_call(cta, w, d, exec).map(|()| true);
                }
            }
            Atom | AtomCas | ATOM | ATOMCAS | ATOMG | ATOMGCAS | ATOMS | ATOMSCAS => self.atomic(cta, w, d, exec)?,
            Mova | Cvta | CvtaTo | Isspacep | QSPC | Getctarank => self.address_op(cta, w, d, exec)?,
            Shfl | SHFL | Vote | Ballot | VOTE | MatchAny | MatchAll | MATCH | Redux | REDUX | Elect | Activemask
            | ACTIVEMASK => self.warp_op(cta, w, d, active, exec)?,
            Ldmatrix | Stmatrix | Movmatrix | MOVM | Mma | LDSM | STSM | HMMA | IMMA => {
                self.tensor_op(cta, w, d, exec)?
            }
            PACK128 | UPACK128 | UNPACK128 | PACKW | UNPACKW | Split | Join => self.quad_copy(w, d, exec)?,
            CpAsync | LDGSTS => self.cp_async(cta, w, d, exec)?,
            CpAsyncCommit | CpAsyncWait | LDGDEPBAR | DEPBAR | Pmevent | PMTRIG => {}
            // `setmaxnreg` changes the warp's register allocation, not a value: no effect on
            // data. `USETMAXREG.TRY_ALLOC` is always granted here (its predicate true).
            Setmaxnreg => {}
            USETMAXREG => {
                if let Some(&p) = d.dsts.first() {
                    let p = self.loc(p)?;
                    for lane in (0..WARP as u32).filter(|l| exec >> l & 1 == 1) {
                        self.write(w, p, lane, 1);
                    }
                }
            }
            // No tensormap proxy in this model (see the opcode's docs).
            TensormapAcquire | DEPBARLIST | UTMACCTL => {}
            Wgmma => self.wgmma(cta, w, d, exec)?,
            Tex | Tld4 | Txq | Suq | Suld | Sust => self.texture_op(cta, w, d, exec)?,
            HGMMA => self.hgmma(cta, w, d, exec)?,
            VOTEU => self.voteu(cta, w, d, exec)?,
            WgmmaFence | WgmmaCommit | WgmmaWait | WARPGROUPARRIVE | WARPGROUPDEPBAR => {}
            // `ELECT` with a member mask (`elect.sync`) is a collective; without, the mbarrier
            // sequences' lowest-lane pick.
            ELECT if !d.srcs.is_empty() => self.warp_op(cta, w, d, active, exec)?,
            R2UR | ELECT => self.uniform_op(cta, w, d, exec)?,
            MbarInit | MbarArrive | MbarTestWait | MbarTryWait | MbarInval | CpAsyncMbarArrive | CpBulk | SYNCSEXCH
            | SYNCSARRIVE | SYNCSPHASECHK | SYNCSTRYWAIT | SYNCSCCTL | ARRIVES | UBLKCP => {
                if self.mbar_op(cta, w, d, exec)? {
                    self.advance(w);
                    w.state = WarpState::Yielded;
                    return Ok(false);
                }
            }
            _ => self.pure(cta, w, d, exec)?,
        }
        self.advance(w);
        Ok(true)
    }

    fn advance(&self, w: &mut Warp) {
        if let Some(t) = w.stack.last_mut() {
            t.idx += 1;
        }
    }

    fn goto(w: &mut Warp, from: Block, to: Block, lanes: u32) {
        for l in 0..WARP {
            if lanes >> l & 1 == 1 {
                w.prev[l] = Some(from);
            }
        }
        if let Some(t) = w.stack.last_mut() {
            t.block = to;
            t.idx = 0;
        }
    }

    /// Splits the warp at the end of `top`'s block into `groups` (target, lanes), at least two:
    /// the top entry becomes the reconvergence entry at the block's immediate post-dominator (or
    /// is popped when it already is that entry; parked when there is none, i.e. the paths can
    /// only exit), and one entry per group is pushed so that `groups[0]` runs first.
    fn diverge(&self, w: &mut Warp, top: Entry, active: u32, groups: &[(Block, u32)]) {
        let b = top.block;
        for l in 0..WARP {
            if active >> l & 1 == 1 {
                w.prev[l] = Some(b);
            }
        }
        let r = self.fns[self.cur].pdom.ipdom(b);
        if top.rpc == r && !top.parked {
            w.stack.pop();
        } else if let Some(t) = w.stack.last_mut() {
            match r {
                Some(r) => {
                    t.block = r;
                    t.idx = 0;
                }
                None => t.parked = true,
            }
        }
        for &(block, mask) in groups.iter().rev() {
            w.stack.push(Entry { block, idx: 0, rpc: r, mask, parked: false });
        }
    }

    fn terminator(&mut self, w: &mut Warp, d: &InstData, active: u32, exec: u32) -> Result<(), Er> {
        let Some(top) = w.stack.last().copied() else { return Ok(()) };
        let b = top.block;
        let rest = active & !exec;
        let next = || {
            self.f
                .layout_next(b)
                .ok_or((ErrorKind::Invalid(format!("guarded terminator at the end of the layout ({b})")), None))
        };
        use Opcode::*;
        match d.opcode {
            Bra | BRA => {
                let target = d
                    .blocks()
                    .next()
                    .filter(|t| self.f.blocks.is_valid(*t))
                    .ok_or((ErrorKind::Invalid("branch without a valid target".into()), None))?;
                if rest == 0 {
                    Self::goto(w, b, target, active);
                } else if exec == 0 {
                    let n = next()?;
                    Self::goto(w, b, n, active);
                } else {
                    let n = next()?;
                    if n == target {
                        Self::goto(w, b, n, active);
                        return Ok(());
                    }
                    // The fall-through group runs first.
                    self.diverge(w, top, active, &[(n, rest), (target, exec)]);
                }
                Ok(())
            }
            Brx => self.brx(w, d, top, active, exec),
            Ret | RET if !w.frames.is_empty() => {
                // An ABI return's operands are the return address and the result registers,
                // which the callee already wrote in the shared physical file: nothing to pass.
                let vals = if d.opcode == Ret { &d.srcs[..] } else { &[] };
                for (k, o) in vals.iter().enumerate() {
                    let Operand::Reg(u) = o else { continue };
                    let loc = self.loc(u.reg)?;
                    if w.ret_vals.len() <= k {
                        w.ret_vals.resize(k + 1, [0; WARP]);
                    }
                    for l in 0..WARP as u32 {
                        if exec >> l & 1 == 1 {
                            w.ret_vals[k][l as usize] = self.read(w, loc, l)?;
                        }
                    }
                }
                w.returned |= exec;
                if rest != 0 {
                    let n = next()?;
                    Self::goto(w, b, n, rest);
                }
                Ok(())
            }
            Exit | EXIT | Ret | RET => {
                w.exited |= exec;
                if rest != 0 {
                    let n = next()?;
                    Self::goto(w, b, n, rest);
                }
                Ok(())
            }
            _ => Err((ErrorKind::Unsupported(format!("terminator `{}`", d.opcode)), None)),
        }
    }

    fn guard_mask(&self, w: &Warp, d: &InstData) -> Result<u32, Er> {
        let Some(g) = d.guard else { return Ok(u32::MAX) };
        let loc = self.loc(g.reg)?;
        let mut m = 0u32;
        for l in 0..WARP {
            let v = self.read(w, loc, l as u32)? != 0;
            if v != g.not {
                m |= 1 << l;
            }
        }
        Ok(m)
    }

    fn loc(&self, r: Reg) -> Result<Loc, Er> {
        match r {
            Reg::Virt(v) => {
                let class = self.f.vregs.get(v).map(|d| d.class);
                let (Some(c), Some(&slot)) = (class, self.fns[self.cur].slots.vreg.get(v.index())) else {
                    return Err((ErrorKind::Invalid(format!("unknown virtual register {v}")), None));
                };
                Ok(Loc { slot, count: u32::from(c.count.max(1)), file: c.file, zero: false, phys: false })
            }
            Reg::Phys(p) => {
                let base = phys_base(p.file);
                let count = u32::from(p.count.max(1));
                if u32::from(p.index) + count > 256 {
                    return Err((ErrorKind::Invalid(format!("register {p} out of range")), None));
                }
                Ok(Loc { slot: base + u32::from(p.index), count, file: p.file, zero: p.is_zero(), phys: true })
            }
        }
    }

    /// Reads up to 128 bits of a register for one lane.
    fn read(&self, w: &Warp, loc: Loc, lane: u32) -> Result<u128, Er> {
        if loc.zero {
            return Ok(u128::from(loc.file.is_pred()));
        }
        if loc.count > 4 {
            // A wide tuple (warpgroup MMA accumulators) is read component by component.
            return Err((ErrorKind::Unsupported("a wide register tuple read as one value".into()), Some(lane)));
        }
        let mut v = 0u128;
        let regs = if loc.phys { &w.phys } else { &w.regs };
        for k in 0..loc.count {
            let i = (loc.slot + k) as usize * WARP + lane as usize;
            v |= u128::from(regs.get(i).copied().unwrap_or(0)) << (32 * k);
        }
        Ok(v)
    }

    /// Writes `v` to `loc` of `lane` only, even for a uniform register (a collective that ran
    /// in several groups of one warp).
    fn write_lane(&self, w: &mut Warp, loc: Loc, lane: u32, v: u128) {
        Self::write_lanes(w, loc, lane..lane + 1, v);
    }

    /// Writes `v` to `loc`: a uniform register in every lane (one value per warp), any other
    /// register in `lane`.
    fn write(&self, w: &mut Warp, loc: Loc, lane: u32, v: u128) {
        let lanes = if loc.file.is_uniform() { 0..WARP as u32 } else { lane..lane + 1 };
        Self::write_lanes(w, loc, lanes, v);
    }

    fn write_lanes(w: &mut Warp, loc: Loc, lanes: std::ops::Range<u32>, v: u128) {
        if loc.zero {
            return;
        }
        let regs = if loc.phys { &mut w.phys } else { &mut w.regs };
        // A wide tuple is written component by component (`dst_words`); a whole-value write
        // covers at most 128 bits.
        for k in 0..loc.count.min(4) {
            let comp = if loc.file.is_pred() { u32::from(v != 0) } else { (v >> (32 * k)) as u32 };
            for l in lanes.clone() {
                if let Some(x) = regs.get_mut((loc.slot + k) as usize * WARP + l as usize) {
                    *x = comp;
                }
            }
        }
    }

    fn sreg(&self, cta: &Cta, w: &Warp, r: SpecialReg, lane: u32) -> u64 {
        use SpecialReg::*;
        let tid = self.tid_of(w.id * 32 + lane);
        let lt = (1u64 << lane) - 1;
        match r {
            TidX => u64::from(tid[0]),
            TidY => u64::from(tid[1]),
            TidZ => u64::from(tid[2]),
            NtidX => u64::from(self.spec.block[0]),
            NtidY => u64::from(self.spec.block[1]),
            NtidZ => u64::from(self.spec.block[2]),
            CtaidX => u64::from(cta.id[0]),
            CtaidY => u64::from(cta.id[1]),
            CtaidZ => u64::from(cta.id[2]),
            NctaidX => u64::from(self.spec.grid[0]),
            NctaidY => u64::from(self.spec.grid[1]),
            NctaidZ => u64::from(self.spec.grid[2]),
            LaneId => u64::from(lane),
            // As the emulator reports them (its `sreg`): the warp's index in its CTA, an
            // H100's warp slots and SM count, SM 0, grid 0.
            WarpId => u64::from(w.id),
            VirtId => u64::from(w.id) << 8,
            NWarpId => u64::from(crate::memory::WARP_SLOTS),
            VirtCfg => u64::from(crate::memory::WARP_SLOTS) << 8,
            // The interpreter's shared addresses are window offsets (no CTA-slot bits).
            SmId | VirtualSmId | GridId | CgaCtaId => 0,
            SwinHi => u64::from(crate::memory::SHARED_HI),
            NSmId => u64::from(crate::memory::SM_COUNT),
            SmemSz => self.shared_size as u64,
            LanemaskEq => 1 << lane,
            LanemaskLt => lt,
            LanemaskLe => lt | 1 << lane,
            LanemaskGt => !(lt | 1 << lane) & 0xFFFF_FFFF,
            LanemaskGe => !lt & 0xFFFF_FFFF,
            ClockLo | GlobalTimerLo => self.steps & 0xFFFF_FFFF,
            ClockHi | GlobalTimerHi => self.steps >> 32,
            DynSmemSize => u64::from(self.spec.shared_bytes),
            TotalSmemSize => self.shared_size as u64,
            ReservedSmemBegin | ReservedSmem0 | ReservedSmemCap | ReservedSmemEnd | ReservedSmem1 => {
                crate::memory::reserved_smem(r, self.config.bank0.driver.is_some(), self.shared_size as u64)
            }
            // A launch without a cluster runs as clusters of one CTA (not explicit), as the
            // driver reports it; CTAs of a cluster are consecutive, x fastest.
            ClusterIdX | ClusterIdY | ClusterIdZ => {
                let k = r as usize - ClusterIdX as usize;
                u64::from(cta.id[k] / self.cluster_dims()[k])
            }
            NClusterIdX | NClusterIdY | NClusterIdZ => {
                let k = r as usize - NClusterIdX as usize;
                u64::from(self.spec.grid[k] / self.cluster_dims()[k])
            }
            ClusterCtaidX | ClusterCtaidY | ClusterCtaidZ => {
                let k = r as usize - ClusterCtaidX as usize;
                u64::from(cta.id[k] % self.cluster_dims()[k])
            }
            ClusterNctaidX | ClusterNctaidY | ClusterNctaidZ => {
                u64::from(self.cluster_dims()[r as usize - ClusterNctaidX as usize])
            }
            ClusterCtaRank => {
                let c = self.cluster_dims();
                let at = |k: usize| u64::from(cta.id[k] % c[k]);
                at(0) + u64::from(c[0]) * (at(1) + u64::from(c[1]) * at(2))
            }
            ClusterNctaRank => self.cluster_dims().iter().map(|&d| u64::from(d)).product(),
            IsExplicitCluster => u64::from(self.spec.cluster.is_some()),
        }
    }

    /// CTAs per cluster dimension (1, 1, 1 without a cluster).
    fn cluster_dims(&self) -> [u32; 3] {
        self.spec.cluster.unwrap_or([1, 1, 1])
    }

    /// The width in bytes of source slot `i` of `d` (for constant-bank reads).
    fn slot_bytes(d: &InstData, i: usize) -> u32 {
        let info = d.opcode.info();
        let slot = info.srcs.get(i).or(info.srcs.last());
        let ty_bytes = |t: Option<Ty>| t.map_or(4, |t| (t.bits() / 8).max(1));
        match slot.map(|s| s.kind) {
            Some(SlotKind::Ty) => ty_bytes(d.ty()),
            Some(SlotKind::SrcTy) => ty_bytes(d.mods.src_ty),
            Some(SlotKind::TyWide) => ty_bytes(d.ty()) * if d.mods.half == Some(Half::Wide) { 2 } else { 1 },
            Some(SlotKind::Dword) => 8,
            _ => 4,
        }
    }

    fn src(&self, w: &Warp, cta: &Cta, d: &InstData, i: usize, o: &Operand, lane: u32) -> Result<Arg, Er> {
        let bits = |v: u64| Arg::bits(v);
        match o {
            Operand::Reg(u) => {
                let loc = self.loc(u.reg)?;
                let v = self.read(w, loc, lane)?;
                let val = if loc.file.is_pred() {
                    Val::Pred(v != 0)
                } else if loc.count > 2 {
                    return Err((ErrorKind::Unsupported("a 128-bit operand of a pure operation".into()), Some(lane)));
                } else {
                    Val::Bits(v as u64)
                };
                Ok(Arg { val, neg: u.neg, abs: u.abs, not: u.not })
            }
            Operand::Imm(imm) => Ok(bits(imm.bits())),
            Operand::SReg(r) => Ok(bits(self.sreg(cta, w, *r, lane))),
            Operand::CBank(c) => {
                let idx = match c.index {
                    Some(r) => self.read(w, self.loc(r)?, lane)? as u32 as u64,
                    None => 0,
                };
                let addr = idx.wrapping_add(c.offset as i64 as u64);
                let size = Self::slot_bytes(d, i);
                let v = self.mem.load_const(c.bank, addr, size).map_err(|f| (ErrorKind::Fault(f), Some(lane)))?;
                Ok(bits(v as u64))
            }
            o => Err((ErrorKind::Invalid(format!("a {} operand where a value is read", o.kind_name())), Some(lane))),
        }
    }

    fn pure(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let locs: Vec<Loc> = d.dsts.iter().map(|r| self.loc(*r)).collect::<Result<_, _>>()?;
        // Resolve each source once per instruction: registers to their location, immediates to
        // their value; only special registers and bank reads are evaluated per lane.
        enum Pre {
            Reg(Loc, Arg),
            Fixed(Arg),
            PerLane,
        }
        let mut pre = Vec::with_capacity(d.srcs.len());
        for o in &d.srcs {
            pre.push(match o {
                Operand::Reg(u) => {
                    let loc = self.loc(u.reg)?;
                    if !loc.file.is_pred() && loc.count > 2 {
                        let m = "a 128-bit operand of a pure operation".into();
                        return Err((ErrorKind::Unsupported(m), None));
                    }
                    Pre::Reg(loc, Arg { val: Val::Bits(0), neg: u.neg, abs: u.abs, not: u.not })
                }
                Operand::Imm(imm) => Pre::Fixed(Arg::bits(imm.bits())),
                _ => Pre::PerLane,
            });
        }
        let mut args = vec![Arg::bits(0); d.srcs.len()];
        for lane in 0..WARP as u32 {
            if exec >> lane & 1 == 0 {
                continue;
            }
            for (i, p) in pre.iter().enumerate() {
                args[i] = match p {
                    Pre::Reg(loc, a) => {
                        let v = self.read(w, *loc, lane)?;
                        let val = if loc.file.is_pred() { Val::Pred(v != 0) } else { Val::Bits(v as u64) };
                        Arg { val, ..*a }
                    }
                    Pre::Fixed(a) => *a,
                    Pre::PerLane => self.src(w, cta, d, i, &d.srcs[i], lane)?,
                };
            }
            let out = if self.config.unfuse_contracted {
                semantics::eval_unfused(d.opcode, &d.mods, &args)
            } else {
                semantics::eval(d.opcode, &d.mods, &args)
            };
            let out = out.map_err(|e| (ErrorKind::from(e), Some(lane)))?;
            if out.len() != locs.len() {
                let m = format!("{} results for {} destinations", out.len(), locs.len());
                return Err((ErrorKind::Invalid(m), Some(lane)));
            }
            for (loc, v) in locs.iter().zip(out) {
                let v = match v {
                    Val::Pred(p) => u128::from(p),
                    Val::Bits(b) => u128::from(b),
                };
                self.write(w, *loc, lane, v);
            }
            if locs.iter().any(|l| l.file.is_uniform()) {
                // Uniform results come from the lowest active lane.
                break;
            }
        }
        Ok(())
    }

    fn phis(&mut self, w: &mut Warp) -> Result<(), Er> {
        let Some(top) = w.stack.last().copied() else { return Ok(()) };
        let insts = self.f.block_insts(top.block);
        let active = top.mask & !w.exited;
        let mut end = top.idx;
        while let Some(d) = insts.get(end).and_then(|&i| self.f.insts.get(i)) {
            if d.opcode != Opcode::Phi {
                break;
            }
            end += 1;
        }
        let mut writes: Vec<(Loc, u32, u128)> = Vec::new();
        for &i in &insts[top.idx..end] {
            let Some(d) = self.f.insts.get(i) else { continue };
            let dst = d.dsts.first().ok_or((ErrorKind::Invalid("phi without a destination".into()), None))?;
            let dloc = self.loc(*dst)?;
            for lane in 0..WARP as u32 {
                if active >> lane & 1 == 0 {
                    continue;
                }
                let from = w.prev[lane as usize];
                let value = d.srcs.chunks(2).find_map(|c| match c {
                    [Operand::Reg(u), Operand::Block(b)] if Some(*b) == from => Some(u.reg),
                    _ => None,
                });
                let Some(r) = value else {
                    let m = format!("phi has no value for predecessor {from:?}");
                    return Err((ErrorKind::Invalid(m), Some(lane)));
                };
                let v = self.read(w, self.loc(r)?, lane)?;
                writes.push((dloc, lane, v));
            }
        }
        for (loc, lane, v) in writes {
            self.write(w, loc, lane, v);
        }
        if let Some(t) = w.stack.last_mut() {
            t.idx = end;
        }
        Ok(())
    }

    fn mem_ref(d: &InstData) -> Result<&MemRef, Er> {
        match d.srcs.first() {
            Some(Operand::Mem(m)) => Ok(m),
            _ => Err((ErrorKind::Invalid("a memory instruction without a memory operand".into()), None)),
        }
    }

    fn access_size(d: &InstData) -> Result<u32, Er> {
        match d.ty() {
            Some(Ty::Pred) | None => Err((ErrorKind::Invalid("a memory access without a data type".into()), None)),
            Some(t) => Ok((t.bits() / 8).max(1)),
        }
    }

    /// The space and space-relative address a lane accesses.
    fn address(&self, w: &Warp, d: &InstData, m: &MemRef, lane: u32) -> Result<(Space, u64), Er> {
        let space = match (d.opcode, m.space) {
            (Opcode::LDG | Opcode::STG, _) => Space::Global,
            (Opcode::LDS | Opcode::STS, _) => Space::Shared,
            (Opcode::LDL | Opcode::STL, _) => Space::Local,
            (_, s) => s,
        };
        let mut narrow = false;
        let mut a = match m.base {
            Some(r) => {
                let loc = self.loc(r)?;
                narrow = loc.count == 1;
                self.read(w, loc, lane)? as u64
            }
            None => 0,
        };
        if let Some(sym) = &m.sym {
            let base = match space {
                Space::Shared => self.shared_syms.get(sym).copied(),
                Space::Global => self.global_syms.get(sym).copied(),
                Space::Const => self.const_syms.get(sym).copied(),
                _ => None,
            };
            let base = base
                .ok_or_else(|| (ErrorKind::Invalid(format!("unknown {} symbol `${sym}`", space.name())), Some(lane)))?;
            a = a.wrapping_add(base);
        }
        a = a.wrapping_add(m.offset as u64);
        if space == Space::Generic {
            return Ok(crate::memory::resolve_generic(a));
        }
        // A 32-bit base register addresses the 32-bit local and shared windows: the sum wraps
        // at 2^32, as the hardware's 32-bit address arithmetic does (`[%r - 12 + 24]` after a
        // `sub.s32` below the window's start, as libdevice's trig reduction computes it).
        if narrow && matches!(space, Space::Local | Space::Shared) {
            a &= 0xffff_ffff;
        }
        Ok((space, a))
    }

    fn local<'c>(&self, cta: &'c mut Cta, w: &Warp, lane: u32) -> Option<&'c mut Region> {
        let t = (w.id * 32 + lane) as usize;
        let bytes = self.config.local_bytes as usize;
        let slot = cta.locals.get_mut(t)?;
        Some(slot.get_or_insert_with(|| Region::zeroed(MemSpace::Local, bytes, true)))
    }

    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        cta: &mut Cta,
        w: &Warp,
        space: Space,
        addr: u64,
        size: u32,
        lane: u32,
        store: Option<u128>,
    ) -> Result<u128, Fault> {
        let oob = |space| Fault { kind: FaultKind::OutOfBounds, space, addr, size, write: store.is_some() };
        match (space, store) {
            (Space::Global, None) => self.mem.global.load(addr, size),
            (Space::Global, Some(v)) => self.mem.global.store(addr, size, v).map(|()| 0),
            (Space::Shared, None) => cta.shared.load(addr, size),
            (Space::Shared, Some(v)) => cta.shared.store(addr, size, v).map(|()| 0),
            (Space::Local, s) => {
                let r = self.local(cta, w, lane).ok_or(oob(MemSpace::Local))?;
                match s {
                    None => r.load(addr, size),
                    Some(v) => r.store(addr, size, v).map(|()| 0),
                }
            }
            (Space::Param, None) => self.mem.param.load(addr, size),
            (Space::Param, Some(v)) => self.mem.param.store(addr, size, v).map(|()| 0),
            (Space::Const, None) => self.mem.load_const(USER_CONST_BANK, addr, size),
            (Space::Const, Some(_)) => Err(Fault {
                kind: FaultKind::ReadOnly,
                space: MemSpace::Const(USER_CONST_BANK),
                addr,
                size,
                write: true,
            }),
            (Space::Generic, _) => Err(oob(MemSpace::Generic)),
        }
    }

    fn load(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let m = Self::mem_ref(d)?;
        let size = Self::access_size(d)?;
        let dst = d.dsts.first().ok_or((ErrorKind::Invalid("a load without a destination".into()), None))?;
        let loc = self.loc(*dst)?;
        let signed = d.ty().is_some_and(Ty::is_signed);
        for lane in 0..WARP as u32 {
            if exec >> lane & 1 == 0 {
                continue;
            }
            let (space, addr) = self.address(w, d, m, lane)?;
            let mut v =
                self.access(cta, w, space, addr, size, lane, None).map_err(|f| (ErrorKind::Fault(f), Some(lane)))?;
            if signed && size < 4 {
                let s = 128 - 8 * size;
                v = (((v << s) as i128) >> s) as u128 & 0xFFFF_FFFF;
            }
            self.write(w, loc, lane, v);
            if loc.file.is_uniform() {
                break;
            }
        }
        Ok(())
    }

    fn store(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let m = Self::mem_ref(d)?;
        let size = Self::access_size(d)?;
        for lane in 0..WARP as u32 {
            if exec >> lane & 1 == 0 {
                continue;
            }
            let v = match d.srcs.get(1) {
                Some(Operand::Reg(u)) => {
                    if u.has_mods() {
                        return Err((ErrorKind::Unsupported("modifiers on a stored register".into()), Some(lane)));
                    }
                    self.read(w, self.loc(u.reg)?, lane)?
                }
                Some(Operand::Imm(i)) => u128::from(i.bits()),
                _ => return Err((ErrorKind::Invalid("a store without a value".into()), Some(lane))),
            };
            let (space, addr) = self.address(w, d, m, lane)?;
            self.access(cta, w, space, addr, size, lane, Some(v)).map_err(|f| (ErrorKind::Fault(f), Some(lane)))?;
        }
        Ok(())
    }
}
