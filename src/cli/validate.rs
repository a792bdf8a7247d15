//! Cross-option checks ptxas makes after parsing, once it knows there is input to compile.
//!
//! ptxas parses the whole command line first (syntax errors are fatal there), handles
//! `--help`/`--version`/no-input, and only then checks option values and combinations. [`validate`]
//! reproduces those checks in ptxas's order with its messages, and fills the typed fields
//! ([`Options::fast_compile`], [`Options::maxrregcount`], ...) from the raw strings. `-w` drops the
//! warnings issued here and `-Werror` turns them into errors, as in ptxas (parse-time warnings are
//! not affected). Last, and only when ptxas's checks found no error, an option this run cannot
//! honour is refused ([`super::support::refusal`]). Invariant: a fatal diagnostic, if any, is the
//! last one returned.

use super::diag::{Diagnostic, Severity};
use super::options::{FastCompile, Options, RegCount};
use super::parse::parse_c_int;

/// The outcome of [`validate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validated {
    /// The options with validated fields filled in.
    pub options: Options,
    /// Diagnostics, in ptxas's order, already filtered by `-w` and promoted by `-Werror`.
    pub diagnostics: Vec<Diagnostic>,
}

impl Validated {
    /// Whether a fatal diagnostic stopped validation (ptxas exits at once, without a trailer).
    pub fn is_fatal(&self) -> bool {
        self.diagnostics.last().is_some_and(|d| d.severity == Severity::Fatal)
    }

    /// Whether any error was reported (the run will fail).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity.is_error())
    }
}

/// Cache operators accepted by `--def-load-cache` / `--force-load-cache`.
const LOAD_CACHE: &[&str] = &["ca", "cg", "cs", "lu", "cv"];
/// Cache operators accepted by `--def-store-cache` / `--force-store-cache`.
const STORE_CACHE: &[&str] = &["cg", "cs", "wb", "wt"];
/// The largest register budget any supported target allows.
const MAX_REG_COUNT: i64 = 255;

/// Checks `options` as ptxas does before compiling.
pub fn validate(options: Options) -> Validated {
    let mut v =
        Validator { diagnostics: Vec::new(), werror: options.warning_as_error, quiet: options.disable_warnings };
    let mut options = options;
    // A fatal diagnostic ends the checks; it is already the last diagnostic recorded.
    let _stopped: Result<(), Stop> = v.run(&mut options);
    Validated { options, diagnostics: v.diagnostics }
}

/// Validation stopped at a fatal diagnostic.
struct Stop;

struct Validator {
    diagnostics: Vec<Diagnostic>,
    werror: bool,
    quiet: bool,
}

impl Validator {
    fn warn(&mut self, message: String) {
        if self.quiet {
            return;
        }
        let severity = if self.werror { Severity::Error } else { Severity::Warning };
        self.diagnostics.push(Diagnostic::new(severity, message));
    }

    fn error(&mut self, message: String) {
        self.diagnostics.push(Diagnostic::error(message));
    }

