//! The wild corpus's coverage report, without the ratchet:
//!
//! ```sh
//! cargo run --release --example wild_report            # the sample `cargo test` checks
//! cargo run --release --example wild_report -- --full  # every file (about 30 minutes on 2 cores)
//! ```
//!
//! Builds (or finds) the corpus with `corpus/wild/build.sh`, judges every file as
//! `tests/wild_corpus.rs` does, prints the report (per source: files and kernels accepted by
//! ptxas, accepted and compiled by us; our first errors by class with examples) and writes it to
//! `~/.cache/ptxas-rs/wild/report-{sample,full}.txt`. ptxas-rs runs as this binary behind the
//! `--ptxas-rs` flag, so the report always reflects the library it was built with.

#[path = "../tests/common/wild.rs"]
mod wild;
#[path = "../tests/common/wild_run.rs"]
mod wild_run;

use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--ptxas-rs") {
        return ptxas_rs::driver::main(&args[1..]);
    }
    let full = args.iter().any(|a| a == "--full");
    let tools = match oracle::tools() {
        Ok(t) => t,
        Err(why) => {
            eprintln!("wild_report: NVIDIA's tools are unavailable: {why}");
            return ExitCode::FAILURE;
        }
    };
    for (part, why) in wild::build(tools.root(), &wild::PARTS) {
        eprintln!("wild_report: the {part} part could not be built (reporting without it):\n{why}");
    }
    let all = wild::list();
    let files = if full { all } else { wild::sample(&all, wild::SAMPLE_PER_SOURCE, wild::SAMPLE_MAX_BYTES) };
    let scratch = std::env::temp_dir().join(format!("ptxas-rs-wild-report-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let judge = wild::Judge {
        ptxas: tools.ptxas(),
        nvdisasm: tools.nvdisasm(),
        ours: std::env::current_exe().expect("own path"),
        ours_prefix: vec!["--ptxas-rs".into()],
        scratch: scratch.clone(),
        limit: Duration::from_secs(900),
    };
    let (_, report, path, written) = wild::judge_and_report(&judge, &files, full);
    if let Err(e) = written {
        eprintln!("wild_report: cannot write {}: {e}", path.display());
    }
    println!("{report}\n(report written to {})", path.display());
    ExitCode::SUCCESS
}
