//! `cuobjdump -elf` output, parsed: the header line, the section table, the symbol table and the
//! EIATTR records of every `.nv.info*` / `.nv.compat` section.
//!
//! cuobjdump prints an EIATTR record as
//! ```text
//!     <0x1>
//!     Attribute:  EIATTR_REGCOUNT
//!     Format:     EIFMT_SVAL
//!     Value:      function: saxpy(0x8)    register count: 10
//! ```
//! with value continuation lines indented by two tabs. Values are kept as cuobjdump's text
//! (whitespace-normalised); the typed decoding of records is the cubin reader's job
//! (`ptxas_rs::cubin`), and this parse is the independent view it is compared with.

/// One row of the section table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Section index.
    pub index: u32,
    /// File offset.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// Entry size.
    pub entsize: u64,
    /// Alignment.
    pub align: u64,
    /// Type as cuobjdump names it (`PROGBITS`, `CUDA_INFO`, ...).
    pub kind: String,
    /// sh_flags.
    pub flags: u64,
    /// sh_link.
    pub link: u32,
    /// sh_info.
    pub info: u32,
    /// Section name.
    pub name: String,
}

/// One row of the symbol table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Symbol index.
    pub index: u32,
    /// st_value.
    pub value: u64,
    /// st_size.
    pub size: u64,
    /// st_info.
    pub info: u8,
    /// st_other.
    pub other: u8,
    /// st_shndx.
    pub shndx: u32,
    /// Name (`(null)` for the null symbol).
    pub name: String,
}

/// One EIATTR (or EICOMPAT) record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EiAttr {
    /// The section holding it (`.nv.info`, `.nv.info.saxpy`, `.nv.compat`).
    pub section: String,
    /// Attribute name, e.g. `EIATTR_REGCOUNT`.
    pub name: String,
    /// Format name, e.g. `EIFMT_SVAL`.
    pub format: String,
    /// The value text, continuation lines joined with a space, whitespace-normalised.
    pub value: String,
}

/// A parsed `cuobjdump -elf` dump.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ElfDump {
    /// The first line, e.g. `64-bit ELF: type=ET_EXEC, ABI=8, sm=90, toolkit=13.0, flags=0x6005a04`.
    pub header: String,
    /// The section table.
    pub sections: Vec<Section>,
    /// The symbol table.
    pub symbols: Vec<Symbol>,
    /// EIATTR records in file order.
    pub attrs: Vec<EiAttr>,
}

impl ElfDump {
    /// The records of `section`, in order.
    pub fn attrs_in<'a>(&'a self, section: &'a str) -> impl Iterator<Item = &'a EiAttr> + 'a {
        self.attrs.iter().filter(move |a| a.section == section)
    }

    /// The register count of `function`: `EIATTR_REGCOUNT` (sm_90+, and ET_EXEC generally) or,
    /// failing that, bits 24.. of the `.text.<function>` section's sh_info (sm_75–sm_89).
    pub fn register_count(&self, function: &str) -> Option<u32> {
        let sym = self.symbols.iter().find(|s| s.name == function)?;
        let tag = format!("function: {function}({:#x})", sym.index);
        let from_attr = self.attrs.iter().find(|a| a.name == "EIATTR_REGCOUNT" && a.value.starts_with(&tag));
        if let Some(a) = from_attr {
            return a.value.rsplit("register count: ").next()?.trim().parse().ok();
        }
        let text = self.sections.iter().find(|s| s.name == format!(".text.{function}"))?;
        Some(text.info >> 24).filter(|&r| r != 0)
    }
}

fn hex(s: &str) -> Option<u64> {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).ok()
}

/// `Index Offset Size ES Align Type Flags Link Info Name`; the type may be several words
/// (cuobjdump prints an unknown type as `UNKNOWN: 15`).
fn section_row(line: &str) -> Option<Section> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 10 {
        return None;
    }
    let n = f.len();
    Some(Section {
        index: hex(f[0])? as u32,
        offset: hex(f[1])?,
        size: hex(f[2])?,
        entsize: hex(f[3])?,
        align: hex(f[4])?,
        kind: f[5..n - 4].join(" "),
        flags: hex(f[n - 4])?,
        link: hex(f[n - 3])? as u32,
        info: hex(f[n - 2])? as u32,
        name: f[n - 1].to_string(),
    })
}

