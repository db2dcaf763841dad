//! Metadata: what a page declares about its article — canonical URL, host, authors, published
//! and modified dates, language, site name, description, lead image, tags and categories —
//! read from its meta tags (Open Graph, Twitter cards, Dublin Core, …), `<link>`s, JSON-LD
//! `Article`, microdata and `<time>`.
//!
//! Only declared facts: nothing is guessed from the text. Sources, first match wins:
//!
//! | field | JSON-LD (`Article`, `NewsArticle`, `BlogPosting`, …) | meta tags and markup |
//! |---|---|---|
//! | url | `url`, `mainEntityOfPage` | `<link rel=canonical>`, `og:url` |
//! | byline | `author` (name, or names joined with `, `) | `author`, `article:author` (not a URL), `byl`, `dc.creator`, `parsely-author`, `sailthru.author`, `itemprop=author`, `<a rel=author>` whose whole text is a name |
//! | published | `datePublished`, else `dateCreated` | `article:published_time`, `datePublished`, `pubdate`, `publishdate`, `date`, `dc.date`, `dcterms.created`, `parsely-pub-date`, `sailthru.date`, `<time pubdate>` / `itemprop=datePublished` |
//! | lang | `inLanguage` | `<html lang>`, `content-language`, `og:locale` |
//! | authors | `author` names, in order | the byline's sources, each author tag, `<a rel=author>` |
//! | modified | `dateModified` | `article:modified_time`, `og:updated_time`, `dcterms.modified`, `last-modified`, `itemprop=dateModified` |
//! | site_name | `publisher.name` | `og:site_name`, `application-name` |
//! | description | `description` | `og:description`, `description`, `twitter:description`, `dc.description` |
//! | image | `image` (a URL, an `ImageObject`'s `url`, the first of a list) | `og:image`, `og:image:url`, `og:image:secure_url`, `twitter:image`, `<link rel=image_src>` |
//! | tags | `keywords` (a list, or words between commas) | every `article:tag`, `parsely-tags`, `news_keywords`, `keywords` |
//! | categories | `articleSection` | every `article:section`, `parsely-section` |
//!
//! Dates are given in ISO 8601 where they can be read as dates ([`iso_date`]); bylines as the
//! names they give ([`byline::name`]: no `By`, buttons, e-mail addresses or date around them).
//!
//! The `<html lang>` attribute wins over JSON-LD for the language: it is what the page renders;
//! each is read as a BCP 47 tag ([`language_tag`]). The page's kind ([`page_type`]) is what it
//! declares, else what its address says.

pub mod byline;
mod date;
mod kind;
pub mod shows;
mod site;

pub use date::iso_date;
pub use kind::{page_type, PageType};
use kind::declared_type;
pub use shows::shown;
pub use site::{site_from_title, site_name, title_without_site};

use crate::clean::{Doc, NodeData};
use serde_json::Value;

/// What a page declares about its article.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Metadata {
    /// The canonical URL, as declared (may be relative to the page).
    pub url: Option<String>,
    /// The author(s), as a display line.
    pub byline: Option<String>,
    /// The publication date, as declared (usually ISO 8601).
    pub published: Option<String>,
    /// The language code.
    pub lang: Option<String>,
    /// The site's name (`og:site_name`, JSON-LD `publisher.name`).
    pub site_name: Option<String>,
    /// The headline declared in JSON-LD or `og:title`.
    pub headline: Option<String>,
    /// The kind of page its schema.org types or `og:type` declare (see `declared_type` in this
    /// module), or a forum thread its users' standings show ([`shows::shows_thread`]).
    pub declared_type: Option<PageType>,
    /// Each author, in order (the byline names them on one line).
    pub authors: Vec<String>,
    /// The date it was last changed, as declared.
    pub modified: Option<String>,
    /// Its summary, as the page gives it to link previews.
    pub description: Option<String>,
    /// Its lead image's URL, as declared (may be relative to the page).
    pub image: Option<String>,
    /// Its tags (keywords), in order, without repeats.
    pub tags: Vec<String>,
    /// Its sections or categories, in order, without repeats.
    pub categories: Vec<String>,
}

