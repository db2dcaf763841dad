//! `forest induce <feed-url>` over a loopback server: relative links, fetched pages, a 404.

mod common;

use common::{serve, Reply};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

#[test]
fn induce_from_a_feed_url_fetches_the_pages() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/demo-news");
    let ids = ["bridge-repair", "library-opens", "council-budget", "marathon-record"];
    let mut routes = HashMap::new();
    let mut items = String::new();
    for id in ids {
        let html = std::fs::read(demo.join(format!("{id}.html"))).unwrap();
        routes.insert(format!("/news/{id}.html"), Reply::ok("text/html; charset=utf-8", html));
        items.push_str(&format!("<item><title>{id}</title><link>{id}.html</link><guid>{id}</guid></item>"));
    }
    items.push_str("<item><title>gone</title><link>gone.html</link><guid>gone</guid></item>");
    let feed = format!("<?xml version='1.0'?><rss version='2.0'><channel><title>Loopback</title>{items}</channel></rss>");
    routes.insert("/news/feed.xml".into(), Reply::ok("application/rss+xml", feed));
    let server = serve(routes, 50);

    let tmp = tempfile::tempdir().unwrap();
    let wrapper = tmp.path().join("w.json");
    let o = Command::new(env!("CARGO_BIN_EXE_forest"))
        .args(["induce", &format!("{}/news/feed.xml", server.base), "--out", wrapper.to_str().unwrap()])
        .args(["--cache", tmp.path().join("cache").to_str().unwrap(), "--retries", "0"])
        .env("FOREST_STORE", tmp.path().join("store"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    // One page is missing (404): induce goes on with the others, lists it and exits 3.
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("gone.html") && stderr.contains("404"), "{stderr}");
    let xpath = String::from_utf8_lossy(&o.stdout);
    assert!(xpath.contains("article-body"), "{xpath}");
    let w: serde_json::Value = serde_json::from_slice(&std::fs::read(&wrapper).unwrap()).unwrap();
    assert_eq!(w["site"], "Loopback");
    assert!(w["pages"][0].as_str().unwrap().starts_with(&server.base));
    let hits = server.hits.lock().unwrap();
    for id in ids {
        assert_eq!(hits.get(&format!("/news/{id}.html")), Some(&1), "each page fetched once");
    }
}
