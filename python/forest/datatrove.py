"""forest in datatrove pipelines (``pip install 'forest-extract[datatrove]'``).

:class:`Forest` slots in where datatrove's ``Trafilatura`` extractor does::

    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from forest.datatrove import Forest

    pipeline = [WarcReader("warcs/"), Forest(timeout=10), JsonlWriter("out/")]

datatrove's reader drops a record whose bytes are not UTF-8 when its charset detector says
they are, and reads a page declared UTF-8 with a stray byte in the detector's guess.
:class:`WarcReader` (same arguments) reads the records as ``forest apply --warc`` does (status
200, an HTML type, the page's declared charset), so that no page is lost and every document is
the command's.

Each document's HTML becomes its article's text (``forest apply --warc``'s, byte for byte), and
its metadata gains the article's ``title``, ``byline``, ``published``, ``language``,
``confidence``, ``rule`` and ``page_type``. Documents with no article are dropped and counted.

**Site-level.** Hosts with several pages in the crawl get their site's wrapper, the rest the
single-page extractor, in two more steps run before the extraction (as datatrove's deduplication
runs its stages): :class:`ForestSampler` keeps the first pages of each host of a sample of the
shards, in buckets by host; :class:`ForestLearner`, one task per bucket, learns a wrapper per host
and writes it to a store folder (local or remote), which every extraction task reads
(``Forest(store=...)``). See the README's "In datatrove" for the whole pipeline.

Unlike the base extractor, :class:`Forest` needs no child process per task: forest's own budget
stops a page at ``timeout`` (raising ``OverBudgetError``, counted as ``timeout``) and turns any
failure into a ``ForestError`` (counted as ``clean_error``), so documents do not cross a pipe.
"""

from __future__ import annotations

import json
import os
import tempfile
import zlib
from collections import defaultdict
from functools import cached_property

try:
    from datatrove.io import DataFolderLike, get_datafolder
    from datatrove.pipeline.base import PipelineStep
    from datatrove.pipeline.extractors.base import BaseExtractor
    from datatrove.pipeline.readers import WarcReader as DatatroveWarcReader
    from datatrove.utils.typeshelper import StatHints
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "forest.datatrove needs datatrove: pip install 'forest-extract[datatrove]' (or 'datatrove[io]')"
    ) from e

import forest

__all__ = ["Forest", "ForestSampler", "ForestLearner", "WarcReader"]

#: The article's fields added to a document's metadata (as JSON keys), from the Article's.
METADATA = {
    "title": "title",
    "byline": "byline",
    "published": "published",
    "language": "lang",
    "confidence": "confidence",
    "rule": "rule",
    "page_type": "page_type",
}


def open_store(store: DataFolderLike | None) -> tuple[forest.Store | None, tempfile.TemporaryDirectory | None]:
    """The wrapper store of a folder: read in place when local, else copied once to a local
    temporary folder (the store's files are small JSON files), given back beside it: the
    folder is removed when it is dropped, so the caller keeps it as long as the store."""
    if store is None:
        return None, None
    folder = get_datafolder(store)
    if folder.is_local():
        return forest.Store(folder.path), None
    local = tempfile.TemporaryDirectory(prefix="forest-store-")
    for name in folder.list_files(recursive=False):
        folder.get_file(name, os.path.join(local.name, os.path.basename(name)))
    return forest.Store(local.name), local


