//! Boilerpipe's *ArticleExtractor*, the single-page baseline of Kohlschütter, Fankhauser and
//! Nejdl, "Boilerplate Detection using Shallow Text Features" (WSDM 2010), re-implemented from
//! the paper and the public descriptions of its reference implementation (boilerpipe 1.2/1.3).
//!
//! This module owns the whole baseline. [`extract`] first cuts the cleaned page into *text
//! blocks* the way boilerpipe's SAX content handler does: every tag that is not a known inline
//! tag ends the current block; each block records its words, its words inside `<a>`, its tag
//! level, its text density (words per 80-column wrapped line, the last line left out) and
//! labels from the elements around it (`<li>`, `<h1>`–`<h3>`). It then runs the article filter
//! chain in the published order and with the published thresholds: terminating blocks, title
//! match, the C4.8 word-count/link-density rules, ignore after the end of text, trailing
//! headlines, proximity fusion, boilerplate removal, fusion of content at the same tag level,
//! keep the largest block (expanded to big blocks at its tag level), expand to the title, large
//! blocks at the same level, list items at the end. The page is walked in arena order with an
//! explicit stack of open elements, never recursively.

use crate::clean::{Doc, NodeData};
use std::collections::HashSet;

/// Block label: the block matches the page's `<title>`.
const TITLE: u8 = 1;
/// Block label: the block looks like the start of the comments ("add your comment", …).
const END_OF_TEXT: u8 = 1 << 1;
/// Block label: content before [`KeepLargest`], dropped by it.
const MIGHT_BE_CONTENT: u8 = 1 << 2;
/// Block label: the largest block, kept by [`KeepLargest`].
const VERY_LIKELY_CONTENT: u8 = 1 << 3;
/// Block label: the block's text is inside an `<li>`.
const LI: u8 = 1 << 4;
/// Block label: the block's text is inside an `<h1>`, `<h2>` or `<h3>`.
const HEADING: u8 = 1 << 5;

/// Width, in characters, of the virtual lines that text density is measured on.
const LINE_WIDTH: usize = 80;

/// The main article text of a cleaned page by Boilerpipe's ArticleExtractor: the content
/// blocks, in page order, joined by blank lines (empty when no block is content).
///
/// # Example
/// ```
/// let words = "The committee met for six hours on Tuesday and agreed on a plan. ".repeat(6);
/// let html = format!(
///     "<html><head><title>Plan agreed</title></head><body>\
///      <h1>Plan agreed</h1><p>{words}</p><p>{words}</p>\
///      <div><a href=/a>About</a> | <a href=/c>Contact</a></div></body></html>");
/// let text = forest::extract::boilerpipe::extract(&forest::clean::page(&html));
/// assert!(text.starts_with("Plan agreed\n\nThe committee met"));
/// assert!(!text.contains("Contact"));
/// ```
pub fn extract(doc: &Doc) -> String {
    let mut blocks = segment(doc);
    run_article_chain(&mut blocks, &doc.title);
    let kept: Vec<&str> = blocks
        .iter()
        .filter(|b| b.content)
        .map(|b| b.text.as_str())
        .collect();
    kept.join("\n\n")
}

/// One text block: a run of text not interrupted by block-level markup, or a fusion of such
/// runs.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    /// The text, white space collapsed; fused blocks are joined by a blank line.
    text: String,
    /// Tokens holding a letter or digit.
    words: u32,
    /// Of those, the ones inside an `<a>`.
    anchor_words: u32,
    /// Words on the wrapped lines but the last (all words when the text fits one line).
    wrapped_words: u32,
    /// Wrapped lines but the last (1 when the text fits one line).
    wrapped_lines: u32,
    /// Index of the first and last original block fused into this one.
    first: u32,
    last: u32,
    /// Tag depth at the block's first text (the smallest one over fused blocks).
    level: i32,
    /// Label bits ([`TITLE`], [`LI`], …).
    labels: u8,
    /// Classified as content.
    content: bool,
}

impl Block {
    /// Words per wrapped line (the paper's text density).
    fn text_density(&self) -> f64 {
        f64::from(self.wrapped_words) / f64::from(self.wrapped_lines.max(1))
    }

