//! Instruction modifiers: data types, comparisons, rounding, and the small flags
//! (`.ftz`, `.sat`, `.hi`, ...), with one table of their text names.
//!
//! A modifier is written after the mnemonic, dot-separated (`add.rn.ftz.f32`,
//! `ISETP.LT.U32.AND`). The printer writes them in one canonical order (see
//! [`Mods::tokens`]); the parser accepts them in any order and case. Which modifier kinds an
//! opcode takes is in its [`super::opcode::OpInfo`].
//!
//! Invariant: [`Mods`] holds at most one value per kind; `cvt`-like opcodes use `ty` for the
//! destination type and `src_ty` for the source type.

use std::fmt;

macro_rules! name_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* $v),* }
        impl $name {
            /// Every value.
            pub const ALL: &'static [$name] = &[$($name::$v),*];
            /// The text name: lower-case, except [`Flag::NaN`] (PTX's spelling).
            pub fn name(self) -> &'static str {
                match self { $($name::$v => $s),* }
            }
            /// The value with this (case-insensitive) name.
            pub fn from_name(s: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(s))
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }
    };
}

name_enum!(
    /// A data type, PTX-style. Integer ops wrap at the type's width; `b*` are untyped bits.
    Ty {
        /// Predicate.
        Pred = "pred",
        /// 8-bit bits.
        B8 = "b8",
        /// 16-bit bits.
        B16 = "b16",
        /// 32-bit bits.
        B32 = "b32",
        /// 64-bit bits.
        B64 = "b64",
        /// 128-bit bits.
        B128 = "b128",
        /// Unsigned 8-bit.
        U8 = "u8",
        /// Unsigned 16-bit.
        U16 = "u16",
        /// Unsigned 32-bit.
        U32 = "u32",
        /// Unsigned 64-bit.
        U64 = "u64",
        /// Signed 8-bit.
        S8 = "s8",
        /// Signed 16-bit.
        S16 = "s16",
        /// Signed 32-bit.
        S32 = "s32",
        /// Signed 64-bit.
        S64 = "s64",
        /// IEEE binary16.
        F16 = "f16",
        /// IEEE binary32.
        F32 = "f32",
        /// IEEE binary64.
        F64 = "f64",
        /// Two IEEE binary16 values packed in 32 bits (low half first); arithmetic acts on
        /// each half.
        F16x2 = "f16x2",
        /// bfloat16 (8 exponent bits, 7 fraction bits).
        BF16 = "bf16",
        /// Two bfloat16 values packed in 32 bits (low half first).
        BF16x2 = "bf16x2",
        /// TensorFloat-32 (tensor-core operands): an f32 register of which the tensor core
        /// uses the sign, the exponent and the top 10 fraction bits.
        TF32 = "tf32",
        /// Two e4m3 fp8 values packed in 16 bits (low byte first); only the packing
        /// conversions (`cvtpack`, `F2FP`) take it.
        E4m3x2 = "e4m3x2",
        /// Two e5m2 fp8 values packed in 16 bits (low byte first), as [`Ty::E4m3x2`].
        E5m2x2 = "e5m2x2",
        /// Unsigned 4-bit: only the sub-byte packing conversion's destination fields
        /// (`cvt.pack.sat.u4`, `cvtpack`, `I2IP.U4`) take it.
        U4 = "u4",
        /// Signed 4-bit, as [`Ty::U4`].
        S4 = "s4",
        /// Unsigned 2-bit, as [`Ty::U4`].
        U2 = "u2",
        /// Signed 2-bit, as [`Ty::U4`].
        S2 = "s2",
    }
);

