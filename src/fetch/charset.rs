//! Page and feed bytes to text: which encoding they are in (a BOM, valid UTF-8, what they
//! declare, else a guess) and their decoding ([`decode`]).

/// Decode page or feed bytes to text.
///
/// Order: a BOM; else UTF-8 when the bytes are valid UTF-8, whatever they declare (a legacy
/// declaration is often stale: bytes of another encoding almost never read as valid UTF-8, and
/// ASCII reads the same in all of them); else the `charset=` of the `content_type`, a `<meta
/// charset>` or `http-equiv` declaration (or an XML declaration's `encoding`) in the first 4
/// KiB; else a guess by chardetng, fed only the lines with non-ASCII bytes (at most 64 KiB).
/// Undecodable bytes become U+FFFD, never an error.
///
/// # Example
/// ```
/// let bytes = b"<meta charset=windows-1252><p>caf\xe9</p>";
/// assert!(forest::fetch::decode(bytes, None).contains("caf\u{e9}"));
/// ```
pub fn decode(bytes: &[u8], content_type: Option<&str>) -> String {
    let (text, _, _) = encoding(bytes, content_type).decode(bytes);
    text.into_owned()
}

/// [`decode`], taking the bytes: a page in UTF-8 without a BOM becomes its text as it is,
/// without a copy, and its bytes are checked as UTF-8 only once.
pub fn decode_owned(bytes: Vec<u8>, content_type: Option<&str>) -> String {
    if let Some((enc, _)) = encoding_rs::Encoding::for_bom(&bytes) {
        return enc.decode(&bytes).0.into_owned();
    }
    String::from_utf8(bytes).unwrap_or_else(|e| {
        let bytes = e.into_bytes();
        not_utf8(&bytes, content_type).decode(&bytes).0.into_owned()
    })
}

/// The encoding [`decode`] reads `bytes` in.
fn encoding(bytes: &[u8], content_type: Option<&str>) -> &'static encoding_rs::Encoding {
    if let Some((enc, _)) = encoding_rs::Encoding::for_bom(bytes) {
        enc
    } else if std::str::from_utf8(bytes).is_ok() {
        encoding_rs::UTF_8
    } else {
        not_utf8(bytes, content_type)
    }
}

/// The encoding of bytes without a BOM that are not valid UTF-8: the one they declare (UTF-8
/// included: its invalid bytes become U+FFFD), else the detector's guess.
fn not_utf8(bytes: &[u8], content_type: Option<&str>) -> &'static encoding_rs::Encoding {
    declared(bytes, content_type).unwrap_or_else(|| guess(bytes))
}

/// The encoding `bytes` declare: the `charset=` of `content_type`, or a declaration in the
/// first 4 KiB.
fn declared(bytes: &[u8], content_type: Option<&str>) -> Option<&'static encoding_rs::Encoding> {
    content_type.and_then(charset_param).and_then(label).or_else(|| sniff_declared(&bytes[..bytes.len().min(4096)]))
}

/// chardetng's guess for undeclared bytes that are not UTF-8 (see [`detector_input`]).
fn guess(bytes: &[u8]) -> &'static encoding_rs::Encoding {
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(&detector_input(bytes), true);
    det.guess(None, chardetng::Utf8Detection::Allow)
}

/// Most bytes of its lines with non-ASCII bytes that the charset detector reads.
pub(super) const DETECTOR_BYTES: usize = 64 * 1024;

/// What the charset detector reads of a page: only its lines that hold non-ASCII bytes (the
/// only evidence of a legacy encoding; ASCII reads the same in all of them), each whole with
/// its line break, up to [`DETECTOR_BYTES`]. A page of markup and scripts with a few accented
/// words costs the detector those lines, not the page.
pub(super) fn detector_input(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n').filter(|l| !l.is_ascii()) {
        let room = DETECTOR_BYTES - out.len();
        out.extend_from_slice(&line[..line.len().min(room)]);
        if out.len() >= DETECTOR_BYTES {
            break;
        }
    }
    out
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

/// Find `charset=…` (in `<meta>`) or `encoding="…"` (in `<?xml …?>`) in the page's head. A
/// `charset` of another element (a `<script charset=utf-8>` an archive injects) declares
/// nothing, as in the HTML standard's prescan.
fn sniff_declared(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    for (key, tag) in [(&b"charset"[..], &b"<meta"[..]), (&b"encoding"[..], &b"<?xml"[..])] {
        let mut from = 0;
        while let Some(pos) = find(&lower[from..], key) {
            let at = from + pos;
            let mut i = at + key.len();
            from = i;
            if !inside_tag(&lower[..at], tag) {
                continue;
            }
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

/// Whether the end of `before` is inside a tag that starts with `tag` (its last `<` opens it,
/// and no `>` closes it since).
fn inside_tag(before: &[u8], tag: &[u8]) -> bool {
    match before.iter().rposition(|&b| b == b'<') {
        Some(open) => before[open..].starts_with(tag) && !before[open..].contains(&b'>'),
        None => false,
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
