//! The bench's methods by name: Forest (fitted on a site's sample pages) in its variants and
//! ablations, and the baselines, each a [`Method`].

use super::baselines::cetr::{Cetr, Clustering};
use super::baselines::blocks::{gbt::GbtMethod, svm::{Labels, SvmMethod}};
use super::baselines::{cetd::Cetd, mss::MssMethod, Boilerpipe, Description, Fulltext, Sigfeed};
use super::method::{Forest, Method};
use crate::extract::{Extractor, SinglePage};
use crate::rank::Strategy;
use crate::signifiers::Source;
use crate::{Config, Error, Page, Result};

/// The methods `forest bench` knows, in table order.
pub const METHODS: &[&str] = &[
    "forest-tfidf", "forest-feeds", "coverage", "sigfeed", "description", "boilerpipe", "cetr", "cetr-km", "cetd", "mss", "svm", "svm-auto",
    "svm-forest", "gbt", "single-page",
    "fulltext",
];

/// The mechanisms beyond the paper that `forest-tfidf-no-<name>` turns off (ablation).
pub const MECHANISMS: &[&str] =
    &["template", "link-text", "link-blocks", "split", "headline", "alternatives", "anchored", "cross-check", "in-block", "templates"];

/// What `forest bench --method` accepts, in words: the methods and each ablation's mechanisms.
pub fn methods_help() -> String {
    format!(
        "Methods to run, comma-separated (default: all): {} (mss, svm* and gbt are learned: see --train); for ablation \
         forest-tfidf-no-M with M one of {}, and the cross-check's signals {}; forest-paper (all off); single-page-no-M with M \
         one of {}",
        METHODS.join(", "),
        MECHANISMS.join(", "),
        crate::extract::arbiter::SIGNALS.join(", "),
        crate::extract::readable::MECHANISMS.join(", ")
    )
}

/// `config` with one mechanism turned off.
fn without(mut config: Config, mechanism: &str) -> Result<Config> {
    match mechanism {
        "template" => config.template_min_pages = 0,
        "link-text" => config.skip_link_text = false,
        "link-blocks" => config.prune_link_blocks = false,
        "split" => config.split_articles = false,
        "headline" => config.headline = false,
        "alternatives" => config.alternatives = false,
        "anchored" => config.typing = crate::patterns::Typing::Dfs,
        "cross-check" => config.cross_check = false,
        "in-block" => config.in_block = false,
        "templates" => config.templates = false,
        signal => {
            config.signals = config.signals.without(signal).ok_or_else(|| {
                Error::Invalid(format!(
                    "unknown mechanism {mechanism:?}; known: {}, {}",
                    MECHANISMS.join(", "),
                    crate::extract::arbiter::SIGNALS.join(", ")
                ))
            })?
        }
    }
    Ok(config)
}

/// The method called `name`: one of [`METHODS`]; `forest-tfidf-no-M` for forest-tfidf with
/// mechanism M (one of [`MECHANISMS`]) turned off; `forest-paper` with all of them off (the
/// published algorithm, but for the cleaner's comment-region cut).
///
/// # Errors
/// [`Error::Invalid`] for an unknown name.
pub fn method(name: &str) -> Result<Box<dyn Method>> {
    let forest = |config: Config| -> Box<dyn Method> { Box::new(Forest { name: name.to_string(), config }) };
    if let Some(mechanism) = name.strip_prefix("forest-tfidf-no-") {
        return Ok(forest(without(Config::default(), mechanism)?));
    }
    if let Some(rest) = name.strip_prefix("single-page") {
        let options = match rest.strip_prefix("-no-") {
            Some(m) => crate::extract::readable::Options::default().without(m)?,
            None if rest.is_empty() => crate::extract::readable::Options::default(),
            None => return Err(Error::Invalid(format!("unknown method {name:?}; known: {}", METHODS.join(", ")))),
        };
        return Ok(Box::new(SinglePageMethod { name: name.to_string(), extractor: SinglePage { options } }));
    }
    if name == "forest-paper" {
        let config = MECHANISMS.iter().try_fold(Config::default(), |c, m| without(c, m))?;
        return Ok(forest(config));
    }
    Ok(match name {
        "forest-tfidf" => forest(Config::default()),
        "forest-feeds" => forest(Config { signifiers: Source::Feed, ..Config::default() }),
        "coverage" => forest(Config { rank: Strategy::Coverage, ..Config::default() }),
        "sigfeed" => Box::new(Sigfeed),
        "description" => Box::new(Description),
        "boilerpipe" => Box::new(Boilerpipe),
        "cetr" => Box::new(Cetr { clustering: Clustering::Threshold { lambda: 1.0 } }),
        "cetr-km" => Box::new(Cetr { clustering: Clustering::KMeans }),
        "cetd" => Box::new(Cetd),
        "mss" => Box::new(MssMethod),
        "svm" => Box::new(SvmMethod { labels: Labels::Gold }),
        "svm-auto" => Box::new(SvmMethod { labels: Labels::Description }),
        "svm-forest" => Box::new(SvmMethod { labels: Labels::Wrapper }),
        "gbt" => Box::new(GbtMethod),
        "fulltext" => Box::new(Fulltext),
        _ => return Err(Error::Invalid(format!("unknown method {name:?}; known: {}", METHODS.join(", ")))),
    })
}


/// The production single-page extractor as a method: `single-page`, or
/// `single-page-no-<mechanism>` with one of [`crate::extract::readable::MECHANISMS`] off.
struct SinglePageMethod {
    name: String,
    extractor: SinglePage,
}

impl Method for SinglePageMethod {
    fn name(&self) -> &str {
        &self.name
    }

    fn fit(&self, _samples: &[&Page]) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(self.extractor))
    }

    fn single_page(&self) -> bool {
        true
    }
}
