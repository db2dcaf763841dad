//! WARC reading at scale: memory stays that of one record, measured by a counting allocator
//! (so this file holds one test that runs by default), and an ignored throughput run:
//! `cargo test --release --test warc -- --ignored --nocapture` (WARC_BENCH_MB sets the size).

use forest::warc::{self, Limits, Reader, Stats, Writer};
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufReader, Cursor, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed to `System` unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `System.alloc`, same layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const DATE: &str = "2024-05-01T12:00:00Z";
const MIB: usize = 1024 * 1024;

/// `n` small HTML responses as a plain WARC.
fn small_records(n: usize, from: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    for i in from..from + n {
        let body = format!("<html><body><p>page {i}</p></body></html>");
        w.response(&format!("http://a.test/{i}"), DATE, &[("Content-Type", "text/html")], body.as_bytes()).unwrap();
    }
    w.finish().unwrap();
    out
}

#[test]
fn memory_stays_that_of_one_record() {
    // 1000 small pages, a 9 MiB page, a 256 MiB record made on the fly (never in memory
    // here), 1000 small pages.
    let before = small_records(1000, 0);
    let mut nine = Vec::new();
    let body = format!("<html><body>{}</body></html>", "<p>x</p>".repeat(9 * MIB / 8));
    Writer::new(&mut nine).response("http://a.test/nine", DATE, &[("Content-Type", "text/html")], body.as_bytes()).unwrap();
    let nine_len = body.len();
    drop(body);
    let huge: u64 = 256 * MIB as u64;
    let huge_head = format!("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.test/huge\r\nContent-Length: {huge}\r\n\r\n");
    let after = small_records(1000, 1000);
    let stream = Cursor::new(before)
        .chain(Cursor::new(nine))
        .chain(Cursor::new(huge_head.into_bytes()))
        .chain(std::io::repeat(b'x').take(huge))
        .chain(Cursor::new(b"\r\n\r\n".to_vec()))
        .chain(Cursor::new(after));

    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut stats = Stats::default();
    let mut largest = 0;
    Reader::with_limits(BufReader::new(stream), Limits::default()).pages(&mut stats, |_, f| largest = largest.max(f.bytes.len()));
    let peak = PEAK.load(Ordering::Relaxed) - base;

    assert_eq!((stats.records, stats.html, stats.skipped_too_large, stats.skipped_bad), (2001, 2001, 1, 0), "{stats}");
    assert_eq!(largest, nine_len);
    assert!(stats.bytes > huge);
    assert!(peak < nine_len + MIB, "peak {peak} bytes over one {nine_len}-byte record");
}

/// Pseudo-random article text from a fixed vocabulary (compresses about as real text does).
fn article(seed: &mut u64, words: usize) -> String {
    const SYLLABLES: [&str; 16] = ["ka", "lo", "mi", "tre", "son", "ver", "al", "pu", "ne", "gri", "dos", "ba", "el", "quin", "ru", "xa"];
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    let mut html = String::from("<html><head><title>A page</title></head><body><nav><a href=/>Home</a></nav><article>");
    for i in 0..words {
        if i % 60 == 0 {
            html.push_str("</p><p>");
        }
        let r = next();
        for k in 0..(1 + r % 3) {
            html.push_str(SYLLABLES[((r >> (8 * k + 4)) % 16) as usize]);
        }
        html.push(' ');
    }
    html.push_str("</p></article><footer>© Site</footer></body></html>");
    html
}

#[test]
#[ignore = "throughput run: writes a ~100 MB .warc.gz in a temporary folder"]
fn throughput_of_a_gzipped_warc() {
    let target: u64 = std::env::var("WARC_BENCH_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(100) * 1_000_000;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.warc.gz");
    let start = Instant::now();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut w = Writer::gzip(&mut file);
    let mut written = 0;
    while std::fs::metadata(&path).unwrap().len() < target {
        for _ in 0..100 {
            let body = article(&mut seed, 4000);
            let uri = format!("https://news.test/{written}");
            w.response(&uri, DATE, &[("Content-Type", "text/html; charset=utf-8")], body.as_bytes()).unwrap();
            written += 1;
        }
    }
    w.finish().unwrap();
    drop(file);
    let gz = std::fs::metadata(&path).unwrap().len();
    eprintln!("wrote {written} records, {:.1} MB gzipped, in {:.1?}", gz as f64 / 1e6, start.elapsed());

    let start = Instant::now();
    let mut n = 0;
    let mut reader = Reader::open(&path).unwrap();
    for r in reader.by_ref() {
        n += r.unwrap().block.len();
    }
    let raw = reader.offset();
    let t = start.elapsed().as_secs_f64();
    eprintln!("records: {:.1} MB/s gzipped, {:.1} MB/s uncompressed ({n} block bytes)", gz as f64 / 1e6 / t, raw as f64 / 1e6 / t);

    let start = Instant::now();
    let mut stats = Stats::default();
    warc::pages(&path, Limits::default(), &mut stats, |_, f| n += f.bytes.len()).unwrap();
    let t = start.elapsed().as_secs_f64();
    assert_eq!(stats.html, written);
    eprintln!("pages: {:.1} MB/s gzipped, {:.1} MB/s uncompressed; {stats}", gz as f64 / 1e6 / t, stats.bytes as f64 / 1e6 / t);
}
