//! [`from_cubin`]: the [`Image`] a parsed cubin describes, built on the reader
//! ([`super::Cubin`]). Its purpose is to check the writer: `write(from_cubin(c))` must give
//! back `c`'s bytes.
//!
//! Invariants: it never panics; anything the image cannot describe (an unknown EIATTR, a
//! section kind the writer does not produce, code relocations, ET_REL input) is a located
//! [`CubinError`] rather than a silently lossy image. Facts only `ptxas -v` knows (spills,
//! device functions' own frames) are left at their defaults in [`Image`]'s `report`.

use super::eiattr::{Table, Value, code, compat_code};
use super::elf::{Cubin, ElfType};
use super::error::CubinError;
use super::image::{
    Bind, Cfa, Compat, DataReloc, DataSection, DebugInfo, Frame, Image, Kernel, KernelAttr, ModuleData, Param, Report,
    Shared, Space, Subroutine, ToolInfo, Variable,
};
use object::elf;

/// Section bytes with their relocations.
type Bytes = (Vec<u8>, Vec<DataReloc>);

fn err(at: impl Into<String>, what: impl Into<String>) -> CubinError {
    CubinError::new(at, what)
}

/// Sections the writer produces (per-kernel ones by prefix).
fn known_section(name: &str) -> bool {
    const FIXED: [&str; 17] = [
        ".debug_line",
        ".debug_str",
        ".nv_debug_line_sass",
        ".nv_debug_ptx_txt",
        ".rela.debug_line",
        ".rela.nv_debug_line_sass",
        "",
        ".shstrtab",
        ".strtab",
        ".symtab",
        ".debug_frame",
        ".note.nv.tkinfo",
        ".note.nv.cuinfo",
        ".nv.info",
        ".nv.compat",
        ".nv.callgraph",
        ".rela.debug_frame",
    ];
    FIXED.contains(&name)
        || name == ".nv.shared.reserved.0"
        || [".nv.constant3", ".nv.constant4", ".nv.global.init", ".nv.global"]
            .iter()
            .any(|d| name == *d || name.strip_prefix(".rela") == Some(d))
        || [
            ".nv.info.",
            ".rela.text.",
            ".text.",
            ".nv.shared.",
            ".nv.constant0.",
            ".nv.constant2.",
            ".rela.nv.constant2.",
        ]
        .iter()
        .any(|p| name.starts_with(p))
}

