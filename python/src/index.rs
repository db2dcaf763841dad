//! `forest.Index`: the tantivy archive of articles that `forest apply --index` writes and
//! `forest search` and `forest merge-index` read.

use crate::article::Article;
use crate::errors::{guarded, to_py};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::Mutex;

/// An article index in a folder (created on first use), keyed by URL: adding a URL again
/// replaces its article.
#[pyclass(module = "forest", frozen)]
pub struct Index {
    inner: Mutex<forest::index::ArticleIndex>,
}

impl Index {
    fn with<T>(&self, f: impl FnOnce(&mut forest::index::ArticleIndex) -> forest::Result<T>) -> PyResult<T> {
        let mut index = self.inner.lock().map_err(|_| crate::errors::InternalError::new_err("the index was poisoned"))?;
        guarded(|| f(&mut index)).map_err(to_py)
    }
}

#[pymethods]
impl Index {
    /// The index in `path`, created when absent (an existing folder must hold one, or nothing).
    #[new]
    fn new(path: PathBuf) -> PyResult<Index> {
        let inner = guarded(|| forest::index::ArticleIndex::open_or_create(&path)).map_err(to_py)?;
        Ok(Index { inner: Mutex::new(inner) })
    }

    /// Add `articles`, committing every `batch` of them and at the end (as
    /// `forest apply --index --batch`); returns how many were added.
    #[pyo3(signature = (articles, *, batch = 256))]
    fn add(&self, py: Python<'_>, articles: Vec<PyRef<'_, Article>>, batch: usize) -> PyResult<usize> {
        let articles: Vec<forest::Article> = articles.iter().map(|a| a.inner.clone()).collect();
        py.detach(|| {
            self.with(|index| {
                let mut writer = index.writer(batch)?;
                for a in &articles {
                    writer.add(a)?;
                }
                writer.finish()
            })
        })
    }

    /// Add every article of the indexes in `shards`, replacing those with the same URL (as
    /// `forest merge-index`); returns how many were added.
    fn merge(&self, py: Python<'_>, shards: Vec<PathBuf>) -> PyResult<usize> {
        py.detach(|| self.with(|index| shards.iter().try_fold(0, |n, s| Ok(n + index.merge_from(s)?))))
    }

    /// The best `limit` articles for `query` (tantivy's syntax, as `forest search` reads it),
    /// only those of `host` when given: a dict per hit with `score`, `url`, `host`, `title`,
    /// `published`, `snippet` (matched words inside `«` `»`), `fragment` (the snippet without
    /// marks) and `highlighted` (the matched words' `(start, end)` in `fragment`, as Python
    /// string offsets).
    #[pyo3(signature = (query, limit = 10, *, host = None))]
    fn search<'py>(&self, py: Python<'py>, query: &str, limit: usize, host: Option<String>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let hits = py.detach(|| {
            self.with(|index| {
                index.refresh()?;
                index.search(query, limit, host.as_deref())
            })
        })?;
        hits.into_iter().map(|h| hit_dict(py, h)).collect()
    }

    /// The archived article of `url` (its text and metadata, as added), else None.
    fn get(&self, py: Python<'_>, url: &str) -> PyResult<Option<Article>> {
        let found = py.detach(|| {
            self.with(|index| {
                index.refresh()?;
                index.get(url)
            })
        })?;
        Ok(found.map(|inner| Article { inner, format: forest::article::Format::Text }))
    }

    /// The folder.
    #[getter]
    fn path(&self) -> PyResult<PathBuf> {
        self.with(|index| Ok(index.path().to_path_buf()))
    }

    fn __len__(&self) -> PyResult<usize> {
        self.with(|index| {
            index.refresh()?;
            Ok(index.len())
        })
    }
}

/// One hit as a dict; byte ranges in the fragment become character offsets, as Python slices
/// strings.
fn hit_dict(py: Python<'_>, h: forest::index::Hit) -> PyResult<Bound<'_, PyDict>> {
    let chars = |byte: usize| h.fragment.get(..byte).map_or(0, |s| s.chars().count());
    let highlighted: Vec<(usize, usize)> = h.highlighted.iter().map(|r| (chars(r.start), chars(r.end))).collect();
    let d = PyDict::new(py);
    d.set_item("score", h.score)?;
    d.set_item("url", &h.url)?;
    d.set_item("host", &h.host)?;
    d.set_item("title", &h.title)?;
    d.set_item("published", &h.published)?;
    d.set_item("snippet", &h.snippet)?;
    d.set_item("fragment", &h.fragment)?;
    d.set_item("highlighted", highlighted)?;
    Ok(d)
}
