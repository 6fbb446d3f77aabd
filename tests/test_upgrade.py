"""Upgraders on a committed version-1 run: in memory on every load, and on disk with `phpcb upgrade`."""

import csv
import json
import shutil
import subprocess

import pytest

from phpcb.commands.main import main
from phpcb.data import machines, seal, upgrade
from phpcb.data.loader import load_run
from phpcb.data.rewrite import csv_field, upgrade_on_disk
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError, SchemaVersionError

from .conftest import FIXTURE_RUN, ROOT, V1_RUN, V4_RUN

SCHEMAS = load_schemas(ROOT / "data" / "schema")


def rows(path):
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def assert_gained_an_empty_fault_count(before, after):
    """Version 7's column: added as missing, never as a made-up 0; every other value as it was."""
    for name in upgrade.RecordMinorFaults.FILES:
        if (before / name).exists():
            old, new = rows(before / name), rows(after / name)
            assert new[0] == [*old[0], "minor_faults"], name
            assert new[1:] == [[*row, ""] for row in old[1:]], name


def test_every_version_before_the_current_one_has_an_upgrader():
    assert upgrade.chain(1, SCHEMAS.version) is not None
    assert sorted(upgrade.UPGRADERS) == list(range(1, SCHEMAS.version))


def test_a_version_1_run_loads_upgraded_in_memory():
    run = load_run(V1_RUN, SCHEMAS)
    assert (run.source_version, run.manifest["schema_version"], run.upgraded) == (1, SCHEMAS.version, True)
    assert "security" in rows(V1_RUN / "cipher_inventory.csv")[0], "the committed fixture is really version 1"
    assert run.frames["cipher_inventory.csv"].column_names == ["cipher", "provider", "status", "detail"]
    assert len(run.tables["cipher_inventory.csv"]) == len(rows(V1_RUN / "cipher_inventory.csv")) - 1


def test_upgrading_on_disk_changes_only_what_the_upgrader_names(tmp_path):
    run = shutil.copytree(V1_RUN, tmp_path / V1_RUN.name)
    assert upgrade_on_disk(run, SCHEMAS) == 1
    assert upgrade_on_disk(run, SCHEMAS) is None, "a current run is left alone"
    for path in V1_RUN.iterdir():
        if path.name not in ("manifest.json", "cipher_inventory.csv", *upgrade.RecordMinorFaults.FILES):
            assert (run / path.name).read_bytes() == path.read_bytes(), path.name
    assert [row[:-1] for row in rows(V1_RUN / "cipher_inventory.csv")] == rows(run / "cipher_inventory.csv")
    assert_gained_an_empty_fault_count(V1_RUN, run)
    before, after = json.loads((V1_RUN / "manifest.json").read_text()), json.loads((run / "manifest.json").read_text())
    machine = machines.machine_fields(before, machines.recorded_identity(before))
    assert machine["identity_source"] == "unknown", "a version 1 run recorded no family and model"
    copied = {"process": "upgraded", "php": before["php"], "libraries": before["libraries"]}
    not_recorded = {"sampling": None, "system": None}
    experiments = {
        name: {**entry, **not_recorded, "measured_by": copied} for name, entry in before["experiments"].items()
    }
    # symmetric declared OPENSSL_CONF and its reason names no missing legacy provider: it had one
    legacy = {**copied, "libraries": {**before["libraries"], "openssl_legacy_provider": True}}
    experiments["symmetric"] = {**before["experiments"]["symmetric"], **not_recorded, "measured_by": legacy}
    stack = {
        "name": "host",
        "os": before["os"],
        "host_os": before["os"],
        "php": before["php"]["version"],
        "openssl": None,
        "openssl_cli": None,
    }
    expected = {
        **before,
        "schema_version": SCHEMAS.version,
        "stack": stack,
        "machine": machine,
        "boot": None,
        "system": None,
        "experiments": experiments,
    }
    sealed = after.pop("seal")
    assert after == expected
    assert sealed["resealed"][0]["reason"] == (
        f"upgraded on disk from schema version 1 to {SCHEMAS.version}; machine named by its identity (unknown): "
        f"{machine['name']}"
    )
    assert set(sealed["files"]) == {name for entry in experiments.values() for name in entry["files"]}, (
        "rewriting a run is an explicit re-seal of every file it lists"
    )
    assert list(after).index("machine") == list(after).index("cpu") - 1, "in the schema's field order"
    assert list(after).index("system") == list(after).index("kernel") + 1
    assert list(after).index("stack") == list(after).index("libraries") + 1
    assert not load_run(run, SCHEMAS).upgraded
    assert sorted(p.name for p in tmp_path.iterdir()) == [V1_RUN.name], "no work or backup directory is left"


