"""Load every run under data/runs/, validated against data/schema/, into typed rows."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import DataError, IncompleteRunError, SchemaVersionError
from .schema import Cell, Schemas, TableSchema

MANIFEST = "manifest.json"

# Upgraders turn a manifest of version N into N+1. None exist yet: version 1 is the first.
UPGRADERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

Row = dict[str, Cell]


@dataclass(frozen=True)
class Run:
    run_id: str
    directory: Path
    manifest: dict[str, Any]
    tables: dict[str, list[Row]]

    def experiment(self, name: str) -> dict[str, Any] | None:
        experiments: dict[str, Any] = self.manifest["experiments"]
        return experiments.get(name)

    def has_results(self, name: str) -> bool:
        entry = self.experiment(name)
        return entry is not None and entry["status"] in ("ok", "partial")


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(path, "file missing") from None
    except json.JSONDecodeError as error:
        raise DataError(path, f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    except UnicodeDecodeError:
        raise DataError(path, "not UTF-8") from None


def upgrade_manifest(path: Path, manifest: Any, current: int) -> dict[str, Any]:
    if not isinstance(manifest, dict):
        raise DataError(path, f"expected a JSON object, got {type(manifest).__name__}")
    version = manifest.get("schema_version")
    if not isinstance(version, int):
        raise SchemaVersionError(path, f"expected an integer schema_version, got {version!r}")
    if version > current:
        raise SchemaVersionError(
            path, f"schema_version {version} is newer than this build reads ({current}): update your checkout"
        )
    while version < current:
        upgrade = UPGRADERS.get(version)
        if upgrade is None:
            raise SchemaVersionError(
                path,
                f"schema_version {version} cannot be upgraded to {current}: re-run it with php runners/bench.php run",
            )
        manifest = upgrade(manifest)
        version = manifest["schema_version"]
    return manifest


def read_table(path: Path, schema: TableSchema) -> list[Row]:
    """Rows of one CSV, typed and validated; row numbers are file lines (the header is row 1)."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle, strict=True)
            header = next(reader, None)
            if header is None:
                raise DataError(path, "empty file: expected a header row", 1)
            if tuple(header) != schema.columns:
                raise DataError(path, f"expected header {list(schema.columns)}, got {header}", 1)
            rows: list[Row] = []
            seen: set[tuple[Cell, ...]] = set()
            for number, fields in enumerate(reader, start=2):
                if len(fields) != len(schema.columns):
                    raise DataError(path, f"expected {len(schema.columns)} fields, got {len(fields)}", number)
                row = schema.convert(path, number, dict(zip(schema.columns, fields, strict=True)))
                schema.validate(path, number, row)
                identity = (*(row[column] for column in schema.key), row.get("sample"))
                if identity in seen:
                    raise DataError(path, "the same case and sample appear twice", number)
                seen.add(identity)
                rows.append(row)
    except FileNotFoundError:
        raise DataError(path, "file missing: the manifest lists it") from None
    except UnicodeDecodeError:
        raise DataError(path, "not UTF-8") from None
    except csv.Error as error:
        raise DataError(path, f"malformed CSV: {error}") from None
    return rows


def load_run(directory: Path, schemas: Schemas) -> Run:
    path = directory / MANIFEST
    manifest = upgrade_manifest(path, _read_json(path), schemas.version)
    schemas.validate_manifest(path, manifest)
    if manifest["finished_utc"] is None:
        raise IncompleteRunError(
            path, f"run did not finish: complete it with php runners/bench.php run --resume --out {directory}"
        )
    if manifest["run_id"] != directory.name:
        raise DataError(path, f"expected run_id {directory.name!r} (the directory name), got {manifest['run_id']!r}")
    tables: dict[str, list[Row]] = {}
    for entry in manifest["experiments"].values():
        for file_name in entry["files"]:
            table_path = directory / file_name
            tables[file_name] = read_table(table_path, schemas.table(file_name, table_path))
    return Run(run_id=manifest["run_id"], directory=directory, manifest=manifest, tables=tables)


def load_runs(runs_dir: Path, schemas: Schemas) -> list[Run]:
    """Every run, oldest first (run ids sort by time)."""
    if not runs_dir.is_dir():
        return []
    directories = sorted(p for p in runs_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
    return [load_run(directory, schemas) for directory in directories]
