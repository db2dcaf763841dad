"""Type stubs of forest's extension module (re-exported by ``forest``)."""

import os
from typing import Any, Iterable, Iterator, Literal, Optional, Tuple, Union

__version__: str

Format = Literal["text", "markdown", "html", "xml", "json", "jsonl"]
Html = Union[str, bytes, bytearray]
#: A page: HTML (with ``url`` where given), a ``(url, html)`` pair, a path, or a WARC record.
Page = Union[Html, Tuple[str, Html], "os.PathLike[str]", "WarcRecord"]

class Article:
    """The article of a page: text, metadata, every output format, how it was found."""

    @property
    def url(self) -> Optional[str]:
        """The page's URL: where it was fetched from, else the canonical URL it declares."""
    @property
    def source(self) -> str:
        """Where it was read from, as given (a path or a URL; empty for HTML without a URL)."""
    @property
    def host(self) -> Optional[str]:
        """The host of ``url``."""
    @property
    def title(self) -> str:
        """The headline."""
    @property
    def byline(self) -> Optional[str]:
        """The author(s), when the page declares them."""
    @property
    def published(self) -> Optional[str]:
        """The publication date, in ISO 8601 when it reads as a date."""
    @property
    def authors(self) -> list[str]:
        """Each author, in order (``byline`` names them on one line)."""
    @property
    def modified(self) -> Optional[str]:
        """When it was last changed, in ISO 8601 when it reads as a date."""
    @property
    def site_name(self) -> Optional[str]:
        """The site's name, as the page declares it."""
    @property
    def description(self) -> Optional[str]:
        """Its summary, as the page declares it."""
    @property
    def image(self) -> Optional[str]:
        """Its lead image's URL."""
    @property
    def tags(self) -> list[str]:
        """Its tags (keywords)."""
    @property
    def categories(self) -> list[str]:
        """Its sections or categories."""
    @property
    def comments(self) -> list[str]:
        """The page's reader comments, when asked for (``comments=True``): a text per region of
        comments, a line per block; never part of ``text``."""
    @property
    def canonical_url(self) -> Optional[str]:
        """The canonical URL the page declares (absolute)."""
    @property
    def lang(self) -> Optional[str]:
        """The language code, as declared, else detected from the text."""
    @property
    def text(self) -> str:
        """The readable text, paragraphs separated by blank lines."""
    @property
    def html(self) -> str:
        """The article's elements as an HTML fragment (links resolved against ``url``)."""
    @property
    def markdown(self) -> str:
        """The article as CommonMark."""
    @property
    def xpath(self) -> str:
        """The XPath of the rules that extracted it (empty for the single-page extractor)."""
    @property
    def rule(self) -> str:
        """The rule that selected it (``exact``, ``same-type``, …, ``single-page``)."""
    @property
    def page_type(self) -> Optional[Literal["article", "forum", "product", "collection", "documentation"]]:
        """The kind of page it came from, as the page declares it or its URL shows; None when nothing says."""
    @property
    def confidence(self) -> float:
        """An estimate of its F1 against the page's true article, in [0, 1]; below 0.5 it may be wrong or partial."""
    @property
    def format(self) -> Format:
        """The format asked for."""
    @property
    def output(self) -> str:
        """The article in the format asked for, as ``forest apply --format`` prints one page."""
    def render(self, format: Format) -> str:
        """The article in ``format``, as ``forest apply --format`` prints one page."""
    def to_json(self, pretty: bool = False) -> str:
        """The JSON object of ``forest apply --format json`` (``pretty``) or ``jsonl``."""
    def to_dict(self) -> dict:
        """The JSON output's fields as a dict, plus ``markdown``."""

