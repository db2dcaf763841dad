//! The inline layer of the Markdown writer: spans opened lazily and closed by CommonMark's
//! emphasis (flanking) rules, words and spaces, images, code spans, and the current block's
//! text taken out whole.

use super::*;

impl Markdown<'_> {

    /// Open an inline span; one inside a span of its own kind (or a link without a URL)
    /// writes nothing, so at most one span of each kind is open.
    pub(super) fn mark(&mut self, m: Mark) -> Close {
        if m == Mark::Plain || self.marks.iter().any(|(open, _)| open.same_kind(&m)) {
            return Close::Inline;
        }
        self.marks.push((m, None));
        Close::Mark
    }

    /// Write the closer of the span `m` opened at `at`; when CommonMark would not read its
    /// opener as one (`a*"b"*`: after a letter, before punctuation), remove the opener instead.
    pub(super) fn close_span(&mut self, m: &Mark, at: usize, table: bool) -> bool {
        let len = m.opener().len();
        if *m == Mark::Plain {
            return false;
        }
        if !matches!(m, Mark::Link(_)) && !left_flanking(&self.buf, at, len) {
            self.remove_opener(at, len);
            return false;
        }
        m.push_closer(&mut self.buf, table);
        true
    }

    /// Remove the `len` bytes of an opener at `at`, and shift what was recorded after it.
    pub(super) fn remove_opener(&mut self, at: usize, len: usize) {
        self.buf.replace_range(at..at + len, "");
        if let Some((_, start, before, after)) = self.last_close.as_mut().filter(|c| c.1 > at) {
            (*start, *before, *after) = (*start - len, *before - len, *after - len);
        }
        if let Some(c) = self.last_code.as_mut().filter(|c| c.start > at) {
            (c.start, c.end) = (c.start - len, c.end - len);
        }
    }

    /// Give up the pending spans whose opener would touch the closer just written with the
    /// same character: `*a*` then `**b**` would make one run, `*a***b**`.
    pub(super) fn settle_openers(&mut self) {
        let Some((last, _, _, after)) = &self.last_close else { return };
        if self.space || self.brk || *after != self.buf.len() {
            return;
        }
        let c = last.opener().chars().next();
        for (m, opened) in &mut self.marks {
            if opened.is_some() {
                continue;
            }
            if m.same_kind(last) || m.opener().chars().next() != c {
                break; // merged with the closer, or no run
            }
            *m = Mark::Plain;
            *opened = Some(self.buf.len());
        }
    }

    pub(super) fn push_space(&mut self) {
        if self.space && !self.buf.is_empty() && !self.buf.ends_with('\n') {
            self.buf.push(' ');
        }
        self.space = false;
    }

    /// Write one word (or part of one) of text.
    pub(super) fn word(&mut self, word: &str, table: bool) {
        if word.is_empty() {
            return;
        }
        self.settle_openers();
        let word = self.flank_opener(word, table);
        if let Some(first) = word.chars().next() {
            self.flank_closer(first);
        }
        self.before_content();
        escape_text(&mut self.buf, word, table, false);
    }

    /// `a*"b"*` does not open (an opener before punctuation must follow space or punctuation):
    /// write the word's leading punctuation before the opener, `a"*b"*`. Returns the rest.
    pub(super) fn flank_opener<'w>(&mut self, word: &'w str, table: bool) -> &'w str {
        let mut pending = self.marks.iter().filter(|(_, opened)| opened.is_none()).peekable();
        let emphasis_only = pending.peek().is_some() && pending.all(|(m, _)| !matches!(m, Mark::Link(_)));
        let after_word = self.buf.chars().last().is_some_and(|c| !c.is_whitespace() && !is_punct(c));
        if !emphasis_only || self.space || self.brk || !after_word {
            return word;
        }
        let split = word.find(|c: char| !is_punct(c)).unwrap_or(0);
        if split == 0 {
            return word;
        }
        escape_text(&mut self.buf, &word[..split], table, false);
        self.last_close = None;
        &word[split..]
    }

    /// `**a:**b` does not close (a closer after punctuation must precede space or
    /// punctuation): move the punctuation after the closer, `**a**:b`, or, when that cannot
    /// be done, drop the span's markers.
    pub(super) fn flank_closer(&mut self, next: char) {
        let Some((ref m, at, before, after)) = self.last_close else { return };
        if self.space || self.brk || after != self.buf.len() || is_punct(next) {
            return;
        }
        if self.marks.iter().any(|(_, opened)| opened.is_none()) {
            return; // an opener comes next: punctuation
        }
        let (prev, start, _) = around_run(&self.buf, before, after - before);
        // Fine after a letter; after several closers in a row, left as it is.
        if !prev.is_some_and(is_punct) || start != before {
            return;
        }
        let opener = m.opener().len();
        let inner = &self.buf[..before];
        let mut run = before;
        for (i, c) in inner.char_indices().rev() {
            // Markup characters and escaped ones stay where they are.
            if !is_punct(c) || "*~[]()`!\\<>".contains(c) || inner[..i].ends_with('\\') {
                break;
            }
            run = i;
        }
        // Moving all of it would leave the span empty, moving it after a space would leave the
        // closer after that space.
        if run == before || run <= at + opener || inner[..run].ends_with(char::is_whitespace) {
            self.buf.truncate(before);
            self.last_close = None;
            self.remove_opener(at, opener);
            return;
        }
        let moved = format!("{}{}", &self.buf[before..after], &self.buf[run..before]);
        self.buf.truncate(run);
        self.buf.push_str(&moved);
        self.last_close = None;
    }

    pub(super) fn image(&mut self, id: NodeId, e: &Element) {
        let src = super::super::image_source(self.doc, id, e).and_then(|s| resolve(self.base, s, false));
        let Some(src) = src else { return };
        let alt = collapse_ws(e.attr("alt").unwrap_or(""));
        let table = self.table.is_some();
        self.before_content();
        self.buf.push_str("![");
        escape_text(&mut self.buf, &alt, table, false);
        self.buf.push_str("](");
        push_destination(&mut self.buf, &src, table);
        self.buf.push(')');
    }

    pub(super) fn code_span(&mut self, raw: &str) {
        if raw.starts_with(char::is_whitespace) {
            self.space = true;
        }
        let mut code = collapse_ws(raw);
        if !code.is_empty() {
            if self.table.is_some() {
                code = code.replace('|', "\\|");
            }
            self.before_content();
            let fence = longest_run(&code, '`') + 1;
            match self.last_code.take() {
                // Two spans in a row would run their fences together: they become one, padded
                // (so that the next one can be appended in place).
                Some(mut last) if last.end == self.buf.len() => {
                    last.code.push_str(&code);
                    if last.padded && fence <= last.fence {
                        self.buf.truncate(last.end - last.fence - 1);
                    } else {
                        self.buf.truncate(last.start);
                        last.fence = last.fence.max(fence);
                        last.padded = true;
                        push_fence(&mut self.buf, last.fence);
                        self.buf.push(' ');
                        self.buf.push_str(&last.code[..last.code.len() - code.len()]);
                    }
                    self.buf.push_str(&code);
                    self.buf.push(' ');
                    push_fence(&mut self.buf, last.fence);
                    last.end = self.buf.len();
                    self.last_code = Some(last);
                }
                _ => {
                    let start = self.buf.len();
                    let padded = code.starts_with('`') || code.ends_with('`');
                    let pad = if padded { " " } else { "" };
                    push_fence(&mut self.buf, fence);
                    self.buf.push_str(pad);
                    self.buf.push_str(&code);
                    self.buf.push_str(pad);
                    push_fence(&mut self.buf, fence);
                    self.last_code = Some(CodeSpan { start, end: self.buf.len(), fence, padded, code });
                }
            }
        }
        if raw.ends_with(char::is_whitespace) {
            self.space = true;
        }
    }

    /// The current block's Markdown, its open spans closed (they reopen with the next
    /// content); the inline state is reset.
    pub(super) fn take_inline(&mut self) -> String {
        let table = self.table.is_some();
        // Openers CommonMark would not read as such go, outermost first (each one dropped
        // changes what precedes the next); then the closers of the others, innermost first.
        let mut shift = 0;
        for (m, opened) in &mut self.marks {
            let Some(at) = opened.map(|at| at - shift) else { continue };
            let len = m.opener().len();
            *opened = Some(at);
            if !matches!(m, Mark::Link(_) | Mark::Plain) && !left_flanking(&self.buf, at, len) {
                self.buf.replace_range(at..at + len, "");
                shift += len;
                *opened = None;
            }
        }
        for (m, opened) in self.marks.iter_mut().rev() {
            if opened.take().is_some() {
                m.push_closer(&mut self.buf, table);
            }
        }
        self.space = false;
        self.brk = false;
        self.last_close = None;
        self.last_code = None;
        std::mem::take(&mut self.buf)
    }
}

