"""What the site advises, as comparable statements: each experiment's recommendations, findings and
security verdicts for one run, keyed so that two runs' advice can be diffed ("what would this run
change on the site if it were the reference?")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .stats import Ratio

if TYPE_CHECKING:
    from .loader import Run
    from .site import Contexts


@dataclass(frozen=True)
class Advice:
    """One statement the site makes from a run: `label` names it, `value` is what it says."""

    experiment: str
    key: str  # stable across runs, e.g. "aead.fastest-recommended.16384"
    label: str  # e.g. "Fastest recommended AEAD at 16 KiB"
    value: str  # e.g. "chacha20-poly1305"
    # A tie: the options it cannot tell apart, e.g. ("aes-128-gcm", "aes-256-gcm"); () when it decides.
    options: tuple[str, ...] = ()

    @classmethod
    def of_pick(
        cls, experiment: str, key: str, label: str, name: str | None, runner_up: str | None, ratio: Ratio | None
    ) -> Advice:
        """A choice, or a tie of the pick and its runner-up when their ratio cannot tell them apart."""
        tied = name is not None and runner_up is not None and ratio is not None and not ratio.significant
        options = tuple(sorted((name, runner_up))) if tied and name and runner_up else ()
        return cls(experiment, key, label, pick(name, runner_up, ratio), options)

    @classmethod
    def of_direction(cls, experiment: str, key: str, label: str, subject: str, baseline: str, ratio: Ratio) -> Advice:
        """Which of two is faster, or a tie of both."""
        options = () if ratio.significant else tuple(sorted((subject, baseline)))
        return cls(experiment, key, label, direction(subject, baseline, ratio), options)


@dataclass(frozen=True)
class AdviceChange:
    """A statement that differs between two runs; None where one run does not make it."""

    experiment: str
    key: str
    label: str
    base: str | None
    new: str | None
    # Both runs state it, and one of them as a tie that includes the other's choice: a statement that
    # moved within the spread between runs, not a change of the advice.
    tie: bool = False


def _within_a_tie(before: Advice, after: Advice) -> bool:
    if not (before.options or after.options):
        return False
    return bool(set(before.options or (before.value,)) & set(after.options or (after.value,)))


def diff(base: list[Advice], new: list[Advice]) -> list[AdviceChange]:
    """Every statement whose value differs, or that only one run makes, in the base run's order; the
    changes within a tie are marked (AdviceChange.tie)."""
    old = {a.key: a for a in base}
    fresh = {a.key: a for a in new}
    changes = []
    for key in [*old, *(k for k in fresh if k not in old)]:
        before, after = old.get(key), fresh.get(key)
        if before is not None and after is not None and before.value == after.value:
            continue
        named = before or after
        assert named is not None
        changes.append(
            AdviceChange(
                named.experiment,
                key,
                named.label,
                before.value if before else None,
                after.value if after else None,
                tie=before is not None and after is not None and _within_a_tie(before, after),
            )
        )
    return changes


def direction(subject: str, baseline: str, ratio: Ratio) -> str:
    """Which of two is faster, as the pages decide it (a CI beyond the noise threshold), without the number.
    A tie names both in alphabetical order: the same words whichever measured faster."""
    if not ratio.significant:
        first, second = sorted((subject, baseline))
        return f"no measurable difference between {first} and {second}"
    faster, slower = (subject, baseline) if ratio.value >= 1 else (baseline, subject)
    return f"{faster} faster than {slower}"


def pick(name: str | None, runner_up: str | None, ratio: Ratio | None) -> str:
    """A choice as the pages state it: the pick alone, or tied with the runner-up when they cannot be told apart."""
    if name is None:
        return "none"
    if runner_up is not None and ratio is not None and not ratio.significant:
        first, second = sorted((name, runner_up))
        return f"{first} or {second} (no measurable difference)"
    return name


def of_run(run: Run, contexts: Contexts, experiments: list[str] | None = None) -> list[Advice]:
    """Everything the site would state from `run`, experiment by experiment (registry order)."""
    from . import registry  # the site imports the experiments, which import this module

    statements: list[Advice] = []
    for experiment in registry.discover():
        if experiments is not None and experiment.name not in experiments:
            continue
        if not run.has_results(experiment.name):
            continue
        context = contexts.context(experiment, run)
        statements += experiment.advice(context)
    return statements


def changes(base: Run, new: Run, contexts: Contexts, experiments: list[str] | None = None) -> list[AdviceChange]:
    """What the site would say differently if `new` were the reference instead of `base`, for the
    experiments both runs have (of `experiments`, when given)."""
    from . import registry

    shared = [
        e.name
        for e in registry.discover()
        if base.has_results(e.name) and new.has_results(e.name) and (experiments is None or e.name in experiments)
    ]
    return diff(of_run(base, contexts, shared), of_run(new, contexts, shared))
