//! MSS: maximum subsequence segmentation (J. Pasternack and D. Roth, "Extracting Article Text
//! from the Web with Maximum Subsequence Segmentation", WWW 2009), re-implemented from the
//! paper.
//!
//! The page is a sequence of tokens: start and end tags, words (lower-cased, Porter-stemmed
//! with the Snowball English stemmer), numbers generalized to one token, and runs of
//! punctuation; scripts and styles are gone already (the cleaner drops them). A Naive Bayes
//! classifier gives each token p, its probability of being article text, from its features:
//! the token trigram (previous, this, next token) as a whole and position by position, and the
//! innermost open tag. Scored p − 0.5, the tokens' maximum-sum contiguous subsequence (found
//! in one O(n) pass) is the article; its words are the output.
//!
//! The classifier is learned from gold pages of other sites ([`crate::bench::train`]): a word
//! token is article text when its text node is (the bench's 2-gram labelling rule,
//! [`GoldGrams::is_content`]), a tag token when the words on both sides of it are.

use crate::bench::method::{Labelled, Learner, Model};
use crate::bench::train::GoldGrams;
use crate::clean::{Doc, NodeData};
use crate::extract::{Extraction, Extractor, Rule};
use crate::{Error, Page, Result};
use rust_stemmers::{Algorithm, Stemmer};
use std::collections::HashMap;

/// MSS as a bench method: a learner of [`Mss`] models.
#[derive(Debug, Clone, Copy)]
pub struct MssMethod;

impl MssMethod {
    fn method_name(&self) -> &'static str {
        "mss"
    }
}

super::learned_method!(MssMethod);

impl Learner for MssMethod {
    fn train(&self, pages: &[Labelled]) -> Result<Box<dyn Model>> {
        let mut model = Mss::default();
        let stemmer = Stemmer::create(Algorithm::English);
        for l in pages {
            let tokens = tokenize(&l.page.doc, &stemmer);
            let mut gold = GoldGrams::new(l.gold);
            let labels = labels(&l.page.doc, &tokens, &mut gold);
            for (i, &label) in labels.iter().enumerate() {
                for f in features(&tokens, i) {
                    let c = model.counts.entry(f).or_insert([0, 0]);
                    c[usize::from(label)] += 1;
                    model.totals[usize::from(label)] += 1;
                }
                model.prior[usize::from(label)] += 1;
            }
        }
        if model.prior[1] == 0 || model.prior[0] == 0 {
            return Err(Error::Invalid("mss: the training pages hold no article token, or nothing else".into()));
        }
        Ok(Box::new(model))
    }

    fn load(&self, json: &serde_json::Value) -> Result<Box<dyn Model>> {
        let bad = || Error::Invalid("not an mss model".into());
        let pair = |v: &serde_json::Value| -> Option<[u64; 2]> { Some([v.get(0)?.as_u64()?, v.get(1)?.as_u64()?]) };
        let prior = json.get("prior").and_then(pair).ok_or_else(bad)?;
        let totals = json.get("totals").and_then(pair).ok_or_else(bad)?;
        let mut counts = HashMap::default();
        for row in json.get("counts").and_then(|c| c.as_array()).ok_or_else(bad)? {
            let (Some(f), Some(c0), Some(c1)) = (row.get(0).and_then(|v| v.as_u64()), row.get(1).and_then(|v| v.as_u64()), row.get(2).and_then(|v| v.as_u64())) else {
                return Err(bad());
            };
            counts.insert(f, [c0, c1]);
        }
        Ok(Box::new(Mss { prior, totals, counts }))
    }
}

/// A trained MSS token classifier (Naive Bayes counts over hashed features).
#[derive(Debug, Default, Clone)]
pub struct Mss {
    /// Tokens seen per class (0: not article, 1: article).
    prior: [u64; 2],
    /// Feature occurrences per class.
    totals: [u64; 2],
    /// Per feature hash: occurrences per class (the keys are hashes already: Fx mixes them).
    counts: HashMap<u64, [u64; 2], rustc_hash::FxBuildHasher>,
}

