//! A page's tree without its words ([`Shape`]), and what the structure stages read of any tree
//! ([`Tree`]): both [`Doc`] and [`Shape`] are trees.

use super::{Doc, Element, Name, NodeData, NodeId, Strings};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::sync::Arc;

/// What the structure stages (element types, candidates, layouts, the XPath's choice) read
/// of a cleaned page: its nodes' links and levels, and its elements' names, `dfs` numbers and
/// `id`/`class`. Every node id is that of [`Doc::nodes`].
pub trait Tree {
    /// How many nodes (elements and texts).
    fn node_count(&self) -> usize;
    /// The parent of node `n`; `None` for the root or a node not in the tree.
    fn parent(&self, n: NodeId) -> Option<NodeId>;
    /// One past the last node of the subtree at `n` (`n` itself when there is no such node).
    fn end(&self, n: NodeId) -> NodeId;
    /// The depth of node `n` (the root element is level 1; 0 when there is no such node).
    fn level(&self, n: NodeId) -> u32;
    /// The tag of the element at `n`; `None` for a text node.
    fn tag(&self, n: NodeId) -> Option<&str>;
    /// The value of attribute `name` of the element at `n` (a [`Shape`] keeps only `id` and
    /// `class`).
    fn attr(&self, n: NodeId, name: &str) -> Option<&str>;
    /// The `id` and `class` of the element at `n`, read together (what an element type and a
    /// path step are made of).
    fn id_class(&self, n: NodeId) -> [Option<&str>; 2] {
        [self.attr(n, "id"), self.attr(n, "class")]
    }
    /// The `dfs` number of the element at `n`.
    fn dfs(&self, n: NodeId) -> Option<u32>;
    /// The node of the element numbered `dfs`.
    fn by_dfs(&self, dfs: u32) -> Option<NodeId>;
    /// The `<body>` element (the root when there is none).
    fn body(&self) -> NodeId;

    /// Is node `n` an element?
    fn is_element(&self, n: NodeId) -> bool {
        self.tag(n).is_some()
    }

    /// Children of `n`, in order.
    fn children(&self, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let end = self.end(n);
        let mut next = n + 1;
        std::iter::from_fn(move || {
            if next >= end {
                return None;
            }
            let here = next;
            next = self.end(here).max(here + 1);
            Some(here)
        })
    }

    /// Ancestors of `n`, nearest first, excluding `n` itself.
    fn ancestors(&self, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut cur = self.parent(n);
        std::iter::from_fn(move || {
            let here = cur?;
            cur = self.parent(here);
            Some(here)
        })
    }

    /// Is `a` an ancestor of (or equal to) `b`?
    fn contains(&self, a: NodeId, b: NodeId) -> bool {
        (a as usize) < self.node_count() && a <= b && b < self.end(a)
    }
}

impl Tree for Doc {
    fn node_count(&self) -> usize {
        self.nodes.len()
    }
    fn parent(&self, n: NodeId) -> Option<NodeId> {
        self.nodes.get(n as usize)?.parent
    }
    fn end(&self, n: NodeId) -> NodeId {
        Doc::end(self, n)
    }
    fn level(&self, n: NodeId) -> u32 {
        self.nodes.get(n as usize).map_or(0, |x| x.level)
    }
    fn tag(&self, n: NodeId) -> Option<&str> {
        self.element(n).map(|e| e.name.as_str())
    }
    fn attr(&self, n: NodeId, name: &str) -> Option<&str> {
        self.element(n)?.attr(name)
    }
    fn id_class(&self, n: NodeId) -> [Option<&str>; 2] {
        self.element(n).map_or([None, None], Element::id_class)
    }
    fn dfs(&self, n: NodeId) -> Option<u32> {
        self.element(n).map(|e| e.dfs)
    }
    fn by_dfs(&self, dfs: u32) -> Option<NodeId> {
        Doc::by_dfs(self, dfs)
    }
    fn body(&self) -> NodeId {
        self.body
    }
}

