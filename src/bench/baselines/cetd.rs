//! CETD: content extraction by composite text density and DensitySum (F. Sun, D. Song and
//! L. Liao, "DOM Based Content Extraction via Text Density", SIGIR 2011), re-implemented from
//! the paper.
//!
//! For every node i of the body, with C its characters, T its descendant tags, LC its
//! characters inside links (`a`, `button`, `select`), LT its link tags, nLC = C − LC, and
//! LC_b / C_b the body's share of link characters (zeros read as 1 where they divide or sit
//! under a logarithm):
//! - *composite text density* CTD = (C / T) · log_{ln(C·LC/nLC + (LC_b/C_b)·C + e)} (C·T / (LC·LT));
//! - *DensitySum* = the sum of the CTD of its children (text nodes are children too; a leaf
//!   element's is its own CTD).
//!
//! The node with the largest DensitySum is the heart of the article. The threshold is its CTD,
//! lowered to the smallest CTD on its path up to the body. Then, from the body down, every node
//! whose CTD reaches the threshold contributes the subtree of the node with the largest
//! DensitySum under it (itself included); nodes under the threshold end the descent. The
//! article is the text of those subtrees. Characters are counted without white space. Every
//! pass is a loop over the arena (children follow their parent), none recurses.

use super::Method;
use crate::clean::{Doc, NodeData, NodeId};
use crate::extract::{Extraction, Extractor, Rule};
use crate::{Page, Result};

/// CETD (composite text density, DensitySum) as a bench method.
#[derive(Debug, Clone, Copy)]
pub struct Cetd;

impl Extractor for Cetd {
    fn name(&self) -> &str {
        "cetd"
    }
    fn extract(&self, page: &Page) -> Result<Extraction> {
        let nodes = content(&page.doc);
        let text = page.doc.text_of(&nodes);
        Ok(Extraction::new(nodes, text, Rule::SinglePage))
    }
}

impl Method for Cetd {
    fn name(&self) -> &str {
        "cetd"
    }
    fn fit(&self, _samples: &[&Page]) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Cetd))
    }
    fn single_page(&self) -> bool {
        true
    }
}

/// The counts of one node's subtree.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    chars: f64,
    tags: f64,
    link_chars: f64,
    link_tags: f64,
}

fn is_link(name: &str) -> bool {
    matches!(name, "a" | "button" | "select")
}

/// The composite text density of a node with counts `c`, `ratio` being the body's LC_b / C_b.
fn composite_density(c: Counts, ratio: f64) -> f64 {
    if c.chars == 0.0 {
        return 0.0;
    }
    let one = |x: f64| if x == 0.0 { 1.0 } else { x };
    let (chars, tags, link_chars, link_tags) = (c.chars, one(c.tags), one(c.link_chars), one(c.link_tags));
    let unlinked = one(c.chars - c.link_chars);
    let base = (chars * link_chars / unlinked + ratio * chars + std::f64::consts::E).ln().ln();
    let value = (chars * tags / (link_chars * link_tags)).ln();
    if base <= 0.0 {
        return 0.0;
    }
    (chars / tags) * value / base
}

