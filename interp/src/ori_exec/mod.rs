//! The Ori interpreter: runs one Ori function as a kernel over a launch spec's grid.
//!
//! # Model
//!
//! **Memory** is [`crate::memory`]: the spec's buffers at fixed global addresses, the parameter
//! block (`param[off]`, also at `c[0][param_base + off]` by [`ExecConfig::bank0`]), per-CTA
//! shared memory (static symbols of [`ExecConfig::shared_symbols`] laid out in order at their
//! alignment from offset [`crate::memory::SHARED_RESERVED`] (0x400, sm_90's reserved bytes),
//! then the spec's `shared_bytes` at the next multiple of 16), and
//! per-thread local memory of [`ExecConfig::local_bytes`].
//!
//! **Scheduling (deterministic).** CTAs run one after another, to completion, in linear order
//! (x fastest, then y, then z). A CTA's threads are numbered linearly (x fastest) and grouped
//! into warps of 32 consecutive threads; the last warp's missing lanes never run. Warps run
//! round-robin in warp order: each runs until it reaches a CTA barrier, exits, or faults. When
//! every live warp waits at a barrier, and all wait at the same barrier id, the barrier
//! releases and the round starts again at warp 0; if they wait at different ids, that is a
//! deadlock ([`ErrorKind::Deadlock`]). Exited warps do not hold a barrier up. A warp whose
//! `mbarrier.test_wait`/`try_wait` finds the phase incomplete in any lane yields after it: the
//! other running warps have their turn before it polls again, and a barrier releases only when
//! no warp is running or yielded (a phase that never completes ends at the step limit). A barrier
//! reached by only some of a warp's live lanes is [`ErrorKind::DivergentBarrier`]. Within a
//! warp-instruction, lanes execute in ascending lane order, so of two lanes storing to the
//! same address the higher lane's value remains.
//!
//! **SIMT stack.** Each warp has a stack of entries (pc, reconvergence block, lane mask); the
//! top entry runs with active mask = its mask minus exited lanes. Invariant: a warp's active
//! mask is never empty while it runs — entries whose lanes have all exited are popped, and an
//! entry whose pc reaches its reconvergence block (at its first instruction) is popped, merging
//! its lanes back into the entry below, which waits there. A branch on which the active lanes
//! disagree (at block `b`, reconvergence `r` = the immediate post-dominator of `b`, see
//! [`postdom`]) turns the top entry into the waiting entry at `r` (or, if the top entry
//! already reconverges at `r`, replaces it, so loops do not grow the stack), then pushes the
//! taken lanes at the target and the not-taken lanes at the fall-through block; the
//! fall-through lanes run first. Without a post-dominator (`r` = the function exit) the waiting
//! entry is parked: its lanes can only leave by exiting. SASS convergence instructions
//! (`BSSY`, `BSYNC`, `WARPSYNC`) are accepted as no-ops: this model reconverges by
//! post-dominators, not by them.
//!
//! **Registers.** Every lane has its own value of every register, virtual or physical (R, UR, P,
//! UP, B, UB; tuples are consecutive 32-bit components). `RZ`/`URZ` read 0, `PT`/`UPT` read
//! true, and writes to them are discarded. A write to a uniform register (UR, UP) is broadcast
//! to all 32 lanes from the lowest active lane. Registers start as 0. Virtual registers belong
//! to a call frame (a callee starts with fresh ones, all 0; the caller's are untouched by the
//! call). The physical registers are one file per warp that caller and callee of an ABI call
//! (`CALL`) share, as on the GPU: that is what the call ABI passes values and preserves
//! registers in. A PTX-stage call (`call`, `calli`) passes values by copy and gives the callee
//! a fresh physical file too (PTX-stage functions allocated one by one are separate register
//! spaces); the caller's is back when it resumes.
//!
//! **Phis** at the top of a block read, per lane, the value for the block that lane came from,
//! all of a block's leading phis in parallel.
//!
//! **Special registers:** tid/ntid/ctaid/nctaid, laneid, warpid (the warp's index in its CTA),
//! nwarpid 64 and nsmid 132 (an H100's, as the emulator), smid 0, gridid 0, the lane masks, clocks = the number of
//! warp-instructions executed so far in the launch, the dynamic shared size of the spec and the
//! total shared size.
//!
//! # What executes
//!
//! Everything pure goes through [`ptxas_rs::ori::semantics::eval`] (the one table of op
//! meaning); this module only handles `ld`/`st` and `LDG/STG/LDS/STS/LDL/STL/LD/ST` by state
//! space, `bra`/`BRA`, `brx`, `exit`/`EXIT`, `ret`/`RET`, `bar`/`BAR` (CTA barrier; operand =
//! barrier id), `phi`, calls, atomics, address operations, warp operations, and no-ops
//! (`membar`, `MEMBAR`, `NOP`, `BSSY`, `BSYNC`, `WARPSYNC`, `warpsync`).
//!
//! **Calls** (`call`, `calli`): the executing lanes enter the callee together, with fresh
//! registers (parameters from the arguments) and their own SIMT stack; the caller is
//! suspended. `ret` in a callee parks a lane with its return values; when every calling lane
//! has returned or exited, the caller resumes after the call with the returned lanes' results
//! in the call's destinations. In the outermost function `ret` ends the thread. An indirect
//! call (`calli`, target = [`Module::function_address`](ptxas_rs::ori::Module::function_address))
//! whose lanes name different functions calls them one group at a time, in order of each
//! group's lowest lane. Nesting deeper than 4096 calls is unsupported.
//!
//! **ABI calls** (`CALL`/`RET` of selected code, the convention of
//! [`ptxas_rs::lower::isel::call`]) use the same frames and SIMT machinery: the executing lanes
//! enter the callee (a `Func` operand names it; a register operand holds a
//! [`Module::function_address`](ptxas_rs::ori::Module::function_address), called group by group
//! as `calli`) with fresh virtual registers; nothing is copied, since the arguments, results,
//! return address and stack pointer are physical registers (R4.., R2/R3, R1) the callee
//! shares. `RET` in a callee parks the lane like `ret`; when every calling lane has returned or
//! exited, the caller resumes after the `CALL`. The callee must release its frame: when every
//! lane is back, R1 of each returned lane must equal its value at the `CALL` in an allocated
//! callee (else [`ErrorKind::Invalid`]: the epilogue of
//! [`ptxas_rs::regalloc::callee_save`] restores it), and is reset to it in a callee not
//! allocated yet (selected code has the prologue's `IADD3 R1, R1, -F` but no epilogue until
//! allocation lays it out). Local memory is the thread's `local_bytes` window from 0, the
//! kernel's initial R1 (`c[0x0][0x28]`, what the kernel prologue `LDC R1` reads) is its top, and
//! frames grow down from there, so a chain of frames deeper than the window faults (out of
//! bounds), as the emulator's stack of [`crate::emu`] does below its top.
//! In `RET` of the outermost function, as `ret`, the lanes exit.
//!
//! **`brx`** sends each lane to the target its index selects; distinct targets diverge like a
//! branch (reconverging at the immediate post-dominator), the lowest target index first.
//!
//! **Atomics** (`atom`, `atomcas`) run lane by lane in ascending lane order, each a complete
//! read-modify-write; add/min/max use the semantics table (float add rounds to nearest).
//!
//! **Tensor-core operations** (`ldmatrix`, `mma`) are warp-collective: every lane of the warp
//! must execute them (else [`ErrorKind::Unsupported`]); element placement and arithmetic are
//! [`ptxas_rs::ori::tensor`]'s, the code the SASS emulator runs for `LDSM` and `HMMA`.
//! **`cp.async`** copies at issue, lane by lane, writing zeros from its source size on;
//! `cpasynccommit`/`cpasyncwait` are no-ops (nothing is ever pending).
//!
//! **mbarriers** (`mbarinit`, `mbararrive`, `mbartestwait`, `mbartrywait`, `mbarinval`,
//! `cpasyncmbararrive`, `cpbulk`) run lane by lane on the 64-bit word in shared memory with
//! [`ptxas_rs::ori::mbarrier`]'s layout and operations (the SASS emulator's), pending
//! transactions kept beside it per CTA; a bulk copy copies at issue, then completes its bytes.
//!
//! **Warp operations** (`shfl`, `vote`, `ballot`, `matchany`, `matchall`, `redux`,
//! `activemask`) act on the executing lanes; a member mask naming a live lane that is not
//! executing is [`ErrorKind::Unsupported`] (undefined on hardware). `shfl` follows PTX's
//! lane arithmetic with the clamp and segment mask of its `c` operand; a source lane outside
//! the range leaves the lane's own value and a false predicate; a source lane that is inactive
//! gives whatever its register holds.
//!
//! **`setmaxnreg`** (and its `USETMAXREG`) changes a warpgroup's register allocation, which
//! this model does not have: it is a warp-synchronous no-op for every value, and
//! `USETMAXREG.TRY_ALLOC`'s uniform predicate is always true (the registers are granted at once).
//!
//! **Module variables**: `shared` ones are laid out after [`ExecConfig::shared_symbols`] (a
//! size-0 one is the dynamic shared memory base); `global` ones are allocated after the spec's
//! buffers (whose addresses do not move) with their initial bytes; `const` ones are laid out
//! at their alignment in the user constant bank (bank 3), and bank 4 holds the addresses of the
//! global variables selected code reads them for ([`ptxas_rs::lower::isel::data_layout`]). `mova` gives a variable's space-relative
//! address; `cvta`/`cvtato` convert shared, local, const and param addresses to and from the
//! generic windows of [`crate::memory`], and `isspacep` tests them.
//!
//! Errors never panic: every ill-formed input (unknown registers, missing fall-through block,
//! unsupported forms) is an [`ExecError`] naming the function, the instruction in its printed
//! form, and the thread.

