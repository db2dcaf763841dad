//! Patterns: significant nodes, their terminal paths and the structural patterns on them
//! (paper §3.3).
//!
//! A *significant node* is an element whose own text (its text children) holds a signifier.
//! Its root-to-node path is a *significant terminal path*; every element on such a path is a
//! candidate. A candidate's *element type* is its tag plus its `id` and `class` in tolerant form
//! ([`tolerant`]); an element with neither is typed by its `dfs` number. A *structural pattern*
//! is an element type at a level (depth, `html` = 1).
//!
//! All counts come from one pass over the page: term counts are added at text nodes and summed
//! up the tree in reverse document order, so every element's x and y cost O(1).

use crate::clean::{Doc, NodeData, NodeId, Tree};
use crate::signifiers::Signifiers;
use crate::text::{Analyzer, TermId};
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The tolerant form of an attribute value: its first *stable* white-space separated token
/// (see [`is_utility`]) with digits dropped; `None` when nothing is left.
///
/// # Example
/// ```
/// use forest::patterns::tolerant;
/// assert_eq!(tolerant("post wrapper-02").as_deref(), Some("post"));
/// assert_eq!(tolerant("item-42"), Some("item-".to_string()));
/// assert_eq!(tolerant(" 2013 "), None);
/// // Utility-CSS tokens say how an element looks, not what it is.
/// assert_eq!(tolerant("flex mx-auto md:w-1/2 article-body").as_deref(), Some("article-body"));
/// assert_eq!(tolerant("container row"), None);
/// ```
pub fn tolerant(value: &str) -> Option<String> {
    let token = stable_token(value)?;
    let t: String = token.chars().filter(|c| !c.is_numeric()).collect();
    (!t.is_empty()).then_some(t)
}

/// How an XPath must test the tolerant tokens of some elements' `id` and `class`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tokens {
    /// A token carried digits (dropped by the tolerant form): the test drops them too.
    pub digits: bool,
    /// A stable token was not the value's first (utility tokens came before it): the test
    /// looks for the token anywhere in the value.
    pub anywhere: bool,
}

impl Tokens {
    /// What the `id`/`class` of the element at `node` and of its ancestors need.
    pub fn near<T: Tree>(doc: &T, node: NodeId) -> Tokens {
        let mut out = Tokens::default();
        for a in std::iter::once(node).chain(doc.ancestors(node)) {
            if !doc.is_element(a) {
                continue;
            }
            for v in doc.id_class(a).into_iter().flatten() {
                if let Some(t) = stable_token(v) {
                    out.digits |= t.chars().any(char::is_numeric);
                    out.anywhere |= v.split_whitespace().next() != Some(t);
                }
            }
        }
        out
    }

    /// Both tests' needs.
    pub fn or(self, other: Tokens) -> Tokens {
        Tokens { digits: self.digits || other.digits, anywhere: self.anywhere || other.anywhere }
    }
}

/// The first token of an attribute value that is not a utility token ([`is_utility`]).
///
/// Pages repeat their class values (every `li` of a menu, every paragraph of an article) and
/// a site's pages share them, so each thread remembers where the stable token of the values
/// it has seen lies (at most [`TOKEN_CACHE_BYTES`] bytes of values a thread).
pub fn stable_token(value: &str) -> Option<&str> {
    if value.len() > TOKEN_CACHE_VALUE {
        return first_stable(value); // a value this long is not remembered
    }
    thread_local! {
        static SEEN: std::cell::RefCell<TokenCache> = std::cell::RefCell::new(TokenCache::default());
    }
    let at = SEEN.with_borrow_mut(|seen| seen.at(value));
    at.and_then(|(start, end)| value.get(start as usize..end as usize))
}

/// Where the stable token of each attribute value a thread has seen lies (its byte range),
/// if it has one. The values are kept in one text and the ranges in one table, each grown by
/// doubling, rather than a block allocated a value; past [`TOKEN_CACHE_BYTES`] of values it
/// starts again empty (a lookup hashes the value and compares it with the kept copy).
#[derive(Default)]
struct TokenCache {
    /// By the value's hash: where the value lies in `values`, and its token's range.
    at: HashMap<u64, TokenEntry, FxBuildHasher>,
    values: String,
}

