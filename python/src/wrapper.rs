//! `forest.Wrapper` (a site's learned XPath wrapper: apply, load, save) and `forest.Store` (the
//! wrappers kept by host, as `forest induce` keeps them).

use crate::article::Article;
use crate::errors::{guarded, to_py};
use forest::rules::{Missing, Rules};
use pyo3::prelude::*;
use std::path::PathBuf;

/// A site's wrapper: the XPath that selects its articles, learned by `forest.induce`.
#[pyclass(module = "forest", frozen, eq)]
pub struct Wrapper {
    pub(crate) inner: forest::Wrapper,
    /// Its rules, compiled on first use and shared by every later call, on any thread.
    compiled: std::sync::OnceLock<Rules>,
}

impl PartialEq for Wrapper {
    fn eq(&self, other: &Wrapper) -> bool {
        self.inner == other.inner
    }
}

impl Wrapper {
    pub(crate) fn new(inner: forest::Wrapper) -> Wrapper {
        Wrapper { inner, compiled: std::sync::OnceLock::new() }
    }

    /// The wrapper's rules, compiled once (a wrapper whose XPath does not compile raises
    /// `XPathError` on every use).
    pub(crate) fn rules(&self) -> PyResult<Rules> {
        if let Some(rules) = self.compiled.get() {
            return Ok(rules.clone());
        }
        let rules = guarded(|| Rules::wrapper(self.inner.clone())).map_err(to_py)?;
        Ok(self.compiled.get_or_init(|| rules).clone())
    }
}

#[pymethods]
impl Wrapper {
    /// The XPath that selects the article.
    #[getter]
    fn xpath(&self) -> &str {
        &self.inner.xpath
    }
    /// The site's host (the key of the store), when the sample pages named one.
    #[getter]
    fn host(&self) -> Option<&str> {
        self.inner.host.as_deref()
    }
    /// The site's name (feed title, folder or host).
    #[getter]
    fn site(&self) -> &str {
        &self.inner.site
    }
    /// The sample pages it was learned from (URLs or paths).
    #[getter]
    fn pages(&self) -> Vec<String> {
        self.inner.pages.clone()
    }

    /// The article of `page` by this wrapper (with its fallbacks), as
    /// `forest apply --wrapper FILE`; see `forest.extract` for what a page can be, `timeout`
    /// and `comments`.
    #[pyo3(signature = (page, url = None, *, format = "text", timeout = None, comments = false))]
    fn apply(&self, py: Python<'_>, page: &Bound<'_, PyAny>, url: Option<String>, format: &str, timeout: Option<f64>, comments: bool) -> PyResult<Article> {
        crate::extract_one(py, self.rules()?, page, url, format, &crate::budget_within(timeout)?, comments)
    }

    /// The wrapper in the file at `path` (written by `save` or `forest induce --out`).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Wrapper> {
        guarded(|| forest::Wrapper::load(&path)).map(Wrapper::new).map_err(to_py)
    }

    /// The wrapper of a JSON text (the file format).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Wrapper> {
        guarded(|| forest::Wrapper::from_json(text.as_bytes())).map(Wrapper::new).map_err(to_py)
    }

    /// The wrapper as JSON (the file format).
    fn to_json(&self) -> PyResult<String> {
        self.inner.to_json().map_err(to_py)
    }

    /// Write the wrapper to `path` (atomically: the old file or the new one, never half).
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let json = self.inner.to_json().map_err(to_py)?;
        forest::store::write_atomic(&path, json.as_bytes()).map_err(|source| to_py(forest::Error::Io { path, source }))
    }

    fn __repr__(&self) -> String {
        format!("Wrapper(host={:?}, xpath={:?})", self.inner.host.as_deref().unwrap_or_default(), self.inner.xpath)
    }
}

/// A folder of wrappers by host: `<host>.json` (a wrapper) and `<host>.txt` (a FiveFilters
/// site config), as `forest induce` and `forest wrappers import` keep them. A page gets the
/// rules of its host, else of its parent domain.
#[pyclass(module = "forest", frozen)]
pub struct Store {
    pub(crate) inner: forest::store::Store,
}

