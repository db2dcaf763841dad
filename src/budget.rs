//! Budgets: the work one page may cost (elements, nesting, XPath node visits, time), so that no
//! page, however hostile, can take a run's memory or time. A page over one is
//! [`crate::Error::OverBudget`] with the [`Limit`] it crossed: skipped, and the run goes on.
//! Input bytes are limited where they are read ([`crate::fetch::FetchOptions::max_bytes`]).

use std::time::{Duration, Instant};

/// Deepest nesting kept: Chromium's cap. Deeper elements are flattened into their ancestor at
/// this depth, as browsers do (the guard on the token stream in [`crate::clean`] does it).
pub const MAX_DEPTH: usize = 512;

/// Default node-visit budget of a page's XPath evaluations: 10 million, 2–4 s in sxd-xpath.
/// On the dev corpus, all the XPaths of a site's exported config visit at most about 300,000
/// nodes of one page (forbes.com 2005), and one XPath at most 18,000.
pub const MAX_XPATH_VISITS: u64 = 10_000_000;

/// Default element budget: the largest page of the dev corpus keeps about 1,600 elements after
/// cleaning; a 10 MB page of bare `<p>` tags (the default download cap) would have over 3
/// million, about 300 MB of tree.
pub const MAX_ELEMENTS: usize = 1_000_000;

/// Default time budget of a page, from reading to extraction, for programs that process pages
/// unattended (the library's [`Budget::default`] sets none).
pub const MAX_SECONDS: f64 = 10.0;

/// Most seconds a time limit may be (a day): a deadline past it is no deadline, and the clock
/// cannot add a time without end to the present.
pub const MAX_LIMIT_SECONDS: f64 = 86_400.0;

/// Whether `secs` can be a time limit: finite, from 0 to [`MAX_LIMIT_SECONDS`].
pub fn is_time_limit(secs: f64) -> bool {
    secs.is_finite() && (0.0..=MAX_LIMIT_SECONDS).contains(&secs)
}

/// Which budget a page went over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`Budget::max_elements`].
    Elements,
    /// [`Budget::max_time`].
    Time,
    /// [`Budget::max_xpath_visits`].
    XPathVisits,
}

/// Limits on the work one page may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Most elements (the parser's, before cleaning). Default [`MAX_ELEMENTS`].
    pub max_elements: usize,
    /// Deepest nesting kept; deeper elements are flattened into their ancestor at this depth,
    /// as browsers do. Default [`MAX_DEPTH`].
    pub max_depth: usize,
    /// Most nodes one page's XPath evaluations may visit (a wrapper or site config outside the
    /// subset forest runs directly). Default [`MAX_XPATH_VISITS`].
    pub max_xpath_visits: u64,
    /// Most time from reading a page to its extraction; parsing and XPath evaluation stop
    /// when it runs out. Default none (the command line sets [`MAX_SECONDS`]).
    pub max_time: Option<Duration>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_elements: MAX_ELEMENTS, max_depth: MAX_DEPTH, max_xpath_visits: MAX_XPATH_VISITS, max_time: None }
    }
}

impl Budget {
    /// When work on a page read now must stop.
    pub fn deadline(&self) -> Option<Instant> {
        self.max_time.and_then(|t| Instant::now().checked_add(t))
    }

    /// An error when `deadline` has passed (`stage` says where).
    ///
    /// # Errors
    /// [`crate::Error::OverBudget`] with [`Limit::Time`].
    pub fn check_deadline(&self, deadline: Option<Instant>, stage: &str) -> crate::Result<()> {
        match (deadline, self.max_time) {
            (Some(d), Some(max)) if Instant::now() > d => Err(crate::Error::OverBudget {
                what: format!("{stage} ran past the page's {} s budget", max.as_secs_f64()),
                limit: Limit::Time,
            }),
            _ => Ok(()),
        }
    }
}
