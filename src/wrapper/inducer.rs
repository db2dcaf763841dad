//! Induction page by page: what [`crate::Wrapper::induce`] keeps of each sample page.
//!
//! Every stage that reads a page's words (copies, language, template, terms, host) reads them
//! once, in the page's [`Summary`], which can be made where the page is read (each reading
//! worker summarizes its pages, [`crate::page::read_items`]): its hash, language and host
//! sources, its template keys with their lines, its words (packed, tokens numbered in a table
//! of its own), and its tree's shape ([`Shape`]), which is all the structure stages (element
//! types, candidates, layouts, the XPath's choice) read. The [`Inducer`] adds the summaries in
//! the pages' order: it counts the template keys, renumbers the tokens and the `id`/`class`
//! values in the sample's tables ([`Strings`], [`Values`]: a site's pages repeat them), and
//! keeps the shape and the words, about a twentieth of the page's tree.
//!
//! The words' order is kept: tokens and terms are numbered as they are first met in the
//! pages' order, as when pages were held whole, so ties break the same way and the wrapper is
//! the same.

use super::{Config, Induction};
use crate::clean::{Doc, NodeData, Shape, Strings, Values};
use crate::template::{self, Compact, PageKeys};
use crate::text::tokens::Tokenizer;
use crate::text::{Analyzer, Language, TermId};
use crate::patterns::PageTerms;
use crate::{Page, Result};
use std::collections::{HashMap, HashSet};

/// What [`Inducer::read_sample`] gave.
#[allow(missing_debug_implementations)]
pub struct ReadSample {
    /// The induction, or why there is none.
    pub induction: Result<Induction>,
    /// The pages whole, when asked to keep them.
    pub pages: Vec<Page>,
    /// The pages that could not be read, with why.
    pub failed: Vec<(String, crate::Error)>,
}

/// A kept page's words: the text nodes of its body with at least one token, and their tokens,
/// packed in bytes. Numbers take as few bytes as they need (seven bits a byte, the last byte's
/// high bit clear), most of them one or two: a page holds its words in about a third of the
/// space of fixed-width records.
#[derive(Debug, Clone, Default)]
struct Words {
    /// Per text: its node's distance from the text before's, times four, plus its flags
    /// ([`KEYED`], [`IN_LINK`]); how many bytes its tokens take; its template key (eight
    /// bytes) when it has one ([`template::keyed_texts`]).
    texts: Vec<u8>,
    /// The tokens, as ids into the inducer's token table (a site's common words are met first,
    /// so their ids are small).
    tokens: Vec<u8>,
    /// The node of the last text.
    last: u32,
}

/// A text with a template key.
const KEYED: u8 = 1;
/// A text inside a link.
const IN_LINK: u8 = 2;

/// `n` in as few bytes as it needs.
fn put(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n & 0x7f) as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The number [`put`] wrote at the start of `bytes`, which then start after it.
fn take(bytes: &mut &[u8]) -> Option<u64> {
    let (mut n, mut shift) = (0u64, 0);
    while let Some((&b, rest)) = bytes.split_first() {
        *bytes = rest;
        n |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
        shift += 7;
        if b < 0x80 {
            return Some(n);
        }
    }
    None
}

/// A text read back from [`Words`].
struct Text<'a> {
    node: u32,
    flags: u8,
    /// Its template key (0 when it has none).
    key: u64,
    /// Its tokens' ids.
    tokens: Ids<'a>,
}

impl Words {
    fn push_token(&mut self, id: u32) {
        put(&mut self.tokens, u64::from(id));
    }

    /// The text at `node` (texts come in document order; any order still reads back), whose
    /// tokens are the last `token_bytes` bytes pushed.
    fn push_text(&mut self, node: u32, flags: u8, key: u64, token_bytes: usize) {
        put(&mut self.texts, (u64::from(node.wrapping_sub(self.last)) << 2) | u64::from(flags & 3));
        put(&mut self.texts, token_bytes as u64);
        if flags & KEYED != 0 {
            self.texts.extend_from_slice(&key.to_le_bytes());
        }
        self.last = node;
    }

    /// The text at `node`, whose tokens were pushed since the token bytes numbered `start`:
    /// kept when it has any.
    fn end_text(&mut self, node: u32, flags: u8, key: u64, start: usize) {
        if self.tokens.len() > start {
            self.push_text(node, flags, key, self.tokens.len() - start);
        }
    }

    /// The words, done with adding.
    fn done(mut self) -> Words {
        self.texts.shrink_to_fit();
        self.tokens.shrink_to_fit();
        self
    }

