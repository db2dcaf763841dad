//! Article: what forest found on a page, with where it came from. One type for every output:
//! the text, Markdown, HTML, XML and JSON formats ([`Article::markdown`], [`Article::html`],
//! [`Article::to_json`], …), the index ([`crate::index`]) and the command line.
//!
//! An article made from a page ([`Article::from_extraction`]) keeps the page and what was
//! selected in it, so every format keeps the article's structure (headings, lists, links);
//! one read back from an index has its text only, and renders from that.

use crate::clean::{collapse_ws, Doc, NodeId};
use crate::extract::{Extraction, Rule};
use crate::fetch::Location;
use crate::metadata::Metadata;
use crate::Page;
use url::Url;

/// Below this confidence an article is doubtful, and `forest apply` says so: its estimated F1
/// is under one half.
pub const DOUBTFUL: f64 = 0.5;

/// An article and where it came from.
#[derive(Debug, Clone, Default)]
pub struct Article {
    /// The page's URL: where it was fetched from, else the canonical URL it declares.
    pub url: Option<String>,
    /// Where it was read from, as given (a path or a URL).
    pub source: String,
    /// The host of [`Article::url`], as written there.
    pub host: Option<String>,
    /// The headline.
    pub title: String,
    /// The author(s), when the page (or its site config) declares them.
    pub byline: Option<String>,
    /// The publication date, as declared, in ISO 8601 when it reads as a date
    /// ([`crate::metadata::iso_date`]).
    pub published: Option<String>,
    /// The language code, as declared (`en`, `fr-CA`), else detected from the text.
    pub lang: Option<String>,
    /// The article's readable text.
    pub text: String,
    /// The XPath of the rules that extracted it (empty for the single-page extractor).
    pub xpath: String,
    /// The rule that selected it.
    pub rule: Rule,
    /// The kind of page it came from, as the page declares it or its URL shows
    /// ([`crate::metadata::page_type`]); `None` when nothing says.
    pub page_type: Option<crate::metadata::PageType>,
    /// An estimate of its F1 against the page's true article, in [0, 1]
    /// ([`Extraction::confidence`]): a low one marks a page to check or route elsewhere.
    pub confidence: f64,
    /// When it was extracted, in unix seconds.
    pub extracted_at: i64,
    /// What else the page declares about it ([`crate::metadata`]).
    pub meta: Meta,
    /// The page and what was selected in it (none for an article read back from an index).
    pub extracted: Option<Box<Extracted>>,
    /// The reader comments of the page, when asked for ([`Fields::Comments`]): the text of each
    /// region of comments the cleaner cut ([`crate::clean::Doc::comments`]), a line per block.
    /// Never part of [`Article::text`].
    pub comments: Vec<String>,
}

/// Two articles are equal when their fields are (the page they came from is not compared).
impl PartialEq for Article {
    fn eq(&self, o: &Article) -> bool {
        (&self.url, &self.source, &self.host, &self.title, &self.byline, &self.published, &self.lang)
            == (&o.url, &o.source, &o.host, &o.title, &o.byline, &o.published, &o.lang)
            && (&self.text, &self.xpath, self.rule, self.extracted_at) == (&o.text, &o.xpath, o.rule, o.extracted_at)
            && self.confidence.to_bits() == o.confidence.to_bits()
            && self.page_type == o.page_type
            && self.meta == o.meta
            && self.comments == o.comments
    }
}

/// What a page declares about its article beyond the headline, byline, date and language
/// ([`crate::metadata::read`]); empty for an article read back from an index.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Meta {
    /// Each author, in order.
    pub authors: Vec<String>,
    /// When it was last changed, in ISO 8601 when it reads as a date.
    pub modified: Option<String>,
    /// The site's name.
    pub site_name: Option<String>,
    /// Its summary: the page's description, else the article's first paragraph.
    pub description: Option<String>,
    /// Its lead image, as an absolute URL when the page's URL is known.
    pub image: Option<String>,
    /// Its tags (keywords).
    pub tags: Vec<String>,
    /// Its sections or categories.
    pub categories: Vec<String>,
    /// The canonical URL the page declares, absolute when the page's URL is known.
    pub canonical_url: Option<String>,
}

/// The page an article was extracted from, and what was selected in it.
#[derive(Debug, Clone)]
pub struct Extracted {
    /// The cleaned page.
    pub page: Page,
    /// The nodes selected, the parts cut inside them, the headline.
    pub extraction: Extraction,
}