impl Ty {
    /// Width in bits (1 for `pred`).
    pub fn bits(self) -> u32 {
        use Ty::*;
        match self {
            Pred => 1,
            U2 | S2 => 2,
            U4 | S4 => 4,
            B8 | U8 | S8 => 8,
            B16 | U16 | S16 | F16 | BF16 | E4m3x2 | E5m2x2 => 16,
            B32 | U32 | S32 | F32 | F16x2 | BF16x2 | TF32 => 32,
            B64 | U64 | S64 | F64 => 64,
            B128 => 128,
        }
    }
    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            Ty::F16 | Ty::F32 | Ty::F64 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2 | Ty::TF32 | Ty::E4m3x2 | Ty::E5m2x2
        )
    }
    /// Whether this is a signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S2 | Ty::S4 | Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }
    /// Whether this is an integer or bits type (not float, not pred).
    pub fn is_int(self) -> bool {
        !self.is_float() && self != Ty::Pred
    }
    /// Number of 32-bit register components a value of this type occupies (sub-word types
    /// live in one 32-bit register), or 0 for `pred`.
    pub fn regs(self) -> u8 {
        match self.bits() {
            1 => 0,
            0..=32 => 1,
            64 => 2,
            _ => 4,
        }
    }
}

name_enum!(
    /// A comparison. `lo/ls/hi/hs` are the unsigned integer spellings; `*u` are the unordered
    /// float comparisons (true when either side is NaN); `num`/`nan` test orderedness.
    Cmp {
        /// Equal.
        Eq = "eq",
        /// Not equal (ordered for floats).
        Ne = "ne",
        /// Less than.
        Lt = "lt",
        /// Less or equal.
        Le = "le",
        /// Greater than.
        Gt = "gt",
        /// Greater or equal.
        Ge = "ge",
        /// Unsigned less than.
        Lo = "lo",
        /// Unsigned less or same.
        Ls = "ls",
        /// Unsigned higher.
        Hi = "hi",
        /// Unsigned higher or same.
        Hs = "hs",
        /// Equal or unordered.
        Equ = "equ",
        /// Not equal or unordered.
        Neu = "neu",
        /// Less than or unordered.
        Ltu = "ltu",
        /// Less or equal or unordered.
        Leu = "leu",
        /// Greater than or unordered.
        Gtu = "gtu",
        /// Greater or equal or unordered.
        Geu = "geu",
        /// Both ordered (neither NaN).
        Num = "num",
        /// Either NaN.
        Nan = "nan",
    }
);

name_enum!(
    /// A rounding mode: `rn/rz/rm/rp` round a float result; `rni/rzi/rmi/rpi` round to an
    /// integral value (float-to-int and float-to-float-integral conversions).
    Rnd {
        /// To nearest, ties to even.
        Rn = "rn",
        /// Toward zero.
        Rz = "rz",
        /// Toward minus infinity.
        Rm = "rm",
        /// Toward plus infinity.
        Rp = "rp",
        /// To nearest integer, ties to even.
        Rni = "rni",
        /// To integer toward zero.
        Rzi = "rzi",
        /// To integer toward minus infinity.
        Rmi = "rmi",
        /// To integer toward plus infinity.
        Rpi = "rpi",
    }
);

impl Rnd {
    /// Whether this is an integral rounding (`rni`, `rzi`, `rmi`, `rpi`).
    pub fn is_integral(self) -> bool {
        matches!(self, Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi)
    }
    /// The float rounding direction this mode uses.
    pub fn direction(self) -> Rnd {
        match self {
            Rnd::Rni => Rnd::Rn,
            Rnd::Rzi => Rnd::Rz,
            Rnd::Rmi => Rnd::Rm,
            Rnd::Rpi => Rnd::Rp,
            r => r,
        }
    }
}

name_enum!(
    /// How a set-predicate result combines with its predicate source (`ISETP.LT.AND`).
    BoolOp {
        /// And.
        And = "and",
        /// Or.
        Or = "or",
        /// Exclusive or.
        Xor = "xor",
    }
);

