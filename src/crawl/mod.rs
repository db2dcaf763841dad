//! Crawl: a whole site as the unit of work. From a start URL, find the site's pages, fetch
//! them politely, tell its articles from its listings, learn its templates from its own
//! articles, and give every article.
//!
//! 1. **Find**: the start page, the items of the feed it links to, the pages the site's
//!    sitemaps list (`robots.txt` `Sitemap:` lines, else `/sitemap.xml`), then the links of
//!    every page fetched, breadth first, to [`Options::max_depth`] links from the start. Only
//!    URLs of the start page's site (its host, with or without `www.`) are taken, only those
//!    `robots.txt` allows, and none whose extension names a file that is not a web page
//!    ([`NOT_PAGES`]). Fetches go through the [`Fetcher`]: its per-host limit, delay, retries
//!    and cache (a crawl run again sends only revalidations).
//! 2. **Tell articles from listings** ([`kind`]): a page whose text is mostly pieces of other
//!    pages of the site is a listing; a page with no text beyond the site's template is passed
//!    over; a page naming another fetched page as its canonical URL is a duplicate; a page the
//!    site's feed lists is an article.
//! 3. **Learn**: the articles, grouped by URL shape ([`crate::sitemap::shape`]), give the
//!    sample pages of an induction (up to [`Options::samples`] per shape, the largest shapes
//!    first), which finds a template per layout; the wrapper is added to the [`Store`].
//! 4. **Extract**: every article, read again from the fetcher's cache (or, when it has none,
//!    from the crawl's temporary spill folder: no page's bytes stay in memory past its
//!    reading), by the store's rules, handed over in the order the pages were found.
//!
//! What happens is told to the caller's `on` as [`Event`]s (every response for a WARC file,
//! progress, pages passed over and why, what was learned, the articles), and summed up in a
//! [`Summary`].

pub mod kind;
pub mod output;

use crate::article::{Article, Fields};
use crate::budget::Budget;
use crate::fetch::{Fetched, Fetcher, Location};
use crate::page::Source;
use crate::rules::{Missing, Rules};
use crate::store::Store;
use crate::{Config, Error, Page, Result};
use kind::TextKind;
use std::collections::{BTreeMap, HashSet, VecDeque};
use url::Url;

/// Pages fetched at most (default).
pub const MAX_PAGES: usize = 1000;

/// Links followed from the start page at most (default).
pub const MAX_DEPTH: usize = 10;

/// Extensions of URLs that name files other than web pages: never fetched.
pub const NOT_PAGES: &[&str] = &[
    "pdf", "jpg", "jpeg", "png", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff", "avif", "mp3", "mp4", "m4a", "wav", "ogg",
    "webm", "mov", "avi", "zip", "gz", "tgz", "bz2", "xz", "7z", "rar", "tar", "exe", "dmg", "iso", "apk", "doc", "docx", "xls",
    "xlsx", "ppt", "pptx", "odt", "css", "js", "json", "xml", "rss", "atom", "txt", "csv", "woff", "woff2", "ttf", "eot",
];

/// How a crawl goes.
#[derive(Debug, Clone)]
pub struct Options {
    /// Pages fetched at most ([`MAX_PAGES`]); the others found are counted, not fetched.
    pub max_pages: usize,
    /// Links followed from the start page at most ([`MAX_DEPTH`]).
    pub max_depth: usize,
    /// Pages fetched and read at once (the fetcher's per-host limit applies too).
    pub jobs: usize,
    /// Sample pages per URL shape for learning ([`crate::learn::SAMPLES`]).
    pub samples: usize,
    /// Each page's budget.
    pub budget: Budget,
    /// The induction's settings.
    pub config: Config,
    /// Give each article its page's reader comments ([`Fields::Comments`]).
    pub comments: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_pages: MAX_PAGES,
            max_depth: MAX_DEPTH,
            jobs: 4,
            samples: crate::learn::SAMPLES,
            budget: Budget::default(),
            config: Config::default(),
            comments: false,
        }
    }
}

