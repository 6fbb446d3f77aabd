"""A pull request that modifies, deletes or renames a committed run's files is flagged at the top of
its preview comment, with the files and the re-seal reasons the runs record (issue 28, item 2)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from phpcb.publish.pr_runs import RunChange, changed_runs, changed_runs_warning

RUN_A = "20260101T0000Z-a-php8.2"
RUN_B = "20260102T0000Z-b-php8.2"
RUN_NEW = "20260103T0000Z-c-php8.2"
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, env={**os.environ, **IDENTITY}, check=True, capture_output=True)


def write(root: Path, run_id: str, name: str, text: str) -> None:
    path = root / "data" / "runs" / run_id / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    for run_id in (RUN_A, RUN_B):
        write(tmp_path, run_id, "manifest.json", json.dumps({"seal": {"files": {}, "resealed": []}}))
        write(tmp_path, run_id, "aead.csv", "a,b\n1,2\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "published runs")
    git(tmp_path, "checkout", "-qb", "change")
    return tmp_path


def test_adding_a_run_changes_no_committed_run(repository: Path):
    write(repository, RUN_NEW, "manifest.json", "{}")
    git(repository, "add", "-A")
    git(repository, "commit", "-qm", "a new run")
    assert changed_runs(repository, "main") == []
    assert changed_runs_warning(repository / "data" / "runs", []) == ""


def test_modified_and_deleted_files_of_committed_runs_are_named_with_their_reseal(repository: Path):
    write(repository, RUN_A, "aead.csv", "a,b\n1,3\n")
    reseal = {"seal": {"files": {}, "resealed": [{"utc": "2026-11-25T00:00:00Z", "reason": "fixed a unit"}]}}
    write(repository, RUN_A, "manifest.json", json.dumps(reseal))
    (repository / "data" / "runs" / RUN_B / "aead.csv").unlink()
    git(repository, "add", "-A")
    git(repository, "commit", "-qm", "edit published runs")
    changes = changed_runs(repository, "main")
    assert changes == [
        RunChange("modified", f"data/runs/{RUN_A}/aead.csv", RUN_A),
        RunChange("modified", f"data/runs/{RUN_A}/manifest.json", RUN_A),
        RunChange("deleted", f"data/runs/{RUN_B}/aead.csv", RUN_B),
    ]
    warning = changed_runs_warning(repository / "data" / "runs", changes)
    assert warning.startswith("> [!WARNING]\n> **This pull request changes 2 committed run(s)**")
    assert f"> - `data/runs/{RUN_B}/aead.csv` (deleted)" in warning
    assert f"> `{RUN_A}` re-sealed: 2026-11-25T00:00:00Z: fixed a unit" in warning
    assert f"> `{RUN_B}`: deleted or never re-sealed" in warning


def test_a_renamed_run_counts_as_a_change_of_the_old_one(repository: Path):
    git(repository, "mv", f"data/runs/{RUN_B}", f"data/runs/{RUN_NEW}")
    git(repository, "commit", "-qm", "renamed")
    assert {change.run_id for change in changed_runs(repository, "main")} == {RUN_B}
