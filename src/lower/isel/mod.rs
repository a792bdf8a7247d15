//! Instruction selection: PTX-stage Ori (what [`crate::lower::lower_source`] produces) to
//! SASS-stage Ori with virtual registers (stage 3 of the backend), for a [`Target`].
//!
//! Bank-0 offsets (parameters, stack pointer, grid shape, driver slots) are read from the
//! target. The sequences themselves are sm_90's, also for the sm_80 family (sm_80, sm_86,
//! sm_89: [`Target::backend`]); where the family differs, selection reads it from the target,
//! never from the SM number: shared addresses without a cluster slot or reserved window
//! ([`Target::has_clusters`], [`Target::shared_reserved`]), no `CGAERRBAR` in fences without
//! clusters, and the mbarrier/bulk-copy sequences refused where the SASS has no `SYNCS` /
//! `UBLKCP` ([`Target::has_sass`]) or `R2UR` is variable-latency.
//!
//! [`select_module`] rewrites every function in place. One module per instruction family:
//!
//! | module | family |
//! |---|---|
//! | `arith` | integer and bit arithmetic, 64-bit arithmetic split into 32-bit halves, compares and selects, predicate logic |
//! | `bits` | bit fields (`bfe`, `bfi`), `prmt` modes, `copysign`, `bfind.shiftamt`, `fns` |
//! | `indirect` | indirect calls (`calli`) as a compare chain of direct calls over the module's `.func`s (before selection) |
//! | `int_div` | the inline 32-bit integer division/remainder sequence (MUFU.RCP based) |
//! | `float` | f32/f64 arithmetic, compares, min/max, MUFU functions, approximate division |
//! | `f64_div` | IEEE `div.rn.f64` / `rcp.rn.f64` as one straight-line, correctly rounded sequence |
//! | `convert` | `cvt`: I2F/F2I/F2F/I2I and the integer width changes |
//! | `wide` | 64-bit carry chains, `bfind.64`, `bmsk`, saturating conversions from 64 bits, `dp4a`/`dp2a`, f64 min/max |
//! | `memory` | loads and stores per state space, kernel parameters from constant bank 0, addresses |
//! | `atomic` | `atom`/`red` on global and shared memory (ATOMG/REDG, ATOMS) |
//! | `control` | branches, exit/return, barriers, special registers, moves |
//! | `warp` | warp shuffles (`SHFL`) |
//! | `tensor` | `ldmatrix` (`LDSM`), `mma` (`HMMA`, integer `IMMA`) on register tuples (`PACK128`/`UNPACK128`) |
//! | `wgmma` | warpgroup MMA (sm_90a): `HGMMA` between `WARPGROUP.ARRIVE` and `WARPGROUP.DEPBAR`, descriptors in a uniform quad |
//! | `video` | SIMD video (`VABSDIFF4`, `VIADD.16x2`, `VIMNMX.S16x2`); `cp.async` (`LDGSTS`, `LDGDEPBAR`, `DEPBAR.LE SB0`) |
//! | `mbarrier` | mbarriers (`SYNCS.*`, `R2UR`), `cp.async.mbarrier.arrive` (`ARRIVES`), bulk copies (`UBLKCP` in an `ELECT` loop) |
//! | `legalize` | the last step: operands put into the shapes sm_90 forms encode (one constant, register A, `IMAD.HI` addend, f64 immediates) |
//!
//! # Invariants (of a selected function)
//!
//! - `sass == true`, `allocated == false`; every opcode is SASS-stage (or `phi`, which is
//!   stage-neutral); the verifier accepts the function.
//! - Registers stay virtual. The only physical registers are RZ/PT and, in a kernel, the
//!   stack pointer R1, written once by the prologue `LDC R1, c[0x0][0x28]` (the target's
//!   stack-pointer slot; the first instruction of the entry block, exactly as ptxas emits it
//!   on sm_90).
//! - Blocks, block ids, the layout and the PTX-stage virtual registers are kept: a PTX register
//!   is the same virtual register after selection (64-bit values stay in 64-bit virtual
//!   registers, which the allocator maps to aligned pairs). New virtual registers are
//!   temporaries, each written by the selection of one PTX instruction.
//! - 64-bit integer arithmetic runs on 32-bit halves as ptxas splits it (IADD3 + carry,
//!   ISETP + ISETP.EX, SHF.*.U64, IMAD.WIDE.U32 for products). A half is read through
//!   `UNPACK64` (a register-pair split) and a result is joined with `PACK64` (a register-pair
//!   join); both are pure copies that vanish when the allocator gives the halves the pair's
//!   registers. An `UNPACK64` is reused within a block until its 64-bit register is written
//!   again, and unused ones are removed at the end (dead pure instructions are deleted).
//! - A guarded PTX instruction becomes a sequence whose every instruction carries the same
//!   guard; sequences never predicate internally (they select with SEL instead), so the guard
//!   alone decides which lanes change.
//! - Sub-word values (8/16-bit types in 32-bit registers) keep only their low bits meaningful
//!   between instructions; an operation whose result depends on the upper bits (compares,
//!   right shifts, min/max, division, widening) extends its operands first (LOP3 masks,
//!   PRMT sign replication), and a narrowing `cvt` leaves the register zero- or
//!   sign-extended, as the PTX-stage semantics do.
//! - Kernel parameters are read from constant bank 0 at `c[0x0][param_base + offset]`
//!   (0x210 on sm_90), `%ntid` and `%nctaid` at the layout's slots (`c[0x0][0x0..0x14]` on
//!   sm_90), other special registers with `S2R`.
//! - Module `.const` variables are read from constant bank 3 at their [`DataLayout`] offsets;
//!   the address of a `.global` variable is read from its 8-byte slot of constant bank 4 (the
//!   address table the cubin relocates, as ptxas does); the backend writes both banks from the
//!   same [`data_layout`].
//!
//! Anything not covered is a [`LowerError`] naming the function and the instruction, never a
//! panic; the function is then left unchanged.

