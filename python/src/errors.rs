//! Errors: the library's one enum as a Python exception hierarchy under `forest.ForestError`,
//! each carrying the library's message; a Rust panic becomes `forest.InternalError`, never a
//! crash of the interpreter.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

create_exception!(forest, ForestError, PyException, "Every error forest raises; the message says what to do.");
create_exception!(forest, ReadError, ForestError, "A file or folder could not be read or written.");
create_exception!(forest, FetchError, ForestError, "A URL could not be fetched (or was refused: a private address).");
create_exception!(forest, TooLargeError, ForestError, "Input over a size limit.");
create_exception!(forest, NotHtmlError, ForestError, "The bytes are not an HTML page.");
create_exception!(forest, FeedError, ForestError, "A feed did not parse.");
create_exception!(forest, InductionError, ForestError, "No wrapper could be induced: too few pages, or no pattern.");
create_exception!(forest, WrapperError, ForestError, "A wrapper file that is not a forest wrapper.");
create_exception!(forest, XPathError, ForestError, "An XPath that does not parse or evaluate.");
create_exception!(forest, SiteConfigError, ForestError, "A FiveFilters site config line forest cannot use.");
create_exception!(forest, WarcError, ForestError, "A file that is not WARC, or a damaged record in one.");
create_exception!(forest, ArchiveIndexError, ForestError, "The article index could not be opened, read or written.");
create_exception!(forest, OverBudgetError, ForestError, "A page over one of its budgets (elements, depth, time).");
create_exception!(forest, NoRulesError, ForestError, "The store holds no rules for the page's host.");
create_exception!(forest, InternalError, ForestError, "A bug in forest: please report it.");
create_exception!(forest, InvalidError, ForestError, "A value forest cannot use (a format name, a host, an empty folder).");

/// The Python exception of a library error, with the library's message.
pub fn to_py(e: forest::Error) -> PyErr {
    use forest::Error as E;
    let msg = e.to_string();
    match e {
        E::Io { .. } => ReadError::new_err(msg),
        E::Fetch { .. } | E::Private { .. } => FetchError::new_err(msg),
        E::TooLarge { .. } => TooLargeError::new_err(msg),
        E::NotHtml { .. } => NotHtmlError::new_err(msg),
        E::Feed { .. } => FeedError::new_err(msg),
        E::TooFewPages { .. } | E::NoPattern { .. } => InductionError::new_err(msg),
        E::BadWrapper { .. } => WrapperError::new_err(msg),
        E::XPath { .. } => XPathError::new_err(msg),
        E::SiteConfig { .. } => SiteConfigError::new_err(msg),
        E::Warc { .. } => WarcError::new_err(msg),
        E::Index { .. } => ArchiveIndexError::new_err(msg),
        E::OverBudget { .. } => OverBudgetError::new_err(msg),
        E::NoRules { .. } => NoRulesError::new_err(msg),
        E::Internal(_) => InternalError::new_err(msg),
        E::Invalid(_) => InvalidError::new_err(msg),
    }
}

/// Run `f`, a panic in it becoming [`forest::Error::Internal`].
pub fn guarded<T>(f: impl FnOnce() -> forest::Result<T>) -> forest::Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let why = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned());
        Err(forest::Error::Internal(format!("panicked: {}", why.unwrap_or_default())))
    })
}

/// Add the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ForestError", py.get_type::<ForestError>())?;
    m.add("ReadError", py.get_type::<ReadError>())?;
    m.add("FetchError", py.get_type::<FetchError>())?;
    m.add("TooLargeError", py.get_type::<TooLargeError>())?;
    m.add("NotHtmlError", py.get_type::<NotHtmlError>())?;
    m.add("FeedError", py.get_type::<FeedError>())?;
    m.add("InductionError", py.get_type::<InductionError>())?;
    m.add("WrapperError", py.get_type::<WrapperError>())?;
    m.add("XPathError", py.get_type::<XPathError>())?;
    m.add("SiteConfigError", py.get_type::<SiteConfigError>())?;
    m.add("WarcError", py.get_type::<WarcError>())?;
    m.add("ArchiveIndexError", py.get_type::<ArchiveIndexError>())?;
    m.add("OverBudgetError", py.get_type::<OverBudgetError>())?;
    m.add("NoRulesError", py.get_type::<NoRulesError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("InvalidError", py.get_type::<InvalidError>())?;
    Ok(())
}
