"""data/schema/: each experiment's CSV files as Frictionless resources, checked before any run is read."""

import json
import shutil

import pytest

from phpcb.data.schema import load_schemas
from phpcb.errors import SchemaError

from .conftest import ROOT

SCHEMA_DIR = ROOT / "data" / "schema"


def schema_copy(tmp_path):
    return shutil.copytree(SCHEMA_DIR, tmp_path / "schema")


def edit(path, change):
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def test_every_table_has_a_primary_key_of_its_fields_and_a_case_key_without_the_sample():
    schemas = load_schemas(SCHEMA_DIR)
    assert (
        schemas.version
        == json.loads((SCHEMA_DIR / "manifest.schema.json").read_text())["properties"]["schema_version"]["const"]
    )
    for table in schemas.tables.values():
        assert set(table.primary_key) <= set(table.columns), table.name
        assert "sample" not in table.key
        if "sample" in table.columns:
            assert table.primary_key == (*table.key, "sample"), table.name


def test_measured_tables_name_their_time_column():
    tables = load_schemas(SCHEMA_DIR).tables
    assert tables["aead.csv"].measure.time == "elapsed_ns"
    assert tables["aead.csv"].measure.iterations == "iterations"
    assert tables["argon2.csv"].measure.time == "wall_ns"
    assert tables["argon2.csv"].measure.iterations is None
    assert tables["cipher_inventory.csv"].measure is None


def test_the_descriptor_round_trips_to_the_schema_file():
    schemas = load_schemas(SCHEMA_DIR)
    declared = json.loads((SCHEMA_DIR / "tables" / "aead.json").read_text())["resources"][0]
    produced = schemas.tables["aead.csv"].descriptor()
    assert produced["schema"] == declared["schema"]
    assert produced["path"] == declared["path"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["resources"][0]["schema"]["fields"][0]["constraints"].update(unique=True),
            "Additional properties",
        ),
        (lambda d: d["resources"][0]["schema"]["fields"][0].update(type="date"), "'date' is not one of"),
        (lambda d: d["resources"][0]["schema"].update(primaryKey=["nope"]), "['nope'] named as key, measure or need"),
        # A rule on a column the table does not have would match no row: refused, not silently off.
        (
            lambda d: d["resources"][0].update(needs=[{"where": {"engin": "x"}, "field": "libraries.x", "what": "x"}]),
            "['engin'] named as key, measure or need",
        ),
        (lambda d: d.update(experiment="other"), "expected experiment 'aead' (the file name)"),
        (
            lambda d: d["resources"][0]["schema"]["fields"][1]["constraints"].update(pattern="[a-"),
            "pattern is not a valid regular expression",
        ),
        # A field that may be empty needs the empty text declared as missing, and only then.
        (lambda d: d["resources"][0]["schema"].update(missingValues=[]), "[''] was expected"),
        (lambda d: d["resources"][1]["schema"].update(missingValues=[""]), "[] was expected"),
    ],
)
def test_a_malformed_schema_file_is_refused_naming_it(tmp_path, change, message):
    schema_dir = schema_copy(tmp_path)
    edit(schema_dir / "tables" / "aead.json", change)
    with pytest.raises(SchemaError, match=r"aead\.json") as caught:
        load_schemas(schema_dir)
    assert message in str(caught.value)


def test_two_experiments_cannot_declare_one_file(tmp_path):
    schema_dir = schema_copy(tmp_path)
    shutil.copy(schema_dir / "tables" / "aead.json", schema_dir / "tables" / "copy.json")
    edit(schema_dir / "tables" / "copy.json", lambda d: d.update(experiment="copy"))
    with pytest.raises(SchemaError, match=r"aead\.csv is already declared by experiment aead"):
        load_schemas(schema_dir)


def test_every_native_rounds_table_refers_to_the_one_shared_schema():
    """Issue 39: the native table's columns were copied into five schema files with nothing holding them
    together. They are declared once (data/schema/shared/native-rounds.json) and each experiment refers to it."""
    json_files = sorted((SCHEMA_DIR / "tables").glob("*.json"))
    native = [
        (path.name, resource)
        for path in json_files
        for resource in json.loads(path.read_text())["resources"]
        if resource["path"].endswith("_native.csv")
    ]
    assert len(native) >= 5, json_files
    assert {name: resource["schema"] for name, resource in native} == {
        name: "shared/native-rounds.json" for name, _ in native
    }
    schemas = load_schemas(SCHEMA_DIR)
    columns = {schemas.tables[resource["path"]].columns for _, resource in native}
    assert len(columns) == 1, "one list of columns, read for every experiment"


def test_a_shared_schema_outside_shared_is_refused(tmp_path):
    schema = schema_copy(tmp_path)
    path = schema / "tables" / "jwt.json"
    document = json.loads(path.read_text())
    native = next(r for r in document["resources"] if r["path"] == "jwt_native.csv")
    native["schema"] = "../manifest.schema.json"
    path.write_text(json.dumps(document))
    with pytest.raises(
        SchemaError, match=r"jwt_native.csv: expected a shared schema shared/<name>.json, got '../manifest.schema.json'"
    ):
        load_schemas(schema)
