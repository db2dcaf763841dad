//! Extract: apply a wrapper to any page of its site, with fallbacks for pages it never saw.
//!
//! The wrapper's XPath is evaluated on the page ([`Rule::Exact`]): compiled to run on the tree
//! directly when it is of the subset induction writes ([`CompiledPath`]), else by sxd-xpath on
//! the page's cleaned XML (any XPath 1.0 a user writes into the wrapper).
//! A page outside the sample has other `dfs` numbers, so when the XPath selects nothing with
//! text, these rules are tried in order and the one that fired is reported:
//!
//! 1. [`Rule::SameTypeSameLevel`]: elements of the winning pattern's type (tag and tolerant
//!    id/class; for a type known only by its dfs, the tag under a parent of the recorded
//!    parent type) at the pattern's level;
//! 2. [`Rule::Alternative`]: the patterns induced for sample pages the winner does not occur on
//!    (sites with several templates), each tried exactly (type and dfs), then by type at its level;
//! 3. [`Rule::SameType`]: the winning type at any level;
//! 4. [`Rule::Candidate`]: the next-ranked patterns kept in the wrapper, each tried exactly and
//!    then by type at its level;
//! 5. [`Rule::SinglePage`]: nothing of the site's patterns is on the page; the single-page
//!    extractor ([`crate::baselines::boilerpipe`]) takes over, and says so with a low
//!    [`Rule::confidence`]. ([`Rule::WholePage`], the body, only when it finds nothing.)
//!
//! When a rule selects several elements, nested ones are merged into the outermost and the
//! text of each is output in document order; for the type rules (1–3) only the element with
//! the most text is kept, since on a new page a type may also match unrelated blocks.

use crate::clean::{Doc, NodeData, NodeId};
use crate::patterns::{ElementType, Typer};
use crate::template::Template;
use crate::wrapper::compiled::CompiledPath;
use crate::wrapper::xpath::{self, Meter, Program};
use crate::wrapper::{Choice, Wrapper};
use crate::{Error, Page, Result};

/// Which rule selected the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "rule", content = "candidate")]
pub enum Rule {
    /// The wrapper's XPath matched.
    Exact,
    /// Same element type at the same level.
    SameTypeSameLevel,
    /// Same element type at any level.
    SameType,
    /// The n-th alternative pattern (for a template the winner does not cover; 0 = first).
    Alternative(usize),
    /// The n-th kept candidate (1 = runner-up).
    Candidate(usize),
    /// Nothing matched: the whole body.
    WholePage,
    /// A single-page method (a baseline), no wrapper involved.
    SinglePage,
}

impl Rule {
    /// Short name: `exact`, `same-type-same-level`, `same-type`, `candidate-2`, `whole-page`.
    pub fn name(&self) -> String {
        match self {
            Rule::Exact => "exact".into(),
            Rule::SameTypeSameLevel => "same-type-same-level".into(),
            Rule::SameType => "same-type".into(),
            Rule::Alternative(n) => format!("alternative-{}", n + 1),
            Rule::Candidate(n) => format!("candidate-{}", n + 1),
            Rule::WholePage => "whole-page".into(),
            Rule::SinglePage => "single-page".into(),
        }
    }

    /// How much to trust the output: `high` (the wrapper's XPath), `medium` (the wrapper's
    /// patterns found by type or as alternatives), `low` (other candidates, single-page).
    pub fn confidence(&self) -> &'static str {
        match self {
            Rule::Exact => "high",
            Rule::SameTypeSameLevel | Rule::SameType | Rule::Alternative(_) => "medium",
            Rule::Candidate(_) | Rule::WholePage | Rule::SinglePage => "low",
        }
    }

    /// Is this a fallback (anything but the exact XPath)?
    pub fn is_fallback(&self) -> bool {
        *self != Rule::Exact
    }
}

/// What an extractor took from one page.
#[derive(Debug, Clone)]
pub struct Extraction {
    /// The selected elements, in document order.
    pub nodes: Vec<NodeId>,
    /// Their readable text.
    pub text: String,
    /// The rule that selected them.
    pub rule: Rule,
    /// Per node of the page: cut from the output inside the selected elements (site template,
    /// link blocks, a site config's `strip`); empty when nothing is cut.
    pub skip: Vec<bool>,
    /// The headline put before the selected elements (it stands outside them), if any.
    pub headline: Option<NodeId>,
}