/// The image `c` describes.
pub fn from_cubin(c: &Cubin) -> Result<Image, CubinError> {
    if c.header.kind != ElfType::Exec {
        return Err(err("ELF header", "only ET_EXEC cubins are described by an Image"));
    }
    if let Some(s) = c.sections.iter().find(|s| !known_section(&s.name)) {
        return Err(err(format!("section {}", s.name), "not a section the writer produces (yet)"));
    }
    let sm = c.sm();
    let target = crate::target::Target::from_arch(&format!("sm_{sm}"))
        .map_err(|e| err("ELF header", format!("e_flags SM {sm}: {e}")))?;
    let mut image = Image::new(&target);
    image.debug = c.header.flags >> 24 == 0x0a;
    image.accelerated = c.accelerated();
    image.reserved_offset0_resolved =
        c.section(".nv.shared.reserved.0").is_some() && !c.symbols.iter().any(|s| s.name == ".nv.reservedSmem.offset0");
    let cu = c.notes.iter().find_map(|n| n.cuinfo()).ok_or_else(|| err(".note.nv.cuinfo", "missing"))?;
    image.virtual_sm = cu.virtual_sm;
    image.toolkit = cu.toolkit;
    let tk = c.notes.iter().find_map(|n| n.tkinfo()).ok_or_else(|| err(".note.nv.tkinfo", "missing"))?;
    image.tool = ToolInfo {
        object: tk.object,
        name: tk.tool_name,
        version: tk.tool_version,
        branch: tk.tool_branch,
        arguments: tk.arguments,
    };
    image.compat = compat(c)?;
    image.data = module_data(c)?;
    let bytes = |name: &str| c.section(name).map(|s| s.data.clone());
    let with_relocs = |name: &str| -> Result<Option<Bytes>, CubinError> {
        let Some(s) = c.section(name) else { return Ok(None) };
        if c.section(&format!(".rela{name}")).is_none() {
            return Err(err(format!("section {name}"), "no relocation section beside it"));
        }
        let mut v: Vec<DataReloc> = c
            .relocations
            .iter()
            .filter(|r| r.target == s.index)
            .map(|r| DataReloc {
                offset: r.offset,
                symbol: c.symbols[r.symbol as usize].name.clone(),
                kind: r.kind,
                addend: r.addend.unwrap_or(0),
            })
            .collect();
        v.sort_by_key(|r| r.offset);
        Ok(Some((s.data.clone(), v)))
    };
    image.debug_info = DebugInfo {
        line: with_relocs(".debug_line")?,
        str: bytes(".debug_str"),
        line_sass: with_relocs(".nv_debug_line_sass")?,
        ptx_txt: bytes(".nv_debug_ptx_txt"),
    };

    let frames = frames(c)?;
    for f in c.functions.iter().filter(|f| f.kernel) {
        let at = format!("kernel {}", f.name);
        let text = &c.sections[f.section as usize];
        if f.offset != 0 {
            return Err(err(&at, "the kernel does not start its .text section"));
        }
        let gattr = |code| c.global_attr(code, f.symbol);
        let mut k = Kernel {
            name: f.name.clone(),
            code: text.data.clone(),
            registers: gattr(code::REGCOUNT).ok_or_else(|| err(&at, "no EIATTR_REGCOUNT"))?,
            params: Vec::new(),
            param_size: 0,
            frame_size: gattr(code::FRAME_SIZE).unwrap_or(0),
            min_stack_size: gattr(code::MIN_STACK_SIZE).unwrap_or(0),
            shared: None,
            maxreg: 0xff,
            sparse_mma_mask: 0,
            max_threads: None,
            reqntid: None,
            num_barriers: None,
            exit_offsets: Vec::new(),
            crs_stack_size: None,
            extra: Vec::new(),
            subroutines: Vec::new(),
            frames: frames.iter().filter(|(sym, _)| *sym == f.symbol).map(|(_, fr)| fr.clone()).collect(),
            constant2: None,
            code_relocation_section: false,
            report: Report::default(),
        };
        for s in &c.functions {
            if s.kernel || s.section != f.section {
                continue;
            }
            if s.words.is_empty() {
                // An alias: a size-0 symbol right after the function it names.
                let target = k.subroutines.last_mut().filter(|t| t.offset == s.offset);
                let target = target.ok_or_else(|| err(&at, format!("alias {} follows no function", s.name)))?;
                target.aliases.push(s.name.clone());
                continue;
            }
            k.subroutines.push(Subroutine {
                name: s.name.clone(),
                offset: s.offset,
                size: s.words.len() as u64 * 16,
                bind: bind_of(s.bind).ok_or_else(|| err(&at, format!("{}: unknown binding", s.name)))?,
                frame_size: c.global_attr(code::FRAME_SIZE, s.symbol).unwrap_or(0),
                aliases: Vec::new(),
            });
        }
        kernel_info(c, &mut image, &mut k, &at)?;
        if let Some(s) = c.section(&format!(".nv.shared.{}", f.name)) {
            let nameless = c.symbols.iter().filter(|s| s.name.is_empty() && s.info == 0 && s.other == 1).count();
            let dropped = nameless.saturating_sub(usize::from(image.reserved_offset0_resolved)) as u32;
            k.shared = Some(Shared { size: s.size, align: s.align, dropped_symbols: dropped });
        }
        if let Some(s) = c.section(&format!(".nv.constant2.{}", f.name)) {
            let rela = c.section(&format!(".rela.nv.constant2.{}", f.name));
            if rela.is_none_or(|r| r.size != 0) || s.align != 4 {
                return Err(err(&at, "a jump-table bank without its empty relocation section"));
            }
            k.constant2 = Some(s.data.clone());
        }
        if let Some(r) = c.section(&format!(".rela.text.{}", f.name)) {
            if r.size != 0 {
                return Err(err(&at, "code relocations are not described by an Image yet"));
            }
            k.code_relocation_section = true;
        }
        image.kernels.push(k);
    }
    if image.kernels.is_empty() {
        // A module without kernels (a library of device functions and data): ptxas writes
        // no code, and its `.nv.info` holds the Mercury ISA version alone.
        let global = c.info.iter().find(|i| i.table == Table::Info && i.text_section.is_none());
        let records = global.map(|g| g.records.as_slice()).unwrap_or_default();
        match records {
            [r] if r.code == code::MERCURY_ISA_VERSION => match r.value(Table::Info) {
                Value::Half(h) => image.mercury_isa_version = h,
                v => return Err(err(".nv.info", format!("MERCURY_ISA_VERSION is {v:?}, not a half word"))),
            },
            _ => {
                return Err(err(
                    ".nv.info",
                    "a module without kernels whose records are not MERCURY_ISA_VERSION alone",
                ));
            }
        }
        if !c.functions.is_empty() {
            return Err(err("symbol table", "functions without a kernel"));
        }
    }
    Ok(image)
}

