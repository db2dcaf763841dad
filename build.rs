//! Links the `forest` binary as a position-dependent executable on Linux with the GNU
//! toolchain: a PIE binary of this size carries ~59,000 relative relocations that the loader
//! applies at every start, ~2.5 ms per process, and `forest apply` runs once per site in
//! many pipelines. The cost is address-space randomization of the executable's own code;
//! set `FOREST_PIE=1` when building to keep a PIE. The library is not affected.
//!
//! A static build (`-C target-feature=+crt-static`, README "Install") is left to rustc: with
//! `-C relocation-model=static` it links a static position-dependent executable itself, and
//! without it a static PIE, which `-no-pie` would break (the executable would crash at start).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=FOREST_PIE");
    let target = |k: &str| std::env::var(k).unwrap_or_default();
    let pie = std::env::var_os("FOREST_PIE").is_some_and(|v| v != "0");
    let crt_static = target("CARGO_CFG_TARGET_FEATURE").split(',').any(|f| f == "crt-static");
    if target("CARGO_CFG_TARGET_OS") == "linux" && target("CARGO_CFG_TARGET_ENV") == "gnu" && !pie && !crt_static {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