mod arith;
mod atomic;
mod barrier;
mod bits;
pub mod call;
mod control;
mod convert;
mod f64_div;
mod float;
pub mod indirect;
mod int_div;
pub mod legalize;
mod mbarrier;
mod memory;
mod setmaxnreg;

pub use memory::{ADDRESS_TABLE_BANK, DataLayout, USER_CONST_BANK, data_layout};
mod tensor;
mod texture;
mod video;
mod warp;
mod wgmma;
mod wide;

use std::collections::{HashMap, HashSet};

use super::LowerError;
use crate::ori::entity::EntityVec;
use crate::ori::{
    Block, Dir, Flag, FuncKind, Function, Guard, Imm, InstData, Mods, Module, Opcode, Operand, PhysReg, Reg, RegClass,
    RegFile, RegUse, Space, Stage, Ty, VReg,
};
use crate::target::Target;

/// Selects SASS instructions for every function of `m` (see the module doc) for `target`.
pub fn select_module(m: &mut Module, target: &Target) -> Result<(), LowerError> {
    select_module_framed(m, target, &[])
}

/// [`select_module`] knowing each function's local frame size in bytes (in module order, as
/// [`crate::lower::lower_module_framed`] returns them; missing entries count as 0). A kernel
/// with a frame reserves it below the stack pointer in its prologue and addresses its local
/// memory from there (see [`memory`]), as the GPU requires: its local window is below
/// `c[0x0][0x28]`, not at 0.
pub fn select_module_framed(m: &mut Module, target: &Target, frames: &[u64]) -> Result<(), LowerError> {
    select_module_abi(m, target, frames, &HashMap::new())
}

/// [`select_module_framed`] with calls between the module's functions ([`call`]): `addr[f]`
/// says which parameter word groups of `.func` `f` are `.param`-space local addresses (its
/// `.param` parameters, then its `.param` results), as the PTX signature declares them.
pub fn select_module_abi(
    m: &mut Module,
    target: &Target,
    frames: &[u64],
    addr: &HashMap<String, Vec<bool>>,
) -> Result<(), LowerError> {
    select_module_with(m, target, frames, addr, &SelectOptions::default())
}

