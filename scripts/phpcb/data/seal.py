"""A run's seal: each file's rows and SHA-256, written by the runner when the run finishes
(runners/src/Run/RunSeal.php) and checked by the build before it reads a file. A committed run
cannot change (scaled, cut, edited) without the build refusing it; a change meant to be made (an
upgrade on disk, a documented correction) is an explicit re-seal, recorded in `seal.resealed`.

From schema version 9 the seal covers the manifest too: `seal.manifest_sha256` is the SHA-256 of
manifest.json's bytes before its last member, the seal itself (runners/src/Run/RunSeal.php). Every field
but the seal (its files' entries, which the files themselves check, and the re-seal history) is covered:
an edited machine, stack, run id or verdict without a re-seal does not build.

Runs written before schema version 6 carry no seal: they are read as they are, and said to be
unsealed, until `make upgrade-runs` re-seals them.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from phpcb.errors import DataError

SEALED_FROM_VERSION = 6
MANIFEST_SEALED_FROM_VERSION = 9
# Where the seal starts in a manifest as the runner (JSON_PRETTY_PRINT) and rewrite.manifest_text write it.
SEAL_MEMBER = b',\n    "seal": '
_CHUNK = 1 << 20
_LONE_CARRIAGE_RETURN = re.compile(r"\r(?!\n)")


def rows(path: Path) -> int:
    """CSV records after the header, as PHP's fgetcsv counts them (a quoted line break stays in its record)."""
    return rows_of(path.read_bytes())


