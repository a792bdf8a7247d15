//! The nvPTXCompiler C interface, used from C and Python as a JIT would use it.
//!
//! `tests/c/driver.c` is compiled with `cc` against the `libnvptxcompiler_rs` this test run
//! built (found beside the test executable), and `tests/python/test_capi.py` loads it with
//! ctypes. Independent references: the `ptxas-rs` command's own path
//! ([`ptxas_rs::driver::run`], which writes the `-o` file and prints stderr) and
//! [`ptxas_rs::compile`] for the cubin bytes and logs; NVIDIA's recorded diagnostics for a
//! malformed file (`corpus/errors`); NVIDIA's `nvdisasm` and `ptxas -v` for the cubin
//! (oracle tier).
//!
//! Without `cc` (or `python3`) the tests that need it print `SKIPPED: ...` and pass, unless
//! `PTXAS_RS_ORACLE=required`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use ptxas_rs::cli::{Options, diag::Severity};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("capi").join(name);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The cdylib cargo built for this test run: beside the test executable (in `deps/`) or one
/// directory up.
fn cdylib() -> PathBuf {
    let name = format!("{}nvptxcompiler_rs{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    let exe = std::env::current_exe().expect("test executable");
    exe.ancestors()
        .skip(1)
        .take(2)
        .map(|d| d.join(&name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} not found beside {}", exe.display()))
}

/// Skips (or, with `PTXAS_RS_ORACLE=required`, fails) when `tool` cannot be run.
fn have(tool: &str, test: &str) -> bool {
    let ok = Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(!oracle::required(), "{test}: `{tool}` is required (PTXAS_RS_ORACLE=required) but cannot be run");
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {test}: `{tool}` cannot be run");
    }
    ok
}

/// `driver.c` compiled and linked against the cdylib, once per test process.
fn driver(test: &str) -> Option<&'static Path> {
    static DRIVER: OnceLock<PathBuf> = OnceLock::new();
    if !have("cc", test) {
        return None;
    }
    Some(DRIVER.get_or_init(|| {
        let lib = cdylib();
        let rpath = format!("-Wl,-rpath,{}", lib.parent().unwrap().display());
        build_driver("driver", &[lib.as_os_str(), rpath.as_ref()])
    }))
}

/// Compiles `driver.c` with `cc`, linking `link` (libraries and flags), to `name`.
fn build_driver(name: &str, link: &[&std::ffi::OsStr]) -> PathBuf {
    let out = scratch("bin").join(name);
    let capi = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-pthread", "-I"])
        .arg(capi.join("include"))
        .arg(capi.join("tests/c/driver.c"))
        .args(link)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("cc runs");
    assert!(status.success(), "cc failed to build driver.c as {name}");
    out
}

