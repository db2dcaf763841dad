//! Bench: the paper's evaluation on gold sets in the corpus layout
//! (`<site>/<id>.html`, `<site>/<id>.txt` gold, `<site>/feed.xml`).
//!
//! [`score`] is the metric (2-gram set P/R/F1, bag of words), identical to the reference
//! scorer `shared/tools/score.py`.

pub mod score;
