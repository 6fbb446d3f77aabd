"""A pull request's runs and trees, read with git, never by running the pull request's code: the runs
it adds, the committed runs' files it changes, and the tree merging it would give (`merged_tree`: the
base's files with the pull request's changes since the merge base applied), which both sides of "what
merging changes" are computed from. Standard library only."""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import tarfile
from pathlib import Path

from phpcb.data import run_files
from phpcb.errors import BuildError

RUNS = "data/runs"
RUN_ID = re.compile(r"[0-9]{8}T[0-9]{4}Z-[a-z0-9-]{1,64}-php[0-9]+\.[0-9]+(-[a-z0-9]+([.-][a-z0-9]+)*)?")
SAFE_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/@{}^~-]{0,199}")
DATA = "data"
REGULAR_MODES = ("100644", "100755")
DIRECTORY, SUBMODULE = "040000", "160000"
GIT_KINDS = {"120000": "a symbolic link", SUBMODULE: "a submodule", DIRECTORY: "a directory"}
PLAIN = "a pull request's tree holds regular files and directories only"
TAR_KINDS = {
    tarfile.SYMTYPE: "a symbolic link",
    tarfile.LNKTYPE: "a hard link",
    tarfile.CHRTYPE: "a character device",
    tarfile.BLKTYPE: "a block device",
    tarfile.FIFOTYPE: "a named pipe (fifo)",
}
FILE_KINDS = {
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a named pipe (fifo)",
    stat.S_IFSOCK: "a socket",
}


class PullRequestError(BuildError):
    """A preview or a collection cannot go on: names what is missing or wrong."""


def run_git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)


def added_runs(root: Path, base: str) -> list[str]:
    """Ids of the runs whose manifest.json the pull request adds, sorted."""
    if not SAFE_REF.fullmatch(base):
        raise PullRequestError(f"BASE must be a git ref such as origin/main, got {base!r}")
    if run_git(root, "rev-parse", "--verify", f"{base}^{{commit}}").returncode != 0:
        raise PullRequestError(
            f"BASE {base!r} is not a commit in this repository "
            "(a shallow clone? the workflow checks out with fetch-depth: 0)"
        )
    diff = run_git(root, "diff", "--name-only", "--diff-filter=A", "-z", f"{base}...HEAD", "--", f"{RUNS}/")
    if diff.returncode != 0:
        raise PullRequestError(f"git diff {base}...HEAD failed: {diff.stderr.strip()}")
    ids = set()
    for name in filter(None, diff.stdout.split("\0")):
        parts = name.split("/")
        if len(parts) == 4 and parts[3] == "manifest.json":
            ids.add(parts[2])
    return sorted(ids)


