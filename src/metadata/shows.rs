//! Where a page shows its byline and its date: the elements whose text gives them. A site
//! shows them in the same element on every page, so a wrapper learns that element's type from
//! the site's sample pages ([`crate::wrapper::shows`]) and reads it on any page of the site
//! that says neither itself. The FiveFilters export reads what sample pages give here too.
//!
//! An element shows a value when it is the deepest element of the body, outside reader
//! comments and of at most 40 nodes, whose text reads as it: as a byline's names
//! ([`super::byline::name`], the same reading as the page's own byline) or as a date of the
//! same day ([`iso_date`], or a `<time>`'s `datetime`).

use super::{byline, clean_value, iso_date, name_in, SHOWN_NODES};
use crate::clean::{Doc, NodeData, NodeId};

/// What a page gives of its byline and date on its own: declared, else shown where its markup
/// names them (as an article gets them), the date as its day (`2024-05-01`). A byline that is
/// the site's declared name is the publisher's, not shown as a person's: none.
pub fn known(doc: &Doc, url: Option<&str>) -> (Option<String>, Option<String>) {
    let meta = super::read(doc);
    let (shown_byline, shown_date) = super::shown(doc);
    let site = meta.site_name.as_deref();
    let name = meta.byline.or(shown_byline).filter(|b| !site.is_some_and(|s| byline::names_site(b, s)));
    let day = meta
        .published
        .as_deref()
        .and_then(iso_date)
        .or_else(|| url.and_then(super::url_date))
        .or(shown_date)
        .and_then(|d| d.get(..10).map(str::to_string));
    (name, day)
}

/// The deepest elements that show the byline `name` ([`byline_of`] reads it).
pub fn byline_holders(doc: &Doc, name: &str) -> Vec<NodeId> {
    let want = byline::key(name);
    // Its longest word is in one of the texts of any element that shows it.
    let clue = name.split(|c: char| !c.is_alphanumeric()).max_by_key(|w| w.len()).unwrap_or("").to_lowercase();
    if want.is_empty() || clue.is_empty() {
        return Vec::new();
    }
    let texts = |t: &str| t.to_lowercase().contains(&clue);
    deepest(doc, texts, |_| false, |n| byline_of(doc, n).is_some_and(|b| byline::key(&b) == want))
}

/// The deepest elements that show the day `day` (`2024-05-01`; [`date_of`] reads it).
pub fn date_holders(doc: &Doc, day: &str) -> Vec<NodeId> {
    let Some(year) = day.get(..4) else { return Vec::new() };
    let timed = |n: NodeId| doc.element(n).is_some_and(|e| e.name == "time" && e.attr("datetime").is_some());
    deepest(doc, |t| t.contains(year), timed, |n| date_of(doc, n).is_some_and(|d| d.get(..10) == Some(day)))
}

/// The byline element `n` shows: its text's names, when they are a name's length.
pub fn byline_of(doc: &Doc, n: NodeId) -> Option<String> {
    name_in(&clean_value(&doc.text(n)))
}

/// The date element `n` shows, as ISO 8601: a `<time>`'s `datetime`, else its text when it is
/// at most 120 characters and reads as a date.
pub fn date_of(doc: &Doc, n: NodeId) -> Option<String> {
    let e = doc.element(n)?;
    if let Some(d) = e.attr("datetime").filter(|_| e.name == "time").and_then(|d| iso_date(&clean_value(d))) {
        return Some(d);
    }
    let text = clean_value(&doc.text(n));
    (text.len() <= 120).then(|| iso_date(&text)).flatten()
}

/// The first of `nodes` (in document order) outside reader comments: the one a site's
/// element type shows on a page.
pub fn first_shown(doc: &Doc, nodes: &[NodeId]) -> Option<NodeId> {
    nodes.iter().copied().find(|&n| doc.element(n).is_some() && !byline::in_comments(doc, n))
}

