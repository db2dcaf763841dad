//! Wrapper: the winning structural pattern as an XPath, and the JSON file that keeps it
//! (paper §3.5).
//!
//! [`Wrapper::induce`] runs the stages on a site's sample pages ([`Inducer`] reads each page's
//! words once, in its [`Summary`], and keeps its tree's shape): terms → signifiers → candidates → ranking, and
//! keeps the best pattern plus the next four as fallbacks. The XPath names the pattern's tag, its tolerant `id`/`class`, and the `dfs` numbers where the pattern
//! was found on the samples. The paper writes the attribute test as `contains(@class,'story')`,
//! but that also matches `class="storybook"`; ours says exactly what the element type means,
//! the first token of the value (digits dropped) is `story`:
//! `//div[substring-before(concat(normalize-space(@class),' '),' ')='story' and (@dfs='78' or @dfs='82')]`
//! (inside `translate(…,'0123456789','')` when the samples' tokens had digits).


mod inducer;
pub mod shows;
pub use inducer::{Inducer, ReadSample, Summary};
pub use shows::Shows;

use crate::patterns::{self, ElementType, PageCandidates, PageTerms, Pattern, Step, Tokens, Typer, Typing};
use crate::rank::{self, Ranked};
use crate::signifiers::{self, Signifiers, Source};
use crate::text::{Analyzer, TermId};
use crate::template::layout::{self, Layout};
use crate::template;
use crate::clean::{Shape, Tree};
use crate::xpath::literal;
use crate::{Error, Page, Result};
use serde::{Deserialize, Serialize};
use std::borrow::Borrow;
use std::collections::HashMap;
use std::path::Path;

/// Choices of the induction, with the paper's defaults.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where signifiers come from (default: tf-idf).
    pub signifiers: signifiers::Source,
    /// Signifiers per page (default: 10).
    pub k: usize,
    /// Ranking strategy (default: the paper's, [`rank::Strategy::Forest`]).
    pub rank: rank::Strategy,
    /// Leave out all-digit signifiers (dates, counts). Default: off, as published.
    pub skip_numeric: bool,
    /// Language code for stemming and stop words; `None` = from the pages.
    pub language: Option<String>,
    /// Text at the same path on this many sample pages is template, not article (0: off).
    /// Default: 2.
    pub template_min_pages: usize,
    /// Leave link text out of the counts: related-story lists share the article's keywords
    /// but are not the article. Default: on.
    pub skip_link_text: bool,
    /// Cut blocks of the output that are mostly link text. Default: on.
    pub prune_link_blocks: bool,
    /// Take all same-type siblings when the site splits its article across them. Default: on.
    pub split_articles: bool,
    /// Output the page's headline first when the article block does not hold it (the element
    /// best matching `<title>` before the block, else, for an article the arbiter keeps, the
    /// single-page extractor's headline). Default: on.
    pub headline: bool,
    /// Induce alternative patterns for sample pages the winner misses. Default: on.
    pub alternatives: bool,
    /// How elements with neither id nor class are typed: by dfs (the paper) or by anchored
    /// path. Default: anchored.
    pub typing: patterns::Typing,
    /// The single-page extractor helps the wrapper: at apply time each article is checked
    /// against the single-page extractor's, which is taken when the two disagree (and in the
    /// bench, a site no wrapper can be learned from gets it, as `forest apply` does). Default: on.
    pub cross_check: bool,
    /// What the cross-check weighs ([`crate::extract::arbiter`]). Default: every signal.
    pub signals: crate::extract::arbiter::Signals,
    /// At apply time, the single-page extractor's cuts (boilerplate regions by class words,
    /// header zone, tail) also run inside the wrapper's block. Default: on.
    pub in_block: bool,
    /// Group the sample pages by layout ([`crate::template::layout`]) and learn a pattern per
    /// group of two or more: one host may serve several templates. Default: on.
    pub templates: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            signifiers: signifiers::Source::Tfidf,
            k: 10,
            rank: rank::Strategy::Forest,
            skip_numeric: false,
            language: None,
            template_min_pages: 2,
            skip_link_text: true,
            prune_link_blocks: true,
            split_articles: true,
            headline: true,
            alternatives: true,
            typing: patterns::Typing::Anchored,
            cross_check: true,
            signals: crate::extract::arbiter::Signals::default(),
            in_block: true,
            templates: true,
        }
    }
}

