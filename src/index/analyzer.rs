//! Text analysis for the article index: the signifiers' analysis, as a tantivy tokenizer.
//!
//! A word is what [`crate::text::tokens`] says it is (NFKC, case folding, letter/digit runs, CJK
//! characters alone), so the index, the signifiers and the bench agree on words. Stop words of
//! the language are dropped and the rest Snowball-stemmed, as [`crate::text::Analyzer`]
//! does; a test keeps the two equal. Tokens keep their byte range in the original text
//! ([`crate::text::tokens::Tokenizer::each_with_offsets`]), which snippets highlight, and their
//! position counts dropped stop words, so phrases keep their gaps.
//!
//! A tantivy field has one analyzer, so each language of [`LANGUAGES`] has its own, registered
//! as `forest_<code>` by [`register`].

use crate::text::Language;
use rust_stemmers::{Algorithm, Stemmer};
use std::collections::HashSet;
use std::sync::Arc;
use tantivy::tokenizer::{Token, TokenStream, Tokenizer, TokenizerManager};

/// Languages with their own analyzer and fields, by code: those [`Language::from_code`] knows
/// (with a Snowball stemmer, or stop words only). Anything else is analyzed as English.
pub const LANGUAGES: &[&str] = &[
    "en", "ar", "da", "nl", "fi", "fr", "de", "el", "hu", "it", "no", "pt", "ro", "ru", "es", "sv", "ta", "tr", "zh",
    "ja", "ko", "pl", "cs", "uk", "bg", "he", "hi", "fa", "id", "vi", "th", "ca", "hr", "sk", "sl", "lt", "lv", "et",
];

/// Words longer than this (bytes) are not indexed: base64 blobs and run-together junk.
pub const MAX_TOKEN_BYTES: usize = 255;

/// The Snowball algorithm of a language code, as [`crate::signifiers`] chooses it.
fn algorithm(code: &str) -> Option<Algorithm> {
    Some(match code {
        "ar" => Algorithm::Arabic,
        "da" => Algorithm::Danish,
        "nl" => Algorithm::Dutch,
        "en" => Algorithm::English,
        "fi" => Algorithm::Finnish,
        "fr" => Algorithm::French,
        "de" => Algorithm::German,
        "el" => Algorithm::Greek,
        "hu" => Algorithm::Hungarian,
        "it" => Algorithm::Italian,
        "no" => Algorithm::Norwegian,
        "pt" => Algorithm::Portuguese,
        "ro" => Algorithm::Romanian,
        "ru" => Algorithm::Russian,
        "es" => Algorithm::Spanish,
        "sv" => Algorithm::Swedish,
        "ta" => Algorithm::Tamil,
        "tr" => Algorithm::Turkish,
        _ => return None,
    })
}

/// The name of a language's analyzer in the index (`forest_en`).
pub fn analyzer_name(code: &str) -> String {
    format!("forest_{code}")
}

/// The language an article is indexed in: its declared `lang` if we know it, else the one
/// detected from `sample`, else English; always one of [`LANGUAGES`].
pub fn language_of(lang: Option<&str>, sample: &str) -> &'static str {
    let code = Language::of_page(lang, sample).map_or("en", |l| l.code);
    LANGUAGES.iter().copied().find(|&c| c == code).unwrap_or("en")
}

/// Register the analyzer of every language of [`LANGUAGES`] in `manager`.
pub fn register(manager: &TokenizerManager) {
    for &code in LANGUAGES {
        manager.register(&analyzer_name(code), ArticleTokenizer::new(code));
    }
}

/// The tantivy tokenizer of one language: crate tokens, minus stop words, stemmed.
pub struct ArticleTokenizer {
    stop: Arc<HashSet<&'static str>>,
    stemmer: Option<Algorithm>,
    words: crate::text::tokens::Tokenizer,
    /// The tokens of the last text; only the first `len` are live (their strings are reused).
    tokens: Vec<Token>,
    len: usize,
}

impl Clone for ArticleTokenizer {
    fn clone(&self) -> Self {
        ArticleTokenizer {
            stop: Arc::clone(&self.stop),
            stemmer: self.stemmer,
            words: crate::text::tokens::Tokenizer::default(),
            tokens: Vec::new(),
            len: 0,
        }
    }
}

impl ArticleTokenizer {
    /// The analyzer of a language code (stop words and stemmer of [`crate::signifiers`]; a code
    /// with neither only tokenizes).
    pub fn new(code: &str) -> ArticleTokenizer {
        let stop = stop_words::lookup(code).unwrap_or(&[]).iter().copied().collect();
        ArticleTokenizer {
            stop: Arc::new(stop),
            stemmer: algorithm(code),
            words: crate::text::tokens::Tokenizer::default(),
            tokens: Vec::new(),
            len: 0,
        }
    }