    /// Runs the checks, filling `o`'s validated fields; `Err` after a fatal diagnostic.
    fn run(&mut self, o: &mut Options) -> Result<(), Stop> {
        macro_rules! fatal {
            ($($msg:tt)*) => {{
                self.diagnostics.push(Diagnostic::fatal(format!($($msg)*)));
                return Err(Stop);
            }};
        }

        // 0. `lto_XXa` names pass the parser's allowed-value list but no target backs them.
        if o.gpu_name.starts_with("lto_") && o.gpu_name.ends_with('a') {
            fatal!("Unsupported gpu architecture '{}'", o.gpu_name);
        }
        // 1. The -Ofc value.
        if let Some(raw) = &o.ofast_compile_raw {
            o.fast_compile = match raw.as_str() {
                "0" => FastCompile::Off,
                "min" => FastCompile::Min,
                "mid" => FastCompile::Mid,
                "max" => FastCompile::Max,
                _ => fatal!("Invalid value for --Ofast-compile/-Ofc ({raw}), is not 'max', 'mid', 'min', or '0'"),
            };
        }
        // 2. Register usage level range.
        if let Some(level) = o.register_usage_level
            && !(0..=10).contains(&level)
        {
            self.warn(format!(
                "Value of RegUsageLevel ({level}) is out of valid range {{0..10}}, option will be ignored"
            ));
        }
        // 3. -Ofc against an explicit -O.
        if o.opt_level_explicit {
            match o.fast_compile {
                FastCompile::Max if o.opt_level != 0 => {
                    fatal!("Conflicting options -opt-level=<1,2,3> and --Ofast-compile=max specified")
                }
                FastCompile::Mid | FastCompile::Min if o.opt_level != 1 => {
                    let which = if o.fast_compile == FastCompile::Mid { "mid" } else { "min" };
                    fatal!("Conflicting options -opt-level=<0,2,3> and --Ofast-compile={which} specified")
                }
                _ => {}
            }
        }
        // 4. -g: no optimised debugging; it overrides -regUsageLevel and -Ofc.
        if o.device_debug {
            if o.opt_level_explicit && o.opt_level != 0 {
                fatal!("Optimized debugging not supported");
            }
            if o.register_usage_level.is_some() {
                self.warn("Conflicting options '--device-debug' and '--register-usage-level' specified, ignoring '--register-usage-level' option".to_owned());
            }
            if o.fast_compile != FastCompile::Off {
                self.warn("Conflicting options '--device-debug' and '--Ofast-compile=<min,mid,max>' specified, ignoring '--Ofast-compile=<min,mid,max>' option".to_owned());
                o.fast_compile = FastCompile::Off;
            }
        }
        // 5. Cache operators.
        for (value, allowed, what) in [
            (&o.def_load_cache, LOAD_CACHE, "load"),
            (&o.def_store_cache, STORE_CACHE, "store"),
            (&o.force_load_cache, LOAD_CACHE, "load"),
            (&o.force_store_cache, STORE_CACHE, "store"),
        ] {
            if let Some(value) = value
                && !allowed.contains(&value.as_str())
            {
                let msg = format!("Invalid default cache modifier on {what} specified: {value}");
                self.error(msg);
            }
        }
        for (force, def, what) in [
            (o.force_load_cache.is_some(), o.def_load_cache.is_some(), "load"),
            (o.force_store_cache.is_some(), o.def_store_cache.is_some(), "store"),
        ] {
            if force && def {
                self.warn(format!(
                    "Conflicting options force-{what}-cache and def-{what}-cache specified, ignoring def-{what}-cache option"
                ));
            }
        }
        // 6. Register budgets.
        if let Some(raw) = o.maxrregcount_raw.clone() {
            match parse_reg_count(&raw) {
                None => fatal!("Invalid value '{raw}' for option 'maxrregcount'"),
                Some(rc) => o.maxrregcount = self.check_reg_count(rc),
            }
        }
        if let Some(raw) = o.device_function_maxrregcount_raw.clone() {
            if !o.compile_only {
                self.warn("Command line option 'device-function-maxrregcount' not supported for 'whole program compilation', will be ignored".to_owned());
            } else {
                match parse_reg_count(&raw) {
                    None => {
                        fatal!("Invalid value '{raw}' for option 'device-function-maxrregcount'")
                    }
                    Some(rc) => o.device_function_maxrregcount = self.check_reg_count(rc),
                }
            }
        }
        // 7. -maxrregcount wins over the occupancy options.
        if o.maxrregcount_raw.is_some() {
            if o.minnctapersm.is_some() {
                self.warn(
                    "Conflicting options -maxrregcount and -minnctapersm specified, ignoring -minnctapersm option"
                        .to_owned(),
                );
            }
            if !o.maxntid.is_empty() {
                self.warn(
                    "Conflicting options -maxrregcount and -maxntid specified, ignoring -maxntid option".to_owned(),
                );
            }
        } else if o.maxntid.len() > 3 {
            self.warn("Too many values specified for option '-maxntid', option will be ignored".to_owned());
        }
        // 8. Hidden -abi takes only `yes`.
        if let Some(v) = o.hidden.get("abi-compile").and_then(|vals| vals.last())
            && v != "yes"
        {
            let msg = format!("Invalid value '{v}' for option -abi.");
            self.error(msg);
        }
        // 9. Ours: an option this run cannot honour is refused, never ignored (after ptxas's own
        // checks, so their messages come first; a virtual target only parses and checks).
        if !self.diagnostics.iter().any(|d| d.severity.is_error())
            && !o.is_virtual_arch()
            && let Some(msg) = super::support::refusal(o)
        {
            fatal!("{msg}");
        }
        Ok(())
    }

    /// Drops (with ptxas's warning) a budget no target supports.
    fn check_reg_count(&mut self, rc: RegCount) -> Option<RegCount> {
        let n = rc.value();
        if !(0..=MAX_REG_COUNT).contains(&n) {
            self.warn(format!("Too big maxrregcount value specified {n}, will be ignored"));
            return None;
        }
        Some(rc)
    }
}

