"""`make publish VERSION=x.y`: mike deploys a version with the `latest` alias to the local gh-pages branch."""

import json
import os
import shutil
import subprocess

from .conftest import ROOT, assert_no_symlinks, copy_repository

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "phpcrypto-bench tests",
    "GIT_AUTHOR_EMAIL": "tests@invalid",
    "GIT_COMMITTER_NAME": "phpcrypto-bench tests",
    "GIT_COMMITTER_EMAIL": "tests@invalid",
}


def append(path, text: str) -> None:
    """An edit that keeps the page's anchors, so the site still builds with --strict."""
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_publish_deploys_a_version_with_the_latest_alias(tmp_path):
    clone = tmp_path / "repo"
    copy_repository(clone)
    env = {**os.environ, **GIT_IDENTITY, "NO_MKDOCS_2_WARNING": "1", "VENV": str(ROOT / ".venv")}

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True, check=False)

    assert run("git", "init", "-q", "-b", "main").returncode == 0
    assert run("git", "add", "-A").returncode == 0
    assert run("git", "commit", "-qm", "snapshot").returncode == 0

    refused = run("make", "--no-print-directory", f"VENV={ROOT / '.venv'}", "publish")
    assert refused.returncode != 0
    assert "VERSION is required" in refused.stderr

    stray = clone / "data" / "runs" / "20990101T0000Z-stray-php8.2"
    stray.mkdir()
    (stray / "manifest.json").write_text("{}")
    append(clone / "docs" / "methodology.md", "\nAn edit the commit does not hold.\n")
    dirty = run("make", "--no-print-directory", f"VENV={ROOT / '.venv'}", "publish", "VERSION=0.1")
    assert dirty.returncode != 0
    message = dirty.stderr.strip().splitlines()[-2]
    assert message.startswith("error: 2 uncommitted or untracked file(s) under data, docs, templates, scripts")
    assert "?? data/runs/20990101T0000Z-stray-php8.2/manifest.json" in message
    assert "M docs/methodology.md" in message
    assert message.endswith("Commit or remove them, or publish anyway with FORCE=1")
    assert run("git", "rev-parse", "--verify", "-q", "gh-pages").returncode != 0, "nothing published"
    shutil.rmtree(stray)
    assert run("git", "checkout", "-q", "--", "docs").returncode == 0

    published = run("make", "--no-print-directory", f"VENV={ROOT / '.venv'}", "publish", "VERSION=0.1")
    assert published.returncode == 0, published.stderr

    versions = json.loads(run("git", "show", "gh-pages:versions.json").stdout)
    assert versions == [{"version": "0.1", "title": "0.1", "aliases": ["latest"]}]
    listing = run("git", "ls-tree", "-r", "--name-only", "gh-pages").stdout.splitlines()
    assert "0.1/experiments/aead/index.html" in listing
    assert "0.1/assets/javascripts/plotly.min.js" in listing
    assert "index.html" in listing, "the default version redirect"
    page = run("git", "show", "gh-pages:0.1/experiments/aead/index.html").stdout
    assert "pcb-chart" in page
    assert_no_symlinks(run("git", "ls-tree", "-r", "gh-pages").stdout)
    latest = run("git", "show", "gh-pages:latest/experiments/aead/index.html").stdout
    assert "../../../0.1/experiments/aead/" in latest, "the alias redirects to its version"
    assert run("git", "rev-parse", "--abbrev-ref", "HEAD").stdout.strip() == "main"

    append(clone / "docs" / "methodology.md", "\nAn edit the commit does not hold.\n")
    forced = run("make", "--no-print-directory", f"VENV={ROOT / '.venv'}", "publish", "VERSION=0.2", "FORCE=1")
    assert forced.returncode == 0, forced.stderr
    versions = json.loads(run("git", "show", "gh-pages:versions.json").stdout)
    assert [v["version"] for v in versions] == ["0.2", "0.1"]
    assert_no_symlinks(run("git", "ls-tree", "-r", "gh-pages").stdout)
