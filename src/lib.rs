//! # forest
//!
//! Finds the main article of web pages. Forest learns, per web site, one generic XPath
//! wrapper from a handful of that site's pages, unsupervised, then applies it to any page of
//! the site. It implements *Forest* (M. Oita and P. Senellart, "Focused Object Retrieval by
//! Exploiting Significant Tag Paths"), one module per stage of the paper, in pipeline order:
//!
//! | stage | module | entry |
//! |---|---|---|
//! | 1. get a sample of pages sharing a template | [`feed`], [`fetch`] | [`feed::read`], [`fetch::get`] |
//! | 2. clean each page into a tree; `dfs` on every element | [`clean`] | [`clean::page`] |
//! | 3. signifiers: top-k tf-idf terms, or the feed item's terms | [`signifiers`] (words: [`tokens`]) | [`signifiers::select`] |
//! | 4. significant nodes, terminal paths, structural patterns | [`patterns`] | [`patterns::collect`] |
//! | 4b. site template: text at the same path on several pages | [`template`] | [`template::Template::learn`] |
//! | 5. relevance of each pattern: J, U, I = J·U, R = Σ I·p·level | [`rank`] | [`rank::rank`] |
//! | 6. the best pattern as an XPath wrapper | [`wrapper`] | [`Wrapper::induce`] |
//! | 7. apply the wrapper to any page of the site, with fallbacks | [`extract`] | [`extract::Applier`] |
//! | 7b. the wrapper as a FiveFilters site config (Full-Text RSS, wallabag); site configs applied | [`ftr`] | [`ftr::export`], [`ftr::ConfigApplier`] |
//! | 7c. the article as Markdown, HTML or XML | [`render`] | [`render::markdown`] |
//! | what the page declares: canonical URL, byline, date, language | [`metadata`] | [`metadata::read`] |
//! | keep wrappers by site host; write files atomically | [`store`] | [`store::Store`] |
//! | read pages from web archives | [`warc`] | [`warc::Reader`] |
//! | archive and search articles | [`index`] | [`index::ArticleIndex`] |
//! | evaluation: the paper's 2-gram F1 | [`bench`](mod@bench) | [`bench::score::score`] |
//!
//! The whole flow, on the demo site bundled with the crate:
//!
//! ```
//! let sample = forest::feed::read("feeds/demo-news/feed.xml")?;      // 1. which pages
//! let (pages, _skipped) = forest::load_pages(&sample.items);         // 2. fetch + clean
//! let induction = forest::Wrapper::induce(&sample.site, &pages, &forest::Config::default())?; // 3–6
//! println!("{}", induction.wrapper.xpath);
//! let applier = forest::Applier::new(induction.wrapper)?;             // 7. apply
//! use forest::Extractor;
//! let page = pages.iter().find(|p| p.id == "bridge-repair").expect("demo page");
//! let article = applier.extract(page)?;
//! assert!(article.text.starts_with("Elm Street Bridge to Close"));
//! # Ok::<(), forest::Error>(())
//! ```
//!
//! Every tree walk is a loop over a flat, document-ordered arena ([`clean::Doc`]): no stage
//! recurses, so no page can overflow the stack. Every page is held to a [`clean::Budget`]
//! (elements, depth, XPath node visits, time) that it carries with it ([`Page::budget`],
//! [`Page::deadline`]); XPaths read from files run metered ([`wrapper::xpath`](mod@wrapper::xpath)). A page over a
//! budget is [`Error::OverBudget`], and a run skips it and goes on. Errors are one enum,
//! [`Error`].

#![warn(missing_docs)]

pub mod baselines;
pub mod bench;
pub mod clean;
pub mod extract;
pub mod feed;
pub mod fetch;
pub mod index;
pub mod ftr;
pub mod metadata;
pub mod patterns;
pub mod rank;
pub mod render;
pub mod signifiers;
pub mod store;
pub mod template;
pub mod tokens;
pub mod warc;
pub mod wrapper;

pub use extract::{Applier, Extraction, Extractor, Rule};
pub use wrapper::{Induction, Wrapper};

use fetch::Location;
use std::path::PathBuf;

