//! Fuzz target `warc`: see [`forest_fuzz::warc`] for what it feeds and checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| forest_fuzz::warc(data));