/// Can the `len` bytes of delimiters at `at` of `buf` open emphasis (CommonMark's
/// left-flanking rule)?
pub(super) fn left_flanking(buf: &str, at: usize, len: usize) -> bool {
    let (before, _, after) = around_run(buf, at, len);
    match after {
        None => false,
        Some(c) if c.is_whitespace() => false,
        Some(c) => !is_punct(c) || before.is_none_or(|b| b.is_whitespace() || is_punct(b)),
    }
}

/// The delimiter run holding `buf[at..at + len]` (adjacent unescaped delimiters of the same
/// character): the character before it, where it starts, the character after it.
pub(super) fn around_run(buf: &str, at: usize, len: usize) -> (Option<char>, usize, Option<char>) {
    let b = buf.as_bytes();
    let Some(&d) = b.get(at) else { return (None, at, None) };
    let escaped = |i: usize| i > 0 && b[i - 1] == b'\\';
    let delim = |i: usize| b[i] == d && !escaped(i);
    let mut start = at;
    while start > 0 && delim(start - 1) {
        start -= 1;
    }
    // Openers of other spans right before may be dropped: judge by what precedes them too.
    let mut first = start;
    while first > 0 && matches!(b[first - 1], b'*' | b'~') && !escaped(first - 1) {
        first -= 1;
    }
    let mut end = (at + len).min(b.len());
    while end < b.len() && delim(end) {
        end += 1;
    }
    (buf[..first].chars().last(), start, buf[end..].chars().next())
}

/// Is `c` punctuation for CommonMark's emphasis rules (Unicode `P*` or `S*`)?
pub(super) fn is_punct(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory as Gc};
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    matches!(
        get_general_category(c),
        Gc::ConnectorPunctuation
            | Gc::DashPunctuation
            | Gc::OpenPunctuation
            | Gc::ClosePunctuation
            | Gc::InitialPunctuation
            | Gc::FinalPunctuation
            | Gc::OtherPunctuation
            | Gc::MathSymbol
            | Gc::CurrencySymbol
            | Gc::ModifierSymbol
            | Gc::OtherSymbol
    )
}
