"""pr_runs.extract on a Python without tarfile's data filter (Debian 12's 3.11.2): the same refusals."""

from __future__ import annotations

import io
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


def test_files_and_links_inside_pass(tmp_path: Path):
    tar = archive(("data/runs/r/manifest.json", b"{}"), ("data/link", "runs/r/manifest.json"))
    assert [member.name for member in pr_runs._data_members(tar, tmp_path)] == [
        "data/runs/r/manifest.json",
        "data/link",
    ]


@pytest.mark.parametrize(
    ("member", "refusal"),
    [
        (("../outside", b"x"), "would be written outside"),
        (("/etc/passwd", b"x"), "would be written outside"),
        (("data/link", "../../etc/passwd"), "points outside"),
        (("data/link", "/etc/passwd"), "points outside"),
        (("data/fifo", ord(tarfile.FIFOTYPE)), "neither a file, a directory nor a link"),
        (("data/device", ord(tarfile.CHRTYPE)), "neither a file, a directory nor a link"),
    ],
)
def test_what_the_data_filter_refuses_is_refused(tmp_path: Path, member: tuple[str, bytes | str | int], refusal: str):
    with pytest.raises(PullRequestError, match=refusal):
        pr_runs._data_members(archive(member), tmp_path)