/// What a site's rules declare of a page beyond the page's own metadata (a site config's
/// `author:` and `date:`), and what they know of where it shows its byline and date (a
/// wrapper's [`crate::wrapper::Shows`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Declared {
    /// The authors, when the rules name any.
    pub authors: Vec<String>,
    /// The date, when the rules give one.
    pub date: Option<String>,
    /// The byline shown where the site shows it: taken where the page neither declares one
    /// nor shows one where its markup names it.
    pub shown_byline: Option<String>,
    /// The date shown where the site shows it, as [`Declared::shown_byline`].
    pub shown_date: Option<String>,
}

/// Which of an article's fields a caller reads: all, or the text only (with the URL, host
/// and rule), which spares the headline search and the language detection.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Fields {
    /// Every field.
    #[default]
    All,
    /// The text, URL, host, rule and what the page declares; the title is the page's
    /// `<title>` and the language is only a declared one. The article does not keep its page
    /// (freed where it was extracted, on the worker's thread), so it renders from its text.
    Text,
    /// Every field, and the page's reader comments ([`Article::comments`]).
    Comments,
}

impl Article {
    /// The article `extraction` found on `page`, read from `source`; `xpath` names the rules
    /// and `declared` is what they say of the page beyond its own metadata; `fields` says
    /// which fields are worked out.
    pub fn from_extraction(mut page: Page, extraction: Extraction, source: &Location, xpath: &str, declared: Declared, fields: Fields) -> Article {
        // The page's URL ([`Page::url`]), parsed once: the host comes from the same parse.
        let url = page.url().map(str::to_string);
        let parsed = url.as_deref().and_then(|u| Url::parse(u).ok());
        let host = parsed.as_ref().and_then(|u| u.host_str().map(str::to_string));
        let page_type = page.kind();
        let meta = page.take_meta();
        let doc = &page.doc;
        // What the page shows, where it declares no byline or date (read for every field only).
        let all = fields != Fields::Text;
        // A byline that is the site's own name is its publisher's: a person's name the page
        // shows is preferred.
        let declared_site = meta.site_name.as_deref().map(|s| crate::metadata::site_name(s, host.as_deref()));
        let publisher = meta.byline.as_deref().zip(declared_site.as_deref()).is_some_and(|(b, s)| crate::metadata::byline::names_site(b, s));
        let shown = if all && (meta.byline.is_none() || publisher || meta.published.is_none()) {
            let (byline, date) = crate::metadata::shown(doc);
            (byline.or_else(|| declared.shown_byline.clone()), date.or_else(|| declared.shown_date.clone()))
        } else {
            (None, None)
        };
        let person = if publisher { shown.0.clone().filter(|p| declared_site.as_deref().is_some_and(|s| !crate::metadata::byline::holds_site(p, s))) } else { None };
        let byline = if declared.authors.is_empty() {
            person.clone().or_else(|| meta.byline.clone()).or(shown.0)
        } else {
            Some(declared.authors.join(", "))
        };
        let published = declared
            .date
            .as_deref()
            .and_then(crate::metadata::normalized_date)
            .or_else(|| meta.published.as_deref().and_then(crate::metadata::normalized_date))
            .or_else(|| url.as_deref().and_then(crate::metadata::url_date))
            .or(shown.1);
        let title = if all { title_of(doc, &extraction, &meta) } else { doc.title.clone() };
        let site_name = declared_site.clone().or_else(|| crate::metadata::site_from_title(&doc.title, &title, host.as_deref()));
        // The title is the article's: a part of it that names the site goes (`… | The Gazette`).
        let title = if all { crate::metadata::title_without_site(&title, declared_site.as_deref(), host.as_deref()) } else { title };
        // A headline that is only the site's name (a blog's name over each post) is not the
        // title of an article other than the home page's: the declared headline is, else the
        // `<title>`, each without the site's name.
        let home = parsed.as_ref().is_none_or(|u| u.path().trim_matches('/').is_empty());
        let title = match site_name.as_deref() {
            Some(site) if all && !home && crate::metadata::byline::names_site(&title, site) => [meta.headline.as_deref(), Some(doc.title.as_str())]
                .into_iter()
                .flatten()
                .map(|t| crate::metadata::title_without_site(&collapse_ws(t), Some(site), host.as_deref()))
                .find(|t| !t.is_empty() && !crate::metadata::byline::names_site(t, site))
                .unwrap_or(title),
            _ => title,
        };
        // URLs the page declares, made absolute against where it was read.
        let absolute = |u: &Option<String>| {
            u.as_deref().map(|u| parsed.as_ref().and_then(|base| base.join(u.trim()).ok()).map_or_else(|| u.to_string(), String::from))
        };
        let authors = match (&declared.authors, &byline) {
            (d, _) if !d.is_empty() => d.clone(),
            (_, Some(b)) if meta.authors.is_empty() || person.is_some() => crate::metadata::byline::people(b),
            _ => meta.authors.clone(),
        };
        // The site's own name beside a person's is the publisher's, not an author's.
        let site_named = |a: &String| declared_site.as_deref().is_some_and(|s| crate::metadata::byline::names_site(a, s));
        let authors = if authors.iter().any(|a| !site_named(a)) { authors.into_iter().filter(|a| !site_named(a)).collect() } else { authors };
        let extra = Meta {
            authors,
            modified: meta.modified.as_deref().and_then(crate::metadata::normalized_date),
            site_name,
            description: meta.description.clone().filter(|d| !d.trim().is_empty()).or_else(|| first_paragraph(doc, &extraction)),
            image: absolute(&meta.image),
            tags: meta.tags.clone(),
            categories: meta.categories.clone(),
            canonical_url: absolute(&meta.url),
        };
        let lang = meta.lang.or_else(|| all.then(|| detect_lang(&extraction.text)).flatten());
        let rule = extraction.rule;
        let confidence = extraction.confidence(doc);
        let (text, extracted) = if all { (extraction.text.clone(), Some(Box::new(Extracted { page, extraction }))) } else { (extraction.text, None) };
        let extracted_at =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        let mut article = Article {
            url,
            source: source.to_string(),
            host,
            title,
            byline,
            published,
            lang,
            text,
            xpath: xpath.to_string(),
            rule,
            page_type,
            confidence,
            extracted_at,
            meta: extra,
            extracted,
            comments: Vec::new(),
        };
        if fields == Fields::Comments {
            article.read_comments();
        }
        article
    }

