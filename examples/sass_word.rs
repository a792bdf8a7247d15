//! Decodes raw 128-bit SASS words with our tables and prints them as nvdisasm would:
//! `cargo run --release --example sass_word -- sm_90 0xHI_LO...` (words as 32 hex digits,
//! high half first, as `cuobjdump -sass` shows them bottom line then top line).
fn main() {
    let mut args = std::env::args().skip(1);
    let arch = args.next().expect("usage: sass_word ARCH WORD...");
    let tables = ptxas_rs::sass::tables_for(&arch).expect("known arch");
    for a in args {
        let hex = a.trim_start_matches("0x").replace('_', "");
        let word = u128::from_str_radix(&hex, 16).expect("hex word");
        match tables.decode(word) {
            Ok(inst) => println!("{word:#034x}: {}", tables.print(&inst, 0, None)),
            Err(e) => println!("{word:#034x}: does not decode: {e}"),
        }
    }
}
