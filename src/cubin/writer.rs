//! The cubin writer: [`write`] turns an [`Image`] into the ET_EXEC cubin ptxas 13.0.88 writes
//! for sm_90, byte for byte where the image came from one.
//!
//! Layout (digest-backend §4, refined against every corpus cubin by `tests/cubin_writer.rs`):
//! - sections, in this order: `.shstrtab`, `.strtab`, `.symtab`, `.debug_frame`, the debug
//!   sections (`.debug_line`, `.debug_str`, `.nv_debug_line_sass`, `.nv_debug_ptx_txt`),
//!   `.note.nv.tkinfo`, `.note.nv.cuinfo`, `.nv.info`, `.nv.compat`, `.nv.info.<k>` (each
//!   kernel), `.nv.callgraph`, the `.rela` sections (`.text.<k>`, `.nv.constant2.<k>`,
//!   `.nv.constant4`, `.nv.constant3`, `.nv.global.init`, `.debug_line`,
//!   `.nv_debug_line_sass`, `.debug_frame`), `.nv.constant4`, `.nv.constant3`,
//!   `.nv.constant2.<k>`, `.text.<k>`, `.nv.global.init`, `.nv.shared.<k>`,
//!   `.nv.shared.reserved.0`, `.nv.global`, `.nv.constant0.<k>` — each only when present;
//! - every section's data at the next multiple of its alignment (NOBITS too, without taking
//!   space), then the section headers (8-aligned), then the program headers (PHDR, a LOAD over
//!   them, one LOAD per run of allocated sections with equal permissions);
//! - string tables in ptxas's creation order, names included for the sections ptxas creates
//!   and drops (`.symtab_shndx`, `.nv.shared.<k>`, `.rel.*`, `.nv.prototype`), renamed ones
//!   (`.nv.constant.pic` → `.nv.constant4`, `.nv.constant.user` → `.nv.constant3`,
//!   `.nv.constant.optimizer.<k>` → `.nv.constant2.<k>`) overwritten in place with the
//!   difference left as NULs, and zeroed names for the shared-variable symbols it drops;
//! - symbols: section symbols, the reserved shared-memory pair, module variables (with their
//!   sections' symbols), dropped shared variables, local/weak device functions, then the
//!   kernels, visible variables and functions, and the `.nv.constant0` section symbols;
//! - `.nv.info*` records in ptxas's order (see `kernel_records`); `.debug_frame` CIE/FDE pairs
//!   padded with `DW_CFA_nop` to 8 bytes, with R_CUDA_64 relocations (FDE starts first, both
//!   groups in descending offset order); data relocations in descending offset order.
//!
//! Bank 0 (`.nv.constant0.<k>`'s size, `EIATTR_PARAM_CBANK`) and e_flags' SM come from the
//! image's [`crate::target::Target`]; the writer does not check the SM (the one refusal of
//! targets without a backend is [`crate::target::Target::backend`]), and everything else is
//! the sm_90 layout.
//!
//! Invariants: `write` never panics; an image that breaks the rules of [`super::image`] is a
//! [`CubinError`] naming the kernel and the field. The output always parses with
//! [`super::Cubin::parse`]. The corpus has one kernel per module; the multi-kernel order
//! (kernels in emission order, which is the reverse of PTX order) was read off one two-kernel
//! ptxas cubin and is checked by a test only for kernels without subroutines or module data.

use super::error::CubinError;
use super::image::{Bind, Cfa, DataSection, Frame, Image, Kernel, KernelAttr, Param, Space};
use super::names::{SHT_CUDA_CALLGRAPH, SHT_CUDA_COMPAT_INFO, SHT_CUDA_INFO, STO_CUDA_ENTRY};
use object::elf;
use object::endian::{LittleEndian as LE, U16, U32, U64};
use object::pod::bytes_of;

/// Bytes of shared memory reserved at the start of every CTA's window on sm_90.
pub const RESERVED_SHARED: u64 = 0x400;
/// `R_CUDA_64`.
const R_CUDA_64: u32 = 2;

fn err(at: impl Into<String>, what: impl Into<String>) -> CubinError {
    CubinError::new(at, what)
}

/// A relocation to write: `(offset, symbol index, R_CUDA_* type, addend)`.
type Reloc = (u64, u32, u32, i64);

/// A string table under construction, in creation order (ptxas never merges or sorts).
#[derive(Default)]
struct StrTab {
    bytes: Vec<u8>,
}

impl StrTab {
    fn new() -> Self {
        StrTab { bytes: vec![0] }
    }
    fn add(&mut self, s: &str) -> u32 {
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        at
    }
    /// A name that was created and then zeroed: `len` NUL bytes.
    fn ghost(&mut self, len: usize) {
        self.bytes.extend(std::iter::repeat_n(0, len));
    }
}

enum Body {
    Data(Vec<u8>),
    NoBits(u64),
}

struct Sec {
    kind: u32,
    flags: u64,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
    body: Body,
}

impl Sec {
    /// `name` only documents the call site; the header's name offset comes from the string table.
    fn new(_name: impl Into<String>, kind: u32, flags: u64, align: u64) -> Sec {
        Sec { kind, flags, link: 0, info: 0, align, entsize: 0, body: Body::Data(Vec::new()) }
    }
    fn size(&self) -> u64 {
        match &self.body {
            Body::Data(d) => d.len() as u64,
            Body::NoBits(n) => *n,
        }
    }
}

struct Sym {
    name: u32,
    info: u8,
    other: u8,
    shndx: u16,
    value: u64,
    size: u64,
}

/// Per-kernel section indices.
#[derive(Clone, Copy, Default)]
struct KIdx {
    info: usize,
    rela_text: Option<usize>,
    rela_c2: Option<usize>,
    c2: Option<usize>,
    text: usize,
    shared: Option<usize>,
    const0: usize,
    sym: u32,
    const0_sym: u32,
}

