"""`python -m phpcb synthesize COUNT OUT`: a project with COUNT valid runs made from the committed ones,
to measure how the build scales with the number of runs (`make bench-site`).

Each synthetic run copies one committed run (in turn), with its own run id and its timings scaled
by a factor of its own, so no two runs have the same content.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from phpcb.data import seal
from phpcb.data.loader import MANIFEST, read_run, run_directories
from phpcb.data.rewrite import csv_text, manifest_text
from phpcb.data.schema import load_schemas
from phpcb.errors import BuildError

START = datetime(2026, 1, 1, tzinfo=UTC)
# What a build reads besides runs (tests/conftest.py's copy_inputs copies the same for the tests' projects).
PROJECT_DIRS = (("data", "schema"), ("data", "policy"), ("data", "reference"), ("templates",), ("runners", "snippets"))


def scaled(table: pa.Table, column: str, factor: float) -> pa.Table:
    times = pc.cast(table[column], pa.int64())
    scaled_times = pc.cast(pc.round(pc.multiply(pc.cast(times, pa.float64()), factor)), pa.int64())
    return table.set_column(table.schema.get_field_index(column), column, pc.cast(scaled_times, pa.string()))


def synthesize(root: Path, count: int, out: Path) -> str:
    if count < 1:
        raise BuildError(f"expected a positive number of runs, got {count}")
    schemas = load_schemas(root / "data" / "schema")
    sources = [read_run(directory, schemas) for directory in run_directories(root / "data" / "runs")]
    if not sources:
        raise BuildError(f"{root / 'data' / 'runs'}: no runs to copy")
    if out.exists():
        raise BuildError(f"{out}: already exists; synthesize writes a new project")
    for parts in PROJECT_DIRS:
        shutil.copytree(root.joinpath(*parts), out.joinpath(*parts))
    for index in range(count):
        source = sources[index % len(sources)]
        started = START + timedelta(minutes=index)
        run_id = f"{started:%Y%m%dT%H%MZ}-synthetic-php8.2"
        directory = out / "data" / "runs" / run_id
        directory.mkdir(parents=True)
        factor = 1 + (index % 97 - 48) / 1000
        for name, raw in source.tables.items():
            measure = schemas.tables[name].measure
            table = scaled(raw.table, measure.time, factor) if measure else raw.table
            (directory / name).write_text(csv_text(table), encoding="utf-8")
        manifest = {
            **source.manifest,
            "run_id": run_id,
            "started_utc": f"{started:%Y-%m-%dT%H:%M:%SZ}",
            "finished_utc": f"{started + timedelta(seconds=50):%Y-%m-%dT%H:%M:%SZ}",
        }
        # Sealed as the runner seals a run it finishes (files and manifest): new runs, not edits of one.
        manifest = seal.sealed(manifest, directory, manifest_text)
        (directory / MANIFEST).write_text(manifest_text(manifest), encoding="utf-8")
    return f"{count} synthetic runs in {out / 'data' / 'runs'}"