/// No node, no value.
const NONE: u32 = u32::MAX;

/// The `id` and `class` values of one page ([`Shape::of`]) or of all the pages of a sample,
/// which share most of them ([`Shape::shared_in`]): each value kept once, and each pair of values
/// an element carries (a site's elements repeat a few pairs).
#[derive(Debug, Default)]
pub struct Values {
    strings: Strings,
    /// Per pair number, the `id` and the `class` ([`NONE`]: absent), numbers into `strings`.
    pairs: Vec<(u32, u32)>,
    /// While pages are added: pair → number (numbers of our own: Fx is hash enough).
    numbered: HashMap<(u32, u32), u32, FxBuildHasher>,
}

impl Values {
    /// The number of the pair of values (`id`, `class`), added when new; `None` once a table
    /// holds 4 G entries.
    fn pair(&mut self, id: Option<&str>, class: Option<&str>) -> Option<u32> {
        let mut number = |v: Option<&str>| v.map_or(Some(NONE), |v| self.strings.id(v));
        let pair = (number(id)?, number(class)?);
        let next = u32::try_from(self.pairs.len()).ok().filter(|&n| n != NONE)?;
        let n = *self.numbered.entry(pair).or_insert(next);
        if n == next {
            self.pairs.push(pair);
        }
        Some(n)
    }

    /// The table, done with adding (and what adding needed).
    pub fn freeze(mut self) -> Values {
        self.numbered = HashMap::default();
        self.pairs.shrink_to_fit();
        Values { strings: self.strings.freeze(), ..self }
    }

    /// Value number `v`.
    fn value(&self, v: u32) -> Option<&str> {
        self.strings.get(v)
    }
}

/// A bit per item, and per 64 items the set bits before them: the rank of an item among the
/// set ones is a count of bits, with no search, and the item of a rank a search among the
/// counts.
#[derive(Debug, Clone, Default)]
struct Bits {
    words: Vec<u64>,
    before: Vec<u32>,
    ones: u32,
}