    /// Share of the words that are anchor text.
    fn link_density(&self) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            f64::from(self.anchor_words) / f64::from(self.words)
        }
    }

    fn has(&self, label: u8) -> bool {
        self.labels & label != 0
    }

    /// A one-line text fits no wrapped line: count it as one line of all its words.
    fn normalize_lines(&mut self) {
        if self.wrapped_words == 0 {
            self.wrapped_words = self.words;
            self.wrapped_lines = 1;
        }
    }

    /// Append `next` to this block (boilerpipe's `mergeNext`).
    fn fuse(&mut self, next: Block) {
        self.text.push_str("\n\n");
        self.text.push_str(&next.text);
        self.words += next.words;
        self.anchor_words += next.anchor_words;
        self.wrapped_words += next.wrapped_words;
        self.wrapped_lines += next.wrapped_lines;
        self.first = self.first.min(next.first);
        self.last = self.last.max(next.last);
        self.normalize_lines();
        self.content |= next.content;
        self.labels |= next.labels;
        self.level = self.level.min(next.level);
    }

    /// The empty block that stands before the first and after the last block.
    fn empty() -> Block {
        Block {
            text: String::new(),
            words: 0,
            anchor_words: 0,
            wrapped_words: 0,
            wrapped_lines: 1,
            first: 0,
            last: 0,
            level: 0,
            labels: 0,
            content: false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Segmentation
// ---------------------------------------------------------------------------------------------

/// What a tag does to the block being built (boilerpipe's default tag actions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Content skipped (`option`, `noembed`; scripts, styles and objects are already cut by
    /// `clean`).
    Ignorable,
    /// `<a>`: its words count as anchor text.
    Anchor,
    /// `<body>`: only text inside it makes blocks.
    Body,
    /// Inline, separated by white space (`abbr`, `acronym`).
    InlineSpace,
    /// Inline, glued to its neighbours (`b`, `i`, `span`, `font`, …).
    Inline,
    /// Block level with a label (`li`, `h1`–`h3`).
    Labelled(u8),
    /// Any other tag: block level, ends the current block.
    Block,
}

fn action_of(name: &str) -> Action {
    match name {
        // `noembed` and `noframes` are raw text to an HTML5 parser: their "text" is markup.
        "style" | "script" | "option" | "object" | "embed" | "applet" | "link" | "noscript"
        | "noembed" | "noframes" => Action::Ignorable,
        "a" => Action::Anchor,
        "body" => Action::Body,
        "strike" | "u" | "b" | "i" | "em" | "strong" | "span" | "sup" | "code" | "tt" | "sub"
        | "var" | "font" => Action::Inline,
        "abbr" | "acronym" => Action::InlineSpace,
        "li" => Action::Labelled(LI),
        "h1" | "h2" | "h3" => Action::Labelled(HEADING),
        _ => Action::Block,
    }
}

impl Action {
    /// Does the tag count towards the tag level?
    fn deepens(self) -> bool {
        !matches!(self, Action::Inline | Action::InlineSpace)
    }
}

/// Marks, in the token buffer, where anchor text starts and ends (page text never holds them).
const ANCHOR_START: char = '\u{E00A}';
const ANCHOR_END: char = '\u{E00B}';

/// Boilerpipe's content handler, fed with start-tag, end-tag and text events.
#[derive(Default)]
struct Segmenter {
    /// Text of the block being built.
    text: String,
    /// The same text with the anchor marks, for counting.
    tokens: String,
    /// The buffers end with white space.
    last_space: bool,
    in_body: u32,
    in_anchor: u32,
    in_ignorable: u32,
    /// Currently inside anchor text, while counting (kept across blocks, as in boilerpipe).
    in_anchor_text: bool,
    /// Tag level now.
    level: i32,
    /// Tag level at the first text of the current block (-1: no text yet).
    block_level: i32,
    /// A block-level tag was seen: the block ends before the next text.
    flush: bool,
    /// Labels of each open element.
    labels: Vec<u8>,
    blocks: Vec<Block>,
}

impl Segmenter {
    fn start(&mut self, action: Action) {
        self.labels.push(0);
        if action.deepens() {
            self.level += 1;
        }
        match action {
            Action::Ignorable => {
                self.in_ignorable += 1;
                self.flush = true;
            }
            Action::Anchor => {
                self.in_anchor += 1;
                if self.in_anchor == 1 && self.in_ignorable == 0 {
                    self.push_mark(ANCHOR_START);
                }
            }
            Action::Body => {
                self.flush_block();
                self.in_body += 1;
            }
            Action::InlineSpace => self.add_space(),
            Action::Inline => {}
            Action::Labelled(label) => {
                if let Some(top) = self.labels.last_mut() {
                    *top |= label;
                }
                self.flush = true;
            }
            Action::Block => self.flush = true,
        }
    }

    fn end(&mut self, action: Action) {
        match action {
            Action::Ignorable => {
                self.in_ignorable = self.in_ignorable.saturating_sub(1);
                self.flush = true;
            }
            Action::Anchor => {
                self.in_anchor = self.in_anchor.saturating_sub(1);
                if self.in_anchor == 0 && self.in_ignorable == 0 {
                    self.push_mark(ANCHOR_END);
                }
            }
            Action::Body => {
                self.flush_block();
                self.in_body = self.in_body.saturating_sub(1);
            }
            Action::InlineSpace => self.add_space(),
            Action::Inline => {}
            Action::Labelled(_) | Action::Block => self.flush = true,
        }
        if action.deepens() {
            self.level -= 1;
        }
        // As in boilerpipe, the flag stays set until the next text event.
        if self.flush {
            self.flush_block();
        }
        self.labels.pop();
    }

    fn characters(&mut self, raw: &str) {
        if self.flush {
            self.flush_block();
            self.flush = false;
        }
        if self.in_ignorable > 0 || raw.is_empty() {
            return;
        }
        let starts_space = raw.starts_with(is_java_space);
        let ends_space = raw.ends_with(is_java_space);
        let mut words = raw
            .split(is_java_space)
            .filter(|w| !w.is_empty())
            .peekable();
        if words.peek().is_none() {
            // White space only.
            if !self.last_space {
                self.text.push(' ');
                self.tokens.push(' ');
            }
            self.last_space = true;
            return;
        }
        if starts_space && !self.last_space {
            self.text.push(' ');
            self.tokens.push(' ');
        }
        if self.block_level == -1 {
            self.block_level = self.level;
        }
        for (i, word) in words.enumerate() {
            if i > 0 {
                self.text.push(' ');
                self.tokens.push(' ');
            }
            self.text.push_str(word);
            // The anchor marks are private-use characters: keep them out of page text.
            self.tokens.extend(word.chars().map(|c| {
                if c == ANCHOR_START || c == ANCHOR_END {
                    '\u{FFFD}'
                } else {
                    c
                }
            }));
        }
        if ends_space {
            self.text.push(' ');
            self.tokens.push(' ');
        }
        self.last_space = ends_space;
    }

    fn add_space(&mut self) {
        if !self.last_space {
            self.text.push(' ');
            self.tokens.push(' ');
            self.last_space = true;
        }
    }

    fn push_mark(&mut self, mark: char) {
        self.add_space();
        self.tokens.push(mark);
        self.tokens.push(' ');
        self.last_space = true;
    }

    fn clear(&mut self) {
        self.text.clear();
        self.tokens.clear();
    }

    /// End the current block: measure it and keep it if it has any token.
    fn flush_block(&mut self) {
        if self.in_body == 0 {
            self.clear();
            return;
        }
        match self.tokens.len() {
            0 => return,
            1 if self.last_space => {
                self.clear();
                return;
            }
            _ => {}
        }
        let mut counts = Counts {
            line_len: -1,
            ..Counts::default()
        };
        let mut in_anchor = self.in_anchor_text;
        for_each_token(&self.tokens, |token| {
            if token == "\u{E00A}" {
                in_anchor = true;
            } else if token == "\u{E00B}" {
                in_anchor = false;
            } else {
                counts.add(token, in_anchor);
            }
        });
        self.in_anchor_text = in_anchor;
        if counts.tokens == 0 {
            // Only anchor marks: boilerpipe keeps the buffers for the next block.
            return;
        }
        let (wrapped_words, wrapped_lines) = if counts.lines == 0 {
            (counts.words, 1)
        } else {
            (counts.words - counts.words_on_line, counts.lines)
        };
        let offset = self.blocks.len() as u32;
        let labels = self.labels.iter().fold(0, |acc, l| acc | l);
        let mut block = Block {
            text: self.text.trim().to_string(),
            words: counts.words,
            anchor_words: counts.anchor_words,
            wrapped_words,
            wrapped_lines,
            first: offset,
            last: offset,
            level: self.block_level,
            labels,
            content: false,
        };
        block.normalize_lines();
        self.blocks.push(block);
        self.clear();
        self.block_level = -1;
    }
}

/// Boilerpipe's white space (Java's `Character.isWhitespace`: no-break spaces are not).
fn is_java_space(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{A0}' | '\u{2007}' | '\u{202F}') || c == '\u{2063}'
}

/// Word and line counts of one block's tokens.
#[derive(Default)]
struct Counts {
    tokens: u32,
    words: u32,
    anchor_words: u32,
    /// Completed wrapped lines.
    lines: u32,
    /// Words on the current (last) line.
    words_on_line: u32,
    /// Characters on the current line; starts at -1 so the first word carries no space.
    line_len: i64,
}

impl Counts {
    fn add(&mut self, token: &str, in_anchor: bool) {
        self.tokens += 1;
        if !token.chars().any(char::is_alphanumeric) {
            return;
        }
        self.words += 1;
        self.words_on_line += 1;
        if in_anchor {
            self.anchor_words += 1;
        }
        let len = token.encode_utf16().count() as i64;
        self.line_len += len + 1;
        if self.line_len > LINE_WIDTH as i64 {
            self.lines += 1;
            self.line_len = len;
            self.words_on_line = 1;
        }
    }
}

/// Calls `f` with each token of `s` as boilerpipe's tokenizer makes them: runs of non-space
/// characters, split where word characters meet other characters, except around the
/// punctuation boilerpipe keeps inside tokens (`"'.,!@-:;$?()/`).
fn for_each_token(s: &str, mut f: impl FnMut(&str)) {
    fn wordy(c: char) -> bool {
        c.is_alphanumeric() || c == '_'
    }
    fn glue(c: char) -> bool {
        matches!(
            c,
            '"' | '\'' | '.' | ',' | '!' | '@' | '-' | ':' | ';' | '$' | '?' | '(' | ')' | '/'
        )
    }
    for piece in s.split(' ').filter(|p| !p.is_empty()) {
        let mut start = 0;
        let mut prev: Option<char> = None;
        for (i, c) in piece.char_indices() {
            if let Some(p) = prev {
                if wordy(p) != wordy(c) && !glue(p) && !glue(c) {
                    f(&piece[start..i]);
                    start = i;
                }
            }
            prev = Some(c);
        }
        f(&piece[start..]);
    }
}

/// Cut the page's body into text blocks, in document order.
fn segment(doc: &Doc) -> Vec<Block> {
    let mut seg = Segmenter {
        block_level: -1,
        ..Segmenter::default()
    };
    let body = doc.body as usize;
    let Some(body_node) = doc.nodes.get(body) else {
        return Vec::new();
    };
    // The levels of the elements around the body (`html` counts one).
    seg.level = body_node.level as i32 - 1;
    let end = (body_node.end as usize).min(doc.nodes.len());
    // Open elements: (end of subtree, action).
    let mut open: Vec<(usize, Action)> = Vec::new();
    for i in body..end {
        while let Some(&(close, action)) = open.last() {
            if close > i {
                break;
            }
            open.pop();
            seg.end(action);
        }
        let node = &doc.nodes[i];
        match &node.data {
            NodeData::Element(e) => {
                // Whatever the root of the walk is, it plays the body.
                let action = if i == body {
                    Action::Body
                } else {
                    action_of(&e.name)
                };
                seg.start(action);
                open.push((node.end as usize, action));
            }
            NodeData::Text(t) => seg.characters(t),
        }
    }
    while let Some((_, action)) = open.pop() {
        seg.end(action);
    }
    seg.flush_block();
    seg.blocks
}

// ---------------------------------------------------------------------------------------------
// The ArticleExtractor filter chain
// ---------------------------------------------------------------------------------------------

/// The ArticleExtractor chain, in order.
fn run_article_chain(blocks: &mut Vec<Block>, title: &str) {
    terminating_blocks(blocks);
    TitleMatch::new(title).mark(blocks);
    num_words_rules(blocks);
    ignore_blocks_after_content(blocks, 60);
    trailing_headline_to_boilerplate(blocks);
    proximity_fusion(blocks, false, false);
    remove_boilerplate_keep_title(blocks);
    proximity_fusion(blocks, true, true);
    KeepLargest {
        expand_same_level: true,
        min_words: 150,
    }
    .apply(blocks);
    expand_title_to_content(blocks);
    large_block_same_level_to_content(blocks);
    list_at_end(blocks);
}

/// TerminatingBlocksFinder: label short blocks that announce the end of the article.
fn terminating_blocks(blocks: &mut [Block]) {
    for b in blocks.iter_mut().filter(|b| b.words < 15) {
        let text = b.text.trim();
        if text.encode_utf16().count() >= 8 {
            let lc = text.to_lowercase();
            let ends = lc.starts_with("comments")
                || starts_with_number_then(&lc, &[" comments", " users responded in"])
                || lc.starts_with("© reuters")
                || lc.starts_with("please rate this")
                || lc.starts_with("post a comment")
                || [
                    "what you think...",
                    "add your comment",
                    "add comment",
                    "reader views",
                    "have your say",
                    "reader comments",
                    "rätta artikeln",
                ]
                .iter()
                .any(|k| lc.contains(k))
                || lc == "thanks for your comments - this feedback is now closed";
            if ends {
                b.labels |= END_OF_TEXT;
            }
        } else if b.link_density() == 1.0 && text == "Comment" {
            b.labels |= END_OF_TEXT;
        }
    }
}

/// Does `t` start with ASCII digits directly followed by one of `tails`?
fn starts_with_number_then(t: &str, tails: &[&str]) -> bool {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && tails.iter().any(|tail| t[digits..].starts_with(tail))
}

/// DocumentTitleMatchClassifier: the candidate spellings of the page title in its body.
struct TitleMatch {
    titles: HashSet<String>,
}

impl TitleMatch {
    fn new(title: &str) -> TitleMatch {
        let mut titles = HashSet::new();
        let title = title
            .replace('\u{A0}', " ")
            .replace('\'', "")
            .trim()
            .to_lowercase();
        if title.is_empty() {
            return TitleMatch { titles };
        }
        let seps: [&[char]; 6] = [
            &['|', '»', '-'],
            &['|', '»', ':'],
            &['|', '»', ':', '(', ')'],
            &['|', '»', ':', '(', ')', '-'],
            &['|', '»', ',', ':', '(', ')', '-'],
            &['|', '»', ',', ':', '(', ')', '-', '\u{A0}'],
        ];
        for set in seps {
            let parts = split_at_separators(&title, |c| set.contains(&c), false);
            if let Some(p) = longest_part(&parts) {
                titles.insert(p);
            }
        }
        for sep in ['|', '-'] {
            let parts = split_at_separators(&title, |c| c == sep, true);
            if parts.len() > 1 {
                for p in parts {
                    if !p.contains(".com") && java_word_count(&p) >= 4 {
                        titles.insert(p);
                    }
                }
            }
        }
        titles.insert(without_last_dash_part(&title).to_string());
        titles.insert(without_first_dash_part(&title).to_string());
        titles.insert(title);
        TitleMatch { titles }
    }

    /// Label the first block whose text is one of the title's spellings.
    fn mark(&self, blocks: &mut [Block]) {
        if self.titles.is_empty() {
            return;
        }
        for b in blocks.iter_mut() {
            let text = b
                .text
                .replace('\u{A0}', " ")
                .replace('\'', "")
                .trim()
                .to_lowercase();
            if self.titles.contains(&text) {
                b.labels |= TITLE;
                return;
            }
            let stripped: String = text
                .chars()
                .filter(|c| !matches!(c, '?' | '!' | '.' | '-' | ':'))
                .collect();
            if self.titles.contains(stripped.trim()) {
                b.labels |= TITLE;
                return;
            }
        }
    }
}

/// Split `s` at each separator character with the spaces around it (at least one space on
/// each side when `spaced`), as Java's `String.split` does: trailing empty parts dropped.
fn split_at_separators(s: &str, is_sep: impl Fn(char) -> bool, spaced: bool) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut parts = Vec::new();
    let mut part_start = 0;
    let mut i = 0;
    while i < chars.len() {
        if !is_sep(chars[i]) {
            i += 1;
            continue;
        }
        let mut left = i;
        while left > part_start && chars[left - 1] == ' ' {
            left -= 1;
        }
        let mut right = i + 1;
        while right < chars.len() && chars[right] == ' ' {
            right += 1;
        }
        if spaced && (left == i || right == i + 1) {
            i += 1;
            continue;
        }
        parts.push(chars[part_start..left].iter().collect::<String>());
        part_start = right;
        i = right;
    }
    if part_start == 0 && parts.is_empty() {
        return vec![s.to_string()];
    }
    parts.push(chars[part_start..].iter().collect());
    while parts.last().is_some_and(String::is_empty) {
        parts.pop();
    }
    parts
}

