//! The html5ever tree sink: the parser builds a small linked tree of our own (no ego-tree, no
//! DOM library), which [`flatten`] then walks once, with an explicit stack, into the cleaned
//! pre-order [`Doc`].
//!
//! The linked tree supports everything the HTML tree builder does (appending, inserting before
//! a sibling, removing, moving children for the adoption agency algorithm, template contents);
//! comments, doctypes and processing instructions are kept only as placeholders, since the
//! cleaner drops them.

use super::{clean_attrs, collapse_ws, is_comment_region, is_dropped, push_text, Doc, Element, Name, Node, NodeData, NodeId};
use html5ever::tendril::StrTendril;
use super::tokens::{Bridge, Input};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeBuilderOpts, TreeSink};
use html5ever::{Attribute, LocalName, Namespace, QualName};
use html5ever::interface::ElemName;
use std::borrow::Cow;
use std::cell::{Ref, RefCell};

mod comments;
mod math;

use comments::region_text;
use math::formula;

/// No node. Node numbers and `NONE` fit in the `u32` links of [`SinkNode`] (a page's nodes are
/// bounded by the element budget), so a link is read and written with a plain cast.
const NONE: usize = u32::MAX as usize;
/// Handles from here up are nodes made past the budget: not built, never in the tree, each
/// known only by its name (the tree builder asks for it), so what the tree builder makes past
/// the budget costs a name each, until parsing stops at the end of the slice.
const DISCARDED: usize = usize::MAX / 2;

/// An element's name as the tree builder asks for it: its namespace and local name (the
/// prefix, which it never asks for, is not kept).
#[derive(Clone, Debug)]
struct ElName {
    ns: Namespace,
    local: LocalName,
}

impl ElName {
    fn of(name: QualName) -> ElName {
        ElName { ns: name.ns, local: name.local }
    }
}

/// A borrowed [`ElName`], the sink's answer to `elem_name`.
#[derive(Debug)]
pub struct ElRef<'a>(Ref<'a, ElName>);

impl ElemName for ElRef<'_> {
    fn ns(&self) -> &Namespace {
        &self.0.ns
    }
    fn local_name(&self) -> &LocalName {
        &self.0.local
    }
}

enum Kind {
    Document,
    Element { name: ElName, attrs: Vec<Attribute>, template: u32 },
    Text(StrTendril),
    /// Comment, processing instruction: dropped by the cleaner.
    Other,
}

/// A node of the linked tree; links are node numbers ([`NONE`] for none) in 32 bits, which
/// keeps a node at 72 bytes (96 with `usize` links and the whole `QualName`).
struct SinkNode {
    parent: u32,
    first: u32,
    last: u32,
    prev: u32,
    next: u32,
    kind: Kind,
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<SinkNode>() == 72);

impl SinkNode {
    fn parent(&self) -> usize {
        self.parent as usize
    }
    fn first(&self) -> usize {
        self.first as usize
    }
    fn last(&self) -> usize {
        self.last as usize
    }
    fn prev(&self) -> usize {
        self.prev as usize
    }
    fn next(&self) -> usize {
        self.next as usize
    }
}

struct Tree {
    nodes: Vec<SinkNode>,
    /// Returned by `elem_name` for a handle that is not an element (never asked in practice).
    no_name: ElName,
}

impl Tree {
    /// A tree of the document node only.
    fn empty() -> Tree {
        Tree::with_capacity(1)
    }

    /// A tree of the document node only, with room for `nodes` nodes.
    fn with_capacity(nodes: usize) -> Tree {
        let mut tree = Tree { nodes: Vec::with_capacity(nodes), no_name: ElName { ns: html5ever::ns!(html), local: html5ever::local_name!("") } };
        tree.push(Kind::Document);
        tree
    }

    fn push(&mut self, kind: Kind) -> usize {
        let none = NONE as u32;
        self.nodes.push(SinkNode { parent: none, first: none, last: none, prev: none, next: none, kind });
        self.nodes.len() - 1
    }

