//! `forest induce` over faulty sites on a loopback server (tests/common): pages that fail in
//! every way, partial failure and its exit code, bad and empty feeds, relative and `file:`
//! links, feed discovery, the cache (offline reruns and revalidation), and private addresses.
//!
//! Nothing here reaches beyond 127.0.0.1; every server is bounded and stops by itself; every
//! run of the binary has a deadline and its own cache folder (or `--no-cache`).

mod common;

use common::faults::*;
use common::{Reply, Site};
use forest::fetch::{FetchOptions, Fetcher, Location};
use forest::Error;
use std::time::{Duration, Instant};

// `forest induce` end to end
// ---------------------------------------------------------------------------------------------

/// A site whose feed at /news/feed.xml lists four good pages (one of them answers 500 first,
/// one 429 + Retry-After first) and one page per fault.
#[test]
fn induce_goes_on_past_every_kind_of_faulty_page() {
    let body = demo("school-robotics");
    let chunk: Vec<u8> = b"<p>filler filler filler filler</p>\n".iter().copied().cycle().take(64 * 1024).collect();
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let faults = [
        ("gone.html", "404"),
        ("slow.html", "timed out"),
        ("cut.html", "body cut short"),
        ("huge.html", "larger than the 200000-byte limit"),
        ("loop.html", "redirect"),
        ("photo.html", "not an HTML page"),
    ];
    let mut links = vec!["bridge-repair.html", "council-budget.html", "flood-warning.html", "library-opens.html"];
    links.extend(faults.iter().map(|(l, _)| *l));
    let server = Site::new()
        .at("/news/feed.xml", Reply::ok(RSS, rss("Loopback Gazette", &links)))
        .at("/news/bridge-repair.html", Reply::ok(HTML, demo("bridge-repair")))
        .seq("/news/council-budget.html", vec![Reply::status(500), Reply::ok(HTML, demo("council-budget"))])
        .seq(
            "/news/flood-warning.html",
            vec![Reply::status(429).header("Retry-After", "1"), Reply::ok(HTML, demo("flood-warning"))],
        )
        .at("/news/library-opens.html", Reply::ok(HTML, demo("library-opens")))
        .at("/news/slow.html", Reply::ok(HTML, demo("marathon-record")).after(Duration::from_secs(5)))
        .at("/news/cut.html", Reply::ok(HTML, body[..2000].to_vec()).cut_short(body.len()))
        .at("/news/huge.html", Reply::ok("text/html", chunk).stream(256 * 1024 * 1024))
        .at("/news/loop.html", Reply::redirect("/news/loop.html"))
        .at("/news/photo.html", Reply::ok("image/png", png))
        .serve(200);

    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("w.json");
    let run = induce(&server.url("/news/feed.xml"), &tmp.path().join("cache"), &out, 1, &["--max-bytes", "200000"]);
    println!("{}", run.show());
    assert_eq!(run.code, Some(3), "{}", run.show());
    assert!(run.xpath().contains("article-body"), "{}", run.show());
    for (link, cause) in faults {
        let line = run
            .stderr
            .lines()
            .find(|l| l.contains(&format!("/news/{link}")))
            .unwrap_or_else(|| panic!("{link} not listed as skipped:\n{}", run.show()));
        assert!(line.starts_with("forest: skipped") && line.contains(cause), "{link}: want {cause:?} in {line:?}");
    }
    // Retried once each and then fine.
    assert_eq!(server.hits("/news/council-budget.html"), 2);
    assert_eq!(server.hits("/news/flood-warning.html"), 2);
    let w = wrapper_json(&out);
    assert_eq!(w["site"], "Loopback Gazette");
    let pages: Vec<&str> = w["pages"].as_array().unwrap().iter().filter_map(|p| p.as_str()).collect();
    assert_eq!(pages.len(), 4, "{pages:?}");
    for good in &links[..4] {
        assert!(pages.contains(&server.url(&format!("/news/{good}")).as_str()), "{good} missing from {pages:?}");
    }
    // The huge body was abandoned at the cap (200 kB), not read to the end.
    let o = server.outcome("/news/huge.html", Duration::from_secs(10)).expect("stream ended");
    assert!(o.client_left && o.body_bytes < 32 * 1024 * 1024, "{o:?}");
    // Timeout 1 s × 2 tries + backoff bounds the slow page; all pages load in parallel.
    assert!(run.took < Duration::from_secs(12), "{:?}", run.took);
}

