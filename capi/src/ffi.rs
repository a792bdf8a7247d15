//! The `extern "C"` entry points of `nvPTXCompiler.h`, thin shells over [`crate::Compiler`].
//!
//! Each function: runs its body under [`guard`] (a panic becomes
//! `NVPTXCOMPILE_ERROR_INTERNAL`, never an unwind into C); returns
//! `NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE` for a NULL handle and
//! `NVPTXCOMPILE_ERROR_INVALID_INPUT` for any other NULL pointer it needs (or a negative option
//! count); locks the handle's own mutex for the call (a mutex poisoned by a caught panic is
//! taken over: every call starts from a state `Compiler` keeps consistent).
//!
//! A handle is a `Box<Handle>` turned into a raw pointer by `nvPTXCompilerCreate` and taken back
//! by `nvPTXCompilerDestroy`; as with NVIDIA's library, using a handle after destroying it, or
//! destroying it while another thread uses it, is the caller's error and cannot be detected.

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::{Compiler, FlowCallback, VERSION, nvPTXCompileResult as R, nvPTXCompileResult};

/// What `nvPTXCompilerHandle` points to.
pub struct Handle(Mutex<Compiler>);

/// `nvPTXCompilerHandle`.
#[allow(non_camel_case_types)]
pub type nvPTXCompilerHandle = *mut Handle;

/// Runs `body`, turning a panic into `NVPTXCOMPILE_ERROR_INTERNAL`.
pub(crate) fn guard(body: impl FnOnce() -> nvPTXCompileResult) -> nvPTXCompileResult {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(R::NVPTXCOMPILE_ERROR_INTERNAL)
}

/// The compiler behind a non-NULL handle, locked.
///
/// # Safety
/// `handle` is NULL or a live handle from `nvPTXCompilerCreate`.
unsafe fn lock<'a>(handle: nvPTXCompilerHandle) -> Option<MutexGuard<'a, Compiler>> {
    // SAFETY: per the contract, non-NULL means a live Box<Handle> that outlives this call.
    let handle = unsafe { handle.as_ref()? };
    Some(handle.0.lock().unwrap_or_else(PoisonError::into_inner))
}

/// Runs `f` on the locked compiler of `handle`, or returns the NULL-handle code.
///
/// # Safety
/// As [`lock`].
unsafe fn with(handle: nvPTXCompilerHandle, f: impl FnOnce(&mut Compiler) -> nvPTXCompileResult) -> nvPTXCompileResult {
    guard(|| match unsafe { lock(handle) } {
        Some(mut c) => f(&mut c),
        None => R::NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE,
    })
}

/// Writes `value` to `out` unless it is NULL.
///
/// # Safety
/// `out` is NULL or valid for a write of `T`.
unsafe fn put<T>(out: *mut T, value: T) -> nvPTXCompileResult {
    if out.is_null() {
        return R::NVPTXCOMPILE_ERROR_INVALID_INPUT;
    }
    // SAFETY: non-NULL and, per the contract, writable.
    unsafe { out.write(value) };
    R::NVPTXCOMPILE_SUCCESS
}

/// Copies `bytes` to `out` unless it is NULL.
///
/// # Safety
/// `out` is NULL or valid for `bytes.len()` bytes of writes.
unsafe fn copy_out(out: *mut u8, bytes: &[u8]) -> nvPTXCompileResult {
    if out.is_null() {
        return R::NVPTXCOMPILE_ERROR_INVALID_INPUT;
    }
    // SAFETY: the caller allocated as many bytes as the matching *Size call reported.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len()) };
    R::NVPTXCOMPILE_SUCCESS
}

/// Copies `log` and a NUL to `out`.
///
/// # Safety
/// `out` is NULL or valid for `log.len() + 1` bytes of writes.
unsafe fn copy_log(out: *mut c_char, log: &str) -> nvPTXCompileResult {
    let mut bytes = Vec::with_capacity(log.len() + 1);
    bytes.extend_from_slice(log.as_bytes());
    bytes.push(0);
    unsafe { copy_out(out.cast(), &bytes) }
}

