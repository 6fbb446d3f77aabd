"""The gh-pages branch, for `make publish`, `make deploy-preview` and `make cleanup-preview`.

    python -m phpcb publish --version 0.3|auto [--config mkdocs.publish.yml]
    python -m phpcb deploy-preview --pr N --artifact DIR
    python -m phpcb cleanup-preview --pr N

`publish` deploys the site with mike (alias `latest`, set as the default); `deploy_preview` puts a
pull request's preview site under `pr-preview/pr-N/`; `cleanup_preview` removes that directory. Each one changes
only its own part of the branch (mike leaves `pr-preview/` and `runs/` alone), and none touches the work tree or
the checked-out branch: `deploy`, `cleanup` and `publish_runs` write the commit through a temporary index.

The runs' files are on the branch once, in `runs/<run-id>/` at its root, shared by every version and
preview (their pages link up to it; presentation/downloads.py): runs are sealed and never change, so
`publish` first adds the runs the branch lacks and checks the ones it holds against their seal
(`publish_runs`). A preview's pages link there to the runs it found there; the runs it adds are in
its own `pr-preview/pr-N/runs/`, removed with it.

When the repository has the remote (`origin`), the branch is fetched from it first, the commit is
pushed, and a push rejected because someone else pushed meanwhile is redone on top of theirs, up to
PUSH_TRIES times. Without the remote only the local branch changes.

`deploy` reads an artifact that a pull request's code built: untrusted input. The PR number must be
a positive integer; the artifact must be a directory `site/` (with `index.html`) of plain files and
directories only: no symlink, no `.git*` name, no other file type, and bounded in size. It needs only
Python's standard library (the deploy workflow does not install the project's dependencies).
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import html
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from phpcb.errors import BuildError

BRANCH = "gh-pages"
REF = f"refs/heads/{BRANCH}"
PREVIEW_DIR = "pr-preview"
DEFAULT_REMOTE = "origin"
PUSH_TRIES = 5
PR_NUMBER = re.compile(r"[1-9][0-9]{0,9}")
VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,63}")
AUTO_VERSION = "auto"  # the UTC year and month of the commit published: one version per month, e.g. 2026.11
ALIAS = "latest"
RUNS_DIR = "runs"  # the runs' files, one copy for every version and preview
RESERVED = (ALIAS, RUNS_DIR, PREVIEW_DIR)  # directories of the branch a version's name cannot take
MANIFEST = "manifest.json"
GZIP_SUFFIX = ".gz"
RUN_NAME = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,127}")
MAX_FILES = 20_000
MAX_BYTES = 512 * 1024 * 1024
# The identity of commits made where git has none configured (a fresh CI checkout).
BOT_NAME = "github-actions[bot]"
BOT_EMAIL = "41898282+github-actions[bot]@users.noreply.github.com"
# Words git prints when a push lost a race (non-fast-forward) or a hook declined it: worth a retry.
REJECTED = ("[rejected]", "[remote rejected]", "non-fast-forward", "fetch first")


class GhPagesError(BuildError):
    """The branch cannot be changed as asked: a bad argument, a bad artifact, or git refused."""


def pr_number(text: str | int) -> int:
    """A pull request number from a workflow, an artifact or a command line: a positive integer, nothing else."""
    value = str(text).strip()
    if not PR_NUMBER.fullmatch(value):
        raise GhPagesError(f"PR must be a positive integer (the pull request number), got {str(text)[:40]!r}")
    return int(value)


def pr_from_file(path: Path) -> int:
    """The PR number an artifact carries (its `pr-number` file): a small plain file holding an integer."""
    if path.is_symlink() or not path.is_file() or path.stat().st_size > 40:
        raise GhPagesError(f"{path}: expected a small plain file holding the pull request number")
    return pr_number(path.read_text(encoding="ascii", errors="replace"))


def preview_path(pr: int) -> str:
    return f"{PREVIEW_DIR}/pr-{pr}"


class Git:
    """git in one repository, with a commit identity when none is configured."""

    def __init__(self, root: Path, remote: str = DEFAULT_REMOTE) -> None:
        self.root = root
        self.remote_name = remote
        self.env = dict(os.environ)
        if not self.run("config", "user.email", check=False).stdout.strip():
            for who in ("AUTHOR", "COMMITTER"):
                self.env.setdefault(f"GIT_{who}_NAME", BOT_NAME)
                self.env.setdefault(f"GIT_{who}_EMAIL", BOT_EMAIL)

    def run(
        self,
        *args: str,
        check: bool = True,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        stdin: str | None = None,
    ) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            ["git", *args],
            cwd=cwd or self.root,
            env=env or self.env,
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
        )
        if check and result.returncode != 0:
            detail = (result.stderr or result.stdout).strip().splitlines()
            raise GhPagesError(f"git {' '.join(args[:3])} failed: {detail[-1] if detail else result.returncode}")
        return result

    def blob(self, object_id: str) -> bytes:
        """A blob's bytes as they are (run() reads text)."""
        result = subprocess.run(
            ["git", "cat-file", "blob", object_id], cwd=self.root, env=self.env, capture_output=True, check=False
        )
        if result.returncode != 0:
            raise GhPagesError(
                f"git cat-file blob {object_id} failed: {result.stderr.decode(errors='replace').strip()}"
            )
        return result.stdout

    def head_of(self, ref: str) -> str | None:
        result = self.run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        return result.stdout.strip() or None

    @property
    def remote(self) -> str | None:
        """The remote's name when the repository has it, else None (a local-only publish)."""
        found = self.run("remote", "get-url", self.remote_name, check=False).returncode == 0
        return self.remote_name if found else None


