//! `.nv.callgraph` (SHT 0x70000001, entsize 8): pairs `u32 caller, u32 callee`.
//!
//! In ET_EXEC a leaf kernel has `<0,-1> <0,-2> <0,-3> <0,-4>` (negative callees are markers);
//! in ET_REL real edges appear as symbol indices (`<17,19>`). Invariant: a section whose size
//! is not a multiple of 8 is an error.

use super::elf::Section;
use super::error::CubinError;
use std::fmt;

/// One callgraph entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallEdge {
    /// Caller symbol index (0 for the marker entries).
    pub caller: u32,
    /// Callee symbol index, or a marker (0xffffffff = -1 … 0xfffffffc = -4).
    pub callee: u32,
}

impl fmt::Display for CallEdge {
    /// cuobjdump's `<caller,callee>` with both as signed numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{},{}>", self.caller as i32, self.callee as i32)
    }
}

/// The entries of `.nv.callgraph` section `s`.
pub(crate) fn parse_callgraph(s: &Section) -> Result<Vec<CallEdge>, CubinError> {
    if !s.data.len().is_multiple_of(8) {
        return Err(CubinError::new(
            format!("section {}", s.name),
            format!("size {:#x} is not a multiple of the 8-byte entry size", s.size),
        ));
    }
    Ok(s.data
        .chunks_exact(8)
        .map(|c| CallEdge {
            caller: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
            callee: u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
        })
        .collect())
}
