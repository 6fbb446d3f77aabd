# phpcrypto-bench: `make report` measures this machine and builds the site; `make test` checks everything.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PROFILE ?= quick
ONLY ?=
VERSION ?=
RUNS ?= 10 50 200
export PYTHONPATH := $(CURDIR)/scripts
export NO_MKDOCS_2_WARNING := 1

.PHONY: help report setup system-packages venv bench site serve test test-fast lint test-php test-python \
        bench-fidelity bench-site bench-repeat bench-replication noise ab upgrade-runs publish clean compare mutation

help:
	@echo "make report          install what is missing, run the quick benchmark, build the site showing your run"
	@echo "make test            every check: php -l, ruff, PHPUnit, pytest (incl. mkdocs --strict, browser)"
	@echo "make test-fast       the edit loop: lint and every test but the runner end to end and the browser"
	@echo "make site [GENERATOR=zensical]    pages into build/, then site/ from it (no benchmarking)"
	@echo "make serve [GENERATOR=zensical]   serve the site; pages regenerate when data/, templates/, scripts/ or docs/ change"
	@echo "make bench PROFILE=full [ONLY=aead]   measure this machine into data/runs/<run-id>/"
	@echo "make bench-fidelity  PHP over openssl speed, aes-256-gcm/ccm at 16 KiB: 3 runs of interleaved rounds, CI within ±5 %"
	@echo "make bench-site [RUNS='10 50 200']   time make site on that many synthetic runs"
	@echo "make bench-repeat N=3 [PROFILE=quick]   N runs of this machine, experiments rotated (then make noise)"
	@echo "make noise REPEATED='data/runs/A data/runs/B ...'   the spread between repeated runs, into data/noise/"
	@echo "make bench-replication REPEATED='A B C D'   A/A, advice and power of compare on held-out pairs of repeated runs"
	@echo "make ab BASE=origin/main [ROUNDS=3] [ONLY=jwt]   a runner change measured A/B: base and head take turns, compared round by round (ab/report.md)"
	@echo "make upgrade-runs    rewrite runs under data/runs/ written under an older schema version"
	@echo "make compare BASE=data/runs/X NEW=data/runs/Y [FORMAT=json] [OUT=file]   one run against another (Markdown)"
	@echo "make publish VERSION=x.y|auto [FORCE=1]   deploy the site with mike to gh-pages (alias latest; pushed when origin exists)"
	@echo "make preview PR=n BASE=origin/main   a pull request's preview site + comment in preview/ (its workflow's job)"
	@echo "make deploy-preview ARTIFACT=dir | cleanup-preview PR=n | artifact-comment ARTIFACT=dir | pr-comment ARTIFACT=dir | collect-runs ARTIFACTS=dir"
	@echo "make actionlint      check .github/workflows/ with actionlint (installed into .tools/ by make setup)"
	@echo "make zizmor          audit .github/workflows/ for security problems with zizmor, offline"
	@echo "make mutation [MODULES=...]   mutation testing of the modules that decide verdicts, numbers, token validity"

# The pages show the run just measured (PHPCB_SHOW_RUN) and the Comparison page sets it beside the
# published reference run (PHPCB_COMPARE); `make site` alone shows the published selection.
report: setup
	@run=$$(php runners/bench.php run --profile $(PROFILE) $(if $(ONLY),--only $(ONLY),)) || exit 1; \
	  id=$$(basename "$$run"); \
	  PHPCB_SHOW_RUN="$$id" PHPCB_COMPARE="$$id" $(MAKE) --no-print-directory site && \
	  echo "" && \
	  echo "Measured $$run." && \
	  echo "Site built in $(CURDIR)/site/: your run on every page, and beside its baseline run (case by case, with significance) on site/compare/index.html" && \
	  echo "(open site/index.html, or run 'make serve' and browse http://127.0.0.1:8000/)"

setup: system-packages venv tools

system-packages:
	@scripts/install-system-packages.sh

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

# COPY_TO=DIR also copies the new run into DIR/<run-id>/ (a bench-matrix leg uploads only that).
bench: system-packages
	@run=$$(php runners/bench.php run --profile $(PROFILE) $(if $(ONLY),--only $(ONLY),)) || exit 1; \
	  echo "$$run"; \
	  if [ -n "$$COPY_TO" ]; then mkdir -p "$$COPY_TO" && cp -r "$$run" "$$COPY_TO/"; fi

