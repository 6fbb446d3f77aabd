"""A pull request's runs: those it adds, the committed runs' files it changes, and what a preview
artifact carries of them (`runs/<id>/` and `runs.json`) for the trusted job that writes the comment.
Standard library only."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from phpcb.errors import BuildError

RUNS = "data/runs"
RUN_ID = re.compile(r"[0-9]{8}T[0-9]{4}Z-[a-z0-9-]{1,64}-php[0-9]+\.[0-9]+(-[a-z0-9]+([.-][a-z0-9]+)*)?")
SAFE_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/@{}^~-]{0,199}")
RUNS_FILE = "runs.json"
ARTIFACT_RUNS_DIR = "runs"  # in a preview artifact (gh-pages has its own runs/: ghpages.RUNS_DIR)
_CHANGE_PATH = re.compile(r"data/runs/([^/\s]+)/[A-Za-z0-9._/-]{1,200}")
_STATUSES = ("modified", "deleted", "renamed")


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


@dataclass(frozen=True)
class RunChange:
    """A file of a committed run that the pull request modifies, deletes or renames."""

    status: str  # modified, deleted, renamed
    path: str
    run_id: str


STATUSES = {"M": "modified", "D": "deleted", "R": "renamed", "T": "modified"}


def changed_runs(root: Path, base: str) -> list[RunChange]:
    """The committed runs' files the pull request changes (adding a run is not changing one)."""
    diff = run_git(root, "diff", "--name-status", "--diff-filter=MDRT", "-z", f"{base}...HEAD", "--", f"{RUNS}/")
    if diff.returncode != 0:
        raise PullRequestError(f"git diff {base}...HEAD failed: {diff.stderr.strip()}")
    fields = diff.stdout.split("\0")
    changes: list[RunChange] = []
    index = 0
    while index < len(fields) and fields[index]:
        status = fields[index][0]
        # A rename names the old path, then the new one: the old run is the one changed.
        path = fields[index + 1]
        index += 3 if status == "R" else 2
        parts = path.split("/")
        if len(parts) >= 4:
            changes.append(RunChange(STATUSES.get(status, status), path, parts[2]))
    return changes


def changed_runs_warning(runs: Path, changes: list[RunChange]) -> str:
    """The comment's first lines when committed runs change: which files, and the re-seal reasons
    the manifests under `runs` record (a change without one does not build: the seal refuses it)."""
    if not changes:
        return ""
    lines = [
        "> [!WARNING]",
        f"> **This pull request changes {len({c.run_id for c in changes})} committed run(s)**: merging rewrites "
        "measurements the published pages may show.",
    ]
    lines += [f"> - `{change.path}` ({change.status})" for change in changes]
    for run_id in sorted({change.run_id for change in changes}):
        manifest = runs / run_id / "manifest.json"
        try:
            history = json.loads(manifest.read_text(encoding="utf-8")).get("seal", {}).get("resealed", [])
        except (OSError, json.JSONDecodeError, AttributeError):
            history = []
        reasons = "; ".join(
            f"{entry.get('utc')}: {entry.get('reason')}" for entry in history if isinstance(entry, dict)
        )
        lines.append(f"> `{run_id}` re-sealed: {reasons}" if reasons else f"> `{run_id}`: deleted or never re-sealed")
    lines.append("> A committed run changes only by an explicit, documented re-seal (docs/contributing.md).")
    return "\n".join(lines) + "\n\n"


def check_run_directory(path: Path) -> None:
    if not RUN_ID.fullmatch(path.name):
        raise PullRequestError(f"{path}: not a run directory name (YYYYMMDDTHHMMZ-<machine>-php<major.minor>)")
    for entry in path.rglob("*"):
        if entry.is_symlink() or not (entry.is_file() or entry.is_dir()):
            raise PullRequestError(f"{entry}: only plain files are accepted in a run directory")
    try:
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PullRequestError(f"{path / 'manifest.json'}: not readable JSON: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("run_id") != path.name:
        got = manifest.get("run_id") if isinstance(manifest, dict) else manifest
        raise PullRequestError(f"{path / 'manifest.json'}: run_id {got!r} is not the directory name {path.name!r}")


class ArtifactError(BuildError):
    """A preview artifact whose data cannot be trusted as it is: names what is wrong."""


@dataclass(frozen=True)
class ArtifactRuns:
    """What a preview artifact says its pull request does to data/runs/."""

    added: tuple[str, ...]
    rewritten: tuple[str, ...]  # committed runs whose files the pull request changes (re-sealed)
    deleted: tuple[str, ...]
    changes: tuple[RunChange, ...]

    def to_json(self) -> str:
        return json.dumps(
            {
                "added": list(self.added),
                "rewritten": list(self.rewritten),
                "deleted": list(self.deleted),
                "changes": [{"status": c.status, "path": c.path, "run_id": c.run_id} for c in self.changes],
            },
            indent=2,
        )

    @classmethod
    def read(cls, path: Path) -> ArtifactRuns:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ArtifactError(f"{path}: expected the preview's list of runs (JSON): {error}") from None
        if not isinstance(data, dict):
            raise ArtifactError(f"{path}: expected a JSON object, got {type(data).__name__}")
        lists = {key: _run_ids(path, data, key) for key in ("added", "rewritten", "deleted")}
        changes = data.get("changes")
        if not isinstance(changes, list):
            raise ArtifactError(f'{path}: expected "changes" to be a list, got {type(changes).__name__}')
        return cls(lists["added"], lists["rewritten"], lists["deleted"], tuple(_change(path, c) for c in changes))


def _run_ids(path: Path, data: dict[str, object], key: str) -> tuple[str, ...]:
    ids = data.get(key)
    if not isinstance(ids, list) or not all(isinstance(i, str) and RUN_ID.fullmatch(i) for i in ids):
        raise ArtifactError(f'{path}: expected "{key}" to be a list of run ids (YYYYMMDDTHHMMZ-machine-phpX.Y)')
    return tuple(ids)


def _change(path: Path, entry: object) -> RunChange:
    if not isinstance(entry, dict):
        raise ArtifactError(f"{path}: expected each change to be an object, got {type(entry).__name__}")
    status, file, run_id = entry.get("status"), entry.get("path"), entry.get("run_id")
    match = _CHANGE_PATH.fullmatch(file) if isinstance(file, str) else None
    if status not in _STATUSES or match is None or match.group(1) != run_id or ".." in str(file):
        raise ArtifactError(
            f"{path}: a change must be {{status: {'|'.join(_STATUSES)}, path: data/runs/<id>/..., run_id}}"
        )
    return RunChange(str(status), str(file), str(run_id))


def write_artifact_runs(root: Path, out: Path, found: ArtifactRuns) -> None:
    """`make preview`'s side: the added and rewritten runs' directories and runs.json, into `out`."""
    target = out / ARTIFACT_RUNS_DIR
    target.mkdir(parents=True, exist_ok=True)
    for run_id in (*found.added, *found.rewritten):
        shutil.copytree(root / RUNS / run_id, target / run_id)
    (out / RUNS_FILE).write_text(found.to_json() + "\n", encoding="utf-8")
