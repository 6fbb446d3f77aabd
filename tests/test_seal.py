"""Sealed runs (issue 28): a run the runner finished records each file's rows and SHA-256, and the
build refuses it when a file no longer matches, in one line naming the file; only an explicit re-seal
(an upgrade on disk, or `python -m phpcb seal RUN --reason`) rewrites it, and says when and why."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

import phpcb
from phpcb.commands.main import main
from phpcb.data import run_checks, seal
from phpcb.data.loader import load_run
from phpcb.data.rewrite import manifest_text, reseal_on_disk, upgrade_on_disk
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


ROW_TEXTS = [
    "a,b\n",
    "a,b\n1,2\n3,4\n",
    "a,b\n1,2\n3,4",
    'a,b\n1,"x\ny"\n3,4\n',
    "",
    # A carriage return ends a line for Python's CSV reader, not for PHP's, which reads up to a line feed.
    "a,b\r1,2\r3,4\r",
    "a,b\n1,x\ry\n3,4\n",
    "a,b\r\n1,2\r\n",
    'a,b\n1,"x\ry"\r\n3,"4\r\n5"\n',
]
COUNT_EACH = "foreach (array_slice($argv, 1) as $path) { echo PhpCryptoBench\\Run\\RunSeal::rows($path), PHP_EOL; }"


@pytest.fixture(scope="module")
def rows_by_php(tmp_path_factory: pytest.TempPathFactory) -> dict[str, int]:
    """RunSeal::rows of each of ROW_TEXTS in a file of its own, all counted by one PHP process: a PHP per text
    started and loaded the runner's classes nine times to count a few bytes."""
    directory = tmp_path_factory.mktemp("rows")
    paths = [directory / f"{number}.csv" for number in range(len(ROW_TEXTS))]
    for path, text in zip(paths, ROW_TEXTS, strict=True):
        path.write_bytes(text.encode("utf-8"))
    php = subprocess.run(
        ["php", "-r", f"require '{ROOT}/runners/bootstrap.php'; {COUNT_EACH}", *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(zip(ROW_TEXTS, map(int, php.stdout.split()), strict=True))


@pytest.mark.parametrize("text", ROW_TEXTS, ids=repr)
def test_rows_are_counted_as_phps_fgetcsv_counts_them(tmp_path, rows_by_php, text):
    path = tmp_path / "t.csv"
    path.write_bytes(text.encode("utf-8"))
    assert seal.rows(path) == rows_by_php[text]


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
    with pytest.raises(DataError, match=r"the seal does not cover \['pitfalls_native.csv'\]") as caught:
        load_run(run, SCHEMAS)
    assert caught.value.path == run / "manifest.json"


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


def test_the_fixture_run_loads_with_its_seal_checked():
    assert load_run(FIXTURE_RUN, SCHEMAS).sealed, "the fixture run: run make upgrade-runs"


def test_every_committed_run_loads_with_its_seal_checked():
    # committed_runs(): loaded once per test process, for every module that reads the committed runs.
    # scripts/mutation.sh deselects it: every mutant of the seal's check would load all of them again.
    for loaded in committed_runs():
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
            sys.executable,
            "-m",
            "phpcb",
            "--root",
            str(project),
            "check",
        ],
        capture_output=True,
        text=True,
        # the phpcb under test: scripts/, or mutation.sh's copy of it (src/)
        env={**os.environ, "PYTHONPATH": str(Path(phpcb.__file__).resolve().parent.parent)},
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


# --- the seal's own checks, on a run of one file the build seals (no runner needed) ----------------------
LITTLE_CSV = b"case,elapsed_ns\nx,1\ny,2\n"


def little_run(directory: Path, schema_version: int = 9) -> Path:
    """A run of one experiment and one file (a.csv, 2 rows), sealed and written as the build writes it."""
    directory.mkdir(exist_ok=True)
    (directory / "a.csv").write_bytes(LITTLE_CSV)
    unsealed = {"schema_version": schema_version, "experiments": {"a": {"files": ["a.csv"]}}}
    (directory / "manifest.json").write_text(manifest_text(seal.sealed(unsealed, directory, manifest_text)))
    return directory


def verified(run: Path) -> dict[str, bytes]:
    return seal.verify(run, manifest(run), run / "manifest.json")


def test_the_seal_check_returns_the_bytes_it_checked(tmp_path):
    run = little_run(tmp_path / "run")
    assert verified(run) == {"a.csv": LITTLE_CSV}


SEALED_HASH = seal.sha256_of(LITTLE_CSV)[:12]


@pytest.mark.parametrize(
    ("data", "sealed_rows", "detail"),
    [
        (
            b"case,elapsed_ns\nx,9\ny,2\n",
            2,
            "does not match the run's seal: 2 rows (sealed 2), SHA-256 {found}… (sealed {sealed}…). A committed run "
            "does not change: restore the file from git (git checkout -- FILE). A correction made on purpose is "
            "re-sealed with make seal RUN=<dir> REASON=..., which refuses a run whose rows disagree with its manifest",
        ),
        (
            b"case,elapsed_ns\nx,1\n",
            2,
            "does not match the run's seal: 1 rows (sealed 2), SHA-256 {found}… (sealed {sealed}…): rows are missing "
            "(a cut or truncated copy); restore the file from git (git checkout -- FILE)",
        ),
        (
            LITTLE_CSV,
            3,
            "does not match the run's seal: 2 rows (sealed 3), SHA-256 {found}… (sealed {sealed}…): rows are missing "
            "(a cut or truncated copy); restore the file from git (git checkout -- FILE)",
        ),
        (
            LITTLE_CSV.replace(b"\n", b"\r\n"),
            2,
            "does not match the run's seal: 2 rows (sealed 2), SHA-256 {found}… (sealed {sealed}…): it has CRLF line "
            "endings, which the runner never writes; a checkout converted them (core.autocrlf). The repository's "
            ".gitattributes keeps data/runs/ byte-exact: check the files out again (rm -r data/runs && git checkout "
            "-- data/runs)",
        ),
    ],
    ids=["a value edited", "a row cut", "the seal's row count edited", "CRLF line endings"],
)
def test_a_file_that_differs_from_its_seal_is_refused_naming_found_and_sealed_rows_and_digests(
    tmp_path, data, sealed_rows, detail
):
    run = little_run(tmp_path / "run")
    (run / "a.csv").write_bytes(data)
    edited = manifest(run)
    edited["seal"]["files"]["a.csv"]["rows"] = sealed_rows
    with pytest.raises(DataError) as caught:
        seal.verify(run, edited, run / "manifest.json")
    assert caught.value.path == run / "a.csv"
    assert caught.value.detail == detail.format(found=seal.sha256_of(data)[:12], sealed=SEALED_HASH)


@pytest.mark.parametrize(
    ("data", "crlf"),
    [
        (LITTLE_CSV.replace(b"\n", b"\r\n"), True),
        (LITTLE_CSV + b"z,3\n", False),
        # a converted checkout has CRLF from its first line: one past the first MiB is an edit, told as one
        (b"case,elapsed_ns\n" + b"x,1\n" * (1 << 18) + b"y,2\r\n", False),
    ],
    ids=["CRLF throughout", "LF", "one CRLF past the first MiB"],
)
def test_the_advice_on_line_endings_is_the_same_from_the_bytes_or_from_the_file(tmp_path, data, crlf):
    path = tmp_path / "a.csv"
    path.write_bytes(data)
    expected = {"rows": 2, "sha256": seal.sha256_of(LITTLE_CSV)}
    from_bytes = seal.mismatch(path, seal.rows_of(data), seal.sha256_of(data), expected, data)
    from_file = seal.mismatch(path, seal.rows_of(data), seal.sha256_of(data), expected)
    assert from_file == from_bytes
    assert ("it has CRLF line endings" in from_file) == crlf


def test_the_advice_on_line_endings_is_drawn_from_the_bytes_given_even_when_the_file_is_gone(tmp_path):
    data = LITTLE_CSV.replace(b"\n", b"\r\n")
    expected = {"rows": 2, "sha256": seal.sha256_of(LITTLE_CSV)}
    message = seal.mismatch(tmp_path / "gone.csv", 2, seal.sha256_of(data), expected, data)
    assert "it has CRLF line endings" in message


def test_a_run_without_a_seal_is_refused_on_its_manifest_with_what_to_do(tmp_path):
    run = little_run(tmp_path / "run")
    unsealed = {key: value for key, value in manifest(run).items() if key != "seal"}
    with pytest.raises(DataError) as caught:
        seal.verify(run, unsealed, run / "manifest.json")
    assert caught.value.path == run / "manifest.json"
    assert caught.value.detail == (
        "no seal: a run of schema version 6 or later records each file's rows and SHA-256 when it finishes; "
        "re-measure it, or restore its manifest.json from git"
    )


def test_a_seal_that_names_a_file_no_experiment_lists_is_refused_on_the_manifest(tmp_path):
    run = little_run(tmp_path / "run")
    (run / "b.csv").write_bytes(LITTLE_CSV)
    edited = manifest(run)
    edited["seal"]["files"]["b.csv"] = edited["seal"]["files"]["a.csv"]
    with pytest.raises(DataError) as caught:
        seal.verify(run, edited, run / "manifest.json")
    assert caught.value.path == run / "manifest.json"
    assert caught.value.detail == "the seal names ['b.csv'], which no experiment lists: the manifest was edited"


def test_a_missing_file_is_named_as_missing(tmp_path):
    run = little_run(tmp_path / "run")
    (run / "a.csv").unlink()
    with pytest.raises(DataError) as caught:
        verified(run)
    assert caught.value.path == run / "a.csv"
    assert caught.value.detail == "file missing: the run's seal lists it"


def test_a_file_removed_between_its_check_and_its_read_is_named_as_missing(tmp_path, monkeypatch):
    run = little_run(tmp_path / "run")
    data = manifest(run)
    (run / "a.csv").unlink()
    monkeypatch.setattr(Path, "is_file", lambda self: True)  # it was there when looked for
    with pytest.raises(DataError) as caught:
        seal.verify(run, data, run / "manifest.json")
    assert caught.value.path == run / "a.csv"
    assert caught.value.detail == "file missing: the run's seal lists it"


MANIFEST_EDITED = (
    "the manifest does not match its seal: a field was edited (or the file rewritten) after the run was sealed. "
    "Restore it from git (git checkout -- FILE); a correction made on purpose is re-sealed with make seal "
    "RUN=<dir> REASON=..., which records why"
)


def test_the_manifest_is_checked_from_its_file_when_not_given_its_bytes(tmp_path):
    run = little_run(tmp_path / "run")
    data = manifest(run)
    seal.verify_manifest(data, run / "manifest.json")
    text = (run / "manifest.json").read_text(encoding="utf-8")
    (run / "manifest.json").write_text(text.replace('"a.csv"', '"a.csv" '), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        seal.verify_manifest(data, run / "manifest.json")
    assert caught.value.path == run / "manifest.json"
    assert caught.value.detail == MANIFEST_EDITED


def sealed_text(run: Path) -> tuple[bytes, bytes]:
    """The manifest's bytes before its seal member, and from it on (without the closing line)."""
    text = (run / "manifest.json").read_bytes()
    at = text.rfind(seal.SEAL_MEMBER)
    return text[:at], text[at:].removesuffix(b"\n}\n")


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda before, member: before + member + b',\n    "note": "added"\n}\n',
        # JSON's last value wins, in the first one's place: the schema version edited, the seal still last
        lambda before, member: before + member + b',\n    "schema_version": 8' + member + b"\n}\n",
    ],
    ids=["a member after the seal", "a member repeated after the seal"],
)
def test_a_manifest_with_members_after_its_seal_is_refused(tmp_path, rewrite):
    run = little_run(tmp_path / "run")
    text = rewrite(*sealed_text(run))
    (run / "manifest.json").write_bytes(text)
    with pytest.raises(DataError) as caught:
        seal.verify_manifest(json.loads(text), run / "manifest.json", text)
    assert caught.value.path == run / "manifest.json"
    assert caught.value.detail == MANIFEST_EDITED


