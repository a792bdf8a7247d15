//! The instruction table's data. Rows are `|`-separated; `#` starts a comment line.
//!
//! - [`OPCODES`]: `opcode | legal type suffixes (or *) | operand count or min-max (or *)`,
//!   (`-`: no type suffix allowed), where the types may continue with `; key mods: types` alternatives used when a key modifier
//!   is present (`mul`: floats; `mul.lo`: integers), then optionally ` | operand signature | modifier vocabulary | display modifiers`.
//!   A signature is one letter per operand (`d` register of the instruction type, `a`
//!   register or immediate of that type, `w`/`W` the same at twice the width, `p` predicate
//!   register, `q` predicate or integer immediate, `u` 32-bit integer register or immediate,
//!   `U` 32-bit integer register, `m` memory data register or vector (wider integer registers
//!   allowed), `A` address, `n` integer immediate, `*` unchecked; a trailing `?` marks an
//!   optional operand: fewer operands than the required ones is `Arguments mismatch`); `wide: w a a` after a `;` is used instead
//!   when the instruction carries `.wide`. The vocabulary lists every non-type modifier the
//!   opcode accepts (an opcode with a vocabulary takes exactly one type suffix; `-` none, `*`
//!   unrestricted; `ftz@h` only with `.f32`, `.f16` or `.f16x2` (ptxas refuses
//!   `.ftz` on `.f64` and the bf16 types), `rn@f` only with a float type, `cc@i` only
//!   with an integer type, `ftz@F32` only when one of the types is `.f32`; `#shapes` any matrix shape or `.xN`/`.vN`): others are answered by their class in [`MODIFIER_CLASSES`]. Display modifiers are appended to the opcode
//!   in messages (`mul.wide`). All of these were probed against ptxas 13.0.88.
//! - [`TYPES`]: every type suffix; [`MODIFIERS`]: every other modifier ptxas's scanner knows
//!   (numbered families such as shapes and `.x4` are recognised in code).
//! - [`GATES`]: `pattern | min SM | min PTX | style | feature name (= for the pattern)`, where
//!   style is F (feature, SM message first), P (feature, PTX first), I (`Instruction '…'
//!   requires .target`), J (`Instruction '…'` for both, SM first), M (`Modifier '…' requires .target`), A (needs an `a`/`f` target); a
//!   `+` after the style makes the row additive: it does not suppress the shorter rows that
//!   it extends (by default the most specific row wins). For A rows, `feature;instruction`
//!   gives the name of the `not supported on .target` message (default: the pattern).
//!   A pattern starting with `.` applies to any instruction carrying that modifier (checked as
//!   ptxas scans the suffixes, before the instruction's other checks); one starting with `*.`
//!   matches its parts against any instruction, checked with the instruction's own gates, in
//!   table order (`*.~bulk.shared::cluster`: after `st.async`'s, and not on the bulk copies,
//!   whose own gate stands for it); `{op}` in a feature name is replaced by the opcode.
//!
//! Gates were taken from ptxas 13.0.88's own messages (corpus/errors, digest §2.8 probes).

