//! The Ori IR: ptxas's internal representation, as a typed Rust data model with a text format
//! that round-trips, a verifier, and one table of operation semantics.
//!
//! Ori is a machine-level IR with virtual registers (spec p12–p16). Right after lowering it
//! holds PTX-derived operations (`add.u32`, `ld.u64`); the bridge phases turn them into SASS
//! operations (`IADD3`, `LDG`) that still use virtual registers; register allocation then
//! replaces virtual registers with physical ones. One IR covers all three states:
//!
//! | module | concept |
//! |---|---|
//! | [`entity`] | typed `u32` ids (`Block`, `Inst`, `VReg`) and their tables |
//! | [`reg`] | register files R/UR/P/UP/B/UB, classes (width in 32-bit components), physical registers and tuples |
//! | [`mods`] | instruction modifiers: types, comparisons, rounding, flags |
//! | [`operand`] | source operands: registers with modifiers, immediates, `c[bank][off]`, memory, special registers, blocks, functions |
//! | [`opcode`] | the opcode enum and its description table (signature, flags, modifiers, semantics key) |
//! | [`function`] | instructions, blocks, functions, modules, layout |
//! | [`cfg`] | the CFG derived from terminators, dominators |
//! | [`semantics`] | what the pure opcodes compute, bit-exactly (shared by interpreter and folding) |
//! | [`fence`] | the PTX fence forms and the SASS sequence of each |
//! | [`mbarrier`] | the mbarrier word and its operations (shared by interpreter and emulator) |
//! | [`tensor`] | what the warp-collective tensor-core opcodes compute (shared by interpreter and emulator) |
//! | [`float`] | correctly rounded IEEE binary32/binary64 arithmetic with all four rounding modes |
//! | [`print`], [`parse`] | the text format |
//! | [`verify`] | the invariants, checked |
//!
//! # Text format
//!
//! ```text
//! module   := var* function*
//! var      := "var" ("global" | "const" | "shared") "$" NAME SIZE ALIGN ["0x" HEXBYTES]
//!             ("reloc" OFFSET WIDTH "$" NAME ["+" | "-"] ADDEND)*
//! function := ("entry" | "func") "@" NAME "(" [reg ("," reg)*] ")"
//!             ["->" "(" [CLASS ("," CLASS)*] ")"] ["ssa"] ["sass"] ["allocated"] "{" NL
//!             (label | inst)* "}" NL
//! label    := "bb" N ":" NL                         -- a block; text order is layout order
//! inst     := [guard] [reg ("," reg)* "="] MNEMONIC ("." MODIFIER)* [operand ("," operand)*] NL
//! guard    := "@" ["!"] reg
//! operand  := ["!" | "~"] ["-"] ["|"] reg ["|"]    -- not, negate, absolute value
//!           | INT | "-" INT | "0f" HEX8 | "0d" HEX16 -- immediates (floats as IEEE bits)
//!           | "c[" INT "][" (reg [("+"|"-") INT] | INT) "]"
//!           | SPACE "[" ["$" SYM] ["+" reg] [("+"|"-") INT] "]"   -- global shared local const param generic
//!           | SR_NAME | "bb" N | "@" NAME
//! reg      := "%" PREFIX N                          -- virtual: prefix gives the class
//!           | PHYS [":" PHYS]                       -- physical register or tuple R4:R5, R8:R11
//! CLASS    := r32 r64 r128 ur32 ur64 ur128 p up b ub
//! PREFIX   := r rd rq ur urd urq p up b ub          -- same order as CLASS
//! PHYS     := R<n> UR<n> P<n> UP<n> B<n> UB<n> RZ URZ PT UPT
//! ```
//!
//! Comments run from `;` or `//` to the end of the line. PTX-stage mnemonics are lower case,
//! SASS-stage upper case; modifiers are printed in the mnemonic's case and read in any case.
//! For example:
//!
//! ```text
//! func @add1(%r0) -> (r32) ssa {
//! bb0:
//!     %r1 = add.u32 %r0, 0x10
//!     %p2 = setp.lt.u32 %r1, %r0
//!     @%p2 bra bb2
//! bb1:
//!     ret %r1
//! bb2:
//!     ret %r0
//! }
//! ```
//!
//! A guarded terminator falls through to the next block of the layout when its guard is
//! false; every other transfer is explicit, so every block ends in a terminator.

pub mod cfg;
pub mod entity;
pub mod fence;
pub mod float;
pub mod fp8;
pub mod function;
pub mod gmma;
pub mod mbarrier;
pub mod mods;
pub mod opcode;
pub mod operand;
pub mod parse;
pub mod print;
pub mod reg;
pub mod semantics;
pub mod tensor;
pub mod texture;
pub mod verify;

pub use entity::{Block, EntityRef, EntityVec, Inst, VReg};
pub use function::{BlockData, FuncKind, Function, Guard, InstData, Module, ModuleVar, VarReloc};
pub use mods::{BoolOp, Cmp, Dir, Flag, Half, Mods, Mufu, Rnd, SubOp, Ty};
pub use opcode::{OpFlags, OpInfo, Opcode, Sem, Stage};
pub use operand::{CBank, Imm, MemRef, Operand, RegUse, Space, SpecialReg};
pub use parse::{ParseError, parse_function, parse_module};
pub use reg::{PhysReg, Reg, RegClass, RegFile, VRegData};
pub use verify::{VerifierError, VerifierErrors, verify_function, verify_module};
