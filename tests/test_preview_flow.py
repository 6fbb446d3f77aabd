"""A pull request's preview, end to end, as the workflows run it, in throwaway git repositories with a
bare "origin": `make publish` → gh-pages (refused without VERSION or over uncommitted files; the version
and its `latest` alias, as a workflow publishes them); a PR branch adds a run; `make preview` builds its
site and comment; `make deploy-preview` (from a checkout of main, as the deploy workflow) puts the site
under pr-preview/pr-N/; `make publish` keeps it; `make cleanup-preview` removes it. Throughout, each run's
files are on gh-pages once, compressed: the published runs in the shared runs/, which every version
and the preview link to, and the run the PR adds in the preview's own directory.

Then the gh-pages plumbing alone (no site build): an artifact that is not a plain preview site is
refused, and a push that loses a race is redone on top of the other one."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from phpcb.commands.main import main
from phpcb.data.rewrite import upgrade_on_disk
from phpcb.data.schema import load_schemas
from phpcb.publish import ghpages, merge_comment, merge_effect, pullrequest
from phpcb.publish.github_comment import MARKER

from .conftest import (
    FIXTURE_RUN,
    ROOT,
    assert_each_run_file_once_and_compressed,
    assert_no_symlinks,
    copy_repository,
    reseal,
    run_file_links,
    write_manifest,
)

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "phpcrypto-bench tests",
    "GIT_AUTHOR_EMAIL": "tests@invalid",
    "GIT_COMMITTER_NAME": "phpcrypto-bench tests",
    "GIT_COMMITTER_EMAIL": "tests@invalid",
}
# The throwaway repositories keep and push objects undeflated and without deltas: deflating the ~9 MB site at
# each mike commit and searching deltas at each push cost some 0.4 CPU-s, and no check here reads how
# git stores an object (sizes() reads what a blob holds).
GIT_STORAGE = {
    "GIT_CONFIG_COUNT": "2",
    "GIT_CONFIG_KEY_0": "core.compression",
    "GIT_CONFIG_VALUE_0": "0",
    "GIT_CONFIG_KEY_1": "pack.window",
    "GIT_CONFIG_VALUE_1": "0",
}
CLEARED = ("PR", "BASE", "ARTIFACT", "ARTIFACTS", "BODY", "HEAD_SHA", "VERSION", "PREVIEW_URL", "PUBLISHED_URL")
REPOSITORY = "octo/phpcrypto-bench"
PR = 7
PREVIEW_URL = f"https://octo.github.io/phpcrypto-bench/pr-preview/pr-{PR}/"
BASE_RUN = "20261122T0309Z-vm-php8.2"  # the jwt run
# What main publishes: the jwt run the pull request measures again, whose page (with its charts) the published
# version's checks read. Any other run only made each of the flow's page and site builds slower (the aead run,
# some 3 of this test's 18 CPU-s): no check reads its pages, and each run's files are checked alike whichever
# runs there are.
PUBLISHED = (BASE_RUN,)
NEW_RUN = "20261123T0309Z-vm-php8.2"  # the same machine a day later, signing 1.5 times slower
VENV_INPUTS = ("requirements.txt", "requirements-setup.txt", "scripts/venv-install.sh")  # the Makefile's venv target's


class Repo:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.env = {
            key: value for key, value in os.environ.items() if key not in CLEARED and not key.startswith("GITHUB_")
        }
        self.env.update(GIT_IDENTITY | GIT_STORAGE, NO_MKDOCS_2_WARNING="1", PHPCB_PUSH_BACKOFF="0")

    def run(self, *command: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, cwd=self.path, env={**self.env, **env}, capture_output=True, text=True, check=False
        )

    def ok(self, *command: str, **env: str) -> str:
        result = self.run(*command, **env)
        assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    def make(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return self.run("make", "--no-print-directory", f"VENV={ROOT / '.venv'}", *args, **env)

    def listing(self, ref: str) -> list[str]:
        return self.ok("git", "ls-tree", "-r", "--name-only", ref).splitlines()

    def sizes(self, ref: str) -> dict[str, int]:
        """Each file of the tree and its size: what GitHub Pages serves, and counts against its limit."""
        lines = self.ok("git", "ls-tree", "-r", "-l", ref).splitlines()
        return {line.split("\t", 1)[1]: int(line.split("\t", 1)[0].split()[3]) for line in lines}

    def pages(self, ref: str, listing: list[str]) -> Callable[[str], str]:
        """A reader of the tree's HTML pages, all read by one `git cat-file --batch` (a `git show` per page
        was some 190 processes in this flow)."""
        names = [path for path in listing if path.endswith(".html")]
        request = "".join(f"{ref}:{name}\n" for name in names).encode()
        done = subprocess.run(["git", "cat-file", "--batch"], cwd=self.path, input=request, capture_output=True)
        assert done.returncode == 0, done.stderr.decode()
        texts: dict[str, str] = {}
        out = done.stdout
        for name in names:
            header, out = out.split(b"\n", 1)
            size = int(header.split()[2])  # "<object id> blob <size>"; "<name> missing" fails here
            texts[name], out = out[:size].decode("utf-8"), out[size + 1 :]
        return texts.__getitem__

    def broken_run_links(self, ref: str) -> list[tuple[str, str]]:
        listing = self.listing(ref)
        links = run_file_links(listing, self.pages(ref, listing))
        assert links, "pages link to the runs' files"
        return [(page, target) for page, target in links if target not in listing]


def as_old_as_the_venv(checkout: Path) -> None:
    """What the venv is installed from, in a fresh clone, dated no later than the venv every make here shares
    (ROOT/.venv, installed once): a clone's new dates made `make artifact-comment`'s venv prerequisite
    reinstall it (pip and uv, into the shared venv) with nothing changed. The work repository, a copy that
    keeps the dates, finds it installed for `make preview` and `make publish` alike."""
    installed = ROOT / ".venv" / ".installed"
    if not installed.is_file():
        return  # never installed by make: the first target installs it, as in a fresh checkout
    installed_at = installed.stat().st_mtime_ns  # to the nanosecond, as make compares them
    for name in VENV_INPUTS:
        os.utime(checkout / name, ns=(installed_at, installed_at))


def computed_by(comment: str, drop: bool = False) -> str:
    """The line of a comment that says who computed it (`drop`: the comment without it)."""
    lines = comment.splitlines()
    if drop:
        return "\n".join(line for line in lines if not line.startswith("_Computed by "))
    return next(line for line in lines if line.startswith("_Computed by "))


def add_run(runs: Path) -> None:
    """A copy of the committed jwt run under a new id, its ES256 sign timings 1.5 times longer (deterministic)."""
    target = runs / NEW_RUN
    shutil.copytree(runs / BASE_RUN, target)
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest["run_id"] = NEW_RUN
    for key in ("started_utc", "finished_utc"):
        manifest[key] = manifest[key].replace("2026-11-22", "2026-11-23")
    write_manifest(target, manifest)
    with (target / "jwt.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    operation, elapsed, alg = rows[0].index("operation"), rows[0].index("elapsed_ns"), rows[0].index("alg")
    for row in rows[1:]:
        if row[operation] == "sign" and row[alg] == "ES256":
            row[elapsed] = str(int(row[elapsed]) * 3 // 2)
    with (target / "jwt.csv").open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
    reseal(target)


def append(path: Path, text: str) -> None:
    """An edit that keeps the page's anchors, so the site still builds with --strict."""
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def assert_publish_refuses_without_a_version_or_over_uncommitted_files(work: Repo) -> None:
    """`make publish` without VERSION, or over files HEAD does not hold, publishes nothing (moved here from
    tests/test_publish.py: refused before any build, on the checkout this flow publishes from)."""
    refused = work.make("publish")
    assert refused.returncode != 0
    assert "VERSION is required" in refused.stderr

    stray = work.path / "data" / "runs" / "20990101T0000Z-stray-php8.2"
    stray.mkdir()
    (stray / "manifest.json").write_text("{}")
    append(work.path / "docs" / "methodology.md", "\nAn edit the commit does not hold.\n")
    dirty = work.make("publish", "VERSION=0.1")
    assert dirty.returncode != 0
    message = dirty.stderr.strip().splitlines()[-2]
    assert message.startswith("error: 2 uncommitted or untracked file(s) under data, docs, templates, scripts")
    assert "?? data/runs/20990101T0000Z-stray-php8.2/manifest.json" in message
    assert "M docs/methodology.md" in message
    assert message.endswith("Commit or remove them, or publish anyway with FORCE=1")
    assert work.run("git", "rev-parse", "--verify", "-q", "gh-pages").returncode != 0, "nothing published"
    shutil.rmtree(stray)
    work.ok("git", "checkout", "-q", "--", "docs")


