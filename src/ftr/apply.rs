//! Apply a site config: XPaths evaluated by sxd-xpath on the cleaned page's XML, parsed once per
//! page, results mapped back to the page's nodes (elements by `dfs`, text nodes in document
//! order).

use super::SiteConfig;
use crate::clean::{collapse_ws, Doc, NodeData, NodeId};
use crate::extract::{Extraction, Extractor, Rule};
use crate::wrapper::literal;
use crate::{Error, Page, Result};
use std::cell::OnceCell;
use std::collections::HashMap;
use sxd_document::dom::{ChildOfElement, Document, Element};
use sxd_xpath::nodeset::Node as XNode;
use sxd_xpath::Value;
use crate::wrapper::xpath::{self, Meter, Program};

/// An XPath compiled to run metered (see [`crate::wrapper::xpath`]).
pub(super) struct Compiled {
    program: Program,
}

/// Compile an XPath (the message says why it is refused).
pub(super) fn compile(expr: &str) -> std::result::Result<Compiled, String> {
    Program::compile(expr).map(|program| Compiled { program }).map_err(|why| format!("XPath {expr:?} refused: {why}"))
}

fn compile_all<'a>(exprs: impl IntoIterator<Item = &'a String>) -> Result<Vec<Compiled>> {
    exprs
        .into_iter()
        .map(|x| compile(x).map_err(|message| Error::XPath { xpath: x.clone(), message }))
        .collect()
}

/// A site config made ready to apply: its XPaths compiled once.
///
/// # Example
/// ```
/// use forest::Extractor;
/// let (cfg, _) = forest::ftr::SiteConfig::parse("body: //article\nstrip_id_or_class: share\n", "example.com.txt")?;
/// let applier = forest::ftr::ConfigApplier::new(cfg)?;
/// let html = "<nav>Home</nav><article><p>The story.</p><div class='share-bar'>Share</div></article>";
/// let page = forest::Page::from_html("p", html);
/// assert_eq!(applier.extract(&page)?.text, "The story.");
/// # Ok::<(), forest::Error>(())
/// ```
pub struct ConfigApplier {
    config: SiteConfig,
    body: Vec<Compiled>,
    title: Vec<Compiled>,
    strip: Vec<Compiled>,
    date: Vec<Compiled>,
    author: Vec<Compiled>,
}

impl ConfigApplier {
    /// Compile the config's XPaths (`strip_id_or_class: v` as
    /// `//*[contains(@class,'v') or contains(@id,'v')]`, `strip_image_src: v` as
    /// `//img[contains(@src,'v')]`; quotes around `v` are dropped).
    ///
    /// # Errors
    /// [`Error::XPath`] for an XPath that does not compile.
    pub fn new(config: SiteConfig) -> Result<ConfigApplier> {
        let unquote = |v: &str| v.trim().trim_matches(|c| c == '\'' || c == '"').to_string();
        let mut strips = config.strip.clone();
        for v in config.strip_id_or_class.iter().map(|v| unquote(v)).filter(|v| !v.is_empty()) {
            let v = literal(&v);
            strips.push(format!("//*[contains(@class,{v}) or contains(@id,{v})]"));
        }
        for v in config.strip_image_src.iter().map(|v| unquote(v)).filter(|v| !v.is_empty()) {
            strips.push(format!("//img[contains(@src,{})]", literal(&v)));
        }
        Ok(ConfigApplier {
            body: compile_all(&config.body)?,
            title: compile_all(&config.title)?,
            strip: compile_all(&strips)?,
            date: compile_all(&config.date)?,
            author: compile_all(&config.author)?,
            config,
        })
    }

    /// The config applied.
    pub fn config(&self) -> &SiteConfig {
        &self.config
    }

    /// The page's date: the first `date` XPath that gives a non-empty string (a string result,
    /// or the text of the first node selected), white space collapsed.
    pub fn date(&self, doc: &Doc) -> Option<String> {
        self.declared(doc).0
    }

    /// The page's authors: the non-empty strings of the first `author` XPath that gives any
    /// (a string result, or the text of each node selected), white space collapsed, each once.
    pub fn author(&self, doc: &Doc) -> Vec<String> {
        self.declared(doc).1
    }

