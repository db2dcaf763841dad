//! A tiny HTTP/1.1 server on 127.0.0.1 for tests: serves fixed routes, never reaches further.
//!
//! A route answers one [`Reply`], or a sequence of them (the n-th request gets the n-th reply,
//! the last one repeats). A reply can carry extra headers, wait before answering, honour
//! `If-None-Match` with a 304, claim a `Content-Length` larger than its body and hang up,
//! stream a body until the client goes away, or trickle it a byte at a time. Every loop is bounded: the server accepts at most
//! `max_requests` connections, each connection has read/write timeouts, sleeps and streams
//! check a stop flag and a size bound, and [`Server::stop`] (or dropping the server) closes the
//! listener and joins every thread.

#![allow(dead_code)] // each test file uses a different part of it

pub mod cli;
pub mod faults;
pub mod pages;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A xorshift generator for tests: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// How the body of a reply is sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// `Content-Length` and the whole body.
    Whole,
    /// `Content-Length: claimed` (larger than the body), the body, then the connection closes.
    CutShort { claimed: usize },
    /// Chunked encoding, the body repeated until the client goes away or `limit` bytes were
    /// sent (whichever comes first; also stops on the server's stop flag).
    Stream { limit: usize },
    /// `Content-Length` of the body, the first `sent` bytes, then silence for `stall` before
    /// hanging up.
    Stall { sent: usize, stall: Duration },
    /// `Content-Length` of the body, then the body one byte at a time, one every `every`,
    /// until it is all sent, the client goes away, or `MAX_WAIT` has passed.
    Trickle { every: Duration },
}

/// A response.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// Extra headers (`Location`, `Retry-After`, …).
    pub headers: Vec<(String, String)>,
    /// Wait this long before sending anything (checks the stop flag).
    pub delay: Duration,
    /// How the body goes out.
    pub mode: Body,
    /// Send this `ETag`, and answer 304 (no body) to an `If-None-Match` that names it.
    pub etag: Option<String>,
}

impl Reply {
    /// 200 with this content type and body.
    pub fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.into(),
            headers: Vec::new(),
            delay: Duration::ZERO,
            mode: Body::Whole,
            etag: None,
        }
    }

    /// A status with a short plain-text body.
    pub fn status(status: u16) -> Reply {
        Reply { status, ..Reply::ok("text/plain", format!("status {status}")) }
    }

    /// A 302 to `to` (a path or a URL).
    pub fn redirect(to: &str) -> Reply {
        Reply::status(302).header("Location", to)
    }

    /// Add a header.
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Wait before answering.
    pub fn after(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }

    /// Send an ETag and honour `If-None-Match`.
    pub fn etag(mut self, tag: &str) -> Reply {
        self.etag = Some(tag.to_string());
        self
    }

    /// Claim `claimed` bytes, send the body, hang up.
    pub fn cut_short(mut self, claimed: usize) -> Reply {
        assert!(claimed > self.body.len());
        self.mode = Body::CutShort { claimed };
        self
    }

    /// Stream the body over and over (chunked) until the client leaves or `limit` bytes.
    pub fn stream(mut self, limit: usize) -> Reply {
        assert!(!self.body.is_empty());
        self.mode = Body::Stream { limit };
        self
    }

    /// Send the headers and `sent` bytes of the body, then nothing for `stall`.
    pub fn stall(mut self, sent: usize, stall: Duration) -> Reply {
        self.mode = Body::Stall { sent: sent.min(self.body.len()), stall };
        self
    }

    /// Send the headers at once, then the body one byte every `every`.
    pub fn trickle(mut self, every: Duration) -> Reply {
        self.mode = Body::Trickle { every };
        self
    }
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    /// Header names lowercased.
    pub headers: Vec<(String, String)>,
    /// The status answered.
    pub status: u16,
    /// When it arrived.
    pub at: Instant,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }
}

/// How sending one reply ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub path: String,
    /// Body bytes written (accepted by the socket).
    pub body_bytes: usize,
    /// A write failed: the client had gone away.
    pub client_left: bool,
    /// When the handler finished.
    pub at: Instant,
}

