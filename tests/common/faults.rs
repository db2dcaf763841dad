//! Fixtures of the network-fault tests (`tests/fetch_faults.rs`, `tests/induce_faults.rs`): the
//! demo pages, feeds, a fetcher with short timeouts, and the `forest` binary run with a deadline.

use super::{Reply, Server};
use forest::fetch::{FetchOptions, Fetcher, Location};
use forest::Error;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

pub const DEMO_IDS: [&str; 6] =
    ["bridge-repair", "council-budget", "flood-warning", "library-opens", "marathon-record", "school-robotics"];

pub fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("feeds/demo-news")
}

/// The demo page `id` (UTF-8, `<meta charset="utf-8">`).
pub fn demo(id: &str) -> Vec<u8> {
    std::fs::read(demo_dir().join(format!("{id}.html"))).expect("demo page")
}

pub const HTML: &str = "text/html; charset=utf-8";
pub const RSS: &str = "application/rss+xml";

/// An RSS 2.0 feed titled `title` with one item per link (guid = link).
pub fn rss(title: &str, links: &[&str]) -> String {
    let items: String = links
        .iter()
        .map(|l| format!("<item><title>Item {l}</title><link>{l}</link><guid isPermaLink=\"false\">{l}</guid></item>"))
        .collect();
    format!("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>{title}</title><link>http://127.0.0.1/</link>{items}</channel></rss>")
}

/// A fetcher with short timeouts and backoff, no cache.
pub fn fetcher(retries: u32) -> Fetcher {
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

pub fn at(server: &Server, path: &str) -> Location {
    Location::parse(&server.url(path))
}

pub fn err_text(r: forest::Result<forest::fetch::Fetched>) -> (Error, String) {
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

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub took: Duration,
}

impl Run {
    /// The wrapper XPath (first stdout line).
    pub fn xpath(&self) -> &str {
        self.stdout.lines().next().unwrap_or_default()
    }

    pub fn show(&self) -> String {
        format!("exit {:?} after {:?}\n--- stdout\n{}\n--- stderr\n{}", self.code, self.took, self.stdout, self.stderr)
    }

    pub fn assert_no_panic(&self) {
        assert!(!self.stderr.contains("panicked"), "forest panicked:\n{}", self.show());
        assert!(self.code.is_some(), "forest was killed by a signal:\n{}", self.show());
    }
}

/// Run `forest args…`, killing it (and failing) past `deadline`.
pub fn forest(args: &[&str], deadline: Duration) -> Run {
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
pub fn induce(source: &str, cache: &Path, out: &Path, retries: u32, extra: &[&str]) -> Run {
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

pub fn wrapper_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).expect("wrapper written")).expect("wrapper JSON")
}

/// A port on 127.0.0.1 with nothing listening.
pub fn dead_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// A 5 000-byte page sent a byte every 200 ms (17 minutes in all; the server gives up after
/// 20 s): every read gets a byte well within the timeout, so only a deadline for the whole
/// response ends it.
pub fn trickle_reply() -> Reply {
    let mut body = demo("marathon-record");
    body.resize(5000, b' ');
    Reply::ok(HTML, body).trickle(Duration::from_millis(200))
}