/// Number of parts of `p` split at spaces, as Java counts them (a leading empty part counts).
fn java_word_count(p: &str) -> usize {
    if !p.contains(' ') {
        return 1;
    }
    let nonempty = p.split(' ').filter(|w| !w.is_empty()).count();
    if nonempty == 0 {
        0
    } else {
        nonempty + usize::from(p.starts_with(' '))
    }
}

/// The part of a split title with the most words (or, failing that, the most characters).
fn longest_part(parts: &[String]) -> Option<String> {
    if parts.len() < 2 {
        return None;
    }
    let mut best_words = 0;
    let mut best = "";
    for p in parts.iter().filter(|p| !p.contains(".com")) {
        let words = java_word_count(p);
        if words > best_words || p.chars().count() > best.chars().count() {
            best_words = words;
            best = p;
        }
    }
    let best = best.trim();
    (!best.is_empty()).then(|| best.to_string())
}

/// The title without its last " - …" part (when that part holds no dash).
fn without_last_dash_part(t: &str) -> &str {
    match t.rfind('-') {
        Some(d)
            if d >= 1
                && t[..d].ends_with(' ')
                && t[d + 1..].starts_with(' ')
                && t.len() > d + 2 =>
        {
            &t[..d - 1]
        }
        _ => t,
    }
}

