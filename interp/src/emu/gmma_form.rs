//! The warpgroup MMA form ([`GmmaForm`]) of a decoded `HGMMA`/`IGMMA`/`QGMMA`: N and K from
//! the shape token (`64x128x16`), the types from the others (`F32`, `F16`, `BF16`, `TF32`;
//! `E4M3`/`E5M2` pairs; `S8`/`U8` pairs and `SAT`), A from registers when the instruction has
//! the extra register operand, and the decorations (`-Ra`; `.negA`, `.negB`, `.tnspA`,
//! `.tnspB` on the descriptor, in the order of the sm_90 table's marks).
//!
//! Invariant: a word whose form the PTX ISA does not allow ([`GmmaForm::check`]) is refused
//! with the mnemonic named, never run as something near it.

use ptxas_rs::ori::gmma::{GmmaAcc, GmmaForm, GmmaType};

use super::program::Arg;

/// The form of `base` with suffix tokens `toks` and value operands `vals` (printing order,
/// predicates excluded).
pub(super) fn form_of(base: &str, toks: &[&str], vals: &[Arg]) -> Result<GmmaForm, String> {
    let bad = || format!("{base}.{}", toks.join("."));
    let (shape, rest) = toks.split_first().ok_or_else(bad)?;
    let mut it = shape.split('x');
    let (Some("64"), Some(n), Some(k), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err(bad());
    };
    let n: u16 = n.parse().map_err(|_| bad())?;
    let a_regs = vals.len() == 5;
    let desc = vals.get(if a_regs { 2 } else { 1 }).ok_or_else(bad)?;
    // The descriptor's marks as the sm_90 table holds them: bit k is the k-th mark of the slot
    // (`HGMMA`: negA negB tnspA tnspB; with A in registers: negB tnspB; `QGMMA`: negA negB /
    // negB).
    let mark = |name: &str| -> bool {
        let names: &[&str] = match (base, a_regs) {
            ("HGMMA", false) => &["negA", "negB", "tnspA", "tnspB"],
            ("HGMMA", true) => &["negB", "tnspB"],
            ("QGMMA", false) => &["negA", "negB"],
            ("QGMMA", true) => &["negB"],
            _ => &[],
        };
        names.iter().position(|m| *m == name).is_some_and(|k| desc.sel >> k & 1 == 1)
    };
    let neg_a = if a_regs { vals[1].neg } else { mark("negA") };
    let (acc, a, b, satfinite) = match (base, rest) {
        ("HGMMA", ["F32"]) => (GmmaAcc::F32, GmmaType::F16, GmmaType::F16, false),
        ("HGMMA", ["F16"]) => (GmmaAcc::F16, GmmaType::F16, GmmaType::F16, false),
        ("HGMMA", ["F32", "BF16"]) => (GmmaAcc::F32, GmmaType::Bf16, GmmaType::Bf16, false),
        ("HGMMA", ["F32", "TF32"]) => (GmmaAcc::F32, GmmaType::Tf32, GmmaType::Tf32, false),
        ("QGMMA", [acc, a, b]) => {
            let acc = match *acc {
                "F32" => GmmaAcc::F32,
                "F16" => GmmaAcc::F16,
                _ => return Err(bad()),
            };
            let fp8 = |t: &str| match t {
                "E4M3" => Ok(GmmaType::E4m3),
                "E5M2" => Ok(GmmaType::E5m2),
                _ => Err(bad()),
            };
            (acc, fp8(a)?, fp8(b)?, false)
        }
        ("IGMMA", [a, b, sat @ ..]) => {
            let int = |t: &str| match t {
                "S8" => Ok(GmmaType::S8),
                "U8" => Ok(GmmaType::U8),
                _ => Err(bad()),
            };
            let satfinite = match sat {
                [] => false,
                ["SAT"] => true,
                _ => return Err(bad()),
            };
            (GmmaAcc::S32, int(a)?, int(b)?, satfinite)
        }
        _ => return Err(bad()),
    };
    let form = GmmaForm {
        n,
        acc,
        a,
        b,
        a_regs,
        trans_a: mark("tnspA"),
        trans_b: mark("tnspB"),
        neg_a,
        neg_b: mark("negB"),
        satfinite,
    };
    if form.k().to_string() != k {
        return Err(bad());
    }
    form.check().map_err(|e| format!("{}: {e}", bad()))?;
    Ok(form)
}