#[derive(Clone, Copy)]
struct TokenEntry {
    start: u32,
    len: u32,
    token: Option<(u32, u32)>,
}

/// Most bytes of values a thread remembers the stable token of ([`stable_token`]).
pub const TOKEN_CACHE_BYTES: usize = 1 << 16;

/// Longest value a thread remembers the stable token of ([`stable_token`]).
pub const TOKEN_CACHE_VALUE: usize = TOKEN_CACHE_BYTES / 64;

impl TokenCache {
    fn at(&mut self, value: &str) -> Option<(u32, u32)> {
        let mut hash = rustc_hash::FxHasher::default();
        std::hash::Hasher::write(&mut hash, value.as_bytes());
        let key = std::hash::Hasher::finish(&hash);
        if let Some(e) = self.at.get(&key) {
            if self.values.get(e.start as usize..(e.start + e.len) as usize) == Some(value) {
                return e.token;
            }
        }
        let token = first_stable(value).map(|t| {
            let start = t.as_ptr() as usize - value.as_ptr() as usize;
            (start as u32, (start + t.len()) as u32)
        });
        if self.values.len() + value.len() > TOKEN_CACHE_BYTES {
            self.values.clear();
            self.at.clear();
        }
        let entry = TokenEntry { start: self.values.len() as u32, len: value.len() as u32, token };
        self.values.push_str(value);
        self.at.insert(key, entry);
        token
    }
}

fn first_stable(value: &str) -> Option<&str> {
    value.split_whitespace().find(|t| !is_utility(t))
}

/// Layout words that utility and grid frameworks use as whole class tokens.
const UTILITY_WORDS: &[&str] = &[
    "flex", "grid", "block", "inline", "inline-block", "inline-flex", "inline-grid", "hidden", "visible", "invisible",
    "container", "container-fluid", "row", "col", "clearfix", "relative", "absolute", "fixed", "sticky", "static",
    "truncate", "underline", "italic", "uppercase", "lowercase", "capitalize", "shadow", "rounded", "border",
    "transition", "sr-only", "visually-hidden", "group", "peer", "contents", "isolate", "grow", "shrink",
];

/// Prefixes of utility tokens that set one CSS property (`mt-4`, `text-sm`, `bg-white`,
/// `d-flex`, `col-md-8`): a utility when the rest is a value ([`UTILITY_VALUES`], a number).
const UTILITY_PREFIXES: &[&str] = &[
    "m", "mx", "my", "mt", "mb", "ml", "mr", "ms", "me", "p", "px", "py", "pt", "pb", "pl", "pr", "ps", "pe", "w", "h",
    "min-w", "min-h", "max-w", "max-h", "size", "text", "bg", "font", "fw", "fs", "lh", "leading", "tracking", "gap",
    "gap-x", "gap-y", "space-x", "space-y", "g", "gx", "gy", "items", "justify", "self", "place", "align", "order", "z",
    "top", "bottom", "left", "right", "inset", "d", "col", "row", "flex", "grid", "grid-cols", "grid-rows", "col-span",
    "row-span", "basis", "border", "rounded", "shadow", "opacity", "overflow", "object", "aspect", "ring", "outline",
    "decoration", "whitespace", "break", "line-clamp", "float", "fill", "stroke", "cursor", "select", "duration",
    "ease", "delay", "animate", "scale", "rotate", "translate-x", "translate-y", "from", "to", "via", "divide",
    "color", "offset", "position", "display", "visible", "hidden", "block", "inline", "clear", "list", "v", "u",
];

