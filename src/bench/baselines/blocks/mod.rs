//! Learned block classifiers: each page is cut into Kohlschütter's text blocks (the
//! segmentation of [`super::boilerpipe`]), each block described by a feature vector, and a
//! classifier trained on other sites' blocks says which blocks are the article. The article is
//! the text of the blocks classified as content, in page order.
//!
//! - [`svm`]: an RBF SVM over Yao & Zuo's features (`svm`), trained on gold labels, on labels
//!   found without gold by clustering (`svm-auto`), or on forest's own wrapper output
//!   (`svm-forest`);
//! - [`gbt`]: gradient-boosted trees over Dragnet-style features with the neighbours' as
//!   context (`gbt`).
//!
//! Gold labels follow the bench's rule ([`GoldGrams::is_content`]): a block is content when
//! at least half of its word 2-grams are 2-grams of the gold text.

pub mod auto;
pub mod gbt;
pub mod svm;

use super::boilerpipe::{text_blocks, TextBlock};
use crate::bench::method::Labelled;
use crate::bench::train::GoldGrams;
use crate::clean::Doc;

/// Most training blocks a model is fitted on: more are sampled down evenly (kernel methods
/// grow with the square of it).
pub const MAX_TRAINING_BLOCKS: usize = 3000;

/// A page's blocks with the gold label of each.
pub fn gold_labelled(page: &Labelled) -> (Vec<TextBlock>, Vec<bool>) {
    let blocks = text_blocks(&page.page.doc);
    let mut gold = GoldGrams::new(page.gold);
    let labels = blocks.iter().map(|b| gold.is_content(&b.text)).collect();
    (blocks, labels)
}

/// The article: the text of the blocks `keep` says are content, joined by blank lines.
pub fn article(doc: &Doc, keep: impl Fn(&[TextBlock], usize) -> bool) -> String {
    let blocks = text_blocks(doc);
    let kept: Vec<&str> = (0..blocks.len()).filter(|&i| keep(&blocks, i)).map(|i| blocks[i].text.as_str()).collect();
    kept.join("\n\n")
}

/// Every `step`-th of `rows` so that at most `max` remain, the positives and negatives sampled
/// apart so both classes stay (deterministic).
pub fn sample<T>(rows: Vec<(T, bool)>, max: usize) -> Vec<(T, bool)> {
    if rows.len() <= max {
        return rows;
    }
    let (pos, neg): (Vec<_>, Vec<_>) = rows.into_iter().partition(|(_, l)| *l);
    let total = pos.len() + neg.len();
    let keep = |v: Vec<(T, bool)>| {
        let quota = (v.len() * max).div_ceil(total).max(1);
        let step = v.len().div_ceil(quota).max(1);
        v.into_iter().step_by(step).collect::<Vec<_>>()
    };
    let mut out = keep(pos);
    out.extend(keep(neg));
    out
}

/// Feature standardization: (x − mean) / standard deviation per column, learned on training
/// rows (a constant column is left centred).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Scaler {
    mean: Vec<f64>,
    std: Vec<f64>,
}

impl Scaler {
    /// Fit on `rows` (all of one width).
    pub fn fit(rows: &[Vec<f64>]) -> Scaler {
        let width = rows.first().map_or(0, Vec::len);
        let n = rows.len().max(1) as f64;
        let mean: Vec<f64> = (0..width).map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / n).collect();
        let std = (0..width)
            .map(|j| {
                let var = rows.iter().map(|r| (r[j] - mean[j]).powi(2)).sum::<f64>() / n;
                if var > 1e-12 {
                    var.sqrt()
                } else {
                    1.0
                }
            })
            .collect();
        Scaler { mean, std }
    }

    /// `row` scaled (columns past the fitted width are left as they are).
    pub fn apply(&self, row: &[f64]) -> Vec<f64> {
        row.iter()
            .enumerate()
            .map(|(j, &x)| match (self.mean.get(j), self.std.get(j)) {
                (Some(m), Some(s)) => (x - m) / s,
                _ => x,
            })
            .collect()
    }
}

