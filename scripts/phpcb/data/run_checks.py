"""The checks a run added or rewritten by a pull request (or collected, or re-sealed) passes beyond the
loader's: a committed run was reviewed once; a new one is someone's word until its manifest is shown
to agree with its own files.

- It is sealed: a run of a schema version before 6 carries no seal, and is upgraded on disk first
  (`make upgrade-runs`), which seals it and records the upgrade in `seal.resealed`.
- Its directory holds the files its manifest lists and nothing else (run_files.py has already
  refused anything but regular, visible files before a byte was read).
- Case counts against rows: each experiment's `sampling.cases` is the number of cases its measured
  tables hold (a cut file loses cases, and a cut file re-sealed still does).
- Profile against the sampling parameters: a quick run cannot say `profile: full`, since its
  precision target and minimum samples are the quick profile's (PROFILE_SAMPLING, as the runner's
  Profile.php and CellSampling.php set them; a test reads them there).
- Machine name against the identity and the CPU fields: the identity agrees with what the run recorded
  (vendor, family/model/stepping, cores, features, virtual: an inferred identity with what it recorded of
  those), and the name is the one the identity gives (machines.py); the run id is the start minute, the
  name, the PHP minor and the stack (runners/src/Run/RunId.php). A run upgraded on disk from before
  version 9 keeps the id its runner gave it, named the old way: its middle part is not checked.
- Stack against the PHP and OpenSSL fields: stack.php is php.version, stack.openssl the version in
  libraries.openssl_library, stack.openssl_cli the library of every `openssl speed` line recorded
  (runs upgraded from version 7 record neither library: null, not checked).
- Stack name against what that stack contains: a run named after a stack other than the host's ran the
  PHP and loaded the OpenSSL library its declaration (scripts/stacks/<name>.env, data/stacks.py) gives, in
  its OS release; a name no file declares is refused. The `host` stack is whatever the host has.

`check_not_a_copy` needs the other runs, so its callers give them (the preview, the trusted comment and
collect-runs: every run that would sit beside it under data/runs/): a run whose measured files (every
timing sample it took) are each byte for byte a file of one other run repeats that run under another
id. Two measurements never give the same samples; tables without timings (a cipher inventory, a curve
list) are the same from run to run, and do not count.

Each failure is one DataError naming the manifest (or the file at fault) and what disagrees.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from phpcb.data import machines, run_files, seal, stacks
from phpcb.data.loader import MANIFEST, Run
from phpcb.data.schema import Schemas
from phpcb.errors import DataError

# (precision target, minimum samples) an experiment's `sampling` may record under each profile: the
# Sampler's (Profile.php: quick ±3 % from 7 samples, full ±1 % from 20) and the Argon2 cells' (±3 %
# from 6 in both profiles, CellSampling.php). tests/test_run_checks.py reads both PHP files.
PROFILE_SAMPLING: dict[str, frozenset[tuple[float, int]]] = {
    "quick": frozenset({(0.03, 7), (0.03, 6)}),
    "full": frozenset({(0.01, 20), (0.03, 6)}),
}
HOST_STACK = "host"
# A row whose `status` is not ok is a case the runner refused or could not measure (an Argon2 cell
# over the memory limit): it is in the table, but not among the cases sampled.
MEASURED_STATUS = "ok"
_VERSION = re.compile(r"\b(\d+\.\d+\.\d+[a-z]?)\b")
_CLI_LIBRARY = re.compile(r"\(Library: ([^)]+)\)")
_UPGRADED_FROM = re.compile(r"^upgraded on disk from schema version (\d+) ")


def version_number(text: str | None) -> str | None:
    """ "OpenSSL 3.5.9 29 Sep 2026" → "3.5.9", as the runner's Stack::versionNumber."""
    found = _VERSION.search(text or "")
    return found.group(1) if found else None


def cli_library(line: str) -> str | None:
    """The library an `openssl version` line names, as Stack::cliLibrary."""
    found = _CLI_LIBRARY.search(line)
    return version_number(found.group(1) if found else line)


