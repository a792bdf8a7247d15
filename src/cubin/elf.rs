//! The ELF container of a cubin: header, section table, symbol table, relocations and program
//! headers, plus the per-function view (`.text.<fn>` words and register counts).
//!
//! Facts (digest-backend §0 C5–C7, C10; §4.1–4.3, 4.8–4.9): cubins are ELF64 little-endian,
//! EI_OSABI 0x41 (older toolkits 0x33), EI_ABIVERSION 8, e_machine 190 (EM_CUDA), ET_EXEC from
//! `ptxas -arch`, ET_REL from `ptxas -c`. With ABI version 8 the SM is e_flags bits [15:8]; the
//! low byte is 0x04 on sm_75–sm_90 and 0x02 on sm_100+; the top byte is 0x06, or 0x0a when the
//! PTX carries debug information (observed on the corpus's `ptx/debug_loc`). `sm_XXa` is
//! not in e_flags but in `.nv.compat` (EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET).
//!
//! Invariants of [`Cubin::parse`]: it never panics, whatever the bytes; every offset, size and
//! index read from the file is checked before use, and a violation is a [`CubinError`] naming the
//! header, section or entry. Reads need no alignment. A successful parse has: every non-NOBITS
//! section's bytes inside the file, every symbol's and relocation's indices in range, every
//! function's byte range inside its section, and every `.nv.info*`/`.nv.compat` section tiled
//! exactly by records.

use super::bytes::{cstr_at, slice, u8_at, u16_at, u32_at, u64_at};
use super::callgraph::{CallEdge, parse_callgraph};
use super::eiattr::{InfoSection, Table, Value, code, parse_records};
use super::error::CubinError;
use super::names::{
    SHT_CUDA_CALLGRAPH, SHT_CUDA_COMPAT_INFO, SHT_CUDA_INFO, STO_CUDA_ENTRY, reloc_name, section_type_name,
};
use super::notes::{Note, parse_notes};
use object::elf;

/// `e_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElfType {
    /// 1: relocatable (`ptxas -c`).
    Rel,
    /// 2: executable (`ptxas -arch=sm_XX`).
    Exec,
    /// Anything else, as found.
    Other(u16),
}

impl ElfType {
    /// `ET_REL`, `ET_EXEC`, or `ET_<n>`.
    pub fn name(self) -> String {
        match self {
            ElfType::Rel => "ET_REL".into(),
            ElfType::Exec => "ET_EXEC".into(),
            ElfType::Other(n) => format!("ET_{n}"),
        }
    }
}

/// The ELF header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// EI_CLASS (2 = ELF64; the only class parsed).
    pub class: u8,
    /// EI_DATA (1 = little-endian; the only encoding parsed).
    pub data: u8,
    /// EI_OSABI: 0x41 for CUDA ABI v8 cubins (0x33 on older toolkits).
    pub osabi: u8,
    /// EI_ABIVERSION: 8.
    pub abi_version: u8,
    /// e_type.
    pub kind: ElfType,
    /// e_machine: 190 (EM_CUDA).
    pub machine: u16,
    /// e_version.
    pub version: u32,
    /// e_entry.
    pub entry: u64,
    /// e_phoff.
    pub phoff: u64,
    /// e_shoff.
    pub shoff: u64,
    /// e_flags.
    pub flags: u32,
    /// e_ehsize.
    pub ehsize: u16,
    /// e_phentsize.
    pub phentsize: u16,
    /// e_phnum.
    pub phnum: u16,
    /// e_shentsize.
    pub shentsize: u16,
    /// e_shnum.
    pub shnum: u16,
    /// e_shstrndx.
    pub shstrndx: u16,
}

impl Header {
    /// The SM number: e_flags bits [15:8] for ABI version ≥ 8, bits [7:0] before.
    pub fn sm(&self) -> u32 {
        if self.abi_version >= 8 { (self.flags >> 8) & 0xff } else { self.flags & 0xff }
    }
    /// The low byte of e_flags (ABI v8: 0x04 on sm_75–sm_90, 0x02 on sm_100+).
    pub fn flags_low(&self) -> u8 {
        self.flags as u8
    }
}

