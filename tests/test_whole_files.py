"""whole_files.write_whole: the one way the build writes a file that something else may read meanwhile
(compressed run files, site files, noise models, stack sets, pull-request comments)."""

import os
import stat

import pytest

from phpcb.data import whole_files
from phpcb.data.whole_files import write_whole


def test_the_file_is_replaced_and_nothing_else_is_left(tmp_path):
    path = tmp_path / "model.json"
    path.write_bytes(b"old")
    write_whole(path, b"new")
    assert path.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]


def test_its_mode_is_what_the_umask_gives_a_new_file(tmp_path):
    previous = os.umask(0o022)
    try:
        write_whole(tmp_path / "index.md", b"# Home\n")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "index.md").stat().st_mode) == 0o644, "readable by a web server"


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_one(tmp_path, monkeypatch):
    path = tmp_path / "comment.md"
    path.write_bytes(b"old")

    def refused(source: object, target: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(whole_files.os, "replace", refused)
    with pytest.raises(OSError, match="disk full"):
        write_whole(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["comment.md"]


def test_the_temporary_file_is_hidden_beside_the_target(tmp_path, monkeypatch):
    """A generator watching the directory skips dot files: it never builds a page from a half-written one."""
    seen: list[str] = []
    real = os.replace

    def recording(source: "os.PathLike[str]", target: "os.PathLike[str]") -> None:
        seen.append(os.fspath(source))
        real(source, target)

    monkeypatch.setattr(whole_files.os, "replace", recording)
    write_whole(tmp_path / "aead.md", b"x")
    (temporary,) = seen
    assert os.path.dirname(temporary) == str(tmp_path)
    assert os.path.basename(temporary).startswith(".aead.md.")
