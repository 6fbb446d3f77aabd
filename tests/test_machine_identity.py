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
from phpcb.data.stacks import stack_of
from phpcb.presentation import environment as env_rows

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
    """Runs of 2026-11-26 recorded family 26 model 2. Those of 2026-11-25 recorded no family: their CPU string,
    cores, features and clock match family 26's runs, but Zen 4 has the same features (and they ran about 35 %
    slower across the board), so they are kept apart as unknown, not inferred to be Zen 5."""
    by_id = {run.run_id: machines.Machine.of(run.manifest) for run in committed_runs()}
    assert by_id[FAMILY_26].identity.source == machines.RECORDED
    assert by_id[FAMILY_26].identity.architecture == "zen5"
    old = by_id["20261125T1446Z-amd-epyc-fb7fc6-php8.2"]
    assert old.identity.source == machines.UNKNOWN
    assert old.name != by_id[FAMILY_26].name
    assert old.name.startswith("amd-epyc-unknown-2c-")
    intel = by_id["20261122T1835Z-intel-xeon-fb7fc6-php8.2"]
    assert intel.identity.source == machines.UNKNOWN
    assert "-unknown-" in intel.name
    assert intel.name != by_id["20261122T0034Z-vm-php8.2"].name, "another CPU string and feature set"


def as_recorded_without_family(case: dict, run_id: str) -> dict:
    manifest = manifest_of(case) | {"run_id": run_id}
    manifest["cpu"]["identity"] = {}
    return manifest


def test_inference_takes_only_one_matching_identity_whose_features_single_it_out():
    zen3 = manifest_of(CASES[1]) | {"run_id": "zen3"}
    old = as_recorded_without_family(CASES[1], "old")
    found = machines.infer([zen3, old])["old"]
    assert (found.canonical(), found.source) == (machines.identity_in(zen3).canonical(), machines.INFERRED)
    assert "2445.4 MHz" in (found.inferred_from or "")
    other_clock = as_recorded_without_family(CASES[1], "other clock")
    other_clock["cpu"]["mhz"] = 2596.1
    assert "other clock" not in machines.infer([zen3, other_clock])
    stepping_2 = manifest_of(CASES[1]) | {"run_id": "stepping 2"}
    stepping_2["cpu"]["identity"]["stepping"] = 2
    assert "old" not in machines.infer([zen3, stepping_2, old]), "two identities match: none is taken"
    zen5 = manifest_of(CASES[0]) | {"run_id": "zen5"}
    assert "old zen5" not in machines.infer([zen5, as_recorded_without_family(CASES[0], "old zen5")]), (
        "Zen 4 has Zen 5's features: a run that recorded only them is not Zen 5"
    )


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


def test_a_page_names_the_runs_machine_not_its_cpu_string():
    """Issue 45: every answer and experiment page said "on AMD EPYC, Debian 13 · …", the CPU string that
    family 25 and family 26 hosts of this pool share. The words name the machine the identity names."""
    family_26 = json.loads((ROOT / "data" / "runs" / FAMILY_26 / "manifest.json").read_text(encoding="utf-8"))
    family_25 = json.loads(json.dumps(family_26))
    family_25["cpu"]["identity"]["family"], family_25["cpu"]["identity"]["model"] = 25, 1
    family_25["machine"] = machines.machine_fields(family_25, machines.recorded_identity(family_25))
    assert family_25["cpu"]["model"] == family_26["cpu"]["model"] == "AMD EPYC"
    words = {env_rows.short(manifest): manifest for manifest in (family_26, family_25)}
    assert len(words) == 2, "two identities, two machines on the page"
    for said, manifest in words.items():
        assert said.startswith(f"{machines.machine_name(manifest)}, "), said
        assert said.endswith(f", {stack_of(manifest).short_label}"), said


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