def assert_a_version_with_the_latest_alias(origin: Repo, work: Repo) -> None:
    """The first `make publish VERSION=0.1` (with GITHUB_REPOSITORY, as a workflow sets it): mike's version and
    its `latest` alias, each version's address, and the runs' files once in the shared runs/ (moved here from
    tests/test_publish.py, whose own publish built the same site a second time)."""
    versions = json.loads(origin.ok("git", "show", "gh-pages:versions.json"))
    assert versions == [{"version": "0.1", "title": "0.1", "aliases": ["latest"]}]
    listing = origin.listing("gh-pages")
    assert "0.1/experiments/jwt/index.html" in listing
    assert "0.1/assets/javascripts/plotly.min.js" in listing
    assert "index.html" in listing, "the default version redirect"
    assert "pcb-chart" in origin.ok("git", "show", "gh-pages:0.1/experiments/jwt/index.html")
    assert_no_symlinks(origin.ok("git", "ls-tree", "-r", "gh-pages"))
    # Issue 36: site_url per version. The sitemap lists the version's pages (Material's version selector
    # reads it to stay on the same page), and the 404 page's links work from any depth.
    sitemap = origin.ok("git", "show", "gh-pages:0.1/sitemap.xml")
    assert "<loc>https://octo.github.io/phpcrypto-bench/0.1/experiments/jwt/</loc>" in sitemap
    not_found = origin.ok("git", "show", "gh-pages:0.1/404.html")
    assert 'href="/phpcrypto-bench/0.1/assets/' in not_found
    assert 'href="assets/' not in not_found
    latest = origin.ok("git", "show", "gh-pages:latest/experiments/jwt/index.html")
    assert "../../../0.1/experiments/jwt/" in latest, "the alias redirects to its version"
    assert work.ok("git", "rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    assert not [path for path in listing if path.startswith("0.1/runs/") and path != "0.1/runs/index.html"], (
        "the version holds no run file: its pages link to the shared runs/"
    )
    assert_each_run_file_once_and_compressed(listing, work.path / "data" / "runs")
    links = run_file_links(listing, origin.pages("gh-pages", listing))
    assert {page for page, _ in links} >= {"0.1/runs/index.html", "0.1/experiments/jwt/index.html"}
    assert [(page, target) for page, target in links if target not in listing] == []
    assert all(target.startswith("runs/") for _, target in links), "every version links to the one copy"