# The runs are validated first (one line naming the file, row and column); the HTML is built beside
# the old site and swapped in, so a failed build never leaves a half-written site/.
# The pages are generated once, into build/ (pages, chart data, downloads, assets, the nav in
# build/mkdocs.yml); GENERATOR turns that directory into HTML: mkdocs (default) or zensical.
GENERATOR ?= mkdocs
SITE_mkdocs = $(VENV)/bin/mkdocs build --strict --quiet -f build/mkdocs.yml -d "$(CURDIR)/site.tmp"
SITE_zensical = rm -rf build/site && $(VENV)/bin/zensical build --strict -f build/mkdocs.yml && mv build/site site.tmp

site: venv
	@case "$(GENERATOR)" in mkdocs|zensical) ;; *) echo "error: GENERATOR must be mkdocs or zensical, got '$(GENERATOR)'" >&2; exit 2;; esac
	$(PY) -m phpcb pages --out build
	rm -rf site.tmp
	$(SITE_$(GENERATOR))
	rm -rf site && mv site.tmp site

# Regenerates build/ when data/, templates/, scripts/, docs/ or mkdocs*.yml change; the generator reloads.
serve: venv
	$(PY) -m phpcb serve --generator $(GENERATOR) --address 127.0.0.1:8000

# PHPUnit beside pytest's two workers: both cores stay busy. PHPUnit's report is printed when both end.
test: setup lint
	@log=$$(mktemp); \
	  phpunit -c runners/phpunit.xml >"$$log" 2>&1 & php_pid=$$!; \
	  $(PY) -m pytest -n 2 --dist worksteal; py_status=$$?; \
	  wait $$php_pid; php_status=$$?; \
	  echo "--- PHPUnit"; cat "$$log"; rm -f "$$log"; \
	  test $$py_status -eq 0 -a $$php_status -eq 0

# The edit loop: lint, then the tests that neither run the PHP runner end to end nor drive Chromium.
test-fast: venv lint
	@log=$$(mktemp); \
	  phpunit -c runners/phpunit.xml --exclude-group slow >"$$log" 2>&1 & php_pid=$$!; \
	  $(PY) -m pytest -n 2 --dist worksteal -m "not slow and not browser"; py_status=$$?; \
	  wait $$php_pid; php_status=$$?; \
	  echo "--- PHPUnit"; cat "$$log"; rm -f "$$log"; \
	  test $$py_status -eq 0 -a $$php_status -eq 0

lint: venv
	@for f in $$(find runners scripts tests/fixtures -name '*.php'); do php -l "$$f" >/dev/null || exit 1; done
	$(VENV)/bin/ruff check scripts tests
	$(VENV)/bin/ruff format --check scripts tests

# Mutation testing of what decides a verdict, a number or a token's validity (scripts/mutation.sh):
# mutmut on statistics/stats.py, compare/comparison.py and presentation/claim_rules.py, a PHP pass
# with Infection's kinds of mutants (scripts/php-mutation.php) on every file of runners/src/Jws/,
# runners/jws.php and Harness/MedianInterval.php. Fails under 95 % of the non-equivalent mutants
# killed in a JWS file, 90 % elsewhere (scripts/mutation-equivalent.txt lists the equivalent ones,
# with why). MODULES=... runs some of them; JOBS=2 runs two PHP mutants at a time. Outside make test:
# it runs the tests once per mutant.
mutation: venv
	VENV=$(VENV) JOBS=$(or $(JOBS),1) scripts/mutation.sh $(MODULES)

test-php:
	phpunit -c runners/phpunit.xml

test-python: venv
	$(PY) -m pytest

# Three runs in a row of FIDELITY_ROUNDS interleaved rounds each (runners/fidelity.php); the check fails
# unless every CI is within ±5 % and the three runs' CIs overlap.
FIDELITY_ROUNDS ?= 10
bench-fidelity: setup
	@base=$$(mktemp -d); \
	  for i in 1 2 3; do php runners/fidelity.php --rounds $(FIDELITY_ROUNDS) --out "$$base/run-$$i" >/dev/null || exit 1; done; \
	  $(PY) -m phpcb fidelity "$$base/run-1" "$$base/run-2" "$$base/run-3"

