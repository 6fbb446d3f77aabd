"""Adding an experiment is adding files: docs/contributing.md's promise, kept.

A copy of the repository gets the test-only experiment `tiny` (tests/fixtures/experiment-tiny/: one
PHP namespace, one Python package, one template, its schema file and its policy) and nothing else.
The runner then lists and measures it, and the site shows it in the nav, on the home page and on its
own page, with no shared file edited.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from phpcb.experiments import registry

from .conftest import FIXTURES, ROOT

pytestmark = pytest.mark.slow

TINY = FIXTURES / "experiment-tiny"
COPIED = ("runners", "scripts", "templates", "docs", "overrides", "vectors", "mkdocs.yml", "mkdocs.publish.yml")
RUN_ID = "20260101T0000Z-tiny-php8.2"


def ignore_generated(directory: str, names: list[str]) -> list[str]:
    # No data/site.yaml: the copy's only run is this host's, whatever CPU names its machine, so the
    # repository's reference machine would have no run in it; no data/stacks/: its sets name runs it has not.
    return [name for name in names if name in ("__pycache__", "runs", "site.yaml", "stacks")]


def fingerprint(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny") / "project"
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=ignore_generated)
        else:
            shutil.copy(source, root / name)
    shutil.copytree(ROOT / "data", root / "data", ignore=ignore_generated)
    (root / "data" / "runs").mkdir()
    before = fingerprint(root)
    added = [path for path in TINY.rglob("*") if path.is_file() and "__pycache__" not in path.parts]
    for path in added:
        target = root / path.relative_to(TINY)
        assert not target.exists(), f"{target.relative_to(root)} would edit a shared file"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    after = fingerprint(root)
    assert {name: digest for name, digest in after.items() if name in before} == before, "only new files"
    return root


def run(command, root, **env):
    environment = {**os.environ, "PYTHONPATH": str(root / "scripts"), "NO_MKDOCS_2_WARNING": "1", **env}
    return subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def measured(project):
    listed = run(["php", "runners/bench.php", "list"], project)
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^tiny\t", listed.stdout, re.M), listed.stdout
    out = project / "data" / "runs" / RUN_ID
    result = run(["php", "runners/bench.php", "run", "--fake-clock", "--only", "tiny", "--out", str(out)], project)
    assert result.returncode == 0, result.stderr
    return project


@pytest.fixture(scope="module")
def built(measured):
    generated = run([sys.executable, "-m", "phpcb", "--root", str(measured), "pages"], measured)
    assert generated.returncode == 0, generated.stderr
    site = measured / "site"
    mkdocs = [str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "-f", "build/mkdocs.yml"]
    result = run([*mkdocs, "-d", str(site)], measured)
    assert result.returncode == 0, result.stderr
    return site


def test_the_runner_finds_and_measures_the_new_namespace(measured):
    csv = (measured / "data" / "runs" / RUN_ID / "tiny.csv").read_text().splitlines()
    assert csv[0] == "algorithm,payload_bytes,sample,iterations,elapsed_ns,verified"
    assert len(csv) > 4


def test_the_nav_lists_it_after_the_others(built):
    home = (built / "index.html").read_text(encoding="utf-8")
    nav = re.findall(r'<a href="experiments/([a-z0-9_]+)/" class="md-nav__link">', home)
    assert nav[-1] == "tiny"
    assert set(nav) == {e.name for e in registry.discover()} | {"tiny"}


def test_the_home_page_shows_its_finding_and_its_row(built):
    home = (built / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<strong>sha(256|512)</strong> of (64 B|1 KiB) takes", home)
    assert "What does hash() cost over small inputs?" in home


def test_its_page_has_its_chart_and_its_downloads(built):
    page = (built / "experiments" / "tiny" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="pcb-chart"') == 1
    assert f"../../runs/{RUN_ID}/tiny.csv.gz" in page
    assert (built / "runs" / RUN_ID / "datapackage.json").is_file()
