//! sm_90 / sm_90a tables: operand layouts per form key (hand-written from field sweeps with
//! `nvdisasm -b SM90`, see `../gen/README.md`) and the generated modifier table.
//!
//! Invariant: forms are sorted by key and unique (checked by a unit test).

use super::form::{Alias, Form, ImmStyle, Kind, ModEntry, Slot, Tables, TargetKind};
use std::sync::LazyLock;

mod generated;

const fn r(at: u8) -> Slot {
    Slot::new(Kind::R(at))
}
const fn ur(at: u8) -> Slot {
    Slot::new(Kind::Ur(at))
}
const fn p(at: u8) -> Slot {
    Slot::new(Kind::P(at))
}
const fn up(at: u8) -> Slot {
    Slot::new(Kind::Up(at))
}
const fn imm(at: u8, width: u8, style: ImmStyle) -> Slot {
    Slot::new(Kind::Imm { at, width, style })
}
const fn cb() -> Slot {
    Slot::new(Kind::CBank { off_at: 40, off_width: 14, scale: 4, index_at: None })
}
const fn mem(ra: bool, wide: Option<u8>, ur_at: Option<u8>, ur_flag: Option<u8>, desc_at: Option<u8>) -> Slot {
    Slot::new(Kind::Mem {
        ra_at: if ra { Some(24) } else { None },
        wide_bit: wide,
        ur_at,
        ur_flag,
        off_at: 40,
        off_width: 24,
        desc_at,
    })
}

/// Operand-form selector in bits [9:12).
fn sel(key: u16) -> u16 {
    key >> 9
}

/// B and C operands of a three-source ALU op for a selector. `bneg`/`cneg`: negation bits when
/// the operand is a register at 32 / 64; `imm`: how immediates print.
fn bc(
    key: u16,
    cneg: Option<u8>,
    imm_style: ImmStyle,
    b_neg_abs: (Option<u8>, Option<u8>),
    c_abs: Option<u8>,
) -> Option<(Slot, Slot)> {
    let with = |mut s: Slot, neg: Option<u8>, abs: Option<u8>| {
        s.neg = neg;
        s.abs = abs;
        s
    };
    let (bn, ba) = b_neg_abs;
    Some(match sel(key) {
        1 => (with(r(32), bn, ba).reuse(1), with(r(64), cneg, c_abs).reuse(2)),
        2 => (r(64).reuse(1), imm(32, 32, imm_style)),
        3 => (r(64).reuse(1), with(cb(), cneg, c_abs)),
        4 => (imm(32, 32, imm_style), with(r(64), cneg, c_abs).reuse(2)),
        5 => (with(cb(), bn, ba), with(r(64), cneg, c_abs).reuse(2)),
        6 => (with(ur(32), bn, ba), with(r(64), cneg, c_abs).reuse(2)),
        7 => (with(r(64), None, c_abs).reuse(1), with(ur(32), cneg.map(|_| 63), None)),
        _ => return None,
    })
}

/// The B operand of a two-source op (B at 32 for registers).
fn b2(key: u16, imm_style: ImmStyle, neg: Option<u8>, abs: Option<u8>) -> Option<Slot> {
    let with = |mut s: Slot| {
        s.neg = neg;
        s.abs = abs;
        s
    };
    Some(match sel(key) {
        1 => with(r(32)).reuse(1),
        2 | 4 => imm(32, 32, imm_style),
        5 => with(cb()),
        6 => with(ur(32)),
        _ => return None,
    })
}

fn leak(v: Vec<Slot>) -> &'static [Slot] {
    Box::leak(v.into_boxed_slice())
}

fn form(key: u16, base: &'static str, slots: Vec<Slot>) -> Form {
    Form { key, base, slots: leak(slots), uniform_guard: false, alias: Alias::None }
}

