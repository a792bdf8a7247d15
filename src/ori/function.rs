//! Functions, blocks, instructions and the module that holds them.
//!
//! A [`Function`] owns three entity tables — instructions, blocks, virtual registers — plus
//! the layout: the order of blocks (`layout`) and, per block, the order of its instructions
//! (`BlockData::insts`). The CFG is not stored; it is derived from the terminators by
//! [`super::cfg::Cfg::compute`], so successors and predecessors cannot disagree.
//!
//! Invariants (checked by [`super::verify`]):
//! - The first block of the layout is the entry; every laid-out block is non-empty and ends in
//!   a terminator, and only there. A guarded terminator falls through to the next block of
//!   the layout, which must exist.
//! - Each instruction sits in at most one block, once. Entities not in the layout (unlinked
//!   blocks or instructions) are dead and ignored.
//! - `ssa`: every virtual register has one definition (parameters count) that dominates
//!   every use. `allocated`: no virtual registers remain. `sass`: only SASS-stage opcodes.

use super::entity::{Block, EntityVec, Inst, VReg};
use super::mods::Mods;
use super::opcode::Opcode;
use super::operand::Operand;
use super::reg::{Reg, RegClass, VRegData};

/// An instruction's guard predicate: executes only when `reg` (negated if `not`) is true.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    /// The predicate register (P or UP).
    pub reg: Reg,
    /// Execute when the predicate is false.
    pub not: bool,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InstData {
    /// What it does.
    pub opcode: Opcode,
    /// Its modifiers.
    pub mods: Mods,
    /// Optional guard predicate.
    pub guard: Option<Guard>,
    /// Registers written, in signature order.
    pub dsts: Vec<Reg>,
    /// Operands read, in signature order.
    pub srcs: Vec<Operand>,
}

impl InstData {
    /// An unguarded instruction.
    pub fn new(opcode: Opcode, mods: Mods, dsts: Vec<Reg>, srcs: Vec<Operand>) -> InstData {
        InstData { opcode, mods, guard: None, dsts, srcs }
    }
    /// The data type: the `ty` modifier, else the opcode's default.
    pub fn ty(&self) -> Option<super::mods::Ty> {
        self.mods.ty.or(self.opcode.info().default_ty)
    }
    /// Block operands (branch targets, phi predecessors, BSSY reconvergence points).
    pub fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        self.srcs.iter().filter_map(|o| match o {
            Operand::Block(b) => Some(*b),
            _ => None,
        })
    }
    /// Every register read (sources, address/bank registers, the guard).
    pub fn uses(&self) -> impl Iterator<Item = Reg> + '_ {
        self.srcs.iter().flat_map(Operand::regs).chain(self.guard.map(|g| g.reg))
    }
}

/// A basic block: its instructions in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockData {
    /// Instructions, in execution order.
    pub insts: Vec<Inst>,
}

/// Whether a function is a kernel (`.entry`) or a callable function (`.func`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FuncKind {
    /// A kernel: parameters arrive in constant bank 0.
    Entry,
    /// A callable function: parameters arrive in registers.
    Func,
}

/// One function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Name (without the `@`).
    pub name: String,
    /// Kernel or function.
    pub kind: FuncKind,
    /// Incoming parameter registers (defined on entry).
    pub params: Vec<Reg>,
    /// Classes of the returned values.
    pub rets: Vec<RegClass>,
    /// Declared in SSA form.
    pub ssa: bool,
    /// Declared to use only SASS-stage opcodes.
    pub sass: bool,
    /// Register allocation has run: physical registers only.
    pub allocated: bool,
    /// Virtual registers.
    pub vregs: EntityVec<VReg, VRegData>,
    /// Blocks.
    pub blocks: EntityVec<Block, BlockData>,
    /// Instructions.
    pub insts: EntityVec<Inst, InstData>,
    /// Block order; the first is the entry.
    pub layout: Vec<Block>,
}

