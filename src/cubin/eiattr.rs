//! `.nv.info*` (EIATTR) and `.nv.compat` (EICOMPAT) records: the TLV encoding, the attribute
//! tables, typed payload decoding, and text exactly as `cuobjdump -elf` prints it.
//!
//! Encoding (digest-backend §0 C8/C12, §4.4; reference pages 59/71 get the formats wrong): a
//! record is `u8 format, u8 attribute, u16 x` and then, for SVAL only, `x` payload bytes.
//! - 1 `EIFMT_NVAL`: a flag, no value (x = 0);
//! - 2 `EIFMT_BVAL`: a byte value in x (cuobjdump prints `x & 0xff`);
//! - 3 `EIFMT_HVAL`: a 16-bit value in x;
//! - 4 `EIFMT_SVAL`: x = payload length; the payload follows (no padding is added).
//!
//! Invariants: parsing a section either yields records that tile it exactly, or a located
//! [`CubinError`] (`record at 0x24 runs past the end`); an unknown format byte is an error
//! because the record's length is then unknown (cuobjdump stops there too). Decoding a payload
//! never panics; a payload of the wrong length decodes to [`Value::Words`]/[`Value::Raw`].
//!
//! Attribute names are cuobjdump 13.2's, read by patching the attribute byte of a real record
//! through 0..=0xff. They agree with reference page 71 except: 0x3a is
//! `EIATTR_COROUTINE_RESUME_ID_OFFSETS`, 0x4f `EIATTR_AT_ENTRY_FRAGMENTS` (page 71 misspells
//! both), 0x56 (`EIATTR_UNKNOWN`) and 0x60 (`EIATTR_ERROR_LAST`) print as `unknown Attribute`,
//! and 0x61/0x62/0x64/0x65/0x66 are newer than page 71.

use super::bytes::words;
use super::elf::Symbol;
use super::error::CubinError;
use std::fmt::{self, Write};