def _sync(git: Git) -> None:
    """Bring the local branch up to the remote's: create it, or fast-forward it; keep unpushed local commits."""
    remote = git.remote
    if remote is None:
        return
    listed = git.run("ls-remote", "--exit-code", "--heads", remote, REF, check=False)
    if listed.returncode == 2:
        return  # the remote has no gh-pages yet: the first push creates it
    if listed.returncode != 0:
        raise GhPagesError(f"cannot read the branches of remote {remote!r}: {listed.stderr.strip()}")
    tracking = f"refs/remotes/{remote}/{BRANCH}"
    git.run("fetch", "--quiet", "--no-tags", remote, f"+{REF}:{tracking}")
    theirs = git.head_of(tracking)
    ours = git.head_of(REF)
    assert theirs is not None
    if ours is None or git.run("merge-base", "--is-ancestor", ours, theirs, check=False).returncode == 0:
        git.run("update-ref", REF, theirs)
    elif git.run("merge-base", "--is-ancestor", theirs, ours, check=False).returncode != 0:
        raise GhPagesError(
            f"the local {BRANCH} branch and {remote}/{BRANCH} have diverged; "
            f"keep the remote's with: git update-ref {REF} {tracking}"
        )


def update_branch(git: Git, change: Callable[[], bool], what: str, tries: int = PUSH_TRIES) -> bool:
    """Fetch, apply `change` (which commits on the local branch and says whether it did), push.
    A rejected push puts the local branch back, fetches again and redoes the change."""
    if git.run("symbolic-ref", "--quiet", "HEAD", check=False).stdout.strip() == REF:
        raise GhPagesError(f"{BRANCH} is the checked-out branch; check out another branch first")
    for attempt in range(1, tries + 1):
        _sync(git)
        before = git.head_of(REF)
        try:
            changed = change()
        except BaseException:
            # Nothing half-done stays on the local branch (publish's runs commit when mike then fails).
            git.run("update-ref", *(["-d", REF] if before is None else [REF, before]), check=False)
            raise
        if not changed:
            return False
        remote = git.remote
        if remote is None:
            print(f"{what}: committed to the local {BRANCH} branch (no remote {git.remote_name!r} to push to)")
            return True
        pushed = git.run("push", "--quiet", remote, f"{REF}:{REF}", check=False)
        if pushed.returncode == 0:
            print(f"{what}: pushed to {remote}/{BRANCH}")
            return True
        if not any(word in pushed.stderr for word in REJECTED):
            raise GhPagesError(f"git push to {remote} failed: {pushed.stderr.strip()}")
        if before is None:
            git.run("update-ref", "-d", REF)
        else:
            git.run("update-ref", REF, before)
        if attempt < tries:
            print(
                f"{what}: push rejected (try {attempt} of {tries}); fetching {BRANCH} and redoing it",
                file=sys.stderr,
            )
            time.sleep(min(attempt, 5) * float(os.environ.get("PHPCB_PUSH_BACKOFF", "1")))
    raise GhPagesError(f"{what}: the push to {git.remote_name}/{BRANCH} was rejected {tries} times; try again")