/// Opcodes: name | types | operand count.
pub const OPCODES: &str = r"
add | s16 u16 s32 u32 s64 u64 f32 f64 f16 f16x2 bf16 bf16x2 s16x2 u16x2 | 3 | d a a | rn@f rz@f rm@f rp@f ftz@h sat cc@i
sub | s16 u16 s32 u32 s64 u64 f32 f64 f16 f16x2 bf16 bf16x2 s16x2 u16x2 | 3 | d a a | rn@f rz@f rm@f rp@f ftz@h sat cc@i
mul | f32 f64 f16 f16x2 bf16 bf16x2; wide: s16 u16 s32 u32; hi lo: s16 u16 s32 u32 s64 u64 | 3 | d a a; wide: w a a | hi lo wide rn@f rz@f rm@f rp@f ftz@h sat@f | hi lo wide
mad | f32 f64; wide: s16 u16 s32 u32; hi lo: s16 u16 s32 u32 s64 u64 | 4 | d a a a; wide: w a a W | hi lo wide rn@f rz@f rm@f rp@f ftz@h sat cc@i | hi lo wide
mul24 | s32 u32 | 3 | d a a | hi lo | hi lo
mad24 | s32 u32 | 4 | d a a a | hi lo sat | hi lo
sad | s16 u16 s32 u32 s64 u64 | 4 | d a a a | -
div | s16 u16 s32 u32 s64 u64 f32 f64 | 3 | d a a | approx full rn rz rm rp ftz@h
rem | s16 u16 s32 u32 s64 u64 | 3 | d a a | -
abs | u16 u32 u64 s16 s32 s64 f16 f16x2 f32 f64 bf16 bf16x2 | 2 | d a | ftz@h
neg | u16 u32 u64 s16 s32 s64 f16 f16x2 f32 f64 bf16 bf16x2 | 2 | d a | ftz@h
min | s16 u16 s32 u32 s64 u64 f32 f64 f16 f16x2 bf16 bf16x2 s16x2 u16x2; relu: s32 s16x2 | 3-4 | f32: d a a a?; d a a | ftz@h NaN xorsign abs relu
max | s16 u16 s32 u32 s64 u64 f32 f64 f16 f16x2 bf16 bf16x2 s16x2 u16x2; relu: s32 s16x2 | 3-4 | f32: d a a a?; d a a | ftz@h NaN xorsign abs relu
popc | b32 b64 | 2 | U a | -
clz | b32 b64 | 2 | U a | -
bfind | u32 u64 s32 s64 | 2 | U a | shiftamt
fns | b32 | 4
brev | b32 b64 | 2 | d a | -
bfe | u32 u64 s32 s64 | 4 | d a u u | -
bfi | b32 b64 | 5 | d a a u u | -
szext | u32 s32 | 3
bmsk | b32 | 3
dp4a | u32 s32 | 4
dp2a | u32 s32 | 4
addc | s32 u32 s64 u64 | 3 | d a a | cc
subc | s32 u32 s64 u64 | 3 | d a a | cc
madc | s32 u32 s64 u64 | 4 | d a a a | hi lo cc | hi lo
copysign | f32 f64 | 3 | d a a | -
fma | f32 f64 f16 f16x2 bf16 bf16x2; relu: f16 f16x2 bf16 bf16x2 | 4 | d a a a | rn rz rm rp ftz@h sat relu oob
rcp | f32 f64 | 2 | d a | approx full rn rz rm rp ftz
sqrt | f32 f64 | 2 | d a | approx full rn rz rm rp ftz
rsqrt | f32 f64 | 2 | d a | approx ftz
sin | f32 | 2 | d a | approx ftz
cos | f32 | 2 | d a | approx ftz
lg2 | f32 | 2 | d a | approx ftz
ex2 | f32 f16 f16x2 bf16 bf16x2 | 2 | d a | approx ftz
tanh | f32 f16 f16x2 bf16 bf16x2 | 2 | d a | approx
testp | f32 f64 | 2 | p a | finite infinite number notanumber normal subnormal
set | * | 3-4
setp | b16 b32 b64 u16 u32 u64 s16 s32 s64 f16 f16x2 f32 f64 bf16 bf16x2 | 3-4 | p a a q? | eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or xor ftz@h
selp | b16 b32 b64 u16 u32 u64 s16 s32 s64 f32 f64 | 4 | d a a q | -
slct | * | 4
and | b16 b32 b64 pred | 3 | d a a | -
or | b16 b32 b64 pred | 3 | d a a | -
xor | b16 b32 b64 pred | 3 | d a a | -
not | b16 b32 b64 pred | 2 | d a | -
cnot | b16 b32 b64 | 2 | d a | -
lop3 | b32 | 5-6 | d a a a n; or: * a a a n q; and: * a a a n q | and or
shf | b32 | 4 | d a a u | l r clamp wrap | l r
shl | b16 b32 b64 | 3 | d a u | -
shr | b16 b32 b64 s16 s32 s64 u16 u32 u64 | 3 | d a u | -
prmt | b32 | 4 | d a a a | f4e b4e rc8 ecl ecr rc16
mov | b16 b32 b64 b128 u16 u32 u64 s16 s32 s64 f32 f64 pred | 2 | d a | v2 v4
cvt | * | 2-3 | * | rn rz rm rp rna rs rni rzi rmi rpi ftz@F32 sat relu satfinite
cvta | u32 u64 | 2 | * | to global shared local const param shared::cta shared::cluster param::entry param::func | to
isspacep | * | 2
ld | b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64 | 2-3 | m A | global shared local const param shared::cta shared::cluster param::entry param::func tex v2 v4 v8 weak volatile relaxed mmio cta cluster gpu sys L1::evict_first L1::evict_last L1::evict_normal L1::evict_unchanged L1::no_allocate L2::cache_hint L2::evict_first L2::evict_last L2::evict_normal L2::evict_unchanged L2::no_allocate evict_first evict_last evict_normal evict_unchanged acquire L2::64B L2::128B L2::256B ca cg cs cv lu nc
ldu | * | 2
st | b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64 | 2-3 | A m | global shared local const param shared::cta shared::cluster param::entry param::func tex v2 v4 v8 weak volatile relaxed mmio cta cluster gpu sys L1::evict_first L1::evict_last L1::evict_normal L1::evict_unchanged L1::no_allocate L2::cache_hint L2::evict_first L2::evict_last L2::evict_normal L2::evict_unchanged L2::no_allocate evict_first evict_last evict_normal evict_unchanged release release.cluster cg cs wb wt
prefetch | * | 1
prefetchu | * | 1
ldmatrix | * | 2
stmatrix | * | 2
movmatrix | * | 2
cp | * | * | * | * | async
createpolicy | * | * | * | fractional range cvt L2 L2::evict_last L2::evict_first L2::evict_normal L2::evict_unchanged L2::no_allocate L1::evict_last L1::evict_first L1::evict_normal L1::evict_unchanged L1::no_allocate | fractional range cvt
applypriority | * | *
discard | * | *
alloca | * | *
stacksave | * | 1
stackrestore | * | 1
atom | *; cas: b16 b32 b64 b128 | 3-5 | d A a *?; cas: d A a a *? | global shared shared::cta shared::cluster relaxed acquire release acq_rel cta cluster gpu sys and or xor exch add inc dec min max cas noftz L2::cache_hint v2 v4 v8
red | * | 2-4 | A a *? | global shared shared::cta shared::cluster relaxed release cta cluster gpu sys and or xor add inc dec min max noftz L2::cache_hint v2 v4 v8
bar | -; red: u32 pred | * | * | sync arrive red cta warp popc and or | cta red
barrier | * | *
membar | * | 0
fence | * | * | * | sc acq_rel acquire release cta cluster gpu sys proxy alias async global shared::cta shared::cluster tensormap::generic mbarrier_init sync_restrict::shared::cluster sync_restrict::shared::cta | proxy
mbarrier | b64 | * | * | init inval arrive arrive_drop test_wait try_wait pending_count expect_tx complete_tx parity noComplete shared shared::cta shared::cluster relaxed release acquire cta cluster | init inval arrive arrive_drop test_wait try_wait pending_count expect_tx complete_tx parity
setmaxnreg | * | 1 | n | * | inc dec
nanosleep | u32 | 1
bra | * | 1 | * | uni
brx | * | 2
call | * | * | * | uni
ret | * | 0
exit | * | 0
trap | * | 0
brkpt | * | 0
pmevent | * | 1
shfl | b32 | 4-5 | sync: * * * * *; * * * * | sync up down bfly idx
vote | *; ballot: b32 | 2-4 | ballot: U q u?; p q u?
match | b32 b64 | 3-4 | * | sync any all
redux | b32 u32 s32 f32 | 3 | d a u | sync add min max and or xor abs NaN
activemask | b32 | 1
elect | * | 2
getctarank | * | 2 | U a
mapa | * | 3
griddepcontrol | * | 0
clusterlaunchcontrol | * | *
multimem | * | *
tensormap | * | *
mma | * | *
wmma | * | * | * | load store mma a b c d sync aligned row col global shared shared::cta generic satfinite rn rz rm rp xor popc and #shapes | load store mma a b c d
wgmma | * | *
tcgen05 | * | *
tex | * | *
tld4 | * | *
txq | * | *
suld | * | *
sust | * | *
sured | * | *
suq | * | *
istypep | * | 2
vadd | u32 s32 | 3-4
vsub | u32 s32 | 3-4
vabsdiff | u32 s32 | 3-4
vmin | u32 s32 | 3-4
vmax | u32 s32 | 3-4
vshl | u32 s32 | 3-4
vshr | u32 s32 | 3-4
vmad | u32 s32 | 3-4
vset | u32 s32 | 3-4
vadd2 | u32 s32 | 4 | * | sat add min max
vsub2 | u32 s32 | 4 | * | sat add min max
vavrg2 | u32 s32 | 4 | * | sat add min max
vabsdiff2 | u32 s32 | 4 | * | sat add min max
vmin2 | u32 s32 | 4 | * | sat add min max
vmax2 | u32 s32 | 4 | * | sat add min max
vset2 | u32 s32 | 4
vadd4 | u32 s32 | 4 | * | sat add min max
vsub4 | u32 s32 | 4 | * | sat add min max
vavrg4 | u32 s32 | 4 | * | sat add min max
vabsdiff4 | u32 s32 | 4 | * | sat add min max
vmin4 | u32 s32 | 4 | * | sat add min max
vmax4 | u32 s32 | 4 | * | sat add min max
vset4 | u32 s32 | 4
st.bulk | - | 3 | * | weak shared::cta
st.async | b32 b64 u32 u64 s32 s64 f32 f64 | 2-3 | * | weak release relaxed mmio cta cluster gpu sys shared::cluster global mbarrier::complete_tx::bytes v2 v4
red.async | u32 s32 u64 s64 b32 b64 | 2-3 | * | relaxed release cta cluster gpu sys shared::cluster global mbarrier::complete_tx::bytes add min max and or xor inc dec
cvt.pack | * | *
";