/// Attribute codes used by name elsewhere in the crate.
pub mod code {
    /// `EIATTR_CTAIDZ_USED` (NVAL).
    pub const CTAIDZ_USED: u8 = 0x04;
    /// `EIATTR_MAX_THREADS` (SVAL `[x, y, z]`).
    pub const MAX_THREADS: u8 = 0x05;
    /// `EIATTR_PARAM_CBANK` (SVAL `[symbol of .nv.constant0.<fn>, size << 16 | base]`).
    pub const PARAM_CBANK: u8 = 0x0a;
    /// `EIATTR_EXTERNS` (SVAL symbol indices).
    pub const EXTERNS: u8 = 0x0f;
    /// `EIATTR_REQNTID` (SVAL `[x, y, z]`).
    pub const REQNTID: u8 = 0x10;
    /// `EIATTR_FRAME_SIZE` (SVAL `[symbol, bytes]`).
    pub const FRAME_SIZE: u8 = 0x11;
    /// `EIATTR_MIN_STACK_SIZE` (SVAL `[symbol, bytes]`).
    pub const MIN_STACK_SIZE: u8 = 0x12;
    /// `EIATTR_KPARAM_INFO` (SVAL, 12 bytes).
    pub const KPARAM_INFO: u8 = 0x17;
    /// `EIATTR_CBANK_PARAM_SIZE` (HVAL).
    pub const CBANK_PARAM_SIZE: u8 = 0x19;
    /// `EIATTR_QUERY_NUMATTRIB` (SVAL).
    pub const QUERY_NUMATTRIB: u8 = 0x1a;
    /// `EIATTR_MAXREG_COUNT` (HVAL).
    pub const MAXREG_COUNT: u8 = 0x1b;
    /// `EIATTR_EXIT_INSTR_OFFSETS` (SVAL byte offsets).
    pub const EXIT_INSTR_OFFSETS: u8 = 0x1c;
    /// `EIATTR_S2RCTAID_INSTR_OFFSETS` (SVAL byte offsets).
    pub const S2RCTAID_INSTR_OFFSETS: u8 = 0x1d;
    /// `EIATTR_CRS_STACK_SIZE` (SVAL `[bytes]`).
    pub const CRS_STACK_SIZE: u8 = 0x1e;
    /// `EIATTR_MAX_STACK_SIZE` (SVAL `[symbol, bytes]`).
    pub const MAX_STACK_SIZE: u8 = 0x23;
    /// `EIATTR_LD_CACHEMOD_INSTR_OFFSETS`.
    pub const LD_CACHEMOD_INSTR_OFFSETS: u8 = 0x25;
    /// `EIATTR_LOAD_CACHE_REQUEST` (SVAL `[symbol, on]`).
    pub const LOAD_CACHE_REQUEST: u8 = 0x26;
    /// `EIATTR_ATOM_SYS_INSTR_OFFSETS`.
    pub const ATOM_SYS_INSTR_OFFSETS: u8 = 0x27;
    /// `EIATTR_COOP_GROUP_INSTR_OFFSETS`.
    pub const COOP_GROUP_INSTR_OFFSETS: u8 = 0x28;
    /// `EIATTR_COOP_GROUP_MASK_REGIDS`.
    pub const COOP_GROUP_MASK_REGIDS: u8 = 0x29;
    /// `EIATTR_ATOMF16_EMUL_INSTR_OFFSETS`.
    pub const ATOMF16_EMUL_INSTR_OFFSETS: u8 = 0x2d;
    /// `EIATTR_REGCOUNT` (SVAL `[symbol, registers]`).
    pub const REGCOUNT: u8 = 0x2f;
    /// `EIATTR_INT_WARP_WIDE_INSTR_OFFSETS`.
    pub const INT_WARP_WIDE_INSTR_OFFSETS: u8 = 0x31;
    /// `EIATTR_SHARED_SCRATCH` (SVAL `[start, size]`).
    pub const SHARED_SCRATCH: u8 = 0x32;
    /// `EIATTR_INDIRECT_BRANCH_TARGETS`.
    pub const INDIRECT_BRANCH_TARGETS: u8 = 0x34;
    /// `EIATTR_SW2861232_WAR` (NVAL).
    pub const SW2861232_WAR: u8 = 0x35;
    /// `EIATTR_SW_WAR` (SVAL `[mask]`).
    pub const SW_WAR: u8 = 0x36;
    /// `EIATTR_CUDA_API_VERSION` (SVAL `[version]`, 0x82 = 13.0).
    pub const CUDA_API_VERSION: u8 = 0x37;
    /// `EIATTR_NUM_MBARRIERS` (HVAL).
    pub const NUM_MBARRIERS: u8 = 0x38;
    /// `EIATTR_MBARRIER_INSTR_OFFSETS` (SVAL, 16-byte entries).
    pub const MBARRIER_INSTR_OFFSETS: u8 = 0x39;
    /// `EIATTR_SAM_REGION_STACK_SIZE` (SVAL `[symbol, bytes]`).
    pub const SAM_REGION_STACK_SIZE: u8 = 0x3b;
    /// `EIATTR_SYSCALL_OFFSETS`.
    pub const SYSCALL_OFFSETS: u8 = 0x46;
    /// `EIATTR_VRC_CTA_INIT_COUNT` (BVAL).
    pub const VRC_CTA_INIT_COUNT: u8 = 0x4a;
    /// `EIATTR_NUM_BARRIERS` (BVAL).
    pub const NUM_BARRIERS: u8 = 0x4c;
    /// `EIATTR_SPARSE_MMA_MASK` (HVAL).
    pub const SPARSE_MMA_MASK: u8 = 0x50;
    /// `EIATTR_MERCURY_ISA_VERSION` (HVAL `major << 8 | minor`).
    pub const MERCURY_ISA_VERSION: u8 = 0x5f;
}

/// EICOMPAT codes of `.nv.compat`.
pub mod compat_code {
    /// `EICOMPAT_ATTR_ISA_CLASS` (BVAL).
    pub const ISA_CLASS: u8 = 2;
    /// `EICOMPAT_ATTR_INST_TENSORMAP_V1` (BVAL).
    pub const INST_TENSORMAP_V1: u8 = 3;
    /// `EICOMPAT_ATTR_INST_TCGEN05_MMA_DEPRECATED` (BVAL; cuobjdump prints `N/A`).
    pub const INST_TCGEN05_MMA_DEPRECATED: u8 = 4;
    /// `EICOMPAT_ATTR_INST_TCGEN05_MMA` (BVAL).
    pub const INST_TCGEN05_MMA: u8 = 5;
    /// `EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION` (BVAL).
    pub const ENABLE_OPPORTUNISTIC_FINALIZATION: u8 = 6;
    /// `EICOMPAT_ATTR_MERCURY_ISA_MAJOR_MINOR_VERSION` (HVAL `major << 8 | minor`).
    pub const MERCURY_ISA_MAJOR_MINOR_VERSION: u8 = 7;
    /// `EICOMPAT_ATTR_MERCURY_ISA_PATCH_VERSION` (HVAL, printed in decimal).
    pub const MERCURY_ISA_PATCH_VERSION: u8 = 8;
    /// `EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET` (BVAL, 1 for `sm_XXa`).
    pub const CUDA_ACCELERATOR_TARGET: u8 = 9;
    /// `EICOMPAT_ATTR_CUDA_DRIVER_VERSION` (HVAL `major << 8 | minor`).
    pub const CUDA_DRIVER_VERSION: u8 = 0xa;
    /// `EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE` (SVAL, 8 bytes).
    pub const CAN_FASTPATH_FINALIZE: u8 = 0xb;
}