impl Extraction {
    /// An extraction of `nodes` with their `text`, nothing cut and no headline added.
    pub fn new(nodes: Vec<NodeId>, text: String, rule: Rule) -> Extraction {
        Extraction { nodes, text, rule, skip: Vec::new(), headline: None }
    }
}

/// Anything that takes the article out of a page: the wrapper and every baseline.
///
/// A [`Method`] makes one per site from the site's sample pages (like tantivy's
/// `Collector::for_segment`): the wrapper learns there, single-page baselines ignore them.
pub trait Extractor {
    /// The method's name (`forest`, `boilerpipe`, …).
    fn name(&self) -> &str;
    /// Extract the article of one page.
    ///
    /// # Errors
    /// Implementation-specific; the wrapper fails only on an invalid XPath.
    fn extract(&self, page: &Page) -> Result<Extraction>;
}

/// An extraction method: fitted on a site's sample pages, it gives that site's [`Extractor`].
pub trait Method: Sync {
    /// The method's name in tables and on the command line.
    fn name(&self) -> &str;
    /// Learn from the site's sample pages (single-page methods learn nothing).
    ///
    /// # Errors
    /// When the method cannot work on these samples (e.g. Forest with fewer than 2 pages).
    fn fit(&self, samples: &[&Page]) -> Result<Box<dyn Extractor>>;

    /// Does the extractor ignore the samples (a single-page method)? Then its output on a
    /// page is the same whatever it was fitted on.
    fn single_page(&self) -> bool {
        false
    }
}

/// Forest as a [`Method`]: induce a wrapper on the samples, apply it with fallbacks.
pub struct Forest {
    /// Name in tables (`forest-tfidf`, `forest-feeds`, `coverage`, …).
    pub name: String,
    /// Induction settings.
    pub config: crate::Config,
}

impl Method for Forest {
    fn name(&self) -> &str {
        &self.name
    }

    fn fit(&self, samples: &[&Page]) -> Result<Box<dyn Extractor>> {
        let induction = Wrapper::induce(&self.name, samples, &self.config)?;
        Ok(Box::new(Applier::new(induction.wrapper)?))
    }
}

/// A wrapper made ready to apply: its XPath compiled once.
pub struct Applier {
    wrapper: Wrapper,
    /// The XPath for the general evaluator, metered (see [`crate::wrapper::xpath`]).
    xpath: Program,
    /// The XPath compiled to run on the tree directly, when it is of the induced subset.
    compiled: Option<CompiledPath>,
    template: Template,
}

impl Applier {
    /// Compile the wrapper's XPath.
    ///
    /// # Errors
    /// [`Error::XPath`] when the XPath does not parse or is refused (see
    /// [`crate::wrapper::check_xpath_cost`]).
    pub fn new(wrapper: Wrapper) -> Result<Applier> {
        let xpath = crate::wrapper::compile_xpath(&wrapper.xpath)?;
        let template = Template::from_lines(wrapper.template.clone());
        let compiled = CompiledPath::parse(&wrapper.xpath);
        Ok(Applier { wrapper, xpath, compiled, template })
    }

    /// The wrapper applied.
    pub fn wrapper(&self) -> &Wrapper {
        &self.wrapper
    }

    /// The elements the XPath selects on `doc`: on the tree directly when the XPath is of the
    /// induced subset (one pass, no budget needed), else through sxd-xpath within the default
    /// node-visit budget.
    ///
    /// # Errors
    /// [`Error::XPath`] when evaluation fails (e.g. the expression is not a node set),
    /// [`Error::OverBudget`] when it visits too many nodes.
    pub fn select_exact(&self, doc: &Doc) -> Result<Vec<NodeId>> {
        self.select_metered(doc, &Meter::default())
    }

    fn select_metered(&self, doc: &Doc, meter: &Meter) -> Result<Vec<NodeId>> {
        match &self.compiled {
            Some(c) => Ok(outermost(doc, c.select(doc))),
            None => self.sxd_metered(doc, meter),
        }
    }

    /// The elements the XPath selects, evaluated by sxd-xpath on the page's XML (the general
    /// evaluator, and the oracle the compiled path is tested against), within the default
    /// node-visit budget.
    ///
    /// # Errors
    /// As [`Applier::select_exact`].
    pub fn select_with_sxd(&self, doc: &Doc) -> Result<Vec<NodeId>> {
        self.sxd_metered(doc, &Meter::default())
    }