    /// Each text, in order.
    fn texts(&self) -> impl Iterator<Item = Text<'_>> {
        let (mut texts, mut tokens, mut node) = (self.texts.as_slice(), self.tokens.as_slice(), 0u32);
        std::iter::from_fn(move || {
            let head = take(&mut texts)?;
            let len = usize::try_from(take(&mut texts)?).ok()?;
            node = node.wrapping_add(u32::try_from(head >> 2).ok()?);
            let flags = (head & 3) as u8;
            let mut key = 0;
            if flags & KEYED != 0 {
                let (k, rest) = texts.split_first_chunk::<8>()?;
                (key, texts) = (u64::from_le_bytes(*k), rest);
            }
            let (mine, rest) = tokens.split_at_checked(len)?;
            tokens = rest;
            Some(Text { node, flags, key, tokens: Ids(mine) })
        })
    }
}

/// The token ids of a text, read from their bytes ([`Words::tokens`]).
struct Ids<'a>(&'a [u8]);

impl Iterator for Ids<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        take(&mut self.0).map(|n| n as u32)
    }
}

/// What induction reads of one sample page ([`Summary::of`]), made apart from the
/// [`Inducer`] (by the worker that read the page, so pages are read in parallel) and added in
/// the sample's order ([`Inducer::add_summary`]). Its tokens and `id`/`class` values are
/// numbered in tables of its own, and renumbered in the sample's as it is added, as they are
/// first met, so the wrapper is the one [`Inducer::add`] gives. A clone serves another
/// inducer: the bench's unseen protocol reads each page once for all the samples it is in.
#[derive(Clone)]
pub struct Summary {
    /// A hash of its words, in order ([`text_hash`]): a page with the same text is a copy.
    text_hash: u64,
    location: String,
    item: Option<crate::feed::Item>,
    hosts: [Option<String>; 4],
    language: Option<Language>,
    shape: Shape,
    keys: PageKeys,
    words: Words,
    /// The tokens `words` numbers.
    tokens: Strings,
    /// Where it shows its byline and date.
    shows: super::shows::PageShows,
}

impl Summary {
    /// What induction configured as `cfg` reads of `page`.
    pub fn of(page: &Page, cfg: &Config) -> Summary {
        let doc = &page.doc;
        let keys = template::keyed_texts(doc);
        let language = if cfg.language.is_some() {
            None
        } else {
            Language::of_page(doc.lang.as_deref(), &doc.text_sample(2000))
        };
        let mut tokens = Strings::default();
        Summary {
            text_hash: text_hash(doc),
            location: page.location.clone(),
            item: page.item.clone(),
            hosts: crate::host::sources(page),
            language,
            shape: Shape::of(doc),
            keys: PageKeys::of(doc, &keys, cfg.template_min_pages),
            words: words(doc, &keys.texts, &mut tokens),
            tokens,
            shows: super::shows::PageShows::of(page),
        }
    }
}

/// What is kept of one sample page.
struct Kept {
    /// Where it was read from.
    location: String,
    /// Its feed item, when known.
    item: Option<crate::feed::Item>,
    /// Its tree's shape.
    shape: Shape,
    /// The language it declares or shows, when the site's is not given.
    language: Option<Language>,
    /// Its host, by each source [`crate::host`] trusts.
    hosts: [Option<String>; 4],
    /// Its body's words, until the template is known.
    words: Words,
    /// Where it shows its byline and date.
    shows: super::shows::PageShows,
}

/// A wrapper induced from pages added one at a time.
///
/// # Example
/// ```
/// let page = |i: u32, title: &str, words: &str| forest::Page::from_html(
///     format!("p{i}"),
///     &format!("<body><nav>home news sport</nav><div class='story'><h1>{title}</h1><p>{words}</p></div></body>"),
/// ).unwrap();
/// let config = forest::Config { k: 2, ..forest::Config::default() };
/// let mut inducer = forest::wrapper::Inducer::new("demo", config);
/// inducer.add(&page(1, "KitKat for Android", "Android phones get KitKat, the new version, this week."));
/// inducer.add(&page(2, "Apple at auction", "An old Apple computer sold at auction for a record price."));
/// let ind = inducer.finish().unwrap();
/// assert!(ind.wrapper.xpath.starts_with("//div[substring-before(concat(normalize-space(@class),' '),' ')='story'"));
/// ```
pub struct Inducer {
    site: String,
    cfg: Config,
    /// Pages added, copies included.
    added: usize,
    /// The text hash of each page kept ([`text_hash`]): a later page with the same text is a copy.
    seen: HashSet<u64, rustc_hash::FxBuildHasher>,
    template: template::Learner,
    /// The tokens met, numbered.
    tokens: Strings,
    /// The `id` and `class` values of the kept pages' shapes, each kept once for the sample.
    values: Values,
    kept: Vec<Kept>,
}