/// How ptxas answers a known modifier outside an opcode's vocabulary, by class (probed with
/// `and.X.b32` and `copysign.X.f32` for every modifier the scanner knows; identical for both):
/// `U` Unknown modifier, `I` Illegal modifier, `D` Illegal modifier printed twice (the
/// scopes), `K` Illegal modifier 'Clamp', `S` No state
/// space qualifier expected, `R` Illegal rounding modifier, `C` Comparison qualifier is not
/// allowed (followed by `Mismatch between instruction type and comparison qualifier` when
/// the operator does not suit the type as on setp, or there is no type or `.pred`), `Q`
/// Illegal query modifier. Modifiers in no class (gated ones, reduction
/// operations) are answered `Illegal modifier`. Where a vocabulary holds state spaces, more
/// than one is `Unexpected number of state spaces`.
pub const MODIFIER_CLASSES: &str = r"
U | arrive arrive_drop b0 b3 base bulk c commit commit_group complete_tx d expect_tx fence fractional full generic
U | generic::acquire generic::release grad h0 h1 init inval l ld_reduce level load lod m32n8 mbarrier::expect_tx::bytes
U | mma_async nomask op_restrict ordered_metadata p parity pending_count prefetch proxy query_cancel red
U | relinquish_alloc_permit remote samp_pos store surf t tensor test_wait to try_cancel try_wait
U | uniform wait::ld wait::st wait_all wait_group warp wide range cvt
I | 1d 2d 2dms 3d 4d 5d L1 L1::evict_first L1::evict_last L1::evict_normal L1::evict_unchanged L1::no_allocate L2
I | L2::128B L2::256B L2::64B L2::cache_hint L2::evict_first L2::evict_last L2::evict_normal L2::evict_unchanged
I | L2::no_allocate NaN a a1d a2d a2dms abs acq_rel acquire acube add alias aligned all and any approx async b b4e
I | ballot bfly bulk_group ca cas cc cg clamp col cs po cta_group::1 cta_group::2 cube cv down ecl ecr
I | evict_first evict_last evict_normal evict_unchanged f4e ftz gl idx im2col im2col::w im2col::w::128
I | launch_dependents lu m16n8k8 m8n16 m8n8 max mbarrier mbarrier::complete_tx::bytes mbarrier_init min
I | multicast::cluster multicast::cluster::all nc noComplete noftz or popc r rc16 rc8 read relaxed release
I | release.cluster relu row sat satfinite sc shiftamt shr15 shr7 sp sync tensormap tile tile::gather4
I | tile::scatter4 trans trap uni up volatile wait wb weak wt xor xorsign
D | cluster cta gpu sys
K | wrap zero
S | async.global async.shared::cluster async.shared::cta const global local param param::entry param::func shared
S | shared::cluster shared::cta tex
R | rm rmi rn rna rni rp rpi rs rz rzi
C | eq equ ge geu gt gtu hi hs le leu lo ls lt ltu nan ne neu num
Q | addr_mode_0 addr_mode_1 addr_mode_2 array_size channel_data_type channel_order depth filter_mode
Q | force_unnormalized_coords height normalized_coords num_mipmap_levels num_samples width
";

/// Rounding requirements: `opcode | types | rule`, where rule `R` needs a rounding modifier
/// (`Rounding modifier required`), `A` exactly one of a rounding modifier, `.approx` or
/// `.full` (`Rounding modifier or '.approx' modifier required`), `AR` a rounding modifier or
/// `.approx`, reporting both messages, `X` needs `.approx` (`.approx modifier required`), and
/// `C` (type `pair`) means the destination/source pair decides, by [`CVT_ROUNDING`].
/// Probed against ptxas 13.0.88.
pub const ROUNDING: &str = r"
fma | f16 f16x2 bf16 bf16x2 f32 f64 | R
mad | f32 f64 | R
div | f64 | R
div | f32 | A
sqrt | f64 | R
sqrt | f32 | A
rcp | f32 | A
rcp | f64 | AR
rsqrt | f32 | X
sin | f32 | X
cos | f32 | X
lg2 | f32 | X
ex2 | f32 | X
cvt | pair | C
";

/// `cvt` rounding by destination and source type: `dst | src [relation] | rule`, first match
/// wins. `int`/`float` stand for the integer types and `f16 bf16 f32 f64`; the relation
/// compares widths (`=`, `<` destination narrower, `>` wider). Rules: `N` no rounding, `I`
/// integer rounding (`.rni` …) required, `F` float rounding (`.rn` …) required, `i`/`f`
/// optional integer/float rounding. A rounding of the other family is `Illegal rounding
/// modifier`; a missing required one `Rounding modifier required` (probed, every pair).
pub const CVT_ROUNDING: &str = r"
f16 | bf16 | f
bf16 | f16 | f
f32 | bf16 | f
f64 | bf16 | f
int | int | N
int | float | I
float | int | F
float | float = | i
float | float < | F
float | float > | N
";

/// Instructions ptxas implements by expanding its built-in `<macro util>` source when it meets
/// them with no error reported so far: `pattern | types (or *) | below SM (or *)`, the pattern
/// as in [`GATES`] (`~m` absent, `r*` a prefix). Once one has expanded, the deferred
/// `.version`/`.target` error is located at `<macro util>, line 2` (probed: div/rem of 16- and
/// 64-bit integers, IEEE-rounded div/sqrt/rcp, rsqrt.approx.f64 without .ftz, and the `.sync`
/// warp and `barrier` instructions when the `-arch` is below sm_90).
pub const MACRO_UTIL: &str = r"
div | s16 u16 s64 u64 | *
rem | s16 u16 s64 u64 | *
div.r* | f32 f64 | *
sqrt.r* | f32 f64 | *
rcp.r* | f32 f64 | *
rsqrt.approx.~ftz | f64 | *
shfl.sync | * | 90
vote.sync | * | 90
match.sync | * | 90
redux.sync | * | 90
bar.warp.sync | * | 90
barrier.sync | * | 90
barrier.arrive | * | 90
barrier.red | * | 90
";

/// Comparison instructions and the comparison operators each source type class takes
/// (`s` signed, `u` unsigned, `b` bits, `f` floats and packed floats): `opcodes | class | ops`.
/// Another operator is `Mismatch between instruction type and comparison qualifier`; two are
/// `Multiple comparisons set` (while scanning); none is `Comparison modifier required`.
/// Probed on setp for every operator × type.
pub const COMPARISONS: &str = r"
setp set | s | eq ne lt le gt ge
setp set | u | eq ne lt le gt ge lo ls hi hs
setp set | b | eq ne
setp set | f | eq ne lt le gt ge equ neu ltu leu gtu geu num nan
";

/// Groups of mutually exclusive modifiers checked while scanning: `opcode | words | message
/// key` (the key names a [`crate::ptx::sema::messages`] entry printed when two appear).
pub const EXCLUSIVE: &str = r"
testp | finite infinite number notanumber normal subnormal | MULTIPLE_TESTP
setp | eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan | MULTIPLE_COMPARISONS
set | eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan | MULTIPLE_COMPARISONS
ld | cta cluster gpu sys | MULTIPLE_SCOPES
st | cta cluster gpu sys | MULTIPLE_SCOPES
atom | cta cluster gpu sys | MULTIPLE_SCOPES
red | cta cluster gpu sys | MULTIPLE_SCOPES
fence | cta cluster gpu sys | MULTIPLE_SCOPES
membar | cta gl sys | MULTIPLE_SCOPES
redux | add min max and or xor | MULTIPLE_POSTOP
match | any all | MULTIPLE_ANY_ALL
";