    fn sxd_metered(&self, doc: &Doc, meter: &Meter) -> Result<Vec<NodeId>> {
        let source = self.xpath.source();
        let xml = doc.to_xml();
        let package = sxd_document::parser::parse(&xml)
            .map_err(|e| Error::XPath { xpath: source.to_string(), message: format!("cleaned page is not XML: {e:?}") })?;
        let document = package.as_document();
        let value = self
            .xpath
            .evaluate(&xpath::context(meter), document.root())
            .map_err(|e| crate::wrapper::eval_error(source, e))?;
        let sxd_xpath::Value::Nodeset(set) = value else {
            return Err(Error::XPath { xpath: source.to_string(), message: "does not select elements".into() });
        };
        let mut nodes: Vec<NodeId> = set
            .iter()
            .filter_map(|n| n.element())
            .filter_map(|e| e.attribute_value("dfs")?.parse::<u32>().ok())
            .filter_map(|d| doc.by_dfs(d))
            .collect();
        nodes.sort_unstable();
        Ok(outermost(doc, nodes))
    }
}

impl Extractor for Applier {
    fn name(&self) -> &str {
        "forest"
    }

    fn extract(&self, page: &Page) -> Result<Extraction> {
        let doc = &page.doc;
        let done = |nodes: Vec<NodeId>, rule| {
            let mut mask = self.template.mask_within(doc, &nodes);
            if self.wrapper.prune_link_blocks {
                for (m, l) in mask.iter_mut().zip(link_blocks(doc, &nodes)) {
                    *m |= l;
                }
            }
            // Template text and link blocks are cut, unless that would leave nothing.
            let mut text = doc.text_masked(&nodes, &mask);
            if text.is_empty() {
                text = doc.text_of(&nodes);
                mask.clear();
            }
            // The headline goes first when it stands before the block, outside it.
            let first = nodes.first().copied();
            let title = match first {
                Some(first) if self.wrapper.headline => headline_before(doc, first),
                _ => None,
            };
            let headline = match (title, first) {
                (Some(h), Some(first)) if h < first && !nodes.iter().any(|&n| doc.contains(n, h)) => {
                    text = format!("{}\n\n{text}", doc.text(h));
                    Some(h)
                }
                _ => None,
            };
            Extraction { text, nodes, rule, skip: mask, headline }
        };
        let main = &self.wrapper.pattern;
        let t = &Typer::new(doc, self.wrapper.typing);
        let exact = self.select_metered(doc, &Meter::for_page(page))?;
        if has_text(doc, &exact) {
            return Ok(done(siblings(t, exact, main), Rule::Exact));
        }
        if let Some(n) = by_type(t, main, true) {
            return Ok(done(siblings(t, vec![n], main), Rule::SameTypeSameLevel));
        }
        for (i, c) in self.wrapper.alternatives.iter().enumerate() {
            let exact = by_dfs(t, c);
            if has_text(doc, &exact) {
                return Ok(done(siblings(t, exact, c), Rule::Alternative(i)));
            }
            if let Some(n) = by_type(t, c, true) {
                return Ok(done(siblings(t, vec![n], c), Rule::Alternative(i)));
            }
        }
        if let Some(n) = by_type(t, main, false) {
            return Ok(done(siblings(t, vec![n], main), Rule::SameType));
        }
        for (i, c) in self.wrapper.candidates.iter().enumerate().skip(1) {
            let exact = by_dfs(t, c);
            if has_text(doc, &exact) {
                return Ok(done(siblings(t, exact, c), Rule::Candidate(i)));
            }
            if let Some(n) = by_type(t, c, true) {
                return Ok(done(siblings(t, vec![n], c), Rule::Candidate(i)));
            }
        }
        let text = crate::baselines::boilerpipe::extract(doc);
        if text.trim().is_empty() {
            return Ok(done(vec![doc.body], Rule::WholePage));
        }
        Ok(Extraction::new(Vec::new(), text, Rule::SinglePage))
    }
}

/// The page's headline: the element whose words best match the page's `<title>`.
///
/// Headings (`h1`–`h6`) are tried first, then any element with a short text. An element
/// qualifies when at least 80% of its words are in the title and it covers at least 40% of the
/// title's words (titles often add the site's name); the best coverage wins, then the higher
/// heading, then the earlier element.
pub fn headline(doc: &Doc) -> Option<NodeId> {
    let end = doc.nodes.get(doc.body as usize)?.end;
    headline_before(doc, end)
}

