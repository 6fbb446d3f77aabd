"""The experiment registry: found, ordered, and consistent with data/schema/ and data/policy/."""

import dataclasses

import pytest

from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError
from phpcb.experiments import registry

from .conftest import FIXTURE_RUN, ROOT

SCHEMAS = load_schemas(ROOT / "data" / "schema")
EXPERIMENTS = registry.discover()


def test_the_experiments_found_are_those_the_schema_files_declare_in_reading_order():
    declared = sorted(path.stem for path in (ROOT / "data" / "schema" / "tables").glob("*.json"))
    assert sorted(e.name for e in EXPERIMENTS) == declared
    assert [e.order for e in EXPERIMENTS] == sorted({e.order for e in EXPERIMENTS}), "one place each in the order"


def test_each_reads_only_its_declared_tables_and_knows_its_case_key_and_measure():
    registry.check_tables(EXPERIMENTS, SCHEMAS)
    keys = {e.name: e.case_key(SCHEMAS) for e in EXPERIMENTS}
    assert keys["aead"] == (
        "library",
        "algorithm",
        "operation",
        "payload_bytes",
        "aad_bytes",
        "tag_bytes",
        "nonce_bytes",
    )
    assert keys["argon2"] == ("interface", "variant", "memory_kib", "threads", "time_cost")
    assert keys["pitfalls"] == ("pitfall", "variant")
    measured = {e.name: e.measured_value(SCHEMAS).time for e in EXPERIMENTS}
    assert {name: measured[name] for name in ("aead", "jwt", "argon2")} == {
        "aead": "elapsed_ns",
        "jwt": "elapsed_ns",
        "argon2": "wall_ns",
    }
    assert all(time.endswith("_ns") for time in measured.values()), measured
    assert all(e.better == "lower" for e in EXPERIMENTS), "every measured value is a time"


def test_every_experiment_has_its_schema_policy_and_template():
    for experiment in EXPERIMENTS:
        assert (ROOT / "data" / "schema" / "tables" / f"{experiment.name}.json").is_file()
        assert (ROOT / "data" / "policy" / f"{experiment.name}.yaml").is_file()
        assert (ROOT / "templates" / experiment.template).is_file()
        assert experiment.load_policy(ROOT / "data" / "policy" / f"{experiment.name}.yaml") is not None


def test_tables_of_no_experiment_are_refused():
    without_jwt = [e for e in EXPERIMENTS if e.name != "jwt"]
    with pytest.raises(registry.RegistryError, match=r"declares tables of \['jwt'\]: no such experiment"):
        registry.check_tables(without_jwt, SCHEMAS)


def test_an_experiment_whose_schema_does_not_declare_its_measurements_first_is_refused():
    tables = dict(SCHEMAS.tables)
    first = SCHEMAS.of_experiment("jwt")[0]
    tables[first.name] = dataclasses.replace(first, measure=None)
    with pytest.raises(registry.RegistryError, match=r"experiment jwt: expected data/schema/tables/jwt.json"):
        registry.check_tables(EXPERIMENTS, dataclasses.replace(SCHEMAS, tables=tables))


def test_a_run_whose_experiment_is_ok_must_list_its_samples():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    registry.check_runs(EXPERIMENTS, [run], SCHEMAS)
    run.manifest["experiments"]["jwt"]["files"].remove("jwt.csv")
    with pytest.raises(DataError, match=r"experiments\.jwt is marked 'ok' but its files lack jwt\.csv, its samples"):
        registry.check_runs(EXPERIMENTS, [run], SCHEMAS)