/// Why a page found is not an article of the crawl.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Skip {
    /// `robots.txt` disallows it: never fetched.
    Disallowed,
    /// Its URL names a file that is not a web page ([`NOT_PAGES`]): never fetched.
    NotPage,
    /// Found past [`Options::max_pages`]: not fetched.
    OverLimit,
    /// It could not be fetched or read.
    Failed,
    /// It was served as something other than HTML.
    NotHtml,
    /// It redirected to another site.
    OffSite,
    /// Another page fetched is the same page (a redirect's target, its canonical URL).
    Duplicate,
    /// Its text is mostly pieces of other pages: a listing.
    Listing,
    /// No text of its own beyond the site's template.
    NoText,
    /// The caller had it already (an earlier run wrote it).
    Done,
}

impl Skip {
    /// Its name in summaries (`disallowed`, `not-page`, …, `listing`).
    pub fn name(self) -> &'static str {
        match self {
            Skip::Disallowed => "disallowed",
            Skip::NotPage => "not-page",
            Skip::OverLimit => "over-limit",
            Skip::Failed => "failed",
            Skip::NotHtml => "not-html",
            Skip::OffSite => "off-site",
            Skip::Duplicate => "duplicate",
            Skip::Listing => "listing",
            Skip::NoText => "no-text",
            Skip::Done => "done",
        }
    }
}

/// What a crawl tells its caller as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A response received (from the network or the cache), whatever it holds.
    Response(&'a Fetched),
    /// Pages fetched so far, of those found that will be fetched.
    Progress {
        /// Fetched (or failed).
        fetched: usize,
        /// Found, within the limits.
        found: usize,
    },
    /// A page passed over, with why (and the error's words for [`Skip::Failed`]).
    Skipped(&'a str, Skip, Option<String>),
    /// The wrapper learned from the site's articles: its file and the pages it was learned
    /// from; or why none was.
    Learned(std::result::Result<(std::path::PathBuf, usize), String>),
    /// An article (or why the page gave none), in the order the pages were found.
    Article(Location, Box<Result<Article>>),
}

/// What a crawl did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Distinct pages of the site found.
    pub found: usize,
    /// Pages fetched (from the network or the cache).
    pub fetched: usize,
    /// Articles given.
    pub articles: usize,
    /// Articles whose extraction failed.
    pub failed: usize,
    /// Pages passed over, by reason.
    pub skipped: BTreeMap<Skip, usize>,
    /// Where pages were found: `feed URL`, `sitemap URL`, `links`.
    pub sources: Vec<String>,
    /// Sites whose stored wrapper failed on most of its last pages (the crawl records how the
    /// store's rules did on its articles, as every extraction with a store does).
    pub drifted: Vec<crate::store::Drift>,
}

/// A page fetched, and what the crawl keeps of it until the end.
struct Kept {
    /// The URL asked for (the cache's key).
    asked: Url,
    /// Where it ended after redirects.
    url: Url,
    /// Where its bytes wait, when the fetcher has no cache to read them from again: a file of
    /// the crawl's spill folder, and the response without its bytes.
    kept: Option<(std::path::PathBuf, Fetched)>,
    /// Its text's runs ([`kind::shingles`]).
    runs: Vec<u64>,
    /// The canonical URL it declares.
    canonical: Option<String>,
}

/// What reading one URL gave.
enum Visit {
    Page { fetched: Fetched, runs: Vec<u64>, canonical: Option<String>, links: Vec<Url> },
    NotHtml(Fetched),
    Failed(Error),
}

/// Crawls sites through a fetcher into a store; see the [module](self) documentation.
pub struct Crawler<'a> {
    fetcher: &'a Fetcher,
    store: Store,
    opts: Options,
}

impl std::fmt::Debug for Crawler<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Crawler").field("store", &self.store).field("opts", &self.opts).finish_non_exhaustive()
    }
}