#[test]
fn induce_goes_on_without_a_trickled_page() {
    let links = ["/news/bridge-repair.html", "/news/council-budget.html", "/news/library-opens.html", "/news/trickle.html"];
    let server = Site::new()
        .at("/news/feed.xml", Reply::ok(RSS, rss("Trickle Times", &links)))
        .at("/news/bridge-repair.html", Reply::ok(HTML, demo("bridge-repair")))
        .at("/news/council-budget.html", Reply::ok(HTML, demo("council-budget")))
        .at("/news/library-opens.html", Reply::ok(HTML, demo("library-opens")))
        .at("/news/trickle.html", trickle_reply())
        .serve(40);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("w.json");
    let run = induce(&server.url("/news/feed.xml"), &tmp.path().join("cache"), &out, 1, &[]);
    println!("{}", run.show());
    assert_eq!(run.code, Some(3), "{}", run.show());
    let line = run.stderr.lines().find(|l| l.contains("/news/trickle.html")).unwrap_or_else(|| panic!("{}", run.show()));
    assert!(line.starts_with("forest: skipped") && line.contains("timed out"), "{line}");
    assert_eq!(server.hits("/news/trickle.html"), 2, "a timeout is retried (--retries 1)");
    let w = wrapper_json(&out);
    let pages: Vec<&str> = w["pages"].as_array().unwrap().iter().filter_map(|p| p.as_str()).collect();
    assert_eq!(pages.len(), 3, "{pages:?}");
    assert!(!pages.iter().any(|p| p.ends_with("/trickle.html")), "{pages:?}");
    // Two tries of 1 s bound the trickled page, not the server's 20 s per try.
    assert!(run.took < Duration::from_secs(15), "{:?}", run.took);
}

#[test]
fn partial_failure_exits_3_and_names_the_dead_page() {
    let dead = format!("http://127.0.0.1:{}/news/dead.html", dead_port());
    let server = Site::new()
        .at("/feed.xml", Reply::ok(RSS, rss("Two Good", &["/a/bridge-repair.html", "/a/library-opens.html", &dead])))
        .at("/a/bridge-repair.html", Reply::ok(HTML, demo("bridge-repair")))
        .at("/a/library-opens.html", Reply::ok(HTML, demo("library-opens")))
        .serve(20);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("w.json");
    // The dead port is another origin than the feed's, refused as private by default.
    let run = induce(&server.url("/feed.xml"), &tmp.path().join("cache"), &out, 0, &["--allow-private"]);
    assert_eq!(run.code, Some(3), "{}", run.show());
    assert!(run.xpath().contains("article-body"), "{}", run.show());
    let line = run.stderr.lines().find(|l| l.contains(&dead)).unwrap_or_else(|| panic!("{}", run.show()));
    assert!(line.starts_with("forest: skipped"), "{line}");
    assert!(line.contains("Connection refused") || line.contains("connect"), "cause missing: {line}");
    assert_eq!(wrapper_json(&out)["pages"].as_array().unwrap().len(), 2);
}

#[test]
fn a_malformed_feed_is_not_a_feed() {
    let server = Site::new()
        .at("/feed.xml", Reply::ok("application/rss+xml", "<rss version=\"2.0\"><channel><title>Broken</ti"))
        .at("/plain.txt", Reply::ok("text/plain", "just some words, no markup at all"))
        .serve(20);
    for path in ["/feed.xml", "/plain.txt"] {
        let tmp = tempfile::tempdir().unwrap();
        let run = induce(&server.url(path), &tmp.path().join("cache"), &tmp.path().join("w.json"), 0, &[]);
        assert_eq!(run.code, Some(1), "{}", run.show());
        assert!(run.stderr.contains("is not a feed"), "{}", run.show());
        assert!(run.stderr.contains(&server.url(path)), "{}", run.show());
        assert!(!tmp.path().join("w.json").exists());
    }
}

#[test]
fn a_feed_without_items_needs_two_pages() {
    let server = Site::new().at("/feed.xml", Reply::ok(RSS, rss("Empty", &[]))).serve(10);
    let tmp = tempfile::tempdir().unwrap();
    let run = induce(&server.url("/feed.xml"), &tmp.path().join("cache"), &tmp.path().join("w.json"), 0, &[]);
    assert_eq!(run.code, Some(1), "{}", run.show());
    assert!(run.stderr.contains("Forest needs at least 2 pages"), "{}", run.show());
    assert!(run.stderr.contains("0 item(s)"), "{}", run.show());
}