/// One section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Index in the section table.
    pub index: u32,
    /// Name (from `.shstrtab`).
    pub name: String,
    /// sh_type (see [`super::names`]).
    pub kind: u32,
    /// sh_flags.
    pub flags: u64,
    /// sh_addr.
    pub addr: u64,
    /// sh_offset.
    pub offset: u64,
    /// sh_size.
    pub size: u64,
    /// sh_link.
    pub link: u32,
    /// sh_info.
    pub info: u32,
    /// sh_addralign.
    pub align: u64,
    /// sh_entsize.
    pub entsize: u64,
    /// The bytes (empty for NOBITS).
    pub data: Vec<u8>,
}

impl Section {
    /// The type as cuobjdump names it.
    pub fn kind_name(&self) -> String {
        section_type_name(self.kind)
    }
}

/// One symbol of `.symtab`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Index in `.symtab`.
    pub index: u32,
    /// Name (empty for the null symbol and for section symbols).
    pub name: String,
    /// st_value.
    pub value: u64,
    /// st_size.
    pub size: u64,
    /// st_info.
    pub info: u8,
    /// st_other (STO_CUDA_ENTRY 0x10 marks a kernel).
    pub other: u8,
    /// st_shndx.
    pub shndx: u16,
}

impl Symbol {
    /// STB_* (st_info >> 4).
    pub fn bind(&self) -> u8 {
        self.info >> 4
    }
    /// STT_* (st_info & 0xf).
    pub fn kind(&self) -> u8 {
        self.info & 0xf
    }
    /// Whether st_other has STO_CUDA_ENTRY (a `.entry` kernel).
    pub fn is_entry(&self) -> bool {
        self.other & STO_CUDA_ENTRY != 0
    }
}

/// One relocation of a REL or RELA section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relocation {
    /// Index of the REL/RELA section.
    pub section: u32,
    /// The section it applies to (the REL/RELA section's sh_info).
    pub target: u32,
    /// r_offset.
    pub offset: u64,
    /// Symbol index (r_info >> 32).
    pub symbol: u32,
    /// Type (r_info & 0xffffffff).
    pub kind: u32,
    /// r_addend (RELA only).
    pub addend: Option<i64>,
}

impl Relocation {
    /// The `R_CUDA_*` name of the type, if known.
    pub fn kind_name(&self) -> Option<String> {
        reloc_name(self.kind)
    }
}

/// One program header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramHeader {
    /// p_type (6 PT_PHDR, 1 PT_LOAD).
    pub kind: u32,
    /// p_flags (PF_R 4, PF_W 2, PF_X 1).
    pub flags: u32,
    /// p_offset.
    pub offset: u64,
    /// p_vaddr.
    pub vaddr: u64,
    /// p_paddr.
    pub paddr: u64,
    /// p_filesz.
    pub filesz: u64,
    /// p_memsz.
    pub memsz: u64,
    /// p_align.
    pub align: u64,
}

/// A function with code: a defined STT_FUNC symbol in a `.text.*` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Symbol name.
    pub name: String,
    /// Symbol index.
    pub symbol: u32,
    /// Index of its `.text.<fn>` section.
    pub section: u32,
    /// Byte offset in that section (st_value).
    pub offset: u64,
    /// Whether it is a kernel (STO_CUDA_ENTRY).
    pub kernel: bool,
    /// STB_* binding (internal helpers are WEAK, inlined callees LOCAL).
    pub bind: u8,
    /// The instructions, each 16 bytes read as a little-endian u128 (st_size / 16 of them).
    pub words: Vec<u128>,
    /// Register count: EIATTR_REGCOUNT if `.nv.info` has one for this symbol, else bits 24.. of
    /// the section's sh_info (sm_75–sm_89) when this symbol owns the section; `None` if neither.
    pub regcount: Option<u32>,
}

