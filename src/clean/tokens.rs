//! The token stream: html5gum's WHATWG tokenizer feeding html5ever's tree builder, with the
//! markup guard applied to the tokens on the way.
//!
//! html5ever's own tokenizer reads a character at a time; html5gum's reads runs of bytes and
//! is about twice as fast, and both follow the same specification (§13.2.5), so the tree
//! builder receives the same tokens and builds the same tree (proved on every page of the
//! gold sets and fuzz inputs by `tests/tokenizer.rs`, against html5ever's tokenizer). This emitter is the
//! bridge: it turns html5gum's callbacks into html5ever tokens, and passes the tokenizer the
//! state switches the tree builder asks for (raw text after `<script>`, `<title>`, …).
//!
//! The guard works here, on tags as the tokenizer reads them: past `max_depth` open elements
//! a start tag and its end tag are not passed on (their content joins the deepest allowed
//! element, as browsers cap depth), and a tag keeps its first [`MAX_ATTRIBUTES`] attributes
//! (the first of two with one name wins). Both keep html5ever's tree builder linear.

use super::guard::{Open, MAX_ATTRIBUTES};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{Attribute, LocalName, QualName};
use html5gum::{Emitter, Error, State};
use std::borrow::Cow;

/// Tags between two returns of control to the caller (which checks budgets there).
const TAGS_PER_TURN: usize = 64;

/// What the tokenizer is building now.
#[derive(Clone, Copy, PartialEq)]
enum Current {
    None,
    Start,
    End,
    Comment,
    Doctype,
}

/// The page as the tokenizer reads it: html5gum's string reader, with the search for the next
/// byte a state stops at done by `memchr` (one, two or three bytes, as in text and attribute
/// values) or a byte loop (the longer sets, met in tags, where runs are short). html5gum's own
/// search sets up an SSE 4.2 needle on every call, a cost that depends on whether the compiler
/// inlines it into each state.
pub(super) struct Input<'a> {
    rest: &'a [u8],
}

impl<'a> Input<'a> {
    pub(super) fn new(html: &'a str) -> Input<'a> {
        Input { rest: html.as_bytes() }
    }
}

/// Where the first byte of `needle` stands in `hay`.
fn find(needle: &[u8], hay: &[u8]) -> Option<usize> {
    match *needle {
        [a] => memchr::memchr(a, hay),
        [a, b] => memchr::memchr2(a, b, hay),
        [a, b, c] => memchr::memchr3(a, b, c, hay),
        _ => hay.iter().position(|x| needle.contains(x)),
    }
}

impl html5gum::Reader for Input<'_> {
    type Error = std::convert::Infallible;

    fn read_byte(&mut self) -> Result<Option<u8>, Self::Error> {
        let Some((&first, rest)) = self.rest.split_first() else { return Ok(None) };
        self.rest = rest;
        Ok(Some(first))
    }

    /// The bytes up to the next byte of `needle`, or that byte alone when it comes first (see
    /// [`html5gum::Reader::read_until`]).
    fn read_until<'b>(&'b mut self, needle: &[u8], _: &'b mut [u8; 4]) -> Result<Option<&'b [u8]>, Self::Error> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        let at = find(needle, self.rest).map_or(self.rest.len(), |i| i.max(1));
        let (chunk, rest) = self.rest.split_at(at);
        self.rest = rest;
        Ok(Some(chunk))
    }

    fn try_read_string(&mut self, s: &[u8], case_sensitive: bool) -> Result<bool, Self::Error> {
        let Some(next) = self.rest.get(..s.len()) else { return Ok(false) };
        // A character reference tries dozens of names in turn: most differ in their first byte.
        if case_sensitive && next.first() != s.first() {
            return Ok(false);
        }
        if next == s || (!case_sensitive && next.eq_ignore_ascii_case(s)) {
            self.rest = self.rest.get(s.len()..).unwrap_or_default();
            return Ok(true);
        }
        Ok(false)
    }
}

/// The bytes of one token (a run of text, an attribute's value) as the tokenizer hands them
/// over in pieces. While the pieces follow each other in the page, only where they start and
/// end is kept, and the token's text is that slice of the page, with no UTF-8 check over it
/// (slicing a `str` checks the two ends only). A piece from elsewhere (a character reference's
/// character, the line feed a carriage return becomes) turns the token into a copy.
#[derive(Default)]
struct Gathered {
    start: usize,
    end: usize,
    /// The bytes, once they are not one stretch of the page (never empty then, as empty
    /// pieces are not gathered).
    copy: Vec<u8>,
}

