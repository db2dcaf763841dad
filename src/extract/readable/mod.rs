//! Readable: the single-page article extractor. It finds the main article of one page with no
//! knowledge of its site, on the cleaned tree ([`Doc`]), in a few loops over the flat arena
//! (no recursion), and returns the selected elements with a cut mask so that the text and
//! every renderer give the same article.
//!
//! Mechanisms, one sentence each (all but the first can be turned off in [`Options`], for
//! ablation: `single-page-no-<name>` in the bench):
//! - **paragraphs**: a block of at least 25 columns of text (a CJK character is two columns
//!   wide), at most a third of it link text, is a paragraph (a text of one word said over
//!   and over, a script's font probe, counts no columns); an element's score is its
//!   paragraph columns less its boilerplate columns, and the root is the element scoring best.
//! - **classes**: class/id words (split on `-`, `_`, camelCase; utility CSS left out) for
//!   navigation, sharing, related links, bylines, captions, ads, … (and the tags `nav`,
//!   `aside`, `footer`, `form`, `figcaption`) mark boilerplate regions, given back largest
//!   first while they would leave under 15% of the page's paragraphs outside them (a dialog,
//!   `role=dialog` or `aria-modal`, never: it is shown over the page), and words
//!   such as article, body, content, entry, post raise a block's score.
//! - **teasers**: an element most of whose children (three or more) are teasers, a headline
//!   link over a summary, is a boilerplate region (lists of other stories); not a data table's
//!   rows (a table with header cells: a link, then what it is for).
//! - **landmarks**: `article`, `main`, `role=main` and `itemprop=articleBody` raise a block's
//!   score.
//! - **hidden**: hidden elements (`hidden`, `display:none`, hiding classes, and `aria-hidden`
//!   on a boilerplate region: a closed drawer, menu or dialog) are boilerplate, so a hidden
//!   duplicate of the article is never taken; `aria-hidden` alone hides from screen readers,
//!   not from the eye, so shown content under it stays. A page whose visible article is
//!   empty, or thin beside the text it hides in its `main` or `article`, shows that text by
//!   script: it is read.
//! - **panels**: a hidden panel the reader opens with a control of the page (a tab panel, an
//!   accordion's region labelled by its trigger or named so by its class, an element a
//!   control names in `aria-controls` or `data-target`, the element right after a control
//!   marked `aria-expanded`, a segment a streaming renderer moves into place) is content, not
//!   a hidden duplicate.
//! - **siblings**: a sibling of the root that scores at least a fifth of it, or is a clean
//!   paragraph, joins the selection, and so do the lists and tables between two that join.
//! - **prune**: boilerplate regions inside the selection are cut, unless they hold most of its
//!   paragraphs.
//! - **link-blocks**: blocks of the selection that are mostly link text are cut, unless they
//!   make most of it (a page of links).
//! - **quotes**: a quote whose lines all stand, word for word, earlier in the selection (a
//!   reply quoting a post the thread shows) is cut, with its attribution line.
//! - **copies**: a run of two or more lines that repeats, word for word, an article's worth
//!   (500 bytes of words) of the selection's earlier lines is cut (a reply's preview of the
//!   post it answers, a section rendered a second time for another screen).
//! - **kinds**: a page that declares itself documentation (schema.org `TechArticle`,
//!   `APIReference`) or stands under a documentation path or host (`/docs/`, `docs.`) keeps its
//!   link blocks: there a list of links is content (an API's index, a see-also list). A page
//!   that declares itself a discussion (`DiscussionForumPosting`, `QAPage`) cuts copies of any
//!   size, a line alone too: there posts quote and preview one another and repeat their
//!   signatures, where elsewhere repeated lines are often a card's fine print. On a page whose comment regions the cleaner kept as its
//!   content (a discussion), words naming comments mark no boilerplate. A page that declares
//!   itself an article is not widened to its `main` landmark (mechanism `main`).
//! - **cards**: in a thread, the furniture of each post is cut: its user's card (found by two or
//!   more lines of a user's standing, `Posts: 1,077`, `Joined: Aug 2008`: the largest element
//!   around each that holds no paragraph and about 35 words at most) and, in a thread so shown
//!   or declared, each post's signature (an element whose class or id names one). Cut from the
//!   text only: the selection is made as before.
//! - **header**: before the first sentence of the body only headings are kept (bylines,
//!   dates and share lines go).
//! - **tail**: the selection is cut at a line that ends articles ("Related", "More from",
//!   "Share this", … in en, de, fr, es, it, pt, nl; not a table cell's or code's line) once
//!   most of the body is behind it, and lone notices ("Advertisement", "Story continues
//!   below") are cut wherever they stand.
//! - **headline**: the element best matching `<title>` (else the nearest `h1` before the
//!   selection) is put first, and what stands before it in the selection's header goes.
//! - **stories**: when the selection holds several `article` elements of an article's length
//!   each (pages that load the next story below), only the one holding the headline is kept.
//! - **listing**: a page whose best block holds under 500 columns of paragraphs and under
//!   half of the page's (or under a tenth of the page's visible text, with no headline before
//!   it or beside a list that is two thirds of the headline's section: a page of linked
//!   cards, a listing under its heading and introduction) has no article (a product list, an
//!   index); the selection is then the deepest element holding most of the page's text
//!   outside boilerplate, links kept, teaser lists included, and regions named for other
//!   items (related, recommended, more, …) too when the rest holds less than 500 columns (a
//!   shop theme that puts its product grid in `section.related-product`).
//! - **sections**: a page whose best block holds under half of its paragraphs (a service or
//!   landing page, its text spread over sections) gives the nearest element above it that
//!   holds most of them.
//! - **main**: on a page that does not declare itself an article, a selection holding under
//!   half of the text of the page's one `main` landmark (a `main` element, or `role=main`),
//!   and not the page's first `h1`, gives the landmark: the page's author marked it as the
//!   content, and the selection is one of its parts (a service page's sections, a listing's
//!   groups of items). A selection holding the headline is the article it heads.
//! - **description**: a page that shows no article (its posts written by scripts) and less
//!   text than the description it declares gives that description (rule `description`).

