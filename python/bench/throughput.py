"""Throughput of the Python package next to the `forest` command, on ../shared/corpus.

    python python/bench/throughput.py [--forest target/release/forest] [--repeat 3]

Prints pages/s of, back to back (the machine may be shared: compare the ratios):
1. one core: `forest apply --jobs 1` on every corpus page vs `forest.extract` in a Python loop,
   with the single-page extractor and with a store of the sites' wrappers;
2. the batch call `forest.extract_many` on 1 and 2 threads;
3. the Spark job on `local[2]` (its apply stage) vs `forest apply --warc --jobs 2 --index`, on
   WARC shards made from the corpus pages.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import forest

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO / "python" / "tests"))
from conftest import CORPUS, write_warc  # noqa: E402


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def best(n, f):
    return min(timed(f) for _ in range(n))


def pair(n, f, g):
    """Best times of `f` and `g`, run alternately `n` times (a shared machine's load hits both)."""
    tf, tg = [], []
    for _ in range(n):
        tf.append(timed(f))
        tg.append(timed(g))
    return min(tf), min(tg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--forest", default=os.environ.get("FOREST_BIN", str(REPO / "target" / "release" / "forest")))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--skip-spark", action="store_true")
    a = ap.parse_args()
    sites = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    pages = [p for s in sites for p in sorted(s.glob("*.html"))]
    n = len(pages)
    tmp = Path(tempfile.mkdtemp(prefix="forest-bench-"))
    store_dir, empty = tmp / "store", tmp / "empty"
    empty.mkdir()
    for s in sites:
        subprocess.run([a.forest, "induce", str(s), "--store", str(store_dir), "--quiet"], capture_output=True)
    store = forest.Store(store_dir)
    in_memory = [(f"https://{p.parent.name.lower()}.example/{p.name}", p.read_bytes()) for p in pages]
    results = {"pages": n, "sites": len(sites), "wrappers": len(store.hosts())}

    def cli(*args, store_path):
        env = dict(os.environ, FOREST_STORE=str(store_path))
        subprocess.run([a.forest, *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)

    for mode, st, sp in [("single-page", None, empty), ("store", store, store_dir)]:
        # Back to back, alternating, best of `repeat`.
        c, py = pair(a.repeat, lambda: cli("apply", "--no-learn", "--quiet", "--jobs", "1", *sites, store_path=sp), lambda: [forest.extract(p, store=st) for p in pages])
        _, pyb = pair(1, lambda: None, lambda: [forest.extract(d, u, store=st) for u, d in in_memory])
        results[f"one core, {mode}"] = {
            "cli pages/s": n / c,
            "python extract(path) pages/s": n / py,
            "python/cli": c / py,
            "python extract(bytes, url) pages/s": n / pyb,
        }
    b1, b2 = pair(a.repeat, lambda: forest.extract_many(sites, store=store, jobs=1), lambda: forest.extract_many(sites, store=store, jobs=2))
    results["batch, store"] = {"jobs=1 pages/s": n / b1, "jobs=2 pages/s": n / b2, "speed-up": b1 / b2}

    if not a.skip_spark:
        recs = [(f"https://{p.parent.name.lower()}.example/{p.name}", p.read_bytes(), "text/html") for p in pages]
        warcs = [write_warc(tmp / f"s-{i}.warc.gz", recs[i :: a.shards]) for i in range(a.shards)]
        out = tmp / "spark"
        job = [sys.executable, str(REPO / "python" / "jobs" / "spark_extract.py"), "--master", "local[2]", "--sample", str(a.shards), str(out), *map(str, warcs)]
        t = timed(lambda: subprocess.run(job, capture_output=True, check=True))
        summary = json.loads((out / "summary.json").read_text())
        spark_store = out / "wrappers"
        times = []
        for _ in range(a.repeat):
            idx = tmp / "cli-index"
            shutil.rmtree(idx, ignore_errors=True)
            times.append(timed(lambda: cli("apply", "--warc", *warcs, "--jobs", "2", "--format", "jsonl", "--index", idx, "--quiet", store_path=spark_store)))
        c1 = best(a.repeat, lambda: cli("apply", "--warc", *warcs, "--jobs", "1", "--format", "jsonl", "--quiet", store_path=spark_store))
        no_index = best(a.repeat, lambda: cli("apply", "--warc", *warcs, "--jobs", "2", "--format", "jsonl", "--quiet", store_path=spark_store))
        results["spark local[2] vs cli --jobs 2"] = {
            "spark apply stage pages/s": summary["pages_per_second"],
            "spark whole job s (JVM start, induce, apply, merge)": t,
            "spark induce s": summary["induce_seconds"],
            "cli apply --warc --jobs 2 --index pages/s": summary["pages"] / min(times),
            "cli apply --warc --jobs 2 (no index) pages/s": summary["pages"] / no_index,
            "cli apply --warc --jobs 1 (no index) pages/s": summary["pages"] / c1,
            "pages": summary["pages"],
            "wrappers": len(summary["wrappers"]),
        }
    print(json.dumps(results, indent=1))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