bench-site: venv
	scripts/bench-site.sh $(RUNS)

# N runs of this machine, one after another, the experiments' order rotated each time (the run is the
# unit of replication): then `make noise REPEATED="<their directories>"`.
N ?= 3
bench-repeat: system-packages
	scripts/bench-repeat.sh "$(N)" "$(PROFILE)" "$(ONLY)"

# Issue 26's goals on repeated runs: A/A flags <= 5 %, advice unchanged but for ties, a planted 25 % found.
bench-replication: venv
	@test -n "$(REPEATED)" || { echo "error: REPEATED is required: an even number (>= 4) of run directories of make bench-repeat" >&2; exit 2; }
	$(PY) scripts/bench-replication.py $(REPEATED)

# A code change measured A/B in one job: BASE's runners and this checkout's take turns (scripts/ab.sh).
ROUNDS ?= 3
AB_DIR ?= ab
ab: system-packages venv
	PYTHON=$(PY) scripts/ab.sh "$(BASE)" "$(ROUNDS)" "$(PROFILE)" "$(ONLY)" "$(AB_DIR)"

# The spread between repeated runs of one machine and profile, into data/noise/<machine>.json.
noise: venv
	@test -n "$(REPEATED)" || { echo "error: REPEATED is required: the run directories of make bench-repeat, e.g. REPEATED=\"data/runs/A data/runs/B data/runs/C\"" >&2; exit 2; }
	$(PY) -m phpcb noise $(REPEATED)

upgrade-runs: venv
	$(PY) -m phpcb upgrade data/runs/*/

# Markdown for a PR comment by default (FORMAT=json for everything); OUT=file writes it there.
compare: venv
	@test -n "$(BASE)" -a -n "$(NEW)" || { echo "error: BASE and NEW are required, e.g. make compare BASE=data/runs/X NEW=data/runs/Y" >&2; exit 2; }
	@$(PY) -m phpcb compare "$(BASE)" "$(NEW)" --format $(or $(FORMAT),markdown) $(if $(OUT),--out "$(OUT)",)

# VERSION=auto is the UTC year.month of HEAD's commit (publish.yml uses it: one version per month).
# The runs' files go to gh-pages' runs/ once, gzip-compressed, and every version's pages link there
# (a run already there is checked against its seal, never replaced): a version adds its pages only.
# Refused while data/, docs/, templates/, scripts/ ... have changes HEAD does not hold (FORCE=1 overrides).
# With an origin remote, gh-pages is fetched first and pushed after, redone on top when rejected.
publish: venv
	@test -n "$(VERSION)" || { echo "error: VERSION is required, e.g. make publish VERSION=0.1 (or VERSION=auto)" >&2; exit 2; }
	PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m phpcb publish --version "$$VERSION" $(if $(FORCE),--force,)
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

# zizmor (pinned in requirements.txt) audits the workflows' security offline; tests/test_workflows.py
# fails on any finding. A deliberate choice is ignored inline, next to a comment saying why.
zizmor: venv
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

# The deploy job's comment: this checkout's code (the default branch) on the artifact's runs.
artifact-comment: venv
	@test -n "$$ARTIFACT" || { echo "error: ARTIFACT is required: the downloaded preview artifact directory" >&2; exit 2; }
	$(PY) -m phpcb artifact-comment --artifact "$$ARTIFACT" --out "$${BODY:-comment.md}"

pr-comment:
	@test -n "$$PR$$ARTIFACT" || { echo "error: PR=n (or ARTIFACT=dir with pr-number) and BODY=file (default comment.md, from make artifact-comment) are required" >&2; exit 2; }
	$(PYTHON) -m phpcb pr-comment $(PR_ARG) --body "$${BODY:-comment.md}"

collect-runs: venv
	@test -n "$$ARTIFACTS" || { echo "error: ARTIFACTS is required: the directory the run artifacts were downloaded into" >&2; exit 2; }
	$(PY) -m phpcb collect-runs --artifacts "$$ARTIFACTS" $(if $(SUMMARY),--summary "$$SUMMARY",)

clean:
	rm -rf site site.tmp build .pytest_cache .ruff_cache
