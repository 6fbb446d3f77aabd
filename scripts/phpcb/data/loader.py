"""Load every run under data/runs/: manifests checked against their JSON Schema, CSVs read as typed
Arrow tables (table_reader), runs of older schema versions upgraded on the way in (upgrade)."""

from __future__ import annotations

import copy
import hashlib
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import pyarrow as pa

from phpcb.data import consistency, run_files, seal, upgrade
from phpcb.data.datafile import parse_json, read_bytes
from phpcb.data.schema import Schemas
from phpcb.data.table_reader import RawTable, read_raw, typed
from phpcb.errors import DataError, IncompleteRunError, SchemaVersionError

MANIFEST = "manifest.json"

Cell = str | int | float | bool
Row = dict[str, Cell]


class RowTables(Mapping[str, list[Row]]):
    """A run's tables as lists of dict rows, converted on first use: most runs' rows are never needed."""

    def __init__(self, frames: Mapping[str, pa.Table]) -> None:
        self._frames = frames
        self._rows: dict[str, list[Row]] = {}

    def __getitem__(self, name: str) -> list[Row]:
        if name not in self._rows:
            self._rows[name] = self._frames[name].to_pylist()
        return self._rows[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._frames)

    def __len__(self) -> int:
        return len(self._frames)


@dataclass(frozen=True, eq=False)
class Run:
    run_id: str
    directory: Path
    manifest: dict[str, Any]
    frames: dict[str, pa.Table] = field(repr=False)
    # The schema version the files on disk were written under; older runs are upgraded on load.
    source_version: int = 0

    @classmethod
    def from_rows(cls, run_id: str, manifest: dict[str, Any], tables: Mapping[str, list[Row]]) -> Run:
        """A run built in memory from dict rows (unit tests of an analysis), not read from disk."""
        frames = {name: pa.Table.from_pylist(list(rows)) for name, rows in tables.items()}
        return cls(run_id, Path("/nonexistent"), manifest, frames, int(manifest.get("schema_version", 0)))

    @property
    def upgraded(self) -> bool:
        return self.source_version != self.manifest.get("schema_version")

    @property
    def files_current(self) -> bool:
        """Whether its files on disk are as the current schema declares them: no upgrade on the way in
        changed one (an upgrade of the manifest alone leaves them so). A Data Package describes them then."""
        current = int(self.manifest.get("schema_version", self.source_version))
        files = [name for entry in self.manifest["experiments"].values() for name in entry.get("files", [])]
        steps = [upgrade.UPGRADERS[version] for version in range(self.source_version, current)]
        return not any(step.changes(name) for step in steps for name in files)

    @property
    def sealed(self) -> bool:
        """Whether its files were checked against a seal when it was read (runs of version 6 on)."""
        return self.source_version >= seal.SEALED_FROM_VERSION

    @cached_property
    def tables(self) -> RowTables:
        return RowTables(self.frames)

    def experiment(self, name: str) -> dict[str, Any] | None:
        experiments: dict[str, Any] = self.manifest["experiments"]
        return experiments.get(name)

    def has_results(self, name: str) -> bool:
        entry = self.experiment(name)
        return entry is not None and entry["status"] in ("ok", "partial")


def upgrade_path(path: Path, manifest: Any, current: int) -> list[upgrade.Upgrader]:
    """The upgraders that bring this manifest's run to the current schema version (none when current)."""
    if not isinstance(manifest, dict):
        raise DataError(path, f"expected a JSON object, got {type(manifest).__name__}")
    version = manifest.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SchemaVersionError(path, f"expected an integer schema_version, got {version!r}")
    if version > current:
        raise SchemaVersionError(
            path, f"schema_version {version} is newer than this build reads ({current}): update your checkout"
        )
    steps = upgrade.chain(version, current)
    if steps is None:
        raise SchemaVersionError(
            path,
            f"schema_version {version} cannot be upgraded to {current}: re-run it with php runners/bench.php run",
        )
    return steps


@dataclass(frozen=True)
class RawRun:
    """A run as read from disk, upgraded to the current version but not yet typed."""

    directory: Path
    manifest: dict[str, Any]
    tables: dict[str, RawTable]
    steps: list[upgrade.Upgrader]
    source_version: int


def read_run(directory: Path, schemas: Schemas) -> RawRun:
    """The run's files, each read once: what the seal checks is what is parsed."""
    run_files.check_directory(directory)  # regular files only, before anything is read (run_files.py)
    path = directory / MANIFEST
    manifest_bytes = read_bytes(path)
    manifest, steps, source_version = _upgraded(path, parse_json(path, manifest_bytes), schemas.version)
    schemas.validate_manifest(path, manifest)
    if manifest["finished_utc"] is None:
        raise IncompleteRunError(
            path, f"run did not finish: complete it with php runners/bench.php run --resume --out {directory}"
        )
    if manifest["run_id"] != directory.name:
        raise DataError(path, f"expected run_id {directory.name!r} (the directory name), got {manifest['run_id']!r}")
    # A sealed run's files are read once, by the seal check, and parsed from the bytes it checked.
    contents = seal.verify(directory, manifest, path) if source_version >= seal.SEALED_FROM_VERSION else {}
    if source_version >= seal.MANIFEST_SEALED_FROM_VERSION:
        seal.verify_manifest(manifest, path, manifest_bytes)
    tables: dict[str, RawTable] = {}
    for entry in manifest["experiments"].values():
        for file_name in entry["files"]:
            table_path = directory / file_name
            schema = schemas.table(file_name, table_path)
            raw = read_raw(table_path, upgrade.old_header(steps, file_name, schema.columns), contents.get(file_name))
            for step in steps:
                raw = replace(raw, table=step.table(file_name, raw.table))
            tables[file_name] = raw
    return RawRun(directory, manifest, tables, steps, source_version)


