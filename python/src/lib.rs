//! forest for Python: the `forest._forest` extension module (PyO3), re-exported by the `forest`
//! package. Thin: every call is the library's, read and written as `forest apply` and `forest
//! induce` do, so Python gets the command's output byte for byte.
//!
//! - `errors`: the library's errors as a `forest.ForestError` hierarchy; panics caught;
//! - `input`: Python pages (str, bytes, (url, html), paths, WARC records) into sources;
//! - `article`, `wrapper` (and the store), `warc`: the classes;
//! - `crawl`: a whole site's articles;
//! - here: `extract`, `extract_many` (all cores, the GIL released), `induce`.

mod article;
mod crawl;
mod errors;
mod index;
mod input;
mod warc;
mod wrapper;

use article::Article;
use errors::{guarded, to_py};
use forest::article::Format;
use forest::budget::Budget;
use forest::fetch::{FetchOptions, Fetcher};
use forest::page::Source;
use forest::rules::{Missing, Resolver, Rules};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use std::sync::OnceLock;
use wrapper::{Store, Wrapper};

/// The budget of each page: the command line's defaults (its time limit included).
fn budget() -> Budget {
    Budget { max_time: std::time::Duration::try_from_secs_f64(forest::budget::MAX_SECONDS).ok(), ..Budget::default() }
}

/// The budget of each page with `timeout` seconds, when given, in place of the default time
/// limit; a timeout that is not a time limit ([`forest::budget::is_time_limit`]) or is 0 (no
/// page could finish) is refused.
pub(crate) fn budget_within(timeout: Option<f64>) -> PyResult<Budget> {
    let Some(t) = timeout else { return Ok(budget()) };
    if t == 0.0 || !forest::budget::is_time_limit(t) {
        let max = forest::budget::MAX_LIMIT_SECONDS;
        return Err(to_py(forest::Error::Invalid(format!("timeout must be a number of seconds above 0 and at most a day ({max}), not {t}"))));
    }
    Ok(Budget { max_time: Some(std::time::Duration::from_secs_f64(t)), ..budget() })
}

/// The fetcher for pages named by path (and, for `induce`, feeds named by URL): made once.
fn fetcher() -> forest::Result<&'static Fetcher> {
    static FETCHER: OnceLock<Fetcher> = OnceLock::new();
    if let Some(f) = FETCHER.get() {
        return Ok(f);
    }
    let made = Fetcher::new(FetchOptions::default())?;
    Ok(FETCHER.get_or_init(|| made))
}

/// The rules of a store folder, made once per folder for the process (a path each), so the
/// resolvers of each thread can borrow them for as long as they live.
fn store_rules(dir: &Path) -> &'static Rules {
    static ALL: OnceLock<Mutex<HashMap<PathBuf, &'static Rules>>> = OnceLock::new();
    let mut all = ALL.get_or_init(Default::default).lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    all.entry(dir.to_path_buf())
        .or_insert_with(|| Box::leak(Box::new(Rules::Store(forest::store::Store::new(dir), Missing::SinglePage))))
}

thread_local! {
    /// Each thread's resolver of each store: its wrappers compiled once per thread (and again
    /// when a file changes), as `forest apply` compiles them once per worker.
    static RESOLVERS: RefCell<HashMap<PathBuf, Resolver<'static>>> = RefCell::new(HashMap::new());
}

/// The article of `page` (read from `loc`) by `rules`; a store's rules by this thread's
/// resolver of that store.
fn article(rules: &Rules, page: forest::Page, loc: &forest::fetch::Location) -> forest::Result<forest::Article> {
    let Rules::Store(store, _) = rules else { return rules.resolver()?.article_from(page, loc) };
    RESOLVERS.with_borrow_mut(|resolvers| {
        let resolver = match resolvers.entry(store.dir().to_path_buf()) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(store_rules(store.dir()).resolver()?),
        };
        resolver.article_from(page, loc)
    })
}

/// The rules of an `extract` call: a wrapper, a store, else the single-page extractor.
fn rules_of(store: Option<&Store>, wrapper: Option<&Wrapper>) -> PyResult<Rules> {
    Ok(match (wrapper, store) {
        (Some(w), _) => w.rules()?,
        (None, Some(s)) => s.rules(),
        (None, None) => Rules::SinglePage,
    })
}

/// The article of one page by `rules`, the GIL released while forest works.
pub(crate) fn extract_one(py: Python<'_>, rules: Rules, page: &Bound<'_, PyAny>, url: Option<String>, format: &str, budget: &Budget, comments: bool) -> PyResult<Article> {
    let format = Format::named(format).map_err(to_py)?;
    let source = input::source(page, url)?;
    let inner = py
        .detach(|| {
            guarded(|| {
                let loc = source.location().clone();
                let page = source.page(fetcher()?, budget)?;
                let mut article = article(&rules, page, &loc)?;
                if comments {
                    article.read_comments();
                }
                Ok(article)
            })
        })
        .map_err(to_py)?;
    Ok(Article { inner, format })
}