impl Gathered {
    fn copied(&self) -> bool {
        !self.copy.is_empty()
    }

    fn is_empty(&self) -> bool {
        !self.copied() && self.start == self.end
    }

    fn clear(&mut self) {
        self.start = 0;
        self.end = 0;
        self.copy.clear();
    }

    fn push(&mut self, piece: &[u8], page: &str) {
        if piece.is_empty() {
            return;
        }
        if !self.copied() {
            let bytes = page.as_bytes();
            // Where the piece stands in the page, if it is a slice of it.
            let at = (piece.as_ptr() as usize).wrapping_sub(bytes.as_ptr() as usize);
            let inside = at < bytes.len() && piece.len() <= bytes.len() - at;
            if inside && (self.start == self.end || at == self.end) {
                if self.start == self.end {
                    self.start = at;
                }
                self.end = at + piece.len();
                return;
            }
            self.copy.extend_from_slice(bytes.get(self.start..self.end).unwrap_or_default());
        }
        self.copy.extend_from_slice(piece);
    }

    /// The token's text.
    fn text<'p>(&'p self, page: &'p str) -> Cow<'p, str> {
        if self.copied() {
            return text(&self.copy);
        }
        // The ends are character boundaries, as the tokenizer splits at ASCII bytes only; were
        // one not, the bytes would be read as `text` reads them.
        page.get(self.start..self.end).map_or_else(|| text(page.as_bytes().get(self.start..self.end).unwrap_or_default()), Cow::Borrowed)
    }
}

/// Bytes as text: they are UTF-8 whenever the input is (the tokenizer splits only at ASCII).
fn text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The parser's interned names for tag and attribute names. Making one looks the name up in
/// html5ever's table of known names (a keyed hash and a compare), and pages read the same few
/// dozen names thousands of times: each is made once and kept in a direct-mapped table (a slot
/// holds the last name whose bytes hashed to it; names of up to [`NAME_CACHE_LEN`] bytes), so a
/// name read again costs a multiply and four compares. A thread's table passes from page to
/// page ([`Names::take`], [`Names::give_back`]).
struct Names {
    slots: Vec<Option<(NameKey, LocalName)>>,
}

/// Slots in [`Names`]: a page's distinct names are a few dozen, so few share a slot.
const NAME_SLOTS: usize = 256;

/// Longest name [`Names`] keeps.
const NAME_CACHE_LEN: usize = 32;

/// A name's bytes, zero-padded to [`NAME_CACHE_LEN`], and its length.
#[derive(Clone, Copy, PartialEq, Eq)]
struct NameKey {
    words: [u64; NAME_CACHE_LEN / 8],
    len: usize,
}

impl NameKey {
    fn of(bytes: &[u8]) -> Option<NameKey> {
        if bytes.len() > NAME_CACHE_LEN {
            return None;
        }
        // Each word assembled in a register from its bytes (a copy through memory would cost a
        // call and a stalled load per word).
        let mut words = [0u64; NAME_CACHE_LEN / 8];
        for (w, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
            *w = chunk.iter().rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        }
        Some(NameKey { words, len: bytes.len() })
    }

    fn slot(&self) -> usize {
        let [a, b, c, d] = self.words;
        let h = (a ^ b.rotate_left(16) ^ c.rotate_left(32) ^ d.rotate_left(48) ^ self.len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 56) as usize % NAME_SLOTS
    }
}

thread_local! {
    static NAMES: std::cell::Cell<Option<Names>> = const { std::cell::Cell::new(None) };
}

impl Names {
    /// The thread's table, or a new one.
    fn take() -> Names {
        NAMES.with(std::cell::Cell::take).unwrap_or_else(|| Names { slots: vec![None; NAME_SLOTS] })
    }

    /// Keep the table for the thread's next page.
    fn give_back(self) {
        NAMES.with(|n| n.set(Some(self)));
    }

    /// The interned name read as `bytes`.
    fn local(&mut self, bytes: &[u8]) -> LocalName {
        let Some(key) = NameKey::of(bytes) else { return LocalName::from(&*text(bytes)) };
        let slot = key.slot();
        if let Some(Some((k, name))) = self.slots.get(slot) {
            if *k == key {
                return name.clone();
            }
        }
        let name = LocalName::from(&*text(bytes));
        if let Some(s) = self.slots.get_mut(slot) {
            *s = Some((key, name.clone()));
        }
        name
    }
}