/// A parsed cubin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cubin {
    /// The ELF header.
    pub header: Header,
    /// All sections, index 0 included.
    pub sections: Vec<Section>,
    /// `.symtab`, index 0 included (empty if there is no SYMTAB section).
    pub symbols: Vec<Symbol>,
    /// Every REL/RELA entry, in section then entry order.
    pub relocations: Vec<Relocation>,
    /// The program headers.
    pub program_headers: Vec<ProgramHeader>,
    /// `.nv.info`, `.nv.info.<fn>` (SHT 0x70000000) and `.nv.compat` (0x70000086), in section order.
    pub info: Vec<InfoSection>,
    /// The notes of every SHT_NOTE section.
    pub notes: Vec<Note>,
    /// `.nv.callgraph` entries.
    pub callgraph: Vec<CallEdge>,
    /// Functions with code, in symbol order.
    pub functions: Vec<Function>,
}

fn err(at: impl Into<String>, what: impl Into<String>) -> CubinError {
    CubinError::new(at, what)
}

fn parse_header(data: &[u8]) -> Result<Header, CubinError> {
    const AT: &str = "ELF header";
    if data.len() < 64 {
        return Err(err(AT, format!("file is {} bytes, an ELF64 header needs 64", data.len())));
    }
    if data[..4] != elf::ELFMAG {
        return Err(err(AT, format!("bad magic {:02x?}", &data[..4])));
    }
    if data[4] != elf::ELFCLASS64 {
        return Err(err(AT, format!("EI_CLASS {} is not ELFCLASS64", data[4])));
    }
    if data[5] != elf::ELFDATA2LSB {
        return Err(err(AT, format!("EI_DATA {} is not little-endian", data[5])));
    }
    let h16 = |o| u16_at(data, o).unwrap_or(0);
    let h32 = |o| u32_at(data, o).unwrap_or(0);
    let h64 = |o| u64_at(data, o).unwrap_or(0);
    let kind = match h16(16) {
        elf::ET_REL => ElfType::Rel,
        elf::ET_EXEC => ElfType::Exec,
        n => ElfType::Other(n),
    };
    Ok(Header {
        class: data[4],
        data: data[5],
        osabi: data[7],
        abi_version: data[8],
        kind,
        machine: h16(18),
        version: h32(20),
        entry: h64(24),
        phoff: h64(32),
        shoff: h64(40),
        flags: h32(48),
        ehsize: h16(52),
        phentsize: h16(54),
        phnum: h16(56),
        shentsize: h16(58),
        shnum: h16(60),
        shstrndx: h16(62),
    })
}

fn table_entry(data: &[u8], base: u64, i: u64, size: u64, at: &str) -> Result<u64, CubinError> {
    let off = i.checked_mul(size).and_then(|o| o.checked_add(base)).ok_or_else(|| err(at, "offset overflows"))?;
    if slice(data, off, size).is_none() {
        return Err(err(at, format!("entry at {off:#x} runs past the end of the file ({:#x} bytes)", data.len())));
    }
    Ok(off)
}

impl Cubin {
    /// Parses a cubin. Never panics; see the module invariants.
    pub fn parse(data: &[u8]) -> Result<Cubin, CubinError> {
        let header = parse_header(data)?;
        let sections = parse_sections(data, &header)?;
        let symbols = parse_symbols(&sections)?;
        let relocations = parse_relocations(&sections, symbols.len())?;
        let program_headers = parse_program_headers(data, &header)?;
        let mut info = Vec::new();
        let mut notes = Vec::new();
        let mut callgraph = Vec::new();
        for s in &sections {
            match s.kind {
                SHT_CUDA_INFO | SHT_CUDA_COMPAT_INFO => {
                    let table = if s.kind == SHT_CUDA_INFO { Table::Info } else { Table::Compat };
                    let per_function = s.flags & u64::from(elf::SHF_INFO_LINK) != 0;
                    info.push(InfoSection {
                        section: s.index,
                        name: s.name.clone(),
                        table,
                        text_section: per_function.then_some(s.info),
                        records: parse_records(&s.name, &s.data)?,
                    });
                }
                elf::SHT_NOTE => notes.extend(parse_notes(s)?),
                SHT_CUDA_CALLGRAPH => callgraph.extend(parse_callgraph(s)?),
                _ => {}
            }
        }
        let mut cubin = Cubin {
            header,
            sections,
            symbols,
            relocations,
            program_headers,
            info,
            notes,
            callgraph,
            functions: vec![],
        };
        cubin.functions = cubin.parse_functions()?;
        Ok(cubin)
    }