mod exec;
pub mod postdom;

use std::collections::BTreeMap;
use std::fmt;

use ptxas_rs::ori::Module;
use ptxas_rs::ori::semantics::EvalError;

use crate::launch::LaunchSpec;
use crate::memory::{Bank0Layout, Fault};

/// Options of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecConfig {
    /// The most warp-instructions the whole launch may execute before
    /// [`ErrorKind::StepLimit`].
    pub step_limit: u64,
    /// Local memory per thread, in bytes.
    pub local_bytes: u32,
    /// The SM whose launch limits the launch is checked against (default 90): a block's
    /// static and dynamic shared memory together at most
    /// [`crate::launch::limits::max_shared_per_block`], else [`ErrorKind::Launch`] before any
    /// memory is allocated.
    pub sm: u32,
    /// Where launch values sit in constant bank 0.
    pub bank0: Bank0Layout,
    /// Static shared variables `(name, size, align)`, addressed as `shared[$name]`.
    pub shared_symbols: Vec<(String, u32, u32)>,
    /// Run the verifier on the kernel first.
    pub verify: bool,
    /// Execute contracted `fma`s ([`ptxas_rs::ori::Flag::Contract`], phase 9's fusions) as
    /// the `mul` and `add` they stand for, rounded twice
    /// ([`ptxas_rs::ori::semantics::eval_unfused`]), instead of fused as FFMA/DFMA/HFMA2
    /// compute them (the default). Translation validation uses it to check a contracting
    /// phase.
    pub unfuse_contracted: bool,
}

