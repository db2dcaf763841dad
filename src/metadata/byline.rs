//! Bylines: a page's author line read as the names it gives, whatever its source wrote around
//! them.
//!
//! A byline's source often holds more than names: a lead (`By`, `Posted by:`, `Text by`,
//! `From`, `via`, `Posted in Travel By`), contact details (`jane@example.org`, `@jane`), the buttons
//! beside it (`Follow`, `Email`, `View Profile`), a user card's reputation (`jane 1,234 gold
//! badges`), a place or a date after it (`Jane Roe in Boston`, `Jane Roe, Gazette 7:02 a.m.`).
//! [`name`] keeps the names. A byline that is the site's own name ([`names_site`]) is the
//! publisher: a person's name the page shows is preferred to it.

use crate::clean::{Doc, Element};

/// Words of the buttons and links that sit beside a byline: never part of a name.
const BUTTONS: &[&str] =
    &["follow", "email", "e-mail", "print", "share", "view", "profile", "rss", "twitter", "facebook", "more", "subscribe", "contact", "archive", "get", "about", "home"];

/// Words after which a byline goes on with something other than a name (a place, a time, a
/// second byline, a role after a dash), in any case.
const ENDS: &[&str] = &["by", "posted", "updated", "published", "|", "•", "·", "⋅", "»", "/", "-", "–", "—"];

/// Lower-case words that end a name the same way (`Ann Lee in Boston`; `In` may begin one).
const ENDS_LOWER: &[&str] = &["on", "at", "in"];

/// First words that label a byline rather than begin a name.
const LEADS: &[&str] = &["from", "via", "author", "authors"];

/// Longest name line kept (a paper's many authors fit).
const MAX_CHARS: usize = 1000;

/// The names a byline's text gives (see the module documentation); `None` when it gives none
/// (only a lead or buttons, a URL).
///
/// # Example
/// ```
/// use forest::metadata::byline::name;
/// assert_eq!(name("Posted by: Ann Lee on May 1, 2024").as_deref(), Some("Ann Lee"));
/// assert_eq!(name("Posted in Travel By Ann").as_deref(), Some("Ann"));
/// assert_eq!(name("Print Email Ann Lee ann@example.org Follow Ann on Twitter").as_deref(), Some("Ann Lee"));
/// assert_eq!(name("Kelly Roe , Gazette 7:02 a.m. ET").as_deref(), Some("Kelly Roe"));
/// assert_eq!(name("Ann Lee, Tuesday, May 1, 2024").as_deref(), Some("Ann Lee"));
/// assert_eq!(name("By Ann Lee - Managing Editor").as_deref(), Some("Ann Lee"));
/// assert_eq!(name("Ann Lee Ann Lee").as_deref(), Some("Ann Lee"));
/// assert_eq!(name("View Profile Email RSS"), None);
/// assert_eq!(name("//example.org/staff/ann-lee/"), None);
/// assert_eq!(name("page.head.extra.author"), None);
/// ```
pub fn name(raw: &str) -> Option<String> {
    written(raw).map(|n| names_only(&n))
}