/// Values a utility token sets: sizes, breakpoints, colours, alignments, keywords.
const UTILITY_VALUES: &[&str] = &[
    "xs", "sm", "md", "lg", "xl", "xxl", "full", "screen", "auto", "px", "none", "fit", "min", "max", "prose",
    "center", "start", "end", "between", "around", "evenly", "stretch", "baseline", "wrap", "nowrap", "col", "row",
    "column", "hidden", "visible", "scroll", "clip", "block", "inline", "flex", "grid", "table", "contents", "bold",
    "semibold", "medium", "normal", "light", "thin", "extrabold", "black", "white", "transparent", "current",
    "inherit", "gray", "grey", "slate", "zinc", "neutral", "stone", "red", "orange", "amber", "yellow", "lime",
    "green", "emerald", "teal", "cyan", "sky", "blue", "indigo", "violet", "purple", "fuchsia", "pink", "rose",
    "primary", "secondary", "muted", "fg", "base", "left", "right", "top", "bottom", "justify", "sans", "serif",
    "mono", "tight", "snug", "relaxed", "loose", "wide", "wider", "widest", "underline", "uppercase", "lowercase",
    "italic", "x", "y", "first", "last", "static", "fixed", "absolute", "relative", "sticky", "square", "video",
    "cover", "contain", "pointer", "default", "opacity", "all", "colors", "transform", "regular",
];

/// Is a class token a utility (it says how an element looks, not what it is)? Yes when it
/// carries a variant or an arbitrary value (`md:flex`, `w-[30px]`, atomic `Pos(r)`), is a
/// layout word (`flex`, `row`, `container`), sets one property (`mt-4`, `text-sm`, `col-md-8`:
/// a property prefix, then a size, colour, number or keyword), or is a name a CSS-in-JS tool
/// generated (`css-1x8a2b`, `sc-bdVaJa`, `jsx-2981`).
pub fn is_utility(token: &str) -> bool {
    let b = token.as_bytes();
    if b.iter().any(|c| matches!(c, b':' | b'[' | b'(' | b'/' | b'.' | b'!' | b'#')) {
        return true;
    }
    let start = b.iter().position(|&c| c != b'-').unwrap_or(b.len());
    let t = &b[start..];
    // Lower-cased on the stack: class tokens are short, and this runs for every class token
    // of every page.
    let mut buf = [0u8; 64];
    let heap;
    let lower: &[u8] = if let Some(slot) = buf.get_mut(..t.len()) {
        slot.copy_from_slice(t);
        slot.make_ascii_lowercase();
        slot
    } else {
        heap = t.to_ascii_lowercase();
        &heap
    };
    let sets = utility_sets();
    if sets.words.contains(lower) {
        return true;
    }
    for gen in [&b"css-"[..], b"sc-", b"jsx-", b"emotion-", b"svelte-"] {
        if lower.len() >= gen.len() + 4
            && lower.starts_with(gen)
            && t[gen.len()..].iter().any(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
        {
            return true;
        }
    }
    // A property prefix (the longest that fits), then a value.
    let mut cut = 0;
    for (i, _) in lower.iter().enumerate().filter(|&(_, &c)| c == b'-') {
        if sets.prefixes.contains(&lower[..i]) {
            cut = i;
        }
    }
    if cut == 0 {
        return false;
    }
    let rest = &lower[cut + 1..];
    let value = rest.split(|&c| c == b'-').next().unwrap_or(&[]);
    value.first().is_some_and(u8::is_ascii_digit) || sets.values.contains(value)
}

/// The utility lists as sets (Fx: the keys are our own constants, and a lookup runs for every
/// class token of every page).
struct UtilitySets {
    words: HashSet<&'static [u8], FxBuildHasher>,
    prefixes: HashSet<&'static [u8], FxBuildHasher>,
    values: HashSet<&'static [u8], FxBuildHasher>,
}

fn utility_sets() -> &'static UtilitySets {
    static SETS: std::sync::LazyLock<UtilitySets> = std::sync::LazyLock::new(|| {
        let set = |list: &[&'static str]| list.iter().map(|s| s.as_bytes()).collect();
        UtilitySets { words: set(UTILITY_WORDS), prefixes: set(UTILITY_PREFIXES), values: set(UTILITY_VALUES) }
    });
    &SETS
}

/// How elements with neither `id` nor `class` are typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Typing {
    /// By their `dfs` number, as the paper does (recurs only where pages align exactly).
    #[default]
    Dfs,
    /// By their path from the nearest ancestor with an `id` or `class` (the anchor): tags with
    /// their index among same-tag siblings, like `div#main/table[2]/tr[1]/td[3]`. Such a type
    /// recurs on pages whose content before it differs, and on pages never seen.
    Anchored,
}