impl Default for ExecConfig {
    fn default() -> ExecConfig {
        ExecConfig {
            step_limit: 10_000_000,
            local_bytes: 1024,
            sm: 90,
            bank0: Bank0Layout::SM90,
            shared_symbols: Vec::new(),
            verify: true,
            unfuse_contracted: false,
        }
    }
}

/// A thread of the grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ThreadId {
    /// The CTA index (x, y, z).
    pub cta: [u32; 3],
    /// The thread index in the CTA (x, y, z).
    pub tid: [u32; 3],
    /// The warp index in the CTA.
    pub warp: u32,
    /// The lane in the warp.
    pub lane: u32,
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.tid;
        let [a, b, c] = self.cta;
        write!(f, "thread ({x},{y},{z}) of CTA ({a},{b},{c}) (warp {} lane {})", self.warp, self.lane)
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The module has no function of that name.
    NoKernel(String),
    /// The verifier rejected the function, or the interpreter found it ill-formed.
    Invalid(String),
    /// A memory access failed.
    Fault(Fault),
    /// More warp-instructions than [`ExecConfig::step_limit`].
    StepLimit(u64),
    /// Every live warp of a CTA waits at a barrier, but not all at the same one.
    Deadlock(String),
    /// A barrier reached by only some of a warp's live lanes.
    DivergentBarrier {
        /// Lanes that arrived.
        active: u32,
        /// Lanes alive in the warp.
        live: u32,
    },
    /// A form not modelled yet.
    Unsupported(String),
    /// The launch exceeds the target's limits (shared memory per block).
    Launch(String),
    /// `trap` executed.
    Trap,
    /// A system function stopped the launch (`__assertfail`, or a bad call).
    System(crate::sysfn::SysError),
    /// A texture or surface access failed: an invalid handle, a geometry the object lacks, a
    /// surface access out of range under `.trap` ([`crate::texture`]).
    Texture(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NoKernel(k) => write!(f, "no function `{k}` in the module"),
            ErrorKind::Invalid(m) => write!(f, "invalid IR: {m}"),
            ErrorKind::Fault(x) => write!(f, "memory fault: {x}"),
            ErrorKind::StepLimit(n) => write!(f, "step limit of {n} warp-instructions reached"),
            ErrorKind::Deadlock(m) => write!(f, "barrier deadlock: {m}"),
            ErrorKind::DivergentBarrier { active, live } => {
                write!(f, "barrier reached by lanes {active:#010x} of live lanes {live:#010x}")
            }
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
            ErrorKind::Launch(m) => write!(f, "launch: {m}"),
            ErrorKind::Trap => write!(f, "trap"),
            ErrorKind::System(e) => write!(f, "{e}"),
            ErrorKind::Texture(m) => write!(f, "texture/surface fault: {m}"),
        }
    }
}

