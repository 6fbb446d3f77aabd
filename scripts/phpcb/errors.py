"""The build's error hierarchy: every error it raises on purpose is a BuildError.

The CLI and the MkDocs hook catch BuildError once and print its one-line message;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from pathlib import Path


class BuildError(Exception):
    """Base of every error the build raises on purpose."""


class DataError(BuildError):
    """A data file is malformed: names the file and, where known, the row and column."""

    def __init__(self, path: Path, message: str, row: int | None = None, column: str | None = None) -> None:
        self.path = path
        self.row = row
        self.column = column
        self.detail = message
        where = str(path)
        if row is not None:
            where += f", row {row}"
        if column is not None:
            where += f", column {column!r}"
        super().__init__(f"{where}: {message}")


class SchemaError(DataError):
    """A file under data/schema/ is malformed: the contract itself, not a run, is at fault."""


class SchemaVersionError(DataError):
    """A manifest written under a schema version this build cannot read or upgrade."""


class IncompleteRunError(DataError):
    """A run that was interrupted: its manifest has no finish time."""


class NoDataError(BuildError):
    """Nothing to build from: no run holds the experiment a page needs."""