/// The title without its first "… - " part (when that part holds no dash).
fn without_first_dash_part(t: &str) -> &str {
    match t.find('-') {
        Some(d) if d >= 2 && t[..d].ends_with(' ') && t[d + 1..].starts_with(' ') => &t[d + 2..],
        _ => t,
    }
}

/// NumWordsRulesClassifier: the paper's C4.8 rules on words and link density of the block
/// and of its neighbours.
fn num_words_rules(blocks: &mut [Block]) {
    let empty = Block::empty();
    let facts: Vec<(u32, f64)> = blocks.iter().map(|b| (b.words, b.link_density())).collect();
    let at = |i: Option<usize>| -> (u32, f64) {
        i.and_then(|i| facts.get(i).copied())
            .unwrap_or((empty.words, empty.link_density()))
    };
    for (i, b) in blocks.iter_mut().enumerate() {
        let (prev_words, prev_link) = at(i.checked_sub(1));
        let (next_words, _) = at(Some(i + 1));
        let (words, link) = (b.words, b.link_density());
        b.content = if link > 0.333333 {
            false
        } else if prev_link <= 0.555556 {
            words > 16 || next_words > 15 || prev_words > 4
        } else {
            words > 40 || next_words > 17
        };
    }
}

/// IgnoreBlocksAfterContentFilter: after an end-of-text block that follows at least
/// `min_words` full-text words of content, nothing is content.
fn ignore_blocks_after_content(blocks: &mut [Block], min_words: u32) {
    let mut words = 0;
    let mut ended = false;
    for b in blocks.iter_mut() {
        if b.content && b.text_density() >= 9.0 {
            words += b.words;
        }
        if b.has(END_OF_TEXT) && words >= min_words {
            ended = true;
        }
        if ended {
            b.content = false;
        }
    }
}