impl Function {
    /// An empty function.
    pub fn new(name: impl Into<String>, kind: FuncKind) -> Function {
        Function {
            name: name.into(),
            kind,
            params: Vec::new(),
            rets: Vec::new(),
            ssa: false,
            sass: false,
            allocated: false,
            vregs: EntityVec::new(),
            blocks: EntityVec::new(),
            insts: EntityVec::new(),
            layout: Vec::new(),
        }
    }
    /// A new virtual register of `class`.
    pub fn new_vreg(&mut self, class: RegClass) -> VReg {
        self.vregs.push(VRegData { class })
    }
    /// A new empty block, appended to the layout.
    pub fn new_block(&mut self) -> Block {
        let b = self.blocks.push(BlockData::default());
        self.layout.push(b);
        b
    }
    /// Appends an instruction to block `b` and returns its id.
    ///
    /// Panics if `b` is not a block of this function (a program bug).
    pub fn push_inst(&mut self, b: Block, data: InstData) -> Inst {
        let i = self.insts.push(data);
        self.blocks[b].insts.push(i);
        i
    }
    /// The entry block, if the function has any.
    pub fn entry(&self) -> Option<Block> {
        self.layout.first().copied()
    }
    /// The class of a register: a vreg's table entry, a physical register's own class.
    pub fn reg_class(&self, r: Reg) -> Option<RegClass> {
        match r {
            Reg::Virt(v) => self.vregs.get(v).map(|d| d.class),
            Reg::Phys(p) => Some(p.class()),
        }
    }
    /// The instructions of block `b` (empty for an unknown block).
    pub fn block_insts(&self, b: Block) -> &[Inst] {
        self.blocks.get(b).map_or(&[], |d| &d.insts[..])
    }
    /// The last instruction of block `b`.
    pub fn last_inst(&self, b: Block) -> Option<Inst> {
        self.block_insts(b).last().copied()
    }
    /// The block after `b` in the layout.
    pub fn layout_next(&self, b: Block) -> Option<Block> {
        let i = self.layout.iter().position(|&x| x == b)?;
        self.layout.get(i + 1).copied()
    }
    /// All laid-out instructions with their block, in layout order.
    pub fn inst_order(&self) -> impl Iterator<Item = (Block, Inst)> + '_ {
        self.layout.iter().flat_map(move |&b| self.block_insts(b).iter().map(move |&i| (b, i)))
    }
}

/// A module-scope variable (PTX `.global`, `.const`, `.shared`): its space, size, alignment
/// and initial bytes (zero-filled past `init`). Accesses name it as `space[$name + off]`.
///
/// A shared variable of size 0 is the dynamic shared memory (`extern .shared .b8 smem[]`): it
/// starts after the static shared variables, at the launch's dynamic shared base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleVar {
    /// Name (without the `$`).
    pub name: String,
    /// `Global`, `Const` or `Shared`.
    pub space: super::operand::Space,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes (a power of two).
    pub align: u32,
    /// Initial bytes (at most `size`).
    pub init: Vec<u8>,
    /// Addresses of other variables stored in the initial contents.
    pub relocs: Vec<VarReloc>,
}

/// An address in a variable's initial contents: at byte `offset`, `size` (4 or 8) bytes hold
/// the address of variable `sym` (its space-relative address; for a `global` variable also its
/// generic address) plus `addend`, written over the initial bytes there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarReloc {
    /// Byte offset in the variable.
    pub offset: u64,
    /// Width in bytes (4 or 8).
    pub size: u8,
    /// The variable whose address is stored.
    pub sym: String,
    /// Added to the address.
    pub addend: i64,
}

/// A compilation unit: module variables, and functions, looked up by name for calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module {
    /// Module-scope variables, in declaration order.
    pub vars: Vec<ModuleVar>,
    /// Functions, in text order.
    pub functions: Vec<Function>,
}

impl Module {
    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
    /// The address a function pointer to function number `index` (in `functions` order) holds:
    /// `16 * (index + 1)`, so that 0 is never a function.
    pub fn function_address(index: usize) -> u64 {
        16 * (index as u64 + 1)
    }
    /// The function a function pointer value names, if any.
    pub fn function_at_address(&self, addr: u64) -> Option<&Function> {
        if addr == 0 || !addr.is_multiple_of(16) {
            return None;
        }
        self.functions.get(usize::try_from(addr / 16 - 1).ok()?)
    }
    /// The variable named `name`.
    pub fn var(&self, name: &str) -> Option<&ModuleVar> {
        self.vars.iter().find(|v| v.name == name)
    }
}