name_enum!(
    /// The MUFU (special function unit) function.
    Mufu {
        /// Reciprocal.
        Rcp = "rcp",
        /// Reciprocal square root.
        Rsq = "rsq",
        /// Square root.
        Sqrt = "sqrt",
        /// Sine.
        Sin = "sin",
        /// Cosine.
        Cos = "cos",
        /// Base-2 exponential.
        Ex2 = "ex2",
        /// Base-2 logarithm.
        Lg2 = "lg2",
        /// Hyperbolic tangent.
        Tanh = "tanh",
        /// The high word of the f64 reciprocal of the f64 whose high word is the operand
        /// (low word 0): SASS `MUFU.RCP64H`.
        Rcp64h = "rcp64h",
        /// The high word of the f64 reciprocal square root likewise: SASS `MUFU.RSQ64H`.
        Rsq64h = "rsq64h",
    }
);

name_enum!(
    /// Shift direction of a funnel shift (`SHF.L`, `SHF.R`).
    Dir {
        /// Left.
        L = "l",
        /// Right.
        R = "r",
    }
);

name_enum!(
    /// Which half or width of an integer multiply (`mul.lo`, `mul.hi`, `mul.wide`).
    Half {
        /// Low half of the product.
        Lo = "lo",
        /// High half of the product.
        Hi = "hi",
        /// Full double-width product.
        Wide = "wide",
    }
);

name_enum!(
    /// The sub-operation of an instruction whose mnemonic names a family: a shuffle mode
    /// (`shfl.up`), a vote mode, an atomic or reduction operation (`atom.add`), a byte-permute
    /// mode (`prmt.f4e`), a funnel-shift clamp (`shf.clamp`), `bfind.shiftamt`, a `testp`
    /// class, or a state space (`cvta.shared`, `isspacep.local`).
    SubOp {
        /// Shuffle from lane - b.
        Up = "up",
        /// Shuffle from lane + b.
        Down = "down",
        /// Shuffle from lane ^ b.
        Bfly = "bfly",
        /// Shuffle from lane b.
        Idx = "idx",
        /// Vote: all lanes.
        All = "all",
        /// Vote: any lane.
        Any = "any",
        /// Vote: all lanes equal.
        Uni = "uni",
        /// Vote: mask of lanes whose predicate is true.
        Ballot = "ballot",
        /// Atomic/reduction: add.
        AddOp = "add",
        /// Atomic/reduction: minimum.
        MinOp = "min",
        /// Atomic/reduction: maximum.
        MaxOp = "max",
        /// Atomic/reduction: bitwise and.
        AndOp = "and",
        /// Atomic/reduction: bitwise or.
        OrOp = "or",
        /// Atomic/reduction: bitwise xor.
        XorOp = "xor",
        /// Atomic: exchange.
        Exch = "exch",
        /// `bar.red.popc`: count the participating threads whose predicate holds.
        PopcOp = "popc",
        /// Atomic: wrapping increment (`old >= b ? 0 : old + 1`).
        Inc = "inc",
        /// Atomic: wrapping decrement (`old == 0 || old > b ? b : old - 1`).
        Dec = "dec",
        /// Byte permute: forward 4 extract.
        F4e = "f4e",
        /// Byte permute: backward 4 extract.
        B4e = "b4e",
        /// Byte permute: replicate 8.
        Rc8 = "rc8",
        /// Byte permute: edge clamp left.
        Ecl = "ecl",
        /// Byte permute: edge clamp right.
        Ecr = "ecr",
        /// Byte permute: replicate 16.
        Rc16 = "rc16",
        /// Funnel shift: amount taken modulo 32.
        Wrap = "wrap",
        /// Funnel shift: amount clamped to 32.
        Clamp = "clamp",
        /// `bfind`: return the shift amount (31 - index).
        ShiftAmt = "shiftamt",
        /// testp: finite.
        Finite = "finite",
        /// testp: infinite.
        Infinite = "infinite",
        /// testp: not NaN.
        Number = "number",
        /// testp: NaN.
        NotANumber = "notanumber",
        /// testp: normal.
        Normal = "normal",
        /// testp: subnormal.
        Subnormal = "subnormal",
        /// State space: global.
        SpGlobal = "global",
        /// State space: shared.
        SpShared = "shared",
        /// State space: local.
        SpLocal = "local",
        /// State space: const.
        SpConst = "const",
        /// State space: param.
        SpParam = "param",
        /// SIMD video: per-lane subtraction.
        SubtractOp = "sub",
        /// SIMD video: per-lane absolute difference.
        Absdiff = "absdiff",
        /// SIMD video: per-lane average, rounded away from zero at .5 (`vavrg`).
        Avrg = "avrg",
        /// SIMD video: per-lane comparison to 0 or 1 (`vset`; the comparison is the `cmp`).
        SetOp = "set",
        /// `cp.async.ca`: cache at all levels.
        Ca = "ca",
        /// `cp.async.cg`: cache in L2 only (bypass L1).
        Cg = "cg",
        /// Integer `mma` whose b operand's signedness differs from a's (`src_ty`): b is s8.
        BS8 = "bs8",
        /// Integer `mma` whose b operand's signedness differs from a's (`src_ty`): b is u8.
        BU8 = "bu8",
    }
);

