//! Gradient-boosted trees over text blocks with shallow text and structural features and the
//! features of the neighbouring blocks as context, after the Dragnet line of work (M. E.
//! Peters and D. Lecocq, "Content Extraction Using Diverse Feature Sets", WWW 2013 companion;
//! Kohlschütter et al.'s shallow text features, the blocks' neighbours as context), written
//! from their descriptions; the trees are the `gbdt` crate's (log-likelihood loss, 100 trees
//! of depth 4, shrinkage 0.1, no sampling: deterministic).
//!
//! Features of block i of n (43): for each of the blocks i−2 … i+2 (zeros past either end)
//! eight shallow ones, log(1 + words), text density, link density, average word length,
//! average sentence length, tag level, in a heading, in a list item; then the relative
//! position i / n, the signed distance (j − i) / n to the block j that shares most words with
//! the page's `<title>` (1 when none does), and the share of the block's words that are in
//! the title.

use super::{article, gold_labelled, sample, sentences, TextBlock};
use crate::bench::method::{Labelled, Learner, Model};
use crate::extract::{Extraction, Extractor, Rule};
use crate::text::overlap::tokens;
use crate::text::tokens::Tokenizer;
use crate::{Error, Page, Result};
use gbdt::config::Config;
use gbdt::decision_tree::{Data, DataVec};
use gbdt::gradient_boost::GBDT;
use std::collections::HashSet;

/// Most training blocks (trees are cheaper than kernels: more than the SVM's).
pub const MAX_TRAINING_BLOCKS: usize = 20_000;
/// Neighbours on each side whose features are context.
const CONTEXT: usize = 2;
/// Shallow features per block.
const SHALLOW: usize = 8;
/// Feature count.
pub const FEATURES: usize = SHALLOW * (2 * CONTEXT + 1) + 3;

/// The gradient-boosted block classifier as a bench method (`gbt`).
#[derive(Debug, Clone, Copy)]
pub struct GbtMethod;

impl GbtMethod {
    fn method_name(&self) -> &'static str {
        "gbt"
    }
}

crate::bench::baselines::learned_method!(GbtMethod);

fn shallow(b: &TextBlock) -> [f64; SHALLOW] {
    let words = f64::from(b.words);
    let letters = b.text.chars().filter(|c| c.is_alphanumeric()).count() as f64;
    [
        words.ln_1p(),
        b.text_density,
        b.link_density,
        if words > 0.0 { letters / words } else { 0.0 },
        words / sentences(&b.text) as f64,
        f64::from(b.level),
        f64::from(u8::from(b.heading)),
        f64::from(u8::from(b.list_item)),
    ]
}

/// The features of every block of a page titled `title`.
fn page_features(blocks: &[TextBlock], title: &str) -> Vec<Vec<f32>> {
    let mut tok = Tokenizer::default();
    let title_words: HashSet<String> = tokens(&mut tok, title).into_iter().collect();
    let in_title: Vec<(usize, usize)> = blocks
        .iter()
        .map(|b| {
            let t = tokens(&mut tok, &b.text);
            (t.iter().filter(|w| title_words.contains(*w)).count(), t.len())
        })
        .collect();
    let title_block = in_title.iter().enumerate().filter(|(_, (hits, _))| *hits > 0).max_by_key(|(j, (hits, _))| (*hits, std::cmp::Reverse(*j))).map(|(j, _)| j);
    let base: Vec<[f64; SHALLOW]> = blocks.iter().map(shallow).collect();
    let n = blocks.len().max(1) as f64;
    (0..blocks.len())
        .map(|i| {
            let mut f = Vec::with_capacity(FEATURES);
            for d in 0..=2 * CONTEXT {
                let j = (i + d).checked_sub(CONTEXT);
                f.extend(j.and_then(|j| base.get(j)).copied().unwrap_or([0.0; SHALLOW]));
            }
            f.push(i as f64 / n);
            f.push(title_block.map_or(1.0, |t| (t as f64 - i as f64) / n));
            let (hits, len) = in_title[i];
            f.push(if len > 0 { hits as f64 / len as f64 } else { 0.0 });
            f.into_iter().map(|x| x as f32).collect()
        })
        .collect()
}

fn config() -> Config {
    let mut cfg = Config::new();
    cfg.set_feature_size(FEATURES);
    cfg.set_max_depth(4);
    cfg.set_iterations(100);
    cfg.set_shrinkage(0.1);
    cfg.set_loss("LogLikelyhood");
    cfg.set_min_leaf_size(5);
    cfg.set_training_optimization_level(2);
    cfg
}

impl Learner for GbtMethod {
    fn train(&self, pages: &[Labelled]) -> Result<Box<dyn Model>> {
        let mut rows = Vec::new();
        for p in pages {
            let (blocks, labels) = gold_labelled(p);
            rows.extend(page_features(&blocks, &p.page.doc.title).into_iter().zip(labels));
        }
        let rows = sample(rows, MAX_TRAINING_BLOCKS);
        if !rows.iter().any(|r| r.1) || rows.iter().all(|r| r.1) {
            return Err(Error::Invalid("gbt: the training pages give no content block, or nothing else".into()));
        }
        let mut data: DataVec =
            rows.into_iter().map(|(f, l)| Data::new_training_data(f, 1.0, if l { 1.0 } else { -1.0 }, None)).collect();
        let mut trees = GBDT::new(&config());
        trees.fit(&mut data);
        Ok(Box::new(GbtModel { trees }))
    }

    fn load(&self, json: &serde_json::Value) -> Result<Box<dyn Model>> {
        let trees: GBDT = serde_json::from_value(json.clone()).map_err(|e| Error::Invalid(format!("not a gbt model: {e}")))?;
        Ok(Box::new(GbtModel { trees }))
    }
}

/// Trained gradient-boosted trees.
pub struct GbtModel {
    trees: GBDT,
}

impl Extractor for GbtModel {
    fn name(&self) -> &str {
        "gbt"
    }
    fn extract(&self, page: &Page) -> Result<Extraction> {
        let blocks = super::text_blocks(&page.doc);
        let data: DataVec = page_features(&blocks, &page.doc.title).into_iter().map(|f| Data::new_test_data(f, None)).collect();
        let p = if data.is_empty() { Vec::new() } else { self.trees.predict(&data) };
        let text = article(&page.doc, |_, i| p.get(i).is_some_and(|&p| p >= 0.5));
        Ok(Extraction::new(Vec::new(), text, Rule::SinglePage))
    }
}

impl Model for GbtModel {
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.trees).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::baselines::blocks::tests::template_page;

    /// As the SVM's test: long unlinked blocks after the title block are the story; the trees
    /// learn it from twelve pages of the template and keep it on a new one.
    #[test]
    fn keeps_the_story_blocks() {
        crate::bench::baselines::blocks::tests::learns_the_template(&GbtMethod);
    }

    #[test]
    fn feature_width() {
        let page = template_page(1);
        let blocks = crate::bench::baselines::boilerpipe::text_blocks(&page.doc);
        assert!(page_features(&blocks, "Story 1").iter().all(|f| f.len() == FEATURES));
    }
}
