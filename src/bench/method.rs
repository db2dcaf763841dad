//! What a bench method is: a [`Method`], fitted on a site's sample pages, gives that site's
//! extractor (Forest is one); a learned method is also a [`Learner`], which trains a [`Model`]
//! on [`Labelled`] pages of other sites ([`super::train`] runs the training). The methods by
//! name are [`super::methods`].

use crate::extract::{Applier, Extractor, SinglePage};
use crate::wrapper::{Inducer, Summary};
use crate::{Error, Page, Result, Wrapper};

/// An extraction method: fitted on a site's sample pages, it gives that site's [`Extractor`].
pub trait Method: Sync {
    /// The method's name in tables and on the command line.
    fn name(&self) -> &str;
    /// Learn from the site's sample pages (single-page methods learn nothing).
    ///
    /// # Errors
    /// When the method cannot work on these samples (e.g. Forest with fewer than 2 pages).
    fn fit(&self, samples: &[&Page]) -> Result<Box<dyn Extractor>>;

    /// Fit once per page of `pages` on all the others, in order, handing each fit to `each`
    /// with the page left out: the unseen protocol. A method may read each page once for all
    /// the fits.
    fn fit_leaving_out(&self, pages: &[&Page], each: &mut dyn FnMut(usize, Result<Box<dyn Extractor>>)) {
        for i in 0..pages.len() {
            each(i, self.fit(&others(pages, i)));
        }
    }

    /// Does the extractor ignore the samples (a single-page method)? Then its output on a
    /// page is the same whatever it was fitted on.
    fn single_page(&self) -> bool {
        false
    }

    /// For a method that learns from labelled pages of other sites (the bench trains it per
    /// fold, [`super::train`]): its learner.
    fn learner(&self) -> Option<&dyn Learner> {
        None
    }
}

/// Forest as a [`Method`]: induce a wrapper on the samples, apply it with fallbacks.
pub struct Forest {
    /// Name in tables (`forest-tfidf`, `forest-feeds`, `coverage`, …).
    pub name: String,
    /// Induction settings.
    pub config: crate::Config,
}

impl Method for Forest {
    fn name(&self) -> &str {
        &self.name
    }

    fn fit(&self, samples: &[&Page]) -> Result<Box<dyn Extractor>> {
        self.extractor(Wrapper::induce(&self.name, samples, &self.config))
    }

    /// Each page is summarized once ([`Summary::of`]); each fit adds clones of the others'
    /// summaries, which gives the wrapper [`Wrapper::induce`] gives on those pages.
    fn fit_leaving_out(&self, pages: &[&Page], each: &mut dyn FnMut(usize, Result<Box<dyn Extractor>>)) {
        let summaries: Vec<Summary> = pages.iter().map(|p| Summary::of(p, &self.config)).collect();
        for i in 0..pages.len() {
            let mut inducer = Inducer::new(&self.name, self.config.clone());
            for (_, s) in summaries.iter().enumerate().filter(|&(j, _)| j != i) {
                inducer.add_summary(s.clone());
            }
            each(i, self.extractor(inducer.finish()));
        }
    }
}

impl Forest {
    /// The extractor of an induction: its wrapper applied, or the single-page extractor when
    /// the samples give no wrapper, as `forest apply` does for a site it has no wrapper for.
    fn extractor(&self, induction: Result<crate::wrapper::Induction>) -> Result<Box<dyn Extractor>> {
        let induction = match induction {
            Err(Error::TooFewPages { .. } | Error::NoPattern { .. }) if self.config.cross_check => {
                return Ok(Box::new(SinglePage::default()));
            }
            other => other?,
        };
        Ok(Box::new(
            Applier::new(induction.wrapper)?
                .cross_checked(self.config.cross_check)
                .weighing(self.config.signals)
                .cleaned_in_block(self.config.in_block),
        ))
    }
}

/// The pages but the one at `i`.
fn others<'a>(pages: &[&'a Page], i: usize) -> Vec<&'a Page> {
    pages.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, p)| *p).collect()
}

/// A gold page to learn from: the page and its gold text.
#[derive(Clone, Copy)]
pub struct Labelled<'a> {
    /// Its site's folder name.
    pub site: &'a str,
    /// The cleaned page.
    pub page: &'a Page,
    /// Its gold article text.
    pub gold: &'a str,
}

/// A method that learns from labelled pages.
pub trait Learner: Sync {
    /// Train a model on `pages` (pages of training sites only).
    ///
    /// # Errors
    /// [`Error::Invalid`] when the pages hold nothing to learn from.
    fn train(&self, pages: &[Labelled]) -> Result<Box<dyn Model>>;
    /// A model back from the JSON [`Model::to_json`] wrote.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the JSON is not this method's model.
    fn load(&self, json: &serde_json::Value) -> Result<Box<dyn Model>>;
}

/// A trained model: an extractor of any page, that can be written as JSON.
pub trait Model: Extractor + Send + Sync {
    /// The model as JSON, read back by [`Learner::load`].
    fn to_json(&self) -> serde_json::Value;
}
