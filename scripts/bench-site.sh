#!/usr/bin/env bash
# How `make site` scales with the number of runs: for each COUNT, a throwaway project with COUNT
# synthetic runs (python -m phpcb synthesize), then the two steps of `make site` timed on it.
# Usage: scripts/bench-site.sh 10 50 200   (needs the venv: make setup)
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD/scripts" NO_MKDOCS_2_WARNING=1
py=.venv/bin/python
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { local start=$1; echo "$(( $(date +%s%N) - start ))" | awk '{printf "%.1f", $1 / 1e9}'; }

printf '%6s  %8s  %10s  %10s  %10s\n' runs "CSV MB" "pages (s)" "mkdocs (s)" "total (s)"
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10 50 200)
for count in "${counts[@]}"; do
  project="$work/$count"
  "$py" -m phpcb synthesize "$count" "$project" >/dev/null
  size=$(du -sm "$project/data/runs" | cut -f1)
  start=$(date +%s%N)
  "$py" -m phpcb --root "$project" pages --out "$project/build" >/dev/null
  check=$(seconds "$start")
  start=$(date +%s%N)
  .venv/bin/mkdocs build --strict --quiet -f "$project/build/mkdocs.yml" -d "$project/site"
  build=$(seconds "$start")
  printf '%6s  %8s  %10s  %10s  %10s\n' "$count" "$size" "$check" "$build" "$(awk "BEGIN {print $check + $build}")"
done
