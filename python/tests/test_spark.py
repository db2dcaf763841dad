"""The Spark job (python/jobs/spark_extract.py) on a local cluster of 2 workers: its articles
are `forest apply --warc`'s on the same files, with the store it induced; its merged index
holds every article."""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import forest
from conftest import CORPUS, REPO, demo_pages, site_pages, write_warc

JOB = REPO / "python" / "jobs" / "spark_extract.py"

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("pyspark") is None, reason="pyspark is not installed (pip install pyspark)"),
    pytest.mark.skipif(shutil.which("java") is None and not os.environ.get("JAVA_HOME"), reason="Spark needs Java (none on PATH)"),
]


def run_job(out, warcs, sample):
    args = [sys.executable, str(JOB), "--master", "local[2]", "--sample", str(sample), str(out), *map(str, warcs)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads((out / "summary.json").read_text())


def check_against_cli(cli, out, warcs, summary):
    shards = sorted((out / "articles").glob("s-*.jsonl"))
    assert len(shards) == len(warcs)
    job = b"".join(s.read_bytes() for s in shards)
    # The command on the same files, with the store the job induced.
    want = cli("apply", "--warc", *warcs, "--format", "jsonl", store=out / "wrappers")
    assert job == want
    lines = [json.loads(line) for line in job.splitlines()]
    assert len(lines) == summary["pages"] > 0
    # The merged index holds every article; the command merges the shard indexes alike.
    assert summary["merged"] == len(lines) == len(forest.Index(out / "index"))
    cli("merge-index", out / "cli-index", *sorted((out / "indexes").iterdir()))
    assert len(forest.Index(out / "cli-index")) == len(lines)
    return lines


def test_spark_job_on_demo_warcs(cli, tmp_path):
    pages = demo_pages()
    warcs = [write_warc(tmp_path / "a.warc.gz", pages[:3]), write_warc(tmp_path / "b.warc", pages[3:], compress=False)]
    out = tmp_path / "out"
    summary = run_job(out, warcs, sample=2)
    assert list(summary["wrappers"]) == ["riverside-gazette.example"]
    lines = check_against_cli(cli, out, warcs, summary)
    assert {line["rule"] for line in lines} == {"exact"}


def corpus_warcs(tmp_path, sites=8, files=3):
    """WARC files of corpus pages (`sites` sites) dealt round-robin into `files` shards."""
    pages = site_pages(CORPUS, sites)
    return [write_warc(tmp_path / f"c-{i}.warc.gz", pages[i::files]) for i in range(files)]


def test_spark_job_on_corpus_warcs(cli, corpus, tmp_path):
    warcs = corpus_warcs(tmp_path)
    out = tmp_path / "out"
    summary = run_job(out, warcs, sample=2)
    assert summary["wrappers"], "no host induced a wrapper"
    lines = check_against_cli(cli, out, warcs, summary)
    assert sum(line["rule"] != "single-page" for line in lines) > len(lines) // 2
