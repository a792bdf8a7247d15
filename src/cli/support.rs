//! What ptxas-rs does with each option ptxas accepts: the inventory of issue 26, as data.
//!
//! [`support`] gives every [`OptId`] one [`Support`] value (the `match` is exhaustive, so a new
//! option cannot be added to the table without deciding its support). [`refusal`] turns the
//! options a command line gave into at most one `ptxas-rs: option ... is not supported yet`
//! diagnostic, which [`super::validate`] issues after ptxas's own option checks.
//!
//! The survey (issue 26), pinned by `every_documented_option_has_a_decided_support`: of the 54
//! options ptxas 13.0.88's `--help` lists, 26 are honoured, 6 honoured for some values and 22
//! refused; of the hidden ones, `--compiler-stats` is honoured for some values
//! ([`crate::stats`]) and `--compiler-stats-file` honoured, every other one refused.
//!
//! Invariants: no option is accepted and silently ignored. An option is [`Support::Honoured`]
//! only when the run's output (files, diagnostics, exit status) is what ptxas's would be as far
//! as that option is concerned: either we act on it, or ptxas itself ignores it in that
//! situation (ptxas warns and drops it), or it only suppresses a message we never print. Options
//! we act on only for some values are [`Support::Partly`]; every other value is refused.

use super::options::{FastCompile, Options};
use super::table::OptId;

/// How ptxas-rs treats one option.
#[derive(Debug, Clone, Copy)]
pub enum Support {
    /// Acted on as ptxas does (or ignored exactly where ptxas ignores it).
    Honoured,
    /// Honoured when `honoured(options)` holds (`when` says for what, in the refusal message);
    /// refused otherwise.
    Partly {
        /// Whether this command line's use of the option is honoured.
        honoured: fn(&Options) -> bool,
        /// The supported uses, for the message (`"only with the value false"`).
        when: &'static str,
    },
    /// Refused with `not supported yet` whenever given.
    Refused,
}

