"""forest on Spark: the articles of WARC shards, with one wrapper store shipped to the workers.

    spark-submit python/jobs/spark_extract.py OUT s-0001.warc.gz s-0002.warc.gz ...
    python python/jobs/spark_extract.py --master 'local[2]' OUT *.warc.gz     # no cluster needed

1. Induce, distributed: the HTML records of a sample of the shards (``--sample``, default the
   first tenth, at least one) are grouped by host; each host with at least ``--min-pages`` (3)
   pages gets a wrapper from its first ``--max-pages`` (20), as ``forest induce --warc`` does.
   The wrappers go into one store, ``OUT/wrappers/`` (small JSON files).
2. Ship the store to every worker (``SparkContext.addFile``).
3. Apply, one task per shard: every HTML record gets its host's stored wrapper, else the
   single-page extractor, as ``FOREST_STORE=OUT/wrappers forest apply --warc SHARD --format
   jsonl --index IDX`` would: ``OUT/articles/s-00000.jsonl`` (written whole: a task run again
   replaces it) and ``OUT/indexes/s-00000/`` (keyed by URL: a task run again completes it).
4. Merge the shard indexes into ``OUT/index/`` (``--no-merge`` to leave it to
   ``forest merge-index OUT/index OUT/indexes/*``).

``OUT/summary.json`` gives the counts per shard and the pages per second of step 3.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

import forest

CHUNK = 256


def sample_records(item, max_pages):
    """(host, (file, record, url, body, content type)) of a sample shard's first HTML records
    per host (a host has at most ``max_pages`` kept per shard)."""
    i, path = item
    kept = {}
    for j, r in enumerate(forest.read_warc(path, errors="skip")):
        host = r.host
        if host is None or kept.get(host, 0) >= max_pages:
            continue
        kept[host] = kept.get(host, 0) + 1
        yield host, (i, j, r.url, r.content, r.content_type)


def induce_host(item, min_pages, max_pages):
    """The wrapper (JSON) of one host from its sample records, in shard order; None when too
    few pages or none induces."""
    host, records = item
    records = sorted(records)[:max_pages]
    if len(records) < min_pages:
        return host, None, len(records)
    pages = [forest.WarcRecord(url, body, ctype) for _, _, url, body, ctype in records]
    try:
        return host, forest.induce(pages, host=host).to_json(), len(records)
    except forest.ForestError:
        return host, None, len(records)


def chunks(iterable, n):
    chunk = []
    for x in iterable:
        chunk.append(x)
        if len(chunk) == n:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def apply_shard(item, out, store_name, jobs):
    """One shard's articles (JSONL) and index, with the shipped store; its counts."""
    from pyspark import SparkFiles

    i, path = item
    store = forest.Store(SparkFiles.get(store_name))
    name = f"s-{i:05d}"
    articles_dir, index_dir = Path(out, "articles"), Path(out, "indexes", name)
    articles_dir.mkdir(parents=True, exist_ok=True)
    final = articles_dir / f"{name}.jsonl"
    partial = articles_dir / f".{name}.jsonl.tmp"
    index = forest.Index(index_dir)
    reader = forest.read_warc(path, errors="skip")
    pages = written = failed = 0
    started = time.perf_counter()
    with open(partial, "w", encoding="utf-8") as f:
        for chunk in chunks(reader, CHUNK):
            arts = forest.extract_many(chunk, store=store, format="jsonl", jobs=jobs, return_exceptions=True)
            ok = [a for a in arts if isinstance(a, forest.Article)]
            f.write("".join(a.output for a in ok))
            index.add(ok)
            pages, written, failed = pages + len(arts), written + len(ok), failed + len(arts) - len(ok)
    os.replace(partial, final)
    return {
        "shard": str(path),
        "articles": str(final),
        "index": str(index_dir),
        "pages": pages,
        "written": written,
        "failed": failed,
        "seconds": time.perf_counter() - started,
        "warc": reader.stats,
    }


def run(spark, out, warcs, sample, min_pages, max_pages, jobs, merge):
    sc = spark.sparkContext
    out = Path(out).resolve()
    warcs = [str(Path(w).resolve()) for w in warcs]
    sample = warcs[: sample or max(1, len(warcs) // 10)]
    started = time.perf_counter()

    # 1. Induce per host on the sample, on the workers.
    by_host = (
        sc.parallelize(list(enumerate(sample)), len(sample))
        .flatMap(lambda it: sample_records(it, max_pages))
        .groupByKey()
        .map(lambda hr: induce_host((hr[0], list(hr[1])), min_pages, max_pages))
        .collect()
    )
    store_dir = out / "wrappers"
    store = forest.Store(store_dir)
    store_dir.mkdir(parents=True, exist_ok=True)
    induced = {}
    for host, wrapper, n in sorted(by_host):
        if wrapper is not None:
            store.save(forest.Wrapper.from_json(wrapper), host)
            induced[host] = n
    induce_seconds = time.perf_counter() - started

    # 2. Ship the store; 3. apply, one task per shard.
    sc.addFile(str(store_dir), recursive=True)
    started = time.perf_counter()
    shards = (
        sc.parallelize(list(enumerate(warcs)), len(warcs))
        .map(lambda it: apply_shard(it, str(out), store_dir.name, jobs))
        .collect()
    )
    apply_seconds = time.perf_counter() - started

    # 4. Merge the shard indexes.
    merged = forest.Index(out / "index").merge([s["index"] for s in shards]) if merge else None
    pages = sum(s["pages"] for s in shards)
    summary = {
        "shards": shards,
        "sample": sample,
        "wrappers": induced,
        "hosts_sampled": len(by_host),
        "induce_seconds": induce_seconds,
        "apply_seconds": apply_seconds,
        "pages": pages,
        "pages_per_second": pages / apply_seconds if apply_seconds else None,
        "merged": merged,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="output folder: wrappers/, articles/, indexes/, index/, summary.json")
    ap.add_argument("warcs", nargs="+", help="WARC shards (.warc or .warc.gz)")
    ap.add_argument("--sample", type=int, default=0, help="induce on the first N shards (default: a tenth, at least 1)")
    ap.add_argument("--min-pages", type=int, default=3, help="the fewest sample pages a host needs for a wrapper")
    ap.add_argument("--max-pages", type=int, default=20, help="sample pages kept per host")
    ap.add_argument("--jobs", type=int, default=1, help="threads per task (forest.extract_many)")
    ap.add_argument("--no-merge", action="store_true", help="leave the shard indexes unmerged")
    ap.add_argument("--master", help="Spark master (e.g. local[2]); default: spark-submit's")
    a = ap.parse_args(argv)

    # Workers run this interpreter (with forest installed) unless told otherwise.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("forest-extract")
    if a.master:
        builder = builder.master(a.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    try:
        s = run(spark, a.out, a.warcs, a.sample, a.min_pages, a.max_pages, a.jobs, not a.no_merge)
    finally:
        spark.stop()
    print(
        f"forest-spark: {len(s['wrappers'])} wrappers from {len(s['sample'])} sample shards; "
        f"{s['pages']} pages in {len(s['shards'])} shards, {s['apply_seconds']:.1f} s, "
        f"{s['pages_per_second'] or 0:.0f} pages/s; merged index: {s['merged']} articles",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
