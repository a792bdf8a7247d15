//! Prints the form sweep's PTX module of one family for one target (every case, unfiltered):
//! `cargo run -p interp --release --example forms_dump -- FAMILY ARCH [CASE_SUBSTRING]`.
//! With no family, lists the families and their case counts.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all = interp::forms::families::all();
    let Some(family) = args.first() else {
        for f in interp::forms::families::FAMILIES {
            println!("{f} {}", all.iter().filter(|c| c.family == *f).count());
        }
        println!("total {}", all.len());
        return;
    };
    let arch = args.get(1).map_or("sm_90", String::as_str);
    let filter = args.get(2).map_or("", String::as_str);
    let cases: Vec<&interp::forms::Case> =
        all.iter().filter(|c| c.family == family && c.name.contains(filter)).collect();
    print!("{}", interp::forms::module_text(&cases, arch).0);
}