/// One step of an anchored path: the anchor (tag with tolerant id/class) or a tag and its
/// 1-based index among same-tag siblings.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Step {
    /// Tag name.
    pub tag: String,
    /// Tolerant `id` (anchor only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Tolerant `class` (anchor only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Index among same-tag siblings (not for an anchor with id/class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
}

/// An element type: tag and tolerant `id`/`class`; for an element with neither, its `dfs` or
/// its anchored path (see [`Typing`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ElementType {
    /// Tag name.
    pub tag: String,
    /// Tolerant form of `id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Tolerant form of `class`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The element's `dfs`, only for elements without id and class under [`Typing::Dfs`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dfs: Option<u32>,
    /// The anchored path, only for elements without id and class under [`Typing::Anchored`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<Step>>,
}

impl ElementType {
    /// The paper's type of the element at `node` (None for text nodes): see [`Typer`] for the
    /// anchored typing.
    pub fn of<T: Tree>(doc: &T, node: NodeId) -> Option<ElementType> {
        let tag = doc.tag(node)?;
        let [id, class] = doc.id_class(node).map(|v| v.and_then(tolerant));
        let dfs = (id.is_none() && class.is_none()).then(|| doc.dfs(node)).flatten();
        Some(ElementType { tag: tag.to_string(), id, class, dfs, path: None })
    }

    /// The same type without its `dfs` part: what can be recognized on a page never seen.
    pub fn portable(&self) -> ElementType {
        ElementType { dfs: None, ..self.clone() }
    }

    /// The portable type shared by same-kind siblings (the path's last index dropped).
    pub fn sibling_kind(&self) -> ElementType {
        let mut t = self.portable();
        if let Some(last) = t.path.as_mut().and_then(|p| p.last_mut()) {
            last.index = None;
        }
        t
    }

    /// Does the element at `node` have this type, ignoring `dfs`? (Paper typing; see
    /// [`Typer::matches`] for any typing.)
    pub fn matches_portable<T: Tree>(&self, doc: &T, node: NodeId) -> bool {
        let Some(tag) = doc.tag(node) else { return false };
        let [id, class] = doc.id_class(node);
        tag == self.tag && id.and_then(tolerant) == self.id && class.and_then(tolerant) == self.class
    }

    /// A short human form: `div.story#main`, `td@78`, `div#main/table[2]/td[3]`.
    pub fn clue(&self) -> String {
        if let Some(path) = &self.path {
            let steps: Vec<String> = path
                .iter()
                .map(|st| {
                    let mut s = tag_clue(&st.tag, st.id.as_deref(), st.class.as_deref());
                    if let Some(i) = st.index {
                        s.push_str(&format!("[{i}]"));
                    }
                    s
                })
                .collect();
            return steps.join("/");
        }
        let mut s = tag_clue(&self.tag, self.id.as_deref(), self.class.as_deref());
        if let Some(d) = self.dfs {
            s.push('@');
            s.push_str(&d.to_string());
        }
        s
    }
}

/// `tag`, `tag#id`, `tag.class` or `tag#id.class`.
pub fn tag_clue(tag: &str, id: Option<&str>, class: Option<&str>) -> String {
    let mut s = tag.to_string();
    if let Some(id) = id {
        s.push('#');
        s.push_str(id);
    }
    if let Some(c) = class {
        s.push('.');
        s.push_str(c);
    }
    s
}

/// Most steps in an anchored path. Past it the path floats: it starts at an ancestor that is
/// no anchor (`//div[3]/…`), so a hostile page nested thousands deep without an `id` or `class`
/// costs no more per element than this. The deepest path on the dev corpus has 23 steps.
pub const MAX_ANCHORED_STEPS: usize = 32;

/// Types the elements of one page under a [`Typing`] (sibling indices computed once).
pub struct Typer<'a, T: Tree = Doc> {
    doc: &'a T,
    typing: Typing,
    /// 1-based index of each node among its same-tag siblings (anchored typing only; computed
    /// on first use, since an exact XPath match needs no types).
    sibling_index: std::cell::OnceCell<Vec<u32>>,
}

