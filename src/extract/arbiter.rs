//! The arbiter: which of two articles of one page to give, the wrapper's or the single-page
//! extractor's, decided by what the site's pages show rather than by one page's disagreement.
//!
//! The wrapper's block sits at the same structural place on every page of its site, and the
//! site's template lines (text found at the same path on several sample pages,
//! [`crate::template`]) are cut from it. The single-page extractor reads one page alone, and
//! can take a sidebar for the article, or stop short of the article's end. Each signal, one
//! sentence (each can be turned off, for ablation: `forest-tfidf-no-<name>` in the bench):
//!
//! - **site-cuts**: the site's template lines are cut from the single-page article too, when
//!   it is given.
//! - **containment**: when one article holds nearly all of the other, the extra text decides:
//!   the wrapper's extra is the page's own text (its template lines are cut), so the larger
//!   wrapper article is kept; the single-page article's extra is kept unless most of it is the
//!   site's template, and kept even when the two agree if it is an article's worth of text
//!   outside the template (the story before a gallery the wrapper took), or if it holds all
//!   of the wrapper's text and none of its extra is template (a date line, a closing
//!   paragraph the block leaves out).
//! - **template-share**: of two articles that share little, the one with a larger share of
//!   its text on the site's template lines (by a quarter of its text or more) is not the
//!   article, unless it holds most of the other (the same article with more around it).
//! - **sentences**: a short sentence with links that recurs whole at one place on the site's
//!   pages (a comment policy, a sign-off) counts as template here, though the wrapper cuts
//!   only whole template texts ([`Template::mask_within`]).
//!
//! With every signal off, the rule is the cross-check's: the single-page article on any
//! disagreement (fewer than [`AGREEMENT`] of their characters shared).

use crate::clean::{non_space_chars, Doc, NodeData, NodeId};
use crate::template::Template;

/// The share of text (F1 of the characters both select) at which the two articles agree,
/// and the wrapper's is kept: nine in ten.
pub const AGREEMENT: f64 = 0.9;

/// One article holds another when it holds this share of the other's characters.
pub const HOLDS: f64 = 0.9;

/// An article's worth of text, in non-space characters (about 80 words): the single-page
/// article's extra beyond the wrapper's, outside the site's template, this large is content
/// the wrapper missed.
pub const ARTICLE_WORTH: usize = 500;

/// Of two articles that share little, the one with this much more of its text on template
/// lines (as a share of each one's text) loses: a quarter.
pub const MORE_TEMPLATE: f64 = 0.25;

/// An article holding more than this share of the other's text is that article with more
/// around it: template-share does not reject it. Half.
pub const HOLDS_MOST: f64 = 0.5;

/// The signals the arbiter weighs (all on by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signals {
    /// The site's template lines are cut from the single-page article.
    pub site_cuts: bool,
    /// When one article holds the other, the extra text decides.
    pub containment: bool,
    /// Of two articles that share little, the one more of whose text is template loses.
    pub template_share: bool,
    /// Short sentences with links that recur whole count as template.
    pub sentences: bool,
}

impl Default for Signals {
    fn default() -> Self {
        Signals { site_cuts: true, containment: true, template_share: true, sentences: true }
    }
}

/// The signals `forest-tfidf-no-<name>` turns off.
pub const SIGNALS: &[&str] = &["site-cuts", "containment", "template-share", "sentences"];

impl Signals {
    /// These signals with `name` (one of [`SIGNALS`]) turned off; `None` for another name.
    pub fn without(mut self, name: &str) -> Option<Signals> {
        match name {
            "site-cuts" => self.site_cuts = false,
            "containment" => self.containment = false,
            "template-share" => self.template_share = false,
            "sentences" => self.sentences = false,
            _ => return None,
        }
        Some(self)
    }
}

/// Which article the arbiter gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The wrapper's.
    Wrapper,
    /// The single-page extractor's.
    SinglePage,
}

/// A selection on a page: its nodes, the text nodes cut inside them, and its headline.
#[derive(Clone, Copy)]
pub(crate) struct Chosen<'a> {
    /// The selected elements.
    pub nodes: &'a [NodeId],
    /// Per node: cut inside the selection (empty: nothing cut).
    pub skip: &'a [bool],
    /// The headline put first, standing outside the nodes.
    pub headline: Option<NodeId>,
}