def run_id_stamp(started_utc: str) -> str:
    """2026-11-26T17:00:04Z → 20261126T1700Z, the run id's first part (RunId.php)."""
    return f"{started_utc[0:4]}{started_utc[5:7]}{started_utc[8:10]}T{started_utc[11:13]}{started_utc[14:16]}Z"


def upgraded_from(manifest: Mapping[str, Any]) -> int | None:
    """The oldest schema version the run was upgraded on disk from, as `seal.resealed` records it."""
    versions = [
        int(found.group(1))
        for entry in (manifest.get("seal") or {}).get("resealed", [])
        if isinstance(entry, dict) and (found := _UPGRADED_FROM.match(str(entry.get("reason", ""))))
    ]
    return min(versions, default=None)


def expected_run_id(manifest: Mapping[str, Any]) -> str:
    """The id the runner gives a run with this manifest (RunId.php)."""
    return _run_id(manifest, str(manifest["machine"]["name"]))


def _run_id(manifest: Mapping[str, Any], name: str) -> str:
    major_minor = ".".join(str(manifest["php"]["version"]).split(".")[:2])
    stack = str(manifest["stack"]["name"])
    suffix = "" if stack == HOST_STACK else f"-{stack}"
    return f"{run_id_stamp(str(manifest['started_utc']))}-{name}-php{major_minor}{suffix}"


def _check_seal(run: Run, path: Path) -> None:
    if not run.sealed or not isinstance(run.manifest.get("seal"), dict):
        raise DataError(
            path,
            f"not sealed (schema version {run.source_version}): a run a pull request adds must be sealed; "
            f"upgrade it on disk with make upgrade-runs (python -m phpcb upgrade {run.directory}), which "
            "seals it and records the upgrade, and commit that",
        )


def _renamed_before_identity(manifest: Mapping[str, Any]) -> bool:
    """Upgraded on disk from a version whose runner named the machine another way (its id keeps that name)."""
    old = upgraded_from(manifest)
    return old is not None and old < machines.NAMED_BY_IDENTITY_FROM


def _check_identity(manifest: Mapping[str, Any], path: Path) -> None:
    machine = machines.Machine.of(manifest)
    own = machines.recorded_identity(manifest)
    stored = machine.identity
    compared = ("vendor", "cores", "features", "virtual")
    if stored.source == machines.RECORDED:
        compared += ("family", "model", "stepping", "microarchitecture", "line")
    elif stored.source == machines.UNKNOWN:
        compared += ("family", "model", "stepping", "line")
    elif own.known:
        raise DataError(path, "machine.identity_source is 'inferred', but the run records its CPU family and model")
    for field in compared:
        if getattr(stored, field) != getattr(own, field):
            raise DataError(
                path,
                f"machine.identity.{field} {getattr(stored, field)!r} disagrees with what the run recorded of its "
                f"CPU ({getattr(own, field)!r}): it is read from cpu and machine.virtual, not written by hand",
            )
    if stored.source == machines.RECORDED and not own.known:
        raise DataError(path, "machine.identity_source is 'recorded', but the run records no CPU family and model")
    expected = machines.derived_name(manifest, stored)
    if machine.name != expected:
        raise DataError(
            path,
            f"machine.name {machine.name!r} is not the name its identity gives, {expected!r} ({stored.canonical()})",
        )


def _check_machine(manifest: Mapping[str, Any], path: Path, run_id: str) -> None:
    _check_identity(manifest, path)
    if _renamed_before_identity(manifest):
        stamp, tail = _run_id(manifest, "\0").split("\0")
        if re.fullmatch(re.escape(stamp) + r"[a-z0-9]+(?:-[a-z0-9]+)*" + re.escape(tail), run_id) is None:
            raise DataError(
                path,
                f"run_id {run_id!r} disagrees with the manifest's start time, PHP and stack, which make "
                f"{_run_id(manifest, '<machine>')!r}",
            )
        return
    expected = expected_run_id(manifest)
    if run_id != expected:
        raise DataError(
            path,
            f"run_id {run_id!r} disagrees with the manifest's start time, machine, PHP and stack, which make "
            f"{expected!r}",
        )


