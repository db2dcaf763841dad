//! Fuzz target `feed`: see [`forest_fuzz::feed`] for what it feeds and checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| forest_fuzz::feed(data));
