//! The site's name: what a page declares (`og:site_name`, the publisher), else what its
//! `<title>` gives beside the headline, each read against the page's host.
//!
//! A declared name often carries a tagline or a section (`Photos - ABC News`, `Seeker -
//! Science. World. Exploration.`), and a `<title>`'s two sides are told apart by the headline,
//! which is wrong when the headline found is the site's own name. The part that names the
//! host ([`names_host`]: `ABC News` for `abcnews.go.com`) settles both.

/// Separators between a title's or a name's parts.
const SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " :: ", " · "];

/// The site's name as declared, read against the page's `host` (when known): a URL given as
/// the name becomes its host; a name of several parts is cut to the one part that names the
/// host, when exactly one does.
///
/// # Example
/// ```
/// use forest::metadata::site_name;
/// assert_eq!(site_name("Photos - ABC News", Some("abcnews.go.com")), "ABC News");
/// assert_eq!(site_name("http://www.example.org/", None), "example.org");
/// assert_eq!(site_name("The Gazette", Some("gazette.example")), "The Gazette");
/// ```
pub fn site_name(declared: &str, host: Option<&str>) -> String {
    let declared = crate::clean::collapse_ws(declared);
    if let Ok(u) = url::Url::parse(&declared) {
        if let Some(h) = u.host_str() {
            return h.trim_start_matches("www.").to_string();
        }
    }
    if let Some(h) = declared.strip_prefix("www.").filter(|h| !h.contains(' ')) {
        return h.trim_end_matches('/').to_string();
    }
    let Some(host) = host else { return declared };
    SEPARATORS
        .iter()
        .find_map(|sep| {
            let parts: Vec<&str> = declared.split(sep).map(str::trim).filter(|p| !p.is_empty()).collect();
            let naming: Vec<&&str> = parts.iter().filter(|p| names_host(p, host)).collect();
            (parts.len() > 1 && naming.len() == 1).then(|| naming[0].to_string())
        })
        .unwrap_or(declared)
}

/// The site's name a `<title>` gives beside the headline (`Bridge closes | The Gazette`,
/// `The Gazette - Bridge closes`): its first or last part, separated by a ` | `, ` - `, ` – `,
/// ` — `, ` :: ` or ` · `. The part that names the page's `host` when exactly one of the two
/// does; else the side that is not the `headline`, when the other is: the whole of that side
/// when a part of it names the host, else its outer part. At most 6 words, then read as a
/// declared name is ([`site_name`]).
///
/// # Example
/// ```
/// use forest::metadata::site_from_title;
/// assert_eq!(site_from_title("Bridge closes | The Gazette", "Bridge closes", None).as_deref(), Some("The Gazette"));
/// // The headline found was the blog's name: the host tells the sides apart.
/// assert_eq!(site_from_title("Summer | Legal Nomads", "Legal Nomads", Some("legalnomads.com")).as_deref(), Some("Legal Nomads"));
/// // The side of the site's name holds a section too: the part that names the host is kept.
/// let title = "Lawmakers Defend Earmarks - Politics | Political News - FOXNews.com";
/// assert_eq!(site_from_title(title, "Lawmakers Defend Earmarks", Some("www.foxnews.com")).as_deref(), Some("FOXNews.com"));
/// // The side beside the headline ends with a section: its part that names the host is kept.
/// let title = "Whalers win - NHL.com - News";
/// assert_eq!(site_from_title(title, "Whalers win", Some("www.nhl.com")).as_deref(), Some("NHL.com"));
/// ```
pub fn site_from_title(title: &str, headline: &str, host: Option<&str>) -> Option<String> {
    let (title, headline) = (crate::clean::collapse_ws(title), crate::clean::collapse_ws(headline));
    SEPARATORS.iter().find_map(|sep| {
        let parts: Vec<&str> = title.split(sep).map(str::trim).collect();
        if parts.len() < 2 {
            return None;
        }
        let (first, last) = (parts[0], parts[parts.len() - 1]);
        let named = host.map(|h| (names_host(first, h), names_host(last, h)));
        // (the name, whether the host said it: then it may be the headline found too)
        let (name, by_host) = match named {
            Some((true, false)) => (first, true),
            Some((false, true)) => (last, true),
            // The headline at one end: the other side, whole when a part of it names the host,
            // else its outer part.
            _ if !headline.is_empty() => {
                let (side, outer) = match (title.strip_prefix(headline.as_str()), title.strip_suffix(headline.as_str())) {
                    (Some(side), _) => (side, last),
                    (None, Some(side)) => (side, first),
                    (None, None) => return None,
                };
                match named_side(side, sep, host) {
                    Some(name) => return Some(name),
                    None => (outer, false),
                }
            }
            _ => return None,
        };
        let name = (!name.is_empty() && name.split_whitespace().count() <= 6 && (by_host || name != headline)).then_some(name)?;
        // A side of several parts (`Political News - FOXNews.com`) is read as a declared name is.
        Some(site_name(name, host))
    })
}