/// The support value of `id`.
pub fn support(id: OptId) -> Support {
    use OptId as O;
    use Support::{Honoured, Partly, Refused};
    match id {
        // Inputs, outputs, informational and target selection: the driver acts on them.
        O::GpuName
        | O::OutputFile
        | O::InputAsString
        | O::OptionsFile
        | O::Help
        | O::Version
        | O::ListVersion
        | O::Verbose
        | O::Machine => Honoured,
        // Optimisation level and FMA contraction reach the backend.
        O::OptLevel | O::Fmad => Honoured,
        // -Ofc maps to the optimisation level it forces (max: -O0; mid/min: -O1).
        O::OfastCompile => Honoured,
        // Warnings: -w and -Werror filter and promote every diagnostic we print.
        O::DisableWarnings | O::WarningAsError => Honoured,
        // The warnings these suppress are ones we never print (stack size of recursive entries,
        // double demotion, multicast and sparse-mma advisories), so the output is ptxas's.
        O::SuppressStackSizeWarning
        | O::SuppressDoubleDemoteWarning
        | O::SuppressAsyncBulkMulticastAdvisoryWarning
        | O::SuppressSparseMmaAdvisoryInfo => Honoured,
        // ptxas ignores it on every target, with two warnings after reading the inputs
        // (`crate::compile`), which we print.
        O::LegacyBarWarpWideBehavior => Honoured,
        // Ignored by ptxas without -g/-lineinfo, both refused here.
        O::SuppressDebugInfo => Honoured,
        // ptxas warns and ignores it outside -c (which is refused here).
        O::DeviceFunctionMaxrregcount => Honoured,
        // Passed to the allocator and the cubin's EIATTRs.
        O::Maxrregcount | O::OverrideDirectiveValues => Honoured,
        // Printed from the compiled functions' frames and spill counts.
        O::WarnOnLocalMemoryUsage | O::WarnOnSpills => Honoured,
        // Read off the PTX (`crate::ptx::fp64_use`); a module using an f64 instruction ptxas
        // expands through its internal macros (`div.rn.f64`, ...) is refused at that instruction.
        O::WarnOnDoublePrecisionUse => Honoured,
        // Hidden: the `STAT:` report with our own measurements (`crate::stats`); the file is
        // appended to as ptxas does (and ignored with ptxas's warning without --compiler-stats).
        O::CompilerStats => Partly {
            honoured: |o| !crate::stats::unsupported(o),
            when: "not memory with phase-wise or detailed, nor detailed with time and phase-wise",
        },
        O::CompilerStatsFile => Honoured,
        // ptxas ignores -maxntid/-minnctapersm when -maxrregcount is given (with its warning).
        O::Maxntid => Partly { honoured: |o| o.maxrregcount_raw.is_some(), when: "only together with -maxrregcount" },
        O::Minnctapersm => {
            Partly { honoured: |o| o.maxrregcount_raw.is_some(), when: "only together with -maxrregcount" }
        }
        // Out-of-range levels are ignored by ptxas with a warning, and -g overrides it; the
        // default level is what we compile at.
        O::RegisterUsageLevel => Partly {
            honoured: |o| o.register_usage_level.is_none_or(|l| l == 5 || !(0..=10).contains(&l)),
            when: "only with its default value 5",
        },
        O::AllowExpensiveOptimizations => Partly {
            honoured: |o| {
                let default = o.opt_level >= 2 && o.fast_compile == FastCompile::Off;
                o.allow_expensive_optimizations.is_none_or(|v| v == default)
            },
            when: "only with its default value for the optimisation level",
        },
        O::PositionIndependentCode => {
            Partly { honoured: |o| o.position_independent_code != Some(false), when: "only with the value true" }
        }
        O::DeviceStackProtector => {
            Partly { honoured: |o| o.device_stack_protector != Some(true), when: "only with the value false" }
        }
        // Everything else changes code generation, output or diagnostics in ways not built yet.
        O::CompileOnly
        | O::DeviceDebug
        | O::GenerateLineInfo
        | O::Entry
        | O::CompileAsToolsPatch
        | O::CompilerAnnotations
        | O::DefLoadCache
        | O::DefStoreCache
        | O::ForceLoadCache
        | O::ForceStoreCache
        | O::DisableOptimizerConstants
        | O::DontMergeBasicblocks
        | O::ExtensibleWholeProgram
        | O::GTensorMemoryAccessCheck
        | O::GnoTensorMemoryAccessCheck
        | O::MakeErrorsVisibleAtExit
        | O::OptimizeFloatAtomics
        | O::PreserveRelocs
        | O::ReturnAtEnd
        | O::Sanitize
        | O::SpBoundsCheck
        | O::SplitCompile => Refused,
        // Hidden options (not in --help): none other is acted on yet.
        O::AbiCompile
        | O::ApplyControls
        | O::AssumeExternFunctionsDoNotSync
        | O::BlocksAreClusters
        | O::Cimm
        | O::Cloning
        | O::CudaApiVersion
        | O::Cuda32f3056bbb
        | O::DeviceStackProtectorFrameSizeThreshold
        | O::DeviceStackProtectorSize
        | O::DisableFastVideoEmulation
        | O::DisableSmemReservation
        | O::DontReserveNullPointer
        | O::EnableExtendedSmem
        | O::ExtDescFile
        | O::ExtDescString
        | O::FastCompile
        | O::Fastimul
        | O::Fdcmpt
        | O::FdeviceTimeTrace
        | O::ForceExternals
        | O::ForceRela
        | O::FtracePhaseAfter
        | O::Jobserver
        | O::Key
        | O::LimitFoldFp
        | O::LinkInfo
        | O::MembermaskOverlap
        | O::NoFastreg
        | O::NoMembermaskOverlap
        | O::NoFwdPrg
        | O::NvHost
        | O::Okey
        | O::OptPointers
        | O::PrintPotentiallyOverlappingMembermasks
        | O::ProfileOptions
        | O::PtxLength
        | O::QueryControls
        | O::ReserveNullPointer
        | O::SetTexmodeRaw
        | O::Slr
        | O::Sw1729687
        | O::Sw200387803
        | O::Sw200428197
        | O::Sw200764156
        | O::Sw2614554
        | O::Sw2837879
        | O::Sw4575628
        | O::Sw4915215
        | O::Sw4936628
        | O::ToolName
        | O::UseTracePid
        | O::Uumn
        | O::VerboseTkinfo => Refused,
    }
}