const EIATTR_NAMES: [Option<&str>; 0x67] = {
    let mut t: [Option<&str>; 0x67] = [None; 0x67];
    let names: [(usize, &str); 100] = [
        (0x00, "ERROR"),
        (0x01, "PAD"),
        (0x02, "IMAGE_SLOT"),
        (0x03, "JUMPTABLE_RELOCS"),
        (0x04, "CTAIDZ_USED"),
        (0x05, "MAX_THREADS"),
        (0x06, "IMAGE_OFFSET"),
        (0x07, "IMAGE_SIZE"),
        (0x08, "TEXTURE_NORMALIZED"),
        (0x09, "SAMPLER_INIT"),
        (0x0a, "PARAM_CBANK"),
        (0x0b, "SMEM_PARAM_OFFSETS"),
        (0x0c, "CBANK_PARAM_OFFSETS"),
        (0x0d, "SYNC_STACK"),
        (0x0e, "TEXID_SAMPID_MAP"),
        (0x0f, "EXTERNS"),
        (0x10, "REQNTID"),
        (0x11, "FRAME_SIZE"),
        (0x12, "MIN_STACK_SIZE"),
        (0x13, "SAMPLER_FORCE_UNNORMALIZED"),
        (0x14, "BINDLESS_IMAGE_OFFSETS"),
        (0x15, "BINDLESS_TEXTURE_BANK"),
        (0x16, "BINDLESS_SURFACE_BANK"),
        (0x17, "KPARAM_INFO"),
        (0x18, "SMEM_PARAM_SIZE"),
        (0x19, "CBANK_PARAM_SIZE"),
        (0x1a, "QUERY_NUMATTRIB"),
        (0x1b, "MAXREG_COUNT"),
        (0x1c, "EXIT_INSTR_OFFSETS"),
        (0x1d, "S2RCTAID_INSTR_OFFSETS"),
        (0x1e, "CRS_STACK_SIZE"),
        (0x1f, "NEED_CNP_WRAPPER"),
        (0x20, "NEED_CNP_PATCH"),
        (0x21, "EXPLICIT_CACHING"),
        (0x22, "ISTYPEP_USED"),
        (0x23, "MAX_STACK_SIZE"),
        (0x24, "SUQ_USED"),
        (0x25, "LD_CACHEMOD_INSTR_OFFSETS"),
        (0x26, "LOAD_CACHE_REQUEST"),
        (0x27, "ATOM_SYS_INSTR_OFFSETS"),
        (0x28, "COOP_GROUP_INSTR_OFFSETS"),
        (0x29, "COOP_GROUP_MASK_REGIDS"),
        (0x2a, "SW1850030_WAR"),
        (0x2b, "WMMA_USED"),
        (0x2c, "HAS_PRE_V10_OBJECT"),
        (0x2d, "ATOMF16_EMUL_INSTR_OFFSETS"),
        (0x2e, "ATOM16_EMUL_INSTR_REG_MAP"),
        (0x2f, "REGCOUNT"),
        (0x30, "SW2393858_WAR"),
        (0x31, "INT_WARP_WIDE_INSTR_OFFSETS"),
        (0x32, "SHARED_SCRATCH"),
        (0x33, "STATISTICS"),
        (0x34, "INDIRECT_BRANCH_TARGETS"),
        (0x35, "SW2861232_WAR"),
        (0x36, "SW_WAR"),
        (0x37, "CUDA_API_VERSION"),
        (0x38, "NUM_MBARRIERS"),
        (0x39, "MBARRIER_INSTR_OFFSETS"),
        (0x3a, "COROUTINE_RESUME_ID_OFFSETS"),
        (0x3b, "SAM_REGION_STACK_SIZE"),
        (0x3c, "PER_REG_TARGET_PERF_STATS"),
        (0x3d, "CTA_PER_CLUSTER"),
        (0x3e, "EXPLICIT_CLUSTER"),
        (0x3f, "MAX_CLUSTER_RANK"),
        (0x40, "INSTR_REG_MAP"),
        (0x41, "RESERVED_SMEM_USED"),
        (0x42, "RESERVED_SMEM_0_SIZE"),
        (0x43, "UCODE_SECTION_DATA"),
        (0x44, "UNUSED_LOAD_BYTE_OFFSET"),
        (0x45, "KPARAM_INFO_V2"),
        (0x46, "SYSCALL_OFFSETS"),
        (0x47, "SW_WAR_MEMBAR_SYS_INSTR_OFFSETS"),
        (0x48, "GRAPHICS_GLOBAL_CBANK"),
        (0x49, "SHADER_TYPE"),
        (0x4a, "VRC_CTA_INIT_COUNT"),
        (0x4b, "TOOLS_PATCH_FUNC"),
        (0x4c, "NUM_BARRIERS"),
        (0x4d, "TEXMODE_INDEPENDENT"),
        (0x4e, "PERF_STATISTICS"),
        (0x4f, "AT_ENTRY_FRAGMENTS"),
        (0x50, "SPARSE_MMA_MASK"),
        (0x51, "TCGEN05_1CTA_USED"),
        (0x52, "TCGEN05_2CTA_USED"),
        (0x53, "GEN_ERRBAR_AT_EXIT"),
        (0x54, "REG_RECONFIG"),
        (0x55, "ANNOTATIONS"),
        (0x57, "STACK_CANARY_TRAP_OFFSETS"),
        (0x58, "STUB_FUNCTION_KIND"),
        (0x59, "LOCAL_CTA_ASYNC_STORE_OFFSETS"),
        (0x5a, "MERCURY_FINALIZER_OPTIONS"),
        (0x5b, "BLOCKS_ARE_CLUSTERS"),
        (0x5c, "SANITIZE"),
        (0x5d, "SYSCALLS_FALLBACK"),
        (0x5e, "CUDA_REQ"),
        (0x5f, "MERCURY_ISA_VERSION"),
        (0x61, "RTCORE_ENTRY"),
        (0x62, "CLUSTER_LAUNCH_CONTROL_USED"),
        (0x64, "MIN_PER_CTA_MEMORY_SIZE"),
        (0x65, "IGNOREOOB_CP_ASYNC_BULK_INSTR_OFFSETS"),
        (0x66, "LANGUAGE"),
    ];
    let mut i = 0;
    while i < names.len() {
        t[names[i].0] = Some(names[i].1);
        i += 1;
    }
    t
};