/// JSON-LD types whose fields describe the page's article.
const ARTICLE_TYPES: &[&str] = &[
    "Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle", "AnalysisNewsArticle", "OpinionNewsArticle",
    "ReviewNewsArticle", "BackgroundNewsArticle", "ScholarlyArticle", "TechArticle", "Report", "SocialMediaPosting",
    "LiveBlogPosting", "WebPage",
];

/// Read what `doc` declares about itself.
///
/// # Example
/// ```
/// let doc = forest::clean::page(r#"<html lang=en><head>
///   <script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-05-01",
///     "author":[{"@type":"Person","name":"Ada Byron"},{"name":"Alan T."}]}</script>
///   <link rel=canonical href="https://news.example/a/1"></head><body><p>x</p></body></html>"#);
/// let m = forest::metadata::read(&doc);
/// assert_eq!(m.byline.as_deref(), Some("Ada Byron, Alan T."));
/// assert_eq!(m.published.as_deref(), Some("2024-05-01"));
/// assert_eq!(m.url.as_deref(), Some("https://news.example/a/1"));
/// assert_eq!(m.lang.as_deref(), Some("en"));
/// ```
pub fn read(doc: &Doc) -> Metadata {
    let head = &doc.head;
    // Each JSON-LD script is parsed once, for the article's fields and the page's types.
    let values = parse_all(&doc.head.json_ld);
    let ld = article_ld(&values);
    let ld_str = |key: &str| ld.as_ref().and_then(|a| a.get(key)).and_then(text_of);
    let first_meta = |keys: &[&str]| keys.iter().find_map(|k| head.meta(k)).map(declared);
    let url = url_of(doc, ld.as_ref());
    let byline = ld
        .as_ref()
        .and_then(|a| a.get("author"))
        .and_then(names)
        .or_else(|| {
            ["author", "article:author", "byl", "dc.creator", "dcterms.creator", "parsely-author", "sailthru.author"]
                .iter()
                .filter_map(|k| head.meta(k))
                .find_map(byline::name)
        })
        .or_else(|| itemprop_text(doc, "author").and_then(|b| byline::name(&b)))
        .or_else(|| byline::linked(doc));
    let published = ld_str("datePublished")
        .or_else(|| ld_str("dateCreated"))
        .or_else(|| {
            first_meta(&[
                "article:published_time",
                "datepublished",
                "pubdate",
                "publishdate",
                "publish-date",
                "date",
                "dc.date",
                "dc.date.issued",
                "dcterms.created",
                "dcterms.date",
                "parsely-pub-date",
                "sailthru.date",
                "og:published_time",
            ])
        })
        .or_else(|| time_published(doc))
        .or_else(|| first_time(doc));
    let lang = doc
        .lang
        .as_deref()
        .and_then(language_tag)
        .or_else(|| ld_str("inLanguage").as_deref().and_then(language_tag))
        .or_else(|| first_meta(&["content-language", "og:locale"]).as_deref().and_then(language_tag));
    let site_name = first_meta(&["og:site_name", "application-name"])
        .or_else(|| ld.as_ref().and_then(|a| a.get("publisher")).and_then(|p| p.get("name")).and_then(text_of));
    let headline = ld_str("headline").or_else(|| first_meta(&["og:title"]));
    // A forum thread that declares nothing but an article is known by its users' standings.
    let declared_type = match declared_type(doc, &values) {
        Some(kind) if kind != PageType::Article => Some(kind),
        _ if shows::shows_thread(doc) => Some(PageType::Forum),
        other => other,
    };
    let authors = authors(doc, ld.as_ref(), byline.as_deref());
    let modified = ld_str("dateModified")
        .or_else(|| first_meta(&["article:modified_time", "og:updated_time", "datemodified", "dcterms.modified", "last-modified", "modified"]))
        .or_else(|| itemprop_value(doc, "dateModified"));
    let description =
        first_meta(&["og:description", "description", "twitter:description", "dc.description", "dcterms.description"]).or_else(|| ld_str("description"));
    let image = first_meta(&["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"])
        .or_else(|| ld.as_ref().and_then(|a| a.get("image")).and_then(image_url))
        .or_else(|| head.link("image_src").map(str::to_string));
    let mut tags: Vec<String> = all_meta(head, &["article:tag"]);
    if let Some(k) = ld.as_ref().and_then(|a| a.get("keywords")) {
        tags.extend(list_of(k));
    }
    for key in ["parsely-tags", "news_keywords", "keywords"] {
        if tags.is_empty() {
            tags.extend(head.meta(key).into_iter().flat_map(|v| v.split(',')).map(declared));
        }
    }
    let mut categories: Vec<String> = ld.as_ref().and_then(|a| a.get("articleSection")).map(list_of).unwrap_or_default();
    categories.extend(all_meta(head, &["article:section", "parsely-section"]));
    Metadata {
        url,
        byline,
        published,
        lang,
        site_name,
        headline,
        declared_type,
        authors,
        modified,
        description,
        image,
        tags: distinct(tags),
        categories: distinct(categories),
    }
}

