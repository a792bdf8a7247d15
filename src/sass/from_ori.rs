//! Emission: an allocated SASS-stage Ori function to instruction words for a [`Target`], with
//! the target's SASS tables and bank-0 slots. The spellings are sm_90's (the only target with
//! a backend, [`Target::backend`]); emission does not check the SM.
//!
//! Each Ori instruction becomes exactly one SASS instruction, spelled as nvdisasm prints it and
//! read back by [`Tables::parse`] — so every word is one our decoder/printer (checked against
//! nvdisasm on the corpus) prints back to the same text. Modifier suffixes are looked up in the
//! arch's modifier table by their *set* of tokens (`I2F.F64.U32`, `F2I.FTZ.U32.TRUNC.NTZ`), so
//! the token order nvdisasm uses never has to be guessed. Immediates are spelled in every way a
//! slot may print them (hex, signed hex, f32, f64-high) and the one the form accepts is kept;
//! their exact bits are then restored (a NaN payload survives).
//!
//! Layout: blocks in the function's layout order, instruction `i` at byte `16 * i`; branch and
//! `BSSY` targets are the first instruction of the target block (SASS stores them relative to the
//! next instruction). Two additions to the Ori instructions, both required by the sm_90 ABI:
//! a function with global or generic memory accesses gets `ULDC.64 URk, c[0x0][0x208]` (the
//! global memory descriptor at the target's slot, [`Target::desc_offset`]; `desc[URk]` on
//! every such access; `URk` is the lowest even uniform pair the function does not use) as its first instruction, or right after the `R1` prologue
//! (`MOV R1, c[0x0][0x28]`, emitted as ptxas does, `LDC R1, c[0x0][0x28]`: a `MOV` from a
//! constant bank becomes `LDC`); and the code ends with the tail ptxas places — a `BRA` to itself
//! and `NOP`s up to a multiple of 128 bytes. A call may change every uniform register
//! (`crate::lower::isel::call::clobbered`), so such a function loads the descriptor again
//! right after each `CALL`/`CALL.ABS` (where the call returns to); ptxas instead keeps it in
//! UR36, which its ABI preserves. Control words come from [`crate::sched`]
//! ([`Recipe::O0`] by default).
//!
//! Calls ([`emit_function_placed`]): a function placed at a section offset with its callees'
//! offsets; `CALL` is `CALL.REL.NOINC <callee>` right after the `MOV R2` that receives its
//! return address, `RET` is `RET.REL.NODEC R2 0x0` (`crate::lower::isel::call`'s ABI).
//!
//! Not supported (clear errors): a `CALL` without its `MOV R2` or with an unplaced callee, `phi`, unresolved symbols in memory operands, 64-bit
//! `MOV`, `IMAD.HI` with a non-zero addend (sm_90's `IMAD.HI` adds a 64-bit addend), opcodes or
//! modifier combinations the sm_90 tables have no form for, half-precision ops with an
//! immediate or constant source (only their register forms are modelled), `HSETP2` with a
//! second destination other than `PT` (SASS writes the high halves' result there, Ori the
//! complement).
//!
//! Conversions between equal float types follow ptxas: an integral rounding is `FRND`
//! (`F2F.RMI.F32.F32` → `FRND.FLOOR`), a plain `.sat`/`.ftz` copy is an add of zero
//! (`FADD.SAT Rd, RZ, Rs`). The half-precision family (`HADD2`, `HMUL2`, `HFMA2`, `HMNMX2`,
//! `HSETP2`) uses `.BF16_V2` for bf16 and the `.H0_H0` source selector for scalar types.
//!
//! Invariants: never panics on any input; every error names the Ori instruction; the words
//! decode with [`Tables::decode`] to the instructions in [`Emitted::insts`].

use super::operand::{f32_text, f64hi_text, signed_hex};
use super::{Control, Instruction, Tables, Value};
use crate::ori::{
    self, BoolOp, Cmp, Flag, Function, Half, InstData, Opcode, Operand, Reg, RegFile, Rnd, SpecialReg, SubOp, Ty,
};
use crate::sched::{self, Recipe};
use crate::target::Target;

/// What emission produced: the code and the facts the cubin's EIATTRs need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// The instruction words, little-endian, 16 bytes each, tail included.
    pub code: Vec<u8>,
    /// The instructions, control bits assigned (`insts[i]` is at byte `16 * i`).
    pub insts: Vec<Instruction>,
    /// Index of the first tail instruction (the `BRA` to itself).
    pub tail: usize,
    /// Byte offsets of every `EXIT` (`EIATTR_EXIT_INSTR_OFFSETS`).
    pub exit_offsets: Vec<u32>,
    /// Byte offsets of every `S2R`/`S2UR` reading `SR_CTAID.X/Y/Z`.
    pub ctaid_offsets: Vec<u32>,
    /// Which of `%ctaid.x/y/z` the code reads (`EIATTR_CTAIDZ_USED` on older archs).
    pub ctaid_used: [bool; 3],
    /// Barriers used: highest `BAR` id + 1, 0 without `BAR` (`EIATTR_NUM_BARRIERS`).
    pub num_barriers: u32,
    /// Byte offsets of `WARPSYNC` instructions (warp-synchronous code,
    /// `EIATTR_COOP_GROUP_INSTR_OFFSETS` candidates).
    pub warpsync_offsets: Vec<u32>,
    /// Highest general register written or read + 1 (tuples counted); `ptxas -v` and
    /// `EIATTR_REGCOUNT` report this + 2 on sm_90 (notes §4.4).
    pub gprs: u32,
    /// The uniform pair holding the global memory descriptor, when one was loaded.
    pub desc_ur: Option<u8>,
    /// Byte offset of every Ori block, in layout order.
    pub block_offsets: Vec<(ori::Block, u32)>,
}

/// Options of [`emit_function_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmitOptions {
    /// The control-word recipe.
    pub recipe: Recipe,
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions { recipe: Recipe::O0 }
    }
}

/// Why emission failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmitError {
    /// The function is not in the state emission needs.
    #[error("@{function}: {why}")]
    Function {
        /// Function name.
        function: String,
        /// Reason.
        why: String,
    },
    /// One instruction cannot be emitted.
    #[error("@{function}: `{inst}`: {why}")]
    Inst {
        /// Function name.
        function: String,
        /// The Ori instruction, printed.
        inst: String,
        /// Reason.
        why: String,
    },
}

/// Emits `f` for `target` with the default options.
pub fn emit_function(f: &Function, target: &Target) -> Result<Emitted, EmitError> {
    emit_function_with(f, target, &EmitOptions::default())
}

/// Where a function's code goes in its kernel's `.text` (for kernels with calls).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// Byte offset of the function's first instruction in the section.
    pub base: u64,
    /// Section offsets of the functions its `CALL`s name.
    pub callees: std::collections::HashMap<String, u64>,
    /// Whether the padding tail follows this function (the last one of the section).
    pub tail: bool,
}

impl Default for Placement {
    fn default() -> Self {
        Placement { base: 0, callees: Default::default(), tail: true }
    }
}

/// Emits `f` for `target`.
pub fn emit_function_with(f: &Function, target: &Target, opts: &EmitOptions) -> Result<Emitted, EmitError> {
    emit_function_placed(f, target, opts, &Placement::default())
}

/// Emits `f` for `target` at `place` in its section: branch targets, return addresses and
/// call targets are section offsets (so `Emitted`'s offsets and `block_offsets` are relative to
/// `place.base`, but the encoded words are only valid at `place.base`). A `CALL` is
/// `CALL.REL.NOINC <callee>`, and the `MOV R2` right before it (`lower::isel::call`'s
/// convention) gets the return address, the offset after the `CALL`; a `RET` is
/// `RET.REL.NODEC R2 0x0` (to the address in R2).
pub fn emit_function_placed(
    f: &Function,
    target: &Target,
    opts: &EmitOptions,
    place: &Placement,
) -> Result<Emitted, EmitError> {
    let ferr = |why: String| EmitError::Function { function: f.name.clone(), why };
    let tables = target.tables().ok_or_else(|| ferr(format!("no SASS tables for {}", target.name())))?;
    if !f.sass {
        return Err(ferr("the function is not SASS-stage (`sass` not set)".into()));
    }
    if !f.allocated {
        return Err(ferr("the function is not register-allocated (`allocated` not set)".into()));
    }
    // Layout: the Ori instructions in order, and where the descriptor load goes.
    let order: Vec<(ori::Block, ori::Inst)> = f.inst_order().collect();
    // Only where bank 0 has a descriptor (sm_75 has none: its global accesses are plain
    // 64-bit addresses, `LDG.E.SYS R0, [R2]`).
    let needs_desc = target.desc_offset().is_some()
        && order.iter().any(|(_, i)| {
            matches!(
                f.insts[*i].opcode,
                Opcode::LDG | Opcode::STG | Opcode::LD | Opcode::ST | Opcode::ATOMG | Opcode::ATOM | Opcode::LDGSTS
            )
        });
    let desc_ur = if needs_desc {
        Some(free_ur_pair(f).ok_or_else(|| ferr("no free uniform register pair for the memory descriptor".into()))?)
    } else {
        None
    };
    let prologue = order.first().is_some_and(|(_, i)| is_r1_prologue(&f.insts[*i], target.stack_pointer()));
    let desc_at = usize::from(prologue);
    // Under the latency recipe every HMMA/IMMA is followed by `NOPS_AFTER_MMA` NOPs (room for its
    // result latency in the stalls, see `sched::latency::MMA_LATENCY`).
    let mma_nops = if opts.recipe == sched::Recipe::Latency { sched::latency::NOPS_AFTER_MMA } else { 0 };
    let is_mma = |i: ori::Inst| matches!(f.insts[i].opcode, Opcode::HMMA | Opcode::IMMA);
    // A call may change every uniform register (`lower::isel::call::clobbered`): the descriptor
    // is loaded again right after each one (the return address points at that reload).
    let is_call = |i: ori::Inst| matches!(f.insts[i].opcode, Opcode::CALL | Opcode::CALLABS);
    let reload_after = |i: ori::Inst| desc_ur.is_some() && is_call(i);
    let mut nops_before = Vec::with_capacity(order.len() + 1);
    let mut acc = 0;
    for (_, i) in &order {
        nops_before.push(acc);
        if is_mma(*i) {
            acc += mma_nops;
        }
        if reload_after(*i) {
            acc += 1;
        }
    }
    nops_before.push(acc);
    let index_of = |k: usize| nops_before[k] + if desc_ur.is_some() && k >= desc_at { k + 1 } else { k };
    let mut block_offsets = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (k, (b, _)) in order.iter().enumerate() {
        if seen.insert(*b) {
            block_offsets.push((*b, 16 * index_of(k) as u32));
        }
    }
    // Empty blocks sit at the next instruction.
    let mut next = 16 * index_of(order.len()) as u32;
    let mut all_offsets = Vec::new();
    for &b in f.layout.iter().rev() {
        if let Some(&(_, off)) = block_offsets.iter().find(|(x, _)| *x == b) {
            next = off;
        }
        all_offsets.push((b, next));
    }
    all_offsets.reverse();
    let base = place.base;
    let target_of = |b: ori::Block| {
        all_offsets.iter().find(|(x, _)| *x == b).and_then(|&(_, o)| u32::try_from(u64::from(o) + base).ok())
    };

    let mut insts = Vec::new();
    let emit_desc = |insts: &mut Vec<Instruction>| -> Result<(), EmitError> {
        if let Some(k) = desc_ur {
            let desc = target
                .desc_offset()
                .ok_or_else(|| ferr(format!("{} has no global memory descriptor in bank 0", target.name())))?;
            let text = format!("{} UR{k}, c[0x0][{desc:#x}]", uniform_const_load(tables, ".64"));
            let i = tables.parse(&text, base + 16 * insts.len() as u64).map_err(|e| ferr(e.to_string()))?;
            insts.push(i);
        }
        Ok(())
    };
    for (k, (_, id)) in order.iter().enumerate() {
        if k == desc_at {
            emit_desc(&mut insts)?;
        }
        let d = &f.insts[*id];
        let addr = base + 16 * insts.len() as u64;
        if d.opcode == Opcode::CALLABS {
            // The return address: the `LEPC R20` right before the call points after it.
            let prev = k.checked_sub(1).map(|j| &f.insts[order[j].1]);
            if !prev.is_some_and(|p| p.opcode == Opcode::LEPC && p.guard.is_none()) || k == desc_at {
                return Err(EmitError::Inst {
                    function: f.name.clone(),
                    inst: ori::print::inst_to_string(f, d),
                    why: "a CALL.ABS not right after the LEPC of its return address".into(),
                });
            }
            let text = format!("LEPC R20, {:#x}", addr + 16);
            let i = tables.parse(&text, addr - 16).map_err(|e| ferr(e.to_string()))?;
            if let Some(last) = insts.last_mut() {
                *last = i;
            }
        }
        if d.opcode == Opcode::CALL {
            // The return address goes into the `MOV R2` right before the call.
            let prev = k.checked_sub(1).map(|j| &f.insts[order[j].1]);
            let is_ra = prev.is_some_and(|p| {
                p.opcode == Opcode::MOV && p.guard.is_none() && p.dsts == [Reg::Phys(ori::PhysReg::new(RegFile::R, 2))]
            });
            if !is_ra || k == desc_at {
                return Err(EmitError::Inst {
                    function: f.name.clone(),
                    inst: ori::print::inst_to_string(f, d),
                    why: "a CALL not right after the MOV R2 of its return address".into(),
                });
            }
            let text = format!("MOV R2, {:#x}", addr + 16);
            let i = tables.parse(&text, addr - 16).map_err(|e| ferr(e.to_string()))?;
            if let Some(last) = insts.last_mut() {
                *last = i;
            }
        }
        let cx = Cx { f, d, tables, desc: desc_ur, target_of: &target_of, callees: &place.callees };
        let inst = cx.lower(addr).map_err(|why| EmitError::Inst {
            function: f.name.clone(),
            inst: ori::print::inst_to_string(f, d),
            why,
        })?;
        insts.push(inst);
        if is_mma(*id) {
            for _ in 0..mma_nops {
                let at = base + 16 * insts.len() as u64;
                insts.push(tables.parse("NOP", at).map_err(|e| ferr(e.to_string()))?);
            }
        }
        if reload_after(*id) {
            emit_desc(&mut insts)?;
        }
    }
    if order.len() == desc_at {
        emit_desc(&mut insts)?;
    }
    // Tail: BRA to itself, NOPs up to 128 bytes (of the section).
    let tail = insts.len();
    if place.tail {
        let addr = base + 16 * tail as u64;
        insts.push(tables.parse(&format!("BRA {addr:#x}"), addr).map_err(|e| ferr(e.to_string()))?);
        while !(base / 16 + insts.len() as u64).is_multiple_of(8) {
            insts.push(tables.parse("NOP", base + 16 * insts.len() as u64).map_err(|e| ferr(e.to_string()))?);
        }
    }
    sched::assign(&mut insts, tail, opts.recipe, target);
    let mut code = Vec::with_capacity(16 * insts.len());
    for (k, i) in insts.iter().enumerate() {
        let w = tables.encode(i).map_err(|e| ferr(format!("instruction {k}: {e}")))?;
        code.extend_from_slice(&w.to_le_bytes());
    }
    let facts = facts(tables, &insts[..tail]);
    Ok(Emitted {
        code,
        tail,
        exit_offsets: facts.exits,
        ctaid_offsets: facts.ctaid_offsets,
        ctaid_used: facts.ctaid_used,
        num_barriers: facts.barriers,
        warpsync_offsets: facts.warpsyncs,
        gprs: gprs_of(f),
        desc_ur,
        block_offsets: all_offsets,
        insts,
    })
}

