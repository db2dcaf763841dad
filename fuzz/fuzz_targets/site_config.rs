//! Fuzz target `site_config`: see [`forest_fuzz::site_config`] for what it feeds and checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| forest_fuzz::site_config(data));
