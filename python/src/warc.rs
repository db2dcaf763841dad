//! `forest.read_warc`: the HTML pages of a WARC file, one record at a time, as
//! `forest apply --warc` reads them (every `response` with status 200 and an HTML type).

use crate::errors::{guarded, to_py};
use forest::fetch::{Fetched, Location};
use forest::page::Source;
use forest::warc::{Reader, Stats};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Mutex;

/// What a [`WarcRecord`] is made of, for pickling: URL, body, content type.
type RecordArgs<'py> = (String, Bound<'py, PyBytes>, Option<String>);

/// One HTML page of a WARC file: its target URL and the HTTP response body.
#[pyclass(module = "forest", frozen)]
pub struct WarcRecord {
    url: url::Url,
    fetched: Fetched,
}

impl WarcRecord {
    /// The page as `forest apply --warc` reads it.
    pub fn source(&self) -> Source {
        Source::Fetched(Location::Url(self.url.clone()), self.fetched.clone())
    }
}

#[pymethods]
impl WarcRecord {
    /// A record made in memory (or shipped between processes): its URL, body and HTTP
    /// `Content-Type`.
    #[new]
    #[pyo3(signature = (url, content, content_type = None))]
    fn new(url: &str, content: Vec<u8>, content_type: Option<String>) -> PyResult<WarcRecord> {
        let url = url::Url::parse(url).map_err(|e| PyValueError::new_err(format!("{url:?} is not a URL: {e}")))?;
        let mut fetched = Fetched::local(Location::Url(url.clone()), content);
        fetched.content_type = content_type;
        Ok(WarcRecord { url, fetched })
    }

    /// Pickling: the record is its URL, body and content type.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, RecordArgs<'py>)> {
        let r = slf.get();
        Ok((slf.get_type().into_any(), (r.url.to_string(), PyBytes::new(slf.py(), &r.fetched.bytes), r.fetched.content_type.clone())))
    }

    /// The record's target URL (`WARC-Target-URI`).
    #[getter]
    fn url(&self) -> &str {
        self.url.as_str()
    }

    /// The host key of the URL (lower case, no `www.`), as the wrapper store names hosts.
    #[getter]
    fn host(&self) -> Option<String> {
        forest::host::of_url(self.url.as_str())
    }

    /// The HTTP `Content-Type`.
    #[getter]
    fn content_type(&self) -> Option<&str> {
        self.fetched.content_type.as_deref()
    }

    /// The response body (decoded from any `Content-Encoding`), undecoded text bytes.
    #[getter]
    fn content<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.fetched.bytes)
    }

    /// The response body as text, decoded as forest decodes a page: a BOM, else UTF-8 when it
    /// is valid UTF-8, else the declared charset (`Content-Type`, `<meta>`), else a guess.
    #[getter]
    fn text(&self, py: Python<'_>) -> String {
        py.detach(|| forest::fetch::decode(&self.fetched.bytes, self.fetched.content_type.as_deref()))
    }

    fn __repr__(&self) -> String {
        format!("WarcRecord(url={:?}, {} bytes)", self.url.as_str(), self.fetched.bytes.len())
    }
}

/// The HTML pages of a WARC file (`.warc` or `.warc.gz`), an iterator of [`WarcRecord`].
#[pyclass(module = "forest")]
pub struct WarcReader {
    reader: Mutex<Reader<Box<dyn BufRead + Send>>>,
    stats: Stats,
    raise: bool,
    path: PathBuf,
}

#[pymethods]
impl WarcReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<WarcRecord>> {
        loop {
            let (reader, stats) = (&self.reader, &mut self.stats);
            let next = py.detach(|| {
                guarded(|| {
                    let mut reader = reader.lock().map_err(|_| forest::Error::Internal("the WARC reader was poisoned".into()))?;
                    Ok(reader.try_next_page(stats))
                })
            });
            match next.map_err(to_py)? {
                None => return Ok(None),
                Some(Ok((url, fetched))) => return Ok(Some(WarcRecord { url, fetched })),
                Some(Err(e)) if self.raise => return Err(to_py(e)),
                Some(Err(_)) => {}
            }
        }
    }

    /// What was read and skipped so far: `records`, `responses`, `html`, `skipped_status`,
    /// `skipped_not_html`, `skipped_bad`, `skipped_too_large`, `bytes`.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.stats;
        let d = PyDict::new(py);
        for (k, v) in [
            ("records", s.records),
            ("responses", s.responses),
            ("html", s.html),
            ("skipped_status", s.skipped_status),
            ("skipped_not_html", s.skipped_not_html),
            ("skipped_bad", s.skipped_bad),
            ("skipped_too_large", s.skipped_too_large),
            ("bytes", s.bytes),
        ] {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The file read.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    fn __repr__(&self) -> String {
        format!("WarcReader({:?}: {})", self.path, self.stats)
    }
}

/// The HTML pages of the WARC file at `path`, one [`WarcRecord`] at a time.
///
/// `errors="raise"` (the default) raises `forest.WarcError` at a damaged record (truncated,
/// malformed, over the 10 MB cap), after the records before it; `errors="skip"` counts it in
/// `stats` and goes on, as `forest apply --warc` does.
#[pyfunction]
#[pyo3(signature = (path, *, errors = "raise"))]
pub fn read_warc(path: PathBuf, errors: &str) -> PyResult<WarcReader> {
    let raise = match errors {
        "raise" => true,
        "skip" => false,
        other => return Err(PyValueError::new_err(format!("errors must be \"raise\" or \"skip\", not {other:?}"))),
    };
    let reader = guarded(|| Reader::open(&path)).map_err(to_py)?;
    Ok(WarcReader { reader: Mutex::new(reader), stats: Stats::default(), raise, path })
}
