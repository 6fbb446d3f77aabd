#!/usr/bin/env bash
# Mutation testing of the modules that decide a verdict, a number or a token's validity (make mutation):
# mutmut for the Python ones, scripts/php-mutation.php for the PHP ones (its mutators are modelled on
# Infection's). Per module, the share of mutants the tests kill and the ones they let live; exit 1 when
# a share is under its goal: 95 % for the security-critical modules (STRICT below: the JWS code, the
# snippets, a pull request's tree, the comparison's verdicts), 90 % for the rest. mutmut looks for its sources under src/, so each Python module
# runs on a copy where scripts/ is src/. PHP mutants run JOBS at a time (default 1: the machine may be
# measuring).
# Usage: scripts/mutation.sh [MODULE...]   (MODULE: a path under scripts/phpcb/ or runners/src/, jws.php, or snippets/NAME.php)
set -euo pipefail
cd "$(dirname "$0")/.."
GOAL=90
STRICT_GOAL=95
# The security-critical modules, whose goal is STRICT_GOAL: patterns, as in `case`, matched against the
# module's name. The one list of them: a module or a family of modules is made strict here.
STRICT=(
  'Jws/*' jws.php    # the JWS code: every file of runners/src/Jws/, and runners/jws.php
  'snippets/*'       # the recipes readers paste: a weakened check is copied by every reader
  publish/pr_runs.py # a pull request's tree, read with git: nothing of it may leave its directory
  data/seal.py       # a run's seal: a file or manifest changed after the run must not pass as the run's
  compare/load.py compare/comparison.py compare/noise.py  # what a comparison calls changed, loaded or not
)
venv=${VENV:-.venv}
mutmut="$PWD/$venv/bin/mutmut"

# module -> the tests that judge it
declare -A TESTS=(
  [statistics/stats.py]="tests/test_stats.py tests/test_stats_precision.py tests/test_stats_boundaries.py tests/test_compare_stats.py tests/test_rounds.py tests/test_precision.py"
  [statistics/distributions.py]="tests/test_distributions.py tests/test_stats.py tests/test_compare_stats.py"
  [compare/comparison.py]="tests/test_comparison.py tests/test_comparison_values.py tests/test_compare_stats.py tests/test_stats_boundaries.py tests/test_compare_exporters.py tests/test_noise.py tests/test_load.py tests/test_comparison_edges.py"
  [compare/load.py]="tests/test_load.py"
  [claims/rules.py]="tests/test_claim_rules.py tests/test_claims.py"
  [compare/noise.py]="tests/test_noise.py tests/test_coverage.py tests/test_comparison_values.py"
  [publish/pr_runs.py]="tests/test_pr_runs_extract.py"
  # Not the committed runs' seals (66 runs loaded again for every mutant) nor a clone of this checkout.
  [data/seal.py]="tests/test_seal.py --deselect=tests/test_seal.py::test_every_committed_run_loads_with_its_seal_checked --deselect=tests/test_seal.py::test_the_repository_keeps_run_files_byte_exact_in_any_checkout"
  [data/machines.py]="tests/test_machine_identity.py tests/test_machines.py"
  [publish/merge_effect.py]="tests/test_merge_effect.py"
  [compare/coverage.py]="tests/test_coverage.py"
  [statistics/speed_shifts.py]="tests/test_speed_shifts.py"
  [presentation/holds.py]="tests/test_holds.py"
  [publish/comment_words.py]="tests/test_comment_words.py"
  [presentation/precision.py]="tests/test_precision.py"
  [statistics/sample_spread.py]="tests/test_sample_spread.py tests/test_machine_speed.py"
  [statistics/machine_speed.py]="tests/test_machine_speed.py tests/test_sample_spread.py"
  [statistics/spread.py]="tests/test_spread.py tests/test_between_runs.py tests/test_noise.py"
  [statistics/between_runs.py]="tests/test_between_runs.py tests/test_noise.py"
  [Harness/MedianInterval.php]="runners/tests/Harness/MedianIntervalTest.php"
  [Harness/FastestRounds.php]="runners/tests/Harness/FastestRoundsTest.php"
  [jws.php]="runners/tests/Jws"
)
# Every file of the JWS code is judged by all of its tests.
jws_modules=()
for file in runners/src/Jws/*.php; do
  jws_modules+=("Jws/${file##*/}")
  TESTS["Jws/${file##*/}"]="runners/tests/Jws"
done
# Every recipe of runners/snippets/ (module snippets/NAME.php) is judged by its test class (aes-256-gcm.php:
# Aes256GcmTest) and by the scan for MACs, tags, signatures and hashes compared in variable time.
snippet_modules=()
for file in runners/snippets/*.php; do
  name=${file##*/}
  snippet_modules+=("snippets/$name")
  TESTS["snippets/$name"]="runners/tests/Snippets/$(echo "${name%.php}" | sed -E 's/(^|-)(.)/\U\2/g')Test.php runners/tests/ConstantTime"
