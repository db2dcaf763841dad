"""Python's output is `forest apply`'s, byte for byte (text and JSON), and `forest.induce` is
`forest induce`: on the demo site always, on every page of ../shared/corpus when it is there."""

from pathlib import Path

import pytest

import forest
from conftest import DEMO

EXT = {"text": "txt", "json": "json"}


def cli_outputs(cli, out_dir, args, fmt):
    """`forest apply ARGS --format FMT --out-dir OUT`: each page's output, by file name."""
    out = out_dir / fmt
    cli("apply", "--no-learn", "--quiet", *args, "--format", fmt, "--out-dir", out)
    return {p.name: p.read_bytes() for p in out.iterdir()}


def name_of(article, fmt):
    return f"{Path(article.source).name.removesuffix('.gz').rsplit('.', 1)[0]}.{EXT[fmt]}"


def check_site(cli, site: Path, tmp: Path):
    """Every page of `site`: its wrapper's article (when one induces) and the single-page one,
    in text and JSON, as Python and as the command give them."""
    pages = [a.source for a in forest.extract_many([site], jobs=1)]
    assert pages, f"{site} has no pages"
    # The single-page extractor: `extract` one page at a time, and the batch call.
    for fmt in EXT:
        want = cli_outputs(cli, tmp / "single", [site], fmt)
        got = [forest.extract(Path(p), format=fmt) for p in pages] if fmt == "text" else forest.extract_many([site], format=fmt)
        assert len(got) == len(want)
        for a in got:
            assert a.output.encode() == want[name_of(a, fmt)], f"{a.source} ({fmt}, single page)"
    # The site's wrapper, learned by each side from the folder.
    wrapper_file = tmp / "site.json"
    cli("induce", site, "--no-store", "--quiet", "--out", wrapper_file, check=False)
    try:
        w = forest.induce(site)
    except forest.InductionError:
        assert not wrapper_file.exists(), f"{site}: the command induced a wrapper, Python did not"
        return
    assert w.to_json() == wrapper_file.read_text(), f"{site}: the wrappers differ"
    for fmt in EXT:
        want = cli_outputs(cli, tmp / "wrapper", ["--wrapper", wrapper_file, site], fmt)
        got = [w.apply(Path(p), format=fmt) for p in pages] if fmt == "json" else forest.extract_many([site], wrapper=w, format=fmt, jobs=2)
        assert len(got) == len(want)
        for a in got:
            assert a.output.encode() == want[name_of(a, fmt)], f"{a.source} ({fmt}, wrapper)"


def test_demo_site_equals_cli(cli, tmp_path):
    check_site(cli, DEMO, tmp_path)


def corpus_sites():
    from conftest import CORPUS

    return sorted(p for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []


@pytest.mark.parametrize("site", corpus_sites(), ids=lambda p: p.name)
def test_corpus_site_equals_cli(cli, corpus, site, tmp_path):
    check_site(cli, site, tmp_path)


def test_corpus_present_or_skipped(corpus):
    assert corpus_sites(), f"{corpus} holds no site folders"