    /// [`ConfigApplier::date`] and [`ConfigApplier::author`] at once: the page's XML is parsed
    /// once for both, and not at all when the config has neither directive.
    pub fn declared(&self, doc: &Doc) -> (Option<String>, Vec<String>) {
        if self.date.is_empty() && self.author.is_empty() {
            return (None, Vec::new());
        }
        let Ok(package) = parse_xml(doc) else { return (None, Vec::new()) };
        let ev = Eval::new(doc, &package);
        let date = self.date.iter().find_map(|c| ev.strings(c).into_iter().next());
        let mut authors = Vec::new();
        for c in &self.author {
            for s in ev.strings(c) {
                if !authors.contains(&s) {
                    authors.push(s);
                }
            }
            if !authors.is_empty() {
                break;
            }
        }
        (date, authors)
    }

    /// The block: the elements of the first `body` XPath that selects elements with text,
    /// nested ones merged into the outermost, in document order (empty when none does).
    fn block(&self, ev: &Eval) -> Result<Vec<NodeId>> {
        for c in &self.body {
            let nodes: Vec<NodeId> = ev.nodes(c)?.into_iter().filter(|&n| ev.doc.element(n).is_some()).collect();
            let nodes = outermost(ev.doc, nodes);
            if has_text(ev.doc, &nodes) {
                return Ok(nodes);
            }
        }
        Ok(Vec::new())
    }

    /// Per node: cut by a strip rule, inside the block (empty when nothing is).
    fn skip(&self, ev: &Eval, block: &[NodeId]) -> Result<Vec<bool>> {
        let mut cut = Vec::new();
        for c in &self.strip {
            cut.extend(ev.nodes(c)?);
        }
        cut.sort_unstable();
        cut.dedup();
        let cut = outermost(ev.doc, cut);
        let doc = ev.doc;
        let mut skip = vec![false; doc.nodes.len()];
        let mut any = false;
        for &s in &cut {
            let s_end = end_of(doc, s);
            for &r in block {
                let (lo, hi) = (s.max(r), s_end.min(end_of(doc, r)));
                for m in skip.iter_mut().take(hi as usize).skip(lo as usize) {
                    *m = true;
                    any = true;
                }
            }
        }
        if !any {
            skip.clear();
        }
        Ok(skip)
    }

    /// The headline: the first element of the first `title` XPath that selects one, when it
    /// stands before the block and outside it and has text.
    fn headline(&self, ev: &Eval, block: &[NodeId]) -> Result<Option<NodeId>> {
        for c in &self.title {
            let first = match ev.value(c)? {
                Value::Nodeset(set) => ev.node_ids(&set).into_iter().find(|&n| ev.doc.element(n).is_some()),
                _ => None,
            };
            if let Some(h) = first {
                return Ok(stands_before(ev.doc, h, block).then_some(h));
            }
        }
        Ok(None)
    }
}

/// Does `h` stand before the block, outside it, with text?
pub(super) fn stands_before(doc: &Doc, h: NodeId, block: &[NodeId]) -> bool {
    match block.first() {
        Some(&first) => h < first && end_of(doc, h) <= first && text_size(doc, h) > 0,
        None => false,
    }
}

impl Extractor for ConfigApplier {
    fn name(&self) -> &str {
        "site-config"
    }

    /// The block's text without the stripped parts (unless that leaves nothing), after the
    /// headline; the single-page extractor when no `body` XPath matches ([`Rule::SinglePage`]).
    fn extract(&self, page: &Page) -> Result<Extraction> {
        let doc = &page.doc;
        let package = parse_xml(doc)?;
        let ev = Eval::within(doc, &package, &Meter::for_page(page));
        let block = self.block(&ev)?;
        if block.is_empty() {
            let text = crate::baselines::boilerpipe::extract(doc);
            if text.trim().is_empty() {
                return Ok(Extraction::new(vec![doc.body], doc.text(doc.body), Rule::WholePage));
            }
            return Ok(Extraction::new(Vec::new(), text, Rule::SinglePage));
        }
        let mut skip = self.skip(&ev, &block)?;
        let mut text = doc.text_masked(&block, &skip);
        if text.is_empty() {
            text = doc.text_of(&block);
            skip.clear();
        }
        let headline = self.headline(&ev, &block)?;
        if let Some(h) = headline {
            text = format!("{}\n\n{text}", doc.text(h));
        }
        Ok(Extraction { nodes: block, text, rule: Rule::Exact, skip, headline })
    }
}