done
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(statistics/stats.py statistics/distributions.py compare/comparison.py compare/noise.py compare/load.py claims/rules.py publish/pr_runs.py \
  data/seal.py data/machines.py publish/merge_effect.py compare/coverage.py statistics/speed_shifts.py \
  presentation/holds.py statistics/spread.py statistics/between_runs.py publish/comment_words.py \
  statistics/sample_spread.py statistics/machine_speed.py presentation/precision.py \
  "${jws_modules[@]}" jws.php Harness/MedianInterval.php Harness/FastestRounds.php "${snippet_modules[@]}")

python_module() {
  local module=$1 work
  work=$(mktemp -d)
  # KEEP=1 keeps the copy, to read a mutant there: cd DIR && mutmut show NAME
  if [ -n "${KEEP:-}" ]; then echo "$module: kept in $work" >&2; else trap 'rm -rf "$work"' RETURN; fi
  mkdir "$work/src" && cp -r scripts/phpcb "$work/src/" && cp -r tests data templates docs runners "$work/"
  # The tests of "the committed runs" ask git which runs are committed (tests/conftest.py, committed_run_dirs):
  # the copy gets this checkout's index, all that `git ls-files` reads.
  git init -q "$work" && cp "$(git rev-parse --git-path index)" "$work/.git/index"
  sed 's|^pythonpath = \["scripts"\]|pythonpath = ["src"]|' pyproject.toml >"$work/pyproject.toml"
  local selection
  selection=$(printf '"%s", ' ${TESTS[$module]})
  printf '\n[tool.mutmut]\nsource_paths = ["src"]\nonly_mutate = ["src/phpcb/%s"]\nalso_copy = ["data", "templates", "docs", "runners", ".git"]\npytest_add_cli_args_test_selection = [%s]\n' \
    "$module" "${selection%, }" >>"$work/pyproject.toml"
  echo "$module: mutmut run (a few minutes)" >&2
  (cd "$work" && PYTHONPATH= "$mutmut" run --max-children 2 >"$work/run.log" 2>&1) || {
    echo "error: mutmut failed on $module; its last lines:" >&2; tr '\r' '\n' <"$work/run.log" | tail -5 >&2; exit 2; }
  (cd "$work" && PYTHONPATH= "$mutmut" results --all true 2>/dev/null) >"$work/results.txt" || true
  local killed survived
  killed=$(grep -c ': killed$' "$work/results.txt" || true)
  survived=$({ grep -E ': (survived|no tests)$' "$work/results.txt" || true; } | sed -E 's/^ *//; s/: survived$//')
  report "$module" "$killed" "$survived"
}

php_module() {
  local module=$1 out source=runners/src/$1
  # snippets/NAME.php and jws.php are under runners/ itself
  [ -f "$source" ] || source=runners/$1
  out=$(php scripts/php-mutation.php --jobs "${JOBS:-1}" "$source" ${TESTS[$module]})
  report "$module" "$(echo "$out" | grep -c '^killed' || true)" "$(echo "$out" | grep '^survived' | sed 's/^survived //' || true)"
}

status=0
EQUIVALENT=scripts/mutation-equivalent.txt
# The survivors listed as equivalent for this module, and the others.
equivalent() { { grep -v '^#' "$EQUIVALENT" | grep -F "$1 " || true; } | sed -E "s|^$1 ||; s|  +.*||"; }
report() {
  local module=$1 killed=$2 survived=$3 known lived equivalents total share goal
  known=$(equivalent "$module")
  lived=$(printf '%s\n' "$survived" | grep . | grep -vxF -f <(printf '%s\n' "$known" | grep . || echo $'\x01') || true)
  equivalents=$(( $(printf '%s\n' "$survived" | grep -c . || true) - $(printf '%s\n' "$lived" | grep -c . || true) ))
  total=$((killed + $(printf '%s\n' "$lived" | grep -c . || true)))
  # A file without mutants (an interface) has nothing to kill: 100 %.
  share=$([ "$total" -gt 0 ] && echo $((100 * killed / total)) || echo 100)
  printf '%-34s %4d of %4d non-equivalent mutants killed (%3d %%); %d equivalent\n' \
    "$module" "$killed" "$total" "$share" "$equivalents"
  [ -z "$lived" ] || printf '%s\n' "$lived" | sed 's/^/    lived: /'
  goal=$GOAL
  for pattern in "${STRICT[@]}"; do
    # shellcheck disable=SC2254 # the pattern is matched as a pattern
    case "$module" in $pattern) goal=$STRICT_GOAL ;; esac
  done
  [ "$share" -ge "$goal" ] || status=1
}

for module in "${modules[@]}"; do
  [ -n "${TESTS[$module]:-}" ] || { echo "error: no tests named for $module (scripts/mutation.sh TESTS)" >&2; exit 2; }
  case "$module" in
    *.py) python_module "$module" ;;
    *.php) php_module "$module" ;;
  esac
done
exit "$status"