def read_manifest(directory: Path, schemas: Schemas) -> dict[str, Any]:
    """A run's manifest upgraded to the current schema version, neither validated nor checked against its
    files (load_run does both): enough to choose which runs to load, by machine or stack, without the
    tables of those it leaves."""
    path = directory / MANIFEST
    return _upgraded(path, parse_json(path, read_bytes(path)), schemas.version)[0]


def _upgraded(path: Path, manifest: Any, current: int) -> tuple[dict[str, Any], list[upgrade.Upgrader], int]:
    """The manifest upgraded to `current`, the steps that did it (its tables need them too), and the
    schema version it was written under."""
    steps = upgrade_path(path, manifest, current)
    source_version = int(manifest["schema_version"])
    for step in steps:
        manifest = step.manifest(manifest)
    return manifest, steps, source_version


def check_measured(raw: RawRun, frames: Mapping[str, pa.Table], schemas: Schemas) -> None:
    """An experiment marked ok or partial has samples: its measurements table holds at least one row."""
    for name, entry in raw.manifest["experiments"].items():
        if entry["status"] not in ("ok", "partial"):
            continue
        for file_name in entry["files"]:
            if schemas.tables[file_name].measure is not None and frames[file_name].num_rows == 0:
                raise DataError(
                    raw.directory / file_name,
                    f"no data rows, but experiments.{name} is marked {entry['status']!r}: expected its samples",
                )


# Runs already loaded, by what decides a load: the schemas, the directory's name (the run id it must carry)
# and the name and bytes of every file in it. A pull request's trusted job builds the base's side and the
# head's in one process from two trees that share most runs, and a test process builds many sites from the
# same fixture runs: a run whose files did not change is not parsed, typed and checked again. A run that
# fails to load is never kept; the directory's own check (regular files only) runs on every load, first.
_LOADED: OrderedDict[str, tuple[Schemas, Run]] = OrderedDict()
LOADED_KEPT = 128  # more than the repository's runs, which a build reads all of (a few MB each at most)


def _directory_files(directory: Path) -> dict[str, bytes]:
    """Every file of the run directory by name, each read once it is known to be a regular file."""
    return {name: read_bytes(directory / name) for name in run_files.check_directory(directory)}


def _load_key(directory: Path, files: Mapping[str, bytes]) -> str:
    # Each part hashed as it is: joined first, a run's bytes would be copied once more only to be hashed.
    digest = hashlib.sha256(directory.name.encode() + b"\0")
    for name, data in files.items():
        digest.update(name.encode() + b"\0")
        digest.update(data)
        digest.update(b"\0")
    return digest.hexdigest()


def load_run(directory: Path, schemas: Schemas) -> Run:
    files = _directory_files(directory)
    key = _load_key(directory, files)
    kept = _LOADED.get(key)
    if kept is not None and kept[0] is schemas:
        _LOADED.move_to_end(key)
        return _own_copy(kept[1], directory)
    run = _load_run(directory, schemas)
    # Not changed while it was read: the same names and bytes as the key was made of (compared, not hashed again).
    if _directory_files(directory) == files:
        _LOADED[key] = (schemas, _own_copy(run, directory))
        while len(_LOADED) > LOADED_KEPT:
            _LOADED.popitem(last=False)
    return run


def _own_copy(run: Run, directory: Path) -> Run:
    """`run` read from `directory`, with a manifest and a table mapping of its own, as a load of its own gives
    (the tables themselves are immutable): what one caller changes, no other caller sees."""
    return replace(run, directory=directory, manifest=copy.deepcopy(run.manifest), frames=dict(run.frames))


def _load_run(directory: Path, schemas: Schemas) -> Run:
    raw = read_run(directory, schemas)
    frames = {name: typed(table, schemas.table(name, table.path)) for name, table in raw.tables.items()}
    check_measured(raw, frames, schemas)
    consistency.check(directory / MANIFEST, raw.manifest, frames, schemas)
    return Run(
        run_id=raw.manifest["run_id"],
        directory=directory,
        manifest=raw.manifest,
        frames=frames,
        source_version=raw.source_version,
    )


def run_directories(runs_dir: Path) -> list[Path]:
    """Every run directory, oldest first (run ids sort by time); hidden ones are work in progress."""
    if not runs_dir.is_dir():
        return []
    return sorted(p for p in runs_dir.iterdir() if p.is_dir() and not p.name.startswith("."))


def load_runs(runs_dir: Path, schemas: Schemas) -> list[Run]:
    """Every run, oldest first."""
    return [load_run(directory, schemas) for directory in run_directories(runs_dir)]