    /// The article's text without its headline (many gold conventions and users keep the
    /// title as a field of its own): a first paragraph that is the headline (or the title)
    /// is left out.
    pub fn body(&self) -> String {
        let headline = self.extracted.as_ref().and_then(|e| {
            let h = e.extraction.headline.or_else(|| crate::extract::headline(&e.page.doc))?;
            Some(collapse_ws(&e.page.doc.text(h)))
        });
        let Some((first, rest)) = self.text.split_once("\n\n") else { return self.text.clone() };
        let first = collapse_ws(first);
        if first == collapse_ws(&self.title) || headline.is_some_and(|h| h == first) {
            return rest.to_string();
        }
        self.text.clone()
    }

    /// Fill [`Article::comments`] from the page the article keeps (as [`Fields::Comments`]
    /// does; nothing for an article without its page).
    pub fn read_comments(&mut self) {
        if let Some(page) = self.page() {
            self.comments = page.doc.comments.clone();
        }
    }

    /// The article's key in an index: its URL, else where it was read from.
    pub fn key(&self) -> &str {
        self.url.as_deref().unwrap_or(&self.source)
    }

    /// The page it was extracted from (none for an article read back from an index).
    pub fn page(&self) -> Option<&Page> {
        self.extracted.as_ref().map(|b| &b.page)
    }

    /// What was selected on the page (none for an article read back from an index).
    pub fn extraction(&self) -> Option<&Extraction> {
        self.extracted.as_ref().map(|b| &b.extraction)
    }

    /// The base links are resolved against: the article's URL.
    fn base(&self) -> Option<Url> {
        self.url.as_deref().and_then(|u| Url::parse(u).ok())
    }

    /// The page tree and extraction to render: the article's own, else its text alone.
    fn parts(&self) -> (std::borrow::Cow<'_, Doc>, std::borrow::Cow<'_, Extraction>) {
        use std::borrow::Cow;
        match &self.extracted {
            Some(b) => (Cow::Borrowed(&b.page.doc), Cow::Borrowed(&b.extraction)),
            None => (Cow::Owned(crate::clean::page("")), Cow::Owned(Extraction::new(Vec::new(), self.text.clone(), self.rule))),
        }
    }

    /// The article as CommonMark (see [`crate::render::markdown`]).
    pub fn markdown(&self) -> String {
        let (doc, x) = self.parts();
        crate::render::markdown(&doc, &x, self.base().as_ref())
    }

