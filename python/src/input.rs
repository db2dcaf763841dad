//! Pages in from Python: HTML as `str` or `bytes` (with an optional URL), a `(url, html)`
//! pair, a path (`os.PathLike`: a page file, or a folder of pages), or a WARC record. Each
//! becomes the library's [`Source`], read the way `forest apply` reads it, so the articles
//! are the command's, byte for byte.

use crate::warc::WarcRecord;
use forest::fetch::{Fetched, Location};
use forest::page::Source;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString, PyTuple};
use std::path::PathBuf;

/// HTML handed over as `str`: already text, so its `<meta charset>` must not re-decode it.
const UTF8: &str = "text/html; charset=utf-8";

/// The sources of one Python page argument (a folder gives one per page).
pub fn sources(page: &Bound<'_, PyAny>, url: Option<String>) -> PyResult<Vec<Source>> {
    if let Ok(record) = page.extract::<PyRef<'_, WarcRecord>>() {
        return Ok(vec![record.source()]);
    }
    if let Some(html) = html(page)? {
        return Ok(vec![in_memory(html, url)]);
    }
    if let Ok(pair) = page.cast::<PyTuple>() {
        if pair.len() == 2 && url.is_none() {
            let url: String = pair.get_item(0)?.extract()?;
            if let Some(html) = html(&pair.get_item(1)?)? {
                return Ok(vec![in_memory(html, Some(url))]);
            }
        }
        return Err(PyTypeError::new_err("a page pair is (url, html), html being str or bytes"));
    }
    if let Ok(path) = page.extract::<PathBuf>() {
        let path = path.to_string_lossy().into_owned();
        return forest::page::sources(&[path]).map_err(crate::errors::to_py);
    }
    Err(PyTypeError::new_err(format!(
        "a page is HTML (str or bytes), a (url, html) pair, a path (os.PathLike) or a WarcRecord, not {}",
        page.get_type().name()?
    )))
}

/// The one source of a page argument that must name one page.
pub fn source(page: &Bound<'_, PyAny>, url: Option<String>) -> PyResult<Source> {
    let mut all = sources(page, url)?;
    match all.len() {
        1 => Ok(all.remove(0)),
        n => Err(crate::errors::InvalidError::new_err(format!("expected one page, got a folder of {n}: use extract_many"))),
    }
}

/// The sources of every item of an iterable of pages, in order.
pub fn all_sources(pages: &Bound<'_, PyAny>) -> PyResult<Vec<Source>> {
    let mut out = Vec::new();
    for page in pages.try_iter()? {
        out.extend(sources(&page?, None)?);
    }
    Ok(out)
}

/// HTML bytes and whether they came as text, when `obj` is `str`, `bytes` or `bytearray`: at
/// most [`forest::fetch::MAX_BYTES`], as a page from a file or the web (a larger page raises
/// `TooLargeError` before it is copied).
fn html(obj: &Bound<'_, PyAny>) -> PyResult<Option<(Vec<u8>, bool)>> {
    let checked = |len: usize| -> PyResult<()> {
        if len as u64 > forest::fetch::MAX_BYTES {
            return Err(crate::errors::to_py(forest::Error::TooLarge { what: "the page given".into(), limit: forest::fetch::MAX_BYTES }));
        }
        Ok(())
    };
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        checked(text.len())?;
        return Ok(Some((text.as_bytes().to_vec(), true)));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        checked(b.as_bytes().len())?;
        return Ok(Some((b.as_bytes().to_vec(), false)));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        checked(b.len())?;
        return Ok(Some((b.to_vec(), false)));
    }
    Ok(None)
}

/// HTML in memory, read from `url` (else from nowhere: no URL, an empty source).
fn in_memory((bytes, text): (Vec<u8>, bool), url: Option<String>) -> Source {
    let loc = Location::parse(url.as_deref().unwrap_or_default());
    let mut fetched = Fetched::local(loc.clone(), bytes);
    if text {
        fetched.content_type = Some(UTF8.into());
    }
    Source::Fetched(loc, fetched)
}