struct Facts {
    exits: Vec<u32>,
    ctaid_offsets: Vec<u32>,
    ctaid_used: [bool; 3],
    barriers: u32,
    warpsyncs: Vec<u32>,
}

fn facts(tables: &Tables, body: &[Instruction]) -> Facts {
    let mut out =
        Facts { exits: vec![], ctaid_offsets: vec![], ctaid_used: [false; 3], barriers: 0, warpsyncs: vec![] };
    for (k, i) in body.iter().enumerate() {
        let off = 16 * k as u32;
        match i.form.base {
            "EXIT" => out.exits.push(off),
            "WARPSYNC" => out.warpsyncs.push(off),
            "BAR" => match i.operands.first().map(|o| o.value) {
                Some(Value::Imm(id)) => out.barriers = out.barriers.max(id as u32 + 1),
                // A register id may name any of the 16 barriers.
                Some(Value::R(_)) => out.barriers = 16,
                _ => {}
            },
            "S2R" | "S2UR" => {
                for o in &i.operands {
                    if let Value::Sr(s) = o.value
                        && let Some((_, name)) = tables.sregs.iter().find(|(n, _)| *n == s)
                        && let Some(axis) = name.strip_prefix("SR_CTAID.")
                    {
                        out.ctaid_offsets.push(off);
                        if let Some(a) = "XYZ".find(axis) {
                            out.ctaid_used[a] = true;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Highest general register `f` names + 1 (tuples counted in full).
fn gprs_of(f: &Function) -> u32 {
    let mut n = 0u32;
    let mut see = |r: Reg| {
        if let Reg::Phys(p) = r
            && p.file == RegFile::R
            && !p.is_zero()
        {
            n = n.max(u32::from(p.index) + u32::from(p.count));
        }
    };
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        d.dsts.iter().copied().for_each(&mut see);
        d.uses().for_each(&mut see);
    }
    n
}

/// The uniform constant load of `tables` with the size suffix `size` (`".64"`): sm_90's
/// `ULDC`, or `LDCU` where the tables have no `ULDC` (sm_100 on: `LDCU.64 UR4, c[0x0][0x358]`).
fn uniform_const_load(tables: &Tables, size: &str) -> String {
    let base = if tables.forms.iter().any(|f| f.base == "ULDC") { "ULDC" } else { "LDCU" };
    format!("{base}{size}")
}

/// The stack-pointer prologue `MOV R1, c[0x0][sp]` (`sp`: the target's slot, 0x28 or 0x37c).
fn is_r1_prologue(d: &InstData, sp: u32) -> bool {
    d.opcode == Opcode::MOV
        && d.dsts.first().is_some_and(|r| matches!(r, Reg::Phys(p) if p.file == RegFile::R && p.index == 1))
        && matches!(d.srcs.first(), Some(Operand::CBank(c)) if c.bank == 0 && i64::from(c.offset) == i64::from(sp) && c.index.is_none())
}

/// The lowest even uniform register pair `f` never names.
fn free_ur_pair(f: &Function) -> Option<u8> {
    let mut used = [false; 64];
    let mut mark = |r: Reg| {
        if let Reg::Phys(p) = r
            && p.file == RegFile::UR
        {
            for k in 0..u16::from(p.count) {
                if let Some(u) = used.get_mut(usize::from(p.index + k)) {
                    *u = true;
                }
            }
        }
    };
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        d.dsts.iter().copied().for_each(&mut mark);
        d.uses().for_each(&mut mark);
    }
    // ptxas's choice is UR4; take it when free.
    std::iter::once(4u8).chain((0..62).step_by(2)).find(|&k| !used[k as usize] && !used[k as usize + 1])
}

/// The context of one instruction's lowering.
struct Cx<'a> {
    f: &'a Function,
    d: &'a InstData,
    tables: &'static Tables,
    desc: Option<u8>,
    target_of: &'a dyn Fn(ori::Block) -> Option<u32>,
    callees: &'a std::collections::HashMap<String, u64>,
}

type R<T> = Result<T, String>;

/// An operand's possible spellings (the form decides which one it prints).
type Alts = Vec<String>;

fn one(s: impl Into<String>) -> Alts {
    vec![s.into()]
}

impl Cx<'_> {
    fn lower(&self, addr: u64) -> R<Instruction> {
        let (mnemonics, ops) = self.shape(addr)?;
        let guard = self.guard()?;
        // Every combination of the operands' spellings, every mnemonic candidate.
        let mut combos: Vec<Vec<String>> = vec![Vec::new()];
        for alts in &ops {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    alts.iter().map(move |a| {
                        let mut c = c.clone();
                        c.push(a.clone());
                        c
                    })
                })
                .collect();
        }
        let mut last = String::new();
        for mn in &mnemonics {
            for c in &combos {
                let text = format!("{guard}{mn}{}{}", if c.is_empty() { "" } else { " " }, join_operands(c));
                match self.tables.parse(&text, addr) {
                    Ok(mut inst) => {
                        self.restore_imm_bits(&mut inst);
                        self.restore_hidden_desc(&mut inst);
                        inst.control = Control::default();
                        return Ok(inst);
                    }
                    Err(e) => last = e.why,
                }
            }
        }
        let first = combos.first().map(|c| c.join(", ")).unwrap_or_default();
        Err(format!("no {} form for `{} {first}` ({last})", self.tables.name, mnemonics.join("|")))
    }

    /// Puts the loaded descriptor register into a global access whose descriptor the text did
    /// not show (the sm_80 family prints it only with bit 101, so the access was parsed from
    /// its `[R2.64]` spelling, which reads the descriptor as UR0); ptxas encodes the register
    /// it loaded (`LDG.E R3, [R2.64]` holds UR4). A shown descriptor is already that register.
    fn restore_hidden_desc(&self, inst: &mut Instruction) {
        let Some(k) = self.desc else { return };
        for (slot, op) in inst.form.slots.iter().zip(inst.operands.iter_mut()) {
            if let (true, super::Value::Mem { desc: Some(d), .. }) = (slot.hide_desc, &mut op.value) {
                *d = k;
            }
        }
    }

    /// Puts the exact immediate bits back (a float immediate spelled in decimal may not read
    /// back to the same bits, e.g. a NaN payload).
    fn restore_imm_bits(&self, inst: &mut Instruction) {
        let imms: Vec<u64> = self
            .d
            .srcs
            .iter()
            .filter_map(|o| match o {
                Operand::Imm(i) => Some(i.bits()),
                _ => None,
            })
            .collect();
        let [bits] = imms[..] else { return };
        let floaty =
            matches!(self.d.srcs.iter().find(|o| matches!(o, Operand::Imm(_))), Some(Operand::Imm(ori::Imm::F32(_))));
        if !floaty {
            return;
        }
        let slots: Vec<usize> = inst
            .operands
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o.value, Value::Imm(_)))
            .map(|(k, _)| k)
            .collect();
        if let [k] = slots[..]
            && let Some(o) = inst.operands.get_mut(k)
        {
            let keep = o.value;
            o.value = Value::Imm(bits & 0xffff_ffff);
            if self.tables.encode(inst).is_err() {
                inst.operands[k].value = keep;
            }
        }
    }

    fn guard(&self) -> R<String> {
        let Some(g) = self.d.guard else { return Ok(String::new()) };
        let p = self.phys(g.reg)?;
        let name = p.to_string();
        if p.is_zero() && !g.not {
            return Ok(String::new());
        }
        Ok(format!("@{}{name} ", if g.not { "!" } else { "" }))
    }

    fn phys(&self, r: Reg) -> R<ori::PhysReg> {
        match r {
            Reg::Phys(p) => Ok(p),
            Reg::Virt(_) => {
                Err(format!("virtual register {} in an allocated function", ori::print::reg_to_string(self.f, r)))
            }
        }
    }

    /// The first register of a destination.
    fn dst(&self, n: usize) -> R<String> {
        let r = *self.d.dsts.get(n).ok_or_else(|| format!("missing destination {n}"))?;
        Ok(base_name(self.phys(r)?))
    }

    fn src(&self, n: usize) -> R<Alts> {
        let o = self.d.srcs.get(n).ok_or_else(|| format!("missing source {n}"))?;
        self.operand(o)
    }

    fn operand(&self, o: &Operand) -> R<Alts> {
        Ok(match o {
            Operand::Reg(u) => {
                let p = self.phys(u.reg)?;
                let mut t = base_name(p);
                if u.abs {
                    t = format!("|{t}|");
                }
                if u.neg {
                    t = format!("-{t}");
                }
                if u.not {
                    t = if p.file.is_pred() { format!("!{t}") } else { format!("~{t}") };
                }
                one(t)
            }
            Operand::Imm(i) => {
                let b = i.bits();
                let lo = b as u32;
                let mut v = vec![format!("{lo:#x}"), signed_hex(i64::from(lo as i32)), f32_text(lo)];
                match i {
                    ori::Imm::F64(x) if x & 0xffff_ffff == 0 => v.insert(0, f64hi_text((x >> 32) as u32)),
                    ori::Imm::F64(_) => {
                        return Err("f64 immediate with non-zero low word (SASS keeps only the high word)".into());
                    }
                    ori::Imm::F32(_) => v.rotate_right(1),
                    ori::Imm::Int(_) => {}
                }
                v
            }
            Operand::CBank(c) => {
                let off = u32::try_from(c.offset).map_err(|_| "negative constant-bank offset".to_string())?;
                match c.index {
                    // An indexed form prints a zero offset as the index register (`c[0x0][RZ]`).
                    None => vec![format!("c[{:#x}][{off:#x}]", c.bank), format!("c[{:#x}][RZ]", c.bank)]
                        .into_iter()
                        .take(if off == 0 { 2 } else { 1 })
                        .collect(),
                    Some(r) => {
                        let p = base_name(self.phys(r)?);
                        if off == 0 {
                            one(format!("c[{:#x}][{p}]", c.bank))
                        } else {
                            one(format!("c[{:#x}][{p}+{off:#x}]", c.bank))
                        }
                    }
                }
            }
            Operand::SReg(s) => one(sreg_name(*s)?),
            Operand::Block(b) => {
                let t = (self.target_of)(*b).ok_or("branch to a block outside the layout")?;
                one(format!("{t:#x}"))
            }
            Operand::Mem(_) => return Err("memory operand in a value position".into()),
            Operand::Func(n) => return Err(format!("function reference @{n} (calls are not supported yet)")),
        })
    }

    fn mem(&self, n: usize, global: bool) -> R<Alts> {
        let Some(Operand::Mem(m)) = self.d.srcs.get(n) else { return Err("missing memory operand".into()) };
        if let Some(s) = &m.sym {
            return Err(format!("unresolved symbol `${s}` in a memory operand"));
        }
        let mut reg = String::new();
        if let Some(b) = m.base {
            let p = self.phys(b)?;
            reg.push_str(&base_name(p));
            if global {
                if p.count != 2 {
                    return Err("a global/generic address register must be 64-bit (a pair)".into());
                }
                // A descriptor-relative address says its width (`[R2.64]`); without
                // descriptors (sm_75) `.E` alone makes the register pair an address.
                if self.global_has_desc() {
                    reg.push_str(".64");
                }
            }
        }
        // nvdisasm spells a negative offset after a register `R1+-0x8`; accept `R1-0x8` too.
        let inners: Vec<String> = if reg.is_empty() {
            vec![format!("{:#x}", m.offset), signed_hex(m.offset)]
        } else if m.offset == 0 {
            vec![reg.clone()]
        } else if m.offset < 0 {
            vec![format!("{reg}+{}", signed_hex(m.offset)), format!("{reg}-{:#x}", m.offset.unsigned_abs())]
        } else {
            vec![format!("{reg}+{:#x}", m.offset)]
        };
        // Shared accesses: some size forms are only known with the uniform-register slot
        // shown (`LDS.U8 R0, [R2+URZ]`, the same address as `[R2]`); tried after the plain one.
        let mut inners = inners;
        if !global
            && !reg.is_empty()
            && matches!(
                self.d.opcode,
                Opcode::LDS
                    | Opcode::STS
                    | Opcode::ATOMS
                    | Opcode::ATOMSCAS
                    | Opcode::SYNCSARRIVE
                    | Opcode::SYNCSPHASECHK
                    | Opcode::SYNCSTRYWAIT
                    | Opcode::SYNCSCCTL
                    | Opcode::ARRIVES
            )
        {
            let more: Vec<String> = inners
                .iter()
                .map(|i| match i.strip_prefix(&reg) {
                    Some(rest) => format!("{reg}+URZ{rest}"),
                    None => i.clone(),
                })
                .collect();
            inners.extend(more);
        }
        Ok(if global {
            // The descriptor is shown (sm_90) or hidden (the sm_80 family, `Slot::hide_desc`,
            // where the shown spelling means bit 101, an explicit cache policy): a hidden one
            // is spelled without it and the register put back after parsing.
            if !self.global_has_desc() {
                // No descriptor (sm_75): `[R2+0x10]`, or the same address through the form that
                // adds a uniform register, `[R2.64+URZ+0x10]` (the tables know some reductions
                // and atomics only with the uniform register shown, as ptxas writes them).
                let mut out: Vec<String> = inners.iter().map(|i| format!("[{i}]")).collect();
                if !reg.is_empty() {
                    out.extend(
                        inners.iter().filter_map(|i| i.strip_prefix(&reg)).map(|rest| format!("[{reg}.64+URZ{rest}]")),
                    );
                }
                return Ok(out);
            }
            let k = self.desc.ok_or("no descriptor register")?;
            if self.global_desc_hidden() {
                inners.iter().map(|i| format!("[{i}]")).collect()
            } else {
                inners.iter().map(|i| format!("desc[UR{k}][{i}]")).collect()
            }
        } else {
            inners.iter().map(|i| format!("[{i}]")).collect()
        })
    }

    /// The mnemonic spelled from `base` and a set of modifier tokens, via the modifier table.
    fn spell(&self, base: &str, tokens: &[&str]) -> R<Vec<String>> {
        let mut want: Vec<&str> = tokens.iter().copied().filter(|t| !t.is_empty()).collect();
        want.sort_unstable();
        let mut out = Vec::new();
        for form in self.tables.forms.iter().filter(|f| f.base == base) {
            for e in self.tables.mods.iter().filter(|e| e.key == form.key) {
                let mut have: Vec<&str> = e.suffix.split('.').filter(|t| !t.is_empty()).collect();
                have.sort_unstable();
                let s = format!("{base}{}", e.suffix);
                if have == want && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        if out.is_empty() {
            return Err(format!("{} has no {base} with modifiers {{{}}}", self.tables.name, want.join(" ")));
        }
        Ok(out)
    }

    /// The descriptor slot of the tables' global loads: `Some(hidden)` when `LDG` takes a
    /// memory descriptor (sm_80 on; hidden in the text on the sm_80 family,
    /// [`super::form::Slot::hide_desc`]), `None` when it has none (sm_75's `LDG.E.SYS R0, [R2]`).
    fn global_desc(&self) -> Option<bool> {
        self.tables
            .forms
            .iter()
            .filter(|f| f.base == "LDG")
            .flat_map(|f| f.slots.iter())
            .filter(|s| matches!(s.kind, super::form::Kind::Mem { desc_at: Some(_), .. }))
            .map(|s| s.hide_desc)
            .reduce(|a, b| a || b)
    }

    /// Whether the tables' global loads hide their descriptor (the sm_80 family; sm_90 prints it).
    fn global_desc_hidden(&self) -> bool {
        self.global_desc() == Some(true)
    }

    /// Whether the tables' global loads take a memory descriptor at all.
    fn global_has_desc(&self) -> bool {
        self.global_desc().is_some()
    }

    /// [`Cx::spell`] of `tokens`, else of `tokens` plus `default`: a modifier some generation
    /// prints for the default behaviour and later ones leave out, the choice read off the
    /// tables. sm_75 prints weak global accesses `.SYS` (`LDG.E.SYS`, `STG.E.U8.SYS`,
    /// `LD.E.SYS`; sm_80 on: `LDG.E`) and plain shared loads `.U` (`LDS.U R9, [R0.X4]`).
    fn spell_or_with(&self, base: &str, tokens: &[&str], default: &str) -> R<Vec<String>> {
        self.spell(base, tokens).or_else(|e| {
            let mut with: Vec<&str> = tokens.to_vec();
            with.push(default);
            self.spell(base, &with).map_err(|_| e)
        })
    }

    /// `count` unused predicate results (`pt`: `PT` or `UPT`) where the tables' `base` always
    /// prints its predicate results (the slots at bits 81 and 84), none where it hides them at their default: sm_100's
    /// `IADD3 R2, PT, PT, R0, UR4, RZ` and `VIMNMX R7, PT, PT, RZ, R7, !PT` against sm_90's
    /// `IADD3 R2, R0, UR4, RZ`, the choice read off the tables.
    fn unused_pred_results(&self, base: &str, count: usize, pt: &str) -> Vec<Alts> {
        use super::form::{Kind, Show};
        let shown = self.tables.forms.iter().filter(|f| f.base == base).any(|f| {
            f.slots.iter().any(|sl| matches!(sl.kind, Kind::P(81 | 84) | Kind::Up(81 | 84)) && sl.show == Show::Always)
        });
        if shown { vec![one(pt); count] } else { Vec::new() }
    }

    /// `base` with the single modifier `preferred` where the tables have it, else plain: an
    /// operation a later generation always qualifies (sm_100's `BSSY.RECONVERGENT`), the choice
    /// read off the tables.
    fn spell_prefer(&self, base: &str, preferred: &str) -> R<Vec<String>> {
        self.spell(base, &[preferred]).or_else(|_| self.spell(base, &[]))
    }

    /// [`Cx::spell_or_with`] `.SYS`: a memory access with the default (weak) ordering.
    fn spell_weak(&self, base: &str, tokens: &[&str]) -> R<Vec<String>> {
        self.spell_or_with(base, tokens, "SYS")
    }

    /// [`Cx::spell`] with the first of `bases` the target's tables have forms of: one
    /// operation named differently by generation (sm_90's `VIMNMX`, `REDG` are the sm_80
    /// family's `IMNMX`, `RED`), the name read off the tables rather than the SM number.
    fn spell_first(&self, bases: &[&'static str], tokens: &[&str]) -> R<Vec<String>> {
        let base = bases.iter().find(|b| self.tables.forms.iter().any(|f| f.base == **b)).unwrap_or(&bases[0]);
        self.spell(base, tokens)
    }

    fn ty(&self) -> Option<Ty> {
        self.d.ty()
    }

    /// Mnemonic candidates and operand spellings.
    fn shape(&self, addr: u64) -> R<(Vec<String>, Vec<Alts>)> {
        let d = self.d;
        let m = &d.mods;
        let dst = |n| self.dst(n).map(one);
        let s = |n| self.src(n);
        let rnd = |r: Option<Rnd>| -> &'static str {
            match r.map(Rnd::direction) {
                Some(Rnd::Rz) => "RZ",
                Some(Rnd::Rm) => "RM",
                Some(Rnd::Rp) => "RP",
                _ => "",
            }
        };
        let ftz = if m.has(Flag::Ftz) { "FTZ" } else { "" };
        let sat = if m.has(Flag::Sat) { "SAT" } else { "" };
        let _ = addr;
        Ok(match d.opcode {
            Opcode::MOV => {
                self.single_word(0)?;
                // sm_90 has no MOV from a constant bank in use (ptxas loads with LDC, also the
                // stack pointer: `LDC R1, c[0x0][0x28]`).
                let base = if matches!(d.srcs.first(), Some(Operand::CBank(_))) { "LDC" } else { "MOV" };
                (vec![base.into()], vec![dst(0)?, s(0)?])
            }
            Opcode::S2R => (vec!["S2R".into()], vec![dst(0)?, s(0)?]),
            Opcode::S2UR => (vec!["S2UR".into()], vec![dst(0)?, s(0)?]),
            Opcode::IADD3 | Opcode::UIADD3 => {
                let b = if d.opcode == Opcode::IADD3 { "IADD3" } else { "UIADD3" };
                // The sum commutes: an immediate or constant goes to B, the slot that takes one.
                let (x, y) = match (d.srcs.get(1), d.srcs.get(2)) {
                    (Some(Operand::Reg(_)), Some(Operand::Imm(_) | Operand::CBank(_))) => (2, 1),
                    _ => (1, 2),
                };
                let pt = if b == "IADD3" { "PT" } else { "UPT" };
                let mut ops = vec![dst(0)?];
                ops.extend(self.unused_pred_results(b, 2, pt));
                ops.extend([s(0)?, s(x)?, s(y)?]);
                (vec![b.into()], ops)
            }
            // Added by instruction selection: the carry chain and the extended compare.
            Opcode::IADD3C => {
                let (x, y) = match (d.srcs.get(1), d.srcs.get(2)) {
                    (Some(Operand::Reg(_)), Some(Operand::Imm(_) | Operand::CBank(_))) => (2, 1),
                    _ => (1, 2),
                };
                let mut ops = vec![dst(0)?, dst(1)?];
                ops.extend(self.unused_pred_results("IADD3", 1, "PT"));
                ops.extend([s(0)?, s(x)?, s(y)?]);
                (vec!["IADD3".into()], ops)
            }
            Opcode::IADD3X => {
                let (x, y) = match (d.srcs.get(1), d.srcs.get(2)) {
                    (Some(Operand::Reg(_)), Some(Operand::Imm(_) | Operand::CBank(_))) => (2, 1),
                    _ => (1, 2),
                };
                let mut ops = vec![dst(0)?];
                ops.extend(self.unused_pred_results("IADD3", 2, "PT"));
                ops.extend([s(0)?, s(x)?, s(y)?, s(3)?, one("!PT")]);
                (vec!["IADD3.X".into()], ops)
            }
            Opcode::IMAD => {
                let u = if self.ty().is_some_and(|t| !t.is_signed()) { "U32" } else { "" };
                if self.ty().is_some_and(|t| t.bits() != 32) {
                    return Err("IMAD takes 32-bit operands".into());
                }
                let (half, alias) = match m.half {
                    None | Some(Half::Lo) => ("", true),
                    Some(Half::Hi) => {
                        let zero = match d.srcs.get(2) {
                            Some(Operand::Reg(r)) => r.reg.is_zero() && !r.neg,
                            Some(Operand::Imm(i)) => i.bits() as u32 == 0,
                            _ => false,
                        };
                        if !zero {
                            return Err("IMAD.HI with a non-zero addend (sm_90's IMAD.HI adds a 64-bit addend)".into());
                        }
                        ("HI", false)
                    }
                    Some(Half::Wide) => ("WIDE", false),
                };
                let mut mn = self.spell("IMAD", &[half, u])?;
                if alias {
                    // The low word does not depend on signedness: either spelling will do.
                    let other = if u.is_empty() { "U32" } else { "" };
                    mn.extend(self.spell("IMAD", &[other]).unwrap_or_default());
                    let plain = mn.clone();
                    for a in [".MOV", ".IADD", ".SHL"] {
                        mn.extend(plain.iter().map(|x| x.replacen("IMAD", &format!("IMAD{a}"), 1)));
                    }
                }
                (mn, vec![dst(0)?, s(0)?, s(1)?, s(2)?])
            }
            Opcode::LOP3 | Opcode::ULOP3 => {
                let (b, pt) = if d.opcode == Opcode::LOP3 { ("LOP3.LUT", "!PT") } else { ("ULOP3.LUT", "!UPT") };
                // SASS LOP3 has no source inversion: fold `~x` into the table.
                let Some(Operand::Imm(lut)) = d.srcs.get(3) else {
                    return Err("LOP3 without an immediate table".into());
                };
                let mut lut = lut.bits() as u8;
                let mut ops = vec![dst(0)?];
                for j in 0..3 {
                    match d.srcs.get(j) {
                        Some(Operand::Reg(u)) if u.not => {
                            let flip = 1u8 << (2 - j);
                            lut = (0..8u8).fold(0, |acc, i| acc | (((lut >> (i ^ flip)) & 1) << i));
                            ops.push(self.operand(&Operand::Reg(ori::RegUse { not: false, ..*u }))?);
                        }
                        _ => ops.push(s(j)?),
                    }
                }
                // Only B may be an immediate or constant: swap B and C (and the table's bits).
                if !matches!(d.srcs.get(2), Some(Operand::Reg(_))) && matches!(d.srcs.get(1), Some(Operand::Reg(_))) {
                    ops.swap(2, 3);
                    lut = (0..8u8).fold(0, |acc, i| {
                        let j = (i & 4) | ((i & 1) << 1) | ((i >> 1) & 1);
                        acc | (((lut >> j) & 1) << i)
                    });
                }
                ops.push(one(format!("{lut:#x}")));
                ops.push(one(pt));
                (vec![b.into()], ops)
            }
            Opcode::SHF | Opcode::USHF => {
                let base = if d.opcode == Opcode::SHF { "SHF" } else { "USHF" };
                let dir = match m.dir {
                    Some(ori::Dir::L) => "L",
                    Some(ori::Dir::R) => "R",
                    None => return Err("SHF without a direction".into()),
                };
                let ty = match self.ty() {
                    Some(Ty::S32) => "S32",
                    Some(Ty::U32 | Ty::B32) => "U32",
                    Some(Ty::S64) => "S64",
                    Some(Ty::U64 | Ty::B64) => "U64",
                    t => return Err(format!("SHF type {t:?}")),
                };
                let hi = if m.has(Flag::HiWord) { "HI" } else { "" };
                (self.spell(base, &[dir, ty, hi])?, vec![dst(0)?, s(0)?, s(1)?, s(2)?])
            }
            Opcode::ISETP | Opcode::ISETPX | Opcode::UISETP | Opcode::FSETP | Opcode::DSETP => {
                let base = match d.opcode {
                    Opcode::ISETP | Opcode::ISETPX => "ISETP",
                    Opcode::UISETP => "UISETP",
                    Opcode::FSETP => "FSETP",
                    _ => "DSETP",
                };
                let int = matches!(d.opcode, Opcode::ISETP | Opcode::ISETPX | Opcode::UISETP);
                let cmp = m.cmp.ok_or("no comparison")?;
                let unsigned_ty = int && self.ty().is_some_and(|t| !t.is_signed());
                let (c, u) = match (cmp, int) {
                    (Cmp::Eq, _) => ("EQ", unsigned_ty),
                    (Cmp::Ne, _) => ("NE", unsigned_ty),
                    (Cmp::Lt, _) => ("LT", unsigned_ty),
                    (Cmp::Le, _) => ("LE", unsigned_ty),
                    (Cmp::Gt, _) => ("GT", unsigned_ty),
                    (Cmp::Ge, _) => ("GE", unsigned_ty),
                    (Cmp::Lo, true) => ("LT", true),
                    (Cmp::Ls, true) => ("LE", true),
                    (Cmp::Hi, true) => ("GT", true),
                    (Cmp::Hs, true) => ("GE", true),
                    (Cmp::Equ, false) => ("EQU", false),
                    (Cmp::Neu, false) => ("NEU", false),
                    (Cmp::Ltu, false) => ("LTU", false),
                    (Cmp::Leu, false) => ("LEU", false),
                    (Cmp::Gtu, false) => ("GTU", false),
                    (Cmp::Geu, false) => ("GEU", false),
                    (Cmp::Num, false) => ("NUM", false),
                    (Cmp::Nan, false) => ("NAN", false),
                    (c, _) => return Err(format!("comparison `{c}` on {base}")),
                };
                if int && self.ty().is_some_and(|t| t.bits() != 32) {
                    return Err(format!("{base} on a {}-bit type", self.ty().map_or(0, Ty::bits)));
                }
                let bop = match m.bop.unwrap_or(BoolOp::And) {
                    BoolOp::And => "AND",
                    BoolOp::Or => "OR",
                    BoolOp::Xor => "XOR",
                };
                let f = if d.opcode == Opcode::FSETP { ftz } else { "" };
                if d.opcode == Opcode::ISETPX {
                    let toks = [c, if u { "U32" } else { "" }, bop, "EX"];
                    return Ok((self.spell(base, &toks)?, vec![dst(0)?, dst(1)?, s(0)?, s(1)?, s(2)?, s(3)?]));
                }
                let toks = [c, if u { "U32" } else { "" }, bop, f];
                (self.spell(base, &toks)?, vec![dst(0)?, dst(1)?, s(0)?, s(1)?, s(2)?])
            }
            Opcode::FADD | Opcode::FMUL | Opcode::FFMA => {
                let base = match d.opcode {
                    Opcode::FADD => "FADD",
                    Opcode::FMUL => "FMUL",
                    _ => "FFMA",
                };
                let mut ops = vec![dst(0)?, s(0)?, s(1)?];
                if d.opcode == Opcode::FFMA {
                    ops.push(s(2)?);
                }
                (self.spell(base, &[ftz, sat, rnd(m.rnd)])?, ops)
            }
            Opcode::DADD | Opcode::DMUL | Opcode::DFMA => {
                let base = match d.opcode {
                    Opcode::DADD => "DADD",
                    Opcode::DMUL => "DMUL",
                    _ => "DFMA",
                };
                let mut ops = vec![dst(0)?, s(0)?, s(1)?];
                if d.opcode == Opcode::DFMA {
                    ops.push(s(2)?);
                }
                (self.spell(base, &[rnd(m.rnd)])?, ops)
            }
            Opcode::FMNMX => {
                let nan = if m.has(Flag::NaN) { "NAN" } else { "" };
                let xs = if m.has(Flag::Xorsign) { "XORSIGN" } else { "" };
                (self.spell("FMNMX", &[ftz, nan, xs])?, vec![dst(0)?, s(0)?, s(1)?, s(2)?])
            }
            Opcode::IMNMX => {
                let u = if self.ty().is_some_and(|t| !t.is_signed()) { "U32" } else { "" };
                let mut ops = vec![dst(0)?];
                ops.extend(self.unused_pred_results("VIMNMX", 2, "PT"));
                ops.extend([s(0)?, s(1)?, s(2)?]);
                // Signed is plain where the tables spell it so, `.S32` where they always name
                // the lane type (sm_120's `VIMNMX.S32 R4, R0, R5, PT`).
                let base = if self.tables.forms.iter().any(|f| f.base == "VIMNMX") { "VIMNMX" } else { "IMNMX" };
                (self.spell_or_with(base, &[u], "S32")?, ops)
            }
            Opcode::SEL => (vec!["SEL".into()], vec![dst(0)?, s(0)?, s(1)?, s(2)?]),
            Opcode::SGXT => {
                let w = if m.sub == Some(SubOp::Wrap) { "W" } else { "" };
                let u = if self.ty().is_some_and(|t| !t.is_signed()) { "U32" } else { "" };
                (self.spell("SGXT", &[w, u])?, vec![dst(0)?, s(0)?, s(1)?])
            }
            Opcode::FSEL => (vec!["FSEL".into()], vec![dst(0)?, s(0)?, s(1)?, s(2)?]),
            Opcode::USEL => (vec!["USEL".into()], vec![dst(0)?, s(0)?, s(1)?, s(2)?]),
            Opcode::PLOP3 | Opcode::UPLOP3 => {
                let b = if d.opcode == Opcode::PLOP3 { "PLOP3.LUT" } else { "UPLOP3.LUT" };
                (vec![b.into()], vec![dst(0)?, dst(1)?, s(0)?, s(1)?, s(2)?, s(3)?, s(4)?])
            }
            Opcode::IABS => (vec!["IABS".into()], vec![dst(0)?, s(0)?]),
            Opcode::POPC => (vec!["POPC".into()], vec![dst(0)?, s(0)?]),
            Opcode::BREV => (vec!["BREV".into()], vec![dst(0)?, s(0)?]),
            Opcode::FLO => {
                let u = if self.ty().is_some_and(|t| !t.is_signed()) { "U32" } else { "" };
                (self.spell("FLO", &[u])?, vec![dst(0)?, s(0)?])
            }
            Opcode::PRMT => (vec!["PRMT".into()], vec![dst(0)?, s(0)?, s(1)?, s(2)?]),
            Opcode::VABSDIFF4 | Opcode::VABSDIFF4ACC => {
                let sign = if m.src_ty.is_some_and(Ty::is_signed) { "S8" } else { "U8" };
                let acc = if d.opcode == Opcode::VABSDIFF4ACC { "ACC" } else { "" };
                let c = if acc.is_empty() { one("RZ") } else { s(2)? };
                (self.spell("VABSDIFF4", &[sign, acc])?, vec![dst(0)?, s(0)?, s(1)?, c])
            }
            Opcode::VIADD2 => {
                let b = match (m.sub, d.srcs.get(1)) {
                    (Some(SubOp::SubtractOp), Some(Operand::Reg(u))) => {
                        self.operand(&Operand::Reg(ori::RegUse { neg: !u.neg, ..*u }))?
                    }
                    (Some(SubOp::AddOp), _) => s(1)?,
                    _ => return Err("VIADD.16x2 needs add, or sub of a register".into()),
                };
                (self.spell("VIADD", &["16x2"])?, vec![dst(0)?, s(0)?, b])
            }
            Opcode::VIMNMX2 => {
                let t = if m.src_ty.is_some_and(Ty::is_signed) { "S16x2" } else { "U16x2" };
                let p = match m.sub {
                    Some(SubOp::MinOp) => "PT",
                    Some(SubOp::MaxOp) => "!PT",
                    _ => return Err("VIMNMX.16x2 needs min or max".into()),
                };
                let mut ops = vec![dst(0)?];
                ops.extend(self.unused_pred_results("VIMNMX", 2, "PT"));
                ops.extend([s(0)?, s(1)?, one(p)]);
                (self.spell("VIMNMX", &[t])?, ops)
            }
            Opcode::F2FP => {
                let (dt, st) = (self.ty().ok_or("F2FP without a type")?, m.src_ty.ok_or("F2FP without a source type")?);
                let name = |t: Ty| match t {
                    Ty::E4m3x2 => "E4M3",
                    Ty::E5m2x2 => "E5M2",
                    Ty::F16 | Ty::F16x2 => "F16",
                    Ty::BF16 | Ty::BF16x2 => "BF16",
                    _ => "F32",
                };
                let satf = if m.has(Flag::Sat) { "SATFINITE" } else { "" };
                let relu = if m.has(Flag::Relu) { "RELU" } else { "" };
                let fp8 = |t: Ty| matches!(t, Ty::E4m3x2 | Ty::E5m2x2);
                let rz = || one("RZ");
                // The packing mode, and the operands as nvdisasm prints them (ptxas's C is RZ).
                let (mode, ops) = match (fp8(dt), fp8(st), d.srcs.len()) {
                    (true, false, 2) => ("PACK_AB_MERGE_C", vec![dst(0)?, s(0)?, s(1)?, rz()]),
                    (true, false, 1) => ("UNPACK_B_MERGE_C", vec![dst(0)?, s(0)?, rz()]),
                    (false, true, 1) => ("UNPACK_B", vec![dst(0)?, s(0)?]),
                    (false, false, 2) => ("PACK_AB", vec![dst(0)?, s(0)?, s(1)?]),
                    (false, false, 1) => ("MERGE_C", vec![dst(0)?, s(0)?, rz()]),
                    _ => return Err(format!("F2FP.{dt}.{st} with {} sources", d.srcs.len())),
                };
                (self.spell("F2FP", &[satf, relu, name(dt), name(st), mode, rnd(m.rnd)])?, ops)
            }
            Opcode::I2IP => {
                let dt = match self.ty() {
                    Some(Ty::U16) => "U16",
                    Some(Ty::S16) => "S16",
                    Some(Ty::U8) => "U8",
                    Some(Ty::S8) => "S8",
                    Some(Ty::U4) => "U4",
                    Some(Ty::S4) => "S4",
                    Some(Ty::U2) => "U2",
                    Some(Ty::S2) => "S2",
                    t => return Err(format!("I2IP to {t:?}")),
                };
                // C's selector: the part of C kept above the two fields, as ptxas sets it on
                // the sub-byte forms (`R4.24`: 2, `R4.28`: 3; `sass::sm90::i2ip`).
                let sel = match self.ty().map(Ty::bits) {
                    Some(4) => ".24",
                    Some(2) => ".28",
                    _ => "",
                };
                let c = s(2)?.into_iter().map(|a| a + sel).collect::<Alts>();
                (self.spell("I2IP", &[dt, "S32", "SAT"])?, vec![dst(0)?, s(0)?, s(1)?, c])
            }
            Opcode::I2F | Opcode::F2I | Opcode::F2F | Opcode::I2I => {
                let dt = self.ty().ok_or("conversion without a destination type")?;
                let st = m.src_ty.ok_or("conversion without a source type")?;
                let tname = |t: Ty| -> R<&'static str> {
                    Ok(match t {
                        Ty::F16 => "F16",
                        Ty::F32 => "F32",
                        Ty::F64 => "F64",
                        Ty::BF16 => "BF16",
                        Ty::U8 => "U8",
                        Ty::S8 => "S8",
                        Ty::U16 => "U16",
                        Ty::S16 => "S16",
                        Ty::U32 | Ty::B32 => "U32",
                        Ty::S32 => "S32",
                        Ty::U64 | Ty::B64 => "U64",
                        Ty::S64 => "S64",
                        t => return Err(format!("conversion type {t}")),
                    })
                };
                let (dn, sn) = (tname(dt)?, tname(st)?);
                let toks: Vec<&str> = match d.opcode {
                    Opcode::I2F => {
                        vec![if dn == "F32" { "" } else { dn }, if sn == "S32" { "" } else { sn }, rnd(m.rnd)]
                    }
                    Opcode::F2I => {
                        let r = match m.rnd {
                            Some(Rnd::Rzi | Rnd::Rz) => "TRUNC",
                            Some(Rnd::Rmi | Rnd::Rm) => "FLOOR",
                            Some(Rnd::Rpi | Rnd::Rp) => "CEIL",
                            _ => "",
                        };
                        // ptxas spells `.NTZ` on every F2I to a 32-bit or narrower integer from f16/f32.
                        let ntz = if dt.bits() <= 32 && st != Ty::F64 { "NTZ" } else { "" };
                        vec![if dn == "S32" { "" } else { dn }, if sn == "F32" { "" } else { sn }, r, ftz, ntz]
                    }
                    Opcode::F2F if dt == st => return self.same_type_f2f(dt),
                    Opcode::F2F if (dt, st) == (Ty::F32, Ty::F16) => return self.f16_to_f32(),
                    Opcode::F2F => {
                        if m.rnd.is_some_and(Rnd::is_integral) {
                            return Err(format!("F2F.{dn}.{sn} with an integral rounding"));
                        }
                        vec![dn, sn, rnd(m.rnd), ftz, sat]
                    }
                    _ => vec![dn, sn, sat],
                };
                let base = match d.opcode {
                    Opcode::I2F => "I2F",
                    Opcode::F2I => "F2I",
                    Opcode::F2F => "F2F",
                    _ => "I2I",
                };
                // A token set loses order, which matters here: the destination type comes first.
                let ordered = |v: Vec<String>| -> R<Vec<String>> {
                    let keep: Vec<String> = v
                        .into_iter()
                        .filter(|m| {
                            let t: Vec<&str> = m.split('.').collect();
                            match (t.iter().position(|x| *x == dn), t.iter().position(|x| *x == sn)) {
                                (Some(a), Some(b)) => a <= b,
                                _ => true,
                            }
                        })
                        .collect();
                    if keep.is_empty() { Err(format!("sm_90 has no {base}.{dn}.{sn}")) } else { Ok(keep) }
                };
                let spelled = self.spell(base, &toks).and_then(ordered).or_else(|e| {
                    // 32-bit integer to f32: sm_86+ I2FP (what ptxas selects; fixed latency).
                    if d.opcode == Opcode::I2F && dn == "F32" && matches!(sn, "S32" | "U32") {
                        self.spell("I2FP", &["F32", sn, rnd(m.rnd)])
                    } else {
                        Err(e)
                    }
                })?;
                (spelled, vec![dst(0)?, s(0)?])
            }
            Opcode::MUFU => {
                let f = match m.mufu.ok_or("MUFU without a function")? {
                    ori::Mufu::Rcp => "RCP",
                    ori::Mufu::Rsq => "RSQ",
                    ori::Mufu::Sqrt => "SQRT",
                    ori::Mufu::Sin => "SIN",
                    ori::Mufu::Cos => "COS",
                    ori::Mufu::Ex2 => "EX2",
                    ori::Mufu::Lg2 => "LG2",
                    ori::Mufu::Tanh => "TANH",
                    ori::Mufu::Rcp64h => "RCP64H",
                    ori::Mufu::Rsq64h => "RSQ64H",
                };
                // sm_90's MUFU has no `.FTZ`: the unit flushes f32 subnormals whatever the
                // modifiers say (the Ori semantics of MUFU do too), so `.ftz` is dropped.
                let half = if self.ty() == Some(Ty::F16) { "F16" } else { "" };
                (self.spell("MUFU", &[f, half])?, vec![dst(0)?, s(0)?])
            }
            Opcode::LDG | Opcode::LD => {
                let base = if d.opcode == Opcode::LDG { "LDG" } else { "LD" };
                let vol = m.has(Flag::Volatile);
                let mut toks = vec!["E", size_tok(self.ty())?];
                if vol {
                    toks.extend(["STRONG", "SYS"]);
                }
                let spelled = if vol { self.spell(base, &toks)? } else { self.spell_weak(base, &toks)? };
                (spelled, vec![dst(0)?, self.mem(0, true)?])
            }
            Opcode::STG | Opcode::ST => {
                let base = if d.opcode == Opcode::STG { "STG" } else { "ST" };
                let mut toks = vec!["E", store_size_tok(self.ty())?];
                let vol = m.has(Flag::Volatile);
                if vol {
                    toks.extend(["STRONG", "SYS"]);
                }
                let spelled = if vol { self.spell(base, &toks)? } else { self.spell_weak(base, &toks)? };
                (spelled, vec![self.mem(0, true)?, s(1)?])
            }
            Opcode::LDS | Opcode::LDL => {
                let spelled = if d.opcode == Opcode::LDS {
                    self.spell_or_with("LDS", &[size_tok(self.ty())?], "U")?
                } else {
                    self.spell("LDL", &[size_tok(self.ty())?])?
                };
                (spelled, vec![dst(0)?, self.mem(0, false)?])
            }
            Opcode::STS | Opcode::STL => {
                let base = if d.opcode == Opcode::STS { "STS" } else { "STL" };
                (self.spell(base, &[store_size_tok(self.ty())?])?, vec![self.mem(0, false)?, s(1)?])
            }
            Opcode::LDC => (self.spell("LDC", &[size_tok(self.ty())?])?, vec![dst(0)?, s(0)?]),
            // sm_100 on: `LDCU` (variable latency) where sm_90 has `ULDC`.
            Opcode::ULDC => (self.spell_first(&["ULDC", "LDCU"], &[size_tok(self.ty())?])?, vec![dst(0)?, s(0)?]),
            Opcode::UMOV => (vec!["UMOV".into()], vec![dst(0)?, s(0)?]),
            Opcode::LDGSTS => {
                let bypass = if m.sub == Some(SubOp::Cg) { "BYPASS" } else { "" };
                let mut ops = vec![self.mem(0, false)?, self.mem(1, true)?];
                // The copy predicate is shown only when it is not PT (`!PT`: zero fill).
                if !matches!(d.srcs.get(2), Some(Operand::Reg(u)) if u.reg.is_zero() && !u.not) {
                    ops.push(s(2)?);
                }
                let zfill = if m.has(Flag::Zfill) { "ZFILL" } else { "" };
                (self.spell("LDGSTS", &["E", bypass, size_tok(self.ty())?, zfill])?, ops)
            }
            Opcode::LDGDEPBAR => (vec!["LDGDEPBAR".into()], vec![]),
            // mbarriers (`lower::isel::mbarrier`).
            Opcode::R2UR => (vec!["R2UR".into()], vec![dst(0)?, s(0)?]),
            Opcode::SYNCSEXCH => (vec!["SYNCS.EXCH.64".into()], vec![one("URZ"), self.mem(0, false)?, s(1)?]),
            Opcode::SYNCSARRIVE => {
                let int = |n: usize| match d.srcs.get(n) {
                    Some(Operand::Imm(i)) => Ok(i.bits()),
                    _ => Err(format!("SYNCS.ARRIVE source {n} is not an immediate")),
                };
                let tx_rz = matches!(d.srcs.get(3), Some(Operand::Reg(u)) if u.reg.is_zero());
                let optout = if m.has(Flag::Optout) { ".OPTOUT" } else { "" };
                if let Some(Operand::Reg(_)) = d.srcs.get(1) {
                    // The arrival count in a register: `.ART0`, the count as Rb.
                    if int(2)? != 0 || !tx_rz {
                        return Err("SYNCS.ARRIVE with a register count and transactions".into());
                    }
                    let mn = format!("SYNCS.ARRIVE.TRANS64{optout}.ART0");
                    return Ok((vec![mn], vec![dst(0)?, self.mem(0, false)?, s(1)?]));
                }
                let mode = match (int(1)?, int(2)?, tx_rz, m.has(Flag::CompleteTx)) {
                    (0, 0, _, true) if optout.is_empty() => ".RED.A0TX",
                    (1, 0, true, false) => ".A1T0",
                    (1, 0, false, false) => "",
                    (0, 1, true, false) if optout.is_empty() => ".RED.A0T1",
                    (0, 0, false, false) if optout.is_empty() => ".RED.A0TR",
                    (a, t, _, c) => {
                        return Err(format!("SYNCS.ARRIVE with {a} arrivals, {t} transactions, complete {c}{optout}"));
                    }
                };
                (vec![format!("SYNCS.ARRIVE.TRANS64{optout}{mode}")], vec![dst(0)?, self.mem(0, false)?, s(3)?])
            }
            Opcode::SYNCSPHASECHK | Opcode::SYNCSTRYWAIT => {
                let mn = if d.opcode == Opcode::SYNCSTRYWAIT {
                    "SYNCS.PHASECHK.TRANS64.TRYWAIT"
                } else {
                    "SYNCS.PHASECHK.TRANS64"
                };
                (vec![mn.into()], vec![dst(0)?, self.mem(0, false)?, s(1)?])
            }
            Opcode::SYNCSCCTL => (vec!["SYNCS.CCTL.IV".into()], vec![self.mem(0, false)?]),
            Opcode::ARRIVES => (vec!["ARRIVES.LDGSTSBAR.64.TRANSCNT".into()], vec![self.mem(0, false)?]),
            Opcode::UBLKCP => {
                let pair = |n: usize| -> R<Alts> {
                    match d.srcs.get(n) {
                        Some(Operand::Reg(u)) => Ok(one(format!("[{}]", base_name(self.phys(u.reg)?)))),
                        _ => Err(format!("UBLKCP source {n} is not a register pair")),
                    }
                };
                (vec!["UBLKCP.S.G".into()], vec![pair(0)?, pair(1)?, s(2)?])
            }
            Opcode::ELECT => {
                let leader = if d.dsts.len() > 1 { dst(1)? } else { one("URZ") };
                (vec!["ELECT".into()], vec![dst(0)?, leader, one("PT")])
            }
            Opcode::MOVM => (vec!["MOVM.16.MT88".into()], vec![dst(0)?, s(0)?]),
            Opcode::SULD | Opcode::SUST => self.surface()?,
            Opcode::LDSM => {
                let n = match d.dsts.first() {
                    Some(Reg::Phys(p)) => p.count,
                    _ => return Err("LDSM without a register destination".into()),
                };
                let mt = if m.has(Flag::Trans) { "MT88" } else { "M88" };
                let count = match n {
                    1 => "",
                    2 => "2",
                    4 => "4",
                    _ => return Err(format!("LDSM into {n} registers")),
                };
                (self.spell("LDSM", &["16", mt, count])?, vec![dst(0)?, self.mem(0, false)?])
            }
            Opcode::STSM => {
                let n = match d.srcs.get(1) {
                    Some(Operand::Reg(u)) => match u.reg {
                        Reg::Phys(p) => p.count,
                        _ => return Err("STSM with a virtual register".into()),
                    },
                    _ => return Err("STSM without a register source".into()),
                };
                let mt = if m.has(Flag::Trans) { "MT88" } else { "M88" };
                let count = match n {
                    1 => "",
                    2 => "2",
                    4 => "4",
                    _ => return Err(format!("STSM from {n} registers")),
                };
                (self.spell("STSM", &["16", mt, count])?, vec![self.mem(0, false)?, s(1)?])
            }
            Opcode::HMMA => {
                let na = match d.srcs.first() {
                    Some(Operand::Reg(u)) => match u.reg {
                        Reg::Phys(p) => p.count,
                        _ => return Err("HMMA with a virtual register".into()),
                    },
                    _ => return Err("HMMA without an a fragment".into()),
                };
                let (shape, ty) = match (m.src_ty, na) {
                    (Some(Ty::F16), 4) => ("16816", ""),
                    (Some(Ty::F16), 2) => ("1688", ""),
                    (Some(Ty::BF16), 4) => ("16816", "BF16"),
                    (Some(Ty::BF16), 2) => ("1688", "BF16"),
                    (Some(Ty::TF32), 4) => ("1688", "TF32"),
                    (Some(Ty::TF32), 2) => ("1684", "TF32"),
                    (t, n) => return Err(format!("HMMA of {t:?} with a {n}-register a fragment")),
                };
                (self.spell("HMMA", &[shape, "F32", ty])?, vec![dst(0)?, s(0)?, s(1)?, s(2)?])
            }
            // Warpgroup MMA (`lower::isel::wgmma`).
            Opcode::WARPGROUPARRIVE => (vec!["WARPGROUP.ARRIVE".into()], vec![]),
            Opcode::WARPGROUPDEPBAR => {
                let n = match d.srcs.first() {
                    Some(Operand::Imm(i)) => i.bits(),
                    _ => return Err("WARPGROUP.DEPBAR without a count".into()),
                };
                (vec!["WARPGROUP.DEPBAR.LE".into()], vec![one("gsb0"), one(format!("{n:#x}"))])
            }
            Opcode::VOTEU => (vec!["VOTEU.ANY".into()], vec![dst(0)?, s(0)?]),
            Opcode::HGMMA => self.shape_hgmma()?,
            Opcode::QSPC => {
                let space = match m.sub {
                    Some(SubOp::SpGlobal) => "G",
                    Some(SubOp::SpShared) => "S",
                    Some(SubOp::SpLocal) => "L",
                    s => return Err(format!("QSPC of {s:?}")),
                };
                let addr = match d.srcs.first() {
                    Some(Operand::Reg(u)) => match u.reg {
                        Reg::Phys(p) if p.count == 2 => format!("[R{}]", p.index),
                        r => return Err(format!("QSPC of address {r:?}")),
                    },
                    _ => return Err("QSPC without an address register".into()),
                };
                (self.spell("QSPC", &["E", space])?, vec![dst(0)?, one("RZ"), one(addr)])
            }
            Opcode::IMMA => {
                let na = match d.srcs.first() {
                    Some(Operand::Reg(u)) => match u.reg {
                        Reg::Phys(p) => p.count,
                        _ => return Err("IMMA with a virtual register".into()),
                    },
                    _ => return Err("IMMA without an a fragment".into()),
                };
                let shape = match na {
                    2 => "16816",
                    4 => "16832",
                    n => return Err(format!("IMMA with a {n}-register a fragment")),
                };
                let Some((sa, sb)) = crate::ori::tensor::int_mma_signedness(m) else {
                    return Err(format!("IMMA of {:?}", m.src_ty));
                };
                let ty = |signed: bool| if signed { "S8" } else { "U8" };
                let sat = if m.has(Flag::Sat) { "SAT" } else { "" };
                let tail = |alts: Alts, t: &str| alts.into_iter().map(|a| a + t).collect::<Alts>();
                let ops = vec![dst(0)?, tail(s(0)?, ".ROW"), tail(s(1)?, ".COL"), s(2)?];
                // The printed order is A's type then B's: spell's set match cannot tell
                // `S8.U8` from `U8.S8`, so keep the candidates in that order only.
                let want = format!("IMMA.{shape}.{}.{}{}", ty(sa), ty(sb), if sat.is_empty() { "" } else { ".SAT" });
                let names: Vec<String> =
                    self.spell("IMMA", &[shape, ty(sa), ty(sb), sat])?.into_iter().filter(|n| *n == want).collect();
                if names.is_empty() {
                    return Err(format!("sm_90 has no {want}"));
                }
                (names, ops)
            }
            Opcode::DEPBAR => {
                let n = match d.srcs.first() {
                    Some(Operand::Imm(i)) => i.bits(),
                    _ => return Err("DEPBAR without a count".into()),
                };
                (self.spell("DEPBAR", &["LE"])?, vec![one("SB0"), one(format!("{n:#x}"))])
            }
            Opcode::DEPBARLIST => {
                let m = match d.srcs.first() {
                    Some(Operand::Imm(i)) => i.bits(),
                    _ => return Err("DEPBAR without a scoreboard list".into()),
                };
                let list: Vec<String> = (0..6).rev().filter(|k| m >> k & 1 == 1).map(|k| k.to_string()).collect();
                (vec!["DEPBAR".into()], vec![one(format!("{{{}}}", list.join(",")))])
            }
            Opcode::UTMACCTL => {
                let a = match d.srcs.first() {
                    Some(Operand::Reg(u)) => format!("[{}]", base_name(self.phys(u.reg)?)),
                    _ => return Err("UTMACCTL without a uniform address pair".into()),
                };
                (vec!["UTMACCTL.IV".into()], vec![one(a)])
            }
            Opcode::BRA => (vec!["BRA".into()], vec![s(0)?]),
            Opcode::EXIT => (vec!["EXIT".into()], vec![]),
            Opcode::NOP => (vec!["NOP".into()], vec![]),
            Opcode::YIELD => (vec!["YIELD".into()], vec![]),
            Opcode::BPT => (vec!["BPT.TRAP".into()], vec![one("0x1")]),
            Opcode::PMTRIG => (vec!["PMTRIG".into()], vec![s(0)?]),
            Opcode::USETMAXREG if d.dsts.is_empty() => (vec!["USETMAXREG.DEALLOC.CTAPOOL".into()], vec![s(0)?]),
            Opcode::USETMAXREG => (vec!["USETMAXREG.TRY_ALLOC.CTAPOOL".into()], vec![dst(0)?, s(0)?]),
            Opcode::ACQBULK => (vec!["ACQBULK".into()], vec![]),
            Opcode::PREEXIT => (vec!["PREEXIT".into()], vec![]),
            Opcode::ATOM | Opcode::ATOMCAS | Opcode::ATOMG | Opcode::ATOMGCAS | Opcode::ATOMS | Opcode::ATOMSCAS => {
                self.atomic()?
            }
            // CTA barriers (`lower::isel::barrier`): id, [count,] [predicate].
            Opcode::BAR | Opcode::BARARV | Opcode::BARRED => {
                let name = match (d.opcode, m.sub) {
                    (Opcode::BAR, _) => "BAR.SYNC.DEFER_BLOCKING",
                    (Opcode::BARARV, _) => "BAR.ARV",
                    (_, Some(SubOp::PopcOp)) => "BAR.RED.POPC.DEFER_BLOCKING",
                    (_, Some(SubOp::AndOp)) => "BAR.RED.AND.DEFER_BLOCKING",
                    (_, Some(SubOp::OrOp)) => "BAR.RED.OR.DEFER_BLOCKING",
                    _ => return Err("BAR.RED without a combiner".into()),
                };
                let red = d.opcode == Opcode::BARRED;
                let ci = if red { 2 } else { 1 };
                let mut ops = vec![s(0)?];
                if d.srcs.len() > ci {
                    ops.push(s(ci)?);
                }
                if red {
                    ops.push(s(1)?);
                }
                // sm_75 has no `.DEFER_BLOCKING` (`BAR.SYNC 0x0`): the tables pick the spelling.
                let plain = name.trim_end_matches(".DEFER_BLOCKING");
                (vec![name.into(), plain.into()], ops)
            }
            // The predicate result is shown only when it is not PT.
            Opcode::B2R => {
                let mut ops = vec![dst(0)?];
                if !d.dsts.get(1).is_some_and(|r| matches!(r, Reg::Phys(p) if p.is_zero())) {
                    ops.push(dst(1)?);
                }
                (vec!["B2R.RESULT".into()], ops)
            }
            Opcode::MEMBAR => {
                let m = match d.srcs.first() {
                    Some(Operand::Imm(i)) => ori::fence::Membar::from_code(i.bits() as i64),
                    _ => None,
                };
                (vec![m.ok_or("MEMBAR without a form")?.text()], vec![])
            }
            Opcode::ERRBAR => (vec!["ERRBAR".into()], vec![]),
            Opcode::CGAERRBAR => (vec!["CGAERRBAR".into()], vec![]),
            Opcode::CCTLIVALL => (vec!["CCTL.IVALL".into()], vec![]),
            Opcode::UCGABARARV => (vec!["UCGABAR_ARV".into()], vec![]),
            Opcode::UCGABARWAIT => (vec!["UCGABAR_WAIT".into()], vec![]),
            Opcode::FENCEVIEW => {
                let g = matches!(d.srcs.first(), Some(Operand::Imm(i)) if i.bits() == 1);
                (vec![if g { "FENCE.VIEW.ASYNC.G" } else { "FENCE.VIEW.ASYNC.S" }.into()], vec![])
            }
            // Blackwell's convergence barriers are `BSSY.RECONVERGENT` (as ptxas writes them).
            Opcode::BSSY => (self.spell_prefer("BSSY", "RECONVERGENT")?, vec![dst(0)?, s(0)?]),
            Opcode::BSYNC => (vec!["BSYNC".into()], vec![s(0)?]),
            Opcode::WARPSYNC => match d.srcs.first() {
                // `.ALL` where the tables spell it (sm_90); the sm_80 family writes the mask.
                Some(Operand::Imm(i)) if i.bits() as u32 == u32::MAX && self.spell("WARPSYNC", &["ALL"]).is_ok() => {
                    (vec!["WARPSYNC.ALL".into()], vec![])
                }
                _ if d.mods.has(Flag::Exclusive) => (vec!["WARPSYNC.EXCLUSIVE".into()], vec![s(0)?]),
                _ => (vec!["WARPSYNC".into()], vec![s(0)?]),
            },
            // Added by instruction selection (warp ops): `SHFL.<mode> Pd, Rd, a, b, c`; the Ori
            // instruction's fourth source (the member mask) has no SASS operand.
            Opcode::SHFL => {
                let mode = match m.sub {
                    Some(ori::SubOp::Idx) => "IDX",
                    Some(ori::SubOp::Up) => "UP",
                    Some(ori::SubOp::Down) => "DOWN",
                    Some(ori::SubOp::Bfly) => "BFLY",
                    s => return Err(format!("SHFL mode {s:?}")),
                };
                (self.spell("SHFL", &[mode])?, vec![dst(1)?, dst(0)?, s(0)?, s(1)?, s(2)?])
            }
            // Added by instruction selection (warp ops), the member mask (last source) dropped:
            // `VOTE.ALL/ANY Rd, Pd, Ps`, printed without `Rd` when it is `RZ` (ptxas:
            // `VOTE.ANY R7, PT, P4` for a ballot, `VOTE.ALL P1, P1` for `vote.all.pred`).
            Opcode::VOTE => {
                let mode = match m.sub {
                    Some(ori::SubOp::All) => "ALL",
                    Some(ori::SubOp::Any) => "ANY",
                    Some(ori::SubOp::Uni) => "EQ",
                    s => return Err(format!("VOTE mode {s:?}")),
                };
                let ballot = self.phys(*d.dsts.first().ok_or("VOTE without destinations")?)?;
                let mut ops = if ballot.is_zero() { vec![] } else { vec![dst(0)?] };
                ops.extend([dst(1)?, s(0)?]);
                (self.spell("VOTE", &[mode])?, ops)
            }
            // `activemask`: ptxas's `VOTE.ANY Rd, PT, PT`.
            Opcode::ACTIVEMASK => (self.spell("VOTE", &["ANY"])?, vec![dst(0)?, one("PT"), one("PT")]),
            // `REDUX.op URd, Ra` (ptxas: `REDUX.SUM`, `.MIN`/`.MAX` with `.S32` when signed,
            // `.OR`, `.XOR`, and plain `REDUX` for `and`).
            Opcode::REDUX => {
                let op = match m.sub {
                    Some(ori::SubOp::AddOp) => "SUM",
                    Some(ori::SubOp::MinOp) => "MIN",
                    Some(ori::SubOp::MaxOp) => "MAX",
                    Some(ori::SubOp::AndOp) => "",
                    Some(ori::SubOp::OrOp) => "OR",
                    Some(ori::SubOp::XorOp) => "XOR",
                    s => return Err(format!("REDUX operation {s:?}")),
                };
                let signed = matches!(m.sub, Some(ori::SubOp::MinOp | ori::SubOp::MaxOp))
                    && self.ty().is_some_and(Ty::is_signed);
                (self.spell("REDUX", &[op, if signed { "S32" } else { "" }])?, vec![dst(0)?, s(0)?])
            }
            // `MATCH.ANY Rd, Ra` / `MATCH.ALL Pd, Rd, Ra`, `.U64` with a register pair.
            Opcode::MATCH => {
                let wide = if self.ty().is_some_and(|t| t.bits() == 64) { "U64" } else { "" };
                match m.sub {
                    Some(ori::SubOp::Any) => (self.spell("MATCH", &["ANY", wide])?, vec![dst(0)?, s(0)?]),
                    Some(ori::SubOp::All) => (self.spell("MATCH", &["ALL", wide])?, vec![dst(1)?, dst(0)?, s(0)?]),
                    s => return Err(format!("MATCH mode {s:?}")),
                }
            }
            Opcode::HADD2 | Opcode::HMUL2 | Opcode::HFMA2 | Opcode::HMNMX2 | Opcode::HSETP2 => self.half()?,
            Opcode::CALL => {
                let Some(Operand::Func(n)) = d.srcs.first() else { return Err("a CALL without a callee".into()) };
                let t = self.callees.get(n).ok_or_else(|| format!("the callee @{n} is not placed"))?;
                (vec!["CALL.REL.NOINC".into()], vec![one(format!("{t:#x}"))])
            }
            Opcode::RET => (vec!["RET.REL.NODEC".into()], vec![one("R2 0x0")]),
            // The target is patched in when the `CALLABS` after it is emitted.
            Opcode::LEPC => (vec!["LEPC".into()], vec![dst(0)?, one("0x0")]),
            Opcode::CALLABS => (vec!["CALL.ABS.NOINC".into()], vec![s(1)?]),
            op => return Err(format!("`{op}` is not a SASS-stage opcode emission handles")),
        })
    }

    /// `ATOM` (generic), `ATOMG`/`REDG`/`ATOMS` and their compare-and-swap forms, spelled as
    /// ptxas prints them (`ATOM.E.ADD.STRONG.GPU PT, Rd, desc[UR][Ra.64+off], Rb`):
    /// `ATOMG.E.ADD.STRONG.GPU PT, Rd, desc[UR][Ra.64+off], Rb` (`REDG.E.ADD.STRONG.GPU
    /// desc[..], Rb` when the destination is RZ, except an exchange), `ATOMG.E.CAS.STRONG.GPU PT, Rd, [Ra+off], Rb,
    /// Rc` (no descriptor), `ATOMS.ADD Rd, [Ra+off], Rb`, `ATOMS.CAS Rd, [Ra+off], Rb, Rc`.
    fn atomic(&self) -> R<(Vec<String>, Vec<Alts>)> {
        let d = self.d;
        let t = self.ty().ok_or("an atomic without a type")?;
        let wide = t.bits() == 64;
        let cas = matches!(d.opcode, Opcode::ATOMCAS | Opcode::ATOMGCAS | Opcode::ATOMSCAS);
        let op = if cas {
            "CAS"
        } else {
            match d.mods.sub {
                Some(SubOp::AddOp) => "ADD",
                Some(SubOp::MinOp) => "MIN",
                Some(SubOp::MaxOp) => "MAX",
                Some(SubOp::AndOp) => "AND",
                Some(SubOp::OrOp) => "OR",
                Some(SubOp::XorOp) => "XOR",
                Some(SubOp::Exch) => "EXCH",
                Some(SubOp::Inc) => "INC",
                Some(SubOp::Dec) => "DEC",
                s => return Err(format!("atomic operation {s:?}")),
            }
        };
        // Type tokens: float add `.F32.FTZ.RN` / `.F64.RN` / `.F16x2.RN` / `.BF16x2.RN`; `.64`; signed min/max `.S32`/`.S64`.
        let mut ty_toks: Vec<&str> = Vec::new();
        if t.is_float() {
            ty_toks.extend(match t {
                Ty::F64 => ["F64", "RN"].as_slice(),
                Ty::F16x2 => ["F16x2", "RN"].as_slice(),
                Ty::BF16x2 => ["BF16x2", "RN"].as_slice(),
                Ty::F32 => ["F32", "FTZ", "RN"].as_slice(),
                t => return Err(format!("a {t} atomic")),
            });
        } else {
            let signed = t.is_signed() && matches!(op, "MIN" | "MAX");
            match (wide, signed) {
                (false, true) => ty_toks.push("S32"),
                (true, true) => ty_toks.push("S64"),
                (true, false) => ty_toks.push("64"),
                (false, false) => {}
            }
        }
        let dst_rz = self.phys(d.dsts[0]).is_ok_and(|p| p.is_zero());
        let mut vals = Vec::new();
        for n in 1..d.srcs.len() {
            vals.push(self.src(n)?);
        }
        if matches!(d.opcode, Opcode::ATOM | Opcode::ATOMCAS) {
            // Generic address: ptxas keeps `ATOM` with the RZ destination (no generic `RED`);
            // the compare-and-swap form has no descriptor and prints the address unwidened.
            let mut toks = vec!["E", op];
            toks.extend(&ty_toks);
            toks.extend(["STRONG", "GPU"]);
            let mut ops = vec![one("PT"), one(self.dst(0)?), self.mem(0, !cas)?];
            ops.extend(vals);
            return Ok((self.spell("ATOM", &toks)?, ops));
        }
        let global = matches!(d.opcode, Opcode::ATOMG | Opcode::ATOMGCAS);
        if global {
            let mut toks = vec!["E", op];
            toks.extend(&ty_toks);
            toks.extend(["STRONG", "GPU"]);
            // `RED` has no exchange: an unread exchange stays `ATOMG ... PT, RZ` (as ptxas).
            if dst_rz && !cas && op != "EXCH" {
                let mut ops = vec![self.mem(0, true)?];
                ops.extend(vals);
                return Ok((self.spell_first(&["REDG", "RED"], &toks)?, ops));
            }
            // The compare-and-swap form has no descriptor and prints the address unwidened.
            let mut ops = vec![one("PT"), one(self.dst(0)?), self.mem(0, !cas)?];
            ops.extend(vals);
            return Ok((self.spell("ATOMG", &toks)?, ops));
        }
        let mut toks = vec![op];
        toks.extend(&ty_toks);
        let mut ops = vec![one(self.dst(0)?), self.mem(0, false)?];
        ops.extend(vals);
        Ok((self.spell("ATOMS", &toks)?, ops))
    }

    /// The half-precision family (`HADD2`, `HMUL2`, `HFMA2`, `HMNMX2`, `HSETP2`) as ptxas
    /// spells it on sm_90: `.BF16_V2` for bf16 types; a packed type (`.F16x2`/`.BF16x2`)
    /// uses the registers as they are, a scalar one (`.F16`/`.BF16`, the value in the low
    /// half) reads every source with the `.H0_H0` selector — the instruction then writes the
    /// result to both halves (the high half of a scalar result is not meaningful). `HSETP2`
    /// compares the low halves (its type is scalar).
    fn half(&self) -> R<(Vec<String>, Vec<Alts>)> {
        let d = self.d;
        let m = &d.mods;
        let (base, nsrc) = match d.opcode {
            Opcode::HADD2 => ("HADD2", 2),
            Opcode::HMUL2 => ("HMUL2", 2),
            Opcode::HFMA2 => ("HFMA2", 3),
            Opcode::HMNMX2 => ("HMNMX2", 2),
            _ => ("HSETP2", 2),
        };
        let ty = self.ty().ok_or("half-precision op without a type")?;
        let (bf, scalar) = match ty {
            Ty::F16x2 => (false, false),
            Ty::BF16x2 => (true, false),
            Ty::F16 => (false, true),
            Ty::BF16 => (true, true),
            t => return Err(format!("{base} on {t}")),
        };
        if m.rnd.is_some_and(|r| r != Rnd::Rn) {
            return Err(format!("{base} with rounding {:?} (sm_90 half ops round to nearest only)", m.rnd));
        }
        let mut toks: Vec<&str> = vec![if bf { "BF16_V2" } else { "" }];
        for (flag, tok) in [
            (Flag::Ftz, "FTZ"),
            (Flag::Sat, "SAT"),
            (Flag::Relu, "RELU"),
            (Flag::NaN, "NAN"),
            (Flag::Xorsign, "XORSIGN"),
        ] {
            if m.has(flag) {
                toks.push(tok);
            }
        }
        let mut ops = Vec::new();
        if d.opcode == Opcode::HSETP2 {
            let cmp = m.cmp.ok_or("HSETP2 without a comparison")?;
            if matches!(cmp, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs) {
                return Err(format!("comparison `{cmp}` on HSETP2"));
            }
            toks.push(cmp_token(cmp));
            toks.push(match m.bop.unwrap_or(BoolOp::And) {
                BoolOp::And => "AND",
                BoolOp::Or => "OR",
                BoolOp::Xor => "XOR",
            });
            // SASS HSETP2's second destination is the high halves' result, not Ori's complement
            // (ISETP style): only `PT` there has the same meaning.
            if self.dst(1)? != "PT" {
                return Err(
                    "HSETP2 with a second destination other than PT (SASS writes the high halves' result there)".into(),
                );
            }
            ops.push(one(self.dst(0)?));
            ops.push(one(self.dst(1)?));
        } else {
            ops.push(one(self.dst(0)?));
        }
        let sel = if scalar || d.opcode == Opcode::HSETP2 { ".H0_H0" } else { "" };
        for k in 0..nsrc {
            let o = self.d.srcs.get(k).ok_or_else(|| format!("missing source {k}"))?;
            if !matches!(o, Operand::Reg(_)) {
                return Err(format!("{base} with a non-register source `{}` (only register forms are modelled)", k));
            }
            ops.push(self.src(k)?.into_iter().map(|t| format!("{t}{sel}")).collect());
        }
        if matches!(d.opcode, Opcode::HMNMX2 | Opcode::HSETP2) {
            ops.push(self.src(nsrc)?);
        }
        // Where the tables have no bf16 add or multiply (the sm_80 family has only
        // `HFMA2.BF16_V2`), both are that fma as ptxas writes them: `a * 1 + b` and
        // `a * b + -0` (sm_80 -O3 bf16_arith2: `HFMA2.BF16_V2 R11, R4, 1, 1, R7`,
        // `HFMA2.BF16_V2 R15, R4, R7, -RZ.H0_H0`), exact rewrites: one rounding either way.
        if bf && matches!(d.opcode, Opcode::HADD2 | Opcode::HMUL2) && self.spell(base, &toks).is_err() {
            let mn = self.spell("HFMA2", &toks)?;
            let c = if d.opcode == Opcode::HADD2 { ops.remove(2) } else { one("-RZ.H0_H0") };
            if d.opcode == Opcode::HADD2 {
                ops.push(one("1, 1"));
            }
            ops.push(c);
            return Ok((mn, ops));
        }
        Ok((self.spell(base, &toks)?, ops))
    }

    /// `F2F` between equal float types, as ptxas selects it: an integral rounding is `FRND`
    /// (`cvt.rmi.f32.f32` → `FRND.FLOOR`); otherwise the value is only flushed and/or clamped,
    /// which is an add of zero: `FADD.SAT Rd, RZ, Rs` for `.sat` (ptxas's choice: `-0`
    /// becomes `+0`, as the clamp to [0, 1] gives), `FADD Rd, -RZ, Rs` otherwise (keeps `-0`).
    fn same_type_f2f(&self, t: Ty) -> R<(Vec<String>, Vec<Alts>)> {
        let m = &self.d.mods;
        let ftz = if m.has(Flag::Ftz) { "FTZ" } else { "" };
        let sat = m.has(Flag::Sat);
        let ops = vec![one(self.dst(0)?), self.src(0)?];
        if let Some(r) = m.rnd.filter(|r| r.is_integral()) {
            if sat {
                return Err("F2F with an integral rounding and .SAT (FRND has no .SAT)".into());
            }
            let r = match r {
                Rnd::Rzi => "TRUNC",
                Rnd::Rmi => "FLOOR",
                Rnd::Rpi => "CEIL",
                _ => "",
            };
            let ty = match t {
                Ty::F32 => "",
                Ty::F64 => "F64",
                t => return Err(format!("FRND on {t}")),
            };
            return Ok((self.spell("FRND", &[ty, r, ftz])?, ops));
        }
        if t != Ty::F32 {
            return Err(format!("F2F.{t}.{t} without an integral rounding"));
        }
        let zero = if sat { "RZ" } else { "-RZ" };
        let mut ops = ops;
        ops.insert(1, one(zero));
        Ok((self.spell("FADD", &[ftz, if sat { "SAT" } else { "" }])?, ops))
    }

    /// `F2F.F32.F16`, which sm_90 lacks, as ptxas 13.0.88 selects `cvt.f32.f16`:
    /// `HADD2.F32 Rd, -RZ, Rs.H0_H0`, the low half plus `-0` computed into an f32 (exact: every
    /// f16 is an f32, `-0 + x = x` for `x = ±0` too; a NaN gives the canonical f32 NaN, as the
    /// interpreter's `cvt` does). Only the plain form is encoded (see `sm90::HAND_MODS`).
    fn f16_to_f32(&self) -> R<(Vec<String>, Vec<Alts>)> {
        let m = &self.d.mods;
        if m.has(Flag::Ftz) || m.has(Flag::Sat) {
            return Err("F2F.F32.F16 with .ftz/.sat (HADD2.F32 is encoded plain only)".into());
        }
        if !matches!(self.d.srcs.first(), Some(Operand::Reg(u)) if !u.neg && !u.abs) {
            return Err("F2F.F32.F16 from a non-register or modified source".into());
        }
        let src = self.src(0)?.into_iter().map(|t| format!("{t}.H0_H0")).collect();
        Ok((self.spell("HADD2", &["F32"])?, vec![one(self.dst(0)?), one("-RZ"), src]))
    }

    fn single_word(&self, n: usize) -> R<()> {
        let r = *self.d.dsts.get(n).ok_or("missing destination")?;
        match self.phys(r)? {
            p if p.count == 1 => Ok(()),
            _ => Err("a 64-bit MOV has no single sm_90 instruction".into()),
        }
    }
}