def test_preview_deploy_publish_and_cleanup(tmp_path, monkeypatch, capsys):
    origin = Repo(tmp_path / "origin.git")
    origin.path.mkdir()
    origin.ok("git", "init", "-q", "--bare", "-b", "main")
    work = Repo(tmp_path / "repo")
    copy_repository(work.path, PUBLISHED, runner=False)
    work.ok("git", "init", "-q", "-b", "main")
    work.ok("git", "add", "-A")
    work.ok("git", "commit", "-qm", "published runs")
    work.ok("git", "remote", "add", "origin", str(origin.path))
    work.ok("git", "push", "-q", "origin", "main")

    assert_publish_refuses_without_a_version_or_over_uncommitted_files(work)
    published = work.make("publish", "VERSION=0.1", GITHUB_REPOSITORY=REPOSITORY)
    assert published.returncode == 0, published.stderr
    assert "pushed to origin/gh-pages" in published.stdout
    assert "0.1/index.html" in origin.listing("gh-pages")
    assert_a_version_with_the_latest_alias(origin, work)
    published_runs = sorted(p.name for p in (work.path / "data" / "runs").iterdir())
    assert {f"runs/{run}/manifest.json" for run in published_runs} <= set(origin.listing("gh-pages"))
    page = origin.ok("git", "show", "gh-pages:0.1/index.html")
    assert "md-banner" not in page, "no preview banner on the published site"
    assert "noindex" not in page

    # The pull request: one new run.
    work.ok("git", "checkout", "-qb", "new-run")
    add_run(work.path / "data" / "runs")
    work.ok("git", "add", "-A")
    work.ok("git", "commit", "-qm", "a run")

    missing = work.make("preview", f"PR={PR}")
    assert missing.returncode != 0
    assert "BASE is required" in missing.stderr
    # The refusals that come from python -m phpcb itself, by its main() in this process (a Python started
    # for each cost more than the check): the make targets pass BASE and HEAD_SHA in the runs that succeed.
    for name in CLEARED:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GITHUB_REPOSITORY", REPOSITORY)
    bad_ref = ["--root", str(work.path), "preview", "--pr", str(PR), "--base", "origin/nope"]
    assert main([*bad_ref, "--out", str(work.path / "preview")]) != 0
    assert "BASE 'origin/nope' is not a commit" in capsys.readouterr().err
    bad_pr = work.make("preview", "PR=7;ls", "BASE=origin/main")
    assert bad_pr.returncode != 0
    assert "PR must be a positive integer" in bad_pr.stderr

    built = work.make("preview", f"PR={PR}", "BASE=origin/main", GITHUB_REPOSITORY=REPOSITORY)
    assert built.returncode == 0, built.stdout + built.stderr
    assert f"adds {NEW_RUN}" in built.stdout
    preview = work.path / "preview"
    assert (preview / "pr-number").read_text() == f"{PR}\n"
    assert not (work.path / ".mkdocs.preview.yml").exists()
    home = (preview / "site" / "index.html").read_text(encoding="utf-8")
    assert f"Preview of pull request #{PR}: not the published results." in home
    assert 'href="https://octo.github.io/phpcrypto-bench/"' in home, "the banner links to the published site"
    assert f'<link rel="canonical" href="{PREVIEW_URL}">' in home
    assert '<meta name="robots" content="noindex, nofollow">' in home
    assert "versions.json" not in home, "no mike version selector"
    assert '"provider": "mike"' not in home
    assert (preview / "site" / "compare" / "index.html").is_file(), "the Comparison page for the added run"
    comment = (preview / "comment.md").read_text(encoding="utf-8")
    assert comment.startswith(MARKER)
    assert NEW_RUN in comment
    lead = comment.index(merge_effect.LEAD_HEADING)
    assert lead < comment.index(merge_comment.EVIDENCE_HEADING), "what merging changes comes first"
    assert f"Runs page adds `{NEW_RUN}`" in comment[lead:]
    assert re.search(r"^\|.*\|$", comment, re.MULTILINE), "a Markdown table"
    assert "slower" in comment, "signing 1.5 times slower is a verdict"
    assert PREVIEW_URL in comment
    assert f"[the preview's Comparison page]({PREVIEW_URL}compare/)" in comment
    assert len(comment) <= merge_comment.ONE_RUN_BUDGET, f"{len(comment):,} characters for one added run"
    assert "page(s) change what they say**: " in comment, "the pages whose text changes are named"
    for side in ("base", "merged"):  # what the comment was computed from, for the trusted job
        assert (preview / "sides" / side / "statements.json").is_file()
        assert (preview / "sides" / side / "pages" / "index.md").is_file()
    assert "| --- |" in comment
    assert comment.count("\n| ") < 12, "no per-case table: they are on the Comparison page"
    assert f"linked to on gh-pages (published there already, not carried): {', '.join(published_runs)}" in built.stdout
    carried = sorted(path.name for path in (preview / "site" / "runs").iterdir() if path.is_dir())
    assert carried == [NEW_RUN], "the preview carries only the run the pull request adds"
    assert (preview / "site" / "runs" / NEW_RUN / "jwt.csv.gz").is_file()

    # The deploy workflow: a checkout of main, the artifact as data. GitHub keeps the pull request's head
    # as refs/pull/N/head; the comment job reads its files from there, never the artifact's word.
    head = work.ok("git", "rev-parse", "HEAD").strip()
    work.ok("git", "push", "-q", "origin", f"HEAD:refs/pull/{PR}/head")
    deployer = Repo(tmp_path / "deployer")
    origin.ok("git", "clone", "-q", str(origin.path), str(deployer.path))
    as_old_as_the_venv(deployer.path)
    artifact = tmp_path / "artifact"
    shutil.copytree(preview, artifact)
    (artifact / "comment.md").write_text("Merge me: no statement changes @everyone\n")
    trusted = tmp_path / "trusted-comment.md"
    commented = deployer.make(
        "artifact-comment", f"ARTIFACT={artifact}", f"HEAD_SHA={head}", f"BODY={trusted}", GITHUB_REPOSITORY=REPOSITORY
    )
    assert commented.returncode == 0, commented.stdout + commented.stderr
    posted = trusted.read_text(encoding="utf-8")
    assert computed_by(posted) != computed_by(comment), "each comment says who computed it"
    assert computed_by(posted, drop=True) == computed_by(comment, drop=True), (
        "the same code on the same files: the same comment"
    )
    moved = ["--root", str(deployer.path), "artifact-comment", "--artifact", str(artifact), "--head", "0" * 40]
    assert main([*moved, "--out", str(trusted)]) != 0
    assert f"pull request #{PR}'s head is {head[:12]}, not 000000000000" in capsys.readouterr().err
    deployed = deployer.make("deploy-preview", f"ARTIFACT={artifact}")
    assert deployed.returncode == 0, deployed.stderr
    listing = origin.listing("gh-pages")
    assert f"pr-preview/pr-{PR}/index.html" in listing
    assert_no_symlinks(origin.ok("git", "ls-tree", "-r", "gh-pages"))
    assert f"pr-preview/pr-{PR}/compare/index.html" in listing
    assert "0.1/index.html" in listing
    again = deployer.make("deploy-preview", f"ARTIFACT={artifact}")
    assert again.returncode == 0
    assert "already holds this site" in again.stdout
    assert origin.broken_run_links("gh-pages") == []
    preview_links = run_file_links(listing, origin.pages("gh-pages", listing))
    targets = {target for page, target in preview_links if page.startswith(f"pr-preview/pr-{PR}/")}
    assert f"runs/{BASE_RUN}/manifest.json" in targets, "the base run: the shared copy"
    assert f"pr-preview/pr-{PR}/runs/{NEW_RUN}/manifest.json" in targets, "the added run: the preview's own"
    assert_each_run_file_once_and_compressed(listing, work.path / "data" / "runs")

    # main moves on and is published again, with an edit HEAD does not hold (FORCE=1 publishes it anyway;
    # without it, the first publish's refusal above): the preview stays (work's gh-pages is behind origin's).
    work.ok("git", "checkout", "-q", "main")
    append(work.path / "docs" / "methodology.md", "\nAn edit the commit does not hold.\n")
    before = origin.sizes("gh-pages")
    republished = work.make("publish", "VERSION=0.2", "FORCE=1")
    assert republished.returncode == 0, republished.stderr
    assert "every run already there" in republished.stdout
    after = origin.sizes("gh-pages")
    changed = sorted(path for path in after if before.get(path) != after[path])
    assert changed, "the version is there"
    assert all(path.startswith(("0.2/", "latest/")) or path in ("versions.json", "index.html") for path in changed), [
        path for path in changed if not path.startswith(("0.2/", "latest/"))
    ]
    assert all(before[path] == after[path] for path in before if path.startswith(("runs/", "0.1/", "pr-preview/")))
    added = sum(after.values()) - sum(before.values())
    # The second version adds its pages and assets (and moves the alias), never the runs again: under
    # 10 MB, a hundredth of GitHub Pages' 1 GB.
    assert 0 < added <= sum(after[path] for path in changed) < 10_000_000, f"the second version adds {added:,} bytes"
    listing = origin.listing("gh-pages")
    assert f"pr-preview/pr-{PR}/index.html" in listing
    assert_no_symlinks(origin.ok("git", "ls-tree", "-r", "gh-pages"))
    assert {"0.1/index.html", "0.2/index.html", "index.html"} <= set(listing)
    versions = json.loads(origin.ok("git", "show", "gh-pages:versions.json"))
    assert [(v["version"], v["aliases"]) for v in versions] == [("0.2", ["latest"]), ("0.1", [])]
    assert_each_run_file_once_and_compressed(listing, work.path / "data" / "runs")

    # The PR is closed.
    cleaned = deployer.make("cleanup-preview", f"PR={PR}")
    assert cleaned.returncode == 0, cleaned.stderr
    listing = origin.listing("gh-pages")
    assert not any(name.startswith("pr-preview/") for name in listing)
    assert "0.2/index.html" in listing
    assert {f"runs/{run}/manifest.json" for run in published_runs} <= set(listing), "the shared runs stay"
    assert origin.broken_run_links("gh-pages") == [], "the versions' links still resolve"
    assert not any(f"/{NEW_RUN}/" in name for name in listing), "the preview's own run went with it"
    noop = deployer.make("cleanup-preview", f"PR={PR}")
    assert noop.returncode == 0
    assert "nothing to remove" in noop.stdout


