//! Language: which stemmer and stop words a page's words get, and the [`Analyzer`] that turns
//! text into interned, stemmed, non-stop-word terms (the signifiers' terms and the index's).

use super::tokens::Tokenizer;
use rust_stemmers::{Algorithm, Stemmer};
use std::collections::{HashMap, HashSet};

/// An interned term (a stem).
pub type TermId = u32;

/// A language as far as term analysis cares: its code, stemmer and stop words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Language {
    /// ISO 639-1 code (`"en"`), or `"und"` when unknown.
    pub code: &'static str,
    stemmer: Option<Algorithm>,
}

/// ISO 639-1 and 639-3 codes of the languages with a Snowball stemmer.
const STEMMED: &[(&str, &str, Algorithm)] = &[
    ("ar", "ara", Algorithm::Arabic),
    ("da", "dan", Algorithm::Danish),
    ("nl", "nld", Algorithm::Dutch),
    ("en", "eng", Algorithm::English),
    ("fi", "fin", Algorithm::Finnish),
    ("fr", "fra", Algorithm::French),
    ("de", "deu", Algorithm::German),
    ("el", "ell", Algorithm::Greek),
    ("hu", "hun", Algorithm::Hungarian),
    ("it", "ita", Algorithm::Italian),
    ("no", "nob", Algorithm::Norwegian),
    ("nb", "nob", Algorithm::Norwegian),
    ("pt", "por", Algorithm::Portuguese),
    ("ro", "ron", Algorithm::Romanian),
    ("ru", "rus", Algorithm::Russian),
    ("es", "spa", Algorithm::Spanish),
    ("sv", "swe", Algorithm::Swedish),
    ("ta", "tam", Algorithm::Tamil),
    ("tr", "tur", Algorithm::Turkish),
];

/// Languages without a stemmer whose stop words we still know, by 639-1 and 639-3 code.
const UNSTEMMED: &[(&str, &str)] = &[
    ("zh", "cmn"), ("ja", "jpn"), ("ko", "kor"), ("pl", "pol"), ("cs", "ces"), ("uk", "ukr"),
    ("bg", "bul"), ("he", "heb"), ("hi", "hin"), ("fa", "pes"), ("id", "ind"), ("vi", "vie"),
    ("th", "tha"), ("ca", "cat"), ("hr", "hrv"), ("sk", "slk"), ("sl", "slv"), ("lt", "lit"),
    ("lv", "lav"), ("et", "est"),
];

impl Language {
    /// English, the default.
    pub const ENGLISH: Language = Language { code: "en", stemmer: Some(Algorithm::English) };

    /// The language of an ISO 639-1 or 639-3 code or a BCP 47 tag (`en-GB` → `en`).
    pub fn from_code(tag: &str) -> Option<Language> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        if let Some(&(code, _, alg)) = STEMMED.iter().find(|(a, b, _)| *a == primary || *b == primary) {
            return Some(Language { code, stemmer: Some(alg) });
        }
        UNSTEMMED
            .iter()
            .find(|(a, b)| *a == primary || *b == primary)
            .map(|&(code, _)| Language { code, stemmer: None })
    }

    /// Detect the language of a text sample (None when unsure).
    pub fn detect(text: &str) -> Option<Language> {
        let info = whatlang::detect(text)?;
        if !info.is_reliable() {
            return None;
        }
        Language::from_code(info.lang().code())
    }

    /// The language of a page: its `<html lang>`, else detected from `sample_text`.
    pub fn of_page(lang_attr: Option<&str>, sample_text: &str) -> Option<Language> {
        lang_attr.and_then(Language::from_code).or_else(|| Language::detect(sample_text))
    }
}

/// Turns text into interned, stemmed, non-stop-word terms.
pub struct Analyzer {
    language: Language,
    stemmer: Option<Stemmer>,
    stop: HashSet<&'static str>,
    tokenizer: Tokenizer,
    /// Token → its term (None for stop words).
    cache: HashMap<String, Option<TermId>>,
    /// Stem → its term.
    by_stem: HashMap<String, TermId>,
    terms: Vec<String>,
    numeric: Vec<bool>,
}

impl Analyzer {
    /// An analyzer for `language`.
    pub fn new(language: Language) -> Analyzer {
        let stop = stop_words::lookup(language.code).unwrap_or(&[]).iter().copied().collect();
        Analyzer {
            language,
            stemmer: language.stemmer.map(Stemmer::create),
            stop,
            tokenizer: Tokenizer::default(),
            cache: HashMap::new(),
            by_stem: HashMap::new(),
            terms: Vec::new(),
            numeric: Vec::new(),
        }
    }

    /// The language analyzed.
    pub fn language(&self) -> Language {
        self.language
    }

    /// Append the terms of `text` to `out`.
    pub fn terms(&mut self, text: &str, out: &mut Vec<TermId>) {
        // The tokenizer lends its buffers to this call only; the terms are the analyzer's.
        let mut tokenizer = std::mem::take(&mut self.tokenizer);
        tokenizer.each(text, |tok| {
            if let Some(id) = self.term_of(tok) {
                out.push(id);
            }
        });
        self.tokenizer = tokenizer;
    }

    /// The term of one token (as [`crate::text::tokens::Tokenizer`] gives it), `None` for a
    /// stop word. Terms are numbered in the order they are first met.
    pub fn term_of(&mut self, tok: &str) -> Option<TermId> {
        if let Some(id) = self.cache.get(tok) {
            return *id;
        }
        let id = if self.stop.contains(tok) {
            None
        } else {
            let stem = self.stemmer.as_ref().map_or(std::borrow::Cow::Borrowed(tok), |s| s.stem(tok));
            // Distinct tokens may share a stem: intern by stem.
            let id = match self.by_stem.get(stem.as_ref()) {
                Some(&id) => id,
                None => {
                    let id = self.terms.len() as TermId;
                    self.numeric.push(stem.chars().all(|c| c.is_ascii_digit()));
                    self.terms.push(stem.to_string());
                    self.by_stem.insert(stem.into_owned(), id);
                    id
                }
            };
            Some(id)
        };
        self.cache.insert(tok.to_string(), id);
        id
    }

    /// Let go of the memory of which term each token met so far was: [`Analyzer::terms`] still
    /// gives the same terms, looking tokens up again. For a caller done with tokenizing that
    /// keeps the terms (a sample of many pages met many tokens).
    pub fn forget_tokens(&mut self) {
        self.cache = HashMap::new();
    }

    /// The stem of a term.
    pub fn term(&self, id: TermId) -> &str {
        self.terms.get(id as usize).map_or("", String::as_str)
    }

    /// Is the term made of digits only (a date part, a count)?
    pub fn is_numeric(&self, id: TermId) -> bool {
        self.numeric.get(id as usize).copied().unwrap_or(false)
    }
}