impl Inducer {
    /// An inducer for site `site` (its name in the wrapper).
    pub fn new(site: &str, cfg: Config) -> Inducer {
        Inducer {
            site: site.to_string(),
            template: template::Learner::new(cfg.template_min_pages),
            cfg,
            added: 0,
            seen: HashSet::default(),
            tokens: Strings::default(),
            values: Values::default(),
            kept: Vec::new(),
        }
    }

    /// Add a sample page. A page with the same text as one added before is a copy, and left
    /// out.
    pub fn add(&mut self, page: &Page) {
        self.add_summary(Summary::of(page, &self.cfg));
    }

    /// Add what was read of a sample page ([`Summary::of`], with this inducer's
    /// configuration): as [`Inducer::add`], the pages in the sample's order.
    pub fn add_summary(&mut self, page: Summary) {
        self.added += 1;
        if !self.seen.insert(page.text_hash) {
            return;
        }
        self.template.add(&page.keys);
        // The page's tokens, numbered in the sample's table as they are met.
        let mut ids = vec![None; page.tokens.len()];
        let mut words = Words::default();
        for t in page.words.texts() {
            let start = words.tokens.len();
            for local in t.tokens {
                let Some(slot) = ids.get_mut(local as usize) else { continue };
                let id = *slot.get_or_insert_with(|| page.tokens.get(local).and_then(|tok| self.tokens.id(tok)));
                if let Some(id) = id {
                    words.push_token(id);
                }
            }
            words.end_text(t.node, t.flags, t.key, start);
        }
        let words = words.done();
        let Summary { location, item, hosts, language, shape, shows, .. } = page;
        let shape = shape.shared_in(&mut self.values);
        self.kept.push(Kept { location, item, shape, language, hosts, words, shows });
    }

    /// How many pages were added so far, copies included.
    pub fn pages_added(&self) -> usize {
        self.added
    }

    /// Read the first `max_pages` pages of `sample` with `fetcher`, each within `budget`
    /// (`done` called after each), summarized by the worker that read it, and induce the
    /// site's wrapper from them ([`Inducer::finish_sample`]); `keep_pages` keeps the pages
    /// whole too (the FiveFilters export checks the wrapper on them). Too few pages names why
    /// the others failed.
    pub fn read_sample(
        sample: &crate::feed::Sample,
        fetcher: &crate::fetch::Fetcher,
        cfg: &Config,
        max_pages: usize,
        budget: &crate::budget::Budget,
        keep_pages: bool,
        done: &(dyn Fn() + Sync),
    ) -> ReadSample {
        let items = &sample.items[..sample.items.len().min(max_pages)];
        let mut inducer = Inducer::new(&sample.site, cfg.clone());
        let (mut pages, mut failed) = (Vec::new(), Vec::new());
        let summarize = |p: Page| (Summary::of(&p, cfg), keep_pages.then_some(p));
        crate::page::read_items(fetcher, items, crate::page::read_jobs(items), budget, done, summarize, |item, read| match read {
            Ok((summary, page)) => {
                inducer.add_summary(summary);
                pages.extend(page);
            }
            Err(e) => failed.push((item.page.to_string(), e)),
        });
        let induction = match inducer.finish_sample(sample) {
            Err(crate::Error::TooFewPages { got, detail }) if detail.is_empty() => {
                let detail = if failed.is_empty() {
                    format!(" ({} item(s) in the sample)", sample.items.len())
                } else {
                    let causes: Vec<String> = failed.iter().map(|(w, e)| format!("{w}: {e}")).collect();
                    format!("; failed: {}", causes.join("; "))
                };
                Err(crate::Error::TooFewPages { got, detail })
            }
            other => other,
        };
        ReadSample { induction, pages, failed }
    }

    /// [`Inducer::finish`] for the pages of `sample` (a feed or a folder): as
    /// [`crate::Wrapper::induce_sample`].
    ///
    /// # Errors
    /// As [`crate::Wrapper::induce`].
    pub fn finish_sample(self, sample: &crate::feed::Sample) -> Result<Induction> {
        self.finish().map(|i| i.homed(sample))
    }