fn compat(c: &Cubin) -> Result<Compat, CubinError> {
    let sec = c.info.iter().find(|i| i.table == Table::Compat).ok_or_else(|| err(".nv.compat", "missing"))?;
    let codes: Vec<u8> = sec.records.iter().map(|r| r.code).collect();
    use compat_code::*;
    let want = [
        CUDA_ACCELERATOR_TARGET,
        ISA_CLASS,
        INST_TCGEN05_MMA,
        MERCURY_ISA_MAJOR_MINOR_VERSION,
        INST_TENSORMAP_V1,
        ENABLE_OPPORTUNISTIC_FINALIZATION,
        CAN_FASTPATH_FINALIZE,
    ];
    if codes != want {
        return Err(err(".nv.compat", format!("records {codes:?} are not ptxas's sm_90 sequence {want:?}")));
    }
    let r = &sec.records;
    let w = super::bytes::words(&r[6].payload);
    if w.len() != 2 || r[6].payload.len() != 8 {
        return Err(err(".nv.compat", "CAN_FASTPATH_FINALIZE is not 8 bytes"));
    }
    Ok(Compat {
        isa_class: r[1].x as u8,
        tcgen05_mma: r[2].x as u8,
        mercury_isa: r[3].x,
        tensormap_v1: r[4].x as u8,
        opportunistic_finalization: r[5].x as u8,
        fastpath_finalize: [w[0], w[1]],
    })
}

fn kernel_info(c: &Cubin, image: &mut Image, k: &mut Kernel, at: &str) -> Result<(), CubinError> {
    let info = c.function_info(&k.name).ok_or_else(|| err(at, "no .nv.info.<kernel>"))?;
    let mut params = Vec::new();
    for r in &info.records {
        let v = r.value(Table::Info);
        let bad = || {
            err(
                format!("section {}", info.name),
                format!("record at {:#x} ({:?}) is unexpected", r.offset, r.value(Table::Info)),
            )
        };
        use code::*;
        match (r.code, v) {
            (CUDA_API_VERSION, Value::Word(w)) if w == image.toolkit => {}
            (KPARAM_INFO, Value::KParam(p)) if p.index == 0 && p.cbank == 0x1f => params.push(p),
            (SPARSE_MMA_MASK, Value::Half(h)) => k.sparse_mma_mask = h,
            (MAXREG_COUNT, Value::Half(h)) => k.maxreg = h,
            (NUM_BARRIERS, Value::Byte(b)) => k.num_barriers = Some(b),
            (MERCURY_ISA_VERSION, Value::Half(h)) => image.mercury_isa_version = h,
            (EXIT_INSTR_OFFSETS, Value::Offsets(o)) => k.exit_offsets = o,
            (CRS_STACK_SIZE, Value::Word(w)) => k.crs_stack_size = Some(w),
            (MAX_THREADS, Value::Dim3(d)) => k.max_threads = Some(d),
            (REQNTID, Value::Dim3(d)) => k.reqntid = Some(d),
            (CBANK_PARAM_SIZE, Value::Half(h)) => k.param_size = u32::from(h),
            (PARAM_CBANK, Value::ParamCbank { base, size, .. }) if u32::from(base) == image.target.param_base() => {
                if u32::from(size) != k.param_size {
                    return Err(bad());
                }
            }
            (SW_WAR, Value::Word(w)) => image.sw_war = w,
            (0x3d, Value::Words(w)) if w.len() == 3 => k.extra.push(KernelAttr::CtaPerCluster([w[0], w[1], w[2]])),
            (0x41, Value::Flag) => k.extra.push(KernelAttr::ReservedSmemUsed),
            (0x2b, Value::Flag) => k.extra.push(KernelAttr::WmmaUsed),
            (0x44, Value::Words(w)) => k.extra.push(KernelAttr::UnusedLoadByteOffset(w)),
            (INT_WARP_WIDE_INSTR_OFFSETS, Value::Offsets(w)) => k.extra.push(KernelAttr::IntWarpWideInstrOffsets(w)),
            (COOP_GROUP_MASK_REGIDS, Value::Words(w)) => k.extra.push(KernelAttr::CoopGroupMaskRegids(w)),
            (COOP_GROUP_INSTR_OFFSETS, Value::Offsets(w)) => k.extra.push(KernelAttr::CoopGroupInstrOffsets(w)),
            (MBARRIER_INSTR_OFFSETS, Value::Mbarriers(m)) => k.extra.push(KernelAttr::MbarrierInstrOffsets(m)),
            (NUM_MBARRIERS, Value::Half(h)) => k.extra.push(KernelAttr::NumMbarriers(h)),
            (INDIRECT_BRANCH_TARGETS, Value::IndirectBranches(b)) => k.extra.push(KernelAttr::IndirectBranchTargets(b)),
            _ => return Err(bad()),
        }
    }
    params.sort_by_key(|p| p.ordinal);
    for (i, p) in params.iter().enumerate() {
        if usize::from(p.ordinal) != i {
            return Err(err(at, format!("KPARAM_INFO ordinals are not 0..{}", params.len())));
        }
        k.params.push(Param { offset: p.offset, size: p.size, log_align: p.log_align, space: p.space, smem: p.smem });
    }
    Ok(())
}