def git_repo(path: Path, *, bare: bool = False) -> Repo:
    repo = Repo(path)
    path.mkdir()
    repo.ok("git", "init", "-q", *(["--bare"] if bare else []), "-b", "main")
    if not bare:
        repo.ok("git", "commit", "-q", "--allow-empty", "-m", "start")
    return repo


def preview_artifact(path: Path, pr: int = PR) -> Path:
    (path / "site" / "assets").mkdir(parents=True)
    (path / "site" / "index.html").write_text(f"<p>preview {pr}</p>\n")
    (path / "site" / "assets" / "app.js").write_text("// js\n")
    (path / "pr-number").write_text(f"{pr}\n")
    return path


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda a: (a / "site" / "leak").symlink_to("/etc/passwd"), "symbolic links are refused"),
        (lambda a: (a / "site" / "up").symlink_to("..", target_is_directory=True), "symbolic links are refused"),
        (lambda a: (a / "site" / ".git").mkdir(), "a .git* name"),
        (lambda a: (a / "pr-number").write_text("8\n"), "built for another pull request"),
        (lambda a: (a / "pr-number").write_text("../../x\n"), "PR must be a positive integer"),
        (lambda a: (a / "site" / "index.html").unlink(), "expected the preview site"),
    ],
)
def test_an_artifact_that_is_not_a_plain_preview_site_is_refused(tmp_path, monkeypatch, capsys, tamper, message):
    repo = git_repo(tmp_path / "repo")
    artifact = preview_artifact(tmp_path / "artifact")
    tamper(artifact)
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    assert main(["--root", str(repo.path), "deploy-preview", "--pr", str(PR), "--artifact", str(artifact)]) == 1
    assert message in capsys.readouterr().err
    assert repo.run("git", "rev-parse", "--verify", "--quiet", "gh-pages").returncode != 0, "nothing committed"


