"""The data contract: manifest and CSV schemas from data/schema/, checked with jsonschema."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator

from .errors import DataError

Cell = str | int | float | bool

_CONVERTERS: dict[str, Any] = {"integer": int, "number": float, "string": str}


@dataclass(frozen=True)
class TableSchema:
    """The declared columns of one CSV and a validator for one typed row."""

    name: str
    columns: tuple[str, ...]
    types: dict[str, str]
    key: tuple[str, ...]
    validator: Draft202012Validator

    def convert(self, path: Path, row_number: int, raw: dict[str, str]) -> dict[str, Cell]:
        typed: dict[str, Cell] = {}
        for column in self.columns:
            text = raw[column]
            kind = self.types[column]
            if kind == "boolean":
                if text not in ("true", "false"):
                    raise DataError(path, f"expected true or false, got {text!r}", row_number, column)
                typed[column] = text == "true"
                continue
            try:
                typed[column] = _CONVERTERS[kind](text)
            except ValueError:
                raise DataError(path, f"expected {kind}, got {text!r}", row_number, column) from None
        return typed

    def validate(self, path: Path, row_number: int, row: dict[str, Cell]) -> None:
        error = jsonschema.exceptions.best_match(self.validator.iter_errors(row))
        if error is not None:
            column = str(error.path[0]) if error.path else None
            raise DataError(path, error.message, row_number, column)


@dataclass(frozen=True)
class Schemas:
    version: int
    manifest: Draft202012Validator
    tables: dict[str, TableSchema]

    def table(self, file_name: str, path: Path) -> TableSchema:
        try:
            return self.tables[file_name]
        except KeyError:
            raise DataError(path, f"no schema declares {file_name!r}; expected one of {sorted(self.tables)}") from None

    def validate_manifest(self, path: Path, manifest: Any) -> None:
        error = jsonschema.exceptions.best_match(self.manifest.iter_errors(manifest))
        if error is not None:
            where = "/".join(str(part) for part in error.path) or "(top level)"
            raise DataError(path, f"at {where}: {error.message}")


def _table_schema(name: str, definition: dict[str, Any]) -> TableSchema:
    properties: dict[str, Any] = {}
    types: dict[str, str] = {}
    for column in definition["columns"]:
        spec = {key: value for key, value in column.items() if key != "name"}
        properties[column["name"]] = spec
        types[column["name"]] = column["type"]
    row_schema = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    Draft202012Validator.check_schema(row_schema)
    return TableSchema(
        name=name,
        columns=tuple(properties),
        types=types,
        key=tuple(definition["key"]),
        validator=Draft202012Validator(row_schema),
    )


def load_schemas(schema_dir: Path) -> Schemas:
    manifest_schema = json.loads((schema_dir / "manifest.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(manifest_schema)
    tables = json.loads((schema_dir / "tables.json").read_text(encoding="utf-8"))
    return Schemas(
        version=int(tables["schema_version"]),
        manifest=Draft202012Validator(manifest_schema),
        tables={name: _table_schema(name, spec) for name, spec in tables["tables"].items()},
    )
