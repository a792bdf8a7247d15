//! The Ori IR interpreter and the SASS emulator.
//!
//! Both executors (and the GPU runner outside this crate) run a kernel from the same launch
//! spec, defined in [`launch`]: the grid, the parameters, the buffers' initial contents generated
//! by a fixed, documented generator, and the rules for comparing outputs. So the outputs of any
//! two executors can be compared byte for byte, or under a spec's float tolerance.
#![deny(missing_docs)]

pub mod launch;
