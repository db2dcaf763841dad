//! Overlap of two texts: their sets of word 2-grams, as the paper's metric counts them
//! ([`crate::bench::score`] scores against gold text with these), and the agreement of two
//! extractions of one page.

use super::tokens::Tokenizer;
use std::collections::HashSet;

/// Precision, recall and F1 from an overlap and the two sizes: both empty is perfect
/// agreement (1, 1, 1); one empty, none (0, 0, 0).
pub fn prf(overlap: usize, n_pred: usize, n_gold: usize) -> (f64, f64, f64) {
    match (n_pred, n_gold) {
        (0, 0) => (1.0, 1.0, 1.0),
        (0, _) | (_, 0) => (0.0, 0.0, 0.0),
        _ => {
            let p = overlap as f64 / n_pred as f64;
            let r = overlap as f64 / n_gold as f64;
            let f = if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
            (p, r, f)
        }
    }
}

/// The set of 2-grams of a token list (a text of exactly one token gives its 1-gram).
pub fn ngrams(tokens: &[String]) -> HashSet<(&str, &str)> {
    if tokens.len() == 1 {
        return [(tokens[0].as_str(), "")].into_iter().collect();
    }
    tokens.windows(2).map(|w| (w[0].as_str(), w[1].as_str())).collect()
}

/// The word tokens of `text`.
pub fn tokens(tok: &mut Tokenizer, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    tok.each(text, |t| out.push(t.to_string()));
    out
}

/// How much two texts agree: the F1 of their 2-gram sets (1 for two empty texts).
///
/// # Example
/// ```
/// use forest::text::overlap::agreement;
/// assert!((agreement("a b c d", "b c d e") - 2.0 / 3.0).abs() < 1e-12);
/// assert_eq!(agreement("", ""), 1.0);
/// ```
pub fn agreement(a: &str, b: &str) -> f64 {
    let mut tok = Tokenizer::default();
    let (ta, tb) = (tokens(&mut tok, a), tokens(&mut tok, b));
    let (sa, sb) = (ngrams(&ta), ngrams(&tb));
    prf(sa.intersection(&sb).count(), sa.len(), sb.len()).2
}