/// The `format` field of every wrapper file.
pub const FORMAT: &str = "forest-wrapper";
/// The wrapper file version this build writes and reads.
pub const VERSION: u32 = 1;
/// Largest wrapper file read (64 MiB; the corpus's are tens of kilobytes): a larger one, or a
/// link to a file without end, is refused as too large.
pub const MAX_WRAPPER_BYTES: u64 = 64 << 20;

/// How many templates a wrapper keeps at most (its own and its [`Wrapper::others`]).
pub const MAX_TEMPLATES: usize = 8;
/// How many ranked patterns a wrapper keeps (the winner first).
pub const KEPT_CANDIDATES: usize = 5;

/// One ranked pattern as kept in a wrapper.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// The pattern's XPath (tag, tolerant attributes, dfs numbers).
    pub xpath: String,
    /// The structural pattern (tag, id, class or dfs, level).
    pub pattern: Pattern,
    /// The dfs numbers of the pattern's best element on each sample page.
    pub dfs: Vec<u32>,
    /// The portable type of those elements' parent (used on unseen pages when the pattern is
    /// typed by dfs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<ElementType>,
    /// Sample pages where the pattern occurs.
    pub pages: usize,
    /// R = Σ I · p · level.
    pub relevance: f64,
    /// The site splits its article across sibling elements of this type: on at least half of
    /// the sample pages, the best element has a same-type sibling that also holds signifiers.
    /// Apply then takes every same-type sibling, in document order.
    #[serde(default)]
    pub repeated: bool,
}

/// A site's wrapper: what `forest induce` writes and `forest apply` reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wrapper {
    /// Always [`FORMAT`].
    pub format: String,
    /// Wrapper file version ([`VERSION`]).
    pub version: u32,
    /// The forest version that wrote it.
    pub generator: String,
    /// The site's name (feed title, folder or host).
    pub site: String,
    /// The site's host (from the sample pages' URLs, else their canonical URLs): the key of
    /// the wrapper store ([`crate::store`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The XPath that selects the article (may be edited by hand: any XPath 1.0 works).
    pub xpath: String,
    /// The winning pattern.
    pub pattern: Choice,
    /// The best patterns, winner first, for fallbacks and for the record.
    pub candidates: Vec<Choice>,
    /// Where signifiers came from.
    pub signifiers: Source,
    /// Signifiers per page (tf-idf).
    pub k: usize,
    /// The ranking strategy.
    pub rank: rank::Strategy,
    /// Language code used for stemming.
    pub language: String,
    /// The sample pages (URLs or paths).
    pub pages: Vec<String>,
    /// Template lines: text found at the same path on several sample pages, cut from output.
    #[serde(default)]
    pub template: Vec<crate::template::Line>,
    /// Cut blocks that are mostly link text (menus, related stories) from the output.
    #[serde(default)]
    pub prune_link_blocks: bool,
    /// Put the page's headline first when the block does not hold it.
    #[serde(default)]
    pub headline: bool,
    /// Patterns for the sample pages the winning pattern does not occur on (a site with
    /// several templates): the best pattern of the pages left, then of those it leaves, ….
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Choice>,
    /// How elements without id/class were typed (apply types them the same way).
    #[serde(default)]
    pub typing: Typing,
    /// The layout of the sample pages the pattern was learned from (the element paths at least
    /// half of them hold). For a site of several templates ([`Wrapper::others`]), a page goes
    /// at apply time to the template whose layout it holds most of, if it holds at least
    /// [`layout::FITS`] of it, else to the single-page extractor; a site of one template
    /// applies it to every page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    /// The site's other templates, each learned from its own group of sample pages (largest
    /// group first).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<Variant>,
    /// Where the site shows its byline and date ([`shows`]), read on pages that declare
    /// neither.
    #[serde(default, skip_serializing_if = "Shows::is_empty")]
    pub shows: Shows,
}

/// One more template of a site: the parts of a wrapper learned from one group of pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    /// The group's layout.
    pub layout: Layout,
    /// The XPath that selects the article on pages of this template.
    pub xpath: String,
    /// The winning pattern.
    pub pattern: Choice,
    /// The best patterns, winner first.
    pub candidates: Vec<Choice>,
    /// Patterns for the group's pages the winner does not occur on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Choice>,
    /// The group's sample pages.
    pub pages: Vec<String>,
}

