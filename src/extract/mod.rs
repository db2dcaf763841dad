//! Extract: take the article out of a page. A wrapper applies to any page of its site, with
//! fallbacks for pages it never saw ([`Applier`]); the single-page extractor ([`SinglePage`])
//! needs no site knowledge and is every wrapper's last fallback.
//!
//! The wrapper's XPath is evaluated on the page ([`Rule::Exact`]): compiled to run on the tree
//! directly when it is of the subset induction writes ([`crate::xpath::CompiledPath`]), else by sxd-xpath on
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
//! 5. [`Rule::SinglePageFallback`]: nothing of the site's patterns is on the page; the single-page
//!    extractor ([`SinglePage`]) takes over, and says so. ([`Rule::WholePage`], the body, only
//!    when it finds nothing.)
//!
//! When a rule selects several elements, nested ones are merged into the outermost and the
//! text of each is output in document order; for the type rules (1–3) only the element with
//! the most text is kept, since on a new page a type may also match unrelated blocks.

mod applier;
pub mod arbiter;
mod blocks;
mod headline;
pub mod readable;

pub use applier::Applier;
pub use blocks::link_blocks;
pub use headline::{headline, headline_before, headlines_before, headlines_before_where};

use crate::clean::NodeId;
use crate::{Page, Result};

/// Which rule selected the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
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
    /// The page shows no article (its content is written by scripts) and less text than the
    /// description it declares: that description.
    Description,
    /// The site's rules matched nothing on this page: the single-page extractor took over.
    SinglePageFallback,
    /// The wrapper's article and the single-page extractor's disagreed, and the
    /// [`arbiter`] took the single-page one.
    SinglePagePreferred,
    /// No rules for the page's site (or a single-page method): the single-page extractor.
    #[default]
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
            Rule::Description => "description".into(),
            Rule::SinglePageFallback => "single-page-fallback".into(),
            Rule::SinglePagePreferred => "single-page-preferred".into(),
            Rule::SinglePage => "single-page".into(),
        }
    }

    /// Is this a fallback (anything but the exact XPath)?
    pub fn is_fallback(&self) -> bool {
        *self != Rule::Exact
    }

    /// Did a site's rules hold on the page? `None` when none were applied (the single-page
    /// extractor alone); `Some(true)` when their own pattern, its type or an alternative
    /// selected the article; `Some(false)` when a fallback or the single-page extractor took
    /// over (the health a store keeps of its wrappers: [`crate::store::Outcomes`]).
    pub fn rules_held(&self) -> Option<bool> {
        match self {
            Rule::SinglePage => None,
            Rule::Exact | Rule::SameTypeSameLevel | Rule::SameType | Rule::Alternative(_) => Some(true),
            Rule::Candidate(_) | Rule::WholePage | Rule::Description | Rule::SinglePageFallback | Rule::SinglePagePreferred => Some(false),
        }
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
    /// For a site of several templates, the XPath of the template whose rules selected
    /// (`None`: the rules' own XPath, or none).
    pub xpath: Option<String>,
    /// What the arbiter weighed, when the wrapper's article was checked against the
    /// single-page extractor's.
    pub evidence: Option<arbiter::Evidence>,
}

impl Extraction {
    /// An estimate of the article's F1, in [0, 1], on the page `doc` it was taken from
    /// ([`arbiter::confidence`]): how sure it is the article's region, from what the arbiter
    /// weighed when the wrapper's article was checked ([`arbiter::Evidence::region`]), else from
    /// the share of the page's text it holds ([`arbiter::unchecked_region`];
    /// [`arbiter::stand_in_region`] for the page's whole text or its description, given when no
    /// article was found); and how much of that region's text it kept ([`Extraction::kept`]).
    pub fn confidence(&self, doc: &crate::clean::Doc) -> f64 {
        let article = crate::clean::non_space_chars(&self.text);
        // The page's text is measured only for an article the arbiter did not check.
        let page = || doc.text_size(doc.body);
        let region = match &self.evidence {
            _ if article == 0 => return 0.0,
            Some(e) if self.rule == Rule::SinglePagePreferred => e.region(arbiter::Verdict::SinglePage),
            Some(e) => e.region(arbiter::Verdict::Wrapper),
            // A description stands for an article the page does not show: it holds none of
            // the page's text.
            None if self.rule == Rule::Description => return arbiter::confidence(arbiter::stand_in_region(0, 1), 0.0),
            None if self.rule == Rule::WholePage => arbiter::stand_in_region(article, page()),
            None => arbiter::unchecked_region(article, page()),
        };
        arbiter::confidence(region, self.kept(doc, article))
    }