    /// The section called `name`.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The symbol called `name`.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The SM number (e.g. 90 for both sm_90 and sm_90a).
    pub fn sm(&self) -> u32 {
        self.header.sm()
    }

    /// Whether `.nv.compat` marks an arch-accelerated (`sm_XXa`) target.
    pub fn accelerated(&self) -> bool {
        self.info
            .iter()
            .filter(|i| i.table == Table::Compat)
            .flat_map(|i| &i.records)
            .any(|r| r.code == super::eiattr::compat_code::CUDA_ACCELERATOR_TARGET && r.x & 0xff != 0)
    }

    /// The info section called `name` (`.nv.info`, `.nv.info.<fn>`, `.nv.compat`).
    pub fn info_section(&self, name: &str) -> Option<&InfoSection> {
        self.info.iter().find(|i| i.name == name)
    }

    /// The per-function `.nv.info.<function>` section.
    pub fn function_info(&self, function: &str) -> Option<&InfoSection> {
        self.info_section(&format!(".nv.info.{function}"))
    }

    /// The value of a global `.nv.info` `[symbol, value]` record with attribute `code` for
    /// symbol `symbol` (REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE, MAX_STACK_SIZE).
    pub fn global_attr(&self, code: u8, symbol: u32) -> Option<u32> {
        let global = self.info.iter().find(|i| i.table == Table::Info && i.text_section.is_none())?;
        global.find(code).find_map(|r| match r.value(Table::Info) {
            Value::SymbolValue { symbol: s, value } if s == symbol => Some(value),
            _ => None,
        })
    }

    /// The cuobjdump header line, e.g.
    /// `64-bit ELF: type=ET_EXEC, ABI=8, sm=90, toolkit=13.0, flags=0x6005a04`
    /// (the `a` suffix comes from `.nv.compat`, the toolkit from `.note.nv.cuinfo`).
    pub fn header_line(&self) -> String {
        let toolkit = self.notes.iter().find_map(|n| n.cuinfo()).map_or(0, |c| c.toolkit);
        format!(
            "64-bit ELF: type={}, ABI={}, sm={}{}, toolkit={}.{}, flags={:#x}",
            self.header.kind.name(),
            self.header.abi_version,
            self.sm(),
            if self.accelerated() { "a" } else { "" },
            toolkit / 10,
            toolkit % 10,
            self.header.flags
        )
    }

    fn parse_functions(&self) -> Result<Vec<Function>, CubinError> {
        let mut out = Vec::new();
        for s in &self.symbols {
            if s.kind() != elf::STT_FUNC || s.shndx == 0 || s.shndx >= elf::SHN_LORESERVE {
                continue;
            }
            let Some(sec) = self.sections.get(s.shndx as usize) else { continue };
            if !sec.name.starts_with(".text") || sec.kind != elf::SHT_PROGBITS {
                continue;
            }
            let at = || format!("function {} (symbol {:#x})", s.name, s.index);
            let bytes = slice(&sec.data, s.value, s.size).ok_or_else(|| {
                err(
                    at(),
                    format!("bytes {:#x}+{:#x} lie outside {} ({:#x} bytes)", s.value, s.size, sec.name, sec.size),
                )
            })?;
            if !bytes.len().is_multiple_of(16) {
                return Err(err(at(), format!("size {:#x} is not a whole number of 16-byte instructions", s.size)));
            }
            let words = bytes.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().unwrap_or([0; 16]))).collect();
            let from_info = sec.info >> 24;
            let regcount = self
                .global_attr(code::REGCOUNT, s.index)
                .or_else(|| (sec.info & 0xff_ffff == s.index && from_info != 0).then_some(from_info));
            out.push(Function {
                name: s.name.clone(),
                symbol: s.index,
                section: sec.index,
                offset: s.value,
                kernel: s.is_entry(),
                bind: s.bind(),
                words,
                regcount,
            });
        }
        Ok(out)
    }
}