    /// The article's elements as an HTML fragment (see [`crate::render::html`]).
    pub fn html(&self) -> String {
        let (doc, x) = self.parts();
        crate::render::html(&doc, &x, self.base().as_ref())
    }

    /// The article as a small HTML document with its title and language.
    pub fn html_document(&self) -> String {
        let (doc, x) = self.parts();
        crate::render::html_document(&doc, &x, self.base().as_ref(), &self.title, self.lang.as_deref())
    }

    /// The article's cleaned XML, with `dfs` numbers (see [`crate::render::xml`]).
    pub fn xml(&self) -> String {
        let (doc, x) = self.parts();
        crate::render::xml(&doc, &x)
    }

    /// The article as a JSON object (pretty: indented on several lines), fields in this
    /// order: `url`, `source`, `host`, `title`, `byline`, `published`, `lang`, `text`, `html`,
    /// `xpath`, `rule`, `confidence`, `page_type`, then what else the page declares
    /// ([`Meta`]): `authors`, `modified`, `site_name`, `description`, `image`, `tags`,
    /// `categories`, `canonical_url`.
    pub fn to_json(&self, pretty: bool) -> String {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            url: Option<&'a str>,
            source: &'a str,
            host: Option<&'a str>,
            title: &'a str,
            byline: Option<&'a str>,
            published: Option<&'a str>,
            lang: Option<&'a str>,
            text: &'a str,
            html: String,
            xpath: &'a str,
            rule: String,
            confidence: f64,
            page_type: Option<&'static str>,
            #[serde(flatten)]
            meta: &'a Meta,
            #[serde(skip_serializing_if = "<[String]>::is_empty")]
            comments: &'a [String],
        }
        let json = Json {
            url: self.url.as_deref(),
            source: &self.source,
            host: self.host.as_deref(),
            title: &self.title,
            byline: self.byline.as_deref(),
            published: self.published.as_deref(),
            lang: self.lang.as_deref(),
            text: &self.text,
            html: self.html(),
            xpath: &self.xpath,
            rule: self.rule.name(),
            confidence: (self.confidence * 1000.0).round() / 1000.0,
            page_type: self.page_type.map(crate::metadata::PageType::name),
            meta: &self.meta,
            comments: &self.comments,
        };
        let written = if pretty { serde_json::to_string_pretty(&json) } else { serde_json::to_string(&json) };
        written.expect("a struct of strings always serializes")
    }
}

/// An output format of an article: what `forest apply --format` writes for one page
/// ([`Article::render`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Plain text ([`Article::text`]).
    #[default]
    Text,
    /// CommonMark ([`Article::markdown`]).
    Markdown,
    /// An HTML document ([`Article::html_document`]).
    Html,
    /// The cleaned XML ([`Article::xml`]).
    Xml,
    /// JSON, indented ([`Article::to_json`]).
    Json,
    /// JSON on one line.
    Jsonl,
}

impl Format {
    /// Every format, with its name.
    pub const ALL: [(&'static str, Format); 6] = [
        ("text", Format::Text),
        ("markdown", Format::Markdown),
        ("html", Format::Html),
        ("xml", Format::Xml),
        ("json", Format::Json),
        ("jsonl", Format::Jsonl),
    ];

    /// The format of a name (`text`, `markdown`, `html`, `xml`, `json`, `jsonl`).
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] for another name, listing the names.
    pub fn named(name: &str) -> crate::Result<Format> {
        Format::ALL.iter().find(|(n, _)| *n == name).map(|&(_, f)| f).ok_or_else(|| {
            let names: Vec<&str> = Format::ALL.iter().map(|(n, _)| *n).collect();
            crate::Error::Invalid(format!("unknown format {name:?}: use one of {}", names.join(", ")))
        })
    }

    /// What the format holds, in a line.
    pub fn describe(self) -> &'static str {
        match self {
            Format::Text => "Plain text, paragraphs separated by blank lines",
            Format::Markdown => "CommonMark (GFM tables)",
            Format::Html => "An HTML document holding the article",
            Format::Xml => "The article's cleaned XML, with dfs numbers",
            Format::Json => "One JSON object per page (an array for several pages on stdout)",
            Format::Jsonl => "One JSON object per line",
        }
    }

    /// The file name extension of an article in this format.
    pub fn ext(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Markdown => "md",
            Format::Html => "html",
            Format::Xml => "xml",
            Format::Json | Format::Jsonl => "json",
        }
    }
}

