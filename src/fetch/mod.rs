//! Fetch: the bytes of a page or feed, from a local file or over HTTP(S), and their decoding.
//!
//! A [`Fetcher`] reads [`Location`]s the way a polite, careful crawler does:
//! - one HTTP client (rustls, gzip and brotli) shared by all requests, a User-Agent naming
//!   forest and its version, at most 10 redirects;
//! - a connect timeout, and a deadline for each try of a request (like curl's `--max-time`):
//!   connecting, redirects, waiting and the whole body, however slowly its bytes trickle in;
//! - retries with exponential backoff on timeouts, connection errors, 429 and 5xx, honouring
//!   `Retry-After` (capped);
//! - a body size cap that aborts the download as soon as it is passed (a `Content-Length`
//!   over the cap is refused before reading; decompressed bytes count, so a gzip bomb stops at
//!   the cap);
//! - at most `per_host` requests at once to one host, and `delay` between them (a request's
//!   turn is given back whatever becomes of it, a panic included);
//! - an optional on-disk [`cache`] keyed by URL, revalidated with ETag / Last-Modified, and used
//!   as is when the network fails, so a second run works offline.
//!
//! [`decode`] turns bytes into text the way a browser does: byte-order mark, then the HTTP
//! `charset`, then `<meta charset>` / `http-equiv` in the first 4 KiB, then a statistical
//! guess (chardetng), UTF-8 last.

pub mod cache;
mod charset;
pub mod guard;
mod turns;

pub use charset::{decode, decode_owned};
#[cfg(test)]
use charset::{detector_input, DETECTOR_BYTES};

use crate::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Default largest page or feed, in bytes (a larger one is an error, not a truncation).
pub const MAX_BYTES: u64 = 10 * 1024 * 1024;

/// Where a page or feed lives.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    /// A local file.
    File(PathBuf),
    /// An http or https URL.
    Url(url::Url),
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::File(p) => write!(f, "{}", p.display()),
            Location::Url(u) => write!(f, "{u}"),
        }
    }
}

impl Location {
    /// Parse what a user typed to name a page: an http(s) URL; a path that exists; else,
    /// when it reads like a host and a path (`example.org/a`), that page over https; else a
    /// path (which will say it does not exist).
    pub fn parse_input(arg: &str) -> Location {
        let loc = Location::parse(arg);
        if let Location::File(p) = &loc {
            // A host and a path: `example.org/…` (a bare `page.html` stays a file name).
            let Some((host, _)) = arg.split_once('/') else { return loc };
            let host_like = host.contains('.')
                && !host.starts_with('.')
                && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
                && host.rsplit('.').next().is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
            if !p.exists() && host_like {
                if let Ok(u) = url::Url::parse(&format!("https://{arg}")) {
                    return Location::Url(u);
                }
            }
        }
        loc
    }

    /// Parse a command-line argument: an http(s) URL, else a path.
    pub fn parse(arg: &str) -> Location {
        match url::Url::parse(arg) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => Location::Url(u),
            _ => Location::File(PathBuf::from(arg)),
        }
    }

    /// The file stem or last URL path segment, for naming outputs.
    pub fn stem(&self) -> String {
        let name = match self {
            Location::File(p) => {
                // `story.html.gz`: the stem of the page, not of the gzip file.
                let p = if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("gz")) { Path::new(p.file_stem().unwrap_or_default()) } else { p.as_path() };
                p.file_stem().map(|s| s.to_string_lossy().into_owned())
            }
            Location::Url(u) => u
                .path_segments()
                .and_then(|mut s| s.rfind(|x| !x.is_empty()).map(str::to_string))
                .map(|s| s.rsplit_once('.').map_or(s.clone(), |(a, _)| a.to_string())),
        };
        name.filter(|s| !s.is_empty()).unwrap_or_else(|| "index".to_string())
    }
}

