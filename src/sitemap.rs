//! Sitemaps and `robots.txt`: the pages a site lists, as a source of sample pages, and the
//! paths it asks robots to leave alone.
//!
//! A sitemap ([sitemaps.org](https://www.sitemaps.org/protocol.html)) is a `<urlset>` of `<url>`
//! entries (`<loc>`, `<lastmod>`) or a `<sitemapindex>` of further sitemaps, plain or gzipped.
//! `robots.txt` names sitemaps (`Sitemap:` lines) and rules (`Allow:`/`Disallow:` per
//! `User-agent:` group). The parser here is small and reads what forest needs: the group for
//! `forest` if there is one, else the one for `*`; the longest matching rule wins, `Allow` on a
//! tie; `*` matches any run of characters and a final `$` the end of the path (RFC 9309).

use crate::{Error, Result};
use quick_xml::events::Event;
use url::Url;

/// Most URLs read from one sitemap (a sample needs a handful; a hostile sitemap may hold millions).
pub const MAX_URLS: usize = 50_000;

/// One page a sitemap lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The page's URL.
    pub url: Url,
    /// When it last changed, as written (`2024-06-12`, `2024-06-12T07:05:00Z`): ISO dates sort
    /// as text.
    pub lastmod: Option<String>,
}

/// What a sitemap file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sitemap {
    /// Pages.
    Urls(Vec<Entry>),
    /// Further sitemaps.
    Index(Vec<Url>),
}

/// Does `bytes` look like a sitemap (a `<urlset` or `<sitemapindex` near its start, or gzip)?
pub fn looks_like(bytes: &[u8]) -> bool {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return true;
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]).to_ascii_lowercase();
    head.contains("<urlset") || head.contains("<sitemapindex")
}