class Forest(BaseExtractor):
    """The main article of each document by forest: its host's wrapper from ``store`` when
    there is one, else the single-page extractor.

    Args:
        timeout: each document's time limit, in seconds (``forest apply --max-seconds``, whose
            default it has); past it the document is dropped and counted as ``timeout``.
        store: a wrapper store folder (a path, remote paths included, or a ``DataFolder``), as
            :class:`ForestLearner` writes it or ``forest induce`` keeps it; none for single-page
            extraction only.
        output_format: what becomes the document's text: ``"text"`` (``forest apply``'s),
            ``"markdown"`` or ``"html"``.
        url_key: the metadata key of the document's URL (datatrove's WARC reader's is ``url``).
    """

    name = "🌲 forest"
    _requires_dependencies = [("forest", "forest-extract")]

    def __init__(
        self,
        timeout: float = 10.0,
        store: DataFolderLike | None = None,
        output_format: str = "text",
        url_key: str = "url",
    ):
        super().__init__(timeout)
        if output_format not in ("text", "markdown", "html"):
            raise ValueError(f"output_format must be text, markdown or html, not {output_format!r}")
        self.store = store
        self.output_format = output_format
        self.url_key = url_key

    @cached_property
    def local_store(self) -> forest.Store | None:
        """The store, read once per task (copied once when remote, the copy kept as long as
        this step)."""
        store, self._store_copy = open_store(self.store)
        return store

    def article(self, html: str, url: str | None = None) -> forest.Article:
        """The article of one page (its HTML and URL) by this step's rules."""
        return forest.extract(html, url, store=self.local_store, timeout=self.timeout)

    def output(self, article: forest.Article) -> str:
        """What becomes a document's text: the article's text, Markdown or HTML."""
        return article.text if self.output_format == "text" else article.render(self.output_format)

    def extract(self, text: str, url: str | None = None) -> str:
        """The article of one page, as the base class defines the step."""
        return self.output(self.article(text, url))

    def run(self, data, rank: int = 0, world_size: int = 1):
        for doc in data:
            self.stat_update(StatHints.total)
            with self.track_time():
                try:
                    article = self.article(doc.text, doc.metadata.get(self.url_key))
                except forest.OverBudgetError:
                    self.stat_update("timeout")
                    continue
                except forest.ForestError:
                    self.stat_update("clean_error")
                    continue
                doc.text = self.output(article)
                self.stat_update("extracted", "site" if article.rule != "single-page" else "single_page")
            for key, field in METADATA.items():
                doc.metadata[key] = getattr(article, field)
            if doc.text:
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update(StatHints.dropped)


class WarcReader(DatatroveWarcReader):
    """datatrove's WARC reader (the same arguments), reading records as ``forest apply --warc``
    does: each response with status 200 and an HTML type is a document, its text the body
    decoded as forest decodes a page, its metadata its ``url``. A damaged record is skipped and
    counted (``skipped_bad``), as are records of other statuses and types. A remote file is
    copied to a local temporary file first (forest reads WARC files by path)."""

    name = "🕷 forest Warc"

    def read_file(self, filepath: str):
        local, tmp = filepath, None
        if self.data_folder.is_local():
            local = self.data_folder.resolve_paths(filepath)
        else:
            tmp = tempfile.NamedTemporaryFile(prefix="forest-", suffix=os.path.basename(filepath))
            self.data_folder.get_file(filepath, tmp.name)
            local = tmp.name
        try:
            reader = forest.read_warc(local, errors="skip")
            for i, record in enumerate(reader):
                with self.track_time():
                    document = self.get_document_from_dict({"text": record.text, "id": f"{filepath}#{i}", "url": record.url}, filepath, i)
                if document:
                    yield document
            for key, value in reader.stats.items():
                if key.startswith("skipped_") and value:
                    self.stat_update(key, value=value)
        finally:
            if tmp is not None:
                tmp.close()


def bucket_of(host: str, buckets: int) -> int:
    """The bucket of a host: the same in every task and every run (CRC-32 of its name)."""
    return zlib.crc32(host.encode()) % buckets