impl Bits {
    /// `len` bits, those at `set` (ascending) set.
    fn new(len: usize, set: impl IntoIterator<Item = usize>) -> Bits {
        let mut words = vec![0u64; len.div_ceil(64)];
        for i in set {
            if let Some(w) = words.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
        let mut ones = 0u32;
        let before = words
            .iter()
            .map(|w| {
                let here = ones;
                ones += w.count_ones();
                here
            })
            .collect();
        Bits { words, before, ones }
    }

    /// How many set bits come before item `i` (all of them past the end).
    fn rank(&self, i: usize) -> usize {
        let (Some(&w), Some(&before)) = (self.words.get(i / 64), self.before.get(i / 64)) else {
            return self.ones as usize;
        };
        before as usize + (w & ((1u64 << (i % 64)) - 1)).count_ones() as usize
    }

    /// The rank of item `i`, when its bit is set.
    fn index(&self, i: usize) -> Option<usize> {
        let w = *self.words.get(i / 64)?;
        (w >> (i % 64) & 1 == 1).then(|| self.rank(i))
    }

    /// The item of rank `r`: in the last 64 items with fewer set bits before them, its set bit
    /// of the rest.
    fn select(&self, r: usize) -> Option<usize> {
        let word = self.before.partition_point(|&b| b as usize <= r).checked_sub(1)?;
        let mut w = *self.words.get(word)?;
        let rest = r - self.before[word] as usize;
        if rest >= w.count_ones() as usize {
            return None;
        }
        for _ in 0..rest {
            w &= w - 1;
        }
        Some(word * 64 + w.trailing_zeros() as usize)
    }
}

/// A page's tree without its words, in a few flat arrays: a bit per node for the elements;
/// per element its parent, end and tag; per element with an `id` or `class`, the number of
/// that pair in a table of values ([`Values`], the page's own or shared by a sample's pages).
/// What induction keeps of each sample page once its words are counted: about a twentieth of
/// the page's [`Doc`]. An element's node, a text node's parent and end, and any node's level
/// follow from these.
#[derive(Debug, Clone, Default)]
pub struct Shape {
    /// How many nodes.
    nodes: u32,
    /// The elements among the nodes: a node's element number (its `dfs`) is its rank.
    elements: Bits,
    /// Per element (by `dfs`): its parent ([`NONE`] for the root) and end.
    parent: Vec<u32>,
    end: Vec<u32>,
    /// Per element, its tag (into `tags`): a byte while a page has at most 256 distinct tags
    /// (`wide_tag` empty), else `wide_tag` holds them all.
    tag: Vec<u8>,
    wide_tag: Vec<u32>,
    /// The page's distinct tags.
    tags: Vec<Name>,
    /// The elements with an `id` or a `class`, and per such element (in order) the number of
    /// its pair in the values.
    with_attrs: Bits,
    attrs: Vec<u32>,
    /// The values those numbers name (`None` until [`Shape::with_values`] gives a shared table).
    values: Option<Arc<Values>>,
    body: NodeId,
}

impl Shape {
    /// The shape of `doc`, its `id` and `class` values in a table of its own.
    pub fn of(doc: &Doc) -> Shape {
        let mut values = Values::default();
        let elements = doc.element_count();
        let mut s = Shape {
            nodes: doc.nodes.len() as u32,
            parent: Vec::with_capacity(elements),
            end: Vec::with_capacity(elements),
            body: doc.body,
            ..Shape::default()
        };
        let mut tags: HashMap<&str, u32> = HashMap::new();
        let (mut tag, mut is_element, mut with_attrs) = (Vec::with_capacity(elements), Vec::with_capacity(elements), Vec::new());
        for (i, node) in doc.nodes.iter().enumerate() {
            let NodeData::Element(e) = &node.data else { continue };
            is_element.push(i);
            let element = s.parent.len();
            s.parent.push(node.parent.unwrap_or(NONE));
            s.end.push(node.end);
            let next = s.tags.len() as u32;
            tag.push(*tags.entry(e.name.as_str()).or_insert_with(|| {
                s.tags.push(e.name.clone());
                next
            }));
            let [id, class] = e.id_class();
            if id.is_some() || class.is_some() {
                // Past 4 G values the element reads as without them: no page set holds that many.
                if let Some(pair) = values.pair(id, class) {
                    with_attrs.push(element);
                    s.attrs.push(pair);
                }
            }
        }
        s.elements = Bits::new(doc.nodes.len(), is_element);
        s.with_attrs = Bits::new(s.parent.len(), with_attrs);
        match tag.iter().map(|&t| u8::try_from(t)).collect::<Result<Vec<u8>, _>>() {
            Ok(narrow) => s.tag = narrow,
            Err(_) => s.wide_tag = tag,
        }
        s.tags.shrink_to_fit();
        s.attrs.shrink_to_fit();
        s.with_values(Arc::new(values.freeze()))
    }

    /// This shape, its `id` and `class` values numbered in `table` instead of its own: a table
    /// shared by the pages of a sample, which repeat their values. It answers [`Tree::attr`]
    /// again once [`Shape::with_values`] gives it that table, frozen.
    pub fn shared_in(mut self, table: &mut Values) -> Shape {
        let Some(own) = self.values.take() else { return self };
        let pairs: Vec<Option<u32>> = own.pairs.iter().map(|&(id, class)| table.pair(own.value(id), own.value(class))).collect();
        let (mut with_attrs, mut attrs) = (Vec::with_capacity(self.attrs.len()), Vec::with_capacity(self.attrs.len()));
        for (rank, &pair) in self.attrs.iter().enumerate() {
            // Past 4 G values an element reads as without them: no page set holds that many.
            if let (Some(e), Some(Some(p))) = (self.with_attrs.select(rank), pairs.get(pair as usize)) {
                with_attrs.push(e);
                attrs.push(*p);
            }
        }
        if attrs.len() < self.attrs.len() {
            self.with_attrs = Bits::new(self.parent.len(), with_attrs);
        }
        self.attrs = attrs;
        self
    }

