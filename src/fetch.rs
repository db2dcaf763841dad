//! Fetch: the bytes of a page or feed, from a local file or over HTTP(S), and their decoding.
//!
//! [`get`] reads a [`Location`]; [`decode`] turns bytes into text, choosing the encoding the way
//! a browser does: byte-order mark, then the HTTP `charset`, then `<meta charset>` /
//! `http-equiv` in the first KiB(s), then a statistical guess (chardetng), UTF-8 last.

use crate::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// Largest page or feed read, in bytes (a larger one is an error, not a truncation).
pub const MAX_BYTES: u64 = 32 * 1024 * 1024;

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
            Location::File(p) => p.file_stem().map(|s| s.to_string_lossy().into_owned()),
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
}

impl Fetched {
    /// The body decoded as text (see [`decode`]).
    pub fn text(&self) -> String {
        decode(&self.bytes, self.content_type.as_deref())
    }
}

fn client() -> Result<&'static reqwest::blocking::Client> {
    static CLIENT: OnceLock<std::result::Result<reqwest::blocking::Client, String>> = OnceLock::new();
    CLIENT
        .get_or_init(|| {
            // reqwest is built without a bundled crypto provider: use rustls' ring provider.
            let _ = rustls::crypto::ring::default_provider().install_default();
            reqwest::blocking::Client::builder()
                .user_agent(concat!("forest/", env!("CARGO_PKG_VERSION"), " (+https://crates.io/crates/forest)"))
                .connect_timeout(Duration::from_secs(10))
                .timeout(Duration::from_secs(30))
                .redirect(reqwest::redirect::Policy::limited(10))
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| Error::Fetch { url: String::new(), message: e.clone() })
}

/// Read the bytes at `loc`.
///
/// # Errors
/// [`Error::Io`] for unreadable files, [`Error::Fetch`] for network failures and HTTP errors,
/// [`Error::TooLarge`] past [`MAX_BYTES`].
pub fn get(loc: &Location) -> Result<Fetched> {
    match loc {
        Location::File(path) => read_file(path).map(|bytes| Fetched { location: loc.clone(), bytes, content_type: None }),
        Location::Url(url) => get_url(url),
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>> {
    let io = |source| Error::Io { path: path.to_path_buf(), source };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(Error::Io { path: path.to_path_buf(), source: std::io::Error::other("is a directory") });
    }
    if meta.len() > MAX_BYTES {
        return Err(Error::TooLarge { what: path.display().to_string(), limit: MAX_BYTES });
    }
    std::fs::read(path).map_err(io)
}

fn get_url(url: &url::Url) -> Result<Fetched> {
    use std::io::Read;
    let fail = |message: String| Error::Fetch { url: url.to_string(), message };
    let resp = client()?.get(url.clone()).send().map_err(|e| fail(e.to_string()))?;
    let status = resp.status();
    if !status.is_success() {
        return Err(fail(format!("HTTP {status}")));
    }
    let location = Location::Url(resp.url().clone());
    let content_type = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let mut bytes = Vec::new();
    resp.take(MAX_BYTES + 1).read_to_end(&mut bytes).map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(Error::TooLarge { what: url.to_string(), limit: MAX_BYTES });
    }
    Ok(Fetched { location, bytes, content_type })
}

/// Decode page or feed bytes to text.
///
/// Order: BOM; `charset=` of the `content_type`; a `<meta charset>` or `http-equiv`
/// declaration (or an XML declaration's `encoding`) in the first 4 KiB; else a guess by
/// chardetng over the whole body. Undecodable bytes become U+FFFD, never an error.
///
/// # Example
/// ```
/// let bytes = b"<meta charset=windows-1252><p>caf\xe9</p>";
/// assert!(forest::fetch::decode(bytes, None).contains("caf\u{e9}"));
/// ```
pub fn decode(bytes: &[u8], content_type: Option<&str>) -> String {
    let enc = encoding_rs::Encoding::for_bom(bytes)
        .map(|(e, _)| e)
        .or_else(|| content_type.and_then(charset_param).and_then(label))
        .or_else(|| sniff_declared(&bytes[..bytes.len().min(4096)]))
        .unwrap_or_else(|| {
            let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            det.feed(bytes, true);
            det.guess(None, chardetng::Utf8Detection::Allow)
        });
    // Per the HTML standard a declared UTF-16 in a meta tag means UTF-8 (the meta is ASCII).
    let (text, _, _) = enc.decode(bytes);
    text.into_owned()
}

fn label(name: &str) -> Option<&'static encoding_rs::Encoding> {
    encoding_rs::Encoding::for_label(name.trim().trim_matches(['"', '\'']).as_bytes())
}

fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim().eq_ignore_ascii_case("charset").then_some(v)
    })
}

/// Find `charset=…` (in `<meta>`) or `encoding="…"` (in `<?xml …?>`) in the page's head.
fn sniff_declared(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    for key in [&b"charset"[..], &b"encoding"[..]] {
        let mut from = 0;
        while let Some(pos) = find(&lower[from..], key) {
            let mut i = from + pos + key.len();
            from = i;
            while i < lower.len() && lower[i].is_ascii_whitespace() {
                i += 1;
            }
            if lower.get(i) != Some(&b'=') {
                continue;
            }
            i += 1;
            while i < lower.len() && (lower[i].is_ascii_whitespace() || lower[i] == b'"' || lower[i] == b'\'') {
                i += 1;
            }
            let start = i;
            while i < lower.len() && (lower[i].is_ascii_alphanumeric() || b"-_:.".contains(&lower[i])) {
                i += 1;
            }
            let found = std::str::from_utf8(&lower[start..i]).ok().and_then(label);
            if let Some(enc) = found {
                let utf16 = enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE;
                return Some(if utf16 { encoding_rs::UTF_8 } else { enc });
            }
        }
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
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
        // No declaration: chardetng recognizes Shift_JIS.
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本語のテキストです。これは長い文章のサンプルです。");
        assert!(decode(&sjis, None).contains("日本語"));
    }

    #[test]
    fn location_stems() {
        assert_eq!(Location::parse("a/b/page-1.html").stem(), "page-1");
        assert_eq!(Location::parse("http://x.org/2013/story/index.html").stem(), "index");
        assert_eq!(Location::parse("http://x.org/").stem(), "index");
    }
}
