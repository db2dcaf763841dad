#!/usr/bin/env bash
# A process per site, as a pipeline runs forest: `forest apply` once per site folder of a gold
# set, with the site's wrapper, one file per page, next to html5ever's parse-only pace of the
# same pages (`forest bench`), round after round. Prints MB/s and the ratio of each round.
#
#   benches/process_per_site.sh [FOREST] [GOLD_SET] [ROUNDS]
#   benches/process_per_site.sh target/dist/forest ../shared/corpus 5
#
# The loop forks nothing but forest (no `basename`). The out-dirs are new and stay until the
# end, on tmpfs where there is one (/dev/shm; OUT_ROOT= to choose): on an ext4 without a journal,
# creating files right after deleting many makes ext4 read its inode table for each freed inode,
# which timed the file system, not forest (docs/benchmarks.md, 2026-11-27).
set -euo pipefail
forest=$(realpath "${1:-target/release/forest}")
gold=$(realpath "${2:-../shared/corpus}")
rounds=${3:-5}
[ -x "$forest" ] || { echo "no forest binary at $forest (cargo build --release)" >&2; exit 1; }
[ -d "$gold" ] || { echo "no gold set at $gold (../shared is not in this checkout)" >&2; exit 0; }
root=${OUT_ROOT:-$([ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}
work=$(mktemp -d "$root/forest-per-site-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/wrappers" "$work/out"

sites=()
for s in "$gold"/*/; do
  s=${s%/}
  if "$forest" induce "$s" --no-store --quiet --out "$work/wrappers/${s##*/}.json" >/dev/null 2>&1; then
    sites+=("$s")
  fi
done
bytes=$(for s in "${sites[@]}"; do cat "$s"/*.html; done | wc -c)
echo "${#sites[@]} sites with a wrapper, $bytes bytes of HTML; $rounds rounds"

for r in $(seq "$rounds"); do
  parse=$("$forest" bench "$gold" --method single-page --no-figures 2>&1 | sed -n 's/.*parse-only \([0-9.]*\) MB\/s.*/\1/p')
  out="$work/out/$r"
  start=$(date +%s%N)
  for s in "${sites[@]}"; do
    n=${s##*/}
    "$forest" apply -j 1 --no-learn -w "$work/wrappers/$n.json" "$s"/*.html --out-dir "$out/$n" --quiet 2>/dev/null || true
  done
  end=$(date +%s%N)
  awk -v b="$bytes" -v ns="$((end - start))" -v p="$parse" -v r="$r" \
    'BEGIN { mbs = b / 1e6 / (ns / 1e9); printf "round %d: a process per site %.1f MB/s, parse-only %.1f MB/s, %.2fx\n", r, mbs, p, mbs / p }'
done
