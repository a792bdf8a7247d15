//! Device-function frames against ptxas (issue 7, `regalloc::callee_save`): with the
//! scratch/preserved split of `lower::isel::call::clobbered`, a callee saves only the preserved
//! registers it writes, so the `-v` stack frames of the corpus device functions are ptxas's
//! wherever saving was the only difference.
//!
//! Our sizes are pinned (they always run); when NVIDIA's ptxas is installed, its `-v` report of
//! the same file is parsed as well and compared function by function. `fib`, `is_even` and
//! `is_odd` differ for a reason other than saving: ptxas wraps their calls in a `BSSY B6`
//! region and keeps B6 in one more preserved register (`BMOV.32.CLEAR R2, B6`), which we do
//! not emit, so theirs is one 8-byte save granule larger.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use oracle::{PtxInput, tools_or_skip, verbose};

/// (corpus kernel, device function, our frame, ptxas's frame minus ours).
const FRAMES: &[(&str, &str, u64, u64)] = &[
    ("func_params", "mix", 0, 0),
    ("func_params", "store4", 0, 0),
    ("func_params", "sumdiff", 0, 0),
    ("func_recursion", "sumsq", 32, 0),
    ("func_recursion", "fib", 16, 8),
    ("func_recursion", "is_even", 8, 8),
    ("func_recursion", "is_odd", 8, 8),
];

fn corpus_file(kernel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/ptx").join(kernel).join(format!("{kernel}.ptx"))
}

fn ours(kernel: &str) -> verbose::Resources {
    // Tests run in parallel: every call gets its own directory.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ptxas-rs-frames-{}-{n}-{kernel}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ptxas-rs"))
        .args(["-arch", "sm_90", "-O3", "-v"])
        .arg(corpus_file(kernel))
        .arg("-o")
        .arg(dir.join("k.cubin"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{kernel}: {err}");
    verbose::parse(&err)
}

fn frame(r: &verbose::Resources, name: &str) -> u64 {
    r.function(name).and_then(|f| f.stack_frame).unwrap_or_else(|| panic!("no -v frame for {name}: {r:?}"))
}

#[test]
fn device_function_frames_are_pinned() {
    for &(kernel, name, want, _) in FRAMES {
        let r = ours(kernel);
        assert_eq!(frame(&r, name), want, "{kernel}/{name}");
    }
}

#[test]
fn device_function_frames_match_ptxas() {
    let Some(t) = tools_or_skip("device_function_frames_match_ptxas") else { return };
    for kernel in ["func_params", "func_recursion"] {
        let path = corpus_file(kernel);
        let theirs = t.ptxas_run(PtxInput::File { path: &path, cwd: None }, &["-arch", "sm_90", "-O3", "-v"]).unwrap();
        assert!(theirs.success(), "{kernel}: {}", theirs.stderr);
        let ours = ours(kernel);
        let devs: Vec<_> = theirs.resources.functions.iter().filter(|f| !f.entry).collect();
        assert!(!devs.is_empty(), "{kernel}: ptxas reports no device function");
        for f in devs {
            let &(_, _, _, gap) = FRAMES
                .iter()
                .find(|x| x.0 == kernel && x.1 == f.name)
                .unwrap_or_else(|| panic!("{kernel}/{} is not pinned", f.name));
            let t = f.stack_frame.unwrap_or_else(|| panic!("{kernel}/{}: no frame from ptxas", f.name));
            assert_eq!(frame(&ours, &f.name) + gap, t, "{kernel}/{}: ours + {gap} vs ptxas", f.name);
        }
    }
}