def check_run_directory(path: Path) -> None:
    """A run directory from elsewhere (an artifact), before anything of it is read or copied: its name,
    regular files only (run_files.py), and the manifest's run_id."""
    if not RUN_ID.fullmatch(path.name):
        raise PullRequestError(f"{path}: not a run directory name (YYYYMMDDTHHMMZ-<machine>-php<major.minor>)")
    run_files.check_directory(path)
    try:
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PullRequestError(f"{path / 'manifest.json'}: not readable JSON: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("run_id") != path.name:
        got = manifest.get("run_id") if isinstance(manifest, dict) else manifest
        raise PullRequestError(f"{path / 'manifest.json'}: run_id {got!r} is not the directory name {path.name!r}")


def resolve(root: Path, ref: str) -> str:
    """The commit a ref names; PullRequestError when there is none."""
    if not SAFE_REF.fullmatch(ref):
        raise PullRequestError(f"not a git ref: {ref!r}")
    found = run_git(root, "rev-parse", "--verify", f"{ref}^{{commit}}")
    if found.returncode != 0:
        raise PullRequestError(f"{ref!r} is not a commit in this repository")
    return found.stdout.strip()


def extract(root: Path, commit: str, into: Path, *paths: str) -> None:
    """The commit's files (all, or under `paths`) as files under `into`, from git archive: each member
    checked and written by `extract_checked` (regular files and directories only), then the tree as a
    whole by `check_tree`. The same on every Python: tarfile reads the archive and writes nothing, so
    its data filter (3.11.4 on; Debian 12 has 3.11.2) is neither needed nor relied on."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "archive", "--format=tar", commit, "--", *paths], cwd=root, capture_output=True)
    if archive.returncode != 0:
        raise PullRequestError(f"git archive {commit}: {_said(archive.stderr)}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        extract_checked(tar, into)
    check_tree(into)


def extract_checked(tar: tarfile.TarFile, into: Path) -> None:
    """The members of `tar` written under `into` by this code (never by tarfile), once all of them are
    known to be regular files or directories whose paths stay inside `into`: a refusal writes nothing.
    Every link is refused, wherever it points: whether a link stays inside depends on the links written
    after it (data/x -> y/../.. is inside until data/y -> . lands), so no check of one link at a time
    holds, and runs and data are plain files that nothing reads through a link. So are hard links,
    devices and fifos. A file is written through no link (O_NOFOLLOW), 0755 when executable, else 0644."""
    base = os.path.realpath(into)
    members = tar.getmembers()
    for member in members:
        if os.path.isabs(member.name) or not _inside(os.path.realpath(os.path.join(base, member.name)), base):
            raise PullRequestError(f"git archive: {member.name!r} would be written outside {into}")
        if not (member.isfile() or member.isdir()):
            raise PullRequestError(f"git archive: {member.name!r} is {_member_kind(member)}; {PLAIN}")
    for member in members:
        path = os.path.join(base, member.name)
        try:
            if member.isdir():
                os.makedirs(path, exist_ok=True)
                continue
            source = tar.extractfile(member)
            assert source is not None
            os.makedirs(os.path.dirname(path), exist_ok=True)
            _write(path, source.read(), executable=bool(member.mode & 0o100))
        except OSError as error:
            raise PullRequestError(f"git archive: {member.name!r} cannot be written: {error.strerror}") from None


def _member_kind(member: tarfile.TarInfo) -> str:
    """What a tar member that is neither a regular file nor a directory is, for a refusal."""
    if member.issym() or member.islnk():
        return f"{TAR_KINDS[member.type]} to {member.linkname!r}"
    return TAR_KINDS.get(member.type, f"a special file (tar type {member.type!r})")


def _write(path: str, data: bytes, executable: bool) -> None:
    """A regular file at `path` with `data`: a link there is an error, never followed."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
    os.chmod(path, 0o755 if executable else 0o644)


def check_tree(into: Path) -> None:
    """The tree under `into` as a whole, once written: every path in it a directory or a regular file
    with one name (a hard link's other name may be anywhere), and none resolving outside `into`. Nothing
    is followed or opened."""
    base = os.path.realpath(into)
    for top, directories, files in os.walk(base):
        for name in sorted(directories + files):
            path = os.path.join(top, name)
            shown = os.path.relpath(path, base)
            real = os.path.realpath(path)
            if not _inside(real, base):
                raise PullRequestError(f"{into}: {shown!r} resolves to {real}, outside it")
            status = os.lstat(path)
            kind = _file_kind(status.st_mode, status.st_nlink)
            if kind:
                raise PullRequestError(f"{into}: {shown!r} is {kind}; {PLAIN}")


def _file_kind(mode: int, links: int) -> str:
    """What a path of `mode` with `links` names is, when it is not a directory or a regular file with one
    name; else ''."""
    if stat.S_ISDIR(mode) or (stat.S_ISREG(mode) and links == 1):
        return ""
    if stat.S_ISREG(mode):
        return f"a hard link (a file with {links} names)"
    return FILE_KINDS.get(stat.S_IFMT(mode), f"a special file (mode {oct(mode)})")


def _said(stderr: bytes) -> str:
    """What git said, as text (a path it names may be any bytes)."""
    return stderr.decode(errors="replace").strip()


def _inside(path: str, base: str) -> bool:
    return path == base or path.startswith(base + os.sep)


def _entry(root: Path, head: str, path: str) -> tuple[str, str] | None:
    """(mode, blob id) of `path` in the commit, or None where it has none."""
    listed = run_git(root, "ls-tree", head, "--", path).stdout
    if not listed:
        return None
    mode, _, object_id, _ = listed.split(maxsplit=3)  # the path, last, may hold spaces
    return mode, object_id


def _check_run_file(head: str, path: str, mode: str) -> None:
    """A run file of the pull request, before it is written anywhere: a regular, visible file."""
    parts = path.split("/")
    if len(parts) != 4 or parts[-1].startswith("."):
        raise PullRequestError(f"{head[:12]}:{path}: a run directory holds visible files only, no subdirectory")
    if mode not in REGULAR_MODES:
        raise PullRequestError(
            f"{head[:12]}:{path}: {_git_kind(mode)} in a run directory: a run holds regular files only"
        )


def _git_kind(mode: str) -> str:
    """What a git entry of `mode` that is not a regular file is, for a refusal."""
    return GIT_KINDS.get(mode, f"mode {mode}")


def _checked_entry(root: Path, head: str, path: str) -> tuple[str, str] | None:
    """(mode, blob id) of the file the pull request has at a path it changed; None where it has none (it
    deleted it, made it a directory, whose files are listed apart, or a submodule, which has no files).
    Refused unless the path is plain (no empty, '.' or '..' part: git diff lists what a hand-made tree
    holds, where git archive refuses it) and a file there is regular (a run's: visible, in no
    subdirectory)."""
    if any(part in ("", ".", "..") for part in path.split("/")):
        raise PullRequestError(f"{head[:12]}:{path}: not a plain path (an empty, '.' or '..' part)")
    entry = _entry(root, head, path)
    if entry is None:
        return None
    mode = entry[0]
    if path.startswith(f"{RUNS}/"):
        _check_run_file(head, path, mode)
    if mode in (DIRECTORY, SUBMODULE):
        return None
    if mode not in REGULAR_MODES:
        raise PullRequestError(f"{head[:12]}:{path}: {_git_kind(mode)}; {PLAIN}")
    return entry


def under(path: str, prefixes: tuple[str, ...]) -> bool:
    """`path` is one of `prefixes` or lies under one (a file that replaced a directory counts too)."""
    return any(path == prefix or path.startswith(prefix + "/") for prefix in prefixes)


def merged_tree(
    root: Path, base: str, head: str, into: Path, only_data: bool, written: tuple[str, ...] | None = None
) -> list[str]:
    """The tree merging `head` into `base` would give, as files under `into`: the base's files
    (`extract`), then every path `head` changed since their merge base (under data/ only, when
    `only_data`: the trusted job runs its own code, not the pull request's). Every changed path is
    checked before any is written (`_checked_entry`: a link is refused, wherever it points); the
    deletions go first (a file may have become a directory, or a directory a file), then the files
    are written, and the tree is checked again (`check_tree`). With `written` (directories), only the
    changes under them are made, every changed path checked all the same: the trusted job's tree of
    the files it builds from (sides.files_tree), without a scratch copy of the pull request's code.
    Returns the changed paths outside data/ (the build's code, which an `only_data` tree leaves as
    the base has it)."""
    base_commit, head_commit = resolve(root, base), resolve(root, head)
    found = run_git(root, "merge-base", base_commit, head_commit)
    if found.returncode != 0:
        raise PullRequestError(f"{base} and {head} have no merge base (a shallow clone? fetch-depth: 0)")
    merge_base = found.stdout.strip()
    extract(root, base_commit, into)
    diff = run_git(root, "diff", "--no-renames", "--name-status", "-z", merge_base, head_commit)
    if diff.returncode != 0:
        raise PullRequestError(f"git diff {merge_base[:12]} {head_commit[:12]} failed: {diff.stderr.strip()}")
    fields = diff.stdout.split("\0")
    elsewhere = []
    changes = []
    for path in fields[1::2]:
        if path.split("/")[0] != DATA:
            elsewhere.append(path)
            if only_data:
                continue
        entry = _checked_entry(root, head_commit, path)
        if written is None or under(path, written):
            changes.append((into / path, entry))
    for target, entry in changes:
        if entry is None and target.is_file():
            target.unlink()
            _prune(into, target.parent)
    for target, entry in changes:
        if entry is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            blob = subprocess.run(["git", "cat-file", "blob", entry[1]], cwd=root, capture_output=True)
            if blob.returncode != 0:
                raise PullRequestError(f"git cat-file blob {entry[1]}: {_said(blob.stderr)}")
            _write(str(target), blob.stdout, executable=entry[0] == "100755")
    check_tree(into)
    return elsewhere


def _prune(into: Path, directory: Path) -> None:
    """`directory` and its parents up to `into` removed while empty, as git has no empty directory."""
    while directory != into and not any(directory.iterdir()):
        directory.rmdir()
        directory = directory.parent
