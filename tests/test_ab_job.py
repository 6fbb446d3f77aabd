"""`make ab` end to end (scripts/ab.sh): the base's runners in a git worktree and the head's take turns,
and the report compares them; under the fake clock both sides time the same, so nothing changes."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, copy_repository

pytestmark = pytest.mark.slow


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def test_two_rounds_of_the_same_code_change_nothing(tmp_path):
    repo = copy_repository(tmp_path / "repo", runs=())
    # Pitfalls reads no test vectors: without their 8 MB, the copy, its commit and the base's worktree cost less.
    shutil.rmtree(repo / "vectors")
    git(repo, "init", "-q")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "base")
    env = {**os.environ, "PHPCB_AB_RUNNER_ARGS": "--fake-clock", "PYTHON": sys.executable, "PHPCB_HOST_ID": "ab-test"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    result = subprocess.run(
        ["bash", "scripts/ab.sh", "HEAD", "2", "quick", "pitfalls", "out"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = (repo / "out" / "report.md").read_text(encoding="utf-8")
    assert result.stdout == report
    assert "2 rounds on one machine" in report
    assert "**No class or case changed beyond 2 % and the noise of the rounds.**" in report
    # By round and side, not by the whole name: the names start with their start minute, and round 2
    # runs head before base (ABBA), so a minute that turns between them reorders the full names.
    runs = sorted(path.name.split("-ab-")[1] for path in (repo / "out" / "runs").iterdir())
    assert runs == [
        "r1-base-php8.2",
        "r1-head-php8.2",
        "r2-base-php8.2",
        "r2-head-php8.2",
    ]
    order = [line for line in result.stderr.splitlines() if line.startswith("[ab] round")]
    assert [line.split(": ")[1].split(" ")[0] for line in order] == ["base", "head", "head", "base"], "ABBA"
    assert len(git(repo, "worktree", "list").splitlines()) == 1, "the base's worktree is removed"
    assert (repo / "out" / "report.json").is_file()


def test_a_base_that_is_no_commit_is_refused_in_one_line(tmp_path):
    # The refusal comes first, from git in the working directory: an empty repository, not a copy of this one.
    git(tmp_path, "init", "-q")
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "ab.sh"), "no-such-ref"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr == "error: BASE 'no-such-ref' is not a commit of this repository\n"
