#!/usr/bin/env bash
# `make bench-stacks [STACKS="host debian13"] [ROUNDS=3] [PROFILE=quick] [ONLY=aead,jwt]`: two stacks (the
# host's PHP and a root filesystem of scripts/stacks/, or two of those) measured on this machine in one job,
# round after round in ABBA order (A then B, then B then A, ...), so that what the machine does between runs
# minutes apart moves both stacks alike, as `make ab` does for code. Every run goes to data/runs/; the set of
# rounds to data/stacks/<set-id>.json (python -m phpcb stacks --record), which the build reads for the
# "PHP and OpenSSL versions" page; the report (each class's and case's ratio B/A with its CI across rounds)
# is printed. Extra runner options (e.g. --fake-clock in tests) come from PHPCB_STACKS_RUNNER_ARGS.
set -euo pipefail

stacks=${1:-host debian13}
rounds=${2:-3}
profile=${3:-quick}
only=${4:-}

fail() {
  echo "error: $*" >&2
  exit 2
}

read -r -a names <<<"$stacks"
[ "${#names[@]}" -eq 2 ] || fail "STACKS names two stacks, the older first, e.g. STACKS=\"host debian13\"; got '$stacks'"
[ "${names[0]}" != "${names[1]}" ] || fail "STACKS names the same stack twice: '$stacks'"
[[ "$rounds" =~ ^[0-9]+$ ]] && ((rounds >= 2)) || fail "ROUNDS must be a whole number of at least 2, got '$rounds'"
case "$profile" in quick | full) ;; *) fail "PROFILE must be quick or full, got '$profile'" ;; esac
read -r -a runner_args <<<"${PHPCB_STACKS_RUNNER_ARGS:-}"

for name in "${names[@]}"; do
  [ "$name" = host ] || scripts/stack.sh build "$name"
done

measure() { # stack round: one run of the runner in that stack, into data/runs/; prints its directory
  local stack=$1 round=$2 printed
  echo "[stacks] round $round of $rounds: $stack" >&2
  # Fake runs (tests) start at a fixed time: each round starts a minute later, so each run has its own id.
  if [[ " ${runner_args[*]} " == *" --fake-clock "* ]]; then
    export PHPCB_FAKE_CLOCK_START="2026-01-01T00:$(printf %02d "$round"):00"
  fi
  if [ "$stack" = host ]; then
    printed=$(php runners/bench.php run --profile "$profile" ${only:+--only "$only"} "${runner_args[@]}") ||
      fail "the run in stack $stack failed in round $round; the runs so far are in data/runs/"
  else
    printed=$(scripts/stack.sh run "$stack" php runners/bench.php run --profile "$profile" ${only:+--only "$only"} "${runner_args[@]}") ||
      fail "the run in stack $stack failed in round $round; the runs so far are in data/runs/"
  fi
  scripts/stack.sh path "$printed"
}

runs=()
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order=(0 1); else order=(1 0); fi
  declare -A this_round=()
  for i in "${order[@]}"; do
    this_round[$i]=$(measure "${names[$i]}" "$r")
  done
  runs+=("${this_round[0]}" "${this_round[1]}")
  unset this_round
done

python=${PYTHON:-.venv/bin/python}
PYTHONPATH=scripts "$python" -m phpcb stacks --record --stacks "${names[0]},${names[1]}" "${runs[@]}"