    /// Induce the wrapper from the pages added.
    ///
    /// # Errors
    /// As [`crate::Wrapper::induce`].
    pub fn finish(self) -> Result<Induction> {
        let Inducer { site, cfg, added, template, tokens, values, mut kept, .. } = self;
        if added < 2 {
            return Err(crate::Error::TooFewPages { got: added, detail: String::new() });
        }
        if kept.len() < 2 {
            return Err(crate::Error::TooFewPages {
                got: kept.len(),
                detail: " (the others are copies of it: the same text)".to_string(),
            });
        }
        let language = cfg.language.as_deref().and_then(Language::from_code).unwrap_or_else(|| site_language(&kept));
        let mut analyzer = Analyzer::new(language);
        let mut template = template.finish();
        let terms = page_terms(&mut kept, &tokens, &template, &mut analyzer, cfg.skip_link_text);
        template.forget_keys();
        drop(tokens);
        // The feed items' terms, numbered after the pages' (as they were met).
        let feed_terms: Vec<Vec<TermId>> = kept
            .iter()
            .map(|k| {
                let mut t = Vec::new();
                if let Some(item) = &k.item {
                    analyzer.terms(&item.title, &mut t);
                    analyzer.terms(&item.description, &mut t);
                }
                t.sort_unstable();
                t.dedup();
                t
            })
            .collect();
        analyzer.forget_tokens();
        let host = crate::host::of_sources(kept.iter().map(|k| k.hosts.clone()).collect());
        let shows = super::shows::learn(&kept.iter_mut().map(|k| std::mem::take(&mut k.shows)).collect::<Vec<_>>());
        let (mut shapes, mut locations) = (Vec::with_capacity(kept.len()), Vec::with_capacity(kept.len()));
        let values = std::sync::Arc::new(values.freeze());
        for k in kept {
            shapes.push(k.shape.with_values(std::sync::Arc::clone(&values)));
            locations.push(k.location);
        }
        let mut induction = super::induce_kept(&site, &shapes, &locations, terms, feed_terms, template, analyzer, host, &cfg)?;
        induction.wrapper.shows = shows;
        Ok(induction)
    }
}

/// The text nodes of the body of `doc` with their tokens, numbered in `table`; `keyed` gives
/// their template keys ([`template::keyed_texts`]).
fn words(doc: &Doc, keyed: &[template::Keyed], table: &mut Strings) -> Words {
    let in_link = doc.in_link();
    let mut keys = keyed.iter().peekable();
    let mut words = Words::default();
    let mut tokenizer = Tokenizer::default();
    let body = doc.body as usize;
    let end = doc.nodes.get(body).map_or(0, |n| n.end as usize);
    for (i, node) in doc.nodes.iter().enumerate().take(end).skip(body) {
        let NodeData::Text(t) = &node.data else { continue };
        while keys.next_if(|k| (k.node as usize) < i).is_some() {}
        let key = keys.next_if(|k| k.node as usize == i).map(|k| k.key);
        let start = words.tokens.len();
        // A token past a 4 GiB table is left out: no page set holds that many words.
        tokenizer.each(t, |tok| table.id(tok).into_iter().for_each(|id| words.push_token(id)));
        let flags = if key.is_some() { KEYED } else { 0 } | if in_link[i] { IN_LINK } else { 0 };
        words.end_text(i as u32, flags, key.unwrap_or(0), start);
    }
    words.done()
}

/// The terms of each kept page: its body's text nodes, less template text (and link text when
/// `skip_links`), each token's term as `analyzer` numbers it, in the pages' order. Each page's
/// texts and tokens are let go once its terms are read.
fn page_terms(kept: &mut [Kept], tokens: &Strings, template: &Compact, analyzer: &mut Analyzer, skip_links: bool) -> Vec<PageTerms> {
    // Each token's term, asked of the analyzer the first time the token is met.
    let mut term: Vec<Option<Option<TermId>>> = vec![None; tokens.len()];
    kept.iter_mut()
        .map(|k| {
            let mut pt = PageTerms::default();
            let words = std::mem::take(&mut k.words);
            for t in words.texts() {
                if (t.flags & KEYED != 0 && template.holds(t.key)) || (skip_links && t.flags & IN_LINK != 0) {
                    continue;
                }
                let start = pt.terms.len() as u32;
                for tok in t.tokens {
                    let Some(slot) = term.get_mut(tok as usize) else { continue };
                    let id = *slot.get_or_insert_with(|| analyzer.term_of(tokens.get(tok).unwrap_or_default()));
                    pt.terms.extend(id);
                }
                let stop = pt.terms.len() as u32;
                if stop > start {
                    pt.texts.push((t.node, start, stop));
                }
            }
            pt.texts.shrink_to_fit();
            pt.terms.shrink_to_fit();
            pt
        })
        .collect()
}