@pytest.mark.parametrize("without", [lambda m: m["seal"].pop("manifest_sha256"), lambda m: m.pop("seal")])
def test_a_manifest_its_seal_does_not_cover_is_refused_with_what_to_do(tmp_path, without):
    run = little_run(tmp_path / "run")
    data = manifest(run)
    without(data)
    with pytest.raises(DataError) as caught:
        seal.verify_manifest(data, run / "manifest.json", (run / "manifest.json").read_bytes())
    assert caught.value.path == run / "manifest.json"
    assert caught.value.detail == (
        "the seal does not cover the manifest (no seal.manifest_sha256; schema version 9 on records it): "
        "re-measure the run, or restore manifest.json from git"
    )


@pytest.mark.parametrize("ending", ["}\r\n", "} \n", "}\t\n", "},\n"], ids=repr)
def test_a_manifest_text_not_closed_by_a_line_holding_only_a_brace_has_no_digest(ending):
    with pytest.raises(ValueError, match=r"^a manifest's JSON text ends with a line holding only '\}'$"):
        seal.digest_of_unsealed('{\n    "run_id": "x"\n' + ending)


@pytest.mark.parametrize(
    ("schema_version", "text", "covered"),
    [(9, manifest_text, True), (8, manifest_text, False), (9, None, False), (None, manifest_text, False)],
    ids=["schema 9", "schema 8", "no writer given", "no schema version"],
)
def test_the_seal_covers_the_manifest_from_schema_9_given_how_it_is_written(tmp_path, schema_version, text, covered):
    (tmp_path / "a.csv").write_bytes(LITTLE_CSV)
    unsealed = {"experiments": {"a": {"files": ["a.csv"]}}}
    if schema_version is not None:
        unsealed["schema_version"] = schema_version
    fresh = seal.sealed(unsealed, tmp_path, text)["seal"]
    assert fresh["files"] == {"a.csv": {"rows": 2, "sha256": seal.sha256_of(LITTLE_CSV)}}
    assert ("manifest_sha256" in fresh) == covered