/// Everything that can go wrong, with a message that says what to do.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder could not be read or written.
    #[error("cannot read or write {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A URL could not be fetched.
    #[error("cannot fetch {url}: {message}")]
    Fetch {
        /// The URL.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// Input over a size limit.
    #[error("{what} is larger than the {limit}-byte limit")]
    TooLarge {
        /// What was too large.
        what: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// The bytes are not an HTML page.
    #[error("{what} is not an HTML page ({why})")]
    NotHtml {
        /// Which input.
        what: String,
        /// Why we think so.
        why: String,
    },
    /// A feed did not parse.
    #[error("{what} is not a feed forest can read (RSS, Atom or JSON Feed): {message}")]
    Feed {
        /// Which feed.
        what: String,
        /// The parser's message.
        message: String,
    },
    /// Fewer than two usable pages.
    #[error("Forest needs at least 2 pages that share a template; got {got} usable page(s){detail}")]
    TooFewPages {
        /// How many pages were usable.
        got: usize,
        /// Why the others were not (may be empty).
        detail: String,
    },
    /// No page had a significant node.
    #[error("no element of {site}'s pages holds a signifier: are these pages text articles?")]
    NoPattern {
        /// The site.
        site: String,
    },
    /// A wrapper file that is not ours.
    #[error("{} is not a forest wrapper: {message}", path.display())]
    BadWrapper {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An XPath that does not parse or evaluate.
    #[error("XPath {xpath:?} cannot be used: {message}")]
    XPath {
        /// The expression.
        xpath: String,
        /// What is wrong.
        message: String,
    },
    /// A site config (FiveFilters format) with a line forest cannot use.
    #[error("{file}:{line}: {message}")]
    SiteConfig {
        /// The file (or the name given to the text).
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A WARC file that is not one, or a bad record in it (counted and skipped by readers).
    #[error("{file} (WARC, offset {offset}): {message}")]
    Warc {
        /// The file.
        file: String,
        /// Where the record starts in the uncompressed stream.
        offset: u64,
        /// What is wrong.
        message: String,
    },
    /// The article index (a tantivy index in a folder) could not be opened, read or written.
    #[error("article index {}: {message}", path.display())]
    Index {
        /// The index's folder.
        path: PathBuf,
        /// What went wrong, and what to do.
        message: String,
    },
    /// A page over one of its budgets (elements, time): skipped, the run goes on.
    #[error("over budget: {what} (raise it with {flag})")]
    OverBudget {
        /// What went over, and the budget.
        what: String,
        /// The flag that sets that budget.
        flag: &'static str,
    },
    /// A bad option value.
    #[error("{0}")]
    Usage(String),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Choices of the induction, with the paper's defaults.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where signifiers come from (default: tf-idf).
    pub signifiers: signifiers::Source,
    /// Signifiers per page (default: 10).
    pub k: usize,
    /// Ranking strategy: `forest` (default) or `coverage`.
    pub rank: String,
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
    /// Output the page's headline first when the article block does not hold it. Default: on.
    pub headline: bool,
    /// Induce alternative patterns for sample pages the winner misses. Default: on.
    pub alternatives: bool,
    /// How elements with neither id nor class are typed: by dfs (the paper) or by anchored
    /// path. Default: anchored.
    pub typing: patterns::Typing,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            signifiers: signifiers::Source::Tfidf,
            k: 10,
            rank: "forest".into(),
            skip_numeric: false,
            language: None,
            template_min_pages: 2,
            skip_link_text: true,
            prune_link_blocks: true,
            split_articles: true,
            headline: true,
            alternatives: true,
            typing: patterns::Typing::Anchored,
        }
    }
}

/// A cleaned page, with where it came from and what its feed item says.
#[derive(Debug, Clone)]
pub struct Page {
    /// The page's id (feed guid or file stem).
    pub id: String,
    /// Where it was read from (URL or path).
    pub location: String,
    /// Its feed item, when known.
    pub item: Option<feed::Item>,
    /// The cleaned tree.
    pub doc: clean::Doc,
    /// The limits it was read under; extraction keeps to them too (XPath node visits).
    pub budget: clean::Budget,
    /// When work on it must stop (from its budget's time, counted from reading), if ever.
    pub deadline: Option<std::time::Instant>,
}

impl Page {
    /// A page from HTML text already in memory.
    pub fn from_html(id: impl Into<String>, html: &str) -> Page {
        Page::from_doc(id, clean::page(html))
    }

    /// A page from a cleaned tree, with the default budget and no deadline.
    pub fn from_doc(id: impl Into<String>, doc: clean::Doc) -> Page {
        let id = id.into();
        Page { location: id.clone(), id, item: None, doc, budget: clean::Budget::default(), deadline: None }
    }

    /// Read, decode and clean the page at `loc`.
    ///
    /// # Errors
    /// Read/fetch errors, [`Error::NotHtml`] for bytes that are not a page.
    pub fn read(loc: &Location) -> Result<Page> {
        Page::from_fetched(loc, fetch::get(loc)?)
    }

    /// A page from fetched bytes (checked to be HTML, decoded, cleaned).
    ///
    /// # Errors
    /// [`Error::NotHtml`] for bytes that are not a page.
    pub fn from_fetched(loc: &Location, fetched: fetch::Fetched) -> Result<Page> {
        Page::from_fetched_within(loc, fetched, &clean::Budget::default())
    }

    /// [`Page::from_fetched`], the tree within `budget`.
    ///
    /// # Errors
    /// As [`Page::from_fetched`], and [`Error::OverBudget`].
    pub fn from_fetched_within(loc: &Location, fetched: fetch::Fetched, budget: &clean::Budget) -> Result<Page> {
        let deadline = budget.deadline();
        check_html(&fetched, &loc.to_string())?;
        let html = fetched.text();
        let doc = clean::page_until(&html, budget, deadline)?;
        Ok(Page { id: loc.stem(), location: fetched.location.to_string(), item: None, doc, budget: *budget, deadline })
    }

    /// Read the page of a feed item.
    ///
    /// # Errors
    /// As [`Page::read`].
    pub fn load(item: &feed::Item) -> Result<Page> {
        let mut page = Page::read(&item.page)?;
        page.id = item.id.clone();
        page.item = Some(item.clone());
        Ok(page)
    }
}

/// A per-user folder: `$VAR` when set, else `$HOME/home_sub` (the XDG base directories).
fn user_dir(var: &str, home_sub: &str) -> Option<PathBuf> {
    let set = |v: &str| std::env::var_os(v).filter(|v| !v.is_empty()).map(PathBuf::from);
    set(var).or_else(|| Some(set("HOME")?.join(home_sub)))
}

/// Refuse bytes that are plainly not HTML: a non-text content type, binary data, no tag.
fn check_html(f: &fetch::Fetched, what: &str) -> Result<()> {
    let not = |why: &str| Err(Error::NotHtml { what: what.to_string(), why: why.to_string() });
    if let Some(ct) = &f.content_type {
        let ct = ct.to_ascii_lowercase();
        if !(ct.contains("html") || ct.contains("xml") || ct.starts_with("text/")) {
            return not(&format!("content type {ct}"));
        }
    }
    let head = &f.bytes[..f.bytes.len().min(4096)];
    let utf16 = head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]);
    if head.is_empty() {
        return not("empty");
    }
    if !utf16 && head.iter().filter(|&&b| b == 0).count() > head.len() / 100 {
        return not("binary data");
    }
    if !utf16 && !f.bytes[..f.bytes.len().min(1 << 20)].contains(&b'<') {
        return not("no markup");
    }
    Ok(())
}

