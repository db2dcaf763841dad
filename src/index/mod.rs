//! Archive and search extracted articles: a tantivy full-text index in a folder.
//!
//! An [`Article`] is what extraction found on a page, with where it came from. An
//! [`ArticleIndex`] keeps them by URL (re-adding a URL replaces its article) and answers
//! queries with ranked [`Hit`]s, each with a highlighted snippet.
//!
//! Words are analyzed as the signifiers analyze them ([`analyzer`]): the crate's tokens, minus
//! the language's stop words, Snowball-stemmed. A tantivy field has one analyzer, so each
//! language of [`analyzer::LANGUAGES`] has its own pair of indexed fields (`title_en`/`text_en`,
//! `title_fr`/`text_fr`, …) and an article goes to the pair of its language (declared `lang`,
//! else detected, else English). A query is parsed against the fields of every language the
//! index holds (titles count double), each side stemmed its own way, so `bridges` finds
//! `bridge` and `ponts` finds `pont`. Title and text are stored once, in plain stored fields.
//!
//! Writes go through an [`ArticleWriter`], which commits every `batch` articles. A tantivy
//! commit is atomic: a process killed at any moment leaves an index that opens and holds the
//! articles of its last commit, whole; adding the same articles again completes it without
//! duplicates. The writer's lock is an OS file lock, released when its process dies.
//!
//! | field | kind | |
//! |---|---|---|
//! | `url` | raw string, stored | the key |
//! | `host` | raw string (lowercase), stored | `host` filter of [`ArticleIndex::search`] |
//! | `title`, `text` | stored | what hits and snippets show |
//! | `title_<lang>`, `text_<lang>` | text, positions, analyzer `forest_<lang>` | what queries match |
//! | `published`, `lang` | raw string, stored | as declared |
//! | `analyzed_as` | raw string, stored | the language whose fields hold the article |
//! | `xpath` | stored | the wrapper that extracted it |
//! | `meta` | stored JSON | byline, page type, confidence, and what else the page declares ([`crate::article::Meta`]); absent from indexes made before it, which open as they are |
//! | `extracted_at` | i64, stored, fast | unix seconds |

pub mod analyzer;
mod search;
mod writer;

pub use search::{Hit, SNIPPET_BYTES};
pub use writer::ArticleWriter;

use crate::{Error, Result};
use std::path::{Path, PathBuf};
use tantivy::collector::TopDocs;
use tantivy::directory::error::LockError;
use tantivy::directory::MmapDirectory;
use tantivy::query::TermQuery;
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, Value, STORED, STRING,
};
use tantivy::tokenizer::TokenizerManager;
use tantivy::{Index, IndexReader, ReloadPolicy, TantivyDocument, TantivyError, Term};

/// Articles per commit when [`ArticleIndex::writer`] is given 0.
pub const DEFAULT_BATCH: usize = 256;

/// Longest URL the index keys on, in bytes.
pub const MAX_URL_BYTES: usize = 8192;

pub use crate::article::Article;


/// The schema's fields.
#[derive(Clone)]
struct Fields {
    url: Field,
    host: Field,
    title: Field,
    text: Field,
    published: Field,
    lang: Field,
    analyzed_as: Field,
    xpath: Field,
    extracted_at: Field,
    /// The article's other metadata, as JSON (`None` in an index made before the field).
    meta: Option<Field>,
    /// (language code, title field, text field), in [`analyzer::LANGUAGES`] order.
    by_language: Vec<(&'static str, Field, Field)>,
}

impl Fields {
    fn schema() -> (Schema, Fields) {
        let mut b = Schema::builder();
        let indexed = |code: &str| {
            TextOptions::default().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer(&analyzer::analyzer_name(code))
                    .set_index_option(IndexRecordOption::WithFreqsAndPositions),
            )
        };
        let url = b.add_text_field("url", STRING | STORED);
        let host = b.add_text_field("host", STRING | STORED);
        let title = b.add_text_field("title", STORED);
        let text = b.add_text_field("text", STORED);
        let published = b.add_text_field("published", STRING | STORED);
        let lang = b.add_text_field("lang", STRING | STORED);
        let analyzed_as = b.add_text_field("analyzed_as", STRING | STORED);
        let xpath = b.add_text_field("xpath", STORED);
        let extracted_at =
            b.add_i64_field("extracted_at", NumericOptions::default().set_stored().set_fast().set_indexed());
        let meta = Some(b.add_text_field("meta", STORED));
        let by_language = analyzer::LANGUAGES
            .iter()
            .map(|&code| {
                let t = b.add_text_field(&format!("title_{code}"), indexed(code));
                let x = b.add_text_field(&format!("text_{code}"), indexed(code));
                (code, t, x)
            })
            .collect();
        let fields = Fields { url, host, title, text, published, lang, analyzed_as, xpath, extracted_at, meta, by_language };
        (b.build(), fields)
    }

