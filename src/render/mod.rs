//! Render: an [`Extraction`] as Markdown, as an HTML fragment, or as XML.
//!
//! Every format puts the headline first (when the extraction put one before the block), then
//! each selected element in document order, and leaves out what the extraction cut
//! ([`Extraction::skip`]: a marked element goes with its whole subtree). An extraction with no
//! elements (a single-page method that gave only text) is rendered from its text, one
//! paragraph per block of lines between blank lines.
//!
//! - [`markdown`]: CommonMark with GFM tables (and `~~strikethrough~~`): headings, paragraphs,
//!   lists nested to any depth, links and images resolved against the page's URL, emphasis,
//!   code spans and fenced code blocks, block quotes, pipe tables (a table GFM cannot hold, with
//!   a cell spanning rows or columns or holding blocks, as an HTML block), rules, hard breaks.
//!   Text is escaped so that it renders literally; code is written as it is. An image shows its
//!   real URL where a lazy-loading script keeps it (`data-src` and its kind).
//! - [`html`]: the elements serialized, links resolved, empty wrappers left out.
//! - [`xml`]: the cleaned XML of the elements, `dfs` included, under one `<article>`.
//!
//! Like every stage, the walks are loops over the document-ordered arena with explicit stacks
//! of open elements: no nesting depth can overflow the stack.

use crate::clean::{collapse_ws, Doc, Element, NodeData, NodeId};
use crate::extract::Extraction;
use std::borrow::Cow;
use url::Url;

mod html;
mod markdown;

use html::{escape_html, html_subtree};
use markdown::Markdown;

/// Markdown (CommonMark + GFM tables) of an extraction.
///
/// Blocks are separated by one blank line. What each element becomes:
/// `h1`–`h6` → `#`…`######` (a headline that is no heading becomes `# `); `p`, `div` and other
/// block containers → paragraphs; `ul`/`ol` → `-`/`1.` lists, an item's content indented
/// under its marker; `blockquote` → `> `; `pre` → a fenced code block, as written, the fence
/// longer than any backtick run inside, its info string the language its markup declares
/// (`language-*`, `lang-*`, `brush: *`, `data-language` on it or its `code`; Sphinx's, GitHub's
/// or MkDocs' class on the element around it), a paragraph above it that is only that language
/// (the page's label) left out;
/// `code`, `kbd`, `samp` → code spans; `em`/`i` → `*x*`, `strong`/`b` → `**x**`,
/// `del`/`s` → `~~x~~` (never around white space only); `a` → `[text](href)`, `img` →
/// `![alt](src)`, both resolved against `base` (kept as written without one or when that
/// fails; `javascript:` and `data:` links keep only their text, `data:` images are left out);
/// `table` → a GFM pipe table, first row as header, short rows padded (a layout table, with
/// one column or a table inside, is read as blocks); `hr` → `---`; `br` → `\` and a new line,
/// two in a row start a new paragraph; a link to a note of the page (a number, a letter or
/// a note sign linking to `#id`) → a GFM footnote `[^1]`, the note's text a definition after
/// the article (see `markdown/notes.rs`). White space is collapsed outside `pre`. Blocks inside
/// a link or emphasis close it and open it again; in a heading or table cell, blocks become
/// spaces.
///
/// Text is escaped to render literally: `\` `` ` `` `*` `_` `[` `]` `<` `>` `~` everywhere,
/// `&` before an entity-like name, `|` in tables, and at the start of a line `#` `+` `-` `=`
/// `|` and `1.`-style numbers. Bare `http(s)://` URLs become `<…>` autolinks (GFM would link
/// them with their backslashes), and in `www.` ones `_` and `~` stay as written. Where
/// CommonMark's flanking rules would leave `*` or `~~` unread (`**Note:**text`), the
/// punctuation moves out of the span (`**Note**:text`) or the markers go. Lists that follow
/// each other take the other delimiter (`*`, `1)`), or they would read as one.
///
/// The output ends with one new line (empty output: empty string), has no trailing spaces
/// and no run of blank lines, except inside code blocks, which are written exactly as the
/// page has them (one final new line left out).
///
/// # Example
/// ```
/// use forest::extract::{Extraction, Rule};
/// let doc = forest::clean::page("<div><h2>Hi</h2><p>Some <em>text</em>, <a href='/x'>a link</a> and 2*3.</p></div>");
/// let div = doc.children(doc.body).next().expect("the div");
/// let x = Extraction::new(vec![div], doc.text(div), Rule::Exact);
/// let base = url::Url::parse("https://example.com/a/b.html").ok();
/// assert_eq!(
///     forest::render::markdown(&doc, &x, base.as_ref()),
///     "## Hi\n\nSome *text*, [a link](https://example.com/x) and 2\\*3.\n"
/// );
/// ```
pub fn markdown(doc: &Doc, x: &Extraction, base: Option<&Url>) -> String {
    let cuts = shown_cuts(doc, &x.skip);
    let mut md = Markdown::new(doc, base, &cuts);
    if x.nodes.is_empty() {
        for para in paragraphs(&x.text) {
            for (k, line) in para.iter().enumerate() {
                if k > 0 {
                    md.soft_break();
                }
                md.text(line);
            }
            md.block_break();
        }
    } else {
        if let Some(h) = x.headline {
            md.subtree(h, true, false);
        }
        for &n in &x.nodes {
            md.subtree(n, false, lone_item(doc, &x.nodes, n));
        }
    }
    md.finish()
}