def test_a_cpu_slug_has_no_dash_at_either_end():
    # "(R)" is noise, so the string begins with a separator; 32 characters end on one.
    assert machines.cpu_slug("(R) Xeon Gold 6148") == "xeon-gold-6148"
    assert machines.cpu_slug("AMD Opteron 6376 Sixteen-Core Processor @ 2.3 GHz") == "amd-opteron-6376-sixteen-core-2"


def test_a_clock_in_the_cpu_string_is_not_the_product_line():
    assert machines.line_of("Intel(R) Processor @ 2.4 GHz", "intel") == "cpu"


def test_the_vendor_id_names_the_vendor_where_the_cpu_string_does_not():
    """QEMU's default CPU string names no vendor: the CPU's vendor id does."""
    manifest = manifest_of(CASES[6])
    manifest["cpu"]["model"] = "Common KVM processor"
    identity = machines.recorded_identity(manifest)
    assert (identity.vendor, identity.line, identity.architecture) == ("intel", "common", "icelake-sp")
    assert machines.derived_name(manifest, identity).startswith("intel-common-icelake-sp-2c-")


def test_a_family_without_a_model_is_an_unknown_identity():
    manifest = manifest_of(CASES[0])
    manifest["cpu"]["identity"]["model"] = None
    identity = machines.recorded_identity(manifest)
    assert machines.microarchitecture_of("amd", 26, None) is None
    assert (identity.source, identity.known, identity.architecture) == (machines.UNKNOWN, False, "unknown")
    assert "-unknown-" in machines.derived_name(manifest, identity)


@pytest.mark.parametrize(("family", "model"), [("26", "2"), (True, True)])
def test_a_family_and_model_that_are_not_whole_numbers_are_not_recorded(family, model):
    manifest = manifest_of(CASES[0])
    manifest["cpu"]["identity"] |= {"family": family, "model": model, "stepping": True}
    identity = machines.recorded_identity(manifest)
    assert (identity.family, identity.model, identity.stepping) == (None, None, None)
    assert identity.source == machines.UNKNOWN


def test_a_run_that_recorded_no_cpu_string_nor_cores_is_named_by_what_it_did_record():
    manifest = manifest_of(CASES[0])
    del manifest["cpu"]["model"], manifest["cpu"]["cores"], manifest["cpu"]["mhz"]
    identity = machines.recorded_identity(manifest)
    assert (identity.vendor, identity.line, identity.cores) == ("amd", "cpu", 1)
    assert machines.unknown_detail(manifest) == "cpu=;mhz=?"


def test_a_virtual_flag_that_is_not_a_boolean_is_not_recorded():
    manifest = manifest_of(CASES[0])
    manifest["machine"] = {"virtual": "yes"}
    assert machines.recorded_identity(manifest).virtual is None
    manifest["machine"] = machines.machine_fields(manifest, machines.recorded_identity(manifest))
    assert machines.identity_in(manifest).virtual is None


def test_an_unknown_identity_given_no_detail_is_named_by_its_fields_alone():
    unknown = machines.recorded_identity(manifest_of(CASES[8]))
    assert unknown.name() == unknown.name("")
    assert unknown.name() != unknown.name(machines.unknown_detail(manifest_of(CASES[8])))


def test_an_inferred_identity_is_written_to_the_manifest_and_read_back_with_its_reason_and_host():
    zen3 = manifest_of(CASES[1]) | {"run_id": "zen3"}
    old = as_recorded_without_family(CASES[1], "old")
    old["machine"] |= {"host_hash": "abcdef"}
    inferred = machines.infer([zen3, old])["old"]
    old["machine"] = machines.machine_fields(old, inferred)
    assert old["machine"]["host_hash"] == "abcdef"
    assert old["machine"]["virtual"] is True
    assert old["machine"]["inferred_from"] == inferred.inferred_from
    machine = machines.Machine.of(old)
    assert (machine.identity, machine.host_hash) == (inferred, "abcdef")
    assert (
        machine.name
        == machines.derived_name(old, inferred)
        != machines.derived_name(old, machines.recorded_identity(old))
    )


