"""One declaration per fact: a table's timing columns are its schema's "measure" (data/schema/tables/),
and the code that divides them reads them from there."""

from __future__ import annotations

import json
import re

import pytest

from phpcb.data.schema import PROJECT_SCHEMA, declared_measure
from phpcb.errors import SchemaError
from phpcb.statistics import rounds

from .conftest import ROOT

# The columns a table's measure declares; the code names them only through declared_measure.
MEASURE_COLUMN = re.compile(r"""["'](elapsed_ns|wall_ns|iterations)["']""")
CODE = ("statistics", "experiments", "presentation", "claims", "compare", "pages")


def test_no_analysis_names_a_measure_column_itself():
    named = [
        f"{path.relative_to(ROOT)}:{number}"
        for layer in CODE
        for path in sorted((ROOT / "scripts" / "phpcb" / layer).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if MEASURE_COLUMN.search(line) and "NATIVE_TIMING = " not in line
    ]
    assert not named, f"measure columns named outside data/schema (use declared_measure): {named}"


def test_the_native_timing_is_the_shared_native_tables_columns():
    """The native rounds declare no measure (they are not an experiment's measurements); their timing
    columns are fields of the one shared schema every native table refers to."""
    shared = json.loads((PROJECT_SCHEMA / "shared" / "native-rounds.json").read_text(encoding="utf-8"))
    fields = {field["name"] for field in shared["fields"]}
    assert {rounds.NATIVE_TIMING.time, rounds.NATIVE_TIMING.iterations} <= fields


def test_the_measure_comes_from_the_schema():
    assert declared_measure("argon2.csv").time == "wall_ns"
    assert declared_measure("argon2.csv").iterations is None, "one hash per row"
    assert (declared_measure("jwt.csv").time, declared_measure("jwt.csv").iterations) == ("elapsed_ns", "iterations")


@pytest.mark.parametrize("table", ["cipher_inventory.csv", "nonesuch.csv"])
def test_a_table_without_a_measure_is_refused_by_name(table: str):
    with pytest.raises(SchemaError, match=re.escape(f"{table}: expected a table that declares a measure")):
        declared_measure(table)
