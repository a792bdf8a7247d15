//! Operand values of the instruction model and their nvdisasm spelling.
//!
//! An [`Operand`] is what a slot of a form decodes to: a value ([`Value`]) plus the decorations
//! nvdisasm prints around it (`-`, `|..|`, `!`/`~`, `.reuse`). Register numbers keep their
//! encodings: `R255` is `RZ`, `UR63` is `URZ`, `P7`/`UP7` are `PT`/`UPT`.
//! Invariant: formatting never panics and every value formats.

/// The value part of an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// General register (255 = RZ).
    R(u8),
    /// Uniform register (63 = URZ).
    Ur(u8),
    /// Predicate (7 = PT).
    P(u8),
    /// Uniform predicate (7 = UPT).
    Up(u8),
    /// An immediate, raw bits as stored (width given by the slot).
    Imm(u64),
    /// Constant bank `c[bank][offset]` (byte offset), optionally register-indexed `c[bank][R+off]`.
    CBank {
        /// Bank index.
        bank: u8,
        /// Byte offset.
        offset: u32,
        /// Index register (255 = none/RZ).
        index: u8,
    },
    /// Memory address `desc[URd][Ra.64+URb+off]`.
    Mem {
        /// Address register (255 = RZ, not printed).
        ra: u8,
        /// `.64` on the address register.
        wide: bool,
        /// Uniform address register (63 = URZ, not printed), when the slot has one.
        ur: u8,
        /// Signed byte offset.
        offset: i32,
        /// Descriptor uniform register, when the slot has one.
        desc: Option<u8>,
    },
    /// Special register id (`SR_*`).
    Sr(u8),
    /// Branch target as a signed byte offset from the next instruction.
    Target(i64),
    /// Convergence barrier `B<n>`.
    B(u8),
}

/// A decoded operand with its decorations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operand {
    /// The value.
    pub value: Value,
    /// Arithmetic negation `-x` (or bitwise `~x` where the form spells it so).
    pub neg: bool,
    /// Absolute value `|x|`.
    pub abs: bool,
    /// Logical not `!P`.
    pub not: bool,
    /// `.reuse` (mirrors the control word's reuse bit for this slot).
    pub reuse: bool,
    /// Half-precision operand selector (slots with [`crate::sass::form::Slot::hsel`]): 0 none
    /// (both halves in place, `H1_H0`), 2 `.H0_H0`, 3 `.H1_H1`; 1 prints `.F32` on slots with
    /// [`crate::sass::form::Slot::f32_sel`] (sm_75 and the sm_80 family), else `.INVALID1`
    /// (sm_90 prints one or the other depending on the slot; not modelled). On slots with
    /// [`crate::sass::form::Slot::h1`]: 0 the low half, 1 `.H1`.
    pub sel: u8,
}

impl Operand {
    /// A plain operand without decorations.
    pub fn plain(value: Value) -> Operand {
        Operand { value, neg: false, abs: false, not: false, reuse: false, sel: 0 }
    }
}

/// `R5`, `RZ`.
pub fn reg_name(n: u8) -> String {
    if n == 255 { "RZ".into() } else { format!("R{n}") }
}
/// `UR5`, `URZ`.
pub fn ureg_name(n: u8) -> String {
    if n == 63 { "URZ".into() } else { format!("UR{n}") }
}
/// `P3`, `PT`.
pub fn pred_name(n: u8) -> String {
    if n == 7 { "PT".into() } else { format!("P{n}") }
}
/// `UP3`, `UPT`.
pub fn upred_name(n: u8) -> String {
    if n == 7 { "UPT".into() } else { format!("UP{n}") }
}

/// nvdisasm's hex spelling of a signed value: `0x10`, `-0x10`.
pub fn signed_hex(v: i64) -> String {
    if v < 0 { format!("-{:#x}", (v as i128).unsigned_abs()) } else { format!("{v:#x}") }
}

/// nvdisasm's spelling of an FP32 immediate (raw IEEE bits).
pub fn f32_text(bits: u32) -> String {
    fp_text(f64::from(f32::from_bits(bits)), bits >> 31 == 1)
}

