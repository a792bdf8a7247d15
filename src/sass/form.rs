//! Table-driven instruction forms: ONE description per form drives decode, encode, print and
//! parse.
//!
//! A [`Form`] is identified by the 12-bit key in bits [0:12) (opcode + operand-form selector).
//! It lists its operand [`Slot`]s (bit positions, decorations, when nvdisasm shows them) and
//! names the mnemonic base. Every other bit of [12:105) except the guard is the form's
//! *residue*; the per-arch modifier table ([`ModEntry`], generated — see `gen/README.md`) maps
//! each known residue to the modifier suffix nvdisasm prints (`.GE.U32.AND`).
//!
//! Invariants:
//! - decoding never panics; a word whose key has no form, whose residue is not in the table, or
//!   whose bits 126–127 are set is an error, never a guess;
//! - every bit of a decoded word is owned by exactly one of: key, guard, a slot, the residue,
//!   the control field — so `encode(decode(w)) == w` holds by construction; where a slot's
//!   layout depends on a residue bit (sm_75 `LD`'s [`Kind::Mem::off_low`]), bits it owns but
//!   that layout leaves unused must be clear, or the word does not decode;
//! - encoding checks every field's range ([`super::bits::put`]).

use super::bits::{get, get_signed, mask, put, put_signed};
use super::control::{CONTROL_MASK, Control};
use super::operand::*;
use super::{DecodeError, EncodeError, ParseError};

/// How an immediate slot is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImmStyle {
    /// `0xfffffff0` (unsigned hex).
    Hex,
    /// `-0x10` (two's complement of the field width, signed hex).
    SignedHex,
    /// FP32 bits, printed as a float.
    F32,
    /// High 32 bits of an FP64, printed as a float.
    F64Hi,
    /// FP16 bits, printed as a float.
    F16,
    /// BF16 bits (the high half of an FP32), printed as a float.
    Bf16,
    /// FP16 bits, or BF16 bits when the word's bit `at` is set (`HFMA2.MMA.BF16_V2`).
    HalfBy {
        /// The `.BF16_V2` bit.
        at: u8,
    },
    /// Signed hex when the word's bit `at` is set, else unsigned (`I2F`: the signedness of its
    /// integer source; nvdisasm prints `I2F R15, -0x687355b7` but `I2F.U32 R15, 0x978caa49`).
    SignedBy {
        /// The signed-source bit.
        at: u8,
    },
    /// A decimal number after a fixed prefix (`SB3`: DEPBAR's scoreboard); values from
    /// `count` on print as nvdisasm names them, `INVALID6`.
    Named {
        /// The prefix.
        prefix: &'static str,
        /// How many values have a name.
        count: u8,
    },
    /// A set of bit indices, highest first (`{5,1,0}`: DEPBAR's scoreboard list).
    BitList,
    /// FP32 bits, or the high half of an FP64 when the `width`-bit field at `at` holds one of
    /// `f64_when` (MUFU: `.RCP64H`/`.RSQ64H` take an FP64 immediate).
    FloatBy {
        /// First bit of the selecting field.
        at: u8,
        /// Its width.
        width: u8,
        /// Field values that select FP64.
        f64_when: &'static [u8],
    },
}

impl ImmStyle {
    /// The concrete style for a word (resolves [`ImmStyle::FloatBy`]).
    pub fn resolve(self, w: u128) -> ImmStyle {
        match self {
            ImmStyle::FloatBy { at, width, f64_when } => {
                if f64_when.iter().any(|&v| u64::from(v) == get(w, at.into(), width.into())) {
                    ImmStyle::F64Hi
                } else {
                    ImmStyle::F32
                }
            }
            ImmStyle::HalfBy { at } => {
                if get(w, at.into(), 1) == 1 {
                    ImmStyle::Bf16
                } else {
                    ImmStyle::F16
                }
            }
            ImmStyle::SignedBy { at } => {
                if get(w, at.into(), 1) == 1 {
                    ImmStyle::SignedHex
                } else {
                    ImmStyle::Hex
                }
            }
            s => s,
        }
    }
}

/// How a branch target is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// sm_90+ BRA/CALL: offset bits [2:10) in [16:24), bits [10..) signed in [34:82).
    Split,
    /// Signed byte offset in [32:82) (BSSY on sm_90, everything before sm_90).
    Plain,
    /// Stored as [`TargetKind::Split`] but not a branch target: the signed byte offset that
    /// `BRX` adds to its register and the next instruction's address (`BRX R2 -0x1a0`). It
    /// decodes to [`Value::Imm`] (two's complement) and prints raw, never as an address or a
    /// label.
    SplitRelative,
    /// Signed word offset (bytes / 4) in [34:82), before sm_90 (`BRA`, `CALL`, `RET`): bits
    /// [32:34) are not part of it (BRA's `.U`/`.DIV`/`.CONV` mode lives there).
    Quad,
    /// Signed word offset (bytes / 4) in [34:64): `BSSY` on sm_100+, whose bits 64.. hold
    /// `.RECONVERGENT` (73) and a predicate (87).
    QuadNarrow,
    /// Stored as [`TargetKind::Plain`], an immediate like [`TargetKind::SplitRelative`]
    /// (`BRX R2 -0x440` before sm_90).
    PlainRelative,
    /// Signed byte offset in [24:82): `LEPC` on sm_120 (`LEPC R20, 0x20`; its register is at
    /// 16, so the field starts right after it).
    Wide,
    /// An absolute, unsigned address stored like [`TargetKind::Split`] but 57 bits wide (bits
    /// [2:10) in [16:24), bits [10:57) in [34:81); nvdisasm ignores bit 81): sm_90's
    /// `CALL.ABS` (`CALL.ABS.NOINC 0x1fffffffffffe40`). It decodes to [`Value::Target`] holding
    /// the address itself; `.ABS` instructions print and parse their targets from 0, not from
    /// the next instruction (see [`target_base`]).
    SplitAbsolute,
    /// An absolute, unsigned address whose bits [2:49) are in [34:81): the sm_80 family's
    /// `CALL.ABS` (nvdisasm -b SM80 prints bit 34 as `CALL.ABS.NOINC 0x4`, bit 80 as
    /// `0x1000000000000`); decodes like [`TargetKind::SplitAbsolute`].
    QuadAbsolute,
}

/// The address a branch target field counts from: the next instruction (`addr + 16`), or 0 for
/// an absolute target (`CALL.ABS`, `RET.ABS`: the instruction's modifiers include `.ABS`).
pub fn target_base(suffix: &str, addr: u64) -> i64 {
    if suffix.split('.').any(|m| m == "ABS") { 0 } else { addr as i64 + 16 }
}

/// Where a slot's value lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// General register, 8 bits.
    R(u8),
    /// Uniform register, 6 bits.
    Ur(u8),
    /// Predicate, 3 bits.
    P(u8),
    /// Predicate stored inverted (3 bits, the index XOR 7: 0 is `PT`), as in `LDG` without a
    /// descriptor.
    PInv(u8),
    /// Uniform predicate stored inverted (the index XOR 7: 0 is `UPT`), as in `IMMA`.
    UpInv(u8),
    /// Predicate (3 bits at `at`) that is a uniform predicate when the word's bit `uniform` is
    /// set (`PLOP3`'s third source: `PT` or `UP0`).
    PredOrUp {
        /// First bit of the index.
        at: u8,
        /// The bit that selects the uniform predicate file.
        uniform: u8,
    },
    /// Uniform predicate, 3 bits.
    Up(u8),
    /// Immediate of `width` bits at `at`.
    Imm {
        /// First bit.
        at: u8,
        /// Width in bits.
        width: u8,
        /// Spelling.
        style: ImmStyle,
    },
    /// Unsigned immediate split in two fields: low `lo_width` bits at `lo_at`, the rest at
    /// `hi_at` (PLOP3's LUT). Printed in hex.
    ImmSplit {
        /// First bit of the low part.
        lo_at: u8,
        /// Width of the low part.
        lo_width: u8,
        /// First bit of the high part.
        hi_at: u8,
        /// Width of the high part.
        hi_width: u8,
    },
    /// Constant bank: bank in [54:59), offset `off_width` bits at `off_at` scaled by `scale`,
    /// optional index register at `index_at`.
    CBank {
        /// First offset bit.
        off_at: u8,
        /// Offset width.
        off_width: u8,
        /// Offset unit in bytes (4 for ALU operands, 1 for LDC).
        scale: u8,
        /// Index register field.
        index_at: Option<u8>,
        /// The offset field is signed (LDC/ULDC); the byte offset is then stored in
        /// [`Value::CBank`] as two's complement.
        signed: bool,
    },
    /// Memory address.
    Mem {
        /// Address register field.
        ra_at: Option<u8>,
        /// `.64` flag bit.
        wide_bit: Option<u8>,
        /// The address register is always 64-bit (`.64` printed, no bit: ATOMG).
        wide_always: bool,
        /// Uniform address register field.
        ur_at: Option<u8>,
        /// Bit that makes the uniform register visible (`[R+UR0]`); `None`: visible unless URZ.
        ur_flag: Option<u8>,
        /// The uniform register is always shown, `URZ` included (`SYNCS.EXCH.64 URZ, [URZ]`).
        ur_always: bool,
        /// Offset field (signed).
        off_at: u8,
        /// Offset width.
        off_width: u8,
        /// Descriptor uniform register field.
        desc_at: Option<u8>,
        /// With `ur_flag`: when the flag bit is clear the address has no uniform register and
        /// the offset starts at `ur_at` instead of `off_at`, `off_at - ur_at` bits wider (sm_75
        /// `LD` 0x980: `[R14+0x1]`, a 32-bit offset at 32; with the flag, `[R14.U32+UR4+0x10]`,
        /// a 24-bit offset at 40). Without a uniform register but with a descriptor, the same
        /// with the descriptor field and `ur_flag` as the descriptor's flag: when it is clear
        /// there is no descriptor, the offset starts at `desc_at`, and `.64` is not printed
        /// (`LD` 0x980 with bit 91 clear on sm_80..sm_120: `[R4+0x1004]`, a 32-bit offset at
        /// 32, whatever bit 90 holds; with the flag, `desc[UR4][R4.64+0x10]` on sm_90). The slot owns every bit from
        /// the low field to the offset's end; with the flag set, the bits between the low field
        /// and `off_at` (which nvdisasm ignores) must be clear, or the word does not decode
        /// ([`super::DecodeError::IgnoredBits`]).
        off_low: bool,
    },
    /// Special register, 8 bits.
    Sr(u8),
    /// Branch target.
    Target(TargetKind),
    /// Convergence barrier, 4 bits.
    B(u8),
}