impl Mss {
    /// P(article | features of token `i`), Laplace-smoothed.
    fn probability(&self, tokens: &[Token], i: usize) -> f64 {
        let vocabulary = self.counts.len() as f64 + 1.0;
        let total = (self.prior[0] + self.prior[1]).max(1) as f64;
        let mut log_odds = ((self.prior[1] as f64 + 1.0) / (total + 2.0)).ln() - ((self.prior[0] as f64 + 1.0) / (total + 2.0)).ln();
        for f in features(tokens, i) {
            let c = self.counts.get(&f).copied().unwrap_or([0, 0]);
            let p1 = (c[1] as f64 + 1.0) / (self.totals[1] as f64 + vocabulary);
            let p0 = (c[0] as f64 + 1.0) / (self.totals[0] as f64 + vocabulary);
            log_odds += p1.ln() - p0.ln();
        }
        1.0 / (1.0 + (-log_odds).exp())
    }

    /// The article text of `doc`: the words of the maximum-sum run of tokens.
    pub fn article(&self, doc: &Doc) -> String {
        let stemmer = Stemmer::create(Algorithm::English);
        let tokens = tokenize(doc, &stemmer);
        let scores: Vec<f64> = (0..tokens.len()).map(|i| self.probability(&tokens, i) - 0.5).collect();
        let Some((start, end)) = max_subsequence(&scores) else {
            return String::new();
        };
        let mut out = String::new();
        for t in &tokens[start..end] {
            match &t.word {
                Some(w) => {
                    if !out.is_empty() && !out.ends_with('\n') {
                        out.push(' ');
                    }
                    out.push_str(w);
                }
                None if t.block && !out.is_empty() && !out.ends_with('\n') => out.push('\n'),
                None => {}
            }
        }
        out
    }
}

impl Extractor for Mss {
    fn name(&self) -> &str {
        "mss"
    }
    fn extract(&self, page: &Page) -> Result<Extraction> {
        Ok(Extraction::new(Vec::new(), self.article(&page.doc), Rule::SinglePage))
    }
}

impl Model for Mss {
    fn to_json(&self) -> serde_json::Value {
        let mut rows: Vec<(u64, [u64; 2])> = self.counts.iter().map(|(k, v)| (*k, *v)).collect();
        rows.sort_unstable();
        serde_json::json!({
            "prior": self.prior,
            "totals": self.totals,
            "counts": rows.iter().map(|(k, v)| [*k, v[0], v[1]]).collect::<Vec<_>>(),
        })
    }
}

/// One token of the page.
#[derive(Debug, Clone)]
struct Token {
    /// What the classifier sees: `<p>`, `</p>`, a stem, `<num>`, punctuation.
    key: String,
    /// The innermost open element.
    parent: String,
    /// For a word: its text as written (the output).
    word: Option<String>,
    /// The text node it comes from (words), for labelling.
    node: usize,
    /// A block-level tag (a line break in the output).
    block: bool,
}

/// The body's tokens in document order, walked with an explicit stack of open elements.
fn tokenize(doc: &Doc, stemmer: &Stemmer) -> Vec<Token> {
    let body = doc.body as usize;
    let end = (doc.end(doc.body) as usize).min(doc.nodes.len());
    let mut out = Vec::new();
    let mut open: Vec<(usize, &str)> = Vec::new();
    /// End tags of the open elements whose subtree ends at or before `upto`.
    fn close(out: &mut Vec<Token>, open: &mut Vec<(usize, &str)>, upto: usize) {
        while let Some(&(e, name)) = open.last() {
            if e > upto {
                break;
            }
            open.pop();
            let parent = open.last().map_or("", |o| o.1).to_string();
            out.push(Token { key: format!("</{name}>"), parent, word: None, node: 0, block: !crate::clean::is_inline(name) });
        }
    }
    for i in body..end {
        close(&mut out, &mut open, i);
        let parent = open.last().map_or("", |o| o.1).to_string();
        match &doc.nodes[i].data {
            NodeData::Element(e) => {
                out.push(Token { key: format!("<{}>", e.name), parent, word: None, node: i, block: !crate::clean::is_inline(&e.name) });
                open.push((doc.nodes[i].end as usize, e.name.as_str()));
            }
            NodeData::Text(t) => {
                for piece in t.split_whitespace() {
                    let key = if piece.chars().any(|c| c.is_ascii_digit()) {
                        "<num>".to_string()
                    } else if piece.chars().any(char::is_alphanumeric) {
                        let lower = piece.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
                        stemmer.stem(&lower).into_owned()
                    } else {
                        piece.to_string()
                    };
                    out.push(Token { key, parent: parent.clone(), word: Some(piece.to_string()), node: i, block: false });
                }
            }
        }
    }
    close(&mut out, &mut open, usize::MAX);
    out
}