/// A running server; `base` is `http://127.0.0.1:PORT`. Requests seen are counted per path.
pub struct Server {
    pub base: String,
    pub hits: Arc<Mutex<HashMap<String, usize>>>,
    /// Every request, in arrival order.
    pub seen: Arc<Mutex<Vec<Seen>>>,
    /// How each reply's sending ended, in completion order.
    pub outcomes: Arc<Mutex<Vec<Outcome>>>,
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
    workers: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

/// Routes to serve: path (with query, as requested) → replies in order.
#[derive(Default, Clone)]
pub struct Site {
    routes: HashMap<String, Vec<Reply>>,
}

impl Site {
    pub fn new() -> Site {
        Site::default()
    }

    /// `path` always answers `reply`.
    pub fn at(mut self, path: &str, reply: Reply) -> Site {
        self.routes.insert(path.to_string(), vec![reply]);
        self
    }

    /// `path` answers `replies` in order, then keeps answering the last one.
    pub fn seq(mut self, path: &str, replies: Vec<Reply>) -> Site {
        assert!(!replies.is_empty());
        self.routes.insert(path.to_string(), replies);
        self
    }

    /// Serve on a fresh loopback port, for at most `max_requests` requests.
    pub fn serve(self, max_requests: usize) -> Server {
        start(self.routes, max_requests)
    }

    /// Serve on `listener` (from [`listener`], for routes that must name the server's own
    /// address), for at most `max_requests` requests.
    pub fn serve_on(self, listener: TcpListener, max_requests: usize) -> Server {
        start_on(listener, self.routes, max_requests)
    }
}

/// A fresh loopback listener and its base URL (`http://127.0.0.1:PORT`).
pub fn listener() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    (listener, base)
}

/// Serve `routes` (path → reply) on a fresh loopback port, for at most `max_requests` requests.
pub fn serve(routes: HashMap<String, Reply>, max_requests: usize) -> Server {
    start(routes.into_iter().map(|(k, v)| (k, vec![v])).collect(), max_requests)
}

const IO_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest sleep or stall, whatever a reply asks for.
const MAX_WAIT: Duration = Duration::from_secs(20);

fn start(routes: HashMap<String, Vec<Reply>>, max_requests: usize) -> Server {
    start_on(TcpListener::bind("127.0.0.1:0").expect("bind loopback"), routes, max_requests)
}

fn start_on(listener: TcpListener, routes: HashMap<String, Vec<Reply>>, max_requests: usize) -> Server {
    let addr = listener.local_addr().expect("addr");
    assert!(addr.ip().is_loopback());
    let base = format!("http://{addr}");
    let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let outcomes: Arc<Mutex<Vec<Outcome>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let workers: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
    let routes = Arc::new(routes);
    let accept = {
        let (hits, seen, outcomes, stop, workers) =
            (Arc::clone(&hits), Arc::clone(&seen), Arc::clone(&outcomes), Arc::clone(&stop), Arc::clone(&workers));
        std::thread::spawn(move || {
            for stream in listener.incoming().take(max_requests) {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (routes, hits, seen, outcomes, stop) =
                    (Arc::clone(&routes), Arc::clone(&hits), Arc::clone(&seen), Arc::clone(&outcomes), Arc::clone(&stop));
                let worker = std::thread::spawn(move || {
                    handle(stream, &routes, &hits, &seen, &outcomes, &stop);
                });
                workers.lock().expect("lock").push(worker);
            }
            // The listener is dropped here: the port refuses connections from now on.
        })
    };
    Server { base, hits, seen, outcomes, addr, stop, accept: Some(accept), workers }
}

/// Sleep `d` (capped) in small steps, returning early when `stop` is set.
fn nap(d: Duration, stop: &AtomicBool) {
    let end = Instant::now() + d.min(MAX_WAIT);
    while !stop.load(Ordering::SeqCst) {
        let now = Instant::now();
        if now >= end {
            break;
        }
        std::thread::sleep((end - now).min(Duration::from_millis(20)));
    }
}

