"""Pull requests of result sets: `make preview` and `make collect-runs`.

    python -m phpcb preview --pr N --base REF [--out preview]
    python -m phpcb collect-runs --artifacts DIR [--summary FILE]

`preview` finds the runs the pull request adds (a run counts when its `data/runs/<id>/manifest.json`
is added between the merge base of REF and HEAD), validates every run, generates the pages into a
temporary build directory and builds the site from it into `OUT/site/` as it will be served at its
preview address, with a Comparison page for those runs
(PHPCB_COMPARE) and a banner saying it is a preview (PHPCB_PREVIEW_PR, `extra.preview_pr`), and
writes `OUT/comment.md` (what merging changes: publish/merge_comment.py), `OUT/pr-number`, and the two
sides it was computed from, each by its own code (`OUT/sides/base/`, `OUT/sides/merged/`: statements.json
and every page's Markdown; publish/sides.py). The site is built from mkdocs.yml, not
mkdocs.publish.yml: a preview has no mike version selector.

A run already published on gh-pages (its `runs/<id>/` there holds the same manifest.json and every
file it lists: `shared_runs`) is linked there, two levels above the preview's root, not carried: the
preview's own `runs/` holds only the runs the pull request adds or changes (and any not yet published).
gh-pages is read from the origin remote's tracking branch (the workflow's checkout, fetch-depth: 0,
has it), else the local branch; without either, the preview carries every run.

The preview address is PREVIEW_URL when set, else
`https://<owner>.github.io/<name>/pr-preview/pr-N/` from GITHUB_REPOSITORY (or from the `origin`
remote's GitHub address).

`collect-runs` copies every run directory found in downloaded benchmark artifacts into `data/runs/`,
refusing a malformed directory, a run that fails the checks of an added run (data/run_checks.py), a
copy of another run under a new id (one already there or one collected beside it), and an id that
exists with other contents (a run already there with the same files is skipped: a leg's artifact may
carry the checkout's runs along), then validates them all (`python -m phpcb check`); on failure it
removes what it copied.
"""

from __future__ import annotations

import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from phpcb.data import run_checks, stacks
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.data.selection import COMPARE_VARIABLE
from phpcb.publish.ghpages import BRANCH, GZIP_SUFFIX, MANIFEST, PREVIEW_DIR, REF, RUNS_DIR
from phpcb.publish.merge_comment import preview_sides, trees_comment
from phpcb.publish.pr_runs import (
    RUNS,
    PullRequestError,
    added_runs,
    check_run_directory,
    run_git,
)
from phpcb.publish.sides import BASE as BASE_SIDE
from phpcb.publish.sides import MERGED as MERGED_SIDE
from phpcb.publish.sides import SIDES

GITHUB_REMOTE = re.compile(r"(?:https://github\.com/|git@github\.com:)([^/]+/[^/]+?)(?:\.git)?/?")
REPOSITORY = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})")
PREVIEW_CONFIG = "mkdocs.preview.yml"  # written into the build directory: it INHERITs the mkdocs.yml there
ARTIFACT_DEPTH = 4
SHARED_BASE = "../../"  # from pr-preview/pr-N/ up to the root of gh-pages, which holds runs/
SCRIPTS = str(Path(__file__).resolve().parents[2])
LOCAL_URL = "http://127.0.0.1:8000/"  # scripts/, which holds the phpcb package


def repository_name(root: Path) -> str | None:
    """owner/name from GITHUB_REPOSITORY, else from the origin remote when it is on GitHub."""
    name = os.environ.get("GITHUB_REPOSITORY", "").strip()
    if not name:
        remote = run_git(root, "remote", "get-url", "origin").stdout.strip()
        match = GITHUB_REMOTE.fullmatch(remote)
        name = match.group(1) if match else ""
    return name or None


def pages_url(repository: str) -> str:
    """The GitHub Pages address of a repository's project site."""
    match = REPOSITORY.fullmatch(repository)
    if not match:
        raise PullRequestError(f"GITHUB_REPOSITORY must be owner/name, got {repository!r}")
    owner, name = match.group(1).lower(), match.group(2)
    if name.lower() == f"{owner}.github.io":
        return f"https://{owner}.github.io/"
    return f"https://{owner}.github.io/{name}/"


@dataclass(frozen=True)
class Addresses:
    preview: str
    published: str


