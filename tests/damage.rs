//! A damaged archive index is reported, never a panic: one byte flipped at many places of each
//! kind of index file, and `forest search` exits 0 (the damage missed what it reads) or 1 with
//! a message, never 101.

mod common;

use common::cli::{forest, ok, p, root};

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn a_flipped_byte_in_an_index_is_an_error_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let idx = tmp.path().join("idx");
    ok(&forest(&store, &["apply", p(&root().join("feeds/demo-news")), "--index", p(&idx), "-q"]));
    let mut tried = 0;
    for ext in ["term", "store", "idx", "pos", "fast", "fieldnorm"] {
        let Some(file) = std::fs::read_dir(&idx)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|f| f.extension().is_some_and(|x| x == ext))
        else {
            continue;
        };
        let len = std::fs::metadata(&file).unwrap().len() as usize;
        for k in [1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43] {
            let at = len * k / 47;
            let damaged = tmp.path().join(format!("d-{ext}-{k}"));
            copy_dir(&idx, &damaged);
            let target = damaged.join(file.file_name().unwrap());
            let mut bytes = std::fs::read(&target).unwrap();
            bytes[at] ^= 0xFF;
            std::fs::write(&target, bytes).unwrap();
            let o = forest(&store, &["search", p(&damaged), "bridge"]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(matches!(o.status.code(), Some(0 | 1)), "{ext} byte {at}: exit {:?}: {err}", o.status.code());
            if o.status.code() == Some(1) {
                assert!(err.contains("forest: article index"), "{ext} byte {at}: {err}");
                assert!(!err.contains("panicked"), "the raw panic text is not printed: {ext} byte {at}: {err}");
            }
            tried += 1;
        }
    }
    assert!(tried >= 60, "{tried} damaged copies tried");
}