/// Fetched bytes with what the transport said about them.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Where they came from (after redirects, for URLs).
    pub location: Location,
    /// The body.
    pub bytes: Vec<u8>,
    /// The `Content-Type` header, for URLs.
    pub content_type: Option<String>,
    /// Served from the cache (revalidated, or because the network failed).
    pub from_cache: bool,
    /// The response's ETag, for revalidation.
    pub etag: Option<String>,
    /// The response's Last-Modified, for revalidation.
    pub last_modified: Option<String>,
}

impl Fetched {
    /// Bytes read from a file, standard input or a caller's memory: no transport metadata.
    pub fn local(location: Location, bytes: Vec<u8>) -> Fetched {
        Fetched { location, bytes, content_type: None, from_cache: false, etag: None, last_modified: None }
    }

    /// The body decoded as text (see [`decode`]).
    pub fn text(&self) -> String {
        decode(&self.bytes, self.content_type.as_deref())
    }

    /// The body decoded as text, taking the bytes (see [`decode_owned`]).
    pub fn into_text(self) -> String {
        decode_owned(self.bytes, self.content_type.as_deref())
    }
}

/// How a [`Fetcher`] behaves. The defaults suit a command-line run on a few sites.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// Time to establish a connection.
    pub connect_timeout: Duration,
    /// Deadline for each try of a request: connecting, redirects, waiting and reading the whole
    /// body, however slowly it trickles (a try past it is a timeout, retried like one).
    pub timeout: Duration,
    /// Retries after the first try, on timeouts, connection errors, 429 and 5xx.
    pub retries: u32,
    /// First backoff; doubled at each retry.
    pub backoff: Duration,
    /// Longest `Retry-After` honoured (a longer one is waited this long).
    pub max_retry_after: Duration,
    /// Largest body, in bytes.
    pub max_bytes: u64,
    /// Pause between two requests to the same host.
    pub delay: Duration,
    /// Requests at once to one host.
    pub per_host: usize,
    /// On-disk cache folder (`None`: no cache).
    pub cache: Option<PathBuf>,
    /// Let links and redirects reach private, loopback and link-local addresses (see
    /// [`guard`]); origins given to [`Fetcher::trust`] may always.
    pub allow_private: bool,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            retries: 2,
            backoff: Duration::from_millis(500),
            max_retry_after: Duration::from_secs(30),
            max_bytes: MAX_BYTES,
            delay: Duration::ZERO,
            per_host: 4,
            cache: None,
            allow_private: false,
        }
    }
}

/// The user's cache folder for forest: `$XDG_CACHE_HOME/forest`, else `~/.cache/forest`.
pub fn default_cache_dir() -> Option<PathBuf> {
    Some(crate::dirs::user_dir("XDG_CACHE_HOME", ".cache")?.join("forest"))
}

/// Fetches files and URLs (see the module documentation).
pub struct Fetcher {
    /// Built on first use: setting up TLS (reading the system's certificates) costs more than
    /// cleaning a page, and local files never need it.
    client: std::sync::OnceLock<std::result::Result<reqwest::blocking::Client, String>>,
    opts: FetchOptions,
    turns: turns::Turns,
    /// Hosts that failed after all retries: later requests to them try once (and use the
    /// cache at once when it has the page), so an offline run does not wait out every retry.
    down: Mutex<std::collections::HashSet<String>>,
    /// Which origins may reach private addresses.
    guard: std::sync::Arc<guard::Guard>,
}

/// What one try of a request gave.
enum Try {
    Done(Fetched),
    /// Worth retrying, after at least this long (and the HTTP status that said so, if any).
    Again(String, Option<Duration>, Option<u16>),
    Fail(Error),
}

/// How much of a response body to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body {
    /// All of it, within the size cap (past it, [`Error::TooLarge`]).
    Whole,
    /// Its first bytes, up to this many; the rest is left unread.
    Prefix(u64),
}

