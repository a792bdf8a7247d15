//! The packing conversions' checks (`cvt` to or from `.e4m3x2`/`.e5m2x2`, `cvt.satfinite` to
//! the half types), in ptxas 13.0.88's wording and order (probed on sm_90 with one-instruction
//! kernels; the forms accepted are listed in `crate::lower::cvt_pack`):
//!
//! 1. a type pair that is not one of the forms: `Unexpected instruction types` (for a
//!    `.bf16x2` destination from fp8 with `.satfinite`, first `Illegal modifier '.satfinite'
//!    for instruction 'cvt.bf16x2.<src>'`), and nothing more;
//! 2. an fp8 destination without `.satfinite`: `'.satfinite' modifier required ...`;
//! 3. `.sat` with `.satfinite`: `Modifier '.satfinite' cannot be combined with modifier '.sat'`;
//!    `.ftz`: `Illegal modifier '.ftz'`;
//! 4. no rounding: `Rounding modifier required`; fp8 with a rounding other than `.rn`:
//!    `Illegal rounding modifier`; `.satfinite` to a half type with `.rm`/`.rp` or an integral
//!    rounding: `Modifier '.satfinite' cannot be combined with modifier '.rm'`, then `Illegal
//!    rounding modifier` as many times as ptxas prints it (see `check`);
//! 5. a wrong operand count, or a register whose declared width is not its type's (a scalar
//!    f16/bf16 destination may be wider): `Arguments mismatch`, and nothing more.
//!
//! Invariant: reports only for instructions [`is_packing`] accepts; every message is located
//! at the instruction's line.

use super::messages as msg;
use super::{Fatal, Sink};

/// Whether a `cvt` with these modifiers is a packing conversion (an fp8 type or `.satfinite`).
pub fn is_packing(mods: &[&str]) -> bool {
    mods.iter().any(|m| matches!(*m, ".satfinite" | ".e4m3x2" | ".e5m2x2" | ".e4m3" | ".e5m2"))
}

fn is_fp8(t: &str) -> bool {
    matches!(t, "e4m3x2" | "e5m2x2")
}

/// The width in bits of a conversion type.
fn bits(t: &str) -> u32 {
    match t {
        "f16" | "bf16" | "e4m3x2" | "e5m2x2" => 16,
        _ => 32,
    }
}

/// `Rounding modifier required` (no further rounding message).
fn return_rounding_required(line: u32, sink: &mut Sink) -> Result<usize, Fatal> {
    sink.at(line, msg::ROUNDING_REQUIRED, &["cvt"])?;
    Ok(0)
}