fn parse_sections(data: &[u8], h: &Header) -> Result<Vec<Section>, CubinError> {
    if h.shoff == 0 {
        return Ok(Vec::new());
    }
    if h.shentsize != 64 {
        return Err(err("ELF header", format!("e_shentsize {} is not 64", h.shentsize)));
    }
    // Extended numbering: e_shnum 0 → section 0's sh_size; e_shstrndx 0xffff → its sh_link.
    let first = table_entry(data, h.shoff, 0, 64, "section header 0")?;
    let shnum = if h.shnum == 0 { u64_at(data, first + 32).unwrap_or(0) } else { u64::from(h.shnum) };
    let shstrndx =
        if h.shstrndx == elf::SHN_XINDEX { u32_at(data, first + 40).unwrap_or(0) } else { u32::from(h.shstrndx) };
    if shnum > data.len() as u64 / 64 {
        return Err(err("ELF header", format!("{shnum} section headers cannot fit in a {}-byte file", data.len())));
    }
    let mut raw = Vec::new();
    for i in 0..shnum {
        let at = format!("section header {i}");
        let o = table_entry(data, h.shoff, i, 64, &at)?;
        let r = |d| u32_at(data, o + d).unwrap_or(0);
        let q = |d| u64_at(data, o + d).unwrap_or(0);
        let mut s = Section {
            index: i as u32,
            name: String::new(),
            kind: r(4),
            flags: q(8),
            addr: q(16),
            offset: q(24),
            size: q(32),
            link: r(40),
            info: r(44),
            align: q(48),
            entsize: q(56),
            data: Vec::new(),
        };
        if !has_no_file_data(s.kind) {
            s.data = slice(data, s.offset, s.size)
                .ok_or_else(|| {
                    err(
                        &at,
                        format!(
                            "data at {:#x} of size {:#x} runs past the end of the file ({:#x} bytes)",
                            s.offset,
                            s.size,
                            data.len()
                        ),
                    )
                })?
                .to_vec();
        }
        raw.push((r(0), s));
    }
    if shstrndx as u64 >= shnum && shstrndx != 0 {
        return Err(err("ELF header", format!("e_shstrndx {shstrndx} is not a section (there are {shnum})")));
    }
    let strtab = raw.get(shstrndx as usize).map(|(_, s)| s.data.clone()).unwrap_or_default();
    let mut out = Vec::new();
    for (name_off, mut s) in raw {
        if shstrndx != 0 {
            s.name = cstr_at(&strtab, u64::from(name_off)).ok_or_else(|| {
                err(
                    format!("section header {}", s.index),
                    format!(
                        "name offset {name_off:#x} is outside .shstrtab ({:#x} bytes) or unterminated",
                        strtab.len()
                    ),
                )
            })?;
        }
        out.push(s);
    }
    Ok(out)
}

/// Section types whose sh_size is memory, not file bytes: NOBITS and the ET_REL CUDA types
/// that stand for it (`.nv.global` 0x70000007, `.nv.local` 0x70000009, `.nv.shared.<fn>`
/// 0x7000000a, `.nv.merc.nv.shared.reserved.0` 0x70000015).
fn has_no_file_data(kind: u32) -> bool {
    matches!(kind, elf::SHT_NULL | elf::SHT_NOBITS | 0x7000_0007 | 0x7000_0009 | 0x7000_000a | 0x7000_0015)
}

