//! Word tokens, exactly as the reference scorer (`shared/tools/score.py`) makes them.
//!
//! One tokenizer serves both the signifiers (what the engine counts) and the metric (what the
//! bench scores), so the two can never disagree on what a word is:
//!
//! 1. NFKC normalization, then Unicode full case folding (`ß` → `ss`).
//! 2. A code point is part of a word when its general category is a letter (`L*`) or a number
//!    (`N*`); everything else (marks, punctuation, symbols, spaces) separates words.
//! 3. CJK ideographs, kana, Hangul syllables and Thai letters are each a token on their own.
//!
//! ASCII text (most of the web's markup-heavy pages) takes a fast path with the same result.

use caseless::Caseless;
use std::ops::Range;
use unicode_general_category::{get_general_category, GeneralCategory as Gc};
use unicode_normalization::char::{canonical_combining_class, decompose_compatible};
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

/// Code point ranges whose letters/digits form one-character tokens (see `score.py`).
const SOLO_RANGES: [(u32, u32); 10] = [
    (0x0E00, 0x0E7F),   // Thai
    (0x3005, 0x3007),   // 々 〆 〇
    (0x3040, 0x309F),   // Hiragana
    (0x30A0, 0x30FF),   // Katakana
    (0x31F0, 0x31FF),   // Katakana Phonetic Extensions
    (0x3400, 0x4DBF),   // CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),   // CJK Unified Ideographs
    (0xAC00, 0xD7AF),   // Hangul Syllables
    (0xF900, 0xFAFF),   // CJK Compatibility Ideographs
    (0x20000, 0x3FFFF), // CJK Extensions B.. and Compatibility Supplement
];

fn is_solo(c: char) -> bool {
    let cp = c as u32;
    SOLO_RANGES.iter().any(|&(lo, hi)| lo <= cp && cp <= hi)
}

/// Python's `str.isalnum()` for one code point: general category `L*` or `N*`.
pub fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    matches!(
        get_general_category(c),
        Gc::UppercaseLetter
            | Gc::LowercaseLetter
            | Gc::TitlecaseLetter
            | Gc::ModifierLetter
            | Gc::OtherLetter
            | Gc::DecimalNumber
            | Gc::LetterNumber
            | Gc::OtherNumber
    )
}

/// A reusable tokenizer: keeps its buffers between calls so counting words allocates nothing.
#[derive(Default)]
pub struct Tokenizer {
    folded: String,
    run: String,
}