/// What a fetch of a site's `robots.txt` found (RFC 9309, 2.3.1).
#[derive(Debug)]
pub enum RobotsTxt {
    /// Its first [`ROBOTS_BYTES`] bytes (the rest is not read).
    Found(Fetched),
    /// The server says there is none (a 4xx status): everything is allowed.
    Unavailable,
    /// The server failed (a 5xx status, after retries) or could not be reached: nothing is
    /// allowed.
    Unreachable(String),
}

/// How much of a `robots.txt` is read: 500 KiB, the least RFC 9309 asks a crawler to parse.
pub const ROBOTS_BYTES: u64 = 500 * 1024;

impl Fetcher {
    /// A fetcher with these options.
    ///
    /// # Errors
    /// [`Error::Fetch`] when the HTTP client cannot be built (TLS setup).
    pub fn new(opts: FetchOptions) -> Result<Fetcher> {
        let opts_allow_private = opts.allow_private;
        let turns = turns::Turns::new(opts.per_host, opts.delay);
        Ok(Fetcher {
            client: std::sync::OnceLock::new(),
            opts,
            turns,
            down: Mutex::new(std::collections::HashSet::new()),
            guard: guard::Guard::new(opts_allow_private),
        })
    }

    /// The HTTP client, built on first use.
    fn client(&self) -> Result<&reqwest::blocking::Client> {
        self.client
            .get_or_init(|| {
                // reqwest is built without a bundled crypto provider: use rustls' ring provider.
                let _ = rustls::crypto::ring::default_provider().install_default();
                let guard = std::sync::Arc::clone(&self.guard);
                let redirects = reqwest::redirect::Policy::custom(move |attempt| {
                    if attempt.previous().len() >= 10 {
                        return attempt.error("too many redirects (10)");
                    }
                    match guard.check(attempt.url()) {
                        Ok(()) => attempt.follow(),
                        Err(why) => attempt.error(why),
                    }
                });
                reqwest::blocking::Client::builder()
                    .dns_resolver(std::sync::Arc::new(guard::GuardedResolver { guard: std::sync::Arc::clone(&self.guard) }))
                    .user_agent(concat!("forest/", env!("CARGO_PKG_VERSION"), " (article extraction; +https://crates.io/crates/forest)"))
                    .connect_timeout(self.opts.connect_timeout)
                    .timeout(self.opts.timeout)
                    .redirect(redirects)
                    .build()
                    .map_err(|e| format!("cannot set up HTTP: {e}"))
            })
            .as_ref()
            .map_err(|m| Error::Fetch { url: String::new(), message: m.clone(), status: None })
    }

    /// Let `url`'s origin (scheme, host and port, the default port filled in) reach private
    /// addresses: the user named it (a feed or page URL on the command line), so it is not a
    /// link someone else wrote. Other ports and schemes of the same host are not trusted.
    pub fn trust(&self, url: &url::Url) {
        self.guard.trust(url);
    }

    /// The options in force.
    pub fn options(&self) -> &FetchOptions {
        &self.opts
    }

    /// Read the bytes at `loc`.
    ///
    /// # Errors
    /// [`Error::Io`] for unreadable files, [`Error::Fetch`] for network failures and HTTP
    /// errors (after retries), [`Error::TooLarge`] past the size cap.
    pub fn get(&self, loc: &Location) -> Result<Fetched> {
        match loc {
            Location::File(path) => read_file(path, self.opts.max_bytes)
                .map(|bytes| Fetched::local(loc.clone(), bytes)),
            Location::Url(url) => self.get_url(url, Body::Whole),
        }
    }

    /// The copy of `url` in the cache, without asking the server (`None` with no cache, or
    /// none cached): a crawl reads again the pages it fetched a moment ago.
    pub fn cached(&self, url: &url::Url) -> Option<Fetched> {
        let cache = cache::Cache::new(self.opts.cache.as_deref()?);
        cache.load(url.as_str()).map(|entry| entry.into_fetched(url))
    }

