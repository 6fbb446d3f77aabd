# phpcrypto-bench: `make report` measures this machine and builds the site; `make test` checks everything.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Debian's python3, the one `make setup` installs python3-venv for: another python3 first on PATH (pyenv's,
# say) may be newer than a fresh Debian 12's 3.11.2 and hide a pinned package that needs more.
PYTHON ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
VENV := .venv
PY := $(VENV)/bin/python
PROFILE ?= quick
ONLY ?=
# The experiments' time in all, in seconds (runners/bench.php --budget-seconds); empty: the profile's (quick 270, full 5400).
BUDGET ?=
VERSION ?=
RUNS ?= 10 50 200
export PYTHONPATH := $(CURDIR)/scripts
export NO_MKDOCS_2_WARNING := 1

.PHONY: help report setup setup-dev report-packages system-packages venv venv-dev bench site serve test test-fast lint test-php test-python \
        bench-fidelity bench-site page-cost bench-repeat bench-replication noise ab upgrade-runs publish clean compare mutation \
        stack stack-test test-stack clean-stacks bench-stacks seal phpcb-path coverage rehearse

help:
	@echo "make report [BUDGET=seconds]   install what is missing, run the quick benchmark in its time budget, build the site showing your run, print the precision reached"
	@echo "make test            every check: php -l, ruff, PHPUnit (PHP 8.2, and 8.4 in Debian 13's stack), pytest (incl. mkdocs --strict, browser)"
	@echo "make test-fast       the edit loop: lint and every test but the runner end to end and the browser"
	@echo "make rehearse [SLOWER=2] [APT_SECONDS=70]   the README's two commands from a fresh clone of HEAD, timed against their goals, as on a host SLOWER times slower (root)"
	@echo "make site [GENERATOR=zensical]    pages into build/, then site/ from it (no benchmarking)"
	@echo "make serve [GENERATOR=zensical]   serve the site; pages regenerate when data/, templates/, scripts/ or docs/ change"
	@echo "make bench PROFILE=full [ONLY=aead] [STACK=debian13]   measure this machine into data/runs/<run-id>/"
	@echo "make stack STACK=debian13   build a stack (Debian 13: PHP 8.4 + OpenSSL 3.5) into .stacks/; make clean-stacks removes them"
	@echo "make bench-stacks [STACKS='host debian13'] [ROUNDS=3] [ONLY=...]   the stacks in ABBA rounds: ratios between them"
	@echo "make test-php [STACK=debian13]   PHPUnit under the host's PHP, or under the stack's"
	@echo "make bench-fidelity  PHP over openssl speed, aes-256-gcm/ccm at 16 KiB: 3 runs of interleaved rounds, CI within ±5 %"
	@echo "make bench-site [RUNS='10 50 200']   time make site on that many synthetic runs"
	@echo "make page-cost [SITE=site]   what each page of a built site costs headless Chromium to open, per reading"
	@echo "make bench-repeat N=3 [PROFILE=quick]   N runs of this machine, experiments rotated (then make noise)"
	@echo "make noise [REPEATED='data/runs/A data/runs/B ...']   the spread between repeated runs (default: every run's, by machine, profile and stack), into data/noise/"
	@echo "make bench-replication REPEATED='A B C D'   A/A, advice and power of compare on held-out pairs of repeated runs"
	@echo "make ab BASE=origin/main [ROUNDS=3] [ONLY=jwt]   a runner change measured A/B: base and head take turns, compared round by round (ab/report.md)"
	@echo "make upgrade-runs [RUN=data/runs/<id>]   rewrite that run (or every run under data/runs/) written under an older schema version"
	@echo "make seal RUN=data/runs/<id> REASON='...'   re-seal a run changed on purpose (refused when its rows disagree with its manifest)"
	@echo "make compare BASE=data/runs/X NEW=data/runs/Y [FORMAT=json] [OUT=file]   one run against another (Markdown)"
	@echo "make publish VERSION=x.y|auto [FORCE=1] [REPLACE_RUNS=<id> REASON=...]   deploy the site with mike to gh-pages (alias latest; pushed when origin exists)"
	@echo "make preview PR=n BASE=origin/main   a pull request's preview site + comment in preview/ (its workflow's job)"
	@echo "make deploy-preview ARTIFACT=dir | cleanup-preview PR=n | artifact-comment ARTIFACT=dir | pr-comment ARTIFACT=dir | collect-runs ARTIFACTS=dir"
	@echo "make actionlint      check .github/workflows/ with actionlint (installed into .tools/ by make setup)"
	@echo "make zizmor          audit .github/workflows/ for security problems with zizmor, offline"
	@echo "make mutation [MODULES=...]   mutation testing of the modules that decide verdicts, numbers, token validity"

