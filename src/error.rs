//! Errors: one enum for the whole library, each message saying what happened and what to do,
//! in the library's own terms (the command line maps them to its flags).

use crate::budget::Limit;
use std::path::PathBuf;

/// Everything that can go wrong, with a message that says what to do.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder could not be read or written.
    #[error("cannot read or write {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A URL could not be fetched.
    #[error("cannot fetch {url}: {message}")]
    Fetch {
        /// The URL.
        url: String,
        /// What went wrong.
        message: String,
        /// The HTTP status the server answered, when it answered one (a 404; a 503 after
        /// retries); `None` for network failures.
        status: Option<u16>,
    },
    /// Input over a size limit.
    #[error("{what} is larger than the {limit}-byte limit")]
    TooLarge {
        /// What was too large.
        what: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// The bytes are not an HTML page.
    #[error("{what} is not an HTML page ({why})")]
    NotHtml {
        /// Which input.
        what: String,
        /// Why we think so.
        why: String,
    },
    /// A feed did not parse.
    #[error("{what} is not a feed forest can read (RSS, Atom or JSON Feed): {message}")]
    Feed {
        /// Which feed.
        what: String,
        /// The parser's message.
        message: String,
    },
    /// Fewer than two usable pages.
    #[error("Forest needs at least 2 pages that share a template; got {got} usable page(s){detail}")]
    TooFewPages {
        /// How many pages were usable.
        got: usize,
        /// Why the others were not (may be empty).
        detail: String,
    },
    /// No page had a significant node.
    #[error("no element of {site}'s pages holds a signifier: are these pages text articles?")]
    NoPattern {
        /// The site.
        site: String,
    },
    /// A wrapper file that is not ours.
    #[error("{} is not a forest wrapper: {message}", path.display())]
    BadWrapper {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An XPath that does not parse or evaluate.
    #[error("XPath {:?} cannot be used: {message}", shortened(xpath))]
    XPath {
        /// The expression.
        xpath: String,
        /// What is wrong.
        message: String,
    },
    /// A site config (FiveFilters format) with a line forest cannot use.
    #[error("{file}:{line}: {message}")]
    SiteConfig {
        /// The file (or the name given to the text).
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A WARC file that is not one, or a bad record in it (counted and skipped by readers).
    #[error("{file} (WARC, offset {offset}): {message}")]
    Warc {
        /// The file.
        file: String,
        /// Where the record starts in the uncompressed stream.
        offset: u64,
        /// What is wrong.
        message: String,
    },
    /// The article index (a tantivy index in a folder) could not be opened, read or written.
    #[error("article index {}: {message}", path.display())]
    Index {
        /// The index's folder.
        path: PathBuf,
        /// What went wrong, and what to do.
        message: String,
    },
    /// A page over one of its budgets (elements, time): skipped, the run goes on.
    #[error("over budget: {what}")]
    OverBudget {
        /// What went over, and the budget.
        what: String,
        /// Which budget it was.
        limit: Limit,
    },
    /// A link or redirect led to a private, loopback or link-local address, which fetching
    /// refuses unless told otherwise ([`crate::fetch::FetchOptions::allow_private`]).
    #[error("cannot fetch {url}: refused: {host} is a private, loopback or link-local address, reached through a link or redirect")]
    Private {
        /// The URL.
        url: String,
        /// The host (and address) refused.
        host: String,
    },
    /// No rules for the page's site: the store holds no wrapper or site config for its host.
    #[error("{}", no_rules(host.as_deref(), store))]
    NoRules {
        /// The page's host (none when the page names none: no URL, feed item or canonical link).
        host: Option<String>,
        /// The store searched.
        store: PathBuf,
    },
    /// A bug in forest: the message says where; please report it.
    #[error("internal error (a bug in forest, please report it): {0}")]
    Internal(String),
    /// A value the library cannot use: a host name, a method name, a folder with no pages, …
    #[error("{0}")]
    Invalid(String),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

fn no_rules(host: Option<&str>, store: &std::path::Path) -> String {
    match host {
        Some(h) => format!("no stored wrapper for {h} in {}: induce one from pages of the site first", store.display()),
        None => "the page names no host (no URL, no feed item, no canonical link), so no stored wrapper can be chosen".into(),
    }
}

/// A long text cut for a message: its first 200 characters and how many more there were.
fn shortened(s: &str) -> String {
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}… ({} more characters)", &s[..i], s[i..].chars().count()),
        None => s.to_string(),
    }
}