impl Store {
    /// The rules of the store: each page its host's rules, else the single-page extractor.
    pub fn rules(&self) -> Rules {
        Rules::Store(self.inner.clone(), Missing::SinglePage)
    }

    fn host_of(&self, wrapper: &Wrapper, host: Option<String>) -> PyResult<String> {
        match host.or_else(|| wrapper.inner.host.clone()) {
            Some(h) => forest::host::key(&h).map_err(to_py),
            None => Err(crate::errors::InvalidError::new_err("the wrapper names no host: pass host=")),
        }
    }
}

#[pymethods]
impl Store {
    /// The store in the folder `path` (created when a wrapper is saved); with no path, the
    /// default store (`$FOREST_STORE`, else `~/.local/share/forest/wrappers`).
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(path: Option<PathBuf>) -> PyResult<Store> {
        let inner = match path.or_else(|| std::env::var_os("FOREST_STORE").map(PathBuf::from)) {
            Some(p) => forest::store::Store::new(p),
            None => forest::store::Store::open_default().map_err(to_py)?,
        };
        Ok(Store { inner })
    }

    /// The store's folder.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.dir().to_path_buf()
    }

    /// Keep `wrapper` as the wrapper of `host` (default: its own host), keeping the stored
    /// templates its pages do not show (as `forest induce`); returns the file written.
    #[pyo3(signature = (wrapper, host = None))]
    fn add(&self, wrapper: &Wrapper, host: Option<String>) -> PyResult<PathBuf> {
        let host = self.host_of(wrapper, host)?;
        self.inner.add(&host, &wrapper.inner).map(|(p, _)| p).map_err(to_py)
    }

    /// Store `wrapper` as the wrapper of `host` (default: its own host), replacing what was
    /// stored (as `forest induce --replace`); returns the file written.
    #[pyo3(signature = (wrapper, host = None))]
    fn save(&self, wrapper: &Wrapper, host: Option<String>) -> PyResult<PathBuf> {
        let host = self.host_of(wrapper, host)?;
        self.inner.save(&host, &wrapper.inner).map_err(to_py)
    }

    /// The wrapper stored for `host` (or its parent domain), `None` when there is none (or
    /// only a site config).
    fn get(&self, host: &str) -> PyResult<Option<Wrapper>> {
        let entry = self.inner.find(host).map_err(to_py)?;
        match entry {
            Some(e) if e.kind == forest::store::Kind::Wrapper => {
                guarded(|| forest::Wrapper::load(&e.path)).map(|inner| Some(Wrapper::new(inner))).map_err(to_py)
            }
            _ => Ok(None),
        }
    }

    /// The hosts with stored rules, sorted.
    fn hosts(&self) -> PyResult<Vec<String>> {
        Ok(self.inner.list().map_err(to_py)?.into_iter().map(|e| e.host).collect())
    }

    /// What the store knows of each entry, as `forest wrappers list --json` gives it: a dict per
    /// host with `host`, `kind`, `xpath`, `pages`, `path`, `age_days`, `applied`, `failed` and
    /// `drifted` (its health, recorded by whoever extracted with the store).
    fn reports<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyList>> {
        let out = pyo3::types::PyList::empty(py);
        for r in self.inner.reports().map_err(to_py)? {
            let d = pyo3::types::PyDict::new(py);
            d.set_item("host", &r.host)?;
            d.set_item("kind", r.kind.name())?;
            d.set_item("xpath", &r.xpath)?;
            d.set_item("pages", r.pages)?;
            d.set_item("path", r.path.to_string_lossy())?;
            d.set_item("age_days", r.age_days)?;
            d.set_item("applied", r.applied)?;
            d.set_item("failed", r.failed)?;
            d.set_item("drifted", r.drifted)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// Remove the rules of `host`; returns the files removed.
    fn remove(&self, host: &str) -> PyResult<Vec<PathBuf>> {
        self.inner.remove(host).map_err(to_py)
    }

    fn __contains__(&self, host: &str) -> PyResult<bool> {
        Ok(self.inner.find(host).map_err(to_py)?.is_some())
    }

    fn __repr__(&self) -> String {
        format!("Store({:?})", self.inner.dir())
    }
}