    /// The `robots.txt` at `url`: its first [`ROBOTS_BYTES`] bytes, or whether the server
    /// says there is none (4xx) or failed (5xx, network), as RFC 9309 tells them apart.
    pub fn get_robots(&self, url: &url::Url) -> RobotsTxt {
        match self.get_url(url, Body::Prefix(ROBOTS_BYTES)) {
            Ok(f) => RobotsTxt::Found(f),
            Err(Error::Fetch { status: Some(s), .. }) if (400..500).contains(&s) && s != 429 => RobotsTxt::Unavailable,
            Err(e) => RobotsTxt::Unreachable(e.to_string()),
        }
    }

    fn get_url(&self, url: &url::Url, body: Body) -> Result<Fetched> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Error::Fetch { url: url.to_string(), message: format!("scheme {:?} is not fetched", url.scheme()), status: None });
        }
        let cache = self.opts.cache.as_deref().map(cache::Cache::new);
        let cached = cache.as_ref().and_then(|c| c.load(url.as_str()));
        let host = url.host_str().unwrap_or("").to_string();
        let host_down = self.down.lock().is_ok_and(|d| d.contains(&host));
        if host_down {
            if let Some(entry) = cached {
                return Ok(entry.into_fetched(url));
            }
        }
        let retries = if host_down { 0 } else { self.opts.retries };
        // The client is set up before the host's turn is taken: the delay between two requests
        // is kept as the server sees them, the first one included.
        self.client()?;
        let mut attempt = 0u32;
        loop {
            let turn = self.turns.take(&host);
            let result = self.try_once(url, cached.as_ref(), body);
            drop(turn);
            match result {
                Try::Done(f) => {
                    if let (Some(c), false) = (&cache, f.from_cache) {
                        // A cache that cannot be written is not a reason to fail the fetch.
                        let _ = c.store(url.as_str(), &f);
                    }
                    return Ok(f);
                }
                Try::Fail(e) => return Err(e),
                Try::Again(why, wait, status) => {
                    if attempt >= retries {
                        if let Ok(mut d) = self.down.lock() {
                            d.insert(host.clone());
                        }
                        // The network failed: a cached copy is better than nothing.
                        if let Some(entry) = cached {
                            return Ok(entry.into_fetched(url));
                        }
                        let tries = if attempt == 0 { String::new() } else { format!(" (after {} tries)", attempt + 1) };
                        return Err(Error::Fetch { url: url.to_string(), message: format!("{why}{tries}"), status });
                    }
                    // Doubled at each retry, up to the longest wait a server may ask for.
                    let backoff = self.opts.backoff.saturating_mul(2u32.saturating_pow(attempt)).min(self.opts.max_retry_after);
                    std::thread::sleep(wait.map_or(backoff, |w| w.min(self.opts.max_retry_after)).max(backoff));
                    attempt += 1;
                }
            }
        }
    }

    /// One request: conditional on the cached copy's validators.
    fn try_once(&self, url: &url::Url, cached: Option<&cache::Entry>, body: Body) -> Try {
        // The try's deadline: the whole response, body included, must arrive by then.
        let deadline = Instant::now() + self.opts.timeout;
        let fail = |message: String| Try::Fail(Error::Fetch { url: url.to_string(), message, status: None });
        let client = match self.client() {
            Ok(c) => c,
            Err(e) => return Try::Fail(e),
        };
        let refused = |why: String| {
            let host = why.strip_prefix("refused: ").and_then(|w| w.split(guard::REFUSED).next()).unwrap_or_default();
            Try::Fail(Error::Private { url: url.to_string(), host: host.trim().to_string() })
        };
        if let Err(why) = self.guard.check(url) {
            return refused(why);
        }
        // reqwest's per-request timeout runs from the start of the request to the end of the
        // body (the client's own `timeout` is only a per-read one in the blocking API), so a
        // read blocked at the deadline wakes up then; `read_body` checks it between reads too.
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Try::Again(timed_out(self.opts.timeout, "before the request was sent"), None, None);
        }
        let mut req = client.get(url.clone()).timeout(left);
        if let Some(c) = cached {
            if let Some(etag) = &c.etag {
                req = req.header(reqwest::header::IF_NONE_MATCH, etag);
            }
            if let Some(lm) = &c.last_modified {
                req = req.header(reqwest::header::IF_MODIFIED_SINCE, lm);
            }
        }
        // reqwest's messages name the URL, which the error this makes names already.
        let resp = match req.send().map_err(reqwest::Error::without_url) {
            Ok(r) => r,
            // The guard refused the address (when resolving, or a redirect's target): no retry
            // will change that.
            Err(e) if error_chain(&e).contains(guard::REFUSED) => {
                let chain = error_chain(&e);
                let why = chain.find("refused: ").map_or(chain.as_str(), |i| &chain[i..]);
                return refused(why.to_string());
            }
            Err(e) if e.is_redirect() => return fail(format!("redirect not followed: {}", error_chain(&e))),
            // A connect timeout is its own budget (`connect_timeout`): its message says so.
            Err(e) if e.is_timeout() && !e.is_connect() => {
                return Try::Again(format!("{}: {}", timed_out(self.opts.timeout, "waiting for the response"), error_chain(&e)), None, None);
            }
            Err(e) if e.is_connect() || e.is_request() => return Try::Again(error_chain(&e), None, None),
            Err(e) => return fail(error_chain(&e)),
        };
        let status = resp.status();
        if status == reqwest::StatusCode::NOT_MODIFIED {
            if let Some(c) = cached {
                return Try::Done(c.clone().into_fetched(url));
            }
        }
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            let wait = resp.headers().get(reqwest::header::RETRY_AFTER).and_then(|v| v.to_str().ok()).and_then(retry_after);
            return Try::Again(format!("HTTP {status}"), wait, Some(status.as_u16()));
        }
        if status.is_redirection() {
            let to = resp.headers().get(reqwest::header::LOCATION).and_then(|v| v.to_str().ok()).unwrap_or("?");
            return fail(format!("HTTP {status}: redirect to {to} not followed (only http and https are)"));
        }
        if !status.is_success() {
            return Try::Fail(Error::Fetch { url: url.to_string(), message: format!("HTTP {status}"), status: Some(status.as_u16()) });
        }
        let header = |name| resp.headers().get(name).and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok()).map(str::to_string);
        let content_type = header(reqwest::header::CONTENT_TYPE);
        let etag = header(reqwest::header::ETAG);
        let last_modified = header(reqwest::header::LAST_MODIFIED);
        let (max, whole) = match body {
            Body::Whole => (self.opts.max_bytes, true),
            Body::Prefix(n) => (n.min(self.opts.max_bytes), false),
        };
        if whole && resp.content_length().is_some_and(|n| n > max) {
            return Try::Fail(Error::TooLarge { what: url.to_string(), limit: max });
        }
        let location = Location::Url(resp.url().clone());
        let bytes = match read_body(resp, if whole { max.saturating_add(1) } else { max }, deadline) {
            Ok(b) => b,
            Err(BodyError::Late(got)) => {
                return Try::Again(timed_out(self.opts.timeout, &format!("reading the body ({got} bytes read)")), None, None);
            }
            Err(BodyError::Io(e)) => {
                let late = e.kind() == std::io::ErrorKind::TimedOut
                    || e.get_ref().and_then(|i| i.downcast_ref::<reqwest::Error>()).is_some_and(reqwest::Error::is_timeout);
                if late {
                    // reqwest's cause here is only "operation timed out", twice over.
                    return Try::Again(timed_out(self.opts.timeout, "reading the body"), None, None);
                }
                return Try::Again(format!("body cut short: {}", error_chain(&e)), None, None);
            }
        };
        if bytes.len() as u64 > max {
            return Try::Fail(Error::TooLarge { what: url.to_string(), limit: max });
        }
        Try::Done(Fetched { location, bytes, content_type, from_cache: false, etag, last_modified })
    }
}