    /// This shape, its values named by `values` (the table [`Shape::shared_in`] numbered them in).
    pub fn with_values(mut self, values: Arc<Values>) -> Shape {
        self.values = Some(values);
        self
    }

    /// How many elements come before node `n` (`n` itself not counted).
    fn elements_before(&self, n: NodeId) -> usize {
        self.elements.rank(n as usize)
    }

    /// The element number of node `n`.
    fn element_of(&self, n: NodeId) -> Option<usize> {
        self.elements.index(n as usize)
    }

    /// The node of element number `e`.
    fn node_of(&self, e: usize) -> Option<NodeId> {
        self.elements.select(e).map(|n| n as NodeId)
    }

    /// The tag number of element `e`.
    fn tag_of(&self, e: usize) -> Option<u32> {
        match self.wide_tag.is_empty() {
            true => self.tag.get(e).map(|&t| u32::from(t)),
            false => self.wide_tag.get(e).copied(),
        }
    }
}

impl Tree for Shape {
    fn node_count(&self) -> usize {
        self.nodes as usize
    }
    fn parent(&self, n: NodeId) -> Option<NodeId> {
        if n >= self.nodes {
            return None;
        }
        if let Some(e) = self.element_of(n) {
            return Some(self.parent[e]).filter(|&p| p != NONE);
        }
        // A text node: the innermost element before it whose subtree holds it.
        let mut e = self.elements_before(n).checked_sub(1)?;
        while self.end[e] <= n {
            e = self.element_of(self.parent[e])?;
        }
        self.node_of(e)
    }
    fn end(&self, n: NodeId) -> NodeId {
        match self.element_of(n) {
            Some(e) => self.end[e],
            None if n < self.nodes => n + 1,
            None => n,
        }
    }
    fn level(&self, n: NodeId) -> u32 {
        if n < self.nodes {
            self.ancestors(n).count() as u32 + 1
        } else {
            0
        }
    }
    fn tag(&self, n: NodeId) -> Option<&str> {
        let t = self.tag_of(self.element_of(n)?)?;
        self.tags.get(t as usize).map(Name::as_str)
    }
    fn attr(&self, n: NodeId, name: &str) -> Option<&str> {
        let [id, class] = self.id_class(n);
        match name {
            "id" => id,
            "class" => class,
            _ => None,
        }
    }
    fn id_class(&self, n: NodeId) -> [Option<&str>; 2] {
        let Some(values) = self.values.as_deref() else { return [None, None] };
        let pair = self.element_of(n).and_then(|e| self.with_attrs.index(e)).and_then(|i| self.attrs.get(i));
        match pair.and_then(|&p| values.pairs.get(p as usize)) {
            Some(&(id, class)) => [values.value(id), values.value(class)],
            None => [None, None],
        }
    }
    fn dfs(&self, n: NodeId) -> Option<u32> {
        self.element_of(n).map(|e| e as u32)
    }
    fn by_dfs(&self, dfs: u32) -> Option<NodeId> {
        self.node_of(dfs as usize)
    }
    fn body(&self) -> NodeId {
        self.body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shape answers as its page does, node by node.
    #[test]
    fn a_shape_reads_as_its_page() {
        let doc = crate::clean::page(
            "<body class='b'><div id='main' class='x y' data-k='v'><p>one<b>two</b></p>text<p id=''>three</p></div><ul><li>a<li>b</ul></body>",
        );
        reads_as(&doc);
        assert_eq!(Tree::attr(&doc, doc.by_dfs(3).unwrap(), "data-k"), Some("v"));
    }

    /// Past 64 nodes too (a node's element number counts across words of the bitset), with
    /// text nodes both right after their element and after a closed sibling.
    #[test]
    fn a_long_shape_reads_as_its_page() {
        let mut html = String::from("<body>");
        for i in 0..90 {
            html.push_str(&format!("<div class='c{}'>a<p>b<i>c</i>d</p>e</div>f", i % 7));
            if i % 9 == 0 {
                html.push_str("<section><ul><li>x<li>y</ul>z</section>");
            }
        }
        html.push_str("</body>");
        let doc = crate::clean::page(&html);
        assert!(doc.nodes.len() > 600);
        reads_as(&doc);
    }

    /// A page of more than 256 distinct tags keeps them all.
    #[test]
    fn many_tags_read_as_their_page() {
        let html: String = (0..300).map(|i| format!("<x-t{i}>w{i}</x-t{i}>")).collect();
        let doc = crate::clean::page(&format!("<body>{html}</body>"));
        assert!(Shape::of(&doc).tag.is_empty() && !Shape::of(&doc).wide_tag.is_empty());
        reads_as(&doc);
    }

    /// Shapes whose values share one table answer as their pages do, each value kept once.
    #[test]
    fn shapes_sharing_a_table_read_as_their_pages() {
        let a = crate::clean::page("<body><div id='main' class='x y'><p class='x y'>a</p></div></body>");
        let b = crate::clean::page("<body><div class='z'><p id='main'>b</p><p class='x y'>c</p></div></body>");
        let mut values = Values::default();
        let (sa, sb) = (Shape::of(&a).shared_in(&mut values), Shape::of(&b).shared_in(&mut values));
        let main = (0..a.nodes.len() as NodeId).find(|&n| Tree::attr(&a, n, "id") == Some("main")).unwrap();
        assert_eq!(sa.attr(main, "id"), None, "no table yet");
        let values = Arc::new(values.freeze());
        assert_eq!(values.strings.len(), 3, "main, 'x y' and z");
        assert_eq!(values.pairs.len(), 4, "main with 'x y', 'x y' alone, z alone, main alone");
        for (doc, shape) in [(&a, sa), (&b, sb)] {
            let shape = shape.with_values(Arc::clone(&values));
            for n in 0..doc.nodes.len() as NodeId {
                for name in ["id", "class"] {
                    assert_eq!(shape.attr(n, name), Tree::attr(doc, n, name), "{n} {name}");
                }
            }
        }
    }

    fn reads_as(doc: &Doc) {
        let shape = Shape::of(doc);
        assert_eq!(shape.node_count(), Tree::node_count(doc));
        assert_eq!(shape.body(), Tree::body(doc));
        for n in 0..doc.nodes.len() as NodeId + 2 {
            assert_eq!(shape.parent(n), Tree::parent(doc, n), "{n}");
            assert_eq!(shape.end(n), Tree::end(doc, n), "{n}");
            assert_eq!(shape.level(n), Tree::level(doc, n), "{n}");
            assert_eq!(shape.tag(n), Tree::tag(doc, n), "{n}");
            assert_eq!(shape.dfs(n), Tree::dfs(doc, n), "{n}");
            for a in ["id", "class"] {
                assert_eq!(shape.attr(n, a), Tree::attr(doc, n, a), "{n} {a}");
            }
            assert_eq!(shape.attr(n, "data-k"), None);
            assert_eq!(shape.children(n).collect::<Vec<_>>(), Tree::children(doc, n).collect::<Vec<_>>());
            assert_eq!(shape.ancestors(n).collect::<Vec<_>>(), Tree::ancestors(doc, n).collect::<Vec<_>>());
            assert_eq!(shape.contains(2, n), Tree::contains(doc, 2, n));
            assert_eq!(shape.by_dfs(n), Tree::by_dfs(doc, n));
        }
    }
}
