"""forest.datatrove in real datatrove pipelines (LocalPipelineExecutor, JsonlWriter; forest's
WARC reader, or datatrove's for UTF-8 pages): every HTML record of WARC files gives one
document whose text is `forest apply --warc`'s on the same files, in the single-page pass and in
the site-level pass (sampler, learner, extractor with the learned store); the pipeline's own
stats count the documents."""

import importlib.util
import json
from pathlib import Path

import pytest

import forest
from conftest import BLOGS, CORPUS, DEMO_HOST, demo_pages, site_pages, write_warc

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("datatrove") is None or importlib.util.find_spec("warcio") is None,
    reason="datatrove is not installed (pip install 'datatrove[io]')",
)


def run(pipeline, tasks, logs):
    """Run a datatrove pipeline on `tasks` tasks, one at a time; its merged stats (a list of
    each step's stats, as datatrove writes them)."""
    from datatrove.executor import LocalPipelineExecutor

    LocalPipelineExecutor(pipeline=pipeline, tasks=tasks, workers=1, logging_dir=str(logs)).run()
    return json.loads((logs / "stats.json").read_text())


def step_stats(stats, name):
    """The stats of the step called `name` (datatrove writes "<type>: <name>")."""
    for s in stats:
        if s["name"].endswith(f": {name}"):
            return s["stats"]
    raise AssertionError(f"no step {name!r} in {[s['name'] for s in stats]}")


def count(stats, key):
    v = stats.get(key, 0)
    return v["total"] if isinstance(v, dict) else v


