"""A run a pull request adds or rewrites passes every check a committed run passes, and more
(data/run_checks.py, data/run_files.py; issue 36): sealed, its manifest agreeing with its own files
(cases against rows, profile against sampling, machine against run id, CPU and host, stack against PHP
and OpenSSL), and a directory of regular files only, checked before anything is read."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from phpcb.data import machines, run_checks, stacks, upgrade
from phpcb.data.loader import load_run
from phpcb.data.rewrite import upgrade_on_disk
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError

from .conftest import FIXTURE_RUN, ROOT, SLIM_RUNS, V4_RUN, committed_run_dirs, committed_runs, committed_view, reseal

SCHEMAS = load_schemas(ROOT / "data" / "schema")
EPYC_ID = "20260101T0000Z-amd-epyc-fb7fc6-php8.2"
ZEN5 = "amd-epyc-zen5-2c-5330ed"
FIXTURE_MACHINE = json.loads((FIXTURE_RUN / "manifest.json").read_text(encoding="utf-8"))["machine"]["name"]


def copied(tmp_path: Path, source: Path = FIXTURE_RUN, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    shutil.copytree(source, target)
    return target


def edit_manifest(run: Path, change, sealed: bool = True) -> None:
    """The run's manifest changed, and re-sealed (the seal covers it: these tests probe the checks behind it)."""
    path = run / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")
    if sealed:
        reseal(run)


def as_written_by_the_runner(data: dict) -> None:
    """A manifest as the version-9 runner writes it: no upgrade on disk in its history, so its run id
    must carry the name its identity gives."""
    data["seal"]["resealed"] = [e for e in data["seal"].get("resealed", []) if "upgraded on disk" not in e["reason"]]


def with_openssl_recorded(run: Path, **stack: object) -> None:
    """The fixture's manifest as the version-8 runner and later write it: the loaded OpenSSL library recorded."""

    def change(data: dict) -> None:
        data.update({**upgrade.UPGRADERS[7].manifest(data), "schema_version": data["schema_version"]})
        library = "OpenSSL 3.0.22 25 Aug 2026"
        data["libraries"]["openssl_library"] = library
        for entry in data["experiments"].values():  # every process that measured loaded the same library
            if entry.get("measured_by"):
                entry["measured_by"]["libraries"]["openssl_library"] = library
        data["stack"].update({"openssl": "3.0.22", "openssl_cli": "3.0.22", **stack})

    edit_manifest(run, change)


def strict(run: Path) -> None:
    run_checks.check_added(load_run(run, SCHEMAS), SCHEMAS)


def git(*arguments: str) -> str:
    return subprocess.run(["git", *arguments], check=True, capture_output=True, text=True).stdout


def check_committed_runs(root: Path = ROOT) -> None:
    """The checks of an added run on every run git tracks under `root`/data/runs/ (this checkout's by
    default), and on the fixture."""
    for run in (*committed_runs(root), load_run(FIXTURE_RUN, SCHEMAS)):
        run_checks.check_added(run, SCHEMAS)


def test_every_committed_run_and_the_fixture_pass_the_checks_of_an_added_run():
    check_committed_runs()


def test_a_run_git_does_not_track_is_no_committed_run(tmp_path: Path):
    """Issue 48: `make test` tests the project, not the user's measurements. A run `make report` left in a
    clone, with the id the runner gave before one clock reading named both (the minute read before the load
    window, the start after it), fails the checks of an added run, and the committed-run checks leave it out."""
    clone = tmp_path / "clone"
    git("clone", "--quiet", "--sparse", str(ROOT), str(clone))  # the top level's files only, and then one run
    committed = SLIM_RUNS[0]
    git("-C", str(clone), "sparse-checkout", "add", f"data/runs/{committed}")
    # As this checkout has it (a run upgraded on disk and not yet committed is checked as it is here).
    shutil.copytree(ROOT / "data" / "runs" / committed, clone / "data" / "runs" / committed, dirs_exist_ok=True)
    mine = copied(clone / "data" / "runs", FIXTURE_RUN)
    edit_manifest(mine, lambda m: m.update(started_utc="2026-01-01T00:01:01Z"))
    untracked = git("-C", str(clone), "ls-files", "--others", "--directory", "--", "data/runs")
    assert untracked == f"data/runs/{mine.name}/\n"

    with pytest.raises(DataError, match=rf"run_id '{mine.name}' disagrees .+ which make '20260101T0001Z-"):
        strict(mine)
    assert committed_run_dirs(clone) == (clone / "data" / "runs" / committed,)
    check_committed_runs(clone)
    # Nor does the repository's site, which the page and browser tests build, show it.
    view = committed_view(tmp_path / "view", clone)
    assert [run.name for run in (view / "data" / "runs").iterdir()] == [committed]
    assert (view / "Makefile").samefile(clone / "Makefile"), "the working tree as it is, linked"