def test_a_version_4_run_gains_precision_and_load_records_that_say_not_recorded(tmp_path):
    run = shutil.copytree(V4_RUN, tmp_path / V4_RUN.name)
    before = json.loads((V4_RUN / "manifest.json").read_text())
    assert before["schema_version"] == 4, "the committed fixture is really version 4"
    assert upgrade_on_disk(run, SCHEMAS) == 4
    for path in V4_RUN.iterdir():
        if path.name not in ("manifest.json", *upgrade.RecordMinorFaults.FILES):
            assert (run / path.name).read_bytes() == path.read_bytes(), path.name
    assert_gained_an_empty_fault_count(V4_RUN, run)
    after = json.loads((run / "manifest.json").read_text())
    assert after["system"] is None
    assert list(after).index("system") == list(after).index("kernel") + 1
    assert (after["stack"]["name"], after["stack"]["openssl"], after["boot"]) == ("host", None, None)
    for name, entry in after["experiments"].items():
        old = before["experiments"][name]
        assert (entry["sampling"], entry["system"]) == (None, None)
        assert {k: v for k, v in entry.items() if k not in ("sampling", "system")} == old
        assert list(entry).index("sampling") == list(entry).index("verification") + 1, "where the runner writes it"
    upgraded_fields = ("system", "schema_version", "experiments", "seal", "stack", "boot", "machine")
    assert {k: v for k, v in after.items() if k not in upgraded_fields} == {
        k: v for k, v in before.items() if k not in upgraded_fields
    }
    assert after["machine"] == machines.machine_fields(before, machines.recorded_identity(before))


def test_the_upgraded_inventory_is_what_the_current_runner_writes(tmp_path):
    """Both fixtures were made by the runner on one machine: version 1 upgraded must equal version 2 as written."""
    run = shutil.copytree(V1_RUN, tmp_path / V1_RUN.name)
    upgrade_on_disk(run, SCHEMAS)
    assert (run / "cipher_inventory.csv").read_text() == (FIXTURE_RUN / "cipher_inventory.csv").read_text()


def test_a_version_1_file_is_checked_against_its_own_header(tmp_path):
    run = shutil.copytree(V1_RUN, tmp_path / V1_RUN.name)
    inventory = run / "cipher_inventory.csv"
    lines = inventory.read_text().splitlines()
    inventory.write_text("\n".join(line.rsplit(",", 1)[0] for line in lines) + "\n")
    with pytest.raises(DataError) as caught:
        load_run(run, SCHEMAS)
    assert caught.value.row == 1
    assert "expected header ['cipher', 'provider', 'status', 'detail', 'security']" in str(caught.value)


def test_a_bad_version_1_run_is_not_rewritten(tmp_path):
    run = shutil.copytree(V1_RUN, tmp_path / V1_RUN.name)
    aead = run / "aead.csv"
    aead.write_text(aead.read_text().replace(",1,", ",0,", 1))
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    with pytest.raises(DataError, match="less than the minimum"):
        upgrade_on_disk(run, SCHEMAS)
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before


def test_a_leftover_from_an_interrupted_upgrade_is_reported(tmp_path):
    run = shutil.copytree(V1_RUN, tmp_path / V1_RUN.name)
    (tmp_path / f".{V1_RUN.name}.upgrading").mkdir()
    with pytest.raises(DataError, match="left over from an interrupted upgrade"):
        upgrade_on_disk(run, SCHEMAS)


def test_a_version_without_an_upgrader_says_what_to_do(tmp_path):
    run = shutil.copytree(V1_RUN, tmp_path / V1_RUN.name)
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps({**manifest, "schema_version": 0}))
    with pytest.raises(
        SchemaVersionError, match=rf"cannot be upgraded to {SCHEMAS.version}: re-run it with php runners/bench\.php run"
    ):
        load_run(run, SCHEMAS)


def test_the_cli_upgrades_and_reports_each_run(tmp_path, capsys):
    run = shutil.copytree(V1_RUN, tmp_path / V1_RUN.name)
    assert main(["--root", str(ROOT), "upgrade", str(run)]) == 0
    assert capsys.readouterr().out == f"{run}: upgraded from schema version 1 (version {SCHEMAS.version})\n"


@pytest.mark.parametrize(
    ("text", "written"),
    [("plain", "plain"), ("", ""), ("two words", '"two words"'), ('say "hi"', '"say ""hi"""'), ("a,b", '"a,b"')],
)
def test_fields_are_quoted_as_the_runners_fputcsv_quotes_them(text, written):
    assert csv_field(text) == written


SEVEN = "87ff0d0"  # the last commit before the committed runs were relabelled by identity (version 9)


def git_show(spec: str) -> bytes:
    return subprocess.run(["git", "show", spec], cwd=ROOT, capture_output=True, check=True).stdout


def test_a_version_7_run_is_of_the_host_stack_with_its_openssl_library_not_recorded(tmp_path):
    """Version 7 recorded OPENSSL_VERSION_TEXT, the header PHP was compiled against; the library PHP
    loaded may be another release, so the upgrade never passes the header's number off as the library's."""
    run = tmp_path / "20261125T1446Z-amd-epyc-fb7fc6-php8.2"
    run.mkdir()
    (run / "manifest.json").write_bytes(git_show(f"{SEVEN}:data/runs/{run.name}/manifest.json"))
    before = json.loads((run / "manifest.json").read_text())
    for name in seal.listed_files(before):  # the run as it was committed, before issue 45 relabelled it
        (run / name).write_bytes(git_show(f"{SEVEN}:data/runs/{run.name}/{name}"))
    assert before["schema_version"] == 7, "the committed run was really version 7"
    loaded = load_run(run, SCHEMAS)
    assert loaded.manifest["stack"] == {
        "name": "host",
        "os": "Debian GNU/Linux 12 (bookworm)",
        "host_os": "Debian GNU/Linux 12 (bookworm)",
        "php": "8.2.36",
        "openssl": None,
        "openssl_cli": None,
    }
    assert loaded.manifest["boot"] is None
    assert loaded.manifest["libraries"] == before["libraries"], "the header's text stays where it was"