/// The byline as its text writes it, the lead, buttons, contacts and date gone but a role or
/// an affiliation after the names kept (`Ann Lee, Staff Writer`): [`name`] before
/// [`names_only`].
pub fn written(raw: &str) -> Option<String> {
    let line = crate::clean::collapse_ws(raw);
    if line.contains("://") || line.starts_with("//") || is_placeholder(&line) {
        return None;
    }
    let button = |w: &str| BUTTONS.iter().any(|b| w.trim_matches(|c: char| !c.is_alphanumeric()).eq_ignore_ascii_case(b));
    let mut words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).skip_while(|w| button(w)).collect();
    // The lead: up to a `by` among the first words, else a leading `From` or label (`Author:`).
    if let Some(i) = words.iter().take(4).position(|w| w.trim_end_matches(':').eq_ignore_ascii_case("by")) {
        words.drain(..=i);
    } else if words.first().is_some_and(|w| LEADS.iter().any(|l| w.eq_ignore_ascii_case(l)) || w.ends_with(':')) {
        words.remove(0);
    }
    let digit = |w: &str| w.starts_with(|c: char| c.is_ascii_digit());
    let mut out: Vec<&str> = Vec::new();
    let mut aside = false;
    for (i, &w) in words.iter().enumerate() {
        // A part in parentheses after a name is a role or a source: `(Author)`, `(www.dw.com)`.
        if aside || (w.starts_with('(') && !out.is_empty()) {
            aside = !w.ends_with(')');
            continue;
        }
        // Dashes before the name (`— Ann Lee`) are passed over (not a breadcrumb's `»`).
        if out.is_empty() && w.chars().all(|c| matches!(c, '—' | '–' | '-' | '~' | '&')) {
            continue;
        }
        let ends = ENDS.iter().any(|e| w.eq_ignore_ascii_case(e)) || ENDS_LOWER.contains(&w);
        // A date: a month's name before a number, or a number.
        let month = super::date::month(w).is_some() && words.get(i + 1).is_some_and(|n| digit(n));
        if month || digit(w) {
            // What the date began with goes too: a weekday, a label, a separator.
            while out.last().is_some_and(|o| is_weekday(o) || o.ends_with(':') || !o.chars().any(char::is_alphanumeric)) {
                out.pop();
            }
            break;
        }
        if button(w) || ends {
            break;
        }
        // Contact details: an e-mail address or a handle is left out, a name before a handle kept.
        let w = match w.split_once('@') {
            Some((_, domain)) if domain.contains('.') => continue,
            Some((before, _)) => before,
            None => w,
        };
        let w = w.trim_matches(['(', ')']);
        if !w.is_empty() {
            out.push(w);
        }
    }
    // A name said twice (a link to the author's page, then the name again) is said once.
    let half = out.len() / 2;
    if half > 0 && out.len() % 2 == 0 && out[..half] == out[half..] {
        out.truncate(half);
    }
    let joined = out.join(" ").replace(" ,", ",");
    let name = joined.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '–' | '—' | '|' | '/' | '→' | '›' | '»'));
    (name.chars().any(char::is_alphabetic) && name.len() <= MAX_CHARS).then(|| name.to_string())
}

/// Words of one person's role or title (`Staff Writer`, `Product Manager`, `Correspondent`):
/// a part of a byline that holds one tells what the author does, not who. (Plurals name a
/// group: `Washington Post editors`.)
const ROLES: &[&str] = &[
    "writer", "reporter", "editor", "correspondent", "producer", "columnist", "contributor", "director", "manager", "engineer",
    "scientist", "founder", "president", "officer", "professor", "analyst", "strategist", "photographer", "critic", "journalist",
    "meteorologist", "psychologist", "therapist", "physician", "dietitian", "nutritionist", "attorney", "lawyer", "consultant",
    "designer", "developer", "researcher", "educator", "specialist", "advisor", "adviser", "coordinator", "student", "graduate",
];

/// Words that name an organization or a publication (`Times`, `Associated Press`, `Google
/// Desktop Team`): a part of a byline that holds one is where the author works.
const ORGANIZATIONS: &[&str] = &[
    "news", "times", "post", "press", "journal", "chronicle", "tribune", "herald", "gazette", "daily", "weekly", "magazine", "media",
    "network", "radio", "television", "tv", "inc", "ltd", "llc", "group", "team", "staff", "agency", "bureau", "university", "college",
    "institute", "today", "wire", "newspaper", "online", "advertiser", "telegraph", "examiner", "inquirer", "dispatch", "courier",
];

/// Lower-case forms of the words that begin a phrase, never a name (`for CBC News`, `From
/// Masculindians`, `The Plain Dealer`).
const NOT_FIRST: &[&str] = &["the", "for", "from", "of", "at", "in", "with", "via"];

/// Whether word `w` says one person's role ([`ROLES`]), or is an acronym (`CNN`, `BBC`, `MBE`;
/// not a roman numeral after a name, `III`) when `acronyms`.
fn role_word(w: &str, acronyms: bool) -> bool {
    let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
    let acronym = bare.chars().count() >= 2 && bare.chars().all(|c| c.is_uppercase()) && !bare.chars().all(|c| matches!(c, 'I' | 'V' | 'X'));
    (acronyms && acronym) || ROLES.contains(&bare.to_lowercase().as_str())
}