    /// The fields of an index's own `schema`, found by name (an index made before a field was
    /// added lacks it); `None` when one the index needs is missing.
    fn of(schema: &Schema) -> Option<Fields> {
        let f = |name: &str| schema.get_field(name).ok();
        let by_language = analyzer::LANGUAGES
            .iter()
            .map(|&code| Some((code, f(&format!("title_{code}"))?, f(&format!("text_{code}"))?)))
            .collect::<Option<Vec<_>>>()?;
        Some(Fields {
            url: f("url")?,
            host: f("host")?,
            title: f("title")?,
            text: f("text")?,
            published: f("published")?,
            lang: f("lang")?,
            analyzed_as: f("analyzed_as")?,
            xpath: f("xpath")?,
            extracted_at: f("extracted_at")?,
            meta: f("meta"),
            by_language,
        })
    }

    /// The (title, text) fields of a language code of [`analyzer::LANGUAGES`] (English's else).
    fn of_language(&self, code: &str) -> Option<(Field, Field)> {
        let found = self.by_language.iter().find(|(c, _, _)| *c == code);
        found.or_else(|| self.by_language.first()).map(|&(_, t, x)| (t, x))
    }

    /// The document of an article.
    fn document(&self, a: &Article) -> TantivyDocument {
        let mut sample: &str = &a.text;
        if sample.len() > 4096 {
            let cut = (0..=4096).rev().find(|&i| sample.is_char_boundary(i)).unwrap_or(0);
            sample = sample.get(..cut).unwrap_or_default();
        }
        let code = analyzer::language_of(a.lang.as_deref(), &format!("{}\n{sample}", a.title));
        let mut d = TantivyDocument::new();
        d.add_text(self.url, a.key());
        d.add_text(self.host, host_of(a));
        d.add_text(self.title, &a.title);
        d.add_text(self.text, &a.text);
        if let Some(p) = &a.published {
            d.add_text(self.published, p);
        }
        if let Some(l) = &a.lang {
            d.add_text(self.lang, l);
        }
        d.add_text(self.analyzed_as, code);
        d.add_text(self.xpath, &a.xpath);
        d.add_i64(self.extracted_at, a.extracted_at);
        if let Some(meta) = self.meta {
            let json = serde_json::json!({"byline": a.byline, "page_type": a.page_type, "confidence": a.confidence, "meta": a.meta});
            d.add_text(meta, json.to_string());
        }
        if let Some((title, text)) = self.of_language(code) {
            d.add_text(title, &a.title);
            d.add_text(text, &a.text);
        }
        d
    }

    /// The article of a stored document.
    fn article(&self, d: &TantivyDocument) -> Article {
        let text = |f: Field| d.get_first(f).and_then(|v| v.as_str()).map(str::to_string);
        /// What the `meta` field keeps.
        #[derive(serde::Deserialize)]
        struct Stored {
            byline: Option<String>,
            page_type: Option<crate::metadata::PageType>,
            #[serde(default)]
            confidence: f64,
            #[serde(default)]
            meta: crate::article::Meta,
        }
        let stored: Option<Stored> = self.meta.and_then(text).and_then(|j| serde_json::from_str(&j).ok());
        Article {
            url: text(self.url),
            host: text(self.host),
            title: text(self.title).unwrap_or_default(),
            text: text(self.text).unwrap_or_default(),
            published: text(self.published),
            lang: text(self.lang),
            xpath: text(self.xpath).unwrap_or_default(),
            extracted_at: d.get_first(self.extracted_at).and_then(|v| v.as_i64()).unwrap_or_default(),
            byline: stored.as_ref().and_then(|m| m.byline.clone()),
            page_type: stored.as_ref().and_then(|m| m.page_type),
            confidence: stored.as_ref().map_or(0.0, |m| m.confidence),
            meta: stored.map(|m| m.meta).unwrap_or_default(),
            ..Article::default()
        }
    }
}

/// The host an article is filed under: its `host`, else its URL's, lowercase.
fn host_of(a: &Article) -> String {
    let host = a.host.as_deref().unwrap_or_default().trim();
    if !host.is_empty() {
        return host.to_lowercase();
    }
    url::Url::parse(a.key()).ok().and_then(|u| u.host_str().map(str::to_lowercase)).unwrap_or_default()
}

