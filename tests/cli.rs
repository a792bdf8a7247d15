//! Differential tests of the command line: `ptxas-rs` against NVIDIA's `ptxas` 13.0.88 on the same
//! argument vectors, in the same scratch directory.
//!
//! Three kinds of case:
//! - [`Expect::Same`]: exit status, stdout and stderr must be byte-identical (syntax errors, bad
//!   values, conflicts, missing files, `--help`, `--list-version`, no arguments);
//! - [`Expect::Version`]: `--version` has ptxas's five-line shape and its `Cuda compilation tools`
//!   line; the lines naming the tool differ on purpose;
//! - [`Expect::Accepted`]: ptxas compiles (exit 0). We must accept the same options: our
//!   option-level diagnostics are ptxas's, and then either we compile too (exit 0, the same files
//!   created as ptxas created) or we end with exactly one `ptxas-rs: ... not supported yet`
//!   line (exit 255, no file created: only sm_75, the sm_80 family, sm_90, sm_90a, sm_100 and
//!   sm_100a have a backend so far, `Target::backend`). Lines printed while
//!   compiling (`-v` info, debug-section warnings, register-bound adjustments) are masked out of
//!   both stderrs before comparing.
//!
//! - [`Expect::Measured`]: exit status, stdout, the files created and stderr (and the text of
//!   created `.txt` files: `--compiler-stats-file`) equal once every number is masked: the lines
//!   that report measurements (`-v`'s `Compile time`, `--compiler-stats`) or resources our code
//!   generation decides (registers, spill bytes) must have ptxas's text, fields and order.
//!
//! Neither tool may leave an output file behind in error cases (ptxas's one exception, a
//! `--compiler-stats-file` it cannot open after writing the cubin, is matched).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A kernel ptxas compiles silently for every target.
const KERNEL: &str = ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k() { ret; }\n";
/// A second kernel, to combine with `k.ptx` without a duplicate definition.
const KERNEL2: &str = ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k2() { ret; }\n";
/// `mul.f32` + `add.f32` (contractible) in a debug target (`.target ..., debug`, a `.debug_info`
/// section as nvcc -G writes): ptxas compiles it unoptimised and refuses an explicit -O1..3.
const DEBUG_MAD: &str = ".version 8.0\n.target sm_90, debug\n.address_size 64\n\
    .visible .entry m(.param .u64 p)\n{\n.reg .f32 %f<4>;\n.reg .b64 %rd<2>;\n\
    ld.param.u64 %rd1, [p];\nld.global.f32 %f1, [%rd1];\nld.global.f32 %f2, [%rd1+4];\n\
    mul.f32 %f3, %f1, %f2;\nadd.f32 %f3, %f3, %f1;\nst.global.f32 [%rd1+8], %f3;\nret;\n}\n\
    .section .debug_info\n{\n}\n";
/// A `.target debug` kernel with a (token) DWARF section.
const DEBUG_KERNEL: &str = ".version 8.0\n.target sm_90, debug\n.address_size 64\n.visible .entry k() { ret; }\n.section .debug_abbrev { .b8 0 }\n";
/// A kernel with a 3072-byte local array (`--warn-on-local-memory-usage` names it).
const LMEM: &str = include_str!("../corpus/cuda/stack_large_local/stack_large_local.sm_90.ptx");
/// Three kernels in one module: ptxas compiles and writes them last first.
const MULTI: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
    .visible .entry alpha(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
    ld.global.u32 %r1, [%rd1];\nadd.s32 %r2, %r1, 1;\nst.global.u32 [%rd1], %r2;\nret;\n}\n\
    .visible .entry beta(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
    ld.global.u32 %r1, [%rd1];\nadd.s32 %r2, %r1, 2;\nst.global.u32 [%rd1+4], %r2;\nret;\n}\n\
    .visible .entry gamma()\n{\nret;\n}\n";
/// Two kernels, each calling its own device function: ptxas reports each function after the
/// kernel that calls it, kernels last first.
const TWO_CALLS: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
    .func (.reg .b32 r) zf(.reg .b32 a)\n{\nadd.u32 r, a, 1;\nret;\n}\n\
    .func (.reg .b32 r) ag(.reg .b32 a)\n{\nadd.u32 r, a, 2;\nret;\n}\n\
    .visible .entry ka(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
    ld.global.u32 %r1, [%rd1];\ncall.uni (%r2), zf, (%r1);\nst.global.u32 [%rd1], %r2;\nret;\n}\n\
    .visible .entry kb(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
    ld.global.u32 %r1, [%rd1];\ncall.uni (%r2), ag, (%r1);\nst.global.u32 [%rd1], %r2;\nret;\n}\n";
/// Double-precision instructions of every kind `ptx::fp64_use` counts (one, two, three
/// warnings), in a kernel and in a device function no kernel calls.
const F64: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
    .func (.reg .f64 r) h(.reg .f64 a)\n{\nadd.f64 r, a, a;\nret;\n}\n\
    .visible .entry d(.param .u64 p)\n{\n.reg .f64 %fd<8>;\n.reg .f32 %f<2>;\n.reg .b32 %r<2>;\n\
    .reg .b64 %rd<3>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\nld.global.f64 %fd1, [%rd1];\n\
    ld.global.u32 %r1, [%rd1+8];\nfma.rn.f64 %fd2, %fd1, %fd1, %fd1;\nsetp.lt.f64 %p1, %fd2, %fd1;\n\
    selp.f64 %fd3, %fd2, %fd1, %p1;\ncvt.rn.f32.f64 %f1, %fd3;\ncvt.rn.f64.s32 %fd4, %r1;\n\
    copysign.f64 %fd5, %fd4, %fd3;\ntestp.finite.f64 %p1, %fd5;\nmov.b64 %rd2, %fd5;\n\
    st.global.f64 [%rd1], %fd5;\nst.global.f32 [%rd1+8], %f1;\nst.global.u64 [%rd1+16], %rd2;\nret;\n}\n";
/// `div.rn.f64`, which ptxas expands through its internal macros (warnings in `<macro util>`).
const F64_DIV: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
    .visible .entry q(.param .u64 p)\n{\n.reg .f64 %fd<4>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n\
    ld.global.f64 %fd1, [%rd1];\ndiv.rn.f64 %fd2, %fd1, %fd1;\nst.global.f64 [%rd1], %fd2;\nret;\n}\n";
/// f64 loads and stores in every state space, a guarded `mov.f64`, `cvt` to f16, a shared
/// `atom.add.f64`.
const F64_SPACES: &str = include_str!("cli_fp64_spaces.ptx");
/// A use of an undeclared register: the front end's errors.
const UNDECLARED: &str = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\
    .reg .f64 %fd<2>;\ncvt.rn.f32.f64 %f1, %fd1;\nret;\n}\n";
/// `.extern` `.global`/`.const` variables nothing defines: ptxas warns and defines them.
const EXTERN_VARS: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
    .extern .global .align 8 .b32 e[4];\n.extern .const .b32 c;\n\
    .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n\
    ld.global.u32 %r1, [e+4];\nld.const.u32 %r2, [c];\nadd.u32 %r1, %r1, %r2;\n\
    ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r1;\nret;\n}\n";
/// 40 values live at once under `.maxnreg 24`: both allocators spill.
const SPILL: &str = include_str!("cli_spill.ptx");

/// How a run the backend cannot do yet ends.
const NOT_IMPLEMENTED_PREFIX: &str = "ptxas fatal   : ptxas-rs: ";
const NOT_IMPLEMENTED_SUFFIX: &str = " is not supported yet\n";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Same,
    Version,
    Accepted,
    Measured,
}

struct Case {
    args: &'static [&'static str],
    expect: Expect,
    /// Extra files to create in the scratch directory (name, contents).
    files: &'static [(&'static str, &'static str)],
}

const fn same(args: &'static [&'static str]) -> Case {
    Case { args, expect: Expect::Same, files: &[] }
}
const fn accepted(args: &'static [&'static str]) -> Case {
    Case { args, expect: Expect::Accepted, files: &[] }
}
const fn measured(args: &'static [&'static str]) -> Case {
    Case { args, expect: Expect::Measured, files: &[] }
}
const fn version(args: &'static [&'static str]) -> Case {
    Case { args, expect: Expect::Version, files: &[] }
}
const fn with_files(mut c: Case, files: &'static [(&'static str, &'static str)]) -> Case {
    c.files = files;
    c
}

