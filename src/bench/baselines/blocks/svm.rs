//! An RBF SVM over text blocks with the features of J. Yao and X. Zuo, "A Machine Learning
//! Approach to Webpage Content Extraction" (Stanford CS229, 2013), re-implemented from their
//! description; the SVM is linfa's (SMO, no BLAS).
//!
//! Features of block i of n, standardized on the training blocks:
//! - seven shallow text features: words, average sentence length, text density (words per
//!   80-character line), link density, and the quotients of the words, the average sentence
//!   length and the text density to the previous block's;
//! - its relative position i / n, one-hot in [`POSITIONS`] buckets;
//! - [`TOKENS`] binary features: does the `id` or `class` of an element around the block hold
//!   token t, for the tokens of largest multinomial Naive Bayes weight
//!   |log P(t | content) − log P(t | not)| among those seen in at least [`MIN_TOKEN_BLOCKS`]
//!   training blocks.
//!
//! Labels come from the gold text (`svm`), or with no gold at all: from clustering each page's
//! blocks against its meta description (`svm-auto`, [`super::auto::description_labels`]), or
//! from forest's own wrapper on each training site's pages (`svm-forest`,
//! [`super::auto::wrapper_labels`]).

use super::{article, gold_labelled, sample, sentences, Scaler, TextBlock, MAX_TRAINING_BLOCKS};
use crate::bench::method::{Labelled, Learner, Model};
use crate::extract::{Extraction, Extractor, Rule};
use crate::{Error, Page, Result};
use linfa::prelude::*;
use linfa_svm::Svm;
use ndarray::{Array1, Array2};
use std::collections::HashMap;

/// Relative-position buckets (the paper's M).
pub const POSITIONS: usize = 10;
/// `id`/`class` tokens used as binary features.
pub const TOKENS: usize = 10;
/// Fewest training blocks a token must be seen in to be chosen.
pub const MIN_TOKEN_BLOCKS: usize = 10;
/// The SVM's C.
const C: f64 = 1.0;

/// Where training labels come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labels {
    /// The gold text (`svm`).
    Gold,
    /// The page's blocks clustered, the cluster closest to its meta description (`svm-auto`).
    Description,
    /// Forest's wrapper learned on the training site's pages (`svm-forest`).
    Wrapper,
}

/// The SVM block classifier as a bench method.
#[derive(Debug, Clone, Copy)]
pub struct SvmMethod {
    /// Where its training labels come from.
    pub labels: Labels,
}

impl SvmMethod {
    fn method_name(&self) -> &'static str {
        match self.labels {
            Labels::Gold => "svm",
            Labels::Description => "svm-auto",
            Labels::Wrapper => "svm-forest",
        }
    }
}

crate::bench::baselines::learned_method!(SvmMethod);

/// The features of block `i` of `blocks` (the token features from `tokens`).
fn features(blocks: &[TextBlock], i: usize, tokens: &[String]) -> Vec<f64> {
    let b = &blocks[i];
    let words = f64::from(b.words);
    let sentence = |b: &TextBlock| f64::from(b.words) / sentences(&b.text) as f64;
    let prev = i.checked_sub(1).and_then(|j| blocks.get(j));
    let quotient = |x: f64, p: Option<f64>| x / p.filter(|&p| p > 0.0).unwrap_or(1.0);
    let mut f = vec![
        words,
        sentence(b),
        b.text_density,
        b.link_density,
        quotient(words, prev.map(|p| f64::from(p.words))),
        quotient(sentence(b), prev.map(sentence)),
        quotient(b.text_density, prev.map(|p| p.text_density)),
    ];
    let bucket = (i * POSITIONS / blocks.len().max(1)).min(POSITIONS - 1);
    f.extend((0..POSITIONS).map(|k| if k == bucket { 1.0 } else { 0.0 }));
    f.extend(tokens.iter().map(|t| if b.names.contains(t) { 1.0 } else { 0.0 }));
    f
}

