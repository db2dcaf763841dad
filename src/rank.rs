//! Rank: how relevant each structural pattern is to the pages' signifiers (paper §3.4).
//!
//! For an element with x signifier occurrences and y other term occurrences, on a page with X
//! and Y of them:
//!
//! - J = max(0, (x + ½ − √((x + ½)(y + ½) / N)) / (N + 1)), N = x + y: how *exclusively* the
//!   element is about the signifiers (a Jaccard-like measure with a Wilson-style correction);
//! - U = (x + y)·ln(X + Y) − x·ln X − y·ln Y (natural log): how much *information* the element
//!   carries about the page;
//! - I = J · U.
//!
//! A pattern's relevance is R = Σ_pages I · p · level, where p is the number of pages that have
//! the pattern and I is, on each page, the best I among the pattern's elements there. A
//! [`Ranker`] gives the per-element score: [`Forest`] (I) or [`Coverage`] (the element's share
//! of the page's signifier weight), so strategies can be swapped and compared.

use crate::patterns::{Candidate, PageCandidates, Pattern};
use crate::{Error, Result};
use std::collections::HashMap;

/// J(x, y): exclusiveness of an element's text to the signifiers.
///
/// # Example
/// ```
/// assert!((forest::rank::j(1, 0) - 0.317).abs() < 0.001);
/// ```
pub fn j(x: u32, y: u32) -> f64 {
    let (x, y) = (f64::from(x), f64::from(y));
    let n = x + y;
    if n == 0.0 {
        return 0.0;
    }
    ((x + 0.5 - ((x + 0.5) * (y + 0.5) / n).sqrt()) / (n + 1.0)).max(0.0)
}

/// `a · ln b`, taken as 0 when `a` is 0 (so empty classes cost nothing).
fn xlny(a: f64, b: f64) -> f64 {
    if a == 0.0 {
        0.0
    } else {
        a * b.ln()
    }
}

/// U(x, y; X, Y): information carried by an element about its page.
///
/// # Example
/// ```
/// assert!((forest::rank::u(10, 26, 20, 100) - 22.66).abs() < 0.01);
/// ```
pub fn u(x: u32, y: u32, big_x: u32, big_y: u32) -> f64 {
    let (x, y, bx, by) = (f64::from(x), f64::from(y), f64::from(big_x), f64::from(big_y));
    xlny(x + y, bx + by) - xlny(x, bx) - xlny(y, by)
}

/// Scores one candidate element on its page.
pub trait Ranker: Sync {
    /// Name used on the command line and in wrappers.
    fn name(&self) -> &'static str;
    /// The element's score on its page (the paper's I for Forest).
    fn score(&self, c: &Candidate, page: &PageCandidates) -> f64;
}

/// The paper's measure: I = J · U.
pub struct Forest;

impl Ranker for Forest {
    fn name(&self) -> &'static str {
        "forest"
    }
    fn score(&self, c: &Candidate, page: &PageCandidates) -> f64 {
        j(c.x, c.y) * u(c.x, c.y, page.total_x, page.total_y)
    }
}

/// The coverage baseline: the element's share of the page's tf-idf-weighted signifier
/// occurrences (1 for any element holding them all).
pub struct Coverage;

impl Ranker for Coverage {
    fn name(&self) -> &'static str {
        "coverage"
    }
    fn score(&self, c: &Candidate, page: &PageCandidates) -> f64 {
        if page.total_weight > 0.0 {
            c.weight / page.total_weight
        } else {
            0.0
        }
    }
}

/// The J-only and U-only ablations of [`Forest`] (the paper's Figure 7).
pub struct JOnly;
/// See [`JOnly`].
pub struct UOnly;

impl Ranker for JOnly {
    fn name(&self) -> &'static str {
        "j"
    }
    fn score(&self, c: &Candidate, _: &PageCandidates) -> f64 {
        j(c.x, c.y)
    }
}

impl Ranker for UOnly {
    fn name(&self) -> &'static str {
        "u"
    }
    fn score(&self, c: &Candidate, page: &PageCandidates) -> f64 {
        u(c.x, c.y, page.total_x, page.total_y)
    }
}

