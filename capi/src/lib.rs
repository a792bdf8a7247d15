//! An nvPTXCompiler-compatible C library over [`ptxas_rs::compile`].
//!
//! NVIDIA ships ptxas as a library too (`libnvptxcompiler_static`, declared by
//! `nvPTXCompiler.h`): a JIT creates a handle with the PTX, compiles it with ptxas's option
//! strings and reads back the cubin and two logs. This crate exports that interface with the
//! same names, signatures and result codes (`capi/include/nvPTXCompiler.h` is our own header for
//! it), built as `libnvptxcompiler_rs.so` / `.a`, so a program written against NVIDIA's header
//! links against ptxas-rs unchanged.
//!
//! Layers: [`Compiler`] is the safe Rust state machine of one handle (PTX, last compilation's
//! image and logs); [`ffi`] holds the `extern "C"` functions, thin shells that check pointers,
//! lock the handle and call it.
//!
//! Semantics (NVIDIA's documentation, and ptxas-rs's choices where it is silent):
//! - the PTX is the `ptxCodeLen` bytes given to `nvPTXCompilerCreate` (copied; no NUL needed);
//!   its diagnostics name it `application ptx input`, as ptxas names a string input;
//! - `nvPTXCompilerCompile` parses the options exactly as the `ptxas-rs` command parses its
//!   command line ([`ptxas_rs::cli::parse`]) and compiles through [`ptxas_rs::compile`], the
//!   command's own path: same cubin bytes, same diagnostics. `--gpu-name` (`-arch`) is mandatory,
//!   as NVIDIA documents; input files, `--input-as-string`, `--output-file`, `--help`,
//!   `--version` and `--list-version` have no meaning here and are refused with a fatal line;
//! - the error log is every warning, error and fatal line, the info log every info line (`-v`'s
//!   report), each line as the command prints it on stderr followed by `\n`; the sizes count the
//!   terminating NUL, so an empty log has size 1;
//! - the result is `NVPTXCOMPILE_ERROR_COMPILATION_FAILURE` whenever ptxas-rs reports an error
//!   (a bad option included), `NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION` when that error is
//!   ptxas's `Unsupported .version`; the image exists only after a successful compilation
//!   (`NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE` otherwise); a virtual `compute_XX`
//!   target checks the PTX and yields an empty image; `--compiler-stats-file` is appended to
//!   after a successful compilation, as by the command (a file that cannot be opened fails it);
//! - the flow callback (`nvPTXCompilerSetFlowCallback`) is called when compilation starts and
//!   when it ends; returning 1 gives `NVPTXCOMPILE_ERROR_CANCELLED` and no image;
//! - `nvPTXCompilerGetSupportedVersions` lists the PTX ISA versions the front end accepts
//!   ([`supported_versions`]). CUDA 13.1's additions (`nvPTXCompilerGetSupportedArchs`,
//!   `NVPTXCOMPILE_PARSE_ONLY_SUCCESS`) are not part of the 13.0 interface and not provided.
//!
//! Invariants: no panic crosses the C boundary (each entry point catches it and returns
//! `NVPTXCOMPILE_ERROR_INTERNAL`; Rust's default hook still prints its message on stderr, since
//! installing a hook would be process-wide state); every pointer argument is checked against NULL before use;
//! the library has no shared mutable state: each handle owns its state behind its own mutex, so
//! handles are independent and calls on one handle are serialised.

use ptxas_rs::cli::{self, OptId, diag::Diagnostic, diag::Severity};

pub mod ffi;

/// `nvPTXCompileResult`: NVIDIA's result codes, same names and numbering.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum nvPTXCompileResult {
    NVPTXCOMPILE_SUCCESS = 0,
    NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE = 1,
    NVPTXCOMPILE_ERROR_INVALID_INPUT = 2,
    NVPTXCOMPILE_ERROR_COMPILATION_FAILURE = 3,
    NVPTXCOMPILE_ERROR_INTERNAL = 4,
    NVPTXCOMPILE_ERROR_OUT_OF_MEMORY = 5,
    NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE = 6,
    NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION = 7,
    NVPTXCOMPILE_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 8,
    NVPTXCOMPILE_ERROR_CANCELLED = 9,
}

use nvPTXCompileResult as R;

