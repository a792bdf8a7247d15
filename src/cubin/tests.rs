//! Unit tests on hand-built cubins: the happy path, malformed input (located errors, never a
//! panic), and cuobjdump's text for the common records.

use super::eiattr::{Format, Table, Value, code, parse_records};
use super::*;

/// A small ET_EXEC sm_90 cubin: one kernel `k` (2 instructions, regcount 10, one 8-byte param).
struct Builder {
    sections: Vec<(String, u32, u64, u32, u32, Vec<u8>)>, // name, type, flags, link, info, data
}

fn rec(fmt: u8, attr: u8, x: u16, payload: &[u32]) -> Vec<u8> {
    let mut v = vec![fmt, attr];
    v.extend_from_slice(&x.to_le_bytes());
    for w in payload {
        v.extend_from_slice(&w.to_le_bytes());
    }
    v
}

fn sym(name: u32, info: u8, other: u8, shndx: u16, value: u64, size: u64) -> Vec<u8> {
    let mut v = name.to_le_bytes().to_vec();
    v.extend_from_slice(&[info, other]);
    v.extend_from_slice(&shndx.to_le_bytes());
    v.extend_from_slice(&value.to_le_bytes());
    v.extend_from_slice(&size.to_le_bytes());
    v
}

impl Builder {
    fn sample() -> Builder {
        // Section indices: 1 .shstrtab, 2 .strtab, 3 .symtab, 4 .nv.info, 5 .nv.info.k,
        // 6 .nv.callgraph, 7 .note.nv.cuinfo, 8 .text.k, 9 .nv.constant0.k.
        let strtab = b"\0k\0.nv.constant0.k\0".to_vec();
        let mut symtab = sym(0, 0, 0, 0, 0, 0);
        symtab.extend(sym(1, 0x12, 0x10, 8, 0, 32)); // 1: k, GLOBAL FUNC, entry
        symtab.extend(sym(3, 0x03, 0, 9, 0, 0)); // 2: section symbol of .nv.constant0.k
        let mut global = rec(4, code::REGCOUNT, 8, &[1, 10]);
        global.extend(rec(4, code::FRAME_SIZE, 8, &[1, 0]));
        let mut per = rec(4, code::CUDA_API_VERSION, 4, &[0x82]);
        per.extend(rec(4, code::KPARAM_INFO, 12, &[0, 0, 0x0021_f000]));
        per.extend(rec(3, code::MAXREG_COUNT, 0xff, &[]));
        per.extend(rec(3, code::MERCURY_ISA_VERSION, 0x101, &[]));
        per.extend(rec(2, code::NUM_BARRIERS, 1, &[]));
        per.extend(rec(1, code::SW2861232_WAR, 0, &[]));
        per.extend(rec(4, code::EXIT_INSTR_OFFSETS, 4, &[0x10]));
        per.extend(rec(3, code::CBANK_PARAM_SIZE, 8, &[]));
        per.extend(rec(4, code::PARAM_CBANK, 8, &[2, 0x0008_0210]));
        let mut note = vec![];
        for w in [12u32, 8, 1000] {
            note.extend_from_slice(&w.to_le_bytes());
        }
        note.extend_from_slice(b"NVIDIA Corp\0");
        note.extend_from_slice(&[2, 0, 90, 0, 0x82, 0, 0, 0]);
        let mut text = 0x000fc000_00000000_00000000_00007918u128.to_le_bytes().to_vec();
        text.extend_from_slice(&0x000fea00_03800000_00000000_0000794du128.to_le_bytes());
        let mut cg = Vec::new();
        for w in [0u32, 0xffff_ffff] {
            cg.extend_from_slice(&w.to_le_bytes());
        }
        Builder {
            sections: vec![
                (".strtab".into(), 3, 0, 0, 0, strtab),
                (".symtab".into(), 2, 0, 2, 2, symtab),
                (".nv.info".into(), 0x7000_0000, 0, 3, 0, global),
                (".nv.info.k".into(), 0x7000_0000, 0x40, 3, 8, per),
                (".nv.callgraph".into(), 0x7000_0001, 0, 3, 0, cg),
                (".note.nv.cuinfo".into(), 7, 0, 0, 0, note),
                (".text.k".into(), 1, 6, 3, 1, text),
                (".nv.constant0.k".into(), 1, 0x42, 0, 8, vec![0; 0x218]),
            ],
        }
    }