/// The bridge from html5gum's tokenizer to a [`TokenSink`] (html5ever's tree builder).
pub struct Bridge<'a, S: TokenSink> {
    sink: &'a S,
    /// The page the tokenizer reads.
    page: &'a str,
    /// Characters not yet passed on (flushed before any other token).
    chars: Gathered,
    current: Current,
    name: Vec<u8>,
    self_closing: bool,
    attrs: Vec<Attribute>,
    /// Did the tag repeat an attribute name (the later ones are dropped, as the tree builder
    /// is told)?
    duplicate: bool,
    /// Is an attribute being read? Its name and value (buffers reused from tag to tag).
    in_attr: bool,
    attr_name: Vec<u8>,
    attr_value: Gathered,
    comment: Vec<u8>,
    force_quirks: bool,
    doctype_name: Option<Vec<u8>>,
    public_id: Option<Vec<u8>>,
    system_id: Option<Vec<u8>>,
    last_start_tag: Vec<u8>,
    /// The tokenizer state the tree builder asked for after the last tag.
    next_state: Option<State>,
    /// The elements open, as the guard counts them.
    open: Open,
    max_depth: usize,
    /// Tags passed since control last returned to the caller.
    tags: usize,
    /// The page's tag and attribute names, made once each.
    names: Names,
}

impl<'a, S: TokenSink> Bridge<'a, S> {
    /// A bridge into `sink` for the tokens of `page` (the text the tokenizer reads), capping
    /// nesting at `max_depth` elements.
    pub fn new(sink: &'a S, page: &'a str, max_depth: usize) -> Self {
        Bridge {
            sink,
            page,
            chars: Gathered::default(),
            current: Current::None,
            name: Vec::new(),
            self_closing: false,
            attrs: Vec::new(),
            duplicate: false,
            in_attr: false,
            attr_name: Vec::new(),
            attr_value: Gathered::default(),
            comment: Vec::new(),
            force_quirks: false,
            doctype_name: None,
            public_id: None,
            system_id: None,
            last_start_tag: Vec::new(),
            next_state: None,
            open: Open::default(),
            max_depth: max_depth.max(1),
            tags: 0,
            names: Names::take(),
        }
    }

    fn send(&mut self, token: Token) {
        self.next_state = match self.sink.process_token(token, 1) {
            TokenSinkResult::Continue => None,
            TokenSinkResult::Script(_) => Some(State::Data),
            TokenSinkResult::Plaintext => Some(State::PlainText),
            TokenSinkResult::RawData(RawKind::Rcdata) => Some(State::RcData),
            TokenSinkResult::RawData(RawKind::Rawtext) => Some(State::RawText),
            TokenSinkResult::RawData(RawKind::ScriptData | RawKind::ScriptDataEscaped(_)) => Some(State::ScriptData),
            // The page was decoded before parsing (see `page`): a `<meta charset>` met here
            // changes nothing.
            TokenSinkResult::EncodingIndicator(_) => None,
        };
    }

    /// Pass on the characters read so far; a NUL is its own token, as html5ever's tokenizer
    /// emits it (the tree builder ignores it or replaces it, depending on where it stands).
    fn flush_chars(&mut self) {
        if self.chars.is_empty() {
            return;
        }
        let chars = std::mem::take(&mut self.chars);
        let all = chars.text(self.page);
        if memchr::memchr(0, all.as_bytes()).is_none() {
            // Most runs hold no NUL: one token, found by a byte search rather than a split.
            self.send(Token::CharacterTokens(StrTendril::from_slice(&all)));
        } else {
            for (i, part) in all.split('\0').enumerate() {
                if i > 0 {
                    self.send(Token::NullCharacterToken);
                }
                if !part.is_empty() {
                    self.send(Token::CharacterTokens(StrTendril::from_slice(part)));
                }
            }
        }
        self.chars = chars;
        self.chars.clear();
    }

    /// The attribute being read joins the tag, unless the tag has one of that name already or
    /// is full.
    fn flush_attr(&mut self) {
        if !std::mem::take(&mut self.in_attr) || self.current != Current::Start || self.attrs.len() >= MAX_ATTRIBUTES {
            return;
        }
        let name = self.names.local(&self.attr_name);
        if self.attrs.iter().any(|a| a.name.local == name) {
            self.duplicate = true;
            return;
        }
        self.attrs.push(Attribute {
            name: QualName::new(None, html5ever::ns!(), name),
            value: StrTendril::from_slice(&self.attr_value.text(self.page)),
        });
    }
}

