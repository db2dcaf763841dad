//! Network faults, over a loopback server (tests/common): what the fetcher and `forest induce`
//! do with 404s, 5xx, 429 + Retry-After, slow and cut-short responses, bodies over the cap,
//! redirect loops, non-HTML pages, bad and empty feeds, relative and `file:` links, undeclared
//! charsets, feed discovery, and the cache (offline reruns and revalidation).
//!
//! Nothing here reaches beyond 127.0.0.1; every server is bounded and stops by itself; every
//! run of the binary has a deadline and its own cache folder (or `--no-cache`).

mod common;

use common::{Reply, Server, Site};
use forest::fetch::{FetchOptions, Fetcher, Location};
use forest::{Error, Page};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const DEMO_IDS: [&str; 6] =
    ["bridge-repair", "council-budget", "flood-warning", "library-opens", "marathon-record", "school-robotics"];

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/demo-news")
}

/// The demo page `id` (UTF-8, `<meta charset="utf-8">`).
fn demo(id: &str) -> Vec<u8> {
    std::fs::read(demo_dir().join(format!("{id}.html"))).expect("demo page")
}

const HTML: &str = "text/html; charset=utf-8";
const RSS: &str = "application/rss+xml";

/// An RSS 2.0 feed titled `title` with one item per link (guid = link).
fn rss(title: &str, links: &[&str]) -> String {
    let items: String = links
        .iter()
        .map(|l| format!("<item><title>Item {l}</title><link>{l}</link><guid isPermaLink=\"false\">{l}</guid></item>"))
        .collect();
    format!("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{title}</title><link>http://127.0.0.1/</link>{items}</channel></rss>")
}

/// A fetcher with short timeouts and backoff, no cache.
fn fetcher(retries: u32) -> Fetcher {
    Fetcher::new(FetchOptions {
        connect_timeout: Duration::from_secs(1),
        timeout: Duration::from_secs(1),
        retries,
        backoff: Duration::from_millis(20),
        max_retry_after: Duration::from_secs(5),
        max_bytes: 1024 * 1024,
        // The loopback server is a private address: allowed here, refused by default.
        allow_private: true,
        ..FetchOptions::default()
    })
    .expect("fetcher")
}

fn at(server: &Server, path: &str) -> Location {
    Location::parse(&server.url(path))
}