/// Read a sitemap (gunzipped first when it is gzip, within `max_bytes`).
///
/// # Errors
/// [`Error::Feed`] when it is not a sitemap; [`Error::TooLarge`] for a gzip bomb.
pub fn parse(bytes: &[u8], what: &str, max_bytes: u64) -> Result<Sitemap> {
    let owned;
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        owned = crate::fetch::gunzip_within(bytes.to_vec(), max_bytes, what)?;
        owned.as_slice()
    } else {
        bytes
    };
    let bad = |message: String| Error::Feed { what: what.to_string(), message };
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let mut buf = Vec::new();
    let (mut index, mut root_seen) = (false, false);
    let (mut urls, mut maps) = (Vec::new(), Vec::new());
    let (mut in_loc, mut in_lastmod) = (false, false);
    let (mut loc, mut lastmod) = (String::new(), None::<String>);
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| bad(format!("not XML: {e}")))?;
        match event {
            Event::Start(e) => match e.local_name().as_ref() {
                b"urlset" => root_seen = true,
                b"sitemapindex" => (root_seen, index) = (true, true),
                b"url" | b"sitemap" => (loc, lastmod) = (String::new(), None),
                b"loc" => in_loc = true,
                b"lastmod" => in_lastmod = true,
                _ => {}
            },
            Event::Text(t) => {
                let text = t.decode().map(|c| c.into_owned()).unwrap_or_else(|_| String::from_utf8_lossy(&t).into_owned());
                if in_loc {
                    loc.push_str(text.trim());
                } else if in_lastmod {
                    lastmod = Some(text.trim().to_string());
                }
            }
            // `&amp;` and the like arrive as references of their own.
            Event::GeneralRef(r) if in_loc => loc.extend(xml_ref(&r)),
            Event::CData(t) if in_loc => loc.push_str(String::from_utf8_lossy(&t).trim()),
            Event::End(e) => match e.local_name().as_ref() {
                b"loc" => in_loc = false,
                b"lastmod" => in_lastmod = false,
                b"url" | b"sitemap" => {
                    if let Ok(u) = Url::parse(&loc) {
                        if matches!(u.scheme(), "http" | "https") && urls.len() + maps.len() < MAX_URLS {
                            if index {
                                maps.push(u);
                            } else {
                                urls.push(Entry { url: u, lastmod: lastmod.take() });
                            }
                        }
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if !root_seen {
        return Err(bad("no <urlset> or <sitemapindex>: not a sitemap".into()));
    }
    Ok(if index { Sitemap::Index(maps) } else { Sitemap::Urls(urls) })
}

/// One `User-agent` group of a `robots.txt`: its agents, and its rules.
type Group = (Vec<String>, Vec<Rule>);

/// One `Allow` or `Disallow` rule, ready to match: its pattern cut at each `*`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    allow: bool,
    /// The pattern's length as written: the longest matching rule wins.
    len: usize,
    /// The literal runs between `*`s (the first matched at the path's start).
    parts: Vec<String>,
    /// A final `$`: the last run must end the path.
    anchored: bool,
}

impl Rule {
    fn new(allow: bool, pattern: &str) -> Rule {
        let (body, anchored) = match pattern.strip_suffix('$') {
            Some(p) => (p, true),
            None => (pattern, false),
        };
        Rule { allow, len: pattern.len(), parts: body.split('*').map(str::to_string).collect(), anchored }
    }

    /// Does the rule match `path`? The first run at its start, each later run at its first
    /// place after the one before (for patterns of `*` alone the leftmost place is always the
    /// right one), and with `$` the last run at its end: a substring search per run, so the
    /// time is linear in the path and the pattern, whatever the `*`s.
    fn matches(&self, path: &str) -> bool {
        let path = path.as_bytes();
        let Some((first, rest)) = self.parts.split_first() else { return true };
        if !path.starts_with(first.as_bytes()) {
            return false;
        }
        let mut at = first.len();
        let Some((last, middle)) = rest.split_last() else {
            return !self.anchored || at == path.len();
        };
        for part in middle {
            match memchr::memmem::find(&path[at..], part.as_bytes()) {
                Some(i) => at += i + part.len(),
                None => return false,
            }
        }
        if self.anchored {
            path.len() >= at + last.len() && path.ends_with(last.as_bytes())
        } else {
            memchr::memmem::find(&path[at..], last.as_bytes()).is_some()
        }
    }
}

/// What a site's `robots.txt` says to forest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Robots {
    /// The rules of the group that applies to forest.
    rules: Vec<Rule>,
    /// The sitemaps it names.
    pub sitemaps: Vec<Url>,
}

impl Robots {
    /// Read a `robots.txt` found at `base` (for relative `Sitemap:` URLs).
    pub fn parse(text: &str, base: &Url) -> Robots {
        // Groups: (agents, rules). A group starts at a User-agent line that follows a rule.
        let mut groups: Vec<Group> = Vec::new();
        let mut sitemaps = Vec::new();
        let mut last_was_agent = false;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            let Some((key, value)) = line.split_once(':') else { continue };
            let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
            match key.as_str() {
                "user-agent" => {
                    if !last_was_agent || groups.is_empty() {
                        groups.push((Vec::new(), Vec::new()));
                    }
                    if let Some(g) = groups.last_mut() {
                        g.0.push(value.to_ascii_lowercase());
                    }
                    last_was_agent = true;
                }
                "allow" | "disallow" => {
                    last_was_agent = false;
                    if let Some(g) = groups.last_mut() {
                        if !value.is_empty() {
                            g.1.push(Rule::new(key == "allow", value));
                        }
                    }
                }
                "sitemap" => {
                    if let Ok(u) = base.join(value) {
                        sitemaps.push(u);
                    }
                }
                _ => {}
            }
        }
        let ours = groups.iter().position(|g| g.0.iter().any(|a| a.contains("forest")));
        let any = groups.iter().position(|g| g.0.iter().any(|a| a == "*"));
        let rules = ours.or(any).map(|i| groups.swap_remove(i).1).unwrap_or_default();
        Robots { rules, sitemaps }
    }

    /// A `robots.txt` that allows nothing (`Disallow: /`): what an unreachable one means
    /// (RFC 9309, 2.3.1.4).
    pub fn disallow_all() -> Robots {
        Robots { rules: vec![Rule::new(false, "/")], sitemaps: Vec::new() }
    }

    /// May forest fetch this URL's path (with its query)?
    pub fn allows(&self, url: &Url) -> bool {
        let mut path = url.path().to_string();
        if let Some(q) = url.query() {
            path.push('?');
            path.push_str(q);
        }
        let mut best: Option<(usize, bool)> = None;
        for rule in &self.rules {
            if best.is_some_and(|(l, a)| rule.len < l || (rule.len == l && (a || !rule.allow))) {
                continue; // it could not win
            }
            if rule.matches(&path) {
                best = Some((rule.len, rule.allow));
            }
        }
        best.is_none_or(|(_, allow)| allow)
    }
}

