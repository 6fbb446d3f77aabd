"""A pull request's runs and trees, read with git, never by running the pull request's code: the runs
it adds, the committed runs' files it changes, and the tree merging it would give (`merged_tree`: the
base's files with the pull request's changes since the merge base applied), which both sides of "what
merging changes" are computed from. Standard library only."""

from __future__ import annotations

import io
import json
import os
import re
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


class PullRequestError(BuildError):
    """A preview or a collection cannot go on: names what is missing or wrong."""


def run_git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)


def added_runs(root: Path, base: str) -> list[str]:
    """Ids of the runs whose manifest.json the pull request adds, sorted."""
    if not SAFE_REF.fullmatch(base):
        raise PullRequestError(f"BASE must be a git ref such as origin/main, got {base!r}")
    if run_git(root, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}").returncode != 0:
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
    found = run_git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if found.returncode != 0:
        raise PullRequestError(f"{ref!r} is not a commit in this repository")
    return found.stdout.strip()


def extract(root: Path, commit: str, into: Path, *paths: str) -> None:
    """The commit's files (all, or under `paths`) as files under `into`: git archive, whose symbolic
    links tarfile's data filter refuses to point outside `into`."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit, "--", *paths], cwd=root, capture_output=True, check=False
    )
    if archive.returncode != 0:
        raise PullRequestError(f"git archive {commit}: {archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
        else:
            extract_checked(tar, into)


def extract_checked(tar: tarfile.TarFile, into: Path) -> None:
    """What tarfile's data filter does, for a Python without it (it came with 3.11.4; Debian 12 has
    3.11.2): each member checked just before it is written, against what is on disk by then (a link an
    earlier member made is followed), and refused when it would land or point outside `into`, or is
    neither a file, a directory nor a link."""
    base = os.path.realpath(into)
    for member in tar.getmembers():
        landing = os.path.realpath(os.path.join(base, member.name))
        if os.path.isabs(member.name) or not _inside(landing, base):
            raise PullRequestError(f"git archive: {member.name!r} would be written outside {into}")
        if member.issym() or member.islnk():
            start = os.path.dirname(landing) if member.issym() else base
            pointed = os.path.realpath(os.path.join(start, member.linkname))
            if os.path.isabs(member.linkname) or not _inside(pointed, base):
                raise PullRequestError(f"git archive: the link {member.name!r} points outside {into}")
        elif not (member.isfile() or member.isdir()):
            raise PullRequestError(f"git archive: {member.name!r} is neither a file, a directory nor a link")
        tar.extract(member, base)


def _inside(path: str, base: str) -> bool:
    return path == base or path.startswith(base + os.sep)


def _entry(root: Path, head: str, path: str) -> tuple[str, str] | None:
    """(mode, blob id) of `path` in the commit, or None where it has none."""
    listed = run_git(root, "ls-tree", "-z", head, "--", path).stdout.rstrip("\0")
    if not listed:
        return None
    meta, _ = listed.split("\t", 1)
    mode, _, object_id = meta.split()
    return mode, object_id


def _check_run_file(head: str, path: str, mode: str) -> None:
    """A run file of the pull request, before it is written anywhere: a regular, visible file."""
    parts = path.split("/")
    if len(parts) != 4 or parts[-1].startswith("."):
        raise PullRequestError(f"{head[:12]}:{path}: a run directory holds visible files only, no subdirectory")
    if mode not in REGULAR_MODES:
        kind = {"120000": "a symbolic link", "160000": "a submodule"}.get(mode, f"mode {mode}")
        raise PullRequestError(f"{head[:12]}:{path}: {kind} in a run directory: a run holds regular files only")


def merged_tree(root: Path, base: str, head: str, into: Path, only_data: bool) -> list[str]:
    """The tree merging `head` into `base` would give, as files under `into`: the base's files, then
    every path `head` changed since their merge base (under data/ only, when `only_data`: the trusted
    job runs its own code, not the pull request's). A run file that is not a regular, visible file is
    refused before it is written. Returns the changed paths outside data/ (the build's code, which an
    `only_data` tree leaves as the base has it)."""
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
    for status, path in zip(fields[0::2], fields[1::2], strict=False):
        if not status:
            continue
        if path.split("/")[0] != DATA:
            elsewhere.append(path)
            if only_data:
                continue
        target = into / path
        entry = _entry(root, head_commit, path)
        if path.startswith(f"{RUNS}/") and entry is not None:
            _check_run_file(head_commit, path, entry[0])
        if target.is_symlink() or target.is_file():
            target.unlink()
        if entry is None:
            continue
        mode, object_id = entry
        if mode == "160000":
            continue  # a submodule: nothing to write
        target.parent.mkdir(parents=True, exist_ok=True)
        blob = subprocess.run(["git", "cat-file", "blob", object_id], cwd=root, capture_output=True, check=True)
        if mode == "120000":
            target.symlink_to(blob.stdout.decode())
        else:
            target.write_bytes(blob.stdout)
            if mode == "100755":
                target.chmod(0o755)
    return elsewhere
