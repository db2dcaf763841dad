//! The text of the reader-comment regions the cleaner cuts, kept aside for a reader who asks
//! for the comments ([`crate::clean::Doc::comments`]).

use super::{is_dropped, Kind, SinkNode, Tree};
use crate::clean::collapse_ws;

/// Fewest words a region of reader comments has (a comment's author and date, and a sentence).
const COMMENT_MIN_WORDS: usize = 10;

/// The readable text of the reader-comment region at source node `root`: a line per block,
/// white space collapsed, without what the cleaner drops or the region's forms (a reply box).
/// Empty when only headings hold text (`Responses`), when it has fewer than
/// [`COMMENT_MIN_WORDS`] words (a prompt: `No comments`, `Add a comment`), or when most of its
/// words are links (a list of recent comments elsewhere).
pub(super) fn region_text(tree: &Tree, root: usize) -> String {
    // On the stack after an element's children: where its block, heading or link ends.
    const BLOCK_END: usize = usize::MAX - 1;
    const HEADING_END: usize = usize::MAX - 2;
    const LINK_END: usize = usize::MAX - 3;
    let (mut links, mut words, mut link_words) = (0usize, 0usize, 0usize);
    let heading = |n: &SinkNode| matches!(&n.kind, Kind::Element { name, .. } if matches!(&*name.local, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"));
    let Some(region) = tree.nodes.get(root).filter(|n| !heading(n)) else { return String::new() };
    let (mut out, mut headings, mut own) = (String::new(), 0usize, false);
    let mut stack = vec![region.first()];
    while let Some(cur) = stack.pop() {
        match cur {
            BLOCK_END => out.push('\n'),
            HEADING_END => {
                out.push('\n');
                headings = headings.saturating_sub(1);
            }
            LINK_END => links = links.saturating_sub(1),
            _ => {
                let Some(node) = tree.nodes.get(cur) else { continue };
                stack.push(node.next());
                match &node.kind {
                    Kind::Text(t) => {
                        own |= headings == 0 && !t.trim().is_empty();
                        let n = t.split_whitespace().count();
                        words += n;
                        link_words += if links > 0 { n } else { 0 };
                        out.push_str(t);
                    }
                    Kind::Element { name, .. } => {
                        let local: &str = &name.local;
                        if is_dropped(&name.local) || matches!(local, "form" | "button" | "textarea" | "select" | "label") {
                            continue;
                        }
                        if heading(node) {
                            headings += 1;
                            out.push('\n');
                            stack.push(HEADING_END);
                        } else if local == "a" {
                            links += 1;
                            stack.push(LINK_END);
                        } else if crate::clean::text::is_block(local) {
                            out.push('\n');
                            stack.push(BLOCK_END);
                        }
                        stack.push(node.first());
                    }
                    Kind::Document | Kind::Other => {}
                }
            }
        }
    }
    if !own || words < COMMENT_MIN_WORDS || link_words * 2 > words {
        return String::new();
    }
    out.lines().map(collapse_ws).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

