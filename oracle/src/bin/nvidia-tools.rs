//! `nvidia-tools`: finds or installs NVIDIA's pinned tools and prints where they are.
//!
//! ```text
//! nvidia-tools root        # the install root (what PTXAS_RS_NVIDIA_TOOLS would name)
//! nvidia-tools bin         # the directory holding ptxas, nvdisasm, cuobjdump, nvcc
//! nvidia-tools pins        # the pinned PyPI packages
//! ```
//! Scripts (`corpus/regen.sh`, `corpus/errors/record.sh`) use it so they share the tests' install.
use std::process::ExitCode;

fn main() -> ExitCode {
    let what = std::env::args().nth(1).unwrap_or_else(|| "root".into());
    if what == "pins" {
        oracle::PINS.iter().for_each(|p| println!("{p}"));
        return ExitCode::SUCCESS;
    }
    let tools = match oracle::tools() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("nvidia-tools: {e}");
            return ExitCode::FAILURE;
        }
    };
    match what.as_str() {
        "root" => println!("{}", tools.root().display()),
        "bin" => println!("{}", tools.bin_dir().display()),
        other => {
            eprintln!("nvidia-tools: unknown command '{other}' (root, bin, pins)");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
