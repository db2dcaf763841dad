//! Clean: HTML to a well-formed tree whose elements carry their depth-first order (`dfs`).
//!
//! The page is parsed once with html5ever, which repairs any markup the way a browser would,
//! into a small linked tree of our own (`sink`), flattened once into [`Doc`], a flat arena in
//! document (pre-)order:
//! every node knows its parent and where its subtree ends, so the whole pipeline walks trees
//! with plain loops and never recurses (a page nested 100 000 deep is just a long `Vec`).
//!
//! What is dropped: comments, doctypes, processing instructions, and the elements in
//! [`DROPPED`] (scripts, styles, embedded objects, …) with everything inside them; in `<head>`
//! only `<title>` is kept. A dropped formula leaves its TeX as text between dollars (a MathML
//! `<math>`'s `alttext` or TeX annotation, else the MathML written as TeX; a MathJax `math/tex`
//! script; `$$…$$` displayed). What is renamed: element and attribute names that are not XML names
//! (see [`xml_name`]). What is removed: characters XML 1.0 forbids. An attribute named `dfs`
//! that the page itself carries is dropped, so `@dfs` always means ours.
//!
//! The tokens come from html5gum's tokenizer, which reads runs of bytes where html5ever's reads
//! a character at a time; html5ever's tree builder builds the tree from them (`clean/tokens.rs`).
//! Nesting deeper than [`MAX_DEPTH`] is flattened, as browsers do, and attributes past
//! [`MAX_ATTRIBUTES`] on a tag are dropped, on the way from tokenizer to tree builder, so a
//! hostile page cannot make the tree builder quadratic.
//!
//! Reader-comment regions are cut like scripts: an element whose `id` or `class` holds a
//! comment word ([`is_comment_region`]), unless it holds an `h1` (then it is the article: an
//! opinion piece classed "comment"). Comments are long, page-specific and full of the
//! article's own words, so left in they win the ranking over the article they discuss. A page
//! that declares itself a forum thread (schema.org `DiscussionForumPosting`, in microdata or
//! JSON-LD) keeps them: there the posts are the content. So does a page whose own text outside
//! them is less than an article's worth and less than theirs ([`Doc::comments_outweigh_own_text`]:
//! a link shared for discussion). The text of the regions cut is kept aside, outside the tree
//! ([`Doc::comments`]), for a reader who asks for the comments.
//!
//! A page that shows its content only to readers without scripts (its `<noscript>` text
//! outweighs the rest of its text) is parsed again with scripting off, its `<noscript>`
//! content read as markup, as such a reader sees it.
//!
//! Elements are numbered 0, 1, 2, … in pre-order (`html` is 0): that number is the `dfs` of the
//! Forest paper, written as an attribute when the tree is serialized to XML ([`Doc::to_xml`]).

mod guard;
mod name;
mod shape;
mod sink;
mod strings;
mod text;
mod tokens;
mod xml;

pub use guard::MAX_ATTRIBUTES;
pub use name::Name;
pub use shape::{Shape, Tree, Values};
pub use strings::Strings;
use crate::budget::{Budget, Limit, MAX_DEPTH};
pub use compact_str::CompactString;

pub use text::TextBuilder;
pub(crate) use xml::{name_char, name_start_char, plain_xml_name};
pub use xml::{xml_name, xml_text};

use std::time::Instant;


/// Elements removed with their whole subtree: they hold no readable article text.
pub const DROPPED: &[&str] = &[
    "script", "style", "noscript", "template", "iframe", "object", "embed", "applet", "svg",
    "math", "canvas", "link", "meta", "base", "param", "source", "track", "noembed", "noframes",
];

/// Is this parser name one of [`DROPPED`]? One lookup per element (the parser's names are
/// interned: Fx hashes their number).
fn is_dropped(name: &html5ever::LocalName) -> bool {
    static SET: std::sync::LazyLock<std::collections::HashSet<html5ever::LocalName, rustc_hash::FxBuildHasher>> =
        std::sync::LazyLock::new(|| DROPPED.iter().map(|&d| html5ever::LocalName::from(d)).collect());
    SET.contains(name)
}

/// Index of a node in [`Doc::nodes`].
pub type NodeId = u32;

