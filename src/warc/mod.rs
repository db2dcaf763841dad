//! WARC: the pages of a web archive, read as a stream.
//!
//! WARC (ISO 28500; versions 1.0 and 1.1 read, 0.18 tolerated) is the format crawlers and
//! Common Crawl keep what they fetched in: records, each a version line (`WARC/1.1`), named
//! header fields (`WARC-Type`, `WARC-Target-URI`, `Content-Length`…, names case-insensitive),
//! a blank line, `Content-Length` bytes of block, then `\r\n\r\n`. A `.warc.gz` is that stream
//! gzipped, usually one gzip member per record; [`Reader::open`] tells by the magic bytes.
//!
//! A [`Reader`] holds one record at a time, whatever the file's size:
//! - a record whose block is over [`Limits::max_record_bytes`] is read and thrown away in
//!   chunks, never held, and yields [`Error::TooLarge`]; a header section over
//!   [`Limits::max_header_bytes`] is a bad record;
//! - a bad record (no or bad `Content-Length`, a header line without a colon) or bytes between
//!   records that are not a record yield one [`Error::Warc`], then the reader resynchronizes on
//!   the next version line; separators may be `\r\n\r\n`, `\n\n` or missing;
//! - a file that ends inside a record, or a gzip stream that is cut or corrupt, yields one
//!   error after the records before it, then the iteration ends.
//!
//! [`Record::into_page`] turns a `response` record (HTTP status 200, HTML) into a
//! [`Fetched`] for [`crate::Page::from_fetched`], HTTP `Content-Type` (so its `charset`)
//! included; [`pages`] does so for a whole file with counted skips ([`Stats`]). [`Writer`]
//! writes WARC/1.1 files, plain or gzipped per record, for tests and benches.

use crate::fetch::{Fetched, Location};
use crate::{Error, Result};
use flate2::Compression;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read, Write};
use std::path::Path;
use std::sync::Arc;

mod http;
mod writer;

use http::{is_html_type, looks_like_html, parse_http, HttpError};
pub use writer::Writer;

/// Default largest record block (and decoded HTTP body), in bytes.
pub const MAX_RECORD_BYTES: u64 = 10 * 1024 * 1024;
/// Default largest header section of a record, in bytes.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// Size budgets of a [`Reader`]: what one record may take in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest record block; a larger record is skipped, its bytes read and discarded in
    /// chunks. Also caps an HTTP body after gzip/deflate decoding. Default: 10 MiB.
    pub max_record_bytes: u64,
    /// Largest WARC header section of a record (a larger one is a bad record). Default: 64 KiB.
    pub max_header_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_record_bytes: MAX_RECORD_BYTES, max_header_bytes: MAX_HEADER_BYTES }
    }
}

/// One WARC record: its named fields and its block.
#[derive(Debug, Clone)]
pub struct Record {
    /// The file (or stream) it was read from, for messages.
    pub file: Arc<str>,
    /// Byte offset of its version line in the (decompressed) stream.
    pub offset: u64,
    /// The version line, e.g. `WARC/1.1`.
    pub version: String,
    /// `WARC-Type` (`response`, `request`, `warcinfo`, `metadata`, `revisit`, `resource`…);
    /// empty when missing.
    pub warc_type: String,
    /// `WARC-Target-URI`, without the angle brackets some WARC/1.0 writers put around it.
    pub target_uri: Option<String>,
    /// `WARC-Date`.
    pub date: Option<String>,
    /// `WARC-Record-ID`.
    pub record_id: Option<String>,
    /// `Content-Type` of the block (`application/http; msgtype=response` for HTTP responses).
    pub content_type: Option<String>,
    /// All header fields in file order, names as written (folded lines joined).
    pub headers: Vec<(String, String)>,
    /// The block: exactly `Content-Length` bytes.
    pub block: Vec<u8>,
}

/// An HTTP response parsed out of a `response` record's block.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Header fields in order, names as written.
    pub headers: Vec<(String, String)>,
    /// The body: de-chunked under `Transfer-Encoding: chunked`, decoded under
    /// `Content-Encoding: gzip` or `deflate`.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first header field named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        field(&self.headers, name)
    }
}

/// Why a record is not a page (see [`Record::into_page`]).
#[derive(Debug)]
pub enum NotPage {
    /// Not a `response` record: `warcinfo`, `request`, `metadata`, `revisit`, `resource`…
    NotResponse,
    /// An HTTP response with a status other than 200.
    Status(u16),
    /// Not HTML: the content type (HTTP, or the WARC one for non-HTTP responses), or why.
    NotHtml(String),
    /// A response that cannot be read: target URI, status line, headers, body encoding.
    Bad(Error),
}

impl fmt::Display for NotPage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotPage::NotResponse => write!(f, "not a response record"),
            NotPage::Status(s) => write!(f, "HTTP status {s}"),
            NotPage::NotHtml(why) => write!(f, "not HTML ({why})"),
            NotPage::Bad(e) => write!(f, "{e}"),
        }
    }
}