def _commit_directory(git: Git, prefix: str, source: Path | None, message: str) -> bool:
    """Commit the local branch with `prefix/` replaced by the files of `source` (removed when None),
    through a temporary index: no checkout, no work tree. False when nothing would change."""
    parent = git.head_of(REF)
    with tempfile.TemporaryDirectory(prefix="phpcb-ghpages-") as temp:
        index = {**git.env, "GIT_INDEX_FILE": str(Path(temp) / "index")}
        if parent is None:
            git.run("read-tree", "--empty", env=index)
        else:
            git.run("read-tree", parent, env=index)
            listed = git.run("ls-files", "-z", "--", f"{prefix}/", env=index).stdout
            if listed:
                git.run("update-index", "-z", "--force-remove", "--stdin", env=index, stdin=listed)
        if source is not None:
            files = {**git.env, "GIT_INDEX_FILE": str(Path(temp) / "files")}
            git_dir = git.run("rev-parse", "--absolute-git-dir").stdout.strip()
            work = (f"--git-dir={git_dir}", f"--work-tree={source}")
            git.run(*work, "add", "--all", "--force", "--", ".", env=files, cwd=source)
            tree = git.run(*work, "write-tree", env=files, cwd=source).stdout.strip()
            git.run("read-tree", f"--prefix={prefix}/", tree, env=index)
        tree = git.run("write-tree", env=index).stdout.strip()
    if parent is not None and git.run("rev-parse", f"{parent}^{{tree}}").stdout.strip() == tree:
        return False
    commit = git.run("commit-tree", tree, *(["-p", parent] if parent else []), "-m", message).stdout.strip()
    git.run("update-ref", REF, commit, parent or "0" * 40)
    return True


def _commit_files(git: Git, files: dict[str, Path], message: str, removed: Sequence[str] = ()) -> None:
    """Commit the local branch with these files added (path on the branch → file), and the directories
    `removed` emptied first, through a temporary index: no checkout, no work tree."""
    parent = git.head_of(REF)
    paths = sorted(files)
    stored = git.run(
        "hash-object", "-w", "--no-filters", "--stdin-paths", stdin="".join(f"{files[p].resolve()}\n" for p in paths)
    )
    ids = stored.stdout.split()
    with tempfile.TemporaryDirectory(prefix="phpcb-ghpages-") as temp:
        index = {**git.env, "GIT_INDEX_FILE": str(Path(temp) / "index")}
        git.run("read-tree", *([parent] if parent else ["--empty"]), env=index)
        for prefix in removed:
            listed = git.run("ls-files", "-z", "--", f"{prefix}/", env=index).stdout
            if listed:
                git.run("update-index", "-z", "--force-remove", "--stdin", env=index, stdin=listed)
        entries = "".join(f"100644 {object_id}\t{path}\0" for object_id, path in zip(ids, paths, strict=True))
        git.run("update-index", "-z", "--add", "--index-info", env=index, stdin=entries)
        tree = git.run("write-tree", env=index).stdout.strip()
    commit = git.run("commit-tree", tree, *(["-p", parent] if parent else []), "-m", message).stdout.strip()
    git.run("update-ref", REF, commit, parent or "0" * 40)


def _listing(git: Git, prefix: str) -> dict[str, str]:
    """Path → blob id of the local branch's files under `prefix/` (none before the first commit)."""
    if git.head_of(REF) is None:
        return {}
    listed = git.run("ls-tree", "-r", "-z", REF, "--", f"{prefix}/").stdout
    found = {}
    for entry in filter(None, listed.split("\0")):
        meta, path = entry.split("\t", 1)
        found[path] = meta.split()[2]
    return found


def _digest(where: str, data: bytes, compressed: bool) -> str:
    """SHA-256 of the bytes as the run recorded them: a compressed file's decompressed bytes."""
    try:
        plain = gzip.decompress(data) if compressed else data
    except (OSError, EOFError, zlib.error) as error:
        raise GhPagesError(f"{where}: not gzip data ({error})") from None
    return hashlib.sha256(plain).hexdigest()