/// One node of a cleaned page.
#[derive(Debug, Clone)]
pub struct Node {
    /// Parent node; `None` only for the root element.
    pub parent: Option<NodeId>,
    /// One past the last node of this node's subtree: the subtree is `nodes[id..end]`.
    pub end: NodeId,
    /// Depth of the node: the root element is level 1 (the paper's `level`).
    pub level: u32,
    /// What the node is.
    pub data: NodeData,
}

/// Element or text.
#[derive(Debug, Clone)]
pub enum NodeData {
    /// An element, with its sanitized name and attributes.
    Element(Element),
    /// A text node (never empty; adjacent texts are merged). Most are short: up to 24 bytes
    /// it takes no allocation of its own ([`CompactString`]).
    Text(CompactString),
}

/// An element of the cleaned tree.
#[derive(Debug, Clone)]
pub struct Element {
    /// Lower-case, XML-safe tag name.
    pub name: Name,
    /// XML-safe attributes in source order, without duplicates and without `dfs` (values as
    /// texts are: up to 24 bytes inline).
    pub attrs: Vec<(Name, CompactString)>,
    /// Depth-first (pre-order) number among elements.
    pub dfs: u32,
}

impl Element {
    /// The value of attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The values of `id` and `class`, in one pass over the attributes (names compared as
    /// the parser's interned names: one integer each).
    pub fn id_class(&self) -> [Option<&str>; 2] {
        let mut out = [None, None];
        for (k, v) in &self.attrs {
            if k.is(&html5ever::local_name!("id")) {
                out[0] = Some(v.as_str());
            } else if k.is(&html5ever::local_name!("class")) {
                out[1] = Some(v.as_str());
            }
        }
        out
    }
}

/// A cleaned page: a flat pre-order arena of nodes plus a few page facts.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    /// All nodes, in document order; `nodes[0]` is the root element (`html`).
    pub nodes: Vec<Node>,
    /// Node index of each element, by `dfs`.
    by_dfs: Vec<NodeId>,
    /// The text of `<title>`, whitespace collapsed.
    pub title: String,
    /// The `lang` attribute of `<html>`, if any.
    pub lang: Option<String>,
    /// The `<body>` element (the root when there is none).
    pub body: NodeId,
    /// What the page declares about itself in elements the tree drops (`<meta>`, `<link>`,
    /// JSON-LD): read by [`crate::metadata`].
    pub head: Head,
    /// The text of each reader-comment region the tree drops, in page order: a line per
    /// block, forms left out; at most [`Doc::MAX_COMMENTS`] bytes in all.
    pub comments: Vec<String>,
    /// The page is a discussion: its comment regions were kept, as its content (the posts).
    pub discussion: bool,
}

impl Doc {
    /// Most bytes of reader comments kept.
    pub const MAX_COMMENTS: usize = 1 << 20;
}

/// Page facts kept aside from elements the cleaner drops, wherever they stand in the page.
///
/// Bounded: at most [`Head::MAX_ENTRIES`] meta tags and links, and [`Head::MAX_JSON_LD`] bytes
/// of JSON-LD, so a hostile page cannot make it grow without end.
#[derive(Debug, Clone, Default)]
pub struct Head {
    /// `<meta>` key (its `name`, `property`, `itemprop` or `http-equiv`, lower-cased) and `content`.
    pub meta: Vec<(String, String)>,
    /// `<link>` `rel` (lower-cased) and `href`.
    pub links: Vec<(String, String)>,
    /// The text of each `<script type="application/ld+json">`.
    pub json_ld: Vec<String>,
}

impl Head {
    /// Most meta tags plus links kept.
    pub const MAX_ENTRIES: usize = 1000;
    /// Most bytes of JSON-LD kept.
    pub const MAX_JSON_LD: usize = 1 << 20;

