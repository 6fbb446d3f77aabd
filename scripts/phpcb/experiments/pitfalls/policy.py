"""data/policy/pitfalls.yaml: each pitfall's two ways, its fix (a snippet file, and whether it is a fix for
speed or for correctness), why, and the pages it concerns."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from phpcb.data import snippets
from phpcb.data.datafile import YamlFile
from phpcb.data.policy import STATUSES, Reference
from phpcb.errors import DataError

# Why a fix is the fix: `speed` (both ways equally secure; offered where the measured difference is in its
# favour) or `correctness` (recommended whatever the timing says).
FIX_REASONS = ("speed", "correctness")


@dataclass(frozen=True)
class Way:
    variant: str  # the `variant` column of pitfalls.csv
    code: str | None  # the way in PHP, part of the fix's snippet file
    words: str | None  # or, where the way measured is not code to show, what it is

    @property
    def shown(self) -> str:
        return self.code if self.code is not None else str(self.words)


@dataclass(frozen=True)
class Fix:
    snippet: snippets.Snippet  # the file under runners/snippets/ the page shows
    why: str  # one of FIX_REASONS
    because: str | None  # for a correctness fix: what makes it right whatever the timing

    @property
    def for_correctness(self) -> bool:
        return self.why == "correctness"


@dataclass(frozen=True)
class PitfallEntry:
    key: str
    title: str
    unit: str
    slow: Way
    fast: Way
    fix: Fix
    reason: str
    affects: tuple[str, ...]
    status: str
    references: tuple[Reference, ...]
    # The experiment that measures this quantity in a run, when it is not this one: the page then
    # quotes that measurement (one quantity, one number per run), never rows of its own.
    measured_on: str | None = None


def _way(file: YamlFile, entry: dict[str, object], name: str, where: str, fix: snippets.Snippet) -> Way:
    here = f"{where}/{name}"
    way = file.mapping(entry, name, where)  # type: ignore[arg-type]
    variant = file.text(way, "variant", here)
    given = sorted(set(way) & {"way", "words"})
    if len(given) != 1:
        raise DataError(file.path, f"{here}: expected one of 'way' (PHP) or 'words', got {given or 'neither'}")
    if given == ["words"]:
        return Way(variant, None, file.text(way, "words", here))
    code = file.text(way, "way", here)
    if not fix.contains(code):
        raise DataError(
            file.path,
            f"{here}: expected the way, whitespace aside, to be part of {fix.path} (the page shows only PHP the "
            f"tests run), got {code!r}; change the snippet or describe the way under 'words'",
        )
    return Way(variant, code, None)


def _fix(file: YamlFile, entry: dict[str, object], where: str, root: Path) -> Fix:
    here = f"{where}/fix"
    fix = file.mapping(entry, "fix", where)  # type: ignore[arg-type]
    try:
        snippet = snippets.load(root, file.text(fix, "snippet", here))
    except snippets.SnippetError as error:
        raise DataError(file.path, f"{here}: {error}") from error
    why = file.text(fix, "for", here)
    if why not in FIX_REASONS:
        raise DataError(file.path, f"{here}: expected 'for' in {FIX_REASONS}, got {why!r}")
    because = file.text(fix, "because", here) if "because" in fix else None
    if why == "correctness" and because is None:
        raise DataError(file.path, f"{here}: expected 'because' for a fix for correctness: what makes it right")
    return Fix(snippet, why, because)


def load_pitfalls_policy(path: Path, root: Path | None = None) -> dict[str, PitfallEntry]:
    """The pitfalls of `path` (data/policy/pitfalls.yaml), their fixes read from the snippets of the project
    at `root` (by default the project `path` belongs to)."""
    root = path.resolve().parents[2] if root is None else root
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
        fix = _fix(file, entry, where, root)
        found[key] = PitfallEntry(
            key=key,
            title=file.text(entry, "title", where),
            unit=file.text(entry, "unit", where),
            slow=_way(file, entry, "slow", where, fix.snippet),
            fast=_way(file, entry, "fast", where, fix.snippet),
            fix=fix,
            reason=file.text(entry, "reason", where),
            affects=tuple(affects),
            status=status,
            references=tuple(references[k] for k in keys),
            measured_on=file.text(entry, "measured_on", where) if "measured_on" in entry else None,
        )
    return found