/// How reading a body failed.
enum BodyError {
    /// The try's deadline passed, after this many bytes.
    Late(usize),
    /// The transport failed (a timeout of reqwest's own included).
    Io(std::io::Error),
}

/// Read `body` to its end, or to `cap` bytes (a caller that refuses a body over its limit asks
/// for one byte more than the limit, to tell), giving up once `deadline` has passed: a body
/// trickled a byte at a time ends at the deadline, not when the server is done with it.
fn read_body(mut body: impl std::io::Read, cap: u64, deadline: Instant) -> std::result::Result<Vec<u8>, BodyError> {
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    let mut bytes = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    while bytes.len() < cap {
        if Instant::now() >= deadline {
            return Err(BodyError::Late(bytes.len()));
        }
        let want = buf.len().min(cap - bytes.len());
        match body.read(&mut buf[..want]) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(BodyError::Io(e)),
        }
    }
    Ok(bytes)
}

/// The message of a try that missed its deadline.
fn timed_out(limit: Duration, when: &str) -> String {
    format!("timed out {when}: the response took longer than the {}-second limit for a whole response", fmt_secs(limit))
}

/// `1`, `0.5`, `2.25`: seconds as a person writes them.
fn fmt_secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// An error with its causes, one line (reqwest hides the useful part in `source()`).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

