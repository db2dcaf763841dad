//! Induction page by page: what [`crate::Wrapper::induce`] keeps of each sample page.
//!
//! Every stage that reads a page's words (copies, language, template, terms, host) reads them
//! once, when the page is added: its template keys are counted, its tokens interned, and the
//! page is kept as its tree's shape only ([`Shape`], its `id` and `class` values in one table
//! for the sample, [`Strings`]: a site's pages repeat them), which is all the structure stages
//! (element types, candidates, layouts, the XPath's choice) read. So a caller that adds pages
//! as it reads them ([`crate::page::read_items`]) holds shapes, not pages: with the page's
//! tokens until the last page is in, about a tenth of its tree's memory.
//!
//! The words' order is kept: terms are numbered as they are first met in the pages' order, as
//! when pages were held whole, so ties break the same way and the wrapper is the same.

use super::{Config, Induction};
use crate::clean::{Doc, NodeData, Shape, Strings};
use crate::template::{self, Template};
use crate::text::tokens::Tokenizer;
use crate::text::{Analyzer, Language, TermId};
use crate::patterns::PageTerms;
use crate::{Page, Result};
use std::collections::{HashMap, HashSet};

/// A text node of a kept page's body, with its tokens.
#[derive(Debug, Clone, Copy)]
struct Text {
    /// Its template key, when it has one ([`template::keyed_texts`]).
    key: u64,
    node: u32,
    /// Where its tokens end in its page's [`Words::tokens`] (they start where the text
    /// before ends).
    end: u32,
}

/// A kept page's words: the text nodes of its body with at least one token, and their tokens.
#[derive(Debug, Default)]
struct Words {
    texts: Vec<Text>,
    /// Per text, [`KEYED`] and [`IN_LINK`].
    flags: Vec<u8>,
    /// The tokens, as ids into the inducer's token table, each in as few bytes as it needs
    /// (seven bits a byte, the last byte's high bit clear): a site's common words are met
    /// first, so most take one or two bytes instead of four.
    tokens: Vec<u8>,
}

/// A text with a template key.
const KEYED: u8 = 1;
/// A text inside a link.
const IN_LINK: u8 = 2;

impl Words {
    fn push_token(&mut self, mut id: u32) {
        while id >= 0x80 {
            self.tokens.push((id & 0x7f) as u8 | 0x80);
            id >>= 7;
        }
        self.tokens.push(id as u8);
    }

    /// Each text with its flags and its tokens' ids.
    fn texts(&self) -> impl Iterator<Item = (&Text, u8, Ids<'_>)> {
        let starts = std::iter::once(0).chain(self.texts.iter().map(|t| t.end as usize));
        self.texts.iter().zip(&self.flags).zip(starts).map(|((t, &flags), start)| {
            (t, flags, Ids(self.tokens.get(start..t.end as usize).unwrap_or_default()))
        })
    }
}

/// The token ids of a text, read from their bytes ([`Words::tokens`]).
struct Ids<'a>(&'a [u8]);