/// The elements of the body of at most [`SHOWN_NODES`] nodes, outside reader comments, for
/// which `shows` holds and for none of their descendants: the element that holds the byline,
/// not a heading area around it (whose text may read as the same name when its headline is
/// short). Only the elements around a text that `texts` accepts, or around an element that
/// `elements` accepts, are read (the value's clue: a word of the name, the year).
fn deepest(doc: &Doc, texts: impl Fn(&str) -> bool, elements: impl Fn(NodeId) -> bool, shows: impl Fn(NodeId) -> bool) -> Vec<NodeId> {
    let body_end = doc.nodes.get(doc.body as usize).map_or(0, |n| n.end);
    let small = |n: NodeId| n > doc.body && doc.element(n).is_some() && doc.nodes[n as usize].end - n <= SHOWN_NODES as NodeId;
    let mut candidates: Vec<NodeId> = Vec::new();
    for i in doc.body + 1..body_end {
        let hit = match doc.nodes.get(i as usize).map(|n| &n.data) {
            Some(NodeData::Text(t)) => texts(t),
            Some(NodeData::Element(_)) => elements(i),
            _ => false,
        };
        if hit {
            // The node and its ancestors up to the first that is too large (the larger ones
            // hold it too).
            candidates.extend(std::iter::once(i).chain(doc.ancestors(i)).skip_while(|&a| doc.element(a).is_none()).take_while(|&a| small(a)));
        }
    }
    candidates.sort_unstable();
    candidates.dedup();
    let mut found: Vec<NodeId> = Vec::new();
    for i in candidates {
        if !shows(i) {
            continue;
        }
        // In document order: an ancestor of this one was found before it.
        found.retain(|&a| !(a < i && i < doc.nodes[a as usize].end));
        found.push(i);
    }
    found.retain(|&n| !byline::in_comments(doc, n));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elements_that_show_a_byline_and_a_date_are_the_deepest_that_read_as_them() {
        let doc = crate::clean::page(
            "<body><div class=head><h1>Tides</h1><p class=meta><span class=who>By <a href=/ann>Ann Lee</a></span> \
             <span class=when>May 1, 2024</span></p></div><p>Ann Lee wrote this story about bridges.</p>\
             <div id=comments><div class=c><b>Ann Lee</b> May 1, 2024</div></div></body>",
        );
        // Not the heading area (`Tides By Ann Lee May 1, 2024` also reads as the name), not the
        // paragraph, not a comment: the link.
        let by = byline_holders(&doc, "ann lee");
        assert_eq!(by.len(), 1);
        assert_eq!(doc.element(by[0]).map(|e| e.name.as_str()), Some("a"));
        assert_eq!(byline_of(&doc, by[0]).as_deref(), Some("Ann Lee"));
        let day = date_holders(&doc, "2024-05-01");
        assert_eq!(day.len(), 1);
        assert_eq!(doc.element(day[0]).map(|e| e.attr("class")), Some(Some("when")));
        assert_eq!(date_of(&doc, day[0]).as_deref(), Some("2024-05-01"));
        assert!(date_holders(&doc, "2024-05-02").is_empty());
    }

    #[test]
    fn what_a_page_gives_on_its_own_is_declared_first_and_never_the_site_as_author() {
        let doc = crate::clean::page(
            "<head><meta name=author content='Ann Lee'><meta property='article:published_time' content='2024-05-01T10:00:00Z'></head>\
             <body><p>x</p></body>",
        );
        assert_eq!(known(&doc, None), (Some("Ann Lee".into()), Some("2024-05-01".into())));
        let publisher = crate::clean::page(
            "<head><meta name=author content='Daily Planet'><meta property='og:site_name' content='Daily Planet'></head><body><p>x</p></body>",
        );
        assert_eq!(known(&publisher, Some("https://planet.example/2024/05/01/bridge")), (None, Some("2024-05-01".into())));
    }
}
