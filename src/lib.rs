//! ptxas-rs: a verification-first reimplementation of NVIDIA's PTX assembler (ptxas 13.0).
//!
//! The pipeline mirrors ptxas's: PTX text is parsed ([`ptx`]), lowered to the Ori IR, optimised
//! by the phase pipeline, register-allocated, scheduled, encoded to SASS and written as a cubin.
//! Modules arrive with the issues that build them; every module states the invariants it keeps.
//!
//! As a library: [`compile`] (PTX text and ptxas's options in, cubin bytes and ptxas's
//! diagnostics out) is the one entry point, the same path the `ptxas-rs` command takes.
#![deny(missing_docs)]

pub mod backend;
pub mod budget;
pub mod cli;
pub mod compile;
pub mod cubin;
pub mod disasm;
pub mod driver;
pub mod fuzzing;
pub mod lower;
pub mod opt;
pub mod ori;
pub mod ptx;
pub mod regalloc;
pub mod sass;
pub mod sched;
pub mod stats;
pub mod target;

pub use compile::{Compiled, Diagnostics, compile};
