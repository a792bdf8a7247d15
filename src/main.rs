//! The `ptxas-rs` command: a drop-in for NVIDIA's `ptxas`.
//!
//! Its heap is [`ptxas_rs::budget::Budgeted`]: past the memory budget it fails as ptxas does
//! (`Memory allocation failure`, exit 255, no output file) instead of aborting.

#[global_allocator]
static HEAP: ptxas_rs::budget::Budgeted = ptxas_rs::budget::Budgeted::new();

fn main() -> std::process::ExitCode {
    HEAP.init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    ptxas_rs::driver::main(&args)
}