def test_a_manifest_without_a_machine_gets_the_legacy_host_and_no_virtual_flag():
    manifest = manifest_of(CASES[8])
    fields = machines.machine_fields(manifest, machines.recorded_identity(manifest))
    assert fields["host_hash"] == machines.LEGACY_HOST_HASH
    assert "virtual" not in fields
    assert "inferred_from" not in fields
    assert machines.Machine.of({"machine": {"name": fields["name"]}}).host_hash == ""


def test_a_stored_identity_without_features_or_source_has_none_and_is_recorded():
    manifest = manifest_of(CASES[7])
    manifest["machine"] = machines.machine_fields(manifest, machines.recorded_identity(manifest))
    del manifest["machine"]["identity"]["features"], manifest["machine"]["identity_source"]
    identity = machines.identity_in(manifest)
    assert (identity.features, identity.source, identity.architecture) == ((), machines.RECORDED, "f6m200")


def test_a_run_is_on_its_recorded_boot_else_on_one_boot_per_utc_day():
    manifest = manifest_of(CASES[0]) | {"started_utc": "2026-11-25T14:46:00Z"}
    manifest["machine"]["name"] = CASES[0]["name"]
    assert machines.Machine.of(manifest).boot == "not recorded: 2026-11-25"
    assert machines.Machine.of(manifest | {"boot": {"id": "5a78967b"}}).boot == "5a78967b"
    assert machines.boot_of(manifest | {"boot": {"id": ""}}) == "not recorded: 2026-11-25"
    assert machines.boot_of({}) == "not recorded: "


def test_inference_takes_a_run_only_if_its_cpu_string_is_the_same():
    zen3 = manifest_of(CASES[1]) | {"run_id": "zen3"}
    old = as_recorded_without_family(CASES[1], "other string")
    old["cpu"]["model"] = "AMD EPYC 7B13 64-Core Processor"
    assert machines.infer([zen3, old]) == {}


def test_inference_gives_identities_only_to_runs_whose_identity_is_unknown():
    zen3 = manifest_of(CASES[1]) | {"run_id": "zen3"}
    no_clock = as_recorded_without_family(CASES[1], "no clock")
    del no_clock["cpu"]["mhz"]
    assert set(machines.infer([zen3, as_recorded_without_family(CASES[1], "old"), no_clock])) == {"old"}


def test_a_clock_half_a_mhz_away_is_another_hosts():
    zen3 = manifest_of(CASES[1]) | {"run_id": "zen3"}
    zen3["cpu"]["mhz"] = 2446.0
    old = as_recorded_without_family(CASES[1], "old")
    old["cpu"]["mhz"] = 2445.5
    assert machines.infer([zen3, old]) == {}
    old["cpu"]["mhz"] = 2445.6
    assert set(machines.infer([zen3, old])) == {"old"}


def test_another_vendors_cpu_with_the_same_features_does_not_make_an_identity_ambiguous():
    """Alder Lake (family 6 model 151) has Zen 3's features; an AMD Zen 3 is no Intel CPU."""
    alder_lake = {**CASES[6], "family": 6, "model": 151, "features": CASES[1]["features"], "virtual": False}
    recorded = manifest_of(alder_lake) | {"run_id": "alder lake"}
    found = machines.infer([recorded, as_recorded_without_family(alder_lake, "old")])["old"]
    assert (found.architecture, found.source) == ("f6m151", machines.INFERRED)


def test_inference_takes_a_cpu_string_not_recorded_for_an_empty_one_as_the_name_does():
    recorded = manifest_of(CASES[1]) | {"run_id": "empty string"}
    recorded["cpu"]["model"] = ""
    recorded["cpu"]["identity"]["vendor_id"] = None
    old = as_recorded_without_family(CASES[1], "no string")
    del old["cpu"]["model"]
    assert machines.unknown_detail(old) == machines.unknown_detail(recorded)
    assert machines.infer([recorded, old])["no string"].canonical() == machines.identity_in(recorded).canonical()
