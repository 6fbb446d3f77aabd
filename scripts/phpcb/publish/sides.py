"""The two sides of "what merging changes" (publish/merge_effect.py): each a build of the site, its
statements (publish/statements.py) and its pages' Markdown (publish/page_text.py), and who computed it.

- The preview job (the pull request's code, a read-only token): each side by its own code,
  `python -m phpcb statements --pages` run by the tree's own scripts/ on its own files (`by_own_code`).
  Both sides go into the preview artifact (`Side.write`: sides/base/, sides/merged/), for the
  contributor and for the trusted job.
- The trusted comment job (the default branch's code; it never runs the pull request's): by this code
  (`by_this_code`), on the base's files and on the merged tree's files this code reads as data
  (`files_tree`: data/, runners/snippets/ and docs/ as merging leaves them, everything else as the base
  has it). When the pull request changes other files (the build's code, templates, configuration), what
  they change is read from the artifact's merged side (`claimed`) and shown as the preview job's word,
  diffed against this job's own build of the same files: never verified, never taken for this job's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from phpcb.data.selection import COMPARE_VARIABLE, SHOW_RUN_VARIABLE
from phpcb.errors import BuildError
from phpcb.pages import build
from phpcb.publish import page_text
from phpcb.publish.merge_effect import MergeEffect, Reported, effect
from phpcb.publish.pr_runs import PullRequestError, extract, merged_tree, resolve, run_git, under
from phpcb.publish.statements import Snapshot, collect

# The merged tree's paths the trusted job builds from with its own code: files it reads, never runs
# (runs, config, policy, schema; the snippets the pages include; the hand-written pages). Templates are
# Jinja2, which can call Python: code, like scripts/ and the configuration.
AS_FILES = ("data", "runners/snippets", "docs")
SIDES = "sides"  # in the preview artifact
BASE, MERGED = "base", "merged"
STATEMENTS = "statements.json"
PAGES = "pages"
PREVIEW_ONLY = (COMPARE_VARIABLE, "PHPCB_PREVIEW_PR")  # what the preview's own site build reads, not a side's
SHOWN_NAMES = 5
# What the tree's own code says when it is older than the verb, or than the option, it is asked to run.
NO_STATEMENTS = "invalid choice: 'statements'"
NO_PAGES_OPTION = "unrecognized arguments: --pages"
PREDATES_STATEMENTS = "The base branch's code predates `python -m phpcb statements`: its side is computed by this code."

BY_OWN_CODE = (
    "Computed by the pull request's preview job, each side by its own code: the base branch's site by the "
    "base branch's code, the merged tree's by the pull request's. The comment posted on the pull request "
    "is computed by the default branch's code."
)
BY_THIS_CODE = (
    "Computed by the default branch's code, which never runs the pull request's: the base branch's site, and "
    "the merged tree's, built from its data/, runners/snippets/ and docs/ (its other files as the base has them)."
)


@dataclass(frozen=True)
class Side:
    """One build: its statements and its pages' Markdown (None: not built)."""

    statements: Snapshot
    pages: dict[str, str] | None = None

    def write(self, directory: Path) -> None:
        """The side as files: statements.json and pages/ (which `read` gives back)."""
        directory.mkdir(parents=True, exist_ok=True)
        self.statements.write(directory / STATEMENTS)
        page_text.write(self.pages or {}, directory / PAGES)

    @classmethod
    def read(cls, directory: Path) -> Side:
        """A side as files, read as untrusted data (publish/statements.py and page_text.py check them)."""
        if directory.is_symlink() or not directory.is_dir():
            raise PullRequestError(f"{directory}: no such side (a directory with {STATEMENTS} and {PAGES}/)")
        return cls(Snapshot.read(directory / STATEMENTS), page_text.read(directory / PAGES))