    /// The first `content` of the meta tag with key `key` (lower-case), trimmed, if not empty.
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.meta.iter().filter(|(k, _)| k == key).map(|(_, v)| v.trim()).find(|v| !v.is_empty())
    }

    /// The first `href` of a `<link>` whose `rel` holds `rel`, trimmed, if not empty.
    pub fn link(&self, rel: &str) -> Option<&str> {
        self.links
            .iter()
            .filter(|(r, _)| r.split_ascii_whitespace().any(|w| w == rel))
            .map(|(_, v)| v.trim())
            .find(|v| !v.is_empty())
    }

    /// Keep what a dropped element declares: `<meta>`, `<link>` or a JSON-LD script.
    fn keep(&mut self, tag: &str, attr: &dyn Fn(&str) -> Option<String>, text: Option<&str>) {
        let full = self.meta.len() + self.links.len() >= Self::MAX_ENTRIES;
        match tag {
            "meta" if !full => {
                let key = ["name", "property", "itemprop", "http-equiv"].iter().find_map(|k| attr(k));
                if let (Some(key), Some(content)) = (key, attr("content")) {
                    self.meta.push((key.trim().to_ascii_lowercase(), xml_text(&content).into_owned()));
                }
            }
            "link" if !full => {
                if let (Some(rel), Some(href)) = (attr("rel"), attr("href")) {
                    self.links.push((rel.to_ascii_lowercase(), href));
                }
            }
            "script" => {
                let json = attr("type").is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
                let used: usize = self.json_ld.iter().map(String::len).sum();
                if let (true, Some(text)) = (json, text) {
                    if used + text.len() <= Self::MAX_JSON_LD {
                        self.json_ld.push(text.to_string());
                    }
                }
            }
            _ => {}
        }
    }
}

impl Doc {
    /// The element at `id`, if that node is an element.
    pub fn element(&self, id: NodeId) -> Option<&Element> {
        match &self.nodes.get(id as usize)?.data {
            NodeData::Element(e) => Some(e),
            NodeData::Text(_) => None,
        }
    }

    /// The node holding the element numbered `dfs`.
    pub fn by_dfs(&self, dfs: u32) -> Option<NodeId> {
        self.by_dfs.get(dfs as usize).copied()
    }

    /// Number of elements in the page.
    pub fn element_count(&self) -> usize {
        self.by_dfs.len()
    }

    /// Children of `id`, in order.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let end = self.nodes.get(id as usize).map_or(id, |n| n.end);
        let mut next = id + 1;
        std::iter::from_fn(move || {
            if next >= end {
                return None;
            }
            let here = next;
            next = self.nodes[here as usize].end;
            Some(here)
        })
    }

    /// Ancestors of `id`, nearest first, excluding `id` itself.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut cur = self.nodes.get(id as usize).and_then(|n| n.parent);
        std::iter::from_fn(move || {
            let here = cur?;
            cur = self.nodes[here as usize].parent;
            Some(here)
        })
    }

    /// Per node: is it inside a link (an `a` element, itself included)?
    pub fn in_link(&self) -> Vec<bool> {
        let mut inside = vec![false; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            let own = matches!(&node.data, NodeData::Element(e) if e.name == "a");
            inside[i] = own || node.parent.is_some_and(|p| inside[p as usize]);
        }
        inside
    }

    /// Is `a` an ancestor of (or equal to) `b`?
    pub fn contains(&self, a: NodeId, b: NodeId) -> bool {
        self.nodes.get(a as usize).is_some_and(|n| a <= b && b < n.end)
    }

    /// One past the last node of the subtree at `id` (`id` itself when there is no such node).
    pub fn end(&self, id: NodeId) -> NodeId {
        self.nodes.get(id as usize).map_or(id, |n| n.end)
    }

    /// The nodes not inside another of them (input sorted in document order).
    pub fn outermost(&self, nodes: Vec<NodeId>) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::with_capacity(nodes.len());
        for n in nodes {
            if out.last().is_none_or(|&last| !self.contains(last, n)) {
                out.push(n);
            }
        }
        out
    }

    /// The texts in the subtree at `id`, in document order.
    fn texts_under(&self, id: NodeId) -> impl Iterator<Item = &str> {
        self.nodes.get(id as usize..self.end(id) as usize).unwrap_or_default().iter().filter_map(|n| match &n.data {
            NodeData::Text(t) => Some(t.as_str()),
            NodeData::Element(_) => None,
        })
    }

    /// Do the reader comments kept aside outweigh the page's own text, and is that text less
    /// than an article's worth ([`ARTICLE_MIN_CHARS`])? Then there is no article for them to
    /// comment on: the comments are what the page is for (a link shared for discussion).
    pub fn comments_outweigh_own_text(&self) -> bool {
        if self.comments.is_empty() {
            return false;
        }
        let own = self.text_size(self.body);
        let comments: usize = self.comments.iter().map(|c| non_space_chars(c)).sum();
        own < ARTICLE_MIN_CHARS && comments > own
    }

    /// Non-white-space characters of text in the subtree at `id`.
    pub fn text_size(&self, id: NodeId) -> usize {
        self.texts_under(id).map(non_space_chars).sum()
    }

    /// Does any of `nodes` hold text (a character that is not white space)? Stops at the
    /// first such character: a block's whole text is not counted to learn that.
    pub fn has_text(&self, nodes: &[NodeId]) -> bool {
        self.has_text_masked(nodes, &[])
    }

    /// [`Doc::has_text`], leaving out the text nodes that `skip` marks: is
    /// [`Doc::text_masked`] of the same arguments non-empty?
    pub fn has_text_masked(&self, nodes: &[NodeId], skip: &[bool]) -> bool {
        nodes.iter().any(|&n| {
            let (start, end) = (n as usize, self.end(n) as usize);
            let under = self.nodes.get(start..end).unwrap_or_default();
            (start..).zip(under).any(|(i, node)| match &node.data {
                NodeData::Text(t) => !skip.get(i).is_some_and(|&cut| cut) && t.chars().any(|c| !c.is_whitespace()),
                NodeData::Element(_) => false,
            })
        })
    }
}