/// [`headline`], looking only at elements that start before node `before`.
pub fn headline_before(doc: &Doc, before: NodeId) -> Option<NodeId> {
    let mut tok = crate::tokens::Tokenizer::default();
    let mut title: Vec<String> = Vec::new();
    tok.each(&doc.title, |t| {
        if !title.iter().any(|x| x == t) {
            title.push(t.to_string());
        }
    });
    if title.len() < 2 {
        return None;
    }
    let body = doc.nodes.get(doc.body as usize)?;
    let stop = before.min(body.end);
    let max_chars = doc.title.len() * 2 + 20;
    let min_chars = doc.title.len() / 4;
    // Text bytes per subtree, summed in one reverse pass over the part searched; elements that
    // reach past `stop` hold the block and are skipped below.
    let mut sizes = vec![0usize; doc.nodes.len()];
    for i in (doc.body as usize..stop as usize).rev() {
        if let NodeData::Text(t) = &doc.nodes[i].data {
            sizes[i] = t.len();
        }
        if let Some(p) = doc.nodes[i].parent {
            sizes[p as usize] += sizes[i];
        }
    }
    let mut covered = vec![false; title.len()];
    let mut best: Option<(f64, u8, NodeId)> = None;
    for heading_pass in [true, false] {
        for i in doc.body..stop {
            let Some(e) = doc.element(i) else { continue };
            let rank = match e.name.as_bytes() {
                [b'h', d @ b'1'..=b'6'] => d - b'0',
                _ if heading_pass => continue,
                _ => 9,
            };
            if !heading_pass && rank < 9 {
                continue;
            }
            if doc.nodes[i as usize].end > stop {
                continue;
            }
            let size = sizes[i as usize];
            if size == 0 || size > max_chars || size < min_chars {
                continue;
            }
            // Words inside the title, and which title words are covered.
            covered.iter_mut().for_each(|c| *c = false);
            let (mut words, mut inside) = (0usize, 0usize);
            for n in &doc.nodes[i as usize..doc.nodes[i as usize].end as usize] {
                if let NodeData::Text(t) = &n.data {
                    tok.each(t, |w| {
                        words += 1;
                        if let Some(k) = title.iter().position(|x| x == w) {
                            inside += 1;
                            covered[k] = true;
                        }
                    });
                }
            }
            if words < 2 {
                continue;
            }
            let contained = inside as f64 / words as f64;
            let coverage = covered.iter().filter(|&&c| c).count() as f64 / title.len() as f64;
            if contained < 0.8 || coverage < 0.4 {
                continue;
            }
            let better = best.is_none_or(|(c, r, _)| coverage > c + 1e-9 || ((coverage - c).abs() <= 1e-9 && rank < r));
            if better {
                best = Some((coverage, rank, i));
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.map(|(_, _, n)| n)
}

/// Elements that group other content and are cut whole when mostly links.
const LINK_BLOCKS: &[&str] = &[
    "div", "ul", "ol", "dl", "table", "section", "aside", "nav", "figure", "header", "footer", "form", "p", "li",
];

/// Per node: is it inside a block, under one of `roots`, whose text is mostly link text (more
/// than half of its non-space characters) and which holds less than a quarter of its root's
/// other text? Such blocks are menus and related-story lists; a link-heavy block that holds much
/// of the article is not cut, its own link-heavy parts are.
pub fn link_blocks(doc: &Doc, roots: &[NodeId]) -> Vec<bool> {
    let n = doc.nodes.len();
    let mut chars = vec![0usize; n];
    let mut link = vec![0usize; n];
    let mut in_link = vec![false; n];
    let mut cut = vec![false; n];
    for &root in roots {
        let r = root as usize;
        let Some(end) = doc.nodes.get(r).map(|x| x.end as usize) else { continue };
        // Link and text counts within the subtree only.
        let root_in_link = doc.ancestors(root).any(|a| doc.element(a).is_some_and(|e| e.name == "a"));
        for i in r..end {
            let own = matches!(&doc.nodes[i].data, NodeData::Element(e) if e.name == "a");
            let above = match doc.nodes[i].parent {
                Some(p) if i != r => in_link[p as usize],
                _ => root_in_link,
            };
            in_link[i] = own || above;
            if let NodeData::Text(t) = &doc.nodes[i].data {
                chars[i] = t.chars().filter(|c| !c.is_whitespace()).count();
                link[i] = if in_link[i] { chars[i] } else { 0 };
            }
        }
        for i in (r + 1..end).rev() {
            if let Some(p) = doc.nodes[i].parent {
                chars[p as usize] += chars[i];
                link[p as usize] += link[i];
            }
        }
        let root_plain = chars[r] - link[r];
        for i in r + 1..end {
            let inherited = doc.nodes[i].parent.is_some_and(|p| cut[p as usize]);
            let dense = doc.element(i as NodeId).is_some_and(|e| LINK_BLOCKS.contains(&e.name.as_str()))
                && chars[i] > 0
                && link[i] * 2 > chars[i]
                && (chars[i] - link[i]) * 4 < root_plain;
            cut[i] = inherited || dense;
        }
    }
    cut
}

/// For a pattern the site splits across siblings, every same-type sibling of the selected
/// nodes, in document order (the selection unchanged otherwise).
fn siblings(t: &Typer, nodes: Vec<NodeId>, c: &Choice) -> Vec<NodeId> {
    let doc = t.doc();
    if !c.repeated {
        return nodes;
    }
    let mut out: Vec<NodeId> = Vec::new();
    for &n in &nodes {
        match doc.nodes.get(n as usize).and_then(|x| x.parent) {
            Some(p) => out.extend(doc.children(p).filter(|&s| s == n || t.same_kind(&c.pattern.ty, s))),
            None => out.push(n),
        }
    }
    out.sort_unstable();
    out.dedup();
    outermost(doc, out)
}

/// Keep only nodes not inside another (input sorted in document order).
fn outermost(doc: &Doc, nodes: Vec<NodeId>) -> Vec<NodeId> {
    let mut out: Vec<NodeId> = Vec::with_capacity(nodes.len());
    for n in nodes {
        if out.last().is_none_or(|&last| !doc.contains(last, n)) {
            out.push(n);
        }
    }
    out
}

/// Non-white-space characters of text in the subtree at `id`.
fn text_size(doc: &Doc, id: NodeId) -> usize {
    let end = doc.nodes.get(id as usize).map_or(id, |n| n.end);
    doc.nodes[id as usize..end as usize]
        .iter()
        .map(|n| match &n.data {
            NodeData::Text(t) => t.chars().filter(|c| !c.is_whitespace()).count(),
            NodeData::Element(_) => 0,
        })
        .sum()
}

fn has_text(doc: &Doc, nodes: &[NodeId]) -> bool {
    nodes.iter().any(|&n| text_size(doc, n) > 0)
}

/// The pattern's exact elements: its type at one of its recorded dfs numbers.
fn by_dfs(t: &Typer, c: &Choice) -> Vec<NodeId> {
    let doc = t.doc();
    let nodes: Vec<NodeId> = c.dfs.iter().filter_map(|&d| doc.by_dfs(d)).filter(|&n| t.matches(&c.pattern.ty, n)).collect();
    outermost(doc, nodes)
}

/// The element with the most text among those of the choice's type (at its level when
/// `same_level`). A type known only by dfs is matched by tag, no id/class, and parent type.
fn by_type(t: &Typer, c: &Choice, same_level: bool) -> Option<NodeId> {
    let doc = t.doc();
    let ty: ElementType = c.pattern.ty.portable();
    let by_dfs_only = c.pattern.ty.dfs.is_some();
    if by_dfs_only && c.parent.is_none() && !same_level {
        return None; // a bare tag anywhere in the page says nothing
    }
    (0..doc.nodes.len() as NodeId)
        .filter(|&n| !same_level || doc.nodes[n as usize].level == c.pattern.level)
        .filter(|&n| doc.element(n).is_some_and(|e| e.name == ty.tag) && t.matches(&ty, n))
        .filter(|&n| {
            !by_dfs_only
                || match (&c.parent, doc.nodes[n as usize].parent) {
                    (Some(pt), Some(p)) => pt.matches_portable(doc, p),
                    (None, _) => true,
                    (Some(_), None) => false,
                }
        })
        .map(|n| (text_size(doc, n), n))
        .filter(|&(size, _)| size > 0)
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, n)| n)
}