fn err_text(r: forest::Result<forest::fetch::Fetched>) -> (Error, String) {
    match r {
        Ok(f) => panic!("expected an error, got {} bytes from {}", f.bytes.len(), f.location),
        Err(e) => {
            let s = e.to_string();
            (e, s)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Running the binary with a deadline
// ---------------------------------------------------------------------------------------------

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

impl Run {
    /// The wrapper XPath (first stdout line).
    fn xpath(&self) -> &str {
        self.stdout.lines().next().unwrap_or_default()
    }

    fn show(&self) -> String {
        format!("exit {:?} after {:?}\n--- stdout\n{}\n--- stderr\n{}", self.code, self.took, self.stdout, self.stderr)
    }

    fn assert_no_panic(&self) {
        assert!(!self.stderr.contains("panicked"), "forest panicked:\n{}", self.show());
        assert!(self.code.is_some(), "forest was killed by a signal:\n{}", self.show());
    }
}

/// Run `forest args…`, killing it (and failing) past `deadline`.
fn forest(args: &[&str], deadline: Duration) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_forest"))
        .args(args)
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", "/nonexistent-forest-test-home")
        .env("FOREST_STORE", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("faults-store"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run forest");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("forest {args:?} still running after {deadline:?}: killed\n{}", err.join().unwrap_or_default());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let run = Run {
        code: status.code(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        took: started.elapsed(),
    };
    run.assert_no_panic();
    run
}

/// `forest induce SOURCE --cache CACHE --out OUT --quiet --timeout 1 --retries R` (+ extra).
fn induce(source: &str, cache: &Path, out: &Path, retries: u32, extra: &[&str]) -> Run {
    let retries = retries.to_string();
    let mut args = vec![
        "induce",
        source,
        "--cache",
        cache.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
        "--quiet",
        "--timeout",
        "1",
        "--retries",
        &retries,
    ];
    args.extend_from_slice(extra);
    forest(&args, Duration::from_secs(40))
}

fn wrapper_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).expect("wrapper written")).expect("wrapper JSON")
}

/// A port on 127.0.0.1 with nothing listening.
fn dead_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

// ---------------------------------------------------------------------------------------------
// The fetcher, case by case
// ---------------------------------------------------------------------------------------------

#[test]
fn a_404_is_an_error_and_not_retried() {
    let server = Site::new().serve(10);
    let (_, msg) = err_text(fetcher(2).get(&at(&server, "/missing.html")));
    assert!(msg.contains("404") && msg.contains("/missing.html"), "{msg}");
    assert_eq!(server.hits("/missing.html"), 1, "a 404 is final");
}

#[test]
fn a_500_then_200_is_retried_and_succeeds() {
    let server = Site::new()
        .seq("/flaky.html", vec![Reply::status(500), Reply::ok(HTML, demo("bridge-repair"))])
        .serve(10);
    let f = fetcher(2).get(&at(&server, "/flaky.html")).expect("second try succeeds");
    assert!(f.text().contains("Elm Street Bridge"));
    assert_eq!(server.hits("/flaky.html"), 2);
}

#[test]
fn persistent_5xx_gives_up_after_the_retries() {
    let server = Site::new().at("/down.html", Reply::status(503)).serve(10);
    let (_, msg) = err_text(fetcher(2).get(&at(&server, "/down.html")));
    assert!(msg.contains("503") && msg.contains("after 3 tries"), "{msg}");
    assert_eq!(server.hits("/down.html"), 3);
}

#[test]
fn a_429_with_retry_after_waits_that_long() {
    let server = Site::new()
        .seq("/busy.html", vec![Reply::status(429).header("Retry-After", "1"), Reply::ok(HTML, demo("library-opens"))])
        .serve(10);
    let started = Instant::now();
    let f = fetcher(2).get(&at(&server, "/busy.html")).expect("retried after Retry-After");
    let took = started.elapsed();
    assert!(f.text().contains("Library"));
    let seen = server.requests("/busy.html");
    assert_eq!(seen.len(), 2);
    let gap = seen[1].at - seen[0].at;
    // Backoff alone is 20 ms here: a gap of about a second is Retry-After at work.
    assert!(gap >= Duration::from_millis(950) && gap < Duration::from_secs(3), "gap {gap:?}");
    assert!(took < Duration::from_secs(4), "{took:?}");
}

#[test]
fn a_long_retry_after_is_capped() {
    let server = Site::new()
        .seq("/later.html", vec![Reply::status(503).header("Retry-After", "3600"), Reply::ok(HTML, demo("library-opens"))])
        .serve(10);
    let f = Fetcher::new(FetchOptions {
        timeout: Duration::from_secs(1),
        backoff: Duration::from_millis(10),
        max_retry_after: Duration::from_millis(300),
        allow_private: true,
        ..FetchOptions::default()
    })
    .unwrap();
    let started = Instant::now();
    f.get(&at(&server, "/later.html")).expect("retried after the capped wait");
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(280) && took < Duration::from_secs(3), "{took:?}");
    assert_eq!(server.hits("/later.html"), 2);
}