# The pages show the run just measured (PHPCB_SHOW_RUN) and the Comparison page sets it beside its
# baseline (PHPCB_COMPARE; data/selection.py baseline_for: this machine's reference run on the same stack,
# else on another stack, else the published one); `make site` alone shows the published selection.
# make report's experiments take REPORT_BUDGET_SECONDS (3.25 minutes, less than the quick profile's 4.5: on a
# host 2.3 times slower than a family-25 model-17 one, emulated, the 4.5 minutes made it 6:06, and 210 s made it
# 5:55 with its apt time, the experiments 6 s past their budget: too close to the goal for a host whose runs
# differ by tens of seconds) and end by
# REPORT_SECONDS after `make report` started, less REPORT_SITE_SECONDS for the site (--ends-by: the budget is
# then what is left, when less), so that a setup that took long on a slow host or a fresh machine is not
# added on top. The site took 10 s on the pool's fastest host and 28 s emulated 2.7 times slower
# (scripts/slower-host.py); BUDGET= gives a fixed budget instead. The experiments leave the native tools out,
# `openssl speed` in their rounds and the argon2 CLI (--no-native, each such experiment then partial): their
# seconds are the same on any host, more than a minute of a quick run, which the slowest host's 6 minutes cannot
# spare; `make bench` measures them. NATIVE=1 keeps them.
REPORT_SECONDS ?= 360
REPORT_BUDGET_SECONDS ?= 195
REPORT_SITE_SECONDS ?= 45
report:
	@started=$$(date +%s); \
	  $(MAKE) --no-print-directory setup || exit 1; \
	  run=$$(php runners/bench.php run --profile $(PROFILE) $(if $(BUDGET),--budget-seconds $(BUDGET),$(if $(filter quick,$(PROFILE)),--budget-seconds $(REPORT_BUDGET_SECONDS) --ends-by $$((started + $(REPORT_SECONDS) - $(REPORT_SITE_SECONDS))),)) $(if $(ONLY),--only $(ONLY),) $(if $(NATIVE),,--no-native)) || exit 1; \
	  id=$$(basename "$$run"); \
	  PHPCB_SHOW_RUN="$$id" PHPCB_COMPARE="$$id" $(MAKE) --no-print-directory site && \
	  echo "" && \
	  echo "Measured $$run." && \
	  echo "Site built in $(CURDIR)/site/: your run on every page, and beside its baseline run (case by case, with significance) on site/compare/index.html" && \
	  echo "(open site/index.html, or run 'make serve' and browse http://127.0.0.1:8000/)" && \
	  echo "" && \
	  $(PY) -m phpcb precision "$$run" && \
	  elapsed=$$(( $$(date +%s) - started )) && \
	  printf '\nmake report took %d:%02d, setup included (its goal: %d:%02d on the slowest host of the VM pool)\n' $$((elapsed / 60)) $$((elapsed % 60)) $$(($(REPORT_SECONDS) / 60)) $$(($(REPORT_SECONDS) % 60))

# `make report` installs only what measuring and the site need (PHP and its extensions, argon2, openssl,
# python3-venv and the build's pinned Python packages, requirements.txt); `make test` adds PHPUnit, Chromium,
# actionlint and the checks' Python packages (setup-dev, requirements-dev.txt).
setup: report-packages venv

setup-dev: system-packages venv-dev tools

report-packages:
	@PHPCB_INSTALL=$${PHPCB_INSTALL:-report} scripts/install-system-packages.sh

system-packages:
	@scripts/install-system-packages.sh

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-setup.txt scripts/venv-install.sh
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	scripts/venv-install.sh $(VENV) requirements.txt
	@# Only this checkout's own venv points at this checkout's scripts/ (a copy that borrows it must not).
	@if [ "$(abspath $(VENV))" = "$(CURDIR)/.venv" ]; then $(MAKE) --no-print-directory phpcb-path; fi
	@touch $@

# The checks' packages (requirements-dev.txt) added to the same venv: `make report` then `make test` in one
# checkout installs the build once.
venv-dev: $(VENV)/.installed-dev

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	scripts/venv-install.sh $(VENV) requirements-dev.txt
	@touch $@

