//! A guard against pathological markup, applied before the HTML parser.
//!
//! Two shapes cost html5ever quadratic time, so a small hostile page can take minutes:
//! - **Depth.** It checks its stack of open elements on every start tag, so a page nested N
//!   deep costs O(N²) (100 000 nested `<div>`s: ~20 s). Browsers cap tree depth (Chromium at
//!   512). We do the same on the markup: a light scan tracks how many container tags are open;
//!   past [`MAX_DEPTH`](crate::budget::MAX_DEPTH), further start tags are removed together with as many later end tags,
//!   so their text joins the deepest allowed element.
//! - **Attributes.** It looks for a duplicate among the tag's earlier attributes on each new
//!   one, so one tag with 100 000 attributes costs O(N²) (~18 s). A start tag keeps its first
//!   [`MAX_ATTRIBUTES`]; real pages carry a few dozen. Tags are read as the HTML tokenizer
//!   reads them (quotes open a value only after `=`), so the cut never takes more.
//!
//! Pages with neither shape are not touched (no copy is made).

use std::borrow::Cow;



/// Most attributes kept on one element (the cleaner keeps no more either).
pub const MAX_ATTRIBUTES: usize = 256;

/// A page with a `<…>` stretch longer than this many bytes is scanned for tags with too many
/// attributes: such a tag takes at least two bytes per attribute.
pub const LONG_TAG: usize = 2 * MAX_ATTRIBUTES;

/// Elements that never have an end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen", "frame", "basefont", "bgsound", "image",
];

/// Elements that the parser closes implicitly; not counted (unclosed `<p>`s do not nest).
const IMPLICIT: &[&str] = &[
    "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot",
    "colgroup", "caption", "rb", "rt", "rtc", "rp", "html", "head", "body",
];

/// Elements whose content is raw text up to their end tag.
const RAW: &[&str] = &["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"];

/// `html` with nesting beyond `max` flattened and attributes past [`MAX_ATTRIBUTES`] on one
/// tag dropped (borrowed when nothing had to change).
pub fn limit_markup(html: &str, max: usize) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    // One pass decides whether the scan is needed: enough tags to nest past `max`, or a
    // stretch from a `<` to the next `>` long enough to hold many attributes.
    let (mut lts, mut longest, mut open) = (0usize, 0usize, None::<usize>);
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'<' {
            lts += 1;
            open.get_or_insert(i);
        } else if b == b'>' {
            if let Some(o) = open.take() {
                longest = longest.max(i - o);
            }
        }
    }
    if let Some(o) = open {
        longest = longest.max(bytes.len() - o);
    }
    if lts <= max && longest <= LONG_TAG {
        return Cow::Borrowed(html);
    }
    let mut out: Option<String> = None;
    let mut copied = 0usize;
    let mut open = Open::default();
    let mut i = 0usize;
    let mut name = String::new();
    while let Some(off) = bytes[i..].iter().position(|&b| b == b'<') {
        let lt = i + off;
        let rest = &bytes[lt..];
        if rest.starts_with(b"<!--") {
            i = comment_end(bytes, lt);
            continue;
        }
        if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
            i = find(bytes, lt, b">").map_or(bytes.len(), |p| p + 1);
            continue;
        }
        let end_tag = rest.get(1) == Some(&b'/');
        let start = lt + 1 + usize::from(end_tag);
        let mut j = start;
        name.clear();
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'-' || bytes[j] == b':') {
            name.push(bytes[j].to_ascii_lowercase() as char);
            j += 1;
        }
        if name.is_empty() || !bytes[start].is_ascii_alphabetic() {
            i = lt + 1;
            continue;
        }
        let (Some(gt), cut) = scan_tag(bytes, j, MAX_ATTRIBUTES) else { break };
        let self_closing = gt > 0 && bytes[gt - 1] == b'/';
        i = gt + 1;
        // Inside `<svg>` or `<math>` no element holds raw text (`<svg><title>` holds tags).
        let raw = !end_tag && open.foreign == 0 && RAW.contains(&name.as_str());
        if raw {
            // Skip the raw text; its end tag is handled by the next round.
            let close = format!("</{name}");
            i = find_ci(bytes, i, close.as_bytes()).unwrap_or(bytes.len());
        }
        let nests = !(raw || VOID.contains(&name.as_str()) || IMPLICIT.contains(&name.as_str()) || (self_closing && !end_tag));
        let remove = nests && if end_tag { open.close(&name) } else { open.start(&name, max) };
        if remove {
            let o = out.get_or_insert_with(|| String::with_capacity(html.len()));
            o.push_str(&html[copied..lt]);
            copied = gt + 1;
        } else if let (false, Some(cut)) = (end_tag, cut) {
            let o = out.get_or_insert_with(|| String::with_capacity(html.len()));
            o.push_str(&html[copied..cut]);
            copied = gt;
        }
    }
    match out {
        None => Cow::Borrowed(html),
        Some(mut o) => {
            o.push_str(&html[copied..]);
            Cow::Owned(o)
        }
    }
}