name_enum!(
    /// A boolean flag modifier.
    Flag {
        /// Flush subnormal inputs and results to sign-preserving zero.
        Ftz = "ftz",
        /// Saturate: floats clamp to [0, 1] (NaN to 0); signed ints clamp to the type range.
        Sat = "sat",
        /// Approximate (not correctly rounded) float operation.
        Approx = "approx",
        /// `div.full.f32`: approximate like [`Flag::Approx`] but full-range: a divisor
        /// above 2^126 is scaled down first, where `div.approx.f32` gives 0.
        Full = "full",
        /// Volatile memory access.
        Volatile = "volatile",
        /// Funnel shift result is the high word.
        HiWord = "hiw",
        /// Warp-synchronous barrier/aggregate form.
        Sync = "sync",
        /// Clamp a negative float result to +0 (NaN stays a canonical NaN).
        Relu = "relu",
        /// Float min/max that propagates NaN: a NaN operand gives the canonical NaN (PTX
        /// `min.NaN`/`max.NaN`, SASS `FMNMX.NAN`/`HMNMX2.NAN`). Spelled as PTX spells it, so
        /// the name differs from the comparison `nan` ([`Cmp::Nan`]) in case only; an opcode
        /// takes at most one of the two kinds, and the parser resolves the name by what the
        /// opcode takes.
        NaN = "NaN",
        /// Float min/max on magnitudes with the XOR of the operands' signs (PTX
        /// `min/max.xorsign.abs`, SASS `FMNMX.XORSIGN`/`HMNMX2.XORSIGN` with `|a|`, `|b|`):
        /// the result's magnitude is the min/max of `|a|` and `|b|` (`.NaN` as without the
        /// flag), its sign bit the XOR of the operands' sign bits before any `|x|` (negation
        /// applied); a NaN result (the canonical NaN) keeps its sign.
        Xorsign = "xorsign",
        /// `WARPSYNC.EXCLUSIVE`: the lanes of each member mask run the code up to the next
        /// `BSYNC` as one group, one group after another.
        Exclusive = "exclusive",
        /// `ldmatrix.trans`: each 8x8 matrix is transposed on the way to the registers.
        Trans = "trans",
        /// A contracted `fma` (phase 9, OriCreateMacroInsts): it stands for PTX's
        /// `round(round(a * b) + c)`, a `mul` and an `add`/`sub` without rounding modifiers
        /// that PTX lets the compiler fuse. It computes the fused `a * b + c` (rounded once,
        /// as FFMA/DFMA/HFMA2 do); the interpreter can undo the contraction
        /// (`semantics::eval_unfused`) for translation validation.
        Contract = "contract",
        /// `LDGSTS.ZFILL` (`cp.async` with a source size): the global address's low bits below
        /// the copy width count the bytes zero-filled at the end of the copy; the copy reads
        /// the rest from the address rounded down to the width.
        Zfill = "zfill",
        /// An mbarrier arrival that also drops the arriving threads from the expected count of
        /// this and every later phase (PTX `mbarrier.arrive_drop`, SASS `SYNCS.ARRIVE.TRANS64.OPTOUT`).
        Optout = "optout",
        /// An mbarrier operation whose transaction count completes bytes instead of expecting
        /// them (PTX `mbarrier.complete_tx`, SASS `SYNCS.ARRIVE.TRANS64.RED.A0TX`).
        CompleteTx = "completetx",
    }
);

