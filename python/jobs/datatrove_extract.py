"""forest in a datatrove pipeline: the articles of a folder of WARC files, site-level where a host
has pages enough, as JSONL documents.

    pip install 'forest-extract[datatrove]'          # or ./python, or the wheel, and 'datatrove[io]'
    python python/jobs/datatrove_extract.py OUT warcs/ [--tasks 4] [--workers 2]

Three datatrove pipelines, each waiting for the one before (``depends``):
1. sample: the first tenth of the WARC files (``--sample``, at least one) through
   ``ForestSampler``: the first pages of each host, in ``--buckets`` buckets by host
   (``OUT/samples/``);
2. learn: ``ForestLearner``, one task per bucket: a wrapper per host with at least
   ``--min-pages`` (3) sample pages, into the store ``OUT/wrappers/``;
3. extract: every WARC file through ``forest.datatrove.WarcReader`` -> ``Forest(store=...)`` ->
   ``JsonlWriter``: ``OUT/articles/<rank>.jsonl.gz``, each document's text its article, its
   metadata the URL, title, byline, published date, language, confidence and rule.

Folders may be remote (``s3://…``), as datatrove reads them. ``OUT/logs/`` keeps datatrove's logs
and stats; a run again skips the tasks that completed.
"""

import argparse
from pathlib import Path


def pipelines(out, warcs, tasks, workers, sample, buckets, min_pages):
    """The three executors, the last depending on the others."""
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.io import get_datafolder
    from datatrove.pipeline.writers import JsonlWriter

    from forest.datatrove import Forest, ForestLearner, ForestSampler, WarcReader

    files = get_datafolder(warcs).list_files(glob_pattern="*.warc*")
    if not files:
        raise SystemExit(f"no WARC files (*.warc, *.warc.gz) in {warcs}")
    out = out.rstrip("/")
    sampled = files[: sample or max(1, len(files) // 10)]
    paths_file = f"{out}/sample-files.txt"
    with get_datafolder(out).open("sample-files.txt", "w") as f:
        f.write("".join(p + "\n" for p in sampled))

    sample_step = LocalPipelineExecutor(
        pipeline=[WarcReader(warcs, paths_file=paths_file), ForestSampler(f"{out}/samples", buckets=buckets)],
        tasks=min(tasks, len(sampled)),
        workers=workers,
        logging_dir=f"{out}/logs/sample",
    )
    learn_step = LocalPipelineExecutor(
        pipeline=[ForestLearner(f"{out}/samples", f"{out}/wrappers", min_pages=min_pages)],
        tasks=buckets,
        workers=workers,
        logging_dir=f"{out}/logs/learn",
        depends=sample_step,
    )
    extract_step = LocalPipelineExecutor(
        pipeline=[
            WarcReader(warcs, glob_pattern="*.warc*"),
            Forest(store=f"{out}/wrappers"),
            JsonlWriter(f"{out}/articles"),
        ],
        tasks=tasks,
        workers=workers,
        logging_dir=f"{out}/logs/extract",
        depends=learn_step,
    )
    return extract_step


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="output folder: samples/, wrappers/, articles/, logs/")
    ap.add_argument("warcs", help="the folder of WARC files (.warc or .warc.gz)")
    ap.add_argument("--tasks", type=int, default=4, help="tasks of the sample and extract pipelines")
    ap.add_argument("--workers", type=int, default=1, help="tasks run at once (processes)")
    ap.add_argument("--sample", type=int, default=0, help="learn from the first N files (default: a tenth, at least 1)")
    ap.add_argument("--buckets", type=int, default=8, help="buckets of hosts (tasks of the learn pipeline)")
    ap.add_argument("--min-pages", type=int, default=3, help="the fewest sample pages a host needs for a wrapper")
    a = ap.parse_args(argv)
    out = a.out if "://" in a.out else str(Path(a.out).resolve())
    warcs = a.warcs if "://" in a.warcs else str(Path(a.warcs).resolve())
    pipelines(out, warcs, a.tasks, a.workers, a.sample, a.buckets, a.min_pages).run()


if __name__ == "__main__":
    main()