def documents(out):
    """The documents a JsonlWriter wrote, by URL."""
    docs = {}
    for f in sorted(Path(out).glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            assert d["metadata"]["url"] not in docs, "a record gave two documents"
            docs[d["metadata"]["url"]] = d
    return docs


def reader(warcs, which):
    """forest's WARC reader step, or datatrove's."""
    if which == "datatrove":
        from datatrove.pipeline.readers import WarcReader
    else:
        from forest.datatrove import WarcReader
    return WarcReader(str(warcs), glob_pattern="*.warc*")


def extract(warcs, tmp, name, store=None, read="forest"):
    """datatrove: a WARC reader -> forest.datatrove.Forest -> JsonlWriter, 2 tasks; the
    documents by URL, the extractor's stats and the reader's."""
    from datatrove.pipeline.writers import JsonlWriter

    from forest.datatrove import Forest

    out = tmp / f"{name}-out"
    stats = run(
        [
            reader(warcs, read),
            Forest(store=None if store is None else str(store)),
            JsonlWriter(str(out), output_filename="${rank}.jsonl", compression=None),
        ],
        2,
        tmp / f"{name}-logs",
    )
    return documents(out), step_stats(stats, Forest.name), step_stats(stats, reader(warcs, read).name)


def learn(warcs, tmp, buckets=3, folder=None):
    """datatrove: the site-level steps (sampler on 2 tasks, learner on one task per bucket),
    their samples and store in `folder` (default `tmp`); the store folder and the learner's
    stats."""
    from forest.datatrove import ForestLearner, ForestSampler

    samples, store = f"{folder or tmp}/samples", f"{folder or tmp}/wrappers"
    run([reader(warcs, "forest"), ForestSampler(samples, buckets=buckets)], 2, tmp / "sample-logs")
    stats = run([ForestLearner(samples, store)], buckets, tmp / "learn-logs")
    return store, step_stats(stats, ForestLearner.name)


def check_against_cli(cli, warcs, docs, stats, store=None):
    """Every HTML record is one document with the command's text and metadata."""
    lines = [json.loads(line) for line in cli("apply", "--warc", *sorted(warcs.glob("*.warc*")), "--format", "jsonl", store=store).splitlines()]
    want = {line["url"]: line for line in lines if line["text"]}
    assert len(want) == len(lines), "a page with no article (the pipeline drops it)"
    assert sorted(docs) == sorted(want)
    for url, doc in docs.items():
        assert doc["text"] == want[url]["text"], url
        for key, field in [("title", "title"), ("byline", "byline"), ("published", "published"), ("language", "lang"), ("rule", "rule")]:
            assert doc["metadata"][key] == want[url].get(field), (url, key)
        assert doc["metadata"]["confidence"] == pytest.approx(want[url]["confidence"], abs=5e-4), url  # JSON rounds to 3 places
    assert count(stats, "total") == count(stats, "forwarded") == len(docs)
    return lines


def warc_folder(tmp, pages, files=3):
    folder = tmp / "warcs"
    folder.mkdir()
    for i in range(files):
        write_warc(folder / f"s-{i}.warc.gz", pages[i::files])
    return folder


@pytest.mark.parametrize("read", ["forest", "datatrove"])
def test_single_page_pass_on_demo_warcs(cli, tmp_path, read):
    warcs = warc_folder(tmp_path, demo_pages())
    docs, stats, _ = extract(warcs, tmp_path, "single", read=read)
    lines = check_against_cli(cli, warcs, docs, stats)
    assert {line["rule"] for line in lines} == {"single-page"}
    assert count(stats, "single_page") == len(docs) == len(demo_pages())


def test_site_level_pass_on_demo_warcs(cli, tmp_path):
    warcs = warc_folder(tmp_path, demo_pages())
    store, learned = learn(warcs, tmp_path)
    assert forest.Store(store).hosts() == [DEMO_HOST]
    assert count(learned, "wrappers") == 1
    docs, stats, _ = extract(warcs, tmp_path, "site", store)
    lines = check_against_cli(cli, warcs, docs, stats, store=store)
    assert {line["rule"] for line in lines} == {"exact"}
    assert count(stats, "site") == len(docs)


def test_site_level_pass_on_remote_folders(cli, tmp_path):
    """WARC files, samples and store in a file system that is not local (fsspec's memory://):
    the reader copies each WARC file to a local one, the learner uploads its wrappers, and the
    extractor copies the store once; the documents are those of local folders."""
    import fsspec

    warcs = warc_folder(tmp_path, demo_pages())
    fs, remote = fsspec.filesystem("memory"), "memory://forest-datatrove-test"
    for f in sorted(warcs.iterdir()):
        fs.put_file(str(f), f"{remote}/warcs/{f.name}")
    store, learned = learn(f"{remote}/warcs", tmp_path, folder=remote)
    assert count(learned, "wrappers") == 1
    copy = tmp_path / "store-copy"
    copy.mkdir()
    for name in fs.ls(store, detail=False):
        fs.get_file(name, str(copy / name.rsplit("/", 1)[1]))
    assert forest.Store(copy).hosts() == [DEMO_HOST]
    docs, stats, _ = extract(f"{remote}/warcs", tmp_path, "remote", store)
    lines = check_against_cli(cli, warcs, docs, stats, store=copy)
    assert {line["rule"] for line in lines} == {"exact"}
    fs.rm(remote, recursive=True)


def test_timeout_and_bad_options(tmp_path):
    from forest.datatrove import Forest

    with pytest.raises(ValueError):
        Forest(output_format="pdf")
    with pytest.raises(forest.InvalidError):
        Forest(timeout=-1).extract("<p>a page</p>")
    assert Forest().extract("<html><body><article><p>One paragraph of text.</p></article></body></html>") == "One paragraph of text."


@pytest.mark.parametrize("root", [CORPUS, BLOGS], ids=["corpus", "blogs"])
def test_both_passes_on_shared_warcs(cli, tmp_path, root):
    if not root.is_dir():
        pytest.skip(f"{root} is absent (the shared sets beside the checkout)")
    warcs = warc_folder(tmp_path, site_pages(root))
    # A record forest's reader skips (not a page, a damaged record) is counted, not lost.
    (warcs / "s-0.warc.gz").open("ab").write(b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99\r\n\r\ncut")
    docs, stats, read = extract(warcs, tmp_path, "single")
    assert count(read, "skipped_bad") == 1
    check_against_cli(cli, warcs, docs, stats)
    store, learned = learn(warcs, tmp_path)
    assert count(learned, "wrappers") > len(list(root.iterdir())) // 2
    docs, stats, _ = extract(warcs, tmp_path, "site", store)
    lines = check_against_cli(cli, warcs, docs, stats, store=store)
    assert sum(line["rule"] != "single-page" for line in lines) > len(lines) // 2


def test_the_example_job_on_demo_warcs(cli, tmp_path):
    """python/jobs/datatrove_extract.py (the README's example): sample, learn and extract
    pipelines chained; its articles are `forest apply --warc`'s with the store it learned."""
    import gzip
    import subprocess
    import sys

    from conftest import REPO

    warcs = warc_folder(tmp_path, demo_pages())
    out = tmp_path / "out"
    job = REPO / "python" / "jobs" / "datatrove_extract.py"
    p = subprocess.run([sys.executable, str(job), str(out), str(warcs), "--tasks", "2", "--sample", "2"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert forest.Store(out / "wrappers").hosts() == [DEMO_HOST]
    docs = {}
    for f in sorted((out / "articles").glob("*.jsonl.gz")):
        for line in gzip.decompress(f.read_bytes()).decode().splitlines():
            d = json.loads(line)
            docs[d["metadata"]["url"]] = d
    stats = step_stats(json.loads((out / "logs" / "extract" / "stats.json").read_text()), "🌲 forest")
    lines = check_against_cli(cli, warcs, docs, stats, store=out / "wrappers")
    assert {line["rule"] for line in lines} == {"exact"}