/// When nvdisasm shows a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Always printed.
    Always,
    /// Printed unless it holds its default (RZ/URZ/PT/0 without decorations).
    IfNotDefault,
    /// Printed when the word's bit is 1.
    IfBit(u8),
    /// Printed when the first bit is 1 and the second 0.
    IfBitNot(u8, u8),
    /// Printed when the word's bit is 0.
    IfClear(u8),
    /// Printed when the word's bit is 1 and the operand is not its default
    /// (`HFMA2.RELU`'s predicate).
    IfBitOpt(u8),
    /// Printed when the word's bit is 1 or the operand is not its default (`R2UR.OR PT, UR9,
    /// R5`: the predicate result shows under `.OR`, bit 84, even when PT).
    IfBitOrNotDefault(u8),
    /// Printed unless the `width`-bit field at `at` holds one of `values` (`CCTL.IVALL` has no
    /// address).
    UnlessField {
        /// First bit of the field.
        at: u8,
        /// Its width.
        width: u8,
        /// Field values that hide the slot.
        values: &'static [u8],
    },
    /// Printed when the word's bits `bits` (bit `bits[i]` as bit `i` of a small number) form
    /// one of `values` (`F2FP`'s A and C, shown per its packing mode: bits 78, 89, 90).
    BitsIn {
        /// The word's bits, least significant first.
        bits: &'static [u8],
        /// The numbers that show the slot.
        values: &'static [u8],
    },
}

/// How a slot's negation bit is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NegStyle {
    /// `-R`.
    Minus,
    /// `~R`.
    Tilde,
    /// `~R` when the word's bit is 1, `-R` otherwise.
    TildeIfBit(u8),
}

/// One operand position of a form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Value field.
    pub kind: Kind,
    /// Visibility.
    pub show: Show,
    /// Negation bit.
    pub neg: Option<u8>,
    /// Spelling of the negation.
    pub neg_style: NegStyle,
    /// Absolute-value bit.
    pub abs: Option<u8>,
    /// Logical-not bit (`!P`).
    pub not: Option<u8>,
    /// Reuse flag index in the control word.
    pub reuse: Option<u8>,
    /// The next operand follows after a space, not `, ` (`RET.REL.NODEC R2 0x10`).
    pub glue: bool,
    /// A fixed operand printed before this one, owning no bits (`PR` in `P2R R0, PR, RZ, 0x1`).
    pub lead: Option<&'static str>,
    /// First bit of a 2-bit half-precision selector (`R2.H0_H0` in `HADD2`), printed last.
    pub hsel: Option<u8>,
    /// A 2-bit single-half selector `(at, when)`: value 1 prints `.H1` right after the register,
    /// inside `|..|` (`MUFU.EX2.F16 R1, -|R0.H1|`), and only when the word's bit `when` is set;
    /// 2 and 3 print as nvdisasm names them (`.INVALID2`, `.INVALID3`).
    pub h1: Option<(u8, u8)>,
    /// A 2-bit selector `(at, names)` printed after `.reuse` as `names[value]` (`I2IP`'s C:
    /// `R4.reuse.24`, value 2; `.28`, value 3). The names are fixed per slot: nvdisasm prints
    /// some values differently per opcode modifier (`I2IP.U8`'s 2 as `.???2`); only the
    /// combinations the tests check are claimed.
    pub named_sel: Option<(u8, &'static [&'static str; 4])>,
    /// A fixed decoration printed after `.reuse`, owning no bits (`R8.SIGN` in `PLOP3`).
    pub tail: Option<&'static str>,
    /// Fixed text printed right before the operand, owning no bits (`gdesc[` of HGMMA's
    /// `gdesc[UR4]`, with the tail `]`).
    pub prefix: Option<&'static str>,
    /// First bit of a 2-bit address scale on a memory slot's register (sm_80 shared memory:
    /// 0 none, 1 `.X4`, 2 `.X8`, 3 `.X16`, as in `[R0.X4+0x10]`), held in [`Operand::sel`].
    pub scale: Option<u8>,
    /// The memory slot's descriptor is encoded but not printed (sm_80–89 global accesses:
    /// `[R2.64]` with `UR4` in the descriptor field); the text does not carry it, unless
    /// [`Slot::desc_flag`] shows it.
    pub hide_desc: bool,
    /// With [`Slot::hide_desc`]: the word's bit that shows the descriptor after all (sm_80–89:
    /// bit 101, `LDG.E R6, desc[UR4][R2.64+0x38]`, an explicit cache policy).
    pub desc_flag: Option<u8>,
    /// sm_75 global addresses: when the uniform register is shown, the register prints `.U32`
    /// unless `.64` (`[R13.U32+UR4]`); without it, plain (`[R2+0x10]`); never when it is RZ,
    /// whatever its width (`[UR4]`).
    pub u32_ra: bool,
    /// Half selector 1 prints `.F32` (sm_75, sm_80 family: nvdisasm names it so on every HADD2,
    /// HFMA2, HMUL2 and HSETP2 source), not `.INVALID1`.
    pub f32_sel: bool,
    /// Uniform-register fields of this slot (a `UR` operand, an address's uniform register and
    /// descriptor, a constant's index register) are 8 bits wide with 255 as `URZ` (sm_100+:
    /// `nvdisasm -b SM100` names `UR0`..`UR254`), not 6 bits with 63. [`Value::Ur`] keeps 63 as
    /// `URZ`; a word holding a uniform register 63..=254 does not decode
    /// ([`super::DecodeError::UniformRegister`]). A constant's index register is then uniform
    /// (`c[0x0][UR4+0x10]`, `LDCU`), its raw field value kept in [`Value::CBank`] (255: none).
    pub ur8: bool,
    /// One-bit decorations the slot owns, each printed (in this order) after the operand when
    /// its bit is set (`gdesc[UR4].negA.tnspB` of `HGMMA`); held as a bit mask in
    /// [`Operand::sel`] (bit `k`: `marks[k]`), so a slot with marks has no other selector.
    pub marks: &'static [(u8, &'static str)],
    /// When the text does not show the slot, its field is encoded as 0 rather than the default
    /// value (`BAR.SYNC`'s predicate field, which ptxas leaves 0: `P0`, not `PT`).
    pub hidden_zero: bool,
    /// A memory operand whose bare offset (no register shown) prints signed (`LDSM R13,
    /// [-0x4419b4]`, nvdisasm -b SM90/SM100), where others print it unsigned in the field width
    /// (`LDS.U8 R13, [0xbbe64c]`).
    pub bare_signed: bool,
}

