//! Template: text that stands at the same place on several pages of a site.
//!
//! A site gives what no single page has: its other pages. A text that appears with the same
//! words under the same tag path (tags with tolerant `id`/`class`, no positions, no `dfs`) on
//! at least two sample pages (a sentence: on a third of them, as two pages of one story share
//! whole paragraphs) is site furniture — menus, share bars, "related" headers,
//! copyright lines — not article text, whatever block it sits in. Such text is left out of the
//! counts that rank patterns (so a block does not win for holding furniture) and cut from the
//! text a wrapper outputs. A piece of a sentence (`, and` between two links) is never a line
//! alone; a short sentence with links that recurs whole (a comment policy, a sign-off) is a
//! line of its block's path and whole text, which only a mask that asks for sentences reads
//! (the arbiter's: the wrapper does not cut them, as two sample pages of one story share whole
//! paragraphs).
//!
//! Keys are hashes of (path, text). Hashes are made by this binary only: a wrapper file keeps
//! the template as readable `(path, text)` strings, hashed again when loaded.

use crate::clean::{collapse_ws_into, is_inline, Doc, NodeData, Strings, Tree};
use crate::patterns::{stable_token, tag_clue, tolerant};
use crate::Page;
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

pub mod layout;
pub use layout::Layout;
use std::collections::{HashMap, HashSet};

/// Longest template text kept (longer texts are articles, not furniture).
pub const MAX_TEXT: usize = 400;

/// One template line: where it stands and what it says.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Line {
    /// Tag path of the text's element: steps `tag#id.class` separated by spaces.
    pub path: String,
    /// The text, white space collapsed.
    pub text: String,
}

/// The template texts of a site.
#[derive(Debug, Clone, Default)]
pub struct Template {
    keys: HashSet<u64, FxBuildHasher>,
    /// The lines, sorted.
    pub lines: Vec<Line>,
}

/// FNV-1a over bytes: quick, stable, and streamable (no string is built to hash it).
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(self, b: &[u8]) -> Fnv {
        b.iter().fold(self, |h, &x| h.byte(x))
    }
    fn byte(mut self, x: u8) -> Fnv {
        self.0 ^= u64::from(x);
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        self
    }
    fn str(self, s: &str) -> Fnv {
        self.bytes(s.as_bytes())
    }
}

pub(crate) fn hash_str(s: &str) -> u64 {
    Fnv::new().str(s).0
}

pub(crate) fn mix(a: u64, b: u64) -> u64 {
    Fnv::new().bytes(&a.to_le_bytes()).bytes(&b.to_le_bytes()).0
}