/// Reads an unsigned LEB128 at `*i`.
fn uleb(d: &[u8], i: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *d.get(*i)?;
        *i += 1;
        if shift >= 64 {
            return None;
        }
        v |= u64::from(b & 0x7f) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
}

/// Decodes CFA instructions; trailing `DW_CFA_nop`s are padding. `None` for an op the image
/// cannot describe or a nop followed by more instructions.
fn cfa(d: &[u8]) -> Option<Vec<Cfa>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < d.len() {
        let op = d[i];
        i += 1;
        out.push(match op {
            0x00 => {
                return d[i..].iter().all(|&b| b == 0).then_some(out);
            }
            0x04 => {
                let b = d.get(i..i + 4)?;
                i += 4;
                Cfa::AdvanceLoc4(u32::from_le_bytes(b.try_into().ok()?))
            }
            0x0c => {
                let reg = uleb(d, &mut i)?;
                Cfa::DefCfa { reg, offset: uleb(d, &mut i)? }
            }
            0x0e => Cfa::DefCfaOffset(uleb(d, &mut i)?),
            0x08 => Cfa::SameValue(uleb(d, &mut i)?),
            0x09 => {
                let reg = uleb(d, &mut i)?;
                Cfa::Register { reg, to: uleb(d, &mut i)? }
            }
            0x05 => {
                let reg = uleb(d, &mut i)?;
                Cfa::OffsetExtended { reg, offset: uleb(d, &mut i)? }
            }
            0x06 => Cfa::RestoreExtended(uleb(d, &mut i)?),
            0x10 => {
                let reg = uleb(d, &mut i)?;
                let n = usize::try_from(uleb(d, &mut i)?).ok()?;
                let expr = d.get(i..i.checked_add(n)?)?.to_vec();
                i += n;
                Cfa::Expression { reg, expr }
            }
            0x16 => {
                let reg = uleb(d, &mut i)?;
                let n = usize::try_from(uleb(d, &mut i)?).ok()?;
                let expr = d.get(i..i.checked_add(n)?)?.to_vec();
                i += n;
                Cfa::ValExpression { reg, expr }
            }
            _ => return None,
        });
    }
    Some(out)
}

/// `.debug_frame`'s CIE/FDE pairs with the symbol each FDE's start is relocated against.
fn frames(c: &Cubin) -> Result<Vec<(u32, Frame)>, CubinError> {
    let Some(s) = c.section(".debug_frame") else { return Ok(Vec::new()) };
    let at = || "section .debug_frame".to_string();
    let d = &s.data;
    let q = |o: usize| super::bytes::u64_at(d, o as u64);
    let mut cies: Vec<(usize, u64, Vec<Cfa>)> = Vec::new();
    let mut out = Vec::new();
    let mut o = 0usize;
    while o < d.len() {
        if super::bytes::u32_at(d, o as u64) != Some(0xffff_ffff) {
            return Err(err(at(), format!("entry at {o:#x} is not DWARF64")));
        }
        let len = q(o + 4).ok_or_else(|| err(at(), format!("entry at {o:#x} is truncated")))? as usize;
        let end = (o + 12).checked_add(len).filter(|&e| e <= d.len());
        let end = end.ok_or_else(|| err(at(), format!("entry at {o:#x} runs past the end")))?;
        let id = q(o + 12).unwrap_or(0);
        if id == u64::MAX {
            // CIE: version 3, "", code alignment 4, data alignment -4, return-address column.
            if d.get(o + 20..o + 24) != Some(&[3, 0, 4, 0x7c][..]) {
                return Err(err(at(), format!("CIE at {o:#x} has an unexpected header")));
            }
            let mut i = o + 24;
            let ra = uleb(&d[..end], &mut i).ok_or_else(|| err(at(), format!("CIE at {o:#x} is truncated")))?;
            let ops = cfa(&d[i..end]).ok_or_else(|| err(at(), format!("CIE at {o:#x}: unsupported CFA")))?;
            cies.push((o, ra, ops));
        } else {
            let (_, return_address, cie) = cies
                .iter()
                .find(|(p, _, _)| *p as u64 == id)
                .ok_or_else(|| err(at(), format!("FDE at {o:#x} names no CIE")))?
                .clone();
            let range = q(o + 28).unwrap_or(0);
            let fde = cfa(d.get(o + 36..end).unwrap_or_default())
                .ok_or_else(|| err(at(), format!("FDE at {o:#x}: unsupported CFA")))?;
            let rel = c
                .relocations
                .iter()
                .find(|r| r.target == s.index && r.offset == (o + 20) as u64)
                .ok_or_else(|| err(at(), format!("FDE at {o:#x} has no relocation")))?;
            let start = rel.addend.unwrap_or(0) as u64;
            if q(o + 20) != Some(start) {
                return Err(err(at(), format!("FDE at {o:#x}: initial location differs from its relocation's addend")));
            }
            out.push((rel.symbol, Frame { return_address, cie, start, range, fde }));
        }
        o = end;
    }
    Ok(out)
}