/// HTML fragment of an extraction: the selected elements serialized (cut parts left out),
/// headline first.
///
/// Attributes are kept (values escaped), but for event handlers (`on*`); `href`, `src`,
/// `poster` and `srcset` are resolved against `base`, and `javascript:` URLs dropped. Void
/// elements have no end tag. Elements left with no text and no image, `br`, `hr`, video or
/// audio after the cuts are left out (table cells excepted; white space inside `pre` is
/// text); an image with no real source (no `src`, or a `data:` stand-in, and no lazy-loading
/// attribute or link to an image file that names one) is left out, as in Markdown; `html`,
/// `body` and `noscript` (shown: the page was read without scripts) stand for their content,
/// `head` is left out. A headline that is no heading is an `<h1>` of its content. Each root
/// ends with a new line. An extraction with no elements gives one `<p>` per paragraph of its
/// text.
///
/// # Example
/// ```
/// use forest::extract::{Extraction, Rule};
/// let doc = forest::clean::page("<div><p>A <a href='/x'>link</a></p><p><span> </span></p></div>");
/// let div = doc.children(doc.body).next().expect("the div");
/// let x = Extraction::new(vec![div], doc.text(div), Rule::Exact);
/// let base = url::Url::parse("https://example.com/").ok();
/// assert_eq!(
///     forest::render::html(&doc, &x, base.as_ref()),
///     "<div><p>A <a href=\"https://example.com/x\">link</a></p></div>\n"
/// );
/// ```
pub fn html(doc: &Doc, x: &Extraction, base: Option<&Url>) -> String {
    let mut out = String::new();
    if x.nodes.is_empty() {
        for para in paragraphs(&x.text) {
            out.push_str("<p>");
            escape_html(&mut out, &para.join("\n"), false);
            out.push_str("</p>\n");
        }
        return out;
    }
    let cuts = shown_cuts(doc, &x.skip);
    if let Some(h) = x.headline {
        let heading = doc.element(h).is_some_and(|e| heading_level(&e.name).is_some());
        let mut inner = String::new();
        // A headline that is no heading (a `p`, an `li`) is written as an `h1` of its content.
        if heading {
            html_subtree(doc, h, &cuts, base, false, &mut inner);
        } else {
            for c in doc.children(h) {
                html_subtree(doc, c, &cuts, base, false, &mut inner);
            }
        }
        if !inner.is_empty() {
            let (open, close) = if heading { ("", "") } else { ("<h1>", "</h1>") };
            out.push_str(open);
            out.push_str(&inner);
            out.push_str(close);
            out.push('\n');
        }
    }
    for &n in &x.nodes {
        let before = out.len();
        if lone_item(doc, &x.nodes, n) {
            for c in doc.children(n) {
                html_subtree(doc, c, &cuts, base, false, &mut out);
            }
        } else {
            html_subtree(doc, n, &cuts, base, false, &mut out);
        }
        if out.len() > before {
            out.push('\n');
        }
    }
    out
}

/// A small HTML document holding [`html`] of the extraction in an `<article>`, with the
/// page's `title` and `lang` (both escaped).
pub fn html_document(doc: &Doc, x: &Extraction, base: Option<&Url>, title: &str, lang: Option<&str>) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html");
    if let Some(l) = lang {
        out.push_str(" lang=\"");
        escape_html(&mut out, l, true);
        out.push('"');
    }
    out.push_str(">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    escape_html(&mut out, title, false);
    out.push_str("</title>\n</head>\n<body>\n<article>\n");
    out.push_str(&html(doc, x, base));
    out.push_str("</article>\n</body>\n</html>\n");
    out
}

/// XML of an extraction: `<article>` holding the selected elements as cleaned XML with their
/// dfs attributes (cut parts left out), headline first.
///
/// Always well-formed (the cleaned tree's names and texts are XML-safe; see
/// [`Doc::to_xml`]). An extraction with no elements gives `<article><p>…</p>…</article>`
/// from its text. The output ends with a new line.
///
/// # Example
/// ```
/// use forest::extract::{Extraction, Rule};
/// let doc = forest::clean::page("<div><p>One &amp; two</p></div>");
/// let div = doc.children(doc.body).next().expect("the div");
/// let x = Extraction::new(vec![div], doc.text(div), Rule::Exact);
/// let xml = forest::render::xml(&doc, &x);
/// assert_eq!(xml, "<article><div dfs=\"3\"><p dfs=\"4\">One &amp; two</p></div></article>\n");
/// ```
pub fn xml(doc: &Doc, x: &Extraction) -> String {
    let mut out: Vec<u8> = b"<article>".to_vec();
    if x.nodes.is_empty() {
        let mut s = String::new();
        for para in paragraphs(&x.text) {
            s.push_str("<p>");
            escape_html(&mut s, &crate::clean::xml_text(&para.join("\n")), false);
            s.push_str("</p>");
        }
        out.extend_from_slice(s.as_bytes());
    } else {
        for n in x.headline.iter().chain(&x.nodes) {
            doc.write_xml_subtree(&mut out, *n, &x.skip);
        }
    }
    out.extend_from_slice(b"</article>\n");
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Markdown of plain text, a paragraph per block between blank lines, escaped.
pub fn text_markdown(text: &str) -> String {
    markdown(&Doc::default(), &Extraction::new(Vec::new(), text.to_string(), crate::extract::Rule::WholePage), None)
}

/// HTML of plain text: a `<p>` per block between blank lines, escaped.
pub fn text_html(text: &str) -> String {
    html(&Doc::default(), &Extraction::new(Vec::new(), text.to_string(), crate::extract::Rule::WholePage), None)
}

/// Blocks of `text` between blank lines, each as its trimmed lines.
fn paragraphs(text: &str) -> Vec<Vec<&str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(line);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The extraction's cuts as the structure shows them: a figure's caption (its subtree) stays
/// with its image, where the figure and an image of it (with a real source) or a video are
/// shown, though the text leaves it out (as gold texts of articles do).
fn shown_cuts<'a>(doc: &Doc, skip: &'a [bool]) -> Cow<'a, [bool]> {
    let shown = |from: NodeId, to: NodeId| doc.ancestors(from).take_while(|&a| a != to).chain([from]).all(|a| !is_skipped(skip, a));
    // Per figure, worked out once (a page may give a figure many captions): does it show an
    // image with a real source, or a video?
    let mut with_image: std::collections::HashMap<NodeId, bool> = std::collections::HashMap::new();
    let mut caption = |i: NodeId| {
        let Some(figure) = doc.nodes[i as usize].parent.filter(|&p| doc.element(p).is_some_and(|e| e.name == "figure")) else { return false };
        doc.element(i).is_some_and(|e| e.name == "figcaption")
            && !is_skipped(skip, figure)
            && *with_image.entry(figure).or_insert_with(|| {
                (figure + 1..doc.end(figure)).any(|n| {
                    let image = doc.element(n).is_some_and(|e| match e.name.as_str() {
                        "img" => !placeholder(image_source(doc, n, e)),
                        name => name == "video",
                    });
                    image && shown(n, figure)
                })
            })
    };
    let captions: Vec<usize> = (0..skip.len().min(doc.nodes.len())).filter(|&i| skip[i] && caption(i as NodeId)).collect();
    if captions.is_empty() {
        return Cow::Borrowed(skip);
    }
    let mut cuts = skip.to_vec();
    for i in captions {
        let end = (doc.end(i as NodeId) as usize).min(cuts.len());
        cuts[i..end].fill(false);
    }
    Cow::Owned(cuts)
}