#[test]
fn relative_feed_links_resolve_against_the_feed_url() {
    // The feed lives at /site/news/feed.xml; each link is relative in a different way.
    let links = ["bridge-repair.html", "./council-budget.html", "../archive/flood-warning.html", "/site/library-opens.html"];
    let server = Site::new()
        .at("/site/news/feed.xml", Reply::ok(RSS, rss("Relative", &links)))
        .at("/site/news/bridge-repair.html", Reply::ok(HTML, demo("bridge-repair")))
        .at("/site/news/council-budget.html", Reply::ok(HTML, demo("council-budget")))
        .at("/site/archive/flood-warning.html", Reply::ok(HTML, demo("flood-warning")))
        .at("/site/library-opens.html", Reply::ok(HTML, demo("library-opens")))
        .serve(20);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("w.json");
    let run = induce(&server.url("/site/news/feed.xml"), &tmp.path().join("cache"), &out, 0, &[]);
    assert_eq!(run.code, Some(0), "{}", run.show());
    for path in ["/site/news/bridge-repair.html", "/site/news/council-budget.html", "/site/archive/flood-warning.html", "/site/library-opens.html"]
    {
        assert_eq!(server.hits(path), 1, "{path}\n{}", run.show());
    }
    let hits = server.hits.lock().unwrap();
    assert_eq!(hits.values().sum::<usize>(), 5, "only the feed and its four pages: {hits:?}");
}

#[test]
fn the_feed_is_discovered_from_the_home_page() {
    let home = "<!DOCTYPE html><html><head><title>Gazette</title>\
        <link rel=\"stylesheet\" href=\"/s.css\">\
        <link rel=\"alternate\" type=\"application/rss+xml\" title=\"News\" href=\"/feed.xml\">\
        </head><body><h1>Welcome</h1><p>Our <a href=\"/news/\">news</a>.</p></body></html>";
    let links = ["/news/bridge-repair.html", "/news/council-budget.html", "/news/library-opens.html"];
    let server = Site::new()
        .at("/", Reply::ok(HTML, home))
        .at("/feed.xml", Reply::ok(RSS, rss("Discovered", &links)))
        .at("/news/bridge-repair.html", Reply::ok(HTML, demo("bridge-repair")))
        .at("/news/council-budget.html", Reply::ok(HTML, demo("council-budget")))
        .at("/news/library-opens.html", Reply::ok(HTML, demo("library-opens")))
        .serve(20);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("w.json");
    let run = induce(&format!("{}/", server.base), &tmp.path().join("cache"), &out, 0, &[]);
    assert_eq!(run.code, Some(0), "{}", run.show());
    assert!(run.xpath().contains("article-body"), "{}", run.show());
    assert_eq!(wrapper_json(&out)["site"], "Discovered");
    assert_eq!((server.hits("/"), server.hits("/feed.xml")), (1, 1));
    assert_eq!(server.hits("/s.css"), 0);
}

#[test]
fn file_links_in_a_remote_feed_are_refused_and_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    // A readable local page that would make a fine sample page: it must not be used.
    let local = tmp.path().join("local.html");
    let mut html = String::from_utf8(demo("marathon-record")).unwrap();
    html = html.replace("Riverside Marathon", "LOCALFILE-3a9c Marathon");
    std::fs::write(&local, &html).unwrap();
    let file_url = url::Url::from_file_path(&local).unwrap().to_string();
    let links = ["/news/bridge-repair.html", "/news/council-budget.html", "/news/library-opens.html", &file_url, "file:///etc/passwd"];
    let server = Site::new()
        .at("/feed.xml", Reply::ok(RSS, rss("Files", &links)))
        .at("/news/bridge-repair.html", Reply::ok(HTML, demo("bridge-repair")))
        .at("/news/council-budget.html", Reply::ok(HTML, demo("council-budget")))
        .at("/news/library-opens.html", Reply::ok(HTML, demo("library-opens")))
        .serve(20);
    let out = tmp.path().join("w.json");
    let run = induce(&server.url("/feed.xml"), &tmp.path().join("cache"), &out, 0, &["--explain"]);
    assert_eq!(run.code, Some(3), "{}", run.show());
    for link in [file_url.as_str(), "file:///etc/passwd"] {
        let line = run.stderr.lines().find(|l| l.contains(link)).unwrap_or_else(|| panic!("{link} not listed:\n{}", run.show()));
        assert!(line.contains("skipped feed item") && line.contains("not http or https"), "{line}");
    }
    let w = std::fs::read_to_string(&out).unwrap();
    assert!(!w.contains("LOCALFILE") && !w.contains("file:") && !w.contains("root:"), "{w}");
    assert!(!run.stdout.contains("LOCALFILE"), "{}", run.show());
    assert_eq!(wrapper_json(&out)["pages"].as_array().unwrap().len(), 3);
}