/// `archmax`, `archmin` or a C integer.
fn parse_reg_count(raw: &str) -> Option<RegCount> {
    match raw {
        "archmax" => Some(RegCount::ArchMax),
        "archmin" => Some(RegCount::ArchMin),
        _ => parse_c_int(raw).ok().map(|n| RegCount::N(i64::from(n))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::parse;

    /// ptxas's diagnostics (our `not supported yet` refusal, checked in `refusal_comes_last`,
    /// left out).
    fn check(args: &[&str]) -> Vec<String> {
        all(args).into_iter().filter(|l| !l.contains("ptxas-rs: option")).collect()
    }

    fn all(args: &[&str]) -> Vec<String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let o = parse(&args).result.expect("parses");
        validate(o).diagnostics.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn refusal_comes_last() {
        assert_eq!(
            all(&["-arch", "sm_90", "-regUsageLevel", "11", "-g", "k.ptx"]),
            [
                "ptxas warning : Value of RegUsageLevel (11) is out of valid range {0..10}, option will be ignored",
                "ptxas warning : Conflicting options '--device-debug' and '--register-usage-level' specified, ignoring '--register-usage-level' option",
                "ptxas fatal   : ptxas-rs: option '--device-debug' (-g) is not supported yet",
            ]
        );
        // Not after one of ptxas's errors, nor for a virtual target (parse and check only).
        assert_eq!(all(&["-dlcm", "wb"]), ["ptxas error   : Invalid default cache modifier on load specified: wb"]);
        assert!(all(&["-arch", "compute_90", "-g", "k.ptx"]).is_empty());
        assert!(all(&["-arch", "sm_90", "-Ofc", "max", "-v", "-fmad", "false", "k.ptx"]).is_empty());
    }

    #[test]
    fn debug_and_opt_level() {
        assert_eq!(check(&["-g", "-O3"]), ["ptxas fatal   : Optimized debugging not supported"]);
        assert!(check(&["-g", "-O0"]).is_empty());
        assert!(check(&["-g", "-O"]).is_empty());
        assert!(check(&["-g"]).is_empty());
    }

    #[test]
    fn fast_compile() {
        assert_eq!(
            check(&["-Ofc", "foo"]),
            ["ptxas fatal   : Invalid value for --Ofast-compile/-Ofc (foo), is not 'max', 'mid', 'min', or '0'"]
        );
        assert_eq!(
            check(&["-Ofc", "max", "-O3"]),
            ["ptxas fatal   : Conflicting options -opt-level=<1,2,3> and --Ofast-compile=max specified"]
        );
        assert!(check(&["-Ofc", "mid", "-O1"]).is_empty());
        assert_eq!(check(&["-g", "-Ofc", "max"]).len(), 1);
    }

    #[test]
    fn reg_counts() {
        assert_eq!(
            check(&["-maxrregcount", "300"]),
            ["ptxas warning : Too big maxrregcount value specified 300, will be ignored"]
        );
        assert_eq!(
            check(&["-maxrregcount", "-5"]),
            ["ptxas warning : Too big maxrregcount value specified -5, will be ignored"]
        );
        assert!(check(&["-maxrregcount", "archmax"]).is_empty());
        assert!(check(&["-maxrregcount", "255"]).is_empty());
        assert_eq!(check(&["-maxrregcount", "foo"]), ["ptxas fatal   : Invalid value 'foo' for option 'maxrregcount'"]);
        let o = validate(parse(&["-maxrregcount".to_owned(), "archmin".to_owned()]).result.expect("parses")).options;
        assert_eq!(o.maxrregcount, Some(RegCount::ArchMin));
        assert_eq!(check(&["-w", "-maxrregcount", "300"]), Vec::<String>::new());
        assert_eq!(
            check(&["-Werror", "-maxrregcount", "300"]),
            ["ptxas error   : Too big maxrregcount value specified 300, will be ignored"]
        );
    }

    #[test]
    fn unsupported_lto_arch_comes_first() {
        assert_eq!(
            check(&["-arch", "lto_90a", "-g", "-O3", "-regUsageLevel", "11"]),
            ["ptxas fatal   : Unsupported gpu architecture 'lto_90a'"]
        );
        assert!(check(&["-arch", "lto_90"]).is_empty());
    }

    #[test]
    fn caches() {
        assert_eq!(check(&["-dlcm", "wb"]), ["ptxas error   : Invalid default cache modifier on load specified: wb"]);
        assert!(check(&["-dscm", "wt", "-dlcm", "lu"]).is_empty());
    }
}