/// Sentences in a block: runs ended by `.`, `!` or `?` (at least one).
pub fn sentences(text: &str) -> usize {
    let ends = text.split(['.', '!', '?']).filter(|s| s.chars().any(char::is_alphanumeric)).count();
    ends.max(1)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::Page;

    /// Page `i` of a news template: a menu of links, a story (title and four paragraphs whose
    /// words change with `i`), a footer of links, and a meta description quoting the story.
    pub(crate) fn template_page(i: usize) -> Page {
        let para = |k: usize| {
            format!(
                "Story {i} paragraph {k}: the council met on day {i} and agreed that the bridge over river number {k} \
                 needs repairs before winter comes to the town of Elm {i}. Residents asked for a ferry meanwhile."
            )
        };
        let menu: String = (0..6).map(|k| format!("<li><a href=/m{k}>Menu item {k}</a></li>")).collect();
        let foot: String = (0..5).map(|k| format!("<a href=/f{k}>Footer link {k}</a> | ")).collect();
        let story: String = (0..4).map(|k| format!("<p>{}</p>", para(k))).collect();
        let html = format!(
            "<html><head><title>Story {i}</title><meta name=description content=\"{}\"></head><body>\
             <ul class=nav>{menu}</ul><div class=story><h1>Story {i} title</h1>{story}</div>\
             <div class=footer>{foot}</div></body></html>",
            para(0)
        );
        Page::from_html(format!("p{i}"), &html).expect("page")
    }

    /// Trained on [`training_pages`], `learner` keeps a new page's story paragraphs and drops
    /// its menu and footer links; its model reads back from JSON and says the same.
    pub(crate) fn learns_the_template(learner: &dyn crate::bench::method::Learner) {
        let (pages, golds) = training_pages();
        let labelled: Vec<Labelled> = pages.iter().zip(&golds).map(|(page, gold)| Labelled { site: "s", page, gold }).collect();
        let model = learner.train(&labelled).expect("train");
        let test = template_page(99);
        let text = model.extract(&test).expect("extract").text;
        assert!(text.contains("Story 99 paragraph 2"), "{text}");
        assert!(!text.contains("Menu item"), "{text}");
        assert!(!text.contains("Footer link"), "{text}");
        let back = learner.load(&model.to_json()).expect("load");
        assert_eq!(back.extract(&test).expect("extract").text, text);
    }

    /// Twelve pages of [`template_page`] with their gold texts (title and paragraphs).
    pub(crate) fn training_pages() -> (Vec<Page>, Vec<String>) {
        let pages: Vec<Page> = (0..12).map(template_page).collect();
        let golds = pages
            .iter()
            .map(|p| {
                let blocks = text_blocks(&p.doc);
                blocks.iter().filter(|b| b.text.starts_with("Story")).map(|b| b.text.as_str()).collect::<Vec<_>>().join("\n")
            })
            .collect();
        (pages, golds)
    }

    #[test]
    fn sampling_keeps_both_classes_and_the_bound() {
        let rows: Vec<(usize, bool)> = (0..10_000).map(|i| (i, i % 50 == 0)).collect();
        let s = sample(rows, 1000);
        assert!(s.len() <= 1000 + 2, "{}", s.len());
        assert!(s.iter().any(|r| r.1) && s.iter().any(|r| !r.1));
    }

    #[test]
    fn scaler_standardizes() {
        let rows = vec![vec![1.0, 5.0], vec![3.0, 5.0]];
        let s = Scaler::fit(&rows);
        assert_eq!(s.apply(&[1.0, 5.0]), vec![-1.0, 0.0]);
        assert_eq!(s.apply(&[3.0, 5.0, 7.0]), vec![1.0, 0.0, 7.0]);
    }

    #[test]
    fn sentence_count() {
        assert_eq!(sentences("One. Two! Three?"), 3);
        assert_eq!(sentences("no end"), 1);
        assert_eq!(sentences("..."), 1);
    }
}
