//! Markdown: the writer behind [`super::markdown`] (CommonMark with GFM tables), one pass
//! over the arena with a stack of open containers and lazily written inline spans.

mod escape;
mod inline;
mod notes;
mod tables;

use escape::*;
use tables::{fits_gfm, layout_table};

use super::*;

/// Elements whose content is a block of its own (paragraph separation before and after).
const BLOCKS: &[&str] = &[
    "p", "div", "section", "article", "header", "footer", "aside", "nav", "main", "figure", "figcaption", "address",
    "details", "summary", "form", "fieldset", "legend", "center", "dl", "dt", "dd", "hgroup", "caption", "table",
    "thead", "tbody", "tfoot", "tr", "td", "th", "body", "html", "search", "dialog", "noscript", "video", "audio",
];

/// List and quote elements (spaces inside a heading or table cell).
const LISTS_QUOTES: &[&str] = &["ul", "ol", "menu", "li", "blockquote"];

/// An open inline span, written lazily: its opener goes out with its first content.
#[derive(Debug, Clone, PartialEq)]
enum Mark {
    Em,
    Strong,
    Strike,
    /// A link, to this (resolved) URL.
    Link(String),
    /// A span that writes nothing (a link without a usable URL, a span inside its own kind).
    Plain,
}

impl Mark {
    fn opener(&self) -> &'static str {
        match self {
            Mark::Em => "*",
            Mark::Strong => "**",
            Mark::Strike => "~~",
            Mark::Link(_) => "[",
            Mark::Plain => "",
        }
    }

    fn push_closer(&self, out: &mut String, table: bool) {
        match self {
            Mark::Link(url) => {
                out.push_str("](");
                push_destination(out, url, table);
                out.push(')');
            }
            m => out.push_str(m.opener()),
        }
    }

    fn same_kind(&self, other: &Mark) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// A block container: what starts each of its lines.
#[derive(Debug)]
enum BoxKind {
    /// `> `.
    Quote,
    /// A list item: its marker on the first line (`None` once written), then `width` spaces.
    Item { width: usize, marker: Option<String> },
}

#[derive(Debug)]
struct Container {
    kind: BoxKind,
    /// Length of the output when the container opened: unchanged = nothing written in it yet.
    start: usize,
}

/// What to do when an element closes.
#[derive(Debug)]
enum Close {
    /// Nothing (inline elements).
    Inline,
    /// A space (blocks inside a heading or table cell).
    Space,
    /// End the paragraph.
    Block,
    /// Write the heading of this level.
    Heading(usize),
    List,
    Item,
    Quote,
    /// Close the innermost inline span.
    Mark,
    /// Write the captured text as a code block with this info string.
    Pre(String),
    /// Write the captured text as a code span.
    Code,
    Table,
    Cell(usize),
    Caption,
}

/// A code span in the current block.
#[derive(Debug)]
struct CodeSpan {
    /// Where its Markdown starts and ends in the block.
    start: usize,
    end: usize,
    /// Its fence length, and whether its code is padded with a space.
    fence: usize,
    padded: bool,
    code: String,
}

/// An open list.
#[derive(Debug)]
struct List {
    /// The next number (ordered) or `None` (bullets).
    next: Option<u64>,
    /// Uses the other delimiter (`*`, `1)`).
    other: bool,
    /// Output length when the list opened.
    opened: usize,
    /// Output length when its last written item closed: an item starting there follows it
    /// on the next line (anything else in between and the next item is after a blank line).
    item_end: Option<usize>,
}

/// A data table being read: its rows of cell Markdown.
#[derive(Debug, Default)]
struct Table {
    rows: Vec<Vec<String>>,
    caption: String,
}

