//! What a newcomer types first: a page of a site forest has never seen, from a file, standard
//! input, a list, a gzipped or extension-less file; something that is not a page; and what
//! forest says at the end of a run.

mod common;

use common::cli::{forest, ok, p, root};
use std::io::Write;
use std::process::{Command, Stdio};

fn demo_page() -> std::path::PathBuf {
    root().join("feeds/demo-news/bridge-repair.html")
}

#[test]
fn an_unknown_site_gets_an_article_from_a_file_stdin_a_list_gz_and_a_bare_file() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let html = std::fs::read(demo_page()).unwrap();

    // A saved page of a site never induced: the single-page extractor, marked so.
    let o = forest(&store, &["apply", p(&demo_page()), "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    assert_eq!(json["rule"].as_str(), Some("single-page"));
    assert!((0.5..1.0).contains(&json["confidence"].as_f64().unwrap()), "{json}");
    let text = json["text"].as_str().unwrap().to_string();
    assert!(text.contains("Elm Street"), "{text}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("forest induce"));
    // Its language is detected when the page does not declare it.
    assert!(json["lang"].is_string(), "{json}");

    // The same page on standard input, as `forest extract -`.
    let mut child = Command::new(env!("CARGO_BIN_EXE_forest"))
        .args(["extract", "-"])
        .env("FOREST_STORE", &store)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&html).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(ok(&o).trim_end(), text.trim_end());

    // Gzipped, and without an extension.
    let gz = tmp.path().join("story.html.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&html).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let bare = tmp.path().join("story");
    std::fs::write(&bare, &html).unwrap();
    for f in [&gz, &bare] {
        assert_eq!(ok(&forest(&store, &["apply", p(f)])).trim_end(), text.trim_end(), "{}", f.display());
    }

    // A folder finds both; a list names them; the run ends with a summary line.
    let o = forest(&store, &["apply", p(tmp.path()), "--format", "jsonl"]);
    assert_eq!(ok(&o).lines().count(), 2, "the .html.gz and the extension-less page");
    let list = tmp.path().join("list.txt");
    std::fs::write(&list, format!("# pages\n{}\n\n{}\n", gz.display(), bare.display())).unwrap();
    let o = forest(&store, &["apply", "-i", p(&list), "--format", "jsonl"]);
    assert_eq!(ok(&o).lines().count(), 2);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("2 pages: 2 articles"), "{err}");
}

#[test]
fn what_is_not_a_page_is_refused_with_a_reason_and_a_failing_exit() {
    let tmp = tempfile::tempdir().unwrap();
    let pdf = tmp.path().join("paper.pdf");
    std::fs::write(&pdf, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <</Type /Catalog>> endobj\n").unwrap();
    let o = forest(&tmp.path().join("store"), &["apply", p(&pdf)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not an HTML page") && err.contains("PDF"), "{err}");
    // With a page beside it: the page comes out, the PDF is a counted skip (exit 3).
    let o = forest(&tmp.path().join("store"), &["apply", p(&pdf), p(&demo_page())]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_host_and_path_without_a_scheme_is_a_url_when_no_such_file_exists() {
    use forest::fetch::Location;
    assert!(matches!(Location::parse_input("example.org/a/b.html"), Location::Url(u) if u.as_str() == "https://example.org/a/b.html"));
    assert!(matches!(Location::parse_input("news.example.co.uk/"), Location::Url(_)));
    assert!(matches!(Location::parse_input("news.example.co.uk"), Location::File(_)));
    assert!(matches!(Location::parse_input("page.html"), Location::File(_)));
    assert!(matches!(Location::parse_input("./a/b"), Location::File(_)));
    let existing = demo_page();
    assert!(matches!(Location::parse_input(p(&existing)), Location::File(_)));
}

#[test]
fn a_page_url_given_to_induce_says_which_feed_it_read_or_that_it_links_none() {
    use common::{Reply, Site};
    let page = |feed: &str| {
        format!("<html><head><title>Home</title>{feed}</head><body><p>Welcome to the harbour news.</p></body></html>")
    };
    let items: String = (1..=3)
        .map(|i| format!("<item><title>Story {i}</title><link>/s{i}.html</link><guid>s{i}</guid></item>"))
        .collect();
    let story = |i: u32| {
        let words = "The harbour authority said the new pier opens next month after two years of work. ".repeat(6);
        format!("<html><head><title>Story {i}</title></head><body><nav>Home News</nav><div class='story'><h1>Story {i}</h1><p>{words} {i}</p></div></body></html>")
    };
    let server = Site::new()
        .at("/", Reply::ok("text/html", page("<link rel='alternate' type='application/rss+xml' href='/feed.xml'>")))
        .at("/bare.html", Reply::ok("text/html", page("")))
        .at("/feed.xml", Reply::ok("application/rss+xml", format!("<rss version='2.0'><channel><title>Harbour</title>{items}</channel></rss>")))
        .at("/s1.html", Reply::ok("text/html", story(1)))
        .at("/s2.html", Reply::ok("text/html", story(2)))
        .at("/s3.html", Reply::ok("text/html", story(3)))
        .serve(40);
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let o = forest(&store, &["induce", &server.url("/"), "--no-cache", "--no-store"]);
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("read the feed it links") && err.contains("/feed.xml"), "{err}");
    let o = forest(&store, &["induce", &server.url("/bare.html"), "--no-cache", "--no-store"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("links no feed") && !err.contains("no root element"), "{err}");
}

#[test]
fn a_wrapper_that_cannot_be_stored_is_a_skipped_part_not_a_success() {
    let tmp = tempfile::tempdir().unwrap();
    // The store is a file, not a folder: the wrapper is printed, not stored, and the exit says so.
    let store = tmp.path().join("store-is-a-file");
    std::fs::write(&store, "x").unwrap();
    let o = forest(&store, &["induce", p(&root().join("feeds/demo-news"))]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("//"), "the XPath is still printed");
    assert!(String::from_utf8_lossy(&o.stderr).contains("not stored"));
}

#[test]
fn importing_a_site_config_never_replaces_another_silently() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let plain = tmp.path().join("example.org.txt");
    let www = tmp.path().join("www.example.org.txt");
    std::fs::write(&plain, "body: //article\n").unwrap();
    std::fs::write(&www, "body: //main\n").unwrap();
    ok(&forest(&store, &["wrappers", "import", p(&plain)]));
    let o = forest(&store, &["wrappers", "import", p(&www)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"), "{}", String::from_utf8_lossy(&o.stderr));
    let shown = ok(&forest(&store, &["wrappers", "show", "example.org"]));
    assert!(shown.contains("//article"), "the stored config is unchanged: {shown}");
    let o = forest(&store, &["wrappers", "import", p(&www), "--force"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("replacing"));
    assert!(ok(&forest(&store, &["wrappers", "show", "example.org"])).contains("//main"));
}

#[test]
fn a_utf16_page_declared_only_by_its_http_charset_is_read() {
    use forest::fetch::{Fetched, Location};
    let html = "<html><body><p>Grüße aus der Hafenstadt, wo die neue Brücke öffnet.</p></body></html>";
    let bytes: Vec<u8> = html.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let loc = Location::parse("https://utf16.example/a.html");
    let fetched = Fetched {
        location: loc.clone(),
        bytes,
        content_type: Some("text/html; charset=utf-16le".into()),
        from_cache: false,
        etag: None,
        last_modified: None,
    };
    let page = forest::Page::from_fetched(&loc, fetched, &forest::budget::Budget::default()).expect("a page, not binary data");
    assert!(page.doc.text(page.doc.body).contains("Grüße aus der Hafenstadt"));
}
