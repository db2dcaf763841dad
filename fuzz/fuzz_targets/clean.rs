//! Fuzz target `clean`: see [`forest_fuzz::clean`] for what it feeds and checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| forest_fuzz::clean(data));