/// Each author: the JSON-LD article's author names, else every author meta tag's value (not a
/// URL), else the names of the byline's `<a rel=author>` links ([`byline::linked_all`]), else
/// the byline; a name that joins people (`Ann Lee and Bo Chen`) gives each
/// ([`byline::people`]).
fn authors(doc: &Doc, ld: Option<&serde_json::Map<String, Value>>, byline: Option<&str>) -> Vec<String> {
    let names = declared_authors(doc, ld, byline);
    distinct(names.iter().flat_map(|n| byline::people(n)).collect())
}

/// The author names as the page declares them ([`authors`]).
fn declared_authors(doc: &Doc, ld: Option<&serde_json::Map<String, Value>>, byline: Option<&str>) -> Vec<String> {
    let from_ld: Vec<String> = ld.and_then(|a| a.get("author")).map(name_list).unwrap_or_default();
    if !from_ld.is_empty() {
        return from_ld;
    }
    let from_meta = all_meta(&doc.head, &["author", "article:author", "dc.creator", "dcterms.creator", "parsely-author", "sailthru.author"]);
    let from_meta: Vec<String> = from_meta.iter().filter_map(|v| byline::name(v)).collect();
    if !from_meta.is_empty() {
        return distinct(from_meta);
    }
    let linked = byline::linked_all(doc);
    if !linked.is_empty() {
        return distinct(linked);
    }
    byline.map(|b| vec![b.to_string()]).unwrap_or_default()
}

/// Every value of the meta tags with these keys, in page order, whitespace collapsed.
fn all_meta(head: &crate::clean::Head, keys: &[&str]) -> Vec<String> {
    head.meta.iter().filter(|(k, _)| keys.contains(&k.as_str())).map(|(_, v)| declared(v)).filter(|v| !v.is_empty()).collect()
}

/// `values` in order without repeats (compared ignoring case), at most 100.
fn distinct(values: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    values.into_iter().filter(|v| !v.is_empty() && seen.insert(v.to_lowercase())).take(100).collect()
}

/// A JSON-LD list of words: an array of strings, or one string of words between commas.
fn list_of(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().filter_map(text_of).collect(),
        Value::String(s) => s.split(',').map(declared).filter(|w| !w.is_empty()).collect(),
        _ => Vec::new(),
    }
}

/// An image's URL in JSON-LD: a string, an `ImageObject`'s `url` (or `contentUrl`), the first
/// of a list.
fn image_url(v: &Value) -> Option<String> {
    match v {
        Value::String(_) => text_of(v),
        Value::Object(o) => o.get("url").or_else(|| o.get("contentUrl")).and_then(text_of),
        Value::Array(a) => a.iter().find_map(image_url),
        _ => None,
    }
}

/// The `content` or `datetime` of the first element with this `itemprop`.
fn itemprop_value(doc: &Doc, prop: &str) -> Option<String> {
    doc.nodes.iter().find_map(|n| {
        let NodeData::Element(e) = &n.data else { return None };
        e.attr("itemprop")
            .is_some_and(|v| v.split_ascii_whitespace().any(|w| w == prop))
            .then(|| e.attr("datetime").or_else(|| e.attr("content")).map(clean_value))
            .flatten()
            .filter(|s| !s.is_empty())
    })
}

/// The URL a page declares for itself: its canonical link, else `og:url`, else its JSON-LD
/// article's `url` or `mainEntityOfPage` (as written: it may be relative).
pub fn declared_url(doc: &Doc) -> Option<String> {
    url_of(doc, article_ld(&parse_all(&doc.head.json_ld)).as_ref())
}