    fn detach(&mut self, n: usize) {
        let (parent, prev, next) = (self.nodes[n].parent(), self.nodes[n].prev(), self.nodes[n].next());
        if parent == NONE {
            return;
        }
        if prev != NONE {
            self.nodes[prev].next = next as u32;
        } else {
            self.nodes[parent].first = next as u32;
        }
        if next != NONE {
            self.nodes[next].prev = prev as u32;
        } else {
            self.nodes[parent].last = prev as u32;
        }
        let node = &mut self.nodes[n];
        node.parent = NONE as u32;
        node.prev = NONE as u32;
        node.next = NONE as u32;
    }

    fn append_node(&mut self, parent: usize, child: usize) {
        self.detach(child);
        let last = self.nodes[parent].last();
        self.nodes[child].parent = parent as u32;
        self.nodes[child].prev = last as u32;
        if last != NONE {
            self.nodes[last].next = child as u32;
        } else {
            self.nodes[parent].first = child as u32;
        }
        self.nodes[parent].last = child as u32;
    }

    fn insert_before(&mut self, sibling: usize, child: usize) {
        self.detach(child);
        let (parent, prev) = (self.nodes[sibling].parent(), self.nodes[sibling].prev());
        if parent == NONE {
            return;
        }
        self.nodes[child].parent = parent as u32;
        self.nodes[child].prev = prev as u32;
        self.nodes[child].next = sibling as u32;
        self.nodes[sibling].prev = child as u32;
        if prev != NONE {
            self.nodes[prev].next = child as u32;
        } else {
            self.nodes[parent].first = child as u32;
        }
    }

    /// Append text to `parent`, merged into its last child when that is text.
    fn append_text(&mut self, parent: usize, text: StrTendril) {
        let last = self.nodes[parent].last();
        if last != NONE {
            if let Kind::Text(t) = &mut self.nodes[last].kind {
                t.push_tendril(&text);
                return;
            }
        }
        let n = self.push(Kind::Text(text));
        self.append_node(parent, n);
    }
}

/// The sink html5ever builds into.
pub struct Sink {
    tree: RefCell<Tree>,
    /// Elements created so far (shared with [`parse`], which stops feeding the parser past the
    /// budget).
    elements: std::rc::Rc<std::cell::Cell<usize>>,
    /// Past this many elements, nodes are not built ([`DISCARDED`]).
    max_elements: usize,
    /// The names of the nodes not built, by handle − [`DISCARDED`].
    discarded: RefCell<Vec<ElName>>,
}

impl Sink {
    /// A sink for a page of `bytes` bytes (room is made for the nodes such a page usually
    /// has: untouched room costs no memory).
    fn new(elements: std::rc::Rc<std::cell::Cell<usize>>, max_elements: usize, bytes: usize) -> Sink {
        let nodes = (bytes / 32).clamp(16, 1 << 20);
        Sink { tree: RefCell::new(Tree::with_capacity(nodes)), elements, max_elements, discarded: RefCell::new(Vec::new()) }
    }

    fn over_budget(&self) -> bool {
        self.elements.get() > self.max_elements
    }

    /// A handle for a node not built.
    fn discard(&self, name: ElName) -> usize {
        let mut d = self.discarded.borrow_mut();
        d.push(name);
        DISCARDED + d.len() - 1
    }
}

/// Is this the handle of a node not built?
fn gone(h: usize) -> bool {
    h >= DISCARDED
}

impl TreeSink for Sink {
    type Handle = usize;
    type Output = Sink;
    type ElemName<'a> = ElRef<'a>;