/// Sitemap files read for one site, at most (a `robots.txt` may name thousands), and sitemaps
/// read from one sitemap index.
pub const MAX_SITEMAPS_READ: usize = 8;
const MAX_CHILD_SITEMAPS: usize = 3;

/// The `robots.txt` of `url`'s site, as RFC 9309 reads it: its first
/// [`crate::fetch::ROBOTS_BYTES`] (a line cut there is left out); everything allowed when the
/// server says there is none (a 4xx status); nothing allowed when it fails (5xx) or cannot be
/// reached.
pub fn robots_of(fetcher: &crate::fetch::Fetcher, url: &Url) -> Robots {
    use crate::fetch::{RobotsTxt, ROBOTS_BYTES};
    let Ok(at) = url.join("/robots.txt") else { return Robots::disallow_all() };
    match fetcher.get_robots(&at) {
        RobotsTxt::Found(f) => {
            let mut text = f.text();
            if f.bytes.len() as u64 >= ROBOTS_BYTES && !text.ends_with('\n') {
                text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
            }
            Robots::parse(&text, &at)
        }
        RobotsTxt::Unavailable => Robots::default(),
        RobotsTxt::Unreachable(_) => Robots::disallow_all(),
    }
}

/// The pages the sitemaps at `first` list, per sitemap file read: a sitemap index is followed
/// to its first few sitemaps; at most [`MAX_SITEMAPS_READ`] files are fetched, and only those
/// `robots` allows. A file that is not a sitemap or cannot be fetched is passed over. The
/// pages are not checked against `robots` here: a caller checks those it takes (a sitemap may
/// list thousands, and a `robots.txt` hold thousands of rules).
pub fn read_all(fetcher: &crate::fetch::Fetcher, first: Vec<Url>, robots: &Robots) -> Vec<(Url, Vec<Entry>)> {
    let max = fetcher.options().max_bytes;
    let mut queue: std::collections::VecDeque<Url> = first.into_iter().take(MAX_SITEMAPS_READ).collect();
    let (mut out, mut read) = (Vec::new(), 0usize);
    while let Some(at) = queue.pop_front() {
        read += 1;
        if read > MAX_SITEMAPS_READ {
            break;
        }
        if !robots.allows(&at) {
            continue;
        }
        let Ok(f) = fetcher.get(&crate::fetch::Location::Url(at.clone())) else { continue };
        match parse(&f.bytes, at.as_str(), max) {
            Ok(Sitemap::Urls(entries)) => out.push((at, entries)),
            Ok(Sitemap::Index(maps)) => queue.extend(maps.into_iter().take(MAX_CHILD_SITEMAPS)),
            Err(_) => {}
        }
    }
    out
}

/// The sitemaps of `url`'s site: those its `robots.txt` names, else `/sitemap.xml`.
pub fn of_site(url: &Url, robots: &Robots) -> Vec<Url> {
    if robots.sitemaps.is_empty() {
        url.join("/sitemap.xml").ok().into_iter().collect()
    } else {
        robots.sitemaps.clone()
    }
}

/// The character an XML entity or character reference stands for: the five predefined
/// entities and `#N`/`#xN`; `None` for any other (a feed or sitemap declares none forest reads).
pub fn xml_ref(name: &[u8]) -> Option<char> {
    let name = std::str::from_utf8(name).ok()?;
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        n => n
            .strip_prefix("#x")
            .or_else(|| n.strip_prefix("#X"))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .or_else(|| n.strip_prefix('#').and_then(|d| d.parse().ok()))
            .and_then(char::from_u32),
    }
}

/// Pages a sitemap gives `induce` at most.
pub const SAMPLE_PAGES: usize = 20;