/// The cleaned page as an sxd document, adjacent text nodes merged.
pub(super) fn parse_xml(doc: &Doc) -> Result<sxd_document::Package> {
    let package = sxd_document::parser::parse(&doc.to_xml())
        .map_err(|e| Error::XPath { xpath: String::new(), message: format!("cleaned page is not XML: {e:?}") })?;
    merge_texts(package.as_document());
    Ok(package)
}

fn root_element(document: Document<'_>) -> Option<Element<'_>> {
    document.root().children().into_iter().find_map(|c| c.element())
}

/// Merge each run of adjacent text nodes into its first (the parser splits text at entity
/// references; the page and XPath's data model have one text node per run).
fn merge_texts(document: Document<'_>) {
    let Some(root) = root_element(document) else { return };
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        let mut run: Option<(sxd_document::dom::Text, Option<String>)> = None;
        let mut merged = Vec::new();
        let flush = |run: &mut Option<(sxd_document::dom::Text, Option<String>)>| {
            if let Some((first, Some(text))) = run.take() {
                first.set_text(&text);
            }
        };
        for child in e.children() {
            match child {
                ChildOfElement::Text(t) => match &mut run {
                    Some((first, text)) => {
                        text.get_or_insert_with(|| first.text().to_string()).push_str(t.text());
                        merged.push(t);
                    }
                    None => run = Some((t, None)),
                },
                other => {
                    flush(&mut run);
                    if let ChildOfElement::Element(x) = other {
                        stack.push(x);
                    }
                }
            }
        }
        flush(&mut run);
        for t in merged {
            e.remove_child(t);
        }
    }
}

/// XPath evaluation on one parsed page, results mapped back to the page's nodes; every
/// evaluation counts against one meter (the page's node-visit budget and deadline).
pub(super) struct Eval<'d> {
    doc: &'d Doc,
    document: Document<'d>,
    context: sxd_xpath::Context<'d>,
    /// Node of each text node of the XML (built when a result first holds text).
    texts: OnceCell<HashMap<XNode<'d>, NodeId>>,
}