    fn finish(self) -> Sink {
        self
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> usize {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a usize) -> ElRef<'a> {
        if gone(*target) {
            let d = self.discarded.borrow();
            if d.get(*target - DISCARDED).is_some() {
                return ElRef(Ref::map(d, |d| &d[*target - DISCARDED]));
            }
        }
        ElRef(Ref::map(self.tree.borrow(), |t| match t.nodes.get(*target).map(|n| &n.kind) {
            Some(Kind::Element { name, .. }) => name,
            _ => &t.no_name,
        }))
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> usize {
        self.elements.set(self.elements.get().saturating_add(1));
        if self.over_budget() {
            return self.discard(ElName::of(name));
        }
        let mut t = self.tree.borrow_mut();
        let template = if flags.template { t.push(Kind::Document) } else { NONE };
        t.push(Kind::Element { name: ElName::of(name), attrs, template: template as u32 })
    }

    fn create_comment(&self, _text: StrTendril) -> usize {
        if self.over_budget() {
            return self.discard(self.tree.borrow().no_name.clone());
        }
        self.tree.borrow_mut().push(Kind::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> usize {
        if self.over_budget() {
            return self.discard(self.tree.borrow().no_name.clone());
        }
        self.tree.borrow_mut().push(Kind::Other)
    }

    fn append(&self, parent: &usize, child: NodeOrText<usize>) {
        if gone(*parent) || matches!(child, NodeOrText::AppendNode(n) if gone(n)) {
            return;
        }
        let mut t = self.tree.borrow_mut();
        match child {
            NodeOrText::AppendNode(n) => t.append_node(*parent, n),
            NodeOrText::AppendText(text) => t.append_text(*parent, text),
        }
    }

    fn append_based_on_parent_node(&self, element: &usize, prev_element: &usize, child: NodeOrText<usize>) {
        let has_parent = !gone(*element) && self.tree.borrow().nodes[*element].parent() != NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _name: StrTendril, _public_id: StrTendril, _system_id: StrTendril) {}

    fn get_template_contents(&self, target: &usize) -> usize {
        if gone(*target) {
            return *target;
        }
        let mut t = self.tree.borrow_mut();
        match t.nodes[*target].kind {
            Kind::Element { template, .. } if template as usize != NONE => template as usize,
            _ => t.push(Kind::Document),
        }
    }

    fn same_node(&self, x: &usize, y: &usize) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &usize, new_node: NodeOrText<usize>) {
        if gone(*sibling) || matches!(new_node, NodeOrText::AppendNode(n) if gone(n)) {
            return;
        }
        let mut t = self.tree.borrow_mut();
        match new_node {
            NodeOrText::AppendNode(n) => t.insert_before(*sibling, n),
            NodeOrText::AppendText(text) => {
                let prev = t.nodes[*sibling].prev();
                if prev != NONE {
                    if let Kind::Text(p) = &mut t.nodes[prev].kind {
                        p.push_tendril(&text);
                        return;
                    }
                }
                let n = t.push(Kind::Text(text));
                t.insert_before(*sibling, n);
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &usize, attrs: Vec<Attribute>) {
        if gone(*target) {
            return;
        }
        let mut t = self.tree.borrow_mut();
        if let Kind::Element { attrs: existing, .. } = &mut t.nodes[*target].kind {
            // Capped as a tag's own attributes are: each `<body>` of a page adds its new ones.
            for a in attrs {
                if existing.len() >= super::MAX_ATTRIBUTES {
                    break;
                }
                if !existing.iter().any(|e| e.name == a.name) {
                    existing.push(a);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &usize) {
        if gone(*target) {
            return;
        }
        self.tree.borrow_mut().detach(*target);
    }

    fn reparent_children(&self, node: &usize, new_parent: &usize) {
        if gone(*node) {
            return;
        }
        let mut t = self.tree.borrow_mut();
        let mut child = t.nodes[*node].first();
        while child != NONE {
            let next = t.nodes[child].next();
            if gone(*new_parent) {
                t.detach(child);
            } else {
                t.append_node(*new_parent, child);
            }
            child = next;
        }
    }
}

/// Parse `html` and build the cleaned document; also how many elements the parser made.
///
/// html5gum's tokenizer feeds html5ever's tree builder through [`Bridge`], which holds back
/// nesting past `max_depth` and attributes past the cap. Every few dozen tags the tokenizer
/// returns control here: once more than `max_elements` elements exist, the rest is not parsed
/// (the caller refuses the page), and the elements the tree builder still makes are not built
/// ([`DISCARDED`]), so a page over budget costs no more memory than the budget's worth of
/// elements. Past `deadline` it stops likewise. Either way the document returned is empty.
pub fn parse(html: &str, max_depth: usize, max_elements: usize, deadline: Option<std::time::Instant>) -> Parsed {
    let first = parse_as(html, max_depth, max_elements, deadline, Scripts::On);
    if first.shown_without_scripts() {
        return parse_as(html, max_depth, max_elements, deadline, Scripts::Off);
    }
    first
}

/// Whether the page is read as a browser with scripts reads it (`<noscript>` content is text
/// that is not shown, and dropped) or as one without (`<noscript>` content is markup, shown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scripts {
    On,
    Off,
}

fn parse_as(html: &str, max_depth: usize, max_elements: usize, deadline: Option<std::time::Instant>, scripts: Scripts) -> Parsed {
    let elements = std::rc::Rc::new(std::cell::Cell::new(0));
    let opts = TreeBuilderOpts { scripting_enabled: scripts == Scripts::On, ..TreeBuilderOpts::default() };
    let builder = TreeBuilder::new(Sink::new(std::rc::Rc::clone(&elements), max_elements, html.len()), opts);
    // The tokenizer drops a leading byte order mark, as html5ever's does.
    let html = html.strip_prefix('\u{FEFF}').unwrap_or(html);
    let mut timed_out = false;
    {
        let tokenizer = html5gum::Tokenizer::new_with_emitter(Input::new(html), Bridge::new(&builder, html, max_depth));
        for _turn in tokenizer {
            if elements.get() > max_elements {
                break;
            }
            if deadline.is_some_and(|d| std::time::Instant::now() > d) {
                timed_out = true;
                break;
            }
        }
    }
    finish(builder.sink, &elements, max_elements, timed_out, scripts)
}

/// The cleaned document of what the sink holds, or an empty one for a page over a budget.
fn finish(sink: Sink, elements: &std::cell::Cell<usize>, max_elements: usize, timed_out: bool, scripts: Scripts) -> Parsed {
    let tree = sink.tree.into_inner();
    // A page over a budget is refused: its tree is dropped before a document is built of it.
    let (doc, noscript_text) = if elements.get() > max_elements || timed_out {
        drop(tree);
        flatten(&Tree::empty(), scripts, None)
    } else {
        // A page whose comment regions outweigh the little text it has outside them (a link
        // shared for discussion) is a discussion too: it is read again with its comments kept.
        let first = flatten(&tree, scripts, None);
        if first.0.comments_outweigh_own_text() {
            flatten(&tree, scripts, Some(true))
        } else {
            first
        }
    };
    Parsed { doc, elements: elements.get(), timed_out, noscript_text }
}

/// [`parse`] with html5ever's own tokenizer and no guard: the reference the token bridge is
/// checked against (the trees must be the same). Not for hostile input.
pub fn parse_reference(html: &str) -> Parsed {
    let first = parse_reference_as(html, Scripts::On);
    if first.shown_without_scripts() {
        return parse_reference_as(html, Scripts::Off);
    }
    first
}

fn parse_reference_as(html: &str, scripts: Scripts) -> Parsed {
    use html5ever::tendril::TendrilSink;
    let elements = std::rc::Rc::new(std::cell::Cell::new(0));
    let opts = html5ever::ParseOpts {
        tree_builder: TreeBuilderOpts { scripting_enabled: scripts == Scripts::On, ..TreeBuilderOpts::default() },
        ..Default::default()
    };
    let parser = html5ever::parse_document(Sink::new(std::rc::Rc::clone(&elements), usize::MAX, html.len()), opts);
    let sink = parser.one(StrTendril::from_slice(html));
    finish(sink, &elements, usize::MAX, false, scripts)
}

/// What [`parse`] made of a page.
pub struct Parsed {
    /// The cleaned tree (of the part read, when parsing stopped early).
    pub doc: Doc,
    /// Elements the parser created.
    pub elements: usize,
    /// Parsing stopped at the deadline.
    pub timed_out: bool,
    /// Non-space characters of the text inside the body's `<noscript>` elements, which a
    /// browser with scripts does not show (0 when the page was read without scripts).
    pub noscript_text: usize,
}

impl Parsed {
    /// Does the page show its content only to readers without scripts? Its `<noscript>` text
    /// outweighs the rest of its text (a forum that renders by script, say): then it is read
    /// again as such a reader reads it.
    fn shown_without_scripts(&self) -> bool {
        self.noscript_text > 0 && self.noscript_text > self.doc.text_size(self.doc.body)
    }
}

/// The schema.org type of a page that is a discussion: a forum thread, whose posts are its
/// content. (A questions-and-answers page, `QAPage`, keeps its answers outside comment regions
/// and its comments in them, as an article does.)
const DISCUSSION_TYPES: [&str; 1] = ["DiscussionForumPosting"];

/// Does the page declare itself a discussion (a schema.org [`DISCUSSION_TYPES`] type, in
/// microdata `itemtype` or in JSON-LD)? Then its comment regions are its content (the posts),
/// not readers' comments below an article. One walk of the linked tree (explicit stack).
fn discussion_is_content(tree: &Tree) -> bool {
    let declares = |v: &str| DISCUSSION_TYPES.iter().any(|t| v.contains(t));
    let mut stack = vec![tree.nodes[0].first()];
    while let Some(cur) = stack.pop() {
        if cur == NONE {
            continue;
        }
        let node = &tree.nodes[cur];
        stack.push(node.next());
        let Kind::Element { name, attrs, .. } = &node.kind else { continue };
        let attr = |k: &LocalName| attrs.iter().find(|a| a.name.local == *k).map(|a| &*a.value);
        if attr(&html5ever::local_name!("itemtype")).is_some_and(declares) {
            return true;
        }
        if &*name.local == "script" {
            let json_ld = attr(&html5ever::local_name!("type")).is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
            if json_ld && matches!(tree.nodes.get(node.first()).map(|n| &n.kind), Some(Kind::Text(t)) if declares(t)) {
                return true;
            }
            continue;
        }
        stack.push(node.first());
    }
    false
}

/// Does the subtree of source node `n` hold an `h1`? A region whose class or id speaks of
/// comments but that holds the page's main heading is the article itself (a "comment" piece,
/// an opinion column), not its reader comments. The answer for every node is worked out in one
/// pass the first time it is asked: each `h1` marks its ancestors up to one already marked.
fn holds_h1(tree: &Tree, headed: &mut Option<Vec<bool>>, n: usize) -> bool {
    let marks = headed.get_or_insert_with(|| {
        let mut marks = vec![false; tree.nodes.len()];
        for (i, node) in tree.nodes.iter().enumerate() {
            if matches!(&node.kind, Kind::Element { name, .. } if &*name.local == "h1") {
                let mut j = i;
                while j != NONE && !marks[j] {
                    marks[j] = true;
                    j = tree.nodes[j].parent();
                }
            }
        }
        marks
    });
    marks.get(n).copied().unwrap_or(false)
}

/// After element `id` of a `pre` closes, before its next sibling `next`: when it is a code line
/// a highlighter marks as such (`<span class="line">`, Shiki's) and neither it nor `next`
/// breaks the line, a line break, which the page's CSS makes and minified markup leaves out
/// (without it, `npm create vite` and `cd my-project` run together).
fn end_code_line(tree: &Tree, doc: &mut Doc, id: NodeId, next: usize) {
    let NodeData::Element(e) = &doc.nodes[id as usize].data else { return };
    if next == NONE || !e.attr("class").is_some_and(|c| c.split_ascii_whitespace().any(|n| n == "line")) {
        return;
    }
    let breaks = |t: &str| t.starts_with(['\n', '\r']);
    let ends_line = matches!(doc.nodes.last().map(|n| &n.data), Some(NodeData::Text(t)) if t.ends_with('\n'));
    if ends_line || matches!(&tree.nodes[next].kind, Kind::Text(t) if breaks(t)) {
        return;
    }
    let (Some(parent), level) = (doc.nodes[id as usize].parent, doc.nodes[id as usize].level) else { return };
    push_text(doc, parent, level, "\n");
}

/// Walk the linked tree in document order (explicit stack) into the cleaned arena, applying
/// the cleaner's rules (see the module documentation of [`super`]); also the non-space
/// characters of the body's `<noscript>` text, which a browser with scripts does not show (kept
/// as markup when the page is read without scripts). `discussion` says whether the page's
/// comment regions are its content; when `None`, it is looked for once, at the page's first
/// comment region (most pages have none, and pay nothing), in what the page declares.
fn flatten(tree: &Tree, scripts: Scripts, mut discussion: Option<bool>) -> (Doc, usize) {
    let mut noscript_text = 0usize;
    // Bytes of reader comments kept aside so far.
    let mut comments_len = 0usize;
    let mut doc = Doc { nodes: Vec::with_capacity(tree.nodes.len()), by_dfs: Vec::with_capacity(tree.nodes.len() / 2), ..Doc::default() };
    let mut title: Option<(NodeId, String)> = None;
    let mut in_head = false;
    // `pre` elements open.
    let mut in_pre = 0usize;
    // (source node, our node or None when the element was not kept but is walked: never),
    // as a stack of source nodes whose children are being visited.
    let mut open: Vec<(usize, NodeId)> = Vec::new();
    let mut cur = tree.nodes[0].first();
    let mut seen_root = false;
    // Per source node: does its subtree hold an `h1`? Worked out once, when first asked.
    let mut headed: Option<Vec<bool>> = None;
    while cur != NONE || !open.is_empty() {
        if cur == NONE {
            // Close the innermost open element and go on with its next sibling.
            let Some((src, id)) = open.pop() else { break };
            doc.nodes[id as usize].end = doc.nodes.len() as NodeId;
            if matches!(&doc.nodes[id as usize].data, NodeData::Element(e) if e.name == "head") {
                in_head = false;
            }
            cur = tree.nodes[src].next();
            if in_pre > 0 {
                in_pre -= usize::from(matches!(&doc.nodes[id as usize].data, NodeData::Element(e) if e.name == "pre"));
                end_code_line(tree, &mut doc, id, cur);
            }
            continue;
        }
        let node = &tree.nodes[cur];
        match &node.kind {
            Kind::Element { name, attrs, .. } => {
                let local: &str = &name.local;
                // Attributes are looked up by interned name (one integer compare each).
                let attr = |k: &LocalName| attrs.iter().find(|a| a.name.local == *k).map(|a| &*a.value);
                let shown_noscript = scripts == Scripts::Off && local == "noscript" && !in_head;
                let comment = is_comment_region(local, attr(&html5ever::local_name!("id")), attr(&html5ever::local_name!("class")))
                    && !holds_h1(tree, &mut headed, cur)
                    && !*discussion.get_or_insert_with(|| discussion_is_content(tree));
                let dropped = (is_dropped(&name.local) && !shown_noscript) || (in_head && local != "title") || comment || (open.is_empty() && seen_root);
                if dropped {
                    let room = Doc::MAX_COMMENTS.saturating_sub(comments_len);
                    if !in_head && comment && room > 0 {
                        let mut text = region_text(tree, cur);
                        if text.len() > room {
                            let mut cut = room;
                            while !text.is_char_boundary(cut) {
                                cut -= 1;
                            }
                            text.truncate(cut);
                        }
                        if !text.is_empty() {
                            comments_len += text.len();
                            doc.comments.push(text);
                        }
                    }
                    // A formula's TeX stays in the text, between dollars (MathML's `alttext`
                    // or TeX annotation, MathJax's `math/tex` script).
                    if let (Some(tex), Some(&(_, parent))) = (formula(tree, cur, local, attrs), open.last()) {
                        push_text(&mut doc, parent, open.len() as u32 + 1, &tex);
                    }
                    if local == "noscript" && !in_head {
                        if let Some(Kind::Text(t)) = tree.nodes.get(node.first()).map(|n| &n.kind) {
                            noscript_text += super::non_space_chars(t);
                        }
                    }
                    if matches!(local, "meta" | "link" | "script") {
                        let owned = |k: &str| attr(&LocalName::from(k)).map(str::to_string);
                        let text = match tree.nodes.get(node.first()).map(|n| &n.kind) {
                            Some(Kind::Text(t)) => Some(&**t),
                            _ => None,
                        };
                        doc.head.keep(local, &owned, text);
                    }
                    cur = node.next();
                    continue;
                }
                seen_root = true;
                let id = doc.nodes.len() as NodeId;
                let dfs = doc.by_dfs.len() as u32;
                doc.by_dfs.push(id);
                let element = Element {
                    name: Name::xml(&name.local),
                    attrs: clean_attrs(attrs.iter().map(|a| (&a.name.local, &*a.value))),
                    dfs,
                };
                if id == 0 {
                    doc.lang = element.attr("lang").map(str::to_string);
                }
                match local {
                    "head" => in_head = node.first() != NONE,
                    "body" if doc.body == 0 => doc.body = id,
                    // The page's title is its first HTML `title`, wherever the parser put it
                    // (a `<title>` after body content lands in the body), as browsers read it.
                    "title" if title.is_none() && name.ns == html5ever::ns!(html) => title = Some((id, String::new())),
                    _ => {}
                }
                doc.nodes.push(Node {
                    parent: open.last().map(|&(_, i)| i),
                    end: id + 1,
                    level: open.len() as u32 + 1,
                    data: NodeData::Element(element),
                });
                if node.first() != NONE {
                    in_pre += usize::from(local == "pre");
                    open.push((cur, id));
                    cur = node.first();
                } else {
                    cur = node.next();
                }
            }
            Kind::Text(t) => {
                if let Some(&(_, parent)) = open.last() {
                    if let Some((_, title)) = title.as_mut().filter(|(at, _)| *at == parent) {
                        title.push_str(t);
                    }
                    if !permalink_sign(&doc, parent, t) {
                        push_text(&mut doc, parent, open.len() as u32 + 1, t);
                    }
                }
                cur = node.next();
            }
            Kind::Document | Kind::Other => cur = node.next(),
        }
    }
    doc.title = collapse_ws(title.as_ref().map_or("", |(_, t)| t));
    // The arena was sized for every parsed node, the dropped ones (head, scripts, comments)
    // too; the page keeps only what it holds.
    doc.nodes.shrink_to_fit();
    doc.by_dfs.shrink_to_fit();
    doc.discussion = discussion == Some(true);
    (doc, noscript_text)
}

/// Signs a section's permalink shows.
const PERMALINK_SIGNS: &[&str] = &["¶", "§", "#", "🔗"];

/// Is `t`, the text of element `parent`, a permalink's sign: a link to a fragment of the page
/// (`<a class=headerlink href="#models">¶</a>` after a heading's text) whose only text is
/// one of [`PERMALINK_SIGNS`]? Its sign is decoration, left out of the page's text (the link
/// stays, empty).
fn permalink_sign(doc: &Doc, parent: NodeId, t: &str) -> bool {
    let sign = t.trim();
    PERMALINK_SIGNS.contains(&sign)
        && doc.element(parent).is_some_and(|e| e.name == "a" && e.attr("href").is_some_and(|h| h.starts_with('#')))
}
