//! What happens when the tools cannot be had: each oracle test prints one `SKIPPED: <test>: <why>`
//! line and passes, unless `PTXAS_RS_ORACLE=required`, which makes it fail. Checked by running
//! this test binary again with `PTXAS_RS_NVIDIA_TOOLS` pointing at a directory without tools.

use std::process::Command;

/// Only does something in the child runs (with the broken override in its environment).
#[test]
fn child_oracle_test() {
    if std::env::var_os("PTXAS_RS_SKIP_CHILD").is_none() {
        return;
    }
    let Some(_) = oracle::tools_or_skip("child_oracle_test") else { return };
    panic!("tools found under a directory that has none");
}

fn run_child(required: bool) -> std::process::Output {
    let empty = std::env::temp_dir().join(format!("ptxas-rs-no-tools-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child_oracle_test", "--test-threads=1"])
        .env("PTXAS_RS_SKIP_CHILD", "1")
        .env("PTXAS_RS_NVIDIA_TOOLS", &empty)
        .env_remove("PTXAS_RS_ORACLE");
    if required {
        cmd.env("PTXAS_RS_ORACLE", "required");
    }
    let out = cmd.output().unwrap();
    let _ = std::fs::remove_dir(&empty);
    out
}

#[test]
fn unavailable_tools_skip_visibly() {
    let out = run_child(false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "a skipped test passes: {stderr}");
    let skips: Vec<&str> = stderr.lines().filter(|l| l.starts_with("SKIPPED: ")).collect();
    assert_eq!(skips.len(), 1, "{stderr}");
    assert!(skips[0].starts_with("SKIPPED: child_oracle_test: PTXAS_RS_NVIDIA_TOOLS="), "{}", skips[0]);
    assert!(skips[0].contains("holds neither"), "the reason is given: {}", skips[0]);
}

#[test]
fn unavailable_tools_fail_when_required() {
    let out = run_child(true);
    let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success(), "PTXAS_RS_ORACLE=required turns the skip into a failure:\n{all}");
    assert!(all.contains("NVIDIA tools are required"), "{all}");
}
