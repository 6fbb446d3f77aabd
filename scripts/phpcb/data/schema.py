"""The data contract, read from data/schema/: the manifest's JSON Schema and, per experiment, its CSV
files as Frictionless tabular data resources (Table Schema v2). PHP reads the same files."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator

from phpcb.data.datafile import read_json
from phpcb.errors import DataError, SchemaError

MANIFEST_SCHEMA = "manifest.schema.json"
TABLES_DIR = "tables"
RESOURCE_SCHEMA = "table-resources.schema.json"
SAMPLE = "sample"
# Version 2 of the standard: exclusiveMinimum and the other constraints used here need it.
DATAPACKAGE_PROFILE = "https://datapackage.org/profiles/2.0/datapackage.json"


@dataclass(frozen=True)
class Field:
    """One column: its Table Schema type and constraints."""

    name: str
    type: str
    constraints: dict[str, Any]
    true_values: tuple[str, ...] = ()
    false_values: tuple[str, ...] = ()
    description: str = ""

    @property
    def required(self) -> bool:
        """Whether every row has a value; a field that is not may be empty (missingValues [""])."""
        return bool(self.constraints.get("required", True))

    @property
    def full_pattern(self) -> str | None:
        """Table Schema patterns match the whole value (XML Schema semantics), so anchor them."""
        pattern = self.constraints.get("pattern")
        return None if pattern is None else f"^(?:{pattern})$"


@dataclass(frozen=True)
class Measure:
    """Where a table keeps its timings: a sample's time, and how many operations it timed."""

    time: str
    iterations: str | None


@dataclass(frozen=True)
class RowNeed:
    """Rows of a table whose columns equal `where` need `field` (dotted: php.extensions.<name> or
    libraries.<name>) of the measuring process's record to be set: its "needs" in the schema."""

    where: tuple[tuple[str, str], ...]
    field: str
    what: str  # what the rows are, for the message


@dataclass(frozen=True)
class TableSchema:
    """One CSV file of a run: its columns in order, their constraints, and what identifies a row."""

    name: str
    experiment: str
    description: str
    fields: tuple[Field, ...]
    primary_key: tuple[str, ...]
    measure: Measure | None
    needs: tuple[RowNeed, ...] = ()

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(field.name for field in self.fields)

    @property
    def missing_values(self) -> list[str]:
        """Frictionless's list of texts read as missing: the empty text where some field may be empty."""
        return [""] if any(not field.required for field in self.fields) else []

    @property
    def key(self) -> tuple[str, ...]:
        """The case key: the primary key without the sample number."""
        return tuple(column for column in self.primary_key if column != SAMPLE)

    def descriptor(self) -> dict[str, Any]:
        """This table as a Frictionless tabular data resource, for tools outside the project."""
        fields = []
        for field in self.fields:
            entry: dict[str, Any] = {"name": field.name}
            if field.description:
                entry["description"] = field.description
            entry["type"] = field.type
            if field.type == "boolean":
                entry.update(trueValues=list(field.true_values), falseValues=list(field.false_values))
            entry["constraints"] = field.constraints
            fields.append(entry)
        return {
            "name": self.name.removesuffix(".csv"),
            "path": self.name,
            "type": "table",
            "format": "csv",
            "mediatype": "text/csv",
            "encoding": "utf-8",
            "description": self.description,
            "schema": {"fields": fields, "missingValues": self.missing_values, "primaryKey": list(self.primary_key)},
        }


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

    def of_experiment(self, experiment: str) -> list[TableSchema]:
        return [table for table in self.tables.values() if table.experiment == experiment]

    def datapackage(self, name: str, title: str, files: list[str]) -> dict[str, Any]:
        """A Frictionless Data Package (v2) describing these CSV files of one run."""
        return {
            "$schema": DATAPACKAGE_PROFILE,
            "name": name,
            "title": title,
            "resources": [self.tables[file_name].descriptor() for file_name in files],
        }

    def validate_manifest(self, path: Path, manifest: Any) -> None:
        error = jsonschema.exceptions.best_match(self.manifest.iter_errors(manifest))
        if error is not None:
            where = "/".join(str(part) for part in error.path) or "(top level)"
            raise DataError(path, f"at {where}: {error.message}")


def _field(path: Path, spec: dict[str, Any]) -> Field:
    field = Field(
        name=spec["name"],
        type=spec["type"],
        constraints=dict(spec["constraints"]),
        true_values=tuple(spec.get("trueValues", ())),
        false_values=tuple(spec.get("falseValues", ())),
        description=spec.get("description", ""),
    )
    if field.full_pattern is not None:
        try:
            re.compile(field.full_pattern)
        except re.error as error:
            raise SchemaError(
                path, f"field {field.name!r}: pattern is not a valid regular expression: {error}"
            ) from None
    return field