fn parse_symbols(sections: &[Section]) -> Result<Vec<Symbol>, CubinError> {
    let Some(symtab) = sections.iter().find(|s| s.kind == elf::SHT_SYMTAB) else { return Ok(Vec::new()) };
    let at = format!("section {}", symtab.name);
    if !symtab.data.len().is_multiple_of(24) {
        return Err(err(&at, format!("size {:#x} is not a multiple of the 24-byte symbol size", symtab.size)));
    }
    let strtab = sections
        .get(symtab.link as usize)
        .ok_or_else(|| err(&at, format!("sh_link {} is not a section", symtab.link)))?;
    let d = &symtab.data;
    let mut out = Vec::new();
    for i in 0..d.len() / 24 {
        let o = (i * 24) as u64;
        let name_off = u32_at(d, o).unwrap_or(0);
        let name = cstr_at(&strtab.data, u64::from(name_off)).ok_or_else(|| {
            err(
                &at,
                format!(
                    "symbol {i:#x}: name offset {name_off:#x} is outside {} ({:#x} bytes) or unterminated",
                    strtab.name, strtab.size
                ),
            )
        })?;
        let shndx = u16_at(d, o + 6).unwrap_or(0);
        if shndx != 0 && shndx < elf::SHN_LORESERVE && shndx as usize >= sections.len() {
            return Err(err(&at, format!("symbol {i:#x} ({name}): st_shndx {shndx} is not a section")));
        }
        out.push(Symbol {
            index: i as u32,
            name,
            info: u8_at(d, o + 4).unwrap_or(0),
            other: u8_at(d, o + 5).unwrap_or(0),
            shndx,
            value: u64_at(d, o + 8).unwrap_or(0),
            size: u64_at(d, o + 16).unwrap_or(0),
        });
    }
    Ok(out)
}

fn parse_relocations(sections: &[Section], nsyms: usize) -> Result<Vec<Relocation>, CubinError> {
    let mut out = Vec::new();
    for s in sections.iter().filter(|s| s.kind == elf::SHT_REL || s.kind == elf::SHT_RELA) {
        let at = format!("section {}", s.name);
        let rela = s.kind == elf::SHT_RELA;
        let size = if rela { 24 } else { 16 };
        if !s.data.len().is_multiple_of(size) {
            return Err(err(&at, format!("size {:#x} is not a multiple of the {size}-byte entry size", s.size)));
        }
        for i in 0..s.data.len() / size {
            let o = (i * size) as u64;
            let info = u64_at(&s.data, o + 8).unwrap_or(0);
            let symbol = (info >> 32) as u32;
            if symbol as usize >= nsyms.max(1) {
                return Err(err(&at, format!("entry {i}: symbol {symbol} is not in .symtab ({nsyms} symbols)")));
            }
            out.push(Relocation {
                section: s.index,
                target: s.info,
                offset: u64_at(&s.data, o).unwrap_or(0),
                symbol,
                kind: info as u32,
                addend: rela.then(|| u64_at(&s.data, o + 16).unwrap_or(0) as i64),
            });
        }
    }
    Ok(out)
}

fn parse_program_headers(data: &[u8], h: &Header) -> Result<Vec<ProgramHeader>, CubinError> {
    if h.phnum == 0 {
        return Ok(Vec::new());
    }
    if h.phentsize != 56 {
        return Err(err("ELF header", format!("e_phentsize {} is not 56", h.phentsize)));
    }
    let mut out = Vec::new();
    for i in 0..u64::from(h.phnum) {
        let o = table_entry(data, h.phoff, i, 56, &format!("program header {i}"))?;
        let q = |d| u64_at(data, o + d).unwrap_or(0);
        out.push(ProgramHeader {
            kind: u32_at(data, o).unwrap_or(0),
            flags: u32_at(data, o + 4).unwrap_or(0),
            offset: q(8),
            vaddr: q(16),
            paddr: q(24),
            filesz: q(32),
            memsz: q(40),
            align: q(48),
        });
    }
    Ok(out)
}