const EICOMPAT_NAMES: [&str; 13] = [
    "ERROR",
    "PAD",
    "ISA_CLASS",
    "INST_TENSORMAP_V1",
    "INST_TCGEN05_MMA_DEPRECATED",
    "INST_TCGEN05_MMA",
    "ENABLE_OPPORTUNISTIC_FINALIZATION",
    "MERCURY_ISA_MAJOR_MINOR_VERSION",
    "MERCURY_ISA_PATCH_VERSION",
    "CUDA_ACCELERATOR_TARGET",
    "CUDA_DRIVER_VERSION",
    "CAN_FASTPATH_FINALIZE",
    "ERROR_LAST",
];

/// Which attribute table a record's code belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// `EIATTR_*`, in `.nv.info` and `.nv.info.<fn>`.
    Info,
    /// `EICOMPAT_ATTR_*`, in `.nv.compat`.
    Compat,
}

/// `EIATTR_<name>` of `code` as cuobjdump prints it, or `None` (cuobjdump: `unknown Attribute`).
pub fn eiattr_name(code: u8) -> Option<String> {
    EIATTR_NAMES.get(code as usize).copied().flatten().map(|n| format!("EIATTR_{n}"))
}

/// `EICOMPAT_ATTR_<name>` of `code`, or `None` (cuobjdump: `unknown Attribute`).
pub fn eicompat_name(code: u8) -> Option<String> {
    EICOMPAT_NAMES.get(code as usize).map(|n| format!("EICOMPAT_ATTR_{n}"))
}

/// The record format byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// 1: no value.
    Nval,
    /// 2: a byte in the header's x field.
    Bval,
    /// 3: a 16-bit value in the header's x field.
    Hval,
    /// 4: x payload bytes follow the header.
    Sval,
}

impl Format {
    /// The format of byte `b`, if known.
    pub fn from_byte(b: u8) -> Option<Format> {
        Some(match b {
            1 => Format::Nval,
            2 => Format::Bval,
            3 => Format::Hval,
            4 => Format::Sval,
            _ => return None,
        })
    }
    /// The format byte.
    pub fn byte(self) -> u8 {
        match self {
            Format::Nval => 1,
            Format::Bval => 2,
            Format::Hval => 3,
            Format::Sval => 4,
        }
    }
    /// `EIFMT_NVAL` ... `EIFMT_SVAL`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Nval => "EIFMT_NVAL",
            Format::Bval => "EIFMT_BVAL",
            Format::Hval => "EIFMT_HVAL",
            Format::Sval => "EIFMT_SVAL",
        }
    }
}