impl Chosen<'_> {
    /// Per node of `doc`: is it selected (inside the nodes and not cut, or in the headline)?
    fn mask(&self, doc: &Doc) -> Vec<bool> {
        let mut on = vec![false; doc.nodes.len()];
        for &r in self.nodes.iter().chain(self.headline.iter()) {
            for (i, o) in on.iter_mut().enumerate().take(doc.end(r) as usize).skip(r as usize) {
                *o = self.skip.get(i).is_none_or(|&cut| !cut);
            }
        }
        on
    }
}

/// What the arbiter measures of the two articles of one page, in non-space characters of
/// their text nodes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Evidence {
    /// The page's text (its body).
    pub page: usize,
    /// The page's text on the site's template lines.
    pub page_template: usize,
    /// The wrapper's article.
    pub wrapper: usize,
    /// The single-page article.
    pub single: usize,
    /// Text both select.
    pub both: usize,
    /// The wrapper's text on the site's template lines.
    pub wrapper_template: usize,
    /// The single-page article's text on the site's template lines.
    pub single_template: usize,
    /// The single-page article's text outside the wrapper's that is on template lines.
    pub single_extra_template: usize,
}

impl Evidence {
    /// Measure the two selections of `doc`, with the site's `template` (its short sentences
    /// too, with `sentences`).
    pub(crate) fn measure(doc: &Doc, wrapper: Chosen, single: Chosen, template: &Template, sentences: bool) -> Evidence {
        let (w, s) = (wrapper.mask(doc), single.mask(doc));
        // Template text is found by its path from the root: one pass over the body serves the
        // page and both articles.
        let tpl = template.mask_within(doc, &[doc.body], sentences);
        let mut e = Evidence::default();
        let body = doc.body as usize..doc.end(doc.body) as usize;
        for (i, node) in doc.nodes.iter().enumerate() {
            let NodeData::Text(t) = &node.data else { continue };
            let in_body = body.contains(&i);
            if !(w[i] || s[i] || in_body) {
                continue;
            }
            let n = non_space_chars(t);
            let on_template = if tpl[i] { n } else { 0 };
            if in_body {
                e.page += n;
                e.page_template += on_template;
            }
            if w[i] {
                e.wrapper += n;
                e.wrapper_template += on_template;
            }
            if s[i] {
                e.single += n;
                e.single_template += on_template;
                e.single_extra_template += if w[i] { 0 } else { on_template };
            }
            e.both += if w[i] && s[i] { n } else { 0 };
        }
        e
    }

    /// How much of their text the two share: the F1 of the characters both select.
    pub fn agreement(&self) -> f64 {
        crate::text::overlap::prf(self.both, self.wrapper, self.single).2
    }

    /// The share of the wrapper's text the single-page article also selects.
    fn wrapper_held(&self) -> f64 {
        share(self.both, self.wrapper)
    }

    /// The share of the single-page article's text the wrapper's also selects.
    fn single_held(&self) -> f64 {
        share(self.both, self.single)
    }

    /// How sure the evidence is that the given article is the page's article region, in
    /// [0, 1]: the mean of how much the two extractors agree and how much of the page's own
    /// text (outside the site's template) the article holds.
    pub fn region(&self, verdict: Verdict) -> f64 {
        let article = match verdict {
            Verdict::Wrapper => self.wrapper,
            Verdict::SinglePage => self.single,
        };
        let own = self.page.saturating_sub(self.page_template);
        (self.agreement() + share(article, own).min(1.0)) / 2.0
    }