fn url_of(doc: &Doc, ld: Option<&serde_json::Map<String, Value>>) -> Option<String> {
    let head = &doc.head;
    head.link("canonical")
        .map(str::to_string)
        .or_else(|| head.meta("og:url").map(str::to_string))
        .or_else(|| ld.and_then(|a| a.get("url")).and_then(text_of))
        .or_else(|| ld.and_then(|a| a.get("mainEntityOfPage")).and_then(|m| m.get("@id").and_then(text_of).or_else(|| text_of(m))))
}

/// Whitespace collapsed, at most 1000 characters.
fn clean_value(s: &str) -> String {
    let v = crate::clean::collapse_ws(s);
    match v.char_indices().nth(1000) {
        Some((i, _)) => v[..i].to_string(),
        None => v,
    }
}

/// A value the page declares (a JSON-LD string, a meta tag's content) as text: character
/// references decoded once more and tags dropped, since a script's JSON is raw text that many
/// sites write escaped for HTML (`Here&#x27;s`, `&lt;i&gt;Deadpool&lt;/i&gt;`), and some escape
/// their meta tags twice. A text with a bare `&` that is no reference stays as it is.
fn declared(s: &str) -> String {
    let decoded = if s.contains('&') {
        quick_xml::escape::unescape_with(s, quick_xml::escape::resolve_html5_entity).unwrap_or(std::borrow::Cow::Borrowed(s))
    } else {
        std::borrow::Cow::Borrowed(s)
    };
    clean_value(&without_tags(&decoded))
}

/// `s` without its tags (`<i>`, `</b>`, `<br/>`: a `<` before a letter or `/`, to the next `>`);
/// any other `<` stays (`a < b`).
fn without_tags(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('<') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let tag = after.strip_prefix('/').unwrap_or(after).starts_with(|c: char| c.is_ascii_alphabetic());
        match after.find('>').filter(|_| tag) {
            Some(end) => rest = &after[end + 1..],
            None => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// A JSON string (or number) value as text.
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(declared(s)).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(a) => a.iter().find_map(text_of),
        _ => None,
    }
}

/// Author names from a JSON-LD `author` (a string, a `Person`/`Organization`, or a list of
/// them), joined with `, `.
fn names(v: &Value) -> Option<String> {
    let out = name_list(v);
    (!out.is_empty()).then(|| out.join(", "))
}

