//! Segmentation: the cleaned page cut into text blocks the way boilerpipe's SAX content
//! handler does, with each block's words, link words, tag level, text density and labels.

use super::*;

/// What a tag does to the block being built (boilerpipe's default tag actions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Action {
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

pub(super) fn action_of(name: &str) -> Action {
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
pub(super) const ANCHOR_START: char = '\u{E00A}';
pub(super) const ANCHOR_END: char = '\u{E00B}';

/// Boilerpipe's content handler, fed with start-tag, end-tag and text events.
#[derive(Default)]
pub(super) struct Segmenter {
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
    /// Words of the `id` and `class` of the open elements.
    names: Vec<String>,
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
            names: {
                let mut names = self.names.clone();
                names.sort_unstable();
                names.dedup();
                names
            },
        };
        block.normalize_lines();
        self.blocks.push(block);
        self.clear();
        self.block_level = -1;
    }
}

/// Boilerpipe's white space (Java's `Character.isWhitespace`: no-break spaces are not).
pub(super) fn is_java_space(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{A0}' | '\u{2007}' | '\u{202F}') || c == '\u{2063}'
}

/// Word and line counts of one block's tokens.
#[derive(Default)]
pub(super) struct Counts {
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
pub(super) fn for_each_token(s: &str, mut f: impl FnMut(&str)) {
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
pub(super) fn segment(doc: &Doc) -> Vec<Block> {
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
    // Open elements: (end of subtree, action, id/class words before it opened).
    let mut open: Vec<(usize, Action, usize)> = Vec::new();
    for i in body..end {
        while let Some(&(close, action, names)) = open.last() {
            if close > i {
                break;
            }
            open.pop();
            seg.end(action);
            seg.names.truncate(names);
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
                let names = seg.names.len();
                for value in [e.attr("id"), e.attr("class")].into_iter().flatten() {
                    let words = value.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
                    seg.names.extend(words.map(str::to_lowercase));
                }
                seg.start(action);
                open.push((node.end as usize, action, names));
            }
            NodeData::Text(t) => seg.characters(t),
        }
    }
    while let Some((_, action, names)) = open.pop() {
        seg.end(action);
        seg.names.truncate(names);
    }
    seg.flush_block();
    seg.blocks
}