fn build() -> Vec<Form> {
    use ImmStyle::*;
    let mut f: Vec<Form> = Vec::new();
    let sels = [0x200u16, 0x400, 0x600, 0x800, 0xa00, 0xc00, 0xe00];
    // IMAD / IMAD.WIDE / IMAD.HI
    for op in [0x24u16, 0x25, 0x27] {
        for s in sels {
            let key = s | op;
            let Some((b, c)) = bc(key, Some(75), SignedHex, (None, None), None) else { continue };
            let mut c = c;
            if c.neg == Some(75) {
                c = c.neg_tilde_if(75, 74);
            }
            // Only IMAD.WIDE / IMAD.HI have a carry-out predicate.
            let co = if op == 0x24 { p(81).if_bit(127) } else { p(81).opt() };
            let slots = vec![r(16), co, r(24).reuse(0), b, c, p(87).not(90).if_bit(74)];
            let mut fm = form(key, "IMAD", slots);
            fm.alias = Alias::Imad;
            f.push(fm);
        }
    }
    // IADD3
    for s in sels {
        let key = s | 0x10;
        let Some((b, c)) = bc(key, Some(75), SignedHex, (Some(63), None), None) else { continue };
        let b = if b.neg.is_some() { b.neg_tilde_if(b.neg.unwrap_or(63), 74) } else { b };
        let c = if c.neg.is_some() { c.neg_tilde_if(c.neg.unwrap_or(75), 74) } else { c };
        f.push(form(
            key,
            "IADD3",
            vec![
                r(16),
                p(81).opt(),
                p(84).opt(),
                r(24).neg_tilde_if(72, 74).reuse(0),
                b,
                c,
                p(87).not(90).if_bit(74),
                p(77).not(80).if_bit(74),
            ],
        ));
    }
    // LOP3
    for s in [0x200u16, 0x800, 0xa00, 0xc00] {
        let key = s | 0x12;
        let Some((b, c)) = bc(key, None, Hex, (None, None), None) else { continue };
        f.push(form(key, "LOP3", vec![p(81).opt(), r(16), r(24).reuse(0), b, c, imm(72, 8, Hex), p(87).not(90)]));
    }
    // ISETP
    for s in [0x200u16, 0x800, 0xa00, 0xc00] {
        let key = s | 0x0c;
        let Some(b) = b2(key, SignedHex, None, None) else { continue };
        f.push(form(key, "ISETP", vec![p(81), p(84), r(24).reuse(0), b, p(87).not(90), p(68).not(71).if_bit(72)]));
    }
    // FSETP / DSETP
    for (op, base, style) in [(0x0bu16, "FSETP", F32), (0x2a, "DSETP", F64Hi)] {
        for s in [0x200u16, 0x400, 0x800, 0xa00, 0xc00] {
            let key = s | op;
            let Some(b) = b2(key, style, Some(63), Some(62)) else { continue };
            f.push(form(key, base, vec![p(81), p(84), r(24).neg(72).abs(73).reuse(0), b, p(87).not(90)]));
        }
    }
    // FADD / FMUL / DADD / DMUL
    for (op, base, style) in [(0x21u16, "FADD", F32), (0x20, "FMUL", F32), (0x29, "DADD", F64Hi), (0x28, "DMUL", F64Hi)]
    {
        for s in [0x200u16, 0x400, 0x800, 0xa00, 0xc00] {
            let key = s | op;
            let bneg = Some(63);
            let babs = if op == 0x21 || op == 0x29 { Some(62) } else { None };
            let Some(b) = b2(key, style, bneg, babs) else { continue };
            // DADD's register B lives in the C position (bits 64..72).
            let b = if op == 0x29 && sel(key) == 1 { r(64).neg(75).abs(74).reuse(2) } else { b };
            f.push(form(key, base, vec![r(16), r(24).neg(72).abs(73).reuse(0), b]));
        }
    }
    // FFMA / DFMA
    for (op, base, style) in [(0x23u16, "FFMA", F32), (0x2b, "DFMA", F64Hi)] {
        for s in sels {
            let key = s | op;
            let Some((b, c)) = bc(key, Some(75), style, (Some(63), None), Some(74)) else { continue };
            f.push(form(key, base, vec![r(16), r(24).neg(72).abs(73).reuse(0), b, c]));
        }
    }
    // SEL / FSEL
    for (op, base, style) in [(0x07u16, "SEL", Hex), (0x08, "FSEL", F32)] {
        for s in [0x200u16, 0x800, 0xa00, 0xc00] {
            let key = s | op;
            let Some(b) = b2(key, style, None, None) else { continue };
            f.push(form(key, base, vec![r(16), r(24).reuse(0), b, p(87).not(90)]));
        }
    }
    // SHF
    for s in [0x200u16, 0x400, 0x800, 0xc00] {
        let key = s | 0x19;
        let Some((b, c)) = bc(key, None, Hex, (None, None), None) else { continue };
        f.push(form(key, "SHF", vec![r(16), r(24).reuse(0), b, c]));
    }
    // LEA
    for s in [0x200u16, 0x800, 0xa00, 0xc00] {
        let key = s | 0x11;
        let Some((b, c)) = bc(key, None, Hex, (None, None), None) else { continue };
        let c = c.if_bit_not(80, 73);
        f.push(form(
            key,
            "LEA",
            vec![
                r(16),
                p(81).opt(),
                r(24).neg_tilde_if(72, 74).reuse(0),
                b,
                c,
                imm(75, 5, Hex),
                p(87).not(90).if_bit(74),
            ],
        ));
    }
    // MOV
    f.push(form(0x202, "MOV", vec![r(16), r(32).reuse(1)]));
    f.push(form(0x802, "MOV", vec![r(16), imm(32, 32, Hex)]));
    f.push(form(0xa02, "MOV", vec![r(16), cb()]));
    f.push(form(0xc02, "MOV", vec![r(16), ur(32)]));
    // VIADD
    f.push(form(0x836, "VIADD", vec![r(16), r(24).reuse(0), imm(32, 32, Hex)]));
    f.push(form(0xc36, "VIADD", vec![r(16), r(24).reuse(0), ur(32).neg(63)]));
    // UMOV
    f.push(form(0x882, "UMOV", vec![ur(16), imm(32, 32, Hex)]));
    f.push(form(0xc82, "UMOV", vec![ur(16), ur(32)]));
    // Control flow
    f.push(form(0x918, "NOP", vec![]));
    f.push(form(0x94d, "EXIT", vec![p(87).not(90).opt()]));
    f.push(form(0x947, "BRA", vec![p(87).not(90).opt(), Slot::new(Kind::Target(TargetKind::Split))]));
    f.push(form(0x945, "BSSY", vec![Slot::new(Kind::B(16)), Slot::new(Kind::Target(TargetKind::Plain))]));
    f.push(form(0x941, "BSYNC", vec![p(87).not(90).opt(), Slot::new(Kind::B(16))]));
    // Special registers
    f.push(form(0x919, "S2R", vec![r(16), Slot::new(Kind::Sr(72))]));
    f.push(form(0x9c3, "S2UR", vec![ur(16), Slot::new(Kind::Sr(72))]));
    // Constants
    f.push(form(
        0xb82,
        "LDC",
        vec![r(16), Slot::new(Kind::CBank { off_at: 38, off_width: 16, scale: 1, index_at: Some(24) })],
    ));
    f.push(form(
        0xab9,
        "ULDC",
        vec![ur(16), Slot::new(Kind::CBank { off_at: 38, off_width: 16, scale: 1, index_at: None })],
    ));
    // Memory
    f.push(form(0x981, "LDG", vec![p(81).opt(), r(16), mem(true, Some(90), None, None, Some(32))]));
    f.push(form(0x986, "STG", vec![mem(true, Some(90), None, None, Some(64)), r(32)]));
    f.push(form(0x984, "LDS", vec![r(16), mem(true, None, Some(32), Some(91), None)]));
    f.push(form(0x388, "STS", vec![mem(true, None, None, None, None), r(32)]));
    f.push(form(0x983, "LDL", vec![r(16), mem(true, None, Some(32), Some(91), None)]));
    f.push(form(0x387, "STL", vec![mem(true, None, None, None, None), r(32)]));
    // MUFU
    f.push(form(0x308, "MUFU", vec![r(16), r(32).neg(63).abs(62).reuse(1)]));
    let _ = up(0);
    // Uniform-datapath ops take a uniform guard (`@UP0`).
    for fm in f.iter_mut() {
        if fm.base.starts_with('U') || fm.base == "S2UR" {
            fm.uniform_guard = true;
        }
    }
    f.sort_by_key(|x| x.key);
    f
}

