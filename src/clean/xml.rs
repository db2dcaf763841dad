//! The cleaned tree as well-formed XML, with `dfs` on every element (quick-xml writer).

use super::{Doc, NodeData, NodeId};
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

impl Doc {
    /// Serialize the page as one XML document: no declaration, no DOCTYPE, no namespaces, no
    /// entities but the five predefined ones, so any XML parser (sxd-xpath's included) reads it.
    pub fn to_xml(&self) -> String {
        let mut out = Vec::with_capacity(self.nodes.len() * 32);
        self.write_xml(&mut out);
        // Every piece written is valid UTF-8 (names and texts are `String`s).
        String::from_utf8(out).unwrap_or_default()
    }

    /// Append the XML form of the page to `out`.
    pub fn write_xml(&self, out: &mut Vec<u8>) {
        self.write_xml_range(out, 0, self.nodes.len() as NodeId, &[]);
    }

    /// Append the XML form of the subtree at `root` to `out`, leaving out the nodes `skip`
    /// marks (an element with its whole subtree; a node past the end of `skip` is kept).
    pub(crate) fn write_xml_subtree(&self, out: &mut Vec<u8>, root: NodeId, skip: &[bool]) {
        if let Some(node) = self.nodes.get(root as usize) {
            self.write_xml_range(out, root, node.end, skip);
        }
    }

    /// Append the XML form of the nodes `start..end` (whole subtrees) to `out`, minus `skip`.
    fn write_xml_range(&self, out: &mut Vec<u8>, start: NodeId, end: NodeId, skip: &[bool]) {
        let mut w = Writer::new(out);
        // Elements still open, as (node, end of its subtree).
        let mut open: Vec<(NodeId, NodeId)> = Vec::new();
        let mut dfs_buf = itoa_buf();
        let mut i = start;
        while i < end {
            let Some(node) = self.nodes.get(i as usize) else { break };
            close_until(&mut w, self, &mut open, i);
            if skip.get(i as usize).copied().unwrap_or(false) {
                i = node.end.max(i + 1);
                continue;
            }
            match &node.data {
                NodeData::Text(t) => {
                    let _ = w.write_event(Event::Text(BytesText::new(t)));
                }
                NodeData::Element(e) => {
                    let mut start = BytesStart::new(e.name.as_str());
                    for (k, v) in &e.attrs {
                        start.push_attribute((k.as_str(), v.as_str()));
                    }
                    start.push_attribute(("dfs", fmt_u32(&mut dfs_buf, e.dfs)));
                    if node.end == i + 1 {
                        let _ = w.write_event(Event::Empty(start));
                    } else {
                        let _ = w.write_event(Event::Start(start));
                        open.push((i, node.end));
                    }
                }
            }
            i += 1;
        }
        close_until(&mut w, self, &mut open, NodeId::MAX);
    }
}

/// Close every open element whose subtree ends at or before `next`.
fn close_until(w: &mut Writer<&mut Vec<u8>>, doc: &Doc, open: &mut Vec<(NodeId, NodeId)>, next: NodeId) {
    while let Some(&(id, end)) = open.last() {
        if end > next {
            break;
        }
        open.pop();
        if let Some(e) = doc.element(id) {
            let _ = w.write_event(Event::End(BytesEnd::new(e.name.as_str())));
        }
    }
}

fn itoa_buf() -> String {
    String::with_capacity(10)
}

fn fmt_u32(buf: &mut String, n: u32) -> &str {
    use std::fmt::Write;
    buf.clear();
    let _ = write!(buf, "{n}");
    buf
}