#[test]
fn a_response_slower_than_the_timeout_is_a_clear_timeout() {
    let server = Site::new()
        .at("/slow.html", Reply::ok(HTML, demo("flood-warning")).after(Duration::from_secs(4)))
        .serve(10);
    let started = Instant::now();
    let (_, msg) = err_text(fetcher(1).get(&at(&server, "/slow.html")));
    let took = started.elapsed();
    assert!(msg.contains("timed out"), "{msg}");
    assert!(msg.contains("after 2 tries"), "{msg}");
    assert_eq!(server.hits("/slow.html"), 2);
    // Two tries of 1 s each and a 20 ms backoff, not the server's 2 × 4 s.
    assert!(took >= Duration::from_millis(1900) && took < Duration::from_secs(4), "{took:?}");
}

fn stalled_server() -> Server {
    let body = demo("flood-warning");
    Site::new()
        .at("/stall.html", Reply::ok(HTML, body.clone()).stall(body.len() / 2, Duration::from_secs(4)))
        .serve(10)
}

#[test]
fn a_body_that_stalls_past_the_timeout_fails_in_bounded_time() {
    let server = stalled_server();
    let started = Instant::now();
    let (_, msg) = err_text(fetcher(1).get(&at(&server, "/stall.html")));
    let took = started.elapsed();
    // Headers and half the body arrive, then nothing: the 1 s total timeout ends each try.
    assert!(took >= Duration::from_millis(1900) && took < Duration::from_secs(4), "{took:?}");
    assert!(msg.contains("after 2 tries"), "{msg}");
    assert_eq!(server.hits("/stall.html"), 2);
}

/// A timeout while reading the body says so (its cause used to be lost behind reqwest's
/// outer message).
#[test]
fn a_body_that_stalls_past_the_timeout_says_timed_out() {
    let server = stalled_server();
    let (_, msg) = err_text(fetcher(0).get(&at(&server, "/stall.html")));
    assert!(msg.contains("timed out"), "the message should say it was a timeout: {msg}");
}

/// A 5 000-byte page sent a byte every 200 ms (17 minutes in all; the server gives up after
/// 20 s): every read gets a byte well within the timeout, so only a deadline for the whole
/// response ends it.
fn trickle_reply() -> Reply {
    let mut body = demo("marathon-record");
    body.resize(5000, b' ');
    Reply::ok(HTML, body).trickle(Duration::from_millis(200))
}

#[test]
fn a_trickled_body_ends_at_the_deadline() {
    let server = Site::new().at("/trickle.html", trickle_reply()).serve(10);
    let started = Instant::now();
    let (e, msg) = err_text(fetcher(0).get(&at(&server, "/trickle.html")));
    let took = started.elapsed();
    println!("trickle, 1 s timeout, no retry: {took:?}: {msg}");
    assert!(matches!(e, Error::Fetch { .. }) && msg.contains("timed out") && msg.contains("1-second limit"), "{msg}");
    // Generous bounds: the 1 s deadline held, and the server was not waited out (20 s).
    assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(8), "{took:?}");
    let o = server.outcome("/trickle.html", Duration::from_secs(10)).expect("the trickle ended");
    assert!(o.client_left && o.body_bytes < 100, "the client did not hang up: {o:?}");
}

#[test]
fn a_trickled_body_is_retried_each_try_with_its_own_deadline() {
    let server = Site::new().at("/trickle.html", trickle_reply()).serve(10);
    let started = Instant::now();
    let (_, msg) = err_text(fetcher(2).get(&at(&server, "/trickle.html")));
    let took = started.elapsed();
    println!("trickle, 1 s timeout, 2 retries: {took:?}: {msg}");
    assert!(msg.contains("timed out") && msg.contains("after 3 tries"), "{msg}");
    assert_eq!(server.hits("/trickle.html"), 3);
    // Three tries of 1 s and two short backoffs.
    assert!(took >= Duration::from_millis(2700) && took < Duration::from_secs(12), "{took:?}");
}