impl Slot {
    /// A slot with no decorations, always shown.
    pub const fn new(kind: Kind) -> Slot {
        Slot {
            kind,
            show: Show::Always,
            neg: None,
            neg_style: NegStyle::Minus,
            abs: None,
            not: None,
            reuse: None,
            glue: false,
            lead: None,
            hsel: None,
            h1: None,
            named_sel: None,
            tail: None,
            prefix: None,
            scale: None,
            hide_desc: false,
            desc_flag: None,
            u32_ra: false,
            f32_sel: false,
            ur8: false,
            hidden_zero: false,
            bare_signed: false,
            marks: &[],
        }
    }
    /// With a bare offset printed signed ([`Slot::bare_signed`]).
    pub const fn bare_signed(mut self) -> Slot {
        self.bare_signed = true;
        self
    }
    /// With one-bit decorations printed after the operand ([`Slot::marks`]).
    pub const fn marked(mut self, marks: &'static [(u8, &'static str)]) -> Slot {
        self.marks = marks;
        self
    }
    /// Encoded as 0 when the text does not show it (see [`Slot::hidden_zero`]).
    pub const fn hidden_zero(mut self) -> Slot {
        self.hidden_zero = true;
        self
    }
    /// With 8-bit uniform-register fields (sm_100+, see [`Slot::ur8`]).
    pub const fn ur8(mut self) -> Slot {
        self.ur8 = true;
        self
    }
    /// The width of this slot's uniform-register fields.
    const fn ur_width(&self) -> u32 {
        if self.ur8 { 8 } else { 6 }
    }
    /// A uniform register as stored (8-bit fields: 63 is stored as 255).
    fn ur_raw(&self, n: u8) -> u64 {
        if self.ur8 && n == 63 { 255 } else { n.into() }
    }
    /// A stored uniform register as a [`Value::Ur`] number (8-bit fields: 255 is 63).
    fn ur_value(&self, raw: u64) -> u8 {
        if self.ur8 && raw == 255 { 63 } else { raw as u8 }
    }
    /// Whether the word holds, in an 8-bit uniform-register field of this slot, a register the
    /// model does not represent (63..=254).
    pub fn ur_out_of_range(&self, w: u128) -> bool {
        if !self.ur8 {
            return false;
        }
        let bad = |at: Option<u8>| at.is_some_and(|a| (63..255).contains(&get(w, a.into(), 8)));
        match self.kind {
            Kind::Ur(at) => bad(Some(at)),
            // The low layout has neither: its offset lies over those fields.
            Kind::Mem { .. } if self.offset_low(w) => false,
            Kind::Mem { ur_at, desc_at, .. } => bad(ur_at) || bad(desc_at),
            Kind::CBank { index_at, .. } => bad(index_at),
            _ => false,
        }
    }
    /// With a 2-bit address scale at `at` (`[R0.X4]`).
    pub const fn scaled(mut self, at: u8) -> Slot {
        self.scale = Some(at);
        self
    }
    /// With its descriptor encoded but not printed.
    pub const fn desc_hidden(mut self) -> Slot {
        self.hide_desc = true;
        self
    }
    /// With its descriptor encoded, and printed only when the word's bit `flag` is set.
    pub const fn desc_hidden_unless(mut self, flag: u8) -> Slot {
        self.hide_desc = true;
        self.desc_flag = Some(flag);
        self
    }
    /// Where a memory slot's offset lives in the word `w` (first bit, width), and whether the
    /// uniform register field holds a register ([`Kind::Mem::off_low`] moves the offset down
    /// over it when the flag is clear). `None` for other slots.
    pub fn mem_offset(&self, w: u128) -> Option<(u8, u8, bool)> {
        let Kind::Mem { ur_at, off_at, off_width, .. } = self.kind else { return None };
        match self.low_field() {
            Some((at, flag)) if get(w, flag.into(), 1) == 0 => Some((at, off_width + off_at.saturating_sub(at), false)),
            _ => Some((off_at, off_width, ur_at.is_some())),
        }
    }
    /// With [`Kind::Mem::off_low`]: the field the offset moves down over when the flag is clear
    /// (the uniform register, or else the descriptor), and that flag bit.
    fn low_field(&self) -> Option<(u8, u8)> {
        match self.kind {
            Kind::Mem { off_low: true, ur_at: Some(at), ur_flag: Some(flag), .. } => Some((at, flag)),
            Kind::Mem { off_low: true, ur_at: None, desc_at: Some(at), ur_flag: Some(flag), .. } => Some((at, flag)),
            _ => None,
        }
    }
    /// Whether the word's layout is the low one ([`Kind::Mem::off_low`] with its flag clear):
    /// no uniform register or descriptor, a wider offset.
    pub fn offset_low(&self, w: u128) -> bool {
        self.low_field().is_some_and(|(_, flag)| get(w, flag.into(), 1) == 0)
    }
    /// Whether the word sets bits this slot owns but the model keeps no value for: with
    /// [`Kind::Mem::off_low`] and the flag set, the bits between the low field and the offset.
    pub fn ignored_bits_set(&self, w: u128) -> bool {
        match (self.kind, self.low_field()) {
            (Kind::Mem { off_at, .. }, Some((at, _))) if !self.offset_low(w) => {
                let lo = u32::from(at) + self.ur_width();
                w & mask(lo, u32::from(off_at).saturating_sub(lo)) != 0
            }
            _ => false,
        }
    }
    /// With sm_75's address register spelling (`.U32` unless `.64`, hidden when RZ).
    pub const fn u32_addr(mut self) -> Slot {
        self.u32_ra = true;
        self
    }
    /// Printed as `prefix` + operand + `tail` (`gdesc[UR4]`).
    pub const fn wrapped(mut self, prefix: &'static str, tail: &'static str) -> Slot {
        self.prefix = Some(prefix);
        self.tail = Some(tail);
        self
    }
    /// With a single-half selector at `at` (2 bits), printed when bit `when` is set.
    pub const fn h1(mut self, at: u8, when: u8) -> Slot {
        self.h1 = Some((at, when));
        self
    }
    /// With a named 2-bit selector at `at` ([`Slot::named_sel`]).
    pub const fn named_sel(mut self, at: u8, names: &'static [&'static str; 4]) -> Slot {
        self.named_sel = Some((at, names));
        self
    }
    /// Followed by the fixed decoration `text` (`.SIGN`).
    pub const fn tail(mut self, text: &'static str) -> Slot {
        self.tail = Some(text);
        self
    }
    /// Shown unless the `width`-bit field at `at` holds one of `values`.
    pub const fn unless_field(mut self, at: u8, width: u8, values: &'static [u8]) -> Slot {
        self.show = Show::UnlessField { at, width, values };
        self
    }
    /// Shown only when the word's `bits` (least significant first) form one of `values`.
    pub const fn bits_in(mut self, bits: &'static [u8], values: &'static [u8]) -> Slot {
        self.show = Show::BitsIn { bits, values };
        self
    }
    /// With a half-precision selector at `at` (2 bits).
    pub const fn hsel(mut self, at: u8) -> Slot {
        self.hsel = Some(at);
        self
    }
    /// Preceded by the fixed operand `text`.
    pub const fn lead(mut self, text: &'static str) -> Slot {
        self.lead = Some(text);
        self
    }
    /// Followed by a space instead of a comma.
    pub const fn glued(mut self) -> Slot {
        self.glue = true;
        self
    }
    /// With a negation bit.
    pub const fn neg(mut self, bit: u8) -> Slot {
        self.neg = Some(bit);
        self
    }
    /// With a negation bit spelled `~` when `bit` is set.
    pub const fn neg_tilde_if(mut self, neg: u8, bit: u8) -> Slot {
        self.neg = Some(neg);
        self.neg_style = NegStyle::TildeIfBit(bit);
        self
    }
    /// With an absolute-value bit.
    pub const fn abs(mut self, bit: u8) -> Slot {
        self.abs = Some(bit);
        self
    }
    /// With a logical-not bit.
    pub const fn not(mut self, bit: u8) -> Slot {
        self.not = Some(bit);
        self
    }
    /// With a reuse flag.
    pub const fn reuse(mut self, idx: u8) -> Slot {
        self.reuse = Some(idx);
        self
    }
    /// Shown only when not default.
    pub const fn opt(mut self) -> Slot {
        self.show = Show::IfNotDefault;
        self
    }
    /// Shown when `bit` is set or the operand is not its default ([`Show::IfBitOrNotDefault`]).
    pub const fn opt_unless_bit(mut self, bit: u8) -> Slot {
        self.show = Show::IfBitOrNotDefault(bit);
        self
    }
    /// Shown only when `a` is set and `b` clear.
    pub const fn if_bit_not(mut self, a: u8, b: u8) -> Slot {
        self.show = Show::IfBitNot(a, b);
        self
    }
    /// Shown only when `bit` is clear.
    pub const fn if_clear(mut self, bit: u8) -> Slot {
        self.show = Show::IfClear(bit);
        self
    }
    /// Shown only when `bit` is set and the operand is not its default.
    pub const fn if_bit_opt(mut self, bit: u8) -> Slot {
        self.show = Show::IfBitOpt(bit);
        self
    }
    /// Shown only when `bit` is set.
    pub const fn if_bit(mut self, bit: u8) -> Slot {
        self.show = Show::IfBit(bit);
        self
    }

    /// Bits of the word this slot owns (value field and decorations).
    pub fn bits(&self) -> u128 {
        let b = |at: u8, w: u32| mask(u32::from(at), w);
        let mut m = match self.kind {
            Kind::R(at) | Kind::Sr(at) => b(at, 8),
            Kind::Ur(at) => b(at, self.ur_width()),
            Kind::P(at) | Kind::Up(at) | Kind::PInv(at) | Kind::UpInv(at) => b(at, 3),
            Kind::PredOrUp { at, uniform } => b(at, 3) | b(uniform, 1),
            Kind::B(at) => b(at, 4),
            Kind::Imm { at, width, .. } => b(at, u32::from(width)),
            Kind::ImmSplit { lo_at, lo_width, hi_at, hi_width } => {
                b(lo_at, u32::from(lo_width)) | b(hi_at, u32::from(hi_width))
            }
            Kind::CBank { off_at, off_width, index_at, .. } => {
                b(54, 5) | b(off_at, u32::from(off_width)) | index_at.map_or(0, |a| b(a, 8))
            }
            Kind::Mem { ra_at, wide_bit, ur_at, off_at, off_width, desc_at, .. } => {
                let low = match self.low_field() {
                    Some((a, _)) => b(a, u32::from(off_at.saturating_sub(a))),
                    None => 0,
                };
                ra_at.map_or(0, |a| b(a, 8))
                    | wide_bit.map_or(0, |a| b(a, 1))
                    | ur_at.map_or(0, |a| b(a, self.ur_width()))
                    | low
                    | b(off_at, u32::from(off_width))
                    | desc_at.map_or(0, |a| b(a, self.ur_width()))
            }
            Kind::Target(TargetKind::Split | TargetKind::SplitRelative) => b(16, 8) | b(34, 48),
            Kind::Target(TargetKind::Quad) => b(34, 48),
            Kind::Target(TargetKind::QuadNarrow) => b(34, 30),
            Kind::Target(TargetKind::Plain | TargetKind::PlainRelative) => b(32, 50),
            Kind::Target(TargetKind::Wide) => b(24, 58),
            Kind::Target(TargetKind::SplitAbsolute) => b(16, 8) | b(34, 47),
            Kind::Target(TargetKind::QuadAbsolute) => b(34, 47),
        };
        for bit in [self.neg, self.abs, self.not].into_iter().flatten() {
            m |= b(bit, 1);
        }
        if let Some(at) = self.sel_at() {
            m |= b(at, 2);
        }
        for &(at, _) in self.marks {
            m |= b(at, 1);
        }
        m
    }

    /// The 2-bit field [`Operand::sel`] lives in: a half selector or an address scale.
    fn sel_at(&self) -> Option<u8> {
        self.hsel.or(self.h1.map(|h| h.0)).or(self.scale).or(self.named_sel.map(|n| n.0))
    }

    /// The value a slot the text does not show takes when parsing: the default, or a zero
    /// field under [`Slot::hidden_zero`].
    pub fn hidden_value(&self) -> Value {
        match (self.hidden_zero, self.kind) {
            (true, Kind::P(_)) => Value::P(0),
            _ => self.default_value(),
        }
    }

    /// The value nvdisasm omits for an optional slot (RZ, URZ, PT, 0, ...).
    pub fn default_value(&self) -> Value {
        match self.kind {
            Kind::R(_) => Value::R(255),
            Kind::Ur(_) => Value::Ur(63),
            Kind::P(_) | Kind::PInv(_) | Kind::PredOrUp { .. } => Value::P(7),
            Kind::Up(_) | Kind::UpInv(_) => Value::Up(7),
            Kind::B(_) => Value::B(0),
            Kind::Sr(_) => Value::Sr(0),
            Kind::Target(TargetKind::SplitRelative | TargetKind::PlainRelative) => Value::Imm(0),
            Kind::Target(_) => Value::Target(0),
            Kind::Imm { .. } | Kind::ImmSplit { .. } => Value::Imm(0),
            Kind::CBank { .. } => Value::CBank { bank: 0, offset: 0, index: 255 },
            Kind::Mem { ur_at, ur_flag, desc_at, wide_always, .. } => Value::Mem {
                ra: 255,
                wide: wide_always,
                ur: if ur_flag.is_some() && ur_at.is_some() { 0 } else { 63 },
                offset: 0,
                desc: desc_at.map(|_| 0),
            },
        }
    }

    fn decode(&self, w: u128, reuse_flags: u8) -> Operand {
        let g = |at: u8, width: u32| get(w, u32::from(at), width);
        let value = match self.kind {
            Kind::R(at) => Value::R(g(at, 8) as u8),
            Kind::Ur(at) => Value::Ur(self.ur_value(g(at, self.ur_width()))),
            Kind::P(at) => Value::P(g(at, 3) as u8),
            Kind::Up(at) => Value::Up(g(at, 3) as u8),
            Kind::PInv(at) => Value::P(g(at, 3) as u8 ^ 7),
            Kind::UpInv(at) => Value::Up(g(at, 3) as u8 ^ 7),
            Kind::PredOrUp { at, uniform } => {
                if g(uniform, 1) == 1 {
                    Value::Up(g(at, 3) as u8)
                } else {
                    Value::P(g(at, 3) as u8)
                }
            }
            Kind::B(at) => Value::B(g(at, 4) as u8),
            Kind::Sr(at) => Value::Sr(g(at, 8) as u8),
            Kind::Imm { at, width, .. } => Value::Imm(g(at, u32::from(width))),
            Kind::ImmSplit { lo_at, lo_width, hi_at, hi_width } => {
                Value::Imm(g(lo_at, lo_width.into()) | g(hi_at, hi_width.into()) << lo_width)
            }
            Kind::CBank { off_at, off_width, scale, index_at, signed } => Value::CBank {
                bank: g(54, 5) as u8,
                offset: if signed {
                    (get_signed(w, u32::from(off_at), u32::from(off_width)) as i32).wrapping_mul(i32::from(scale))
                        as u32
                } else {
                    (g(off_at, u32::from(off_width)) as u32) * u32::from(scale)
                },
                index: index_at.map_or(255, |a| g(a, 8) as u8),
            },
            Kind::Mem { ra_at, wide_bit, wide_always, ur_at, desc_at, .. } => {
                let (off_at, off_width, has_ur) = self.mem_offset(w).unwrap_or((0, 0, false));
                Value::Mem {
                    ra: ra_at.map_or(255, |a| g(a, 8) as u8),
                    wide: wide_always || wide_bit.is_some_and(|a| g(a, 1) == 1),
                    ur: ur_at.filter(|_| has_ur).map_or(63, |a| self.ur_value(g(a, self.ur_width()))),
                    offset: get_signed(w, u32::from(off_at), u32::from(off_width)) as i32,
                    desc: desc_at.filter(|_| !self.offset_low(w)).map(|a| self.ur_value(g(a, self.ur_width()))),
                }
            }
            Kind::Target(TargetKind::Split) => Value::Target((get_signed(w, 34, 48) << 10) | ((g(16, 8) as i64) << 2)),
            Kind::Target(TargetKind::SplitRelative) => {
                Value::Imm(((get_signed(w, 34, 48) << 10) | ((g(16, 8) as i64) << 2)) as u64)
            }
            Kind::Target(TargetKind::Plain) => Value::Target(get_signed(w, 32, 50)),
            Kind::Target(TargetKind::Quad) => Value::Target(get_signed(w, 34, 48) << 2),
            Kind::Target(TargetKind::QuadNarrow) => Value::Target(get_signed(w, 34, 30) << 2),
            Kind::Target(TargetKind::PlainRelative) => Value::Imm(get_signed(w, 32, 50) as u64),
            Kind::Target(TargetKind::Wide) => Value::Target(get_signed(w, 24, 58)),
            Kind::Target(TargetKind::SplitAbsolute) => Value::Target(((g(34, 47) << 10) | (g(16, 8) << 2)) as i64),
            Kind::Target(TargetKind::QuadAbsolute) => Value::Target((g(34, 47) << 2) as i64),
        };
        let flag = |b: Option<u8>| b.is_some_and(|b| g(b, 1) == 1);
        Operand {
            value,
            neg: flag(self.neg),
            abs: flag(self.abs),
            not: flag(self.not),
            reuse: self.reuse.is_some_and(|i| reuse_flags >> i & 1 == 1),
            sel: self.sel_at().map_or(0, |a| g(a, 2) as u8)
                | self.marks.iter().enumerate().fold(0, |s, (k, &(at, _))| s | (g(at, 1) as u8) << k),
        }
    }

    fn encode(&self, op: &Operand, w: &mut u128) -> Result<(), EncodeError> {
        let p = |w: &mut u128, at: u8, width: u32, v: u64, what| put(w, u32::from(at), width, v, what);
        // BRX's relative offset is an immediate: encode it as the split offset it is stored as.
        let value = match (self.kind, op.value) {
            (Kind::Target(TargetKind::SplitRelative | TargetKind::PlainRelative), Value::Imm(v)) => {
                Value::Target(v as i64)
            }
            (Kind::Target(TargetKind::SplitRelative | TargetKind::PlainRelative), _) => {
                return Err(EncodeError::Shape("BRX's offset is an immediate"));
            }
            (_, v) => v,
        };
        match (self.kind, value) {
            (Kind::R(at), Value::R(n)) => p(w, at, 8, n.into(), "register")?,
            (Kind::Ur(_), Value::Ur(n)) if self.ur8 && n > 63 => {
                return Err(EncodeError::Field { what: "uniform register", value: n.into(), width: 6 });
            }
            (Kind::Ur(at), Value::Ur(n)) => p(w, at, self.ur_width(), self.ur_raw(n), "uniform register")?,
            (Kind::P(at), Value::P(n)) => p(w, at, 3, n.into(), "predicate")?,
            (Kind::Up(at), Value::Up(n)) => p(w, at, 3, n.into(), "uniform predicate")?,
            (Kind::PInv(at), Value::P(n)) if n < 8 => p(w, at, 3, (n ^ 7).into(), "predicate")?,
            (Kind::UpInv(at), Value::Up(n)) if n < 8 => p(w, at, 3, (n ^ 7).into(), "uniform predicate")?,
            (Kind::PredOrUp { at, uniform }, Value::P(n)) => {
                p(w, at, 3, n.into(), "predicate")?;
                p(w, uniform, 1, 0, "uniform predicate flag")?;
            }
            (Kind::PredOrUp { at, uniform }, Value::Up(n)) => {
                p(w, at, 3, n.into(), "uniform predicate")?;
                p(w, uniform, 1, 1, "uniform predicate flag")?;
            }
            (Kind::B(at), Value::B(n)) => p(w, at, 4, n.into(), "barrier")?,
            (Kind::Sr(at), Value::Sr(n)) => p(w, at, 8, n.into(), "special register")?,
            (Kind::Imm { at, width, .. }, Value::Imm(v)) => p(w, at, u32::from(width), v, "immediate")?,
            (Kind::ImmSplit { lo_at, lo_width, hi_at, hi_width }, Value::Imm(v)) => {
                p(w, hi_at, hi_width.into(), v >> lo_width, "immediate")?;
                p(w, lo_at, lo_width.into(), v & ((1 << lo_width) - 1), "immediate")?;
            }
            (Kind::CBank { off_at, off_width, scale, index_at, signed }, Value::CBank { bank, offset, index }) => {
                p(w, 54, 5, bank.into(), "constant bank")?;
                if offset % u32::from(scale) != 0 {
                    return Err(EncodeError::Field {
                        what: "constant offset alignment",
                        value: offset.into(),
                        width: off_width.into(),
                    });
                }
                if signed {
                    let v = i64::from(offset as i32) / i64::from(scale);
                    put_signed(w, off_at.into(), off_width.into(), v, "constant offset")?;
                } else {
                    p(w, off_at, off_width.into(), u64::from(offset / u32::from(scale)), "constant offset")?;
                }
                if self.ur8 && index_at.is_some() && (63..255).contains(&index) {
                    return Err(EncodeError::Field { what: "constant index register", value: index.into(), width: 6 });
                }
                match index_at {
                    Some(a) => p(w, a, 8, index.into(), "constant index register")?,
                    None if index != 255 => {
                        return Err(EncodeError::Shape("this constant operand has no index register"));
                    }
                    None => {}
                }
            }
            (
                Kind::Mem { ra_at, wide_bit, wide_always, ur_at, desc_at, .. },
                Value::Mem { ra, wide, ur, offset, desc },
            ) => {
                // The residue (already in `w`) decides where the offset lives.
                let (off_at, off_width, has_ur) = self.mem_offset(*w).unwrap_or((0, 0, false));
                let ur_at = ur_at.filter(|_| has_ur);
                if wide_always && !wide {
                    return Err(EncodeError::Shape("this address is always .64"));
                }
                match ra_at {
                    Some(a) => p(w, a, 8, ra.into(), "address register")?,
                    None if ra != 255 => return Err(EncodeError::Shape("no address register here")),
                    None => {}
                }
                match wide_bit {
                    Some(a) => p(w, a, 1, wide.into(), ".64")?,
                    None if wide && !wide_always => return Err(EncodeError::Shape("no .64 address here")),
                    None => {}
                }
                if self.ur8 && (ur > 63 || desc.is_some_and(|d| d > 63)) {
                    return Err(EncodeError::Field { what: "uniform address register", value: ur.into(), width: 6 });
                }
                match ur_at {
                    Some(a) => p(w, a, self.ur_width(), self.ur_raw(ur), "uniform address register")?,
                    None if ur != 63 => return Err(EncodeError::Shape("no uniform address register here")),
                    None => {}
                }
                if off_width > 0 {
                    put_signed(w, off_at.into(), off_width.into(), offset.into(), "address offset")?;
                } else if offset != 0 {
                    return Err(EncodeError::Shape("this address has no offset"));
                }
                match (desc_at.filter(|_| !self.offset_low(*w)), desc) {
                    (Some(a), Some(d)) => p(w, a, self.ur_width(), self.ur_raw(d), "descriptor")?,
                    (None, None) => {}
                    _ => return Err(EncodeError::Shape("descriptor presence differs from the form")),
                }
            }
            (Kind::Target(k), Value::Target(off)) => {
                if off % 4 != 0 && !matches!(k, TargetKind::Plain | TargetKind::PlainRelative | TargetKind::Wide) {
                    return Err(EncodeError::Field { what: "branch offset alignment", value: off as u64, width: 50 });
                }
                match k {
                    TargetKind::Split | TargetKind::SplitRelative => {
                        p(w, 16, 8, ((off >> 2) & 0xff) as u64, "branch offset")?;
                        put_signed(w, 34, 48, off >> 10, "branch offset")?;
                    }
                    TargetKind::Plain | TargetKind::PlainRelative => put_signed(w, 32, 50, off, "branch offset")?,
                    TargetKind::Quad => put_signed(w, 34, 48, off >> 2, "branch offset")?,
                    TargetKind::QuadNarrow => put_signed(w, 34, 30, off >> 2, "branch offset")?,
                    TargetKind::Wide => put_signed(w, 24, 58, off, "branch offset")?,
                    TargetKind::SplitAbsolute => {
                        let a = u64::try_from(off).map_err(|_| EncodeError::Field {
                            what: "absolute branch target",
                            value: off as u64,
                            width: 57,
                        })?;
                        p(w, 16, 8, (a >> 2) & 0xff, "absolute branch target")?;
                        p(w, 34, 47, a >> 10, "absolute branch target")?;
                    }
                    TargetKind::QuadAbsolute => {
                        let a = u64::try_from(off).ok().filter(|a| a % 4 == 0).ok_or(EncodeError::Field {
                            what: "absolute branch target",
                            value: off as u64,
                            width: 49,
                        })?;
                        p(w, 34, 47, a >> 2, "absolute branch target")?;
                    }
                }
            }
            _ => return Err(EncodeError::Shape("operand kind does not match the form's slot")),
        }
        for (bit, on, what) in
            [(self.neg, op.neg, "negation"), (self.abs, op.abs, "absolute value"), (self.not, op.not, "not")]
        {
            match bit {
                Some(b) => p(w, b, 1, on.into(), what)?,
                None if on => return Err(EncodeError::Shape("decoration not available on this slot")),
                None => {}
            }
        }
        if op.reuse && self.reuse.is_none() {
            return Err(EncodeError::Shape(".reuse not available on this slot"));
        }
        match self.sel_at() {
            Some(a) => p(w, a, 2, op.sel.into(), "half selector")?,
            None if !self.marks.is_empty() => {
                if u32::from(op.sel) >> self.marks.len() != 0 {
                    return Err(EncodeError::Shape("decoration not available on this slot"));
                }
                for (k, &(at, _)) in self.marks.iter().enumerate() {
                    p(w, at, 1, u64::from(op.sel >> k & 1), "decoration")?;
                }
            }
            None if op.sel != 0 => return Err(EncodeError::Shape("half selector not available on this slot")),
            None => {}
        }
        Ok(())
    }

    /// Whether nvdisasm prints this slot's operand `op` in the word `w`.
    pub fn shown(&self, op: &Operand, w: u128) -> bool {
        match self.show {
            Show::Always => true,
            Show::IfBit(b) => get(w, b.into(), 1) == 1,
            Show::IfBitNot(a, b) => get(w, a.into(), 1) == 1 && get(w, b.into(), 1) == 0,
            Show::IfClear(b) => get(w, b.into(), 1) == 0,
            Show::IfNotDefault => *op != Operand::plain(self.default_value()),
            Show::IfBitOpt(b) => get(w, b.into(), 1) == 1 && *op != Operand::plain(self.default_value()),
            Show::IfBitOrNotDefault(b) => get(w, b.into(), 1) == 1 || *op != Operand::plain(self.default_value()),
            Show::UnlessField { at, width, values } => {
                let v = get(w, at.into(), width.into());
                !values.iter().any(|&x| u64::from(x) == v)
            }
            Show::BitsIn { bits, values } => bits_in(w, bits, values),
        }
    }
}

