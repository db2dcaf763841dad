//! Writing: adds and replacements by URL, committed in batches (a commit is atomic).

use super::{index_error, tantivy_error, Article, ArticleIndex, Fields, DEFAULT_BATCH, MAX_URL_BYTES};
use crate::Result;
use std::path::PathBuf;
use tantivy::{IndexReader, IndexWriter, Term};

/// Memory of the writer's indexing buffers, per thread.
const WRITER_MEMORY_PER_THREAD: usize = 32_000_000;

impl ArticleIndex {
    /// A writer that commits every `batch` articles (0: [`DEFAULT_BATCH`]). One writer at a
    /// time per index, across processes. This index sees each of its commits at once.
    ///
    /// # Errors
    /// [`crate::Error::Index`] when another writer has the index.
    pub fn writer(&self, batch: usize) -> Result<ArticleWriter> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 4));
        let writer = self
            .index
            .writer_with_num_threads(threads, threads * WRITER_MEMORY_PER_THREAD)
            .map_err(|e| tantivy_error(&self.path, e))?;
        Ok(ArticleWriter {
            path: self.path.clone(),
            writer,
            reader: self.reader.clone(),
            fields: self.fields.clone(),
            batch: if batch == 0 { DEFAULT_BATCH } else { batch },
            pending: 0,
            added: 0,
        })
    }
}

/// Adds articles to an [`ArticleIndex`], committing every `batch` of them.
///
/// Dropping it without [`ArticleWriter::finish`] or [`ArticleWriter::commit`] discards the
/// articles added since the last commit, as a crash would.
pub struct ArticleWriter {
    path: PathBuf,
    writer: IndexWriter,
    reader: IndexReader,
    fields: Fields,
    batch: usize,
    pending: usize,
    added: usize,
}

impl std::fmt::Debug for ArticleWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArticleWriter")
            .field("path", &self.path)
            .field("batch", &self.batch)
            .field("pending", &self.pending)
            .finish_non_exhaustive()
    }
}

impl ArticleWriter {
    /// Add (or replace: same URL) an article; commits when `batch` articles are pending.
    ///
    /// # Errors
    /// [`crate::Error::Index`] for an article without URL or with an over-long one, or when
    /// the index cannot be written.
    pub fn add(&mut self, a: &Article) -> Result<()> {
        if a.key().trim().is_empty() {
            return Err(index_error(&self.path, "an article needs a URL (the index's key); this one has none"));
        }
        if a.key().len() > MAX_URL_BYTES {
            return Err(index_error(&self.path, format!("URL longer than {MAX_URL_BYTES} bytes: {:.80}…", a.key())));
        }
        // The delete's opstamp is before the add's: it removes earlier copies, committed or
        // pending, never this one.
        self.writer.delete_term(Term::from_field_text(self.fields.url, a.key()));
        self.writer.add_document(self.fields.document(a)).map_err(|e| tantivy_error(&self.path, e))?;
        self.pending += 1;
        self.added += 1;
        if self.pending >= self.batch {
            self.commit()?;
        }
        Ok(())
    }

    /// Commit the pending articles: after this they survive a crash and searches see them.
    ///
    /// # Errors
    /// [`crate::Error::Index`] when the index cannot be written.
    pub fn commit(&mut self) -> Result<()> {
        self.writer.commit().map_err(|e| tantivy_error(&self.path, e))?;
        self.pending = 0;
        self.reader.reload().map_err(|e| tantivy_error(&self.path, e))
    }

    /// Articles added but not committed yet.
    pub fn pending(&self) -> usize {
        self.pending
    }

    /// Commit, wait for background segment merges, release the index; returns how many
    /// articles this writer added.
    ///
    /// # Errors
    /// [`crate::Error::Index`] when the index cannot be written.
    pub fn finish(mut self) -> Result<usize> {
        self.commit()?;
        let ArticleWriter { path, writer, reader, added, .. } = self;
        writer.wait_merging_threads().map_err(|e| tantivy_error(&path, e))?;
        reader.reload().map_err(|e| tantivy_error(&path, e))?;
        Ok(added)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::tests::{article, built, three};

    #[test]
    fn readding_a_url_replaces_it_even_within_a_batch() {
        let (_dir, index) = built(&three());
        let mut changed = three().swap_remove(0);
        changed.text = "The ferry now sails every hour.".into();
        let mut w = index.writer(100).expect("writer");
        w.add(&changed).expect("add");
        changed.text = "The tunnel opens next year.".into();
        w.add(&changed).expect("add again, same batch");
        assert_eq!(w.pending(), 2);
        w.finish().expect("finish");
        assert_eq!(index.len(), 3);
        assert!(index.search("repairs", 10, None).expect("search").is_empty());
        assert!(index.search("ferry", 10, None).expect("search").is_empty());
        assert_eq!(index.search("tunnel", 10, None).expect("search").len(), 1);
        assert_eq!(index.get(changed.key()).expect("get"), Some(changed));
    }

    #[test]
    fn refuses_articles_without_url() {
        let (_dir, index) = built(&[]);
        let mut w = index.writer(1).expect("writer");
        assert!(w.add(&Article::default()).is_err());
        assert!(w.add(&article(&format!("https://x.example/{}", "a".repeat(MAX_URL_BYTES)), None, "t", "x")).is_err());
    }
}
