"""The environment a run records against the process that measured and against its rows (issue 13, part 1)."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from phpcb.data import upgrade
from phpcb.data.consistency import EnvironmentMismatchError, differences
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.data.upgrade import UPGRADERS

from .conftest import FIXTURE_RUN, ROOT, committed_run_dirs, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")
MANIFEST = json.loads((FIXTURE_RUN / "manifest.json").read_text())


def copy_run(tmp_path: Path) -> Path:
    return Path(shutil.copytree(FIXTURE_RUN, tmp_path / "runs" / FIXTURE_RUN.name))


def edit_manifest(run: Path, edit: Any) -> None:
    path = run / "manifest.json"
    manifest = json.loads(path.read_text())
    edit(manifest)
    write_manifest(path.parent, manifest)


def without_fault_counts(run: Path) -> None:
    """The CSVs as a run before schema version 7 wrote them: no `minor_faults`, their last column."""
    for name in upgrade.RecordMinorFaults.FILES:
        lines = (run / name).read_text(encoding="utf-8").splitlines()
        assert lines[0].endswith(",minor_faults"), name
        (run / name).write_text("".join(line.rsplit(",", 1)[0] + "\n" for line in lines), encoding="utf-8")


def test_the_fixture_run_records_what_measured_each_experiment():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    for name, entry in run.manifest["experiments"].items():
        assert entry["measured_by"]["php"]["version"] == run.manifest["php"]["version"], name


def test_mcrypt_rows_while_the_run_records_mcrypt_absent_are_refused(tmp_path):
    """The issue's case: the runner had no mcrypt (php -n), its child loaded it and measured it."""
    run = copy_run(tmp_path)

    def without_mcrypt(manifest):
        for environment in [manifest, *(e["measured_by"] for e in manifest["experiments"].values())]:
            environment["php"]["extensions"]["mcrypt"] = None
            environment["libraries"]["mcrypt"] = None

    edit_manifest(run, without_mcrypt)
    with pytest.raises(EnvironmentMismatchError) as caught:
        load_run(run, SCHEMAS)
    assert caught.value.path == run / "manifest.json"
    message = str(caught.value)
    assert "\n" not in message
    assert "experiments.symmetric: symmetric.csv holds 294 mcrypt rows" in message
    assert "php.extensions.mcrypt is recorded as absent" in message


def test_a_measuring_process_that_differs_from_the_runner_is_refused(tmp_path):
    run = copy_run(tmp_path)

    def runner_without_mcrypt(manifest):
        manifest["php"]["extensions"]["mcrypt"] = None
        manifest["libraries"]["mcrypt"] = None

    edit_manifest(run, runner_without_mcrypt)
    with pytest.raises(EnvironmentMismatchError) as caught:
        load_run(run, SCHEMAS)
    message = str(caught.value)
    assert "experiments.aead.measured_by (process runner): the process that measured is not the PHP" in message
    assert "libraries.mcrypt: run absent, measuring process '2.5.8'" in message


def test_rows_through_the_legacy_provider_need_it_in_the_process_that_measured(tmp_path):
    run = copy_run(tmp_path)
    edit_manifest(
        run, lambda m: m["experiments"]["symmetric"]["measured_by"]["libraries"].update(openssl_legacy_provider=False)
    )
    with pytest.raises(EnvironmentMismatchError, match="rows through OpenSSL's legacy provider"):
        load_run(run, SCHEMAS)


def test_the_legacy_provider_alone_may_differ_from_the_runner():
    """symmetric's declared OPENSSL_CONF loads the legacy provider in its child, not in the runner."""
    manifest = json.loads((FIXTURE_RUN / "manifest.json").read_text())
    measured_by = manifest["experiments"]["symmetric"]["measured_by"]
    assert manifest["libraries"]["openssl_legacy_provider"] != measured_by["libraries"]["openssl_legacy_provider"]
    assert differences(manifest, measured_by) == []
    other = copy.deepcopy(measured_by)
    other["php"]["memory_limit"] = "128M"
    other["php"]["extensions"]["Zend OPcache"] = None
    assert differences(manifest, other) == [
        "php.extensions.Zend OPcache: run '8.2.36', measuring process absent",
        "php.memory_limit: run '-1', measuring process '128M'",
    ]


# Every rule the schema files declare (their "needs"), by table: what its rows are and what they need.
DECLARED_NEEDS = {
    ("symmetric.csv", "php.extensions.mcrypt"): "mcrypt rows",
    ("symmetric.csv", "libraries.mcrypt"): "mcrypt rows",
    ("symmetric.csv", "libraries.openssl_legacy_provider"): "rows through OpenSSL's legacy provider",
    ("symmetric_rounds.csv", "libraries.openssl_legacy_provider"): "rounds through OpenSSL's legacy provider",
    ("argon2.csv", "libraries.argon2_provider"): "measured password_hash cells",
    ("argon2.csv", "php.extensions.sodium"): "measured sodium cells",
    ("argon2_rounds.csv", "libraries.argon2_provider"): "password_hash rounds",
    ("argon2_rounds.csv", "php.extensions.sodium"): "sodium rounds",
}


