//! Fuzz target `wrapper`: see [`forest_fuzz::wrapper`] for what it feeds and checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| forest_fuzz::wrapper(data));
