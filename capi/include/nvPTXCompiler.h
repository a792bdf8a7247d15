/*
 * nvPTXCompiler.h -- ptxas-rs's declaration of the nvPTXCompiler C interface.
 *
 * Written for ptxas-rs from NVIDIA's public documentation of the PTX Compiler API (CUDA 13.0):
 * the same type, enumerator and function names, signatures, result codes and numbering, so a
 * program written against NVIDIA's header compiles and links against libnvptxcompiler_rs
 * unchanged. The library behind it is ptxas-rs (ptxas_rs::compile), not NVIDIA's.
 *
 * Usage: nvPTXCompilerCreate with the PTX (ptxCodeLen bytes; no terminating NUL needed),
 * nvPTXCompilerCompile with ptxas's option strings ("--gpu-name=sm_90" is mandatory, "-O3",
 * "-v", ...), then nvPTXCompilerGetCompiledProgramSize / nvPTXCompilerGetCompiledProgram for the
 * cubin, nvPTXCompilerGetErrorLogSize / nvPTXCompilerGetErrorLog and
 * nvPTXCompilerGetInfoLogSize / nvPTXCompilerGetInfoLog for the diagnostics (the sizes count
 * the terminating NUL), and nvPTXCompilerDestroy.
 *
 * Thread safety: every function may be called from any thread; handles share no state, and
 * calls on one handle are serialised by that handle.
 */
#ifndef NVPTXCOMPILER_H
#define NVPTXCOMPILER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A PTX compiler instance: one PTX program, its last compilation's image and logs. */
typedef struct nvPTXCompiler *nvPTXCompilerHandle;

/* The result of every call. */
typedef enum {
    NVPTXCOMPILE_SUCCESS = 0,
    NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE = 1,
    NVPTXCOMPILE_ERROR_INVALID_INPUT = 2,
    NVPTXCOMPILE_ERROR_COMPILATION_FAILURE = 3,
    NVPTXCOMPILE_ERROR_INTERNAL = 4,
    NVPTXCOMPILE_ERROR_OUT_OF_MEMORY = 5,
    NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE = 6,
    NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION = 7,
    NVPTXCOMPILE_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 8,
    NVPTXCOMPILE_ERROR_CANCELLED = 9
} nvPTXCompileResult;

/* The interface's version (13.0: the CUDA release whose interface this is). */
nvPTXCompileResult nvPTXCompilerGetVersion(unsigned int *major, unsigned int *minor);

/* The number of PTX ISA versions (.version) the compiler accepts. */
nvPTXCompileResult nvPTXCompilerGetNumSupportedVersions(int *numVersions);

/* Those versions as ascending {major, minor} rows (numVersions rows, allocated by the caller). */
nvPTXCompileResult nvPTXCompilerGetSupportedVersions(int (*versions)[2]);

/* A new compiler for the ptxCodeLen bytes at ptxCode (copied; they need no NUL). */
nvPTXCompileResult nvPTXCompilerCreate(nvPTXCompilerHandle *compiler, size_t ptxCodeLen,
                                       const char *ptxCode);

/* Frees the compiler and sets *compiler to NULL. */
nvPTXCompileResult nvPTXCompilerDestroy(nvPTXCompilerHandle *compiler);

/* Compiles with ptxas's options (each a NUL-terminated string, as on ptxas's command line). */
nvPTXCompileResult nvPTXCompilerCompile(nvPTXCompilerHandle compiler, int numCompileOptions,
                                        const char *const *compileOptions);

/* The size in bytes of the cubin of the last successful nvPTXCompilerCompile. */
nvPTXCompileResult nvPTXCompilerGetCompiledProgramSize(nvPTXCompilerHandle compiler,
                                                       size_t *binaryImageSize);

/* Copies that cubin to binaryImage (binaryImageSize bytes, allocated by the caller). */
nvPTXCompileResult nvPTXCompilerGetCompiledProgram(nvPTXCompilerHandle compiler, void *binaryImage);

/* The size of the error log, its terminating NUL included (1 when empty). */
nvPTXCompileResult nvPTXCompilerGetErrorLogSize(nvPTXCompilerHandle compiler, size_t *errorLogSize);

/* Copies the error log (ptxas's warning, error and fatal lines) with its NUL to errorLog. */
nvPTXCompileResult nvPTXCompilerGetErrorLog(nvPTXCompilerHandle compiler, char *errorLog);

/* The size of the information log, its terminating NUL included (1 when empty). */
nvPTXCompileResult nvPTXCompilerGetInfoLogSize(nvPTXCompilerHandle compiler, size_t *infoLogSize);

/* Copies the information log (ptxas's info lines, e.g. -v's report) with its NUL to infoLog. */
nvPTXCompileResult nvPTXCompilerGetInfoLog(nvPTXCompilerHandle compiler, char *infoLog);

/* Registers callback(payload, NULL), called when compilation starts and when it ends; returning
 * 1 cancels the compilation (NVPTXCOMPILE_ERROR_CANCELLED, no image), 0 continues. */
nvPTXCompileResult nvPTXCompilerSetFlowCallback(nvPTXCompilerHandle compiler,
                                                int (*callback)(void *, void *), void *payload);

#ifdef __cplusplus
}
#endif

#endif /* NVPTXCOMPILER_H */
