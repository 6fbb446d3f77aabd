"""The pull request's comment, and the two ways it is computed; both from files, never from what a
preview artifact says of itself.

- `make preview` (the pull request's job, read-only token): the tree merging would give, built from
  git (pr_runs.merged_tree), and the base branch's tree; each side's statements and pages computed by
  its own code (`python -m phpcb statements --pages` run in that tree: sides.py), so a change of
  the code, the templates, the thresholds, the policy, the snippets or the runs shows alike. The
  comment and both sides go into the artifact; the comment is never posted.
- `make artifact-comment` (the trusted comment job: the default branch's checkout, no write token):
  the pull request's head commit is read with git (fetched as refs/pull/N/head, and it must be the
  commit the preview built); its changes to data/, runners/snippets/ and docs/ since the merge base
  are applied to this checkout's tree, and both sides are computed by this checkout's code. The pull
  request's code is never run: when it changes other files, the comment names them and shows what the
  preview job's merged side says they change, as that job's word, beside what this job computed.

Both comments are headed by what merging changes page by page (the pages' Markdown diffed: never "no
change" while a page's text differs), with the statements that explain it and each changed snippet's
lines, and say who computed them.

A comment reads in a minute: what merging changes, the runs it adds in one line each (the runner commit
that measured it and each experiment with its status), each beside its baseline in one line, and a link
to the preview's Comparison page, which has the per-case tables. An added run measured on a busy machine
(compare/load.py: other processes at or over its threshold) is flagged at the top, never refused.
Verdicts and other tokens read as the pages say them, answers as their text (comment_words.py).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from phpcb.compare.baselines import comparisons
from phpcb.compare.comparison import Comparison
from phpcb.compare.exporters.markdown import html, md_text, page_view
from phpcb.compare.load import LOADED_SHARE, LoadedExperiment, loaded
from phpcb.data import run_checks, stacks
from phpcb.data.loader import MANIFEST, Run, load_run, load_runs
from phpcb.data.machines import machine_name
from phpcb.data.schema import load_schemas
from phpcb.data.selection import SiteConfig
from phpcb.data.stacks import stack_of
from phpcb.data.whole_files import write_whole
from phpcb.errors import BuildError
from phpcb.experiments.contexts import Contexts, Project
from phpcb.presentation.formatting import percent
from phpcb.publish.comment_words import readable
from phpcb.publish.github_comment import MARKER
from phpcb.publish.merge_effect import MergeEffect, Reported, lead, publishing_note, reported_section
from phpcb.publish.pr_runs import RUNS, extract, merged_tree, resolve
from phpcb.publish.sides import BY_OWN_CODE, BY_THIS_CODE, Sides, by_own_code, by_this_code, claimed, files_tree

COMMENT_TITLE = "### Benchmark preview"
RUNS_HEADING = "#### The runs it adds: what measured them and what they measured"
EVIDENCE_HEADING = "#### The evidence: each added run beside its baseline"
MEASURED = ("ok", "partial")  # an experiment's statuses with results (the others measured nothing)
SHORT_COMMIT = 12  # as the statements name a runner commit (publish/statements.py RunInfo)
ONE_RUN_BUDGET = 12_000  # what a comment on one added run may take (issue 36: read in a minute)
HARD_LIMIT = 60_000  # under GitHub's 65,536


def check_changed_runs(before_root: Path, after_root: Path) -> list[str]:
    """Every run `after_root` adds or rewrites (its manifest is new, or differs from the base's), loaded
    and held to the checks of an added run (data/run_checks.py), and to not being a copy of any other run
    merging would leave under data/runs/ (run_checks.check_not_a_copy). The ids, sorted."""
    if not (after_root / RUNS).is_dir():
        return []
    schemas = load_schemas(after_root / "data" / "schema")
    declared = stacks.definitions()
    directories = [d for d in sorted((after_root / RUNS).iterdir()) if d.is_dir() and not d.name.startswith(".")]
    changed = []
    for directory in directories:
        old = before_root / RUNS / directory.name / MANIFEST
        new = directory / MANIFEST
        if old.is_file() and new.is_file() and old.read_bytes() == new.read_bytes():
            continue  # the same seal: the loader checks the files against it
        run = load_run(directory, schemas)
        run_checks.check_added(run, schemas, declared)
        run_checks.check_not_a_copy(run, schemas, directories)
        changed.append(directory.name)
    return changed


@dataclass(frozen=True)
class AddedRun:
    """A run the pull request adds, as its manifest names it: what measured it and what it measured."""

    run_id: str
    commit: str  # the runner's git commit, short ("not recorded" when the manifest has none)
    profile: str
    machine: str
    stack: str
    experiments: tuple[tuple[str, str, str], ...]  # (experiment, status, reason), as the manifest lists them
    loaded: tuple[LoadedExperiment, ...]  # what it measured while other processes kept the machine busy

    @classmethod
    def of(cls, run: Run) -> AddedRun:
        commit = run.manifest.get("git_commit")
        entries = run.manifest["experiments"]
        measured = [name for name, entry in entries.items() if entry.get("status") in MEASURED]
        return cls(
            run.run_id,
            commit[:SHORT_COMMIT] if isinstance(commit, str) and commit else "not recorded",
            str(run.manifest["profile"]),
            machine_name(run.manifest),
            stack_of(run.manifest).short_label,
            tuple(
                (str(name), str(entry.get("status")), str(entry.get("reason") or "")) for name, entry in entries.items()
            ),
            tuple(found for name in measured if (found := loaded(run, name)) is not None),
        )

    @property
    def line(self) -> str:
        """One list item: the run, the runner commit, and each experiment with its status."""
        measured = ", ".join(
            f"{name} {status}" + (f" ({reason})" if reason and status != "ok" else "")
            for name, status, reason in self.experiments
        )
        return html(
            f"- `{md_text(self.run_id)}`: runner commit `{md_text(self.commit)}`; {md_text(self.profile)} profile, "
            f"{md_text(self.machine)}, {md_text(self.stack)}; experiments: {md_text(measured) or 'none'}"
        )

    @property
    def busy(self) -> str:
        """What other processes took while the run measured on a busy machine, as a sentence: '' when
        nothing. By the record around each experiment, else by the reading before the run started."""
        parts = [
            f"{percent(found.others_share)} of all CPU time while it measured {found.experiment}"
            for found in self.loaded
            if not found.before_the_run
        ]
        before = [found for found in self.loaded if found.before_the_run]
        if before:
            names = ", ".join(found.experiment for found in before)
            parts.append(
                f"{percent(before[0].others_share)} of all CPU time in the seconds before it started "
                f"(no record around {names})"
            )
        return f"other processes used {'; '.join(parts)}" if parts else ""


def added_evidence(root: Path, added: Sequence[str]) -> tuple[tuple[AddedRun, ...], list[Comparison]]:
    """Each added run, named, and beside its baseline, from the tree at `root`."""
    if not added:
        return (), []
    schemas = load_schemas(root / "data" / "schema")
    runs = load_runs(root / RUNS, schemas)
    config = SiteConfig.load(root / "data" / "site.yaml")
    by_id = {run.run_id: run for run in runs}
    named = tuple(AddedRun.of(by_id[run_id]) for run_id in added if run_id in by_id)
    return named, comparisons(runs, list(added), config, schemas, Contexts(Project(root), schemas))


def added_comparisons(root: Path, added: Sequence[str]) -> list[Comparison]:
    """Each added run beside its baseline, from the tree at `root`."""
    return added_evidence(root, added)[1]


def busy_warning(runs: Sequence[AddedRun]) -> str:
    """The added runs measured on a busy machine, first: flagged, not refused (the comparison withholds
    the verdicts of what each measured loaded; compare/load.py)."""
    busy = [run for run in runs if run.busy]
    if not busy:
        return ""
    lines = [
        "> [!WARNING]",
        f"> **{len(busy)} added run(s) measured on a busy machine**: other processes used {percent(LOADED_SHARE)} "
        "of all CPU time or more (the threshold of compare/load.py), so their times show the load as well as "
        "PHP. Measure again on an idle machine (docs/contributing.md).",
        ">",
    ]
    lines += [f"> - `{html(md_text(run.run_id))}`: {html(md_text(run.busy))}" for run in busy]
    return "\n".join(lines) + "\n\n"


def resealed_warning(found: MergeEffect, after_root: Path) -> str:
    """Committed runs the pull request rewrites or deletes, first: with the files that changed and the
    reasons the runs' seals record."""
    if not found.rewritten and not found.removed:
        return ""
    lines = [
        "> [!WARNING]",
        f"> **This pull request changes {len(found.rewritten) + len(found.removed)} committed run(s)**: merging "
        "rewrites measurements the published pages may show.",
        ">",
    ]
    for run in found.rewritten:
        files = "; ".join(str(f) for f in run.files) or "its manifest only"
        try:
            history = json.loads((after_root / RUNS / run.run_id / MANIFEST).read_text(encoding="utf-8"))["seal"]
            reasons = "; ".join(f"{e['utc']}: {e['reason']}" for e in history.get("resealed", []))
        except (OSError, ValueError, KeyError, TypeError):
            reasons = ""
        lines.append(f"> - `{html(md_text(run.run_id))}`: {html(md_text(files))}")
        lines.append(f">   re-sealed: {html(md_text(reasons))}" if reasons else ">   never re-sealed")
    lines += [f"> - `{html(md_text(r.run_id))}`: deleted" for r in found.removed]
    lines += [">", "> A committed run changes only by an explicit, recorded re-seal (docs/contributing.md)."]
    return "\n".join(lines) + "\n\n"


def _evidence(found: Sequence[Comparison], preview: str, added: Sequence[AddedRun] = ()) -> list[str]:
    lines = []
    if added:
        lines += [RUNS_HEADING, "", *(run.line for run in added), ""]
    runs = list(dict.fromkeys(c.new_id for c in found))
    if not runs:
        return [*lines, "This pull request adds no run, so there is no comparison to show.", ""]
    lines += [EVIDENCE_HEADING, ""]
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
    found: MergeEffect,
    evidence: Sequence[Comparison],
    preview: str,
    after_root: Path,
    notes: Sequence[str] = (),
    added: Sequence[AddedRun] = (),
    by: str = "",
    reported: Reported | None = None,
) -> str:
    """The whole comment: marker, warnings, what merging changes (in the pages' words: comment_words.py;
    `by` says who computed it), what the pull request's own job says its code changes (`reported`), the
    runs it adds, the evidence, the preview's address."""
    found = readable(found)
    if reported is not None and reported.effect is not None:
        reported = dataclasses.replace(reported, effect=readable(reported.effect))
    head = [MARKER, COMMENT_TITLE, ""]
    text = "\n".join(head) + "\n" + resealed_warning(found, after_root) + busy_warning(added) + publishing_note(found)
    text += "".join(f"> {html(md_text(note))}\n\n" for note in notes)
    text += lead(found, by=by, reported=reported) + "\n"
    if reported is not None:
        text += reported_section(reported) + "\n"
    text += "\n".join(_evidence(evidence, preview, added))
    text += f"\nPreview site: {preview}\n"
    if len(text) > HARD_LIMIT:  # a lead of hundreds of changes: keep what fits, say where the rest is
        text = text[: HARD_LIMIT - 200].rsplit("\n", 1)[0] + f"\n\n_Cut to fit a comment: see {preview}_\n"
    return text