/// Whether the word's `bits` (bit `bits[i]` as bit `i`) form one of `values`.
fn bits_in(w: u128, bits: &[u8], values: &[u8]) -> bool {
    let v = bits.iter().enumerate().fold(0u64, |v, (i, &b)| v | get(w, b.into(), 1) << i);
    values.iter().any(|&x| u64::from(x) == v)
}

/// Nvdisasm alias rules that rename a form depending on operand values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alias {
    /// No alias.
    None,
    /// IMAD: `.MOV` (Ra = Rb = RZ), `.IADD` (B = imm 1), `.SHL` (B = power-of-two imm, C = RZ).
    Imad,
}

/// One instruction form. Its slots are owned: forms are built once into a static table, and
/// derived tables (sm_80 from sm_90, sm_75 from sm_80) rebuild them, so nothing is leaked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    /// Bits [0:12).
    pub key: u16,
    /// Mnemonic without modifiers.
    pub base: &'static str,
    /// Operand slots in printing order.
    pub slots: Box<[Slot]>,
    /// The guard is a uniform predicate (`@UP0`).
    pub uniform_guard: bool,
    /// Alias rule.
    pub alias: Alias,
    /// Printing order of the slots when it differs from their order (an operand added to a
    /// form later is appended so existing operand indices stay stable: `BRA.DIV UR4, target`).
    pub print_order: Option<&'static [usize]>,
}