#[test]
fn a_body_cut_short_is_an_error_after_retries() {
    let body = demo("council-budget");
    let server = Site::new().at("/cut.html", Reply::ok(HTML, body[..body.len() / 2].to_vec()).cut_short(body.len())).serve(10);
    let (_, msg) = err_text(fetcher(1).get(&at(&server, "/cut.html")));
    println!("cut short: {msg}");
    assert!(msg.contains("body cut short") && msg.contains("after 2 tries"), "{msg}");
    assert_eq!(server.hits("/cut.html"), 2, "a cut body is retried");
}

#[test]
fn a_body_over_the_cap_is_aborted_early() {
    // 64 KiB chunks, up to 256 MiB; the client's cap is 100 000 bytes.
    let chunk: Vec<u8> = b"<p>more words, more words, more words</p>\n".iter().copied().cycle().take(64 * 1024).collect();
    let limit = 256 * 1024 * 1024;
    let server = Site::new().at("/huge.html", Reply::ok("text/html", chunk).stream(limit)).serve(10);
    let f = Fetcher::new(FetchOptions { max_bytes: 100_000, timeout: Duration::from_secs(5), retries: 2, allow_private: true, ..FetchOptions::default() })
        .unwrap();
    let started = Instant::now();
    let (e, msg) = err_text(f.get(&at(&server, "/huge.html")));
    assert!(matches!(e, Error::TooLarge { limit: 100_000, .. }), "{msg}");
    assert!(msg.contains("larger than the 100000-byte limit"), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    assert_eq!(server.hits("/huge.html"), 1, "too large is final, not retried");
    // The fetcher is still alive: the server must see the client hang up, long before the end.
    let o = server.outcome("/huge.html", Duration::from_secs(10)).expect("the stream ended");
    println!("over the cap: client hung up after {} body bytes, {:?} after the request", o.body_bytes, o.at - started);
    assert!(o.client_left, "the server sent everything: {o:?}");
    assert!(o.body_bytes < 32 * 1024 * 1024, "download not aborted soon: {} bytes sent", o.body_bytes);
    assert!(o.at - started < Duration::from_secs(5), "{:?}", o.at - started);
}

#[test]
fn a_content_length_over_the_cap_is_refused_before_reading() {
    let body = vec![b'x'; 300_000];
    let server = Site::new().at("/big.html", Reply::ok("text/html", body)).serve(10);
    let f = Fetcher::new(FetchOptions { max_bytes: 100_000, timeout: Duration::from_secs(2), allow_private: true, ..FetchOptions::default() }).unwrap();
    let (e, msg) = err_text(f.get(&at(&server, "/big.html")));
    assert!(matches!(e, Error::TooLarge { .. }), "{msg}");
    assert_eq!(server.hits("/big.html"), 1);
}

#[test]
fn a_redirect_loop_is_an_error_that_says_so() {
    let server = Site::new().at("/loop.html", Reply::redirect("/loop.html")).serve(40);
    let started = Instant::now();
    let (_, msg) = err_text(fetcher(2).get(&at(&server, "/loop.html")));
    assert!(msg.contains("redirect"), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(3));
    let hits = server.hits("/loop.html");
    assert!((1..=11).contains(&hits), "redirects followed {hits} times");
}

#[test]
fn a_redirect_to_a_file_url_is_refused() {
    let secret = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(secret.path(), "<html><body><p>LOCAL-SECRET-7d1f</p></body></html>").unwrap();
    let target = url::Url::from_file_path(secret.path()).unwrap();
    let server = Site::new().at("/jump.html", Reply::redirect(target.as_str())).serve(10);
    let r = fetcher(0).get(&at(&server, "/jump.html"));
    if let Ok(f) = &r {
        assert!(!String::from_utf8_lossy(&f.bytes).contains("LOCAL-SECRET"), "a redirect read a local file");
    }
    let (_, msg) = err_text(r);
    println!("redirect to file: {msg}");
    assert!(!msg.contains("LOCAL-SECRET"), "{msg}");
    // reqwest does not follow it: the 302 itself is the answer, an HTTP error.
    assert!(msg.contains("302"), "{msg}");
    assert_eq!(server.hits("/jump.html"), 1);
}

#[test]
fn an_image_is_not_an_html_page() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89".to_vec();
    let server = Site::new()
        .at("/photo.html", Reply::ok("image/png", png))
        // Even markup served as an image is refused: the content type says what it is.
        .at("/mislabeled.html", Reply::ok("image/png", demo("bridge-repair")))
        .serve(10);
    for path in ["/photo.html", "/mislabeled.html"] {
        let loc = at(&server, path);
        let fetched = fetcher(0).get(&loc).expect("the bytes arrive");
        match Page::from_fetched(&loc, fetched, &forest::budget::Budget::default()) {
            Err(e @ Error::NotHtml { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains("not an HTML page") && msg.contains("image/png"), "{msg}");
            }
            Err(e) => panic!("{path}: wrong error {e}"),
            Ok(_) => panic!("{path}: an image became a page"),
        }
    }
}