/// A site of five demo pages with ETags and Last-Modified dates.
fn cached_site() -> Site {
    let links: Vec<String> = DEMO_IDS[..5].iter().map(|id| format!("/news/{id}.html")).collect();
    let refs: Vec<&str> = links.iter().map(String::as_str).collect();
    let mut site = Site::new().at("/feed.xml", Reply::ok(RSS, rss("Cached", &refs)).etag("\"feed-v1\""));
    for id in &DEMO_IDS[..5] {
        site = site.at(
            &format!("/news/{id}.html"),
            Reply::ok(HTML, demo(id)).etag(&format!("\"{id}-v1\"")).header("Last-Modified", "Mon, 04 Mar 2024 09:15:00 GMT"),
        );
    }
    site
}

#[test]
fn a_second_run_works_offline_from_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let server = cached_site().serve(50);
    let feed = server.url("/feed.xml");
    let first = induce(&feed, &cache, &tmp.path().join("w1.json"), 0, &[]);
    assert_eq!(first.code, Some(0), "{}", first.show());
    assert_eq!(server.hits.lock().unwrap().values().sum::<usize>(), 6);
    server.stop();

    // The server is gone (connections refused): every fetch falls back to the cached copy.
    let second = induce(&feed, &cache, &tmp.path().join("w2.json"), 1, &[]);
    assert_eq!(second.code, Some(0), "{}", second.show());
    assert_eq!(second.xpath(), first.xpath());
    let (w1, w2) = (wrapper_json(&tmp.path().join("w1.json")), wrapper_json(&tmp.path().join("w2.json")));
    assert_eq!(w1["xpath"], w2["xpath"]);
    assert_eq!(w1["pages"], w2["pages"]);
    // One retry with backoff per URL, in parallel: well under the timeout budget.
    assert!(second.took < Duration::from_secs(10), "{:?}", second.took);

    // Without the cache, the same offline run fails and says why.
    let third = forest(&["induce", &feed, "--no-cache", "--quiet", "--timeout", "1", "--retries", "0"], Duration::from_secs(20));
    assert_eq!(third.code, Some(1), "{}", third.show());
    assert!(third.stderr.contains("cannot fetch") && third.stderr.contains(&feed), "{}", third.show());
}