# `python -m phpcb ...` with the venv's python, from any directory: a .pth file puts scripts/ on its path.
phpcb-path:
	@$(PY) -c 'import site, sys; open(site.getsitepackages()[0] + "/phpcb.pth", "w").write(sys.argv[1] + "\n")' "$(CURDIR)/scripts"

# COPY_TO=DIR also copies the new run into DIR/<run-id>/ (a bench-matrix leg uploads only that).
# STACK=debian13 runs the same runner in that stack (make stack STACK=debian13 builds it; scripts/stack.sh).
STACK ?= host
RUNNER = $(if $(filter host,$(STACK)),php,scripts/stack.sh run $(STACK) php)
bench: $(if $(filter host,$(STACK)),report-packages,stack)
	@run=$$($(RUNNER) runners/bench.php run --profile $(PROFILE) $(if $(BUDGET),--budget-seconds $(BUDGET),) $(if $(ONLY),--only $(ONLY),)) || exit 1; \
	  run=$$(scripts/stack.sh path "$$run"); \
	  echo "$$run"; \
	  if [ -n "$$COPY_TO" ]; then mkdir -p "$$COPY_TO" && cp -r "$$run" "$$COPY_TO/"; fi

# A stack: a root filesystem of Debian's packages (scripts/stacks/$(STACK).env), built once into .stacks/.
stack:
	@test "$(STACK)" != host || { echo "error: STACK is required: a stack of scripts/stacks/, e.g. make stack STACK=debian13 (host is this machine's own PHP)" >&2; exit 2; }
	@scripts/stack.sh build "$(STACK)"

clean-stacks:
	@scripts/stack.sh clean

# The stacks in alternating rounds on this machine (ABBA, as make ab does for code): every run into data/runs/,
# the set of rounds into data/stacks/, the ratio of each case and class between the stacks with its CI across rounds.
STACKS ?= host debian13
bench-stacks: report-packages venv
	PYTHON=$(PY) scripts/bench-stacks.sh "$(STACKS)" "$(ROUNDS)" "$(PROFILE)" "$(ONLY)"

# The runs are validated first (one line naming the file, row and column); the HTML is built beside
# the old site and swapped in, so a failed build never leaves a half-written site/.
# The pages are generated once, into build/ (pages, chart data, downloads, assets, the nav in
# build/mkdocs.yml); GENERATOR turns that directory into HTML: mkdocs (default) or zensical.
GENERATOR ?= mkdocs
SITE_mkdocs = $(VENV)/bin/mkdocs build --strict --quiet -f build/mkdocs.yml -d "$(CURDIR)/site.tmp"
SITE_zensical = rm -rf build/site && $(VENV)/bin/zensical build --strict -f build/mkdocs.yml && mv build/site site.tmp

site: venv $(if $(filter zensical,$(GENERATOR)),venv-dev,)
	@case "$(GENERATOR)" in mkdocs|zensical) ;; *) echo "error: GENERATOR must be mkdocs or zensical, got '$(GENERATOR)'" >&2; exit 2;; esac
	$(PY) -m phpcb pages --out build
	rm -rf site.tmp
	$(SITE_$(GENERATOR))
	rm -rf site && mv site.tmp site

# Regenerates build/ when data/, templates/, scripts/, docs/ or mkdocs*.yml change; the generator reloads.
serve: venv $(if $(filter zensical,$(GENERATOR)),venv-dev,)
	$(PY) -m phpcb serve --generator $(GENERATOR) --address 127.0.0.1:8000

# PHPUnit beside pytest's two workers: both cores stay busy. PHPUnit runs under the host's PHP, then under
# Debian 13's PHP 8.4 (its stack, built once: TEST_STACK= leaves it out); its report is printed when both end.
# The fuzzer (tests/test_fuzz_runs.py) draws its quick, fixed set of damaged runs (each kind of damage to a
# CSV twice); PHPCB_FUZZ_EXAMPLES=full make test draws the full set, PHPCB_FUZZ_SCALE=10 ten times that.
# pytest's two workers take the tests longest first (tests/conftest.py LONGEST_FIRST) and steal from each other.
TEST_STACK ?= debian13
test: setup-dev $(if $(TEST_STACK),test-stack,) lint
	@log=$$(mktemp); \
	  { scripts/phpunit.sh $(if $(TEST_STACK),&& echo "--- PHPUnit in stack $(TEST_STACK)" && scripts/stack.sh run $(TEST_STACK) scripts/phpunit.sh,); } >"$$log" 2>&1 & php_pid=$$!; \
	  $(PY) -m pytest -n 2 --dist worksteal; py_status=$$?; \
	  wait $$php_pid; php_status=$$?; \
	  echo "--- PHPUnit"; cat "$$log"; rm -f "$$log"; \
	  test $$py_status -eq 0 -a $$php_status -eq 0

