//! Readable text of a subtree: white space collapsed, block elements on their own lines,
//! paragraphs separated by a blank line, `<pre>` kept as written.

use super::{Doc, NodeData, NodeId};

/// Elements after which text starts a new paragraph (a blank line).
const PARAGRAPHS: &[&str] = &[
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table", "blockquote", "pre",
    "figure", "hr", "address",
];

/// Elements after which text starts a new line.
const LINES: &[&str] = &[
    "div", "li", "tr", "dt", "dd", "br", "section", "article", "header", "footer", "aside",
    "nav", "main", "form", "fieldset", "legend", "figcaption", "details", "summary", "caption",
    "center", "option", "thead", "tbody", "tfoot",
];

/// How strongly the text must be separated before the next word.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
enum Gap {
    #[default]
    None,
    Space,
    Line,
    Paragraph,
}

/// Does element `name` start a line of its own (a block)?
pub(in crate::clean) fn is_block(name: &str) -> bool {
    gap_of(name) >= Gap::Line
}

fn gap_of(name: &str) -> Gap {
    if PARAGRAPHS.contains(&name) {
        Gap::Paragraph
    } else if LINES.contains(&name) {
        Gap::Line
    } else if matches!(name, "td" | "th" | "img" | "input") {
        Gap::Space
    } else {
        Gap::None
    }
}

/// Builds readable text from one or more subtrees.
#[derive(Default)]
pub struct TextBuilder {
    out: String,
    gap: Gap,
}

impl TextBuilder {
    /// Add the text of the subtree at `root`, as a block of its own.
    pub fn push_subtree(&mut self, doc: &Doc, root: NodeId) {
        self.push_subtree_masked(doc, root, &[]);
    }

    /// Add the text of the subtree at `root`, leaving out text nodes that `skip` marks.
    pub fn push_subtree_masked(&mut self, doc: &Doc, root: NodeId, skip: &[bool]) {
        let Some(node) = doc.nodes.get(root as usize) else { return };
        self.want(Gap::Paragraph);
        // Elements still open: (end of subtree, gap after it, is <pre>).
        let mut open: Vec<(NodeId, Gap, bool)> = Vec::new();
        let mut pre = 0usize;
        for i in root..node.end {
            while let Some(&(end, gap, is_pre)) = open.last() {
                if end > i {
                    break;
                }
                open.pop();
                pre -= usize::from(is_pre);
                self.want(gap);
            }
            match &doc.nodes[i as usize].data {
                NodeData::Element(e) => {
                    let gap = gap_of(&e.name);
                    self.want(gap);
                    let is_pre = e.name == "pre";
                    pre += usize::from(is_pre);
                    open.push((doc.nodes[i as usize].end, gap, is_pre));
                }
                NodeData::Text(_) if skip.get(i as usize).copied().unwrap_or(false) => {}
                NodeData::Text(t) if pre > 0 => self.push_pre(t),
                NodeData::Text(t) => self.push_flow(t),
            }
        }
        self.want(Gap::Paragraph);
    }

    fn want(&mut self, gap: Gap) {
        if gap > self.gap {
            self.gap = gap;
        }
    }

    fn flush_gap(&mut self) {
        if !self.out.is_empty() {
            match self.gap {
                Gap::None => {}
                Gap::Space => self.out.push(' '),
                Gap::Line => self.out.push('\n'),
                Gap::Paragraph => self.out.push_str("\n\n"),
            }
        }
        self.gap = Gap::None;
    }

    fn push_flow(&mut self, text: &str) {
        for (i, word) in text.split(char::is_whitespace).enumerate() {
            if i > 0 {
                self.want(Gap::Space);
            }
            if !word.is_empty() {
                self.flush_gap();
                self.out.push_str(word);
            }
        }
    }

    fn push_pre(&mut self, text: &str) {
        if text.trim().is_empty() && self.out.is_empty() {
            return;
        }
        self.flush_gap();
        self.out.push_str(text);
    }

    /// The text built so far, with trailing space on lines removed.
    pub fn finish(self) -> String {
        let mut s = String::with_capacity(self.out.len());
        for line in self.out.lines() {
            s.push_str(line.trim_end());
            s.push('\n');
        }
        let trimmed = s.trim_end().len();
        s.truncate(trimmed);
        s
    }
}

impl Doc {
    /// Readable text of the subtree at `id` (see [`TextBuilder`]).
    ///
    /// # Example
    /// ```
    /// let doc = forest::clean::page("<div><h1>Title</h1><p>One  <b>two</b></p><p>three<br>four</p></div>");
    /// assert_eq!(doc.text(doc.body), "Title\n\nOne two\n\nthree\nfour");
    /// ```
    pub fn text(&self, id: NodeId) -> String {
        let mut b = TextBuilder::default();
        b.push_subtree(self, id);
        b.finish()
    }

    /// Up to about `max` bytes of the body's text, for language detection.
    pub fn text_sample(&self, max: usize) -> String {
        let mut s = String::new();
        let end = self.nodes.get(self.body as usize).map_or(0, |n| n.end as usize);
        for node in &self.nodes[(self.body as usize).min(end)..end] {
            if let NodeData::Text(t) = &node.data {
                s.push_str(t);
                s.push(' ');
                if s.len() >= max {
                    break;
                }
            }
        }
        s
    }

    /// Readable text of several subtrees, in the given order, as separate blocks.
    pub fn text_of(&self, ids: &[NodeId]) -> String {
        self.text_masked(ids, &[])
    }

    /// As [`Doc::text_of`], leaving out the text nodes that `skip` marks.
    pub fn text_masked(&self, ids: &[NodeId], skip: &[bool]) -> String {
        let mut b = TextBuilder::default();
        for &id in ids {
            b.push_subtree_masked(self, id, skip);
        }
        b.finish()
    }
}
