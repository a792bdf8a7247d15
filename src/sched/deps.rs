//! Which registers a SASS instruction reads and writes — the dataflow the scheduler protects.
//!
//! The model is deliberately conservative: when a width is uncertain it takes the wider tuple
//! (an extra register read or written only adds a wait or a stall, never removes one).
//!
//! Destinations, in printing order: the leading predicates (`SHFL PT, R3, ...`,
//! `ATOMG PT, R0, ...`), then the first operand when it is a general or uniform register and
//! the base has a register result, then the predicates right after it (`IADD3 R0, P0, PT, ...`,
//! `LOP3 R0, P1, ...`). Exceptions: compare/predicate-logic bases write exactly their first two
//! predicates (`FCHK` its first), `VOTE`/`VOTEU` write the register and the first predicate,
//! `R2P` writes every predicate, and stores, branches and barriers write nothing. Every other
//! operand, the guard, the registers of memory addresses (`Ra`, `Ra+1` for `.64`, the uniform
//! offset and the `desc[URd]` pair) and constant-bank index registers are reads.
//!
//! Widths: an operand of a `.64` / 64-bit-typed instruction (`.64`, `.U64`, `.S64`, `.F64`,
//! `.WIDE`, `.HI` on IMAD, `DADD`/`DMUL`/`DFMA`/`DSETP`) is taken as a pair, `.128` as a quad.
//!
//! Invariant: total — every instruction yields an [`Effects`]; `RZ`, `URZ`, `PT`, `UPT` never
//! appear in it.

use crate::sass::{Instruction, Value};

/// A register the scheduler tracks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Loc {
    /// R0–R254.
    R(u8),
    /// UR0–UR62.
    Ur(u8),
    /// P0–P6.
    P(u8),
    /// UP0–UP6.
    Up(u8),
}

impl Loc {
    /// A dense index (0..336) for tables.
    pub fn index(self) -> usize {
        match self {
            Loc::R(n) => n as usize,
            Loc::Ur(n) => 256 + n as usize,
            Loc::P(n) => 320 + n as usize,
            Loc::Up(n) => 328 + n as usize,
        }
    }
    /// Whether this is a predicate.
    pub fn is_pred(self) -> bool {
        matches!(self, Loc::P(_) | Loc::Up(_))
    }
}

/// Number of distinct [`Loc::index`] values.
pub const LOCS: usize = 336;

/// The registers an instruction reads and writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    /// Registers read (the guard included).
    pub reads: Vec<Loc>,
    /// Registers written.
    pub writes: Vec<Loc>,
}

/// Bases without any register or predicate result.
const NO_RESULT: &[&str] = &[
    "ST",
    "STG",
    "STS",
    "STSM",
    "STL",
    "RED",
    "REDG",
    "BRA",
    "BRX",
    "JMP",
    "JMX",
    "EXIT",
    "CALL",
    "RET",
    "BSSY",
    "BSYNC",
    "BREAK",
    "WARPSYNC",
    "NOP",
    "BAR",
    "MEMBAR",
    "FENCE",
    "ERRBAR",
    "CGAERRBAR",
    "UCGABAR_ARV",
    "UCGABAR_WAIT",
    "DEPBAR",
    "UTMACCTL",
    "YIELD",
    "NANOSLEEP",
    "CCTL",
    "ARRIVES",
    "UBLKCP",
    "BPT",
    "KILL",
    "LDGDEPBAR",
];

/// Bases whose results are exactly their first two predicates.
const TWO_PREDS: &[&str] = &["ISETP", "FSETP", "DSETP", "HSETP2", "UISETP", "PLOP3", "UPLOP3"];

fn width(inst: &Instruction) -> (u8, u8) {
    // (width of register operands, width of memory data) in registers.
    let base = inst.form.base;
    let toks: Vec<&str> = inst.suffix.split('.').filter(|t| !t.is_empty()).collect();
    let has = |t: &str| toks.contains(&t);
    if has("128") {
        return (4, 4);
    }
    let wide = has("64")
        || has("U64")
        || has("S64")
        || has("F64")
        || matches!(base, "DADD" | "DMUL" | "DFMA" | "DSETP")
        || (base == "IMAD" && (has("WIDE") || has("HI")));
    if wide { (2, 2) } else { (1, 1) }
}

