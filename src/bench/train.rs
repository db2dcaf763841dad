//! Learned methods: trained on gold pages of *other* sites, never on a page of the site they are
//! tested on.
//!
//! A learned method is a [`Learner`]: it trains a [`Model`] from labelled pages, and a model
//! extracts any page on its own (it is a single-page method once trained). The bench splits
//! *hosts* into [`Options::folds`](super::Options::folds) folds (a gold set's site folders
//! `<set>-<host>[-<era>]` are grouped by host, so the four eras of one newspaper fall in one
//! fold); each fold's sites are extracted by a model trained on every other host of the pool:
//! the bench's own sites plus any [`Training::extra`] gold sets (`forest bench --train`).
//! With [`Training::loaded`] (`--load-model`), the loaded model is used on every site instead.
//!
//! Models are saved and loaded as one JSON object by method name ([`Models::save`],
//! [`Models::load`]).

use super::method::{Labelled, Learner, Model};
use super::{GoldSite, Method};
use crate::extract::{Extraction, Extractor};
use crate::text::overlap::{ngrams, tokens};
use crate::text::tokens::Tokenizer;
use crate::{Error, Page, Result};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;

/// What learned methods learn from, besides the bench's own sites.
#[derive(Default)]
pub struct Training<'a> {
    /// More gold sites to train on (hosts of the fold under test are left out of them too).
    pub extra: &'a [GoldSite],
    /// Models read from a file: used on every site, nothing trained.
    pub loaded: Models,
}

/// Trained models, by method name.
#[derive(Default, Clone)]
pub struct Models(pub BTreeMap<String, Arc<dyn Model>>);

impl Models {
    /// Write the models as one JSON object `{method: model}`.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        let json: serde_json::Map<String, serde_json::Value> = self.0.iter().map(|(k, m)| (k.clone(), m.to_json())).collect();
        let text = serde_json::to_string(&json).map_err(|e| Error::Internal(e.to_string()))?;
        std::fs::write(path, text).map_err(|source| Error::Io { path: path.to_path_buf(), source })
    }

    /// Read models written by [`Models::save`]; each method named in the file must be a
    /// learned method.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read; [`Error::Invalid`] when it is not a model
    /// file, or names a method that learns nothing.
    pub fn load(path: &Path) -> Result<Models> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
        let bad = |why: String| Error::Invalid(format!("{} is not a forest bench model file: {why}", path.display()));
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let obj = json.as_object().ok_or_else(|| bad("not a JSON object".into()))?;
        let mut models = Models::default();
        for (name, value) in obj {
            let method = super::method(name)?;
            let learner = method.learner().ok_or_else(|| bad(format!("{name} is not a learned method")))?;
            models.0.insert(name.clone(), Arc::from(learner.load(value)?));
        }
        Ok(models)
    }
}

/// Train every learned method among `methods` on all pages of the [`pool`] of `sites` and
/// `extra` (for [`Models::save`]).
///
/// # Errors
/// As [`Learner::train`].
pub fn train_all(sites: &[GoldSite], extra: &[GoldSite], methods: &[Box<dyn Method>]) -> Result<Models> {
    let pages = labelled(pool(sites, extra).into_iter());
    let mut models = Models::default();
    for m in methods {
        if let Some(learner) = m.learner() {
            models.0.insert(m.name().to_string(), Arc::from(learner.train(&pages)?));
        }
    }
    Ok(models)
}

/// The sites learned methods train on: the bench's `sites` and the `extra` ones (a site of
/// the same folder name as one of `sites` is that site, taken once).
pub fn pool<'a>(sites: &'a [GoldSite], extra: &'a [GoldSite]) -> Vec<&'a GoldSite> {
    let names: HashSet<&str> = sites.iter().map(|s| s.name.as_str()).collect();
    sites.iter().chain(extra.iter().filter(|s| !names.contains(s.name.as_str()))).collect()
}

/// The labelled pages of `sites`.
pub fn labelled<'a>(sites: impl Iterator<Item = &'a GoldSite>) -> Vec<Labelled<'a>> {
    sites.flat_map(|s| s.pages.iter().map(|gp| Labelled { site: &s.name, page: &gp.page, gold: &gp.gold })).collect()
}

/// The host a gold site folder stands for: `big9-arstechnica.com-2005` → `arstechnica.com`
/// (a leading `<set>-` and a trailing `-<year>` dropped, and a leading `www.`); a name with no
/// dot after its first `-` is its own host.
pub fn host_key(site: &str) -> String {
    let rest = match site.split_once('-') {
        Some((_, rest)) if rest.contains('.') => rest,
        _ => site,
    };
    let rest = match rest.rsplit_once('-') {
        Some((head, year)) if year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => rest,
    };
    rest.strip_prefix("www.").unwrap_or(rest).to_ascii_lowercase()
}