/// One record, undecoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Byte offset of the record header within its section.
    pub offset: u32,
    /// The format.
    pub format: Format,
    /// The attribute code.
    pub code: u8,
    /// The header's 16-bit field: the value (BVAL/HVAL), the payload length (SVAL), 0 (NVAL).
    pub x: u16,
    /// The payload (SVAL only; empty otherwise).
    pub payload: Vec<u8>,
}

/// Parses the records of a `.nv.info*` or `.nv.compat` section named `section`.
pub fn parse_records(section: &str, data: &[u8]) -> Result<Vec<Record>, CubinError> {
    let at = || format!("section {section}");
    let mut out = Vec::new();
    let mut i = 0usize;
    while i < data.len() {
        let left = data.len() - i;
        if left < 4 {
            return Err(CubinError::new(
                at(),
                format!("record at {i:#x} is truncated: {left} bytes left, a header needs 4"),
            ));
        }
        let (fb, code, x) = (data[i], data[i + 1], u16::from_le_bytes([data[i + 2], data[i + 3]]));
        let format = Format::from_byte(fb)
            .ok_or_else(|| CubinError::new(at(), format!("record at {i:#x} has unknown format {fb}")))?;
        let mut payload = Vec::new();
        let mut len = 4;
        if format == Format::Sval {
            let end = i + 4 + x as usize;
            if end > data.len() {
                return Err(CubinError::new(
                    at(),
                    format!("record at {i:#x} runs past the end: payload of {x:#x} bytes, {:#x} left", left - 4),
                ));
            }
            payload = data[i + 4..end].to_vec();
            len += x as usize;
        }
        out.push(Record { offset: i as u32, format, code, x, payload });
        i += len;
    }
    Ok(out)
}

/// One `EIATTR_KPARAM_INFO`: a kernel parameter's place in the constant bank.
///
/// Payload `[index, ordinal | offset << 16, log_align | space << 8 | cbank << 12 | smem << 17 |
/// size << 18]` (bit layout read by flipping each bit of a real record under cuobjdump).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KParamInfo {
    /// Word 0 (`Index`, 0 in everything ptxas emits).
    pub index: u32,
    /// The parameter's position in the PTX parameter list.
    pub ordinal: u16,
    /// Byte offset from the parameter base.
    pub offset: u16,
    /// Size in bytes (14 bits).
    pub size: u16,
    /// `Pointee's logAlignment` (8 bits).
    pub log_align: u8,
    /// `Space` (4 bits; 5 for some pointer parameters).
    pub space: u8,
    /// `cbank` (5 bits; 0x1f in everything ptxas emits).
    pub cbank: u8,
    /// Bit 17: `Parameter Space : SMEM` instead of `CBANK`.
    pub smem: bool,
}

impl KParamInfo {
    fn from_words(w: &[u32]) -> KParamInfo {
        KParamInfo {
            index: w[0],
            ordinal: w[1] as u16,
            offset: (w[1] >> 16) as u16,
            size: (w[2] >> 18) as u16,
            log_align: w[2] as u8,
            space: ((w[2] >> 8) & 0xf) as u8,
            cbank: ((w[2] >> 12) & 0x1f) as u8,
            smem: w[2] >> 17 & 1 == 1,
        }
    }
}

/// One `EIATTR_MBARRIER_INSTR_OFFSETS` entry (16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MbarrierInstr {
    /// Byte offset of the instruction in `.text`.
    pub offset: u32,
    /// The address register `R<n>` (255 = RZ).
    pub reg: u32,
    /// The immediate added to the address.
    pub imm: i32,
    /// Byte 12 bits [3:0]: 0 INIT … 10 TRY_WAIT_PARITY.
    pub kind: u8,
    /// Byte 12 bits [5:4]: 0 X4, 1 X8, 2 X16, 3 X1.
    pub stride: u8,
    /// Byte 13 (1 in everything observed; cuobjdump does not print it).
    pub flags: u8,
    /// Byte 14: the uniform register `UR<n>` (255 = URZ).
    pub ureg: u8,
    /// Byte 15.
    pub pad: u8,
}