/// Clean one HTML page.
///
/// Never fails: any byte soup parses to some tree. Input must already be decoded text
/// (see [`crate::fetch::decode`]).
///
/// # Example
/// ```
/// let doc = forest::clean::page("<p class=x>Hello <b>world</b><script>x()</script>");
/// assert_eq!(doc.to_xml(), "<html dfs=\"0\"><head dfs=\"1\"/><body dfs=\"2\">\
///     <p class=\"x\" dfs=\"3\">Hello <b dfs=\"4\">world</b></p></body></html>");
/// ```
pub fn page(html: &str) -> Doc {
    sink::parse(html, MAX_DEPTH, usize::MAX, None).doc
}

/// [`page`] parsed by html5ever's own tokenizer, without the guard: the reference the fast
/// tokenizer's trees are checked against (`tests/tokenizer.rs`). Slower, and not for hostile
/// input.
#[doc(hidden)]
pub fn page_reference(html: &str) -> Doc {
    sink::parse_reference(html).doc
}

/// [`page`] within a [`Budget`].
///
/// # Errors
/// [`crate::Error::OverBudget`] when the page has more elements than the budget allows, or
/// parsing outlasts its time.
///
/// # Example
/// ```
/// use forest::budget::Budget;
/// use forest::clean::page_within;
/// let small = Budget { max_elements: 10, ..Budget::default() };
/// assert!(page_within("<p>a</p>", &small).is_ok());
/// assert!(page_within(&"<p>a</p>".repeat(20), &small).is_err());
/// ```
pub fn page_within(html: &str, budget: &Budget) -> crate::Result<Doc> {
    page_until(html, budget, budget.deadline())
}

/// [`page_within`], parsing stopped at `deadline`.
///
/// # Errors
/// As [`page_within`].
pub fn page_until(html: &str, budget: &Budget, deadline: Option<Instant>) -> crate::Result<Doc> {
    let parsed = sink::parse(html, budget.max_depth, budget.max_elements, deadline);
    if parsed.elements > budget.max_elements {
        return Err(crate::Error::OverBudget {
            what: format!("the page has more than {} elements", budget.max_elements),
            limit: Limit::Elements,
        });
    }
    if parsed.timed_out {
        let secs = budget.max_time.map_or(0.0, |t| t.as_secs_f64());
        return Err(crate::Error::OverBudget {
            what: format!("parsing the page took over the {secs} s budget"),
            limit: Limit::Time,
        });
    }
    Ok(parsed.doc)
}

/// Words of `id`/`class` values that mark a reader-comment region.
const COMMENT_WORDS: &[&str] = &["comment", "comments", "commentlist", "disqus", "respond"];

