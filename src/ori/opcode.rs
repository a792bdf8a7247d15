//! The opcode space and the per-opcode description table, declared once as data.
//!
//! Ori starts PTX-derived right after lowering (lower-case mnemonics, the type in a modifier:
//! `add.u32`, `setp.lt.f32`, `ld.u64`) and becomes SASS-level through the bridge phases
//! (upper-case mnemonics: `IADD3`, `FSETP`, `LDG`). Both stages live in the one [`Opcode`]
//! enum; [`Stage`] says which stage an opcode belongs to, and a function marked `sass` may use
//! only SASS-stage (and stage-neutral) opcodes.
//!
//! Each row of the table gives: mnemonic, stage, destination and source operand signatures,
//! flags (terminator, branch, call, memory, side effects, uniform datapath, variadic), the
//! modifier kinds allowed and required, the default data type, and the [`Sem`] — the key into
//! the one semantics table ([`super::semantics`]) that the interpreter and constant folding
//! share. Opcodes of both stages that mean the same thing share a `Sem` (`add.f32` and `FADD`
//! are both [`Sem::Add`]; `IADD3` and `UIADD3` are both [`Sem::IAdd3`]).
//!
//! # Operand signatures
//!
//! A signature is a comma-separated list of slots, `KIND[:FORMS]`. Kinds:
//!
//! | kind | what | width |
//! |---|---|---|
//! | `T` | data of the instruction type | `ty` (pred type ⇒ a predicate) |
//! | `S` | data of the source type | `src_ty` |
//! | `Tw` | like `T`, doubled under `.wide` | |
//! | `W` | a 32-bit word | 1 register |
//! | `D` | a 64-bit double word | 2 registers |
//! | `P` | predicate | |
//! | `B` | convergence barrier register | |
//! | `X` | any register class | |
//! | `M`, `Mg`, `Ms`, `Ml` | memory reference (any, global, shared, local space) | |
//! | `L` | block | |
//! | `F` | function | |
//! | `Q` | special register | |
//! | `I` | immediate only | |
//!
//! Forms (for data slots; default `r`): `r` register, `i` immediate, `c` constant bank,
//! `s` special register. Flags [`OpFlags::VAR_DSTS`]/[`OpFlags::VAR_SRCS`] let the last slot
//! repeat zero or more times; [`OpFlags::PAIRS`] repeats the whole source list one or more
//! times (phi: value, block, value, block, ...).
//!
//! Invariant: every signature string parses (unit-tested); no opcode allows both `CMP` and
//! `HALF` (their `lo`/`hi` names overlap), nor both `CMP` and `NAN` (the comparison `nan` and
//! the flag `NaN` differ in case only).

use std::fmt;
use std::sync::LazyLock;

use super::mods::{ModSet, Ty};
use super::operand::Space;

/// Which stage of the IR an opcode belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// PTX-derived, produced by lowering, removed by ConvertUnsupportedOps.
    Ptx,
    /// SASS-level, produced by the bridge phases.
    Sass,
    /// Both (phi).
    Both,
}

/// Opcode property flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct OpFlags(pub u16);

impl OpFlags {
    /// Ends a block (control flow).
    pub const TERM: OpFlags = OpFlags(1 << 0);
    /// Has block targets that are CFG successors.
    pub const BRANCH: OpFlags = OpFlags(1 << 1);
    /// Calls a function.
    pub const CALL: OpFlags = OpFlags(1 << 2);
    /// Returns from the function.
    pub const RETURN: OpFlags = OpFlags(1 << 3);
    /// Reads memory.
    pub const MEM_READ: OpFlags = OpFlags(1 << 4);
    /// Writes memory.
    pub const MEM_WRITE: OpFlags = OpFlags(1 << 5);
    /// Has effects beyond its destinations (barriers, fences); never dead.
    pub const SIDE_EFFECT: OpFlags = OpFlags(1 << 6);
    /// Uniform datapath: every register operand is in a uniform file.
    pub const UNIFORM: OpFlags = OpFlags(1 << 7);
    /// The (single) destination slot repeats zero or more times.
    pub const VAR_DSTS: OpFlags = OpFlags(1 << 8);
    /// The last source slot repeats zero or more times.
    pub const VAR_SRCS: OpFlags = OpFlags(1 << 9);
    /// The source list repeats as a group one or more times.
    pub const PAIRS: OpFlags = OpFlags(1 << 10);
    /// A phi: sits at the top of a block; (value, predecessor) pairs.
    pub const PHI: OpFlags = OpFlags(1 << 11);

    /// Whether all flags in `o` are set.
    pub const fn contains(self, o: OpFlags) -> bool {
        self.0 & o.0 == o.0
    }
}

/// The key into the semantics table: what an opcode computes, shared between opcodes that
/// compute the same thing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Sem {
    /// No pure semantics (memory, control, barriers, phi); the interpreter handles these.
    None,
    Mov,
    Add,
    Sub,
    Mul,
    Mad,
    Fma,
    Div,
    Rem,
    Min,
    Max,
    Abs,
    Neg,
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Popc,
    Clz,
    Brev,
    Setp,
    Selp,
    Cvt,
    /// The packing conversions (`cvtpack`, `F2FP`): see [`super::semantics`].
    CvtPack,
    IAdd3,
    IMad,
    Lop3,
    Shf,
    SetpBop,
    PLop3,
    Sel,
    Mnmx,
    Flo,
    Prmt,
    /// SASS special functions, by the `mufu` modifier (see the semantics table's precision notes).
    Mufu,
    /// Add with carry in and out.
    Addc,
    /// Subtract with borrow in and out.
    Subc,
    /// Multiply-add with carry in and out.
    Madc,
    /// Bit-field extract.
    Bfe,
    /// Bit-field insert.
    Bfi,
    /// Find the most significant non-sign bit.
    Bfind,
    /// Find the n-th set bit.
    Fns,
    /// Bit mask of a field.
    Bmsk,
    /// Sign- or zero-extend the low `b` bits (`.wrap`: `b` mod 32, `.clamp`: at most 32).
    Szext,
    /// PTX funnel shift (wrap or clamp).
    ShfPtx,
    /// Sum of absolute differences.
    Sad,
    /// Copy the sign of the first operand onto the second.
    Copysign,
    /// Classify a float.
    Testp,
    /// Reciprocal.
    Rcp,
    /// Square root.
    Sqrt,
    /// Reciprocal square root (approximate).
    Rsqrt,
    /// Base-2 exponential (approximate).
    Ex2,
    /// Base-2 logarithm (approximate).
    Lg2,
    /// Sine (approximate).
    Sin,
    /// Cosine (approximate).
    Cos,
    /// Hyperbolic tangent (approximate).
    Tanh,
    /// Four-way byte dot product with accumulate.
    Dp4a,
    /// Two-way 16x8-bit dot product with accumulate.
    Dp2a,
    // ---- added by isel ----
    /// Three-input add with a carry-out predicate.
    IAdd3C,
    /// Three-input add with a carry-in predicate.
    IAdd3X,
    /// The high-word step of a 64-bit compare (see `ISETPX`).
    SetpX,
    /// Join two 32-bit words into a 64-bit value.
    Pack64,
    /// Split a 64-bit value into its words.
    Unpack64,
    /// SIMD video operation, merge form (lanes by opcode: `vop2`/`vop4`).
    Vop,
    /// SIMD video operation with the `.add` secondary operation.
    VopAdd,
}

/// A slot kind (see the module doc).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// Data of the instruction type.
    Ty,
    /// Data of the source type.
    SrcTy,
    /// Data of the instruction type, doubled under `.wide`.
    TyWide,
    /// A 32-bit word.
    Word,
    /// A 64-bit value.
    Dword,
    /// A predicate.
    Pred,
    /// A convergence barrier register.
    Barrier,
    /// Any register.
    Any,
    /// A memory reference, optionally restricted to one space.
    Mem(Option<Space>),
    /// A block.
    Block,
    /// A function.
    Func,
    /// A special register.
    SReg,
    /// An immediate only.
    Imm,
}

/// One operand slot of a signature.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// What the slot holds.
    pub kind: SlotKind,
    /// Accepts a register.
    pub reg: bool,
    /// Accepts an immediate.
    pub imm: bool,
    /// Accepts a constant-bank reference.
    pub cbank: bool,
    /// Accepts a special register.
    pub sreg: bool,
}

/// The description of one opcode.
#[derive(Debug)]
pub struct OpInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// Text mnemonic.
    pub mnemonic: &'static str,
    /// IR stage.
    pub stage: Stage,
    /// Properties.
    pub flags: OpFlags,
    /// Modifier kinds accepted.
    pub allowed: ModSet,
    /// Modifier kinds that must be present.
    pub required: ModSet,
    /// Data type when no `ty` modifier is written.
    pub default_ty: Option<Ty>,
    /// Semantics key.
    pub sem: Sem,
    /// Destination slots.
    pub dsts: Vec<Slot>,
    /// Source slots.
    pub srcs: Vec<Slot>,
}

impl OpInfo {
    /// Whether this opcode ends a block.
    pub fn is_terminator(&self) -> bool {
        self.flags.contains(OpFlags::TERM)
    }
    /// Whether flag `f` is set.
    pub fn has(&self, f: OpFlags) -> bool {
        self.flags.contains(f)
    }

    /// The signature slot of destination `n` (the last slot repeats under `VAR_DSTS`).
    pub fn dst_slot(&self, n: usize) -> Option<&Slot> {
        slot_at(&self.dsts, n, self.has(OpFlags::VAR_DSTS), false)
    }

    /// The signature slot of source `n` (the last slot repeats under `VAR_SRCS`; the whole
    /// list repeats under `PAIRS`).
    pub fn src_slot(&self, n: usize) -> Option<&Slot> {
        slot_at(&self.srcs, n, self.has(OpFlags::VAR_SRCS), self.has(OpFlags::PAIRS))
    }
}

fn slot_at(slots: &[Slot], n: usize, var: bool, pairs: bool) -> Option<&Slot> {
    if pairs {
        return slots.get(n % slots.len().max(1));
    }
    match slots.get(n) {
        Some(s) => Some(s),
        None if var => slots.last(),
        None => None,
    }
}

struct Row {
    opcode: Opcode,
    mnemonic: &'static str,
    stage: Stage,
    dsts: &'static str,
    srcs: &'static str,
    flags: u16,
    allowed: u32,
    required: u32,
    default_ty: Option<Ty>,
    sem: Sem,
}