# The edit loop: lint, then the tests that neither run the PHP runner end to end nor drive Chromium.
test-fast: venv-dev lint
	@log=$$(mktemp); \
	  scripts/phpunit.sh --exclude-group slow >"$$log" 2>&1 & php_pid=$$!; \
	  $(PY) -m pytest -n 2 --dist worksteal -m "not slow and not browser"; py_status=$$?; \
	  wait $$php_pid; php_status=$$?; \
	  echo "--- PHPUnit"; cat "$$log"; rm -f "$$log"; \
	  test $$py_status -eq 0 -a $$php_status -eq 0

# php -l takes one file (PHP 8.2): a process per file, as many at once as there are cores. PHP_INI_SCAN_DIR=
# keeps php.ini (short_open_tag, errors printed to stderr naming the file) but not the extensions' ini files,
# which each of those processes loaded for nothing: a syntax check needs none, and they were half its CPU.
lint: venv-dev
	@find runners scripts tests/fixtures -name '*.php' -print0 | PHP_INI_SCAN_DIR= xargs -0 -n 1 -P "$$(nproc)" php -l >/dev/null
	$(VENV)/bin/ruff check scripts tests
	$(VENV)/bin/ruff format --check scripts tests

# Mutation testing of what decides a verdict, a number, a token's validity, a run's seal or name, what a pull
# request's comment says, or how steady a run was and whether an interval holds on another boot
# (scripts/mutation.sh): mutmut on statistics/stats.py, statistics/distributions.py, compare/comparison.py,
# compare/noise.py, compare/load.py, claims/rules.py, publish/pr_runs.py, publish/merge_effect.py, data/seal.py,
# data/machines.py, compare/coverage.py, statistics/speed_shifts.py, statistics/sample_spread.py,
# statistics/machine_speed.py, statistics/spread.py, statistics/between_runs.py, presentation/holds.py,
# presentation/precision.py and publish/comment_words.py; a PHP pass with Infection's kinds of mutants
# (scripts/php-mutation.php) on every file of runners/src/Jws/, runners/jws.php, Harness/MedianInterval.php,
# Harness/FastestRounds.php and every recipe of runners/snippets/. Fails under 95 % of the non-equivalent
# mutants killed in a security-critical module (mutation.sh's STRICT list), 90 % elsewhere
# (scripts/mutation-equivalent.txt lists the equivalent ones, with why). MODULES=... runs some of them; JOBS=2
# runs two PHP mutants at a time. Outside make test: it runs the tests once per mutant.
mutation: venv-dev
	VENV=$(VENV) JOBS=$(or $(JOBS),1) scripts/mutation.sh $(MODULES)

# PHPUnit under the host's PHP, or (STACK=debian13) under the stack's PHP with the stack's PHPUnit
# (Debian 13's is PHPUnit 11: scripts/phpunit.sh picks the configuration its version reads).
test-php: $(if $(filter host,$(STACK)),,stack-test)
	$(if $(filter host,$(STACK)),,scripts/stack.sh run $(STACK)) scripts/phpunit.sh

stack-test:
	@scripts/stack.sh build "$(STACK)" --test

test-stack:
	@scripts/stack.sh build "$(TEST_STACK)" --test

test-python: venv-dev
	$(PY) -m pytest

# The newcomer's path timed against its goals (issue 48: make report 6 min, make test 5 min after its setup):
# a fresh clone of HEAD, then the README's two commands in its order (scripts/rehearse.sh). SLOWER=2 runs
# them as on a host whose every core is 2 times slower (scripts/slower-host.py: a real-time process per
# CPU takes the rest of each 10 ms; root): the pool's slowest host (Zen 3) ran a quick run 1.56-1.9 times
# slower than its fastest (Zen 5), 1.26-1.5 times slower than Zen 4 (README). The Debian
# packages are not installed again: APT_SECONDS (70) of a fresh machine's apt-get count towards make report's goal.
rehearse:
	@scripts/rehearse.sh $(SLOWER)