/// `nvPTXCompilerGetVersion`: 13.0.
///
/// # Safety
/// `major` and `minor` are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetVersion(major: *mut c_uint, minor: *mut c_uint) -> nvPTXCompileResult {
    guard(|| {
        if major.is_null() || minor.is_null() {
            return R::NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        unsafe {
            put(major, VERSION.0);
            put(minor, VERSION.1)
        }
    })
}

/// `nvPTXCompilerGetNumSupportedVersions`: how many PTX ISA versions the front end accepts.
///
/// # Safety
/// `num_versions` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetNumSupportedVersions(num_versions: *mut c_int) -> nvPTXCompileResult {
    guard(|| unsafe { put(num_versions, crate::supported_versions().count() as c_int) })
}

/// `nvPTXCompilerGetSupportedVersions`: the accepted PTX ISA versions as ascending
/// `{major, minor}` rows.
///
/// # Safety
/// `versions` is NULL or writable for as many rows as
/// [`nvPTXCompilerGetNumSupportedVersions`] reports.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetSupportedVersions(versions: *mut [c_int; 2]) -> nvPTXCompileResult {
    guard(|| {
        if versions.is_null() {
            return R::NVPTXCOMPILE_ERROR_INVALID_INPUT;
        }
        for (i, (major, minor)) in crate::supported_versions().enumerate() {
            // SAFETY: writable for every row, per the contract.
            unsafe { versions.add(i).write([major as c_int, minor as c_int]) };
        }
        R::NVPTXCOMPILE_SUCCESS
    })
}

/// `nvPTXCompilerCreate`: a handle for the `ptx_code_len` bytes at `ptx_code`.
///
/// # Safety
/// `compiler` is NULL or writable; `ptx_code` is NULL or readable for `ptx_code_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerCreate(
    compiler: *mut nvPTXCompilerHandle,
    ptx_code_len: usize,
    ptx_code: *const c_char,
) -> nvPTXCompileResult {
    guard(|| {
        if compiler.is_null() {
            return R::NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
        }
        let ptx: &[u8] = match (ptx_code.is_null(), ptx_code_len) {
            (_, 0) => &[],
            (true, _) => return R::NVPTXCOMPILE_ERROR_INVALID_INPUT,
            // SAFETY: non-NULL and, per the contract, readable for the given length.
            (false, n) => unsafe { std::slice::from_raw_parts(ptx_code.cast::<u8>(), n) },
        };
        let handle = Box::into_raw(Box::new(Handle(Mutex::new(Compiler::new(ptx)))));
        unsafe { put(compiler, handle) }
    })
}

/// `nvPTXCompilerDestroy`: frees `*compiler` and sets it to NULL.
///
/// # Safety
/// `compiler` is NULL or points to NULL or to a live handle no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerDestroy(compiler: *mut nvPTXCompilerHandle) -> nvPTXCompileResult {
    guard(|| {
        // SAFETY: per the contract.
        let Some(slot) = (unsafe { compiler.as_mut() }) else {
            return R::NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
        };
        if slot.is_null() {
            return R::NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE;
        }
        // SAFETY: a live handle made by Box::into_raw in nvPTXCompilerCreate, freed once here.
        drop(unsafe { Box::from_raw(*slot) });
        *slot = std::ptr::null_mut();
        R::NVPTXCOMPILE_SUCCESS
    })
}

/// `nvPTXCompilerCompile` with `num_compile_options` NUL-terminated ptxas option strings.
///
/// # Safety
/// `compiler` as [`lock`]; `compile_options` is NULL or readable for `num_compile_options`
/// pointers, each NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerCompile(
    compiler: nvPTXCompilerHandle,
    num_compile_options: c_int,
    compile_options: *const *const c_char,
) -> nvPTXCompileResult {
    unsafe {
        with(compiler, |c| {
            let Ok(n) = usize::try_from(num_compile_options) else {
                return R::NVPTXCOMPILE_ERROR_INVALID_INPUT;
            };
            if n > 0 && compile_options.is_null() {
                return R::NVPTXCOMPILE_ERROR_INVALID_INPUT;
            }
            let mut args = Vec::with_capacity(n);
            for i in 0..n {
                // SAFETY: readable for n pointers, per the contract.
                let p = *compile_options.add(i);
                if p.is_null() {
                    return R::NVPTXCOMPILE_ERROR_INVALID_INPUT;
                }
                // SAFETY: a NUL-terminated string, per the contract.
                args.push(CStr::from_ptr(p).to_string_lossy().into_owned());
            }
            c.compile(&args)
        })
    }
}

