//! Cubin (CUDA ELF) reading and writing; the writer ([`writer`], from an [`image::Image`]) is
//! checked against this reader and NVIDIA's own files ([`derive`]).
//!
//! [`Cubin::parse`] reads everything a cubin holds that the rest of ptxas-rs needs: the ELF
//! header facts ([`Header`]: class, OSABI 0x41, ABI version 8, ET_EXEC/ET_REL, e_flags and the
//! SM number in bits [15:8]), the section table ([`Section`], types named as cuobjdump names them
//! in [`names`]), `.symtab` ([`Symbol`], STO_CUDA_ENTRY), relocations ([`Relocation`], `R_CUDA_*`
//! names), program headers, notes ([`notes`]), the `.nv.callgraph` ([`callgraph`]), the EIATTR /
//! EICOMPAT records of `.nv.info*` and `.nv.compat` ([`eiattr`], printed exactly as
//! `cuobjdump -elf` prints them), per-function `.text` words and register counts ([`Function`]),
//! and the constant bank 0 layout ([`constbank`]).
//!
//! One concept per module:
//! - [`elf`]: the container and the function view;
//! - [`eiattr`]: `.nv.info*` / `.nv.compat` records;
//! - [`constbank`]: constant bank 0;
//! - [`notes`], [`callgraph`], [`names`], [`error`];
//! - [`image`]: what a module holds; [`writer`]: its sm_90 ET_EXEC bytes; [`derive`]: the image
//!   of a parsed cubin; [`verbose`]: the `ptxas -v` lines of an image.
//!
//! Invariants: parsing never panics on any input (a fuzz-style test mutates real cubins); every
//! failure is a [`CubinError`] naming the place; the corpus test compares the section table,
//! the symbol table, every EIATTR record and every relocation with `cuobjdump -elf` on every
//! corpus cubin. The writer never panics either, rejects a malformed [`image::Image`] with a
//! located error, and `tests/cubin_writer.rs` requires `write(derive(parse(c)))` to equal `c`
//! byte for byte for the corpus's sm_90 cubins.

mod bytes;
pub mod callgraph;
pub mod constbank;
pub mod derive;
pub mod eiattr;
pub mod elf;
pub mod error;
pub mod image;
pub mod names;
pub mod notes;
pub mod verbose;
pub mod writer;

pub use callgraph::CallEdge;
pub use constbank::{Constant0, Constant0Layout, DriverSlots};
pub use eiattr::{Format, InfoSection, KParamInfo, Record, Table, Value};
pub use elf::{Cubin, ElfType, Function, Header, ProgramHeader, Relocation, Section, Symbol};
pub use error::CubinError;
pub use notes::{CuInfo, Note, TkInfo};

#[cfg(test)]
mod tests;
