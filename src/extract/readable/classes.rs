//! What an element says about itself: the words of its `class` and `id` (split on `-`, `_`,
//! digits and camelCase; utility-CSS tokens such as `md:hidden`, `mx-auto` or `flex` left
//! out), its tag and ARIA role, and whether it is hidden. Also the lines that end an article
//! ("Related", "More from", "Share this", … in several languages).

use crate::clean::Element;
use crate::patterns::is_utility;

/// What the class/id words, tag and role of one element say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Verdict {
    /// A boilerplate word (navigation, share, related, byline, caption, ad, …), a boilerplate
    /// tag (`nav`, `aside`, `footer`, form controls) or role.
    pub boilerplate: bool,
    /// An article word (article, body, content, entry, post, story, text, …).
    pub article: bool,
    /// Boilerplate by item words alone (related, recommended, popular, more, promo, teaser,
    /// …: a region of other items): on a page with no article, its list is the content.
    pub items: bool,
    /// A semantic landmark of the main content: `article`, `main`, `role=main`,
    /// `itemprop=articleBody`.
    pub landmark: bool,
    /// An inline (phrasing) element: it does not start a block of text.
    pub inline: bool,
    /// Hidden from readers (see [`verdict`]).
    pub hidden: bool,
    /// A panel the reader opens with a control of the page, hidden until then: a tab panel
    /// (`role=tabpanel`), an accordion's region (`role=region` labelled by its trigger,
    /// `aria-labelledby`), an element a control names or follows ([`controlled_panels`]), or
    /// a segment a streaming renderer moves into place (`<div hidden id="S:…">`).
    pub panel: bool,
}

/// What a class/id word says: nothing, boilerplate, or article.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    None,
    Boilerplate,
    /// Boilerplate that names other items of the site (related, recommended, …).
    Items,
    Article,
}

/// The meaning of one lower-case class/id word; on a discussion, words naming comments say
/// nothing (there the comments are the content).
fn word(w: &[u8], discussion: bool) -> Word {
    match w {
        b"comment" | b"comments" | b"disqus" if discussion => Word::None,
        b"ad" | b"ads" | b"adslot" | b"adunit" | b"advert" | b"advertisement" | b"advertising" | b"adverts"
        | b"affiliate" | b"aside" | b"author" | b"banner" | b"bio" | b"breadcrumb" | b"breadcrumbs" | b"byline"
        | b"caption" | b"comment" | b"comments" | b"consent" | b"cookie" | b"cookies" | b"copyright" | b"credit"
        | b"credits" | b"dateline" | b"disclaimer" | b"disqus" | b"dropdown" | b"extras" | b"facebook" | b"follow"
        | b"footer" | b"footnotes" | b"gallery" | b"joined" | b"likes" | b"login" | b"masthead" | b"menu" | b"meta" | b"modal"
        | b"nav" | b"navbar" | b"navigation" | b"newsletter" | b"notices" | b"outbrain" | b"overlay" | b"pager"
        | b"pagination" | b"player" | b"playlist" | b"popover" | b"popup" | b"print" | b"privacy"
        | b"rail" | b"reputation" | b"reviews"
        | b"share" | b"sharebar" | b"shares" | b"sharing" | b"sidebar" | b"signup" | b"skip" | b"social"
        | b"sponsor" | b"sponsored" | b"subscribe" | b"subscription" | b"taboola" | b"tags"
        | b"terms" | b"timestamp" | b"toolbar" | b"tools" | b"topbar" | b"twitter" | b"userinfo" => Word::Boilerplate,
        b"more" | b"popular" | b"promo" | b"promoted" | b"promotion" | b"recirc" | b"recommended" | b"related" | b"teaser"
        | b"trending" => Word::Items,
        b"article" | b"articlebody" | b"blog" | b"body" | b"content" | b"entry" | b"hentry" | b"main" | b"post"
        | b"prose" | b"story" | b"text" => Word::Article,
        _ => Word::None,
    }
}

