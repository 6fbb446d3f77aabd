"""Tools outside the project can validate a run: the Frictionless reference implementation reads each
run's datapackage.json and agrees with the build's own validator, on good runs and on broken ones."""

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from phpcb.data import upgrade
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError
from phpcb.pages import build as site
from phpcb.presentation import downloads

from .conftest import FIXTURE_RUN, FIXTURE_RUNS, MALFORMED, ROOT

SCHEMAS = load_schemas(ROOT / "data" / "schema")
RUN_ID = "20260101T0100Z-malformed-php8.2"
# `frictionless validate --json datapackage.json` in each directory read from stdin, its report on one line:
# the command itself (the console the `frictionless` script runs), started once, not once per package
# (0.3 s of imports each). In its own process, as a tool outside the project; the library leaves files open.
VALIDATOR = """
import contextlib, io, json, os, sys
from frictionless.__main__ import console
for directory in sys.stdin:
    os.chdir(directory.rstrip("\\n"))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        console(["validate", "--json", "datapackage.json"], prog_name="frictionless", standalone_mode=False)
    print(json.dumps(json.loads(printed.getvalue())), flush=True)
"""


@pytest.fixture(scope="module")
def validator() -> Iterator[subprocess.Popen[str]]:
    with subprocess.Popen(
        [sys.executable, "-c", VALIDATOR], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as process:
        yield process
        assert process.stdin is not None
        process.stdin.close()
        assert process.wait(timeout=30) == 0


def frictionless(validator: subprocess.Popen[str], run_dir: Path) -> dict:
    assert validator.stdin is not None
    assert validator.stdout is not None
    validator.stdin.write(f"{run_dir}\n")
    validator.stdin.flush()
    report = validator.stdout.readline()
    assert report, "the validator stopped: its error is above"
    return json.loads(report)


def test_the_fixture_runs_as_published_are_valid_data_packages_of_every_table(tmp_path, validator):
    """As the site publishes them: each CSV gzip-compressed, which the descriptor says. Together the fixture
    runs hold every table the schema declares."""
    places = []
    for run in FIXTURE_RUNS:
        run_dir = tmp_path / run.name
        run_dir.mkdir()
        for csv_file in run.glob("*.csv"):
            (run_dir / f"{csv_file.name}.gz").write_bytes(downloads.compress(csv_file.read_bytes()))
        (run_dir / "datapackage.json").write_text(site.datapackage(load_run(run, SCHEMAS), SCHEMAS))
        report = frictionless(validator, run_dir)
        assert report["valid"], [task["errors"][:1] for task in report["tasks"] if not task["valid"]]
        places += [task["place"] for task in report["tasks"]]
    assert sorted(places) == sorted(f"{name}.gz" for name in SCHEMAS.tables)


def test_frictionless_finds_an_error_inside_a_compressed_file(tmp_path, validator):
    """The compressed files are read, not taken on trust: a bad row in one is found. The package holds that
    file alone: the fixture run's others, as published, are valid (the test above), and frictionless read
    every row of them again for nothing this test checks (most of its time)."""
    run_dir = tmp_path / FIXTURE_RUN.name
    run_dir.mkdir()
    header, first, rest = (FIXTURE_RUN / "aead.csv").read_bytes().split(b"\n", 2)
    data = b"\n".join([header, first.replace(b",", b",not-a-column,", 1), rest])
    (run_dir / "aead.csv.gz").write_bytes(downloads.compress(data))
    package = json.loads(site.datapackage(load_run(FIXTURE_RUN, SCHEMAS), SCHEMAS))
    package["resources"] = [resource for resource in package["resources"] if resource["path"] == "aead.csv.gz"]
    (run_dir / "datapackage.json").write_text(json.dumps(package))
    tasks = frictionless(validator, run_dir)["tasks"]
    assert [task["place"] for task in tasks] == ["aead.csv.gz"]
    assert not tasks[0]["valid"]
    assert tasks[0]["errors"][0].get("rowNumber") == 2, "the bad row itself, read from the compressed file"


def as_written(package: dict) -> dict:
    """The package as the malformed runs' own schema version (1) wrote them: without the columns that
    upgrades added since, as the build checks each file against the header it had."""
    for resource in package["resources"]:
        header = tuple(field["name"] for field in resource["schema"]["fields"])
        kept = upgrade.old_header(upgrade.chain(1, SCHEMAS.version), resource["path"], header)
        resource["schema"]["fields"] = [f for f in resource["schema"]["fields"] if f["name"] in kept]
        if all(f["constraints"]["required"] for f in resource["schema"]["fields"]):
            resource["schema"]["missingValues"] = []
    return package


@pytest.mark.parametrize("case", ["bad-enum", "below-minimum", "bad-native", "duplicate-sample", "bad-integer"])
def test_frictionless_finds_the_same_row_and_column_as_the_build(tmp_path, validator, case):
    run_dir = shutil.copytree(MALFORMED / case / RUN_ID, tmp_path / RUN_ID)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    files = [name for entry in manifest["experiments"].values() for name in entry["files"]]
    (run_dir / "datapackage.json").write_text(json.dumps(as_written(SCHEMAS.datapackage("malformed", case, files))))
    with pytest.raises(DataError) as caught:
        load_run(run_dir, SCHEMAS)
    ours = caught.value
    failed = [task for task in frictionless(validator, run_dir)["tasks"] if not task["valid"]]
    assert [task["name"] for task in failed] == [ours.path.stem]
    first = failed[0]["errors"][0]
    assert first["rowNumber"] == ours.row
    if ours.column is not None:
        assert first["fieldName"] == ours.column