class Wrapper:
    """A site's wrapper: the XPath that selects its articles."""

    @property
    def xpath(self) -> str:
        """The XPath that selects the article."""
    @property
    def host(self) -> Optional[str]:
        """The site's host (the store's key), when the sample pages named one."""
    @property
    def site(self) -> str:
        """The site's name (feed title, folder or host)."""
    @property
    def pages(self) -> list[str]:
        """The sample pages it was learned from."""
    def apply(self, page: Page, url: Optional[str] = None, *, format: Format = "text", timeout: Optional[float] = None, comments: bool = False) -> Article:
        """The article of ``page`` by this wrapper, as ``forest apply --wrapper FILE``
        (``comments=True``: with the page's reader comments, as for :func:`extract`)."""
    @staticmethod
    def load(path: Union[str, "os.PathLike[str]"]) -> "Wrapper":
        """The wrapper in the file at ``path``. Raises :class:`WrapperError` for a bad file."""
    @staticmethod
    def from_json(text: str) -> "Wrapper":
        """The wrapper of a JSON text (the file format)."""
    def to_json(self) -> str:
        """The wrapper as JSON (the file format)."""
    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write the wrapper to ``path``, atomically."""

class Store:
    """A folder of wrappers by host, as ``forest induce`` keeps them."""

    def __init__(self, path: Union[str, "os.PathLike[str]", None] = None) -> None:
        """The store in ``path``; default ``$FOREST_STORE``, else ``~/.local/share/forest/wrappers``."""
    @property
    def path(self) -> str:
        """The store's folder."""
    def add(self, wrapper: Wrapper, host: Optional[str] = None) -> str:
        """Keep ``wrapper`` for ``host`` (default its own), keeping older templates; the file written."""
    def save(self, wrapper: Wrapper, host: Optional[str] = None) -> str:
        """Store ``wrapper`` for ``host`` (default its own), replacing; the file written."""
    def get(self, host: str) -> Optional[Wrapper]:
        """The wrapper stored for ``host`` or its parent domain."""
    def reports(self) -> list[dict[str, Any]]:
        """Each entry as ``forest wrappers list --json`` gives it: ``host``, ``kind``, ``xpath``,
        ``pages``, ``path``, ``age_days``, ``applied``, ``failed``, ``drifted``."""
    def hosts(self) -> list[str]:
        """The hosts with stored rules, sorted."""
    def remove(self, host: str) -> list[str]:
        """Remove the rules of ``host``; the files removed."""
    def __contains__(self, host: str) -> bool: ...

class WarcRecord:
    """One HTML page of a WARC file (picklable)."""

    def __init__(self, url: str, content: bytes, content_type: Optional[str] = None) -> None:
        """A record made in memory: its URL, body and HTTP ``Content-Type``."""
    @property
    def url(self) -> str:
        """The record's target URL."""
    @property
    def host(self) -> Optional[str]:
        """The host key of the URL, as the store names hosts."""
    @property
    def content_type(self) -> Optional[str]:
        """The HTTP ``Content-Type``."""
    @property
    def content(self) -> bytes:
        """The response body."""
    @property
    def text(self) -> str:
        """The body decoded as forest decodes a page (a BOM; valid UTF-8; the declared charset; a guess)."""

class WarcReader(Iterator[WarcRecord]):
    """The HTML pages of a WARC file, one record at a time."""

    def __iter__(self) -> "WarcReader": ...
    def __next__(self) -> WarcRecord: ...
    @property
    def stats(self) -> dict[str, int]:
        """What was read and skipped so far."""
    @property
    def path(self) -> str:
        """The file read."""