#[test]
fn a_gzip_body_is_decoded() {
    let server = Site::new()
        .at("/zipped.html", Reply::ok(HTML, common::gzip_stored(&demo("marathon-record"))).header("Content-Encoding", "gzip"))
        .serve(10);
    let f = fetcher(0).get(&at(&server, "/zipped.html")).expect("fetched");
    assert_eq!(f.bytes, demo("marathon-record"), "gzip decoded");
    let req = &server.requests("/zipped.html")[0];
    assert!(req.header("accept-encoding").is_some_and(|v| v.contains("gzip")), "{req:?}");
}

#[test]
fn a_gzip_bomb_stops_at_the_cap() {
    // 16 MiB of 'a' in about 100 kB of deflate; the cap (1 MiB) counts decompressed bytes.
    let bomb = common::gzip_bomb(16 * 1024 * 1024);
    assert!(bomb.len() < 200_000, "{}", bomb.len());
    let server = Site::new()
        .at("/bomb.html", Reply::ok("text/html", bomb.clone()).header("Content-Encoding", "gzip"))
        .at("/small-bomb.html", Reply::ok("text/html", common::gzip_bomb(5000)).header("Content-Encoding", "gzip"))
        .serve(10);
    // The hand-made deflate stream is valid: under the cap it inflates to what it should.
    let small = fetcher(0).get(&at(&server, "/small-bomb.html")).expect("valid gzip");
    assert_eq!(small.bytes, vec![b'a'; 5000]);
    let started = Instant::now();
    let (e, msg) = err_text(fetcher(2).get(&at(&server, "/bomb.html")));
    assert!(matches!(e, Error::TooLarge { limit: 1_048_576, .. }), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(server.hits("/bomb.html"), 1);
}

#[test]
fn a_brotli_bomb_stops_at_the_cap() {
    // 64 MiB of zeros in a few hundred bytes of brotli; the cap (1 MiB) counts decompressed bytes.
    let mut bomb = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut bomb, 4096, 5, 22);
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..64 {
            std::io::Write::write_all(&mut w, &zeros).unwrap();
        }
    }
    assert!(bomb.len() < 100_000, "{}", bomb.len());
    let server = Site::new().at("/bomb.html", Reply::ok("text/html", bomb).header("Content-Encoding", "br")).serve(10);
    let started = Instant::now();
    let (e, msg) = err_text(fetcher(2).get(&at(&server, "/bomb.html")));
    assert!(matches!(e, Error::TooLarge { limit: 1_048_576, .. }), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(server.hits("/bomb.html"), 1);
}

#[test]
fn a_dead_host_is_a_connection_error() {
    let url = format!("http://127.0.0.1:{}/x.html", dead_port());
    let started = Instant::now();
    let (_, msg) = err_text(fetcher(1).get(&Location::parse(&url)));
    assert!(msg.contains(&url) && msg.to_lowercase().contains("connect"), "{msg}");
    assert!(msg.contains("after 2 tries"), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(3));
}

