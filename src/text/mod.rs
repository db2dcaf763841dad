//! Text: what a word is, and which terms a language makes of words. The floor every stage that
//! reads text stands on: the signifiers, the template, the bench's scorer and the index's
//! analyzer all count the same words.
//!
//! - [`tokens`]: word tokens exactly as the reference scorer makes them;
//! - [`language`]: languages (stemmer and stop words) and the [`Analyzer`] that interns terms;
//! - [`overlap`]: word 2-gram sets, the metric's core and the agreement of two extractions.

pub mod language;
pub mod overlap;
pub mod tokens;

pub use language::{Analyzer, Language, TermId};
pub use tokens::{tokenize, Tokenizer};
