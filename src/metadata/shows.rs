//! Where a page shows its byline and its date: the elements whose text gives them. A site
//! shows them in the same element on every page, so a wrapper learns that element's type from
//! the site's sample pages ([`crate::wrapper::shows`]) and reads it on any page of the site
//! that says neither itself. The FiveFilters export reads what sample pages give here too.
//!
//! What a page shows where it declares nothing ([`shown`]): the elements its markup names as a
//! byline or a date (not a listed story's), and its byline lines.
//!
//! An element shows a value when it is the deepest element of the body, outside reader
//! comments and of at most 40 nodes, whose text reads as it: as a byline's names
//! ([`super::byline::name`], the same reading as the page's own byline) or as a date of the
//! same day ([`iso_date`], or a `<time>`'s `datetime`).

use super::{byline, clean_value, iso_date};
use crate::clean::{Doc, NodeData, NodeId};

/// What a page gives of its byline and date on its own: declared, else shown where its markup
/// names them (as an article gets them), the date as its day (`2024-05-01`). A byline that is
/// the site's declared name is the publisher's, not shown as a person's: none.
pub fn known(doc: &Doc, url: Option<&str>) -> (Option<String>, Option<String>) {
    let meta = super::read(doc);
    let published = meta.published.as_deref().and_then(iso_date).or_else(|| url.and_then(super::url_date));
    // What the page shows is read only for what it does not declare.
    let (shown_byline, shown_date) = if meta.byline.is_none() || published.is_none() { shown(doc) } else { (None, None) };
    let site = meta.site_name.as_deref();
    let name = meta.byline.or(shown_byline).filter(|b| !site.is_some_and(|s| byline::names_site(b, s)));
    let day = published.or(shown_date).and_then(|d| d.get(..10).map(str::to_string));
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
/// at most [`DATE_CHARS`] long and reads as a date.
pub fn date_of(doc: &Doc, n: NodeId) -> Option<String> {
    let e = doc.element(n)?;
    if let Some(d) = e.attr("datetime").filter(|_| e.name == "time").and_then(|d| iso_date(&clean_value(d))) {
        return Some(d);
    }
    let text = clean_value(&doc.text(n));
    (text.len() <= DATE_CHARS).then(|| iso_date(&text)).flatten()
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

/// Class or id words of bylines.
const BYLINE_WORDS: &[&str] = &["byline", "author", "authors", "writer", "byl"];
/// Class or id words of author boxes and pictures, and of the page's menus and footer: not bylines.
const NOT_BYLINE_WORDS: &[&str] =
    &["bio", "box", "avatar", "image", "img", "photo", "picture", "description", "about", "follow", "social", "more", "nav", "menu", "footer"];
/// Class or id words of elements that show a page's date (a byline often carries it).
const DATE_WORDS: &[&str] = &["date", "dateline", "published", "timestamp", "time", "pubdate", "posted", "datetime", "byline"];
/// Most nodes in an element read as a byline or a date: a larger one is a container.
const SHOWN_NODES: usize = 40;
/// Shortest paragraph that begins a story's body (a sentence's length).
const BODY_CHARS: usize = 80;
/// Longest text read as a shown date: a longer one is more than a dateline.
const DATE_CHARS: usize = 120;
/// Levels above the first `h1` whose element is the headline's block (`article > header > div >
/// h1`): a dateline of no class is read inside it, not among a listing's dated items further on.
const HEAD_LEVELS: usize = 3;
/// Most words other than the date's in a dateline of no class (`Updated:`, `Posted on`, `4 min
/// read`): more, and the date is a part of a sentence.
const DATE_LABEL_WORDS: usize = 3;

/// What a page shows of its byline and date where it declares neither, in one pass over its
/// body: the text of the first element whose class or id names a byline or an author (not an
/// author's box or picture) that is a name's length once its `By` and what follows a date or a
/// `|` are cut (at most 8 words and 80 characters, no digits); and the first element whose class
/// or id names a date (a date word, or a compound ending with one at a capital: `NewsDate`)
/// whose text, at most [`DATE_CHARS`] long, reads as one ([`iso_date`]); else
/// what the first byline line gives, whatever its markup (`byline_line`); else a line that is
/// only `By` and a person's name between the first `h1` and the first paragraph of a
/// sentence's length (`plain_byline`: where a story's byline stands), and, for the date, a
/// line there, in the headline's block, that is only a date (`date_line`; one that says it is
/// an update's only when no other is shown). Elements of more than a few nodes are
/// containers, not read.
pub fn shown(doc: &Doc) -> (Option<String>, Option<String>) {
    let (mut byline, mut date, mut line, mut plain) = (None, None, None, None);
    let (mut plain_date, mut updated_date) = (None, None);
    // Between the headline and the body: where a byline of no class is looked for.
    let (mut headed, mut body) = (false, false);
    // The headline's block, where a dateline of no class is looked for.
    let mut head_block = 0..0;
    let body_end = doc.nodes.get(doc.body as usize).map_or(0, |n| n.end as usize);
    for i in doc.body as usize..body_end {
        if byline.is_some() && date.is_some() {
            break;
        }
        let Some(e) = doc.element(i as u32) else { continue };
        if !headed && e.name == "h1" {
            headed = true;
            let block = doc.ancestors(i as u32).take(HEAD_LEVELS).last().unwrap_or(i as u32);
            head_block = block as usize..doc.nodes[block as usize].end as usize;
        }
        if headed && !body && e.name == "p" {
            body = doc.text(i as u32).len() >= BODY_CHARS;
        }
        if doc.nodes[i].end as usize - i > SHOWN_NODES {
            continue;
        }
        let (mut by, mut not_by, mut dated) = (false, false, false);
        for w in class_words(e) {
            // A compound word names what it ends with (`newsByLine`, `postAuthor`, `authorBox`).
            let ends = |words: &[&str]| words.iter().any(|x| w.len() > x.len() && w.as_bytes()[w.len() - x.len()..].eq_ignore_ascii_case(x.as_bytes()));
            by |= super::one_of(BYLINE_WORDS, w) || ends(BYLINE_WORDS);
            not_by |= super::one_of(NOT_BYLINE_WORDS, w) || ends(NOT_BYLINE_WORDS);
            // A date word ends a compound at a capital only (`NewsDate`, `postDate`; not
            // `update`, `candidate`).
            let capped = |words: &[&str]| {
                words.iter().any(|x| w.len() > x.len() && w.as_bytes()[w.len() - x.len()].is_ascii_uppercase() && w.as_bytes()[w.len() - x.len()..].eq_ignore_ascii_case(x.as_bytes()))
            };
            dated |= super::one_of(DATE_WORDS, w) || capped(DATE_WORDS);
        }
        if !(by || dated) {
            if line.is_none() {
                line = byline_line(doc, i as u32);
            }
            if plain.is_none() && headed && !body {
                plain = plain_byline(doc, i as u32);
            }
            // (Not once a date element has given the date: it is the one kept.)
            if plain_date.is_none() && date.is_none() && headed && !body && head_block.contains(&i) {
                match date_line(doc, i as u32) {
                    Some((day, false)) => plain_date = Some(day),
                    Some((day, true)) => updated_date = updated_date.or(Some(day)),
                    None => {}
                }
            }
            continue;
        }
        // A list's item's byline or date (each related story's) is not the page's.
        if listed(doc, i as u32) {
            continue;
        }
        let text = clean_value(&doc.text(i as u32));
        if byline.is_none() && by && !not_by {
            byline = name_in(&text);
        }
        if date.is_none() && dated && text.len() <= DATE_CHARS {
            date = iso_date(&text);
        }
    }
    // A dateline that says its date is an update's is read only when no other is shown.
    let plain_date = plain_date.or(updated_date);
    match line {
        Some((name, day)) => (byline.or(name).or(plain), date.or(Some(day))),
        None => (byline.or(plain), date.or(plain_date)),
    }
}

/// The date element `n` shows when its text is a date with at most [`DATE_LABEL_WORDS`] words
/// besides the date's and its time's (`Published: May 1, 2024 at 9:00 am EST`, `Dec 12, 2025 4
/// min read`), outside reader comments and lists: a dateline with no class that names it; and
/// whether it says the date is an update's (`Updated`, `Modified`, `Edited`).
fn date_line(doc: &Doc, n: u32) -> Option<(String, bool)> {
    let text = clean_value(&doc.text(n));
    if text.len() > DATE_CHARS {
        return None;
    }
    let day = iso_date(&text)?;
    let words = text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| w.starts_with(char::is_alphabetic));
    let timed = |w: &str| {
        let bare = w.trim_end_matches(['.', ':']);
        ["at", "am", "pm", "a.m", "p.m"].iter().any(|t| bare.eq_ignore_ascii_case(t)) || (bare.len() <= 4 && bare.chars().all(|c| c.is_ascii_uppercase()))
    };
    let other = words.clone().filter(|w| super::date::month(w).is_none() && !byline::is_weekday(w) && !timed(w)).count();
    let updated = words.map(str::to_lowercase).any(|w| ["updated", "modified", "edited"].contains(&w.trim_end_matches(':')));
    (other <= DATE_LABEL_WORDS && !byline::in_comments(doc, n) && !listed(doc, n)).then_some((day, updated))
}

/// Whether element `n` is a part of a list's item: the list item (`li`) it stands in, at most
/// three levels up, has a sibling item that holds an element of its tag and class (each related
/// story's date, each listed post's author). Only the first 50 sibling items and the first 400
/// nodes of each are looked at.
fn listed(doc: &Doc, n: NodeId) -> bool {
    let Some(e) = doc.element(n) else { return false };
    let Some(class) = e.attr("class") else { return false };
    let item = std::iter::once(n).chain(doc.ancestors(n)).take(4).find(|&a| doc.element(a).is_some_and(|x| x.name == "li"));
    let Some((item, parent)) = item.and_then(|i| Some((i, doc.nodes.get(i as usize)?.parent?))) else { return false };
    let same = |d: NodeId| doc.element(d).is_some_and(|x| x.name == e.name && x.attr("class") == Some(class));
    doc.children(parent).filter(|&s| s != item).take(50).any(|s| (s..doc.nodes[s as usize].end).take(400).any(same))
}

/// Longest byline line read ([`byline_line`]).
const LINE_CHARS: usize = 150;

/// The name and the date of element `n` when it is a byline line: its text, at most
/// [`LINE_CHARS`] long, begins with a byline's lead (`by`, `Posted by`, `Posted on`) and holds a date
/// (`by Ann Lee on May 1, 2024`), as blogs write it under or below a post whatever their markup;
/// not among reader comments.
fn byline_line(doc: &Doc, n: u32) -> Option<(Option<String>, String)> {
    let first = first_text(doc, n)?;
    // A reader's comment is signed the same way.
    if !byline::leads(first) || byline::in_comments(doc, n) {
        return None;
    }
    let text = clean_value(&doc.text(n));
    if text.len() > LINE_CHARS {
        return None;
    }
    let day = iso_date(&text)?;
    Some((byline::name(&text).filter(|n| name_length(n)), day))
}

/// The name of element `n` when its whole text is a byline's lead and a person's name, perhaps
/// with a role after it (`by Bill Pearis`, `by Ann Lee, Staff Writer`: [`byline::people`],
/// [`byline::names_only`]), outside reader comments and lists: a byline line with no date.
fn plain_byline(doc: &Doc, n: u32) -> Option<String> {
    if !byline::leads(first_text(doc, n)?) {
        return None;
    }
    let text = clean_value(&doc.text(n));
    let written = byline::written(&text)?;
    let whole = text.split_whitespace().skip_while(|w| !w.eq_ignore_ascii_case("by")).skip(1).collect::<Vec<_>>().join(" ");
    // The line is the name, perhaps with a role after it (`by Ann Lee, Staff Writer`).
    let name = byline::names_only(&written);
    let person = written == whole && byline::people(&name).iter().all(|p| byline::is_person(p));
    (person && !byline::in_comments(doc, n) && !listed(doc, n)).then_some(name)
}

/// The first text of element `n` that is not blank (a byline line's lead: `By`, `Posted on`).
fn first_text(doc: &Doc, n: u32) -> Option<&str> {
    let end = doc.nodes.get(n as usize)?.end;
    (n + 1..end).find_map(|j| match &doc.nodes[j as usize].data {
        NodeData::Text(t) if !t.trim().is_empty() => Some(t.as_str()),
        _ => None,
    })
}

/// The name a byline's text gives ([`byline::name`]) before any date in it, when it is a
/// name's length ([`name_length`]).
fn name_in(text: &str) -> Option<String> {
    // A date in the line ends the name at the comma before it (`By Ann Lee, May 1, 2024`), or
    // right after the name (`Ann Lee May 1, 2024`, `Ann Lee on 5/1/2024`, `Ann Lee 2 hours
    // ago`); a line that begins with one is no byline.
    let line = text.split(['|', '•', '·']).next().unwrap_or("");
    let all: Vec<&str> = line.split(", ").collect();
    let parts: Vec<&str> = all.iter().copied().take_while(|part| !part.chars().any(|c| c.is_ascii_digit())).collect();
    // A byline goes on with a date, a time or a role, never a price (`billed annually, or
    // $15/mo`: a pricing table's line).
    if all[parts.len()..].iter().any(|part| part.contains(CURRENCIES)) {
        return None;
    }
    if parts.is_empty() {
        let name = byline::name(line)?;
        let rest = line.get(line.find(&name)? + name.len()..)?.trim_start();
        let when = rest.strip_prefix("on ").or_else(|| rest.strip_prefix("at ")).unwrap_or(rest);
        let dated = when.starts_with(|c: char| c.is_ascii_digit()) || (rest.starts_with(char::is_alphabetic) && iso_date(rest).is_some());
        return dated.then_some(name).filter(|n| name_length(n));
    }
    byline::name(&parts.join(", ")).filter(|n| name_length(n))
}

/// Currency signs: a text that holds one after its name gives a price.
const CURRENCIES: &[char] = &['$', '€', '£', '¥', '₹', '₩', '₽', '¢', '₺', '₫', '₱'];

/// Whether `n` is a name's length and shape: at most 8 words and 80 characters, no digit, no
/// word that a sentence has and a name never does (`Tell us what you think`, `This review
/// is`), and no label's word (`Topic Author`).
fn name_length(n: &str) -> bool {
    let words = || n.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
    let sentence = words().any(|w| super::one_of(NOT_NAME_WORDS, w));
    n.len() <= 80 && n.split_whitespace().count() <= 8 && !sentence && !n.chars().any(|c| c.is_ascii_digit())
}

/// Words of sentences and labels, never of a name.
const NOT_NAME_WORDS: &[&str] =
    &["author", "authors", "byline", "you", "your", "us", "we", "our", "what", "this", "is", "here", "tell", "think", "it"];

/// The words of `e`'s class and id, split on what is not a letter or digit.
fn class_words(e: &crate::clean::Element) -> impl Iterator<Item = &str> {
    let [id, class] = e.id_class();
    [id, class].into_iter().flatten().flat_map(|v| v.split(|c: char| !c.is_ascii_alphanumeric())).filter(|w| !w.is_empty())
}

/// Labels of a user's standing, which a forum shows beside each post (`Posts: 1,077`, `Join
/// Date: Aug 2008`).
const STANDING: &[&str] =
    &["posts", "messages", "joined", "join date", "member since", "registered", "reputation", "reaction score", "likes received", "karma"];

/// Is `line` a user's standing: a label of [`STANDING`], a colon and a value with a digit
/// (`Posts: 1,077`); a label and its colon alone over a `next` line that is a number
/// (`Messages:` over `1,046`); or a count of posts or messages (`410 posts · Joined 2002`)?
pub fn standing(line: &str, next: Option<&str>) -> bool {
    let number = |w: &str| w.starts_with(|c: char| c.is_ascii_digit()) && w.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '.');
    let mut words = line.split_whitespace();
    if let (Some(n), Some(w)) = (words.next(), words.next()) {
        if number(n) && (w.eq_ignore_ascii_case("posts") || w.eq_ignore_ascii_case("messages")) {
            return true;
        }
    }
    let Some((label, value)) = line.split_once(':') else { return false };
    let label = label.split_whitespace().collect::<Vec<_>>().join(" ");
    if !STANDING.iter().any(|s| label.eq_ignore_ascii_case(s)) {
        return false;
    }
    match value.trim() {
        "" => next.is_some_and(|n| number(n.trim())),
        v => v.chars().any(|c| c.is_ascii_digit()),
    }
}