/// What induction found, beyond the wrapper: for `--explain` and for study.
pub struct Induction {
    /// The wrapper.
    pub wrapper: Wrapper,
    /// Every ranked pattern, best first.
    pub ranked: Vec<Ranked>,
    /// Each page's signifiers, as stems, best first.
    pub signifiers: Vec<Vec<String>>,
    /// The groups of sample pages (indices) that got a pattern each, the wrapper's own first;
    /// one group of every page when the site shows one template.
    pub groups: Vec<Vec<usize>>,
}

impl Induction {
    /// Pages without URLs: the wrapper's host from the site's home page, as the sample's feed
    /// links it.
    fn homed(mut self, sample: &crate::feed::Sample) -> Induction {
        if self.wrapper.host.is_none() {
            self.wrapper.host = sample.home.as_deref().and_then(|h| crate::host::key(h).ok());
        }
        self
    }

    /// The candidate table, like the paper's Figure 3: rank, level, clue, dfs, pages, R.
    pub fn explain(&self, rows: usize) -> String {
        let mut s = format!("{:>4}  {:>5}  {:<40}  {:<24}  {:>5}  {:>12}\n", "rank", "level", "clue", "dfs", "pages", "relevance");
        for (i, r) in self.ranked.iter().take(rows).enumerate() {
            let dfs: Vec<String> = r.dfs().iter().map(u32::to_string).collect();
            let mut dfs = dfs.join(",");
            if dfs.len() > 24 {
                dfs.truncate(21);
                dfs.push_str("...");
            }
            // Long anchored paths keep their end, the part that names the element.
            let clue = r.pattern.ty.clue();
            let n = clue.chars().count();
            let clue = if n > 40 { format!("…{}", clue.chars().skip(n - 39).collect::<String>()) } else { clue };
            s.push_str(&format!(
                "{:>4}  {:>5}  {:<40}  {:<24}  {:>5}  {:>12.3}\n",
                i + 1,
                r.pattern.level,
                clue,
                dfs,
                r.pages,
                r.relevance
            ));
        }
        if self.groups.len() > 1 {
            let templates = self.wrapper.templates();
            s.push_str(&format!("\n{} templates (pages grouped by layout; the table ranks the first):\n", templates.len()));
            for (i, (w, g)) in templates.iter().zip(&self.groups).enumerate() {
                let pages: Vec<String> = g.iter().map(|p| (p + 1).to_string()).collect();
                s.push_str(&format!("  {}. pages {}: {}\n", i + 1, pages.join(","), w.xpath));
            }
        }
        s
    }
}

impl Wrapper {
    /// The wrapper of a site's sample (a feed or a folder, [`crate::feed::read`]) from its
    /// pages ([`crate::page::load`]): [`Wrapper::induce`], the wrapper's host taken from the
    /// pages, else from the site's home page as the feed links it.
    ///
    /// # Errors
    /// As [`Wrapper::induce`].
    pub fn induce_sample<P: Borrow<Page>>(sample: &crate::feed::Sample, pages: &[P], cfg: &Config) -> Result<Induction> {
        Wrapper::induce(&sample.site, pages, cfg).map(|i| i.homed(sample))
    }

    /// Induce a site's wrapper from its sample pages: an [`Inducer`] given each page in turn.
    /// A caller that reads pages one at a time and need not keep them gives them to an
    /// [`Inducer`] itself, and holds only what induction keeps of each.
    ///
    /// # Errors
    /// [`Error::TooFewPages`] with fewer than 2 pages; [`Error::NoPattern`] when no page has
    /// a significant node (e.g. pages without text).
    ///
    /// # Example
    /// ```
    /// let page = |i: u32, title: &str, words: &str| forest::Page::from_html(
    ///     format!("p{i}"),
    ///     &format!("<body><nav>home news sport</nav><div class='story'><h1>{title}</h1><p>{words}</p></div></body>"),
    /// ).unwrap();
    /// let pages = [
    ///     page(1, "KitKat for Android", "Android phones get KitKat, the new version, this week."),
    ///     page(2, "Apple at auction", "An old Apple computer sold at auction for a record price."),
    /// ];
    /// let config = forest::Config { k: 2, ..forest::Config::default() };
    /// let ind = forest::Wrapper::induce("demo", &pages, &config).unwrap();
    /// assert!(ind.wrapper.xpath.starts_with("//div[substring-before(concat(normalize-space(@class),' '),' ')='story'"));
    /// ```
    pub fn induce<P: Borrow<Page>>(site: &str, pages: &[P], cfg: &Config) -> Result<Induction> {
        let mut inducer = Inducer::new(site, cfg.clone());
        for p in pages {
            inducer.add(p.borrow());
        }
        inducer.finish()
    }