fn handle(
    mut stream: TcpStream,
    routes: &HashMap<String, Vec<Reply>>,
    hits: &Mutex<HashMap<String, usize>>,
    seen: &Mutex<Vec<Seen>>,
    outcomes: &Mutex<Vec<Outcome>>,
    stop: &AtomicBool,
) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let Ok(clone) = stream.try_clone() else { return };
    let mut reader = BufReader::new(clone);
    let mut request = String::new();
    if reader.read_line(&mut request).unwrap_or(0) == 0 {
        return; // a connection that sent nothing (e.g. the stop wake-up)
    }
    let mut headers = Vec::new();
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        if let Some((k, v)) = line.trim_end().split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
    let n = {
        let mut hits = hits.lock().expect("lock");
        let n = hits.entry(path.clone()).or_insert(0);
        *n += 1;
        *n
    };
    let reply = routes
        .get(&path)
        .map(|r| r[(n - 1).min(r.len() - 1)].clone())
        .unwrap_or_else(|| Reply { content_type: "text/plain", body: b"not found".to_vec(), ..Reply::status(404) });
    let not_modified = reply.etag.as_deref().is_some_and(|tag| {
        headers.iter().any(|(k, v)| k == "if-none-match" && v.split(',').any(|t| t.trim() == tag))
    });
    let status = if not_modified { 304 } else { reply.status };
    seen.lock().expect("lock").push(Seen { path: path.clone(), headers, status, at: Instant::now() });

    nap(reply.delay, stop);
    let mut head = format!("HTTP/1.1 {status} X\r\nContent-Type: {}\r\nConnection: close\r\n", reply.content_type);
    if let Some(tag) = &reply.etag {
        head.push_str(&format!("ETag: {tag}\r\n"));
    }
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    let mut sent = 0usize;
    let mut left = false;
    let mut send = |stream: &mut TcpStream, bytes: &[u8]| -> bool {
        let ok = stream.write_all(bytes).and_then(|()| stream.flush()).is_ok();
        left |= !ok;
        ok
    };
    if not_modified {
        head.push_str("Content-Length: 0\r\n\r\n");
        send(&mut stream, head.as_bytes());
    } else {
        match &reply.mode {
            Body::Whole => {
                head.push_str(&format!("Content-Length: {}\r\n\r\n", reply.body.len()));
                if send(&mut stream, head.as_bytes()) && send(&mut stream, &reply.body) {
                    sent = reply.body.len();
                }
            }
            Body::CutShort { claimed } => {
                head.push_str(&format!("Content-Length: {claimed}\r\n\r\n"));
                if send(&mut stream, head.as_bytes()) && send(&mut stream, &reply.body) {
                    sent = reply.body.len();
                }
            }
            Body::Stall { sent: part, stall } => {
                head.push_str(&format!("Content-Length: {}\r\n\r\n", reply.body.len()));
                if send(&mut stream, head.as_bytes()) && send(&mut stream, &reply.body[..*part]) {
                    sent = *part;
                    nap(*stall, stop);
                }
            }
            Body::Trickle { every } => {
                head.push_str(&format!("Content-Length: {}\r\n\r\n", reply.body.len()));
                if send(&mut stream, head.as_bytes()) {
                    let started = Instant::now();
                    for byte in reply.body.chunks(1) {
                        if stop.load(Ordering::SeqCst) || started.elapsed() >= MAX_WAIT || !send(&mut stream, byte) {
                            break;
                        }
                        sent += 1;
                        nap(*every, stop);
                    }
                }
            }
            Body::Stream { limit } => {
                head.push_str("Transfer-Encoding: chunked\r\n\r\n");
                let mut chunk = format!("{:x}\r\n", reply.body.len()).into_bytes();
                chunk.extend_from_slice(&reply.body);
                chunk.extend_from_slice(b"\r\n");
                if send(&mut stream, head.as_bytes()) {
                    let started = Instant::now();
                    while sent < *limit && !stop.load(Ordering::SeqCst) && started.elapsed() < MAX_WAIT {
                        if !send(&mut stream, &chunk) {
                            break;
                        }
                        sent += reply.body.len();
                    }
                    if sent >= *limit {
                        send(&mut stream, b"0\r\n\r\n");
                    }
                }
            }
        }
    }
    let _ = stream.shutdown(std::net::Shutdown::Both);
    outcomes.lock().expect("lock").push(Outcome { path, body_bytes: sent, client_left: left, at: Instant::now() });
}

impl Server {
    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Requests seen for `path`.
    pub fn hits(&self, path: &str) -> usize {
        self.hits.lock().expect("lock").get(path).copied().unwrap_or(0)
    }

    /// All requests seen for `path`, in order.
    pub fn requests(&self, path: &str) -> Vec<Seen> {
        self.seen.lock().expect("lock").iter().filter(|s| s.path == path).cloned().collect()
    }

