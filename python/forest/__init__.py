"""forest: the main article of web pages.

forest learns, per web site, one XPath wrapper from a handful of that site's pages (no
labels), then applies it to any page of the site; a page of a site without a wrapper gets the
single-page extractor. This package is the Rust library (PyO3): the same output as the
``forest`` command, byte for byte.

>>> import forest
>>> article = forest.extract(html, "https://news.example/a.html")     # doctest: +SKIP
>>> wrapper = forest.induce("feeds/demo-news/feed.xml")                # doctest: +SKIP
>>> wrapper.apply(html, url).text                                      # doctest: +SKIP

Functions: :func:`extract`, :func:`extract_many` (all cores, the GIL released),
:func:`induce`, :func:`crawl` (a whole site), :func:`read_warc`, :func:`host_of`. In datatrove pipelines: :mod:`forest.datatrove`. Classes: :class:`Article`, :class:`Wrapper`,
:class:`Store`, :class:`WarcRecord`, :class:`Index`. Errors: :class:`ForestError` and its subclasses.
"""

from ._forest import (
    ArchiveIndexError,
    Article,
    FeedError,
    FetchError,
    ForestError,
    Index,
    InductionError,
    InternalError,
    InvalidError,
    NoRulesError,
    NotHtmlError,
    OverBudgetError,
    ReadError,
    SiteConfigError,
    Store,
    TooLargeError,
    WarcError,
    WarcReader,
    WarcRecord,
    Wrapper,
    WrapperError,
    XPathError,
    __version__,
    crawl,
    extract,
    extract_many,
    flush_health,
    host_of,
    induce,
    read_warc,
)

__all__ = [
    "ArchiveIndexError",
    "Article",
    "FeedError",
    "FetchError",
    "ForestError",
    "Index",
    "InductionError",
    "InternalError",
    "InvalidError",
    "NoRulesError",
    "NotHtmlError",
    "OverBudgetError",
    "ReadError",
    "SiteConfigError",
    "Store",
    "TooLargeError",
    "WarcError",
    "WarcReader",
    "WarcRecord",
    "Wrapper",
    "WrapperError",
    "XPathError",
    "__version__",
    "crawl",
    "extract",
    "extract_many",
    "flush_health",
    "host_of",
    "induce",
    "read_warc",
]

import atexit as _atexit

# Health outcomes of single `extract` calls are recorded in batches: the last ones at exit.
_atexit.register(flush_health)
