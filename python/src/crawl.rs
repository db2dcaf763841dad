//! `forest.crawl`: a whole site's articles, as `forest crawl` gives them (the library's
//! [`forest::crawl::Crawler`] and, with `out_dir`, its output folder and journal).

use crate::article::Article;
use crate::errors::{guarded, to_py};
use crate::wrapper::Store;
use forest::article::Format;
use forest::crawl::{output::Output, Crawler, Event, Options};
use forest::fetch::{FetchOptions, Fetcher, Location};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Crawl the site of `url`: find its pages (its feed, sitemaps, links, within `max_pages`
/// fetched and `max_depth` links from `url`; robots.txt obeyed, `delay` seconds between two
/// requests), learn its templates from its articles (kept in `store`, else the default store),
/// and return every article, as `forest crawl` writes them: a list of `Article`, in the order
/// their pages were found. With `out_dir`, they are also written there (`articles.jsonl`, or a
/// file per article in other formats; `warc=True` adds the responses) and a call run again
/// continues where a killed one stopped: articles written before are not returned again.
/// `summary`, a dict, is filled with what the crawl did (pages found, fetched, passed over by
/// reason, sites whose stored wrapper drifted). `cache` is the folder for fetched pages, as
/// `forest crawl --cache` (default: the user's cache folder, `~/.cache/forest`; a re-run sends
/// only revalidations); with
/// `no_cache=True` none is used, and the crawl holds its pages' bytes in memory until the end.
/// `comments=True` gives each article its page's reader comments, as `forest.extract` does.
#[pyfunction]
#[pyo3(signature = (url, *, max_pages = forest::crawl::MAX_PAGES, max_depth = forest::crawl::MAX_DEPTH, store = None, out_dir = None, format = "jsonl", warc = false, cache = None, no_cache = false, delay = 0.0, jobs = 4, timeout = None, summary = None, comments = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn crawl<'py>(
    py: Python<'py>,
    url: &str,
    max_pages: usize,
    max_depth: usize,
    store: Option<PyRef<'_, Store>>,
    out_dir: Option<std::path::PathBuf>,
    format: &str,
    warc: bool,
    cache: Option<std::path::PathBuf>,
    no_cache: bool,
    delay: f64,
    jobs: usize,
    timeout: Option<f64>,
    summary: Option<Bound<'py, PyDict>>,
    comments: bool,
) -> PyResult<Bound<'py, PyList>> {
    let format = Format::named(format).map_err(to_py)?;
    let budget = crate::budget_within(timeout)?;
    let Location::Url(start) = Location::parse_input(url) else {
        return Err(to_py(forest::Error::Invalid(format!("{url} is not a URL: name the site's start page"))));
    };
    if !(0.0..=86_400.0).contains(&delay) {
        return Err(to_py(forest::Error::Invalid(format!("delay must be 0 to 86400 seconds, not {delay}"))));
    }
    if max_pages == 0 {
        return Err(to_py(forest::Error::Invalid("max_pages must be at least 1".into())));
    }
    let store = match store {
        Some(s) => s.inner.clone(),
        None => forest::store::Store::open_default().map_err(to_py)?,
    };
    let (articles, report) = py.detach(|| {
        guarded(|| {
            let cache = if no_cache { None } else { cache.or_else(forest::fetch::default_cache_dir) };
            let opts = FetchOptions { delay: std::time::Duration::from_secs_f64(delay), cache, ..FetchOptions::default() };
            let fetcher = Fetcher::new(opts)?;
            // The URL the caller names is trusted, at its own origin only, as on the command line.
            fetcher.trust(&start);
            let mut output = out_dir.as_deref().map(|d| Output::open(d, format, None, warc)).transpose()?;
            let done = output.as_ref().map(|o| o.done().clone()).unwrap_or_default();
            let opts = Options { max_pages, max_depth, jobs: jobs.clamp(1, forest::run::MAX_JOBS), budget, comments, ..Options::default() };
            let crawler = Crawler::new(&fetcher, store.clone(), opts);
            let mut articles = Vec::new();
            let summary = crawler.run(&start, &|u| done.contains(u), |event| -> forest::Result<()> {
                match event {
                    Event::Response(f) => {
                        if let Some(o) = &mut output {
                            o.response(f)?;
                        }
                    }
                    Event::Article(loc, result) => {
                        if let Ok(article) = *result {
                            if let Some(o) = &mut output {
                                o.article(&loc, &article)?;
                            }
                            articles.push(article);
                        }
                    }
                    Event::Skipped(..) | Event::Progress { .. } | Event::Learned(_) => {}
                }
                Ok(())
            })?;
            if let Some(o) = output {
                o.finish()?;
            }
            Ok((articles, summary))
        })
    })
    .map_err(to_py)?;
    if let Some(d) = summary {
        d.set_item("found", report.found)?;
        d.set_item("fetched", report.fetched)?;
        d.set_item("articles", report.articles)?;
        d.set_item("failed", report.failed)?;
        let skipped = PyDict::new(py);
        for (why, n) in &report.skipped {
            skipped.set_item(why.name(), n)?;
        }
        d.set_item("skipped", skipped)?;
        d.set_item("sources", report.sources.clone())?;
        d.set_item("drifted", report.drifted.iter().map(|d| d.host.clone()).collect::<Vec<_>>())?;
    }
    let out = PyList::empty(py);
    for inner in articles {
        out.append(Article { inner, format })?;
    }
    Ok(out)
}
