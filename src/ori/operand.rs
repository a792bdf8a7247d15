//! Source operands: registers with per-use modifiers, immediates, constant-bank references,
//! memory references, special registers, block targets and function references.
//!
//! Destinations are plain [`Reg`]s (no modifiers); everything an instruction reads is an
//! [`Operand`]. Which operand kinds an opcode slot accepts is in its
//! [`super::opcode::OpInfo`]; the verifier checks it.
//!
//! Invariants:
//! - Immediates carry their bits exactly: `Int` is a 64-bit two's-complement value that the
//!   instruction's type truncates; `F32`/`F64` are raw IEEE bit patterns (NaN payloads kept).
//! - A memory reference's width is the instruction's type, not part of the operand.

use std::fmt;

use super::entity::Block;
use super::reg::Reg;

/// A register read, with its per-use modifiers.
///
/// `neg` is arithmetic negation (two's complement for integers, sign flip for floats), `abs`
/// the absolute value (applied before `neg`), `not` bitwise/logical inversion (`!` on
/// predicates, `~` on data registers).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RegUse {
    /// The register read.
    pub reg: Reg,
    /// Negate.
    pub neg: bool,
    /// Absolute value.
    pub abs: bool,
    /// Invert.
    pub not: bool,
}

impl RegUse {
    /// A plain read of `reg`.
    pub fn new(reg: impl Into<Reg>) -> RegUse {
        RegUse { reg: reg.into(), neg: false, abs: false, not: false }
    }
    /// Whether any modifier is set.
    pub fn has_mods(&self) -> bool {
        self.neg || self.abs || self.not
    }
}

/// An immediate value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Imm {
    /// An integer (the instruction's type gives its width and signedness).
    Int(i64),
    /// An f32 bit pattern (`0f3F800000`).
    F32(u32),
    /// An f64 bit pattern (`0d3FF0000000000000`).
    F64(u64),
}

impl Imm {
    /// The raw bits (integers as two's complement).
    pub fn bits(self) -> u64 {
        match self {
            Imm::Int(v) => v as u64,
            Imm::F32(b) => u64::from(b),
            Imm::F64(b) => b,
        }
    }
}

impl fmt::Display for Imm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Imm::Int(v) if (-4096..4096).contains(&v) => write!(f, "{v}"),
            Imm::Int(v) if v < 0 => write!(f, "-{:#x}", v.unsigned_abs()),
            Imm::Int(v) => write!(f, "{v:#x}"),
            Imm::F32(b) => write!(f, "0f{b:08X}"),
            Imm::F64(b) => write!(f, "0d{b:016X}"),
        }
    }
}

/// A constant-bank reference `c[bank][offset]` or `c[bank][reg + offset]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CBank {
    /// Bank number (0 holds launch parameters and driver constants).
    pub bank: u8,
    /// Optional 32-bit index register added to the offset.
    pub index: Option<Reg>,
    /// Byte offset.
    pub offset: i32,
}

/// A memory state space.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    /// Device global memory.
    Global,
    /// CTA shared memory.
    Shared,
    /// Thread-local memory (stack).
    Local,
    /// Constant memory (through a load, not a bank operand).
    Const,
    /// Kernel/function parameter space.
    Param,
    /// Generic addresses (resolved to a space at run time).
    Generic,
}

impl Space {
    /// Every space.
    pub const ALL: [Space; 6] =
        [Space::Global, Space::Shared, Space::Local, Space::Const, Space::Param, Space::Generic];
    /// Text name.
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Param => "param",
            Space::Generic => "generic",
        }
    }
    /// The space with this name.
    pub fn from_name(s: &str) -> Option<Space> {
        Space::ALL.iter().copied().find(|x| x.name() == s)
    }
}

/// A memory reference `space[base + offset]`. The base is an address register (32- or
/// 64-bit), a symbol (a module variable, `$name`), both, or neither (an absolute address).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemRef {
    /// State space.
    pub space: Space,
    /// Symbol the address is relative to.
    pub sym: Option<String>,
    /// Address register.
    pub base: Option<Reg>,
    /// Byte offset.
    pub offset: i64,
}

macro_rules! special_regs {
    ($($v:ident = $s:expr),* $(,)?) => {
        /// A special (system) register, read by `S2R`/`CS2R` or a PTX `mov`. `SR_WARPID`,
/// `SR_NWARPID`, `SR_SMID`, `SR_NSMID`, `SR_GRIDID`, `SR_DYNAMIC_SMEM_SIZE`,
/// `SR_TOTAL_SMEM_SIZE`, the cluster registers (`SR_CLUSTERID.X` ... `SR_IS_EXPLICIT_CLUSTER`,
/// PTX `%clusterid` ... `%is_explicit_cluster`) and the reserved shared-memory registers
/// (`SR_RESERVED_SMEM_OFFSET_*`, PTX `%reserved_smem_offset_*`) are PTX-stage pseudo registers: no SASS `S2R`
/// reads them (except `SR_CLUSTER_CTARANK`, which SASS names `SR_CgaCtaId`) (ptxas computes them from constant bank 0, `SR_CTAID`, `SR_VIRTID`, `SR_VIRTCFG`,
/// `SR_VIRTUALSMID` and `SR_SMEMSZ`).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum SpecialReg { $($v),* }
        impl SpecialReg {
            /// Every special register.
            pub const ALL: &'static [SpecialReg] = &[$(SpecialReg::$v),*];
            /// Text name (`SR_TID.X`).
            pub fn name(self) -> &'static str { match self { $(SpecialReg::$v => $s),* } }
            /// The register with this name.
            pub fn from_name(s: &str) -> Option<SpecialReg> {
                SpecialReg::ALL.iter().copied().find(|r| r.name() == s)
            }
        }
    };
}