def test_an_intel_quick_run_cannot_claim_another_machine(tmp_path: Path):
    """Issue 36: a manifest claiming machine.name amd-epyc-fb7fc6 for an Intel quick run was accepted and
    took over all 6 pages. Issue 45: the name is the one the identity gives, whatever the run id says."""
    run = copied(tmp_path, name=EPYC_ID)
    edit_manifest(run, lambda m: m.update(run_id=EPYC_ID) or m["machine"].update(name=ZEN5))
    with pytest.raises(DataError) as caught:
        strict(run)
    assert str(caught.value) == (
        f"{run / 'manifest.json'}: machine.name '{ZEN5}' is not the name its identity gives, "
        f"'{FIXTURE_MACHINE}' (vendor=intel;family=?;model=?;stepping=?;cores=2;"
        "features=aes,vaes,pclmulqdq,vpclmulqdq,avx2,avx512f,sha_ni;virtual=?)"
    )


@pytest.mark.parametrize(
    ("field", "value", "recorded"),
    [
        ("family", 26, None),
        ("cores", 64, 2),
        ("features", ["aes", "avx2"], ("aes", "vaes", "pclmulqdq", "vpclmulqdq", "avx2", "avx512f", "sha_ni")),
        ("vendor", "amd", "intel"),
    ],
)
def test_an_identity_that_disagrees_with_the_cpu_the_run_recorded_is_refused(tmp_path: Path, field, value, recorded):
    """Issue 47: the machine name against the CPU identity it records. A run cannot claim a family, cores or
    features its CPU fields do not show, even with the name that claim would give."""
    run = copied(tmp_path)

    def claim(m: dict) -> None:
        m["machine"]["identity"][field] = value
        m["machine"]["name"] = machines.derived_name(m, machines.identity_in(m))

    edit_manifest(run, claim)
    with pytest.raises(
        DataError, match=rf"machine\.identity\.{field} .+ disagrees with what the run recorded"
    ) as caught:
        strict(run)
    assert repr(recorded) in str(caught.value)


def test_a_machine_name_must_be_the_one_in_the_run_id(tmp_path: Path):
    """A run the version-9 runner wrote carries its machine's name in its id (a run upgraded on disk from an
    older version keeps the id its runner gave it)."""
    wrong = "20260101T0000Z-intel-xeon-fb7fc6-php8.2"
    run = copied(tmp_path, name=wrong)
    edit_manifest(run, lambda m: m.update(run_id=wrong))
    strict(run)  # upgraded on disk from version 7: its id is the old runner's
    edit_manifest(run, as_written_by_the_runner)
    with pytest.raises(
        DataError, match=rf"run_id '{wrong}' disagrees .+ which make '20260101T0000Z-{FIXTURE_MACHINE}-"
    ):
        strict(run)


def test_a_quick_run_cannot_claim_the_full_profile(tmp_path: Path):
    run = copied(tmp_path)
    edit_manifest(run, lambda m: m.update(profile="full"))
    with pytest.raises(DataError) as caught:
        strict(run)
    assert "experiments.aead.sampling: target ±3% from 7 samples is not how the 'full' profile samples" in str(
        caught.value
    )


def test_the_profiles_sampling_is_the_runners():
    """PROFILE_SAMPLING restates runners/src/Harness/Profile.php and runners/src/Argon2/CellSampling.php."""
    profile = (ROOT / "runners" / "src" / "Harness" / "Profile.php").read_text(encoding="utf-8")
    cells = (ROOT / "runners" / "src" / "Argon2" / "CellSampling.php").read_text(encoding="utf-8")
    fewest = int(re.search(r"FEWEST_SAMPLES = (\d+);", profile).group(1))
    target = float(re.search(r"const TARGET = ([0-9.]+);", cells).group(1))
    cell_minimum = {int(n) for n in re.findall(r"new self\((\d+), \d+, [\d_]+, [\d_]+\)", cells)}
    assert len(cell_minimum) == 1
    for name, minimum, half_width in re.findall(r"'(\w+)' => new self\('\w+', ([\w:]+), \d+, ([0-9.]+),", profile):
        samples = fewest if minimum == "self::FEWEST_SAMPLES" else int(minimum)
        assert run_checks.PROFILE_SAMPLING[name] == {(float(half_width), samples), (target, *cell_minimum)}, name


