"""The bugs tests/test_fuzz_runs.py found, each pinned by a plain test, and `make site`'s promise:
one line naming the file, no traceback, the previous site/ kept."""

import json
import os
import subprocess
import sys

import markdown
import pytest

from phpcb.data.schema import load_schemas
from phpcb.errors import DataError
from phpcb.experiments import registry
from phpcb.pages import build as site

from .conftest import FIXTURE_RUN, ROOT, fixture_run_of, reseal, write_manifest

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


def set_os(root, text):
    path = root / "data" / "runs" / RUN / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["os"] = text
    write_manifest(path.parent, manifest)


@pytest.mark.parametrize(
    ("text", "forbidden"),
    [
        ("[zq](javascript:alert(1))", 'href="javascript:'),  # a link from data
        ("*zq*{ onclick=alert(1) }", 'onclick="'),  # attr_list puts attributes on the emphasis
        ("![zq](http://example.invalid/x.png)", "<img"),
        ("zq\n# heading", "<h1>heading"),
    ],
)
def test_markdown_in_manifest_text_is_shown_not_interpreted(make_project, text, forbidden):
    # Found by the fuzzer: HTML escaping alone let Markdown from data make links, images and attributes.
    root = make_project(FIXTURE_RUN)
    set_os(root, text)
    page = site.build(root).pages["runs.md"]
    html = markdown.markdown(page, extensions=["attr_list", "tables", "admonition"])
    assert forbidden not in html
    assert "zq" in html


def test_verification_sources_are_code_that_shows_the_text_as_written(make_project):
    root = make_project(FIXTURE_RUN)
    path = root / "data" / "runs" / RUN / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["experiments"]["aead"]["verification"]["vectors"][0]["source"] = "a<b>*c*"
    write_manifest(path.parent, manifest)
    page = site.build(root).pages["experiments/aead.md"]
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
