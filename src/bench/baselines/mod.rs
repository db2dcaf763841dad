//! Baselines: the methods Forest is compared with, each a [`Method`] whose extractor works on
//! one page at a time.
//!
//! - [`Fulltext`]: all visible text of the page (the floor every method must beat);
//! - [`Description`]: the feed item's title and description as the article;
//! - [`Sigfeed`]: the smallest `div` holding the most of the feed item's keywords;
//! - [`Boilerpipe`]: Boilerpipe's ArticleExtractor (Kohlschütter et al., WSDM 2010), forest's
//!   single-page path until the production extractor ([`crate::extract::readable`]) replaced it;
//! - [`cetr::Cetr`]: text-to-tag ratio of each line of the source (Weninger & Hsu, 2008/2010);
//! - [`cetd::Cetd`]: composite text density and DensitySum over the DOM (Sun, Song & Liao, 2011);
//! - [`mss::MssMethod`]: a Naive Bayes token classifier and the maximum-sum token run (Pasternack
//!   & Roth, 2009), learned from other sites' gold pages;
//! - [`blocks`]: learned classifiers of Kohlschütter's text blocks: an RBF SVM over Yao & Zuo's
//!   features (with gold labels, labels found by clustering against the meta description, or
//!   forest's wrapper as labels) and gradient-boosted trees over Dragnet-style features.
//!
//! VIPS (visual page segmentation) is not here: it needs a rendering browser.

pub mod blocks;
pub mod boilerpipe;
pub mod cetd;
pub mod cetr;
pub mod mss;
mod sigfeed;

pub use sigfeed::Sigfeed;

use super::method::Method;
use crate::extract::{Extraction, Extractor, Rule};
use crate::{Page, Result};

/// Make a stateless single-page extractor a [`Method`] as well.
macro_rules! single_page_method {
    ($ty:ident, $name:literal) => {
        impl Method for $ty {
            fn name(&self) -> &str {
                $name
            }
            fn fit(&self, _samples: &[&Page]) -> Result<Box<dyn Extractor>> {
                Ok(Box::new($ty))
            }
            fn single_page(&self) -> bool {
                true
            }
        }
    };
}

/// All visible text of the page's body.
pub struct Fulltext;

impl Extractor for Fulltext {
    fn name(&self) -> &str {
        "fulltext"
    }
    fn extract(&self, page: &Page) -> Result<Extraction> {
        let body = page.doc.body;
        Ok(Extraction::new(vec![body], page.doc.text(body), Rule::SinglePage))
    }
}

/// The feed item's title and description (empty when the page has no feed item).
pub struct Description;

impl Extractor for Description {
    fn name(&self) -> &str {
        "description"
    }
    fn extract(&self, page: &Page) -> Result<Extraction> {
        let text = page
            .item
            .as_ref()
            .map(|i| [i.title.as_str(), i.description.as_str()].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join("\n\n"))
            .unwrap_or_default();
        Ok(Extraction::new(Vec::new(), text, Rule::SinglePage))
    }
}

/// Boilerpipe's ArticleExtractor on the cleaned page.
pub struct Boilerpipe;

impl Extractor for Boilerpipe {
    fn name(&self) -> &str {
        "boilerpipe"
    }
    fn extract(&self, page: &Page) -> Result<Extraction> {
        Ok(Extraction::new(Vec::new(), boilerpipe::extract(&page.doc), Rule::SinglePage))
    }
}

/// Make a learned method's learner a [`Method`]: its `method_name()` in tables, a single-page
/// method once trained, never fitted on a site's samples (the bench trains it per fold).
macro_rules! learned_method {
    ($ty:ident) => {
        impl crate::bench::method::Method for $ty {
            fn name(&self) -> &str {
                self.method_name()
            }
            fn fit(&self, _samples: &[&crate::Page]) -> crate::Result<Box<dyn crate::extract::Extractor>> {
                Err(crate::Error::Invalid(format!(
                    "{} is trained on other sites' gold pages: run it through forest bench",
                    self.method_name()
                )))
            }
            fn single_page(&self) -> bool {
                true
            }
            fn learner(&self) -> Option<&dyn crate::bench::method::Learner> {
                Some(self)
            }
        }
    };
}
pub(crate) use learned_method;

single_page_method!(Fulltext, "fulltext");
single_page_method!(Description, "description");
single_page_method!(Boilerpipe, "boilerpipe");
single_page_method!(Sigfeed, "sigfeed");
