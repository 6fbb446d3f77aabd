"""`python -m phpcb upgrade RUN...`: rewrite runs of older schema versions on disk; `python -m phpcb
seal RUN --reason TEXT`: re-seal a run whose files were changed on purpose.

The loader upgrades old runs in memory on every build; rewriting them makes the published files
match the current schema (and lets the site publish their Data Package descriptor). Either rewrite
is an explicit re-seal: the manifest gets a fresh seal and records when and why (seal.py). A run is
rewritten in a hidden copy beside it and swapped in whole, so a failure leaves the old run as it was.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa

from phpcb.data import machines, run_checks, seal
from phpcb.data.loader import MANIFEST, load_run, read_run
from phpcb.data.schema import Schemas
from phpcb.data.table_reader import read_raw, typed
from phpcb.errors import DataError

# PHP's fputcsv (which the runner uses, with no escape character) encloses a field holding any of these.
_ENCLOSE_IF = (",", '"', "\n", "\r", "\t", " ")


def csv_field(text: str) -> str:
    """One field as the runner's fputcsv writes it, so a rewritten file differs only where it must."""
    if text == "" or not any(character in text for character in _ENCLOSE_IF):
        return text
    return '"' + text.replace('"', '""') + '"'


def csv_text(table: pa.Table) -> str:
    lines = [",".join(csv_field(name) for name in table.column_names)]
    columns = [table[name].to_pylist() for name in table.column_names]
    lines += [",".join(csv_field(value) for value in row) for row in zip(*columns, strict=True)]
    return "\n".join(lines) + "\n"


def manifest_text(manifest: dict[str, Any]) -> str:
    """As the runner writes it: JSON_PRETTY_PRINT (4 spaces), non-ASCII escaped, slashes not."""
    return json.dumps(manifest, indent=4) + "\n"


def upgrade_on_disk(directory: Path, schemas: Schemas, identity: machines.Identity | None = None) -> int | None:
    """Rewrites the run under the current schema; returns the version it had, or None if it was current.
    `identity`: the machine identity inferred for a run that recorded none (machines.infer), instead of
    the unknown one the upgrade gives it alone. The run keeps its id (the name its runner gave it)."""
    raw = read_run(directory, schemas)
    if not raw.steps:
        return None
    if identity is not None:
        raw.manifest["machine"] = machines.machine_fields(raw.manifest, identity)
    for name, table in raw.tables.items():
        typed(table, schemas.table(name, table.path))  # never write a run the build would refuse
    work = directory.parent / f".{directory.name}.upgrading"
    old = directory.parent / f".{directory.name}.old"
    for leftover in (work, old):
        if leftover.exists():
            raise DataError(leftover, "left over from an interrupted upgrade: check it and remove it first")
    shutil.copytree(directory, work)
    try:
        for name, table in raw.tables.items():
            if any(step.changes(name) for step in raw.steps):
                (work / name).write_text(csv_text(table.table), encoding="utf-8")
                again = read_raw(work / name, schemas.tables[name].columns).table
                if not again.equals(table.table):
                    raise DataError(work / name, "the rewritten file does not read back as the upgraded table")
        reason = f"upgraded on disk from schema version {raw.source_version} to {schemas.version}"
        if raw.source_version < machines.NAMED_BY_IDENTITY_FROM:
            machine = machines.Machine.of(raw.manifest)
            reason += f"; machine named by its identity ({machine.identity.source}): {machine.name}"
        fresh = seal.resealed(raw.manifest, work, reason, text=manifest_text)
        (work / MANIFEST).write_text(manifest_text(fresh), encoding="utf-8")
    except BaseException:
        shutil.rmtree(work)
        raise
    directory.rename(old)
    work.rename(directory)
    shutil.rmtree(old)
    return raw.source_version


def reseal_on_disk(directory: Path, schemas: Schemas, reason: str) -> str:
    """A fresh seal of the run's files, recorded with the reason; the run must be of the current version."""
    path = directory / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    if manifest.get("schema_version") != schemas.version:
        raise DataError(
            path,
            f"schema_version {manifest.get('schema_version')!r}: upgrade it first (make upgrade-runs), which seals it",
        )
    fresh = seal.resealed(manifest, directory, reason, text=manifest_text)
    before = path.read_bytes()
    temporary = directory.parent / f".{directory.name}.{MANIFEST}.resealing"  # beside: a run holds no hidden file
    temporary.write_text(manifest_text(fresh), encoding="utf-8")
    temporary.replace(path)
    try:
        # The run as the build will read it, and its rows against its manifest: a cut file re-sealed
        # still lacks the cases its sampling records, so a re-seal cannot let a truncated run through.
        run_checks.check_added(load_run(directory, schemas), schemas)
    except BaseException:
        path.write_bytes(before)
        raise
    return f"{directory}: re-sealed {len(fresh['seal']['files'])} files ({reason})"