impl Tokenizer {
    /// Calls `f` with each token of `text`, in order.
    ///
    /// # Example
    /// ```
    /// let mut toks = Vec::new();
    /// forest::text::tokens::Tokenizer::default().each("Tokyo東京2024年, ß!", |t| toks.push(t.to_string()));
    /// assert_eq!(toks, ["tokyo", "東", "京", "2024", "年", "ss"]);
    /// ```
    pub fn each(&mut self, text: &str, mut f: impl FnMut(&str)) {
        if text.is_ascii() {
            // NFKC and case folding are plain lowercasing on ASCII.
            for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
                if word.is_empty() {
                    continue;
                }
                if word.bytes().any(|b| b.is_ascii_uppercase()) {
                    self.run.clear();
                    self.run.extend(word.chars().map(|c| c.to_ascii_lowercase()));
                    f(&self.run);
                } else {
                    f(word);
                }
            }
            return;
        }
        self.folded.clear();
        let nfkc: String = text.nfkc().collect();
        self.folded.push_str(&caseless::default_case_fold_str(&nfkc));
        self.run.clear();
        let mut solo = [0u8; 4];
        for c in self.folded.chars() {
            if is_alnum(c) && !is_solo(c) {
                self.run.push(c);
                continue;
            }
            if !self.run.is_empty() {
                f(&self.run);
                self.run.clear();
            }
            if is_alnum(c) {
                f(c.encode_utf8(&mut solo));
            }
        }
        if !self.run.is_empty() {
            f(&self.run);
            self.run.clear();
        }
    }

    /// As [`Tokenizer::each`], with each token's byte range in the *original* `text` (for
    /// snippets and highlighting): exactly the same tokens, in the same order.
    ///
    /// Normalization can merge or split code points (`ﬁ` → `fi`, `e` + U+0301 → `é`, `½` →
    /// `1⁄2`), so the text is cut where NFKC is known to restart — before a code point whose
    /// decomposition starts with a starter (combining class 0) that is NFKC quick-check `Yes`,
    /// which nothing earlier reorders or composes with — and each piece is normalized alone. A token spans the pieces its letters came from:
    /// a piece that yields two tokens (`½` → `1`, `2`) gives both the piece's range.
    ///
    /// # Example
    /// ```
    /// let text = "Le ﬁlm, ÉTÉ 2024";
    /// let mut toks = Vec::new();
    /// forest::text::tokens::Tokenizer::default().each_with_offsets(text, |t, r| toks.push((t.to_string(), &text[r])));
    /// assert_eq!(toks, [("le".into(), "Le"), ("film".into(), "ﬁlm"), ("été".into(), "ÉTÉ"), ("2024".into(), "2024")]);
    /// ```
    pub fn each_with_offsets(&mut self, text: &str, mut f: impl FnMut(&str, Range<usize>)) {
        if text.is_ascii() {
            let mut start = None;
            for (i, b) in text.bytes().chain(std::iter::once(b' ')).enumerate() {
                match (b.is_ascii_alphanumeric(), start) {
                    (true, None) => start = Some(i),
                    (false, Some(s)) => {
                        let word = text.get(s..i).unwrap_or_default();
                        if word.bytes().any(|b| b.is_ascii_uppercase()) {
                            self.run.clear();
                            self.run.extend(word.chars().map(|c| c.to_ascii_lowercase()));
                            f(&self.run, s..i);
                        } else {
                            f(word, s..i);
                        }
                        start = None;
                    }
                    _ => {}
                }
            }
            return;
        }
        // NFKC restarts before a code point whose decomposition starts with a starter (combining
        // class 0) that is quick-check `Yes`: nothing before it reorders or composes with it.
        let starts_piece = |c: char| {
            let mut first = None;
            if !c.is_ascii() {
                decompose_compatible(c, |d| {
                    first.get_or_insert(d);
                });
            }
            first.is_none_or(|d| {
                canonical_combining_class(d) == 0 && is_nfkc_quick(std::iter::once(d)) == IsNormalized::Yes
            })
        };
        self.run.clear();
        // Byte range in `text` of the current run (from its first piece to its last).
        let mut span = 0..0;
        let mut solo = [0u8; 4];
        let mut at = 0;
        while let Some(rest) = text.get(at..).filter(|r| !r.is_empty()) {
            let mut chars = rest.char_indices();
            let first = chars.next().map_or(rest.len(), |(_, c)| c.len_utf8());
            let len = chars.find(|&(_, c)| starts_piece(c)).map_or(rest.len(), |(i, _)| i).max(first);
            let piece = at..at + len;
            at += len;
            for c in rest.get(..len).unwrap_or_default().nfkc().default_case_fold() {
                if is_alnum(c) && !is_solo(c) {
                    if self.run.is_empty() {
                        span.start = piece.start;
                    }
                    self.run.push(c);
                    span.end = piece.end;
                    continue;
                }
                if !self.run.is_empty() {
                    f(&self.run, span.clone());
                    self.run.clear();
                }
                if is_alnum(c) {
                    f(c.encode_utf8(&mut solo), piece.clone());
                }
            }
        }
        if !self.run.is_empty() {
            f(&self.run, span);
            self.run.clear();
        }
    }
}

