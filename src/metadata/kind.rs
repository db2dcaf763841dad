//! The kind of a page ([`PageType`]): what it declares (schema.org types, `og:type`), else
//! what its address says (a documentation, forum, shop or article path or host).

use super::{ld_objects, one_of, type_names, Metadata, ARTICLE_TYPES};
use crate::clean::{Doc, NodeData};
use serde_json::Value;

/// The kind of a page: what its readers come for, and so what its main content is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    /// A story, a post, a report: one text.
    Article,
    /// A discussion: a forum thread, questions and answers; every post is content.
    Forum,
    /// One product for sale: its name, description, specifications.
    Product,
    /// A category of products: their names and summaries.
    Collection,
    /// Documentation: the whole body, code and tables included.
    Documentation,
}

impl PageType {
    /// Its name (`article`, `forum`, `product`, `collection`, `documentation`).
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Documentation => "documentation",
        }
    }
}

/// Schema.org types a page declares, and the kind of page each says (first match wins, in
/// this order: a forum thread may hold articles, a product page a list of others).
const DECLARED_TYPES: &[(&str, PageType)] = &[
    ("DiscussionForumPosting", PageType::Forum),
    ("QAPage", PageType::Forum),
    ("Product", PageType::Product),
    ("ProductGroup", PageType::Collection),
    ("SomeProducts", PageType::Collection),
    ("OfferCatalog", PageType::Collection),
    ("CollectionPage", PageType::Collection),
    ("TechArticle", PageType::Documentation),
    ("APIReference", PageType::Documentation),
];

/// Products declared on one page that make it a list of products.
const SEVERAL: usize = 3;

/// Path segments of documentation (`/docs/…`, `/reference/…`), and first labels of a
/// documentation host (`docs.example.org`).
const DOCUMENTATION_PATHS: &[&str] = &["docs", "doc", "documentation", "reference", "manual", "api-reference"];

/// Path segments of a forum (`/threads/…`, `/forum/…`), and first labels of a forum's host
/// (`forum.example.org`, `community.example.org`; `/community/` in a path may name a product).
const FORUM_PATHS: &[&str] = &["forum", "forums", "thread", "threads", "discuss", "discussion", "discussions"];
const FORUM_HOSTS: &[&str] = &["forum", "forums", "discuss", "discussion", "discussions", "community", "board", "boards"];

/// The kind of page at `url` (when known) whose metadata is `meta` ([`super::read`]): what it
/// declares (`declared_type`) but an article, else a documentation path or host in its URL,
/// else a declared article; when it declares nothing, a forum's path or host, a shop's product
/// path (`/product/<slug>`) or collection path (`/collections/<handle>`), or an article's path
/// (`/blog/<slug>`, `/2012/11/<slug>`) in its URL; `None` when nothing says. A page that
/// declares nothing may still be an article, a listing or a service page: products,
/// collections and forum threads are nearly always declared by the software that serves them,
/// or named by their address.
///
/// # Example
/// ```
/// use forest::metadata::{page_type, read, PageType};
/// let doc = forest::clean::page(r#"<script type="application/ld+json">{"@type":"Product","offers":{"@type":"Offer"}}</script><h1>Lamp</h1>"#);
/// assert_eq!(page_type(&read(&doc), None), Some(PageType::Product));
/// let doc = forest::clean::page("<h1>Install</h1><pre>cargo install forest</pre>");
/// assert_eq!(page_type(&read(&doc), Some("https://example.org/docs/install")), Some(PageType::Documentation));
/// assert_eq!(page_type(&read(&doc), Some("https://docs.example.org/install")), Some(PageType::Documentation));
/// assert_eq!(page_type(&read(&doc), Some("https://example.org/install")), None);
/// let doc = forest::clean::page("<h1>Which lathe?</h1><p>I am looking for a first lathe.</p>");
/// assert_eq!(page_type(&read(&doc), Some("https://example.org/threads/which-lathe.123/")), Some(PageType::Forum));
/// assert_eq!(page_type(&read(&doc), Some("https://forum.example.org/t/which-lathe/123")), Some(PageType::Forum));
/// assert_eq!(page_type(&read(&doc), Some("https://example.org/vs/community/")), None);
/// assert_eq!(page_type(&read(&doc), Some("https://shop.example/product/lathe-12/")), Some(PageType::Product));
/// assert_eq!(page_type(&read(&doc), Some("https://shop.example/collections/lathes")), Some(PageType::Collection));
/// assert_eq!(page_type(&read(&doc), Some("https://example.org/blog/which-lathe")), Some(PageType::Article));
/// assert_eq!(page_type(&read(&doc), Some("https://example.org/blog/")), None);
/// assert_eq!(page_type(&read(&doc), Some("https://example.org/2012/11/lathe-prices-rise.html")), Some(PageType::Article));
/// assert_eq!(page_type(&read(&doc), Some("https://example.org/2012/11/05/")), None);
/// ```
pub fn page_type(meta: &Metadata, url: Option<&str>) -> Option<PageType> {
    if let Some(kind) = meta.declared_type.filter(|&k| k != PageType::Article) {
        return Some(kind);
    }
    let address = url.and_then(Address::parse);
    let address = address.as_ref();
    if address.is_some_and(|a| a.names(DOCUMENTATION_PATHS, DOCUMENTATION_PATHS)) {
        return Some(PageType::Documentation);
    }
    if meta.declared_type.is_some() {
        return meta.declared_type;
    }
    let a = address?;
    if a.names(FORUM_PATHS, FORUM_HOSTS) {
        return Some(PageType::Forum);
    }
    match a.parent() {
        Some(p) if p.eq_ignore_ascii_case("product") => Some(PageType::Product),
        Some(p) if p.eq_ignore_ascii_case("collections") => Some(PageType::Collection),
        _ => a.of_article().then_some(PageType::Article),
    }
}