/// Sample pages of one template from a sitemap's entries: those of the most common URL shape
/// ([`shape`]; ties: the shape listed first) that `robots` allows, the most recently modified
/// first, at most `n` (only the pages taken are checked against `robots`).
pub fn sample(entries: Vec<Entry>, n: usize, robots: &Robots) -> Vec<Entry> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for e in &entries {
        let s = shape(&e.url);
        match counts.iter_mut().find(|(k, _)| *k == s) {
            Some((_, c)) => *c += 1,
            None => counts.push((s, 1)),
        }
    }
    let best = counts.iter().enumerate().max_by(|a, b| a.1 .1.cmp(&b.1 .1).then(b.0.cmp(&a.0))).map(|(_, (k, _))| k.clone());
    let Some(best) = best else { return Vec::new() };
    let mut chosen: Vec<Entry> = entries.into_iter().filter(|e| shape(&e.url) == best).collect();
    chosen.sort_by(|a, b| b.lastmod.cmp(&a.lastmod));
    chosen.into_iter().filter(|e| robots.allows(&e.url)).take(n).collect()
}

/// The shape of a URL's path: its segments, each with runs of digits as `0`, the last one's
/// name part as `*` when it has an extension or a word (`/2024/06/budget.html` →
/// `0/0/*.html`, `/products/blue-chair` → `products/*`). Pages of one template share a shape.
/// A lone segment is a name of many pages too when it has an extension or words joined by
/// hyphens, as posts at the root are (`/my-post/` → `*`, `/climate-1.html` → `*.html`), and
/// stays itself when it is one word (`/about`, `/contact`).
pub fn shape(url: &Url) -> String {
    let segments: Vec<&str> = url.path().split('/').filter(|s| !s.is_empty()).collect();
    let mut out = Vec::with_capacity(segments.len());
    for (k, seg) in segments.iter().enumerate() {
        let mut norm = String::new();
        let mut digit = false;
        for c in seg.chars() {
            if c.is_ascii_digit() {
                if !digit {
                    norm.push('0');
                }
                digit = true;
            } else {
                norm.push(c);
                digit = false;
            }
        }
        if k + 1 == segments.len() {
            norm = match seg.rsplit_once('.') {
                Some((_, ext)) if !ext.is_empty() && ext.len() <= 5 => format!("*.{ext}"),
                _ if norm.chars().all(|c| c == '0') => norm,
                _ if k > 0 || seg.split('-').filter(|w| !w.is_empty()).count() > 1 => "*".to_string(),
                _ => norm,
            };
        }
        out.push(norm);
    }
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitemaps_and_indexes_read() {
        let urlset = br#"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <url><loc>https://a.test/2024/06/one.html</loc><lastmod>2024-06-12</lastmod></url>
            <url><loc> https://a.test/2024/07/two.html </loc></url><url><loc>ftp://x/</loc></url></urlset>"#;
        let Sitemap::Urls(urls) = parse(urlset, "s", 1 << 20).unwrap() else { panic!("urls") };
        assert_eq!(urls.len(), 2);
        assert_eq!(urls[0].lastmod.as_deref(), Some("2024-06-12"));
        assert_eq!(urls[1].url.as_str(), "https://a.test/2024/07/two.html");
        let index = br#"<sitemapindex><sitemap><loc>https://a.test/s1.xml.gz</loc></sitemap></sitemapindex>"#;
        assert_eq!(parse(index, "s", 1 << 20).unwrap(), Sitemap::Index(vec![Url::parse("https://a.test/s1.xml.gz").unwrap()]));
        assert!(parse(b"<rss></rss>", "s", 1 << 20).is_err());
        assert!(parse(b"not xml <<<", "s", 1 << 20).is_err());
        assert!(looks_like(urlset) && !looks_like(b"<html>"));
    }

    #[test]
    fn robots_rules_and_sitemaps() {
        let base = Url::parse("https://a.test/robots.txt").unwrap();
        let r = Robots::parse(
            "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nDisallow: /*.pdf$\nAllow: /private/open\n# x\nSitemap: /sitemap.xml\n",
            &base,
        );
        let ok = |p: &str| r.allows(&base.join(p).unwrap());
        assert!(ok("/2024/a.html") && ok("/private/open/x") && ok("/a.pdf?x=1"));
        assert!(!ok("/private/x") && !ok("/docs/a.pdf"));
        assert_eq!(r.sitemaps, [Url::parse("https://a.test/sitemap.xml").unwrap()]);
        let ours = Robots::parse("User-agent: *\nAllow: /\nUser-agent: forest\nDisallow: /\n", &base);
        assert!(!ours.allows(&base));
        assert!(Robots::parse("", &base).allows(&base));
    }

    /// The plain definition of a robots.txt pattern match, by recursion (for short strings).
    fn reference(p: &[u8], s: &[u8], anchored: bool) -> bool {
        match p.split_first() {
            None => !anchored || s.is_empty(),
            Some((b'*', rest)) => (0..=s.len()).any(|k| reference(rest, &s[k..], anchored)),
            Some((c, rest)) => s.first() == Some(c) && reference(rest, &s[1..], anchored),
        }
    }

    #[test]
    fn patterns_match_as_the_plain_definition_says() {
        let patterns = ["/", "/a", "/a*", "*a", "/a*b", "/a*b$", "*.pdf$", "/*/x/*y", "**a**b*", "/a$", "$", "*", "/ab*ab*b$", "/a*a*a"];
        let paths = ["/", "/a", "/ab", "/aab", "/b/a", "/x.pdf", "/x.pdfx", "/q/x/zy", "/abab", "/ababb", "/aaa", "/a/a", ""];
        for p in patterns {
            let rule = Rule::new(false, p);
            let (body, anchored) = p.strip_suffix('$').map_or((p, false), |b| (b, true));
            for s in paths {
                assert_eq!(rule.matches(s), reference(body.as_bytes(), s.as_bytes(), anchored), "{p:?} on {s:?}");
            }
        }
    }

    #[test]
    fn a_hostile_pattern_takes_linear_time() {
        // Backtracking matchers take quadratic time or worse on these.
        let pattern = format!("{}b", "*a".repeat(20_000));
        let path = format!("/{}", "a".repeat(50_000));
        let started = std::time::Instant::now();
        let r = Robots::parse(&format!("User-agent: *\nDisallow: {pattern}\n"), &Url::parse("https://a.test/").unwrap());
        assert!(r.allows(&Url::parse(&format!("https://a.test{path}")).unwrap()));
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    }

    #[test]
    fn an_unreachable_robots_txt_allows_nothing() {
        let u = Url::parse("https://a.test/x").unwrap();
        assert!(!Robots::disallow_all().allows(&u));
        assert!(Robots::default().allows(&u));
    }

    #[test]
    fn a_sample_is_the_most_common_shape_newest_first() {
        let e = |u: &str, m: Option<&str>| Entry { url: Url::parse(u).unwrap(), lastmod: m.map(String::from) };
        let entries = vec![
            e("https://a.test/about", None),
            e("https://a.test/2024/01/a.html", Some("2024-01-02")),
            e("https://a.test/2024/03/b.html", Some("2024-03-02")),
            e("https://a.test/tag/x", None),
            e("https://a.test/2023/12/c.html", None),
        ];
        let s: Vec<String> = sample(entries, 2, &Robots::default()).into_iter().map(|e| e.url.path().to_string()).collect();
        assert_eq!(s, ["/2024/03/b.html", "/2024/01/a.html"]);
        assert!(sample(Vec::new(), 3, &Robots::default()).is_empty());
    }

    #[test]
    fn shapes_of_one_template_agree() {
        let s = |u: &str| shape(&Url::parse(u).unwrap());
        assert_eq!(s("https://a.test/2024/06/budget.html"), s("https://a.test/2023/11/flood-warning.html"));
        assert_eq!(s("https://a.test/products/blue-chair"), "products/*");
        assert_ne!(s("https://a.test/products/blue-chair"), s("https://a.test/collections/chairs/blue"));
        assert_eq!(s("https://a.test/"), "");
        // Posts at the root of a site: a slug or a file name; a one-word page stays itself.
        assert_eq!(s("https://a.test/my-post/"), s("https://a.test/another-longer-post"));
        assert_eq!(s("https://a.test/climate-0.html"), s("https://a.test/flood-1.html"));
        assert_ne!(s("https://a.test/about"), s("https://a.test/my-post/"));
        assert_ne!(s("https://a.test/about"), s("https://a.test/contact"));
    }
}