/// The bytes a comment word starts with, either case.
const COMMENT_FIRST: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < COMMENT_WORDS.len() {
        let f = COMMENT_WORDS[i].as_bytes()[0];
        t[f.to_ascii_lowercase() as usize] = true;
        t[f.to_ascii_uppercase() as usize] = true;
        i += 1;
    }
    t
};

/// Inline (phrasing) tags: they do not start a block of text.
pub const INLINE_TAGS: [&str; 35] = [
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn", "em", "font", "i",
    "img", "ins", "kbd", "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time",
    "tt", "u", "var", "wbr",
];

/// Is `tag` an inline (phrasing) tag ([`INLINE_TAGS`])?
pub fn is_inline(tag: &str) -> bool {
    INLINE_TAGS.contains(&tag)
}

/// Is this element a reader-comment region (cut with its subtree)? True when a word of its
/// `id` or `class` (split at anything not a letter or digit; a class's BEM modifier, after
/// `--`, left out) is one of `COMMENT_WORDS`;
/// never for `html`, `body`, `main` or `article`, which may carry such classes for the page.
pub fn is_comment_region(tag: &str, id: Option<&str>, class: Option<&str>) -> bool {
    if matches!(tag, "html" | "body" | "main" | "article") {
        return false;
    }
    // A value that holds no comment word anywhere (most of them) is passed before it is split;
    // only a byte that starts some comment word is looked at further.
    let may_hold = |v: &str| {
        let b = v.as_bytes();
        (0..b.len()).any(|i| {
            COMMENT_FIRST[usize::from(b[i])]
                && COMMENT_WORDS.iter().any(|k| b[i..].get(..k.len()).is_some_and(|w| w.eq_ignore_ascii_case(k.as_bytes())))
        })
    };
    // A class's BEM modifier (what follows `--` in `block__element--modifier`) names a variant
    // of the element (`tonal__main--tone-comment`: an opinion piece's body), not what it holds.
    let named = |v: &str| v.split_ascii_whitespace().map(|c| c.split("--").next().unwrap_or(c)).any(|c| {
        c.split(|c: char| !c.is_alphanumeric()).any(|w| COMMENT_WORDS.iter().any(|k| w.eq_ignore_ascii_case(k)))
    });
    [id, class].into_iter().flatten().filter(|v| may_hold(v)).any(named)
}

/// Non-space characters of an article's worth of text (about 80 words): a page with less of
/// its own has no article for its comments to be about.
pub const ARTICLE_MIN_CHARS: usize = 500;

/// Append text under `parent`, merging with a preceding text sibling.
fn push_text(doc: &mut Doc, parent: NodeId, level: u32, raw: &str) {
    let text = xml_text(raw);
    if text.is_empty() {
        return;
    }
    if let Some(last) = doc.nodes.last_mut() {
        if last.parent == Some(parent) {
            if let NodeData::Text(prev) = &mut last.data {
                prev.push_str(&text);
                return;
            }
        }
    }
    let id = doc.nodes.len() as NodeId;
    doc.nodes.push(Node { parent: Some(parent), end: id + 1, level, data: NodeData::Text(CompactString::from(text)) });
}

/// Is the ASCII byte `c` white space as `char::is_whitespace` sees it (tab to carriage return,
/// and space)? Written without branches, so that loops over bytes run on vectors.
#[inline]
pub(crate) fn is_space_byte(c: u8) -> bool {
    (c == b' ') | (c.wrapping_sub(b'\t') < 5)
}

/// How many characters of `s` are not white space (`char::is_whitespace`); a text of ASCII
/// only, as most are, is counted byte by byte.
pub fn non_space_chars(s: &str) -> usize {
    if s.is_ascii() {
        return s.bytes().map(|c| usize::from(!is_space_byte(c))).sum();
    }
    s.chars().filter(|c| !c.is_whitespace()).count()
}

/// Collapse runs of white space to one space and trim.
pub fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    collapse_ws_into(&mut out, s);
    out
}

/// [`collapse_ws`] of `s`, appended to `out`.
pub fn collapse_ws_into(out: &mut String, s: &str) {
    for (i, w) in s.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(w);
    }
}