@pytest.mark.parametrize("pr", ["0", "-1", "07", "7 ", "1e3", "../7", "7/../../x", ""])
def test_only_positive_integers_are_pr_numbers(pr):
    if pr == "7 ":
        assert ghpages.pr_number(pr) == 7  # a trailing newline or space from a file is fine
        return
    with pytest.raises(ghpages.GhPagesError, match="PR must be a positive integer"):
        ghpages.pr_number(pr)


def test_a_push_that_loses_a_race_is_redone_on_top(tmp_path, monkeypatch):
    monkeypatch.setenv("PHPCB_PUSH_BACKOFF", "0")
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)
    origin = git_repo(tmp_path / "origin.git", bare=True)
    ours, theirs = git_repo(tmp_path / "ours"), git_repo(tmp_path / "theirs")
    for repo in (ours, theirs):
        repo.ok("git", "remote", "add", "origin", str(origin.path))
    theirs_git = ghpages.Git(theirs.path)
    assert ghpages.deploy_preview(theirs_git, 3, preview_artifact(tmp_path / "a3", 3))

    git = ghpages.Git(ours.path)
    commit = ghpages._commit_directory
    raced = []

    def racing_commit(*args, **kwargs):
        """Between our fetch and our push, another job pushes a preview of #4."""
        if not raced:
            raced.append(True)
            assert ghpages.deploy_preview(theirs_git, 4, preview_artifact(tmp_path / "a4", 4))
        return commit(*args, **kwargs)

    monkeypatch.setattr(ghpages, "_commit_directory", racing_commit)
    assert ghpages.deploy_preview(git, PR, preview_artifact(tmp_path / "a7"))
    listing = origin.listing("gh-pages")
    assert {f"pr-preview/pr-{n}/index.html" for n in (3, 4, PR)} <= set(listing)
    assert origin.ok("git", "rev-list", "--count", "gh-pages").strip() == "3", "no merge commit, nothing lost"


