//! Search: a query in tantivy's syntax over every language's fields, ranked hits with a
//! snippet each, the query's words marked `«` `»` in it.

use super::{tantivy_error, Article, ArticleIndex, Fields};
use crate::Result;
use std::ops::Range;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query, QueryParser, TermQuery};
use tantivy::schema::{IndexRecordOption, Value};
use tantivy::snippet::{collapse_overlapped_ranges, SnippetGenerator};
use tantivy::{Searcher, TantivyDocument, Term};

/// Longest snippet, in bytes of the article's text.
pub const SNIPPET_BYTES: usize = 200;

/// One search result.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Hit {
    /// BM25 relevance (higher is better).
    pub score: f32,
    /// The article's URL.
    pub url: String,
    /// Its host (lowercase).
    pub host: String,
    /// Its title.
    pub title: String,
    /// Its publication date, as declared.
    pub published: Option<String>,
    /// Up to [`SNIPPET_BYTES`] of the text around the query's terms, each matched word inside
    /// `«` and `»` (plain text, not HTML: escape it to show it in a page). When no query word
    /// is in the text (a title-only match), the title's snippet, else the text's start.
    pub snippet: String,
    /// The snippet's text without marks.
    pub fragment: String,
    /// Byte ranges of the matched words in `fragment`, in order, not overlapping.
    pub highlighted: Vec<Range<usize>>,
}

impl ArticleIndex {
    /// The best `limit` articles for `query`, with a snippet each; only those of `host` when
    /// given.
    ///
    /// `query` is in tantivy's syntax: words (any of them), `"a phrase"`, `AND`, `OR`,
    /// `-excluded`, `+required`, `field:word`. Each word is matched in the fields of every
    /// language the index holds, analyzed as that language; title matches weigh double. A query that does not
    /// parse is read leniently (what parses is kept) rather than refused. A blank query finds
    /// nothing.
    ///
    /// # Errors
    /// [`crate::Error::Index`] when the index cannot be read, or is damaged.
    pub fn search(&self, query: &str, limit: usize, host: Option<&str>) -> Result<Vec<Hit>> {
        super::guard_damage(self.path(), || self.search_unguarded(query, limit, host))
    }

    fn search_unguarded(&self, query: &str, limit: usize, host: Option<&str>) -> Result<Vec<Hit>> {
        let searcher = self.reader.searcher();
        // No more hits than the index holds articles: a larger limit asks for nothing more (and
        // tantivy sizes its heap by the limit).
        let limit = limit.min(usize::try_from(searcher.num_docs()).unwrap_or(usize::MAX));
        if limit == 0 {
            return Ok(Vec::new());
        }
        let err = |e| tantivy_error(&self.path, e);
        let parser = self.parser(&searcher).map_err(err)?;
        let parsed = match parser.parse_query(query) {
            Ok(q) => q,
            Err(_) => parser.parse_query_lenient(query).0,
        };
        let query: Box<dyn Query> = match host {
            Some(h) => {
                let term = Term::from_field_text(self.fields.host, &h.trim().to_lowercase());
                let filter = ConstScoreQuery::new(Box::new(TermQuery::new(term, IndexRecordOption::Basic)), 0.0);
                Box::new(BooleanQuery::new(vec![(Occur::Must, parsed), (Occur::Must, Box::new(filter))]))
            }
            None => parsed,
        };
        let top = searcher.search(&*query, &TopDocs::with_limit(limit)).map_err(err)?;
        let mut snippets = Snippets { searcher: &searcher, query: &*query, fields: &self.fields, made: Vec::new() };
        let mut hits = Vec::with_capacity(top.len());
        for (score, address) in top {
            let d: TantivyDocument = searcher.doc(address).map_err(err)?;
            let code = d.get_first(self.fields.analyzed_as).and_then(|v| v.as_str()).unwrap_or("en");
            let a = self.fields.article(&d);
            let (fragment, highlighted) = snippets.of(code, &a).map_err(err)?;
            hits.push(Hit {
                score,
                snippet: mark(&fragment, &highlighted),
                fragment,
                highlighted,
                url: a.key().to_string(),
                host: a.host.clone().unwrap_or_default(),
                title: a.title,
                published: a.published,
            });
        }
        Ok(hits)
    }

