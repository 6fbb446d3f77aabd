"""A run's recorded environment against what measured: the build refuses a run whose pages would
show numbers beside an environment that could not have produced them.

Two checks, after a run is loaded and typed:

- Each experiment's `measured_by` (probed in the process that measured: a child PHP, Argon2's
  cell processes) agrees with the run's `php` and `libraries` on everything that changes the
  numbers or what can run (PHP version, opcache, JIT, memory_limit, GC, extensions, library
  versions). Not on OpenSSL's legacy provider: an experiment's declared OPENSSL_CONF changes it on
  purpose. The runner marks such an experiment failed itself; this catches runs it did not write.
- The rows agree with `measured_by`: mcrypt rows need mcrypt loaded, legacy-provider rows the
  legacy provider, measured Argon2 cells the interface they went through. Each table's schema
  declares what its rows need (its "needs", data/schema/tables/); nothing here lists them. Tables are
  checked in the order the experiment's `files` lists them: the first disagreement is the one named.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from phpcb.data.schema import Schemas
from phpcb.errors import DataError

# Fields of `libraries` an experiment's own environment may change (runners/openssl-legacy.cnf).
DECLARED_BY_ENVIRONMENT = frozenset({"libraries.openssl_legacy_provider"})
NOT_COMPARED = frozenset({"php.sapi"}) | DECLARED_BY_ENVIRONMENT


class EnvironmentMismatchError(DataError):
    """A run whose recorded environment disagrees with the process that measured, or with its rows."""


def flatten(environment: Mapping[str, Any]) -> dict[str, Any]:
    """`php` and `libraries` as dotted fields: php.version, php.extensions.mcrypt, libraries.openssl."""
    fields: dict[str, Any] = {}
    for section in ("php", "libraries"):
        values = environment.get(section)
        if not isinstance(values, Mapping):
            continue
        for key, value in values.items():
            if section == "php" and key == "extensions" and isinstance(value, Mapping):
                fields.update({f"php.extensions.{name}": version for name, version in value.items()})
            else:
                fields[f"{section}.{key}"] = value
    return fields


def differences(recorded: Mapping[str, Any], measuring: Mapping[str, Any]) -> list[str]:
    """Where the measuring process differs from the run's record, one 'field: run X, measuring Y' each."""
    run, child = flatten(recorded), flatten(measuring)
    found = []
    for field in sorted(set(run) | set(child)):
        if field in NOT_COMPARED:
            continue
        if run.get(field) != child.get(field):
            found.append(f"{field}: run {_show(run.get(field))}, measuring process {_show(child.get(field))}")
    return found


def _show(value: Any) -> str:
    return "absent" if value is None else repr(value)


def _matching_rows(table: pa.Table, where: tuple[tuple[str, str], ...]) -> int:
    if any(column not in table.column_names for column, _ in where):
        return 0
    mask = None
    for column, value in where:
        condition = pc.equal(table.column(column).cast(pa.string()), value)
        mask = condition if mask is None else pc.and_(mask, condition)
    return int(pc.sum(mask).as_py() or 0) if mask is not None else 0


def check(path: Path, manifest: Mapping[str, Any], frames: Mapping[str, pa.Table], schemas: Schemas) -> None:
    """Raise EnvironmentMismatchError (naming `path`, the manifest) at the first disagreement."""
    for name, entry in manifest["experiments"].items():
        measured_by = entry.get("measured_by")
        if entry["status"] not in ("ok", "partial") or not isinstance(measured_by, Mapping):
            continue
        found = differences(manifest, measured_by)
        if found:
            raise EnvironmentMismatchError(
                path,
                f"experiments.{name}.measured_by (process {measured_by['process']}): the process that measured "
                f"is not the PHP this run records ({'; '.join(found)}); re-run the experiment",
            )
        fields = flatten(measured_by)
        for file in entry["files"]:
            table, declared = frames.get(file), schemas.tables.get(file)
            for need in declared.needs if table is not None and declared is not None else ():
                count = 0 if fields.get(need.field) else _matching_rows(table, need.where)
                if count:
                    raise EnvironmentMismatchError(
                        path,
                        f"experiments.{name}: {file} holds {count} {need.what}, but {need.field} is recorded "
                        f"as {_show(fields.get(need.field))} for the process that measured; re-run the experiment",
                    )