impl Iterator for Ids<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let (mut id, mut shift) = (0u32, 0);
        while let Some((&b, rest)) = self.0.split_first() {
            self.0 = rest;
            id |= u32::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            shift += 7;
            if b < 0x80 {
                return Some(id);
            }
        }
        None
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
    seen: HashSet<u64>,
    template: template::Learner,
    tokenizer: Tokenizer,
    /// The tokens met, numbered.
    tokens: Strings,
    /// The `id` and `class` values of the kept pages' shapes, each kept once for the sample.
    values: Strings,
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
            seen: HashSet::new(),
            tokenizer: Tokenizer::default(),
            tokens: Strings::default(),
            values: Strings::default(),
            kept: Vec::new(),
        }
    }

    /// Add a sample page. A page with the same text as one added before is a copy, and left
    /// out.
    pub fn add(&mut self, page: &Page) {
        self.added += 1;
        let doc = &page.doc;
        if !self.seen.insert(text_hash(doc)) {
            return;
        }
        let keyed = template::keyed_texts(doc);
        self.template.add(doc, &keyed);
        let language = if self.cfg.language.is_some() {
            None
        } else {
            Language::of_page(doc.lang.as_deref(), &doc.text_sample(2000))
        };
        let words = self.words(doc, &keyed);
        let hosts = crate::host::sources(page);
        let (location, item, shape) = (page.location.clone(), page.item.clone(), Shape::of_in(doc, &mut self.values));
        self.kept.push(Kept { location, item, shape, language, hosts, words });
    }

    /// How many pages were added so far, copies included.
    pub fn pages_added(&self) -> usize {
        self.added
    }

    /// The text nodes of the body of `doc` with their tokens; `keyed` gives their template
    /// keys.
    fn words(&mut self, doc: &Doc, keyed: &[(u32, u64, bool)]) -> Words {
        let in_link = doc.in_link();
        let mut keys = keyed.iter().peekable();
        let mut words = Words::default();
        let body = doc.body as usize;
        let end = doc.nodes.get(body).map_or(0, |n| n.end as usize);
        let Inducer { tokenizer, tokens: table, .. } = self;
        for (i, node) in doc.nodes.iter().enumerate().take(end).skip(body) {
            let NodeData::Text(t) = &node.data else { continue };
            while keys.next_if(|k| (k.0 as usize) < i).is_some() {}
            let key = keys.next_if(|k| k.0 as usize == i).map(|k| k.1);
            let start = words.tokens.len();
            // A token past a 4 GiB table is left out: no page set holds that many words.
            tokenizer.each(t, |tok| table.id(tok).into_iter().for_each(|id| words.push_token(id)));
            let Ok(stop) = u32::try_from(words.tokens.len()) else { break };
            if stop as usize > start {
                words.texts.push(Text { key: key.unwrap_or(0), node: i as u32, end: stop });
                words.flags.push(if key.is_some() { KEYED } else { 0 } | if in_link[i] { IN_LINK } else { 0 });
            }
        }
        words.texts.shrink_to_fit();
        words.flags.shrink_to_fit();
        words.tokens.shrink_to_fit();
        words
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
        let template = template.finish();
        let terms = page_terms(&mut kept, &tokens, &template, &mut analyzer, cfg.skip_link_text);
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
        let (mut shapes, mut locations) = (Vec::with_capacity(kept.len()), Vec::with_capacity(kept.len()));
        let values = std::sync::Arc::new(values.freeze());
        for k in kept {
            shapes.push(k.shape.with_values(std::sync::Arc::clone(&values)));
            locations.push(k.location);
        }
        super::induce_kept(&site, &shapes, &locations, terms, feed_terms, template, analyzer, host, &cfg)
    }
}

/// The terms of each kept page: its body's text nodes, less template text (and link text when
/// `skip_links`), each token's term as `analyzer` numbers it, in the pages' order. Each page's
/// texts and tokens are let go once its terms are read.
fn page_terms(kept: &mut [Kept], tokens: &Strings, template: &Template, analyzer: &mut Analyzer, skip_links: bool) -> Vec<PageTerms> {
    // Each token's term, asked of the analyzer the first time the token is met.
    let mut term: Vec<Option<Option<TermId>>> = vec![None; tokens.len()];
    kept.iter_mut()
        .map(|k| {
            let mut pt = PageTerms::default();
            let words = std::mem::take(&mut k.words);
            for (t, flags, page_tokens) in words.texts() {
                if (flags & KEYED != 0 && template.holds(t.key)) || (skip_links && flags & IN_LINK != 0) {
                    continue;
                }
                let start = pt.terms.len() as u32;
                for tok in page_tokens {
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
            assert_eq!(template.lines, whole.lines);
            assert!(!template.lines.is_empty());
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

    /// Token ids come back as they went in, whatever their size, text by text.
    #[test]
    fn words_keep_their_token_ids() {
        let mut w = Words::default();
        let texts: [&[u32]; 3] = [&[0, 127, 128, 16_383], &[16_384, u32::MAX], &[5]];
        for (i, ids) in texts.iter().enumerate() {
            ids.iter().for_each(|&id| w.push_token(id));
            w.texts.push(Text { key: i as u64, node: i as u32, end: w.tokens.len() as u32 });
            w.flags.push(i as u8);
        }
        assert_eq!(w.tokens.len(), 1 + 1 + 2 + 2 + 3 + 5 + 1);
        let back: Vec<(u32, u8, Vec<u32>)> = w.texts().map(|(t, f, ids)| (t.node, f, ids.collect())).collect();
        let want: Vec<(u32, u8, Vec<u32>)> = texts.iter().enumerate().map(|(i, ids)| (i as u32, i as u8, ids.to_vec())).collect();
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
