//! A kernel's code, decoded and lowered to what the executor runs.
//!
//! The code of a kernel is its whole `.text.<kernel>` section (the kernel and the internal
//! subroutines ptxas appends after it, reached by `CALL.REL.NOINC`), one 128-bit word per
//! instruction. Each word is decoded with the arch's [`ptxas_rs::sass::Tables`] and lowered to an
//! [`Inst`]: an [`Kind`] (the base mnemonic with its modifiers parsed), and the operands split
//! into values ([`Arg`]) and predicates ([`PArg`]), each marked as destination or source with
//! its register count, in nvdisasm's printing order. Constant-bank operands are resolved to
//! immediates at lowering time (the banks are fixed for a launch); register-indexed `LDC` stays
//! dynamic.
//!
//! Lowering never fails the whole program: a word that does not decode, or decodes to something
//! the emulator does not implement, becomes an [`Inst`] whose kind is [`Kind::Invalid`] with the
//! reason, and executing it is an error naming the offset and the word. So a kernel whose
//! unsupported instructions are never reached still runs, and [`Program::first_invalid`] says
//! whether a kernel is fully supported.
//!
//! Invariant: every [`Arg`]/[`PArg`] the executor indexes exists (checked here by the operand
//! shape tests of each kind), so the executor never indexes out of range.

use std::collections::BTreeMap;

use ptxas_rs::sass::{Instruction, Operand, Tables, Value};

use super::alu::{BoolOp, Cmp, IntRnd, IntTy, MufuFn, Rnd, ShfType};

/// An operand value after lowering.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opnd {
    /// General register (255 = RZ); the first of `n` consecutive registers.
    R(u8),
    /// Uniform register (63 = URZ).
    Ur(u8),
    /// Immediate (constant-bank operands resolved here too).
    Imm(u64),
    /// Register-indexed constant bank `c[bank][R + off]`, or `c[bank][UR + off]` (sm_100's
    /// `LDCU`).
    CIdx {
        /// Bank.
        bank: u8,
        /// Byte offset.
        off: u32,
        /// Index register (255: RZ, or URZ when `uniform`).
        reg: u8,
        /// The index is a uniform register.
        uniform: bool,
    },
    /// Memory address `[Ra(.64) + UR + off]`.
    Mem {
        /// Address register (255 = none).
        ra: u8,
        /// 64-bit address register pair.
        wide: bool,
        /// Uniform register added (63 = none).
        ur: u8,
        /// Signed offset.
        off: i32,
        /// Left shift of the address register (sm_80-family shared accesses' `[R0.X4]`: 2 for
        /// `.X4`, 3 for `.X8`, 4 for `.X16`; 0 unscaled). The register alone is scaled, before
        /// the uniform register and the offset are added.
        shift: u8,
        /// The uniform register is a 64-bit pair `UR:UR+1` (sm_75 global accesses, whose
        /// uniform address register takes the place of the later descriptor: `[R2.64+UR4]`,
        /// `[R13.U32+UR4]`, `[UR6]`; see `sm75_global_address`).
        ur64: bool,
    },
    /// Special register id.
    Sr(u8),
    /// Branch target: instruction index in the section.
    Target(u32),
    /// Convergence barrier register.
    B(u8),
}

/// A value operand with its decorations and role.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The value.
    pub o: Opnd,
    /// `-x` (or `~x` where the instruction spells it so).
    pub neg: bool,
    /// `|x|`.
    pub abs: bool,
    /// `!x` / `~x`.
    pub not: bool,
    /// Registers covered (1, 2, 3 or 4) for register operands.
    pub n: u8,
    /// Written by the instruction.
    pub dst: bool,
    /// Half selector (`.H0_H0` = 2, `.H1_H1` = 3; 0 none) of a half-precision operand.
    pub sel: u8,
}

/// A predicate operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PArg {
    /// Index (7 = PT/UPT).
    pub idx: u8,
    /// Uniform predicate.
    pub uniform: bool,
    /// Negated.
    pub not: bool,
    /// Written by the instruction.
    pub dst: bool,
}

/// Memory spaces of loads and stores.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Space {
    /// `LDG`/`STG`/`ATOMG`/`REDG`.
    Global,
    /// `LDS`/`STS`/`ATOMS`.
    Shared,
    /// `LDL`/`STL`.
    Local,
    /// `LD`/`ST`/`ATOM`/`RED` (generic windows).
    Generic,
    /// A generic address in the constant window (bank 3, `__constant__` data): what `cvta.const`
    /// gives; read-only.
    Const,
    /// A generic address in the kernel parameter window (bank 0): what `cvta.param` gives;
    /// read-only.
    Param,
}

/// Atomic operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AtomOp {
    /// Add.
    Add,
    /// Min.
    Min,
    /// Max.
    Max,
    /// Wrapping increment.
    Inc,
    /// Wrapping decrement.
    Dec,
    /// And.
    And,
    /// Or.
    Or,
    /// Xor.
    Xor,
    /// Exchange.
    Exch,
    /// Compare and swap.
    Cas,
    /// `ATOMS.CAST.SPIN`: compare and swap in shared memory whose result is a success flag (1 when
    /// the store happened, else 0), ptxas's loop for shared float atomics (atom_float_double:
    /// `ATOMS.CAST.SPIN R3, [R10], R2, R3` then `ISETP.EQ.U32.AND P1, PT, R3, 0x1`).
    CasSpin,
}

/// Element type of an atomic.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AtomTy {
    /// u32.
    U32,
    /// s32.
    S32,
    /// u64.
    U64,
    /// s64.
    S64,
    /// f32 (add).
    F32,
    /// f64 (add).
    F64,
    /// Two f16 halves added separately (`.F16x2.RN`), or bf16 halves with `.BF16x2`.
    F16x2 {
        /// bfloat16 halves.
        bf16: bool,
    },
}

/// Shuffle modes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// Absolute lane.
    Idx,
    /// lane - delta.
    Up,
    /// lane + delta.
    Down,
    /// lane ^ mask.
    Bfly,
}

/// `F2FP`'s fp8 packing mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum F2fp8Mode {
    /// `.PACK_AB_MERGE_C`: two f32 to two fp8.
    Pack,
    /// `.UNPACK_B_MERGE_C`: f16x2 to two fp8.
    Narrow,
    /// `.UNPACK_B`: two fp8 to f16x2.
    Widen,
}

