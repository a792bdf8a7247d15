//! The system functions (`vprintf`, `malloc`/`free`, `__assertfail`), `trap` and
//! `griddepcontrol` in the executors, on the kernels of `corpus/sysfn` (random full-width
//! inputs from their launch specs):
//!
//! - the interpreter's printf log against the C library's own `snprintf` on the same values
//!   (an independent formatter), and `vprintf`'s result;
//! - `malloc`/`free` results against the arithmetic recomputed here, and an exhausted heap;
//! - a passing and a failing assertion, and `trap`, as located faults (CTA and thread);
//! - where the SASS emulator decodes NVIDIA's cubin (`ptxas -arch sm_90`), its outputs and log
//!   equal the interpreter's.

use std::ffi::{CString, c_char, c_int};
use std::path::{Path, PathBuf};

use interp::launch::LaunchSpec;
use interp::ori_exec::{ErrorKind, ExecConfig, ExecError, Outputs};
use interp::sysfn::SysError;

unsafe extern "C" {
    fn snprintf(buf: *mut c_char, n: usize, fmt: *const c_char, ...) -> c_int;
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/sysfn")
}

fn load(ptx: &str, spec: &str) -> (String, PathBuf, LaunchSpec) {
    let p = dir().join(format!("{ptx}.ptx"));
    let text = std::fs::read_to_string(&p).unwrap();
    let spec = LaunchSpec::from_path(&dir().join(format!("{spec}.run.toml"))).unwrap();
    (text, p, spec)
}

fn interpret(text: &str, spec: &LaunchSpec) -> Result<Outputs, ExecError> {
    let module = ptxas_rs::lower::lower_source(text).expect("lowering");
    let cfg = ExecConfig { step_limit: 10_000_000, ..ExecConfig::default() };
    interp::run_ori_with(&module, &spec.kernel, spec, &cfg)
}

/// NVIDIA's cubin in the emulator: `None` (with the reason printed) where the decoder cannot
/// run it yet.
fn emulate(path: &Path, spec: &LaunchSpec) -> Option<Result<Outputs, interp::emu::EmuError>> {
    let t = oracle::tools_or_skip("sysfn emulator")?;
    let out = t.ptxas_run(oracle::PtxInput::File { path, cwd: None }, &["-arch", "sm_90"]).unwrap();
    let cubin = out.cubin.unwrap_or_else(|| panic!("ptxas: {}", out.stderr));
    let k = interp::emu::Kernel::load(&cubin, &spec.kernel).unwrap();
    let banks = interp::emu::Banks::new();
    let program = interp::emu::Program::new(k.tables, &k.words, k.entry, &banks);
    if let Some((i, why)) = program.first_invalid() {
        println!("{}: emulator cannot run NVIDIA's cubin yet: {:#06x}: {why}", spec.kernel, i.offset);
        return None;
    }
    let cfg = interp::emu::EmuConfig { hazards: true, step_limit: 10_000_000, ..Default::default() };
    Some(k.run(spec, &cfg).map(|r| r.outputs))
}

/// ptxas-rs's sm_90 cubin of the file in the emulator: `None` (printed) where our backend
/// refuses the kernel, which must then be a `not supported yet`.
fn ours(path: &Path, spec: &LaunchSpec, level: u8) -> Option<Result<Outputs, interp::emu::EmuError>> {
    let text = std::fs::read_to_string(path).unwrap();
    let ast = ptxas_rs::ptx::parse(&text, &path.display().to_string()).unwrap();
    let opts = ptxas_rs::backend::Options { opt_level: level, ..ptxas_rs::backend::Options::default() };
    let cubin = match ptxas_rs::backend::compile(&ast, &opts) {
        Ok(c) => c.cubin,
        Err(e) => {
            let e = e.to_string();
            assert!(e.contains("not supported yet"), "{e}");
            println!("{}: our backend: {e}", spec.kernel);
            return None;
        }
    };
    if let Some(t) = oracle::tools_or_skip("sysfn nvdisasm") {
        let f = std::env::temp_dir().join(format!("sysfn-{}-{}.cubin", spec.kernel, std::process::id()));
        std::fs::write(&f, &cubin).unwrap();
        let out = std::process::Command::new(t.nvdisasm()).arg("-c").arg(&f).output().unwrap();
        let _ = std::fs::remove_file(&f);
        assert!(out.status.success(), "nvdisasm rejects our cubin: {}", String::from_utf8_lossy(&out.stderr));
        let nv = t.ptxas_run(oracle::PtxInput::File { path, cwd: None }, &["-arch", "sm_90"]).unwrap().cubin.unwrap();
        let links = system_links(&cubin);
        assert_eq!(links.is_empty(), !text.contains("call.uni"), "{links:?}");
        assert_eq!(links, system_links(&nv), "the system functions' symbols and relocations");
    }
    let k = interp::emu::Kernel::load(&cubin, &spec.kernel).unwrap();
    let cfg = interp::emu::EmuConfig { hazards: true, step_limit: 10_000_000, ..Default::default() };
    Some(k.run(spec, &cfg).map(|r| r.outputs))
}