mod classes;
mod score;
mod trim;

use crate::clean::{Doc, NodeId};
use crate::{Error, Result};
use score::Facts;

/// The article found on one page by the single-page extractor.
#[derive(Debug, Clone, Default)]
pub struct Readable {
    /// The selected elements (outermost, document order).
    pub nodes: Vec<NodeId>,
    /// Per node of the page: cut inside the selection (empty = nothing cut).
    pub skip: Vec<bool>,
    /// The headline element when it stands outside `nodes` and is put first.
    pub headline: Option<NodeId>,
    /// Readable text: headline first (if any), then the body.
    pub text: String,
    /// How article-like the result is: the selection's paragraph columns less its boilerplate
    /// columns (0 when nothing was found).
    pub score: f64,
}

/// Which mechanisms run (all on by default); see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Class/id words mark boilerplate regions and article blocks.
    pub classes: bool,
    /// Teaser lists (headline link over a summary, repeated) are boilerplate regions.
    pub teasers: bool,
    /// Semantic landmarks raise a block's score.
    pub landmarks: bool,
    /// Hidden elements are boilerplate.
    pub hidden: bool,
    /// Hidden panels the reader opens (tabs, accordions, streamed segments) are not.
    pub panels: bool,
    /// Siblings of the root may join it.
    pub siblings: bool,
    /// Boilerplate regions inside the selection are cut.
    pub prune: bool,
    /// Link-dense blocks inside the selection are cut.
    pub link_blocks: bool,
    /// A quote whose lines the selection already holds is cut.
    pub quotes: bool,
    /// A run of lines repeating an article's worth of the selection's earlier text is cut.
    pub copies: bool,
    /// Fewest bytes of words a run of repeated lines holds to be cut as a copy: an article's
    /// worth ([`ARTICLE_MIN`]), so a card's recurring fine print stays; none on a discussion,
    /// where posts quote and preview one another (set by `kinds`).
    pub copy_bytes: usize,
    /// Fewest lines a run of repeated lines holds to be cut as a copy: two, so that a line
    /// that recurs alone (a card's label, a quoted phrase) stays; one on a discussion, where a
    /// line alone repeated is a one-paragraph preview of the post a reply answers, or a
    /// signature under every post (set by `kinds`).
    pub copy_lines: usize,
    /// The page's kind adapts the mechanisms: documentation keeps its lists of links, a
    /// discussion cuts copies of any size, a declared article is not widened to its `main`
    /// landmark (applied by [`crate::extract::SinglePage`], which knows the page), and on a
    /// page the cleaner found to be a discussion ([`crate::clean::Doc::discussion`]) words
    /// naming comments mark no boilerplate.
    pub kinds: bool,
    /// In a thread, each post's signature and its user's card (`Posts: 1,077`) are cut.
    pub cards: bool,
    /// The page is a discussion (set by `kinds`): its posts' signatures are cut, and a line
    /// naming comments ends nothing (the replies it heads are posts).
    pub thread: bool,
    /// Only headings are kept before the body's first sentence.
    pub header: bool,
    /// The selection is cut at a terminator line in its tail.
    pub tail: bool,
    /// The headline is put first.
    pub headline: bool,
    /// Of several full `article` elements, only the one holding the headline is kept.
    pub stories: bool,
    /// A page without an article gives the deepest element holding most of its text.
    pub listing: bool,
    /// A page whose paragraphs are spread over sections gives the element holding most.
    pub sections: bool,
    /// A page showing no article and less text than its declared description gives that description.
    pub description: bool,
    /// A selection holding under half of the text of the page's one `main` landmark, and not
    /// the page's first `h1`, gives the landmark; off on a page that declares itself an
    /// article (set by `kinds`).
    pub main: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            classes: true,
            teasers: true,
            landmarks: true,
            hidden: true,
            panels: true,
            siblings: true,
            prune: true,
            link_blocks: true,
            quotes: true,
            copies: true,
            copy_bytes: ARTICLE_MIN as usize,
            copy_lines: 2,
            kinds: true,
            cards: true,
            thread: false,
            header: true,
            tail: true,
            headline: true,
            stories: true,
            listing: true,
            sections: true,
            description: true,
            main: true,
        }
    }
}