def test_a_cut_file_resealed_still_lacks_the_cases_its_manifest_records(tmp_path: Path):
    """Issue 36: with the last third of its jwt.csv deleted, a run built a full preview."""
    run = copied(tmp_path)
    lines = (run / "jwt.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (run / "jwt.csv").write_text("".join(lines[: len(lines) * 2 // 3]), encoding="utf-8")
    reseal(run)
    load_run(run, SCHEMAS)  # the loader's checks alone let it through
    with pytest.raises(DataError) as caught:
        strict(run)
    assert caught.value.path == run / "jwt.csv"
    assert re.fullmatch(
        r"experiments\.jwt: jwt\.csv, jwt_layers\.csv hold 98 case\(s\), but its sampling records 137 "
        r"\(a file cut or rows removed; restore it from git\)",
        caught.value.detail,
    )


def test_an_unsealed_old_run_is_refused_until_the_projects_tools_upgrade_and_seal_it(tmp_path: Path):
    """Issue 36: a run of schema 5, unsealed, was accepted as it was."""
    run = copied(tmp_path, V4_RUN)
    with pytest.raises(DataError, match=r"not sealed \(schema version 4\): .+make upgrade-runs"):
        strict(run)
    assert upgrade_on_disk(run, SCHEMAS) == 4
    strict(run)
    recorded = json.loads((run / "manifest.json").read_text(encoding="utf-8"))["seal"]["resealed"]
    assert recorded[-1]["reason"] == (
        f"upgraded on disk from schema version 4 to {SCHEMAS.version}; machine named by its identity (unknown): "
        f"{FIXTURE_MACHINE}"
    )


@pytest.mark.parametrize(
    ("plant", "kind"),
    [
        (lambda run: (run / "notes.txt").symlink_to("/etc/passwd"), "a symbolic link"),
        (lambda run: (run / "aead.csv").unlink() or (run / "aead.csv").symlink_to(FIXTURE_RUN / "aead.csv"), None),
        (lambda run: (run / "evidence").mkdir(), "a directory"),
        (lambda run: os.mkfifo(run / "pipe.csv"), "a named pipe"),
        (lambda run: (run / ".notes").write_text("x"), "hidden"),
    ],
    ids=["symlink out", "a listed file as a symlink", "directory", "fifo", "hidden file"],
)
def test_a_run_directory_holds_regular_files_only_checked_before_anything_is_read(tmp_path: Path, plant, kind):
    """Issue 36: a symlink notes.txt -> /etc/passwd was accepted and /etc/passwd copied into the preview.
    The loader refuses it (every run, committed or not) before reading the manifest: here the manifest
    is not even JSON, and the entry is named first."""
    run = copied(tmp_path)
    plant(run)
    (run / "manifest.json").write_text("not JSON: never read")
    with pytest.raises(DataError) as caught:
        load_run(run, SCHEMAS)
    assert caught.value.path.parent == run
    assert caught.value.path.name != "manifest.json"
    assert "a run holds regular files only" in str(caught.value) or "hidden" in str(caught.value)
    if kind is not None:
        assert kind in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_file_the_manifest_does_not_list_is_refused(tmp_path: Path):
    run = copied(tmp_path)
    (run / "notes.txt").write_text("a regular file, but none of the run's\n")
    load_run(run, SCHEMAS)
    with pytest.raises(DataError, match="not a file of the run: its manifest lists no such file") as caught:
        strict(run)
    assert caught.value.path == run / "notes.txt"


def test_a_version_8_run_passes_and_its_stack_must_agree_with_php_and_openssl(tmp_path: Path):
    run = copied(tmp_path)
    with_openssl_recorded(run)
    strict(run)

    edit_manifest(run, lambda m: m["stack"].update(php="8.4.16"))
    with pytest.raises(DataError, match=r"stack\.php '8\.4\.16' is not php\.version '8\.2\.36'"):
        strict(run)

    edit_manifest(run, lambda m: m["stack"].update(php="8.2.36", openssl="3.5.9"))
    with pytest.raises(DataError, match=r"stack\.openssl '3\.5\.9' is not the library PHP loaded"):
        strict(run)


def test_a_run_in_another_stack_carries_its_name_in_its_id(tmp_path: Path):
    run = copied(tmp_path)
    with_openssl_recorded(run, name="debian13")
    with pytest.raises(DataError, match=r"which make '20260101T0000Z-<machine>-php8\.2-debian13'"):
        strict(run)


def test_the_openssl_command_recorded_is_the_one_that_measured(tmp_path: Path):
    run = copied(tmp_path)
    with_openssl_recorded(run, openssl_cli="3.5.9")
    strict(run)  # the fake clock records no openssl version line: nothing to hold it against
    rows = list(csv.reader(io.StringIO((run / "jwt_native.csv").read_text(encoding="utf-8"))))
    for row in rows[1:]:
        row[-1] = "OpenSSL 3.5.9 29 Sep 2026 (Library: OpenSSL 3.0.22 25 Aug 2026)"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    (run / "jwt_native.csv").write_text(out.getvalue(), encoding="utf-8")
    reseal(run)
    with pytest.raises(DataError, match=r"tool_version .+ is not the openssl command the manifest records") as caught:
        strict(run)
    assert caught.value.path == run / "jwt_native.csv"


# --- issue 47.3: what a run claims, against what the project declares and holds --------------------------

RELABELLED = "20260101T0000Z-fixture-php8.2-debian13"


def test_the_stack_files_read_as_bash_reads_them():
    """One declaration per stack (scripts/stacks/<name>.env): scripts/stack.sh sources it, the build parses it,
    and both read the same values; the versions are not restated in Python."""
    found = stacks.definitions()
    assert "debian13" in found
    for name, definition in found.items():
        shown = subprocess.run(
            [
                "bash",
                "-c",
                'set -eu; source "$1"; printf "%s\\n" "$STACK_DESCRIPTION" "$STACK_PHP" '
                '"$STACK_OPENSSL" "$STACK_SUITE"',
                "bash",
                str(definition.path),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        assert shown == [definition.description, definition.php, definition.openssl, definition.suite], name
    debian13 = found["debian13"]
    assert (debian13.php, debian13.openssl, debian13.suite) == ("8.4", "3.5", "trixie")
    assert debian13.description == "Debian 13 (trixie): PHP 8.4 + OpenSSL 3.5"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'STACK_PHP=8.4\nSTACK_OPENSSL="$(id)"\n',
            r"line 2: a stack file's quoted value holds text and \$\{NAME\} only",
        ),
        ("STACK_PHP=`id`\n", r"line 1: expected NAME=value or NAME=\"value\""),
        ('STACK_DESCRIPTION="PHP ${STACK_PHP}"\n', r"line 1: \$\{STACK_PHP\} is not assigned above it"),
        ("export STACK_PHP=8.4\n", r"line 1: expected NAME=value, got 'export STACK_PHP=8.4'"),
        ('STACK_DESCRIPTION="x"\nSTACK_PHP=8\nSTACK_OPENSSL=3.5\nSTACK_SUITE=trixie\n', r"STACK_PHP: expected a major"),
        ("STACK_SUITE=trixie\n", r"this one lacks STACK_DESCRIPTION, STACK_PHP, STACK_OPENSSL$"),
    ],
    ids=["command substitution", "backticks", "unknown name", "not an assignment", "no minor", "missing"],
)
def test_a_stack_file_holds_plain_assignments_only(tmp_path: Path, text: str, message: str):
    (tmp_path / "debian99.env").write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=message) as caught:
        stacks.definitions(tmp_path)
    assert caught.value.path == tmp_path / "debian99.env"