/// A ranking strategy: which [`Ranker`] scores the candidates. Written into wrappers by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// The paper's I = J · U ([`Forest`]).
    #[default]
    Forest,
    /// The coverage baseline ([`Coverage`]).
    Coverage,
    /// J alone (an ablation, Figure 7).
    J,
    /// U alone (an ablation, Figure 7).
    U,
}

impl Strategy {
    /// The ranker of this strategy.
    pub fn ranker(self) -> &'static dyn Ranker {
        match self {
            Strategy::Forest => &Forest,
            Strategy::Coverage => &Coverage,
            Strategy::J => &JOnly,
            Strategy::U => &UOnly,
        }
    }

    /// Its name: `forest`, `coverage`, `j` or `u`.
    pub fn name(self) -> &'static str {
        self.ranker().name()
    }
}

impl std::str::FromStr for Strategy {
    type Err = Error;
    fn from_str(name: &str) -> Result<Self> {
        match name {
            "forest" => Ok(Strategy::Forest),
            "coverage" => Ok(Strategy::Coverage),
            "j" => Ok(Strategy::J),
            "u" => Ok(Strategy::U),
            _ => Err(Error::Invalid(format!("unknown ranking {name:?}: use forest or coverage"))),
        }
    }
}

/// A pattern with its relevance over the sample.
#[derive(Debug, Clone)]
pub struct Ranked {
    /// The structural pattern.
    pub pattern: Pattern,
    /// R: Σ I · p · level.
    pub relevance: f64,
    /// p: pages where the pattern occurs.
    pub pages: usize,
    /// On each sample page that has the pattern, in page order: (page index, the best
    /// element's dfs, its score). Sparse, so memory grows with the pages a pattern is on.
    pub best: Vec<(usize, u32, f64)>,
}

impl Ranked {
    /// The distinct dfs numbers of the best elements, ascending.
    pub fn dfs(&self) -> Vec<u32> {
        let mut d: Vec<u32> = self.best.iter().map(|&(_, d, _)| d).collect();
        d.sort_unstable();
        d.dedup();
        d
    }
}

/// Rank every pattern seen on the pages, most relevant first (ties: fewer pages last, then
/// deeper level first, then pattern order, so the result never depends on hash order).
pub fn rank<P: std::borrow::Borrow<PageCandidates>>(pages: &[P], ranker: &dyn Ranker) -> Vec<Ranked> {
    let mut by_pattern: HashMap<&Pattern, Vec<(usize, u32, f64)>> = HashMap::new();
    for (i, page) in pages.iter().map(std::borrow::Borrow::borrow).enumerate() {
        for c in &page.candidates {
            let s = ranker.score(c, page);
            let hits = by_pattern.entry(&*c.pattern).or_default();
            // Pages are visited in order, so this page's entry, if any, is the last.
            match hits.last_mut() {
                Some(last) if last.0 == i => {
                    if s > last.2 {
                        *last = (i, c.dfs, s);
                    }
                }
                _ => hits.push((i, c.dfs, s)),
            }
        }
    }
    let mut ranked: Vec<Ranked> = by_pattern
        .into_iter()
        .map(|(pattern, best)| {
            let p = best.len();
            let sum: f64 = best.iter().map(|&(_, _, s)| s).sum();
            Ranked { relevance: sum * p as f64 * f64::from(pattern.level), pattern: pattern.clone(), pages: p, best }
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.relevance
            .total_cmp(&a.relevance)
            .then(b.pages.cmp(&a.pages))
            .then(b.pattern.level.cmp(&a.pattern.level))
            .then(a.pattern.cmp(&b.pattern))
    });
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_figures() {
        assert!((j(1, 0) - 0.32).abs() < 0.005);
        assert!((j(8, 20) - j(3, 5)).abs() < 0.02);
        assert!((u(10, 26, 20, 100) - 22.7).abs() < 0.05);
        assert!((u(3, 1, 20, 100) - 5.5).abs() < 0.1);
        assert_eq!(j(0, 10), 0.0);
        assert_eq!(j(0, 0), 0.0);
        assert!(u(0, 0, 0, 0).abs() < 1e-12);
    }
}