/// Hash of an element's step, equal to `hash_str(&step(doc, node))` but built without strings.
pub(crate) fn step_hash<T: Tree>(doc: &T, node: u32) -> u64 {
    let Some(tag) = doc.tag(node) else { return hash_str("") };
    let mut h = Fnv::new().str(tag);
    for (mark, value) in ["#", "."].into_iter().zip(doc.id_class(node)) {
        let Some(first) = value.and_then(stable_token) else { continue };
        if first.chars().all(char::is_numeric) {
            continue; // tolerant form is empty
        }
        h = h.str(mark);
        if first.is_ascii() {
            // Most tokens: an ASCII character is numeric when it is a digit.
            for &b in first.as_bytes().iter().filter(|b| !b.is_ascii_digit()) {
                h = h.byte(b);
            }
            continue;
        }
        let mut buf = [0u8; 4];
        for c in first.chars().filter(|c| !c.is_numeric()) {
            h = h.bytes(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    h.0
}

/// The path step of an element: `tag`, `tag#id`, `tag.class` or `tag#id.class` (tolerant).
fn step(doc: &Doc, node: u32) -> String {
    let Some(e) = doc.element(node) else { return String::new() };
    let (id, class) = (e.attr("id").and_then(tolerant), e.attr("class").and_then(tolerant));
    tag_clue(&e.name, id.as_deref(), class.as_deref())
}

/// Per node, the hash of its element's path (for a text node: its parent's path).
fn path_hashes(doc: &Doc) -> Vec<u64> {
    let mut h = vec![0u64; doc.nodes.len()];
    for (i, node) in doc.nodes.iter().enumerate() {
        let parent = node.parent.map_or(0, |p| h[p as usize]);
        h[i] = match node.data {
            NodeData::Element(_) => mix(parent, step_hash(doc, i as u32)),
            NodeData::Text(_) => parent,
        };
    }
    h
}

/// The hash of a template text, white space collapsed: one Fx hash over its bytes (texts are
/// hashed in bulk, page after page; the hash is never stored, as a template's keys are made
/// again from its lines, so it need only agree within a process).
fn text_hash(collapsed: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    std::hash::Hasher::write(&mut h, collapsed);
    std::hash::Hasher::finish(&h)
}

/// The key hash of a text worth keying, equal to `text_hash(collapse_ws(t))`; `None` for a
/// text that is blank or longer than [`MAX_TEXT`] once collapsed (read no further than that).
fn text_key(t: &str) -> Option<u64> {
    if t.len() > 4 * MAX_TEXT {
        return None;
    }
    // The collapsed text, made here: a byte past MAX_TEXT finds no room (`None`).
    let mut buf = [0u8; MAX_TEXT];
    let mut len = 0usize;
    if t.is_ascii() {
        // Most texts: byte by byte, an ASCII byte being white space as its char is.
        let mut gap = false;
        for &b in t.as_bytes() {
            if crate::clean::is_space_byte(b) {
                gap = len > 0;
                continue;
            }
            if gap {
                *buf.get_mut(len)? = b' ';
                len += 1;
                gap = false;
            }
            *buf.get_mut(len)? = b;
            len += 1;
        }
    } else {
        for w in t.split_whitespace() {
            if len > 0 {
                *buf.get_mut(len)? = b' ';
                len += 1;
            }
            buf.get_mut(len..len + w.len())?.copy_from_slice(w.as_bytes());
            len += w.len();
        }
    }
    (len > 0).then(|| text_hash(&buf[..len]))
}

/// The blocks of the nodes in `range` (`range.start` an element): per node, its block (the
/// nearest ancestor-or-self in the range that is not an inline tag; the range's first node
/// is one), and, per block made of two or more non-blank text nodes (a sentence with links:
/// `, and` between two links, a comment policy with its links), its whole text, the pieces
/// joined and white space collapsed, when it is short enough to be a line ([`MAX_TEXT`]).
/// Such a block's pieces recur on a site's pages as words do, and are never furniture alone;
/// the block's whole text, recurring at its path, is.
fn sentence_blocks(doc: &Doc, range: std::ops::Range<usize>) -> (Vec<u32>, Sentences) {
    let start = range.start;
    let mut block = vec![0u32; range.len()];
    let mut pieces = vec![0u8; range.len()];
    for (k, node) in doc.nodes[range.clone()].iter().enumerate() {
        let i = start + k;
        let parent = node.parent.map(|p| p as usize).filter(|&p| p >= start && p < i);
        let up = parent.map_or(i as u32, |p| block[p - start]);
        match &node.data {
            NodeData::Element(e) => block[k] = if parent.is_some() && is_inline(&e.name) { up } else { i as u32 },
            NodeData::Text(t) => {
                block[k] = up;
                if !t.trim().is_empty() {
                    let b = up as usize - start;
                    pieces[b] = pieces[b].saturating_add(1);
                }
            }
        }
    }
    let mut joined = Sentences::default();
    for (k, node) in doc.nodes[range].iter().enumerate() {
        let NodeData::Text(t) = &node.data else { continue };
        let b = block[k];
        if pieces[b as usize - start] < 2 {
            continue;
        }
        let text = joined.entry(b).or_insert_with(|| Some(String::new()));
        if let Some(s) = text {
            if s.len() + t.len() > 4 * MAX_TEXT {
                *text = None;
            } else {
                s.push_str(t);
            }
        }
    }
    for text in joined.values_mut() {
        *text = text.take().map(|s| crate::clean::collapse_ws(&s)).filter(|s| !s.is_empty() && s.len() <= MAX_TEXT);
    }
    (block, joined)
}

/// Per block of two or more text nodes, its whole text when it is a short sentence, `None`
/// when it is longer ([`sentence_blocks`]).
type Sentences = HashMap<u32, Option<String>, FxBuildHasher>;

/// The texts of a page worth keying, and the short sentences some are pieces of
/// ([`keyed_texts`]).
#[derive(Debug, Default)]
pub(crate) struct Keys {
    /// Each text node worth keying, in document order.
    pub texts: Vec<Keyed>,
    /// The whole texts of the sentences, by block.
    sentences: Sentences,
}

/// One text node worth keying ([`keyed_texts`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Keyed {
    /// The text node.
    pub node: u32,
    /// Its key: the hash of its parent's path and its text.
    pub key: u64,
    /// Does that key count when a template is learned? (Not for a piece of a sentence.)
    pub learn: bool,
    /// For a piece of a short sentence ([`sentence_blocks`]), the sentence's block and key:
    /// the hash of the block's path and the sentence's whole text.
    pub sentence: Option<(u32, u64)>,
}

/// Each text node worth keying (not blank, not too long), in document order, and the whole
/// texts of the short sentences some of them are pieces of ([`sentence_blocks`]). A text is
/// keyed by its own text at its parent's path; one that is a piece of a sentence does not
/// count when a template is learned (the mask looks at every keyed text), but a piece of a
/// short sentence also carries the sentence's key, which does.
pub(crate) fn keyed_texts(doc: &Doc) -> Keys {
    let paths = path_hashes(doc);
    let (block, joined) = sentence_blocks(doc, 0..doc.nodes.len());
    let texts = doc
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| {
            let NodeData::Text(t) = &n.data else { return None };
            let b = block[i];
            let (learn, sentence) = match joined.get(&b) {
                Some(Some(whole)) => (false, Some((b, mix(paths[b as usize], text_hash(whole.as_bytes()))))),
                Some(None) => (false, None),
                None => (true, None),
            };
            text_key(t).map(|k| Keyed { node: i as u32, key: mix(paths[i], k), learn, sentence })
        })
        .collect();
    Keys { texts, sentences: joined }
}

/// Paths as a trie: per path, the path it extends ([`NO_PATH`] for a first step) and its
/// last step, a number in `steps`; each path kept once. A path costs eight bytes however deep,
/// so a page nested hundreds deep costs no more per element than a flat one; its string is
/// made only for the lines written out.
#[derive(Debug, Clone, Default)]
struct Paths {
    trie: Vec<(u32, u32)>,
    steps: Strings,
    /// While paths are added: (path, step) → the path they make (numbers of our own: Fx is
    /// hash enough).
    known: HashMap<(u32, u32), u32, FxBuildHasher>,
}

/// No path: the path of a text with no element above it (the empty string).
const NO_PATH: u32 = u32::MAX;

impl Paths {
    /// The path `path` extended by `step`, added when new; `None` once a table holds 4 G
    /// entries.
    fn push(&mut self, path: u32, step: &str) -> Option<u32> {
        let step = self.steps.id(step)?;
        let next = u32::try_from(self.trie.len()).ok().filter(|&n| n != NO_PATH)?;
        let id = *self.known.entry((path, step)).or_insert(next);
        if id == next {
            self.trie.push((path, step));
        }
        Some(id)
    }

    /// The paths, done with adding: what adding needed is let go.
    fn freeze(self) -> Paths {
        Paths { trie: self.trie, steps: self.steps.freeze(), known: HashMap::default() }
    }

    /// The steps of `path`, first to last.
    fn steps(&self, mut path: u32) -> Vec<&str> {
        let mut steps = Vec::new();
        while let Some(&(up, step)) = self.trie.get(path as usize) {
            steps.push(self.steps.get(step).unwrap_or_default());
            path = up;
        }
        steps.reverse();
        steps
    }

    /// The string of `path`: its steps, separated by spaces.
    fn string(&self, path: u32) -> String {
        self.steps(path).join(" ")
    }
}

/// A page's template keys as [`Learner`] counts them, read from the page alone (so that pages
/// can be read apart from the learner, in parallel): each key that counts ([`keyed_texts`]),
/// once, in order, with its line: its path (in a trie of the page's elements) and its text
/// (white space collapsed; the keys' texts end to end in `texts`, each key with where its own
/// ends).
#[derive(Debug, Clone, Default)]
pub(crate) struct PageKeys {
    keys: Vec<(u64, u32, u32)>,
    paths: Paths,
    texts: String,
}

impl PageKeys {
    /// The keys of `doc` that count, of its `keyed` texts ([`keyed_texts`]); none when the
    /// template is off (`min_pages` 0).
    pub(crate) fn of(doc: &Doc, keys: &Keys, min_pages: usize) -> PageKeys {
        let mut page = PageKeys::default();
        if min_pages == 0 {
            return page;
        }
        let mut seen: HashSet<u64, FxBuildHasher> = HashSet::default();
        // Each element's path, by node: one step added to its parent's, once.
        let mut path_of: HashMap<u32, u32, FxBuildHasher> = HashMap::default();
        let mut chain = Vec::new();
        for k in &keys.texts {
            // The text's own line, and the line of the short sentence it is a piece of.
            let own = (k.learn && seen.insert(k.key)).then(|| (k.key, doc.nodes[k.node as usize].parent.unwrap_or(0), None));
            let sentence = k.sentence.filter(|&(_, key)| seen.insert(key)).map(|(b, key)| (key, b, keys.sentences.get(&b).and_then(Option::as_deref)));
            for (key, at, whole) in own.into_iter().chain(sentence) {
                // The ancestors whose paths are not made yet, nearest first.
                chain.clear();
                let mut path = NO_PATH;
                for a in std::iter::once(at).chain(doc.ancestors(at)) {
                    if let Some(&p) = path_of.get(&a) {
                        path = p;
                        break;
                    }
                    chain.push(a);
                }
                for &a in chain.iter().rev() {
                    // A path past a 4 G table ends there: no page holds that many elements.
                    let Some(p) = page.paths.push(path, &step(doc, a)) else { break };
                    path = p;
                    path_of.insert(a, p);
                }
                match (whole, &doc.nodes[k.node as usize].data) {
                    (Some(whole), _) => page.texts.push_str(whole),
                    (None, NodeData::Text(t)) => collapse_ws_into(&mut page.texts, t),
                    _ => {}
                }
                // Texts past 4 GiB are left out: no page holds that much.
                let Ok(end) = u32::try_from(page.texts.len()) else { return page };
                page.keys.push((key, path, end));
            }
        }
        page
    }

    /// Each key with its path and text.
    fn lines(&self) -> impl Iterator<Item = (u64, u32, &str)> {
        let starts = std::iter::once(0).chain(self.keys.iter().map(|k| k.2 as usize));
        self.keys.iter().zip(starts).map(|(&(key, path, end), start)| (key, path, self.texts.get(start..end as usize).unwrap_or_default()))
    }
}

/// A template learned page by page: each page's keys are counted while the page is at hand,
/// and a key's line is written down the first time the key is seen on as many pages as a line
/// needs to be kept (two, or `min_pages` when fewer), from that page. Equal keys name equal
/// lines, so the lines are those of [`Template::learn`], without holding any page.
#[derive(Debug, Default)]
pub(crate) struct Learner {
    min_pages: usize,
    /// Pages counted.
    pages: u32,
    /// The keys seen on one page so far, while a line waits for a second.
    once: HashSet<u64, FxBuildHasher>,
    /// Per key whose line is written: the line, and on how many pages the key was seen.
    lines: HashMap<u64, Written, FxBuildHasher>,
    /// The lines' paths, each kept once (a site's template lines share their paths), and
    /// their texts.
    paths: Paths,
    texts: Strings,
}

/// A written line: its path and text, numbered in [`Learner`]'s tables, and its key's pages.
#[derive(Debug, Clone, Copy)]
struct Written {
    path: u32,
    text: u32,
    pages: u32,
}

impl Learner {
    pub(crate) fn new(min_pages: usize) -> Learner {
        Learner { min_pages, ..Learner::default() }
    }

    /// Count one page's keys.
    pub(crate) fn add(&mut self, page: &PageKeys) {
        if self.min_pages == 0 {
            return;
        }
        self.pages += 1;
        let write_at = self.min_pages.min(2) as u32;
        // The page's paths as numbered here, as they are needed.
        let mut mine: Vec<u32> = Vec::new();
        for (key, path, text) in page.lines() {
            if let Some(w) = self.lines.get_mut(&key) {
                w.pages += 1;
                continue;
            }
            if write_at == 2 && self.once.insert(key) {
                continue;
            }
            self.once.remove(&key);
            // A line past a 4 GiB table is not written: no page set holds that much template.
            let path = self.adopt(&page.paths, path, &mut mine);
            let text = self.texts.id(text);
            if let (Some(path), Some(text)) = (path, text) {
                self.lines.insert(key, Written { path, text, pages: write_at });
            }
        }
    }

    /// The number here of path `path` of `page`'s trie (`mine`: those numbered so far).
    fn adopt(&mut self, page: &Paths, path: u32, mine: &mut Vec<u32>) -> Option<u32> {
        if mine.len() < page.trie.len() {
            mine.resize(page.trie.len(), NO_PATH);
        }
        // The page's paths up from `path` not numbered here yet, nearest first.
        let (mut chain, mut at, mut here) = (Vec::new(), path, NO_PATH);
        while let Some(&(up, _)) = page.trie.get(at as usize) {
            match mine.get(at as usize) {
                Some(&n) if n != NO_PATH => {
                    here = n;
                    break;
                }
                _ => chain.push(at),
            }
            at = up;
        }
        for &p in chain.iter().rev() {
            let step = page.trie.get(p as usize).and_then(|&(_, s)| page.steps.get(s))?;
            here = self.paths.push(here, step)?;
            if let Some(m) = mine.get_mut(p as usize) {
                *m = here;
            }
        }
        Some(here)
    }

    /// The template: the lines seen on at least `min_pages` pages.
    pub(crate) fn finish(self) -> Compact {
        let mut lines = Vec::new();
        let mut keys: HashSet<u64, FxBuildHasher> = HashSet::default();
        for (key, w) in self.lines {
            // A sentence two pages of one story share is the story's, not the site's: a
            // sentence is template only on a third of the pages or more.
            let shared = w.pages.saturating_mul(3) >= self.pages || !self.texts.get(w.text).is_some_and(crate::text::is_sentence);
            if w.pages as usize >= self.min_pages && shared {
                keys.insert(key);
                lines.push((w.path, w.text));
            }
        }
        Compact { keys, lines, paths: self.paths.freeze(), texts: self.texts.freeze() }
    }
}

/// A template as [`Learner`] learned it: its keys, and its lines with their paths (a trie) and
/// texts each kept once, as they wait to be written out (a sample's template lines share
/// paths).
#[derive(Debug, Default)]
pub(crate) struct Compact {
    keys: HashSet<u64, FxBuildHasher>,
    lines: Vec<(u32, u32)>,
    paths: Paths,
    texts: Strings,
}

impl Compact {
    /// Does the template hold the text of key `key` ([`keyed_texts`])?
    pub(crate) fn holds(&self, key: u64) -> bool {
        self.keys.contains(&key)
    }

    /// Let go of the keys ([`Compact::holds`] then holds nothing).
    pub(crate) fn forget_keys(&mut self) {
        self.keys = HashSet::default();
    }

    /// The lines, sorted.
    pub(crate) fn lines(&self) -> Vec<Line> {
        let mut lines: Vec<Line> = self
            .lines
            .iter()
            .filter_map(|&(p, t)| Some(Line { path: self.paths.string(p), text: self.texts.get(t)?.to_string() }))
            .collect();
        lines.sort();
        lines
    }

    /// The template.
    pub(crate) fn template(self) -> Template {
        let lines = self.lines();
        Template { keys: self.keys, lines }
    }
}

impl Template {
    /// Learn the template of a site: texts at the same path on at least `min_pages` pages.
    /// `min_pages` of 0 gives an empty template (the mechanism off).
    pub fn learn(pages: &[&Page], min_pages: usize) -> Template {
        let mut learner = Learner::new(min_pages);
        for page in pages {
            learner.add(&PageKeys::of(&page.doc, &keyed_texts(&page.doc), min_pages));
        }
        learner.finish().template()
    }

    /// Rebuild a template from stored lines.
    pub fn from_lines(lines: Vec<Line>) -> Template {
        // Sorted lines share most of their path with the line before: the hash of each step
        // of the previous path is kept, so only the steps past the common prefix are hashed.
        let mut prefix: Vec<(&str, u64)> = Vec::new();
        let keys = lines
            .iter()
            .map(|l| {
                let mut depth = 0;
                let mut path = 0u64;
                for step in l.path.split(' ').filter(|s| !s.is_empty()) {
                    path = match prefix.get(depth) {
                        Some(&(known, h)) if known == step => h,
                        _ => {
                            prefix.truncate(depth);
                            let h = mix(path, hash_str(step));
                            prefix.push((step, h));
                            h
                        }
                    };
                    depth += 1;
                }
                prefix.truncate(depth);
                mix(path, text_hash(l.text.as_bytes()))
            })
            .collect();
        Template { keys, lines }
    }

    /// Is the template empty?
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Per node of `doc`: is it a template text node? Only the subtrees at `roots` are looked
    /// at (the rest is `false`): what apply needs, at a fraction of the cost.
    /// With `sentences`, a piece of a short sentence is template too when the whole sentence
    /// is a template line (a comment policy, a sign-off with its links: see the module).
    pub fn mask_within(&self, doc: &Doc, roots: &[u32], sentences: bool) -> Vec<bool> {
        let mut mask = vec![false; doc.nodes.len()];
        if self.keys.is_empty() {
            return mask;
        }
        let mut h = vec![0u64; doc.nodes.len()];
        for &root in roots {
            let r = root as usize;
            let Some(end) = doc.nodes.get(r).map(|n| n.end as usize) else { continue };
            // The path hash of the root's parent, from the top down.
            let mut chain: Vec<u32> = doc.ancestors(root).collect();
            chain.reverse();
            let parent_hash = chain.iter().fold(0u64, |acc, &a| mix(acc, step_hash(doc, a)));
            let (block, joined) = if sentences { sentence_blocks(doc, r..end) } else { Default::default() };
            for i in r..end {
                let parent = match doc.nodes[i].parent {
                    Some(p) if p as usize >= r && i != r => h[p as usize],
                    _ => parent_hash,
                };
                h[i] = match &doc.nodes[i].data {
                    NodeData::Element(_) => mix(parent, step_hash(doc, i as u32)),
                    NodeData::Text(t) => {
                        let own = text_key(t).is_some_and(|k| self.keys.contains(&mix(parent, k)));
                        let sentence = || {
                            let b = block.get(i - r).copied().unwrap_or(0);
                            matches!(joined.get(&b), Some(Some(whole)) if self.keys.contains(&mix(h[b as usize], text_hash(whole.as_bytes()))))
                        };
                        mask[i] = own || (sentences && sentence());
                        parent
                    }
                };
            }
        }
        mask
    }

    /// Per node of `doc`: is it a template text node?
    pub fn mask(&self, doc: &Doc) -> Vec<bool> {
        // The whole page is the subtree at the root element.
        self.mask_within(doc, &[0], false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_hashes_equal_string_hashes() {
        let doc = crate::clean::page("<div id='x2' class='  main3 wide'><p class='2020'>t</p><span class='é9a'>u</span></div>");
        for i in 0..doc.nodes.len() as u32 {
            if doc.element(i).is_some() {
                assert_eq!(step_hash(&doc, i), hash_str(&step(&doc, i)), "{}", step(&doc, i));
            }
        }
        assert_eq!(text_key("  a \n b\tc "), Some(text_hash(b"a b c")));
        assert_eq!(text_key(&"x ".repeat(MAX_TEXT / 2)), Some(text_hash("x ".repeat(MAX_TEXT / 2).trim_end().as_bytes())));
        assert!(text_key(" a ").is_some() && text_key("  ").is_none() && text_key(&"x".repeat(MAX_TEXT + 1)).is_none());
        assert!(text_key(&"x ".repeat(MAX_TEXT / 2 + 1)).is_none(), "one word past the limit");
        for t in ["\u{a0}a\u{2003}b\x0b c\u{3000}", "\x0c\x0ba\r\n", "é  \x1fb\x1c", "a\x1f b"] {
            assert_eq!(text_key(t), Some(text_hash(crate::clean::collapse_ws(t).as_bytes())), "{t:?}");
        }
    }

    #[test]
    fn same_text_at_the_same_path_is_template() {
        let page = |body: &str| Page::from_html("p", &format!("<body><div class='nav'><a>Home</a></div><div class='story'>{body}</div><p>Home</p></body>")).unwrap();
        let (a, b) = (page("<p>One story</p><span class='share'>Share this</span>"), page("<p>Another</p><span class='share'>Share this</span>"));
        let t = Template::learn(&[&a, &b], 2);
        let texts: Vec<&str> = t.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["Home", "Share this", "Home"]);
        let mask = t.mask(&a.doc);
        let masked: Vec<String> = a
            .doc
            .nodes
            .iter()
            .zip(&mask)
            .filter(|(_, &m)| m)
            .filter_map(|(n, _)| match &n.data {
                NodeData::Text(t) => Some(t.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(masked, ["Home", "Share this", "Home"]);
        // Stored lines rebuild the same keys.
        let again = Template::from_lines(t.lines.clone());
        assert_eq!(again.mask(&b.doc), t.mask(&b.doc));
        // The mask within a subtree agrees with the whole-page mask there.
        let story = (0..a.doc.nodes.len() as u32).find(|&n| a.doc.element(n).is_some_and(|e| e.attr("class") == Some("story"))).unwrap();
        let within = t.mask_within(&a.doc, &[story], false);
        let end = a.doc.nodes[story as usize].end as usize;
        assert_eq!(&within[story as usize..end], &mask[story as usize..end]);
        assert!(!within[..story as usize].iter().any(|&m| m));
    }

    #[test]
    fn a_paragraph_two_pages_of_one_story_share_is_not_template() {
        let shared = "Tri-City won its third game in three nights, all of them at home.";
        let page = |i: usize, with: bool| {
            let extra = if with { format!("<p>{shared}</p>") } else { String::new() };
            Page::from_html("p", &format!("<body><div class='story'><p>Story number {i} of the day.</p>{extra}<p>Follow us.</p><p>All rights reserved by the Gazette.</p></div></body>")).unwrap()
        };
        let texts = |pages: &[Page]| -> Vec<String> {
            let refs: Vec<&Page> = pages.iter().collect();
            Template::learn(&refs, 2).lines.into_iter().map(|l| l.text).collect()
        };
        // Two of seven pages share the paragraph: it is theirs; lines every page shows are template.
        let seven: Vec<Page> = (0..7).map(|i| page(i, i < 2)).collect();
        assert_eq!(texts(&seven), ["All rights reserved by the Gazette.", "Follow us."]);
        // On three of seven it recurs as the site's furniture does.
        let three: Vec<Page> = (0..7).map(|i| page(i, i < 3)).collect();
        assert!(texts(&three).contains(&shared.to_string()));
    }

    /// A short sentence with links that recurs whole at one place (a comment policy) is a line
    /// of its block's path and whole text; its pieces are template only to a mask that asks
    /// for sentences. A piece alone (the policy's link) is no line, nor is a long sentence.
    #[test]
    fn a_short_sentence_recurring_whole_is_a_line_of_its_block() {
        let policy = "<p class='policy'>Comments are filtered. Read the <a href='/terms'>full terms</a> before posting.</p>";
        let long = format!("<p class='long'>{} <a href='/x'>a link</a> and more.</p>", "Words that recur on every page. ".repeat(15));
        let page = |story: &str| Page::from_html("p", &format!("<body><div class='story'><p>{story}</p>{policy}{long}</div></body>")).unwrap();
        let (a, b) = (page("One story of the day."), page("Another story, told."));
        let t = Template::learn(&[&a, &b], 2);
        let texts: Vec<&str> = t.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["Comments are filtered. Read the full terms before posting."], "{:?}", t.lines);
        assert!(t.lines[0].path.ends_with("div.story p.policy"), "{}", t.lines[0].path);
        let masked = |sentences: bool| -> Vec<String> {
            let m = t.mask_within(&a.doc, &[a.doc.body], sentences);
            a.doc.nodes.iter().zip(&m).filter(|(_, &m)| m).filter_map(|(n, _)| match &n.data {
                NodeData::Text(x) => Some(x.trim().to_string()),
                _ => None,
            }).collect()
        };
        assert_eq!(masked(true), ["Comments are filtered. Read the", "full terms", "before posting."]);
        assert!(masked(false).is_empty());
        // Stored lines rebuild the same keys.
        assert_eq!(Template::from_lines(t.lines.clone()).mask_within(&b.doc, &[b.doc.body], true), t.mask_within(&b.doc, &[b.doc.body], true));
    }

    /// Keys rebuilt from stored lines, reusing the previous line's path prefix, are the keys
    /// of each line hashed on its own: the same path again, deeper, shallower, a step changed
    /// in the middle, a repeated step name at another depth, an empty path.
    #[test]
    fn keys_from_lines_reuse_only_a_true_prefix() {
        let line = |path: &str, text: &str| Line { path: path.into(), text: text.into() };
        let lines = vec![
            line("html body div.a p", "x"),
            line("html body div.a p", "y"),
            line("html body div.a p span", "x"),
            line("html body div.a", "z"),
            line("html body div.b p", "x"),
            line("html div.b p", "x"),
            line("html body div.a p", "x"),
            line("", "w"),
            line("html  body", "v"),
        ];
        let alone = |l: &Line| mix(l.path.split(' ').filter(|s| !s.is_empty()).fold(0u64, |h, s| mix(h, hash_str(s))), text_hash(l.text.as_bytes()));
        let expected: HashSet<u64, FxBuildHasher> = lines.iter().map(alone).collect();
        let t = Template::from_lines(lines);
        assert_eq!(t.keys, expected);
        assert_eq!(t.keys.len(), 8, "the first and the seventh lines are one key");
    }

    /// A line's path is its text's ancestors' steps, joined, however deep; a page's paths
    /// cost a trie entry per element on them, not a string each.
    #[test]
    fn deep_paths_are_steps_joined_and_cost_an_entry_each() {
        let depth = 300;
        let page = |n: usize| {
            let open: String = (0..depth).map(|i| format!("<div class='d{i}'>")).collect();
            let leaves: String = (0..50).map(|i| format!("<p class='c{i}'>leaf {i}</p>")).collect();
            Page::from_html("p", &format!("<body><h1>page {n}</h1>{open}{leaves}</body>")).unwrap()
        };
        let (a, b) = (page(1), page(2));
        let keys = PageKeys::of(&a.doc, &keyed_texts(&a.doc), 2);
        assert!(keys.paths.trie.len() <= a.doc.element_count(), "{} entries", keys.paths.trie.len());
        let t = Template::learn(&[&a, &b], 2);
        assert_eq!(t.lines.len(), 50);
        let line = t.lines.iter().find(|l| l.text == "leaf 7").unwrap();
        let node = (0..a.doc.nodes.len() as u32).find(|&n| matches!(&a.doc.nodes[n as usize].data, NodeData::Text(x) if x == "leaf 7")).unwrap();
        let mut steps: Vec<String> = a.doc.ancestors(node).map(|e| step(&a.doc, e)).collect();
        steps.reverse();
        assert_eq!(line.path, steps.join(" "));
        assert!(line.path.ends_with("div.d div.d p.c") && line.path.len() > 6 * depth, "digits are dropped from classes");
    }
}