macro_rules! bits {
    ($ty:ident;) => { 0 };
    ($ty:ident; $($f:ident)|+) => { 0 $(| $ty::$f.0)+ };
}

macro_rules! opcodes {
    ($( $(#[$m:meta])* $v:ident $mn:literal $st:ident [$d:literal => $s:literal]
        flags($($fl:ident)|*) mods($($al:ident)|*) req($($rq:ident)|*) ty($($dt:ident)?) $sem:ident; )*) => {
        /// An Ori opcode (see the module doc and [`Opcode::info`]).
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode { $($(#[$m])* $v),* }

        static ROWS: &[Row] = &[$(Row {
            opcode: Opcode::$v,
            mnemonic: $mn,
            stage: Stage::$st,
            dsts: $d,
            srcs: $s,
            flags: bits!(OpFlags; $($fl)|*),
            allowed: bits!(ModSet; $($al)|*),
            required: bits!(ModSet; $($rq)|*),
            default_ty: { #[allow(unused_mut, unused_assignments)] let mut t: Option<Ty> = None; $(t = Some(Ty::$dt);)? t },
            sem: Sem::$sem,
        }),*];
    };
}

opcodes! {
    // ---- PTX-derived stage -------------------------------------------------------------
    /// Copy (`mov.u32 %r1, %r2`; also reads special registers).
    Mov "mov" Ptx ["T" => "T:rics"] flags() mods(TY) req(TY) ty() Mov;
    /// Addition (integer wraps; `.sat` on s32; float with rounding/ftz/sat).
    Add "add" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY|RND|FTZ|SAT) req(TY) ty() Add;
    /// Subtraction.
    Sub "sub" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY|RND|FTZ|SAT) req(TY) ty() Sub;
    /// Multiplication (`.lo/.hi/.wide` for integers).
    Mul "mul" Ptx ["Tw" => "T:ric, T:ric"] flags() mods(TY|HALF|RND|FTZ|SAT) req(TY) ty() Mul;
    /// Multiply-add (`.lo/.hi/.wide` for integers).
    Mad "mad" Ptx ["Tw" => "T:ric, T:ric, Tw:ric"] flags() mods(TY|HALF|RND|FTZ|SAT) req(TY) ty() Mad;
    /// Fused multiply-add (floats; rounding required).
    Fma "fma" Ptx ["T" => "T:ric, T:ric, T:ric"] flags() mods(TY|RND|FTZ|SAT|RELU|CONTRACT) req(TY|RND) ty() Fma;
    /// Division.
    Div "div" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY|RND|FTZ|APPROX|FULL) req(TY) ty() Div;
    /// Remainder (integers).
    Rem "rem" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY) req(TY) ty() Rem;
    /// Minimum (floats: a NaN operand gives the other; `.NaN`: the canonical NaN).
    Min "min" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY|FTZ|RELU|NAN|XORSIGN) req(TY) ty() Min;
    /// Maximum (NaN operands as [`Opcode::Min`]).
    Max "max" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY|FTZ|RELU|NAN|XORSIGN) req(TY) ty() Max;
    /// Absolute value.
    Abs "abs" Ptx ["T" => "T:r"] flags() mods(TY|FTZ) req(TY) ty() Abs;
    /// Negation.
    Neg "neg" Ptx ["T" => "T:r"] flags() mods(TY|FTZ) req(TY) ty() Neg;
    /// Bitwise/logical and.
    And "and" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY) req(TY) ty() And;
    /// Bitwise/logical or.
    Or "or" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY) req(TY) ty() Or;
    /// Bitwise/logical exclusive or.
    Xor "xor" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY) req(TY) ty() Xor;
    /// Bitwise/logical not.
    Not "not" Ptx ["T" => "T:r"] flags() mods(TY) req(TY) ty() Not;
    /// Shift left (amounts ≥ width give 0).
    Shl "shl" Ptx ["T" => "T:ric, W:ric"] flags() mods(TY) req(TY) ty() Shl;
    /// Shift right (arithmetic for signed types; amounts ≥ width clamp).
    Shr "shr" Ptx ["T" => "T:ric, W:ric"] flags() mods(TY) req(TY) ty() Shr;
    /// Population count (32-bit result).
    Popc "popc" Ptx ["W" => "T:ric"] flags() mods(TY) req(TY) ty() Popc;
    /// Count leading zeros (32-bit result).
    Clz "clz" Ptx ["W" => "T:ric"] flags() mods(TY) req(TY) ty() Clz;
    /// Bit reverse.
    Brev "brev" Ptx ["T" => "T:ric"] flags() mods(TY) req(TY) ty() Brev;
    /// Compare to a predicate.
    Setp "setp" Ptx ["P" => "T:ric, T:ric"] flags() mods(CMP|TY|FTZ) req(CMP|TY) ty() Setp;
    /// Select by predicate: `p ? a : b`.
    Selp "selp" Ptx ["T" => "T:ric, T:ric, P"] flags() mods(TY) req(TY) ty() Selp;
    /// Conversion (`cvt.rn.f32.s32`: destination type, then source type).
    Cvt "cvt" Ptx ["T" => "S:ric"] flags() mods(TY|SRC_TY|RND|FTZ|SAT|RELU) req(TY|SRC_TY) ty() Cvt;
    /// Packing conversion (`cvt` to or from `.e4m3x2`/`.e5m2x2`, and `.satfinite` to f16/bf16):
    /// `ty` the destination, `src_ty` the source element type; two f32 sources pack a (high)
    /// and b (low), one packed source converts both its halves (see `ori::fp8`). An integer
    /// `ty` (`cvt.pack.sat.{u16,s16,u8,s8}.s32`): sources a, b, c (see `lower::cvt_pack`).
    Cvtpack "cvtpack" Ptx ["W" => "W:ri, W:ri"] flags(VAR_SRCS) mods(TY|SRC_TY|RND|SAT|RELU) req(TY|SRC_TY) ty() CvtPack;
    /// Load.
    Ld "ld" Ptx ["T" => "M"] flags(MEM_READ) mods(TY|VOLATILE) req(TY) ty() None;
    /// Store.
    St "st" Ptx ["" => "M, T:r"] flags(MEM_WRITE) mods(TY|VOLATILE) req(TY) ty() None;
    /// Branch (guarded: falls through to the next block in layout otherwise).
    Bra "bra" Ptx ["" => "L"] flags(TERM|BRANCH) mods() req() ty() None;
    /// Call with arguments and results.
    Call "call" Ptx ["X" => "F, X:ri"] flags(CALL|SIDE_EFFECT|VAR_DSTS|VAR_SRCS) mods() req() ty() None;
    /// Return with values.
    Ret "ret" Ptx ["" => "X:r"] flags(TERM|RETURN|VAR_SRCS) mods() req() ty() None;
    /// End the thread.
    Exit "exit" Ptx ["" => ""] flags(TERM) mods() req() ty() None;
    /// `trap`: the thread stops the launch with a fault (not a terminator: PTX code after it
    /// stays reachable in the CFG, as ptxas keeps it).
    Trap "trap" Ptx ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `pmevent`: triggers the performance-monitor events of the 16-bit mask (`pmevent a` is
    /// the mask `1 << a`); no architectural effect.
    Pmevent "pmevent" Ptx ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `setmaxnreg.{inc,dec}.sync.aligned.u32 n`: the count `n`, then 1 for `.inc`, 0 for
    /// `.dec`. Changes the warp's register allocation only (no effect on any value).
    Setmaxnreg "setmaxnreg" Ptx ["" => "I, I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `griddepcontrol`: 0 `.wait` (for the prerequisite grids), 1 `.launch_dependents`.
    Griddep "griddepcontrol" Ptx ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `barrier.cluster.arrive{.release,.relaxed}`: arrives at the cluster barrier without
    /// waiting; the immediate is 1 for `.relaxed` (no release fence), else 0
    /// (`lower::barrier`).
    ClusterArrive "clusterarrive" Ptx ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `barrier.cluster.wait{.acquire}`: waits until every thread of the cluster arrived.
    ClusterWait "clusterwait" Ptx ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// CTA barrier `bar id[, count]`: waits until `count` threads (absent or 0: all the CTA's)
    /// arrived at barrier `id` (`lower::barrier`).
    Bar "bar" Ptx ["" => "W:ri, W:ri"] flags(SIDE_EFFECT|VAR_SRCS) mods(SYNC) req() ty() None;
    /// `bar.arrive id, count`: arrives at barrier `id` without waiting.
    BarArrive "bararrive" Ptx ["" => "W:ri, W:ri"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `bar.red.{popc,and,or} d, id, p[, count]`: a `bar` that combines `p` (it may be `!p`) of
    /// every participating thread: `d` is the count (`.popc`, a register) or the and / or (a
    /// predicate).
    BarRed "barred" Ptx ["X" => "W:ri, P, W:ri"] flags(SIDE_EFFECT|VAR_SRCS) mods(SUBOP) req(SUBOP) ty() None;
    /// Memory fence: `membar`/`fence`, the form ([`super::fence::Fence::code`]) as the immediate.
    Membar "membar" Ptx ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `fence.proxy.tensormap::generic.acquire.scope [a], 128`: the tensormap proxy's view of
    /// the 128-byte tensor map at generic address `a` is made current. The interpreter (and
    /// the emulator) model no tensormap proxy: no effect there.
    TensormapAcquire "tensormapacquire" Ptx ["" => "D:r"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Add with carry: `d, cout = a + b + cin` (`add.cc`, `addc`).
    Addc "addc" Ptx ["T, P" => "T:ric, T:ric, P"] flags() mods(TY) req(TY) ty() Addc;
    /// Subtract with borrow: `d, bout = a - b - bin` (`sub.cc`, `subc`).
    Subc "subc" Ptx ["T, P" => "T:ric, T:ric, P"] flags() mods(TY) req(TY) ty() Subc;
    /// Multiply-add with carry: `d, cout = (a * b).half + c + cin` (`mad.cc`, `madc`).
    Madc "madc" Ptx ["T, P" => "T:ric, T:ric, T:ric, P"] flags() mods(TY|HALF) req(TY) ty() Madc;
    /// Bit-field extract: value, start, length.
    Bfe "bfe" Ptx ["T" => "T:ric, W:ric, W:ric"] flags() mods(TY) req(TY) ty() Bfe;
    /// Bit-field insert: field, base, start, length.
    Bfi "bfi" Ptx ["T" => "T:ric, T:ric, W:ric, W:ric"] flags() mods(TY) req(TY) ty() Bfi;
    /// Find the most significant non-sign bit (`.shiftamt`: 31 - index).
    Bfind "bfind" Ptx ["W" => "T:ric"] flags() mods(TY|SUBOP) req(TY) ty() Bfind;
    /// Find the n-th set bit: mask, base, offset.
    Fns "fns" Ptx ["W" => "W:ric, W:ric, W:ric"] flags() mods(TY) req() ty(B32) Fns;
    /// Bit mask: start, length (`.wrap` / `.clamp`).
    Bmsk "bmsk" Ptx ["W" => "W:ric, W:ric"] flags() mods(TY|SUBOP) req(SUBOP) ty(B32) Bmsk;
    /// `szext.{wrap,clamp}.{s32,u32} d, a, b`: the low `b` bits of `a`, sign- or zero-extended.
    Szext "szext" Ptx ["W" => "W:ric, W:ric"] flags() mods(TY|SUBOP) req(TY|SUBOP) ty() Szext;
    /// Byte permute (`.f4e .b4e .rc8 .ecl .ecr .rc16`, or the default mode). Operands in
    /// PRMT's order: `a`, selector, `b` (PTX writes `prmt d, a, b, sel`).
    PrmtP "prmt" Ptx ["W" => "W:ric, W:ric, W:ric"] flags() mods(TY|SUBOP) req() ty(B32) Prmt;
    /// Funnel shift: low word, high word, amount (`.l`/`.r`, `.wrap`/`.clamp`).
    ShfP "shf" Ptx ["W" => "W:ric, W:ric, W:ric"] flags() mods(TY|DIR|SUBOP) req(DIR|SUBOP) ty(B32) ShfPtx;
    /// Three-input logic by lookup table.
    Lop3P "lop3" Ptx ["W" => "W:ric, W:ric, W:ric, I"] flags() mods(TY) req() ty(B32) Lop3;
    /// Sum of absolute differences: `|a - b| + c`.
    Sad "sad" Ptx ["T" => "T:ric, T:ric, T:ric"] flags() mods(TY) req(TY) ty() Sad;
    /// `copysign a, b`: the magnitude of `b` with the sign of `a`.
    Copysign "copysign" Ptx ["T" => "T:ric, T:ric"] flags() mods(TY) req(TY) ty() Copysign;
    /// Float class test (`.finite .infinite .number .notanumber .normal .subnormal`).
    Testp "testp" Ptx ["P" => "T:ric"] flags() mods(TY|SUBOP) req(TY|SUBOP) ty() Testp;
    /// Reciprocal (`.rn`-family exact, `.approx` documented in the semantics table).
    Rcp "rcp" Ptx ["T" => "T:ric"] flags() mods(TY|RND|FTZ|APPROX) req(TY) ty() Rcp;
    /// Square root.
    Sqrt "sqrt" Ptx ["T" => "T:ric"] flags() mods(TY|RND|FTZ|APPROX) req(TY) ty() Sqrt;
    /// Reciprocal square root (approximate).
    Rsqrt "rsqrt" Ptx ["T" => "T:ric"] flags() mods(TY|FTZ|APPROX) req(TY) ty() Rsqrt;
    /// Base-2 exponential (approximate).
    Ex2 "ex2" Ptx ["T" => "T:ric"] flags() mods(TY|FTZ|APPROX) req(TY) ty() Ex2;
    /// Base-2 logarithm (approximate).
    Lg2 "lg2" Ptx ["T" => "T:ric"] flags() mods(TY|FTZ|APPROX) req(TY) ty() Lg2;
    /// Sine (approximate).
    Sin "sin" Ptx ["T" => "T:ric"] flags() mods(TY|FTZ|APPROX) req(TY) ty() Sin;
    /// Cosine (approximate).
    Cos "cos" Ptx ["T" => "T:ric"] flags() mods(TY|FTZ|APPROX) req(TY) ty() Cos;
    /// Hyperbolic tangent (approximate).
    Tanh "tanh" Ptx ["T" => "T:ric"] flags() mods(TY|FTZ|APPROX) req(TY) ty() Tanh;
    /// `dp4a.T.S d, a, b, c`: four byte products of `a` (type T) and `b` (type S) plus `c`.
    Dp4a "dp4a" Ptx ["W" => "W:ric, W:ric, W:ric"] flags() mods(TY|SRC_TY) req(TY|SRC_TY) ty() Dp4a;
    /// `dp2a.lo/hi.T.S d, a, b, c`: two 16-bit halves of `a` times two bytes of `b` plus `c`.
    Dp2a "dp2a" Ptx ["W" => "W:ric, W:ric, W:ric"] flags() mods(TY|SRC_TY|HALF) req(TY|SRC_TY|HALF) ty() Dp2a;
    /// The space-relative address of a memory reference (`mov %rd, sym`).
    Mova "mova" Ptx ["T" => "M"] flags() mods(TY) req(TY) ty() None;
    /// Split a wide register into parts, lowest first (`mov.b128 {a, b}, q`): a parallel copy of
    /// the source's 32-bit words into the destinations' words, in order.
    Split "split" Ptx ["X" => "X:r"] flags(VAR_DSTS) mods() req() ty() None;
    /// Join parts into a wide register, lowest first (`mov.b128 q, {a, b}`): the inverse of
    /// [`Opcode::Split`].
    Join "join" Ptx ["X" => "X:r"] flags(VAR_SRCS) mods() req() ty() None;
    /// A space address made generic (`cvta.shared`); the space is the sub-operation.
    Cvta "cvta" Ptx ["T" => "T:r"] flags() mods(TY|SUBOP) req(TY|SUBOP) ty() None;
    /// A generic address made space-relative (`cvta.to.shared`).
    CvtaTo "cvtato" Ptx ["T" => "T:r"] flags() mods(TY|SUBOP) req(TY|SUBOP) ty() None;
    /// `getctarank{.shared::cluster}.{u32,u64} d, a`: the rank of the CTA whose shared memory
    /// `a` addresses, as sm_90 reads it: bits [24:32) of the address's low word (the
    /// hardware's shared::cluster and generic shared addresses carry the CTA's slot there).
    /// The interpreter's own shared addresses carry no slot bits (its `SR_CgaCtaId` is 0), so
    /// they give rank 0: a launch's ranks agree with the hardware only where every cluster
    /// is one CTA. `mapa` is not modelled.
    Getctarank "getctarank" Ptx ["W" => "T:r"] flags() mods(TY) req(TY) ty() None;
    /// Whether a generic address is in a space (`isspacep.shared`).
    Isspacep "isspacep" Ptx ["P" => "D:r"] flags() mods(SUBOP) req(SUBOP) ty() None;
    /// Atomic read-modify-write; the destination gets the old value (`atom.add`, `red.add`).
    Atom "atom" Ptx ["T" => "M, T:ri"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY|SUBOP|FTZ|RND) req(TY|SUBOP) ty() None;
    /// Atomic compare-and-swap: memory, compare, new value; the destination gets the old value.
    AtomCas "atomcas" Ptx ["T" => "M, T:ri, T:ri"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY) req(TY) ty() None;
    /// Warp shuffle: value, lane/offset `b`, clamp/segment `c`, member mask (`.up .down .bfly .idx`).
    Shfl "shfl" Ptx ["W, P" => "W:ri, W:ri, W:ri, W:ri"] flags(SIDE_EFFECT) mods(TY|SUBOP) req(SUBOP) ty(B32) None;
    /// Warp vote to a predicate (`.all .any .uni`): predicate, member mask.
    Vote "vote" Ptx ["P" => "P, W:ri"] flags(SIDE_EFFECT) mods(SUBOP) req(SUBOP) ty() None;
    /// Warp ballot: the mask of active member lanes whose predicate is true.
    Ballot "ballot" Ptx ["W" => "P, W:ri"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `match.any`: the mask of member lanes holding the same value.
    MatchAny "matchany" Ptx ["W" => "T:r, W:ri"] flags(SIDE_EFFECT) mods(TY) req(TY) ty() None;
    /// `match.all`: the member mask if all hold the same value (else 0), and whether they do.
    MatchAll "matchall" Ptx ["W, P" => "T:r, W:ri"] flags(SIDE_EFFECT) mods(TY) req(TY) ty() None;
    /// Warp reduction over member lanes (`.add .min .max .and .or .xor`).
    Redux "redux" Ptx ["W" => "W:r, W:ri"] flags(SIDE_EFFECT) mods(TY|SUBOP) req(TY|SUBOP) ty() None;
    /// `elect.sync d|p, membermask`: the member lanes elect their lowest lane; `d` gets its
    /// number in every member lane, `p` is true in the leader only.
    Elect "elect" Ptx ["W, P" => "W:ri"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// The mask of active lanes.
    Activemask "activemask" Ptx ["W" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Warp synchronisation on a member mask (`bar.warp.sync`).
    Warpsync "warpsync" Ptx ["" => "W:ri"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Indexed branch: index, then the target list (`brx.idx`).
    Brx "brx" Ptx ["" => "W:r, L"] flags(TERM|BRANCH|VAR_SRCS) mods() req() ty() None;
    /// Indirect call through a function address (see the interpreter for the address scheme).
    Calli "calli" Ptx ["X" => "D:r, X:ri"] flags(CALL|SIDE_EFFECT|VAR_DSTS|VAR_SRCS) mods() req() ty() None;

    // ---- textures and surfaces through bindless handles (`super::super::lower` texture module;
    // their meaning is `interp::texture`'s). Immediates: the geometry code (`1d 2d 3d a1d a2d`
    // = 0..4), the surface clamp code (`trap clamp zero` = 0..2), the query code (`width height
    // depth array_size normalized_coords filter_mode` = 0..5). Coordinates of a layered
    // geometry start with the layer. -----------------------------------------------------------
    /// `tex.GEOM.v4.T.C {d0..d3}, [h, {coords}]`: handle, geometry, coordinates (type C = src_ty).
    Tex "tex" Ptx ["W" => "D:ri, I, W:ri"] flags(MEM_READ|VAR_DSTS|VAR_SRCS) mods(TY|SRC_TY) req(TY|SRC_TY) ty() None;
    /// `tld4.COMP.GEOM.v4.T.f32 {d0..d3}, [h, {coords}]`: handle, geometry, component (0..3), coordinates.
    Tld4 "tld4" Ptx ["W" => "D:ri, I, I, W:ri"] flags(MEM_READ|VAR_DSTS|VAR_SRCS) mods(TY|SRC_TY) req(TY|SRC_TY) ty() None;
    /// `txq.QUERY.b32 d, [h]`: handle, query.
    Txq "txq" Ptx ["W" => "D:ri, I"] flags(MEM_READ) mods() req() ty() None;
    /// `suq.QUERY.b32 d, [h]`: handle, query.
    Suq "suq" Ptx ["W" => "D:ri, I"] flags(MEM_READ) mods() req() ty() None;
    /// `suld.b.GEOM{.vN}.T.CLAMP {d..}, [h, {x_bytes, ..}]`: handle, geometry, clamp, coordinates (T = b8/b16/b32).
    Suld "suld" Ptx ["W" => "D:ri, I, I, W:ri"] flags(MEM_READ|VAR_DSTS|VAR_SRCS) mods(TY) req(TY) ty() None;
    /// `sust.b.GEOM{.vN}.T.CLAMP [h, {x_bytes, ..}], {v..}`: handle, geometry, clamp, the
    /// geometry's coordinates, then the values.
    Sust "sust" Ptx ["" => "D:ri, I, I, W:ri"] flags(MEM_WRITE|SIDE_EFFECT|VAR_SRCS) mods(TY) req(TY) ty() None;

    // ---- tensor-core, asynchronous-copy and SIMD video families (see `super::tensor`) -------
    /// `movmatrix.sync.aligned.m8n8.trans.b16 d, a`: the warp's 8x8 b16 matrix in the
    /// `ldmatrix` fragment layout (`a`), transposed ([`super::tensor::movmatrix_source`]).
    /// Warp-collective: the whole warp executes it.
    Movmatrix "movmatrix" Ptx ["W" => "W:r"] flags(SIDE_EFFECT) mods(TY) req() ty(B16) None;
    /// `ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16`: one destination per 8x8
    /// matrix; lanes `8m..8m+8` supply matrix `m`'s row addresses ([`super::tensor::ldmatrix`]).
    /// Warp-collective: the whole warp executes it.
    Ldmatrix "ldmatrix" Ptx ["W" => "Ms"] flags(MEM_READ|SIDE_EFFECT|VAR_DSTS) mods(TY|TRANS) req() ty(B16) None;
    /// `stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 [a], {r, ...}`: the inverse of
    /// [`Opcode::Ldmatrix`] (register `m` of every lane holds its fragment of matrix `m`,
    /// whose row addresses lanes `8m..8m+8` supply; [`super::tensor::ldmatrix_source`] names
    /// where each 16-bit half goes). Warp-collective.
    Stmatrix "stmatrix" Ptx ["" => "Ms, W:r"] flags(MEM_WRITE|SIDE_EFFECT|VAR_SRCS) mods(TY|TRANS) req() ty(B16) None;
    /// `mma.sync.aligned.m16n8k{4,8,16}.row.col.f32.T.T.f32 d, a, b, c` (T = `src_ty`: f16,
    /// bf16 or tf32) and `mma.sync.aligned.m16n8k{16,32}.row.col.s32.T.T.s32` (`ty` s32, T = s8
    /// or u8): four destinations, then the a, b and c fragments (a has 2 or 4 words, b half as
    /// many, c four); k follows from a's size and the type. Integer forms: `src_ty` is a's type,
    /// sub-operation `bs8`/`bu8` gives b's when it differs, `sat` is `.satfinite` (clamp to the
    /// s32 range). Warp-collective ([`super::tensor::mma_f32`], [`super::tensor::mma_s32`]).
    Mma "mma" Ptx ["W" => "W:r"] flags(SIDE_EFFECT|VAR_DSTS|VAR_SRCS) mods(TY|SRC_TY|SUBOP|SAT) req(TY|SRC_TY) ty() None;
    /// `cp.async.{ca,cg}.shared.global [dst], [src], size{, src_size}`: copies `ty`'s width
    /// (4, 8 or 16 bytes); bytes at and after `src_size` are written as zero. Modelled as a
    /// copy at issue (the wait instructions only order it on the GPU).
    CpAsync "cpasync" Ptx ["" => "Ms, Mg, W:ri"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY|SUBOP) req(TY) ty() None;
    /// `cp.async.commit_group`: closes the current group of copies.
    CpAsyncCommit "cpasynccommit" Ptx ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `cp.async.wait_group n` (`wait_all` is a commit and `wait_group 0`): waits until at
    /// most `n` groups are pending.
    CpAsyncWait "cpasyncwait" Ptx ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `wgmma.mma_async` in every form ([`crate::ori::gmma::GmmaForm`]): the warp's part of the
    /// 64 x N accumulator as destinations (N/2 words, N/4 for f16 accumulators), then the form
    /// ([`crate::ori::gmma::GmmaForm::pack`]), B's 64-bit matrix descriptor, the scale-d
    /// predicate, A (its descriptor, or its four fragment registers when the form says A comes
    /// from registers) and the accumulator inputs. Warpgroup-collective (each warp computes
    /// its 16 rows; semantics in the interpreter crate's `gmma` module, shared with the SASS
    /// emulator's `HGMMA`). Executed at issue, so `wgmma.commit_group` and `wgmma.wait_group`
    /// have nothing to wait for in the executors.
    Wgmma "wgmma" Ptx ["W" => "I, D:ri, P, X:ri"] flags(MEM_READ|SIDE_EFFECT|VAR_DSTS|VAR_SRCS) mods(TY) req(TY) ty() None;
    /// `wgmma.fence.sync.aligned`: orders register and shared accesses before later `wgmma`s.
    WgmmaFence "wgmmafence" Ptx ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `wgmma.commit_group.sync.aligned`: closes the current group of `wgmma`s.
    WgmmaCommit "wgmmacommit" Ptx ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `wgmma.wait_group.sync.aligned n`: waits until at most `n` groups are pending.
    WgmmaWait "wgmmawait" Ptx ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    // mbarriers ([`super::mbarrier`]: the 64-bit object in shared memory, its word layout).
    /// `mbarrier.init [bar], count`: a new barrier expecting `count` arrivals per phase, phase 0.
    MbarInit "mbarinit" Ptx ["" => "M, W:ri"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods() req() ty() None;
    /// `mbarrier.arrive{.expect_tx} state, [bar], arrivals, tx`: adds `tx` pending transaction
    /// bytes, then arrives `arrivals` times; `state` is the word before (the state token).
    /// `.optout`: `mbarrier.arrive_drop` (the arrivals also leave the expected count);
    /// `.completetx`: `mbarrier.complete_tx` (0 arrivals, `tx` bytes complete).
    MbarArrive "mbararrive" Ptx ["D" => "M, W:ri, W:ri"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(OPTOUT|COMPLETE_TX) req() ty() None;
    /// `mbarrier.test_wait p, [bar], state`: whether the phase of `state` (bit 63: its parity)
    /// has completed. Never waits.
    MbarTestWait "mbartestwait" Ptx ["P" => "M, D:r"] flags(MEM_READ|SIDE_EFFECT) mods() req() ty() None;
    /// `mbarrier.try_wait p, [bar], state`: [`Opcode::MbarTestWait`] that may wait a while on
    /// the GPU (the `.parity` forms pass `parity << 63` as the state).
    MbarTryWait "mbartrywait" Ptx ["P" => "M, D:r"] flags(MEM_READ|SIDE_EFFECT) mods() req() ty() None;
    /// `mbarrier.inval [bar]`: the barrier's memory may be reused (the word is left as it is).
    MbarInval "mbarinval" Ptx ["" => "M"] flags(MEM_WRITE|SIDE_EFFECT) mods() req() ty() None;
    /// `cp.async.mbarrier.arrive [bar]`: arrives at `bar` when the thread's earlier `cp.async`
    /// copies complete, its pending count raised by one first (so the phase does not change:
    /// copies complete at issue here).
    CpAsyncMbarArrive "cpasyncmbararrive" Ptx ["" => "M"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods() req() ty() None;
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size,
    /// [bar]`: copies `size` bytes (a multiple of 16) from global to shared memory, then
    /// completes `size` transaction bytes at `bar`. A copy at issue in the executors.
    CpBulk "cpbulk" Ptx ["" => "Ms, Mg, W:ri, Ms"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods() req() ty() None;
    /// Four-lane SIMD video operation (`vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4 vset4`), merge
    /// form: sources a, b, c, then immediates: a's and b's lane selectors (lane i's source byte
    /// of the pair {b, a}, 0..7, in bits 4i..4i+3; defaults 0x3210 and 0x7654), the destination
    /// mask (bit i: lane i is the result's, else c's; default 0xf) and b's signedness (1 signed).
    /// Lanes are sign- or zero-extended (a by `src_ty`, b by that flag), combined exactly
    /// (sub-op; `set` compares by `cmp` to 0/1), saturated to `ty`'s lane range under `.sat`,
    /// else truncated. SASS-stage siblings take only the sources they encode, with the defaults.
    Vop4 "vop4" Ptx ["W" => "W:ric, W:ric, W:ric, I, I, I, I"] flags() mods(TY|SRC_TY|SUBOP|SAT|CMP) req(TY|SRC_TY|SUBOP) ty() Vop;
    /// Two-lane SIMD video operation (`vadd2 ...`, and PTX's `add/sub/min/max.{s,u}16x2`): as
    /// [`Opcode::Vop4`] on 16-bit lanes (selectors: half indices 0..3, defaults 0x10 and 0x32;
    /// mask default 0x3).
    Vop2 "vop2" Ptx ["W" => "W:ric, W:ric, W:ric, I, I, I, I"] flags() mods(TY|SRC_TY|SUBOP|SAT|CMP) req(TY|SRC_TY|SUBOP) ty() Vop;
    /// Four-lane SIMD video operation with the `.add` secondary operation: `c` plus the sum of
    /// the masked lane results (operands as [`Opcode::Vop4`]).
    Vop4Add "vop4add" Ptx ["W" => "W:ric, W:ric, W:ric, I, I, I, I"] flags() mods(TY|SRC_TY|SUBOP|CMP) req(TY|SRC_TY|SUBOP) ty() VopAdd;
    /// Two-lane SIMD video operation with the `.add` secondary operation.
    Vop2Add "vop2add" Ptx ["W" => "W:ric, W:ric, W:ric, I, I, I, I"] flags() mods(TY|SRC_TY|SUBOP|CMP) req(TY|SRC_TY|SUBOP) ty() VopAdd;

    // ---- both stages ---------------------------------------------------------------------
    /// SSA merge (Ori's MovPhi): `%r3 = phi %r1, bb1, %r2, bb2`.
    Phi "phi" Both ["X" => "X:r, L"] flags(PAIRS|PHI) mods() req() ty() None;

    // ---- SASS stage ----------------------------------------------------------------------
    /// Move.
    MOV "MOV" Sass ["T" => "T:ric"] flags() mods(TY) req() ty(B32) Mov;
    /// Read a special register.
    S2R "S2R" Sass ["W" => "Q:s"] flags() mods() req() ty(U32) Mov;
    /// Three-input add (source negation allowed).
    IADD3 "IADD3" Sass ["W" => "W:ric, W:ric, W:ric"] flags() mods() req() ty(U32) IAdd3;
    /// Integer multiply-add (`.hi`, `.wide`; `.s32`/`.u32`).
    IMAD "IMAD" Sass ["Tw" => "T:ric, T:ric, Tw:ric"] flags() mods(TY|HALF) req() ty(U32) IMad;
    /// Three-input logic by lookup table.
    LOP3 "LOP3" Sass ["W" => "W:ric, W:ric, W:ric, I"] flags() mods() req() ty(B32) Lop3;
    /// `SGXT[.W][.U32] Rd, Ra, b`: PTX `szext` (`.W` wraps `b`, without it `b` clamps).
    SGXT "SGXT" Sass ["W" => "W:r, W:ri"] flags() mods(TY|SUBOP) req(TY|SUBOP) ty() Szext;
    /// Funnel shift (low, amount, high).
    SHF "SHF" Sass ["W" => "W:r, W:ric, W:ric"] flags() mods(DIR|TY|HIWORD) req(DIR|TY) ty() Shf;
    /// Integer compare and combine.
    ISETP "ISETP" Sass ["P, P" => "W:r, W:ric, P"] flags() mods(CMP|TY|BOP) req(CMP|BOP) ty(S32) SetpBop;
    /// f32 compare and combine.
    FSETP "FSETP" Sass ["P, P" => "W:r, W:ric, P"] flags() mods(CMP|BOP|FTZ) req(CMP|BOP) ty(F32) SetpBop;
    /// f64 compare and combine.
    DSETP "DSETP" Sass ["P, P" => "D:r, D:ric, P"] flags() mods(CMP|BOP) req(CMP|BOP) ty(F64) SetpBop;
    /// f32 add.
    FADD "FADD" Sass ["W" => "W:r, W:ric"] flags() mods(RND|FTZ|SAT) req() ty(F32) Add;
    /// f32 multiply.
    FMUL "FMUL" Sass ["W" => "W:r, W:ric"] flags() mods(RND|FTZ|SAT) req() ty(F32) Mul;
    /// f32 fused multiply-add.
    FFMA "FFMA" Sass ["W" => "W:r, W:ric, W:ric"] flags() mods(RND|FTZ|SAT) req() ty(F32) Fma;
    /// f64 add.
    DADD "DADD" Sass ["D" => "D:r, D:ric"] flags() mods(RND) req() ty(F64) Add;
    /// f64 multiply.
    DMUL "DMUL" Sass ["D" => "D:r, D:ric"] flags() mods(RND) req() ty(F64) Mul;
    /// f64 fused multiply-add.
    DFMA "DFMA" Sass ["D" => "D:r, D:ric, D:ric"] flags() mods(RND) req() ty(F64) Fma;
    /// f32 min (`PT`) or max (`!PT`); `.NAN`: a NaN operand gives the canonical NaN.
    FMNMX "FMNMX" Sass ["W" => "W:r, W:ric, P"] flags() mods(FTZ|NAN|XORSIGN) req() ty(F32) Mnmx;
    /// Integer min (`PT`) or max (`!PT`).
    IMNMX "IMNMX" Sass ["W" => "W:r, W:ric, P"] flags() mods(TY) req() ty(S32) Mnmx;
    /// Select: `p ? a : b`.
    SEL "SEL" Sass ["W" => "W:r, W:ric, P"] flags() mods() req() ty(B32) Sel;
    /// f32 select.
    FSEL "FSEL" Sass ["W" => "W:r, W:ric, P"] flags() mods() req() ty(F32) Sel;
    /// Predicate logic: two lookup tables over three predicates.
    PLOP3 "PLOP3" Sass ["P, P" => "P, P, P, I, I"] flags() mods() req() ty() PLop3;
    /// Integer absolute value.
    IABS "IABS" Sass ["W" => "W:ric"] flags() mods() req() ty(S32) Abs;
    /// Population count.
    POPC "POPC" Sass ["W" => "W:ric"] flags() mods() req() ty(B32) Popc;
    /// Find leading one (bit index, or all ones for zero).
    FLO "FLO" Sass ["W" => "W:ric"] flags() mods(TY) req() ty(U32) Flo;
    /// Bit reverse.
    BREV "BREV" Sass ["W" => "W:ric"] flags() mods() req() ty(B32) Brev;
    /// Byte permute (default mode).
    PRMT "PRMT" Sass ["W" => "W:r, W:ric, W:ric"] flags() mods() req() ty(B32) Prmt;
    /// Integer to float.
    I2F "I2F" Sass ["T" => "S:ric"] flags() mods(TY|SRC_TY|RND) req(TY|SRC_TY) ty() Cvt;
    /// Float to integer.
    F2I "F2I" Sass ["T" => "S:ric"] flags() mods(TY|SRC_TY|RND|FTZ) req(TY|SRC_TY) ty() Cvt;
    /// Float to float.
    F2F "F2F" Sass ["T" => "S:ric"] flags() mods(TY|SRC_TY|RND|FTZ|SAT) req(TY|SRC_TY) ty() Cvt;
    /// Packing float conversion (`cvtpack`'s SASS form: `.PACK_AB_MERGE_C`, `.UNPACK_B`, ...).
    F2FP "F2FP" Sass ["W" => "W:r, W:r"] flags(VAR_SRCS) mods(TY|SRC_TY|RND|SAT|RELU) req(TY|SRC_TY) ty() CvtPack;
    /// `I2IP.{U16,S16,U8,S8}.S32.SAT Rd, Ra, b, Rc`: `cvtpack`'s integer form (`cvt.pack.sat`).
    I2IP "I2IP" Sass ["W" => "W:r, W:ri, W:r"] flags() mods(TY|SRC_TY|SAT) req(TY|SRC_TY) ty() CvtPack;
    /// Integer to integer.
    I2I "I2I" Sass ["T" => "S:ric"] flags() mods(TY|SRC_TY|SAT) req(TY|SRC_TY) ty() Cvt;
    /// Special-function unit (approximate).
    MUFU "MUFU" Sass ["W" => "W:ric"] flags() mods(MUFU|FTZ|TY) req(MUFU) ty(F32) Mufu;
    /// Global load.
    LDG "LDG" Sass ["T" => "Mg"] flags(MEM_READ) mods(TY|VOLATILE) req() ty(B32) None;
    /// Global store.
    STG "STG" Sass ["" => "Mg, T:r"] flags(MEM_WRITE) mods(TY|VOLATILE) req() ty(B32) None;
    /// Shared load.
    LDS "LDS" Sass ["T" => "Ms"] flags(MEM_READ) mods(TY) req() ty(B32) None;
    /// Shared store.
    STS "STS" Sass ["" => "Ms, T:r"] flags(MEM_WRITE) mods(TY) req() ty(B32) None;
    /// Local load.
    LDL "LDL" Sass ["T" => "Ml"] flags(MEM_READ) mods(TY) req() ty(B32) None;
    /// Local store.
    STL "STL" Sass ["" => "Ml, T:r"] flags(MEM_WRITE) mods(TY) req() ty(B32) None;
    /// Generic load.
    LD "LD" Sass ["T" => "M"] flags(MEM_READ) mods(TY|VOLATILE) req() ty(B32) None;
    /// Generic store.
    ST "ST" Sass ["" => "M, T:r"] flags(MEM_WRITE) mods(TY|VOLATILE) req() ty(B32) None;
    /// `QSPC.E.{G,S,L} P, RZ, [Ra]`: whether generic address `Ra` (64-bit) is in the global
    /// (sub-op `global`: outside the shared and local windows), shared or local window; the
    /// selection of [`Opcode::Isspacep`].
    QSPC "QSPC" Sass ["P" => "D:r"] flags() mods(SUBOP) req(SUBOP) ty() None;
    /// Load from a constant bank.
    LDC "LDC" Sass ["T" => "T:c"] flags() mods(TY) req() ty(B32) Mov;
    /// Branch (guarded: falls through otherwise).
    BRA "BRA" Sass ["" => "L"] flags(TERM|BRANCH) mods() req() ty() None;
    /// Call (ABI lowered): the callee, then the physical registers it reads (arguments, the
    /// return address, the stack pointer); the destinations are the physical registers it
    /// writes (return values). Every other register survives the call (callees save what they
    /// write, `crate::regalloc::callee_save`).
    CALL "CALL" Sass ["X" => "F, X:r"] flags(CALL|SIDE_EFFECT|VAR_DSTS|VAR_SRCS) mods() req() ty() None;
    /// Return (ABI lowered): the physical registers it reads (the return address, the
    /// returned values).
    RET "RET" Sass ["" => "X:r"] flags(TERM|RETURN|VAR_SRCS) mods() req() ty() None;
    /// End the thread.
    EXIT "EXIT" Sass ["" => ""] flags(TERM) mods() req() ty() None;
    /// CTA barrier `BAR.SYNC.DEFER_BLOCKING id[, count]`. With two registers they are the same
    /// register, holding `count << 16 | id` (the SASS form `BAR.SYNC Ra, Ra`).
    BAR "BAR" Sass ["" => "W:ri, W:ri"] flags(SIDE_EFFECT|VAR_SRCS) mods(SYNC) req() ty() None;
    /// `BAR.ARV id, count` (operands as [`Opcode::BAR`]'s): arrives without waiting.
    BARARV "BARARV" Sass ["" => "W:ri, W:ri"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `BAR.RED.{POPC,AND,OR}.DEFER_BLOCKING id, p[, count]` (operands as [`Opcode::BAR`]'s):
    /// a barrier combining `p`; the result is read by the next [`Opcode::B2R`].
    BARRED "BARRED" Sass ["" => "W:ri, P, W:ri"] flags(SIDE_EFFECT|VAR_SRCS) mods(SUBOP) req(SUBOP) ty() None;
    /// `B2R.RESULT d, q`: the warp's last `BAR.RED` result: `d` the value (a count, or 1/0),
    /// `q` whether it is not 0.
    B2R "B2R" Sass ["W, P" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Memory fence `MEMBAR.{SC,ALL}.{CTA,GPU,SYS}`, the form ([`super::fence::Membar::code`]) as
    /// the immediate.
    MEMBAR "MEMBAR" Sass ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `ERRBAR`: waits for the warp's outstanding memory operations (part of a GPU/system fence).
    ERRBAR "ERRBAR" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `CGAERRBAR`: [`Opcode::ERRBAR`] for the cluster's (CGA's) shared memory.
    CGAERRBAR "CGAERRBAR" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `CCTL.IVALL`: invalidates the L1 data cache (the acquire half of a GPU fence).
    CCTLIVALL "CCTLIVALL" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `FENCE.VIEW.ASYNC.S` (immediate 0) / `.G` (1): orders the generic proxy's earlier shared
    /// (global) accesses before later async-proxy ones (`fence.proxy.async`).
    FENCEVIEW "FENCEVIEW" Sass ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Push a convergence point (barrier register, reconvergence block).
    BSSY "BSSY" Sass ["B" => "L"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Wait for convergence.
    BSYNC "BSYNC" Sass ["" => "B:r"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Warp synchronisation on a lane mask.
    WARPSYNC "WARPSYNC" Sass ["" => "W:ri"] flags(SIDE_EFFECT) mods(EXCLUSIVE) req() ty() None;
    /// No operation.
    NOP "NOP" Sass ["" => ""] flags() mods() req() ty() None;
    /// `LEPC R20, R21`: the return address of the `CALLABS` right after it (emission fills
    /// the target in).
    LEPC "LEPC" Sass ["W, W" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `CALL.ABS.NOINC Ra`: a call of a system function (`vprintf`...) at the 64-bit address in
    /// `Ra` (loaded from the relocated address table); sources: the function (named, so the
    /// address table keeps its slot after selection), the address, `R1`, `R20`, `R21` and the
    /// argument words; destinations: the returned words.
    CALLABS "CALLABS" Sass ["X" => "F, D, X:r"] flags(CALL|SIDE_EFFECT|VAR_DSTS|VAR_SRCS) mods() req() ty() None;
    /// `BPT.TRAP 0x1`: `trap` (the lanes stop the launch with a fault).
    BPT "BPT" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `PMTRIG mask`: `pmevent` (no architectural effect).
    PMTRIG "PMTRIG" Sass ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `USETMAXREG.{TRY_ALLOC,DEALLOC}.CTAPOOL [UPd,] n`: `setmaxnreg`; sources the count
    /// and 1 for `.TRY_ALLOC` (whose uniform predicate says whether the registers were
    /// granted), 0 for `.DEALLOC` (no destination).
    USETMAXREG "USETMAXREG" Sass ["P" => "I, I"] flags(SIDE_EFFECT|VAR_DSTS|UNIFORM) mods() req() ty() None;
    /// `UCGABAR_ARV`: arrives at the cluster (CGA) barrier without waiting.
    UCGABARARV "UCGABARARV" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `UCGABAR_WAIT`: waits until every thread of the cluster arrived at the cluster barrier.
    UCGABARWAIT "UCGABARWAIT" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `ACQBULK`: `griddepcontrol.wait`.
    ACQBULK "ACQBULK" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `PREEXIT`: `griddepcontrol.launch_dependents`.
    PREEXIT "PREEXIT" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `YIELD`: lets the warp's other (diverged) lanes run; opens ptxas's -O0 polling loops.
    YIELD "YIELD" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Uniform move.
    UMOV "UMOV" Sass ["W" => "W:ric"] flags(UNIFORM) mods() req() ty(B32) Mov;
    /// Uniform special-register read.
    S2UR "S2UR" Sass ["W" => "Q:s"] flags(UNIFORM) mods() req() ty(U32) Mov;
    /// Uniform three-input add.
    UIADD3 "UIADD3" Sass ["W" => "W:ric, W:ric, W:ric"] flags(UNIFORM) mods() req() ty(U32) IAdd3;
    /// Uniform three-input logic.
    ULOP3 "ULOP3" Sass ["W" => "W:ric, W:ric, W:ric, I"] flags(UNIFORM) mods() req() ty(B32) Lop3;
    /// Uniform funnel shift.
    USHF "USHF" Sass ["W" => "W:r, W:ric, W:ric"] flags(UNIFORM) mods(DIR|TY|HIWORD) req(DIR|TY) ty() Shf;
    /// Uniform integer compare.
    UISETP "UISETP" Sass ["P, P" => "W:r, W:ric, P"] flags(UNIFORM) mods(CMP|TY|BOP) req(CMP|BOP) ty(S32) SetpBop;
    /// Uniform select.
    USEL "USEL" Sass ["W" => "W:r, W:ric, P"] flags(UNIFORM) mods() req() ty(B32) Sel;
    /// Uniform predicate logic.
    UPLOP3 "UPLOP3" Sass ["P, P" => "P, P, P, I, I"] flags(UNIFORM) mods() req() ty() PLop3;
    /// Uniform constant-bank load.
    ULDC "ULDC" Sass ["T" => "T:c"] flags(UNIFORM) mods(TY) req() ty(B32) Mov;

    // ---- SIMD video (see `Opcode::Vop4`; the same semantics per lane) ----
    /// `VABSDIFF4.{U8,S8} d, a, b, RZ`: per-byte absolute differences (sub-op `absdiff`,
    /// `src_ty` s32 for signed bytes), the merge form of [`Opcode::Vop4`].
    VABSDIFF4 "VABSDIFF4" Sass ["W" => "W:r, W:r"] flags() mods(TY|SRC_TY|SUBOP) req(TY|SRC_TY|SUBOP) ty() Vop;
    /// `VABSDIFF4.{U8,S8}.ACC d, a, b, c`: `c` plus the four absolute differences
    /// ([`Opcode::Vop4Add`]).
    VABSDIFF4ACC "VABSDIFF4ACC" Sass ["W" => "W:r, W:r, W:r"] flags() mods(TY|SRC_TY|SUBOP) req(TY|SRC_TY|SUBOP) ty() VopAdd;
    /// `VIADD.16x2 d, a, b` (sub-op `add`) or `VIADD.16x2 d, a, -b` (`sub`): two independent
    /// 16-bit sums ([`Opcode::Vop2`] without `.sat`).
    VIADD2 "VIADD2" Sass ["W" => "W:r, W:r"] flags() mods(TY|SRC_TY|SUBOP) req(TY|SRC_TY|SUBOP) ty() Vop;
    /// `VIMNMX.{S16x2,U16x2} d, a, b, PT` (sub-op `min`) or `!PT` (`max`): per 16-bit half.
    VIMNMX2 "VIMNMX2" Sass ["W" => "W:r, W:r"] flags() mods(TY|SRC_TY|SUBOP) req(TY|SRC_TY|SUBOP) ty() Vop;

    // ---- tensor cores (see `super::tensor`) ----
    /// `MOVM.16.MT88 Rd, Ra`: [`Opcode::Movmatrix`].
    MOVM "MOVM" Sass ["W" => "W:r"] flags(SIDE_EFFECT) mods(TY) req() ty(B16) None;
    /// `SULD.D.BA.GEOM{size}.STRONG.SM{mode} Rd, [Rc], URh, 0x0` ([`Opcode::Suld`]): sources the
    /// coordinate tuple (x in bytes, y, z, the layer last), the handle's low word (uniform),
    /// the geometry and clamp codes ([`super::texture`]); the data tuple's width and `ty` give the size.
    SULD "SULD" Sass ["X" => "X:r, X:r, I, I"] flags(MEM_READ) mods(TY) req(TY) ty() None;
    /// `SUST.D.BA... [Rc], Rv, URh, 0x0` ([`Opcode::Sust`]): coordinates, data, handle, codes.
    SUST "SUST" Sass ["" => "X:r, X:r, X:r, I, I"] flags(MEM_WRITE|SIDE_EFFECT) mods(TY) req(TY) ty() None;
    /// `LDSM.16.{M88,MT88}{,.2,.4} d, [Ra]`: [`Opcode::Ldmatrix`] into one register tuple
    /// (1, 2 or 4 registers: matrix `m` in component `m`).
    LDSM "LDSM" Sass ["X" => "Ms"] flags(MEM_READ|SIDE_EFFECT) mods(TY|TRANS) req() ty(B16) None;
    /// `STSM.16.{M88,MT88}{,.2,.4} [Ra], r`: [`Opcode::Stmatrix`] from one register tuple
    /// (1, 2 or 4 registers: matrix `m` in component `m`).
    STSM "STSM" Sass ["" => "Ms, X:r"] flags(MEM_WRITE|SIDE_EFFECT) mods(TY|TRANS) req() ty(B16) None;
    /// `HMMA.{16816,1688,1684}.F32[.BF16|.TF32] d, a, b, c`: [`Opcode::Mma`] on register tuples
    /// (d and c 4 registers, a 2 or 4, b half of a).
    HMMA "HMMA" Sass ["X" => "X:r, X:r, X:r"] flags(SIDE_EFFECT) mods(TY|SRC_TY) req(TY|SRC_TY) ty() None;
    /// `IMMA.{16816,16832}.{S8,U8}.{S8,U8}[.SAT] d, a.ROW, b.COL, c`: the integer [`Opcode::Mma`]
    /// (`ty` s32, `src_ty`, `bs8`/`bu8` and `sat` as there) on register tuples (d and c 4
    /// registers, a 2 or 4, b half of a).
    IMMA "IMMA" Sass ["X" => "X:r, X:r, X:r"] flags(SIDE_EFFECT) mods(TY|SRC_TY|SUBOP|SAT) req(TY|SRC_TY) ty() None;
    /// Register-quad join `d = {a, b, c, e}` (a parallel copy, like [`Opcode::PACK64`]).
    PACK128 "PACK128" Sass ["X" => "W:r, W:r, W:r, W:r"] flags() mods() req() ty() None;
    /// Register-quad split `a, b, c, e = s` (a parallel copy, like [`Opcode::UNPACK64`]).
    UNPACK128 "UNPACK128" Sass ["W, W, W, W" => "X:r"] flags() mods() req() ty() None;
    /// Wide-tuple join `d = {s0, s1, ..., s(n-1)}` into a wide R tuple of n registers (a parallel
    /// copy, like [`Opcode::PACK128`]; the warpgroup MMA accumulators, `crate::ori::reg`).
    PACKW "PACKW" Sass ["X" => "W:r"] flags(VAR_SRCS) mods() req() ty() None;
    /// Wide-tuple split `d0, d1, ..., d(n-1) = s` (a parallel copy, like [`Opcode::UNPACK128`]).
    UNPACKW "UNPACKW" Sass ["W" => "X:r"] flags(VAR_DSTS) mods() req() ty() None;

    // ---- warpgroup MMA (sm_90a; the selection of `Opcode::Wgmma`, `lower::isel::wgmma`) ----
    /// `HGMMA`/`IGMMA`/`QGMMA` `d, [a,] gdesc[URa], c, UPp[, gsb0]`: [`Opcode::Wgmma`] on register
    /// tuples: `d` and `c` the warp's accumulator words (`c` may be RZ: zeros), `a` the uniform
    /// quad {A's descriptor, B's descriptor} (A's pair unused when A comes from registers), `p`
    /// scale-d (a uniform predicate: the old accumulator is added when it holds), the
    /// immediate 1 when the instruction closes its group (`gsb0`, PTX `wgmma.commit_group`),
    /// else 0, the form ([`crate::ori::gmma::GmmaForm::pack`]) and, when A comes from
    /// registers, A's four-register tuple. Warpgroup-collective; executed at issue in the
    /// executors.
    HGMMA "HGMMA" Sass ["X" => "X:r, X:r, P, I, I, X:r"] flags(MEM_READ|SIDE_EFFECT|VAR_SRCS) mods() req() ty() None;
    /// `WARPGROUP.ARRIVE` (PTX `wgmma.fence`): orders the warp's earlier register accesses
    /// before the `HGMMA`s that follow.
    WARPGROUPARRIVE "WARPGROUPARRIVE" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `WARPGROUP.DEPBAR.LE gsb0, n` (PTX `wgmma.wait_group n`): waits until at most `n` groups
    /// of `HGMMA`s are pending.
    WARPGROUPDEPBAR "WARPGROUPDEPBAR" Sass ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `VOTEU.ANY UPd, Pp`: whether `p` holds in any executing lane, in a uniform predicate (the
    /// destination slot is `X`, as `R2UR`'s: a per-thread instruction writing a uniform register).
    VOTEU "VOTEU" Sass ["X" => "P"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Uniform register-quad join `d = {a, b, c, e}` (a parallel copy, like [`Opcode::PACK128`],
    /// on the uniform datapath: `UMOV`s once allocated).
    UPACK128 "UPACK128" Sass ["X" => "W:r, W:r, W:r, W:r"] flags(UNIFORM) mods() req() ty() None;

    // ---- asynchronous copies (`cp.async`) ----
    /// `LDGSTS.E[.BYPASS][.64|.128] [Rs], desc[URk][Rg.64], p`: copies `ty`'s width from global
    /// to shared memory when `p` holds, else writes zeros (PTX `cp.async` with a source size of
    /// the full width or 0); sub-op `cg` bypasses L1 (`.BYPASS`). A copy at issue in the
    /// executors.
    LDGSTS "LDGSTS" Sass ["" => "Ms, Mg, P"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY|SUBOP|ZFILL) req(TY) ty() None;
    /// `LDGDEPBAR`: closes the group of `LDGSTS`s issued since the last one (scoreboard SB0).
    LDGDEPBAR "LDGDEPBAR" Sass ["" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `DEPBAR.LE SB0, n`: waits until at most `n` `LDGDEPBAR` groups are pending.
    DEPBAR "DEPBAR" Sass ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `DEPBAR {5,4,3,2,1,0}`: waits until the listed scoreboards (the immediate's bits) are
    /// clear (ptxas before `UTMACCTL`).
    DEPBARLIST "DEPBARLIST" Sass ["" => "I"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// `UTMACCTL.IV [URa]`: [`Opcode::TensormapAcquire`] on the uniform address pair.
    UTMACCTL "UTMACCTL" Sass ["" => "D:r"] flags(SIDE_EFFECT) mods() req() ty() None;

    // ---- mbarriers and bulk copies (the selection of `Opcode::MbarInit` ...; the word's
    // layout and operations are `super::mbarrier`'s) ----
    /// `R2UR URd, Ra`: the value of `a` in the lowest executing lane, in a uniform register
    /// (written for the whole warp).
    R2UR "R2UR" Sass ["X" => "W:r"] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Uniform register-pair join `d = {lo, hi}` (a parallel copy, like [`Opcode::PACK64`], on
    /// the uniform datapath: `UMOV`s once allocated).
    UPACK64 "UPACK64" Sass ["D" => "W:r, W:r"] flags(UNIFORM) mods() req() ty() Pack64;
    /// `SYNCS.EXCH.64 URZ, [URa], URb`: stores the 64-bit word `b` (ptxas computes
    /// `mbarrier.init`'s word) as a new barrier with no pending transaction.
    SYNCSEXCH "SYNCSEXCH" Sass ["" => "M, D:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods() req() ty() None;
    /// `SYNCS.ARRIVE.TRANS64[.A1T0|.RED.A0T1|.ART0] Rd, [a], Rb`: arrives `arrivals` times
    /// (immediate 0 or 1, or a register: `.ART0`, whose Rb is that register) adding `txi + tx`
    /// pending transactions; `d` gets the word before (the state token; RZ for `.RED`).
    /// `.optout`: `.OPTOUT` (`arrive_drop`); `.completetx`: `.RED.A0TX` (`tx` completes).
    SYNCSARRIVE "SYNCSARRIVE" Sass ["D" => "M, W:ri, I, W:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(OPTOUT|COMPLETE_TX) req() ty() None;
    /// `SYNCS.PHASECHK.TRANS64 Pd, [a], Rb`: whether the phase whose parity is bit 31 of `b`
    /// (the token's high word) has completed.
    SYNCSPHASECHK "SYNCSPHASECHK" Sass ["P" => "M, W:r"] flags(MEM_READ|SIDE_EFFECT) mods() req() ty() None;
    /// `SYNCS.PHASECHK.TRANS64.TRYWAIT Pd, [a], Rb`: [`Opcode::SYNCSPHASECHK`] that may wait a
    /// while first.
    SYNCSTRYWAIT "SYNCSTRYWAIT" Sass ["P" => "M, W:r"] flags(MEM_READ|SIDE_EFFECT) mods() req() ty() None;
    /// `SYNCS.CCTL.IV [a]`: `mbarrier.inval` (the word is left as it is).
    SYNCSCCTL "SYNCSCCTL" Sass ["" => "M"] flags(MEM_WRITE|SIDE_EFFECT) mods() req() ty() None;
    /// `ARRIVES.LDGSTSBAR.64.TRANSCNT [URa]`: completes one pending transaction when the
    /// thread's earlier `LDGSTS` copies are done (at once in the executors).
    ARRIVES "ARRIVES" Sass ["" => "M"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods() req() ty() None;
    /// `UBLKCP.S.G [URd], [URs], URn`: copies `16 * n` bytes from global address `s` (a
    /// uniform pair) to shared address `d` (the pair's low word) and completes that many
    /// transaction bytes on the mbarrier at the pair's high word; once for the warp.
    UBLKCP "UBLKCP" Sass ["" => "D:r, D:r, W:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods() req() ty() None;
    /// `ELECT Pd, URd, PT`: true in the lowest executing lane only; the optional uniform
    /// destination gets that lane's number (`URZ` when absent). `elect.sync`'s selection keeps
    /// its member mask as an optional source, for the interpreter (emission drops it).
    ELECT "ELECT" Sass ["P, X" => "W:ri"] flags(SIDE_EFFECT|VAR_DSTS|VAR_SRCS) mods() req() ty() None;

    // ---- added by isel ----
    /// Add with carry out (SASS `IADD3 Rd, Pco, a, b, c`): `d = a + b + c` (32-bit); `co` is
    /// bit 32 of the sum, where a negated source `-x` counts as `~x + 1`.
    IADD3C "IADD3C" Sass ["W, P" => "W:ric, W:ric, W:ric"] flags() mods() req() ty(U32) IAdd3C;
    /// Add with carry in (SASS `IADD3.X Rd, a, b, c, Pci, !PT`): `d = a + b + c + ci`.
    IADD3X "IADD3X" Sass ["W" => "W:ric, W:ric, W:ric, P"] flags() mods() req() ty(U32) IAdd3X;
    /// Extended compare, the high words of a 64-bit compare (SASS `ISETP.cc.AND.EX Pd, Pe, a,
    /// b, Pcombine, Plow`): with `Plow` the same comparison (unsigned) of the low words, the
    /// 64-bit result is `hi strict-cmp` or (`hi ==` and `Plow`) for ordered comparisons,
    /// `hi ==` and `Plow` for `eq`, `hi !=` or `Plow` for `ne`; then combined like ISETP.
    ISETPX "ISETPX" Sass ["P, P" => "W:r, W:ric, P, P"] flags() mods(CMP|TY|BOP) req(CMP|BOP) ty(S32) SetpX;
    /// Half-precision add (`.F16x2` packed per half, `.BF16x2`, or one `.F16`/`.BF16` value in
    /// the low half): SASS `HADD2` (`HADD2.BF16_V2`; scalar forms use its `.H0_H0` selectors).
    HADD2 "HADD2" Sass ["W" => "W:r, W:ric"] flags() mods(TY|RND|FTZ|SAT) req() ty(F16x2) Add;
    /// Half-precision multiply (SASS `HMUL2`), typed like `HADD2`.
    HMUL2 "HMUL2" Sass ["W" => "W:r, W:ric"] flags() mods(TY|RND|FTZ|SAT) req() ty(F16x2) Mul;
    /// Half-precision fused multiply-add (SASS `HFMA2`), typed like `HADD2`; `.RELU` clamps
    /// negative results to 0.
    HFMA2 "HFMA2" Sass ["W" => "W:r, W:ric, W:ric"] flags() mods(TY|RND|FTZ|SAT|RELU) req() ty(F16x2) Fma;
    /// Half-precision min (`PT`) or max (`!PT`) (SASS `HMNMX2`), typed like `HADD2`; `.NAN`:
    /// a NaN half gives the canonical NaN half.
    HMNMX2 "HMNMX2" Sass ["W" => "W:r, W:ric, P"] flags() mods(TY|FTZ|NAN|XORSIGN) req() ty(F16x2) Mnmx;
    /// Half-precision compare of the low halves, combined like ISETP (SASS `HSETP2` with
    /// `.H0_H0` selectors); `.F16` or `.BF16`.
    HSETP2 "HSETP2" Sass ["P, P" => "W:r, W:ric, P"] flags() mods(CMP|TY|BOP|FTZ) req(CMP|BOP) ty(F16) SetpBop;
    /// Register-pair join `d = hi:lo` (a pair copy: after allocation zero, one or two MOVs).
    PACK64 "PACK64" Sass ["D" => "W:r, W:r"] flags() mods() req() ty() Pack64;
    /// Register-pair split `lo, hi = d` (a pair copy: after allocation zero, one or two MOVs).
    UNPACK64 "UNPACK64" Sass ["W, W" => "D:r"] flags() mods() req() ty() Unpack64;
    /// Warp shuffle (SASS `SHFL.IDX/UP/DOWN/BFLY Pd, Rd, a, b, c`), the meaning of PTX `shfl`
    /// (`c` packs the segment mask and clamp as in PTX). The fourth source is the member mask
    /// the interpreter checks; emission drops it (selection places a `WARPSYNC` before the
    /// shuffle when the mask is not the full-warp immediate).
    SHFL "SHFL" Sass ["W, P" => "W:r, W:ri, W:ri, W:ri"] flags(SIDE_EFFECT) mods(TY|SUBOP) req(SUBOP) ty(B32) None;
    /// Warp vote (SASS `VOTE.ALL/ANY/EQ Rd, Pd, Ps`; sub-op `all`, `any` or `uni`): `Rd` is the
    /// ballot (the member lanes whose predicate is true; `RZ` when unused), `Pd` the vote (`PT`
    /// when unused). PTX `vote.ballot` is `VOTE.ANY Rd, PT, Ps`. The second source is the
    /// member mask the interpreter checks; emission drops it (selection synchronises the lanes
    /// with `WARPSYNC` first).
    VOTE "VOTE" Sass ["W, P" => "P, W:ri"] flags(SIDE_EFFECT) mods(SUBOP) req(SUBOP) ty() None;
    /// The mask of the lanes executing it, the meaning of PTX `activemask` (SASS `VOTE.ANY Rd,
    /// PT, PT`, as ptxas emits it, with no `WARPSYNC`: it reads the lanes that run together).
    ACTIVEMASK "ACTIVEMASK" Sass ["W" => ""] flags(SIDE_EFFECT) mods() req() ty() None;
    /// Warp reduction into a uniform register (SASS `REDUX.op URd, Ra`), the meaning of PTX
    /// `redux.sync` (operation in the sub-op, `.s32` for signed min/max). The second source is
    /// the member mask the interpreter checks; emission drops it. The destination is a uniform
    /// register written from per-thread sources (slot kind `X`, which the verifier's
    /// per-thread-op rule lets be uniform).
    REDUX "REDUX" Sass ["X" => "W:r, W:ri"] flags(SIDE_EFFECT) mods(TY|SUBOP) req(TY|SUBOP) ty() None;
    /// Warp match (SASS `MATCH.ANY Rd, Ra` / `MATCH.ALL Pd, Rd, Ra`, `.U64` for a 64-bit
    /// value): sub-op `any` or `all` with the meaning of PTX `match.any`/`match.all`; the
    /// predicate destination (`PT` when unused; always `PT` for `any`). The second source is the member
    /// mask the interpreter checks; emission drops it.
    MATCH "MATCH" Sass ["W, P" => "T:r, W:ri"] flags(SIDE_EFFECT) mods(TY|SUBOP) req(TY|SUBOP) ty() None;
    /// Global atomic (SASS `ATOMG.E.op.STRONG.GPU`; with the destination RZ, whose old value
    /// nobody reads, `REDG`): like `atom` (operation in the sub-op, `.rn`/`.ftz` for float add).
    ATOMG "ATOMG" Sass ["T" => "Mg, T:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY|SUBOP|FTZ|RND) req(TY|SUBOP) ty() None;
    /// Global compare-and-swap (SASS `ATOMG.E.CAS.STRONG.GPU`): memory, compare, new value.
    ATOMGCAS "ATOMGCAS" Sass ["T" => "Mg, T:r, T:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY) req(TY) ty() None;
    /// Shared-memory atomic (SASS `ATOMS.op`; RZ destination when the old value is unused).
    ATOMS "ATOMS" Sass ["T" => "Ms, T:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY|SUBOP) req(TY|SUBOP) ty() None;
    /// Shared-memory compare-and-swap (SASS `ATOMS.CAS`): memory, compare, new value.
    ATOMSCAS "ATOMSCAS" Sass ["T" => "Ms, T:r, T:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY) req(TY) ty() None;
    /// Generic-address atomic (SASS `ATOM.E.op.STRONG.GPU PT, Rd, desc[UR][Ra.64+off], Rb`,
    /// also with the destination RZ): like `ATOMG` on a generic address.
    ATOM "ATOM" Sass ["T" => "M, T:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY|SUBOP|FTZ|RND) req(TY|SUBOP) ty() None;
    /// Generic-address compare-and-swap (SASS `ATOM.E.CAS.STRONG.GPU PT, Rd, [Ra], Rb, Rc`, no
    /// descriptor): memory, compare, new value.
    ATOMCAS "ATOMCAS" Sass ["T" => "M, T:r, T:r"] flags(MEM_READ|MEM_WRITE|SIDE_EFFECT) mods(TY) req(TY) ty() None;
}

fn parse_slot(s: &str) -> Result<Slot, String> {
    let (kind, forms) = match s.split_once(':') {
        Some((k, f)) => (k, Some(f)),
        None => (s, None),
    };
    let kind = match kind {
        "T" => SlotKind::Ty,
        "S" => SlotKind::SrcTy,
        "Tw" => SlotKind::TyWide,
        "W" => SlotKind::Word,
        "D" => SlotKind::Dword,
        "P" => SlotKind::Pred,
        "B" => SlotKind::Barrier,
        "X" => SlotKind::Any,
        "M" => SlotKind::Mem(None),
        "Mg" => SlotKind::Mem(Some(Space::Global)),
        "Ms" => SlotKind::Mem(Some(Space::Shared)),
        "Ml" => SlotKind::Mem(Some(Space::Local)),
        "L" => SlotKind::Block,
        "F" => SlotKind::Func,
        "Q" => SlotKind::SReg,
        "I" => SlotKind::Imm,
        k => return Err(format!("unknown slot kind `{k}`")),
    };
    let mut slot = Slot { kind, reg: false, imm: false, cbank: false, sreg: false };
    match forms {
        None => {
            slot.reg = matches!(
                kind,
                SlotKind::Ty
                    | SlotKind::SrcTy
                    | SlotKind::TyWide
                    | SlotKind::Word
                    | SlotKind::Dword
                    | SlotKind::Pred
                    | SlotKind::Barrier
                    | SlotKind::Any
            );
            slot.imm = kind == SlotKind::Imm;
            slot.sreg = kind == SlotKind::SReg;
        }
        Some(f) => {
            for c in f.chars() {
                match c {
                    'r' => slot.reg = true,
                    'i' => slot.imm = true,
                    'c' => slot.cbank = true,
                    's' => slot.sreg = true,
                    c => return Err(format!("unknown operand form `{c}`")),
                }
            }
        }
    }
    Ok(slot)
}

fn parse_sig(s: &str) -> Result<Vec<Slot>, String> {
    s.split(',').map(str::trim).filter(|x| !x.is_empty()).map(parse_slot).collect()
}

static TABLE: LazyLock<Vec<OpInfo>> = LazyLock::new(|| {
    ROWS.iter()
        .map(|r| OpInfo {
            opcode: r.opcode,
            mnemonic: r.mnemonic,
            stage: r.stage,
            flags: OpFlags(r.flags),
            allowed: ModSet(r.allowed),
            required: ModSet(r.required),
            default_ty: r.default_ty,
            sem: r.sem,
            dsts: parse_sig(r.dsts).unwrap_or_else(|e| panic!("opcode table: {}: {e}", r.mnemonic)),
            srcs: parse_sig(r.srcs).unwrap_or_else(|e| panic!("opcode table: {}: {e}", r.mnemonic)),
        })
        .collect()
});

impl Opcode {
    /// Every opcode, in table order.
    pub fn all() -> impl Iterator<Item = Opcode> {
        ROWS.iter().map(|r| r.opcode)
    }
    /// This opcode's description.
    pub fn info(self) -> &'static OpInfo {
        // Rows are declared in enum order, so the discriminant indexes the table.
        &TABLE[self as usize]
    }
    /// The text mnemonic.
    pub fn mnemonic(self) -> &'static str {
        ROWS[self as usize].mnemonic
    }
    /// The opcode with this mnemonic (case-sensitive: PTX stage is lower case, SASS upper).
    pub fn from_mnemonic(s: &str) -> Option<Opcode> {
        ROWS.iter().find(|r| r.mnemonic == s).map(|r| r.opcode)
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

impl fmt::Debug for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_enum_order_and_parses() {
        for (i, r) in ROWS.iter().enumerate() {
            assert_eq!(r.opcode as usize, i, "{} out of order", r.mnemonic);
            parse_sig(r.dsts).unwrap();
            parse_sig(r.srcs).unwrap();
            let info = r.opcode.info();
            assert!(info.allowed.contains(info.required), "{} requires what it does not allow", r.mnemonic);
            assert!(!(info.allowed.contains(ModSet::CMP) && info.allowed.contains(ModSet::HALF)));
            assert!(!(info.allowed.contains(ModSet::CMP) && info.allowed.contains(ModSet::NAN)));
            assert_eq!(Opcode::from_mnemonic(r.mnemonic), Some(r.opcode));
        }
    }

    #[test]
    fn stage_matches_mnemonic_case() {
        for op in Opcode::all() {
            let info = op.info();
            let upper = info.mnemonic.chars().all(|c| !c.is_ascii_lowercase());
            match info.stage {
                Stage::Sass => assert!(upper, "{op}"),
                Stage::Ptx | Stage::Both => assert!(!upper, "{op}"),
            }
        }
    }
}