impl<'a, T: Tree> Typer<'a, T> {
    /// A typer for `doc`.
    pub fn new(doc: &'a T, typing: Typing) -> Typer<'a, T> {
        Typer { doc, typing, sibling_index: std::cell::OnceCell::new() }
    }

    fn sibling_index(&self) -> &[u32] {
        let (doc, typing) = (self.doc, self.typing);
        self.sibling_index.get_or_init(|| match typing {
            Typing::Dfs => Vec::new(),
            Typing::Anchored => {
                let mut idx = vec![0u32; doc.node_count()];
                // Per parent, (tag, count so far): a short Vec for the usual few distinct tags,
                // a hash map past 64 of them (a hostile page may give every child its own tag).
                let mut counts: Vec<(&str, u32)> = Vec::new();
                let mut many: HashMap<&str, u32> = HashMap::new();
                for i in 0..doc.node_count() as NodeId {
                    if !doc.is_element(i) {
                        continue;
                    }
                    counts.clear();
                    many.clear();
                    for c in doc.children(i) {
                        let Some(name) = doc.tag(c) else { continue };
                        let n = if let Some((_, n)) = counts.iter_mut().find(|(t, _)| *t == name) {
                            *n += 1;
                            *n
                        } else if counts.len() < 64 {
                            counts.push((name, 1));
                            1
                        } else {
                            let n = many.entry(name).or_insert(0);
                            *n += 1;
                            *n
                        };
                        idx[c as usize] = n;
                    }
                }
                if let Some(first) = idx.first_mut() {
                    *first = 1;
                }
                idx
            }
        })
    }

    /// The page typed.
    pub fn doc(&self) -> &'a T {
        self.doc
    }

    /// The type of the element at `node` (None for text nodes).
    pub fn of(&self, node: NodeId) -> Option<ElementType> {
        let mut ty = ElementType::of(self.doc, node)?;
        if self.typing == Typing::Dfs || ty.dfs.is_none() {
            return Some(ty);
        }
        let mut steps = Vec::new();
        let mut cur = Some(node);
        while let Some(c) = cur {
            let tag = self.doc.tag(c)?;
            let [id, class] = self.doc.id_class(c).map(|v| v.and_then(tolerant));
            if id.is_some() || class.is_some() {
                steps.push(Step { tag: tag.to_string(), id, class, index: None });
                break;
            }
            let index = self.sibling_index().get(c as usize).copied().unwrap_or(1);
            steps.push(Step { tag: tag.to_string(), id: None, class: None, index: Some(index) });
            if steps.len() == MAX_ANCHORED_STEPS {
                break;
            }
            cur = self.doc.parent(c);
        }
        steps.reverse();
        ty.dfs = None;
        ty.path = Some(steps);
        Some(ty)
    }

    /// Does the element at `node` have type `ty` (ignoring `dfs`)?
    pub fn matches(&self, ty: &ElementType, node: NodeId) -> bool {
        match (self.typing, &ty.path) {
            (Typing::Anchored, Some(_)) => self.of(node).is_some_and(|t| t.portable() == ty.portable()),
            _ => ty.matches_portable(self.doc, node) && (ty.path.is_none() || self.typing == Typing::Anchored),
        }
    }

    /// Is the element at `node` of the same sibling kind as `ty` (see
    /// [`ElementType::sibling_kind`])?
    pub fn same_kind(&self, ty: &ElementType, node: NodeId) -> bool {
        match &ty.path {
            Some(_) => self.of(node).is_some_and(|t| t.sibling_kind() == ty.sibling_kind()),
            None => ty.matches_portable(self.doc, node),
        }
    }
}

/// A structural pattern: an element type at a level.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pattern {
    /// The element type.
    #[serde(flatten)]
    pub ty: ElementType,
    /// Depth in the tree (`html` is 1).
    pub level: u32,
}

/// The terms of one page's body, by text node.
#[derive(Debug, Clone, Default)]
pub struct PageTerms {
    /// (text node, start, end) into `terms`.
    pub texts: Vec<(NodeId, u32, u32)>,
    /// All term occurrences, in document order.
    pub terms: Vec<TermId>,
}