/// `Retry-After` as seconds or an HTTP date.
fn retry_after(v: &str) -> Option<Duration> {
    if let Ok(secs) = v.trim().parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = httpdate(v.trim())?;
    Some(when.duration_since(std::time::SystemTime::now()).unwrap_or(Duration::ZERO))
}

/// Parse an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
fn httpdate(s: &str) -> Option<std::time::SystemTime> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    let [_, day, month, year, time, "GMT"] = parts.as_slice() else { return None };
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let m = months.iter().position(|x| x == month)? as i64 + 1;
    let (d, y): (i64, i64) = (day.parse().ok()?, year.parse().ok()?);
    let hms: Vec<i64> = time.split(':').map(|x| x.parse().ok()).collect::<Option<_>>()?;
    let [hh, mm, ss] = hms.as_slice() else { return None };
    // Days from civil (Howard Hinnant's algorithm).
    let (y2, m2) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * m2 + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + hh * 3600 + mm * 60 + ss;
    let secs = u64::try_from(secs).ok()?;
    Some(std::time::UNIX_EPOCH + Duration::from_secs(secs))
}

/// Read the bytes at `loc` with default options and no cache.
///
/// # Errors
/// As [`Fetcher::get`].
pub fn get(loc: &Location) -> Result<Fetched> {
    // The HTTP client is built on first use, so a fetcher costs nothing for a file.
    let fetcher = Fetcher::new(FetchOptions::default())?;
    if let Location::Url(u) = loc {
        fetcher.trust(u);
    }
    fetcher.get(loc)
}

fn read_file(path: &Path, max: u64) -> Result<Vec<u8>> {
    let bytes = read_file_within(path, max)?;
    gunzip_within(bytes, max, &path.display().to_string())
}

/// A file's bytes, at most `max` of them: a larger file, or one that never ends (a link to
/// `/dev/zero`), is [`Error::TooLarge`] once `max` bytes are read, whatever size it claims.
///
/// # Errors
/// [`Error::Io`] when it cannot be read or is a folder; [`Error::TooLarge`] past `max`.
pub fn read_file_within(path: &Path, max: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let io = |source| Error::Io { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(Error::Io { path: path.to_path_buf(), source: std::io::Error::other("is a directory") });
    }
    if meta.len() > max {
        return Err(Error::TooLarge { what: path.display().to_string(), limit: max });
    }
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(Error::TooLarge { what: path.display().to_string(), limit: max });
    }
    Ok(bytes)
}