def relabelled(tmp_path: Path, name: str = "debian13") -> Path:
    """Issue 47: the fixture run (PHP 8.2 + OpenSSL 3.0) renamed into another stack, its id and directory made
    to agree, and re-sealed, as `make seal` would: everything but the stack's contents agrees."""
    run = copied(tmp_path, name=f"20260101T0000Z-fixture-php8.2-{name}")
    with_openssl_recorded(run, name=name)
    edit_manifest(run, lambda m: m.update(run_id=run.name))
    return run


def test_a_run_relabelled_into_a_stack_it_did_not_run_in_is_refused_in_one_line(tmp_path: Path):
    run = relabelled(tmp_path)
    with pytest.raises(DataError) as caught:
        strict(run)
    assert str(caught.value) == (
        f"{run / 'manifest.json'}: stack.name 'debian13' is Debian 13 (trixie): PHP 8.4 + OpenSSL 3.5 "
        "(scripts/stacks/debian13.env), but the run records PHP 8.2.36, OpenSSL 3.0.22, OS 'Debian GNU/Linux 12 "
        "(bookworm)': a run names the stack it ran in"
    )
    assert run.name == RELABELLED


def test_a_stack_no_file_declares_is_refused_and_the_host_is_whatever_the_host_has(tmp_path: Path):
    run = relabelled(tmp_path, "debian99")
    with pytest.raises(
        DataError,
        match=r"stack\.name 'debian99': no stack of that name is declared "
        r"\(scripts/stacks/debian99\.env; declared: debian13; 'host' is the host's own PHP\)",
    ):
        strict(run)
    host = copied(tmp_path / "host")
    with_openssl_recorded(host)
    edit_manifest(host, lambda m: m["stack"].update(os="Alpine Linux v3.22", php="8.2.36"))
    strict(host)  # the host's stack is not held to a declaration