special_regs! {
    TidX = "SR_TID.X", TidY = "SR_TID.Y", TidZ = "SR_TID.Z",
    NtidX = "SR_NTID.X", NtidY = "SR_NTID.Y", NtidZ = "SR_NTID.Z",
    CtaidX = "SR_CTAID.X", CtaidY = "SR_CTAID.Y", CtaidZ = "SR_CTAID.Z",
    NctaidX = "SR_NCTAID.X", NctaidY = "SR_NCTAID.Y", NctaidZ = "SR_NCTAID.Z",
    LaneId = "SR_LANEID", WarpId = "SR_WARPID", NWarpId = "SR_NWARPID", SmId = "SR_SMID",
    NSmId = "SR_NSMID", GridId = "SR_GRIDID",
    LanemaskEq = "SR_LANEMASK_EQ", LanemaskLt = "SR_LANEMASK_LT", LanemaskLe = "SR_LANEMASK_LE",
    LanemaskGt = "SR_LANEMASK_GT", LanemaskGe = "SR_LANEMASK_GE",
    ClockLo = "SR_CLOCKLO", ClockHi = "SR_CLOCKHI",
    GlobalTimerLo = "SR_GLOBALTIMERLO", GlobalTimerHi = "SR_GLOBALTIMERHI",
    DynSmemSize = "SR_DYNAMIC_SMEM_SIZE", TotalSmemSize = "SR_TOTAL_SMEM_SIZE",
    CgaCtaId = "SR_CgaCtaId",
    SwinHi = "SR_SWINHI",
    VirtId = "SR_VIRTID", VirtCfg = "SR_VIRTCFG", VirtualSmId = "SR_VIRTUALSMID", SmemSz = "SR_SMEMSZ",
    ClusterIdX = "SR_CLUSTERID.X", ClusterIdY = "SR_CLUSTERID.Y", ClusterIdZ = "SR_CLUSTERID.Z",
    NClusterIdX = "SR_NCLUSTERID.X", NClusterIdY = "SR_NCLUSTERID.Y", NClusterIdZ = "SR_NCLUSTERID.Z",
    ClusterCtaidX = "SR_CLUSTER_CTAID.X", ClusterCtaidY = "SR_CLUSTER_CTAID.Y", ClusterCtaidZ = "SR_CLUSTER_CTAID.Z",
    ClusterNctaidX = "SR_CLUSTER_NCTAID.X", ClusterNctaidY = "SR_CLUSTER_NCTAID.Y",
    ClusterNctaidZ = "SR_CLUSTER_NCTAID.Z",
    ClusterCtaRank = "SR_CLUSTER_CTARANK", ClusterNctaRank = "SR_CLUSTER_NCTARANK",
    IsExplicitCluster = "SR_IS_EXPLICIT_CLUSTER",
    ReservedSmemBegin = "SR_RESERVED_SMEM_OFFSET_BEGIN", ReservedSmemEnd = "SR_RESERVED_SMEM_OFFSET_END",
    ReservedSmemCap = "SR_RESERVED_SMEM_OFFSET_CAP", ReservedSmem0 = "SR_RESERVED_SMEM_OFFSET_0",
    ReservedSmem1 = "SR_RESERVED_SMEM_OFFSET_1",
}

impl SpecialReg {
    /// Whether this is a PTX-stage pseudo register (see the type's doc): no SASS `S2R` reads it.
    pub fn is_pseudo(self) -> bool {
        use SpecialReg::*;
        matches!(
            self,
            WarpId
                | NWarpId
                | SmId
                | NSmId
                | GridId
                | DynSmemSize
                | TotalSmemSize
                | ClusterIdX
                | ClusterIdY
                | ClusterIdZ
                | NClusterIdX
                | NClusterIdY
                | NClusterIdZ
                | ClusterCtaidX
                | ClusterCtaidY
                | ClusterCtaidZ
                | ClusterNctaidX
                | ClusterNctaidY
                | ClusterNctaidZ
                | ClusterNctaRank
                | IsExplicitCluster
                | ReservedSmemBegin
                | ReservedSmemEnd
                | ReservedSmemCap
                | ReservedSmem0
                | ReservedSmem1
        )
    }
}

/// An instruction source operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register read.
    Reg(RegUse),
    /// An immediate.
    Imm(Imm),
    /// A constant-bank value.
    CBank(CBank),
    /// A memory reference (loads, stores, atomics).
    Mem(MemRef),
    /// A special register.
    SReg(SpecialReg),
    /// A branch target.
    Block(Block),
    /// A callee, by name.
    Func(String),
}

impl Operand {
    /// A plain register read.
    pub fn reg(r: impl Into<Reg>) -> Operand {
        Operand::Reg(RegUse::new(r))
    }
    /// The register read, if any (the base/index registers of memory and bank operands are
    /// reported by [`Operand::regs`]).
    pub fn as_reg(&self) -> Option<&RegUse> {
        match self {
            Operand::Reg(r) => Some(r),
            _ => None,
        }
    }
    /// Every register this operand reads, including address and bank-index registers.
    pub fn regs(&self) -> impl Iterator<Item = Reg> {
        let (a, b) = match self {
            Operand::Reg(r) => (Some(r.reg), None),
            Operand::CBank(c) => (c.index, None),
            Operand::Mem(m) => (m.base, None),
            _ => (None, None),
        };
        a.into_iter().chain(b)
    }
    /// A short name of the operand kind, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Operand::Reg(_) => "register",
            Operand::Imm(_) => "immediate",
            Operand::CBank(_) => "constant-bank reference",
            Operand::Mem(_) => "memory reference",
            Operand::SReg(_) => "special register",
            Operand::Block(_) => "block",
            Operand::Func(_) => "function",
        }
    }
}