/// The main article of one page.
///
/// `page` is HTML (`str` or `bytes`, with `url` the address it was read from), a path
/// (`os.PathLike`: a page file, read as `forest apply FILE` reads it), a `(url, html)` pair or
/// a `WarcRecord`. With a `store`, the page gets the stored wrapper of its host (else the
/// single-page extractor); with a `wrapper`, that wrapper; else the single-page extractor.
/// `format` chooses `str(article)` (`article.output`): what `forest apply --format` prints.
/// `timeout` (seconds) replaces the page's time limit (`forest apply --max-seconds`, 10 by
/// default): past it the page raises `OverBudgetError`. `comments=True` also gives the page's
/// reader comments (`article.comments`, and after the article in its output), never in its text.
#[pyfunction]
#[pyo3(signature = (page, url = None, *, format = "text", store = None, wrapper = None, timeout = None, comments = false))]
#[allow(clippy::too_many_arguments)]
fn extract(
    py: Python<'_>,
    page: &Bound<'_, PyAny>,
    url: Option<String>,
    format: &str,
    store: Option<PyRef<'_, Store>>,
    wrapper: Option<PyRef<'_, Wrapper>>,
    timeout: Option<f64>,
    comments: bool,
) -> PyResult<Article> {
    let budget = budget_within(timeout)?;
    let article = extract_one(py, rules_of(store.as_deref(), wrapper.as_deref())?, page, url, format, &budget, comments)?;
    if let (Some(store), None) = (&store, &wrapper) {
        keep_health(py, &store.inner, [&article.inner], false);
    }
    Ok(article)
}

/// Pages whose outcomes wait before a store's health records are written: a record is a
/// file read and written, which one page's extraction should not pay.
const HEALTH_BATCH: usize = 64;

/// Outcomes not yet recorded, per store folder.
fn pending_health() -> &'static Mutex<HashMap<PathBuf, forest::store::Outcomes>> {
    static PENDING: OnceLock<Mutex<HashMap<PathBuf, forest::store::Outcomes>>> = OnceLock::new();
    PENDING.get_or_init(Default::default)
}

/// Add how `store`'s wrappers did on `articles` to its health records, as `forest apply`
/// does (`forest wrappers list` shows them): at once with `now` (a batch of pages), else once
/// [`HEALTH_BATCH`] pages wait (and at exit, or with `flush_health()`). A drifted site is said
/// as a Python warning.
fn keep_health<'a>(py: Python<'_>, store: &forest::store::Store, articles: impl IntoIterator<Item = &'a forest::Article>, now: bool) {
    let ready = {
        let mut pending = pending_health().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let outcomes = pending.entry(store.dir().to_path_buf()).or_default();
        articles.into_iter().for_each(|a| outcomes.add(a));
        if now || outcomes.pages() >= HEALTH_BATCH { pending.remove(store.dir()) } else { None }
    };
    if let Some(outcomes) = ready.filter(|o| !o.is_empty()) {
        record_health(py, store, outcomes);
    }
}

/// Write `outcomes` to `store`'s health records; warn of the sites that drifted.
fn record_health(py: Python<'_>, store: &forest::store::Store, outcomes: forest::store::Outcomes) {
    let (drifted, _unrecorded) = py.detach(|| outcomes.record(store));
    for d in drifted {
        let message = format!("{d} (learn it again)");
        if let Ok(c) = std::ffi::CString::new(message) {
            let _ = PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &c, 1);
        }
    }
}

/// Record the health outcomes of `extract` calls that still wait (they are written in batches,
/// and at exit).
#[pyfunction]
fn flush_health(py: Python<'_>) {
    let all: Vec<(PathBuf, forest::store::Outcomes)> = pending_health().lock().unwrap_or_else(std::sync::PoisonError::into_inner).drain().collect();
    for (dir, outcomes) in all {
        record_health(py, &forest::store::Store::new(dir), outcomes);
    }
}

