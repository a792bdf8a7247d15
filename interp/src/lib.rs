//! The Ori IR interpreter and the SASS emulator.
//!
//! Both executors (and the GPU runner outside this crate) run a kernel from the same launch
//! spec, defined in [`launch`]: the grid, the parameters, the buffers' initial contents generated
//! by a fixed, documented generator, and the rules for comparing outputs. So the outputs of any
//! two executors can be compared byte for byte, or under a spec's float tolerance.
//!
//! - [`memory`]: the device memory model (global allocations at fixed addresses, shared, local,
//!   param, constant banks; checked accesses that return a [`memory::Fault`]);
//! - [`emu`]: the SASS emulator ([`emu::run_cubin`]): real cubins, 32 lanes per
//!   warp-instruction, BSSY/BSYNC convergence, CTA barriers, an optional hazard checker;
//! - [`ori_exec`]: the Ori interpreter ([`run_ori`]), SIMT warps with a post-dominator
//!   reconvergence stack, CTA barriers, a step limit;
//! - [`forms`]: the instruction-form sweep's generator (issue 22): PTX micro-kernels with launch
//!   specs for every instruction form of the PTX instruction table, which `tests/form_sweep.rs`
//!   compiles with NVIDIA ptxas for every target and runs through the SASS layer and both executors;
//! - [`isa_coverage`]: the PTX ISA coverage report's generator (issue 23): one probe kernel per
//!   instruction form of the PTX instruction table (`corpus/isa/instructions.tsv`), which
//!   `tests/isa_coverage.rs` judges with NVIDIA ptxas and runs through each of our stages;
//! - [`texture`]: texture and surface semantics (fetch, filtering, gather, queries, surface
//!   addressing), the one exception to the rule below: the brief of issue 23 allows one module
//!   for both executors, tested against hand-derived expectations (its module doc);
//! - [`difftest`]: differential testing of the whole compiler: random valid PTX kernels compiled
//!   by ptxas-rs, the emulator's outputs against the interpreter's (the `compile_diff` fuzz target),
//!   and micro-kernels for one instruction's meaning ([`difftest::micro`]).
//!
//! # Semantics: two implementations, on purpose
//!
//! The interpreter computes every pure operation with `ptxas_rs::ori::semantics` (the one
//! table the compiler's constant folding also uses). The emulator's ALU ([`emu::alu`]) is a
//! deliberate second implementation of the same meanings, written from the SASS side, and it
//! must stay separate: the differential checks run NVIDIA's cubins in the emulator against the
//! interpreter on the PTX, and a shared function would make them blind to exactly the bugs they
//! are for (a wrong meaning would be wrong in both, and agree). What keeps the two from
//! drifting apart is a test, not shared code: `interp/tests/alu_vs_semantics.rs` compares them
//! bit-exactly on random edge-biased operands wherever a SASS instruction means a PTX
//! operation, and `interp/tests/semantics_fixes.rs` compares the interpreter with NVIDIA's code
//! in the emulator on micro-kernels ([`difftest::micro`]). Inside the emulator, by contrast,
//! a meaning should exist once: its general executor and its fast path call the same per-lane
//! `alu` function and differ only in how they iterate lanes (`LEA` does; some fast forms still
//! inline theirs, checked against the general executor by `interp/tests/emu_fast_paths.rs`).
#![deny(missing_docs)]

pub mod difftest;
pub mod emu;
pub mod forms;
pub mod gmma;
pub mod isa_coverage;
pub mod launch;
pub mod memory;
pub mod ori_exec;
pub mod sysfn;
pub mod texture;
pub mod validate;

pub use ori_exec::{ExecConfig, ExecError, Outputs, run_ori, run_ori_with};
