//! The applier: a wrapper's XPath evaluated on any page of its site, then the fallback rules
//! (see the [module](super) list), then the single-page extractor.

use super::{headlines_before_where, link_blocks, Extraction, Extractor, Rule, SinglePage};
use crate::clean::{Doc, NodeId};
use crate::patterns::{ElementType, Typer};
use crate::template::layout::{self, Layout};
use crate::template::Template;
use crate::wrapper::{Choice, Wrapper};
use crate::xpath::{Meter, Selector};
use super::arbiter::{Chosen, Evidence, Signals, Verdict, AGREEMENT};
use super::readable::Analysis;
use crate::text::overlap::agreement;
use crate::{Page, Result};

/// A wrapper made ready to apply: the XPath of each of its templates compiled once. It can be
/// shared by threads (`Send + Sync`): workers apply one compiled wrapper.
pub struct Applier {
    wrapper: Wrapper,
    /// One per template of the site, the wrapper's own first.
    parts: Vec<Part>,
    template: Template,
    /// Check each article against the single-page extractor's.
    cross_check: bool,
    /// Run the single-page extractor's header-zone and tail cuts inside the wrapper's block.
    in_block: bool,
    /// What the cross-check weighs.
    signals: Signals,
    /// Where the site shows its byline and date.
    shows: crate::wrapper::shows::Readers,
}


/// One template's rules: its wrapper, layout and compiled XPath.
struct Part {
    wrapper: Wrapper,
    selector: Selector,
}

impl Part {
    fn new(wrapper: Wrapper) -> Result<Part> {
        let selector = Selector::new(&wrapper.xpath)?;
        Ok(Part { wrapper, selector })
    }

    fn select_metered(&self, doc: &Doc, meter: &Meter) -> Result<Vec<NodeId>> {
        self.selector.elements(doc, meter)
    }

    fn sxd_metered(&self, doc: &Doc, meter: &Meter) -> Result<Vec<NodeId>> {
        self.selector.elements_with_sxd(doc, meter)
    }
}

impl std::fmt::Debug for Applier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Applier")
            .field("site", &self.wrapper.site)
            .field("xpath", &self.wrapper.xpath)
            .field("templates", &self.parts.len())
            .field("cross_check", &self.cross_check)
            .field("in_block", &self.in_block)
            .field("signals", &self.signals)
            .finish()
    }
}

impl Applier {
    /// Compile the XPath of each of the wrapper's templates.
    ///
    /// # Errors
    /// [`crate::Error::XPath`] when an XPath does not parse or is refused (see
    /// [`crate::xpath::Program::compile`]).
    pub fn new(wrapper: Wrapper) -> Result<Applier> {
        let parts = wrapper.templates_with(false).into_iter().map(Part::new).collect::<Result<Vec<Part>>>()?;
        let template = Template::from_lines(wrapper.template.clone());
        let shows = crate::wrapper::shows::Readers::new(&wrapper.shows)?;
        Ok(Applier { wrapper, parts, template, cross_check: true, in_block: true, signals: Signals::default(), shows })
    }

    /// The byline and date `doc` shows where its site shows them, as the wrapper learned
    /// ([`crate::wrapper::shows`]).
    pub fn shown(&self, doc: &Doc) -> (Option<String>, Option<String>) {
        self.shows.read(doc)
    }

    /// The rules of the template `page` fits: the site's only template, else the one whose
    /// layout it holds most of, if it holds at least [`layout::FITS`] of it (a template without
    /// a layout fits every page); `None` when the page fits none of the site's templates.
    fn part_for(&self, page: &Page) -> Option<&Part> {
        if let [only] = self.parts.as_slice() {
            return Some(only);
        }
        let mine = Layout::of(&page.doc);
        self.parts
            .iter()
            .map(|p| (p.wrapper.layout.as_ref().map_or(1.0, |l| l.fit(&mine)), p))
            .filter(|&(fit, _)| fit >= layout::FITS)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, p)| p)
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
    /// [`crate::Error::XPath`] when evaluation fails (e.g. the expression is not a node set),
    /// [`crate::Error::OverBudget`] when it visits too many nodes.
    pub fn select_exact(&self, doc: &Doc) -> Result<Vec<NodeId>> {
        self.select_metered(doc, &Meter::default())
    }

    fn select_metered(&self, doc: &Doc, meter: &Meter) -> Result<Vec<NodeId>> {
        self.parts[0].select_metered(doc, meter)
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
        self.parts[0].sxd_metered(doc, meter)
    }
}

impl Extractor for Applier {
    fn name(&self) -> &str {
        "forest"
    }