/// TrailingHeadlineToBoilerplateFilter: headings after the last other content are not content.
fn trailing_headline_to_boilerplate(blocks: &mut [Block]) {
    for b in blocks.iter_mut().rev().filter(|b| b.content) {
        if b.has(HEADING) {
            b.content = false;
        } else {
            break;
        }
    }
}

/// BlockProximityFusion with a distance of one block: a content block is fused into the block
/// before it when they were adjacent in the page (and, as asked, when that block is content
/// too and when both have the same tag level). Without `content_only` the block before may be
/// boilerplate, which the fusion then makes content: as published, the block just before the
/// article (a menu item, a byline) comes along with it.
fn proximity_fusion(blocks: &mut Vec<Block>, content_only: bool, same_level: bool) {
    if blocks.len() < 2 {
        return;
    }
    let start = if content_only {
        match blocks.iter().position(|b| b.content) {
            Some(i) => i,
            None => return,
        }
    } else {
        0
    };
    let mut out: Vec<Block> = blocks.drain(..start).collect();
    let mut rest = blocks.drain(..);
    let Some(mut prev) = rest.next() else { return };
    for b in rest {
        let adjacent = i64::from(b.first) - i64::from(prev.last) - 1 <= 1;
        let fuse = b.content
            && adjacent
            && (!content_only || prev.content)
            && (!same_level || prev.level == b.level);
        if fuse {
            prev.fuse(b);
        } else {
            out.push(std::mem::replace(&mut prev, b));
        }
    }
    out.push(prev);
    *blocks = out;
}