/// What an instruction does, with its modifiers parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Not executable: the reason.
    Invalid(String),
    /// `NOP` and the other instructions without an architectural effect here (`YIELD`,
    /// `MEMBAR`, `FENCE`, `ERRBAR`, `CCTL`, `NANOSLEEP`, `LDGDEPBAR`, ...).
    Nop,
    /// `USETMAXREG.TRY_ALLOC.CTAPOOL UPd, n`: the registers are always granted (`UPd` true);
    /// `.DEALLOC` is a [`Kind::Nop`] (neither changes a value).
    SetMaxRegAlloc,
    /// `DEPBAR.LE SBk, n`: (scoreboard, count) for the hazard checker.
    Depbar(u8, u8),
    /// `DEPBAR {..}`: the mask of scoreboards that drain completely (hazard checker).
    DepbarList(u8),
    /// `IADD3` (`.X`: carry-ins used, negation is `~`).
    Iadd3 {
        /// `.X`.
        x: bool,
    },
    /// sm_120's 64-bit adds on register (or uniform register) pairs: `IADD.64[.X] Rd, Pc, Ra,
    /// Rb, Pci` and `UIADD3.64 URd, UPc0, UPc1, URa, URb, URc` (the sources' sum, with
    /// `IADD3`'s negation, `~` under `.X`, and carries: out of bit 63, in with `.X`). The
    /// predicates are the carry-outs, then the carry-ins.
    Iadd64 {
        /// `.X`.
        x: bool,
    },
    /// `IMAD` family.
    Imad {
        /// `.WIDE`.
        wide: bool,
        /// `.HI`.
        hi: bool,
        /// Signed (no `.U32`).
        signed: bool,
        /// `.X`.
        x: bool,
    },
    /// `LEA` / `LEA.HI`.
    Lea {
        /// `.HI`.
        hi: bool,
        /// `.X`.
        x: bool,
        /// `.SX32`.
        sx32: bool,
    },
    /// `LOP3.LUT`.
    Lop3,
    /// `PLOP3.LUT`.
    Plop3,
    /// `PLOP3.LUT P, Q, Ra.SIGN, Rb.SIGN, Rc.SIGN, lut1, lut2`: the inputs are the registers'
    /// sign bits (B may be a constant, `c[0x2] [0x0].SIGN`).
    Plop3Sign,
    /// `HSET2[.BF16_V2][.BF].cmp.bop d, a, b, p`: per half, the comparison combined with `p`;
    /// true gives `0xffff`, or 1.0 (`0x3c00`, bf16 `0x3f80`) with `.BF`; false gives 0.
    Hset2 {
        /// Comparison.
        cmp: Cmp,
        /// Combiner.
        bop: BoolOp,
        /// `.BF`: 1.0 for true.
        one: bool,
        /// Modifiers (`bf16`, `ftz`).
        m: super::alu::HalfMods,
    },
    /// `MUFU.{EX2,TANH,...}.F16 d, a[.H1]`: the function of one f16 half (the high one with the
    /// `.H1` selector), rounded to f16 in the low half of d (the high half 0).
    MufuF16(MufuFn),
    /// `SULD.D.BA` / `SUST.D.BA` (bindless surfaces, [`crate::texture`]): `[Ra]` holds x in
    /// bytes, then y, z, the layer last; the handle is a uniform register.
    Surface {
        /// `SUST`.
        store: bool,
        /// The geometry.
        geom: crate::texture::Geom,
        /// Bytes per access (`.U8` 1 ... `.128` 16; `.S8`/`.S16` as negative: sign-extended).
        bytes: i32,
        /// `.TRAP`, none (clamp), `.IGN` (zero).
        clamp: crate::texture::Clamp,
    },
    /// `LDGSTS.E[.BYPASS][.64|.128] [Rs], [Rg.64], p` (`cp.async`): copies `size` bytes from
    /// global to shared memory, or stores zeros where `p` is false (the zero-filling form).
    /// The copy happens at issue; `LDGDEPBAR`/`DEPBAR` only order it on the GPU.
    Ldgsts {
        /// Bytes.
        size: u32,
        /// `.ZFILL` (`cp.async` with a source size): the global address's low bits below
        /// `size` count the zero bytes at the end; the rest is read from the address rounded
        /// down to `size` (`p` false: all zeros).
        zfill: bool,
    },
    /// `SHF`.
    Shf {
        /// `.L`.
        left: bool,
        /// `.W`.
        wrap: bool,
        /// Data type.
        ty: ShfType,
        /// `.HI`.
        hi: bool,
    },
    /// `ISETP`.
    Isetp {
        /// Comparison.
        cmp: Cmp,
        /// Signed.
        signed: bool,
        /// `.U64`/`.S64` (sm_120): the operands are register pairs.
        wide: bool,
        /// Combiner.
        bop: BoolOp,
        /// `.EX`.
        ex: bool,
    },
    /// `FSETP`.
    Fsetp {
        /// Comparison.
        cmp: Cmp,
        /// `.FTZ`.
        ftz: bool,
        /// Combiner.
        bop: BoolOp,
    },
    /// `DSETP`.
    Dsetp {
        /// Comparison.
        cmp: Cmp,
        /// Combiner.
        bop: BoolOp,
    },
    /// `DSETP.MIN`/`DSETP.MAX`: the selection predicates of an f64 min/max (see
    /// [`super::alu::dsetp_minmax`]).
    DsetpMinMax {
        /// `.MIN` (else `.MAX`).
        min: bool,
        /// Combiner.
        bop: BoolOp,
    },
    /// `F2FP.{F16,BF16}.F32.PACK_AB d, a, b`: `a` and `b` rounded to the half format, `a` in the
    /// high half; `.MERGE_C d, a, RZ`: `a` rounded into the low half, the high half 0 (only `RZ`
    /// as the third operand, the form NVIDIA's code uses: what a register would merge is not
    /// calibrated). `.RELU`: each half's negative result (-0 included) becomes +0, a NaN the
    /// canonical `0x7fff` (PTX's `cvt.relu`).
    F2fp {
        /// bfloat16 (else binary16).
        bf16: bool,
        /// Rounding.
        rnd: Rnd,
        /// `.RELU`.
        relu: bool,
        /// `.MERGE_C` (else `.PACK_AB`).
        merge: bool,
        /// `.SATFINITE`: an infinite result becomes the largest finite value, sign kept (a NaN
        /// stays the canonical NaN).
        sat: bool,
    },
    /// `F2FP`'s fp8 forms (sm_90 layout `D, A, B, C`, C = RZ), see [`super::fp8`]:
    /// `.SATFINITE[.RELU].{E4M3,E5M2}.F32.PACK_AB_MERGE_C`: A into byte 1, B into byte 0;
    /// `...F16.UNPACK_B_MERGE_C`: B's two f16 halves into bytes 1 and 0;
    /// `[.RELU].F16.{E4M3,E5M2}.UNPACK_B`: B's bytes 1 and 0 into the f16 halves.
    /// The upper bytes not written are zero.
    F2fp8 {
        /// e4m3 (else e5m2).
        e4m3: bool,
        /// The packing mode.
        mode: F2fp8Mode,
        /// `.RELU`.
        relu: bool,
    },
    /// `F2IP.{U8,S8}.F32 d, a, b, c` (`.NTZ`): f32 `b` converted to a saturated byte (round to
    /// nearest even), see [`super::alu::f2ip`].
    F2ip {
        /// Signed byte.
        signed: bool,
    },
    /// `VABSDIFF d, a, b, c`: `|a - b| + c` (32-bit, `.U32` unsigned).
    Vabsdiff {
        /// Signed.
        signed: bool,
    },
    /// `VABSDIFF4.{U8,S8} d, a, b, c`: per-byte `|a - b|`; with `.ACC` their sum plus `c`.
    Vabsdiff4 {
        /// Signed bytes.
        signed: bool,
        /// `.ACC`.
        acc: bool,
    },
    /// `VIMNMX3 d, a, b, c, p, q`: the min/max of three 32-bit integers (see
    /// [`super::alu::vimnmx3`]).
    Vimnmx3 {
        /// Signed.
        signed: bool,
    },
    /// `IDP.4A.{S8,U8}.{S8,U8}` / `IDP.2A.{LO,HI}.{S16,U16}.{S8,U8}`: integer dot products.
    Idp {
        /// `.2A` (else `.4A`).
        two: bool,
        /// `.HI` (bytes 2–3 of `b` for `.2A`).
        hi: bool,
        /// `a`'s parts are signed.
        sa: bool,
        /// `b`'s bytes are signed.
        sb: bool,
    },
    /// `SEL`/`FSEL`.
    Sel,
    /// `MOV`/`UMOV`.
    Mov,
    /// `VIADD` (`.16x2`: two independent 16-bit lanes, sm_120's `.U8x4`: four bytes, a `-`
    /// operand negated per lane; sm_120's `.S32.ISAT`: the signed sum saturated).
    Viadd {
        /// Lanes per register: 1, 2 (`.16x2`) or 4 (`.U8x4`).
        lanes: u8,
        /// `.S32.ISAT`.
        sat: bool,
    },
    /// `IABS`.
    Iabs,
    /// `POPC`.
    Popc,
    /// `BREV`.
    Brev,
    /// `FLO`.
    Flo {
        /// `.S32` (default `.U32`).
        signed: bool,
        /// `.SH`.
        sh: bool,
    },
    /// `PRMT` (`mode`: the `.F4E`-style byte-selection mode, or `None` for the nibble selector).
    Prmt {
        /// Mode.
        mode: Option<super::alu::PrmtMode>,
    },
    /// `IMNMX`/`VIMNMX` (`.S16x2`/`.U16x2`: per 16-bit half; sm_120's `.U8x4`/`.S8x4`: per
    /// byte).
    Imnmx {
        /// Signed.
        signed: bool,
        /// Lanes per register: 1, 2 or 4.
        lanes: u8,
        /// `.S64`/`.U64` (sm_120): register pairs.
        wide: bool,
        /// `.RELU` (PTX `max/min.relu.{s32,s16x2}`): each negative lane becomes 0.
        relu: bool,
    },
    /// `VIADDMNMX d, a, b, c, p`: `min(a + b, c)` (`p` true) or `max` (`p` false).
    Viaddmnmx {
        /// Signed (`.U32` absent).
        signed: bool,
    },
    /// `I2IP.{U16,S16,U8,S8,U4,S4,U2,S2}.S32.SAT d, a, b, c`: a and b (signed) clamped into
    /// `bits`-bit fields, b lowest, a above it, then c's low bits (the sub-byte forms' C printed
    /// `R4.24`/`R4.28`: the low 24/28 bits of c above the 8/4 bits of fields).
    I2ip {
        /// The field width (16, 8, 4 or 2).
        bits: u32,
        /// A signed destination type.
        signed: bool,
    },
    /// `SGXT`.
    Sgxt {
        /// `.U32` (zero-extend).
        unsigned: bool,
        /// `.W`: the bit count wraps (mod 32) instead of clamping at 32.
        wrap: bool,
    },
    /// `BMSK`.
    Bmsk {
        /// `.W`.
        wrap: bool,
    },
    /// `P2R`.
    P2r,
    /// `R2P`.
    R2p,
    /// `FADD`/`FMUL`/`FFMA` (op 0/1/2).
    Fp32 {
        /// 0 add, 1 mul, 2 fma.
        op: u8,
        /// Rounding.
        rnd: Rnd,
        /// `.FTZ`.
        ftz: bool,
        /// `.SAT`.
        sat: bool,
    },
    /// `DADD`/`DMUL`/`DFMA` (op 0/1/2).
    Fp64 {
        /// 0 add, 1 mul, 2 fma.
        op: u8,
        /// Rounding.
        rnd: Rnd,
    },
    /// `FMNMX`.
    Fmnmx {
        /// `.FTZ`.
        ftz: bool,
        /// `.NAN`: a NaN operand gives the canonical NaN (see [`super::alu::fmnmx_nan`]).
        nan: bool,
        /// `.XORSIGN`: the result's sign is the XOR of the operands' signs before `|x|`
        /// (PTX `min/max.xorsign.abs`; see [`super::alu::xorsign32`]).
        xorsign: bool,
    },
    /// `MUFU`.
    Mufu(MufuFn),
    /// `F2I` from f16 (the low half of the source register; see [`super::convert`]).
    F2iF16 {
        /// Destination type.
        dst: IntTy,
        /// Rounding.
        rnd: IntRnd,
    },
    /// `I2F.F16`: an integer to f16 (see [`super::convert`]).
    I2fF16 {
        /// Source type.
        src: IntTy,
        /// Rounding.
        rnd: Rnd,
        /// `.BF16`: to bfloat16 (else binary16).
        bf16: bool,
    },
    /// `I2I`: integer width/sign change (see [`super::convert`]).
    I2i {
        /// Destination type.
        dst: IntTy,
        /// Source type.
        src: IntTy,
        /// `.SAT`.
        sat: bool,
    },
    /// `F2I`.
    F2i {
        /// Destination type.
        dst: IntTy,
        /// Source is f64.
        src64: bool,
        /// Rounding.
        rnd: IntRnd,
        /// `.FTZ`.
        ftz: bool,
        /// `.NTZ`: NaN converts to 0 (see [`super::alu::f2i`]).
        ntz: bool,
    },
    /// `I2F`/`I2FP`.
    I2f {
        /// Source type.
        src: IntTy,
        /// Destination is f64.
        dst64: bool,
        /// Rounding.
        rnd: Rnd,
    },
    /// `F2F` between f32 and f64 (`to64`), f32/f64 → f16/bf16 (`to16`), or f16 → f32.
    F2f {
        /// f32 → f64.
        to64: bool,
        /// f32 or f64 (`from64`) → f16, or bf16 with `bf16`.
        to16: bool,
        /// The 16-bit destination is bf16.
        bf16: bool,
        /// The source is f64.
        from64: bool,
        /// f16 → f32.
        from16: bool,
        /// Rounding.
        rnd: Rnd,
        /// `.FTZ`.
        ftz: bool,
    },
    /// `FRND` (f32, or f64 with `f64`, or the f16 in a register half with `f16`).
    Frnd {
        /// Rounding.
        rnd: IntRnd,
        /// `.FTZ`.
        ftz: bool,
        /// `.F64` (register pairs).
        f64: bool,
        /// `.F16`: the source's half (`.H1` selects the high one) rounded in binary16 into
        /// the destination's low half (see [`super::alu::frnd16`]).
        f16: bool,
    },
    /// `HADD2.F32`: the low halves (after selectors and signs) as f16, summed into one f32
    /// (round to nearest; a NaN gives the canonical NaN). ptxas's `cvt.f32.f16`; with `sat`
    /// (`.SAT`) clamped to [+0, 1], NaN to +0 (ptxas's `cvt.sat.f32.f16` at -O0).
    Hadd2F32 {
        /// `.SAT`.
        sat: bool,
    },
    /// `FSET.BF`/`FSET`: the f32 comparison combined with a predicate, written as 1.0 (`.BF`)
    /// or `0xffffffff` when true and 0 when false (PTX `set.<cmp>.<bop>.{f32,u32}.f32`).
    Fset {
        /// Comparison.
        cmp: Cmp,
        /// `.FTZ`.
        ftz: bool,
        /// Combiner with the predicate operand.
        bop: BoolOp,
        /// `.BF`: true is 1.0f (else the all-ones mask).
        bf: bool,
    },
    /// `HADD2`/`HMUL2`/`HFMA2`/`HMNMX2` (op 0/1/2/3).
    H2 {
        /// 0 add, 1 mul, 2 fma, 3 min/max (by the predicate operand).
        op: u8,
        /// Modifiers.
        m: super::alu::HalfMods,
    },
    /// `HSETP2` (the low halves compared: both destinations as ptxas uses them with
    /// `.H0_H0` sources; the second destination is the high halves' result).
    Hsetp2 {
        /// Comparison.
        cmp: Cmp,
        /// Combiner.
        bop: BoolOp,
        /// Modifiers.
        m: super::alu::HalfMods,
    },
    /// `FCHK`.
    Fchk,
    /// `S2R`/`S2UR`/`CS2R`.
    S2r,
    /// `R2UR`.
    R2ur,
    /// `LDC`/`ULDC`.
    Ldc {
        /// Bytes (1, 2, 4, 8).
        size: u32,
        /// Sign-extend sub-word.
        signed: bool,
    },
    /// A load.
    Ld {
        /// Space.
        space: Space,
        /// Bytes.
        size: u32,
        /// Sign-extend sub-word.
        signed: bool,
    },
    /// A store.
    St {
        /// Space.
        space: Space,
        /// Bytes.
        size: u32,
    },
    /// An atomic (`ATOM`, `ATOMG`, `ATOMS`, `RED`, `REDG`).
    Atom {
        /// Space.
        space: Space,
        /// Operation.
        op: AtomOp,
        /// Type.
        ty: AtomTy,
        /// Returns the old value.
        ret: bool,
    },
    /// `SHFL`.
    Shfl(ShflMode),
    /// `VOTE`/`VOTEU` (0 = ALL, 1 = ANY, 2 = EQ).
    Vote(u8),
    /// `MATCH.ANY` (`all = false`) or `MATCH.ALL`.
    Match {
        /// `.ALL`.
        all: bool,
    },
    /// `REDUX` (op: 0 sum, 1 min, 2 max, 3 and, 4 or, 5 xor).
    Redux {
        /// Operation.
        op: u8,
        /// Signed min/max.
        signed: bool,
    },
    /// `BRA` (`div`: `.DIV`, taken when the warp is diverged).
    Bra {
        /// `.DIV`.
        div: bool,
        /// `.U.ANY`: every active lane branches when the predicate holds in any of them.
        any: bool,
    },
    /// `BRX Ra, off`: indirect branch to `next + Ra + off`.
    Brx,
    /// `CALL.REL`: jump to the target (the return address is passed in a register).
    Call,
    /// `CALL.ABS Ra`: a system function's relocated address ([`crate::sysfn`]).
    CallAbs,
    /// `BPT.TRAP`: the lanes stop the launch with a located fault.
    Trap,
    /// `LEPC Rd, target`: the target's code address into the pair `Rd`.
    Lepc,
    /// `SYNCS.EXCH.64 URd, [a], URb`: `mbarrier.init` (stores the 64-bit URb pair; see
    /// `exec::mbar` for the word's fields).
    MbarInit,
    /// `SYNCS.ARRIVE.TRANS64[.RED][.AaTt] Rd, [a], Rb`: each active lane arrives `arrivals`
    /// times and adds `tx + Rb` pending transactions; `Rd` pair gets the word before (the token).
    MbarArrive {
        /// Arrivals per lane (`A1`, `A0`; 1 without the suffix).
        arrivals: u32,
        /// Transactions added per lane besides `Rb` (`T1`, `T0`).
        tx: u32,
        /// `.ART0`: the arrival count is `Rb` (no transactions); ptxas -O0 code for
        /// `mbarrier.arrive [b], count` with the count in a register.
        count_in_b: bool,
        /// `.A0TX`: `Rb` transactions complete (`mbarrier.complete_tx`) instead of being added.
        complete: bool,
        /// `.OPTOUT`: the arrivals also leave the expected count (`mbarrier.arrive_drop`).
        optout: bool,
    },
    /// `SYNCS.PHASECHK.TRANS64[.TRYWAIT] Pd, [a], Rb`: whether the phase whose parity is bit 31 of
    /// Rb has completed.
    MbarTest,
    /// `ARRIVES.LDGSTSBAR.64.TRANSCNT [a]`: the lane's earlier `LDGSTS` copies (already done
    /// here) complete one pending transaction each.
    MbarLdgstsArrive,
    /// `ATOMS.ARRIVE.64 Rd, [a]` (sm_80 family): each active lane arrives once at the mbarrier in
    /// the sm_80 layout (`exec::mbar::sm80_arrive`); `Rd:Rd+1` gets the word before (the token).
    MbarArrive80,
    /// `ARRIVES.LDGSTSBAR.64 [a]` (sm_80 family, no `.TRANSCNT`): each active lane arrives once
    /// when its earlier `LDGSTS` copies are done (at once here), in the sm_80 layout.
    MbarLdgstsArrive80,
    /// `YIELD`: a scheduling hint, no architectural effect; in sm_80-family code the emulator
    /// hands the warp over there (see `exec`), since ptxas's mbarrier wait is a polling loop.
    Yield,
    /// `UBLKCP.S.G [URd], [URs], URn`: bulk copy of `16 * URn` bytes from global to shared,
    /// completing that many transaction bytes on the mbarrier at `UR(d+1)`.
    Ublkcp,
    /// `ELECT Pd, URd, Pm`: the lowest active lane of `Pm` is the leader (`Pd` true there, its
    /// lane index in `URd`).
    Elect,
    /// `CALL.REL Ra`: jump to the byte offset held in Ra (an indirect call; lanes holding
    /// different targets diverge like `RET`).
    CallReg,
    /// `RET.REL Ra`: jump to the byte offset held in Ra.
    Ret,
    /// `EXIT`.
    Exit,
    /// `BSSY B, target`.
    Bssy,
    /// `BSYNC B`.
    Bsync,
    /// `BREAK B`.
    Break,
    /// `BMOV` between a B register and a general register (`clear`: `.CLEAR`).
    Bmov {
        /// `.CLEAR`.
        clear: bool,
    },
    /// `WARPSYNC mask` (`all`: `.ALL`; `exclusive`: `.EXCLUSIVE`, whose lane groups run the
    /// following region apart from each other, see the executor's strands).
    Warpsync {
        /// `.ALL`.
        all: bool,
        /// `.EXCLUSIVE`.
        exclusive: bool,
    },
    /// `BAR.SYNC id[, count]`, `BAR.ARV id, count` (`arv`: no wait) and
    /// `BAR.RED.{POPC,AND,OR} id[, count], p` (`red` 0, 1, 2); with two registers they are one
    /// register holding `count << 16 | id` (`exec::bar`).
    Bar {
        /// `.ARV`.
        arv: bool,
        /// `.RED` and its combiner.
        red: Option<u8>,
    },
    /// `B2R.RESULT d[, q]`: the warp's last `BAR.RED` result (`q`: not 0).
    B2r,
    /// `MOVM.16.MT88 Rd, Ra` (PTX `movmatrix.m8n8.trans.b16`): the warp's 8x8 matrix of 16-bit
    /// elements, four lanes per row and two elements per lane, transposed.
    Movm,
    /// `LDSM.16.M88.{1,2,4}` / `LDSM.16.MT88.{1,2,4}` (PTX `ldmatrix.sync.aligned.m8n8.b16`,
    /// `.trans` for MT88): `n` 8x8 matrices of 16-bit elements from shared memory, the row
    /// addresses supplied by lanes `8m..8m+8` for matrix `m`, one register per matrix per lane.
    Ldsm {
        /// Matrices (registers per lane).
        n: u8,
        /// Transposed.
        trans: bool,
    },
    /// `STSM.16.M88.{1,2,4}` / `STSM.16.MT88.{1,2,4}` (PTX `stmatrix.sync.aligned.m8n8.b16`):
    /// the inverse of [`Kind::Ldsm`], `n` registers per lane to shared memory.
    Stsm {
        /// Matrices (registers per lane).
        n: u8,
        /// Transposed.
        trans: bool,
    },
    /// `HMMA.{16816,1688,1684}.F32[.BF16|.TF32] d, a, b, c`: a warp-wide matrix multiply-add
    /// (PTX `mma.sync.aligned.m16n8k{16,8,4}` with f32 accumulators) on the fragments PTX
    /// documents; see [`super::alu::mma_f32`]. The hazard checker treats its results as
    /// interlocked (`HwFacts::mma_result_latency`: ptxas's own -O0 code reads them on the next
    /// instruction).
    Hmma {
        /// K (16, 8 or 4).
        k: u8,
        /// Element type of a and b.
        ab: super::alu::MmaType,
    },
    /// `IMMA.{16816,16832}.{S8,U8}.{S8,U8}[.SAT] d, a.ROW, b.COL, c`: the integer warp-wide
    /// matrix multiply-add (PTX `mma.sync.aligned.m16n8k{16,32}` with s32 accumulators); see
    /// [`super::alu::mma_s32`]. Latency as [`Kind::Hmma`].
    Imma {
        /// Registers of the a fragment per lane (2 for k = 16, 4 for k = 32; 1 for sm_75's
        /// `IMMA.8816`, m8n8k16, whose c and d have 2 registers: the top half of the m16n8k16
        /// product, whose fragments have the same layout there).
        a_regs: u8,
        /// Whether a's and b's bytes are signed.
        signed: (bool, bool),
        /// `.SAT`: the sum clamped to the s32 range instead of wrapped.
        sat: bool,
    },
    /// `WARPGROUP.ARRIVE` (PTX `wgmma.fence`): orders the warp's earlier register and shared
    /// accesses before the warpgroup MMAs that follow. No effect on values (the executor runs an
    /// `HGMMA` at issue); the hazard checker requires one between a register write and an
    /// `HGMMA` reading that register as its accumulator.
    WarpgroupArrive,
    /// `WARPGROUP.DEPBAR.LE gsb0, n` (PTX `wgmma.wait_group n`): waits until at most `n` groups
    /// of `HGMMA`s are pending; their accumulators are readable afterwards (hazard checker).
    WarpgroupDepbar(u8),
    /// `HGMMA`/`IGMMA`/`QGMMA` `Rd, [Ra,] gdesc[URa], Rc, UPp[, gsb0]` (PTX `wgmma.mma_async`,
    /// every form, see [`super::gmma_form`]): `URa..URa+1` is A's descriptor (unused when A is
    /// the register quad `Ra`), `URa+2..URa+3` B's; `UPp` is scale-d (false: `Rc` is not
    /// added); `gsb0` closes the group the warpgroup MMAs since the last group belong to.
    /// Values per [`crate::gmma::Wgmma::warp`], computed at issue; the hazard checker keeps `Rd` pending until
    /// a `WARPGROUP.DEPBAR` retires its group.
    Hgmma {
        /// What it computes (from the mnemonic, its modifiers and decorations).
        form: ptxas_rs::ori::gmma::GmmaForm,
        /// Whether `gsb0` is set (the group is committed).
        gsb: bool,
    },
    /// `QSPC.E.{G,S,D,L} P, RZ, [Ra]`: whether the generic address is in the global window
    /// (`G`), the shared window (`S`, and `D` for `shared::cluster`, the same window without
    /// clusters) or the local window (`L`); ptxas's `isspacep`.
    Qspc(Space),
}