    /// The wrapper's article, checked against the single-page extractor's by the
    /// [`arbiter`](super::arbiter), which weighs what the site's template shows of each.
    fn extract(&self, page: &Page) -> Result<Extraction> {
        // One analysis of the page serves the in-block cuts and the cross-check.
        let analysis = (self.in_block || self.cross_check).then(|| Analysis::new(&page.doc, &SinglePage::options_for(page, Default::default())));
        let part = self.part_for(page);
        let x = match part {
            Some(part) => self.by_wrapper(part, page, analysis.as_ref())?,
            None => single_page_fallback(page, analysis.as_ref()),
        };
        let Some(analysis) = analysis.filter(|_| self.cross_check) else { return Ok(x) };
        if matches!(x.rule, Rule::SinglePageFallback | Rule::WholePage) {
            return Ok(x);
        }
        // The single-page article's text is written only when it is taken (or when the
        // wrapper's article has no nodes to compare with).
        let doc = &page.doc;
        let mut sp = analysis.draft();
        if !sp.has_text(doc) {
            return Ok(x); // the single-page extractor finds nothing
        }
        // An article with nodes is weighed by the arbiter, on the characters each selects; one
        // without (text only) is compared by its words once the single-page text is written.
        // A kept article without a headline of its own takes the single-page extractor's (the
        // element best matching the page's title), when it stands before the block, outside
        // it, and is no template line (the site's name): it is weighed with it.
        let borrowed = (part.is_some_and(|p| p.wrapper.headline) && x.headline.is_none())
            .then(|| sp.headline.filter(|&h| stands_before(doc, &x.nodes, h) && !self.is_template(doc, h)))
            .flatten();
        let evidence = (!x.nodes.is_empty()).then(|| {
            let wrapper = Chosen { nodes: &x.nodes, skip: &x.skip, headline: x.headline.or(borrowed) };
            let single = Chosen { nodes: &sp.nodes, skip: &sp.skip, headline: sp.headline };
            Evidence::measure(doc, wrapper, single, &self.template, self.signals.sentences)
        });
        if evidence.is_some_and(|e| e.verdict(self.signals) == Verdict::Wrapper) {
            let mut x = x;
            if let Some(h) = borrowed {
                x.headline = Some(h);
                x.text = format!("{}\n\n{}", doc.text(h), x.text);
            }
            return Ok(Extraction { evidence, ..x });
        }
        if self.signals.site_cuts {
            self.cut_template(doc, &mut sp);
        }
        let sp = SinglePage::extraction(page, sp.readable(doc), Rule::SinglePagePreferred, &Default::default());
        if evidence.is_none() && agreement(&x.text, &sp.text) >= AGREEMENT {
            return Ok(x);
        }
        Ok(Extraction { evidence, ..sp })
    }
}

impl Applier {
    /// Check each article against the single-page extractor (on by default); `false` keeps
    /// the wrapper's article whatever the single-page extractor finds (an ablation).
    pub fn cross_checked(mut self, on: bool) -> Applier {
        self.cross_check = on;
        self
    }

    /// The arbiter's signals (all on by default; see [`super::arbiter`]).
    pub fn weighing(mut self, signals: Signals) -> Applier {
        self.signals = signals;
        self
    }

    /// Is all the text of the element `node` on the site's template lines (the site's name in
    /// a heading on every page, say)?
    fn is_template(&self, doc: &Doc, node: NodeId) -> bool {
        if self.template.is_empty() {
            return false;
        }
        let mask = self.template.mask_within(doc, &[node], false);
        let mut texts = (node as usize..doc.end(node) as usize)
            .filter(|&i| matches!(&doc.nodes[i].data, crate::clean::NodeData::Text(t) if !t.trim().is_empty()))
            .peekable();
        texts.peek().is_some() && texts.all(|i| mask[i])
    }

    /// Cut the site's template lines from the single-page article (its `skip` grows to the
    /// page's nodes when it was empty), unless that would leave it without text; a headline
    /// that is a template line (the site's name) is dropped.
    fn cut_template(&self, doc: &Doc, article: &mut super::readable::Draft) {
        if self.template.is_empty() {
            return;
        }
        if article.headline.is_some_and(|h| self.is_template(doc, h)) {
            article.headline = None;
        }
        let mask = self.template.mask_within(doc, &article.nodes, false);
        if !mask.iter().any(|&m| m) {
            return;
        }
        let mut cut = if article.skip.is_empty() { vec![false; doc.nodes.len()] } else { article.skip.clone() };
        for (c, m) in cut.iter_mut().zip(mask) {
            *c |= m;
        }
        if doc.has_text_masked(&article.nodes, &cut) {
            article.skip = cut;
        }
    }

    /// Clean inside the wrapper's block with the single-page extractor's cuts (on by
    /// default); `false` keeps the block as the site's template and link blocks leave it.
    pub fn cleaned_in_block(mut self, on: bool) -> Applier {
        self.in_block = on;
        self
    }