/// The Markdown writer: a block layer (containers, blank lines) over an inline layer (the
/// current block's text, with its open spans).
pub(super) struct Markdown<'a> {
    doc: &'a Doc,
    base: Option<&'a Url>,
    skip: &'a [bool],
    out: String,
    /// Open block containers, outermost first.
    boxes: Vec<Container>,
    /// How many of `boxes` stayed open since the last line written: the prefix of a blank line.
    kept: usize,
    /// A blank line is due before the next line.
    blank: bool,
    /// The current block's inline Markdown.
    buf: String,
    /// A space is due before the next content.
    space: bool,
    /// A hard line break is due before the next content.
    brk: bool,
    /// The last emphasis closed: (kind, where its opener is, buffer length before and after
    /// its closer), to merge `*a**b*` into `*ab*` and to check the closer against what follows.
    last_close: Option<(Mark, usize, usize, usize)>,
    /// The last code span written.
    last_code: Option<CodeSpan>,
    /// Open inline spans and where their opener is written (`None`: not yet).
    marks: Vec<(Mark, Option<usize>)>,
    /// Open lists, innermost last.
    lists: Vec<List>,
    /// The last list closed: (container depth, output length, other delimiter). A list right
    /// after another at the same depth takes the other delimiter, or CommonMark joins them.
    last_list: Option<(usize, usize, bool)>,
    /// Inside a heading or table: blocks become spaces.
    flat: usize,
    table: Option<Table>,
    /// Raw text of the open `pre` or code span.
    capture: Option<String>,
    /// The footnotes referred to.
    notes: notes::Notes<'a>,
}