/// Whether word `w` says a role ([`role_word`]) or names an organization ([`ORGANIZATIONS`]).
fn affiliation_word(w: &str) -> bool {
    let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
    role_word(w, true) || ORGANIZATIONS.contains(&bare.to_lowercase().as_str())
}

/// A byline's names without the role or affiliation written after them: of its parts between
/// commas, the first is a name, cut before a role or an acronym that follows two or more of its
/// words (`Tim Lee Senior Writer` → `Tim Lee`, `Max B. Roe CNN Producer` → `Max B. Roe`; not
/// before an organization's word, which may end the organization's own name: `Los Angeles
/// Times`); each next part is kept while it is another person's name (`Jon Stokes, Ryan Paul`),
/// and what follows goes (`, Times Staff Writer`, `, CNN`, `, MS, RD`, `, The Plain Dealer`). A
/// first part of one word is a surname before a given name (`Kaplan, Karen`): kept whole.
///
/// ```
/// use forest::metadata::byline::names_only;
/// assert_eq!(names_only("Karen Kaplan, Times Staff Writer"), "Karen Kaplan");
/// assert_eq!(names_only("Bill Mears CNN Supreme Court Producer"), "Bill Mears");
/// assert_eq!(names_only("Jon Stokes, Ryan Paul"), "Jon Stokes, Ryan Paul");
/// assert_eq!(names_only("Paul Adepoju and Kieron Monks, CNN"), "Paul Adepoju and Kieron Monks");
/// assert_eq!(names_only("Ramona Pringle, for CBC News"), "Ramona Pringle");
/// assert_eq!(names_only("Kaplan, Karen"), "Kaplan, Karen");
/// assert_eq!(names_only("Guest Contributor"), "Guest Contributor");
/// assert_eq!(names_only("Los Angeles Times"), "Los Angeles Times");
/// assert_eq!(names_only("IEVA M. AUGSTUMS, Associated Press Writer"), "IEVA M. AUGSTUMS");
/// ```
pub fn names_only(name: &str) -> String {
    let parts: Vec<&str> = name.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
    let Some(first) = parts.first() else { return name.to_string() };
    let words: Vec<&str> = first.split_whitespace().collect();
    if words.len() < 2 {
        return name.to_string();
    }
    // The first part: a name of two words (three with an initial between), then a role. A name
    // in capitals (`AMY ROE, Associated Press Writer`) has no acronym after it.
    let capitals = words[0].chars().all(|c| !c.is_lowercase());
    let joined = |w: &str| w.eq_ignore_ascii_case("and") || w == "&";
    let role = words.iter().enumerate().skip(2).find(|(_, w)| role_word(w, !capitals)).map(|(k, _)| k);
    if let Some(k) = role.filter(|&k| !words[..k].iter().any(|w| joined(w))) {
        let initial = words[1].trim_end_matches('.').chars().count() == 1;
        let n = if initial && k >= 3 { 3 } else { 2 };
        return words[..n].join(" ");
    }
    let mut kept = vec![*first];
    for part in &parts[1..] {
        let begins_phrase = part.split_whitespace().next().is_some_and(|w| NOT_FIRST.contains(&w.to_lowercase().as_str()));
        if !is_person(part) || begins_phrase || part.split_whitespace().any(affiliation_word) {
            break;
        }
        kept.push(part);
    }
    kept.join(", ")
}

/// The people a name gives: names of two to four capitalized words joined by commas, `and` or
/// `&` are several (`Ann Lee and Bo Chen`, `Jon Stokes, Ryan Paul`); a name with a one-word part
/// stays whole (`Morgan & Morgan`, `Ben and Jerry`: a firm, a brand), and so does one with a
/// role after a comma (`Ann Lee, Editor & Publisher`).
///
/// ```
/// use forest::metadata::byline::people;
/// assert_eq!(people("Ann Lee and Bo Chen"), ["Ann Lee", "Bo Chen"]);
/// assert_eq!(people("Ann Lee & Bo Chen & Cy Diaz Ruiz"), ["Ann Lee", "Bo Chen", "Cy Diaz Ruiz"]);
/// assert_eq!(people("Jon Stokes, Ryan Paul and Cy Diaz"), ["Jon Stokes", "Ryan Paul", "Cy Diaz"]);
/// assert_eq!(people("Morgan & Morgan"), ["Morgan & Morgan"]);
/// assert_eq!(people("Ann Lee, Editor & Publisher"), ["Ann Lee, Editor & Publisher"]);
/// assert_eq!(people("Ann Lee and the Gazette staff"), ["Ann Lee and the Gazette staff"]);
/// ```
pub fn people(name: &str) -> Vec<String> {
    let parts: Vec<&str> = name.split(',').flat_map(|p| p.split(" and ")).flat_map(|p| p.split(" & ")).map(str::trim).collect();
    if parts.len() > 1 && parts.iter().all(|p| is_person(p)) {
        parts.into_iter().map(str::to_string).collect()
    } else {
        vec![name.to_string()]
    }
}