    /// The host key of the wrapper's site: its `host`, else the most common host of its
    /// sample pages' URLs.
    pub fn site_host(&self) -> Option<String> {
        if let Some(h) = self.host.as_deref().and_then(|h| crate::host::key(h).ok()) {
            return Some(h);
        }
        crate::host::most_common(self.pages.iter().filter_map(|p| crate::host::of_url(p)))
    }

    /// The wrapper of each template, its own first: the wrapper itself without its other
    /// templates, then each [`Variant`] as a whole wrapper (same site, template lines and
    /// options).
    pub fn templates(&self) -> Vec<Wrapper> {
        self.templates_with(true)
    }

    /// [`Wrapper::templates`], with the site's template lines in each or in none (an
    /// [`crate::extract::Applier`] holds them once, for all its templates).
    pub(crate) fn templates_with(&self, lines: bool) -> Vec<Wrapper> {
        let own = self.own_template(lines);
        let mut out = Vec::with_capacity(1 + self.others.len());
        for v in &self.others {
            out.push(Wrapper {
                xpath: v.xpath.clone(),
                pattern: v.pattern.clone(),
                candidates: v.candidates.clone(),
                alternatives: v.alternatives.clone(),
                pages: v.pages.clone(),
                layout: Some(v.layout.clone()),
                ..own.clone()
            });
        }
        out.insert(0, own);
        out
    }

    /// This wrapper without its other templates, and without its template lines unless
    /// `lines` (each field named: neither is cloned only to be dropped).
    fn own_template(&self, lines: bool) -> Wrapper {
        Wrapper {
            format: self.format.clone(),
            version: self.version,
            generator: self.generator.clone(),
            site: self.site.clone(),
            host: self.host.clone(),
            xpath: self.xpath.clone(),
            pattern: self.pattern.clone(),
            candidates: self.candidates.clone(),
            signifiers: self.signifiers,
            k: self.k,
            rank: self.rank,
            language: self.language.clone(),
            pages: self.pages.clone(),
            template: if lines { self.template.clone() } else { Vec::new() },
            prune_link_blocks: self.prune_link_blocks,
            headline: self.headline,
            alternatives: self.alternatives.clone(),
            typing: self.typing,
            layout: self.layout.clone(),
            others: Vec::new(),
            shows: self.shows.clone(),
        }
    }

    /// Keep the templates of an `older` wrapper of the same site that none of this wrapper's
    /// templates replaces (no layout of this one is [`layout::SAME_TEMPLATE`]-similar to
    /// theirs): pages of a site's earlier design keep their rules after a redesign. At most
    /// [`MAX_TEMPLATES`] templates are kept, the newest first. Returns how many were kept.
    pub fn keep_templates_of(&mut self, older: &Wrapper) -> usize {
        let mut kept = 0;
        for t in older.templates_with(false) {
            let Some(layout) = t.layout else { continue };
            let mine = std::iter::once(self.layout.as_ref()).chain(self.others.iter().map(|v| Some(&v.layout)));
            let replaced = mine.flatten().any(|l| l.similarity(&layout) >= layout::SAME_TEMPLATE);
            if replaced || 1 + self.others.len() >= MAX_TEMPLATES {
                continue;
            }
            self.others.push(Variant {
                layout,
                xpath: t.xpath,
                pattern: t.pattern,
                candidates: t.candidates,
                alternatives: t.alternatives,
                pages: t.pages,
            });
            kept += 1;
        }
        kept
    }

    /// Read a wrapper file (at most [`MAX_WRAPPER_BYTES`]).
    ///
    /// # Errors
    /// [`Error::Io`] when unreadable, [`Error::TooLarge`] past the cap, [`Error::BadWrapper`]
    /// when it is not a forest wrapper.
    pub fn load(path: &Path) -> Result<Wrapper> {
        let bytes = crate::fetch::read_file_within(path, MAX_WRAPPER_BYTES)?;
        Wrapper::parse_json(&bytes).map_err(|message| Error::BadWrapper { path: path.to_path_buf(), message })
    }