/// One lowered instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// Byte offset in the section.
    pub offset: u32,
    /// The 128-bit word.
    pub word: u128,
    /// What it does.
    pub kind: Kind,
    /// Guard (`idx` 7 without `not`: always).
    pub guard: PArg,
    /// Value operands.
    pub args: Vec<Arg>,
    /// Predicate operands.
    pub preds: Vec<PArg>,
    /// The base mnemonic (for reports), e.g. `IADD3`.
    pub base: &'static str,
    /// The modifier suffix, e.g. `.X`.
    pub suffix: String,
    /// Control bits.
    pub control: ptxas_rs::sass::Control,
    /// Registers read and written ([`super::hazard::regs`], cached for the hazard checker).
    pub regs: (Vec<super::hazard::Reg>, Vec<super::hazard::Reg>),
}

impl Inst {
    /// The text as nvdisasm would print it (when the word decodes), else the word in hex.
    pub fn text(&self, tables: &Tables) -> String {
        match tables.decode(self.word) {
            Ok(i) => tables.print(&i, u64::from(self.offset), None),
            Err(_) => format!("{:#034x}", self.word),
        }
    }
}

/// Constant banks visible to the kernel, by number.
pub type Banks = BTreeMap<u8, Vec<u8>>;

/// A lowered kernel.
#[derive(Clone, Debug)]
pub struct Program {
    /// The instructions of the section, in order (index = offset / 16).
    pub insts: Vec<Inst>,
    /// Index of the kernel's first instruction.
    pub entry: u32,
    /// The arch's tables (for printing instructions in reports).
    pub tables: &'static Tables,
}

/// The modifier suffix of one instruction as nvdisasm prints it (`@P0 IMAD.WIDE.U32 R2, ...`
/// gives `.WIDE.U32`), in the form [`Program::with_suffixes`] takes: the guard and operands
/// dropped, and IMAD's alias tokens `.MOV`/`.SHL`/`.IADD` removed (the decoder's base is `IMAD`).
pub fn listing_suffix(text: &str) -> String {
    let text = text.trim();
    let text = if text.starts_with('@') { text.split_once(' ').map_or("", |x| x.1) } else { text };
    let mnem = text.split_whitespace().next().unwrap_or("");
    let imad = mnem.starts_with("IMAD.");
    mnem.split('.')
        .skip(1)
        .filter(|t| !(imad && matches!(*t, "MOV" | "SHL" | "IADD")))
        .map(|t| format!(".{t}"))
        .collect()
}

impl Program {
    /// Decodes and lowers `words` (a whole section) with `tables`; `entry` is the kernel's byte
    /// offset; `banks` resolve constant operands.
    pub fn new(tables: &'static Tables, words: &[u128], entry: u64, banks: &Banks) -> Program {
        Program::with_suffixes(tables, words, entry, banks, &BTreeMap::new())
    }

    /// Like [`Program::new`], but a word whose form decodes while its modifier bits are not in
    /// the arch's table yet takes its modifier suffix from `suffixes` (by byte offset), e.g. from
    /// nvdisasm's listing of the same cubin. Tests use this to run NVIDIA's code while the
    /// decoder's modifier table is still incomplete; the operands still come from the decoder.
    pub fn with_suffixes(
        tables: &'static Tables,
        words: &[u128],
        entry: u64,
        banks: &Banks,
        suffixes: &BTreeMap<u32, String>,
    ) -> Program {
        let insts = words
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                let off = (i * 16) as u32;
                let sm75 = tables.name == "SM75";
                match tables.decode(w) {
                    Ok(d) => sm75_global_address(sm75, &d, lower(&d, d.suffix, off, w, banks)),
                    Err(e @ ptxas_rs::sass::DecodeError::UnknownModifiers { .. }) => {
                        match (suffixes.get(&off), tables.decode_unchecked(w)) {
                            (Some(sfx), Ok(d)) => sm75_global_address(sm75, &d, lower(&d, sfx, off, w, banks)),
                            _ => invalid(off, w, format!("not decodable: {e}")),
                        }
                    }
                    Err(e) => invalid(off, w, format!("not decodable: {e}")),
                }
            })
            .collect();
        let mut insts: Vec<Inst> = insts;
        // A `WARPSYNC.COLLECTIVE` region must end with `ENDCOLLECTIVE` right before its target
        // (the only shape the executor models, see `lower_inner`).
        for i in 0..insts.len() {
            let ins = &insts[i];
            if ins.base != "WARPSYNC" || !ins.suffix.contains("COLLECTIVE") {
                continue;
            }
            let t = ins.args.iter().find_map(|a| if let Opnd::Target(t) = a.o { Some(t as usize) } else { None });
            let ends = t.is_some_and(|t| t > i + 1 && insts.get(t - 1).is_some_and(|e| e.base == "ENDCOLLECTIVE"));
            if !ends {
                let (off, w) = (ins.offset, ins.word);
                insts[i] = invalid(
                    off,
                    w,
                    "not implemented: WARPSYNC.COLLECTIVE whose target does not follow an ENDCOLLECTIVE".into(),
                );
            }
        }
        Program { insts, entry: (entry / 16) as u32, tables }
    }

    /// Makes instruction `i` refuse to execute, with `why` (a relocation the loader could not
    /// apply to its word, see `super::image`).
    pub fn refuse(&mut self, i: usize, why: String) {
        if let Some(ins) = self.insts.get_mut(i) {
            *ins = invalid(ins.offset, ins.word, why);
        }
    }

    /// The first instruction that cannot execute, with its reason, if any.
    pub fn first_invalid(&self) -> Option<(&Inst, &str)> {
        self.insts.iter().find_map(|i| match &i.kind {
            Kind::Invalid(r) => Some((i, r.as_str())),
            _ => None,
        })
    }
}

