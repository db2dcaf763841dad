//! Learning a site on the fly: `forest apply URL` for a host without stored rules finds sample
//! pages in the site's sitemap (named by `robots.txt`), honours `robots.txt`, induces, stores
//! and applies the wrapper; later pages of the host use the stored wrapper.

mod common;

use common::cli::{forest, root};
use common::pages::{prose, WORDS};
use common::{Reply, Site};
use std::time::Duration;

/// The bundled demo site's folder and its page files, sorted.
fn demo_pages() -> (std::path::PathBuf, Vec<String>) {
    let dir = root().join("feeds/demo-news");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".html"))
        .collect();
    names.sort();
    (dir, names)
}

#[test]
fn a_url_of_an_unknown_site_is_learned_from_its_sitemap_and_robots_is_honoured() {
    // The bundled demo site (six pages of one template) under `/news/2024/`, a sitemap that
    // lists them and a page of another shape, and a robots.txt that names the sitemap and
    // disallows one page.
    let (dir, names) = demo_pages();
    let (listener, base) = common::listener();
    let mut site = Site::new();
    let mut urls = String::new();
    for (i, n) in names.iter().enumerate() {
        site = site.at(&format!("/news/2024/{n}"), Reply::ok("text/html; charset=utf-8", std::fs::read(dir.join(n)).unwrap()));
        urls.push_str(&format!("<url><loc>{base}/news/2024/{n}</loc><lastmod>2024-0{}-01</lastmod></url>", i + 1));
    }
    urls.push_str(&format!("<url><loc>{base}/about</loc></url>"));
    let disallowed = &names[1];
    site = site
        .at("/about", Reply::ok("text/html", "<html><body><p>About us</p></body></html>"))
        .at("/robots.txt", Reply::ok("text/plain", format!("User-agent: *\nDisallow: /news/2024/{disallowed}\nSitemap: {base}/maps/site.xml\n")))
        .at("/maps/site.xml", Reply::ok("application/xml", format!("<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{urls}</urlset>")));
    let server = site.serve_on(listener, 200);

    let store = tempfile::tempdir().unwrap();
    let page = format!("{base}/news/2024/{}", names[0]);
    let o = forest(store.path(), &["apply", &page, "--format", "json", "--no-cache", "--delay", "0"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("learned 127.0.0.1 from") && err.contains("sitemap"), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["rule"], "exact", "{json}");
    assert!(json["confidence"].as_f64().unwrap() > 0.5, "{json}");
    // robots.txt: the disallowed page was never fetched; the page of another shape neither.
    assert_eq!(server.hits(&format!("/news/2024/{disallowed}")), 0);
    assert_eq!(server.hits("/about"), 0);
    assert!(server.hits(&format!("/news/2024/{}", names[2])) >= 1);
    assert!(std::fs::read_dir(store.path()).unwrap().count() >= 1, "the wrapper is stored");

    // The next page of the host uses the stored wrapper: nothing is learned again.
    let maps = server.hits("/maps/site.xml");
    let o = forest(store.path(), &["apply", &format!("{base}/news/2024/{}", names[3]), "--format", "json", "--no-cache"]);
    assert!(o.status.success());
    assert!(!String::from_utf8_lossy(&o.stderr).contains("learned"));
    assert_eq!(server.hits("/maps/site.xml"), maps);

    // `induce` reads the sitemap too: named, or found through robots.txt from a page.
    for source in [format!("{base}/maps/site.xml"), page.clone()] {
        let fresh = tempfile::tempdir().unwrap();
        let o = forest(fresh.path(), &["induce", &source, "--no-cache", "--format", "json"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{source}: {err}");
        let w: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let pages = w["pages"].as_array().unwrap();
        assert_eq!(pages.len(), names.len() - 1, "{source}: every page but the disallowed one? {pages:?}");
        assert!(pages.iter().all(|p| p.as_str().unwrap().contains("/news/2024/")), "one URL shape: {pages:?}");
    }

    // --no-learn keeps the single-page path.
    let empty = tempfile::tempdir().unwrap();
    let o = forest(empty.path(), &["apply", &page, "--format", "json", "--no-cache", "--no-learn"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["rule"], "single-page");
    server.stop();
}

#[test]
fn posts_at_the_root_of_a_site_find_their_siblings() {
    // The demo pages as a blog puts them: each at the root, as a file (`/bridge-repair.html`)
    // or a slug (`/bridge-repair/`), in a sitemap beside one-word pages of the site.
    let (dir, names) = demo_pages();
    for slug in [false, true] {
        let (listener, base) = common::listener();
        let mut site = Site::new();
        let mut urls = String::new();
        let path = |n: &str| if slug { format!("/{}/", n.trim_end_matches(".html")) } else { format!("/{n}") };
        for n in &names {
            site = site.at(&path(n), Reply::ok("text/html; charset=utf-8", std::fs::read(dir.join(n)).unwrap()));
            urls.push_str(&format!("<url><loc>{base}{}</loc></url>", path(n)));
        }
        for one in ["/about", "/contact"] {
            urls.push_str(&format!("<url><loc>{base}{one}</loc></url>"));
            site = site.at(one, Reply::ok("text/html", "<html><body><p>About us</p></body></html>"));
        }
        site = site.at("/sitemap.xml", Reply::ok("application/xml", format!("<urlset>{urls}</urlset>")));
        let server = site.serve_on(listener, 200);
        let store = tempfile::tempdir().unwrap();
        let page = format!("{base}{}", path(&names[0]));
        let o = forest(store.path(), &["apply", &page, "--format", "json", "--no-cache", "--delay", "0"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert!(err.contains("learned 127.0.0.1 from"), "slug {slug}: {err}");
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(json["rule"], "exact", "slug {slug}: {json}");
        // The one-word pages are of another shape: never fetched.
        assert_eq!(server.hits("/about") + server.hits("/contact"), 0);
        server.stop();
    }
}

#[test]
fn a_site_with_neither_feed_nor_sitemap_is_learned_from_the_links_of_its_home_page() {
    // The demo pages link to no sibling and name no feed; the site has no sitemap; its home
    // page lists them.
    let (dir, names) = demo_pages();
    let mut site = Site::new();
    let mut list = String::new();
    for n in &names {
        let html = std::fs::read_to_string(dir.join(n)).unwrap();
        let html = html.replace("rel=\"alternate\"", "rel=\"x\"");
        site = site.at(&format!("/news/2024/{n}"), Reply::ok("text/html; charset=utf-8", html));
        list.push_str(&format!("<li><a href=\"/news/2024/{n}\">{n}</a></li>"));
    }
    site = site.at("/", Reply::ok("text/html", format!("<html><body><h1>Gazette</h1><ul>{list}</ul></body></html>")));
    let server = site.serve(200);
    let store = tempfile::tempdir().unwrap();
    let o = forest(store.path(), &["apply", &server.url(&format!("/news/2024/{}", names[0])), "--format", "json", "--no-cache", "--retries", "0"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("learned 127.0.0.1 from") && err.contains("links of http"), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["rule"], "exact", "{err}");
    server.stop();
}

#[test]
fn a_site_with_nothing_to_learn_from_gets_the_single_page_path_and_says_why() {
    let site = Site::new().at("/only.html", Reply::ok("text/html", std::fs::read(root().join("feeds/demo-news/bridge-repair.html")).unwrap()));
    let server = site.serve(50);
    let store = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let o = forest(store.path(), &["apply", &server.url("/only.html"), "--format", "json", "--no-cache", "--retries", "0"]);
    assert!(started.elapsed() < Duration::from_secs(60));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("could not learn 127.0.0.1"), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["rule"], "single-page");
    server.stop();
}

#[test]
fn a_full_text_feed_has_every_item_with_its_article_and_a_rerun_only_revalidates() {
    let dir = root().join("feeds/demo-news");
    let (listener, base) = common::listener();
    let feed = std::fs::read_to_string(dir.join("feed.xml")).unwrap().replace("https://riverside-gazette.example/", &format!("{base}/"));
    let mut site = Site::new().at("/feed.xml", Reply::ok("application/rss+xml", feed.clone()).etag("f1"));
    let mut paths = Vec::new();
    for item in feed_rs::parser::parse(feed.as_bytes()).unwrap().entries {
        let link = item.links[0].href.clone();
        let path = link.trim_start_matches(&base).to_string();
        let file = path.rsplit('/').next().unwrap().to_string();
        site = site.at(&path, Reply::ok("text/html; charset=utf-8", std::fs::read(dir.join(&file)).unwrap()).etag("p1"));
        paths.push(path);
    }
    let server = site.serve_on(listener, 300);
    let store = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let out = store.path().join("full.xml");
    let run = || {
        let o = forest(store.path(), &["feed", &format!("{base}/feed.xml"), "--out", out.to_str().unwrap(), "--cache", cache.path().to_str().unwrap(), "--delay", "0"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run();
    let full = feed_rs::parser::parse(std::fs::read(&out).unwrap().as_slice()).expect("the full-text feed parses");
    assert_eq!(full.entries.len(), paths.len());
    for e in &full.entries {
        let body = e.content.as_ref().and_then(|c| c.body.clone()).unwrap_or_default();
        assert!(body.contains("<p>") && body.len() > 500, "{:?}: {body}", e.title);
    }
    let first: Vec<usize> = paths.iter().map(|p| server.requests(p).len()).collect();
    // Unchanged server: every page is asked for again only conditionally.
    run();
    for (p, n) in paths.iter().zip(first) {
        let again = &server.requests(p)[n..];
        assert!(!again.is_empty() && again.iter().all(|r| r.header("if-none-match") == Some("p1")), "{p}");
    }
    server.stop();
}

/// A news page before the site's redesign, and after it.
fn old_design(i: usize) -> String {
    format!(
        "<html><head><title>Story {i}</title></head><body><header class='masthead'><a href='/'>Home</a></header><main class='news'>\
         <article class='story'><h1>Story {i} {}</h1>{}</article><aside class='related'><a href='/x'>More</a></aside></main></body></html>",
        WORDS[i % 20],
        prose(i, 8)
    )
}

fn new_design(i: usize) -> String {
    format!(
        "<html><head><title>Story {i}</title></head><body><div class='top-bar'><nav><ul><li><a href='/'>Home</a></li></ul></nav></div>\
         <div class='layout'><div class='col-main'><section class='post'><h2 class='post-title'>Story {i} {}</h2><div class='post-text'>{}</div></section></div>\
         <div class='col-side'><ul class='trending'><li><a href='/t1'>Trending one</a></li><li><a href='/t2'>Trending two</a></li></ul><p>Advertisement</p></div></div></body></html>",
        WORDS[(i + 3) % 20],
        prose(i + 30, 8)
    )
}

#[test]
fn a_site_that_changed_its_template_is_detected_and_learned_again() {
    let (listener, base) = common::listener();
    let mut site = Site::new();
    let mut urls = String::new();
    for i in 0..12 {
        site = site.at(&format!("/news/s{i}.html"), Reply::ok("text/html", new_design(i)));
        urls.push_str(&format!("<url><loc>{base}/news/s{i}.html</loc></url>"));
    }
    site = site.at("/sitemap.xml", Reply::ok("application/xml", format!("<urlset>{urls}</urlset>")));
    let server = site.serve_on(listener, 400);
    let store = tempfile::tempdir().unwrap();

    // The wrapper learned from the site before its redesign.
    let old = tempfile::tempdir().unwrap();
    for i in 0..4 {
        std::fs::write(old.path().join(format!("o{i}.html")), old_design(100 + i)).unwrap();
    }
    let o = forest(store.path(), &["induce", old.path().to_str().unwrap(), "--host", "127.0.0.1", "--format", "json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let old_xpath = serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["xpath"].clone();

    // Five pages of the new design: the wrapper fails on them, and the drift is said.
    let pages: Vec<String> = (0..5).map(|i| format!("{base}/news/s{i}.html")).collect();
    let mut args = vec!["apply", "--no-cache", "-j", "1", "--format", "jsonl"];
    args.extend(pages.iter().map(String::as_str));
    let o = forest(store.path(), &args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(err.contains("failed on") && err.contains("may have changed"), "{err}");
    let list = forest(store.path(), &["wrappers", "list", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(rows[0]["drifted"], true, "{rows}");

    // --relearn learns the site again from its sitemap; its new pages get the new template,
    // the old design keeps its own.
    let o = forest(store.path(), &["apply", "--no-cache", "--relearn", "--format", "json", &format!("{base}/news/s5.html")]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(err.contains("learned again"), "{err}");
    let o = forest(store.path(), &["apply", "--no-cache", "--format", "json", &format!("{base}/news/s6.html")]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["rule"], "exact", "{json}");
    assert_ne!(json["xpath"], old_xpath);
    let w: serde_json::Value = serde_json::from_slice(&std::fs::read(store.path().join("127.0.0.1.json")).unwrap()).unwrap();
    assert_eq!(w["others"].as_array().map(Vec::len), Some(1), "the old design's template is kept");

    // And the change can be undone.
    let o = forest(store.path(), &["wrappers", "undo", "127.0.0.1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let w: serde_json::Value = serde_json::from_slice(&std::fs::read(store.path().join("127.0.0.1.json")).unwrap()).unwrap();
    assert_eq!(w["xpath"], old_xpath);
    server.stop();
}

/// The demo site's pages under `/news/2024/`, a sitemap of them, and the given `robots.txt`
/// reply; the first page is the one asked for. Returns the server, its base URL and the pages.
fn demo_site_with_robots(robots: Reply) -> (common::Server, String, Vec<String>) {
    demo_site(robots, |_, r| r)
}

/// [`demo_site_with_robots`], each page's reply (by its position) made by `reply`.
fn demo_site(robots: Reply, reply: impl Fn(usize, Reply) -> Reply) -> (common::Server, String, Vec<String>) {
    let (dir, names) = demo_pages();
    let (listener, base) = common::listener();
    let mut site = Site::new().at("/robots.txt", robots);
    let mut urls = String::new();
    for (i, n) in names.iter().enumerate() {
        site = site.at(&format!("/news/2024/{n}"), reply(i, Reply::ok("text/html; charset=utf-8", std::fs::read(dir.join(n)).unwrap())));
        urls.push_str(&format!("<url><loc>{base}/news/2024/{n}</loc></url>"));
    }
    site = site.at("/sitemap.xml", Reply::ok("application/xml", format!("<urlset>{urls}</urlset>")));
    (site.serve_on(listener, 400), base, names)
}

#[test]
fn robots_txt_is_read_as_rfc_9309_says() {
    // Each robots.txt reply, with what it must do; the rules disallow /news/2024/f… (the flood
    // warning page).
    let lines = format!("{}User-agent: *\nDisallow: /news/2024/f\n", "# a comment line\n".repeat(10_001));
    let megabytes = format!("User-agent: *\nDisallow: /news/2024/f\n{}", "# padding padding padding padding\n".repeat(400_000));
    let cases: Vec<(Reply, &str)> = vec![
        (Reply::status(503), "a robots.txt that answers 5xx allows nothing"),
        (Reply::ok("text/plain", lines), "a rule after line 10,000 (within 500 KiB) holds"),
        (Reply::ok("text/plain", megabytes), "a robots.txt of 13 MB: its first 500 KiB are read"),
    ];
    for (robots, case) in cases {
        let (server, base, names) = demo_site_with_robots(robots);
        let store = tempfile::tempdir().unwrap();
        let page = format!("{base}/news/2024/{}", names[0]);
        let started = std::time::Instant::now();
        let o = forest(store.path(), &["apply", &page, "--format", "json", "--no-cache", "--delay", "0", "--retries", "1"]);
        assert!(started.elapsed() < Duration::from_secs(60), "{case}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{case}: {err}");
        for n in &names[1..] {
            let path = format!("/news/2024/{n}");
            if case.contains("5xx") || n.starts_with('f') {
                assert_eq!(server.hits(&path), 0, "{case}: {path} was fetched");
            }
        }
        if case.contains("5xx") {
            assert_eq!(server.hits("/sitemap.xml"), 0, "{case}");
            let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(json["rule"], "single-page", "{case}");
        }
        server.stop();
    }
}

#[test]
fn a_robots_txt_of_many_rules_and_a_long_sitemap_take_little_time() {
    // Twenty thousand wildcard rules, none matching: each page taken is checked, in linear time.
    let rules: String = (0..20_000).map(|i| format!("Disallow: /*x{i}*y*z$\n")).collect();
    let (server, base, names) = demo_site_with_robots(Reply::ok("text/plain", format!("User-agent: *\n{rules}")));
    let store = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let o = forest(store.path(), &["induce", &format!("{base}/sitemap.xml"), "--no-cache", "--delay", "0", "--format", "json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    let w: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(w["pages"].as_array().unwrap().len(), names.len());
    server.stop();
}

#[test]
fn a_slow_site_does_not_cost_the_page_asked_for() {
    // The page answers at once; every other page of the site takes 8 s.
    let (server, base, names) = demo_site(Reply::status(404), |i, r| if i == 0 { r } else { r.after(Duration::from_secs(8)) });
    let store = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let page = format!("{base}/news/2024/{}", names[0]);
    // The page's own budget (--max-seconds 1) starts again once learning gave up.
    let o = forest(store.path(), &["apply", &page, "--format", "json", "--no-cache", "--learn-seconds", "2", "--max-seconds", "1", "--retries", "0"]);
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("learning took longer than 2 s"), "{err}");
    assert!(took < Duration::from_secs(7), "the page waited for the samples: {took:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["rule"], "single-page");
    assert!(json["text"].as_str().unwrap().contains("Elm Street"), "{json}");
    server.stop();
}

#[test]
fn six_corpus_sites_with_their_pages_at_the_root_are_learned_on_the_fly() {
    // Six sites of ../shared/corpus, spread over it, each served on loopback with its pages at
    // the root (`/climate-1.html`), a feed and a sitemap of them, and a robots.txt naming the
    // sitemap: two pages of each, asked for with `forest apply`, get a learned wrapper, and their
    // articles score as the gold says.
    let corpus = root().join("../shared/corpus");
    let Ok(entries) = std::fs::read_dir(&corpus) else {
        eprintln!("skipped: {} is absent", corpus.display());
        return;
    };
    let mut sites: Vec<std::path::PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    sites.sort();
    let step = (sites.len() / 6).max(1);
    let mut f1 = Vec::new();
    for site_dir in sites.iter().step_by(step).take(6) {
        let mut names: Vec<String> = std::fs::read_dir(site_dir).unwrap().flatten().filter_map(|e| e.file_name().into_string().ok()).filter(|n| n.ends_with(".html")).collect();
        names.sort();
        let (listener, base) = common::listener();
        let mut site = Site::new();
        let (mut urls, mut items) = (String::new(), String::new());
        for n in &names {
            site = site.at(&format!("/{n}"), Reply::ok("text/html", std::fs::read(site_dir.join(n)).unwrap()));
            urls.push_str(&format!("<url><loc>{base}/{n}</loc></url>"));
            items.push_str(&format!("<item><title>{n}</title><link>{base}/{n}</link></item>"));
        }
        site = site
            .at("/sitemap.xml", Reply::ok("application/xml", format!("<urlset>{urls}</urlset>")))
            .at("/feed.xml", Reply::ok("application/rss+xml", format!("<rss version=\"2.0\"><channel><title>s</title><link>{base}/</link>{items}</channel></rss>")))
            .at("/robots.txt", Reply::ok("text/plain", format!("User-agent: *\nSitemap: {base}/sitemap.xml\n")));
        let server = site.serve_on(listener, 500);
        let store = tempfile::tempdir().unwrap();
        for n in names.iter().take(2) {
            let o = forest(store.path(), &["apply", &format!("{base}/{n}"), "--format", "json", "--no-cache", "--retries", "0"]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{err}");
            let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_ne!(json["rule"], "single-page", "{}/{n}: {err}", site_dir.display());
            let gold = std::fs::read_to_string(site_dir.join(n.replace(".html", ".txt"))).unwrap();
            f1.push(forest::bench::score::score(&gold, json["text"].as_str().unwrap()).f1);
        }
        server.stop();
    }
    let mean = f1.iter().sum::<f64>() / f1.len() as f64;
    eprintln!("12 pages of six sites, site-level F1 {mean:.4}");
    assert!(mean >= 0.95, "{f1:?}");
}