/// Immediate-operand value rules: `pattern | operand position (0-based) | printed argument
/// number | min | max | multiple of (or *) | values (or *) | name (or *)`, the pattern as in
/// [`GATES`]. ptxas prints the value-set error (`unexpected value '…', expected to be 4 or 8
/// or 16`) first, then the multiple-of error, then the range error (probed on setmaxnreg and
/// on cp.async's copy and source sizes; bfe/bfi positions and lengths are 0..255). The name, when given, is the instruction name the
/// message quotes (default: the opcode with its display modifiers).
pub const IMMEDIATE_RULES: &str = r"
bfe | 2 | 2 | 0 | 255 | * | * | *
bfe | 3 | 3 | 0 | 255 | * | * | *
bfi | 3 | 3 | 0 | 255 | * | * | *
bfi | 4 | 4 | 0 | 255 | * | * | *
setmaxnreg | 0 | 1 | 24 | 256 | 8 | * | *
cp.async.cg | 2 | 2 | 0 | 16 | * | 16 | cp.async
cp.async.ca | 2 | 2 | 0 | 16 | * | 4 8 16 | cp.async
cp.async.cg | 3 | 3 | 0 | 16 | * | * | cp.async
cp.async.ca | 3 | 3 | 0 | 16 | * | * | cp.async
";

/// Opcodes that need `.aligned` when `.sync` is given (`.aligned modifier required`).
pub const ALIGNED_WITH_SYNC: &str = "wmma mma";
/// Opcodes that always need `.aligned`.
pub const ALIGNED_ALWAYS: &str = "setmaxnreg";

/// Atomic operations and the types each takes: `opcodes | operations | types | wording`. A
/// type outside the list is `Operation .<op> requires <wording> type for instruction '…'`,
/// reported after the operand checks (probed: every operation × type on atom).
pub const ATOMIC_OPS: &str = r"
atom red | and or xor | b32 b64 | .b32 or .b64
atom red | exch | b32 b64 b128 | .b32 or .b64 or .b128
atom red | add | u32 s32 u64 f64 f16 f16x2 f32 bf16 bf16x2 | .u32 or .s32 or .u64 or .f64 or f16 or f16x2 or .f32 or .bf16 or .bf16x2
atom red | inc dec | u32 | .u32
atom red | min max | u32 s32 u64 s64 f16 f16x2 bf16 bf16x2 | .u32 or .s32 or .u64 or .s64 or .f16 or .f16x2 or .bf16 or .bf16x2
";

/// Operation modifiers that restrict the instruction type: `opcodes | operations | types`
/// (several rows for one operation add up). Another type is `Incorrect type '.<type>' for
/// operation '.<op>' in instruction '…'`, after the operand checks (probed on redux: `.and`
/// takes `.b32`, `.add` the 32-bit integers, `.min`/`.max` those and `.f32`).
pub const OPERATION_TYPES: &str = r"
redux | and or xor | b32
redux | add min max | u32 s32
redux | min max | f32
";

/// Modifiers an instruction cannot do without: `pattern | any of these | message key`, the
/// pattern as in [`GATES`] (the message takes the instruction's name; `@shape` stands for any
/// matrix shape of [`SHAPES`]); reported after the operation-type check, in table order
/// (probed: `redux` without an operation, then without `.sync`; shfl without a mode, mma
/// without a shape, wmma.load/store without a layout).
pub const REQUIRED_MODIFIERS: &str = r"
redux | add min max and or xor | REDUCTION_REQUIRED
redux | sync | SYNC_REQUIRED
match | any all | ANY_ALL_REQUIRED
match | sync | SYNC_REQUIRED
shfl | up down bfly idx | SHUFFLE_REQUIRED
mma | @shape | SHAPE_REQUIRED
wmma.load | row col | LAYOUT_REQUIRED
wmma.store | row col | LAYOUT_REQUIRED
";

/// Opcodes and types that need `.noftz` (`'.noftz' modifier required for instruction '…'
/// with type '…'`, before the operation check).
pub const NOFTZ_REQUIRED: &str = r"
atom red | f16 f16x2 bf16 bf16x2
";

/// Modifiers ptxas's scanner knows only for the opcodes whose vocabulary lists them: on any
/// other instruction, known or not, they are `Unknown modifier`, reported first (probed with
/// unknown opcodes and with lop3/redux/movmatrix).
pub const VOCAB_ONLY_MODIFIERS: &str = "wide to";

/// Opcodes that take a fixed number of type suffixes (other than one, or exactly one where
/// no vocabulary implies it): `opcode | count`; another count is `Unexpected instruction
/// types` (probed: `cvt.u32`, `cvt.f32.f32.s32`; every `mbarrier.*` form without `.b64` or
/// with it twice).
pub const TYPE_COUNTS: &str = r"
cvt | 2
mbarrier | 1
vadd2 | 3
vsub2 | 3
vavrg2 | 3
vabsdiff2 | 3
vmin2 | 3
vmax2 | 3
vadd4 | 3
vsub4 | 3
vavrg4 | 3
vabsdiff4 | 3
vmin4 | 3
vmax4 | 3
";

/// Type suffixes an opcode with an unrestricted type column refuses (`Unexpected instruction
/// types specified for '…'`): `opcodes | types` (probed: cvt takes no bit or predicate type).
pub const ILLEGAL_TYPES: &str = r"
cvt | b8 b16 b32 b64 b128 pred
";

/// Opcodes with a destination and a source type suffix (`cvt.u32.f32`) whose first operand
/// is checked against the destination type and the others against the source type, as memory
/// data (a register of the type, a bit register of its width, or a wider integer/bit
/// register; probed: `cvt.u32.u16 %rd1, %h1` is accepted, `cvt.u32.u64 %r1, %r1` and
/// `cvt.u32.u32 %r1, %f1` are `Arguments mismatch`). With a scalar destination type they
/// take exactly two operands.
pub const SPLIT_TYPE_OPERANDS: &str = "cvt";

/// Modifiers that need another: `opcodes | modifiers | any of these | message key`; the
/// message takes the modifier and the opcode (probed: `ld.nc` without `.global`,
/// `ld.relaxed.global` without a scope).
pub const MODIFIER_REQUIRES: &str = r"
ld | nc | global | NC_GLOBAL
ld st | relaxed acquire release | cta cluster gpu sys | SCOPE_REQUIRED
ld st | cta cluster gpu sys | relaxed acquire release volatile weak | ORDER_REQUIRED
";

/// Modifier / modifier conflicts: `opcodes | modifiers | conflicting modifiers | message key`;
/// the message takes the modifier and the conflicting one (probed: memory orders and
/// `.volatile` on `.param`/`.const` ld/st; `.sat` with integer types other than `.s32`).
pub const MODIFIER_CONFLICTS: &str = r"
ld st | relaxed acquire release | param const | SPACE_MODIFIER
ld st | volatile | param | SPACE_MODIFIER
ld | volatile weak relaxed acquire | nc | MODIFIER_COMBINE
ld st | volatile weak | cta cluster gpu sys | MODIFIER_COMBINE
add sub | sat | u16 u32 u64 s16 s64 | SAT_TYPE
";

/// State spaces an opcode refuses (`State space incorrect for instruction '…'`):
/// `opcodes | spaces`.
pub const ILLEGAL_SPACES: &str = r"
st | const
ldu | shared local const param
prefetch | shared shared::cta shared::cluster
";

