"""pr_runs, which reads a pull request with git and never runs its code. A tree it writes, the base's
(`extract`, from git archive) or the merged one (`merged_tree`), holds regular files and directories
only: every link, hard or symbolic, every device and fifo is refused, wherever it points and in
whatever order the links come (data/x -> y/../.. then data/y -> . passed a check of one link at a
time), and the final tree is checked again. The same on a Python with tarfile's data filter (3.11.4 on)
and without (Debian 12's 3.11.2): tarfile writes nothing. Also the runs a pull request adds
(`added_runs`), a run directory from an artifact (`check_run_directory`) and refs (`resolve`)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import stat
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from phpcb.errors import DataError
from phpcb.publish import pr_runs
from phpcb.publish.pr_runs import PLAIN, PullRequestError

IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
RUN = "20260101T0000Z-fixture-php8.2"
NEW_RUN = "20260102T0000Z-fixture-php8.2"

# A member's content: bytes a file's, a str a symbolic link's target, (type, link name) any other member.
Member = bytes | str | tuple[bytes, str]
# A file in a commit: bytes its content, a str a symbolic link's target, None deleted.
File = bytes | str | None


def archive(*members: tuple[str, Member]) -> tarfile.TarFile:
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
                info.type, info.linkname = content
                tar.addfile(info)
    buffer.seek(0)
    return tarfile.open(fileobj=buffer)


class Repo:
    """A git repository in a test's directory, on branch main."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir()
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, stdin: bytes | None = None) -> str:
        done = subprocess.run(
            ["git", *args], cwd=self.path, env={**os.environ, **IDENTITY}, input=stdin, capture_output=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.decode().strip()

    def commit(self, files: dict[str, File], executable: tuple[str, ...] = ()) -> str:
        """The files written (a str as a symbolic link, None deleted) and committed: the commit's id."""
        for name, content in files.items():
            path = self.path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_symlink() or path.is_file():
                path.unlink()
                if content is None:
                    with contextlib.suppress(OSError):  # as far up as it is empty: git keeps no empty directory
                        os.removedirs(path.parent)
            if isinstance(content, bytes):
                path.write_bytes(content)
                path.chmod(0o755 if name in executable else 0o644)
            elif isinstance(content, str):
                path.symlink_to(content)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", "c")
        return self.git("rev-parse", "HEAD")

    def submodule(self, path: str) -> str:
        """A submodule (a gitlink: a commit id, no files) at `path`, committed."""
        self.git("update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},{path}")
        self.git("commit", "-q", "-m", "submodule")
        return self.git("rev-parse", "HEAD")

    def tree(self, entries: list[tuple[str, str, str]]) -> str:
        """A tree object of (mode, name, id) entries, written as they are (git mktree checks names)."""
        raw = b"".join(f"{mode} {name}\0".encode() + bytes.fromhex(object_id) for mode, name, object_id in entries)
        return self.git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", stdin=raw)


@pytest.fixture
def into(tmp_path: Path) -> Path:
    """Two levels under tmp_path, so that an escape by '../..' lands where `escaped` looks."""
    inside = tmp_path / "up2" / "up1" / "into"
    inside.mkdir(parents=True)
    return inside


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


def escaped(tmp_path: Path, into: Path) -> list[str]:
    """What is under tmp_path but in into/, the repository and its base tree: what an escape wrote."""
    kept = {into, tmp_path / "repo", tmp_path / "repo-base"}
    found = []
    for top, directories, files in os.walk(tmp_path):
        directories[:] = [name for name in directories if Path(top, name) not in kept]
        found += [Path(top, name) for name in directories + files]
    return sorted(str(path.relative_to(tmp_path)) for path in found if path not in into.parents)


def tree_of(into: Path) -> dict[str, bytes | None]:
    """Every path under `into`: a file's content, None a directory (nothing is followed)."""
    found: dict[str, bytes | None] = {}
    for top, directories, files in os.walk(into):
        for name in directories:
            found[os.path.relpath(os.path.join(top, name), into)] = None
        for name in files:
            found[os.path.relpath(os.path.join(top, name), into)] = Path(top, name).read_bytes()
    return found


@pytest.fixture(autouse=True)
def tarfile_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a Python's tarfile would do when extracting (filter or none), it is never asked to."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("tarfile extracted something")

    monkeypatch.setattr(tarfile.TarFile, "extract", refused)
    monkeypatch.setattr(tarfile.TarFile, "extractall", refused)


def never_called(*args: object, **kwargs: object) -> None:
    raise AssertionError("tarfile's data filter was called")


@pytest.fixture(params=["with tarfile's data filter", "without it"])
def python(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Either kind of Python: one with tarfile's data filter (3.11.4 on; a stand-in, which must not be
    called, on an older one) and one without (Debian 12's 3.11.2)."""
    if request.param == "without it":
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    elif not hasattr(tarfile, "data_filter"):
        monkeypatch.setattr(tarfile, "data_filter", never_called, raising=False)
    return str(request.param)


# --- extract: a commit's files -------------------------------------------------------------------


def test_a_commits_files_and_directories_are_written_as_committed(repo: Repo, into: Path, python: str):
    files: dict[str, File] = {"data/site.yaml": b"a: 1\n", f"data/runs/{RUN}/manifest.json": b"{}", "bin/run": b"#!"}
    commit = repo.commit(files, executable=("bin/run",))
    pr_runs.extract(repo.path, commit, into)
    assert tree_of(into) == {
        "bin": None,
        "bin/run": b"#!",
        "data": None,
        "data/runs": None,
        f"data/runs/{RUN}": None,
        f"data/runs/{RUN}/manifest.json": b"{}",
        "data/site.yaml": b"a: 1\n",
    }
    assert stat.S_IMODE((into / "bin" / "run").stat().st_mode) == 0o755
    assert stat.S_IMODE((into / "data" / "site.yaml").stat().st_mode) == 0o644
    only_data = into.parent / "not" / "yet" / "data-only"
    pr_runs.extract(repo.path, commit, only_data, "data")
    assert sorted(tree_of(only_data)) == [
        "data",
        "data/runs",
        f"data/runs/{RUN}",
        f"data/runs/{RUN}/manifest.json",
        "data/site.yaml",
    ]


LINKS_IN_GIT = [
    # Each inside when checked before the next exists; through y, data/x leaves (issue 44).
    ({"data/x": "y/../..", "data/y": "."}, "'data/x' is a symbolic link to 'y/../..'"),
    # The same in the other order: y's target through x.
    ({"data/x": ".", "data/y": "x/../.."}, "'data/x' is a symbolic link to '.'"),
    # A chain: c makes b leave, b makes a leave.
    ({"data/a": "b/..", "data/b": "c/..", "data/c": "."}, "'data/a' is a symbolic link to 'b/..'"),
    ({"data/x": "/etc/passwd"}, "'data/x' is a symbolic link to '/etc/passwd'"),
    # A link that stays inside, to a file: refused too, as nothing reads one.
    ({"data/link": "site.yaml"}, "'data/link' is a symbolic link to 'site.yaml'"),
]


@pytest.mark.parametrize(("links", "refusal"), LINKS_IN_GIT)
def test_links_committed_to_git_are_refused_in_any_order(
    repo: Repo, tmp_path: Path, into: Path, python: str, links: dict[str, File], refusal: str
):
    commit = repo.commit({"data/site.yaml": b"a: 1\n", **links, "data/z.txt": b"after the links"})
    with pytest.raises(PullRequestError) as caught:
        pr_runs.extract(repo.path, commit, into)
    assert str(caught.value) == f"git archive: {refusal}; {PLAIN}"
    assert tree_of(into) == {}, "a refusal writes nothing"
    assert escaped(tmp_path, into) == []


def test_a_commit_that_cannot_be_archived_is_named(repo: Repo, into: Path):
    commit = repo.commit({"data/a": b"a"})
    with pytest.raises(PullRequestError) as caught:
        pr_runs.extract(repo.path, "0" * 40, into)
    assert str(caught.value) == f"git archive {'0' * 40}: fatal: not a tree object: {'0' * 40}"
    with pytest.raises(PullRequestError) as caught:
        pr_runs.extract(repo.path, commit, into, "nope\udcff")  # git says the byte 0xff back: not UTF-8
    assert str(caught.value) == f"git archive {commit}: fatal: pathspec 'nope\ufffd' did not match any files"


# --- extract_checked: a tar's members, and check_tree ----------------------------------------------


MEMBERS = [
    (
        [("data/x", "y/../.."), ("data/y", "."), ("data/x/escaped.txt", b"x")],
        "'data/x' is a symbolic link to 'y/../..'",
    ),
    ([("data/y", "."), ("data/x", "y/../.."), ("data/x/escaped.txt", b"x")], "'data/y' is a symbolic link to '.'"),
    ([("a", "."), ("a/b", ".."), ("a/b/escaped.txt", b"x")], "'a' is a symbolic link to '.'"),
    # Hard links: git cannot store one, a tar from elsewhere can.
    ([("data/a", b"x"), ("data/b", (tarfile.LNKTYPE, "data/a"))], "'data/b' is a hard link to 'data/a'"),
    ([("data/b", (tarfile.LNKTYPE, "/etc/passwd"))], "'data/b' is a hard link to '/etc/passwd'"),
    ([("data/device", (tarfile.CHRTYPE, ""))], "'data/device' is a character device"),
    ([("data/disk", (tarfile.BLKTYPE, ""))], "'data/disk' is a block device"),
    ([("data/fifo", (tarfile.FIFOTYPE, ""))], "'data/fifo' is a named pipe (fifo)"),
    ([("data/odd", (b"Z", ""))], "'data/odd' is a special file (tar type b'Z')"),
]


@pytest.mark.parametrize(("members", "refusal"), MEMBERS)
def test_members_that_are_not_files_or_directories_are_refused(
    tmp_path: Path, into: Path, python: str, members: list[tuple[str, Member]], refusal: str
):
    with pytest.raises(PullRequestError) as caught:
        pr_runs.extract_checked(archive(("data/first.txt", b"1"), *members), into)
    assert str(caught.value) == f"git archive: {refusal}; {PLAIN}"
    assert tree_of(into) == {}, "a refusal writes nothing"
    assert escaped(tmp_path, into) == []


@pytest.mark.parametrize("name", ["../escaped.txt", "data/../../escaped.txt", "/tmp/escaped.txt", "/"])
def test_members_outside_the_directory_are_refused(tmp_path: Path, into: Path, name: str):
    with pytest.raises(PullRequestError) as caught:
        pr_runs.extract_checked(archive(("data/first.txt", b"1"), (name, b"x")), into)
    assert str(caught.value) == f"git archive: {name!r} would be written outside {into}"
    assert tree_of(into) == {}
    assert escaped(tmp_path, into) == []
    assert not Path("/tmp/escaped.txt").exists()


def test_a_link_already_in_the_directory_is_never_written_through(tmp_path: Path, into: Path):
    (into / "data").mkdir()
    (into / "data" / "x").symlink_to("y")
    with pytest.raises(PullRequestError) as caught:
        pr_runs.extract_checked(archive(("data/x", b"x")), into)
    assert str(caught.value) == "git archive: 'data/x' cannot be written: Too many levels of symbolic links"
    assert not (into / "data" / "y").exists()
    (into / "out").symlink_to(tmp_path / "up2", target_is_directory=True)
    with pytest.raises(PullRequestError) as caught:
        pr_runs.extract_checked(archive(("out/escaped.txt", b"x")), into)
    assert str(caught.value) == f"git archive: 'out/escaped.txt' would be written outside {into}"
    assert escaped(tmp_path, into) == []


def test_a_member_that_cannot_be_written_is_named(into: Path):
    with pytest.raises(PullRequestError) as caught:
        pr_runs.extract_checked(archive(("a", b"file"), ("a/b", b"under a file")), into)
    assert str(caught.value) == "git archive: 'a/b' cannot be written: File exists"


def test_a_file_is_written_whole_with_only_its_executable_bit(into: Path):
    (into / "long.txt").write_bytes(b"a much longer text than the new one")
    (into / "empty").mkdir()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, mode in [("long.txt", 0o4777), ("others.txt", 0o001), ("owner.sh", 0o100), ("plain.txt", 0o600)]:
            info = tarfile.TarInfo(name)
            info.size, info.mode = 3, mode
            tar.addfile(info, io.BytesIO(b"new"))
        for name in ("empty", ".", "empty/.."):
            directory = tarfile.TarInfo(name)
            directory.type = tarfile.DIRTYPE
            tar.addfile(directory)
    buffer.seek(0)
    with tarfile.open(fileobj=buffer) as tar:
        pr_runs.extract_checked(tar, into)
    assert tree_of(into) == {
        "empty": None,
        "long.txt": b"new",
        "others.txt": b"new",
        "owner.sh": b"new",
        "plain.txt": b"new",
    }
    modes = {
        name: stat.S_IMODE((into / name).stat().st_mode) for name in ("long.txt", "others.txt", "owner.sh", "plain.txt")
    }
    assert modes == {"long.txt": 0o755, "others.txt": 0o644, "owner.sh": 0o755, "plain.txt": 0o644}


def bind_socket(path: Path) -> None:
    """A unix socket at `path` (bound from its directory: a socket's path is short)."""
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        with socket.socket(socket.AF_UNIX) as bound:
            bound.bind(path.name)
    finally:
        os.chdir(here)


TREES: list[tuple[Callable[[Path, Path], object], str]] = [
    (lambda into, _: (into / "data" / "x").symlink_to("y"), "'data/x' is a symbolic link"),
    (lambda into, _: (into / "data" / "runs" / "x").symlink_to("../site.yaml"), "'data/runs/x' is a symbolic link"),
    (lambda into, outside: (into / "data" / "x").symlink_to(outside), "'data/x' resolves to {outside}, outside it"),
    (lambda into, _: os.mkfifo(into / "data" / "fifo"), "'data/fifo' is a named pipe (fifo)"),
    (lambda into, _: bind_socket(into / "data" / "s"), "'data/s' is a socket"),
    (
        lambda into, _: os.link(into / "data" / "site.yaml", into / "data" / "z"),
        "'data/site.yaml' is a hard link (a file with 2 names)",
    ),
    (
        lambda into, outside: os.link(outside / "secret", into / "data" / "secret"),
        "'data/secret' is a hard link (a file with 2 names)",
    ),
]


@pytest.mark.parametrize(("make", "refusal"), TREES)
def test_the_final_tree_holds_regular_files_and_directories_only(
    tmp_path: Path, into: Path, make: Callable[[Path, Path], object], refusal: str
):
    (into / "data" / "runs" / RUN).mkdir(parents=True)
    (into / "data" / "site.yaml").write_text("a: 1\n")
    (into / "data" / "runs" / RUN / "manifest.json").write_text("{}")
    pr_runs.check_tree(into)
    (tmp_path / "secret").write_text("secret")
    make(into, tmp_path)
    with pytest.raises(PullRequestError) as caught:
        pr_runs.check_tree(into)
    kind = refusal.format(outside=os.path.realpath(tmp_path))
    assert str(caught.value) == f"{into}: {kind}" + ("" if "resolves" in refusal else f"; {PLAIN}")


def test_a_device_in_the_final_tree_is_refused(into: Path):
    try:
        os.mknod(into / "null", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("this user may not make a device")
    with pytest.raises(PullRequestError) as caught:
        pr_runs.check_tree(into)
    assert str(caught.value) == f"{into}: 'null' is a character device; {PLAIN}"


@pytest.mark.parametrize(
    ("mode", "links", "kind"),
    [
        (stat.S_IFDIR | 0o755, 7, ""),
        (stat.S_IFREG | 0o644, 1, ""),
        (stat.S_IFREG | 0o644, 3, "a hard link (a file with 3 names)"),
        (stat.S_IFLNK | 0o777, 1, "a symbolic link"),
        (stat.S_IFCHR | 0o600, 1, "a character device"),
        (stat.S_IFBLK | 0o600, 1, "a block device"),
        (stat.S_IFIFO | 0o600, 1, "a named pipe (fifo)"),
        (stat.S_IFSOCK | 0o600, 1, "a socket"),
        (0o170644, 1, "a special file (mode 0o170644)"),
    ],
)
def test_what_a_path_is(mode: int, links: int, kind: str):
    assert pr_runs._file_kind(mode, links) == kind


# --- merged_tree: the base's files with the pull request's changes -------------------------------

BASE: dict[str, File] = {
    "data/site.yaml": b"reference: a\n",
    "data/old.txt": b"old",
    "data/notes/only.txt": b"alone in its directory",
    "data/table": b"a file, a directory in the pull request",
    "data/folder/inside.txt": b"a directory, a file in the pull request",
    f"data/runs/{RUN}/manifest.json": b"{}",
    "scripts/code.py": b"base = True\n",
}


def pull_request(repo: Repo, changes: dict[str, File], executable: tuple[str, ...] = ()) -> str:
    """main with BASE, a branch pr with `changes`, and main moving on after it forked: pr's head."""
    repo.commit(BASE)
    repo.git("checkout", "-qb", "pr")
    head = repo.commit(changes, executable)
    repo.git("checkout", "-q", "main")
    repo.commit({"data/main-only.txt": b"merged since"})
    return head


def base_tree(repo: Repo, into: Path) -> dict[str, bytes | None]:
    """main's tree, extracted beside the repository."""
    base = repo.path.parent / "repo-base"
    pr_runs.extract(repo.path, pr_runs.resolve(repo.path, "main"), base)
    return tree_of(base)


CHANGES: dict[str, File] = {
    "data/site.yaml": b"reference: b\n",
    "data/old.txt": None,
    "data/notes/only.txt": None,
    "data/table": None,
    "data/table/part.csv": b"x\n",
    "data/folder/inside.txt": None,
    "data/folder": b"now a file",
    "data/tool.sh": b"#!/bin/sh\n",
    "data/new/deep/file.txt": b"two directories to make",
    "data/moved.txt": b"old",  # data/old.txt renamed: listed as a deletion and an addition
    "data/tab\there.txt": b"a name with a tab",
    "data/a b.txt": b"a name with a space",
    "-dash.txt": b"before data/ in git's order; an option to git unless after --",
    f"data/runs/{NEW_RUN}/manifest.json": b'{"run_id": "new"}',
    "scripts/code.py": b"base = False\n",
}


@pytest.mark.parametrize("only_data", [True, False])
def test_the_merged_tree_is_the_base_with_the_pull_requests_changes(repo: Repo, into: Path, only_data: bool):
    head = pull_request(repo, CHANGES, executable=("data/tool.sh",))
    assert pr_runs.merged_tree(repo.path, "main", head, into, only_data=only_data) == ["-dash.txt", "scripts/code.py"]
    code = {"-dash.txt": CHANGES["-dash.txt"], "scripts/code.py": b"base = False\n"}
    assert tree_of(into) == {
        **({} if only_data else code),
        "data": None,
        "data/a b.txt": b"a name with a space",
        "data/folder": b"now a file",
        "data/main-only.txt": b"merged since",
        "data/moved.txt": b"old",
        "data/new": None,
        "data/new/deep": None,
        "data/new/deep/file.txt": b"two directories to make",
        "data/runs": None,
        f"data/runs/{RUN}": None,
        f"data/runs/{RUN}/manifest.json": b"{}",
        f"data/runs/{NEW_RUN}": None,
        f"data/runs/{NEW_RUN}/manifest.json": b'{"run_id": "new"}',
        "data/site.yaml": b"reference: b\n",
        "data/table": None,
        "data/table/part.csv": b"x\n",
        "data/tab\there.txt": b"a name with a tab",
        "data/tool.sh": b"#!/bin/sh\n",
        "scripts": None,
        "scripts/code.py": b"base = True\n" if only_data else b"base = False\n",
    }
    assert stat.S_IMODE((into / "data" / "tool.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((into / "data" / "site.yaml").stat().st_mode) == 0o644


def test_a_tree_the_pull_request_empties_is_empty(repo: Repo, into: Path):
    repo.commit({"data/only.txt": b"x"})
    repo.git("checkout", "-qb", "pr")
    head = repo.commit({"data/only.txt": None})
    assert pr_runs.merged_tree(repo.path, "main", head, into, only_data=True) == []
    assert into.is_dir()
    assert tree_of(into) == {}


def test_a_file_git_cannot_read_is_named(repo: Repo, into: Path):
    repo.commit(BASE)
    repo.git("checkout", "-qb", "pr")
    head = repo.commit({"data/lost.txt": b"its object goes"})
    blob = repo.git("rev-parse", f"{head}:data/lost.txt")
    (repo.path / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    with pytest.raises(PullRequestError) as caught:
        pr_runs.merged_tree(repo.path, "main", head, into, only_data=True)
    assert str(caught.value).startswith(f"git cat-file blob {blob}: fatal: "), "what git says, on one line"
    assert "\n" not in str(caught.value)


def test_a_submodule_has_no_files_to_write(repo: Repo, into: Path):
    repo.commit(BASE)
    repo.git("checkout", "-qb", "pr")
    repo.commit({"data/old.txt": None})
    repo.submodule("data/old.txt")
    head = repo.submodule("data/module")
    repo.git("checkout", "-q", "main")
    assert pr_runs.merged_tree(repo.path, "main", head, into, only_data=True) == []
    expected = base_tree(repo, into)
    del expected["data/old.txt"]
    assert tree_of(into) == expected


HEADS: list[tuple[dict[str, File], bool, str]] = [
    ({"data/x": "../.."}, True, "data/x: a symbolic link"),
    ({"data/x": "y/../..", "data/y": "."}, True, "data/x: a symbolic link"),
    ({"data/site.yaml": "old.txt"}, True, "data/site.yaml: a symbolic link"),
    ({"scripts/link": "/etc"}, False, "scripts/link: a symbolic link"),
]


@pytest.mark.parametrize(("changes", "only_data", "refusal"), HEADS)
def test_a_link_the_pull_request_adds_is_refused_before_anything_is_written(
    repo: Repo, tmp_path: Path, into: Path, changes: dict[str, File], only_data: bool, refusal: str
):
    head = pull_request(repo, {"data/added.txt": b"checked first, never written", **changes})
    with pytest.raises(PullRequestError) as caught:
        pr_runs.merged_tree(repo.path, "main", head, into, only_data=only_data)
    assert str(caught.value) == f"{head[:12]}:{refusal}; {PLAIN}"
    assert tree_of(into) == base_tree(repo, into)
    assert escaped(tmp_path, into) == []


def test_code_an_only_data_tree_leaves_as_the_base_has_it_may_hold_a_link(repo: Repo, into: Path):
    head = pull_request(repo, {"scripts/link": "/etc"})
    assert pr_runs.merged_tree(repo.path, "main", head, into, only_data=True) == ["scripts/link"]
    assert tree_of(into) == base_tree(repo, into)


def test_a_link_in_the_base_is_refused(repo: Repo, into: Path):
    repo.commit({"data/x": "y/../..", "data/y": "."})
    head = repo.commit({"data/a.txt": b"a"})
    with pytest.raises(PullRequestError) as caught:
        pr_runs.merged_tree(repo.path, "main", head, into, only_data=True)
    assert str(caught.value) == f"git archive: 'data/x' is a symbolic link to 'y/../..'; {PLAIN}"


RUN_FILES: list[tuple[Callable[[Repo], str], str]] = [
    (
        lambda r: r.commit({f"data/runs/{NEW_RUN}/notes.txt": "/etc/passwd"}),
        f"data/runs/{NEW_RUN}/notes.txt: a symbolic link in a run directory: a run holds regular files only",
    ),
    (
        lambda r: r.submodule(f"data/runs/{NEW_RUN}/module"),
        f"data/runs/{NEW_RUN}/module: a submodule in a run directory: a run holds regular files only",
    ),
    (
        lambda r: r.commit({f"data/runs/{RUN}/manifest.json": None, f"data/runs/{RUN}/manifest.json/x": b"x"}),
        f"data/runs/{RUN}/manifest.json: a directory in a run directory: a run holds regular files only",
    ),
    (
        lambda r: r.commit({f"data/runs/{NEW_RUN}/sub/x.csv": b"x"}),
        f"data/runs/{NEW_RUN}/sub/x.csv: a run directory holds visible files only, no subdirectory",
    ),
    (
        lambda r: r.commit({f"data/runs/{NEW_RUN}/.hidden": b"x"}),
        f"data/runs/{NEW_RUN}/.hidden: a run directory holds visible files only, no subdirectory",
    ),
]


@pytest.mark.parametrize(("change", "refusal"), RUN_FILES)
def test_a_run_holds_visible_regular_files_only(repo: Repo, into: Path, change: Callable[[Repo], str], refusal: str):
    repo.commit(BASE)
    repo.git("checkout", "-qb", "pr")
    head = change(repo)
    repo.git("checkout", "-q", "main")
    with pytest.raises(PullRequestError) as caught:
        pr_runs.merged_tree(repo.path, "main", head, into, only_data=True)
    assert str(caught.value) == f"{head[:12]}:{refusal}"
    assert tree_of(into) == base_tree(repo, into)


@pytest.mark.parametrize("only_data", [True, False])
@pytest.mark.parametrize("name", ["..", "."])
def test_a_path_git_archive_would_refuse_is_refused(repo: Repo, into: Path, only_data: bool, name: str):
    """A hand-made tree can hold data/../code.py, which is code.py in the tree written, or data/./x: git
    diff lists them (as data/, where an only_data tree takes what is written), git archive refuses them."""
    base = repo.commit(BASE)
    blob = repo.git("hash-object", "-w", "--stdin", stdin=b"the pull request's code\n")
    inner = repo.tree([("100644", "code.py", blob)])
    up = repo.tree([("40000", name, inner)])
    top = repo.tree([("40000", "data", up)])
    head = repo.git("commit-tree", top, "-p", base, "-m", "a hand-made tree")
    with pytest.raises(PullRequestError) as caught:
        pr_runs.merged_tree(repo.path, "main", head, into, only_data=only_data)
    assert str(caught.value) == f"{head[:12]}:data/{name}/code.py: not a plain path (an empty, '.' or '..' part)"
    assert tree_of(into) == base_tree(repo, into)


def test_emptied_directories_go_up_to_the_tree_itself(into: Path):
    (into / "a" / "b").mkdir(parents=True)
    (into / "kept" / "c").mkdir(parents=True)
    (into / "kept" / "file").write_text("x")
    pr_runs._prune(into, into / "a" / "b")
    pr_runs._prune(into, into / "kept" / "c")
    pr_runs._prune(into, into)
    assert tree_of(into) == {"kept": None, "kept/file": b"x"}


def test_branches_without_a_merge_base_or_a_diff(repo: Repo, into: Path, monkeypatch: pytest.MonkeyPatch):
    repo.commit(BASE)
    repo.git("checkout", "-q", "--orphan", "alone")
    repo.commit({"data/other.txt": b"x"})
    with pytest.raises(PullRequestError) as caught:
        pr_runs.merged_tree(repo.path, "main", "alone", into, only_data=True)
    assert str(caught.value) == "main and alone have no merge base (a shallow clone? fetch-depth: 0)"
    run_git = pr_runs.run_git

    def failing_diff(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
        if args[0] == "diff":
            return subprocess.CompletedProcess(args, 128, "", "fatal: bad object\n")
        return run_git(root, *args)

    monkeypatch.setattr(pr_runs, "run_git", failing_diff)
    main = repo.git("rev-parse", "main")
    with pytest.raises(PullRequestError) as caught:
        pr_runs.merged_tree(repo.path, "main", "main", into.parent / "again", only_data=True)
    assert str(caught.value) == f"git diff {main[:12]} {main[:12]} failed: fatal: bad object"


# --- refs, added runs, a run directory from an artifact -------------------------------------------


def test_a_ref_is_resolved_to_its_commit(repo: Repo):
    commit = repo.commit({"a": b"a"})
    assert pr_runs.resolve(repo.path, "main") == commit
    with pytest.raises(PullRequestError) as caught:
        pr_runs.resolve(repo.path, "--output=/tmp/x")
    assert str(caught.value) == "not a git ref: '--output=/tmp/x'"
    for ref in ("nope", "main..main", "main...main"):
        with pytest.raises(PullRequestError) as caught:
            pr_runs.resolve(repo.path, ref)
        assert str(caught.value) == f"{ref!r} is not a commit in this repository"


def test_a_run_is_added_when_its_manifest_is(repo: Repo, monkeypatch: pytest.MonkeyPatch):
    repo.commit({f"data/runs/{RUN}/manifest.json": b"{}"})
    repo.git("checkout", "-qb", "pr")
    assert pr_runs.added_runs(repo.path, "main") == []
    repo.commit(
        {
            f"data/runs/{RUN}/manifest.json": b'{"changed": true}',
            f"data/runs/{RUN}/extra.csv": b"x\n",
            f"data/runs/{NEW_RUN}/manifest.json": b"{}",
            f"data/runs/{NEW_RUN}/aead.csv": b"x\n",
            "data/runs/20260103T0000Z-b-php8.3/manifest.json": b"{}",
            "data/runs/20260104T0000Z-c-php8.2/aead.csv": b"no manifest\n",
            "data/runs/20260105T0000Z-d-php8.2/sub/manifest.json": b"{}",
            "data/runs/manifest.json": b"{}",
            "data/manifest.json": b"{}",
            "tests/fixtures/20260106T0000Z-e-php8.2/manifest.json": b"{}",
        }
    )
    assert pr_runs.added_runs(repo.path, "main") == [NEW_RUN, "20260103T0000Z-b-php8.3"]
    with pytest.raises(PullRequestError) as caught:
        pr_runs.added_runs(repo.path, "--output=/tmp/x")
    assert str(caught.value) == "BASE must be a git ref such as origin/main, got '--output=/tmp/x'"
    for base in ("nope", "main..pr"):
        with pytest.raises(PullRequestError) as caught:
            pr_runs.added_runs(repo.path, base)
        assert str(caught.value) == (
            f"BASE {base!r} is not a commit in this repository "
            "(a shallow clone? the workflow checks out with fetch-depth: 0)"
        )
    run_git = pr_runs.run_git

    def failing_diff(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
        if args[0] == "diff":
            return subprocess.CompletedProcess(args, 128, "", "fatal: bad object\n")
        return run_git(root, *args)

    monkeypatch.setattr(pr_runs, "run_git", failing_diff)
    with pytest.raises(PullRequestError) as caught:
        pr_runs.added_runs(repo.path, "main")
    assert str(caught.value) == "git diff main...HEAD failed: fatal: bad object"


def test_no_run_is_added_when_the_pull_request_removes_them_all(repo: Repo):
    """The checkout then has no data/runs/: git diff is told it is a path, not a revision."""
    repo.commit({f"data/runs/{RUN}/manifest.json": b"{}", "data/site.yaml": b"a: 1\n"})
    repo.git("checkout", "-qb", "pr")
    repo.commit({f"data/runs/{RUN}/manifest.json": None})
    assert not (repo.path / "data" / "runs").exists()
    assert pr_runs.added_runs(repo.path, "main") == []


def run_directory(tmp_path: Path, name: str, manifest: object) -> Path:
    path = tmp_path / name
    path.mkdir()
    (path / "manifest.json").write_bytes(manifest if isinstance(manifest, bytes) else json.dumps(manifest).encode())
    return path


def test_a_run_directory_from_an_artifact(tmp_path: Path):
    pr_runs.check_run_directory(run_directory(tmp_path, RUN, {"run_id": RUN}))
    pr_runs.check_run_directory(
        run_directory(
            tmp_path,
            "20260101T0000Z-amd-epyc-fb7fc6-php8.3-jit.on",
            {"run_id": "20260101T0000Z-amd-epyc-fb7fc6-php8.3-jit.on"},
        )
    )
    refusals = [
        (
            "20260101T0000Z-Fixture-php8.2",
            {},
            "{path}: not a run directory name (YYYYMMDDTHHMMZ-<machine>-php<major.minor>)",
        ),
        ("x" + NEW_RUN, {}, "{path}: not a run directory name (YYYYMMDDTHHMMZ-<machine>-php<major.minor>)"),
        (NEW_RUN + "-", {}, "{path}: not a run directory name (YYYYMMDDTHHMMZ-<machine>-php<major.minor>)"),
        (NEW_RUN, {"run_id": RUN}, f"{{path}}/manifest.json: run_id {RUN!r} is not the directory name {NEW_RUN!r}"),
        (
            "20260103T0000Z-b-php8.2",
            {},
            "{path}/manifest.json: run_id None is not the directory name '20260103T0000Z-b-php8.2'",
        ),
        (
            "20260104T0000Z-c-php8.2",
            [1],
            "{path}/manifest.json: run_id [1] is not the directory name '20260104T0000Z-c-php8.2'",
        ),
    ]
    for name, manifest, refusal in refusals:
        path = run_directory(tmp_path, name, manifest)
        with pytest.raises(PullRequestError) as caught:
            pr_runs.check_run_directory(path)
        assert str(caught.value) == refusal.format(path=path)
    latin = run_directory(tmp_path, "20260107T0000Z-f-php8.2", b'{"note": "\xe9"}')
    with pytest.raises(PullRequestError) as caught:
        pr_runs.check_run_directory(latin)
    assert str(caught.value) == (
        f"{latin}/manifest.json: not readable JSON: "
        "'utf-8' codec can't decode byte 0xe9 in position 10: invalid continuation byte"
    )
    broken = run_directory(tmp_path, "20260105T0000Z-d-php8.2", b"{")
    with pytest.raises(PullRequestError) as caught:
        pr_runs.check_run_directory(broken)
    assert str(caught.value) == (
        f"{broken}/manifest.json: not readable JSON: "
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    )
    linked = run_directory(tmp_path, "20260106T0000Z-e-php8.2", {})
    (linked / "notes.txt").symlink_to("/etc/passwd")
    with pytest.raises(DataError, match="a symbolic link in a run directory"):
        pr_runs.check_run_directory(linked)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("docs/index.md", True),
        ("docs", True),  # a file that replaced the directory is written with the directory's changes
        ("docs.md", False),
        ("documentation/index.md", False),
        ("runners/snippets/x.php", True),
        ("runners/src/Cli/Application.php", False),
    ],
)
def test_the_trusted_jobs_written_paths_are_the_directories_and_what_replaces_them(path, expected):
    """One rule for which of a pull request's paths the trusted job writes (merged_tree) and names as
    applied (sides.files_tree): both read pr_runs.under."""
    assert pr_runs.under(path, ("data", "runners/snippets", "docs")) is expected
