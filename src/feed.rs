//! Feed: which pages make up a site's sample, and what the feed says about each.
//!
//! A SOURCE is a feed URL, a feed file, or a folder of `.html` pages. [`read`] turns it into
//! [`Item`]s, each naming where its page lives:
//!
//! - folder: every `*.html`/`*.htm` file, in name order; a `feed.xml` beside them supplies the
//!   title and description of the item whose `<guid>` is the file's stem (or whose link ends
//!   with the file's name);
//! - feed file (works offline): an item whose `<guid>` names a `<guid>.html` beside the feed
//!   uses that page; else a relative `<link>` resolves against the feed's folder; else an
//!   absolute http(s) link is fetched;
//! - feed URL: links are resolved against the feed URL and always fetched, never mapped to
//!   local files; only http and https links are followed.
//!
//! Feeds are parsed with feed-rs: RSS 0.9x/1.0/2.0, Atom and JSON Feed. Given a site or article
//! URL instead of a feed, the feed is discovered from the page's
//! `<link rel="alternate" type="application/rss+xml|atom+xml|feed+json">`.

use crate::fetch::{self, Location};
use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// One page of a site's sample, with what its feed item says.
#[derive(Debug, Clone)]
pub struct Item {
    /// Stable id: the feed's guid, else the file stem.
    pub id: String,
    /// Where the page lives.
    pub page: Location,
    /// The item's title (plain text), empty when unknown.
    pub title: String,
    /// The item's description or summary (plain text), empty when unknown.
    pub description: String,
    /// The item's link as the feed wrote it.
    pub link: Option<String>,
    /// The site's home page as the feed links it (the sample's [`Sample::home`]).
    pub home: Option<String>,
}

/// Items of a feed that could not become pages, with the reason.
#[derive(Debug, Clone)]
pub struct Skipped {
    /// The item's id or link.
    pub what: String,
    /// Why it was left out.
    pub why: String,
}

/// The sample of a site: its items and those left out.
#[derive(Debug, Clone, Default)]
pub struct Sample {
    /// A name for the site: the feed's title, the folder's name or the host.
    pub site: String,
    /// Pages to read, in feed or name order.
    pub items: Vec<Item>,
    /// Items that could not be mapped to a page.
    pub skipped: Vec<Skipped>,
    /// The site's home page as the feed links it (RSS channel `<link>`, Atom `alternate`), when
    /// it is an http(s) URL; else the feed's own URL.
    pub home: Option<String>,
    /// The feed found through the page that was named (feed autodiscovery), when it was one;
    /// the sitemap read, for a sample from a sitemap.
    pub found_at: Option<String>,
}

/// Read a SOURCE (feed URL, feed file or folder of pages) into the site's sample.
///
/// # Errors
/// [`Error::Io`] for a missing path, [`Error::Fetch`] for a feed URL that cannot be fetched,
/// [`Error::Feed`] for a feed that does not parse.
pub fn read(source: &str) -> Result<Sample> {
    match Location::parse(source) {
        Location::Url(_) => read_with(&fetch::Fetcher::new(fetch::FetchOptions::default())?, source),
        _ => read_with_local(source),
    }
}

/// As [`read`], fetching URLs with `fetcher`; a URL that serves an HTML page is searched for
/// its feed link, else the site's sitemap; a sitemap (or sitemap index) gives its pages of one
/// URL shape ([`crate::sitemap::sample`]).
///
/// # Errors
/// As [`read`]; [`Error::Feed`] also when an HTML page names no feed.
pub fn read_with(fetcher: &fetch::Fetcher, source: &str) -> Result<Sample> {
    let Location::Url(url) = Location::parse(source) else { return read_with_local(source) };
    let fetched = fetcher.get(&Location::Url(url.clone()))?;
    if crate::sitemap::looks_like(&fetched.bytes) {
        // A sitemap (or index) named: its own files, the site's robots.txt honoured.
        let robots = crate::sitemap::robots_of(fetcher, &url);
        let read = crate::sitemap::read_all(fetcher, vec![url.clone()], &robots);
        return from_sitemap(&url, read, &robots).ok_or_else(|| Error::Feed { what: source.to_string(), message: "the sitemap lists no page".into() });
    }
    match feed_of(fetcher, source, &fetched) {
        Err(Error::Feed { message, .. }) if fetch::sniff_html(&fetched.bytes[..fetched.bytes.len().min(4096)]) => {
            // A page that links no feed: the site's sitemaps.
            let robots = crate::sitemap::robots_of(fetcher, &url);
            let read = crate::sitemap::read_all(fetcher, crate::sitemap::of_site(&url, &robots), &robots);
            from_sitemap(&url, read, &robots).ok_or_else(|| Error::Feed { what: source.to_string(), message: format!("{message}; and its site has no sitemap") })
        }
        other => other,
    }
}