impl<'d> Eval<'d> {
    /// Within the default node-visit budget, no deadline.
    pub(super) fn new(doc: &'d Doc, package: &'d sxd_document::Package) -> Eval<'d> {
        Eval::within(doc, package, &Meter::default())
    }

    pub(super) fn within(doc: &'d Doc, package: &'d sxd_document::Package, meter: &Meter) -> Eval<'d> {
        Eval { doc, document: package.as_document(), context: xpath::context(meter), texts: OnceCell::new() }
    }

    fn value(&self, c: &Compiled) -> Result<Value<'d>> {
        let p = &c.program;
        p.evaluate(&self.context, self.document.root()).map_err(|e| crate::wrapper::eval_error(p.source(), e))
    }

    /// The elements and text nodes selected, in document order.
    ///
    /// # Errors
    /// [`Error::XPath`] when evaluation fails or the value is not a node set.
    pub(super) fn nodes(&self, c: &Compiled) -> Result<Vec<NodeId>> {
        let Value::Nodeset(set) = self.value(c)? else {
            return Err(Error::XPath { xpath: c.program.source().to_string(), message: "does not select nodes".into() });
        };
        Ok(self.node_ids(&set))
    }

    /// The page's nodes for the elements and text nodes of `set`, in document order.
    fn node_ids(&self, set: &sxd_xpath::nodeset::Nodeset<'d>) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(set.size());
        for n in set.iter() {
            let id = match n {
                XNode::Element(e) => self.element_node(e),
                XNode::Text(_) => self.text_map().get(&n).copied(),
                _ => None,
            };
            out.extend(id);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A string result, or the text of each node selected: white space collapsed, non-empty.
    fn strings(&self, c: &Compiled) -> Vec<String> {
        let texts = match self.value(c) {
            Ok(Value::Nodeset(set)) => set.document_order().iter().map(XNode::string_value).collect(),
            Ok(Value::String(s)) => vec![s],
            _ => Vec::new(),
        };
        texts.iter().map(|s| collapse_ws(s)).filter(|s| !s.is_empty()).collect()
    }

    fn element_node(&self, e: Element<'d>) -> Option<NodeId> {
        self.doc.by_dfs(e.attribute_value("dfs")?.parse().ok()?)
    }

    /// Text nodes of the XML to the page's: both in document order, one for one (checked on
    /// the elements' `dfs`; the map stops where they part, which a cleaned page never does).
    #[allow(clippy::mutable_key_type)] // sxd nodes hash and compare by node address, which never changes
    fn text_map(&self) -> &HashMap<XNode<'d>, NodeId> {
        self.texts.get_or_init(|| {
            let mut map = HashMap::new();
            let doc = self.doc;
            let is_element = |i: usize, e: Element<'d>| {
                let dfs = e.attribute_value("dfs").and_then(|v| v.parse::<u32>().ok());
                doc.element(i as NodeId).is_some_and(|x| Some(x.dfs) == dfs)
            };
            let Some(root) = root_element(self.document) else { return map };
            if !is_element(0, root) {
                return map;
            }
            let mut next = 1usize;
            let mut stack = vec![root.children().into_iter()];
            while let Some(top) = stack.last_mut() {
                let Some(child) = top.next() else {
                    stack.pop();
                    continue;
                };
                match child {
                    ChildOfElement::Element(e) => {
                        if !is_element(next, e) {
                            break;
                        }
                        next += 1;
                        stack.push(e.children().into_iter());
                    }
                    ChildOfElement::Text(t) => {
                        if !matches!(doc.nodes.get(next).map(|n| &n.data), Some(NodeData::Text(_))) {
                            break;
                        }
                        map.insert(XNode::Text(t), next as NodeId);
                        next += 1;
                    }
                    _ => {}
                }
            }
            map
        })
    }
}

/// One past the last node of the subtree at `id`.
pub(super) fn end_of(doc: &Doc, id: NodeId) -> NodeId {
    doc.nodes.get(id as usize).map_or(id, |n| n.end)
}

/// Keep only nodes not inside another (input sorted in document order).
pub(super) fn outermost(doc: &Doc, nodes: Vec<NodeId>) -> Vec<NodeId> {
    let mut out: Vec<NodeId> = Vec::with_capacity(nodes.len());
    for n in nodes {
        if out.last().is_none_or(|&last| !(last <= n && n < end_of(doc, last))) {
            out.push(n);
        }
    }
    out
}

/// Non-white-space characters of text in the subtree at `id`.
fn text_size(doc: &Doc, id: NodeId) -> usize {
    let (start, end) = (id as usize, end_of(doc, id) as usize);
    doc.nodes
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .map(|n| match &n.data {
            NodeData::Text(t) => t.chars().filter(|c| !c.is_whitespace()).count(),
            NodeData::Element(_) => 0,
        })
        .sum()
}