/// The outermost content nodes of `doc`, in document order.
pub fn content(doc: &Doc) -> Vec<NodeId> {
    let body = doc.body as usize;
    let end = (doc.end(doc.body) as usize).min(doc.nodes.len());
    if body >= end {
        return Vec::new();
    }
    let n = end - body;
    let local = |id: NodeId| (id as usize).checked_sub(body).filter(|&i| i < n);
    // Counts, bottom-up: children come after their parent in the arena.
    let mut counts = vec![Counts::default(); n];
    for i in (0..n).rev() {
        let node = &doc.nodes[body + i];
        match &node.data {
            NodeData::Text(t) => counts[i].chars += crate::clean::non_space_chars(t) as f64,
            NodeData::Element(e) if is_link(&e.name) => {
                counts[i].link_chars = counts[i].chars;
                counts[i].link_tags = counts[i].tags;
            }
            NodeData::Element(_) => {}
        }
        if let Some(p) = node.parent.and_then(local) {
            let c = counts[i];
            let (element, link) = match &node.data {
                NodeData::Element(e) => (1.0, if is_link(&e.name) { 1.0 } else { 0.0 }),
                NodeData::Text(_) => (0.0, 0.0),
            };
            let parent = &mut counts[p];
            parent.chars += c.chars;
            parent.tags += c.tags + element;
            parent.link_chars += c.link_chars;
            parent.link_tags += c.link_tags + link;
        }
    }
    let ratio = if counts[0].chars > 0.0 { counts[0].link_chars / counts[0].chars } else { 0.0 };
    let density: Vec<f64> = counts.iter().map(|&c| composite_density(c, ratio)).collect();
    // DensitySum, then the node of largest DensitySum in each element's subtree.
    let mut sum = vec![0.0; n];
    let mut leaf = vec![true; n];
    for i in (1..n).rev() {
        if let Some(p) = doc.nodes[body + i].parent.and_then(local) {
            sum[p] += density[i];
            leaf[p] = false;
        }
    }
    for i in 0..n {
        if leaf[i] {
            sum[i] = density[i];
        }
    }
    let is_element = |i: usize| matches!(doc.nodes[body + i].data, NodeData::Element(_));
    let mut best: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        if !is_element(i) {
            continue;
        }
        if let Some(p) = doc.nodes[body + i].parent.and_then(local) {
            if sum[best[i]] >= sum[best[p]] {
                best[p] = best[i];
            }
        }
    }
    // The threshold: the heart's density, lowered along its path to the body.
    let heart = best[0];
    let mut threshold = density[heart];
    let mut up = doc.nodes[body + heart].parent.and_then(local);
    while let Some(p) = up {
        threshold = threshold.min(density[p]);
        up = doc.nodes[body + p].parent.and_then(local);
    }
    // From the body down: nodes at or above the threshold bring their best subtree.
    let mut marked = Vec::new();
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if density[i] < threshold {
            continue;
        }
        marked.push((body + best[i]) as NodeId);
        stack.extend(doc.children((body + i) as NodeId).map(|c| c as usize - body).filter(|&c| is_element(c)));
    }
    marked.sort_unstable();
    marked.dedup();
    doc.outermost(marked)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An article of three long paragraphs between a menu of links and a footer of links:
    /// the article's `div` holds the text with few tags and no links, so its children's
    /// densities sum highest; the menu and footer are all link characters, so their composite
    /// density is far below the threshold.
    #[test]
    fn keeps_the_dense_block_not_the_links() {
        let para = "The council voted on Tuesday to repair the old bridge over the river before the spring floods arrive. ";
        let links = (0..8).map(|i| format!("<li><a href=/{i}>Section {i}</a></li>")).collect::<String>();
        let html = format!(
            "<html><body><ul class=menu>{links}</ul>\
             <div class=story><h1>Bridge repair</h1><p>{p}</p><p>{p}</p><p>{p}</p></div>\
             <div class=foot><a href=/c>Contact</a> <a href=/t>Terms</a> <a href=/p>Privacy</a></div></body></html>",
            p = para.repeat(3)
        );
        let page = Page::from_html("t", &html).expect("page");
        let x = Cetd.extract(&page).expect("cetd");
        assert!(x.text.contains("The council voted"), "{}", x.text);
        assert!(x.text.contains("Bridge repair"), "{}", x.text);
        for boiler in ["Section 3", "Contact", "Privacy"] {
            assert!(!x.text.contains(boiler), "{boiler} in {}", x.text);
        }
    }

    #[test]
    fn link_text_lowers_the_density() {
        let plain = Counts { chars: 100.0, tags: 4.0, link_chars: 0.0, link_tags: 0.0 };
        let linked = Counts { link_chars: 90.0, link_tags: 4.0, ..plain };
        assert!(composite_density(plain, 0.2) > composite_density(linked, 0.2));
        assert_eq!(composite_density(Counts::default(), 0.2), 0.0);
    }

    #[test]
    fn empty_and_deep_pages() {
        let page = Page::from_html("e", "<html><body></body></html>").expect("page");
        assert!(Cetd.extract(&page).expect("cetd").text.is_empty());
        let deep = format!("{}text{}", "<div>".repeat(20_000), "</div>".repeat(20_000));
        let page = Page::from_html("d", &deep).expect("page");
        assert!(Cetd.extract(&page).is_ok());
    }
}