/// BoilerplateBlockFilter: drop non-content blocks, but the title.
fn remove_boilerplate_keep_title(blocks: &mut Vec<Block>) {
    blocks.retain(|b| b.content || b.has(TITLE));
}

/// KeepLargestBlockFilter: only the content block with most words stays content; with
/// `expand_same_level`, big blocks at its tag level (not across a shallower block) join it.
struct KeepLargest {
    expand_same_level: bool,
    min_words: u32,
}

impl KeepLargest {
    fn apply(&self, blocks: &mut [Block]) {
        if blocks.len() < 2 {
            return;
        }
        let mut largest: Option<usize> = None;
        for (i, b) in blocks.iter().enumerate().filter(|(_, b)| b.content) {
            if largest.is_none_or(|l| b.words > blocks[l].words) {
                largest = Some(i);
            }
        }
        for (i, b) in blocks.iter_mut().enumerate() {
            if Some(i) == largest {
                b.content = true;
                b.labels |= VERY_LIKELY_CONTENT;
            } else {
                b.content = false;
                b.labels |= MIGHT_BE_CONTENT;
            }
        }
        let Some(n) = largest.filter(|_| self.expand_same_level) else {
            return;
        };
        let level = blocks[n].level;
        let widen = |b: &mut Block| {
            if b.level < level {
                return false;
            }
            if b.level == level && b.words >= self.min_words {
                b.content = true;
            }
            true
        };
        for b in blocks[..n].iter_mut().rev() {
            if !widen(b) {
                break;
            }
        }
        for b in blocks[n..].iter_mut() {
            if !widen(b) {
                break;
            }
        }
    }
}