    /// The first outcome for `path`, waiting up to `wait` for its handler to finish.
    pub fn outcome(&self, path: &str, wait: Duration) -> Option<Outcome> {
        let end = Instant::now() + wait;
        loop {
            if let Some(o) = self.outcomes.lock().expect("lock").iter().find(|o| o.path == path) {
                return Some(o.clone());
            }
            if Instant::now() >= end {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Stop for good: the listener is closed (connections are refused) and every thread joined.
    /// The listener lives in the accept thread, so it is closed once that thread is joined; the
    /// port is not probed afterwards, because a test running beside this one may already have
    /// been given the same port for its own server.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(accept) = self.accept.take() {
            // Wake `accept` (if the thread is still waiting there) with a connection of our own.
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(500));
            let _ = accept.join();
        }
        let workers: Vec<JoinHandle<()>> = std::mem::take(&mut *self.workers.lock().unwrap_or_else(|e| e.into_inner()));
        for w in workers {
            let _ = w.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

// ---------------------------------------------------------------------------------------------
// gzip bodies, written by hand (no compression crate among the dependencies)
// ---------------------------------------------------------------------------------------------

fn crc32(bytes: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *t = c;
    }
    let mut crc = !0u32;
    for &b in bytes {
        crc = table[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

fn gzip_trailer(out: &mut Vec<u8>, crc: u32, len: usize) {
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&(len as u32).to_le_bytes());
}

/// `data` as a gzip member of stored (uncompressed) deflate blocks.
pub fn gzip_stored(data: &[u8]) -> Vec<u8> {
    let mut out = GZIP_HEADER.to_vec();
    let chunks: Vec<&[u8]> = if data.is_empty() { vec![&[][..]] } else { data.chunks(65_535).collect() };
    for (i, chunk) in chunks.iter().enumerate() {
        out.push(u8::from(i + 1 == chunks.len())); // BFINAL, BTYPE=00, padding
        let len = chunk.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(chunk);
    }
    gzip_trailer(&mut out, crc32(data), data.len());
    out
}

/// Bits into bytes, least significant first (deflate's order).
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    /// `count` bits of `value`, low bit first.
    fn put(&mut self, value: u32, count: u32) {
        self.acc |= u64::from(value) << self.n;
        self.n += count;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    /// A Huffman code of `count` bits (sent most significant bit first).
    fn code(&mut self, code: u32, count: u32) {
        let reversed = code.reverse_bits() >> (32 - count);
        self.put(reversed, count);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// A gzip member that inflates to `len` bytes of `a` (a "gzip bomb"): one literal, then
/// length-258 matches at distance 1, fixed Huffman codes (13 bits per 258 bytes).
pub fn gzip_bomb(len: usize) -> Vec<u8> {
    assert!(len >= 1);
    let mut bits = Bits::default();
    bits.put(1, 1); // BFINAL
    bits.put(1, 2); // BTYPE = 01, fixed codes
    bits.code(0x30 + u32::from(b'a'), 8); // literal 'a'
    let mut left = len - 1;
    while left > 0 {
        // Lengths 3..=258; keep the tail at least 3.
        let mut n = left.min(258);
        if left - n > 0 && left - n < 3 {
            n -= 3;
        }
        let (code, extra, extra_bits) = length_code(n);
        if code < 280 {
            bits.code(code - 256, 7);
        } else {
            bits.code(0xC0 + (code - 280), 8);
        }
        bits.put(extra, extra_bits);
        bits.code(0, 5); // distance code 0: distance 1
        left -= n;
    }
    bits.code(0, 7); // end of block (256)
    let mut out = GZIP_HEADER.to_vec();
    out.extend_from_slice(&bits.finish());
    gzip_trailer(&mut out, crc32(&vec![b'a'; len]), len);
    out
}

/// Deflate length code for a match length 3..=258: (code, extra value, extra bit count).
fn length_code(n: usize) -> (u32, u32, u32) {
    const BASE: [usize; 29] =
        [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
    const EXTRA: [u32; 29] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
    let i = BASE.iter().rposition(|&b| b <= n).expect("length >= 3");
    (257 + i as u32, (n - BASE[i]) as u32, EXTRA[i])
}