/// Call `f` with each lower-case ASCII word of one class name: split on anything not an ASCII
/// letter (`-`, `_`, digits) and before an upper-case letter that follows a lower-case one.
/// Words longer than any known word are passed over, and so is every word of a generated
/// segment (a run of letters and digits where a digit comes before a letter: `0ad7`, `jXK9ad`,
/// `adF2E`), which is a hash, not words.
fn each_word(name: &str, mut f: impl FnMut(&[u8])) {
    for segment in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let b = segment.as_bytes();
        if b.windows(2).any(|w| w[0].is_ascii_digit() && w[1].is_ascii_alphabetic()) {
            continue;
        }
        each_word_of(segment, &mut f);
    }
}

/// [`each_word`] within one segment of letters and digits.
fn each_word_of(name: &str, f: &mut impl FnMut(&[u8])) {
    let mut buf = [0u8; 16];
    let mut len = 0usize;
    let mut long = false;
    let mut prev_lower = false;
    for &c in name.as_bytes() {
        let letter = c.is_ascii_alphabetic();
        if (!letter || (c.is_ascii_uppercase() && prev_lower)) && (len > 0 || long) {
            if !long {
                f(&buf[..len]);
            }
            len = 0;
            long = false;
        }
        if letter {
            if len < buf.len() {
                buf[len] = c.to_ascii_lowercase();
                len += 1;
            } else {
                long = true;
            }
        }
        prev_lower = c.is_ascii_lowercase();
    }
    if len > 0 && !long {
        f(&buf[..len]);
    }
}

/// Class words of a panel the reader opens: hidden until a control of the page shows it.
const PANEL_WORDS: &[&[u8]] = &[b"accordion", b"collapse", b"collapsible", b"faq"];

/// With the word `user` in one class name, words of a user's card beside their post (a
/// forum's `userTitle`, `user-details`, `user-info`, `userStats`): not the post.
const USER_CARD_WORDS: &[&[u8]] = &[b"stats", b"title"];

/// What the names of one `class` (or `id`) value say.
#[derive(Debug, Clone, Copy, Default)]
pub struct Names {
    /// A name with a boilerplate word.
    bad: bool,
    /// A name with a boilerplate word other than an item word.
    hard: bool,
    /// A name with article words and no boilerplate word.
    good: bool,
    /// A hiding class.
    hidden: bool,
    /// A responsive display class that may show the element again.
    shown: bool,
    /// A name of a panel the reader opens ([`PANEL_WORDS`]: an accordion's, a collapsible's, an
    /// FAQ's).
    panel: bool,
}

impl Names {
    /// What the names of `value` say (`class`: utility classes are passed over and hiding
    /// classes are looked for).
    fn of(value: &str, class: bool, discussion: bool) -> Names {
        let mut out = Names::default();
        for name in value.split_ascii_whitespace() {
            if class {
                let n = name.as_bytes();
                if matches!(
                    n,
                    b"hidden" | b"hide" | b"d-none" | b"is-hidden" | b"visually-hidden" | b"sr-only" | b"screen-reader-text" | b"invisible"
                ) {
                    out.hidden = true;
                } else if n.contains(&b':') || (n.starts_with(b"d-") && n.len() > 2) {
                    out.shown = true;
                }
                if is_utility(name) {
                    continue;
                }
            }
            let (mut b, mut it, mut g, mut user, mut card) = (false, false, false, false, false);
            // `more` last, after an article word, is the rest of the article (`entry-more`, the
            // part of a post after its break), not more items: it counts once a word follows.
            let mut more = false;
            each_word(name, |w| {
                it |= std::mem::take(&mut more);
                match word(w, discussion) {
                    Word::Boilerplate => b = true,
                    Word::Items if w == b"more" && g => more = true,
                    Word::Items => it = true,
                    Word::Article => g = true,
                    Word::None => {
                        out.panel |= PANEL_WORDS.contains(&w);
                        user |= w == b"user";
                        card |= USER_CARD_WORDS.contains(&w);
                    }
                }
            });
            out.hard |= b || (user && card);
            out.bad |= b || it || (user && card);
            out.good |= g && !(b || it);
        }
        out
    }

    fn and(self, o: Names) -> Names {
        Names {
            bad: self.bad || o.bad,
            hard: self.hard || o.hard,
            good: self.good || o.good,
            hidden: self.hidden || o.hidden,
            shown: self.shown || o.shown,
            panel: self.panel || o.panel,
        }
    }
}