    /// The article by the wrapper alone: its XPath, then its fallback rules, then the
    /// single-page extractor.
    fn by_wrapper(&self, part: &Part, page: &Page, analysis: Option<&Analysis>) -> Result<Extraction> {
        let doc = &page.doc;
        let wrapper = &part.wrapper;
        let done = |nodes: Vec<NodeId>, rule| {
            let mut mask = self.template.mask_within(doc, &nodes, false);
            if wrapper.prune_link_blocks {
                for (m, l) in mask.iter_mut().zip(link_blocks(doc, &nodes)) {
                    *m |= l;
                }
            }
            // The headline inside the block (for the cuts) and before it, found in one pass.
            let first = nodes.first().copied();
            let [inside, title] = match first {
                Some(f) if wrapper.headline => headlines_before_where(doc, [doc.end(f), f], |h| !self.is_template(doc, h)),
                _ => [None, None],
            };
            if let Some(analysis) = analysis.filter(|_| self.in_block) {
                let trimmed = analysis.trim(&nodes, inside);
                if mask.is_empty() {
                    mask = vec![false; doc.nodes.len()];
                }
                for (m, t) in mask.iter_mut().zip(trimmed) {
                    *m |= t;
                }
            }
            // Template text and link blocks are cut, unless that would leave nothing.
            let mut text = doc.text_masked(&nodes, &mask);
            if text.is_empty() {
                text = doc.text_of(&nodes);
                mask.clear();
            }
            // The headline goes first when it stands before the block, outside it.
            let headline = title.filter(|&h| stands_before(doc, &nodes, h));
            if let Some(h) = headline {
                text = format!("{}\n\n{text}", doc.text(h));
            }
            let xpath = (self.parts.len() > 1).then(|| wrapper.xpath.clone());
            Extraction { text, nodes, rule, skip: mask, headline, xpath, evidence: None }
        };
        let main = &wrapper.pattern;
        let t = &Typer::new(doc, wrapper.typing);
        let exact = part.select_metered(doc, &Meter::within(&page.budget, page.deadline))?;
        if doc.has_text(&exact) {
            return Ok(done(siblings(t, exact, main), Rule::Exact));
        }
        if let Some(n) = by_type(t, main, true) {
            return Ok(done(siblings(t, vec![n], main), Rule::SameTypeSameLevel));
        }
        for (i, c) in wrapper.alternatives.iter().enumerate() {
            let exact = by_dfs(t, c);
            if doc.has_text(&exact) {
                return Ok(done(siblings(t, exact, c), Rule::Alternative(i)));
            }
            if let Some(n) = by_type(t, c, true) {
                return Ok(done(siblings(t, vec![n], c), Rule::Alternative(i)));
            }
        }
        if let Some(n) = by_type(t, main, false) {
            return Ok(done(siblings(t, vec![n], main), Rule::SameType));
        }
        for (i, c) in wrapper.candidates.iter().enumerate().skip(1) {
            let exact = by_dfs(t, c);
            if doc.has_text(&exact) {
                return Ok(done(siblings(t, exact, c), Rule::Candidate(i)));
            }
            if let Some(n) = by_type(t, c, true) {
                return Ok(done(siblings(t, vec![n], c), Rule::Candidate(i)));
            }
        }
        let x = single_page_fallback(page, analysis);
        if x.rule == Rule::WholePage {
            return Ok(done(vec![doc.body], Rule::WholePage));
        }
        Ok(x)
    }
}

/// Does the headline `h` stand before the block `nodes`, outside it (so that it goes first)?
fn stands_before(doc: &Doc, nodes: &[NodeId], h: NodeId) -> bool {
    nodes.first().is_some_and(|&first| h < first) && !nodes.iter().any(|&n| doc.contains(n, h))
}

/// The single-page extractor's article, when the site's rules have none for the page (from the
/// page's analysis when there is one).
fn single_page_fallback(page: &Page, analysis: Option<&Analysis>) -> Extraction {
    match analysis {
        Some(a) => SinglePage::extraction(page, a.extract(), Rule::SinglePageFallback, &Default::default()),
        None => SinglePage::default().extract_as(page, Rule::SinglePageFallback),
    }
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
    doc.outermost(out)
}

/// The pattern's exact elements: its type at one of its recorded dfs numbers.
fn by_dfs(t: &Typer, c: &Choice) -> Vec<NodeId> {
    let doc = t.doc();
    let nodes: Vec<NodeId> = c.dfs.iter().filter_map(|&d| doc.by_dfs(d)).filter(|&n| t.matches(&c.pattern.ty, n)).collect();
    doc.outermost(nodes)
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
        .map(|n| (doc.text_size(n), n))
        .filter(|&(size, _)| size > 0)
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, n)| n)
}
