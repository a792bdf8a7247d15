//! Control-word assignment for a [`Target`] (sm_90's figures so far; see [`latency`]): the
//! stall count, yield hint, scoreboards and wait mask of every instruction
//! (`shared/notes/digest-backend.md` §1.2 for the bits, §2 for their meaning).
//!
//! The input is a function's final instruction sequence (`sass::Instruction`s at their layout
//! positions: instruction `i` sits at byte offset `16 * i`, and branch targets are already
//! resolved), and a `tail` index: `insts[tail..]` is the padding tail (`BRA` to itself and the
//! `NOP`s up to a 128-byte multiple). Instructions are never reordered, added or removed; only
//! their [`crate::sass::Control`] changes.
//!
//! Two recipes:
//! - [`Recipe::O0`] ([`o0`]): ptxas's -O0 recipe, bit for bit (phase `ProcessO0WaitsAndSBs`);
//! - [`Recipe::Latency`] ([`latency`]): stalls from the latency table and scoreboards assigned
//!   per producer, so code does not stall 15 cycles per instruction.
//!
//! Invariant (both recipes): under the hazard model of §2.5 — the one the SASS emulator's
//! checker implements — no execution path of the result reads a register before its producer's
//! result is available, overwrites a register a pending instruction still has to read, or
//! overwrites a register with a write still pending. [`class`] says which instructions are
//! variable latency; [`deps`] which registers an instruction reads and writes.

pub mod class;
pub mod deps;
pub mod latency;
pub mod o0;

use crate::sass::Instruction;
use crate::target::Target;

/// Which control-word recipe to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recipe {
    /// ptxas's -O0 recipe ([`o0`]).
    O0,
    /// Latency-table stalls and per-producer scoreboards ([`latency`]).
    Latency,
}

/// Assigns control words to `insts` (`insts[tail..]` is the padding tail) by `recipe`, for
/// `target` (the -O0 recipe is ptxas's fixed one; only which instructions are variable latency
/// depends on the target).
pub fn assign(insts: &mut [Instruction], tail: usize, recipe: Recipe, target: &Target) {
    let tail = tail.min(insts.len());
    match recipe {
        Recipe::O0 => o0::assign(insts, tail, target.hw()),
        Recipe::Latency => latency::assign(insts, tail, target),
    }
}