/// For each of `sites`, its fold: hosts in name order, dealt round-robin into `folds` folds.
pub fn folds_of(sites: &[GoldSite], folds: usize) -> Vec<usize> {
    let hosts: BTreeSet<String> = sites.iter().map(|s| host_key(&s.name)).collect();
    let index: BTreeMap<&String, usize> = hosts.iter().enumerate().map(|(i, h)| (h, i % folds.max(1))).collect();
    sites.iter().map(|s| index.get(&host_key(&s.name)).copied().unwrap_or(0)).collect()
}

/// For one learned method: each fold's model, trained on the pool's hosts outside the fold.
pub(super) struct FoldModels {
    /// Fold of each bench site.
    pub fold_of: Vec<usize>,
    /// Model of each fold (one for all when loaded), or why it could not be trained (its
    /// pages then count as failures, and the run goes on).
    pub models: Vec<std::result::Result<Arc<dyn Model>, String>>,
}

impl FoldModels {
    /// The model that extracts bench site `site`.
    pub fn for_site(&self, site: usize) -> Option<&std::result::Result<Arc<dyn Model>, String>> {
        let fold = self.fold_of.get(site).copied().unwrap_or(0);
        self.models.get(fold).or_else(|| self.models.first())
    }
}

/// Train `learner` once per fold of the bench's `sites` (or take its loaded model).
pub(super) fn fold_models(name: &str, learner: &dyn Learner, sites: &[GoldSite], training: &Training, folds: usize) -> FoldModels {
    if let Some(model) = training.loaded.0.get(name) {
        return FoldModels { fold_of: vec![0; sites.len()], models: vec![Ok(model.clone())] };
    }
    let fold_of = folds_of(sites, folds);
    let pool = pool(sites, training.extra);
    let folds = fold_of.iter().max().map_or(1, |m| m + 1);
    let mut models = Vec::with_capacity(folds);
    for fold in 0..folds {
        let held: HashSet<String> =
            sites.iter().zip(&fold_of).filter(|(_, &f)| f == fold).map(|(s, _)| host_key(&s.name)).collect();
        let train = labelled(pool.iter().copied().filter(|s| !held.contains(&host_key(&s.name))));
        models.push(learner.train(&train).map(Arc::from).map_err(|e| e.to_string()));
    }
    FoldModels { fold_of, models }
}

/// A trained model shared by the sites of a fold, as a single-page [`Method`] (or why it
/// could not be trained: then it fails on every page).
pub(super) struct Trained {
    pub name: String,
    pub model: std::result::Result<Arc<dyn Model>, String>,
}

impl Method for Trained {
    fn name(&self) -> &str {
        &self.name
    }
    fn fit(&self, _samples: &[&Page]) -> Result<Box<dyn Extractor>> {
        match &self.model {
            Ok(model) => Ok(Box::new(Shared(model.clone()))),
            Err(why) => Err(Error::Invalid(why.clone())),
        }
    }
    fn single_page(&self) -> bool {
        true
    }
}

/// A shared model as an [`Extractor`].
struct Shared(Arc<dyn Model>);

impl Extractor for Shared {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn extract(&self, page: &Page) -> Result<Extraction> {
        self.0.extract(page)
    }
}

/// The gold text's word 2-grams, for labelling pieces of a page.
pub struct GoldGrams {
    grams: HashSet<(String, String)>,
    words: HashSet<String>,
    tok: Tokenizer,
}

impl GoldGrams {
    /// The 2-grams (and words) of `gold`, tokenized as the score does.
    pub fn new(gold: &str) -> GoldGrams {
        let mut tok = Tokenizer::default();
        let t = tokens(&mut tok, gold);
        let grams = ngrams(&t).into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        GoldGrams { grams, words: t.into_iter().collect(), tok }
    }

    /// Is `text` article text? The labelling rule of every learned method: yes when at least
    /// half of its word 2-grams are 2-grams of the gold text (a one-word text: when the gold
    /// has the word); a text without words is not.
    pub fn is_content(&mut self, text: &str) -> bool {
        let t = tokens(&mut self.tok, text);
        match t.len() {
            0 => false,
            1 => self.words.contains(&t[0]),
            n => {
                let hits = t.windows(2).filter(|w| self.grams.contains(&(w[0].clone(), w[1].clone()))).count();
                2 * hits >= n - 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_group_eras_and_sets() {
        assert_eq!(host_key("big9-arstechnica.com-2005"), "arstechnica.com");
        assert_eq!(host_key("chaos-www.abc.net.au"), "abc.net.au");
        assert_eq!(host_key("wcxb-amazon.com"), "amazon.com");
        assert_eq!(host_key("demo-news"), "demo-news");
    }

    #[test]
    fn labels_by_gold_bigrams() {
        let mut g = GoldGrams::new("The bridge will close for six weeks of repairs.");
        assert!(g.is_content("the bridge will close"));
        assert!(g.is_content("Bridge will close, readers said"));
        assert!(!g.is_content("Home News Sport Contact"));
        assert!(g.is_content("bridge"));
        assert!(!g.is_content(""));
    }
}
