//! Sigfeed: the smallest, lowest `div` holding the most of the feed item's keywords.
//!
//! Keywords are the terms (stemmed, stop words dropped) of the item's title and description.
//! Each element's set of keywords is the union of its texts' sets, summed up the tree in one
//! reverse pass (a 64-bit set: the first 64 distinct keywords count). Among the `div`s with the
//! most keywords the one with the fewest terms wins, then the deepest; with no keyword found,
//! the whole body.

use crate::clean::{NodeData, NodeId};
use crate::extract::{Extraction, Extractor, Rule};
use crate::text::{Analyzer, Language, TermId};
use crate::{Page, Result};

/// See the module documentation.
pub struct Sigfeed;

impl Extractor for Sigfeed {
    fn name(&self) -> &str {
        "sigfeed"
    }

    fn extract(&self, page: &Page) -> Result<Extraction> {
        let doc = &page.doc;
        let lang = Language::of_page(doc.lang.as_deref(), &doc.text_sample(2000)).unwrap_or(Language::ENGLISH);
        let mut analyzer = Analyzer::new(lang);
        let mut keywords: Vec<TermId> = Vec::new();
        if let Some(item) = &page.item {
            analyzer.terms(&item.title, &mut keywords);
            analyzer.terms(&item.description, &mut keywords);
        }
        let mut distinct: Vec<TermId> = Vec::new();
        for t in keywords {
            if !distinct.contains(&t) && distinct.len() < 64 {
                distinct.push(t);
            }
        }
        let n = doc.nodes.len();
        let mut sets = vec![0u64; n];
        let mut sizes = vec![0u32; n];
        let mut terms = Vec::new();
        for (i, node) in doc.nodes.iter().enumerate() {
            if let NodeData::Text(t) = &node.data {
                terms.clear();
                analyzer.terms(t, &mut terms);
                sizes[i] = terms.len() as u32;
                for t in &terms {
                    if let Some(k) = distinct.iter().position(|d| d == t) {
                        sets[i] |= 1 << k;
                    }
                }
            }
        }
        for i in (1..n).rev() {
            if let Some(p) = doc.nodes[i].parent {
                sets[p as usize] |= sets[i];
                sizes[p as usize] += sizes[i];
            }
        }
        let best = (0..n as NodeId)
            .filter(|&i| doc.element(i).is_some_and(|e| e.name == "div") && doc.contains(doc.body, i))
            .filter(|&i| sets[i as usize] != 0)
            .max_by(|&a, &b| {
                let (a, b) = (a as usize, b as usize);
                sets[a].count_ones().cmp(&sets[b].count_ones()).then(sizes[b].cmp(&sizes[a])).then(a.cmp(&b))
            })
            .unwrap_or(doc.body);
        Ok(Extraction::new(vec![best], doc.text(best), Rule::SinglePage))
    }
}