/// ExpandTitleToContentFilter: blocks between the title and the first content block that
/// were content before [`KeepLargest`] are content again.
fn expand_title_to_content(blocks: &mut [Block]) {
    let mut title = None;
    let mut content_start = None;
    for (i, b) in blocks.iter().enumerate() {
        if content_start.is_none() && b.has(TITLE) {
            title = Some(i);
        }
        if content_start.is_none() && b.content {
            content_start = Some(i);
        }
    }
    let (Some(title), Some(start)) = (title, content_start) else {
        return;
    };
    if start <= title {
        return;
    }
    for b in blocks[title..start]
        .iter_mut()
        .filter(|b| b.has(MIGHT_BE_CONTENT))
    {
        b.content = true;
    }
}

/// LargeBlockSameTagLevelToContentFilter: blocks of at least 100 words at the tag level of the
/// largest block are content.
fn large_block_same_level_to_content(blocks: &mut [Block]) {
    let Some(level) = blocks
        .iter()
        .find(|b| b.content && b.has(VERY_LIKELY_CONTENT))
        .map(|b| b.level)
    else {
        return;
    };
    for b in blocks.iter_mut().filter(|b| !b.content) {
        if b.words >= 100 && b.level == level {
            b.content = true;
        }
    }
}

/// ListAtEndFilter: link-free list items nested below the main content, right after it, are
/// content.
fn list_at_end(blocks: &mut [Block]) {
    let mut level = i32::MAX;
    for b in blocks.iter_mut() {
        if b.content && b.has(VERY_LIKELY_CONTENT) {
            level = b.level;
        } else if b.level > level && b.has(MIGHT_BE_CONTENT) && b.has(LI) && b.link_density() == 0.0
        {
            b.content = true;
        } else {
            level = i32::MAX;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::page;

    const SENTENCE: &str =
        "The council voted on Tuesday to rebuild the old bridge over the river, \
        a project that residents have demanded for more than a decade. ";

    fn para(n: usize) -> String {
        format!("<p>{}</p>", SENTENCE.repeat(n))
    }

    #[test]
    fn tokens_follow_boilerpipe_word_boundaries() {
        let mut toks = Vec::new();
        for_each_token("don't U.S. a&b foo—bar 3.5% \u{E00A} x", |t| {
            toks.push(t.to_string())
        });
        assert_eq!(
            toks,
            ["don't", "U.S.", "a", "&", "b", "foo", "—", "bar", "3.5", "%", "\u{E00A}", "x"]
        );
    }

    #[test]
    fn blocks_count_words_links_and_levels() {
        let doc =
            page("<body><div><p>One two <a href=x>three four</a> five.</p><p>Six</p></div></body>");
        let blocks = segment(&doc);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].text, "One two three four five.");
        assert_eq!((blocks[0].words, blocks[0].anchor_words), (5, 2));
        // html = 1, body = 2, div = 3, p = 4.
        assert_eq!(blocks[0].level, 4);
        assert_eq!(blocks[1].text, "Six");
    }

    #[test]
    fn text_density_leaves_out_the_last_wrapped_line() {
        // 30 words of 4 letters: 5 chars per word, 16 words per 80-char line.
        let text = "word ".repeat(30);
        let doc = page(&format!("<body><p>{text}</p></body>"));
        let b = &segment(&doc)[0];
        assert_eq!(b.words, 30);
        assert_eq!((b.wrapped_words, b.wrapped_lines), (16, 1));
        assert!((b.text_density() - 16.0).abs() < 1e-9);
    }

    #[test]
    fn inline_tags_do_not_split_blocks_but_br_does() {
        let doc = page("<body><p>a <b>bold</b> <span>span</span> word<br>next line</p></body>");
        let texts: Vec<String> = segment(&doc).into_iter().map(|b| b.text).collect();
        assert_eq!(texts, ["a bold span word", "next line"]);
    }

    #[test]
    fn list_items_and_headings_are_labelled() {
        let doc = page("<body><h2>Head</h2><ul><li>item</li></ul></body>");
        let blocks = segment(&doc);
        assert!(blocks[0].has(HEADING));
        assert!(blocks[1].has(LI));
    }

    /// A page with navigation before the article and a footer after it.
    fn news_page() -> String {
        format!(
            "<html><head><title>Bridge to be rebuilt | Town News</title></head><body>\
             <div id=nav><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li>\
             <li><a href=/s>Sport</a></li><li><a href=/w>Weather</a></li></ul></div>\
             <div id=main><h1>Bridge to be rebuilt</h1>{}{}{}</div>\
             <div id=footer><p><a href=/a>About us</a> | <a href=/c>Contact</a> | \
             <a href=/p>Privacy policy</a></p><p>Copyright 2024 Town News</p></div></body></html>",
            para(3),
            para(2),
            para(4)
        )
    }

    #[test]
    fn navigation_and_footer_are_dropped_article_kept() {
        let text = extract(&page(&news_page()));
        assert!(
            text.contains("Bridge to be rebuilt\n\nThe council voted"),
            "{text}"
        );
        assert_eq!(text.matches("The council voted").count(), 9, "{text}");
        for boiler in ["Home", "News", "Sport", "About us", "Privacy", "Copyright"] {
            assert!(!text.contains(boiler), "{boiler} in {text}");
        }
    }

    #[test]
    fn first_fusion_pulls_in_the_block_just_before_the_content() {
        // As published: BlockProximityFusion(1, false, false) fuses a content block into the
        // adjacent block before it, content or not, so the last menu item comes along.
        let text = extract(&page(&news_page()));
        assert!(
            text.starts_with("Weather\n\nBridge to be rebuilt"),
            "{text}"
        );
    }

    #[test]
    fn link_heavy_blocks_are_dropped() {
        let links: String = (0..30)
            .map(|i| format!("<a href=/r{i}>Related story number {i}</a> "))
            .collect();
        let html = format!(
            "<body><div>{}{}</div><div><p>{links}</p></div></body>",
            para(3),
            para(3)
        );
        let text = extract(&page(&html));
        assert!(text.contains("The council voted"));
        assert!(!text.contains("Related story"), "{text}");
    }

    #[test]
    fn text_after_comment_marker_is_ignored() {
        let html = format!(
            "<body><div>{}{}<p>Add your comment</p><p>{}</p></div></body>",
            para(3),
            para(2),
            "I disagree with this article entirely, the bridge is fine and the money should go \
             elsewhere in town instead of this nonsense. "
                .repeat(3)
        );
        let text = extract(&page(&html));
        assert!(text.contains("The council voted"));
        assert!(!text.contains("I disagree"), "{text}");
    }

    #[test]
    fn title_spellings_and_dash_parts() {
        let m = TitleMatch::new("Bridge to be rebuilt - Town News");
        assert!(m.titles.contains("bridge to be rebuilt"));
        assert!(m.titles.contains("town news"));
        assert_eq!(
            split_at_separators("a | | b", |c| c == '|', true),
            ["a", "| b"]
        );
        assert_eq!(split_at_separators("a|b|", |c| c == '|', false), ["a", "b"]);
        assert_eq!(without_last_dash_part("a - b - c"), "a - b");
        assert_eq!(without_first_dash_part("a - b - c"), "b - c");
    }

    #[test]
    fn empty_and_deep_pages_do_not_panic() {
        assert_eq!(extract(&page("")), "");
        let deep = "<div>".repeat(20_000) + "text";
        let _ = extract(&page(&deep));
    }
}