/// Choices of selection that depend on the optimisation level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectOptions {
    /// Pipelined warpgroup MMA (ptxas above -O0): a chain of `wgmma.mma_async`s between a
    /// `wgmma.fence` and `commit_group; wait_group 0` issues its `HGMMA`s back to back and waits
    /// once ([`wgmma`]); otherwise (ptxas -O0) every `HGMMA` waits for itself.
    pub pipeline_wgmma: bool,
    /// A `WARPSYNC.ALL` before each `setmaxnreg` (ptxas -O0; none above it).
    pub sync_setmaxnreg: bool,
}

impl Default for SelectOptions {
    fn default() -> Self {
        SelectOptions { pipeline_wgmma: true, sync_setmaxnreg: false }
    }
}

/// [`select_module_abi`] with [`SelectOptions`].
pub fn select_module_with(
    m: &mut Module,
    target: &Target,
    frames: &[u64],
    addr: &HashMap<String, Vec<bool>>,
    opts: &SelectOptions,
) -> Result<(), LowerError> {
    indirect::expand_indirect_calls(m)?;
    let shared = shared_layout(m);
    let abi = call::module_abi(m, addr);
    let data = memory::data_layout(m);
    for (i, f) in m.functions.iter_mut().enumerate() {
        let frame = frames.get(i).copied().unwrap_or(0) as i64;
        select_function_with(f, target, &shared, &data, frame, &abi, opts)?;
    }
    Ok(())
}

/// Selects one function for `target` without module context (no shared-variable addresses).
pub fn select_function(f: &mut Function, target: &Target) -> Result<(), LowerError> {
    let (shared, abi) = (HashMap::new(), HashMap::new());
    select_function_with(f, target, &shared, &DataLayout::default(), 0, &abi, &SelectOptions::default())
}

/// The shared-memory offset of every shared module variable: static ones in module order at
/// their alignment from 0, dynamic (size-0) ones at the next multiple of 16 after them.
pub fn shared_layout(m: &Module) -> HashMap<String, i64> {
    let mut out = HashMap::new();
    let mut off = 0u64;
    let mut dynamic = Vec::new();
    for v in m.vars.iter().filter(|v| v.space == Space::Shared) {
        if v.size == 0 {
            dynamic.push(v.name.clone());
            continue;
        }
        let a = u64::from(v.align.max(1));
        off = off.div_ceil(a) * a;
        out.insert(v.name.clone(), off as i64);
        off += v.size;
    }
    let dyn_base = off.div_ceil(16) * 16;
    for n in dynamic {
        out.insert(n, dyn_base as i64);
    }
    out
}

fn select_function_with(
    f: &mut Function,
    target: &Target,
    shared: &HashMap<String, i64>,
    data: &DataLayout,
    frame: i64,
    abi: &HashMap<String, call::FuncAbi>,
    opts: &SelectOptions,
) -> Result<(), LowerError> {
    if f.sass {
        return Ok(());
    }
    let gmma = if opts.pipeline_wgmma { wgmma::plan(f) } else { HashMap::new() };
    let mut out = f.clone();
    out.insts = EntityVec::new();
    for (_, b) in out.blocks.iter_mut() {
        b.insts.clear();
    }
    out.sass = true;
    let mut s = Sel {
        old: f,
        target,
        f: out,
        cur: None,
        guard: None,
        unpacked: HashMap::new(),
        shared,
        data,
        line: String::new(),
        frame,
        local_base: None,
        warp_synced: false,
        abi,
        gmma,
        gmma_acc: None,
        sync_setmaxnreg: opts.sync_setmaxnreg,
    };
    s.run()?;
    let mut out = s.f;
    remove_dead(&mut out);
    mbarrier::unread_states_to_rz(&mut out);
    legalize::legalize_function(&mut out);
    *f = out;
    Ok(())
}