impl PageTerms {
    /// Tokenize every text node under the page's body, except those `skip` marks (template).
    pub fn of(doc: &Doc, analyzer: &mut Analyzer, skip: &[bool]) -> PageTerms {
        let mut pt = PageTerms::default();
        let body = doc.body as usize;
        let end = doc.nodes.get(body).map_or(0, |n| n.end as usize);
        for (i, node) in doc.nodes.iter().enumerate().take(end).skip(body) {
            if skip.get(i).copied().unwrap_or(false) {
                continue;
            }
            if let NodeData::Text(t) = &node.data {
                let start = pt.terms.len() as u32;
                analyzer.terms(t, &mut pt.terms);
                let stop = pt.terms.len() as u32;
                if stop > start {
                    pt.texts.push((i as NodeId, start, stop));
                }
            }
        }
        pt
    }
}

/// A candidate element of one page with its counts.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The element.
    pub node: NodeId,
    /// Its `dfs`.
    pub dfs: u32,
    /// Its structural pattern (shared by the candidates of a [`Patterns`] set).
    pub pattern: Arc<Pattern>,
    /// Signifier occurrences in its subtree (x).
    pub x: u32,
    /// Other term occurrences in its subtree (y).
    pub y: u32,
    /// Sum of the signifier weights of its occurrences (for coverage ranking).
    pub weight: f64,
}

/// The candidates of one page and the page's totals.
#[derive(Debug, Clone, Default)]
pub struct PageCandidates {
    /// Every element on a significant terminal path, in document order.
    pub candidates: Vec<Candidate>,
    /// Signifier occurrences in the body (X).
    pub total_x: u32,
    /// Other term occurrences in the body (Y).
    pub total_y: u32,
    /// Summed signifier weight in the body.
    pub total_weight: f64,
}

/// Most candidates kept on one page. Past it, those with the fewest terms are dropped: they
/// cannot win (a pattern's informativeness grows with its terms), and each one costs a type of
/// up to [`MAX_ANCHORED_STEPS`] steps. The largest page of the dev corpus has 1,552 elements.
pub const MAX_CANDIDATES: usize = 10_000;

/// The patterns met so far, each kept once: the candidates of many pages share them, since the
/// pages of a site repeat their element types.
#[derive(Debug, Default)]
pub struct Patterns(std::collections::HashSet<Arc<Pattern>>);

impl Patterns {
    /// `p`, shared with its equal met before.
    pub fn share(&mut self, p: Pattern) -> Arc<Pattern> {
        if let Some(known) = self.0.get(&p) {
            return Arc::clone(known);
        }
        let p = Arc::new(p);
        self.0.insert(Arc::clone(&p));
        p
    }
}

/// Significant nodes, terminal paths and candidates of one page.
pub fn collect<T: Tree>(doc: &T, terms: &PageTerms, sig: &Signifiers, typing: Typing) -> PageCandidates {
    collect_with(doc, terms, sig, typing, &mut Patterns::default())
}