/// sm_75's global addresses (`sm75`: the code is sm_75's), applied to `inst` lowered from `d`.
/// Turing has no global memory descriptor: where the sm_80 family encodes one, a global access
/// has a uniform address register (`src/sass/sm75`'s forms with `Slot::u32_ra`), which is a
/// 64-bit pair, added to the address register, which is 64-bit with `.64` and a zero-extended
/// 32-bit value with `.U32` (`LDG.E.SYS R4, [R4.64+UR4]` with `ULDC.64 UR4, c[0x0][0x168]`, the
/// pointer parameter; `[R13.U32+UR4]`; `[UR6]`: the pair alone). The register-only forms (`STG`,
/// `ATOMG`, `ATOM`, and `RED` without its uniform register, `STG.E.SYS [R2], R5`) print no width:
/// there `.E` (extended addressing, which ptxas's 64-bit code always sets) makes the register a
/// 64-bit pair. Width rules for other arches are `lower_inner`'s.
fn sm75_global_address(sm75: bool, d: &Instruction, mut inst: Inst) -> Inst {
    if !sm75 || matches!(inst.kind, Kind::Invalid(_)) {
        return inst;
    }
    let slot = d.form.slots.iter().zip(&d.operands).find_map(|(s, o)| match (s.kind, o.value) {
        (ptxas_rs::sass::form::Kind::Mem { ur_at, ur_flag, .. }, Value::Mem { wide, .. }) => {
            // RED's uniform register exists only with its flag bit (91) set, and so do the
            // generic `LD`'s and `ST`'s, whose forms (`src/sass/sm75`) show it always:
            // nvdisasm -b SM75 prints `LD.E.SYS R31, [R14]` for bit 91 clear (module_init 0x0490,
            // UR field 0, a 64-bit pointer in R14:R15), `LD.E.SYS R25, [UR4]` and
            // `ST.E.64.SYS [R6.64+UR4+0x200], R4` for it set (linkage_weak_common, dyn_smem_extern).
            let flag = ur_flag.or(if matches!(d.form.base, "LD" | "ST") { Some(91) } else { None });
            let ur_shown = ur_at.is_some() && flag.is_none_or(|b| inst.word >> b & 1 == 1);
            Some((s.u32_ra && ur_shown, wide))
        }
        _ => None,
    });
    let Some((with_ur, decoded_wide)) = slot else { return inst };
    let extended = inst.suffix.split('.').any(|t| t == "E");
    let mut changed = false;
    for a in &mut inst.args {
        if let Opnd::Mem { wide, ur, ur64, .. } = &mut a.o {
            if with_ur {
                // `.64`/`.U32` as decoded (`lower_inner`'s `.E` rule does not apply), UR a pair.
                *ur64 = true;
                *wide = decoded_wide;
            } else {
                if d.form.slots.iter().any(|s| s.u32_ra) {
                    // RED with bit 91 clear: the field holds no register.
                    *ur = 63;
                }
                *wide = extended || decoded_wide;
            }
            changed = true;
        }
    }
    if changed {
        inst.regs = super::hazard::regs(&inst);
    }
    inst
}

/// The width of `op`'s field when it is a signed immediate of `d`'s form.
fn signed_width(d: &Instruction, op: &Operand) -> Option<u32> {
    let i = d.operands.iter().position(|o| std::ptr::eq(o, op))?;
    match d.form.slots.get(i)?.kind {
        ptxas_rs::sass::form::Kind::Imm { width, style: ptxas_rs::sass::form::ImmStyle::SignedHex, .. }
            if (1..64).contains(&width) =>
        {
            Some(u32::from(width))
        }
        _ => None,
    }
}

fn invalid(offset: u32, word: u128, why: String) -> Inst {
    Inst {
        offset,
        word,
        kind: Kind::Invalid(why),
        guard: PArg { idx: 7, uniform: false, not: false, dst: false },
        args: Vec::new(),
        preds: Vec::new(),
        base: "?",
        suffix: String::new(),
        control: ptxas_rs::sass::Control::unpack(word),
        regs: (Vec::new(), Vec::new()),
    }
}

fn read_bank(banks: &Banks, bank: u8, off: u32) -> u64 {
    let Some(b) = banks.get(&bank) else { return 0 };
    let mut v = 0u64;
    for i in 0..8usize {
        let byte = b.get(off as usize + i).copied().unwrap_or(0);
        v |= u64::from(byte) << (8 * i);
    }
    v
}

/// Lowers one decoded instruction whose modifier suffix is `suffix`.
pub fn lower(d: &Instruction, suffix: &str, offset: u32, word: u128, banks: &Banks) -> Inst {
    match lower_inner(d, suffix, offset, banks) {
        Ok((kind, args, preds)) => {
            let guard = match d.guard.value {
                Value::P(i) => PArg { idx: i, uniform: false, not: d.guard.not, dst: false },
                Value::Up(i) => PArg { idx: i, uniform: true, not: d.guard.not, dst: false },
                _ => PArg { idx: 7, uniform: false, not: false, dst: false },
            };
            let mut i = Inst {
                offset,
                word,
                kind,
                guard,
                args,
                preds,
                base: d.form.base,
                suffix: suffix.to_string(),
                control: d.control,
                regs: (Vec::new(), Vec::new()),
            };
            i.regs = super::hazard::regs(&i);
            i
        }
        Err(why) => {
            let mut i = invalid(offset, word, format!("not implemented: {}{suffix} ({why})", d.form.base));
            i.base = d.form.base;
            i.suffix = suffix.to_string();
            i
        }
    }
}

type Lowered = (Kind, Vec<Arg>, Vec<PArg>);

