//! Names of section types and relocation types, spelled the way `cuobjdump -elf` spells them.
//!
//! Section types: the standard ELF ones plus the CUDA processor-specific range. The CUDA names
//! were read from cuobjdump 13.2 by patching the sh_type of a real cubin's section through every
//! value of 0x70000000..=0x700000ff; values it does not name print as `UNKNOWN: <d>` where `d`
//! is `sh_type - 0x70000000` as a signed 32-bit number (cuobjdump's own quirk, reproduced).
//!
//! Relocation types: `R_CUDA_*`, ordinals 0..=116, from reference page 61 (whose ordinals agree
//! with every type observed: 2, 0x38, 0x39, 0x3a, 0x49, 0x4b).

/// `SHT_CUDA_INFO`: `.nv.info` and `.nv.info.<fn>`.
pub const SHT_CUDA_INFO: u32 = 0x7000_0000;
/// `SHT_CUDA_CALLGRAPH`: `.nv.callgraph`.
pub const SHT_CUDA_CALLGRAPH: u32 = 0x7000_0001;
/// `SHT_CUDA_PROTOTYPE`: `.nv.prototype` (ET_REL).
pub const SHT_CUDA_PROTOTYPE: u32 = 0x7000_0002;
/// `SHT_CUDA_GLOBAL`: `.nv.global` in ET_REL.
pub const SHT_CUDA_GLOBAL: u32 = 0x7000_0007;
/// `SHT_CUDA_GLOBAL_INIT`: `.nv.global.init` in ET_REL.
pub const SHT_CUDA_GLOBAL_INIT: u32 = 0x7000_0008;
/// `SHT_CUDA_SHARED`: `.nv.shared.<fn>` in ET_REL.
pub const SHT_CUDA_SHARED: u32 = 0x7000_000a;
/// `SHT_CUDA_RELOCINFO`: `.nv.rel.action`.
pub const SHT_CUDA_RELOCINFO: u32 = 0x7000_000b;
/// `SHT_CUDA_CAPMERC`: `.nv.capmerc.text.<fn>` (sm_100+).
pub const SHT_CUDA_CAPMERC: u32 = 0x7000_0016;
/// `SHT_CUDA_CONSTANT_B0`: `.nv.constant0.<fn>` in ET_REL; bank N is this + N (N ≤ 7 named).
pub const SHT_CUDA_CONSTANT_B0: u32 = 0x7000_0064;
/// `SHT_CUDA_COMPAT_INFO`: `.nv.compat` (sm_90+).
pub const SHT_CUDA_COMPAT_INFO: u32 = 0x7000_0086;
/// `STO_CUDA_ENTRY`: st_other bit of a kernel (`.entry`) symbol.
pub const STO_CUDA_ENTRY: u8 = 0x10;