/// The [`TOKENS`] `id`/`class` tokens of largest Naive Bayes weight over labelled blocks.
fn choose_tokens(pages: &[(Vec<TextBlock>, Vec<bool>)]) -> Vec<String> {
    let mut counts: HashMap<&str, [usize; 2]> = HashMap::new();
    let mut totals = [0usize; 2];
    for (blocks, labels) in pages {
        for (b, &l) in blocks.iter().zip(labels) {
            for t in &b.names {
                counts.entry(t.as_str()).or_default()[usize::from(l)] += 1;
                totals[usize::from(l)] += 1;
            }
        }
    }
    let v = counts.len() as f64;
    let mut scored: Vec<(f64, &str)> = counts
        .iter()
        .filter(|(_, c)| c[0] + c[1] >= MIN_TOKEN_BLOCKS)
        .map(|(t, c)| {
            let p1 = (c[1] as f64 + 1.0) / (totals[1] as f64 + v);
            let p0 = (c[0] as f64 + 1.0) / (totals[0] as f64 + v);
            ((p1.ln() - p0.ln()).abs(), *t)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(TOKENS).map(|(_, t)| t.to_string()).collect()
}

impl Learner for SvmMethod {
    fn train(&self, pages: &[Labelled]) -> Result<Box<dyn Model>> {
        let labelled: Vec<(Vec<TextBlock>, Vec<bool>)> = match self.labels {
            Labels::Gold => pages.iter().map(gold_labelled).collect(),
            Labels::Description => pages.iter().filter_map(|p| super::auto::description_labels(&p.page.doc)).collect(),
            Labels::Wrapper => super::auto::wrapper_labels(pages),
        };
        let tokens = choose_tokens(&labelled);
        let rows: Vec<(Vec<f64>, bool)> = labelled
            .iter()
            .flat_map(|(blocks, labels)| (0..blocks.len()).map(|i| (features(blocks, i, &tokens), labels[i])))
            .collect();
        let rows = sample(rows, MAX_TRAINING_BLOCKS);
        let name = self.method_name().to_string();
        if !rows.iter().any(|r| r.1) || rows.iter().all(|r| r.1) {
            return Err(Error::Invalid(format!("{name}: the training pages give no content block, or nothing else")));
        }
        let x: Vec<Vec<f64>> = rows.iter().map(|r| r.0.clone()).collect();
        let scaler = Scaler::fit(&x);
        let width = x[0].len();
        let flat: Vec<f64> = x.iter().flat_map(|r| scaler.apply(r)).collect();
        let records = Array2::from_shape_vec((x.len(), width), flat).map_err(|e| Error::Internal(e.to_string()))?;
        let targets: Array1<bool> = rows.iter().map(|r| r.1).collect();
        let svm = Svm::<f64, bool>::params()
            .gaussian_kernel(width as f64)
            .pos_neg_weights(C, C)
            .fit(&Dataset::new(records, targets))
            .map_err(|e| Error::Internal(format!("{name}: the SVM did not train: {e}")))?;
        Ok(Box::new(SvmModel { name, tokens, scaler, svm }))
    }

    fn load(&self, json: &serde_json::Value) -> Result<Box<dyn Model>> {
        let mut model: SvmModel =
            serde_json::from_value(json.clone()).map_err(|e| Error::Invalid(format!("not an svm model: {e}")))?;
        model.name = self.method_name().to_string();
        Ok(Box::new(model))
    }
}

/// A trained SVM block classifier.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct SvmModel {
    #[serde(skip)]
    name: String,
    tokens: Vec<String>,
    scaler: Scaler,
    svm: Svm<f64, bool>,
}

impl SvmModel {
    /// Is block `i` content?
    fn is_content(&self, blocks: &[TextBlock], i: usize) -> bool {
        let row = Array1::from(self.scaler.apply(&features(blocks, i, &self.tokens)));
        self.svm.predict(row)
    }
}

impl Extractor for SvmModel {
    fn name(&self) -> &str {
        &self.name
    }
    fn extract(&self, page: &Page) -> Result<Extraction> {
        Ok(Extraction::new(Vec::new(), article(&page.doc, |b, i| self.is_content(b, i)), Rule::SinglePage))
    }
}

impl Model for SvmModel {
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trained on pages of one template (menu links, article paragraphs in `div.story`,
    /// footer links), the SVM keeps a new page's paragraphs: long blocks of low link density
    /// inside `story`; link-only blocks of the menu and footer are dropped.
    #[test]
    fn keeps_long_unlinked_blocks() {
        crate::bench::baselines::blocks::tests::learns_the_template(&SvmMethod { labels: Labels::Gold });
    }
}