fn lower_inner(d: &Instruction, suffix: &str, offset: u32, banks: &Banks) -> Result<Lowered, String> {
    let base = d.form.base;
    let toks: Vec<&str> = suffix.split('.').filter(|t| !t.is_empty()).collect();
    let has = |t: &str| toks.contains(&t);
    let is_d = matches!(base, "DADD" | "DMUL" | "DFMA" | "DSETP");
    let wide_int = matches!(base, "IADD" | "UIADD3" | "SEL" | "ISETP" | "UISETP" | "IMNMX")
        && suffix.split('.').any(|t| matches!(t, "64" | "S64" | "U64"));
    // Split operands into values and predicates, in printing order.
    let mut vals: Vec<Arg> = Vec::new();
    let mut preds: Vec<PArg> = Vec::new();
    for op in &d.operands {
        let Operand { value, neg, abs, not, sel, .. } = *op;
        let o = match value {
            Value::P(i) => {
                preds.push(PArg { idx: i, uniform: false, not, dst: false });
                continue;
            }
            Value::Up(i) => {
                preds.push(PArg { idx: i, uniform: true, not, dst: false });
                continue;
            }
            Value::R(r) => Opnd::R(r),
            Value::Ur(r) => Opnd::Ur(r),
            Value::Imm(v) => Opnd::Imm(if is_d {
                v << 32
            } else if let (true, Some(w)) = (wide_int, signed_width(d, op)) {
                // sm_120's 64-bit integer forms take a sign-extended immediate
                // (`IADD.64 R10, R6, -0x1`, `SEL.64 R10, R8, -0x1, P1`,
                // `ISETP.NE.S64.AND P0, PT, R6, -0x1, PT`).
                (((v << (64 - w)) as i64) >> (64 - w)) as u64
            } else {
                v
            }),
            Value::CBank { bank, offset: off, index } => {
                // A 16-byte constant load (`LDCU.128 UR8, c[0x0][0x380]`) does not fit an
                // immediate: it stays a load, indexed by RZ.
                let quad = matches!(base, "LDC" | "LDCU") && suffix.split('.').any(|t| t == "128");
                if index != 255 || quad {
                    // sm_100's `LDCU` indexes with a uniform register (the decoder's 8-bit
                    // field: 255 is URZ).
                    Opnd::CIdx { bank, off, reg: index, uniform: base == "LDCU" }
                } else {
                    Opnd::Imm(read_bank(banks, bank, off))
                }
            }
            // A memory operand's `sel` is its address scale (`Slot::scale`: 1 `.X4`, 2 `.X8`,
            // 3 `.X16`), not a half selector.
            Value::Mem { ra, wide, ur, offset: off, .. } => {
                let shift = if sel == 0 { 0 } else { sel + 1 };
                Opnd::Mem { ra, wide, ur, off, shift, ur64: false }
            }
            Value::Sr(s) => Opnd::Sr(s),
            Value::Target(t) => {
                // `.ABS` targets (`CALL.ABS.NOINC 0x...`) are code addresses, not offsets from
                // the next instruction (`ptxas_rs::sass::form::target_base`). A system
                // function's address (relocated into the word) is a call of the service.
                let abs_t = ptxas_rs::sass::form::target_base(suffix, u64::from(offset)) + t;
                if base == "CALL" && crate::sysfn::SysFn::at_address(abs_t as u64).is_some() {
                    vals.push(Arg { o: Opnd::Imm(abs_t as u64), neg, abs, not, n: 2, dst: false, sel });
                    continue;
                }
                if abs_t < 0 || abs_t % 16 != 0 {
                    return Err(format!("branch target {abs_t:#x} outside the section"));
                }
                Opnd::Target((abs_t / 16) as u32)
            }
            Value::B(b) => Opnd::B(b),
        };
        let sel = if matches!(o, Opnd::Mem { .. }) { 0 } else { sel };
        vals.push(Arg { o, neg, abs, not, n: 1, dst: false, sel });
    }
    // A half-precision pair immediate prints (and decodes) as two values, high half first
    // (`HFMA2.MMA R11, -RZ, RZ, 5.5, 0` is `0x45800000`, ptxas's way of moving 4096.0): one
    // 32-bit operand to the executor.
    let pair = (1..vals.len()).find(|&i| matches!((vals[i - 1].o, vals[i].o), (Opnd::Imm(_), Opnd::Imm(_))));
    if matches!(base, "HADD2" | "HMUL2" | "HFMA2" | "HMNMX2" | "HSETP2")
        && let Some(i) = pair
        && let (Opnd::Imm(hi), Opnd::Imm(lo)) = (vals[i - 1].o, vals[i].o)
    {
        vals[i - 1].o = Opnd::Imm((hi & 0xffff) << 16 | (lo & 0xffff));
        vals.remove(i);
    }
    // `.E` is a 64-bit (extended) address even where nvdisasm prints the register without
    // `.64`: the CAS form (0x3a9) prints `[R2]` yet ptxas builds the pointer in R2:R3
    // (atom_cas_fmax 0x0260–0x0300); likewise `LDG.E.MMIO.SYS R29, [R2+0x10]` and `QSPC.E.G`.
    // The generic `@!P1 LD.E.64 R12, [R14]` / `ST.E.64 [R14], R18` without a descriptor too.
    if has("E") && matches!(base, "LDG" | "ATOM" | "ATOMG" | "RED" | "REDG" | "QSPC" | "LD" | "ST") {
        for a in &mut vals {
            if let Opnd::Mem { wide, .. } = &mut a.o {
                *wide = true;
            }
        }
    }
    let uni = base.starts_with('U') && !matches!(base, "UBLKCP" | "UTMACCTL" | "USETMAXREG");
    let alu_base = if uni { &base[1..] } else { base };
    // Helpers to mark roles.
    let need = |n: usize, p: usize, vals: &Vec<Arg>, preds: &Vec<PArg>| -> Result<(), String> {
        if vals.len() < n || preds.len() < p {
            Err(format!("operand shape: {} values, {} predicates", vals.len(), preds.len()))
        } else {
            Ok(())
        }
    };
    let rnd = if has("RZ") {
        Rnd::Rz
    } else if has("RM") {
        Rnd::Rm
    } else if has("RP") {
        Rnd::Rp
    } else {
        Rnd::Rn
    };
    let int_rnd = if has("TRUNC") {
        IntRnd::Trunc
    } else if has("FLOOR") {
        IntRnd::Floor
    } else if has("CEIL") {
        IntRnd::Ceil
    } else {
        IntRnd::Rni
    };
    let bop = toks.iter().find_map(|t| BoolOp::from_token(t));
    let cmp = toks.iter().find_map(|t| Cmp::from_token(t));
    let kind = match alu_base {
        "YIELD" => Kind::Yield,
        "NOP" | "MEMBAR" | "FENCE" | "ERRBAR" | "CGAERRBAR" | "CCTL" | "NANOSLEEP" | "LDGDEPBAR" | "UTMACCTL" => {
            Kind::Nop
        }
        // `DEPBAR {5,4,3,2,1,0}`: the listed scoreboards drain (a list, no `.LE`).
        "DEPBAR" if !has("LE") => match vals.first().map(|a| a.o) {
            Some(Opnd::Imm(m)) => Kind::DepbarList(m as u8),
            _ => return Err("DEPBAR operand shape".into()),
        },
        "DEPBAR" => {
            // DEPBAR.LE SBk, n: the decoder's operand shape is not known yet; accept imms.
            let sb = vals.first().and_then(|a| if let Opnd::Imm(v) = a.o { Some(v as u8) } else { None });
            let n = vals.get(1).and_then(|a| if let Opnd::Imm(v) = a.o { Some(v as u8) } else { None });
            match (sb, n) {
                (Some(s), Some(n)) => Kind::Depbar(s, n),
                _ => return Err("DEPBAR operand shape".into()),
            }
        }
        "IADD3" | "IADD" if has("64") => {
            // IADD.64: d, a, b with a carry-out and a carry-in; UIADD3.64: d, a, b, c with two.
            let srcs = if alu_base == "IADD" { 2 } else { 3 };
            need(1 + srcs, 2 * (srcs - 1), &vals, &preds)?;
            vals.truncate(1 + srcs);
            preds.truncate(2 * (srcs - 1));
            for a in &mut vals {
                a.n = 2;
            }
            vals[0].dst = true;
            for p in &mut preds[..srcs - 1] {
                p.dst = true;
            }
            Kind::Iadd64 { x: has("X") }
        }
        "IADD3" => {
            need(4, 4, &vals, &preds)?;
            vals[0].dst = true;
            preds[0].dst = true;
            preds[1].dst = true;
            Kind::Iadd3 { x: has("X") }
        }
        "IMAD" => {
            // UIMAD has no carry predicates: a write to PT and a false carry-in stand for them.
            if uni && preds.is_empty() {
                preds.push(PArg { idx: 7, uniform: true, not: false, dst: false });
                preds.push(PArg { idx: 7, uniform: true, not: true, dst: false });
            }
            // The sm_80 family's UIMAD with an immediate C has a carry-in predicate (shown with
            // `.X`) and no carry-out: a write to UPT stands for the latter.
            if uni && preds.len() == 1 {
                preds.insert(0, PArg { idx: 7, uniform: true, not: false, dst: false });
            }
            need(4, 2, &vals, &preds)?;
            let wide = has("WIDE");
            let hi = has("HI");
            vals[0].dst = true;
            if wide {
                vals[0].n = 2;
            }
            if wide || hi {
                vals[3].n = 2;
            }
            preds[0].dst = true;
            Kind::Imad { wide, hi, signed: !has("U32"), x: has("X") }
        }
        "LEA" => {
            need(5, 2, &vals, &preds)?;
            vals[0].dst = true;
            preds[0].dst = true;
            Kind::Lea { hi: has("HI"), x: has("X"), sx32: has("SX32") }
        }
        "LOP3" => {
            need(5, 2, &vals, &preds)?;
            vals[0].dst = true;
            preds[0].dst = true;
            Kind::Lop3
        }
        "PLOP3" if vals.len() == 5 && preds.len() == 2 => {
            // B may be a constant (0xa1f: `c[0x2] [0x0].SIGN`, read as an immediate here).
            // Or a uniform register (0xc1f: `UR6.SIGN`).
            if !vals[..3]
                .iter()
                .enumerate()
                .all(|(i, a)| matches!(a.o, Opnd::R(_)) || (i == 1 && matches!(a.o, Opnd::Imm(_) | Opnd::Ur(_))))
            {
                return Err("PLOP3 register operands".into());
            }
            preds[0].dst = true;
            preds[1].dst = true;
            Kind::Plop3Sign
        }
        "PLOP3" => {
            need(2, 5, &vals, &preds)?;
            preds[0].dst = true;
            preds[1].dst = true;
            Kind::Plop3
        }
        "SHF" => {
            need(4, 0, &vals, &preds)?;
            vals[0].dst = true;
            let ty = if has("S64") {
                ShfType::S64
            } else if has("U64") {
                ShfType::U64
            } else if has("S32") {
                ShfType::S32
            } else {
                ShfType::U32
            };
            Kind::Shf { left: has("L"), wrap: has("W"), ty, hi: has("HI") }
        }
        "ISETP" => {
            need(2, 3, &vals, &preds)?;
            preds[0].dst = true;
            preds[1].dst = true;
            let ex = has("EX");
            if ex && preds.len() < 4 {
                return Err("ISETP.EX without a chained predicate".into());
            }
            let wide = has("U64") || has("S64");
            if wide {
                vals[..2].iter_mut().for_each(|a| a.n = 2);
            }
            Kind::Isetp {
                cmp: cmp.ok_or("no comparison")?,
                signed: !(has("U32") || has("U64")),
                wide,
                bop: bop.ok_or("no combiner")?,
                ex,
            }
        }
        "FSETP" => {
            need(2, 3, &vals, &preds)?;
            preds[0].dst = true;
            preds[1].dst = true;
            Kind::Fsetp { cmp: cmp.ok_or("no comparison")?, ftz: has("FTZ"), bop: bop.ok_or("no combiner")? }
        }
        "FSET" => {
            if let Some(t) = toks.iter().find(|t| {
                !matches!(**t, "BF" | "FTZ") && Cmp::from_token(t).is_none() && BoolOp::from_token(t).is_none()
            }) {
                return Err(format!("FSET modifier .{t}"));
            }
            need(3, 1, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Fset {
                cmp: cmp.ok_or("no comparison")?,
                ftz: has("FTZ"),
                bop: bop.ok_or("no combiner")?,
                bf: has("BF"),
            }
        }
        "DSETP" => {
            need(2, 3, &vals, &preds)?;
            preds[0].dst = true;
            preds[1].dst = true;
            vals[0].n = 2;
            vals[1].n = 2;
            if has("MIN") || has("MAX") {
                return Ok((Kind::DsetpMinMax { min: has("MIN"), bop: bop.ok_or("no combiner")? }, vals, preds));
            }
            Kind::Dsetp { cmp: cmp.ok_or("no comparison")?, bop: bop.ok_or("no combiner")? }
        }
        "SEL" | "FSEL" => {
            need(3, 1, &vals, &preds)?;
            vals[0].dst = true;
            if has("64") {
                vals[..3].iter_mut().for_each(|a| a.n = 2);
            }
            Kind::Sel
        }
        "MOV" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            if has("64") {
                vals[..2].iter_mut().for_each(|a| a.n = 2);
            }
            Kind::Mov
        }
        "VIADD" => {
            need(3, 0, &vals, &preds)?;
            vals[0].dst = true;
            let (lanes, sat) = match toks.as_slice() {
                [] => (1, false),
                ["16x2"] => (2, false),
                ["U8x4"] => (4, false),
                ["S32", "ISAT"] => (1, true),
                _ => return Err(format!("VIADD{suffix}")),
            };
            // `-` is modelled (`sub.sat.s32`: `VIADD.S32.ISAT d, a, -b`); `~` is not.
            if sat && vals[1..3].iter().any(|a| a.not) {
                return Err("VIADD.S32.ISAT with a complemented operand".into());
            }
            Kind::Viadd { lanes, sat }
        }
        "IABS" | "POPC" | "BREV" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            match alu_base {
                "IABS" => Kind::Iabs,
                "POPC" => Kind::Popc,
                _ => Kind::Brev,
            }
        }
        "FLO" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            // Signed is the default form: nvdisasm prints `.U32` for unsigned (`bfind.s32` is plain FLO).
            Kind::Flo { signed: !has("U32"), sh: has("SH") }
        }
        "PRMT" => {
            need(4, 0, &vals, &preds)?;
            vals[0].dst = true;
            let mode = match toks.first().copied() {
                None => None,
                Some(t) => Some(super::alu::PrmtMode::from_token(t).ok_or_else(|| format!("PRMT mode .{t}"))?),
            };
            Kind::Prmt { mode }
        }
        "IMNMX" | "VIMNMX" => {
            // sm_100's VIMNMX has two predicate results before its sources
            // (`VIMNMX.U32 R5, PT, PT, R4, 0x100, !PT`), always `PT` in NVIDIA's code; what
            // they would receive is not known, so only that form is accepted.
            // sm_120's 64-bit form also has them, and a last predicate, `!PT` in NVIDIA's code
            // (`IMNMX.S64 PT, PT, R12, R2, R12, PT, !PT`), whose meaning is not known either.
            if preds.len() == 4 {
                if !(preds[3].idx == 7 && preds[3].not) {
                    return Err("IMNMX last predicate".into());
                }
                preds.truncate(3);
            }
            if preds.len() == 3 {
                if preds[..2].iter().any(|p| p.idx != 7 || p.not) {
                    return Err("IMNMX predicate results".into());
                }
                preds.drain(..2);
            }
            need(3, 1, &vals, &preds)?;
            vals[0].dst = true;
            let wide = has("S64") || has("U64");
            if wide {
                vals[..3].iter_mut().for_each(|a| a.n = 2);
            }
            let relu = has("RELU");
            let toks: Vec<&str> = toks.iter().copied().filter(|t| *t != "RELU").collect();
            let (signed, lanes) = match toks.as_slice() {
                [] | ["S32"] | ["S64"] => (true, 1),
                ["U32"] | ["U64"] => (false, 1),
                ["S16x2"] => (true, 2),
                ["U16x2"] => (false, 2),
                ["S8x4"] => (true, 4),
                ["U8x4"] => (false, 4),
                _ => return Err(format!("IMNMX{suffix}")),
            };
            if relu && (wide || !signed) {
                return Err(format!("IMNMX{suffix}"));
            }
            Kind::Imnmx { signed, lanes, wide, relu }
        }
        "VIADDMNMX" => {
            need(4, 1, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Viaddmnmx { signed: !has("U32") }
        }
        "I2IP" => {
            need(4, 0, &vals, &preds)?;
            vals[0].dst = true;
            let (bits, signed) = match () {
                _ if has("U16") => (16, false),
                _ if has("S16") => (16, true),
                _ if has("U8") => (8, false),
                _ if has("S8") => (8, true),
                _ if has("U4") => (4, false),
                _ if has("S4") => (4, true),
                _ if has("U2") => (2, false),
                _ if has("S2") => (2, true),
                _ => return Err(format!("I2IP{suffix}: unsupported destination type")),
            };
            if !has("S32") || !has("SAT") {
                return Err(format!("I2IP{suffix}: only `.S32.SAT` is modelled"));
            }
            // C's selector: ptxas sets `.24` (2) on the 4-bit forms and `.28` (3) on the 2-bit
            // ones (C shifted above the two fields); other pairings (`.H1`) are not modelled.
            let want_sel = match bits {
                4 => 2,
                2 => 3,
                _ => 0,
            };
            if vals[3].sel != want_sel {
                return Err(format!("I2IP{suffix}: C selector {} is not modelled", vals[3].sel));
            }
            Kind::I2ip { bits, signed }
        }
        "SGXT" => {
            need(3, 0, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Sgxt { unsigned: has("U32"), wrap: has("W") }
        }
        "BMSK" => {
            need(3, 0, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Bmsk { wrap: has("W") }
        }
        "FADD" | "FMUL" | "FFMA" => {
            let op = match alu_base {
                "FADD" => 0,
                "FMUL" => 1,
                _ => 2,
            };
            need(if op == 2 { 4 } else { 3 }, 0, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Fp32 { op, rnd, ftz: has("FTZ"), sat: has("SAT") }
        }
        "DADD" | "DMUL" | "DFMA" => {
            let op = match alu_base {
                "DADD" => 0,
                "DMUL" => 1,
                _ => 2,
            };
            need(if op == 2 { 4 } else { 3 }, 0, &vals, &preds)?;
            vals[0].dst = true;
            for a in vals.iter_mut() {
                a.n = 2;
            }
            Kind::Fp64 { op, rnd }
        }
        "FMNMX" => {
            if let Some(t) = toks.iter().find(|t| !matches!(**t, "FTZ" | "NAN" | "XORSIGN")) {
                return Err(format!("FMNMX modifier .{t}"));
            }
            need(3, 1, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Fmnmx { ftz: has("FTZ"), nan: has("NAN"), xorsign: has("XORSIGN") }
        }
        "MUFU" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            let f = toks.first().and_then(|t| MufuFn::from_token(t)).ok_or("MUFU function")?;
            if toks.len() == 2 && toks[1] == "F16" && matches!(f, MufuFn::Ex2 | MufuFn::Tanh) {
                return Ok((Kind::MufuF16(f), vals, preds));
            }
            if toks.iter().any(|t| *t == "F16" || *t == "BF16") {
                return Err("MUFU on f16".into());
            }
            Kind::Mufu(f)
        }
        "F2I" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            let dst = toks.iter().find_map(|t| IntTy::from_token(t)).unwrap_or(IntTy::S32);
            let src64 = has("F64");
            if dst.bits() == 64 {
                vals[0].n = 2;
            }
            if src64 {
                vals[1].n = 2;
            }
            if toks.contains(&"F16") {
                return Ok((Kind::F2iF16 { dst, rnd: int_rnd }, vals, preds));
            }
            Kind::F2i { dst, src64, rnd: int_rnd, ftz: has("FTZ"), ntz: has("NTZ") }
        }
        "I2F" | "I2FP" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            let src = toks.iter().find_map(|t| IntTy::from_token(t)).unwrap_or(IntTy::S32);
            let dst64 = has("F64");
            // `I2F.F16`/`I2F.BF16`: a 16-bit source may be the high half (`R14.H1`, selector 1).
            if toks.iter().any(|t| *t == "F16" || *t == "BF16") {
                if src.bits() == 64 {
                    vals[1].n = 2;
                }
                if vals[1].sel == 1 && src.bits() != 16 {
                    return Err("I2F half selector on a source wider than 16 bits".into());
                }
                return Ok((Kind::I2fF16 { src, rnd, bf16: toks.contains(&"BF16") }, vals, preds));
            }
            if dst64 {
                vals[0].n = 2;
            }
            if src.bits() == 64 {
                vals[1].n = 2;
            }
            Kind::I2f { src, dst64, rnd }
        }
        "F2F" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            let types: Vec<&str> =
                toks.iter().copied().filter(|t| matches!(*t, "F16" | "F32" | "F64" | "BF16")).collect();
            let (to, from) = match types.as_slice() {
                [a, b] => (*a, *b),
                _ => return Err("F2F types".into()),
            };
            let (to64, to16, from16) = match (to, from) {
                ("F64", "F32") => (true, false, false),
                ("F32", "F64") => (false, false, false),
                ("F16" | "BF16", "F32" | "F64") => (false, true, false),
                ("F32" | "F64", "F16") => (to == "F64", false, true),
                _ => return Err(format!("F2F.{to}.{from}")),
            };
            let (bf16, from64) = (to == "BF16", from == "F64");
            if to64 {
                vals[0].n = 2;
            }
            if from == "F64" {
                vals[1].n = 2;
            }
            Kind::F2f { to64, to16, bf16, from64, from16, rnd, ftz: has("FTZ") }
        }
        "I2I" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            let tys: Vec<IntTy> = toks.iter().filter_map(|t| IntTy::from_token(t)).collect();
            let (dst, src) = match tys[..] {
                [d, s] => (d, s),
                [d] => (d, IntTy::S32),
                _ => return Err("I2I types".into()),
            };
            if dst.bits() == 64 || src.bits() == 64 {
                return Err("I2I with a 64-bit type".into());
            }
            Kind::I2i { dst, src, sat: has("SAT") }
        }
        "FRND" => {
            need(2, 0, &vals, &preds)?;
            let f64 = has("F64");
            if f64 {
                vals[0].n = 2;
                vals[1].n = 2;
            }
            vals[0].dst = true;
            let f16 = has("F16");
            if (f16 || f64) && has("FTZ") {
                return Err("FRND.FTZ on f16/f64".into());
            }
            if vals[1].sel == 1 && !f16 {
                return Err("FRND half selector without .F16".into());
            }
            Kind::Frnd { rnd: int_rnd, ftz: has("FTZ"), f64, f16 }
        }
        "HADD2" if has("F32") => {
            // The plain and `.SAT` forms are modelled (`.F32.FTZ` is not calibrated).
            if let Some(t) = toks.iter().find(|t| !matches!(**t, "F32" | "SAT")) {
                return Err(format!("HADD2.F32 with .{t}"));
            }
            if vals.iter().any(|a| a.sel == 1) {
                return Err("half selector 1".into());
            }
            need(3, 0, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Hadd2F32 { sat: has("SAT") }
        }
        "HADD2" | "HMUL2" | "HFMA2" | "HMNMX2" | "HSETP2" => {
            // `NAN` is HMNMX2's NaN propagation, a comparison only on HSETP2.
            let known = ["MMA", "BF16_V2", "FTZ", "SAT", "RELU", "AND", "OR", "XOR"];
            let is_xorsign = |t: &str| alu_base == "HMNMX2" && t == "XORSIGN";
            let is_cmp = |t: &str| alu_base == "HSETP2" && Cmp::from_token(t).is_some();
            let is_nan = |t: &str| alu_base == "HMNMX2" && t == "NAN";
            if let Some(t) = toks.iter().find(|t| !known.contains(t) && !is_cmp(t) && !is_nan(t) && !is_xorsign(t)) {
                return Err(format!("half-precision modifier .{t}"));
            }
            // Selector 1 is an f32 source (`R6.F32`: see `exec::hmod`), modelled on the adds,
            // products and fused products (ptxas's sm_75 code has it on `HADD2`).
            if vals.iter().any(|a| a.sel == 1) && !matches!(alu_base, "HADD2" | "HMUL2" | "HFMA2") {
                return Err("half selector 1".into());
            }
            let m = super::alu::HalfMods {
                bf16: has("BF16_V2"),
                ftz: has("FTZ"),
                sat: has("SAT"),
                relu: has("RELU"),
                nan: alu_base == "HMNMX2" && has("NAN"),
                xorsign: alu_base == "HMNMX2" && has("XORSIGN"),
            };
            if alu_base == "HSETP2" {
                need(2, 3, &vals, &preds)?;
                preds[0].dst = true;
                preds[1].dst = true;
                Kind::Hsetp2 { cmp: cmp.ok_or("HSETP2 comparison")?, bop: bop.ok_or("HSETP2 combiner")?, m }
            } else {
                let op = match alu_base {
                    "HADD2" => 0,
                    "HMUL2" => 1,
                    "HFMA2" => 2,
                    _ => 3,
                };
                // HFMA2's predicate operand is printed only with `.RELU` (nvdisasm hides it
                // otherwise: `HFMA2 R5, R17, R5, R22` decodes with P0 there); it is not modelled
                // with `.RELU`, and has no effect without.
                if op == 2 {
                    if has("RELU") && preds.iter().any(|p| p.idx != 7 || p.not) {
                        return Err("HFMA2.RELU with a predicate operand".into());
                    }
                    preds.clear();
                }
                need(if op == 2 { 4 } else { 3 }, usize::from(op == 3), &vals, &preds)?;
                vals[0].dst = true;
                Kind::H2 { op, m }
            }
        }
        "FCHK" => {
            need(2, 1, &vals, &preds)?;
            preds[0].dst = true;
            Kind::Fchk
        }
        "S2R" | "S2UR" | "CS2R" | "CS2UR" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            // sm_120's CS2UR is CS2R into a uniform register pair.
            if matches!(alu_base, "CS2R" | "CS2UR") && !has("32") {
                vals[0].n = 2;
            }
            Kind::S2r
        }
        "R2UR" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            if has("64") {
                vals[0].n = 2;
                vals[1].n = 2;
            }
            // `R2UR P, URd, Rs`: P tells whether Rs was the same in every active lane.
            if let Some(p) = preds.first_mut() {
                p.dst = true;
            }
            Kind::R2ur
        }
        "P2R" => {
            need(3, 0, &vals, &preds)?;
            vals[0].dst = true;
            Kind::P2r
        }
        "R2P" => {
            need(2, 0, &vals, &preds)?;
            Kind::R2p
        }
        "LDC" | "LDCU" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            let (size, signed) = width(&toks);
            vals[0].n = size.div_ceil(4) as u8;
            Kind::Ldc { size, signed }
        }
        "LDG" | "LDS" | "LDL" | "LD" => {
            // Drop a leading predicate (LDG's optional predicate output is not modelled).
            let di = vals.iter().position(|a| matches!(a.o, Opnd::R(_))).ok_or("no destination")?;
            let mi = vals.iter().position(|a| matches!(a.o, Opnd::Mem { .. })).ok_or("no address")?;
            if di > mi {
                return Err("operand order".into());
            }
            let (size, signed) = width(&toks);
            vals[di].dst = true;
            vals[di].n = size.div_ceil(4) as u8;
            if di != 0 {
                vals.swap(0, di);
            }
            let mi = vals.iter().position(|a| matches!(a.o, Opnd::Mem { .. })).ok_or("no address")?;
            vals.swap(1, mi);
            vals.truncate(2);
            preds.clear();
            Kind::Ld { space: space_of(alu_base), size, signed }
        }
        "STG" | "STS" | "STL" | "ST" => {
            need(2, 0, &vals, &preds)?;
            let (size, _) = width(&toks);
            if !matches!(vals[0].o, Opnd::Mem { .. }) {
                return Err("operand order".into());
            }
            vals[1].n = size.div_ceil(4) as u8;
            Kind::St { space: space_of(alu_base), size }
        }
        "ATOMS" if has("ARRIVE") => {
            if suffix != ".ARRIVE.64" {
                return Err(format!("ATOMS{suffix}"));
            }
            need(2, 0, &vals, &preds)?;
            if !matches!(vals[1].o, Opnd::Mem { .. }) {
                return Err("ATOMS.ARRIVE without an address".into());
            }
            vals[0].dst = true;
            vals[0].n = 2;
            Kind::MbarArrive80
        }
        "ATOM" | "ATOMG" | "ATOMS" | "RED" | "REDG" => {
            // `ATOMS.POPC.INC.32 Rd, [a]`: each active lane adds one (the hardware counts the
            // lanes per address; algo_histogram's shared `atomicAdd(&bin, 1)`).
            if has("POPC") && has("INC") {
                vals.push(Arg { o: Opnd::Imm(1), neg: false, abs: false, not: false, n: 1, dst: false, sel: 0 });
            }
            let popc_inc = has("POPC") && has("INC");
            let op = toks
                .iter()
                .find_map(|t| {
                    Some(match *t {
                        "ADD" => AtomOp::Add,
                        "MIN" => AtomOp::Min,
                        "MAX" => AtomOp::Max,
                        "INC" => AtomOp::Inc,
                        "DEC" => AtomOp::Dec,
                        "AND" => AtomOp::And,
                        "OR" => AtomOp::Or,
                        "XOR" => AtomOp::Xor,
                        "EXCH" => AtomOp::Exch,
                        "CAS" => AtomOp::Cas,
                        "CAST" if has("SPIN") => AtomOp::CasSpin,
                        _ => return None,
                    })
                })
                .ok_or("atomic operation")?;
            let op = if popc_inc { AtomOp::Add } else { op };
            let ty = if has("F16x2") || has("BF16x2") {
                if op != AtomOp::Add || !has("RN") {
                    return Err(format!("packed half atomic{suffix}"));
                }
                AtomTy::F16x2 { bf16: has("BF16x2") }
            } else if has("F32") {
                AtomTy::F32
            } else if has("F64") {
                AtomTy::F64
            } else if has("S64") {
                AtomTy::S64
            } else if has("64") || has("U64") {
                AtomTy::U64
            } else if has("S32") {
                AtomTy::S32
            } else {
                AtomTy::U32
            };
            if has("F16") {
                return Err("f16 atomics".into());
            }
            if has("128") {
                return Err(format!("128-bit atomic{suffix}"));
            }
            let n = if matches!(ty, AtomTy::U64 | AtomTy::S64 | AtomTy::F64) { 2 } else { 1 };
            let mi = vals.iter().position(|a| matches!(a.o, Opnd::Mem { .. })).ok_or("no address")?;
            let ret = mi > 0;
            if ret {
                vals[0].dst = true;
                vals[0].n = n;
                if mi != 1 {
                    return Err("operand order".into());
                }
            }
            let srcs = vals.len() - mi - 1;
            if srcs < if matches!(op, AtomOp::Cas | AtomOp::CasSpin) { 2 } else { 1 } {
                return Err("atomic sources".into());
            }
            for a in vals.iter_mut().skip(mi + 1) {
                a.n = n;
            }
            // Normalise to [dst?, mem, b, c?] with dst always present (RZ when not returning).
            if !ret {
                vals.insert(0, Arg { o: Opnd::R(255), neg: false, abs: false, not: false, n, dst: true, sel: 0 });
            }
            // sm_100's `ATOMS.CAST.SPIN[.64] P1, [R10], R2, R3` gives its success flag in a
            // predicate (sm_90's in a register, see `AtomOp::CasSpin`).
            // sm_90's generic `ATOM.E.ADD.F32 P0, Rd, ...` (and the other float and 64-bit generic
            // forms) report in P0 whether the operation was performed; ptxas branches to a
            // shared/local fallback when not. Every window's atomic is performed here, so P0 is
            // set (for every executing lane) and the fallback skipped: the same memory state.
            match (op, preds.first_mut()) {
                (AtomOp::CasSpin, Some(p)) if !ret => {
                    p.dst = true;
                    preds.truncate(1);
                }
                (_, Some(p)) if alu_base == "ATOM" && op != AtomOp::CasSpin => {
                    p.dst = true;
                    preds.truncate(1);
                }
                _ => preds.clear(),
            }
            Kind::Atom { space: space_of(alu_base), op, ty, ret }
        }
        "SHFL" => {
            need(4, 0, &vals, &preds)?;
            vals[0].dst = true;
            if let Some(p) = preds.first_mut() {
                p.dst = true;
            }
            let m = if has("IDX") {
                ShflMode::Idx
            } else if has("UP") {
                ShflMode::Up
            } else if has("DOWN") {
                ShflMode::Down
            } else if has("BFLY") {
                ShflMode::Bfly
            } else {
                return Err("SHFL mode".into());
            };
            Kind::Shfl(m)
        }
        "VOTE" | "VOTEU" => {
            let m = if has("ALL") {
                0
            } else if has("ANY") {
                1
            } else if has("EQ") {
                2
            } else {
                return Err("VOTE mode".into());
            };
            if preds.len() < 2 {
                return Err("VOTE shape".into());
            }
            if let Some(a) = vals.first_mut() {
                a.dst = true;
            }
            preds[0].dst = true;
            Kind::Vote(m)
        }
        "MATCH" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            if has("U64") || has("64") {
                vals[1].n = 2;
            }
            if let Some(p) = preds.first_mut() {
                p.dst = true;
            }
            Kind::Match { all: has("ALL") }
        }
        // sm_100's `CREDUX.{MIN,MAX}[.S32] URd, Ra`: the min/max `REDUX` of a fixed-latency
        // unit (see `hazard::CREDUX_LATENCY`).
        "REDUX" | "CREDUX" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            let op = if has("SUM") {
                0
            } else if has("MIN") {
                1
            } else if has("MAX") {
                2
            } else if has("AND") {
                3
            } else if has("OR") {
                4
            } else if has("XOR") {
                5
            } else {
                // No operation printed: the AND form (`redux.sync.and.b32` compiles to plain
                // `REDUX`; nvdisasm prints `.SUM` for the sum).
                3
            };
            Kind::Redux { op, signed: has("S32") }
        }
        "BRA" => {
            if !vals.iter().any(|a| matches!(a.o, Opnd::Target(_))) {
                return Err("BRA without a target".into());
            }
            let t = vals.iter().position(|a| matches!(a.o, Opnd::Target(_))).unwrap_or(0);
            vals.swap(0, t);
            // `@P1 BRA P2, L`: the operand predicates are AND-ed with the guard (sm_100's
            // `BRA.U UP0, L` has a hidden `PT` before its uniform predicate).
            preds.truncate(2);
            Kind::Bra { div: has("DIV"), any: has("ANY") }
        }
        // `BRXU URa off` (sm_100/sm_120): BRX through a uniform register.
        "BRX" | "BRXU" => {
            if has("INC") || has("DEC") {
                return Err(format!("{base} .INC/.DEC"));
            }
            need(1, 0, &vals, &preds)?;
            Kind::Brx
        }
        "CALL" if has("ABS") && vals.iter().any(|a| matches!(a.o, Opnd::R(_) | Opnd::Imm(_))) => {
            let r =
                vals.iter().position(|a| matches!(a.o, Opnd::R(_) | Opnd::Imm(_))).ok_or("CALL without a register")?;
            vals.swap(0, r);
            Kind::CallAbs
        }
        "BPT" if has("TRAP") => Kind::Trap,
        // `pmevent`: a performance-monitor trigger, no architectural effect.
        "PMTRIG" => Kind::Nop,
        "USETMAXREG" if has("DEALLOC") => Kind::Nop,
        "USETMAXREG" if has("TRY_ALLOC") => {
            need(0, 1, &vals, &preds)?;
            preds[0].dst = true;
            Kind::SetMaxRegAlloc
        }
        "LEPC" => {
            need(2, 0, &vals, &preds)?;
            Kind::Lepc
        }
        // `griddepcontrol.wait` / `.launch_dependents`: a single launch has no prerequisite grid
        // to wait for and no dependent grid to release (see `crate::ori_exec`'s `Griddep`).
        "ACQBULK" | "PREEXIT" => Kind::Nop,
        "CALL" => {
            // `CALL.ABS.NOINC target`: the driver relocated the callee's code address into the
            // word (`super::image`); it lowers to the same jump as `CALL.REL`.
            let abs_target = vals.iter().position(|a| matches!(a.o, Opnd::Target(_))).filter(|_| has("ABS"));
            if let Some(t) = abs_target {
                vals.swap(0, t);
                Kind::Call
            } else if !has("REL") {
                return Err("only CALL.REL and CALL.ABS to an immediate target are modelled".into());
            } else if let Some(r) = vals.iter().position(|a| matches!(a.o, Opnd::R(_))) {
                // `CALL.REL.NOINC Ra off`: an indirect call (function pointers are code
                // addresses, as return addresses are).
                vals.swap(0, r);
                Kind::CallReg
            } else {
                let t = vals.iter().position(|a| matches!(a.o, Opnd::Target(_))).ok_or("CALL without a target")?;
                vals.swap(0, t);
                Kind::Call
            }
        }
        "RET" => {
            let r = vals.iter().position(|a| matches!(a.o, Opnd::R(_))).ok_or("RET without a register")?;
            vals.swap(0, r);
            Kind::Ret
        }
        "EXIT" => {
            preds.truncate(1);
            Kind::Exit
        }
        "BSSY" => {
            need(2, 0, &vals, &preds)?;
            Kind::Bssy
        }
        "BSYNC" | "BREAK" => {
            need(1, 0, &vals, &preds)?;
            preds.clear();
            if alu_base == "BSYNC" { Kind::Bsync } else { Kind::Break }
        }
        "BMOV" => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Bmov { clear: has("CLEAR") }
        }
        // `WARPSYNC.COLLECTIVE Rm, L` ... `ENDCOLLECTIVE` (ptxas's slow path of a warp collective
        // under a non-constant mask): the lanes of Rm converge as at `WARPSYNC Rm`, run the region
        // together and go on at L, which [`Program::with_suffixes`] checks is the instruction
        // after the region's `ENDCOLLECTIVE`. The notes are silent; this is the reading under
        // which every corpus use (L right after `ENDCOLLECTIVE`) computes the PTX collective.
        "WARPSYNC" => {
            // The target follows the mask register (`WARPSYNC.COLLECTIVE R15, L`), or stands
            // alone under `.ALL` (`WARPSYNC.COLLECTIVE.ALL L`, nvcc -G's cooperative groups).
            let at = if has("ALL") { 0 } else { 1 };
            if has("COLLECTIVE") && !matches!(vals.get(at).map(|a| a.o), Some(Opnd::Target(_))) {
                return Err("WARPSYNC.COLLECTIVE without a target".into());
            }
            // A collective region runs for the lanes of one mask at a time: each tile's `VOTE`
            // sees its own lanes (nvcc -G's `__ballot_sync` over a 16-lane tile mask in
            // cg_tiled_reduce, which the interpreter and NVIDIA's -O3 code give per tile). A plain
            // `WARPSYNC Rm` keeps a strand that arrived whole together (see `exec`).
            let collective = has("COLLECTIVE") && !has("ALL");
            Kind::Warpsync { all: has("ALL"), exclusive: has("EXCLUSIVE") || collective }
        }
        "ENDCOLLECTIVE" => Kind::Nop,
        "HSET2" => {
            need(3, 1, &vals, &preds)?;
            if let Some(t) = toks.iter().find(|t| {
                !matches!(**t, "BF" | "BF16_V2" | "FTZ")
                    && Cmp::from_token(t).is_none()
                    && BoolOp::from_token(t).is_none()
            }) {
                return Err(format!("HSET2 .{t}"));
            }
            if vals.iter().any(|a| a.sel == 1) {
                return Err("half selector 1".into());
            }
            vals[0].dst = true;
            let m = super::alu::HalfMods { bf16: has("BF16_V2"), ftz: has("FTZ"), ..Default::default() };
            Kind::Hset2 { cmp: cmp.ok_or("HSET2 comparison")?, bop: bop.ok_or("HSET2 combiner")?, one: has("BF"), m }
        }
        "LDGSTS" => {
            if vals.len() != 2 || !vals.iter().all(|a| matches!(a.o, Opnd::Mem { .. })) {
                return Err("LDGSTS operand shape".into());
            }
            if let Some(t) = toks
                .iter()
                .find(|t| !matches!(**t, "E" | "BYPASS" | "64" | "128" | "LTC128B" | "LTC64B" | "LTC256B" | "ZFILL"))
            {
                return Err(format!("LDGSTS .{t}"));
            }
            let (size, _) = width(&toks);
            if preds.is_empty() {
                preds.push(PArg { idx: 7, uniform: false, not: false, dst: false });
            }
            Kind::Ldgsts { size, zfill: has("ZFILL") }
        }
        "SULD" | "SUST" if has("D") && has("BA") => {
            use crate::texture::{Clamp, Geom};
            need(4, 0, &vals, &preds)?;
            let geom = if has("1D_ARRAY") {
                Geom::A1
            } else if has("2D_ARRAY") {
                Geom::A2
            } else if has("1D") {
                Geom::D1
            } else if has("2D") {
                Geom::D2
            } else if has("3D") {
                Geom::D3
            } else {
                return Err(format!("{base}{suffix}: geometry"));
            };
            let bytes: i32 = if has("U8") {
                1
            } else if has("S8") {
                -1
            } else if has("U16") {
                2
            } else if has("S16") {
                -2
            } else if has("64") {
                8
            } else if has("128") {
                16
            } else {
                4
            };
            let clamp = if has("TRAP") {
                Clamp::Trap
            } else if has("IGN") {
                Clamp::Zero
            } else {
                Clamp::Clamp
            };
            let store = base == "SUST";
            let data = usize::from(store);
            vals[data].n = (bytes.unsigned_abs() as u8).div_ceil(4);
            vals[0].dst = !store;
            Kind::Surface { store, geom, bytes, clamp }
        }
        "MOVM" if has("16") && has("MT88") => {
            need(2, 0, &vals, &preds)?;
            vals[0].dst = true;
            Kind::Movm
        }
        "LDSM" => {
            need(2, 0, &vals, &preds)?;
            let n = if has("4") {
                4
            } else if has("2") {
                2
            } else {
                1
            };
            if !has("16") || !(has("M88") || has("MT88")) {
                return Err(format!("LDSM{suffix}"));
            }
            if !matches!(vals[1].o, Opnd::Mem { .. }) {
                return Err("LDSM operand order".into());
            }
            vals[0].dst = true;
            vals[0].n = n;
            Kind::Ldsm { n, trans: has("MT88") }
        }
        "STSM" => {
            need(2, 0, &vals, &preds)?;
            let n = if has("4") {
                4
            } else if has("2") {
                2
            } else {
                1
            };
            if !has("16") || !(has("M88") || has("MT88")) {
                return Err(format!("STSM{suffix}"));
            }
            if !matches!(vals[0].o, Opnd::Mem { .. }) {
                return Err("STSM operand order".into());
            }
            vals[1].n = n;
            Kind::Stsm { n, trans: has("MT88") }
        }
        "HMMA" => {
            need(4, 0, &vals, &preds)?;
            let (k, ab) = match (toks.first().copied(), has("BF16"), has("TF32")) {
                (Some("16816"), false, false) => (16, super::alu::MmaType::F16),
                (Some("16816"), true, false) => (16, super::alu::MmaType::Bf16),
                (Some("1688"), false, false) => (8, super::alu::MmaType::F16),
                (Some("1688"), true, false) => (8, super::alu::MmaType::Bf16),
                (Some("1684"), false, true) => (4, super::alu::MmaType::Tf32),
                (Some("1688"), false, true) => (8, super::alu::MmaType::Tf32),
                _ => return Err(format!("HMMA{suffix}")),
            };
            if !has("F32") {
                return Err("HMMA with f16 accumulators".into());
            }
            // Registers per lane: a holds 16*k elements over 32 lanes, b 8*k, c and d 4 f32s.
            let bits = if ab == super::alu::MmaType::Tf32 { 32 } else { 16 };
            let regs = |elems: u32| (elems * bits / 32 / 32) as u8;
            vals[0].dst = true;
            vals[0].n = 4;
            vals[1].n = regs(16 * u32::from(k));
            vals[2].n = regs(8 * u32::from(k));
            vals[3].n = 4;
            Kind::Hmma { k, ab }
        }
        "WARPGROUP" if has("ARRIVE") && toks.len() == 1 => Kind::WarpgroupArrive,
        "WARPGROUP" if has("DEPBAR") && has("LE") && toks.len() == 2 => match vals.first().map(|a| a.o) {
            Some(Opnd::Imm(n)) => Kind::WarpgroupDepbar(n as u8),
            _ => return Err("WARPGROUP.DEPBAR operand shape".into()),
        },
        "HGMMA" | "IGMMA" | "QGMMA" => {
            let form = super::gmma_form::form_of(base, &toks, &vals)?;
            let shape_ok = match (form.a_regs, vals.as_slice()) {
                (false, [d, q, c, g]) => {
                    matches!((d.o, q.o, c.o, g.o), (Opnd::R(_), Opnd::Ur(_), Opnd::R(_), Opnd::Imm(_)))
                }
                (true, [d, a, q, c, g]) => {
                    matches!((d.o, a.o, q.o, c.o, g.o), (Opnd::R(_), Opnd::R(_), Opnd::Ur(_), Opnd::R(_), Opnd::Imm(_)))
                }
                _ => false,
            };
            if !shape_ok || preds.len() != 1 {
                return Err(format!("{base} operand shape"));
            }
            let Some(Opnd::Imm(gsb)) = vals.last().map(|a| a.o) else { return Err(format!("{base} operand shape")) };
            let regs = form.d_regs() as u8;
            vals.pop();
            let at = if form.a_regs { 2 } else { 1 };
            vals[0].dst = true;
            vals[0].n = regs;
            vals[at].n = 4;
            vals[at + 1].n = regs;
            if form.a_regs {
                vals[1].n = 4;
                vals[1].neg = false;
            }
            vals[at].sel = 0;
            Kind::Hgmma { form, gsb: gsb == 0 }
        }
        "IMMA" => {
            need(4, 0, &vals, &preds)?;
            let a_regs = match toks.first().copied() {
                Some("8816") => 1,
                Some("16816") => 2,
                Some("16832") => 4,
                _ => return Err(format!("IMMA{suffix}")),
            };
            let sign = |t: Option<&&str>| match t.copied() {
                Some("S8") => Ok(true),
                Some("U8") => Ok(false),
                _ => Err(format!("IMMA{suffix}")),
            };
            let signed = (sign(toks.get(1))?, sign(toks.get(2))?);
            if toks.len() > 3 + usize::from(has("SAT")) {
                return Err(format!("IMMA{suffix}"));
            }
            let cd_regs = if a_regs == 1 { 2 } else { 4 };
            vals[0].dst = true;
            vals[0].n = cd_regs;
            vals[1].n = a_regs;
            vals[2].n = a_regs.div_ceil(2);
            vals[3].n = cd_regs;
            Kind::Imma { a_regs, signed, sat: has("SAT") }
        }
        "SYNCS" if has("EXCH") && has("64") => {
            need(3, 0, &vals, &preds)?;
            if !matches!(vals[1].o, Opnd::Mem { .. }) || !matches!(vals[2].o, Opnd::Ur(_)) {
                return Err("SYNCS.EXCH operand shape".into());
            }
            vals[0].dst = true;
            vals[0].n = 2;
            vals[2].n = 2;
            Kind::MbarInit
        }
        "SYNCS" if has("ARRIVE") && has("TRANS64") => {
            need(3, 0, &vals, &preds)?;
            let mut complete = false;
            let (arrivals, tx, count_in_b) =
                match toks.iter().find(|t| t.starts_with('A') && t.contains('T') && t.len() == 4) {
                    Some(&"ART0") => (0, 0, true),
                    // `.A0TR` (`mbarrier.expect_tx`): no arrival, Rb transactions.
                    Some(&"A0TR") => (0, 0, false),
                    // `.A0TX` (`mbarrier.complete_tx`): no arrival, Rb transactions complete.
                    Some(&"A0TX") => {
                        complete = true;
                        (0, 0, false)
                    }
                    Some(t) if t.as_bytes()[1].is_ascii_digit() && t.as_bytes()[3].is_ascii_digit() => {
                        let b = t.as_bytes();
                        (u32::from(b[1] - b'0'), u32::from(b[3] - b'0'), false)
                    }
                    Some(t) => return Err(format!("SYNCS.ARRIVE .{t}")),
                    None => (1, 0, false),
                };
            vals[0].dst = true;
            vals[0].n = 2;
            Kind::MbarArrive { arrivals, tx, count_in_b, complete, optout: has("OPTOUT") }
        }
        "SYNCS" if has("PHASECHK") && has("TRANS64") => {
            need(2, 1, &vals, &preds)?;
            preds[0].dst = true;
            Kind::MbarTest
        }
        "SYNCS" if has("CCTL") => Kind::Nop,
        "ARRIVES" if suffix == ".LDGSTSBAR.64" => {
            need(1, 0, &vals, &preds)?;
            Kind::MbarLdgstsArrive80
        }
        "ARRIVES" if has("LDGSTSBAR") && has("TRANSCNT") => {
            need(1, 0, &vals, &preds)?;
            Kind::MbarLdgstsArrive
        }
        "UBLKCP" if has("S") && has("G") => {
            need(3, 0, &vals, &preds)?;
            Kind::Ublkcp
        }
        "ELECT" => {
            need(1, 2, &vals, &preds)?;
            vals[0].dst = true;
            preds[0].dst = true;
            Kind::Elect
        }
        "QSPC" => {
            let space = if has("G") {
                Space::Global
            } else if has("S") || has("D") {
                Space::Shared
            } else if has("L") {
                Space::Local
            } else {
                return Err(format!("QSPC{suffix}"));
            };
            need(2, 1, &vals, &preds)?;
            let mi = vals.iter().position(|a| matches!(a.o, Opnd::Mem { .. })).ok_or("no address")?;
            vals.swap(0, mi);
            vals.truncate(1);
            preds[0].dst = true;
            Kind::Qspc(space)
        }
        "F2FP" if has("E4M3") || has("E5M2") => {
            // sm_90's layout (D, A, B, C): the fp8 modes ptxas emits, C = RZ (what it writes;
            // a register to merge is not calibrated).
            need(4, 0, &vals, &preds)?;
            let mode = if has("PACK_AB_MERGE_C") {
                F2fp8Mode::Pack
            } else if has("UNPACK_B_MERGE_C") {
                F2fp8Mode::Narrow
            } else if has("UNPACK_B") {
                F2fp8Mode::Widen
            } else {
                return Err(format!("F2FP{suffix}"));
            };
            let narrowing = mode != F2fp8Mode::Widen;
            if toks.iter().any(|t| {
                !matches!(
                    *t,
                    "E4M3"
                        | "E5M2"
                        | "F16"
                        | "F32"
                        | "SATFINITE"
                        | "RELU"
                        | "PACK_AB_MERGE_C"
                        | "UNPACK_B_MERGE_C"
                        | "UNPACK_B"
                )
            }) || narrowing != has("SATFINITE")
            {
                return Err(format!("F2FP{suffix}"));
            }
            if narrowing && vals[3].o != Opnd::R(255) {
                return Err("F2FP fp8 .MERGE_C with a register to merge".into());
            }
            vals[0].dst = true;
            Kind::F2fp8 { e4m3: has("E4M3"), mode, relu: has("RELU") }
        }
        "F2FP" => {
            need(3, 0, &vals, &preds)?;
            // nvdisasm's sm_80/sm_86 spelling of the same word leaves out the types:
            // `F2FP.PACK_AB` is sm_89/sm_90's `F2FP.F16.F32.PACK_AB`, `F2FP.BF16.PACK_AB` their
            // `F2FP.BF16.F32.PACK_AB` (checked with `nvdisasm -b SM80/SM89/SM90` on one word).
            let sm80_spelling = !has("F32") && !has("F16");
            let merge = has("MERGE_C");
            if has("PACK_AB") == merge
                || !(has("F32") || sm80_spelling)
                || toks.iter().any(|t| {
                    !matches!(*t, "F16" | "BF16" | "F32" | "PACK_AB" | "MERGE_C" | "RELU" | "RZ" | "RN" | "SATFINITE")
                })
            {
                return Err(format!("F2FP{suffix}"));
            }
            if merge {
                // nvdisasm prints `MERGE_C d, b, a` (the source in the b field, the merged
                // register in the a field); a decode through the PACK_AB form reads them as
                // `d, a, b`. Either way one of the two is the source and the other must be RZ.
                if vals[1].o == Opnd::R(255) {
                    vals.swap(1, 2);
                } else if vals[2].o != Opnd::R(255) {
                    return Err("F2FP.MERGE_C with a register to merge".into());
                }
            }
            vals[0].dst = true;
            Kind::F2fp { bf16: has("BF16"), rnd, relu: has("RELU"), merge, sat: has("SATFINITE") }
        }
        "F2IP" => {
            need(4, 0, &vals, &preds)?;
            if !(has("U8") || has("S8"))
                || !has("F32")
                || toks.iter().any(|t| !matches!(*t, "U8" | "S8" | "F32" | "NTZ"))
            {
                return Err(format!("F2IP{suffix}"));
            }
            // Only the corpus form `F2IP d, RZ, b, RZ` is calibrated (byte 0 = the conversion of
            // b); what a nonzero `a` or `c` contributes is not known.
            if vals[1].o != Opnd::R(255) || vals[3].o != Opnd::R(255) {
                return Err("F2IP with a nonzero first or third source".into());
            }
            vals[0].dst = true;
            Kind::F2ip { signed: has("S8") }
        }
        "VABSDIFF" => {
            need(4, 0, &vals, &preds)?;
            if let Some(t) = toks.iter().find(|t| **t != "U32") {
                return Err(format!("VABSDIFF .{t}"));
            }
            vals[0].dst = true;
            Kind::Vabsdiff { signed: !has("U32") }
        }
        "VABSDIFF4" => {
            need(4, 0, &vals, &preds)?;
            if let Some(t) = toks.iter().find(|t| !matches!(**t, "U8" | "S8" | "ACC")) {
                return Err(format!("VABSDIFF4 .{t}"));
            }
            vals[0].dst = true;
            Kind::Vabsdiff4 { signed: has("S8"), acc: has("ACC") }
        }
        "VIMNMX3" => {
            need(4, 1, &vals, &preds)?;
            if let Some(t) = toks.iter().find(|t| **t != "U32") {
                return Err(format!("VIMNMX3 .{t}"));
            }
            vals[0].dst = true;
            Kind::Vimnmx3 { signed: !has("U32") }
        }
        "IDP" => {
            need(4, 0, &vals, &preds)?;
            let two = has("2A");
            if !two && !has("4A") {
                return Err("IDP form".into());
            }
            let tys: Vec<&str> = toks.iter().copied().filter(|t| matches!(*t, "U8" | "S8" | "U16" | "S16")).collect();
            let [ta, tb] = tys[..] else { return Err("IDP types".into()) };
            vals[0].dst = true;
            Kind::Idp { two, hi: has("HI"), sa: ta.starts_with('S'), sb: tb.starts_with('S') }
        }
        "BAR" => {
            let red = if !has("RED") {
                None
            } else if has("POPC") {
                Some(0)
            } else if has("AND") {
                Some(1)
            } else if has("OR") {
                Some(2)
            } else {
                return Err("BAR.RED combiner".into());
            };
            if !(has("SYNC") || has("ARV") || red.is_some()) || (red.is_some() && preds.is_empty()) {
                return Err("BAR form".into());
            }
            // The predicate field is shown (and read) with `.RED` only.
            if red.is_none() {
                preds.clear();
            }
            Kind::Bar { arv: has("ARV"), red }
        }
        "B2R" => {
            if !has("RESULT") || vals.is_empty() {
                return Err("B2R form".into());
            }
            vals[0].dst = true;
            if let Some(p) = preds.first_mut() {
                p.dst = true;
            }
            Kind::B2r
        }
        _ => return Err("no semantics".into()),
    };
    // Uniform destinations: the datapath is fixed by the operand kinds, nothing else to do.
    let _ = uni;
    Ok((kind, vals, preds))
}

fn space_of(base: &str) -> Space {
    match base {
        "LDG" | "STG" | "ATOMG" | "REDG" => Space::Global,
        "LDS" | "STS" | "ATOMS" => Space::Shared,
        "LDL" | "STL" => Space::Local,
        _ => Space::Generic,
    }
}

fn width(toks: &[&str]) -> (u32, bool) {
    for t in toks {
        match *t {
            "U8" => return (1, false),
            "S8" => return (1, true),
            "U16" => return (2, false),
            "S16" => return (2, true),
            "64" => return (8, false),
            "128" => return (16, false),
            _ => {}
        }
    }
    (4, false)
}
