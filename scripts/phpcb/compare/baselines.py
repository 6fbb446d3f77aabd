"""Runs set beside their baselines: the Comparison page of `make report` and of a PR preview, and the
PR comment (publish/preview_comment.py).

Each compared run is set, experiment by experiment, beside the run selection.baseline_for picks: the
reference run of its own machine and stack when there is one (else of its machine), else the
published reference. The experiments that share a baseline form one comparison, so one
Benjamini–Hochberg family per pair of runs. A compared run is never another compared run's baseline:
a pull request's runs are measured against what is already published.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from phpcb.compare import advice_changes
from phpcb.compare.comparison import Comparison, compare
from phpcb.data.loader import Run
from phpcb.data.schema import Schemas
from phpcb.data.selection import SiteConfig, baseline_for
from phpcb.errors import NoDataError
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts
from phpcb.experiments.experiment import Experiment


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
        changes = advice_changes.changes(pairing.base, pairing.new, contexts, names)
        result.append(compare(pairing.base, pairing.new, schemas, pairing.experiments, changes, pairing.reason))
    return result