impl Cx<'_> {
    /// `HGMMA`/`IGMMA`/`QGMMA` (`lower::isel::wgmma`): the mnemonic from the form, operands
    /// `Rd, [-]Ra, gdesc[URq].marks, Rc, [!]UPp, gsb0` (`Ra` when A is in registers; the
    /// predicate shown unless plain UPT; `gsb0` when the instruction closes its group).
    fn shape_hgmma(&self) -> R<(Vec<String>, Vec<Alts>)> {
        use crate::ori::gmma::{GmmaAcc, GmmaForm, GmmaType};
        let d = self.d;
        let form = match d.srcs.get(4) {
            Some(Operand::Imm(i)) => GmmaForm::unpack(i.bits() as i64)?,
            _ => return Err("HGMMA without its form".into()),
        };
        let desc = match d.srcs.first() {
            Some(Operand::Reg(u)) if !u.has_mods() => base_name(self.phys(u.reg)?),
            _ => return Err("HGMMA without a descriptor register quad".into()),
        };
        let up = |t: GmmaType| t.ptx().to_uppercase();
        let (base, types): (&str, Vec<String>) = match (form.a, form.acc) {
            (GmmaType::F16, GmmaAcc::F32) => ("HGMMA", vec!["F32".into()]),
            (GmmaType::F16, _) => ("HGMMA", vec!["F16".into()]),
            (GmmaType::Bf16 | GmmaType::Tf32, _) => ("HGMMA", vec!["F32".into(), up(form.a)]),
            (GmmaType::E4m3 | GmmaType::E5m2, acc) => {
                let acc = if acc == GmmaAcc::F32 { "F32" } else { "F16" };
                ("QGMMA", vec![acc.into(), up(form.a), up(form.b)])
            }
            (GmmaType::S8 | GmmaType::U8, _) => {
                let mut v = vec![up(form.a), up(form.b)];
                if form.satfinite {
                    v.push("SAT".into());
                }
                ("IGMMA", v)
            }
        };
        // The suffix in order (`spell` sorts its tokens, which would confuse `.E4M3.E5M2` with
        // `.E5M2.E4M3`), checked against the tables.
        let suffix = format!(".64x{}x{}.{}", form.n, form.k(), types.join("."));
        if !self
            .tables
            .mods
            .iter()
            .any(|e| e.suffix == suffix && self.tables.form(e.key).is_some_and(|f| f.base == base))
        {
            return Err(format!("sm_90 has no {base}{suffix}"));
        }
        let mnemonics = vec![format!("{base}{suffix}")];
        let mut marks = String::new();
        for (on, m) in [
            (form.neg_a && !form.a_regs, ".negA"),
            (form.neg_b, ".negB"),
            (form.trans_a, ".tnspA"),
            (form.trans_b, ".tnspB"),
        ] {
            if on {
                marks.push_str(m);
            }
        }
        let mut ops = vec![one(self.dst(0)?)];
        if form.a_regs {
            let a = match d.srcs.get(5) {
                Some(Operand::Reg(u)) if !u.has_mods() => base_name(self.phys(u.reg)?),
                _ => return Err("HGMMA without its A register tuple".into()),
            };
            ops.push(one(if form.neg_a { format!("-{a}") } else { a }));
        }
        ops.push(one(format!("gdesc[{desc}]{marks}")));
        ops.push(self.src(1)?);
        // The predicate is shown unless it is plain UPT.
        if !matches!(d.srcs.get(2), Some(Operand::Reg(u)) if u.reg.is_zero() && !u.not) {
            ops.push(self.src(2)?);
        }
        match d.srcs.get(3) {
            Some(Operand::Imm(i)) if i.bits() == 1 => ops.push(one("gsb0")),
            Some(Operand::Imm(i)) if i.bits() == 0 => {}
            _ => return Err("HGMMA without its group flag (0 or 1)".into()),
        }
        Ok((mnemonics, ops))
    }
}