impl Form {
    /// The slot index printed at position `k`.
    pub fn printed(&self, k: usize) -> usize {
        self.print_order.and_then(|o| o.get(k).copied()).unwrap_or(k)
    }
    /// The residue mask: bits [12:105) not owned by the guard or a slot.
    pub fn residue_mask(&self) -> u128 {
        let owned = self.slots.iter().fold(mask(0, 16), |m, s| m | s.bits());
        mask(0, 105) & !owned
    }
}

/// A generated modifier-table entry: residue bits → printed suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModEntry {
    /// Form key.
    pub key: u16,
    /// Residue bits (as in the word).
    pub residue: u128,
    /// Suffix nvdisasm prints after the base (and alias), e.g. `.GE.U32.AND`.
    pub suffix: &'static str,
}

/// A suffix built at run time (a table generated from parameters), as a `'static` string: each
/// distinct text is allocated once and stays reachable from this process-wide set, so building
/// a table twice, or dropping a duplicate entry, neither leaks nor duplicates it (LeakSanitizer
/// under `cargo fuzz` checks this).
pub fn intern(text: String) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static SET: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut set = SET.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&s) = set.get(text.as_str()) {
        return s;
    }
    let s: &'static str = Box::leak(text.into_boxed_str());
    set.insert(s);
    s
}

/// A decoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// Its form.
    pub form: &'static Form,
    /// Guard predicate (`P`/`UP` value with `not`); `PT` without `not` means unguarded.
    pub guard: Operand,
    /// Residue bits (modifiers) as stored in the word.
    pub residue: u128,
    /// The modifier suffix the residue prints as.
    pub suffix: &'static str,
    /// Operands, one per slot of the form.
    pub operands: Vec<Operand>,
    /// Scheduling control bits.
    pub control: Control,
}

/// An architecture's tables.
#[derive(Debug, Clone, Copy)]
pub struct Tables {
    /// nvdisasm's name of the arch (`SM90`).
    pub name: &'static str,
    /// Forms, sorted by key.
    pub forms: &'static [Form],
    /// Modifier table, sorted by (key, residue).
    pub mods: &'static [ModEntry],
    /// Special-register names by id.
    pub sregs: &'static [(u8, &'static str)],
}