/// As [`read_with`], a feed only: the bytes at `source` as a feed, else the feed its HTML page
/// links to (no sitemap).
///
/// # Errors
/// As [`read`]; [`Error::Feed`] also when an HTML page names no feed.
pub fn read_feed_with(fetcher: &fetch::Fetcher, source: &str) -> Result<Sample> {
    let Location::Url(url) = Location::parse(source) else { return read_with_local(source) };
    let fetched = fetcher.get(&Location::Url(url))?;
    feed_of(fetcher, source, &fetched)
}

fn feed_of(fetcher: &fetch::Fetcher, source: &str, fetched: &fetch::Fetched) -> Result<Sample> {
    match parse(&fetched.bytes, &fetched.location) {
        Ok(sample) => Ok(sample),
        Err(not_feed) => {
            let looks_html = fetch::sniff_html(&fetched.bytes[..fetched.bytes.len().min(4096)]);
            let Some(feed_url) = discover(fetched) else {
                if looks_html {
                    return Err(Error::Feed {
                        what: source.to_string(),
                        message: "it is an HTML page that links no feed (no <link rel=alternate type=application/rss+xml>): \
                                  name the site's feed, or a folder of its pages"
                            .into(),
                    });
                }
                return Err(not_feed);
            };
            let feed = fetcher.get(&Location::Url(feed_url))?;
            let mut sample = parse(&feed.bytes, &feed.location)?;
            sample.found_at = Some(feed.location.to_string());
            Ok(sample)
        }
    }
}

/// The sample sitemaps give: the pages of the first sitemap read that lists any, those of its
/// most common URL shape, the most recent first ([`crate::sitemap::sample`]); `None` when no
/// sitemap lists a page.
fn from_sitemap(site_url: &url::Url, read: Vec<(url::Url, Vec<crate::sitemap::Entry>)>, robots: &crate::sitemap::Robots) -> Option<Sample> {
    let (at, entries) = read
        .into_iter()
        .map(|(at, e)| (at, crate::sitemap::sample(e, crate::sitemap::SAMPLE_PAGES, robots)))
        .find(|(_, e)| !e.is_empty())?;
    let home = site_url.join("/").ok().map(String::from);
    let items = entries
        .into_iter()
        .map(|e| Item {
            id: e.url.to_string(),
            link: Some(e.url.to_string()),
            page: Location::Url(e.url),
            title: String::new(),
            description: String::new(),
            home: home.clone(),
        })
        .collect();
    let site = site_url.host_str().unwrap_or("site").to_string();
    Some(Sample { site, items, home, found_at: Some(at.to_string()), ..Sample::default() })
}

/// The feed an HTML page links to (`<link rel="alternate" type="…rss+xml|atom+xml|feed+json">`).
pub fn discover(page: &fetch::Fetched) -> Option<url::Url> {
    let Location::Url(base) = &page.location else { return None };
    let html = scraper::Html::parse_document(&page.text());
    let links = scraper::Selector::parse("link[href]").ok()?;
    html.select(&links).find_map(|l| {
        let e = l.value();
        let rel = e.attr("rel")?.to_ascii_lowercase();
        let ty = e.attr("type")?.to_ascii_lowercase();
        let is_feed = ["application/rss+xml", "application/atom+xml", "application/feed+json", "application/json"]
            .iter()
            .any(|t| ty.trim() == *t);
        if !rel.split_whitespace().any(|r| r == "alternate") || !is_feed {
            return None;
        }
        let u = base.join(e.attr("href")?.trim()).ok()?;
        matches!(u.scheme(), "http" | "https").then_some(u)
    })
}

