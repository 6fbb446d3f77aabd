"""data/policy/pitfalls.yaml: each pitfall's two ways, its one-line fix, why, and the pages it concerns."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..datafile import YamlFile
from ..errors import DataError
from ..policy import STATUSES, Reference


@dataclass(frozen=True)
class Way:
    variant: str  # the `variant` column of pitfalls.csv
    code: str  # the way, in PHP


@dataclass(frozen=True)
class PitfallEntry:
    key: str
    title: str
    unit: str
    slow: Way
    fast: Way
    fix: str
    reason: str
    affects: tuple[str, ...]
    status: str
    references: tuple[Reference, ...]


def _way(file: YamlFile, entry: dict[str, object], name: str, where: str) -> Way:
    way = file.mapping(entry, name, where)  # type: ignore[arg-type]
    return Way(file.text(way, "variant", f"{where}/{name}"), file.text(way, "way", f"{where}/{name}"))


def load_pitfalls_policy(path: Path) -> dict[str, PitfallEntry]:
    file = YamlFile.load(path)
    references = {}
    for key, value in file.mapping(file.data, "references", "(top level)").items():
        entry = file.expect_mapping(value, f"references/{key}")
        references[key] = Reference(
            key, file.text(entry, "title", f"references/{key}"), file.text(entry, "url", f"references/{key}")
        )
    found = {}
    for key, value in file.mapping(file.data, "pitfalls", "(top level)").items():
        where = f"pitfalls/{key}"
        entry = file.expect_mapping(value, where)
        status = file.text(entry, "status", where)
        if status not in STATUSES:
            raise DataError(path, f"{where}: expected status in {STATUSES}, got {status!r}")
        keys = file.sequence(entry, "references", where)
        unknown = [k for k in keys if k not in references]
        if unknown:
            raise DataError(path, f"{where}: references {unknown} are not defined under references")
        affects = file.sequence(entry, "affects", where)
        if not all(isinstance(name, str) for name in affects):
            raise DataError(path, f"{where}: expected 'affects' to list experiment names, got {affects!r}")
        found[key] = PitfallEntry(
            key=key,
            title=file.text(entry, "title", where),
            unit=file.text(entry, "unit", where),
            slow=_way(file, entry, "slow", where),
            fast=_way(file, entry, "fast", where),
            fix=file.text(entry, "fix", where),
            reason=file.text(entry, "reason", where),
            affects=tuple(affects),
            status=status,
            references=tuple(references[k] for k in keys),
        )
    return found