/// The register naming a tuple (its first register).
impl Cx<'_> {
    /// `SULD`/`SUST` (`crate::lower::isel`'s texture module): the suffix from the geometry and
    /// clamp codes and the data size, `[Rc]` for the coordinate tuple, the handle, `0x0`.
    fn surface(&self) -> R<(Vec<String>, Vec<Alts>)> {
        let d = self.d;
        let store = d.opcode == Opcode::SUST;
        let code = |n: usize| match d.srcs.get(n) {
            Some(Operand::Imm(i)) => Ok(i.bits() as usize),
            _ => Err(format!("`{}` needs an immediate source {n}", d.opcode)),
        };
        let (codes_at, handle_at) = if store { (3, 2) } else { (2, 1) };
        let geom = ["1D", "2D", "3D", "1D_ARRAY", "2D_ARRAY"].get(code(codes_at)?).ok_or("surface geometry code")?;
        let clamp = ["TRAP", "", "IGN"].get(code(codes_at + 1)?).ok_or("surface clamp code")?;
        let reg_of = |o: Option<&Operand>| match o {
            Some(Operand::Reg(u)) => self.phys(u.reg),
            _ => Err("a surface operand is not a register".into()),
        };
        let data = if store { reg_of(d.srcs.get(1))? } else { self.phys(*d.dsts.first().ok_or("SULD destination")?)? };
        let size = match (d.ty(), data.count) {
            (Some(Ty::B8), 1) => "U8",
            (Some(Ty::B16), 1) => "U16",
            (Some(Ty::B32), 1) => "",
            (Some(Ty::B32), 2) => "64",
            (Some(Ty::B32), 4) => "128",
            (t, n) => return Err(format!("a surface access of {n} x {t:?}")),
        };
        let base = if store { "SUST" } else { "SULD" };
        let spelled = self.spell(base, &["D", "BA", geom, size, "STRONG", "SM", clamp])?;
        let coords = one(format!("[{}]", base_name(reg_of(d.srcs.first())?)));
        let handle = self.src(handle_at)?;
        let ops = if store {
            vec![coords, one(base_name(data)), handle, one("0x0")]
        } else {
            vec![one(base_name(data)), coords, handle, one("0x0")]
        };
        Ok((spelled, ops))
    }
}