/// A set of modifier kinds (what an opcode accepts or requires).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ModSet(pub u32);

impl ModSet {
    /// No modifiers.
    pub const NONE: ModSet = ModSet(0);
    /// A data type.
    pub const TY: ModSet = ModSet(1 << 0);
    /// A second (source) type.
    pub const SRC_TY: ModSet = ModSet(1 << 1);
    /// A comparison.
    pub const CMP: ModSet = ModSet(1 << 2);
    /// A rounding mode.
    pub const RND: ModSet = ModSet(1 << 3);
    /// A boolean combine op.
    pub const BOP: ModSet = ModSet(1 << 4);
    /// A MUFU function.
    pub const MUFU: ModSet = ModSet(1 << 5);
    /// A shift direction.
    pub const DIR: ModSet = ModSet(1 << 6);
    /// A multiply half.
    pub const HALF: ModSet = ModSet(1 << 7);
    /// `.ftz`.
    pub const FTZ: ModSet = ModSet(1 << 8);
    /// `.sat`.
    pub const SAT: ModSet = ModSet(1 << 9);
    /// `.approx`.
    pub const APPROX: ModSet = ModSet(1 << 10);
    /// `.volatile`.
    pub const VOLATILE: ModSet = ModSet(1 << 11);
    /// `.hiw`.
    pub const HIWORD: ModSet = ModSet(1 << 12);
    /// `.sync`.
    pub const SYNC: ModSet = ModSet(1 << 13);
    /// A sub-operation ([`SubOp`]).
    pub const SUBOP: ModSet = ModSet(1 << 14);
    /// `.relu`.
    pub const RELU: ModSet = ModSet(1 << 15);
    /// `.NaN` ([`Flag::NaN`]).
    pub const NAN: ModSet = ModSet(1 << 16);
    /// `.exclusive` ([`Flag::Exclusive`]).
    pub const EXCLUSIVE: ModSet = ModSet(1 << 17);
    /// `.trans` ([`Flag::Trans`]).
    pub const TRANS: ModSet = ModSet(1 << 18);
    /// `.contract` ([`Flag::Contract`]).
    pub const CONTRACT: ModSet = ModSet(1 << 19);
    /// `.zfill` ([`Flag::Zfill`]).
    pub const ZFILL: ModSet = ModSet(1 << 20);
    /// `.full` ([`Flag::Full`]).
    pub const FULL: ModSet = ModSet(1 << 21);
    /// `.xorsign` ([`Flag::Xorsign`]).
    pub const XORSIGN: ModSet = ModSet(1 << 22);
    /// `.optout` ([`Flag::Optout`]).
    pub const OPTOUT: ModSet = ModSet(1 << 23);
    /// `.completetx` ([`Flag::CompleteTx`]).
    pub const COMPLETE_TX: ModSet = ModSet(1 << 24);