impl Record {
    /// The first header field named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        field(&self.headers, name)
    }

    /// The HTTP response in the block (copied), its body decoded up to `max_body` bytes.
    ///
    /// # Errors
    /// [`Error::Warc`] for a bad status line or header, or a body that does not decode;
    /// [`Error::TooLarge`] for a decoded body over `max_body`.
    pub fn http_response(&self, max_body: u64) -> Result<HttpResponse> {
        parse_http(self.block.clone(), max_body).map_err(|e| self.http_error(e, max_body))
    }

    fn http_error(&self, e: HttpError, max_body: u64) -> Error {
        match e {
            HttpError::Bad(message) => self.error(message),
            HttpError::TooLarge => Error::TooLarge { what: self.what("HTTP body"), limit: max_body },
        }
    }

    /// The record as a page: a `response` with HTTP status 200 and an HTML content type (or,
    /// when there is none, `WARC-Identified-Payload-Type`, else a body that looks like HTML).
    /// The [`Fetched`] carries the body, the HTTP `Content-Type` (and so its `charset`), ETag
    /// and Last-Modified; the body is the block's own buffer, not a copy.
    ///
    /// # Errors
    /// Why it is not a page, [`NotPage::Bad`] when it cannot be read.
    pub fn into_page(mut self, max_body: u64) -> std::result::Result<(url::Url, Fetched), NotPage> {
        if !self.warc_type.eq_ignore_ascii_case("response") {
            return Err(NotPage::NotResponse);
        }
        if let Some(ct) = &self.content_type {
            if !ct.to_ascii_lowercase().contains("application/http") {
                return Err(NotPage::NotHtml(ct.clone()));
            }
        }
        let target = self.target_uri.as_deref().ok_or_else(|| NotPage::Bad(self.error("no WARC-Target-URI")))?;
        let url = url::Url::parse(target)
            .map_err(|e| NotPage::Bad(self.error(format!("WARC-Target-URI {target:?} is not a URL: {e}"))))?;
        let block = std::mem::take(&mut self.block);
        let http = parse_http(block, max_body).map_err(|e| NotPage::Bad(self.http_error(e, max_body)))?;
        if http.status != 200 {
            return Err(NotPage::Status(http.status));
        }
        let content_type = http.header("Content-Type").map(str::trim).filter(|c| !c.is_empty()).map(str::to_string);
        let declared = content_type.as_deref().or_else(|| self.header("WARC-Identified-Payload-Type"));
        match declared {
            Some(ct) if !is_html_type(ct) => return Err(NotPage::NotHtml(ct.to_string())),
            None if !looks_like_html(&http.body) => {
                return Err(NotPage::NotHtml("no content type, and the body does not look like HTML".into()))
            }
            _ => {}
        }
        let etag = http.header("ETag").map(str::to_string);
        let last_modified = http.header("Last-Modified").map(str::to_string);
        let fetched = Fetched {
            location: Location::Url(url.clone()),
            bytes: http.body,
            content_type,
            from_cache: false,
            etag,
            last_modified,
        };
        Ok((url, fetched))
    }

    fn what(&self, what: &str) -> String {
        format!("{what} of the WARC record at offset {} of {}", self.offset, self.file)
    }

    fn error(&self, message: impl Into<String>) -> Error {
        Error::Warc { file: self.file.to_string(), offset: self.offset, message: message.into() }
    }
}

/// Reads WARC records one at a time from any [`BufRead`]; an [`Iterator`] of records.
///
/// Bad records are error items and the iteration goes on (see the module doc); after a read
/// error or the end of the input it returns `None`.
pub struct Reader<R: BufRead> {
    inner: R,
    file: Arc<str>,
    limits: Limits,
    offset: u64,
    done: bool,
    /// A version line met while resynchronizing: its offset and text.
    pending: Option<(u64, String)>,
    /// Scratch for one line.
    line: Vec<u8>,
}

impl Reader<Box<dyn BufRead + Send>> {
    /// Open a `.warc` or `.warc.gz` file (gzip told by its magic bytes, one or many members).
    ///
    /// # Example
    /// ```no_run
    /// for record in forest::warc::Reader::open("crawl.warc.gz".as_ref())? {
    ///     match record {
    ///         Ok(r) => println!("{} {}", r.warc_type, r.target_uri.unwrap_or_default()),
    ///         Err(e) => eprintln!("skipped: {e}"),
    ///     }
    /// }
    /// # Ok::<(), forest::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or read; [`Error::Warc`] when it is not a
    /// WARC file (neither it nor its gunzipped bytes start with `WARC/`).
    pub fn open(path: &Path) -> Result<Self> {
        Self::open_with_limits(path, Limits::default())
    }

    /// As [`Reader::open`], with other size budgets.
    ///
    /// # Errors
    /// As [`Reader::open`].
    pub fn open_with_limits(path: &Path, limits: Limits) -> Result<Self> {
        let file = File::open(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
        Self::sniff(BufReader::with_capacity(1 << 16, file), path, limits)
    }

    /// Gunzip `src` if it starts with the gzip magic bytes; check it starts with `WARC/`.
    fn sniff<S: BufRead + Send + 'static>(mut src: S, path: &Path, limits: Limits) -> Result<Self> {
        let name = path.display().to_string();
        let not_warc = |message: String| Error::Warc { file: name.clone(), offset: 0, message };
        let magic = loop {
            match src.fill_buf() {
                Ok(b) => break b.get(..4).unwrap_or(b).to_vec(),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(source) => return Err(Error::Io { path: path.to_path_buf(), source }),
            }
        };
        if magic == [0x28, 0xb5, 0x2f, 0xfd] {
            return Err(not_warc("it is zstd-compressed: decompress it first (zstd -d)".into()));
        }
        let mut stream: Box<dyn BufRead + Send> = if magic.starts_with(&[0x1f, 0x8b]) {
            Box::new(BufReader::with_capacity(1 << 16, flate2::bufread::MultiGzDecoder::new(src)))
        } else {
            Box::new(src)
        };
        let mut head = [0u8; 5];
        let mut n = 0;
        while let Some(rest) = head.get_mut(n..).filter(|r| !r.is_empty()) {
            match stream.read(rest) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(not_warc(format!("it cannot be read as gzip ({e})"))),
            }
        }
        let head = head.get(..n).unwrap_or_default();
        if b"WARC/".get(..n) != Some(head) {
            return Err(not_warc(format!(
                "not a WARC file (it starts with {:?}, not WARC/): forest reads WARC 1.0 and 1.1, plain or gzipped",
                String::from_utf8_lossy(head)
            )));
        }
        let mut reader = Reader::with_limits(Box::new(Cursor::new(head.to_vec()).chain(stream)) as Box<dyn BufRead + Send>, limits);
        reader.file = name.into();
        Ok(reader)
    }
}

