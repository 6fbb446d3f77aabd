#!/usr/bin/env bash
# `make bench-repeat N=3 [PROFILE=quick] [ONLY=aead,jwt]`: N runs of this machine, one after another.
# The run is the unit of replication (docs/methodology.md#runs-that-replicate): each repetition is a
# run of its own, and each takes the experiments in an order rotated by one, so that the repetitions
# of one experiment are separated by the others' work, as different moments of the machine.
# Prints each run's directory on stdout; `make noise REPEATED="..."` then estimates the spread between them.
set -euo pipefail

count=${1:-}
profile=${2:-quick}
only=${3:-}

fail() {
  echo "error: $*" >&2
  exit 2
}

[[ "$count" =~ ^[0-9]+$ ]] && ((count >= 2)) || fail "N must be a whole number of at least 2 (the runs to compare), got '$count'"
if [ -n "$only" ]; then
  IFS=',' read -r -a experiments <<<"$only"
else
  mapfile -t experiments < <(php runners/bench.php list | cut -f1)
fi
((${#experiments[@]} > 0)) || fail "no experiment to run"

rotated() {
  local shift=$1 n=${#experiments[@]} i list=()
  for ((i = 0; i < n; i++)); do
    list+=("${experiments[$(((i + shift) % n))]}")
  done
  local IFS=,
  echo "${list[*]}"
}

runs=()
for ((r = 0; r < count; r++)); do
  order=$(rotated "$r")
  echo "[repeat] run $((r + 1)) of $count: $order" >&2
  started=$(date -u +%Y%m%dT%H%M)
  run=$(php runners/bench.php run --profile "$profile" --only "$order") || fail "run $((r + 1)) of $count failed; the runs so far: ${runs[*]:-none}"
  runs+=("$run")
  echo "$run"
  # A run's id is the minute it started: the next one must start in another minute.
  while [ "$(date -u +%Y%m%dT%H%M)" = "$started" ]; do sleep 5; done
done
echo "[repeat] $count runs; estimate their spread with: make noise REPEATED=\"${runs[*]}\"" >&2