/// Special registers nvdisasm names (id → name), generated by the sweep.
pub static SREGS: &[(u8, &str)] = generated::SREGS;

static FORMS: LazyLock<Vec<Form>> = LazyLock::new(build);
static TABLES: LazyLock<Tables> =
    LazyLock::new(|| Tables { name: "SM90", forms: FORMS.as_slice(), mods: generated::MODS, sregs: SREGS });

/// The sm_90 tables.
pub fn tables() -> &'static Tables {
    &TABLES
}

/// The generated modifier table (for tools that regenerate it).
pub fn mods() -> &'static [ModEntry] {
    generated::MODS
}

#[cfg(test)]
mod tests {
    #[test]
    fn forms_sorted_unique() {
        let f = super::tables().forms;
        assert!(f.windows(2).all(|w| w[0].key < w[1].key));
    }

    #[test]
    fn notes_words() {
        let t = super::tables();
        let exit = 0x000fea0003800000_000000000000794du128;
        if let Ok(i) = t.decode(exit) {
            assert_eq!(t.print(&i, 0, None), "EXIT");
            assert_eq!(t.encode(&i).unwrap(), exit);
        }
        let bra = 0x000fc0000383ffff_fffffffc00fc7947u128;
        if let Ok(i) = t.decode(bra) {
            assert_eq!(t.print(&i, 0x10, None), "BRA 0x10");
            assert_eq!(t.encode(&i).unwrap(), bra);
        }
    }
}
