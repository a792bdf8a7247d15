//! ELF notes: `.note.nv.cuinfo` (type 1000) and `.note.nv.tkinfo` (type 2000), owner
//! `NVIDIA Corp`.
//!
//! Layouts (digest-backend §4.2, checked on real cubins):
//! - cuinfo desc, 8 bytes: `u16 version (2), u16 virtual SM (the PTX .target, e.g. 0x5a),
//!   u32 toolkit (0x82 = 130 = 13.0)`.
//! - tkinfo desc: `u32 version (2)`, five u32 offsets into the string blob that follows the six
//!   words (object name, tool name, tool version, branch, command-line arguments).
//!
//! Invariant: a note entry whose sizes run past its section is an error, never a panic.

use super::bytes::{cstr_at, slice, u16_at, u32_at};
use super::elf::Section;
use super::error::CubinError;

/// One note entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Index of the SHT_NOTE section holding it.
    pub section: u32,
    /// The owner name without its NUL (`NVIDIA Corp`).
    pub owner: String,
    /// n_type.
    pub kind: u32,
    /// The descriptor bytes.
    pub desc: Vec<u8>,
}

/// `.note.nv.cuinfo`'s descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CuInfo {
    /// Note version (2).
    pub version: u16,
    /// The virtual SM the PTX targeted (90 for `.target sm_90`).
    pub virtual_sm: u16,
    /// Toolkit version × 10 (130 = 13.0).
    pub toolkit: u32,
}

/// `.note.nv.tkinfo`'s descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TkInfo {
    /// Note version (2).
    pub version: u32,
    /// The object name (empty in ptxas output).
    pub object: String,
    /// `ptxas`.
    pub tool_name: String,
    /// `Cuda compilation tools, release 13.0, V13.0.88`.
    pub tool_version: String,
    /// `Build cuda_13.0.r13.0/compiler.36424714_0`.
    pub tool_branch: String,
    /// The command-line arguments (`-arch sm_90 `).
    pub arguments: String,
}

impl Note {
    /// The cuinfo descriptor, if this is a type-1000 note with 8 descriptor bytes or more.
    pub fn cuinfo(&self) -> Option<CuInfo> {
        if self.kind != 1000 {
            return None;
        }
        Some(CuInfo {
            version: u16_at(&self.desc, 0)?,
            virtual_sm: u16_at(&self.desc, 2)?,
            toolkit: u32_at(&self.desc, 4)?,
        })
    }

    /// The tkinfo descriptor, if this is a well-formed type-2000 note.
    pub fn tkinfo(&self) -> Option<TkInfo> {
        if self.kind != 2000 {
            return None;
        }
        let blob = self.desc.get(24..)?;
        let s = |i: u64| cstr_at(blob, u64::from(u32_at(&self.desc, 4 * i)?));
        Some(TkInfo {
            version: u32_at(&self.desc, 0)?,
            object: s(1)?,
            tool_name: s(2)?,
            tool_version: s(3)?,
            tool_branch: s(4)?,
            arguments: s(5)?,
        })
    }
}

fn align4(n: u64) -> u64 {
    n.div_ceil(4) * 4
}

/// The note entries of SHT_NOTE section `s`.
pub(crate) fn parse_notes(s: &Section) -> Result<Vec<Note>, CubinError> {
    let at = || format!("section {}", s.name);
    let d = &s.data;
    let mut out = Vec::new();
    let mut o = 0u64;
    while o < d.len() as u64 {
        let (Some(namesz), Some(descsz), Some(kind)) = (u32_at(d, o), u32_at(d, o + 4), u32_at(d, o + 8)) else {
            return Err(CubinError::new(
                at(),
                format!("note at {o:#x} is truncated: its 12-byte header runs past the end"),
            ));
        };
        let name_at = o + 12;
        let desc_at = name_at + align4(u64::from(namesz));
        let name = slice(d, name_at, u64::from(namesz));
        let desc = slice(d, desc_at, u64::from(descsz));
        let (Some(name), Some(desc)) = (name, desc) else {
            return Err(CubinError::new(
                at(),
                format!("note at {o:#x} runs past the end: name {namesz:#x} bytes, descriptor {descsz:#x} bytes"),
            ));
        };
        let owner = String::from_utf8_lossy(name.split(|&b| b == 0).next().unwrap_or_default()).into_owned();
        out.push(Note { section: s.index, owner, kind, desc: desc.to_vec() });
        o = desc_at + align4(u64::from(descsz));
    }
    Ok(out)
}