class Index:
    """An article index (tantivy) in a folder, keyed by URL, as ``forest apply --index`` writes it."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """The index in ``path``, created when absent."""
    def add(self, articles: list[Article], *, batch: int = 256) -> int:
        """Add ``articles`` (committing every ``batch``); how many were added."""
    def merge(self, shards: list[Union[str, "os.PathLike[str]"]]) -> int:
        """Add every article of the indexes ``shards`` (as ``forest merge-index``)."""
    def get(self, url: str) -> Optional[Article]:
        """The archived article of ``url`` (its text and metadata, as added), else None."""
    def search(self, query: str, limit: int = 10, *, host: Optional[str] = None) -> list[dict[str, Any]]:
        """The best ``limit`` articles for ``query`` (tantivy's syntax, as ``forest search``), only
        those of ``host`` when given: dicts with ``score``, ``url``, ``host``, ``title``,
        ``published``, ``snippet`` (matches inside « »), ``fragment`` and ``highlighted``
        (``(start, end)`` offsets of the matches in ``fragment``)."""
    @property
    def path(self) -> str:
        """The folder."""
    def __len__(self) -> int: ...

def extract(
    page: Page,
    url: Optional[str] = None,
    *,
    format: Format = "text",
    store: Optional[Store] = None,
    wrapper: Optional[Wrapper] = None,
    timeout: Optional[float] = None,
    comments: bool = False,
) -> Article:
    """The main article of one page (the store's wrapper of its host, a wrapper, else the
    single-page extractor). Raises :class:`NotHtmlError` for bytes that are not a page, and
    :class:`OverBudgetError` past ``timeout`` seconds (default 10, as ``forest apply``).
    ``comments=True`` also gives the page's reader comments (``article.comments``)."""

def extract_many(
    pages: Iterable[Page],
    *,
    format: Format = "text",
    store: Optional[Store] = None,
    wrapper: Optional[Wrapper] = None,
    jobs: Optional[int] = None,
    return_exceptions: bool = False,
    timeout: Optional[float] = None,
    comments: bool = False,
) -> list[Union[Article, "ForestError"]]:
    """The articles of many pages, in order, on ``jobs`` threads (default all cores), the GIL
    released. A failing page raises, or is its error in the list with ``return_exceptions``."""

def induce(
    pages: Union[str, "os.PathLike[str]", Iterable[Page]],
    *,
    host: Optional[str] = None,
    max_pages: int = 20,
) -> Wrapper:
    """A site's wrapper from a feed or folder (as ``forest induce``) or from pages. Raises
    :class:`InductionError` with fewer than 2 usable pages."""

def crawl(
    url: str,
    *,
    max_pages: int = 1000,
    max_depth: int = 10,
    store: Optional[Store] = None,
    out_dir: Optional[Union[str, "os.PathLike[str]"]] = None,
    format: Format = "jsonl",
    warc: bool = False,
    cache: Optional[Union[str, "os.PathLike[str]"]] = None,
    no_cache: bool = False,
    delay: float = 0.0,
    jobs: int = 4,
    timeout: Optional[float] = None,
    summary: Optional[dict[str, object]] = None,
    comments: bool = False,
) -> list[Article]:
    """Every article of the site of ``url``, as ``forest crawl`` gives them: its pages found
    (feed, sitemaps, links; robots.txt obeyed), listings passed over, its templates learned
    into ``store``. With ``out_dir``, written there too, and a call run again continues where a
    killed one stopped. ``summary`` (a dict) is filled with what the crawl did. Pages are
    cached in ``cache`` (default ``~/.cache/forest``, as the command; ``no_cache=True`` for none)."""

def flush_health() -> None:
    """Record the health outcomes of ``extract(..., store=...)`` calls that still wait: they
    are written in batches of 64 pages, and at exit."""

def host_of(url: str) -> Optional[str]:
    """The host key of ``url`` (lower case, without ``www.``), as the store names hosts."""

def read_warc(path: Union[str, "os.PathLike[str]"], *, errors: Literal["raise", "skip"] = "raise") -> WarcReader:
    """The HTML pages of a WARC file. A damaged record raises :class:`WarcError` (``raise``)
    or is counted in ``stats`` (``skip``, as ``forest apply --warc``)."""

class ForestError(Exception):
    """Every error forest raises; the message says what to do."""

class ReadError(ForestError): ...
class FetchError(ForestError): ...
class TooLargeError(ForestError): ...
class NotHtmlError(ForestError): ...
class FeedError(ForestError): ...
class InductionError(ForestError): ...
class WrapperError(ForestError): ...
class XPathError(ForestError): ...
class SiteConfigError(ForestError): ...
class WarcError(ForestError): ...
class ArchiveIndexError(ForestError): ...
class OverBudgetError(ForestError): ...
class NoRulesError(ForestError): ...
class InternalError(ForestError): ...
class InvalidError(ForestError): ...