/// All tokens of `text` (convenience over [`Tokenizer::each`]).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    Tokenizer::default().each(text, |t| out.push(t.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::{tokenize, Tokenizer};

    /// Tokens of `each_with_offsets`, checked against `each`, with the text each range covers.
    fn with_offsets(text: &str) -> Vec<(String, String)> {
        let mut t = Tokenizer::default();
        let mut out = Vec::new();
        let mut last_start = 0;
        t.each_with_offsets(text, |tok, r| {
            assert!(r.start >= last_start && r.start < r.end, "{text:?}: {r:?} after {last_start}");
            last_start = r.start;
            let covered = text.get(r.clone()).unwrap_or_else(|| panic!("{text:?}: {r:?} is not a char range"));
            out.push((tok.to_string(), covered.to_string()));
        });
        let toks: Vec<String> = out.iter().map(|(t, _)| t.clone()).collect();
        assert_eq!(toks, tokenize(text), "{text:?}");
        out
    }

    #[test]
    fn offsets_give_the_same_tokens_and_point_at_their_source() {
        let pairs = |text: &str| with_offsets(text).into_iter().map(|(t, s)| format!("{t}={s}")).collect::<Vec<_>>();
        assert_eq!(pairs("The CNN.com Story_2"), ["the=The", "cnn=CNN", "com=com", "story=Story", "2=2"]);
        assert_eq!(pairs("Straße, ﬁne ÉCOLE"), ["strasse=Straße", "fine=ﬁne", "école=ÉCOLE"]);
        assert_eq!(pairs("Tokyo東京2024年, ß!"), ["tokyo=Tokyo", "東=東", "京=京", "2024=2024", "年=年", "ss=ß"]);
        // A decomposed accent composes with its letter: the token covers both code points.
        assert_eq!(pairs("cafe\u{301} noir"), ["café=cafe\u{301}", "noir=noir"]);
        // One source character, two tokens: both point at it.
        assert_eq!(pairs("x½y"), ["x1=x½", "2y=½y"]);
        assert_eq!(pairs("한국어 ＡＢＣ１２３ กิน"), ["한=한", "국=국", "어=어", "abc123=ＡＢＣ１２３", "ก=ก", "น=น"]);
        // Hangul jamo compose into a syllable across code points.
        assert_eq!(pairs("\u{1100}\u{1161}\u{11A8}"), ["각=\u{1100}\u{1161}\u{11A8}"]);
        assert!(pairs(" !!! ").is_empty());
        assert!(pairs("").is_empty());
    }

    #[test]
    fn offsets_agree_with_each_on_mixed_text() {
        // Tricky code points: marks, ligatures, compatibility forms, scripts, case folding.
        let alphabet: Vec<char> = "aZ9 ,.-'ßẞﬁﬀ½²ǅİıΣσςéE\u{301}\u{308}\u{327}\u{344}\u{FE0F}\u{200D}東京かカ한\u{1100}\u{1161}\u{11A8}กิ\u{E48}Ωω\u{212B}ÅⅣ①ｶﾞ\u{FF9E}ﷺ\u{1F600}\u{13A0}\u{AB70}"
            .chars()
            .collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..(seed % 12) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            with_offsets(&text);
        }
    }

    #[test]
    fn matches_the_reference_scorer_examples() {
        assert_eq!(
            tokenize("Hello, World! ÉCOLE ﬁne 123abc"),
            ["hello", "world", "école", "fine", "123abc"]
        );
        assert_eq!(tokenize("Tokyo東京2024年, ß!"), ["tokyo", "東", "京", "2024", "年", "ss"]);
        assert_eq!(tokenize("我爱北京"), ["我", "爱", "北", "京"]);
        assert_eq!(tokenize("ひらがな カタカナ"), ["ひ", "ら", "が", "な", "カ", "タ", "カ", "ナ"]);
        assert_eq!(tokenize("한국어 문장"), ["한", "국", "어", "문", "장"]);
        assert_eq!(tokenize("กิน"), ["ก", "น"]);
        assert_eq!(tokenize("ＡＢＣ１２３"), ["abc123"]);
        assert_eq!(tokenize("don't e-mail"), ["don", "t", "e", "mail"]);
        assert!(tokenize(" !!! ").is_empty());
    }

    #[test]
    fn ascii_fast_path_lowercases() {
        assert_eq!(tokenize("The CNN.com Story_2"), ["the", "cnn", "com", "story", "2"]);
    }
}