/// Opcodes without a modifier vocabulary that take no state space at all: any one is `No
/// state space qualifier expected for instruction '…'`, reported once, after the operands and
/// only when they fit, before an illegal rounding (probed: `vmax2.s32.s32.s32.global`,
/// `.shared::cta`, `.param`, two spaces, a space before the types; scalar `vmax`, `vshl`,
/// `vmad`; 4-way `vadd4`, `vset2` with a comparison).
pub const NO_SPACE_OPCODES: &str = "vadd vsub vabsdiff vmin vmax vshl vshr vmad vset \
    vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4 vset4";

/// Opcodes whose explicit state space must be that of the variable an address (or, for
/// `cvta`, the source operand) names: `opcodes`. Spaces compare without their `::` suffix;
/// no space (generic) is not checked. Another space is `State space mismatch between
/// instruction and address` (probed on ld/st/atom/red/cvta with module and function
/// variables and parameters).
pub const ADDRESS_SPACE_CHECKED: &str = "ld st atom red cvta";

/// Opcodes whose address may be an immediate (`[256]`) only in `.local` (`Immediate
/// addresses allowed only for .local state space`; probed: ld/st in every other space and
/// generic).
pub const IMMEDIATE_ADDRESS_LOCAL_ONLY: &str = "ld st";

/// Opcodes whose size modes (`hi lo wide`) exclude each other: a second `.hi`/`.lo` is read as
/// a comparison (`Comparison qualifier is not allowed for instruction 'mul.wide'`), a second
/// `.wide` is `Unknown modifier` then `Arguments mismatch` (the name carries the first mode).
pub const SIZE_MODES: &str = "mul mad";

/// Opcodes that may not write a function's input parameters (`Illegal to write to function
/// input parameter '…'`; probed: `st.param` to an input parameter of a function or kernel).
pub const WRITES_MEMORY: &str = "st";

/// Rounding-rule extras: `opcode | type` pairs whose `.approx` form needs `.ftz`
/// (`'.ftz' modifier required for instruction 'rcp.approx.f64'`).
pub const APPROX_NEEDS_FTZ: &str = r"
rcp | f64
";

/// Opcodes whose destination may not be the sink `_` (fatal `Result discard mode is not
/// allowed`).
pub const NO_DISCARD: &str = "mov";

/// Opcodes whose data operand follows the `.vN` modifier (none: a scalar), as
/// `opcode | operand index | role`; role `D` is a destination (a scalar where a vector is
/// due answers `Result vector expected` first), `S` a source. A brace list of the wrong
/// length, or a scalar where a vector is due, answers `Argument vector size mismatch`,
/// which ptxas prints twice for a destination under `.vN` (probed).
pub const VECTOR_OPERANDS: &str = r"
ld  | 0 | D
ldu | 0 | D
st  | 1 | S
";

/// Opcodes whose operands are all vectors of the `.vN` modifier's length when they are brace
/// lists (`mov.v2.u32 {%r1,%r2}, {%r3}` is `Argument vector size mismatch`, once per operand;
/// probed).
pub const VECTOR_MOVES: &str = "mov";

/// `wmma.load`/`wmma.store` fragment sizes: `matrix shape type registers` (matrix `d` of
/// `wmma.store` has the sizes of `c`). A brace list of another length answers `Argument
/// vector size mismatch`; these instructions take 2 or 3 operands (probed, every row).
pub const WMMA_FRAGMENTS: &str = r"
a m16n16k16 f16 8
b m16n16k16 f16 8
c m16n16k16 f16 4
c m16n16k16 f32 8
a m32n8k16 f16 8
b m32n8k16 f16 8
c m32n8k16 f16 4
c m32n8k16 f32 8
a m8n32k16 f16 8
b m8n32k16 f16 8
c m8n32k16 f16 4
c m8n32k16 f32 8
a m16n16k16 s8 2
b m16n16k16 s8 2
a m16n16k16 u8 2
b m16n16k16 u8 2
c m16n16k16 s32 8
a m32n8k16 s8 4
b m32n8k16 s8 1
a m32n8k16 u8 4
b m32n8k16 u8 1
c m32n8k16 s32 8
a m8n32k16 s8 1
b m8n32k16 s8 4
a m8n32k16 u8 1
b m8n32k16 u8 4
c m8n32k16 s32 8
a m16n16k16 bf16 4
b m16n16k16 bf16 4
a m32n8k16 bf16 8
b m32n8k16 bf16 2
a m8n32k16 bf16 2
b m8n32k16 bf16 8
a m16n16k8 tf32 4
b m16n16k8 tf32 4
c m16n16k8 f32 8
a m8n8k4 f64 1
b m8n8k4 f64 1
c m8n8k4 f64 2
a m8n8k32 s4 1
b m8n8k32 s4 1
a m8n8k32 u4 1
b m8n8k32 u4 1
c m8n8k32 s32 2
a m8n8k128 b1 1
b m8n8k128 b1 1
c m8n8k128 s32 2
";

/// `wmma.load`/`wmma.store` types by matrix: `matrices | legal types | types answered
/// `Illegal type for wmma.load.a``; any other type is `Unexpected instruction types`. A legal
/// type without a [`WMMA_FRAGMENTS`] row for the shape is `Incorrect instruction type
/// specified for wmma.load.a with shape '.m8n8k4'`, except that `.f64`, and `c`/`d` on the
/// integer-only shapes, answer `Argument vector size mismatch`, and the sub-byte types on a
/// shape without sub-byte rows `Unexpected instruction types` twice (probed).
pub const WMMA_TYPES: &str = r"
a b | f16 bf16 tf32 f64 s8 u8 s4 u4 b1 | f32
c d | f16 f32 f64 s32 | -
";

/// Operand kinds checked on the last operand only, for opcodes whose middle operands are
/// optional: `pattern | kind letter` (as in [`OPCODES`]), the pattern as in [`GATES`]; a misfit
/// is `Arguments mismatch` (probed: `bar.red.popc.u32 %r1, 0, %r2` is refused, `…, 0, 32, %p1`,
/// `…, 0, !%p1` and `…, 0, 1` are accepted).
pub const LAST_OPERAND: &str = r"
bar.red | q
";

/// Operand counts for instruction forms the [`OPCODES`] row does not bound: `pattern | min-max`,
/// the pattern as in [`GATES`]; another count is `Arguments mismatch`. Opcodes listed with
/// `sig` take at most as many operands as their selected signature has kinds (probed:
/// `cp.async.cg.shared.global [s], [%rd1]`; `max.s32` with 4 operands, 3 inputs being f32 only;
/// the scalar video instructions with a secondary operation take `d, a, b, c`; createpolicy:
/// `.fractional` d{, fraction}, `.range` d, [a], primary, total, `.cvt` d, a).
pub const OPERAND_COUNTS: &str = r"
createpolicy.fractional | 1-2
createpolicy.range | 4
createpolicy.cvt | 2
cp.async.ca | 3-5
cp.async.cg | 3-5
min | sig
max | sig
vmad | 4
vadd.add | 4
vadd.min | 4
vadd.max | 4
vsub.add | 4
vsub.min | 4
vsub.max | 4
vabsdiff.add | 4
vabsdiff.min | 4
vabsdiff.max | 4
vmin.add | 4
vmin.min | 4
vmin.max | 4
vmax.add | 4
vmax.min | 4
vmax.max | 4
vshl.add | 4
vshl.min | 4
vshl.max | 4
vshr.add | 4
vshr.min | 4
vshr.max | 4
vset.add | 4
vset.min | 4
vset.max | 4
";