#[test]
fn a_second_run_revalidates_and_gets_304s() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let server = cached_site().serve(50);
    let feed = server.url("/feed.xml");
    let first = induce(&feed, &cache, &tmp.path().join("w1.json"), 0, &[]);
    assert_eq!(first.code, Some(0), "{}", first.show());
    let n = server.seen.lock().unwrap().len();
    assert_eq!(n, 6);
    assert!(server.seen.lock().unwrap().iter().all(|s| s.status == 200 && s.header("if-none-match").is_none()));

    let second = induce(&feed, &cache, &tmp.path().join("w2.json"), 0, &[]);
    assert_eq!(second.code, Some(0), "{}", second.show());
    assert_eq!(second.xpath(), first.xpath());
    let seen: Vec<common::Seen> = server.seen.lock().unwrap()[n..].to_vec();
    assert_eq!(seen.len(), 6, "each URL asked once more: {seen:?}");
    for s in &seen {
        let want = if s.path == "/feed.xml" { "\"feed-v1\"".to_string() } else { format!("\"{}-v1\"", &s.path[6..s.path.len() - 5]) };
        assert_eq!(s.header("if-none-match"), Some(want.as_str()), "{s:?}");
        assert_eq!(s.status, 304, "{s:?}");
        if s.path != "/feed.xml" {
            assert_eq!(s.header("if-modified-since"), Some("Mon, 04 Mar 2024 09:15:00 GMT"), "{s:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Timing (run by hand: cargo test --release --test fetch_faults -- --ignored --nocapture)
// ---------------------------------------------------------------------------------------------

/// Twenty distinct pages on the demo template: the six demo pages, each copy with its
/// sentences marked so no two pages share a paragraph.
fn twenty_pages() -> Vec<(String, Vec<u8>)> {
    (0..20)
        .map(|i| {
            let id = DEMO_IDS[i % DEMO_IDS.len()];
            let html = String::from_utf8(demo(id)).unwrap();
            let html = if i < DEMO_IDS.len() { html } else { html.replace(". ", &format!(". Update {i}: ")) };
            (format!("/news/{i:02}-{id}.html"), html.into_bytes())
        })
        .collect()
}

#[test]
#[ignore = "timing, run by hand"]
fn timing_twenty_pages_cold_warm_offline() {
    let pages = twenty_pages();
    let links: Vec<&str> = pages.iter().map(|(p, _)| p.as_str()).collect();
    let mut site = Site::new().at("/feed.xml", Reply::ok(RSS, rss("Twenty", &links)).etag("\"f\""));
    for (i, (path, body)) in pages.iter().enumerate() {
        site = site.at(path, Reply::ok(HTML, body.clone()).etag(&format!("\"p{i}\"")));
    }
    let server = site.serve(200);
    let feed = server.url("/feed.xml");
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let run = |name: &str, retries: u32| {
        let r = induce(&feed, &cache, &tmp.path().join(format!("{name}.json")), retries, &[]);
        assert_eq!(r.code, Some(0), "{name}: {}", r.show());
        let pages = wrapper_json(&tmp.path().join(format!("{name}.json")))["pages"].as_array().unwrap().len();
        println!("{name:>8}: {:>8.1} ms  ({pages} pages; xpath {})", r.took.as_secs_f64() * 1000.0, r.xpath());
        r
    };
    let cold = run("cold", 0);
    let warm = run("warm", 0);
    let hits: usize = server.hits.lock().unwrap().values().sum();
    let not_modified = server.seen.lock().unwrap().iter().filter(|s| s.status == 304).count();
    println!("server: {hits} requests, {not_modified} answered 304");
    server.stop();
    let offline0 = run("offline", 0);
    let offline2 = run("offline2", 2);
    assert_eq!(cold.xpath(), warm.xpath());
    assert_eq!(cold.xpath(), offline0.xpath());
    assert_eq!(cold.xpath(), offline2.xpath());
    println!("binary: {}", env!("CARGO_BIN_EXE_forest"));
}


// ---------------------------------------------------------------------------------------------
// The address guard: a feed or a redirect cannot reach private addresses
// ---------------------------------------------------------------------------------------------

#[test]
fn links_and_redirects_to_private_addresses_are_refused_unless_allowed() {
    // The pages behind the links are on another server, reached as `localhost` (loopback, but
    // not the host the user typed) and as 127.0.0.2 (a loopback literal).
    let pages = Site::new().at("/a.html", Reply::ok(HTML, demo("bridge-repair"))).serve(20);
    let port = pages.url("/").rsplit(':').next().and_then(|p| p.trim_end_matches('/').parse::<u16>().ok()).expect("port");
    let by_name = format!("http://localhost:{port}/a.html");
    let by_literal = format!("http://127.0.0.2:{port}/a.html");
    let server = Site::new()
        .at("/c.html", Reply::ok(HTML, demo("library-opens")))
        .at("/d.html", Reply::ok(HTML, demo("flood-warning")))
        .at("/go.html", Reply::redirect(&by_name))
        .at("/feed.xml", Reply::ok(RSS, rss("Guarded", &[&by_name, &by_literal, "/c.html", "/d.html", "/go.html"])))
        .serve(40);

    // The library: an untrusted fetcher refuses, without retrying, with a reason to act on.
    let strict = Fetcher::new(FetchOptions { retries: 2, backoff: Duration::from_millis(10), ..FetchOptions::default() }).unwrap();
    let (e, msg) = err_text(strict.get(&at(&server, "/c.html")));
    assert!(matches!(e, Error::Private { .. }) && msg.contains("private"), "{msg}");
    strict.trust(&url::Url::parse(&server.url("/")).unwrap());
    assert!(strict.get(&at(&server, "/c.html")).is_ok(), "a trusted host is reached");
    let started = Instant::now();
    for link in [&by_name, &by_literal] {
        let (e, msg) = err_text(strict.get(&Location::parse(link)));
        assert!(matches!(e, Error::Private { .. }) && msg.contains("refused"), "{msg}");
    }
    let (_, msg) = err_text(strict.get(&at(&server, "/go.html")));
    assert!(msg.contains("refused"), "a redirect to a private name: {msg}");
    assert!(started.elapsed() < Duration::from_secs(3), "refusals are not retried");

    // The command line: the feed's host is the one typed, so its own pages load; the others
    // are skipped and named, and --allow-private lets them through.
    let tmp = tempfile::tempdir().unwrap();
    let feed = server.url("/feed.xml");
    let run = induce(&feed, &tmp.path().join("cache"), &tmp.path().join("w.json"), 0, &["--no-store"]);
    assert_eq!(run.code, Some(3), "{}", run.show());
    assert_eq!(run.stderr.matches("--allow-private").count(), 3, "{}", run.show());
    assert_eq!(pages.hits("/a.html"), 0, "a refused address was contacted");
    let allowed = induce(&feed, &tmp.path().join("cache2"), &tmp.path().join("w2.json"), 0, &["--no-store", "--allow-private"]);
    assert!(!allowed.stderr.contains("--allow-private"), "{}", allowed.show());
    assert!(pages.hits("/a.html") >= 2, "allowed: the link by name and the redirect are followed");
}

#[test]
fn trust_is_per_origin_so_another_port_of_a_trusted_host_is_refused() {
    // Another service on the same host (127.0.0.1), on another port.
    let other = Site::new().at("/secret.html", Reply::ok(HTML, demo("bridge-repair"))).serve(20);
    let secret = other.url("/secret.html");
    let server = Site::new()
        .at("/c.html", Reply::ok(HTML, demo("library-opens")))
        .at("/d.html", Reply::ok(HTML, demo("flood-warning")))
        .at("/same.html", Reply::redirect("/c.html"))
        .at("/other.html", Reply::redirect(&secret))
        .at("/feed.xml", Reply::ok(RSS, rss("Per origin", &["/c.html", "/d.html", &secret, "/other.html"])))
        .serve(60);
    let strict = || {
        let opts = FetchOptions { retries: 2, backoff: Duration::from_millis(10), timeout: Duration::from_secs(5), ..FetchOptions::default() };
        Fetcher::new(opts).unwrap()
    };

    // The library: the origin the user named is trusted, directly and through a redirect.
    let f = strict();
    f.trust(&url::Url::parse(&server.url("/feed.xml")).unwrap());
    assert!(f.get(&at(&server, "/c.html")).is_ok(), "the trusted origin is reached");
    let moved = f.get(&at(&server, "/same.html")).expect("a redirect within the trusted origin");
    assert_eq!(moved.location.to_string(), server.url("/c.html"));
    // Another port of the same host, by a redirect or a link, is refused without retries.
    let started = Instant::now();
    for loc in [at(&server, "/other.html"), Location::parse(&secret)] {
        let (e, msg) = err_text(f.get(&loc));
        assert!(matches!(e, Error::Private { .. }) && msg.contains("refused"), "{loc}: {msg}");
    }
    assert!(started.elapsed() < Duration::from_secs(3), "refusals are not retried");
    assert_eq!(other.hits("/secret.html"), 0, "another port of a trusted host was contacted");

    // The same by name: trusting localhost:A does not trust localhost:B.
    let by_name = |u: &str| u.replace("127.0.0.1", "localhost");
    let f = strict();
    f.trust(&url::Url::parse(&by_name(&server.url("/"))).unwrap());
    assert!(f.get(&Location::parse(&by_name(&server.url("/d.html")))).is_ok(), "the trusted name and port");
    let (e, msg) = err_text(f.get(&Location::parse(&by_name(&secret))));
    assert!(matches!(e, Error::Private { .. }), "{msg}");
    assert_eq!(other.hits("/secret.html"), 0, "another port of a trusted name was contacted");

    // The command line trusts the feed's origin: its pages load, the other port is skipped with
    // a hint, and --allow-private lets it through.
    let tmp = tempfile::tempdir().unwrap();
    let feed = server.url("/feed.xml");
    let run = induce(&feed, &tmp.path().join("cache"), &tmp.path().join("w.json"), 0, &["--no-store"]);
    assert_eq!(run.code, Some(3), "{}", run.show());
    assert_eq!(run.stderr.matches("--allow-private").count(), 2, "{}", run.show());
    assert_eq!(wrapper_json(&tmp.path().join("w.json"))["pages"].as_array().unwrap().len(), 2, "{}", run.show());
    assert_eq!(other.hits("/secret.html"), 0, "a refused origin was contacted");
    let allowed = induce(&feed, &tmp.path().join("cache2"), &tmp.path().join("w2.json"), 0, &["--no-store", "--allow-private"]);
    assert!(!allowed.stderr.contains("--allow-private"), "{}", allowed.show());
    assert!(other.hits("/secret.html") >= 2, "allowed: the link and the redirect are followed");
}
