"""The "PHP and OpenSSL versions" page: what upgrading the stack (PHP and the OpenSSL it loads) changes,
measured on one machine with the two stacks in alternating rounds (`make bench-stacks`, data/stacks/).

The set shown is the newest of the reference machine (else the newest of any machine); the page sets
each experiment's classes side by side (newer/older with its CI across rounds), the largest case moves
beyond their class, every statement of the pages that reads differently on the newer stack, and what the
newer stack offers or does differently. Every other set is listed below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from phpcb.compare import stacks as compare_stacks
from phpcb.compare.ab import Effect, ExperimentEffects
from phpcb.data.loader import Run
from phpcb.data.schema import Schemas
from phpcb.data.selection import SiteConfig
from phpcb.data.stacks import StackSet
from phpcb.experiments.contexts import Contexts, run_anchor
from phpcb.experiments.experiment import Experiment
from phpcb.presentation.render import render

PAGE = "versions.md"
LARGEST_CASES = 5  # per experiment, the flagged cases beyond their class's shift, largest first


@dataclass(frozen=True)
class ExperimentRows:
    """One experiment's part of the page."""

    effects: ExperimentEffects
    largest: tuple[Effect, ...]  # its flagged cases, largest first
    flagged_cases: int

    @property
    def faster(self) -> int:
        return sum(1 for e in self.effects.classes if e.verdict.value == "faster")

    @property
    def slower(self) -> int:
        return sum(1 for e in self.effects.classes if e.verdict.value == "slower")


def chosen_set(sets: Sequence[StackSet], config: SiteConfig) -> StackSet | None:
    """The reference machine's newest set, else the newest of any machine."""
    own = [s for s in sets if s.machine == config.reference_machine]
    return max(own or sets, key=lambda s: s.set_id, default=None)


def experiment_rows(comparison: compare_stacks.StackComparison) -> list[ExperimentRows]:
    rows = []
    for effects in comparison.report.experiments:
        flagged = sorted((c for c in effects.cases if c.verdict.significant), key=lambda c: -abs(c.ratio - 1))
        rows.append(ExperimentRows(effects, tuple(flagged[:LARGEST_CASES]), len(flagged)))
    return rows


def comparison_of(
    sets: Sequence[StackSet],
    runs: list[Run],
    config: SiteConfig,
    schemas: Schemas,
    experiments: Sequence[Experiment],
    contexts: Contexts,
) -> compare_stacks.StackComparison | None:
    """The set the page shows, compared (once: experiment pages quote it)."""
    shown = chosen_set(sets, config)
    if shown is None:
        return None
    return compare_stacks.analyse(shown, {run.run_id: run for run in runs}, schemas, experiments, contexts)


def render_page(
    templates: Any, sets: Sequence[StackSet], comparison: compare_stacks.StackComparison | None, config: SiteConfig
) -> str:
    return render(
        templates,
        "versions.md.j2",
        comparison=comparison,
        rows=experiment_rows(comparison) if comparison is not None else [],
        sets=sorted(sets, key=lambda s: s.set_id, reverse=True),
        anchor=run_anchor,
        reference_stack=config.reference_stack,
    )