/// The interface version `nvPTXCompilerGetVersion` reports: the CUDA release (13.0) whose
/// nvPTXCompiler interface and ptxas this library follows.
pub const VERSION: (u32, u32) = (13, 0);

/// The PTX ISA versions (`.version major.minor`) the front end accepts, ascending: what
/// `nvPTXCompilerGetSupportedVersions` reports.
pub fn supported_versions() -> impl Iterator<Item = (u32, u32)> {
    let mut v = ptxas_rs::ptx::sema::header::VERSIONS;
    v.sort_unstable();
    v.into_iter().map(|v| (v / 10, v % 10))
}

/// A flow callback as the C interface takes it: `int callback(void *payload, void *reserved)`.
pub type FlowCallback = unsafe extern "C" fn(*mut std::ffi::c_void, *mut std::ffi::c_void) -> std::ffi::c_int;

/// The state of one handle: its PTX and the outcome of its last compilation.
#[derive(Debug, Default)]
pub struct Compiler {
    ptx: Vec<u8>,
    /// The cubin of the last compilation, if it succeeded.
    image: Option<Vec<u8>>,
    /// The logs of the last compilation, as text (no NUL).
    error_log: String,
    info_log: String,
    /// The flow callback and its payload (an address, handed back to the callback untouched).
    callback: Option<(FlowCallback, usize)>,
}

impl Compiler {
    /// A compiler for `ptx` (copied).
    pub fn new(ptx: &[u8]) -> Compiler {
        Compiler { ptx: ptx.to_vec(), ..Compiler::default() }
    }

    /// Compiles the PTX with ptxas's options `args` (as on its command line, without the program
    /// name and input), replacing the previous compilation's image and logs.
    pub fn compile(&mut self, args: &[String]) -> nvPTXCompileResult {
        self.image = None;
        self.error_log.clear();
        self.info_log.clear();
        if self.cancelled() {
            return R::NVPTXCOMPILE_ERROR_CANCELLED;
        }
        let (result, diagnostics, image) = match api_options(args) {
            Err(diagnostics) => (R::NVPTXCOMPILE_ERROR_COMPILATION_FAILURE, diagnostics, None),
            Ok((options, mut diagnostics)) => match ptxas_rs::compile(&self.ptx, &options) {
                Ok(compiled) => {
                    diagnostics.extend(compiled.diagnostics);
                    // `--compiler-stats-file`: appended as the command appends it.
                    if let Some((file, text)) = &compiled.stats_file
                        && append(file, text).is_err()
                    {
                        diagnostics.push(Diagnostic::fatal(format!("Output file '{file}' could not be opened")));
                        (R::NVPTXCOMPILE_ERROR_COMPILATION_FAILURE, diagnostics, None)
                    } else {
                        (R::NVPTXCOMPILE_SUCCESS, diagnostics, Some(compiled.cubin))
                    }
                }
                Err(ptxas_rs::Diagnostics(errors)) => {
                    diagnostics.extend(errors);
                    (failure_code(&diagnostics), diagnostics, None)
                }
            },
        };
        for d in &diagnostics {
            let log = if d.severity == Severity::Info { &mut self.info_log } else { &mut self.error_log };
            log.push_str(&d.to_string());
            log.push('\n');
        }
        if self.cancelled() {
            return R::NVPTXCOMPILE_ERROR_CANCELLED;
        }
        self.image = image;
        result
    }

    /// The cubin of the last compilation, if it succeeded.
    pub fn image(&self) -> Option<&[u8]> {
        self.image.as_deref()
    }

    /// The last compilation's warning, error and fatal lines (empty before any).
    pub fn error_log(&self) -> &str {
        &self.error_log
    }

    /// The last compilation's info lines (empty before any).
    pub fn info_log(&self) -> &str {
        &self.info_log
    }

    /// Sets (or with `None` clears) the flow callback and its payload address.
    pub fn set_flow_callback(&mut self, callback: Option<FlowCallback>, payload: usize) {
        self.callback = callback.map(|c| (c, payload));
    }

    /// Asks the flow callback whether to cancel (its result 1).
    fn cancelled(&self) -> bool {
        self.callback.is_some_and(|(callback, payload)| {
            // SAFETY: the caller registered `callback` for this handle with this payload and
            // promised (NVIDIA's contract) that it is callable with (payload, NULL) meanwhile.
            unsafe { callback(payload as *mut std::ffi::c_void, std::ptr::null_mut()) == 1 }
        })
    }
}

