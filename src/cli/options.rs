//! The typed result of parsing: [`Options`], one field per option ptxas accepts.
//!
//! Fields hold what the user wrote after syntax checks (numbers parsed, allowed values checked);
//! checks that ptxas makes later, after deciding there is something to compile (`-Ofc` values,
//! `-maxrregcount` forms, cache modifiers, option conflicts), live in [`super::validate`], which
//! reads the raw strings kept here. Defaults are ptxas's (`sm_75`, `elf.o`, `-O3`, `-fmad true`).

use std::collections::BTreeMap;

/// A register budget given to `--maxrregcount` / `--device-function-maxrregcount`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegCount {
    /// An explicit count (may be out of range; validation warns and drops counts above 255).
    N(i64),
    /// `archmax`: the architecture's maximum (255 on every supported target).
    ArchMax,
    /// `archmin`: the architecture's ABI minimum usable budget (32).
    ArchMin,
}

impl RegCount {
    /// The numeric budget this stands for (`archmax` = 255, `archmin` = 32).
    pub const fn value(self) -> i64 {
        match self {
            RegCount::N(n) => n,
            RegCount::ArchMax => 255,
            RegCount::ArchMin => 32,
        }
    }
}

/// `--Ofast-compile` levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FastCompile {
    /// `0`: disabled (default).
    #[default]
    Off,
    /// `min`: forces O1, keeps expensive optimisations.
    Min,
    /// `mid`: forces O1.
    Mid,
    /// `max`: forces O0.
    Max,
}

/// One `--compiler-stats` item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompilerStat {
    /// `time` / `t`.
    Time,
    /// `memory` / `m`.
    Memory,
    /// `phase-wise` / `p`.
    PhaseWise,
    /// `detailed` / `d`.
    Detailed,
}

impl CompilerStat {
    /// Parses one list item (the parser has already checked it against the allowed values).
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "time" | "t" => CompilerStat::Time,
            "memory" | "m" => CompilerStat::Memory,
            "phase-wise" | "p" => CompilerStat::PhaseWise,
            "detailed" | "d" => CompilerStat::Detailed,
            _ => return None,
        })
    }
}

