//! The catalogue of ptxas's semantic diagnostics, as data.
//!
//! Every message the semantic pass can print is one [`Msg`] constant here: its severity and its
//! ptxas template, with `%s` placeholders filled in order by [`Msg::render`]. No other module
//! spells a message text. The texts are ptxas 13.0.88's, byte for byte (taken from
//! corpus/errors/*.stderr and from probing the binary).
//!
//! Invariant: `render` never panics; missing arguments render as empty strings and extra
//! arguments are ignored.

use crate::cli::diag::Severity;

/// One catalogue entry: severity and template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Msg {
    /// The severity ptxas prints it with (before `-Werror`/`-w`).
    pub severity: Severity,
    /// The template; each `%s` takes the next argument.
    pub text: &'static str,
}

impl Msg {
    /// The message with `args` substituted for the `%s` placeholders, in order.
    pub fn render(&self, args: &[&str]) -> String {
        let mut out = String::with_capacity(self.text.len() + 16);
        let mut rest = self.text;
        let mut i = 0;
        while let Some(p) = rest.find("%s") {
            out.push_str(&rest[..p]);
            out.push_str(args.get(i).copied().unwrap_or(""));
            i += 1;
            rest = &rest[p + 2..];
        }
        out.push_str(rest);
        out
    }
}