impl<S: TokenSink> Drop for Bridge<'_, S> {
    /// The names made on this page serve the thread's next one.
    fn drop(&mut self) {
        std::mem::replace(&mut self.names, Names { slots: Vec::new() }).give_back();
    }
}

impl<S: TokenSink> Emitter for Bridge<'_, S> {
    /// A turn: control returns to the caller of the tokenizer every [`TAGS_PER_TURN`] tags.
    type Token = ();

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start_tag.clear();
        self.last_start_tag.extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.flush_chars();
        self.send(Token::EOFToken);
        self.sink.end();
    }

    fn emit_error(&mut self, _error: Error) {}

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<()> {
        if self.tags >= TAGS_PER_TURN {
            self.tags = 0;
            return Some(());
        }
        None
    }

    fn emit_string(&mut self, c: &[u8]) {
        self.chars.push(c, self.page);
    }

    fn init_start_tag(&mut self) {
        self.current = Current::Start;
        self.name.clear();
        self.self_closing = false;
        self.attrs.clear();
        self.duplicate = false;
        self.in_attr = false;
    }

    fn init_end_tag(&mut self) {
        self.init_start_tag();
        self.current = Current::End;
    }

    fn init_comment(&mut self) {
        self.current = Current::Comment;
        self.comment.clear();
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        self.flush_attr();
        self.flush_chars();
        self.tags += 1;
        let kind = if self.current == Current::Start { TagKind::StartTag } else { TagKind::EndTag };
        self.current = Current::None;
        let name = self.names.local(&self.name);
        let start = kind == TagKind::StartTag;
        if start {
            self.last_start_tag.clone_from(&self.name);
        }
        // The guard: a nesting tag past the depth cap is not passed on, nor its end tag.
        if self.open.tag(&name, start, self.self_closing, self.max_depth) {
            return None;
        }
        let attrs = if start { std::mem::take(&mut self.attrs) } else { Vec::new() };
        self.send(Token::TagToken(Tag { kind, name, self_closing: self.self_closing, attrs, had_duplicate_attributes: self.duplicate }));
        self.next_state.take()
    }

    fn emit_current_comment(&mut self) {
        self.flush_chars();
        self.current = Current::None;
        let comment = StrTendril::from_slice(&text(&self.comment));
        self.send(Token::CommentToken(comment));
    }

    fn emit_current_doctype(&mut self) {
        self.flush_chars();
        self.current = Current::None;
        let tendril = |v: &Option<Vec<u8>>| v.as_deref().map(|v| StrTendril::from_slice(&text(v)));
        let doctype = Doctype {
            name: tendril(&self.doctype_name),
            public_id: tendril(&self.public_id),
            system_id: tendril(&self.system_id),
            force_quirks: self.force_quirks,
        };
        self.send(Token::DoctypeToken(doctype));
    }

    fn set_self_closing(&mut self) {
        self.self_closing = true;
    }

    fn set_force_quirks(&mut self) {
        self.force_quirks = true;
    }

    fn push_tag_name(&mut self, s: &[u8]) {
        self.name.extend_from_slice(s);
    }

    fn push_comment(&mut self, s: &[u8]) {
        self.comment.extend_from_slice(s);
    }

    fn push_doctype_name(&mut self, s: &[u8]) {
        self.doctype_name.get_or_insert_with(Vec::new).extend_from_slice(s);
    }

    fn init_doctype(&mut self) {
        self.current = Current::Doctype;
        self.force_quirks = false;
        self.doctype_name = None;
        self.public_id = None;
        self.system_id = None;
    }

    fn init_attribute(&mut self) {
        self.flush_attr();
        self.in_attr = true;
        self.attr_name.clear();
        self.attr_value.clear();
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        self.attr_name.extend_from_slice(s);
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        self.attr_value.push(s, self.page);
    }

    fn set_doctype_public_identifier(&mut self, value: &[u8]) {
        self.public_id = Some(value.to_vec());
    }

    fn set_doctype_system_identifier(&mut self, value: &[u8]) {
        self.system_id = Some(value.to_vec());
    }

    fn push_doctype_public_identifier(&mut self, s: &[u8]) {
        self.public_id.get_or_insert_with(Vec::new).extend_from_slice(s);
    }

    fn push_doctype_system_identifier(&mut self, s: &[u8]) {
        self.system_id.get_or_insert_with(Vec::new).extend_from_slice(s);
    }

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.current == Current::End && !self.last_start_tag.is_empty() && self.name == self.last_start_tag
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&mut self) -> bool {
        self.sink.adjusted_current_node_present_but_not_in_html_namespace()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use html5gum::{Readable, Reader};

    #[test]
    fn a_token_read_in_pieces_of_the_page_is_a_slice_of_it_else_a_copy() {
        let page = "<p title=\"a b&amp;c\">日本 text</p>";
        let piece = |s: &str| page.find(s).map_or(&b""[..], |at| &page.as_bytes()[at..at + s.len()]);
        // The token's text, and whether it is a slice of the page.
        let read = |pieces: &[&[u8]]| {
            let mut g = Gathered::default();
            for p in pieces {
                g.push(p, page);
            }
            let text = g.text(page);
            (text.to_string(), page.as_bytes().as_ptr_range().contains(&text.as_ptr()))
        };
        // Pieces that follow each other in the page: a slice of it.
        assert_eq!(read(&[piece("日本"), b"", piece(" text")]), ("日本 text".to_string(), true));
        // A character reference's character comes from elsewhere: a copy, in order.
        assert_eq!(read(&[piece("a b"), b"&", piece("c\"")]), ("a b&c\"".to_string(), false));
        // Pieces of the page that do not follow each other: a copy too.
        assert_eq!(read(&[piece("text"), piece("<p")]), ("text<p".to_string(), false));
        // A piece that ends inside a character reads as `text` reads bytes.
        assert_eq!(read(&[&piece("日本")[..4]]), ("日\u{FFFD}".to_string(), false));
        let mut g = Gathered::default();
        assert!(g.is_empty());
        g.push(b"&", page);
        assert!(!g.is_empty());
        g.clear();
        assert!(g.is_empty() && g.text(page).is_empty());
    }

    #[test]
    fn names_come_back_as_made_whatever_shares_their_slot() {
        let mut names = Names::take();
        let long = "x".repeat(NAME_CACHE_LEN + 1);
        let many: Vec<String> = (0..3 * NAME_SLOTS).map(|i| format!("n{i}")).collect();
        let all: Vec<&str> = ["div", "class", "data-a", "data-a\0", "data-ab", "é-名", long.as_str(), ""].into_iter().chain(many.iter().map(String::as_str)).collect();
        // Twice over: made, then read back from the table (or made again where a slot was taken).
        for _ in 0..2 {
            for n in &all {
                assert_eq!(&*names.local(n.as_bytes()), *n);
            }
        }
        names.give_back();
        assert_eq!(&*Names::take().local(b"div"), "div");
    }

    /// Everything a reader gives for these calls, as (what each call returned).
    fn chunks<R: Reader>(mut r: R, needles: &[&[u8]]) -> Vec<Option<Vec<u8>>> {
        let mut out = Vec::new();
        let mut buf = [0u8; 4];
        for (i, needle) in needles.iter().cycle().take(400).enumerate() {
            let got = match i % 7 {
                5 => r.read_byte().ok().flatten().map(|b| vec![b]),
                6 => Some(vec![u8::from(r.try_read_string(b"<!--", i % 2 == 0).unwrap_or(false))]),
                _ => r.read_until(needle, &mut buf).ok().flatten().map(<[u8]>::to_vec),
            };
            let end = got.is_none();
            out.push(got);
            if end && i % 7 < 5 {
                break;
            }
        }
        out
    }

    #[test]
    fn the_page_reads_as_html5gums_own_string_reader_reads_it() {
        let pages = [
            "", "x", "<", "plain text", "<p class=\"a&amp;b\" id='q'>one &lt; two\r\n</p><!-- c --><!DOCTYPE html>",
            "<div\tdata-x=1 /><script>if (a<b) {}</script>&&<<\r\r\n日本語 <b>é</b>",
        ];
        let needles: [&[u8]; 6] = [b"<", b"&<", b"\"&\r", b"\t\n\x0c />\r", b"'&\r", b"-<\0\r"];
        for page in pages {
            assert_eq!(chunks(Input::new(page), &needles), chunks(page.to_reader(), &needles), "{page:?}");
        }
    }
}