impl<R: BufRead> Reader<R> {
    /// A reader of the uncompressed WARC stream `r`, with default [`Limits`].
    pub fn new(r: R) -> Self {
        Self::with_limits(r, Limits::default())
    }

    /// A reader of the uncompressed WARC stream `r`.
    pub fn with_limits(r: R, limits: Limits) -> Self {
        Reader { inner: r, file: "<stream>".into(), limits, offset: 0, done: false, pending: None, line: Vec::new() }
    }

    /// Bytes read so far (uncompressed).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Give the HTML pages of the stream to `f` (see [`Record::into_page`]) and count everything
    /// read and skipped into `stats`. Bad records are counted, never an error.
    pub fn pages(mut self, stats: &mut Stats, mut f: impl FnMut(url::Url, Fetched)) {
        while let Some((url, fetched)) = self.next_page(stats) {
            f(url, fetched);
        }
    }

    /// The next HTML page of the stream (see [`Record::into_page`]), `None` at the end; the
    /// records read and skipped on the way are counted into `stats` (bad ones never an error).
    pub fn next_page(&mut self, stats: &mut Stats) -> Option<(url::Url, Fetched)> {
        let max_body = self.limits.max_record_bytes;
        let before = self.offset;
        let found = loop {
            let Some(item) = self.next_record() else { break None };
            let record = match item {
                Ok(r) => r,
                Err(Error::TooLarge { .. }) => {
                    stats.skipped_too_large += 1;
                    continue;
                }
                Err(_) => {
                    stats.skipped_bad += 1;
                    continue;
                }
            };
            stats.records += 1;
            if record.warc_type.eq_ignore_ascii_case("response") {
                stats.responses += 1;
            }
            match record.into_page(max_body) {
                Ok(page) => {
                    stats.html += 1;
                    break Some(page);
                }
                Err(NotPage::NotResponse) => {}
                Err(NotPage::Status(_)) => stats.skipped_status += 1,
                Err(NotPage::NotHtml(_)) => stats.skipped_not_html += 1,
                Err(NotPage::Bad(Error::TooLarge { .. })) => stats.skipped_too_large += 1,
                Err(NotPage::Bad(_)) => stats.skipped_bad += 1,
            }
        };
        stats.bytes += self.offset.saturating_sub(before);
        found
    }

    /// The next record, an error item for a bad one, `None` at the end.
    pub fn next_record(&mut self) -> Option<Result<Record>> {
        if self.done {
            return None;
        }
        let (start, version) = match self.pending.take() {
            Some(p) => p,
            None => {
                match self.skip_separators() {
                    Ok(true) => {}
                    Ok(false) => {
                        self.done = true;
                        return None;
                    }
                    Err(e) => return Some(Err(self.stop(e))),
                }
                let start = self.offset;
                if let Err(e) = self.read_line(self.limits.max_header_bytes) {
                    return Some(Err(self.stop(e)));
                }
                match version_of(&self.line) {
                    Some(v) => (start, v),
                    None => {
                        self.resync(self.line.ends_with(b"\n"));
                        let end = self.pending.as_ref().map_or(self.offset, |p| p.0);
                        let message = format!("{} bytes that are not a WARC record, skipped", end.saturating_sub(start));
                        return Some(Err(self.bad(start, message)));
                    }
                }
            }
        };
        Some(self.record_after(start, version))
    }

