//! Launches beyond the target's limits fail with a located error before anything is allocated
//! (issue 28: `shared_bytes = 4294967295` used to abort the interpreter with `memory
//! allocation of 4294968319 bytes failed`). Checked on both executors: the Ori interpreter and
//! the SASS emulator (on ptxas-rs's cubin of the same PTX).

use interp::emu::{EmuConfig, EmuErrorKind};
use interp::launch::LaunchSpec;
use interp::launch::limits::{MAX_SHARED_BYTES, max_shared_per_block};
use interp::ori_exec::ErrorKind;
use interp::{ExecConfig, run_ori_with};

/// A kernel with 16 bytes of static shared memory and dynamic shared memory, both touched.
const PTX: &str = r#".version 9.0
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out)
{
	.shared .align 4 .b32 buf[4];
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	st.shared.u32 [buf], %r1;
	st.shared.u32 [dyn], %r1;
	ld.shared.u32 %r2, [buf];
	ld.shared.u32 %r3, [dyn];
	add.u32 %r2, %r2, %r3;
	st.global.u32 [%rd2], %r2;
	ret;
}
"#;

fn spec(shared: u64) -> Result<LaunchSpec, interp::launch::SpecError> {
    LaunchSpec::from_toml_str(&format!(
        "kernel = \"k\"\ngrid = [1]\nblock = [32]\nshared_bytes = {shared}\n\
         [[param]]\nbuffer = \"out\"\n[buffer.out]\ntype = \"u32\"\nlen = 1\noutput = true\n"
    ))
}

#[test]
fn spec_caps_shared_bytes() {
    let e = spec(4_294_967_295).unwrap_err();
    assert_eq!(e.key(), Some("shared_bytes"), "{e}");
    assert!(spec(u64::from(MAX_SHARED_BYTES)).is_ok());
}

#[test]
fn interpreter_checks_shared_memory_per_block() {
    let module = ptxas_rs::lower::lower_source(PTX).expect("lowers");
    let cfg = ExecConfig::default();
    // 16 static bytes (at 16-byte granularity) plus the most dynamic bytes: one byte too many.
    let over = spec(u64::from(MAX_SHARED_BYTES) - 15).unwrap();
    let e = run_ori_with(&module, "k", &over, &cfg).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Launch(_)), "{e:?}");
    assert!(e.kind.to_string().contains("sm_90 allows at most 232448"), "{}", e.kind);
    run_ori_with(&module, "k", &spec(u64::from(MAX_SHARED_BYTES) - 16).unwrap(), &cfg).expect("the limit itself runs");
    // A smaller target's limit.
    let sm86 = ExecConfig { sm: 86, ..ExecConfig::default() };
    let e = run_ori_with(&module, "k", &spec(u64::from(max_shared_per_block(86))).unwrap(), &sm86).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Launch(_)), "{e:?}");
}

#[test]
fn emulator_checks_shared_memory_per_block() {
    let options = ptxas_rs::cli::Options::from_args(&["-arch", "sm_90"]).unwrap();
    let cubin = ptxas_rs::compile(PTX, &options).expect("compiles").cubin;
    let cfg = EmuConfig::default();
    let over = spec(u64::from(MAX_SHARED_BYTES)).unwrap();
    let e = interp::emu::run_cubin(&cubin, "k", &over, &cfg).unwrap_err();
    assert!(matches!(e.kind, EmuErrorKind::Spec(_)), "{e}");
    assert!(e.to_string().contains("sm_90 allows at most 232448"), "{e}");
    let ok = spec(u64::from(MAX_SHARED_BYTES) - 16).unwrap();
    interp::emu::run_cubin(&cubin, "k", &ok, &cfg).expect("the limit itself runs");
}