/// The mechanisms `single-page-no-<name>` turns off (ablation).
pub const MECHANISMS: &[&str] =
    &["classes", "teasers", "landmarks", "hidden", "panels", "siblings", "prune", "link-blocks", "quotes", "copies", "kinds", "cards", "header", "tail", "headline", "stories", "listing", "sections", "description", "main"];

impl Options {
    /// These options with mechanism `name` (one of [`MECHANISMS`]) turned off.
    ///
    /// # Errors
    /// [`Error::Invalid`] for an unknown mechanism.
    pub fn without(mut self, name: &str) -> Result<Options> {
        match name {
            "classes" => self.classes = false,
            "teasers" => self.teasers = false,
            "landmarks" => self.landmarks = false,
            "hidden" => self.hidden = false,
            "panels" => self.panels = false,
            "siblings" => self.siblings = false,
            "prune" => self.prune = false,
            "link-blocks" => self.link_blocks = false,
            "quotes" => self.quotes = false,
            "copies" => self.copies = false,
            "kinds" => self.kinds = false,
            "cards" => self.cards = false,
            "header" => self.header = false,
            "tail" => self.tail = false,
            "headline" => self.headline = false,
            "stories" => self.stories = false,
            "listing" => self.listing = false,
            "sections" => self.sections = false,
            "description" => self.description = false,
            "main" => self.main = false,
            _ => return Err(Error::Invalid(format!("unknown mechanism {name:?}; known: {}", MECHANISMS.join(", ")))),
        }
        Ok(self)
    }
}

/// The article of `doc`, with every mechanism on.
///
/// # Example
/// ```
/// let body = "The committee met for six hours on Tuesday and agreed on a plan. ".repeat(4);
/// let html = format!(
///     "<html><head><title>Plan agreed - Gazette</title></head><body>\
///      <nav><a href=/>Home</a> <a href=/news>News</a></nav>\
///      <h1>Plan agreed</h1><div class=story><p>{body}</p><p>{body}</p></div>\
///      <footer>Copyright Gazette</footer></body></html>");
/// let article = forest::extract::readable::extract(&forest::clean::page(&html));
/// assert!(article.text.starts_with("Plan agreed\n\nThe committee met"));
/// assert!(!article.text.contains("Copyright"));
/// ```
pub fn extract(doc: &Doc) -> Readable {
    extract_with(doc, &Options::default())
}