/// The selection state of one function.
pub(crate) struct Sel<'a> {
    old: &'a Function,
    /// What the code is for: bank-0 slots come from here.
    target: &'a Target,
    /// The function being built.
    pub(crate) f: Function,
    cur: Option<Block>,
    /// The guard of the PTX instruction being selected.
    guard: Option<Guard>,
    /// 64-bit register -> its halves, valid in the current block until the register is written.
    unpacked: HashMap<VReg, (VReg, VReg)>,
    shared: &'a HashMap<String, i64>,
    /// Where `.const` and `.global` module variables live ([`DataLayout`]).
    data: &'a DataLayout,
    line: String,
    /// The kernel's local frame (bytes) from lowering; 0 for none or unknown.
    frame: i64,
    /// In a kernel with a frame: the register holding the frame's base address (the stack
    /// pointer after the prologue), which every local access is relative to.
    local_base: Option<VReg>,
    /// Whether the warp is known converged at this point of the current block: a `WARPSYNC.ALL`
    /// was selected since the block began (no branch can split the warp inside a block).
    pub(crate) warp_synced: bool,
    /// The signatures of the module's `.func`s ([`call`]).
    abi: &'a HashMap<String, call::FuncAbi>,
    /// How each warpgroup MMA instruction of a pipelined chain is selected ([`wgmma::plan`]);
    /// the others are serialized.
    gmma: HashMap<crate::ori::Inst, wgmma::Role>,
    /// The accumulator tuple of the pipelined chain being selected.
    gmma_acc: Option<VReg>,
    /// [`SelectOptions::sync_setmaxnreg`].
    sync_setmaxnreg: bool,
}

/// A selection error message (located by [`Sel::run`]).
pub(crate) type R<T> = Result<T, String>;

/// The zero register.
pub(crate) fn rz() -> Operand {
    Operand::reg(PhysReg::zero(RegFile::R).expect("RZ"))
}
/// The true predicate.
pub(crate) fn pt() -> Operand {
    Operand::reg(pt_reg())
}
/// The true predicate as a register.
pub(crate) fn pt_reg() -> Reg {
    Reg::Phys(PhysReg::zero(RegFile::P).expect("PT"))
}
/// `!PT`.
pub(crate) fn not_pt() -> Operand {
    Operand::Reg(RegUse { reg: pt_reg(), neg: false, abs: false, not: true })
}
/// A 32-bit integer immediate.
pub(crate) fn imm(v: i64) -> Operand {
    Operand::Imm(Imm::Int(v))
}
/// A register read.
pub(crate) fn r(v: impl Into<Reg>) -> Operand {
    Operand::reg(v)
}
/// A negated register read (`-x`), or an integer immediate negated (32-bit). Only those two
/// forms can carry the negation: a bank operand (`c[0x0][0x20]`) must be moved into a register
/// first ([`Sel::modifiable`]); one passed here would come back unnegated, which is a
/// selection bug (a `cvta.to.local` that added the local window instead of subtracting it).
pub(crate) fn neg(o: Operand) -> Operand {
    match o {
        Operand::Reg(u) => Operand::Reg(RegUse { neg: !u.neg, ..u }),
        Operand::Imm(Imm::Int(v)) => imm((v as u32).wrapping_neg() as i64),
        o => {
            debug_assert!(false, "`-` of a {} operand is lost", o.kind_name());
            o
        }
    }
}
/// An inverted read (`~x` / `!p`), or an integer immediate inverted (32-bit); like [`neg`],
/// nothing else can carry it ([`Sel::modifiable`]).
pub(crate) fn not(o: Operand) -> Operand {
    match o {
        Operand::Reg(u) => Operand::Reg(RegUse { not: !u.not, ..u }),
        Operand::Imm(Imm::Int(v)) => imm(!(v as u32) as i64),
        o => {
            debug_assert!(false, "`~` of a {} operand is lost", o.kind_name());
            o
        }
    }
}
/// Modifiers with a type.
pub(crate) fn ty(t: crate::ori::Ty) -> Mods {
    Mods::ty(t)
}

