"""`make publish VERSION=x.y`'s parts without a site build: the runs' files to gh-pages' shared runs/ once
(sealed bytes, refusals, replacements on record), a failed mike deploy taken back, the reserved version names.
The whole `make publish` is checked in tests/test_preview_flow.py, whose flow publishes two versions."""

import gzip
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from phpcb.data import seal
from phpcb.presentation import downloads
from phpcb.publish import ghpages

from .conftest import (
    FIXTURE_RUN,
    scale_signing,
)

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "phpcrypto-bench tests",
    "GIT_AUTHOR_EMAIL": "tests@invalid",
    "GIT_COMMITTER_NAME": "phpcrypto-bench tests",
    "GIT_COMMITTER_EMAIL": "tests@invalid",
}


# `make publish VERSION=0.1` end to end (refused without VERSION and over uncommitted files; mike's version,
# its `latest` alias, site_url per version, the runs' files once in the shared runs/) is checked in
# tests/test_preview_flow.py, on the first version its flow publishes anyway: a site build fewer.


# --- publish_runs: the shared runs/, without a site build ------------------------------------------


@pytest.fixture
def repo(tmp_path, monkeypatch) -> ghpages.Git:
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)
    path = tmp_path / "repo"
    path.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    subprocess.run(["git", "-C", str(path), "commit", "-q", "--allow-empty", "-m", "start"], check=True)
    return ghpages.Git(path)


def shared_copy(runs: Path, run: Path = FIXTURE_RUN) -> Path:
    """A run as `python -m phpcb pages --shared-runs` writes it beside the site."""
    target = runs / run.name
    target.mkdir(parents=True)
    shutil.copyfile(run / "manifest.json", target / "manifest.json")
    for name in seal.listed_files(json.loads((run / "manifest.json").read_text())):
        (target / f"{name}.gz").write_bytes(downloads.compress((run / name).read_bytes()))
    (target / "datapackage.json").write_text("{}\n")
    return runs


def branch_files(git: ghpages.Git) -> dict[str, str]:
    return dict(reversed(line.split("\t", 1)) for line in git.run("ls-tree", "-r", ghpages.BRANCH).stdout.splitlines())


def test_a_run_is_added_to_the_shared_runs_once_and_its_copy_decompresses_to_the_sealed_bytes(repo, tmp_path):
    source = shared_copy(tmp_path / "build-runs")
    assert ghpages.publish_runs(repo, source) == [FIXTURE_RUN.name]
    files = branch_files(repo)
    sealed = json.loads((FIXTURE_RUN / "manifest.json").read_text())["seal"]["files"]
    for name, entry in sealed.items():
        blob = files[f"runs/{FIXTURE_RUN.name}/{name}.gz"].split()[2]
        assert hashlib.sha256(gzip.decompress(repo.blob(blob))).hexdigest() == entry["sha256"], name
    head = repo.head_of(ghpages.REF)
    assert ghpages.publish_runs(repo, source) == [], "a run already there is skipped"
    assert repo.head_of(ghpages.REF) == head, "and nothing is committed"


def test_a_shared_copy_that_differs_from_the_seal_is_refused(repo, tmp_path):
    source = shared_copy(tmp_path / "build-runs")
    ghpages.publish_runs(repo, source)
    tampered = tmp_path / "tampered.gz"
    tampered.write_bytes(downloads.compress((FIXTURE_RUN / "aead.csv").read_bytes() + b"extra\n"))
    ghpages._commit_files(repo, {f"runs/{FIXTURE_RUN.name}/aead.csv.gz": tampered}, "someone edits a run")
    with pytest.raises(ghpages.GhPagesError, match=r"gh-pages:runs/.+/aead\.csv\.gz: SHA-256 \w+… is not the sealed"):
        ghpages.publish_runs(repo, source)
    (tmp_path / "manifest.json").write_text("{}\n")
    ghpages._commit_files(
        repo, {f"runs/{FIXTURE_RUN.name}/manifest.json": tmp_path / "manifest.json"}, "and its manifest"
    )
    with pytest.raises(ghpages.GhPagesError, match=r"manifest.json is not this run's manifest.+re-sealed on purpose"):
        ghpages.publish_runs(repo, source)
    assert repo.run("rev-list", "--count", ghpages.BRANCH).stdout.strip() == "3", "nothing more committed"