impl MbarrierInstr {
    /// cuobjdump's name for the instruction kind.
    pub fn kind_name(&self) -> &'static str {
        const K: [&str; 11] = [
            "MBARRIER_INIT",
            "MBARRIER_ARRIVE",
            "MBARRIER_ARRIVE_NOCOMPLETE",
            "MBARRIER_ARRIVE_DROP",
            "MBARRIER_ARRIVE_DROP_NOCOMPLETE",
            "MBARRIER_TEST_WAIT",
            "MBARRIER_TEST_WAIT_PARITY",
            "MBARRIER_CP_ASYNC_ARRIVE",
            "MBARRIER_INVAL",
            "MBARRIER_TRY_WAIT",
            "MBARRIER_TRY_WAIT_PARITY",
        ];
        K.get(self.kind as usize).copied().unwrap_or("Unknown Instruction")
    }
    /// `MBARRIER_STRIDE_X4` etc.
    pub fn stride_name(&self) -> &'static str {
        ["MBARRIER_STRIDE_X4", "MBARRIER_STRIDE_X8", "MBARRIER_STRIDE_X16", "MBARRIER_STRIDE_X1"]
            [(self.stride & 3) as usize]
    }
}

/// One `EIATTR_INDIRECT_BRANCH_TARGETS` entry: `[branch, reserved, n, target × n]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndirectBranch {
    /// Byte offset of the `BRX`.
    pub offset: u32,
    /// Word 1 (0 in everything observed; cuobjdump ignores it).
    pub reserved: u32,
    /// The possible targets' byte offsets.
    pub targets: Vec<u32>,
}

/// A record's payload, decoded where the format is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// NVAL: a flag.
    Flag,
    /// BVAL: the low byte of x.
    Byte(u8),
    /// HVAL.
    Half(u16),
    /// `[symbol, value]`: REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE, MAX_STACK_SIZE,
    /// SAM_REGION_STACK_SIZE, LOAD_CACHE_REQUEST.
    SymbolValue {
        /// Symbol index of the function.
        symbol: u32,
        /// The value.
        value: u32,
    },
    /// KPARAM_INFO.
    KParam(KParamInfo),
    /// PARAM_CBANK: `[symbol of .nv.constant0.<fn>, size << 16 | base]`.
    ParamCbank {
        /// Section symbol of the constant-bank section.
        symbol: u32,
        /// Byte offset of the first parameter in the bank.
        base: u16,
        /// Total parameter bytes.
        size: u16,
    },
    /// A single-word SVAL: CUDA_API_VERSION, SW_WAR, CRS_STACK_SIZE.
    Word(u32),
    /// An SVAL list of instruction byte offsets (`*_OFFSETS`).
    Offsets(Vec<u32>),
    /// `[x, y, z]`: MAX_THREADS, REQNTID.
    Dim3([u32; 3]),
    /// EXTERNS: symbol indices.
    Externs(Vec<u32>),
    /// MBARRIER_INSTR_OFFSETS.
    Mbarriers(Vec<MbarrierInstr>),
    /// INDIRECT_BRANCH_TARGETS.
    IndirectBranches(Vec<IndirectBranch>),
    /// Any other SVAL, as little-endian words (a trailing partial word is dropped).
    Words(Vec<u32>),
}

fn is_offsets(code: u8) -> bool {
    use code::*;
    matches!(
        code,
        EXIT_INSTR_OFFSETS
            | S2RCTAID_INSTR_OFFSETS
            | LD_CACHEMOD_INSTR_OFFSETS
            | ATOM_SYS_INSTR_OFFSETS
            | COOP_GROUP_INSTR_OFFSETS
            | ATOMF16_EMUL_INSTR_OFFSETS
            | INT_WARP_WIDE_INSTR_OFFSETS
            | SYSCALL_OFFSETS
            | 0x47
            | 0x57
            | 0x59
            | 0x65
    )
}

fn decode_branches(w: &[u32]) -> Option<Vec<IndirectBranch>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < w.len() {
        let n = *w.get(i + 2)? as usize;
        let targets = w.get(i + 3..(i + 3).checked_add(n)?)?.to_vec();
        out.push(IndirectBranch { offset: w[i], reserved: w[i + 1], targets });
        i += 3 + n;
    }
    Some(out)
}