fn read_with_local(source: &str) -> Result<Sample> {
    match Location::parse(source) {
        Location::Url(_) => Err(Error::Invalid(format!("{source} is a URL"))),
        Location::File(path) if path.is_dir() => read_dir(&path),
        Location::File(path) => {
            let bytes = std::fs::read(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
            parse(&bytes, &Location::File(path))
        }
    }
}

/// Parse feed bytes found at `at` into a sample (see the module docs for link rules).
///
/// # Errors
/// [`Error::Feed`] when the bytes are not a feed.
pub fn parse(bytes: &[u8], at: &Location) -> Result<Sample> {
    let feed = feed_rs::parser::parse(bytes)
        .map_err(|e| Error::Feed { what: at.to_string(), message: e.to_string() })?;
    let web = |u: &str| url::Url::parse(u).ok().filter(|u| matches!(u.scheme(), "http" | "https")).map(String::from);
    let home = feed
        .links
        .iter()
        .filter(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
        .find_map(|l| web(&l.href))
        .or_else(|| match at {
            Location::Url(u) => web(u.as_str()),
            Location::File(_) => None,
        });
    let mut sample = Sample {
        site: feed.title.as_ref().map(|t| plain(&t.content)).filter(|t| !t.is_empty()).unwrap_or_else(|| site_name(at)),
        home,
        ..Sample::default()
    };
    for entry in feed.entries {
        let link = entry
            .links
            .iter()
            .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
            .or(entry.links.first())
            .map(|l| l.href.trim().to_string());
        let id = if entry.id.trim().is_empty() { link.clone().unwrap_or_default() } else { entry.id.trim().to_string() };
        let title = entry.title.as_ref().map(|t| plain(&t.content)).unwrap_or_default();
        let description = entry
            .summary
            .as_ref()
            .map(|t| plain(&t.content))
            .or_else(|| entry.content.as_ref().and_then(|c| c.body.as_deref()).map(plain))
            .unwrap_or_default();
        match page_of(&id, link.as_deref(), at) {
            Ok(page) => sample.items.push(Item { id, page, title, description, link, home: sample.home.clone() }),
            Err(why) => sample.skipped.push(Skipped { what: link.unwrap_or(id), why }),
        }
    }
    Ok(sample)
}

/// Where the page of an item lives, by the rules in the module docs.
fn page_of(id: &str, link: Option<&str>, feed_at: &Location) -> std::result::Result<Location, String> {
    match feed_at {
        Location::File(feed_path) => {
            let dir = feed_path.parent().unwrap_or(Path::new("."));
            if is_plain_name(id) {
                let local = dir.join(format!("{id}.html"));
                if local.is_file() {
                    return Ok(Location::File(local));
                }
            }
            let link = link.ok_or("no link and no local page named by its guid")?;
            match url::Url::parse(link) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(Location::Url(u)),
                Ok(u) => Err(format!("link scheme {:?} is not http or https", u.scheme())),
                Err(_) => {
                    let rel = Path::new(link);
                    if rel.is_absolute() || rel.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
                        return Err(format!("relative link {link:?} leaves the feed's folder"));
                    }
                    Ok(Location::File(dir.join(rel)))
                }
            }
        }
        Location::Url(base) => {
            let link = link.ok_or("item has no link")?;
            let u = base.join(link).map_err(|e| format!("bad link {link:?}: {e}"))?;
            if matches!(u.scheme(), "http" | "https") {
                Ok(Location::Url(u))
            } else {
                Err(format!("link scheme {:?} is not http or https", u.scheme()))
            }
        }
    }
}

/// A name that is one plain path component (no separators, not `.`/`..`, no NUL).
fn is_plain_name(s: &str) -> bool {
    !s.is_empty() && s.len() < 200 && s != "." && s != ".." && !s.contains(['/', '\\', '\0', ':'])
}

/// The pages of a folder, in name order: its `.html` and `.htm` files (any case, gzipped as
/// `.html.gz` too), and files without an extension whose start reads as HTML (a mirrored
/// site's `about`, `2024/story`).
///
/// # Errors
/// [`Error::Io`] when the folder cannot be listed.
pub fn list_pages(dir: &Path) -> Result<Vec<PathBuf>> {
    let io = |source| Error::Io { path: dir.to_path_buf(), source };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok())
        .filter(|e| match e.file_type() {
            // The listing's own type of an entry, where it says (no `stat` of each file); a
            // link, or an entry of unknown type, is looked at through the path.
            Ok(t) if t.is_file() => is_page_named(&e.path()),
            Ok(t) if t.is_dir() => false,
            _ => is_page_file(&e.path()),
        })
        .map(|e| e.path())
        .collect();
    files.sort();
    Ok(files)
}

/// Is `p` a page file by its name (`.html`, `.htm`, `.html.gz`, `.htm.gz`), or, without an
/// extension, by its first bytes (a doctype or an `<html`, `<head>` or `<body>` tag)?
pub fn is_page_file(p: &Path) -> bool {
    p.is_file() && is_page_named(p)
}

/// [`is_page_file`] for a path known to be a file.
fn is_page_named(p: &Path) -> bool {
    let name = p.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    if name.ends_with(".html") || name.ends_with(".htm") {
        return true;
    }
    if name.contains('.') {
        return false;
    }
    let mut head = [0u8; 1024];
    let n = std::fs::File::open(p).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
    fetch::sniff_html(&head[..n])
}