/// Opcodes whose destination (first operand) may not be an immediate (`Result register
/// required for instruction '…'`; probed; the others answer `Arguments mismatch`).
pub const RESULT_REGISTER: &str = "mov";

/// Opcodes that read special registers and whose destination (first operand) therefore
/// cannot be one: `Read-only special register cannot be destination argument` (probed; the
/// other opcodes refuse special registers altogether).
pub const SREG_READERS: &str = "mov cvt";

/// Opcodes that take special registers as source operands; every other opcode answers
/// `Special register argument not allowed for instruction '…'` once per special-register
/// operand, after the operand checks (probed on 25 opcodes). `cvt` takes them only between
/// integer types (`cvt.u64.u32 %rd1, %tid.x`; `cvt.rn.f32.u32 %f1, %tid.x` is refused).
pub const SREG_OPERANDS: &str = "mov cvt";

/// Opcodes that accept negated register operands (`-%r`); every other opcode answers
/// `Operand negation not allowed` (probed: only `vmad` among the video instructions).
pub const NEGATABLE: &str = "vmad";

/// Every matrix shape modifier ptxas's scanner knows (probed: `and.<shape>.b32` for
/// m ∈ {1, 2, 4, …, 256}, n ∈ 1..=32 and multiples of 8 up to 512, k ∈ {none, 1, 2, 4, 6, 8,
/// 16, …, 512}; these answer `Illegal modifier` or a target message, all others `Unknown
/// modifier`).
pub const SHAPES: &str = "
m8n8 m8n8k4 m8n8k16 m8n8k32 m8n8k64 m8n8k128 m8n16 m8n32k16 m16n8 m16n8k4 m16n8k8 m16n8k16 m16n8k32
m16n8k64 m16n8k128 m16n8k256 m16n16 m16n16k8 m16n16k16 m32n8k16 m64n8k8 m64n8k16 m64n8k32 m64n8k64
m64n8k256 m64n16k8 m64n16k16 m64n16k32 m64n16k64 m64n16k256 m64n24k8 m64n24k16 m64n24k32 m64n24k64
m64n24k256 m64n32k8 m64n32k16 m64n32k32 m64n32k64 m64n32k256 m64n40k8 m64n40k16 m64n40k32 m64n40k64
m64n48k8 m64n48k16 m64n48k32 m64n48k64 m64n48k256 m64n56k8 m64n56k16 m64n56k32 m64n56k64 m64n64k8
m64n64k16 m64n64k32 m64n64k64 m64n64k256 m64n72k8 m64n72k16 m64n72k32 m64n72k64 m64n80k8 m64n80k16
m64n80k32 m64n80k64 m64n80k256 m64n88k8 m64n88k16 m64n88k32 m64n88k64 m64n96k8 m64n96k16 m64n96k32
m64n96k64 m64n96k256 m64n104k8 m64n104k16 m64n104k32 m64n104k64 m64n112k8 m64n112k16 m64n112k32
m64n112k64 m64n112k256 m64n120k8 m64n120k16 m64n120k32 m64n120k64 m64n128k8 m64n128k16 m64n128k32
m64n128k64 m64n128k256 m64n136k8 m64n136k16 m64n136k32 m64n136k64 m64n144k8 m64n144k16 m64n144k32
m64n144k64 m64n144k256 m64n152k8 m64n152k16 m64n152k32 m64n152k64 m64n160k8 m64n160k16 m64n160k32
m64n160k64 m64n160k256 m64n168k8 m64n168k16 m64n168k32 m64n168k64 m64n176k8 m64n176k16 m64n176k32
m64n176k64 m64n176k256 m64n184k8 m64n184k16 m64n184k32 m64n184k64 m64n192k8 m64n192k16 m64n192k32
m64n192k64 m64n192k256 m64n200k8 m64n200k16 m64n200k32 m64n200k64 m64n208k8 m64n208k16 m64n208k32
m64n208k64 m64n208k256 m64n216k8 m64n216k16 m64n216k32 m64n216k64 m64n224k8 m64n224k16 m64n224k32
m64n224k64 m64n224k256 m64n232k8 m64n232k16 m64n232k32 m64n232k64 m64n240k8 m64n240k16 m64n240k32
m64n240k64 m64n240k256 m64n248k8 m64n248k16 m64n248k32 m64n248k64 m64n256k8 m64n256k16 m64n256k32
m64n256k64 m64n256k256
";

/// Data-type suffixes (without the dot).
pub const TYPES: &str = "b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 f32 f64 bf16 bf16x2 tf32 e4m3 e5m2 \
e4m3x2 e5m2x2 e2m1 e2m1x2 e2m3 e3m2 e2m3x2 e3m2x2 ue8m0 ue8m0x2 ue4m3 s4 u4 s2 u2 b1 pred s16x2 u16x2 s2f6x2 e4m3x4 e5m2x4 e2m1x4 e2m3x4 e3m2x4 b4x16 b6x16 b6p2x16 b4x16_p64";

/// Non-type modifiers (without the dot).
pub const MODIFIERS: &str = "
sat cc hi lo wide rn rz rm rp rni rzi rmi rpi rna rs ftz approx full noftz relu nan xorsign abs NaN satfinite
eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or xor popc
global shared local const param generic tex surf shared::cta shared::cluster param::entry param::func to
ca cg cs lu cv wb wt nc volatile relaxed acquire release acq_rel weak mmio sc
cta cluster gpu sys warp
L1::evict_normal L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate
L2::evict_normal L2::evict_first L2::evict_last L2::evict_unchanged L2::cache_hint L2::64B L2::128B L2::256B
L2::no_allocate L2 L1
uni sync aligned all any ballot uni up down bfly idx clamp wrap l r shiftamt
arrive red wait warp cluster arrive_drop init inval test_wait try_wait expect_tx complete_tx pending_count parity
noComplete release.cluster mbarrier::complete_tx::bytes mbarrier::expect_tx::bytes
async bulk tensor commit_group wait_group wait_all wait_group.read read bulk_group prefetch
1d 2d 3d 4d 5d tile im2col im2col::w im2col::w::128 tile::gather4 tile::scatter4 multicast::cluster
proxy alias tensormap generic::release generic::acquire async.global async.shared::cta async.shared::cluster
add inc dec min max cas exch and or xor
row col trans load store mma mma_async fence arrive wait commit_group
sp sp::ordered_metadata ordered_metadata block_scale scale_vec::1X scale_vec::2X scale_vec::4X kind::f16 kind::tf32
kind::f8f6f4 kind::i8 kind::mxf8f6f4 kind::mxf4 kind::mxf4nvf4 collector::a::fill collector::a::use
collector::a::lastuse collector::a::discard
ecl ecr shr7 shr15 po reduce replace cp_fenceproxy mask global_address b1024 mbarrier::arrive::one b0 b1 b2 b3 h0 h1 f4e b4e rc8 rc16
alloc dealloc relinquish_alloc_permit shift commit cta_group::1 cta_group::2 wait::ld wait::st
16x64b 16x128b 16x256b 32x32b 16x32bx2 128x256b 4x256b 128x128b 64x128b warpx2::02_13 warpx2::01_23 warpx4
pack::16b unpack::16b
fractional evict_last evict_normal evict_first evict_unchanged L2::evict_last
level lod grad base 1d 2d 3d a1d a2d cube acube 2dms a2dms
trap clamp zero b t p
try_cancel query_cancel is_canceled get_first_ctaid get_first_ctaid::x get_first_ctaid::y get_first_ctaid::z
multicast::cluster::all launch_dependents
ld_reduce st ld weak.gpu
width height depth channel_data_type channel_order normalized_coords filter_mode addr_mode_0 addr_mode_1
addr_mode_2 force_unnormalized_coords samp_pos array_size num_mipmap_levels num_samples
inc dec L1::evict_first L1::evict_last a b c d gl mbarrier mbarrier_init ecl ecr s32 op_restrict m8n8 m16n8 m16n16 m8n16 m32n8 m16n8k8 release acquire
unified uniform
finite infinite number notanumber normal subnormal
fence::before_thread_sync fence::after_thread_sync
rmi rni
oob nomask
remote
range cvt tensormap::generic sync_restrict::shared::cluster sync_restrict::shared::cta noinc
";