/// What each distinct `class` value says, computed once: a page repeats its classes many
/// times, and the pages of a site share most of theirs. A cache reads the classes of a
/// discussion, or those of any other page ([`word`]), never both.
#[derive(Debug, Default)]
pub struct Cache {
    names: std::collections::HashMap<Box<str>, Names, rustc_hash::FxBuildHasher>,
    discussion: bool,
}

impl Cache {
    /// An empty cache for the classes of a `discussion`, or of any other page.
    pub fn new(discussion: bool) -> Cache {
        Cache { discussion, ..Cache::default() }
    }
}

/// Most class values a thread's [`Cache`] holds; past it, it starts again empty.
const CACHE_MAX: usize = 1 << 14;

/// Run `f` with this thread's class cache for a `discussion` or another page (kept from page
/// to page, at most [`CACHE_MAX`] values).
pub fn with_cache<T>(discussion: bool, f: impl FnOnce(&mut Cache) -> T) -> T {
    thread_local! {
        static CACHE: std::cell::RefCell<[Cache; 2]> = std::cell::RefCell::new([Cache::new(false), Cache::new(true)]);
    }
    CACHE.with_borrow_mut(|caches| {
        let cache = &mut caches[usize::from(discussion)];
        if cache.names.len() > CACHE_MAX {
            cache.names.clear();
        }
        f(cache)
    })
}

/// What `e`'s class, id, tag, role, itemprop and visibility attributes say (one pass over
/// its attributes; class values through `cache`, which also says whether they are a
/// discussion's).
///
/// Hidden means: the `hidden` attribute, an inline style with `display:none` or
/// `visibility:hidden`, a hiding class (`hidden`, `d-none`, `sr-only`, …) without a responsive
/// variant that shows it again (`md:block`, `d-md-block`), or `aria-hidden="true"` on a
/// boilerplate element (on content it hides from screen readers only).
pub fn verdict(e: &Element, cache: &mut Cache) -> Verdict {
    let discussion = cache.discussion;
    let tag = e.name.as_str();
    let k = key(tag);
    let tag_boilerplate = BOILERPLATE_TAGS.contains(&k) || tag == "figcaption";
    let mut v = Verdict {
        boilerplate: tag_boilerplate,
        items: false,
        article: false,
        landmark: k == key("article") || k == key("main"),
        inline: INLINE.contains(&k),
        hidden: false,
        panel: false,
    };
    // A custom element names itself as a class does (`<site-footer>`, `<devsite-feedback>`).
    let custom = tag.contains('-');
    if e.attrs.is_empty() && !custom {
        return v;
    }
    // Votes of whole class names: a name with a boilerplate word votes boilerplate, a name
    // with only article words votes article; names that disagree cancel out.
    let mut names = if custom { Names::of(tag, false, discussion) } else { Names::default() };
    let (mut labelled, mut region, mut aria_hidden) = (false, false, false);
    for (name, val) in &e.attrs {
        if name == "aria-labelledby" {
            labelled = true;
            continue;
        }
        let attr = if name.len() <= 8 { key(name) } else if name == "aria-hidden" { ARIA_HIDDEN } else { 0 };
        match attr {
            CLASS => {
                let n = match cache.names.get(val.as_str()) {
                    Some(&n) => n,
                    None => {
                        let n = Names::of(val, true, discussion);
                        cache.names.insert(val.as_str().into(), n);
                        n
                    }
                };
                names = names.and(n);
            }
            ID => {
                names = names.and(Names::of(val, false, discussion));
                // A segment a streaming renderer (React's) moves into place by script.
                v.panel |= val.starts_with("S:") && val[2..].bytes().all(|b| b.is_ascii_digit());
            }
            ROLE => {
                let r = val.trim();
                let is = |x: &str| r.eq_ignore_ascii_case(x);
                if is("main") || is("article") {
                    v.landmark = true;
                } else if is("tabpanel") {
                    v.panel = true;
                } else if is("region") {
                    region = true;
                } else if ["navigation", "banner", "contentinfo", "complementary", "search", "dialog", "menu", "menubar", "toolbar", "alert"]
                    .iter()
                    .any(|x| is(x))
                {
                    v.boilerplate = true;
                }
            }
            ITEMPROP => {
                let p = val.trim();
                if ["articleBody", "reviewBody", "text"].iter().any(|x| p.eq_ignore_ascii_case(x)) {
                    v.landmark = true;
                }
            }
            HIDDEN => v.hidden = true,
            ARIA_HIDDEN => aria_hidden = val.trim().eq_ignore_ascii_case("true"),
            STYLE if contains_ci(val, "none") || contains_ci(val, "hidden") => {
                let s: String = val.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
                v.hidden |= s.contains("display:none") || s.contains("visibility:hidden");
            }
            _ => {}
        }
    }
    v.hidden |= names.hidden && !names.shown;
    v.panel |= (labelled && region) || names.panel;
    v.items = !v.boilerplate && names.bad && !names.hard && !names.good;
    v.boilerplate |= names.bad && !names.good;
    v.article = names.good && !names.bad;
    // `aria-hidden` hides from screen readers only: a closed drawer, menu or dialog is hidden
    // by it, content the page shows (a card's decorative copy) is not.
    v.hidden |= aria_hidden && v.boilerplate;
    // The page's own frame is never boilerplate by its classes.
    if k == key("html") || k == key("body") || v.landmark {
        v.boilerplate = tag_boilerplate;
        v.items = false;
    }
    v
}