/// nvdisasm's spelling of an FP64 immediate given its high 32 bits (low bits are zero).
pub fn f64hi_text(hi: u32) -> String {
    fp_text(f64::from_bits(u64::from(hi) << 32), hi >> 31 == 1)
}

/// The value of FP16 bits.
pub fn f16_value(bits: u16) -> f64 {
    let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
    let exp = i32::from(bits >> 10 & 0x1f);
    let man = f64::from(bits & 0x3ff);
    match exp {
        0 => sign * man * 2f64.powi(-24),
        31 if man == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN.copysign(sign),
        e => sign * (1.0 + man / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The FP16 bits of `v` when it is exactly representable (NaN maps to the canonical quiet NaN).
pub fn f16_bits(v: f64) -> Option<u16> {
    if v.is_nan() {
        return Some(if v.is_sign_negative() { 0xfe00 } else { 0x7e00 });
    }
    // Exhaustive search over the 2^16 patterns is cheap and exact.
    (0..=u16::MAX).find(|&b| {
        let x = f16_value(b);
        !x.is_nan() && x == v && x.is_sign_negative() == v.is_sign_negative()
    })
}

/// nvdisasm's spelling of an FP16 immediate (raw IEEE bits); negative zero is `-0.0`.
pub fn f16_text(bits: u16) -> String {
    if bits == 0x8000 {
        return "-0.0".into();
    }
    fp_text(f16_value(bits), bits >> 15 == 1)
}

fn fp_text(v: f64, negative: bool) -> String {
    if v.is_nan() {
        return if negative { "-QNAN".into() } else { "+QNAN".into() };
    }
    if v.is_infinite() {
        return if negative { "-INF".into() } else { "+INF".into() };
    }
    if v == 0.0 {
        // nvdisasm spells a negative zero `-0.0` (and pads it like INF before a comma).
        return if negative { "-0.0".into() } else { "0".into() };
    }
    let a = v.abs();
    if v == v.trunc() && a < 1e9 {
        return format!("{v:.0}");
    }
    if a >= 1e9 {
        // %.20e, untrimmed: `1.00000000000000000000e+10`.
        return exp_form(&format!("{v:.20e}"), false);
    }
    if a < 1e-4 {
        return exp_form(&format!("{v:.19e}"), true);
    }
    // 20 significant digits, trailing zeros trimmed.
    let exp10 = a.log10().floor() as i32;
    let decimals = (19 - exp10).max(0) as usize;
    trim_frac(&format!("{v:.decimals$}"))
}

fn exp_form(s: &str, trim: bool) -> String {
    let (m, e) = s.split_once('e').unwrap_or((s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let m = if trim { trim_frac(m) } else { m.to_string() };
    format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

fn trim_frac(s: &str) -> String {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s.to_string() }
}

/// nvdisasm's spelling of a BF16 immediate (the high 16 bits of an FP32).
pub fn bf16_text(bits: u16) -> String {
    if bits == 0x8000 {
        return "-0.0".into();
    }
    f32_text(u32::from(bits) << 16)
}

/// The printed single-half selector of [`Operand::sel`] on a slot with
/// [`crate::sass::form::Slot::h1`] (`""`, `".H1"`, `".INVALID2"`, `".INVALID3"`).
pub fn h1_text(sel: u8) -> &'static str {
    match sel {
        0 => "",
        1 => ".H1",
        2 => ".INVALID2",
        _ => ".INVALID3",
    }
}

/// The printed half selector of [`Operand::sel`] (`""`, `".H0_H0"`, `".H1_H1"`; 1 is `".F32"`
/// where `f32` says the slot names it so, else `".INVALID1"`).
pub fn hsel_text(sel: u8, f32: bool) -> &'static str {
    match sel {
        0 => "",
        1 if f32 => ".F32",
        2 => ".H0_H0",
        3 => ".H1_H1",
        _ => ".INVALID1",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn fp_spellings_seen_in_nvdisasm() {
        assert_eq!(f32_text(0x3f000000), "0.5");
        assert_eq!(f32_text(0x4b800000), "16777216");
        assert_eq!(f32_text(0xbf800000), "-1");
        assert_eq!(f32_text(0x7f800000), "+INF");
        assert_eq!(signed_hex(-0x7fffffff), "-0x7fffffff");
    }
}