/// Fewest paragraph columns of an article (about 80 words; the cleaner's
/// [`crate::clean::ARTICLE_MIN_CHARS`], counted in columns): a page whose best block holds fewer
/// has no article, and the listing rule selects.
const ARTICLE_MIN: f32 = crate::clean::ARTICLE_MIN_CHARS as f32;
/// Fewest columns of an `h1` taken as the headline when none matches `<title>`.
const HEADLINE_MIN: u32 = 15;
/// "Most of the page": more than half.
const MOST_OF_PAGE: f32 = 0.5;
/// A list beside a thin block under a headline is the page's content (a listing) when it holds
/// at least this share of the text of the headline's section.
const LIST_OF_SECTION: f32 = 2.0 / 3.0;
/// Fewer words than this make a thin article: a page whose visible article is thin may show
/// its text by script ([`shown_if_all_hidden`]).
const THIN_WORDS: usize = 100;
/// The text a page hides in its landmark is its article when it is this many times the
/// visible one.
const SHOWN_RATIO: usize = 4;
/// A sibling joins the root when it scores at least this fraction of the root.
const SIBLING_SHARE: f32 = 0.2;

/// The article of `doc`, with the mechanisms `opts` turns on.
pub fn extract_with(doc: &Doc, opts: &Options) -> Readable {
    draft_with(doc, opts).readable(doc)
}

/// [`extract_with`], its text not yet written.
fn draft_with(doc: &Doc, opts: &Options) -> Draft {
    Analysis::new(doc, opts).draft()
}

/// `out`, or the selection made with hidden elements read when the page shows its text by
/// script: `out` has no text, or it is thin (under [`THIN_WORDS`]) while the text hidden in the
/// page's landmark (`main`, `article`) makes an article [`SHOWN_RATIO`] times its size (a
/// lockdown or a fade-in that scripts lift).
fn shown_if_all_hidden(doc: &Doc, opts: &Options, out: Draft) -> Draft {
    if !opts.hidden {
        return out;
    }
    let words = out.words(doc);
    if words >= THIN_WORDS {
        return out;
    }
    let shown = Options { hidden: false, ..*opts };
    let facts = Facts::new(doc, &shown);
    let read = select(doc, &shown, &facts);
    if words == 0 {
        return read;
    }
    let in_landmark = |i: NodeId| std::iter::once(i).chain(doc.ancestors(i)).any(|a| facts.verdict[a as usize].landmark);
    let landmark = !read.nodes.is_empty() && read.nodes.iter().all(|&i| in_landmark(i));
    if landmark && read.words(doc) >= SHOWN_RATIO * words { read } else { out }
}

/// An article chosen, its text not yet written: a caller that only compares selections (the
/// wrapper's cross-check) does not pay for the text.
#[derive(Debug, Clone, Default)]
pub(crate) struct Draft {
    /// As in [`Readable`].
    pub nodes: Vec<NodeId>,
    /// As in [`Readable`].
    pub skip: Vec<bool>,
    /// As in [`Readable`].
    pub headline: Option<NodeId>,
    /// As in [`Readable`].
    pub score: f64,
}

impl Draft {
    /// Would [`Draft::readable`] have any text?
    pub fn has_text(&self, doc: &Doc) -> bool {
        doc.has_text_masked(&self.nodes, &self.skip) || self.headline.is_some_and(|h| doc.has_text(&[h]))
    }

    /// Words of [`Draft::readable`]'s text.
    fn words(&self, doc: &Doc) -> usize {
        let head = self.headline.map_or(0, |h| doc.text(h).split_whitespace().count());
        head + doc.text_masked(&self.nodes, &self.skip).split_whitespace().count()
    }

    /// The article with its text: the headline (when it stands outside the selection) first.
    pub fn readable(self, doc: &Doc) -> Readable {
        let Draft { nodes, skip, headline, score } = self;
        let mut text = doc.text_masked(&nodes, &skip);
        if let Some(h) = headline {
            let title = doc.text(h);
            text = if text.is_empty() { title } else { format!("{title}\n\n{text}") };
        }
        Readable { nodes, skip, headline, text, score }
    }
}