impl<'a> Markdown<'a> {
    pub(super) fn new(doc: &'a Doc, base: Option<&'a Url>, skip: &'a [bool]) -> Markdown<'a> {
        Markdown {
            doc,
            base,
            skip,
            out: String::new(),
            boxes: Vec::new(),
            kept: 0,
            blank: false,
            buf: String::new(),
            space: false,
            brk: false,
            last_close: None,
            last_code: None,
            marks: Vec::new(),
            lists: Vec::new(),
            last_list: None,
            flat: 0,
            table: None,
            capture: None,
            notes: notes::Notes::default(),
        }
    }

    /// Render the subtree at `root` as blocks of their own (as a level-1 heading when it is
    /// the headline and no heading; `content_only`: without `root`'s own element).
    pub(super) fn subtree(&mut self, root: NodeId, headline: bool, content_only: bool) {
        let doc = self.doc;
        let Some(node) = doc.nodes.get(root as usize) else { return };
        if is_skipped(self.skip, root) {
            return;
        }
        self.block_break();
        let wrap = headline && doc.element(root).is_none_or(|e| heading_level(&e.name).is_none());
        let wrap = wrap.then(|| self.heading(1));
        // Elements still open: (end of subtree, what to do at the end).
        let mut open: Vec<(NodeId, Close)> = Vec::new();
        let mut i = if content_only { root + 1 } else { root };
        while i < node.end {
            while open.last().is_some_and(|&(end, _)| end <= i) {
                if let Some((_, c)) = open.pop() {
                    self.close(c);
                }
            }
            let Some(n) = doc.nodes.get(i as usize) else { break };
            if is_skipped(self.skip, i) {
                i = n.end.max(i + 1);
                continue;
            }
            match &n.data {
                NodeData::Text(t) => self.text(t),
                NodeData::Element(e) => match self.open(i, e) {
                    Some(c) => open.push((n.end, c)),
                    None => {
                        i = n.end.max(i + 1);
                        continue;
                    }
                },
            }
            i += 1;
        }
        while let Some((_, c)) = open.pop() {
            self.close(c);
        }
        if let Some(c) = wrap {
            self.close(c);
        }
        self.block_break();
    }

    /// Start element `e` (node `id`); `None` when its subtree is done (or left out).
    fn open(&mut self, id: NodeId, e: &Element) -> Option<Close> {
        let name = e.name.as_str();
        if let Some(c) = self.capture.as_mut() {
            if name == "br" {
                c.push('\n');
                return None;
            }
            return Some(Close::Inline);
        }
        if let Some(level) = heading_level(name) {
            return Some(self.heading(level));
        }
        let in_table = self.table.is_some();
        Some(match name {
            "head" | "title" => return None,
            "br" => {
                self.line_break();
                return None;
            }
            "img" => {
                self.image(id, e);
                return None;
            }
            "hr" => {
                self.rule();
                return None;
            }
            "dl" if !in_table && self.flat == 0 => {
                self.html_block(id);
                return None;
            }
            "pre" if self.flat == 0 => {
                self.block_break();
                self.capture = Some(String::new());
                Close::Pre(code_language(self.doc, id))
            }
            "pre" | "code" | "kbd" | "samp" | "tt" => {
                self.capture = Some(String::new());
                Close::Code
            }
            "em" | "i" => self.mark(Mark::Em),
            "strong" | "b" => self.mark(Mark::Strong),
            "del" | "s" | "strike" => self.mark(Mark::Strike),
            "a" => {
                if let Some(label) = self.footnote(id, e) {
                    self.before_content();
                    self.buf.push_str(&format!("[^{label}]"));
                    return None;
                }
                let url = e.attr("href").and_then(|h| resolve(self.base, h, false));
                self.mark(url.map_or(Mark::Plain, Mark::Link))
            }
            "tr" if in_table => {
                if let Some(t) = self.table.as_mut() {
                    t.rows.push(Vec::new());
                }
                Close::Inline
            }
            "td" | "th" if in_table => {
                self.take_inline();
                let span = e.attr("colspan").and_then(|s| s.trim().parse::<usize>().ok());
                Close::Cell(span.unwrap_or(1).clamp(1, 100))
            }
            "caption" if in_table => {
                self.take_inline();
                Close::Caption
            }
            _ if self.flat > 0 && (BLOCKS.contains(&name) || LISTS_QUOTES.contains(&name)) => {
                self.space = true;
                Close::Space
            }
            "table" if !layout_table(self.doc, id) && !fits_gfm(self.doc, id, self.skip) => {
                self.html_block(id);
                return None;
            }
            "table" if !layout_table(self.doc, id) => {
                self.block_break();
                self.table = Some(Table::default());
                self.flat += 1;
                Close::Table
            }
            "ul" | "ol" | "menu" => {
                let ordered = name == "ol";
                let start = e.attr("start").filter(|_| ordered).and_then(|s| s.trim().parse::<u64>().ok());
                let start = start.unwrap_or(1).min(999_999_999);
                // A list right inside an item follows its text on the next line; elsewhere,
                // and when its first number may not interrupt a paragraph, after a blank one.
                let nested = self.boxes.last().is_some_and(|b| matches!(b.kind, BoxKind::Item { .. }));
                self.flush();
                if !nested || start != 1 {
                    self.want_blank();
                }
                let other = self.last_list.is_some_and(|(depth, len, other)| {
                    depth == self.boxes.len() && len == self.out.len() && !other
                });
                self.lists.push(List { next: ordered.then_some(start), other, opened: self.out.len(), item_end: None });
                Close::List
            }
            "li" => {
                self.flush();
                let len = self.out.len();
                if self.lists.last().is_some_and(|l| l.item_end == Some(len)) {
                    self.blank = false; // items follow each other line by line
                } else if self.lists.last().is_none_or(|l| l.opened != len) {
                    self.want_blank();
                }
                let marker = match self.lists.last() {
                    Some(List { next: Some(n), other, .. }) => format!("{n}{} ", if *other { ')' } else { '.' }),
                    Some(List { next: None, other: true, .. }) => "* ".to_string(),
                    _ => "- ".to_string(),
                };
                let kind = BoxKind::Item { width: marker.len(), marker: Some(marker) };
                self.boxes.push(Container { kind, start: self.out.len() });
                Close::Item
            }
            "blockquote" => {
                self.block_break();
                self.boxes.push(Container { kind: BoxKind::Quote, start: self.out.len() });
                Close::Quote
            }
            _ if BLOCKS.contains(&name) => {
                self.block_break();
                Close::Block
            }
            _ => Close::Inline,
        })
    }

    fn close(&mut self, c: Close) {
        match c {
            Close::Inline => {}
            Close::Space => self.space = true,
            Close::Block => self.block_break(),
            Close::Heading(level) => {
                self.flat = self.flat.saturating_sub(1);
                let mut text = self.take_inline().trim().to_string();
                if !text.is_empty() {
                    // A closing `#` run would be read as the end of the heading.
                    if text.ends_with('#') {
                        text.insert(text.len() - 1, '\\');
                    }
                    self.write_line(&format!("{} {text}", "#".repeat(level)));
                }
                self.want_blank();
            }
            Close::List => {
                self.flush();
                let other = self.lists.pop().is_some_and(|l| l.other);
                self.last_list = Some((self.boxes.len(), self.out.len(), other));
                self.want_blank();
            }
            Close::Item => {
                self.flush();
                let wrote = self.boxes.pop().is_some_and(|b| matches!(b.kind, BoxKind::Item { marker: None, .. }));
                self.kept = self.kept.min(self.boxes.len());
                self.want_blank();
                let end = self.out.len();
                if let Some(list) = self.lists.last_mut().filter(|_| wrote) {
                    list.item_end = Some(end);
                    if let Some(n) = list.next.as_mut() {
                        *n += 1;
                    }
                }
            }
            Close::Quote => {
                self.flush();
                self.boxes.pop();
                self.kept = self.kept.min(self.boxes.len());
                self.want_blank();
            }
            Close::Mark => {
                let table = self.table.is_some();
                if let Some((m, Some(at))) = self.marks.pop() {
                    let before = self.buf.len();
                    if self.close_span(&m, at, table) && !matches!(m, Mark::Link(_) | Mark::Plain) {
                        self.last_close = Some((m, at, before, self.buf.len()));
                    }
                }
            }
            Close::Pre(lang) => {
                let raw = self.capture.take().unwrap_or_default();
                self.code_block(&raw, &lang);
            }
            Close::Code => {
                let raw = self.capture.take().unwrap_or_default();
                self.code_span(&raw);
            }
            Close::Cell(span) => {
                let cell = self.take_inline().replace('\n', " ").trim().to_string();
                if let Some(t) = self.table.as_mut() {
                    if t.rows.is_empty() {
                        t.rows.push(Vec::new());
                    }
                    if let Some(row) = t.rows.last_mut() {
                        row.push(cell);
                        row.extend(std::iter::repeat_n(String::new(), span - 1));
                    }
                }
            }
            Close::Caption => {
                let caption = self.take_inline();
                if let Some(t) = self.table.as_mut() {
                    t.caption = caption;
                }
            }
            Close::Table => {
                self.take_inline();
                self.flat = self.flat.saturating_sub(1);
                if let Some(t) = self.table.take() {
                    self.write_table(t);
                }
            }
        }
    }

    fn heading(&mut self, level: usize) -> Close {
        if self.flat > 0 {
            self.space = true;
            return Close::Space;
        }
        self.block_break();
        self.flat += 1;
        Close::Heading(level)
    }

    /// Is the innermost container still empty (then separations asked for are dropped)?
    fn fresh(&self) -> bool {
        self.boxes.last().is_some_and(|b| b.start == self.out.len())
    }

    fn want_blank(&mut self) {
        if !self.fresh() {
            self.blank = true;
        }
    }

    /// End the current block; the next one starts after a blank line.
    pub(super) fn block_break(&mut self) {
        if self.flat > 0 {
            self.space = true;
            return;
        }
        self.flush();
        self.want_blank();
    }

    /// A new line inside the block (for text given as lines).
    pub(super) fn soft_break(&mut self) {
        if !self.buf.is_empty() && !self.buf.ends_with('\n') {
            self.buf.push('\n');
        }
        self.space = false;
    }

    /// `br`: a hard break before the next content; a second one in a row ends the paragraph.
    fn line_break(&mut self) {
        if self.flat > 0 {
            self.space = true;
        } else if self.brk {
            self.block_break();
        } else if !self.buf.is_empty() {
            self.brk = true;
        }
    }

    fn rule(&mut self) {
        if self.flat > 0 {
            self.space = true;
            return;
        }
        self.block_break();
        // `- ---` would be one rule, not an item holding one.
        let marker_due = self.boxes.iter().any(|b| matches!(b.kind, BoxKind::Item { marker: Some(_), .. }));
        self.write_line(if marker_due { "___" } else { "---" });
        self.want_blank();
    }

    /// Write what is due before content: a hard break, the openers of spans, a space.
    fn before_content(&mut self) {
        self.settle_openers();
        if self.brk {
            self.buf.push_str("\\\n");
            self.brk = false;
            self.space = false;
        }
        for k in 0..self.marks.len() {
            let (m, opened) = &self.marks[k];
            if opened.is_some() {
                continue;
            }
            let m = m.clone();
            if let Some((last, at, before, after)) = &self.last_close {
                if !self.space && *after == self.buf.len() {
                    // `*a*` directly followed by `*b*` becomes `*ab*`.
                    if last.same_kind(&m) {
                        self.buf.truncate(*before);
                        self.marks[k].1 = Some(*at);
                        self.last_close = None;
                        continue;
                    }
                }
            }
            self.push_space();
            // `![` would start an image.
            if matches!(m, Mark::Link(_)) && self.buf.ends_with('!') {
                self.buf.insert(self.buf.len() - 1, '\\');
            }
            self.marks[k].1 = Some(self.buf.len());
            self.buf.push_str(m.opener());
        }
        self.push_space();
        self.last_close = None;
    }

    pub(super) fn text(&mut self, t: &str) {
        if let Some(c) = self.capture.as_mut() {
            c.push_str(t);
            return;
        }
        // TeX between dollars (a formula the cleaner kept) is written as it is.
        let mut at = 0;
        for (start, end) in math_spans(t) {
            self.words(&t[at..start]);
            if t[..start].ends_with(char::is_whitespace) || start == 0 {
                self.space = true;
            }
            self.before_content();
            let tex = &t[start..end];
            self.buf.push_str(&if self.table.is_some() { tex.replace('|', "\\|") } else { tex.to_string() });
            self.space = t[end..].starts_with(char::is_whitespace);
            at = end;
        }
        self.words(&t[at..]);
    }

    /// Text outside formulas: words, escaped, bare URLs as autolinks.
    fn words(&mut self, t: &str) {
        let table = self.table.is_some();
        for (k, word) in t.split(char::is_whitespace).enumerate() {
            if k > 0 {
                self.space = true;
            }
            if word.is_empty() {
                continue;
            }
            // GFM links bare URLs as written, backslashes included: write them as autolinks
            // (not inside a link, which may hold none).
            let in_link = self.marks.iter().any(|(m, _)| matches!(m, Mark::Link(_)));
            match find_url(word).filter(|_| !in_link) {
                Some((start, end, www)) => {
                    self.word(&word[..start], table);
                    self.before_content();
                    if www {
                        escape_text(&mut self.buf, &word[start..end], table, true);
                    } else {
                        self.buf.push('<');
                        let url = &word[start..end];
                        self.buf.push_str(&if table { url.replace('|', "\\|") } else { url.to_string() });
                        self.buf.push('>');
                    }
                    self.word(&word[end..], table);
                }
                None => self.word(word, table),
            }
        }
    }

    fn code_block(&mut self, raw: &str, lang: &str) {
        let body = raw.strip_suffix('\n').unwrap_or(raw);
        if body.trim().is_empty() {
            return;
        }
        self.drop_label(lang);
        let fence = "`".repeat(longest_run(body, '`').max(2) + 1);
        self.write_line(&format!("{fence}{lang}"));
        for line in body.split('\n') {
            self.write_line(line);
        }
        self.write_line(&fence);
        self.want_blank();
    }

    /// Take back the paragraph just written when it is only the code block's language (`js`
    /// above a `js` block: the page's label of its example, which the fence now says). Only at
    /// the top level, where a paragraph is its line alone.
    fn drop_label(&mut self, lang: &str) {
        if lang.is_empty() || !self.boxes.is_empty() {
            return;
        }
        let start = self.out.rfind('\n').map_or(0, |i| i + 1);
        let own_paragraph = start == 0 || self.out[..start].ends_with("\n\n");
        if own_paragraph && self.out[start..].trim().eq_ignore_ascii_case(lang) {
            self.out.truncate(start.saturating_sub(2));
            self.blank = !self.out.is_empty();
        }
    }

    /// An element Markdown cannot hold (a table GFM cannot, a definition list), as the HTML
    /// block GFM allows: its bare HTML (no styling attributes or wrappers), each line written
    /// inside the open containers, with no blank line (which would end the block).
    fn html_block(&mut self, id: NodeId) {
        self.block_break();
        self.flush();
        let mut html = String::new();
        super::html_subtree(self.doc, id, self.skip, self.base, true, &mut html);
        for line in html.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()) {
            self.write_line(line);
        }
        self.want_blank();
    }