/// Is the root `n` a list item selected with no other item of its list? It is then the
/// page's layout around one block (a thread's comments in an item of a list of stories), and
/// Markdown and HTML give its content: a lone item is no list (`- 1.`, `<li>` outside one).
fn lone_item(doc: &Doc, nodes: &[NodeId], n: NodeId) -> bool {
    let item = |i: NodeId| doc.element(i).is_some_and(|e| e.name.as_str() == "li");
    let parent = |i: NodeId| doc.nodes.get(i as usize).and_then(|m| m.parent);
    item(n) && !nodes.iter().any(|&m| m != n && item(m) && parent(m) == parent(n))
}

fn is_skipped(skip: &[bool], i: NodeId) -> bool {
    skip.get(i as usize).copied().unwrap_or(false)
}

/// `1`–`6` for `h1`–`h6`.
fn heading_level(name: &str) -> Option<usize> {
    match name.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(usize::from(d - b'0')),
        _ => None,
    }
}

/// A URL of the page made absolute against `base` (as written when there is none or it does
/// not resolve); `None` for an empty one and for script URLs, and for `data:` ones when
/// `data` is false.
fn resolve(base: Option<&Url>, raw: &str, data: bool) -> Option<String> {
    let raw = raw.trim_matches(|c: char| c.is_ascii_whitespace());
    // Browsers ignore tabs and new lines inside a scheme.
    let scheme: String = raw.chars().filter(|c| !c.is_ascii_whitespace()).take(11).collect();
    let scheme = scheme.to_ascii_lowercase();
    let script = scheme.starts_with("javascript:") || scheme.starts_with("vbscript:");
    if raw.is_empty() || script || (!data && scheme.starts_with("data:")) {
        return None;
    }
    Some(match base.map(|b| b.join(raw)) {
        Some(Ok(u)) => u.to_string(),
        _ => raw.to_string(),
    })
}

/// Attributes lazy-loading scripts keep an image's URL in until it scrolls into view, most
/// used first.
const LAZY_SRC: &[&str] = &["data-src", "data-lazy-src", "data-original", "data-lazy", "data-url", "data-hi-res-src", "data-full-src"];
/// Attributes lazy-loading scripts keep an image's `srcset` in.
const LAZY_SRCSET: &[&str] = &["data-srcset", "data-lazy-srcset"];

/// Is this `src` a stand-in for the real image: missing, a `data:` URL (a blank pixel or a
/// blurred preview), or nothing but white space?
fn placeholder(src: Option<&str>) -> bool {
    src.is_none_or(|s| s.trim().is_empty() || s.trim_start().get(..5).is_some_and(|p| p.eq_ignore_ascii_case("data:")))
}

/// The URL an image (`img`, `source`, node `id`) shows once loaded: its `src`, unless that is
/// a stand-in ([`placeholder`]) and a lazy-loading attribute names the real one
/// ([`LAZY_SRC`]), else the last (largest) candidate of its `srcset` (or lazy `srcset`), else,
/// for a stand-in inside a link to an image file (a lightbox), the link's image.
fn image_source<'a>(doc: &'a Doc, id: NodeId, e: &'a Element) -> Option<&'a str> {
    let src = e.attr("src");
    if !placeholder(src) {
        return src;
    }
    let lazy = LAZY_SRC.iter().filter_map(|k| e.attr(k)).find(|v| !placeholder(Some(v)));
    let found = lazy.or_else(|| {
        let set = image_srcset(e)?;
        set.split(',').map(str::trim).rfind(|c| !c.is_empty()).and_then(|c| c.split_whitespace().next())
    });
    found.or_else(|| linked_image(doc, id)).or(src)
}