fn base_name(p: ori::PhysReg) -> String {
    ori::PhysReg { count: 1, ..p }.to_string()
}

fn sreg_name(s: SpecialReg) -> R<String> {
    Ok(match s {
        SpecialReg::NtidX
        | SpecialReg::NtidY
        | SpecialReg::NtidZ
        | SpecialReg::NctaidX
        | SpecialReg::NctaidY
        | SpecialReg::NctaidZ => {
            return Err(format!("{} is read from constant bank 0 on sm_90, not a special register", s.name()));
        }
        // `%cluster_ctarank` is the CTA's id in its CGA (the interpreter computes it from the
        // launch's cluster shape; `SR_CgaCtaId` itself is 0 there, its shared windows having no
        // CTA-slot bits).
        SpecialReg::ClusterCtaRank => "SR_CgaCtaId".into(),
        // nvdisasm's names of the lane masks.
        SpecialReg::LanemaskEq => "SR_EQMASK".into(),
        SpecialReg::LanemaskLt => "SR_LTMASK".into(),
        SpecialReg::LanemaskLe => "SR_LEMASK".into(),
        SpecialReg::LanemaskGt => "SR_GTMASK".into(),
        SpecialReg::LanemaskGe => "SR_GEMASK".into(),
        s => s.name().to_string(),
    })
}