impl Article {
    /// The article in `format`, as `forest apply` writes it for one page (ending in a newline).
    /// Text, Markdown and HTML end with the reader comments, when the article has them,
    /// under a heading of their own (JSON has them as `comments`, XML leaves them out).
    pub fn render(&self, format: Format) -> String {
        let comments = (!self.comments.is_empty()).then(|| self.comments.iter().flat_map(|c| c.lines()).collect::<Vec<_>>().join("\n\n"));
        match (format, comments) {
            (Format::Text, None) => format!("{}\n", self.text),
            (Format::Text, Some(c)) => format!("{}\n\nComments\n\n{c}\n", self.text),
            (Format::Markdown, None) => self.markdown(),
            (Format::Markdown, Some(c)) => format!("{}\n## Comments\n\n{}", self.markdown(), crate::render::text_markdown(&c)),
            (Format::Xml, _) => self.xml(),
            (Format::Html, None) => self.html_document(),
            (Format::Html, Some(c)) => {
                let page = self.html_document();
                let end = page.rfind("</body>").unwrap_or(page.len());
                format!("{}<section class=\"comments\">\n<h2>Comments</h2>\n{}</section>\n{}", &page[..end], crate::render::text_html(&c), &page[end..])
            }
            (Format::Json, _) => format!("{}\n", self.to_json(true)),
            (Format::Jsonl, _) => format!("{}\n", self.to_json(false)),
        }
    }
}

/// The article's title: the headline the extraction found or the page's headline, else the
/// declared headline, else `<title>`.
fn title_of(doc: &Doc, x: &Extraction, meta: &Metadata) -> String {
    x.headline
        .or_else(|| crate::extract::headline(doc))
        .or_else(|| first_h1(doc, x))
        .map(|h| collapse_ws(&headline_text(doc, h)))
        .filter(|t| !t.is_empty())
        .or_else(|| meta.headline.clone())
        .unwrap_or_else(|| doc.title.clone())
}

/// The text of headline `h` without the labels of the buttons inside it (rustdoc's `Copy item
/// path` in each page's `h1`): controls, not words of the title.
fn headline_text(doc: &Doc, h: NodeId) -> String {
    let mut skip: Vec<bool> = Vec::new();
    for b in (h..doc.end(h)).filter(|&i| doc.element(i).is_some_and(|e| e.name == "button")) {
        let b_end = doc.end(b) as usize;
        skip.resize(b_end.max(skip.len()), false);
        skip[b as usize..b_end].iter_mut().for_each(|s| *s = true);
    }
    doc.text_masked(&[h], &skip)
}

/// The first `h1` inside the article's selection that was not cut from it: the headline of a
/// selection that holds its own (a page's `main`, a listing under its heading).
fn first_h1(doc: &Doc, x: &Extraction) -> Option<NodeId> {
    let kept = |i: NodeId| !x.skip.get(i as usize).copied().unwrap_or(false);
    x.nodes.iter().find_map(|&root| (root..doc.end(root)).find(|&i| kept(i) && doc.element(i).is_some_and(|e| e.name == "h1")))
}

/// Most characters of a first paragraph given as the article's description.
const DESCRIPTION_CHARS: usize = 500;

/// Fewest words of a paragraph given as the description: a sentence, not a dateline.
const SENTENCE_WORDS: usize = 10;

/// The text of the article's first paragraph (`<p>` of at least [`SENTENCE_WORDS`] words, not
/// a byline, not cut from it), at most [`DESCRIPTION_CHARS`] characters: the summary of a page
/// that declares none.
fn first_paragraph(doc: &Doc, x: &Extraction) -> Option<String> {
    let skipped = |i: usize| x.skip.get(i).copied().unwrap_or(false);
    x.nodes.iter().find_map(|&root| {
        let end = doc.nodes.get(root as usize)?.end;
        (root..end).find_map(|i| {
            doc.element(i).filter(|e| e.name == "p" && !skipped(i as usize))?;
            let text = collapse_ws(&doc.text(i));
            let sentence = text.split(' ').count() >= SENTENCE_WORDS && !crate::metadata::byline::leads(&text);
            sentence.then(|| text.chars().take(DESCRIPTION_CHARS).collect())
        })
    })
}

/// The language of an article's text, when it is clear (a 639-1 code); the first 2,000
/// characters are enough.
fn detect_lang(text: &str) -> Option<String> {
    let sample: String = text.chars().take(2000).collect();
    crate::text::Language::detect(&sample).map(|l| l.code.to_string())
}

