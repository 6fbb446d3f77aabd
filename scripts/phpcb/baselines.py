"""Runs set beside their baselines: the Comparison page of `make report` and of a PR preview, and the
PR comment (`python -m phpcb preview-comment --runs ID[,ID]`).

Each compared run is set, experiment by experiment, beside the run selection.baseline_for picks: the
reference run of its own machine when there is one, else the published reference. The experiments
that share a baseline form one comparison, so one Benjamini–Hochberg family per pair of runs. A
compared run is never another compared run's baseline: a pull request's runs are measured against
what is already published.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import advice, registry
from .comparison import Comparison, compare
from .errors import NoDataError
from .experiment import Experiment
from .exporters.markdown import LIMIT, MarkdownExporter, md_text
from .github_comment import MARKER
from .loader import Run, load_runs
from .schema import Schemas, load_schemas
from .selection import SiteConfig, baseline_for

if TYPE_CHECKING:
    from .site import Contexts

COMMENT_TITLE = "### Benchmark preview"
# Room kept in the comment for the lines around the comparisons (pullrequest.preview adds the link).
_FRAME_RESERVE = 1_000


@dataclass(frozen=True)
class Pairing:
    """`new` beside `base` for these experiments, and why `base` is the baseline."""

    base: Run
    new: Run
    experiments: list[Experiment]
    reason: str


def pairings(runs: list[Run], compared: Sequence[str], config: SiteConfig) -> list[Pairing]:
    """For each compared run id, in the order given: one pairing per baseline run it gets."""
    by_id = {run.run_id: run for run in runs}
    unknown = [run_id for run_id in compared if run_id not in by_id]
    if unknown:
        raise NoDataError(f"no run {', '.join(unknown)} under data/runs/ to compare (known: {_known(runs)})")
    candidates = [run for run in runs if run.run_id not in compared]
    result: list[Pairing] = []
    for run_id in dict.fromkeys(compared):
        new = by_id[run_id]
        groups: dict[str, Pairing] = {}
        for experiment in registry.discover():
            if not new.has_results(experiment.name):
                continue
            chosen = baseline_for(new, candidates, experiment.name, config)
            if chosen is None:
                continue
            group = groups.setdefault(chosen.run.run_id, Pairing(chosen.run, new, [], chosen.reason))
            group.experiments.append(experiment)
        if not groups:
            raise NoDataError(f"{run_id}: no other run has any of its experiments, so there is nothing to compare with")
        result += groups.values()
    return result


def _known(runs: list[Run]) -> str:
    newest = [run.run_id for run in runs[-3:]]
    return ", ".join(newest) + (f" and {len(runs) - 3} older" if len(runs) > 3 else "")


def comparisons(
    runs: list[Run], compared: Sequence[str], config: SiteConfig, schemas: Schemas, contexts: Contexts
) -> list[Comparison]:
    """Each pairing compared, with what the new run would change in the advice (from `contexts`,
    the build's analyses: a reference run analysed for its page is not analysed again)."""
    result = []
    for pairing in pairings(runs, compared, config):
        names = [e.name for e in pairing.experiments]
        changes = advice.changes(pairing.base, pairing.new, contexts, names)
        result.append(compare(pairing.base, pairing.new, schemas, pairing.experiments, changes, pairing.reason))
    return result


def comment(found: Sequence[Comparison], limit: int = LIMIT) -> str:
    """The PR comment: the marker github_comment.py finds it by, then each comparison in an equal
    share of `limit` characters."""
    head = [MARKER, COMMENT_TITLE, ""]
    runs = list(dict.fromkeys(c.new_id for c in found))
    head.append(
        f"This pull request adds {len(runs)} run{'s' if len(runs) != 1 else ''}: "
        + ", ".join(f"`{md_text(r)}`" for r in runs)
        + f". Each is compared with its baseline ({len(found)} comparison{'s' if len(found) != 1 else ''}).\n"
    )
    share = max((limit - _FRAME_RESERVE) // max(len(found), 1), 0)
    exporter = MarkdownExporter(share)
    return "\n".join(head) + "\n" + "\n".join(exporter.serialize(c) for c in found)


def preview_comment(root: Path, compared: Sequence[str], out: Path | None) -> str:
    """`python -m phpcb preview-comment`: the comment for these runs, printed or written to `out`."""
    if not compared:
        raise NoDataError("--runs: name at least one run id, e.g. --runs 20261122T1835Z-intel-xeon-fb7fc6-php8.2")
    schemas = load_schemas(root / "data" / "schema")
    runs = load_runs(root / "data" / "runs", schemas)
    config = SiteConfig.load(root / "data" / "site.yaml")
    config.check(runs)
    from .site import Contexts, Project  # the site imports this module

    text = comment(comparisons(runs, compared, config, schemas, Contexts(Project(root), schemas)))
    if out is None:
        return text.rstrip("\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(out)
    return f"{out}: comment on {', '.join(compared)} ({len(text):,} characters)"
