//! Text: what a word is, and which terms a language makes of words. The floor every stage that
//! reads text stands on: the signifiers, the template, the bench's scorer and the index's
//! analyzer all count the same words.
//!
//! - [`tokens`]: word tokens exactly as the reference scorer makes them;
//! - [`language`]: languages (stemmer and stop words) and the [`Analyzer`] that interns terms;
//! - [`overlap`]: word 2-gram sets, the metric's core and the agreement of two extractions;
//! - [`ends_sentence`], [`is_sentence`]: what a sentence is, for every stage that tells a
//!   sentence from a label (the template's lines, the article's start and its terminators).

pub mod language;
pub mod overlap;
pub mod tokens;

pub use language::{Analyzer, Language, TermId};
pub use tokens::{tokenize, Tokenizer};

/// Marks that end a sentence: full stop, question and exclamation marks (and their full-width
/// forms), the ellipsis.
const SENTENCE_ENDS: [char; 7] = ['.', '!', '?', '。', '！', '？', '…'];

/// Closing quotes and brackets that may follow a sentence's last mark (`"It rained."`).
const CLOSERS: [char; 7] = ['"', '\'', '”', '’', '»', ')', ']'];

/// Does `s` end a sentence: is its last mark, past white space and closing quotes or brackets,
/// one of a sentence's ends?
pub fn ends_sentence(s: &str) -> bool {
    s.trim_end().trim_end_matches(CLOSERS).ends_with(SENTENCE_ENDS)
}

/// Is `s` a sentence: more than three words, ending one ([`ends_sentence`])? A label, a
/// heading or a name is not (`Related`, `See also:`, `About the author`).
pub fn is_sentence(s: &str) -> bool {
    ends_sentence(s) && s.split_whitespace().nth(3).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_has_more_than_three_words_and_ends_with_its_mark() {
        assert!(is_sentence("See also man emirrordist."));
        assert!(is_sentence("Was it worth the wait?\u{201d}"));
        assert!(is_sentence("He said it would rain (and it did.)"));
        assert!(!is_sentence("Related stories."));
        assert!(!is_sentence("About the author of this"));
        assert!(ends_sentence("雨が降った。"));
        assert!(ends_sentence("It rained. "));
        assert!(!ends_sentence("Read more:"));
    }
}