impl<'a> Sel<'a> {
    fn run(&mut self) -> Result<(), LowerError> {
        let old = self.old;
        let is_kernel = old.kind == FuncKind::Entry;
        for (bi, &b) in old.layout.iter().enumerate() {
            self.cur = Some(b);
            self.unpacked.clear();
            self.warp_synced = false;
            if bi == 0 && is_kernel {
                let r1 = Reg::Phys(PhysReg::new(RegFile::R, 1));
                let sp = self.target.stack_pointer() as i32;
                let cb = Operand::CBank(crate::ori::CBank { bank: 0, index: None, offset: sp });
                self.f.push_inst(b, InstData::new(Opcode::LDC, Mods::new(), vec![r1], vec![cb]));
                if self.frame > 0 {
                    let adj = vec![Operand::reg(r1), imm(-self.frame), rz()];
                    self.f.push_inst(b, InstData::new(Opcode::IADD3, Mods::new(), vec![r1], adj));
                    let base = self.t32();
                    self.f.push_inst(
                        b,
                        InstData::new(Opcode::MOV, Mods::new(), vec![base.into()], vec![Operand::reg(r1)]),
                    );
                    self.local_base = Some(base);
                }
            }
            if bi == 0 && !is_kernel {
                let abi = self.abi.get(&old.name).cloned().unwrap_or_default();
                self.guard = None;
                if let Err(m) = self.func_prologue(&abi) {
                    return Err(LowerError {
                        line: 0,
                        column: 0,
                        function: Some(old.name.clone()),
                        message: format!("instruction selection: the function's prologue: {m}"),
                    });
                }
            }
            let insts = old.block_insts(b).to_vec();
            for i in insts {
                let d = &old.insts[i];
                self.guard = d.guard;
                self.line = crate::ori::print::inst_to_string(old, d);
                let r = match self.gmma.get(&i) {
                    Some(&role) => self.sel_wgmma_chained(d, role),
                    None => self.inst(d),
                };
                if let Err(m) = r {
                    return Err(LowerError {
                        line: 0,
                        column: 0,
                        function: Some(old.name.clone()),
                        message: format!("instruction selection: `{}`: {m}", self.line),
                    });
                }
            }
        }
        Ok(())
    }