/// Is `c` allowed in XML 1.0 character data?
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// Does `s` hold only characters XML 1.0 allows? Read as bytes: a control character is one
/// byte below 0x20, and U+FFFE and U+FFFF are the only forbidden characters that a `str` can
/// hold above it (`EF BF BE`, `EF BF BF`). The scan has no early exit, so it vectorizes.
fn xml_clean(s: &str) -> bool {
    let b = s.as_bytes();
    let controls = b.iter().fold(false, |bad, &c| bad | (c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\r')));
    let noncharacter = || memchr::memchr(0xEF, b).is_some() && b.windows(3).any(|w| w[0] == 0xEF && w[1] == 0xBF && w[2] >= 0xBE);
    !controls && !noncharacter()
}

/// `s` without the characters XML 1.0 forbids (controls, U+FFFE, U+FFFF).
pub fn xml_text(s: &str) -> std::borrow::Cow<'_, str> {
    if xml_clean(s) {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(s.chars().filter(|&c| xml_char(c)).collect())
    }
}

/// May `c` start an XML name (without `:`, so a namespace-free name, as XPath's NCName)?
pub(crate) fn name_start_char(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
        | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
        | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
        | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
        | '\u{10000}'..='\u{EFFFF}')
}

/// May `c` continue an XML name (without `:`)?
pub(crate) fn name_char(c: char) -> bool {
    name_start_char(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// An HTML element or attribute name made a valid, namespace-free XML name.
///
/// Rule: every character that may not appear in an XML name, and `:`, becomes `_`; a name
/// whose first character may not start an XML name gets a `_` in front; an empty name is `_`.
/// So `@click` → `_click`, `v-on:click` → `v-on_click`, `xmlns:fb` → `xmlns_fb`, `1x` → `_1x`.
///
/// # Example
/// ```
/// assert_eq!(forest::clean::xml_name("v-on:click"), "v-on_click");
/// assert_eq!(forest::clean::xml_name("@click"), "_click");
/// ```
pub fn xml_name(name: &str) -> String {
    if plain_xml_name(name) {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len() + 1);
    for (i, c) in name.chars().enumerate() {
        let ok = if i == 0 { name_start_char(c) } else { name_char(c) };
        if i == 0 && !ok && name_char(c) {
            out.push('_');
            out.push(c);
        } else {
            out.push(if ok { c } else { '_' });
        }
    }
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// Is `name` a usual lower-case ASCII name, valid in XML as it is (the fast path of
/// [`xml_name`])?
pub(crate) fn plain_xml_name(name: &str) -> bool {
    // One table look-up a byte: this runs for every element and attribute name of a page.
    const PLAIN: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            t[b] = c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_';
            b += 1;
        }
        t
    };
    name.as_bytes().first().is_some_and(u8::is_ascii_lowercase) && name.bytes().all(|b| PLAIN[usize::from(b)])
}

#[cfg(test)]
mod tests {
    use super::{xml_name, xml_text};
    use crate::clean::page;

    #[test]
    fn escapes_text_and_attributes() {
        let doc = page("<p title='a\"<b'>x &amp; y &lt;z&gt;</p>");
        assert_eq!(
            doc.to_xml(),
            "<html dfs=\"0\"><head dfs=\"1\"/><body dfs=\"2\"><p title=\"a&quot;&lt;b\" dfs=\"3\">x &amp; y &lt;z&gt;</p></body></html>"
        );
    }

    #[test]
    fn text_keeps_what_xml_allows() {
        for s in ["plain", "tab\tnl\ncr\r", "é ü 漢 😀 \u{FFFD} \u{7F}", ""] {
            assert!(matches!(xml_text(s), std::borrow::Cow::Borrowed(_)), "{s:?}");
        }
        assert_eq!(xml_text("a\u{0}b\u{1F}c\u{FFFE}d\u{FFFF}e\u{FFFD}"), "abcde\u{FFFD}");
    }

    #[test]
    fn names_are_made_xml_safe() {
        assert_eq!(xml_name("xmlns:fb"), "xmlns_fb");
        assert_eq!(xml_name("1x"), "_1x");
        assert_eq!(xml_name("a\"b"), "a_b");
        assert_eq!(xml_name(""), "_");
    }
}