/// Labels of `tokens` from the gold text: words by their text node, tags by their neighbours.
fn labels(doc: &Doc, tokens: &[Token], gold: &mut GoldGrams) -> Vec<bool> {
    let mut node_label: HashMap<usize, bool> = HashMap::new();
    let mut labels: Vec<Option<bool>> = tokens
        .iter()
        .map(|t| {
            t.word.as_ref()?;
            Some(*node_label.entry(t.node).or_insert_with(|| match &doc.nodes[t.node].data {
                NodeData::Text(text) => gold.is_content(text),
                NodeData::Element(_) => false,
            }))
        })
        .collect();
    // A tag is article when the nearest words before and after it are.
    let mut before = vec![false; tokens.len()];
    let mut last = false;
    for (i, l) in labels.iter().enumerate() {
        if let Some(l) = l {
            last = *l;
        }
        before[i] = last;
    }
    let mut next = false;
    for i in (0..labels.len()).rev() {
        match labels[i] {
            Some(l) => next = l,
            None => labels[i] = Some(before[i] && next),
        }
    }
    labels.into_iter().map(|l| l.unwrap_or(false)).collect()
}

/// FNV-1a over the parts, separated: a stable hash, so saved models read back the same.
fn hash(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0xff)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Token `i`'s features: the trigram, its three positions, the innermost open tag.
fn features(tokens: &[Token], i: usize) -> [u64; 5] {
    let key = |j: Option<usize>| j.and_then(|j| tokens.get(j)).map_or("<edge>", |t| t.key.as_str());
    let (prev, this, next) = (key(i.checked_sub(1)), key(Some(i)), key(i.checked_add(1)));
    let parent = tokens.get(i).map_or("", |t| t.parent.as_str());
    [
        hash(&["tri", prev, this, next]),
        hash(&["prev", prev]),
        hash(&["this", this]),
        hash(&["next", next]),
        hash(&["parent", parent]),
    ]
}

/// The maximum-sum contiguous run `start..end` of `scores` (Kadane; `None` when every score
/// is negative or there are none).
fn max_subsequence(scores: &[f64]) -> Option<(usize, usize)> {
    let mut best: Option<(f64, usize, usize)> = None;
    let (mut sum, mut start) = (0.0, 0);
    for (i, &s) in scores.iter().enumerate() {
        if sum <= 0.0 {
            sum = 0.0;
            start = i;
        }
        sum += s;
        if sum > 0.0 && best.is_none_or(|(b, _, _)| sum > b) {
            best = Some((sum, start, i + 1));
        }
    }
    best.map(|(_, s, e)| (s, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maximum_subsequence() {
        assert_eq!(max_subsequence(&[-0.4, 0.3, 0.2, -0.1, 0.4, -0.5, 0.1]), Some((1, 5)));
        assert_eq!(max_subsequence(&[-0.1, -0.2]), None);
        assert_eq!(max_subsequence(&[]), None);
    }

    /// Pages of one template: a menu of links, an article of paragraphs, a footer. Trained on
    /// two of them, the classifier has seen `<p>`-parented words as article and `<a>`/`<li>`
    /// ones as not, so on a third page with new words the best run is the article's paragraphs.
    #[test]
    fn learns_that_paragraph_words_are_article() {
        let page = |words: &str| {
            format!(
                "<html><body><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
                 <div><h1>{words}</h1><p>{words} {words}</p><p>{words} again.</p></div>\
                 <div><a href=/c>Contact</a> <a href=/t>Terms</a></div></body></html>"
            )
        };
        let texts = ["the bridge will close for six weeks of repairs", "a new school opens on the hill next to the park"];
        let pages: Vec<Page> = texts.iter().map(|t| Page::from_html("p", &page(t)).expect("page")).collect();
        let golds: Vec<String> = texts.iter().map(|t| format!("{t}\n{t} {t}\n{t} again.")).collect();
        let labelled: Vec<Labelled> = pages.iter().zip(&golds).map(|(page, gold)| Labelled { site: "s", page, gold }).collect();
        let model = MssMethod.train(&labelled).expect("train");
        let test = Page::from_html("t", &page("farmers sell apples and pears at the market square")).expect("page");
        let text = model.extract(&test).expect("extract").text;
        assert!(text.contains("farmers sell apples"), "{text}");
        assert!(text.contains("again."), "{text}");
        for boiler in ["Home", "News", "Contact", "Terms"] {
            assert!(!text.contains(boiler), "{boiler} in {text}");
        }
        // The model reads back the same.
        let back = MssMethod.load(&model.to_json()).expect("load");
        assert_eq!(back.extract(&test).expect("extract").text, text);
    }
}
