"""The data contract: good runs load; every malformed fixture is refused with file, row and column."""

import subprocess
import sys

import pytest

from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError, IncompleteRunError, SchemaVersionError

from .conftest import FIXTURE_RUN, MALFORMED, ROOT, committed_runs

SCHEMAS = load_schemas(ROOT / "data" / "schema")
RUN_ID = "20260101T0100Z-malformed-php8.2"


def test_the_fixture_run_loads_with_typed_rows():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    rows = run.tables["aead.csv"]
    assert len(rows) == 240 * 7
    assert rows[0]["payload_bytes"] == 16
    assert isinstance(rows[0]["elapsed_ns"], int)
    assert run.tables["native.csv"][0]["bytes_per_second"] == 500_000_000.0
    assert run.has_results("aead")
    assert run.has_results("symmetric")
    assert all(row["verified"] is True for row in run.tables["symmetric.csv"])
    assert len(run.tables["cipher_inventory.csv"]) > 100


def test_the_committed_runs_all_load():
    runs = committed_runs()
    assert runs, "a quick run of the reference machine is committed under data/runs/"
    assert [r.run_id for r in runs] == sorted(r.run_id for r in runs)


@pytest.mark.parametrize(
    ("case", "error", "file", "row", "column", "message"),
    [
        ("bad-integer", DataError, "aead.csv", 4, "elapsed_ns", "expected integer, got '12.5e3'"),
        ("bad-enum", DataError, "aead.csv", 3, "operation", "'encrypted' is not one of ['encrypt', 'decrypt']"),
        ("below-minimum", DataError, "aead.csv", 6, "iterations", "0 is less than the minimum of 1"),
        ("bad-header", DataError, "aead.csv", 1, None, "expected header"),
        ("truncated-row", DataError, "aead.csv", 15, None, "expected 10 fields, got"),
        ("duplicate-sample", DataError, "aead.csv", 16, None, "the same case and sample appear twice"),
        ("missing-csv", DataError, "aead.csv", None, None, "file missing: the manifest lists it"),
        (
            "bad-native",
            DataError,
            "native.csv",
            3,
            "bytes_per_second",
            "-5.0 is less than or equal to the minimum of 0",
        ),
        (
            "future-schema",
            SchemaVersionError,
            "manifest.json",
            None,
            None,
            f"newer than this build reads ({SCHEMAS.version})",
        ),
        ("incomplete", IncompleteRunError, "manifest.json", None, None, "run did not finish: complete it with"),
        ("bad-status", DataError, "manifest.json", None, None, "at experiments/aead/status: 'done' is not one of"),
        ("bad-json", DataError, "manifest.json", None, None, "not valid JSON"),
        ("wrong-run-id", DataError, "manifest.json", None, None, "expected run_id '20260101T0100Z-malformed-php8.2'"),
    ],
)
def test_a_malformed_run_is_refused_naming_file_row_and_column(case, error, file, row, column, message):
    with pytest.raises(error) as caught:
        load_run(MALFORMED / case / RUN_ID, SCHEMAS)
    assert caught.value.path.name == file
    assert caught.value.row == row
    assert caught.value.column == column
    assert message in str(caught.value)


def phpcb_check(root):
    return subprocess.run(
        [sys.executable, "-m", "phpcb", "--root", str(root), "check"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "scripts")},
        check=False,
    )


def test_the_cli_prints_one_line_and_exits_non_zero(make_project):
    result = phpcb_check(make_project(MALFORMED / "bad-integer" / RUN_ID))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert lines[0].endswith("aead.csv, row 4, column 'elapsed_ns': expected integer, got '12.5e3'")


def test_the_cli_says_what_to_do_when_there_is_no_run(make_project):
    result = phpcb_check(make_project())
    assert result.returncode == 1
    assert "no runs to build from; run `make bench` first" in result.stderr