/// The selection on a page whose facts are known.
fn select(doc: &Doc, opts: &Options, f: &Facts) -> Draft {
    let Some(body) = doc.nodes.get(doc.body as usize) else { return Draft::default() };
    let mut best: Option<(f32, usize)> = None;
    for i in doc.body as usize..body.end as usize {
        if f.junk[i] || f.text[i] {
            continue;
        }
        let s = f.score(i, opts);
        if best.is_none_or(|(b, _)| s >= b) && f.good[i] > 0.0 {
            best = Some((s, i));
        }
    }
    let nodes: Vec<NodeId> = match best {
        Some((_, root)) if opts.siblings => siblings(doc, f, opts, root),
        Some((_, root)) => vec![root as NodeId],
        None => Vec::new(),
    };
    // A page whose best block holds few paragraphs, and a minority of the page's, has no
    // article (a product list, an index): the listing rule selects, teasers being the
    // content there.
    let sel_good: f32 = nodes.iter().map(|&n| f.good[n as usize]).sum();
    let page_good = f.good0.get(doc.body as usize).copied().unwrap_or(0.0);
    let page_text = f.width.get(doc.body as usize).copied().unwrap_or(0) as f32;
    let minority = sel_good < MOST_OF_PAGE * page_good;
    let thin = !nodes.is_empty() && sel_good * 10.0 < page_text;
    if opts.listing && sel_good < ARTICLE_MIN && (minority || thin) {
        let f = &Facts::of_listing(doc, opts);
        let l = listing(doc, f);
        // A thin block under a headline is a short article when the list beside it is only a
        // part of the headline's section (links to other stories), and the introduction of a
        // listing when the list is nearly all of that section.
        let introduces = |x: NodeId| match opts.headline.then(|| headline(doc, f, &nodes)).flatten() {
            None => true,
            Some(h) => std::iter::once(x)
                .chain(doc.ancestors(x))
                .find(|&a| doc.contains(a, h))
                .is_some_and(|a| f.kept[x as usize] >= LIST_OF_SECTION * f.kept[a as usize]),
        };
        if l.first().is_some_and(|&x| minority || introduces(x)) {
            return finish(doc, opts, f, l, true);
        }
    }
    // A page whose paragraphs are spread over sections (a service or landing page), the best
    // of which holds under half of them, gives the nearest element above the selection that
    // holds most of them.
    let good = f.good.get(doc.body as usize).copied().unwrap_or(0.0);
    if opts.sections && sel_good < MOST_OF_PAGE * good {
        if let Some(wide) = nodes.first().and_then(|&n| doc.ancestors(n).find(|&a| f.good[a as usize] > MOST_OF_PAGE * good)) {
            return finish(doc, opts, f, vec![wide], false);
        }
    }
    // A selection holding under half of the text of the page's `main` landmark, on a page
    // that is not an article, is one part of what the page's author marked as its content (a
    // service page's sections, a listing's groups): the landmark is given. A selection that
    // holds the page's first `h1` is the article that headline heads, and stays.
    let holder = |m: NodeId| !f.junk[m as usize] && !nodes.contains(&m) && nodes.iter().all(|&n| doc.contains(m, n));
    if let Some(m) = opts.main.then(|| main_landmark(doc)).flatten().filter(|&m| holder(m)) {
        let sel_kept: f32 = nodes.iter().map(|&n| f.kept[n as usize]).sum();
        let h1 = (doc.body..doc.nodes.len() as NodeId).find(|&i| doc.element(i).is_some_and(|e| e.name == "h1"));
        let headed = h1.is_some_and(|h| nodes.iter().any(|&n| doc.contains(n, h)));
        if !headed && sel_kept < MOST_OF_PAGE * f.kept[m as usize] {
            return finish(doc, opts, f, vec![m], false);
        }
    }
    finish(doc, opts, f, nodes, false)
}

/// The page's `main` landmark: its one `main` element or element whose `role` is `main`
/// (none when it has several, as a page that nests one page's layout in another's may).
fn main_landmark(doc: &Doc) -> Option<NodeId> {
    let mut found = None;
    for i in doc.body..doc.nodes.len() as NodeId {
        let Some(e) = doc.element(i) else { continue };
        if e.name == "main" || e.attr("role").is_some_and(|r| r.trim().eq_ignore_ascii_case("main")) {
            if found.is_some() {
                return None;
            }
            found = Some(i);
        }
    }
    found
}