def _table(path: Path, experiment: str, spec: dict[str, Any]) -> TableSchema:
    fields = tuple(_field(path, field) for field in spec["schema"]["fields"])
    names = [field.name for field in fields]
    if len(set(names)) != len(names):
        raise SchemaError(path, f"{spec['path']}: a field name appears twice in {names}")
    primary_key = tuple(spec["schema"]["primaryKey"])
    unknown = [column for column in primary_key if column not in names]
    measure = spec.get("measure")
    if measure is not None:
        unknown += [column for column in measure.values() if column not in names]
    # A rule whose column does not exist would match no row: the rule would be off without a word.
    unknown += [column for need in spec.get("needs", []) for column in need["where"] if column not in names]
    if unknown:
        raise SchemaError(
            path, f"{spec['path']}: {unknown} named as key, measure or need but not among the fields {names}"
        )
    return TableSchema(
        name=spec["path"],
        experiment=experiment,
        description=spec.get("description", ""),
        fields=fields,
        primary_key=primary_key,
        measure=None if measure is None else Measure(measure["time"], measure.get("iterations")),
        needs=tuple(
            RowNeed(tuple(need["where"].items()), need["field"], need["what"]) for need in spec.get("needs", [])
        ),
    )


# A resource's "schema" may name a Table Schema several experiments share (Frictionless allows a path):
# data/schema/shared/<name>.json, declared once (the native rounds' columns, say).
SHARED_SCHEMA = re.compile(r"shared/[a-z0-9-]+\.json")


def resolve_shared(path: Path, document: Any) -> Any:
    """The document with every shared schema a resource names read in its place, so that it is checked
    and read as if written there."""
    if not isinstance(document, dict) or not isinstance(document.get("resources"), list):
        return document
    resources = []
    for resource in document["resources"]:
        named = resource.get("schema") if isinstance(resource, dict) else None
        if isinstance(named, str):
            if not SHARED_SCHEMA.fullmatch(named):
                raise SchemaError(
                    path, f"{resource.get('path')}: expected a shared schema shared/<name>.json, got {named!r}"
                )
            shared = read_json(path.parent.parent / named, SchemaError)
            resource = {**resource, "schema": {k: v for k, v in shared.items() if k != "description"}}
        resources.append(resource)
    return {**document, "resources": resources}


def load_tables(tables_dir: Path, resource_schema: Draft202012Validator) -> dict[str, TableSchema]:
    """Every experiment's tables, keyed by file name; two experiments may not declare one file."""
    if not tables_dir.is_dir():
        raise SchemaError(tables_dir, "directory missing: it holds one <experiment>.json per experiment")
    tables: dict[str, TableSchema] = {}
    for path in sorted(tables_dir.glob("*.json")):
        document = resolve_shared(path, read_json(path, SchemaError))
        error = jsonschema.exceptions.best_match(resource_schema.iter_errors(document))
        if error is not None:
            where = "/".join(str(part) for part in error.path) or "(top level)"
            raise SchemaError(path, f"at {where}: {error.message}")
        if document["experiment"] != path.stem:
            raise SchemaError(
                path, f"expected experiment {path.stem!r} (the file name), got {document['experiment']!r}"
            )
        for spec in document["resources"]:
            table = _table(path, document["experiment"], spec)
            if table.name in tables:
                raise SchemaError(
                    path, f"{table.name} is already declared by experiment {tables[table.name].experiment}"
                )
            tables[table.name] = table
    return tables


# Schemas already checked, by the digest of their files: checking a schema against its metaschema is
# most of a small build's loading time, and a build, a test or a preview loads the same files often.
_CHECKED: dict[str, Schemas] = {}


def _digest(schema_dir: Path) -> str | None:
    """The SHA-256 of every schema file's name and bytes; None when one cannot be read (then loading
    names the problem)."""
    digest = hashlib.sha256()
    try:
        for path in [
            schema_dir / MANIFEST_SCHEMA,
            schema_dir / RESOURCE_SCHEMA,
            *sorted((schema_dir / TABLES_DIR).glob("*.json")),
        ]:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return None
    return digest.hexdigest()


def load_schemas(schema_dir: Path) -> Schemas:
    key = _digest(schema_dir)
    if key is not None and key in _CHECKED:
        return _CHECKED[key]
    schemas = _load_schemas(schema_dir)
    if key is not None:
        _CHECKED[key] = schemas
    return schemas


def _load_schemas(schema_dir: Path) -> Schemas:
    manifest_schema = read_json(schema_dir / MANIFEST_SCHEMA, SchemaError)
    Draft202012Validator.check_schema(manifest_schema)
    resource_schema = read_json(schema_dir / RESOURCE_SCHEMA, SchemaError)
    Draft202012Validator.check_schema(resource_schema)
    return Schemas(
        version=int(manifest_schema["properties"]["schema_version"]["const"]),
        manifest=Draft202012Validator(manifest_schema),
        tables=load_tables(schema_dir / TABLES_DIR, Draft202012Validator(resource_schema)),
    )


# The project's own schema: the analyses divide the columns it declares as each table's measure.
PROJECT_SCHEMA = Path(__file__).resolve().parents[3] / "data" / "schema"


def declared_measure(table: str) -> Measure:
    """Where `table` keeps its timings, as data/schema/tables/ declares it (its "measure"): the schema of
    this checkout, the one the analysis code was written with, also for a build of another root's data
    (`--root`); a run is still read and checked by its own root's schema."""
    schemas = load_schemas(PROJECT_SCHEMA)
    declared = schemas.tables.get(table)
    if declared is None or declared.measure is None:
        raise SchemaError(PROJECT_SCHEMA / TABLES_DIR, f"{table}: expected a table that declares a measure")
    return declared.measure