/// Most nodes of an element read as a line of a user's standing.
const STANDING_NODES: usize = 8;

/// Most bytes of such a line.
const STANDING_BYTES: usize = 60;

/// Does `doc` show two or more users' standings ([`standing`]: `Posts: 1,077` beside each
/// post), outside reader comments: a forum thread, whatever it declares? Read from the texts
/// that hold a colon or start with a digit: the text of the element holding one, or of that
/// element's parent, when it has at most [`STANDING_NODES`] nodes, is a line.
pub fn shows_thread(doc: &Doc) -> bool {
    let end = doc.nodes.get(doc.body as usize).map_or(0, |n| n.end as usize);
    let small = |e: usize| doc.element(e as NodeId).is_some() && (doc.nodes[e].end as usize) - e <= STANDING_NODES;
    let line = |e: usize| Some(clean_value(&doc.text(e as NodeId))).filter(|t| !t.is_empty() && t.len() <= STANDING_BYTES);
    // The element after `e`'s subtree, past white space: a label's value.
    let next = |e: usize| {
        let after = doc.nodes[e].end as usize;
        (after..end.min(after + 3)).find(|&j| doc.element(j as NodeId).is_some()).filter(|&j| small(j)).and_then(line)
    };
    let (mut found, mut last) = (0, usize::MAX);
    for i in doc.body as usize..end {
        let NodeData::Text(t) = &doc.nodes[i].data else { continue };
        if !(t.contains(':') || t.trim_start().starts_with(|c: char| c.is_ascii_digit())) {
            continue;
        }
        let parent = doc.nodes[i].parent.map(|p| p as usize);
        for e in parent.into_iter().chain(parent.and_then(|p| doc.nodes[p].parent).map(|g| g as usize)) {
            if e == last || !small(e) {
                continue;
            }
            let Some(text) = line(e) else { continue };
            if standing(&text, next(e).as_deref()) && !byline::in_comments(doc, e as NodeId) {
                found += 1;
                last = e;
                break;
            }
        }
        if found >= 2 {
            return true;
        }
    }
    false
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
    fn a_listed_storys_byline_and_date_are_not_the_pages() {
        let related = "<ul><li><a href=/a>Dems</a> <span class=date>(2/21/2000)</span> <p class=byline>by Bo Chen</p></li>\
             <li><a href=/b>Call In Powell</a> <span class=date>(8/14/2000)</span> <p class=byline>by Cy Diaz</p></li></ul>";
        let page = |own: &str| crate::clean::page(&format!("<body><h1>Bridge</h1>{own}<p>Text.</p>{related}</body>"));
        assert_eq!(shown(&page("")), (None, None));
        let own = "<p class=byline>by Ann Lee</p><span class=date>May 1, 2024</span>";
        assert_eq!(shown(&page(own)), (Some("Ann Lee".into()), Some("2024-05-01".into())));
        // A list of one item is no list.
        let one = crate::clean::page("<body><ul><li><span class=date>May 1, 2024</span></li></ul></body>");
        assert_eq!(shown(&one).1.as_deref(), Some("2024-05-01"));
    }

    #[test]
    fn a_byline_is_found_by_a_compound_class_or_as_a_plain_line_under_the_headline() {
        let page = |body: &str| shown(&crate::clean::page(&format!("<body>{body}</body>")));
        let story = "<p>The bridge over the river reopened on Monday after two years of repairs and delays.</p>";
        // A class word that ends with a byline word; a role after a dash is no part of the name.
        let compound = format!("<h1>Bridge</h1><h3 class=newsByLine>By <a href=/a>Ann Lee</a> - Managing Editor</h3>{story}");
        assert_eq!(page(&compound).0.as_deref(), Some("Ann Lee"));
        // A line that is only `by` and a name, between the headline and the story.
        assert_eq!(page(&format!("<h1>Bridge</h1><p>by <b>Bo Chen</b></p>{story}")).0.as_deref(), Some("Bo Chen"));
        // Not before the headline (a menu's "By Team Size"), nor after the story began.
        assert_eq!(page(&format!("<p>By Team Size</p><h1>Bridge</h1>{story}")).0, None);
        assert_eq!(page(&format!("<h1>Bridge</h1>{story}<p>by Cy Diaz</p>")).0, None);
        // A sentence or a label under a byline's class is no name.
        assert_eq!(page(&format!("<h1>Bridge</h1><p class=byline>Tell us what you think</p>{story}")).0, None);
        assert_eq!(page(&format!("<h1>Bridge</h1><p class=postAuthor>Topic Author</p>{story}")).0, None);
    }

    #[test]
    fn a_thread_is_shown_by_its_users_standings_outside_reader_comments() {
        let post = |who: &str, standing: &str| {
            format!("<div class=post><dl><dt>{who}</dt>{standing}</dl><p>The chain skips on the climb since I fitted the cassette.</p></div>")
        };
        let page = |body: &str| crate::clean::page(&format!("<body><h1>Chain skips</h1>{body}</body>"));
        let thread = page(&(post("ann", "<dd><b>Posts:</b> 65,703</dd>") + &post("bo", "<dd>Messages:</dd><dd>1,046</dd>")));
        assert!(shows_thread(&thread));
        assert_eq!(super::super::page_type(&super::super::read(&thread), None), Some(super::super::PageType::Forum));
        // One standing is no thread; nor are a story's reader comments with their authors' counts.
        assert!(!shows_thread(&page(&post("ann", "<dd>Posts: 12</dd>"))));
        let comments = "<div id=comments><div class=comment><b>cy</b> 108 posts | registered Jan 18, 2011</div>\
                        <div class=comment><b>di</b> 362 posts | registered Nov 4, 2011</div></div>";
        assert!(!shows_thread(&page(&format!("<p>The bridge reopened on Monday after two years of repairs.</p>{comments}"))));
        assert!(standing("410 posts · Joined 2002", None) && standing("Join Date: Aug 2008", None) && !standing("Posts: many", None));
    }

    #[test]
    fn a_date_is_found_by_a_compound_class_that_ends_with_a_capitalized_date_word() {
        let page = |body: &str| shown(&crate::clean::page(&format!("<body>{body}</body>"))).1;
        let story = "<p>The bridge over the river reopened on Monday after two years of repairs and delays.</p>";
        // Above a story with no headline (a page of 2005: the date stamp of a news item).
        let stamp = format!("<p class=NewsDate>12/28/2005 3:13:17 PM, by Hannibal</p>{story}");
        assert_eq!(page(&stamp).as_deref(), Some("2005-12-28"));
        assert_eq!(page(&format!("<p id=postDate>Dec 31, 2025, 9:37 PM</p>{story}")).as_deref(), Some("2025-12-31"));
        // A word that only ends with the letters of one is no date word (`update`, `candidate`).
        assert_eq!(page(&format!("{story}<div class=update>May 1, 2024</div>")), None);
        assert_eq!(page(&format!("{story}<div class=candidate>May 1, 2024</div>")), None);
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
