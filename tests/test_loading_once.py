"""Loading a run reads each file once (issue 48): the seal checks the bytes the reader parses, rows are
counted without a second parse where lines are records, and a process keeps what it loaded and
compressed by content, so that a change to any file is a run loaded (and checked) again."""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from phpcb.data import loader, seal
from phpcb.data.datafile import read_json
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.data.table_reader import read_raw, read_table
from phpcb.errors import DataError

from .conftest import FIXTURE_RUN, FIXTURE_RUNS, ROOT

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


def counting_loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The directories loader.load_run reads and checks in full from now on (not served from what it kept)."""
    loaded: list[Path] = []
    real = loader._load_run

    def load(directory: Path, schemas: Any) -> loader.Run:
        loaded.append(directory)
        return real(directory, schemas)

    monkeypatch.setattr(loader, "_load_run", load)
    monkeypatch.setattr(loader, "_LOADED", type(loader._LOADED)())
    return loaded


def test_an_unchanged_run_is_read_once_and_each_caller_gets_its_own_copy(tmp_path: Path, monkeypatch) -> None:
    loaded = counting_loads(monkeypatch)
    first = load_run(shutil.copytree(FIXTURE_RUN, tmp_path / "a" / FIXTURE_RUN.name), SCHEMAS)
    elsewhere = shutil.copytree(FIXTURE_RUN, tmp_path / "b" / FIXTURE_RUN.name)
    second = load_run(elsewhere, SCHEMAS)
    assert loaded == [tmp_path / "a" / FIXTURE_RUN.name], "the same bytes under the same name: read once"
    assert second.directory == elsewhere
    assert second.manifest == first.manifest
    assert second.manifest is not first.manifest
    assert second.frames.keys() == first.frames.keys()
    assert all(second.frames[name].equals(first.frames[name]) for name in first.frames)
    second.manifest["machine"]["name"] = "changed by a caller"
    second.frames.clear()
    third = load_run(elsewhere, SCHEMAS)
    assert third.manifest == first.manifest
    assert third.frames.keys() == first.frames.keys()
    assert len(loaded) == 1


def test_a_changed_file_another_name_or_other_schemas_load_the_run_again(tmp_path: Path, monkeypatch) -> None:
    loaded = counting_loads(monkeypatch)
    run = shutil.copytree(FIXTURE_RUN, tmp_path / FIXTURE_RUN.name)
    load_run(run, SCHEMAS)
    renamed = shutil.copytree(run, tmp_path / "other" / "20260101T0001Z-fixture-php8.2")
    with pytest.raises(DataError, match=re.escape("expected run_id '20260101T0001Z-fixture-php8.2'")):
        load_run(renamed, SCHEMAS)
    load_run(run, dataclasses.replace(SCHEMAS))
    manifest = run / loader.MANIFEST
    manifest.write_bytes(manifest.read_bytes() + b"\n")  # the same document, other bytes
    load_run(run, SCHEMAS)
    assert loaded == [run, renamed, run, run]


def test_a_symlink_added_after_a_load_is_refused_before_anything_is_read(tmp_path: Path, monkeypatch) -> None:
    counting_loads(monkeypatch)
    run = shutil.copytree(FIXTURE_RUN, tmp_path / FIXTURE_RUN.name)
    load_run(run, SCHEMAS)
    (run / "notes.txt").symlink_to("/etc/passwd")
    with pytest.raises(DataError, match="a symbolic link in a run directory"):
        load_run(run, SCHEMAS)


def test_a_run_that_fails_is_never_kept_and_the_oldest_kept_goes_first(tmp_path: Path, monkeypatch) -> None:
    loaded = counting_loads(monkeypatch)
    monkeypatch.setattr(loader, "LOADED_KEPT", 1)
    run = shutil.copytree(FIXTURE_RUN, tmp_path / FIXTURE_RUN.name)
    csv = run / "aead.csv"
    good = csv.read_bytes()
    csv.write_bytes(good.replace(b",16,", b",17,", 1))
    for _ in range(2):
        with pytest.raises(DataError, match="does not match the run's seal"):
            load_run(run, SCHEMAS)
    csv.write_bytes(good)
    load_run(run, SCHEMAS)
    other = shutil.copytree(FIXTURE_RUNS[1], tmp_path / FIXTURE_RUNS[1].name)
    load_run(other, SCHEMAS)
    load_run(run, SCHEMAS)  # pushed out by the other
    assert loaded == [run, run, run, other, run]