/// The readable result of selection `nodes` (`listed`: chosen by the listing rule).
fn finish(doc: &Doc, opts: &Options, f: &Facts, mut nodes: Vec<NodeId>, listed: bool) -> Draft {
    if nodes.is_empty() {
        return Draft::default();
    }
    // In a listing, links are the content.
    let trims = Options { link_blocks: opts.link_blocks && !listed, ..*opts };
    let title = if opts.headline { headline(doc, f, &nodes) } else { None };
    if let (Some(h), true, false) = (title, opts.stories, listed) {
        if let Some(a) = one_of_several_articles(doc, f, &nodes, h) {
            nodes = vec![a];
        }
    }
    let inside = title.filter(|&h| nodes.iter().any(|&n| doc.contains(n, h)));
    let mut skip = trim::mask(doc, f, &nodes, &trims, inside);
    let mut headline = None;
    if let Some(h) = inside {
        // The headline stays, whatever was cut around it.
        let end = doc.nodes[h as usize].end as usize;
        if let Some(s) = skip.get_mut(h as usize..end) {
            s.iter_mut().for_each(|x| *x = false);
        }
        for a in doc.ancestors(h) {
            if let Some(x) = skip.get_mut(a as usize) {
                *x = false;
            }
        }
    } else if let Some(h) = title.filter(|&h| nodes.first().is_some_and(|&first| h < first)) {
        headline = Some(h);
    }
    if !skip.iter().any(|&s| s) {
        skip.clear();
    }
    let score = nodes.iter().map(|&n| f.score(n as usize, opts) as f64).sum::<f64>().max(0.0);
    Draft { nodes, skip, headline, score }
}

/// The page's headline: the element best matching `<title>` ([`crate::extract::headline`]),
/// else the last `h1` of at least [`HEADLINE_MIN`] columns outside boilerplate before the
/// selection, else the first such `h1` inside it.
fn headline(doc: &Doc, f: &Facts, nodes: &[NodeId]) -> Option<NodeId> {
    let first = *nodes.first()?;
    let end = nodes.last().and_then(|&l| doc.nodes.get(l as usize)).map_or(first, |n| n.end);
    // Only headlines before or inside the selection are used: the search stops at its end.
    if let Some(h) = crate::extract::headline_before(doc, end) {
        return Some(h);
    }
    let h1 = |i: NodeId| {
        !f.junk[i as usize] && f.width[i as usize] >= HEADLINE_MIN && doc.element(i).is_some_and(|e| e.name == "h1")
    };
    (doc.body..first).rev().find(|&i| h1(i)).or_else(|| (first..end).find(|&i| h1(i)))
}

/// When the selection holds several `article` elements with an article's worth of paragraphs
/// each (pages that load the next story below), the one holding the headline `h`.
fn one_of_several_articles(doc: &Doc, f: &Facts, nodes: &[NodeId], h: NodeId) -> Option<NodeId> {
    let mut found: Vec<NodeId> = Vec::new();
    for &r in nodes {
        let end = doc.end(r);
        let mut i = r;
        while i < end {
            let big = f.good[i as usize] >= ARTICLE_MIN && doc.element(i).is_some_and(|e| e.name == "article");
            if big && !f.junk[i as usize] {
                found.push(i);
                i = doc.nodes[i as usize].end;
            } else {
                i += 1;
            }
        }
    }
    if found.len() < 2 {
        return None;
    }
    found.into_iter().find(|&a| doc.contains(a, h))
}