def _sealed(run: Path) -> dict[str, tuple[str, bool]]:
    """A run directory as `python -m phpcb pages --shared-runs` writes it: each data file's published
    name → (SHA-256 of its bytes uncompressed, whether it is gzip-compressed). The digest is the
    seal's; a run without a seal (before schema version 6) is checked against the build's copy."""
    try:
        manifest = json.loads((run / MANIFEST).read_text(encoding="utf-8"))
        listed = [name for entry in manifest["experiments"].values() for name in entry["files"]]
        seal = manifest.get("seal") or {}
        sealed = {name: str(seal["files"][name]["sha256"]) for name in listed} if seal else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise GhPagesError(f"{run / MANIFEST}: not a run's manifest with its seal: {error!r}") from None
    expected = {}
    for name in listed:
        compressed = (run / f"{name}{GZIP_SUFFIX}").is_file()
        published = f"{name}{GZIP_SUFFIX}" if compressed else name
        if not (run / published).is_file():
            raise GhPagesError(f"{run / published}: missing from the build's copy of the run")
        digest = sealed.get(name) or _digest(str(run / published), (run / published).read_bytes(), compressed)
        expected[published] = (digest, compressed)
    return expected


def _mismatch(where: str, data: bytes, digest: str, compressed: bool) -> str | None:
    found = _digest(where, data, compressed)
    if found != digest:
        return f"{where}: SHA-256 {found[:12]}… is not the sealed {digest[:12]}…"
    return None


REPLACEMENTS = f"{RUNS_DIR}/replaced.json"  # every replacement of a published run: when, why, which manifests


def _replacement_notice(run_id: str, when: str, reason: str) -> str:
    """What an older version's Runs page says above a run whose files were replaced (escaped HTML, in
    Material's admonition markup)."""
    text = html.escape(f"The files of this run were replaced on {when}: {reason}. Its links give the new copy.")
    return f'<div class="admonition warning"><p class="admonition-title">Files replaced</p><p>{text}</p></div>'


def _noted_runs_pages(git: Git, run_id: str, when: str, reason: str, into: Path) -> dict[str, Path]:
    """Each version's Runs page on the branch that shows `run_id`, with a notice written after its
    heading (the versions' pages are static: this is how they learn of the new copy)."""
    anchor = "run-" + run_id.lower().replace(".", "-")  # experiments.contexts.run_anchor
    heading = re.compile(rf'(<h[1-6][^>]*\bid="{re.escape(anchor)}"[^>]*>.*?</h[1-6]>)', re.DOTALL)
    found: dict[str, Path] = {}
    listed = git.run("ls-tree", "-r", "--name-only", REF).stdout.splitlines() if git.head_of(REF) else []
    for path in listed:
        if not path.endswith("/runs/index.html") or path.startswith((f"{RUNS_DIR}/", f"{PREVIEW_DIR}/", f"{ALIAS}/")):
            continue
        page = git.blob(git.run("rev-parse", f"{REF}:{path}").stdout.strip()).decode("utf-8")
        noted, count = heading.subn(lambda m: m.group(1) + _replacement_notice(run_id, when, reason), page, count=1)
        if count:
            target = into / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(noted, encoding="utf-8")
            found[path] = target
    return found


