//! The wrapper ecosystem end to end: the store (two sites, apply picks each page's wrapper),
//! every output format, page metadata in JSON, and FiveFilters site configs both ways.

mod common;

use common::cli::{forest, ok, p, root};
use std::path::{Path, PathBuf};

fn demo() -> PathBuf {
    root().join("feeds/demo-news")
}

fn blog() -> PathBuf {
    root().join("gold/tinker-blog")
}

fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "html")).collect();
    v.sort();
    v
}

#[test]
fn the_store_serves_each_page_the_wrapper_of_its_host() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let (w_news, w_blog) = (tmp.path().join("news.json"), tmp.path().join("blog.json"));
    ok(&forest(&store, &["induce", p(&demo()), "--out", p(&w_news)]));
    ok(&forest(&store, &["induce", p(&blog()), "--out", p(&w_blog)]));

    let list = ok(&forest(&store, &["wrappers", "list"]));
    let hosts: Vec<&str> = list.lines().map(|l| l.split('\t').next().unwrap_or("")).collect();
    assert_eq!(hosts, ["riverside-gazette.example", "tinkernotes.example"], "{list}");

    // Without --wrapper, each page gets its own site's wrapper: the same text as with it.
    let (news_page, blog_page) = (demo().join("bridge-repair.html"), blog().join("home-vlans.html"));
    for (page, wrapper) in [(&news_page, &w_news), (&blog_page, &w_blog)] {
        let stored = ok(&forest(&store, &["apply", p(page)]));
        let explicit = ok(&forest(&store, &["apply", "--wrapper", p(wrapper), p(page)]));
        assert_eq!(stored, explicit, "{}", page.display());
    }
    // Both sites in one run, in input order.
    let both = ok(&forest(&store, &["apply", p(&news_page), p(&blog_page), "--format", "jsonl"]));
    let xpaths: Vec<String> = both
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["xpath"].as_str().unwrap().to_string())
        .collect();
    let w = |f: &Path| serde_json::from_slice::<serde_json::Value>(&std::fs::read(f).unwrap()).unwrap()["xpath"].clone();
    assert_eq!(xpaths, [w(&w_news), w(&w_blog)]);

    // show, rm, and a page whose host has no wrapper.
    let shown = ok(&forest(&store, &["wrappers", "show", "https://www.tinkernotes.example/x"]));
    assert!(shown.contains("\"format\": \"forest-wrapper\""));
    ok(&forest(&store, &["wrappers", "rm", "tinkernotes.example"]));
    // It still gets an article, from the single-page extractor, and one line on how to do better;
    // with --require-wrapper it is skipped instead.
    let o = forest(&store, &["apply", p(&blog_page), "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    assert_eq!(json["rule"].as_str(), Some("single-page"));
    assert!((0.5..1.0).contains(&json["confidence"].as_f64().unwrap()), "{json}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no stored wrapper for tinkernotes.example") && err.contains("forest induce"), "{err}");
    let o = forest(&store, &["apply", p(&blog_page), "--require-wrapper"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no stored wrapper for tinkernotes.example"), "{err}");
    let o = forest(&store, &["wrappers", "rm", "tinkernotes.example"]);
    assert_eq!(o.status.code(), Some(1));
    // A host that would name a path outside the store is refused.
    let o = forest(&store, &["wrappers", "rm", "../../etc"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a host name"));
}

#[test]
fn json_output_carries_the_declared_byline_date_url_and_html() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let w = tmp.path().join("w.json");
    ok(&forest(&store, &["induce", p(&demo()), "--out", p(&w), "--no-store"]));
    assert!(!store.exists(), "--no-store wrote to the store");
    let out = ok(&forest(&store, &["apply", "--wrapper", p(&w), p(&demo().join("bridge-repair.html")), "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["byline"], "Dana Whitfield");
    assert_eq!(v["published"], "2024-03-04T08:00:00-05:00");
    assert_eq!(v["url"], "https://riverside-gazette.example/2024/03/bridge-repair.html");
    assert_eq!(v["host"], "riverside-gazette.example");
    assert_eq!(v["lang"], "en");
    assert_eq!(v["title"], "Elm Street Bridge to Close for Six Weeks of Repairs");
    assert_eq!(v["rule"], "exact");
    assert!(v["confidence"].as_f64().unwrap() > 0.5, "{v}");
    assert!(v["text"].as_str().unwrap().starts_with("Elm Street Bridge to Close"));
    assert!(v["html"].as_str().unwrap().contains("<p>"), "{}", v["html"]);
    // Several pages: a JSON array.
    let out = ok(&forest(&store, &["apply", "--wrapper", p(&w), p(&demo()), "--format", "json"]));
    let all: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(all.len(), 6);
}

#[test]
fn every_output_format_renders_the_article() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let w = tmp.path().join("w.json");
    ok(&forest(&store, &["induce", p(&demo()), "--out", p(&w)]));
    let page = demo().join("bridge-repair.html");
    let run = |format: &str| ok(&forest(&store, &["apply", "--wrapper", p(&w), p(&page), "--format", format]));

    let md = run("markdown");
    assert!(md.starts_with("# Elm Street Bridge to Close for Six Weeks of Repairs\n\n"), "{md}");
    let html = run("html");
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<title>Elm Street Bridge"), "{html}");
    let xml = run("xml");
    sxd_document::parser::parse(&xml).expect("xml output is well-formed");
    assert!(xml.contains(" dfs=\""));
    let text = run("text");
    let jsonl = run("jsonl");
    assert_eq!(jsonl.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&jsonl).unwrap();
    assert_eq!(format!("{}\n", v["text"].as_str().unwrap()), text);
    // The same words in every format: markdown and HTML lose nothing of the text.
    for word in ["Mill Road", "six weeks"] {
        for (name, out) in [("text", &text), ("markdown", &md), ("html", &html), ("xml", &xml)] {
            assert!(out.contains(word), "{name} lacks {word:?}");
        }
    }
    // --out-dir: one file per page with the format's extension.
    let dir = tmp.path().join("out");
    ok(&forest(&store, &["apply", "--wrapper", p(&w), p(&demo()), "--format", "markdown", "--out-dir", p(&dir)]));
    assert!(dir.join("bridge-repair.md").is_file());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 6);
}

#[test]
fn a_fivefilters_export_applies_to_the_same_text_as_the_wrapper() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let w = tmp.path().join("w.json");
    let ftr = tmp.path().join("riverside-gazette.example.txt");
    ok(&forest(&store, &["induce", p(&demo()), "--out", p(&w)]));
    let config = ok(&forest(&store, &["induce", p(&demo()), "--format", "ftr", "--out", p(&ftr), "--no-store"]));
    assert_eq!(std::fs::read_to_string(&ftr).unwrap(), config);
    assert!(config.lines().any(|l| l.starts_with("body: //div")), "{config}");
    assert!(!config.contains("@dfs"), "{config}");
    assert!(config.lines().any(|l| l.starts_with("title: ")), "{config}");
    for page in pages(&demo()) {
        let with_wrapper = ok(&forest(&store, &["apply", "--wrapper", p(&w), p(&page)]));
        let with_config = ok(&forest(&store, &["apply", "--site-config", p(&ftr), p(&page)]));
        assert_eq!(with_config, with_wrapper, "{}", page.display());
    }
    // Imported into the store, a site config serves its host when there is no wrapper.
    let other = tmp.path().join("store2");
    ok(&forest(&other, &["wrappers", "import", p(&ftr)]));
    let list = ok(&forest(&other, &["wrappers", "list"]));
    assert!(list.starts_with("riverside-gazette.example\tsite-config\t"), "{list}");
    let page = demo().join("flood-warning.html");
    assert_eq!(
        ok(&forest(&other, &["apply", p(&page)])),
        ok(&forest(&store, &["apply", "--wrapper", p(&w), p(&page)]))
    );
}

#[test]
fn a_bad_site_config_names_its_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("bad.txt");
    std::fs::write(&cfg, "# a site\nbody: //div[@class='x']\nstrip: //div[@class=\n").unwrap();
    let o = forest(tmp.path(), &["apply", "--site-config", p(&cfg), p(&demo().join("bridge-repair.html"))]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.txt:3"), "{err}");
}