class ForestSampler(PipelineStep):
    """Site-level step 1: the first ``max_pages`` pages of each host in this task's documents,
    written to ``output_folder`` in ``buckets`` by host (``<bucket>/<rank>.jsonl.gz``), for
    :class:`ForestLearner`. Documents pass through unchanged.

    Args:
        output_folder: where the samples go (a path, remote paths included, or a ``DataFolder``).
        buckets: how many buckets (run :class:`ForestLearner` with as many tasks).
        max_pages: pages kept per host and task.
        url_key: the metadata key of the document's URL.
    """

    name = "🌲 forest sample"
    type = "🌲 - SITES"

    def __init__(self, output_folder: DataFolderLike, buckets: int = 16, max_pages: int = 20, url_key: str = "url"):
        super().__init__()
        if buckets < 1 or max_pages < 1:
            raise ValueError("buckets and max_pages must be at least 1")
        self.output_folder = get_datafolder(output_folder)
        self.buckets = buckets
        self.max_pages = max_pages
        self.url_key = url_key

    def run(self, data, rank: int = 0, world_size: int = 1):
        kept: dict[str, int] = defaultdict(int)
        with self.output_folder.get_output_file_manager(mode="wt", compression="gzip") as out:
            for doc in data:
                url = doc.metadata.get(self.url_key)
                host = forest.host_of(url) if url else None
                if host is None:
                    self.stat_update("no_host")
                elif kept[host] < self.max_pages:
                    kept[host] += 1
                    line = json.dumps({"host": host, "url": url, "html": doc.text}, ensure_ascii=False)
                    out.write(f"{bucket_of(host, self.buckets):05d}/{rank:05d}.jsonl.gz", line + "\n")
                    self.stat_update("sampled")
                yield doc
        self.stat_update("hosts", value=len(kept))


class ForestLearner(PipelineStep):
    """Site-level step 2: a wrapper for each host with at least ``min_pages`` sample pages,
    learned from its first ``max_pages`` (as ``forest induce``), written to ``store_folder``.
    Task ``rank`` learns the hosts of buckets ``rank``, ``rank + world_size``, …: run it with as
    many tasks as :class:`ForestSampler` has buckets (or fewer). A host is in one bucket, so no
    two tasks write the same wrapper.

    Args:
        input_folder: :class:`ForestSampler`'s output folder.
        store_folder: the wrapper store to write (a path, remote paths included, or a
            ``DataFolder``); :class:`Forest` reads it.
        min_pages: the fewest sample pages a host needs.
        max_pages: sample pages used per host.
    """

    name = "🌲 forest learn"
    type = "🌲 - SITES"

    def __init__(self, input_folder: DataFolderLike, store_folder: DataFolderLike, min_pages: int = 3, max_pages: int = 20):
        super().__init__()
        self.input_folder = get_datafolder(input_folder)
        self.store_folder = get_datafolder(store_folder)
        self.min_pages = max(2, min_pages)
        self.max_pages = max_pages

    def host_pages(self, rank: int, world_size: int) -> dict[str, list[tuple[str, str]]]:
        """The sample pages of this task's buckets by host, in (bucket, sampler rank, line) order."""
        pages: dict[str, list[tuple[str, str]]] = defaultdict(list)
        buckets = sorted(d for d in self.input_folder.list_files(recursive=True) if d.endswith(".jsonl.gz"))
        for name in buckets:
            bucket = os.path.dirname(name)
            if not bucket.isdigit() or int(bucket) % world_size != rank:
                continue
            with self.input_folder.open(name, "rt", compression="gzip") as f:
                for line in f:
                    page = json.loads(line)
                    if len(pages[page["host"]]) < self.max_pages:
                        pages[page["host"]].append((page["url"], page["html"]))
        return pages

    def run(self, data, rank: int = 0, world_size: int = 1):
        if data:
            yield from data
        # A remote store gets the wrappers through a local folder, removed when the task ends.
        with tempfile.TemporaryDirectory(prefix="forest-store-") as scratch:
            local = self.store_folder.path if self.store_folder.is_local() else scratch
            self.learn(forest.Store(local), rank, world_size)

    def learn(self, store: forest.Store, rank: int, world_size: int) -> None:
        """Induce and save into ``store`` the wrapper of every host of this task's buckets
        (and put it in the store folder when that is remote)."""
        for host, pages in sorted(self.host_pages(rank, world_size).items()):
            self.stat_update("hosts")
            if len(pages) < self.min_pages:
                self.stat_update("too_few_pages")
                continue
            with self.track_time("host"):
                try:
                    wrapper = forest.induce(pages, host=host, max_pages=self.max_pages)
                except forest.ForestError:
                    self.stat_update("not_learned")
                    continue
                written = store.save(wrapper, host)
            if not self.store_folder.is_local():
                self.store_folder.put_file(written, os.path.basename(written))
            self.stat_update("wrappers")