def test_a_run_counts_when_the_pull_request_adds_its_manifest(tmp_path):
    repo = git_repo(tmp_path / "repo")
    runs = repo.path / "data" / "runs"
    old = runs / "20260101T0000Z-a-php8.2"
    old.mkdir(parents=True)
    (old / "manifest.json").write_text("{}")
    repo.ok("git", "add", "-A")
    repo.ok("git", "commit", "-qm", "base")
    repo.ok("git", "checkout", "-qb", "pr")
    assert pullrequest.added_runs(repo.path, "main") == []
    (old / "manifest.json").write_text('{"changed": true}')  # a changed run is not an added one
    (old / "extra.csv").write_text("x\n")
    for name in ("20260102T0000Z-b-php8.2", "20260103T0000Z-c-php8.3"):
        (runs / name).mkdir()
        (runs / name / "manifest.json").write_text("{}")
    (runs / "20260104T0000Z-d-php8.2").mkdir()
    (runs / "20260104T0000Z-d-php8.2" / "aead.csv").write_text("no manifest\n")
    repo.ok("git", "add", "-A")
    repo.ok("git", "commit", "-qm", "runs")
    assert pullrequest.added_runs(repo.path, "main") == ["20260102T0000Z-b-php8.2", "20260103T0000Z-c-php8.3"]
    with pytest.raises(pullrequest.PullRequestError, match="BASE 'nope' is not a commit"):
        pullrequest.added_runs(repo.path, "nope")
    with pytest.raises(pullrequest.PullRequestError, match="BASE must be a git ref"):
        pullrequest.added_runs(repo.path, "--output=/tmp/x")