/// Runs the C driver; its stdout.
fn run_driver(driver: &Path, args: &[&str]) -> String {
    let out = Command::new(driver).args(args).output().expect("driver runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "driver {args:?}: {}\n{stdout}{}", out.status, String::from_utf8_lossy(&out.stderr));
    stdout
}

/// The `ptxas-rs` command on `args`: its stderr lines (info lines and the rest apart) and exit.
fn cli(args: &[&str]) -> (String, String, u8) {
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    let outcome = ptxas_rs::driver::run(&args);
    let (mut info, mut rest) = (String::new(), String::new());
    for d in &outcome.diagnostics {
        let log = if d.severity == Severity::Info { &mut info } else { &mut rest };
        log.push_str(&format!("{d}\n"));
    }
    (info, rest, outcome.status)
}

/// `text` with each `-v` `Compile time = <ms> ms` figure (a measurement, different in every
/// run) replaced by `#`.
fn untimed(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("Compile time = ") {
            Some(at) if l.ends_with(" ms") => format!("{}Compile time = # ms\n", &l[..at]),
            _ => format!("{l}\n"),
        })
        .collect()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read_text(path: &Path) -> String {
    String::from_utf8(read(path)).expect("UTF-8")
}

/// Compiles `ptx` through the C interface with `options`; (result line, cubin, error log, info log).
fn c_compile(driver: &Path, ptx: &Path, tag: &str, options: &[&str]) -> (String, Option<Vec<u8>>, String, String) {
    let out = scratch("out").join(tag);
    let _ = std::fs::remove_file(out.with_extension("cubin"));
    let out_s = out.to_str().unwrap();
    let mut args = vec!["compile", ptx.to_str().unwrap(), out_s];
    args.extend_from_slice(options);
    let result = run_driver(driver, &args).trim().to_owned();
    let cubin = std::fs::read(out.with_extension("cubin")).ok();
    (result, cubin, read_text(&out.with_extension("err")), read_text(&out.with_extension("info")))
}

/// Corpus kernels and option sets the C interface compiles (small, to keep this test cheap).
const CASES: &[(&str, &[&str])] = &[
    ("corpus/cuda/f32_arith/f32_arith.sm_90.ptx", &["--gpu-name=sm_90"]),
    ("corpus/cuda/algo_matmul_tiled/algo_matmul_tiled.sm_90.ptx", &["-arch", "sm_90", "-O0", "-v"]),
    ("corpus/cuda/f32_arith/f32_arith.sm_80.ptx", &["--gpu-name", "sm_80", "-O3", "-v", "--warn-on-spills"]),
    // ptxas's warning (a budget under 24 registers is raised): the error log of a success.
    ("corpus/cuda/f32_arith/f32_arith.sm_90.ptx", &["-arch", "sm_90", "-maxrregcount", "16"]),
];

#[test]
fn c_cubin_and_logs_equal_the_library_and_the_command() {
    let Some(driver) = driver("c_cubin_and_logs_equal_the_library_and_the_command") else { return };
    for (i, (file, options)) in CASES.iter().enumerate() {
        let ptx = repo().join(file);
        let (result, cubin, err, info) = c_compile(driver, &ptx, &format!("case{i}"), options);
        assert_eq!(result, "result 0", "{file} {options:?}: {err}");
        let cubin = cubin.expect("cubin written");

        let library = ptxas_rs::compile(read(&ptx), &Options::from_args(options).unwrap()).expect("library compiles");
        assert_eq!(cubin, library.cubin, "{file}: C API cubin != ptxas_rs::compile's");

        let out = scratch("cli").join(format!("case{i}.cubin"));
        let mut args = options.to_vec();
        args.extend_from_slice(&["-o", out.to_str().unwrap(), ptx.to_str().unwrap()]);
        let (cli_info, cli_rest, status) = cli(&args);
        assert_eq!(status, 0, "{cli_rest}");
        assert_eq!(cubin, read(&out), "{file}: C API cubin != the command's -o file");
        assert_eq!(untimed(&info), untimed(&cli_info), "{file}: info log != the command's info lines");
        assert_eq!(err, cli_rest, "{file}: error log != the command's other lines");
        if options.contains(&"-maxrregcount") {
            assert!(
                err.starts_with("ptxas warning : For profile sm_90 adjusting"),
                "{file}: no warning in the error log:\n{err}"
            );
        }
        if options.contains(&"-v") {
            assert!(info.contains("ptxas info    : Used "), "{file}: no -v report in the info log:\n{info}");
            assert!(
                info.contains("ptxas info    : Compile time = "),
                "{file}: no compile time in the info log:\n{info}"
            );
        }
    }
}

#[test]
fn c_error_log_equals_the_command_and_nvidia() {
    let Some(driver) = driver("c_error_log_equals_the_command_and_nvidia") else { return };
    let ptx = repo().join("corpus/errors/dep_shfl_nosync_sm90.ptx");
    let (result, cubin, err, info) = c_compile(driver, &ptx, "bad", &["--gpu-name=sm_90"]);
    assert_eq!(result, "result 3");
    assert_eq!(cubin, None);
    assert_eq!(info, "");
    // The command, given the same text as a string input (the C API's input is named so).
    let text = read_text(&ptx);
    let (cli_info, cli_rest, status) = cli(&["--gpu-name=sm_90", "--input-as-string", &text]);
    assert_eq!((status, cli_info.as_str()), (255, ""));
    assert_eq!(err, cli_rest, "error log != the command's stderr");
    // NVIDIA's ptxas on the file, recorded, with the input's name as a string input has it.
    let nvidia = read_text(&ptx.with_extension("stderr"))
        .replace("ptxas dep_shfl_nosync_sm90.ptx,", "ptxas application ptx input,");
    assert_eq!(err, nvidia, "error log != NVIDIA's recorded diagnostics");
}

#[test]
fn c_result_codes() {
    let Some(driver) = driver("c_result_codes") else { return };
    let ptx = repo().join("corpus/cuda/f32_arith/f32_arith.sm_90.ptx");
    let out = run_driver(driver, &["codes", ptx.to_str().unwrap()]);
    let got: BTreeMap<&str, &str> = out.lines().filter_map(|l| l.split_once(' ')).collect();
    // 0 SUCCESS, 1 INVALID_COMPILER_HANDLE, 2 INVALID_INPUT, 3 COMPILATION_FAILURE,
    // 6 COMPILER_INVOCATION_INCOMPLETE, 9 CANCELLED.
    let versions: String = std::iter::once("0 0".to_owned())
        .chain(nvptxcompiler_rs::supported_versions().map(|(major, minor)| format!("{major}.{minor}")))
        .collect::<Vec<_>>()
        .join(" ");
    let want: BTreeMap<&str, &str> = [
        ("version", "0 13.0"),
        ("version_null", "2"),
        ("supported_versions", versions.as_str()),
        ("supported_versions_null", "2 2"),
        ("create_null_handle", "1"),
        ("create_null_code", "2"),
        ("compile_null_handle", "1"),
        ("size_null_handle", "1"),
        ("program_null_handle", "1"),
        ("error_log_size_null_handle", "1"),
        ("error_log_null_handle", "1"),
        ("info_log_size_null_handle", "1"),
        ("info_log_null_handle", "1"),
        ("destroy_null", "1"),
        ("destroy_null_handle", "1"),
        ("create", "0"),
        ("size_before_compile", "6"),
        ("program_before_compile", "6"),
        ("error_log_size_before_compile", "0 1"),
        ("size_null_out", "2"),
        ("compile_negative_count", "2"),
        ("compile_null_options", "2"),
        ("compile_null_option", "2"),
        ("compile_bad_option", "3"),
        ("size_after_failure", "6"),
        ("compile_no_gpu_name", "3"),
        ("compile", "0"),
        ("size_after_compile", "0"),
        ("program_null_out", "2"),
        ("flow_callback_null", "2"),
        ("flow_callback", "0"),
        ("compile_cancelled", "9 1"),
        ("size_after_cancel", "6"),
        ("destroy", "0 null"),
    ]
    .into_iter()
    .collect();
    assert_eq!(got, want, "driver output:\n{out}");
}

/// The static library links into a C program too (with the system libraries Rust's std needs)
/// and behaves as the shared one.
#[test]
fn c_static_library_links() {
    let test = "c_static_library_links";
    let Some(shared) = driver(test) else { return };
    // Unix naming (the C tests build with `cc`).
    let archive = cdylib().with_file_name("libnvptxcompiler_rs.a");
    assert!(archive.is_file(), "{} not built", archive.display());
    let link: Vec<&std::ffi::OsStr> = vec![archive.as_os_str(), "-lpthread".as_ref(), "-ldl".as_ref(), "-lm".as_ref()];
    let stat = build_driver("driver_static", &link);
    let ptx = repo().join("corpus/cuda/f32_arith/f32_arith.sm_90.ptx");
    let args = ["codes", ptx.to_str().unwrap()];
    assert_eq!(run_driver(&stat, &args), run_driver(shared, &args));
}

#[test]
fn c_sixteen_threads_give_identical_cubins() {
    let Some(driver) = driver("c_sixteen_threads_give_identical_cubins") else { return };
    let ptx = repo().join("corpus/cuda/f32_arith/f32_arith.sm_90.ptx");
    let out = scratch("threads").join("t");
    let stdout =
        run_driver(driver, &["threads", ptx.to_str().unwrap(), "16", out.to_str().unwrap(), "-arch=sm_90", "-O3"]);
    assert_eq!(stdout.trim(), "identical 16");
    let library = ptxas_rs::compile(read(&ptx), &Options::from_args(&["-arch=sm_90", "-O3"]).unwrap()).unwrap();
    assert_eq!(read(&out.with_extension("cubin")), library.cubin);
}

#[test]
fn python_ctypes() {
    let test = "python_ctypes";
    if !have("python3", test) {
        return;
    }
    let ptx = repo().join("corpus/cuda/f32_arith/f32_arith.sm_90.ptx");
    let expected = scratch("python").join("expected.cubin");
    let options = Options::from_args(&["--gpu-name=sm_90"]).unwrap();
    std::fs::write(&expected, ptxas_rs::compile(read(&ptx), &options).unwrap().cubin).unwrap();
    let bad = repo().join("corpus/errors/dep_shfl_nosync_sm90.ptx");
    let (_, bad_log, _) = cli(&["--gpu-name=sm_90", "--input-as-string", &read_text(&bad)]);
    let bad_log_path = scratch("python").join("bad.err");
    std::fs::write(&bad_log_path, bad_log).unwrap();
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/test_capi.py"))
        .args([cdylib(), ptx, expected, bad, bad_log_path])
        .output()
        .expect("python3 runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.trim() == "ok", "test_capi.py failed:\n{text}");
}

/// NVIDIA's tools on the C interface's cubin: nvdisasm reads it, with the functions NVIDIA's own
/// cubin has; the info log names the functions ptxas -v names.
#[test]
fn nvidia_accepts_the_c_api_cubin() {
    let test = "nvidia_accepts_the_c_api_cubin";
    let Some(driver) = driver(test) else { return };
    let Some(tools) = oracle::tools_or_skip(test) else { return };
    let (file, options) = CASES[1];
    let ptx = repo().join(file);
    let (result, cubin, _, info) = c_compile(driver, &ptx, "nvidia", options);
    assert_eq!(result, "result 0");
    let ours = tools.disassemble(&cubin.unwrap()).expect("nvdisasm accepts the C API's cubin");
    let nvidia = tools.ptxas_run(oracle::PtxInput::File { path: &ptx, cwd: None }, options).expect("ptxas runs");
    assert!(nvidia.success(), "{nvidia}");
    let theirs = tools.disassemble(nvidia.cubin.as_deref().unwrap()).unwrap();
    let names = |l: &oracle::Listing| l.functions.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&ours), names(&theirs));
    let ours_v = oracle::verbose::parse(&info);
    let fns = |r: &oracle::Resources| {
        r.functions.iter().map(|f| (f.name.clone(), f.entry, f.arch.clone())).collect::<Vec<_>>()
    };
    assert!(!ours_v.functions.is_empty(), "no -v report parsed from the info log:\n{info}");
    assert_eq!(fns(&ours_v), fns(&nvidia.resources));
}

