//! The argument-vector parser: ptxas's option syntax driven by [`super::OPTIONS`].
//!
//! [`parse`] walks the arguments once, left to right, exactly as ptxas does: the first syntax error
//! is fatal and ends parsing (warnings issued before it are kept), options files are spliced in
//! where they appear, and the result is a typed [`Options`]. Invariants: no panics on any input
//! (arbitrary strings, empty strings, lone dashes), and messages match ptxas 13.0.88 byte for byte.

use std::collections::BTreeMap;

use super::diag::Diagnostic;
use super::options::{CompilerStat, Options};
use super::{OPTIONS, OptId, OptKind, OptSpec, by_long, by_short, spec};

/// Short options that also accept a value attached to the name (`-O3`, `-m64`), and whether the
/// bare name alone is allowed (a bare `-O` means `-O=`, i.e. level 0; a bare `-m` needs a value).
const ATTACHED: &[(OptId, bool)] = &[(OptId::OptLevel, true), (OptId::Machine, false)];

/// How deeply options files may include options files before we give up (ptxas has no limit and
/// recurses forever on a self-including file; we stop instead).
const MAX_OPTIONS_FILE_DEPTH: usize = 32;

/// The outcome of parsing an argument vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// Diagnostics issued while parsing (deprecations, redefinitions, options requiring others),
    /// in order. ptxas prints these regardless of `-w`/`-Werror`.
    pub diagnostics: Vec<Diagnostic>,
    /// The options, or the fatal diagnostic that stopped parsing.
    pub result: Result<Options, Diagnostic>,
}

/// A parsed value, as stored while walking the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    Flag,
    Bool(bool),
    Int(i32),
    Str(String),
    List(Vec<String>),
}

/// Parses `args` (without the program name).
pub fn parse(args: &[String]) -> Parsed {
    let mut p = Parser {
        values: vec![None; OPTIONS.len()],
        given: Vec::new(),
        inputs: Vec::new(),
        diagnostics: Vec::new(),
        depth: 0,
    };
    let result = p.run(args).map(|()| {
        p.post_parse_checks();
        p.build()
    });
    Parsed { diagnostics: p.diagnostics, result }
}

struct Parser {
    values: Vec<Option<Value>>,
    /// The options given, each once, in the order of their first occurrence.
    given: Vec<OptId>,
    inputs: Vec<String>,
    diagnostics: Vec<Diagnostic>,
    depth: usize,
}