def addresses(root: Path, pr: int) -> Addresses:
    given = os.environ.get("PREVIEW_URL", "").strip()
    repository = repository_name(root)
    if given:
        if not re.fullmatch(r"https?://[^\s\"'<>]+", given):
            raise PullRequestError(f"PREVIEW_URL must be an http(s) address, got {given!r}")
        preview = given.rstrip("/") + "/"
        suffix = f"{PREVIEW_DIR}/pr-{pr}/"
        published = os.environ.get("PUBLISHED_URL", "").strip() or (
            preview[: -len(suffix)] if preview.endswith(suffix) else (pages_url(repository) if repository else preview)
        )
        return Addresses(preview, published)
    if repository is None:
        # A local preview: `mkdocs serve`'s address, said so. A workflow sets GITHUB_REPOSITORY.
        print(
            f"the preview's address: {LOCAL_URL}{PREVIEW_DIR}/pr-{pr}/ (no GITHUB_REPOSITORY=owner/name, PREVIEW_URL "
            "or GitHub origin remote tells the real one; set one of them for the links the comment will carry)",
            file=sys.stderr,
        )
        return Addresses(f"{LOCAL_URL}{PREVIEW_DIR}/pr-{pr}/", LOCAL_URL)
    published = pages_url(repository)
    return Addresses(f"{published}{PREVIEW_DIR}/pr-{pr}/", published)


def published_ref(root: Path) -> str | None:
    for ref in (f"refs/remotes/origin/{BRANCH}", REF):
        if run_git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode == 0:
            return ref
    return None


def shared_runs(root: Path) -> list[str]:
    """The runs of data/runs/ whose published copy gh-pages holds: its runs/<id>/ has the same
    manifest.json and each file the manifest lists (compressed or not). Sorted."""
    ref = published_ref(root)
    if ref is None:
        return []
    listed = run_git(root, "ls-tree", "-r", "-z", ref, "--", f"{RUNS_DIR}/")
    if listed.returncode != 0:
        raise PullRequestError(f"git ls-tree {ref} failed: {listed.stderr.strip()}")
    published = {}
    for entry in filter(None, listed.stdout.split("\0")):
        meta, path = entry.split("\t", 1)
        published[path] = meta.split()[2]
    manifests = sorted((root / RUNS).glob(f"*/{MANIFEST}"))
    candidates = [m for m in manifests if f"{RUNS_DIR}/{m.parent.name}/{MANIFEST}" in published]
    if not candidates:
        return []
    paths = "".join(f"{m}\n" for m in candidates)
    hashed = subprocess.run(
        ["git", "hash-object", "--no-filters", "--stdin-paths"],
        cwd=root,
        input=paths,
        capture_output=True,
        text=True,
        check=False,
    )
    if hashed.returncode != 0:
        raise PullRequestError(f"git hash-object failed: {hashed.stderr.strip()}")
    found = []
    for manifest, ours in zip(candidates, hashed.stdout.split(), strict=True):
        prefix = f"{RUNS_DIR}/{manifest.parent.name}/"
        if published[prefix + MANIFEST] != ours:
            continue  # re-sealed or edited since it was published: the preview carries its own copy
        try:
            entries = json.loads(manifest.read_text(encoding="utf-8"))["experiments"].values()
            files = [name for entry in entries for name in entry["files"]]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # the build refuses it with one line naming the file
        if all(prefix + name in published or prefix + name + GZIP_SUFFIX in published for name in files):
            found.append(manifest.parent.name)
    return found