/// Every option ptxas 13.0.88 accepts, typed. Options the compiler does not use yet are still
/// recorded so that later stages can honour them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    // ---- inputs and outputs
    /// PTX files, in order (`-` is stdin).
    pub input_files: Vec<String>,
    /// `--input-as-string`: PTX modules given on the command line.
    pub input_strings: Vec<String>,
    /// `--options-file`: files already spliced into the arguments (kept for reference).
    pub options_files: Vec<String>,
    /// `--output-file` (default `elf.o`).
    pub output_file: String,
    /// Whether `--output-file` was given.
    pub output_file_explicit: bool,
    /// `--gpu-name` (default `sm_75`).
    pub gpu_name: String,
    /// `--machine` (only 64).
    pub machine: u32,
    /// `--compile-only`: relocatable object.
    pub compile_only: bool,
    /// `--entry`: compile only these entries (empty: all).
    pub entries: Vec<String>,

    // ---- informational
    /// `--help`.
    pub help: bool,
    /// `--version`.
    pub version: bool,
    /// `--list-version`.
    pub list_version: bool,
    /// `--verbose`.
    pub verbose: bool,
    /// `--compiler-stats` items, in order.
    pub compiler_stats: Vec<CompilerStat>,
    /// `--compiler-stats-file`.
    pub compiler_stats_file: Option<String>,

    // ---- optimisation
    /// `--opt-level` (default 3; any 32-bit integer is accepted).
    pub opt_level: i32,
    /// Whether `--opt-level`/`-O` was given (a bare `-O` counts, as level 0).
    pub opt_level_explicit: bool,
    /// `--Ofast-compile` as written (validated by [`super::validate`]).
    pub ofast_compile_raw: Option<String>,
    /// `--Ofast-compile`, once validated (`Off` until then).
    pub fast_compile: FastCompile,
    /// `--allow-expensive-optimizations` (None: on for O ≥ 2).
    pub allow_expensive_optimizations: Option<bool>,
    /// `--fmad` (default true).
    pub fmad: bool,
    /// `--register-usage-level` (0..=10, default 5; out-of-range values are ignored with a warning).
    pub register_usage_level: Option<i32>,
    /// `--split-compile`.
    pub split_compile: Option<i32>,
    /// `--optimize-float-atomics`.
    pub optimize_float_atomics: bool,
    /// `--disable-optimizer-constants`.
    pub disable_optimizer_constants: bool,
    /// `--dont-merge-basicblocks`.
    pub dont_merge_basicblocks: bool,
    /// `--return-at-end`.
    pub return_at_end: bool,

    // ---- registers and occupancy
    /// `--maxrregcount` as written (validated by [`super::validate`]).
    pub maxrregcount_raw: Option<String>,
    /// `--maxrregcount`, once validated.
    pub maxrregcount: Option<RegCount>,
    /// `--device-function-maxrregcount` as written.
    pub device_function_maxrregcount_raw: Option<String>,
    /// `--device-function-maxrregcount`, once validated.
    pub device_function_maxrregcount: Option<RegCount>,
    /// `--maxntid` items as written.
    pub maxntid: Vec<String>,
    /// `--minnctapersm`.
    pub minnctapersm: Option<i32>,
    /// `--override-directive-values`.
    pub override_directive_values: bool,

    // ---- debug
    /// `--device-debug` (`-g`).
    pub device_debug: bool,
    /// `--generate-line-info`.
    pub line_info: bool,
    /// `--suppress-debug-info`.
    pub suppress_debug_info: bool,
    /// `--sp-bounds-check`.
    pub sp_bounds_check: bool,
    /// `--device-stack-protector`.
    pub device_stack_protector: Option<bool>,
    /// `--sanitize` (`memcheck` or `threadsteer`).
    pub sanitize: Option<String>,
    /// `--g-tensor-memory-access-check`.
    pub g_tensor_memory_access_check: bool,
    /// `--gno-tensor-memory-access-check`.
    pub gno_tensor_memory_access_check: bool,
    /// `--make-errors-visible-at-exit`.
    pub make_errors_visible_at_exit: bool,

    // ---- warnings
    /// `--warning-as-error`.
    pub warning_as_error: bool,
    /// `--disable-warnings`.
    pub disable_warnings: bool,
    /// `--warn-on-spills`.
    pub warn_on_spills: bool,
    /// `--warn-on-local-memory-usage`.
    pub warn_on_local_memory_usage: bool,
    /// `--warn-on-double-precision-use`.
    pub warn_on_double_precision_use: bool,
    /// `--suppress-stack-size-warning`.
    pub suppress_stack_size_warning: bool,
    /// `--suppress-double-demote-warning`.
    pub suppress_double_demote_warning: bool,
    /// `--suppress-async-bulk-multicast-advisory-warning`.
    pub suppress_async_bulk_multicast_advisory_warning: bool,
    /// `--suppress-sparse-mma-advisory-info`.
    pub suppress_sparse_mma_advisory_info: bool,

    // ---- code generation / linking
    /// `--def-load-cache` as written (`ca`, `cg`, `cs`, `lu`, `cv`).
    pub def_load_cache: Option<String>,
    /// `--def-store-cache` as written (`cg`, `cs`, `wb`, `wt`).
    pub def_store_cache: Option<String>,
    /// `--force-load-cache` as written.
    pub force_load_cache: Option<String>,
    /// `--force-store-cache` as written.
    pub force_store_cache: Option<String>,
    /// `--position-independent-code` (None: on for whole-program compilation).
    pub position_independent_code: Option<bool>,
    /// `--preserve-relocs`.
    pub preserve_relocs: bool,
    /// `--extensible-whole-program`.
    pub extensible_whole_program: bool,
    /// `--compile-as-tools-patch`.
    pub compile_as_tools_patch: bool,
    /// `--compiler-annotations`.
    pub compiler_annotations: bool,
    /// `--legacy-bar-warp-wide-behavior`.
    pub legacy_bar_warp_wide_behavior: bool,

    /// The command line as ptxas re-prints it into `.note.nv.tkinfo` (`-O 3 -arch sm_90 `;
    /// see `cli::tkinfo`).
    pub tkinfo_arguments: String,
    /// Every option given, once each, in the order of its first occurrence (what
    /// [`super::support::refusal`] checks).
    pub given: Vec<super::OptId>,
    /// Hidden options that were given, by long name, with their values as written
    /// (flags map to an empty list). Accepted for compatibility; not yet acted on.
    pub hidden: BTreeMap<&'static str, Vec<String>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tkinfo_arguments: "-arch sm_75 ".into(),
            input_files: Vec::new(),
            input_strings: Vec::new(),
            options_files: Vec::new(),
            output_file: "elf.o".to_owned(),
            output_file_explicit: false,
            gpu_name: "sm_75".to_owned(),
            machine: 64,
            compile_only: false,
            entries: Vec::new(),
            help: false,
            version: false,
            list_version: false,
            verbose: false,
            compiler_stats: Vec::new(),
            compiler_stats_file: None,
            opt_level: 3,
            opt_level_explicit: false,
            ofast_compile_raw: None,
            fast_compile: FastCompile::Off,
            allow_expensive_optimizations: None,
            fmad: true,
            register_usage_level: None,
            split_compile: None,
            optimize_float_atomics: false,
            disable_optimizer_constants: false,
            dont_merge_basicblocks: false,
            return_at_end: false,
            maxrregcount_raw: None,
            maxrregcount: None,
            device_function_maxrregcount_raw: None,
            device_function_maxrregcount: None,
            maxntid: Vec::new(),
            minnctapersm: None,
            override_directive_values: false,
            device_debug: false,
            line_info: false,
            suppress_debug_info: false,
            sp_bounds_check: false,
            device_stack_protector: None,
            sanitize: None,
            g_tensor_memory_access_check: false,
            gno_tensor_memory_access_check: false,
            make_errors_visible_at_exit: false,
            warning_as_error: false,
            disable_warnings: false,
            warn_on_spills: false,
            warn_on_local_memory_usage: false,
            warn_on_double_precision_use: false,
            suppress_stack_size_warning: false,
            suppress_double_demote_warning: false,
            suppress_async_bulk_multicast_advisory_warning: false,
            suppress_sparse_mma_advisory_info: false,
            def_load_cache: None,
            def_store_cache: None,
            force_load_cache: None,
            force_store_cache: None,
            position_independent_code: None,
            preserve_relocs: false,
            extensible_whole_program: false,
            compile_as_tools_patch: false,
            compiler_annotations: false,
            legacy_bar_warp_wide_behavior: false,
            given: Vec::new(),
            hidden: BTreeMap::new(),
        }
    }
}

impl Options {
    /// The options of a ptxas command line (without the program name), e.g.
    /// `Options::from_args(&["-arch", "sm_90", "-O3"])`; the fatal diagnostic of a syntax error
    /// otherwise. Parse-time warnings (deprecations, redefinitions) are dropped; values and
    /// combinations are checked later, by [`super::validate`] (which [`crate::compile`] runs).
    pub fn from_args(args: &[&str]) -> Result<Options, crate::compile::Diagnostics> {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        super::parse(&args).result.map_err(|d| crate::compile::Diagnostics(vec![d]))
    }

    /// Whether there is anything to compile (files or `--input-as-string` modules).
    pub fn has_input(&self) -> bool {
        !self.input_files.is_empty() || !self.input_strings.is_empty()
    }

    /// Whether `--gpu-name` names a virtual architecture (`compute_*`/`lto_*`): parse and check only.
    pub fn is_virtual_arch(&self) -> bool {
        !self.gpu_name.starts_with("sm_")
    }
}