impl Parser {
    fn run(&mut self, args: &[String]) -> Result<(), Diagnostic> {
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            i += 1;
            if !arg.starts_with('-') || arg == "-" {
                self.inputs.push(arg.clone());
                continue;
            }
            let (spec, value) = match resolve(arg)? {
                Resolved::Named { spec, eq_value } => {
                    if spec.deprecated {
                        self.diagnostics
                            .push(Diagnostic::warning(format!("option '{}' has been deprecated", spec.long)));
                    }
                    if !spec.kind.takes_value() {
                        if eq_value.is_some() {
                            let name = arg.split('=').next().unwrap_or(arg);
                            return Err(Diagnostic::fatal(format!("no argument expected after '{name}'")));
                        }
                        (spec, None)
                    } else if let Some(v) = eq_value {
                        (spec, Some(v.to_owned()))
                    } else if ATTACHED.iter().any(|&(id, bare)| bare && id == spec.id) && !arg.starts_with("--") {
                        (spec, Some(String::new()))
                    } else if let Some(next) = args.get(i) {
                        i += 1;
                        (spec, Some(next.clone()))
                    } else {
                        return Err(Diagnostic::fatal(format!("argument expected after '{arg}'")));
                    }
                }
                Resolved::Attached { spec, value } => (spec, Some(value.to_owned())),
            };
            self.store(spec, value)?;
        }
        Ok(())
    }

    /// Records one occurrence of `spec` with `value` (None for flags).
    fn store(&mut self, spec: &'static OptSpec, value: Option<String>) -> Result<(), Diagnostic> {
        if !self.given.contains(&spec.id) {
            self.given.push(spec.id);
        }
        let v = value.unwrap_or_default();
        let new = match spec.kind {
            OptKind::Flag => Value::Flag,
            OptKind::Bool => match v.as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => return Err(Diagnostic::fatal(format!("'{v}': expected true or false"))),
            },
            OptKind::Int => {
                let n = parse_c_int(&v).map_err(|e| match e {
                    NumError::NotANumber => Diagnostic::fatal(format!("'{v}': expected a number")),
                    NumError::OutOfRange => Diagnostic::fatal(format!("32-bit integer value ({v}) out of range")),
                })?;
                if !spec.allowed.is_empty() && !spec.allowed.contains(&n.to_string().as_str()) {
                    return Err(not_defined(&v, spec));
                }
                Value::Int(n)
            }
            OptKind::Str => {
                if !spec.allowed.is_empty() && !spec.allowed.contains(&v.as_str()) {
                    return Err(not_defined(&v, spec));
                }
                Value::Str(v)
            }
            OptKind::List | OptKind::ListRaw => {
                let items: Vec<String> = if spec.kind == OptKind::ListRaw {
                    vec![v]
                } else {
                    v.split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect()
                };
                for item in &items {
                    if !spec.allowed.is_empty() && !spec.allowed.contains(&item.as_str()) {
                        return Err(not_defined(item, spec));
                    }
                    if spec.id == OptId::ProfileOptions && !item.contains('=') {
                        return Err(Diagnostic::fatal(format!("'{item}' is not in 'keyword=value' format")));
                    }
                }
                if spec.id == OptId::OptionsFile {
                    for file in &items {
                        self.options_file(file)?;
                    }
                }
                match &mut self.values[spec.id as usize] {
                    Some(Value::List(old)) => old.extend(items),
                    slot => *slot = Some(Value::List(items)),
                }
                return Ok(());
            }
        };
        let slot = &mut self.values[spec.id as usize];
        if slot.as_ref().is_some_and(|old| *old != new) {
            self.diagnostics.push(Diagnostic::warning(format!(
                "incompatible redefinition for option '{}', the last value of this option was used",
                spec.long
            )));
        }
        *slot = Some(new);
        Ok(())
    }

    /// Splices the words of options file `file` into the argument stream.
    fn options_file(&mut self, file: &str) -> Result<(), Diagnostic> {
        let cannot_open = || Diagnostic::fatal(format!("Could not open options file '{file}'"));
        if self.depth >= MAX_OPTIONS_FILE_DEPTH {
            return Err(Diagnostic::fatal(format!(
                "ptxas-rs: options files nested more than {MAX_OPTIONS_FILE_DEPTH} deep at '{file}'"
            )));
        }
        let bytes = std::fs::read(file).map_err(|_| cannot_open())?;
        let words = split_options_file(&String::from_utf8_lossy(&bytes));
        self.depth += 1;
        let r = self.run(&words);
        self.depth -= 1;
        r
    }

    /// Checks ptxas makes once all arguments are read, before deciding what to do.
    fn post_parse_checks(&mut self) {
        for (needs, needed) in
            [(OptId::CompilerStatsFile, OptId::CompilerStats), (OptId::FtracePhaseAfter, OptId::FdeviceTimeTrace)]
        {
            if self.values[needs as usize].is_some() && self.values[needed as usize].is_none() {
                self.diagnostics.push(Diagnostic::warning(format!(
                    "Option '--{}' requires option '--{}'; ignoring since latter is not specified",
                    spec(needs).long,
                    spec(needed).long
                )));
            }
        }
    }

    fn flag(&self, id: OptId) -> bool {
        self.values[id as usize].is_some()
    }

    fn bool(&self, id: OptId) -> Option<bool> {
        match self.values[id as usize] {
            Some(Value::Bool(b)) => Some(b),
            _ => None,
        }
    }

    fn int(&self, id: OptId) -> Option<i32> {
        match self.values[id as usize] {
            Some(Value::Int(n)) => Some(n),
            _ => None,
        }
    }

    fn str(&self, id: OptId) -> Option<String> {
        match &self.values[id as usize] {
            Some(Value::Str(s)) => Some(s.clone()),
            _ => None,
        }
    }

    fn list(&self, id: OptId) -> Vec<String> {
        match &self.values[id as usize] {
            Some(Value::List(l)) => l.clone(),
            _ => Vec::new(),
        }
    }

    fn build(&mut self) -> Options {
        use OptId as O;
        let d = Options::default();
        let mut hidden = BTreeMap::new();
        for s in OPTIONS.iter().filter(|s| !s.documented()) {
            let vals = match &self.values[s.id as usize] {
                None => continue,
                Some(Value::Flag) => Vec::new(),
                Some(Value::Bool(b)) => vec![b.to_string()],
                Some(Value::Int(n)) => vec![n.to_string()],
                Some(Value::Str(v)) => vec![v.clone()],
                Some(Value::List(l)) => l.clone(),
            };
            hidden.insert(s.long, vals);
        }
        let tkinfo_arguments = super::tkinfo::arguments(
            &|id| {
                self.values[id as usize].as_ref().map(|v| match v {
                    Value::Flag => None,
                    Value::Bool(b) => Some(b.to_string()),
                    Value::Int(n) => Some(n.to_string()),
                    Value::Str(v) => Some(v.clone()),
                    Value::List(l) => Some(l.join(",")),
                })
            },
            &self.str(O::GpuName).unwrap_or_else(|| d.gpu_name.clone()),
            self.inputs.first().map(String::as_str),
            &self.str(O::OutputFile).unwrap_or_else(|| d.output_file.clone()),
        );
        Options {
            tkinfo_arguments,
            input_files: std::mem::take(&mut self.inputs),
            input_strings: self.list(O::InputAsString),
            options_files: self.list(O::OptionsFile),
            output_file: self.str(O::OutputFile).unwrap_or(d.output_file),
            output_file_explicit: self.flag(O::OutputFile),
            gpu_name: self.str(O::GpuName).unwrap_or(d.gpu_name),
            machine: self.int(O::Machine).and_then(|n| u32::try_from(n).ok()).unwrap_or(d.machine),
            compile_only: self.flag(O::CompileOnly),
            entries: self.list(O::Entry),
            help: self.flag(O::Help),
            version: self.flag(O::Version),
            list_version: self.flag(O::ListVersion),
            verbose: self.flag(O::Verbose),
            compiler_stats: self.list(O::CompilerStats).iter().filter_map(|s| CompilerStat::from_name(s)).collect(),
            compiler_stats_file: self.str(O::CompilerStatsFile),
            opt_level: self.int(O::OptLevel).unwrap_or(d.opt_level),
            opt_level_explicit: self.flag(O::OptLevel),
            ofast_compile_raw: self.str(O::OfastCompile),
            fast_compile: d.fast_compile,
            allow_expensive_optimizations: self.bool(O::AllowExpensiveOptimizations),
            fmad: self.bool(O::Fmad).unwrap_or(d.fmad),
            register_usage_level: self.int(O::RegisterUsageLevel),
            split_compile: self.int(O::SplitCompile),
            optimize_float_atomics: self.flag(O::OptimizeFloatAtomics),
            disable_optimizer_constants: self.flag(O::DisableOptimizerConstants),
            dont_merge_basicblocks: self.flag(O::DontMergeBasicblocks),
            return_at_end: self.flag(O::ReturnAtEnd),
            maxrregcount_raw: self.str(O::Maxrregcount),
            maxrregcount: None,
            device_function_maxrregcount_raw: self.str(O::DeviceFunctionMaxrregcount),
            device_function_maxrregcount: None,
            maxntid: self.list(O::Maxntid),
            minnctapersm: self.int(O::Minnctapersm),
            override_directive_values: self.flag(O::OverrideDirectiveValues),
            device_debug: self.flag(O::DeviceDebug),
            line_info: self.flag(O::GenerateLineInfo),
            suppress_debug_info: self.flag(O::SuppressDebugInfo),
            sp_bounds_check: self.flag(O::SpBoundsCheck),
            device_stack_protector: self.bool(O::DeviceStackProtector),
            sanitize: self.str(O::Sanitize),
            g_tensor_memory_access_check: self.flag(O::GTensorMemoryAccessCheck),
            gno_tensor_memory_access_check: self.flag(O::GnoTensorMemoryAccessCheck),
            make_errors_visible_at_exit: self.flag(O::MakeErrorsVisibleAtExit),
            warning_as_error: self.flag(O::WarningAsError),
            disable_warnings: self.flag(O::DisableWarnings),
            warn_on_spills: self.flag(O::WarnOnSpills),
            warn_on_local_memory_usage: self.flag(O::WarnOnLocalMemoryUsage),
            warn_on_double_precision_use: self.flag(O::WarnOnDoublePrecisionUse),
            suppress_stack_size_warning: self.flag(O::SuppressStackSizeWarning),
            suppress_double_demote_warning: self.flag(O::SuppressDoubleDemoteWarning),
            suppress_async_bulk_multicast_advisory_warning: self.flag(O::SuppressAsyncBulkMulticastAdvisoryWarning),
            suppress_sparse_mma_advisory_info: self.flag(O::SuppressSparseMmaAdvisoryInfo),
            def_load_cache: self.str(O::DefLoadCache),
            def_store_cache: self.str(O::DefStoreCache),
            force_load_cache: self.str(O::ForceLoadCache),
            force_store_cache: self.str(O::ForceStoreCache),
            position_independent_code: self.bool(O::PositionIndependentCode),
            preserve_relocs: self.flag(O::PreserveRelocs),
            extensible_whole_program: self.flag(O::ExtensibleWholeProgram),
            compile_as_tools_patch: self.flag(O::CompileAsToolsPatch),
            compiler_annotations: self.flag(O::CompilerAnnotations),
            legacy_bar_warp_wide_behavior: self.flag(O::LegacyBarWarpWideBehavior),
            given: std::mem::take(&mut self.given),
            hidden,
        }
    }
}