def test_a_build_copy_that_differs_from_the_seal_is_not_published(repo, tmp_path):
    source = shared_copy(tmp_path / "build-runs")
    (source / FIXTURE_RUN.name / "jwt.csv.gz").write_bytes(downloads.compress(b"not the run\n"))
    with pytest.raises(
        ghpages.GhPagesError, match=r"jwt\.csv\.gz: SHA-256 .+ the build's copy of the run does not match"
    ):
        ghpages.publish_runs(repo, source)
    assert repo.head_of(ghpages.REF) is None, "nothing committed"


def test_when_mike_fails_the_runs_commit_before_it_is_taken_back(repo, tmp_path):
    """Nothing half-done on the branch: the shared runs are committed with the version or not at all."""
    source = shared_copy(tmp_path / "build-runs")
    with pytest.raises(ghpages.GhPagesError, match=r"mike deploy failed"):
        ghpages.publish(repo, "0.1", "mkdocs.yml", ["false"], force=True, shared_runs=source)
    assert repo.head_of(ghpages.REF) is None


@pytest.mark.parametrize("version", ["runs", "pr-preview", "latest"])
def test_a_version_cannot_take_the_name_of_the_shared_runs_or_previews(repo, version):
    with pytest.raises(ghpages.GhPagesError, match="VERSION must look like"):
        ghpages.resolve_version(repo, version)


def test_a_resealed_run_replaces_its_published_copy_only_when_asked_and_on_record(repo, tmp_path):
    """Issue 36: merging a re-sealed run made make publish refuse until someone deleted runs/<id>/ from
    gh-pages by hand. REPLACE_RUNS=<id> REASON=... replaces it; the older versions' Runs pages say so."""
    ghpages.publish_runs(repo, shared_copy(tmp_path / "first"))
    anchor = "run-" + FIXTURE_RUN.name.lower().replace(".", "-")
    page = tmp_path / "runs-page.html"
    page.write_text(f'<article><h2 id="{anchor}">{FIXTURE_RUN.name}</h2><p>its files</p></article>\n')
    ghpages._commit_files(repo, {"0.1/runs/index.html": page}, "an older version")
    resealed = tmp_path / "resealed" / FIXTURE_RUN.name
    shutil.copytree(FIXTURE_RUN, resealed)
    scale_signing(resealed, "ES512", 0.5)
    source = shared_copy(tmp_path / "second", resealed)

    with pytest.raises(ghpages.GhPagesError, match=rf"publish with REPLACE_RUNS={FIXTURE_RUN.name} REASON="):
        ghpages.publish_runs(repo, source)
    assert ghpages.publish_runs(repo, source, {FIXTURE_RUN.name: "ES512 re-measured"}) == [FIXTURE_RUN.name]

    files = branch_files(repo)
    blob = files[f"runs/{FIXTURE_RUN.name}/jwt.csv.gz"].split()[2]
    sealed = json.loads((resealed / "manifest.json").read_text())["seal"]["files"]["jwt.csv"]["sha256"]
    assert hashlib.sha256(gzip.decompress(repo.blob(blob))).hexdigest() == sealed, "the new copy"
    record = json.loads(repo.run("show", f"{ghpages.BRANCH}:runs/replaced.json").stdout)
    assert [(r["run_id"], r["reason"]) for r in record] == [(FIXTURE_RUN.name, "ES512 re-measured")]
    older = repo.run("show", f"{ghpages.BRANCH}:0.1/runs/index.html").stdout
    assert older.index(f"{FIXTURE_RUN.name}</h2>") < older.index("Files replaced") < older.index("its files")
    assert "ES512 re-measured. Its links give the new copy." in older
    message = repo.run("log", "-1", "--format=%s", ghpages.BRANCH).stdout
    assert f"replaced on purpose: {FIXTURE_RUN.name} (ES512 re-measured)" in message

    with pytest.raises(ghpages.GhPagesError, match="whose published copy is this run already"):
        ghpages.publish_runs(repo, source, {FIXTURE_RUN.name: "again"})
    with pytest.raises(ghpages.GhPagesError, match="which this build does not publish"):
        ghpages.publish_runs(repo, source, {"20990101T0000Z-nowhere-php8.2": "typo"})
