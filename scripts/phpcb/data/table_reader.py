"""One CSV file of a run, read with pyarrow into a typed Arrow table.

Every value is read as text first, then each declared type and constraint is checked as one
vectorised pyarrow compute call per column: no Python code runs per row unless a file is bad, and
then only to name the first bad row. Errors read like jsonschema's ("0 is less than the minimum
of 1") and name the file, the row (the file line; the header is row 1) and the column.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from pyarrow import csv as pa_csv

from phpcb.data.schema import Field, TableSchema
from phpcb.errors import DataError

_INTEGER_TEXT = r"^-?[0-9]+$"
_NUMBER_TEXT = r"^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"
_ARROW_TYPES = {"string": pa.string(), "integer": pa.int64(), "number": pa.float64(), "boolean": pa.bool_()}
_ARROW_ROW = re.compile(r"column #(\d+): Row #(\d+)")
# A constraint: its violations' mask over some of a column's values, and the message for a row's value.
_Check = tuple[Callable[[Any], Any], Callable[[int], str]]


@dataclass(frozen=True)
class RawTable:
    """A CSV read as text, before any type is applied; what upgraders of old runs rewrite."""

    path: Path
    table: pa.Table
    # The first row with the wrong number of fields: (file line, fields found, fields its header has).
    # Rows after it are dropped.
    broken_row: tuple[int, int, int] | None = None
    # The bytes parsed, when given (sealed runs): an error's file line is found in them, not in the file.
    data: bytes | None = dataclasses.field(default=None, repr=False, compare=False)


@dataclass(frozen=True, order=True)
class _Violation:
    index: int  # 0-based data row
    position: int  # column position: of two bad values in one row, the first column is named
    rank: int  # within a value: its type first, then its constraints in the order they are checked
    column: str
    message: str


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise DataError(path, "file missing: the manifest lists it") from None


def read_header(path: Path, data: bytes | None = None) -> list[str]:
    try:
        first_line = _first_line(path if data is None else data)
        header = next(csv.reader([first_line.decode("utf-8")], strict=True), None) if first_line else None
    except FileNotFoundError:
        raise DataError(path, "file missing: the manifest lists it") from None
    except UnicodeDecodeError:
        raise DataError(path, "not UTF-8", 1) from None
    except csv.Error as error:
        raise DataError(path, f"malformed CSV: {error}", 1) from None
    if header is None:
        raise DataError(path, "empty file: expected a header row", 1)
    return header


def _first_line(source: Path | bytes) -> bytes:
    if isinstance(source, bytes):
        end = source.find(b"\n")
        return source if end < 0 else source[: end + 1]
    with source.open("rb") as handle:
        return handle.readline()


def read_raw(path: Path, columns: tuple[str, ...], data: bytes | None = None) -> RawTable:
    """The file's rows as text, after checking that its header is exactly `columns`. Given `data` (the
    file's bytes as a seal checked them), those are parsed, and the file is not opened again."""
    header = read_header(path, data)
    if tuple(header) != columns:
        raise DataError(path, f"expected header {list(columns)}, got {header}", 1)
    broken: list[tuple[int, int, int]] = []

    def skip_broken(row: Any) -> str:
        if not broken:
            broken.append((int(row.number) if row.number is not None else 0, int(row.actual_columns), len(columns)))
        return "skip"

    try:
        table = pa_csv.read_csv(
            path if data is None else pa.BufferReader(data),
            read_options=pa_csv.ReadOptions(column_names=list(columns), skip_rows=1, use_threads=False),
            parse_options=pa_csv.ParseOptions(newlines_in_values=True, invalid_row_handler=skip_broken),
            convert_options=pa_csv.ConvertOptions(
                column_types=dict.fromkeys(columns, pa.string()),
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except pa.ArrowInvalid as error:
        raise _arrow_error(path, columns, str(error)) from None
    return RawTable(path, table, broken[0] if broken else None, data)


def _arrow_error(path: Path, columns: tuple[str, ...], message: str) -> DataError:
    where = _ARROW_ROW.search(message)
    column = columns[int(where.group(1))] if where and int(where.group(1)) < len(columns) else None
    row = int(where.group(2)) if where else None
    if "invalid UTF8" in message:
        return DataError(path, "not UTF-8", row, column)
    return DataError(path, f"malformed CSV: {message}", row, column)


def _first(mask: pa.ChunkedArray | pa.Array) -> int:
    """Index of the first true value, or -1; null counts as false."""
    chunks = mask.chunks if isinstance(mask, pa.ChunkedArray) else [mask]
    # Most masks are all false (a good file): their count of true values says so without a search.
    if not any(chunk.true_count for chunk in chunks):
        return -1
    return int(pc.index(pc.fill_null(mask, False), True).as_py())


def _canonical_integers(text: pa.ChunkedArray) -> pa.ChunkedArray | None:
    """The column as integers when every value is written as Python and Arrow write one (no sign but a
    minus, no leading zero): a cast and a cast back say so, more cheaply than the pattern, which every
    such text matches. None for any other column, which the pattern then checks value by value."""
    try:
        values = pc.cast(text, pa.int64())
    except pa.ArrowInvalid:
        return None
    return values if pc.cast(values, pa.string()).equals(text) else None


_CHECKS: tuple[tuple[str, Callable[[Any, Any], Any], str], ...] = (
    ("minimum", pc.less, "{value!r} is less than the minimum of {limit!r}"),
    ("maximum", pc.greater, "{value!r} is greater than the maximum of {limit!r}"),
    ("exclusiveMinimum", pc.less_equal, "{value!r} is less than or equal to the minimum of {limit!r}"),
    ("exclusiveMaximum", pc.greater_equal, "{value!r} is greater than or equal to the maximum of {limit!r}"),
)


class _Column:
    """One field's text, its typed values (null where the text is not of the type), and its first violation."""

    def __init__(self, field: Field, position: int, text: pa.ChunkedArray, missing_values: list[str]) -> None:
        self.field = field
        self.position = position
        self.violations: list[_Violation] = []
        self.text = text
        if missing_values:
            # Frictionless: a text listed in missingValues is a missing value, which a required field may not have.
            missing = pc.is_in(text, value_set=pa.array(missing_values, pa.string()))
            if field.required:
                self._violation(missing, lambda i: f"a value is required, got {self.text[i].as_py()!r}")
            else:
                self.text = pc.if_else(missing, pa.scalar(None, pa.string()), text)
        self.values = self._typed()
        self._check_constraints()

    def _violation(self, mask: Any, message: Callable[[int], str]) -> None:
        if not self.field.required:
            mask = pc.and_(mask, pc.is_valid(self.text))
        index = _first(mask)
        if index >= 0:
            rank = len(self.violations)
            self.violations.append(_Violation(index, self.position, rank, self.field.name, message(index)))

    def _typed(self) -> pa.ChunkedArray:
        kind = self.field.type
        if kind == "string":
            return self.text
        if kind == "boolean":
            valid = pc.is_in(self.text, value_set=pa.array([*self.field.true_values, *self.field.false_values]))
            self._violation(pc.invert(valid), lambda i: f"expected true or false, got {self.text[i].as_py()!r}")
            true = pc.is_in(self.text, value_set=pa.array(list(self.field.true_values)))
            return pc.if_else(valid, true, pa.scalar(None, pa.bool_()))
        if kind == "integer" and (integers := _canonical_integers(self.text)) is not None:
            return integers
        valid = pc.match_substring_regex(self.text, _INTEGER_TEXT if kind == "integer" else _NUMBER_TEXT)
        self._violation(pc.invert(valid), lambda i: f"expected {kind}, got {self.text[i].as_py()!r}")
        castable = pc.if_else(valid, self.text, pa.scalar(None, pa.string()))
        try:
            return pc.cast(castable, _ARROW_TYPES[kind])
        except pa.ArrowInvalid:
            # Digits that overflow a 64-bit integer: rare enough to find one by one.
            for index, text in enumerate(castable.to_pylist()):
                if text is not None and not -(2**63) <= int(text) < 2**63:
                    message = f"{text} is out of range"
                    self.violations.append(
                        _Violation(index, self.position, len(self.violations), self.field.name, message)
                    )
                    break
            return pa.chunked_array([pa.nulls(len(castable), _ARROW_TYPES[kind])])

    def _value(self, index: int) -> Any:
        return self.values[index].as_py()

    def _check_constraints(self) -> None:
        checks = self._constraint_checks()
        if self.field.type == "string" and checks and not _any_violated(checks, pc.unique(self.values).drop_null()):
            return
        for violated, message in checks:
            self._violation(violated(self.values), message)

    def _constraint_checks(self) -> list[_Check]:
        """The field's constraints, in the order they are checked."""
        constraints = self.field.constraints
        checks: list[_Check] = []
        if "enum" in constraints:
            allowed = pa.array(constraints["enum"], type=self.values.type)
            checks.append(
                (
                    lambda values: pc.invert(pc.is_in(values, value_set=allowed)),
                    lambda i: f"{self._value(i)!r} is not one of {constraints['enum']!r}",
                )
            )
        if (pattern := self.field.full_pattern) is not None:
            checks.append(
                (
                    lambda values: pc.invert(pc.match_substring_regex(values, pattern)),
                    lambda i: f"{self._value(i)!r} does not match {constraints['pattern']!r}",
                )
            )
        if "minLength" in constraints:
            checks.append(
                (
                    lambda values: pc.less(pc.utf8_length(values), constraints["minLength"]),
                    lambda i: f"{self._value(i)!r} is too short",
                )
            )
        if "maxLength" in constraints:
            checks.append(
                (
                    lambda values: pc.greater(pc.utf8_length(values), constraints["maxLength"]),
                    lambda i: f"{self._value(i)!r} is too long",
                )
            )
        for name, compare, text in _CHECKS:
            if name in constraints:
                limit = constraints[name]
                checks.append(
                    (
                        lambda values, limit=limit, compare=compare: compare(values, limit),
                        lambda i, limit=limit, text=text: text.format(value=self._value(i), limit=limit),
                    )
                )
        return checks


def _any_violated(checks: list[_Check], distinct: pa.Array) -> bool:
    """Whether a value among `distinct` (a column's distinct values) breaks a constraint. A string column
    holds a few names many times over: its distinct values are checked in place of its rows, and the rows
    only when one breaks a constraint, to find the first. A null breaks none (it is a missing value)."""
    return any(_first(violated(distinct)) >= 0 for violated, _ in checks)


def _first_duplicate(table: pa.Table, key: tuple[str, ...], limit: int) -> int | None:
    """The first row (before `limit`) whose key an earlier row already has."""
    if table.group_by(list(key), use_threads=False).aggregate([]).num_rows == table.num_rows:
        return None  # as many keys as rows: none twice
    seen: set[tuple[Any, ...]] = set()
    for index, identity in enumerate(zip(*(table[column].to_pylist() for column in key), strict=True)):
        if index >= limit:
            return None
        if identity in seen:
            return index
        seen.add(identity)
    return None


def file_line(path: Path, index: int, data: bytes | None = None) -> int:
    """The file line on which data row `index` starts (a quoted value may span lines)."""
    if data is not None:
        return _line_of(io.StringIO(data.decode("utf-8"), newline=""), index)
    with path.open(encoding="utf-8", newline="") as handle:
        return _line_of(handle, index)


def _line_of(handle: Iterable[str], index: int) -> int:
    reader = csv.reader(handle)
    next(reader)
    line = reader.line_num + 1
    for _ in range(index):
        next(reader)
        line = reader.line_num + 1
    return line


def typed(raw: RawTable, schema: TableSchema) -> pa.Table:
    """The typed table, or the first violation of the schema as a DataError."""
    path, text = raw.path, raw.table
    columns = [
        _Column(field, position, text[field.name], schema.missing_values)
        for position, field in enumerate(schema.fields)
    ]
    violations = sorted(v for column in columns for v in column.violations)
    first = violations[0] if violations else None
    # Rows after a broken row were dropped by the reader: what follows it cannot be placed in the file.
    limit = raw.broken_row[0] - 2 if raw.broken_row else text.num_rows
    if first is not None and first.index < limit:
        raise DataError(path, first.message, file_line(path, first.index, raw.data), first.column)
    values = pa.table({column.field.name: column.values for column in columns})
    duplicate = _first_duplicate(values, schema.primary_key, limit)
    if duplicate is not None:
        raise DataError(path, "the same case and sample appear twice", file_line(path, duplicate, raw.data))
    if raw.broken_row is not None:
        line, found, expected = raw.broken_row
        raise DataError(path, f"expected {expected} fields, got {found}", line)
    return values


def read_table(path: Path, schema: TableSchema) -> pa.Table:
    """A CSV written under the current schema, typed and checked."""
    return typed(read_raw(path, schema.columns), schema)