    /// Parse a wrapper from JSON bytes.
    ///
    /// # Errors
    /// [`Error::BadWrapper`] saying what is wrong (its path reads `(JSON)`).
    pub fn from_json(bytes: &[u8]) -> Result<Wrapper> {
        Wrapper::parse_json(bytes).map_err(|message| Error::BadWrapper { path: "(JSON)".into(), message })
    }

    fn parse_json(bytes: &[u8]) -> std::result::Result<Wrapper, String> {
        // One pass for a good wrapper; a second, to say what is wrong, only for a bad one.
        let w = match serde_json::from_slice::<Wrapper>(bytes) {
            Ok(w) if w.format == FORMAT => w,
            _ => Wrapper::parse_json_checked(bytes)?,
        };
        if w.version > VERSION {
            return Err(format!("wrapper version {} is newer than this forest reads ({VERSION})", w.version));
        }
        Ok(w)
    }

    /// [`Wrapper::parse_json`] in steps, each failing with its own message.
    fn parse_json_checked(bytes: &[u8]) -> std::result::Result<Wrapper, String> {
        let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(format!("no \"format\": \"{FORMAT}\" field"));
        }
        serde_json::from_value(value).map_err(|e| format!("malformed wrapper: {e}"))
    }

    /// The wrapper as pretty JSON.
    ///
    /// # Errors
    /// [`Error::Invalid`] when it cannot be written (a score that is not a finite number).
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string_pretty(self).map_err(|e| Error::Invalid(format!("the wrapper cannot be written as JSON: {e}")))
    }
}

/// The stages after the words: signifiers, candidates, layouts and ranking, on the kept pages
/// (their shapes: [`Inducer`]) with their `terms`, the site's `template` and the `analyzer` that
/// numbered the terms.
#[allow(clippy::too_many_arguments)]
fn induce_kept(
    site: &str,
    pages: &[Shape],
    locations: &[String],
    terms: Vec<PageTerms>,
    feed_terms: Vec<Vec<TermId>>,
    template: template::Compact,
    analyzer: Analyzer,
    host: Option<String>,
    cfg: &Config,
) -> Result<Induction> {
    let language = analyzer.language();
    // The layouts and their groups first: clustering's pair table is gone before candidates
    // are made.
    let layouts: Vec<Layout> = if cfg.templates { pages.iter().map(Layout::of).collect() } else { Vec::new() };
    let groups = template_groups(&layouts, pages.len());
    // Each group's common layout, and the pages' layouts are let go.
    let group_layouts: Vec<Option<Layout>> = groups
        .iter()
        .map(|group| (layouts.len() == pages.len()).then(|| Layout::common(group.iter().map(|&i| &layouts[i]))))
        .collect();
    drop(layouts);
    let bags: Vec<&[TermId]> = terms.iter().map(|t| t.terms.as_slice()).collect();
    let opts = signifiers::Options { source: cfg.signifiers, k: cfg.k, skip_numeric: cfg.skip_numeric };
    let sigs: Vec<Signifiers> = signifiers::select(&analyzer, &bags, &feed_terms, opts);
    drop(bags);
    let mut shared = patterns::Patterns::default();
    // What ranking reads of a page's terms is in its candidates: the terms go as they are made.
    let cands: Vec<PageCandidates> =
        pages.iter().zip(terms).zip(&sigs).map(|((p, t), s)| patterns::collect_with(p, &t, s, cfg.typing, &mut shared)).collect();
    let typers: Vec<Typer<Shape>> = pages.iter().map(|p| Typer::new(p, cfg.typing)).collect();
    // A pattern per group: ranking, fallbacks and alternatives see only the group's pages.
    let mut learned: Vec<(Vec<usize>, Option<Layout>, Learned)> = Vec::new();
    for (group, layout) in groups.into_iter().zip(group_layouts) {
        let gpages: Vec<&Shape> = group.iter().map(|&i| &pages[i]).collect();
        let gtypers: Vec<&Typer<Shape>> = group.iter().map(|&i| &typers[i]).collect();
        let gcands: Vec<&PageCandidates> = group.iter().map(|&i| &cands[i]).collect();
        let Some(l) = learn(&gpages, &gtypers, &gcands, cfg) else { continue };
        learned.push((group, layout, l));
    }
    // What ranking learned is all that is read now: the candidates and types go before the
    // template's lines are written out.
    drop((cands, typers, shared));
    let mut learned = learned.into_iter();
    let Some((group, layout, main)) = learned.next() else { return Err(Error::NoPattern { site: site.to_string() }) };
    let mut groups = vec![group.clone()];
    let mut others = Vec::new();
    for (g, layout, l) in learned {
        others.push(Variant {
            layout: layout.unwrap_or_default(),
            xpath: l.candidates[0].xpath.clone(),
            pattern: l.candidates[0].clone(),
            candidates: l.candidates,
            alternatives: l.alternatives,
            pages: g.iter().map(|&i| locations[i].clone()).collect(),
        });
        groups.push(g);
    }
    let pattern = main.candidates[0].clone();
    let wrapper = Wrapper {
        format: FORMAT.to_string(),
        version: VERSION,
        generator: concat!("forest ", env!("CARGO_PKG_VERSION")).to_string(),
        site: site.to_string(),
        host,
        xpath: pattern.xpath.clone(),
        pattern,
        candidates: main.candidates,
        signifiers: cfg.signifiers,
        k: cfg.k,
        rank: cfg.rank,
        language: language.code.to_string(),
        pages: group.iter().map(|&i| locations[i].clone()).collect(),
        template: template.lines(),
        prune_link_blocks: cfg.prune_link_blocks,
        headline: cfg.headline,
        alternatives: main.alternatives,
        typing: cfg.typing,
        layout,
        others,
        shows: Shows::default(),
    };
    let ranked = main.ranked;
    let signifiers = sigs
        .iter()
        .map(|s| {
            let mut w: Vec<(&TermId, &f64)> = s.weights.iter().collect();
            w.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
            w.into_iter().map(|(&t, _)| analyzer.term(t).to_string()).collect()
        })
        .collect();
    Ok(Induction { wrapper, ranked, signifiers, groups })
}