def test_a_re_seal_keeps_the_history_and_records_when_and_why(tmp_path):
    run = little_run(tmp_path / "run")
    before = {"utc": "2026-01-01T00:00:00Z", "reason": "the first"}
    data = manifest(run)
    data["seal"]["resealed"] = [before]
    fresh = seal.resealed(data, run, "  the second \n", now=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    assert fresh["seal"]["resealed"] == [before, {"utc": "2026-01-02T03:04:05Z", "reason": "the second"}]
    assert data["seal"]["resealed"] == [before], "the manifest given is left as it was"


def test_a_re_seal_is_stamped_in_utc_whatever_the_machines_time_zone(tmp_path, monkeypatch):
    run = little_run(tmp_path / "run")
    monkeypatch.setenv("TZ", "ABC+05")  # five hours behind UTC, without tzdata
    time.tzset()
    try:
        start = datetime.now(UTC).replace(microsecond=0)
        stamp = seal.resealed(manifest(run), run, "a reason")["seal"]["resealed"][-1]["utc"]
        end = datetime.now(UTC)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert start <= datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC) <= end


def test_a_re_seal_without_a_reason_is_refused_on_the_run(tmp_path):
    run = little_run(tmp_path / "run")
    with pytest.raises(DataError) as caught:
        seal.resealed(manifest(run), run, " \n")
    assert caught.value.path == run
    assert caught.value.detail == "a re-seal needs a reason (what changed in the run, and why)"
