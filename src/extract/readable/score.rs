//! Scoring: per-node facts about the page gathered in a few passes over the flat arena, the
//! paragraphs, the boilerplate regions, and the article score of every element.
//!
//! A *block* is an element that is not inline; the text of a block is the text whose nearest
//! block ancestor it is. A block is a *paragraph* when it has at least [`PARAGRAPH_MIN`]
//! columns of text (a CJK character is two columns wide) and at most a third of it is link
//! text. An element's score is its paragraph columns (raised by a fixed fraction for article
//! words and landmarks) less its boilerplate columns (link text, text in boilerplate regions,
//! and a fraction of the short lines that are no paragraph).

use super::classes;
use super::Options;
use crate::clean::{Doc, NodeData, NodeId};

/// Fewest columns of text a paragraph has.
pub const PARAGRAPH_MIN: u32 = 25;
/// Weight, in the score, of a column of short non-link text outside paragraphs.
const SHORT_WEIGHT: f32 = 0.25;
/// Score bonus of an element with an article class word, as a fraction of its paragraphs.
const ARTICLE_BONUS: f32 = 0.1;
/// Score bonus of a landmark element, as a fraction of its paragraphs.
const LANDMARK_BONUS: f32 = 0.2;
/// Boilerplate regions are given back while they leave less than this fraction of the page's
/// paragraph columns outside them.
const KEEP: f32 = 0.15;
/// Most boilerplate regions given back on one page.
const OVERRULE_ROUNDS: usize = 4;
/// Cutting boilerplate inside the selection is refused when it would take more than this
/// fraction of the selection's paragraph columns.
pub const MOST: f32 = 0.5;

/// Is node `n` a dialog: a `dialog` element, or one whose `role` is `dialog` or
/// `alertdialog`, or that is `aria-modal`?
fn is_dialog(doc: &Doc, n: NodeId) -> bool {
    doc.element(n).is_some_and(|e| {
        let role = e.attr("role").map(str::trim);
        e.name == "dialog"
            || role.is_some_and(|r| r.eq_ignore_ascii_case("dialog") || r.eq_ignore_ascii_case("alertdialog"))
            || e.attr("aria-modal").is_some_and(|m| m.trim().eq_ignore_ascii_case("true"))
    })
}

/// Fewest words of a text that says one word over and over ([`repeats_one_word`]).
const REPEATS: usize = 8;

/// Is `t` one word said over and over (`word word word …`, a script's font probe or a filler)?
/// Such a text is read by no one: it counts no columns. Most texts stop at their second word.
fn repeats_one_word(t: &str) -> bool {
    let mut words = t.split_whitespace();
    let Some(first) = words.next() else { return false };
    let mut n = 1;
    for w in words {
        if w != first {
            return false;
        }
        n += 1;
    }
    n >= REPEATS
}

/// Columns of `s`: non-space characters, a wide (CJK) character counting two. Read byte by
/// byte: only characters of three or four bytes are decoded (the only ones that can be wide).
pub fn columns(s: &str) -> u32 {
    let b = s.as_bytes();
    if b.is_ascii() {
        // Most texts: every byte a column but ASCII white space (`is_ascii_whitespace`, which
        // leaves out the vertical tab), counted without branches so the loop runs on vectors.
        return b.iter().map(|&c| u32::from(!(crate::clean::is_space_byte(c) & (c != 0x0B)))).sum();
    }
    let mut n = 0u32;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c < 0x80 {
            n += u32::from(!c.is_ascii_whitespace());
            i += 1;
        } else if c < 0xE0 {
            // Two bytes: U+0080..U+07FF, never wide; U+0085 and U+00A0 are spaces.
            n += u32::from(!(c == 0xC2 && matches!(b.get(i + 1), Some(0x85 | 0xA0))));
            i += 2;
        } else {
            let len = if c < 0xF0 { 3 } else { 4 };
            let ch = s.get(i..(i + len).min(b.len())).and_then(|x| x.chars().next());
            n += match ch {
                Some(ch) if ch.is_whitespace() => 0,
                Some(ch) if wide(ch) => 2,
                _ => 1,
            };
            i += len;
        }
    }
    n
}

/// Is `c` a wide East Asian character (CJK ideograph, kana, hangul, full-width form)?
pub fn wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD)
}