/// Sanitize attributes: XML names, no duplicates after renaming, no `dfs`, no namespace
/// declarations (`xmlns` becomes `_xmlns`), values without forbidden characters; at most
/// [`guard::MAX_ATTRIBUTES`] (the guard keeps no more on the markup already, so an XPath's
/// attribute axis visits few nodes per element).
fn clean_attrs<'a>(attrs: impl ExactSizeIterator<Item = (&'a html5ever::LocalName, &'a str)>) -> Vec<(Name, CompactString)> {
    // Sized to the element's attributes: a page holds thousands of these lists for as long as
    // it lives, and a list grown by pushing holds room for four.
    let mut out: Vec<(Name, CompactString)> = Vec::with_capacity(attrs.len().min(guard::MAX_ATTRIBUTES));
    for (k, v) in attrs {
        let mut name = Name::xml(k);
        if name == "dfs" {
            continue;
        }
        if name == "xmlns" {
            name = Name::new("_xmlns");
        }
        if out.len() == guard::MAX_ATTRIBUTES {
            break;
        }
        // Elements have few attributes: a linear check beats a hash set.
        if out.iter().any(|(n, _)| *n == name) {
            continue;
        }
        out.push((name, CompactString::from(xml_text(v))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_regions_are_whole_words_of_id_or_class() {
        // The plain definition: a word (split at anything not a letter or digit) is a comment word.
        let plain = |v: &str| v.split(|c: char| !c.is_alphanumeric()).any(|w| COMMENT_WORDS.iter().any(|k| w.eq_ignore_ascii_case(k)));
        let values = [
            "comments", "post-Comments", "CommentList x", "disqus_thread", "respond", "comment—box", "commenté",
            "commentary", "no-comment-s", "xcomment", "Respond2", "re-spond", "DISQUS", "cömment", "comment",
            "story body", "", "c", "commen", "d", "r",
        ];
        for v in values {
            for tag in ["div", "section"] {
                assert_eq!(is_comment_region(tag, Some(v), None), plain(v), "{v:?}");
                assert_eq!(is_comment_region(tag, None, Some(v)), plain(v), "{v:?}");
            }
            assert!(!is_comment_region("article", Some(v), Some(v)));
        }
    }

    #[test]
    fn a_class_modifier_names_a_variant_not_a_comment_region() {
        // An opinion piece's body (a real theguardian.com class) is the article.
        assert!(!is_comment_region("div", None, Some("content__main tonal__main tonal__main--tone-comment")));
        // The block or element before the modifier still names the region.
        assert!(is_comment_region("div", None, Some("comments comments--open")));
        assert!(is_comment_region("section", None, Some("layout comment-list--flat")));
    }

    #[test]
    fn a_page_that_declares_itself_a_discussion_keeps_its_posts() {
        let thread = "<h1>Best first telescope?</h1><div id=comments>\
             <div class=comment><p>I would start with a small refractor on a sturdy mount.</p></div>\
             <div class=comment><p>Binoculars first: they teach you the sky for little money.</p></div></div>";
        let forum = page(&format!("<body><div itemscope itemtype='http://schema.org/DiscussionForumPosting'>{thread}</div></body>"));
        assert!(forum.text(forum.body).contains("small refractor"));
        let json_ld = page(&format!(
            "<head><script type='application/ld+json'>{{\"@type\": \"DiscussionForumPosting\"}}</script></head><body>{thread}</body>"
        ));
        assert!(json_ld.text(json_ld.body).contains("Binoculars first"));
        assert!(forum.discussion && json_ld.discussion);
        // Without the declaration, below an article's worth of text, they are readers'
        // comments, and cut.
        let story = "<p>Clear skies are forecast for the whole weekend across the region.</p>".repeat(8);
        let article = page(&format!("<body><article>{story}</article>{thread}</body>"));
        assert!(!article.text(article.body).contains("refractor") && !article.discussion);
        assert_eq!(article.comments.len(), 1);
        // A page whose own text is a line (a link shared for discussion) is a discussion.
        let shared = page(&format!("<body>{thread}</body>"));
        assert!(shared.text(shared.body).contains("small refractor") && shared.discussion, "{}", shared.to_xml());
        assert!(shared.comments.is_empty());
    }

    #[test]
    fn a_page_shown_only_without_scripts_is_read_as_such_a_browser_reads_it() {
        // A forum that renders by script serves its posts to readers without scripts only.
        let posts = "<p>Bumping the minimum version has never been a breaking change for us here.</p>".repeat(3);
        let doc = page(&format!(
            "<head><title>t</title><noscript><style>p {{}}</style></noscript></head>\
             <body><div id=splash>Loading</div><noscript><div class=post><h1>Thread</h1>{posts}</div></noscript></body>"
        ));
        let text = doc.text(doc.body);
        assert!(text.contains("Thread") && text.contains("breaking change"), "{text}");
        assert_eq!(doc.title, "t");
        // A page with text of its own keeps its noscript content out (a tracking pixel, a notice).
        let doc = page(&format!(
            "<body><div>{posts}</div><noscript><p>Please turn on JavaScript.</p><img src=pixel.gif></noscript></body>"
        ));
        let text = doc.text(doc.body);
        assert!(text.contains("breaking change") && !text.contains("JavaScript"), "{text}");
    }

    #[test]
    fn non_space_chars_count_as_char_is_whitespace_says() {
        for s in ["", " a b\tc\n", "\x0b\x0c\r x\x1f", "é\u{a0}ß—x", "a\u{2003}b\u{3000}東京\u{85}", "  \u{202f}"] {
            assert_eq!(non_space_chars(s), s.chars().filter(|c| !c.is_whitespace()).count(), "{s:?}");
        }
    }

    #[test]
    fn reader_comments_are_cut_but_a_comment_piece_holding_the_headline_is_not() {
        let doc = page(
            "<body><div class='content tonal--tone-comment'><h1>Why the bridge matters</h1><p>An opinion.</p>\
             <div id=comments><p>first!</p></div></div></body>",
        );
        let text = doc.text(doc.body);
        assert!(text.contains("Why the bridge matters") && text.contains("An opinion."), "{text}");
        assert!(!text.contains("first!"), "{text}");
    }

    #[test]
    fn mathml_without_tex_of_its_own_becomes_tex() {
        let doc = page(
            "<body><p>So <math display=block><mi>x</mi><mo>=</mo><mfrac><mrow><mo>-</mo><mi>b</mi><mo>±</mo>\
             <msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>-</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math> \
             and <math><msubsup><mi>a</mi><mi>i</mi><mn>2</mn></msubsup><mtext>for all</mtext><mroot><mi>y</mi><mn>3</mn></mroot></math>, \
             <math><mfenced open='[' close=']'><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr>\
             <mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable></mfenced></math>.</p></body>",
        );
        assert_eq!(
            doc.text(doc.body),
            "So $$x = \\frac{- b ± \\sqrt{{b}^{2} - 4 a c}}{2 a}$$ and ${a}_{i}^{2} \\text{for all} \\sqrt[3]{y}$ , \
             $\\left[ \\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix} \\right]$ ."
        );
        // A formula of more than 10,000 nodes gives none, and the page reads on.
        let big = format!("<body><p>A <math>{}</math> B</p></body>", "<mi>x</mi>".repeat(6_000));
        assert_eq!(page(&big).text(page(&big).body), "A B");
    }

    #[test]
    fn the_text_of_cut_comment_regions_is_kept_aside_without_prompts_forms_or_link_lists() {
        let story = "<p>The bridge reopened on Monday after a year of repairs to its deck.</p>".repeat(10);
        let article = format!("<article><h1>Bridge reopens</h1>{story}</article>");
        let with = |comments: &str| page(&format!("<body>{article}{comments}</body>"));
        let doc = with(
            "<h3 id=comments>Responses</h3>\
             <ol class=commentlist><li><cite>Ann Lee</cite> says:<br>May 2, 2024<p>Good news for the cyclists who ride to the market.</p>\
             <form><label>Reply</label><textarea>draft text</textarea></form></li></ol>\
             <div id=respond><h3>Leave a reply</h3><form><input name=x><button>Post comment</button></form></div>\
             <div class=comment-count>No comments yet</div>\
             <ul class=recent-comments><li><a href=/a>Ann Lee on Bridge reopens and the market road</a></li><li><a href=/b>Bo on Rates going up in the city next year</a></li></ul>",
        );
        assert_eq!(doc.comments, ["Ann Lee says:\nMay 2, 2024\nGood news for the cyclists who ride to the market."]);
        // The tree is the same as without comments: same elements, same dfs numbers.
        let plain = with("");
        assert_eq!(doc.to_xml(), plain.to_xml());
        assert!(plain.comments.is_empty());
    }

    #[test]
    fn dfs_is_preorder_and_drops_non_content() {
        let doc = page(
            "<html><head><title>T  x</title><style>a{}</style></head><body><!-- c -->\
             <div id=a><p>one</p><script>no()</script><p>two</p></div></body></html>",
        );
        let names: Vec<(u32, &str)> = (0..doc.nodes.len() as u32)
            .filter_map(|i| doc.element(i).map(|e| (e.dfs, e.name.as_str())))
            .collect();
        assert_eq!(names, [(0, "html"), (1, "head"), (2, "title"), (3, "body"), (4, "div"), (5, "p"), (6, "p")]);
        assert_eq!(doc.title, "T x");
        let div = doc.by_dfs(4).unwrap();
        assert_eq!(doc.children(div).count(), 2);
        assert_eq!(doc.nodes[div as usize].level, 3);
    }

    #[test]
    fn a_highlighters_code_lines_keep_their_line_breaks() {
        // Minified Shiki output: the lines are `span.line`, the breaks are the page's CSS.
        let minified = page("<pre><code><span class=line><span>npm</span><span> create vite</span></span><span class=line><span>cd</span><span> app</span></span></code></pre>");
        assert_eq!(minified.text(minified.body), "npm create vite\ncd app");
        // Markup that writes its breaks keeps them, not doubled; lines outside `pre` are prose.
        let written = page("<pre><code><span class=line>npm create vite</span>\n<span class=line>cd app</span>\n</code></pre>");
        assert_eq!(written.text(written.body), "npm create vite\ncd app");
        let prose = page("<p><span class=line>One</span><span class=line>two</span></p>");
        assert_eq!(prose.text(prose.body), "Onetwo");
    }

    #[test]
    fn the_title_is_the_first_html_title_wherever_it_stands() {
        // Markup before `<title>` opens the body, where the parser then puts the title; an
        // SVG icon's title is not the page's.
        let doc = page("<div>Menu</div><title>Lawmakers Defend Earmarks</title><svg><title>icon</title></svg><p>Story.</p>");
        assert_eq!(doc.title, "Lawmakers Defend Earmarks");
        let doc = page("<body><svg><title>icon</title></svg><p>Story.</p></body>");
        assert_eq!(doc.title, "");
    }

    /// The tree is the one the HTML standard builds today, which since 2025 keeps markup inside
    /// `<option>` (html5ever 0.40 keeps it; 0.36 dropped a `<b>` there). Elements there
    /// take `dfs` numbers, so a wrapper learned from older trees can name other numbers on pages
    /// with such options.
    #[test]
    fn markup_inside_an_option_is_kept() {
        let doc = page("<body><select><option value=1><b>Fast</b> facts</option></select><p>after</p></body>");
        let names: Vec<&str> = (0..doc.nodes.len() as u32).filter_map(|i| doc.element(i).map(|e| e.name.as_str())).collect();
        assert_eq!(names, ["html", "head", "body", "select", "option", "b", "p"]);
    }

    #[test]
    fn a_permalinks_sign_is_not_text() {
        let doc = page("<h2>Models<a class=headerlink href='#models' title='Link to this heading'>¶</a></h2><p><a href='#s2'> § </a><a href='/tags/rust'>#</a> and <a href='#fn1'>*</a></p>");
        assert_eq!(doc.text(doc.body).split_whitespace().collect::<Vec<_>>(), ["Models", "#", "and", "*"]);
    }

    #[test]
    fn duplicate_and_dfs_attributes_are_dropped() {
        let doc = page("<div a=1 A=2 dfs=9 xmlns=zz>x</div>");
        let div = doc.element(doc.by_dfs(3).unwrap()).unwrap();
        assert_eq!(div.attrs, vec![(Name::new("a"), "1".into()), (Name::new("_xmlns"), "zz".into())]);
    }
}