impl Record {
    /// The payload decoded as [`Value`], for a record of table `table`.
    pub fn value(&self, table: Table) -> Value {
        match self.format {
            Format::Nval => return Value::Flag,
            Format::Bval => return Value::Byte(self.x as u8),
            Format::Hval => return Value::Half(self.x),
            Format::Sval => {}
        }
        let w = words(&self.payload);
        let whole = self.payload.len().is_multiple_of(4);
        if table == Table::Compat || !whole {
            return Value::Words(w);
        }
        use code::*;
        match (self.code, w.len()) {
            (
                REGCOUNT | FRAME_SIZE | MIN_STACK_SIZE | MAX_STACK_SIZE | SAM_REGION_STACK_SIZE | LOAD_CACHE_REQUEST,
                2,
            ) => Value::SymbolValue { symbol: w[0], value: w[1] },
            (KPARAM_INFO, 3) => Value::KParam(KParamInfo::from_words(&w)),
            (PARAM_CBANK, 2) => Value::ParamCbank { symbol: w[0], base: w[1] as u16, size: (w[1] >> 16) as u16 },
            (CUDA_API_VERSION | SW_WAR | CRS_STACK_SIZE, 1) => Value::Word(w[0]),
            (MAX_THREADS | REQNTID, 3) => Value::Dim3([w[0], w[1], w[2]]),
            (EXTERNS, _) => Value::Externs(w),
            (MBARRIER_INSTR_OFFSETS, _) => Value::Mbarriers(
                self.payload
                    .chunks_exact(16)
                    .map(|c| MbarrierInstr {
                        offset: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                        reg: u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
                        imm: i32::from_le_bytes([c[8], c[9], c[10], c[11]]),
                        kind: c[12] & 0xf,
                        stride: (c[12] >> 4) & 3,
                        flags: c[13],
                        ureg: c[14],
                        pad: c[15],
                    })
                    .collect(),
            ),
            (INDIRECT_BRANCH_TARGETS, _) => decode_branches(&w).map_or(Value::Words(w), Value::IndirectBranches),
            (c, _) if is_offsets(c) => Value::Offsets(w),
            _ => Value::Words(w),
        }
    }

    /// The attribute name as cuobjdump prints it (`unknown Attribute` for codes it lacks).
    pub fn name(&self, table: Table) -> String {
        let n = match table {
            Table::Info => eiattr_name(self.code),
            Table::Compat => eicompat_name(self.code),
        };
        n.unwrap_or_else(|| "unknown Attribute".to_string())
    }

    /// The text cuobjdump prints after `Value:\t` (`None` for NVAL, which has no Value line).
    /// `symbols` resolves the function names some attributes print.
    pub fn value_text(&self, table: Table, symbols: &[Symbol]) -> Option<String> {
        let sym = |i: u32| symbols.get(i as usize).map_or("<bad symbol>", |s| s.name.as_str()).to_string();
        let version = |x: u16| format!("{}.{}", x >> 8, x & 0xff);
        let mut s = String::new();
        match (table, self.format) {
            (_, Format::Nval) => return None,
            (Table::Compat, Format::Bval) if self.code == compat_code::INST_TCGEN05_MMA_DEPRECATED => s.push_str("N/A"),
            (_, Format::Bval) => s = format!("{:#x}", self.x & 0xff),
            (Table::Info, Format::Hval) if self.code == code::MERCURY_ISA_VERSION => s = version(self.x),
            (Table::Compat, Format::Hval)
                if matches!(
                    self.code,
                    compat_code::MERCURY_ISA_MAJOR_MINOR_VERSION | compat_code::CUDA_DRIVER_VERSION
                ) =>
            {
                s = version(self.x)
            }
            (Table::Compat, Format::Hval) if self.code == compat_code::MERCURY_ISA_PATCH_VERSION => {
                s = self.x.to_string()
            }
            (_, Format::Hval) => s = format!("{:#x}", self.x),
            (Table::Compat, Format::Sval) => hex_words(&mut s, &words(&self.payload)),
            (Table::Info, Format::Sval) => self.info_sval_text(&mut s, &sym),
        }
        Some(s)
    }