pub(super) fn has_text(doc: &Doc, nodes: &[NodeId]) -> bool {
    nodes.iter().any(|&n| text_size(doc, n) > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><head><title>Big news today - Example</title></head><body>\
        <nav class='menu'><a href='/'>Home</a></nav>\
        <h1 class='headline'>Big news today</h1>\
        <div class='article-body'><p>First paragraph of the story.</p>\
        <div class='share-tools'>Share: <a href='#f'>Facebook</a></div>\
        <p>Tom &amp; Jerry went <a href='/x'>home</a>.</p>\
        <div id='related-box'><a href='/y'>Other story</a></div>\
        <img src='/t/pixel.gif'><p>Last paragraph.</p></div>\
        <p class='byline'>By <a>Ann Lee</a> and <a>Bo Chen</a> on <time datetime='2024-03-04'>March 4</time></p>\
        </body></html>";

    fn applier(text: &str) -> ConfigApplier {
        ConfigApplier::new(SiteConfig::parse(text, "t.txt").unwrap().0).unwrap()
    }

    #[test]
    fn applies_body_strip_and_title() {
        let page = Page::from_html("p", PAGE);
        let a = applier(
            "body: //section\nbody: //div[@class='article-body']\ntitle: //h1\nstrip: //div[@class='share-tools']\n\
             strip: //div[@class='article-body']/p/text()[normalize-space(.)='.']\nstrip_id_or_class: related\nstrip_image_src: pixel",
        );
        assert_eq!(a.name(), "site-config");
        let e = a.extract(&page).unwrap();
        assert_eq!(e.rule, Rule::Exact);
        assert_eq!(e.text, "Big news today\n\nFirst paragraph of the story.\n\nTom & Jerry went home\n\nLast paragraph.");
        let h = e.headline.unwrap();
        assert_eq!(page.doc.element(h).unwrap().name, "h1");
        assert_eq!(e.nodes.len(), 1);
        assert!(e.skip.iter().any(|&s| s));
        // A title inside the block is not put first.
        let inside = applier("body: //body\ntitle: //h1");
        let e = inside.extract(&page).unwrap();
        assert!(e.headline.is_none() && e.text.starts_with("Home\n"), "{}", e.text);
    }

    #[test]
    fn no_body_match_falls_back_to_the_single_page_extractor() {
        let long = "The council met on Monday evening and voted to repair the old bridge over the river before the winter. ";
        let html = format!("<nav><a>Home</a></nav><div><p>{}</p><p>{}</p></div><footer><a>About</a></footer>", long.repeat(4), long.repeat(3));
        let e = applier("body: //section\n").extract(&Page::from_html("p", &html)).unwrap();
        assert_eq!(e.rule, Rule::SinglePage);
        assert!(e.text.contains("The council met"), "{}", e.text);
        assert_eq!(applier("body: //section\n").extract(&Page::from_html("p", "<p>x</p>")).unwrap().rule, Rule::WholePage);
        let page = Page::from_html("p", PAGE);
        // Nested matches are merged into the outermost.
        let e = applier("body: //div[@class='article-body'] | //div[@class='article-body']/p\n").extract(&page).unwrap();
        assert_eq!(e.nodes.len(), 1);
        // A body XPath that gives a string is an error, not a silent miss.
        assert!(applier("body: string(//h1)\n").extract(&page).is_err());
    }

    #[test]
    fn reads_date_and_authors() {
        let page = Page::from_html("p", PAGE);
        let a = applier("date: //time[@class='none']\ndate: string(//time/@datetime)\nauthor: //p[@class='byline']/a\nauthor: //p\n");
        assert_eq!(a.date(&page.doc).as_deref(), Some("2024-03-04"));
        assert_eq!(a.author(&page.doc), ["Ann Lee", "Bo Chen"]);
        let none = applier("body: //p\n");
        assert_eq!(none.date(&page.doc), None);
        assert!(none.author(&page.doc).is_empty());
    }

    #[test]
    fn text_nodes_map_back_across_entities() {
        let doc = crate::clean::page("<p>a &amp; b<b>x</b>&lt;c&gt;.</p><p>.</p>");
        let package = parse_xml(&doc).unwrap();
        let ev = Eval::new(&doc, &package);
        let texts = ev.nodes(&compile("//p/text()").unwrap()).unwrap();
        let got: Vec<&str> = texts
            .iter()
            .map(|&n| match &doc.nodes[n as usize].data {
                NodeData::Text(t) => t.as_str(),
                NodeData::Element(_) => "<element>",
            })
            .collect();
        assert_eq!(got, ["a & b", "<c>.", "."]);
        let dots = ev.nodes(&compile("//p/text()[normalize-space(.)='.']").unwrap()).unwrap();
        assert_eq!(dots, [*texts.last().unwrap()]);
    }
}