/// Gates: pattern | SM | PTX | style | feature.
pub const GATES: &str = r"
.bf16 | 80 | 7.0 | F | =
.NaN | 80 | 7.0 | M | .NaN
.bf16x2 | 80 | 7.0 | F | =
fma.bf16 | 80 | 7.0 | F | .bf16
fma.bf16x2 | 80 | 7.0 | F | .bf16x2
min.bf16 | 80 | 7.0 | F | .bf16
min.bf16x2 | 80 | 7.0 | F | .bf16x2
max.bf16 | 80 | 7.0 | F | .bf16
max.bf16x2 | 80 | 7.0 | F | .bf16x2
neg.bf16 | 80 | 7.0 | F | .bf16
neg.bf16x2 | 80 | 7.0 | F | .bf16x2
abs.bf16 | 80 | 7.0 | F | .bf16
abs.bf16x2 | 80 | 7.0 | F | .bf16x2
ex2.bf16 | 90 | 7.8 | F | =
ex2.bf16x2 | 90 | 7.8 | F | =
tanh.bf16 | 90 | 7.8 | F+ | =
tanh.bf16x2 | 90 | 7.8 | F+ | =
setp.bf16 | 90 | 7.8 | F | =
setp.bf16x2 | 90 | 7.8 | F | =
cvt.bf16.f32 | 80 | 7.0 | F | =
cvt.f32.bf16 | 80 | 7.1 | F | cvt with .f32.bf16
.aligned | 0 | 6.0 | F | =
.b128 | 70 | 8.3 | P | Instruction type .b128 for instruction {op}
add.bf16 | 90 | 7.8 | F | =
sub.bf16 | 90 | 7.8 | F | =
mul.bf16 | 90 | 7.8 | F | =
redux | 80 | 7.0 | F | =
redux.f32 | 100 | 8.6 | A+ | =
mbarrier.init | 80 | 7.0 | F | =
mbarrier.inval | 80 | 7.0 | F | =
mbarrier.arrive | 80 | 7.0 | F | =
mbarrier.arrive_drop | 80 | 7.0 | F | =
mbarrier.test_wait | 80 | 7.0 | F | =
mbarrier.pending_count | 80 | 7.0 | F | =
mbarrier.try_wait | 90 | 7.8 | F | =
mbarrier.expect_tx | 90 | 8.0 | F | =
mbarrier.complete_tx | 90 | 8.0 | F | =
griddepcontrol.wait | 90 | 7.8 | M | .wait
griddepcontrol.launch_dependents | 90 | 7.8 | M | .launch_dependents
griddepcontrol | 90 | 7.8 | I | =
# f16 atomics (probed: the name spells operation, type and space; f16x2 is not gated)
atom.global.add.f16 | 70 | 6.3 | J | atom.add.f16.global
atom.add.global.f16 | 70 | 6.3 | J | atom.add.f16.global
atom.shared.add.f16 | 70 | 6.3 | J | atom.add.f16.shared
atom.add.shared.f16 | 70 | 6.3 | J | atom.add.f16.shared
atom.~global.~shared.~shared::cta.~shared::cluster.add.f16 | 70 | 6.3 | J | atom.add.f16 with generic state space
atom.global.min.f16 | 90 | 8.1 | J | atom.min.f16.global
atom.min.global.f16 | 90 | 8.1 | J | atom.min.f16.global
atom.shared.min.f16 | 90 | 8.1 | J | atom.min.f16.shared
atom.min.shared.f16 | 90 | 8.1 | J | atom.min.f16.shared
atom.~global.~shared.~shared::cta.~shared::cluster.min.f16 | 90 | 8.1 | J | atom.min.f16 with generic state space
atom.global.max.f16 | 90 | 8.1 | J | atom.max.f16.global
atom.max.global.f16 | 90 | 8.1 | J | atom.max.f16.global
atom.shared.max.f16 | 90 | 8.1 | J | atom.max.f16.shared
atom.max.shared.f16 | 90 | 8.1 | J | atom.max.f16.shared
atom.~global.~shared.~shared::cta.~shared::cluster.max.f16 | 90 | 8.1 | J | atom.max.f16 with generic state space
red.global.add.f16 | 70 | 6.3 | J | red.add.f16.global
red.add.global.f16 | 70 | 6.3 | J | red.add.f16.global
red.shared.add.f16 | 70 | 6.3 | J | red.add.f16.shared
red.add.shared.f16 | 70 | 6.3 | J | red.add.f16.shared
red.~global.~shared.~shared::cta.~shared::cluster.add.f16 | 70 | 6.3 | J | red.add.f16 with generic state space
red.global.min.f16 | 90 | 8.1 | J | red.min.f16.global
red.min.global.f16 | 90 | 8.1 | J | red.min.f16.global
red.shared.min.f16 | 90 | 8.1 | J | red.min.f16.shared
red.min.shared.f16 | 90 | 8.1 | J | red.min.f16.shared
red.~global.~shared.~shared::cta.~shared::cluster.min.f16 | 90 | 8.1 | J | red.min.f16 with generic state space
red.global.max.f16 | 90 | 8.1 | J | red.max.f16.global
red.max.global.f16 | 90 | 8.1 | J | red.max.f16.global
red.shared.max.f16 | 90 | 8.1 | J | red.max.f16.shared
red.max.shared.f16 | 90 | 8.1 | J | red.max.f16.shared
red.~global.~shared.~shared::cta.~shared::cluster.max.f16 | 90 | 8.1 | J | red.max.f16 with generic state space
cp.~reduce.~prefetch.async.bulk | 90 | 8.0 | F | cp.async.bulk
cp.~reduce.~prefetch.async.bulk.tensor | 90 | 8.0 | F | cp.async.bulk.tensor
cp.async.bulk.prefetch | 90 | 8.0 | F | =
cp.async.bulk.prefetch.tensor | 90 | 8.0 | F | =
cp.reduce.async.bulk | 90 | 8.0 | F | =
cp.reduce.async.bulk.tensor | 90 | 8.0 | F | =
cp.tile | 90 | 8.0 | F+ | .tile
st.async | 90 | 8.1 | F | =
st.bulk | 100 | 8.6 | P | =
tensormap.replace | 90 | 8.3 | A | =
tensormap.tile | 90 | 8.0 | F+ | .tile
st.async.shared::cluster | 90 | 7.8 | F+ | ::cluster
st.async.mbarrier::complete_tx::bytes | 90 | 8.0 | F+ | .mbarrier::complete_tx::bytes
st.async.cluster | 90 | 7.8 | F+ | .cluster scope
red.async | 90 | 8.1 | F | =
red.async.shared::cluster | 90 | 7.8 | F+ | ::cluster
red.async.mbarrier::complete_tx::bytes | 90 | 8.0 | F+ | .mbarrier::complete_tx::bytes
red.async.cluster | 90 | 7.8 | F+ | .cluster scope
cp.mbarrier::complete_tx::bytes | 90 | 8.0 | F+ | .mbarrier::complete_tx::bytes
cp.bulk_group | 90 | 8.0 | F+ | .bulk_group
cp.async.wait_all | 80 | 7.0 | F | =
cp.async.wait_group | 80 | 7.0 | F | =
cp.async.commit_group | 80 | 7.0 | F | =
cp.async.mbarrier | 80 | 7.0 | F | =
cp.async | 80 | 7.0 | F | =
ldmatrix | 75 | 6.5 | P | =
ldmatrix.m8n8 | 75 | 6.5 | P+ | .m8n8
stmatrix | 90 | 7.8 | F | =
movmatrix | 75 | 7.8 | F | =
mapa | 90 | 7.8 | F | =
getctarank | 90 | 7.8 | F | =
multimem.ld_reduce | 90 | 8.1 | F | =
multimem.st | 90 | 8.1 | F | =
multimem.red | 90 | 8.1 | F | =
elect | 90 | 8.0 | P | =
nanosleep | 70 | 6.2 | F | =
activemask | 30 | 6.2 | F | =
stacksave | 52 | 7.3 | F | =
stackrestore | 52 | 7.3 | F | =
alloca | 52 | 7.3 | F | =
szext | 70 | 7.6 | F | =
bmsk | 70 | 7.6 | F | =
tanh | 75 | 7.0 | F | =
ex2.approx.f16 | 75 | 7.0 | F | ex2.f16/f16x2
ex2.approx.f16x2 | 75 | 7.0 | F | ex2.f16/f16x2
match | 70 | 6.0 | I | =
shfl.sync | 30 | 6.0 | F | =
vote.sync | 30 | 6.0 | F | =
bar.warp.sync | 30 | 6.0 | F | bar.warp
barrier.sync | 30 | 6.0 | F | barrier
barrier.~cluster.arrive | 30 | 6.0 | F | barrier
barrier.red | 30 | 6.0 | F | barrier
barrier.cluster.arrive | 90 | 7.8 | F | =
barrier.cluster.wait | 90 | 7.8 | F | =
clusterlaunchcontrol.try_cancel | 100 | 8.6 | F | clusterlaunchcontrol.try_cancel.async
clusterlaunchcontrol.query_cancel | 100 | 8.6 | F | =
mma.e4m3 | 89 | 8.4 | P | mma with FP8 floating point type
mma.e5m2 | 89 | 8.4 | P | mma with FP8 floating point type
cvt.e4m3x2 | 89 | 7.8 | F | cvt with .e4m3x2/.e5m2x2
cvt.e5m2x2 | 89 | 7.8 | F | cvt with .e4m3x2/.e5m2x2
fence.proxy.async | 90 | 8.0 | M | .async
fence.proxy.alias | 60 | 7.5 | M | .alias
fence.proxy | 70 | 7.5 | P | =
ld.L2::64B | 75 | 7.4 | F | cache prefetching
ld.L2::128B | 75 | 7.4 | F | cache prefetching
ld.L2::256B | 80 | 7.4 | F | cache prefetching
ld.v8 | 100 | 8.8 | P | 256 bit wide load/store
ld.v4.b64 | 100 | 8.8 | P | 256 bit wide load/store
ld.v4.u64 | 100 | 8.8 | P | 256 bit wide load/store
ld.v4.s64 | 100 | 8.8 | P | 256 bit wide load/store
ld.v4.f64 | 100 | 8.8 | P | 256 bit wide load/store
st.v8 | 100 | 8.8 | P | 256 bit wide load/store
st.v4.b64 | 100 | 8.8 | P | 256 bit wide load/store
st.v4.u64 | 100 | 8.8 | P | 256 bit wide load/store
st.v4.s64 | 100 | 8.8 | P | 256 bit wide load/store
st.v4.f64 | 100 | 8.8 | P | 256 bit wide load/store
min.relu | 90 | 0 | F | =
max.relu | 90 | 0 | F | =
fma.relu | 80 | 0 | M | .relu
cvt.relu | 80 | 0 | M | .relu
min.relu | 80 | 0 | M | .relu
max.relu | 80 | 0 | M | .relu
add.s16x2 | 90 | 8.0 | F | =
add.u16x2 | 90 | 8.0 | F | =
sub.s16x2 | 90 | 8.0 | F | =
sub.u16x2 | 90 | 8.0 | F | =
min.s16x2 | 90 | 8.0 | F | =
min.u16x2 | 90 | 8.0 | F | =
max.s16x2 | 90 | 8.0 | F | =
max.u16x2 | 90 | 8.0 | F | =
lop3 | 50 | 4.3 | F | =
shf | 32 | 3.1 | F | =
dp4a | 61 | 5.0 | F | =
dp2a | 61 | 5.0 | F | =
applypriority | 80 | 7.4 | F | =
discard | 80 | 7.4 | F | =
setmaxnreg.inc | 90 | 8.0 | A | =
setmaxnreg.dec | 90 | 8.0 | A | =
wgmma.fence | 90 | 8.0 | A | WGMMA
wgmma.commit_group | 90 | 8.0 | A | WGMMA
wgmma.wait_group | 90 | 8.0 | A | WGMMA
wgmma.mma_async | 90 | 8.0 | A | wgmma.mma_async with floating point types
tcgen05.alloc | 100 | 8.6 | A | =
tcgen05.dealloc | 100 | 8.6 | A | =
tcgen05.relinquish_alloc_permit | 100 | 8.6 | A | =
tcgen05.ld | 100 | 8.6 | A | =
tcgen05.st | 100 | 8.6 | A | =
tcgen05.wait | 100 | 8.6 | A | =
tcgen05.cp | 100 | 8.6 | A | =
tcgen05.shift | 100 | 8.6 | A | =
tcgen05.mma | 100 | 8.6 | A | =
tcgen05.commit | 100 | 8.6 | A | =
tcgen05.fence::before_thread_sync | 100 | 8.6 | A | tcgen05.fence;tcgen05.fence
tcgen05.fence::after_thread_sync | 100 | 8.6 | A | tcgen05.fence;tcgen05.fence
mbarrier.shared::cluster | 90 | 8.0 | P+ | .shared::cluster
*.~bulk.shared::cluster | 90 | 7.8 | P+ | ::cluster
";