/// Author names of a JSON-LD `author`, in order, without repeats, each as [`byline::name`]
/// reads it (URLs left out).
fn name_list(v: &Value) -> Vec<String> {
    let list: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let mut out: Vec<String> = Vec::new();
    for a in list {
        let name = match a {
            Value::Object(o) => o.get("name").and_then(text_of),
            other => text_of(other),
        };
        if let Some(n) = name.and_then(|n| byline::name(&n)) {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// The first JSON-LD object typed as an article, searched through top-level arrays and
/// `@graph` (breadth-first, bounded); else the first `WebPage`.
fn article_ld(values: &[Value]) -> Option<serde_json::Map<String, Value>> {
    let mut fallback = None;
    for value in values {
        for o in ld_objects(value, false) {
            let types = type_names(o);
            if types.iter().any(|t| t != "WebPage" && ARTICLE_TYPES.contains(&t.as_str())) {
                return Some(o.clone());
            }
            if fallback.is_none() && types.iter().any(|t| t == "WebPage") {
                fallback = Some(o.clone());
            }
        }
    }
    fallback
}

/// The objects of a JSON-LD value, breadth-first, at most 10,000 values looked at: through
/// arrays and `@graph`, and, when `deep`, through every value of every object.
fn ld_objects(value: &Value, deep: bool) -> Vec<&serde_json::Map<String, Value>> {
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([value]);
    let mut seen = 0;
    while let Some(v) = queue.pop_front() {
        seen += 1;
        if seen > 10_000 {
            break;
        }
        match v {
            Value::Array(a) => queue.extend(a),
            Value::Object(o) => {
                if deep {
                    queue.extend(o.values().filter(|v| v.is_object() || v.is_array()));
                } else if let Some(g) = o.get("@graph") {
                    queue.push_back(g);
                }
                out.push(o);
            }
            _ => {}
        }
    }
    out
}

/// An object's `@type` names, each as its last path segment (`https://schema.org/Product` is
/// `Product`).
fn type_names(o: &serde_json::Map<String, Value>) -> Vec<String> {
    let short = |t: &str| t.rsplit('/').next().unwrap_or(t).to_string();
    match o.get("@type") {
        Some(Value::String(t)) => vec![short(t)],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(short).collect(),
        _ => Vec::new(),
    }
}

/// A language a page declares, as a BCP 47 tag in its usual case (`en-us`, `EN`, `de_DE` →
/// `en-US`, `en`, `de-DE`; the first of a list, `en, fr`); `None` for what is no tag (`{{lang}}`)
/// or says no language (`und`).
///
/// # Example
/// ```
/// use forest::metadata::language_tag;
/// assert_eq!(language_tag(" en-us ").as_deref(), Some("en-US"));
/// assert_eq!(language_tag("ZH_hant_tw").as_deref(), Some("zh-Hant-TW"));
/// assert_eq!(language_tag("fr, en").as_deref(), Some("fr"));
/// assert_eq!(language_tag("{{lang}}"), None);
/// assert_eq!(language_tag("und"), None);
/// ```
pub fn language_tag(raw: &str) -> Option<String> {
    let first = raw.split(',').next().unwrap_or_default().trim().replace('_', "-");
    let tag = icu_locale_core::Locale::normalize(&first).ok()?.into_owned();
    (tag != "und").then_some(tag)
}

/// Is `word` one of `names`, in any case?
fn one_of(names: &[&str], word: &str) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(word))
}

/// Every JSON-LD script of the page that parses.
fn parse_all(scripts: &[String]) -> Vec<Value> {
    scripts.iter().filter_map(|s| parse_ld(s)).collect()
}

/// A JSON-LD script parsed (pages often wrap it in HTML comments or CDATA).
fn parse_ld(script: &str) -> Option<Value> {
    let body = script.trim().trim_start_matches("<!--").trim_end_matches("-->").trim();
    let body = body.trim_start_matches("//<![CDATA[").trim_end_matches("//]]>").trim();
    serde_json::from_str::<Value>(body).ok()
}

/// The text (or `content`/`datetime`) of the first element with `itemprop` = `prop`.
fn itemprop_text(doc: &Doc, prop: &str) -> Option<String> {
    let id = (0..doc.nodes.len() as u32).find(|&i| {
        doc.element(i).and_then(|e| e.attr("itemprop")).is_some_and(|v| v.split_ascii_whitespace().any(|w| w == prop))
    })?;
    let e = doc.element(id)?;
    // The author's name is often in a nested itemprop=name.
    let inner = (id + 1..doc.nodes.get(id as usize)?.end)
        .find(|&i| doc.element(i).and_then(|e| e.attr("itemprop")) == Some("name"))
        .unwrap_or(id);
    e.attr("content").map(clean_value).or_else(|| Some(clean_value(&doc.text(inner)))).filter(|s| !s.is_empty())
}

/// The `datetime` of the page's first `<time>` element that reads as a date: where a page
/// marks no date as its publication's, the first date it shows is nearly always it (a
/// dateline, a post's date above its text).
fn first_time(doc: &Doc) -> Option<String> {
    doc.nodes.iter().find_map(|n| {
        let NodeData::Element(e) = &n.data else { return None };
        (e.name == "time").then(|| e.attr("datetime").map(clean_value).filter(|d| iso_date(d).is_some())).flatten()
    })
}

/// A declared date as ISO 8601 ([`iso_date`]); as declared when it does not read as a date but
/// holds a year; `None` when it holds none (an unfilled template's `{{date}}`).
pub fn normalized_date(raw: &str) -> Option<String> {
    iso_date(raw).or_else(|| {
        let year = raw.split(|c: char| !c.is_ascii_digit()).any(|w| w.len() == 4 && (w.starts_with("19") || w.starts_with("20")));
        year.then(|| raw.to_string())
    })
}

/// The date in a URL's path (`/2024/05/01/`, `/2024-05-01-title`), as ISO 8601.
pub fn url_date(url: &str) -> Option<String> {
    let path = url::Url::parse(url).ok()?.path().to_string();
    let parts: Vec<&str> = path.split(['/', '-', '_']).collect();
    parts.windows(3).find_map(|w| {
        let (y, m, d) = (w[0], w[1], w[2]);
        (y.len() == 4 && m.len() == 2 && d.len() == 2).then(|| iso_date(&format!("{y}-{m}-{d}"))).flatten()
    })
}

/// `datetime` of a `<time pubdate>` or of an element with `itemprop=datePublished`.
fn time_published(doc: &Doc) -> Option<String> {
    doc.nodes.iter().find_map(|n| {
        let NodeData::Element(e) = &n.data else { return None };
        let marked = (e.name == "time" && e.attr("pubdate").is_some()) || e.attr("itemprop") == Some("datePublished");
        if !marked {
            return None;
        }
        e.attr("datetime").or_else(|| e.attr("content")).map(clean_value).filter(|s| !s.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(html: &str) -> Metadata {
        read(&crate::clean::page(html))
    }

    #[test]
    fn authors_dates_description_image_tags_and_sections_are_read() {
        let m = meta(r#"<html><head>
            <meta property="og:site_name" content="The Gazette"><meta property="og:description" content="A bridge closes.">
            <meta property="og:image" content="/img/bridge.jpg"><meta property="article:tag" content="Bridges">
            <meta property="article:tag" content="Roads"><meta property="article:tag" content="bridges">
            <meta property="article:section" content="Local"><meta property="article:modified_time" content="2024-05-02T09:00:00Z">
            <meta name="author" content="Ada Byron"><meta name="author" content="Alan T."></head>
            <body><p>x</p></body></html>"#);
        assert_eq!(m.authors, ["Ada Byron", "Alan T."]);
        assert_eq!(m.byline.as_deref(), Some("Ada Byron"));
        assert_eq!((m.site_name.as_deref(), m.description.as_deref(), m.image.as_deref()), (Some("The Gazette"), Some("A bridge closes."), Some("/img/bridge.jpg")));
        assert_eq!((m.tags.as_slice(), m.categories.as_slice()), (&["Bridges".to_string(), "Roads".into()][..], &["Local".to_string()][..]));
        assert_eq!(m.modified.as_deref(), Some("2024-05-02T09:00:00Z"));
        // JSON-LD: a list of authors, keywords between commas, an ImageObject, a section.
        let m = meta(r#"<script type="application/ld+json">{"@type":"NewsArticle","author":[{"name":"Cora Vale"},{"name":"Dev Patel"}],
            "keywords":"floods, rivers","image":{"@type":"ImageObject","url":"https://x.example/a.jpg"},"articleSection":["Weather"],
            "dateModified":"2024-06-01","description":"Rivers rise."}</script><p>x</p>"#);
        assert_eq!(m.authors, ["Cora Vale", "Dev Patel"]);
        assert_eq!((m.tags.len(), m.categories[0].as_str(), m.image.as_deref()), (2, "Weather", Some("https://x.example/a.jpg")));
        assert_eq!((m.modified.as_deref(), m.description.as_deref()), (Some("2024-06-01"), Some("Rivers rise.")));
        // A visible byline link.
        let m = meta(r#"<p>By <a rel="author" href="/people/ada">Ada Byron</a></p>"#);
        assert_eq!(m.authors, ["Ada Byron"]);
    }

    #[test]
    fn what_a_page_shows_when_it_declares_nothing() {
        let page = |body: &str| crate::clean::page(&format!("<html><head><title>Bridge closes | The Gazette</title></head><body>{body}</body></html>"));
        // A byline's name, without its `By` and the date after it; an author's box is not one.
        let shows = shown(&page("<div class=author-bio>Ada writes about rivers.</div><p class=byline>By Ada Byron, May 1, 2024</p>"));
        assert_eq!((shows.0.as_deref(), shows.1.as_deref()), (Some("Ada Byron"), Some("2024-05-01")));
        // The first <time> that reads as a date.
        let m = read(&page("<time datetime='soon'>x</time><time datetime='2024-05-01T08:00:00Z'>May 1</time>"));
        assert_eq!(m.published.as_deref(), Some("2024-05-01T08:00:00Z"));
        assert_eq!(shown(&page("<span class=post-date>Updated 10:05 AM, Sun September 11, 2005</span>")).1.as_deref(), Some("2005-09-11"));
        // A byline line in any markup gives a name and a date; a comment's signature does not;
        // an element named as a byline comes first.
        let line = "<h1>Bridge closes</h1><div>by <a href=/u/ann>Ann Lee</a> on Wednesday, May 1, 2024 at 1:31pm</div>";
        let shows = shown(&page(&format!("<div class=comments><p>Posted by: Bob | May 2, 2024</p></div>{line}")));
        assert_eq!((shows.0.as_deref(), shows.1.as_deref()), (Some("Ann Lee"), Some("2024-05-01")));
        assert_eq!(shown(&page(&format!("{line}<span class=author>Ada Byron</span>"))).0.as_deref(), Some("Ada Byron"));
        assert_eq!(shown(&page("<p>by continuing you agree to our terms</p>")), (None, None));
        assert_eq!(shown(&page("<p class=PostInfo>Posted on October 30, 2012 at 12:13 am as <em>News</em></p>")).1.as_deref(), Some("2012-10-30"));
        // A line of only a date in the headline's block is the page's date; one that says it is
        // an update's only when no other is shown; a date in a sentence, or in a listing's item
        // far from the headline, is not.
        let story = "<p>The bridge on Elm Street closes for six weeks of repairs from Monday.</p>";
        let dated = |head: &str, rest: &str| shown(&page(&format!("<article><header><div>{head}</div></header></article>{rest}{story}"))).1;
        assert_eq!(dated("<h1>Bridge closes</h1><span>Dec 12, 2025 · 4 min read</span>", "").as_deref(), Some("2025-12-12"));
        assert_eq!(dated("<h1>Bridge closes</h1><p>Updated: 10/31/2024</p><p>Published on October 30, 2024 at 9:00 am EST</p>", "").as_deref(), Some("2024-10-30"));
        assert_eq!(dated("<h1>Bridge closes</h1><p>Updated: 10/31/2024</p>", "").as_deref(), Some("2024-10-31"));
        assert_eq!(dated("<h1>Bridge closes</h1><p>Crews will start work on May 4, 2026.</p>", ""), None);
        assert_eq!(dated("<h1>Events</h1>", "<div><div><div><span>Wed, Mar 18, 2026</span></div></div></div>"), None);
        // A date right after the name ends it; a section's name before a date is no byline.
        for (line, name) in [("<cite class=byline>DUSAN STOJANOVIC June 30, 2013</cite>", Some("DUSAN STOJANOVIC")), ("<p class=byline>By Ann Lee on 11/12/2012</p>", Some("Ann Lee")), ("<p class=byline>Features / 1 day ago / by Luke Morton</p>", None), ("<p class=pricing-byline>billed annually, or $15/mo</p>", None)] {
            assert_eq!(shown(&page(line)).0.as_deref(), name, "{line}");
        }
        assert_eq!(url_date("https://a.example/2024/05/01/bridge/").as_deref(), Some("2024-05-01"));
        assert_eq!(url_date("https://a.example/news/2024-05-01-bridge.html").as_deref(), Some("2024-05-01"));
        assert_eq!(url_date("https://a.example/2024/05/bridge/"), None);
        assert_eq!(site_from_title("Bridge closes | The Gazette", "Bridge closes", None).as_deref(), Some("The Gazette"));
        assert_eq!(site_from_title("The Gazette - Bridge closes", "Bridge closes", None).as_deref(), Some("The Gazette"));
        assert_eq!(site_from_title("Bridge closes", "Bridge closes", None), None);
        assert_eq!((normalized_date("{{article.date}}"), normalized_date("Spring 2024").as_deref()), (None, Some("Spring 2024")));
    }

    #[test]
    fn page_types_come_from_what_pages_declare() {
        let kind = |html: &str| page_type(&read(&crate::clean::page(html)), None);
        let ld = |json: &str| format!("<script type='application/ld+json'>{json}</script><p>x</p>");
        assert_eq!(kind("<div itemscope itemtype='https://schema.org/DiscussionForumPosting'><p>q</p></div>"), Some(PageType::Forum));
        assert_eq!(kind(&ld(r#"{"@context":"https://schema.org","@type":"QAPage","mainEntity":{"@type":"Question"}}"#)), Some(PageType::Forum));
        let products = r#"{"@type":"ItemList","itemListElement":[{"item":{"@type":"Product"}},{"item":{"@type":"Product"}},{"item":{"@type":"Product"}}]}"#;
        assert_eq!(kind(&ld(products)), Some(PageType::Collection));
        assert_eq!(kind(&ld(r#"{"@graph":[{"@type":"WebSite"},{"@type":["NewsArticle"]}]}"#)), Some(PageType::Article));
        assert_eq!(kind("<meta property='og:type' content='product'><p>x</p>"), Some(PageType::Product));
        // og:type article is no evidence, nor is a bare WebPage.
        assert_eq!(kind("<meta property='og:type' content='article'><p>x</p>"), None);
        assert_eq!(kind(&ld(r#"{"@type":"WebPage"}"#)), None);
        assert_eq!(kind(&ld("{not json")), None);
    }

    #[test]
    fn meta_tags_are_read_when_there_is_no_json_ld() {
        let m = meta(
            r#"<html><head><meta name="author" content=" By  Jane Roe "><meta property="article:published_time"
            content="2017-03-04T10:00:00Z"><meta property="og:url" content="https://a.example/x">
            <meta http-equiv="Content-Language" content="de_DE"></head><body>x</body></html>"#,
        );
        assert_eq!(m.byline.as_deref(), Some("Jane Roe"));
        assert_eq!(m.published.as_deref(), Some("2017-03-04T10:00:00Z"));
        assert_eq!(m.url.as_deref(), Some("https://a.example/x"));
        assert_eq!(m.lang.as_deref(), Some("de-DE"));
    }

    #[test]
    fn json_ld_in_a_graph_wins_and_bad_json_is_ignored() {
        let m = meta(
            r#"<script type="application/ld+json">{not json</script>
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
              {"@type":"WebSite","name":"W"},
              {"@type":["NewsArticle"],"headline":"H","datePublished":"2020-01-02","author":"Sam Poe",
               "publisher":{"@type":"Organization","name":"The Daily"}}]}</script>
            <meta name=author content="Someone Else"><p>x"#,
        );
        assert_eq!(m.byline.as_deref(), Some("Sam Poe"));
        assert_eq!(m.published.as_deref(), Some("2020-01-02"));
        assert_eq!(m.site_name.as_deref(), Some("The Daily"));
        assert_eq!(m.headline.as_deref(), Some("H"));
    }

    #[test]
    fn declared_values_escaped_for_html_are_read_as_text() {
        let m = meta(
            r#"<script type="application/ld+json">{"@type":"NewsArticle",
              "headline":"Here&#x27;s Jackman In The Next &lt;i&gt;Deadpool&lt;/i&gt; Movie","keywords":"Tom & Jerry, a < b"}</script>
            <meta property="og:site_name" content="AT&amp;amp;T News"><p>x"#,
        );
        assert_eq!(m.headline.as_deref(), Some("Here's Jackman In The Next Deadpool Movie"));
        assert_eq!(m.site_name.as_deref(), Some("AT&T News"));
        // A bare `&` and a `<` that opens no tag stay.
        assert_eq!(m.tags, ["Tom & Jerry", "a < b"]);
    }

    #[test]
    fn markup_dates_and_authors_in_the_body() {
        let m = meta(
            r#"<body><span itemprop="author" itemscope><span itemprop="name">Kim Lee</span></span>
            <time pubdate datetime="2009-09-09">Sept 9</time><p>x</p></body>"#,
        );
        assert_eq!(m.byline.as_deref(), Some("Kim Lee"));
        assert_eq!(m.published.as_deref(), Some("2009-09-09"));
        assert_eq!(m.url, None);
    }

    #[test]
    fn urls_are_not_bylines_and_hosts_come_from_canonical_links() {
        let doc = crate::clean::page(
            r#"<meta property="article:author" content="https://facebook.com/x"><link rel="Canonical" href="https://www.Example.org/a"><p>x"#,
        );
        assert_eq!(read(&doc).byline, None);
        assert_eq!(crate::host::declared(&doc).as_deref(), Some("example.org"));
    }
}
