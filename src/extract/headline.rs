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

/// [`headline`], looking only at elements that end before node `before`.
pub fn headline_before(doc: &Doc, before: NodeId) -> Option<NodeId> {
    let [h] = headlines_before(doc, [before]);
    h
}

/// [`headline_before`] for each of several bounds, in one pass: each element's words are
/// matched against the title once, whatever the number of bounds.
pub fn headlines_before<const N: usize>(doc: &Doc, before: [NodeId; N]) -> [Option<NodeId>; N] {
    headlines_before_where(doc, before, |_| true)
}

/// [`headlines_before`], among the elements `eligible` accepts (asked only of elements that
/// match the title).
pub fn headlines_before_where<const N: usize>(
    doc: &Doc,
    before: [NodeId; N],
    mut eligible: impl FnMut(NodeId) -> bool,
) -> [Option<NodeId>; N] {
    let mut tok = crate::text::tokens::Tokenizer::default();
    let mut title: Vec<String> = Vec::new();
    tok.each(&doc.title, |t| {
        if !title.iter().any(|x| x == t) {
            title.push(t.to_string());
        }
    });
    let Some(body) = doc.nodes.get(doc.body as usize).filter(|_| title.len() >= 2) else { return [None; N] };
    let stops = before.map(|b| b.min(body.end));
    let reach = stops.iter().copied().max().unwrap_or(doc.body).max(doc.body);
    let max_chars = doc.title.len() * 2 + 20;
    let min_chars = doc.title.len() / 4;
    // Text bytes per subtree, summed in one reverse pass over the part searched; elements that
    // reach past a bound hold the block and are skipped for it below.
    let mut sizes = vec![0usize; doc.nodes.len()];
    for i in (doc.body as usize..reach as usize).rev() {
        if let NodeData::Text(t) = &doc.nodes[i].data {
            sizes[i] = t.len();
        }
        if let Some(p) = doc.nodes[i].parent {
            sizes[p as usize] += sizes[i];
        }
    }
    let mut covered = vec![false; title.len()];
    // Per text node, tokenized once however many candidate elements hold it: its word count
    // and the range of `hits` that lists the title words among its words.
    let mut matched: Vec<Option<(u32, u32, u32)>> = vec![None; doc.nodes.len()];
    let mut hits: Vec<usize> = Vec::new();
    let index = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
    let mut best: [Option<(f64, u8, NodeId)>; N] = [None; N];
    // Per bound: found in an earlier pass (headings are tried before any other element).
    let mut found = [false; N];
    for heading_pass in [true, false] {
        for i in doc.body..reach {
            let Some(e) = doc.element(i) else { continue };
            let rank = match e.name.as_bytes() {
                [b'h', d @ b'1'..=b'6'] => d - b'0',
                // The `<title>` itself, when the parser put it in the body: never shown.
                b"title" => continue,
                _ if heading_pass => continue,
                _ => 9,
            };
            if !heading_pass && rank < 9 {
                continue;
            }
            let end = doc.nodes[i as usize].end;
            let open = |k: usize| !found[k] && end <= stops[k];
            if !(0..N).any(open) {
                continue;
            }
            let size = sizes[i as usize];
            if size == 0 || size > max_chars || size < min_chars {
                continue;
            }
            // Words inside the title, and which title words are covered.
            covered.iter_mut().for_each(|c| *c = false);
            let (mut words, mut inside) = (0usize, 0usize);
            for (t, n) in (i as usize..end as usize).zip(&doc.nodes[i as usize..end as usize]) {
                let NodeData::Text(text) = &n.data else { continue };
                let (count, from, to) = *matched[t].get_or_insert_with(|| {
                    let (from, mut count) = (hits.len(), 0usize);
                    tok.each(text, |w| {
                        count += 1;
                        hits.extend(title.iter().position(|x| x == w));
                    });
                    (index(count), index(from), index(hits.len()))
                });
                let found = hits.get(from as usize..to as usize).unwrap_or_default();
                words += count as usize;
                inside += found.len();
                for &k in found {
                    covered[k] = true;
                }
            }
            if words < 2 {
                continue;
            }
            let contained = inside as f64 / words as f64;
            let coverage = covered.iter().filter(|&&c| c).count() as f64 / title.len() as f64;
            if contained < 0.8 || coverage < 0.4 || !eligible(i) {
                continue;
            }
            for k in (0..N).filter(|&k| open(k)) {
                let better = best[k].is_none_or(|(c, r, _)| coverage > c + 1e-9 || ((coverage - c).abs() <= 1e-9 && rank < r));
                if better {
                    best[k] = Some((coverage, rank, i));
                }
            }
        }
        found = best.map(|b| b.is_some());
        if found.iter().all(|&f| f) {
            break;
        }
    }
    best.map(|b| b.map(|(_, _, n)| n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_searched_together_find_what_each_finds_alone() {
        let page = "<html><head><title>Bridge repair starts on Monday - Gazette</title></head><body>\
            <div class=nav><a>Bridge repair starts</a></div>\
            <h2>Bridge repair starts on Monday</h2><p>Crews close the bridge.</p>\
            <div class=story><h1>Bridge repair starts Monday</h1><p>Work begins at dawn on the old bridge.</p>\
            <span>Repair starts on Monday</span></div></body></html>";
        let doc = crate::clean::page(page);
        let n = doc.nodes.len() as NodeId;
        let alone: Vec<Option<NodeId>> = (0..=n).map(|b| headlines_before(&doc, [b])[0]).collect();
        assert!(alone.iter().flatten().count() > 0, "some bound finds a headline");
        assert_eq!(alone[n as usize], headline(&doc));
        for a in 0..=n {
            for b in 0..=n {
                assert_eq!(headlines_before(&doc, [a, b]), [alone[a as usize], alone[b as usize]], "bounds {a} and {b}");
            }
        }
        // A heading wins over a plain element, and the bound is respected.
        let h2 = (0..n).find(|&i| doc.element(i).is_some_and(|e| e.name == "h2")).expect("h2");
        assert_eq!(headline_before(&doc, doc.end(h2)), Some(h2));
        let before = headline_before(&doc, h2).expect("the menu link matches part of the title");
        assert!(doc.end(before) <= h2, "it stands before the bound");
    }

    #[test]
    fn a_title_the_parser_put_in_the_body_is_not_the_headline() {
        // An unknown element in the head opens the body, and `<title>` follows it there.
        let doc = crate::clean::page(
            "<html><head><cloud domain=x></cloud><title>Bridge repair starts on Monday - Gazette</title></head>\
             <body><p class=kicker>Bridge repair starts on Monday</p><p>Crews close the bridge at dawn.</p></body></html>",
        );
        assert_eq!(doc.title, "Bridge repair starts on Monday - Gazette");
        let h = headline(&doc).expect("the kicker matches the title");
        assert_eq!(doc.element(h).map(|e| e.name.as_str()), Some("p"));
    }
}