const CASES: &[Case] = &[
    // --- help, usage, versions
    same(&[]),
    same(&["--help"]),
    same(&["-h"]),
    same(&["-h", "--list-version", "k.ptx"]),
    same(&["-V", "-h"]),
    same(&["--list-version"]),
    same(&["-version-ls"]),
    same(&["-v"]),
    same(&["-arch", "sm_90", "-arch", "sm_80"]),
    same(&["-dlcm", "foo"]),
    same(&["-g", "-O3"]),
    same(&["-maxrregcount", "foo"]),
    version(&["-V"]),
    version(&["--version"]),
    version(&["-V", "k.ptx"]),
    version(&["--list-version", "-V"]),
    // --- unknown options
    same(&["-foo"]),
    same(&["--foo"]),
    same(&["---v"]),
    same(&["--foo=bar"]),
    same(&["-foo=bar"]),
    same(&["--"]),
    same(&["-foo", "-bar"]),
    same(&["-V", "-foo"]),
    same(&["-h", "-foo"]),
    same(&["--arch", "sm_90", "k.ptx"]),
    same(&["-gpu-name", "sm_90", "k.ptx"]),
    same(&["-archsm_90", "k.ptx"]),
    same(&["-osomething", "k.ptx"]),
    same(&["-efoo", "k.ptx"]),
    same(&["--opt-level2", "k.ptx"]),
    same(&["-O", "-1", "k.ptx"]),
    same(&["-knob", "DUMPIR=x", "k.ptx"]),
    same(&["--verb", "k.ptx"]),
    // --- missing values
    same(&["-arch"]),
    same(&["--gpu-name"]),
    same(&["-o"]),
    same(&["-e"]),
    same(&["-m"]),
    same(&["-optf"]),
    same(&["--compiler-stats"]),
    same(&["--opt-level"]),
    same(&["-k"]),
    same(&["-link-info"]),
    // --- bad values
    same(&["-arch=sm_60", "k.ptx"]),
    same(&["-arch", "sm_60"]),
    same(&["-arch", "sm_91", "k.ptx"]),
    same(&["-arch", "sm_90,sm_80", "k.ptx"]),
    same(&["-arch=", "k.ptx"]),
    same(&["--gpu-name==sm_90", "k.ptx"]),
    same(&["-arch", "-v", "k.ptx"]),
    same(&["-m", "32", "k.ptx"]),
    same(&["-m=", "k.ptx"]),
    same(&["-machine"]),
    same(&["-Ofoo", "k.ptx"]),
    same(&["-O3x", "k.ptx"]),
    same(&["--opt-level=x"]),
    same(&["--opt-level", "k.ptx"]),
    same(&["-O99999999999", "k.ptx"]),
    same(&["-O-99999999999", "k.ptx"]),
    same(&["-v=true", "k.ptx"]),
    same(&["--verbose=1"]),
    same(&["-c="]),
    same(&["--list-version=1"]),
    same(&["-fmad", "x", "k.ptx"]),
    same(&["-fmad", "k.ptx"]),
    same(&["-fmad", "TRUE", "k.ptx"]),
    same(&["--compiler-stats=x"]),
    same(&["--compiler-stats=time,bogus"]),
    same(&["-sanitize", "memcheck,threadsteer"]),
    same(&["-regUsageLevel", "five", "k.ptx"]),
    same(&["--profile-options", "a=b,c"]),
    same(&["-sw2614554", "yes", "k.ptx"]),
    // --- conflicts and value checks made before compiling
    same(&["-g", "-O3", "k.ptx"]),
    same(&["-g", "-O1", "k.ptx"]),
    same(&["-O3", "-g", "nonexist.ptx"]),
    same(&["-regUsageLevel", "11", "-g", "-O3", "k.ptx"]),
    same(&["-Ofc", "foo", "k.ptx"]),
    same(&["-g", "-O3", "-Ofc", "foo", "k.ptx"]),
    same(&["-Ofc", "max", "-O3", "k.ptx"]),
    same(&["-Ofc", "max", "-O3", "-g", "k.ptx"]),
    same(&["-Ofc", "mid", "-O2", "k.ptx"]),
    same(&["-O", "-Ofc", "min", "k.ptx"]),
    same(&["-g", "-O0", "-Ofc", "min", "k.ptx"]),
    same(&["-Ofc", "max", "-O3", "-dlcm", "foo", "-regUsageLevel", "11", "k.ptx"]),
    same(&["-maxrregcount", "foo", "k.ptx"]),
    same(&["-maxrregcount", "32x", "k.ptx"]),
    same(&["-maxrregcount", "300", "-maxrregcount", "foo", "k.ptx"]),
    same(&["-maxrregcount", "foo", "-dlcm", "foo", "-regUsageLevel", "11", "k.ptx"]),
    same(&["-dlcm", "wb", "k.ptx"]),
    same(&["-dscm", "ca", "k.ptx"]),
    same(&["-dlcm", "foo", "-dscm", "bar", "-flcm", "x", "-fscm", "y", "-maxrregcount", "300", "nonexist"]),
    same(&["-regUsageLevel", "11", "-maxrregcount", "300", "-dlcm", "foo", "nonexist"]),
    same(&["-maxntid", "1,2,3,4", "-maxrregcount", "300", "-regUsageLevel", "11", "-dlcm", "foo", "k.ptx"]),
    same(&["-func-maxrregcount", "300", "-maxrregcount", "300", "-dlcm", "foo", "k.ptx"]),
    same(&["-g", "-Ofc", "max", "-dlcm", "foo", "-regUsageLevel", "11", "-maxrregcount", "300", "k.ptx"]),
    same(&["-Werror", "-maxrregcount", "300", "-arch", "sm_90", "-arch", "sm_80", "k.ptx"]),
    same(&["-Werror", "-regUsageLevel", "11", "nonexist"]),
    same(&["-maxrregcount", "256", "nonexist"]),
    same(&["-maxrregcount", "-5", "nonexist"]),
    same(&["-abi", "no", "k.ptx"]),
    // --- input files
    same(&["nonexist.ptx"]),
    same(&["-arch=sm_90", "nonexist.ptx"]),
    same(&["-v", "nonexist1", "nonexist2"]),
    same(&["-O", "2", "k.ptx"]),
    same(&["k.ptx", "nonexist.ptx"]),
    // --- options files
    same(&["-optf", "nonexist"]),
    // `.target debug` with an explicit -O above 0: ptxas's fatal, for any -arch, before the
    // -arch/.target check; -O0 and no -O compile.
    with_files(same(&["-arch", "sm_90", "ext.ptx"]), &[("ext.ptx", EXTERN_VARS)]),
    with_files(same(&["-O3", "-arch", "sm_90", "dbg.ptx"]), &[("dbg.ptx", DEBUG_KERNEL)]),
    with_files(same(&["-O1", "-arch", "compute_90", "dbg.ptx"]), &[("dbg.ptx", DEBUG_KERNEL)]),
    with_files(same(&["-O2", "-arch", "sm_80", "dbg.ptx"]), &[("dbg.ptx", DEBUG_KERNEL)]),
    with_files(accepted(&["-O0", "-arch", "sm_90", "dbg.ptx"]), &[("dbg.ptx", DEBUG_KERNEL)]),
    with_files(accepted(&["-arch", "sm_90", "dbg.ptx"]), &[("dbg.ptx", DEBUG_KERNEL)]),
    with_files(same(&["-optf", "bad.opt", "k.ptx"]), &[("bad.opt", "-foo\n")]),
    with_files(same(&["-optf", "arch.opt", "k.ptx"]), &[("arch.opt", "-arch \"sm_60\"\n")]),
    with_files(same(&["-O3", "-arch", "sm_90", "d.ptx"]), &[("d.ptx", DEBUG_MAD)]),
    with_files(same(&["-O1", "-arch", "sm_90", "-o", "d.cubin", "d.ptx"]), &[("d.ptx", DEBUG_MAD)]),
    with_files(same(&["-optf", "comment.opt", "k.ptx"]), &[("comment.opt", "-v  -O2 # comment\n")]),
    with_files(accepted(&["-optf", "good.opt"]), &[("good.opt", "-arch \"sm_90\"\n-v\nk.ptx\n")]),
    with_files(accepted(&["-optf", "a.opt,b.opt"]), &[("a.opt", "-arch sm_90"), ("b.opt", "-O2 k.ptx")]),
    with_files(accepted(&["-optf", "nest.opt"]), &[("nest.opt", "-optf good.opt"), ("good.opt", "k.ptx")]),
    // --- accepted option sets (every syntax form)
    accepted(&["k.ptx"]),
    accepted(&["-arch", "sm_90", "k.ptx"]),
    accepted(&["-arch=sm_90a", "k.ptx"]),
    accepted(&["--gpu-name", "sm_100f", "k.ptx"]),
    accepted(&["--gpu-name=sm_121a", "k.ptx"]),
    accepted(&["-arch", "compute_90", "k.ptx"]),
    accepted(&["-arch", "lto_120", "k.ptx"]),
    same(&["-arch", "lto_120a", "k.ptx"]),
    same(&["-arch", "lto_90a", "-g", "-O3", "-regUsageLevel", "11", "nonexist"]),
    accepted(&["-arch=sm_90", "-arch=sm_90", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-arch", "sm_80", "k.ptx"]),
    accepted(&["-O3", "k.ptx"]),
    accepted(&["-O", "k.ptx"]),
    accepted(&["-O=", "k.ptx"]),
    accepted(&["-O=2", "k.ptx"]),
    accepted(&["-O0x2", "-O+2", "k.ptx"]),
    accepted(&["-O9", "k.ptx"]),
    accepted(&["-O2", "-O3", "k.ptx"]),
    accepted(&["--opt-level", "1", "k.ptx"]),
    accepted(&["--opt-level=0", "k.ptx"]),
    accepted(&["--opt-level=", "k.ptx"]),
    accepted(&["-m64", "k.ptx"]),
    accepted(&["-m", "64", "k.ptx"]),
    accepted(&["--machine=64", "k.ptx"]),
    accepted(&["-o", "out.cubin", "k.ptx"]),
    accepted(&["--output-file=out.cubin", "k.ptx"]),
    accepted(&["-o=a=b", "k.ptx"]),
    accepted(&["-v", "-v", "k.ptx"]),
    accepted(&["--verbose", "-c", "k.ptx"]),
    accepted(&["-fmad", "false", "k.ptx"]),
    accepted(&["-fmad=true", "--fmad", "false", "k.ptx"]),
    accepted(&["--allow-expensive-optimizations=true", "-pic", "false", "k.ptx"]),
    accepted(&["-e", "k", "k.ptx"]),
    accepted(&["--entry=k", "k.ptx"]),
    accepted(&["--compiler-stats=time", "k.ptx"]),
    accepted(&["--compiler-stats-file", "stats.txt", "k.ptx"]),
    accepted(&["-maxrregcount", "300", "k.ptx"]),
    accepted(&["-maxrregcount", "archmax", "k.ptx"]),
    accepted(&["--maxrregcount=archmin", "k.ptx"]),
    accepted(&["-maxrregcount", "0x20", "k.ptx"]),
    accepted(&["-maxrregcount", "32", "-maxrregcount", "64", "k.ptx"]),
    accepted(&["-minnctapersm", "4", "-maxrregcount", "40", "k.ptx"]),
    accepted(&["-maxntid", "128", "-maxrregcount", "40", "k.ptx"]),
    accepted(&["-maxntid", "1,2", "-maxntid", "3,4", "k.ptx"]),
    accepted(&["-func-maxrregcount", "64", "k.ptx"]),
    accepted(&["-regUsageLevel", "11", "k.ptx"]),
    accepted(&["--register-usage-level=-1", "k.ptx"]),
    accepted(&["-w", "-maxrregcount", "300", "-arch", "sm_90", "-arch", "sm_80", "-fext", "k.ptx"]),
    accepted(&["-Ofc", "max", "k.ptx"]),
    accepted(&["-Ofc", "mid", "-O1", "k.ptx"]),
    accepted(&["-Ofc", "0", "-O3", "k.ptx"]),
    accepted(&["-g", "-O0", "k.ptx"]),
    accepted(&["-g", "-O", "k.ptx"]),
    accepted(&["-g", "-Ofc", "max", "k.ptx"]),
    accepted(&["-regUsageLevel", "5", "-g", "k.ptx"]),
    accepted(&["-lineinfo", "--suppress-debug-info", "k.ptx"]),
    accepted(&["-dlcm", "ca", "-dscm", "wt", "k.ptx"]),
    accepted(&["-dlcm", "cg", "-dlcm", "cs", "k.ptx"]),
    accepted(&["-flcm", "lu", "-dlcm", "cv", "k.ptx"]),
    accepted(&["-fext", "k.ptx"]),
    accepted(&["-k", "x", "k.ptx"]),
    accepted(&["-k", "-v", "k.ptx"]),
    accepted(&["-sw2614554", "true", "-Op", "k.ptx"]),
    accepted(&["-split-compile", "2", "-slr", "-uumn", "k.ptx"]),
    accepted(&["-sanitize", "memcheck", "k.ptx"]),
    accepted(&["-Werror", "-w", "-warn-spills", "-warn-lmem-usage", "-warn-double-usage", "k.ptx"]),
    accepted(&["-ias", KERNEL]),
    accepted(&["--input-as-string", KERNEL2, "k.ptx"]),
    accepted(&["-no-bb-merge", "-ret-end", "-opt-fp-atomics", "-sp-bounds-check", "k.ptx"]),
    // --- issue 26: options honoured as ptxas's on a target with a backend (same stderr, exit
    // status and files), or refused with one `not supported yet` line (the `Accepted` rule)
    with_files(accepted(&["-arch", "sm_90", "-warn-lmem-usage", "-warn-spills", "l.ptx"]), &[("l.ptx", LMEM)]),
    with_files(same(&["-arch", "sm_90", "-Werror", "-warn-lmem-usage", "-o", "l.cubin", "l.ptx"]), &[("l.ptx", LMEM)]),
    with_files(same(&["-arch", "sm_90", "-w", "-warn-lmem-usage", "-o", "l.cubin", "l.ptx"]), &[("l.ptx", LMEM)]),
    with_files(same(&["-arch", "sm_90", "--warn-on-local-memory-usage", "-Werror", "-w", "l.ptx"]), &[("l.ptx", LMEM)]),
    same(&["-arch", "sm_90", "-warn-lmem-usage", "-warn-spills", "-Werror", "k.ptx"]),
    same(&["-arch", "sm_90", "-maxrregcount", "16", "k.ptx"]),
    same(&["-arch", "sm_90a", "-maxrregcount", "0", "-o", "a.cubin", "k.ptx"]),
    same(&["-arch", "sm_80", "-maxrregcount", "23", "k.ptx"]),
    same(&["-arch", "sm_90", "-Werror", "-maxrregcount", "16", "k.ptx"]),
    same(&["-arch", "sm_90", "-w", "-maxrregcount", "8", "k.ptx"]),
    same(&["-arch", "sm_90", "-maxrregcount", "24", "-maxntid", "64", "-minnctapersm", "2", "k.ptx"]),
    same(&["-arch", "sm_90", "-func-maxrregcount", "64", "k.ptx"]),
    same(&["-arch", "sm_90", "-suppress-stack-size-warning", "-Ofc", "max", "k.ptx"]),
    same(&["-arch", "sm_90", "-Ofc", "mid", "-allow-expensive-optimizations", "false", "k.ptx"]),
    same(&["-arch", "sm_90", "k.ptx", "-o", "/nonexistent/dir/k.cubin"]),
    same(&["-arch", "sm_90", "k.ptx", "-o", "."]),
    accepted(&["-arch", "sm_90", "-g", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-lineinfo", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-c", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-warn-double-usage", "k.ptx"]),
    accepted(&["-arch", "sm_90", "--compiler-stats", "time", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-maxntid", "128", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-minnctapersm", "4", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-O1", "-allow-expensive-optimizations", "true", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-split-compile", "2", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-e", "k", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-dlcm", "cg", "k.ptx"]),
    accepted(&["-arch", "sm_90", "-regUsageLevel", "7", "k.ptx"]),
    // --- issue 26: `-v`'s Compile time line, kernel order, --compiler-stats, the warning family
    measured(&["-arch", "sm_90", "-v", "k.ptx"]),
    with_files(measured(&["-arch", "sm_90", "-v", "-o", "m.cubin", "m.ptx"]), &[("m.ptx", MULTI)]),
    with_files(measured(&["-arch", "sm_90", "-v", "-O0", "m.ptx"]), &[("m.ptx", MULTI)]),
    with_files(measured(&["-arch", "sm_90", "-v", "-warn-lmem-usage", "l.ptx"]), &[("l.ptx", LMEM)]),
    with_files(measured(&["-arch", "sm_90", "-v", "-O0", "c.ptx"]), &[("c.ptx", TWO_CALLS)]),
    with_files(measured(&["-arch", "sm_90", "-v", "c.ptx"]), &[("c.ptx", TWO_CALLS)]),
    measured(&["-arch", "sm_90", "--compiler-stats=time", "k.ptx"]),
    measured(&["-arch", "sm_90", "--compiler-stats=memory", "k.ptx"]),
    measured(&["-arch", "sm_90", "--compiler-stats=m,t", "k.ptx"]),
    measured(&["-arch", "sm_90", "--compiler-stats=t,p", "k.ptx"]),
    measured(&["-arch", "sm_90", "--compiler-stats=phase-wise", "k.ptx"]),
    measured(&["-arch", "sm_90", "--compiler-stats=detailed,p", "k.ptx"]),
    measured(&["-arch", "compute_90", "--compiler-stats=time", "k.ptx"]),
    measured(&["-arch", "sm_90", "-compilerStats", "t", "-Werror", "-w", "k.ptx"]),
    with_files(measured(&["-arch", "sm_90", "--compiler-stats=t", "-v", "m.ptx"]), &[("m.ptx", MULTI)]),
    measured(&["-arch", "sm_90", "--compiler-stats=t", "--compiler-stats-file", "s.txt", "k.ptx"]),
    measured(&["-arch", "sm_90", "--compiler-stats=t,m", "--compiler-stats-file", "s.txt", "-ias", KERNEL2]),
    measured(&["-arch", "sm_90", "--compiler-stats=p,t", "--compiler-stats-file", "s.txt", "k.ptx"]),
    measured(&["-arch", "sm_90", "--compiler-stats=t", "--compiler-stats-file", "/nonexistent/s.txt", "k.ptx"]),
    measured(&["-arch", "sm_90", "--compiler-stats-file", "s.txt", "k.ptx"]),
    with_files(measured(&["-arch", "sm_90", "--compiler-stats=detailed,time", "m.ptx"]), &[("m.ptx", MULTI)]),
    with_files(measured(&["-arch", "sm_90", "--compiler-stats=d,t", "-v", "c.ptx"]), &[("c.ptx", TWO_CALLS)]),
    with_files(measured(&["-arch", "sm_90", "--compiler-stats=p,d", "-v", "m.ptx"]), &[("m.ptx", MULTI)]),
    with_files(
        measured(&["-arch", "sm_90", "--compiler-stats=t,d", "--compiler-stats-file", "s.txt", "c.ptx"]),
        &[("c.ptx", TWO_CALLS)],
    ),
    accepted(&["-arch", "sm_90", "--compiler-stats=detailed,memory", "k.ptx"]),
    accepted(&["-arch", "sm_90", "--compiler-stats=detailed,time,phase-wise", "k.ptx"]),
    accepted(&["-arch", "sm_90", "--compiler-stats=memory,phase-wise", "k.ptx"]),
    with_files(measured(&["-arch", "sm_90", "-warn-spills", "s.ptx"]), &[("s.ptx", SPILL)]),
    with_files(measured(&["-arch", "sm_90", "-warn-spills", "-Werror", "s.ptx"]), &[("s.ptx", SPILL)]),
    with_files(same(&["-arch", "sm_90", "-warn-spills", "-w", "s.ptx"]), &[("s.ptx", SPILL)]),
    with_files(
        measured(&["-arch", "sm_90", "-v", "-Werror", "-warn-spills", "-compilerStats", "t", "s.ptx"]),
        &[("s.ptx", SPILL)],
    ),
    with_files(measured(&["-arch", "sm_90", "-warn-spills", "-warn-lmem-usage", "-v", "s.ptx"]), &[("s.ptx", SPILL)]),
    with_files(
        measured(&["-arch", "sm_90", "--warn-on-spills", "-Werror", "-warn-lmem-usage", "-o", "s.cubin", "s.ptx"]),
        &[("s.ptx", SPILL)],
    ),
    with_files(same(&["-arch", "sm_90", "-warn-double-usage", "d.ptx"]), &[("d.ptx", F64)]),
    with_files(
        same(&["-arch", "sm_90", "--warn-on-double-precision-use", "-Werror", "-o", "d.cubin", "d.ptx"]),
        &[("d.ptx", F64)],
    ),
    with_files(same(&["-arch", "sm_90", "-warn-double-usage", "-w", "d.ptx"]), &[("d.ptx", F64)]),
    with_files(
        same(&["-arch", "sm_90", "-warn-double-usage", "-maxrregcount", "16", "-Werror", "d.ptx"]),
        &[("d.ptx", F64)],
    ),
    with_files(same(&["-arch", "sm_100", "-warn-double-usage", "-maxrregcount", "16", "d.ptx"]), &[("d.ptx", F64)]),
    with_files(same(&["-arch", "compute_90", "-warn-double-usage", "d.ptx"]), &[("d.ptx", F64)]),
    // --legacy-bar-warp-wide-behavior: ptxas's two warnings, then ignored (any target);
    // --preserve-relocs on compute_90 and above: ptxas's warning.
    same(&["-arch", "sm_90", "-legacy-bar-warp-wide-behavior", "-o", "x.cubin", "k.ptx"]),
    same(&["-arch", "sm_90", "-legacy-bar-warp-wide-behavior", "-Werror", "k.ptx"]),
    same(&["-arch", "sm_90", "-legacy-bar-warp-wide-behavior", "-w", "k.ptx"]),
    with_files(
        same(&["-arch", "sm_90", "-legacy-bar-warp-wide-behavior", "-warn-double-usage", "-Werror", "d.ptx"]),
        &[("d.ptx", F64)],
    ),
    with_files(same(&["-arch", "sm_90", "-legacy-bar-warp-wide-behavior", "b.ptx"]), &[("b.ptx", UNDECLARED)]),
    same(&[
        "-arch",
        "compute_90",
        "-legacy-bar-warp-wide-behavior",
        "-preserve-relocs",
        "-maxrregcount",
        "30",
        "k.ptx",
    ]),
    same(&["-arch", "compute_90a", "-preserve-relocs", "-Werror", "-legacy-bar-warp-wide-behavior", "k.ptx"]),
    same(&["-arch", "compute_89", "-preserve-relocs", "k.ptx"]),
    same(&["-arch", "compute_120", "-preserve-relocs", "k.ptx"]),
    same(&["-arch", "lto_100", "-preserve-relocs", "k.ptx"]),
    // The register budget's warning comes before the inputs are opened and read.
    same(&["-arch", "compute_90", "-maxrregcount", "16", "k.ptx"]),
    same(&["-arch", "compute_90", "-maxrregcount", "0x18", "nonexist.ptx"]),
    same(&["-arch", "compute_90", "-Werror", "-maxrregcount", "255", "k.ptx"]),
    same(&["-arch", "compute_100", "-maxrregcount", "0", "k.ptx"]),
    same(&["-arch", "lto_90", "-maxrregcount", "0", "k.ptx"]),
    same(&["-arch", "lto_90", "-maxrregcount", "1", "-maxrregcount", "archmax", "k.ptx"]),
    same(&["-arch", "compute_90", "-w", "-maxrregcount", "40", "k.ptx"]),
    same(&["-arch", "sm_90", "-maxrregcount", "16", "nonexist.ptx"]),
    same(&["-arch", "sm_90", "-Werror", "-maxrregcount", "16", "nonexist.ptx"]),
    same(&["-arch", "sm_90", "-w", "-maxrregcount", "0", "nonexist.ptx", "k.ptx"]),
    with_files(same(&["-arch", "sm_90", "-Werror", "-maxrregcount", "16", "b.ptx"]), &[("b.ptx", UNDECLARED)]),
    with_files(same(&["-arch", "sm_90", "-maxrregcount", "20", "b.ptx"]), &[("b.ptx", UNDECLARED)]),
    with_files(same(&["-arch", "sm_90", "-warn-double-usage", "e.ptx"]), &[("e.ptx", F64_SPACES)]),
    with_files(same(&["-arch", "sm_90", "-warn-double-usage", "-Werror", "e.ptx"]), &[("e.ptx", F64_SPACES)]),
    with_files(measured(&["-arch", "sm_90", "-warn-double-usage", "-v", "d.ptx"]), &[("d.ptx", F64)]),
    with_files(accepted(&["-arch", "sm_90", "-warn-double-usage", "q.ptx"]), &[("q.ptx", F64_DIV)]),
    with_files(same(&["-arch", "sm_90", "-maxrregcount", "16", "q.ptx", "-o", "q.cubin"]), &[("q.ptx", F64_DIV)]),
];

/// What one run printed.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn run_in(program: &Path, args: &[&str], dir: &Path) -> Run {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn ours() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ptxas-rs"))
}

/// A fresh scratch directory holding `k.ptx` and the case's files.
fn scratch(tag: &str, n: usize, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxas-rs-cli-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    std::fs::write(dir.join("k.ptx"), KERNEL).expect("write k.ptx");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write case file");
    }
    dir
}

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// ptxas's stderr without the lines it prints while compiling (which a refused run does not
/// print): `-v` and `--compiler-stats` reports (their continuation lines too), debug-section
/// and register-bound warnings, double-precision warnings.
fn option_level_lines(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| {
            !(l.starts_with("ptxas info ")
                || !l.starts_with("ptxas ")
                || l.contains("section not found")
                || l.contains("adjusting per thread register count")
                || l.ends_with("Program is doing double precision computations."))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `text` with every run of digits and dots (a number) replaced by `#`.
fn numbers_masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for c in text.chars() {
        let digit = c.is_ascii_digit() || (in_number && c == '.');
        if digit && !in_number {
            out.push('#');
        } else if !digit {
            out.push(c);
        }
        in_number = digit;
    }
    out
}

/// The text of every `.txt` file in `dir` (the stats files), by name.
fn text_files(dir: &Path) -> Vec<(String, String)> {
    listing(dir)
        .into_iter()
        .filter(|n| n.ends_with(".txt"))
        .map(|n| (n.clone(), std::fs::read_to_string(dir.join(&n)).unwrap_or_default()))
        .collect()
}

/// Compares one case; returns a description of the mismatch, if any.
fn check_case(ptxas: &Path, n: usize, case: &Case) -> Result<(), String> {
    let dir_ours = scratch("ours", n, case.files);
    let before = listing(&dir_ours);
    let us = run_in(&ours(), case.args, &dir_ours);
    let created = listing(&dir_ours);
    let texts = text_files(&dir_ours);
    let _ = std::fs::remove_dir_all(&dir_ours);
    let dir_nv = scratch("nv", n, case.files);
    let them = run_in(ptxas, case.args, &dir_nv);
    let created_nv = listing(&dir_nv);
    let texts_nv = text_files(&dir_nv);
    let _ = std::fs::remove_dir_all(&dir_nv);
    // Only a successful run may create files, and then the ones ptxas created (a measured
    // case compares the files whatever the status: ptxas keeps the cubin when the stats file
    // cannot be opened).
    let allowed =
        if (us.status == 0 && them.status == 0) || case.expect == Expect::Measured { &created_nv } else { &before };
    if &created != allowed {
        return Err(format!("ptxas-rs created files: {created:?} (before {before:?}, ptxas {created_nv:?})"));
    }

    match case.expect {
        Expect::Same => {
            if us != them {
                return Err(format!("ptxas: {them:?}\nours:  {us:?}"));
            }
        }
        Expect::Measured => {
            let mask = |r: &Run| (r.status, numbers_masked(&r.stdout), numbers_masked(&r.stderr));
            let mask_files =
                |f: &[(String, String)]| f.iter().map(|(n, t)| (n.clone(), numbers_masked(t))).collect::<Vec<_>>();
            if mask(&us) != mask(&them) || mask_files(&texts) != mask_files(&texts_nv) {
                return Err(format!(
                    "ptxas: {them:?} {texts_nv:?}\nours:  {us:?} {texts:?}\n(masked: ptxas {:?}\nours  {:?})",
                    mask(&them),
                    mask(&us)
                ));
            }
        }
        Expect::Version => {
            let (a, b): (Vec<&str>, Vec<&str>) = (them.stdout.lines().collect(), us.stdout.lines().collect());
            let ok = us.status == them.status
                && us.stderr == them.stderr
                && a.len() == b.len()
                && a.get(3) == b.get(3)
                && b.first().is_some_and(|l| l.starts_with("ptxas: ") && l.contains("ptxas-rs"));
            if !ok {
                return Err(format!("ptxas: {them:?}\nours:  {us:?}"));
            }
        }
        // A virtual arch only parses and checks (the front end exists): exactly ptxas's output.
        Expect::Accepted if case.args.iter().any(|a| a.contains("compute_") || a.contains("lto_")) => {
            if us != them {
                return Err(format!("ptxas: {them:?}\nours:  {us:?}"));
            }
        }
        Expect::Accepted => {
            let want = option_level_lines(&them.stderr);
            let ours = option_level_lines(&us.stderr);
            let ok = them.status == 0
                && us.stdout.is_empty()
                && match us.status {
                    0 => ours == want,
                    255 => ours.strip_prefix(want.as_str()).is_some_and(|rest| {
                        rest.starts_with(NOT_IMPLEMENTED_PREFIX)
                            && rest.ends_with(NOT_IMPLEMENTED_SUFFIX)
                            && rest.lines().count() == 1
                    }),
                    _ => false,
                };
            if !ok {
                return Err(format!("ptxas: {them:?}\nours:  {us:?}\nwanted stderr {want:?}"));
            }
        }
    }
    Ok(())
}

#[test]
fn cli_differential() {
    let Some(tools) = oracle::tools_or_skip("cli_differential") else {
        return;
    };
    let ptxas = tools.ptxas();
    let mut failures = Vec::new();
    for (n, case) in CASES.iter().enumerate() {
        if let Err(why) = check_case(&ptxas, n, case) {
            failures.push(format!("case {n} {:?} ({:?}):\n{why}", case.args, case.expect));
        }
    }
    let total = CASES.len();
    println!("cli_differential: {} of {total} cases agree with ptxas", total - failures.len());
    assert!(failures.is_empty(), "{} of {total} cases differ:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn enough_cases() {
    assert!(CASES.len() >= 40);
    assert!(CASES.iter().filter(|c| c.expect == Expect::Same).count() >= 40);
}

/// Checks that need no oracle: our binary's own contract.
#[test]
fn compiles_sm90_and_never_writes_a_partial_file() {
    let dir = scratch("standalone", 0, &[]);
    let r = run_in(&ours(), &["-arch", "sm_90", "-o", "out.cubin", "k.ptx"], &dir);
    assert_eq!((r.status, r.stderr.as_str(), r.stdout.as_str()), (0, "", ""));
    let cubin = std::fs::read(dir.join("out.cubin")).expect("the cubin is written");
    let parsed = ptxas_rs::cubin::Cubin::parse(&cubin).expect("our cubin reads back");
    assert_eq!(parsed.sm(), 90);
    assert!(parsed.function("k").is_some_and(|f| f.kernel));
    std::fs::remove_file(dir.join("out.cubin")).unwrap();
    // A target the backend does not cover: one located line, exit 255, no file.
    let r = run_in(&ours(), &["-arch", "sm_121", "-o", "out.cubin", "k.ptx"], &dir);
    assert_eq!(r.status, 255);
    assert!(r.stderr.starts_with(NOT_IMPLEMENTED_PREFIX) && r.stderr.ends_with(NOT_IMPLEMENTED_SUFFIX), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(!dir.join("out.cubin").exists() && !dir.join("elf.o").exists());
    let r = run_in(&ours(), &[], &dir);
    assert_eq!((r.status, r.stderr.as_str()), (0, ""));
    assert!(r.stdout.starts_with("\nUsage  : ptxas [options] <ptx file>,...\n"));
    let r = run_in(&ours(), &["--version"], &dir);
    assert_eq!(r.stdout.lines().nth(3), Some("Cuda compilation tools, release 13.0, V13.0.88"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A real target without a backend is refused once, by the target (`Target::backend`): exactly
/// one fatal line in ptxas's format, naming the arch, exit 255, and no output file (neither
/// `-o`'s nor `elf.o`). The same kernel compiles for sm_90 and sm_90a, so the refusal is the
/// target's alone.
#[test]
fn a_target_without_backend_is_one_diagnostic_and_no_file() {
    let dir = scratch("nobackend", 0, &[]);
    for arch in ["sm_100f", "sm_120f", "sm_121"] {
        for out in [&["-o", "out.cubin"][..], &[][..]] {
            let mut args = vec!["-arch", arch, "k.ptx"];
            args.extend_from_slice(out);
            let r = run_in(&ours(), &args, &dir);
            assert_eq!(r.status, 255, "{args:?}: {}", r.stderr);
            assert_eq!(
                r.stderr,
                format!(
                    "ptxas fatal   : ptxas-rs: code generation for '{arch}' (this target has no backend yet: \
                     only sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_120 and sm_120a have one) is not supported yet\n"
                ),
                "{args:?}"
            );
            assert_eq!(r.stderr.lines().count(), 1);
            assert!(r.stdout.is_empty());
            assert_eq!(listing(&dir), ["k.ptx"], "{args:?} wrote a file");
        }
    }
    for &arch in ptxas_rs::target::WITH_BACKEND {
        let r = run_in(&ours(), &["-arch", arch, "-o", "out.cubin", "k.ptx"], &dir);
        assert_eq!((r.status, r.stderr.as_str()), (0, ""), "{arch}");
        let cubin = std::fs::read(dir.join("out.cubin")).expect("the cubin is written");
        let parsed = ptxas_rs::cubin::Cubin::parse(&cubin).expect("our cubin reads back");
        let sm: u32 = arch.trim_start_matches("sm_").trim_end_matches('a').parse().unwrap();
        assert_eq!((parsed.sm(), parsed.accelerated()), (sm, arch.ends_with('a')), "{arch}");
        std::fs::remove_file(dir.join("out.cubin")).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `mul.f32` + `add.f32` (contractible) in a plain sm_90 kernel.
const MAD: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
    .visible .entry m(.param .u64 p)\n{\n.reg .f32 %f<4>;\n.reg .b64 %rd<2>;\n\
    ld.param.u64 %rd1, [p];\nld.global.f32 %f1, [%rd1];\nld.global.f32 %f2, [%rd1+4];\n\
    mul.f32 %f3, %f1, %f2;\nadd.f32 %f3, %f3, %f1;\nst.global.f32 [%rd1+8], %f3;\nret;\n}\n";

/// `m.cubin` in `dir`, compiled with `args`, holds one FFMA when `fused`, else FMUL + FADD.
fn assert_contraction(dir: &std::path::Path, args: &[&str], fused: bool) {
    let d = run_in(&ours(), &["disasm", "m.cubin"], dir);
    assert_eq!(d.status, 0, "{}", d.stderr);
    let sass = d.stdout;
    assert_eq!(sass.contains("FFMA"), fused, "{args:?}:\n{sass}");
    assert_eq!(sass.contains("FMUL") && sass.contains("FADD"), !fused, "{args:?}:\n{sass}");
}

/// `-fmad` reaches phase 9 (OriCreateMacroInsts): `mul.f32` + `add.f32` is one FFMA by default
/// and at -O1, FMUL + FADD with `-fmad false` and at -O0, as with ptxas.
#[test]
fn fmad_option_controls_contraction() {
    let dir = scratch("fmad", 0, &[("m.ptx", MAD)]);
    for (args, fused) in
        [(&[][..], true), (&["-O1"][..], true), (&["-fmad", "false"][..], false), (&["--fmad=true", "-O0"][..], false)]
    {
        let mut a = vec!["-arch", "sm_90", "-o", "m.cubin", "m.ptx"];
        a.extend_from_slice(args);
        let r = run_in(&ours(), &a, &dir);
        assert_eq!((r.status, r.stderr.as_str()), (0, ""), "{args:?}");
        assert_contraction(&dir, args, fused);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Debug code is unoptimised, as ptxas's (issue 23: nvcc -G kernels whose contracted FFMAs
/// disagreed with NVIDIA's unfused -G cubin): a `.target ..., debug` file by default or at -O0
/// keeps `mul.f32` + `add.f32` as FMUL + FADD. (`-g` itself is refused until DWARF is written:
/// `options_not_honoured_are_refused`.)
#[test]
fn debug_code_is_unoptimised() {
    let dir = scratch("debug", 0, &[("d.ptx", DEBUG_MAD), ("m.ptx", MAD)]);
    for (args, fused) in [(&["d.ptx"][..], false), (&["-O0", "d.ptx"][..], false), (&["m.ptx"][..], true)] {
        let mut a = vec!["-arch", "sm_90", "-o", "m.cubin"];
        a.extend_from_slice(args);
        let r = run_in(&ours(), &a, &dir);
        assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
        assert_contraction(&dir, args, fused);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small kernel with global loads and stores, shared memory, a barrier, a global reduction
/// and a warp vote compiles for sm_75 and each sm_80-family arch: exit 0, nothing printed, a
/// cubin of that SM that NVIDIA's `nvdisasm` accepts silently, whose listing shows the arch's
/// spelling (no descriptor in the global accesses' text, `RED` for the reduction, no
/// `SR_CgaCtaId`; Turing's weak global load `LDG.E.SYS`, its shared load `LDS.U` and its
/// `BAR.SYNC 0x0`, as NVIDIA's ptxas writes them for sm_75).
#[test]
fn compiles_a_small_kernel_below_sm90() {
    const SMALL: &str = ".version 8.0\n.target sm_75\n.address_size 64\n\
        .visible .entry s(.param .u64 p)\n{\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n\
        .shared .align 4 .b8 buf[512];\n\
        ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
        ld.global.u32 %r2, [%rd3];\nshl.b32 %r3, %r1, 2;\nmov.u32 %r4, buf;\nadd.s32 %r4, %r4, %r3;\n\
        st.shared.u32 [%r4], %r2;\nbar.sync 0;\nld.shared.u32 %r5, [%r4];\nsetp.ne.u32 %p1, %r5, 0;\n\
        vote.sync.ballot.b32 %r5, %p1, -1;\nst.global.u32 [%rd3], %r5;\nred.global.add.u32 [%rd1+256], %r2;\nret;\n}\n";
    let Some(tools) = oracle::tools_or_skip("compiles_a_small_kernel_below_sm90") else { return };
    let dir = scratch("below90small", 0, &[("s.ptx", SMALL)]);
    // (arch, what its listing must show)
    let arches: [(&str, &[&str]); 4] = [
        ("sm_75", &["LDG.E.SYS R", "STG.E.SYS [R", "LDS.U R", "BAR.SYNC 0x0", "RED.E.ADD.STRONG.GPU [R"]),
        ("sm_80", &["LDG.E R", "RED.E.ADD", "BAR.SYNC.DEFER_BLOCKING"]),
        ("sm_86", &["LDG.E R", "RED.E.ADD"]),
        ("sm_89", &["LDG.E R", "RED.E.ADD"]),
    ];
    for (arch, shows) in arches {
        let r = run_in(&ours(), &["-arch", arch, "-O3", "-o", "s.cubin", "s.ptx"], &dir);
        assert_eq!((r.status, r.stderr.as_str(), r.stdout.as_str()), (0, "", ""), "{arch}");
        let cubin = std::fs::read(dir.join("s.cubin")).expect("the cubin is written");
        let parsed = ptxas_rs::cubin::Cubin::parse(&cubin).expect("our cubin reads back");
        assert_eq!(parsed.sm().to_string(), arch.trim_start_matches("sm_"));
        let out = Command::new(tools.nvdisasm()).arg(dir.join("s.cubin")).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && out.stderr.is_empty(), "{arch}: {}", String::from_utf8_lossy(&out.stderr));
        for s in shows {
            assert!(text.contains(s), "{arch}: no `{s}` in\n{text}");
        }
        assert!(!text.contains("desc[") && !text.contains("SR_CgaCtaId"), "{arch}:\n{text}");
        std::fs::remove_file(dir.join("s.cubin")).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `setmaxnreg` where the register count at entry is unknown (no `.maxnreg`; `.maxntid` alone
/// does not fix it): ptxas's C7508 info once per such kernel and no code for it; with
/// `.maxnreg` the code stays. Exit status and stderr equal ptxas's, byte for byte; nvdisasm
/// finds `USETMAXREG` only in the `.maxnreg` kernel.
#[test]
fn setmaxnreg_with_unknown_entry_count_is_ptxas_info_and_no_code() {
    const SMR: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n\
        .visible .entry a()\n{\nsetmaxnreg.dec.sync.aligned.u32 40;\nret;\n}\n\
        .visible .entry b()\n.maxntid 256, 1, 1\n{\nsetmaxnreg.inc.sync.aligned.u32 48;\nret;\n}\n\
        .visible .entry c()\n.maxnreg 64\n{\nsetmaxnreg.dec.sync.aligned.u32 40;\n\
        setmaxnreg.inc.sync.aligned.u32 64;\nret;\n}\n";
    let Some(tools) = oracle::tools_or_skip("setmaxnreg_with_unknown_entry_count_is_ptxas_info_and_no_code") else {
        return;
    };
    let dir = scratch("setmaxnreg", 0, &[("s.ptx", SMR)]);
    let args = ["-arch", "sm_90a", "-O3", "-o", "s.cubin", "s.ptx"];
    let them = run_in(&tools.ptxas(), &args, &dir);
    let us = run_in(&ours(), &args, &dir);
    assert_eq!(them.stderr.matches("(C7508)").count(), 2, "{them:?}");
    assert_eq!(us, them);
    let out = Command::new(tools.nvdisasm()).arg(dir.join("s.cubin")).output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let in_kernel = |k: &str| {
        let start = text.find(&format!(".text.{k}:")).unwrap_or_else(|| panic!("no {k} in\n{text}"));
        let body = &text[start..];
        let end = body[1..].find(".text.").map_or(body.len(), |e| e + 1);
        body[..end].matches("USETMAXREG").count()
    };
    assert_eq!((in_kernel("a"), in_kernel("b"), in_kernel("c")), (0, 0, 2), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small kernel compiles for sm_100 and sm_100a (Blackwell): exit 0, nothing printed, a cubin
/// of SM 100 that NVIDIA's `nvdisasm` accepts silently, whose listing shows Blackwell's bank 0
/// (parameters from 0x380, `%ntid.x` at 0x360) and its uniform constant load (`LDCU.64` of the
/// global memory descriptor at 0x358; sm_100 has no `ULDC`), as NVIDIA's ptxas writes them.
#[test]
fn compiles_a_small_kernel_for_sm100() {
    const SMALL: &str = ".version 8.0\n.target sm_75\n.address_size 64\n\
        .visible .entry s(.param .u64 p)\n{\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n\
        ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;\nmul.wide.u32 %rd2, %r1, 4;\n\
        add.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r3, [%rd3];\nadd.s32 %r3, %r3, %r2;\n\
        st.global.u32 [%rd3], %r3;\nret;\n}\n";
    let Some(tools) = oracle::tools_or_skip("compiles_a_small_kernel_for_sm100") else { return };
    let dir = scratch("sm100small", 0, &[("s.ptx", SMALL)]);
    for arch in ["sm_100", "sm_100a"] {
        for level in ["-O0", "-O3"] {
            let r = run_in(&ours(), &["-arch", arch, level, "-o", "s.cubin", "s.ptx"], &dir);
            assert_eq!((r.status, r.stderr.as_str(), r.stdout.as_str()), (0, "", ""), "{arch} {level}");
            let cubin = std::fs::read(dir.join("s.cubin")).expect("the cubin is written");
            let parsed = ptxas_rs::cubin::Cubin::parse(&cubin).expect("our cubin reads back");
            assert_eq!((parsed.sm(), parsed.accelerated()), (100, arch == "sm_100a"));
            let out = Command::new(tools.nvdisasm()).arg(dir.join("s.cubin")).output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success() && out.stderr.is_empty(), "{arch}: {}", String::from_utf8_lossy(&out.stderr));
            for shows in ["LDCU.64 UR", "c[0x0][0x358]", "c[0x0][0x380]", "c[0x0][0x360]", "desc[UR"] {
                assert!(text.contains(shows), "{arch} {level}: no `{shows}` in\n{text}");
            }
            assert!(!text.contains("ULDC"), "{arch} {level}:\n{text}");
            std::fs::remove_file(dir.join("s.cubin")).unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 26: no option is accepted and ignored. Every option the support inventory refuses
/// ends the run with one `ptxas-rs: option '--NAME' ... is not supported yet` fatal line (after
/// ptxas's own option diagnostics), exit 255 and no output file; an honoured one compiles.
#[test]
fn options_not_honoured_are_refused() {
    use ptxas_rs::cli::{OPTIONS, OptKind, Support, support};
    let dir = scratch("refused", 0, &[("m.ptx", MAD)]);
    let mut refused = 0;
    for s in OPTIONS.iter().filter(|s| matches!(support(s.id), Support::Refused)) {
        let flag = format!("--{}", s.long);
        let value = match s.kind {
            OptKind::Flag => None,
            OptKind::Bool => Some("true"),
            OptKind::Int => Some("1"),
            _ => Some(s.allowed.first().copied().unwrap_or("x")),
        };
        let mut args = vec!["-arch", "sm_90", "-o", "m.cubin", flag.as_str()];
        args.extend(value);
        args.push("m.ptx");
        let r = run_in(&ours(), &args, &dir);
        // Options whose value the parser or ptxas's checks reject fail earlier; that is fine too.
        assert_eq!(r.status, 255, "{args:?}: {}", r.stderr);
        assert_eq!(listing(&dir), ["k.ptx", "m.ptx"], "{args:?} wrote a file");
        if r.stderr.contains("ptxas-rs: option") {
            let last = r.stderr.lines().last().unwrap_or_default();
            assert!(
                last.starts_with(&format!("ptxas fatal   : ptxas-rs: option '--{}'", s.long))
                    && last.ends_with(" is not supported yet"),
                "{args:?}: {}",
                r.stderr
            );
            refused += 1;
        }
    }
    assert!(refused >= 60, "only {refused} refusals seen");
    for args in [&["-g"][..], &["-lineinfo"], &["-c"], &["--compile-only"], &["-maxntid", "128"]] {
        let mut a = vec!["-arch", "sm_90", "-o", "m.cubin"];
        a.extend_from_slice(args);
        a.push("m.ptx");
        let r = run_in(&ours(), &a, &dir);
        assert_eq!(r.status, 255, "{a:?}");
        assert!(r.stderr.ends_with(" is not supported yet\n") && r.stderr.lines().count() == 1, "{a:?}: {}", r.stderr);
    }
    for args in
        [&["-maxntid", "128", "-maxrregcount", "64"][..], &["-Ofc", "max"], &["-allow-expensive-optimizations", "true"]]
    {
        let mut a = vec!["-arch", "sm_90", "-o", "m.cubin"];
        a.extend_from_slice(args);
        a.push("m.ptx");
        let r = run_in(&ours(), &a, &dir);
        assert_eq!(r.status, 0, "{a:?}: {}", r.stderr);
        std::fs::remove_file(dir.join("m.cubin")).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 26: ptxas compiles and writes the kernels of a module last first. For kernels alone
/// our cubin's sections (names, links, infos) and symbols (names, sections) are ptxas's, in
/// ptxas's order; with a device function, module data and shared memory the per-kernel
/// sections (`.text.`, `.nv.info.`, `.nv.constant0.`) and the kernel symbols come in ptxas's
/// order (that cubin differs from ptxas's elsewhere: its `.rela.text.<k>` for a kernel using
/// shared memory, where `.nv.shared.reserved.0` and the data symbols go).
#[test]
fn kernel_order_matches_ptxas() {
    const WITH_FUNC: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .global .align 4 .u32 g = 3;\n\
        .func (.reg .b32 r) twice(.reg .b32 a)\n{\nadd.u32 r, a, a;\nret;\n}\n\
        .visible .entry one(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
        ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [g];\ncall.uni (%r2), twice, (%r1);\n\
        st.global.u32 [%rd1], %r2;\nret;\n}\n\
        .visible .entry two(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n\
        .shared .align 4 .b32 s[32];\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n\
        st.shared.u32 [s], %r1;\nbar.sync 0;\nld.shared.u32 %r2, [s+4];\nst.global.u32 [%rd1], %r2;\nret;\n}\n\
        .visible .entry three()\n{\nret;\n}\n";
    let Some(tools) = oracle::tools_or_skip("kernel_order_matches_ptxas") else { return };
    let dir = scratch("order", 0, &[("m.ptx", MULTI), ("f.ptx", WITH_FUNC)]);
    let shape = |c: &ptxas_rs::cubin::Cubin| {
        let sections: Vec<(String, u32, u32)> = c.sections.iter().map(|s| (s.name.clone(), s.link, s.info)).collect();
        let symbols: Vec<(String, u16)> = c.symbols.iter().map(|s| (s.name.clone(), s.shndx)).collect();
        (sections, symbols)
    };
    let per_kernel = |c: &ptxas_rs::cubin::Cubin| {
        let names = c.sections.iter().map(|s| s.name.clone());
        names.filter(|n| [".text.", ".nv.info.", ".nv.constant0."].iter().any(|p| n.starts_with(p))).collect::<Vec<_>>()
    };
    for (file, kernels) in [("m.ptx", ["gamma", "beta", "alpha"]), ("f.ptx", ["three", "two", "one"])] {
        let mut cubins = Vec::new();
        for (tool, out) in [(tools.ptxas(), "nv.cubin"), (ours(), "us.cubin")] {
            let r = run_in(&tool, &["-arch", "sm_90", "-o", out, file], &dir);
            assert_eq!(r.status, 0, "{}: {file}: {}", tool.display(), r.stderr);
            let bytes = std::fs::read(dir.join(out)).expect("cubin written");
            cubins.push(ptxas_rs::cubin::Cubin::parse(&bytes).expect("cubin reads back"));
        }
        let entries: Vec<&str> = cubins[1].symbols.iter().filter(|s| s.is_entry()).map(|s| s.name.as_str()).collect();
        assert_eq!(entries, kernels, "{file}");
        let theirs: Vec<&str> = cubins[0].symbols.iter().filter(|s| s.is_entry()).map(|s| s.name.as_str()).collect();
        assert_eq!(entries, theirs, "{file}");
        assert_eq!(per_kernel(&cubins[1]), per_kernel(&cubins[0]), "{file}");
        if file == "m.ptx" {
            assert_eq!(shape(&cubins[1]), shape(&cubins[0]), "{file}: section or symbol order differs from ptxas's");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--warn-on-double-precision-use` on every corpus file (nvcc's sm_90 PTX and the hand-written
/// PTX) and on one-instruction forms of each counted kind: our warnings (text, location,
/// number, order) and exit status are ptxas's; the only refusals are files using an f64
/// instruction ptxas expands through its internal macros (`div.rn.f64` here). The checks run
/// with `-arch compute_90` (ptxas warns while reading the PTX, for virtual targets too).
#[test]
fn fp64_warnings_match_ptxas_on_the_corpus() {
    let Some(tools) = oracle::tools_or_skip("fp64_warnings_match_ptxas_on_the_corpus") else { return };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files = Vec::new();
    for (sub, suffix) in [("cuda", ".sm_90.ptx"), ("ptx", ".ptx")] {
        let mut dirs: Vec<_> =
            std::fs::read_dir(root.join(sub)).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
        dirs.sort();
        for d in dirs {
            let name = d.file_name().unwrap().to_string_lossy().into_owned();
            let f = d.join(format!("{name}{suffix}"));
            if f.is_file() {
                files.push(f);
            }
        }
    }
    assert!(files.len() >= 120, "{} corpus files", files.len());
    let args = ["-arch", "compute_90", "-warn-double-usage"];
    let (mut agree, mut warned, mut refused, mut bad) = (0, 0, Vec::new(), Vec::new());
    for f in &files {
        let mut a = args.to_vec();
        let path = f.to_str().unwrap();
        a.push(path);
        let us = run_in(&ours(), &a, &root);
        let them = tools.ptxas_run(oracle::PtxInput::File { path: f, cwd: None }, &args).expect("ptxas runs");
        if us.stderr.contains("(-warn-double-usage) on 'div.rn.f64'") && us.status == 255 {
            assert!(them.stderr.contains("ptxas <macro util>"), "{path}: refused, but ptxas uses no macro");
            refused.push(path.to_owned());
            continue;
        }
        if (us.status, us.stderr.as_str()) == (them.code.unwrap_or(-1), them.stderr.as_str()) {
            agree += 1;
            warned += usize::from(us.stderr.contains("double precision"));
        } else {
            bad.push(format!("{path}:\nptxas: {}\nours:  {}", them.stderr, us.stderr));
        }
    }
    println!(
        "fp64 warnings: {agree} of {} files agree ({warned} with warnings), {} refused",
        files.len(),
        refused.len()
    );
    assert!(bad.is_empty(), "{} files differ:\n{}", bad.len(), bad.join("\n"));
    assert!(warned >= 24 && refused.len() <= 3, "{warned} warned, refused {refused:?}");

    // One instruction of each counted form (and forms that do not count) in a kernel.
    const FORMS: &[&str] = &[
        "ld.global.v2.f64 {%fd1, %fd2}, [%rd1];",
        "ld.global.b64 %rd2, [%rd1];",
        "st.global.v2.f64 [%rd1], {%fd1, %fd2};",
        "mov.f64 %fd3, 0d3FF0000000000000;",
        "mov.b64 %fd3, %rd2;",
        "mov.b64 {%r1, %r2}, %fd1;",
        "sub.f64 %fd3, %fd1, %fd2;",
        "mul.rz.f64 %fd3, %fd1, %fd2;",
        "mad.rn.f64 %fd3, %fd1, %fd2, %fd1;",
        "neg.f64 %fd3, %fd1;",
        "abs.f64 %fd3, %fd1;",
        "min.f64 %fd3, %fd1, %fd2;",
        "max.f64 %fd3, %fd1, %fd2;",
        "setp.nan.f64 %p1, %fd1, %fd2;",
        "set.lt.u32.f64 %r1, %fd1, %fd2;",
        "slct.f64.s32 %fd3, %fd1, %fd2, %r1;",
        "cvt.f64.f32 %fd3, %f1;",
        "cvt.rn.f64.u64 %fd3, %rd2;",
        "cvt.rzi.s32.f64 %r1, %fd1;",
        "cvt.rni.f64.f64 %fd3, %fd1;",
        "testp.finite.f64 %p1, %fd1;",
        "rcp.approx.ftz.f64 %fd3, %fd1;",
        "atom.global.add.f64 %fd3, [%rd1], %fd1;",
        "red.global.add.f64 [%rd1], %fd1;",
        "ld.param.f64 %fd3, [q];",
        "div.full.f32 %f1, %f1, %f1;",
    ];
    let dir = scratch("fp64forms", 0, &[]);
    let mut forms_bad = Vec::new();
    for (i, form) in FORMS.iter().enumerate() {
        let text = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry d(.param .u64 p, .param .f64 q)\n{{\n\
             .reg .f64 %fd<4>;\n.reg .f32 %f<2>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\n\
             ld.param.u64 %rd1, [p];\nld.global.f64 %fd1, [%rd1];\nld.global.f64 %fd2, [%rd1+8];\n{form}\n\
             st.global.f64 [%rd1+16], %fd3;\nst.global.f32 [%rd1+24], %f1;\nst.global.u32 [%rd1+28], %r1;\n\
             st.global.u64 [%rd1+32], %rd2;\nselp.u32 %r2, 1, 0, %p1;\nst.global.u32 [%rd1+40], %r2;\nret;\n}}\n"
        );
        let name = format!("f{i}.ptx");
        std::fs::write(dir.join(&name), &text).unwrap();
        let mut a = args.to_vec();
        a.push(&name);
        let us = run_in(&ours(), &a, &dir);
        let them = run_in(&tools.ptxas(), &a, &dir);
        if us != them {
            forms_bad.push(format!("{form}:\nptxas: {them:?}\nours:  {us:?}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(forms_bad.is_empty(), "{} forms differ:\n{}", forms_bad.len(), forms_bad.join("\n"));
}
