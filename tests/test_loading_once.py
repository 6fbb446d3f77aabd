"""Loading a run reads each file once (issue 48): the seal checks the bytes the reader parses, rows are
counted without a second parse where lines are records, and a process keeps what it loaded and
compressed by content, so that a change to any file is a run loaded (and checked) again."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
from pathlib import Path

import pytest

from phpcb.data import loader, seal
from phpcb.data.datafile import read_json
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.data.table_reader import read_raw, read_table
from phpcb.errors import DataError

from .conftest import FIXTURE_RUN, ROOT

SCHEMAS = load_schemas(ROOT / "data" / "schema")


def csv_records(data: bytes) -> int:
    """What seal.rows counted before issue 48: every record the CSV reader finds, less the header."""
    reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace"), newline=""))
    return max(0, sum(1 for _ in reader) - 1)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"a,b",
        b"a,b\n",
        b"a,b\n1,2\n3,4",
        b"a,b\n\n1,2\n\n",
        b'a,b\n1,"x\ny"\n3,4\n',
        b'a,b\n1,"x,""y"""\n',
        b'a,b\nx"y,"z\nw"\n',
        b"a,b\r\n1,2\r\n",
        b"a,b\r1,2\r",
        b"a,b\n1,\xff\xfe\n",
        b"a,b\n1,\x00\n",
        b"a,b\n1,\xe2\x80\xa8\x0b\x1c\n",
    ],
    ids=repr,
)
def test_rows_counted_from_bytes_are_what_the_csv_reader_counts(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(data)
    assert seal.rows_of(data) == csv_records(data)
    assert seal.rows(path) == csv_records(data)


def test_the_seal_returns_the_bytes_it_checked_and_the_reader_parses_those(tmp_path: Path) -> None:
    run = shutil.copytree(FIXTURE_RUN, tmp_path / FIXTURE_RUN.name)
    manifest = read_json(run / loader.MANIFEST)
    checked = seal.verify(run, manifest, run / loader.MANIFEST)
    assert checked.keys() == set(seal.listed_files(manifest))
    assert checked["aead.csv"] == (run / "aead.csv").read_bytes()
    columns = SCHEMAS.tables["aead.csv"].columns
    (run / "aead.csv").write_bytes(b"not,the,file\n")  # after the check: not what is parsed
    raw = read_raw(run / "aead.csv", columns, checked["aead.csv"])
    assert raw.table.num_rows == 240 * 7


def test_a_changed_byte_is_refused_by_its_seal_even_after_the_same_run_loaded(tmp_path: Path) -> None:
    run = shutil.copytree(FIXTURE_RUN, tmp_path / FIXTURE_RUN.name)
    assert load_run(run, SCHEMAS).tables["aead.csv"][0]["payload_bytes"] == 16
    path = run / "aead.csv"
    before = path.stat()
    data = bytearray(path.read_bytes())
    at = data.index(b",16,")
    data[at + 1 : at + 3] = b"17"  # same size; the time of change restored below
    path.write_bytes(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(DataError, match="does not match the run's seal"):
        load_run(run, SCHEMAS)


@pytest.mark.parametrize(
    ("value", "error"),
    [("+5", "expected integer, got '+5'"), ("1.0", "expected integer, got '1.0'"), ("-0x1", "expected integer")],
)
def test_an_integer_that_is_not_written_plainly_is_still_refused(tmp_path: Path, value: str, error: str) -> None:
    schema = SCHEMAS.tables["aead.csv"]
    lines = (FIXTURE_RUN / "aead.csv").read_text(encoding="utf-8").splitlines()
    at = schema.columns.index("elapsed_ns")
    cells = lines[3].split(",")
    cells[at] = value
    lines[3] = ",".join(cells)
    path = tmp_path / "aead.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(error)) as refused:
        read_table(path, schema)
    assert refused.value.row == 4


def test_leading_zeros_are_an_integer_as_before(tmp_path: Path) -> None:
    schema = SCHEMAS.tables["aead.csv"]
    lines = (FIXTURE_RUN / "aead.csv").read_text(encoding="utf-8").splitlines()
    at = schema.columns.index("elapsed_ns")
    cells = lines[1].split(",")
    expected = int(cells[at])
    cells[at] = "000" + cells[at]
    lines[1] = ",".join(cells)
    path = tmp_path / "aead.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert read_table(path, schema)["elapsed_ns"][0].as_py() == expected