def _check_stack(run: Run, path: Path) -> None:
    manifest = run.manifest
    stack, php = manifest["stack"], str(manifest["php"]["version"])
    if stack["php"] != php:
        raise DataError(path, f"stack.php {stack['php']!r} is not php.version {php!r}")
    libraries = manifest["libraries"]
    if stack["openssl"] is not None:
        loaded = version_number(libraries.get("openssl_library"))
        if stack["openssl"] != loaded:
            raise DataError(
                path,
                f"stack.openssl {stack['openssl']!r} is not the library PHP loaded, libraries.openssl_library "
                f"{libraries.get('openssl_library')!r}",
            )
    if stack["openssl_cli"] is None:
        return
    for name, table in run.frames.items():
        if "tool_version" not in table.column_names or table.num_rows == 0:
            continue
        for line in pc.unique(table.column("tool_version").cast(pa.string())).to_pylist():
            if line and str(line).startswith("OpenSSL") and cli_library(str(line)) != stack["openssl_cli"]:
                raise DataError(
                    run.directory / name,
                    f"tool_version {line!r} is not the openssl command the manifest records "
                    f"(stack.openssl_cli {stack['openssl_cli']!r})",
                )


def _check_stack_definition(manifest: Mapping[str, Any], path: Path, declared: Mapping[str, stacks.Definition]) -> None:
    name = str(manifest["stack"]["name"])
    if name == HOST_STACK:
        return
    definition = declared.get(name)
    if definition is None:
        known = ", ".join(sorted(declared)) or "none"
        raise DataError(
            path,
            f"stack.name {name!r}: no stack of that name is declared (scripts/stacks/{name}{stacks.DEFINITION_SUFFIX}; "
            f"declared: {known}; {HOST_STACK!r} is the host's own PHP)",
        )
    wrong = definition.disagreements(stacks.stack_of(dict(manifest)))
    if wrong:
        raise DataError(
            path,
            f"stack.name {name!r} is {definition.description} (scripts/stacks/{definition.path.name}), but the run "
            f"records {', '.join(wrong)}: a run names the stack it ran in",
        )


def measured_cases(table: pa.Table, key: tuple[str, ...]) -> int:
    """How many cases a measured table holds: distinct values of its case key among measured rows."""
    if "status" in table.column_names:
        table = table.filter(pc.equal(table.column("status").cast(pa.string()), MEASURED_STATUS))
    if table.num_rows == 0:
        return 0
    return table.group_by(list(key)).aggregate([]).num_rows


def _check_sampling(run: Run, schemas: Schemas, path: Path) -> None:
    manifest = run.manifest
    profile = str(manifest["profile"])
    allowed = PROFILE_SAMPLING.get(profile, frozenset())
    old = upgraded_from(manifest)
    for name, entry in manifest["experiments"].items():
        sampling = entry.get("sampling")
        if entry["status"] not in ("ok", "partial"):
            continue
        if sampling is None:
            if old is not None:
                continue  # upgraded on disk: written before version 5 recorded it (upgrade.RecordPrecision)
            raise DataError(
                path, f"experiments.{name}.sampling is null: a run the runner wrote under version 6 or later records it"
            )
        pair = (float(sampling["target"]), int(sampling["minimum_samples"]))
        if pair not in allowed:
            raise DataError(
                path,
                f"experiments.{name}.sampling: target ±{pair[0]:.0%} from {pair[1]} samples is not how the "
                f"{profile!r} profile samples ({', '.join(f'±{t:.0%} from {n}' for t, n in sorted(allowed))})",
            )
        measured = [f for f in entry["files"] if schemas.tables[f].measure is not None]
        counted = sum(measured_cases(run.frames[f], schemas.tables[f].key) for f in measured)
        if counted != sampling["cases"] or sampling["within_target"] > sampling["cases"]:
            raise DataError(
                run.directory / measured[0] if measured else path,
                f"experiments.{name}: {', '.join(measured)} hold {counted:,} case(s), but its sampling records "
                f"{sampling['cases']:,} (a file cut or rows removed; restore it from git)",
            )


