//! Replays the fuzz corpora and regressions (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`)
//! through the fuzz targets' bodies, on stable: every input the fuzzer kept or that once crashed
//! runs in seconds on each test run. Then each target runs briefly on mutants of its corpus
//! (a seeded mutator, the same inputs on every run): a regression check of the fuzzing itself.
//! The targets run for real with `cargo +nightly fuzz run` (see fuzz/README.md).

mod common;
#[path = "../fuzz/src/lib.rs"]
mod targets;

use common::Rng;

use std::path::Path;

/// Mutants tried per target on each test run.
const MUTANTS: usize = 4000;

/// Tokens the mutator inserts: the syntax of the formats the targets read.
const TOKENS: &[&[u8]] = &[
    b"<div>", b"</div>", b"<p class='a b'>", b"<!--", b"-->", b"<![CDATA[", b"]]>", b"&amp;", b"&#x0;", b"<script>",
    b"<item>", b"</item>", b"<entry>", b"<link>", b"http://", b"//", b"[", b"]", b"(", b")", b"'", b"\"", b"::", b"@",
    b"|", b"*", b"//*[.//*]", b"body: ", b"strip: ", b"\n", b"\r\n", b"WARC/1.0\r\n", b"Content-Length: 99999999\r\n",
    b"\r\n\r\n", b"\x1f\x8b", b"\xff\xfe", b"\xef\xbb\xbf", b"\0", b"{", b"}", b" = ", b" != ", b" < ", b" + ", b"/ = ",
    b"number(", b"sum(",
];


/// One to four random edits of `input`: flips, deletions, repeats, tokens, splices of `other`.
fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(6) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let end = (at + rng.below(64)).min(v.len());
                v.drain(at..end);
            }
            2 => {
                let end = (at + rng.below(32)).min(v.len());
                let chunk = v[at..end].to_vec();
                for _ in 0..rng.below(64) {
                    v.splice(at..at, chunk.iter().copied());
                }
            }
            3 | 4 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                v.splice(at..at, token.iter().copied());
            }
            _ => {
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(256)).min(other.len());
                v.splice(at..at, other[from..end].iter().copied());
            }
        }
    }
    v.truncate(64 * 1024);
    v
}

/// Run `f` on [`MUTANTS`] mutants of the target's corpus files.
fn mutants(target: &str, f: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join("corpus").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("fuzz target {target}: no corpus, no mutants");
        return;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    files.sort();
    let inputs: Vec<Vec<u8>> = files.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    if inputs.is_empty() {
        return;
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ target.len() as u64);
    for i in 0..MUTANTS {
        let a = &inputs[rng.below(inputs.len())];
        let b = &inputs[rng.below(inputs.len())];
        let data = mutate(&mut rng, a, b);
        let result = std::panic::catch_unwind(|| f(&data));
        if result.is_err() {
            let keep = std::env::temp_dir().join(format!("forest-mutant-{target}-{i}"));
            let _ = std::fs::write(&keep, &data);
            panic!("fuzz target {target} panics on mutant {i} (kept at {})", keep.display());
        }
    }
}

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
            let data = match std::fs::read(&file) {
                Ok(data) => data,
                // A fuzzer running meanwhile replaces corpus files as it shrinks them.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => panic!("{}: {e}", file.display()),
            };
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
    mutants("clean", targets::clean);
}

#[test]
fn fuzz_corpus_budget() {
    replay("budget", targets::budget);
    mutants("budget", targets::budget);
}

#[test]
fn fuzz_corpus_feed() {
    replay("feed", targets::feed);
    mutants("feed", targets::feed);
}

#[test]
fn fuzz_corpus_wrapper() {
    replay("wrapper", targets::wrapper);
    mutants("wrapper", targets::wrapper);
}

#[test]
fn fuzz_corpus_site_config() {
    replay("site_config", targets::site_config);
    mutants("site_config", targets::site_config);
}

#[test]
fn fuzz_corpus_warc() {
    replay("warc", targets::warc);
    mutants("warc", targets::warc);
}
