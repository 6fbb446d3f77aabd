"""pr_runs.extract on a Python without tarfile's data filter (Debian 12's 3.11.2): the same refusals,
each member checked against what the members before it left on disk."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

import pytest

from phpcb.publish import pr_runs
from phpcb.publish.pr_runs import PullRequestError


def archive(*members: tuple[str, bytes | str | int]) -> tarfile.TarFile:
    """A tar of (name, content) members: bytes a file, a str a symbolic link's target, an int a type."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, content in members:
            info = tarfile.TarInfo(name)
            if isinstance(content, bytes):
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
            elif isinstance(content, str):
                info.type, info.linkname = tarfile.SYMTYPE, content
                tar.addfile(info)
            else:
                info.type = bytes([content])
                tar.addfile(info)
    buffer.seek(0)
    return tarfile.open(fileobj=buffer)


@pytest.fixture
def into(tmp_path: Path) -> Path:
    inside = tmp_path / "into"
    inside.mkdir()
    return inside


def test_files_and_links_inside_are_written(into: Path):
    pr_runs.extract_checked(archive(("data/runs/r/manifest.json", b"{}"), ("data/link", "runs/r/manifest.json")), into)
    assert (into / "data" / "link").read_bytes() == b"{}"


@pytest.mark.parametrize(
    ("members", "refusal"),
    [
        ([("../outside", b"x")], "would be written outside"),
        ([("/etc/passwd", b"x")], "would be written outside"),
        ([("data/link", "../../etc/passwd")], "points outside"),
        ([("data/link", "/etc/passwd")], "points outside"),
        ([("data/fifo", ord(tarfile.FIFOTYPE))], "neither a file, a directory nor a link"),
        ([("data/device", ord(tarfile.CHRTYPE))], "neither a file, a directory nor a link"),
        # Each link inside on its own; through the first, the second leaves (a tree git can hold).
        ([("d1", "."), ("d2", "d1/..")], "the link 'd2' points outside"),
        # A path through links written before it (a tar from elsewhere).
        ([("a", "."), ("a/b", ".."), ("a/b/escaped.txt", b"x")], "points outside|would be written outside"),
    ],
)
def test_what_the_data_filter_refuses_is_refused(into: Path, members: list, refusal: str):
    with pytest.raises(PullRequestError, match=refusal):
        pr_runs.extract_checked(archive(*members), into)
    assert not (into.parent / "escaped.txt").exists()


def test_a_git_tree_with_a_link_that_leaves_through_another_is_refused(tmp_path: Path, into: Path):
    """The same two links committed to git, extracted as `extract` does (git archive)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "d1").symlink_to(".")
    (repo / "d2").symlink_to("d1/..")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "links"], check=True)
    tar = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", "HEAD"], capture_output=True, check=True)
    refused = pytest.raises(PullRequestError, match="the link 'd2' points outside")
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as committed, refused:
        pr_runs.extract_checked(committed, into)