def publish_runs(git: Git, source: Path, replace: dict[str, str] | None = None) -> list[str]:
    """Commit to the local branch's `runs/` each run of `source` (the build's runs/) that it lacks, in
    one commit, after checking the build's copy against the seal; a run the branch holds already is
    left as it is, after checking it is that run (the same manifest.json, and every file the seal
    lists there, decompressing to the sealed SHA-256). A run named in `replace` (run id → reason) whose
    published copy differs is replaced instead, on record: runs/replaced.json says when and why, and
    each older version's Runs page says so above the run. Returns the runs added or replaced."""
    if source.is_symlink() or not source.is_dir():
        raise GhPagesError(f"{source}: expected the runs the pages link to (python -m phpcb pages --shared-runs)")
    replace = dict(replace or {})
    present = _listing(git, RUNS_DIR)
    added: dict[str, Path] = {}
    replaced: list[str] = []
    for run in sorted(path for path in source.iterdir() if path.is_dir()):
        if not RUN_NAME.fullmatch(run.name):
            raise GhPagesError(f"{run}: not a run directory name")
        expected = _sealed(run)
        prefix = f"{RUNS_DIR}/{run.name}/"
        theirs = {path.removeprefix(prefix): blob for path, blob in present.items() if path.startswith(prefix)}
        if not theirs:
            for name, (digest, compressed) in expected.items():
                problem = _mismatch(str(run / name), (run / name).read_bytes(), digest, compressed)
                if problem:
                    raise GhPagesError(f"{problem}: the build's copy of the run does not match its seal")
            added |= {prefix + file.name: file for file in sorted(run.iterdir()) if file.is_file()}
            continue
        ours = git.run("hash-object", "--no-filters", "--", str(run / MANIFEST)).stdout.strip()
        problems = [] if theirs.get(MANIFEST) == ours else [f"{BRANCH}:{prefix}{MANIFEST} is not this run's manifest"]
        for name, (digest, compressed) in expected.items():
            if name not in theirs:
                problems.append(f"{BRANCH}:{prefix}{name} is missing")
                continue
            problem = _mismatch(f"{BRANCH}:{prefix}{name}", git.blob(theirs[name]), digest, compressed)
            problems.extend([problem] if problem else [])
        if problems and run.name in replace:
            for name, (digest, compressed) in expected.items():
                problem = _mismatch(str(run / name), (run / name).read_bytes(), digest, compressed)
                if problem:
                    raise GhPagesError(f"{problem}: the build's copy of the run does not match its seal")
            added |= {prefix + file.name: file for file in sorted(run.iterdir()) if file.is_file()}
            replaced.append(run.name)
            continue
        if problems:
            raise GhPagesError(
                f"{'; '.join(problems)}. The published copy of a run is never replaced unasked: every version "
                f"links to it. If data/runs/{run.name} was re-sealed on purpose, publish with "
                f'REPLACE_RUNS={run.name} REASON="why", which replaces it and records why'
            )
        if run.name in replace:
            raise GhPagesError(f"REPLACE_RUNS names {run.name}, whose published copy is this run already")
    unknown = sorted(set(replace) - {run.name for run in source.iterdir()})
    if unknown:
        raise GhPagesError(f"REPLACE_RUNS names {', '.join(unknown)}, which this build does not publish")
    if not added:
        return []
    with tempfile.TemporaryDirectory(prefix="phpcb-replace-") as work:
        when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        if replaced:
            record = _replacement_record(git)
            for run_id in replaced:
                old_manifest = _listing(git, f"{RUNS_DIR}/{run_id}").get(f"{RUNS_DIR}/{run_id}/{MANIFEST}")
                record.append({"run_id": run_id, "utc": when, "reason": replace[run_id], "manifest_was": old_manifest})
                added |= _noted_runs_pages(git, run_id, when, replace[run_id], Path(work))
            (Path(work) / "replaced.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
            added[REPLACEMENTS] = Path(work) / "replaced.json"
        ids = sorted({path.split("/")[1] for path in added if path.startswith(f"{RUNS_DIR}/") and path != REPLACEMENTS})
        what = f"Run data, published once for every version: {', '.join(ids)}"
        if replaced:
            what += f"; replaced on purpose: {', '.join(replaced)} ({'; '.join(replace[r] for r in replaced)})"
        _commit_files(git, added, what, removed=[f"{RUNS_DIR}/{run_id}" for run_id in replaced])
    return ids


def _replacement_record(git: Git) -> list[dict[str, object]]:
    blob = _listing(git, RUNS_DIR).get(REPLACEMENTS)
    if blob is None:
        return []
    try:
        record = json.loads(git.blob(blob))
    except ValueError:
        raise GhPagesError(f"{BRANCH}:{REPLACEMENTS}: not JSON") from None
    if not isinstance(record, list):
        raise GhPagesError(f"{BRANCH}:{REPLACEMENTS}: expected a list of replacements")
    return record


def check_site(artifact: Path, pr: int) -> Path:
    """The artifact's `site/` after checking it is what a preview build writes, and nothing else."""
    if artifact.is_symlink() or not artifact.is_dir():
        raise GhPagesError(f"{artifact}: expected the preview artifact directory")
    recorded = artifact / "pr-number"
    if (recorded.exists() or recorded.is_symlink()) and pr_from_file(recorded) != pr:
        raise GhPagesError(f"{recorded}: the artifact was built for another pull request than #{pr}")
    site = artifact / "site"
    if site.is_symlink() or not site.is_dir() or not (site / "index.html").is_file():
        raise GhPagesError(f"{site}: expected the preview site, a directory with index.html")
    count = size = 0
    for directory, subdirectories, files in os.walk(site):
        for name in subdirectories + files:
            path = Path(directory) / name
            mode = path.lstat().st_mode
            if name.lower().startswith(".git"):
                raise GhPagesError(f"{path}: a .git* name has no place in a preview site")
            if stat.S_ISLNK(mode):
                raise GhPagesError(f"{path}: symbolic links are refused in a preview site")
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                raise GhPagesError(f"{path}: only plain files and directories are accepted")
            if stat.S_ISREG(mode):
                count += 1
                size += path.lstat().st_size
        if count > MAX_FILES or size > MAX_BYTES:
            raise GhPagesError(f"{site}: over {MAX_FILES} files or {MAX_BYTES // 2**20} MiB; not a preview site")
    return site


def deploy_preview(git: Git, pr: int, artifact: Path) -> bool:
    site = check_site(artifact, pr)
    path = preview_path(pr)
    message = f"Preview of pull request #{pr} in {path}/"

    def change() -> bool:
        return _commit_directory(git, path, site.resolve(), message)

    changed = update_branch(git, change, f"preview of #{pr}")
    if not changed:
        print(f"preview of #{pr}: {BRANCH}:{path}/ already holds this site")
    return changed


def cleanup_preview(git: Git, pr: int) -> bool:
    path = preview_path(pr)

    def change() -> bool:
        if git.head_of(REF) is None or not git.run("ls-tree", REF, "--", path).stdout.strip():
            return False
        return _commit_directory(git, path, None, f"Remove the preview of pull request #{pr}")

    changed = update_branch(git, change, f"cleanup of #{pr}")
    if not changed:
        print(f"cleanup of #{pr}: no {path}/ on {BRANCH}; nothing to remove")
    return changed


def resolve_version(git: Git, version: str) -> str:
    if version == AUTO_VERSION:
        seconds = int(git.run("log", "-1", "--format=%ct", "HEAD").stdout.strip())
        return datetime.datetime.fromtimestamp(seconds, datetime.UTC).strftime("%Y.%m")
    if not VERSION.fullmatch(version) or version in RESERVED:
        raise GhPagesError(
            f"VERSION must look like 0.3 or 2026.11 (letters, digits, . _ -; not {', '.join(RESERVED)}), "
            f"got {version!r}"
        )
    return version


# What the published site is built from: a change here that HEAD does not hold would be published
# under a commit that does not hold it.
SITE_SOURCES = ("data", "docs", "templates", "scripts", "overrides", "mkdocs.yml", "mkdocs.publish.yml")
SHOWN_CHANGES = 10


def uncommitted_site_sources(git: Git) -> list[str]:
    """`git status` lines (modified, staged, untracked) under what the site is built from."""
    status = git.run("status", "--porcelain", "--untracked-files=all", "--", *SITE_SOURCES).stdout
    return [line for line in status.splitlines() if line.strip()]


def refuse_uncommitted(git: Git) -> None:
    changes = uncommitted_site_sources(git)
    if changes:
        shown = "; ".join(line.strip() for line in changes[:SHOWN_CHANGES])
        more = f" and {len(changes) - SHOWN_CHANGES} more" if len(changes) > SHOWN_CHANGES else ""
        raise GhPagesError(
            f"{len(changes)} uncommitted or untracked file(s) under {', '.join(SITE_SOURCES)} would be published "
            f"under commit {git.run('rev-parse', '--short', 'HEAD').stdout.strip()}, which does not hold them: "
            f"{shown}{more}. Commit or remove them, or publish anyway with FORCE=1"
        )


def publish(
    git: Git,
    version: str,
    config: str,
    mike: Sequence[str],
    force: bool = False,
    generate: Callable[[str], object] | None = None,
    shared_runs: Path | None = None,
    replace: dict[str, str] | None = None,
) -> str:
    """mike deploy VERSION + alias latest, set as the default; pr-preview/ and other versions are kept.
    Refused while what the site is built from has changes HEAD does not hold, unless `force`; then
    `generate` writes the build directory `config` is in, and `shared_runs` (its runs/, the runs' files
    the pages link to beside the site) go to the branch's runs/ first (publish_runs)."""
    if not force:
        refuse_uncommitted(git)
    version = resolve_version(git, version)
    if generate is not None:
        generate(version)

    def mike_run(*args: str) -> None:
        result = subprocess.run([*mike, *args, "--config-file", config], cwd=git.root, env=git.env, check=False)
        if result.returncode != 0:
            raise GhPagesError(f"mike {args[0]} failed (exit code {result.returncode}); see its output above")

    def change() -> bool:
        if shared_runs is not None:
            added = publish_runs(git, shared_runs, replace)
            print(f"{RUNS_DIR}/ on {BRANCH}: " + (f"added {', '.join(added)}" if added else "every run already there"))
        # A redirect, not mike's default symlink: GitHub Pages' branch deploy may refuse symlinks.
        mike_run("deploy", "--update-aliases", "--alias-type", "redirect", version, ALIAS)
        mike_run("set-default", ALIAS)
        return True

    update_branch(git, change, f"publish {version}")
    return version