/// Facts about every node of one page.
pub struct Facts {
    /// Per node: its parent ([`NONE`] for the root), copied from the page to keep the passes
    /// over a compact array.
    pub parent: Vec<NodeId>,
    /// Per node: is it a text node?
    pub text: Vec<bool>,
    /// Per node: its block (itself for a block element; the nearest block ancestor otherwise).
    pub block: Vec<NodeId>,
    /// Per node: inside a link or form control.
    pub in_link: Vec<bool>,
    /// Per node: what its class/id words, tag and role say (elements only).
    pub verdict: Vec<classes::Verdict>,
    /// Per node: inside boilerplate to cut (a hidden element, or a boilerplate region that does
    /// not hold most of the page's paragraphs).
    pub junk: Vec<bool>,
    /// Per block: columns of its own visible text.
    pub own: Vec<u32>,
    /// Per block: of those, columns inside links.
    pub own_link: Vec<u32>,
    /// Per block: is it a paragraph?
    pub para: Vec<bool>,
    /// Per node: visible text columns in its subtree.
    pub width: Vec<u32>,
    /// Per node: link text columns in its subtree.
    pub link: Vec<u32>,
    /// Per node: paragraph columns in its subtree (outside boilerplate).
    pub good: Vec<f32>,
    /// Per node: boilerplate columns in its subtree.
    pub bad: Vec<f32>,
    /// Per node: visible text columns outside boilerplate in its subtree.
    pub kept: Vec<f32>,
    /// Per node: paragraph columns before boilerplate was known (every visible paragraph).
    pub good0: Vec<f32>,
}

impl Facts {
    /// Gather the facts of `doc` under `opts`.
    pub fn new(doc: &Doc, opts: &Options) -> Facts {
        Facts::gather(doc, opts, false)
    }

    /// The facts of a page with no article, whose list is its content: teaser lists are not
    /// boilerplate there, and nor are regions named for other items (related, recommended,
    /// …) when all else holds less than an article's worth of text (the page's list is one
    /// of them).
    pub fn of_listing(doc: &Doc, opts: &Options) -> Facts {
        let opts = Options { teasers: false, ..*opts };
        let f = Facts::gather(doc, &opts, false);
        if f.kept.get(doc.body as usize).is_some_and(|&kept| kept < super::ARTICLE_MIN) {
            return Facts::gather(doc, &opts, true);
        }
        f
    }

    fn gather(doc: &Doc, opts: &Options, listing: bool) -> Facts {
        let n = doc.nodes.len();
        let mut f = Facts {
            parent: vec![NONE; n],
            text: vec![false; n],
            block: vec![0; n],
            in_link: vec![false; n],
            verdict: vec![classes::Verdict::default(); n],
            junk: vec![false; n],
            own: vec![0; n],
            own_link: vec![0; n],
            para: vec![false; n],
            width: vec![0; n],
            link: vec![0; n],
            good: vec![0.0; n],
            bad: vec![0.0; n],
            kept: vec![0.0; n],
            good0: vec![0.0; n],
        };
        let mut hidden = vec![false; n];
        // On a discussion, words naming comments mark no boilerplate: its posts are its content.
        let discussion = opts.kinds && doc.discussion;
        classes::with_cache(discussion, |cache| {
            for (v, node) in f.verdict.iter_mut().zip(&doc.nodes) {
                if let NodeData::Element(e) = &node.data {
                    *v = classes::verdict(e, cache);
                }
            }
        });
        if opts.panels {
            classes::controlled_panels(doc, &mut f.verdict);
        }
        // Forward: blocks, links, verdicts, visibility; own text of each block.
        for i in 0..n {
            let node = &doc.nodes[i];
            f.parent[i] = node.parent.unwrap_or(NONE);
            f.text[i] = matches!(node.data, NodeData::Text(_));
            let parent = node.parent.map(|p| p as usize);
            let up_hidden = parent.is_some_and(|p| hidden[p]);
            let up_link = parent.is_some_and(|p| f.in_link[p]);
            match &node.data {
                NodeData::Element(e) => {
                    let v = f.verdict[i];
                    hidden[i] = up_hidden || (opts.hidden && v.hidden && !(opts.panels && v.panel));
                    f.in_link[i] = up_link || e.name == "a" || (!v.inline && classes::control(&e.name));
                    f.block[i] = match parent {
                        Some(p) if v.inline => f.block[p],
                        _ => i as NodeId,
                    };
                }
                NodeData::Text(t) => {
                    hidden[i] = up_hidden;
                    f.in_link[i] = up_link;
                    let b = parent.map_or(0, |p| f.block[p]);
                    f.block[i] = b;
                    if !hidden[i] && !repeats_one_word(t) {
                        let c = columns(t);
                        f.width[i] = c;
                        f.own[b as usize] += c;
                        if up_link {
                            f.own_link[b as usize] += c;
                            f.link[i] = c;
                        }
                    }
                }
            }
        }
        for b in 0..n {
            f.para[b] = f.own[b] >= PARAGRAPH_MIN && f.own_link[b] * 3 <= f.own[b];
        }
        // Subtree text and link columns, and the first text node of each subtree.
        let mut first = vec![NONE; n];
        for i in (0..n).rev() {
            if f.width[i] > 0 && f.text[i] {
                first[i] = i as NodeId;
            }
            if let Some(p) = f.up(i) {
                if i > 0 {
                    f.width[p] += f.width[i];
                    f.link[p] += f.link[i];
                }
                if first[i] != NONE {
                    first[p] = first[i];
                }
            }
        }
        if opts.teasers {
            teaser_lists(doc, &mut f, &first);
        }
        // Paragraph columns before boilerplate regions are known.
        for i in 0..n {
            if f.text[i] && f.para[f.block[i] as usize] {
                f.good0[i] = f.width[i] as f32;
            }
        }
        sum_up(&f.parent, &mut f.good0);
        let total0 = f.good0.get(doc.body as usize).copied().unwrap_or(0.0);
        // Boilerplate regions are cut; while they leave less than `KEEP` of the page's
        // paragraphs, the one holding the most (with those of the same class) is given back.
        let mut overruled = vec![false; n];
        for _ in 0..OVERRULE_ROUNDS {
            let mut left = total0;
            let mut largest: Option<(f32, usize)> = None;
            for i in 0..n {
                let up = f.up(i).is_some_and(|p| f.junk[p]);
                let region = opts.classes && f.verdict[i].boilerplate && !(listing && f.verdict[i].items) && !overruled[i];
                f.junk[i] = up || hidden[i] || region;
                if region && !up && !hidden[i] {
                    left -= f.good0[i];
                    // A dialog is shown over the page, never as its content: not given back.
                    if largest.is_none_or(|(g, _)| f.good0[i] > g) && !is_dialog(doc, i as NodeId) {
                        largest = Some((f.good0[i], i));
                    }
                }
            }
            let Some((g, r)) = largest else { break };
            if left >= KEEP * total0 || g <= 0.0 {
                break;
            }
            let class = doc.element(r as NodeId).and_then(|e| e.attr("class"));
            for (i, o) in overruled.iter_mut().enumerate() {
                if i == r || (class.is_some() && doc.element(i as NodeId).and_then(|e| e.attr("class")) == class) {
                    *o = true;
                }
            }
        }
        // Text columns: paragraph, link, boilerplate, short lines.
        for i in 0..n {
            if !f.text[i] {
                continue;
            }
            let c = f.width[i] as f32;
            if !f.junk[i] {
                f.kept[i] = c;
            }
            if f.junk[i] {
                f.bad[i] = c;
            } else if f.para[f.block[i] as usize] {
                f.good[i] = c;
            } else if f.in_link[i] {
                f.bad[i] = c;
            } else {
                f.bad[i] = c * SHORT_WEIGHT;
            }
        }
        // Subtree sums, children before parents (reverse pre-order), in one pass.
        for i in (1..n).rev() {
            if let Some(p) = f.up(i) {
                f.good[p] += f.good[i];
                f.bad[p] += f.bad[i];
                f.kept[p] += f.kept[i];
            }
        }
        f
    }