/// The newest version `nvPTXCompilerGetSupportedVersions` reports is NVIDIA ptxas's newest too:
/// ptxas accepts it and refuses the next one as `Unsupported .version`.
#[test]
fn nvidia_agrees_on_the_newest_ptx_version() {
    let Some(tools) = oracle::tools_or_skip("nvidia_agrees_on_the_newest_ptx_version") else { return };
    let (major, minor) = nvptxcompiler_rs::supported_versions().last().unwrap();
    for (minor, refused) in [(minor, false), (minor + 1, true)] {
        let text = format!(".version {major}.{minor}\n.target sm_90\n.address_size 64\n");
        let out = tools.ptxas_run(oracle::PtxInput::Text { name: "v.ptx", text: &text }, &["-arch", "sm_90"]).unwrap();
        assert_eq!(out.stderr.contains("Unsupported .version"), refused, "{major}.{minor}: {out}");
    }
}

/// The header is valid C++ too (its declarations have C linkage there).
#[test]
fn header_compiles_as_cpp() {
    let test = "header_compiles_as_cpp";
    if !have("c++", test) {
        return;
    }
    let dir = scratch("cpp");
    let src = dir.join("use_header.cpp");
    std::fs::write(
        &src,
        "#include \"nvPTXCompiler.h\"\n\
         extern \"C\" nvPTXCompileResult nvPTXCompilerGetVersion(unsigned int *, unsigned int *);\n\
         int main() { unsigned a, b; return nvPTXCompilerGetVersion(&a, &b) == NVPTXCOMPILE_SUCCESS ? 0 : 1; }\n",
    )
    .unwrap();
    let lib = cdylib();
    let out = dir.join("use_header");
    let status = Command::new("c++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("include"))
        .arg(&src)
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib.parent().unwrap().display()))
        .arg("-o")
        .arg(&out)
        .status()
        .expect("c++ runs");
    assert!(status.success(), "c++ failed on nvPTXCompiler.h");
    assert!(Command::new(&out).status().unwrap().success(), "the C++ program's nvPTXCompilerGetVersion failed");
}
