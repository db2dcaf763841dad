//! The HTTP response inside a `response` record: status line, headers, de-chunked and
//! decoded body, each step bounded.

use super::*;

/// The first line of `b` (without its end of line) and the rest, if `b` has a `\n`.
fn split_line(b: &[u8]) -> Option<(&[u8], &[u8])> {
    let i = b.iter().position(|&c| c == b'\n')?;
    let (line, rest) = b.split_at_checked(i)?;
    Some((trim_eol(line), rest.get(1..).unwrap_or_default()))
}

pub(super) enum HttpError {
    Bad(String),
    TooLarge,
}

/// Parse the HTTP response in `block`, whose buffer becomes the body.
pub(super) fn parse_http(block: Vec<u8>, max_body: u64) -> std::result::Result<HttpResponse, HttpError> {
    let bad = |m: String| HttpError::Bad(m);
    let (status_line, mut rest) = split_line(&block).ok_or_else(|| bad("no HTTP status line".into()))?;
    let status_text = String::from_utf8_lossy(status_line);
    let mut words = status_text.split_ascii_whitespace();
    let code = words
        .next()
        .filter(|v| v.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("HTTP/")))
        .and_then(|_| words.next())
        .filter(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or_else(|| bad(format!("bad HTTP status line {:?}", status_text.chars().take(60).collect::<String>())))?;
    let mut headers: Vec<(String, String)> = Vec::new();
    loop {
        // Headers running to the end of the block: no body.
        let (line, next) = split_line(rest).unwrap_or((trim_eol(rest), &[]));
        rest = next;
        if line.is_empty() {
            break;
        }
        let text = String::from_utf8_lossy(line);
        if fold_continuation(&mut headers, line, &text) {
            continue;
        }
        let (name, value) = text
            .split_once(':')
            .filter(|(n, _)| !n.trim().is_empty() && !n.contains(char::is_whitespace))
            .ok_or_else(|| bad(format!("bad HTTP header line {:?}", text.chars().take(60).collect::<String>())))?;
        headers.push((name.to_string(), value.trim().to_string()));
    }
    let body_at = block.len().saturating_sub(rest.len());
    let mut body = block;
    body.drain(..body_at.min(body.len()));
    let has = |name: &str, token: &str| {
        headers.iter().any(|(k, v)| k.eq_ignore_ascii_case(name) && v.to_ascii_lowercase().contains(token))
    };
    if has("Transfer-Encoding", "chunked") {
        // Some writers keep the header but store the payload de-chunked: then keep it as is.
        if let Some(b) = dechunk(&body) {
            body = b;
        }
    }
    if let Some(encoding) = field(&headers, "Content-Encoding") {
        body = decode_body(body, encoding, max_body)?;
    }
    Ok(HttpResponse { status: code, headers, body })
}

/// The payload of a chunked body; `None` when it is not one. A missing last chunk is fine.
fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(b.len());
    while !b.is_empty() {
        let (line, rest) = split_line(b)?;
        let size = line.split(|&c| c == b';').next().unwrap_or_default();
        let size = usize::from_str_radix(std::str::from_utf8(size).ok()?.trim(), 16).ok()?;
        if size == 0 {
            break;
        }
        let (chunk, rest) = rest.split_at_checked(size)?;
        out.extend_from_slice(chunk);
        b = rest.strip_prefix(b"\r\n").or_else(|| rest.strip_prefix(b"\n")).unwrap_or(rest);
    }
    Some(out)
}

/// Undo `Content-Encoding` gzip or deflate, at most `max` bytes out. A body that is not
/// encoded after all is kept; one cut short keeps what decodes (a `WARC-Truncated` record).
fn decode_body(body: Vec<u8>, encoding: &str, max: u64) -> std::result::Result<Vec<u8>, HttpError> {
    let encoding = encoding.trim().to_ascii_lowercase();
    let mut out = Vec::new();
    let limit = max.saturating_add(1);
    let read = match encoding.as_str() {
        "" | "identity" | "none" => return Ok(body),
        "gzip" | "x-gzip" if body.starts_with(&[0x1f, 0x8b]) => {
            flate2::read::MultiGzDecoder::new(body.as_slice()).take(limit).read_to_end(&mut out)
        }
        "deflate" if is_zlib(&body) => flate2::read::ZlibDecoder::new(body.as_slice()).take(limit).read_to_end(&mut out),
        "deflate" => flate2::read::DeflateDecoder::new(body.as_slice()).take(limit).read_to_end(&mut out),
        "gzip" | "x-gzip" => return Ok(body),
        other => return Err(HttpError::Bad(format!("unsupported Content-Encoding {other:?}"))),
    };
    if let Err(e) = read {
        if out.is_empty() {
            return Err(HttpError::Bad(format!("the {encoding} body does not decode: {e}")));
        }
    }
    if out.len() as u64 > max {
        return Err(HttpError::TooLarge);
    }
    Ok(out)
}

fn is_zlib(b: &[u8]) -> bool {
    match b {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

pub(super) fn is_html_type(content_type: &str) -> bool {
    let media = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    media.contains("html")
}

/// A body with no content type: HTML if its first KiB has `<!doctype html`, `<html`,
/// `<head` or `<body`.
pub(super) fn looks_like_html(body: &[u8]) -> bool {
    let head: Vec<u8> = body.iter().take(1024).map(u8::to_ascii_lowercase).collect();
    [&b"<!doctype html"[..], b"<html", b"<head", b"<body"].iter().any(|tag| head.windows(tag.len()).any(|w| w == *tag))
}