/// The site's name in `side`, the whole of a title beside its headline, when a part of it
/// names the `host` (`NHL.com` of `NHL.com - News`, beside `Whalers win - `: a section after
/// the site's name).
fn named_side(side: &str, sep: &str, host: Option<&str>) -> Option<String> {
    let mark = sep.trim();
    let side = side.trim().trim_start_matches(mark).trim_end_matches(mark).trim();
    let name = site_name(side, host);
    (name != side).then_some(name)
}

/// `title` without its first or last part when that part is the site's declared name (`site`)
/// or a label of the page's `host` (`Vanguard` on `investor.vanguard.com`, `bcbs.com`), compared
/// on letters and digits: `Bridge closes | The Gazette` is `Bridge closes`. A title of one
/// part, or whose other parts are empty, stays whole.
///
/// # Example
/// ```
/// use forest::metadata::title_without_site;
/// assert_eq!(title_without_site("Bridge closes | The Gazette", Some("The Gazette"), None), "Bridge closes");
/// assert_eq!(title_without_site("ABC News - Photos of the week", None, Some("abcnews.go.com")), "Photos of the week");
/// assert_eq!(title_without_site("The Gazette", Some("The Gazette"), None), "The Gazette");
/// // A part that only shares letters with the host is the headline's.
/// assert_eq!(title_without_site("New to Astronomy – Telescopes?", None, Some("forum.astronomy.com")), "New to Astronomy – Telescopes?");
/// ```
pub fn title_without_site(title: &str, site: Option<&str>, host: Option<&str>) -> String {
    use super::byline::{key, names_site};
    let labels: Vec<String> = host.map(|h| h.split('.').filter(|l| *l != "www").map(key).collect()).unwrap_or_default();
    let names = |part: &str| site.is_some_and(|s| names_site(part, s)) || labels.contains(&key(part));
    SEPARATORS
        .iter()
        .find_map(|sep| {
            let parts: Vec<&str> = title.split(sep).map(str::trim).collect();
            let n = parts.len();
            let rest = |r: &[&str]| Some(r.join(sep)).filter(|t| !t.trim().is_empty());
            match () {
                _ if n < 2 => None,
                _ if names(parts[n - 1]) && !names(parts[0]) => rest(&parts[..n - 1]),
                _ if names(parts[0]) && !names(parts[n - 1]) => rest(&parts[1..]),
                _ => None,
            }
        })
        .unwrap_or_else(|| title.to_string())
}

/// Whether `name` names `host`: its letters share a run with a label of the host (not `www`,
/// nor the last label, nor one of two letters) of at least 5 letters (the whole label when
/// shorter) that makes at least half of the name (`Paulo Coelho's Blog` names
/// `paulocoelhoblog.com`; `Monitor Arms by Humanscale` does not name `humanscale.com`).
pub fn names_host(name: &str, host: &str) -> bool {
    let key: Vec<char> = name.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    let labels: Vec<&str> = host.split('.').collect();
    let inner = &labels[..labels.len().saturating_sub(1)];
    inner.iter().filter(|l| **l != "www" && l.len() > 2).any(|label| {
        let label: Vec<char> = label.chars().filter(|c| c.is_alphanumeric()).collect();
        // A run is no longer than the label: a name over twice its length cannot pass (and a
        // page's `<title>` of any length costs no more than this).
        if key.len() > 2 * label.len() {
            return false;
        }
        let run = longest_common_run(&key, &label);
        run >= label.len().min(5) && 2 * run >= key.len()
    })
}

/// The length of the longest run of characters `a` and `b` share (two rows of the table).
fn longest_common_run(a: &[char], b: &[char]) -> usize {
    let mut best = 0;
    let (mut prev, mut row) = (vec![0usize; b.len() + 1], vec![0usize; b.len() + 1]);
    for &x in a {
        for (j, &y) in b.iter().enumerate() {
            row[j + 1] = if x == y { prev[j] + 1 } else { 0 };
            best = best.max(row[j + 1]);
        }
        std::mem::swap(&mut prev, &mut row);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_part_that_names_the_host_is_the_sites_name() {
        for (declared, host, want) in [
            ("Photos - ABC News", "abcnews.go.com", "ABC News"),
            ("US News - FOXNews.com", "www.foxnews.com", "FOXNews.com"),
            ("Yahoo News - Latest News & Headlines", "news.yahoo.com", "Yahoo News"),
            ("Seeker - Science. World. Exploration. Seek for yourself.", "www.seeker.com", "Seeker"),
            ("Climate Home - climate change news", "www.climatechangenews.com", "Climate Home - climate change news"),
            ("BBC News", "www.bbc.co.uk", "BBC News"),
        ] {
            assert_eq!(site_name(declared, Some(host)), want, "{declared}");
        }
        assert!(names_host("BBC News", "news.bbc.co.uk") && names_host("Blue Lily Photo", "bluelily.squarespace.com"));
        assert!(!names_host("Humanscale M/Class Monitor Arms", "www.humanscale.com") && !names_host("Photos", "abcnews.go.com"));
        assert_eq!(site_from_title("Joy the Baker – Papa Says", "Joy the Baker", Some("joythebaker.com")).as_deref(), Some("Joy the Baker"));
        assert_eq!(site_from_title("Bridge closes", "Bridge closes", None), None);
    }
}
