//! Signifiers: the few terms that make each page of a site *that* page (paper §3.2).
//!
//! Terms are the scorer's word tokens ([`crate::text::tokens`]) minus the language's stop words,
//! Snowball-stemmed in the site's language (`<html lang>`, else detected with whatlang, else
//! English). An [`Analyzer`] interns terms as small integers so later stages count numbers.
//!
//! Two sources ([`Source`]):
//! - `tfidf`: per page, the top k terms by tf·idf over the site's sample pages, with
//!   tf = occurrences in the page's body and idf = ln(N / df);
//! - `feed`: the terms of the page's feed item title and description.

pub use crate::text::{Analyzer, Language, TermId};
use crate::{Error, Result};
use std::collections::HashMap;

/// Where signifiers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Top-k tf-idf terms over the sample pages.
    Tfidf,
    /// Terms of the feed item's title and description.
    Feed,
}

impl std::str::FromStr for Source {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "tfidf" => Ok(Source::Tfidf),
            "feed" => Ok(Source::Feed),
            _ => Err(Error::Invalid(format!("unknown signifier source {s:?}: use tfidf or feed"))),
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Source::Tfidf => "tfidf",
            Source::Feed => "feed",
        })
    }
}

/// The signifiers of one page, with their weights (tf·idf, or 1 for feed terms).
#[derive(Debug, Clone, Default)]
pub struct Signifiers {
    /// Term → weight.
    pub weights: HashMap<TermId, f64>,
}

impl Signifiers {
    /// Is `t` a signifier of this page?
    pub fn contains(&self, t: TermId) -> bool {
        self.weights.contains_key(&t)
    }
}

/// Options of [`select`].
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Where signifiers come from.
    pub source: Source,
    /// How many per page (tf-idf only).
    pub k: usize,
    /// Leave out terms made of digits only.
    pub skip_numeric: bool,
}

/// Choose each page's signifiers.
///
/// `bags[i]` holds every term occurrence of page i's body; `feed[i]` the terms of page i's feed
/// item (title + description). Ties in tf·idf are broken by term id (first seen first), so
/// the choice is deterministic.
pub fn select<B: AsRef<[TermId]>>(analyzer: &Analyzer, bags: &[B], feed: &[Vec<TermId>], opts: Options) -> Vec<Signifiers> {
    let n = bags.len() as f64;
    // Each page's term counts, made when needed and dropped after: a sample of a thousand
    // pages never holds a thousand count tables.
    let tf_of = |bag: &[TermId]| {
        let mut tf: HashMap<TermId, u32> = HashMap::new();
        for &t in bag {
            *tf.entry(t).or_insert(0u32) += 1;
        }
        tf
    };
    let mut df: HashMap<TermId, u32> = HashMap::new();
    let mut distinct: Vec<TermId> = Vec::new();
    for bag in bags {
        distinct.clear();
        distinct.extend_from_slice(bag.as_ref());
        distinct.sort_unstable();
        distinct.dedup();
        for &t in &distinct {
            *df.entry(t).or_insert(0) += 1;
        }
    }
    let idf = |t: TermId| (n / f64::from(df.get(&t).copied().unwrap_or(1).max(1))).ln();
    bags.iter()
        .enumerate()
        .map(|(i, bag)| {
            let tf = tf_of(bag.as_ref());
            let usable = |t: TermId| !(opts.skip_numeric && analyzer.is_numeric(t));
            let weights = match opts.source {
                Source::Tfidf => {
                    let mut scored: Vec<(TermId, f64)> = tf
                        .iter()
                        .filter(|(t, _)| usable(**t))
                        .map(|(&t, &c)| (t, f64::from(c) * idf(t)))
                        .filter(|&(_, w)| w > 0.0)
                        .collect();
                    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                    scored.truncate(opts.k);
                    scored.into_iter().collect()
                }
                Source::Feed => feed
                    .get(i)
                    .into_iter()
                    .flatten()
                    .filter(|t| usable(**t))
                    .map(|&t| (t, (f64::from(tf.get(&t).copied().unwrap_or(0)) * idf(t)).max(1e-9)))
                    .collect(),
            };
            Signifiers { weights }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyzer_drops_stop_words_and_stems() {
        let mut a = Analyzer::new(Language::ENGLISH);
        let mut out = Vec::new();
        a.terms("The runners were running in the rain", &mut out);
        let stems: Vec<&str> = out.iter().map(|&t| a.term(t)).collect();
        assert_eq!(stems, ["runner", "run", "rain"]);
    }

    #[test]
    fn tfidf_prefers_page_specific_terms() {
        let mut a = Analyzer::new(Language::ENGLISH);
        let mut p1 = Vec::new();
        let mut p2 = Vec::new();
        a.terms("menu home kitkat kitkat android", &mut p1);
        a.terms("menu home apple auction auction auction", &mut p2);
        let opts = Options { source: Source::Tfidf, k: 1, skip_numeric: false };
        let s = select(&a, &[p1, p2], &[], opts);
        let top = |s: &Signifiers| a.term(*s.weights.keys().next().unwrap()).to_string();
        assert_eq!(top(&s[0]), "kitkat");
        assert_eq!(top(&s[1]), "auction");
    }

    #[test]
    fn languages_from_tags() {
        assert_eq!(Language::from_code("en-GB").map(|l| l.code), Some("en"));
        assert_eq!(Language::from_code("fra").map(|l| l.code), Some("fr"));
        assert_eq!(Language::from_code("xx"), None);
    }
}