    /// Read the header fields and block of a record whose version line is read.
    fn record_after(&mut self, start: u64, version: String) -> Result<Record> {
        let max = self.limits.max_header_bytes;
        let mut headers: Vec<(String, String)> = Vec::new();
        let mut used = 0;
        loop {
            let line_start = self.offset;
            let n = self.read_line(max.saturating_sub(used)).map_err(|e| self.stop(e))?;
            used += n;
            if !self.line.ends_with(b"\n") {
                if used >= max {
                    self.resync(false);
                    return Err(self.bad(start, format!("header section over the {max}-byte limit")));
                }
                self.done = true;
                return Err(self.bad(start, "the file ends inside the record's headers"));
            }
            let line = trim_eol(&self.line);
            if line.is_empty() {
                break;
            }
            if let Some(v) = version_of(line) {
                self.pending = Some((line_start, v));
                return Err(self.bad(start, "a new record starts inside this record's headers"));
            }
            let text = String::from_utf8_lossy(line);
            if fold_continuation(&mut headers, line, &text) {
                continue;
            }
            let Some((name, value)) = text.split_once(':').filter(|(n, _)| !n.trim().is_empty()) else {
                let message = format!("header line {:?} is not `Name: value`", text.chars().take(60).collect::<String>());
                self.resync(true);
                return Err(self.bad(start, message));
            };
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
        let Some(length) = field(&headers, "Content-Length").map(str::to_string) else {
            self.resync(true);
            return Err(self.bad(start, "no Content-Length"));
        };
        let Ok(length) = length.parse::<u64>() else {
            self.resync(true);
            return Err(self.bad(start, format!("Content-Length {length:?} is not a number")));
        };
        if length > self.limits.max_record_bytes {
            let got = self.discard(length).map_err(|e| self.stop(e))?;
            if got < length {
                self.done = true;
                return Err(self.bad(start, format!("truncated: the file ends {got} bytes into a {length}-byte block")));
            }
            let what = format!("WARC record at offset {start} of {}", self.file);
            return Err(Error::TooLarge { what, limit: self.limits.max_record_bytes });
        }
        let mut block = Vec::with_capacity(usize::try_from(length.min(1 << 24)).unwrap_or(0));
        let got = (&mut self.inner).take(length).read_to_end(&mut block).map_err(|e| self.stop(e))?;
        self.offset += got as u64;
        if (got as u64) < length {
            self.done = true;
            return Err(self.bad(start, format!("truncated: the file ends {got} bytes into a {length}-byte block")));
        }
        let get = |name: &str| field(&headers, name).map(str::to_string);
        Ok(Record {
            file: self.file.clone(),
            offset: start,
            version,
            warc_type: get("WARC-Type").unwrap_or_default(),
            target_uri: get("WARC-Target-URI").map(|u| u.trim_start_matches('<').trim_end_matches('>').to_string()),
            date: get("WARC-Date"),
            record_id: get("WARC-Record-ID"),
            content_type: get("Content-Type"),
            headers,
            block,
        })
    }

    /// Read one line, through its `\n`, of at most `max` bytes into `self.line`.
    fn read_line(&mut self, max: usize) -> io::Result<usize> {
        self.line.clear();
        let n = (&mut self.inner).take(max as u64).read_until(b'\n', &mut self.line)?;
        self.offset += n as u64;
        Ok(n)
    }

    /// Consume CR and LF bytes; false at the end of the input.
    fn skip_separators(&mut self) -> io::Result<bool> {
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(false);
            }
            let n = buf.iter().take_while(|&&b| b == b'\r' || b == b'\n').count();
            let more = n < buf.len();
            self.inner.consume(n);
            self.offset += n as u64;
            if more {
                return Ok(true);
            }
        }
    }

    /// Read and drop `n` bytes, a buffer at a time; the count actually dropped.
    fn discard(&mut self, n: u64) -> io::Result<u64> {
        let mut left = n;
        while left > 0 {
            let buf = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            let k = usize::try_from(left).map_or(buf.len(), |l| l.min(buf.len()));
            self.inner.consume(k);
            self.offset += k as u64;
            left -= k as u64;
        }
        Ok(n - left)
    }

    /// Skip to the next version line (`WARC/1.1` alone on its line), kept as pending;
    /// at the end of the input or on a read error, the reader is done.
    fn resync(&mut self, mut at_line_start: bool) {
        let max = self.limits.max_header_bytes.max(64);
        loop {
            let start = self.offset;
            match self.read_line(max) {
                Ok(0) | Err(_) => {
                    self.done = true;
                    return;
                }
                Ok(_) => {}
            }
            if at_line_start {
                if let Some(v) = version_of(&self.line) {
                    self.pending = Some((start, v));
                    return;
                }
            }
            at_line_start = self.line.ends_with(b"\n");
        }
    }

    fn bad(&self, offset: u64, message: impl Into<String>) -> Error {
        Error::Warc { file: self.file.to_string(), offset, message: message.into() }
    }

    /// A read error: the reader is done.
    fn stop(&mut self, e: io::Error) -> Error {
        self.done = true;
        let message = format!("cannot read further ({e}): the file is cut or corrupt; the records before were read");
        self.bad(self.offset, message)
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Record>;

    fn next(&mut self) -> Option<Result<Record>> {
        self.next_record()
    }
}

impl<R: BufRead> std::iter::FusedIterator for Reader<R> {}

/// What [`pages`] read and skipped. Every record read whole counts in `records`; every
/// `response` among them is a page or one skip; bad and too large records count as skips.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Records read whole, of any type.
    pub records: u64,
    /// Of them, `response` records.
    pub responses: u64,
    /// HTML pages given to the caller.
    pub html: u64,
    /// Responses with an HTTP status other than 200 (redirects, errors).
    pub skipped_status: u64,
    /// Responses that are not HTML (PDF, images, DNS…).
    pub skipped_not_html: u64,
    /// Bad records: truncated, bad headers, garbage, bad HTTP, bad target URI.
    pub skipped_bad: u64,
    /// Records or decoded bodies over the limit.
    pub skipped_too_large: u64,
    /// Bytes read, uncompressed.
    pub bytes: u64,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} records, {} responses, {} HTML pages; skipped {} not 200, {} not HTML, {} bad, {} too large ({} bytes)",
            self.records,
            self.responses,
            self.html,
            self.skipped_status,
            self.skipped_not_html,
            self.skipped_bad,
            self.skipped_too_large,
            self.bytes
        )
    }
}

/// The HTML pages of a WARC file, given to `f` as (target URL, [`Fetched`]) in file order,
/// every other record counted into `stats` (see [`Record::into_page`]). Bad records are counted,
/// never an error; the memory used is that of one record.
///
/// # Example
/// ```
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("crawl.warc.gz");
/// # let mut w = forest::warc::Writer::gzip(std::fs::File::create(&path)?);
/// # w.response("https://example.com/a", "2024-05-01T00:00:00Z", &[("Content-Type", "text/html")], b"<p>Hello</p>")?;
/// # w.finish()?;
/// let mut stats = forest::warc::Stats::default();
/// let mut pages = Vec::new();
/// forest::warc::pages(&path, forest::warc::Limits::default(), &mut stats, |url, fetched| {
///     pages.push(forest::Page::from_fetched(&forest::fetch::Location::Url(url), fetched, &forest::budget::Budget::default()));
/// })?;
/// assert_eq!(stats.html, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Only when the file cannot be opened or is not a WARC file (see [`Reader::open`]).
pub fn pages(path: &Path, limits: Limits, stats: &mut Stats, f: impl FnMut(url::Url, Fetched)) -> Result<()> {
    Reader::open_with_limits(path, limits)?.pages(stats, f);
    Ok(())
}

fn field<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

/// A header line that starts with white space continues the previous header's value (obsolete
/// line folding, in WARC and HTTP alike): append it there and say so.
fn fold_continuation(headers: &mut [(String, String)], line: &[u8], text: &str) -> bool {
    if !(line.starts_with(b" ") || line.starts_with(b"\t")) {
        return false;
    }
    let Some((_, value)) = headers.last_mut() else { return false };
    value.push(' ');
    value.push_str(text.trim());
    true
}

