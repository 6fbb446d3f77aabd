"""Sealed runs (issue 28): a run the runner finished records each file's rows and SHA-256, and the
build refuses it when a file no longer matches, in one line naming the file; only an explicit re-seal
(an upgrade on disk, or `python -m phpcb seal RUN --reason`) rewrites it, and says when and why."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from phpcb.commands.main import main
from phpcb.data import run_checks, seal
from phpcb.data.loader import load_run
from phpcb.data.rewrite import reseal_on_disk, upgrade_on_disk
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError

from .conftest import FIXTURE_RUN, ROOT, V4_RUN, committed_runs, reseal

SCHEMAS = load_schemas(ROOT / "data" / "schema")


@pytest.fixture(scope="module")
def sealed_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run the runner finished (pitfalls under the fake clock: seconds), sealed as it finished, in the
    directory the runner names it (its manifest agrees with its id: run_checks.py)."""
    out = tmp_path_factory.mktemp("sealed") / "run"
    result = subprocess.run(
        ["php", str(ROOT / "runners" / "bench.php"), "run", "--fake-clock", "--only", "pitfalls", "--out", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, "PHPCB_HOST_ID": "sealed"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    data = manifest(out)
    data["run_id"] = run_checks.expected_run_id(data)
    (out / "manifest.json").write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")
    reseal(out)  # the id is the manifest's: sealed with it, as the runner seals a run in its own directory
    return out.rename(out.with_name(data["run_id"]))


@pytest.fixture
def run(sealed_run: Path, tmp_path: Path) -> Path:
    copy = tmp_path / sealed_run.name
    shutil.copytree(sealed_run, copy)
    return copy


def manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text(encoding="utf-8"))


def test_the_runner_seals_what_the_build_counts(sealed_run):
    files = manifest(sealed_run)["seal"]["files"]
    assert set(files) == {"pitfalls.csv", "pitfalls_native.csv"}
    for name, entry in files.items():
        assert entry == {"rows": seal.rows(sealed_run / name), "sha256": seal.sha256(sealed_run / name)}
    loaded = load_run(sealed_run, SCHEMAS)
    assert loaded.sealed


@pytest.mark.parametrize("text", ["a,b\n", "a,b\n1,2\n3,4\n", "a,b\n1,2\n3,4", 'a,b\n1,"x\ny"\n3,4\n', ""], ids=repr)
def test_rows_are_counted_as_phps_fgetcsv_counts_them(tmp_path, text):
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    php = subprocess.run(
        [
            "php",
            "-r",
            f"require '{ROOT}/runners/bootstrap.php'; echo PhpCryptoBench\\Run\\RunSeal::rows($argv[1]);",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert seal.rows(path) == int(php.stdout)


def scale_times(path: Path, factor: float) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    at = header.index("elapsed_ns")
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        cells[at] = str(round(int(cells[at]) * factor))
        out.append(",".join(cells))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def cut_at_a_line(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[: len(lines) // 3]), encoding="utf-8")


def cut_mid_line(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 7])


def latin1(path: Path) -> None:
    data = path.read_bytes()
    assert b"object" in data
    path.write_bytes(data.replace(b"object", b"obj\xe9ct", 1))


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        (lambda run: scale_times(run / "pitfalls.csv", 0.3), "rows (sealed"),
        (lambda run: cut_at_a_line(run / "pitfalls.csv"), "rows (sealed"),
        (lambda run: cut_mid_line(run / "pitfalls.csv"), "does not match the run's seal"),
        (lambda run: latin1(run / "pitfalls.csv"), "does not match the run's seal"),
    ],
    ids=["times scaled", "cut at a line break", "cut in a line", "a Latin-1 byte"],
)
def test_an_edited_file_is_refused_in_one_line_naming_it(run, tamper, expected):
    sealed_rows = manifest(run)["seal"]["files"]["pitfalls.csv"]["rows"]
    tamper(run)
    with pytest.raises(DataError) as caught:
        load_run(run, SCHEMAS)
    assert caught.value.path == run / "pitfalls.csv"
    assert expected in str(caught.value)
    assert f"(sealed {sealed_rows:,})" in str(caught.value)
    assert "\n" not in str(caught.value)
    assert "restore the file from git (git checkout -- FILE)" in str(caught.value)


def test_a_deleted_file_or_an_edited_seal_is_refused(run):
    (run / "pitfalls_native.csv").unlink()
    with pytest.raises(DataError, match="file missing: the run's seal lists it"):
        load_run(run, SCHEMAS)


def test_a_seal_that_does_not_cover_a_listed_file_is_refused(run):
    data = manifest(run)
    del data["seal"]["files"]["pitfalls_native.csv"]
    (run / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataError, match=r"the seal does not cover \['pitfalls_native.csv'\]"):
        load_run(run, SCHEMAS)


def test_a_current_run_without_a_seal_is_refused(run):
    data = manifest(run)
    del data["seal"]
    (run / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataError, match="no seal"):
        load_run(run, SCHEMAS)


def test_an_explicit_reseal_records_why_and_the_run_loads_again(run, capsys):
    scale_times(run / "pitfalls.csv", 2.0)
    with pytest.raises(DataError):
        load_run(run, SCHEMAS)
    assert main(["--root", str(ROOT), "seal", str(run), "--reason", "times doubled for a test"]) == 0
    assert "re-sealed 2 files (times doubled for a test)" in capsys.readouterr().out
    resealed = manifest(run)["seal"]["resealed"]
    assert [entry["reason"] for entry in resealed] == ["times doubled for a test"]
    assert load_run(run, SCHEMAS).sealed
    with pytest.raises(DataError, match="a re-seal needs a reason"):
        reseal_on_disk(run, SCHEMAS, "  ")


def test_an_old_run_is_read_unsealed_and_sealed_by_its_upgrade_on_disk(tmp_path):
    old = tmp_path / V4_RUN.name
    shutil.copytree(V4_RUN, old)
    assert not load_run(old, SCHEMAS).sealed
    version = upgrade_on_disk(old, SCHEMAS)
    assert version == 4
    upgraded = manifest(old)
    assert upgraded["schema_version"] == SCHEMAS.version
    assert upgraded["seal"]["resealed"][0]["reason"] == (
        f"upgraded on disk from schema version 4 to {SCHEMAS.version}; machine named by its identity "
        f"({upgraded['machine']['identity_source']}): {upgraded['machine']['name']}"
    )
    assert load_run(old, SCHEMAS).sealed


@pytest.mark.parametrize(
    "edit",
    [
        lambda m: m["machine"].update(name="amd-epyc-zen3-2c-000000"),
        lambda m: m["stack"].update(name="debian13"),
        lambda m: m.update(run_id=m["run_id"]),  # rewritten with another layout, same values: bytes differ
        lambda m: m["cpu"].update(mhz=2450.0),
        lambda m: m.update(git_commit="0" * 40),
    ],
    ids=["machine name", "stack", "layout", "cpu clock", "runner commit"],
)
def test_a_manifest_edited_without_a_re_seal_does_not_build(run, edit):
    """Issue 47: the seal covers the manifest, every field but the seal itself (its re-seal history): a committed
    run's hardware, stack and run id fields were edited without re-sealing, and nothing said so."""
    data = manifest(run)
    edit(data)
    (run / "manifest.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    with pytest.raises(
        DataError, match="the manifest does not match its seal: a field was edited \\(or the file rewritten\\)"
    ) as caught:
        load_run(run, SCHEMAS)
    assert caught.value.path == run / "manifest.json"


def test_a_re_seal_covers_the_manifest_again_and_records_why(run):
    data = manifest(run)
    data["cpu"]["mhz"] = 2450.0
    (run / "manifest.json").write_text(json.dumps(data, indent=4) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="does not match its seal"):
        load_run(run, SCHEMAS)
    reseal_on_disk(run, SCHEMAS, "cpu.mhz corrected: the test's own copy")
    resealed = manifest(run)
    assert resealed["seal"]["resealed"][-1]["reason"] == "cpu.mhz corrected: the test's own copy"
    assert load_run(run, SCHEMAS).manifest["cpu"]["mhz"] == 2450.0
    # the history is the one part of the manifest the seal leaves out: it records the re-seal itself
    resealed["seal"]["resealed"].append({"utc": "2026-01-01T00:00:00Z", "reason": "another note"})
    (run / "manifest.json").write_text(json.dumps(resealed, indent=4) + "\n", encoding="utf-8")
    load_run(run, SCHEMAS)


def test_the_runner_and_the_build_seal_the_manifest_alike(sealed_run):
    """The runner's digest (RunSeal::manifestDigest, over PHP's JSON) is the one the build computes over the
    bytes before the seal; a manifest the build rewrites (json.dumps) is sealed the same way."""
    text = (sealed_run / "manifest.json").read_bytes()
    before_seal = text[: text.rfind(seal.SEAL_MEMBER)]
    assert manifest(sealed_run)["seal"]["manifest_sha256"] == hashlib.sha256(before_seal).hexdigest()
    assert before_seal.endswith(b"}")
    assert b'"seal"' not in before_seal[-200:]


def test_the_fixture_and_every_committed_run_load_with_their_seal_checked():
    # committed_runs(): loaded once per test process, for every module that reads the committed runs.
    for loaded in [load_run(FIXTURE_RUN, SCHEMAS), *committed_runs()]:
        assert loaded.sealed, f"{loaded.run_id}: run make upgrade-runs"


def test_the_command_line_prints_one_line_for_an_edited_run(run, tmp_path):
    project = tmp_path / "project"
    for name in ("schema", "policy", "reference"):
        shutil.copytree(ROOT / "data" / name, project / "data" / name)
    shutil.copytree(ROOT / "templates", project / "templates")
    shutil.copytree(run, project / "data" / "runs" / run.name)
    scale_times(project / "data" / "runs" / run.name / "pitfalls.csv", 0.5)
    result = subprocess.run(
        [
            str(Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin" / "python"),
            "-m",
            "phpcb",
            "--root",
            str(project),
            "check",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "scripts")},
        check=False,
    )
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {project}/data/runs/{run.name}/pitfalls.csv: does not match the run's seal")


def test_a_cut_file_is_told_to_be_restored_and_cannot_be_resealed(run, capsys):
    """Issue 36: the seal error's advice ("re-seal") let a truncated run through. A cut file is told to be
    restored, and a re-seal of it is refused: its cases are fewer than its sampling records."""
    before = (run / "manifest.json").read_bytes()
    lines = (run / "pitfalls.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (run / "pitfalls.csv").write_text("".join(lines[: len(lines) // 4]), encoding="utf-8")  # cases lost
    with pytest.raises(DataError) as caught:
        load_run(run, SCHEMAS)
    assert "rows are missing (a cut or truncated copy); restore the file from git" in str(caught.value)
    assert "seal" not in str(caught.value).split("restore", 1)[1], "no advice to re-seal a cut file"
    assert main(["--root", str(ROOT), "seal", str(run), "--reason", "trimmed"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"error: {run / 'pitfalls.csv'}: experiments.pitfalls: pitfalls.csv hold ")
    assert "but its sampling records 12" in error
    assert (run / "manifest.json").read_bytes() == before, "the refused re-seal left the manifest as it was"


def test_crlf_line_endings_are_named_with_what_to_do(run):
    """Issue 36: a checkout with core.autocrlf=true turned every CSV into CRLF, and the seal refused the
    run without saying why."""
    path = run / "pitfalls.csv"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    with pytest.raises(DataError) as caught:
        load_run(run, SCHEMAS)
    assert caught.value.path == path
    assert "it has CRLF line endings, which the runner never writes" in str(caught.value)
    assert "rm -r data/runs && git checkout -- data/runs" in str(caught.value)


def test_the_repository_keeps_run_files_byte_exact_in_any_checkout(tmp_path):
    """.gitattributes: a clone with core.autocrlf=true checks out every run file as committed."""
    for name in ("data/runs/x/aead.csv", "data/runs/x/manifest.json", "tests/fixtures/runs/x/jwt.csv"):
        checked = subprocess.run(
            ["git", "check-attr", "text", "--", name], cwd=ROOT, capture_output=True, text=True, check=True
        )
        assert checked.stdout.strip() == f"{name}: text: unset", checked.stdout
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "-c", "core.autocrlf=true", "clone", "-q", "--no-checkout", str(ROOT), str(clone)], check=True
    )
    subprocess.run(["git", "-C", str(clone), "config", "core.autocrlf", "true"], check=True)
    for path in (".gitattributes", "tests/fixtures/runs"):  # the attributes first: checkout reads them
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", "HEAD", "--", path], check=True)
    fixture = clone / "tests" / "fixtures" / "runs" / FIXTURE_RUN.name
    assert (fixture / "jwt.csv").read_bytes() == (FIXTURE_RUN / "jwt.csv").read_bytes()
    assert load_run(fixture, SCHEMAS).sealed