/// `bytes` inflated when they are gzip (a saved `.html.gz`), at most `max` bytes of it
/// (a gzip bomb is cut there and refused); other bytes as they are.
///
/// # Errors
/// [`Error::TooLarge`] past `max`; [`Error::NotHtml`] for a broken gzip stream.
pub fn gunzip_within(bytes: Vec<u8>, max: u64, what: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes.as_slice())
        .take(max.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| Error::NotHtml { what: what.to_string(), why: format!("broken gzip data: {e}") })?;
    if out.len() as u64 > max {
        return Err(Error::TooLarge { what: format!("{what} (inflated)"), limit: max });
    }
    Ok(out)
}

/// Does this start of a file read as HTML: a doctype, or an `<html`, `<head` or `<body` tag
/// (after white space, a BOM or comments)?
pub fn sniff_html(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head).to_ascii_lowercase();
    ["<!doctype html", "<html", "<head", "<body"].iter().any(|t| text.contains(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_by_bom_header_meta_and_guess() {
        assert_eq!(decode(b"\xEF\xBB\xBFhi", None), "hi");
        assert_eq!(decode(b"caf\xe9", Some("text/html; charset=ISO-8859-1")), "caf\u{e9}");
        assert!(decode(b"<meta http-equiv=Content-Type content='text/html; charset=windows-1252'>\x93q\x94", None)
            .contains("\u{201c}q\u{201d}"));
        assert!(decode("<?xml version='1.0' encoding='UTF-8'?><a>é</a>".as_bytes(), None).contains('é'));
        // A script's charset declares nothing; the meta after it does.
        let archived = b"<head><script src=/wb.js charset=\"utf-8\"></script><meta http-equiv=content-type content=\"text/html; charset=iso-8859-1\"></head>Grauman\x92s";
        assert!(decode(archived, None).ends_with("Grauman\u{2019}s"));
        // Valid UTF-8 is UTF-8 whatever it declares (an archived page keeps a stale meta).
        let stale = "<meta http-equiv=content-type content='text/html; charset=iso-8859-1'>caf\u{e9} \u{2014}";
        assert!(decode(stale.as_bytes(), Some("text/html; charset=iso-8859-1")).ends_with("caf\u{e9} \u{2014}"));
        // No declaration: chardetng recognizes Shift_JIS.
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本語のテキストです。これは長い文章のサンプルです。");
        assert!(decode(&sjis, None).contains("日本語"));
    }

    #[test]
    fn decoding_owned_bytes_reads_as_decoding_borrowed_ones() {
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本語のテキストです。これは長い文章のサンプルです。");
        let cases: [(&[u8], Option<&str>); 9] = [
            (b"\xEF\xBB\xBFhi \xC3\xA9", None),
            (b"plain ascii", None),
            ("caf\u{e9} \u{2014} ok".as_bytes(), None),
            (b"caf\xe9", Some("text/html; charset=ISO-8859-1")),
            (b"<meta charset=utf-8>bad \xFF\xC3 and \xE2\x82 cut \xF0\x9F\x98", None),
            (b"<meta charset=utf-8>caf\xe9", Some("text/html")),
            (b"\xFF\xFEh\x00i\x00", None),
            (&sjis, None),
            (b"undeclared, cut \xC3 and \xE2\x82 here", None),
        ];
        for (bytes, ct) in cases {
            assert_eq!(decode_owned(bytes.to_vec(), ct), decode(bytes, ct), "{bytes:?}");
        }
    }

    #[test]
    fn undeclared_legacy_pages_are_recognized_past_long_ascii_markup() {
        // 100 KB of scripts and markup before the text, no declaration anywhere.
        let script = "<script>var x = 1; function f(a, b) { return a + b; }</script>\n".repeat(1600);
        for (enc, text) in [
            (encoding_rs::WINDOWS_1251, "Москва — столица России, крупнейший город страны.\nЭто длинный текст о городе и его истории.\n"),
            (encoding_rs::WINDOWS_1252, "Café crème, déjà vu: les élèves étaient très contents.\n"),
            (encoding_rs::ISO_8859_7, "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και η μεγαλύτερη πόλη της.\n"),
        ] {
            let html = format!("<html><head><title>t</title>{script}</head><body><p>{text}</p></body></html>");
            let (bytes, _, _) = enc.encode(&html);
            let guess = |input: &[u8]| {
                let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
                det.feed(input, true);
                det.guess(None, chardetng::Utf8Detection::Allow)
            };
            assert_eq!(guess(&detector_input(&bytes)), guess(&bytes), "{}: as on the whole page", enc.name());
            assert!(decode(&bytes, None).contains(text.lines().next().unwrap()), "{}", enc.name());
            assert!(detector_input(&bytes).len() < 300);
        }
        // A page on one line is read up to the bound.
        let one_line = format!("{}caf\u{e9}", "a".repeat(200_000));
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&one_line);
        assert_eq!(detector_input(&bytes).len(), DETECTOR_BYTES);
    }

    #[test]
    fn utf16_pages_decode_and_count_as_html() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "<html><body><p>Grüße, 東京</p></body></html>".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        assert!(decode(&bytes, None).contains("Grüße, 東京"));
        let loc = Location::File("page.html".into());
        let fetched = Fetched::local(loc.clone(), bytes);
        let page = crate::Page::from_fetched(&loc, fetched, &crate::budget::Budget::default()).unwrap();
        assert_eq!(page.doc.text(page.doc.body), "Grüße, 東京");
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(retry_after("Sun, 06 Nov 1994 08:49:37 GMT"), Some(Duration::ZERO));
        let t = httpdate("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(t.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs(), 784_111_777);
        assert_eq!(retry_after("soon"), None);
    }

    /// A body that gives one byte per read, each after `gap`, without end.
    struct Trickle {
        gap: Duration,
    }

    impl std::io::Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            std::thread::sleep(self.gap);
            buf[0] = b'x';
            Ok(1)
        }
    }

    #[test]
    fn a_trickled_body_ends_at_the_deadline() {
        let started = Instant::now();
        let r = read_body(Trickle { gap: Duration::from_millis(20) }, 1 << 20, started + Duration::from_millis(300));
        let Err(BodyError::Late(got)) = r else { panic!("the deadline did not end the read") };
        assert!(got >= 1, "bytes before the deadline are counted: {got}");
        // A generous bound: it proves the read stopped, not how fast.
        assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    }

    #[test]
    fn a_body_reads_to_its_end_or_to_the_cap() {
        let far = Instant::now() + Duration::from_secs(3600);
        let Ok(all) = read_body(&b"hello"[..], 10, far) else { panic!("a short body reads whole") };
        assert_eq!(all, b"hello");
        let big = vec![7u8; 100_000];
        let Ok(cut) = read_body(big.as_slice(), 40_001, far) else { panic!("a long body reads to the cap") };
        assert_eq!(cut.len(), 40_001, "a caller asks one byte past its limit to tell a body over it");
        let past = Instant::now();
        assert!(matches!(read_body(&b"hello"[..], 10, past), Err(BodyError::Late(0))), "a passed deadline reads nothing");
    }

    #[test]
    fn seconds_read_as_written() {
        assert_eq!(fmt_secs(Duration::from_secs(1)), "1");
        assert_eq!(fmt_secs(Duration::from_millis(2500)), "2.5");
    }

    #[test]
    fn location_stems() {
        assert_eq!(Location::parse("a/b/page-1.html").stem(), "page-1");
        assert_eq!(Location::parse("http://x.org/2013/story/index.html").stem(), "index");
        assert_eq!(Location::parse("http://x.org/").stem(), "index");
    }
}
