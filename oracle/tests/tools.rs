//! The oracle against the real tools: each API is exercised on a small kernel and its parsed
//! result is checked against facts that hold for ptxas 13.0.88 (and against the other tools'
//! view of the same cubin).

use oracle::{PtxInput, Severity, tools_or_skip};

const SAXPY: &str = "
.version 9.0
.target sm_90
.address_size 64
.visible .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<8>;
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p1, %r5, %r1;
    @%p1 bra DONE;
    ld.param.f32 %f1, [a];
    ld.param.u64 %rd1, [x];
    ld.param.u64 %rd2, [y];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.s32 %rd5, %r5, 4;
    add.s64 %rd6, %rd3, %rd5;
    add.s64 %rd7, %rd4, %rd5;
    ld.global.f32 %f2, [%rd6];
    ld.global.f32 %f3, [%rd7];
    fma.rn.f32 %f3, %f1, %f2, %f3;
    st.global.f32 [%rd7], %f3;
DONE:
    ret;
}
";

#[test]
fn ptxas_compiles_and_reports_resources() {
    let Some(t) = tools_or_skip("ptxas_compiles_and_reports_resources") else { return };
    for arch in ["sm_90", "sm_80"] {
        let out = t
            .ptxas_run(
                PtxInput::Text { name: "saxpy.ptx", text: &SAXPY.replace("sm_90", arch) },
                &["-arch", arch, "-v"],
            )
            .unwrap();
        assert!(out.success(), "{out}");
        let f = out.resources.function("saxpy").expect("a -v report for saxpy");
        assert!(f.entry);
        assert_eq!(f.arch.as_deref(), Some(arch));
        let regs = f.registers.expect("Used N registers");
        assert!((8..=32).contains(&regs), "{regs} registers for saxpy");
        assert_eq!(f.barriers, Some(0));
        // sm_75–sm_89 also report cmem[0]: param base 0x160 + 24 bytes of params.
        if arch == "sm_80" {
            assert_eq!(f.cmem, vec![(0, 0x160 + 24)]);
        } else {
            assert!(f.cmem.is_empty());
        }
        let cubin = out.cubin.expect("a cubin");
        assert_eq!(&cubin[..4], b"\x7fELF");

        // nvdisasm and cuobjdump agree with -v on the same cubin.
        let listing = t.disassemble(&cubin).unwrap();
        let func = listing.function("saxpy").expect("saxpy in the listing");
        assert!(func.instructions.iter().any(|i| i.text.starts_with("FFMA")), "{:?}", func.instructions);
        assert!(func.instructions.iter().any(|i| i.text.ends_with("EXIT")));
        for (k, inst) in func.instructions.iter().enumerate() {
            assert_eq!(inst.offset, 16 * k as u64, "instructions are contiguous");
        }
        let dump = t.elf_dump(&cubin).unwrap();
        assert_eq!(dump.register_count("saxpy"), Some(regs));
        if arch == "sm_80" {
            assert_eq!(func.sectioninfo_registers, Some(regs));
        }
        assert!(dump.attrs_in(".nv.info.saxpy").any(|a| a.name == "EIATTR_EXIT_INSTR_OFFSETS"));
    }
}

#[test]
fn ptxas_diagnostics_are_parsed() {
    let Some(t) = tools_or_skip("ptxas_diagnostics_are_parsed") else { return };
    let bad = SAXPY.replace("mad.lo.s32 %r5, %r2, %r3, %r4;", "mad.lo.s32 %r5, %r2, %r3;");
    let out = t.ptxas_run(PtxInput::Text { name: "bad.ptx", text: &bad }, &["-arch", "sm_90"]).unwrap();
    assert_eq!(out.code, Some(255));
    assert!(out.cubin.is_none(), "no output file on error");
    let e = out.first_error().expect("an error");
    assert_eq!(e.file.as_deref(), Some("bad.ptx"));
    assert_eq!(e.line, Some(15));
    assert_eq!(e.severity, Severity::Error);
    assert!(e.message.contains("mad"), "{e}");
    // Every stderr line is either a diagnostic the parser reproduces exactly or nothing.
    for line in out.stderr.lines() {
        let d = oracle::diag::parse_line(line).expect("ptxas error output is all diagnostics");
        assert_eq!(d.to_string(), line);
    }
    assert_eq!(out.diagnostics.last().unwrap().message, "Ptx assembly aborted due to errors");
}

#[test]
fn compiler_stats_are_parsed() {
    let Some(t) = tools_or_skip("compiler_stats_are_parsed") else { return };
    let out = t
        .ptxas_run(
            PtxInput::Text { name: "k.ptx", text: SAXPY },
            &["-arch", "sm_90", "--compiler-stats=time,phase-wise"],
        )
        .unwrap();
    assert!(out.success(), "{out}");
    let st = out.stats.expect("stats");
    let total = st.compile_time_ms.expect("CompileTime");
    for stage in ["Parse", "CompileUnitSetup", "DAGgen", "OCG", "ELF"] {
        let ms = st.stage(stage).unwrap_or_else(|| panic!("{stage}-time in {:?}", out.stderr));
        assert!(ms >= 0.0 && ms <= total, "{stage}: {ms} of {total}");
    }
}

#[test]
fn raw_words_decode_and_illegal_words_are_marked() {
    let Some(t) = tools_or_skip("raw_words_decode_and_illegal_words_are_marked") else { return };
    // Words from ptxas's own saxpy on sm_90 (see the notes' saxpy listing), plus garbage.
    let words = [
        0x000fe20000000800_00000a00ff017b82u128, // LDC R1, c[0x0][0x28]
        0xdeadbeefdeadbeef_ffffffffffffffffu128, // not an instruction
        0x000fea0003800000_000000000000094du128, // @P0 EXIT
    ];
    let texts = t.disassemble_raw("SM90", &words).unwrap();
    assert_eq!(texts[0].as_deref(), Some("LDC R1, c[0x0][0x28]"));
    assert_eq!(texts[1], None);
    assert_eq!(texts[2].as_deref(), Some("@P0 EXIT"));
}