def test_the_preview_address(tmp_path, monkeypatch, capsys):
    repo = git_repo(tmp_path / "repo")
    for name in ("GITHUB_REPOSITORY", "PREVIEW_URL", "PUBLISHED_URL"):
        monkeypatch.delenv(name, raising=False)
    # Issue 36: `make preview PR=1 BASE=origin/main`, as the README gives it, failed without
    # GITHUB_REPOSITORY or PREVIEW_URL. A local preview gets the local server's address, and is told so.
    assert pullrequest.addresses(repo.path, 3) == pullrequest.Addresses(
        "http://127.0.0.1:8000/pr-preview/pr-3/", "http://127.0.0.1:8000/"
    )
    assert "set one of them for the links the comment will carry" in capsys.readouterr().err
    repo.ok("git", "remote", "add", "origin", "git@github.com:Octo/bench.git")
    assert pullrequest.addresses(repo.path, 3) == pullrequest.Addresses(
        "https://octo.github.io/bench/pr-preview/pr-3/", "https://octo.github.io/bench/"
    )
    monkeypatch.setenv("GITHUB_REPOSITORY", "Octo/octo.github.io")
    assert pullrequest.addresses(repo.path, 3).preview == "https://octo.github.io/pr-preview/pr-3/"
    monkeypatch.setenv("PREVIEW_URL", "http://127.0.0.1:8000/pr-preview/pr-3")
    assert pullrequest.addresses(repo.path, 3) == pullrequest.Addresses(
        "http://127.0.0.1:8000/pr-preview/pr-3/", "http://127.0.0.1:8000/"
    )
    monkeypatch.setenv("PREVIEW_URL", "javascript:alert(1)")
    with pytest.raises(pullrequest.PullRequestError, match="PREVIEW_URL must be an http"):
        pullrequest.addresses(repo.path, 3)


def test_the_documented_commands_run_as_documented(tmp_path):
    """Issue 36: `python -m phpcb seal RUN --reason ...` failed from the repository root ("No module named
    phpcb"). `make venv` puts scripts/ on the venv's path (make phpcb-path: a .pth file), so the venv's
    python runs `python -m phpcb` from anywhere; `make seal RUN=... REASON=...` wraps it."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    made = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), f"VENV={venv}", "phpcb-path"], capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    for where in (ROOT, tmp_path):
        listed = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "phpcb", "--help"], cwd=where, capture_output=True, text=True
        )
        assert listed.returncode == 0, listed.stderr
        assert "seal" in listed.stdout
    repo = Repo(ROOT)
    missing = repo.make("seal", "RUN=data/runs/x")
    assert missing.returncode == 2
    assert "RUN and REASON are required, e.g. make seal RUN=data/runs/<run-id> REASON=" in missing.stderr
    run = tmp_path / FIXTURE_RUN.name
    shutil.copytree(FIXTURE_RUN, run)
    upgrade_on_disk(run, load_schemas(ROOT / "data" / "schema"))  # a seal is of the current schema version
    sealed = repo.make("seal", f"RUN={run}", "REASON=a documented correction")
    assert sealed.returncode == 0, sealed.stderr
    assert f"{run}: re-sealed" in sealed.stdout
    reasons = [e["reason"] for e in json.loads((run / "manifest.json").read_text())["seal"]["resealed"]]
    assert reasons[-1] == "a documented correction"