fn symbol_row(line: &str) -> Option<Symbol> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 7 {
        return None;
    }
    Some(Symbol {
        index: hex(f[0])? as u32,
        value: hex(f[1])?,
        size: hex(f[2])?,
        info: hex(f[3])? as u8,
        other: hex(f[4])? as u8,
        shndx: hex(f[5])? as u32,
        name: f[6].to_string(),
    })
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parses `cuobjdump -elf` output.
pub fn parse(text: &str) -> ElfDump {
    #[derive(PartialEq)]
    enum Where {
        Top,
        Sections,
        Symbols,
        Attrs(String),
        Other,
    }
    let mut d = ElfDump::default();
    let mut at = Where::Top;
    let mut in_value = false;
    for line in text.lines() {
        if d.header.is_empty() && line.contains("-bit ELF:") {
            d.header = line.trim().to_string();
            continue;
        }
        if line.starts_with("Sections:") {
            at = Where::Sections;
            continue;
        }
        if line.starts_with(".section .symtab") {
            at = Where::Symbols;
            continue;
        }
        if !line.starts_with(|c: char| c.is_whitespace()) && !line.is_empty() && !line.starts_with("Index") {
            // A new top-level block: `.section X` or a bare section name.
            let name = line.strip_prefix(".section ").unwrap_or(line).trim();
            at = if name.starts_with(".nv.info") || name == ".nv.compat" {
                Where::Attrs(name.to_string())
            } else {
                Where::Other
            };
            in_value = false;
            continue;
        }
        match &at {
            Where::Sections => d.sections.extend(section_row(line)),
            Where::Symbols => d.symbols.extend(symbol_row(line)),
            Where::Attrs(section) => {
                let t = line.trim();
                if let Some(name) = t.strip_prefix("Attribute:") {
                    d.attrs.push(EiAttr {
                        section: section.clone(),
                        name: name.trim().to_string(),
                        format: String::new(),
                        value: String::new(),
                    });
                    in_value = false;
                } else if let (Some(fmt), Some(a)) = (t.strip_prefix("Format:"), d.attrs.last_mut()) {
                    a.format = fmt.trim().to_string();
                } else if let (Some(v), Some(a)) = (t.strip_prefix("Value:"), d.attrs.last_mut()) {
                    a.value = normalise(v);
                    in_value = true;
                } else if t.is_empty() {
                    // Blank lines separate the entries of multi-entry values
                    // (EIATTR_INDIRECT_BRANCH_TARGETS); they do not end the value.
                } else if t.starts_with('<') && t.ends_with('>') {
                    in_value = false;
                } else if let (true, Some(a)) = (in_value, d.attrs.last_mut()) {
                    a.value = normalise(&format!("{} {t}", a.value));
                }
            }
            Where::Top | Where::Other => {}
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = "
64-bit ELF: type=ET_EXEC, ABI=8, sm=90, toolkit=13.0, flags=0x6005a04
Sections:
Index Offset   Size ES Align                      Type    Flags Link     Info Name
    7    4c4     24  0  4                    CUDA_INFO        0    3        0 .nv.info
    c    600    200  0 80                     PROGBITS        6    3        8 .text.saxpy

.section .symtab
 index           value           size      info    other  shndx    name  
   0               0               0        0        0      0     (null)
 0x8               0           0x200     0x12     0x10    0xc     saxpy

.nv.info
\t<0x1>
\tAttribute:\tEIATTR_REGCOUNT
\tFormat:\tEIFMT_SVAL
\tValue:\tfunction: saxpy(0x8)\tregister count: 10
.nv.info.saxpy
\t<0x2>
\tAttribute:\tEIATTR_KPARAM_INFO
\tFormat:\tEIFMT_SVAL
\tValue:\tIndex : 0x0\tOrdinal : 0x3\tOffset  : 0x10\tSize    : 0x8
\t\tPointee's logAlignment : 0x0\tSpace : 0x0\tcbank : 0x1f\tParameter Space : CBANK\t
\t<0x9>
\tAttribute:\tEIATTR_EXIT_INSTR_OFFSETS
\tFormat:\tEIFMT_SVAL
\tValue:\t0x70 0x120 


.nv.callgraph
 <0,-1>
";

    #[test]
    fn multi_entry_values_and_unknown_section_types() {
        let d = parse(
            "Sections:\n    f    700     10  0  4             UNKNOWN: 15        0    0        0 .nv.odd\n\
             .nv.info.k\n\t<0x1>\n\tAttribute:\tEIATTR_INDIRECT_BRANCH_TARGETS\n\tFormat:\tEIFMT_SVAL\n\
             \tValue:\tbranch: 0x10 targets: 0x20\n\n\t\tbranch: 0x30 targets: 0x40\n\n\t<0x2>\n\
             \tAttribute:\tEIATTR_SW_WAR\n\tFormat:\tEIFMT_SVAL\n\tValue:\t0x8\n",
        );
        assert_eq!(d.sections[0].kind, "UNKNOWN: 15");
        assert_eq!(d.sections[0].name, ".nv.odd");
        assert_eq!(d.attrs[0].value, "branch: 0x10 targets: 0x20 branch: 0x30 targets: 0x40");
        assert_eq!(d.attrs[1].value, "0x8");
    }

    #[test]
    fn sections_symbols_attrs() {
        let d = parse(DUMP);
        assert!(d.header.starts_with("64-bit ELF: type=ET_EXEC"));
        assert_eq!(d.sections.len(), 2);
        assert_eq!(d.sections[1].name, ".text.saxpy");
        assert_eq!((d.sections[1].align, d.sections[1].info), (0x80, 8));
        assert_eq!(d.symbols[1].name, "saxpy");
        assert_eq!(d.symbols[1].other, 0x10);
        assert_eq!(d.attrs.len(), 3);
        assert_eq!(d.register_count("saxpy"), Some(10));
        let k = &d.attrs[1];
        assert_eq!(k.section, ".nv.info.saxpy");
        assert!(k.value.ends_with("cbank : 0x1f Parameter Space : CBANK"), "{}", k.value);
        assert_eq!(d.attrs_in(".nv.info.saxpy").nth(1).unwrap().value, "0x70 0x120");
    }
}
