//! Headline: the element of a page whose words best match its `<title>`.

use crate::clean::{Doc, NodeData, NodeId};

/// The page's headline: the element whose words best match the page's `<title>`.
///
/// Headings (`h1`–`h6`) are tried first, then any element with a short text. An element
/// qualifies when at least 80% of its words are in the title and it covers at least 40% of the
/// title's words (titles often add the site's name); the best coverage wins, then the higher
/// heading, then the earlier element.
pub fn headline(doc: &Doc) -> Option<NodeId> {
    let end = doc.nodes.get(doc.body as usize)?.end;
    headline_before(doc, end)
}

/// [`headline`], looking only at elements that start before node `before`.
pub fn headline_before(doc: &Doc, before: NodeId) -> Option<NodeId> {
    let mut tok = crate::text::tokens::Tokenizer::default();
    let mut title: Vec<String> = Vec::new();
    tok.each(&doc.title, |t| {
        if !title.iter().any(|x| x == t) {
            title.push(t.to_string());
        }
    });
    if title.len() < 2 {
        return None;
    }
    let body = doc.nodes.get(doc.body as usize)?;
    let stop = before.min(body.end);
    let max_chars = doc.title.len() * 2 + 20;
    let min_chars = doc.title.len() / 4;
    // Text bytes per subtree, summed in one reverse pass over the part searched; elements that
    // reach past `stop` hold the block and are skipped below.
    let mut sizes = vec![0usize; doc.nodes.len()];
    for i in (doc.body as usize..stop as usize).rev() {
        if let NodeData::Text(t) = &doc.nodes[i].data {
            sizes[i] = t.len();
        }
        if let Some(p) = doc.nodes[i].parent {
            sizes[p as usize] += sizes[i];
        }
    }
    let mut covered = vec![false; title.len()];
    let mut best: Option<(f64, u8, NodeId)> = None;
    for heading_pass in [true, false] {
        for i in doc.body..stop {
            let Some(e) = doc.element(i) else { continue };
            let rank = match e.name.as_bytes() {
                [b'h', d @ b'1'..=b'6'] => d - b'0',
                _ if heading_pass => continue,
                _ => 9,
            };
            if !heading_pass && rank < 9 {
                continue;
            }
            if doc.nodes[i as usize].end > stop {
                continue;
            }
            let size = sizes[i as usize];
            if size == 0 || size > max_chars || size < min_chars {
                continue;
            }
            // Words inside the title, and which title words are covered.
            covered.iter_mut().for_each(|c| *c = false);
            let (mut words, mut inside) = (0usize, 0usize);
            for n in &doc.nodes[i as usize..doc.nodes[i as usize].end as usize] {
                if let NodeData::Text(t) = &n.data {
                    tok.each(t, |w| {
                        words += 1;
                        if let Some(k) = title.iter().position(|x| x == w) {
                            inside += 1;
                            covered[k] = true;
                        }
                    });
                }
            }
            if words < 2 {
                continue;
            }
            let contained = inside as f64 / words as f64;
            let coverage = covered.iter().filter(|&&c| c).count() as f64 / title.len() as f64;
            if contained < 0.8 || coverage < 0.4 {
                continue;
            }
            let better = best.is_none_or(|(c, r, _)| coverage > c + 1e-9 || ((coverage - c).abs() <= 1e-9 && rank < r));
            if better {
                best = Some((coverage, rank, i));
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.map(|(_, _, n)| n)
}

