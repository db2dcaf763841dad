//! HTML: the serializer behind [`super::html`], an explicit stack of open elements.

use super::*;

/// Elements written without an end tag.
const VOID: &[&str] =
    &["br", "img", "hr", "input", "meta", "link", "source", "wbr", "col", "area", "embed", "param", "track"];

/// Elements kept even with no text inside.
const MEDIA: &[&str] = &["img", "br", "hr", "video", "audio", "picture"];

/// Is node `id` an `img` with no real source, only a stand-in (a `data:` URL, nothing), as
/// Markdown leaves out?
fn blank_image(doc: &Doc, id: NodeId, e: &Element) -> bool {
    e.name == "img" && placeholder(image_source(doc, id, e))
}

/// The attributes a bare fragment keeps ([`html_subtree`]'s `bare`): those a reader of a
/// table or list needs (links, images, cell spans, numbering, language). The others (classes,
/// ids, styles, data) are the page's styling and scripts.
const BARE_ATTRS: &[&str] = &[
    "href", "src", "srcset", "alt", "title", "colspan", "rowspan", "scope", "headers", "abbr", "start", "reversed", "type",
    "value", "lang", "dir", "datetime", "cite",
];

/// Styling wrappers a bare fragment writes without their tags (their content stays).
const BARE_UNWRAPPED: &[&str] = &["span", "font"];