impl<'a> Crawler<'a> {
    /// A crawler that fetches with `fetcher` and keeps what it learns in `store`.
    pub fn new(fetcher: &'a Fetcher, store: Store, opts: Options) -> Crawler<'a> {
        Crawler { fetcher, store, opts }
    }

    /// Crawl the site of `start`, telling `on` what happens; a page `done` says the caller has
    /// (by its URL) is neither extracted nor given again.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a start URL that is not http(s); the first error `on` returns.
    pub fn run<E: From<Error>>(
        &self,
        start: &Url,
        done: &(dyn Fn(&str) -> bool + Sync),
        mut on: impl FnMut(Event<'_>) -> std::result::Result<(), E>,
    ) -> std::result::Result<Summary, E> {
        let site = crate::host::of_url(start.as_str()).ok_or_else(|| Error::Invalid(format!("{start} is not an http(s) URL")))?;
        let mut summary = Summary::default();
        // Without a cache, the pages' bytes wait on disk, not in memory, until they are read
        // again (the folder goes when the crawl ends, however it ends).
        let spill = match self.fetcher.options().cache {
            Some(_) => None,
            None => Some(tempfile::Builder::new().prefix("forest-crawl-").tempdir().map_err(|source| Error::Io { path: std::env::temp_dir(), source })?),
        };
        let (pages, feed_pages) = self.fetch_site(start, &site, spill.as_ref().map(tempfile::TempDir::path), &mut summary, &mut on)?;
        let articles = choose(&pages, &feed_pages, done, &mut summary, &mut on)?;
        on(Event::Learned(self.learn(&site, &articles)))?;
        // Every article, by the store's rules.
        let rules = Rules::Store(self.store.clone(), Missing::SinglePage);
        let sources = articles.iter().map(|p| match self.bytes(p) {
            Some(f) => Source::Fetched(Location::Url(p.url.clone()), f),
            None => Source::Read(Location::Url(p.asked.clone()), None),
        });
        let mut outcomes = crate::store::Outcomes::default();
        let fields = if self.opts.comments { Fields::Comments } else { Fields::All };
        rules.articles(sources, self.opts.jobs.max(1), self.fetcher, &self.opts.budget, fields, |loc, article| {
            match &article {
                Ok(a) => {
                    summary.articles += 1;
                    outcomes.add(a);
                }
                Err(_) => summary.failed += 1,
            }
            on(Event::Article(loc, Box::new(article)))
        })?;
        summary.drifted = outcomes.record(&self.store).0;
        Ok(summary)
    }

    /// Find and fetch the site's pages (step 1): the pages read, and the URLs its feed lists.
    fn fetch_site<E: From<Error>>(
        &self,
        start: &Url,
        site: &str,
        spill: Option<&std::path::Path>,
        summary: &mut Summary,
        on: &mut dyn FnMut(Event<'_>) -> std::result::Result<(), E>,
    ) -> std::result::Result<(Vec<Kept>, HashSet<String>), E> {
        let robots = crate::sitemap::robots_of(self.fetcher, start);
        let mut frontier = Frontier { site, seen: HashSet::new(), queue: VecDeque::new(), found: 0 };
        let mut feed_pages: HashSet<String> = HashSet::new();
        let mut pages: Vec<Kept> = Vec::new();
        let mut landed: HashSet<String> = HashSet::new();
        if let Some(why) = frontier.offer(start.clone(), 0, &robots) {
            skip(summary, on, start.as_str(), why, None)?;
        }
        let (mut seeded, mut start_page) = (false, None);
        let mut fetched = 0usize;
        while !frontier.queue.is_empty() {
            let room = self.opts.max_pages.saturating_sub(fetched);
            if room == 0 {
                break;
            }
            // The start page alone first: its feed and the sitemaps join the queue after it.
            let take = if seeded { room.min(self.opts.jobs.max(1) * 8) } else { 1 };
            let batch: Vec<(Url, usize)> = frontier.queue.drain(..take.min(frontier.queue.len())).collect();
            let budget = &self.opts.budget;
            let mut visits = Vec::with_capacity(batch.len());
            crate::run::ordered(batch, self.opts.jobs.max(1), || (), |_, (url, depth)| (url.clone(), depth, visit(self.fetcher, &url, budget)), |v| {
                visits.push(v);
                Ok::<(), Error>(())
            })?;
            for (asked, depth, v) in visits {
                fetched += 1;
                match v {
                    Visit::Failed(e) => skip(summary, on, asked.as_str(), Skip::Failed, Some(e.to_string()))?,
                    Visit::NotHtml(f) => {
                        on(Event::Response(&f))?;
                        skip(summary, on, asked.as_str(), Skip::NotHtml, f.content_type.clone())?;
                    }
                    Visit::Page { fetched: f, runs, canonical, links } => {
                        on(Event::Response(&f))?;
                        let Location::Url(url) = f.location.clone() else { continue };
                        if crate::host::of_url(url.as_str()).as_deref() != Some(site) {
                            skip(summary, on, asked.as_str(), Skip::OffSite, Some(url.to_string()))?;
                            continue;
                        }
                        // A redirect to a page already fetched.
                        if !landed.insert(without_fragment(&url)) {
                            skip(summary, on, asked.as_str(), Skip::Duplicate, Some(url.to_string()))?;
                            continue;
                        }
                        frontier.seen.insert(without_fragment(&url));
                        if depth < self.opts.max_depth {
                            for link in links {
                                if let Some(why) = frontier.offer(link.clone(), depth + 1, &robots) {
                                    skip(summary, on, link.as_str(), why, None)?;
                                }
                            }
                        }
                        if !seeded {
                            start_page = Some(f.clone());
                        }
                        let kept = match spill.map(|dir| put_aside(dir, pages.len(), f)).transpose() {
                            Ok(kept) => kept,
                            Err(e) => {
                                skip(summary, on, asked.as_str(), Skip::Failed, Some(e.to_string()))?;
                                continue;
                            }
                        };
                        pages.push(Kept { asked, url, kept, runs, canonical });
                    }
                }
                if !seeded {
                    // The start page's feed and the site's sitemaps, after the start page.
                    seeded = true;
                    for u in self.seeds(start_page.take().as_ref(), start, &robots, &mut feed_pages, summary) {
                        if let Some(why) = frontier.offer(u.clone(), 1, &robots) {
                            skip(summary, on, u.as_str(), why, None)?;
                        }
                    }
                }
                on(Event::Progress { fetched, found: fetched + frontier.queue.len().min(self.opts.max_pages.saturating_sub(fetched)) })?;
            }
        }
        for (url, _) in frontier.queue.drain(..) {
            skip(summary, on, url.as_str(), Skip::OverLimit, None)?;
        }
        summary.found = frontier.found;
        summary.fetched = fetched;
        summary.sources.push("links".to_string());
        Ok((pages, feed_pages))
    }

    /// Pages the start page's feed and the site's sitemaps list (the feed's remembered as
    /// articles), and where they were found, in `summary.sources`.
    fn seeds(&self, start: Option<&Fetched>, url: &Url, robots: &crate::sitemap::Robots, feed_pages: &mut HashSet<String>, summary: &mut Summary) -> Vec<Url> {
        let mut out = Vec::new();
        if let Some(feed_url) = start.and_then(crate::feed::discover) {
            if let Ok(f) = self.fetcher.get(&Location::Url(feed_url.clone())) {
                if let Ok(sample) = crate::feed::parse(&f.bytes, &f.location) {
                    for item in sample.items {
                        if let Location::Url(u) = item.page {
                            feed_pages.insert(without_fragment(&u));
                            out.push(u);
                        }
                    }
                    summary.sources.push(format!("feed {feed_url}"));
                }
            }
        }
        for (at, entries) in crate::sitemap::read_all(self.fetcher, crate::sitemap::of_site(url, robots), robots) {
            summary.sources.push(format!("sitemap {at}"));
            out.extend(entries.into_iter().map(|e| e.url));
        }
        out
    }

    /// A fetched page's response, read again from where it waits (the spill folder or the
    /// fetcher's cache); `None` when it is gone.
    fn bytes(&self, p: &Kept) -> Option<Fetched> {
        match &p.kept {
            Some((path, meta)) => std::fs::read(path).ok().map(|bytes| Fetched { bytes, ..meta.clone() }),
            None => self.fetcher.cached(&p.asked),
        }
    }

    /// Learn the site's wrapper from its articles: up to [`Options::samples`] of each URL shape
    /// that has two or more, the largest shapes first (at most four shapes' worth), read again
    /// from the cache; added to the store.
    fn learn(&self, site: &str, articles: &[&Kept]) -> std::result::Result<(std::path::PathBuf, usize), String> {
        let mut shapes: Vec<(String, Vec<&Kept>)> = Vec::new();
        for &p in articles {
            let shape = crate::sitemap::shape(&p.url);
            match shapes.iter_mut().find(|(s, _)| *s == shape) {
                Some((_, group)) => group.push(p),
                None => shapes.push((shape, vec![p])),
            }
        }
        shapes.retain(|(_, g)| g.len() >= 2);
        // Largest first; among equals, the first found.
        shapes.sort_by_key(|(_, g)| std::cmp::Reverse(g.len()));
        let samples = self.opts.samples.max(2);
        let chosen: Vec<&Kept> = shapes.iter().take(4).flat_map(|(_, g)| g.iter().take(samples).copied()).collect();
        if chosen.len() < 2 {
            return Err(format!("fewer than two articles of {site} share a URL shape"));
        }
        let mut inducer = crate::wrapper::Inducer::new(site, self.opts.config.clone());
        let mut used = 0usize;
        for p in chosen {
            let Some(f) = self.bytes(p) else { continue };
            if let Ok(page) = Page::from_fetched(&Location::Url(p.url.clone()), f, &self.opts.budget) {
                inducer.add(&page);
                used += 1;
            }
        }
        let mut wrapper = inducer.finish().map_err(|e| e.to_string())?.wrapper;
        wrapper.host = Some(site.to_string());
        let (path, _) = self.store.add(site, &wrapper).map_err(|e| e.to_string())?;
        Ok((path, used))
    }
}

/// Put the bytes of the `n`th page fetched aside in the spill folder `dir`: its file, and the
/// response without its bytes.
fn put_aside(dir: &std::path::Path, n: usize, mut f: Fetched) -> Result<(std::path::PathBuf, Fetched)> {
    let path = dir.join(format!("{n}.html"));
    std::fs::write(&path, &f.bytes).map_err(|source| Error::Io { path: path.clone(), source })?;
    f.bytes = Vec::new();
    Ok((path, f))
}

/// Count `url` as passed over for `why`, and say so.
fn skip<E>(summary: &mut Summary, on: &mut dyn FnMut(Event<'_>) -> std::result::Result<(), E>, url: &str, why: Skip, detail: Option<String>) -> std::result::Result<(), E> {
    *summary.skipped.entry(why).or_default() += 1;
    on(Event::Skipped(url, why, detail))
}

/// The articles among the pages fetched (step 2, [`kind`]), but those `done` names; the others
/// are passed over with why.
fn choose<'p, E>(
    pages: &'p [Kept],
    feed_pages: &HashSet<String>,
    done: &(dyn Fn(&str) -> bool + Sync),
    summary: &mut Summary,
    on: &mut dyn FnMut(Event<'_>) -> std::result::Result<(), E>,
) -> std::result::Result<Vec<&'p Kept>, E> {
    let mut kinds = kind::kinds(&pages.iter().map(|p| p.runs.clone()).collect::<Vec<_>>());
    kind::by_shape(&mut kinds, &pages.iter().map(|p| vote_shape(&p.url)).collect::<Vec<_>>());
    let fetched: HashSet<String> = pages.iter().map(|p| without_fragment(&p.url)).collect();
    let mut articles = Vec::new();
    for (p, k) in pages.iter().zip(kinds) {
        let canonical = p.canonical.as_deref().and_then(|c| p.url.join(c.trim()).ok()).map(|c| without_fragment(&c));
        let why = match k {
            _ if canonical.as_ref().is_some_and(|c| *c != without_fragment(&p.url) && fetched.contains(c)) => Some(Skip::Duplicate),
            _ if feed_pages.contains(&without_fragment(&p.url)) || feed_pages.contains(&without_fragment(&p.asked)) => None,
            TextKind::Own => None,
            TextKind::Listing => Some(Skip::Listing),
            TextKind::NoText => Some(Skip::NoText),
        };
        match why {
            Some(why) => skip(summary, on, p.url.as_str(), why, canonical.filter(|_| why == Skip::Duplicate))?,
            None if done(p.url.as_str()) => skip(summary, on, p.url.as_str(), Skip::Done, None)?,
            None => articles.push(p),
        }
    }
    Ok(articles)
}

/// The URLs a crawl found, and those waiting to be fetched.
struct Frontier<'s> {
    site: &'s str,
    seen: HashSet<String>,
    queue: VecDeque<(Url, usize)>,
    found: usize,
}

impl Frontier<'_> {
    /// Take `url`, found `depth` links from the start, when it is new and of the site: queued,
    /// or passed over with why (robots.txt, not a page). `None` when queued or not new.
    fn offer(&mut self, mut url: Url, depth: usize, robots: &crate::sitemap::Robots) -> Option<Skip> {
        url.set_fragment(None);
        if !matches!(url.scheme(), "http" | "https") || crate::host::of_url(url.as_str()).as_deref() != Some(self.site) {
            return None;
        }
        if !self.seen.insert(url.to_string()) {
            return None;
        }
        self.found += 1;
        if !robots.allows(&url) {
            return Some(Skip::Disallowed);
        }
        let ext = url.path().rsplit('/').next().and_then(|name| name.rsplit_once('.')).map(|(_, e)| e.to_ascii_lowercase());
        if ext.is_some_and(|e| NOT_PAGES.contains(&e.as_str())) {
            return Some(Skip::NotPage);
        }
        self.queue.push_back((url, depth));
        None
    }
}

/// The shape pages of one kind share: the path's shape ([`crate::sitemap::shape`]) and the
/// names of its query parameters (`/?p=12` and `/?cat=3` are of two kinds).
fn vote_shape(url: &Url) -> String {
    let mut names: Vec<String> = url.query_pairs().map(|(k, _)| k.into_owned()).collect();
    names.sort();
    names.dedup();
    format!("{}?{}", crate::sitemap::shape(url), names.join("&"))
}

/// `url` without its fragment, as a string.
fn without_fragment(url: &Url) -> String {
    let mut u = url.clone();
    u.set_fragment(None);
    u.to_string()
}

/// The page's visible text outside links: a listing's summaries, an article's paragraphs, but
/// not the titles a list of related or recent posts repeats (its links).
fn unlinked_text(doc: &crate::clean::Doc) -> String {
    let mut text = String::new();
    let end = doc.nodes.get(doc.body as usize).map_or(0, |n| n.end as usize);
    let mut i = doc.body as usize;
    while i < end {
        let node = &doc.nodes[i];
        match &node.data {
            crate::clean::NodeData::Element(e) if e.name == "a" => {
                i = (node.end as usize).max(i + 1);
                continue;
            }
            crate::clean::NodeData::Text(t) => {
                text.push_str(t);
                text.push(' ');
            }
            _ => {}
        }
        i += 1;
    }
    text
}

/// Fetch `url` and read what the crawl keeps of it.
fn visit(fetcher: &Fetcher, url: &Url, budget: &Budget) -> Visit {
    let loc = Location::Url(url.clone());
    let fetched = match fetcher.get(&loc) {
        Ok(f) => f,
        Err(e) => return Visit::Failed(e),
    };
    let html = fetched.content_type.as_deref().map_or_else(
        || crate::fetch::sniff_html(&fetched.bytes[..fetched.bytes.len().min(4096)]),
        |t| t.to_ascii_lowercase().contains("html"),
    );
    if !html {
        return Visit::NotHtml(fetched);
    }
    let page = match Page::from_fetched(&fetched.location.clone(), fetched.clone(), budget) {
        Ok(p) => p,
        Err(e) => return Visit::Failed(e),
    };
    let base = match &fetched.location {
        Location::Url(u) => u.clone(),
        Location::File(_) => url.clone(),
    };
    let doc = &page.doc;
    let links = (0..doc.nodes.len() as u32)
        .filter_map(|n| doc.element(n))
        .filter(|e| e.name == "a")
        .filter_map(|e| base.join(e.attr("href")?.trim()).ok())
        .collect();
    let runs = kind::shingles(&unlinked_text(doc));
    let canonical = doc.head.link("canonical").map(str::to_string);
    Visit::Page { fetched, runs, canonical, links }
}
