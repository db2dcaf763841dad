//! Link blocks: parts of a selected block that are mostly links (menus, related-story lists).

use crate::clean::{non_space_chars, Doc, NodeData, NodeId};

/// Elements that group other content and are cut whole when mostly links.
const LINK_BLOCKS: &[&str] = &[
    "div", "ul", "ol", "dl", "table", "section", "aside", "nav", "figure", "header", "footer", "form", "p", "li",
];

/// Per node: is it inside a block, under one of `roots`, whose text is mostly link text (more
/// than half of its non-space characters) and which holds less than a quarter of its root's
/// other text? Such blocks are menus and related-story lists; a link-heavy block that holds much
/// of the article is not cut, its own link-heavy parts are. A root that is itself mostly link
/// text is a listing (an index, a category page): its links are its content, and nothing in it
/// is cut.
pub fn link_blocks(doc: &Doc, roots: &[NodeId]) -> Vec<bool> {
    let n = doc.nodes.len();
    let mut chars = vec![0usize; n];
    let mut link = vec![0usize; n];
    let mut in_link = vec![false; n];
    let mut cut = vec![false; n];
    for &root in roots {
        let r = root as usize;
        let Some(end) = doc.nodes.get(r).map(|x| x.end as usize) else { continue };
        // Link and text counts within the subtree only.
        let root_in_link = doc.ancestors(root).any(|a| doc.element(a).is_some_and(|e| e.name == "a"));
        for i in r..end {
            let own = matches!(&doc.nodes[i].data, NodeData::Element(e) if e.name == "a");
            let above = match doc.nodes[i].parent {
                Some(p) if i != r => in_link[p as usize],
                _ => root_in_link,
            };
            in_link[i] = own || above;
            if let NodeData::Text(t) = &doc.nodes[i].data {
                chars[i] = non_space_chars(t);
                link[i] = if in_link[i] { chars[i] } else { 0 };
            }
        }
        for i in (r + 1..end).rev() {
            if let Some(p) = doc.nodes[i].parent {
                chars[p as usize] += chars[i];
                link[p as usize] += link[i];
            }
        }
        if link[r] * 2 > chars[r] {
            continue;
        }
        let root_plain = chars[r] - link[r];
        for i in r + 1..end {
            let inherited = doc.nodes[i].parent.is_some_and(|p| cut[p as usize]);
            let dense = doc.element(i as NodeId).is_some_and(|e| LINK_BLOCKS.contains(&e.name.as_str()))
                && chars[i] > 0
                && link[i] * 2 > chars[i]
                && (chars[i] - link[i]) * 4 < root_plain;
            cut[i] = inherited || dense;
        }
    }
    cut
}