# Three runs in a row of FIDELITY_ROUNDS interleaved rounds each (runners/fidelity.php); the check fails
# unless every CI is within ±5 % and the three runs' CIs overlap.
FIDELITY_ROUNDS ?= 10
bench-fidelity: setup
	@base=$$(mktemp -d); \
	  for i in 1 2 3; do php runners/fidelity.php --rounds $(FIDELITY_ROUNDS) --out "$$base/run-$$i" >/dev/null || exit 1; done; \
	  $(PY) -m phpcb fidelity "$$base/run-1" "$$base/run-2" "$$base/run-3"

bench-site: venv
	scripts/bench-site.sh $(RUNS)

# What each page of a built site costs headless Chromium to open, per way of reading it (tests/page_cost.py).
SITE ?= site
page-cost: venv-dev
	$(PY) -m tests.page_cost $(SITE)

# N runs of this machine, one after another, the experiments' order rotated each time (the run is the
# unit of replication): then `make noise REPEATED="<their directories>"`.
N ?= 3
bench-repeat: report-packages
	scripts/bench-repeat.sh "$(N)" "$(PROFILE)" "$(ONLY)"

# Issue 26's goals on repeated runs: A/A flags <= 5 %, advice unchanged but for ties, a planted 25 % found.
bench-replication: venv
	@test -n "$(REPEATED)" || { echo "error: REPEATED is required: an even number (>= 4) of run directories of make bench-repeat" >&2; exit 2; }
	$(PY) scripts/bench-replication.py $(REPEATED)

# A code change measured A/B in one job: BASE's runners and this checkout's take turns (scripts/ab.sh).
ROUNDS ?= 3
AB_DIR ?= ab
ab: report-packages venv
	PYTHON=$(PY) scripts/ab.sh "$(BASE)" "$(ROUNDS)" "$(PROFILE)" "$(ONLY)" "$(AB_DIR)"

# The spread between repeated runs of one machine, profile and stack, into data/noise/<machine>.json: of the
# REPEATED runs, or without REPEATED of every run under data/runs/, a model per machine, profile and stack.
noise: venv
	$(PY) -m phpcb noise $(REPEATED)

# Whether the intervals across runs hold on a boot the model has not seen (leave each boot out in turn).
coverage: venv
	@test -n "$(REPEATED)" || { echo "error: REPEATED is required: run directories of one machine and profile from two boots or more" >&2; exit 2; }
	$(PY) -m phpcb coverage $(REPEATED)