/// The counted elements open at a point of the scan, as the tree builder sees them: an end tag
/// closes the innermost open element of its name and those opened after it, and an end tag
/// with no open element of its name is ignored (a stray `</span>` closes nothing).
#[derive(Default)]
struct Open {
    /// Open elements, outermost first: name, and whether its start tag was kept.
    stack: Vec<(String, bool)>,
    /// How many of each name are open (an end tag finds out at once whether it is stray).
    count: std::collections::HashMap<String, usize>,
    /// Kept elements open (the depth the parser sees).
    kept: usize,
    /// `svg` and `math` elements open.
    foreign: usize,
}

impl Open {
    /// A start tag; returns whether to remove it (past `max` kept elements).
    fn start(&mut self, name: &str, max: usize) -> bool {
        let keep = self.kept < max;
        self.kept += usize::from(keep);
        self.foreign += usize::from(matches!(name, "svg" | "math"));
        *self.count.entry(name.to_string()).or_insert(0) += 1;
        self.stack.push((name.to_string(), keep));
        !keep
    }

    /// An end tag; returns whether to remove it (it closes an element whose start was removed).
    fn close(&mut self, name: &str) -> bool {
        if self.count.get(name).copied().unwrap_or(0) == 0 {
            return false; // stray: the parser ignores it
        }
        while let Some((n, kept)) = self.stack.pop() {
            self.kept -= usize::from(kept);
            self.foreign -= usize::from(matches!(n.as_str(), "svg" | "math"));
            if let Some(c) = self.count.get_mut(&n) {
                *c -= 1;
            }
            if n == name {
                return !kept;
            }
        }
        false
    }
}

/// Where a comment that starts at `lt` (`<!--`) ends, as the tokenizer reads it: `<!-->` and
/// `<!--->` are whole (empty) comments; otherwise at the first `-->` or `--!>`.
fn comment_end(bytes: &[u8], lt: usize) -> usize {
    let after = lt + 4;
    if bytes.get(after) == Some(&b'>') {
        return after + 1;
    }
    if bytes.get(after..after + 2) == Some(b"->") {
        return after + 2;
    }
    // One scan for the first `--` that a `>` or `!>` follows.
    let mut from = after;
    while let Some(p) = find(bytes, from, b"--") {
        match bytes.get(p + 2) {
            Some(b'>') => return p + 3,
            Some(b'!') if bytes.get(p + 3) == Some(&b'>') => return p + 4,
            _ => from = p + 1,
        }
    }
    bytes.len()
}

