"""Machines that are machines (issue 45): a name per CPU identity, never per CPU string or machine-id; the
committed runs relabelled by what they recorded; a pair of two identities compared across machines."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from phpcb.compare.comparison import Verdict, compare
from phpcb.data import machines
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas

from .conftest import FIXTURE_RUN, ROOT, committed_runs, on_another_machine, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")
CASES = json.loads((ROOT / "tests" / "fixtures" / "machine-names.json").read_text(encoding="utf-8"))["cases"]
FAMILY_26 = "20261126T1922Z-amd-epyc-fb7fc6-php8.2"


def manifest_of(case: dict) -> dict:
    """What a run records of the fixture's CPU, as the runner writes it."""
    features = machines.table()["features"]
    machine = {} if case["virtual"] is None else {"virtual": case["virtual"]}
    return {
        "cpu": {
            "model": case["cpu_model"],
            "cores": case["cores"],
            "mhz": case["mhz"],
            "flags": {flag: flag in case["features"] for flag in features},
            "identity": {
                "vendor_id": case["vendor_id"] or None,
                "family": case["family"],
                "model": case["model"],
                "stepping": case["stepping"],
            },
        },
        "machine": machine,
    }


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_the_build_names_each_identity_as_the_runner_does(case):
    """runners/tests/Environment/MachineNameTest.php checks the same file against the runner's code."""
    manifest = manifest_of(case)
    assert machines.derived_name(manifest, machines.recorded_identity(manifest)) == case["name"]


def test_two_identities_that_differ_in_one_field_never_share_a_name():
    assert len({case["name"] for case in CASES}) == len(CASES)


def test_the_microarchitecture_table_names_the_pools_cpus():
    assert machines.microarchitecture_of("amd", 25, 1) == "zen3"
    assert machines.microarchitecture_of("amd", 25, 17) == "zen4"
    assert machines.microarchitecture_of("amd", 26, 2) == "zen5"
    assert machines.microarchitecture_of("intel", 6, 143) == "sapphire-rapids"
    assert machines.microarchitecture_of("intel", 6, 200) is None
    assert machines.microarchitecture_of("amd", None, 1) is None


def test_no_committed_name_covers_two_identities():
    """The Machines page said "two machines never share a name" while amd-epyc-fb7fc6 covered three CPUs."""
    identities: dict[str, set[str]] = defaultdict(set)
    for run in committed_runs():
        machine = machines.Machine.of(run.manifest)
        identities[machine.name].add(machine.identity.canonical())
        assert machine.name == machines.derived_name(run.manifest, machine.identity), run.run_id
    assert all(len(found) == 1 for found in identities.values()), identities


def test_the_committed_runs_name_what_they_recorded():
    """Runs of 2026-11-26 recorded family 26 model 2; those of 2026-11-25 recorded no family, and their CPU
    string, cores, features and clock match only family 26's runs: inferred, and said so."""
    by_id = {run.run_id: machines.Machine.of(run.manifest) for run in committed_runs()}
    assert by_id[FAMILY_26].identity.source == machines.RECORDED
    assert by_id[FAMILY_26].identity.architecture == "zen5"
    inferred = by_id["20261125T1446Z-amd-epyc-fb7fc6-php8.2"]
    assert (inferred.identity.source, inferred.name) == (machines.INFERRED, by_id[FAMILY_26].name)
    assert "2596.1 MHz" in (inferred.identity.inferred_from or "")
    intel = by_id["20261122T1835Z-intel-xeon-fb7fc6-php8.2"]
    assert intel.identity.source == machines.UNKNOWN
    assert "-unknown-" in intel.name
    assert intel.name != by_id["20261122T0034Z-vm-php8.2"].name, "another CPU string and feature set"


def test_inference_takes_only_a_single_matching_identity():
    recorded = manifest_of(CASES[0]) | {"run_id": "recorded"}
    old = json.loads(json.dumps(recorded)) | {"run_id": "old"}
    old["cpu"]["identity"] = {}
    assert machines.infer([recorded, old])["old"].canonical() == machines.identity_in(recorded).canonical()
    other_clock = json.loads(json.dumps(old)) | {"run_id": "other clock"}
    other_clock["cpu"]["mhz"] = 2445.4
    assert "other clock" not in machines.infer([recorded, other_clock])
    stepping_2 = manifest_of(CASES[2]) | {"run_id": "stepping 2"}
    assert "old" not in machines.infer([recorded, stepping_2, old]), "two identities match: none is taken"


@pytest.fixture(scope="module")
def family_25_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    """20261126T1922Z (family 26) and the same run as a family-25 host would record it (sealed)."""
    base = load_run(ROOT / "data" / "runs" / FAMILY_26, SCHEMAS)
    copy = tmp_path_factory.mktemp("zen3") / "20261128T2047Z-amd-epyc-zen3-2c-fb9e12-php8.2"
    copy.mkdir()
    for path in base.directory.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    name = on_another_machine(manifest, family=25, model=1)
    manifest["run_id"] = copy.name
    write_manifest(copy, manifest)
    return base, load_run(copy, SCHEMAS), name


def test_a_family_26_run_against_a_family_25_run_is_across_machines(family_25_pair):
    """Issue 45: 20261126T1922Z against a family-25 run said across_machines: false and judged 13.9 % of
    cases changed, though the CPU string and machine-id were the same."""
    base, new, name = family_25_pair
    assert machines.machine_name(base.manifest) != name
    found = compare(base, new, SCHEMAS)
    assert found.across_machines
    assert "Machine" in found.environment.across_machines_because
    verdicts = {case.verdict for _, case in found.cases}
    assert not any(verdict.significant for verdict in verdicts), "no per-case verdict across machines"
    assert Verdict.ACROSS in verdicts


def test_the_fixture_keeps_its_identity_through_the_upgrade():
    manifest = json.loads((FIXTURE_RUN / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["machine"]["identity_source"] == machines.UNKNOWN
    assert manifest["machine"]["name"] == machines.derived_name(manifest, machines.identity_in(manifest))


def test_machine_is_read_in_one_place():
    """Issue 45.3: every reader goes through Machine (data/machines.py); no module outside the data layer
    reads the manifest's machine or CPU identity itself."""
    offenders = []
    for path in (ROOT / "scripts" / "phpcb").rglob("*.py"):
        if path.parent.name == "data":
            continue
        text = path.read_text(encoding="utf-8")
        for needle in ('manifest["machine"]', 'manifest.get("machine")', '["identity"]', 'get("identity")'):
            if needle in text:
                offenders.append(f"{path.relative_to(ROOT)}: {needle}")
    assert offenders == []


def test_path_of_a_machine_names_table_is_the_repository_one():
    assert Path(machines.TABLE) == ROOT / "data" / "schema" / "shared" / "machine-identity.json"
