//! Launch specs: what every executor runs a kernel with.
//!
//! A launch spec (`<name>.run.toml`, beside `<name>.ptx` or `<name>.<arch>.ptx`) says which
//! entry to run, the grid and block shape, the kernel parameters in order, and the buffers with
//! their initial contents and how outputs are compared. The format is the contract in
//! `shared/notes/launch-spec.md`; the Ori interpreter, the SASS emulator and the GPU runner all
//! read it through this module (or reproduce it exactly, for the runner outside Rust), so that
//! any two executors' outputs can be compared with `cmp`.
//!
//! The pieces:
//!
//! - [`spec`]: the typed model ([`LaunchSpec`], [`Param`], [`BufferSpec`]) and the TOML parser,
//!   with validation errors ([`SpecError`]) that name the file and the dotted key;
//! - [`scalar`]: how numbers in a spec become element bits, scalar parameters ([`Scalar`]), and
//!   the parameter block layout ([`param_layout`]);
//! - [`rng`]: the fixed generator, SplitMix64 ([`SplitMix64`]);
//! - [`init`]: the exact rules that turn `fill`, `ramp`, `values`, `random` and `edge` into
//!   bytes, with the edge-value tables;
//! - [`texture`]: texture and surface objects (`[texture.NAME]`, `[surface.NAME]`) and their
//!   handle convention;
//! - [`builder`]: specs built in code ([`builder::SpecBuilder`]), through the same parser;
//! - [`limits`]: the per-target launch limits (shared memory per block) executors check;
//! - [`plan`]: a spec written out for the CUDA-driver runner (`interp/gpu/`);
//! - [`float`]: exact `f64` <-> `f16`/`bf16`/`f32` conversions (round to nearest even);
//! - [`mod@compare`]: bit-exact and toleranced comparison of outputs ([`compare()`],
//!   [`Mismatch`]).
//!
//! Typical use by an executor:
//!
//! ```
//! use interp::launch::LaunchSpec;
//!
//! let spec = LaunchSpec::from_toml_str(r#"
//!     kernel = "saxpy"
//!     grid = [4]
//!     block = [128]
//!     [[param]]
//!     scalar = { type = "f32", value = 2.5 }
//!     [[param]]
//!     buffer = "y"
//!     [buffer.y]
//!     type = "f32"
//!     len = 512
//!     init = { random = { seed = 1, min = -10.0, max = 10.0 } }
//!     output = true
//! "#)?;
//! assert_eq!(spec.grid, [4, 1, 1]);
//! let memory = spec.generate_buffers();            // name -> initial bytes
//! assert_eq!(memory["y"].len(), 512 * 4);
//! let block = spec.param_block(|_buffer| 0x7000_0000); // buffer addresses from the executor
//! assert_eq!(block.len(), 16);                      // f32 at 0, pointer at 8
//! # Ok::<(), interp::launch::SpecError>(())
//! ```
//!
//! Invariant: everything a parsed spec describes can be generated without further errors; all
//! fallible checks happen in the parser.

pub mod builder;
pub mod compare;
pub mod error;
pub mod float;
pub mod init;
pub mod limits;
pub mod plan;
pub mod rng;
pub mod scalar;
pub mod spec;
pub mod texture;
pub mod types;

pub use compare::{ElementDiff, MAX_REPORTED, Mismatch, Tolerance, compare, elements_match};
pub use error::{Problem, SpecError};
pub use init::{Init, edge_values};
pub use rng::SplitMix64;
pub use scalar::{
    ParamLayout, ParamMismatch, ParamSlot, Scalar, Value, encode_elem, param_block, param_block_in, param_layout,
    param_size,
};
pub use spec::{BufferSpec, LaunchSpec, MAX_BUFFER_BYTES, Param};
pub use types::{ElemType, ScalarType, TypeClass};