/// Whether `name` reads as one person's name: two to four words, each capitalized, no comma.
pub fn is_person(name: &str) -> bool {
    let words = name.split_whitespace();
    (2..=4).contains(&words.clone().count()) && !name.contains(',') && words.into_iter().all(|w| w.starts_with(char::is_uppercase))
}

/// Is `line` a template's placeholder the site left unfilled: `{{ author }}`, `${author}`, or
/// a variable's dotted path (`page.head.extra.author`: one word, lower-case segments)?
fn is_placeholder(line: &str) -> bool {
    let segment = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    let path = !line.contains(' ') && line.split('.').count() >= 3 && line.split('.').all(segment);
    path || line.contains("{{") || line.contains("${")
}

/// Whether `w` names a day of the week (`Tue`, `Tuesday,`).
pub(super) fn is_weekday(w: &str) -> bool {
    let w = w.trim_end_matches([',', '.']).to_ascii_lowercase();
    ["mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"].contains(&w.as_str())
        || ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].contains(&w.as_str())
}

/// Whether `text` begins as a byline or a post's dateline does: `By`, `Posted by`, `Written
/// by`, `Posted on`, `Published on` (any case).
pub fn leads(text: &str) -> bool {
    let mut words = text.split_whitespace().map(|w| w.trim_end_matches(':').to_ascii_lowercase());
    match words.next().as_deref() {
        Some("by") => true,
        Some("written") => words.next().as_deref() == Some("by"),
        Some("posted") => matches!(words.next().as_deref(), Some("by" | "on")),
        Some("published") => words.next().as_deref() == Some("on"),
        _ => false,
    }
}

/// Whether `byline` is the site's name `site` (compared on letters and digits, ignoring case
/// and a domain ending: `FoxNews.com` is `Fox News`).
pub fn names_site(byline: &str, site: &str) -> bool {
    let k = key(byline);
    !k.is_empty() && k == key(site)
}

/// Whether `byline` holds the site's name `site` (`Help Net Security Sponsored`), compared as
/// [`names_site`] does.
pub fn holds_site(byline: &str, site: &str) -> bool {
    let k = key(site);
    !k.is_empty() && key(byline).contains(&k)
}