def rows_of(data: bytes) -> int:
    """rows() of a file's bytes. Without quotes, carriage returns or NULs every line is one record, so
    counting line feeds gives what the CSV reader counts; only other files (a quoted value may span
    lines) are parsed for it. PHP reads a line up to its line feed: a carriage return not followed by
    one ends no record there, where Python's reader would end one, so it is read as any other character."""
    if b'"' in data or b"\r" in data or b"\0" in data:
        text = _LONE_CARRIAGE_RETURN.sub(" ", data.decode("utf-8", errors="replace"))
        reader = csv.reader(io.StringIO(text, newline=""))
        return max(0, sum(1 for _ in reader) - 1)
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    return max(0, lines - 1)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def compute(directory: Path, files: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The seal of these files of the run."""
    return {name: {"rows": rows(directory / name), "sha256": sha256(directory / name)} for name in files}


def listed_files(manifest: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(name for entry in manifest["experiments"].values() for name in entry["files"]))


def manifest_digest(text_before_seal: bytes) -> str:
    return hashlib.sha256(text_before_seal).hexdigest()


def digest_of_unsealed(text: str) -> str:
    """The digest a manifest written as `text` without a seal ("{...\n}\n") gets once the seal is added."""
    body = text.rstrip("\n")
    if not body.endswith("\n}"):
        raise ValueError("a manifest's JSON text ends with a line holding only '}'")
    return manifest_digest(body[:-2].encode("utf-8"))


def verify_manifest(manifest: dict[str, Any], manifest_path: Path, text: bytes | None = None) -> None:
    """The manifest's bytes before its seal (`text`, the bytes `manifest` was parsed from, when given),
    against `seal.manifest_sha256`."""
    recorded = (manifest.get("seal") or {}).get("manifest_sha256")
    if recorded is None:
        raise DataError(
            manifest_path,
            f"the seal does not cover the manifest (no seal.manifest_sha256; schema version "
            f"{MANIFEST_SEALED_FROM_VERSION} on records it): re-measure the run, or restore manifest.json from git",
        )
    if text is None:
        text = manifest_path.read_bytes()
    at = text.rfind(SEAL_MEMBER)
    if at < 0 or list(manifest)[-1] != "seal" or manifest_digest(text[:at]) != recorded:
        raise DataError(
            manifest_path,
            "the manifest does not match its seal: a field was edited (or the file rewritten) after the run was "
            "sealed. Restore it from git (git checkout -- FILE); a correction made on purpose is re-sealed with "
            "make seal RUN=<dir> REASON=..., which records why",
        )


def verify(directory: Path, manifest: dict[str, Any], manifest_path: Path) -> dict[str, bytes]:
    """Every file the run lists, and only those, as the seal recorded it; else one line naming the file.
    Returns the bytes checked, by file name: the reader parses exactly these, so a file changed after the
    check is never read."""
    seal = manifest.get("seal")
    if not isinstance(seal, dict):
        raise DataError(
            manifest_path,
            "no seal: a run of schema version 6 or later records each file's rows and SHA-256 when it "
            "finishes; re-measure it, or restore its manifest.json from git",
        )
    sealed: dict[str, dict[str, Any]] = seal["files"]
    listed = listed_files(manifest)
    unsealed = [name for name in listed if name not in sealed]
    if unsealed:
        raise DataError(manifest_path, f"the seal does not cover {unsealed}: every file the run lists must be sealed")
    extra = [name for name in sealed if name not in listed]
    if extra:
        raise DataError(manifest_path, f"the seal names {extra}, which no experiment lists: the manifest was edited")
    contents: dict[str, bytes] = {}
    for name in listed:
        path = directory / name
        data = _sealed_bytes(path)
        found_rows, found_hash = rows_of(data), sha256_of(data)
        expected = sealed[name]
        if found_rows != expected["rows"] or found_hash != expected["sha256"]:
            raise DataError(path, mismatch(path, found_rows, found_hash, expected, data))
        contents[name] = data
    return contents


def _sealed_bytes(path: Path) -> bytes:
    if not path.is_file():
        raise DataError(path, "file missing: the run's seal lists it")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise DataError(path, "file missing: the run's seal lists it") from None


def _crlf(path: Path) -> bool:
    with path.open("rb") as handle:
        return b"\r\n" in handle.read(_CHUNK)


def mismatch(path: Path, found_rows: int, found_hash: str, expected: dict[str, Any], data: bytes | None = None) -> str:
    """Why a file differs from its seal, and what to do: never "re-seal" alone, which would let a cut
    or converted file through (a re-seal checks the rows against the manifest first: rewrite.py)."""
    found = (
        f"does not match the run's seal: {found_rows:,} rows (sealed {expected['rows']:,}), "
        f"SHA-256 {found_hash[:12]}… (sealed {expected['sha256'][:12]}…)"
    )
    if b"\r\n" in data[:_CHUNK] if data is not None else _crlf(path):
        return (
            f"{found}: it has CRLF line endings, which the runner never writes; a checkout converted them "
            "(core.autocrlf). The repository's .gitattributes keeps data/runs/ byte-exact: check the files "
            "out again (rm -r data/runs && git checkout -- data/runs)"
        )
    if found_rows < expected["rows"]:
        return f"{found}: rows are missing (a cut or truncated copy); restore the file from git (git checkout -- FILE)"
    return (
        f"{found}. A committed run does not change: restore the file from git (git checkout -- FILE). A "
        "correction made on purpose is re-sealed with make seal RUN=<dir> REASON=..., which refuses a run "
        "whose rows disagree with its manifest"
    )


def resealed(
    manifest: dict[str, Any],
    directory: Path,
    reason: str,
    now: datetime | None = None,
    text: Callable[[dict[str, Any]], str] | None = None,
) -> dict[str, Any]:
    """The manifest with a fresh seal of the run's files and of itself (`text` writes it as it will be on
    disk: rewrite.manifest_text), and the re-seal recorded (when and why)."""
    if not reason.strip():
        raise DataError(directory, "a re-seal needs a reason (what changed in the run, and why)")
    history = list((manifest.get("seal") or {}).get("resealed", []))
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    history.append({"utc": stamp, "reason": reason.strip()})
    return sealed(manifest, directory, text, history)


def sealed(
    manifest: dict[str, Any],
    directory: Path,
    text: Callable[[dict[str, Any]], str] | None,
    history: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The manifest with a seal of the run's files and (schema 9 on, given how it is written) of itself."""
    unsealed = {key: value for key, value in manifest.items() if key != "seal"}
    fresh: dict[str, Any] = {"files": compute(directory, listed_files(manifest))}
    if text is not None and int(manifest.get("schema_version", 0)) >= MANIFEST_SEALED_FROM_VERSION:
        fresh["manifest_sha256"] = digest_of_unsealed(text(unsealed))
    if history:
        fresh["resealed"] = history
    return {**unsealed, "seal": fresh}