    /// Union.
    pub const fn or(self, o: ModSet) -> ModSet {
        ModSet(self.0 | o.0)
    }
    /// Whether every kind in `o` is in `self`.
    pub const fn contains(self, o: ModSet) -> bool {
        self.0 & o.0 == o.0
    }
    /// The kind of a flag.
    pub fn of_flag(f: Flag) -> ModSet {
        match f {
            Flag::Ftz => ModSet::FTZ,
            Flag::Sat => ModSet::SAT,
            Flag::Approx => ModSet::APPROX,
            Flag::Volatile => ModSet::VOLATILE,
            Flag::HiWord => ModSet::HIWORD,
            Flag::Sync => ModSet::SYNC,
            Flag::Relu => ModSet::RELU,
            Flag::NaN => ModSet::NAN,
            Flag::Exclusive => ModSet::EXCLUSIVE,
            Flag::Trans => ModSet::TRANS,
            Flag::Contract => ModSet::CONTRACT,
            Flag::Zfill => ModSet::ZFILL,
            Flag::Full => ModSet::FULL,
            Flag::Xorsign => ModSet::XORSIGN,
            Flag::Optout => ModSet::OPTOUT,
            Flag::CompleteTx => ModSet::COMPLETE_TX,
        }
    }
}

impl std::ops::BitOr for ModSet {
    type Output = ModSet;
    fn bitor(self, o: ModSet) -> ModSet {
        self.or(o)
    }
}

/// The modifiers of one instruction.
#[derive(Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct Mods {
    /// Data type (destination type for conversions).
    pub ty: Option<Ty>,
    /// Source type of a conversion.
    pub src_ty: Option<Ty>,
    /// Comparison.
    pub cmp: Option<Cmp>,
    /// Rounding mode.
    pub rnd: Option<Rnd>,
    /// Predicate combine op.
    pub bop: Option<BoolOp>,
    /// MUFU function.
    pub mufu: Option<Mufu>,
    /// Shift direction.
    pub dir: Option<Dir>,
    /// Multiply half.
    pub half: Option<Half>,
    /// Sub-operation.
    pub sub: Option<SubOp>,
    /// Flags, kept sorted and unique.
    pub flags: Vec<Flag>,
}