/// The articles of many pages, in order, on `jobs` threads (default: all cores) with the GIL
/// released: `forest apply --jobs N`'s runner. Pages are as for `extract` (a folder stands for
/// its pages). A page that fails raises its error once all are done, or, with
/// `return_exceptions=True`, is its `ForestError` in the list. `timeout` and `comments` are as
/// for `extract`.
#[pyfunction]
#[pyo3(signature = (pages, *, format = "text", store = None, wrapper = None, jobs = None, return_exceptions = false, timeout = None, comments = false))]
#[allow(clippy::too_many_arguments)]
fn extract_many<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    format: &str,
    store: Option<PyRef<'_, Store>>,
    wrapper: Option<PyRef<'_, Wrapper>>,
    jobs: Option<usize>,
    return_exceptions: bool,
    timeout: Option<f64>,
    comments: bool,
) -> PyResult<Bound<'py, PyList>> {
    let budget = budget_within(timeout)?;
    let format = Format::named(format).map_err(to_py)?;
    let rules = rules_of(store.as_deref(), wrapper.as_deref())?;
    let sources: Vec<Source> = input::all_sources(pages)?;
    let jobs = jobs.unwrap_or_else(forest::run::cores).max(1);
    let results = py.detach(|| {
        guarded(|| {
            rules.resolver()?;
            let mut results = Vec::with_capacity(sources.len());
            let fields = if comments { forest::article::Fields::Comments } else { forest::article::Fields::All };
            rules.articles(sources, jobs, fetcher()?, &budget, fields, |_, r| {
                results.push(r);
                Ok::<(), forest::Error>(())
            })?;
            Ok(results)
        })
    });
    let results = results.map_err(to_py)?;
    if let (Some(store), None) = (&store, &wrapper) {
        keep_health(py, &store.inner, results.iter().filter_map(|r| r.as_ref().ok()), true);
    }
    let out = PyList::empty(py);
    for r in results {
        match r {
            Ok(inner) => out.append(Article { inner, format })?,
            Err(e) if return_exceptions => out.append(to_py(e).into_value(py))?,
            Err(e) => return Err(to_py(e)),
        }
    }
    Ok(out)
}

/// A site's wrapper, learned from a few of its pages (at least 2 sharing a template).
///
/// `pages` is a feed (file or URL) or a folder of pages, as `forest induce SOURCE` reads it
/// (its first `max_pages`), or an iterable of pages as for `extract` (`(url, html)` pairs,
/// `WarcRecord`s, paths; those that cannot be read are left out). `host` names the site in
/// the store when its pages do not.
#[pyfunction]
#[pyo3(signature = (pages, *, host = None, max_pages = 20))]
fn induce(py: Python<'_>, pages: &Bound<'_, PyAny>, host: Option<String>, max_pages: usize) -> PyResult<Wrapper> {
    let feed = if pages.is_instance_of::<PyString>() {
        Some(pages.extract::<String>()?)
    } else if pages.hasattr("__fspath__")? {
        Some(pages.extract::<std::path::PathBuf>()?.to_string_lossy().into_owned())
    } else {
        None
    };
    let sources = match &feed {
        Some(_) => Vec::new(),
        None => input::all_sources(pages)?,
    };
    let host = host.map(|h| forest::host::key(&h)).transpose().map_err(to_py)?;
    let cfg = forest::Config::default();
    let mut inner = py
        .detach(|| {
            guarded(|| {
                let fetcher = fetcher()?;
                let induction = match &feed {
                    Some(feed) => {
                        // The URL the caller names is trusted, at its own origin only, as the
                        // command line trusts the URLs typed on it (a feed on loopback, say).
                        if let forest::fetch::Location::Url(u) = forest::fetch::Location::parse_input(feed) {
                            fetcher.trust(&u);
                        }
                        let sample = forest::feed::read_with(fetcher, feed)?;
                        // Each page is summarized by the worker that read it, and the
                        // summaries join the induction in order.
                        forest::wrapper::Inducer::read_sample(&sample, fetcher, &cfg, max_pages, &budget(), false, &|| {}).induction?
                    }
                    None => {
                        // Pages that cannot be read are left out, as `forest induce` does.
                        let pages: Vec<_> = sources.into_iter().take(max_pages).filter_map(|s| s.page(fetcher, &budget()).ok()).collect();
                        let site = forest::host::of_pages(&pages).unwrap_or_else(|| "pages".into());
                        forest::Wrapper::induce(&site, &pages, &cfg)?
                    }
                };
                Ok(induction.wrapper)
            })
        })
        .map_err(to_py)?;
    if host.is_some() {
        inner.host = host;
    }
    Ok(Wrapper::new(inner))
}

/// The host key of a URL (lower case, without `www.`), as the wrapper store names hosts; None
/// for what is not an http(s) URL with a host.
#[pyfunction]
fn host_of(url: &str) -> Option<String> {
    forest::host::of_url(url)
}

/// The extension module: functions, classes and exceptions (see the `forest` package).
#[pymodule]
fn _forest(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract_many, m)?)?;
    m.add_function(wrap_pyfunction!(induce, m)?)?;
    m.add_function(wrap_pyfunction!(host_of, m)?)?;
    m.add_function(wrap_pyfunction!(crawl::crawl, m)?)?;
    m.add_function(wrap_pyfunction!(flush_health, m)?)?;
    m.add_function(wrap_pyfunction!(warc::read_warc, m)?)?;
    m.add_class::<Article>()?;
    m.add_class::<Wrapper>()?;
    m.add_class::<Store>()?;
    m.add_class::<warc::WarcRecord>()?;
    m.add_class::<warc::WarcReader>()?;
    m.add_class::<index::Index>()?;
    errors::register(m)?;
    Ok(())
}