def test_the_schema_files_declare_every_rule_and_no_other():
    declared = {(table.name, need.field): need.what for table in SCHEMAS.tables.values() for need in table.needs}
    assert declared == DECLARED_NEEDS


def unset(environment: dict[str, Any], field: str) -> str:
    """`field` (php.extensions.x or libraries.x) recorded as absent (false, where the manifest's schema
    says it is a boolean); how the refusal shows it."""
    section, _, name = field.rpartition(".")
    holder = environment["php"]["extensions"] if section == "php.extensions" else environment["libraries"]
    holder[name] = False if isinstance(holder.get(name), bool) else None
    return "False" if holder[name] is False else "absent"


@pytest.mark.parametrize(("table", "field"), sorted(DECLARED_NEEDS))
def test_rows_that_need_what_the_measuring_process_lacked_are_refused(tmp_path, table: str, field: str):
    """The run and its measuring process agree that `field` is absent (so no other check speaks first);
    the table's rows that need it are refused, named by the rule the schema declares."""
    run = copy_run(tmp_path)
    experiment = next(name for name, entry in MANIFEST["experiments"].items() if table in entry["files"])

    shown = []

    def lacking(manifest: dict[str, Any]) -> None:
        for entry in manifest["experiments"].values():
            shown.append(unset(entry["measured_by"], field))
        unset(manifest, field)
        files = manifest["experiments"][experiment]["files"]
        files.insert(0, files.pop(files.index(table)))  # its rows are read first: this rule speaks first

    edit_manifest(run, lacking)
    with pytest.raises(EnvironmentMismatchError) as caught:
        load_run(run, SCHEMAS)
    what = DECLARED_NEEDS[(table, field)]
    assert re.search(
        rf"experiments\.{experiment}: {re.escape(table)} holds [1-9][0-9,]* {re.escape(what)}, "
        rf"but {re.escape(field)} is recorded as {shown[0]} for the process that measured",
        str(caught.value),
    ), str(caught.value)


def test_the_upgrade_from_version_3_copies_the_run_and_reads_the_legacy_provider_from_the_reason():
    manifest = json.loads((FIXTURE_RUN / "manifest.json").read_text())
    v3 = {**manifest, "schema_version": 3, "experiments": copy.deepcopy(manifest["experiments"])}
    for entry in v3["experiments"].values():
        del entry["measured_by"]
    v3["experiments"]["symmetric"].update(status="partial", reason="OpenSSL's legacy provider is not loaded (…)")
    upgraded = UPGRADERS[3].manifest(v3)
    assert upgraded["schema_version"] == 4
    aead = upgraded["experiments"]["aead"]["measured_by"]
    assert aead == {"process": "upgraded", "php": manifest["php"], "libraries": manifest["libraries"]}
    assert upgraded["experiments"]["symmetric"]["measured_by"]["libraries"]["openssl_legacy_provider"] is False
    v3["experiments"]["symmetric"].update(status="ok", reason=None)
    upgraded = UPGRADERS[3].manifest(v3)
    assert upgraded["experiments"]["symmetric"]["measured_by"]["libraries"]["openssl_legacy_provider"] is True


def test_a_version_3_run_with_the_issues_mismatch_is_refused_after_its_upgrade(tmp_path):
    run = copy_run(tmp_path)

    def as_version_3_without_mcrypt(manifest):
        manifest["schema_version"] = 3
        manifest["php"]["extensions"]["mcrypt"] = None
        manifest["libraries"]["mcrypt"] = None
        for entry in manifest["experiments"].values():
            del entry["measured_by"]

    edit_manifest(run, as_version_3_without_mcrypt)
    without_fault_counts(run)
    with pytest.raises(EnvironmentMismatchError, match="294 mcrypt rows"):
        load_run(run, SCHEMAS)


def test_the_cli_prints_the_mismatch_as_one_line(make_project):
    root = make_project(FIXTURE_RUN)
    edit_manifest(
        root / "data" / "runs" / FIXTURE_RUN.name,
        lambda m: m["experiments"]["symmetric"]["measured_by"]["libraries"].update(mcrypt=None),
    )
    result = subprocess.run(
        [sys.executable, "-m", "phpcb", "--root", str(root), "check"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "scripts")},
        check=False,
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "manifest.json: experiments.symmetric.measured_by (process child)" in lines[0]


def test_no_committed_run_publishes_a_path_of_the_checkout_that_measured_it():
    """The site publishes every manifest: an OPENSSL_CONF of /tmp/<checkout>/runners/... leaks a local
    path (the runner records paths inside the repository relative to it since schema version 5)."""
    for manifest in (directory / "manifest.json" for directory in committed_run_dirs()):
        for name, entry in json.loads(manifest.read_text())["experiments"].items():
            environment = (entry.get("settings") or {}).get("environment") or {}
            absolute = {k: v for k, v in environment.items() if v.startswith("/")}
            assert not absolute, f"{manifest.parent.name} {name}: {absolute}"
