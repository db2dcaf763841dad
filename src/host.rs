//! Host: the one answer to "which site is this?", for a URL, a page, a sample of pages and a
//! wrapper. The answer is a *host key* ([`key`]): lower-case, IDNA, no port, no trailing dot,
//! no leading `www.`, checked to be a plain host name (so it can name a file in the store).
//!
//! A page's host comes from, in this order: the http(s) URL it was read from; its feed item's
//! link; the home page of the feed that listed it; the canonical URL it declares
//! ([`crate::metadata::declared_url`]). A sample of pages takes the most common answer of the
//! first of those sources that any page has.

use crate::clean::Doc;
use crate::{Error, Page, Result};

/// The host key of a host name or URL: lower-case, IDNA, no port, no trailing dot, no
/// leading `www.`.
///
/// # Errors
/// [`Error::Invalid`] when it is not a host name (empty, a path, an IP literal with `:`, …).
///
/// # Example
/// ```
/// assert_eq!(forest::host::key("WWW.Example.org:8080").unwrap(), "example.org");
/// assert_eq!(forest::host::key("https://bücher.example/x?y").unwrap(), "xn--bcher-kva.example");
/// assert!(forest::host::key("../../etc/passwd").is_err());
/// ```
pub fn key(host: &str) -> Result<String> {
    let bad = || Error::Invalid(format!("{host:?} is not a host name"));
    let trimmed = host.trim();
    let url = if trimmed.contains("://") {
        url::Url::parse(trimmed).map_err(|_| bad())?
    } else {
        if trimmed.contains(['/', '\\', '?', '#', '@']) {
            return Err(bad());
        }
        url::Url::parse(&format!("http://{trimmed}/")).map_err(|_| bad())?
    };
    of_parsed(&url).ok_or_else(bad)
}

/// The host key of a parsed URL's host (the URL parser has already made it lower-case IDNA);
/// `None` when it is not a plain host name.
fn of_parsed(url: &url::Url) -> Option<String> {
    let h = url.host_str()?.trim_end_matches('.').to_ascii_lowercase();
    let h = h.strip_prefix("www.").unwrap_or(&h).to_string();
    let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.' || c == '_';
    if h.is_empty() || h.len() > 253 || !h.chars().all(plain) || h.starts_with('.') || h.contains("..") {
        return None;
    }
    Some(h)
}

/// The host key of an http(s) URL; `None` for anything else. The URL is parsed once: the
/// host it gives is already in the form [`key`] would parse it into.
pub fn of_url(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok().filter(|u| matches!(u.scheme(), "http" | "https"))?;
    of_parsed(&u)
}

/// The host key of the canonical URL a page declares.
pub fn declared(doc: &Doc) -> Option<String> {
    crate::metadata::declared_url(doc).as_deref().and_then(of_url)
}

/// The sources of a page's host, in order of trust.
pub(crate) fn sources(page: &Page) -> [Option<String>; 4] {
    let item = page.item.as_ref();
    [
        of_url(&page.location),
        item.and_then(|i| i.link.as_deref()).and_then(of_url),
        item.and_then(|i| i.home.as_deref()).and_then(of_url),
        declared(&page.doc),
    ]
}

/// The host key of a page (see the module's order).
pub fn of_page(page: &Page) -> Option<String> {
    sources(page).into_iter().flatten().next()
}

/// The host key of a sample of pages: the most common answer of the first source (in the
/// module's order) that any page has.
pub fn of_pages<'a, P: std::borrow::Borrow<Page> + 'a>(pages: impl IntoIterator<Item = &'a P>) -> Option<String> {
    of_sources(pages.into_iter().map(|p| sources(p.borrow())).collect())
}

/// The host key of a sample of pages from each page's [`sources`].
pub(crate) fn of_sources(all: Vec<[Option<String>; 4]>) -> Option<String> {
    (0..4).find_map(|k| most_common(all.iter().filter_map(|s| s[k].clone())))
}

/// The most frequent item (the first one seen on ties).
pub fn most_common(items: impl Iterator<Item = String>) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for it in items {
        match counts.iter_mut().find(|(h, _)| *h == it) {
            Some((_, n)) => *n += 1,
            None => counts.push((it, 1)),
        }
    }
    let best = counts.iter().map(|(_, n)| *n).max()?;
    counts.into_iter().find(|(_, n)| *n == best).map(|(h, _)| h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_plain_host_names() {
        for bad in ["", " ", "a/b", "..", "../x", "a..b", "[::1]", "C:\\x", "x\0y", "a b", "user@host"] {
            assert!(key(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(key("Example.ORG.").unwrap(), "example.org");
        assert_eq!(key("http://www.a.example:81/p").unwrap(), "a.example");
        assert_eq!(key("127.0.0.1").unwrap(), "127.0.0.1");
        assert_eq!(of_url("ftp://a.example/x"), None);
        assert_eq!(of_url("https://WWW.A.example/x").as_deref(), Some("a.example"));
    }

    #[test]
    fn a_url_s_host_key_is_the_key_of_its_host() {
        let urls = [
            "https://WWW.A.example:8443/x?q#f",
            "http://bücher.example./p",
            "http://xn--bcher-kva.example/",
            "http://127.0.0.1:8080/",
            "http://[::1]/x",
            "https://www./",
            "http://a..b.example/",
            "http://_dmarc.a.example/",
            "http://%41.example/",
        ];
        for u in urls {
            let host = url::Url::parse(u).ok().and_then(|p| p.host_str().map(str::to_string));
            assert_eq!(of_url(u), host.and_then(|h| key(&h).ok()), "{u}");
        }
    }

    #[test]
    fn a_page_host_comes_from_its_url_then_feed_then_canonical_link() {
        let html = "<html><head><link rel=canonical href='https://declared.example/a'></head><body><p>x</p></body></html>";
        let mut page = Page::from_html("p", html).unwrap();
        assert_eq!(of_page(&page).as_deref(), Some("declared.example"));
        page.item = Some(crate::feed::Item {
            id: "p".into(),
            page: crate::fetch::Location::File("p.html".into()),
            title: String::new(),
            description: String::new(),
            link: None,
            home: Some("https://home.example/".into()),
        });
        assert_eq!(of_page(&page).as_deref(), Some("home.example"));
        page.item.as_mut().unwrap().link = Some("https://link.example/a".into());
        assert_eq!(of_page(&page).as_deref(), Some("link.example"));
        page.location = "https://www.fetched.example/a".into();
        assert_eq!(of_page(&page).as_deref(), Some("fetched.example"));
        assert_eq!(of_pages([&page, &page]).as_deref(), Some("fetched.example"));
    }
}