    fn write_table(&mut self, t: Table) {
        if !t.caption.is_empty() {
            self.buf = t.caption;
            self.flush();
            self.want_blank();
        }
        let cols = t.rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut header = true;
        for row in t.rows.iter().filter(|r| !r.is_empty()) {
            let mut line = String::from("|");
            for k in 0..cols {
                line.push(' ');
                line.push_str(row.get(k).map_or("", String::as_str));
                line.push_str(" |");
            }
            self.write_line(&line);
            if header {
                self.write_line(&format!("|{}", " --- |".repeat(cols)));
                header = false;
            }
        }
        self.want_blank();
    }

    /// Write the current block as a paragraph.
    fn flush(&mut self) {
        let text = self.take_inline();
        for line in text.split('\n').filter(|_| !text.is_empty()) {
            self.write_line(&escape_line_start(line));
        }
    }

    /// Write one line: the separation due, the containers' prefixes, `content`.
    fn write_line(&mut self, content: &str) {
        if !self.out.is_empty() {
            self.out.push('\n');
            if self.blank {
                for b in &self.boxes[..self.kept.min(self.boxes.len())] {
                    match b.kind {
                        BoxKind::Quote => self.out.push_str("> "),
                        BoxKind::Item { width, .. } => self.out.extend(std::iter::repeat_n(' ', width)),
                    }
                }
                trim_spaces_end(&mut self.out);
                self.out.push('\n');
            }
        }
        self.blank = false;
        for b in &mut self.boxes {
            match &mut b.kind {
                BoxKind::Quote => self.out.push_str("> "),
                BoxKind::Item { width, marker } => match marker.take() {
                    Some(m) => self.out.push_str(&m),
                    None => self.out.extend(std::iter::repeat_n(' ', *width)),
                },
            }
        }
        if content.is_empty() {
            trim_spaces_end(&mut self.out);
        } else {
            self.out.push_str(content);
        }
        self.kept = self.boxes.len();
    }