impl Tables {
    /// The form for a key.
    pub fn form(&self, key: u16) -> Option<&'static Form> {
        self.forms.binary_search_by_key(&key, |f| f.key).ok().map(|i| &self.forms[i])
    }

    fn suffix(&self, key: u16, residue: u128) -> Option<&'static str> {
        self.mods.binary_search_by(|e| (e.key, e.residue).cmp(&(key, residue))).ok().map(|i| self.mods[i].suffix)
    }

    /// Decodes the form, guard, operands and control bits, without looking the residue up
    /// (the suffix is left empty). Used by the table generator; [`Tables::decode`] is the
    /// checked entry point.
    pub fn decode_unchecked(&self, word: u128) -> Result<Instruction, DecodeError> {
        if word >> 126 != 0 {
            return Err(DecodeError::ReservedBits);
        }
        let key = (word & 0xfff) as u16;
        let form = self.form(key).ok_or(DecodeError::UnknownOpcode(key))?;
        let control = Control::unpack(word);
        let gidx = get(word, 12, 3) as u8;
        let gnot = get(word, 15, 1) == 1;
        let guard = Operand {
            value: if form.uniform_guard { Value::Up(gidx) } else { Value::P(gidx) },
            not: gnot,
            ..Operand::plain(Value::P(7))
        };
        if form.slots.iter().any(|s| s.ur_out_of_range(word)) {
            return Err(DecodeError::UniformRegister);
        }
        if form.slots.iter().any(|s| s.ignored_bits_set(word)) {
            return Err(DecodeError::IgnoredBits);
        }
        let operands = form.slots.iter().map(|s| s.decode(word, control.reuse)).collect();
        Ok(Instruction { form, guard, residue: word & form.residue_mask(), suffix: "", operands, control })
    }

    /// Decodes a word. Errors: unknown key, unknown modifier residue, reserved bits set.
    pub fn decode(&self, word: u128) -> Result<Instruction, DecodeError> {
        let mut inst = self.decode_unchecked(word)?;
        inst.suffix = self.suffix(inst.form.key, inst.residue).ok_or(DecodeError::UnknownModifiers {
            opcode: inst.form.base,
            key: inst.form.key,
            residue: inst.residue,
        })?;
        Ok(inst)
    }

    /// Encodes an instruction to its 128-bit word.
    pub fn encode(&self, inst: &Instruction) -> Result<u128, EncodeError> {
        let form = inst.form;
        if inst.operands.len() != form.slots.len() {
            return Err(EncodeError::Shape("operand count differs from the form"));
        }
        if inst.residue & !form.residue_mask() != 0 {
            return Err(EncodeError::Shape("residue has bits outside the form's residue mask"));
        }
        let mut w = u128::from(form.key) | inst.residue;
        match inst.guard.value {
            Value::P(n) if !form.uniform_guard => put(&mut w, 12, 3, n.into(), "guard")?,
            Value::Up(n) if form.uniform_guard => put(&mut w, 12, 3, n.into(), "guard")?,
            _ => return Err(EncodeError::Shape("guard kind differs from the form")),
        }
        put(&mut w, 15, 1, inst.guard.not.into(), "guard negation")?;
        let mut control = inst.control;
        for (slot, op) in form.slots.iter().zip(&inst.operands) {
            slot.encode(op, &mut w)?;
            if let (Some(i), true) = (slot.reuse, op.reuse) {
                control.reuse |= 1 << i;
            }
        }
        Ok(w | (control.pack()? & CONTROL_MASK))
    }

    fn alias(&self, inst: &Instruction) -> &'static str {
        match inst.form.alias {
            Alias::None => "",
            Alias::Imad => imad_alias(inst),
        }
    }

    /// The mnemonic with modifiers, as nvdisasm prints it.
    pub fn mnemonic(&self, inst: &Instruction) -> String {
        format!("{}{}{}", inst.form.base, self.alias(inst), inst.suffix)
    }

    /// Prints the instruction as nvdisasm does (without ` ;`). `addr` is the instruction's
    /// byte address; `label` names branch targets (absolute addresses) for cubin listings —
    /// without it targets print as nvdisasm `-b` prints them (absolute signed hex).
    pub fn print(&self, inst: &Instruction, addr: u64, label: Option<&dyn Fn(i64) -> Option<String>>) -> String {
        let mut s = String::new();
        let g = inst.guard;
        let (gi, gname) = match g.value {
            Value::Up(n) => (n, upred_name(n)),
            Value::P(n) => (n, pred_name(n)),
            _ => (7, String::new()),
        };
        if gi != 7 || g.not {
            s.push('@');
            if g.not {
                s.push('!');
            }
            s.push_str(&gname);
            s.push(' ');
        }
        s.push_str(&self.mnemonic(inst));
        let w = self.encode(inst).unwrap_or(inst.residue);
        let ops: Vec<(String, bool)> = (0..inst.form.slots.len())
            .filter_map(|k| {
                let i = inst.form.printed(k);
                Some((inst.form.slots.get(i)?, inst.operands.get(i)?))
            })
            .filter(|(sl, op)| sl.shown(op, w))
            .flat_map(|(sl, op)| {
                let lead = sl.lead.map(|t| (t.to_string(), false));
                lead.into_iter().chain(std::iter::once((
                    self.operand_text(sl, op, w, target_base(inst.suffix, addr), label),
                    sl.glue,
                )))
            })
            .collect();
        if !ops.is_empty() {
            s.push(' ');
            let n = ops.len();
            for (i, (o, glue)) in ops.iter().enumerate() {
                s.push_str(o);
                if i + 1 < n {
                    // nvdisasm pads INF/QNAN/-0.0 immediates with a space before a following comma.
                    if o.ends_with("INF") || o.ends_with("QNAN") || o.ends_with("-0.0") {
                        s.push(' ');
                    }
                    s.push_str(if *glue { " " } else { ", " });
                }
            }
        }
        s
    }

    fn operand_text(
        &self,
        sl: &Slot,
        op: &Operand,
        w: u128,
        target_base: i64,
        label: Option<&dyn Fn(i64) -> Option<String>>,
    ) -> String {
        let core = match op.value {
            Value::R(n) => reg_name(n),
            Value::Ur(n) => ureg_name(n),
            Value::P(n) => pred_name(n),
            Value::Up(n) => upred_name(n),
            Value::B(n) => format!("B{n}"),
            Value::Sr(n) => match self.sregs.iter().find(|(i, _)| *i == n) {
                Some((_, name)) => (*name).to_string(),
                None => format!("SR{n}"),
            },
            Value::Imm(v) => match sl.kind {
                Kind::Target(TargetKind::SplitRelative | TargetKind::PlainRelative) => signed_hex(v as i64),
                Kind::Imm { width, style, .. } => match style.resolve(w) {
                    ImmStyle::Hex => format!("{v:#x}"),
                    ImmStyle::SignedHex | ImmStyle::SignedBy { .. } => signed_hex(sext(v, width)),
                    ImmStyle::F32 | ImmStyle::FloatBy { .. } => f32_text(v as u32),
                    ImmStyle::F64Hi => f64hi_text(v as u32),
                    ImmStyle::F16 | ImmStyle::HalfBy { .. } => f16_text(v as u16),
                    ImmStyle::Bf16 => bf16_text(v as u16),
                    ImmStyle::Named { prefix, count } if v < u64::from(count) => format!("{prefix}{v}"),
                    ImmStyle::Named { .. } => format!("INVALID{v}"),
                    ImmStyle::BitList => {
                        let bits: Vec<String> =
                            (0..64).rev().filter(|b| v >> b & 1 == 1).map(|b| b.to_string()).collect();
                        format!("{{{}}}", bits.join(","))
                    }
                },
                _ => format!("{v:#x}"),
            },
            Value::CBank { bank, offset, index } => {
                let (signed, indexed) = match sl.kind {
                    Kind::CBank { signed, index_at, .. } => (signed, index_at.is_some()),
                    _ => (false, false),
                };
                let off = if signed { signed_hex((offset as i32).into()) } else { format!("{offset:#x}") };
                // sm_100+: the index is a uniform register (255 is URZ).
                let name = |i: u8| if sl.ur8 { ureg_name(sl.ur_value(i.into())) } else { reg_name(i) };
                let t = if offset == 0 && indexed {
                    // An indexed slot with RZ and no offset prints the register (`c[0x0][RZ]`).
                    format!("c[{bank:#x}][{}]", name(index))
                } else if index == 255 {
                    format!("c[{bank:#x}][{off}]")
                } else {
                    format!("c[{bank:#x}][{}+{off}]", name(index))
                };
                // A decorated constant operand is spelled with a space: a half selector
                // (`c[0x0] [0x188].H0_H0`) or a fixed tail (`PLOP3.LUT P0, PT, R0.SIGN,
                // c[0x2] [0x0].SIGN, ...`: nvdisasm -b SM75..SM90).
                if sl.hsel.is_some() || sl.tail.is_some_and(|x| x.starts_with('.')) {
                    t.replacen("][", "] [", 1)
                } else {
                    t
                }
            }
            Value::Mem { ra, wide, ur, offset, desc } => {
                let mut parts = Vec::new();
                let ur_shown = match sl.kind {
                    Kind::Mem { ur_always: true, .. } => true,
                    Kind::Mem { ur_at: Some(_), ur_flag: Some(b), .. } => get(w, b.into(), 1) == 1,
                    _ => ur != 63,
                };
                if sl.u32_ra {
                    // Without the uniform register the address is a plain `[Ra+off]`.
                    if ra != 255 {
                        let width = match (ur_shown, wide) {
                            (false, _) => "",
                            (true, true) => ".64",
                            (true, false) => ".U32",
                        };
                        parts.push(format!("{}{width}", reg_name(ra)));
                    }
                } else if ra != 255 || (wide && !sl.offset_low(w)) || (ur_shown && sl.scale.is_some() && op.sel != 0) {
                    // RZ with an address scale prints bare (`[0x11bfce]`: nvdisasm -b SM75, SM80),
                    // unless a uniform register shows (`[RZ.X16+UR28+0x3ca46b]`, SM80 and SM90).
                    let scale = if sl.scale.is_some() { scale_text(op.sel) } else { "" };
                    // The low layout prints no `.64`, whatever the wide bit holds.
                    let width = if wide && !sl.offset_low(w) { ".64" } else { "" };
                    parts.push(format!("{}{width}{scale}", reg_name(ra)));
                }
                if ur_shown {
                    parts.push(ureg_name(ur));
                }
                let mut inner = parts.join("+");
                let has_ra = matches!(sl.kind, Kind::Mem { ra_at: Some(_), .. });
                if inner.is_empty() && offset == 0 && has_ra {
                    // An all-zero address with an address register prints as `[RZ]`.
                    inner = "RZ".into();
                } else if offset != 0 || inner.is_empty() {
                    if inner.is_empty() && sl.bare_signed {
                        inner = signed_hex(offset.into());
                    } else if inner.is_empty() {
                        // A bare offset (no register shown) prints unsigned in its field width.
                        let width = sl.mem_offset(w).map_or(32, |(_, width, _)| u32::from(width));
                        inner = format!("{:#x}", (offset as u32 as u64) & ((1u64 << width) - 1));
                    } else {
                        inner.push('+');
                        inner.push_str(&signed_hex(offset.into()));
                    }
                }
                let desc_shown = !sl.hide_desc || sl.desc_flag.is_some_and(|b| get(w, b.into(), 1) == 1);
                match desc {
                    Some(d) if desc_shown => format!("desc[{}][{inner}]", ureg_name(d)),
                    _ => format!("[{inner}]"),
                }
            }
            Value::Target(off) => {
                let abs = target_base + off;
                match label.and_then(|f| f(abs)) {
                    Some(name) => format!("`({name})"),
                    None => signed_hex(abs),
                }
            }
        };
        let mut t = match sl.prefix {
            Some(p) => format!("{p}{core}"),
            None => core,
        };
        if let Some((_, when)) = sl.h1
            && get(w, when.into(), 1) == 1
        {
            t.push_str(h1_text(op.sel));
        }
        // A constant's half selector prints inside its `|..|` (`|c[0x1] [0x3d84].H1_H1|`, a
        // register's after it: `|R74|.F32`; nvdisasm -b SM80).
        let cbank_sel = sl.hsel.is_some() && matches!(op.value, Value::CBank { .. });
        if cbank_sel {
            t.push_str(hsel_text(op.sel, sl.f32_sel));
        }
        if op.abs {
            t = format!("|{t}|");
        }
        if op.neg {
            let tilde = match sl.neg_style {
                NegStyle::Minus => false,
                NegStyle::Tilde => true,
                NegStyle::TildeIfBit(b) => get(w, b.into(), 1) == 1,
            };
            t = format!("{}{t}", if tilde { '~' } else { '-' });
        }
        if op.not {
            t = format!("!{t}");
        }
        if op.reuse {
            t.push_str(".reuse");
        }
        if let Some(tail) = sl.tail {
            t.push_str(tail);
        }
        if let Some((_, names)) = sl.named_sel {
            t.push_str(names[usize::from(op.sel & 3)]);
        }
        for (k, (_, mark)) in sl.marks.iter().enumerate() {
            if op.sel >> k & 1 == 1 {
                t.push_str(mark);
            }
        }
        if sl.hsel.is_some() && !cbank_sel {
            t.push_str(hsel_text(op.sel, sl.f32_sel));
        }
        t
    }

    /// Parses nvdisasm text (without ` ;`) into an instruction with default control bits.
    /// `addr` resolves raw branch targets; labelled targets are not accepted.
    pub fn parse(&self, text: &str, addr: u64) -> Result<Instruction, ParseError> {
        let text = text.trim().trim_end_matches(';').trim();
        let (guard_tok, rest) = if let Some(r) = text.strip_prefix('@') {
            let (g, r) = r.split_once(' ').ok_or_else(|| ParseError::new(text, "guard without instruction"))?;
            (Some(g), r.trim_start())
        } else {
            (None, text)
        };
        let (mn, ops_text) = rest.split_once(' ').map_or((rest, ""), |(a, b)| (a, b.trim()));
        let ops: Vec<String> = if ops_text.is_empty() {
            Vec::new()
        } else {
            // `R2 0x10` (a glued register and target) is two operands; `c[0x0] [0x188].H0_H0`
            // (a half-precision constant) is one.
            split_operands(ops_text)
                .into_iter()
                .map(|o| o.replace("] [", "]["))
                .flat_map(|o| o.split(' ').filter(|x| !x.is_empty()).map(str::to_string).collect::<Vec<_>>())
                .collect()
        };
        let mut last_err = ParseError::new(text, "no form with this mnemonic");
        for form in self.forms {
            let Some(after) = mn.strip_prefix(form.base) else { continue };
            if !after.is_empty() && !after.starts_with('.') {
                continue;
            }
            match self.parse_form(form, guard_tok, after, &ops, addr, text) {
                Ok(i) => return Ok(i),
                Err(e) => last_err = ParseError::new(text, &e),
            }
        }
        Err(last_err)
    }

    fn parse_form(
        &self,
        form: &'static Form,
        guard: Option<&str>,
        after: &str,
        ops: &[String],
        addr: u64,
        want: &str,
    ) -> Result<Instruction, String> {
        let guard = match guard {
            None => Operand {
                value: if form.uniform_guard { Value::Up(7) } else { Value::P(7) },
                ..Operand::plain(Value::P(7))
            },
            Some(g) => {
                let (not, g) = g.strip_prefix('!').map_or((false, g), |r| (true, r));
                let v = parse_value_pred(g, form.uniform_guard).ok_or("bad guard")?;
                Operand { not, ..Operand::plain(v) }
            }
        };
        // Candidate residues: entries of this key whose alias+suffix spell `after`.
        let mut candidates: Vec<&ModEntry> = self.mods.iter().filter(|e| e.key == form.key).collect();
        candidates.retain(|e| {
            after.ends_with(e.suffix) && {
                let alias = &after[..after.len() - e.suffix.len()];
                alias.is_empty() || matches!(alias, ".MOV" | ".IADD" | ".SHL") && form.alias == Alias::Imad
            }
        });
        if candidates.is_empty() {
            return Err(format!("no modifier entry of {:#x} spells {after:?}", form.key));
        }
        // Slot assignment: shown slots consume operands in order; optional ones may be skipped.
        for entry in candidates {
            let alias = &after[..after.len() - entry.suffix.len()];
            let mut inst = Instruction {
                form,
                guard,
                residue: entry.residue,
                suffix: entry.suffix,
                operands: form.slots.iter().map(|s| Operand::plain(s.hidden_value())).collect(),
                control: Control { write_sb: None, read_sb: None, ..Control::default() },
            };
            if self.assign(&mut inst, 0, ops, addr)
                && self.alias(&inst) == alias
                && let Ok(w) = self.encode(&inst)
            {
                // The residue may decide visibility (IfBit); re-check against the word.
                let shown: usize = form
                    .slots
                    .iter()
                    .zip(&inst.operands)
                    .filter(|(s, o)| s.shown(o, w))
                    .map(|(s, _)| 1 + usize::from(s.lead.is_some()))
                    .sum();
                // Residue bits outside the suffix (e.g. a flag that shows a uniform register)
                // can change the text: keep the first candidate that prints back exactly.
                if shown == ops.len() && self.print(&inst, addr, None) == want {
                    return Ok(inst);
                }
            }
        }
        Err("operands do not fit the form".into())
    }

    fn assign(&self, inst: &mut Instruction, slot: usize, ops: &[String], addr: u64) -> bool {
        let form = inst.form;
        if slot == form.slots.len() {
            return ops.is_empty();
        }
        let idx = form.printed(slot);
        let Some(sl) = form.slots.get(idx) else { return false };
        let must_show = match sl.show {
            Show::Always => true,
            Show::IfBit(b) => get(inst.residue, b.into(), 1) == 1,
            Show::IfBitNot(a, b) => get(inst.residue, a.into(), 1) == 1 && get(inst.residue, b.into(), 1) == 0,
            Show::IfClear(b) => get(inst.residue, b.into(), 1) == 0,
            // A field of the slot's own value (HGMMA's group scoreboard) is decided below.
            Show::UnlessField { at, width, .. } if sl.bits() & mask(at.into(), width.into()) != 0 => false,
            Show::UnlessField { at, width, values } => {
                let v = get(inst.residue, at.into(), width.into());
                !values.iter().any(|&x| u64::from(x) == v)
            }
            Show::BitsIn { bits, values } => bits_in(inst.residue, bits, values),
            Show::IfBitOrNotDefault(b) => get(inst.residue, b.into(), 1) == 1,
            Show::IfNotDefault | Show::IfBitOpt(_) => false,
        };
        let (lead, ops_here) = match sl.lead {
            Some(t) if ops.first().is_some_and(|o| o == t) => (1, &ops[1..]),
            Some(_) => (0, &ops[ops.len()..]),
            None => (0, ops),
        };
        if let Some(tok) = ops_here.first()
            && let Some(op) = self.parse_operand(sl, tok, target_base(inst.suffix, addr), inst.residue)
        {
            let saved = inst.operands[idx];
            inst.operands[idx] = op;
            if self.assign(inst, slot + 1, &ops[lead + 1..], addr) {
                return true;
            }
            inst.operands[idx] = saved;
        }
        if must_show {
            return false;
        }
        // Skipped: an immediate hidden by its own value takes the first hiding value.
        let saved = inst.operands[idx];
        if let (Show::UnlessField { at, width, values: [v, ..] }, Kind::Imm { at: a, width: w, .. }) =
            (sl.show, sl.kind)
            && (at, width) == (a, w)
        {
            inst.operands[idx].value = Value::Imm((*v).into());
        }
        if self.assign(inst, slot + 1, ops, addr) {
            return true;
        }
        inst.operands[idx] = saved;
        false
    }

    /// Parses one operand; branch targets count from `target_base` ([`target_base`]).
    fn parse_operand(&self, sl: &Slot, tok: &str, target_base: i64, residue: u128) -> Option<Operand> {
        let mut t = tok.trim();
        let mut op = Operand::plain(sl.default_value());
        // A constant's selector inside its bars (`|c[0x1] [0x3d84].H1_H1|`): moved out.
        let moved = match t.strip_suffix('|') {
            Some(inner) if sl.hsel.is_some() => [1u8, 2, 3].into_iter().find_map(|sel| {
                let h = hsel_text(sel, sl.f32_sel);
                inner.strip_suffix(h).map(|r| format!("{r}|{h}"))
            }),
            _ => None,
        };
        if let Some(m) = &moved {
            t = m;
        }
        if sl.hsel.is_some() {
            for sel in [1u8, 2, 3] {
                if let Some(r) = t.strip_suffix(hsel_text(sel, sl.f32_sel)) {
                    op.sel = sel;
                    t = r;
                }
            }
        }
        for (k, (_, mark)) in sl.marks.iter().enumerate().rev() {
            if let Some(r) = t.strip_suffix(mark) {
                op.sel |= 1 << k;
                t = r;
            }
        }
        if let Some((_, names)) = sl.named_sel {
            for sel in [1u8, 2, 3] {
                let name = names[usize::from(sel)];
                if let Some(r) = t.strip_suffix(name).filter(|_| !name.is_empty()) {
                    op.sel = sel;
                    t = r;
                    break;
                }
            }
        }
        if let Some(tail) = sl.tail {
            t = t.strip_suffix(tail)?;
        }
        if let Some(r) = t.strip_suffix(".reuse") {
            op.reuse = true;
            t = r;
        }
        if let Some(r) = t.strip_prefix('!') {
            op.not = true;
            t = r;
        }
        if let Some(r) =
            t.strip_prefix('-').filter(|_| sl.neg.is_some() && !matches!(sl.kind, Kind::Imm { .. } | Kind::Target(_)))
        {
            op.neg = true;
            t = r;
        } else if let Some(r) = t.strip_prefix('~').filter(|_| sl.neg.is_some()) {
            op.neg = true;
            t = r;
        }
        if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
            op.abs = true;
            t = r;
        }
        if sl.h1.is_some() {
            for sel in [1u8, 2, 3] {
                if let Some(r) = t.strip_suffix(h1_text(sel)) {
                    op.sel = sel;
                    t = r;
                }
            }
        }
        if let Some(p) = sl.prefix {
            t = t.strip_prefix(p)?;
        }
        op.value = match sl.kind {
            Kind::R(_) => Value::R(parse_reg(t, "R", 255)?),
            Kind::Ur(_) => Value::Ur(parse_reg(t, "UR", 63)?),
            Kind::P(_) | Kind::PInv(_) => parse_value_pred(t, false)?,
            Kind::Up(_) | Kind::UpInv(_) => parse_value_pred(t, true)?,
            Kind::PredOrUp { .. } => parse_value_pred(t, false).or_else(|| parse_value_pred(t, true))?,
            Kind::B(_) => Value::B(t.strip_prefix('B')?.parse().ok()?),
            Kind::Sr(_) => Value::Sr(self.sregs.iter().find(|(_, n)| *n == t)?.0),
            Kind::Imm { width, style, .. } => {
                let v = match style {
                    ImmStyle::Hex => parse_hex(t)? as u64,
                    ImmStyle::SignedHex | ImmStyle::SignedBy { .. } => {
                        (parse_hex(t)? as u64) & mask(0, width.into()) as u64
                    }
                    ImmStyle::Named { prefix, .. } => {
                        t.strip_prefix(prefix).or_else(|| t.strip_prefix("INVALID"))?.parse().ok()?
                    }
                    ImmStyle::BitList => {
                        let inner = t.strip_prefix('{')?.strip_suffix('}')?;
                        let mut v = 0u64;
                        for b in inner.split(',') {
                            v |= 1u64.checked_shl(b.trim().parse().ok()?)?;
                        }
                        v
                    }
                    ImmStyle::F32
                    | ImmStyle::F64Hi
                    | ImmStyle::F16
                    | ImmStyle::Bf16
                    | ImmStyle::HalfBy { .. }
                    | ImmStyle::FloatBy { .. } => {
                        return self.parse_float(sl, t, op, residue);
                    }
                };
                Value::Imm(v)
            }
            Kind::ImmSplit { .. } => Value::Imm(u64::try_from(parse_hex(t)?).ok()?),
            Kind::CBank { .. } => {
                let r = t.strip_prefix("c[")?;
                let (bank, r) = r.split_once("][")?;
                let inner = r.strip_suffix(']')?;
                let bank = parse_hex(bank)? as u8;
                let index_reg = |r: &str| {
                    if sl.ur8 { parse_reg(r, "UR", 63).map(|n| sl.ur_raw(n) as u8) } else { parse_reg(r, "R", 255) }
                };
                let (index, off) = if inner.starts_with(if sl.ur8 { "UR" } else { "R" }) {
                    match inner.split_once('+') {
                        Some((reg, o)) => (index_reg(reg)?, parse_hex(o)? as u32),
                        None => (index_reg(inner)?, 0),
                    }
                } else {
                    (255, parse_hex(inner)? as u32)
                };
                Value::CBank { bank, offset: off, index }
            }
            Kind::Mem { desc_at, wide_always, .. } => {
                let off_width = sl.mem_offset(residue).map_or(0, |(_, width, _)| width);
                let (desc, r) = match t.strip_prefix("desc[") {
                    Some(r) => {
                        let (d, r) = r.split_once(']')?;
                        (Some(parse_reg(d, "UR", 63)?), r)
                    }
                    None => (None, t),
                };
                // A hidden descriptor is not in the text: it parses as UR0. The low layout has
                // none (and prints no `.64`: the wide bit parses as clear).
                let desc_at = desc_at.filter(|_| !sl.offset_low(residue));
                let desc = if sl.hide_desc && desc.is_none() { desc_at.map(|_| 0) } else { desc };
                if desc.is_some() != desc_at.is_some() {
                    return None;
                }
                let inner = r.strip_prefix('[')?.strip_suffix(']')?;
                let (mut ra, mut wide, mut ur, mut offset) = (255u8, false, 63u8, 0i128);
                for part in split_plus(inner) {
                    if let Some(x) = part.strip_prefix("UR").map(|_| part).or_else(|| (part == "URZ").then_some(part)) {
                        ur = parse_reg(x, "UR", 63)?;
                    } else if part.starts_with('R') {
                        let mut part = part;
                        if sl.scale.is_some() {
                            for sel in [1u8, 2, 3] {
                                if let Some(r) = part.strip_suffix(scale_text(sel)) {
                                    op.sel = sel;
                                    part = r;
                                }
                            }
                        }
                        if sl.u32_ra {
                            part = part.strip_suffix(".U32").unwrap_or(part);
                        }
                        let (reg, w) = part.strip_suffix(".64").map_or((part, false), |r| (r, true));
                        ra = parse_reg(reg, "R", 255)?;
                        wide = w;
                    } else {
                        offset = parse_hex(part)?;
                    }
                }
                // A bare offset is printed unsigned: fold it back to the signed field value.
                let bare = ra == 255 && !wide && op.sel == 0 && (ur == 63 || !inner.contains("UR"));
                if bare && !sl.bare_signed && (1..=32).contains(&off_width) && offset >= 1 << (off_width - 1) {
                    offset -= 1 << off_width;
                }
                let offset = i32::try_from(offset).ok()?;
                // An always-64-bit address whose register is hidden (sm_75's `[UR8+0x40]`).
                let wide = wide || wide_always;
                Value::Mem { ra, wide, ur, offset, desc }
            }
            Kind::Target(TargetKind::SplitRelative | TargetKind::PlainRelative) => {
                Value::Imm(i64::try_from(parse_hex(t)?).ok()? as u64)
            }
            Kind::Target(_) => {
                let abs = parse_hex(t)?;
                Value::Target(i64::try_from(abs).ok()? - target_base)
            }
        };
        Some(op)
    }

    fn parse_float(&self, sl: &Slot, t: &str, mut op: Operand, residue: u128) -> Option<Operand> {
        let Kind::Imm { width, style, .. } = sl.kind else { return None };
        // Find the bit pattern whose spelling is `t` (spellings are canonical for the common
        // values; search the exact parse first).
        let v: f64 = match t.trim() {
            "+INF" => f64::INFINITY,
            "-INF" => f64::NEG_INFINITY,
            "+QNAN" => f64::NAN,
            "-QNAN" => -f64::NAN,
            x => x.parse().ok()?,
        };
        let bits = match style.resolve(residue) {
            ImmStyle::F32 => u64::from((v as f32).to_bits()),
            ImmStyle::F16 => u64::from(f16_bits(v)?),
            ImmStyle::Bf16 => {
                let b = (v as f32).to_bits();
                if b & 0xffff != 0 && !v.is_nan() {
                    return None;
                }
                u64::from(b >> 16)
            }
            _ => (v.to_bits() >> 32) & 0xffff_ffff,
        };
        if width < 64 && bits >> width != 0 {
            return None;
        }
        op.value = Value::Imm(bits);
        Some(op)
    }
}