/// An execution error, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError {
    /// The function executed.
    pub function: String,
    /// The instruction, printed, where there is one.
    pub inst: Option<String>,
    /// The thread, where there is one.
    pub thread: Option<ThreadId>,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.function)?;
        if let Some(i) = &self.inst {
            write!(f, ": `{i}`")?;
        }
        if let Some(t) = &self.thread {
            write!(f, ": {t}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for ExecError {}

impl From<EvalError> for ErrorKind {
    fn from(e: EvalError) -> ErrorKind {
        match e {
            EvalError::Unsupported(m) => ErrorKind::Unsupported(m),
            e => ErrorKind::Invalid(e.to_string()),
        }
    }
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Outputs {
    /// The spec's output buffers' final bytes, by name.
    pub buffers: BTreeMap<String, Vec<u8>>,
    /// Warp-instructions executed.
    pub warp_steps: u64,
    /// What the launch printed (`vprintf`), in the order of [`crate::sysfn::Services::log`].
    pub log: String,
}

impl Outputs {
    /// The bytes of output buffer `name`.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.buffers.get(name).map(|v| &v[..])
    }
}

/// Runs function `kernel` of `module` over `spec`'s grid with the default [`ExecConfig`].
pub fn run_ori(module: &Module, kernel: &str, spec: &LaunchSpec) -> Result<Outputs, ExecError> {
    run_ori_with(module, kernel, spec, &ExecConfig::default())
}

/// Runs function `kernel` of `module` over `spec`'s grid.
pub fn run_ori_with(
    module: &Module,
    kernel: &str,
    spec: &LaunchSpec,
    config: &ExecConfig,
) -> Result<Outputs, ExecError> {
    exec::run(module, kernel, spec, config)
}
