//! Patterns: significant nodes, their terminal paths and the structural patterns on them
//! (paper §3.3).
//!
//! A *significant node* is an element whose own text (its text children) holds a signifier.
//! Its root-to-node path is a *significant terminal path*; every element on such a path is a
//! candidate. A candidate's *element type* is its tag plus its `id` and `class` in tolerant form
//! ([`tolerant`]); an element with neither is typed by its `dfs` number. A *structural pattern*
//! is an element type at a level (depth, `html` = 1).
//!
//! All counts come from one pass over the page: term counts are added at text nodes and summed
//! up the tree in reverse document order, so every element's x and y cost O(1).

use crate::clean::{Doc, NodeData, NodeId};
use crate::signifiers::{Analyzer, Signifiers, TermId};
use serde::{Deserialize, Serialize};

/// The tolerant form of an attribute value: its first white-space separated token with digits
/// dropped; `None` when nothing is left.
///
/// # Example
/// ```
/// assert_eq!(forest::patterns::tolerant("post wrapper-02").as_deref(), Some("post"));
/// assert_eq!(forest::patterns::tolerant("item-42"), Some("item-".to_string()));
/// assert_eq!(forest::patterns::tolerant(" 2013 "), None);
/// ```
pub fn tolerant(value: &str) -> Option<String> {
    let first = value.split_whitespace().next()?;
    let t: String = first.chars().filter(|c| !c.is_numeric()).collect();
    (!t.is_empty()).then_some(t)
}

/// An element type: tag and tolerant `id`/`class`, or tag and `dfs` when it has neither.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ElementType {
    /// Tag name.
    pub tag: String,
    /// Tolerant form of `id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Tolerant form of `class`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The element's `dfs`, only for elements without id and class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dfs: Option<u32>,
}

impl ElementType {
    /// The type of the element at `node` (None for text nodes).
    pub fn of(doc: &Doc, node: NodeId) -> Option<ElementType> {
        let e = doc.element(node)?;
        let id = e.attr("id").and_then(tolerant);
        let class = e.attr("class").and_then(tolerant);
        let dfs = (id.is_none() && class.is_none()).then_some(e.dfs);
        Some(ElementType { tag: e.name.clone(), id, class, dfs })
    }

    /// The same type without its `dfs` part: what can be recognized on a page never seen.
    pub fn portable(&self) -> ElementType {
        ElementType { dfs: None, ..self.clone() }
    }

    /// Does the element at `node` have this type, ignoring `dfs`?
    pub fn matches_portable(&self, doc: &Doc, node: NodeId) -> bool {
        let Some(e) = doc.element(node) else { return false };
        e.name == self.tag
            && e.attr("id").and_then(tolerant) == self.id
            && e.attr("class").and_then(tolerant) == self.class
    }

    /// A short human form: `div.story#main`, `td@78`.
    pub fn clue(&self) -> String {
        let mut s = self.tag.clone();
        if let Some(id) = &self.id {
            s.push('#');
            s.push_str(id);
        }
        if let Some(c) = &self.class {
            s.push('.');
            s.push_str(c);
        }
        if let Some(d) = self.dfs {
            s.push('@');
            s.push_str(&d.to_string());
        }
        s
    }
}

/// A structural pattern: an element type at a level.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pattern {
    /// The element type.
    #[serde(flatten)]
    pub ty: ElementType,
    /// Depth in the tree (`html` is 1).
    pub level: u32,
}

/// The terms of one page's body, by text node.
#[derive(Debug, Clone, Default)]
pub struct PageTerms {
    /// (text node, start, end) into `terms`.
    pub texts: Vec<(NodeId, u32, u32)>,
    /// All term occurrences, in document order.
    pub terms: Vec<TermId>,
}

impl PageTerms {
    /// Tokenize every text node under the page's body, except those `skip` marks (template).
    pub fn of(doc: &Doc, analyzer: &mut Analyzer, skip: &[bool]) -> PageTerms {
        let mut pt = PageTerms::default();
        let body = doc.body as usize;
        let end = doc.nodes.get(body).map_or(0, |n| n.end as usize);
        for (i, node) in doc.nodes.iter().enumerate().take(end).skip(body) {
            if skip.get(i).copied().unwrap_or(false) {
                continue;
            }
            if let NodeData::Text(t) = &node.data {
                let start = pt.terms.len() as u32;
                analyzer.terms(t, &mut pt.terms);
                let stop = pt.terms.len() as u32;
                if stop > start {
                    pt.texts.push((i as NodeId, start, stop));
                }
            }
        }
        pt
    }
}