/// cuobjdump's name of section type `t` (`PROGBITS`, `CUDA_INFO`, `UNKNOWN: 15`, ...).
pub fn section_type_name(t: u32) -> String {
    let known = match t {
        0 => "NULL",
        1 => "PROGBITS",
        2 => "SYMTAB",
        3 => "STRTAB",
        4 => "RELA",
        5 => "HASH",
        6 => "DYNAMIC",
        7 => "NOTE",
        8 => "NOBITS",
        9 => "REL",
        0xa => "SHLIB",
        0xe => "INIT_ARRAY",
        0xf => "FINI_ARRAY",
        0x10 => "PREINIT_ARRAY",
        0x12 => "SYMTAB_SHNDX",
        0x7000_0000 => "CUDA_INFO",
        0x7000_0001 => "CUDA_CALLGRAPH",
        0x7000_0002 => "CUDA_PROTOTYPE",
        0x7000_0003 => "CUDA_RESOLVED_RELA",
        0x7000_0004 => "CUDA_METADATA",
        0x7000_0006 => "CUDA_CONSTANT",
        0x7000_0007 => "CUDA_GLOBAL",
        0x7000_0008 => "CUDA_GLOBAL_INIT",
        0x7000_0009 => "CUDA_LOCAL",
        0x7000_000a => "CUDA_SHARED",
        0x7000_000b => "CUDA_RELOCINFO",
        0x7000_000c => "CUDA_MERCURY",
        0x7000_000d => "CUDA_MERCURY_SASS_MAP",
        0x7000_000e => "CUDA_UFT",
        0x7000_0010 => "CUDA_UIDX",
        0x7000_0011 => "CUDA_UFT_ENTRY",
        0x7000_0012 => "CUDA_UDT",
        0x7000_0014 => "CUDA_UDT_ENTRY",
        0x7000_0015 => "CUDA_RESERVED_SHARED",
        0x7000_0016 => "CUDA_CAPMERC",
        0x7000_0064 => "CUDA_CONSTANT_B0",
        0x7000_0065 => "CUDA_CONSTANT_B1",
        0x7000_0066 => "CUDA_CONSTANT_B2",
        0x7000_0067 => "CUDA_CONSTANT_B3",
        0x7000_0068 => "CUDA_CONSTANT_B4",
        0x7000_0069 => "CUDA_CONSTANT_B5",
        0x7000_006a => "CUDA_CONSTANT_B6",
        0x7000_006b => "CUDA_CONSTANT_B7",
        0x7000_0078 => "CUDA_MERCURY_CONSTANT_PARAMS",
        0x7000_0079 => "CUDA_MERCURY_CONSTANT_IMGHDR",
        0x7000_007a => "CUDA_MERCURY_CONSTANT_DRIVER",
        0x7000_007b => "CUDA_MERCURY_CONSTANT_OPT",
        0x7000_007c => "CUDA_MERCURY_CONSTANT_USER",
        0x7000_007d => "CUDA_MERCURY_CONSTANT_PIC",
        0x7000_007e => "CUDA_MERCURY_CONSTANT_TOOLS",
        // The `.nv.merc.*` shadow sections: same names as their plain counterparts.
        0x7000_0082 => "RELA",
        0x7000_0083 => "CUDA_INFO",
        0x7000_0084 => "CUDA_MERCURY_CONSTANT_OPT",
        0x7000_0085 => "SYMTAB",
        0x7000_0086 => "CUDA_COMPAT_INFO",
        0x7000_0087 => "CUDA_EMBEDDED_HOST",
        0x7000_0088 => "CUDA_MERCURY_RESOLVED_RELA",
        _ => return format!("UNKNOWN: {}", t.wrapping_sub(0x7000_0000) as i32),
    };
    known.to_string()
}