    pub(super) fn finish(mut self) -> String {
        self.flush();
        let notes = self.footnotes();
        let mut out = self.out;
        if !out.is_empty() {
            out.push('\n');
        }
        if !notes.is_empty() {
            out.push('\n');
            out.push_str(&notes);
        }
        out
    }
}

fn trim_spaces_end(s: &mut String) {
    let keep = s.trim_end_matches(' ').len();
    s.truncate(keep);
}

/// The info string of a `pre`: the language its markup declares, on it or its first `code`
/// (a `language-x` or `lang-x` class, as Prism and highlight.js write it, SyntaxHighlighter's
/// `brush: x`, or a `data-language` or `data-lang` attribute, as Shiki and Hugo do), else on
/// one of the two elements around it (a `language-x` class, as Rouge and MkDocs write it;
/// `highlight-x`, as Sphinx does, and GitHub's `highlight-source-x`; MediaWiki's
/// `mw-highlight-lang-x`).
fn code_language(doc: &Doc, pre: NodeId) -> String {
    let end = doc.end(pre);
    let code = (pre + 1..end).find(|&i| doc.element(i).is_some_and(|e| e.name == "code"));
    let own = |e: &Element| {
        let class = e.attr("class").unwrap_or_default();
        let named = class.split_whitespace().filter_map(|c| c.strip_prefix("language-").or_else(|| c.strip_prefix("lang-")));
        // SyntaxHighlighter's `brush: js` (MDN): the word after `brush:`.
        let brush = class.split_once("brush:").and_then(|(_, rest)| rest.split([' ', ';']).find(|w| !w.is_empty()));
        named.chain(brush).chain(e.attr("data-language")).chain(e.attr("data-lang")).find_map(language)
    };
    let around = |e: &Element| {
        e.attr("class").into_iter().flat_map(str::split_whitespace).find_map(|c| {
            let l = c.strip_prefix("language-").or_else(|| c.strip_prefix("mw-highlight-lang-"));
            language(l.or_else(|| c.strip_prefix("highlight-").map(|h| h.strip_prefix("source-").unwrap_or(h)))?)
        })
    };
    std::iter::once(pre)
        .chain(code)
        .filter_map(|i| doc.element(i))
        .find_map(own)
        .or_else(|| doc.ancestors(pre).take(2).filter_map(|a| doc.element(a)).find_map(around))
        .unwrap_or_default()
}

/// A declared code language as an info string: a short word of letters, digits and `+#-._`
/// (`python`, `c++`, `html+django`); not a highlighter's word for none (`default`, `none`,
/// `plain`, `auto`).
fn language(l: &str) -> Option<String> {
    let ok = !l.is_empty() && l.len() <= 24 && l.chars().all(|c| c.is_ascii_alphanumeric() || "+#-._".contains(c));
    (ok && !matches!(l, "default" | "none" | "notranslate" | "plain" | "auto")).then(|| l.to_string())
}

fn push_fence(out: &mut String, len: usize) {
    out.extend(std::iter::repeat_n('`', len));
}

/// Length of the longest run of `c` in `s`.
fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for ch in s.chars() {
        cur = if ch == c { cur + 1 } else { 0 };
        best = best.max(cur);
    }
    best
}