    /// A query parser over the title and text fields of the languages the index holds (a
    /// word looked up in the 38 languages' empty fields costs as much as in full ones).
    fn parser(&self, searcher: &Searcher) -> tantivy::Result<QueryParser> {
        let mut fields = Vec::new();
        let mut titles = Vec::new();
        for &(code, title, text) in &self.fields.by_language {
            if searcher.doc_freq(&Term::from_field_text(self.fields.analyzed_as, code))? > 0 {
                fields.extend([title, text]);
                titles.push(title);
            }
        }
        let mut parser = QueryParser::new(self.index.schema(), fields, self.index.tokenizers().clone());
        for title in titles {
            parser.set_field_boost(title, 2.0);
        }
        Ok(parser)
    }
}

/// Snippet generators of one search, made per language as hits need them.
struct Snippets<'a> {
    searcher: &'a Searcher,
    query: &'a dyn Query,
    fields: &'a Fields,
    /// (language code, generator on its text field, generator on its title field).
    made: Vec<(String, SnippetGenerator, SnippetGenerator)>,
}

impl Snippets<'_> {
    /// The snippet of article `a`, indexed in language `code`: fragment and highlighted ranges.
    fn of(&mut self, code: &str, a: &Article) -> tantivy::Result<(String, Vec<Range<usize>>)> {
        let at = match self.made.iter().position(|(c, _, _)| c == code) {
            Some(at) => at,
            None => {
                let Some((title, text)) = self.fields.of_language(code) else {
                    return Ok((start_of(&a.text), Vec::new()));
                };
                let generator = |field| -> tantivy::Result<SnippetGenerator> {
                    let mut g = SnippetGenerator::create(self.searcher, self.query, field)?;
                    g.set_max_num_chars(SNIPPET_BYTES);
                    Ok(g)
                };
                self.made.push((code.to_string(), generator(text)?, generator(title)?));
                self.made.len() - 1
            }
        };
        let Some((_, text, title)) = self.made.get(at) else {
            return Ok((start_of(&a.text), Vec::new()));
        };
        for (generator, source) in [(text, &a.text), (title, &a.title)] {
            let snippet = generator.snippet(source);
            if !snippet.is_empty() {
                let highlighted = collapse_overlapped_ranges(snippet.highlighted());
                return Ok((snippet.fragment().to_string(), highlighted));
            }
        }
        Ok((start_of(&a.text), Vec::new()))
    }
}

/// The first [`SNIPPET_BYTES`] of `text`, cut between words when possible.
fn start_of(text: &str) -> String {
    let text = text.trim_start();
    if text.len() <= SNIPPET_BYTES {
        return text.to_string();
    }
    let cut = (0..=SNIPPET_BYTES).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let head = text.get(..cut).unwrap_or_default();
    match head.rfind(char::is_whitespace) {
        Some(space) if space > SNIPPET_BYTES / 2 => head.get(..space).unwrap_or(head).to_string(),
        _ => head.to_string(),
    }
}