/// What ranking learns from one group of pages.
struct Learned {
    ranked: Vec<Ranked>,
    candidates: Vec<Choice>,
    alternatives: Vec<Choice>,
}

/// Rank the patterns of one group of pages; `None` when none has a significant node.
fn learn(pages: &[&Shape], typers: &[&Typer<Shape>], cands: &[&PageCandidates], cfg: &Config) -> Option<Learned> {
    let ranker = cfg.rank.ranker();
    let ranked = rank::rank(cands, ranker);
    let top = ranked.first()?;
    let candidates: Vec<Choice> =
        ranked.iter().take(KEPT_CANDIDATES).map(|r| choice(r, pages, typers, cands, cfg.split_articles)).collect();
    let alternatives =
        if cfg.alternatives { alternatives(top, pages, typers, cands, ranker, cfg.split_articles) } else { Vec::new() };
    Some(Learned { ranked, candidates, alternatives })
}

/// The groups of pages that each get a pattern: the layout groups of two or more pages (the
/// [`MAX_TEMPLATES`] largest); all
/// pages as one group when there is none (no layouts, or every page a template of its own).
fn template_groups(layouts: &[Layout], pages: usize) -> Vec<Vec<usize>> {
    let all = || vec![(0..pages).collect::<Vec<usize>>()];
    if layouts.len() != pages {
        return all();
    }
    // The largest groups, at most as many as a wrapper keeps templates.
    let groups: Vec<Vec<usize>> = layout::cluster(layouts).into_iter().filter(|g| g.len() >= 2).take(MAX_TEMPLATES).collect();
    if groups.is_empty() {
        all()
    } else {
        groups
    }
}

/// How many alternative patterns a wrapper keeps at most.
pub const MAX_ALTERNATIVES: usize = 3;