/// The kind of page `doc` declares: a schema.org type (JSON-LD `@type` anywhere in its parsed
/// scripts `values`, or microdata `itemtype`; [`DECLARED_TYPES`], several products being a
/// collection) or `og:type` product, else a schema.org article type (`og:type` article is no
/// evidence: many sites give it to every page).
pub(super) fn declared_type(doc: &Doc, values: &[Value]) -> Option<PageType> {
    let mut declared: Vec<String> = values.iter().flat_map(|v| ld_objects(v, true)).flat_map(type_names).collect();
    for n in &doc.nodes {
        if let NodeData::Element(e) = &n.data {
            if let Some(t) = e.attr("itemtype") {
                declared.extend(t.split_ascii_whitespace().map(|t| t.trim_end_matches('/').rsplit('/').next().unwrap_or(t).to_string()));
            }
        }
    }
    if let Some(&(_, kind)) = DECLARED_TYPES.iter().find(|(t, _)| declared.iter().any(|d| d == t)) {
        // Several products declared are a list of them.
        let products = declared.iter().filter(|d| *d == "Product").count();
        return Some(if kind == PageType::Product && products >= SEVERAL { PageType::Collection } else { kind });
    }
    match doc.head.meta("og:type").map(|t| t.trim().to_ascii_lowercase()) {
        Some(t) if t == "product" || t == "og:product" => return Some(PageType::Product),
        Some(t) if t == "product.group" => return Some(PageType::Collection),
        _ => {}
    }
    declared.iter().any(|d| d != "WebPage" && ARTICLE_TYPES.contains(&d.as_str())).then_some(PageType::Article)
}

/// What a page's URL says of it: the segments of its path (empty ones left out) and the first
/// label of its host (after `www`).
struct Address {
    segments: Vec<String>,
    first_label: Option<String>,
}

/// Path segments under which a site keeps its articles (`/blog/<slug>`, `/articles/<id>`;
/// the section's own page, `/blog/`, is their list), and the first label of a blog's host.
const ARTICLE_PATHS: &[&str] = &["blog", "blogs", "article", "articles", "posts"];

impl Address {
    fn parse(url: &str) -> Option<Address> {
        let u = url::Url::parse(url).ok()?;
        let segments = u.path_segments().map(|s| s.filter(|s| !s.is_empty()).map(str::to_string).collect()).unwrap_or_default();
        let first_label = u.host_str().and_then(|h| h.split('.').find(|l| !l.eq_ignore_ascii_case("www"))).map(str::to_string);
        Some(Address { segments, first_label })
    }

    /// Does a segment of the path name one of `paths`, or the host's first label one of
    /// `hosts` (in any case)?
    fn names(&self, paths: &[&str], hosts: &[&str]) -> bool {
        self.segments.iter().any(|s| one_of(paths, s)) || self.first_label.as_deref().is_some_and(|l| one_of(hosts, l))
    }

    /// The segment before the last: `product` in `/product/blue-lamp/`, a shop's product page
    /// (WooCommerce's), `collections` in `/collections/lamps`, a shop's collection (Shopify's).
    fn parent(&self) -> Option<&str> {
        let i = self.segments.len().checked_sub(2)?;
        self.segments.get(i).map(String::as_str)
    }

    /// Does it address an article: a segment of [`ARTICLE_PATHS`] with more path after it, a
    /// path on a host whose first label is `blog`, or a path that holds a year and a month and
    /// ends in a slug of words (`/2012/11/bridge-repair.html`; a day's or a month's archive,
    /// `/2012/11/05/`, ends in none)?
    fn of_article(&self) -> bool {
        let segs = &self.segments;
        let under_section = segs.iter().take(segs.len().saturating_sub(1)).any(|s| one_of(ARTICLE_PATHS, s));
        let blog_host = !segs.is_empty() && self.first_label.as_deref().is_some_and(|l| l.eq_ignore_ascii_case("blog"));
        let number = |s: &str, r: std::ops::RangeInclusive<u32>| s.len() <= 4 && s.parse::<u32>().is_ok_and(|n| r.contains(&n));
        let dated = segs.windows(2).any(|w| w[0].len() == 4 && number(&w[0], 1990..=2099) && number(&w[1], 1..=12));
        let slug = segs.last().is_some_and(|l| l.split('-').filter(|w| w.chars().any(char::is_alphabetic)).count() >= 2);
        under_section || blog_host || (dated && slug)
    }
}