/// [`collect`], the candidates' patterns shared through `patterns` (with other pages').
pub fn collect_with<T: Tree>(doc: &T, terms: &PageTerms, sig: &Signifiers, typing: Typing, patterns: &mut Patterns) -> PageCandidates {
    let typer = Typer::new(doc, typing);
    let n = doc.node_count();
    let mut x = vec![0u32; n];
    let mut y = vec![0u32; n];
    let mut w = vec![0f64; n];
    let mut significant = vec![false; n];
    for &(text, start, stop) in &terms.texts {
        let Some(parent) = doc.parent(text) else { continue };
        let p = parent as usize;
        for &t in &terms.terms[start as usize..stop as usize] {
            match sig.weights.get(&t) {
                Some(&wt) => {
                    x[p] += 1;
                    w[p] += wt;
                    significant[p] = true;
                }
                None => y[p] += 1,
            }
        }
    }
    // Subtree sums: children come after their parent in document order.
    for i in (1..n).rev() {
        if let Some(p) = doc.parent(i as NodeId) {
            let p = p as usize;
            x[p] += x[i];
            y[p] += y[i];
            w[p] += w[i];
        }
    }
    // Candidates: every element from a significant node up to the body.
    let body = doc.body();
    let mut candidate = vec![false; n];
    for (i, &sig) in significant.iter().enumerate() {
        if !sig || !doc.contains(body, i as NodeId) {
            continue;
        }
        let mut cur = Some(i as NodeId);
        while let Some(c) = cur {
            if candidate[c as usize] {
                break;
            }
            candidate[c as usize] = true;
            if c == body {
                break;
            }
            cur = doc.parent(c);
        }
    }
    let mut kept: Vec<usize> = (0..n).filter(|&i| candidate[i]).collect();
    if kept.len() > MAX_CANDIDATES {
        let terms = |i: usize| u64::from(x[i]) + u64::from(y[i]);
        let mut sizes: Vec<u64> = kept.iter().map(|&i| terms(i)).collect();
        let cut = sizes.len() - MAX_CANDIDATES;
        let (_, &mut least, _) = sizes.select_nth_unstable(cut);
        // Ancestors hold at least their descendants' terms, so what is kept stays closed
        // upwards; ties at the threshold go in document order.
        let mut room = MAX_CANDIDATES - kept.iter().filter(|&&i| terms(i) > least).count();
        kept.retain(|&i| {
            let t = terms(i);
            t > least
                || (t == least && room > 0 && {
                    room -= 1;
                    true
                })
        });
    }
    let mut candidates: Vec<Candidate> = kept
        .into_iter()
        .filter_map(|i| {
            let ty = typer.of(i as NodeId)?;
            let dfs = doc.dfs(i as NodeId)?;
            Some(Candidate {
                node: i as NodeId,
                dfs,
                pattern: patterns.share(Pattern { ty, level: doc.level(i as NodeId) }),
                x: x[i],
                y: y[i],
                weight: w[i],
            })
        })
        .collect();
    candidates.shrink_to_fit();
    let b = body as usize;
    PageCandidates { candidates, total_x: x[b], total_y: y[b], total_weight: w[b] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Language;

    #[test]
    fn remembered_stable_tokens_are_the_tokens_found() {
        let long = format!("{} story", "mt-4 ".repeat(TOKEN_CACHE_VALUE));
        let values = ["flex mx-auto article-body", "post wrapper-02", " 2013 ", "container row", "", "  a  ", long.as_str()];
        for _ in 0..2 {
            for v in values {
                assert_eq!(stable_token(v), first_stable(v), "{v:?}");
            }
        }
        assert_eq!(stable_token(&long), Some("story"));
        // The same value at another address gives the token in that copy.
        let copy = String::from("flex mx-auto article-body");
        assert!(std::ptr::eq(stable_token(&copy).unwrap().as_ptr(), copy[13..].as_ptr()));
    }

    /// `is_utility` as first written, on `String`s and linear list scans: the oracle.
    fn is_utility_plain(token: &str) -> bool {
        if token.contains([':', '[', '(', '/', '.', '!', '#']) {
            return true;
        }
        let t = token.trim_start_matches('-');
        let lower = t.to_ascii_lowercase();
        if UTILITY_WORDS.contains(&lower.as_str()) {
            return true;
        }
        for gen in ["css-", "sc-", "jsx-", "emotion-", "svelte-"] {
            if let Some(rest) = lower.strip_prefix(gen) {
                if rest.len() >= 4 && t[gen.len()..].chars().any(|c| c.is_ascii_digit() || c.is_ascii_uppercase()) {
                    return true;
                }
            }
        }
        let mut cut = 0;
        for (i, _) in lower.match_indices('-') {
            if UTILITY_PREFIXES.contains(&&lower[..i]) {
                cut = i;
            }
        }
        if cut == 0 {
            return false;
        }
        let value = lower[cut + 1..].split('-').next().unwrap_or("");
        value.chars().next().is_some_and(|c| c.is_ascii_digit()) || UTILITY_VALUES.contains(&value)
    }

    #[test]
    fn utility_tokens_as_the_plain_definition_says() {
        let mut tokens: Vec<String> = Vec::new();
        let parts: Vec<&str> = UTILITY_WORDS.iter().chain(UTILITY_PREFIXES).chain(UTILITY_VALUES).copied().collect();
        let extra = ["", "-", "--", "x", "story", "article-body", "Ésta", "日本", "4", "42px", "Md", "SM", "ñ"];
        for a in parts.iter().chain(&extra) {
            tokens.push((*a).to_string());
            tokens.push(format!("-{a}"));
            tokens.push(a.to_uppercase());
            for b in parts.iter().step_by(7).chain(&extra) {
                tokens.push(format!("{a}-{b}"));
                tokens.push(format!("{a}-{b}-x"));
            }
        }
        for gen in ["css", "sc", "jsx", "emotion", "svelte", "CSS"] {
            for rest in ["1x8a2b", "bdVaJa", "abc", "abcd", "ab1", "ABCD", "éééé"] {
                tokens.push(format!("{gen}-{rest}"));
            }
        }
        tokens.push("a".repeat(63) + "-4");
        tokens.push("mt".to_string() + &"-".repeat(70) + "4");
        tokens.push("text-".to_string() + &"é".repeat(40));
        for t in ["md:flex", "w-[30px]", "Pos(r)", "w-1/2", "a.b", "!mt-0", "#x"] {
            tokens.push(t.to_string());
        }
        for t in &tokens {
            assert_eq!(is_utility(t), is_utility_plain(t), "{t:?}");
        }
        assert!(tokens.iter().filter(|t| is_utility(t)).count() > 1000);
    }

    /// A page's shape types, counts and tokens its elements as the page does.
    #[test]
    fn a_shape_gives_the_types_and_candidates_of_its_page() {
        let doc = crate::clean::page(
            "<body><div id='main3' class='x story'><table><tr><td>menu</td></tr><tr><td>a</td><td><p>kitkat x</p><p class='wrapper-02 lead'>kitkat android phone</p></td></tr></table></div><div><div><span>kitkat</span></div></div></body>",
        );
        let shape = crate::clean::Shape::of(&doc);
        let mut a = Analyzer::new(Language::ENGLISH);
        let terms = PageTerms::of(&doc, &mut a, &[]);
        let mut kitkat = Vec::new();
        a.terms("kitkat", &mut kitkat);
        let sig = Signifiers { weights: [(kitkat[0], 1.0)].into_iter().collect() };
        for typing in [Typing::Dfs, Typing::Anchored] {
            let (on_doc, on_shape) = (Typer::new(&doc, typing), Typer::new(&shape, typing));
            for n in 0..doc.nodes.len() as NodeId {
                let ty = on_doc.of(n);
                assert_eq!(ty, on_shape.of(n), "{n}");
                assert_eq!(ElementType::of(&doc, n), ElementType::of(&shape, n));
                assert_eq!(Tokens::near(&doc, n), Tokens::near(&shape, n));
                if let Some(ty) = ty {
                    for m in 0..doc.nodes.len() as NodeId {
                        assert_eq!(on_doc.matches(&ty, m), on_shape.matches(&ty, m));
                        assert_eq!(on_doc.same_kind(&ty, m), on_shape.same_kind(&ty, m));
                    }
                }
            }
            let (d, s) = (collect(&doc, &terms, &sig, typing), collect(&shape, &terms, &sig, typing));
            let key = |pc: &PageCandidates| -> Vec<(NodeId, u32, Pattern, u32, u32)> {
                pc.candidates.iter().map(|c| (c.node, c.dfs, (*c.pattern).clone(), c.x, c.y)).collect()
            };
            assert_eq!(key(&d), key(&s));
            assert!(d.candidates.len() >= 5);
        }
    }

    #[test]
    fn candidates_are_ancestors_of_significant_nodes() {
        let doc = crate::clean::page(
            "<body><div class='nav'>home news</div><div class='post wrapper-02'><p>kitkat android</p><p>phone</p></div></body>",
        );
        let mut a = Analyzer::new(Language::ENGLISH);
        let terms = PageTerms::of(&doc, &mut a, &[]);
        let mut kitkat = Vec::new();
        a.terms("kitkat", &mut kitkat);
        let sig = Signifiers { weights: [(kitkat[0], 1.0)].into_iter().collect() };
        let pc = collect(&doc, &terms, &sig, Typing::Dfs);
        let clues: Vec<(String, u32, u32, u32)> =
            pc.candidates.iter().map(|c| (c.pattern.ty.clue(), c.pattern.level, c.x, c.y)).collect();
        assert_eq!(
            clues,
            [("body@2".into(), 2, 1, 4), ("div.post".into(), 3, 1, 2), ("p@5".into(), 4, 1, 1)]
        );
        assert_eq!((pc.total_x, pc.total_y), (1, 4));
    }
}
