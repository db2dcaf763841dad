//! Web archives and the article index end to end: a WARC built here from the bundled sites
//! (gzipped, several hosts, a PDF, a 404, a truncated record), wrappers induced per host,
//! articles extracted and indexed, searched, and the per-shard contract (two shards processed
//! separately give the same articles as one run).

mod common;

use common::cli::{forest, ok, p, root};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The pages of a bundled site with the URL its canonical link gives.
fn site(dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let html = std::fs::read(&f).unwrap();
            let text = String::from_utf8_lossy(&html);
            let at = text.find("rel=\"canonical\" href=\"").expect("canonical link") + 22;
            let url = text[at..].split('"').next().unwrap().to_string();
            (url, html)
        })
        .collect()
}

/// Write a WARC of `pages` (gzip member per record) with a PDF, a 404 and a lone page of a third
/// host; `truncate` appends a record cut short.
fn warc(path: &Path, pages: &[(String, Vec<u8>)], truncate: bool) {
    let file = std::fs::File::create(path).unwrap();
    let mut w = forest::warc::Writer::gzip(std::io::BufWriter::new(file));
    let date = "2024-05-01T00:00:00Z";
    w.warcinfo(date, &[("software", "forest tests")]).unwrap();
    let html = [("Content-Type", "text/html; charset=utf-8")];
    for (url, body) in pages {
        w.response(url, date, &html, body).unwrap();
    }
    w.response("https://riverside-gazette.example/report.pdf", date, &[("Content-Type", "application/pdf")], b"%PDF-1.4 not a page")
        .unwrap();
    w.record(
        "response",
        &[("WARC-Target-URI", "https://riverside-gazette.example/gone"), ("Content-Type", "application/http; msgtype=response")],
        b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n<p>gone</p>",
    )
    .unwrap();
    w.response(
        "https://lonely.example/only.html",
        date,
        &html,
        b"<html><body><h1>Alone</h1><p>The only page of its site, long enough to be an article for the single-page extractor to keep, with a few sentences of text in it.</p><p>Another paragraph of the lone article follows here, also with words.</p></body></html>",
    )
    .unwrap();
    let mut inner = w.finish().unwrap();
    if truncate {
        inner.write_all(b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 5000\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>cut").unwrap();
    }
    inner.flush().unwrap();
}

fn all_pages() -> Vec<(String, Vec<u8>)> {
    let mut pages = site("feeds/demo-news");
    pages.extend(site("gold/tinker-blog"));
    pages
}

fn sorted_lines(s: &str) -> Vec<serde_json::Value> {
    let mut v: Vec<serde_json::Value> = s.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    v.sort_by(|a, b| a["url"].as_str().cmp(&b["url"].as_str()));
    v
}

#[test]
fn a_warc_gives_a_wrapper_per_host_and_the_articles_of_every_page() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let file = tmp.path().join("crawl.warc.gz");
    warc(&file, &all_pages(), true);

    // The truncated record is a skipped input: exit 3, the rest done.
    let o = forest(&store, &["induce", "--warc", p(&file)]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let hosts: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(hosts, ["riverside-gazette.example", "tinkernotes.example"], "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("1 hosts with fewer than 3 pages"), "{err}");
    assert!(err.contains("1 not 200") && err.contains("1 not HTML") && err.contains("1 bad"), "{err}");

    let o = forest(&store, &["apply", "--warc", p(&file), "--format", "jsonl"]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    // The damaged record is named: the archive, where it stands, what is wrong.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("skipped a record of {}", file.display())), "{err}");
    let rows = sorted_lines(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(rows.len(), 12);
    for r in &rows {
        let url = r["url"].as_str().unwrap();
        if url.contains("lonely.example") {
            assert_eq!(r["rule"], "single-page");
            let c = r["confidence"].as_f64().unwrap();
            assert!((0.5..1.0).contains(&c), "a clean article no second extractor checked: confident, not certain: {c}");
            assert!(r["text"].as_str().unwrap().contains("The only page of its site"));
        } else {
            assert_eq!(r["rule"], "exact", "{url}");
        }
    }
    // The same articles as applying the stored wrappers to the files themselves.
    let bridge = rows.iter().find(|r| r["url"].as_str().unwrap().ends_with("bridge-repair.html")).unwrap();
    let from_file = ok(&forest(&store, &["apply", p(&root().join("feeds/demo-news/bridge-repair.html")), "--format", "jsonl"]));
    let from_file: serde_json::Value = serde_json::from_str(&from_file).unwrap();
    assert_eq!(bridge["text"], from_file["text"]);
    assert_eq!(bridge["byline"], "Dana Whitfield");
}

#[test]
fn two_shards_give_the_same_articles_and_index_as_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let pages = all_pages();
    let (whole, a, b) = (tmp.path().join("all.warc.gz"), tmp.path().join("a.warc.gz"), tmp.path().join("b.warc.gz"));
    warc(&whole, &pages, false);
    let (even, odd): (Vec<_>, Vec<_>) = pages.iter().cloned().enumerate().partition(|(i, _)| i % 2 == 0);
    warc(&a, &even.into_iter().map(|(_, p)| p).collect::<Vec<_>>(), false);
    warc(&b, &odd.into_iter().map(|(_, p)| p).collect::<Vec<_>>(), true);
    ok(&forest(&store, &["induce", "--warc", p(&whole)]));

    // Shard b ends in a truncated record: its run exits 3 (skipped input), its articles are out.
    let run = |file: &Path, index: &Path| {
        let o = forest(&store, &["apply", "--warc", p(file), "--format", "jsonl", "--index", p(index)]);
        let want = if file == b.as_path() { 3 } else { 0 };
        assert_eq!(o.status.code(), Some(want), "{}: {}", file.display(), String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let one = run(&whole, &tmp.path().join("idx-all"));
    let mut shards = run(&a, &tmp.path().join("idx-a"));
    shards.push_str(&run(&b, &tmp.path().join("idx-b")));
    // The lone page is in both shard files: articles are keyed by URL.
    let mut merged = sorted_lines(&shards);
    merged.dedup_by(|x, y| x["url"] == y["url"]);
    assert_eq!(merged, sorted_lines(&one));

    let into = tmp.path().join("idx-merged");
    ok(&forest(&store, &["merge-index", p(&into), p(&tmp.path().join("idx-a")), p(&tmp.path().join("idx-b"))]));
    for q in ["bridge", "raspberry backups", "\"flood warning\"", "keyboard"] {
        let search = |dir: &str| {
            let out = ok(&forest(&store, &["search", p(&tmp.path().join(dir)), q, "--json"]));
            let hits: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
            hits.iter().map(|h| h["url"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        };
        assert_eq!(search("idx-merged"), search("idx-all"), "{q}");
    }
}

#[test]
fn the_index_finds_articles_and_a_url_added_again_replaces_its_article() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let index = tmp.path().join("idx");
    ok(&forest(&store, &["induce", p(&root().join("feeds/demo-news"))]));
    for _ in 0..2 {
        ok(&forest(&store, &["apply", p(&root().join("feeds/demo-news")), "--index", p(&index), "--format", "jsonl"]));
    }
    let out = ok(&forest(&store, &["search", p(&index), "bridge joints", "--json"]));
    let hits: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(hits[0]["url"], "https://riverside-gazette.example/2024/03/bridge-repair.html");
    assert!(hits[0]["snippet"].as_str().unwrap().contains('«'), "{}", hits[0]["snippet"]);
    let all = ok(&forest(&store, &["search", p(&index), "riverside", "--json", "--limit", "100"]));
    let all: Vec<serde_json::Value> = serde_json::from_str(&all).unwrap();
    // A limit past the index's size asks for nothing more (it panicked inside tantivy once).
    let most = ok(&forest(&store, &["search", p(&index), "riverside", "--json", "--limit", &u64::MAX.to_string()]));
    assert_eq!(serde_json::from_str::<Vec<serde_json::Value>>(&most).unwrap().len(), all.len());
    let mut urls: Vec<&str> = all.iter().map(|h| h["url"].as_str().unwrap()).collect();
    urls.sort();
    urls.dedup();
    assert_eq!(urls.len(), all.len(), "a URL twice in the index");
    // Human-readable results name the title and URL.
    let text = ok(&forest(&store, &["search", p(&index), "library"]));
    assert!(text.starts_with("1. "), "{text}");
    let o = forest(&store, &["search", p(&tmp.path().join("nothing-here")), "x"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn an_indexing_run_killed_midway_leaves_an_index_that_opens_and_completes_without_duplicates() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let index = tmp.path().join("idx");
    // 600 pages: the demo site's six under 100 URLs each.
    let mut pages = Vec::new();
    for (url, body) in site("feeds/demo-news") {
        for k in 0..100 {
            pages.push((format!("{url}?copy={k}"), body.clone()));
        }
    }
    let file = tmp.path().join("big.warc.gz");
    warc(&file, &pages, false);
    ok(&forest(&store, &["induce", p(&root().join("feeds/demo-news"))]));
    let args = ["apply", "--warc", p(&file), "--index", p(&index), "--batch", "7", "--format", "jsonl", "-q"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_forest"))
        .args(args)
        .env("FOREST_STORE", &store)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it mid-way: once 100 articles are out (14 batches of 7 committed), long before 600.
    let stdout = child.stdout.take().unwrap();
    let lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
    let mut seen = 0;
    for line in lines {
        if line.is_err() {
            break;
        }
        seen += 1;
        if seen == 100 {
            break;
        }
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    let killed = !status.success();
    let count = |out: &str| serde_json::from_str::<Vec<serde_json::Value>>(out).unwrap().len();
    let search = || ok(&forest(&store, &["search", p(&index), "riverside robotics", "--json", "--limit", "1000"]));
    let partial = count(&search());
    assert!(killed && (98..600).contains(&partial), "killed: {killed}, {partial} articles after the kill");
    // Run again to completion: every URL once.
    ok(&forest(&store, &args));
    let out = search();
    let hits: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    let mut urls: Vec<&str> = hits.iter().map(|h| h["url"].as_str().unwrap()).collect();
    urls.sort();
    urls.dedup();
    assert_eq!((urls.len(), hits.len()), (600, 600), "killed: {killed}, partial: {partial}");
}

#[test]
fn names_from_urls_never_escape_the_output_folder_nor_overwrite() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let page = std::fs::read(root().join("feeds/demo-news/bridge-repair.html")).unwrap();
    let long = "a".repeat(400);
    let urls = [
        "https://x.example/..".to_string(),
        "https://x.example/%2e%2e%2f%2e%2e%2fescaped".to_string(),
        "https://x.example/a/%2Fetc%2Fpasswd".to_string(),
        "https://x.example/CON".to_string(),
        "https://x.example/nul.html".to_string(),
        "https://x.example/%00zero".to_string(),
        format!("https://x.example/{long}"),
        "https://x.example/same.html".to_string(),
        "https://y.example/same.html".to_string(),
        "https://x.example/.hidden".to_string(),
    ];
    let pages: Vec<(String, Vec<u8>)> = urls.iter().map(|u| (u.clone(), page.clone())).collect();
    let file = tmp.path().join("names.warc.gz");
    warc(&file, &pages, false);
    let out = tmp.path().join("out");
    let o = forest(&store, &["apply", "--warc", p(&file), "--out-dir", p(&out), "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Every page (and the lone page of the helper's WARC) is one file directly in `out`.
    let names: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), urls.len() + 1, "{names:?}");
    for n in &names {
        assert!(!n.starts_with('.') && n.len() <= 110 && !n.contains(['/', '\\', '\0']), "{n:?}");
        assert!(!["CON.txt", "NUL.txt", "nul.txt"].contains(&n.as_str()), "{n:?}");
    }
    assert!(names.contains(&"same.txt".to_string()) && names.contains(&"same-2.txt".to_string()), "{names:?}");
    // Nothing was written beside the output folder.
    let beside: Vec<String> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    let mut beside = beside;
    beside.sort();
    assert_eq!(beside, ["names.warc.gz", "out"], "{beside:?}");
}

#[test]
fn part_of_the_work_done_is_exit_code_3_with_each_skip_named() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let good = tmp.path().join("good.warc.gz");
    warc(&good, &all_pages(), false);
    let missing = tmp.path().join("missing.warc.gz");
    // An archive that cannot be opened, after one that was read.
    let o = forest(&store, &["apply", "--warc", p(&good), "--warc", p(&missing), "--format", "jsonl"]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    let named = |err: &str, file: &std::path::Path| err.lines().any(|l| l.starts_with("forest: skipped") && l.contains(&file.display().to_string()));
    assert!(named(&String::from_utf8_lossy(&o.stderr), &missing), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!o.stdout.is_empty());
    let o = forest(&store, &["apply", "--warc", p(&missing), "--format", "jsonl"]);
    assert_eq!(o.status.code(), Some(1), "nothing done");
    // A shard that cannot be merged, after one that was.
    let (index, shard) = (tmp.path().join("idx"), tmp.path().join("shard"));
    ok(&forest(&store, &["apply", "--warc", p(&good), "--index", p(&shard), "--format", "jsonl"]));
    let o = forest(&store, &["merge-index", p(&index), p(&shard), p(&tmp.path().join("no-shard"))]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("skipped"));
    // Two site configs, one that does not parse.
    let (a, b) = (tmp.path().join("a.example.txt"), tmp.path().join("b.example.txt"));
    std::fs::write(&a, "body: //article\n").unwrap();
    std::fs::write(&b, "body: //div[\n").unwrap();
    // One that parses but that apply could not use (the XPath its strip value makes is too long).
    let c = tmp.path().join("c.example.txt");
    std::fs::write(&c, format!("strip_id_or_class: {}\n", "x".repeat(5000))).unwrap();
    let o = forest(&store, &["wrappers", "import", p(&a), p(&b), p(&c)]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("imported") && named(&err, &b), "{err}");
    assert!(named(&err, &c) && err.contains("more characters"), "{err}");
}
