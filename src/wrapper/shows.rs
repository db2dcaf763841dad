//! Where a site shows its byline and its date, learned from its sample pages: for each, the
//! element type whose first element on a page shows the page's own value
//! ([`crate::metadata::shows`]) on the most sample pages, kept when that is at least two pages
//! and at least half of those that give a value. A wrapper keeps the type as an XPath (as it
//! keeps its article's: a person may edit it), and reads it on a page of the site that neither
//! declares a byline or date nor shows one where its markup names it. (The FiveFilters export
//! looks for its `author:` and `date:` lines its own way: a FiveFilters reader takes an
//! element's whole text as the author, where forest reads the names in it.)

use crate::clean::{Doc, NodeId};
use crate::metadata::shows;
use crate::patterns::{ElementType, Tokens, Typer, Typing};
use crate::xpath::{CompiledPath, Meter, Selector};
use crate::{Page, Result};
use serde::{Deserialize, Serialize};

/// The XPaths of the elements that show a site's byline and date.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shows {
    /// The element that shows the byline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub byline: Option<String>,
    /// The element that shows the publication date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

impl Shows {
    /// Nothing learned.
    pub fn is_empty(&self) -> bool {
        self.byline.is_none() && self.date.is_none()
    }
}

/// What one sample page shows: the types of the elements that are the first of their type and
/// show its byline, and those that show its date (each with what its XPath's attribute tests
/// need), and whether it gives a byline and a date at all.
#[derive(Debug, Clone, Default)]
pub struct PageShows {
    byline: Vec<(ElementType, Tokens)>,
    date: Vec<(ElementType, Tokens)>,
    gives_byline: bool,
    gives_date: bool,
}

impl PageShows {
    /// What `page` shows of the byline and date it gives ([`shows::known`]).
    pub fn of(page: &Page) -> PageShows {
        let doc = &page.doc;
        let (name, day) = shows::known(doc, Some(&page.location));
        let typer = Typer::new(doc, Typing::Anchored);
        let byline = name.as_deref().map(|n| firsts(&typer, shows::byline_holders(doc, n))).unwrap_or_default();
        let date = day.as_deref().map(|d| firsts(&typer, shows::date_holders(doc, d))).unwrap_or_default();
        PageShows { byline, date, gives_byline: name.is_some(), gives_date: day.is_some() }
    }
}

/// The types of `holders` whose XPath's first element on the page (outside reader comments)
/// is the holder: what the XPath reads on a page is its first element.
fn firsts(typer: &Typer<'_, Doc>, holders: Vec<NodeId>) -> Vec<(ElementType, Tokens)> {
    let doc = typer.doc();
    let mut out: Vec<(ElementType, Tokens)> = Vec::new();
    for h in holders {
        let Some(ty) = typer.of(h).map(|t| t.portable()) else { continue };
        let tokens = Tokens::near(doc, h);
        let Some(path) = CompiledPath::parse(&super::xpath_with(&ty, &[], tokens)) else { continue };
        if !out.iter().any(|(t, _)| *t == ty) && shows::first_shown(doc, &doc.outermost(path.select(doc))) == Some(h) {
            out.push((ty, tokens));
        }
    }
    out
}

/// Where the sample `pages` show their byline and their date ([`Shows`]).
pub fn learn(pages: &[PageShows]) -> Shows {
    let byline = best(pages.iter().map(|p| (p.gives_byline, p.byline.as_slice())));
    let date = best(pages.iter().map(|p| (p.gives_date, p.date.as_slice())));
    Shows { byline, date }
}

/// The XPath of the type that shows its page's value on the most pages (the first met on a
/// tie), when that is at least two pages and at least half of the pages that give a value.
fn best<'a>(pages: impl Iterator<Item = (bool, &'a [(ElementType, Tokens)])>) -> Option<String> {
    let mut counts: Vec<(&ElementType, Tokens, usize)> = Vec::new();
    let mut giving = 0;
    for (gives, types) in pages {
        giving += usize::from(gives);
        for (ty, tokens) in types {
            match counts.iter_mut().find(|(t, _, _)| *t == ty) {
                Some((_, tk, n)) => {
                    *tk = tk.or(*tokens);
                    *n += 1;
                }
                None => counts.push((ty, *tokens, 1)),
            }
        }
    }
    let mut top: Option<&(&ElementType, Tokens, usize)> = None;
    for c in &counts {
        if top.is_none_or(|t| c.2 > t.2) {
            top = Some(c);
        }
    }
    let &(ty, tokens, n) = top?;
    (n >= 2 && 2 * n >= giving).then(|| super::xpath_with(ty, &[], tokens))
}