/// Patterns for the pages `winner` misses: rank again on those pages only, keep the best,
/// and repeat on the pages still missed.
fn alternatives(
    winner: &Ranked,
    pages: &[&Shape],
    typers: &[&Typer<Shape>],
    cands: &[&PageCandidates],
    ranker: &dyn rank::Ranker,
    split_articles: bool,
) -> Vec<Choice> {
    let mut covered = vec![false; pages.len()];
    for &(i, _, _) in &winner.best {
        covered[i] = true;
    }
    let mut out = Vec::new();
    while out.len() < MAX_ALTERNATIVES {
        let rest: Vec<usize> = (0..pages.len()).filter(|&i| !covered[i]).collect();
        if rest.is_empty() {
            break;
        }
        let sub: Vec<&PageCandidates> = rest.iter().map(|&i| cands[i]).collect();
        let Some(top) = rank::rank(&sub, ranker).into_iter().next() else { break };
        // Back from indices into `rest` to indices into `pages`.
        let best: Vec<(usize, u32, f64)> = top.best.iter().map(|&(j, d, s)| (rest[j], d, s)).collect();
        for &(i, _, _) in &best {
            covered[i] = true;
        }
        out.push(choice(&Ranked { best, ..top }, pages, typers, cands, split_articles));
    }
    out
}

/// Keep a ranked pattern: its XPath, dfs list and parent type.
fn choice(r: &Ranked, pages: &[&Shape], typers: &[&Typer<Shape>], cands: &[&PageCandidates], split_articles: bool) -> Choice {
    let dfs = r.dfs();
    // Pages where the best element has a same-kind sibling that is a candidate too.
    let split_pages = r
        .best
        .iter()
        .filter(|&&(i, d, _)| {
            let (doc, pc, typer) = (pages[i], &cands[i], &typers[i]);
            let Some(node) = doc.by_dfs(d) else { return false };
            let Some(parent) = doc.parent(node) else { return false };
            doc.children(parent).any(|s| {
                s != node
                    && typer.same_kind(&r.pattern.ty, s)
                    && doc.dfs(s).is_some_and(|dfs| pc.candidates.iter().any(|c| c.dfs == dfs))
            })
        })
        .count();
    let repeated = split_articles && split_pages > 0 && split_pages * 2 >= r.pages;
    let mut parents: HashMap<ElementType, usize> = HashMap::new();
    for &(i, d, _) in &r.best {
        let doc = pages[i];
        let parent = doc.by_dfs(d).and_then(|n| doc.parent(n));
        if let Some(t) = parent.and_then(|p| ElementType::of(doc, p)) {
            *parents.entry(t.portable()).or_insert(0) += 1;
        }
    }
    let parent = parents.into_iter().max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0))).map(|(t, _)| t);
    // How the samples' id/class tokens stand: with digits, after utility tokens.
    let tokens = r.best.iter().fold(Tokens::default(), |acc, &(i, d, _)| {
        let doc = pages[i];
        doc.by_dfs(d).map_or(acc, |n| acc.or(Tokens::near(doc, n)))
    });
    Choice {
        xpath: xpath_with(&r.pattern.ty, &dfs, tokens),
        pattern: r.pattern.clone(),
        dfs,
        parent,
        pages: r.pages,
        relevance: r.relevance,
        repeated,
    }
}

/// The XPath of an element type found at the given dfs numbers.
///
/// # Example
/// ```
/// use forest::patterns::ElementType;
/// let ty = ElementType { tag: "div".into(), id: None, class: Some("story".into()), dfs: None, path: None };
/// assert_eq!(forest::wrapper::xpath(&ty, &[78, 82]),
///            "//div[substring-before(concat(normalize-space(@class),' '),' ')='story' and (@dfs='78' or @dfs='82')]");
/// ```
pub fn xpath(ty: &ElementType, dfs: &[u32]) -> String {
    xpath_with(ty, dfs, Tokens::default())
}

/// As [`xpath()`]; `tokens` says whether the attribute tokens may carry digits that the
/// tolerant form dropped (then the test strips digits too) and whether utility tokens may come
/// before them (then the test looks for the token anywhere in the value).
pub fn xpath_with(ty: &ElementType, dfs: &[u32], digits: Tokens) -> String {
    if let Some(path) = &ty.path {
        return anchored_xpath(path, dfs, digits);
    }
    let mut preds = attr_preds(ty.id.as_deref(), ty.class.as_deref(), digits);
    match (ty.dfs, dfs) {
        (Some(d), _) => preds.push(format!("@dfs='{d}'")),
        (None, []) => {}
        (None, [d]) => preds.push(format!("@dfs='{d}'")),
        (None, ds) => {
            let ors: Vec<String> = ds.iter().map(|d| format!("@dfs='{d}'")).collect();
            preds.push(format!("({})", ors.join(" or ")));
        }
    }
    if preds.is_empty() {
        format!("//{}", ty.tag)
    } else {
        format!("//{}[{}]", ty.tag, preds.join(" and "))
    }
}