/// The version of a version line (`WARC/` and `1.1`, `1.0`, `0.18`… alone on the line).
fn version_of(line: &[u8]) -> Option<String> {
    let line = trim_eol(line).trim_ascii_end();
    let number = line.strip_prefix(b"WARC/")?;
    let mut parts = number.split(|&b| b == b'.');
    let digits = |p: &[u8]| !p.is_empty() && p.iter().all(u8::is_ascii_digit);
    let ok = parts.next().is_some_and(digits) && parts.next().is_none_or(digits) && parts.next().is_none();
    ok.then(|| String::from_utf8_lossy(line).into_owned())
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATE: &str = "2024-05-01T12:00:00Z";

    /// A record with the given version line and fields and an exact Content-Length.
    fn raw(version: &str, fields: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
        let mut out = format!("{version}\r\n").into_bytes();
        for (k, v) in fields {
            out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
        }
        out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
        out.extend_from_slice(block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    fn http(status_line: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
        let mut out = format!("{status_line}\r\n").into_bytes();
        for (k, v) in headers {
            out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(body);
        out
    }

    fn response(uri: &str, block: &[u8]) -> Vec<u8> {
        let fields = [("WARC-Type", "response"), ("WARC-Target-URI", uri), ("WARC-Date", DATE), ("Content-Type", "application/http; msgtype=response")];
        raw("WARC/1.1", &fields, block)
    }

    fn html_response(uri: &str, body: &str) -> Vec<u8> {
        response(uri, &http("HTTP/1.1 200 OK", &[("Content-Type", "text/html")], body.as_bytes()))
    }

    fn read_all(bytes: &[u8]) -> Vec<Result<Record>> {
        Reader::new(bytes).collect()
    }

    fn ok_uris(items: &[Result<Record>]) -> Vec<String> {
        items.iter().filter_map(|r| r.as_ref().ok()).map(|r| r.target_uri.clone().unwrap_or_default()).collect()
    }

    fn pages_of(bytes: &[u8]) -> (Stats, Vec<(url::Url, Fetched)>) {
        let mut stats = Stats::default();
        let mut pages = Vec::new();
        Reader::new(bytes).pages(&mut stats, |u, f| pages.push((u, f)));
        (stats, pages)
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), Compression::fast());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    fn sniffed(bytes: Vec<u8>) -> Result<Reader<Box<dyn BufRead + Send>>> {
        Reader::sniff(Cursor::new(bytes), Path::new("test.warc"), Limits::default())
    }

    #[test]
    fn versions_1_0_1_1_and_0_18_are_read() {
        let mut file = Vec::new();
        for (i, v) in ["WARC/1.0", "WARC/1.1", "WARC/0.18"].iter().enumerate() {
            file.extend(raw(v, &[("WARC-Type", "resource"), ("WARC-Target-URI", &format!("http://a.test/{i}"))], b"x"));
        }
        let items = read_all(&file);
        let versions: Vec<_> = items.iter().map(|r| r.as_ref().unwrap().version.clone()).collect();
        assert_eq!(versions, ["WARC/1.0", "WARC/1.1", "WARC/0.18"]);
        assert_eq!(ok_uris(&items), ["http://a.test/0", "http://a.test/1", "http://a.test/2"]);
    }

    #[test]
    fn header_names_are_case_insensitive_and_fields_are_kept() {
        let block = http("HTTP/1.1 200 OK", &[("content-type", "text/html")], b"<p>hi</p>");
        let mut file = b"WARC/1.0\r\nwarc-type: response\r\nWARC-TARGET-URI: <http://a.test/x>\r\nwarc-date: 2024\r\n".to_vec();
        file.extend(b"warc-record-id: <urn:uuid:1>\r\ncontent-type: application/http; msgtype=response\r\n X-Folded: no\r\n");
        file.extend(format!("content-LENGTH: {}\r\n\r\n", block.len()).as_bytes());
        file.extend(&block);
        let items = read_all(&file);
        let r = items[0].as_ref().unwrap();
        assert_eq!(r.warc_type, "response");
        assert_eq!(r.target_uri.as_deref(), Some("http://a.test/x"));
        assert_eq!(r.date.as_deref(), Some("2024"));
        assert_eq!(r.record_id.as_deref(), Some("<urn:uuid:1>"));
        assert_eq!(r.header("Content-Type"), Some("application/http; msgtype=response X-Folded: no"));
        assert_eq!(r.offset, 0);
        let (stats, pages) = pages_of(&file);
        assert_eq!((stats.html, pages[0].1.bytes.as_slice()), (1, &b"<p>hi</p>"[..]));
    }

    #[test]
    fn missing_or_bad_content_length_is_skipped_and_the_reader_resyncs() {
        let mut file = b"WARC/1.1\r\nWARC-Type: response\r\n\r\nsome block\r\nWARC/ not a version\r\n\r\n".to_vec();
        file.extend(html_response("http://a.test/1", "<p>1</p>"));
        file.extend(b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 12x\r\n\r\nblock\r\n\r\n");
        file.extend(html_response("http://a.test/2", "<p>2</p>"));
        let items = read_all(&file);
        assert_eq!(ok_uris(&items), ["http://a.test/1", "http://a.test/2"]);
        let errors: Vec<String> = items.iter().filter_map(|r| r.as_ref().err()).map(|e| e.to_string()).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].contains("offset 0") && errors[0].contains("no Content-Length"), "{}", errors[0]);
        assert!(errors[1].contains("is not a number"), "{}", errors[1]);
        let (stats, _) = pages_of(&file);
        assert_eq!((stats.records, stats.html, stats.skipped_bad), (2, 2, 2));
    }

    #[test]
    fn separators_may_be_crlf_lf_or_missing() {
        let a = html_response("http://a.test/a", "<p>a</p>");
        let b = html_response("http://a.test/b", "<p>b</p>");
        let c = html_response("http://a.test/c", "<p>c</p>");
        let mut file = a.strip_suffix(b"\r\n\r\n").unwrap().to_vec();
        file.extend(b"\n\n");
        file.extend(b.strip_suffix(b"\r\n\r\n").unwrap());
        let c_at = file.len() as u64;
        file.extend(&c);
        let items = read_all(&file);
        assert_eq!(ok_uris(&items), ["http://a.test/a", "http://a.test/b", "http://a.test/c"]);
        assert_eq!(items[2].as_ref().unwrap().offset, c_at);
        // Bare LF line ends in the headers too.
        let block = "HTTP/1.1 200 OK\nContent-Type: text/html\n\n<p>lf</p>";
        let lf = format!("WARC/1.0\nWARC-Type: response\nWARC-Target-URI: http://a.test/lf\nContent-Length: {}\n\n{block}\n\n", block.len());
        let (_, pages) = pages_of(lf.repeat(2).as_bytes());
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[1].1.bytes, b"<p>lf</p>");
    }

    #[test]
    fn a_truncated_last_record_is_one_error_then_the_end() {
        let mut file = html_response("http://a.test/1", "<p>1</p>");
        let second = html_response("http://a.test/2", "<p>2</p>");
        file.extend(&second[..second.len() - 10]);
        let items = read_all(&file);
        assert_eq!(items.len(), 2);
        assert_eq!(ok_uris(&items), ["http://a.test/1"]);
        assert!(items[1].as_ref().unwrap_err().to_string().contains("truncated"));
        let (stats, _) = pages_of(&file);
        assert_eq!((stats.records, stats.html, stats.skipped_bad), (1, 1, 1));
    }

    #[test]
    fn no_cut_of_a_file_panics_or_loses_the_records_before_it() {
        let mut file = Vec::new();
        let mut ends = Vec::new();
        for i in 0..4 {
            file.extend(html_response(&format!("http://a.test/{i}"), "<html><p>some text</p></html>"));
            ends.push(file.len() - 4);
        }
        for cut in 0..=file.len() {
            let items = read_all(&file[..cut]);
            let whole = ends.iter().filter(|&&e| e <= cut).count();
            assert_eq!(ok_uris(&items).len(), whole, "cut at {cut}");
            assert!(items.len() <= whole + 1, "cut at {cut}");
        }
        let gz: Vec<u8> = file.chunks(ends[0] + 4).flat_map(gzip).collect();
        for cut in 1..=gz.len() {
            if let Ok(reader) = sniffed(gz[..cut].to_vec()) {
                assert!(reader.count() <= 5);
            }
        }
    }

    #[test]
    fn garbage_between_records_is_skipped() {
        let mut file = b"\r\n\r\n".to_vec();
        file.extend(html_response("http://a.test/1", "<p>1</p>"));
        file.extend(b"garbage\r\nmore garbage WARC/1.1\r\n\x00\x01\x02\r\n");
        file.extend(html_response("http://a.test/2", "<p>2</p>"));
        file.extend(vec![b'z'; 200_000]);
        file.extend(b"\nWARC/1.0 and this is a line of garbage\n");
        file.extend(html_response("http://a.test/3", "<p>3</p>"));
        let items = read_all(&file);
        assert_eq!(ok_uris(&items), ["http://a.test/1", "http://a.test/2", "http://a.test/3"]);
        assert_eq!(items.len(), 5);
        assert!(items[1].as_ref().unwrap_err().to_string().contains("not a WARC record"));
        let (stats, pages) = pages_of(&file);
        assert_eq!(pages.len(), 3);
        assert_eq!((stats.records, stats.skipped_bad), (3, 2), "{stats}");
        // A version line inside a record's headers starts the next record.
        let mut file = b"WARC/1.1\r\nWARC-Type: resource\r\n".to_vec();
        file.extend(html_response("http://a.test/4", "<p>4</p>"));
        let items = read_all(&file);
        assert_eq!(ok_uris(&items), ["http://a.test/4"]);
        assert!(items[0].as_ref().unwrap_err().to_string().contains("inside this record's headers"));
        let mut file = html_response("http://a.test/1", "<p>1</p>");
        file.extend(b"junk\r\n");
        file.extend(html_response("http://a.test/3", "<p>3</p>"));
        assert_eq!(ok_uris(&read_all(&file)), ["http://a.test/1", "http://a.test/3"]);
    }

    #[test]
    fn records_that_are_not_responses_are_not_pages() {
        let mut file = Vec::new();
        let mut w = Writer::new(&mut file);
        w.warcinfo(DATE, &[("software", "forest"), ("format", "WARC File Format 1.1")]).unwrap();
        let request = b"GET / HTTP/1.1\r\nHost: a.test\r\n\r\n";
        w.record("request", &[("WARC-Target-URI", "http://a.test/"), ("WARC-Date", DATE), ("Content-Type", "application/http; msgtype=request")], request).unwrap();
        w.record("metadata", &[("WARC-Target-URI", "http://a.test/"), ("WARC-Date", DATE), ("Content-Type", "application/warc-fields")], b"fetchTimeMs: 12\r\n").unwrap();
        let revisit = [("WARC-Target-URI", "http://a.test/"), ("WARC-Date", DATE), ("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")];
        w.record("revisit", &revisit, b"").unwrap();
        w.resource("http://a.test/r.html", DATE, "text/html", b"<p>resource</p>").unwrap();
        w.response("http://a.test/", DATE, &[("Content-Type", "text/html")], b"<p>page</p>").unwrap();
        w.finish().unwrap();
        let (stats, pages) = pages_of(&file);
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].0.as_str(), "http://a.test/");
        let expected = Stats { records: 6, responses: 1, html: 1, bytes: file.len() as u64, ..Stats::default() };
        assert_eq!(stats, expected);
    }

    #[test]
    fn statuses_other_than_200_and_non_html_are_skipped() {
        let mut file = Vec::new();
        file.extend(response("http://a.test/moved", &http("HTTP/1.1 301 Moved Permanently", &[("Location", "/new")], b"")));
        file.extend(response("http://a.test/gone", &http("HTTP/1.0 404 Not Found", &[("Content-Type", "text/html")], b"<p>no</p>")));
        file.extend(response("http://a.test/a.pdf", &http("HTTP/1.1 200 OK", &[("Content-Type", "application/pdf")], b"%PDF-1.4")));
        file.extend(response("http://a.test/a.png", &http("HTTP/1.1 200 OK", &[("Content-Type", "image/png")], b"\x89PNG")));
        file.extend(response("http://a.test/plain", &http("HTTP/1.1 200 OK", &[], b"just text")));
        file.extend(response("http://a.test/sniffed", &http("HTTP/1.1 200 OK", &[], b"\n<!DOCTYPE html><title>t</title>")));
        file.extend(response("http://a.test/x", &http("HTTP/2 200", &[("Content-Type", "application/xhtml+xml")], b"<html/>")));
        let dns = [("WARC-Type", "response"), ("WARC-Target-URI", "dns:a.test"), ("Content-Type", "text/dns")];
        file.extend(raw("WARC/1.1", &dns, b"20240501120000\na.test. 300 IN A 10.0.0.1\n"));
        let (stats, pages) = pages_of(&file);
        let urls: Vec<&str> = pages.iter().map(|(u, _)| u.as_str()).collect();
        assert_eq!(urls, ["http://a.test/sniffed", "http://a.test/x"]);
        assert_eq!((stats.responses, stats.skipped_status, stats.skipped_not_html, stats.skipped_bad), (8, 2, 4, 0), "{stats}");
    }

    #[test]
    fn bad_http_is_skipped_as_bad() {
        let mut file = Vec::new();
        file.extend(response("http://a.test/1", b"HTTP/1.1 OK\r\n\r\n<p>x</p>"));
        file.extend(response("http://a.test/2", b"<html><p>no status line</p></html>"));
        file.extend(response("http://a.test/3", b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n<p>x</p>"));
        file.extend(response("http://a.test/4", b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n<p>x</p>"));
        file.extend(response("not a url", &http("HTTP/1.1 200 OK", &[], b"<html></html>")));
        file.extend(response("http://a.test/5", &http("HTTP/1.1 200 OK", &[("Content-Type", "text/html")], b"<p>fine</p>")));
        let (stats, pages) = pages_of(&file);
        assert_eq!(pages.len(), 1);
        assert_eq!((stats.records, stats.responses, stats.skipped_bad), (6, 6, 5), "{stats}");
        let record = Reader::new(&file[..]).next().unwrap().unwrap();
        let e = record.http_response(MAX_RECORD_BYTES).unwrap_err().to_string();
        assert!(e.contains("bad HTTP status line") && e.contains("offset 0"), "{e}");
    }

    #[test]
    fn the_http_charset_reaches_decode() {
        let body = b"<html><p>caf\xe9 cr\xe8me</p></html>";
        let file = response("http://a.test/", &http("HTTP/1.1 200 OK", &[("Content-Type", "text/html; charset=windows-1252")], body));
        let (_, pages) = pages_of(&file);
        let fetched = &pages[0].1;
        assert_eq!(fetched.content_type.as_deref(), Some("text/html; charset=windows-1252"));
        assert!(fetched.text().contains("café crème"));
        let loc = Location::Url(pages[0].0.clone());
        let page = crate::Page::from_fetched(&loc, fetched.clone(), &crate::budget::Budget::default()).unwrap();
        assert_eq!(page.location, "http://a.test/");
    }

    #[test]
    fn chunked_and_gzip_bodies_are_decoded_within_the_cap() {
        let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/html\r\n\r\n5\r\n<p>he\r\n7;x=y\r\nllo</p>\r\n0\r\n\r\n";
        let file = response("http://a.test/c", chunked);
        assert_eq!(pages_of(&file).1[0].1.bytes, b"<p>hello</p>");
        // Kept as is when the stored payload is not chunked after all.
        let file = response("http://a.test/c", &http("HTTP/1.1 200 OK", &[("Transfer-Encoding", "chunked"), ("Content-Type", "text/html")], b"<p>plain</p>"));
        assert_eq!(pages_of(&file).1[0].1.bytes, b"<p>plain</p>");
        let html = format!("<html>{}</html>", "<p>word</p>".repeat(1000));
        let gz = gzip(html.as_bytes());
        let file = response("http://a.test/g", &http("HTTP/1.1 200 OK", &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")], &gz));
        assert_eq!(pages_of(&file).1[0].1.bytes, html.as_bytes());
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), Compression::fast());
        z.write_all(html.as_bytes()).unwrap();
        let file = response("http://a.test/d", &http("HTTP/1.1 200 OK", &[("Content-Encoding", "deflate")], &z.finish().unwrap()));
        assert_eq!(pages_of(&file).1[0].1.bytes, html.as_bytes());
        // A gzip bomb stops at the cap.
        let bomb = gzip(&vec![b' '; 5_000_000]);
        let file = response("http://a.test/b", &http("HTTP/1.1 200 OK", &[("Content-Encoding", "gzip")], &bomb));
        let limits = Limits { max_record_bytes: 1_000_000, ..Limits::default() };
        let mut stats = Stats::default();
        Reader::with_limits(&file[..], limits).pages(&mut stats, |_, _| panic!("no page"));
        assert_eq!((stats.records, stats.skipped_too_large), (1, 1));
    }

    #[test]
    fn gzip_per_record_whole_file_and_cut_files_are_read() {
        let records: Vec<Vec<u8>> = (0..5).map(|i| html_response(&format!("http://a.test/{i}"), "<p>text</p>")).collect();
        let per_record: Vec<u8> = records.iter().flat_map(|r| gzip(r)).collect();
        let whole = gzip(&records.concat());
        let all: Vec<String> = (0..5).map(|i| format!("http://a.test/{i}")).collect();
        for gz in [&per_record, &whole] {
            let items: Vec<_> = sniffed(gz.clone()).unwrap().collect();
            assert_eq!(ok_uris(&items), all);
            assert_eq!(items.len(), 5);
        }
        // Cut inside the fourth member: three records, then one error.
        let cut = records.iter().take(3).map(|r| gzip(r).len()).sum::<usize>() + 20;
        let items: Vec<_> = sniffed(per_record[..cut].to_vec()).unwrap().collect();
        assert_eq!(ok_uris(&items), all[..3]);
        assert_eq!(items.len(), 4);
        let items: Vec<_> = sniffed(whole[..whole.len() / 2].to_vec()).unwrap().collect();
        assert!(ok_uris(&items).len() < 5 && items.last().unwrap().is_err());
        // Files as opened: plain, gzip, empty, not a WARC, a folder.
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in [("a.warc", records.concat()), ("a.warc.gz", per_record.clone()), ("e.warc", Vec::new())] {
            let path = dir.path().join(name);
            std::fs::write(&path, &bytes).unwrap();
            let mut stats = Stats::default();
            pages(&path, Limits::default(), &mut stats, |_, _| {}).unwrap();
            assert_eq!(stats.html, if bytes.is_empty() { 0 } else { 5 });
        }
        let path = dir.path().join("page.html");
        std::fs::write(&path, "<html></html>").unwrap();
        let e = Reader::open(&path).err().unwrap();
        assert!(matches!(e, Error::Warc { .. }) && e.to_string().contains("not a WARC file"), "{e}");
        let e = Reader::open(dir.path()).err().unwrap();
        assert!(matches!(e, Error::Io { .. }), "{e}");
        assert!(matches!(Reader::open(&dir.path().join("none.warc")), Err(Error::Io { .. })));
    }

    #[test]
    fn a_record_over_the_limit_is_skipped_unread() {
        let mut file = html_response("http://a.test/1", "<p>1</p>");
        file.extend(html_response("http://a.test/big", &"x".repeat(300_000)));
        file.extend(html_response("http://a.test/2", "<p>2</p>"));
        let limits = Limits { max_record_bytes: 100_000, ..Limits::default() };
        let items: Vec<_> = Reader::with_limits(&file[..], limits).collect();
        assert_eq!(ok_uris(&items), ["http://a.test/1", "http://a.test/2"]);
        assert!(matches!(items[1], Err(Error::TooLarge { limit: 100_000, .. })));
        let mut stats = Stats::default();
        Reader::with_limits(&file[..], limits).pages(&mut stats, |_, _| {});
        assert_eq!((stats.records, stats.html, stats.skipped_too_large), (2, 2, 1));
        // Headers over their limit: a bad record, then the next one.
        let mut file = raw("WARC/1.1", &[("WARC-Type", "resource"), ("X-Long", &"y".repeat(5000))], b"x");
        file.extend(html_response("http://a.test/3", "<p>3</p>"));
        let limits = Limits { max_header_bytes: 1000, ..Limits::default() };
        let items: Vec<_> = Reader::with_limits(&file[..], limits).collect();
        assert_eq!(ok_uris(&items), ["http://a.test/3"]);
        assert!(items[0].as_ref().unwrap_err().to_string().contains("1000-byte limit"));
    }

    #[test]
    fn thousands_of_records_stream_through() {
        let mut file = Vec::new();
        let mut w = Writer::gzip(&mut file);
        w.warcinfo(DATE, &[("software", "forest test")]).unwrap();
        for i in 0..2000 {
            let uri = format!("http://a.test/{i}");
            match i % 4 {
                0 | 1 => w.response(&uri, DATE, &[("Content-Type", "text/html; charset=utf-8")], format!("<p>page {i}</p>").as_bytes()),
                2 => w.resource(&uri, DATE, "image/png", b"\x89PNG"),
                _ => w.response(&uri, DATE, &[("Content-Type", "application/pdf")], b"%PDF"),
            }
            .unwrap();
        }
        w.finish().unwrap();
        let mut stats = Stats::default();
        let mut n = 0;
        sniffed(file).unwrap().pages(&mut stats, |u, f| {
            assert_eq!(f.text(), format!("<p>page {}</p>", u.path().trim_start_matches('/')));
            n += 1;
        });
        assert_eq!(n, 1000);
        assert_eq!((stats.records, stats.responses, stats.html, stats.skipped_not_html, stats.skipped_bad), (2001, 1500, 1000, 500, 0));
    }

    #[test]
    fn writer_output_reads_back_the_same() {
        let bodies: Vec<(String, Vec<u8>)> =
            (0..20).map(|i| (format!("https://b.test/p/{i}?q=1"), format!("<html><p>{}</p></html>", "é".repeat(i)).into_bytes())).collect();
        for gz in [false, true] {
            let mut file = Vec::new();
            let mut w = if gz { Writer::gzip(&mut file) } else { Writer::new(&mut file) };
            for (uri, body) in &bodies {
                w.response(uri, DATE, &[("Content-Type", "text/html; charset=utf-8"), ("ETag", "\"e1\"")], body).unwrap();
            }
            w.finish().unwrap();
            let records: Vec<Record> = sniffed(file).unwrap().map(|r| r.unwrap()).collect();
            let mut ids: Vec<&str> = records.iter().filter_map(|r| r.record_id.as_deref()).collect();
            assert!(ids.iter().all(|id| id.starts_with("<urn:uuid:") && id.len() == 47), "{ids:?}");
            ids.dedup();
            assert_eq!(ids.len(), 20);
            for (r, (uri, body)) in records.iter().zip(&bodies) {
                assert_eq!((r.version.as_str(), r.date.as_deref()), ("WARC/1.1", Some(DATE)));
                assert_eq!(r.content_type.as_deref(), Some("application/http; msgtype=response"));
                let (url, fetched) = r.clone().into_page(MAX_RECORD_BYTES).unwrap();
                assert_eq!((url.as_str(), &fetched.bytes), (uri.as_str(), body));
                assert_eq!(fetched.etag.as_deref(), Some("\"e1\""));
                assert_eq!(r.http_response(MAX_RECORD_BYTES).unwrap().header("content-length"), Some(body.len().to_string().as_str()));
            }
        }
    }
}
