"""A Python ctypes client of libnvptxcompiler_rs, run by capi/tests/c_api.rs.

    python3 test_capi.py LIB PTX EXPECTED_CUBIN BAD_PTX EXPECTED_ERROR_LOG

Compiles PTX with --gpu-name=sm_90 and checks the image equals EXPECTED_CUBIN; compiles BAD_PTX
and checks the error log equals EXPECTED_ERROR_LOG; checks the NULL-handle and
incomplete-invocation codes. Prints "ok" and exits 0, or raises (non-zero exit).
"""
import ctypes
import sys

SUCCESS, INVALID_COMPILER_HANDLE, INVALID_INPUT, COMPILATION_FAILURE = 0, 1, 2, 3
COMPILER_INVOCATION_INCOMPLETE = 6


def load(path):
    lib = ctypes.CDLL(path)
    handle = ctypes.c_void_p
    size = ctypes.c_size_t
    sigs = {
        "nvPTXCompilerGetVersion": [ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)],
        "nvPTXCompilerCreate": [ctypes.POINTER(handle), size, ctypes.c_char_p],
        "nvPTXCompilerDestroy": [ctypes.POINTER(handle)],
        "nvPTXCompilerCompile": [handle, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
        "nvPTXCompilerGetCompiledProgramSize": [handle, ctypes.POINTER(size)],
        "nvPTXCompilerGetCompiledProgram": [handle, ctypes.c_void_p],
        "nvPTXCompilerGetErrorLogSize": [handle, ctypes.POINTER(size)],
        "nvPTXCompilerGetErrorLog": [handle, ctypes.c_char_p],
        "nvPTXCompilerGetInfoLogSize": [handle, ctypes.POINTER(size)],
        "nvPTXCompilerGetInfoLog": [handle, ctypes.c_char_p],
    }
    for name, args in sigs.items():
        f = getattr(lib, name)
        f.argtypes = args
        f.restype = ctypes.c_int
    return lib


def check(what, got, want):
    if got != want:
        raise AssertionError(f"{what}: got {got!r}, want {want!r}")


class Compiler:
    def __init__(self, lib, ptx):
        self.lib = lib
        self.h = ctypes.c_void_p()
        check("create", lib.nvPTXCompilerCreate(ctypes.byref(self.h), len(ptx), ptx), SUCCESS)

    def compile(self, *options):
        arr = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
        return self.lib.nvPTXCompilerCompile(self.h, len(options), arr)

    def program(self):
        n = ctypes.c_size_t()
        r = self.lib.nvPTXCompilerGetCompiledProgramSize(self.h, ctypes.byref(n))
        if r != SUCCESS:
            return r, None
        buf = ctypes.create_string_buffer(n.value)
        check("program", self.lib.nvPTXCompilerGetCompiledProgram(self.h, buf), SUCCESS)
        return SUCCESS, buf.raw[: n.value]

    def error_log(self):
        n = ctypes.c_size_t()
        check("error log size", self.lib.nvPTXCompilerGetErrorLogSize(self.h, ctypes.byref(n)), SUCCESS)
        buf = ctypes.create_string_buffer(n.value)
        check("error log", self.lib.nvPTXCompilerGetErrorLog(self.h, buf), SUCCESS)
        check("error log NUL", buf.raw[n.value - 1], 0)
        return buf.value.decode()

    def destroy(self):
        check("destroy", self.lib.nvPTXCompilerDestroy(ctypes.byref(self.h)), SUCCESS)
        check("destroyed handle", self.h.value, None)


def main(lib_path, ptx_path, cubin_path, bad_path, bad_log_path):
    lib = load(lib_path)
    major, minor = ctypes.c_uint(), ctypes.c_uint()
    check("version", lib.nvPTXCompilerGetVersion(ctypes.byref(major), ctypes.byref(minor)), SUCCESS)
    check("version value", (major.value, minor.value), (13, 0))
    check("null handle", lib.nvPTXCompilerCompile(None, 0, None), INVALID_COMPILER_HANDLE)

    c = Compiler(lib, open(ptx_path, "rb").read())
    check("before compile", c.program(), (COMPILER_INVOCATION_INCOMPLETE, None))
    check("compile", c.compile("--gpu-name=sm_90"), SUCCESS)
    check("image", c.program(), (SUCCESS, open(cubin_path, "rb").read()))
    check("bad option", c.compile("--gpu-name=sm_90", "--bad-option"), COMPILATION_FAILURE)
    if "Unknown option" not in c.error_log():
        raise AssertionError(f"bad option log: {c.error_log()!r}")
    c.destroy()

    bad = Compiler(lib, open(bad_path, "rb").read())
    check("bad ptx", bad.compile("--gpu-name=sm_90"), COMPILATION_FAILURE)
    check("bad ptx log", bad.error_log(), open(bad_log_path).read())
    bad.destroy()
    print("ok")


if __name__ == "__main__":
    main(*sys.argv[1:])
