//! The `ptxas-rs` command: a drop-in for NVIDIA's `ptxas`.
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ptxas_rs::driver::main(&args)
}