/// Load the pages of feed items; pages that fail are returned with their error, not fatal.
pub fn load_pages(items: &[feed::Item]) -> (Vec<Page>, Vec<(String, Error)>) {
    match fetch::Fetcher::new(fetch::FetchOptions::default()) {
        Ok(f) => load_pages_with(&f, items, 4, &clean::Budget::default(), &|| {}),
        Err(e) => (Vec::new(), vec![(String::new(), e)]),
    }
}

/// As [`load_pages`], fetching with `fetcher`, `jobs` at once, each page's tree within
/// `budget`; `done` is called per page.
pub fn load_pages_with(
    fetcher: &fetch::Fetcher,
    items: &[feed::Item],
    jobs: usize,
    budget: &clean::Budget,
    done: &(dyn Fn() + Sync),
) -> (Vec<Page>, Vec<(String, Error)>) {
    let locs: Vec<Location> = items.iter().map(|i| i.page.clone()).collect();
    let mut pages = Vec::new();
    let mut failed = Vec::new();
    for (item, fetched) in items.iter().zip(fetcher.get_many(&locs, jobs, done)) {
        match fetched.and_then(|f| Page::from_fetched_within(&item.page, f, budget)) {
            Ok(mut p) => {
                p.id = item.id.clone();
                p.item = Some(item.clone());
                pages.push(p);
            }
            Err(e) => failed.push((item.page.to_string(), e)),
        }
    }
    (pages, failed)
}
