//! The -O0 control-word recipe (phase `ProcessO0WaitsAndSBs`), as ptxas 13.0.88 applies it on
//! sm_90 (`shared/notes/digest-backend.md` §2.4, measured on the whole corpus at `-O0`):
//!
//! - every instruction: stall 15, yield, wait on SB0 and SB1, no reuse;
//! - a variable-latency instruction with results ([`Class::VarResult`]) also sets write SB0 and
//!   read SB1; one that only reads late ([`Class::LateRead`]: stores, barriers) sets read SB1;
//! - the padding tail (the `BRA` to itself after the code and the `NOP`s that fill the section
//!   to 128 bytes): stall 0, yield, no wait;
//! - `HMMA`/`IMMA`/`ERRBAR`: stall 0 (otherwise as above);
//! - `WARPGROUP.DEPBAR`: no wait;
//! - `FENCE` sets write SB0; `BMOV R, B` sets write SB0 only, `BMOV B, R` read SB1 only;
//! - an instruction that never executes (guard `!PT`): stall 1, no yield, no wait.
//!
//! Invariant: the result is safe under the hazard model of §2.5 for any instruction sequence:
//! every fixed latency (at most 13 cycles) is covered by the 15-cycle stall, and every
//! scoreboard that can be pending (SB0 for results, SB1 for late reads) is waited on by the
//! very next instruction.

use super::class::{Class, class};
use crate::sass::{Control, Instruction};
use crate::target::HwFacts;

/// The control bits the recipe gives a body instruction.
pub fn control(inst: &Instruction, hw: &HwFacts) -> Control {
    if super::class::never_executes(inst) {
        return Control { stall: 1, yield_: false, write_sb: None, read_sb: None, wait: 0, reuse: 0 };
    }
    let mut c = Control { stall: 15, yield_: true, write_sb: None, read_sb: None, wait: 0b11, reuse: 0 };
    match class(inst, hw) {
        Class::VarResult => {
            c.write_sb = Some(0);
            c.read_sb = Some(1);
        }
        Class::LateRead => c.read_sb = Some(1),
        Class::Fixed => {}
    }
    match inst.form.base {
        "FENCE" => c.write_sb = Some(0),
        "BMOV" if c.write_sb.is_some() => c.read_sb = None,
        // sm_100's uniform constant load reads no register late: nvdisasm rejects a read
        // scoreboard on it ("Unrecognized operation for functional unit 'uC'"), and ptxas's
        // -O3 code gives it a write scoreboard only (`LDCU.64 UR6, c[0x0][0x358]`).
        "LDCU" => c.read_sb = None,
        _ => {}
    }
    if matches!(inst.form.base, "HMMA" | "IMMA" | "ERRBAR") && c.write_sb.is_none() {
        c.stall = 0;
    }
    // `WARPGROUP.DEPBAR` waits on no scoreboard (ptxas's -O0 code; nvdisasm rejects one with a
    // wait mask). It reads no register, and the instruction after it waits on both.
    if inst.form.base == "WARPGROUP" && inst.suffix.contains("DEPBAR") {
        c.wait = 0;
    }
    c
}

/// The control bits of the padding tail.
pub fn tail_control() -> Control {
    Control { stall: 0, yield_: true, write_sb: None, read_sb: None, wait: 0, reuse: 0 }
}

/// Assigns the recipe to `insts`; `insts[tail..]` is the padding tail. Operand reuse flags
/// are cleared (ptxas sets none at -O0).
pub fn assign(insts: &mut [Instruction], tail: usize, hw: &HwFacts) {
    for (i, inst) in insts.iter_mut().enumerate() {
        inst.control = if i < tail { control(inst, hw) } else { tail_control() };
        for o in &mut inst.operands {
            o.reuse = false;
        }
    }
}