macro_rules! catalogue {
    ($($(#[$m:meta])* $name:ident = $sev:ident $text:literal;)*) => {
        $($(#[$m])* pub const $name: Msg = Msg { severity: Severity::$sev, text: $text };)*
        /// Every entry, for tests and tools.
        pub const ALL: &[(&str, Msg)] = &[$((stringify!($name), $name)),*];

        /// The entry named `key` (its constant's name), for message keys kept in data tables.
        pub fn by_key(key: &str) -> Option<Msg> {
            ALL.iter().find(|(k, _)| *k == key).map(|(_, m)| *m)
        }
    };
}

catalogue! {
    // ---- trailer ----
    /// Printed after located errors of the parse stage.
    ABORTED = Fatal "Ptx assembly aborted due to errors";
    // ---- module header ----
    /// `.version` not in the table.
    UNSUPPORTED_VERSION = Fatal "Unsupported .version %s; current version is '9.0'";
    /// `.target` name not known.
    UNSUPPORTED_TARGET = Fatal "Unsupported .target '%s'";
    /// `.target` list without any SM name.
    TARGET_NOT_DEFINED = Fatal "Target architecture not defined at start of file '%s'";
    /// Deferred `.version`/`.target` check.
    VERSION_TARGET = Error "PTX .version %s does not support .target %s";
    /// Two texmodes.
    CONFLICTING_TARGET_OPTION = Error "Conflicting .target option '%s'";
    /// `map_f64_to_f32` on sm_13+.
    MAP_F64 = Error "Directive map_f64_to_f32 is not supported with SM 1.3 or higher";
    /// `.target debug` without DWARF.
    DEBUG_NOT_FOUND = Error "Debug information not found in presence of .target debug";
    /// `.target debug` with an explicit `-O` above 0.
    OPTIMIZED_DEBUG = Fatal "Optimized debugging not supported";
    /// `.address_size` value.
    ADDRESS_SIZE_VALUE = Error "Illegal value for .address_size directive (must be 32 or 64)";
    /// `.address_size 32` with a 64-bit host (warning).
    ADDRESS_SIZE_HOST = Warning " 64 Bit host architecture (--machine) being used mismatches with .address_size of 32 bits";
    /// `.address_size 32` on sm_90+.
    ADDRESS_SIZE_32_ABI = Fatal " 32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90 or higher architectures.";
    /// `.target` above a plain `-arch`.
    TARGET_ABOVE_ARCH = Fatal "SM version specified by .target is higher than default SM version assumed";
    /// `a`/`f` target compiled for another arch of the same SM.
    TARGET_ARCH_SPECIFIC = Fatal "PTX with .target '%s' cannot be compiled for architecture '%s'";
    /// `a` target compiled for a later SM.
    TARGET_FUTURE = Fatal "Program with .target '%s' cannot be compiled to future architecture";
    /// `f` target compiled for another family.
    TARGET_FAMILY = Fatal "Program with .target '%s' cannot be compiled to different SM-family architecture";
    /// `.samplerref` etc. in unified texmode.
    TEXMODE_UNIFIED = Error "Instruction or declaration violates .target texmode_unified setting";
    // ---- gates ----
    /// PTX version gate.
    FEATURE_PTX = Error "Feature '%s' requires PTX ISA .version %s or later";
    /// SM gate.
    FEATURE_SM = Error "Feature '%s' requires .target %s or higher";
    /// Instruction SM gate (older wording).
    INSTR_SM = Error "Instruction '%s' requires .target %s or higher";
    /// Instruction gate, PTX version.
    INSTR_PTX = Error "Instruction '%s' requires PTX ISA .version %s or later";
    /// Modifier SM gate.
    MODIFIER_SM = Error "Modifier '%s' requires .target %s or higher";
    /// Modifier PTX gate.
    MODIFIER_PTX = Error "Modifier '%s' requires PTX ISA .version %s or later";
    /// Instruction needs an arch-specific target.
    NOT_SUPPORTED_ON_TARGET = Error "Instruction '%s' not supported on .target '%s'";
    /// Deprecated directive.
    DEPRECATED = Error "Deprecated feature: '%s' not supported as of PTX version %s";
    /// Non-`.sync` shfl/vote on sm_70+, PTX 6.4+.
    NOSYNC_ERROR = Error "Instruction '%s' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4";
    /// Non-`.sync` shfl/vote on sm_70+ before PTX 6.4.
    NOSYNC_UNPREDICTABLE = Warning "Instruction '%s' without '.sync' may produce unpredictable results on sm_70 and later architectures";
    /// Non-`.sync` shfl/vote from PTX 6.0.
    NOSYNC_DEPRECATED = Warning "Instruction '%s' without '.sync' is deprecated since PTX ISA version 6.0 and will be discontinued in a future PTX ISA version";
    /// wmma/mma without `.aligned`.
    ALIGNED_REQUIRED = Error ".aligned modifier required for instruction '%s'";
    // ---- symbols ----
    /// Deferred to the end of the function.
    UNKNOWN_SYMBOL = Error "Unknown symbol '%s'";
    /// Duplicate label.
    DUPLICATE_LABEL = Error "Duplicate definition of label '%s'";
    // ---- DWARF sections ----
    /// A symbolic value in a `.b8`/`.b16` data line.
    DWARF_TYPE = Error "Illegal type for dwarf data";
    /// An integer that does not fit its data line's type (value in decimal).
    DWARF_RANGE = Error "Value out of range for type %s %s";
    /// Duplicate variable.
    DUPLICATE_VARIABLE = Error "Duplicate definition of variable '%s'";
    /// Duplicate function.
    DUPLICATE_FUNCTION = Error "Duplicate definition of function '%s'";
    /// Variable redefined differently.
    INCONSISTENT_VARIABLE = Error "Inconsistent redefinition of variable '%s'";
    /// Symbol redefined as another kind.
    INCONSISTENT_SYMBOL = Fatal "Inconsistent redefinition of symbol '%s'";
    /// Entry vs function.
    ENTRY_VS_FUNCTION = Error "Inconsistent redefinition of '%s' as entry and function";
    /// Definition of an `.extern` function.
    EXTERN_DEFINITION = Error "Function definition conflicts with '.extern' declaration for function '%s'";
    /// Declaration and definition differ.
    INCONSISTENT_PROTOTYPES = Error "Inconsistent prototypes of '%s', %s differ";
    /// A register used before its declaration.
    FORWARD_REFERENCE = Fatal "Label expected for forward reference of '%s'";
    /// Extern function never defined (link stage).
    UNRESOLVED_EXTERN = Fatal "Unresolved extern function '%s'";
    /// A variable of a type only instructions take (`.e4m3`, `.s16x2`, ...).
    INSTRUCTION_ONLY_TYPE = Error "Type %s may only be used as an instruction type";
    /// A `.param` variable of a type the parameter space cannot hold.
    PARAM_TYPE = Error "Variable '%s' cannot be allocated in .param state space";
    /// An `.extern` `.global`/`.const` variable without a definition (whole program): ptxas
    /// defines it (a global symbol) and warns.
    UNRESOLVED_EXTERN_VAR = Warning "Unresolved extern variable '%s' in whole program compilation, ignoring extern qualifier";
    /// The same of unknown size (`.extern .global .b32 e[]`): nothing to define.
    UNRESOLVED_EXTERN_VAR_UNSIZED = Fatal "Unresolved extern variable '%s'";
    /// Call to an undeclared name.
    CALL_NEEDS_PROTOTYPE = Error "Call to '%s' requires call prototype";
    /// Call to an entry.
    CALL_ENTRY = Error "Illegal call target, device function expected";
    /// Call arity.
    CALL_PARAM_COUNT = Error "Call has wrong number of parameters";
    /// Call argument of an incompatible type.
    CALL_ARG_TYPE = Error "Type of argument does not match formal parameter '%s'";
    /// Call argument of another alignment.
    CALL_ARG_ALIGN = Error "Alignment of argument does not match formal parameter '%s'";
    /// Call target not a function or prototype label.
    CALL_TARGET_UNRECOGNIZED = Fatal "Call target not recognized";
    /// Unknown symbol in an initializer.
    INVALID_INIT_SYMBOL = Fatal "Invalid initial value symbol '%s'";
    // ---- directives ----
    /// `.maxntid` and `.reqntid`.
    MAXNTID_REQNTID = Error "Conflicting directives: .maxntid and .reqntid cannot both be specified";
    /// `.reqnctapercluster` and `.maxclusterrank`.
    CLUSTER_CONFLICT = Error "Conflicting directives: .reqnctapercluster and .maxclusterrank cannot both be specified";
    /// `.blocksareclusters` prerequisites.
    BLOCKSARECLUSTERS = Error ".reqntid and .reqnctapercluster directive(s) required for directive '.blocksareclusters'";
    /// `.minnctapersm` alone.
    MINNCTAPERSM_IGNORED = Warning ".minnctapersm is ignored when neither .maxntid nor .reqntid is specified.";
    /// Zero directive value.
    POSITIVE_EXPECTED = Error "Positive non-zero value expected for %s";
    /// Too big `.maxnreg`.
    MAXNREG_TOO_MANY = Warning "Too many maxnreg specified for entry %s, will be ignored";
    /// `.common` outside `.global`.
    COMMON_SPACE = Error ".common variables must be declared in .global space";
    /// `.attribute(.managed)` outside `.global`.
    ILLEGAL_ATTRIBUTE = Error "Illegal attribute '%s' for symbol '%s'";
    /// Module-scope pragma unknown (no trailer).
    PRAGMA_NOT_SUPPORTED = Error "Pragma '%s' not supported";
    /// Function-scope pragma unknown.
    PRAGMA_UNSUPPORTED = Warning "Pragma '%s' unsupported";
    /// Pragma without arguments.
    PRAGMA_EMPTY = Error "Argument(s) to pragma '%s' cannot be empty";
    /// Pragma with a bad value.
    PRAGMA_BAD_VALUE = Error "Invalid value '%s' specified for .pragma '%s'";
    /// Pragma repeated.
    LOCAL_MAXNREG_TWICE = Error "local_maxnreg specified multiple times in function '%s'";
    /// `.alias` to a defined function.
    ALIAS_REDEFINITION = Error "Illegal redefinition of function '%s' as alias";
    /// `.alias a, a`.
    ALIAS_SELF = Error "Cannot alias a function to itself";
    /// `.alias` to an entry.
    ALIAS_ENTRY = Error "Cannot define alias to entry function '%s'";
    /// `.alias` to a variable.
    ALIAS_VARIABLE = Error "Cannot define alias to variable object '%s'";
    /// `.alias` twice.
    ALIAS_TWICE = Error "'%s' is already aliased to '%s' and cannot be redefined";
    /// `.alias` prototype mismatch.
    ALIAS_MISMATCH = Error "Mismatch in prototype of alias '%s' and aliasee '%s'. %s differ(s)";
    /// Duplicate `.file` index.
    DUPLICATE_FILE = Error "Duplicate file index #%s";
    /// Entry parameter in the wrong space.
    ENTRY_PARAM_SPACE = Error "Entry parameter '%s' must have .param state space";
    /// Multiple return parameters.
    MULTIPLE_RETURNS = Error "Multiple return parameters require .register state space";
    /// Param space limit.
    PARAM_SPACE = Error "Entry function '%s' uses too much parameter space (0x%s bytes, 0x%s max).";
    /// `.align` value.
    ALIGN_POW2 = Error "Alignment must be a power of two";
    /// `[]` not last.
    INCOMPLETE_NOT_LAST = Error "Only the last input parameter can be an incomplete array.";
    /// `[]` on a non-extern variable.
    INCOMPLETE_TYPE = Error "Non-external variable '%s' has incomplete type";
    /// `.local` at module scope.
    MODULE_SCOPE_SPACE = Error "Module-scoped variables in %s state space are not allowed with ABI";
    /// `.f16` initializer.
    F16_INIT = Fatal "No initial value is allowed for .f16 type";
    /// An initializer outside `.global`/`.const`.
    NO_INIT_IN_SPACE = Error "No initial value is allowed for '%s' in this state space";
    /// A `.pred` variable outside `.reg`.
    PRED_SPACE = Error "Predicate variable '%s' must be in register state space";
    /// A `.pred` vector.
    PRED_SCALAR = Error "Predicate type can only be used to define scalar register variables";
    /// Too many initializer elements.
    INIT_TOO_MANY = Fatal "Greater number of elements in array initializer";
    /// Wrong vector initializer count.
    INIT_VECTOR_COUNT = Fatal "Incorrect number of elements in vector initializer";
    /// Division by zero in an initializer.
    INIT_DIV_ZERO = Fatal "Constant expression has division by zero";
    /// An integer literal ptxas cannot read into 64 bits (`crate::ptx::ast::int_literal_value`).
    CONSTANT_OVERFLOW = Error "Constant overflow";
    /// Float for integer.
    INIT_TYPE_MISMATCH = Fatal "Initial value type mismatch";
    /// Initializer symbol space.
    INIT_SPACE = Fatal "Variable used as initial value not in .global or .const state space";
    /// Shared memory too big (link stage).
    SHARED_TOO_BIG = Error "Entry function '%s' uses too much shared data (0x%s bytes, 0xc000 max)";
    /// Constant memory too big (link stage).
    CONST_TOO_BIG = Error "File uses too much global constant data (0x%s bytes, 0x10000 max)";
    // ---- instructions ----
    /// Opcode not in the table.
    UNKNOWN_INSTRUCTION = Error "Not a name of any known instruction: '%s'";
    /// Modifier not known for the opcode.
    UNKNOWN_MODIFIER = Error "Unknown modifier '%s'";
    /// Type suffix not legal for the opcode.
    UNEXPECTED_TYPES = Error "Unexpected instruction types specified for '%s'";
    /// Operand shape/count mismatch.
    ARGUMENTS_MISMATCH = Error "Arguments mismatch for instruction '%s'";
    /// `cvt.pack` without `.sat` (ptxas spells the modifier without quotes).
    SAT_REQUIRED = Error ".sat modifier required for instruction '%s'";
    // ---- video selectors and secondary operations (`video.rs`) ----
    /// A component after a register that is no byte/half selector the scanner knows.
    VIDEO_UNKNOWN_SELECTOR = Error "Unknown video selector: '%s'";
    /// A selector of the wrong shape for its operand position.
    VIDEO_INCORRECT_SELECTOR = Error "Incorrect video selector for operand %s";
    /// A selector on a destination that takes none.
    VIDEO_SELECTOR_DESTINATION = Error "Video selector is not allowed on destination for instruction '%s'";
    /// A selector on a source of a non-video instruction.
    VIDEO_SELECTOR_SOURCE = Error "Video selector is not allowed on source operand for instruction '%s'";
    /// A selector on a video instruction's `c` operand.
    VIDEO_SELECTOR_SOURCE_C = Error "Video selector is not allowed on 'source C' operand";
    /// A scalar video destination selector together with `.add`/`.min`/`.max`.
    VIDEO_DESTINATION_AND_SECONDARY = Error "Video instruction cannot have destination selector and secondary operation";
    /// `.min`/`.max` on a SIMD video instruction.
    VIDEO_SECONDARY = Error "Illegal secondary operation for video instruction '%s'";
    /// `.sat` with `.add` on a SIMD video instruction.
    VIDEO_SAT_ADD = Error "Illegal combination of .sat and .add modifiers";
    /// Operand of the wrong kind for a memory instruction.
    ILLEGAL_OPERAND_TYPE = Error "Illegal operand type to instruction '%s'";
    /// Modifier not legal for the opcode.
    ILLEGAL_MODIFIER = Error "Illegal modifier '%s' for instruction '%s'";
    /// Label operand expected.
    LABEL_EXPECTED = Error "Label expected for argument %s of instruction '%s'";
    /// Operand must be a register.
    MUST_BE_REGISTER = Error "Argument %s of instruction '%s': must be register";
    /// Immediate not a multiple.
    IMM_MULTIPLE = Error "Argument %s of instruction '%s': unexpected value '%s', expected to be multiple of %s";
    /// Immediate outside a value set.
    IMM_EXPECTED = Error "Argument %s of instruction '%s': unexpected value '%s', expected to be %s";
    /// Immediate out of range.
    IMM_RANGE = Error "Argument %s of instruction '%s': value '%s' out of range, expected to be in range [%s..%s]";
    /// Atomic operation with a type it does not take.
    ATOMIC_OP_TYPE = Error "Operation .%s requires %s type for instruction '%s'";
    /// f16-class atomics without `.noftz`.
    NOFTZ_REQUIRED = Error "'.noftz' modifier required for instruction '%s' with type '%s'";
    /// A conversion to fp8 (`.e4m3x2`/`.e5m2x2`) without `.satfinite`.
    SATFINITE_REQUIRED = Error "'.satfinite' modifier required for instruction '%s' with destination type '%s'";
    /// A scope without a memory order.
    ORDER_REQUIRED = Error "Modifier '%s' requires memory order with '%s' instruction";
    /// Two modifiers that exclude each other.
    MODIFIER_COMBINE = Error "Modifier '%s' cannot be combined with modifier '%s'";
    /// Two scopes.
    MULTIPLE_SCOPES = Error "Multiple scope modifiers specified";
    /// A memory order without a scope.
    SCOPE_REQUIRED = Error "Modifier '%s' requires scope with '%s' instruction";
    /// `_` destination where none is allowed.
    RESULT_DISCARD = Fatal "Result discard mode is not allowed for instruction '%s'";
    /// `.param` variable at module scope.
    PARAM_MODULE_SCOPE = Error "Parameter variables may not be declared at module scope";
    /// Memory-order modifier on a space that takes none.
    SPACE_MODIFIER = Error "Modifier '%s' cannot be applied to '%s' space";
    /// `.approx` without `.ftz` where it is needed.
    FTZ_REQUIRED = Error "'.ftz' modifier required for instruction '%s'";
    /// Barrier id.
    BARRIER_RANGE = Error "Barrier number '%s' out of range, expected to be in range [0..15]";
    /// abs on unsigned.
    ABS_SIGNED = Error "Instruction 'abs' applies only to signed numeric types";
    /// neg on unsigned.
    NEG_SIGNED = Error "Instruction 'neg' applies only to signed numeric types";
    /// Rounding required.
    ROUNDING_REQUIRED = Error "Rounding modifier required for instruction '%s'";
    /// Two roundings.
    MULTIPLE_ROUNDING = Error "Multiple rounding modifiers specified";
    /// `.sat` on a non-float type.
    SAT_TYPE = Error "Modifier '.sat' does not apply to '%s' type";
    /// Two comparison operators.
    MULTIPLE_COMPARISONS = Error "Multiple comparisons set";
    /// Two testp operations.
    MULTIPLE_TESTP = Error "Multiple testp operation modifiers specified";
    /// setp without a comparison.
    COMPARISON_REQUIRED = Error "Comparison modifier required for instruction '%s'";
    /// setp compare vs type.
    COMPARE_MISMATCH = Error "Mismatch between instruction type and comparison qualifier";
    /// Wrong state space.
    STATE_SPACE = Error "State space incorrect for instruction '%s'";
    /// Destination must be a register.
    RESULT_REGISTER = Error "Result register required for instruction '%s'";
    /// A special register written by `mov`.
    READONLY_SREG = Error "Read-only special register cannot be destination argument";
    /// A scalar destination under `.vN`.
    RESULT_VECTOR = Error "Result vector expected";
    /// A `.vN` modifier after the instruction type.
    VECTOR_TYPE_ORDER = Warning "Vector Type not specified properly";
    /// Vector shape mismatch.
    VECTOR_SIZE = Error "Argument vector size mismatch for instruction '%s'";
    /// `.nc` outside `.global`.
    NC_GLOBAL = Error "Modifier '.nc' requires .global space";
    /// Two state spaces.
    MULTIPLE_SPACES = Error "Unexpected number of state spaces specified in instruction '%s'";
    /// Negation not allowed.
    NEGATION = Error "Operand negation not allowed for instruction '%s'";
    /// `-` before something that is not a 32-bit integer register.
    UNARY_MINUS = Error "Illegal argument to unary minus";
    /// Neither rounding nor `.approx`.
    ROUNDING_OR_APPROX = Error "Rounding modifier or '.approx' modifier required for instruction '%s'";
    /// `.approx` missing.
    APPROX_REQUIRED = Error ".approx modifier required for instruction '%s'";
    /// A rounding modifier on an instruction that takes none.
    ILLEGAL_ROUNDING = Error "Illegal rounding modifier for instruction '%s'";
    /// A comparison on an instruction that takes none.
    COMPARISON_NOT_ALLOWED = Error "Comparison qualifier is not allowed for instruction '%s'";
    /// A query modifier on an instruction that takes none.
    ILLEGAL_QUERY = Error "Illegal query modifier for instruction '%s'";
    /// A wmma type of the other matrices (`wmma.load.a.….f32`).
    WMMA_ILLEGAL_TYPE = Error "Illegal type for %s";
    /// A wmma type the shape does not take.
    WMMA_SHAPE_TYPE = Error "Incorrect instruction type specified for %s with shape '%s'";
    /// An address whose variable lives in another state space than the instruction's.
    SPACE_MISMATCH = Error "State space mismatch between instruction and address in instruction '%s'";
    /// `st.param` to an input parameter.
    WRITE_INPUT_PARAM = Error "Illegal to write to function input parameter '%s'";
    /// `ld.param` from a return parameter.
    READ_RETURN_PARAM = Error "Illegal to read function return parameter '%s'";
    /// A special register as an operand of an instruction that does not read them.
    SREG_NOT_ALLOWED = Error "Special register argument not allowed for instruction '%s'";
    /// A vector variable wider than 128 bits.
    VECTOR_TOO_LARGE = Error "Vector type too large, exceeds 128 bit limit";
    /// An immediate address outside `.local`.
    IMMEDIATE_ADDRESS = Error "Immediate addresses allowed only for .local state space";
    /// `.ftz` twice.
    DUPLICATE_FTZ = Error "Duplicate .ftz modifier";
    /// Two operation modifiers (`redux.add.min`).
    MULTIPLE_POSTOP = Error "Multiple instruction post-operation flags set";
    /// An operation modifier with a type it does not take.
    OPERATION_TYPE = Error "Incorrect type '%s' for operation '%s' in instruction '%s'";
    /// `redux` without an operation.
    REDUCTION_REQUIRED = Error "Reduction operation is required for instruction '%s'";
    /// `match` with both `.any` and `.all`.
    MULTIPLE_ANY_ALL = Error "Multiple .any/.all modifiers specified";
    /// `match` with neither `.any` nor `.all`.
    ANY_ALL_REQUIRED = Error "'.any' or '.all' modifier required for instruction '%s'";
    /// shfl without a mode.
    SHUFFLE_REQUIRED = Error "Shuffle modifier required for instruction '%s'";
    /// mma without a shape.
    SHAPE_REQUIRED = Error "Shape modifier required for instruction '%s'";
    /// wmma.load/store without a layout.
    LAYOUT_REQUIRED = Error "layout modifier required for instruction '%s'";
    /// An instruction that needs `.sync`.
    SYNC_REQUIRED = Error ".sync modifier required for instruction '%s'";
    /// A state space on an instruction that takes none.
    NO_STATE_SPACE = Error "No state space qualifier expected for instruction '%s'";
    /// A parenthesised operand list outside `call`, at its first token that is not part of
    /// a constant expression (ptxas's grammar takes `(…)` there as one constant expression).
    SYNTAX_ERROR = Fatal "Parsing error near '%s': syntax error";
}