/// `nvPTXCompilerGetCompiledProgramSize`.
///
/// # Safety
/// `compiler` as [`lock`]; `binary_image_size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetCompiledProgramSize(
    compiler: nvPTXCompilerHandle,
    binary_image_size: *mut usize,
) -> nvPTXCompileResult {
    unsafe {
        with(compiler, |c| match c.image() {
            Some(image) => put(binary_image_size, image.len()),
            None => R::NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE,
        })
    }
}

/// `nvPTXCompilerGetCompiledProgram`.
///
/// # Safety
/// `compiler` as [`lock`]; `binary_image` NULL or writable for the reported size.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetCompiledProgram(
    compiler: nvPTXCompilerHandle,
    binary_image: *mut c_void,
) -> nvPTXCompileResult {
    unsafe {
        with(compiler, |c| match c.image() {
            Some(image) => copy_out(binary_image.cast(), image),
            None => R::NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE,
        })
    }
}

/// `nvPTXCompilerGetErrorLogSize`: the error log's length plus its NUL.
///
/// # Safety
/// `compiler` as [`lock`]; `error_log_size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetErrorLogSize(
    compiler: nvPTXCompilerHandle,
    error_log_size: *mut usize,
) -> nvPTXCompileResult {
    unsafe { with(compiler, |c| put(error_log_size, c.error_log().len() + 1)) }
}

/// `nvPTXCompilerGetErrorLog`: the error log and its NUL.
///
/// # Safety
/// `compiler` as [`lock`]; `error_log` NULL or writable for the reported size.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetErrorLog(
    compiler: nvPTXCompilerHandle,
    error_log: *mut c_char,
) -> nvPTXCompileResult {
    unsafe { with(compiler, |c| copy_log(error_log, c.error_log())) }
}

/// `nvPTXCompilerGetInfoLogSize`: the info log's length plus its NUL.
///
/// # Safety
/// `compiler` as [`lock`]; `info_log_size` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetInfoLogSize(
    compiler: nvPTXCompilerHandle,
    info_log_size: *mut usize,
) -> nvPTXCompileResult {
    unsafe { with(compiler, |c| put(info_log_size, c.info_log().len() + 1)) }
}

/// `nvPTXCompilerGetInfoLog`: the info log and its NUL.
///
/// # Safety
/// `compiler` as [`lock`]; `info_log` NULL or writable for the reported size.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerGetInfoLog(
    compiler: nvPTXCompilerHandle,
    info_log: *mut c_char,
) -> nvPTXCompileResult {
    unsafe { with(compiler, |c| copy_log(info_log, c.info_log())) }
}

/// `nvPTXCompilerSetFlowCallback`: `callback(payload, NULL)` is asked when compilation starts and
/// when it ends; 1 cancels. A NULL callback is `NVPTXCOMPILE_ERROR_INVALID_INPUT`.
///
/// # Safety
/// `compiler` as [`lock`]; `callback` callable with `(payload, NULL)` during every later
/// `nvPTXCompilerCompile` on this handle, from the thread that calls it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvPTXCompilerSetFlowCallback(
    compiler: nvPTXCompilerHandle,
    callback: Option<FlowCallback>,
    payload: *mut c_void,
) -> nvPTXCompileResult {
    unsafe {
        with(compiler, |c| {
            if callback.is_none() {
                return R::NVPTXCOMPILE_ERROR_INVALID_INPUT;
            }
            c.set_flow_callback(callback, payload as usize);
            R::NVPTXCOMPILE_SUCCESS
        })
    }
}