    /// The verdict on these measures with `signals` on.
    pub fn verdict(&self, signals: Signals) -> Verdict {
        if self.single == 0 {
            return Verdict::Wrapper;
        }
        let (w_in_s, s_in_w) = (self.wrapper_held() >= HOLDS, self.single_held() >= HOLDS);
        // An article's worth of the page's own text beyond a large wrapper block (a gallery
        // after the story) is missed however much the two share.
        let extra = self.single - self.both;
        if signals.containment && w_in_s && extra.saturating_sub(self.single_extra_template) >= ARTICLE_WORTH {
            return Verdict::SinglePage;
        }
        // All of the wrapper's text and more, none of it the site's template: the more is the
        // page's own text (a date line, a last paragraph the block leaves out).
        if signals.containment && self.both >= self.wrapper && extra > 0 && self.single_extra_template == 0 {
            return Verdict::SinglePage;
        }
        if self.agreement() >= AGREEMENT {
            return Verdict::Wrapper;
        }
        if signals.containment {
            if s_in_w && !w_in_s {
                return Verdict::Wrapper;
            }
            if w_in_s && !s_in_w {
                return if share(self.single_extra_template, extra) > 0.5 { Verdict::Wrapper } else { Verdict::SinglePage };
            }
        }
        if signals.template_share
            && share(self.single_template, self.single) >= share(self.wrapper_template, self.wrapper) + MORE_TEMPLATE
            && self.wrapper_held() <= HOLDS_MOST
        {
            return Verdict::Wrapper;
        }
        Verdict::SinglePage
    }
}

/// The agreement with a second reading that an article no second extractor checked is taken
/// to have: about what checked articles show (their mean agreement on the shared sets is 0.96
/// on blogs, 0.76 on modern sites, 0.99 on news).
const UNCHECKED_AGREEMENT: f64 = 0.9;

/// The agreement given to a stand-in for an article the extractor did not find (the page's
/// whole text, its declared description): an even one, nothing agreed or disagreed.
const STAND_IN_AGREEMENT: f64 = 0.5;

/// [`Evidence::region`] for an article no second extractor checked, holding `article` of the
/// `page`'s non-space characters: the mean of [`UNCHECKED_AGREEMENT`] and the share of the
/// page's text it holds.
pub fn unchecked_region(article: usize, page: usize) -> f64 {
    (UNCHECKED_AGREEMENT + share(article, page).min(1.0)) / 2.0
}

/// [`unchecked_region`] for a stand-in for an article (the page's whole text, or its
/// description), with [`STAND_IN_AGREEMENT`].
pub fn stand_in_region(article: usize, page: usize) -> f64 {
    (STAND_IN_AGREEMENT + share(article, page).min(1.0)) / 2.0
}

/// An estimate of an article's F1, in [0, 1], from two questions weighed alike: is it the
/// page's article region (`region`: [`Evidence::region`], [`unchecked_region`]), and did it keep
/// that region whole (`kept`: the share of the region's text left after what was cut inside it,
/// bylines, captions, the site's template lines, link blocks: each cut is a judgment that can
/// be wrong). Their mean, [`calibrated`].
pub fn confidence(region: f64, kept: f64) -> f64 {
    calibrated((region + kept) / 2.0)
}

/// The estimated F1 of an article whose evidence scores `e` in [0, 1]: `1 − (1 − e)²`, an F1
/// short of 1 by the square of the evidence's shortfall. Measured on every shared set, the F1
/// of articles falls that way: an article whose evidence scores 0.75 has an F1 near 0.94,
/// not 0.75.
fn calibrated(e: f64) -> f64 {
    let short = 1.0 - e.clamp(0.0, 1.0);
    1.0 - short * short
}