// ---------------------------------------------------------------------------------------------
// Undeclared charsets: no charset in the header, no <meta>, no BOM
// ---------------------------------------------------------------------------------------------

const LEGACY: [(&str, &str, &[&str]); 3] = [
    (
        "windows-1252",
        "Le café du coin a rouvert ses portes après l’été. Les habitués ont retrouvé leur crème brûlée, \
         la façade rénovée et le maître d’hôtel, qui a déjà créé un menu à 15 €. « C’est une réussite », \
         dit la propriétaire. Même les élèves du lycée voisin préfèrent désormais ce café à la cantine.",
        &["café", "crème brûlée", "maître d’hôtel", "15 €", "« C’est une réussite »"],
    ),
    (
        "GBK",
        "北京市政府今天宣布，将在明年春天开放一座新的公共图书馆。新图书馆位于城市东部，面积超过一万平方米，\
         藏书约五十万册。市民可以免费办理借书证，并在周末参加各种文化活动。图书馆还设有儿童阅览室、自习室和咖啡厅。\
         市长表示，这座图书馆将成为市民学习和交流的重要场所。",
        &["北京市政府", "公共图书馆", "儿童阅览室"],
    ),
    (
        "Shift_JIS",
        "東京都は今日、来年の春に新しい公共図書館を開館すると発表しました。新しい図書館は市の東部にあり、\
         約五十万冊の本を所蔵します。市民は無料で図書カードを作ることができ、週末にはさまざまな文化イベントに\
         参加できます。館内には子ども向けの読書室や自習室もあります。",
        &["東京都", "公共図書館", "読書室", "さまざまな"],
    ),
];

fn legacy_page(text: &str) -> String {
    let title: String = text.chars().take(12).collect();
    format!(
        "<!DOCTYPE html>\n<html><head><title>{title}</title></head><body>\
         <div class=\"article-body\"><h1>{title}</h1><p>{text}</p></div></body></html>"
    )
}

fn legacy_site() -> Server {
    let mut site = Site::new();
    for (label, text, _) in LEGACY {
        let enc = encoding_rs::Encoding::for_label(label.as_bytes()).expect("label");
        let html = legacy_page(text);
        let (bytes, _, unmappable) = enc.encode(&html);
        assert!(!unmappable, "{label} cannot encode the sample");
        assert!(std::str::from_utf8(&bytes).is_err(), "{label} bytes must not be valid UTF-8");
        site = site.at(&format!("/{label}.html"), Reply::ok("text/html", bytes.into_owned()));
    }
    site.serve(20)
}

#[test]
fn undeclared_legacy_charsets_are_guessed() {
    let server = legacy_site();
    for (label, _, words) in LEGACY {
        let loc = at(&server, &format!("/{label}.html"));
        let fetched = fetcher(0).get(&loc).expect("fetched");
        assert_eq!(fetched.content_type.as_deref(), Some("text/html"));
        let page = Page::from_fetched(&loc, fetched, &forest::budget::Budget::default()).expect("a page");
        let text = page.doc.text(page.doc.body);
        for w in words {
            assert!(text.contains(w), "{label}: {w:?} not in the decoded text: {text}");
        }
        assert!(!text.contains('\u{fffd}'), "{label}: replacement characters in {text}");
    }
}

#[test]
fn undeclared_legacy_charsets_through_the_binary() {
    let server = legacy_site();
    for (label, _, words) in LEGACY {
        // `forest clean` fetches with the defaults and no cache.
        let run = forest(&["clean", &server.url(&format!("/{label}.html"))], Duration::from_secs(20));
        assert_eq!(run.code, Some(0), "{}", run.show());
        for w in words {
            assert!(run.stdout.contains(w), "{label}: {w:?} not in the cleaned XML:\n{}", run.show());
        }
    }
}

// ---------------------------------------------------------------------------------------------
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