    /// The share of the selection's text (its elements', and the headline's put before them)
    /// that the article's `article` non-space characters keep: less than all when text inside
    /// the selection was cut. 1 for an empty selection.
    pub fn kept(&self, doc: &crate::clean::Doc, article: usize) -> f64 {
        let mut roots: Vec<NodeId> = self.headline.iter().chain(&self.nodes).copied().collect();
        roots.sort_unstable();
        // Each element once: one inside another is counted with it.
        let selected: usize = doc.outermost(roots).into_iter().map(|r| doc.text_size(r)).sum();
        if selected == 0 {
            1.0
        } else {
            article.min(selected) as f64 / selected as f64
        }
    }

    /// An extraction of `nodes` with their `text`, nothing cut and no headline added.
    pub fn new(nodes: Vec<NodeId>, text: String, rule: Rule) -> Extraction {
        Extraction { nodes, text, rule, skip: Vec::new(), headline: None, xpath: None, evidence: None }
    }
}

/// Anything that takes the article out of a page: the wrapper, a site config, the single-page
/// extractor, and every method of the bench.
///
/// The bench's `Method` makes one per site from the site's sample pages (like tantivy's
/// `Collector::for_segment`): the wrapper learns there, single-page methods ignore them.
pub trait Extractor {
    /// The method's name (`forest`, `boilerpipe`, …).
    fn name(&self) -> &str;
    /// Extract the article of one page.
    ///
    /// # Errors
    /// Implementation-specific; the wrapper fails only on an invalid XPath.
    fn extract(&self, page: &Page) -> Result<Extraction>;
}

/// The single-page extractor: no site knowledge, the page alone ([`readable`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct SinglePage {
    /// The mechanisms on (all, by default).
    pub options: readable::Options,
}

impl SinglePage {
    /// The article of `page` by the single-page extractor, marked with `rule`; the whole body
    /// when it finds no text.
    pub fn extract_as(&self, page: &Page, rule: Rule) -> Extraction {
        SinglePage::extraction(page, readable::extract_with(&page.doc, &SinglePage::options_for(page, self.options)), rule, &self.options)
    }

    /// `options` as they suit `page`'s kind (the `kinds` mechanism): documentation keeps its
    /// lists of links, which are its content (an API's index, a see-also list); a discussion
    /// cuts copies of any size, a line alone too, its posts quoting and previewing one another,
    /// and its posts' signatures; a declared article is not widened to its `main` landmark (an
    /// article known by its address alone, `/blog/<slug>`, still is: an address is weaker
    /// evidence than a declaration, and not widening such pages cost a blog page of the shared
    /// sets 0.39 of F1).
    pub fn options_for(page: &Page, options: readable::Options) -> readable::Options {
        use crate::metadata::PageType;
        match options.kinds.then(|| page.kind()).flatten() {
            Some(PageType::Documentation) => readable::Options { link_blocks: false, ..options },
            Some(PageType::Forum) => readable::Options { copy_bytes: 0, copy_lines: 1, thread: true, ..options },
            Some(PageType::Article) if page.meta().declared_type == Some(PageType::Article) => readable::Options { main: false, ..options },
            _ => options,
        }
    }

    /// The extraction of a page's article found by the single-page extractor, marked with
    /// `rule`; when it has no text, the page's declared description if it says more than the
    /// page's whole text (the `description` mechanism), else the whole body.
    pub fn extraction(page: &Page, r: readable::Readable, rule: Rule, options: &readable::Options) -> Extraction {
        let doc = &page.doc;
        if r.text.trim().is_empty() {
            let whole = doc.text(doc.body);
            let words = |s: &str| s.split_whitespace().count();
            let described = options.description.then(|| page.meta().description.as_deref()).flatten();
            if let Some(d) = described.filter(|d| words(d) > words(&whole)) {
                return Extraction::new(Vec::new(), d.to_string(), Rule::Description);
            }
            return Extraction::new(vec![doc.body], whole, Rule::WholePage);
        }
        Extraction { nodes: r.nodes, text: r.text, rule, skip: r.skip, headline: r.headline, xpath: None, evidence: None }
    }
}

impl Extractor for SinglePage {
    fn name(&self) -> &str {
        "single-page"
    }

    fn extract(&self, page: &Page) -> Result<Extraction> {
        Ok(self.extract_as(page, Rule::SinglePage))
    }
}
