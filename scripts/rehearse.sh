#!/usr/bin/env bash
# The newcomer's path, timed against issue 48's goals: a fresh clone of this checkout's HEAD, then the
# README's two commands in the README's order, `make report` (goal: 6 minutes, setup included), then
# `make test` (goal: 5 minutes after setup; the setup `make test` does first, its Debian 13 stack and
# test packages, is timed on its own line). With FACTOR, each runs as on a host whose every core is
# FACTOR times slower (scripts/slower-host.py; needs root): the pool's slowest host, Zen 3, ran a
# quick run 1.56-1.9 times slower than its fastest, Zen 5 (README), and a time goal holds only where it
# holds on the slowest.
#
#   scripts/rehearse.sh [FACTOR]        make rehearse [SLOWER=2]
#
# What this machine already has is not reinstalled (Debian packages): the fresh machine's apt time is not
# measured here but added to the report's time before it is held against its goal: APT_SECONDS (default 70:
# `make report`'s setup took about 1:30 on a fresh family-25 host of the pool, issue 48, of which the venv,
# timed here, about 0:20, and 0:29 in all on the Zen 3 host on 2026-12-01; 0 leaves it out). The venv's packages download again (no pip or uv cache). Exits 1 when a
# command fails or misses its goal, and then keeps the clone for a look; a passing one's clone (1.4 GB
# with its venv and stack) is removed. The logs stay either way.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
factor=${1:-1}
[[ "$factor" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "error: FACTOR is a number of times slower, e.g. 2.7, got '$factor'" >&2; exit 2; }
apt_seconds=${APT_SECONDS:-70}
[[ "$apt_seconds" =~ ^[0-9]+$ ]] || { echo "error: APT_SECONDS is a whole number of seconds, e.g. 70, got '$apt_seconds'" >&2; exit 2; }

dir=$(mktemp -d)
git clone --quiet "$root" "$dir/p"
echo "rehearsal in $dir/p (commit $(git -C "$dir/p" rev-parse --short HEAD)); logs in $dir" >&2

slower=()
if awk -v f="$factor" 'BEGIN { exit !(f > 1) }'; then
  slower=("$root/scripts/slower-host.py" --factor "$factor" --)
fi

failed=0
report=()
# step LABEL GOAL_SECONDS(0: none) ADDED_SECONDS MAKE-ARGS...: one line of the report; the log is
# $dir/LABEL.log. ADDED_SECONDS (apt's, not re-run here) count towards the goal beside what was measured.
step() {
  local label=$1 goal=$2 added=$3 start status elapsed verdict used counted
  shift 3
  start=$(date +%s)
  echo "--- $label: make $* (log: $dir/$label.log)" >&2
  status=0
  (cd "$dir/p" && PIP_NO_CACHE_DIR=1 UV_NO_CACHE=1 "${slower[@]}" make --no-print-directory "$@") >"$dir/$label.log" 2>&1 || status=$?
  elapsed=$(($(date +%s) - start))
  counted=$((elapsed + added))
  if [ "$status" -ne 0 ]; then
    verdict="FAILED (exit $status; last lines of its log below)"
    failed=1
    tail -n 15 "$dir/$label.log" >&2
  elif [ "$goal" -gt 0 ] && [ "$counted" -gt "$goal" ]; then
    verdict="passed, past its goal of $((goal / 60)):$(printf %02d $((goal % 60)))"
    failed=1
  else
    verdict=passed
  fi
  # Under FACTOR, what the step used of the slowed CPUs (slower-host.py's last line): near 100 %, only less
  # CPU makes it faster there.
  used=$(sed -n "s/^slower-host: the command used //p" "$dir/$label.log" | tail -n 1)
  local took
  took=$(printf '%d:%02d' $((elapsed / 60)) $((elapsed % 60)))
  if [ "$added" -gt 0 ]; then
    took+=$(printf ' + %d:%02d apt (not re-run) = %d:%02d' $((added / 60)) $((added % 60)) $((counted / 60)) $((counted % 60)))
  fi
  report+=("$(printf '%-7s %6s  %s' "$label" "$took" "$verdict")${used:+ (used $used)}")
}

step report 360 "$apt_seconds" report
step setup 0 0 setup-dev test-stack
step test 300 0 test

echo ""
echo "The README's two commands on $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //'), family $(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/.*: //') model $(grep -m1 '^model[[:space:]]' /proc/cpuinfo | sed 's/.*: //')${slower:+, as on a host $factor times slower per core}:"
printf '%s\n' "${report[@]}"
if [ "$failed" -eq 0 ]; then
  rm -rf "$dir/p"
  echo "(the clone is removed; the logs are in $dir)"
else
  echo "(the clone stays in $dir/p, the logs in $dir)"
fi
exit "$failed"
