//! Footnotes: a link to a note elsewhere on the page (`<sup><a href="#fn1">1</a></sup>`, a
//! reference `[3]` to an entry of a list of references) becomes a GFM footnote reference
//! (`[^1]`), and the note's text a footnote definition after the article (`[^1]: …`), whether
//! the note's own part of the page was kept or cut. The marker is a number of at most four
//! digits, a letter, or note signs (`*`, `†`, `‡`, `§`); the note is no heading or
//! section, holds text, and not the reference itself.

use super::*;
use std::collections::HashMap;

/// Longest marker a footnote reference shows (`1`, `[12]`, `a`, `†`, `**`), brackets left out.
const MAX_MARKER: usize = 4;

/// Longest note kept, in bytes (a note is a sentence or a reference, not a section).
const MAX_NOTE: usize = 2_000;

/// The notes referred to so far.
#[derive(Default)]
pub(super) struct Notes<'a> {
    /// The page's elements by `id`, made at the first link to a fragment.
    ids: Option<HashMap<&'a str, NodeId>>,
    /// In the order of their first reference: label, note element, text.
    list: Vec<(String, NodeId, String)>,
}

impl<'a> Markdown<'a> {
    /// The footnote label of link `e` (node `id`) when it is a footnote reference: a link to
    /// an element of this page (`#id`) that shows a short marker and whose target holds text
    /// and not the link itself. The note is kept for [`Markdown::footnotes`].
    pub(super) fn footnote(&mut self, id: NodeId, e: &Element) -> Option<String> {
        let doc: &'a Doc = self.doc;
        let fragment = same_page_fragment(e.attr("href")?, self.base)?;
        let marker = collapse_ws(&doc.text(id));
        let marker = marker.trim_matches(|c: char| matches!(c, '[' | ']' | '(' | ')'));
        // A number, a letter or note signs: not a word (a jump to a section), not an arrow.
        let count = marker.chars().count();
        let number = marker.chars().all(|c| c.is_ascii_digit());
        let letter = count == 1 && marker.chars().all(char::is_alphabetic);
        let signs = marker.chars().all(|c| matches!(c, '*' | '†' | '‡' | '§'));
        if marker.is_empty() || count > MAX_MARKER || !(number || letter || signs) {
            return None;
        }
        let ids = self.notes.ids.get_or_insert_with(|| {
            (0..doc.nodes.len() as NodeId).filter_map(|n| Some((doc.element(n)?.attr("id")?, n))).collect()
        });
        let target = *ids.get(fragment)?;
        // A note is a list item, a paragraph, a small block: not a heading or a section.
        let section = doc.element(target).is_some_and(|t| {
            heading_level(&t.name).is_some() || matches!(t.name.as_str(), "section" | "article" | "main" | "body" | "html" | "nav" | "header" | "footer" | "table")
        });
        if section || doc.contains(target, id) {
            return None;
        }
        if let Some((label, _, _)) = self.notes.list.iter().find(|(_, t, _)| *t == target) {
            return Some(label.clone());
        }
        let text = note_text(doc, target);
        if text.is_empty() {
            return None;
        }
        let base: String = marker.chars().filter(|c| c.is_alphanumeric() || *c == '-').collect();
        let base = if base.is_empty() { (self.notes.list.len() + 1).to_string() } else { base };
        let mut label = base.clone();
        let mut n = 2;
        while self.notes.list.iter().any(|(l, _, _)| *l == label) {
            label = format!("{base}-{n}");
            n += 1;
        }
        self.notes.list.push((label.clone(), target, text));
        Some(label)
    }

    /// The footnote definitions, one a line (empty when no note was referred to).
    pub(super) fn footnotes(&self) -> String {
        let mut out = String::new();
        for (label, _, text) in &self.notes.list {
            out.push_str(&format!("[^{label}]: {}\n", crate::render::text_markdown(text).trim_end()));
        }
        out
    }
}

/// The fragment of `href` when it points into the page itself (`#x`, or the page's own URL
/// with `#x`).
fn same_page_fragment<'h>(href: &'h str, base: Option<&Url>) -> Option<&'h str> {
    let href = href.trim();
    if let Some(f) = href.strip_prefix('#') {
        return (!f.is_empty()).then_some(f);
    }
    let (page, fragment) = href.split_once('#')?;
    let base = base?;
    let resolved = base.join(page).ok()?;
    let same = |u: &Url| {
        let mut u = u.clone();
        u.set_fragment(None);
        u
    };
    (same(&resolved) == same(base) && !fragment.is_empty()).then_some(fragment)
}

/// A note's text on one line, without the links back to where it is referred to (`^`, `↩`,
/// `a b`: links to fragments), at most [`MAX_NOTE`] bytes.
fn note_text(doc: &Doc, target: NodeId) -> String {
    let mut out = String::new();
    let end = doc.end(target);
    let mut i = target;
    while i < end && out.len() <= MAX_NOTE {
        match &doc.nodes[i as usize].data {
            NodeData::Element(e) if e.name == "a" && e.attr("href").is_some_and(|h| h.trim_start().starts_with('#')) => {
                i = doc.end(i).max(i + 1);
                continue;
            }
            NodeData::Element(e) if matches!(e.name.as_str(), "p" | "div" | "li" | "br" | "dd" | "dt") => out.push(' '),
            NodeData::Element(_) => {}
            NodeData::Text(t) => out.push_str(t),
        }
        i += 1;
    }
    let text = collapse_ws(&out);
    let text = text.trim_matches(|c: char| c.is_whitespace() || matches!(c, '^' | '↑' | '↩' | '\u{fe0e}' | '\u{fe0f}'));
    if text.len() > MAX_NOTE {
        return String::new();
    }
    text.to_string()
}
