"""The "PHP and OpenSSL versions" page: what upgrading the stack (PHP and the OpenSSL it loads) changes,
measured on one machine with the two stacks in alternating rounds (`make bench-stacks`, data/stacks/).

The set shown is the newest of the reference machine (else the newest of any machine). The answer says
first whether the advice changes (the statements both stacks make, compare/stacks.py), then what the
cases say (each case's own newer/older time: cases decide) and the pages' headline ratios on each stack
(GCM over CCM 4.8× → 19×: a ratio no single case shows), and last the classes (each the median of its
cases: a summary). Below: per experiment its classes and the cases that changed most, every statement
that reads differently, and what the newer stack offers or does differently. Every other set is listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from phpcb.compare import stacks as compare_stacks
from phpcb.compare.ab import Effect, ExperimentEffects
from phpcb.data.loader import Run
from phpcb.data.schema import Schemas
from phpcb.data.selection import SiteConfig
from phpcb.data.stacks import StackSet
from phpcb.data.verdicts import STATUS_TEXT
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts, run_anchor
from phpcb.experiments.experiment import Experiment
from phpcb.presentation.render import render
from phpcb.presentation.wording import times

PAGE = "versions.md"
LARGEST_CASES = 5  # per experiment, the cases that changed most, largest first
IN_THE_ANSWER = 3  # the cases, headline ratios and advice changes the answer names


@dataclass(frozen=True)
class ExperimentRows:
    """One experiment's part of the page: its classes (a summary) and its cases (which decide)."""

    effects: ExperimentEffects  # its classes, newer/older of each class's median case
    cases: compare_stacks.ExperimentCases | None  # each case's own newer/older

    @property
    def faster(self) -> int:
        return sum(1 for e in self.effects.classes if e.verdict.value == "faster")

    @property
    def slower(self) -> int:
        return sum(1 for e in self.effects.classes if e.verdict.value == "slower")

    @property
    def largest(self) -> tuple[Effect, ...]:
        return self.cases.largest(LARGEST_CASES) if self.cases is not None else ()

    @property
    def changed_cases(self) -> int:
        return self.cases.faster + self.cases.slower if self.cases is not None else 0


def chosen_set(sets: Sequence[StackSet], config: SiteConfig) -> StackSet | None:
    """The reference machine's newest set, else the newest of any machine."""
    own = [s for s in sets if s.machine == config.reference_machine]
    return max(own or sets, key=lambda s: s.set_id, default=None)


def experiment_rows(comparison: compare_stacks.StackComparison) -> list[ExperimentRows]:
    cases = {found.name: found for found in comparison.cases}
    return [ExperimentRows(effects, cases.get(effects.name)) for effects in comparison.report.experiments]


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


def status_words(experiments: Sequence[Experiment]) -> dict[str, str]:
    """A statement's or an inventory's token (`not_evaluated`, `aead_needs_tag`) in the words the pages use:
    a verdict's status as every page prints it, then each experiment's own (Experiment.words)."""
    words = dict(STATUS_TEXT)
    for experiment in experiments:
        words.update(experiment.words)
    return words


def in_words(value: str | None, words: Mapping[str, str]) -> str:
    """A statement's value as the page prints it: 'not stated' where a stack's run does not make it."""
    if value is None:
        return "not stated"
    if value in STATUS_TEXT:
        # A verdict's words alone would read as a status of nothing: the row's statement names the primitive.
        return f"rated {STATUS_TEXT[value]}"
    return words.get(value, value)


def moved(effect: Effect) -> str:
    """A newer/older time ratio in words: '4.39× faster', '1.11× slower' (as precise as wording.times)."""
    if effect.ratio < 1:
        return f"{times(1 / effect.ratio)} faster"
    return f"{times(effect.ratio)} slower"


def render_page(
    templates: Any,
    sets: Sequence[StackSet],
    comparison: compare_stacks.StackComparison | None,
    config: SiteConfig,
    experiments: Sequence[Experiment] | None = None,
) -> str:
    words = status_words(registry.discover() if experiments is None else experiments)
    return render(
        templates,
        "versions.md.j2",
        comparison=comparison,
        rows=experiment_rows(comparison) if comparison is not None else [],
        sets=sorted(sets, key=lambda s: s.set_id, reverse=True),
        anchor=run_anchor,
        reference_stack=config.reference_stack,
        in_the_answer=IN_THE_ANSWER,
        said=lambda value: in_words(value, words),
        moved=moved,
    )
