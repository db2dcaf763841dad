//! Training labels without gold text, for the SVM's `svm-auto` and `svm-forest`.
//!
//! - [`description_labels`], after the auto-labelling of Ziyan et al. ("spider"): a page's
//!   blocks are clustered by DBSCAN (ε = [`EPS`], [`MIN_POINTS`] points) over their
//!   standardized text density, link density, log word count and tag level; each cluster is
//!   scored by the longest common subsequence (in words) of its text, in page order, with the
//!   page's meta description; the best cluster's blocks are the positive examples, every other
//!   block a negative one. A page with no description, or whose best cluster shares fewer than
//!   half of the description's words in order, gives no examples.
//! - [`wrapper_labels`]: forest's own answer. On each training site, forest learns its wrapper
//!   from the site's pages (as `forest-tfidf` under the samples protocol: a site of one page
//!   gets the single-page extractor); a block is positive when the wrapper's output holds it
//!   (the bench's 2-gram rule against that output).

use super::{text_blocks, TextBlock};
use crate::bench::method::{Forest, Method};
use crate::bench::method::Labelled;
use crate::bench::train::GoldGrams;
use crate::clean::Doc;
use crate::text::overlap::tokens;
use crate::text::tokens::Tokenizer;

/// DBSCAN's neighbourhood radius, in standard deviations.
pub const EPS: f64 = 0.5;
/// DBSCAN's fewest points (the point itself included) for a core point.
pub const MIN_POINTS: usize = 3;
/// Most description words compared (the rest is cut).
const MAX_DESCRIPTION_WORDS: usize = 100;

/// A page's blocks and labels from its meta description, or `None` (see the module doc).
pub fn description_labels(doc: &Doc) -> Option<(Vec<TextBlock>, Vec<bool>)> {
    let description = doc.head.meta("description").or_else(|| doc.head.meta("og:description"))?;
    let mut tok = Tokenizer::default();
    let mut want = tokens(&mut tok, description);
    want.truncate(MAX_DESCRIPTION_WORDS);
    if want.is_empty() {
        return None;
    }
    let blocks = text_blocks(doc);
    let points: Vec<[f64; 4]> = blocks
        .iter()
        .map(|b| [b.text_density, b.link_density, f64::from(b.words).ln_1p(), f64::from(b.level)])
        .collect();
    let cluster = dbscan(&standardize(&points), EPS, MIN_POINTS);
    let clusters = cluster.iter().flatten().max().map_or(0, |m| m + 1);
    let (best, best_len) = (0..clusters)
        .map(|c| {
            let text: Vec<String> = blocks
                .iter()
                .zip(&cluster)
                .filter(|(_, k)| **k == Some(c))
                .flat_map(|(b, _)| tokens(&mut tok, &b.text))
                .collect();
            (c, lcs(&text, &want))
        })
        .max_by_key(|&(c, len)| (len, std::cmp::Reverse(c)))?;
    if 2 * best_len < want.len() {
        return None;
    }
    let labels = cluster.iter().map(|k| *k == Some(best)).collect();
    Some((blocks, labels))
}

/// Labels from forest's wrapper, learned per training site on that site's pages.
pub fn wrapper_labels(pages: &[Labelled]) -> Vec<(Vec<TextBlock>, Vec<bool>)> {
    let forest = Forest { name: "forest-tfidf".into(), config: crate::Config::default() };
    let mut sites: Vec<&str> = pages.iter().map(|p| p.site).collect();
    sites.sort_unstable();
    sites.dedup();
    let mut out = Vec::new();
    for site in sites {
        let site_pages: Vec<&crate::Page> = pages.iter().filter(|p| p.site == site).map(|p| p.page).collect();
        let Ok(extractor) = forest.fit(&site_pages) else { continue };
        for page in site_pages {
            let Ok(x) = extractor.extract(page) else { continue };
            let mut said = GoldGrams::new(&x.text);
            let blocks = text_blocks(&page.doc);
            let labels = blocks.iter().map(|b| said.is_content(&b.text)).collect();
            out.push((blocks, labels));
        }
    }
    out
}

/// Columns scaled to zero mean and unit deviation (a constant column to zero).
fn standardize(points: &[[f64; 4]]) -> Vec<[f64; 4]> {
    let n = points.len().max(1) as f64;
    let mut out = points.to_vec();
    for j in 0..4 {
        let mean = points.iter().map(|p| p[j]).sum::<f64>() / n;
        let sd = (points.iter().map(|p| (p[j] - mean).powi(2)).sum::<f64>() / n).sqrt();
        for p in &mut out {
            p[j] = if sd > 1e-12 { (p[j] - mean) / sd } else { 0.0 };
        }
    }
    out
}

/// DBSCAN: each point's cluster (`None`: noise), clusters numbered in order of discovery.
/// The expansion is a work list, not a recursion.
fn dbscan(points: &[[f64; 4]], eps: f64, min_points: usize) -> Vec<Option<usize>> {
    let near = |i: usize| -> Vec<usize> {
        (0..points.len())
            .filter(|&j| points[i].iter().zip(&points[j]).map(|(a, b)| (a - b) * (a - b)).sum::<f64>() <= eps * eps)
            .collect()
    };
    let mut cluster: Vec<Option<usize>> = vec![None; points.len()];
    let mut visited = vec![false; points.len()];
    let mut next = 0;
    for i in 0..points.len() {
        if visited[i] {
            continue;
        }
        visited[i] = true;
        let seeds = near(i);
        if seeds.len() < min_points {
            continue;
        }
        cluster[i] = Some(next);
        let mut work = seeds;
        while let Some(j) = work.pop() {
            if cluster[j].is_none() {
                cluster[j] = Some(next);
            }
            if visited[j] {
                continue;
            }
            visited[j] = true;
            let more = near(j);
            if more.len() >= min_points {
                work.extend(more);
            }
        }
        next += 1;
    }
    cluster
}

/// Length of the longest common subsequence of `a` and `b` (two rows of the table).
fn lcs(a: &[String], b: &[String]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            row[j + 1] = if x == y { prev[j] + 1 } else { row[j].max(prev[j + 1]) };
        }
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::baselines::blocks::tests::template_page;

    #[test]
    fn longest_common_subsequence() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(lcs(&w("a b c d e"), &w("b d e f")), 3);
        assert_eq!(lcs(&w("a"), &[]), 0);
    }

    #[test]
    fn dbscan_finds_two_groups_and_noise() {
        let p = |x: f64| [x, 0.0, 0.0, 0.0];
        let c = dbscan(&[p(0.0), p(0.1), p(0.2), p(5.0), p(5.1), p(5.2), p(9.0)], 0.5, 3);
        assert_eq!(c, vec![Some(0), Some(0), Some(0), Some(1), Some(1), Some(1), None]);
    }

    /// The story's paragraphs are alike (long, unlinked, one level) and cluster together; the
    /// description quotes the first of them, so that cluster is the positive one, and the
    /// menu's links are negative.
    #[test]
    fn the_cluster_quoting_the_description_is_positive() {
        let page = template_page(3);
        let (blocks, labels) = description_labels(&page.doc).expect("labels");
        let label = |needle: &str| blocks.iter().zip(&labels).find(|(b, _)| b.text.contains(needle)).map(|(_, l)| *l);
        assert_eq!(label("paragraph 0"), Some(true));
        assert_eq!(label("paragraph 3"), Some(true));
        assert_eq!(label("Menu item 2"), Some(false));
    }
}