    fn build(&self) -> Vec<u8> {
        let mut shstrtab = b"\0.shstrtab\0".to_vec();
        let mut names = vec![0u32, 1];
        for s in &self.sections {
            names.push(shstrtab.len() as u32);
            shstrtab.extend_from_slice(s.0.as_bytes());
            shstrtab.push(0);
        }
        let mut all = vec![(String::new(), 0u32, 0u64, 0u32, 0u32, vec![])];
        all.push((".shstrtab".into(), 3, 0, 0, 0, shstrtab));
        all.extend(self.sections.iter().cloned());
        let mut file = vec![0u8; 64];
        let mut offsets = vec![];
        for s in &all {
            while !file.len().is_multiple_of(8) {
                file.push(0);
            }
            offsets.push(file.len() as u64);
            file.extend_from_slice(&s.5);
        }
        while !file.len().is_multiple_of(8) {
            file.push(0);
        }
        let shoff = file.len() as u64;
        for (i, s) in all.iter().enumerate() {
            let entsize: u64 = if s.1 == 2 { 24 } else { 0 };
            let mut h = names[i].to_le_bytes().to_vec();
            h.extend_from_slice(&s.1.to_le_bytes());
            for q in [s.2, 0, if i == 0 { 0 } else { offsets[i] }, s.5.len() as u64] {
                h.extend_from_slice(&q.to_le_bytes());
            }
            h.extend_from_slice(&s.3.to_le_bytes());
            h.extend_from_slice(&s.4.to_le_bytes());
            h.extend_from_slice(&(if i == 0 { 0u64 } else { 4 }).to_le_bytes());
            h.extend_from_slice(&entsize.to_le_bytes());
            file.extend_from_slice(&h);
        }
        let hd = &mut file[..64];
        hd[..9].copy_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1, 1, 0x41, 8]);
        hd[16..18].copy_from_slice(&2u16.to_le_bytes());
        hd[18..20].copy_from_slice(&190u16.to_le_bytes());
        hd[20..24].copy_from_slice(&1u32.to_le_bytes());
        hd[40..48].copy_from_slice(&shoff.to_le_bytes());
        hd[48..52].copy_from_slice(&0x0600_5a04u32.to_le_bytes());
        hd[52..54].copy_from_slice(&64u16.to_le_bytes());
        hd[58..60].copy_from_slice(&64u16.to_le_bytes());
        hd[60..62].copy_from_slice(&(all.len() as u16).to_le_bytes());
        hd[62..64].copy_from_slice(&1u16.to_le_bytes());
        file
    }
}

#[test]
fn cubin_sample_parses() {
    let c = Cubin::parse(&Builder::sample().build()).unwrap();
    assert_eq!(
        (c.header.kind, c.header.osabi, c.header.abi_version, c.sm(), c.header.flags_low()),
        (ElfType::Exec, 0x41, 8, 90, 4)
    );
    assert_eq!(c.sections.len(), 10);
    assert_eq!(c.sections[5].name, ".nv.info.k");
    assert_eq!(c.sections[5].kind_name(), "CUDA_INFO");
    let k = c.function("k").unwrap();
    assert!(k.kernel);
    assert_eq!(k.words.len(), 2);
    assert_eq!(k.words[0] & 0xfff, 0x918);
    assert_eq!(k.regcount, Some(10));
    assert_eq!(c.callgraph[0].to_string(), "<0,-1>");
    assert_eq!(c.notes[0].cuinfo().unwrap().virtual_sm, 90);
    assert_eq!(c.header_line(), "64-bit ELF: type=ET_EXEC, ABI=8, sm=90, toolkit=13.0, flags=0x6005a04");
    let cb = c.constant0("k").unwrap();
    assert_eq!((cb.param_base, cb.param_size, cb.size), (0x210, 8, 0x218));
    assert_eq!((cb.params[0].size, cb.params[0].cbank, cb.params[0].smem), (8, 0x1f, false));
    assert_eq!(cb.layout.stack_pointer, 0x28);
}

