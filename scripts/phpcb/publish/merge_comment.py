"""The pull request's comment, and the two ways it is computed; both from files, never from what a
preview artifact says of itself.

- `make preview` (the pull request's job, read-only token): the tree merging would give, built from
  git (pr_runs.merged_tree), and the base branch's tree; each side's statements computed by its own
  code (`python -m phpcb statements` run in that tree), so a change of the code, the config or the runs
  shows alike. The comment goes into the artifact for the contributor to read; it is never posted.
- `make artifact-comment` (the trusted comment job: the default branch's checkout, no write token):
  the pull request's head commit is read with git (fetched as refs/pull/N/head, and it must be the
  commit the preview built); its data/ changes since the merge base are applied to this checkout's
  tree, and both sides are computed by this checkout's code. The pull request's code is never run;
  when it changes the build's code, the comment says so and names the files.

A comment reads in a minute: what merging changes, the runs it adds in one line each, and a link to
the preview's Comparison page, which has the per-case tables.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from phpcb.compare.baselines import comparisons
from phpcb.compare.comparison import Comparison
from phpcb.compare.exporters.markdown import html, md_text, page_view
from phpcb.data import run_checks
from phpcb.data.loader import MANIFEST, load_run, load_runs
from phpcb.data.schema import load_schemas
from phpcb.data.selection import SHOW_RUN_VARIABLE, SiteConfig
from phpcb.experiments.contexts import Contexts, Project
from phpcb.publish.github_comment import MARKER
from phpcb.publish.merge_effect import MergeEffect, effect, lead, publishing_note
from phpcb.publish.pr_runs import RUNS, PullRequestError, extract, merged_tree, resolve
from phpcb.publish.statements import Snapshot, collect

COMMENT_TITLE = "### Benchmark preview"
EVIDENCE_HEADING = "#### The evidence: each added run beside its baseline"
ONE_RUN_BUDGET = 12_000  # what a comment on one added run may take (issue 36: read in a minute)
HARD_LIMIT = 60_000  # under GitHub's 65,536


@dataclass(frozen=True)
class Sides:
    before: Snapshot
    after: Snapshot
    notes: tuple[str, ...] = ()  # what the reader must know about how the sides were computed


def check_changed_runs(before_root: Path, after_root: Path) -> list[str]:
    """Every run `after_root` adds or rewrites (its manifest is new, or differs from the base's), loaded
    and held to the checks of an added run (data/run_checks.py). The ids, sorted."""
    if not (after_root / RUNS).is_dir():
        return []
    schemas = load_schemas(after_root / "data" / "schema")
    changed = []
    for directory in sorted((after_root / RUNS).iterdir()):
        if not directory.is_dir() or directory.name.startswith("."):
            continue
        old = before_root / RUNS / directory.name / MANIFEST
        new = directory / MANIFEST
        if old.is_file() and new.is_file() and old.read_bytes() == new.read_bytes():
            continue  # the same seal: the loader checks the files against it
        run_checks.check_added(load_run(directory, schemas), schemas)
        changed.append(directory.name)
    return changed


def statements_by_own_code(tree: Path, out: Path, fallback: Path | None = None) -> str | None:
    """`python -m phpcb statements` run by the tree's own code on its own data; when that code has no
    such verb (a base older than it) and `fallback` is given, this code is run on the tree instead,
    and a note says so."""
    env = {**os.environ, "PYTHONPATH": str(tree / "scripts"), SHOW_RUN_VARIABLE: ""}
    command = [sys.executable, "-m", "phpcb", "--root", str(tree), "statements", "--out", str(out)]
    result = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if result.returncode == 0:
        return None
    if fallback is not None and "invalid choice: 'statements'" in result.stderr:
        collect(tree).write(out)
        return "The base branch's code predates `python -m phpcb statements`: its side is computed by this code."
    lines = (result.stderr or result.stdout).strip().splitlines()
    raise PullRequestError(
        f"the statements of {tree} (python -m phpcb statements) failed: {lines[-1] if lines else result.returncode}"
    )


def added_comparisons(root: Path, added: Sequence[str]) -> list[Comparison]:
    """Each added run beside its baseline, from the tree at `root`."""
    if not added:
        return []
    schemas = load_schemas(root / "data" / "schema")
    runs = load_runs(root / RUNS, schemas)
    config = SiteConfig.load(root / "data" / "site.yaml")
    return comparisons(runs, list(added), config, schemas, Contexts(Project(root), schemas))


def resealed_warning(found: MergeEffect, after_root: Path) -> str:
    """Committed runs the pull request rewrites or deletes, first: with the files that changed and the
    reasons the runs' seals record."""
    if not found.rewritten and not found.removed:
        return ""
    lines = [
        "> [!WARNING]",
        f"> **This pull request changes {len(found.rewritten) + len(found.removed)} committed run(s)**: merging "
        "rewrites measurements the published pages may show.",
    ]
    for run in found.rewritten:
        files = "; ".join(str(f) for f in run.files) or "its manifest only"
        try:
            history = json.loads((after_root / RUNS / run.run_id / MANIFEST).read_text(encoding="utf-8"))["seal"]
            reasons = "; ".join(f"{e['utc']}: {e['reason']}" for e in history.get("resealed", []))
        except (OSError, ValueError, KeyError, TypeError):
            reasons = ""
        lines.append(html(f"> - `{md_text(run.run_id)}`: {md_text(files)}"))
        lines.append(html(f">   re-sealed: {md_text(reasons)}" if reasons else ">   never re-sealed"))
    lines += [html(f"> - `{md_text(r.run_id)}`: deleted") for r in found.removed]
    lines.append("> A committed run changes only by an explicit, recorded re-seal (docs/contributing.md).")
    return "\n".join(lines) + "\n\n"


def _evidence(found: Sequence[Comparison], preview: str) -> list[str]:
    runs = list(dict.fromkeys(c.new_id for c in found))
    if not runs:
        return ["This pull request adds no run, so there is no comparison to show.", ""]
    lines = [EVIDENCE_HEADING, ""]
    for comparison in found:
        view = page_view(comparison)
        across = " (across machines)" if comparison.across_machines else ""
        shift = f" {view.shift}" if view.shift else ""
        lines.append(f"- `{view.new_id}` beside `{view.base_id}`{across}: {view.summary}.{shift}")
    lines += [
        "",
        "Per-case tables, the environment diff and every advice change: "
        f"[the preview's Comparison page]({preview}compare/).",
        "",
    ]
    return lines


def compose(
    found: MergeEffect, evidence: Sequence[Comparison], preview: str, after_root: Path, notes: Sequence[str] = ()
) -> str:
    """The whole comment: marker, warnings, what merging changes, the evidence, the preview's address."""
    head = [MARKER, COMMENT_TITLE, ""]
    text = "\n".join(head) + "\n" + resealed_warning(found, after_root) + publishing_note(found)
    text += "".join(f"> {html(md_text(note))}\n\n" for note in notes)
    text += lead(found) + "\n" + "\n".join(_evidence(evidence, preview))
    text += f"\nPreview site: {preview}\n"
    if len(text) > HARD_LIMIT:  # a lead of hundreds of changes: keep what fits, say where the rest is
        text = text[: HARD_LIMIT - 200].rsplit("\n", 1)[0] + f"\n\n_Cut to fit a comment: see {preview}_\n"
    return text


def write(out: Path, text: str) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(out)


def trees_comment(
    before_root: Path, after_root: Path, sides: Sides, preview: str, out: Path
) -> tuple[MergeEffect, str]:
    """The comment of two computed sides: the runs the pull request adds compared by this code."""
    found = effect(sides.before, sides.after)
    evidence = added_comparisons(after_root, [r.run_id for r in found.added])
    text = compose(found, evidence, preview, after_root, sides.notes)
    write(out, text)
    return found, text


def preview_sides(root: Path, base: str, work: Path) -> tuple[Path, Path, Sides]:
    """`make preview`'s sides: the base's tree and code; the merged tree and the pull request's code."""
    before_root, after_root = work / "base", work / "merged"
    extract(root, resolve(root, base), before_root)
    merged_tree(root, base, "HEAD", after_root, only_data=False)
    check_changed_runs(before_root, after_root)
    notes = []
    after_file, before_file = work / "after.json", work / "before.json"
    statements_by_own_code(after_root, after_file)
    note = statements_by_own_code(before_root, before_file, fallback=before_root)
    if note:
        notes.append(note)
    return before_root, after_root, Sides(Snapshot.read(before_file), Snapshot.read(after_file), tuple(notes))
