//! Fuzz target: the SASS decoder on arbitrary 16-byte words. The checks live in
//! `ptxas_rs::fuzzing::sass_decode`; `cargo test` runs them as a smoke test too.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| ptxas_rs::fuzzing::sass_decode(data));
