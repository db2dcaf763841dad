//! The metric of the Forest paper, exactly as `shared/tools/score.py` computes it.
//!
//! Per page: S = set of word 2-grams of the output, G = set of 2-grams of the gold text
//! (a text of exactly one token contributes its 1-gram). P = |G∩S|/|S|, R = |G∩S|/|G|,
//! F1 = 2PR/(P+R). Both empty: P = R = F1 = 1; exactly one empty: all 0. Bag-of-words P/R/F1
//! do the same on the multiset of tokens. Tokens are [`crate::text::tokens`]'.

use crate::text::overlap::{ngrams, prf, tokens};
use crate::text::tokens::Tokenizer;
use std::collections::HashMap;

/// Precision, recall and F1 of one page, on 2-gram sets and on bags of words.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Scores {
    /// 2-gram precision.
    pub p: f64,
    /// 2-gram recall.
    pub r: f64,
    /// 2-gram F1.
    pub f1: f64,
    /// Bag-of-words precision.
    pub bow_p: f64,
    /// Bag-of-words recall.
    pub bow_r: f64,
    /// Bag-of-words F1.
    pub bow_f1: f64,
}

/// Score one page's output against its gold text.
///
/// # Example
/// ```
/// let s = forest::bench::score::score("a b c d", "b c d e");
/// assert!((s.f1 - 2.0 / 3.0).abs() < 1e-12);
/// assert!((s.bow_f1 - 0.75).abs() < 1e-12);
/// ```
pub fn score(gold: &str, pred: &str) -> Scores {
    let mut tok = Tokenizer::default();
    let (gt, pt) = (tokens(&mut tok, gold), tokens(&mut tok, pred));
    let (g, s) = (ngrams(&gt), ngrams(&pt));
    let (p, r, f1) = prf(g.intersection(&s).count(), s.len(), g.len());
    let mut gc: HashMap<&str, usize> = HashMap::new();
    for t in &gt {
        *gc.entry(t).or_insert(0) += 1;
    }
    let mut pc: HashMap<&str, usize> = HashMap::new();
    for t in &pt {
        *pc.entry(t).or_insert(0) += 1;
    }
    let overlap = pc.iter().map(|(t, &c)| c.min(gc.get(t).copied().unwrap_or(0))).sum();
    let (bow_p, bow_r, bow_f1) = prf(overlap, pt.len(), gt.len());
    Scores { p, r, f1, bow_p, bow_r, bow_f1 }
}

/// The q-quantile (0..=1) of `values`, interpolating linearly between order statistics
/// (numpy's default, as score.py). NaN for no values.
pub fn percentile(values: &[f64], q: f64) -> f64 {
    let mut xs = values.to_vec();
    xs.sort_by(f64::total_cmp);
    if xs.is_empty() {
        return f64::NAN;
    }
    let pos = q * (xs.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(xs.len() - 1);
    xs[lo] + (xs[hi] - xs[lo]) * (pos - lo as f64)
}

/// Spearman's rank correlation of `xs` and `ys` (tied values share their mean rank); NaN
/// for fewer than two pairs or when either side is constant.
pub fn spearman(xs: &[f64], ys: &[f64]) -> f64 {
    let (rx, ry) = (ranks(xs), ranks(ys));
    let n = rx.len().min(ry.len());
    if n < 2 {
        return f64::NAN;
    }
    let mean = (n as f64 - 1.0) / 2.0;
    let (mut cov, mut vx, mut vy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        cov += (a - mean) * (b - mean);
        vx += (a - mean) * (a - mean);
        vy += (b - mean) * (b - mean);
    }
    cov / (vx * vy).sqrt()
}

/// The rank of each value (0-based; tied values share their mean rank).
fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut out = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]].total_cmp(&xs[order[i]]).is_eq() {
            j += 1;
        }
        for &k in &order[i..=j] {
            out[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_ranks_with_ties() {
        assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        // Ties share their mean rank: x ranks 0.5, 0.5, 2; y ranks 0, 1, 2.
        let r = spearman(&[1.0, 1.0, 5.0], &[1.0, 2.0, 3.0]);
        assert!((r - 1.5 / 3f64.sqrt()).abs() < 1e-12, "{r}");
        assert!(spearman(&[1.0, 1.0], &[1.0, 2.0]).is_nan());
        assert!(spearman(&[1.0], &[1.0]).is_nan());
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn reference_cases() {
        let s = score("a b a b", "A, B.");
        assert!(close(s.p, 1.0) && close(s.r, 0.5) && close(s.f1, 2.0 / 3.0));
        assert!(close(s.bow_f1, 2.0 / 3.0));
        assert!(close(score("", "").f1, 1.0));
        assert!(close(score("...", " ").f1, 1.0));
        assert!(close(score("x y", "").f1, 0.0));
        assert!(close(score("", "x y").f1, 0.0));
        assert!(close(score("Word", "word.").f1, 1.0));
        assert!(close(score("word", "word more").f1, 0.0));
        assert!(close(score("word", "word more").bow_f1, 2.0 / 3.0));
        assert!(close(score("我爱北京", "爱北京天").f1, 2.0 / 3.0));
    }

    #[test]
    fn percentiles_interpolate() {
        assert!(close(percentile(&[40.0, 0.0, 20.0, 10.0, 30.0], 0.1), 4.0));
        assert!(close(percentile(&[0.0, 10.0, 20.0, 30.0, 40.0], 0.9), 36.0));
        assert!(close(percentile(&[7.0], 0.25), 7.0));
    }
}