/// A candidate element of one page with its counts.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The element.
    pub node: NodeId,
    /// Its `dfs`.
    pub dfs: u32,
    /// Its structural pattern.
    pub pattern: Pattern,
    /// Signifier occurrences in its subtree (x).
    pub x: u32,
    /// Other term occurrences in its subtree (y).
    pub y: u32,
    /// Sum of the signifier weights of its occurrences (for coverage ranking).
    pub weight: f64,
}

/// The candidates of one page and the page's totals.
#[derive(Debug, Clone, Default)]
pub struct PageCandidates {
    /// Every element on a significant terminal path, in document order.
    pub candidates: Vec<Candidate>,
    /// Signifier occurrences in the body (X).
    pub total_x: u32,
    /// Other term occurrences in the body (Y).
    pub total_y: u32,
    /// Summed signifier weight in the body.
    pub total_weight: f64,
}

/// Significant nodes, terminal paths and candidates of one page.
pub fn collect(doc: &Doc, terms: &PageTerms, sig: &Signifiers) -> PageCandidates {
    let n = doc.nodes.len();
    let mut x = vec![0u32; n];
    let mut y = vec![0u32; n];
    let mut w = vec![0f64; n];
    let mut significant = vec![false; n];
    for &(text, start, stop) in &terms.texts {
        let Some(parent) = doc.nodes[text as usize].parent else { continue };
        let p = parent as usize;
        for &t in &terms.terms[start as usize..stop as usize] {
            match sig.weights.get(&t) {
                Some(&wt) => {
                    x[p] += 1;
                    w[p] += wt;
                    significant[p] = true;
                }
                None => y[p] += 1,
            }
        }
    }
    // Subtree sums: children come after their parent in document order.
    for i in (1..n).rev() {
        if let Some(p) = doc.nodes[i].parent {
            let p = p as usize;
            x[p] += x[i];
            y[p] += y[i];
            w[p] += w[i];
        }
    }
    // Candidates: every element from a significant node up to the body.
    let body = doc.body;
    let mut candidate = vec![false; n];
    for (i, &sig) in significant.iter().enumerate() {
        if !sig || !doc.contains(body, i as NodeId) {
            continue;
        }
        let mut cur = Some(i as NodeId);
        while let Some(c) = cur {
            if candidate[c as usize] {
                break;
            }
            candidate[c as usize] = true;
            if c == body {
                break;
            }
            cur = doc.nodes[c as usize].parent;
        }
    }
    let candidates = (0..n)
        .filter(|&i| candidate[i])
        .filter_map(|i| {
            let ty = ElementType::of(doc, i as NodeId)?;
            let dfs = doc.element(i as NodeId)?.dfs;
            Some(Candidate {
                node: i as NodeId,
                dfs,
                pattern: Pattern { ty, level: doc.nodes[i].level },
                x: x[i],
                y: y[i],
                weight: w[i],
            })
        })
        .collect();
    let b = body as usize;
    PageCandidates { candidates, total_x: x[b], total_y: y[b], total_weight: w[b] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signifiers::Language;

    #[test]
    fn candidates_are_ancestors_of_significant_nodes() {
        let doc = crate::clean::page(
            "<body><div class='nav'>home news</div><div class='post wrapper-02'><p>kitkat android</p><p>phone</p></div></body>",
        );
        let mut a = Analyzer::new(Language::ENGLISH);
        let terms = PageTerms::of(&doc, &mut a, &[]);
        let mut kitkat = Vec::new();
        a.terms("kitkat", &mut kitkat);
        let sig = Signifiers { weights: [(kitkat[0], 1.0)].into_iter().collect() };
        let pc = collect(&doc, &terms, &sig);
        let clues: Vec<(String, u32, u32, u32)> =
            pc.candidates.iter().map(|c| (c.pattern.ty.clue(), c.pattern.level, c.x, c.y)).collect();
        assert_eq!(
            clues,
            [("body@2".into(), 2, 1, 4), ("div.post".into(), 3, 1, 2), ("p@5".into(), 4, 1, 1)]
        );
        assert_eq!((pc.total_x, pc.total_y), (1, 4));
    }
}
