//! The markup guard: what the token stream ([`super::tokens`]) holds back so a hostile page
//! cannot make html5ever's tree builder quadratic.
//!
//! Two shapes cost the tree builder quadratic time, so a small hostile page could take minutes:
//! - **Depth.** It checks its stack of open elements on every start tag, so a page nested N
//!   deep costs O(N²) (100 000 nested `<div>`s: ~20 s). Browsers cap tree depth (Chromium at
//!   512). We do the same on the tokens: [`Open`] tracks how many container elements are open;
//!   past [`MAX_DEPTH`](crate::budget::MAX_DEPTH), further start tags are held back together
//!   with their end tags, so their text joins the deepest allowed element.
//! - **Attributes.** It looks for a duplicate among the tag's earlier attributes on each new
//!   one, so one tag with 100 000 attributes costs O(N²) (~18 s). A start tag keeps its first
//!   [`MAX_ATTRIBUTES`]; real pages carry a few dozen.

use html5ever::LocalName;
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;

/// Most attributes kept on one element (the cleaner keeps no more either).
pub const MAX_ATTRIBUTES: usize = 256;

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

/// How a tag nests.
#[derive(Clone, Copy, PartialEq)]
enum Nesting {
    /// It may hold elements: every tag not listed below.
    Nests,
    /// It never does ([`VOID`], [`IMPLICIT`]).
    Flat,
    /// It holds raw text ([`RAW`]), outside `svg` and `math`.
    RawText,
}

/// How each listed tag nests, looked up once per tag (the parser's names are interned: Fx
/// hashes their number).
fn nesting(name: &LocalName) -> Nesting {
    static LISTED: std::sync::LazyLock<HashMap<LocalName, Nesting, FxBuildHasher>> = std::sync::LazyLock::new(|| {
        let mut listed = HashMap::default();
        for (list, nesting) in [(RAW, Nesting::RawText), (VOID, Nesting::Flat), (IMPLICIT, Nesting::Flat)] {
            for &name in list {
                listed.entry(LocalName::from(name)).or_insert(nesting);
            }
        }
        listed
    });
    LISTED.get(name).copied().unwrap_or(Nesting::Nests)
}

/// Is this `svg` or `math` (compared as interned names: one integer each)?
fn is_foreign(name: &LocalName) -> bool {
    *name == html5ever::local_name!("svg") || *name == html5ever::local_name!("math")
}

/// The counted elements open at a point of the scan, as the tree builder sees them: an end tag
/// closes the innermost open element of its name and those opened after it, and an end tag
/// with no open element of its name is ignored (a stray `</span>` closes nothing).
#[derive(Default)]
pub(super) struct Open {
    /// Open elements, outermost first: name, and whether its start tag was kept.
    stack: Vec<(LocalName, bool)>,
    /// How many of each name are open (an end tag finds out at once whether it is stray).
    count: HashMap<LocalName, usize, FxBuildHasher>,
    /// Kept elements open (the depth the parser sees).
    kept: usize,
    /// `svg` and `math` elements open.
    foreign: usize,
}

impl Open {
    /// A start or end tag named `name`, as the tokenizer emits it; returns whether to hold it
    /// back: a start tag that would nest past `max` kept elements, or the end tag of one.
    /// Void elements, elements the parser closes implicitly, self-closing start tags and
    /// elements holding raw text (outside `svg` and `math`, where none does) do not nest.
    pub(super) fn tag(&mut self, name: &LocalName, start: bool, self_closing: bool, max: usize) -> bool {
        let nesting = nesting(name);
        let raw = start && self.foreign == 0 && nesting == Nesting::RawText;
        let nests = !(raw || nesting == Nesting::Flat || (self_closing && start));
        nests && if start { self.start(name, max) } else { self.close(name) }
    }

    /// A start tag; returns whether to remove it (past `max` kept elements).
    fn start(&mut self, name: &LocalName, max: usize) -> bool {
        let keep = self.kept < max;
        self.kept += usize::from(keep);
        self.foreign += usize::from(is_foreign(name));
        *self.count.entry(name.clone()).or_insert(0) += 1;
        self.stack.push((name.clone(), keep));
        !keep
    }

    /// An end tag; returns whether to remove it (it closes an element whose start was removed).
    fn close(&mut self, name: &LocalName) -> bool {
        if self.count.get(name).copied().unwrap_or(0) == 0 {
            return false; // stray: the parser ignores it
        }
        while let Some((n, kept)) = self.stack.pop() {
            self.kept -= usize::from(kept);
            self.foreign -= usize::from(is_foreign(&n));
            if let Some(c) = self.count.get_mut(&n) {
                *c -= 1;
            }
            if n == *name {
                return !kept;
            }
        }
        false
    }
}


#[cfg(test)]
mod tests {
    use crate::clean::page_within;
    use crate::budget::Budget;

    /// The page cleaned with nesting capped at `max`, as XML without `dfs`.
    fn capped(html: &str, max: usize) -> String {
        let budget = Budget { max_depth: max, ..Budget::default() };
        let doc = page_within(html, &budget).expect("within budget");
        doc.to_xml().replace(|c: char| c.is_ascii_digit(), "").replace(" dfs=\"\"", "")
    }

    #[test]
    fn deep_nesting_is_flattened_past_the_cap() {
        let html = format!("{}x{}", "<div>".repeat(10), "</div>".repeat(10));
        // Two divs are kept (`html`, `head` and `body` are not counted: the parser makes them).
        assert_eq!(capped(&html, 2), "<html><head/><body><div><div>x</div></div></body></html>");
    }

    #[test]
    fn a_tag_keeps_its_first_attributes_and_the_first_of_a_name() {
        let attrs: String = (0..1000).map(|i| format!(" a{i}='v'")).collect();
        let doc = crate::clean::page(&format!("<div id=x id=y{attrs}>y</div>"));
        let div = doc.element(doc.by_dfs(3).expect("div")).expect("element");
        assert_eq!(div.attrs.len(), super::MAX_ATTRIBUTES);
        assert_eq!(div.attr("id"), Some("x"));
    }

    #[test]
    fn tags_are_counted_as_the_tree_builder_sees_them() {
        let deep = |open: &str, close: &str, n: usize| format!("{}x{}", open.repeat(n), close.repeat(n));
        // Stray end tags close nothing: the `<b>`s stay open.
        let out = capped(&deep("<b id=q></span>", "", 10), 3);
        assert_eq!(out.matches("<b ").count(), 3, "{out}");
        // Nor does `<title>` inside `<svg>` hold raw text: it nests (svg is dropped later,
        // so a `<p>` of the same depth shows what was kept).
        let out = capped(&format!("<svg><title>{}</title></svg><p>z</p>", deep("<g>", "</g>", 10)), 5);
        assert!(out.contains("<p>z</p>"), "{out}");
        // Closing an outer element closes the ones left open inside it.
        let out = capped(&format!("<div>{}</div>{}", "<span>".repeat(5), deep("<div>", "</div>", 2)), 3);
        assert_eq!(out.matches("<div>").count(), 3, "{out}");
        // Text in raw-text elements is never read as tags.
        let out = capped(&format!("<script>{}</script><div><div><div>y</div></div></div>", "<div>".repeat(9)), 2);
        assert_eq!(out.matches("<div>").count(), 2, "{out}");
    }
}
