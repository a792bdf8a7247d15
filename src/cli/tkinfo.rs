//! The command line as ptxas 13.0.88 re-prints it into `.note.nv.tkinfo` (its fifth string):
//! not the arguments as typed but the options that were given, each as `-<short> <value> `
//! (a flag: `-<short>  `, an empty value), in one fixed order of ptxas's own, independent of
//! the order on the command line. `-arch <sm>` is always there; with `-g` (or
//! `--verbose-tkinfo true`) the input file's name leads and `-o <output>` comes just before
//! `-arch`.
//!
//! The order was measured by compiling one kernel with ptxas under many combinations of
//! options and reading the note back (e.g. `-O3 --maxrregcount 64 -lineinfo -v -Werror` →
//! `-v  -maxrregcount 64 -lineinfo  -O 3 -arch sm_90 -Werror  `). [`ORDER`] holds every option
//! whose place was measured. Options ptxas does not print (`--dont-reserve-null-pointer`,
//! `--fast-compile`, `--verbose-tkinfo`, `--compiler-stats`, the input/output options) are in
//! [`SILENT`]; any other
//! option given (its place not measured yet) is printed after the measured ones, in the
//! table's order — a documented approximation.
//!
//! Invariant: the result depends only on which options were given and their values.

use super::table::{OPTIONS, OptId};

/// Where `-o <output>` goes (and the input file's name, which leads), when shown.
const OUTPUT_SLOT: Option<OptId> = None;

/// ptxas's order, measured; `None` marks the `-o <output>` slot.
const ORDER: &[Option<OptId>] = {
    use OptId::*;
    &[
        Some(SuppressStackSizeWarning),
        Some(Entry),
        Some(Verbose),
        Some(WarnOnLocalMemoryUsage),
        Some(WarnOnSpills),
        Some(WarnOnDoublePrecisionUse),
        Some(DontMergeBasicblocks),
        Some(ReturnAtEnd),
        Some(DisableOptimizerConstants),
        Some(Maxrregcount),
        Some(Minnctapersm),
        Some(Maxntid),
        Some(DeviceFunctionMaxrregcount),
        Some(RegisterUsageLevel),
        Some(SuppressDebugInfo),
        Some(OverrideDirectiveValues),
        Some(DeviceDebug),
        Some(GenerateLineInfo),
        Some(SpBoundsCheck),
        Some(DeviceStackProtector),
        Some(OfastCompile),
        Some(OptLevel),
        OUTPUT_SLOT,
        Some(GpuName),
        Some(SuppressDoubleDemoteWarning),
        Some(DefLoadCache),
        Some(DefStoreCache),
        Some(ForceLoadCache),
        Some(ForceStoreCache),
        Some(Machine),
        Some(OptimizeFloatAtomics),
        Some(WarningAsError),
        Some(DisableWarnings),
        Some(CompileOnly),
        Some(PreserveRelocs),
        Some(MakeErrorsVisibleAtExit),
        Some(LegacyBarWarpWideBehavior),
        Some(SuppressAsyncBulkMulticastAdvisoryWarning),
        Some(SuppressSparseMmaAdvisoryInfo),
        Some(SplitCompile),
        Some(Fmad),
        Some(PositionIndependentCode),
        Some(AllowExpensiveOptimizations),
        Some(ExtensibleWholeProgram),
        Some(CompilerAnnotations),
    ]
};

/// Options ptxas never prints into the note.
const SILENT: &[OptId] = {
    use OptId::*;
    &[
        DontReserveNullPointer,
        FastCompile,
        VerboseTkinfo,
        OutputFile,
        InputAsString,
        OptionsFile,
        CompilerStats,
        CompilerStatsFile,
    ]
};

/// One given option: `None` for a flag, else its value as ptxas prints it.
pub(super) type Given = Option<String>;

/// The note's argument string. `given(id)` says whether the option was given and with which
/// value; `gpu` is the effective `-arch`; `input`/`output` the file names shown with `-g` or
/// `--verbose-tkinfo true`.
pub(super) fn arguments(
    given: &dyn Fn(OptId) -> Option<Given>,
    gpu: &str,
    input: Option<&str>,
    output: &str,
) -> String {
    let show_files =
        given(OptId::DeviceDebug).is_some() || matches!(given(OptId::VerboseTkinfo), Some(Some(ref v)) if v == "true");
    let mut s = String::new();
    if show_files && let Some(input) = input {
        let name = std::path::Path::new(input).file_name().and_then(|n| n.to_str()).unwrap_or(input);
        s.push_str(name);
        s.push(' ');
    }
    let push = |s: &mut String, id: OptId, v: Given| {
        let spec = &OPTIONS[id as usize];
        s.push('-');
        s.push_str(spec.short.unwrap_or(spec.long));
        s.push(' ');
        s.push_str(v.as_deref().unwrap_or(""));
        s.push(' ');
    };
    for slot in ORDER {
        match *slot {
            None if show_files => {
                s.push_str("-o ");
                s.push_str(output);
                s.push(' ');
            }
            None => {}
            Some(OptId::GpuName) => push(&mut s, OptId::GpuName, Some(gpu.to_string())),
            Some(id) => {
                if let Some(v) = given(id) {
                    push(&mut s, id, v);
                }
            }
        }
    }
    for spec in OPTIONS {
        let id = spec.id;
        if ORDER.contains(&Some(id)) || SILENT.contains(&id) {
            continue;
        }
        if let Some(v) = given(id) {
            push(&mut s, id, v);
        }
    }
    s
}