/// Run `f` on the index at `path`, a panic inside tantivy (which some damaged files cause:
/// a flipped byte in a term dictionary or a fast field) becoming an [`Error::Index`] that
/// says the index is damaged.
fn guard_damage<T>(path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    quiet_panics::install();
    let _quiet = quiet_panics::Quiet::new();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(index_error(path, "is damaged (a file of it does not read back): rebuild it from its articles, or restore a copy"))
    })
}

/// Panics that [`guard_damage`] turns into an error are not printed: the error says what
/// happened, and the panic's raw text (a tantivy assertion) would only confuse. A panic hook,
/// installed once, stays silent on a thread while a [`Quiet`] lives there and passes every
/// other panic to the hook it replaced.
mod quiet_panics {
    use std::cell::Cell;

    thread_local! {
        static QUIET: Cell<u32> = const { Cell::new(0) };
    }

    /// Install the hook (once per process).
    pub(super) fn install() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if QUIET.with(Cell::get) == 0 {
                    previous(info);
                }
            }));
        });
    }

    /// While it lives, panics on this thread are not printed.
    pub(super) struct Quiet;

    impl Quiet {
        pub(super) fn new() -> Quiet {
            QUIET.with(|q| q.set(q.get() + 1));
            Quiet
        }
    }

    impl Drop for Quiet {
        fn drop(&mut self) {
            QUIET.with(|q| q.set(q.get().saturating_sub(1)));
        }
    }
}

/// An [`Error::Index`] about `path`.
fn index_error(path: &Path, message: impl Into<String>) -> Error {
    Error::Index { path: path.to_path_buf(), message: message.into() }
}

/// A tantivy error as an [`Error::Index`], saying what to do where we know.
fn tantivy_error(path: &Path, e: TantivyError) -> Error {
    let message = match &e {
        TantivyError::LockFailure(LockError::LockBusy, _) => {
            "another writer has this index open (in this process or another): one writer at a time; wait for it to \
             finish"
                .to_string()
        }
        TantivyError::SchemaError(m) => format!(
            "holds an index with other fields ({m}): it was made by another program or another version of forest; \
             use another folder, or delete this one to rebuild it"
        ),
        TantivyError::DataCorruption(_) | TantivyError::IncompatibleIndex(_) => {
            format!("the index is damaged or from another tantivy version ({e}): delete the folder and rebuild it")
        }
        _ => e.to_string(),
    };
    index_error(path, message)
}

/// A folder of archived articles, searchable.
pub struct ArticleIndex {
    path: PathBuf,
    index: Index,
    reader: IndexReader,
    fields: Fields,
}

impl std::fmt::Debug for ArticleIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArticleIndex").field("path", &self.path).finish_non_exhaustive()
    }
}