/// A hash of a page's words, in order: pages with equal hashes are copies.
fn text_hash(doc: &Doc) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    for node in &doc.nodes {
        if let NodeData::Text(t) = &node.data {
            t.split_whitespace().for_each(|w| w.hash(&mut h));
        }
    }
    h.finish()
}

/// The language most kept pages declare or show (English when none is known).
fn site_language(kept: &[Kept]) -> Language {
    let mut votes: HashMap<&'static str, (usize, Language)> = HashMap::new();
    for l in kept.iter().filter_map(|k| k.language) {
        votes.entry(l.code).or_insert((0, l)).0 += 1;
    }
    votes
        .into_values()
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.code.cmp(a.1.code)))
        .map_or(Language::ENGLISH, |(_, l)| l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::Template;

    /// The kept pages' terms are the terms of the whole pages, numbered alike.
    #[test]
    fn kept_terms_equal_the_whole_pages_terms() {
        let html = [
            "<body><nav><a>Home</a> <a>World news</a></nav><div class='story'><h1>Rain, again</h1><p>The rain in Spain falls mainly on the plain; <a href='x'>more rain</a>.</p></div><footer>Copyright the Paper</footer></body>",
            "<body><nav><a>Home</a> <a>World news</a></nav><div class='story'><h1>Sun at last</h1><p>Sun over Spain, and the plains are dry: the running streams are gone.</p></div><footer>Copyright the Paper</footer></body>",
        ];
        let pages: Vec<Page> = html.iter().enumerate().map(|(i, h)| Page::from_html(format!("p{i}"), h).unwrap()).collect();
        for skip_links in [false, true] {
            let cfg = Config { skip_link_text: skip_links, ..Config::default() };
            let mut inducer = Inducer::new("t", cfg.clone());
            for p in &pages {
                inducer.add(p);
            }
            let template = inducer.template.finish();
            let refs: Vec<&Page> = pages.iter().collect();
            let whole = Template::learn(&refs, cfg.template_min_pages);
            assert_eq!(template.lines(), whole.lines);
            assert!(!whole.lines.is_empty());
            let mut a = Analyzer::new(Language::ENGLISH);
            let kept = page_terms(&mut inducer.kept, &inducer.tokens, &template, &mut a, skip_links);
            let mut b = Analyzer::new(Language::ENGLISH);
            for (p, k) in pages.iter().zip(&kept) {
                let mut skip = whole.mask(&p.doc);
                if skip_links {
                    for (s, l) in skip.iter_mut().zip(p.doc.in_link()) {
                        *s |= l;
                    }
                }
                let pt = PageTerms::of(&p.doc, &mut b, &skip);
                assert_eq!((&k.texts, &k.terms), (&pt.texts, &pt.terms));
            }
        }
    }

    /// Texts and token ids come back as they went in, whatever their size.
    #[test]
    fn words_keep_their_texts_and_token_ids() {
        let mut w = Words::default();
        let texts: [(u32, u8, u64, &[u32]); 5] = [
            (3, KEYED, u64::MAX, &[0, 127, 128, 16_383]),
            (4, IN_LINK, 0, &[16_384, u32::MAX]),
            (4_000_000, KEYED | IN_LINK, 7, &[5]),
            (u32::MAX, 0, 0, &[1, 1]),
            (2, KEYED, 9, &[]),
        ];
        for &(node, flags, key, ids) in &texts {
            let start = w.tokens.len();
            ids.iter().for_each(|&id| w.push_token(id));
            w.push_text(node, flags, key, w.tokens.len() - start);
        }
        assert_eq!(w.tokens.len(), 1 + 1 + 2 + 2 + 3 + 5 + 1 + 2, "one to five bytes an id, none for the last text");
        let back: Vec<(u32, u8, u64, Vec<u32>)> = w.texts().map(|t| (t.node, t.flags, t.key, t.tokens.collect())).collect();
        let want: Vec<(u32, u8, u64, Vec<u32>)> = texts.iter().map(|&(n, f, k, ids)| (n, f, k, ids.to_vec())).collect();
        assert_eq!(back, want);
    }

    #[test]
    fn copies_are_left_out_and_too_few_pages_said() {
        let p = Page::from_html("a", "<body><p>Same words here.</p></body>").unwrap();
        let q = Page::from_html("b", "<body><div><p>Same   words here.</p></div></body>").unwrap();
        let mut inducer = Inducer::new("t", Config::default());
        inducer.add(&p);
        inducer.add(&q);
        let err = inducer.finish().err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("copies"), "{err}");
        let mut one = Inducer::new("t", Config::default());
        one.add(&p);
        assert!(matches!(one.finish(), Err(crate::Error::TooFewPages { got: 1, .. })));
    }
}