/// Size token of a load (`U8`, `S16`, ``, `64`, `128`).
fn size_tok(t: Option<Ty>) -> R<&'static str> {
    Ok(match t {
        Some(Ty::U8 | Ty::B8) => "U8",
        Some(Ty::S8) => "S8",
        Some(Ty::U16 | Ty::B16 | Ty::F16 | Ty::BF16 | Ty::E4m3x2 | Ty::E5m2x2) => "U16",
        Some(Ty::S16) => "S16",
        None | Some(Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 | Ty::F16x2 | Ty::BF16x2 | Ty::TF32) => "",
        Some(Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64) => "64",
        Some(Ty::B128) => "128",
        Some(Ty::Pred) => return Err("a memory access of a predicate".into()),
        Some(t @ (Ty::U4 | Ty::S4 | Ty::U2 | Ty::S2)) => return Err(format!("a memory access of .{t}")),
    })
}

/// Size token of a store (stores have no sign: `U8`, `U16`).
fn store_size_tok(t: Option<Ty>) -> R<&'static str> {
    Ok(match size_tok(t)? {
        "S8" => "U8",
        "S16" => "U16",
        s => s,
    })
}

/// SASS spelling of a comparison (`LT`, `GEU`, `NUM`); unsigned integer comparisons have none.
fn cmp_token(c: Cmp) -> &'static str {
    match c {
        Cmp::Eq => "EQ",
        Cmp::Ne => "NE",
        Cmp::Lt => "LT",
        Cmp::Le => "LE",
        Cmp::Gt => "GT",
        Cmp::Ge => "GE",
        Cmp::Equ => "EQU",
        Cmp::Neu => "NEU",
        Cmp::Ltu => "LTU",
        Cmp::Leu => "LEU",
        Cmp::Gtu => "GTU",
        Cmp::Geu => "GEU",
        Cmp::Num => "NUM",
        Cmp::Nan => "NAN",
        _ => "",
    }
}

/// Operands joined as nvdisasm prints them: `, ` between, with a space before the comma after
/// an `INF`/`QNAN`/`-0.0` immediate (`FSETP.GTU.AND P2, PT, R4, +INF , PT`).
fn join_operands(ops: &[String]) -> String {
    let mut s = String::new();
    for (i, o) in ops.iter().enumerate() {
        if i > 0 {
            let prev = &ops[i - 1];
            let padded = prev.ends_with("INF") || prev.ends_with("QNAN") || prev.ends_with("-0.0");
            s.push_str(if padded { " , " } else { ", " });
        }
        s.push_str(o);
    }
    s
}
