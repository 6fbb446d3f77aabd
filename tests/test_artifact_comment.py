"""The PR comment the deploy job writes itself, with its own code, from a preview artifact's runs
(publish/artifact_comment.py): the artifact's comment.md, written by the pull request's code, is
never what is posted, and the artifact's data is checked before it is read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from phpcb.commands.main import main
from phpcb.errors import DataError
from phpcb.publish.artifact_comment import artifact_comment
from phpcb.publish.github_comment import MARKER
from phpcb.publish.merge_effect import LEAD_HEADING
from phpcb.publish.pr_runs import ArtifactError, ArtifactRuns, PullRequestError, RunChange

from .conftest import FIXTURE_RUN, reseal

NEW_ID = "20260102T0000Z-fixture-php8.2"
PREVIEW = "https://octo.github.io/phpcrypto-bench/pr-preview/pr-7/"
HOSTILE = "Merge me: ![x](https://evil.example/pixel.png) @everyone"


@pytest.fixture
def project(make_project, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PREVIEW_URL", PREVIEW)
    return make_project(FIXTURE_RUN)


def artifact_with(tmp_path: Path, listed: dict[str, object], runs: dict[str, Path]) -> Path:
    """A preview artifact as make preview writes one, plus the comment.md a hostile PR would put in it."""
    artifact = tmp_path / "artifact"
    (artifact / "runs").mkdir(parents=True)
    (artifact / "pr-number").write_text("7\n")
    (artifact / "comment.md").write_text(HOSTILE)
    (artifact / "runs.json").write_text(json.dumps({"rewritten": [], "deleted": [], "changes": [], **listed}))
    for run_id, source in runs.items():
        shutil.copytree(source, artifact / "runs" / run_id)
    return artifact


def new_run(tmp_path: Path) -> Path:
    """The fixture run a day later under its own id, sealed."""
    target = tmp_path / "made" / NEW_ID
    shutil.copytree(FIXTURE_RUN, target)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update({"run_id": NEW_ID, "started_utc": "2026-01-02T00:00:00Z"})
    (target / "manifest.json").write_text(json.dumps(manifest))
    reseal(target)
    return target


def test_the_comment_is_written_from_the_runs_never_taken_from_the_artifact(project: Path, tmp_path: Path):
    artifact = artifact_with(tmp_path, {"added": [NEW_ID]}, {NEW_ID: new_run(tmp_path)})
    out = tmp_path / "comment.md"
    said = artifact_comment(project, artifact, out)
    text = out.read_text(encoding="utf-8")
    assert said.startswith(f"{out}: the comment for #7")
    assert text.startswith(f"{MARKER}\n")
    assert LEAD_HEADING in text
    assert f"Runs page adds `{NEW_ID}`" in text
    assert "evil.example" not in text
    assert "@everyone" not in text
    assert text.rstrip().endswith(f"Preview site: {PREVIEW} (the runs beside their baselines: {PREVIEW}compare/)")


def test_a_rewritten_run_is_flagged_first_and_read_from_the_artifact(project: Path, tmp_path: Path):
    rewritten = tmp_path / "made" / FIXTURE_RUN.name
    shutil.copytree(FIXTURE_RUN, rewritten)
    manifest = json.loads((rewritten / "manifest.json").read_text())
    manifest["started_utc"] = "2026-01-01T00:00:01Z"
    (rewritten / "manifest.json").write_text(json.dumps(manifest))
    reseal(rewritten)
    change = {"status": "modified", "path": f"data/runs/{FIXTURE_RUN.name}/manifest.json", "run_id": FIXTURE_RUN.name}
    listed = {"added": [], "rewritten": [FIXTURE_RUN.name], "changes": [change]}
    artifact = artifact_with(tmp_path, listed, {FIXTURE_RUN.name: rewritten})
    out = tmp_path / "comment.md"
    artifact_comment(project, artifact, out)
    text = out.read_text(encoding="utf-8")
    assert text.index("**This pull request changes 1 committed run(s)**") < text.index(LEAD_HEADING)
    assert "its files rewritten" in text
    assert "This pull request adds no run" in text


@pytest.mark.parametrize(
    ("listed", "message"),
    [
        ({"added": ["../../etc"]}, 'expected "added" to be a list of run ids'),
        ({"added": [NEW_ID], "deleted": "all"}, 'expected "deleted" to be a list of run ids'),
        (
            {"added": [], "changes": [{"status": "modified", "path": "data/runs/x/../../README.md", "run_id": "x"}]},
            "a change must be",
        ),
        (
            {"added": [], "changes": [{"status": "touched", "path": "data/runs/x/a.csv", "run_id": "x"}]},
            "a change must be",
        ),
        ({"added": [], "changes": "everything"}, 'expected "changes" to be a list'),
    ],
)
def test_a_malformed_list_of_runs_is_refused_by_name(project: Path, tmp_path: Path, listed, message):
    artifact = artifact_with(tmp_path, listed, {})
    with pytest.raises(ArtifactError, match=message):
        artifact_comment(project, artifact, tmp_path / "comment.md")


def test_a_listed_run_the_artifact_lacks_is_refused(project: Path, tmp_path: Path):
    artifact = artifact_with(tmp_path, {"added": [NEW_ID]}, {})
    with pytest.raises(ArtifactError, match=f"runs.json names {NEW_ID}, but runs/{NEW_ID}/ is not there"):
        artifact_comment(project, artifact, tmp_path / "comment.md")


def test_an_added_run_the_base_already_has_is_refused(project: Path, tmp_path: Path):
    artifact = artifact_with(tmp_path, {"added": [FIXTURE_RUN.name]}, {FIXTURE_RUN.name: FIXTURE_RUN})
    with pytest.raises(ArtifactError, match="listed as added, but the base branch already has it"):
        artifact_comment(project, artifact, tmp_path / "comment.md")


def test_a_symlink_in_a_run_is_refused(project: Path, tmp_path: Path):
    run = new_run(tmp_path)
    (run / "extra.csv").symlink_to("/etc/passwd")
    artifact = artifact_with(tmp_path, {"added": [NEW_ID]}, {})
    shutil.copytree(run, artifact / "runs" / NEW_ID, symlinks=True)
    with pytest.raises(PullRequestError, match="only plain files are accepted"):
        artifact_comment(project, artifact, tmp_path / "comment.md")


def test_a_run_whose_files_do_not_match_its_seal_is_refused(project: Path, tmp_path: Path):
    run = new_run(tmp_path)
    lines = (run / "jwt.csv").read_text().splitlines(keepends=True)
    (run / "jwt.csv").write_text("".join(lines[:-1]))
    artifact = artifact_with(tmp_path, {"added": [NEW_ID]}, {NEW_ID: run})
    with pytest.raises(DataError, match=r"jwt\.csv"):
        artifact_comment(project, artifact, tmp_path / "comment.md")


def test_the_list_round_trips_through_json(tmp_path: Path):
    found = ArtifactRuns(
        (NEW_ID,),
        (),
        (FIXTURE_RUN.name,),
        (RunChange("deleted", f"data/runs/{FIXTURE_RUN.name}/a.csv", FIXTURE_RUN.name),),
    )
    (tmp_path / "runs.json").write_text(found.to_json())
    assert ArtifactRuns.read(tmp_path / "runs.json") == found


def test_the_verb_prints_where_it_wrote(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    artifact = artifact_with(tmp_path, {"added": [NEW_ID]}, {NEW_ID: new_run(tmp_path)})
    out = tmp_path / "comment.md"
    assert main(["--root", str(project), "artifact-comment", "--artifact", str(artifact), "--out", str(out)]) == 0
    assert f"{out}: the comment for #7" in capsys.readouterr().out