    /// Selects one PTX-stage instruction.
    fn inst(&mut self, d: &InstData) -> R<()> {
        use Opcode::*;
        if d.opcode.info().stage != Stage::Ptx {
            if d.opcode == Phi {
                self.push(d.clone());
                return Ok(());
            }
            return Err("already a SASS-stage instruction in a PTX-stage function".into());
        }
        match d.opcode {
            Mov | Mova | Cvta | CvtaTo => self.sel_mov(d),
            Isspacep => self.sel_isspacep(d),
            Getctarank => {
                // `SHF.L.U64.HI Rd, Ra(low word), 0x8, RZ` (ptxas 13.0.88, both forms): the
                // address's bits [24:32).
                let dst = Self::dst(d)?;
                let lo = match d.mods.ty {
                    Some(Ty::U64) => self.halves(&d.srcs[0])?.0,
                    _ => d.srcs[0].clone(),
                };
                let lo = self.reg_src(&lo)?;
                let m = Mods { dir: Some(Dir::L), ty: Some(Ty::U64), flags: vec![Flag::HiWord], ..Mods::new() };
                self.emit(Opcode::SHF, m, vec![dst], vec![lo, imm(8), rz()]);
                Ok(())
            }
            Add | Sub | Mul | Mad | Fma | Min | Max | Abs | Neg | And | Or | Xor | Not | Shl | Shr | Popc | Clz
            | Brev | Bfind | ShfP | Lop3P | PrmtP | Addc | Subc | Bfe | Bfi | Copysign | Sad | Bmsk | Szext | Dp4a
            | Dp2a | Madc | Fns => self.sel_arith(d),
            Setp | Selp => self.sel_cmp(d),
            Split | Join => self.sel_split_join(d),
            Div | Rem => self.sel_div(d),
            Rcp | Sqrt | Rsqrt | Ex2 | Lg2 | Sin | Cos | Tanh | Testp => self.sel_float_fn(d),
            Cvt => self.sel_cvt(d),
            Cvtpack => self.sel_cvt_pack(d),
            Ld | St => self.sel_mem(d),
            Atom | AtomCas => self.sel_atom(d),
            Bar | BarArrive | BarRed => self.sel_barrier(d),
            ClusterArrive | ClusterWait => self.sel_cluster_barrier(d),
            Bra | Exit | Ret | Membar | Warpsync | TensormapAcquire => self.sel_control(d),
            Call => self.sel_call(d),
            Brx => self.sel_brx(d),
            Shfl => self.sel_shfl(d),
            Vote | Ballot => self.sel_vote(d),
            Redux => self.sel_redux(d),
            Activemask => self.sel_activemask(d),
            Elect => self.sel_elect(d),
            MatchAny | MatchAll => self.sel_match(d),
            Vop4 | Vop2 | Vop4Add | Vop2Add => self.sel_video(d),
            CpAsync | CpAsyncCommit | CpAsyncWait => self.sel_cp_async(d),
            Ldmatrix | Stmatrix | Mma => self.sel_tensor(d),
            // `MOVM.16.MT88 Rd, Ra`, as ptxas 13.0.88 selects `movmatrix` (no `WARPSYNC`).
            Movmatrix => {
                let dst = Self::dst(d)?;
                let a = self.src(d.srcs.first().ok_or("movmatrix without a source")?)?;
                let a = self.reg_src(&a)?;
                self.emit(Opcode::MOVM, Mods::ty(crate::ori::Ty::B16), vec![dst], vec![a]);
                Ok(())
            }
            Wgmma | WgmmaFence | WgmmaCommit | WgmmaWait => self.sel_wgmma(d),
            Tex | Tld4 | Txq | Suq | Suld | Sust => self.sel_texture(d),
            MbarInit | MbarArrive | MbarTestWait | MbarTryWait | MbarInval | CpAsyncMbarArrive | CpBulk => {
                self.sel_mbarrier(d)
            }
            // `trap` is `BPT.TRAP 0x1`, `griddepcontrol` `ACQBULK` (.wait) / `PREEXIT`
            // (.launch_dependents), as ptxas 13.0.88 selects them.
            Trap => {
                self.emit(Opcode::BPT, Mods::new(), vec![], vec![]);
                Ok(())
            }
            Setmaxnreg => self.sel_setmaxnreg(d, self.sync_setmaxnreg),
            Pmevent => {
                self.emit(Opcode::PMTRIG, Mods::new(), vec![], d.srcs.clone());
                Ok(())
            }
            Griddep => {
                let launch = matches!(d.srcs.first(), Some(Operand::Imm(i)) if i.bits() == 1);
                self.emit(if launch { Opcode::PREEXIT } else { Opcode::ACQBULK }, Mods::new(), vec![], vec![]);
                Ok(())
            }
            op => Err(format!("`{op}` is not selected yet")),
        }
    }

    // ---- building -----------------------------------------------------------------------

    /// Appends an instruction (with the current guard) to the current block.
    pub(crate) fn push(&mut self, mut d: InstData) {
        if d.guard.is_none() {
            d.guard = self.guard;
        }
        let b = self.cur.expect("a current block");
        for &dst in &d.dsts {
            if let Reg::Virt(v) = dst {
                self.unpacked.remove(&v);
                self.unpacked.retain(|_, (l, h)| *l != v && *h != v);
            }
        }
        self.f.push_inst(b, d);
    }

    /// Emits `op` with `mods`, destinations and sources.
    pub(crate) fn emit(&mut self, op: Opcode, mods: Mods, dsts: Vec<Reg>, srcs: Vec<Operand>) {
        self.push(InstData::new(op, mods, dsts, srcs));
    }

    /// Opens a new block right after the current one in the layout and makes it current.
    pub(crate) fn split_block(&mut self) -> Block {
        let cur = self.cur.expect("a current block");
        let b = self.f.new_block();
        self.f.layout.pop();
        let at = self.f.layout.iter().position(|&x| x == cur).map_or(self.f.layout.len(), |i| i + 1);
        self.f.layout.insert(at, b);
        self.cur = Some(b);
        self.unpacked.clear();
        b
    }

    /// Whether the function being selected has phis (block splits would have to rename
    /// their predecessors).
    pub(crate) fn has_phis(&self) -> bool {
        self.old.inst_order().any(|(_, i)| self.old.insts[i].opcode == Opcode::Phi)
    }

