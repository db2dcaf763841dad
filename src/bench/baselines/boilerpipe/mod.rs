//! Boilerpipe's *ArticleExtractor*, the single-page baseline of Kohlschütter, Fankhauser and
//! Nejdl, "Boilerplate Detection using Shallow Text Features" (WSDM 2010), re-implemented from
//! the paper and the public descriptions of its reference implementation (boilerpipe 1.2/1.3).
//!
//! This module owns the whole baseline. [`extract`] first cuts the cleaned page into *text
//! blocks* the way boilerpipe's SAX content handler does: every tag that is not a known inline
//! tag ends the current block; each block records its words, its words inside `<a>`, its tag
//! level, its text density (words per 80-column wrapped line, the last line left out) and
//! labels from the elements around it (`<li>`, `<h1>`–`<h3>`). It then runs the article filter
//! chain in the published order and with the published thresholds: terminating blocks, title
//! match, the C4.8 word-count/link-density rules, ignore after the end of text, trailing
//! headlines, proximity fusion, boilerplate removal, fusion of content at the same tag level,
//! keep the largest block (expanded to big blocks at its tag level), expand to the title, large
//! blocks at the same level, list items at the end. The page is walked in arena order with an
//! explicit stack of open elements, never recursively.

use crate::clean::{Doc, NodeData};
use std::collections::HashSet;

/// Block label: the block matches the page's `<title>`.
const TITLE: u8 = 1;
/// Block label: the block looks like the start of the comments ("add your comment", …).
const END_OF_TEXT: u8 = 1 << 1;
/// Block label: content before [`KeepLargest`], dropped by it.
const MIGHT_BE_CONTENT: u8 = 1 << 2;
/// Block label: the largest block, kept by [`KeepLargest`].
const VERY_LIKELY_CONTENT: u8 = 1 << 3;
/// Block label: the block's text is inside an `<li>`.
const LI: u8 = 1 << 4;
/// Block label: the block's text is inside an `<h1>`, `<h2>` or `<h3>`.
const HEADING: u8 = 1 << 5;

/// Width, in characters, of the virtual lines that text density is measured on.
const LINE_WIDTH: usize = 80;

/// The main article text of a cleaned page by Boilerpipe's ArticleExtractor: the content
/// blocks, in page order, joined by blank lines (empty when no block is content).
///
/// # Example
/// ```
/// let words = "The committee met for six hours on Tuesday and agreed on a plan. ".repeat(6);
/// let html = format!(
///     "<html><head><title>Plan agreed</title></head><body>\
///      <h1>Plan agreed</h1><p>{words}</p><p>{words}</p>\
///      <div><a href=/a>About</a> | <a href=/c>Contact</a></div></body></html>");
/// let text = forest::bench::baselines::boilerpipe::extract(&forest::clean::page(&html));
/// assert!(text.starts_with("Plan agreed\n\nThe committee met"));
/// assert!(!text.contains("Contact"));
/// ```
pub fn extract(doc: &Doc) -> String {
    let mut blocks = segment(doc);
    run_article_chain(&mut blocks, &doc.title);
    let kept: Vec<&str> = blocks
        .iter()
        .filter(|b| b.content)
        .map(|b| b.text.as_str())
        .collect();
    kept.join("\n\n")
}

/// One text block: a run of text not interrupted by block-level markup, or a fusion of such
/// runs.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    /// The text, white space collapsed; fused blocks are joined by a blank line.
    text: String,
    /// Tokens holding a letter or digit.
    words: u32,
    /// Of those, the ones inside an `<a>`.
    anchor_words: u32,
    /// Words on the wrapped lines but the last (all words when the text fits one line).
    wrapped_words: u32,
    /// Wrapped lines but the last (1 when the text fits one line).
    wrapped_lines: u32,
    /// Index of the first and last original block fused into this one.
    first: u32,
    last: u32,
    /// Tag depth at the block's first text (the smallest one over fused blocks).
    level: i32,
    /// Label bits ([`TITLE`], [`LI`], …).
    labels: u8,
    /// Classified as content.
    content: bool,
    /// Lower-cased words of the `id` and `class` of the elements around the block.
    names: Vec<String>,
}

impl Block {
    /// Words per wrapped line (the paper's text density).
    fn text_density(&self) -> f64 {
        f64::from(self.wrapped_words) / f64::from(self.wrapped_lines.max(1))
    }

    /// Share of the words that are anchor text.
    fn link_density(&self) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            f64::from(self.anchor_words) / f64::from(self.words)
        }
    }

    fn has(&self, label: u8) -> bool {
        self.labels & label != 0
    }

    /// A one-line text fits no wrapped line: count it as one line of all its words.
    fn normalize_lines(&mut self) {
        if self.wrapped_words == 0 {
            self.wrapped_words = self.words;
            self.wrapped_lines = 1;
        }
    }

    /// Append `next` to this block (boilerpipe's `mergeNext`).
    fn fuse(&mut self, next: Block) {
        self.text.push_str("\n\n");
        self.text.push_str(&next.text);
        self.words += next.words;
        self.anchor_words += next.anchor_words;
        self.wrapped_words += next.wrapped_words;
        self.wrapped_lines += next.wrapped_lines;
        self.first = self.first.min(next.first);
        self.last = self.last.max(next.last);
        self.normalize_lines();
        self.content |= next.content;
        self.labels |= next.labels;
        self.level = self.level.min(next.level);
        self.names.extend(next.names);
        self.names.sort_unstable();
        self.names.dedup();
    }

    /// The empty block that stands before the first and after the last block.
    fn empty() -> Block {
        Block {
            text: String::new(),
            words: 0,
            anchor_words: 0,
            wrapped_words: 0,
            wrapped_lines: 1,
            first: 0,
            last: 0,
            level: 0,
            labels: 0,
            content: false,
            names: Vec::new(),
        }
    }
}

/// One of boilerpipe's text blocks as the learned block classifiers see it.
#[derive(Debug, Clone, PartialEq)]
pub struct TextBlock {
    /// The text, white space collapsed.
    pub text: String,
    /// Tokens holding a letter or digit.
    pub words: u32,
    /// Of those, the ones inside an `<a>`.
    pub anchor_words: u32,
    /// Words per 80-column wrapped line, the last line left out (Kohlschütter's density).
    pub text_density: f64,
    /// Share of the words inside links.
    pub link_density: f64,
    /// Tag depth at the block's first text.
    pub level: i32,
    /// Inside an `<h1>`–`<h3>`.
    pub heading: bool,
    /// Inside an `<li>`.
    pub list_item: bool,
    /// Lower-cased words of the `id` and `class` of the elements around the block.
    pub names: Vec<String>,
}

/// The page's text blocks, as boilerpipe cuts them (before any filter), in document order.
pub fn text_blocks(doc: &Doc) -> Vec<TextBlock> {
    segment(doc)
        .into_iter()
        .map(|b| TextBlock {
            text_density: b.text_density(),
            link_density: b.link_density(),
            heading: b.has(HEADING),
            list_item: b.has(LI),
            text: b.text,
            words: b.words,
            anchor_words: b.anchor_words,
            level: b.level,
            names: b.names,
        })
        .collect()
}

mod filters;
mod segment;
#[cfg(test)]
mod tests;

use filters::*;
use segment::*;
