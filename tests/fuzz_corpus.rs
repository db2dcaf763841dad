//! Replays the fuzz corpora and regressions (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`)
//! through the fuzz targets' bodies, on stable: every input the fuzzer kept or that once crashed
//! runs in seconds on each test run. The targets themselves run with `cargo +nightly fuzz run`
//! (see fuzz/README.md).

#[path = "../fuzz/src/lib.rs"]
mod targets;

use std::path::Path;

/// Feed every file under `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/` to `f`;
/// the number of files replayed.
fn replay(target: &str, f: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for kind in ["corpus", "regressions"] {
        let dir = root.join(kind).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let result = std::panic::catch_unwind(|| f(&data));
            assert!(result.is_ok(), "fuzz target {target} panics on {}", file.display());
            n += 1;
        }
    }
    if n == 0 {
        eprintln!("fuzz target {target}: no corpus or regression files, nothing replayed");
    }
    n
}

#[test]
fn fuzz_corpus_clean() {
    replay("clean", targets::clean);
}

#[test]
fn fuzz_corpus_feed() {
    replay("feed", targets::feed);
}

#[test]
fn fuzz_corpus_wrapper() {
    replay("wrapper", targets::wrapper);
}

#[test]
fn fuzz_corpus_site_config() {
    replay("site_config", targets::site_config);
}

#[test]
fn fuzz_corpus_warc() {
    replay("warc", targets::warc);
}