/// Append the HTML of the subtree at `root`, minus `skip` and empty wrappers; `bare` (an HTML
/// block of the Markdown) keeps only [`BARE_ATTRS`] and drops [`BARE_UNWRAPPED`] tags.
pub(super) fn html_subtree(doc: &Doc, root: NodeId, skip: &[bool], base: Option<&Url>, bare: bool, out: &mut String) {
    let Some(node) = doc.nodes.get(root as usize) else { return };
    let end = node.end.min(doc.nodes.len() as NodeId);
    if root >= end {
        return;
    }
    // Per node of the subtree: does it hold text or media after the cuts? Children come after
    // their parent, so one backward pass sums them up.
    let at = |i: NodeId| (i - root) as usize;
    // Per node: is it inside a `pre` (or `textarea`), where white space is text?
    let mut preformatted = vec![false; at(end)];
    let mut pre_until = root;
    for i in root..end {
        if doc.element(i).is_some_and(|e| e.name == "pre" || e.name == "textarea") {
            pre_until = pre_until.max(doc.end(i));
        }
        preformatted[at(i)] = i < pre_until;
    }
    let mut full = vec![false; at(end)];
    for i in (root..end).rev() {
        if is_skipped(skip, i) {
            continue;
        }
        let n = &doc.nodes[i as usize];
        let own = match &n.data {
            NodeData::Text(t) => !t.trim().is_empty() || (preformatted[at(i)] && !t.is_empty()),
            NodeData::Element(e) => MEDIA.contains(&e.name.as_str()) && !blank_image(doc, i, e),
        };
        full[at(i)] |= own;
        if full[at(i)] && i != root {
            if let Some(p) = n.parent.filter(|&p| p >= root && p < i) {
                full[at(p)] = true;
            }
        }
    }
    // Elements still open: (end of subtree, name).
    let mut open: Vec<(NodeId, &str)> = Vec::new();
    let mut i = root;
    while i < end {
        while let Some(&(e_end, name)) = open.last() {
            if e_end > i {
                break;
            }
            open.pop();
            push_end_tag(out, name);
        }
        let n = &doc.nodes[i as usize];
        let next = n.end.max(i + 1);
        if is_skipped(skip, i) {
            i = next;
            continue;
        }
        let e = match &n.data {
            // Indentation between elements (white space only, outside `pre`) shrinks to one
            // new line or space: it has no meaning in HTML and the cut parts leave much of it.
            NodeData::Text(t) if t.trim().is_empty() && !open.iter().any(|&(_, name)| name == "pre" || name == "textarea") => {
                let ws = if t.contains('\n') { '\n' } else { ' ' };
                match out.pop() {
                    Some(last) if last.is_whitespace() => out.push(if last == '\n' { '\n' } else { ws }),
                    Some(last) => {
                        out.push(last);
                        out.push(ws);
                    }
                    None => {}
                }
                i += 1;
                continue;
            }
            NodeData::Text(t) => {
                escape_html(out, t, false);
                i += 1;
                continue;
            }
            NodeData::Element(e) => e,
        };
        let name = e.name.as_str();
        // (A blank image is not `full`: left out here too.)
        if name == "head" || (!full[at(i)] && name != "td" && name != "th") {
            i = next;
            continue;
        }
        // A page read without scripts shows its `noscript` content: written without the tag,
        // which a reader with scripts would hide.
        if name == "html" || name == "body" || name == "noscript" || (bare && BARE_UNWRAPPED.contains(&name)) {
            i += 1;
            continue;
        }
        out.push('<');
        out.push_str(name);
        // An image's lazy-loading attributes give its `src` (an `img`'s) and `srcset` (written
        // first), and go: the fragment shows the image without the page's scripts.
        let (own_src, own_srcset) = (name == "img", matches!(name, "img" | "source"));
        let lazy = [(own_src, "src", image_source(doc, i, e)), (own_srcset, "srcset", image_srcset(e))];
        for (_, k, v) in lazy.iter().filter(|(ours, _, _)| *ours) {
            let value = match (*k, v) {
                ("src", Some(v)) => resolve(base, v, true).map(Cow::Owned),
                (_, Some(v)) => Some(resolve_srcset(base, v)),
                _ => None,
            };
            if let Some(value) = value {
                out.push(' ');
                out.push_str(k);
                out.push_str("=\"");
                escape_html(out, &value, true);
                out.push('"');
            }
        }
        for (k, v) in &e.attrs {
            let k_ = k.as_str();
            let written = (own_src && (k_ == "src" || LAZY_SRC.contains(&k_))) || (own_srcset && (k_ == "srcset" || LAZY_SRCSET.contains(&k_)));
            if k.starts_with("on") || written || (bare && !BARE_ATTRS.contains(&k_)) {
                continue;
            }
            let value = match k.as_str() {
                "href" => resolve(base, v, false).map(Cow::Owned),
                "src" | "poster" => resolve(base, v, true).map(Cow::Owned),
                "srcset" => Some(resolve_srcset(base, v)),
                _ => Some(Cow::Borrowed(v.as_str())),
            };
            let Some(value) = value else { continue };
            out.push(' ');
            out.push_str(k);
            out.push_str("=\"");
            escape_html(out, &value, true);
            out.push('"');
        }
        out.push('>');
        if VOID.contains(&name) {
            i = next;
            continue;
        }
        // The parser drops a new line right after these start tags: keep the page's one.
        if matches!(name, "pre" | "textarea" | "listing") {
            if let Some(NodeData::Text(t)) = doc.nodes.get(i as usize + 1).filter(|_| i + 1 < n.end).map(|c| &c.data) {
                if t.starts_with('\n') {
                    out.push('\n');
                }
            }
        }
        open.push((n.end, name));
        i += 1;
    }
    while let Some((_, name)) = open.pop() {
        push_end_tag(out, name);
    }
}

fn push_end_tag(out: &mut String, name: &str) {
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// A `srcset` with each candidate's URL resolved (as written when one is a `data:` URL,
/// whose commas the split would break).
fn resolve_srcset<'v>(base: Option<&Url>, v: &'v str) -> Cow<'v, str> {
    if base.is_none() || v.contains("data:") {
        return Cow::Borrowed(v);
    }
    let parts: Vec<String> = v
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| {
            let (url, descriptor) = c.split_once(char::is_whitespace).unwrap_or((c, ""));
            let url = resolve(base, url, true).unwrap_or_default();
            if descriptor.is_empty() { url } else { format!("{url} {}", descriptor.trim()) }
        })
        .collect();
    Cow::Owned(parts.join(", "))
}

/// Append `s` with `&`, `<`, `>` (and `"` in attributes) escaped.
pub(super) fn escape_html(out: &mut String, s: &str, attr: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}