/// A start or end tag read as the HTML tokenizer reads it (§13.2.5, from the tag name on):
/// where its `>` is, and where its attribute number `max + 1` starts, if it has that many.
/// Quotes open a value only right after `=`; elsewhere they are part of a name or value, so
/// an apostrophe in `title=Don't` does not swallow the page.
fn scan_tag(bytes: &[u8], from: usize, max: usize) -> (Option<usize>, Option<usize>) {
    #[derive(Clone, Copy, PartialEq)]
    enum St {
        TagName,
        BeforeName,
        Name,
        AfterName,
        BeforeValue,
        Quoted(u8),
        Unquoted,
    }
    let ws = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c');
    let (mut st, mut count, mut cut) = (St::TagName, 0usize, None);
    for (k, &b) in bytes.iter().enumerate().skip(from) {
        st = match st {
            St::Quoted(q) => {
                if b == q {
                    St::BeforeName // after a quoted value: a new name may follow at once
                } else {
                    st
                }
            }
            _ if b == b'>' => return (Some(k), cut),
            St::TagName | St::Unquoted if ws(b) => St::BeforeName,
            St::TagName if b == b'/' => St::BeforeName,
            St::TagName | St::Unquoted => st,
            St::BeforeName | St::AfterName if ws(b) || b == b'/' => st,
            St::AfterName if b == b'=' => St::BeforeValue,
            St::BeforeName | St::AfterName => {
                count += 1;
                if count == max + 1 && cut.is_none() {
                    cut = Some(k);
                }
                St::Name // the first character may be anything, `=` included
            }
            St::Name if ws(b) => St::AfterName,
            St::Name if b == b'/' => St::BeforeName,
            St::Name if b == b'=' => St::BeforeValue,
            St::Name => st,
            St::BeforeValue if ws(b) => st,
            St::BeforeValue if b == b'"' || b == b'\'' => St::Quoted(b),
            St::BeforeValue => St::Unquoted,
        };
    }
    (None, cut)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

fn find_ci(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes.get(from..)?.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle)).map(|p| p + from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_pages_are_untouched() {
        let html = "<div><p>a<p>b</div><script>if (a<b) {}</script>";
        assert!(matches!(limit_markup(html, 2), Cow::Borrowed(_)));
    }

    #[test]
    fn deep_nesting_is_flattened_past_the_cap() {
        let html = format!("{}x{}", "<div>".repeat(10), "</div>".repeat(10));
        let out = limit_markup(&html, 3);
        assert_eq!(out, "<div><div><div>x</div></div></div>");
    }

    #[test]
    fn a_tag_keeps_its_first_attributes() {
        let attrs: String = (0..1000).map(|i| format!(" a{i}='v {i}'")).collect();
        let html = format!("<p>x</p><div id=x{attrs} data-z=\"q>\">y</div>");
        let out = limit_markup(&html, 100);
        let kept: String = (0..MAX_ATTRIBUTES - 1).map(|i| format!(" a{i}='v {i}'")).collect();
        assert_eq!(out, format!("<p>x</p><div id=x{kept} >y</div>"));
        // Quotes inside a bare value or a name open nothing: the tag ends at its `>`.
        let words = "word ".repeat(400);
        let html = format!("<p title=Don't>{words}</p><p class=x\"y a'b>it's {words}</p>");
        assert!(matches!(limit_markup(&html, 1), Cow::Borrowed(_)));
        // Long tags with few attributes (a big JSON value) are untouched.
        let json = format!("<div data-props='{}'>z</div>", "{\"k\": 1} ".repeat(500));
        assert!(matches!(limit_markup(&json, 100), Cow::Borrowed(_)));
    }

    #[test]
    fn the_scan_reads_tags_as_the_parser_does() {
        let deep = |open: &str, close: &str, n: usize| format!("{}x{}", open.repeat(n), close.repeat(n));
        // Stray end tags close nothing: the `<b>`s stay open.
        let html = deep("<b id=q></span>", "", 10);
        let out = limit_markup(&html, 3);
        assert_eq!(out.matches("<b ").count(), 3, "{out}");
        // An empty comment `<!-->` hides nothing; `--!>` ends a comment too.
        assert_eq!(comment_end(b"<!-- a --!> b -->", 0), 11);
        assert_eq!(comment_end(b"<!-- a - -> b --->", 0), 18);
        assert_eq!(comment_end(b"<!-- open", 0), 9);
        let html = format!("<!-->{}<!-- x -->", deep("<div>", "</div>", 10));
        assert_eq!(limit_markup(&html, 3).matches("<div>").count(), 3);
        // Nor does `<title>` inside `<svg>`, which holds tags, not text.
        let html = format!("<svg><title>{}</title></svg>", deep("<g>", "</g>", 10));
        assert_eq!(limit_markup(&html, 3).matches("<g>").count(), 1, "svg, title and one g");
        // Closing an outer element closes the ones left open inside it.
        let html = format!("<div>{}</div>{}", "<span>".repeat(5), deep("<div>", "</div>", 2));
        assert_eq!(limit_markup(&html, 3).matches("<div>").count(), 3);
    }

    #[test]
    fn quotes_and_comments_do_not_confuse_the_scan() {
        let html = format!("<!-- <div> --><a title='>'>x</a>{}y{}", "<div>".repeat(5), "</div>".repeat(5));
        assert_eq!(limit_markup(&html, 3), "<!-- <div> --><a title='>'>x</a><div><div><div>y</div></div></div>");
    }
}