/// Does `e`'s class or id name a signature (`post-signature`, `signaturecontainer`): the lines
/// a forum's user puts under each of their posts?
pub fn signature(e: &Element) -> bool {
    e.id_class().into_iter().flatten().any(|v| contains_ci(v, "signature"))
}

/// Does `hay` contain `needle` (lower-case ASCII), ignoring ASCII case?
fn contains_ci(hay: &str, needle: &str) -> bool {
    hay.as_bytes().windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// A tag name of up to 8 bytes packed into an integer (0 for longer names), so that tags are
/// compared as numbers.
pub const fn key(tag: &str) -> u64 {
    let b = tag.as_bytes();
    if b.len() > 8 {
        return 0;
    }
    let mut k = 0u64;
    let mut i = 0;
    while i < b.len() {
        k = (k << 8) | b[i] as u64;
        i += 1;
    }
    k
}

/// The keys of `tags`.
const fn keys<const N: usize>(tags: [&str; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = key(tags[i]);
        i += 1;
    }
    out
}

/// Keys of the attributes read.
const CLASS: u64 = key("class");
const ID: u64 = key("id");
const ROLE: u64 = key("role");
const ITEMPROP: u64 = key("itemprop");
const HIDDEN: u64 = key("hidden");
const STYLE: u64 = key("style");
/// `aria-hidden` is longer than a key: it gets one of its own (no 8-byte name packs to it).
const ARIA_HIDDEN: u64 = u64::MAX;

/// Inline (phrasing) tags.
const INLINE: [u64; 35] = keys(crate::clean::INLINE_TAGS);

/// Tags whose subtree is boilerplate: navigation, asides, page footers, forms and controls.
const BOILERPLATE_TAGS: [u64; 12] =
    keys(["nav", "aside", "footer", "button", "select", "option", "textarea", "input", "label", "dialog", "menu", "form"]);

/// Form controls: their text counts as link text.
const CONTROLS: [u64; 5] = keys(["button", "select", "option", "textarea", "label"]);

/// Mark as panels the elements of `doc` that a control of the page opens: those it names
/// (`aria-controls`, or Bootstrap's `data-target` / `data-bs-target` `#id`), and the element
/// right after a control marked `aria-expanded` (a disclosure's button, its content next to
/// it). `verdicts` has one entry per node of `doc`.
pub fn controlled_panels(doc: &crate::clean::Doc, verdicts: &mut [Verdict]) {
    use crate::clean::NodeData;
    let mut named: std::collections::HashSet<&str, rustc_hash::FxBuildHasher> = Default::default();
    let blank = |j: usize| doc.nodes.get(j).is_some_and(|n| matches!(&n.data, NodeData::Text(t) if t.trim().is_empty()));
    for node in &doc.nodes {
        let NodeData::Element(e) = &node.data else { continue };
        for (name, val) in &e.attrs {
            if name == "aria-controls" {
                named.extend(val.split_ascii_whitespace());
            } else if name == "data-target" || name == "data-bs-target" {
                named.extend(val.trim().strip_prefix('#'));
            } else if name == "aria-expanded" {
                // The first node past the control's subtree that is not blank text.
                let next = (node.end as usize..).find(|&j| !blank(j));
                if let Some(v) = next.and_then(|j| verdicts.get_mut(j)) {
                    v.panel = true;
                }
            }
        }
    }
    if named.is_empty() {
        return;
    }
    for (v, node) in verdicts.iter_mut().zip(&doc.nodes) {
        if let NodeData::Element(e) = &node.data {
            v.panel |= e.id_class()[0].is_some_and(|id| named.contains(id.trim()));
        }
    }
}

/// Is `tag` a form control?
pub fn control(tag: &str) -> bool {
    CONTROLS.contains(&key(tag))
}

/// Beginnings of the lines that end an article's body (a heading or short line before
/// related links, sharing, sign-up, the author's box (`Author: Name` over a biography) or
/// comments), lower-case, in English, German, French, Spanish, Italian, Portuguese and Dutch.
const TERMINATORS: &[&str] = &[
    // en
    "related", "author:", "more from", "more stories", "more on this", "more news", "more in ",
    "you may also like", "you might also like", "you may be interested", "recommended", "read more",
    "read next", "share this", "share on", "share article", "sign up", "subscribe", "about the author",
    "comments", "leave a comment", "leave a reply", "tags:", "filed under", "trending", "most popular",
    "most read", "follow us", "newsletter", "top stories", "latest news", "see also",
    "join the conversation", "next in ", "up next",
    // de
    "autor:", "mehr zum thema", "weitere artikel", "ähnliche artikel", "das könnte sie auch interessieren",
    "lesen sie auch", "auch interessant", "artikel teilen", "kommentare", "über den autor", "mehr aus",
    "meistgelesen",
    // fr
    "auteur:", "à lire aussi", "lire aussi", "sur le même sujet", "articles similaires", "partager",
    "commentaires", "vous aimerez aussi", "à propos de l'auteur", "inscrivez-vous", "les plus lus",
    "dans la même rubrique",
    // es
    "noticias relacionadas", "artículos relacionados", "te puede interesar", "también te puede interesar",
    "lee también", "compartir", "comentarios", "más noticias", "sobre el autor", "suscríbete",
    "lo más leído",
    // it
    "autore:", "articoli correlati", "potrebbe interessarti", "leggi anche", "condividi", "commenti",
    "altre notizie", "iscriviti", "più letti",
    // pt
    "leia também", "veja também", "notícias relacionadas", "artigos relacionados", "compartilhe",
    "compartilhar", "comentários", "mais lidas", "sobre o autor", "assine",
    // nl
    "lees ook", "gerelateerde artikelen", "meer nieuws", "deel dit", "delen", "reacties", "meest gelezen",
    "over de auteur", "meer over",
];

/// Does this short line end the article's body? Its text, lower-cased and trimmed of
/// punctuation, begins with a terminator phrase, and it is not much longer than one, nor a
/// sentence ([`crate::text::is_sentence`]).
pub fn terminator(line: &str) -> bool {
    // A sentence (`See also man emirrordist.`) is the text's own, not a label over what ends it.
    if crate::text::is_sentence(line) {
        return false;
    }
    let t = line.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    if t.is_empty() || t.chars().count() > 48 {
        return false;
    }
    TERMINATORS.iter().any(|p| {
        t.starts_with(p) && t[p.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric() || p.ends_with(' '))
    })
}

/// Terminator phrases that name reader comments: on a discussion, whose posts are its content,
/// they end nothing.
const COMMENT_TERMINATORS: &[&str] =
    &["comments", "leave a comment", "leave a reply", "join the conversation", "kommentare", "commentaires", "comentarios", "commenti", "comentários", "reacties"];

/// Does this short line name reader comments (`Comments`, `3 Comments`, `Leave a reply`)? Its
/// text, lower-cased, without digits and punctuation at its ends, begins with a phrase of
/// [`COMMENT_TERMINATORS`].
pub fn names_comments(line: &str) -> bool {
    let t = line.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase();
    COMMENT_TERMINATORS.iter().any(|p| t.starts_with(p))
}

/// Lines that interrupt an article without ending it (advertising labels, "continues below").
const NOTICES: &[&str] = &[
    "advertisement", "advertising", "sponsored", "ad", "anzeige", "werbung", "publicité", "publicidad",
    "pubblicità", "publicidade", "advertentie", "story continues below", "article continues below",
    "continue reading below", "continue reading", "scroll to continue",
];

/// Is this line only a notice (an advertising label, "story continues below", …)?
pub fn notice(line: &str) -> bool {
    let t = line.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    NOTICES.iter().any(|n| t == *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &str) -> Vec<String> {
        let mut out = Vec::new();
        for name in v.split_ascii_whitespace().filter(|n| !is_utility(n)) {
            each_word(name, |w| out.push(String::from_utf8_lossy(w).into_owned()));
        }
        out
    }

    #[test]
    fn words_have_meanings() {
        assert!(word(b"nav", false) == Word::Boilerplate && word(b"content", false) == Word::Article && word(b"x", false) == Word::None);
        // Regions of other items of the site.
        assert!(word(b"related", false) == Word::Items && word(b"recommended", false) == Word::Items);
        // Readers' words: comments and customer reviews.
        assert!(word(b"comments", false) == Word::Boilerplate && word(b"reviews", false) == Word::Boilerplate);
        // On a discussion, its comments are its content.
        assert!(word(b"comments", true) == Word::None && word(b"reviews", true) == Word::Boilerplate);
        // A forum post's furniture: its extras, likes, reputation, join date, the forum's notices.
        for w in [&b"extras"[..], b"likes", b"reputation", b"joined", b"notices"] {
            assert!(word(w, false) == Word::Boilerplate, "{}", String::from_utf8_lossy(w));
        }
    }

    #[test]
    fn the_rest_of_an_entry_is_not_more_items() {
        let bad = |class: &str| Names::of(class, true, false).bad;
        assert!(!bad("entry-more") && Names::of("entry-more", true, false).good);
        assert!(bad("more-stories") && bad("more") && bad("entry-more-links") && bad("related-posts"));
    }

    #[test]
    fn a_users_card_is_not_their_post() {
        let bad = |class: &str| Names::of(class, true, false).bad;
        assert!(bad("message-userTitle") && bad("userStats") && bad("userinfo_extra"));
        // The post's own body and the user's name stay.
        assert!(!bad("message-userContent") && !bad("username") && !bad("user-details") && !bad("page-title"));
    }

    #[test]
    fn a_custom_element_names_itself_as_a_class_does() {
        let doc = crate::clean::page(
            "<body><devsite-content-footer><p>Licensed under CC BY 4.0.</p></devsite-content-footer>\
             <story-body><p>The bridge opens.</p></story-body><p>x</p></body>",
        );
        let mut cache = Cache::default();
        let mut of = |name: &str| {
            let e = (0..doc.nodes.len() as u32).find_map(|i| doc.element(i).filter(|e| e.name == name)).expect(name);
            verdict(e, &mut cache)
        };
        assert!(of("devsite-content-footer").boilerplate);
        let body = of("story-body");
        assert!(body.article && !body.boilerplate);
        assert!(!of("p").boilerplate);
    }

    #[test]
    fn class_words_split_and_skip_utilities() {
        assert_eq!(words("articleBody post_share-bar2 md:hidden mx-auto flex text-sm content-body"), ["article", "body", "post", "share", "bar", "content", "body"]);
        // Generated hashes hold no words.
        assert_eq!(words("w-variant-2a872dd3-0ad7 jXK9ad item__adF2E ad-slot"), ["w", "variant", "item", "ad", "slot"]);
    }

    #[test]
    fn terminators_match_whole_words() {
        assert!(terminator("Related Articles"));
        assert!(terminator("More from Reuters:"));
        assert!(terminator("Lesen Sie auch"));
        assert!(!terminator("Relatedness of species is measured by the amount of shared DNA in genomes"));
        assert!(!terminator("Relativity"));
        // The label over an author's box, not the word in a sentence.
        assert!(terminator("Author: Richard Darell") && !terminator("Authors of the study say the effect is small"));
        // A sentence that begins as a terminator does is the text's own.
        assert!(terminator("See also") && terminator("Read more."));
        assert!(!terminator("See also man emirrordist.") && !terminator("Read more on Lewis' quote here."));
        assert!(names_comments("2 Comments") && names_comments("Leave a Reply") && names_comments("Kommentare (3)"));
        assert!(!names_comments("Related articles") && !names_comments("Commentary"));
    }
}