/// The message refusing the first option of `options.given` (command-line order) that this
/// run cannot honour, if any: `ptxas-rs: option '--device-debug' (-g) is not supported yet`.
pub fn refusal(options: &Options) -> Option<String> {
    options.given.iter().find_map(|&id| {
        let s = super::spec(id);
        let name = match s.short {
            Some(short) if short != s.long => format!("'--{}' (-{short})", s.long),
            _ => format!("'--{}'", s.long),
        };
        match support(id) {
            Support::Honoured => None,
            Support::Refused => Some(format!("ptxas-rs: option {name} is not supported yet")),
            Support::Partly { honoured, when } => {
                (!honoured(options)).then(|| format!("ptxas-rs: option {name} ({when}) is not supported yet"))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{OPTIONS, parse};

    fn opts(args: &[&str]) -> Options {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(&args).result.expect("parses")
    }

    #[test]
    fn every_documented_option_has_a_decided_support() {
        // The match is exhaustive; this pins the inventory's shape so a reclassification is a
        // deliberate edit here too.
        let documented: Vec<_> = OPTIONS.iter().filter(|s| s.documented()).collect();
        assert_eq!(documented.len(), 54);
        let refused = documented.iter().filter(|s| matches!(support(s.id), Support::Refused)).count();
        let partly = documented.iter().filter(|s| matches!(support(s.id), Support::Partly { .. })).count();
        assert_eq!((documented.len() - refused - partly, partly, refused), (26, 6, 22));
        // Hidden options: --compiler-stats (partly) and --compiler-stats-file are acted on.
        let hidden: Vec<_> = OPTIONS.iter().filter(|s| !s.documented()).collect();
        let acted: Vec<&str> =
            hidden.iter().filter(|s| !matches!(support(s.id), Support::Refused)).map(|s| s.long).collect();
        assert_eq!(acted, ["compiler-stats", "compiler-stats-file"]);
    }

    #[test]
    fn refused_options_are_named() {
        assert_eq!(
            refusal(&opts(&["-g", "k.ptx"])).as_deref(),
            Some("ptxas-rs: option '--device-debug' (-g) is not supported yet")
        );
        assert_eq!(
            refusal(&opts(&["-lineinfo", "-c", "k.ptx"])).as_deref(),
            Some("ptxas-rs: option '--generate-line-info' (-lineinfo) is not supported yet")
        );
        assert!(refusal(&opts(&["--allow-expensive-optimizations", "true", "k.ptx"])).is_none());
        assert!(refusal(&opts(&["-O1", "-allow-expensive-optimizations", "true", "k.ptx"])).is_some_and(|m| {
            m.ends_with("(only with its default value for the optimisation level) is not supported yet")
        }));
        assert!(refusal(&opts(&["-maxntid", "128", "k.ptx"])).is_some());
        assert!(refusal(&opts(&["--compiler-stats", "time,phase-wise", "k.ptx"])).is_none());
        assert_eq!(
            refusal(&opts(&["--compiler-stats", "detailed,time,p", "k.ptx"])).as_deref(),
            Some(
                "ptxas-rs: option '--compiler-stats' (-compilerStats) (not memory with phase-wise or detailed, nor detailed with time and phase-wise) is not supported yet"
            )
        );
        assert!(refusal(&opts(&["-maxntid", "128", "-maxrregcount", "40", "k.ptx"])).is_none());
        assert!(refusal(&opts(&["-arch", "sm_90", "-O3", "-fmad", "false", "-v", "-o", "x", "k.ptx"])).is_none());
    }

    #[test]
    fn every_refused_option_is_refused_when_given() {
        for s in OPTIONS.iter().filter(|s| matches!(support(s.id), Support::Refused)) {
            let mut o = Options::default();
            o.given.push(s.id);
            let msg = refusal(&o).unwrap_or_default();
            assert!(msg.contains(&format!("'--{}'", s.long)) && msg.ends_with(" is not supported yet"), "{msg}");
        }
    }
}