def write(out: Path, text: str) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    write_whole(out, text.encode("utf-8"))


def trees_comment(
    before_root: Path, after_root: Path, sides: Sides, preview: str, out: Path
) -> tuple[MergeEffect, str]:
    """The comment of two computed sides (and of what the pull request's job reports its code changes,
    when the sides hold that): the runs the pull request adds compared by this code."""
    found, reported = sides.effects()
    added, evidence = added_evidence(after_root, [r.run_id for r in found.added])
    text = compose(found, evidence, preview, after_root, sides.notes, added, sides.by, reported)
    write(out, text)
    return found, text


def preview_sides(root: Path, base: str, work: Path) -> tuple[Path, Path, Sides]:
    """`make preview`'s sides: the base's tree and code; the merged tree and the pull request's code. Each
    side's statements and pages are computed by its own code (sides.by_own_code)."""
    before_root, after_root = work / "base", work / "merged"
    extract(root, resolve(root, base), before_root)
    merged_tree(root, base, "HEAD", after_root, only_data=False)
    check_changed_runs(before_root, after_root)
    after, _ = by_own_code(after_root, work, "after")
    before, note = by_own_code(before_root, work, "before", fallback=True)
    return before_root, after_root, Sides(before, after, (note,) if note else (), BY_OWN_CODE)


def trusted_sides(root: Path, head: str, artifact: Path, work: Path) -> tuple[Path, Path, Sides]:
    """The trusted job's sides, by this code only: the base's files (this checkout's HEAD), and the merged
    tree's files this code builds from (sides.files_tree: data/, runners/snippets/, docs/). When the pull
    request changes other files, their effect is the preview artifact's merged side (sides.claimed), said
    to be its job's word; should the merged files not build with this code, that is said too."""
    trees = files_tree(root, "HEAD", head, work)
    check_changed_runs(trees.before, trees.after)
    before = by_this_code(trees.before)
    notes = []
    try:
        after = by_this_code(trees.after) if trees.applied else before
    except BuildError as error:
        if not trees.code:
            raise
        notes.append(
            f"This job's build of the pull request's files with the default branch's code fails ({error}): they "
            "need the pull request's code. Everything this comment says changes is the preview job's word."
        )
        after = before
    found = claimed(artifact, before, trees.code) if trees.code else None
    return trees.before, trees.after, Sides(before, after, tuple(notes), BY_THIS_CODE, found)