/// What an argument starting with `-` names.
enum Resolved<'a> {
    /// An option named exactly, with the text after `=` if any.
    Named { spec: &'static OptSpec, eq_value: Option<&'a str> },
    /// A short option with its value glued on (`-O3`).
    Attached { spec: &'static OptSpec, value: &'a str },
}

/// Finds the option `arg` names, or the `Unknown option` diagnostic.
fn resolve(arg: &str) -> Result<Resolved<'_>, Diagnostic> {
    let (long, body) = match arg.strip_prefix("--") {
        Some(body) => (true, body),
        None => (false, arg.strip_prefix('-').unwrap_or(arg)),
    };
    let (name, eq_value) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    };
    let found = if long { by_long(name) } else { by_short(name) };
    if let Some(spec) = found {
        return Ok(Resolved::Named { spec, eq_value });
    }
    if !long {
        for &(id, _) in ATTACHED {
            let s = spec(id);
            if let Some(value) = s.short.and_then(|sh| body.strip_prefix(sh)) {
                return Ok(Resolved::Attached { spec: s, value });
            }
        }
    }
    // ptxas names the argument without its first dash and without any `=value`.
    let shown = arg.get(1..).unwrap_or("");
    let shown = shown.split('=').next().unwrap_or(shown);
    Err(Diagnostic::fatal(format!("Unknown option '{shown}'")))
}