def check_added(run: Run, schemas: Schemas, declared: Mapping[str, stacks.Definition] | None = None) -> None:
    """Every check above, on a run as loaded (the loader's own checks passed: schema, seal, rows).
    `declared`: the stacks a run may name (default: scripts/stacks/, stacks.definitions())."""
    path = run.directory / MANIFEST
    _check_seal(run, path)
    if run.source_version < schemas.version:
        raise DataError(
            path,
            f"schema version {run.source_version}: a run a pull request adds is of the current version "
            f"({schemas.version}); upgrade it on disk alone with make upgrade-runs RUN={run.directory} and commit that",
        )
    names = run_files.check_directory(run.directory)
    extra = run_files.unlisted(names, seal.listed_files(run.manifest))
    if extra:
        raise DataError(run.directory / extra[0], "not a file of the run: its manifest lists no such file")
    _check_machine(run.manifest, path, run.run_id)
    _check_stack(run, path)
    _check_stack_definition(run.manifest, path, stacks.definitions() if declared is None else declared)
    _check_sampling(run, schemas, path)


def sealed_files(manifest: Mapping[str, Any]) -> dict[str, str]:
    """Each file a manifest's seal lists, and its SHA-256 ({} for a run without a seal)."""
    entries = (manifest.get("seal") or {}).get("files") if isinstance(manifest.get("seal"), dict) else None
    if not isinstance(entries, dict):
        return {}
    return {
        str(name): str(entry["sha256"])
        for name, entry in entries.items()
        if isinstance(entry, dict) and isinstance(entry.get("sha256"), str)
    }


def measured_files(run: Run, schemas: Schemas) -> dict[str, str]:
    """The SHA-256 of each of the run's files that holds timing samples (a table with a measure, and a
    measured row in it), by hash."""
    found = {}
    for name, sha256 in sealed_files(run.manifest).items():
        declared = schemas.tables.get(name)
        table = run.frames.get(name)
        if declared is None or declared.measure is None or table is None:
            continue
        if measured_cases(table, declared.key) > 0:
            found[sha256] = name
    return found


# Keyed by a manifest's bytes, which are immutable: the same bytes always give the same files. Checking
# every run against every other (the tests of the committed runs, collect-runs) parsed each manifest once
# per run it was held against. The mapping is only read (check_not_a_copy), never handed on.
@functools.lru_cache(maxsize=256)
def _sealed_by_hash(manifest_bytes: bytes) -> Mapping[str, str]:
    """The files a manifest's seal lists, by SHA-256 ({} for a manifest that is no object); a manifest that
    is not UTF-8 or not JSON raises as read_text and json.loads do."""
    # Universal newlines, as read_text reads the file: a JSON document parses the same either way.
    manifest = json.loads(manifest_bytes.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n"))
    return {sha256: name for name, sha256 in sealed_files(manifest).items()} if isinstance(manifest, dict) else {}


def check_not_a_copy(run: Run, schemas: Schemas, others: Iterable[Path]) -> None:
    """The run is not a copy of another: `others` are run directories (the run's own is skipped); a
    manifest that cannot be read is left to the loader, which refuses it with its own line."""
    own = measured_files(run, schemas)
    if not own:
        return
    for directory in others:
        if directory.name == run.run_id:
            continue
        try:
            theirs = _sealed_by_hash((directory / MANIFEST).read_bytes())
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if own.keys() <= theirs.keys():
            first = min(own, key=lambda sha256: own[sha256])
            raise DataError(
                run.directory / MANIFEST,
                f"run {run.run_id} is a copy of run {directory.name} under another id: its {len(own)} file(s) of "
                f"timings are byte for byte {directory.name}'s ({own[first]}: SHA-256 {first[:12]}…), and two "
                "measurements never give the same samples",
            )
