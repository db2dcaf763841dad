//! Tables: which are for layout (read as blocks), and which a GFM pipe table can hold.

use super::*;

/// Is the table at `id` for layout (read as blocks): one column, a table inside, or
/// `role=presentation`? The scan stops at the first inner table, so nested tables cost one
/// look each.
pub(super) fn layout_table(doc: &Doc, id: NodeId) -> bool {
    let Some(node) = doc.nodes.get(id as usize) else { return true };
    if doc.element(id).and_then(|e| e.attr("role")).is_some_and(|r| r.eq_ignore_ascii_case("presentation")) {
        return true;
    }
    let mut columns = 0usize;
    for i in id + 1..node.end {
        match doc.element(i).map(|e| e.name.as_str()) {
            Some("table") => return true,
            Some("tr") => {
                let cell = |c: NodeId| doc.element(c).is_some_and(|e| e.name == "td" || e.name == "th");
                let cells = doc.children(i).filter(|&c| cell(c)).count();
                columns = columns.max(cells);
            }
            _ => {}
        }
    }
    columns <= 1
}

/// Does the data table at `id` fit a GFM table: no cell spanning rows or columns, and no
/// cell holding blocks (a list, a quote, code, several paragraphs); a cell's one paragraph or
/// heading (`<th><h4>In-office</h4></th>`) is its text. What `skip` cuts, cells or blocks in
/// them, is not looked at, and nor is an empty block (`<p>&nbsp;</p>` an editor left after a
/// cell's text), which writes nothing.
pub(super) fn fits_gfm(doc: &Doc, id: NodeId, skip: &[bool]) -> bool {
    let Some(node) = doc.nodes.get(id as usize) else { return true };
    let mut i = id + 1;
    while i < node.end {
        // What the extraction cut (a hidden row, its button spanning the columns) is not written.
        if is_skipped(skip, i) {
            i = doc.nodes[i as usize].end.max(i + 1);
            continue;
        }
        let Some(e) = doc.element(i) else {
            i += 1;
            continue;
        };
        if e.name == "td" || e.name == "th" {
            let spans = ["colspan", "rowspan"].iter().any(|k| e.attr(k).and_then(|v| v.trim().parse::<usize>().ok()).is_some_and(|n| n > 1));
            let end = doc.nodes[i as usize].end;
            let block = |c: NodeId| {
                doc.element(c).filter(|e| {
                    matches!(e.name.as_str(), "ul" | "ol" | "blockquote" | "pre" | "dl" | "table" | "p") || heading_level(&e.name).is_some()
                })
            };
            let blocks = (i + 1..end).filter(|&c| !is_skipped(skip, c)).filter_map(|c| block(c).filter(|_| !empty(doc, c, skip)));
            let mut paragraphs = 0;
            for b in blocks {
                paragraphs += 1;
                if !(b.name == "p" || heading_level(&b.name).is_some()) || paragraphs > 1 {
                    return false;
                }
            }
            if spans {
                return false;
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    true
}

/// Does the element at `id` write nothing: no text (but what `skip` cuts) and no image?
fn empty(doc: &Doc, id: NodeId, skip: &[bool]) -> bool {
    let image = (id..doc.end(id)).any(|i| !is_skipped(skip, i) && doc.element(i).is_some_and(|e| e.name == "img"));
    !image && !doc.has_text_masked(&[id], skip)
}