fn not_defined(value: &str, spec: &OptSpec) -> Diagnostic {
    Diagnostic::fatal(format!("Value '{value}' is not defined for option '{}'", spec.long))
}

/// Why [`parse_c_int`] rejected a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumError {
    /// Not entirely consumed by a C `strtol(s, &end, 0)`.
    NotANumber,
    /// A number, but outside `i32`.
    OutOfRange,
}

/// Parses `s` as C's `strtol(s, &end, 0)` does and requires `*end == '\0'`: optional leading
/// whitespace and sign, then `0x` hex, `0` octal or decimal digits. An empty string is 0 (no digits,
/// `end == s` points at the terminator), exactly as ptxas accepts `-O=`.
pub(crate) fn parse_c_int(s: &str) -> Result<i32, NumError> {
    let b = s.as_bytes();
    let mut i = b.iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')).count();
    let neg = match b.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let (radix, start) = match (b.get(i), b.get(i + 1), b.get(i + 2)) {
        (Some(b'0'), Some(b'x' | b'X'), Some(c)) if c.is_ascii_hexdigit() => (16, i + 2),
        (Some(b'0'), _, _) => (8, i),
        _ => (10, i),
    };
    let mut value: i128 = 0;
    let mut j = start;
    while let Some(d) = b.get(j).and_then(|&c| (c as char).to_digit(radix)) {
        value = (value * i128::from(radix) + i128::from(d)).min(i128::from(u64::MAX));
        j += 1;
    }
    // With no digits, strtol leaves `end` at the start of the string.
    let end = if j == start { 0 } else { j };
    if end != b.len() {
        return Err(NumError::NotANumber);
    }
    let value = if neg { -value } else { value };
    i32::try_from(value).map_err(|_| NumError::OutOfRange)
}