fn check(image: &Image) -> Result<(), CubinError> {
    let name_ok = |n: &str| !n.is_empty() && !n.contains('\0');
    for k in &image.kernels {
        let at = format!("kernel {}", k.name);
        if !name_ok(&k.name) {
            return Err(err(&at, "the name is empty or contains NUL"));
        }
        let len = k.code.len() as u64;
        if len == 0 || !len.is_multiple_of(16) {
            return Err(err(&at, format!("code is {len} bytes, not a non-empty whole number of 16-byte instructions")));
        }
        let inst = |what: &str, off: u64| -> Result<(), CubinError> {
            if off >= len || !off.is_multiple_of(16) {
                return Err(err(&at, format!("{what} {off:#x} is not an instruction of the {len:#x}-byte code")));
            }
            Ok(())
        };
        for &e in &k.exit_offsets {
            inst("EXIT offset", u64::from(e))?;
        }
        for s in &k.subroutines {
            if !name_ok(&s.name) {
                return Err(err(&at, "a subroutine name is empty or contains NUL"));
            }
            inst(&format!("subroutine {} offset", s.name), s.offset)?;
            if s.offset + s.size > len {
                return Err(err(&at, format!("subroutine {} ends past the code", s.name)));
            }
        }
        for f in &k.frames {
            if f.start + f.range > len {
                return Err(err(&at, format!("frame {:#x}+{:#x} ends past the code", f.start, f.range)));
            }
        }
        for (i, p) in k.params.iter().enumerate() {
            if u32::from(p.offset) + u32::from(p.size) > k.param_size {
                return Err(err(&at, format!("parameter {i} ends past param_size {:#x}", k.param_size)));
            }
        }
        if k.param_size > 0xffff {
            return Err(err(&at, format!("param_size {:#x} does not fit EIATTR_CBANK_PARAM_SIZE", k.param_size)));
        }
        if let Some(s) = k.shared.filter(|s| s.align == 0 || !s.align.is_power_of_two()) {
            return Err(err(&at, format!("shared alignment {} is not a power of two", s.align)));
        }
    }
    let d = &image.data;
    for v in &d.variables {
        let size = match v.space {
            Space::GlobalInit => d.global_init.as_ref().map(|s| s.bytes.len() as u64),
            Space::Global => d.global.map(|g| g.0),
            Space::Constant => d.constant3.as_ref().map(|s| s.bytes.len() as u64),
        };
        let at = format!("variable {}", v.name);
        if !name_ok(&v.name) {
            return Err(err(&at, "the name is empty or contains NUL"));
        }
        match size {
            None => return Err(err(&at, "its section is missing from the image")),
            Some(n) if v.offset.checked_add(v.size).is_none_or(|end| end > n) => {
                return Err(err(&at, format!("{:#x}+{:#x} lies outside its {n:#x}-byte section", v.offset, v.size)));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Writes `image` as an ET_EXEC cubin (the sm_90 layout, bank 0 from the image's target).
pub fn write(image: &Image) -> Result<Vec<u8>, CubinError> {
    check(image)?;
    let ks = &image.kernels;

    // ---- section indices ----
    // 1 .shstrtab, 2 .strtab, 3 .symtab, 4 .debug_frame, then the debug sections, then the
    // notes, .nv.info and .nv.compat.
    let dbg = &image.debug_info;
    let debug_secs: Vec<(&str, &[u8])> = [
        (".debug_line", dbg.line.as_ref().map(|l| l.0.as_slice())),
        (".debug_str", dbg.str.as_deref()),
        (".nv_debug_line_sass", dbg.line_sass.as_ref().map(|l| l.0.as_slice())),
        (".nv_debug_ptx_txt", dbg.ptx_txt.as_deref()),
    ]
    .into_iter()
    .filter_map(|(n, d)| d.map(|d| (n, d)))
    .collect();
    let nd = debug_secs.len();
    let (tk, cu, ginfo, cp) = (5 + nd, 6 + nd, 7 + nd, 8 + nd);
    let mut n = cp;
    let mut idx: Vec<KIdx> = vec![KIdx::default(); ks.len()];
    for i in idx.iter_mut() {
        n += 1;
        i.info = n;
    }
    let callgraph = n + 1;
    n += 1;
    for (i, k) in idx.iter_mut().zip(ks) {
        if k.code_relocation_section {
            n += 1;
            i.rela_text = Some(n);
        }
    }
    for (i, k) in idx.iter_mut().zip(ks) {
        if k.constant2.is_some() {
            n += 1;
            i.rela_c2 = Some(n);
        }
    }
    let data = &image.data;
    let mut next = |present: bool| {
        present.then(|| {
            n += 1;
            n
        })
    };
    let rela_c4 = next(!data.address_table.is_empty());
    let rela_c3 = next(data.constant3.as_ref().is_some_and(|d| d.relocation_section));
    let rela_gi = next(data.global_init.as_ref().is_some_and(|d| d.relocation_section));
    let rela_line = next(dbg.line.is_some());
    let rela_line_sass = next(dbg.line_sass.is_some());
    // A module without kernels has no frames, and ptxas writes no `.rela.debug_frame` for it.
    let rela_frame = next(!ks.is_empty());
    let c4 = next(!data.address_table.is_empty());
    let c3 = next(data.constant3.is_some());
    for (i, k) in idx.iter_mut().zip(ks) {
        if k.constant2.is_some() {
            n += 1;
            i.c2 = Some(n);
        }
    }
    for i in idx.iter_mut() {
        n += 1;
        i.text = n;
    }
    let gi = if data.global_init.is_some() {
        n += 1;
        Some(n)
    } else {
        None
    };
    for (i, k) in idx.iter_mut().zip(ks) {
        if k.shared.is_some() {
            n += 1;
            i.shared = Some(n);
        }
    }
    let reserved = n + 1;
    n += 1;
    let gl = if data.global.is_some() {
        n += 1;
        Some(n)
    } else {
        None
    };
    for i in idx.iter_mut() {
        n += 1;
        i.const0 = n;
    }
    let shnum = n + 1;
    if shnum >= usize::from(elf::SHN_LORESERVE) {
        return Err(err("image", "too many sections"));
    }

    // ---- string tables and symbols, in ptxas's creation order ----
    let mut sh = StrTab::new();
    let mut st = StrTab::new();
    let both = |sh: &mut StrTab, st: &mut StrTab, s: &str| -> (u32, u32) { (sh.add(s), st.add(s)) };
    let mut names: Vec<u32> = vec![0; shnum];
    let mut secsym: Vec<u32> = vec![0; shnum]; // strtab offset of each section's name
    for (i, s) in [".shstrtab", ".strtab", ".symtab"].iter().enumerate() {
        let (a, b) = both(&mut sh, &mut st, s);
        names[i + 1] = a;
        secsym[i + 1] = b;
    }
    both(&mut sh, &mut st, ".symtab_shndx");
    for (i, s) in [".note.nv.tkinfo", ".note.nv.cuinfo", ".nv.info", ".nv.compat"].iter().enumerate() {
        let (a, b) = both(&mut sh, &mut st, s);
        names[i + tk] = a;
        secsym[i + tk] = b;
    }
    // Each kernel's `.text`, `.nv.info`, `.nv.shared` names; the reserved shared-memory names
    // follow the first kernel's.
    // (A module without kernels names them right after the header sections.)
    // Returns (`.nv.reservedSmem.offset0`, the section's names, the alias).
    let reserved_names = |sh: &mut StrTab, st: &mut StrTab| {
        let offset0 = if image.reserved_offset0_resolved {
            st.ghost(".nv.reservedSmem.offset0".len() + 1);
            0
        } else {
            st.add(".nv.reservedSmem.offset0")
        };
        let sec = both(sh, st, ".nv.shared.reserved.0");
        (offset0, sec, st.add("__nv_reservedSMEM_offset_0_alias"))
    };
    let (mut smem_offset_name, mut alias_name) = (0, 0);
    if ks.is_empty() {
        let sec;
        (smem_offset_name, sec, alias_name) = reserved_names(&mut sh, &mut st);
        (names[reserved], secsym[reserved]) = sec;
    }
    for (n, (i, k)) in idx.iter().zip(ks).enumerate() {
        let (a, b) = both(&mut sh, &mut st, &format!(".text.{}", k.name));
        (names[i.text], secsym[i.text]) = (a, b);
        let (a, b) = both(&mut sh, &mut st, &format!(".nv.info.{}", k.name));
        (names[i.info], secsym[i.info]) = (a, b);
        let (a, b) = both(&mut sh, &mut st, &format!(".nv.shared.{}", k.name));
        if let Some(s) = i.shared {
            (names[s], secsym[s]) = (a, b);
        }
        if n == 0 {
            let sec;
            (smem_offset_name, sec, alias_name) = reserved_names(&mut sh, &mut st);
            (names[reserved], secsym[reserved]) = sec;
        }
    }
    let mut c2_names = Vec::new();
    for (i, k) in idx.iter().zip(ks) {
        if let Some(c) = i.c2 {
            let (name, original) = (format!(".nv.constant2.{}", k.name), format!(".nv.constant.optimizer.{}", k.name));
            names[c] = sh.add(&name);
            sh.ghost(original.len() - name.len());
            secsym[c] = st.add(&name);
            st.ghost(original.len() - name.len());
            c2_names.push(c);
        }
    }
    // Module variables: each section is created (name, section symbol) before its first
    // variable; `.nv.constant4` right after the first variable of the address table. The
    // constant banks are created as `.nv.constant.pic`/`.nv.constant.user` and renamed in
    // place, leaving the difference as NUL bytes.
    let mut phase: Vec<(Option<usize>, u32)> = Vec::new(); // (section symbol of index | variable i, strtab name)
    let mut created: Vec<bool> = vec![false; shnum];
    let mut create = |sh: &mut StrTab, st: &mut StrTab, phase: &mut Vec<(Option<usize>, u32)>, sec: usize| {
        let (name, original) = match sec {
            x if Some(x) == c4 => (".nv.constant4", ".nv.constant.pic"),
            x if Some(x) == c3 => (".nv.constant3", ".nv.constant.user"),
            x if Some(x) == gi => (".nv.global.init", ".nv.global.init"),
            _ => (".nv.global", ".nv.global"),
        };
        let a = sh.add(name);
        sh.ghost(original.len() - name.len());
        let b = st.add(name);
        st.ghost(original.len() - name.len());
        (names[sec], secsym[sec]) = (a, b);
        phase.push((Some(sec), b));
    };
    let mut var_names = Vec::new();
    for v in &data.variables {
        let sec = match v.space {
            Space::GlobalInit => gi,
            Space::Global => gl,
            Space::Constant => c3,
        }
        .ok_or_else(|| err(format!("variable {}", v.name), "its section is missing from the image"))?;
        if !created[sec] {
            created[sec] = true;
            create(&mut sh, &mut st, &mut phase, sec);
        }
        if v.bind == Bind::Global {
            var_names.push(0); // named with the kernels, below
        } else {
            let name = st.add(&v.name);
            var_names.push(name);
            phase.push((None, name));
        }
        if let Some(c4) = c4.filter(|&c| !created[c] && data.address_table.contains(&v.name)) {
            created[c4] = true;
            create(&mut sh, &mut st, &mut phase, c4);
        }
    }
    if let Some(c4) = c4.filter(|&c| !created[c]) {
        create(&mut sh, &mut st, &mut phase, c4);
    }
    let dropped: u32 = ks.iter().filter_map(|k| k.shared.map(|s| s.dropped_symbols)).sum();
    for d in 0..dropped {
        st.ghost(21 + 2 * d as usize);
    }
    let mut sub_names: Vec<Vec<u32>> = ks
        .iter()
        .map(|k| k.subroutines.iter().map(|s| if s.bind == Bind::Global { 0 } else { st.add(&s.name) }).collect())
        .collect();
    for (i, k) in idx.iter().zip(ks) {
        if let Some(r) = i.rela_text {
            both(&mut sh, &mut st, &format!(".rel.text.{}", k.name));
            let (a, b) = both(&mut sh, &mut st, &format!(".rela.text.{}", k.name));
            (names[r], secsym[r]) = (a, b);
        }
    }
    let mut alias_names: Vec<Vec<Vec<u32>>> = ks
        .iter()
        .map(|k| {
            k.subroutines
                .iter()
                .map(|s| if s.bind == Bind::Global { vec![] } else { s.aliases.iter().map(|a| st.add(a)).collect() })
                .collect()
        })
        .collect();
    for (i, k) in idx.iter().zip(ks) {
        if let Some(r) = i.rela_c2 {
            let (name, original) =
                (format!(".rela.nv.constant2.{}", k.name), format!(".rela.nv.constant.optimizer.{}", k.name));
            names[r] = sh.add(&name);
            sh.ghost(original.len() - name.len());
            secsym[r] = st.add(&original);
        }
    }
    let (a, b) = both(&mut sh, &mut st, ".debug_frame");
    (names[4], secsym[4]) = (a, b);
    // Debug sections, with ptxas's odd `.rela` before `.rel` for `.debug_line` (whose names
    // come after `.debug_str`'s when there is one).
    for (j, (name, _)) in debug_secs.iter().enumerate() {
        let (a, b) = both(&mut sh, &mut st, name);
        (names[5 + j], secsym[5 + j]) = (a, b);
        match *name {
            ".debug_line" if dbg.str.is_none() => {
                let (a, b) = both(&mut sh, &mut st, ".rela.debug_line");
                if let Some(r) = rela_line {
                    (names[r], secsym[r]) = (a, b);
                }
                both(&mut sh, &mut st, ".rel.debug_line");
            }
            ".debug_str" if dbg.line.is_some() => {
                let (a, b) = both(&mut sh, &mut st, ".rela.debug_line");
                if let Some(r) = rela_line {
                    (names[r], secsym[r]) = (a, b);
                }
                both(&mut sh, &mut st, ".rel.debug_line");
            }
            ".nv_debug_line_sass" => {
                both(&mut sh, &mut st, ".rel.nv_debug_line_sass");
                let (a, b) = both(&mut sh, &mut st, ".rela.nv_debug_line_sass");
                if let Some(r) = rela_line_sass {
                    (names[r], secsym[r]) = (a, b);
                }
            }
            _ => {}
        }
    }
    for (rela, name, original) in [
        (rela_c4, "nv.constant4", "nv.constant.pic"),
        (rela_c3, "nv.constant3", "nv.constant.user"),
        (rela_gi, "nv.global.init", "nv.global.init"),
    ] {
        if let Some(r) = rela {
            both(&mut sh, &mut st, &format!(".rel.{original}"));
            names[r] = sh.add(&format!(".rela.{name}"));
            sh.ghost(original.len() - name.len());
            secsym[r] = st.add(&format!(".rela.{original}"));
        }
    }
    if let Some(r) = rela_frame {
        both(&mut sh, &mut st, ".rel.debug_frame");
        let (a, b) = both(&mut sh, &mut st, ".rela.debug_frame");
        (names[r], secsym[r]) = (a, b);
    }
    let (a, b) = both(&mut sh, &mut st, ".nv.callgraph");
    (names[callgraph], secsym[callgraph]) = (a, b);
    both(&mut sh, &mut st, ".nv.prototype");
    let kernel_names: Vec<u32> = ks.iter().map(|k| st.add(&k.name)).collect();
    // Visible variables and functions are named (and get their symbols) after the kernels.
    for (v, name) in data.variables.iter().zip(var_names.iter_mut()) {
        if v.bind == Bind::Global {
            *name = st.add(&v.name);
        }
    }
    for ((k, names), aliases) in ks.iter().zip(sub_names.iter_mut()).zip(alias_names.iter_mut()) {
        for ((s, name), al) in k.subroutines.iter().zip(names.iter_mut()).zip(aliases.iter_mut()) {
            if s.bind == Bind::Global {
                *name = st.add(&s.name);
                *al = s.aliases.iter().map(|a| st.add(a)).collect();
            }
        }
    }
    for (i, k) in idx.iter().zip(ks) {
        let (a, b) = both(&mut sh, &mut st, &format!(".nv.constant0.{}", k.name));
        (names[i.const0], secsym[i.const0]) = (a, b);
    }

    let section_sym =
        |i: usize| Sym { name: secsym[i], info: elf::STT_SECTION, other: 0, shndx: i as u16, value: 0, size: 0 };
    let mut syms = vec![Sym { name: 0, info: 0, other: 0, shndx: 0, value: 0, size: 0 }];
    syms.push(section_sym(tk));
    syms.push(section_sym(cu));
    let reserved_syms = |syms: &mut Vec<Sym>| {
        syms.push(if image.reserved_offset0_resolved {
            Sym { name: 0, info: 0, other: elf::STV_INTERNAL, shndx: 0, value: 0, size: 0 }
        } else {
            Sym {
                name: smem_offset_name,
                info: (elf::STB_WEAK << 4) | elf::STT_OBJECT,
                other: 0,
                shndx: 0,
                value: 0,
                size: 4,
            }
        });
        syms.push(Sym {
            name: alias_name,
            info: elf::STB_WEAK << 4,
            other: 0xa0,
            shndx: reserved as u16,
            value: 0,
            size: 0,
        });
    };
    if ks.is_empty() {
        reserved_syms(&mut syms);
    }
    for (n, (i, k)) in idx.iter().zip(ks).enumerate() {
        syms.push(section_sym(i.text));
        if let (Some(s), Some(sh)) = (i.shared, k.shared)
            && sh.size > image.target.shared_reserved()
        {
            syms.push(section_sym(s));
        }
        if n == 0 {
            reserved_syms(&mut syms);
        }
    }
    for &c in &c2_names {
        syms.push(section_sym(c));
    }
    let mut var_syms = std::collections::HashMap::new();
    let var_sym = |v: &super::image::Variable, name: u32| Sym {
        name,
        info: (v.bind.stb() << 4) | elf::STT_OBJECT,
        other: 0,
        shndx: match v.space {
            Space::GlobalInit => gi,
            Space::Global => gl,
            Space::Constant => c3,
        }
        .unwrap_or_default() as u16,
        value: v.offset,
        size: v.size,
    };
    let mut vars = data.variables.iter().filter(|v| v.bind != Bind::Global);
    for &(sec, name) in &phase {
        match sec {
            Some(sec) => {
                syms.push(Sym { name, info: elf::STT_SECTION, other: 0, shndx: sec as u16, value: 0, size: 0 })
            }
            None => {
                let Some(v) = vars.next() else { continue };
                var_syms.insert(v.name.as_str(), syms.len() as u32);
                syms.push(var_sym(v, name));
            }
        }
    }
    for _ in 0..dropped {
        syms.push(Sym { name: 0, info: 0, other: elf::STV_INTERNAL, shndx: 0, value: 0, size: 0 });
    }
    let mut sub_syms: Vec<Vec<u32>> = Vec::new();
    let func_syms = |syms: &mut Vec<Sym>, s: &super::image::Subroutine, text: usize, name: u32, aliases: &[u32]| {
        let at = syms.len() as u32;
        for (n, size) in std::iter::once((name, s.size)).chain(aliases.iter().map(|&a| (a, 0))) {
            syms.push(Sym {
                name: n,
                info: (s.bind.stb() << 4) | elf::STT_FUNC,
                other: 0,
                shndx: text as u16,
                value: s.offset,
                size,
            });
        }
        at
    };
    for (((i, k), sn), al) in idx.iter().zip(ks).zip(&sub_names).zip(&alias_names) {
        let mut v = Vec::new();
        for ((s, &name), aliases) in k.subroutines.iter().zip(sn).zip(al) {
            if s.bind == Bind::Global {
                v.push(0); // after the kernels, below
                continue;
            }
            v.push(func_syms(&mut syms, s, i.text, name, aliases));
        }
        sub_syms.push(v);
    }
    if !ks.is_empty() {
        syms.push(section_sym(4));
    }
    for j in 0..nd {
        syms.push(section_sym(5 + j));
    }
    syms.push(section_sym(callgraph));
    for ((i, k), &name) in idx.iter_mut().zip(ks).zip(&kernel_names) {
        i.sym = syms.len() as u32;
        syms.push(Sym {
            name,
            info: (elf::STB_GLOBAL << 4) | elf::STT_FUNC,
            other: STO_CUDA_ENTRY,
            shndx: i.text as u16,
            value: 0,
            size: k.code.len() as u64,
        });
    }
    // The system functions the code calls through the address table (`vprintf`...): undefined
    // global functions, which the driver links (ptxas writes them after the kernels).
    for n in data.address_table.iter().filter(|n| crate::ptx::sema::instr::SYSTEM_FUNCTIONS.contains(&n.as_str())) {
        if !var_syms.contains_key(n.as_str()) {
            let name = st.add(n);
            var_syms.insert(n.as_str(), syms.len() as u32);
            syms.push(Sym {
                name,
                info: (elf::STB_GLOBAL << 4) | elf::STT_FUNC,
                other: 0,
                shndx: 0,
                value: 0,
                size: 0,
            });
        }
    }
    for (v, &name) in data.variables.iter().zip(&var_names) {
        if v.bind == Bind::Global {
            var_syms.insert(v.name.as_str(), syms.len() as u32);
            syms.push(var_sym(v, name));
        }
    }
    for ((((i, k), names), subs), al) in idx.iter().zip(ks).zip(&sub_names).zip(sub_syms.iter_mut()).zip(&alias_names) {
        for (((s, &name), sym), aliases) in k.subroutines.iter().zip(names).zip(subs.iter_mut()).zip(al) {
            if s.bind == Bind::Global {
                *sym = func_syms(&mut syms, s, i.text, name, aliases);
            }
        }
    }
    for i in idx.iter_mut() {
        i.const0_sym = syms.len() as u32;
        syms.push(section_sym(i.const0));
    }

    // ---- section contents ----
    let mut secs: Vec<Sec> = (0..shnum).map(|_| Sec::new("", elf::SHT_NULL, 0, 0)).collect();
    secs[1] = Sec::new(".shstrtab", elf::SHT_STRTAB, 0, 1);
    secs[2] = Sec::new(".strtab", elf::SHT_STRTAB, 0, 1);
    secs[3] = Sec::new(".symtab", elf::SHT_SYMTAB, 0, 8);
    secs[3].link = 2;
    // ptxas's sh_info is one past the last local symbol (with kernels, the `.nv.constant0`
    // section symbols close the table, so the whole table).
    secs[3].info = syms.iter().rposition(|s| s.info >> 4 == elf::STB_LOCAL).map_or(0, |i| i + 1) as u32;
    secs[3].entsize = 24;
    secs[3].body = Body::Data(symtab_bytes(&syms));

    let (frames, frame_relocs) = debug_frame(ks, &idx);
    secs[4] = Sec::new(".debug_frame", elf::SHT_PROGBITS, 0, 1);
    secs[4].body = Body::Data(frames);

    for (j, (name, bytes)) in debug_secs.iter().enumerate() {
        secs[5 + j] = Sec::new(*name, elf::SHT_PROGBITS, 0, 1);
        secs[5 + j].body = Body::Data(bytes.to_vec());
    }
    secs[tk] = Sec::new(".note.nv.tkinfo", elf::SHT_NOTE, 0x200_0000, 4);
    secs[tk].body = Body::Data(tkinfo(image));
    secs[cu] = Sec::new(".note.nv.cuinfo", elf::SHT_NOTE, 0x100_0000 | u64::from(elf::SHF_INFO_LINK), 4);
    secs[cu].link = tk as u32;
    secs[cu].info = cp as u32;
    secs[cu].body = Body::Data(cuinfo(image));

    secs[ginfo] = Sec::new(".nv.info", SHT_CUDA_INFO, 0, 4);
    secs[ginfo].link = 3;
    secs[ginfo].body = Body::Data(global_info(image, &idx, &sub_syms));
    secs[cp] = Sec::new(".nv.compat", SHT_CUDA_COMPAT_INFO, 0, 4);
    secs[cp].body = Body::Data(compat(image));
    for (i, k) in idx.iter().zip(ks) {
        let s = &mut secs[i.info];
        *s = Sec::new(format!(".nv.info.{}", k.name), SHT_CUDA_INFO, u64::from(elf::SHF_INFO_LINK), 4);
        s.link = 3;
        s.info = i.text as u32;
        s.body = Body::Data(kernel_records(image, k, i.const0_sym));
    }
    secs[callgraph] = Sec::new(".nv.callgraph", SHT_CUDA_CALLGRAPH, 0, 4);
    secs[callgraph].link = 3;
    secs[callgraph].entsize = 8;
    let mut cg = Vec::new();
    for m in 1..=4u32 {
        cg.extend_from_slice(&0u32.to_le_bytes());
        cg.extend_from_slice(&m.wrapping_neg().to_le_bytes());
    }
    secs[callgraph].body = Body::Data(cg);
    let rela = |name: String, target: usize, relocs: &[Reloc]| {
        let mut s = Sec::new(name, elf::SHT_RELA, u64::from(elf::SHF_INFO_LINK), 8);
        s.link = 3;
        s.info = target as u32;
        s.entsize = 24;
        let mut d = Vec::new();
        for &(off, sym, kind, addend) in relocs {
            let r = elf::Rela64::<LE> {
                r_offset: U64::new(LE, off),
                r_info: U64::new(LE, (u64::from(sym) << 32) | u64::from(kind)),
                r_addend: object::endian::I64::new(LE, addend),
            };
            d.extend_from_slice(bytes_of(&r));
        }
        s.body = Body::Data(d);
        s
    };
    for (i, k) in idx.iter().zip(ks) {
        if let Some(r) = i.rela_text {
            secs[r] = rela(format!(".rela.text.{}", k.name), i.text, &[]);
        }
        if let (Some(r), Some(c), Some(bytes)) = (i.rela_c2, i.c2, &k.constant2) {
            secs[r] = rela(format!(".rela.nv.constant2.{}", k.name), c, &[]);
            let x = &mut secs[c];
            *x = Sec::new(
                format!(".nv.constant2.{}", k.name),
                elf::SHT_PROGBITS,
                u64::from(elf::SHF_ALLOC | elf::SHF_INFO_LINK),
                4,
            );
            x.info = i.text as u32;
            x.body = Body::Data(bytes.clone());
        }
    }
    if let Some(r) = rela_frame {
        secs[r] = rela(".rela.debug_frame".into(), 4, &frame_relocs);
    }
    for (i, k) in idx.iter().zip(ks) {
        let t = &mut secs[i.text];
        *t = Sec::new(
            format!(".text.{}", k.name),
            elf::SHT_PROGBITS,
            u64::from(elf::SHF_ALLOC | elf::SHF_EXECINSTR),
            0x80,
        );
        t.link = 3;
        t.info = i.sym;
        t.body = Body::Data(k.code.clone());
        if let (Some(s), Some(sh)) = (i.shared, k.shared) {
            let x = &mut secs[s];
            *x = Sec::new(
                format!(".nv.shared.{}", k.name),
                elf::SHT_NOBITS,
                u64::from(elf::SHF_WRITE | elf::SHF_ALLOC | elf::SHF_INFO_LINK),
                sh.align,
            );
            x.info = i.text as u32;
            x.body = Body::NoBits(sh.size);
        }
        let c = &mut secs[i.const0];
        *c = Sec::new(
            format!(".nv.constant0.{}", k.name),
            elf::SHT_PROGBITS,
            u64::from(elf::SHF_ALLOC | elf::SHF_INFO_LINK),
            4,
        );
        c.info = i.text as u32;
        c.body = Body::Data(vec![0; (image.target.param_base() + k.param_size) as usize]);
    }
    // Module data.
    let mut by_name: std::collections::HashMap<&str, u32> = var_syms.clone();
    for (k, (i, subs)) in ks.iter().zip(idx.iter().zip(&sub_syms)) {
        by_name.entry(k.name.as_str()).or_insert(i.sym);
        for (s, &sym) in k.subroutines.iter().zip(subs) {
            by_name.entry(s.name.as_str()).or_insert(sym);
        }
    }
    let lookup = |what: &str, name: &str| {
        by_name.get(name).copied().ok_or_else(|| err(what.to_string(), format!("{name} is not a symbol of the image")))
    };
    let data_relocs = |what: &str, d: &DataSection| -> Result<Vec<Reloc>, CubinError> {
        let mut v = Vec::new();
        for r in d.relocations.iter().rev() {
            v.push((r.offset, lookup(what, &r.symbol)?, r.kind, r.addend));
        }
        Ok(v)
    };
    if let (Some(c4), Some(r)) = (c4, rela_c4) {
        let mut s4 = Sec::new(".nv.constant4", elf::SHT_PROGBITS, u64::from(elf::SHF_ALLOC), 8);
        s4.body = Body::Data(vec![0; 8 * data.address_table.len()]);
        secs[c4] = s4;
        let mut rel = Vec::new();
        for (slot, name) in data.address_table.iter().enumerate().rev() {
            rel.push((8 * slot as u64, lookup(".nv.constant4", name)?, R_CUDA_64, 0));
        }
        secs[r] = rela(".rela.nv.constant4".into(), c4, &rel);
    }
    for (sec, rel, d, name, flags) in [
        (c3, rela_c3, &data.constant3, "nv.constant3", elf::SHF_ALLOC),
        (gi, rela_gi, &data.global_init, "nv.global.init", elf::SHF_ALLOC | elf::SHF_WRITE),
    ] {
        if let (Some(sec), Some(d)) = (sec, d) {
            let mut x = Sec::new(format!(".{name}"), elf::SHT_PROGBITS, u64::from(flags), d.align);
            x.body = Body::Data(d.bytes.clone());
            secs[sec] = x;
            if let Some(r) = rel {
                secs[r] = rela(format!(".rela.{name}"), sec, &data_relocs(name, d)?);
            } else if !d.relocations.is_empty() {
                return Err(err(format!(".{name}"), "relocations need relocation_section"));
            }
        }
    }
    for (rel, sec, src, name) in [
        (rela_line, debug_secs.iter().position(|d| d.0 == ".debug_line"), &dbg.line, "debug_line"),
        (
            rela_line_sass,
            debug_secs.iter().position(|d| d.0 == ".nv_debug_line_sass"),
            &dbg.line_sass,
            "nv_debug_line_sass",
        ),
    ] {
        if let (Some(r), Some(j), Some((bytes, relocs))) = (rel, sec, src) {
            let d =
                DataSection { bytes: bytes.clone(), align: 1, relocations: relocs.clone(), relocation_section: true };
            secs[r] = rela(format!(".rela.{name}"), 5 + j, &data_relocs(name, &d)?);
        }
    }
    if let (Some(g), Some((size, align))) = (gl, data.global) {
        let mut x = Sec::new(".nv.global", elf::SHT_NOBITS, u64::from(elf::SHF_ALLOC | elf::SHF_WRITE), align);
        x.body = Body::NoBits(size);
        secs[g] = x;
    }
    secs[reserved] = Sec::new(".nv.shared.reserved.0", elf::SHT_NOBITS, u64::from(elf::SHF_WRITE | elf::SHF_ALLOC), 1);
    secs[reserved].body = Body::NoBits(0);
    secs[1].body = Body::Data(sh.bytes);
    secs[2].body = Body::Data(st.bytes);

    Ok(layout(image, &secs, &names))
}

fn align_to(x: u64, a: u64) -> u64 {
    if a <= 1 { x } else { x.div_ceil(a) * a }
}

/// Places the sections, then the section headers, then the program headers.
fn layout(image: &Image, secs: &[Sec], names: &[u32]) -> Vec<u8> {
    let mut out = vec![0u8; 64];
    let mut offsets = vec![0u64; secs.len()];
    for (i, s) in secs.iter().enumerate().skip(1) {
        if i == 2 {
            // Observed, unexplained: `.strtab` starts 14 + Σ(18 + length of the kernel's name)
            // zero bytes after the end of `.shstrtab` (every corpus cubin, and a two-kernel one).
            let gap = 14 + image.kernels.iter().map(|k| 18 + k.name.len()).sum::<usize>();
            out.resize(out.len() + gap, 0);
        }
        let at = align_to(out.len() as u64, s.align);
        out.resize(at as usize, 0);
        offsets[i] = at;
        if let Body::Data(d) = &s.body {
            out.extend_from_slice(d);
        }
    }
    let shoff = align_to(out.len() as u64, 8);
    out.resize(shoff as usize, 0);
    for (i, s) in secs.iter().enumerate() {
        let h = if i == 0 {
            elf::SectionHeader64::<LE> {
                sh_name: U32::new(LE, 0),
                sh_type: U32::new(LE, 0),
                sh_flags: U64::new(LE, 0),
                sh_addr: U64::new(LE, 0),
                sh_offset: U64::new(LE, 0),
                sh_size: U64::new(LE, 0),
                sh_link: U32::new(LE, 0),
                sh_info: U32::new(LE, 0),
                sh_addralign: U64::new(LE, 0),
                sh_entsize: U64::new(LE, 0),
            }
        } else {
            elf::SectionHeader64::<LE> {
                sh_name: U32::new(LE, names[i]),
                sh_type: U32::new(LE, s.kind),
                sh_flags: U64::new(LE, s.flags),
                sh_addr: U64::new(LE, 0),
                sh_offset: U64::new(LE, offsets[i]),
                sh_size: U64::new(LE, s.size()),
                sh_link: U32::new(LE, s.link),
                sh_info: U32::new(LE, s.info),
                sh_addralign: U64::new(LE, s.align),
                sh_entsize: U64::new(LE, s.entsize),
            }
        };
        out.extend_from_slice(bytes_of(&h));
    }
    let phoff = out.len() as u64;

    // Segments: PHDR, a LOAD over the program headers, then one LOAD per run of allocated
    // sections with the same permissions, in section order.
    let mut runs: Vec<(u32, u64, u64, u64)> = Vec::new(); // flags, offset, file end, memory end
    for (i, s) in secs.iter().enumerate().skip(1) {
        if s.flags & u64::from(elf::SHF_ALLOC) == 0 {
            continue;
        }
        let mut pf = elf::PF_R;
        if s.flags & u64::from(elf::SHF_WRITE) != 0 {
            pf |= elf::PF_W;
        }
        if s.flags & u64::from(elf::SHF_EXECINSTR) != 0 {
            pf |= elf::PF_X;
        }
        // The file part reaches the end of the last PROGBITS section or the offset of the last
        // NOBITS one; the memory part adds each NOBITS size after what came before it (NOBITS
        // sections share file offsets but not memory).
        let start = offsets[i];
        let nobits = matches!(s.body, Body::NoBits(_));
        let file_end = if nobits { start } else { start + s.size() };
        match runs.last_mut() {
            Some(r) if r.0 == pf => {
                r.2 = r.2.max(file_end);
                r.3 = if nobits { r.3.max(start) + s.size() } else { start + s.size() };
            }
            _ => runs.push((pf, start, file_end, start + s.size())),
        }
    }
    let phnum = 2 + runs.len() as u64;
    let phsize = phnum * 56;
    let ph = |kind: u32, flags: u32, off: u64, filesz: u64, memsz: u64| elf::ProgramHeader64::<LE> {
        p_type: U32::new(LE, kind),
        p_flags: U32::new(LE, flags),
        p_offset: U64::new(LE, off),
        p_vaddr: U64::new(LE, 0),
        p_paddr: U64::new(LE, 0),
        p_filesz: U64::new(LE, filesz),
        p_memsz: U64::new(LE, memsz),
        p_align: U64::new(LE, 8),
    };
    out.extend_from_slice(bytes_of(&ph(elf::PT_PHDR, elf::PF_R, phoff, phsize, phsize)));
    out.extend_from_slice(bytes_of(&ph(elf::PT_LOAD, elf::PF_R, phoff, phsize, phsize)));
    for (pf, off, file_end, mem_end) in runs {
        out.extend_from_slice(bytes_of(&ph(elf::PT_LOAD, pf, off, file_end - off, mem_end - off)));
    }

    let top: u32 = if image.debug { 0x0a } else { 0x06 };
    let flags = (top << 24) | (image.target.sm() << 8) | 0x04;
    let mut ident = [0u8; 16];
    ident[..4].copy_from_slice(&elf::ELFMAG);
    ident[4] = elf::ELFCLASS64;
    ident[5] = elf::ELFDATA2LSB;
    ident[6] = elf::EV_CURRENT;
    ident[7] = 0x41;
    ident[8] = 8;
    let header = elf::FileHeader64::<LE> {
        e_ident: elf::Ident {
            magic: elf::ELFMAG,
            class: ident[4],
            data: ident[5],
            version: ident[6],
            os_abi: ident[7],
            abi_version: ident[8],
            padding: [0; 7],
        },
        e_type: U16::new(LE, elf::ET_EXEC),
        e_machine: U16::new(LE, elf::EM_CUDA),
        e_version: U32::new(LE, u32::from(elf::EV_CURRENT)),
        e_entry: U64::new(LE, 0),
        e_phoff: U64::new(LE, phoff),
        e_shoff: U64::new(LE, shoff),
        e_flags: U32::new(LE, flags),
        e_ehsize: U16::new(LE, 64),
        e_phentsize: U16::new(LE, 56),
        e_phnum: U16::new(LE, phnum as u16),
        e_shentsize: U16::new(LE, 64),
        e_shnum: U16::new(LE, secs.len() as u16),
        e_shstrndx: U16::new(LE, 1),
    };
    out[..64].copy_from_slice(bytes_of(&header));
    out
}

fn symtab_bytes(syms: &[Sym]) -> Vec<u8> {
    let mut d = Vec::with_capacity(syms.len() * 24);
    for s in syms {
        let e = elf::Sym64::<LE> {
            st_name: U32::new(LE, s.name),
            st_info: s.info,
            st_other: s.other,
            st_shndx: U16::new(LE, s.shndx),
            st_value: U64::new(LE, s.value),
            st_size: U64::new(LE, s.size),
        };
        d.extend_from_slice(bytes_of(&e));
    }
    d
}

fn note(kind: u32, desc: &[u8]) -> Vec<u8> {
    const OWNER: &[u8] = b"NVIDIA Corp\0";
    let mut d = Vec::new();
    d.extend_from_slice(&(OWNER.len() as u32).to_le_bytes());
    d.extend_from_slice(&(desc.len() as u32).to_le_bytes());
    d.extend_from_slice(&kind.to_le_bytes());
    d.extend_from_slice(OWNER);
    d.extend_from_slice(desc);
    d.resize(align_to(d.len() as u64, 4) as usize, 0);
    d
}

fn tkinfo(image: &Image) -> Vec<u8> {
    let t = &image.tool;
    let mut blob = Vec::new();
    let mut offs = Vec::new();
    for s in [&t.object, &t.name, &t.version, &t.branch, &t.arguments] {
        offs.push(blob.len() as u32);
        blob.extend_from_slice(s.as_bytes());
        blob.push(0);
    }
    let mut desc = 2u32.to_le_bytes().to_vec();
    for o in offs {
        desc.extend_from_slice(&o.to_le_bytes());
    }
    desc.extend_from_slice(&blob);
    // The descriptor size itself is padded to 4 (the padding counts in n_descsz).
    desc.resize(align_to(desc.len() as u64, 4) as usize, 0);
    note(2000, &desc)
}

fn cuinfo(image: &Image) -> Vec<u8> {
    let mut desc = 2u16.to_le_bytes().to_vec();
    desc.extend_from_slice(&image.virtual_sm.to_le_bytes());
    desc.extend_from_slice(&image.toolkit.to_le_bytes());
    note(1000, &desc)
}

/// EIATTR/EICOMPAT record encoders.
fn nval(d: &mut Vec<u8>, code: u8) {
    d.extend_from_slice(&[1, code, 0, 0]);
}
fn bval(d: &mut Vec<u8>, code: u8, v: u8) {
    d.extend_from_slice(&[2, code, v, 0]);
}
fn hval(d: &mut Vec<u8>, code: u8, v: u16) {
    d.extend_from_slice(&[3, code]);
    d.extend_from_slice(&v.to_le_bytes());
}
fn sval_bytes(d: &mut Vec<u8>, code: u8, payload: &[u8]) {
    d.extend_from_slice(&[4, code]);
    d.extend_from_slice(&(payload.len() as u16).to_le_bytes());
    d.extend_from_slice(payload);
}
fn sval(d: &mut Vec<u8>, code: u8, words: &[u32]) {
    let p: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    sval_bytes(d, code, &p);
}

fn global_info(image: &Image, idx: &[KIdx], sub_syms: &[Vec<u32>]) -> Vec<u8> {
    use super::eiattr::code::*;
    let ks = &image.kernels;
    let mut d = Vec::new();
    if ks.is_empty() {
        // A module without kernels records only the Mercury ISA version (ptxas 13.0.88).
        hval(&mut d, MERCURY_ISA_VERSION, image.mercury_isa_version);
        return d;
    }
    // REGCOUNT and FRAME_SIZE kernel by kernel in PTX order (the reverse of emission order),
    // then MIN_STACK_SIZE in emission order.
    for ((k, i), subs) in ks.iter().zip(idx).zip(sub_syms).rev() {
        sval(&mut d, REGCOUNT, &[i.sym, k.registers]);
        // Local and weak device functions in reverse symbol order, each visible one inserted
        // before the first of those at a lower address (fits every corpus module).
        let mut order: Vec<(&super::image::Subroutine, u32)> =
            k.subroutines.iter().zip(subs.iter().copied()).filter(|(s, _)| s.bind != Bind::Global).rev().collect();
        for (s, sym) in k.subroutines.iter().zip(subs.iter().copied()).filter(|(s, _)| s.bind == Bind::Global) {
            let at = order.iter().position(|(o, _)| o.offset < s.offset).unwrap_or(order.len());
            order.insert(at, (s, sym));
        }
        for (s, sym) in order {
            sval(&mut d, FRAME_SIZE, &[sym, s.frame_size]);
        }
        sval(&mut d, FRAME_SIZE, &[i.sym, k.frame_size]);
    }
    for (k, i) in ks.iter().zip(idx) {
        sval(&mut d, MIN_STACK_SIZE, &[i.sym, k.min_stack_size]);
    }
    d
}

fn compat(image: &Image) -> Vec<u8> {
    use super::eiattr::compat_code::*;
    let c = &image.compat;
    let mut d = Vec::new();
    bval(&mut d, CUDA_ACCELERATOR_TARGET, u8::from(image.accelerated));
    bval(&mut d, ISA_CLASS, c.isa_class);
    bval(&mut d, INST_TCGEN05_MMA, c.tcgen05_mma);
    hval(&mut d, MERCURY_ISA_MAJOR_MINOR_VERSION, c.mercury_isa);
    bval(&mut d, INST_TENSORMAP_V1, c.tensormap_v1);
    bval(&mut d, ENABLE_OPPORTUNISTIC_FINALIZATION, c.opportunistic_finalization);
    sval(&mut d, CAN_FASTPATH_FINALIZE, &c.fastpath_finalize);
    d
}

fn kparam_words(ordinal: usize, p: &Param) -> [u32; 3] {
    [
        0,
        (ordinal as u32 & 0xffff) | (u32::from(p.offset) << 16),
        u32::from(p.log_align)
            | (u32::from(p.space & 0xf) << 8)
            | (0x1f << 12)
            | (u32::from(p.smem) << 17)
            | (u32::from(p.size & 0x3fff) << 18),
    ]
}

fn extra(d: &mut Vec<u8>, k: &Kernel, pick: impl Fn(&KernelAttr) -> bool) {
    for a in k.extra.iter().filter(|a| pick(a)) {
        let code = a.code();
        match a {
            KernelAttr::CtaPerCluster(v) => sval(d, code, v),
            KernelAttr::ReservedSmemUsed | KernelAttr::WmmaUsed => nval(d, code),
            KernelAttr::UnusedLoadByteOffset(w)
            | KernelAttr::IntWarpWideInstrOffsets(w)
            | KernelAttr::CoopGroupMaskRegids(w)
            | KernelAttr::CoopGroupInstrOffsets(w) => sval(d, code, w),
            KernelAttr::NumMbarriers(n) => hval(d, code, *n),
            KernelAttr::MbarrierInstrOffsets(m) => {
                let mut p = Vec::new();
                for e in m {
                    p.extend_from_slice(&e.offset.to_le_bytes());
                    p.extend_from_slice(&e.reg.to_le_bytes());
                    p.extend_from_slice(&e.imm.to_le_bytes());
                    p.extend_from_slice(&[(e.kind & 0xf) | ((e.stride & 3) << 4), e.flags, e.ureg, e.pad]);
                }
                sval_bytes(d, code, &p);
            }
            KernelAttr::IndirectBranchTargets(b) => {
                let mut w = Vec::new();
                for e in b {
                    w.extend_from_slice(&[e.offset, e.reserved, e.targets.len() as u32]);
                    w.extend_from_slice(&e.targets);
                }
                sval(d, code, &w);
            }
        }
    }
}

/// `.nv.info.<kernel>`, in the order ptxas 13.0.88 writes for sm_90:
/// CUDA_API_VERSION, KPARAM_INFO (last parameter first), CTA_PER_CLUSTER, RESERVED_SMEM_USED,
/// SPARSE_MMA_MASK, WMMA_USED, MAXREG_COUNT, NUM_BARRIERS, MERCURY_ISA_VERSION,
/// UNUSED_LOAD_BYTE_OFFSET, INT_WARP_WIDE_INSTR_OFFSETS, COOP_GROUP_MASK_REGIDS,
/// COOP_GROUP_INSTR_OFFSETS, MBARRIER_INSTR_OFFSETS, NUM_MBARRIERS, EXIT_INSTR_OFFSETS,
/// INDIRECT_BRANCH_TARGETS, MAX_THREADS, REQNTID, CRS_STACK_SIZE, CBANK_PARAM_SIZE,
/// PARAM_CBANK, SW_WAR.
fn kernel_records(image: &Image, k: &Kernel, const0_sym: u32) -> Vec<u8> {
    use super::eiattr::code::*;
    let mut d = Vec::new();
    let is = |c: u8| move |a: &KernelAttr| a.code() == c;
    sval(&mut d, CUDA_API_VERSION, &[image.toolkit]);
    for (i, p) in k.params.iter().enumerate().rev() {
        sval(&mut d, KPARAM_INFO, &kparam_words(i, p));
    }
    extra(&mut d, k, is(0x3d));
    extra(&mut d, k, is(0x41));
    hval(&mut d, SPARSE_MMA_MASK, k.sparse_mma_mask);
    extra(&mut d, k, is(0x2b));
    hval(&mut d, MAXREG_COUNT, k.maxreg);
    if let Some(b) = k.num_barriers {
        bval(&mut d, NUM_BARRIERS, b);
    }
    hval(&mut d, MERCURY_ISA_VERSION, image.mercury_isa_version);
    for c in [0x44, INT_WARP_WIDE_INSTR_OFFSETS, COOP_GROUP_MASK_REGIDS, COOP_GROUP_INSTR_OFFSETS] {
        extra(&mut d, k, is(c));
    }
    extra(&mut d, k, is(MBARRIER_INSTR_OFFSETS));
    extra(&mut d, k, is(NUM_MBARRIERS));
    sval(&mut d, EXIT_INSTR_OFFSETS, &k.exit_offsets);
    extra(&mut d, k, is(INDIRECT_BRANCH_TARGETS));
    if let Some(t) = k.max_threads {
        sval(&mut d, MAX_THREADS, &t);
    }
    if let Some(t) = k.reqntid {
        sval(&mut d, REQNTID, &t);
    }
    if let Some(c) = k.crs_stack_size {
        sval(&mut d, CRS_STACK_SIZE, &[c]);
    }
    hval(&mut d, CBANK_PARAM_SIZE, k.param_size as u16);
    sval(&mut d, PARAM_CBANK, &[const0_sym, (k.param_size << 16) | image.target.param_base()]);
    sval(&mut d, SW_WAR, &[image.sw_war]);
    d
}

/// Appends `v` as unsigned LEB128 (DWARF).
pub fn uleb(d: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            d.push(b);
            return;
        }
        d.push(b | 0x80);
    }
}

/// Encodes CFA instructions; returns the byte offsets (within `d`) of `DW_OP_addr` operands.
fn cfa_bytes(d: &mut Vec<u8>, ops: &[Cfa]) -> Vec<usize> {
    let mut fixups = Vec::new();
    for op in ops {
        match op {
            Cfa::AdvanceLoc4(n) => {
                d.push(0x04);
                d.extend_from_slice(&n.to_le_bytes());
            }
            Cfa::DefCfa { reg, offset } => {
                d.push(0x0c);
                uleb(d, *reg);
                uleb(d, *offset);
            }
            Cfa::DefCfaOffset(o) => {
                d.push(0x0e);
                uleb(d, *o);
            }
            Cfa::SameValue(r) => {
                d.push(0x08);
                uleb(d, *r);
            }
            Cfa::Register { reg, to } => {
                d.push(0x09);
                uleb(d, *reg);
                uleb(d, *to);
            }
            Cfa::OffsetExtended { reg, offset } => {
                d.push(0x05);
                uleb(d, *reg);
                uleb(d, *offset);
            }
            Cfa::RestoreExtended(r) => {
                d.push(0x06);
                uleb(d, *r);
            }
            Cfa::Expression { reg, expr } => {
                d.push(0x10);
                uleb(d, *reg);
                uleb(d, expr.len() as u64);
                d.extend_from_slice(expr);
            }
            Cfa::ValExpression { reg, expr } => {
                d.push(0x16);
                uleb(d, *reg);
                uleb(d, expr.len() as u64);
                if expr.first() == Some(&0x03) && expr.len() >= 9 {
                    fixups.push(d.len() + 1);
                }
                d.extend_from_slice(expr);
            }
        }
    }
    fixups
}

/// Pads a CIE/FDE body (everything after the 12-byte DWARF64 length) with `DW_CFA_nop` so the
/// whole entry is a multiple of 8 bytes, and prefixes the length.
fn entry(body: Vec<u8>) -> Vec<u8> {
    let len = align_to(12 + body.len() as u64, 8) - 12;
    let mut d = vec![0xff, 0xff, 0xff, 0xff];
    d.extend_from_slice(&len.to_le_bytes());
    d.extend_from_slice(&body);
    d.resize(12 + len as usize, 0);
    d
}

/// `.debug_frame` and its relocations `(offset, symbol, addend)`.
fn debug_frame(ks: &[Kernel], idx: &[KIdx]) -> (Vec<u8>, Vec<Reloc>) {
    let mut d = Vec::new();
    let mut fde_relocs = Vec::new();
    let mut cie_relocs = Vec::new();
    for (k, i) in ks.iter().zip(idx) {
        for f in &k.frames {
            let (cie, fde, fix) = frame_entries(f);
            let cie_at = d.len() as u64;
            for x in fix {
                cie_relocs.push((cie_at + x as u64, i.sym, R_CUDA_64, 0));
            }
            d.extend_from_slice(&cie);
            let fde_at = d.len() as u64;
            let mut body = cie_at.to_le_bytes().to_vec();
            body.extend_from_slice(&f.start.to_le_bytes());
            body.extend_from_slice(&f.range.to_le_bytes());
            body.extend_from_slice(&fde);
            fde_relocs.push((fde_at + 20, i.sym, R_CUDA_64, f.start as i64));
            d.extend_from_slice(&entry(body));
        }
    }
    fde_relocs.reverse();
    cie_relocs.reverse();
    fde_relocs.extend(cie_relocs);
    (d, fde_relocs)
}

/// The CIE entry, the FDE instruction bytes, and the CIE's address fixups (entry offsets).
fn frame_entries(f: &Frame) -> (Vec<u8>, Vec<u8>, Vec<usize>) {
    let mut body = u64::MAX.to_le_bytes().to_vec(); // CIE id
    body.extend_from_slice(&[3, 0, 4, 0x7c]); // version, "", code align 4, data align -4
    uleb(&mut body, f.return_address);
    let fix = cfa_bytes(&mut body, &f.cie);
    let fix = fix.into_iter().map(|x| x + 12).collect();
    let mut fde = Vec::new();
    cfa_bytes(&mut fde, &f.fde);
    (entry(body), fde, fix)
}