    fn info_sval_text(&self, s: &mut String, sym: &dyn Fn(u32) -> String) {
        let w = words(&self.payload);
        let n = w.len();
        match (self.code, self.value(Table::Info)) {
            (code::REGCOUNT, Value::SymbolValue { symbol, value }) => {
                let _ = write!(s, "function: {}({symbol:#x})\tregister count: {value}", sym(symbol));
            }
            (code::FRAME_SIZE, Value::SymbolValue { symbol, value }) => {
                let _ = write!(s, "function: {}({symbol:#x})\tframe size: {value:#x}", sym(symbol));
            }
            (code::MIN_STACK_SIZE, Value::SymbolValue { symbol, value }) => {
                let _ = write!(s, "function: {}({symbol:#x})\tmin stack size: {value:#x}", sym(symbol));
            }
            (code::SAM_REGION_STACK_SIZE, Value::SymbolValue { symbol, value }) => {
                let _ = write!(s, "function: {}({symbol:#x})\tSam region stack size: {value:#x}", sym(symbol));
            }
            (code::LOAD_CACHE_REQUEST, Value::SymbolValue { symbol, value }) => {
                let on = if value != 0 { "ON" } else { "OFF" };
                let _ = write!(s, "function: {}({symbol:#x})\tcache request : {on}", sym(symbol));
            }
            (code::KPARAM_INFO, Value::KParam(k)) => {
                let _ = write!(
                    s,
                    "Index : {:#x}\tOrdinal : {:#x}\tOffset  : {:#x}\tSize    : {:#x}\n\t\tPointee's logAlignment : {:#x}\tSpace : {:#x}\tcbank : {:#x}\tParameter Space : {}\t",
                    k.index,
                    k.ordinal,
                    k.offset,
                    k.size,
                    k.log_align,
                    k.space,
                    k.cbank,
                    if k.smem { "SMEM" } else { "CBANK" }
                );
            }
            (code::SHARED_SCRATCH, _) if n == 2 && self.payload.len() == 8 => {
                let _ = write!(s, "start offset: {:#x}\tsize: {}", w[0], w[1]);
            }
            (code::QUERY_NUMATTRIB, _) if n == 4 && self.payload.len() == 16 => {
                let _ = write!(
                    s,
                    "NumAttrib for Texture query descriptor in Unified Mode: {:#x}\n\t\tNumAttrib for Texture query descriptor in Independent Mode: {:#x}\n\t\tNumAttrib for Sampler query descriptor in Independent Mode: {:#x}\n\t\tNumAttrib for Surface query descriptor : {:#x}",
                    w[0], w[1], w[2], w[3]
                );
            }
            (_, Value::Externs(list)) => {
                s.push_str("externs:\t");
                for i in list {
                    let _ = write!(s, "{}({i:#x})\t", sym(i));
                }
            }
            (_, Value::Mbarriers(list)) => {
                for m in list {
                    let imm = if m.imm != 0 { format!(" + {}", m.imm) } else { String::new() };
                    let _ = write!(
                        s,
                        "\n\t{:#x}\t:\tInstruction Kind : {}\t(R{} + UR{}{imm})\tStride : {}",
                        m.offset,
                        m.kind_name(),
                        m.reg,
                        m.ureg,
                        m.stride_name()
                    );
                }
            }
            (_, Value::IndirectBranches(list)) => {
                for b in list {
                    let _ = write!(
                        s,
                        "\n\t\tOffset of Indirect Branch: {:#x}\t Number of targets: {}\n\t\tTargets: ",
                        b.offset,
                        b.targets.len()
                    );
                    for t in &b.targets {
                        let _ = write!(s, "{t:#x} ");
                    }
                    s.push('\n');
                }
            }
            _ => hex_words(s, &w),
        }
    }

    /// This record as cuobjdump prints it, without the `<0xN>` index line:
    /// `\tAttribute:\t<name>\n\tFormat:\t<format>[\n\tValue:\t<value>]`.
    pub fn display<'a>(&'a self, table: Table, symbols: &'a [Symbol]) -> RecordDisplay<'a> {
        RecordDisplay { record: self, table, symbols }
    }
}

fn hex_words(s: &mut String, w: &[u32]) {
    for x in w {
        let _ = write!(s, "{x:#x} ");
    }
}

/// A [`Record`] printed the way `cuobjdump -elf` prints it; see [`Record::display`].
pub struct RecordDisplay<'a> {
    record: &'a Record,
    table: Table,
    symbols: &'a [Symbol],
}

impl fmt::Display for RecordDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.record;
        write!(f, "\tAttribute:\t{}\n\tFormat:\t{}", r.name(self.table), r.format.name())?;
        if let Some(v) = r.value_text(self.table, self.symbols) {
            write!(f, "\n\tValue:\t{v}")?;
        }
        Ok(())
    }
}

/// A parsed `.nv.info`, `.nv.info.<fn>` or `.nv.compat` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfoSection {
    /// Section index.
    pub section: u32,
    /// Section name.
    pub name: String,
    /// Which attribute table the codes are from.
    pub table: Table,
    /// For `.nv.info.<fn>`: the section index of the function's `.text` (sh_info).
    pub text_section: Option<u32>,
    /// The records in file order.
    pub records: Vec<Record>,
}

impl InfoSection {
    /// The whole block as cuobjdump prints it: the section name, then per record `\t<0xN>` (N is
    /// the 1-based index printed in decimal after `0x`, cuobjdump's quirk) and the record lines.
    pub fn dump(&self, symbols: &[Symbol]) -> String {
        let mut s = format!("{}\n", self.name);
        for (i, r) in self.records.iter().enumerate() {
            let _ = writeln!(s, "\t<0x{}>\n{}", i + 1, r.display(self.table, symbols));
        }
        s
    }

    /// The records with attribute `code`.
    pub fn find(&self, code: u8) -> impl Iterator<Item = &Record> + '_ {
        self.records.iter().filter(move |r| r.code == code)
    }
}
