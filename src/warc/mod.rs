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
        loop {
            if let Ok(page) = self.try_next_page(stats)? {
                return Some(page);
            }
        }
    }

    /// As [`Reader::next_page`], but a damaged record (truncated, malformed, over the size
    /// cap) is an error item, with its offset and what is wrong; it is counted into `stats`
    /// too, and reading may go on after it.
    pub fn try_next_page(&mut self, stats: &mut Stats) -> Option<Result<(url::Url, Fetched)>> {
        let max_body = self.limits.max_record_bytes;
        let before = self.offset;
        let found = loop {
            let Some(item) = self.next_record() else { break None };
            let record = match item {
                Ok(r) => r,
                Err(e) => break Some(Err(stats.damaged(e))),
            };
            stats.records += 1;
            if record.warc_type.eq_ignore_ascii_case("response") {
                stats.responses += 1;
            }
            match record.into_page(max_body) {
                Ok(page) => {
                    stats.html += 1;
                    break Some(Ok(page));
                }
                Err(NotPage::NotResponse) => {}
                Err(NotPage::Status(_)) => stats.skipped_status += 1,
                Err(NotPage::NotHtml(_)) => stats.skipped_not_html += 1,
                Err(NotPage::Bad(e)) => break Some(Err(stats.damaged(e))),
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
            let text = escaped_utf8(line);
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

impl Stats {
    /// Count a damaged record (too large, else bad), handing its error back.
    fn damaged(&mut self, e: Error) -> Error {
        match e {
            Error::TooLarge { .. } => self.skipped_too_large += 1,
            _ => self.skipped_bad += 1,
        }
        e
    }
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

/// The HTML pages of web archives, grouped by host ([`crate::host::of_url`]): what is kept of
/// each host's pages (`K`; the pages themselves for [`pages_by_host`]).
#[derive(Debug, Default)]
pub struct Hosts<K = Vec<crate::Page>> {
    /// What is kept of each host's pages, at most the `max_pages` first of the archives.
    pub pages: std::collections::BTreeMap<String, K>,
    /// What the archives held.
    pub stats: Stats,
    /// HTML records that could not be read as pages (not HTML after all, over a budget).
    pub unreadable: usize,
}

/// The HTML pages of `files`, grouped by host, at most `max_pages` per host (so memory is
/// bounded by the hosts, not the archives), each cleaned within `budget`.
///
/// # Errors
/// [`Error::Io`] or [`Error::Warc`] when a file cannot be opened as a WARC file.
pub fn pages_by_host(files: &[std::path::PathBuf], max_pages: usize, budget: &crate::budget::Budget) -> Result<Hosts> {
    gather_by_host(files, max_pages, budget, |_| Vec::new(), |pages, p| pages.push(p))
}

/// As [`pages_by_host`], each page handed as it is read to `add` with what is kept of its host
/// (`new` makes that at the host's first HTML record): a caller that keeps a summary of each
/// page (an [`crate::wrapper::Inducer`] per host) holds no page.
///
/// # Errors
/// As [`pages_by_host`].
pub fn gather_by_host<K>(
    files: &[std::path::PathBuf],
    max_pages: usize,
    budget: &crate::budget::Budget,
    mut new: impl FnMut(&str) -> K,
    mut add: impl FnMut(&mut K, crate::Page),
) -> Result<Hosts<K>> {
    // Per host: the pages read so far, and what is kept of them.
    let mut kept: std::collections::BTreeMap<String, (usize, K)> = std::collections::BTreeMap::new();
    let mut unreadable = 0;
    let stats = each_page_by_host(files, |host, record| {
        let (n, k) = kept.entry(host).or_insert_with_key(|h| (0, new(h)));
        if *n < max_pages {
            match record.page(budget) {
                Ok(p) => {
                    add(k, p);
                    *n += 1;
                }
                Err(_) => unreadable += 1,
            }
        }
    })?;
    Ok(Hosts { pages: kept.into_iter().map(|(host, (_, k))| (host, k)).collect(), stats, unreadable })
}

/// An HTML response of a web archive, not yet cleaned.
#[derive(Debug)]
pub struct HtmlRecord {
    /// Its target URI.
    pub url: url::Url,
    fetched: Fetched,
}

impl HtmlRecord {
    /// The page, cleaned within `budget`.
    ///
    /// # Errors
    /// As [`crate::Page::from_fetched`].
    pub fn page(self, budget: &crate::budget::Budget) -> Result<crate::Page> {
        crate::Page::from_fetched(&Location::Url(self.url), self.fetched, budget)
    }
}

/// The HTML responses of `files`, one at a time in the archives' order, each with its host
/// ([`crate::host::of_url`]), to `f`, which cleans those it wants ([`HtmlRecord::page`]). A
/// caller that keeps a summary of each page holds no page. Returns what the archives held.
///
/// # Errors
/// [`Error::Io`] or [`Error::Warc`] when a file cannot be opened as a WARC file.
pub fn each_page_by_host(files: &[std::path::PathBuf], mut f: impl FnMut(String, HtmlRecord)) -> Result<Stats> {
    let mut stats = Stats::default();
    for file in files {
        let mut reader = Reader::open(file)?;
        while let Some((url, fetched)) = reader.next_page(&mut stats) {
            let Some(host) = crate::host::of_url(url.as_str()) else { continue };
            f(host, HtmlRecord { url, fetched });
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests;

/// A header line as text: UTF-8 as it is, each byte that is not UTF-8 as `%XX` (a URL's own
/// escape), so two target URIs that differ only in such bytes stay two URIs, where a lossy
/// decoding would make both U+FFFD and one article of the index replace the other.
fn escaped_utf8(line: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(line) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(line.len() + 8);
    for chunk in line.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    std::borrow::Cow::Owned(out)
}
