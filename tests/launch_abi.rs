//! The launch-spec parameter layout (`interp::launch`) is NVIDIA's kernel ABI: for every corpus
//! kernel, the offsets and sizes the spec's layout rule gives equal the `EIATTR_KPARAM_INFO`
//! records ptxas writes into the cubin, and the parameter block starts at the constant-bank-0
//! base the SM family uses (0x160 sm_75–89, 0x210 sm_90, 0x380 sm_100+). Executors build the
//! parameter block from the spec alone, so this is what makes their launches real launches.

mod common;

use interp::launch::LaunchSpec;
use ptxas_rs::cubin::{Constant0Layout, Cubin};

#[test]
fn spec_param_layout_matches_ptxas_kparam_info() {
    let Some(t) = oracle::tools_or_skip("spec_param_layout_matches_ptxas_kparam_info") else { return };
    // One PTX per kernel and SM family: sm_75, sm_90 and sm_100 where the kernel has them.
    let files: Vec<_> = common::corpus_ptx()
        .into_iter()
        .filter(|c| matches!(c.arch.as_str(), "sm_75" | "sm_80" | "sm_90" | "sm_90a" | "sm_100"))
        .collect();
    let checked = std::sync::atomic::AtomicUsize::new(0);
    let failures = common::par::par_check(&files, |c| {
        let what = format!("{} (-arch {})", c.path.display(), c.arch);
        let name = c.path.file_name().unwrap().to_string_lossy();
        let stem = name.split('.').next().unwrap();
        let spec_path = c.path.with_file_name(format!("{stem}.run.toml"));
        let spec = LaunchSpec::from_path(&spec_path).map_err(|e| format!("{what}: {e}"))?;
        let out = t
            .ptxas_run(oracle::PtxInput::File { path: &c.path, cwd: None }, &["-arch", &c.arch])
            .map_err(|e| format!("{what}: {e}"))?;
        let bytes = out.cubin.ok_or_else(|| format!("{what}: no cubin: {}", out.stderr))?;
        let cubin = Cubin::parse(&bytes).map_err(|e| format!("{what}: {e}"))?;
        let c0 =
            cubin.constant0(&spec.kernel).ok_or_else(|| format!("{what}: no constant bank 0 for {}", spec.kernel))?;
        let base = Constant0Layout::for_sm(cubin.sm()).param_base;
        if c0.param_base != base {
            return Err(format!("{what}: parameters at {:#x}, the SM family's base is {base:#x}", c0.param_base));
        }
        let ours: Vec<(usize, usize)> = spec.param_layout().slots.iter().map(|s| (s.offset, s.size)).collect();
        let theirs: Vec<(usize, usize)> =
            c0.params.iter().map(|k| (usize::from(k.offset), usize::from(k.size))).collect();
        if ours != theirs {
            return Err(format!("{what}: (offset, size) per parameter: spec {ours:?}, ptxas {theirs:?}"));
        }
        let total = spec.param_layout().size;
        if c0.param_size as usize != total {
            return Err(format!("{what}: parameter bytes: spec {total}, ptxas {}", c0.param_size));
        }
        checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    });
    assert!(failures.is_empty(), "{} of {} kernels:\n{}", failures.len(), files.len(), failures.join("\n"));
    println!("{} kernel compilations: spec layout == KPARAM_INFO", checked.into_inner());
}