def test_the_debian13_fixture_agrees_with_its_declaration(tmp_path: Path):
    debian13 = FIXTURE_RUN.parent / "20260101T0000Z-fixture-php8.4-debian13"
    strict(debian13)
    run = copied(tmp_path, debian13)
    edit_manifest(run, lambda m: m["stack"].update(os="Debian GNU/Linux 12 (bookworm)"))
    with pytest.raises(DataError, match=r"but the run records OS 'Debian GNU/Linux 12 \(bookworm\)'"):
        strict(run)


def renamed(tmp_path: Path, run_id: str = "20260102T0000Z-fixture-php8.2", source: Path = FIXTURE_RUN) -> Path:
    run = copied(tmp_path, source, name=run_id)
    edit_manifest(run, lambda m: m.update(run_id=run_id, started_utc="2026-01-02T00:00:00Z"))
    return run


def test_a_copy_of_a_run_under_another_id_is_refused_naming_both(tmp_path: Path):
    """Issue 47: a byte-identical copy of a committed run under a second id was accepted."""
    run = renamed(tmp_path)
    strict(run)  # the run agrees with itself: only the other runs show it is a copy
    with pytest.raises(DataError) as caught:
        run_checks.check_not_a_copy(load_run(run, SCHEMAS), SCHEMAS, [FIXTURE_RUN, run])
    assert str(caught.value) == (
        f"{run / 'manifest.json'}: run 20260102T0000Z-fixture-php8.2 is a copy of run {FIXTURE_RUN.name} under "
        f"another id: its 14 file(s) of timings are byte for byte {FIXTURE_RUN.name}'s (aead.csv: SHA-256 "
        f"{json.loads((FIXTURE_RUN / 'manifest.json').read_text())['seal']['files']['aead.csv']['sha256'][:12]}…), "
        "and two measurements never give the same samples"
    )
    run_checks.check_not_a_copy(load_run(run, SCHEMAS), SCHEMAS, [run])  # its own directory is not another run


def test_a_run_that_measured_again_is_no_copy_though_its_inventories_are_the_same(tmp_path: Path):
    """Tables without timings (the cipher inventory, the curve list) are the same from run to run: they do not
    make a copy. One sample of its own does make a run of its own."""
    run = renamed(tmp_path)
    path = run / "aead.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    elapsed = rows[0].index("elapsed_ns")
    rows[1][elapsed] = str(int(rows[1][elapsed]) + 1)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    reseal(run)
    run_checks.check_not_a_copy(load_run(run, SCHEMAS), SCHEMAS, [FIXTURE_RUN])


def test_no_committed_run_is_a_copy_of_another():
    """The committed runs share cipher inventories and curve lists byte for byte, never a file of timings."""
    directories = [*committed_run_dirs(), *(FIXTURE_RUN.parent.iterdir())]
    for run in (*committed_runs(), load_run(FIXTURE_RUN, SCHEMAS)):
        run_checks.check_not_a_copy(run, SCHEMAS, directories)