/// `part` over `whole`, 0 when `whole` is 0.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(wrapper: usize, single: usize, both: usize) -> Evidence {
        Evidence { wrapper, single, both, ..Evidence::default() }
    }

    #[test]
    fn agreeing_articles_keep_the_wrapper() {
        assert_eq!(e(1000, 1000, 950).verdict(Signals::default()), Verdict::Wrapper);
        assert_eq!(e(1000, 0, 0).verdict(Signals::default()), Verdict::Wrapper);
    }

    #[test]
    fn the_wrapper_holding_a_shorter_single_page_article_is_kept() {
        // The single-page extractor stopped short: its article is inside the wrapper's.
        let ev = e(2000, 700, 700);
        assert_eq!(ev.verdict(Signals::default()), Verdict::Wrapper);
        assert_eq!(ev.verdict(Signals::default().without("containment").unwrap()), Verdict::SinglePage);
    }

    #[test]
    fn a_single_page_article_holding_the_wrapper_wins_unless_its_extra_is_template() {
        let more = e(1000, 3000, 1000);
        assert_eq!(more.verdict(Signals::default()), Verdict::SinglePage);
        let furniture = Evidence { single_template: 1800, single_extra_template: 1800, ..more };
        assert_eq!(furniture.verdict(Signals::default()), Verdict::Wrapper);
        // A large block (a gallery) inside the single-page article, which adds the story: the
        // two agree by nine in ten, yet the story is an article's worth the wrapper missed.
        let gallery = e(13000, 15000, 13000);
        assert!(gallery.agreement() >= AGREEMENT);
        assert_eq!(gallery.verdict(Signals::default()), Verdict::SinglePage);
        // All of the wrapper's text and a little more (a date line): the more is the page's
        // own unless it is on the site's template lines.
        let dated = e(13000, 13400, 13000);
        assert_eq!(dated.verdict(Signals::default()), Verdict::SinglePage);
        assert_eq!(dated.verdict(Signals::default().without("containment").unwrap()), Verdict::Wrapper);
        let share_bar = Evidence { single_template: 400, single_extra_template: 400, ..dated };
        assert_eq!(share_bar.verdict(Signals::default()), Verdict::Wrapper);
        assert_eq!(e(13000, 13400, 12990).verdict(Signals::default()), Verdict::Wrapper);
        // A reference page's introduction above the sections the wrapper took: the wrapper
        // holds nine in ten of the single-page article, yet 1,700 characters of the page's own
        // text are missed; the same extra on the site's template lines is not.
        let intro = e(16585, 18338, 16585);
        assert!(intro.single_held() >= HOLDS);
        assert_eq!(intro.verdict(Signals::default()), Verdict::SinglePage);
        let footer = Evidence { single_template: 1700, single_extra_template: 1700, ..intro };
        assert_eq!(footer.verdict(Signals::default()), Verdict::Wrapper);
    }

    #[test]
    fn of_two_disjoint_articles_the_template_one_loses() {
        let sidebar = Evidence { single_template: 120, ..e(90, 130, 0) };
        assert_eq!(sidebar.verdict(Signals::default()), Verdict::Wrapper);
        assert_eq!(sidebar.verdict(Signals::default().without("template-share").unwrap()), Verdict::SinglePage);
        assert_eq!(e(90, 130, 0).verdict(Signals::default()), Verdict::SinglePage);
        // A longer article with some of the site's furniture in it, holding most of the
        // wrapper's: the same article with more around it, not the site's template block.
        let longer = Evidence { single_template: 160, ..e(198, 585, 144) };
        assert_eq!(longer.verdict(Signals::default()), Verdict::SinglePage);
        // A sidebar beside a short post, holding little of it, loses.
        let sidebar = Evidence { single_template: 57, ..e(57, 185, 22) };
        assert_eq!(sidebar.verdict(Signals::default()), Verdict::Wrapper);
    }

    #[test]
    fn confidence_estimates_f1() {
        use crate::article::DOUBTFUL;
        // Two extractors that agree on an article holding all the page's own text, kept whole,
        // give 1. Half the evidence gives three quarters, not a half; none gives none.
        let agreed = Evidence { page: 1000, ..e(1000, 1000, 1000) };
        assert_eq!(confidence(agreed.region(Verdict::Wrapper), 1.0), 1.0);
        assert_eq!(calibrated(0.5), 0.75);
        assert_eq!(calibrated(0.0), 0.0);
        // Text cut inside the region lowers it.
        assert!(confidence(agreed.region(Verdict::Wrapper), 0.6) < confidence(agreed.region(Verdict::Wrapper), 0.9));
        // Disjoint articles on a page of other text, much of them cut, are doubtful.
        let disjoint = Evidence { page: 10_000, ..e(500, 500, 0) };
        assert!(confidence(disjoint.region(Verdict::Wrapper), 0.3) < DOUBTFUL);
        // An unchecked article kept whole is confident when it holds much of the page, never
        // certain, and less confident as it holds less of it; a stand-in that holds none of the
        // page's text (a description) is doubtful.
        let (most, little) = (confidence(unchecked_region(800, 1000), 1.0), confidence(unchecked_region(50, 1000), 1.0));
        assert!(DOUBTFUL < little && little < most && most < 1.0, "{little} {most}");
        assert!(confidence(stand_in_region(0, 1), 0.0) < DOUBTFUL);
    }
}