/// Checks a packing `cvt` ([`is_packing`]). `mods`: its modifiers with dots; `operands`: its
/// operand count; `reg_bits(k)`: operand k's declared register width, `None` when it is not a
/// register of known type.
pub fn check(
    mods: &[&str],
    operands: usize,
    reg_bits: &dyn Fn(usize) -> Option<u32>,
    line: u32,
    sink: &mut Sink,
) -> Result<(), Fatal> {
    let has = |m: &str| mods.contains(&m);
    let sat = has(".satfinite");
    let types: Vec<&str> = mods
        .iter()
        .filter_map(|m| m.strip_prefix('.'))
        .filter(|t| {
            matches!(*t, "e4m3x2" | "e5m2x2" | "e4m3" | "e5m2" | "f16" | "bf16" | "f16x2" | "bf16x2" | "f32")
                || crate::ptx::isa::Isa::get().is_type(&format!(".{t}"))
        })
        .collect();
    let (dt, st) = match types[..] {
        [d, s] => (d, s),
        _ => return sink.at(line, msg::UNEXPECTED_TYPES, &["cvt"]),
    };
    let srcs = match (dt, st) {
        (d, "f32") if is_fp8(d) => 2,
        (d, "f16x2") if is_fp8(d) => 1,
        ("f16x2", s) if is_fp8(s) && !sat => 1,
        ("f16x2" | "bf16x2", "f32") if sat => 2,
        ("f16" | "bf16", "f32") if sat => 1,
        _ => {
            if dt == "bf16x2" && is_fp8(st) && sat {
                sink.at(line, msg::ILLEGAL_MODIFIER, &[".satfinite", &format!("cvt.{dt}.{st}")])?;
            }
            return sink.at(line, msg::UNEXPECTED_TYPES, &["cvt"]);
        }
    };
    let fp8 = is_fp8(dt) || is_fp8(st);
    if is_fp8(dt) && !sat {
        sink.at(line, msg::SATFINITE_REQUIRED, &["cvt", &format!(".{dt}")])?;
    }
    if sat && has(".sat") {
        sink.at(line, msg::MODIFIER_COMBINE, &[".satfinite", ".sat"])?;
    }
    if has(".ftz") {
        sink.at(line, msg::ILLEGAL_MODIFIER, &[".ftz", "cvt"])?;
    }
    let rnd = mods
        .iter()
        .copied()
        .find(|m| matches!(*m, ".rn" | ".rz" | ".rm" | ".rp" | ".rna" | ".rs" | ".rni" | ".rzi" | ".rmi" | ".rpi"));
    // How many `Illegal rounding modifier` follow (probed, sm_90): fp8 one, plus one for an
    // integral rounding, plus one more for that with an f16x2 result; a half result after the
    // `.satfinite` conflict one when packed or integral, plus one for an integral rounding to
    // f16/f16x2 (`.rzi` to f16: two, `.rni` to bf16: one, `.rm` to bf16: none).
    let int = usize::from(rnd.is_some_and(|r| r.ends_with('i')));
    let illegal = match rnd {
        None => return_rounding_required(line, sink)?,
        Some(".rn") => 0,
        Some(".rz") if !fp8 => 0,
        Some(_) if fp8 => 1 + int + usize::from(int == 1 && dt == "f16x2"),
        Some(r) => {
            sink.at(line, msg::MODIFIER_COMBINE, &[".satfinite", r])?;
            usize::from(dt.ends_with("x2") || int == 1) + usize::from(int == 1 && dt.starts_with("f16"))
        }
    };
    for _ in 0..illegal {
        sink.at(line, msg::ILLEGAL_ROUNDING, &["cvt"])?;
    }
    if operands != srcs + 1 {
        return sink.at(line, msg::ARGUMENTS_MISMATCH, &["cvt"]);
    }
    for k in 0..=srcs {
        let want = bits(if k == 0 { dt } else { st });
        let wider_ok = k == 0 && matches!(dt, "f16" | "bf16");
        if let Some(have) = reg_bits(k)
            && (have < want || have > want && !wider_ok)
        {
            return sink.at(line, msg::ARGUMENTS_MISMATCH, &["cvt"]);
        }
    }
    Ok(())
}

/// Checks an integer packing conversion `cvt.pack.sat.{u16,s16}.s32 d, a, b` or
/// `cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c` (probed with ptxas 13.0.88, sm_90):
/// other types `Unexpected instruction types` (alone); no `.sat` `.sat modifier required`; a
/// wrong operand count or a register narrower than 32 bits `Arguments mismatch` (a wider
/// destination is accepted). `mods`: its modifiers with dots, `.pack` excluded; the rest as
/// [`check`].
pub fn check_int(
    mods: &[&str],
    operands: usize,
    reg_bits: &dyn Fn(usize) -> Option<u32>,
    line: u32,
    sink: &mut Sink,
) -> Result<(), Fatal> {
    let isa = crate::ptx::isa::Isa::get();
    let types: Vec<&str> = mods.iter().filter(|m| isa.is_type(m)).filter_map(|m| m.strip_prefix('.')).collect();
    let srcs = match types[..] {
        ["u16" | "s16", "s32"] => 2,
        ["u8" | "s8" | "u4" | "s4" | "u2" | "s2", "s32", "b32"] => 3,
        _ => return sink.at(line, msg::UNEXPECTED_TYPES, &["cvt.pack"]),
    };
    if !mods.contains(&".sat") {
        sink.at(line, msg::SAT_REQUIRED, &["cvt.pack"])?;
    }
    if operands != srcs + 1 || (0..operands).any(|k| reg_bits(k).is_some_and(|b| b < 32)) {
        sink.at(line, msg::ARGUMENTS_MISMATCH, &["cvt.pack"])?;
    }
    Ok(())
}