def _run(command: list[str], root: Path, env: dict[str, str], what: str) -> None:
    """A `python -m phpcb ...` step, this package importable whatever the caller's PYTHONPATH."""
    paths = [SCRIPTS, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    result = subprocess.run(command, cwd=root, env={**env, "PYTHONPATH": os.pathsep.join(paths)}, check=False)
    if result.returncode != 0:
        raise PullRequestError(f"{what} failed (exit code {result.returncode}); see the lines above")


def preview(root: Path, pr: int, base: str, out: Path) -> str:
    runs = added_runs(root, base)
    where = addresses(root, pr)
    env = {**os.environ, COMPARE_VARIABLE: ",".join(runs), "PHPCB_PREVIEW_PR": str(pr)}
    if not runs:
        env.pop(COMPARE_VARIABLE)
    print(f"pull request #{pr}: adds {', '.join(runs) if runs else 'no run'}; preview at {where.preview}")

    shared = shared_runs(root)
    if shared:
        print(f"linked to on {BRANCH} (published there already, not carried): {', '.join(shared)}")

    out = out if out.is_absolute() else root / out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="phpcb-preview-") as work:
        # Both sides first: every run the pull request adds or rewrites is held to the checks of an added
        # run (merge_comment.check_changed_runs) before a page is built from it.
        before_root, after_root, sides = preview_sides(root, base, Path(work))
        # Both sides as files, for the contributor and for the trusted comment job, which reads the merged
        # side only to show, as this job's word, what the pull request's code changes (sides.claimed).
        sides.before.write(out / SIDES / BASE_SIDE)
        sides.after.write(out / SIDES / MERGED_SIDE)
        build = Path(work) / "build"
        # Generating validates every run (the same loading as `phpcb check`, whose one-line error it
        # prints), so there is no separate check: it would load and analyse everything twice.
        generate = [sys.executable, "-m", "phpcb", "--root", str(root), "pages", "--out", str(build)]
        if shared:
            generate += ["--shared-runs", SHARED_BASE, "--shared-only", ",".join(shared)]
        _run(generate, root, env, "generating the preview's pages (python -m phpcb pages)")
        config = build / PREVIEW_CONFIG
        config.write_text(
            "# Generated by python -m phpcb preview: the site as served at its preview address.\n"
            + json.dumps(
                {
                    "INHERIT": "mkdocs.yml",
                    "site_url": where.preview,
                    "extra": {"preview_pr": pr, "published_url": where.published},
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
        mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(config)]
        _run([*mkdocs, "-d", str(out / "site")], root, env, "the preview site build (mkdocs build --strict)")
        (out / "pr-number").write_text(f"{pr}\n", encoding="ascii")
        # The comment as the trusted job computes it, but with each side's own code; never posted: the
        # comment job writes its own from the pull request's files (artifact_comment.py).
        comment = out / "comment.md"
        _, text = trees_comment(before_root, after_root, sides, where.preview, comment)
    return f"preview of #{pr} in {out}/site/ (for {where.preview}); comment in {comment} ({len(text):,} characters)"


# --- collect-runs -------------------------------------------------------------------------------


def _run_directories(artifacts: Path) -> list[Path]:
    """Directories under `artifacts` (a few levels deep) that hold a manifest.json."""
    if artifacts.is_symlink() or not artifacts.is_dir():
        raise PullRequestError(f"{artifacts}: expected the directory the artifacts were downloaded into")
    found = []
    for directory, subdirectories, files in os.walk(artifacts):
        depth = len(Path(directory).relative_to(artifacts).parts)
        if "manifest.json" in files:
            found.append(Path(directory))
            subdirectories[:] = []
        elif depth >= ARTIFACT_DEPTH:
            subdirectories[:] = []
    return sorted(found, key=lambda path: path.name)


def _same_files(a: Path, b: Path) -> bool:
    comparison = filecmp.dircmp(a, b)
    if comparison.left_only or comparison.right_only or comparison.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, comparison.common_files, shallow=False)
    return not mismatch and not errors and all(_same_files(a / d, b / d) for d in comparison.common_dirs)


def collect(root: Path, artifacts: Path, summary: Path | None) -> str:
    found = _run_directories(artifacts)
    if not found:
        raise PullRequestError(f"{artifacts}: no run directory (a directory with manifest.json) found")
    target = root / RUNS
    names = [path.name for path in found]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise PullRequestError(f"{artifacts}: the same run id in several artifacts: {', '.join(twice)}")
    new, present = [], []
    schemas = load_schemas(root / "data" / "schema")
    declared = stacks.definitions()
    committed = [d for d in sorted(target.glob("*")) if d.is_dir() and not d.name.startswith(".")]
    for path in found:
        check_run_directory(path)
        run = load_run(path, schemas)
        run_checks.check_added(run, schemas, declared)  # before a byte of it is copied
        # Beside the runs already here and the other runs collected: none a copy of another under a new id.
        run_checks.check_not_a_copy(run, schemas, [*committed, *(other for other in found if other != path)])
        existing = target / path.name
        if existing.exists():
            if not _same_files(path, existing):
                raise PullRequestError(f"{path}: run {path.name} already exists in {RUNS}/ with other contents")
            present.append(path.name)
        else:
            new.append(path)
    if not new:
        raise PullRequestError(f"{artifacts}: no new run; all are already in {RUNS}/: {', '.join(present)}")
    copied: list[Path] = []
    try:
        for path in new:
            with tempfile.TemporaryDirectory(dir=target, prefix=".collect-") as temp:
                staged = Path(temp) / path.name
                shutil.copytree(path, staged, symlinks=True)
                staged.rename(target / path.name)
            copied.append(target / path.name)
        _run(
            [sys.executable, "-m", "phpcb", "check"],
            root,
            dict(os.environ),
            "validating the runs (python -m phpcb check)",
        )
    except BaseException:
        for path in copied:
            shutil.rmtree(path, ignore_errors=True)
        raise
    ids = [path.name for path in new]
    if summary is not None:
        lines = [f"- `{run_id}`" for run_id in ids]
        summary.write_text(
            "Runs measured by the bench-matrix workflow, one per runner image and PHP version:\n\n"
            + "\n".join(lines)
            + "\n",
            encoding="utf-8",
        )
    skipped = f"\n(already present, identical: {', '.join(present)})" if present else ""
    return "collected into data/runs/:\n" + "\n".join(ids) + skipped
