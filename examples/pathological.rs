//! Prints one generated pathological input (`ptxas_rs::fuzzing::pathological`).
//!
//! `cargo run --release --example pathological -- SHAPE [N]` writes the module of shape `SHAPE`
//! (e.g. `branch_chain`) at size `N` (default: the issue's size) to stdout; with no argument it
//! lists the shapes and their issue sizes.

use ptxas_rs::fuzzing::pathological::Shape;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        for s in Shape::ALL {
            println!("{} {}", s.name(), s.issue_size());
        }
        return;
    };
    let Some(shape) = Shape::ALL.into_iter().find(|s| s.name() == name) else {
        eprintln!("unknown shape {name:?}; run without arguments for the list");
        std::process::exit(2);
    };
    let n = match args.get(1).map(|a| a.parse::<usize>()) {
        None => shape.issue_size(),
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("bad size {:?}: {e}", args[1]);
            std::process::exit(2);
        }
    };
    print!("{}", shape.generate(n));
}
