//! # forest
//!
//! Finds the main article of web pages. Forest learns, per web site, one generic XPath
//! wrapper from a handful of that site's pages, unsupervised, then applies it to any page of
//! the site. It implements *Forest* (M. Oita and P. Senellart, "Focused Object Retrieval by
//! Exploiting Significant Tag Paths"). With no wrapper for a site, a single-page extractor
//! takes over.
//!
//! ## From HTML bytes to an article
//!
//! ```
//! use forest::page::Page;
//! use forest::rules::Rules;
//! let url = "https://riverside-gazette.example/2024/03/bridge-repair.html";
//! let html = std::fs::read("feeds/demo-news/bridge-repair.html")?;
//!
//! // Without a wrapper: the single-page extractor.
//! let article = Rules::SinglePage.resolver()?.article(Page::from_bytes(&html, url)?)?;
//! assert!(article.text.contains("Elm Street Bridge"));
//!
//! // With a wrapper learned from a few pages of the site (here, its feed's pages).
//! let sample = forest::feed::read("feeds/demo-news/feed.xml")?;
//! let (pages, _failed) = forest::page::load(&sample.items);
//! let wrapper = forest::Wrapper::induce(&sample.site, &pages, &forest::Config::default())?.wrapper;
//! let rules = Rules::wrapper(wrapper)?;
//! let article = rules.resolver()?.article(Page::from_bytes(&html, url)?)?;
//! assert_eq!(article.title, "Elm Street Bridge to Close for Six Weeks of Repairs");
//! assert_eq!(article.rule, forest::Rule::Exact);
//! println!("{}", article.markdown());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## The pipeline, in the order data flows
//!
//! | layer | stage | module | entry |
//! |---|---|---|---|
//! | base | errors; budgets; words and languages | [`error`], [`budget`], [`text`] | [`Error`], [`budget::Budget`], [`text::Tokenizer`] |
//! | stages | 1. a sample of pages sharing a template: feeds, sitemaps, folders, URLs | [`feed`], [`sitemap`], [`fetch`], [`warc`] | [`feed::read`], [`sitemap::parse`], [`fetch::Fetcher`], [`warc::Reader`] |
//! | | 2. clean each page into a tree; `dfs` on every element | [`clean`], [`page`] | [`clean::page`], [`Page::new`] |
//! | | which site a page belongs to; what it declares, and where it shows its byline and date | [`host`], [`metadata`] | [`host::of_page`], [`metadata::read`], [`metadata::shows`] |
//! | | 3. signifiers: top-k tf-idf terms, or the feed item's terms | [`signifiers`] | [`signifiers::select`] |
//! | | 4. significant nodes, terminal paths, structural patterns | [`patterns`] | [`patterns::collect`] |
//! | | 4b. site template: text at the same path on several pages; pages grouped by layout | [`template`] | [`template::Template::learn`], [`template::layout::cluster`] |
//! | | 5. relevance of each pattern: J, U, I = J·U, R = Σ I·p·level | [`rank`] | [`rank::Strategy`] |
//! | rules | 6. the best pattern as an XPath wrapper; each page summarized where it is read ([`wrapper::Summary`]: its [`clean::Shape`], template keys, words, where it shows its byline and date), the summaries added in order | [`wrapper`] | [`Wrapper::induce`], [`wrapper::Inducer`], [`wrapper::Shows`] |
//! | | XPaths: parsed, checked, metered, compiled | [`xpath`] | [`xpath::Program`] |
//! | extraction | 7. the article of a page: wrapper with fallbacks, single-page extractor | [`extract`] | [`extract::Applier`], [`extract::SinglePage`] |
//! | | FiveFilters site configs, read, applied and written | [`ftr`] | [`ftr::SiteConfig`], [`ftr::ConfigApplier`] |
//! | output | which rules each page gets; the page's article | [`rules`], [`article`] | [`rules::Rules::resolver`], [`Article`] |
//! | | a site learned on the fly for a page of a host without rules | [`learn`] | [`learn::Learner`] |
//! | | a whole site: its pages found, listings told from articles, templates learned, every article; a resumable output folder | [`crawl`] | [`crawl::Crawler`], [`crawl::output::Output`] |
//! | | where articles go: a stream or a folder, and the index | [`output`] | [`output::Writer`] |
//! | | the article as Markdown, HTML or XML; a feed with full articles | [`render`], [`fulltext`] | [`Article::markdown`], [`fulltext::rewrite`] |
//! | | wrappers kept by host, with their health; an archive of articles | [`store`], [`index`] | [`store::Store`], [`store::Outcomes`], [`index::ArticleIndex`] |
//! | | many pages in parallel, in order | [`run`] | [`rules::Rules::articles`] |
//! | top | evaluation: the paper's 2-gram F1, Table 1, figures | [`bench`](mod@bench) | [`bench::run`] |
//!
//! Layers point down: a module uses only modules of its own layer or below. A new extractor
//! implements [`Extractor`] in [`extract`] (and a bench `Method` in [`bench::methods`]); a new
//! output format is a method of [`Article`] (rendering in [`render`]); a new rule source is a
//! variant of [`rules::Rules`].
//!
//! Every tree walk is a loop over a flat, document-ordered arena ([`clean::Doc`]): no stage
//! recurses, so no page can overflow the stack. Every page is held to a [`budget::Budget`]
//! (elements, depth, XPath node visits, time) that it carries with it ([`Page::budget`],
//! [`Page::deadline`]); XPaths read from files run metered ([`xpath`]). A page over a budget
//! is [`Error::OverBudget`], and a run skips it and goes on. Errors are one enum, [`Error`],
//! in the library's words; the command line adds its flags.

#![warn(missing_docs)]
// Pages, feeds, archives and wrappers are hostile input: the library has no unsafe code.
#![forbid(unsafe_code)]

// base
pub mod budget;
mod dirs;
pub mod error;
pub mod run;
pub mod text;

// stages
pub mod clean;
pub mod feed;
pub mod fetch;
pub mod host;
pub mod sitemap;
pub mod metadata;
pub mod page;
pub mod patterns;
pub mod rank;
pub mod signifiers;
pub mod template;
pub mod warc;

// rules
pub mod wrapper;
pub mod xpath;

// extraction
pub mod extract;
pub mod ftr;

// output
pub mod article;
pub mod crawl;
pub mod index;
pub mod output;
pub mod fulltext;
pub mod learn;
pub mod render;
pub mod rules;

pub mod store;

// top
pub mod bench;

pub use article::Article;
pub use error::{Error, Result};
pub use extract::{Applier, Extraction, Extractor, Rule};
pub use page::Page;
pub use wrapper::{Config, Induction, Wrapper};