fn bind_of(stb: u8) -> Option<Bind> {
    match stb {
        elf::STB_LOCAL => Some(Bind::Local),
        elf::STB_GLOBAL => Some(Bind::Global),
        elf::STB_WEAK => Some(Bind::Weak),
        _ => None,
    }
}

/// `.nv.global*`, `.nv.constant3`, `.nv.constant4` and their variables.
fn module_data(c: &Cubin) -> Result<ModuleData, CubinError> {
    let mut m = ModuleData::default();
    let index = |name: &str| c.section(name).map(|s| s.index);
    let relocs_of = |sec: u32| -> Result<Vec<DataReloc>, CubinError> {
        let mut v: Vec<DataReloc> = c
            .relocations
            .iter()
            .filter(|r| r.target == sec)
            .map(|r| DataReloc {
                offset: r.offset,
                symbol: c.symbols[r.symbol as usize].name.clone(),
                kind: r.kind,
                addend: r.addend.unwrap_or(0),
            })
            .collect();
        v.sort_by_key(|r| r.offset);
        if v.iter().any(|r| r.symbol.is_empty()) {
            return Err(err("data relocations", "a relocation against a nameless symbol"));
        }
        Ok(v)
    };
    let data = |name: &str| -> Result<Option<DataSection>, CubinError> {
        let Some(s) = c.section(name) else { return Ok(None) };
        Ok(Some(DataSection {
            bytes: s.data.clone(),
            align: s.align,
            relocations: relocs_of(s.index)?,
            relocation_section: c.section(&format!(".rela{name}")).is_some(),
        }))
    };
    m.global_init = data(".nv.global.init")?;
    m.constant3 = data(".nv.constant3")?;
    m.global = c.section(".nv.global").map(|s| (s.size, s.align));
    if let Some(s4) = c.section(".nv.constant4") {
        let rel = relocs_of(s4.index)?;
        if s4.data.iter().any(|&b| b != 0) || rel.len() as u64 * 8 != s4.size {
            return Err(err(".nv.constant4", "not a plain address table"));
        }
        for (slot, r) in rel.iter().enumerate() {
            if r.offset != 8 * slot as u64 || r.kind != 2 || r.addend != 0 {
                return Err(err(".nv.constant4", format!("slot {slot} is not a plain R_CUDA_64")));
            }
            m.address_table.push(r.symbol.clone());
        }
    }
    let (gi, gl, c3) = (index(".nv.global.init"), index(".nv.global"), index(".nv.constant3"));
    for s in &c.symbols {
        if s.kind() != elf::STT_OBJECT || s.shndx == 0 {
            continue;
        }
        let space = match Some(u32::from(s.shndx)) {
            x if x == gi => Space::GlobalInit,
            x if x == gl => Space::Global,
            x if x == c3 => Space::Constant,
            _ => return Err(err(format!("symbol {}", s.name), "an object outside the module data sections")),
        };
        let bind = bind_of(s.bind()).filter(|_| s.other == 0);
        let bind = bind.ok_or_else(|| err(format!("symbol {}", s.name), "an unknown binding or visibility"))?;
        m.variables.push(Variable { name: s.name.clone(), bind, space, offset: s.value, size: s.size });
    }
    // ptxas's processing order: weak, then visible, then internal variables.
    m.variables.sort_by_key(|v| match v.bind {
        Bind::Weak => 0,
        Bind::Global => 1,
        Bind::Local => 2,
    });
    Ok(m)
}
