//! Fuzz target: the PTX front end on arbitrary bytes. The checks live in
//! `ptxas_rs::fuzzing::ptx_parse`; `cargo test` runs them as a smoke test too.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| ptxas_rs::fuzzing::ptx_parse(data));
