"""The bugs tests/test_fuzz_runs.py found, each pinned by a plain test, and `make site`'s promise:
one line naming the file, no traceback, the previous site/ kept."""

import json
import os
import shutil
import subprocess
import sys

import markdown
import pytest

from phpcb.data.schema import load_schemas
from phpcb.errors import DataError
from phpcb.experiments import registry
from phpcb.pages import build as site

from .conftest import FIXTURE_RUN, ROOT, fixture_run_of, project_with, reseal, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")

RUN = FIXTURE_RUN.name


def only_header(root, name, run=RUN):
    path = root / "data" / "runs" / run / name
    path.write_text(path.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    reseal(path.parent)
    return path


# Each experiment's samples, in the fixture run that has them.
SAMPLES = [
    (experiment.measurements(SCHEMAS).name, fixture_run_of(experiment.name)) for experiment in registry.discover()
]


@pytest.mark.parametrize(("name", "run"), SAMPLES, ids=[name for name, _ in SAMPLES])
def test_an_experiment_marked_ok_with_a_header_only_csv_is_refused_naming_the_file(make_project, name, run):
    # Found by the fuzzer: aead.csv gave an IndexError, ec_keygen.csv and jwt.csv a Jinja UndefinedError.
    root = make_project(run)
    path = only_header(root, name, run.name)
    with pytest.raises(DataError) as caught:
        site.build(root)
    assert caught.value.path == path
    assert "no data rows, but experiments." in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_header_only_evidence_file_is_not_refused(make_project):
    root = make_project(FIXTURE_RUN)
    only_header(root, "jwt_tokens.csv")
    assert site.build(root).pages


# Each text in the OS of a run of its own: the fixture run, and copies of it a day apart.
MARKDOWN_FROM_DATA = [
    (RUN, "[zq](javascript:alert(1))", 'href="javascript:'),  # a link from data
    ("20260102T0000Z-fixture-php8.2", "*zq*{ onclick=alert(1) }", 'onclick="'),  # attr_list: attributes
    ("20260103T0000Z-fixture-php8.2", "![zq](http://example.invalid/x.png)", "<img"),
    ("20260104T0000Z-fixture-php8.2", "zq\n# heading", "<h1>heading"),
]
VERIFICATION_SOURCE = "a<b>*c*"


def hostile_copy(root, run_id):
    """The fixture run under `run_id`, started on the day its id says, as a run of its own."""
    target = root / "data" / "runs" / run_id
    shutil.copytree(FIXTURE_RUN, target)
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest["run_id"] = run_id
    manifest["started_utc"] = f"2026-01-{run_id[6:8]}T00:00:00Z"
    write_manifest(target, manifest)


def set_text(root, run_id, os_text):
    """The run's OS and its first AEAD vector's source set to text that means something in Markdown."""
    path = root / "data" / "runs" / run_id / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["os"] = os_text
    manifest["experiments"]["aead"]["verification"]["vectors"][0]["source"] = VERIFICATION_SOURCE
    write_manifest(path.parent, manifest)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    """One build for the texts below: a run per text (its OS), every run's AEAD vector source as code.
    A build per text cost most of this module's time; the Runs page shows every run, each in its section."""
    root = project_with(tmp_path_factory.mktemp("hostile"), FIXTURE_RUN)
    for run_id, text, _ in MARKDOWN_FROM_DATA:
        if run_id != RUN:
            hostile_copy(root, run_id)
        set_text(root, run_id, text)
    return site.build(root)


def run_section(page, run_id):
    """The Runs page's section of one run: from its heading to the next run's."""
    return page.split(f"## `{run_id}`", 1)[1].split("\n## `", 1)[0]


@pytest.mark.parametrize(("run_id", "text", "forbidden"), MARKDOWN_FROM_DATA)
def test_markdown_in_manifest_text_is_shown_not_interpreted(hostile_site, run_id, text, forbidden):
    # Found by the fuzzer: HTML escaping alone let Markdown from data make links, images and attributes.
    page = hostile_site.pages["runs.md"]
    html = markdown.markdown(page, extensions=["attr_list", "tables", "admonition"])
    assert forbidden not in html, f"{text!r} (the OS of {run_id})"
    section = markdown.markdown(run_section(page, run_id), extensions=["attr_list", "tables", "admonition"])
    assert "zq" in section, f"{text!r} (the OS of {run_id}) is not shown in its run's section"


def test_verification_sources_are_code_that_shows_the_text_as_written(hostile_site):
    page = hostile_site.pages["experiments/aead.md"]
    assert "<code>a&lt;b&gt;&#42;c&#42;</code>" in page


def run_check(root):
    return subprocess.run(
        [sys.executable, "-m", "phpcb", "--root", str(root), "check"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "scripts"), "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )


def test_check_refuses_a_header_only_csv_in_one_line_without_a_traceback(make_project):
    root = make_project(FIXTURE_RUN)
    path = only_header(root, "jwt.csv")
    result = run_check(root)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"error: {path}: no data rows, but experiments.jwt is marked 'ok': expected its samples"
    ]


def test_make_site_keeps_the_previous_site_when_the_data_is_bad(make_project):
    root = make_project(FIXTURE_RUN)
    bad = only_header(root, "aead.csv")
    variables = [f"VENV={ROOT / '.venv'}", f"PYTHONPATH={ROOT / 'scripts'}"]
    (root / "site").mkdir()
    (root / "site" / "index.html").write_text("previous", encoding="utf-8")
    result = subprocess.run(
        # The Makefile's own `site` recipe, run in the throwaway project with this checkout's venv.
        ["make", "--no-print-directory", "-f", str(ROOT / "Makefile"), "-o", "venv", "site", *variables],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PHPCB_ROOT": str(root)},
        check=False,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors == [f"error: {bad}: no data rows, but experiments.aead is marked 'ok': expected its samples"]
    assert (root / "site" / "index.html").read_text(encoding="utf-8") == "previous"
    assert not (root / "site.tmp").exists()