@dataclass(frozen=True)
class Claimed:
    """The merged side as the pull request's preview job built it with its code (None: not readable), and
    the files of the pull request this job does not build from."""

    side: Side | None
    code: tuple[str, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sides:
    """The base's side and the merged tree's, computed by `by`; `claimed`: the pull request's code's own
    account of the merged side, when it changes files `after` was not built from."""

    before: Side
    after: Side
    notes: tuple[str, ...] = ()  # what the reader must know about how the sides were computed
    by: str = ""
    claimed: Claimed | None = None

    def effects(self) -> tuple[MergeEffect, Reported | None]:
        """What merging changes as these sides say, and what the pull request's job reports its code
        changes beyond that (diffed against `after`, this job's build of the same files)."""
        found = effect(self.before.statements, self.after.statements, self.before.pages, self.after.pages)
        if self.claimed is None:
            return found, None
        side = self.claimed.side
        reported = None
        if side is not None:
            reported = effect(self.after.statements, side.statements, self.after.pages, side.pages)
        return found, Reported(reported, self.claimed.code, self.claimed.notes)


def _own_code_env(tree: Path) -> dict[str, str]:
    """The environment a tree's own code runs in: its scripts/, and the published selection (no run of
    `make report`, no Comparison page, no preview banner)."""
    env = {key: value for key, value in os.environ.items() if key not in PREVIEW_ONLY}
    return {**env, "PYTHONPATH": str(tree / "scripts"), SHOW_RUN_VARIABLE: ""}


def _failed(result: subprocess.CompletedProcess[str]) -> str:
    lines = (result.stderr or result.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit code {result.returncode}"


def _own_code(tree: Path, *verb: str) -> subprocess.CompletedProcess[str]:
    """`python -m phpcb VERB ...` run by the tree's own code (its scripts/) on its own files."""
    command = [sys.executable, "-m", "phpcb", "--root", str(tree), *verb]
    return subprocess.run(command, cwd=tree, env=_own_code_env(tree), capture_output=True, text=True)


def statements_by_own_code(tree: Path, out: Path) -> None:
    """`python -m phpcb statements` run by the tree's own code on its own data, into `out`."""
    result = _own_code(tree, "statements", "--out", str(out))
    if result.returncode != 0:
        raise PullRequestError(f"the statements of {tree} (python -m phpcb statements) failed: {_failed(result)}")


def pages_by_own_code(tree: Path, out: Path) -> dict[str, str]:
    """`python -m phpcb pages` run by the tree's own code on its own files, into `out`; its pages."""
    result = _own_code(tree, "pages", "--out", str(out))
    if result.returncode != 0:
        raise PullRequestError(f"the pages of {tree} (python -m phpcb pages) failed: {_failed(result)}")
    return page_text.read(out / "docs")


def by_own_code(tree: Path, work: Path, name: str, fallback: bool = False) -> tuple[Side, str | None]:
    """The side of `tree` computed by its own code (scratch files in `work`, named `name`), in one process
    (`python -m phpcb statements --pages`: one interpreter and one import for both). Code older than
    --pages runs `statements` and `pages` apart; with `fallback`, a base whose code predates the
    statements verb is computed by this code, and the note says so."""
    directory = work / name
    result = _own_code(tree, "statements", "--out", str(directory / STATEMENTS), "--pages", str(directory / PAGES))
    if result.returncode == 0:
        return Side.read(directory), None
    if fallback and NO_STATEMENTS in result.stderr:
        return by_this_code(tree), PREDATES_STATEMENTS
    if NO_PAGES_OPTION not in result.stderr:
        raise PullRequestError(f"the side of {tree} (python -m phpcb statements --pages) failed: {_failed(result)}")
    statements = work / f"{name}.json"
    statements_by_own_code(tree, statements)
    return Side(Snapshot.read(statements), pages_by_own_code(tree, work / f"{name}-build")), None


def by_this_code(tree: Path) -> Side:
    """The side of `tree` computed by this code, in this process: never the tree's own code."""
    sources = build.load(tree)
    return Side(collect(tree, sources), page_text.generated(tree, sources))


@dataclass(frozen=True)
class FilesTree:
    """The trusted job's two trees: the base's files, and the merged tree's files it builds from."""

    before: Path
    after: Path
    applied: tuple[str, ...]  # the pull request's changed paths `after` holds
    code: tuple[str, ...]  # its changed paths `after` leaves as the base has them


def files_tree(root: Path, base: str, head: str, work: Path) -> FilesTree:
    """The base's tree (`base`'s files) and the tree of the merged files this code builds from: the
    base's files with the pull request's changes under AS_FILES (pr_runs.merged_tree, every changed
    path checked: plain files only). The pull request's other files, its code, are checked and never
    written (a scratch copy of the whole merged tree, then a third copy of the base, cost more than
    the rest of the trees)."""
    before, after = work / "base", work / "merged"
    extract(root, resolve(root, base), before)
    merged_tree(root, base, head, after, only_data=False, written=AS_FILES)
    found = run_git(root, "merge-base", resolve(root, base), resolve(root, head))
    changed = run_git(root, "diff", "--no-renames", "--name-only", "-z", found.stdout.strip(), resolve(root, head))
    if found.returncode != 0 or changed.returncode != 0:
        raise PullRequestError(f"git diff of {head[:12]} against its merge base with {base} failed")
    paths = tuple(filter(None, changed.stdout.split("\0")))
    applied = tuple(p for p in paths if under(p, AS_FILES))
    return FilesTree(before, after, applied, tuple(p for p in paths if not under(p, AS_FILES)))


def _names(titles: list[str]) -> str:
    shown = ", ".join(titles[:SHOWN_NAMES])
    return shown + (f" and {len(titles) - SHOWN_NAMES} more" if len(titles) > SHOWN_NAMES else "")


def claimed(artifact: Path, before: Side, code: tuple[str, ...]) -> Claimed:
    """The preview artifact's merged side, as untrusted data: read if it can be (else a note says why),
    and its base side set against this job's (`before`): when they differ, the preview was built on
    another base, or computed otherwise, and a note says so."""
    sides = artifact / SIDES
    notes = []
    try:
        side: Side | None = Side.read(sides / MERGED)
    except BuildError as error:
        side = None
        notes.append(f"The preview artifact's merged side cannot be read: {error}")
    if side is not None:
        try:
            theirs = Side.read(sides / BASE)
        except BuildError as error:
            notes.append(f"The preview artifact's base side cannot be read, so nothing checks it: {error}")
        else:
            differs = [t.title for t in page_text.diff(before.pages or {}, theirs.pages or {})]
            if differs:
                notes.append(
                    f"The preview's base side differs from this job's build of the base on {len(differs)} page(s) "
                    f"({_names(differs)}): it was built on another base (the branch moved since), or computed "
                    "otherwise. What it reports below includes that difference."
                )
    return Claimed(side, code, tuple(notes))