fn append(file: &str, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new().append(true).create(true).open(file)?.write_all(text.as_bytes())
}

/// The options of `args` as the C interface takes them, with the parser's diagnostics, or every
/// diagnostic up to the fatal one that refuses them.
fn api_options(args: &[String]) -> Result<(cli::Options, Vec<Diagnostic>), Vec<Diagnostic>> {
    let parsed = cli::parse(args);
    let mut diagnostics = parsed.diagnostics;
    let options = match parsed.result {
        Ok(o) => o,
        Err(fatal) => {
            diagnostics.push(fatal);
            return Err(diagnostics);
        }
    };
    let refuse = |mut diagnostics: Vec<Diagnostic>, what: String| {
        diagnostics.push(Diagnostic::fatal(format!("ptxas-rs: {what}")));
        Err(diagnostics)
    };
    if let Some(file) = options.input_files.first() {
        return refuse(
            diagnostics,
            format!("nvPTXCompilerCompile compiles the PTX given to nvPTXCompilerCreate, not input file '{file}'"),
        );
    }
    let meaningless = [
        (OptId::InputAsString, !options.input_strings.is_empty()),
        (OptId::OutputFile, options.output_file_explicit),
        (OptId::Help, options.help),
        (OptId::Version, options.version),
        (OptId::ListVersion, options.list_version),
    ];
    if let Some((id, _)) = meaningless.iter().find(|(_, given)| *given) {
        return refuse(diagnostics, format!("option {} has no meaning in nvPTXCompilerCompile", spelled(*id)));
    }
    if !options.given.contains(&OptId::GpuName) {
        return refuse(diagnostics, format!("nvPTXCompilerCompile needs option {}", spelled(OptId::GpuName)));
    }
    Ok((options, diagnostics))
}

/// An option as ptxas's messages spell it: `'--gpu-name' (-arch)`.
fn spelled(id: OptId) -> String {
    match cli::OPTIONS.iter().find(|s| s.id == id) {
        Some(s) => match s.short {
            Some(short) => format!("'--{}' (-{short})", s.long),
            None => format!("'--{}'", s.long),
        },
        None => format!("{id:?}"),
    }
}