    /// A new virtual register.
    pub(crate) fn vreg(&mut self, c: RegClass) -> VReg {
        self.f.new_vreg(c)
    }
    /// A new 32-bit virtual register.
    pub(crate) fn t32(&mut self) -> VReg {
        self.vreg(RegClass::R32)
    }
    /// A new predicate.
    pub(crate) fn tp(&mut self) -> VReg {
        self.vreg(RegClass::P)
    }

    /// The class of a register.
    pub(crate) fn class(&self, reg: Reg) -> RegClass {
        self.f.reg_class(reg).unwrap_or(RegClass::R32)
    }

    /// The shared-memory offset of a variable.
    pub(crate) fn shared_offset(&self, sym: &str) -> Option<i64> {
        self.shared.get(sym).copied()
    }

    // ---- operands -----------------------------------------------------------------------

    /// A 32-bit (or predicate) source in a form SASS reads: registers, immediates and bank
    /// operands pass; special registers are read into a register first.
    pub(crate) fn src(&mut self, o: &Operand) -> R<Operand> {
        match o {
            Operand::Reg(_) | Operand::Imm(_) | Operand::CBank(_) => Ok(o.clone()),
            Operand::SReg(sr) => {
                let t = self.t32();
                self.read_sreg(t.into(), *sr)?;
                Ok(r(t))
            }
            o => Err(format!("a {} operand where a value is read", o.kind_name())),
        }
    }

    /// A 32-bit source that must be a register (immediates are moved into one).
    pub(crate) fn reg_src(&mut self, o: &Operand) -> R<Operand> {
        match self.src(o)? {
            o @ Operand::Reg(_) => Ok(o),
            o => {
                let t = self.t32();
                self.emit(Opcode::MOV, Mods::new(), vec![t.into()], vec![o]);
                Ok(r(t))
            }
        }
    }

    /// A 32-bit source that [`neg`] / [`not`] can modify: registers and integer immediates
    /// pass, anything else (a bank operand, a float immediate) is moved into a register.
    pub(crate) fn modifiable(&mut self, o: Operand) -> R<Operand> {
        match o {
            Operand::Reg(_) | Operand::Imm(Imm::Int(_)) => Ok(o),
            o => self.reg_src(&o),
        }
    }

    /// The low and high 32-bit halves of a 64-bit source.
    pub(crate) fn halves(&mut self, o: &Operand) -> R<(Operand, Operand)> {
        match o {
            Operand::Reg(u) => {
                if u.reg.is_zero() {
                    return Ok((rz(), rz()));
                }
                let Reg::Virt(v) = u.reg else { return Err("a physical 64-bit register".into()) };
                if self.class(u.reg) != RegClass::R64 {
                    return Err(format!("expected a 64-bit register, found {}", self.class(u.reg)));
                }
                let (lo, hi) = match self.unpacked.get(&v) {
                    Some(&p) => p,
                    None => {
                        let (lo, hi) = (self.t32(), self.t32());
                        // Unguarded: a pure copy of the current value, valid for every lane.
                        let g = self.guard.take();
                        self.emit(Opcode::UNPACK64, Mods::new(), vec![lo.into(), hi.into()], vec![r(v)]);
                        self.guard = g;
                        self.unpacked.insert(v, (lo, hi));
                        (lo, hi)
                    }
                };
                let m = |x: VReg| Operand::Reg(RegUse { reg: x.into(), ..*u });
                if u.neg || u.abs {
                    return Err("a 64-bit operand with `-`/`|..|`".into());
                }
                Ok((m(lo), m(hi)))
            }
            Operand::Imm(i) => {
                let b = i.bits();
                Ok((imm(i64::from(b as u32)), imm(i64::from((b >> 32) as u32))))
            }
            Operand::CBank(c) => {
                let mut hi = *c;
                hi.offset += 4;
                Ok((Operand::CBank(*c), Operand::CBank(hi)))
            }
            o => Err(format!("a {} operand where a 64-bit value is read", o.kind_name())),
        }
    }