impl ArticleIndex {
    /// Open the index in folder `dir`, creating the folder and the index on first use.
    ///
    /// # Example
    /// ```
    /// use forest::index::{Article, ArticleIndex};
    /// let dir = tempfile::tempdir()?;
    /// let index = ArticleIndex::open_or_create(dir.path())?;
    /// let mut writer = index.writer(0)?;
    /// writer.add(&Article {
    ///     url: Some("https://news.example/bridge".into()),
    ///     title: "Elm Street Bridge to Close".into(),
    ///     text: "The old bridge over the river closes for repairs on Monday.".into(),
    ///     ..Article::default()
    /// })?;
    /// writer.finish()?;
    /// let hits = index.search("bridges", 10, None)?;
    /// assert_eq!(hits[0].url, "https://news.example/bridge");
    /// assert_eq!(hits[0].snippet, "The old «bridge» over the river closes for repairs on Monday");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Io`] when the folder cannot be made or read; [`Error::Index`] when it holds
    /// files but no index, an index forest did not make, or a damaged one.
    pub fn open_or_create(dir: &Path) -> Result<ArticleIndex> {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io { path: dir.to_path_buf(), source })?;
        let directory = MmapDirectory::open(dir).map_err(|e| tantivy_error(dir, e.into()))?;
        if !Index::exists(&directory).map_err(|e| tantivy_error(dir, e.into()))? {
            let entries = std::fs::read_dir(dir).map_err(|source| Error::Io { path: dir.to_path_buf(), source })?;
            let junk = entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .find(|name| !name.starts_with(".tantivy-"));
            if let Some(name) = junk {
                return Err(index_error(
                    dir,
                    format!(
                        "is not empty ({name} …) and holds no article index (no meta.json): give an empty or new \
                         folder"
                    ),
                ));
            }
        }
        ArticleIndex::from_directory(dir, directory)
    }

    /// Open the existing index in folder `dir` (a shard to merge, say).
    ///
    /// # Errors
    /// [`Error::Index`] when `dir` holds no index, or one forest did not make.
    pub fn open(dir: &Path) -> Result<ArticleIndex> {
        guard_damage(dir, || ArticleIndex::open_unguarded(dir))
    }

    fn open_unguarded(dir: &Path) -> Result<ArticleIndex> {
        let directory = MmapDirectory::open(dir).map_err(|e| tantivy_error(dir, e.into()))?;
        if !Index::exists(&directory).map_err(|e| tantivy_error(dir, e.into()))? {
            return Err(index_error(dir, "holds no article index (no meta.json): check the path"));
        }
        ArticleIndex::from_directory(dir, directory)
    }

    fn from_directory(dir: &Path, directory: MmapDirectory) -> Result<ArticleIndex> {
        let (schema, _) = Fields::schema();
        let tokenizers = TokenizerManager::default();
        analyzer::register(&tokenizers);
        let index = match Index::builder().schema(schema).tokenizers(tokenizers.clone()).open_or_create(directory.clone()) {
            Ok(index) => index,
            // An index made before a field was added opens with its own fields.
            Err(TantivyError::SchemaError(m)) => {
                let mut index = Index::open(directory).map_err(|e| tantivy_error(dir, e))?;
                if Fields::of(&index.schema()).is_none() {
                    return Err(tantivy_error(dir, TantivyError::SchemaError(m)));
                }
                index.set_tokenizers(tokenizers);
                index
            }
            Err(e) => return Err(tantivy_error(dir, e)),
        };
        let fields = Fields::of(&index.schema()).ok_or_else(|| tantivy_error(dir, TantivyError::SchemaError("fields are missing".into())))?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| tantivy_error(dir, e))?;
        Ok(ArticleIndex { path: dir.to_path_buf(), index, reader, fields })
    }

    /// The index's folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// See the commits made since the last look by writers of other [`ArticleIndex`] values or
    /// other processes.
    ///
    /// # Errors
    /// [`Error::Index`] when the index cannot be read.
    pub fn refresh(&self) -> Result<()> {
        self.reader.reload().map_err(|e| tantivy_error(&self.path, e))
    }

    /// The number of articles (committed, live).
    pub fn len(&self) -> usize {
        usize::try_from(self.reader.searcher().num_docs()).unwrap_or(usize::MAX)
    }

    /// Does the index hold no article?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The article of `url`, if archived.
    ///
    /// # Errors
    /// [`Error::Index`] when the index cannot be read.
    pub fn get(&self, url: &str) -> Result<Option<Article>> {
        let searcher = self.reader.searcher();
        let query = TermQuery::new(Term::from_field_text(self.fields.url, url), IndexRecordOption::Basic);
        let top = searcher.search(&query, &TopDocs::with_limit(1)).map_err(|e| tantivy_error(&self.path, e))?;
        match top.first() {
            Some(&(_, address)) => {
                let d: TantivyDocument = searcher.doc(address).map_err(|e| tantivy_error(&self.path, e))?;
                Ok(Some(self.fields.article(&d)))
            }
            None => Ok(None),
        }
    }

    /// Call `f` with every article, in index order; stops at the first error `f` returns.
    /// Returns how many articles were seen.
    ///
    /// # Errors
    /// [`Error::Index`] when the index cannot be read; `f`'s errors.
    pub fn for_each(&self, mut f: impl FnMut(Article) -> Result<()>) -> Result<usize> {
        let searcher = self.reader.searcher();
        let mut seen = 0;
        for segment in searcher.segment_readers() {
            let store = segment.get_store_reader(8).map_err(|e| tantivy_error(&self.path, e.into()))?;
            for doc in segment.doc_ids_alive() {
                let d: TantivyDocument = store.get(doc).map_err(|e| tantivy_error(&self.path, e))?;
                f(self.fields.article(&d))?;
                seen += 1;
            }
        }
        Ok(seen)
    }

    /// Add every article of the index in `other` (a shard) to this one, replacing those with
    /// the same URL; returns how many were added. Commits when done.
    ///
    /// # Errors
    /// [`Error::Index`] when `other` is not an article index or this one cannot be written.
    pub fn merge_from(&mut self, other: &Path) -> Result<usize> {
        let shard = ArticleIndex::open(other)?;
        let mut writer = self.writer(DEFAULT_BATCH)?;
        shard.for_each(|a| writer.add(&a))?;
        writer.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn article(url: &str, lang: Option<&str>, title: &str, text: &str) -> Article {
        Article {
            url: Some(url.into()),
            host: url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_string)),
            title: title.into(),
            text: text.into(),
            published: Some("2024-05-01".into()),
            lang: lang.map(str::to_string),
            xpath: "//article".into(),
            extracted_at: 1_714_521_600,
            ..Article::default()
        }
    }

    pub(super) fn three() -> Vec<Article> {
        vec![
            article(
                "https://news.example/en/bridge",
                Some("en"),
                "Elm Street Bridge to Close",
                "The old bridge over the river closes for repairs on Monday. Drivers should use the ferry.",
            ),
            article(
                "https://presse.example/fr/ponts",
                Some("fr"),
                "Les ponts de Paris",
                "La mairie annonce la fermeture de plusieurs ponts pendant les travaux de l'été. Les piétons passeront \
                 par la passerelle.",
            ),
            article(
                "https://zeitung.example/de/fluss",
                None,
                "Hochwasser am Rhein",
                "Der Fluss ist über die Ufer getreten, und die Feuerwehr sperrt die Straßen der Altstadt bis zum \
                 Wochenende.",
            ),
        ]
    }

    pub(super) fn built(articles: &[Article]) -> (tempfile::TempDir, ArticleIndex) {
        let dir = tempfile::tempdir().expect("temp dir");
        let index = ArticleIndex::open_or_create(dir.path()).expect("new index");
        let mut w = index.writer(2).expect("writer");
        for a in articles {
            w.add(a).expect("add");
        }
        assert_eq!(w.finish().expect("finish"), articles.len());
        (dir, index)
    }

    #[test]
    fn articles_round_trip_and_reopen() {
        let arts = three();
        let (dir, index) = built(&arts);
        drop(index);
        let index = ArticleIndex::open_or_create(dir.path()).expect("reopen");
        let mut back = Vec::new();
        let seen = index.for_each(|a| {
            back.push(a);
            Ok(())
        });
        assert_eq!(seen.expect("for_each"), 3);
        back.sort_by(|a, b| a.url.cmp(&b.url));
        let mut arts = arts;
        arts.sort_by(|a, b| a.url.cmp(&b.url));
        assert_eq!(back, arts);
    }

    #[test]
    fn metadata_round_trips_and_an_index_made_before_it_still_opens() {
        let mut a = article("https://news.example/en/bridge", Some("en"), "Bridge", "The bridge closes for repairs on Monday.");
        a.byline = Some("Ada Byron, Alan T.".into());
        a.page_type = Some(crate::metadata::PageType::Article);
        a.meta.authors = vec!["Ada Byron".into(), "Alan T.".into()];
        a.meta.tags = vec!["bridges".into()];
        a.meta.site_name = Some("The News".into());
        a.confidence = 0.75;
        let (dir, index) = built(std::slice::from_ref(&a));
        let back = index.get("https://news.example/en/bridge").expect("read").expect("archived");
        assert_eq!((back.byline.as_deref(), back.page_type, &back.meta), (a.byline.as_deref(), a.page_type, &a.meta));
        assert_eq!(back.confidence, 0.75);
        drop(index);

        // An index with the fields of before `meta` was added: it opens, reads and takes articles.
        let old = tempfile::tempdir().expect("temp dir");
        let (schema, _) = Fields::schema();
        let mut b = Schema::builder();
        for (_, entry) in schema.fields().filter(|(_, e)| e.name() != "meta") {
            b.add_field(entry.clone());
        }
        let tokenizers = TokenizerManager::default();
        analyzer::register(&tokenizers);
        Index::builder().schema(b.build()).tokenizers(tokenizers).create_in_dir(old.path()).expect("an older index");
        let index = ArticleIndex::open(old.path()).expect("opens");
        let mut w = index.writer(0).expect("writer");
        w.add(&a).expect("add");
        w.finish().expect("commit");
        let back = index.get("https://news.example/en/bridge").expect("read").expect("archived");
        assert_eq!((back.title.as_str(), back.byline.as_deref()), ("Bridge", None));
        assert_eq!(index.search("bridge", 5, None).expect("search").len(), 1);
        drop(dir);
    }

    #[test]
    fn refuses_junk_folders_and_second_writers() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
        let err = ArticleIndex::open_or_create(dir.path()).expect_err("junk folder");
        assert!(err.to_string().contains("notes.txt") && err.to_string().contains("no article index"), "{err}");
        assert!(ArticleIndex::open(&dir.path().join("nowhere")).is_err());

        let (_dir, index) = built(&[]);
        let _w = index.writer(1).expect("first writer");
        let err = index.writer(1).expect_err("second writer");
        assert!(err.to_string().contains("one writer at a time"), "{err}");
    }
}
