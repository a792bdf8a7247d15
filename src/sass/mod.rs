//! The SASS ISA layer: one instruction model of real SASS, per-SM tables, a decoder, an encoder,
//! a printer producing exactly nvdisasm's text, and a parser of that text.
//!
//! Design: an instruction word is `key` (bits [0:12), opcode + operand-form selector), a guard
//! predicate (bits [12:16)), operand fields, a *residue* of modifier bits, and the control field
//! (bits [105:126), [`control`]). Each arch supplies [`form::Tables`]: one [`form::Form`] per key
//! (its operand [`form::Slot`]s, hand-written from field sweeps) and a generated modifier table
//! mapping each residue to the suffix nvdisasm prints (see `gen/README.md`). The same
//! description drives decode, encode, print and parse, so `encode(decode(w)) == w` by
//! construction and the printer is checked against nvdisasm by `tests/sass_roundtrip.rs` and
//! `tests/sass_random.rs`.
//!
//! Invariants: no function here panics on any input; decoding arbitrary bits returns a
//! `Result`; encoding checks every field's range.

pub mod bits;
pub mod control;
pub mod families;
pub mod form;
pub mod from_ori;
pub mod operand;
pub mod sm100;
pub mod sm120;
pub mod sm75;
pub mod sm80;
pub mod sm90;

pub use control::Control;
pub use form::{Instruction, Tables};
pub use operand::{Operand, Value};

/// Why a word does not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// No form for bits [0:12).
    #[error("unsupported opcode key {0:#05x}")]
    UnknownOpcode(u16),
    /// The form is known but this modifier combination is not in the table.
    #[error("unsupported modifiers of {opcode} ({key:#05x}): residue {residue:#x}")]
    UnknownModifiers {
        /// Mnemonic base.
        opcode: &'static str,
        /// Form key.
        key: u16,
        /// Residue bits.
        residue: u128,
    },
    /// An 8-bit uniform-register field (sm_100+) holds a register 63..=254, which the model
    /// does not represent (nvdisasm names them `UR63`..`UR254`; ptxas uses `UR0`..`UR62`, `URZ`).
    #[error("uniform register field out of the modelled range UR0..UR62, URZ")]
    UniformRegister,
    /// Bits a slot owns but that hold nothing in this layout are set (sm_75 `LD` with its
    /// uniform register: the two bits between it and the offset, which nvdisasm ignores); the
    /// model keeps no value for them, so the word would not re-encode.
    #[error("bits the layout ignores are set")]
    IgnoredBits,
    /// Bits 126–127 are set.
    #[error("reserved bits 126-127 are set")]
    ReservedBits,
}

/// Why an instruction does not encode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A value does not fit its field.
    #[error("{what}: {value:#x} does not fit in {width} bits")]
    Field {
        /// The field.
        what: &'static str,
        /// The value.
        value: u64,
        /// The field width.
        width: u32,
    },
    /// The instruction's shape does not match its form.
    #[error("{0}")]
    Shape(&'static str),
}

/// Why a text does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot parse {text:?}: {why}")]
pub struct ParseError {
    /// The text.
    pub text: String,
    /// The reason.
    pub why: String,
}

impl ParseError {
    pub(crate) fn new(text: &str, why: &str) -> ParseError {
        ParseError { text: text.to_string(), why: why.to_string() }
    }
}

/// The SASS tables of an arch (`sm_75`, `sm_80`, `sm_86`, `sm_89`, `sm_90`, `sm_90a`, `sm_100`, `sm_120`), if this build
/// knows it. The sm_80 family (Ampere, Ada) shares its forms; its modifier tables differ only
/// where nvdisasm spells a modifier differently (see `sm80`).
pub fn tables_for(arch: &str) -> Option<&'static Tables> {
    match arch {
        "sm_75" => Some(sm75::tables()),
        "sm_80" | "sm_86" | "sm_89" => sm80::tables_for(arch),
        "sm_90" | "sm_90a" => Some(sm90::tables()),
        "sm_100" | "sm_100a" => Some(sm100::tables()),
        "sm_120" | "sm_120a" => Some(sm120::tables()),
        _ => None,
    }
}

/// Test support: a word as nvdisasm printed it.
#[cfg(test)]
pub(crate) mod test_words {
    use super::{Instruction, Tables};

    /// Checks that `word` decodes, prints as nvdisasm printed it at `addr` (`text`, without the
    /// trailing ` ;`) and encodes back to the same 128 bits; returns the decoded instruction.
    /// For words whose hidden fields the text cannot name; otherwise use
    /// [`assert_nvdisasm_word`], which also parses the text back.
    pub fn assert_nvdisasm_decode(t: &Tables, addr: u64, word: u128, text: &str) -> Instruction {
        let inst = t.decode(word).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(t.print(&inst, addr, None).trim_end_matches(" ;"), text);
        assert_eq!(t.encode(&inst).expect("encodes"), word, "{text}");
        inst
    }

    /// Checks `word` (printed by `nvdisasm -b` at address `addr` as `text`) both ways: it
    /// decodes, prints as `text`, encodes back to the same 128 bits, and `text` parses back to
    /// an instruction that (with the word's control bits) encodes to the same word.
    pub fn assert_nvdisasm_word(t: &Tables, addr: u64, word: u128, text: &str) {
        let inst = assert_nvdisasm_decode(t, addr, word, text);
        let mut parsed = t.parse(text, addr).unwrap_or_else(|e| panic!("{text}: {e}"));
        parsed.control = inst.control;
        assert_eq!(t.encode(&parsed).expect("encodes"), word, "{text} parsed");
    }
}