/// The image file the link around node `id` (its nearest `a`, up to three levels up) points
/// to, if it points to one (`.jpg`, `.png`, …).
fn linked_image(doc: &Doc, id: NodeId) -> Option<&str> {
    let href = doc.ancestors(id).take(3).filter_map(|a| doc.element(a)).find(|a| a.name == "a")?.attr("href")?;
    let path = href.split(['?', '#']).next().unwrap_or_default();
    let ext = path.rsplit_once('.').map(|(_, x)| x.to_ascii_lowercase())?;
    matches!(ext.as_str(), "jpg" | "jpeg" | "png" | "gif" | "webp" | "avif").then_some(href)
}

/// The `srcset` an image shows once loaded: its own, else a lazy one ([`LAZY_SRCSET`]).
fn image_srcset(e: &Element) -> Option<&str> {
    e.attr("srcset").filter(|v| !v.trim().is_empty()).or_else(|| LAZY_SRCSET.iter().find_map(|k| e.attr(k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::{page, Node};
    use crate::extract::Rule;

    /// The element with class `class`.
    fn by_class(doc: &Doc, class: &str) -> NodeId {
        (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.element(i).is_some_and(|e| e.attr("class") == Some(class)))
            .expect("element with the class")
    }

    fn select(doc: &Doc, class: &str) -> Extraction {
        let n = by_class(doc, class);
        Extraction::new(vec![n], doc.text(n), Rule::Exact)
    }

    fn md(html: &str) -> String {
        let doc = page(&format!("<div class=x>{html}</div>"));
        markdown(&doc, &select(&doc, "x"), None)
    }

    fn base() -> Url {
        Url::parse("https://example.com/blog/post.html").expect("URL")
    }

    #[test]
    fn formulas_keep_their_tex_in_text_and_markdown() {
        let doc = page("<div class=x><p>Energy is <math alttext='E=mc^2'><mi>E</mi></math> and <math display=block><semantics><mi>x</mi>\
            <annotation encoding='application/x-tex'>x_1^2</annotation></semantics></math>, then <script type='math/tex'>a_b</script> for $5 and $10.</p></div>");
        let x = select(&doc, "x");
        assert!(x.text.contains("Energy is $E=mc^2$ and $$x_1^2$$ , then $a_b$ for $5 and $10."), "{}", x.text);
        assert_eq!(markdown(&doc, &x, None), "Energy is $E=mc^2$ and $$x_1^2$$ , then $a_b$ for $5 and $10.\n");
    }

    #[test]
    fn tables_gfm_cannot_hold_are_html_blocks_in_markdown() {
        let spans = md("<table><tr><th>Year</th><th colspan=2>Traffic</th></tr><tr><td>2023</td><td>cars</td><td>bikes</td></tr></table>");
        assert_eq!(spans, "<table><tbody><tr><th>Year</th><th colspan=\"2\">Traffic</th></tr><tr><td>2023</td><td>cars</td><td>bikes</td></tr></tbody></table>\n");
        // Only what a reader needs: no classes, ids, styles or data, no styling wrappers.
        let styled = md("<table class=wikitable><tr><th scope=col style='width:9%'>Year</th><th colspan=2>Winners</th></tr>\
                         <tr><td data-sort-value=1901>1901</td><td><span class=vcard><a href=/wiki/Roentgen title=R\u{f6}ntgen>R\u{f6}ntgen</a></span></td><td>none</td></tr></table>");
        assert_eq!(
            styled,
            "<table><tbody><tr><th scope=\"col\">Year</th><th colspan=\"2\">Winners</th></tr><tr><td>1901</td><td><a href=\"/wiki/Roentgen\" title=\"R\u{f6}ntgen\">R\u{f6}ntgen</a></td><td>none</td></tr></tbody></table>\n"
        );
        let list = md("<ul><li>Routes:<table><tr><th>Route</th><th>Stops</th></tr><tr><td>Ferry</td><td><ul><li>Mill</li><li>Market</li></ul></td></tr></table></li></ul>");
        assert!(list.starts_with("- Routes:\n\n  <table>") && !list.contains("\n\n  </"), "{list}");
        assert_eq!(md("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"), "| A | B |\n| --- | --- |\n| 1 | 2 |\n");
    }

    #[test]
    fn a_figure_keeps_its_caption_in_html_and_markdown_where_its_image_is_shown() {
        let doc = page("<div class=x><p>t</p><figure><img src='a.jpg' alt=a><figcaption>The <b>bridge</b>.</figcaption></figure>\
            <figure><span class=gone><img src='b.jpg'></span><figcaption>Alone</figcaption></figure></div>");
        let mut x = select(&doc, "x");
        // As the single-page extractor cuts captions (and here the second image), subtrees whole.
        x.skip = vec![false; doc.nodes.len()];
        for n in [by_class(&doc, "gone")].into_iter().chain((0..doc.nodes.len() as NodeId).filter(|&i| doc.element(i).is_some_and(|e| e.name == "figcaption"))) {
            x.skip[n as usize..doc.end(n) as usize].fill(true);
        }
        let out = html(&doc, &x, None);
        assert!(out.contains("<figure><img src=\"a.jpg\" alt=\"a\"><figcaption>The <b>bridge</b>.</figcaption></figure>"), "{out}");
        assert!(!out.contains("Alone"), "a caption without its image: {out}");
        assert_eq!(markdown(&doc, &x, None), "t\n\n![a](a.jpg)\n\nThe **bridge**.\n");
        assert!(!xml(&doc, &x).contains("bridge"), "the XML is the extraction's");
    }

    #[test]
    fn images_without_a_real_source_are_left_out_and_a_lightbox_link_gives_one() {
        let doc = page("<div class=x><p>t</p><a href='/full/photo.JPG?w=2'><img src='data:image/svg+xml,%3Csvg%3E' alt=p></a>\
            <img class=lazyload alt=nothing><a href='/page'><img src='data:image/gif;base64,R0' alt=q></a>\
            <noscript><img src='real.png' alt=r></noscript></div>");
        let x = select(&doc, "x");
        let out = html(&doc, &x, Some(&base()));
        assert!(out.contains(r#"<a href="https://example.com/full/photo.JPG?w=2"><img src="https://example.com/full/photo.JPG?w=2" alt="p"></a>"#), "{out}");
        assert!(!out.contains("nothing") && !out.contains("data:") && !out.contains("/page"), "{out}");
        // The page was read without scripts: its `noscript` content is shown, without the tag.
        assert!(out.contains(r#"<img src="https://example.com/blog/real.png" alt="r">"#) && !out.contains("noscript"), "{out}");
        assert_eq!(
            markdown(&doc, &x, Some(&base())),
            "t\n\n[![p](https://example.com/full/photo.JPG?w=2)](https://example.com/full/photo.JPG?w=2)\n\n![r](https://example.com/blog/real.png)\n"
        );
    }

    #[test]
    fn footnote_references_become_gfm_footnotes_with_their_note_after_the_article() {
        let doc = page("<div class=x><h2 id=s>Facts</h2><p>Traffic rose<sup><a href='#fn1'>1</a></sup> and fell<sup><a href='#fn1'>[1]</a></sup>, \
            see <a href='#s'>Facts</a> or <a href='#top'>↑</a>, <a href='#fn2'>*</a>.</p></div>\
            <ol class=footnotes><li id=fn1><p>City <em>traffic</em> count, 2024. <a href='#r1'>↩</a></p></li>\
            <li id=fn2><a href='#r2'>^</a> <a href='#r2'>a</a> <a href='#r3'>b</a> Estimate_1.</li></ol><div id=top>top</div>");
        assert_eq!(
            markdown(&doc, &select(&doc, "x"), None),
            "## Facts\n\nTraffic rose[^1] and fell[^1], see [Facts](#s) or [↑](#top), [^2].\n\n\
             [^1]: City traffic count, 2024.\n[^2]: Estimate\\_1.\n"
        );
    }

    #[test]
    fn definition_lists_are_html_blocks_in_markdown() {
        assert_eq!(md("<p>Facts:</p><dl><dt>Length</dt><dd>120 <em>metres</em></dd></dl>"), "Facts:\n\n<dl><dt>Length</dt><dd>120 <em>metres</em></dd></dl>\n");
    }

    #[test]
    fn lazy_images_show_their_real_source_in_html() {
        let doc = page("<div class=x><p>t</p><img src='data:image/gif;base64,R0' data-src='a.jpg' data-srcset='a.jpg 1x, b.jpg 2x' alt=a>\
            <picture><source data-srcset='c.webp'><img src='d.jpg' alt=d></picture></div>");
        let out = html(&doc, &select(&doc, "x"), Some(&base()));
        assert!(out.contains(r#"<img src="https://example.com/blog/a.jpg" srcset="https://example.com/blog/a.jpg 1x, https://example.com/blog/b.jpg 2x" alt="a">"#), "{out}");
        // (The cleaned tree has no `source`: a picture shows its `img`.)
        assert!(out.contains(r#"<picture><img src="https://example.com/blog/d.jpg" alt="d"></picture>"#), "{out}");
        assert!(!out.contains("data:") && !out.contains("data-src"), "{out}");
    }

    /// The hand-written page and the Markdown it must give (also checked from `tests/render.rs`).
    const PAGE: &str = include_str!("../../tests/data/render/lists-table-code.html");
    const EXPECTED: &str = include_str!("../../tests/data/render/lists-table-code.md");

    #[test]
    fn markdown_of_a_full_page() {
        let doc = page(PAGE);
        let got = markdown(&doc, &select(&doc, "article"), Some(&base()));
        assert_eq!(got, EXPECTED, "\n{got}");
    }

    #[test]
    fn markdown_invariants() {
        let doc = page(PAGE);
        let got = markdown(&doc, &select(&doc, "article"), Some(&base()));
        assert!(got.ends_with('\n') && !got.ends_with("\n\n"));
        assert!(!got.contains("\n\n\n"));
        assert!(got.lines().all(|l| !l.ends_with(' ')), "{got}");
    }

    #[test]
    fn links_without_base_or_with_scripts() {
        assert_eq!(md("<p><a href='/a b'>x</a> <a href='javascript:go()'>y</a> <a>z</a></p>"), "[x](/a%20b) y z\n");
        assert_eq!(md("<p><a href='(x)'>t</a></p>"), "[t](\\(x\\))\n");
        assert_eq!(md("<p>Hi!<a href='u'>t</a></p>"), "Hi\\![t](u)\n");
        assert_eq!(md("<p><a href='u'><img src='i.png' alt='[a]'></a></p>"), "[![\\[a\\]](i.png)](u)\n");
        assert_eq!(md("<p><img src='data:image/png;base64,xx'> <img alt=no></p>"), "");
        // Lazy images: the real URL, not the stand-in.
        assert_eq!(md("<p><img src='data:image/gif;base64,R0' data-src='/real.jpg' alt=r></p>"), "![r](/real.jpg)\n");
        assert_eq!(md("<p><img data-lazy-srcset='/s.jpg 300w, /l.jpg 900w' alt=l></p>"), "![l](/l.jpg)\n");
    }

    #[test]
    fn emphasis_edges() {
        assert_eq!(md("<p>a<em> </em>b <strong></strong>c</p>"), "a b c\n");
        assert_eq!(md("<p><em>a</em><em>b</em> <i>x <em>y</em></i></p>"), "*ab* *x y*\n");
        assert_eq!(md("<p><b>bold <i>both</i></b> <del>gone</del></p>"), "**bold *both*** ~~gone~~\n");
        assert_eq!(md("<p><em>cut<br>line</em><br></p>"), "*cut\\\nline*\n");
        // Punctuation moved out where CommonMark's flanking rules would not see the markers.
        assert_eq!(md("<p><b>Note:</b>text, word<em>\"quoted\"</em>word</p>"), "**Note**:text, word\"*quoted*\"word\n");
        assert_eq!(md("<p>これは<strong>「重要」</strong>です</p>"), "これは「**重要**」です\n");
        assert_eq!(md("<p>a<em>!</em>b (<em>c</em>)</p>"), "a!b (*c*)\n");
        // A closer and an opener of the same character would make one run: the second goes.
        assert_eq!(md("<p><em>a</em><strong>b</strong> <b>c</b><i>d</i></p>"), "*a*b **c**d\n");
    }

    #[test]
    fn block_inside_a_link_reopens_it() {
        assert_eq!(md("<a href='u'><h3>Title</h3><p>Sum</p></a>"), "### [Title](u)\n\n[Sum](u)\n");
    }

    #[test]
    fn a_cells_heading_is_its_text_in_a_gfm_table() {
        let table = "<table><tr><th></th><th><div>Ours</div></th><th><h4>In-office</h4></th></tr><tr><th>Chat</th><td>yes</td><td>no</td></tr></table>";
        assert_eq!(md(table), "|  | Ours | In-office |\n| --- | --- | --- |\n| Chat | yes | no |\n");
        // A row the extraction cut (hidden, its button spanning the columns) leaves the table GFM.
        let doc = page("<div class=x><table><tr><th>a</th><th>b</th></tr><tr class=more><td colspan=2>See more</td></tr><tr><td>1</td><td>2</td></tr></table></div>");
        let mut x = select(&doc, "x");
        let more = by_class(&doc, "more");
        x.skip = (0..doc.nodes.len() as NodeId).map(|i| i >= more && i < doc.end(more)).collect();
        assert_eq!(markdown(&doc, &x, None), "| a | b |\n| --- | --- |\n| 1 | 2 |\n");
        // So does a block the extraction cut inside a kept cell (a second paragraph, hidden).
        let doc = page("<div class=x><table><tr><th>a</th><th>b</th></tr><tr><td><p>1</p><p class=more>Show</p></td><td>2</td></tr></table></div>");
        let mut x = select(&doc, "x");
        let more = by_class(&doc, "more");
        x.skip = (0..doc.nodes.len() as NodeId).map(|i| i >= more && i < doc.end(more)).collect();
        assert_eq!(markdown(&doc, &x, None), "| a | b |\n| --- | --- |\n| 1 | 2 |\n");
        // An empty paragraph an editor left after a cell's text writes nothing: the table stays
        // GFM; an image is not empty, and two paragraphs with it are an HTML block.
        let empty = "<table><tr><th>a</th><th>b</th></tr><tr><td><p>1</p><p> <b></b> </p></td><td><p>2</p><p><br></p></td></tr></table>";
        assert_eq!(md(empty), "| a | b |\n| --- | --- |\n| 1 | 2 |\n");
        assert!(md("<table><tr><th>a</th><th>b</th></tr><tr><td><p>1</p><p><img src=i.png></p></td><td>2</td></tr></table>").starts_with("<table>"));
    }

    #[test]
    fn code_spans_and_blocks() {
        assert_eq!(md("<p><code>`tick</code> and <kbd> a  b </kbd>.</p>"), "`` `tick `` and `a b` .\n");
        assert_eq!(md("<pre>x = ```\n\n  y\n</pre>"), "````\nx = ```\n\n  y\n````\n");
        assert_eq!(md("<pre><code class='lang-py'>a *b* <i>c</i></code></pre>"), "```py\na *b* c\n```\n");
        // The language the markup declares around the block (Sphinx, GitHub, Shiki), not a
        // highlighter's word for none.
        assert_eq!(md("<div class='highlight-python notranslate'><div class=highlight><pre>x = 1</pre></div></div>"), "```python\nx = 1\n```\n");
        assert_eq!(md("<div class='highlight highlight-source-js'><pre>f()</pre></div>"), "```js\nf()\n```\n");
        assert_eq!(md("<pre class=astro-code data-language=ts><code>let a</code></pre>"), "```ts\nlet a\n```\n");
        assert_eq!(md("<div class='highlight-default notranslate'><pre>x</pre></div>"), "```\nx\n```\n");
        assert_eq!(md("<pre class='brush: js notranslate'>f()</pre><pre class='brush: plain'>t</pre>"), "```js\nf()\n```\n\n```\nt\n```\n");
        // The page's label of an example, the block's language, is said by the fence.
        assert_eq!(md("<p>Call it:</p><div class=header><span>JS</span></div><pre class=brush:js>f()</pre>"), "Call it:\n\n```js\nf()\n```\n");
        assert_eq!(md("<p>js</p><pre>f()</pre><ul><li><p>js</p><pre class=lang-js>g()</pre></li></ul>"), "js\n\n```\nf()\n```\n\n- js\n\n  ```js\n  g()\n  ```\n");
        assert_eq!(md("<pre>  \n</pre><p>after</p>"), "after\n");
        // Spans in a row become one (their fences would run together).
        assert_eq!(md("<p><code>a</code><code>`b</code><code>c</code> <code>d</code></p>"), "`` a`bc `` `d`\n");
    }

    #[test]
    fn line_starts_and_specials_escaped() {
        let got = md("<p>- a</p><p>+ b</p><p>=</p><p>2) c</p><p>1.5 d</p>");
        assert_eq!(got, "\\- a\n\n\\+ b\n\n\\=\n\n2\\) c\n\n1.5 d\n");
        assert_eq!(md("<p>x<br>--- &lt;b&gt; &amp;amp; AT&amp;T ~ `</p>"), "x\\\n\\--- \\<b\\> \\&amp; AT&T \\~ \\`\n");
        assert_eq!(md("<h2>Issue #</h2><h3>C#</h3>"), "## Issue \\#\n\n### C\\#\n");
        // Bare URLs as autolinks: GFM would link them with their backslashes.
        assert_eq!(
            md("<p>See https://x.org/a_b_(c). (http://y.org/*z*) www.z.org/~a_b, <a href=u>https://x.org/a_b</a></p>"),
            "See <https://x.org/a_b_(c)>. (<http://y.org/*z>\\*) www.z.org/~a_b, [https://x.org/a\\_b](u)\n"
        );
    }

    #[test]
    fn nested_quotes_lists_and_breaks() {
        assert_eq!(
            md("<blockquote>a<blockquote><p>b</p><ul><li>c</li></ul></blockquote></blockquote>"),
            "> a\n>\n> > b\n> >\n> > - c\n"
        );
        let got = md("<ol start=3><li><p>a</p><p>b</p></li><li>c<hr></li><li><hr></li></ol>");
        assert_eq!(got, "3. a\n\n   b\n4. c\n\n   ---\n5. ___\n");
        assert_eq!(md("<ul><li></li><li>x<ol start=2><li>y</li></ol>z</li></ul>"), "- x\n\n  2. y\n\n  z\n");
        assert_eq!(md("<p>a<br><br>b</p>"), "a\n\nb\n");
        // Adjacent lists take the other delimiter, or they would read as one list.
        assert_eq!(md("<ul><li>a</li></ul><ul><li>b</li></ul><ul><li>c</li></ul>"), "- a\n\n* b\n\n- c\n");
        assert_eq!(md("<ol><li>a</li></ol><ol><li>b</li></ol>"), "1. a\n\n1) b\n");
    }

    #[test]
    fn tables_layout_and_data() {
        assert_eq!(md("<table><tr><td><p>one</p><p>two</p></td></tr></table>"), "one\n\ntwo\n");
        assert_eq!(
            md("<table><caption>Cap</caption><tr><th colspan=2>A<br>B</th></tr>\
                <tr><td>1</td><td><ul><li>x</li><li>y</li></ul></td></tr></table>"),
            // A cell spanning two columns and a list in a cell: GFM cannot hold them.
            "<table><caption>Cap</caption><tbody><tr><th colspan=\"2\">A<br>B</th></tr><tr><td>1</td><td><ul><li>x</li><li>y</li></ul></td></tr></tbody></table>\n"
        );
        let got = md("<table><tr><td>a</td><td><table><tr><td>b</td><td>c</td></tr></table></td></tr></table>");
        assert_eq!(got, "a\n\n| b | c |\n| --- | --- |\n");
    }

    #[test]
    fn skip_mask_cuts_in_all_formats() {
        let doc = page("<div class=a><p>keep me</p><div class=cut><p>drop me</p><img src=x.png></div><p>end</p></div>");
        let mut x = select(&doc, "a");
        let cut = by_class(&doc, "cut");
        x.skip = vec![false; doc.nodes.len()];
        x.skip[cut as usize] = true; // the element alone: its subtree goes with it
        let m = markdown(&doc, &x, None);
        assert_eq!(m, "keep me\n\nend\n");
        let h = html(&doc, &x, None);
        assert_eq!(h, "<div class=\"a\"><p>keep me</p><p>end</p></div>\n");
        let xm = xml(&doc, &x);
        assert!(!xm.contains("drop") && !xm.contains("x.png") && xm.contains("keep me"), "{xm}");
        sxd_document::parser::parse(&xm).expect("well-formed XML");
        // A short mask: the rest is kept.
        x.skip = vec![false; 2];
        assert!(markdown(&doc, &x, None).contains("drop me"));
    }

    #[test]
    fn headline_first() {
        let doc = page("<div class=t><span>The Title</span></div><nav>menu</nav><div class=a><p>Body.</p></div>");
        let mut x = select(&doc, "a");
        x.headline = Some(by_class(&doc, "t"));
        assert_eq!(markdown(&doc, &x, None), "# The Title\n\nBody.\n");
        let want = "<h1><span>The Title</span></h1>\n<div class=\"a\"><p>Body.</p></div>\n";
        assert_eq!(html(&doc, &x, None), want);
        let xm = xml(&doc, &x);
        assert!(xm.starts_with("<article><div class=\"t\" dfs=\"3\">"), "{xm}");
        sxd_document::parser::parse(&xm).expect("well-formed XML");
        // A heading headline keeps its level.
        let doc = page("<h2 class=t>The Title</h2><div class=a><p>Body.</p></div>");
        let mut x = select(&doc, "a");
        x.headline = Some(by_class(&doc, "t"));
        assert_eq!(markdown(&doc, &x, None), "## The Title\n\nBody.\n");
        assert!(html(&doc, &x, None).starts_with("<h2 class=\"t\">The Title</h2>\n"));
    }

    #[test]
    fn text_only_extraction_becomes_paragraphs() {
        let doc = page("<p>ignored</p>");
        let text = "First *one*\n- second line\n\n\n1. Next <b> & co";
        let x = Extraction::new(Vec::new(), text.into(), Rule::SinglePage);
        assert_eq!(markdown(&doc, &x, None), "First \\*one\\*\n\\- second line\n\n1\\. Next \\<b\\> & co\n");
        assert_eq!(html(&doc, &x, None), "<p>First *one*\n- second line</p>\n<p>1. Next &lt;b&gt; &amp; co</p>\n");
        let xm = xml(&doc, &x);
        assert_eq!(xm, "<article><p>First *one*\n- second line</p><p>1. Next &lt;b&gt; &amp; co</p></article>\n");
        sxd_document::parser::parse(&xm).expect("well-formed XML");
        let empty = Extraction::new(Vec::new(), String::new(), Rule::SinglePage);
        assert_eq!((markdown(&doc, &empty, None), html(&doc, &empty, None)), (String::new(), String::new()));
        assert_eq!(xml(&doc, &empty), "<article></article>\n");
    }

    /// A document of `depth` nested `div`s around one text, built directly (the cleaner would
    /// flatten it past [`crate::clean::MAX_DEPTH`]).
    fn deep_doc(depth: u32) -> Doc {
        let mut doc = Doc::default();
        let element = |name: &str, dfs| NodeData::Element(Element { name: name.into(), attrs: Vec::new(), dfs });
        let total = depth + 3;
        doc.nodes.push(Node { parent: None, end: total, level: 1, data: element("html", 0) });
        doc.nodes.push(Node { parent: Some(0), end: total, level: 2, data: element("body", 1) });
        for d in 0..depth {
            let id = d + 2;
            let name = ["div", "blockquote", "em", "ul", "li", "a", "table"][d as usize % 7];
            let mut data = element(name, id);
            if let NodeData::Element(e) = &mut data {
                e.attrs.push((crate::clean::Name::new("href"), "u".into()));
            }
            doc.nodes.push(Node { parent: Some(id - 1), end: total, level: id + 1, data });
        }
        let text = NodeData::Text("deep".into());
        doc.nodes.push(Node { parent: Some(depth + 1), end: total, level: depth + 3, data: text });
        doc.body = 1;
        doc
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let doc = deep_doc(100_000);
        let x = Extraction::new(vec![doc.body], "deep".into(), Rule::WholePage);
        let m = markdown(&doc, &x, None);
        assert!(m.contains("deep") && m.ends_with('\n'), "{}", &m[..m.len().min(300)]);
        let h = html(&doc, &x, None);
        assert_eq!(h.matches("</div>").count(), 100_000 / 7 + 1);
        let xm = xml(&doc, &x);
        let mut reader = quick_xml::Reader::from_str(&xm);
        let mut depth = 0usize;
        loop {
            match reader.read_event().expect("well-formed XML") {
                quick_xml::events::Event::Start(_) => depth += 1,
                quick_xml::events::Event::Eof => break,
                _ => {}
            }
        }
        assert_eq!(depth, 100_000 + 2); // article, body, the divs
        // And through the cleaner, which flattens past its depth limit (tags beyond it go).
        let html_in = format!("{}<p>deep <b>text</b></p>{}", "<div>".repeat(100_000), "</div>".repeat(100_000));
        let doc = page(&html_in);
        let x = Extraction::new(vec![doc.body], "deep text".into(), Rule::WholePage);
        assert_eq!(markdown(&doc, &x, None), "deep text\n");
        let h = html(&doc, &x, None);
        assert!(h.contains("deep text") && h.matches("</div>").count() == h.matches("<div>").count());
        assert!(xml(&doc, &x).contains("deep text"));
    }

    #[test]
    fn html_reparses_with_resolved_links() {
        let doc = page(
            "<div class=a><p>A <a href='../x?a=1&amp;b=\"2\"' onclick='evil()'>link</a> \
             <a href='javascript:go()'>js</a> \
             <img src='i.png' srcset='i.png 1x, /j.png 2x' alt='a &lt; b'><span></span></p>\
             <table><tr><td></td><td>x</td></tr></table><pre>\n\nkept &lt;</pre><p><br></p></div>",
        );
        let x = select(&doc, "a");
        let out = html(&doc, &x, Some(&base()));
        assert!(!out.contains("onclick") && !out.contains("javascript") && !out.contains("<span"), "{out}");
        assert!(out.contains("<td></td><td>x</td>") && out.contains("<p><br></p>"), "{out}");
        let again = page(&out);
        let find = |name: &str| {
            (0..again.nodes.len() as NodeId).find_map(|i| again.element(i).filter(|e| e.name == name)).expect("element")
        };
        assert_eq!(find("a").attr("href"), Some("https://example.com/x?a=1&b=%222%22"));
        assert_eq!(find("img").attr("src"), Some("https://example.com/blog/i.png"));
        assert_eq!(find("img").attr("srcset"), Some("https://example.com/blog/i.png 1x, https://example.com/j.png 2x"));
        assert_eq!(find("img").attr("alt"), Some("a < b"));
        let is_pre = |i: NodeId| again.element(i).is_some_and(|e| e.name == "pre");
        let pre = (0..again.nodes.len() as NodeId).find(|&i| is_pre(i)).expect("pre");
        assert_eq!(again.text(pre), "\nkept <");
        // Without a base, URLs stay as written.
        assert!(html(&doc, &x, None).contains("href=\"../x?a=1&amp;b=&quot;2&quot;\""));
    }

    #[test]
    fn xml_is_well_formed_with_dfs() {
        let doc = page(PAGE);
        let x = select(&doc, "article");
        let xm = xml(&doc, &x);
        assert!(xm.starts_with("<article><div class=\"article\" dfs="), "{}", &xm[..80]);
        sxd_document::parser::parse(&xm).expect("well-formed XML");
    }
}