/// The root and the siblings that join it, in document order: those that score near it or are
/// clean paragraphs, and the lists and tables between two of them (a reading list among the
/// article's paragraphs is part of it).
fn siblings(doc: &Doc, f: &Facts, opts: &Options, root: usize) -> Vec<NodeId> {
    let Some(parent) = doc.nodes[root].parent else { return vec![root as NodeId] };
    let top = f.score(root, opts);
    let children: Vec<NodeId> = doc.children(parent).collect();
    let joins: Vec<bool> = children
        .iter()
        .map(|&s| {
            let i = s as usize;
            i == root
                || (!f.junk[i]
                    && !f.text[i]
                    && f.good[i] > 0.0
                    && (f.score(i, opts) >= SIBLING_SHARE * top || clean_paragraph(f, i)))
        })
        .collect();
    let list = |i: usize| {
        !f.junk[i] && doc.element(i as NodeId).is_some_and(|e| matches!(e.name.as_str(), "ul" | "ol" | "dl" | "table"))
    };
    let (Some(first), Some(last)) = (joins.iter().position(|&j| j), joins.iter().rposition(|&j| j)) else {
        return vec![root as NodeId];
    };
    (first..=last).filter(|&k| joins[k] || list(children[k] as usize)).map(|k| children[k]).collect()
}

/// A paragraph with almost no links: at least 80 columns, under a quarter link text.
fn clean_paragraph(f: &Facts, i: usize) -> bool {
    f.para[i] && f.own[i] >= 80 && f.own_link[i] * 4 < f.own[i] && f.width[i] == f.own[i]
}

/// The deepest element holding most of the page's text outside boilerplate.
fn listing(doc: &Doc, f: &Facts) -> Vec<NodeId> {
    let Some(body) = doc.nodes.get(doc.body as usize) else { return Vec::new() };
    let total = f.kept[doc.body as usize];
    let mut best: Option<usize> = None;
    for i in doc.body as usize..body.end as usize {
        if f.junk[i] || f.text[i] || f.kept[i] <= MOST_OF_PAGE * total {
            continue;
        }
        if best.is_none_or(|b| doc.nodes[i].level > doc.nodes[b].level) {
            best = Some(i);
        }
    }
    best.map(|b| vec![b as NodeId]).unwrap_or_default()
}

/// Article-likeness of the block rooted at `node`: its paragraph columns (raised for article
/// words and landmarks) less its boilerplate columns (link text, boilerplate regions, short
/// lines); comparable across blocks of one page. 0 for a node that is not on the page.
///
/// Each call gathers the page's facts (a few passes over the page); to rank several blocks
/// of one page, [`article_scores`] gathers them once.
pub fn article_score(doc: &Doc, node: NodeId) -> f64 {
    article_scores(doc, &[node]).first().copied().unwrap_or(0.0)
}

/// [`article_score`] of each of `nodes`, the page's facts gathered once.
pub fn article_scores(doc: &Doc, nodes: &[NodeId]) -> Vec<f64> {
    let opts = Options::default();
    let f = Facts::new(doc, &opts);
    nodes
        .iter()
        .map(|&n| if (n as usize) < doc.nodes.len() { f.score(n as usize, &opts) as f64 } else { 0.0 })
        .collect()
}

/// A page analysed once by the single-page extractor, so that its article and its cuts of
/// another extractor's selection (a wrapper's block) come from the same facts.
pub struct Analysis<'d> {
    doc: &'d Doc,
    opts: Options,
    facts: Facts,
}

impl<'d> Analysis<'d> {
    /// Analyse `doc` with the mechanisms `opts` turns on.
    pub fn new(doc: &'d Doc, opts: &Options) -> Analysis<'d> {
        Analysis { doc, opts: *opts, facts: Facts::new(doc, opts) }
    }

    /// The page's article (as [`extract_with`]).
    pub fn extract(&self) -> Readable {
        self.draft().readable(self.doc)
    }

    /// [`Analysis::extract`], its text not yet written.
    pub(crate) fn draft(&self) -> Draft {
        shown_if_all_hidden(self.doc, &self.opts, select(self.doc, &self.opts, &self.facts))
    }

    /// The single-page extractor's cuts over another extractor's selection `nodes`:
    /// boilerplate regions by class words, the header zone and the tail after a terminator
    /// line, what a site's template cannot see (per-article bylines, dates, share lines,
    /// related links); one flag per node. Link blocks are left to the caller. `headline` is
    /// the headline when it stands inside the selection.
    pub fn trim(&self, nodes: &[NodeId], headline: Option<NodeId>) -> Vec<bool> {
        let opts = Options { link_blocks: false, ..self.opts };
        trim::mask(self.doc, &self.facts, nodes, &opts, headline)
    }
}

#[cfg(test)]
mod tests;
