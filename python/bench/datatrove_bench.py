"""datatrove's Trafilatura extractor and forest's, in the same datatrove pipeline, on one WARC
made of ../shared/blogs and ../shared/corpus: documents per second per core and 2-gram F1
against the gold (../shared/tools/score.py).

    pip install 'datatrove[io]>=0.10' 'trafilatura>=1.8,<1.12' ./python   # or the wheel
    python python/bench/datatrove_bench.py [--sets blogs corpus] [--json results.json]

Each pipeline is datatrove's WarcReader -> extractor -> JsonlWriter on one task and one worker
(one core), so both extractors get the same documents:
1. ``Trafilatura()``, datatrove's defaults (it extracts in a child process, as datatrove runs it);
2. ``forest.datatrove.Forest()``: the single-page pass;
3. ``Forest(store=...)``: the site-level pass, with the wrappers ``ForestSampler`` and
   ``ForestLearner`` learned from the same WARC (learning timed apart);
4. the same with ``forest.datatrove.WarcReader`` in place of datatrove's reader (which drops or
   misreads some pages whose charset its detector gets wrong).

Documents/s is the extractor step's own time (datatrove's stats), and the whole pipeline's
wall time beside it. F1 is the mean over every gold page; a page with no document scores 0.
Not a test: the machine may be shared, so compare the ratios of one run.
"""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO / "python" / "tests"))
sys.path.insert(0, str(SHARED / "tools"))
from conftest import site_files, write_warc  # noqa: E402


def run(pipeline, logs):
    """One task, one worker; (the pipeline's stats by step name, wall seconds)."""
    from datatrove.executor import LocalPipelineExecutor

    started = time.perf_counter()
    LocalPipelineExecutor(pipeline=pipeline, tasks=1, workers=1, logging_dir=str(logs)).run()
    wall = time.perf_counter() - started
    stats = json.loads((logs / "stats.json").read_text())
    return {s["name"].split(": ", 1)[-1]: s for s in stats}, wall


def extract(name, extractor, warcs, tmp, reader):
    """The documents' texts by URL, the extractor's seconds, the pipeline's wall seconds."""
    from datatrove.pipeline.writers import JsonlWriter

    out = tmp / f"{name}-out"
    stats, wall = run(
        [reader(str(warcs)), extractor, JsonlWriter(str(out), output_filename="docs.jsonl", compression=None)],
        tmp / f"{name}-logs",
    )
    texts = {}
    for line in (out / "docs.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        texts[d["metadata"]["url"]] = d["text"]
    return texts, stats[extractor.name]["time_stats"]["total"], wall


def learn(warcs, tmp):
    """The site-level steps on the WARC: the store folder and the seconds they took."""
    from datatrove.pipeline.readers import WarcReader

    from forest.datatrove import ForestLearner, ForestSampler

    samples, store = tmp / "samples", tmp / "wrappers"
    _, wall_a = run([WarcReader(str(warcs)), ForestSampler(str(samples), buckets=1)], tmp / "sample-logs")
    _, wall_b = run([ForestLearner(str(samples), str(store))], tmp / "learn-logs")
    return store, wall_a + wall_b


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="+", default=["blogs", "corpus"], help="shared sets to put in the WARC")
    ap.add_argument("--json", help="write the results here too")
    a = ap.parse_args(argv)

    import score  # ../shared/tools/score.py, the reference scorer
    from datatrove.pipeline.extractors import Trafilatura
    from datatrove.pipeline.readers import WarcReader

    from forest.datatrove import Forest
    from forest.datatrove import WarcReader as ForestWarcReader

    tmp = Path(tempfile.mkdtemp(prefix="forest-datatrove-bench-"))
    gold = {}  # url -> (set, gold text)
    pages = []
    for name in a.sets:
        root = SHARED / name
        if not root.is_dir():
            sys.exit(f"{root} is absent (the shared sets beside the checkout)")
        for url, path in site_files(root):
            gold[url] = (name, path.with_suffix(".txt").read_text(encoding="utf-8", errors="replace"))
            pages.append((url, path.read_bytes(), "text/html"))
    warcs = tmp / "warcs"
    warcs.mkdir()
    write_warc(warcs / "bench.warc.gz", pages)
    print(f"{len(pages)} pages of {', '.join(a.sets)} in {warcs / 'bench.warc.gz'}", file=sys.stderr)

    store, learn_seconds = learn(warcs, tmp)
    runs = [
        ("trafilatura", Trafilatura(), WarcReader),
        ("forest single-page", Forest(), WarcReader),
        ("forest site-level", Forest(store=str(store)), WarcReader),
        # forest's reader in place of datatrove's: the pages datatrove's drops or misreads.
        ("forest site, f.reader", Forest(store=str(store)), ForestWarcReader),
    ]
    results = []
    for name, extractor, reader in runs:
        texts, seconds, wall = extract(name.replace(" ", "-").replace(",", "").replace(".", ""), extractor, warcs, tmp, reader)
        f1 = {s: [] for s in a.sets}
        for url, (s, want) in gold.items():
            f1[s].append(score.score_texts(want, texts.get(url, ""))["f1"])
        every = [x for xs in f1.values() for x in xs]
        results.append(
            {
                "extractor": name,
                "documents": len(texts),
                "docs_per_second": len(texts) / seconds if seconds else None,
                "pipeline_docs_per_second": len(texts) / wall,
                "f1": {**{s: sum(xs) / len(xs) for s, xs in f1.items()}, "all": sum(every) / len(every)},
            }
        )
    base = results[0]["docs_per_second"]
    head = f"{'extractor':<22} {'docs':>5} {'docs/s':>8} {'×':>6} {'pipeline/s':>10} " + " ".join(f"{s:>7}" for s in [*a.sets, "all"])
    print(head)
    for r in results:
        print(
            f"{r['extractor']:<22} {r['documents']:>5} {r['docs_per_second']:>8.1f} {r['docs_per_second'] / base:>6.1f} "
            f"{r['pipeline_docs_per_second']:>10.1f} " + " ".join(f"{r['f1'][s]:>7.4f}" for s in [*a.sets, "all"])
        )
    print(f"(site-level learning: {learn_seconds:.1f} s for the whole WARC, both steps)")
    if a.json:
        Path(a.json).write_text(json.dumps({"pages": len(pages), "learn_seconds": learn_seconds, "results": results}, indent=1))


if __name__ == "__main__":
    main()
