//! Network faults, over a loopback server (tests/common): what the fetcher does with 404s, 5xx,
//! 429 + Retry-After, slow and cut-short responses, bodies over the cap, redirect loops,
//! non-HTML pages, compressed bombs, dead hosts and undeclared charsets. `forest induce` over
//! faulty sites, feeds, the cache and private addresses: `tests/induce_faults.rs`.
//!
//! Nothing here reaches beyond 127.0.0.1; every server is bounded and stops by itself; every
//! run of the binary has a deadline and its own cache folder (or `--no-cache`).

mod common;

use common::faults::*;
use common::{Reply, Server, Site};
use forest::fetch::{FetchOptions, Fetcher, Location};
use forest::{Error, Page};
use std::time::{Duration, Instant};

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