#[test]
fn cubin_records_print_like_cuobjdump() {
    let c = Cubin::parse(&Builder::sample().build()).unwrap();
    let g = c.info_section(".nv.info").unwrap();
    assert_eq!(
        g.records[0].display(Table::Info, &c.symbols).to_string(),
        "\tAttribute:\tEIATTR_REGCOUNT\n\tFormat:\tEIFMT_SVAL\n\tValue:\tfunction: k(0x1)\tregister count: 10"
    );
    let p = c.function_info("k").unwrap();
    let text: Vec<_> = p.records.iter().map(|r| r.value_text(Table::Info, &c.symbols)).collect();
    assert_eq!(text[0].as_deref(), Some("0x82 "));
    assert_eq!(
        text[1].as_deref(),
        Some(
            "Index : 0x0\tOrdinal : 0x0\tOffset  : 0x0\tSize    : 0x8\n\t\tPointee's logAlignment : 0x0\tSpace : 0x0\tcbank : 0x1f\tParameter Space : CBANK\t"
        )
    );
    assert_eq!(text[2].as_deref(), Some("0xff"));
    assert_eq!(text[3].as_deref(), Some("1.1"));
    assert_eq!(text[4].as_deref(), Some("0x1"));
    assert_eq!(text[5], None);
    assert_eq!(p.records[8].value(Table::Info), Value::ParamCbank { symbol: 2, base: 0x210, size: 8 });
    assert!(p.dump(&c.symbols).starts_with(".nv.info.k\n\t<0x1>\n\tAttribute:\tEIATTR_CUDA_API_VERSION\n"));
    assert_eq!(eiattr::eiattr_name(0x56), None);
    assert_eq!(eiattr::eicompat_name(9).as_deref(), Some("EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET"));
    assert_eq!(names::reloc_name(0x4b).as_deref(), Some("R_CUDA_ABS55_16_34"));
    assert_eq!(names::reloc_name(81).as_deref(), Some("R_CUDA_8_40"));
    assert_eq!(names::section_type_name(0x7000_000f), "UNKNOWN: 15");
}

#[test]
fn cubin_malformed_inputs_are_located_errors() {
    let good = Builder::sample().build();
    // Truncated header.
    let e = Cubin::parse(&good[..40]).unwrap_err();
    assert_eq!(e.at, "ELF header");
    assert!(Cubin::parse(&[]).is_err());
    // Section table cut off.
    let e = Cubin::parse(&good[..good.len() - 10]).unwrap_err();
    assert!(e.at.starts_with("section header"), "{e}");
    // A record that runs past the end of its section.
    let mut b = Builder::sample();
    b.sections[3].5.extend(rec(4, code::EXIT_INSTR_OFFSETS, 0x40, &[0x10]));
    let e = Cubin::parse(&b.build()).unwrap_err();
    assert_eq!(e.to_string(), "section .nv.info.k: record at 0x40 runs past the end: payload of 0x40 bytes, 0x4 left");
    // A truncated record header and an unknown format.
    assert!(parse_records("s", &[4, 0x1c]).unwrap_err().what.contains("truncated"));
    assert!(parse_records("s", &[7, 0x1c, 0, 0]).unwrap_err().what.contains("unknown format 7"));
    assert_eq!(parse_records("s", &[1, 0x35, 0, 0]).unwrap()[0].format, Format::Nval);
    // A bad symbol-name offset.
    let mut b = Builder::sample();
    b.sections[1].5[24..28].copy_from_slice(&0x1000u32.to_le_bytes());
    let e = Cubin::parse(&b.build()).unwrap_err();
    assert!(e.at == "section .symtab" && e.what.contains("name offset 0x1000"), "{e}");
    // A function that does not fit its section.
    let mut b = Builder::sample();
    b.sections[1].5[24 + 16..24 + 24].copy_from_slice(&0x40u64.to_le_bytes());
    let e = Cubin::parse(&b.build()).unwrap_err();
    assert!(e.at.starts_with("function k"), "{e}");
    // A callgraph that is not whole entries, a truncated note.
    let mut b = Builder::sample();
    b.sections[4].5.push(0);
    b.sections[5].5.truncate(20);
    assert!(Cubin::parse(&b.build()).is_err());
}

#[test]
fn cubin_mutations_never_panic() {
    let good = Builder::sample().build();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..20_000 {
        let mut m = good.clone();
        if round % 5 == 0 {
            m.truncate((next() as usize) % m.len());
        } else {
            for _ in 0..1 + next() % 6 {
                let i = (next() as usize) % m.len();
                m[i] = next() as u8;
            }
        }
        if let Err(e) = Cubin::parse(&m) {
            assert!(!e.at.is_empty());
        }
    }
}
