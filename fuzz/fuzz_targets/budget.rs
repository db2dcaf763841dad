//! Fuzz target `budget`: see [`forest_fuzz::budget`] for what it feeds and checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| forest_fuzz::budget(data));