/// Splits an options file into words: whitespace separates, double quotes group (and are removed).
fn split_options_file(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::FastCompile;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    fn ok(s: &[&str]) -> Options {
        match parse(&args(s)).result {
            Ok(o) => o,
            Err(e) => panic!("{s:?}: {e}"),
        }
    }

    fn err(s: &[&str]) -> String {
        match parse(&args(s)).result {
            Ok(_) => panic!("{s:?} parsed"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn defaults() {
        let o = ok(&[]);
        assert_eq!(o, Options::default());
        assert_eq!(o.gpu_name, "sm_75");
        assert_eq!(o.output_file, "elf.o");
        assert_eq!(o.opt_level, 3);
        assert!(!o.opt_level_explicit);
        assert!(o.fmad);
        assert_eq!(o.machine, 64);
        assert_eq!(o.fast_compile, FastCompile::Off);
        assert!(!o.has_input());
    }

    #[test]
    fn value_forms() {
        for form in [&["-arch", "sm_90"][..], &["-arch=sm_90"], &["--gpu-name", "sm_90"], &["--gpu-name=sm_90"]] {
            assert_eq!(ok(form).gpu_name, "sm_90", "{form:?}");
        }
        assert_eq!(err(&["--arch", "sm_90"]), "ptxas fatal   : Unknown option '-arch'");
        assert_eq!(err(&["-gpu-name", "sm_90"]), "ptxas fatal   : Unknown option 'gpu-name'");
        assert_eq!(ok(&["-o", "-v"]).output_file, "-v");
        assert_eq!(ok(&["-o=a=b"]).output_file, "a=b");
    }

    #[test]
    fn attached_values() {
        assert_eq!(ok(&["-O2"]).opt_level, 2);
        assert_eq!(ok(&["-O=1"]).opt_level, 1);
        let bare = ok(&["-O", "k.ptx"]);
        assert_eq!((bare.opt_level, bare.opt_level_explicit), (0, true));
        assert_eq!(bare.input_files, ["k.ptx"]);
        assert_eq!(ok(&["-O0x10"]).opt_level, 16);
        assert_eq!(ok(&["-O-1"]).opt_level, -1);
        assert_eq!(ok(&["-m64"]).machine, 64);
        assert_eq!(err(&["-Ofoo"]), "ptxas fatal   : 'foo': expected a number");
        assert_eq!(err(&["-machine"]), "ptxas fatal   : 'achine': expected a number");
        assert_eq!(err(&["-m"]), "ptxas fatal   : argument expected after '-m'");
        assert_eq!(err(&["-m", "32"]), "ptxas fatal   : Value '32' is not defined for option 'machine'");
        assert_eq!(err(&["-osomething"]), "ptxas fatal   : Unknown option 'osomething'");
        assert!(ok(&["-Ofc", "max"]).ofast_compile_raw.as_deref() == Some("max"));
        assert_eq!(err(&["--opt-level2"]), "ptxas fatal   : Unknown option '-opt-level2'");
    }

    #[test]
    fn flags_and_bools() {
        let o = ok(&["-v", "-c", "-g", "-lineinfo", "--fmad=false", "-w", "-Werror"]);
        assert!(
            o.verbose && o.compile_only && o.device_debug && o.line_info && o.disable_warnings && o.warning_as_error
        );
        assert!(!o.fmad);
        assert_eq!(err(&["-v=true"]), "ptxas fatal   : no argument expected after '-v'");
        assert_eq!(err(&["--verbose=1"]), "ptxas fatal   : no argument expected after '--verbose'");
        assert_eq!(err(&["-fmad", "x"]), "ptxas fatal   : 'x': expected true or false");
    }

    #[test]
    fn lists_and_redefinitions() {
        let o = ok(&["-e", "a,b", "-e", "c", "--compiler-stats=time,m"]);
        assert_eq!(o.entries, ["a", "b", "c"]);
        assert_eq!(o.compiler_stats, [CompilerStat::Time, CompilerStat::Memory]);
        let p = parse(&args(&["-arch", "sm_90", "-arch", "sm_80", "-O3", "-O03"]));
        assert_eq!(p.result.map(|o| o.gpu_name), Ok("sm_80".to_owned()));
        assert_eq!(p.diagnostics.len(), 1);
        assert_eq!(
            p.diagnostics[0].to_string(),
            "ptxas warning : incompatible redefinition for option 'gpu-name', the last value of this option was used"
        );
        assert_eq!(
            err(&["--compiler-stats=time,bogus"]),
            "ptxas fatal   : Value 'bogus' is not defined for option 'compiler-stats'"
        );
        assert_eq!(ok(&["-ias", "a,b"]).input_strings, ["a,b"]);
    }

    #[test]
    fn unknown_and_missing() {
        assert_eq!(err(&["-foo"]), "ptxas fatal   : Unknown option 'foo'");
        assert_eq!(err(&["--foo=bar"]), "ptxas fatal   : Unknown option '-foo'");
        assert_eq!(err(&["--"]), "ptxas fatal   : Unknown option '-'");
        assert_eq!(err(&["-arch"]), "ptxas fatal   : argument expected after '-arch'");
        assert_eq!(err(&["-arch=sm_60"]), "ptxas fatal   : Value 'sm_60' is not defined for option 'gpu-name'");
        assert_eq!(err(&["-O99999999999"]), "ptxas fatal   : 32-bit integer value (99999999999) out of range");
        assert_eq!(ok(&["-"]).input_files, ["-"]);
    }

    #[test]
    fn deprecated_and_hidden() {
        let p = parse(&args(&["-fext", "-sw2614554", "true", "-Op"]));
        assert_eq!(p.diagnostics[0].to_string(), "ptxas warning : option 'force-externals' has been deprecated");
        let o = p.result.expect("parses");
        assert_eq!(o.hidden.get("sw2614554"), Some(&vec!["true".to_owned()]));
        assert!(o.hidden.contains_key("opt-pointers"));
        let p = parse(&args(&["-k"]));
        assert_eq!(p.diagnostics.len(), 1);
        assert_eq!(p.result.unwrap_err().to_string(), "ptxas fatal   : argument expected after '-k'");
    }

    #[test]
    fn c_numbers() {
        assert_eq!(parse_c_int(""), Ok(0));
        assert_eq!(parse_c_int(" 32"), Ok(32));
        assert_eq!(parse_c_int("+3"), Ok(3));
        assert_eq!(parse_c_int("010"), Ok(8));
        assert_eq!(parse_c_int("0x1F"), Ok(31));
        assert_eq!(parse_c_int("0x"), Err(NumError::NotANumber));
        assert_eq!(parse_c_int("08"), Err(NumError::NotANumber));
        assert_eq!(parse_c_int("  "), Err(NumError::NotANumber));
        assert_eq!(parse_c_int("3 "), Err(NumError::NotANumber));
        assert_eq!(parse_c_int("-2147483648"), Ok(i32::MIN));
        assert_eq!(parse_c_int("2147483648"), Err(NumError::OutOfRange));
        assert_eq!(parse_c_int("99999999999999999999999999999"), Err(NumError::OutOfRange));
    }

    #[test]
    fn options_file_words() {
        assert_eq!(split_options_file("-arch \"sm_90\"\n -o \"a b\"  x"), ["-arch", "sm_90", "-o", "a b", "x"]);
        assert_eq!(split_options_file(""), Vec::<String>::new());
        assert_eq!(split_options_file("\"\""), [""]);
    }

    #[test]
    fn options_file_splices() {
        let dir = std::env::temp_dir().join(format!("ptxas-rs-optf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let f = dir.join("opts");
        std::fs::write(&f, "-arch sm_90 -v a.ptx\n").expect("write");
        let fs = f.to_string_lossy().into_owned();
        let o = ok(&["-optf", &fs, "b.ptx"]);
        assert_eq!((o.gpu_name.as_str(), o.verbose), ("sm_90", true));
        assert_eq!(o.input_files, ["a.ptx", "b.ptx"]);
        let selfref = dir.join("self");
        std::fs::write(&selfref, format!("-optf {}", selfref.display())).expect("write");
        assert!(err(&["-optf", &selfref.to_string_lossy()]).contains("nested"));
        assert_eq!(err(&["-optf", "/nonexistent/x"]), "ptxas fatal   : Could not open options file '/nonexistent/x'");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn odd_argument_vectors_never_panic() {
        let atoms = [
            "",
            "-",
            "--",
            "---",
            "=",
            "-=",
            "--=",
            "-O",
            "-O=",
            "-m",
            "-m=",
            "-arch",
            "-arch=",
            "-e",
            ",",
            ",,",
            "-e=,",
            "-optf",
            "--options-file=",
            "-ias",
            "é",
            "-é",
            "--é=ü",
            "-Oé",
            "-m\u{0}",
            "-\u{0}",
            "-v=",
            "0x",
            "-O0x",
            "--compiler-stats=",
            "-po",
            "=x",
            "-fmad",
            "true",
            "-maxntid",
            "-k",
        ];
        // Every pair and triple of atoms.
        for a in atoms {
            for b in atoms {
                let _ = parse(&args(&[a, b]));
                for c in atoms {
                    let _ = parse(&args(&[a, b, c]));
                }
            }
        }
    }
}