/// A name's letters and digits, lower-case, without a domain ending when it is one word.
pub(super) fn key(s: &str) -> String {
    let s = if s.contains(' ') { s } else { s.split('.').next().unwrap_or(s) };
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// The name of the first `<a rel=author>` link outside the page's comments whose whole text is
/// a name.
pub fn linked(doc: &Doc) -> Option<String> {
    (0..doc.nodes.len() as u32).find_map(|i| link_name(doc, i))
}

/// The names of the page's byline links: the first `<a rel=author>` link outside the comments
/// whose whole text is a name, and those of the others beside it (under its grandparent: `By
/// <a>Ann Lee</a> and <a>Bo Chen</a>`), not the authors of teasers further on.
pub fn linked_all(doc: &Doc) -> Vec<String> {
    let Some((first, name)) = (0..doc.nodes.len() as u32).find_map(|i| link_name(doc, i).map(|n| (i, n))) else { return Vec::new() };
    // The block's nodes before the first link have no name: none is read twice.
    let block = doc.ancestors(first).nth(1).unwrap_or(first);
    std::iter::once(name).chain((first + 1..doc.end(block)).filter_map(|i| link_name(doc, i))).collect()
}

/// The name `<a rel=author>` link `i` gives, outside the comments, when its whole text is a
/// name: not `Google profile`, `View my complete profile`, `See full bio`'s kind of text.
fn link_name(doc: &Doc, i: u32) -> Option<String> {
    if !is_author_link(doc.element(i)?) || in_comments(doc, i) {
        return None;
    }
    let text = crate::clean::collapse_ws(&doc.text(i));
    name(&text).filter(|n| *n == text.trim())
}

/// Whether element `n` stands among reader comments: it or an ancestor is a comment region
/// ([`crate::clean::is_comment_region`], which passes over `body` and the other elements that
/// carry such classes for the whole page).
pub(super) fn in_comments(doc: &Doc, n: u32) -> bool {
    std::iter::once(n).chain(doc.ancestors(n)).any(|a| {
        doc.element(a).is_some_and(|e| {
            let [id, class] = e.id_class();
            crate::clean::is_comment_region(&e.name, id, class)
        })
    })
}

/// Whether `e` is a link to the page's author (`<a rel=author>`).
pub(super) fn is_author_link(e: &Element) -> bool {
    e.name == "a" && e.attr("rel").is_some_and(|r| r.split_ascii_whitespace().any(|w| w == "author"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_what_their_sources_write_around_them() {
        for (raw, want) in [
            ("By: Jada Yuan", Some("Jada Yuan")),
            ("by: Liz Thomas", Some("Liz Thomas")),
            ("Text by Hunter Dukes", Some("Hunter Dukes")),
            ("From ASSOCIATED PRESS", Some("ASSOCIATED PRESS")),
            ("via scvalex 1 year ago", Some("scvalex")),
            ("Posted by", None),
            ("Zachary Roth, @zackroth", Some("Zachary Roth")),
            ("Matt Gerardi@Gerardi", Some("Matt Gerardi")),
            ("newsfeedback@fool.com (Rich Smith)", Some("Rich Smith")),
            ("user3080392 19311 silver badge66 bronze badges", Some("user3080392")),
            ("JENNIFER BAIN in Boston", Some("JENNIFER BAIN")),
            ("Tim Twentyman Senior Writer Follow Tim on Twitter", Some("Tim Twentyman")),
            ("Malavika Velayanikal | Tech In Asia", Some("Malavika Velayanikal")),
            (", USA TODAY", Some("USA TODAY")),
            ("Shane Goldmacher and Patrick McGreevy", Some("Shane Goldmacher and Patrick McGreevy")),
            ("Jan van der Berg", Some("Jan van der Berg")),
            ("Ann Lee, The Gazette By Ann Lee, The Gazette", Some("Ann Lee")),
            ("Home » Services", None),
            ("— Ann Lee", Some("Ann Lee")),
            ("Matthew Roe ⋅ Review Editor ⋅ Nov 18, 2025", Some("Matthew Roe")),
            ("James Clear (Author)", Some("James Clear")),
            ("More From", None),
            ("Author: Ann Lee", Some("Ann Lee")),
            ("changingtimes » Sat Jan 01, 2022", Some("changingtimes")),
            ("Tuesday March 28, 2017 6:20 PM PDT by Juli Clover", None),
        ] {
            assert_eq!(name(raw).as_deref(), want, "{raw}");
        }
    }

    #[test]
    fn the_sites_own_name_is_told() {
        assert!(names_site("ABC News", "ABC News") && names_site("FoxNews.com", "Fox News") && names_site("WRAL", "WRAL.com"));
        assert!(!names_site("Ann Lee", "The Gazette") && !names_site("", ""));
    }

    #[test]
    fn a_linked_author_outside_the_comments_is_read() {
        let doc = crate::clean::page(
            "<body class=has-comments><div class=comments><p>Posted by: <a rel=author href=/u/x>Commenter</a></p></div>\
             <p>Posted by <a rel=author href=/p/ann>Ann Lee</a> on May 1</p>",
        );
        assert_eq!(linked(&doc).as_deref(), Some("Ann Lee"));
        assert_eq!(linked(&crate::clean::page("<a rel=author href=/a>View Profile</a>")), None);
        assert_eq!(linked(&crate::clean::page("<a rel=author href=//social.example/ann>Social profile</a>")), None);
    }
}
