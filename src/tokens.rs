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

use unicode_general_category::{get_general_category, GeneralCategory as Gc};
use unicode_normalization::UnicodeNormalization;

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
    /// forest::tokens::Tokenizer::default().each("Tokyo東京2024年, ß!", |t| toks.push(t.to_string()));
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
}

/// All tokens of `text` (convenience over [`Tokenizer::each`]).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    Tokenizer::default().each(text, |t| out.push(t.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::tokenize;

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