fn read_dir(dir: &Path) -> Result<Sample> {
    Ok(folder_sample(dir, &list_pages(dir)?))
}

/// The sample of a folder whose page files (from [`list_pages`]) are `files`: an item per
/// file, with what its `feed.xml` says of it.
pub(crate) fn folder_sample(dir: &Path, files: &[PathBuf]) -> Sample {
    let feed_path = dir.join("feed.xml");
    let feed = if feed_path.is_file() { read(&feed_path.to_string_lossy()).ok() } else { None };
    let mut sample = Sample {
        site: feed.as_ref().map(|f| f.site.clone()).unwrap_or_else(|| site_name(&Location::File(dir.to_path_buf()))),
        home: feed.as_ref().and_then(|f| f.home.clone()),
        ..Sample::default()
    };
    for path in files {
        let stem = crate::fetch::Location::File(path.clone()).stem();
        let name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let known = feed.as_ref().and_then(|f| {
            f.items.iter().find(|i| i.id == stem || i.link.as_deref().is_some_and(|l| l.ends_with(&name)))
        });
        sample.items.push(Item {
            id: stem,
            page: Location::File(path.clone()),
            title: known.map(|i| i.title.clone()).unwrap_or_default(),
            description: known.map(|i| i.description.clone()).unwrap_or_default(),
            link: known.and_then(|i| i.link.clone()),
            home: sample.home.clone(),
        });
    }
    sample
}

/// A site name from where its feed or pages live.
fn site_name(at: &Location) -> String {
    match at {
        Location::Url(u) => u.host_str().unwrap_or("site").to_string(),
        Location::File(p) => {
            let p = if p.is_dir() { p.as_path() } else { p.parent().unwrap_or(p) };
            std::fs::canonicalize(p)
                .ok()
                .and_then(|c| c.file_name().map(|s| s.to_string_lossy().into_owned()))
                .unwrap_or_else(|| "site".to_string())
        }
    }
}

/// Plain text of a feed field that may hold HTML markup or entities.
pub fn plain(s: &str) -> String {
    if !s.contains(['<', '&']) {
        return crate::clean::collapse_ws(s);
    }
    let frag = scraper::Html::parse_fragment(s);
    let text: String = frag.root_element().text().collect::<Vec<_>>().join(" ");
    crate::clean::collapse_ws(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_links_resolve_and_unsafe_ones_are_skipped() {
        let rss = br#"<rss version="2.0"><channel><title>T</title>
            <item><title>A &amp; B</title><link>/a.html</link><guid>a</guid><description>&lt;p&gt;Hi &lt;b&gt;there&lt;/b&gt;&lt;/p&gt;</description></item>
            <item><title>C</title><link>file:///etc/passwd</link><guid>c</guid></item>
            </channel></rss>"#;
        let base = Location::Url(url::Url::parse("http://127.0.0.1:9/feed.xml").unwrap());
        let s = parse(rss, &base).unwrap();
        assert_eq!(s.items.len(), 1);
        assert_eq!(s.items[0].page.to_string(), "http://127.0.0.1:9/a.html");
        assert_eq!(s.items[0].title, "A & B");
        assert_eq!(s.items[0].description, "Hi there");
        assert_eq!(s.skipped.len(), 1);
    }

    #[test]
    fn not_a_feed_is_an_error() {
        let at = Location::File("x.xml".into());
        assert!(matches!(parse(b"<html>hello</html>", &at), Err(Error::Feed { .. })));
    }

    #[test]
    fn a_folder_lists_its_page_files_links_to_them_included_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let page = b"<!doctype html><p>x</p>";
        std::fs::write(d.join("a.html"), page).unwrap();
        std::fs::write(d.join("noext"), page).unwrap();
        std::fs::write(d.join("notes.txt"), page).unwrap();
        std::fs::write(d.join("plain"), b"just text").unwrap();
        std::fs::create_dir(d.join("folder.html")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(d.join("a.html"), d.join("b.htm")).unwrap();
            std::os::unix::fs::symlink(d.join("folder.html"), d.join("c.html")).unwrap();
            std::os::unix::fs::symlink(d.join("gone.html"), d.join("dangling.html")).unwrap();
        }
        let names: Vec<String> =
            list_pages(d).unwrap().iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        let want: &[&str] = if cfg!(unix) { &["a.html", "b.htm", "noext"] } else { &["a.html", "noext"] };
        assert_eq!(names, want);
        // The folder's sample has an item per page file, as listed.
        let sample = read(&d.to_string_lossy()).unwrap();
        assert_eq!(sample.items.len(), want.len());
    }
}