    /// The parent of node `i`, if any.
    pub fn up(&self, i: usize) -> Option<usize> {
        self.parent.get(i).filter(|&&p| p != NONE).map(|&p| p as usize)
    }

    /// The article score of element `i`: paragraph columns, raised for article words and
    /// landmarks, less boilerplate columns.
    pub fn score(&self, i: usize, opts: &Options) -> f32 {
        let v = self.verdict[i];
        let mut bonus = 0.0;
        if opts.classes && v.article {
            bonus += ARTICLE_BONUS;
        }
        if opts.landmarks && v.landmark {
            bonus += LANDMARK_BONUS;
        }
        self.good[i] * (1.0 + bonus) - self.bad[i]
    }
}

/// No node.
pub const NONE: NodeId = NodeId::MAX;
/// Fewest link columns of a teaser's headline.
const TEASER_HEADLINE: u32 = 10;
/// Fewest teasers in a teaser list.
const TEASERS: usize = 3;

/// Mark teaser lists as boilerplate: elements of which most children with text, and at least
/// [`TEASERS`], are teasers, each opening with a block that is all link text (a headline to
/// another page of the same site) and holding more text than a paragraph after it (a summary).
fn teaser_lists(doc: &Doc, f: &mut Facts, first: &[NodeId]) {
    let n = doc.nodes.len();
    let host = page_host(doc);
    let teaser = |f: &Facts, c: usize| -> bool {
        if f.link[c] < TEASER_HEADLINE || f.width[c] - f.link[c] < PARAGRAPH_MIN {
            return false;
        }
        let Some(&t) = first.get(c).filter(|&&t| t != NONE) else { return false };
        let t = t as usize;
        let Some(&b) = f.block.get(t) else { return false };
        let b = b as usize;
        f.own[b] >= TEASER_HEADLINE
            && f.own_link[b] == f.own[b]
            && f.width[c] - f.link[c] >= PARAGRAPH_MIN
            && links_away(doc, t, host.as_deref())
    };
    for p in 0..n {
        if p == doc.body as usize || f.text[p] || f.width[p] == 0 || data_rows(doc, p) {
            continue;
        }
        let (mut kids, mut teasers) = (0usize, 0usize);
        for c in doc.children(p as NodeId) {
            let c = c as usize;
            if f.width[c] > 0 {
                kids += 1;
                teasers += usize::from(!f.text[c] && teaser(f, c));
            }
        }
        if teasers >= TEASERS && teasers * 2 > kids {
            f.verdict[p].boilerplate = true;
        }
    }
}