/// A wrapper's [`Shows`] made ready to read pages.
#[derive(Debug, Clone, Default)]
pub struct Readers {
    byline: Option<Selector>,
    date: Option<Selector>,
}

impl Readers {
    /// Ready the XPaths of `shows`.
    ///
    /// # Errors
    /// [`crate::Error::XPath`] when one does not compile ([`Selector::new`]).
    pub fn new(shows: &Shows) -> Result<Readers> {
        let ready = |x: &Option<String>| x.as_deref().map(Selector::new).transpose();
        Ok(Readers { byline: ready(&shows.byline)?, date: ready(&shows.date)? })
    }

    /// The byline and the date (ISO 8601) that `doc` shows where its site shows them: what
    /// the first element each XPath selects outside reader comments reads as.
    pub fn read(&self, doc: &Doc) -> (Option<String>, Option<String>) {
        let first = |s: &Option<Selector>| {
            let nodes = s.as_ref()?.elements(doc, &Meter::default()).ok()?;
            shows::first_shown(doc, &nodes)
        };
        let byline = first(&self.byline).and_then(|n| shows::byline_of(doc, n));
        let date = first(&self.date).and_then(|n| shows::date_of(doc, n));
        (byline, date)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(i: u32, who: &str, when: &str, related: &str) -> Page {
        Page::from_html(
            format!("https://news.example/story-{i}"),
            &format!(
                "<body><div class=story><h1>Story {i}</h1><p class=meta><span class=pen>{who}</span> \
                 <span class=stamp>{when}</span></p><p>The text of story {i}, long enough to read.</p></div>\
                 <ul class=related><li><span class=pen>{related}</span></li></ul></body>"
            ),
        )
        .unwrap()
    }

    #[test]
    fn a_site_shows_its_byline_and_date_in_the_same_element_on_every_page() {
        // The pages declare nothing: the first shows a byline line that names the author and
        // the date; the others show the same elements without it.
        let first = Page::from_html(
            "https://news.example/story-1",
            "<body><div class=story><h1>Story 1</h1><p class=meta><span class=pen>By Ann Lee</span> \
             <span class=stamp>May 1, 2024</span></p><p>The text of story 1.</p></div></body>",
        )
        .unwrap();
        let with_meta = |i: u32, who: &str, when: &str| {
            Page::from_html(
                format!("https://news.example/story-{i}"),
                &format!(
                    "<head><meta name=author content='{who}'><meta name=date content='{when}'></head>\
                     <body><div class=story><h1>Story {i}</h1><p class=meta><span class=pen>{who}</span> \
                     <span class=stamp>{when}</span></p><p>The text of story {i}.</p></div></body>"
                ),
            )
            .unwrap()
        };
        let pages = [first, with_meta(2, "Bo Chen", "2024-05-02"), with_meta(3, "Cy Diaz", "2024-05-03")];
        let shows = learn(&pages.iter().map(PageShows::of).collect::<Vec<_>>());
        let byline = shows.byline.clone().expect("a byline element");
        assert!(byline.contains("'pen'"), "{byline}");
        assert!(shows.date.as_deref().is_some_and(|d| d.contains("'stamp'")), "{shows:?}");
        // A page of the site that declares nothing and shows no byline line.
        let unseen = page(9, "Dee Eng", "June 9, 2024", "Other Author");
        let readers = Readers::new(&shows).unwrap();
        assert_eq!(readers.read(&unseen.doc), (Some("Dee Eng".into()), Some("2024-06-09".into())));
    }

    #[test]
    fn a_type_found_on_one_page_only_is_not_learned() {
        let pages = [page(1, "Ann Lee", "x", "Ann Lee"), page(2, "Bo Chen", "y", "Bo Chen")];
        // Neither page gives a byline of its own (no declaration, no byline class), so nothing
        // is shown of one.
        assert!(learn(&pages.iter().map(PageShows::of).collect::<Vec<_>>()).is_empty());
    }
}
