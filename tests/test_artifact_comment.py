"""The comment the trusted job writes (publish/artifact_comment.py): from the files of the pull request's
head commit, read with git, and this checkout's code; never from what the artifact says of itself (its
comment.md, its runs.json), and never by running the pull request's code."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import pytest

from phpcb.commands.main import main
from phpcb.compare.load import LOADED_SHARE, LoadedExperiment, loaded
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError
from phpcb.presentation.formatting import percent
from phpcb.publish import merge_comment
from phpcb.publish.artifact_comment import artifact_comment
from phpcb.publish.github_comment import MARKER
from phpcb.publish.merge_effect import LEAD_HEADING
from phpcb.publish.pr_runs import PullRequestError

from .conftest import FIXTURE_RUN, ROOT, project_with, reseal, scale_signing, write_manifest

NEW_ID = "20260102T0000Z-fixture-php8.2"
PREVIEW = "https://octo.github.io/phpcrypto-bench/pr-preview/pr-7/"
HOSTILE = "Merge me: ![x](https://evil.example/pixel.png) @everyone"
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
# This job's builds of identical files (the default branch's, in most tests) are made once (conftest's shared_builds).
pytestmark = pytest.mark.usefixtures("shared_builds")


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env={**os.environ, **IDENTITY}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def published(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The default branch's checkout: the fixture run published; a branch `pr` to change."""
    monkeypatch.setenv("PREVIEW_URL", PREVIEW)
    root = project_with(tmp_path, FIXTURE_RUN)
    (root / "data" / "site.yaml").write_text("reference_machine: intel-xeon-unknown-2c-2e892e\npinned: {}\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "published")
    git(root, "checkout", "-qb", "pr")
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return published(tmp_path, monkeypatch)


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
    """The fixture run measured again a day later: one sample of its jwt.csv a nanosecond longer (a byte
    for byte copy of a committed run is refused: run_checks.check_not_a_copy)."""
    target = root / "data" / "runs" / run_id
    shutil.copytree(FIXTURE_RUN, target)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update({"run_id": run_id, "started_utc": "2026-01-02T00:00:00Z"})
    write_manifest(target, manifest)
    one_sample_longer(target)
    return target


def one_sample_longer(run: Path, name: str = "jwt.csv") -> None:
    """The first sample of `name` one nanosecond longer, the run re-sealed: files of timings of their own."""
    rows = list(csv.reader(io.StringIO((run / name).read_text(encoding="utf-8"))))
    elapsed = rows[0].index("elapsed_ns")
    rows[1][elapsed] = str(int(rows[1][elapsed]) + 1)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    (run / name).write_text(out.getvalue(), encoding="utf-8")
    reseal(run)


def recorded_run_measured_busy(root: Path) -> tuple[dict[str, Any], LoadedExperiment]:
    """`add_run`'s run with its runner's commit recorded, its jwt measured while other processes kept the
    machine busy: its manifest, and what compare/load.py reads of the load."""
    run = add_run(root)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["git_commit"] = "0123456789abcdef0123456789abcdef01234567"
    write_manifest(run, manifest)
    found = busy(run, "jwt")
    return json.loads((run / "manifest.json").read_text()), found


@dataclass(frozen=True)
class Commented:
    """A pull request's comment, as artifact_comment wrote it and said it did."""

    said: str
    out: Path
    text: str
    manifest: dict[str, Any]  # the added run's
    busy: LoadedExperiment  # what it measured while the machine was busy


@pytest.fixture(scope="module")
def added_run(tmp_path_factory: pytest.TempPathFactory, shared_builds: dict[str, Any]) -> Commented:
    """One pull request whose comment several tests read (each comment builds the merged tree's site):
    it adds a run (`recorded_run_measured_busy`); its artifact says the committed run is deleted."""
    tmp_path = tmp_path_factory.mktemp("added-run")
    with pytest.MonkeyPatch.context() as monkeypatch:
        root = published(tmp_path, monkeypatch)
        manifest, found = recorded_run_measured_busy(root)
        head = pull_request(root)
        claims = {"added": [], "deleted": [FIXTURE_RUN.name], "changes": []}
        out = tmp_path / "comment.md"
        said = artifact_comment(root, artifact(tmp_path, claims), out, head)
    return Commented(said, out, out.read_text(encoding="utf-8"), manifest, found)


def test_the_comment_is_written_from_the_head_commits_files_never_from_the_artifact(added_run: Commented):
    """Issue 36: a fake "deleted" entry made the comment claim statements change; "changes": [] hid a run."""
    text, out = added_run.text, added_run.out
    assert added_run.said.startswith(f"{out}: the comment for #7")
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
    recorded_run_measured_busy(project)  # the merged files of `added_run`'s: one build of them (shared_builds)
    head = pull_request(project)
    out = tmp_path / "comment.md"
    artifact_comment(project, artifact(tmp_path), out, head)
    text = out.read_text(encoding="utf-8")
    assert "This pull request changes 1 file(s) this job does not build from (`scripts/phpcb/__init__.py`)" in text
    assert "This job never runs them" in text
    # The artifact carries no merged side: what the code changes is said to be unknown, never "no change".
    assert "**Not known**: the preview artifact carries no pages of the merged tree" in text
    assert "No page of the published site changes" not in text
    assert "page(s) change what they say**: " in text, "the added run changes the Runs page, which it names"


@pytest.fixture(scope="module")
def pulled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pull request that changes nothing, committed once for the checks of HEAD_SHA, which read the
    checkout and write nothing to it (each made a project and its commits of its own)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        root = published(tmp_path_factory.mktemp("pulled"), monkeypatch)
    pull_request(root)
    return root


@pytest.mark.parametrize("sha", ["HEAD", "abc", "g" * 40, "0" * 40])
def test_the_head_must_be_a_commit_given_by_its_full_id(pulled: Path, tmp_path: Path, sha: str, capsys, monkeypatch):
    monkeypatch.setenv("PREVIEW_URL", PREVIEW)
    command = ["--root", str(pulled), "artifact-comment", "--artifact", str(artifact(tmp_path)), "--head", sha]
    assert main([*command, "--out", str(tmp_path / "c.md")]) == 1
    error = capsys.readouterr().err
    assert "HEAD_SHA must be the 40 hex digits" in error or "is not in this repository" in error


# --- issue 47.3, 47.5, 47.6: what an added run claims, and a comment that renders -------------------------

EPYC_RUN = ROOT / "data" / "runs" / "20261126T1819Z-amd-epyc-fb7fc6-php8.2"  # PHP 8.2 + OpenSSL 3.0, recorded
RAW_TOKENS = ("not_recommended", "not_evaluated", "aead_needs_tag", "roundtrip_failed", "needs_special_input")


def comment_of(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`python -m phpcb artifact-comment` on the pull request: its exit code and what it printed on stderr."""
    head = pull_request(project)
    out = tmp_path / "comment.md"
    command = ["--root", str(project), "artifact-comment", "--artifact", str(artifact(tmp_path)), "--head", head]
    code = main([*command, "--out", str(out)])
    return code, capsys.readouterr().err


def test_a_run_relabelled_into_another_stack_is_refused_in_one_line(project: Path, tmp_path: Path, capsys):
    """Issue 47: a PHP 8.2 + OpenSSL 3.0 run relabelled `debian13` and re-sealed was accepted, and the Machines
    page listed a stack "Debian 13 · PHP 8.2.36 · OpenSSL 3.0.22"."""
    run_id = f"{EPYC_RUN.name}-debian13"
    target = project / "data" / "runs" / run_id
    shutil.copytree(EPYC_RUN, target)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest["run_id"] = run_id
    manifest["stack"]["name"] = "debian13"
    write_manifest(target, manifest)
    code, error = comment_of(project, tmp_path, capsys)
    assert code == 1
    assert error.count("\n") == 1
    assert error.startswith("error: /")
    assert error.endswith(
        f"/data/runs/{run_id}/manifest.json: stack.name 'debian13' is Debian 13 (trixie): PHP 8.4 + OpenSSL 3.5 "
        "(scripts/stacks/debian13.env), but the run records PHP 8.2.36, OpenSSL 3.0.22, OS 'Debian GNU/Linux 12 "
        "(bookworm)': a run names the stack it ran in\n"
    )
    assert not (tmp_path / "comment.md").exists()


def byte_for_byte_copy(root: Path) -> Path:
    """Issue 47: the committed fixture run under a second id, its manifest agreeing with the id, re-sealed."""
    target = root / "data" / "runs" / NEW_ID
    shutil.copytree(FIXTURE_RUN, target)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update({"run_id": NEW_ID, "started_utc": "2026-01-02T00:00:00Z"})
    write_manifest(target, manifest)
    return target


def test_a_copy_of_a_committed_run_is_refused_naming_both_ids(project: Path, tmp_path: Path, capsys):
    byte_for_byte_copy(project)
    code, error = comment_of(project, tmp_path, capsys)
    assert code == 1
    assert error.count("\n") == 1
    assert f"/data/runs/{NEW_ID}/manifest.json: run {NEW_ID} is a copy of run {FIXTURE_RUN.name} under another id" in (
        error
    )
    assert "two measurements never give the same samples" in error


def test_the_preview_refuses_the_copy_too(project: Path, tmp_path: Path):
    """`make preview` (the pull request's own job) holds its runs to the same checks before a page is built."""
    byte_for_byte_copy(project)
    git(project, "add", "-A")
    git(project, "commit", "-qm", "a copy")
    with pytest.raises(DataError, match=rf"run {NEW_ID} is a copy of run {FIXTURE_RUN.name} under another id"):
        merge_comment.preview_sides(project, "main", tmp_path / "work")


def busy(run: Path, experiment: str) -> LoadedExperiment:
    """Other processes kept the CPUs busy while the run measured `experiment`: no idle tick between the two
    readings around it (the run's own CPU time as it was), re-sealed. What compare/load.py reads of it."""
    manifest = json.loads((run / "manifest.json").read_text())
    system = manifest["experiments"][experiment]["system"]
    system["after"]["cpu_ticks"]["idle"] = system["before"]["cpu_ticks"]["idle"]
    write_manifest(run, manifest)
    found = loaded(load_run(run, load_schemas(ROOT / "data" / "schema")), experiment)
    assert found is not None
    return found


def test_an_added_run_measured_on_a_busy_machine_is_flagged_not_refused(added_run: Commented):
    """Issue 47: a run measured with 50 % of the CPU taken by other processes was accepted without a word."""
    text, found = added_run.text, added_run.busy
    assert text.index("**1 added run(s) measured on a busy machine**") < text.index(LEAD_HEADING)
    assert f"other processes used {percent(LOADED_SHARE)} of all CPU time or more" in text
    assert (
        f"> - `{NEW_ID}`: other processes used {percent(found.others_share)} of all CPU time while it measured jwt"
        in text.splitlines()
    )
    assert found.others_share >= LOADED_SHARE


def test_the_comment_names_each_added_runs_runner_commit_and_experiments(added_run: Commented):
    """Issue 47: one line per added run, with the commit of the runner that measured it and each experiment
    with its status (as the comment did before it was shortened)."""
    text, manifest = added_run.text, added_run.manifest
    statuses = ", ".join(f"{name} {entry['status']}" for name, entry in manifest["experiments"].items())
    line = (
        f"- `{NEW_ID}`: runner commit `0123456789ab`; quick profile, {manifest['machine']['name']}, "
        f"Debian 12 · PHP 8.2.36 · OpenSSL 3.0.22 (header); experiments: {statuses}"
    )
    assert line in text.splitlines()
    assert "aead ok" in line
    assert text.index(merge_comment.RUNS_HEADING) < text.index(merge_comment.EVIDENCE_HEADING)


class Rendered(HTMLParser):
    """A comment rendered as GitHub would (Python-Markdown, with tables and fenced code): its visible text outside code
    blocks, and the text of each list item, and whether each is inside a quote (the alerts)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.items: list[tuple[bool, str]] = []
        self._open: list[list[str]] = []
        self._quotes = 0
        self._code = 0
        self.feed(markdown.markdown(text, extensions=["tables", "fenced_code"]))
        self.close()
        self.text = "".join(self.parts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "blockquote":
            self._quotes += 1
        if tag == "li":
            self._open.append([])
        if tag == "pre":
            self._code += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "blockquote":
            self._quotes -= 1
        if tag == "li":
            self.items.append((self._quotes > 0, " ".join("".join(self._open.pop()).split())))
        if tag == "pre":
            self._code -= 1

    def handle_data(self, data: str) -> None:
        if self._code:
            return  # a code block (a page's lines, diffed) shows its Markdown as it is, on purpose
        self.parts.append(data)
        for item in self._open:
            item.append(data)


def test_the_comment_renders_lists_as_lists_answers_as_text_and_verdicts_in_words(project: Path, tmp_path: Path):
    """Issue 47: the warning list came out HTML-escaped as one paragraph, answers as escaped Markdown
    (`\\*\\*ES256\\*\\*`), verdicts as raw tokens (`not_recommended`, `aead_needs_tag`). A pull request that
    rewrites a committed run, adds a run measured on a busy machine whose inventory lost a cipher, and makes
    P-256 not recommended: its comment rendered as Markdown."""
    committed = project / "data" / "runs" / FIXTURE_RUN.name
    scale_signing(committed, "ES512", 1 / 40)
    manifest = json.loads((committed / "manifest.json").read_text())
    manifest["seal"]["resealed"].append({"utc": "2026-11-28T00:00:00Z", "reason": "ES512 re-measured <b>x</b> *y*"})
    write_manifest(committed, manifest)
    run = add_run(project)
    busy(run, "jwt")
    inventory = (run / "cipher_inventory.csv").read_text(encoding="utf-8")
    assert "aes-128-gcm,default,aead_needs_tag," in inventory
    (run / "cipher_inventory.csv").write_text(
        inventory.replace("aes-128-gcm,default,aead_needs_tag,", "aes-128-gcm,default,unsupported,"), encoding="utf-8"
    )
    reseal(run)
    policy = project / "data" / "policy" / "keys.yaml"
    text = policy.read_text(encoding="utf-8")
    start = text.index("  prime256v1:\n")
    policy.write_text(text[:start] + text[start:].replace("status: recommended", "status: not_recommended", 1))
    head = pull_request(project)
    out = tmp_path / "comment.md"
    artifact_comment(project, artifact(tmp_path), out, head)
    comment = out.read_text(encoding="utf-8")
    rendered = Rendered(comment)

    # A page's lines quoted in a diff block are the page's Markdown as it is (a page that prints a token
    # shows it there); the comment's own words never hold one.
    prose = re.sub(r"^```.*?^```$", "", comment, flags=re.DOTALL | re.MULTILINE)
    for token in RAW_TOKENS:
        assert token not in prose, f"the raw token {token} in the comment"
        assert token not in rendered.text, f"the raw token {token} in the rendered comment"
    for escaped in ("&lt;", "&gt;", "&amp;", "&#", "\\*", "\\_", "\\`", "**"):
        assert escaped not in rendered.text, f"{escaped!r} shows in the rendered comment"
    assert "ES512 re-measured <b>x</b> *y*" in rendered.text, "data shows as the characters it holds"
    quoted = [text for inside, text in rendered.items if inside]
    rewritten = f"{FIXTURE_RUN.name}: jwt.csv rewritten (819 rows) re-sealed: "
    assert any(text.startswith(rewritten) and text.endswith("ES512 re-measured <b>x</b> *y*") for text in quoted)
    assert any(text.startswith(f"{NEW_ID}: other processes used ") for text in quoted)
    items = [text for inside, text in rendered.items if not inside]
    assert "Verdict on prime256v1: recommended → not recommended" in items
    assert (
        "aes-128-gcm in this PHP build: authenticated: openssl_encrypt needs its tag argument → "
        "not offered by this OpenSSL" in items
    )
    answers = [text for text in items if ": the answer: " in text]
    assert answers, "an answer changes: the curves page's pick at 128-bit strength"
    assert all("*" not in text and "`" not in text for text in answers)
    assert any(text.startswith(f"{NEW_ID}: runner commit ") for text in items)
    assert any(text.startswith(f"{NEW_ID} beside {FIXTURE_RUN.name}") for text in items)