/// Per-operand register widths of the tensor-core instructions, whose operands are tuples of
/// different sizes: `HMMA` d and c 4, a 4 (`16816`, `1688.TF32`) or 2, b half of a; `IMMA` the
/// same with a 4 for `16832`, else 2; `STSM`'s data 1, 2 or 4 (`.2`, `.4`); `LDSM`'s
/// destination 1, 2 or 4 (`.2`, `.4`); `SYNCS.ARRIVE`'s destination 2 (the state token);
/// the warpgroup MMAs' (`HGMMA`, `IGMMA`, `QGMMA`) accumulators, A fragment and descriptor quad.
fn tuple_widths(inst: &Instruction) -> Option<Vec<u8>> {
    let toks: Vec<&str> = inst.suffix.split('.').filter(|t| !t.is_empty()).collect();
    let has = |t: &str| toks.contains(&t);
    match inst.form.base {
        "HMMA" => {
            let a = if has("16816") || (has("1688") && has("TF32")) { 4 } else { 2 };
            Some(vec![4, a, a / 2, 4])
        }
        "IMMA" => {
            let a = if has("16832") { 4 } else { 2 };
            Some(vec![4, a, a / 2, 4])
        }
        "LDSM" => Some(vec![if has("4") {
            4
        } else if has("2") {
            2
        } else {
            1
        }]),
        // `STSM [Ra], Rb`: no destination; the address, then the data tuple.
        "STSM" => Some(vec![
            1,
            if has("4") {
                4
            } else if has("2") {
                2
            } else {
                1
            },
        ]),
        // `HGMMA`/`IGMMA`/`QGMMA.64xNxK Rd, [Ra,] gdesc[URa], Rc, UPp`: d and c the accumulator
        // (N/2 registers, N/4 for f16 accumulators), A's fragment (key bit 0x400) 4, the
        // descriptors a uniform quad.
        "HGMMA" | "IGMMA" | "QGMMA" => {
            let n = toks.first()?.strip_prefix("64x")?.split('x').next()?.parse::<u16>().ok()?;
            let f16 = toks.get(1) == Some(&"F16");
            let d = u8::try_from(if f16 { n / 4 } else { n / 2 }).ok()?;
            if inst.form.key & 0x400 != 0 { Some(vec![d, 4, 4, d, 1]) } else { Some(vec![d, 4, d, 1]) }
        }
        // `SYNCS.ARRIVE.TRANS64 Rd, [a], Rb`: the state token is a register pair.
        "SYNCS" if has("ARRIVE") => Some(vec![2, 1, 1]),
        _ => None,
    }
}

fn push_reg(list: &mut Vec<Loc>, v: Value, n: u8) {
    match v {
        Value::R(r) if r != 255 => {
            for k in 0..n {
                if let Some(x) = r.checked_add(k).filter(|x| *x != 255) {
                    list.push(Loc::R(x));
                }
            }
        }
        Value::Ur(r) if r != 63 => {
            for k in 0..n {
                if r + k < 63 {
                    list.push(Loc::Ur(r + k));
                }
            }
        }
        Value::P(p) if p != 7 => list.push(Loc::P(p)),
        Value::Up(p) if p != 7 => list.push(Loc::Up(p)),
        _ => {}
    }
}

/// The effects of `inst`.
pub fn effects(inst: &Instruction) -> Effects {
    let base = inst.form.base;
    let (w, _) = width(inst);
    let mut e = Effects::default();
    push_reg(&mut e.reads, inst.guard.value, 1);
    let order: Vec<usize> = (0..inst.form.slots.len()).map(|k| inst.form.printed(k)).collect();
    let ops: Vec<Value> = order.iter().filter_map(|&i| inst.operands.get(i).map(|o| o.value)).collect();
    let is_pred = |v: &Value| matches!(v, Value::P(_) | Value::Up(_));
    // Number of leading destination operands.
    let ndst = if NO_RESULT.contains(&base) || base == "R2P" {
        0
    } else if TWO_PREDS.contains(&base) {
        2
    } else if base == "FCHK" {
        1
    } else if matches!(base, "VOTE" | "VOTEU") {
        2
    } else {
        let mut n = ops.iter().take_while(|v| is_pred(v)).count();
        if matches!(ops.get(n), Some(Value::R(_) | Value::Ur(_))) {
            n += 1;
            n += ops[n..].iter().take_while(|v| is_pred(v)).count();
        }
        n
    };
    if base == "R2P" {
        e.writes.extend((0..7).map(Loc::P));
    }
    let tuple = tuple_widths(inst);
    for (k, v) in ops.iter().enumerate() {
        let list = if k < ndst { &mut e.writes } else { &mut e.reads };
        let w = tuple.as_ref().and_then(|t| t.get(k).copied()).unwrap_or(w);
        match *v {
            Value::R(_) | Value::Ur(_) | Value::P(_) | Value::Up(_) => push_reg(list, *v, w),
            Value::CBank { index, .. } => push_reg(&mut e.reads, Value::R(index), 1),
            Value::Mem { ra, wide, ur, desc, .. } => {
                // An extended (`.E`) address is a register pair even where nvdisasm prints it
                // without `.64` (`ATOM.E.CAS.64.STRONG.GPU PT, R4, [R6], R12, R8` reads R6:R7).
                let extended = matches!(base, "LD" | "ST" | "LDG" | "STG" | "ATOM" | "ATOMG" | "RED" | "REDG" | "QSPC")
                    && inst.suffix.split('.').any(|t| t == "E");
                push_reg(&mut e.reads, Value::R(ra), if wide || extended { 2 } else { 1 });
                // UBLKCP reads uniform pairs: `[URd]` is the destination and the mbarrier,
                // `[URs]` the 64-bit source address.
                push_reg(&mut e.reads, Value::Ur(ur), if base == "UBLKCP" { 2 } else { 1 });
                if let Some(d) = desc {
                    push_reg(&mut e.reads, Value::Ur(d), 2);
                }
            }
            _ => {}
        }
    }
    e
}