fn sext(v: u64, width: u8) -> i64 {
    if width == 0 || width >= 64 {
        return v as i64;
    }
    let s = 64 - u32::from(width);
    ((v << s) as i64) >> s
}

fn imad_alias(inst: &Instruction) -> &'static str {
    let ops = &inst.operands;
    if ops.len() < 4 {
        return "";
    }
    if ops.len() < 5 || inst.form.key & 0x1ff != 0x24 {
        return "";
    }
    // Operands: Rd, carry-out P, A, B, C, carry-in P.
    let (a, b, c) = (&ops[2], &ops[3], &ops[4]);
    let plain_rz = |o: &Operand| o.value == Value::R(255) && !o.neg;
    // .X forms never alias.
    if inst.suffix.contains(".X") {
        return "";
    }
    // An RZ multiplicand makes it a move of C whatever the other is (`IMAD.MOV R1, RZ, R5, R7`,
    // `IMAD.MOV R1, RZ, 0x1, R7`, and a register B: `IMAD.MOV.U32 R4, R2, RZ, RZ`,
    // `IMAD.MOV.U32 R231, R186, RZ, -c[0x8][-0x275c]`: `nvdisasm -b SM75`, `SM80`, `SM90`).
    if (plain_rz(a) || plain_rz(b)) && !matches!(c.value, Value::Ur(_)) {
        return ".MOV";
    }
    // A multiplier of 1 is a move when C is RZ, else an add; a power-of-two multiplier with C RZ
    // a shift, signed or `.U32`, except 0x10000 (and 0x80000000, which prints negative):
    // `IMAD.MOV R6, R6, 0x1, RZ`, `IMAD.IADD.U32 R6, R6, 0x1, R2`, `IMAD.SHL R6, R6, 0x200, RZ`,
    // `IMAD.U32 R6, R6, 0x10000, RZ` (`nvdisasm -b SM80`, `SM90`, `SM100`; NVIDIA's -G code).
    if let (Value::Imm(v), Value::R(_)) = (b.value, a.value) {
        if v == 1 && plain_rz(c) {
            return ".MOV";
        }
        if v == 1 && !matches!(c.value, Value::Imm(_)) {
            return ".IADD";
        }
        if matches!(inst.suffix, "" | ".U32") && plain_rz(c) && v.is_power_of_two() && v != 0x10000 && v != 0x8000_0000
        {
            return ".SHL";
        }
    }
    ""
}

