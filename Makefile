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

.PHONY: help report setup system-packages venv bench site serve test lint test-php test-python \
        bench-fidelity bench-site upgrade-runs publish clean

help:
	@echo "make report          install what is missing, run the quick benchmark, build the site"
	@echo "make test            every check: php -l, ruff, PHPUnit, pytest (incl. mkdocs --strict, browser)"
	@echo "make site            build site/ from the runs already in data/runs/ (no benchmarking)"
	@echo "make serve           mkdocs serve; pages regenerate when data/, templates/ or scripts/ change"
	@echo "make bench PROFILE=full [ONLY=aead]   measure this machine into data/runs/<run-id>/"
	@echo "make bench-fidelity  PHP throughput over openssl speed, same run (aes-256-gcm/ccm, 16 KiB)"
	@echo "make bench-site [RUNS='10 50 200']   time make site on that many synthetic runs"
	@echo "make upgrade-runs    rewrite runs under data/runs/ written under an older schema version"
	@echo "make publish VERSION=x.y   deploy the site with mike to the local gh-pages branch (alias latest)"

report: setup bench site
	@echo ""
	@echo "Site built in $(CURDIR)/site/ (open site/index.html, or run 'make serve' and browse http://127.0.0.1:8000/)"

setup: system-packages venv

system-packages:
	@scripts/install-system-packages.sh

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

bench: system-packages
	php runners/bench.php run --profile $(PROFILE) $(if $(ONLY),--only $(ONLY),)

# Validate first (one line naming the file, row and column), then build beside the old site and
# swap, so a failed build never leaves a half-written site/.
site: venv
	$(PY) -m phpcb check
	rm -rf site.tmp
	$(VENV)/bin/mkdocs build --strict --quiet -d site.tmp
	rm -rf site && mv site.tmp site

serve: venv
	$(VENV)/bin/mkdocs serve -a 127.0.0.1:8000

test: setup lint test-php test-python

lint: venv
	@for f in $$(find runners tests/fixtures -name '*.php'); do php -l "$$f" >/dev/null || exit 1; done
	$(VENV)/bin/ruff check scripts tests
	$(VENV)/bin/ruff format --check scripts tests

test-php:
	phpunit -c runners/phpunit.xml

test-python: venv
	$(PY) -m pytest

bench-fidelity: setup
	@dir=$$(mktemp -d)/$$(date -u +%Y%m%dT%H%MZ)-fidelity-php$$(php -r 'echo PHP_MAJOR_VERSION.".".PHP_MINOR_VERSION;'); \
	  php runners/bench.php run --only aead --out "$$dir" >/dev/null && $(PY) -m phpcb fidelity "$$dir"

bench-site: venv
	scripts/bench-site.sh $(RUNS)

upgrade-runs: venv
	$(PY) -m phpcb upgrade data/runs/*/

publish: venv
	@test -n "$(VERSION)" || { echo "error: VERSION is required, e.g. make publish VERSION=0.1" >&2; exit 2; }
	PATH="$(abspath $(VENV))/bin:$$PATH" mike deploy --config-file mkdocs.publish.yml --update-aliases $(VERSION) latest
	PATH="$(abspath $(VENV))/bin:$$PATH" mike set-default --config-file mkdocs.publish.yml latest
	@echo "Published $(VERSION) (alias latest) to the gh-pages branch; preview: $(VENV)/bin/mike serve --config-file mkdocs.publish.yml"

clean:
	rm -rf site site.tmp .pytest_cache .ruff_cache