/// `fragment` with each highlighted range inside `«` `»`.
fn mark(fragment: &str, highlighted: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(fragment.len() + 4 * highlighted.len());
    let mut at = 0;
    for r in highlighted {
        let (Some(before), Some(word)) = (fragment.get(at..r.start), fragment.get(r.clone())) else {
            continue;
        };
        out.push_str(before);
        out.push('«');
        out.push_str(word);
        out.push('»');
        at = r.end;
    }
    out.push_str(fragment.get(at..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::tests::{article, built, three};

    fn urls(hits: &[Hit]) -> Vec<&str> {
        hits.iter().map(|h| h.url.as_str()).collect()
    }

    #[test]
    fn finds_each_language_stemmed_with_a_marked_snippet() {
        let (_dir, index) = built(&three());
        assert_eq!(index.len(), 3);
        let hits = index.search("bridges", 10, None).expect("search");
        assert_eq!(urls(&hits), ["https://news.example/en/bridge"]);
        assert!(hits[0].snippet.contains("«bridge»"), "{}", hits[0].snippet);
        assert_eq!(hits[0].title, "Elm Street Bridge to Close");
        assert_eq!(hits[0].published.as_deref(), Some("2024-05-01"));
        let r = hits[0].highlighted[0].clone();
        assert_eq!(&hits[0].fragment[r], "bridge");

        let hits = index.search("pont", 10, None).expect("search");
        assert_eq!(urls(&hits), ["https://presse.example/fr/ponts"]);
        assert!(hits[0].snippet.contains("«ponts»"), "{}", hits[0].snippet);
        // German, detected: `Straße` folds to `strasse`, `Flüsse` stems to `fluss`.
        let hits = index.search("strasse Flüsse", 10, None).expect("search");
        assert_eq!(urls(&hits), ["https://zeitung.example/de/fluss"]);
        assert!(hits[0].snippet.contains("«Fluss»") && hits[0].snippet.contains("«Straßen»"), "{}", hits[0].snippet);
    }

    #[test]
    fn stop_words_match_nothing_and_queries_combine() {
        let (_dir, index) = built(&three());
        assert!(index.search("the", 10, None).expect("search").is_empty());
        assert!(index.search("les de la", 10, None).expect("search").is_empty());
        assert!(index.search("", 10, None).expect("search").is_empty());
        assert_eq!(index.search("bridge OR pont", 10, None).expect("search").len(), 2);
        assert!(index.search("bridge AND pont", 10, None).expect("search").is_empty());
        assert_eq!(urls(&index.search("\"old bridge\"", 10, None).expect("search")), ["https://news.example/en/bridge"]);
        assert!(index.search("\"bridge old\"", 10, None).expect("search").is_empty());
        assert!(index.search("bridge -ferry", 10, None).expect("search").is_empty());
        // Unbalanced syntax is read leniently.
        assert_eq!(urls(&index.search("\"bridge AND (", 10, None).expect("search")), ["https://news.example/en/bridge"]);
        assert!(index.search("bridge", 0, None).expect("search").is_empty());
    }

    #[test]
    fn title_only_matches_snippet_the_title() {
        let (_dir, index) = built(&three());
        let hits = index.search("elm", 10, None).expect("search");
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].snippet, "«Elm» Street Bridge to Close");
    }

    #[test]
    fn host_filter() {
        let mut arts = three();
        arts.push(article("https://other.example/bridge", Some("en"), "Another bridge", "A bridge elsewhere."));
        let (_dir, index) = built(&arts);
        assert_eq!(index.search("bridge", 10, None).expect("search").len(), 2);
        let hits = index.search("bridge", 10, Some("News.Example")).expect("search");
        assert_eq!(urls(&hits), ["https://news.example/en/bridge"]);
        assert!(index.search("pont", 10, Some("news.example")).expect("search").is_empty());
    }

    #[test]
    fn marks_and_cuts() {
        assert_eq!(mark("a bc d ef", &[2..4, 7..9]), "a «bc» d «ef»");
        // Ranges that do not fall on characters are left unmarked.
        assert_eq!(mark("é x", &[0..1, 3..4]), "é «x»");
        let long = "word ".repeat(100);
        let s = start_of(&long);
        assert!(s.len() <= SNIPPET_BYTES && s.ends_with("word"), "{s}");
        assert_eq!(start_of(&"é".repeat(150)).len(), SNIPPET_BYTES);
    }
}
