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
//! - [`difftest`]: differential testing of the whole compiler: random valid PTX kernels compiled
//!   by ptxas-rs, the emulator's outputs against the interpreter's (the `compile_diff` fuzz target).
#![deny(missing_docs)]

pub mod difftest;
pub mod emu;
pub mod forms;
pub mod gmma;
pub mod launch;
pub mod memory;
pub mod ori_exec;
pub mod validate;

pub use ori_exec::{ExecConfig, ExecError, Outputs, run_ori, run_ori_with};