    /// The terms of `text`, in order (what the index holds for it).
    pub fn terms(&mut self, text: &str) -> Vec<String> {
        let mut stream = self.token_stream(text);
        let mut out = Vec::new();
        while stream.advance() {
            out.push(stream.token().text.clone());
        }
        out
    }
}

impl Tokenizer for ArticleTokenizer {
    type TokenStream<'a> = ArticleTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> ArticleTokenStream<'a> {
        let ArticleTokenizer { stop, stemmer, words, tokens, len } = self;
        let stemmer = stemmer.map(Stemmer::create);
        *len = 0;
        let mut position = 0;
        words.each_with_offsets(text, |word, range| {
            position += 1;
            if word.len() > MAX_TOKEN_BYTES || stop.contains(word) {
                return;
            }
            if tokens.len() == *len {
                tokens.push(Token::default());
            }
            if let Some(token) = tokens.get_mut(*len) {
                token.text.clear();
                match &stemmer {
                    Some(s) => token.text.push_str(&s.stem(word)),
                    None => token.text.push_str(word),
                }
                token.offset_from = range.start;
                token.offset_to = range.end;
                token.position = position - 1;
                token.position_length = 1;
                *len += 1;
            }
        });
        ArticleTokenStream { tokens: tokens.get_mut(..*len).unwrap_or_default(), next: 0, spare: Token::default() }
    }
}

/// The tokens of one text, from [`ArticleTokenizer`].
pub struct ArticleTokenStream<'a> {
    tokens: &'a mut [Token],
    /// 1 + the index of the current token (0 before the first `advance`).
    next: usize,
    /// What `token` shows before the first `advance` or after the last.
    spare: Token,
}

impl TokenStream for ArticleTokenStream<'_> {
    fn advance(&mut self) -> bool {
        if self.next < self.tokens.len() {
            self.next += 1;
            true
        } else {
            false
        }
    }

    fn token(&self) -> &Token {
        self.next.checked_sub(1).and_then(|i| self.tokens.get(i)).unwrap_or(&self.spare)
    }

    fn token_mut(&mut self) -> &mut Token {
        match self.next.checked_sub(1).and_then(|i| self.tokens.get_mut(i)) {
            Some(t) => t,
            None => &mut self.spare,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Analyzer;

    #[test]
    fn every_language_is_one_signifiers_knows() {
        for &code in LANGUAGES {
            assert_eq!(Language::from_code(code).map(|l| l.code), Some(code), "{code}");
        }
        assert_eq!(language_of(Some("fr-CA"), ""), "fr");
        assert_eq!(language_of(Some("xx"), "Der Fluss ist breit und die Brücke ist alt, sagen die Leute hier."), "de");
        assert_eq!(language_of(None, ""), "en");
    }

    /// The index's terms are the signifiers' terms, in every language.
    #[test]
    fn terms_equal_the_signifiers_analyzer() {
        let samples = [
            ("en", "The bridges were closed; the runners kept running over the river."),
            ("fr", "Les ponts de la ville étaient fermés, et les coureurs couraient le long du fleuve."),
            ("de", "Die Brücken der Stadt waren geschlossen, die Läufer liefen am Fluss entlang. Straße!"),
            ("es", "Los puentes de la ciudad estaban cerrados y los corredores corrían junto al río."),
            ("ru", "Мосты города были закрыты, а бегуны бежали вдоль реки."),
            ("zh", "我爱北京天安门，城市的桥梁关闭了。"),
            ("pl", "Mosty w mieście były zamknięte, a biegacze biegli wzdłuż rzeki."),
        ];
        for (code, text) in samples {
            let lang = Language::from_code(code).expect("known code");
            let mut a = Analyzer::new(lang);
            let mut ids = Vec::new();
            a.terms(text, &mut ids);
            let expected: Vec<&str> = ids.iter().map(|&t| a.term(t)).collect();
            assert_eq!(ArticleTokenizer::new(code).terms(text), expected, "{code}");
        }
    }

    #[test]
    fn tokens_point_into_the_text_and_count_stop_words() {
        let text = "The Bridges of the ﬁne city";
        let mut t = ArticleTokenizer::new("en");
        let mut stream = t.token_stream(text);
        let mut seen = Vec::new();
        while stream.advance() {
            let tok = stream.token();
            seen.push((tok.text.clone(), &text[tok.offset_from..tok.offset_to], tok.position));
        }
        assert_eq!(seen, [("bridg".into(), "Bridges", 1), ("fine".into(), "ﬁne", 4), ("citi".into(), "city", 5)]);
        assert!(!stream.advance());
        // Reused buffers: a shorter text after a longer one.
        assert_eq!(t.terms("Rivers"), ["river"]);
        assert_eq!(t.terms(&"x".repeat(MAX_TOKEN_BYTES + 1)), Vec::<String>::new());
    }
}