/// The XPath of an anchored path: the anchor by its type, then child steps by tag and index,
/// the last one restricted to the dfs numbers: `//div[…='main']/table[2]/tr[1]/td[3][@dfs='98']`.
/// A path without an anchor starts at the root (`/html[1]/…`), or anywhere when it was cut at
/// [`patterns::MAX_ANCHORED_STEPS`] (`//div[3]/…`).
fn anchored_xpath(path: &[Step], dfs: &[u32], digits: Tokens) -> String {
    let mut s = String::new();
    for (i, st) in path.iter().enumerate() {
        let preds = attr_preds(st.id.as_deref(), st.class.as_deref(), digits);
        s.push_str(if i == 0 && (!preds.is_empty() || st.tag != "html") { "//" } else { "/" });
        s.push_str(&st.tag);
        if !preds.is_empty() {
            s.push_str(&format!("[{}]", preds.join(" and ")));
        }
        if let Some(idx) = st.index {
            s.push_str(&format!("[{idx}]"));
        }
    }
    if !dfs.is_empty() {
        let ors: Vec<String> = dfs.iter().map(|d| format!("@dfs='{d}'")).collect();
        s.push_str(&format!("[{}]", ors.join(" or ")));
    }
    s
}

/// The tests for a type's tolerant `id` and `class`, as XPath predicates.
fn attr_preds(id: Option<&str>, class: Option<&str>, tokens: Tokens) -> Vec<String> {
    [("id", id), ("class", class)].into_iter().filter_map(|(a, v)| Some(token_is(a, v?, tokens))).collect()
}

/// XPath 1.0 test: the first token of attribute `attr` (any token when `tokens.anywhere`;
/// digits dropped when `tokens.digits`) is `value`.
fn token_is(attr: &str, value: &str, tokens: Tokens) -> String {
    let norm = format!("normalize-space(@{attr})");
    let norm = if tokens.digits { format!("translate({norm},'0123456789','')") } else { norm };
    if tokens.anywhere {
        return format!("contains(concat(' ',{norm},' '),{})", literal(&format!(" {value} ")));
    }
    let first = format!("substring-before(concat(normalize-space(@{attr}),' '),' ')");
    if tokens.digits {
        format!("translate({first},'0123456789','')={}", literal(value))
    } else {
        format!("{first}={}", literal(value))
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchored_types_and_their_xpath_select_the_same_element() {
        let doc = crate::clean::page(
            "<div id='main'><table><tr><td>menu</td></tr><tr><td>a</td><td><p>x</p><p>the article</p></td></tr></table></div>",
        );
        let typer = Typer::new(&doc, Typing::Anchored);
        let target = (0..doc.nodes.len() as u32)
            .find(|&n| doc.element(n).is_some_and(|e| e.name == "p") && doc.text(n) == "the article")
            .unwrap();
        let ty = typer.of(target).unwrap();
        assert_eq!(ty.clue(), "div#main/table[1]/tbody[1]/tr[2]/td[2]/p[2]");
        let dfs = doc.element(target).unwrap().dfs;
        let xp = xpath(&ty, &[dfs]);
        assert_eq!(
            xp,
            format!("//div[substring-before(concat(normalize-space(@id),' '),' ')='main']/table[1]/tbody[1]/tr[2]/td[2]/p[2][@dfs='{dfs}']")
        );
        for expr in [xp.clone(), xpath(&ty, &[])] {
            let package = sxd_document::parser::parse(&doc.to_xml()).unwrap();
            let document = package.as_document();
            let found = sxd_xpath::evaluate_xpath(&document, &format!("string(({expr})/@dfs)")).unwrap();
            assert_eq!(found.string(), dfs.to_string(), "{expr}");
        }
        assert!(typer.matches(&ty, target));
        assert!(typer.same_kind(&ty, target - 2)); // the first p of the same cell
        assert!(!typer.matches(&ty, target - 2));
    }


    #[test]
    fn wrapper_json_round_trips_and_rejects_others() {
        assert!(Wrapper::from_json(b"{\"format\":\"other\"}").unwrap_err().to_string().contains("format"));
        assert!(Wrapper::from_json(b"not json").unwrap_err().to_string().contains("not JSON"));
    }
}