fn parse_reg(t: &str, prefix: &str, zero: u8) -> Option<u8> {
    let r = t.strip_prefix(prefix)?;
    if r == "Z" {
        return Some(zero);
    }
    if r.is_empty() || !r.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u8 = r.parse().ok()?;
    (n != zero).then_some(n)
}

fn parse_value_pred(t: &str, uniform: bool) -> Option<Value> {
    let r = if uniform { t.strip_prefix("UP")? } else { t.strip_prefix('P')? };
    let n = if r == "T" { 7 } else { r.parse::<u8>().ok().filter(|n| *n < 7)? };
    Some(if uniform { Value::Up(n) } else { Value::P(n) })
}

fn parse_hex(t: &str) -> Option<i128> {
    let (neg, r) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
    let v = i128::from_str_radix(r.strip_prefix("0x")?, 16).ok()?;
    Some(if neg { -v } else { v })
}

fn split_plus(s: &str) -> Vec<&str> {
    // "R2.64+0x10", "R1-0x8" (negative offsets print as "-0x8" after the register).
    s.split('+').collect()
}

fn split_operands(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The spelling of an address scale (`[R0.X4]`), 0 none.
fn scale_text(sel: u8) -> &'static str {
    match sel {
        1 => ".X4",
        2 => ".X8",
        3 => ".X16",
        _ => "",
    }
}
