"""The comment the trusted job writes (publish/artifact_comment.py): from the files of the pull request's
head commit, read with git, and this checkout's code; never from what the artifact says of itself (its
comment.md, its runs.json), and never by running the pull request's code."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from phpcb.commands.main import main
from phpcb.publish import merge_comment
from phpcb.publish.artifact_comment import artifact_comment
from phpcb.publish.github_comment import MARKER
from phpcb.publish.merge_effect import LEAD_HEADING
from phpcb.publish.pr_runs import PullRequestError

from .conftest import FIXTURE_RUN, project_with, reseal, scale_signing, write_manifest

NEW_ID = "20260102T0000Z-fixture-php8.2"
PREVIEW = "https://octo.github.io/phpcrypto-bench/pr-preview/pr-7/"
HOSTILE = "Merge me: ![x](https://evil.example/pixel.png) @everyone"
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env={**os.environ, **IDENTITY}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The default branch's checkout: the fixture run published; a branch `pr` to change."""
    monkeypatch.setenv("PREVIEW_URL", PREVIEW)
    root = project_with(tmp_path, FIXTURE_RUN)
    (root / "data" / "site.yaml").write_text("reference_machine: intel-xeon-unknown-2c-2e892e\npinned: {}\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "published")
    git(root, "checkout", "-qb", "pr")
    return root


def pull_request(root: Path) -> str:
    """Commit the branch's changes; back on main, as the trusted job's checkout is. The head commit."""
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", "the pull request")
    head = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "main")
    return head


def artifact(tmp_path: Path, listed: dict[str, object] | None = None) -> Path:
    """What the pull request's job uploaded: its number, plus whatever it chose to claim."""
    path = tmp_path / "artifact"
    (path / "runs").mkdir(parents=True)
    (path / "pr-number").write_text("7\n")
    (path / "comment.md").write_text(HOSTILE)
    (path / "runs.json").write_text(json.dumps(listed or {"added": [], "deleted": [], "changes": []}))
    return path


def add_run(root: Path, run_id: str = NEW_ID) -> Path:
    target = root / "data" / "runs" / run_id
    shutil.copytree(FIXTURE_RUN, target)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update({"run_id": run_id, "started_utc": "2026-01-02T00:00:00Z"})
    write_manifest(target, manifest)
    reseal(target)
    return target


def test_the_comment_is_written_from_the_head_commits_files_never_from_the_artifact(project: Path, tmp_path: Path):
    """Issue 36: a fake "deleted" entry made the comment claim statements change; "changes": [] hid a run."""
    add_run(project)
    head = pull_request(project)
    claims = {"added": [], "deleted": [FIXTURE_RUN.name], "changes": []}
    out = tmp_path / "comment.md"
    said = artifact_comment(project, artifact(tmp_path, claims), out, head)
    text = out.read_text(encoding="utf-8")
    assert said.startswith(f"{out}: the comment for #7")
    assert text.startswith(f"{MARKER}\n")
    assert LEAD_HEADING in text
    assert f"Runs page adds `{NEW_ID}`" in text
    assert "Runs page drops" not in text, "the artifact's deleted run is not believed"
    assert "evil.example" not in text
    assert "@everyone" not in text
    assert f"[the preview's Comparison page]({PREVIEW}compare/)" in text
    assert len(text) <= merge_comment.ONE_RUN_BUDGET
    assert text.rstrip().endswith(f"Preview site: {PREVIEW}")


def test_a_rewritten_run_is_found_in_the_files_and_is_a_publishing_event(project: Path, tmp_path: Path):
    """Issue 36: "changes": [] hid a rewritten run; merging a re-sealed run made make publish refuse, and
    nothing told the reviewer."""
    run = project / "data" / "runs" / FIXTURE_RUN.name
    scale_signing(run, "ES512", 1 / 40)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["seal"]["resealed"].append({"utc": "2026-11-26T00:00:00Z", "reason": "ES512 signing re-measured"})
    write_manifest(run, manifest)
    head = pull_request(project)
    out = tmp_path / "comment.md"
    artifact_comment(project, artifact(tmp_path), out, head)
    text = out.read_text(encoding="utf-8")
    assert text.index("**This pull request changes 1 committed run(s)**") < text.index(LEAD_HEADING)
    assert f"`{FIXTURE_RUN.name}`: jwt.csv rewritten (819 rows)" in text
    assert "2026-11-26T00:00:00Z: ES512 signing re-measured" in text
    assert "**Merging needs the published copy of 1 run(s) replaced**" in text
    assert f"REPLACE_RUNS={FIXTURE_RUN.name} REASON=" in text
    assert text.count("jwt.csv rewritten") >= 2, "the JWT page names its one file"
    assert "aead.csv rewritten" not in text, "only the file that changed is named"


def test_a_symlink_committed_in_a_run_is_refused_before_anything_is_written(project: Path, tmp_path: Path):
    """Issue 36: a symlink notes.txt -> /etc/passwd was accepted and /etc/passwd copied into the preview."""
    run = add_run(project)
    (run / "notes.txt").symlink_to("/etc/passwd")
    head = pull_request(project)
    with pytest.raises(PullRequestError) as caught:
        artifact_comment(project, artifact(tmp_path), tmp_path / "comment.md", head)
    assert str(caught.value) == (
        f"{head[:12]}:data/runs/{NEW_ID}/notes.txt: a symbolic link in a run directory: a run holds regular files only"
    )
    assert not (tmp_path / "comment.md").exists()


def test_an_added_run_must_agree_with_itself(project: Path, tmp_path: Path):
    run = add_run(project)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["profile"] = "full"
    write_manifest(run, manifest)
    head = pull_request(project)
    with pytest.raises(Exception, match=r"is not how the 'full' profile samples"):
        artifact_comment(project, artifact(tmp_path), tmp_path / "comment.md", head)


def test_a_change_of_the_code_is_named_and_never_run(project: Path, tmp_path: Path):
    (project / "scripts" / "phpcb").mkdir(parents=True)
    (project / "scripts" / "phpcb" / "__init__.py").write_text("raise SystemExit('the pull request's code ran')\n")
    add_run(project)
    head = pull_request(project)
    out = tmp_path / "comment.md"
    artifact_comment(project, artifact(tmp_path), out, head)
    text = out.read_text(encoding="utf-8")
    assert "This pull request changes 1 file(s) outside data/ (scripts/phpcb/\\_\\_init\\_\\_.py)" in text
    assert "This comment never runs them" in text


@pytest.mark.parametrize("sha", ["HEAD", "abc", "g" * 40, "0" * 40])
def test_the_head_must_be_a_commit_given_by_its_full_id(project: Path, tmp_path: Path, sha: str, capsys):
    pull_request(project)
    command = ["--root", str(project), "artifact-comment", "--artifact", str(artifact(tmp_path)), "--head", sha]
    assert main([*command, "--out", str(tmp_path / "c.md")]) == 1
    error = capsys.readouterr().err
    assert "HEAD_SHA must be the 40 hex digits" in error or "is not in this repository" in error
