"""Shared fixtures: the repository's paths, the `forest` binary, WARC files made in a temp dir."""

import gzip
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "feeds" / "demo-news"
DEMO_HOST = "riverside-gazette.example"
#: The shared corpus beside the checkout (real pages; never copied into the repository).
CORPUS = REPO.parent / "shared" / "corpus"
#: The shared blogs (77 sites of 2012), beside the corpus.
BLOGS = REPO.parent / "shared" / "blogs"


def demo_pages():
    """The demo site's pages as (url, html bytes), in name order."""
    return [
        (f"https://{DEMO_HOST}/2024/03/{p.name}", p.read_bytes())
        for p in sorted(DEMO.glob("*.html"))
    ]


def write_warc(path, pages, compress=True):
    """A WARC file of `response` records, one per (url, html bytes[, content type]), one gzip
    member each when `compress`."""
    records = []
    for page in pages:
        url, body = page[0], page[1]
        ctype = page[2] if len(page) > 2 else "text/html; charset=utf-8"
        http = (
            f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        head = (
            "WARC/1.0\r\nWARC-Type: response\r\n"
            f"WARC-Target-URI: {url}\r\nWARC-Date: 2024-03-01T00:00:00Z\r\n"
            # As Common Crawl names the type it found (datatrove's reader reads it).
            f"WARC-Identified-Payload-Type: {ctype.split(';')[0].strip()}\r\n"
            f"WARC-Record-ID: <urn:uuid:{len(records):08d}-0000-0000-0000-000000000000>\r\n"
            "Content-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n"
        ).encode()
        records.append(head + http + b"\r\n\r\n")
    data = b"".join(records)
    Path(path).write_bytes(b"".join(gzip.compress(r) for r in records) if compress else data)
    return Path(path)


def site_files(root, sites=None):
    """The page files of the site folders of a shared set as (url, path), each page given the
    URL https://<site folder>.example/<page>.html; `sites` spread over the set when given, else
    all."""
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    if sites:
        folders = folders[:: max(1, len(folders) // sites)][:sites]
    return [(f"https://{site.name.lower()}.example/{page.name}", page) for site in folders for page in sorted(site.glob("*.html"))]


def site_pages(root, sites=None):
    """The pages of `site_files` as (url, html bytes, content type), as `write_warc` takes them."""
    return [(url, path.read_bytes(), "text/html") for url, path in site_files(root, sites)]


def find_forest_bin():
    """The `forest` binary built from this checkout, else the one on PATH; None when absent."""
    candidates = []
    if os.environ.get("FOREST_BIN"):
        candidates.append(Path(os.environ["FOREST_BIN"]))
    if os.environ.get("CARGO_TARGET_DIR"):
        candidates.append(Path(os.environ["CARGO_TARGET_DIR"]) / "release" / "forest")
    candidates.append(REPO / "target" / "release" / "forest")
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    found = shutil.which("forest")
    return Path(found) if found else None


@pytest.fixture(scope="session")
def forest_bin():
    b = find_forest_bin()
    if b is None:
        pytest.skip("no forest binary: build it (cargo build --release) or set FOREST_BIN")
    return b


@pytest.fixture(scope="session")
def cli(forest_bin, tmp_path_factory):
    """Run the forest command (offline: an empty store, no learning), return stdout bytes."""
    empty = tmp_path_factory.mktemp("empty-store")

    def run(*args, store=None, check=True):
        env = dict(os.environ, FOREST_STORE=str(store or empty), NO_COLOR="1")
        p = subprocess.run([str(forest_bin), *map(str, args)], capture_output=True, env=env)
        if check and p.returncode not in (0, 3):
            raise AssertionError(f"forest {args} exited {p.returncode}: {p.stderr.decode()}")
        return p.stdout

    return run


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is absent (the shared corpus beside the checkout)")
    return CORPUS