/// How a cubin links the system functions: per relocation against one, its section's name,
/// type, offset, and the symbol's name, binding/type byte and section index (0: undefined).
fn system_links(cubin: &[u8]) -> Vec<(String, u32, u64, String, u8, u16)> {
    let c = ptxas_rs::cubin::Cubin::parse(cubin).unwrap();
    let mut v: Vec<_> = c
        .relocations
        .iter()
        .filter_map(|r| {
            let s = c.symbols.get(r.symbol as usize)?;
            interp::sysfn::SysFn::by_name(&s.name)?;
            let sec = c.sections.get(r.section as usize)?.name.clone();
            Some((sec, r.kind, r.offset, s.name.clone(), s.info, s.shndx))
        })
        .collect();
    v.sort();
    v
}

/// Both cubins (NVIDIA's and ours, where each runs) in the emulator equal the interpreter.
fn both_equal(path: &Path, spec: &LaunchSpec, got: &Outputs) {
    for (who, run) in
        [("NVIDIA", emulate(path, spec)), ("ptxas-rs -O0", ours(path, spec, 0)), ("ptxas-rs -O3", ours(path, spec, 3))]
    {
        if let Some(e) = run {
            let e = e.unwrap_or_else(|e| panic!("{who}: {e}"));
            assert_eq!((&e.buffers, &e.log), (&got.buffers, &got.log), "{who}'s cubin");
        }
    }
}

/// Both cubins fault at the same thread as the interpreter, with `want` in the message.
fn both_fault(path: &Path, spec: &LaunchSpec, cta: [u32; 3], tid: [u32; 3], want: &str) {
    for (who, run) in
        [("NVIDIA", emulate(path, spec)), ("ptxas-rs -O0", ours(path, spec, 0)), ("ptxas-rs -O3", ours(path, spec, 3))]
    {
        if let Some(e) = run {
            let e = e.expect_err(who);
            let t = e.thread.unwrap_or_else(|| panic!("{who}: {e} not located"));
            assert_eq!((t.cta, t.tid), (cta, tid), "{who}: {e}");
            assert!(e.to_string().contains(want), "{who}: {e}");
        }
    }
}

fn words<const N: usize>(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(N).map(|c| c.iter().rev().fold(0u64, |a, &x| a << 8 | u64::from(x))).collect()
}

fn c_format(f: &str, args: impl FnOnce(*mut c_char, *const c_char) -> c_int) -> String {
    let mut buf = vec![0u8; 4096];
    let cf = CString::new(f).unwrap();
    let n = args(buf.as_mut_ptr().cast(), cf.as_ptr());
    assert!(n >= 0 && (n as usize) < buf.len());
    String::from_utf8_lossy(&buf[..n as usize]).into_owned()
}

#[test]
fn printf_log_matches_the_c_library() {
    let (text, path, spec) = load("sysfn_printf", "sysfn_printf");
    let got = interpret(&text, &spec).unwrap();
    let bufs = spec.generate_buffers();
    let (a, b, f) = (words::<4>(&bufs["a"]), words::<8>(&bufs["b"]), words::<4>(&bufs["f"]));
    let fmt = "[%d] d=%d u=%u x=%08x X=%#X ll=%lld llx=%llx f=%f e=%.3e g=%g s=%s c=%c %5s|%-4d| 100%%\n";
    let word = CString::new("word").unwrap();
    let mut want = String::new();
    for g in 0..80usize {
        let (x, y, z) = (a[g] as u32, b[g], f64::from(f32::from_bits(f[g] as u32)));
        let c = 48 + (x & 63) as c_int;
        want += &c_format(fmt, |buf, cf| unsafe {
            snprintf(
                buf,
                4096,
                cf,
                g as c_int,
                x as c_int,
                x,
                x,
                x,
                y as i64,
                y,
                z,
                z,
                z,
                word.as_ptr(),
                c,
                word.as_ptr(),
                (x & 255) as c_int,
            )
        });
    }
    assert_eq!(got.log, want);
    let rets = words::<4>(got.get("out").unwrap());
    assert!(rets.iter().all(|&r| r == 14), "vprintf returns the number of arguments: {rets:?}");
    both_equal(&path, &spec, &got);
}