/// The result code of a failed compilation: ptxas's `Unsupported .version` error has its own.
fn failure_code(diagnostics: &[Diagnostic]) -> nvPTXCompileResult {
    let unsupported_version =
        diagnostics.iter().any(|d| d.severity.is_error() && d.message.starts_with("Unsupported .version"));
    if unsupported_version {
        R::NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION
    } else {
        R::NVPTXCOMPILE_ERROR_COMPILATION_FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n";

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn compiles_as_the_library_does() {
        let mut c = Compiler::new(PTX.as_bytes());
        assert_eq!(c.image(), None);
        assert_eq!(c.compile(&args(&["--gpu-name=sm_90", "-v"])), R::NVPTXCOMPILE_SUCCESS);
        let options = cli::Options::from_args(&["--gpu-name=sm_90", "-v"]).unwrap();
        let direct = ptxas_rs::compile(PTX, &options).unwrap();
        assert_eq!(c.image(), Some(direct.cubin.as_slice()));
        assert!(c.info_log().contains("Compiling entry function 'k' for 'sm_90'\n"), "{}", c.info_log());
        assert_eq!(c.error_log(), "");
    }

    #[test]
    fn compiler_stats_file_is_appended() {
        let file = std::env::temp_dir().join(format!("ptxas-rs-capi-stats-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let mut c = Compiler::new(PTX.as_bytes());
        let a = args(&["--gpu-name=sm_90", "--compiler-stats=t", "--compiler-stats-file", file.to_str().unwrap()]);
        assert_eq!(c.compile(&a), R::NVPTXCOMPILE_SUCCESS);
        assert_eq!(c.compile(&a), R::NVPTXCOMPILE_SUCCESS);
        let text = std::fs::read_to_string(&file).expect("stats file written");
        assert_eq!(text.matches("ptxas application ptx input >>\n\nCompileTime = ").count(), 2, "{text}");
        assert_eq!(c.info_log(), "");
        let _ = std::fs::remove_file(&file);
        let bad = args(&["--gpu-name=sm_90", "--compiler-stats=t", "--compiler-stats-file", "/nonexistent/s.txt"]);
        assert_eq!(c.compile(&bad), R::NVPTXCOMPILE_ERROR_COMPILATION_FAILURE);
        assert_eq!(c.error_log(), "ptxas fatal   : Output file '/nonexistent/s.txt' could not be opened\n");
    }

    #[test]
    fn refusals_are_located_fatal_lines() {
        let mut c = Compiler::new(PTX.as_bytes());
        for (a, want) in [
            (&["-O3"][..], "ptxas fatal   : ptxas-rs: nvPTXCompilerCompile needs option '--gpu-name' (-arch)\n"),
            (
                &["-arch", "sm_90", "-o", "x.cubin"][..],
                "ptxas fatal   : ptxas-rs: option '--output-file' (-o) has no meaning in nvPTXCompilerCompile\n",
            ),
            (
                &["-arch", "sm_90", "k.ptx"][..],
                "ptxas fatal   : ptxas-rs: nvPTXCompilerCompile compiles the PTX given to nvPTXCompilerCreate, not input file 'k.ptx'\n",
            ),
        ] {
            assert_eq!(c.compile(&args(a)), R::NVPTXCOMPILE_ERROR_COMPILATION_FAILURE, "{a:?}");
            assert_eq!(c.error_log(), want);
            assert_eq!(c.image(), None);
        }
    }

    /// The header's enumerators, in order, are NVIDIA's documented list (CUDA 13.0), numbered
    /// from 0, and equal this crate's enum.
    #[test]
    fn header_enumerators_are_nvidias() {
        let header = include_str!("../include/nvPTXCompiler.h");
        let got: Vec<(String, i32)> = header
            .lines()
            .filter_map(|l| {
                let (name, value) = l.trim().trim_end_matches(',').split_once(" = ")?;
                Some((name.to_owned(), value.parse().ok()?))
            })
            .collect();
        let documented = [
            R::NVPTXCOMPILE_SUCCESS,
            R::NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE,
            R::NVPTXCOMPILE_ERROR_INVALID_INPUT,
            R::NVPTXCOMPILE_ERROR_COMPILATION_FAILURE,
            R::NVPTXCOMPILE_ERROR_INTERNAL,
            R::NVPTXCOMPILE_ERROR_OUT_OF_MEMORY,
            R::NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE,
            R::NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION,
            R::NVPTXCOMPILE_ERROR_UNSUPPORTED_DEVSIDE_SYNC,
            R::NVPTXCOMPILE_ERROR_CANCELLED,
        ];
        let want: Vec<(String, i32)> =
            documented.iter().enumerate().map(|(i, r)| (format!("{r:?}"), i as i32)).collect();
        assert_eq!(got, want);
        assert!(documented.iter().enumerate().all(|(i, r)| *r as i32 == i as i32));
    }

    #[test]
    fn a_panic_is_an_internal_error() {
        let r = ffi::guard(|| panic!("deliberate"));
        assert_eq!(r, R::NVPTXCOMPILE_ERROR_INTERNAL);
    }

    /// Every version reported is accepted by the front end (no `Unsupported .version`), and the
    /// next minor version after the newest is not.
    #[test]
    fn supported_versions_are_the_front_ends() {
        let versions: Vec<(u32, u32)> = supported_versions().collect();
        assert!(versions.windows(2).all(|w| w[0] < w[1]) && versions.len() > 40, "{versions:?}");
        let newest = *versions.last().unwrap();
        for (major, minor) in versions.iter().copied().chain([(newest.0, newest.1 + 1)]) {
            let ptx = format!(".version {major}.{minor}\n.target sm_90\n.address_size 64\n");
            let mut c = Compiler::new(ptx.as_bytes());
            let unsupported = c.compile(&args(&["-arch=sm_90"])) == R::NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION;
            assert_eq!(unsupported, (major, minor) > newest, "{major}.{minor}: {}", c.error_log());
        }
    }

    #[test]
    fn unsupported_version_has_its_code() {
        let mut c = Compiler::new(b".version 99.9\n.target sm_90\n.address_size 64\n");
        assert_eq!(
            c.compile(&args(&["-arch=sm_90"])),
            R::NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION,
            "{}",
            c.error_log()
        );
    }
}