# RUN=data/runs/<id> upgrades that run alone (a pull request's added run); without it, every run under data/runs/
# (a current run is left as it is).
upgrade-runs: venv
	$(PY) -m phpcb upgrade $(if $(RUN),$(RUN),data/runs/*/)

# A run whose files were changed on purpose, re-sealed with the reason recorded; refused when its rows
# disagree with its manifest (a cut file), which is then left as it was.
seal: venv
	@test -n "$$RUN" -a -n "$$REASON" || { echo "error: RUN and REASON are required, e.g. make seal RUN=data/runs/<run-id> REASON=\"what changed and why\"" >&2; exit 2; }
	$(PY) -m phpcb seal "$$RUN" --reason "$$REASON"

# Markdown for a PR comment by default (FORMAT=json for everything); OUT=file writes it there.
compare: venv
	@test -n "$(BASE)" -a -n "$(NEW)" || { echo "error: BASE and NEW are required, e.g. make compare BASE=data/runs/X NEW=data/runs/Y" >&2; exit 2; }
	@$(PY) -m phpcb compare "$(BASE)" "$(NEW)" --format $(or $(FORMAT),markdown) $(if $(OUT),--out "$(OUT)",)

# VERSION=auto is the UTC year.month of HEAD's commit (publish.yml uses it: one version per month).
# The runs' files go to gh-pages' runs/ once, gzip-compressed, and every version's pages link there
# (a run already there is checked against its seal, never replaced unasked: REPLACE_RUNS=<id>[,<id>]
# REASON="..." replaces a run re-sealed on purpose, records it in runs/replaced.json and says so on the
# older versions' Runs pages): a version adds its pages only. Each version gets its own site_url.
# Refused while data/, docs/, templates/, scripts/ ... have changes HEAD does not hold (FORCE=1 overrides).
# With an origin remote, gh-pages is fetched first and pushed after, redone on top when rejected.
publish: venv
	@test -n "$(VERSION)" || { echo "error: VERSION is required, e.g. make publish VERSION=0.1 (or VERSION=auto)" >&2; exit 2; }
	PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m phpcb publish --version "$$VERSION" $(if $(FORCE),--force,) \
	  $(if $(REPLACE_RUNS),--replace-runs "$$REPLACE_RUNS" --reason "$$REASON",)
	@echo "Preview the versions: $(VENV)/bin/mike serve --config-file build/mkdocs.publish.yml"

# --- What the GitHub workflows run (.github/workflows/; docs/contributing.md). Values are read by the
# recipes from the environment (make exports command-line variables), never pasted into the shell.
# The gh-pages and GitHub API steps need only python3: their workflows install nothing.
.PHONY: tools actionlint zizmor preview deploy-preview cleanup-preview artifact-comment pr-comment collect-runs
ACTIONLINT_VERSION := v1.7.12
GO ?= $(shell command -v go || echo /usr/local/go/bin/go)
PR_ARG = $(if $(PR),--pr "$$PR",--pr-file "$$ARTIFACT/pr-number")

tools:
	@.tools/actionlint -version 2>/dev/null | grep -qx '$(ACTIONLINT_VERSION)' || { \
	  echo "installing actionlint $(ACTIONLINT_VERSION) into .tools/" >&2; \
	  GOBIN="$(CURDIR)/.tools" $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION); }

actionlint: tools
	.tools/actionlint -no-color

# zizmor (pinned in requirements-dev.txt) audits the workflows' security offline; tests/test_workflows.py
# fails on any finding. A deliberate choice is ignored inline, next to a comment saying why.
zizmor: venv-dev
	$(VENV)/bin/zizmor --offline --no-progress .github/workflows

preview: venv
	@test -n "$$PR" || { echo "error: PR is required, e.g. make preview PR=12 BASE=origin/main" >&2; exit 2; }
	@test -n "$$BASE" || { echo "error: BASE is required: the base branch's ref, e.g. BASE=origin/main" >&2; exit 2; }
	$(PY) -m phpcb preview --pr "$$PR" --base "$$BASE" --out preview

# HEAD_SHA (the deploy workflow passes the previewed commit): deploy only if it is still the PR's head.
deploy-preview:
	@test -n "$$ARTIFACT" || { echo "error: ARTIFACT is required: the downloaded preview artifact directory" >&2; exit 2; }
	@if [ -n "$$HEAD_SHA" ]; then $(PYTHON) -m phpcb check-head $(PR_ARG) --sha "$$HEAD_SHA"; fi
	$(PYTHON) -m phpcb deploy-preview $(PR_ARG) --artifact "$$ARTIFACT"

cleanup-preview:
	@test -n "$$PR" || { echo "error: PR is required, e.g. make cleanup-preview PR=12" >&2; exit 2; }
	$(PYTHON) -m phpcb cleanup-preview --pr "$$PR"

# The comment job's comment (a job without the write token: it installs the build): this checkout's code
# (the default branch) on the files of the pull request's head commit HEAD_SHA, read with git.
artifact-comment: venv
	@test -n "$$ARTIFACT" || { echo "error: ARTIFACT is required: the downloaded preview artifact directory" >&2; exit 2; }
	@test -n "$$HEAD_SHA" || { echo "error: HEAD_SHA is required: the pull request's head commit the preview built" >&2; exit 2; }
	$(PY) -m phpcb artifact-comment --artifact "$$ARTIFACT" --head "$$HEAD_SHA" --out "$${BODY:-comment.md}"

pr-comment:
	@test -n "$$PR$$ARTIFACT" || { echo "error: PR=n (or ARTIFACT=dir with pr-number) and BODY=file (default comment.md, from make artifact-comment) are required" >&2; exit 2; }
	$(PYTHON) -m phpcb pr-comment $(PR_ARG) --body "$${BODY:-comment.md}"

collect-runs: venv
	@test -n "$$ARTIFACTS" || { echo "error: ARTIFACTS is required: the directory the run artifacts were downloaded into" >&2; exit 2; }
	$(PY) -m phpcb collect-runs --artifacts "$$ARTIFACTS" $(if $(SUMMARY),--summary "$$SUMMARY",)

clean:
	rm -rf site site.tmp build .pytest_cache .ruff_cache