#[test]
fn malloc_free_and_exhaustion() {
    let (text, path, spec) = load("sysfn_malloc", "sysfn_malloc");
    let got = interpret(&text, &spec).unwrap();
    let a = words::<4>(&spec.generate_buffers()["a"]);
    let out = words::<4>(got.get("out").unwrap());
    for g in 0..96 {
        let x = a[g] as u32;
        let n = (x & 15) + 1;
        let sum = (0..n).fold(0u32, |s, k| s.wrapping_add(x.wrapping_mul(k) ^ k));
        assert_eq!((out[2 * g], out[2 * g + 1]), (u64::from(sum), 1), "thread {g}");
    }
    both_equal(&path, &spec, &got);
}

#[test]
fn assertion_that_holds_and_one_that_fails() {
    let (text, path, spec) = load("sysfn_assert_pass", "sysfn_assert_pass");
    let got = interpret(&text, &spec).unwrap();
    let a = words::<4>(&spec.generate_buffers()["a"]);
    let out = words::<4>(got.get("out").unwrap());
    for g in 0..128 {
        assert_eq!(out[g], u64::from((a[g] as u32 | 1).wrapping_add(0x9e37_79b9)));
    }
    both_equal(&path, &spec, &got);
    let (text, path, spec) = load("sysfn_assert_fail", "sysfn_assert_fail");
    let e = interpret(&text, &spec).unwrap_err();
    let t = e.thread.expect("located");
    assert_eq!((t.cta, t.tid), ([1, 0, 0], [13, 0, 0]), "{e}");
    assert_eq!(
        e.kind,
        ErrorKind::System(SysError::Assertion {
            message: "a[i] != bad".into(),
            file: "sysfn_assert.cu".into(),
            line: 42,
            function: "sysfn_assert".into()
        })
    );
    let want = "sysfn_assert.cu:42: sysfn_assert: Assertion `a[i] != bad` failed.";
    assert!(e.to_string().contains(want), "{e}");
    both_fault(&path, &spec, [1, 0, 0], [13, 0, 0], want);
}

#[test]
fn trap_is_a_located_fault_and_griddepcontrol_a_no_op() {
    let (text, path, spec) = load("sysfn_trap", "sysfn_trap");
    let e = interpret(&text, &spec).unwrap_err();
    let t = e.thread.expect("located");
    assert_eq!((e.kind.clone(), t.cta, t.tid), (ErrorKind::Trap, [1, 0, 0], [5, 0, 0]), "{e}");
    both_fault(&path, &spec, [1, 0, 0], [5, 0, 0], "trap");
    let (text, path, spec) = load("sysfn_griddep", "sysfn_griddep");
    let got = interpret(&text, &spec).unwrap();
    assert_eq!(words::<4>(got.get("out").unwrap()), (0..128).collect::<Vec<u64>>());
    both_equal(&path, &spec, &got);
}

/// The backend's selection and register allocation preserve the interpreter's results on the
/// kernels that call system functions (the interpreter runs the selected `LEPC` +
/// `CALLABS` too), at -O0 and -O3.
#[test]
fn selection_and_allocation_preserve_results() {
    use interp::validate::{ValidateOptions, backend_pipeline, param_addresses, validate, validate_standard};
    use ptxas_rs::opt::PipelineOptions;
    let exec = ExecConfig { step_limit: 10_000_000, ..ExecConfig::default() };
    for k in ["sysfn_printf", "sysfn_malloc", "sysfn_assert_pass"] {
        let (text, _, spec) = load(k, k);
        let ast = ptxas_rs::ptx::parse(&text, k).unwrap();
        let addr = param_addresses(&ast);
        let (module, frames) = ptxas_rs::lower::lower_module_framed(&ast).unwrap();
        for level in [0u8, 3] {
            let v = validate_standard(&module, &spec.kernel, &spec, &exec, level).unwrap();
            assert!(v.failure.is_none(), "{k} -O{level}: {:?}", v.failure.map(|f| f.phase));
            let opts = ValidateOptions {
                pipeline: PipelineOptions { opt_level: level, verify: true, ..PipelineOptions::default() },
                exec: exec.clone(),
            };
            let b =
                validate(&v.module, &spec.kernel, &spec, &backend_pipeline(&v.module, &frames, &addr), &opts).unwrap();
            if let Some(f) = &b.failure {
                panic!("{k} -O{level}: phase {}: {:?}\n{}", f.phase, f.kind, f.ir_diff);
            }
            let selected = b
                .module
                .functions
                .iter()
                .any(|f| f.inst_order().any(|(_, i)| f.insts[i].opcode == ptxas_rs::ori::Opcode::CALLABS));
            assert!(selected, "{k} -O{level}: no CALLABS after selection");
        }
    }
}
