"""The pull-request comment built from a preview artifact's data by trusted code.

`make preview` runs the pull request's code, so what it writes is not to be posted as it stands: its
artifact carries the runs the pull request adds or rewrites (`runs/<id>/`, plain files) and
`runs.json`, which lists them, the deleted ones and the committed-run files changed. The deploy job
checks out the default branch (whose code and `data/runs/` are the published pages' before merging)
and writes the comment here: the artifact's runs are validated like any run (schema, seal), and every
word of the comment comes from this code, every value from data through its escaping.

    python -m phpcb artifact-comment --artifact DIR --out FILE [--base-runs DIR]

`make preview` writes its own `comment.md` the same way, with the base branch's runs it extracted,
so a contributor sees locally what the deploy job will post.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from phpcb.publish.ghpages import pr_from_file
from phpcb.publish.pr_runs import (
    ARTIFACT_RUNS_DIR,
    RUNS,
    RUNS_FILE,
    ArtifactError,
    ArtifactRuns,
    changed_runs_warning,
    check_run_directory,
)
from phpcb.publish.preview_comment import preview_comment
from phpcb.publish.pullrequest import addresses


def _runs_after(base_runs: Path, artifact: Path, found: ArtifactRuns, into: Path) -> Path:
    """data/runs/ as merging would leave it: the base's runs, less those deleted or rewritten, plus the
    artifact's (each checked as plain files under its own id first)."""
    after = into / "runs"
    shutil.copytree(base_runs, after) if base_runs.is_dir() else after.mkdir(parents=True)
    for run_id in (*found.deleted, *found.rewritten):
        shutil.rmtree(after / run_id, ignore_errors=True)
    for run_id in (*found.added, *found.rewritten):
        source = artifact / ARTIFACT_RUNS_DIR / run_id
        if not source.is_dir():
            raise ArtifactError(f"{artifact}: runs.json names {run_id}, but {ARTIFACT_RUNS_DIR}/{run_id}/ is not there")
        check_run_directory(source)
        if (after / run_id).exists():
            raise ArtifactError(f"{artifact}: {run_id} is listed as added, but the base branch already has it")
        shutil.copytree(source, after / run_id, symlinks=True)
    return after


def artifact_comment(root: Path, artifact: Path, out: Path, base_runs: Path | None = None) -> str:
    """The comment for a preview artifact, written to `out`: what merging changes, the evidence, a
    warning first when committed runs change, and the preview's address last."""
    pr = pr_from_file(artifact / "pr-number")
    found = ArtifactRuns.read(artifact / RUNS_FILE)
    base = base_runs if base_runs is not None else root / RUNS
    where = addresses(root, pr)
    with tempfile.TemporaryDirectory(prefix="phpcb-artifact-") as work:
        after = _runs_after(base, artifact, found, Path(work))
        warning = changed_runs_warning(after, list(found.changes))
        preview_comment(root, list(found.added), out, base_runs=base, runs_dir=after, preface=warning)
    text = out.read_text(encoding="utf-8").rstrip("\n")
    compare = f" (the runs beside their baselines: {where.preview}compare/)" if found.added else ""
    out.write_text(f"{text}\n\nPreview site: {where.preview}{compare}\n", encoding="utf-8")
    return f"{out}: the comment for #{pr} ({len(text):,} characters), from {artifact}'s runs"