    /// A 64-bit source as a 64-bit register (immediates are built from two moves).
    pub(crate) fn wide_reg(&mut self, o: &Operand) -> R<Operand> {
        match o {
            Operand::Reg(u) if !u.has_mods() && (u.reg.is_zero() || self.class(u.reg) == RegClass::R64) => {
                Ok(o.clone())
            }
            _ => {
                let (lo, hi) = self.halves(o)?;
                let t = self.vreg(RegClass::R64);
                self.pack_into(t.into(), lo, hi);
                Ok(r(t))
            }
        }
    }

    /// Writes the 64-bit register `dst` from two 32-bit sources (moved into registers first
    /// where they are not).
    pub(crate) fn pack_into(&mut self, dst: Reg, lo: Operand, hi: Operand) {
        let fix = |s: &mut Self, o: Operand| -> Operand {
            match o {
                Operand::Reg(u) if !u.has_mods() => Operand::Reg(u),
                Operand::Imm(Imm::Int(0)) => rz(),
                o => {
                    let t = s.t32();
                    s.emit(Opcode::MOV, Mods::new(), vec![t.into()], vec![o]);
                    r(t)
                }
            }
        };
        let lo = fix(self, lo);
        let hi = fix(self, hi);
        self.emit(Opcode::PACK64, Mods::new(), vec![dst], vec![lo, hi]);
    }

    /// The single destination of a PTX instruction.
    pub(crate) fn dst(d: &InstData) -> R<Reg> {
        d.dsts.first().copied().ok_or_else(|| "no destination".to_string())
    }
}

/// Deletes pure instructions (no memory access, no side effects, not a terminator) whose
/// destinations are all virtual registers that nothing reads, until none is left.
fn remove_dead(f: &mut Function) {
    loop {
        let mut used: HashSet<VReg> = HashSet::new();
        for (_, i) in f.inst_order() {
            for u in f.insts[i].uses() {
                if let Reg::Virt(v) = u {
                    used.insert(v);
                }
            }
        }
        for p in &f.params {
            if let Reg::Virt(v) = p {
                used.insert(*v);
            }
        }
        let mut removed = false;
        let layout = f.layout.clone();
        for b in layout {
            let keep: Vec<_> = f.blocks[b]
                .insts
                .iter()
                .copied()
                .filter(|&i| {
                    let d = &f.insts[i];
                    let info = d.opcode.info();
                    let pure = !info.is_terminator()
                        && !info.has(crate::ori::OpFlags::MEM_READ)
                        && !info.has(crate::ori::OpFlags::MEM_WRITE)
                        && !info.has(crate::ori::OpFlags::SIDE_EFFECT)
                        && !info.has(crate::ori::OpFlags::CALL)
                        && !d.dsts.is_empty();
                    let dead = pure
                        && d.dsts.iter().all(|r| match r {
                            Reg::Virt(v) => !used.contains(v),
                            Reg::Phys(p) => p.is_zero(),
                        });
                    !dead
                })
                .collect();
            if keep.len() != f.blocks[b].insts.len() {
                removed = true;
                f.blocks[b].insts = keep;
            }
        }
        if !removed {
            break;
        }
    }
}

/// Instruction selection as a pipeline pass (for `opt::Pipeline::custom`/`with_pass` and the
/// translation-validation harness): selects every function of the module for `target`; the
/// change count is the number of instructions of the selected functions.
#[derive(Clone, Debug)]
pub struct SelectPass {
    /// The target.
    pub target: Target,
}

impl crate::opt::Pass for SelectPass {
    fn kind(&self) -> crate::opt::PassKind {
        crate::opt::PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, crate::opt::PassError> {
        select_function(f, &self.target).map_err(|e| crate::opt::PassError::in_func(f, e.to_string()))?;
        Ok(f.inst_order().count())
    }
    fn run_module(&self, m: &mut Module) -> Result<usize, crate::opt::PassError> {
        select_module(m, &self.target)
            .map_err(|e| crate::opt::PassError { func: e.function.clone(), message: e.message })?;
        Ok(m.functions.iter().map(|f| f.inst_order().count()).sum())
    }
}
