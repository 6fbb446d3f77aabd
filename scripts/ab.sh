#!/usr/bin/env bash
# `make ab BASE=<ref> [ROUNDS=3] [PROFILE=quick] [ONLY=aead,jwt] [DIR=ab]`: a code change measured A/B in
# one job. The runners of BASE (a git worktree) and of this checkout (HEAD with its uncommitted changes)
# take turns on this machine, round after round, in ABBA order (base then head, then head then base, ...),
# so a drift of the machine moves both sides alike; `python -m phpcb ab` then compares round by round
# (scripts/phpcb/compare/ab.py). Writes DIR/runs/ (every run), DIR/report.md and DIR/report.json; prints the
# Markdown report. Extra runner options (e.g. --fake-clock in tests) come from PHPCB_AB_RUNNER_ARGS.
set -euo pipefail

base_ref=${1:-}
rounds=${2:-3}
profile=${3:-quick}
only=${4:-}
dir=${5:-ab}

fail() {
  echo "error: $*" >&2
  exit 2
}

[ -n "$base_ref" ] || fail "BASE is required: the git ref to measure against, e.g. make ab BASE=origin/main"
git rev-parse --verify --quiet "${base_ref}^{commit}" >/dev/null || fail "BASE '$base_ref' is not a commit of this repository"
[[ "$rounds" =~ ^[0-9]+$ ]] && ((rounds >= 2)) || fail "ROUNDS must be a whole number of at least 2, got '$rounds'"
case "$profile" in quick | full) ;; *) fail "PROFILE must be quick or full, got '$profile'" ;; esac
[ ! -e "$dir/runs" ] || fail "$dir/runs already exists: move it away or name another DIR"

base_commit=$(git rev-parse --short "$base_ref")
head_label=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- runners || head_label="$head_label+uncommitted"
php_version=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
read -r -a runner_args <<<"${PHPCB_AB_RUNNER_ARGS:-}"

work=$(mktemp -d)
cleanup() {
  git worktree remove --force "$work/base" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git worktree add --quiet --detach "$work/base" "$base_ref"
mkdir -p "$dir/runs"
runs_dir=$(cd "$dir/runs" && pwd)

measure() { # side round: one run of that side's runner, into DIR/runs/; pairs[] holds B1 H1 B2 H2 ...
  local side=$1 round=$2 checkout id
  checkout=$([ "$side" = base ] && echo "$work/base" || pwd)
  id="$(date -u +%Y%m%dT%H%MZ)-ab-r${round}-${side}-php${php_version}"
  echo "[ab] round $round of $rounds: $side ($([ "$side" = base ] && echo "$base_ref" || echo "$head_label"))" >&2
  (cd "$checkout" && php runners/bench.php run --profile "$profile" ${only:+--only "$only"} --out "$runs_dir/$id" "${runner_args[@]}" >/dev/null) ||
    fail "the $side runner failed in round $round; the runs so far are in $dir/runs/"
  local slot=$(((round - 1) * 2))
  [ "$side" = base ] || slot=$((slot + 1))
  pairs[slot]="$runs_dir/$id"
}

pairs=()
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order=(base head); else order=(head base); fi
  for side in "${order[@]}"; do measure "$side" "$r"; done
done

python=${PYTHON:-.venv/bin/python}
PYTHONPATH=scripts "$python" -m phpcb ab --base-ref "$base_ref ($base_commit)" --head-ref "$head_label" \
  --format json --out "$dir/report.json" "${pairs[@]}" >&2
PYTHONPATH=scripts "$python" -m phpcb ab --base-ref "$base_ref ($base_commit)" --head-ref "$head_label" \
  --out "$dir/report.md" "${pairs[@]}" >&2
cat "$dir/report.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$dir/report.md" >>"$GITHUB_STEP_SUMMARY"; fi