/// Whether `p` holds a data table's rows: a `table` or `tbody` of a [`data_table`], whose rows
/// (a link, then what it is for) are the table's data, not teasers.
fn data_rows(doc: &Doc, p: usize) -> bool {
    doc.element(p as NodeId).is_some_and(|e| matches!(e.name.as_str(), "table" | "tbody")) && data_table(doc, p as NodeId)
}

/// Whether the nearest table that is or holds `n` has header cells (`th`) of its own: a data
/// table, not a page's layout.
pub(super) fn data_table(doc: &Doc, n: NodeId) -> bool {
    let table_of = |n: NodeId| std::iter::once(n).chain(doc.ancestors(n)).find(|&a| doc.element(a).is_some_and(|e| e.name == "table"));
    table_of(n).is_some_and(|t| (t..doc.end(t)).any(|i| doc.element(i).is_some_and(|e| e.name == "th") && table_of(i) == Some(t)))
}

/// Is text node `t` inside a link to another page of the same site: an `a` whose `href` is
/// neither a fragment nor a script (as accordion and tab toggles are), and relative or on the
/// page's own host when the page declares it (`host`, from its canonical URL)?
fn links_away(doc: &Doc, t: usize, host: Option<&str>) -> bool {
    doc.ancestors(t as NodeId).filter_map(|a| doc.element(a)).find(|e| e.name == "a").is_some_and(|a| {
        a.attr("href").is_some_and(|h| {
            let h = h.trim();
            let elsewhere = h.is_empty() || h.starts_with('#') || h.get(..11).is_some_and(|p| p.eq_ignore_ascii_case("javascript:"));
            !elsewhere && host.is_none_or(|host| link_host(h).is_none_or(|l| same_site(l, host)))
        })
    })
}

/// The host of an absolute (or scheme-relative) link, lower-case; `None` for a relative one.
fn link_host(href: &str) -> Option<String> {
    let rest = match href.find("//") {
        Some(i) if href[..i].chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.' | ':')) => &href[i + 2..],
        _ => return None,
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = rest[..end].rsplit('@').next().unwrap_or("");
    let host = host.split(':').next().unwrap_or("");
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Do two hosts belong to one site (equal once a leading `www.` is dropped)?
fn same_site(a: String, b: &str) -> bool {
    a.trim_start_matches("www.") == b.trim_start_matches("www.")
}

/// The page's own host, from its canonical URL or `og:url`, if it declares one.
fn page_host(doc: &Doc) -> Option<String> {
    let url = doc.head.link("canonical").or_else(|| doc.head.meta("og:url"))?;
    link_host(url)
}

/// Add every node's value into its parent's, children before parents (reverse pre-order).
fn sum_up(parent: &[NodeId], v: &mut [f32]) {
    for i in (1..parent.len()).rev() {
        if let Some(&p) = parent.get(i).filter(|&&p| p != NONE) {
            v[p as usize] += v[i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_hosts() {
        assert_eq!(link_host("https://www.Example.com:8080/a?b").as_deref(), Some("www.example.com"));
        assert_eq!(link_host("//cdn.example.com/x").as_deref(), Some("cdn.example.com"));
        assert_eq!(link_host("/news/story-1"), None);
        assert_eq!(link_host("story.html?u=http://x.org"), None);
        assert!(same_site("www.example.com".into(), "example.com"));
    }

    #[test]
    fn columns_count_wide_characters_twice_and_spaces_never() {
        assert_eq!(columns("ab c"), 3);
        assert_eq!(columns("\t\n\x0b\x0c\r a\x1f~\x7f"), 5, "VT is a column, as before");
        assert_eq!(columns("é\u{a0}ß—x"), 4);
        assert_eq!(columns("東京 2024年"), 10);
        assert_eq!(columns("\u{3000}한국😀"), 5);
        for s in ["a\u{2003}b ’ “q” 𠀀", "", "\u{85}"] {
            let slow: u32 = s.chars().filter(|c| !c.is_whitespace()).map(|c| if wide(c) { 2 } else { 1 }).sum();
            assert_eq!(columns(s), slow, "{s:?}");
        }
    }
}