/// The `R_CUDA_*` name of relocation type `t`, if it has one (0..=116).
pub fn reloc_name(t: u32) -> Option<String> {
    const BYTE: [&str; 8] = ["0", "8", "16", "24", "32", "40", "48", "56"];
    let fixed = match t {
        0 => "R_CUDA_NONE",
        1 => "R_CUDA_32",
        2 => "R_CUDA_64",
        3 => "R_CUDA_G32",
        4 => "R_CUDA_G64",
        5 => "R_CUDA_ABS32_26",
        6 => "R_CUDA_TEX_HEADER_INDEX",
        7 => "R_CUDA_SAMP_HEADER_INDEX",
        8 => "R_CUDA_SURF_HW_DESC",
        9 => "R_CUDA_SURF_HW_SW_DESC",
        10 => "R_CUDA_ABS32_LO_26",
        11 => "R_CUDA_ABS32_HI_26",
        12 => "R_CUDA_ABS32_23",
        13 => "R_CUDA_ABS32_LO_23",
        14 => "R_CUDA_ABS32_HI_23",
        15 => "R_CUDA_ABS24_26",
        16 => "R_CUDA_ABS24_23",
        17 => "R_CUDA_ABS16_26",
        18 => "R_CUDA_ABS16_23",
        19 => "R_CUDA_TEX_SLOT",
        20 => "R_CUDA_SAMP_SLOT",
        21 => "R_CUDA_SURF_SLOT",
        22 => "R_CUDA_TEX_BINDLESSOFF13_32",
        23 => "R_CUDA_TEX_BINDLESSOFF13_47",
        24 => "R_CUDA_CONST_FIELD19_28",
        25 => "R_CUDA_CONST_FIELD19_23",
        26 => "R_CUDA_TEX_SLOT9_49",
        27 => "R_CUDA_6_31",
        28 => "R_CUDA_2_47",
        29 => "R_CUDA_TEX_BINDLESSOFF13_41",
        30 => "R_CUDA_TEX_BINDLESSOFF13_45",
        31 => "R_CUDA_FUNC_DESC32_23",
        32 => "R_CUDA_FUNC_DESC32_LO_23",
        33 => "R_CUDA_FUNC_DESC32_HI_23",
        34 => "R_CUDA_FUNC_DESC_32",
        35 => "R_CUDA_FUNC_DESC_64",
        36 => "R_CUDA_CONST_FIELD21_26",
        37 => "R_CUDA_QUERY_DESC21_37",
        38 => "R_CUDA_CONST_FIELD19_26",
        39 => "R_CUDA_CONST_FIELD21_23",
        40 => "R_CUDA_PCREL_IMM24_26",
        41 => "R_CUDA_PCREL_IMM24_23",
        42 => "R_CUDA_ABS32_20",
        43 => "R_CUDA_ABS32_LO_20",
        44 => "R_CUDA_ABS32_HI_20",
        45 => "R_CUDA_ABS24_20",
        46 => "R_CUDA_ABS16_20",
        47 => "R_CUDA_FUNC_DESC32_20",
        48 => "R_CUDA_FUNC_DESC32_LO_20",
        49 => "R_CUDA_FUNC_DESC32_HI_20",
        50 => "R_CUDA_CONST_FIELD19_20",
        51 => "R_CUDA_BINDLESSOFF13_36",
        52 => "R_CUDA_SURF_HEADER_INDEX",
        53 => "R_CUDA_INSTRUCTION64",
        54 => "R_CUDA_CONST_FIELD21_20",
        55 => "R_CUDA_ABS32_32",
        56 => "R_CUDA_ABS32_LO_32",
        57 => "R_CUDA_ABS32_HI_32",
        58 => "R_CUDA_ABS47_34",
        59 => "R_CUDA_ABS16_32",
        60 => "R_CUDA_ABS24_32",
        61 => "R_CUDA_FUNC_DESC32_32",
        62 => "R_CUDA_FUNC_DESC32_LO_32",
        63 => "R_CUDA_FUNC_DESC32_HI_32",
        64 => "R_CUDA_CONST_FIELD19_40",
        65 => "R_CUDA_BINDLESSOFF14_40",
        66 => "R_CUDA_CONST_FIELD21_38",
        67 => "R_CUDA_INSTRUCTION128",
        68 => "R_CUDA_YIELD_OPCODE9_0",
        69 => "R_CUDA_YIELD_CLEAR_PRED4_87",
        70 => "R_CUDA_32_LO",
        71 => "R_CUDA_32_HI",
        72 => "R_CUDA_UNUSED_CLEAR32",
        73 => "R_CUDA_UNUSED_CLEAR64",
        74 => "R_CUDA_ABS24_40",
        75 => "R_CUDA_ABS55_16_34",
        76..=83 => return Some(format!("R_CUDA_8_{}", BYTE[(t - 76) as usize])),
        84..=91 => return Some(format!("R_CUDA_G8_{}", BYTE[(t - 84) as usize])),
        92..=99 => return Some(format!("R_CUDA_FUNC_DESC_8_{}", BYTE[(t - 92) as usize])),
        100 => "R_CUDA_ABS20_44",
        101 => "R_CUDA_SAMP_HEADER_INDEX_0",
        102 => "R_CUDA_UNIFIED",
        103 => "R_CUDA_UNIFIED_32",
        104..=111 => return Some(format!("R_CUDA_UNIFIED_8_{}", BYTE[(t - 104) as usize])),
        112 => "R_CUDA_UNIFIED32_LO_32",
        113 => "R_CUDA_UNIFIED32_HI_32",
        114 => "R_CUDA_ABS56_16_34",
        115 => "R_CUDA_CONST_FIELD22_37",
        116 => "R_CUDA_NONE_LAST",
        _ => return None,
    };
    Some(fixed.to_string())
}