impl Mods {
    /// No modifiers.
    pub fn new() -> Mods {
        Mods::default()
    }
    /// With data type `t`.
    pub fn ty(t: Ty) -> Mods {
        Mods { ty: Some(t), ..Mods::default() }
    }
    /// Whether flag `f` is set.
    pub fn has(&self, f: Flag) -> bool {
        self.flags.contains(&f)
    }
    /// Sets flag `f` (keeping the list sorted and unique).
    pub fn set(&mut self, f: Flag) {
        if let Err(i) = self.flags.binary_search(&f) {
            self.flags.insert(i, f);
        }
    }
    /// The kinds present.
    pub fn kinds(&self) -> ModSet {
        let mut s = ModSet::NONE;
        let mut add = |p: bool, k: ModSet| {
            if p {
                s = s.or(k);
            }
        };
        add(self.ty.is_some(), ModSet::TY);
        add(self.src_ty.is_some(), ModSet::SRC_TY);
        add(self.cmp.is_some(), ModSet::CMP);
        add(self.rnd.is_some(), ModSet::RND);
        add(self.bop.is_some(), ModSet::BOP);
        add(self.mufu.is_some(), ModSet::MUFU);
        add(self.dir.is_some(), ModSet::DIR);
        add(self.half.is_some(), ModSet::HALF);
        add(self.sub.is_some(), ModSet::SUBOP);
        for f in &self.flags {
            s = s.or(ModSet::of_flag(*f));
        }
        s
    }
    /// The modifier names in canonical print order: sub-operation, dir, mufu, cmp, half, rnd,
    /// approx, ftz, sat, other flags, ty, src_ty, bop.
    pub fn tokens(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        v.extend(self.sub.map(SubOp::name));
        v.extend(self.dir.map(Dir::name));
        v.extend(self.mufu.map(Mufu::name));
        v.extend(self.cmp.map(Cmp::name));
        v.extend(self.half.map(Half::name));
        v.extend(self.rnd.map(Rnd::name));
        v.extend(self.flags.iter().map(|f| f.name()));
        v.extend(self.ty.map(Ty::name));
        v.extend(self.src_ty.map(Ty::name));
        v.extend(self.bop.map(BoolOp::name));
        v
    }
    /// Adds the modifier named `tok` (any case), given the kinds the opcode `allowed`.
    /// Names that mean two things (`lo`/`hi`: comparison or multiply half; `nan`: comparison
    /// or the flag [`Flag::NaN`]) resolve by what the opcode takes. Errors say why the token does not fit.
    pub fn add_token(&mut self, tok: &str, allowed: ModSet) -> Result<(), String> {
        let dup = |what: &str| Err(format!("second {what} modifier `.{tok}`"));
        if allowed.contains(ModSet::SUBOP)
            && let Some(x) = SubOp::from_name(tok)
        {
            return if self.sub.replace(x).is_some() { dup("sub-operation") } else { Ok(()) };
        }
        if allowed.contains(ModSet::HALF)
            && let Some(h) = Half::from_name(tok)
        {
            return if self.half.replace(h).is_some() { dup("multiply-half") } else { Ok(()) };
        }
        if let Some(t) = Ty::from_name(tok) {
            if self.ty.is_none() && allowed.contains(ModSet::TY) {
                self.ty = Some(t);
                return Ok(());
            }
            if self.src_ty.is_none() && allowed.contains(ModSet::SRC_TY) {
                self.src_ty = Some(t);
                return Ok(());
            }
            return if allowed.contains(ModSet::TY) {
                dup("type")
            } else {
                Err(format!("modifier `.{tok}` is not allowed here"))
            };
        }
        // A name of a kind the opcode does not take may name another kind it does take (`nan`:
        // the comparison or the flag `.NaN`); the token is refused only when no kind takes it.
        let mut known = false;
        macro_rules! slot {
            ($field:ident, $kind:expr, $ty:ident, $what:expr) => {
                if let Some(x) = $ty::from_name(tok) {
                    if allowed.contains($kind) {
                        return if self.$field.replace(x).is_some() { dup($what) } else { Ok(()) };
                    }
                    known = true;
                }
            };
        }
        slot!(cmp, ModSet::CMP, Cmp, "comparison");
        slot!(rnd, ModSet::RND, Rnd, "rounding");
        slot!(bop, ModSet::BOP, BoolOp, "boolean-op");
        slot!(mufu, ModSet::MUFU, Mufu, "function");
        slot!(dir, ModSet::DIR, Dir, "direction");
        if let Some(f) = Flag::from_name(tok) {
            if allowed.contains(ModSet::of_flag(f)) {
                if self.has(f) {
                    return dup("flag");
                }
                self.set(f);
                return Ok(());
            }
            known = true;
        }
        Err(if known { format!("modifier `.{tok}` is not allowed here") } else { format!("unknown modifier `.{tok}`") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `nan` names the comparison where the opcode takes one and the flag `.NaN` where it takes
    /// that (no opcode takes both), in any case; the printer spells the flag `NaN`.
    #[test]
    fn nan_resolves_by_what_the_opcode_takes() {
        let minmax = ModSet::TY | ModSet::FTZ | ModSet::NAN;
        for tok in ["NaN", "NAN", "nan"] {
            let mut m = Mods::new();
            m.add_token(tok, minmax).unwrap();
            assert_eq!(m.flags, [Flag::NaN]);
            assert_eq!(m.cmp, None);
            let mut m = Mods::new();
            m.add_token(tok, ModSet::TY | ModSet::CMP).unwrap();
            assert_eq!(m.cmp, Some(Cmp::Nan));
            assert!(m.flags.is_empty());
        }
        let mut m = Mods::new();
        m.add_token("NaN", minmax).unwrap();
        assert_eq!(m.add_token("nan", minmax), Err("second flag modifier `.nan`".into()));
        m.add_token("f32", minmax).unwrap();
        assert_eq!(m.tokens(), ["NaN", "f32"]);
        assert_eq!(Mods::new().add_token("NaN", ModSet::TY), Err("modifier `.NaN` is not allowed here".into()));
        assert_eq!(Mods::new().add_token("nanx", minmax), Err("unknown modifier `.nanx`".into()));
    }
}
